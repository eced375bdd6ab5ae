"""ltc as the layout stage of Triton 3.9: ``install()`` and every kernel Triton compiles is
laid out by ltc.

    import ltc.triton
    ltc.triton.install()            # or: with ltc.triton.install(): ...
    kernel[grid](...)               # @triton.jit kernels, triton.compile(...)
    ltc.triton.uninstall()

The one module of ltc that imports ``triton`` (when called; ``pip install ltc[triton]``).
It uses Triton's ``knobs.runtime.add_stages_inspection_hook``: called with no arguments it
returns a (key, hash) pair that enters the kernel cache key (``ltc-<version>-<mode>``, so
kernels compiled with and without ltc never share a cache entry); called by the NVIDIA
backend's ``add_stages`` it replaces the ``ttgir`` stage:

1. Triton's TTIR module, printed, is parsed by ltc, which runs
   ``convert-triton-to-tritongpu`` and ``ltc-assign-layouts`` (num-warps and capability
   from Triton's options): the layouts of every value, coalescing and the tensor-core
   operand layouts (what Triton's ``coalesce``, ``remove-layout-conversions``,
   ``optimize-thread-locality`` and ``accelerate-matmul`` decide).
2. The result is parsed back into Triton's context and Triton runs the rest of its
   ``make_ttgir`` (:data:`POST_LAYOUT_PASSES`): dot-operand and descriptor-encoding
   optimizations, loop fusion, LICM, software pipelining and (sm_80) prefetching, the
   async-copy and TMA lowerings, ``reduce-data-duplication``, instruction reordering, fence
   insertion, SCCP / CSE / canonicalization. Triton's ``remove-layout-conversions`` does not
   run again: it would undo ltc's choices with Triton's rule. ``f32-dot-tc``,
   ``assign-cga-layouts`` and ``optimize-cta-locality`` are not needed for what ltc takes
   (one CTA; no tf32x3 / bf16x3 dot, which ltc hands back to Triton).

Where ltc cannot take a kernel (another capability than sm_80 / sm_90, several CTAs, an
op or input it refuses), ``strict=False`` logs one line, ``ltc: <kernel>: <reason>``, and
Triton compiles it with its own stage; ``strict=True`` raises :class:`LtcStageError` with
that message. ``uninstall()`` puts back the hook that was there before.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["POST_LAYOUT_PASSES", "Installation", "LtcStageError", "install", "installed", "uninstall"]

LOG = logging.getLogger("ltc.triton")
MODES = ("layouts",)
"""What ``install`` can do: ``"layouts"`` (ltc's layouts, Triton's code generation)."""


class LtcStageError(RuntimeError):
    """ltc could not lay out a kernel and ``strict=True`` was asked for."""


@dataclass(frozen=True)
class Installation:
    """An installed hook; a context manager that uninstalls it on exit."""

    mode: str
    strict: bool
    previous: Any

    def __enter__(self) -> Installation:
        return self

    def __exit__(self, *exc: object) -> None:
        uninstall()


_state: dict[str, Installation] = {}
"""The installation in force (at most one; Triton's knob is global too)."""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ltc")
    except PackageNotFoundError:  # a source tree without installation
        return "0+unknown"


def install(mode: str = "layouts", strict: bool = False) -> Installation:
    """Make ltc lay out every kernel Triton compiles from now on (see the module doc)."""
    if mode not in MODES:
        raise ValueError(f"mode={mode!r}: must be one of {', '.join(MODES)}")
    from triton import knobs

    if "current" in _state:
        uninstall()
    inst = Installation(mode, strict, knobs.runtime.add_stages_inspection_hook)
    knobs.runtime.add_stages_inspection_hook = _make_hook(inst)
    _state["current"] = inst
    return inst


def uninstall() -> None:
    """Give Triton back the stage hook it had before :func:`install` (no-op if none)."""
    inst = _state.pop("current", None)
    if inst is None:
        return
    from triton import knobs

    knobs.runtime.add_stages_inspection_hook = inst.previous


def installed() -> Installation | None:
    """The installation in force, if any."""
    return _state.get("current")


def _make_hook(inst: Installation) -> Callable[..., Any]:
    key = f"ltc-{_version()}-{inst.mode}{'-strict' if inst.strict else ''}"
    digest = hashlib.sha256(key.encode()).hexdigest()

    def hook(*args: Any) -> Any:
        if not args:  # Triton asks for the cache key
            return key, digest
        backend, stages, options, language, capability = args
        if inst.previous is not None:
            inst.previous(*args)
        from triton.backends.compiler import Language

        if language != Language.TRITON or "ttgir" not in stages:
            return None
        own = stages["ttgir"]
        stages["ttgir"] = lambda src, metadata: _ttgir_stage(src, metadata, options, capability, own, inst.strict)
        return None

    return hook


def _kernel_name(text: str) -> str:
    m = re.search(r"tt\.func\s+(?:public\s+|private\s+)?@([\w$.]+)", text)
    return m.group(1) if m else "<kernel>"


def _refusal(text: str, options: Any, capability: int) -> str | None:
    """Why ltc does not take this kernel, or None."""
    if capability not in (80, 90):
        return f"capability {capability} (ltc lays out for sm_80 and sm_90)"
    if getattr(options, "num_ctas", 1) != 1:
        return f"num_ctas={options.num_ctas} (ltc handles one CTA)"
    if re.search(r"inputPrecision\s*=\s*(tf32x3|bf16x)", text):
        return "a dot with split-precision inputs (Triton's f32-dot-tc rewrites it)"
    return None


def _ttgir_stage(mod: Any, metadata: dict, options: Any, capability: int, own: Callable, strict: bool) -> Any:
    text = str(mod)
    name = _kernel_name(text)
    reason = _refusal(text, options, capability)
    result = None
    if reason is None:
        try:
            result = _lay_out(mod, text, options, capability)
            _post_layout(result, metadata, options, capability)
        except Exception as e:  # noqa: BLE001 - any failure hands the kernel back to Triton
            reason = " ".join(str(e).split())[:300] or type(e).__name__
            result = None
    if result is not None:
        return result
    message = f"ltc: {name}: {reason}"
    if strict:
        raise LtcStageError(message)
    LOG.warning(message)
    return own(mod, metadata)


def _lay_out(mod: Any, text: str, options: Any, capability: int) -> Any:
    """ltc's layouts of Triton's TTIR ``mod``, as a new module in Triton's context."""
    from triton._C.libtriton import ir

    from ltc.tools.pipeline import layout_pipeline, module_text, parse_module, run_pipeline

    module = parse_module(text, _kernel_name(text))
    run_pipeline(module, layout_pipeline(f"sm_{capability}", options.num_warps))
    laid_out = module_text(module, debuginfo=True)
    fd, path = tempfile.mkstemp(prefix="ltc-stage-", suffix=".ttgir")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(laid_out)
        out = ir.parse_mlir_module(path, mod.context)
    finally:
        os.unlink(path)
    out.context = mod.context
    return out


POST_LAYOUT_PASSES: tuple[str, ...] = (
    "ttgpuir.optimize_dot_operands",
    "ttnvgpuir.optimize_descriptor_encoding",
    "ttir.loop_aware_cse",
    "sm8x/9x: ttgpuir.fuse_nested_loops, common.canonicalizer, ttir.triton_licm, common.canonicalizer, "
    "ttgpuir.combine_tensor_select_and_if, hopper.hopper_warpspec, ttgpuir.assign_latencies, "
    "ttgpuir.schedule_loops, ttgpuir.pipeline",
    "common.canonicalizer",
    "ttir.loop_aware_cse",
    "sm8x: ttgpuir.prefetch",
    "ttgpuir.optimize_dot_operands",
    "ttgpuir.coalesce_async_copy",
    "ttnvgpuir.optimize_tmem_layouts",
    "ttnvgpuir.tmem_load_reduce",
    "sm9x: ttnvgpuir.tma_lowering",
    "ttnvgpuir.interleave_tmem",
    "ttgpuir.reduce_data_duplication",
    "ttgpuir.reorder_instructions",
    "ttir.loop_aware_cse",
    "common.symbol_dce",
    "ttnvgpuir.fence_insertion",
    "ttnvgpuir.lower_mma",
    "ttnvgpuir.hoist_mbarrier_lifecycle",
    "common.sccp",
    "common.cse",
    "common.canonicalizer",
)
"""Triton 3.9's ``make_ttgir`` after its layout passes, in order, as :func:`_post_layout`
runs it (the documentation of what follows ltc)."""


def _post_layout(mod: Any, metadata: dict, options: Any, capability: int) -> None:
    from triton._C.libtriton import ir, nvidia, passes

    if options.maxnreg is not None:
        mod.set_attr("ttg.maxnreg", ir.builder(mod.context).get_int32_attr(options.maxnreg))
    pm = ir.pass_manager(mod.context)
    dump = pm.enable_debug()
    stages = options.num_stages
    passes.ttgpuir.add_optimize_dot_operands(pm, capability >= 80)
    nvidia.passes.ttnvgpuir.add_optimize_descriptor_encoding(pm)
    passes.ttir.add_loop_aware_cse(pm)
    if capability // 10 in (8, 9):
        passes.ttgpuir.add_fuse_nested_loops(pm)
        passes.common.add_canonicalizer(pm)
        passes.ttir.add_triton_licm(pm)
        passes.common.add_canonicalizer(pm)
        passes.ttgpuir.add_combine_tensor_select_and_if(pm)
        nvidia.passes.hopper.add_hopper_warpspec(pm, stages, dump)
        passes.ttgpuir.add_assign_latencies(pm, stages)
        passes.ttgpuir.add_schedule_loops(pm)
        passes.ttgpuir.add_pipeline(pm, stages, dump)
    passes.common.add_canonicalizer(pm)
    passes.ttir.add_loop_aware_cse(pm)
    if capability // 10 == 8:
        passes.ttgpuir.add_prefetch(pm)
    passes.ttgpuir.add_optimize_dot_operands(pm, capability >= 80)
    passes.ttgpuir.add_coalesce_async_copy(pm)
    nvidia.passes.ttnvgpuir.add_optimize_tmem_layouts(pm)
    nvidia.passes.ttnvgpuir.add_tmem_load_reduce(pm)
    if capability // 10 >= 9:
        nvidia.passes.ttnvgpuir.add_tma_lowering(pm)
    nvidia.passes.ttnvgpuir.add_interleave_tmem(pm)
    passes.ttgpuir.add_reduce_data_duplication(pm)
    passes.ttgpuir.add_reorder_instructions(pm)
    passes.ttir.add_loop_aware_cse(pm)
    passes.common.add_symbol_dce(pm)
    nvidia.passes.ttnvgpuir.add_fence_insertion(pm, capability)
    nvidia.passes.ttnvgpuir.add_lower_mma(pm)
    nvidia.passes.ttnvgpuir.add_hoist_mbarrier_lifecycle(pm, capability)
    passes.common.add_sccp(pm)
    passes.common.add_cse(pm)
    passes.common.add_canonicalizer(pm)
    pm.run(mod, "make_ttgir")
    metadata["tensordesc_meta"] = mod.get_tensordesc_metadata()
