"""Memory instructions: ld/ldu/st, atom/red, cp.async, cvta, isspacep, createpolicy.

Loads and stores move 1 to 16 bytes per thread (``.v2/.v4/.v8``) in the param,
global, const, shared and generic spaces; a generic address is shared when it
lies in the shared window. An access must be aligned to its size. A shared
access counts wavefronts per warp
(:func:`~ltc.lowering.plans.banks.plain_access_wavefronts`), a global one counts
per access width. Atomics run thread by thread in thread order. ``cp.async``
copies at once (lockstep needs no waiting).

A mixin of :class:`~ltc.lowering.ptxsim.state.MachineState`: each
``_op_<opcode>(ins)`` returns the instruction's function.
"""

from __future__ import annotations

import numpy as np

from ltc.lowering.plans.banks import plain_access_wavefronts
from ltc.lowering.ptxsim.errors import Fault
from ltc.lowering.ptxsim.memory import (
    SHARED_BASE,
    SHARED_WINDOW,
    pack_elements,
    unpack_elements,
    view_read,
    view_write,
)
from ltc.lowering.ptxsim.parse import FloatImm, Imm, Instruction, Not, Reg, Symbol, Vector, is_special_register
from ltc.lowering.ptxsim.state import MachineState, Cta
from ltc.lowering.ptxsim.values import (
    BIT_TYPES,
    FLOAT_KINDS,
    PRED,
    PTX_TYPES,
    U32,
    U64,
    UINT_DTYPE,
    from_bits,
    split_modifiers,
    to_bits,
    PtxType,
)

__all__ = ["MemoryOps"]


