"""Interpreter handlers for ``arith`` and ``math``: elementwise numpy on whole tensors.

Integers are signless: ops compute on the sign-extended int64 value (signed ops) or the
zero-extended N-bit pattern (unsigned ops) and wrap to N bits. Division by zero and
out-of-range shifts are undefined in LLVM; here they give 0 (``shrsi``: the sign fill).
Float arithmetic is IEEE in the value dtype (reduced formats: float32 then rounded);
transcendental ``math`` functions (and ``math.fma``) are computed in float64 and rounded
once, so their result does not depend on which numpy loop ran. Integer-to-float casts go
through float64 (exact up to 2^53; wider i64 values round twice).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Operation

from ltc.passes.interpret_types import TypeInfo, fit, from_memory, to_memory

if TYPE_CHECKING:
    from ltc.passes.interpret_state import Handler, Interpreter, Value

__all__ = ["ARITH_HANDLERS", "bitcast", "signed", "unsigned"]


def _res(it: Interpreter, op: Operation, i: int = 0) -> TypeInfo:
    return it.info(op.results[i].type)


def signed(a: np.ndarray) -> np.ndarray:
    """An integer value as int64, sign-extended (i1: true is -1, as ``arith.extsi`` says)."""
    a = np.asarray(a)
    return -a.astype(np.int64) if a.dtype == np.bool_ else a.astype(np.int64)


def unsigned(a: np.ndarray, width: int) -> np.ndarray:
    """The N-bit pattern of an integer value, zero-extended (uint64)."""
    u = np.asarray(a).astype(np.int64).view(np.uint64)
    return u if width >= 64 else u & np.uint64((1 << width) - 1)


def bitcast(a: np.ndarray, src: TypeInfo, dst: TypeInfo) -> np.ndarray:
    """Reinterpret the bits of ``a`` (type ``src``) as type ``dst`` of the same width."""
    bits = to_memory(np.asarray(a), src)
    if src.width != dst.width or bits.dtype.itemsize != dst.mem_dtype.itemsize:
        raise ValueError(f"bitcast between types of different widths ({src.width} and {dst.width} bits)")
    return from_memory(np.ascontiguousarray(bits).view(dst.mem_dtype), dst)


# ----------------------------------------------------------------------------------------
# Handler builders
# ----------------------------------------------------------------------------------------


def _float(fn: Callable[..., np.ndarray]) -> Handler:
    """Elementwise float op computed in the operands' dtype, then fit to the result."""

    def handler(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
        return [fit(fn(*args), _res(it, op))]

    return handler


def _float64(fn: Callable[..., np.ndarray]) -> Handler:
    """Elementwise float function computed in float64, then rounded to the result."""

    def handler(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
        return [fit(fn(*(np.asarray(a, dtype=np.float64) for a in args)), _res(it, op))]

    return handler


def _sint(fn: Callable[..., np.ndarray]) -> Handler:
    """Elementwise integer op on sign-extended int64 values, wrapped to the result width."""

    def handler(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
        return [fit(fn(*(signed(a) for a in args)), _res(it, op))]

    return handler


def _uint(fn: Callable[..., np.ndarray]) -> Handler:
    """Elementwise integer op on zero-extended N-bit patterns, wrapped to the result width."""

    def handler(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
        width = it.info(op.operands[0].type).width
        out = fn(*(unsigned(a, width) for a in args), width)
        return [fit(np.asarray(out).astype(np.uint64).view(np.int64), _res(it, op))]

    return handler


def _nonzero(b: np.ndarray) -> np.ndarray:
    return np.where(b == 0, 1, b)


def _divsi(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    q = np.abs(a) // np.abs(_nonzero(b))
    return np.where(b == 0, 0, np.where((a < 0) != (b < 0), -q, q))


def _remsi(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.where(b == 0, 0, a - _divsi(a, b) * b)


def _floordivsi(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.where(b == 0, 0, a // _nonzero(b))


def _ceildivsi(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.where(b == 0, 0, -((-a) // _nonzero(b)))


def _shli(a: np.ndarray, b: np.ndarray, width: int) -> np.ndarray:
    return np.where(b >= width, np.uint64(0), a << np.minimum(b, np.uint64(63)))


def _shrui(a: np.ndarray, b: np.ndarray, width: int) -> np.ndarray:
    return np.where(b >= width, np.uint64(0), a >> np.minimum(b, np.uint64(63)))


def _shrsi(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    width = it.info(op.operands[0].type).width
    a, b = signed(args[0]), unsigned(args[1], width)
    amount = np.minimum(b, np.uint64(63)).astype(np.int64)
    return [fit(np.where(b >= width, a >> 63, a >> amount), _res(it, op))]


_CMPI: dict[int, tuple[bool, Callable[[np.ndarray, np.ndarray], np.ndarray]]] = {
    0: (False, np.equal),
    1: (False, np.not_equal),
    2: (False, np.less),
    3: (False, np.less_equal),
    4: (False, np.greater),
    5: (False, np.greater_equal),
    6: (True, np.less),
    7: (True, np.less_equal),
    8: (True, np.greater),
    9: (True, np.greater_equal),
}
"""arith.cmpi predicate -> (unsigned?, comparison)."""


def _cmpi(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    is_unsigned, cmp = _CMPI[op.predicate.value.data]  # type: ignore[attr-defined]
    width = it.info(op.operands[0].type).width
    a, b = (unsigned(x, width) for x in args) if is_unsigned else (signed(x) for x in args)
    return [np.asarray(cmp(a, b))]


def _cmpf(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    a, b = (np.asarray(x) for x in args)
    unordered = np.isnan(a) | np.isnan(b)
    pred = op.predicate.value.data  # type: ignore[attr-defined]
    base = {
        1: np.equal, 2: np.greater, 3: np.greater_equal, 4: np.less, 5: np.less_equal, 6: np.not_equal,
        8: np.equal, 9: np.greater, 10: np.greater_equal, 11: np.less, 12: np.less_equal, 13: np.not_equal,
    }  # fmt: skip
    if pred == 0:
        out = np.zeros(np.broadcast_shapes(a.shape, b.shape), dtype=bool)
    elif pred == 15:
        out = np.ones(np.broadcast_shapes(a.shape, b.shape), dtype=bool)
    elif pred == 7:
        out = ~unordered
    elif pred == 14:
        out = unordered
    elif pred <= 6:
        out = base[pred](a, b) & ~unordered
    else:
        out = base[pred](a, b) | unordered
    return [np.asarray(out)]


def _select(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    cond, a, b = args
    return [np.where(np.asarray(cond), a, b).astype(_res(it, op).dtype, copy=False)]


def constant_value(attr: object, result_type: object, info: TypeInfo) -> np.ndarray:
    """The numpy value of an ``arith.constant`` attribute."""
    if isinstance(attr, IntegerAttr):
        return fit(np.asarray(attr.value.data, dtype=np.int64), info)
    if isinstance(attr, FloatAttr):
        return fit(np.asarray(attr.value.data, dtype=np.float64), info)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        shape = tuple(result_type.get_shape()) if isinstance(result_type, TensorType) else ()
        raw = attr.data.data
        size = attr.get_element_type().compile_time_size
        if info.kind == "float":
            bits = np.frombuffer(raw, dtype=info.mem_dtype.newbyteorder("<"))
            flat = from_memory(bits.astype(info.mem_dtype), info)
        else:
            flat = fit(np.frombuffer(raw, dtype=np.dtype(f"<i{size}")).astype(np.int64), info)
        if flat.size == 1 and math.prod(shape) != 1:
            return np.broadcast_to(flat.reshape(()), shape)
        return flat.reshape(shape)
    raise ValueError(f"unsupported constant attribute {attr}")


def _constant(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    info = _res(it, op)
    return [it.memo(op, lambda: constant_value(op.value, op.results[0].type, info))]  # type: ignore[attr-defined]


def _cast_signed(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [fit(signed(args[0]), _res(it, op))]


def _cast_unsigned(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    width = it.info(op.operands[0].type).width
    return [fit(unsigned(args[0], width).view(np.int64), _res(it, op))]


def _to_float(is_unsigned: bool) -> Handler:
    def handler(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
        width = it.info(op.operands[0].type).width
        x = unsigned(args[0], width) if is_unsigned else signed(args[0])
        return [fit(x.astype(np.float64), _res(it, op))]

    return handler


def _to_int(is_unsigned: bool) -> Handler:
    def handler(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
        x = np.trunc(np.asarray(args[0], dtype=np.float64))
        width = _res(it, op).width
        low, high = (0.0, 2.0**width) if is_unsigned else (-(2.0 ** (width - 1)), 2.0 ** (width - 1))
        outside = int(np.count_nonzero(~((x >= low) & (x < high))))  # NaN too
        if outside:
            it.poison[op.name] += outside
        x = np.where(np.isfinite(x), x, 0.0)
        if is_unsigned:
            big = np.clip(x, 0, 2.0**64 - 2048).astype(np.uint64).view(np.int64)
        else:
            big = np.clip(x, -(2.0**63), 2.0**63 - 1024).astype(np.int64)
        return [fit(big, _res(it, op))]

    return handler


def _truncf(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [fit(args[0], _res(it, op))]


def _bitcast(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return [bitcast(args[0], it.info(op.operands[0].type), _res(it, op))]


def _extended(kind: str) -> Handler:
    """``mulsi_extended`` / ``mului_extended`` / ``addui_extended``: exact Python-int
    arithmetic, split into the low N bits and the high N bits (or the carry)."""

    def handler(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
        width = it.info(op.operands[0].type).width
        if kind == "mulsi":
            a, b = (signed(x).astype(object) for x in args)
        else:
            a, b = (unsigned(x, width).astype(object) for x in args)
        full = a * b if kind != "addui" else a + b
        mask = (1 << width) - 1
        low = np.vectorize(lambda v: v & mask, otypes=[object])(full)
        high = np.vectorize(lambda v: (v >> width) & mask, otypes=[object])(full)
        low_v = fit(np.asarray(low.astype(np.uint64)).view(np.int64), _res(it, op, 0))
        if kind == "addui":
            return [low_v, np.asarray(high != 0).astype(np.bool_)]
        return [low_v, fit(np.asarray(high.astype(np.uint64)).view(np.int64), _res(it, op, 1))]

    return handler


# ----------------------------------------------------------------------------------------
# math
# ----------------------------------------------------------------------------------------


def _round_half_away(x: np.ndarray) -> np.ndarray:
    return np.copysign(np.floor(np.abs(x) + 0.5), x)


_erf = np.vectorize(math.erf, otypes=[np.float64])


def _fpowi(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    x, n = args
    return [fit(np.power(np.asarray(x, dtype=np.float64), signed(n).astype(np.float64)), _res(it, op))]


def _ipowi(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    base, exp = (signed(a) for a in args)
    result = np.ones(np.broadcast_shapes(base.shape, exp.shape), dtype=np.int64)
    b = np.broadcast_to(base, result.shape).copy()
    e = np.broadcast_to(exp, result.shape).copy()
    while (e > 0).any():  # square and multiply, wrapping in int64
        result = np.where(e & 1, result * b, result)
        b = b * b
        e = np.where(e > 0, e >> 1, 0)
    return [fit(np.where(exp < 0, 0, result), _res(it, op))]


def _bit_count(kind: str) -> Handler:
    def handler(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
        width = it.info(op.operands[0].type).width
        u = unsigned(args[0], width)
        out = np.zeros(u.shape, dtype=np.int64)
        if kind == "ctpop":
            for i in range(width):
                out += ((u >> np.uint64(i)) & np.uint64(1)).astype(np.int64)
        else:
            bits = range(width - 1, -1, -1) if kind == "ctlz" else range(width)
            done = np.zeros(u.shape, dtype=bool)
            for i in bits:
                hit = ((u >> np.uint64(i)) & np.uint64(1)).astype(bool)
                done |= hit
                out += ~done
        return [fit(out, _res(it, op))]

    return handler


ARITH_HANDLERS: Mapping[str, Handler] = {
    "arith.constant": _constant,
    "arith.addf": _float(np.add),
    "arith.subf": _float(np.subtract),
    "arith.mulf": _float(np.multiply),
    "arith.divf": _float(np.divide),
    "arith.remf": _float(np.fmod),
    "arith.negf": _float(np.negative),
    "arith.maximumf": _float(np.maximum),
    "arith.minimumf": _float(np.minimum),
    "arith.maxnumf": _float(np.fmax),
    "arith.minnumf": _float(np.fmin),
    "arith.addi": _sint(np.add),
    "arith.subi": _sint(np.subtract),
    "arith.muli": _sint(np.multiply),
    "arith.divsi": _sint(_divsi),
    "arith.remsi": _sint(_remsi),
    "arith.floordivsi": _sint(_floordivsi),
    "arith.ceildivsi": _sint(_ceildivsi),
    "arith.divui": _uint(lambda a, b, w: np.where(b == 0, np.uint64(0), a // _nonzero(b))),
    "arith.remui": _uint(lambda a, b, w: np.where(b == 0, np.uint64(0), a % _nonzero(b))),
    "arith.ceildivui": _uint(lambda a, b, w: np.where(b == 0, np.uint64(0), (a + _nonzero(b) - np.uint64(1)) // _nonzero(b))),
    "arith.andi": _sint(np.bitwise_and),
    "arith.ori": _sint(np.bitwise_or),
    "arith.xori": _sint(np.bitwise_xor),
    "arith.shli": _uint(_shli),
    "arith.shrui": _uint(_shrui),
    "arith.shrsi": _shrsi,
    "arith.maxsi": _sint(np.maximum),
    "arith.minsi": _sint(np.minimum),
    "arith.maxui": _uint(lambda a, b, w: np.maximum(a, b)),
    "arith.minui": _uint(lambda a, b, w: np.minimum(a, b)),
    "arith.cmpi": _cmpi,
    "arith.cmpf": _cmpf,
    "arith.select": _select,
    "arith.extsi": _cast_signed,
    "arith.trunci": _cast_signed,
    "arith.index_cast": _cast_signed,
    "arith.extui": _cast_unsigned,
    "arith.index_castui": _cast_unsigned,
    "arith.extf": _truncf,
    "arith.truncf": _truncf,
    "arith.sitofp": _to_float(False),
    "arith.uitofp": _to_float(True),
    "arith.fptosi": _to_int(False),
    "arith.fptoui": _to_int(True),
    "arith.bitcast": _bitcast,
    "arith.mulsi_extended": _extended("mulsi"),
    "arith.mului_extended": _extended("mului"),
    "arith.addui_extended": _extended("addui"),
    # math
    "math.absf": _float(np.abs),
    "math.absi": _sint(np.abs),
    "math.ceil": _float(np.ceil),
    "math.floor": _float(np.floor),
    "math.trunc": _float(np.trunc),
    "math.round": _float(_round_half_away),
    "math.roundeven": _float(np.rint),
    "math.copysign": _float(np.copysign),
    "math.sqrt": _float(np.sqrt),
    "math.rsqrt": _float64(lambda x: 1.0 / np.sqrt(x)),
    "math.exp": _float64(np.exp),
    "math.exp2": _float64(np.exp2),
    "math.expm1": _float64(np.expm1),
    "math.log": _float64(np.log),
    "math.log2": _float64(np.log2),
    "math.log10": _float64(np.log10),
    "math.log1p": _float64(np.log1p),
    "math.sin": _float64(np.sin),
    "math.cos": _float64(np.cos),
    "math.tan": _float64(np.tan),
    "math.sinh": _float64(np.sinh),
    "math.cosh": _float64(np.cosh),
    "math.tanh": _float64(np.tanh),
    "math.asin": _float64(np.arcsin),
    "math.acos": _float64(np.arccos),
    "math.atan": _float64(np.arctan),
    "math.asinh": _float64(np.arcsinh),
    "math.acosh": _float64(np.arccosh),
    "math.atanh": _float64(np.arctanh),
    "math.atan2": _float64(np.arctan2),
    "math.cbrt": _float64(np.cbrt),
    "math.erf": _float64(_erf),
    "math.powf": _float64(np.power),
    "math.fma": _float64(lambda a, b, c: a * b + c),
    "math.fpowi": _fpowi,
    "math.ipowi": _ipowi,
    "math.ctlz": _bit_count("ctlz"),
    "math.cttz": _bit_count("cttz"),
    "math.ctpop": _bit_count("ctpop"),
}
"""arith / math op name -> handler."""
