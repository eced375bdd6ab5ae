"""Triton's default layout assignment, rebuilt from ltc's passes and priced by ltc's
cost model, so that ltc's choice can be compared with it on the same input.

Triton's rule, as ltc reproduces it: coalescing with Triton's per-thread runs
(``span-rows=false``), tensor-core anchors, then every value with several candidate
layouts takes the blocked one next to a global memory op and the tensor-core one
elsewhere (``layout_objective.triton_rule_start``), followed by the same
rematerialization, hoisting and duplication passes. It is an estimate of what Triton
leaves, not Triton itself (``benchmarks/bench_passes.py --corpus`` measures Triton's
real output).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.utils.exceptions import PassFailedException, VerifyException

from ltc.passes.conversion_cost import CostSummary, summarize
from ltc.passes.layout_ir import encoding_of_type
from ltc.passes.layout_engine import FirstMinima
from ltc.passes.layout_log import LayoutLog

__all__ = ["apply_triton_rule", "lay_out", "triton_rule_summary"]


def lay_out(
    ctx: Context,
    module: ModuleOp,
    *,
    span_rows: bool,
    strategy: str,
    log: LayoutLog | None = None,
    first_minima: FirstMinima | None = None,
) -> None:
    """ltc's layout pipeline on ``module`` (which carries layouts already), in place:
    coalesce (``span_rows``), accelerate matmuls, remove conversions by the engine's
    ``strategy`` (and memo ``first_minima``: ``LayoutEngine.first_minima``), reduce
    duplication, canonicalize."""
    from ltc.passes.accelerate_matmul import AccelerateMatmulPass
    from ltc.passes.coalesce import CoalescePass
    from ltc.passes.reduce_data_duplication import reduce_data_duplication
    from ltc.passes.remove_layout_conversions import canonicalize_module, remove_layout_conversions

    CoalescePass(span_rows=span_rows).apply(ctx, module)
    AccelerateMatmulPass().apply(ctx, module)
    settled = remove_layout_conversions(ctx, module, log, cse=False, strategy=strategy, first_minima=first_minima)
    if reduce_data_duplication(module):
        settled = False
    canonicalize_module(ctx, module, cse=True, settled=settled)


def apply_triton_rule(ctx: Context, module: ModuleOp) -> None:
    """Lay out ``module`` (which carries layouts already) by Triton's rule, in place."""
    lay_out(ctx, module, span_rows=False, strategy="triton")


def triton_rule_summary(module: ModuleOp) -> CostSummary | None:
    """Conversions and weighted cost Triton's rule leaves on a copy of ``module``; None
    when the module carries no layouts yet (TTIR) or the rule cannot lay it out."""
    if not any(encoding_of_type(r.type) is not None for op in module.walk() for r in op.results if isinstance(r.type, TensorType)):
        return None
    copy = module.clone()
    try:
        apply_triton_rule(Context(allow_unregistered=True), copy)
    except (PassFailedException, VerifyException, ValueError):
        return None  # the rule cannot lay it out: no comparison rather than a failure
    return summarize(copy)

