"""Locality of a conversion between two distributed layouts of one tensor.

Let ``A`` (source) and ``B`` (destination) be distributed layouts of one tensor,
maps from hardware bits (register, lane, warp, block) to tensor bits. For a set
D of outer hardware dims, the conversion is *trivial over D* when every element
B places at a hardware position is already held by A at a position with the
same D coordinates. With S = span of A's columns for the dims not in D, that is
the linear condition

* every column of B for a dim not in D lies in S, and
* for each basis i of a dim in D, ``B(i) ⊕ A(i) ∈ S``,

which broadcast bases (zero or dependent columns, on either side) satisfy or
not on their own merits. ``conversion_locality`` names the innermost level a
conversion stays within: ``noop`` (equal layouts), ``registers`` (trivial over
lane, warp, block), ``warp`` (over warp, block), ``cta`` (over block), else
``cross-cta``.

``check_convertible`` refuses pairs that are not two layouts of one tensor. The layout
passes price conversions by their locality; the planner checks it before it plans.
"""

from __future__ import annotations

from collections.abc import Sequence

from ltc import f2
from ltc.linear_layout import LinearLayout
from ltc.lowering.plans.plan import PlanError

__all__ = ["HARDWARE_DIMS", "check_convertible", "conversion_locality", "trivial_over"]

HARDWARE_DIMS = ("register", "lane", "warp", "block")


def trivial_over(src: LinearLayout, dst: LinearLayout, dims: Sequence[str]) -> bool:
    """Whether every element ``dst`` puts somewhere is held by ``src`` with the same ``dims`` coordinates."""
    a, b = src.flat_columns_by_in_dim(), dst.flat_columns_by_in_dim()
    inner = [c for d, cols in a.items() if d not in dims for c in cols]
    ech = f2.column_echelon(inner)
    for d, cols in b.items():
        if d in dims:
            if any(ech.express(c ^ s) is None for c, s in zip(cols, a.get(d, ()))):
                return False
        elif any(ech.express(c) is None for c in cols):
            return False
    return True


def conversion_locality(src: LinearLayout, dst: LinearLayout) -> str:
    """``noop``, ``registers``, ``warp``, ``cta`` or ``cross-cta``: how far data moves."""
    if src == dst:
        return "noop"
    for name, dims in (("registers", ("lane", "warp", "block")), ("warp", ("warp", "block")), ("cta", ("block",))):
        if trivial_over(src, dst, dims):
            return name
    return "cross-cta"


def check_convertible(src: LinearLayout, dst: LinearLayout) -> None:
    """Raise :class:`PlanError` unless ``src`` and ``dst`` lay out one tensor over the same
    hardware and ``src`` holds every element ``dst`` needs (image(dst) ⊆ image(src);
    Triton's layouts cover the whole tensor, so both images are everything)."""
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
    held = f2.column_echelon(src.flat_columns)
    if any(held.express(c) is None for c in dst.flat_columns):
        raise PlanError("the source layout does not hold every element the destination needs")
