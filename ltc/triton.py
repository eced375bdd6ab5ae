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

A stage ``ltc-report`` is inserted right after ``ttgir``: its output, and so
``compiled.asm["ltc-report"]``, is the JSON conversion report (``ltc-opt
--conversion-report=json``) of the module ltc laid out, or ``null`` where ltc did not lay
the kernel out. It hands the TTGIR module on to ``llir`` itself (Triton passes each stage's
output to the next one; the report stage's output is the JSON text that Triton stores).

``install("codegen")`` also replaces the ``ptx`` stage's output by ltc's own PTX
(``ltc.tools.pipeline``: the TTGIR module Triton hands to ``llir``, lowered and emitted by
ltc for ``sm_80`` / ``sm_90`` with Triton's ``enable_fp_fusion``). Triton's ``llir`` still
runs (its metadata: warps, scratch sizes); then ``metadata["shared"]`` becomes ltc's
``ttg.shared``, ``metadata["name"]`` ltc's entry (the same name), and the entry gains
unused ``.u64`` parameters for the trailing pointers Triton's launcher passes (global and
profile scratch), so the arguments line up. Triton's ``make_cubin`` assembles it. Where
ltc cannot lower an op of a kernel it laid out, one line ``ltc: <kernel>: codegen:
<reason>`` (or :class:`LtcStageError` with ``strict=True``) and Triton's PTX is kept; a
kernel ltc did not lay out keeps Triton's PTX without a second line.
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
MODES = ("layouts", "codegen")
"""What ``install`` can do: ``"layouts"`` (ltc's layouts, Triton's code generation) and
``"codegen"`` (ltc's layouts and ltc's PTX, Triton's ``ptxas``)."""
REPORT_STAGE = "ltc-report"
"""The stage (and ``compiled.asm`` key) holding ltc's conversion report."""


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
        _wrap_stages(stages, _Compilation(inst, options, capability))
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


class _Compilation:
    """The state of one ``triton.compile`` call between its stages (Triton builds a fresh
    ``stages`` dict, and so calls the hook, for every compilation)."""

    def __init__(self, inst: Installation, options: Any, capability: int) -> None:
        self.inst, self.options, self.capability = inst, options, capability
        self.report: str | None = None  # ltc's conversion report (JSON) when ltc laid out
        self.module: Any = None  # the TTGIR module, from the report stage to llir
        self.ttgir: str | None = None  # its text before llir lowers it in place

    def ttgir_stage(self, src: Any, metadata: dict, own: Callable) -> Any:
        sink: list[str] = []
        out = _ttgir_stage(src, metadata, self.options, self.capability, own, self.inst.strict, sink)
        self.report = sink[0] if sink else None
        return out

    def report_stage(self, src: Any, metadata: dict) -> str:
        self.module = src
        return self.report if self.report is not None else "null\n"

    def llir_stage(self, src: Any, metadata: dict, own: Callable) -> Any:
        module = self.module if self.module is not None and isinstance(src, str) else src
        self.module = None
        if self.inst.mode == "codegen" and self.report is not None:
            self.ttgir = str(module)  # Triton's make_llir lowers the module in place
        return own(module, metadata)

    def ptx_stage(self, src: str, metadata: dict, own: Callable) -> str:
        if self.ttgir is None:  # ltc did not lay it out (already said) or another mode
            return own(src, metadata)
        try:
            return _ltc_ptx(self.ttgir, src, metadata, self.options, self.capability)
        except Exception as e:  # noqa: BLE001 - any failure hands the kernel back to Triton
            reason = " ".join(str(e).split())[:300] or type(e).__name__
        message = f"ltc: {_kernel_name(self.ttgir)}: codegen: {reason}"
        if self.inst.strict:
            raise LtcStageError(message)
        LOG.warning(message)
        return own(src, metadata)


def _wrap_stages(stages: dict, comp: _Compilation) -> None:
    """Wrap ``ttgir``, ``llir`` and (codegen) ``ptx``; insert the report stage after
    ``ttgir``. ``stages`` is Triton's own dict, changed in place (its order is the order
    the stages run in)."""
    wrapped: dict[str, Callable] = {}
    for name, own in stages.items():
        if name == "ttgir":
            wrapped[name] = lambda src, md, own=own: comp.ttgir_stage(src, md, own)
            wrapped[REPORT_STAGE] = comp.report_stage
        elif name == "llir":
            wrapped[name] = lambda src, md, own=own: comp.llir_stage(src, md, own)
        elif name == "ptx" and comp.inst.mode == "codegen":
            wrapped[name] = lambda src, md, own=own: comp.ptx_stage(src, md, own)
        else:
            wrapped[name] = own
    stages.clear()
    stages.update(wrapped)


def _ttgir_stage(
    mod: Any,
    metadata: dict,
    options: Any,
    capability: int,
    own: Callable,
    strict: bool,
    report: list[str] | None = None,
) -> Any:
    text = str(mod)
    name = _kernel_name(text)
    reason = _refusal(text, options, capability)
    result = None
    if reason is None:
        try:
            result = _lay_out(mod, text, options, capability, report=report)
            _post_layout(result, metadata, options, capability)
        except Exception as e:  # noqa: BLE001 - any failure hands the kernel back to Triton
            reason = " ".join(str(e).split())[:300] or type(e).__name__
            result = None
            if report is not None:
                report.clear()
    if result is not None:
        return result
    message = f"ltc: {name}: {reason}"
    if strict:
        raise LtcStageError(message)
    LOG.warning(message)
    return own(mod, metadata)


def _lay_out(mod: Any, text: str, options: Any, capability: int, report: list[str] | None = None) -> Any:
    """ltc's layouts of Triton's TTIR ``mod``, as a new module in Triton's context; its
    conversion report (JSON, as ``ltc-opt --conversion-report=json``) goes to ``report``."""
    from triton._C.libtriton import ir

    from ltc.tools.pipeline import layout_pipeline, module_text, parse_module, run_pipeline

    module = parse_module(text, _kernel_name(text))
    run_pipeline(module, layout_pipeline(f"sm_{capability}", options.num_warps))
    if report is not None:
        from ltc.passes.conversion_report import format_json, report_json

        report.append(format_json(report_json(module, aliases=False)))
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


_ENTRY = re.compile(r"\.visible\s+\.entry\s+([A-Za-z_$][\w$]*)\s*\(([^)]*)\)")


def _ltc_ptx(ttgir: str, llir: str, metadata: dict, options: Any, capability: int) -> str:
    """ltc's PTX of the TTGIR text ``ttgir``, made to stand in for Triton's (whose LLVM IR
    is ``llir``): same entry, Triton's trailing parameters, ``metadata`` updated."""
    from ltc.tools.pipeline import emit_text, lower_to_llvm, parse_module

    name, target = _kernel_name(ttgir), f"sm_{capability}"
    # compile_kernel(ttgir, emit="ptx") in two steps: the lowered module gives ttg.shared
    module = lower_to_llvm(parse_module(ttgir, name), target, options.num_warps, fp_fusion=options.enable_fp_fusion)
    ptx = emit_text(module, "ptx", target)
    entries = _ENTRY.findall(ptx)
    if len(entries) != 1:
        raise ValueError(f"ltc's PTX has {len(entries)} entries")
    entry, params = entries[0]
    theirs, their_count = _llvm_signature(llir)
    if entry != theirs:
        raise ValueError(f"ltc's entry {entry} is not Triton's {theirs}")
    ours = params.count(".param")
    if their_count < ours:
        raise ValueError(f"Triton's kernel has {their_count} parameters, ltc's {ours}")
    reqntid = re.search(r"\.reqntid\s+(\d+),\s*(\d+),\s*(\d+)", ptx)
    threads = 32 * metadata.get("num_warps", options.num_warps)
    if reqntid and int(reqntid[1]) * int(reqntid[2]) * int(reqntid[3]) != threads:
        raise ValueError(f"ltc's .reqntid {reqntid[0]} is not Triton's {threads} threads")
    extra = [f"\t.param .u64 {entry}_param_{i}" for i in range(ours, their_count)]
    if extra:  # Triton's launcher passes them (global and profile scratch); unused here
        listed = [p.strip() for p in params.split(",") if p.strip()]
        body = ",\n".join([f"\t{p}" for p in listed] + extra)
        ptx = ptx.replace(f"{entry}({params})", f"{entry}(\n{body}\n)", 1)
    metadata["name"] = entry
    # Triton's launcher asks for metadata["shared"] bytes of *dynamic* shared memory: ltc's
    # scratch is dynamic (``.extern``) only above 48 KiB, a static array below
    dynamic = re.search(r"\.extern\s+\.shared", ptx) is not None
    metadata["shared"] = module.attributes["ttg.shared"].value.data if dynamic else 0  # type: ignore[attr-defined]
    return ptx


def _llvm_signature(llir: str) -> tuple[str, int]:
    """The kernel name and parameter count of the one ``define`` of Triton's LLVM IR."""
    m = re.search(r"^define\b[^@\n]*@([\w$.]+)\(", llir, re.M)
    if not m:
        raise ValueError("no kernel in Triton's LLVM IR")
    depth, count, seen, i = 0, 0, False, m.end()
    while i < len(llir):
        c = llir[i]
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            count += 1
        elif not c.isspace():
            seen = True
        i += 1
    return m.group(1), count + 1 if seen else 0
