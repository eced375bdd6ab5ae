"""What every instruction family works on, and the operand access they share.

An instruction is decoded once into a function ``fn(cta, mask)``: ``cta`` is a
:class:`Cta` (registers as numpy vectors with one entry per thread, raw bits
of the declared width; special registers; shared memory; live threads),
``mask`` the threads that execute the instruction (None: all of them). It
returns None (go on), a code index (a branch taken) or :data:`END_OF_THREAD` (the CTA
is done), and raises :class:`~ltc.lowering.ptxsim.errors.Fault` on a fault.

:class:`MachineState` is the base of every family mixin and of the machine: the
launch attributes decoding reads, and the closures every family builds from an
operand (readers of its bits or value, writers of a destination, address
readers) plus the per-warp activity and shared-bounds helpers.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ltc.lowering.ptxsim.errors import Fault
from ltc.lowering.ptxsim.memory import SHARED_BASE, SHARED_WINDOW, GlobalMemory
from ltc.lowering.ptxsim.parse import (
    Address,
    FloatImm,
    Imm,
    Instruction,
    Kernel,
    Not,
    Operand,
    PtxModule,
    Reg,
    Sink,
    Symbol,
    is_special_register,
)
from ltc.lowering.ptxsim.races import SharedRaces
from ltc.lowering.ptxsim.rounding import round_f64
from ltc.lowering.ptxsim.stats import Counters
from ltc.lowering.ptxsim.values import (
    FLOAT_KINDS,
    U32,
    U64,
    UINT_DTYPE,
    extend_bits,
    fit_bits,
    float_target,
    from_bits,
    split_modifiers,
    to_bits,
    PtxType,
)

__all__ = ["WARP", "MachineState"]

WARP = 32


class Cta:
    """One CTA while it runs: registers, special registers, shared memory, live threads."""

    __slots__ = ("regs", "special", "smem", "alive", "full", "alive_warps", "ctaid", "races")

    def __init__(self) -> None:
        self.regs: list[np.ndarray] = []
        self.special: dict[str, np.ndarray] = {}
        self.smem = np.zeros(0, np.uint8)
        self.alive = np.zeros(0, bool)
        self.full = True
        self.alive_warps = 0
        self.ctaid = (0, 0, 0)
        self.races = SharedRaces(0)


_SPECIAL_U64 = {"%clock64", "%globaltimer", "%gridid"}

# What an instruction's function returns when its CTA has finished.
END_OF_THREAD = object()


class MachineState:
    """A launch as decoding sees it, and the operand readers and writers built from it.

    The machine's constructor sets every attribute below before it decodes; the
    family mixins only read them (and ``counters`` while running).
    """

    module: PtxModule
    kernel: Kernel
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    warps: int  # warps per CTA
    tp: int  # threads per CTA padded to whole warps: the length of every register vector
    lane: np.ndarray  # per thread: its lane
    warp_base: np.ndarray  # per thread: the first thread of its warp
    mem: GlobalMemory
    symbols: dict[str, tuple[str, int]]  # name -> (space, address)
    slot_types: list[PtxType]  # register slot -> storage type
    labels: dict[str, int]  # label -> code index
    counters: Counters
    shared_size: int  # end of the shared addresses, which start at SHARED_BASE
    param_buf: np.ndarray
    param_size: int
    _scopes: list[dict[str, int]]  # while decoding: register name -> slot, innermost last

    # ------------------------------------------------------------ registers
    def _slot(self, reg: Reg) -> int:
        for scope in reversed(self._scopes):
            if reg.name in scope:
                return scope[reg.name]
        raise Fault(f"undeclared register {reg.name}")

    # ------------------------------------------------------------ operand access
    def _const(self, op: Operand, ty: PtxType) -> np.ndarray:
        """Raw bits (full-length array) of an immediate or symbol operand read as ``ty``."""
        if ty.kind == "pred":
            if isinstance(op, Imm):
                return np.full(self.tp, bool(op.value))
            raise Fault(f"operand {op} is not a predicate")
        ut = UINT_DTYPE[ty.bits] if ty.bits in UINT_DTYPE else None
        if isinstance(op, Symbol):
            if op.name not in self.symbols or self.symbols[op.name][0] == "param":
                raise Fault(f"'{op.name}' is not a variable whose address can be taken")
            return np.full(self.tp, self.symbols[op.name][1] & ((1 << ty.bits) - 1), ut)
        if ty.kind in FLOAT_KINDS:
            if isinstance(op, Imm):
                value = float(op.value)
            elif isinstance(op, FloatImm):
                if op.width == ty.bits and ty.kind == "f":
                    return np.full(self.tp, op.bits, ut)
                value = op.value
            else:
                raise Fault(f"operand {op} is not a constant")
            target = float_target(ty)
            v = round_f64(np.full(self.tp, value), target)
            if ty.kind in ("f16x2", "bf16x2"):
                v = np.stack([v, v], axis=1)
            return to_bits(ty)(v)
        if isinstance(op, Imm):
            return np.full(self.tp, op.value & ((1 << ty.bits) - 1), ut)
        if isinstance(op, FloatImm):
            if op.width != ty.bits:
                raise Fault(f"{op.width}-bit float literal {op} used as .{ty.name}")
            return np.full(self.tp, op.bits, ut)
        raise Fault(f"operand {op} is not a constant")

    def _bits(self, op: Operand, ty: PtxType) -> Callable[[Cta], np.ndarray]:
        """Reader of ``op``'s raw bits as ``ty`` (uint of ty.bits; bool for pred)."""
        if isinstance(op, Not):
            if ty.kind != "pred":
                raise Fault(f"'!{op.reg}' where a .{ty.name} value is expected")
            inner = self._bits(op.reg, ty)
            return lambda c: ~inner(c)
        if isinstance(op, Reg):
            if is_special_register(op.name) and not any(op.name in s for s in self._scopes):
                name = op.name
                if ty.kind == "pred":
                    raise Fault(f"special register {name} is not a predicate")
                w = ty.bits
                return lambda c: fit_bits(c.special[name], w)
            slot = self._slot(op)
            st = self.slot_types[slot]
            if ty.kind == "pred" or st.kind == "pred":
                if ty.kind != st.kind:
                    raise Fault(f"register {op.name} is .{st.name}, the instruction reads .{ty.name}")
                return lambda c: c.regs[slot]
            if st.bits == ty.bits:
                return lambda c: c.regs[slot]
            w = ty.bits
            return lambda c: fit_bits(c.regs[slot], w)
        const = self._const(op, ty)
        return lambda c: const

    def _value(self, op: Operand, ty: PtxType) -> Callable[[Cta], np.ndarray]:
        """Reader of ``op`` as ``ty``'s compute value (ints, floats; bf16 as float32)."""
        raw = self._bits(op, ty)
        conv = from_bits(ty)
        if conv is None:
            return raw
        return lambda c: conv(raw(c))

    def _bits_writer(self, op: Operand, ty: PtxType) -> Callable[[Cta, np.ndarray, np.ndarray | None], None]:
        if isinstance(op, Sink):
            return lambda c, v, m: None
        if not isinstance(op, Reg) or is_special_register(op.name) and not any(op.name in s for s in self._scopes):
            raise Fault(f"cannot write to {op}")
        slot = self._slot(op)
        st = self.slot_types[slot]
        if (st.kind == "pred") != (ty.kind == "pred"):
            raise Fault(f"register {op.name} is .{st.name}, the instruction writes .{ty.name}")
        src_w, dst_w, signed = ty.bits, st.bits, ty.kind == "s"
        tp = self.tp

        def write(c: Cta, bits: np.ndarray, mask: np.ndarray | None) -> None:
            if st.kind != "pred":
                bits = extend_bits(bits, src_w, dst_w, signed)
            if bits.shape != (tp,):
                bits = np.broadcast_to(bits, (tp,)).copy()
            elif not bits.flags.c_contiguous:
                bits = np.ascontiguousarray(bits)
            c.regs[slot] = bits if mask is None else np.where(mask, bits, c.regs[slot])

        return write

    def _writer(self, op: Operand, ty: PtxType, canon: bool = False):
        w = self._bits_writer(op, ty)
        conv = to_bits(ty, canon)
        return lambda c, v, m: w(c, conv(v), m)

    def _address(self, op: Operand, space: str) -> Callable[[Cta], np.ndarray]:
        """Reader of an address operand's value (int64) in ``space``."""
        if not isinstance(op, Address):
            raise Fault(f"expected an address [..], got {op}")
        off = op.offset
        if op.base is None:
            const = np.full(self.tp, off, np.int64)
            return lambda c: const
        if isinstance(op.base, Symbol):
            name = op.base.name
            if name not in self.symbols:
                raise Fault(f"unknown symbol '{name}'")
            sp, addr = self.symbols[name]
            if sp == "param" and space != "param":
                raise Fault(f"'{name}' is a kernel parameter; read it with ld.param")
            if sp != "param" and space == "param":
                raise Fault(f"'{name}' is not a kernel parameter")
            if sp == "shared" and space not in ("shared", "generic"):
                raise Fault(f"'{name}' is a .shared variable, accessed as .{space}")
            if sp == "shared" and space == "generic":
                addr += SHARED_WINDOW
            const = np.full(self.tp, addr + off, np.int64)
            return lambda c: const
        slot_reader = self._bits(op.base, U64 if self._reg_bits(op.base) == 64 else U32)
        o = np.int64(off)
        return lambda c: slot_reader(c).astype(np.int64) + o

    def _reg_bits(self, reg: Reg) -> int:
        if is_special_register(reg.name) and not any(reg.name in s for s in self._scopes):
            return 64 if reg.name in _SPECIAL_U64 else 32
        return self.slot_types[self._slot(reg)].bits

    def _operands(self, ins: Instruction, n: int, at_least: bool = False) -> tuple[Operand, ...]:
        ops = ins.operands
        if (len(ops) < n) if at_least else (len(ops) != n):
            raise Fault(f"'{ins.mnemonic}' takes {n}{' or more' if at_least else ''} operands, got {len(ops)}")
        return ops

    def _one_type(self, ins: Instruction) -> tuple[PtxType, list[str]]:
        types, flags = split_modifiers(ins.modifiers)
        if len(types) != 1:
            raise Fault(f"'{ins.mnemonic}': expected one type modifier")
        return types[0], flags

    # ------------------------------------------------------------ helpers for execution
    def _active_idx(self, mask: np.ndarray | None) -> np.ndarray | None:
        return None if mask is None else np.flatnonzero(mask)

    def _warps_of(self, mask: np.ndarray | None) -> np.ndarray:
        """The warp of each executing thread, in thread order."""
        threads = np.arange(self.tp) if mask is None else np.flatnonzero(mask)
        return threads // WARP

    def _active_warps(self, mask: np.ndarray | None) -> int:
        if mask is None:
            return self.warps
        return int(mask.reshape(self.warps, WARP).any(axis=1).sum())

    def _full_warps(self, m: np.ndarray | None, what: str) -> np.ndarray:
        """The warps executing a warp-collective instruction ``what``; a fault when some
        warp executes it with only part of its lanes."""
        if m is None:
            return np.arange(self.warps)
        per = m.reshape(self.warps, WARP)
        part = per.any(axis=1) & ~per.all(axis=1)
        if part.any():
            raise Fault(f"{what} executed by only part of warp {int(np.flatnonzero(part)[0])}")
        return np.flatnonzero(per.all(axis=1))

    # ------------------------------------------------------------ shared memory bounds
    def _shared_check(self, av: np.ndarray, size: int, what: str) -> np.ndarray:
        if av.size and (av.min() < SHARED_BASE or av.max() + size > self.shared_size):
            bad = av[(av < SHARED_BASE) | (av + size > self.shared_size)][0]
            raise Fault(
                f"shared {what} of {size} bytes at {int(bad):#x} is outside shared memory "
                f"[{SHARED_BASE:#x}, {self.shared_size:#x})"
            )
        return av - SHARED_BASE