class MemoryOps(MachineState):
    """Loads, stores, atomics, async copies and address-space conversions."""

    def _mem_parts(self, ins: Instruction) -> tuple[str, int, PtxType]:
        space = "generic"
        vec = 1
        types = []
        for mod in ins.modifiers:
            base = mod.split("::", 1)[0]
            if base in ("global", "shared", "param", "local", "const"):
                space = base
            elif mod in ("v2", "v4", "v8"):
                vec = int(mod[1])
            elif mod in PTX_TYPES:
                types.append(PTX_TYPES[mod])
        if len(types) != 1:
            raise Fault(f"'{ins.mnemonic}': expected one type")
        ty = types[0]
        if ty.kind == "pred" or ty.bits not in UINT_DTYPE:
            raise Fault(f"'{ins.mnemonic}': cannot access memory as .{ty.name}")
        if space == "local":
            raise Fault("local memory is not supported")
        if ty.bits * vec > 128:
            raise Fault(f"'{ins.mnemonic}': accesses of more than 128 bits are not supported")
        return space, vec, ty

    def _op_ld(self, ins: Instruction):
        space, vec, ty = self._mem_parts(ins)
        ops = self._operands(ins, 2, at_least=True)
        dst, addr = ops[0], ops[1]
        elems = list(dst.elements) if isinstance(dst, Vector) else [dst]
        if len(elems) != vec:
            raise Fault(f"'{ins.mnemonic}' loads {vec} value(s) but names {len(elems)} destination(s)")
        writers = [self._bits_writer(e, ty) for e in elems]
        ra = self._address(addr, space)
        size = ty.bits * vec // 8
        ew = ty.bits
        line = ins.line
        tp = self.tp
        ut = UINT_DTYPE[ew]

        def run(c, m):
            a = ra(c)
            idx = self._active_idx(m)
            av = a if idx is None else a[idx]
            word = self._load(c, space, av, size, m, a, line)
            vals = unpack_elements(word, ew, vec)
            for k, w in enumerate(writers):
                if idx is None:
                    w(c, vals[:, k], m)
                else:
                    full = np.zeros(tp, ut)
                    full[idx] = vals[:, k]
                    w(c, full, m)

        return run

    _op_ldu = _op_ld

    def _op_st(self, ins: Instruction):
        space, vec, ty = self._mem_parts(ins)
        ops = self._operands(ins, 2, at_least=True)
        addr, src = ops[0], ops[1]
        if space == "param":
            raise Fault("stores to .param space are not supported")
        elems = list(src.elements) if isinstance(src, Vector) else [src]
        if len(elems) != vec:
            raise Fault(f"'{ins.mnemonic}' stores {vec} value(s) but names {len(elems)} source(s)")
        readers = [self._bits(e, ty) for e in elems]
        ra = self._address(addr, space)
        size = ty.bits * vec // 8
        ew = ty.bits
        line = ins.line

        def run(c, m):
            a = ra(c)
            idx = self._active_idx(m)
            vals = [r(c) for r in readers]
            if idx is not None:
                vals = [v[idx] for v in vals]
            av = a if idx is None else a[idx]
            word = pack_elements(vals, ew)
            self._store(c, space, av, size, word, m, a, line)

        return run

    def _check_align(self, addr: np.ndarray, size: int, what: str) -> None:
        if size > 1 and np.any(addr % size):
            bad = int(addr[(addr % size) != 0][0])
            raise Fault(f"{what}: address {bad:#x} is not aligned to {size} bytes")

    def _split_generic(self, addr: np.ndarray):
        return (addr >= SHARED_WINDOW) & (addr < SHARED_WINDOW + (1 << 32))

    def _load(self, c: Cta, space: str, av: np.ndarray, size: int, mask, full_addr, line: int) -> np.ndarray:
        """Read ``size`` bytes at the executing threads' addresses ``av``; count the access."""
        self._check_align(av, size, "load")
        if space == "param":
            if av.size and (av.min() < 0 or av.max() + size > self.param_size):
                raise Fault(f"ld.param outside the {self.param_size}-byte parameter block")
            return view_read(self.param_buf, av, size)
        if space == "generic":
            sh = self._split_generic(av)
            if sh.all():
                return self._load(c, "shared", av - SHARED_WINDOW, size, mask, full_addr - SHARED_WINDOW, line)
            if not sh.any():
                return self._load(c, "global", av, size, mask, full_addr, line)
            sh_full = self._split_generic(full_addr)
            a = self._load(c, "shared", av[sh] - SHARED_WINDOW, size, _mask_and(mask, sh_full),
                           full_addr - SHARED_WINDOW, line)
            b = self._load(c, "global", av[~sh], size, _mask_and(mask, ~sh_full), full_addr, line)
            out = np.zeros((av.size,) + a.shape[1:], a.dtype)
            out[sh], out[~sh] = a, b
            return out
        if space in ("global", "const"):
            k = self.counters
            k.global_loads[size * 8] = k.global_loads.get(size * 8, 0) + self._active_warps(mask)
            return self.mem.read(av, size, "load")
        out = self._shared_read(c, av, size, "load")
        c.races.read(av - SHARED_BASE, size, self._warps_of(mask), line)
        self._count_shared(c, full_addr, size, mask, line, store=False)
        return out

    def _store(self, c: Cta, space: str, av: np.ndarray, size: int, word: np.ndarray, mask, full_addr, line) -> None:
        self._check_align(av, size, "store")
        if space == "generic":
            sh = self._split_generic(av)
            sh_full = self._split_generic(full_addr)
            if sh.any():
                self._store(c, "shared", av[sh] - SHARED_WINDOW, size, word[sh], _mask_and(mask, sh_full),
                            full_addr - SHARED_WINDOW, line)
            if (~sh).any():
                self._store(c, "global", av[~sh], size, word[~sh], _mask_and(mask, ~sh_full), full_addr, line)
            return
        if space in ("global", "const"):
            k = self.counters
            k.global_stores[size * 8] = k.global_stores.get(size * 8, 0) + self._active_warps(mask)
            self.mem.write(av, size, word, "store")
            return
        self._tracked_shared_write(c, av, size, word, "store", mask, line)
        self._count_shared(c, full_addr, size, mask, line, store=True)

    def _shared_read(self, c: Cta, av: np.ndarray, size: int, what: str) -> np.ndarray:
        off = self._shared_check(av, size, what)
        return view_read(c.smem, off, size)

    def _shared_write(self, c: Cta, av: np.ndarray, size: int, word: np.ndarray, what: str) -> None:
        off = self._shared_check(av, size, what)
        view_write(c.smem, off, size, word)

    def _tracked_shared_write(self, c: Cta, av: np.ndarray, size: int, word: np.ndarray, what: str, mask,
                              line: int) -> None:
        """A shared write that the race check sees (atomics use :meth:`_shared_write`)."""
        off = self._shared_check(av, size, what)
        c.races.write(c.smem, off, size, self._warps_of(mask), word, line)
        view_write(c.smem, off, size, word)

    def _count_shared(self, c: Cta, full_addr: np.ndarray, size: int, mask, line: int, store: bool) -> None:
        k = self.counters
        nw = self._active_warps(mask)
        if store:
            k.shared_stores += nw
        else:
            k.shared_loads += nw
        wf, lb = plain_access_wavefronts(full_addr, size, mask, load=not store)
        k.wavefronts(line, wf, lb, store)

    # ------------------------------------------------------------ atomics
    def _op_atom(self, ins: Instruction):
        return self._atomic(ins, returns=True)

    def _op_red(self, ins: Instruction):
        return self._atomic(ins, returns=False)

    def _atomic(self, ins: Instruction, returns: bool):
        space = "generic"
        op = None
        types = []
        for mod in ins.modifiers:
            base = mod.split("::", 1)[0]
            if base in ("global", "shared"):
                space = base
            elif mod in _ATOM_OPS:
                op = mod
            elif mod in PTX_TYPES:
                types.append(PTX_TYPES[mod])
            elif mod in ("v2", "v4", "v8"):
                raise Fault("vector atomics are not supported")
        if op is None or len(types) != 1:
            raise Fault(f"'{ins.mnemonic}': expected an operation and a type")
        ty = types[0]
        ops = ins.operands
        if returns:
            need = 5 if op == "cas" else 4
            if len(ops) < need - 1:
                raise Fault(f"'{ins.mnemonic}' has too few operands")
            d, addr, b = ops[0], ops[1], ops[2]
            e = ops[3] if op == "cas" else None
            wr = self._bits_writer(d, ty if ty.kind != "s" else BIT_TYPES[ty.bits])
        else:
            addr, b = ops[0], ops[1]
            e = None
            wr = None
        bt = BIT_TYPES[ty.bits] if ty.bits in BIT_TYPES else ty
        rb = self._bits(b, ty if isinstance(b, (Imm, FloatImm)) else bt)
        re = self._bits(e, ty if isinstance(e, (Imm, FloatImm)) else bt) if e is not None else None
        ra = self._address(addr, space)
        size = ty.bits // 8
        tp = self.tp
        combine = _atomic_combiner(op, ty)

        def run(c, m):
            a = ra(c)
            idx = np.arange(tp) if m is None else np.flatnonzero(m)
            bv, ev = rb(c), (re(c) if re is not None else None)
            old_all = np.zeros(tp, UINT_DTYPE[ty.bits])
            self._check_align(a[idx], size, "atomic")
            for t in idx:
                at = a[t : t + 1]
                old = self._atomic_read(c, space, at, size)
                new = combine(old, bv[t : t + 1], ev[t : t + 1] if ev is not None else None)
                self._atomic_write(c, space, at, size, new.astype(UINT_DTYPE[ty.bits]))
                old_all[t] = old[0]
            self.counters.atomics += self._active_warps(m)
            if wr is not None:
                wr(c, old_all, m)

        return run

    def _atomic_read(self, c: Cta, space: str, at: np.ndarray, size: int) -> np.ndarray:
        if space == "shared":
            return self._shared_read(c, at, size, "atomic")
        if space == "generic" and self._split_generic(at)[0]:
            return self._shared_read(c, at - SHARED_WINDOW, size, "atomic")
        return self.mem.read(at, size, "atomic")

    def _atomic_write(self, c: Cta, space: str, at: np.ndarray, size: int, v: np.ndarray) -> None:
        if space == "shared":
            self._shared_write(c, at, size, v, "atomic")
        elif space == "generic" and self._split_generic(at)[0]:
            self._shared_write(c, at - SHARED_WINDOW, size, v, "atomic")
        else:
            self.mem.write(at, size, v, "atomic")

    def _op_cp(self, ins: Instruction):
        """``cp.async`` global -> shared copies, done at once (lockstep needs no waiting)."""
        mods = ins.modifiers
        if not mods or mods[0] != "async":
            raise Fault(f"unsupported instruction '{ins.mnemonic}'")
        rest = mods[1:]
        if rest and rest[0] in ("commit_group", "wait_group", "wait_all"):
            return lambda c, m: None
        if any(x.startswith("bulk") or x.startswith("mbarrier") for x in rest):
            raise Fault(f"'{ins.mnemonic}' is not supported")
        ops = self._operands(ins, 3, at_least=True)
        dst, src, size_op = ops[0], ops[1], ops[2]
        if not isinstance(size_op, Imm) or size_op.value not in (4, 8, 16):
            raise Fault("cp.async copies 4, 8 or 16 bytes")
        size = size_op.value
        hint = any("cache_hint" in x for x in rest)
        extra = list(ops[3 : len(ops) - (1 if hint else 0)])
        src_size = ignore = None
        if extra:
            e = extra[0]
            is_pred = isinstance(e, Not) or (
                isinstance(e, Reg) and not is_special_register(e.name) and self.slot_types[self._slot(e)].kind == "pred"
            )
            if is_pred:
                ignore = self._bits(e, PRED)
            else:
                src_size = self._value(e, U32)
        rd = self._address(dst, "shared")
        rsrc = self._address(src, "global")
        line = ins.line

        def run(c, m):
            idx = self._active_idx(m)
            d, s = rd(c), rsrc(c)
            dv = d if idx is None else d[idx]
            sv = s if idx is None else s[idx]
            self._check_align(dv, size, "cp.async")
            if src_size is not None:
                n = src_size(c).astype(np.int64)
            elif ignore is not None:
                n = np.where(ignore(c), 0, size)
            else:
                n = np.full(self.tp, size)
            nv = n if idx is None else n[idx]
            raw = np.zeros((dv.size, size), np.uint8)
            reads = nv > 0
            if reads.any():
                data = self.mem.read(sv[reads], size, "cp.async")
                raw[reads] = np.ascontiguousarray(data).view(np.uint8).reshape(-1, size)
            raw = np.where(np.arange(size)[None, :] < nv[:, None], raw, 0).astype(np.uint8)
            word = raw.view(np.uint64).reshape(-1, 2) if size == 16 else raw.view(UINT_DTYPE[size * 8]).reshape(-1)
            self._tracked_shared_write(c, dv, size, word, "cp.async", m, line)
            k = self.counters
            k.global_loads[size * 8] = k.global_loads.get(size * 8, 0) + self._active_warps(m)
            wf, lb = plain_access_wavefronts(d, size, m)
            k.wavefronts(line, wf, lb, True)

        return run

    # ------------------------------------------------------------ address spaces
    def _op_createpolicy(self, ins: Instruction):
        d = ins.operands[0]
        w = self._bits_writer(d, BIT_TYPES[64])
        zero = np.zeros(self.tp, np.uint64)
        return lambda c, m: w(c, zero, m)

    def _op_cvta(self, ins: Instruction):
        ty, flags = self._one_type(ins)
        d, a = self._operands(ins, 2)
        to = "to" in flags
        spaces = [f for f in flags if f.split("::")[0] in ("global", "shared", "const", "local", "param")]
        if not spaces:
            raise Fault("cvta needs a state space")
        space = spaces[0].split("::")[0]
        if space == "local" or space == "param":
            raise Fault(f"cvta of .{space} addresses is not supported")
        if isinstance(a, Symbol):
            if a.name not in self.symbols:
                raise Fault(f"unknown symbol '{a.name}'")
            addr = self.symbols[a.name][1]
            src = lambda c, _v=np.full(self.tp, addr, np.int64): _v  # noqa: E731
        else:
            r = self._bits(a, ty)
            src = lambda c: r(c).astype(np.int64)  # noqa: E731
        delta = 0
        if space == "shared":
            delta = -SHARED_WINDOW if to else SHARED_WINDOW
        w = self._bits_writer(d, BIT_TYPES[ty.bits])
        ut = UINT_DTYPE[ty.bits]
        return lambda c, m: w(c, (src(c) + delta).astype(ut), m)

    def _op_isspacep(self, ins: Instruction):
        _, flags = split_modifiers(ins.modifiers)
        p, a = self._operands(ins, 2)
        space = flags[0].split("::")[0]
        r = self._bits(a, U64)
        w = self._bits_writer(p, PRED)

        def run(c, m):
            v = r(c).astype(np.int64)
            in_sh = (v >= SHARED_WINDOW) & (v < SHARED_WINDOW + (1 << 32))
            res = in_sh if space == "shared" else (~in_sh if space in ("global", "const") else np.zeros_like(in_sh))
            w(c, res, m)

        return run


