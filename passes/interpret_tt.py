"""Interpreter handlers for the ``tt`` dialect: shapes, pointers and memory, reductions,
dot, descriptors, calls.

Shape ops follow Triton's definitions: ``tt.reshape`` is row-major (also with
``allow_reorder``: the interpreter picks the identity order), ``tt.trans`` permutes dims
(result dim i is source dim ``order[i]``), ``tt.join`` stacks its operands along a new
minor dim of size 2, ``tt.split`` splits that dim, ``tt.cat`` concatenates along dim 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects.builtin import DenseArrayBase, TensorType
from xdsl.ir import Attribute, Block, Operation

from ltc.passes.interpret_state import Descriptor, InterpretError, SharedView
from ltc.passes.interpret_arith import bitcast, signed, unsigned
from ltc.passes.interpret_types import TypeInfo, element_type, fit, to_memory

if TYPE_CHECKING:
    from ltc.passes.interpret_state import Handler, Interpreter, Value

__all__ = ["TT_HANDLERS", "descriptor_block", "dot", "store_descriptor_block"]


def _shape(t: Attribute) -> tuple[int, ...]:
    return tuple(t.get_shape()) if isinstance(t, TensorType) else ()


def _res(it: Interpreter, op: Operation, i: int = 0) -> TypeInfo:
    return it.info(op.results[i].type)


def _ints(attr: DenseArrayBase) -> tuple[int, ...]:
    return tuple(int(v) for v in attr.get_values())


def _int_prop(op: Operation, name: str) -> int:
    return op.properties[name].value.data  # type: ignore[attr-defined]


def _enum_prop(op: Operation, name: str, default: str | None = None) -> str | None:
    attr = op.properties.get(name)
    return default if attr is None else str(attr.data.value)  # type: ignore[attr-defined]


def array_of(v: Value) -> np.ndarray:
    """A tensor value, or the contents of a shared-memory view."""
    return v.array if isinstance(v, SharedView) else np.asarray(v)


# ----------------------------------------------------------------------------------------
# Program ids and shapes
# ----------------------------------------------------------------------------------------


def _program_id(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    axis = "xyz".index(_enum_prop(op, "axis") or "x")
    return [np.asarray(it.pid[axis], dtype=np.int32)]


def _num_programs(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    axis = "xyz".index(_enum_prop(op, "axis") or "x")
    return [np.asarray(it.grid[axis], dtype=np.int32)]


def _make_range(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    start, end = _int_prop(op, "start"), _int_prop(op, "end")
    return [it.memo(op, lambda: np.arange(start, end, dtype=np.int32))]


def _splat(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [np.broadcast_to(np.asarray(args[0]), _shape(op.results[0].type))]


def _unsplat(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [np.asarray(args[0]).reshape(-1)[0:1].reshape(())]


def _expand_dims(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [np.expand_dims(np.asarray(args[0]), _int_prop(op, "axis"))]


def _broadcast(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [np.broadcast_to(np.asarray(args[0]), _shape(op.results[0].type))]


def _reshape(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [np.reshape(np.asarray(args[0]), _shape(op.results[0].type))]


def _trans(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [np.transpose(array_of(args[0]), _ints(op.properties["order"]))]  # type: ignore[arg-type]


def _join(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [np.stack([np.asarray(a) for a in args], axis=-1)]


def _split(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    src = np.asarray(args[0])
    return [src[..., 0], src[..., 1]]


def _cat(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [np.concatenate([np.asarray(a) for a in args], axis=0)]


# ----------------------------------------------------------------------------------------
# Pointers and memory
# ----------------------------------------------------------------------------------------


def _pointee(t: Attribute) -> Attribute:
    return element_type(t).pointee_type  # type: ignore[attr-defined]


def _addptr(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    size = it.info(_pointee(op.results[0].type)).itemsize
    return [np.asarray(args[0], dtype=np.int64) + signed(args[1]) * size]


def _load(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    mask, other = it.value(op.mask), it.value(op.other)  # type: ignore[attr-defined]
    return [it.memory.load(args[0], mask, _res(it, op), other)]  # type: ignore[arg-type]


def _store(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    mask = it.value(op.mask)  # type: ignore[attr-defined]
    it.memory.store(args[0], args[1], mask, it.info(op.operands[1].type))  # type: ignore[arg-type]
    return []


def _rmw_function(kind: str, info: TypeInfo) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``old, value -> new`` of an atomic read-modify-write."""
    is_float = info.kind == "float"
    if kind in ("add", "fadd"):
        return (lambda o, v: o + v) if is_float else (lambda o, v: signed(o) + signed(v))
    if kind in ("max", "min"):
        pick = np.maximum if kind == "max" else np.minimum
        return (lambda o, v: pick(o, v)) if is_float else (lambda o, v: pick(signed(o), signed(v)))
    if kind in ("umax", "umin"):
        pick = np.maximum if kind == "umax" else np.minimum
        return lambda o, v: pick(unsigned(o, info.width), unsigned(v, info.width)).view(np.int64)
    bitwise = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}
    if kind in bitwise:
        return lambda o, v: bitwise[kind](signed(o), signed(v))
    if kind in ("exch", "xchg"):
        return lambda o, v: np.asarray(v)
    raise InterpretError(f"unsupported atomic kind '{kind}'")


