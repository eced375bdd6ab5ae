"""Values that ``scf`` ops carry unchanged, used directly.

An ``scf.for`` iter value whose loop yields either its own iter argument or the very
value it was initialized with holds that init value in every iteration and after the
loop (also after zero iterations); an ``scf.if`` result that both branches yield as the
same SSA value (which must then be defined outside the ``if``) is that value. Their
users read the value itself, so the layout passes see one value where the IR had a
chain of carries: a conversion of it can then be rematerialized from its producers
instead of staying after the loop (MLIR's ``scf`` canonicalization folds the same).
The carries stay, unused (removing an iter argument rebuilds the loop).
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.ir import Operation

from ltc.passes.layout_ir import walk_list

__all__ = ["use_invariant_carries"]


def use_invariant_carries(root: Operation) -> int:
    """Point the users of every invariant carry under ``root`` at the carried value
    (module doc); returns how many carries were bypassed."""
    total = 0
    while done := _bypass_once(root):  # an if's yields may become one value only now
        total += done
    return total


def _bypass_once(root: Operation) -> int:
    done = 0
    for op in walk_list(root):
        if isinstance(op, scf.ForOp):
            y = op.body.block.last_op
            if not isinstance(y, scf.YieldOp):
                continue
            for i, res in enumerate(op.results):
                init, arg, out = op.operands[3 + i], op.body.block.args[1 + i], y.operands[i]
                read = any(u.operation is not y for u in arg.uses) or bool(res.uses)
                if (out is arg or out is init) and init.type == arg.type == res.type and read:
                    # the yield itself may use the iter argument: keep that one use
                    arg.replace_uses_with_if(init, lambda u, y=y: u.operation is not y)
                    res.replace_all_uses_with(init)
                    done += 1
        elif isinstance(op, scf.IfOp) and len(op.regions) == 2:
            yields = [r.block.last_op if r.blocks else None for r in op.regions]
            if not all(isinstance(y, scf.YieldOp) for y in yields):
                continue
            for i, res in enumerate(op.results):
                a, b = yields[0].operands[i], yields[1].operands[i]  # type: ignore[union-attr]
                if a is b and a.type == res.type and res.uses:
                    res.replace_all_uses_with(a)
                    done += 1
    return done
