"""The Python API of the driver: parse Triton IR, run a pass pipeline, print it.

    import ltc.pipeline as P
    text = P.compile(open("softmax.ttir").read(),
                     "convert-triton-to-tritongpu{num-warps=4 target=cuda:90},ltc-assign-layouts")

``parse_module`` raises ``PipelineError`` (with a ``file:line:col: error:`` message) for
bad input; ``run_pipeline`` raises it for an unknown pass or a failing one. The pipeline
spec is the one ``ltc-opt -p`` takes (xDSL's ``a,b{k=v}`` syntax).
"""

from __future__ import annotations

import io

from xdsl.dialects.builtin import ModuleOp

__all__ = ["PipelineError", "compile", "module_text", "parse_module", "run_pipeline"]


class PipelineError(Exception):
    """Bad input text, an unknown pass, or a pass that failed; ``str()`` is the message."""


def parse_module(text: str, name: str = "<input>", verify: bool = True) -> ModuleOp:
    """Parse (and by default verify) one module of Triton IR text."""
    from ltc.diagnostics import SourceFile
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
    from xdsl.passes import PassPipeline

    from ltc.dialects.context import triton_context
    from ltc.dialects.verifier import OpVerifyError, verify_module
    from ltc.passes.registry import normalize_pipeline_spec, pass_factories

    if spec.strip():
        try:
            pipeline = PassPipeline.parse_spec(pass_factories(), normalize_pipeline_spec(spec))
        except Exception as e:  # xDSL reports unknown passes and bad options this way
            raise PipelineError(f"bad pipeline {spec!r}: {e}") from None
        try:
            pipeline.apply(triton_context(), module)
        except Exception as e:  # a pass refused the input (xDSL's PassFailedException, ValueError, ...)
            raise PipelineError(f"a pass failed: {type(e).__name__}: {e}") from None
    if verify:
        try:
            verify_module(module)
        except OpVerifyError as e:
            raise PipelineError(f"after pipeline {spec!r}: {e.message}") from None
    return module


def module_text(module: ModuleOp, debuginfo: bool = False) -> str:
    """``module`` printed as Triton prints it (alias header, ``module attributes``)."""
    from ltc.dialects.printer import print_module

    out = io.StringIO()
    print_module(module, out, debuginfo=debuginfo)
    return out.getvalue()


def compile(text: str, pipeline: str, name: str = "<input>") -> str:  # noqa: A001 - the API name
    """Parse ``text``, run ``pipeline``, return the printed result."""
    return module_text(run_pipeline(parse_module(text, name), pipeline))
