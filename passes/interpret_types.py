"""How the interpreter holds values of each MLIR element type in numpy, and in memory.

Every element type has a *value* dtype (what tensors and scalars hold while the kernel
runs) and a *memory* dtype (the bits stored at a pointer):

=================  ===============================  ==============================
type               value                            memory
=================  ===============================  ==============================
i1                 bool                             int8 (0 / 1), as Triton stores
iN (N <= 64)       smallest of int8/16/32/64,       the same
                   sign-extended from N bits
index, !tt.ptr     int64 (pointers: byte address)   int64
f16 / f32 / f64    float16 / float32 / float64      the same
bf16, tf32,        float32 rounded to the format    bf16: uint16 bits; tf32:
f8*, f6*, f4*      (round to nearest even)          float32; f8/f6/f4: uint8 bits
=================  ===============================  ==============================

``fit(x, t)`` brings any numpy result into the value representation of ``t``: integers
wrap modulo 2^N, floats round to the format. Arithmetic on a reduced format is done in
float32 and rounded once more (double rounding, as hardware that computes bf16/fp8 math
in f32 does). Rounding a value that overflows a reduced format follows the format: inf
where it has one, NaN for the ``FN``/``FNUZ`` formats (LLVM's APFloat conversion), the
largest finite value for the finite-only ones, and for round-toward-zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatNonfiniteBehavior,
    IndexType,
    IntegerType,
    ReducedPrecisionFloatType,
)
from xdsl.ir import Attribute

from ltc.dialects.tt import PtrType

__all__ = [
    "FloatFormat",
    "TypeInfo",
    "element_type",
    "fit",
    "from_memory",
    "round_float",
    "to_memory",
    "type_info",
]

Rounding = Literal["rtne", "rtz"]


@dataclass(frozen=True)
class FloatFormat:
    """A binary float format as far as rounding needs it.

    ``man_bits`` explicit mantissa bits; ``min_exp`` the exponent of the smallest normal
    number (subnormals below it share its quantum); ``max_finite`` the largest finite
    magnitude; ``overflow``: what a too-large magnitude becomes (``inf``, ``nan`` or
    ``max``); ``table``: the value of every bit pattern (formats of at most 8 bits).
    """

    man_bits: int
    min_exp: int
    max_finite: float
    overflow: Literal["inf", "nan", "max"]
    table: tuple[float, ...] | None = None


@dataclass(frozen=True)
class TypeInfo:
    """What the interpreter needs to know about one element type.

    ``kind``: ``int`` (iN and index), ``float`` or ``ptr``; ``width`` the bit width;
    ``dtype`` the value dtype; ``mem_dtype`` the memory dtype; ``fmt`` the rounding
    format of floats that numpy has no dtype for (None for f16/f32/f64).
    """

    kind: Literal["int", "float", "ptr"]
    width: int
    dtype: np.dtype
    mem_dtype: np.dtype
    fmt: FloatFormat | None = None

    @property
    def itemsize(self) -> int:
        """Bytes one element takes in memory."""
        return self.mem_dtype.itemsize


_BF16 = FloatFormat(7, -126, float.fromhex("0x1.fe00000p+127"), "inf")
_INT_DTYPES = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}


def _reduced_format(t: ReducedPrecisionFloatType) -> FloatFormat:
    sem = t.SEMANTICS
    table = None
    if sem.bitwidth <= 8:
        table = tuple(t.decode_bits(bits) for bits in range(1 << sem.bitwidth))
        max_finite = max(abs(v) for v in table if np.isfinite(v))
    else:  # tf32: IEEE-like, the largest exponent field is inf / NaN
        max_finite = (2.0 - 2.0 ** -sem.mantissa_bits) * 2.0 ** (sem.max_exponent - 1 - sem.exponent_bias)
    overflow: Literal["inf", "nan", "max"] = {
        FloatNonfiniteBehavior.IEEE: "inf",
        FloatNonfiniteBehavior.NAN_ONLY: "nan",
        FloatNonfiniteBehavior.FINITE_ONLY: "max",
    }[sem.nonfinite]
    min_exp = 1 - sem.exponent_bias if sem.has_zero else -sem.exponent_bias
    return FloatFormat(sem.mantissa_bits, min_exp, max_finite, overflow, table)


def element_type(t: Attribute) -> Attribute:
    """The element type of a tensor / memdesc / descriptor type, or ``t`` itself."""
    elem = getattr(t, "element_type", None)
    return elem if elem is not None else t


def type_info(t: Attribute) -> TypeInfo:
    """The ``TypeInfo`` of an element type (a shaped type: of its element type)."""
    t = element_type(t)
    if isinstance(t, PtrType):
        return TypeInfo("ptr", 64, np.dtype(np.int64), np.dtype(np.int64))
    if isinstance(t, IndexType):
        return TypeInfo("int", 64, np.dtype(np.int64), np.dtype(np.int64))
    if isinstance(t, IntegerType):
        width = t.width.data
        if width == 1:
            return TypeInfo("int", 1, np.dtype(np.bool_), np.dtype(np.int8))
        if width > 64:
            raise TypeError(f"integers wider than 64 bits are not supported: i{width}")
        dtype = np.dtype(next(d for w, d in _INT_DTYPES.items() if w >= width))
        return TypeInfo("int", width, dtype, dtype)
    if isinstance(t, Float16Type):
        return TypeInfo("float", 16, np.dtype(np.float16), np.dtype(np.float16))
    if isinstance(t, Float32Type):
        return TypeInfo("float", 32, np.dtype(np.float32), np.dtype(np.float32))
    if isinstance(t, Float64Type):
        return TypeInfo("float", 64, np.dtype(np.float64), np.dtype(np.float64))
    if isinstance(t, BFloat16Type):
        return TypeInfo("float", 16, np.dtype(np.float32), np.dtype(np.uint16), _BF16)
    if isinstance(t, ReducedPrecisionFloatType):
        fmt = _reduced_format(t)
        mem = np.dtype(np.uint8) if fmt.table is not None else np.dtype(np.float32)
        return TypeInfo("float", t.SEMANTICS.bitwidth, np.dtype(np.float32), mem, fmt)
    raise TypeError(f"no numpy representation for element type {t}")


def round_float(x: np.ndarray, fmt: FloatFormat, mode: Rounding = "rtne") -> np.ndarray:
    """``x`` rounded to ``fmt`` (as float64): nearest-even or toward zero, with subnormals
    and the format's overflow behaviour."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        mag = np.abs(x)
        _, exp = np.frexp(mag)  # mag = m * 2**exp, m in [0.5, 1): leading bit at exp - 1
        quantum_exp = np.maximum(exp - 1, fmt.min_exp) - fmt.man_bits
        scaled = np.ldexp(mag, -quantum_exp)
        scaled = np.rint(scaled) if mode == "rtne" else np.trunc(scaled)
        out = np.ldexp(scaled, quantum_exp)
        inf_value = {"inf": np.inf, "nan": np.nan, "max": fmt.max_finite}[fmt.overflow]
        big_value = fmt.max_finite if mode == "rtz" else inf_value
        out = np.where(out > fmt.max_finite, big_value, out)
        out = np.where(np.isinf(mag), inf_value, out)
        out = np.where(np.isnan(mag), np.nan, out)
        return np.copysign(out, x)


