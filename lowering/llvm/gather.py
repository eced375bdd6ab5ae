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

from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType, i32
from xdsl.ir import Operation, SSAValue

from ltc.dialects.tt import element_bit_width
from ltc.lowering.llvm.function import FunctionLowering, Handler, Lowered, LoweringError, ThreadTensor, scalar_type
from ltc.lowering.llvm.scratch import element_address, load_shared, register_address, store_shared, tensor_scratch
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
    elem = scalar_type(src_t)  # (fp8 is carried as i8)
    bits = element_bit_width(src_t) or 32
    if max(8, bits) not in (8, 16, 32, 64):
        raise LoweringError(op, f"'tt.gather' of {bits}-bit elements is not supported")
    b = fl.b
    base = tensor_scratch(fl, src_shape, bits)

    shifts = row_major_shifts(src_shape)

    # 1. the source, once, at its row-major offsets
    part = thread_part(b, src.layout, fl.tid(), fl.lane_bits)
    stored: set[tuple[int, ...]] = set()
    for v, const in zip(src.regs, register_constants(src.layout)):
        if const not in stored:  # (else a broadcast register: its element is stored already)
            stored.add(const)
            store_shared(b, register_address(b, part, const, shifts, base, bits), v, None)
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
        if key not in memo:
            if g.type != i32:
                width_g = g.type.width.data if isinstance(g.type, IntegerType) else 32
                g = b.cast("trunc" if width_g > 32 else "zext" if width_g < 32 else "bitcast", g, i32)
            g = b.binary("and", g, b.i32(axis_mask))
            coords = [g if d == axis else rpart.with_constant(b, d, c) for d, c in enumerate(const)]
            addr = element_address(b, base, row_major_offset(b, coords, shifts), bits)
            memo[key] = load_shared(b, addr, elem)
        regs.append(memo[key])
    return [fl.tensor(op, res_t, regs)]


GATHER_HANDLERS: dict[str, Handler] = {"tt.gather": _gather}
"""``tt.gather`` (see the module doc)."""
