"""The machine of one launch: memory and argument setup, decoding, and the lockstep run loop.

:class:`Machine` lays out the variables, binds the arguments, decodes the
kernel once, runs every CTA of the grid and returns the
:class:`~ltc.lowering.ptxsim.stats.PtxStats`; :mod:`~ltc.lowering.ptxsim.run`
is the entry point that validates a launch and builds one.

Execution model
---------------
* CTAs run one after another (in ``ctaid`` order, x fastest); all threads of a
  CTA run in lockstep. Each register is a numpy vector with one entry per thread
  holding raw bits of the register's declared width (``.pred``: bool), a poison
  value until its first write (:data:`REGISTER_POISON`); an instruction
  reinterprets the bits by its type. Threads are padded to whole
  warps; padding threads never execute.
* A guard ``@%p`` / ``@!%p`` masks the threads that execute an instruction.
  Branches must be uniform over the live threads of the CTA: a ``bra`` that some
  live threads take and others do not raises :class:`SimulationError` naming the
  line. ``ret``/``exit`` under a guard retire those threads.
* Each instruction is decoded once, before the first CTA, into a function of
  (CTA state, executing threads) by the ``_op_<opcode>`` method of its family
  (the ``ops_*`` modules, which :class:`Machine` combines); the run loop only
  evaluates guards, calls those functions and follows branches.

Memory, warp-level instructions, floating point and what is counted how are
described in :mod:`~ltc.lowering.ptxsim.memory`,
:mod:`~ltc.lowering.ptxsim.ops_warp`, :mod:`~ltc.lowering.ptxsim.ops_arith` and
:mod:`~ltc.lowering.ptxsim.stats`.
"""

from __future__ import annotations

import struct
from typing import Any, Sequence

import numpy as np

from ltc.lowering.ptxsim.errors import SimulationError, Fault
from ltc.lowering.ptxsim.memory import EXTERN_SHARED_BYTES, SHARED_BASE, GlobalMemory, Region
from ltc.lowering.ptxsim.ops_arith import ArithmeticOps
from ltc.lowering.ptxsim.ops_bits import BitOps
from ltc.lowering.ptxsim.ops_compare import CompareOps
from ltc.lowering.ptxsim.ops_control import ControlOps
from ltc.lowering.ptxsim.ops_convert import ConvertOps
from ltc.lowering.ptxsim.ops_memory import MemoryOps
from ltc.lowering.ptxsim.ops_mma import MmaOps
from ltc.lowering.ptxsim.ops_warp import WarpOps
from ltc.lowering.ptxsim.parse import (
    Block,
    Instruction,
    Kernel,
    Label,
    PtxModule,
    RegDecl,
    VarDecl,
)
from ltc.lowering.ptxsim.races import SharedRaces
from ltc.lowering.ptxsim.state import END_OF_THREAD, WARP, Cta
from ltc.lowering.ptxsim.stats import PtxStats, Counters
from ltc.lowering.ptxsim.values import BIT_TYPES, FLOAT_DTYPE, PTX_TYPES, UINT_DTYPE, f32_to_bf16_bits, PtxType


class _Op:
    """A decoded instruction: its function, and the predicate slot of its guard (None: none)."""

    __slots__ = ("fn", "guard", "negated", "ins")

    def __init__(self, fn, guard: int | None, negated: bool, ins: Instruction) -> None:
        self.fn = fn
        self.guard = guard
        self.negated = negated
        self.ins = ins


REGISTER_POISON = {8: 0x7F, 16: 0x7BFF, 32: 0x7F7FA5A5, 64: 0x7FEFA5A5A5A5A5A5}
"""What a register holds before its first write, per width: on a GPU its old contents,
here a value no kernel computes by chance (as a float the largest finite magnitude, so
a sum that reads it is visibly wrong), XORed with the thread index so threads differ.
A read before any write (a masked-off load with nothing moved in first, say) then
shows in the results as it would on the hardware, instead of reading a friendly 0."""
SHARED_POISON = 0x7F
"""Every byte of shared memory before its first write (f32 ``0x7F7F7F7F``: about 3.4e38)."""
_POISON_THREAD_BITS = {8: 0, 16: 0xFF, 32: 0xFFFF, 64: 0xFFFF}
"""The mantissa bits the thread index may change (the exponent stays the largest)."""


