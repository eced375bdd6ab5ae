"""Exact float rounding on numpy arrays: what makes the simulator's float results bit-exact.

A result is computed in float64, exactly or as the round-to-odd of the exact
value (which can be rounded once more without double-rounding error), then
rounded once to its format by :func:`round_f64` in any PTX mode (``.rn``,
``.rz``, ``.rm``, ``.rp``). Also: flush-to-zero and saturation, a correctly
rounded float64 fma with exact rationals, and the fp8 (e4m3 / e5m2) code
tables and encoder.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ltc.lowering.ptxsim.errors import Fault
from ltc.lowering.ptxsim.values import bf16_bits_to_f32, bf16_round, f32_to_bf16_bits


def two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, np.where(np.isfinite(s), e, 0.0)


def round_to_odd64(s: np.ndarray, e: np.ndarray) -> np.ndarray:
    """float64 round-to-odd of the exact value ``s + e`` (``|e| <= ulp(s) / 2``)."""
    s = np.asarray(s, dtype=np.float64)
    inexact = (e != 0) & np.isfinite(s)
    if not inexact.any():
        return s
    even = (np.ascontiguousarray(s).view(np.uint64) & np.uint64(1)) == 0
    nb = np.nextafter(s, np.where(e > 0, np.inf, -np.inf))
    return np.where(inexact & even, nb, s)


def _odd32(x: np.ndarray) -> np.ndarray:
    """float64 -> float32 with round-to-odd (keeps enough to round again exactly)."""
    x = np.asarray(x, dtype=np.float64)
    r = x.astype(np.float32)
    r64 = r.astype(np.float64)
    inexact = (r64 != x) & ~np.isnan(x) & ~np.isinf(x)
    if not inexact.any():
        return r
    over = np.abs(r64) > np.abs(x)
    t = np.where(over, np.nextafter(r, np.float32(0)), r)
    tb = np.ascontiguousarray(t).view(np.uint32) | np.uint32(1)
    return np.where(inexact, tb.view(np.float32), r)


def _bf16_next(v32: np.ndarray, up: np.ndarray) -> np.ndarray:
    """The bfloat16 neighbour of bf16 values ``v32`` toward +inf (``up``) or -inf."""
    b = f32_to_bf16_bits(v32).astype(np.int32)
    key = np.where(b & 0x8000, -(b & 0x7FFF), b)
    key = key + np.where(up, 1, -1)
    nb = np.where(key < 0, (-key) | 0x8000, key).astype(np.uint16)
    return bf16_bits_to_f32(nb)


def round_f64(x: np.ndarray, target: str, mode: str = "rn") -> np.ndarray:
    """Round float64 ``x`` (exact, or round-to-odd of the exact value) to ``target``.

    Returns the compute representation (bf16 as float32 values).
    """
    x = np.asarray(x, dtype=np.float64)
    if target == "f64":
        return x
    if target == "f32":
        r = x.astype(np.float32)
    elif target == "f16":
        r = _odd32(x).astype(np.float16)
    elif target == "bf16":
        r = bf16_round(_odd32(x))
    else:  # pragma: no cover
        raise AssertionError(target)
    if mode == "rn":
        return r
    r64 = r.astype(np.float64)
    if mode == "rz":
        fix = np.abs(r64) > np.abs(x)
        up = r64 < 0
    elif mode == "rm":
        fix = r64 > x
        up = np.zeros(x.shape, bool)
    elif mode == "rp":
        fix = r64 < x
        up = np.ones(x.shape, bool)
    else:
        raise Fault(f"rounding mode .{mode} is not supported here")
    if not fix.any():
        return r
    if target == "bf16":
        return np.where(fix, _bf16_next(r, up), r)
    toward = np.where(up, np.inf, -np.inf).astype(r.dtype)
    return np.where(fix, np.nextafter(r, toward), r)


def round_pair_f64(s: np.ndarray, e: np.ndarray, mode: str) -> np.ndarray:
    """float64 rounding of the exact ``s + e`` where ``s`` is its nearest-even float64."""
    if mode == "rn":
        return s
    if mode == "rz":
        fix = (e != 0) & (np.sign(e) != np.sign(s))
        return np.where(fix, np.nextafter(s, 0.0), s)
    if mode == "rm":
        return np.where(e < 0, np.nextafter(s, -np.inf), s)
    return np.where(e > 0, np.nextafter(s, np.inf), s)


def flush_to_zero(v: np.ndarray, tiny: float) -> np.ndarray:
    return np.where(np.abs(v) < tiny, np.copysign(np.zeros((), v.dtype), v), v)


def smallest_normal(target: str) -> float:
    return {"f16": 2.0**-14, "bf16": 2.0**-126, "f32": 2.0**-126, "f64": 2.0**-1022}[target]


def saturate(v: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(v), np.zeros((), v.dtype), np.clip(v, 0, 1)).astype(v.dtype, copy=False)


def fma_exact_f64(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Correctly rounded float64 fma, element by element with exact rationals."""
    out = np.empty(np.broadcast(a, b, c).shape, np.float64)
    fa, fb, fc = np.broadcast_arrays(a, b, c)
    for i in np.ndindex(out.shape):
        x, y, z = float(fa[i]), float(fb[i]), float(fc[i])
        if all(np.isfinite((x, y, z))):
            exact = Fraction(x) * Fraction(y) + Fraction(z)
            if exact == 0:
                out[i] = x * y + z  # the sign of an exact zero follows IEEE
            else:
                try:
                    out[i] = float(exact)
                except OverflowError:
                    out[i] = np.inf if exact > 0 else -np.inf
        else:
            out[i] = x * y + z
    return out


