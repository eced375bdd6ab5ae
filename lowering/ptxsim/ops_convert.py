"""Moves and conversions: ``mov`` (including packing and unpacking vectors) and ``cvt``.

``cvt`` covers int to int (``.sat`` clamps), float to int (a rounding
modifier; NaN gives 0; saturates at the type's range), int to float and float
to float in every rounding mode, f16x2 / bf16x2 packed from two f32, fp8 pairs
(e4m3 / e5m2) to and from packed halves, and tf32. Results are rounded exactly
(:mod:`~ltc.lowering.ptxsim.rounding`).

A mixin of :class:`~ltc.lowering.ptxsim.state.MachineState`: each
``_op_<opcode>(ins)`` returns the instruction's function.
"""

from __future__ import annotations

import numpy as np

from ltc.lowering.ptxsim.errors import Fault
from ltc.lowering.ptxsim.parse import FloatImm, Imm, Instruction, Vector
from ltc.lowering.ptxsim.rounding import (
    FP8_VALUES,
    encode_fp8,
    flush_to_zero,
    round_to_odd64,
    round_f64,
    round_pair_f64,
    saturate,
    smallest_normal,
    two_sum,
)
from ltc.lowering.ptxsim.state import MachineState
from ltc.lowering.ptxsim.values import BIT_TYPES, FLOAT_KINDS, SINT_DTYPE, UINT_DTYPE, float_target, split_modifiers, PtxType

__all__ = ["ConvertOps"]


