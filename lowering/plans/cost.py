"""What one layout conversion costs: the plan ltc would emit for it, priced.

The price of converting a tensor from linear layout ``src`` to ``dst`` is the static
cost of the plan :func:`ltc.lowering.plans.convert.plan_conversion` builds for it
(:func:`~ltc.lowering.plans.convert.plan_cost`: issue cycles of one warp's memory pipe —
shared wavefronts, shuffles, selects, barriers), plus ``REGISTER_MOVE`` per register
move. Equal linear layouts cost exactly 0; a register permutation costs only its moves
(renames the register allocator may or may not absorb), so it stays cheaper than any
plan that touches the memory pipe but is never free.

A pair no plan can convert (layouts spread over several CTAs) is priced as a shared
round trip of every byte (``UNPLANNABLE_PER_WORD`` per 32-bit word a warp holds), so it
compares but never wins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from ltc.linear_layout import LinearLayout
from ltc.lowering.plans.plan import PlanCounts, PlanError, PlanKind

__all__ = [
    "ALU_PER_WORD",
    "REGISTER_MOVE",
    "ConversionCost",
    "conversion_cost",
    "estimate_conversion_cost",
    "estimate_reduction_cost",
    "plan_element_bits",
]

REGISTER_MOVE = 1 / 32
"""Cycles charged per register move of a plan (a conversion kept in the IR is never free)."""

UNPLANNABLE_PER_WORD = 4.0

SHARED_BARRIERS = 3
"""Barriers a shared-memory plan is assumed to need in the estimate (store, load, reuse)."""

SHUFFLE_SELECT_OVERHEAD = 1.25
"""A shuffle round's price in the estimate: one ``shfl`` and a quarter cycle of selects."""


@dataclass(frozen=True)
class ConversionCost:
    """The plan of one conversion and its price.

    ``kind`` is the plan kind (``noop`` / ``registers`` / ``shuffle`` / ``shared``, or
    ``unplannable``), ``cycles`` its price per execution (per warp), ``counts`` the
    plan's per-thread instruction counts and ``scratch_bytes`` its shared memory.
    """

    kind: PlanKind | str
    cycles: float
    counts: PlanCounts
    scratch_bytes: int
    algorithm: str = ""


def plan_element_bits(bits: int) -> int:
    """The element width a plan moves for elements of ``bits`` bits (i1 as a byte,
    other widths rounded up to 8, 16, 32 or 64)."""
    for w in (8, 16, 32, 64):
        if bits <= w:
            return w
    return 64


@lru_cache(maxsize=16384)
def conversion_cost(src: LinearLayout, dst: LinearLayout, element_bits: int, compute_capability: int = 90) -> ConversionCost:
    """Price of converting ``src`` to ``dst`` (elements of ``element_bits``; see the module doc)."""
    from ltc.lowering.plans.convert import plan_conversion, plan_cost

    if src == dst:
        return ConversionCost("noop", 0.0, PlanCounts(), 0, "equal linear layouts")
    bits = plan_element_bits(element_bits)
    try:
        plan = plan_conversion(src, dst, bits, compute_capability=compute_capability)
    except (PlanError, ValueError):
        regs = src.in_dim_size("register") if src.has_in_dim("register") else 1
        words = max(1, math.ceil(regs * bits / 32))
        return ConversionCost("unplannable", 2 * words * UNPLANNABLE_PER_WORD, PlanCounts(), 0, "no plan")
    if plan.kind == "noop":
        return ConversionCost("noop", 0.0, plan.counts, 0, plan.algorithm)
    counts = plan.counts
    cycles = plan_cost(plan) + REGISTER_MOVE * max(counts.moves, 1)
    return ConversionCost(plan.kind, cycles, counts, plan.scratch_bytes, plan.algorithm)


