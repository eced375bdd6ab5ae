"""Optimal swizzling: the shared-memory layout of a layout conversion (paper §9.2).

A conversion through shared memory stores every element of the source layout S
at an element offset and loads it back in the destination layout D. The
*shared-memory layout* M maps element offsets to tensor elements; it is linear,
so it is an ordered basis ``m_0 … m_{n-1}`` of the tensor space T (offset bit j
selects tensor vector ``m_j``; vectors here are flat tensor indices, first out
dim in the low bits). The basis has four parts, low offsets first:

* **vector** Q: contiguous in memory, so a thread moves them with one access.
  The register bases both sides share (the *vector set*, up to 128 bits, lowest
  positions), then — below 32 bits — *filled* with registers of one side so a
  32-bit word is whole, then *extended* with registers of that side while the
  other side's bank set still fits (more vectorisation for one side, no
  conflict for the other). For ``ldmatrix``/``stmatrix`` the 16-byte row is
  fixed instead: the sub-word registers then lanes 0, 1 (or lanes 2, 3, 4 for
  ``.trans``).
* **bank**: the rest of the first 128 bytes, one row of the 32 four-byte banks.
* **segment**: the higher offsets. Two offsets that differ only there share a
  bank, so a phase conflicts exactly when its span meets the segment.
* **reps**: segment bases that are registers on both sides. Each value of the
  rep bits is one round (store, barrier, load) through a scratch buffer that
  much smaller.

A *phase* is the set of lanes the hardware serves together: 32/16/8 lanes for
≤32/64/128-bit ``ld/st.shared``, one 8×8 matrix (8 row addresses, lanes
``laneAddr``) for ``ldmatrix``/``stmatrix``. Side X's *bank set* is
``B_X = span(Q ∪ P_X)`` where ``P_X`` is what one phase spreads: its part of Q
plus its phase's lane vectors. A phase touches at most 128 bytes, so the lower
bound is one wavefront per phase and a phase costs ``2^dim(segment ∩ B_X)``.

**Lemma (common complement).** Subspaces B_S, B_D of T have a common
complement-part of dimension ``n − max(dim B_S, dim B_D)``: with I = B_S ∩ B_D,
B_S = I ⊕ A, B_D = I ⊕ B, take a complement K of B_S + B_D and the sums
``a_i ⊕ b_i``. So when both bank sets fit in the 128-byte row (``dim B_X ≤ c``,
c = log2(128 / element bytes)), a segment of dimension n − c avoids both and
the store and the load are conflict-free; when they do not, the greedy tail of
:func:`_segment_in` adds the vectors that cost least.

Addresses must split as the instructions need — a thread's lane and warp
vectors may have no coordinate on its own vector offsets nor on the rep
offsets — so the basis is built as Q, then reps, then a middle part H that
contains those vectors (:func:`_required`), the segment chosen inside H (the
bank sets projected onto H along Q ⊕ reps: the lemma holds there unchanged),
and the bank completing H.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from ltc import f2
from ltc.linear_layout import LinearLayout
from ltc.lowering.plans.broadcast import strip_register_broadcast

__all__ = [
    "MATRIX_TILE",
    "MATRIX_TRANS_TILE",
    "PLAIN_TILE",
    "LaneTile",
    "SideAccess",
    "SwizzleError",
    "SwizzledSmem",
    "conflict_free_reachable",
    "optimal_swizzling",
    "plan_rank",
]

LANE_BITS = 5
BANKS = 32
WORD_BYTES = 4
BANK_ROW_BYTES = BANKS * WORD_BYTES  # one row of the 32 banks
MAX_ACCESS_BYTES = 16  # ld/st.shared.v4.b32, one matrix row


class SwizzleError(ValueError):
    """The layouts (or the chosen lane tiles) admit no shared-memory layout."""


@dataclass(frozen=True)
class LaneTile:
    """Which lanes of a warp one shared-memory instruction serves together.

    ``plain`` (``ld/st.shared``): the first 5/4/3 of ``lane_addr`` form a phase
    for ≤32/64/128-bit vectors. ``matrix`` (``ldmatrix``/``stmatrix``): lanes
    ``lane_contig`` = {0, 1} pick the 4-byte word in a 16-byte row and
    ``lane_addr`` = {2, 3, 4} the row; ``matrix_trans`` swaps them
    ({2, 3, 4} pick the 16-bit column, {0, 1} and the word's half the row).
    """

    kind: Literal["plain", "matrix", "matrix_trans"]
    lane_contig: tuple[int, ...]
    lane_addr: tuple[int, ...]

    def __str__(self) -> str:
        return self.kind


PLAIN_TILE = LaneTile("plain", (), (0, 1, 2, 3, 4))
MATRIX_TILE = LaneTile("matrix", (0, 1), (2, 3, 4))
MATRIX_TRANS_TILE = LaneTile("matrix_trans", (2, 3, 4), (0, 1))


@dataclass(frozen=True)
class SideAccess:
    """How one side (the store of S or the load of D) reaches shared memory.

    ``vector``: how many low offset positions one access covers contiguously
    (plain: log2 elements per access; matrix: the 16-byte row). ``half``
    (``.trans``): the register vector of a word's high half, a row bit.
    ``select``: register vectors choosing the matrices of one ``x2``/``x4``
    instruction (already reduced to offsets free of vector and rep bits).
    ``instructions``: per thread, all rounds; ``phases``: per instruction and
    warp; ``wavefronts_per_phase``: measured on the final layout.
    """

    tile: LaneTile
    vector: int
    half: int | None
    select: tuple[int, ...]
    instructions: int
    phases: int
    wavefronts_per_phase: int
    bank_set_dim: int

    @property
    def conflicts(self) -> int:
        """Extra wavefronts per phase."""
        return self.wavefronts_per_phase - 1

    @property
    def matrices(self) -> int:
        return 1 << len(self.select)


@dataclass(frozen=True)
class SwizzledSmem:
    """A shared-memory layout for converting ``src`` to ``dst`` (see the module doc).

    ``smem``: in dims ``offset`` (element offsets, reps in the top bits) [and
    ``block``], out dims the tensor's. ``vector``/``bank``/``segment``/``reps``
    are its offset bases by part (flat tensor vectors; :meth:`coords` gives
    tuples). ``store``/``load`` say how each side accesses it. ``region``: the
    offsets in one 128-byte row of banks (log2).
    """

    smem: LinearLayout
    element_bits: int
    vector: tuple[int, ...]
    bank: tuple[int, ...]
    segment: tuple[int, ...]
    reps: tuple[int, ...]
    store: SideAccess
    load: SideAccess
    num_warps: int
    region: int

    @property
    def basis(self) -> tuple[int, ...]:
        """Every offset basis, low offsets first."""
        return self.vector + self.bank + self.segment + self.reps

    @property
    def rounds(self) -> int:
        return 1 << len(self.reps)

    @property
    def round_offsets(self) -> int:
        """Element offsets in one round's buffer."""
        return 1 << (len(self.basis) - len(self.reps))

    @property
    def scratch_bytes(self) -> int:
        return self.round_offsets * self.element_bits // 8

    @property
    def store_conflicts(self) -> int:
        return self.store.conflicts

    @property
    def load_conflicts(self) -> int:
        return self.load.conflicts

    @property
    def wavefronts(self) -> tuple[int, int]:
        """(store, load) wavefronts summed over warps, instructions and phases."""
        return tuple(  # type: ignore[return-value]
            self.num_warps * a.instructions * a.phases * a.wavefronts_per_phase
            for a in (self.store, self.load)
        )

    @property
    def wavefront_lower_bound(self) -> tuple[int, int]:
        return tuple(  # type: ignore[return-value]
            self.num_warps * a.instructions * a.phases for a in (self.store, self.load)
        )

    @property
    def instructions(self) -> int:
        """Shared-memory instructions per thread (stores + loads)."""
        return self.store.instructions + self.load.instructions

    @cached_property
    def _echelon(self) -> f2.ColumnEchelon:
        return f2.column_echelon(self.basis)

    def offset_of(self, vector: int) -> int:
        """The element offset holding tensor vector ``vector`` (M⁻¹, rep bits included)."""
        m = self._echelon.express(vector)
        if m is None:
            raise SwizzleError(f"tensor vector {vector:#x} is outside the shared-memory layout")
        return m

    def coords(self, vectors: Iterable[int]) -> tuple[tuple[int, ...], ...]:
        """Flat tensor vectors as per-dim coordinates (first out dim first)."""
        sizes = list(self.smem.out_dims.values())
        out = []
        for v in vectors:
            c = []
            for s in sizes:
                c.append(v & (s - 1))
                v >>= s.bit_length() - 1
            out.append(tuple(c))
        return tuple(out)


# --------------------------------------------------------------------------- sides


@dataclass(frozen=True)
class _Side:
    """One layout as flat tensor vectors; registers without broadcast duplicates."""

    regs: tuple[int, ...]
    lanes: tuple[int, ...]
    warps: tuple[int, ...]
    blocks: tuple[int, ...]

    @cached_property
    def reg_span(self) -> list[int]:
        return f2.rref(self.regs)

    def is_reg(self, v: int) -> bool:
        return f2.in_span(v, self.reg_span)

    @cached_property
    def threads(self) -> tuple[int, ...]:
        """Lane and warp vectors (the thread-dependent part of an address)."""
        return self.lanes + self.warps

    @cached_property
    def span(self) -> list[int]:
        return f2.rref(self.regs + self.threads)


def _side_of(layout: LinearLayout) -> _Side:
    for d in layout.in_dim_names:
        if d not in ("register", "lane", "warp", "block"):
            raise SwizzleError(f"not a distributed layout: in dim '{d}'")
    cols = strip_register_broadcast(layout).stripped.flat_columns_by_in_dim()
    lanes = cols.get("lane", ())
    if len(lanes) != LANE_BITS:
        raise SwizzleError(f"expected {1 << LANE_BITS} lanes per warp, got {1 << len(lanes)}")
    return _Side(cols.get("register", ()), lanes, cols.get("warp", ()), cols.get("block", ()))


def _dim_meet(a: Sequence[int], b: Sequence[int]) -> int:
    """dim(span a ∩ span b)."""
    return f2.rank(a) + f2.rank(b) - f2.rank(list(a) + list(b))


def _independent(v: int, basis: Sequence[int]) -> bool:
    return v != 0 and f2.rank([*basis, v]) > f2.rank(basis)


def _pick(candidates: Iterable[int], avoid: Sequence[int], limit: int | None = None) -> list[int]:
    """Candidates, in order, that are independent of ``avoid`` and of those picked before."""
    out: list[int] = []
    span = f2.rref(avoid)
    for v in candidates:
        if limit is not None and len(out) >= limit:
            break
        r = f2.reduce_by(v, span)
        if r:
            out.append(v)
            span = f2.rref([*span, r])
    return out


@dataclass(frozen=True)
class _Problem:
    src: _Side
    dst: _Side
    element_bits: int
    layout: LinearLayout  # the source layout, for out dims and block bases

    @property
    def ebytes_log2(self) -> int:
        return (self.element_bits // 8).bit_length() - 1

    @cached_property
    def n(self) -> int:
        return len(self.src.span)

    @property
    def region(self) -> int:
        """Offset positions in one 128-byte row of banks."""
        return min(self.n, (BANK_ROW_BYTES.bit_length() - 1) - self.ebytes_log2)

    @property
    def sub(self) -> int:
        """Offset positions inside one 4-byte word."""
        return max(0, 2 - self.ebytes_log2)

    @property
    def max_vector(self) -> int:
        """Offset positions in a 128-bit access."""
        return (MAX_ACCESS_BYTES.bit_length() - 1) - self.ebytes_log2

    @cached_property
    def threads_all(self) -> list[int]:
        return f2.rref(self.src.threads + self.dst.threads)

    @cached_property
    def common(self) -> tuple[int, ...]:
        """Register vectors of both sides: src's register bases that are dst
        registers first (in src order), then the rest of the span intersection."""
        first = [r for r in self.src.regs if self.dst.is_reg(r)]
        rest = f2.intersect_spans(self.src.regs, self.dst.regs)
        return tuple(_pick([*first, *rest], []))

    @cached_property
    def unit_vectors(self) -> list[int]:
        """Tensor bits (as vectors) in T, lowest first, then a basis of T."""
        bits = self.layout.total_out_size_log2
        units = [1 << b for b in range(bits) if f2.in_span(1 << b, self.src.span)]
        return units + list(self.src.span)

    def is_common(self, v: int) -> bool:
        return self.src.is_reg(v) and self.dst.is_reg(v)

    @cached_property
    def vector_set(self) -> tuple[int, ...]:
        """The shared register bases that can be contiguous: independent of every
        lane/warp vector (else a thread's vector would start misaligned), at
        most 128 bits."""
        return tuple(_pick(self.common, self.threads_all, self.max_vector))

    def lane_positions_of_phase(self, access_positions: int) -> int:
        """Lanes per phase (log2) of a plain access covering ``access_positions`` offsets."""
        word_bits = max(0, access_positions + self.ebytes_log2 - 2)
        return LANE_BITS - word_bits


def _problem(src: LinearLayout, dst: LinearLayout, element_bits: int) -> _Problem:
    if element_bits not in (8, 16, 32, 64):
        raise SwizzleError(f"element_bits must be 8, 16, 32 or 64, not {element_bits}")
    if src.out_dims != dst.out_dims:
        raise SwizzleError(f"layouts of different tensors: {src.out_dims} vs {dst.out_dims}")
    s, d = _side_of(src), _side_of(dst)
    if len(s.warps) != len(d.warps):
        raise SwizzleError("source and destination have different numbers of warps")
    if s.blocks != d.blocks:
        raise SwizzleError("the conversion moves data between CTAs")
    if s.span != d.span:
        raise SwizzleError("the layouts hold different elements in a CTA")
    return _Problem(s, d, element_bits, src)


# ----------------------------------------------------------------- low part Q


def _fill_and_extend(p: _Problem, x: _Side, y: _Side, vector: Sequence[int]) -> list[int]:
    """Registers of x to append after the vector set (y's access stays the vector
    set): fill the 32-bit word with any of them — what sits inside a word never
    costs a bank — then extend with registers of x that are lanes of y's phase
    (no new bank pressure on y), then with others while y's bank set
    span(Q ∪ y's phase) still fits in one row of banks."""
    q = list(vector)
    y_lanes = [v for v in y.lanes[: p.lane_positions_of_phase(len(vector))] if v]
    y_phase = f2.rref(y_lanes)
    own = list(x.threads)

    def next_reg(pred) -> int | None:
        for r in x.regs:
            if _independent(r, q + own) and pred(r):
                return r
        return None

    while len(q) < min(p.sub, p.max_vector):
        # Keep y's phase lanes for the extension.
        r = next_reg(lambda v: not f2.in_span(v, y_phase)) or next_reg(lambda v: True)
        if r is None:
            return q
        q.append(r)
    while len(q) < p.max_vector:
        r = next_reg(lambda v: f2.in_span(v, y_phase))
        r = r or next_reg(lambda v: f2.rank(y_lanes + q + [v]) <= p.region)
        if r is None:
            break
        q.append(r)
    return q


def _pad_word(p: _Problem, q: Sequence[int]) -> tuple[int, ...]:
    """Fill the offsets inside the first 4-byte word with any vectors (lanes
    first): what sits below a word never costs a bank, but the segment must be
    chosen knowing it."""
    pool = [*p.src.threads, *p.dst.threads, *p.src.span]
    return tuple(q) + tuple(_pick(pool, q, max(0, min(p.sub, p.n) - len(q))))


def _plain_low_parts(p: _Problem) -> list[tuple[tuple[int, ...], int]]:
    """Candidate (vector part, cap on the access vector) for ld/st on both sides,
    most vectorised first; the last one (no vectors at all) always fits."""
    v = list(p.vector_set)
    out = [
        (_pad_word(p, _fill_and_extend(p, p.src, p.dst, v)), p.max_vector),
        (_pad_word(p, _fill_and_extend(p, p.dst, p.src, v)), p.max_vector),
        (_pad_word(p, v), p.max_vector),
        (_pad_word(p, []), 0),
    ]
    return list(dict.fromkeys(out))


def _template(p: _Problem, x: _Side, tile: LaneTile) -> list[int | None] | None:
    """What tile requires of the 16-byte row: None = a register of x, or an exact vector."""
    if tile.kind == "plain":
        return []
    if p.element_bits > 32 or (tile.kind == "matrix_trans" and p.element_bits != 16):
        return None
    if any(x.lanes[i] == 0 for i in tile.lane_contig):
        return None
    k_sub = (32 // p.element_bits).bit_length() - 1
    if tile.kind == "matrix":
        return [None] * k_sub + [x.lanes[i] for i in tile.lane_contig]
    return [x.lanes[i] for i in tile.lane_contig]


def _matrix_low_part(p: _Problem, tile_s: LaneTile, tile_d: LaneTile) -> tuple[int, ...] | None:
    """The 16-byte row both tiles accept: each slot is an exact lane vector or a
    register of its side (a shared register when both sides, or the other side's
    plain vector, can use it)."""
    ts, td = _template(p, p.src, tile_s), _template(p, p.dst, tile_d)
    if ts is None or td is None:
        return None
    if ts and td and len(ts) != len(td):
        return None
    q: list[int] = []
    for i in range(max(len(ts), len(td))):
        a = ts[i] if i < len(ts) else "free"
        b = td[i] if i < len(td) else "free"
        if a is None and b is None:
            pool = _pick(p.common, q + p.threads_all, 1)
        elif a is None or b is None:
            x, other = (p.src, b) if a is None else (p.dst, a)
            if other == "free":
                pool = _pick(p.common, q + p.threads_all, 1) or _pick(x.regs, q + list(x.threads), 1)
            else:
                pool = [other] if x.is_reg(other) else []
        elif a == "free" or b == "free":
            pool = [b if a == "free" else a]
        else:
            pool = [a] if a == b else []
        if not pool or not _independent(pool[0], q):
            return None
        q.append(pool[0])
    return tuple(q)


# ------------------------------------------------------------------- accesses


@dataclass(frozen=True)
class _Plan:
    """One side's access before the segment is known."""

    tile: LaneTile
    vector: int
    phase: tuple[int, ...]
    half: int | None
    select: tuple[int, ...]
    instructions: int
    phases: int

    @property
    def reserved(self) -> tuple[int, ...]:
        """Registers one instruction needs together (never reps)."""
        return ((self.half,) if self.half else ()) + self.select


def _access(p: _Problem, x: _Side, tile: LaneTile, q: Sequence[int], cap: int) -> _Plan | None:
    regs = 1 << len(x.regs)
    if tile.kind == "plain":
        v = 0
        while v < min(len(q), cap) and x.is_reg(q[v]):
            v += 1
        lanes = x.lanes[: p.lane_positions_of_phase(v)]
        phase = tuple(q[:v]) + tuple(c for c in lanes if c)
        access_bytes = (1 << v) << p.ebytes_log2
        return _Plan(tile, v, phase, None, (), regs >> v, max(1, access_bytes // WORD_BYTES))
    template = _template(p, x, tile)
    if template is None or len(q) < len(template):
        return None
    row = len(template)
    k = 32 // p.element_bits
    taken = [r for r in q[:row] if x.is_reg(r)]

    def prefer(avoid: list[int], limit: int) -> list[int]:
        # Registers only this side has first: a shared one may be worth more as a rep.
        pool = [r for r in x.regs if not p.is_common(r)] + [r for r in x.regs if p.is_common(r)]
        return _pick(pool, avoid, limit)

    half = None
    if tile.kind == "matrix_trans":
        h = prefer(list(q) + list(x.threads), 1)
        if not h:
            return None
        half = h[0]
        phase = tuple(q[:row]) + (half,) + tuple(c for c in x.lanes[:2] if c)
    else:
        phase = tuple(q[:row]) + tuple(c for c in x.lanes[2:] if c)
    select = tuple(prefer(list(q) + taken + ([half] if half else []) + list(x.threads), 2))
    per_instruction = k << len(select)
    if regs % per_instruction:
        return None
    return _Plan(tile, row, phase, half, select, regs // per_instruction, 1 << len(select))


# ------------------------------------------------------------------ the basis


def _choose_reps(
    p: _Problem, q: Sequence[int], banks: Sequence[list[int]], reserved: Sequence[int], room: int
) -> list[int]:
    """The rounds: as Triton does, the free part of the segment is taken from
    tensor bits in increasing order outside both bank sets, and those that are
    registers on both sides become reps — when independent of every thread
    vector and of the registers one instruction needs (no lane, warp or matrix
    straddles two rounds)."""
    free = _pick(p.unit_vectors, f2.rref(banks[0] + banks[1]), room)
    reps: list[int] = []
    fixed = list(q) + p.threads_all + list(reserved)
    for v in free:
        cand = reps + [v]
        if p.is_common(v) and f2.rank(fixed + cand) == f2.rank(fixed) + len(cand):
            reps = cand
    return reps


def _required(p: _Problem, q: Sequence[int], acc: Sequence[_Plan], reps: Sequence[int]) -> list[int] | None:
    """Vectors the middle part H of the basis (bank and non-rep segment) must
    contain so that every address splits as the accesses need:

    * plain side with vector v: its lane/warp vectors in span(Q[v:]) ⊕ H;
    * matrix side: its row-address lanes and warps in H, its registers in
      span(Q's registers, reps) ⊕ H.

    None when H cannot avoid Q ⊕ reps while containing them.
    """
    req: list[int] = []
    sides = sorted(zip((p.src, p.dst), acc), key=lambda xa: -xa[1].vector)
    for x, a in sides:
        if a.tile.kind == "plain":
            must, allowed = list(x.threads), list(q[a.vector :])
        else:
            addr = [x.lanes[i] for i in a.tile.lane_addr]
            must, allowed = addr + list(x.warps), []
        req += _pick(must, allowed + req)
        if a.tile.kind != "plain":
            q_regs = [v for v in q if x.is_reg(v)]
            req += _pick(x.regs, q_regs + list(reps) + req)
    if f2.rank(list(q) + list(reps) + req) != len(q) + len(reps) + len(req):
        return None
    return req


def _segment_in(
    hb: Sequence[int], gammas: Sequence[list[int]], size: int, cost
) -> list[int]:
    """``size`` vectors of span(hb) meeting the projected bank sets ``gammas``
    as little as possible: a complement of their sum, then the sums a_i ⊕ b_i
    (module lemma), then — conflicts being unavoidable — the cheapest."""
    g_s, g_d = gammas
    meet = f2.intersect_spans(g_s, g_d)
    a = _pick(g_s, meet)
    b = _pick(g_d, meet)
    union = f2.rref(g_s + g_d)
    free = _pick(hb, union) + [x ^ y for x, y in zip(a, b)]
    if len(free) >= size:
        return free[:size]
    seg = list(free)
    pool = [*a, *b, *meet, *hb]
    while len(seg) < size:
        best = min((v for v in pool if _independent(v, seg)), key=lambda v: cost(seg + [v]))
        seg.append(best)
    return seg


def _reduce(v: int, offset_of, positions: int, basis: Sequence[int]) -> int:
    """v with its coordinates at ``positions`` (a mask) cleared by adding basis vectors."""
    return v ^ f2.apply_columns(basis, offset_of(v) & positions)


def _phase_wavefronts(gens: Iterable[int], ebytes_log2: int) -> int:
    """Wavefronts of one phase whose element offsets span ``gens`` (affinely)."""
    byte_gens = [g << ebytes_log2 for g in gens] + [1 << j for j in range(ebytes_log2)]
    words = [b >> 2 for b in byte_gens]
    return 1 << (f2.rank(words) - f2.rank([w & (BANKS - 1) for w in words]))


def _build(
    p: _Problem, tile_s: LaneTile, tile_d: LaneTile, q: tuple[int, ...], cap: int, with_reps: bool
) -> SwizzledSmem | None:
    """The layout [Q | bank | segment | reps] for one vector part Q, or None.

    Reps first (shared registers outside both bank sets), then the middle part
    H ⊇ the vectors :func:`_required` names, then the segment inside H (the
    bank sets projected onto H along Q ⊕ reps), then the bank completes H.
    """
    n, c = p.n, p.region
    if len(q) > c:
        return None
    acc = [_access(p, p.src, tile_s, q, cap), _access(p, p.dst, tile_d, q, cap)]
    if acc[0] is None or acc[1] is None:
        return None
    banks = [f2.rref(list(a.phase) + list(q)) for a in acc]
    reserved = [v for a in acc for v in a.reserved]
    reps = _choose_reps(p, q, banks, reserved, n - c) if with_reps else []
    req = _required(p, q, acc, reps)
    if req is None:
        return None
    everything = [*p.common, *p.src.regs, *p.dst.regs, *p.src.span]
    hb = req + _pick(everything, list(q) + list(reps) + req)
    split = f2.column_echelon(list(q) + hb + list(reps))

    def onto_h(v: int) -> int:
        m = split.express(v) >> len(q)
        out = 0
        for j, h in enumerate(hb):
            if m >> j & 1:
                out ^= h
        return out

    gammas = [f2.rref([onto_h(v) for v in b]) for b in banks]
    weight = [a.instructions * a.phases for a in acc]

    def cost(seg: list[int]) -> int:
        full = seg + list(reps)
        return sum(w << _dim_meet(full, b) for w, b in zip(weight, banks))

    seg = _segment_in(hb, gammas, n - c - len(reps), cost)
    bank = _pick(hb, seg)
    basis = list(q) + bank + seg + list(reps)
    if len(basis) != n:  # pragma: no cover - Q ⊕ H ⊕ reps = T by construction
        return None
    ech = f2.column_echelon(basis)

    def offset_of(v: int) -> int:
        return ech.express(v)  # type: ignore[return-value]

    rep_mask = ((1 << len(reps)) - 1) << (n - len(reps))
    out: list[SideAccess] = []
    for x, a, b in zip((p.src, p.dst), acc, banks):
        access = _finish(p, x, a, basis, offset_of, rep_mask, len(b))
        if access is None:  # pragma: no cover - _required makes the split hold
            return None
        out.append(access)
    return SwizzledSmem(
        smem=_smem_layout(p, basis),
        element_bits=p.element_bits,
        vector=tuple(q),
        bank=tuple(bank),
        segment=tuple(seg),
        reps=tuple(reps),
        store=out[0],
        load=out[1],
        num_warps=1 << len(p.src.warps),
        region=c,
    )


def _finish(
    p: _Problem, x: _Side, a: _Plan, basis: Sequence[int], offset_of, rep_mask: int, bank_set_dim: int
) -> SideAccess | None:
    """Check that x's addresses split as the access needs; measure its phases."""
    row_mask = (1 << a.vector) - 1
    if a.tile.kind == "plain":
        if any(offset_of(t) & (row_mask | rep_mask) for t in x.threads):
            return None
        gens = [1 << j for j in range(a.vector)]
        gens += [offset_of(t) for t in x.lanes[: p.lane_positions_of_phase(a.vector)]]
        wf = _phase_wavefronts(gens, p.ebytes_log2)
        return SideAccess(a.tile, a.vector, None, (), a.instructions, a.phases, wf, bank_set_dim)
    contig = [x.lanes[i] for i in a.tile.lane_contig]
    first = a.vector - len(contig)
    lane_mask = ((1 << len(contig)) - 1) << first
    if any(offset_of(v) != 1 << (first + j) for j, v in enumerate(contig)):
        return None
    addr_lanes = [x.lanes[i] for i in a.tile.lane_addr]
    if any(offset_of(t) & (row_mask | rep_mask) for t in addr_lanes + list(x.warps)):
        return None
    if any(offset_of(r) & lane_mask for r in x.regs):
        return None
    # Half and selects free of sub-word and rep coordinates (both spanned by registers).
    clear = ((1 << first) - 1) | rep_mask
    half = _reduce(a.half, offset_of, clear, basis) if a.half else None
    select = tuple(_reduce(s, offset_of, clear, basis) for s in a.select)
    if any(offset_of(v) & (row_mask | rep_mask) for v in ((half,) if half else ()) + select):
        return None
    gens = [1 << j for j in range(a.vector)]
    gens += [offset_of(v) for v in ((half,) if half else ()) + tuple(addr_lanes)]
    wf = _phase_wavefronts(gens, p.ebytes_log2)
    return SideAccess(a.tile, a.vector, half, select, a.instructions, a.phases, wf, bank_set_dim)


def _smem_layout(p: _Problem, basis: Sequence[int]) -> LinearLayout:
    out_dims = p.layout.out_dims
    name = next(iter(out_dims)) if out_dims else "dim0"
    total = 1
    for s in out_dims.values():
        total *= s
    bases = {"offset": [[v] for v in basis]}
    if p.src.blocks and any(p.src.blocks):
        bases["block"] = [[v] for v in p.src.blocks]
    flat = LinearLayout.from_bases(bases, {name: total})
    return flat.reshape_outs(list(out_dims.items()))


def plan_rank(s: SwizzledSmem) -> tuple[int, int, int, int, int]:
    """How layouts compare: fewest bank conflicts (wavefronts above the lower
    bound; as Triton ranks), then fewest wavefronts, shared instructions,
    rounds (each costs two barriers), scratch bytes."""
    total = sum(s.wavefronts)
    return (total - sum(s.wavefront_lower_bound), total, s.instructions, s.rounds, s.scratch_bytes)


def optimal_swizzling(
    src: LinearLayout,
    dst: LinearLayout,
    element_bits: int,
    *,
    src_tile: LaneTile = PLAIN_TILE,
    dst_tile: LaneTile = PLAIN_TILE,
) -> SwizzledSmem:
    """The shared-memory layout for storing ``src`` and loading ``dst`` with the
    given lane tiles: maximal vectorisation, then the fewest wavefronts, then the
    fewest instructions, then the fewest rounds (:func:`plan_rank`); the reps
    are the segment's shared registers, as Triton takes them.

    For plain tiles the vector part is the vector set, filled and extended for
    the store or for the load (both are tried, and smaller ones when an address
    would not split); for matrix tiles it is the 16-byte row the instruction
    fixes. Raises :class:`SwizzleError` when the tiles do not fit the layouts
    (e.g. ``ldmatrix`` on 64-bit elements, or a lane the row needs is broadcast).
    """
    p = _problem(src, dst, element_bits)
    if src_tile.kind == "plain" and dst_tile.kind == "plain":
        lows = _plain_low_parts(p)
    else:
        low = _matrix_low_part(p, src_tile, dst_tile)
        lows = [(low, p.max_vector)] if low is not None else []
    best: SwizzledSmem | None = None
    for q, cap in lows:
        # Reps as Triton takes them; without them only where they would split an address.
        s = _build(p, src_tile, dst_tile, q, cap, True) or _build(p, src_tile, dst_tile, q, cap, False)
        if s is not None and (best is None or plan_rank(s) < plan_rank(best)):
            best = s
    if best is None:
        raise SwizzleError(f"no shared-memory layout for lane tiles {src_tile}/{dst_tile}")
    return best


def conflict_free_reachable(src: LinearLayout, dst: LinearLayout, element_bits: int) -> bool:
    """Whether the store and the load can both be conflict-free (paper §9.2).

    Let Q be the vector part chosen for ``ld/st.shared`` (maximal vectorisation)
    and ``B_X = span(Q ∪ tile_X)`` each side's bank set (tile_X: the lane
    vectors of one phase). When ``dim B_S ≤ c`` and ``dim B_D ≤ c``, with
    c = log2(128 bytes / element bytes) offsets in one row of banks (n if the
    tensor is smaller), the two bank sets have a common complement part of
    dimension n − c (module lemma) and it is a conflict-free segment. A plain
    phase spans at most 128 bytes and the fill/extension rules keep Q inside
    both phases, so this holds for every pair of distributed layouts; the
    function checks it on the layout actually built.
    """
    try:
        s = optimal_swizzling(src, dst, element_bits)
    except SwizzleError:
        return False
    return max(s.store.bank_set_dim, s.load.bank_set_dim) <= s.region