class ConvertOps(MachineState):
    """``mov`` and ``cvt``."""

    def _op_mov(self, ins: Instruction):
        ty, _ = self._one_type(ins)
        d, a = self._operands(ins, 2)
        if isinstance(d, Vector):
            n = len(d.elements)
            ew = ty.bits // n
            if ew * n != ty.bits or ew not in UINT_DTYPE:
                raise Fault(f"cannot split .{ty.name} into {n} parts")
            src = self._bits(a, BIT_TYPES[ty.bits] if ty.kind != "pred" else ty)
            writers = [self._bits_writer(e, BIT_TYPES[ew]) for e in d.elements]
            mask_e = UINT_DTYPE[ty.bits]((1 << ew) - 1) if ew < 64 else None
            ut = UINT_DTYPE[ty.bits]

            def unpack(c, m):
                v = src(c)
                for k, w in enumerate(writers):
                    part = v >> ut(k * ew) if k else v
                    w(c, (part & mask_e).astype(UINT_DTYPE[ew]), m)

            return unpack
        if isinstance(a, Vector):
            n = len(a.elements)
            ew = ty.bits // n
            if ew * n != ty.bits or ew not in UINT_DTYPE:
                raise Fault(f"cannot pack {n} parts into .{ty.name}")
            parts = [self._bits(e, BIT_TYPES[ew]) for e in a.elements]
            w = self._bits_writer(d, BIT_TYPES[ty.bits])
            ut = UINT_DTYPE[ty.bits]

            def pack(c, m):
                acc = parts[0](c).astype(ut)
                for k in range(1, n):
                    acc = acc | (parts[k](c).astype(ut) << ut(k * ew))
                w(c, acc, m)

            return pack
        if ty.kind == "pred":
            src = self._bits(a, ty)
        elif ty.kind in FLOAT_KINDS and isinstance(a, (Imm, FloatImm)):
            src = self._bits(a, ty)
        else:
            src = self._bits(a, BIT_TYPES[ty.bits] if ty.bits in BIT_TYPES else ty)
        w = self._bits_writer(d, ty if ty.kind == "pred" else BIT_TYPES[ty.bits])
        return lambda c, m: w(c, src(c), m)

    def _op_cvt(self, ins: Instruction):
        types, flags = split_modifiers(ins.modifiers)
        if len(types) != 2:
            raise Fault("cvt needs a destination and a source type")
        dt, st = types
        ops = ins.operands
        rnd = next((f for f in flags if f in ("rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "rna", "rs")), None)
        ftz, sat = "ftz" in flags, "sat" in flags
        relu, satfinite = "relu" in flags, "satfinite" in flags
        if rnd == "rs":
            raise Fault("stochastic rounding is not supported")

        # ---- packed destinations / sources
        if dt.kind in ("f16x2", "bf16x2") and st.name == "f32":
            d, a, b = self._operands(ins, 3)
            ra, rb = self._value(a, st), self._value(b, st)
            wr = self._writer(d, dt)
            target = float_target(dt)
            mode = rnd or "rn"

            def pack2(c, m):
                halves = []
                for r in (rb, ra):  # low half from b, high half from a
                    v = round_f64(r(c).astype(np.float64), target, mode)
                    halves.append(_post_narrow(v, target, relu, satfinite))
                wr(c, np.stack(halves, axis=1), m)

            return pack2
        if dt.kind == "fp8x2":
            fmt = dt.name[:4]
            d = ops[0]
            wr = self._bits_writer(d, BIT_TYPES[16])
            if st.name == "f32":
                _, a, b = self._operands(ins, 3)
                ra, rb = self._value(a, st), self._value(b, st)
                srcs = lambda c: (rb(c).astype(np.float64), ra(c).astype(np.float64))  # noqa: E731
            elif st.kind in ("f16x2", "bf16x2"):
                _, a = self._operands(ins, 2)
                ra = self._value(a, st)
                srcs = lambda c: (ra(c)[:, 0].astype(np.float64), ra(c)[:, 1].astype(np.float64))  # noqa: E731
            else:
                raise Fault(f"cvt to .{dt.name} from .{st.name} is not supported")

            def to_fp8(c, m):
                lo, hi = srcs(c)
                lo8 = encode_fp8(lo, fmt, satfinite, relu).astype(np.uint16)
                hi8 = encode_fp8(hi, fmt, satfinite, relu).astype(np.uint16)
                wr(c, lo8 | (hi8 << np.uint16(8)), m)

            return to_fp8
        if st.kind == "fp8x2":
            fmt = st.name[:4]
            if dt.kind not in ("f16x2", "bf16x2"):
                raise Fault(f"cvt from .{st.name} to .{dt.name} is not supported")
            d, a = self._operands(ins, 2)
            ra = self._bits(a, BIT_TYPES[16])
            wr = self._writer(d, dt)
            table = FP8_VALUES[fmt]

            def from_fp8(c, m):
                v = ra(c)
                lo = table[(v & np.uint16(0xFF)).astype(np.int64)]
                hi = table[(v >> np.uint16(8)).astype(np.int64)]
                pair = np.stack([lo, hi], axis=1)
                if relu:
                    pair = np.where(pair < 0, 0.0, pair)
                wr(c, pair.astype(np.float16) if dt.kind == "f16x2" else pair.astype(np.float32), m)

            return from_fp8
        if dt.kind in ("f16x2", "bf16x2") or st.kind in ("f16x2", "bf16x2"):
            raise Fault(f"cvt .{dt.name}.{st.name} is not supported")
        if dt.kind == "tf32":
            d, a = self._operands(ins, 2)
            ra = self._bits(a, BIT_TYPES[32])
            wr = self._bits_writer(d, BIT_TYPES[32])
            mode = rnd or "rna"

            def tf32(c, m):
                u = ra(c)
                v = u.view(np.float32)
                if mode == "rna":
                    r = (u + np.uint32(0x1000)) & np.uint32(0xFFFFE000)
                elif mode == "rz":
                    r = u & np.uint32(0xFFFFE000)
                else:
                    r = (u + np.uint32(0xFFF) + ((u >> np.uint32(13)) & np.uint32(1))) & np.uint32(0xFFFFE000)
                r = np.where(np.isfinite(v), r, u)
                wr(c, r, m)

            return tf32

        d, a = self._operands(ins, 2)
        src_float = st.kind in ("f", "bf")
        dst_float = dt.kind in ("f", "bf")
        ra = self._value(a, st)
        wr = self._writer(d, dt, canon=dst_float)
        if not src_float and not dst_float:
            lo, hi = _int_range(dt)

            def int_int(c, m):
                v = ra(c)
                if sat:
                    v = _clamp_int(v, lo, hi)
                wr(c, v.astype(SINT_DTYPE[dt.bits] if dt.kind == "s" else UINT_DTYPE[dt.bits]), m)

            return int_int
        if src_float and not dst_float:
            mode = rnd or "rzi"
            lo, hi = _int_range(dt)
            rounder = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}.get(mode)
            if rounder is None:
                raise Fault(f"float-to-int cvt needs .rni/.rzi/.rmi/.rpi, not .{mode}")
            tiny = smallest_normal(float_target(st))

            def float_int(c, m):
                x = ra(c)
                if ftz:
                    x = flush_to_zero(x, tiny)
                v = rounder(x.astype(np.float64))
                wr(c, _float_to_int(v, dt, lo, hi), m)

            return float_int
        target = float_target(dt)
        if not src_float and dst_float:
            mode = rnd or "rn"
            if mode not in ("rn", "rz", "rm", "rp"):
                raise Fault(f"int-to-float cvt needs .rn/.rz/.rm/.rp, not .{mode}")

            def int_float(c, m):
                v = ra(c)
                if st.bits == 64:
                    # v = hi * 2^32 + lo with both halves exact in float64
                    hi = (v >> 32).astype(np.float64) * 4294967296.0
                    lo = (v.view(np.uint64) & np.uint64(0xFFFFFFFF)).astype(np.float64)
                    s_, e_ = two_sum(hi, lo)
                    r = round_pair_f64(s_, e_, mode) if target == "f64" else round_f64(round_to_odd64(s_, e_), target, mode)
                else:
                    r = round_f64(v.astype(np.float64), target, mode)
                if sat:
                    r = saturate(r)
                wr(c, r, m)

            return int_float
        # float -> float
        int_round = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}.get(rnd or "")
        mode = rnd if rnd in ("rn", "rz", "rm", "rp") else "rn"
        tiny_s, tiny_d = smallest_normal(float_target(st)), smallest_normal(target)

        def float_float(c, m):
            x = ra(c)
            if ftz and st.name == "f32":
                x = flush_to_zero(x, tiny_s)
            v = x.astype(np.float64)
            if int_round is not None:
                v = int_round(v)
            r = round_f64(v, target, mode)
            if ftz and dt.name == "f32":
                r = flush_to_zero(r, tiny_d)
            r = _post_narrow(r, target, relu, satfinite)
            if sat:
                r = saturate(r)
            wr(c, r, m)

        return float_float


def _int_range(ty: PtxType) -> tuple[int, int]:
    if ty.kind == "s":
        return -(1 << (ty.bits - 1)), (1 << (ty.bits - 1)) - 1
    return 0, (1 << ty.bits) - 1


def _clamp_int(v: np.ndarray, lo: int, hi: int) -> np.ndarray:
    info = np.iinfo(v.dtype)
    if lo > info.min:
        v = np.where(v < lo, v.dtype.type(lo), v)
    if hi < info.max:
        v = np.where(v > hi, v.dtype.type(hi), v)
    return v


def _float_to_int(v: np.ndarray, dt: PtxType, lo: int, hi: int) -> np.ndarray:
    """Rounded float64 values -> dt, saturating at the type's range; NaN -> 0."""
    out_t = SINT_DTYPE[dt.bits] if dt.kind == "s" else UINT_DTYPE[dt.bits]
    nan = np.isnan(v)
    too_low = v < float(lo)
    too_high = v >= float(hi) + 1.0  # hi + 1 is a power of two, exact in float64
    ok = ~(nan | too_low | too_high)
    r = np.where(ok, v, 0.0).astype(out_t)
    r = np.where(too_low, out_t(lo), r)
    return np.where(too_high, out_t(hi), r)


def _post_narrow(v: np.ndarray, target: str, relu: bool, satfinite: bool) -> np.ndarray:
    if satfinite:
        big = {"f16": 65504.0, "bf16": float(np.float32(3.3895313892515355e38)), "f32": float(np.finfo(np.float32).max),
               "f64": float(np.finfo(np.float64).max)}[target]
        v = np.where(np.isnan(v), v, np.clip(v, -big, big)).astype(v.dtype, copy=False)
    if relu:
        v = np.where(np.isnan(v), v, np.maximum(v, 0)).astype(v.dtype, copy=False)
    return v
