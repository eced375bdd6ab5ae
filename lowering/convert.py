"""Planning a layout conversion: classify it, then build the cheapest exact plan.

Let ``A`` (source) and ``B`` (destination) be distributed layouts of one tensor,
maps from hardware bits (register, lane, warp, block) to tensor bits. For a set
D of outer hardware dims, the conversion is *trivial over D* when every element
B places at a hardware position is already held by A at a position with the same
D coordinates. With S = span of A's columns for the dims not in D, that is the
linear condition

* every column of B for a dim not in D lies in S, and
* for each basis i of a dim in D, ``B(i) ⊕ A(i) ∈ S``,

which broadcast bases (zero or dependent columns, on either side) satisfy or
not on their own merits — nothing needs stripping first. The kind follows from
the widest D the conversion is trivial over:

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
from ltc.lowering.broadcast import strip_register_broadcast
from ltc.lowering.plan import (
    ConversionPlan,
    Move,
    PlanError,
    PlanKind,
    PlanStep,
    Reg,
    Select,
    ThreadAffine,
)

__all__ = [
    "ConversionClass",
    "classify_conversion",
    "hardware_columns",
    "plan_conversion",
    "plan_register_permutation",
    "trivial_over",
]

HARDWARE_DIMS = ("register", "lane", "warp", "block")


@dataclass(frozen=True)
class ConversionClass:
    """The kind of a conversion and the hardware dims data must cross (``moved``)."""

    kind: PlanKind
    moved: tuple[str, ...]


def hardware_columns(layout: LinearLayout) -> dict[str, tuple[int, ...]]:
    """Per in dim, the layout's columns as flat tensor indices (first out dim lowest)."""
    out, c = {}, 0
    cols = layout.flat_columns
    for d in layout.in_dim_names:
        k = layout.in_dim_size_log2(d)
        out[d] = tuple(cols[c : c + k])
        c += k
    return out


def check_convertible(src: LinearLayout, dst: LinearLayout) -> None:
    """Raise :class:`PlanError` unless ``src`` and ``dst`` lay out the same tensor on the same CTA."""
    for name, lay in (("source", src), ("destination", dst)):
        if set(lay.in_dim_names) - set(HARDWARE_DIMS) or not lay.has_in_dim("register"):
            raise PlanError(f"the {name} layout is not distributed (in dims {lay.in_dim_names})")
    if list(src.out_dims.items()) != list(dst.out_dims.items()):
        raise PlanError(
            f"the layouts cover different tensors: {dict(src.out_dims)} vs {dict(dst.out_dims)}"
        )
    for d in ("lane", "warp", "block"):
        a = src.in_dim_size(d) if src.has_in_dim(d) else 1
        b = dst.in_dim_size(d) if dst.has_in_dim(d) else 1
        if a != b:
            raise PlanError(f"the layouts use different numbers of {d}s: {a} vs {b}")
    for name, lay in (("source", src), ("destination", dst)):
        if not lay.is_surjective():
            raise PlanError(f"the {name} layout does not cover every element of the tensor")


def trivial_over(src: LinearLayout, dst: LinearLayout, dims: Sequence[str]) -> bool:
    """Whether every element ``dst`` puts somewhere is held by ``src`` with the same ``dims`` coordinates."""
    a, b = hardware_columns(src), hardware_columns(dst)
    inner = [c for d, cols in a.items() if d not in dims for c in cols]
    ech = f2.column_echelon(inner)
    for d, cols in b.items():
        if d in dims:
            if any(ech.express(c ^ s) is None for c, s in zip(cols, a.get(d, ()))):
                return False
        elif any(ech.express(c) is None for c in cols):
            return False
    return True


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
    a = hardware_columns(stripped.stripped)
    b = hardware_columns(dst)
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
    from ltc.lowering.shared import plan_shared_memory

    shared = plan_shared_memory(src, dst, element_bits, compute_capability=compute_capability)
    if cls.kind == "shared":
        return shared
    from ltc.lowering.shuffle import plan_warp_shuffle

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
    from ltc.lowering.plan import MatrixLoad, MatrixStore, SharedLoad, SharedStore

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
