"""The Python API of the driver: parse Triton IR, run a pass pipeline, print it.

    import ltc.tools.pipeline as P
    text = P.compile(open("softmax.ttir").read(),
                     "convert-triton-to-tritongpu{num-warps=4 target=cuda:90},ltc-assign-layouts")

``parse_module`` raises ``PipelineError`` (with a ``file:line:col: error:`` message) for
bad input; ``run_pipeline`` raises it for an unknown pass or a failing one. The pipeline
spec is the one ``ltc-opt -p`` takes (xDSL's ``a,b{k=v}`` syntax).
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # xDSL is imported when a function needs it (ltc-opt --help stays fast)
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.passes import PassPipeline

__all__ = [
    "EMIT_KINDS",
    "PipelineError",
    "TARGETS",
    "all_passes",
    "compile",
    "compile_kernel",
    "emit_text",
    "layout_pipeline",
    "lower_to_llvm",
    "module_text",
    "parse_module",
    "parse_pass_pipeline",
    "refusal_types",
    "run_pipeline",
]

TARGETS = ("sm_80", "sm_90")
"""The GPU targets code generation supports."""
EMIT_KINDS = ("mlir", "llvm", "ptx")
"""What ``ltc-opt --emit`` prints: the (lowered) IR, LLVM IR text, or PTX text."""


class PipelineError(Exception):
    """Bad input text, an unknown pass, or a pass that failed; ``str()`` is the message,
    ``op`` the offending op when one is known (a construct the lowering does not handle)."""

    def __init__(self, message: str, op: object = None) -> None:
        super().__init__(message)
        self.op = op


def parse_module(text: str, name: str = "<input>", verify: bool = True) -> ModuleOp:
    """Parse (and by default verify) one module of Triton IR text."""
    from ltc.tools.diagnostics import SourceFile
    from ltc.dialects.context import triton_context
    from ltc.dialects.reader import SourceError, parse_module_text
    from ltc.dialects.verifier import OpVerifyError, verify_module

    source = SourceFile(name, text)
    try:
        parsed = parse_module_text(triton_context(), text, name)
    except SourceError as e:
        raise PipelineError(source.diagnostic(e.offset, e.message)) from None
    if verify:
        try:
            verify_module(parsed.module)
        except OpVerifyError as e:
            raise PipelineError(source.diagnostic(parsed.op_offsets.get(e.op, 0), e.message)) from None
    return parsed.module


def run_pipeline(module: ModuleOp, spec: str, verify: bool = True) -> ModuleOp:
    """Run the passes of ``spec`` on ``module`` in place (and verify the result)."""
    from ltc.dialects.context import triton_context
    from ltc.dialects.verifier import OpVerifyError, verify_module

    if spec.strip():
        pipeline = parse_pass_pipeline(spec)
        try:
            pipeline.apply(triton_context(), module)
        except refusal_types() as e:  # anything else a pass raises is a bug in ltc: it propagates
            message = getattr(e, "message", None) or str(e)
            raise PipelineError(" ".join(message.split()), getattr(e, "op", None)) from None
    if verify:
        try:
            verify_module(module)
        except OpVerifyError as e:
            raise PipelineError(f"after pipeline {spec!r}: {e.message}") from None
    return module


def refusal_types() -> tuple[type[BaseException], ...]:
    """The exceptions by which a pass refuses its input (bad or unsupported IR, reported
    at ``e.op`` when it has one); anything else a pass raises is a bug in ltc."""
    from xdsl.utils.exceptions import DiagnosticException, PassFailedException, VerifyException

    from ltc.lowering.llvm.function import LoweringError

    return (PassFailedException, VerifyException, DiagnosticException, LoweringError, PipelineError)


def parse_pass_pipeline(spec: str) -> PassPipeline:
    """xDSL's pipeline for ``spec`` (``a,b{k=v}``, Triton's ``target=cuda:90`` accepted).

    Raises ``PipelineError`` with a one-line message naming the column, the unknown
    pass or the bad option (a pass checks its options when it is constructed).
    """
    return _parse_pass_pipeline(spec, tuple(pass_factories().items()))


# Parsing a spec and constructing its passes costs about a millisecond, a sizeable part
# of laying out a small kernel; the pipeline (a frozen dataclass of frozen passes) is
# immutable, so one per spec (and set of registered passes) is shared.
@lru_cache(maxsize=64)
def _parse_pass_pipeline(spec: str, factory_items: tuple) -> PassPipeline:
    from xdsl.passes import PassPipeline
    from xdsl.utils.arg_spec import parse_pipeline
    from xdsl.utils.exceptions import ArgSpecParseError

    from ltc.passes.registry import normalize_pipeline_spec

    factories = dict(factory_items)
    try:
        unknown = [p.name for p in parse_pipeline(normalize_pipeline_spec(spec)) if p.name not in factories]
        if unknown:
            raise PipelineError(f"bad pass pipeline '{spec}': unknown pass '{unknown[0]}' ({PROG_HINT})")
        return PassPipeline.parse_spec(factories, normalize_pipeline_spec(spec))
    except ArgSpecParseError as e:  # a BaseException in xDSL: "pass-pipeline:1:COL ... MSG"
        lines = [line.strip() for line in str(e).splitlines() if line.strip()]
        where = next((line.rsplit(":", 1)[-1] for line in lines if line.startswith("pass-pipeline:")), "?")
        raise PipelineError(f"bad pass pipeline '{spec}' at column {where}: {lines[-1]}") from None
    except (ValueError, TypeError) as e:  # unknown passes, unknown or bad options
        raise PipelineError(f"bad pass pipeline '{spec}': {' '.join(str(e).split())}") from None


PROG_HINT = "ltc-opt --help lists the passes and their options"

def module_text(module: ModuleOp, debuginfo: bool = False) -> str:
    """``module`` printed as Triton prints it (alias header, ``module attributes``)."""
    from ltc.dialects.printer import print_module

    out = io.StringIO()
    print_module(module, out, debuginfo=debuginfo)
    return out.getvalue()


def compile(text: str, pipeline: str, name: str = "<input>") -> str:  # noqa: A001 - the API name
    """Parse ``text``, run ``pipeline``, return the printed result."""
    return module_text(run_pipeline(parse_module(text, name), pipeline))


def all_passes() -> dict:
    """Every pass ``ltc-opt`` knows: the layout passes, then the lowering passes
    (name -> (factory, one-line description))."""
    from ltc.lowering.llvm.registry import LOWERING_PASSES
    from ltc.passes.registry import PASS_REGISTRY

    return {**PASS_REGISTRY, **LOWERING_PASSES}


def pass_factories() -> dict:
    """``{name: factory}`` of :func:`all_passes`, as ``PassPipeline.parse_spec`` takes it."""
    return {name: factory for name, (factory, _) in all_passes().items()}


def default_target(module: ModuleOp) -> str:
    """The code-generation target a module asks for by its ``ttg.target``: sm_80 for
    ``cuda:80``–``cuda:89``, sm_90 for anything newer or without one (TTIR)."""
    from ltc.passes.layout_ir import ModuleConfig

    return "sm_80" if 80 <= ModuleConfig.of(module).capability < 90 else "sm_90"


def layout_pipeline(target: str = "sm_90", num_warps: int = 4) -> str:
    """The pipeline that lays out TTIR for ``target``: Triton's defaults, then ltc's
    layout assignment."""
    cap = target.removeprefix("sm_")
    return f"convert-triton-to-tritongpu{{num-warps={num_warps} target=cuda:{cap}}},ltc-assign-layouts"


def _is_laid_out(module: ModuleOp) -> bool:
    return "ttg.num-warps" in module.attributes


def _is_lowered(module: ModuleOp) -> bool:
    return any(op.name == "llvm.func" for op in module.body.block.ops)


def _check_kernel_module(module: ModuleOp) -> None:
    """Refuse what code generation cannot make a kernel of: no function. (The CTA's
    size is checked where it is set: the layout pass's options, or the lowering.)"""
    if not any(op.name == "tt.func" for op in module.body.block.ops):
        raise PipelineError("nothing to compile: the input has no tt.func")


def lower_to_llvm(
    module: ModuleOp, target: str = "sm_90", num_warps: int = 4, *, fp_fusion: bool = True
) -> ModuleOp:
    """``module`` (TTIR, TTGIR or already lowered) lowered in place to per-thread LLVM-dialect
    IR: TTIR runs :func:`layout_pipeline` first. ``fp_fusion``: Triton's ``enable_fp_fusion``
    (float mul + add may become one fma). Raises ``PipelineError``."""
    if target not in TARGETS:
        raise PipelineError(f"unknown target '{target}' (expected one of {', '.join(TARGETS)})")
    if _is_lowered(module):
        return module
    _check_kernel_module(module)
    if not _is_laid_out(module):
        run_pipeline(module, layout_pipeline(target, num_warps))
    from ltc.lowering.llvm.function import LoweringError
    from ltc.lowering.llvm.to_llvm import lower_module

    try:
        lower_module(module, target, fp_fusion=fp_fusion)
    except LoweringError as e:
        raise PipelineError(e.message, e.op) from None
    return module


def emit_text(module: ModuleOp, emit: str, target: str = "sm_90") -> str:
    """A lowered module as ``emit`` text: ``llvm`` (LLVM IR) or ``ptx``."""
    from ltc.lowering.emit.common import EmitError

    try:
        if emit == "llvm":
            from ltc.lowering.emit.llvm_ir import emit_llvm_ir

            return emit_llvm_ir(module)
        if emit == "ptx":
            from ltc.lowering.emit.ptx import emit_ptx

            return emit_ptx(module, target)
    except EmitError as e:
        raise PipelineError(str(e)) from None
    raise PipelineError(f"unknown emit kind '{emit}' (expected llvm or ptx)")


def compile_kernel(
    text: str,
    *,
    emit: str = "ptx",
    target: str = "sm_90",
    name: str = "<input>",
    num_warps: int = 4,
    fp_fusion: bool = True,
) -> str:
    """TTIR or TTGIR text (one module) → PTX (``emit="ptx"``), LLVM IR (``"llvm"``) or the
    lowered MLIR (``"mlir"``) for ``target``. TTIR is laid out with ``num_warps`` warps;
    ``fp_fusion`` as Triton's ``enable_fp_fusion`` (default on)."""
    module = lower_to_llvm(parse_module(text, name), target, num_warps, fp_fusion=fp_fusion)
    if emit == "mlir":
        return str(module) + "\n"
    return emit_text(module, emit, target)
