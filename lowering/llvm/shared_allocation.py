"""Shared-memory buffers placed by liveness: buffers never live at once share bytes.

Ops are numbered in walk order (pre-order); an op spans its own number to the last number
nested in it. A ``ttg.local_alloc``'s buffer is live from the allocation to the last op
that touches it through any view: users of the buffer value and of every ``!ttg.memdesc``
derived from it (views an op makes of it, values a loop or branch carries), and for a
``ttg.local_load`` the ``tt.dot`` reading the loaded tensor too (the lowering may defer
the load to it). A use inside a loop that does not contain the allocation keeps the buffer live
to the loop's end: the next iteration uses it again.

Buffers are placed first-fit in the order of their allocations, at offsets aligned to
:data:`BUFFER_ALIGNMENT`: each takes the lowest offset whose bytes no buffer with a
meeting live interval holds. Bytes one buffer hands to the next are safe because every
write to a buffer waits at a barrier for the shared-memory reads before it
(``ThreadBuilder.shared_read_since_barrier``).
"""

from __future__ import annotations

import math

from xdsl.ir import Operation, SSAValue

from ltc.dialects import ttg
from ltc.dialects.ttg import MemDescType, SharedMemorySpaceAttr
from ltc.lowering.llvm.function import scalar_type
from ltc.lowering.llvm.scratch import storage_bits

__all__ = ["BUFFER_ALIGNMENT", "allocate_buffers", "allocation_bytes", "buffer_bytes"]

BUFFER_ALIGNMENT = 128
"""Bytes: one row of the 32 banks, so that offsets within a buffer fall on banks as in its layout."""

_LOOPS = ("scf.for", "scf.while")


def allocation_bytes(t: MemDescType) -> int:
    """The bytes of the allocation of ``t`` (its elements as stored)."""
    return math.prod(t.get_alloc_shape()) * storage_bits(scalar_type(t.element_type)) // 8


def buffer_bytes(t: MemDescType) -> int:
    """The bytes of the allocation of ``t``, rounded up to :data:`BUFFER_ALIGNMENT`."""
    return -(-allocation_bytes(t) // BUFFER_ALIGNMENT) * BUFFER_ALIGNMENT


def _carried(value: SSAValue, user: Operation, index: int) -> list[SSAValue]:
    """The values ``user`` makes of its operand ``index`` (``value``) that still denote
    the same buffer: memdesc results of a view op, and what loops and branches carry."""
    name = user.name
    if name == "scf.yield":
        parent = user.parent_op()
        if parent is None:
            return []
        out = [parent.results[index]] if index < len(parent.results) else []
        if parent.name == "scf.for":
            out.append(parent.regions[0].block.args[index + 1])
        elif parent.name == "scf.while":  # the after region yields to the before region
            out.append(parent.regions[0].block.args[index])
        return out
    if name == "scf.condition":  # forwarded to the after region and the results
        parent = user.parent_op()
        if parent is None or index == 0:
            return []
        return [parent.regions[1].block.args[index - 1], parent.results[index - 1]]
    if name == "scf.for":
        if index < 3:
            return []
        return [user.regions[0].block.args[index - 2], user.results[index - 3]]
    if name == "scf.while":
        return [user.regions[0].block.args[index]]
    return [r for r in user.results if isinstance(r.type, MemDescType)]


def _live_interval(alloc: Operation, number: dict[Operation, int], last: dict[Operation, int]) -> tuple[int, int]:
    start = number[alloc]
    end = last[alloc]
    ancestors = set()
    parent = alloc.parent_op()
    while parent is not None:
        ancestors.add(parent)
        parent = parent.parent_op()
    seen: set[SSAValue] = {alloc.results[0]}
    work = [alloc.results[0]]
    while work:
        value = work.pop()
        for use in list(value.uses):
            user = use.operation
            touched = [user]
            if user.name == "ttg.local_load":  # the load may move to the dot that reads it
                touched += [u.operation for r in user.results for u in r.uses if u.operation.name == "tt.dot"]
            for op in touched:
                end = max(end, last[op])
                outer = op.parent_op()
                while outer is not None:
                    if outer.name in _LOOPS and outer not in ancestors:
                        end = max(end, last[outer])
                    outer = outer.parent_op()
            for v in _carried(value, user, use.index):
                if v not in seen:
                    seen.add(v)
                    work.append(v)
    return start, end


def allocate_buffers(root: Operation) -> tuple[dict[Operation, int], int]:
    """The byte offset of every shared-memory ``ttg.local_alloc`` under ``root`` and the
    bytes of the whole buffer area (a multiple of :data:`BUFFER_ALIGNMENT`)."""
    number: dict[Operation, int] = {}
    allocs: list[Operation] = []
    for i, op in enumerate(root.walk()):
        number[op] = i
        if isinstance(op, ttg.LocalAllocOp):
            t = op.result.type
            if isinstance(t, MemDescType) and isinstance(t.memory_space, SharedMemorySpaceAttr):
                allocs.append(op)
    if not allocs:
        return {}, 0
    last: dict[Operation, int] = {}
    for op in root.walk():
        last[op] = max((number[o] for o in op.walk()), default=number[op])
    placed: list[tuple[int, int, int, int]] = []  # (start, end, offset, bytes)
    offsets: dict[Operation, int] = {}
    for alloc in allocs:
        start, end = _live_interval(alloc, number, last)
        size = buffer_bytes(alloc.results[0].type)  # type: ignore[arg-type]
        taken = sorted((o, o + b) for s, e, o, b in placed if s <= end and start <= e)
        offset = 0
        for lo, hi in taken:
            if offset + size <= lo:
                break
            offset = max(offset, hi)
        offsets[alloc] = offset
        placed.append((start, end, offset, size))
    return offsets, max(o + b for _, _, o, b in placed)
