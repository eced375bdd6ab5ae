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
from ltc.passes.layout_engine import FirstMinima, LayoutEngine, LayoutLog
from ltc.passes.candidate_layouts import lay_out_never_worse
from ltc.passes.layout_ir import walk_list
from ltc.passes.invariant_carries import use_invariant_carries
from ltc.passes.layout_rules import OpKind, kind_of
from ltc.passes.rematerialize import RematChains, hoist_out_of_loops, rematerialize, sink_into_branches
from ltc.passes.respell import respell

__all__ = ["RemoveLayoutConversionsPass", "canonicalize_module", "remove_layout_conversions"]

MAX_ROUNDS = 8


def canonicalize_module(ctx: Context, module: ModuleOp, cse: bool = False, settled: bool = False) -> bool:
    """Fold conversion chains / identities / converted sources (the ``ttg.convert_layout``
    canonicalization patterns only: the other ops' patterns are not the layout passes'
    business and cost most of the time), drop dead side-effect-free ops, and with
    ``cse`` merge common subexpressions (ranges and splats rebuilt in one layout twice).

    ``settled``: the IR is as a canonicalization that returned True left it (nothing
    changed since), so folding and dead-op removal would do nothing and are skipped.
    Returns whether the result is settled that way: the folding ran to its fixpoint and
    the dead-op removal found nothing (False after ``cse``)."""
    if not settled:
        fold_conversions(module)
        settled = remove_dead_ops(module) == 0
    if cse:
        from ltc.passes.cse import eliminate_common_subexpressions

        eliminate_common_subexpressions(module)
        settled = False
    return settled


def fold_conversions(module: ModuleOp) -> None:
    """The ``ttg.convert_layout`` patterns and trivially dead ops, to a fixpoint: xDSL's
    ``PatternRewriteWalker(GreedyRewritePatternApplier(CONVERT_LAYOUT_PATTERNS))``."""
    from xdsl.pattern_rewriter import GreedyRewritePatternApplier

    from ltc.dialects.ttg.convert_layout import CONVERT_LAYOUT_PATTERNS

    from ltc.passes.rewrite_locations import AtMatchedLocation

    applier = AtMatchedLocation(GreedyRewritePatternApplier(list(CONVERT_LAYOUT_PATTERNS)))
    _walker_type()(applier, apply_recursively=True).rewrite_module(module)


_WALKER: list[type] = []


def _walker_type() -> type:
    """xDSL's walker, skipping without a call the ops the applier cannot change: not a
    conversion (every pattern wants one) and not trivially dead (a result is used).
    The ops are popped in the same order, so the rewrites are the same."""
    if _WALKER:
        return _WALKER[0]
    from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker
    from xdsl.rewriter import InsertPoint

    class _ConversionWalker(PatternRewriteWalker):
        def _process_worklist(self, listener):  # noqa: ANN001, ANN202 - xDSL 0.74's loop with a skip
            worklist = self._worklist
            if not worklist:
                return False
            done = False
            rewriter = None
            while worklist:
                op = worklist.pop()
                if not isinstance(op, ConvertLayoutOp) and any(r.first_use is not None for r in op.results):
                    continue
                if rewriter is None:
                    rewriter = PatternRewriter(op)
                    rewriter.extend_from_listener(listener)
                rewriter.has_done_action = False
                rewriter.current_operation = op
                rewriter.insertion_point = InsertPoint.before(op)
                rewriter.name_hint = None
                try:
                    self.pattern.match_and_rewrite(op, rewriter)
                except Exception as err:
                    op.emit_error(f"Error while applying pattern: {err}", underlying_error=err)
                done |= rewriter.has_done_action
            return done

    _WALKER.append(_ConversionWalker)
    return _ConversionWalker


def remove_dead_ops(module: ModuleOp) -> int:
    """Erase unused ops that only compute values (the layout rules' SOURCE / SAME /
    SHAPE / CONVERT ops other than memory accesses), last first so chains go at once;
    returns how many went."""
    erased = 0
    for op in reversed(walk_list(module)):
        if op.regions or any(r.uses for r in op.results) or not op.results:
            continue
        if op.name in _EFFECTFUL or kind_of(op) not in _PURE_KINDS:
            continue
        Rewriter.erase_op(op)
        erased += 1
    return erased


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
    "ttng.warp_group_dot_wait",
}


def _converts(func: FuncOp) -> list[ConvertLayoutOp]:
    return [op for op in walk_list(func) if isinstance(op, ConvertLayoutOp)]


def remove_layout_conversions(
    ctx: Context,
    module: ModuleOp,
    log: LayoutLog | None = None,
    cse: bool = True,
    strategy: str = "objective",
    first_minima: FirstMinima | None = None,
) -> bool:
    """Run the engine on every function of ``module`` (in place); ``cse`` merges common
    subexpressions at the end (a caller that canonicalizes afterwards skips it);
    ``strategy`` is the engine's (``LayoutEngine.strategy``), ``first_minima`` its
    memo (``LayoutEngine.first_minima``). Returns whether the result is settled
    (``canonicalize_module``)."""
    use_invariant_carries(module)
    funcs = [op for op in walk_list(module) if isinstance(op, FuncOp)]
    for func in funcs:
        if not func.body.blocks:
            continue
        if log is not None:
            log.function(func, func.sym_name.data)
        engine = LayoutEngine(func.body, log, strategy, first_minima)
        engine.propagate()
        engine.rewrite(engine.resolve())
    settled = canonicalize_module(ctx, module)
    chains = RematChains(in_thread_reductions=strategy == "triton")
    for _ in range(MAX_ROUNDS):
        changed = False
        for func in funcs:
            for cvt in _converts(func):
                if cvt.parent is None:
                    continue
                if rematerialize(cvt, log, chains) or sink_into_branches(cvt, log) or hoist_out_of_loops(cvt):
                    changed = True
        # (a round that changed nothing left a settled IR as it was)
        settled = canonicalize_module(ctx, module, settled=settled and not changed)
        if not changed:
            break
    removed, respelled = respell(module)
    if removed:
        settled = canonicalize_module(ctx, module)
    elif respelled:
        settled = False
    return canonicalize_module(ctx, module, cse=cse, settled=settled)


@dataclass(frozen=True)
class RemoveLayoutConversionsPass(ModulePass):
    """Choose layouts for every tensor with the fewest, cheapest conversions."""

    name = "tritongpu-remove-layout-conversions"

    debug_layouts: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        log = LayoutLog() if self.debug_layouts else None
        # as in ltc-assign-layouts: never more than Triton's rule would leave
        lay_out_never_worse(
            op,
            lambda m, strategy, first, log_: remove_layout_conversions(
                ctx, m, log_, strategy=strategy, first_minima=first),
            lambda m: remove_layout_conversions(ctx, m, strategy="triton"),
            log,
        )
        if log is not None:
            sys.stderr.write(log.text(op))