def _atomic_rmw(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    ptr = np.asarray(args[0])
    info = it.info(op.operands[1].type)
    fn = _rmw_function(_enum_prop(op, "atomic_rmw_op") or "", info)
    values = np.broadcast_to(np.asarray(args[1]), ptr.shape).reshape(-1)
    mask = it.value(op.mask)  # type: ignore[attr-defined]
    return [it.memory.atomic(ptr, mask, info, lambda old, lane: fn(old, values[lane : lane + 1]))]  # type: ignore[arg-type]


def _atomic_cas(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    ptr = np.asarray(args[0])
    info = it.info(op.operands[2].type)
    cmp = to_memory(np.broadcast_to(np.asarray(args[1]), ptr.shape), info).reshape(-1)
    values = np.broadcast_to(np.asarray(args[2]), ptr.shape).reshape(-1)

    def update(old: np.ndarray, lane: int) -> np.ndarray:
        return np.where(to_memory(old, info) == cmp[lane], values[lane : lane + 1], old)

    return [it.memory.atomic(ptr, None, info, update)]


def _atomic_load(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [it.memory.load(args[0], it.value(op.mask), _res(it, op))]  # type: ignore[arg-type, attr-defined]


def _atomic_store(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    it.memory.store(args[0], args[1], it.value(op.mask), it.info(op.operands[1].type))  # type: ignore[arg-type, attr-defined]
    return []


def _int_to_ptr(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [signed(args[0])]


def _ptr_to_int(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [fit(np.asarray(args[0], dtype=np.int64), _res(it, op))]


def _bitcast(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [bitcast(args[0], it.info(op.operands[0].type), _res(it, op))]


# ----------------------------------------------------------------------------------------
# Reductions, scans, gather, histogram
# ----------------------------------------------------------------------------------------


def _combine(it: Interpreter, block: Block, lhs: list[np.ndarray], rhs: list[np.ndarray], infos: list[TypeInfo]) -> list[np.ndarray]:
    out = it.run_block(block, [*lhs, *rhs])
    return [fit(np.broadcast_to(np.asarray(o), lhs[i].shape), infos[i]) for i, o in enumerate(out)]


def _reduce(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    """Combine adjacent pairs along the axis, level by level (left operand: lower indices)."""
    axis = _int_prop(op, "axis")
    block = op.regions[0].block
    infos = [it.info(a.type) for a in op.operands]
    parts = [np.moveaxis(np.asarray(a), axis, 0) for a in args]
    while parts[0].shape[0] > 1:
        n = parts[0].shape[0]
        half = n // 2
        merged = _combine(it, block, [p[0 : 2 * half : 2] for p in parts], [p[1 : 2 * half : 2] for p in parts], infos)
        if n % 2:
            merged = [np.concatenate([m, p[2 * half :]]) for m, p in zip(merged, parts, strict=True)]
        parts = merged
    return [p[0] for p in parts]


def _scan(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    """A running fold along the axis (from the end when ``reverse``)."""
    axis = _int_prop(op, "axis")
    reverse = bool(op.properties["reverse"].value.data)  # type: ignore[attr-defined]
    block = op.regions[0].block
    infos = [it.info(a.type) for a in op.operands]
    parts = [np.moveaxis(np.asarray(a), axis, 0) for a in args]
    if reverse:
        parts = [p[::-1] for p in parts]
    acc = [p[0] for p in parts]
    outs = [[a] for a in acc]
    for i in range(1, parts[0].shape[0]):
        acc = _combine(it, block, acc, [p[i] for p in parts], infos)
        for o, a in zip(outs, acc, strict=True):
            o.append(a)
    results = [np.stack(o) for o in outs]
    if reverse:
        results = [r[::-1] for r in results]
    return [np.moveaxis(r, 0, axis) for r in results]


def _gather(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    src, idx = np.asarray(args[0]), signed(args[1])
    axis = _int_prop(op, "axis")
    bad = (idx < 0) | (idx >= src.shape[axis])
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise InterpretError(f"gather index {int(idx[where])} out of range [0, {src.shape[axis]}) at {where}")
    return [np.take_along_axis(src, idx, axis=axis)]


def _histogram(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    src = signed(args[0]).reshape(-1)
    bins = _shape(op.results[0].type)[0]
    keep = (src >= 0) & (src < bins)
    mask = it.value(op.mask)  # type: ignore[attr-defined]
    if mask is not None:
        keep &= np.broadcast_to(np.asarray(mask), np.asarray(args[0]).shape).reshape(-1)
    return [fit(np.bincount(src[keep], minlength=bins)[:bins], _res(it, op))]


def _map_elementwise(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    out = it.run_block(op.regions[0].block, args)
    return [fit(np.broadcast_to(np.asarray(o), _shape(r.type)), it.info(r.type)) for o, r in zip(out, op.results, strict=True)]


# ----------------------------------------------------------------------------------------
# Dot
# ----------------------------------------------------------------------------------------


def _tf32_operand(x: np.ndarray) -> np.ndarray:
    """An f32 operand as a tensor core reads it for a tf32 dot: the low 13 mantissa bits
    dropped (Triton's PTX passes the f32 bits unrounded)."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32) & np.uint32(0xFFFFE000)
    return bits.view(np.float32).astype(np.float64)


def dot(a: np.ndarray, b: np.ndarray, c: np.ndarray, a_info: TypeInfo, out: TypeInfo, precision: str) -> np.ndarray:
    """``c + a @ b`` (batched over leading dims): floats in float64, rounded once to the
    result type (``tf32`` drops the low 13 mantissa bits of f32 operands first, as the
    tensor core does); integers exactly, wrapped to the result width."""
    if out.kind == "float":
        a64, b64 = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        if precision == "tf32" and a_info.dtype == np.float32 and a_info.fmt is None:
            a64, b64 = _tf32_operand(a), _tf32_operand(b)
        return fit(np.asarray(c, dtype=np.float64) + np.matmul(a64, b64), out)
    return fit(signed(c) + np.matmul(signed(a), signed(b)), out)


def _tt_dot(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    precision = _enum_prop(op, "inputPrecision", "ieee") or "ieee"
    a, b, c = (array_of(v) for v in args)
    return [dot(a, b, c, it.info(op.operands[0].type), _res(it, op), precision)]


# ----------------------------------------------------------------------------------------
# Elementwise specials
# ----------------------------------------------------------------------------------------


def _clampf(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    x, lo, hi = (np.asarray(a) for a in args)
    out = np.fmin(np.fmax(x, lo), hi)  # LLVM minnum(maxnum(x, lo), hi): NaN x gives lo
    if _enum_prop(op, "propagateNan") == "all":
        out = np.where(np.isnan(x), x, out)
    return [fit(out, _res(it, op))]


def _elementwise(fn: Callable[..., np.ndarray]) -> Handler:
    def handler(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
        return [fit(fn(*(np.asarray(a) for a in args)), _res(it, op))]

    return handler


def _fp_to_fp(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    mode = _enum_prop(op, "rounding", "rtne") or "rtne"
    return [fit(np.asarray(args[0], dtype=np.float64), _res(it, op), "rtz" if mode == "rtz" else "rtne")]


def _mulhiui(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    width = it.info(op.operands[0].type).width
    a, b = (unsigned(x, width).astype(object) for x in args)
    high = np.vectorize(lambda p: int(p) >> width, otypes=[object])(a * b)
    return [fit(np.asarray(high.astype(np.uint64)).view(np.int64), _res(it, op))]


_LIBDEVICE: Mapping[str, Callable[..., np.ndarray]] = {
    "exp": np.exp, "exp2": np.exp2, "exp10": lambda x: np.power(10.0, x), "expm1": np.expm1,
    "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p,
    "sqrt": np.sqrt, "rsqrt": lambda x: 1.0 / np.sqrt(x), "cbrt": np.cbrt,
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh,
    "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "atan2": np.arctan2,
    "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh,
    "pow": np.power, "powi": np.power, "fmod": np.fmod, "hypot": np.hypot,
    "fabs": np.abs, "abs": np.abs, "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc,
    "rint": np.rint, "nearbyint": np.rint, "round": lambda x: np.copysign(np.floor(np.abs(x) + 0.5), x),
    "fmax": np.fmax, "fmin": np.fmin, "max": np.maximum, "min": np.minimum,
    "fma": lambda a, b, c: a * b + c, "copysign": np.copysign,
    "erf": np.vectorize(math.erf, otypes=[np.float64]),
    "erfc": np.vectorize(math.erfc, otypes=[np.float64]),
    "isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite, "finite": np.isfinite,
    "signbit": np.signbit, "div_rn": np.divide, "fdiv_rn": np.divide, "sqrt_rn": np.sqrt,
}  # fmt: skip
"""libdevice / ocml function names (without prefix and type suffix) -> numpy, in float64."""


def _libdevice(symbol: str) -> Callable[..., np.ndarray] | None:
    name = symbol
    for prefix in ("__nv_", "__ocml_", "__builtin_"):
        name = name.removeprefix(prefix)
    for suffix in ("_f32", "_f64", "_f16"):
        name = name.removesuffix(suffix)
    for candidate in (name, name[:-1] if name[-1:] in ("f", "d") else name):
        if candidate in _LIBDEVICE:
            return _LIBDEVICE[candidate]
    return None


def _extern_elementwise(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    symbol = op.properties["symbol"].data  # type: ignore[attr-defined]
    fn = _libdevice(symbol)
    if fn is None:
        raise InterpretError(f"unsupported extern function '{symbol}'")
    info = _res(it, op)
    ins = [np.asarray(a) for a in args]
    if info.kind == "float" or any(a.dtype.kind == "f" for a in ins):
        ins = [a.astype(np.float64) for a in ins]
    out = np.asarray(fn(*ins))
    if out.dtype == np.bool_ and info.kind == "int":
        out = out.astype(np.int64)
    return [fit(out, info)]


# ----------------------------------------------------------------------------------------
# Calls, checks
# ----------------------------------------------------------------------------------------


def _call(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    callee = op.properties["callee"].string_value()  # type: ignore[attr-defined]
    func = it.memo(op, lambda: it.find_func(callee))
    return it.call(func, args)  # type: ignore[arg-type]


def _assert(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    cond = np.asarray(args[0])
    if not cond.all():
        where = tuple(int(i) for i in np.argwhere(~cond.astype(bool))[0]) if cond.ndim else ()
        message = op.properties["message"].data  # type: ignore[attr-defined]
        raise InterpretError(f"assertion failed in program {it.pid} at lane {where}: {message}")
    return []


def _nothing(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [None] * len(op.results)


# ----------------------------------------------------------------------------------------
# Tensor descriptors
# ----------------------------------------------------------------------------------------


def _block_coords(offsets: Sequence[int], shape: Sequence[int]) -> list[np.ndarray]:
    rank = len(shape)
    return [
        (int(o) + np.arange(n, dtype=np.int64)).reshape([n if d == i else 1 for d in range(rank)])
        for i, (o, n) in enumerate(zip(offsets, shape, strict=True))
    ]


def descriptor_block(it: Interpreter, desc: Descriptor, offsets: Sequence[int], shape: Sequence[int], info: TypeInfo) -> np.ndarray:
    """The block of ``desc`` at ``offsets`` (out of bounds: 0, or NaN for NaN padding)."""
    lead = len(desc.shape) - len(shape)  # a rank-reduced block: leading dims of size 1
    coords = _block_coords(offsets, [1] * lead + list(shape))
    addrs, inside = desc.addresses(coords)
    fill = np.asarray(np.nan if desc.pad_nan and info.kind == "float" else 0).astype(info.dtype)
    return it.memory.load(addrs, inside, info, fill).reshape(shape)


def store_descriptor_block(it: Interpreter, desc: Descriptor, offsets: Sequence[int], block: np.ndarray, info: TypeInfo) -> None:
    """Write ``block`` into ``desc`` at ``offsets``, dropping out-of-bounds elements."""
    lead = len(desc.shape) - block.ndim
    coords = _block_coords(offsets, [1] * lead + list(block.shape))
    addrs, inside = desc.addresses(coords)
    it.memory.store(addrs, block.reshape(addrs.shape), inside, info)


def _make_desc(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    rank = len(op.shape)  # type: ignore[attr-defined]
    base = int(np.asarray(args[0]))
    shape = tuple(int(np.asarray(a)) for a in args[1 : 1 + rank])
    strides = tuple(int(np.asarray(a)) for a in args[1 + rank :])
    padding = op.properties.get("padding")
    info = it.info(op.results[0].type.element_type)  # type: ignore[attr-defined]
    pad_nan = padding is not None and padding.value.data == 2  # type: ignore[attr-defined]
    return [Descriptor(base, shape, strides, info, pad_nan)]


def _descriptor_load(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    desc = args[0]
    assert isinstance(desc, Descriptor)
    offsets = [int(np.asarray(a)) for a in args[1:]]
    return [descriptor_block(it, desc, offsets, _shape(op.results[0].type), _res(it, op))]


def _descriptor_store(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    desc, src = args[0], np.asarray(args[1])
    assert isinstance(desc, Descriptor)
    store_descriptor_block(it, desc, [int(np.asarray(a)) for a in args[2:]], src, it.info(op.operands[1].type))
    return []


_DESC_REDUCE = {"add": "add", "min": "min", "max": "max", "and": "and", "or": "or", "xor": "xor"}


def _descriptor_reduce(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    desc, src = args[0], np.asarray(args[1])
    assert isinstance(desc, Descriptor)
    kind = _enum_prop(op, "kind") or ""
    if kind not in _DESC_REDUCE:
        raise InterpretError(f"unsupported descriptor reduce kind '{kind}'")
    info = it.info(op.operands[1].type)
    lead = len(desc.shape) - src.ndim
    addrs, inside = desc.addresses(_block_coords([int(np.asarray(a)) for a in args[2:]], [1] * lead + list(src.shape)))
    fn = _rmw_function(_DESC_REDUCE[kind], info)
    values = np.broadcast_to(src.reshape(addrs.shape), addrs.shape).reshape(-1)
    it.memory.atomic(addrs, inside, info, lambda old, lane: fn(old, values[lane : lane + 1]))
    return []


def _gather_coords(rows: np.ndarray, col: int, width: int) -> list[np.ndarray]:
    return [signed(rows).reshape(-1, 1), (col + np.arange(width, dtype=np.int64)).reshape(1, -1)]


def _descriptor_gather(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    desc = args[0]
    assert isinstance(desc, Descriptor)
    shape = _shape(op.results[0].type)
    info = _res(it, op)
    addrs, inside = desc.addresses(_gather_coords(np.asarray(args[1]), int(np.asarray(args[2])), shape[1]))
    return [it.memory.load(addrs, inside, info, np.zeros((), info.dtype)).reshape(shape)]


def _descriptor_scatter(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    desc, src = args[0], np.asarray(args[3])
    assert isinstance(desc, Descriptor)
    addrs, inside = desc.addresses(_gather_coords(np.asarray(args[1]), int(np.asarray(args[2])), src.shape[1]))
    it.memory.store(addrs, src, inside, it.info(op.operands[3].type))
    return []


TT_HANDLERS: Mapping[str, Handler] = {
    "tt.get_program_id": _program_id,
    "tt.get_num_programs": _num_programs,
    "tt.make_range": _make_range,
    "tt.splat": _splat,
    "tt.unsplat": _unsplat,
    "tt.expand_dims": _expand_dims,
    "tt.broadcast": _broadcast,
    "tt.reshape": _reshape,
    "tt.trans": _trans,
    "tt.join": _join,
    "tt.split": _split,
    "tt.cat": _cat,
    "tt.addptr": _addptr,
    "tt.load": _load,
    "tt.store": _store,
    "tt.atomic_rmw": _atomic_rmw,
    "tt.atomic_cas": _atomic_cas,
    "tt.atomic_load": _atomic_load,
    "tt.atomic_store": _atomic_store,
    "tt.int_to_ptr": _int_to_ptr,
    "tt.ptr_to_int": _ptr_to_int,
    "tt.bitcast": _bitcast,
    "tt.reduce": _reduce,
    "tt.scan": _scan,
    "tt.gather": _gather,
    "tt.histogram": _histogram,
    "tt.map_elementwise": _map_elementwise,
    "tt.dot": _tt_dot,
    "tt.clampf": _clampf,
    "tt.precise_sqrt": _elementwise(np.sqrt),
    "tt.precise_divf": _elementwise(np.divide),
    "tt.approx_divf": _elementwise(np.divide),
    "tt.fp_to_fp": _fp_to_fp,
    "tt.mulhiui": _mulhiui,
    "tt.extern_elementwise": _extern_elementwise,
    "tt.call": _call,
    "tt.assert": _assert,
    "tt.print": _nothing,
    "tt.grid_dependency_wait": _nothing,
    "tt.grid_dependency_launch_dependents": _nothing,
    "tt.make_tensor_descriptor": _make_desc,
    "tt.descriptor_load": _descriptor_load,
    "tt.descriptor_store": _descriptor_store,
    "tt.descriptor_reduce": _descriptor_reduce,
    "tt.descriptor_gather": _descriptor_gather,
    "tt.descriptor_scatter": _descriptor_scatter,
}
"""tt op name -> handler."""
