"""Planning a layout conversion: classify it, then build the cheapest exact plan.

The kind of a conversion from layout A to layout B follows from the widest set
of outer hardware dims it is *trivial over* (``ltc.lowering.plans.locality``):

=====================  =================  ==========================
trivial over           kind               plan
=====================  =================  ==========================
A == B                 ``noop``           renames only
lane, warp, block      ``registers``      moves (selects when the
                                          register order depends on
                                          the lane)
warp, block            ``shuffle``        warp shuffles, unless
                                          shared memory is cheaper
block                  ``shared``         shared memory
=====================  =================  ==========================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ltc import f2
from ltc.linear_layout import LinearLayout
from ltc.lowering.plans.broadcast import strip_register_broadcast
from ltc.lowering.plans.locality import check_convertible, trivial_over
from ltc.lowering.plans.plan import (
    ConversionPlan,
    MatrixLoad,
    MatrixStore,
    Move,
    PlanError,
    PlanKind,
    PlanStep,
    Reg,
    Select,
    SharedLoad,
    SharedStore,
    ThreadAffine,
)

__all__ = [
    "ConversionClass",
    "classify_conversion",
    "plan_conversion",
    "plan_register_permutation",
]


@dataclass(frozen=True)
class ConversionClass:
    """The kind of a conversion and the hardware dims data must cross (``moved``)."""

    kind: PlanKind
    moved: tuple[str, ...]


def classify_conversion(src: LinearLayout, dst: LinearLayout) -> ConversionClass:
    """Classify the conversion ``src → dst`` (see the module doc)."""
    check_convertible(src, dst)
    if src == dst:
        return ConversionClass("noop", ())
    if trivial_over(src, dst, ("lane", "warp", "block")):
        return ConversionClass("registers", ("register",))
    if trivial_over(src, dst, ("warp", "block")):
        return ConversionClass("shuffle", ("register", "lane"))
    if trivial_over(src, dst, ("block",)):
        return ConversionClass("shared", ("register", "lane", "warp"))
    raise PlanError("the conversion moves data between CTAs, which ltc does not plan")


def plan_register_permutation(src: LinearLayout, dst: LinearLayout, element_bits: int) -> ConversionPlan:
    """Fill each destination register from the source register of the same thread holding its element.

    Write the register index of the source copy as ``g(r, lane, warp) = Gr·r ⊕
    Gl·lane ⊕ Gw·warp`` (g is linear: it solves ``A_reg·g = B(r, lane, warp) ⊕
    A(0, lane, warp)``, minimum norm, over the source's non-broadcast
    registers). When Gl = Gw = 0 every register is a rename; otherwise the
    choice depends on the thread and costs selects.
    """
    if not trivial_over(src, dst, ("lane", "warp", "block")):
        raise PlanError("not a register permutation: data must cross threads")
    stripped = strip_register_broadcast(src)
    a = stripped.stripped.flat_columns_by_in_dim()
    b = dst.flat_columns_by_in_dim()
    kept = stripped.kept_bits

    def spread(x: int) -> int:  # stripped register index -> original index
        return sum(1 << kept[j] for j in range(len(kept)) if x >> j & 1)

    def solve(cols: Sequence[int]) -> list[int]:
        sol = f2.solve_min_norm(a["register"], cols)
        assert sol is not None  # trivial_over guarantees it
        return [spread(x) for x in sol]

    g_reg = solve(b["register"])
    g_lane = solve([c ^ s for c, s in zip(b.get("lane", ()), a.get("lane", ()))])
    g_warp = solve([c ^ s for c, s in zip(b.get("warp", ()), a.get("warp", ()))])
    moves = []
    for r in range(dst.in_dim_size("register")):
        base = 0
        for i, g in enumerate(g_reg):
            if r >> i & 1:
                base ^= g
        if any(g_lane) or any(g_warp):
            moves.append(Select(Reg("dst", r), "src", ThreadAffine(base, tuple(g_lane), tuple(g_warp))))
        else:
            moves.append(Move(Reg("dst", r), Reg("src", base)))
    selects = any(isinstance(m, Select) for m in moves)
    return ConversionPlan(
        kind="registers",
        src_layout=src,
        dst_layout=dst,
        element_bits=element_bits,
        steps=(PlanStep("permute registers", tuple(moves)),),
        algorithm="register permutation" + (" (lane-dependent selects)" if selects else ""),
    )


def _noop_plan(src: LinearLayout, element_bits: int) -> ConversionPlan:
    n = src.in_dim_size("register")
    return ConversionPlan(
        kind="noop",
        src_layout=src,
        dst_layout=src,
        element_bits=element_bits,
        steps=(PlanStep("same layout", tuple(Move(Reg("dst", r), Reg("src", r)) for r in range(n))),),
        algorithm="equal linear layouts",
    )


def plan_conversion(
    src: LinearLayout,
    dst: LinearLayout,
    element_bits: int,
    *,
    compute_capability: int = 90,
) -> ConversionPlan:
    """The cheapest exact plan converting ``src`` to ``dst`` for elements of ``element_bits``.

    A warp-local conversion gets both a shuffle plan and a shared-memory plan,
    and the cheaper by :func:`plan_cost` wins; shared memory wins ties, as it
    needs no selects.
    """
    if element_bits not in (8, 16, 32, 64):
        raise PlanError(f"element width {element_bits} bits is not 8, 16, 32 or 64")
    cls = classify_conversion(src, dst)
    if cls.kind == "noop":
        return _noop_plan(src, element_bits)
    if cls.kind == "registers":
        return plan_register_permutation(src, dst, element_bits)
    from ltc.lowering.plans.shared import plan_shared_memory

    shared = plan_shared_memory(src, dst, element_bits, compute_capability=compute_capability)
    if cls.kind == "shared":
        return shared
    from ltc.lowering.plans.shuffle import plan_warp_shuffle

    shuffle = plan_warp_shuffle(src, dst, element_bits)
    return shuffle if plan_cost(shuffle) < plan_cost(shared) else shared


def plan_cost(plan: ConversionPlan) -> float:
    """Static cost of a plan in issue cycles of a warp's memory pipe: what :func:`plan_conversion` minimises.

    Shared accesses and shuffles share that pipe, which moves 128 bytes per
    cycle: a conflict-free shared access of b bits costs max(1, b / 32)
    wavefronts (the optimal swizzling makes every shared plan conflict-free
    when the bound is reachable), an ``ldmatrix``/``stmatrix`` one per 8×8
    matrix, a shuffle one per 32-bit word. A select is ALU work on a 32-bit
    word (a quarter; packed sub-word elements share a select), a CTA barrier
    costs 4 (it stalls every warp), a ``bar.warp.sync`` a half. Shared memory
    moves data twice (store, then load), shuffles once: measured, warp-local
    converts run 2–4× faster with shuffles (Triton PR #10360).
    """
    bits = plan.element_bits
    cost = 0.0
    for ins in plan.instructions:
        if isinstance(ins, (SharedStore, SharedLoad)):
            n = len(ins.src if isinstance(ins, SharedStore) else ins.dst)
            cost += max(1.0, n * bits / 32)
        elif isinstance(ins, (MatrixStore, MatrixLoad)):
            cost += ins.num
    c = plan.counts
    return cost + c.shuffles + 0.25 * c.selects * bits / 32 + 4 * c.barriers + 0.5 * c.warp_syncs
