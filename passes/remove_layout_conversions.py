"""``tritongpu-remove-layout-conversions``: the layout engine over every function.

Per ``tt.func``: propagate anchor layouts and resolve conflicts by cost
(``layout_engine``), rewrite with conversions where ops need them, canonicalize, then
repeatedly rematerialize conversions backward, hoist them out of loops and sink them
into ``scf.if`` branches (``rematerialize``) until nothing changes, and canonicalize.
With ``debug-layouts=true`` the reason for every layout goes to stderr.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ltc.dialects.tt import FuncOp
from ltc.dialects.ttg import ConvertLayoutOp
from ltc.passes.layout_engine import LayoutEngine, LayoutLog
from ltc.passes.invariant_carries import use_invariant_carries
from ltc.passes.layout_rules import OpKind, kind_of
from ltc.passes.conversion_cost import never_worse_than_rule
from ltc.passes.rematerialize import RematChains, hoist_out_of_loops, rematerialize, sink_into_branches
from ltc.passes.respell import respell_conversions

__all__ = ["RemoveLayoutConversionsPass", "canonicalize_module", "remove_layout_conversions"]

MAX_ROUNDS = 8


def canonicalize_module(ctx: Context, module: ModuleOp, cse: bool = False) -> None:
    """Fold conversion chains / identities / converted sources (the ``ttg.convert_layout``
    canonicalization patterns only: the other ops' patterns are not the layout passes'
    business and cost most of the time), drop dead side-effect-free ops, and with
    ``cse`` merge common subexpressions (ranges and splats rebuilt in one layout twice)."""
    from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker

    from ltc.dialects.ttg.convert_layout import CONVERT_LAYOUT_PATTERNS

    PatternRewriteWalker(GreedyRewritePatternApplier(list(CONVERT_LAYOUT_PATTERNS)), apply_recursively=True).rewrite_module(module)
    remove_dead_ops(module)
    if cse:
        from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

        CommonSubexpressionElimination().apply(ctx, module)


def remove_dead_ops(module: ModuleOp) -> None:
    """Erase unused ops that only compute values (the layout rules' SOURCE / SAME /
    SHAPE / CONVERT ops other than memory accesses), last first so chains go at once."""
    for op in reversed(list(module.walk())):
        if op.regions or any(r.uses for r in op.results) or not op.results:
            continue
        if op.name in _EFFECTFUL or kind_of(op) not in _PURE_KINDS:
            continue
        Rewriter.erase_op(op)


_PURE_KINDS = (OpKind.SOURCE, OpKind.SAME, OpKind.SHAPE, OpKind.CONVERT)
_EFFECTFUL = {
    "tt.load",
    "tt.store",
    "tt.atomic_rmw",
    "tt.atomic_cas",
    "ttg.local_load",
    "tt.histogram",
    "tt.elementwise_inline_asm",
    "tt.extern_elementwise",
}


def _converts(func: FuncOp) -> list[ConvertLayoutOp]:
    return [op for op in func.walk() if isinstance(op, ConvertLayoutOp)]


def remove_layout_conversions(
    ctx: Context, module: ModuleOp, log: LayoutLog | None = None, cse: bool = True, strategy: str = "objective"
) -> None:
    """Run the engine on every function of ``module`` (in place); ``cse`` merges common
    subexpressions at the end (a caller that canonicalizes afterwards skips it);
    ``strategy`` is the engine's (``LayoutEngine.strategy``)."""
    use_invariant_carries(module)
    funcs = [op for op in module.walk() if isinstance(op, FuncOp)]
    for func in funcs:
        if not func.body.blocks:
            continue
        if log is not None:
            log.function(func, func.sym_name.data)
        engine = LayoutEngine(func.body, log, strategy)
        engine.propagate()
        engine.rewrite(engine.resolve())
    canonicalize_module(ctx, module)
    chains = RematChains(in_thread_reductions=strategy == "triton")
    for _ in range(MAX_ROUNDS):
        changed = False
        for func in funcs:
            for cvt in _converts(func):
                if cvt.parent is None:
                    continue
                if rematerialize(cvt, log, chains) or sink_into_branches(cvt, log) or hoist_out_of_loops(cvt):
                    changed = True
        canonicalize_module(ctx, module)
        if not changed:
            break
    if respell_conversions(module):
        canonicalize_module(ctx, module)
    canonicalize_module(ctx, module, cse=cse)


@dataclass(frozen=True)
class RemoveLayoutConversionsPass(ModulePass):
    """Choose layouts for every tensor with the fewest, cheapest conversions."""

    name = "tritongpu-remove-layout-conversions"

    debug_layouts: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        log = LayoutLog() if self.debug_layouts else None
        # As in ltc-assign-layouts: never more than Triton's rule would leave.
        never_worse_than_rule(
            op,
            lambda m: remove_layout_conversions(ctx, m, log),
            lambda m: remove_layout_conversions(ctx, m, strategy="triton"),
            log.add if log is not None else None,
        )
        if log is not None:
            sys.stderr.write(log.text(op))
