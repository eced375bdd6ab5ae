"""Scratch shared memory, scalar by scalar: ``st.shared`` / ``ld.shared`` of one value,
and a tensor's elements at their row-major offsets.

The reductions' cross-warp exchange, ``tt.gather``, ``tt.histogram`` and the results of
atomics on broadcast layouts go through the function's scratch buffer
(``FunctionLowering.claim_scratch``); these are the accesses they share. An element's
offset is the row-major index of its coordinates in a power-of-two shape
(``thread_index.row_major_offset``) times its size in bytes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import i1, i32
from xdsl.ir import SSAValue

from ltc.lowering.llvm.builder import ThreadBuilder, bit_width, int_type
from ltc.lowering.llvm.function import FunctionLowering
from ltc.lowering.llvm.thread_index import ThreadPart, row_major_offset

__all__ = ["element_address", "load_shared", "register_address", "storage_bits", "store_shared", "tensor_scratch"]


_SHARED = {
    8: ("b8", "h", int_type(16)),
    16: ("b16", "h", int_type(16)),
    32: ("b32", "r", i32),
    64: ("b64", "l", int_type(64)),
}
"""Bits → (PTX type, constraint, register type) of a shared-memory access."""


def storage_bits(t: object) -> int:
    """Bits a scalar of type ``t`` takes in shared memory (an i1 a byte)."""
    return 8 if t == i1 else bit_width(t)  # type: ignore[arg-type]


def store_shared(b: ThreadBuilder, addr: SSAValue, v: SSAValue, pred: SSAValue | None) -> None:
    """``st.shared`` of scalar ``v`` at the 32-bit shared address ``addr`` (guarded by ``pred``)."""
    bits = b.to_bits(v)
    if bits.type == i1:
        bits = b.cast("zext", bits, int_type(8))
    ptx, reg, rt = _SHARED[bit_width(bits.type)]
    word = b.cast("zext", bits, rt) if bits.type != rt else bits
    operands, constraints, guard = [addr, word], ["r", reg], ""
    if pred is not None:
        guard = "@$2 "
        operands.append(pred)
        constraints.append("b")
    b.asm(f"{guard}st.shared.{ptx} [$0], $1;", ",".join(constraints), operands)


def load_shared(b: ThreadBuilder, addr: SSAValue, t: object) -> SSAValue:
    """``ld.shared`` of a scalar of type ``t`` at the 32-bit shared address ``addr``."""
    bits = storage_bits(t)
    ptx, reg, rt = _SHARED[bits]
    (word,) = b.asm(f"ld.shared.{ptx} $0, [$1];", f"={reg},r", [addr], [rt], side_effects=True)
    if bits < bit_width(rt):
        word = b.cast("trunc", word, int_type(bits))
    if t == i1:
        return b.cast("trunc", word, i1)
    return b.from_bits(word, t)  # type: ignore[arg-type]


def element_address(b: ThreadBuilder, base: SSAValue, offset: SSAValue, elem_bits: int) -> SSAValue:
    """``base`` plus element ``offset`` of ``elem_bits``-bit elements, in bytes."""
    shift = (max(8, elem_bits) // 8).bit_length() - 1
    return b.add_i(base, b.binary("shl", offset, b.i32(shift)) if shift else offset)


def tensor_scratch(fl: FunctionLowering, shape: Sequence[int], elem_bits: int) -> SSAValue:
    """Claim scratch for one copy of a tensor of ``shape`` (a barrier first where scratch
    was used before); its base address."""
    fl.claim_scratch(math.prod(shape) * max(8, elem_bits) // 8)
    return fl.shared_base()


def register_address(
    b: ThreadBuilder, part: ThreadPart, const: Sequence[int], shifts: Sequence[int], base: SSAValue, elem_bits: int
) -> SSAValue:
    """The address from ``base`` of the element a register holds: its coordinates are this
    thread's ``part`` of the layout (``thread_index.thread_part``) with the register's
    constant part ``const``, at their row-major offset (``shifts``:
    ``thread_index.row_major_shifts``)."""
    offset = row_major_offset(b, [part.with_constant(b, d, c) for d, c in enumerate(const)], shifts)
    return element_address(b, base, offset, elem_bits)
