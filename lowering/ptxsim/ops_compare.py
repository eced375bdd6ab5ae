"""Comparison and selection: ``setp`` (with ``.and/.or/.xor`` and predicate pairs) and ``selp``.

Float comparisons follow IEEE (the ordered ones are false on NaN, the ``u``
ones true); ``lo/ls/hi/hs`` compare as unsigned whatever the type.

A mixin of :class:`~ltc.lowering.ptxsim.state.MachineState`: each
``_op_<opcode>(ins)`` returns the instruction's function.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ltc.lowering.ptxsim.errors import Fault
from ltc.lowering.ptxsim.parse import FloatImm, Imm, Instruction, PredPair
from ltc.lowering.ptxsim.state import MachineState
from ltc.lowering.ptxsim.values import BIT_TYPES, FLOAT_KINDS, PRED, UINT_DTYPE, split_modifiers

__all__ = ["CompareOps"]


class CompareOps(MachineState):
    """``setp`` and ``selp``."""

    def _op_setp(self, ins: Instruction):
        types, flags = split_modifiers(ins.modifiers)
        if len(types) != 1:
            raise Fault("setp needs one type")
        ty = types[0]
        if ty.kind in ("f16x2", "bf16x2"):
            raise Fault("setp on packed types is not supported")
        cmp = next((f for f in flags if f in _CMP), None)
        if cmp is None:
            raise Fault(f"'{ins.mnemonic}': missing comparison")
        bop = next((f for f in flags if f in ("and", "or", "xor")), None)
        ops = ins.operands
        if len(ops) != (4 if bop else 3):
            raise Fault(f"'{ins.mnemonic}' takes {4 if bop else 3} operands")
        dst = ops[0]
        if isinstance(dst, PredPair):
            wp, wq = self._bits_writer(dst.first, PRED), self._bits_writer(dst.second, PRED)
        else:
            wp, wq = self._bits_writer(dst, PRED), None
        ra, rb = self._value(ops[1], ty), self._value(ops[2], ty)
        rc = self._bits(ops[3], PRED) if bop else None
        is_float = ty.kind in FLOAT_KINDS
        unsigned = ty.kind in ("u", "b")
        if not is_float and cmp in _FLOAT_ONLY_CMP:
            raise Fault(f"comparison .{cmp} needs a float type")
        fn = _CMP[cmp]
        comb = {"and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor}.get(bop)

        def run(c, m):
            x, y = ra(c), rb(c)
            if is_float:
                r = fn(x, y)
            else:
                r = _int_compare(cmp, x, y, unsigned)
            if comb is not None:
                cv = rc(c)
                p, q = comb(r, cv), comb(~r, cv)
            else:
                p, q = r, ~r
            wp(c, p, m)
            if wq is not None:
                wq(c, q, m)

        return run

    def _op_selp(self, ins: Instruction):
        ty, _ = self._one_type(ins)
        d, a, b, p = self._operands(ins, 4)
        bt = ty if ty.kind == "pred" else BIT_TYPES[ty.bits]
        # Immediates take the instruction's type (a float literal of selp.f32);
        # registers are copied bit for bit.
        ra = self._bits(a, ty if isinstance(a, (Imm, FloatImm)) else bt)
        rb = self._bits(b, ty if isinstance(b, (Imm, FloatImm)) else bt)
        rp = self._bits(p, PRED)
        w = self._bits_writer(d, bt)
        return lambda c, m: w(c, np.where(rp(c), ra(c), rb(c)), m)


def _unord(f):
    return lambda x, y: f(x, y) | np.isnan(x) | np.isnan(y)


_CMP: dict[str, Callable] = {
    "eq": np.equal, "ne": lambda x, y: _ordered_ne(x, y),
    "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
    "lo": np.less, "ls": np.less_equal, "hi": np.greater, "hs": np.greater_equal,
    "equ": _unord(np.equal), "neu": np.not_equal, "ltu": _unord(np.less), "leu": _unord(np.less_equal),
    "gtu": _unord(np.greater), "geu": _unord(np.greater_equal),
    "num": lambda x, y: ~np.isnan(x) & ~np.isnan(y), "nan": lambda x, y: np.isnan(x) | np.isnan(y),
}


def _ordered_ne(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "f":
        return np.not_equal(x, y) & ~np.isnan(x) & ~np.isnan(y)
    return np.not_equal(x, y)


_FLOAT_ONLY_CMP = {"equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"}


def _int_compare(cmp: str, x: np.ndarray, y: np.ndarray, unsigned: bool) -> np.ndarray:
    if cmp in ("lo", "ls", "hi", "hs") and not unsigned:
        x = x.view(UINT_DTYPE[x.dtype.itemsize * 8])
        y = y.view(UINT_DTYPE[y.dtype.itemsize * 8])
    return _CMP[cmp](x, y)
