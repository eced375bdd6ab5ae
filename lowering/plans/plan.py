"""Conversion plans: the exact data movement that turns one distributed layout into another.

A plan is a straight-line program that every thread of a CTA runs in lockstep.
Each thread starts with its *source registers* filled as the source layout says
(``src[r]`` holds the element ``src_layout(register=r, lane, warp)``) and must end
with its *destination registers* filled as the destination layout says. Between
the two it may use temporaries, register moves, lane-dependent selects, warp
shuffles, shared-memory stores/loads (plain, ``stmatrix``, ``ldmatrix``) and
barriers. Nothing here emits text: a plan is data, inspected by tests, executed
by the simulator (``ltc.lowering.plans.simulate``) and later lowered to LLVM IR / PTX.

Every thread-dependent quantity — a shuffle's source lane, a shared-memory
address, a selected register index — is an :class:`ThreadAffine`: an F2-affine
function of the thread's lane and warp bits, ``c ⊕ Σ lane_i·L[i] ⊕ Σ warp_j·W[j]``.
Register indices are plain constants except in :class:`Select`, whose index is
such a function (that is what a chain of ``selp`` computes).

Register files (per thread, element granular): ``"src"`` (read only, the source
layout's registers, broadcast registers included), ``"dst"`` (the destination
layout's registers, broadcast ones included) and ``"tmp"`` (scratch). A word is a
tuple of element registers packed low element first; what a 32-bit word carries
depends on ``element_bits`` (two f16, four i8, one f32; an i64 element is two
words).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Union

import numpy as np

from ltc import f2
from ltc.linear_layout import LinearLayout

__all__ = [
    "Barrier",
    "ConversionPlan",
    "Instruction",
    "MatrixLoad",
    "MatrixStore",
    "Move",
    "PlanCounts",
    "PlanError",
    "PlanKind",
    "PlanStep",
    "Reg",
    "Select",
    "SharedLoad",
    "SharedStore",
    "Shuffle",
    "ThreadAffine",
]

PlanKind = Literal["noop", "registers", "shuffle", "shared"]
RegFile = Literal["src", "dst", "tmp"]


class PlanError(ValueError):
    """A conversion that cannot be planned (bad inputs or an unsupported case)."""


@dataclass(frozen=True)
class ThreadAffine:
    """An F2-affine function of a thread's lane and warp indices.

    ``f(lane, warp) = constant ⊕ (⊕_{i: bit i of lane set} lane[i]) ⊕ (⊕_{j: bit j of warp set} warp[j])``.
    Used for byte addresses in shared memory, source lanes of shuffles and
    lane-dependent register indices. ``lane``/``warp`` may be shorter than the
    number of lane/warp bits: missing columns are zero.
    """

    constant: int = 0
    lane: tuple[int, ...] = ()
    warp: tuple[int, ...] = ()

    def evaluate(self, lane: np.ndarray, warp: np.ndarray) -> np.ndarray:
        """f over arrays of lane and warp indices (same shape), as int64."""
        out = np.full(np.shape(lane), self.constant, dtype=np.int64)
        for i, c in enumerate(self.lane):
            if c:
                out ^= np.where((np.asarray(lane) >> i) & 1, c, 0)
        for j, c in enumerate(self.warp):
            if c:
                out ^= np.where((np.asarray(warp) >> j) & 1, c, 0)
        return out

    def __call__(self, lane: int, warp: int = 0) -> int:
        return self.constant ^ f2.apply_columns(self.lane, lane) ^ f2.apply_columns(self.warp, warp)

    @property
    def is_constant(self) -> bool:
        return not any(self.lane) and not any(self.warp)

    @property
    def depends_on_warp(self) -> bool:
        return any(self.warp)

    def shifted(self, constant: int) -> ThreadAffine:
        """The same linear part with ``constant`` XORed in."""
        return ThreadAffine(self.constant ^ constant, self.lane, self.warp)

    def __str__(self) -> str:
        terms = [f"{self.constant:#x}"] if self.constant or self.is_constant else []
        terms += [f"lane{i}*{c:#x}" for i, c in enumerate(self.lane) if c]
        terms += [f"warp{j}*{c:#x}" for j, c in enumerate(self.warp) if c]
        return " ^ ".join(terms)


@dataclass(frozen=True, order=True)
class Reg:
    """One element register of a thread: ``file`` ∈ {src, dst, tmp} and its index."""

    file: RegFile
    index: int

    def __str__(self) -> str:
        return f"{self.file}[{self.index}]"


def _regs_text(regs: Sequence[Reg]) -> str:
    return "{" + ", ".join(map(str, regs)) + "}"


@dataclass(frozen=True)
class Move:
    """``dst = src``: a register rename, free after register allocation."""

    dst: Reg
    src: Reg

    def __str__(self) -> str:
        return f"mov {self.dst}, {self.src}"


@dataclass(frozen=True)
class Select:
    """``dst = file[index(lane, warp)]``: a lane-dependent register choice.

    Costs ``selects`` = (number of distinct indices a thread can pick) − 1
    ``selp`` instructions per element (a chain of two-way selects).
    """

    dst: Reg
    src_file: RegFile
    index: ThreadAffine

    @property
    def selects(self) -> int:
        # The indices a thread can pick form a coset of the span of the columns.
        return (1 << f2.rank((*self.index.lane, *self.index.warp))) - 1

    def __str__(self) -> str:
        return f"sel {self.dst}, {self.src_file}[{self.index}]"


@dataclass(frozen=True)
class Shuffle:
    """``shfl.sync``: each thread reads the word ``src`` of lane ``src_lane(lane, warp)`` of its own warp.

    ``src`` registers (packed low first; at most 32 bits, or one 64-bit element
    moved as two shuffles) are read in the *source* thread; ``dst`` (same length)
    are written in the reading thread. ``src_lane`` must not depend on the warp.
    ``mode`` is ``"bfly"`` (``shfl.sync.bfly``) when ``src_lane`` is
    ``lane ⊕ constant``, else ``"idx"``.
    """

    dst: tuple[Reg, ...]
    src: tuple[Reg, ...]
    src_lane: ThreadAffine

    @property
    def mode(self) -> Literal["idx", "bfly"]:
        lin = tuple(c for c in self.src_lane.lane)
        identity = all(c == (1 << i) for i, c in enumerate(lin)) and len(lin) >= 5
        return "bfly" if identity and not self.src_lane.depends_on_warp else "idx"

    def __str__(self) -> str:
        return f"shfl.{self.mode} {_regs_text(self.dst)}, {_regs_text(self.src)}, lane={self.src_lane}"


@dataclass(frozen=True)
class SharedStore:
    """``st.shared``: store the elements ``src`` (a vector, low element first) at byte ``address``."""

    src: tuple[Reg, ...]
    address: ThreadAffine

    def __str__(self) -> str:
        return f"st.shared [{self.address}], {_regs_text(self.src)}"


@dataclass(frozen=True)
class SharedLoad:
    """``ld.shared``: load a vector of ``len(dst)`` elements from byte ``address``."""

    dst: tuple[Reg, ...]
    address: ThreadAffine

    def __str__(self) -> str:
        return f"ld.shared {_regs_text(self.dst)}, [{self.address}]"


@dataclass(frozen=True)
class MatrixStore:
    """``stmatrix.sync.aligned.m8n8.x{num}[.trans].shared.b16`` (generalised to 8/32-bit elements untransposed).

    Stores ``num`` 8×8 matrices of 32-bit-wide column pairs: each matrix row is 16
    bytes; lane ``8·m + j`` supplies the byte address of row ``j`` of matrix
    ``m`` (``address(lane, warp)``; lanes ≥ 8·num are ignored). Thread ``t``'s
    ``m``-th word (elements ``src[m·k : (m+1)·k]``, k = 32 / element_bits) is
    bytes ``4·(t % 4) … 4·(t % 4) + 3`` of row ``t // 4`` of matrix ``m``.
    With ``trans`` (16-bit only) the word's two halves are instead elements
    (row ``2·(t % 4)``, col ``t // 4``) and (row ``2·(t % 4) + 1``, col ``t // 4``)
    of the matrix whose rows are in memory.
    """

    src: tuple[Reg, ...]
    address: ThreadAffine
    num: Literal[1, 2, 4]
    trans: bool = False

    def __str__(self) -> str:
        t = ".trans" if self.trans else ""
        return f"stmatrix.x{self.num}{t} [{self.address}], {_regs_text(self.src)}"


@dataclass(frozen=True)
class MatrixLoad:
    """``ldmatrix.sync.aligned.m8n8.x{num}[.trans].shared.b16``: the inverse data movement of :class:`MatrixStore`."""

    dst: tuple[Reg, ...]
    address: ThreadAffine
    num: Literal[1, 2, 4]
    trans: bool = False

    def __str__(self) -> str:
        t = ".trans" if self.trans else ""
        return f"ldmatrix.x{self.num}{t} {_regs_text(self.dst)}, [{self.address}]"


@dataclass(frozen=True)
class Barrier:
    """A barrier: ``"cta"`` is ``bar.sync 0`` (all warps), ``"warp"`` is ``bar.warp.sync``."""

    scope: Literal["cta", "warp"]

    def __str__(self) -> str:
        return "bar.sync 0" if self.scope == "cta" else "bar.warp.sync -1"


Instruction = Union[Move, Select, Shuffle, SharedStore, SharedLoad, MatrixStore, MatrixLoad, Barrier]


@dataclass(frozen=True)
class PlanStep:
    """A named group of instructions (e.g. ``"round 0: store"``), for reading plans."""

    name: str
    instructions: tuple[Instruction, ...]


@dataclass(frozen=True)
class PlanCounts:
    """Static per-thread instruction counts, as they would appear in PTX.

    ``shared_stores``/``shared_loads`` count plain ``st.shared``/``ld.shared``;
    ``*_by_bits`` split them by access width (32, 64, 128, or 8/16 for sub-word
    scalars). ``shuffles`` counts ``shfl.sync`` (a 64-bit word is two).
    ``barriers`` counts CTA barriers; ``warp_syncs`` ``bar.warp.sync``.
    """

    shared_stores: int = 0
    shared_loads: int = 0
    shared_stores_by_bits: tuple[tuple[int, int], ...] = ()
    shared_loads_by_bits: tuple[tuple[int, int], ...] = ()
    stmatrix: int = 0
    ldmatrix: int = 0
    shuffles: int = 0
    barriers: int = 0
    warp_syncs: int = 0
    selects: int = 0
    moves: int = 0


@dataclass(frozen=True)
class ConversionPlan:
    """How every thread converts its registers from ``src_layout`` to ``dst_layout``.

    ``src_layout``/``dst_layout`` are the full distributed layouts (in dims
    register, lane, warp, block; broadcast bases included). ``element_bits`` is
    the element width. ``steps`` run in order; ``tmp_registers`` is the size of
    the tmp file; ``scratch_bytes`` the shared memory used. ``algorithm`` names
    the construction (e.g. ``"register permutation"``, ``"paper §5.4 shuffles"``,
    ``"swap/ship"``, ``"optimal swizzling"``) and ``notes`` holds readable facts
    about the choice (vector set, bank set, segment, rounds...).
    """

    kind: PlanKind
    src_layout: LinearLayout
    dst_layout: LinearLayout
    element_bits: int
    steps: tuple[PlanStep, ...]
    tmp_registers: int = 0
    scratch_bytes: int = 0
    algorithm: str = ""
    notes: tuple[str, ...] = ()
    threads_per_warp: int = 32

    @property
    def num_warps(self) -> int:
        return self.src_layout.in_dim_size("warp") if self.src_layout.has_in_dim("warp") else 1

    @property
    def instructions(self) -> tuple[Instruction, ...]:
        return tuple(i for s in self.steps for i in s.instructions)

    @property
    def counts(self) -> PlanCounts:
        return count_instructions(self.instructions, self.element_bits)

    def __str__(self) -> str:
        lines = [f"kind: {self.kind}" + (f" ({self.algorithm})" if self.algorithm else "")]
        lines += [f"note: {n}" for n in self.notes]
        for s in self.steps:
            lines.append(f"{s.name}:")
            lines += [f"  {i}" for i in s.instructions]
        return "\n".join(lines)


def words(num_elements: int, element_bits: int) -> int:
    """How many 32-bit words ``num_elements`` elements of ``element_bits`` occupy (at least one)."""
    return max(1, math.ceil(num_elements * element_bits / 32))


def count_instructions(instructions: Sequence[Instruction], element_bits: int) -> PlanCounts:
    """Static counts of ``instructions`` (see :class:`PlanCounts`)."""
    st: dict[int, int] = {}
    ld: dict[int, int] = {}
    c = dict(stmatrix=0, ldmatrix=0, shuffles=0, barriers=0, warp_syncs=0, selects=0, moves=0)
    for ins in instructions:
        if isinstance(ins, SharedStore):
            bits = len(ins.src) * element_bits
            st[bits] = st.get(bits, 0) + 1
        elif isinstance(ins, SharedLoad):
            bits = len(ins.dst) * element_bits
            ld[bits] = ld.get(bits, 0) + 1
        elif isinstance(ins, MatrixStore):
            c["stmatrix"] += 1
        elif isinstance(ins, MatrixLoad):
            c["ldmatrix"] += 1
        elif isinstance(ins, Shuffle):
            c["shuffles"] += words(len(ins.src), element_bits)
        elif isinstance(ins, Barrier):
            c["barriers" if ins.scope == "cta" else "warp_syncs"] += 1
        elif isinstance(ins, Select):
            c["selects"] += ins.selects
        elif isinstance(ins, Move):
            c["moves"] += 1
    return PlanCounts(
        shared_stores=sum(st.values()),
        shared_loads=sum(ld.values()),
        shared_stores_by_bits=tuple(sorted(st.items())),
        shared_loads_by_bits=tuple(sorted(ld.items())),
        **c,
    )
