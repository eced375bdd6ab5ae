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

from ltc.dialects.tt import FuncOp
from ltc.dialects.ttg import ConvertLayoutOp
from ltc.passes.layout_engine import LayoutEngine, LayoutLog
from ltc.passes.rematerialize import hoist_out_of_loops, rematerialize, sink_into_branches

__all__ = ["RemoveLayoutConversionsPass", "canonicalize_module", "remove_layout_conversions"]

MAX_ROUNDS = 8


def canonicalize_module(ctx: Context, module: ModuleOp) -> None:
    """Fold conversion chains / identities / converted sources, merge common
    subexpressions (ranges and splats rebuilt in one layout twice), drop dead ops."""
    from xdsl.transforms.canonicalize import CanonicalizePass
    from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

    CanonicalizePass().apply(ctx, module)
    CommonSubexpressionElimination().apply(ctx, module)


def _converts(func: FuncOp) -> list[ConvertLayoutOp]:
    return [op for op in func.walk() if isinstance(op, ConvertLayoutOp)]


def remove_layout_conversions(ctx: Context, module: ModuleOp, log: LayoutLog | None = None) -> None:
    """Run the engine on every function of ``module`` (in place)."""
    funcs = [op for op in module.walk() if isinstance(op, FuncOp)]
    for func in funcs:
        if not func.body.blocks:
            continue
        if log is not None:
            log.add(f"// layouts of @{func.sym_name.data}")
        engine = LayoutEngine(func.body.block, log)
        engine.propagate()
        engine.rewrite(engine.resolve())
    canonicalize_module(ctx, module)
    for _ in range(MAX_ROUNDS):
        changed = False
        for func in funcs:
            for cvt in _converts(func):
                if cvt.parent is None:
                    continue
                if rematerialize(cvt, log) or sink_into_branches(cvt, log) or hoist_out_of_loops(cvt):
                    changed = True
        canonicalize_module(ctx, module)
        if not changed:
            break


@dataclass(frozen=True)
class RemoveLayoutConversionsPass(ModulePass):
    """Choose layouts for every tensor with the fewest, cheapest conversions."""

    name = "tritongpu-remove-layout-conversions"

    debug_layouts: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        log = LayoutLog() if self.debug_layouts else None
        remove_layout_conversions(ctx, op, log)
        if log is not None:
            sys.stderr.write(log.text())
