"""Bitwise instructions: and/or/xor/not/cnot, shl/shr, popc, clz, brev, bfind, bfe, bfi, prmt, lop3.

They work on raw bits (``.b``/``.u``/``.s`` of any width; and/or/xor/not also
on ``.pred``) and follow the PTX ISA for shift counts of the width or more and
for bit-field positions and lengths past the width.

A mixin of :class:`~ltc.lowering.ptxsim.state.MachineState`: each
``_op_<opcode>(ins)`` returns the instruction's function.
"""

from __future__ import annotations

import numpy as np

from ltc.lowering.ptxsim.errors import Fault
from ltc.lowering.ptxsim.parse import Imm, Instruction
from ltc.lowering.ptxsim.state import MachineState
from ltc.lowering.ptxsim.values import BIT_TYPES, U32, UINT_DTYPE

__all__ = ["BitOps"]


class BitOps(MachineState):
    """Logic, shifts, bit counts, bit fields and byte permutes."""

    def _logic(self, ins: Instruction, name: str):
        ty, _ = self._one_type(ins)
        bt = ty if ty.kind == "pred" else BIT_TYPES[ty.bits]
        if name in ("not", "cnot"):
            d, a = self._operands(ins, 2)
            ra = self._bits(a, bt)
            wr = self._bits_writer(d, bt)
            if name == "not":
                return lambda c, m: wr(c, ~ra(c), m)
            if ty.kind == "pred":
                return lambda c, m: wr(c, ~ra(c), m)
            return lambda c, m: wr(c, (ra(c) == 0).astype(UINT_DTYPE[ty.bits]), m)
        d, a, b = self._operands(ins, 3)
        ra, rb = self._bits(a, bt), self._bits(b, bt)
        wr = self._bits_writer(d, bt)
        fn = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[name]
        return lambda c, m: wr(c, fn(ra(c), rb(c)), m)

    def _op_and(self, ins):
        return self._logic(ins, "and")

    def _op_or(self, ins):
        return self._logic(ins, "or")

    def _op_xor(self, ins):
        return self._logic(ins, "xor")

    def _op_not(self, ins):
        return self._logic(ins, "not")

    def _op_cnot(self, ins):
        return self._logic(ins, "cnot")

    def _shift(self, ins: Instruction, left: bool):
        ty, _ = self._one_type(ins)
        d, a, b = self._operands(ins, 3)
        w = ty.bits
        arith = ty.kind == "s" and not left
        ra = self._value(a, ty)
        rb = self._value(b, U32)
        wr = self._writer(d, ty)

        def run(c, m):
            x = ra(c)
            s = rb(c)
            big = s >= w
            sc = np.minimum(s, w - 1)
            if arith:  # sign fill; a count >= w behaves as w - 1
                r = np.right_shift(x.astype(np.int64), sc.astype(np.int64)).astype(x.dtype)
            else:
                u = x.astype(np.uint64)
                r = (u << sc.astype(np.uint64)) if left else (u >> sc.astype(np.uint64))
                r = np.where(big, np.uint64(0), r).astype(x.dtype)
            wr(c, r, m)

        return run

    def _op_shl(self, ins):
        return self._shift(ins, True)

    def _op_shr(self, ins):
        return self._shift(ins, False)

    def _op_popc(self, ins):
        ty, _ = self._one_type(ins)
        d, a = self._operands(ins, 2)
        ra = self._bits(a, BIT_TYPES[ty.bits])
        wr = self._writer(d, U32)
        return lambda c, m: wr(c, np.bitwise_count(ra(c)).astype(np.uint32), m)

    def _op_clz(self, ins):
        ty, _ = self._one_type(ins)
        d, a = self._operands(ins, 2)
        w = ty.bits
        ra = self._bits(a, BIT_TYPES[w])
        wr = self._writer(d, U32)

        def run(c, m):
            x = ra(c).astype(np.uint64)
            n = np.zeros(x.shape, np.uint32)
            for k in range(w):
                n += ((x >> np.uint64(k)) != 0).astype(np.uint32)
            wr(c, np.uint32(w) - n, m)

        return run

    def _op_brev(self, ins):
        ty, _ = self._one_type(ins)
        d, a = self._operands(ins, 2)
        w = ty.bits
        ra = self._bits(a, BIT_TYPES[w])
        wr = self._bits_writer(d, BIT_TYPES[w])

        def run(c, m):
            x = ra(c).astype(np.uint64)
            r = np.zeros(x.shape, np.uint64)
            for k in range(w):
                r |= ((x >> np.uint64(k)) & np.uint64(1)) << np.uint64(w - 1 - k)
            wr(c, r.astype(UINT_DTYPE[w]), m)

        return run

    def _op_bfind(self, ins):
        ty, flags = self._one_type(ins)
        d, a = self._operands(ins, 2)
        w = ty.bits
        ra = self._value(a, ty)
        wr = self._writer(d, U32)
        shiftamt = "shiftamt" in flags

        def run(c, m):
            x = ra(c)
            if ty.kind == "s":
                x = np.where(x < 0, ~x, x)
            u = x.astype(np.int64).astype(np.uint64) if w < 64 else x.view(np.uint64)
            pos = np.full(u.shape, -1, np.int64)
            for k in range(w):
                pos = np.where(((u >> np.uint64(k)) & np.uint64(1)) != 0, k, pos)
            if shiftamt:
                pos = np.where(pos < 0, -1, (w - 1) - pos)
            wr(c, pos.astype(np.int64).astype(np.uint32), m)

        return run

    def _op_bfe(self, ins):
        ty, _ = self._one_type(ins)
        d, a, b, e = self._operands(ins, 4)
        w = ty.bits
        ra = self._bits(a, BIT_TYPES[w])
        rb, re = self._value(b, U32), self._value(e, U32)
        wr = self._bits_writer(d, BIT_TYPES[w])
        signed = ty.kind == "s"

        def run(c, m):
            x = ra(c).astype(np.uint64)
            pos = (rb(c) & 0xFF).astype(np.int64)
            ln = (re(c) & 0xFF).astype(np.int64)
            out = np.zeros(x.shape, np.uint64)
            if signed:
                top = np.clip(pos + ln - 1, 0, w - 1)
                sbit = np.where(ln == 0, 0, (x >> top.astype(np.uint64)) & np.uint64(1)).astype(np.uint64)
            else:
                sbit = np.zeros(x.shape, np.uint64)
            for i in range(w):
                src = pos + i
                inside = (i < ln) & (src <= w - 1)
                bit = np.where(inside, (x >> np.clip(src, 0, w - 1).astype(np.uint64)) & np.uint64(1), sbit)
                out |= bit.astype(np.uint64) << np.uint64(i)
            wr(c, out.astype(UINT_DTYPE[w]), m)

        return run

    def _op_bfi(self, ins):
        ty, _ = self._one_type(ins)
        f, a, b, cc, dd = self._operands(ins, 5)
        w = ty.bits
        ra, rb = self._bits(a, BIT_TYPES[w]), self._bits(b, BIT_TYPES[w])
        rc, rd = self._value(cc, U32), self._value(dd, U32)
        wr = self._bits_writer(f, BIT_TYPES[w])

        def run(c, m):
            x, y = ra(c).astype(np.uint64), rb(c).astype(np.uint64)
            pos = (rc(c) & 0xFF).astype(np.int64)
            ln = (rd(c) & 0xFF).astype(np.int64)
            out = y.copy()
            for i in range(w):
                dst = pos + i
                inside = (i < ln) & (dst <= w - 1)
                sh = np.clip(dst, 0, w - 1).astype(np.uint64)
                bit = (x >> np.uint64(i)) & np.uint64(1)
                out = np.where(inside, (out & ~(np.uint64(1) << sh)) | (bit << sh), out)
            wr(c, out.astype(UINT_DTYPE[w]), m)

        return run

    def _op_prmt(self, ins):
        ty, flags = self._one_type(ins)
        d, a, b, s = self._operands(ins, 4)
        ra, rb, rs = self._bits(a, BIT_TYPES[32]), self._bits(b, BIT_TYPES[32]), self._bits(s, BIT_TYPES[32])
        wr = self._bits_writer(d, BIT_TYPES[32])
        mode = next((f for f in flags if f in _PRMT_MODES), None)

        def run(c, m):
            x = ra(c).astype(np.uint64) | (rb(c).astype(np.uint64) << np.uint64(32))
            sel = rs(c).astype(np.uint64)
            out = np.zeros(x.shape, np.uint64)
            for i in range(4):
                if mode is None:
                    nib = (sel >> np.uint64(4 * i)) & np.uint64(0xF)
                    idx = nib & np.uint64(7)
                    byte = (x >> (idx * np.uint64(8))) & np.uint64(0xFF)
                    rep = np.where(byte & np.uint64(0x80), np.uint64(0xFF), np.uint64(0))
                    byte = np.where(nib & np.uint64(8), rep, byte)
                else:
                    idx = np.array(_PRMT_MODES[mode], np.uint64)[(sel & np.uint64(3)).astype(np.int64), i]
                    byte = (x >> (idx * np.uint64(8))) & np.uint64(0xFF)
                out |= byte << np.uint64(8 * i)
            wr(c, out.astype(np.uint32), m)

        return run

    def _op_lop3(self, ins):
        ty, _ = self._one_type(ins)
        d, a, b, e, lut = self._operands(ins, 5)
        if not isinstance(lut, Imm):
            raise Fault("lop3 needs an immediate truth table")
        w = ty.bits
        ra, rb, re = self._bits(a, BIT_TYPES[w]), self._bits(b, BIT_TYPES[w]), self._bits(e, BIT_TYPES[w])
        wr = self._bits_writer(d, BIT_TYPES[w])
        table = lut.value & 0xFF

        def run(c, m):
            x, y, z = ra(c), rb(c), re(c)
            out = np.zeros_like(x)
            for i in range(8):
                if table >> i & 1:
                    out |= (x if i & 4 else ~x) & (y if i & 2 else ~y) & (z if i & 1 else ~z)
            wr(c, out, m)

        return run


_PRMT_MODES = {
    # d.b0..d.b3 source byte for c[1:0] = 0..3
    "f4e": [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
    "b4e": [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
    "rc8": [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
    "ecl": [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
    "ecr": [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
    "rc16": [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]],
}
