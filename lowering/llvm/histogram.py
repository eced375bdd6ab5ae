"""``tt.histogram``: counts in shared memory.

``%h = tt.histogram %x[, %mask] : tensor<Nxi32> -> tensor<Mxi32>``: ``h[k]`` is how many
elements of ``x`` (where the mask holds) equal ``k``; values outside ``[0, M)`` are not
counted. Lowered as: the threads zero ``M`` 32-bit counters in scratch; after a barrier,
the owner of each element of ``x`` (one thread of those that hold it, as for a store)
adds one to its counter with ``red.shared.add.u32``, guarded by ``0 <= x < M`` (one
unsigned compare) and the mask; after a barrier, each result register reads its counter.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType, TensorType, i32
from xdsl.ir import Operation, SSAValue

from ltc.lowering.llvm.function import FunctionLowering, Handler, Lowered, LoweringError, ThreadTensor
from ltc.lowering.llvm.memory import registers_of, single_writer
from ltc.lowering.llvm.scratch import element_address, load_shared, store_shared, tensor_scratch
from ltc.lowering.llvm.thread_index import register_constants, thread_part

__all__ = ["HISTOGRAM_HANDLERS"]


def _histogram(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    b = fl.b
    src = args[0]
    mask = args[1] if len(args) > 1 else None
    res_t = op.results[0].type
    assert isinstance(res_t, TensorType)
    if not isinstance(src, ThreadTensor) or res_t.element_type != i32:
        raise LoweringError(op, "'tt.histogram' with results other than i32 is not supported")
    if len(res_t.get_shape()) != 1 or len(op.operands[0].type.get_shape()) != 1:  # type: ignore[union-attr]
        raise LoweringError(op, "'tt.histogram' of other than a 1-D tensor into 1-D bins is not supported")
    (bins,) = res_t.get_shape()
    if any(isinstance(r.type, IntegerType) and r.type.width.data != 32 for r in src.regs):
        raise LoweringError(op, "'tt.histogram' of values other than i32 is not supported")
    base = tensor_scratch(fl, (bins,), 32)
    tid = fl.tid()
    threads = fl.threads
    for k in range(0, bins, threads):  # zero the counters
        index = b.add_i(tid, b.i32(k)) if k else tid
        pred = b.icmp("ult", index, b.i32(bins)) if k + threads > bins else None
        store_shared(b, element_address(b, base, index, 32), b.i32(0), pred)
    b.barrier()
    owner, free = single_writer(fl, src.layout)
    masks = registers_of(mask, len(src.regs))
    for r, v in enumerate(src.regs):
        if r & free:
            continue
        pred = b.icmp("ult", v, b.i32(bins))
        for extra in (masks[r], owner):
            if extra is not None:
                pred = b.binary("and", pred, extra)
        b.asm("@$1 red.shared.add.u32 [$0], 1;", "r,b", [element_address(b, base, v, 32), pred])
    b.barrier()
    res_layout = fl.layout(res_t, op)
    part = thread_part(b, res_layout, tid, fl.lane_bits)
    loaded: dict[int, SSAValue] = {}
    regs = []
    for (c,) in register_constants(res_layout):
        if c not in loaded:
            loaded[c] = load_shared(b, element_address(b, base, part.with_constant(b, 0, c), 32), i32)
        regs.append(loaded[c])
    return [fl.tensor(op, res_t, regs)]


HISTOGRAM_HANDLERS: dict[str, Handler] = {"tt.histogram": _histogram}
"""``tt.histogram`` (see the module doc)."""
