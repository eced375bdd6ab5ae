"""Interpreter handlers for ``ttg``, ``ttng`` and ``gpu``: layouts, shared memory, async
copies, TMA, wgmma and barriers.

Layouts carry no values, so ``ttg.convert_layout`` is the identity. A shared-memory
allocation is a numpy array (``SharedView``; fresh float allocations hold NaN, so
reading memory nothing wrote shows up); ``ttg.memdesc_index`` / ``_subslice`` /
``_trans`` are views of it. Async work (``ttg.async_copy_global_to_local``, TMA copies,
``ttng.warp_group_dot``) completes when issued, so waits, fences, commit groups and
mbarriers have nothing to do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

from ltc.passes.interpret_state import Descriptor, InterpretError, SharedView
from ltc.passes.interpret_tt import array_of, descriptor_block, dot, store_descriptor_block

if TYPE_CHECKING:
    from ltc.passes.interpret_state import Handler, Interpreter, Value

__all__ = ["GPU_HANDLERS"]

_PRECISIONS = {0: "tf32", 1: "tf32x3", 2: "ieee", 3: "bf16x3", 4: "bf16x6"}
"""``ttng.warp_group_dot``'s integer ``inputPrecision`` -> ``tt.dot``'s name."""


def _view(v: Value) -> SharedView:
    if not isinstance(v, SharedView):
        raise InterpretError(f"expected a shared-memory descriptor, got {type(v).__name__}")
    return v


def _identity(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [args[0]]


def _nothing(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [None] * len(op.results)


def _local_alloc(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    t = op.results[0].type
    if args:
        return [SharedView(np.array(args[0], copy=True))]
    info = it.info(t)
    fill = np.nan if info.kind == "float" else 0
    return [SharedView(np.full(t.get_shape(), fill, dtype=info.dtype))]  # type: ignore[attr-defined]


def _local_load(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [np.array(_view(args[0]).array, copy=True)]


def _local_store(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    _view(args[1]).array[...] = np.asarray(args[0])
    return []


def _memdesc_index(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    view, index = _view(args[0]), int(np.asarray(args[1]))
    if not 0 <= index < view.array.shape[0]:
        raise InterpretError(f"index {index} out of range [0, {view.array.shape[0]})")
    return [SharedView(view.array[index])]


def _memdesc_subslice(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    view = _view(args[0])
    offsets = [int(v) for v in op.properties["offsets"].get_values()]  # type: ignore[attr-defined]
    shape = op.results[0].type.get_shape()  # type: ignore[attr-defined]
    lead = view.array.ndim - len(shape)
    index = tuple(slice(o, o + n) for o, n in zip(offsets, (1,) * lead + tuple(shape), strict=True))
    return [SharedView(view.array[index].reshape(shape))]


def _memdesc_trans(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    order = tuple(int(v) for v in op.properties["order"].get_values())  # type: ignore[attr-defined]
    return [SharedView(np.transpose(_view(args[0]).array, order))]


def _memdesc_reinterpret(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    view = _view(args[0])
    t = op.results[0].type
    if it.info(t) != it.info(op.operands[0].type):
        raise InterpretError("memdesc_reinterpret to another element type is not supported")
    if not view.array.flags.c_contiguous:
        raise InterpretError("memdesc_reinterpret of a non-contiguous view is not supported")
    return [SharedView(view.array.reshape(t.get_shape()))]  # type: ignore[attr-defined]


def _async_copy(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    dst = _view(it.value(op.result))  # type: ignore[attr-defined]
    mask, other = it.value(op.mask), it.value(op.other)  # type: ignore[attr-defined]
    info = it.info(op.operands[1].type)
    dst.array[...] = it.memory.load(np.asarray(it.value(op.src)), mask, info, other)  # type: ignore[arg-type, attr-defined]
    return [None]


def _global_scratch(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    nbytes = op.properties["nbytes"].value.data  # type: ignore[attr-defined]
    return [np.asarray(it.memory.add(np.zeros(max(nbytes, 1), dtype=np.uint8), "global scratch"), dtype=np.int64)]


def _warp_group_dot(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    a, b, c = (array_of(it.value(v)) for v in (op.a, op.b, op.c))  # type: ignore[attr-defined]
    use_c = it.value(op.useC)  # type: ignore[attr-defined]
    if use_c is not None and not bool(np.asarray(use_c)):
        c = np.zeros_like(c)
    precision = _PRECISIONS.get(op.properties["inputPrecision"].value.data, "ieee")  # type: ignore[attr-defined]
    return [dot(a, b, c, it.info(op.operands[0].type), it.info(op.results[0].type), precision)]


def _tma_load(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    if bool(np.asarray(it.value(op.pred))):  # type: ignore[attr-defined]
        desc = it.value(op.desc)  # type: ignore[attr-defined]
        assert isinstance(desc, Descriptor)
        dst = _view(it.value(op.result))  # type: ignore[attr-defined]
        offsets = [int(np.asarray(it.value(c))) for c in op.coord]  # type: ignore[attr-defined]
        dst.array[...] = descriptor_block(it, desc, offsets, dst.array.shape, it.info(op.result.type))  # type: ignore[attr-defined]
    return []


def _tma_store(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    desc = it.value(op.desc)  # type: ignore[attr-defined]
    assert isinstance(desc, Descriptor)
    src = _view(it.value(op.src)).array  # type: ignore[attr-defined]
    offsets = [int(np.asarray(it.value(c))) for c in op.coord]  # type: ignore[attr-defined]
    store_descriptor_block(it, desc, offsets, src, it.info(op.src.type))  # type: ignore[attr-defined]
    return []


GPU_HANDLERS: Mapping[str, Handler] = {
    "ttg.convert_layout": _identity,
    "ttg.local_alloc": _local_alloc,
    "ttg.local_load": _local_load,
    "ttg.local_store": _local_store,
    "ttg.local_dealloc": _nothing,
    "ttg.memdesc_index": _memdesc_index,
    "ttg.memdesc_subslice": _memdesc_subslice,
    "ttg.memdesc_trans": _memdesc_trans,
    "ttg.memdesc_reinterpret": _memdesc_reinterpret,
    "ttg.async_copy_global_to_local": _async_copy,
    "ttg.async_commit_group": _nothing,
    "ttg.async_wait": _nothing,
    "ttg.barrier": _nothing,
    "ttg.global_scratch_alloc": _global_scratch,
    "gpu.barrier": _nothing,
    "ttng.warp_group_dot": _warp_group_dot,
    "ttng.warp_group_dot_wait": lambda it, op, args: list(args),
    "ttng.fence_async_shared": _nothing,
    "ttng.init_barrier": _nothing,
    "ttng.inval_barrier": _nothing,
    "ttng.barrier_expect": _nothing,
    "ttng.wait_barrier": _nothing,
    "ttng.async_tma_copy_global_to_local": _tma_load,
    "ttng.async_tma_copy_local_to_global": _tma_store,
    "ttng.async_tma_store_wait": _nothing,
}
"""ttg / ttng / gpu op name -> handler."""