def poisoned_register(kind: str, bits: int, threads: int) -> np.ndarray:
    """One register slot for ``threads`` threads, before its first write: predicates
    false, other kinds :data:`REGISTER_POISON` XOR the thread index."""
    if kind == "pred":
        return np.zeros(threads, bool)
    low = np.arange(threads, dtype=np.uint64) & np.uint64(_POISON_THREAD_BITS[bits])
    return (np.uint64(REGISTER_POISON[bits]) ^ low).astype(UINT_DTYPE[bits])


class Machine(ArithmeticOps, BitOps, CompareOps, ConvertOps, MemoryOps, WarpOps, MmaOps, ControlOps):
    """One launch: decoded code, memory, counters; runs CTAs one at a time.

    The instruction families come from the mixins; :meth:`_decode` picks an
    instruction's ``_op_<opcode>`` method from whichever family defines it.
    """

    def __init__(self, module: PtxModule, kernel: Kernel, grid: tuple[int, int, int],
                 block: tuple[int, int, int], args: Sequence[Any], max_steps: int) -> None:
        self.module = module
        self.kernel = kernel
        self.grid = grid
        self.block = block
        self.threads = block[0] * block[1] * block[2]
        self.warps = (self.threads + WARP - 1) // WARP
        self.tp = self.warps * WARP
        self.max_steps = max_steps
        t = np.arange(self.tp)
        self.t = t
        self.lane = (t % WARP).astype(np.int64)
        self.warp_of = t // WARP
        self.warp_base = self.warp_of * WARP
        self.exists = t < self.threads
        self.mem = GlobalMemory()
        self.symbols: dict[str, tuple[str, int]] = {}  # name -> (space, address)
        self._layout_variables()
        self._bind_params(args)
        self.slot_types: list[PtxType] = []
        self.labels: dict[str, int] = {}
        self.code: list[_Op] = []
        self._decode_kernel()
        self.counters = Counters(len(self.code))

    # ------------------------------------------------------------ setup
    def _layout_variables(self) -> None:
        """Addresses of module / kernel variables: shared ones from SHARED_BASE, the
        ``.extern .shared`` arrays (dynamic shared memory, all at one address) last."""
        shared_end = SHARED_BASE
        externs: list[VarDecl] = []
        for v in list(self.module.variables) + _walk_vars(self.kernel.statements):
            if v.space == "shared":
                if v.size is None:
                    if not v.extern:
                        raise SimulationError(f"shared array '{v.name}' has no size", v.line)
                    externs.append(v)
                    continue
                shared_end = (shared_end + v.align - 1) // v.align * v.align
                self.symbols[v.name] = ("shared", shared_end)
                shared_end += v.size
            elif v.space in ("global", "const"):
                if v.size is None:
                    raise SimulationError(f"{v.space} array '{v.name}' has no size", v.line)
                data = _init_bytes(v, v.size, self.symbols, self.mem)
                r = self.mem.add(v.name, data, None)
                self.symbols[v.name] = ("global", r.base)
            else:
                raise SimulationError(f".{v.space} variables are not supported ('{v.name}')", v.line)
        if externs:
            align = max(v.align for v in externs)
            shared_end = (shared_end + align - 1) // align * align
            for v in externs:
                self.symbols[v.name] = ("shared", shared_end)
            shared_end += EXTERN_SHARED_BYTES
        self.shared_size = shared_end

    def _bind_params(self, args: Sequence[Any]) -> None:
        params = self.kernel.params
        if len(args) != len(params):
            names = ", ".join(p.name for p in params)
            raise SimulationError(
                f"kernel '{self.kernel.name}' takes {len(params)} arguments ({names}), got {len(args)}"
            )
        buf = bytearray()
        seen: dict[int, Region] = {}
        for p, a in zip(params, args):
            align = max(p.align or 1, min(8, _param_elem_bytes(p))) if p.dims else min(8, p.size)
            while len(buf) % max(1, align):
                buf.append(0)
            self.symbols[p.name] = ("param", len(buf))
            buf += self._param_bytes(p, a, seen)
        padded = bytes(buf) + bytes(16 + (-len(buf)) % 16)
        self.param_buf = np.frombuffer(padded, np.uint8).copy()
        self.param_size = len(buf)

    def _param_bytes(self, p, a, seen: dict[int, "Region"]) -> bytes:
        ty = PTX_TYPES.get(p.type)
        if p.dims:
            if isinstance(a, (bytes, bytearray)):
                data = bytes(a)
            elif isinstance(a, np.ndarray):
                data = a.tobytes()
            else:
                raise SimulationError(f"parameter '{p.name}' is a byte array: pass bytes or a numpy array")
            if len(data) != p.size:
                raise SimulationError(f"parameter '{p.name}' takes {p.size} bytes, got {len(data)}")
            return data
        if ty is None or ty.kind == "pred":
            raise SimulationError(f"parameter '{p.name}' has unsupported type .{p.type}")
        if isinstance(a, np.ndarray) and a.ndim > 0 or a is None:
            if ty.bits != 64 or ty.kind not in ("b", "u", "s"):
                raise SimulationError(f"parameter '{p.name}' (.{p.type}) is not a pointer; got an array")
            if a is None:
                return (0).to_bytes(8, "little")
            key = id(a)
            if key not in seen:
                for other in seen.values():
                    if other.array is not None and np.shares_memory(other.array, a):
                        raise SimulationError(
                            f"argument for '{p.name}' overlaps the array of '{other.name}'; pass the same array object"
                        )
                data = np.ascontiguousarray(a).view(np.uint8).reshape(-1)
                seen[key] = self.mem.add(p.name, data, a)
            return seen[key].base.to_bytes(8, "little")
        if isinstance(a, np.ndarray):
            a = a.item()
        if isinstance(a, np.generic):
            a = a.item()
        if ty.kind in ("b", "u", "s"):
            if not isinstance(a, int):  # bool is an int
                raise SimulationError(f"parameter '{p.name}' (.{p.type}) takes an integer, got {a!r}")
            v = int(a)
            if not -(1 << (ty.bits - 1)) <= v < (1 << ty.bits):
                raise SimulationError(f"parameter '{p.name}' (.{p.type}): {v} does not fit")
            return (v & ((1 << ty.bits) - 1)).to_bytes(ty.bits // 8, "little")
        if not isinstance(a, (int, float)) or isinstance(a, bool):
            raise SimulationError(f"parameter '{p.name}' (.{p.type}) takes a number, got {a!r}")
        if ty.name == "f32":
            return struct.pack("<f", float(a))
        if ty.name == "f64":
            return struct.pack("<d", float(a))
        if ty.name == "f16":
            return np.float16(a).tobytes()
        if ty.name == "bf16":
            return f32_to_bf16_bits(np.array([a], np.float32)).tobytes()
        raise SimulationError(f"parameter '{p.name}' has unsupported type .{p.type}")

    # ------------------------------------------------------------ decoding
    def _decode_kernel(self) -> None:
        pending: list[tuple[Instruction, list[dict[str, int]]]] = []
        scopes: list[dict[str, int]] = []

        def walk(stmts) -> None:
            scopes.append({})
            for s in stmts:
                if isinstance(s, RegDecl):
                    ty = PTX_TYPES.get(s.type)
                    if ty is None or ty.kind in ("fp8x2",) or s.type == "b128":
                        raise SimulationError(f"registers of type .{s.type} are not supported", s.line)
                    for name in s.names:
                        scopes[-1][name] = len(self.slot_types)
                        self.slot_types.append(_reg_type(ty))
            for s in stmts:
                if isinstance(s, Instruction):
                    pending.append((s, list(scopes)))
                elif isinstance(s, Label):
                    self.labels[s.name] = len(pending)
                elif isinstance(s, Block):
                    walk(s.statements)
            scopes.pop()

        walk(self.kernel.statements)
        for ins, sc in pending:
            self._scopes = sc
            self._ins = ins
            try:
                fn = self._decode(ins)
                guard = None
                neg = False
                if ins.guard is not None:
                    slot = self._slot(ins.guard.reg)
                    if self.slot_types[slot].kind != "pred":
                        raise Fault(f"guard {ins.guard.reg} is not a predicate")
                    guard, neg = slot, ins.guard.negated
            except Fault as e:
                raise SimulationError(str(e), ins.line, ins.column, ins.source) from None
            self.code.append(_Op(fn, guard, neg, ins))

    def _decode(self, ins: Instruction):
        method = getattr(self, "_op_" + ins.opcode, None)
        if method is None:
            raise Fault(f"unsupported instruction '{ins.mnemonic}'")
        return method(ins)

    # ============================================================ running
    def _special_values(self, ctaid: tuple[int, int, int]) -> dict[str, np.ndarray]:
        bx, by, _ = self.block
        t = self.t
        u32 = np.uint32
        lane = self.lane
        vals: dict[str, np.ndarray] = {
            "%tid.x": (t % bx).astype(u32),
            "%tid.y": ((t // bx) % by).astype(u32),
            "%tid.z": (t // (bx * by)).astype(u32),
            "%laneid": lane.astype(u32),
            "%warpid": self.warp_of.astype(u32),
            "%nwarpid": np.full(self.tp, self.warps, u32),
            "%lanemask_eq": (np.uint64(1) << lane.astype(np.uint64)).astype(u32),
            "%lanemask_lt": ((np.uint64(1) << lane.astype(np.uint64)) - np.uint64(1)).astype(u32),
            "%lanemask_le": ((np.uint64(2) << lane.astype(np.uint64)) - np.uint64(1)).astype(u32),
            "%smid": np.zeros(self.tp, u32),
            "%nsmid": np.ones(self.tp, u32),
            "%gridid": np.zeros(self.tp, np.uint64),
            "%clock": np.zeros(self.tp, u32),
            "%clock_hi": np.zeros(self.tp, u32),
            "%clock64": np.zeros(self.tp, np.uint64),
            "%globaltimer": np.zeros(self.tp, np.uint64),
            "%globaltimer_lo": np.zeros(self.tp, u32),
            "%globaltimer_hi": np.zeros(self.tp, u32),
            "%cluster_ctarank": np.zeros(self.tp, u32),
            "%cluster_nctarank": np.ones(self.tp, u32),
            "%is_explicit_cluster": np.zeros(self.tp, u32),
            "%dynamic_smem_size": np.full(self.tp, self.shared_size - SHARED_BASE, u32),
            "%total_smem_size": np.full(self.tp, self.shared_size - SHARED_BASE, u32),
            "%aggr_smem_size": np.full(self.tp, self.shared_size - SHARED_BASE, u32),
        }
        vals["%lanemask_ge"] = ~vals["%lanemask_lt"]
        vals["%lanemask_gt"] = ~vals["%lanemask_le"]
        for i, ax in enumerate("xyz"):
            vals[f"%ntid.{ax}"] = np.full(self.tp, self.block[i], u32)
            vals[f"%ctaid.{ax}"] = np.full(self.tp, ctaid[i], u32)
            vals[f"%nctaid.{ax}"] = np.full(self.tp, self.grid[i], u32)
            vals[f"%clusterid.{ax}"] = np.full(self.tp, ctaid[i], u32)
            vals[f"%nclusterid.{ax}"] = np.full(self.tp, self.grid[i], u32)
            vals[f"%cluster_ctaid.{ax}"] = np.zeros(self.tp, u32)
            vals[f"%cluster_nctaid.{ax}"] = np.ones(self.tp, u32)
        return vals

    def run(self) -> PtxStats:
        gx, gy, gz = self.grid
        with np.errstate(all="ignore"):
            for z in range(gz):
                for y in range(gy):
                    for x in range(gx):
                        self._run_cta((x, y, z))
        for r in self.mem.regions:
            if r.array is not None and r.written:
                a = r.array
                data = r.buf[: r.size].view(a.dtype).reshape(a.shape)
                np.copyto(a, data)
        return self._stats()

    def _run_cta(self, ctaid: tuple[int, int, int]) -> None:
        c = Cta()
        c.ctaid = ctaid
        c.regs = [poisoned_register(t.kind, t.bits, self.tp) for t in self.slot_types]
        c.special = self._special_values(ctaid)
        c.smem = np.full((self.shared_size - SHARED_BASE + 15) // 16 * 16 + 16, SHARED_POISON, np.uint8)
        c.races = SharedRaces(c.smem.size)
        c.alive = self.exists.copy()
        c.full = bool(c.alive.all())
        c.alive_warps = self.warps
        code = self.code
        n = len(code)
        issues = self.counters.issues
        tp = self.tp
        pc = 0
        steps = 0
        thread_instr = 0
        max_steps = self.max_steps
        while pc < n:
            op = code[pc]
            steps += 1
            if steps > max_steps:
                raise SimulationError(
                    f"CTA {ctaid} executed more than {max_steps} instructions (infinite loop?)",
                    op.ins.line, op.ins.column, op.ins.source,
                )
            issues[pc] += c.alive_warps
            if op.guard is None:
                mask = None if c.full else c.alive
            else:
                g = c.regs[op.guard]
                if op.negated:
                    g = ~g
                mask = g if c.full else (g & c.alive)
            if mask is None:
                thread_instr += tp
            else:
                cnt = int(np.count_nonzero(mask))
                thread_instr += cnt
                if cnt == 0:
                    pc += 1
                    continue
                if cnt == tp:
                    mask = None
            try:
                r = op.fn(c, mask)
            except Fault as e:
                raise SimulationError(
                    f"{e} (CTA {ctaid})", op.ins.line, op.ins.column, op.ins.source
                ) from None
            if r is None:
                pc += 1
            elif r is END_OF_THREAD:
                break
            else:
                pc = r
        self.counters.thread_instructions += thread_instr
        self.counters.shared_races += c.races.count
        if c.races.first and not self.counters.first_shared_race:
            self.counters.first_shared_race = f"CTA {ctaid}, {c.races.first}"

    def _stats(self) -> PtxStats:
        k = self.counters
        lines: dict[int, int] = {}
        for op, n in zip(self.code, k.issues.tolist()):
            if n:
                lines[op.ins.line] = lines.get(op.ins.line, 0) + int(n)
        return PtxStats(
            kernel=self.kernel.name,
            grid=self.grid,
            block=self.block,
            instructions=int(k.issues.sum()),
            thread_instructions=int(k.thread_instructions),
            line_counts=lines,
            shared_loads=k.shared_loads,
            shared_stores=k.shared_stores,
            matrix_loads=k.matrix_loads,
            matrix_stores=k.matrix_stores,
            shared_load_wavefronts=k.load_wf,
            shared_store_wavefronts=k.store_wf,
            wavefronts=k.wf,
            wavefront_lower_bound=k.lb,
            line_wavefronts={ln: (v[0], v[1]) for ln, v in sorted(k.line_wf.items())},
            shuffles=k.shuffles,
            barriers=k.barriers,
            warp_barriers=k.warp_barriers,
            global_loads=dict(sorted(k.global_loads.items())),
            global_stores=dict(sorted(k.global_stores.items())),
            atomics=k.atomics,
            shared_bytes=self.shared_size - SHARED_BASE,
            shared_races=k.shared_races,
            first_shared_race=k.first_shared_race,
        )


def _reg_type(ty: PtxType) -> PtxType:
    """Register storage type: raw bits of the declared width."""
    if ty.kind == "pred":
        return ty
    return BIT_TYPES[ty.bits]


def _param_elem_bytes(p) -> int:
    return max(1, (PTX_TYPES[p.type].bits // 8) if p.type in PTX_TYPES else 1)


def _walk_vars(stmts) -> list[VarDecl]:
    out = []
    for s in stmts:
        if isinstance(s, VarDecl):
            out.append(s)
        elif isinstance(s, Block):
            out.extend(_walk_vars(s.statements))
    return out


def _init_bytes(v: VarDecl, size: int, symbols: dict, mem: GlobalMemory) -> bytes:
    data = bytearray(size)
    if v.init is None:
        return bytes(data)
    ty = PTX_TYPES[v.type]
    eb = max(1, ty.bits // 8)
    for i, x in enumerate(v.init):
        if i * eb >= size:
            raise SimulationError(f"too many initial values for '{v.name}'", v.line)
        if isinstance(x, str):
            if x not in symbols:
                raise SimulationError(f"initial value '{x}' of '{v.name}' is not a known variable", v.line)
            val = symbols[x][1]
        elif isinstance(x, float):
            if ty.kind == "f":
                raw = np.array([x], FLOAT_DTYPE[ty.bits]).tobytes()
                data[i * eb : (i + 1) * eb] = raw
                continue
            val = int(x)
        else:
            val = int(x)
        data[i * eb : (i + 1) * eb] = (val & ((1 << (8 * eb)) - 1)).to_bytes(eb, "little")
    return bytes(data)
