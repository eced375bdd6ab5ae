"""``tt.gather`` through shared memory.

``%r = tt.gather %src[%idx] {axis = a}``: ``r[c] = src[c with c_a := idx[c]]`` for every
index ``c`` of ``idx`` (``r`` has ``idx``'s shape and layout). Lowered in two steps:

1. every thread stores the elements of ``src`` it holds at their row-major offsets in the
   scratch buffer (one copy of the tensor; threads that hold the same element store the
   same value there);
2. after a barrier, each result register reads ``src`` at the offset of its own index
   ``c`` (this thread's part of the result layout, plus the register's constant part),
   with the ``a`` coordinate replaced by the register's gathered index.

Shapes are powers of two, so the row-major offset is the coordinates' bits side by side:
the ``a`` bits are cleared and ``idx[c] << stride_a`` is added. Indices are taken modulo
the axis length, as Triton's lowering does (an out-of-range index is undefined there).
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType, i32
from xdsl.ir import Operation, SSAValue

from ltc.dialects.tt import element_bit_width
from ltc.lowering.llvm.function import FunctionLowering, Handler, Lowered, LoweringError, ThreadTensor
from ltc.lowering.llvm.reduce import load_shared, store_shared
from ltc.lowering.llvm.thread_index import register_constants, row_major_offset, row_major_shifts, thread_part

__all__ = ["GATHER_HANDLERS"]


def _gather(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    src, idx = args
    if not isinstance(src, ThreadTensor) or not isinstance(idx, ThreadTensor):
        raise LoweringError(op, "'tt.gather' of scalars")
    src_t, res_t = op.operands[0].type, op.results[0].type
    assert isinstance(src_t, TensorType) and isinstance(res_t, TensorType)
    axis_attr = op.properties["axis"]
    assert isinstance(axis_attr, IntegerAttr)
    axis = axis_attr.value.data
    src_shape, res_shape = list(src_t.get_shape()), list(res_t.get_shape())
    if any(n & (n - 1) for n in [*src_shape, *res_shape]):
        raise LoweringError(op, "'tt.gather' of a shape that is not a power of two is not supported")
    if any(s != r for d, (s, r) in enumerate(zip(src_shape, res_shape)) if d != axis):
        raise LoweringError(op, "'tt.gather' with index dims other than the axis smaller than the source's is not supported")
    elem = src_t.element_type
    bits = element_bit_width(src_t) or 32
    width = 8 if bits <= 8 else bits
    if width not in (8, 16, 32, 64):
        raise LoweringError(op, f"'tt.gather' of {bits}-bit elements is not supported")
    b = fl.b
    shifts = row_major_shifts(src_shape)
    byte_shift = (width // 8).bit_length() - 1
    fl.claim_scratch(math.prod(src_shape) * width // 8)
    base = fl.shared_base()

    # 1. the source, once, at its row-major offsets
    src_layout = src.layout
    part = thread_part(b, src_layout, fl.tid(), fl.lane_bits)
    stored: set[tuple[int, ...]] = set()
    for r, const in enumerate(register_constants(src_layout)):
        if const in stored:
            continue  # a broadcast register: its element is stored already
        stored.add(const)
        v = src.regs[r]
        coords = [part.with_constant(b, d, c) for d, c in enumerate(const)]
        offset = row_major_offset(b, coords, shifts)
        addr = b.add_i(base, b.binary("shl", offset, b.i32(byte_shift)) if byte_shift else offset)
        store_shared(b, addr, v, None)
    b.barrier()

    # 2. each result register reads its gathered element
    res_layout = fl.layout(res_t, op)
    rpart = thread_part(b, res_layout, fl.tid(), fl.lane_bits)
    axis_mask = src_shape[axis] - 1
    regs = []
    memo: dict[tuple[tuple[int, ...], SSAValue], SSAValue] = {}
    for r, const in enumerate(register_constants(res_layout)):
        g = idx.regs[r]
        key = (const, g)
        if key in memo:
            regs.append(memo[key])
            continue
        if g.type != i32:
            width_g = g.type.width.data if isinstance(g.type, IntegerType) else 32
            g = b.cast("trunc" if width_g > 32 else "zext" if width_g < 32 else "bitcast", g, i32)
        g = b.binary("and", g, b.i32(axis_mask))
        coords = [g if d == axis else rpart.with_constant(b, d, c) for d, c in enumerate(const)]
        offset = row_major_offset(b, coords, shifts)
        addr = b.add_i(base, b.binary("shl", offset, b.i32(byte_shift)) if byte_shift else offset)
        v = load_shared(b, addr, elem)
        memo[key] = v
        regs.append(v)
    return [fl.tensor(op, res_t, regs)]


GATHER_HANDLERS: dict[str, Handler] = {"tt.gather": _gather}
"""``tt.gather`` (see the module doc)."""
