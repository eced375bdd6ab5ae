"""What a launch did: :class:`PtxStats`, and the counters a run fills in.

An *instruction* is counted once per warp that reaches it with at least one
live thread (predicated-off instructions included, as a warp issues them);
``thread_instructions`` counts threads whose guard was true. Shared-memory,
shuffle, matrix, atomic and global-memory counts are per warp with at least one
executing thread; barriers are per CTA. Wavefronts use the bank model of
:mod:`ltc.lowering.plans.banks`, per warp per executed shared instruction,
executing threads only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

__all__ = ["PtxStats"]


@dataclass(frozen=True)
class PtxStats:
    """What one kernel launch did (see the module doc for what is counted how)."""

    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    instructions: int
    thread_instructions: int
    line_counts: Mapping[int, int]
    shared_loads: int
    shared_stores: int
    matrix_loads: int
    matrix_stores: int
    shared_load_wavefronts: int
    shared_store_wavefronts: int
    wavefronts: int
    wavefront_lower_bound: int
    line_wavefronts: Mapping[int, tuple[int, int]]
    shuffles: int
    barriers: int
    warp_barriers: int
    global_loads: Mapping[int, int]
    global_stores: Mapping[int, int]
    atomics: int
    shared_bytes: int = 0
    shared_races: int = 0
    """Bytes accessed by two warps in one barrier interval, one access a write
    (:mod:`~ltc.lowering.ptxsim.races`); 0 for a correctly synchronized kernel."""
    first_shared_race: str = ""

    @property
    def ctas(self) -> int:
        return self.grid[0] * self.grid[1] * self.grid[2]

    @property
    def threads_per_cta(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]

    @property
    def conflict_free(self) -> bool:
        return self.wavefronts == self.wavefront_lower_bound

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (mapping keys as strings)."""
        out: dict[str, Any] = {}
        for k in self.__dataclass_fields__:
            v = getattr(self, k)
            if isinstance(v, Mapping):
                v = {str(a): (list(b) if isinstance(b, tuple) else b) for a, b in sorted(v.items())}
            elif isinstance(v, tuple):
                v = list(v)
            out[k] = v
        out["ctas"] = self.ctas
        out["threads_per_cta"] = self.threads_per_cta
        return out

    def format_table(self) -> str:
        rows = [
            ("kernel", self.kernel),
            ("grid", "x".join(map(str, self.grid))),
            ("block", "x".join(map(str, self.block))),
            ("warp instructions", self.instructions),
            ("thread instructions", self.thread_instructions),
            ("shared loads", self.shared_loads),
            ("shared stores", self.shared_stores),
            ("ldmatrix", self.matrix_loads),
            ("stmatrix", self.matrix_stores),
            ("shared load wavefronts", self.shared_load_wavefronts),
            ("shared store wavefronts", self.shared_store_wavefronts),
            ("wavefronts", self.wavefronts),
            ("wavefront lower bound", self.wavefront_lower_bound),
            ("shuffles", self.shuffles),
            ("barriers", self.barriers),
            ("warp barriers", self.warp_barriers),
            ("atomics", self.atomics),
        ]
        for bits, n in sorted(self.global_loads.items()):
            rows.append((f"global loads {bits}-bit", n))
        for bits, n in sorted(self.global_stores.items()):
            rows.append((f"global stores {bits}-bit", n))
        width = max(len(r[0]) for r in rows)
        return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


class Counters:
    """Running totals of a launch, frozen into a :class:`PtxStats` at the end."""

    def __init__(self, n_ops: int) -> None:
        self.issues = np.zeros(n_ops, np.int64)
        self.thread_instructions = 0
        self.shared_loads = 0
        self.shared_stores = 0
        self.matrix_loads = 0
        self.matrix_stores = 0
        self.load_wf = 0
        self.store_wf = 0
        self.wf = 0
        self.lb = 0
        self.line_wf: dict[int, list[int]] = {}
        self.shuffles = 0
        self.barriers = 0
        self.warp_barriers = 0
        self.global_loads: dict[int, int] = {}
        self.global_stores: dict[int, int] = {}
        self.atomics = 0
        self.shared_races = 0
        self.first_shared_race = ""

    def wavefronts(self, line: int, wf: int, lb: int, store: bool) -> None:
        self.wf += wf
        self.lb += lb
        if store:
            self.store_wf += wf
        else:
            self.load_wf += wf
        acc = self.line_wf.setdefault(line, [0, 0])
        acc[0] += wf
        acc[1] += lb
