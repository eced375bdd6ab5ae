"""Arithmetic instructions: add/sub/mul/mad/fma/div/rem/abs/neg/min/max, math functions, copysign, testp.

Integers wrap at their width (``.sat`` clamps ``.s32``); ``mul``/``mad`` take
``.lo/.hi/.wide``; division by zero gives all ones (``div``) or the dividend
(``rem``).

Floating point: f32 and f64 arithmetic is IEEE (numpy float32 / float64); f16
uses numpy float16; bf16 is computed in float32 and rounded to nearest even by
bit manipulation. ``fma`` is correctly rounded (f32/f16/bf16 through an exact
float64 sum and round-to-odd; f64 with exact rationals). Directed rounding
(``.rz/.rm/.rp``) is exact for f32/f16/bf16 add/sub/mul/fma and conversions.
*Approximate* instructions (``ex2/lg2/sin/cos/tanh/rsqrt.approx``,
``div.approx/full``, ``rcp/sqrt.approx``) are computed in float64 and rounded
once to the destination type, i.e. (nearly) exactly, not with the hardware's
error. NaN results of arithmetic are the canonical NaN (all ones payload).

A mixin of :class:`~ltc.lowering.ptxsim.state.MachineState`: each
``_op_<opcode>(ins)`` returns the instruction's function.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ltc.lowering.ptxsim.errors import Fault
from ltc.lowering.ptxsim.parse import Instruction
from ltc.lowering.ptxsim.rounding import (
    fma_exact_f64,
    flush_to_zero,
    round_to_odd64,
    round_f64,
    saturate,
    smallest_normal,
    two_sum,
)
from ltc.lowering.ptxsim.state import MachineState
from ltc.lowering.ptxsim.values import FLOAT_KINDS, PRED, SINT_DTYPE, PTX_TYPES, UINT_DTYPE, float_target, split_modifiers, PtxType

__all__ = ["ArithmeticOps"]


class ArithmeticOps(MachineState):
    """Integer and float arithmetic and the float math functions."""

    def _op_add(self, ins):
        return self._arith(ins, "add")

    def _op_sub(self, ins):
        return self._arith(ins, "sub")

    def _op_mul(self, ins):
        return self._arith(ins, "mul")

    def _op_mad(self, ins):
        return self._arith(ins, "mad")

    def _op_fma(self, ins):
        return self._arith(ins, "fma")

    def _op_div(self, ins):
        return self._arith(ins, "div")

    def _op_rem(self, ins):
        return self._arith(ins, "rem")

    def _op_abs(self, ins):
        return self._arith(ins, "abs")

    def _op_neg(self, ins):
        return self._arith(ins, "neg")

    def _op_min(self, ins):
        return self._arith(ins, "min")

    def _op_max(self, ins):
        return self._arith(ins, "max")

    def _arith(self, ins: Instruction, name: str):
        types, flags = split_modifiers(ins.modifiers)
        if not types:
            raise Fault(f"'{ins.mnemonic}': missing type")
        ty = types[-1]
        if ty.kind in FLOAT_KINDS:
            return self._float_arith(ins, name, ty, flags)
        if ty.kind in ("b", "u", "s"):
            return self._int_arith(ins, name, ty, flags)
        raise Fault(f"'{ins.mnemonic}' is not supported")

    def _int_arith(self, ins: Instruction, name: str, ty: PtxType, flags: list[str]):
        w = ty.bits
        signed = ty.kind == "s"
        if "cc" in flags:
            raise Fault("carry (.cc) arithmetic is not supported")
        if name in ("abs", "neg"):
            d, a = self._operands(ins, 2)
            ra = self._value(a, ty)
            wr = self._writer(d, ty)
            fn = np.abs if name == "abs" else np.negative
            return lambda c, m: wr(c, fn(ra(c)), m)
        if name in ("mul", "mad"):
            mode = "lo"
            for f in flags:
                if f in ("lo", "hi", "wide"):
                    mode = f
            if name == "mad":
                d, a, b, e = self._operands(ins, 4)
            else:
                d, a, b = self._operands(ins, 3)
                e = None
            ra, rb = self._value(a, ty), self._value(b, ty)
            if mode == "wide":
                if w == 64:
                    raise Fault("mul.wide of 64-bit values is not supported")
                wt = PTX_TYPES[("s" if signed else "u") + str(2 * w)]
                big = SINT_DTYPE[2 * w] if signed else UINT_DTYPE[2 * w]
                re = self._value(e, wt) if e is not None else None
                wr = self._writer(d, wt)

                def wide(c, m):
                    r = ra(c).astype(big) * rb(c).astype(big)
                    if re is not None:
                        r = r + re(c)
                    wr(c, r, m)

                return wide
            re = self._value(e, ty) if e is not None else None
            wr = self._writer(d, ty)
            sat = "sat" in flags
            if mode == "lo":
                def lo(c, m):
                    r = ra(c) * rb(c)
                    if re is not None:
                        r = r + re(c)
                    wr(c, r, m)

                return lo

            def hi(c, m):
                x, y = ra(c), rb(c)
                if w < 64:
                    big = np.int64 if signed else np.uint64
                    r = ((x.astype(big) * y.astype(big)) >> big(w)).astype(x.dtype)
                else:
                    r = _smulhi64(x, y) if signed else _umulhi64(x, y)
                if re is not None:
                    if sat and signed and w == 32:
                        r = np.clip(r.astype(np.int64) + re(c).astype(np.int64), -(2**31), 2**31 - 1).astype(np.int32)
                    else:
                        r = r + re(c)
                wr(c, r, m)

            return hi
        if name in ("add", "sub", "min", "max"):
            d, a, b = self._operands(ins, 3)
            ra, rb = self._value(a, ty), self._value(b, ty)
            wr = self._writer(d, ty)
            fn = {"add": np.add, "sub": np.subtract, "min": np.minimum, "max": np.maximum}[name]
            if "sat" in flags and name in ("add", "sub"):
                if not (signed and w == 32):
                    raise Fault(".sat integer arithmetic needs .s32")
                return lambda c, m: wr(
                    c, np.clip(fn(ra(c).astype(np.int64), rb(c).astype(np.int64)), -(2**31), 2**31 - 1), m
                )
            if "relu" in flags:
                return lambda c, m: wr(c, np.maximum(fn(ra(c), rb(c)), 0), m)
            return lambda c, m: wr(c, fn(ra(c), rb(c)), m)
        if name in ("div", "rem"):
            d, a, b = self._operands(ins, 3)
            ra, rb = self._value(a, ty), self._value(b, ty)
            wr = self._writer(d, ty)
            allones = SINT_DTYPE[w](-1) if signed else UINT_DTYPE[w]((1 << w) - 1)

            def divrem(c, m):
                x, y = ra(c), rb(c)
                zero = y == 0
                ys = np.where(zero, y.dtype.type(1), y)
                if signed:
                    r = np.fmod(x, ys)
                    q = (x - r) // ys
                else:
                    q, r = x // ys, x % ys
                if name == "div":
                    wr(c, np.where(zero, allones, q), m)
                else:
                    wr(c, np.where(zero, x, r), m)

            return divrem
        raise Fault(f"'{ins.mnemonic}' is not supported")

    def _float_arith(self, ins: Instruction, name: str, ty: PtxType, flags: list[str]):
        target = float_target(ty)
        mode = "rn"
        for f in flags:
            if f in ("rn", "rz", "rm", "rp"):
                mode = f
        ftz = "ftz" in flags
        sat = "sat" in flags
        tiny = smallest_normal(target)

        def prep(x):
            return flush_to_zero(x, tiny) if ftz else x

        def post(r):
            if ftz:
                r = flush_to_zero(r, tiny)
            if sat:
                r = saturate(r)
            if "relu" in flags:
                r = np.where(np.isnan(r), r, np.maximum(r, 0)).astype(r.dtype, copy=False)
            return r

        if name in ("abs", "neg"):
            d, a = self._operands(ins, 2)
            ra = self._value(a, ty)
            wr = self._writer(d, ty)
            fn = np.abs if name == "abs" else np.negative
            return lambda c, m: wr(c, post(fn(prep(ra(c)))), m)

        if name in ("min", "max"):
            d, a, b = self._operands(ins, 3)
            if "xorsign" in flags or "abs" in flags:
                raise Fault(f"'{ins.mnemonic}' is not supported")
            ra, rb = self._value(a, ty), self._value(b, ty)
            wr = self._writer(d, ty, canon=True)
            nan_prop = "NaN" in flags
            is_min = name == "min"

            def minmax(c, m):
                x, y = prep(ra(c)), prep(rb(c))
                r = np.fmin(x, y) if is_min else np.fmax(x, y)
                both0 = (x == 0) & (y == 0)
                if both0.any():
                    neg = (np.signbit(x) | np.signbit(y)) if is_min else (np.signbit(x) & np.signbit(y))
                    z = np.where(neg, -0.0, 0.0).astype(r.dtype)
                    r = np.where(both0, z, r)
                if nan_prop:
                    r = np.where(np.isnan(x) | np.isnan(y), np.array(np.nan, r.dtype), r)
                wr(c, post(r), m)

            return minmax

        if name in ("add", "sub", "mul"):
            d, a, b = self._operands(ins, 3)
            ra, rb = self._value(a, ty), self._value(b, ty)
            wr = self._writer(d, ty, canon=True)
            fn = {"add": np.add, "sub": np.subtract, "mul": np.multiply}[name]
            if mode == "rn":
                return lambda c, m: wr(c, post(fn(prep(ra(c)), prep(rb(c)))), m)
            if target == "f64":
                raise Fault(f"'{ins.mnemonic}': directed rounding of f64 is not supported")

            def directed(c, m):
                x = prep(ra(c)).astype(np.float64)
                y = prep(rb(c)).astype(np.float64)
                if name == "mul":
                    exact = x * y
                else:
                    exact = round_to_odd64(*two_sum(x, y if name == "add" else -y))
                wr(c, post(round_f64(exact, target, mode)), m)

            return directed

        if name in ("fma", "mad"):
            d, a, b, e = self._operands(ins, 4)
            ra, rb, re = self._value(a, ty), self._value(b, ty), self._value(e, ty)
            wr = self._writer(d, ty, canon=True)

            def fma(c, m):
                x, y, z = prep(ra(c)), prep(rb(c)), prep(re(c))
                if target == "f64":
                    if mode != "rn":
                        raise Fault("directed rounding of f64 fma is not supported")
                    r = fma_exact_f64(x, y, z)
                else:
                    p = x.astype(np.float64) * y.astype(np.float64)
                    r = round_f64(round_to_odd64(*two_sum(p, z.astype(np.float64))), target, mode)
                wr(c, post(r), m)

            return fma

        if name == "div":
            d, a, b = self._operands(ins, 3)
            if mode != "rn" and "approx" not in flags and "full" not in flags:
                raise Fault(f"'{ins.mnemonic}': directed rounding of division is not supported")
            ra, rb = self._value(a, ty), self._value(b, ty)
            wr = self._writer(d, ty, canon=True)

            def div(c, m):
                x, y = prep(ra(c)), prep(rb(c))
                if target == "f64":
                    r = x / y
                else:
                    r = round_f64(x.astype(np.float64) / y.astype(np.float64), target)
                wr(c, post(r), m)

            return div
        if name == "rem":
            raise Fault("rem of floats does not exist in PTX")
        raise Fault(f"'{ins.mnemonic}' is not supported")

    def _unary_math(self, ins: Instruction, fn64: Callable[[np.ndarray], np.ndarray]):
        types, flags = split_modifiers(ins.modifiers)
        if len(types) != 1 or types[0].kind not in FLOAT_KINDS:
            raise Fault(f"'{ins.mnemonic}': expected one float type")
        ty = types[0]
        target = float_target(ty)
        d, a = self._operands(ins, 2)
        ra = self._value(a, ty)
        wr = self._writer(d, ty, canon=True)
        ftz = "ftz" in flags
        tiny = smallest_normal(target)
        mode = "rn"
        for f in flags:
            if f in ("rz", "rm", "rp"):
                raise Fault(f"'{ins.mnemonic}': directed rounding is not supported")

        def run(c, m):
            x = ra(c)
            if ftz:
                x = flush_to_zero(x, tiny)
            r = round_f64(fn64(x.astype(np.float64)), target, mode)
            if ftz:
                r = flush_to_zero(r, tiny)
            if "sat" in flags:
                r = saturate(r)
            wr(c, r, m)

        return run

    def _op_rcp(self, ins):
        return self._unary_math(ins, lambda x: 1.0 / x)

    def _op_sqrt(self, ins):
        return self._unary_math(ins, np.sqrt)

    def _op_rsqrt(self, ins):
        return self._unary_math(ins, lambda x: 1.0 / np.sqrt(x))

    def _op_ex2(self, ins):
        return self._unary_math(ins, np.exp2)

    def _op_lg2(self, ins):
        return self._unary_math(ins, np.log2)

    def _op_sin(self, ins):
        return self._unary_math(ins, np.sin)

    def _op_cos(self, ins):
        return self._unary_math(ins, np.cos)

    def _op_tanh(self, ins):
        return self._unary_math(ins, np.tanh)

    def _op_copysign(self, ins):
        ty, _ = self._one_type(ins)
        d, a, b = self._operands(ins, 3)
        ra, rb = self._value(a, ty), self._value(b, ty)
        wr = self._writer(d, ty)
        return lambda c, m: wr(c, np.copysign(rb(c), ra(c)), m)

    def _op_testp(self, ins):
        ty, flags = self._one_type(ins)
        d, a = self._operands(ins, 2)
        ra = self._value(a, ty)
        wr = self._bits_writer(d, PRED)
        tiny = smallest_normal(float_target(ty))
        tests = {
            "finite": np.isfinite,
            "infinite": np.isinf,
            "number": lambda x: ~np.isnan(x),
            "notanumber": np.isnan,
            "normal": lambda x: np.isfinite(x) & (np.abs(x) >= tiny),
            "subnormal": lambda x: (np.abs(x) < tiny) & (x != 0),
        }
        op = next((f for f in flags if f in tests), None)
        if op is None:
            raise Fault("testp needs a test (.finite, .nan, ...)")
        fn = tests[op]
        return lambda c, m: wr(c, fn(ra(c)), m)


def _umulhi64(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = a.view(np.uint64) if a.dtype != np.uint64 else a
    b = b.view(np.uint64) if b.dtype != np.uint64 else b
    m32 = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    a_lo, a_hi = a & m32, a >> s32
    b_lo, b_hi = b & m32, b >> s32
    p0, p1, p2, p3 = a_lo * b_lo, a_lo * b_hi, a_hi * b_lo, a_hi * b_hi
    mid = (p0 >> s32) + (p1 & m32) + (p2 & m32)
    return p3 + (p1 >> s32) + (p2 >> s32) + (mid >> s32)


def _smulhi64(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    ua, ub = a.view(np.uint64), b.view(np.uint64)
    hi = _umulhi64(ua, ub)
    hi = hi - np.where(a < 0, ub, np.uint64(0)) - np.where(b < 0, ua, np.uint64(0))
    return hi.view(np.int64)