# ---------------------------------------------------------------- fp8
def _fp8_values(fmt: str) -> np.ndarray:
    """float64 value of each of the 256 codes of e4m3 (fn) or e5m2."""
    vals = np.empty(256, np.float64)
    for code in range(256):
        s = -1.0 if code & 0x80 else 1.0
        if fmt == "e4m3":
            e, m = (code >> 3) & 15, code & 7
            if e == 15 and m == 7:
                vals[code] = np.nan
            elif e == 0:
                vals[code] = s * m / 8 * 2.0**-6
            else:
                vals[code] = s * (1 + m / 8) * 2.0 ** (e - 7)
        else:
            e, m = (code >> 2) & 31, code & 3
            if e == 31:
                vals[code] = s * np.inf if m == 0 else np.nan
            elif e == 0:
                vals[code] = s * m / 4 * 2.0**-14
            else:
                vals[code] = s * (1 + m / 4) * 2.0 ** (e - 15)
    return vals


FP8_VALUES = {"e4m3": _fp8_values("e4m3"), "e5m2": _fp8_values("e5m2")}
_FP8_MAX_CODE = {"e4m3": 0x7E, "e5m2": 0x7B}
_FP8_NAN = {"e4m3": 0x7F, "e5m2": 0x7F}


def encode_fp8(x: np.ndarray, fmt: str, satfinite: bool, relu: bool) -> np.ndarray:
    """float64 -> fp8 codes (uint8), round to nearest even."""
    x = np.asarray(x, np.float64)
    if relu:
        x = np.where(x < 0, 0.0, x)
    vals = FP8_VALUES[fmt][: _FP8_MAX_CODE[fmt] + 1]  # positive finite, ascending
    a = np.abs(x)
    hi = np.clip(np.searchsorted(vals, a, side="left"), 0, len(vals) - 1)
    lo = np.clip(hi - 1, 0, None)
    dlo = a - vals[lo]
    dhi = vals[hi] - a
    pick_hi = (dhi < dlo) | ((dhi == dlo) & (hi % 2 == 0))
    code = np.where(a <= vals[0], 0, np.where(pick_hi, hi, lo))
    maxc = _FP8_MAX_CODE[fmt]
    max_val = vals[maxc]
    half_ulp = (vals[maxc] - vals[maxc - 1]) / 2
    over = a > max_val
    if satfinite:
        code = np.where(over, maxc, code)
    else:
        overflow_code = 0x7C if fmt == "e5m2" else _FP8_NAN[fmt]
        code = np.where(a >= max_val + half_ulp, overflow_code, np.where(over, maxc, code))
    code = code.astype(np.uint8) | np.where(np.signbit(x), np.uint8(0x80), np.uint8(0))
    return np.where(np.isnan(x), np.uint8(_FP8_NAN[fmt]), code).astype(np.uint8)
