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
"""

from __future__ import annotations

from collections.abc import Sequence

from ltc import f2
from ltc.linear_layout import LinearLayout

__all__ = ["HARDWARE_DIMS", "conversion_locality", "trivial_over"]

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
