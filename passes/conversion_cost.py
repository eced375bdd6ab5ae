"""The cost model of layout conversions in a function: plan price × execution weight.

A ``ttg.convert_layout`` costs the price of the plan ltc makes for it
(``ltc.lowering.plans.cost.conversion_cost``: memory-pipe cycles per warp) times its
*execution weight*: the product over its enclosing loops of the trip count of an
``scf.for`` with constant bounds, and ``LOOP_FACTOR`` for any other loop (``scf.for``
with unknown bounds, ``scf.while``). The same model prices ltc's output and Triton's,
so the two compare.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import PassFailedException, VerifyException

from ltc.dialects.ttg import ConvertLayoutOp
from ltc.lowering.plans.cost import ConversionCost, conversion_cost
from ltc.passes.ir_snapshot import rebuild, snapshot
from ltc.passes.layout_ir import ModuleConfig, linear_layout_of, walk_list
from ltc.passes.layout_rules import element_bytes

__all__ = [
    "LOOP_FACTOR",
    "ConvertSite",
    "CostSummary",
    "constant_trip_count",
    "convert_sites",
    "element_bits_of",
    "execution_weight",
    "never_worse_than_rule",
    "loop_depth",
    "price",
    "summarize",
]

LOOP_FACTOR = 16
"""Weight of a loop whose trip count is not a constant."""


def _constant_int(v: SSAValue) -> int | None:
    op = v.owner
    if isinstance(op, Operation) and op.name == "arith.constant":
        attr = op.properties.get("value")
        if attr is None:
            attr = op.attributes.get("value")
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


def constant_trip_count(loop: scf.ForOp) -> int | None:
    """The trip count of an ``scf.for`` whose bounds and step are constants, else None."""
    lb, ub, step = (_constant_int(v) for v in (loop.lb, loop.ub, loop.step))
    if lb is None or ub is None or step is None or step <= 0:
        return None
    return max(0, math.ceil((ub - lb) / step))


def _loops(op: Operation) -> list[Operation]:
    out = []
    cur = op.parent_op()
    while cur is not None:
        if isinstance(cur, (scf.ForOp, scf.WhileOp)):
            out.append(cur)
        cur = cur.parent_op()
    return out


def loop_depth(op: Operation) -> int:
    """How many loops enclose ``op``."""
    return len(_loops(op))


def execution_weight(op: Operation) -> float:
    """How many times ``op`` runs per kernel launch, as the module doc models it."""
    w = 1.0
    for loop in _loops(op):
        n = constant_trip_count(loop) if isinstance(loop, scf.ForOp) else None
        w *= max(n, 1) if n is not None else LOOP_FACTOR
    return w


def element_bits_of(t: Attribute) -> int:
    """Bits of one element of a tensor type (pointers 64, i1 8)."""
    return element_bytes(t) * 8 if isinstance(t, TensorType) else 32


def price(src_type: Attribute, dst_type: Attribute, capability: int = 90) -> ConversionCost:
    """The plan price of converting a tensor of ``src_type`` to ``dst_type`` (same shape
    and element type, other layout)."""
    src, dst = linear_layout_of(src_type), linear_layout_of(dst_type)
    if src is None or dst is None:
        raise ValueError("a conversion between tensors without distributed layouts")
    return conversion_cost(src, dst, element_bits_of(src_type), capability)


@dataclass(frozen=True)
class ConvertSite:
    """One ``ttg.convert_layout`` with its plan price, loop depth and weight."""

    op: ConvertLayoutOp
    cost: ConversionCost
    loop_depth: int
    weight: float

    @property
    def weighted(self) -> float:
        return self.cost.cycles * self.weight


def convert_sites(root: Operation) -> list[ConvertSite]:
    """Every distributed-to-distributed ``ttg.convert_layout`` under ``root``, priced."""
    cap = ModuleConfig.of(root).capability
    sites = []
    for op in walk_list(root):
        if not isinstance(op, ConvertLayoutOp):
            continue
        try:
            cost = price(op.operands[0].type, op.results[0].type, cap)
        except ValueError:
            continue
        sites.append(ConvertSite(op, cost, loop_depth(op), execution_weight(op)))
    return sites


@dataclass(frozen=True)
class CostSummary:
    """Conversions left and their total weighted cost."""

    conversions: int
    weighted_cost: float


def summarize(root: Operation | ModuleOp) -> CostSummary:
    """The conversions under ``root`` and their summed weighted cost."""
    sites = convert_sites(root)
    return CostSummary(len(sites), sum(s.weighted for s in sites))


def _key(s: CostSummary) -> tuple[float, int]:
    return (round(s.weighted_cost, 6), s.conversions)


def never_worse_than_rule(
    module: ModuleOp,
    lay_out_own: Callable[[ModuleOp], None],
    lay_out_by_rule: Callable[[ModuleOp], None],
    note: Callable[[str], None] | None = None,
    others: Sequence[tuple[str, Callable[[ModuleOp], None]]] = (),
) -> None:
    """Lay out ``module`` by ``lay_out_own``; lay out copies of the input by each of
    ``others`` (named alternatives of ltc's own) and by Triton's rule
    (``lay_out_by_rule``), and keep the body that leaves the cheapest conversions under
    ltc's model (weighted cost, then count; the first on a tie). So the result never
    leaves more than the rule would. The alternatives are not run when ltc's own result
    has no conversion (nothing costs less), nor kept when they refuse the input; ``note``
    hears when another layout is kept. The copies are built from a snapshot of the input
    (``ir_snapshot``) only when they run: a clone of every input cost a tenth of the
    pipeline, and they run on a few inputs in ten."""
    original = snapshot(module)
    lay_out_own(module)
    best = _key(summarize(module))
    if best[1] == 0:
        return
    alternatives = [*others, ("Triton's rule", lay_out_by_rule)]
    for name, lay_out in alternatives:
        copy = rebuild(original)
        assert isinstance(copy, ModuleOp)
        try:
            lay_out(copy)
        except (PassFailedException, VerifyException, ValueError):
            continue  # this one cannot lay it out: the others stand
        key = _key(summarize(copy))
        if not key < best:
            continue
        best = key
        for block in list(module.body.blocks):
            module.body.detach_block(block).erase(safe_erase=False)
        copy.body.move_blocks(module.body)
        if note is not None:
            note(f"({name} costs less here than the objective's choice: its layouts are kept)")
        if best[1] == 0:
            return
