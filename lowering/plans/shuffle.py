"""Warp shuffles: converting between two layouts whose warps hold the same data.

Everything is F2 linear algebra on bit-vectors packed in ints. Seen from one
warp, a distributed layout is a map from (register, lane) bits to element bits
(flat tensor indices, first out dim lowest), plus an offset per warp:

* ``S = (S_r | S_l)``: the source's register columns (broadcast registers
  stripped) and lane columns; ``D = (D_r | D_l)`` the destination's.
* ``U = span(S_r, S_l)``: the elements of one warp; ``Q_S = span S_r`` and
  ``Q_D = span D_r``: what a thread holds relative to its lane's offset.
* ``Δ = D_warp ⊕ S_warp`` (each column in ``U``): how a destination warp's data
  is shifted against the source warp's; zero when
  ``dst.invert_and_compose(src)`` is trivial over warps.

**Rounds.** The destination registers of a thread (stripped index ``y``, ``n_D``
bits) split as ``y = ρ ⊕ v``: ``v`` in the *vector set* ``V`` (registers both
layouts keep together, packed into one 32-bit word) and ``ρ`` in a complement
``R`` — the *round*. In round ρ lane ``l`` fills its registers ``ρ ⊕ β(l) ⊕ V``:
the elements ``D_r ρ ⊕ X l ⊕ V`` with ``X = D_l ⊕ D_r β``. It reads them, as
one word, from lane ``s0(ρ) ⊕ Σ l``, which holds them in registers ``a0(ρ) ⊕
α l ⊕ V``, by the *exchange identity*

    D_l ⊕ D_r β = S_l Σ ⊕ S_r α,        ker Σ ∩ ker π ⊆ ker X

(the kernel condition lets the sending lane pick its register from its own
lane index, ``α = A' Σ`` on ``ker π``). ``E = image X`` is the *exchange
basis*: the elements lanes trade in a round; it lies in ``U_D = span(D_r,
D_l)`` and complements ``Q_D`` there. Its part in ``Q_S`` sits in one source
thread, which only the source's broadcast copies of that lane can send; when
those run short, ``π`` (lane → sub-round bits) serves the receivers in
separate shuffles (*sub-rounds*). The sender's choice of register costs
``2^rank(α) − 1`` selects per element (a ``Select`` before the shuffle), the
receiver's filing ``2^rank(β) − 1`` (a ``Select`` after). A round whose
source lane is the reading lane itself (``Σ = id`` and ``D_r ρ ∈ Q_S``) moves
nothing between lanes and costs no shuffle — this is what makes Triton's
"ship" half the shuffles of "swap"; its elements are read in place. Warp
offsets are absorbed the same way (``Δ ⊕ D_r β_w = S_l Σ_w ⊕ S_r α_w``); a
shuffle's source lane may not depend on the warp, so a lane part ``Σ_w ≠ 0``
costs one *copy* of each round per value of ``Σ_w`` (each warp keeps its own
by a select).

Two constructions choose (V, β, Σ, α):

1. :func:`plan_shuffle_rounds`, the paper's §5.4 (Zhou et al., *Linear
   Layouts*, arXiv 2505.23819), one shuffle round per element of ``R``:
   ``V`` from the registers the layouts share; ``E`` grown from ``I = span
   S_l ∩ span D_l`` (lanes that stay lanes), then lane vectors of either
   side, and the rest paired (``G``: a source vector ⊕ a destination vector)
   so that ``E`` meets ``Q_S`` least. ``Σ = id`` (in-thread rounds free) is a
   candidate whenever every ``D_l[i] ⊕ S_l[i]`` lies in ``Q_S + Q_D``.
2. :func:`plan_swap_ship`, Triton's decomposition of the register/lane bit
   permutation into lane permutation (``Σ``) and register–lane
   transpositions (select, shuffle, select: ``β``, ``α``); "ship" when the
   lane permutation is the identity. Declines (``None``) unless the
   destination's columns are a permutation of the source's.

:func:`plan_warp_shuffle` returns the cheaper by issue slots (a shuffle 1, a
select ¼), then fewest shuffles, selects, moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ltc import f2
from ltc.linear_layout import LinearLayout
from ltc.lowering.plans.broadcast import strip_register_broadcast
from ltc.lowering.plans.locality import HARDWARE_DIMS, check_convertible, trivial_over
from ltc.lowering.plans.plan import (
    ConversionPlan,
    Instruction,
    Move,
    PlanError,
    PlanStep,
    Reg,
    Select,
    Shuffle,
    ThreadAffine,
)

__all__ = [
    "is_warp_local",
    "plan_shuffle_rounds",
    "plan_swap_ship",
    "plan_warp_shuffle",
    "shuffle_round_bound",
]


# --------------------------------------------------------------- F2 helpers
def _table(constant: int, cols: Sequence[int]) -> np.ndarray:
    """``t[x] = constant ⊕ f2.apply_columns(cols, x)`` for every x < 2^len(cols)."""
    t = np.array([constant], dtype=np.int64)
    for c in cols:
        t = np.concatenate([t, t ^ c])
    return t


def _kernel(cols: Sequence[int]) -> list[int]:
    """A basis of ``{x : f2.apply_columns(cols, x) = 0}``."""
    ech = f2.ColumnEchelon()
    out = []
    for i, c in enumerate(cols):
        if not ech.add(c):
            out.append(ech.express(c) | (1 << i))
    return out


def _span(basis: Sequence[int]) -> list[int]:
    """Every vector of span(basis) (basis independent), indexed by coordinates."""
    return [f2.apply_columns(basis, x) for x in range(1 << len(basis))]


# ------------------------------------------------------------------ problem
@dataclass(frozen=True)
class _WarpProblem:
    """The conversion as seen from one warp (see the module doc)."""

    src: LinearLayout
    dst: LinearLayout
    element_bits: int
    s_reg: tuple[int, ...]  # stripped source register columns
    s_lane: tuple[int, ...]
    d_reg: tuple[int, ...]  # stripped destination register columns
    d_lane: tuple[int, ...]
    warp_offset: tuple[int, ...]  # Δ
    s_kept: tuple[int, ...]  # original register bit of each stripped source bit
    d_kept: tuple[int, ...]
    d_restore: tuple[Move, ...]

    @property
    def lane_bits(self) -> int:
        return len(self.s_lane)

    @property
    def warp_bits(self) -> int:
        return len(self.warp_offset)

    @property
    def max_vector_bits(self) -> int:
        """log2 of how many elements one 32-bit shuffle word carries (0 for 64-bit)."""
        return max(0, (32 // self.element_bits).bit_length() - 1)


def _columns(layout: LinearLayout) -> dict[str, list[int]]:
    by_dim = layout.flat_columns_by_in_dim()
    return {d: list(by_dim.get(d, ())) for d in HARDWARE_DIMS}


def _locality_error(src: LinearLayout, dst: LinearLayout) -> str | None:
    """Why ``src → dst`` is not a warp-local conversion, or None when it is."""
    try:
        check_convertible(src, dst)
    except PlanError as e:
        return str(e)
    if not trivial_over(src, dst, ("warp", "block")):
        return "a destination warp holds data its source warp does not"
    if src.flat_columns_by_in_dim().get("block", ()) != dst.flat_columns_by_in_dim().get("block", ()):
        return "the layouts split the tensor over blocks differently"
    return None


def is_warp_local(src: LinearLayout, dst: LinearLayout) -> bool:
    """Whether every warp of ``dst`` holds only elements the same warp of ``src`` holds.

    Precisely: the conversion is trivial over warp and block
    (``ltc.lowering.plans.locality``: each destination register and lane column lies
    in ``U = span(src register, lane columns)``, each warp column differs from
    the source's by a vector of ``U``) and the block columns are equal. This holds
    whenever ``dst.invert_and_compose(src)`` is trivial over warp and block
    (then the warp columns are equal), and also when broadcast or offset warps
    make that map non-trivial while each warp still has its data.
    """
    return _locality_error(src, dst) is None


def _warp_problem(src: LinearLayout, dst: LinearLayout, element_bits: int) -> _WarpProblem:
    if element_bits not in (8, 16, 32, 64):
        raise PlanError(f"element width {element_bits} bits is not 8, 16, 32 or 64")
    why = _locality_error(src, dst)
    if why is not None:
        raise PlanError(f"not a warp-local conversion: {why}")
    a, b = _columns(src), _columns(dst)
    sb, db = strip_register_broadcast(src), strip_register_broadcast(dst)
    return _WarpProblem(
        src=src,
        dst=dst,
        element_bits=element_bits,
        s_reg=tuple(a["register"][i] for i in sb.kept_bits),
        s_lane=tuple(a["lane"]),
        d_reg=tuple(b["register"][i] for i in db.kept_bits),
        d_lane=tuple(b["lane"]),
        warp_offset=tuple(c ^ s for c, s in zip(b["warp"], a["warp"])),
        s_kept=tuple(sb.kept_bits),
        d_kept=tuple(db.kept_bits),
        d_restore=db.restore_moves("dst"),
    )


# --------------------------------------------------------------- vector set
def _vector_set(p: _WarpProblem) -> tuple[int, ...]:
    """V: up to ``32 / element_bits`` elements both layouts keep in one thread.

    A basis of a subspace of ``Q_S ∩ Q_D``, preferring single source register
    bits that are also single destination register bits, lowest first (the
    word is then a run of neighbouring registers on both sides).
    """
    limit = p.max_vector_bits
    if limit == 0:
        return ()
    common = f2.intersect_spans(p.s_reg, p.d_reg)
    if not common:
        return ()
    d_set = set(p.d_reg)

    def preference(ic: tuple[int, int]) -> tuple[int, int]:
        i, c = ic
        same_place = i < len(p.d_reg) and p.d_reg[i] == c
        return (0 if same_place else 1 if c in d_set else 2, i)

    bits = [c for _, c in sorted(enumerate(p.s_reg), key=preference) if f2.in_span(c, common)]
    ech = f2.ColumnEchelon()
    out = []
    for c in bits + list(common):
        if len(out) == limit:
            break
        if ech.add(c):
            out.append(c)
    return tuple(out)


def _warp_lane_rank(p: _WarpProblem) -> int:
    """d: the rank of the warp offsets modulo ``Q_S + Q_D`` (lane moves that depend on the warp)."""
    return f2.rank(f2.reduce_by(c, f2.echelon_basis(p.s_reg + p.d_reg)) for c in p.warp_offset)


def _sub_round_bits(p: _WarpProblem) -> int:
    """z: the doublings of rounds forced when a source thread holds more than its lane copies can send.

    The elements one destination warp needs (``U_D = span(D_r, D_l)``) that
    lie in one source thread's register span number ``2^dim(Q_S ∩ U_D)``;
    a round's exchange basis (dim ``dim U_D − n_D``) must meet that span in
    at least ``dim(Q_S ∩ U_D) − n_D`` dimensions, and each dimension beyond
    the source's lane broadcast ``κ_S`` needs another sub-round.
    """
    universe = f2.echelon_basis(list(p.d_reg) + list(p.d_lane))
    inner = len(f2.intersect_spans(p.s_reg, universe))
    lane_broadcast = p.lane_bits - (f2.rank(list(p.s_reg) + list(p.s_lane)) - len(p.s_reg))
    return max(0, inner - len(p.d_reg) - lane_broadcast)


def shuffle_round_bound(src: LinearLayout, dst: LinearLayout, element_bits: int) -> int:
    """The paper's bound on shuffle rounds (one 32-bit word per lane each) for ``src → dst``.

    ``2^(n_D − v + d + z)``:

    * ``n_D``: destination register bits after stripping broadcast (``2^n_D``
      distinct elements per thread; every one arrives in exactly one round);
    * ``v = min(dim(span S_r ∩ span D_r), log2(32 / element_bits))``: the
      vector set, elements per word (0 for 64-bit elements, whose one-element
      words take two ``shfl`` each — count those as one round);
    * ``d``: rank of the warp offsets modulo ``span S_r + span D_r``. Zero when
      ``dst.invert_and_compose(src)`` is trivial over warps; otherwise each
      round needs ``2^d`` copies because a shuffle's source lane cannot
      depend on the warp;
    * ``z``: zero unless one source thread holds more elements a destination
      warp needs than lanes can carry per round: ``max(0, dim(Q_S ∩ U_D) −
      n_D − κ_S)`` with ``U_D = span(D_r, D_l)`` and ``κ_S`` the source's
      broadcast lane bits (see the module doc).

    In-thread rounds cost nothing, so a plan's shuffle rounds can be fewer.
    Raises :class:`PlanError` if the conversion is not warp-local.
    """
    p = _warp_problem(src, dst, element_bits)
    v = min(len(f2.intersect_spans(p.s_reg, p.d_reg)), p.max_vector_bits)
    return 1 << (len(p.d_reg) - v + _warp_lane_rank(p) + _sub_round_bits(p))


# ------------------------------------------------------------------ exchange
@dataclass(frozen=True)
class _Exchange:
    """One choice of (V, β, Σ, α) and their warp counterparts (see the module doc).

    Lane columns: ``beta[i]`` (destination register vector), ``sigma[i]``
    (lane vector), ``alpha[i]`` (source register vector) for lane bit i; warp
    columns likewise. Register vectors are over the stripped registers.
    A round's *copies* are indexed by ``γ = π(lane) | c(warp) << split_bits``.
    """

    vector: tuple[int, ...]
    beta: tuple[int, ...]
    sigma: tuple[int, ...]
    alpha: tuple[int, ...]
    beta_w: tuple[int, ...]
    sigma_w: tuple[int, ...]
    alpha_w: tuple[int, ...]
    name: str = ""
    notes: tuple[str, ...] = field(default=(), compare=False)
    # π: lane bit -> sub-round bits (``split_bits`` of them). Receivers in
    # different sub-rounds take separate shuffles, so only ker Σ ∩ ker π must
    # lie in ker X (when the source holds more per thread than lanes can send).
    split: tuple[int, ...] = ()
    split_bits: int = 0


class _Splitter:
    """Writes vectors of ``Q_S + Q_D`` as ``S_r a ⊕ D_r b``, keeping the select ranks low.

    The split is unique up to ``J = Q_S ∩ Q_D``; each new vector takes the
    offset in J that grows ``2^rank(pre) + 2^rank(post)`` least.
    """

    def __init__(self, p: _WarpProblem) -> None:
        self.n_s = len(p.s_reg)
        self.ech = f2.column_echelon(p.s_reg + p.d_reg)
        s_ech, d_ech = f2.column_echelon(p.s_reg), f2.column_echelon(p.d_reg)
        common = f2.intersect_spans(p.s_reg, p.d_reg)
        pairs = [(s_ech.express(j), d_ech.express(j)) for j in common]
        # Enumerate offsets only while that stays cheap.
        self.offsets = (
            [(f2.apply_columns([a for a, _ in pairs], x), f2.apply_columns([b for _, b in pairs], x)) for x in range(1 << len(pairs))]
            if len(pairs) <= 6
            else [(0, 0)] + pairs
        )

    def split(self, q: int) -> tuple[int, int] | None:
        m = self.ech.express(q)
        if m is None:
            return None
        return m & ((1 << self.n_s) - 1), m >> self.n_s

    def best(self, q: int, pre: list[int], post: list[int]) -> tuple[int, int]:
        base = self.split(q)
        assert base is not None
        best, best_cost = base, None
        for oa, ob in self.offsets:
            a, b = base[0] ^ oa, base[1] ^ ob
            cost = (1 << f2.rank(pre + [a])) + (1 << f2.rank(post + [b])), a.bit_count() + b.bit_count()
            if best_cost is None or cost < best_cost:
                best, best_cost = (a, b), cost
        return best


def _warp_columns(
    p: _WarpProblem, splitter: _Splitter, alpha: list[int], beta: list[int]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(β_w, Σ_w, α_w): each warp offset as ``S_l Σ_w ⊕ S_r α_w ⊕ D_r β_w`` with Σ_w of least rank."""
    qsd = f2.echelon_basis(p.s_reg + p.d_reg)
    lane_ech = f2.column_echelon(list(p.s_reg) + list(p.d_reg) + list(p.s_lane))
    n = len(p.s_reg) + len(p.d_reg)
    bw, sw, aw = [], [], []
    for c in p.warp_offset:
        # The lane part: reduce modulo Q_S + Q_D first, so Σ_w has least rank.
        m = lane_ech.express(c)
        assert m is not None
        lanes = m >> n
        rest = c ^ f2.apply_columns(p.s_lane, lanes)
        assert f2.in_span(rest, qsd)
        a, b = splitter.best(rest, alpha + aw, beta + bw)
        aw.append(a)
        bw.append(b)
        sw.append(lanes)
    return tuple(bw), tuple(sw), tuple(aw)


def _self_exchange(p: _WarpProblem, vector: tuple[int, ...]) -> _Exchange | None:
    """Σ = id: possible when every ``D_l[i] ⊕ S_l[i]`` lies in ``Q_S + Q_D``.

    Then rounds with ``D_r ρ ∈ Q_S`` stay in-thread (no shuffle).
    """
    splitter = _Splitter(p)
    alpha: list[int] = []
    beta: list[int] = []
    for dl, sl in zip(p.d_lane, p.s_lane):
        if splitter.split(dl ^ sl) is None:
            return None
        a, b = splitter.best(dl ^ sl, alpha, beta)
        alpha.append(a)
        beta.append(b)
    bw, sw, aw = _warp_columns(p, splitter, alpha, beta)
    lanes = tuple(1 << i for i in range(p.lane_bits))
    return _Exchange(vector, tuple(beta), lanes, tuple(alpha), bw, sw, aw, "paper §5.4 shuffles (in-thread rounds)")


def _complete_exchange(p: _WarpProblem, start: Sequence[int]) -> tuple[list[int], int] | None:
    """Extend ``start`` to an exchange basis E; returns (E, sub-round bits it needs), or None.

    E lies in ``U_D = span(D_r, D_l)`` (what one destination warp holds) and
    complements ``Q_D`` there. Its elements in ``Q_S`` all come from copies
    of one source thread; beyond the source's lane broadcast ``κ_S`` each
    costs a sub-round, so ``max(0, dim(E ∩ Q_S) − κ_S)`` is returned. The
    extension is the pairing construction in ``U_D / start``: with ``J⁺ =
    (Q_S' + start) ∩ (Q_D + start)`` (``Q_S' = Q_S ∩ U_D``), source vectors
    ``a_i`` and destination vectors ``b_i`` completing J⁺, and ``W``
    completing both (lane vectors first), E = start ∪ W ∪ {a_i ⊕ b_i} ∪
    unpaired ``a_i`` — the least intersection with ``Q_S`` given ``start``.
    """
    e0 = list(start)
    universe = f2.echelon_basis(list(p.d_reg) + list(p.d_lane))
    if any(not f2.in_span(c, universe) for c in e0):
        return None
    qs_inner = f2.intersect_spans(p.s_reg, universe)
    qs_plus = qs_inner + e0
    qd_plus = list(p.d_reg) + e0
    j_plus = f2.intersect_spans(qs_plus, qd_plus)
    ech_a = f2.column_echelon(j_plus)
    a_vecs = [c for c in qs_inner if ech_a.add(c)]
    ech_b = f2.column_echelon(j_plus)
    b_vecs = [c for c in p.d_reg if ech_b.add(c)]
    ech_w = f2.column_echelon(qs_plus + qd_plus)
    candidates = list(p.d_lane) + [c for c in p.s_lane if f2.in_span(c, universe)] + universe
    w_vecs = [c for c in candidates if c and ech_w.add(c)]
    pairs = [a ^ b for a, b in zip(a_vecs, b_vecs)] + a_vecs[len(b_vecs):]
    e = e0 + w_vecs + pairs
    u = len(universe)
    if len(e) != u - len(p.d_reg) or f2.rank(e + list(p.d_reg)) != u:
        return None
    lane_broadcast = p.lane_bits - (f2.rank(list(p.s_reg) + list(p.s_lane)) - len(p.s_reg))
    return e, max(0, len(f2.intersect_spans(e, p.s_reg)) - lane_broadcast)


def _exchange_from_basis(p: _WarpProblem, vector: tuple[int, ...], e: list[int], name: str) -> _Exchange:
    """β from E (X l = the element of E in ``D_l l ⊕ Q_D``), then Σ and α (kernel condition, small rank α)."""
    n_e = len(e)
    proj = f2.column_echelon(e + list(p.d_reg))
    x_cols, beta = [], []
    for c in p.d_lane:
        m = proj.express(c)
        assert m is not None
        x_cols.append(f2.apply_columns(e, m & ((1 << n_e) - 1)))
        beta.append(m >> n_e)
    sigma, alpha, split, split_bits = _sigma_alpha(p, x_cols)
    splitter = _Splitter(p)
    bw, sw, aw = _warp_columns(p, splitter, list(alpha), list(beta))
    return _Exchange(
        vector, tuple(beta), sigma, alpha, bw, sw, aw, name, split=split if split_bits else (), split_bits=split_bits
    )


def _sigma_alpha(
    p: _WarpProblem, x_cols: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
    """Σ, α, π with ``S_l Σ ⊕ S_r α = X`` and ``ker Σ ∩ ker π ⊆ ker X``; α of small rank.

    Work in a lane basis adapted to ``ker X ⊆ N = X⁻¹(Q_S)``. ker X maps to 0.
    The rest of N holds receivers whose elements sit in one source thread:
    they map injectively into the source's broadcast lanes ``K_S =
    S_l⁻¹(Q_S)`` (copies of that thread) while those last, and beyond that
    each gets a sub-round bit of π (Σ = 0 there). The remaining basis
    vectors take any solution. Returns (Σ, α, π columns, number of π bits).
    """
    n_l = p.lane_bits
    n_s = len(p.s_reg)
    qs = f2.echelon_basis(p.s_reg)
    k_span = _span(_kernel([f2.reduce_by(c, qs) for c in p.s_lane]))
    ech = f2.ColumnEchelon()
    b0 = [v for v in _kernel(list(x_cols)) if ech.add(v)]
    b1 = [v for v in _kernel([f2.reduce_by(c, qs) for c in x_cols]) if ech.add(v)]
    b2 = [1 << i for i in range(n_l) if ech.add(1 << i)]
    src_ech = f2.column_echelon(list(p.s_reg) + list(p.s_lane))
    reg_ech = f2.column_echelon(p.s_reg)
    sent = f2.ColumnEchelon()  # the Σ values so far (must stay independent)
    alphas: list[int] = []
    basis = list(b0)
    sig_vals = [0] * len(b0)
    alpha_vals = [0] * len(b0)
    split_vals = [0] * len(b0)
    split_bits = 0
    for v in b1 + b2:
        x = f2.apply_columns(x_cols, v)
        if v in b1:
            candidates = [k for k in k_span if k]
        else:
            m = src_ech.express(x)
            assert m is not None
            candidates = [(m >> n_s) ^ k for k in k_span]
        best = None
        for lam in candidates:
            if sent.express(lam) is not None:
                continue
            a = reg_ech.express(x ^ f2.apply_columns(p.s_lane, lam))
            assert a is not None
            cost = (f2.rank(alphas + [a]), a.bit_count())
            if best is None or cost < best[0]:
                best = (cost, lam, a)
        basis.append(v)
        if best is None:
            # Every copy of this source thread already sends: a new sub-round.
            assert v in b1
            a = reg_ech.express(x)
            sig_vals.append(0)
            alpha_vals.append(a)
            split_vals.append(1 << split_bits)
            split_bits += 1
        else:
            _, lam, a = best
            sent.add(lam)
            sig_vals.append(lam)
            alpha_vals.append(a)
            split_vals.append(0)
        alphas.append(alpha_vals[-1])
    # Back to unit lane vectors.
    to_basis = f2.column_echelon(basis)
    sigma, alpha, split = [], [], []
    for i in range(n_l):
        m = to_basis.express(1 << i)
        assert m is not None
        sigma.append(f2.apply_columns(sig_vals, m))
        alpha.append(f2.apply_columns(alpha_vals, m))
        split.append(f2.apply_columns(split_vals, m))
    return tuple(sigma), tuple(alpha), tuple(split), split_bits


def _complement_exchanges(p: _WarpProblem, vector: tuple[int, ...]) -> list[_Exchange]:
    """Exchange bases grown greedily from ``I = span S_l ∩ span D_l``, lane vectors of either side, then paired."""
    inter = f2.intersect_spans(p.s_lane, p.d_lane)
    d_lane = [c for c in p.d_lane if c]
    s_lane = [c for c in p.s_lane if c]
    orders = {
        "I, destination lanes, source lanes": inter + d_lane + s_lane,
        "I, source lanes, destination lanes": inter + s_lane + d_lane,
        "pairs only": [],
    }
    least = _complete_exchange(p, [])
    assert least is not None
    out = []
    for label, order in orders.items():
        e0: list[int] = []
        for c in order:
            if f2.rank(e0 + [c] + list(p.d_reg)) != len(e0) + 1 + len(p.d_reg):
                continue
            got = _complete_exchange(p, e0 + [c])
            if got is not None and got[1] <= least[1]:
                e0.append(c)
        got = _complete_exchange(p, e0)
        assert got is not None
        out.append(_exchange_from_basis(p, vector, got[0], f"paper §5.4 shuffles (E from {label})"))
    return out


def _permutation_exchange(p: _WarpProblem, vector: tuple[int, ...]) -> _Exchange | None:
    """Triton's decomposition: match every destination column to a source column (a bit permutation).

    A destination lane from a source lane is part of the lane permutation Σ;
    a destination lane from source register q is paired with a destination
    register from source lane p (preferring p = the same lane bit, as a
    transposition ``(r_i l_j)``): ``β = e_i, α = e_q, Σ = e_p``. A destination
    register from a source lane left unpaired just makes its rounds read
    another lane. Zero (broadcast) lanes match zero lanes.
    """
    s_reg_pos = {c: i for i, c in reversed(list(enumerate(p.s_reg)))}
    s_lane_pos = {c: i for i, c in reversed(list(enumerate(p.s_lane))) if c}
    src_zero = [i for i, c in enumerate(p.s_lane) if c == 0]
    mixed_regs: dict[int, int] = {}  # destination register bit -> source lane bit
    for i, c in enumerate(p.d_reg):
        if c in s_reg_pos:
            continue
        if c in s_lane_pos:
            mixed_regs[i] = s_lane_pos[c]
        else:
            return None
    beta, sigma, alpha = [0] * p.lane_bits, [0] * p.lane_bits, [0] * p.lane_bits
    unpaired_lanes = []
    for j, c in enumerate(p.d_lane):
        if c == 0:
            if src_zero:
                sigma[j] = 1 << src_zero.pop(0)
        elif c in s_lane_pos:
            sigma[j] = 1 << s_lane_pos[c]
        elif c in s_reg_pos:
            unpaired_lanes.append(j)
        else:
            return None
    for j in unpaired_lanes:
        q = s_reg_pos[p.d_lane[j]]
        alpha[j] = 1 << q
        partner = next((i for i, lane in mixed_regs.items() if lane == j), None)
        if partner is None and mixed_regs:
            partner = next(iter(mixed_regs))
        if partner is not None:
            beta[j] = 1 << partner
            sigma[j] = 1 << mixed_regs.pop(partner)
        elif src_zero:
            sigma[j] = 1 << src_zero.pop(0)
        else:
            return None
    splitter = _Splitter(p)
    bw, sw, aw = _warp_columns(p, splitter, alpha, beta)
    ship = all(s == 1 << i for i, s in enumerate(sigma))
    name = "swap/ship: " + ("ship (no lane permutation: in-thread rounds skip the shuffle)" if ship else "swap")
    x = _Exchange(vector, tuple(beta), tuple(sigma), tuple(alpha), bw, sw, aw, name)
    return x if _identity_holds(p, x) else None


def _identity_holds(p: _WarpProblem, x: _Exchange) -> bool:
    for dl, b, s, a in zip(p.d_lane, x.beta, x.sigma, x.alpha):
        if dl ^ f2.apply_columns(p.d_reg, b) != f2.apply_columns(p.s_lane, s) ^ f2.apply_columns(p.s_reg, a):
            return False
    for dw, b, s, a in zip(p.warp_offset, x.beta_w, x.sigma_w, x.alpha_w):
        if dw ^ f2.apply_columns(p.d_reg, b) != f2.apply_columns(p.s_lane, s) ^ f2.apply_columns(p.s_reg, a):
            return False
    x_cols = [dl ^ f2.apply_columns(p.d_reg, b) for dl, b in zip(p.d_lane, x.beta)]
    for k in _kernel(_stack(x.sigma, _split(x), p.lane_bits)):
        if f2.apply_columns(x_cols, k) or f2.apply_columns(list(x.alpha), k):
            return False
    return True


def _split(x: _Exchange) -> tuple[int, ...]:
    return x.split or (0,) * len(x.sigma)


def _stack(a: Sequence[int], b: Sequence[int], shift: int) -> list[int]:
    """Columns of the map (a, b) into the concatenated space (b's bits above ``shift``)."""
    return [u | v << shift for u, v in zip(a, b)]


# --------------------------------------------------------------------- emit
@dataclass
class _Tmp:
    """The tmp register file: aligned regions, so affine indices stay affine."""

    top: int = 0

    def alloc(self, size: int) -> int:
        base = -(-self.top // size) * size
        self.top = base + size
        return base


def _emit(p: _WarpProblem, x: _Exchange, bypass: bool) -> tuple[ConversionPlan, bool]:
    """The plan of exchange ``x`` and whether it has in-thread rounds.

    ``bypass``: destination registers read in-thread rounds straight from the
    source registers where that keeps one affine select (Triton's "ship"
    selects); otherwise those rounds are selected into tmp first.
    """
    assert _identity_holds(p, x), "exchange identity violated"
    n_l, n_w = p.lane_bits, p.warp_bits
    n_s, n_d = len(p.s_reg), len(p.d_reg)
    src_ech = f2.column_echelon(list(p.s_reg) + list(p.s_lane))
    reg_s = f2.column_echelon(p.s_reg)
    reg_d = f2.column_echelon(p.d_reg)
    v_bits = len(x.vector)
    v_src = [reg_s.express(c) for c in x.vector]
    v_dst = [reg_d.express(c) for c in x.vector]
    rounds_basis = f2.complement_basis(v_dst, n_d)
    n_r = len(rounds_basis)
    coord_ech = f2.column_echelon(v_dst + rounds_basis)
    coord_of = _table(0, [coord_ech.express(1 << i) for i in range(n_d)])  # dst reg vector -> (k | ρ << v)
    # Copies γ = σ | c << z: σ the sub-round (π of the lane), c the warp's lane offset Σ_w.
    z = x.split_bits
    split = _split(x)
    split_ech = f2.column_echelon(split)
    sub_round_lanes = [split_ech.express(1 << b) for b in range(z)]  # a lane in each sub-round
    copy_basis = f2.echelon_basis(x.sigma_w)
    copy_ech = f2.column_echelon(copy_basis)
    copy_of_warp = [copy_ech.express(s) << z for s in x.sigma_w]
    n_c = z + len(copy_basis)
    a_prime = _sender_registers(p, x)
    pre_rank = f2.rank(list(a_prime) + list(x.alpha_w))
    sigma_id = all(s == 1 << i for i, s in enumerate(x.sigma))
    spread_s = _table(0, [1 << b for b in p.s_kept])
    spread_d = [int(v) for v in _table(0, [1 << b for b in p.d_kept])]

    def s_full(stripped: int) -> int:
        return int(spread_s[stripped])

    tmp = _Tmp()
    word = 1 << v_bits
    recv_base = tmp.alloc(word << (n_r + n_c))
    send_base = tmp.alloc(word << (n_r + n_c)) if pre_rank else -1

    def slot(rho: int, c: int, k: int) -> int:
        return k | rho << v_bits | c << (v_bits + n_r)

    # Per round ρ and copy c: the sender's register (stripped) before its lane/warp part, per word position.
    consts = np.zeros((1 << n_r, 1 << n_c, word), dtype=np.int64)
    source_lane = np.zeros((1 << n_r, 1 << n_c), dtype=np.int64)
    is_self = np.zeros((1 << n_r, 1 << n_c), dtype=bool)
    for rho in range(1 << n_r):
        m = src_ech.express(f2.apply_columns(p.d_reg, f2.apply_columns(rounds_basis, rho)))
        assert m is not None
        a0, s0 = m & ((1 << n_s) - 1), m >> n_s
        for c in range(1 << n_c):
            lanes = s0 ^ f2.apply_columns(copy_basis, c >> z)
            rep_lane = f2.apply_columns(sub_round_lanes, c & ((1 << z) - 1))
            base = a0 ^ f2.apply_columns(x.alpha, rep_lane) ^ f2.apply_columns(a_prime, lanes ^ f2.apply_columns(x.sigma, rep_lane))
            for k in range(word):
                consts[rho, c, k] = base ^ f2.apply_columns(v_src, k)
            source_lane[rho, c] = lanes
            is_self[rho, c] = sigma_id and lanes == 0 and z == 0

    pre_lane = tuple(s_full(a) for a in a_prime)
    pre_warp = tuple(s_full(a) for a in x.alpha_w)

    def send_select(dst: Reg, rho: int, c: int, k: int) -> Instruction:
        if pre_rank == 0:
            return Move(dst, Reg("src", s_full(int(consts[rho, c, k]))))
        return Select(dst, "src", ThreadAffine(s_full(int(consts[rho, c, k])), pre_lane, pre_warp))

    # Gather: where each thread finds the element of each destination register.
    beta_t = _table(0, list(x.beta) + list(x.beta_w))
    copy_t = _table(0, list(split) + copy_of_warp)
    pre_t = _table(0, list(a_prime) + list(x.alpha_w))
    materialized = np.zeros_like(is_self)

    def locations(j: int, in_place: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(file code, index, in-thread round?) per thread for stripped destination register j.

        File code 0 is tmp (a received word, or an in-thread round's word
        selected into the same slot), 1 is src (an in-thread round read in
        place, when ``in_place``).
        """
        co = coord_of[j ^ beta_t]
        k = co & (word - 1)
        rho = co >> v_bits
        tmp_idx = recv_base + (k | rho << v_bits | copy_t << (v_bits + n_r))
        own = is_self[rho, copy_t]
        if not in_place:
            return np.zeros_like(tmp_idx), tmp_idx, own
        src_idx = spread_s[consts[rho, copy_t, k] ^ pre_t]
        return own.astype(np.int64), np.where(own, src_idx, tmp_idx), own

    gather: list[Instruction] = []
    for j in range(1 << n_d):
        code, idx, own = locations(j, bypass)
        if bypass and _gather_ok(code, idx, n_l, n_w) is None:
            code, idx, own = locations(j, False)
        if not code.any():
            co = coord_of[j ^ beta_t]
            materialized[(co >> v_bits)[own], copy_t[own]] = True
        gather.extend(_gather(Reg("dst", spread_d[j]), code, idx, n_l, n_w, tmp))

    steps: list[PlanStep] = []
    shuffled = 0
    for rho in range(1 << n_r):
        for c in range(1 << n_c):
            ins: list[Instruction] = []
            if is_self[rho, c]:
                if materialized[rho, c]:
                    ins += [send_select(Reg("tmp", recv_base + slot(rho, c, k)), rho, c, k) for k in range(word)]
                if ins:
                    steps.append(PlanStep(f"round {rho} copy {c}: in-thread", tuple(ins)))
                continue
            if pre_rank:
                send = [Reg("tmp", send_base + slot(rho, c, k)) for k in range(word)]
                ins += [send_select(r, rho, c, k) for k, r in enumerate(send)]
            else:
                send = [Reg("src", s_full(int(consts[rho, c, k]))) for k in range(word)]
            recv = tuple(Reg("tmp", recv_base + slot(rho, c, k)) for k in range(word))
            lane_fn = ThreadAffine(int(source_lane[rho, c]), tuple(x.sigma))
            ins.append(Shuffle(recv, tuple(send), lane_fn))
            shuffled += 1
            steps.append(PlanStep(f"round {rho} copy {c}: shuffle", tuple(ins)))
    steps.append(PlanStep("gather destination registers", tuple(gather)))
    if p.d_restore:
        steps.append(PlanStep("destination duplicates", p.d_restore))
    steps, tmp_size = _forward_into_destination(steps)
    total = (1 << (n_r + n_c))
    e_basis = f2.echelon_basis(dl ^ f2.apply_columns(p.d_reg, b) for dl, b in zip(p.d_lane, x.beta))
    notes = (
        f"vector set V: {word} element(s) per word, element vectors {list(x.vector)}",
        f"exchange basis E: {e_basis}",
        f"rounds: {total} ({total - shuffled} in-thread, {shuffled} shuffled)",
        f"source lane: lane·Σ with Σ = {list(x.sigma)}" + (" (identity: shfl.bfly)" if sigma_id else ""),
        f"selects: sender rank {pre_rank}, receiver rank {f2.rank(list(x.beta) + list(x.beta_w))}"
        + (", in-thread rounds read in place" if bypass and is_self.any() and not materialized.any() else ""),
    )
    if z:
        notes += (f"sub-rounds: {1 << z} (receivers needing one source thread outnumber its copies)",)
    if copy_basis:
        notes += (f"copies per round: {1 << len(copy_basis)} (the source lane would depend on the warp)",)
    notes += x.notes
    plan = ConversionPlan(
        kind="shuffle",
        src_layout=p.src,
        dst_layout=p.dst,
        element_bits=p.element_bits,
        steps=tuple(steps),
        tmp_registers=tmp_size,
        algorithm=x.name,
        notes=notes,
        threads_per_warp=1 << n_l,
    )
    return plan, bool(is_self.any())


def _sender_registers(p: _WarpProblem, x: _Exchange) -> tuple[int, ...]:
    """A' with ``α k = A' Σ k`` on ``ker π``: the register a sending lane picks from its own lane.

    Zero off ``Σ(ker π)`` (lanes nobody reads from).
    """
    ech = f2.ColumnEchelon()
    image, values = [], []
    for k in _kernel(list(_split(x))):
        s = f2.apply_columns(x.sigma, k)
        if ech.add(s):
            image.append(s)
            values.append(f2.apply_columns(x.alpha, k))
    basis = image + f2.complement_basis(image, p.lane_bits)
    to_basis = f2.column_echelon(basis)
    out = []
    for i in range(p.lane_bits):
        m = to_basis.express(1 << i)
        out.append(f2.apply_columns(values, m & ((1 << len(image)) - 1)))
    return tuple(out)


def _gather_ok(code: np.ndarray, idx: np.ndarray, n_l: int, n_w: int) -> tuple[str, object] | None:
    """How to gather these per-thread locations: ("move", reg), ("select", (file, affine)), ("block", ...) or None."""
    keys = code.astype(np.int64) << 40 | idx
    if np.all(keys == keys[0]):
        return ("move", (int(code[0]), int(idx[0])))
    if np.all(code == code[0]):
        cols = [int(idx[1 << b] ^ idx[0]) for b in range(n_l + n_w)]
        if np.array_equal(_table(int(idx[0]), cols), idx):
            return ("select", (int(code[0]), int(idx[0]), cols))
    # Factor through a linear map of the thread bits: its kernel K is where the location repeats.
    n = n_l + n_w
    t = np.arange(len(keys))
    kernel: list[int] = []
    ech = f2.ColumnEchelon()
    for d in np.flatnonzero(keys == keys[0]):
        d = int(d)
        if d == 0 or ech.express(d) is not None:
            continue
        if np.array_equal(keys[t ^ d], keys):
            ech.add(d)
            kernel.append(d)
    r = n - len(kernel)
    if len(np.unique(keys)) != 1 << r:
        return None
    coset = f2.complement_basis(kernel, n)
    to_basis = f2.column_echelon(coset + kernel)
    phi = [to_basis.express(1 << b) & ((1 << r) - 1) for b in range(n)]
    reps = [f2.apply_columns(coset, u) for u in range(1 << r)]
    return ("block", (phi, [(int(code[t0]), int(idx[t0])) for t0 in reps]))


def _reg(code: int, index: int) -> Reg:
    return Reg("src" if code == 1 else "tmp", index)


def _gather(dst: Reg, code: np.ndarray, idx: np.ndarray, n_l: int, n_w: int, tmp: _Tmp) -> list[Instruction]:
    """Fill ``dst`` from per-thread locations: a move, one affine select, or moves into a block and a select."""
    how = _gather_ok(code, idx, n_l, n_w)
    assert how is not None, "destination register without an affine gather"
    kind, data = how
    if kind == "move":
        c, i = data
        return [Move(dst, _reg(c, i))]
    if kind == "select":
        c, i, cols = data
        return [Select(dst, "src" if c == 1 else "tmp", ThreadAffine(i, tuple(cols[:n_l]), tuple(cols[n_l:])))]
    phi, values = data
    base = tmp.alloc(len(values))
    out: list[Instruction] = [Move(Reg("tmp", base + u), _reg(c, i)) for u, (c, i) in enumerate(values)]
    out.append(Select(dst, "tmp", ThreadAffine(base, tuple(phi[:n_l]), tuple(phi[n_l:]))))
    return out


def _forward_into_destination(steps: list[PlanStep]) -> tuple[list[PlanStep], int]:
    """Let an instruction write a destination register directly when its tmp result only feeds that move.

    Then renumber the tmp file densely when no select reads it (selects need
    their tmp regions where the affine index expects them).
    """
    writes: dict[Reg, int] = {}
    reads: dict[Reg, int] = {}
    pinned: set[int] = set()
    feeds: dict[Reg, Reg] = {}
    for s in steps:
        for ins in s.instructions:
            for r in _written(ins):
                writes[r] = writes.get(r, 0) + 1
            for r in _read(ins):
                reads[r] = reads.get(r, 0) + 1
            if isinstance(ins, Select) and ins.src_file == "tmp":
                cols = [c for c in (*ins.index.lane, *ins.index.warp) if c]
                pinned.update(ins.index.constant ^ v for v in _span(f2.echelon_basis(cols)))
            if isinstance(ins, Move) and ins.src.file == "tmp":
                feeds[ins.src] = ins.dst
    # t -> r when t's only reader is "mov r, t" and r has no other writer.
    forward = {
        t: d
        for t, d in feeds.items()
        if writes.get(t) == 1 and reads.get(t) == 1 and t.index not in pinned and writes.get(d) == 1
    }
    forward = {t: d for t, d in forward.items() if d not in forward}  # no chains
    renamed = []
    for s in steps:
        ins_out = []
        for ins in s.instructions:
            if isinstance(ins, Move) and forward.get(ins.src) == ins.dst:
                continue
            ins_out.append(_rename(ins, lambda r: forward.get(r, r)))
        if ins_out:
            renamed.append(PlanStep(s.name, tuple(ins_out)))
    used = sorted(
        {r.index for s in renamed for ins in s.instructions for r in (*_written(ins), *_read(ins)) if r.file == "tmp"}
    )
    if pinned:
        return renamed, (max(used) + 1 if used else 0)
    dense = {t: i for i, t in enumerate(used)}

    def renumber(r: Reg) -> Reg:
        return Reg("tmp", dense[r.index]) if r.file == "tmp" else r

    out = [PlanStep(s.name, tuple(_rename(ins, renumber) for ins in s.instructions)) for s in renamed]
    return out, len(used)


def _written(ins: Instruction) -> tuple[Reg, ...]:
    if isinstance(ins, (Move, Select)):
        return (ins.dst,)
    if isinstance(ins, Shuffle):
        return ins.dst
    return ()


def _read(ins: Instruction) -> tuple[Reg, ...]:
    if isinstance(ins, Move):
        return (ins.src,)
    if isinstance(ins, Shuffle):
        return ins.src
    return ()


def _rename(ins: Instruction, f) -> Instruction:
    """``ins`` with its registers mapped by f (the written ones only for a select)."""
    if isinstance(ins, Move):
        return Move(f(ins.dst), f(ins.src))
    if isinstance(ins, Select):
        return Select(f(ins.dst), ins.src_file, ins.index)
    if isinstance(ins, Shuffle):
        return Shuffle(tuple(f(r) for r in ins.dst), tuple(f(r) for r in ins.src), ins.src_lane)
    return ins


# --------------------------------------------------------------- the plans
def _cost(plan: ConversionPlan) -> tuple[float, int, int, int]:
    """Issue slots first (a shuffle 1, a select ¼, as ``convert.plan_cost``), then shuffles, selects, moves.

    Pure "fewest shuffles first" would take 16 fewer shuffles for 30,000 more
    selects on some layouts (rank-5 selects on both sides of every round).
    """
    c = plan.counts
    return c.shuffles + c.selects / 4, c.shuffles, c.selects, c.moves


#: Most (destination register, thread) pairs for which every candidate exchange is
#: emitted and costed; a larger conversion takes the first candidate only. Emitting one
#: costs time in that count (numpy over the threads, per register): the search stays
#: under a second at ltc's 4096 registers per thread, and the plan stays exact.
SEARCH_BUDGET = 1 << 15


def _best_plan(p: _WarpProblem, exchanges: Sequence[_Exchange]) -> ConversionPlan | None:
    best = None
    seen = set()
    large = 1 << (len(p.d_reg) + p.lane_bits + p.warp_bits) > SEARCH_BUDGET
    for x in exchanges[:1] if large else exchanges:
        if x in seen:
            continue
        seen.add(x)
        plan, in_thread = _emit(p, x, bypass=True)
        plans = [plan, _emit(p, x, bypass=False)[0]] if in_thread and not large else [plan]
        for plan in plans:
            cost = _cost(plan)
            if best is None or cost < best[0]:
                best = (cost, plan)
    return None if best is None else best[1]


def plan_shuffle_rounds(src: LinearLayout, dst: LinearLayout, element_bits: int) -> ConversionPlan:
    """The paper's §5.4 shuffle rounds for the warp-local conversion ``src → dst``.

    Vector set V (registers kept together, one 32-bit word), exchange basis
    E = I ∪ G (lanes in both layouts, then paired vectors), one ``shfl`` per
    round of the complement R and per copy (see the module doc); in-thread
    rounds cost no shuffle. Of the candidate bases the plan with the fewest
    shuffles, then selects, is returned; it never needs more rounds than
    :func:`shuffle_round_bound`. Raises :class:`PlanError` if the conversion
    is not warp-local.
    """
    p = _warp_problem(src, dst, element_bits)
    vector = _vector_set(p)
    candidates = []
    own = _self_exchange(p, vector)
    if own is not None:
        candidates.append(own)
    candidates += _complement_exchanges(p, vector)
    plan = _best_plan(p, candidates)
    assert plan is not None
    return plan


def plan_swap_ship(src: LinearLayout, dst: LinearLayout, element_bits: int) -> ConversionPlan | None:
    """Triton's swap/ship shuffles, or None when the destination's columns are not a permutation of the source's.

    The register/lane bit permutation P (after stripping broadcast registers;
    zero lanes match zero lanes) factors into a register permutation (free),
    a lane permutation (the shuffle's source lane) and register–lane
    transpositions, each a select before and after the shuffle ("swap"). With
    no lane permutation half the rounds stay in-thread and cost no shuffle
    ("ship"). Raises :class:`PlanError` if the conversion is not warp-local.
    """
    p = _warp_problem(src, dst, element_bits)
    x = _permutation_exchange(p, _vector_set(p))
    if x is None:
        return None
    return _best_plan(p, [x])


def plan_warp_shuffle(src: LinearLayout, dst: LinearLayout, element_bits: int) -> ConversionPlan:
    """The cheaper of :func:`plan_shuffle_rounds` and :func:`plan_swap_ship`.

    Cheaper: fewer issue slots (a shuffle 1, a select ¼, as ``convert.plan_cost``),
    then fewer shuffles, selects, moves. Raises :class:`PlanError` if the
    conversion is not warp-local.
    """
    plans = [plan_shuffle_rounds(src, dst, element_bits)]
    swap = plan_swap_ship(src, dst, element_bits)
    if swap is not None:
        plans.append(swap)
    return min(plans, key=_cost)
