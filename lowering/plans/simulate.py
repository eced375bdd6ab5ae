"""Execute a conversion plan for every thread of a CTA and check it, with numpy.

Every thread ``t`` (``warp = t // 32``, ``lane = t % 32``) starts with its
``src`` registers holding element ids — the flat tensor index that the source
layout places in ``(register, lane, warp)`` — and runs the plan's instructions
in lockstep. At the end each ``dst`` register must hold the id the destination
layout places there. Values are ids, not data, so a plan that moves the wrong
element is caught whatever the tensor contents.

Shared memory is byte addressed and holds element ids at ``address //
element_bytes``. Besides values the simulator checks what lockstep execution
would hide on hardware:

* *races*: two threads storing different elements to one address in one
  instruction;
* *missing barriers*: a thread reading a slot another thread wrote (or writing
  a slot another thread read) with no barrier in between — a CTA barrier
  orders all threads, ``bar.warp.sync`` the threads of one warp;
* alignment, scratch bounds, register ranges and shuffle word sizes.

Bank conflicts (32 banks of 4 bytes): each shared instruction of each warp is
split into phases — one of 32 lanes for accesses up to 32 bits, two of 16
lanes for 64-bit, four of 8 lanes for 128-bit, one per 8×8 matrix for
``ldmatrix``/``stmatrix`` (its 8 row addresses of 16 bytes). A phase costs as
many wavefronts as the most distinct 4-byte words any one bank serves; its
lower bound is ``ceil(distinct words / 32)``. Totals sum over phases,
instructions and warps (the model: ``ltc.lowering.plans.banks``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ltc.lowering.plans.banks import matrix_access_wavefronts, plain_access_wavefronts
from ltc.lowering.plans.plan import (
    Barrier,
    ConversionPlan,
    Instruction,
    MatrixLoad,
    MatrixStore,
    Move,
    PlanError,
    Reg,
    Select,
    SharedLoad,
    SharedStore,
    Shuffle,
)

__all__ = ["AccessStats", "SimulationReport", "simulate", "thread_elements"]


@dataclass(frozen=True)
class AccessStats:
    """Bank behaviour of one shared-memory instruction, summed over all warps."""

    instruction: str
    wavefronts: int
    lower_bound: int


@dataclass(frozen=True)
class SimulationReport:
    """What running a plan showed.

    ``exact``: every destination register holds the right element and no race
    or missing barrier was seen (``errors`` lists the latter, ``mismatches``
    counts wrong destination registers over all threads).
    """

    exact: bool
    mismatches: int
    first_mismatch: str | None
    errors: tuple[str, ...]
    wavefronts: int
    wavefront_lower_bound: int
    accesses: tuple[AccessStats, ...]

    @property
    def conflict_free(self) -> bool:
        return self.wavefronts == self.wavefront_lower_bound


def thread_elements(layout, num_threads: int) -> np.ndarray:
    """``ids[t, r]``: the row-major tensor index of the element the layout puts in register r of thread t.

    ``layout`` has in dims register, lane, warp (and a size-1 block); thread
    ``t`` is ``warp * lanes + lane``.
    """
    for d in layout.in_dim_names:
        if d not in ("register", "lane", "warp", "block"):
            raise PlanError(f"not a distributed layout: in dim '{d}'")
    if layout.has_in_dim("block") and layout.in_dim_size("block") != 1:
        raise PlanError("the simulator runs one CTA; the layout has several blocks")
    order = ["register", "lane", "warp"] + (["block"] if layout.has_in_dim("block") else [])
    coords = layout.transpose_ins(order).apply_all()  # [flat hardware index, out dim]
    shape = tuple(layout.out_dims.values())
    table = np.ravel_multi_index(tuple(coords.T), shape) if shape else np.zeros(len(coords), np.int64)
    regs = layout.in_dim_size("register")
    ids = table.reshape(-1, regs)
    if ids.shape[0] != num_threads:
        raise PlanError(f"layout covers {ids.shape[0]} threads, expected {num_threads}")
    return ids


class _Machine:
    """Register files, shared memory and hazard bookkeeping of one CTA."""

    def __init__(self, plan: ConversionPlan) -> None:
        self.plan = plan
        self.lanes = plan.threads_per_warp
        self.warps = plan.num_warps
        self.threads = self.lanes * self.warps
        t = np.arange(self.threads)
        self.lane = t % self.lanes
        self.warp = t // self.lanes
        self.ebytes = max(1, plan.element_bits // 8)
        self.files = {
            "src": thread_elements(plan.src_layout, self.threads).copy(),
            "dst": np.full((self.threads, plan.dst_layout.in_dim_size("register")), -1, np.int64),
            "tmp": np.full((self.threads, plan.tmp_registers), -1, np.int64),
        }
        slots = max(0, plan.scratch_bytes // self.ebytes)
        self.smem = np.full(slots, -1, np.int64)
        # Hazard bookkeeping per slot: last writer thread and the barrier
        # epochs then; last reader thread (-2: several) and epochs then.
        self.cta_epoch = 0
        self.warp_epoch = np.zeros(self.warps, np.int64)
        self.w_thread = np.full(slots, -1, np.int64)
        self.w_cta = np.full(slots, -1, np.int64)
        self.w_warp_ep = np.full(slots, -1, np.int64)
        self.r_thread = np.full(slots, -1, np.int64)
        self.r_warp = np.full(slots, -1, np.int64)
        self.r_cta = np.full(slots, -1, np.int64)
        self.r_warp_ep = np.full(slots, -1, np.int64)
        self.errors: list[str] = []
        self.accesses: list[AccessStats] = []

    # ------------------------------------------------------------ registers
    def read(self, reg: Reg) -> np.ndarray:
        f = self.files[reg.file]
        if not 0 <= reg.index < f.shape[1]:
            raise PlanError(f"register {reg} out of range (file has {f.shape[1]})")
        return f[:, reg.index]

    def write(self, reg: Reg, values: np.ndarray) -> None:
        if reg.file == "src":
            raise PlanError(f"instruction writes the read-only source register {reg}")
        f = self.files[reg.file]
        if not 0 <= reg.index < f.shape[1]:
            raise PlanError(f"register {reg} out of range (file has {f.shape[1]})")
        f[:, reg.index] = values

    def run(self, ins: Instruction) -> None:
        if isinstance(ins, Move):
            self.write(ins.dst, self.read(ins.src).copy())
        elif isinstance(ins, Select):
            f = self.files[ins.src_file]
            idx = ins.index.evaluate(self.lane, self.warp)
            if idx.min() < 0 or idx.max() >= f.shape[1]:
                raise PlanError(f"'{ins}' selects a register out of range")
            self.write(ins.dst, f[np.arange(self.threads), idx])
        elif isinstance(ins, Shuffle):
            self.shuffle(ins)
        elif isinstance(ins, (SharedStore, SharedLoad)):
            self.plain_access(ins)
        elif isinstance(ins, (MatrixStore, MatrixLoad)):
            self.matrix_access(ins)
        elif isinstance(ins, Barrier):
            if ins.scope == "cta":
                self.cta_epoch += 1
            self.warp_epoch += 1
        else:  # pragma: no cover - the Instruction union is closed
            raise PlanError(f"unknown instruction {ins!r}")

    def shuffle(self, ins: Shuffle) -> None:
        bits = len(ins.src) * self.plan.element_bits
        if len(ins.src) != len(ins.dst) or not ins.src:
            raise PlanError(f"'{ins}': source and destination words differ in size")
        if bits > 32 and not (len(ins.src) == 1 and bits == 64):
            raise PlanError(f"'{ins}' moves {bits} bits; a shuffle word is at most 32")
        if ins.src_lane.depends_on_warp:
            raise PlanError(f"'{ins}': a source lane cannot depend on the warp")
        src_lane = ins.src_lane.evaluate(self.lane, self.warp)
        if src_lane.min() < 0 or src_lane.max() >= self.lanes:
            raise PlanError(f"'{ins}' reads a lane out of range")
        source = self.warp * self.lanes + src_lane
        values = [self.read(r)[source] for r in ins.src]
        for r, v in zip(ins.dst, values):
            self.write(r, v)

    # --------------------------------------------------------- shared memory
    def slots_of(self, addr: np.ndarray, what: str) -> np.ndarray:
        if addr.size and (addr.min() < 0 or addr.max() + self.ebytes > self.plan.scratch_bytes):
            raise PlanError(f"'{what}' addresses bytes outside the {self.plan.scratch_bytes}-byte scratch")
        if np.any(addr % self.ebytes):
            raise PlanError(f"'{what}' addresses an element at a misaligned byte")
        return addr // self.ebytes

    def store(self, slots: np.ndarray, threads: np.ndarray, values: np.ndarray, what: str) -> None:
        """Write ``values`` (flat, one per (thread, slot) pair) with hazard checks."""
        if slots.size == 0:
            return
        order = np.lexsort((values, slots))
        s, v = slots[order], values[order]
        same = s[1:] == s[:-1]
        if np.any(same & (v[1:] != v[:-1])):
            self.errors.append(f"race: '{what}' stores different elements to one address")
        wwarp = self.warp[threads]
        read_now = self.r_cta[slots] == self.cta_epoch
        synced_in_warp = (self.r_warp[slots] == wwarp) & (self.r_warp_ep[slots] < self.warp_epoch[wwarp])
        if np.any(read_now & (self.r_thread[slots] != threads) & ~synced_in_warp):
            self.errors.append(f"missing barrier: '{what}' overwrites data another thread may not have read yet")
        self.smem[slots] = values
        self.w_thread[slots] = threads
        self.w_cta[slots] = self.cta_epoch
        self.w_warp_ep[slots] = self.warp_epoch[self.warp[threads]]

    def load(self, slots: np.ndarray, threads: np.ndarray, what: str) -> np.ndarray:
        if slots.size == 0:
            return np.zeros(0, np.int64)
        writer = self.w_thread[slots]
        unwritten = writer < 0
        if np.any(unwritten):
            self.errors.append(f"'{what}' reads shared memory nothing wrote")
        wwarp = writer // self.lanes
        ok = (
            unwritten
            | (writer == threads)
            | (self.w_cta[slots] < self.cta_epoch)
            | ((wwarp == self.warp[threads]) & (self.w_warp_ep[slots] < self.warp_epoch[self.warp[threads]]))
        )
        if not np.all(ok):
            self.errors.append(f"missing barrier: '{what}' reads data another thread wrote without a barrier")
        # Reader bookkeeping: the one thread / warp that read a slot in this
        # CTA epoch, or -2 when there were several.
        fresh = self.r_cta[slots] != self.cta_epoch
        self.r_thread[slots[fresh]] = -1
        self.r_warp[slots[fresh]] = -1
        u, t_one = _single_owner(slots, threads)
        _, w_one = _single_owner(slots, self.warp[threads])
        for table, one in ((self.r_thread, t_one), (self.r_warp, w_one)):
            prev = table[u]
            table[u] = np.where((prev == -1) | (prev == one), one, -2)
        self.r_cta[slots] = self.cta_epoch
        self.r_warp_ep[slots] = self.warp_epoch[self.warp[threads]]
        return self.smem[slots]

    def plain_access(self, ins: SharedStore | SharedLoad) -> None:
        regs = ins.src if isinstance(ins, SharedStore) else ins.dst
        k = len(regs)
        nbytes = k * self.ebytes
        if k == 0 or nbytes > 16 or nbytes & (nbytes - 1):
            raise PlanError(f"'{ins}': a shared access is 1, 2, 4, 8 or 16 bytes, not {nbytes}")
        addr = ins.address.evaluate(self.lane, self.warp)
        if np.any(addr % nbytes):
            raise PlanError(f"'{ins}': address not aligned to the {nbytes}-byte access")
        base = self.slots_of(addr, str(ins))
        slots = (base[:, None] + np.arange(k)[None, :]).ravel()
        threads = np.repeat(np.arange(self.threads), k)
        if isinstance(ins, SharedStore):
            values = np.stack([self.read(r) for r in regs], axis=1).ravel()
            self.store(slots, threads, values, str(ins))
        else:
            got = self.load(slots, threads, str(ins)).reshape(self.threads, k)
            for i, r in enumerate(regs):
                self.write(r, got[:, i])
        self.count_wavefronts(str(ins), addr, nbytes)

    def matrix_access(self, ins: MatrixStore | MatrixLoad) -> None:
        bits = self.plan.element_bits
        if bits > 32 or (ins.trans and bits != 16):
            raise PlanError(f"'{ins}': {'.trans needs 16-bit' if ins.trans else 'at most 32-bit'} elements")
        per_word = 32 // bits
        regs = ins.src if isinstance(ins, MatrixStore) else ins.dst
        if len(regs) != ins.num * per_word:
            raise PlanError(f"'{ins}': x{ins.num} takes {ins.num * per_word} elements per thread, not {len(regs)}")
        lane_addr = ins.address.evaluate(self.lane, self.warp)
        if np.any(lane_addr % 16):
            raise PlanError(f"'{ins}': matrix row addresses must be 16-byte aligned")
        self.slots_of(lane_addr, str(ins))
        t = self.lane
        base_thread = self.warp * self.lanes
        slot_cols = []
        for m in range(ins.num):
            for i in range(per_word):
                if ins.trans:
                    row, col = 2 * (t % 4) + i, t // 4
                    byte = col * 2
                else:
                    row, byte = t // 4, 4 * (t % 4) + i * (bits // 8)
                row_addr = lane_addr[base_thread + 8 * m + row]
                slot_cols.append((row_addr + byte) // self.ebytes)
        slots = np.stack(slot_cols, axis=1)  # [thread, element of its words]
        threads = np.repeat(np.arange(self.threads), slots.shape[1])
        if isinstance(ins, MatrixStore):
            values = np.stack([self.read(r) for r in regs], axis=1).ravel()
            self.store(slots.ravel(), threads, values, str(ins))
        else:
            got = self.load(slots.ravel(), threads, str(ins)).reshape(slots.shape)
            for i, r in enumerate(regs):
                self.write(r, got[:, i])
        # One phase per matrix: its 8 row addresses, 16 bytes each.
        rows = lane_addr.reshape(self.warps, self.lanes)[:, : 8 * ins.num].reshape(-1, 8)
        wf, lb = matrix_access_wavefronts(rows)
        self.accesses.append(AccessStats(str(ins), wf, lb))

    def count_wavefronts(self, what: str, addr: np.ndarray, nbytes: int) -> None:
        # The planner's model: fixed phases for loads too (an upper bound of the hardware,
        # which merges some 64/128-bit load phases; see banks.load_phase_groups).
        wf, lb = plain_access_wavefronts(addr, nbytes)
        self.accesses.append(AccessStats(what, wf, lb))


def _single_owner(slots: np.ndarray, owners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per distinct slot: its owner if every (slot, owner) pair agrees, else -2."""
    pairs = np.unique(np.stack([slots, owners], axis=1), axis=0)
    u, first, count = np.unique(pairs[:, 0], return_index=True, return_counts=True)
    return u, np.where(count == 1, pairs[first, 1], -2)


