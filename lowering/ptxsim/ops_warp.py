"""Warp-level instructions: shfl, vote, activemask, redux, ldmatrix, stmatrix.

``shfl.sync``, ``vote``, ``redux`` follow the PTX ISA exactly (clamp / segment
mask, out-of-range lanes keep their own value); a thread outside the member
mask, or a shuffle reading a lane that does not execute it, raises.
``ldmatrix``/``stmatrix`` (m8n8, x1/x2/x4, ``.trans``, b16) use the ISA's
fragment mapping: thread t holds row ``t // 4``, columns ``2 (t % 4)`` and
``2 (t % 4) + 1`` of each matrix (transposed for ``.trans``); matrix i's row
addresses come from lanes ``8 i .. 8 i + 7``. A warp executes them whole or not
at all; their wavefronts come from
:func:`~ltc.lowering.plans.banks.matrix_access_wavefronts`.

A mixin of :class:`~ltc.lowering.ptxsim.state.MachineState`: each
``_op_<opcode>(ins)`` returns the instruction's function.
"""

from __future__ import annotations

import numpy as np

from ltc.lowering.plans.banks import matrix_access_wavefronts
from ltc.lowering.ptxsim.errors import Fault
from ltc.lowering.ptxsim.memory import SHARED_BASE
from ltc.lowering.ptxsim.parse import Instruction, PredPair, Vector
from ltc.lowering.ptxsim.state import WARP, MachineState, Cta
from ltc.lowering.ptxsim.values import BIT_TYPES, PRED, U32, split_modifiers

__all__ = ["WarpOps"]


