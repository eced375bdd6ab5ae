"""Per-thread values of F2-linear functions of the thread's lane and warp bits.

A layout L maps (register r, lane l, warp w) to a tensor index; dimension d of it is

    L(r, l, w)[d] = L(r)[d] ⊕ (⊕_i l_i · L(lane_i)[d]) ⊕ (⊕_j w_j · L(warp_j)[d]),

a per-register constant XOR a per-thread part that is the same for every register.
:meth:`ThreadBuilder.bit_linear` computes such a per-thread part with few instructions
(one shift-and-mask per bit displacement). The register
constant is then *added* when its bits are disjoint from the part's (so ptxas folds it
into address immediates), else XORed.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue

from ltc.linear_layout import LinearLayout
from ltc.lowering.llvm.builder import ThreadBuilder

__all__ = [
    "ThreadPart",
    "affine_value",
    "register_constants",
    "row_major_offset",
    "row_major_shifts",
    "thread_columns",
    "thread_part",
]


class ThreadPart:
    """The per-thread part of each output dim of a layout over (lane, warp)."""

    def __init__(self, values: list[SSAValue | None], bits: list[int]) -> None:
        self.values = values
        self.bits = bits

    def with_constant(self, b: ThreadBuilder, d: int, constant: int) -> SSAValue:
        """Dim ``d`` of the index with register constant ``constant``."""
        v = self.values[d]
        if v is None:
            return b.i32(constant)
        if not constant:
            return v
        return b.binary("add" if not (self.bits[d] & constant) else "xor", v, b.i32(constant))


def thread_columns(lane_cols: Sequence[int], warp_cols: Sequence[int], lane_bits: int) -> list[int]:
    """Columns over the bits of ``tid.x``: lane bits first (padded to ``lane_bits``), then
    warp bits — tid = warp · 2^lane_bits + lane, and tid has no bits above the CTA size,
    so runs may cross from lane into warp bits and need no separate lane/warp values."""
    return [*lane_cols, *([0] * (lane_bits - len(lane_cols))), *warp_cols]


def thread_part(b: ThreadBuilder, layout: LinearLayout, tid: SSAValue, lane_bits: int) -> ThreadPart:
    """The (lane, warp) part of every output dim of ``layout``, from ``tid.x``."""
    values: list[SSAValue | None] = []
    bits: list[int] = []
    for d in layout.out_dim_names:
        cols = {
            dim: [layout.basis(dim, i, d) for i in range(layout.in_dim_size_log2(dim))] if layout.has_in_dim(dim) else []
            for dim in ("lane", "warp")
        }
        v, m = b.bit_linear(tid, thread_columns(cols["lane"], cols["warp"], lane_bits))
        values.append(v)
        bits.append(m)
    return ThreadPart(values, bits)


def register_constants(layout: LinearLayout) -> list[tuple[int, ...]]:
    """``L(register=r, lane=0, warp=0)`` per register ``r``, as a tuple over output dims."""
    names = layout.out_dim_names
    out = []
    for r in range(layout.in_dim_size("register")):
        v = layout.apply({"register": r, **{d: 0 for d in layout.in_dim_names if d != "register"}})
        out.append(tuple(v[n] for n in names))
    return out


def affine_value(
    b: ThreadBuilder, lane_cols: Sequence[int], warp_cols: Sequence[int], constant: int, tid: SSAValue, lane_bits: int
) -> SSAValue:
    """``constant ⊕ (⊕ lane_i·lane_cols[i]) ⊕ (⊕ warp_j·warp_cols[j])`` as i32 (a
    :class:`~ltc.lowering.plans.plan.ThreadAffine`, evaluated per thread from ``tid.x``)."""
    return b.affine(tid, thread_columns(lane_cols, warp_cols, lane_bits), constant)


def row_major_shifts(shape: Sequence[int]) -> list[int]:
    """log2 of each dim's row-major stride in a tensor of power-of-two ``shape``."""
    out = []
    acc = 0
    for n in reversed(shape):
        out.append(acc)
        acc += n.bit_length() - 1
    return out[::-1]


def row_major_offset(b: ThreadBuilder, coords: Sequence[SSAValue], shifts: Sequence[int]) -> SSAValue:
    """The row-major offset of ``coords`` in a power-of-two shape: the coordinates' bits
    side by side (``shifts``: ``row_major_shifts``), joined with ``or``."""
    offset: SSAValue | None = None
    for c, s in zip(coords, shifts):
        term = c if s == 0 else b.binary("shl", c, b.i32(s))
        offset = term if offset is None else b.binary("or", offset, term)
    assert offset is not None
    return offset
