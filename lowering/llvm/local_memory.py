"""Lowering of shared-memory buffers: ``ttg.local_alloc``, ``ttg.local_store``,
``ttg.local_load``, ``ttg.local_dealloc``, and views of part of one: ``ttg.memdesc_index``
(a slot of a multi-buffer, its bytes) and ``ttg.memdesc_subslice`` (a tile at constant
coordinates of the same layout).

Allocation. Every ``ttg.local_alloc`` of a function gets a byte range at the start of
``@global_smem`` (:func:`~ltc.lowering.llvm.shared_allocation.allocate_buffers`: buffers
never live at once share bytes), 128-byte aligned so that a buffer's bank pattern is its
layout's; the scratch area of conversions and reductions follows the buffers. An
allocation is a static op, so one range serves every execution of it (a loop reuses it,
guarded by barriers).

Access. A buffer is a :class:`~ltc.lowering.llvm.function.SharedView`: its offset and its
linear layout M (element offset → coordinates, from the memdesc's shared encoding). A
write or read by a distributed tensor is the plan of
:func:`~ltc.lowering.plans.buffer_access.plan_buffer_access` — vectorized
``st/ld.shared`` at ``M⁻¹`` of each element's coordinates — run by the conversion
lowering's instruction translator.

Deferred loads. A ``local_load`` read only by a ``tt.dot`` right after it is a
:class:`~ltc.lowering.llvm.function.DeferredTensor`: each vector is loaded where the dot
first reads one of its registers, so the loads interleave with the fmas or mmas.

Barriers. A write is followed by ``bar.sync`` (its readers may be other threads) and,
unless no shared memory can have been read since the last barrier
(``ThreadBuilder.shared_read_since_barrier``), preceded by one: earlier readers of its bytes
must be done (a previous iteration's, or another buffer's that had them before).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from ltc.dialects.ttg import MemDescType
from ltc.lowering.llvm.convert_layout import load_registers, lower_instructions
from ltc.lowering.llvm.function import (
    DeferredTensor,
    FunctionLowering,
    Handler,
    Lowered,
    LoweringError,
    SharedView,
    ThreadTensor,
    scalar_type,
)
from ltc.lowering.llvm.scratch import storage_bits
from ltc.lowering.llvm.shared_allocation import allocation_bytes
from ltc.linear_layout import LinearLayout
from ltc.lowering.plans.buffer_access import BufferAccess, plan_buffer_access
from ltc.lowering.plans.plan import Move, PlanError, SharedLoad

__all__ = [
    "LOCAL_MEMORY_HANDLERS",
    "allocation_view",
    "buffer_address",
    "buffer_plan",
]

def allocation_view(op: Operation, t: MemDescType, offset: int | SSAValue) -> SharedView:
    """The whole allocation of ``t`` at byte ``offset``: its layout is its encoding's on its
    shape (none for a buffer of slices: more dims than the encoding's rank)."""
    shape = tuple(t.get_alloc_shape())
    rank = getattr(t.encoding.encoding, "rank", len(shape))
    layout = None
    if len(shape) == rank:
        try:
            layout = t.encoding.to_linear_layout(shape)
        except ValueError as e:  # EncodingError, ShapeError, LayoutError
            raise LoweringError(op, f"convert-tritongpu-to-llvm: {t.encoding}: {e}") from None
    return SharedView(offset, layout, scalar_type(t.element_type))


def _memdesc_index(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    """Slice ``index`` of a buffer of slices: its bytes start ``index`` slices in."""
    parent, index = args
    assert isinstance(parent, SharedView) and isinstance(index, SSAValue)
    t = op.results[0].type
    assert isinstance(t, MemDescType)
    b = fl.b
    if parent.origin is not None:
        raise LoweringError(op, "convert-tritongpu-to-llvm: ttg.memdesc_index of a ttg.memdesc_subslice is not supported")
    slice_bytes = allocation_bytes(t)
    start = b.i32(parent.offset) if isinstance(parent.offset, int) else parent.offset
    offset = b.add_i(start, b.binary("mul", index, b.i32(slice_bytes)))
    return [allocation_view(op, t, offset)]


def buffer_address(fl: FunctionLowering, view: SharedView) -> SSAValue:
    """The 32-bit shared address of the first byte of the view's allocation (a
    subslice's origin is a constant of its access plan)."""
    start = fl.smem_address()
    if isinstance(view.offset, int):
        return fl.b.add_i(start, fl.b.i32(view.offset)) if view.offset else start
    return fl.b.add_i(start, view.offset)


def _memdesc_subslice(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    """A tile of a view at constant offsets: the same allocation, its origin moved."""
    (parent,) = args
    assert isinstance(parent, SharedView)
    offsets = tuple(op.offsets.get_values())  # type: ignore[attr-defined]
    base = parent.origin or (0,) * len(offsets)
    return [SharedView(parent.offset, parent.layout, parent.element, tuple(a + b for a, b in zip(base, offsets)))]


def buffer_plan(op: Operation, layout: LinearLayout, view: SharedView, store: bool) -> BufferAccess:
    """How a tensor of ``layout`` stores into (``store``) or loads from ``view``, or the
    refusal of ``op``."""
    if view.layout is None:
        raise LoweringError(op, "convert-tritongpu-to-llvm: a buffer of several slices is accessed through ttg.memdesc_index")
    try:
        return plan_buffer_access(layout, view.layout, storage_bits(view.element), store=store, origin=view.origin)
    except PlanError as e:
        raise LoweringError(op, f"convert-tritongpu-to-llvm: cannot access this shared buffer: {e}") from None


def _write(fl: FunctionLowering, op: Operation, view: SharedView, x: Lowered) -> None:
    assert isinstance(x, ThreadTensor)
    plan = buffer_plan(op, x.layout, view, store=True)
    if fl.b.shared_read_since_barrier:
        fl.b.barrier()
    lower_instructions(fl, plan.instructions, x.regs, view.element, 0, buffer_address(fl, view))
    fl.b.barrier()


def _local_alloc(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    t = op.results[0].type
    if not isinstance(t, MemDescType) or op not in fl.buffer_offsets:
        raise LoweringError(op, "convert-tritongpu-to-llvm: only shared-memory buffers are supported by ttg.local_alloc")
    view = allocation_view(op, t, fl.buffer_offsets[op])
    if args:  # the initial value
        _write(fl, op, view, args[0])
    return [view]


def _local_store(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    x, view = args[0], args[1]
    assert isinstance(view, SharedView)
    _write(fl, op, view, x)
    return []


_BETWEEN_DEFERRED = frozenset(
    {"ttg.local_alloc", "ttg.local_load", "ttg.memdesc_index", "ttg.memdesc_subslice", "ttg.convert_layout"}
)
"""Ops that may stand between a deferred ``local_load`` and its ``tt.dot``: none writes the
loaded buffer (a ``local_alloc`` writes only its own, whose bytes the loaded buffer does
not share: its live interval reaches the dot, ``shared_allocation``)."""


def _read_by_a_dot_only(op: Operation) -> bool:
    """Is ``op``'s result read once, by a ``tt.dot`` later in its block, with no op
    between them that could write a buffer (so the loads may move to the dot)?"""
    uses = list(op.results[0].uses)
    if len(uses) != 1:
        return False
    dot = uses[0].operation
    if dot.name != "tt.dot" or dot.parent_block() is not op.parent_block():
        return False
    between = op.next_op
    while between is not None and between is not dot:
        if between.name not in _BETWEEN_DEFERRED and not between.name.startswith(("arith.", "math.")):
            return False
        between = between.next_op
    return between is dot


def _deferred_loads(fl: FunctionLowering, plan: BufferAccess, view: SharedView) -> Callable[[int], SSAValue]:
    """``fetch(r)``: register ``r`` of ``plan``'s loads, its vector loaded at the first read."""
    load_of = {r.index: ins for ins in plan.instructions if isinstance(ins, SharedLoad) for r in ins.dst}
    canonical = {ins.dst.index: ins.src.index for ins in plan.instructions if isinstance(ins, Move)}
    loaded: dict[int, SSAValue] = {}
    base: list[SSAValue] = []

    def fetch(r: int) -> SSAValue:
        r = canonical.get(r, r)
        if r not in loaded:
            if not base:
                base.append(buffer_address(fl, view))
            loaded.update(load_registers(fl, load_of[r], view.element, base[0]))
        return loaded[r]

    return fetch


def _local_load(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    view = args[0]
    assert isinstance(view, SharedView)
    t = op.results[0].type
    assert isinstance(t, TensorType)
    dst = fl.layout(t, op)
    plan = buffer_plan(op, dst, view, store=False)
    if _read_by_a_dot_only(op):
        return [DeferredTensor(dst, _deferred_loads(fl, plan, view))]
    regs = lower_instructions(fl, plan.instructions, (), view.element, dst.in_dim_size("register"), buffer_address(fl, view))
    return [fl.tensor(op, t, regs)]


def _local_dealloc(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    return []  # buffers are static: nothing to free


LOCAL_MEMORY_HANDLERS: dict[str, Handler] = {
    "ttg.local_alloc": _local_alloc,
    "ttg.local_store": _local_store,
    "ttg.local_load": _local_load,
    "ttg.local_dealloc": _local_dealloc,
    "ttg.memdesc_index": _memdesc_index,
    "ttg.memdesc_subslice": _memdesc_subslice,
}