class WarpOps(MachineState):
    """Shuffles, votes, warp reductions and 8x8 matrix loads / stores."""

    def _matrix_parts(self, ins: Instruction) -> tuple[int, bool]:
        mods = set(ins.modifiers)
        if "m8n8" not in mods or "b16" not in mods:
            raise Fault(f"'{ins.mnemonic}': only .m8n8 .b16 matrices are supported")
        num = next((int(x[1]) for x in ins.modifiers if x in ("x1", "x2", "x4")), None)
        if num is None:
            raise Fault(f"'{ins.mnemonic}': missing .x1/.x2/.x4")
        return num, "trans" in mods

    def _matrix_rows(self, c: Cta, addr: np.ndarray, num: int, warps: np.ndarray, what: str) -> np.ndarray:
        rows = addr.reshape(self.warps, WARP)[warps][:, : 8 * num].reshape(-1, num, 8)
        if np.any(rows % 16):
            raise Fault(f"{what}: row addresses must be 16-byte aligned")
        self._shared_check(rows.ravel(), 16, what)
        return rows

    def _op_ldmatrix(self, ins: Instruction):
        num, trans = self._matrix_parts(ins)
        dst, addr = self._operands(ins, 2)
        elems = list(dst.elements) if isinstance(dst, Vector) else [dst]
        if len(elems) != num:
            raise Fault(f"ldmatrix .x{num} writes {num} registers, got {len(elems)}")
        writers = [self._bits_writer(e, BIT_TYPES[32]) for e in elems]
        ra = self._address(addr, "shared")
        lane = np.arange(WARP)
        tp = self.tp
        line = ins.line

        def run(c, m):
            warps = self._full_warps(m, "ldmatrix")
            rows = self._matrix_rows(c, ra(c), num, warps, "ldmatrix")  # (w, num, 8)
            off = rows - SHARED_BASE
            data = c.smem[off[..., None] + np.arange(16)]  # (w, num, 8, 16) bytes
            c.races.read(off, 16, np.broadcast_to(warps[:, None, None], off.shape), line)
            halves = np.ascontiguousarray(data).view(np.uint16)  # (w, num, 8, 8) b16 elements
            threads = (warps[:, None] * WARP + lane[None, :]).ravel()
            for i, w in enumerate(writers):
                mat = halves[:, i]  # (w, 8 rows, 8 cols)
                if trans:
                    lo = mat[:, 2 * (lane % 4), lane // 4]
                    hi = mat[:, 2 * (lane % 4) + 1, lane // 4]
                else:
                    lo = mat[:, lane // 4, 2 * (lane % 4)]
                    hi = mat[:, lane // 4, 2 * (lane % 4) + 1]
                val = lo.astype(np.uint32) | (hi.astype(np.uint32) << np.uint32(16))
                full = np.zeros(tp, np.uint32)
                full[threads] = val.ravel()
                w(c, full, m)
            k = self.counters
            k.matrix_loads += len(warps)
            wf, lb = matrix_access_wavefronts(rows.reshape(-1, 8))
            k.wavefronts(line, wf, lb, False)

        return run

    def _op_stmatrix(self, ins: Instruction):
        num, trans = self._matrix_parts(ins)
        addr, src = self._operands(ins, 2)
        elems = list(src.elements) if isinstance(src, Vector) else [src]
        if len(elems) != num:
            raise Fault(f"stmatrix .x{num} reads {num} registers, got {len(elems)}")
        readers = [self._bits(e, BIT_TYPES[32]) for e in elems]
        ra = self._address(addr, "shared")
        lane = np.arange(WARP)
        line = ins.line

        def run(c, m):
            warps = self._full_warps(m, "stmatrix")
            rows = self._matrix_rows(c, ra(c), num, warps, "stmatrix")  # (w, num, 8)
            threads = warps[:, None] * WARP + lane[None, :]  # (w, 32)
            for i, r in enumerate(readers):
                v = r(c)[threads]  # (w, 32)
                lo = (v & np.uint32(0xFFFF)).astype(np.uint16)
                hi = (v >> np.uint32(16)).astype(np.uint16)
                if trans:
                    row0, row1 = 2 * (lane % 4), 2 * (lane % 4) + 1
                    b0 = rows[:, i, row0] + 2 * (lane // 4)
                    b1 = rows[:, i, row1] + 2 * (lane // 4)
                else:
                    b0 = rows[:, i, lane // 4] + 4 * (lane % 4)
                    b1 = b0 + 2
                for addr_, val in ((b0, lo), (b1, hi)):
                    off = (addr_ - SHARED_BASE).ravel()
                    c.races.write(c.smem, off, 2, np.broadcast_to(warps[:, None], addr_.shape), val, line)
                    c.smem.view(np.uint16)[off // 2] = val.ravel()
            k = self.counters
            k.matrix_stores += len(warps)
            wf, lb = matrix_access_wavefronts(rows.reshape(-1, 8))
            k.wavefronts(line, wf, lb, True)

        return run

    # ------------------------------------------------------------ warp-level
    def _op_shfl(self, ins: Instruction):
        mods = ins.modifiers
        mode = next((x for x in mods if x in ("up", "down", "bfly", "idx")), None)
        if mode is None or "b32" not in mods:
            raise Fault(f"'{ins.mnemonic}': expected shfl.sync.{{up,down,bfly,idx}}.b32")
        sync = "sync" in mods
        ops = self._operands(ins, 5 if sync else 4)
        dst, a, b, cc = ops[:4]
        rmask = self._value(ops[4], U32) if sync else None
        if isinstance(dst, PredPair):
            wd, wp = self._bits_writer(dst.first, BIT_TYPES[32]), self._bits_writer(dst.second, PRED)
        else:
            wd, wp = self._bits_writer(dst, BIT_TYPES[32]), None
        ra = self._bits(a, BIT_TYPES[32])
        rb, rc = self._value(b, U32), self._value(cc, U32)
        lane = self.lane
        base = self.warp_base
        tp = self.tp

        def run(c, m):
            act = np.ones(tp, bool) if m is None else m
            if rmask is not None:
                mm = rmask(c).astype(np.int64)
                inmask = ((mm >> lane) & 1).astype(bool)
                if np.any(act & ~inmask):
                    t = int(np.flatnonzero(act & ~inmask)[0])
                    raise Fault(
                        f"shfl.sync: lane {t % WARP} of warp {t // WARP} executes but is not in the member mask"
                    )
            bval = (rb(c) & np.uint32(31)).astype(np.int64)
            cv = rc(c).astype(np.int64)
            cval = cv & 31
            seg = (cv >> 8) & 31
            max_lane = (lane & seg) | (cval & ~seg)
            min_lane = lane & seg
            if mode == "up":
                j = lane - bval
                pval = j >= max_lane
            elif mode == "down":
                j = lane + bval
                pval = j <= max_lane
            elif mode == "bfly":
                j = lane ^ bval
                pval = j <= max_lane
            else:
                j = min_lane | (bval & ~seg)
                pval = j <= max_lane
            j = np.where(pval, j, lane)
            src = base + j
            if m is not None:
                reads_idle = act & pval & ~act[src]
                if reads_idle.any():
                    t = int(np.flatnonzero(reads_idle)[0])
                    raise Fault(
                        f"shfl.sync: lane {t % WARP} of warp {t // WARP} reads lane {int(j[t])}, which does not execute it"
                    )
            wd(c, ra(c)[src], m)
            if wp is not None:
                wp(c, pval, m)
            self.counters.shuffles += self._active_warps(m)

        return run

    def _op_vote(self, ins: Instruction):
        mods = ins.modifiers
        mode = next((x for x in mods if x in ("ballot", "any", "all", "uni")), None)
        if mode is None:
            raise Fault(f"'{ins.mnemonic}' is not supported")
        sync = "sync" in mods
        ops = self._operands(ins, 3 if sync else 2)
        d, p = ops[0], ops[1]
        rp = self._bits(p, PRED)
        w = self._bits_writer(d, BIT_TYPES[32] if mode == "ballot" else PRED)
        lane_bit = (np.uint64(1) << self.lane.astype(np.uint64))
        nw = self.warps
        tp = self.tp

        def run(c, m):
            act = np.ones(tp, bool) if m is None else m
            pv = rp(c) & act
            if mode == "ballot":
                per = (np.where(pv, lane_bit, np.uint64(0))).reshape(nw, WARP).sum(axis=1).astype(np.uint32)
                w(c, np.repeat(per, WARP), m)
                return
            pa = pv.reshape(nw, WARP)
            aa = act.reshape(nw, WARP)
            if mode == "any":
                r = pa.any(axis=1)
            elif mode == "all":
                r = (pa | ~aa).all(axis=1)
            else:
                r = (pa | ~aa).all(axis=1) | ~(pa & aa).any(axis=1)
            w(c, np.repeat(r, WARP), m)

        return run

    def _op_activemask(self, ins: Instruction):
        (d,) = self._operands(ins, 1)
        w = self._bits_writer(d, BIT_TYPES[32])
        lane_bit = (np.uint64(1) << self.lane.astype(np.uint64))
        nw, tp = self.warps, self.tp

        def run(c, m):
            act = np.ones(tp, bool) if m is None else m
            per = np.where(act, lane_bit, np.uint64(0)).reshape(nw, WARP).sum(axis=1).astype(np.uint32)
            w(c, np.repeat(per, WARP), m)

        return run

    def _op_redux(self, ins: Instruction):
        types, flags = split_modifiers(ins.modifiers)
        op = next((f for f in flags if f in ("add", "min", "max", "and", "or", "xor")), None)
        if op is None or len(types) != 1 or types[0].kind not in ("b", "u", "s") or types[0].bits != 32:
            raise Fault(f"'{ins.mnemonic}' is not supported")
        ty = types[0]
        d, a, _mask = self._operands(ins, 3)
        ra = self._value(a, ty)
        w = self._writer(d, ty)
        nw, tp = self.warps, self.tp

        def run(c, m):
            act = (np.ones(tp, bool) if m is None else m).reshape(nw, WARP)
            v = ra(c).reshape(nw, WARP)
            if op == "add":
                r = np.where(act, v.astype(np.int64), 0).sum(axis=1)
            elif op in ("min", "max"):
                big = np.iinfo(v.dtype)
                fill = big.max if op == "min" else big.min
                vv = np.where(act, v, v.dtype.type(fill))
                r = vv.min(axis=1) if op == "min" else vv.max(axis=1)
            else:
                fill = v.dtype.type(-1 if ty.kind == "s" else 0xFFFFFFFF) if op == "and" else v.dtype.type(0)
                vv = np.where(act, v, fill)
                fn = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[op]
                r = fn.reduce(vv, axis=1)
            w(c, np.repeat(np.asarray(r).astype(np.int64).astype(v.dtype), WARP), m)

        return run