def fit(x: object, info: TypeInfo, mode: Rounding = "rtne") -> np.ndarray:
    """``x`` in the value representation of ``info``'s type (wrapped, rounded)."""
    a = np.asarray(x)
    if info.kind == "float":
        if info.fmt is None:
            if mode == "rtz" and a.dtype.kind == "f" and a.dtype.itemsize > info.dtype.itemsize:
                return _round_native_rtz(a, info.dtype)
            return a.astype(info.dtype, copy=False)
        return round_float(a, info.fmt, mode).astype(np.float32)
    if a.dtype.kind == "f":
        raise TypeError("float value given where an integer is expected")
    if info.width == 1:
        return a if a.dtype == np.bool_ else (a.astype(np.int64) & 1).astype(np.bool_)
    if info.width in _INT_DTYPES:
        return a.astype(info.dtype, copy=False)  # numpy integer casts wrap modulo 2^N
    shift = 64 - info.width
    wide = a.astype(np.int64)
    return ((wide << shift) >> shift).astype(info.dtype)  # sign-extend the low N bits


def _round_native_rtz(a: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``a`` cast to the narrower IEEE ``dtype`` rounding toward zero."""
    finfo = np.finfo(dtype)
    fmt = FloatFormat(finfo.nmant, int(finfo.minexp), float(finfo.max), "inf")
    return round_float(a, fmt, "rtz").astype(dtype)


def to_memory(value: np.ndarray, info: TypeInfo) -> np.ndarray:
    """The memory bits of values already in ``info``'s value representation."""
    v = np.asarray(value)
    if info.mem_dtype == info.dtype:
        return v
    if info.width == 1:
        return v.astype(np.int8)
    fmt = info.fmt
    assert fmt is not None
    if info.mem_dtype == np.uint16:  # bf16: the high half of the f32 bits
        return (v.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    if fmt.table is None:
        return v.astype(info.mem_dtype)
    return _encode_table(v, fmt.table)


def from_memory(bits: np.ndarray, info: TypeInfo) -> np.ndarray:
    """Values (value representation) of memory bits of ``info``'s type."""
    b = np.asarray(bits)
    if info.mem_dtype == info.dtype:
        return b
    if info.width == 1:
        return b != 0
    fmt = info.fmt
    assert fmt is not None
    if info.mem_dtype == np.uint16:
        return (b.astype(np.uint32) << 16).view(np.float32)
    if fmt.table is None:
        return b.astype(np.float32)
    return np.asarray(fmt.table, dtype=np.float32)[b.astype(np.intp)]


def _encode_table(v: np.ndarray, table: tuple[float, ...]) -> np.ndarray:
    """Bit patterns of values ``v`` that are representable in a small format (as after
    ``fit``): the lowest pattern of each magnitude, with the sign bit where the format
    has the negative value (FNUZ formats have no -0: it becomes +0)."""
    values = np.asarray(table, dtype=np.float64)
    x = np.asarray(v, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        nonneg = np.flatnonzero(np.isfinite(values) & ~np.signbit(values))
        order = nonneg[np.argsort(values[nonneg], kind="stable")]
        mags, first = np.unique(values[order], return_index=True)
        codes = order[first]
        out = codes[np.clip(np.searchsorted(mags, np.abs(x)), 0, len(mags) - 1)]
        signed = out | (len(values) >> 1)
        use_sign = np.signbit(x) & (values[signed] == -values[out]) & np.signbit(values[signed])
        out = np.where(use_sign, signed, out)
        for special, hit in ((np.nan, np.isnan(x)), (np.inf, np.isposinf(x)), (-np.inf, np.isneginf(x))):
            if hit.any():
                found = np.flatnonzero(np.isnan(values) if np.isnan(special) else values == special)
                if not len(found):
                    raise ValueError(f"{special} has no encoding in this format")
                out = np.where(hit, found[0], out)
    return out.astype(np.uint8)
