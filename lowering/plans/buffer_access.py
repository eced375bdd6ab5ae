"""Plans for a thread's accesses to a shared-memory buffer whose layout is given
(``ttg.local_alloc`` / ``local_store`` write it, ``ttg.local_load`` reads it).

A buffer's layout M (in dim ``offset``: element offsets; out dims the buffer's) must be
a bijection between offsets and the buffer's elements. A thread of a distributed layout D
holds in register r the element D(r, lane, warp), so that element lives at

    offset = M⁻¹(D(r)) ⊕ M⁻¹(D(lane)) ⊕ M⁻¹(D(warp))

(both linear): a constant per register plus an F2-affine function of lane and warp
(:class:`~ltc.lowering.plans.plan.ThreadAffine`), as in a conversion through shared
memory, except that the layout is the buffer's, not one chosen for the conversion.

Vectors. The *vector set* is the largest k such that each offset 1, 2, …, 2^(k−1) is
the image of a register basis and no lane or warp basis has an offset below 2^k: then
the 2^k registers of a group sit at consecutive offsets from a 2^k-aligned base in every
thread, and one ``st/ld.shared.v{2,4}`` moves them (at most 128 bits). Registers that
repeat an element (broadcast) are stored once; on a load they are filled by moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ltc import f2
from ltc.linear_layout import LinearLayout
from ltc.lowering.plans.broadcast import strip_register_broadcast
from ltc.lowering.plans.plan import Instruction, PlanError, Reg, SharedLoad, SharedStore, ThreadAffine

__all__ = ["BufferAccess", "MAX_ACCESS_BITS", "plan_buffer_access"]

MAX_ACCESS_BITS = 128
"""The widest ``st/ld.shared`` (``.v4.b32``, ``.v2.b64``)."""


@dataclass(frozen=True)
class BufferAccess:
    """One side's accesses: ``instructions`` (shared stores of ``src`` registers, or shared
    loads into ``dst`` registers followed by the moves that fill broadcast registers), with
    byte addresses relative to the buffer's start; ``vector``: log2 elements per access."""

    instructions: tuple[Instruction, ...]
    vector: int

    @property
    def accesses(self) -> int:
        return sum(isinstance(i, SharedStore | SharedLoad) for i in self.instructions)


def plan_buffer_access(
    dist: LinearLayout,
    buffer: LinearLayout,
    element_bits: int,
    *,
    store: bool,
    origin: Sequence[int] | None = None,
) -> BufferAccess:
    """The accesses by which every thread of ``dist`` stores its elements into (``store``)
    or loads them from a buffer of layout ``buffer`` (``offset`` → coordinates; a
    bijection). ``element_bits`` is the element's width in memory (a multiple of 8).

    ``dist`` covers the whole buffer, or with ``origin`` the tile of ``dist``'s shape at
    those coordinates (a view of part of it: ``ttg.memdesc_subslice``). The origin must
    be a multiple of the tile's shape in each dim, so that a coordinate of the tile plus
    the origin is their XOR and the element's offset is M⁻¹(tile coordinate) ⊕
    M⁻¹(origin): the origin's offset is one more constant. Raises :class:`PlanError`
    otherwise."""
    if element_bits % 8 or element_bits > MAX_ACCESS_BITS:
        raise PlanError(f"{element_bits}-bit elements cannot be stored in shared memory")
    tile, full = list(dist.out_dims.items()), list(buffer.out_dims.items())
    origin = tuple(origin) if origin is not None else (0,) * len(full)
    if len(tile) != len(full) or len(origin) != len(full) or any(
        t > f or o % t or o + t > f for (_, t), (_, f), o in zip(tile, full, origin)
    ):
        raise PlanError(
            f"a tile of shape {[t for _, t in tile]} at {list(origin)} is not an aligned part of the buffer's shape "
            f"{[f for _, f in full]}"
        )
    offsets = buffer.flat_columns_by_in_dim().get("offset", ())
    echelon = f2.column_echelon(offsets)
    if echelon.rank != len(offsets) or 1 << len(offsets) != buffer.total_out_size:
        raise PlanError("the buffer's layout is not a bijection between offsets and elements")

    def widen(vector: int) -> int:
        """A flat vector of the tile's coordinates as one of the buffer's."""
        out, src, dst = 0, 0, 0
        for (_, t), (_, f) in zip(tile, full):
            out |= (vector >> src & (t - 1)) << dst
            src += t.bit_length() - 1
            dst += f.bit_length() - 1
        return out

    def offset_of(vector: int) -> int:
        m = echelon.express(widen(vector))
        assert m is not None  # full rank over the buffer: every vector is reached
        return m  # every column is a pivot: the mask of columns is the offset

    flat_origin, at = 0, 0
    for o, (_, f) in zip(origin, full):
        flat_origin |= o << at
        at += f.bit_length() - 1
    origin_offset = echelon.express(flat_origin)
    assert origin_offset is not None

    rb = strip_register_broadcast(dist)
    cols = rb.stripped.flat_columns_by_in_dim()
    reg_off = f2.span_table(offset_of(c) for c in cols.get("register", ()))
    index_of = {o: i for i, o in enumerate(reg_off)}
    lane_off = [offset_of(c) for c in cols.get("lane", ())]
    warp_off = [offset_of(c) for c in cols.get("warp", ())]
    vector = _vector(reg_off, [*lane_off, *warp_off, origin_offset], element_bits)
    ebytes = element_bits // 8
    file = "src" if store else "dst"
    group = [1 << j for j in range(vector)]
    instructions: list[Instruction] = []
    for base in sorted({f2.reduce_by(o, group) for o in reg_off}):
        regs = tuple(Reg(file, rb.kept[index_of[base | j]]) for j in range(1 << vector))  # type: ignore[arg-type]
        addr = ThreadAffine(
            (base ^ origin_offset) * ebytes, tuple(o * ebytes for o in lane_off), tuple(o * ebytes for o in warp_off)
        )
        instructions.append(SharedStore(regs, addr) if store else SharedLoad(regs, addr))
    if not store:
        instructions += rb.restore_moves()
    return BufferAccess(tuple(instructions), vector)


def _vector(reg_off: Sequence[int], thread_off: Sequence[int], element_bits: int) -> int:
    """The vector set's size (log2): consecutive low offsets held by registers, none
    moved by a lane or warp bit or the origin, at most :data:`MAX_ACCESS_BITS` wide."""
    held = set(reg_off)
    k = 0
    while (element_bits << (k + 1)) <= MAX_ACCESS_BITS and (1 << k) in held and not any(
        t & ((1 << (k + 1)) - 1) for t in thread_off
    ):
        k += 1
    return k