_ATOM_OPS = {"add", "inc", "dec", "min", "max", "and", "or", "xor", "exch", "cas"}


def _mask_and(mask: np.ndarray | None, sel: np.ndarray) -> np.ndarray:
    return sel if mask is None else mask & sel


def _atomic_combiner(op: str, ty: PtxType):
    conv = from_bits(ty)
    back = to_bits(ty)

    def val(bits):
        return conv(bits) if conv is not None else bits

    def combine(old, b, e):
        x, y = val(old), val(b)
        if op == "add":
            r = x + y
        elif op == "min":
            r = np.fmin(x, y) if ty.kind in FLOAT_KINDS else np.minimum(x, y)
        elif op == "max":
            r = np.fmax(x, y) if ty.kind in FLOAT_KINDS else np.maximum(x, y)
        elif op == "and":
            return old & b
        elif op == "or":
            return old | b
        elif op == "xor":
            return old ^ b
        elif op == "exch":
            return b
        elif op == "cas":
            return np.where(old == b, e, old)
        elif op == "inc":
            return np.where(old >= b, old.dtype.type(0), old + old.dtype.type(1))
        elif op == "dec":
            return np.where((old == 0) | (old > b), b, old - old.dtype.type(1))
        else:  # pragma: no cover
            raise Fault(op)
        return back(r)

    return combine