@lru_cache(maxsize=16384)
def estimate_conversion_cost(src: LinearLayout, dst: LinearLayout, element_bits: int) -> float:
    """A closed-form price of ``src → dst`` for searches that compare many pairs.

    Building the optimal plan (``conversion_cost``) takes milliseconds to a second per
    pair, so a layout search prices with what the plan's cost would be at its bounds,
    in the same unit (:func:`~ltc.lowering.plans.convert.plan_cost`):

    * equal layouts 0; a register permutation ``REGISTER_MOVE`` per destination register;
    * through shared memory: each side accesses its distinct elements in vectors of the
      vector set (registers both layouts hold contiguously, at most 128 bits), an access
      costing its 32-bit words but at least 1 (the optimal swizzling is conflict-free),
      plus ``SHARED_BARRIERS`` barriers at 4 each;
    * a warp-local conversion: the cheaper of that and the paper's bound on shuffle
      rounds (``shuffle_round_bound``) at ``SHUFFLE_SELECT_OVERHEAD`` each.
    """
    from ltc import f2
    from ltc.lowering.plans.broadcast import strip_register_broadcast
    from ltc.lowering.plans.convert import classify_conversion

    if src == dst:
        return 0.0
    bits = plan_element_bits(element_bits)
    try:
        kind = classify_conversion(src, dst).kind
    except (PlanError, ValueError):
        regs = src.in_dim_size("register") if src.has_in_dim("register") else 1
        return 2 * max(1, math.ceil(regs * bits / 32)) * UNPLANNABLE_PER_WORD
    sb, db = strip_register_broadcast(src), strip_register_broadcast(dst)
    if kind == "noop":
        return 0.0
    if kind == "registers":
        return REGISTER_MOVE * max(1, dst.in_dim_size("register"))
    s_cols = src.flat_columns_by_in_dim()["register"]
    d_cols = dst.flat_columns_by_in_dim()["register"]
    s_reg = [s_cols[i] for i in sb.kept_bits]
    d_reg = [d_cols[i] for i in db.kept_bits]
    vector = min(len(f2.intersect_spans(s_reg, d_reg)), max(0, (128 // bits).bit_length() - 1))

    def side(n_bits: int) -> float:
        elems = 1 << n_bits
        accesses = max(1, elems >> vector)
        return max(float(accesses), elems * bits / 32)

    shared = side(len(s_reg)) + side(len(d_reg)) + 4 * SHARED_BARRIERS
    if kind != "shuffle":
        return shared
    from ltc.lowering.plans.shuffle import shuffle_round_bound

    try:
        rounds = shuffle_round_bound(src, dst, bits)
    except (PlanError, ValueError):
        return shared
    return min(shared, SHUFFLE_SELECT_OVERHEAD * rounds * max(1, bits // 32))


ALU_PER_WORD = 0.25
"""An ALU op on a 32-bit register, in the unit above (a plan's select costs the same)."""


@lru_cache(maxsize=16384)
def estimate_reduction_cost(src: LinearLayout, axis: int, element_bits: int) -> float:
    """The price of reducing a tensor laid out by ``src`` along ``axis`` (per warp, the
    unit of a conversion's price), as the reduction lowering does it:

    * within each thread, the registers that differ along ``axis`` combine first:
      ``R − R/2^r`` ALU ops for R registers and r register bases along ``axis``;
    * each lane basis along ``axis`` is one butterfly step: a shuffle and a combine per
      remaining register;
    * warp bases along ``axis`` add a shared-memory round trip of the partials (a store
      and a load per remaining register, two barriers) and a combine step per basis.

    Register, lane and warp bases that are zero (broadcast) or do not move along
    ``axis`` cost nothing here."""
    words = max(1.0, element_bits / 32)

    def along(dim: str) -> int:
        return sum(1 for b in src.bases.get(dim, []) if axis < len(b) and b[axis])

    regs = src.in_dim_size("register") if src.has_in_dim("register") else 1
    kept = max(1, regs >> along("register"))
    cost = (regs - kept) * ALU_PER_WORD * words
    cost += along("lane") * kept * (1 + ALU_PER_WORD) * words
    w = along("warp")
    if w:
        cost += 2 * kept * words + 2 * 4 + w * kept * ALU_PER_WORD * words
    return cost
