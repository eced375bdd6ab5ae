"""Lowering of asynchronous copies into shared memory (sm_80 ``cp.async``):
``ttg.async_copy_global_to_local``, ``ttg.async_commit_group``, ``ttg.async_wait``.

A copy moves each thread's elements of a pointer tensor (layout D) into a buffer of
layout M at the offsets of :func:`~ltc.lowering.plans.buffer_access.plan_buffer_access`.
One ``cp.async`` moves 4, 8 or 16 bytes: a run of v registers g..g+v−1 whose global
addresses are consecutive (the global load's vector width,
:func:`~ltc.lowering.llvm.memory.vector_width`) and whose buffer offsets are consecutive
and v-aligned in the same order (one vector of the buffer plan, at a multiple of v in
it). A masked-off run reads nothing and fills zeros (``src-size`` 0), which is the copy's
``other`` when it is zero; another ``other`` is refused.

Tokens are lowered to a constant i32 (they order nothing in the per-thread code): the
order is that of the instructions. ``async_commit_group`` is ``cp.async.commit_group``;
``async_wait {num}`` is ``cp.async.wait_group num`` then ``bar.sync`` (the copies of other
threads are visible after both). A copy is preceded by ``bar.sync`` where shared memory
may have been read since the last one: earlier readers of its buffer (a previous
iteration's) must be done.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Operation, SSAValue

from ltc.lowering.llvm.function import FunctionLowering, Handler, Lowered, LoweringError, SharedView, ThreadTensor
from ltc.lowering.llvm.local_memory import buffer_address, buffer_plan
from ltc.lowering.llvm.memory import free_register_mask, operand_of, registers_of, vector_width
from ltc.lowering.llvm.scratch import storage_bits
from ltc.lowering.llvm.thread_index import affine_value
from ltc.lowering.plans.plan import SharedStore

__all__ = ["ASYNC_COPY_HANDLERS", "CP_ASYNC_BYTES"]

CP_ASYNC_BYTES = (4, 8, 16)
"""The sizes one ``cp.async`` copies."""


def _token(fl: FunctionLowering) -> SSAValue:
    return fl.b.i32(0)


def _other_is_zero(op: Operation) -> bool:
    """Is the copy's ``other`` absent or a constant of all-zero bits (what ``cp.async``
    fills masked-off bytes with)?"""
    other = getattr(op, "other", None)
    if other is None:
        return True
    owner = other.owner
    value = owner.properties.get("value") if isinstance(owner, Operation) and owner.name == "arith.constant" else None
    if not isinstance(value, DenseIntOrFPElementsAttr):
        return False
    return all(v == 0 and math.copysign(1.0, v) > 0 for v in value.get_values())


def _async_copy(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    ptrs, view = args[0], args[1]
    if not isinstance(ptrs, ThreadTensor) or not isinstance(view, SharedView):
        raise LoweringError(op, "convert-tritongpu-to-llvm: ttg.async_copy_global_to_local copies a tensor of pointers")
    if not _other_is_zero(op):
        raise LoweringError(op, "convert-tritongpu-to-llvm: ttg.async_copy_global_to_local with a non-zero 'other' is not supported")
    bits = storage_bits(view.element)
    ebytes = bits // 8
    plan = buffer_plan(op, ptrs.layout, view, store=True)
    place = {
        r.index: (ins, p) for ins in plan.instructions if isinstance(ins, SharedStore) for p, r in enumerate(ins.src)
    }
    n = len(ptrs.regs)
    free = free_register_mask(ptrs.layout)
    starts = [g for g in range(n) if g in place]

    def fits(v: int) -> bool:
        for g in starts:
            if g % v:
                continue
            ins, p = place[g]
            if p % v or any(place.get(g + k) != (ins, p + k) for k in range(v)):
                return False
        return True

    v = min(vector_width(fl, op, ptrs.layout, bits), 1 << plan.vector)
    while v > 1 and not fits(v):
        v //= 2
    size = v * ebytes
    if size not in CP_ASYNC_BYTES:
        raise LoweringError(
            op, f"convert-tritongpu-to-llvm: cp.async copies 4, 8 or 16 bytes; these elements move {size} at a time"
        )
    masks = registers_of(operand_of(op, "mask", args), n)
    b = fl.b
    if b.shared_read_since_barrier:
        b.barrier()  # earlier readers of the buffer must be done before it is overwritten
    base = buffer_address(fl, view)
    tid = fl.tid()
    cache = "cg" if size == 16 else "ca"
    for g in range(0, n, v):
        if g & free or g not in place:
            continue
        ins, p = place[g]
        a = ins.address
        offset = affine_value(b, a.lane, a.warp, a.constant + p * ebytes, tid, fl.lane_bits)
        dst = b.add_i(base, offset)
        if masks[g] is None:
            b.asm(f"cp.async.{cache}.shared.global [$0], [$1], {size};", "r,l", [dst, ptrs.regs[g]], side_effects=True)
        else:
            src_size = b.select(masks[g], b.i32(size), b.i32(0))  # type: ignore[arg-type]
            b.asm(
                f"cp.async.{cache}.shared.global [$0], [$1], {size}, $2;",
                "r,l,r",
                [dst, ptrs.regs[g], src_size],
                side_effects=True,
            )
    return [_token(fl)]


def _commit_group(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    fl.b.asm("cp.async.commit_group;", "", [], side_effects=True)
    return [_token(fl)]


def _wait(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    num = op.num.value.data  # type: ignore[attr-defined]
    fl.b.asm(f"cp.async.wait_group {num};", "", [], side_effects=True)
    fl.b.barrier()  # the other threads' copies are visible after their waits
    return [_token(fl)]


ASYNC_COPY_HANDLERS: dict[str, Handler] = {
    "ttg.async_copy_global_to_local": _async_copy,
    "ttg.async_commit_group": _commit_group,
    "ttg.async_wait": _wait,
}