def simulate(plan: ConversionPlan) -> SimulationReport:
    """Run ``plan`` for all ``num_warps × 32`` threads; see the module doc.

    Raises :class:`PlanError` for a malformed plan (register or address out of
    range, misaligned access, oversized shuffle word).
    """
    if plan.src_layout.out_dims != plan.dst_layout.out_dims:
        raise PlanError(
            f"source and destination layouts cover different tensors: {plan.src_layout.out_dims} "
            f"vs {plan.dst_layout.out_dims}"
        )
    m = _Machine(plan)
    for ins in plan.instructions:
        m.run(ins)
    want = thread_elements(plan.dst_layout, m.threads)
    got = m.files["dst"]
    bad = np.argwhere(got != want)
    first = None
    if bad.size:
        t, r = (int(x) for x in bad[0])
        first = (
            f"warp {t // m.lanes} lane {t % m.lanes} dst[{r}]: holds element {int(got[t, r])}, "
            f"expected {int(want[t, r])}"
        )
    errors = tuple(dict.fromkeys(m.errors))
    return SimulationReport(
        exact=not bad.size and not errors,
        mismatches=int(len(bad)),
        first_mismatch=first,
        errors=errors,
        wavefronts=sum(a.wavefronts for a in m.accesses),
        wavefront_lower_bound=sum(a.lower_bound for a in m.accesses),
        accesses=tuple(m.accesses),
    )
