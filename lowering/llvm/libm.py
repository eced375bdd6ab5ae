"""Accurate f32 math functions built from plain instructions (Triton calls libdevice here).

Triton 3.9 lowers ``math.log`` / ``math.log2`` / ``math.erf`` to libdevice (about 1 ulp),
not to the approximate hardware instructions, whose error near ``log(1)`` is absolute
(2^-22), so relative errors there reach 10^-3. These sequences keep Triton's accuracy
with our own derivations, denormal inputs flushed to zero as Triton's libdevice does
(``ftz``):

* **log**: x = 2^e · m with m in [√½, √2), f = m − 1 (exact), s = f / (2 + f), and
  log(1 + f) = 2 atanh(s) = 2s + s·T, T = 2s²/3 + 2s⁴/5 + … (|s| ≤ 0.172: five terms
  leave a relative error below 10^-10). Since f − 2s = s·f, log(1 + f) = f − s·(f − T):
  the exact f plus a correction at most a sixth of it, so an s good to 2 ulp
  (``div.full``) costs at most a third of an ulp.
  log x = e · ln 2 + log(1 + f) with ln 2 split in two floats so that e · ln 2 carries no
  rounding. ``log2`` scales log(1 + f) by 1/ln 2 (split
  likewise; f · (1/ln 2) rounded once) and adds e. Zero and denormals give −inf, negatives NaN, +inf and NaN
  themselves.
* **erf**, of a = |x|, the sign put back at the end: below 1, erf = a + a · P(a²) with
  P ≈ erf(a)/a − 1 (the exact a plus a correction of at most an eighth); from 1 to 3.92,
  erf = 1 − 2^Q(a) with Q ≈ log2(erfc a) (``ex2.approx``); above, 1. P (degree 6) and Q
  (degree 8) are least-squares fits on 4000 Chebyshev nodes of each interval (float64,
  ``math.erf`` / ``math.erfc``), rounded to f32; ``tests/test_libm.py`` bounds the
  result at 1.5 ulp over [0, 4], the ex2.approx error (2^-22.5) included.
* **sin**, **cos**: x = j · π/2 + r, |r| ≤ π/4, reduced in f64 (x is exact there;
  j = x · 2/π rounded to an integer by adding and subtracting 1.5 · 2^52; r = x − j · π/2
  with π/2 in three doubles, by fmas), exact while |x| < 2^51; then sin r = r + r³ · S(r²)
  and cos r = 1 − r²/2 + r⁴ · C(r²) in f32 with the Taylor coefficients (truncation below
  3 · 10^-9 on |r| ≤ π/4) and j mod 4 picking sin or cos and the sign. Beyond 2^51 (where
  f32 numbers are multiples of 2^28) the reduction would need more of π than three
  doubles hold, and ``sin``/``cos.approx`` is used, as the hardware computes it; inf and
  NaN give NaN.
* **powi** (libdevice's ``__nv_powif``: an f32 to an i32 power): pow below of x and n
  converted to f32 (exact up to |n| = 2^24; beyond, the power of the nearest f32), the
  sign of a negative x kept for odd n itself. A constant n takes only the squares and
  products its bits ask, in f64 (0, 1 and 2 in f32), 1 / x^|n| for negative n, rounded
  once to f32: each f64 product adds at most 2^-53 relative error and there are fewer
  than 2 log2|n| + 1 of them, so below |n| = 2^20 the result is the correctly rounded f32
  but within 2^-13 ulp of a tie; x^0 = 1 (NaN, 0 and inf included).
* **pow** (libdevice's ``__nv_powf``): |x|^y = 2^(y · log2|x|) in f64, rounded once to
  f32. log2 in f64 as log above (x = 2^e · m, m in [√½, √2), s = f / (2 + f), eight
  terms of 2 atanh s: truncation below 10^-13); 2^t = 2^n · 2^r with n = t rounded to
  an integer (t clamped to ±300, beyond the f32 range either way) and 2^r, |r| ≤ ½, by
  its Taylor series through r¹¹ (below 10^-14). The errors of t (a few f64 ulps of
  |t| ≤ 300) leave the result within 10^-12 relative, so it is the correctly rounded f32
  but within 10^-5 ulp of a tie. The special cases are C99's: x^0 = 1 and 1^y = 1 (NaN
  included), NaN otherwise propagates; a negative x takes an integer y only (its sign
  for odd y) and gives NaN for another; zeros, infinities and y = ±inf as C99 lists.
* **tanh**, of a = |x|, the sign put back at the end (so tanh(−0) = −0): below 1/2,
  a + a³ · P(a²) with the Taylor coefficients through a¹⁵ (truncation below 10^-8
  relative); from 1/2, 1 − 2 / (e^{2a} + 1) with e^{2a} from ``ex2.approx`` (its 2^-22.5
  error makes at most about 3 ulp here); e^{2a} = inf gives 1, NaN stays NaN.
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import f32, f64
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import SSAValue

from ltc.lowering.llvm.builder import ThreadBuilder

__all__ = [
    "ERF_LARGE", "ERF_SMALL", "ERF_SPLIT", "ERF_ONE", "TANH_SMALL", "TANH_SPLIT",
    "cos_f32", "erf_f32", "log2_f32", "log_f32", "pow_f32", "powi_f32", "sin_f32", "tanh_f32",
]  # fmt: skip


def _f32(x: float) -> float:
    return float(np.float32(x))


_SQRT_HALF_BITS = 0x3F3504F3  # the f32 below √½ … the mantissa range starts here
_LN2_HI = _f32(math.log(2))
_LN2_LO = _f32(math.log(2) - _LN2_HI)
_INV_LN2_HI = _f32(1 / math.log(2))
_INV_LN2_LO = _f32(1 / math.log(2) - _INV_LN2_HI)
_ATANH_TERMS = tuple(_f32(2 / (2 * k + 1)) for k in range(1, 6))
"""2/3, 2/5, …, 2/11: the odd terms of 2 atanh(s) after 2s."""


def _float_bits(b: ThreadBuilder, bits: int) -> SSAValue:
    return b.from_bits(b.i32(bits), f32)


def _fma(b: ThreadBuilder, x: SSAValue, y: SSAValue, z: SSAValue) -> SSAValue:
    return b.intrinsic("llvm.fma.f32", [x, y, z], f32)


def _log_parts(b: ThreadBuilder, x: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue]:
    """(e as f32, f, c) for a positive normal ``x`` = 2^e (1 + f), 1 + f in [√½, √2), and
    log(1 + f) = f + c, c = −s·(f − T) the correction (a sixth of f at most)."""
    ix = b.to_bits(x)
    e = b.binary("ashr", b.binary("sub", ix, b.i32(_SQRT_HALF_BITS)), b.i32(23))
    m = b.from_bits(b.binary("sub", ix, b.binary("shl", e, b.i32(23))), f32)
    f = b.binary("fsub", m, b.const(f32, 1.0))
    # div.full (2 ulp, no slow path) is enough: s only enters through a correction
    s = b.intrinsic("llvm.nvvm.div.full.f", [f, b.binary("fadd", f, b.const(f32, 2.0))], f32)
    s2 = b.binary("fmul", s, s)
    p = b.const(f32, _ATANH_TERMS[-1])
    for c in reversed(_ATANH_TERMS[:-1]):
        p = _fma(b, p, s2, b.const(f32, c))
    t = b.binary("fmul", p, s2)  # T = 2s²/3 + 2s⁴/5 + …
    c = b.binary("fmul", b.fneg(s), b.binary("fsub", f, t))
    return b.cast("sitofp", e, f32), f, c


def _special(b: ThreadBuilder, x: SSAValue, normal: SSAValue) -> SSAValue:
    """``normal`` for positive normal ``x``; −inf for ±0 and denormals, NaN below zero,
    ``x`` itself for +inf and NaN."""
    ix = b.to_bits(x)
    zero_like = b.icmp("eq", b.binary("and", ix, b.i32(0x7F800000)), b.i32(0))
    r = b.select(b.icmp("slt", ix, b.i32(0)), _float_bits(b, 0x7FC00000), normal)
    # +inf and NaN (its payload kept) give themselves
    r = b.select(b.binary("or", b.fcmp("uno", x, x), b.icmp("eq", ix, b.i32(0x7F800000))), x, r)
    return b.select(zero_like, _float_bits(b, 0xFF800000), r)


def log_f32(b: ThreadBuilder, x: SSAValue) -> SSAValue:
    """Natural logarithm of an f32, about 1 ulp (see the module doc)."""
    e, f, c = _log_parts(b, x)
    lo = _fma(b, e, b.const(f32, _LN2_LO), b.binary("fadd", f, c))
    return _special(b, x, _fma(b, e, b.const(f32, _LN2_HI), lo))


def log2_f32(b: ThreadBuilder, x: SSAValue) -> SSAValue:
    """Base-2 logarithm of an f32, about 1 ulp (see the module doc)."""
    e, f, c = _log_parts(b, x)
    # (f + c) / ln 2 with the large product f · (1/ln 2)_hi rounded once, then + e (exact
    # for e = 0, where the result is smallest)
    lo = _fma(b, c, b.const(f32, _INV_LN2_HI), b.binary("fmul", f, b.const(f32, _INV_LN2_LO)))
    return _special(b, x, b.binary("fadd", e, _fma(b, f, b.const(f32, _INV_LN2_HI), lo)))



ERF_SPLIT = 1.0
ERF_ONE = 3.92
"""Where erf(x) rounds to 1 in f32 (erfc(3.92) ≈ 1.6e-8, below half an ulp of 1)."""
ERF_SMALL = (
    0.12837916612625122, -0.3761262893676758, 0.11283625662326813, -0.02685539983212948,
    0.005191218573600054, -0.0008034846396185458, 7.933493907330558e-05,
)
"""P(t), t = a², increasing powers: erf(a) ≈ a + a · P(a²) on [0, 1)."""
ERF_LARGE = (
    0.0004583241534419358, -1.6305724382400513, -0.9115407466888428, -0.15881215035915375,
    0.038122523576021194, -0.0068700965493917465, 0.0008621221059001982,
    -6.662506348220631e-05, 2.3731840883556288e-06,
)
"""Q(a), increasing powers: log2(erfc a) on [1, 3.92]."""


def _horner(b: ThreadBuilder, coefficients: tuple[float, ...], t: SSAValue) -> SSAValue:
    acc = b.const(f32, coefficients[-1])
    for c in reversed(coefficients[:-1]):
        acc = _fma(b, acc, t, b.const(f32, c))
    return acc


def erf_f32(b: ThreadBuilder, x: SSAValue) -> SSAValue:
    """The error function of an f32, about 1.5 ulp (see the module doc)."""
    a = b.intrinsic("llvm.fabs.f32", [x], f32)
    small = _fma(b, a, _horner(b, ERF_SMALL, b.binary("fmul", a, a)), a)
    tail = b.intrinsic("llvm.nvvm.ex2.approx.ftz.f", [_horner(b, ERF_LARGE, a)], f32)
    r = b.select(b.fcmp("olt", a, b.const(f32, ERF_SPLIT)), small, b.binary("fsub", b.const(f32, 1.0), tail))
    r = b.select(b.fcmp("oge", a, b.const(f32, ERF_ONE)), b.const(f32, 1.0), r)  # NaN stays NaN
    sign = b.binary("and", b.to_bits(x), b.i32(-0x80000000))
    return b.from_bits(b.binary("or", b.to_bits(r), sign), f32)


_PIO2 = (1.5707963267948966, 6.123233995736766e-17, -1.4973849048591698e-33)
"""π/2 as a sum of three doubles (each the rounding of what the earlier ones leave)."""
_TWO_OVER_PI = 0.6366197723675814
_ROUND_F64 = 1.5 * 2.0**52
"""Added and subtracted, it rounds a double below 2^51 in magnitude to an integer."""
_REDUCE_LIMIT = 2.0**51
_SIN = tuple(_f32((-1) ** k / math.factorial(2 * k + 1)) for k in range(1, 5))
"""−1/3!, 1/5!, −1/7!, 1/9!: sin r = r + r³ (S₁ + S₂ r² + …)."""
_COS = tuple(_f32((-1) ** k / math.factorial(2 * k)) for k in range(2, 6))
"""1/4!, −1/6!, 1/8!, −1/10!: cos r = 1 − r²/2 + r⁴ (C₂ + C₃ r² + …)."""


def _reduce_quarter_pi(b: ThreadBuilder, x: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue]:
    """(j mod 4 as i32, r as two f32s hi + lo) with x = j · π/2 + r (see the module doc)."""
    d = b.cast("fpext", x, f64)
    big = b.const(f64, _ROUND_F64)
    j = b.binary("fsub", b.binary("fadd", b.binary("fmul", d, b.const(f64, _TWO_OVER_PI)), big), big)
    r = d
    for part in _PIO2:
        r = b.intrinsic("llvm.fma.f64", [b.fneg(j), b.const(f64, part), r], f64)
    quarter = b.binary("fsub", b.binary("fadd", b.binary("fmul", j, b.const(f64, 0.25)), big), big)
    small = b.intrinsic("llvm.fma.f64", [quarter, b.const(f64, -4.0), j], f64)  # in -2 .. 2
    k = b.binary("and", b.cast("fptosi", small, IntegerType(32)), b.i32(3))
    hi = b.cast("fptrunc", r, f32)
    lo = b.cast("fptrunc", b.binary("fsub", r, b.cast("fpext", hi, f64)), f32)
    return k, hi, lo


def _sin_cos_of_reduced(b: ThreadBuilder, r: SSAValue, lo: SSAValue) -> tuple[SSAValue, SSAValue]:
    """sin and cos of r + lo (lo the part of r below an f32 ulp): the exact r, or 1 − r²/2
    (one fma), plus small corrections that take lo in."""
    r2 = b.binary("fmul", r, r)
    sin = b.binary("fadd", r, _fma(b, b.binary("fmul", r, r2), _horner(b, _SIN, r2), lo))
    one_minus = _fma(b, b.binary("fmul", r, b.const(f32, -0.5)), r, b.const(f32, 1.0))
    tail = _fma(b, b.fneg(r), lo, b.binary("fmul", b.binary("fmul", r2, r2), _horner(b, _COS, r2)))
    return sin, b.binary("fadd", one_minus, tail)


def _sin_or_cos(b: ThreadBuilder, x: SSAValue, shift: int, approx: str) -> SSAValue:
    """sin x (``shift`` 0) or cos x = sin(x + π/2) (``shift`` 1)."""
    k, r, lo = _reduce_quarter_pi(b, x)
    sin, cos = _sin_cos_of_reduced(b, r, lo)
    q = b.binary("and", b.binary("add", k, b.i32(shift)), b.i32(3))
    v = b.select(b.icmp("eq", b.binary("and", q, b.i32(1)), b.i32(0)), sin, cos)
    v = b.select(b.icmp("ult", q, b.i32(2)), v, b.fneg(v))
    a = b.intrinsic("llvm.fabs.f32", [x], f32)
    hardware = b.intrinsic(approx, [x], f32)
    v = b.select(b.fcmp("oge", a, b.const(f32, _REDUCE_LIMIT)), hardware, v)
    if shift == 0:  # sin x = x below 2^-12 (x³/6 is under half an ulp): keeps −0
        v = b.select(b.fcmp("olt", a, b.const(f32, 2.0**-12)), x, v)
    return v


def sin_f32(b: ThreadBuilder, x: SSAValue) -> SSAValue:
    """sin of an f32, about 1 ulp below 2^51 (see the module doc)."""
    return _sin_or_cos(b, x, 0, "llvm.nvvm.sin.approx.f")


def cos_f32(b: ThreadBuilder, x: SSAValue) -> SSAValue:
    """cos of an f32, about 1 ulp below 2^51 (see the module doc)."""
    return _sin_or_cos(b, x, 1, "llvm.nvvm.cos.approx.f")


def powi_f32(b: ThreadBuilder, x: SSAValue, n: SSAValue) -> SSAValue:
    """x^n for an f32 ``x`` and an i32 ``n`` (see the module doc)."""
    known = b.int_constant(n)
    if known is not None:
        return _powi_known(b, x, known)
    odd = b.icmp("ne", b.binary("and", n, b.i32(1)), b.i32(0))
    return pow_f32(b, x, b.cast("sitofp", n, f32), odd)


def _powi_known(b: ThreadBuilder, x: SSAValue, n: int) -> SSAValue:
    """``powi_f32`` for a constant n: only the squares and products its bits ask; 0, 1
    and 2 in f32 (x · x is correctly rounded either way)."""
    if n == 0:
        return b.const(f32, 1.0)
    if n == 1:
        return x
    if n == 2:
        return b.binary("fmul", x, x)
    magnitude = abs(n)
    power = b.cast("fpext", x, f64)
    result = None
    while True:
        if magnitude & 1:
            result = power if result is None else b.binary("fmul", result, power)
        magnitude >>= 1
        if not magnitude:
            break
        power = b.binary("fmul", power, power)
    assert result is not None
    if n < 0:
        result = b.binary("fdiv", b.const(f64, 1.0), result)
    return b.cast("fptrunc", result, f32)


TANH_SPLIT = 0.5
TANH_SMALL = tuple(
    _f32(c) for c in (-1 / 3, 2 / 15, -17 / 315, 62 / 2835, -1382 / 155925, 21844 / 6081075, -929569 / 638512875)
)
"""tanh a = a + a³ (P₀ + P₁ a² + …): the Taylor coefficients through a¹⁵."""


def tanh_f32(b: ThreadBuilder, x: SSAValue) -> SSAValue:
    """The hyperbolic tangent of an f32, about 3 ulp (see the module doc)."""
    a = b.intrinsic("llvm.fabs.f32", [x], f32)
    a2 = b.binary("fmul", a, a)
    small = _fma(b, b.binary("fmul", a, a2), _horner(b, TANH_SMALL, a2), a)
    e2a = b.intrinsic("llvm.nvvm.ex2.approx.ftz.f", [b.binary("fmul", a, b.const(f32, 2 / math.log(2)))], f32)
    large = b.binary("fsub", b.const(f32, 1.0), b.binary("fdiv", b.const(f32, 2.0), b.binary("fadd", e2a, b.const(f32, 1.0))))
    r = b.select(b.fcmp("olt", a, b.const(f32, TANH_SPLIT)), small, large)
    sign = b.binary("and", b.to_bits(x), b.i32(-0x80000000))
    return b.from_bits(b.binary("or", b.to_bits(r), sign), f32)


_SQRT_HALF_BITS_F64 = 0x3FE6A09E667F3BCD
_ATANH_TERMS_F64 = tuple(2 / (2 * k + 1) for k in range(1, 9))
"""2/3, 2/5, …, 2/17: 2 atanh(s) = 2s + s·T, T = s² (2/3 + 2/5 s² + …), in f64."""
_EXP2_TERMS_F64 = tuple(math.log(2) ** k / math.factorial(k) for k in range(12))
"""2^r = Σ (r ln 2)^k / k!, k = 0 … 11 (|r| ≤ ½: truncation below 9·10^-15 relative)."""
_POW_CLAMP = 300.0


def _log2_f64(b: ThreadBuilder, a: SSAValue) -> SSAValue:
    """log2 of a positive normal f64 ``a`` (every positive finite f32 is one), about 10^-15."""
    i64t = IntegerType(64)
    ia = b.to_bits(a)
    e = b.binary("ashr", b.binary("sub", ia, b.const(i64t, _SQRT_HALF_BITS_F64)), b.const(i64t, 52))
    m = b.from_bits(b.binary("sub", ia, b.binary("shl", e, b.const(i64t, 52))), f64)
    f = b.binary("fsub", m, b.const(f64, 1.0))
    s = b.binary("fdiv", f, b.binary("fadd", f, b.const(f64, 2.0)))
    s2 = b.binary("fmul", s, s)
    p = b.const(f64, _ATANH_TERMS_F64[-1])
    for c in reversed(_ATANH_TERMS_F64[:-1]):
        p = b.intrinsic("llvm.fma.f64", [p, s2, b.const(f64, c)], f64)
    t = b.binary("fmul", p, s2)
    log1pf = b.binary("fsub", f, b.binary("fmul", s, b.binary("fsub", f, t)))  # f − s·(f − T)
    return b.intrinsic("llvm.fma.f64", [log1pf, b.const(f64, 1 / math.log(2)), b.cast("sitofp", e, f64)], f64)


def _exp2_f64(b: ThreadBuilder, t: SSAValue) -> SSAValue:
    """2^t for an f64 ``t`` clamped to ±``_POW_CLAMP`` (about 10^-15 relative)."""
    i64t = IntegerType(64)
    t = b.intrinsic("llvm.maxnum.f64", [b.intrinsic("llvm.minnum.f64", [t, b.const(f64, _POW_CLAMP)], f64),
                                        b.const(f64, -_POW_CLAMP)], f64)
    big = b.const(f64, _ROUND_F64)
    n = b.binary("fsub", b.binary("fadd", t, big), big)  # t rounded to an integer
    r = b.binary("fsub", t, n)
    p = b.const(f64, _EXP2_TERMS_F64[-1])
    for c in reversed(_EXP2_TERMS_F64[:-1]):
        p = b.intrinsic("llvm.fma.f64", [p, r, b.const(f64, c)], f64)
    biased = b.binary("add", b.cast("fptosi", n, i64t), b.const(i64t, 1023))
    return b.binary("fmul", p, b.from_bits(b.binary("shl", biased, b.const(i64t, 52)), f64))


def pow_f32(b: ThreadBuilder, x: SSAValue, y: SSAValue, odd_integer: SSAValue | None = None) -> SSAValue:
    """x^y for f32 ``x`` and ``y``, correctly rounded but near ties (see the module doc);
    ``odd_integer`` says whether y is an odd integer where the caller knows it better than
    y's f32 value does (an i32 power beyond 2^24)."""
    zero, one = b.const(f32, 0.0), b.const(f32, 1.0)
    inf = b.const(f32, math.inf)
    ax = b.intrinsic("llvm.fabs.f32", [x], f32)
    ay = b.intrinsic("llvm.fabs.f32", [y], f32)
    t = b.binary("fmul", b.cast("fpext", y, f64), _log2_f64(b, b.cast("fpext", ax, f64)))
    r = b.cast("fptrunc", _exp2_f64(b, t), f32)
    # y an integer (finite), odd when below 2^24 with its low bit set
    y_int = b.binary("and", b.fcmp("oeq", b.intrinsic("llvm.floor.f32", [y], f32), y), b.fcmp("olt", ay, inf))
    small = b.fcmp("olt", ay, b.const(f32, 2.0**24))
    low_bit = b.binary("and", b.cast("fptosi", b.select(small, y, zero), IntegerType(32)), b.i32(1))
    odd = b.binary("and", b.binary("and", y_int, small), b.icmp("ne", low_bit, b.i32(0)))
    if odd_integer is not None:
        odd = odd_integer
    negative_x = b.fcmp("olt", x, zero)
    r = b.select(negative_x, b.select(y_int, b.select(odd, b.fneg(r), r), b.const(f32, math.nan)), r)
    y_negative = b.fcmp("olt", y, zero)
    flip = b.binary("and", odd, b.icmp("slt", b.to_bits(x), b.i32(0)))  # sign of a zero or inf x survives odd y
    at_zero = b.select(y_negative, inf, zero)
    r = b.select(b.fcmp("oeq", ax, zero), b.select(flip, b.fneg(at_zero), at_zero), r)
    at_inf = b.select(y_negative, zero, inf)
    r = b.select(b.fcmp("oeq", ax, inf), b.select(flip, b.fneg(at_inf), at_inf), r)
    below_one = b.fcmp("olt", ax, one)
    toward = b.select(b.binary("xor", below_one, y_negative), zero, inf)
    r = b.select(b.fcmp("oeq", ay, inf), b.select(b.fcmp("oeq", ax, one), one, toward), r)
    r = b.select(b.fcmp("uno", x, y), b.const(f32, math.nan), r)
    r = b.select(b.fcmp("oeq", y, zero), one, r)
    return b.select(b.fcmp("oeq", x, one), one, r)
