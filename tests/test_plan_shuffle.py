"""Warp-shuffle plans (lowering/plans/shuffle.py), checked by the simulator.

Hand-made conversions pin the counts the constructions give; a property test
runs random warp-local pairs (random invertible mixing of register and lane
bits inside a warp, broadcast anywhere, warp offsets, 1–8 warps, 8–64-bit).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ltc import f2, to_linear_layout
from ltc.linear_layout import LinearLayout
from ltc.lowering.plans.plan import Move, PlanError, Select, Shuffle
from ltc.lowering.plans.shuffle import (
    is_warp_local,
    plan_shuffle_rounds,
    plan_swap_ship,
    plan_warp_shuffle,
    shuffle_round_bound,
)
from ltc.lowering.plans.simulate import simulate
from tests.random_layouts import distributed

OUT = {"dim0": 16, "dim1": 32}
REGS = [[0, 1], [0, 2], [1, 0]]
LANES = [[0, 4], [0, 8], [0, 16], [2, 0], [4, 0]]
WARP = [[8, 0]]

MMA = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>"
BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>"


def lin(reg, lane=LANES, warp=WARP, out=OUT) -> LinearLayout:
    return distributed(reg, lane, warp, out)


def rounds(plan) -> int:
    """Shuffle rounds: one word per lane each (a 64-bit element word is two shfl)."""
    return plan.counts.shuffles // (2 if plan.element_bits == 64 else 1)


def check(plan):
    report = simulate(plan)
    assert report.exact, (report.first_mismatch, report.errors, str(plan))
    assert plan.kind == "shuffle"
    assert rounds(plan) <= shuffle_round_bound(plan.src_layout, plan.dst_layout, plan.element_bits)
    return plan.counts


SRC = lin(REGS)
# dst lane i reads src lane perm[i]: a pure lane permutation.
LANE_PERM = lin(REGS, [LANES[1], LANES[0], LANES[2], LANES[4], LANES[3]])
# register bit 2 <-> lane bit 0: one register–lane transposition.
TRANSPOSED = lin([[0, 1], [0, 2], [0, 4]], [[1, 0]] + LANES[1:])


class Test_lane_permutation:
    @pytest.mark.parametrize("bits, shuffles", [(32, 8), (16, 4), (8, 2), (64, 16)])
    def test_one_word_per_register_and_no_selects(self, bits, shuffles):
        # 8 registers: n words for 32-bit, packed pairs/quads for 16/8-bit, two shfl per i64.
        plan = plan_warp_shuffle(SRC, LANE_PERM, bits)
        c = check(plan)
        assert (c.shuffles, c.selects, c.moves) == (shuffles, 0, 0)
        assert rounds(plan) == shuffle_round_bound(SRC, LANE_PERM, bits)

    def test_words_go_straight_into_destination_registers(self):
        plan = plan_warp_shuffle(SRC, LANE_PERM, 16)
        shuffles = [i for i in plan.instructions if isinstance(i, Shuffle)]
        assert all(r.file == "dst" for s in shuffles for r in s.dst)
        assert all(r.file == "src" for s in shuffles for r in s.src)
        # Lanes bits 0/1 and 3/4 swap: the source lane is a permutation of the reading lane's bits.
        assert shuffles[0].src_lane.lane == (2, 1, 4, 16, 8)
        assert plan.tmp_registers == 0

    def test_swap_ship_agrees(self):
        plan = plan_swap_ship(SRC, LANE_PERM, 32)
        assert plan is not None and check(plan).shuffles == 8


class Test_register_lane_transposition:
    @pytest.mark.parametrize("bits, shuffles, selects", [(32, 4, 12), (16, 2, 12), (8, 1, 12), (64, 8, 12)])
    def test_ship_halves_the_shuffles(self, bits, shuffles, selects):
        # Lanes with lane0 == r2 keep their element: half the rounds stay in-thread.
        # Selects: one per sent element (half of them) and one per destination register.
        plan = plan_warp_shuffle(SRC, TRANSPOSED, bits)
        c = check(plan)
        assert (c.shuffles, c.selects) == (shuffles, selects)
        assert 2 * rounds(plan) == shuffle_round_bound(SRC, TRANSPOSED, bits)
        assert all(s.mode == "bfly" for s in plan.instructions if isinstance(s, Shuffle))

    def test_both_constructions_find_ship(self):
        for f in (plan_shuffle_rounds, plan_swap_ship):
            plan = f(SRC, TRANSPOSED, 32)
            assert plan is not None
            assert (check(plan).shuffles, plan.counts.selects) == (4, 12)
        assert plan_swap_ship(SRC, TRANSPOSED, 32).algorithm.startswith("swap/ship: ship")


class Test_triton_oracles:
    """Triton's lit tests: ship moves 16 words, swap does 32 selects / 32 shfl / 32 selects (32 f32 registers)."""

    R = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]]
    L = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]
    OUT32 = {"dim0": 32, "dim1": 32}

    def layout(self, reg, lane):
        return lin(reg, lane, warp=[], out=self.OUT32)

    def test_ship(self):
        src = self.layout(self.R, self.L)
        dst = self.layout([[1, 0]] + self.R[1:], [[0, 1]] + self.L[1:])
        plan = plan_swap_ship(src, dst, 32)
        c = check(plan)
        assert (c.shuffles, c.selects) == (16, 48)
        assert plan_warp_shuffle(src, dst, 32).counts.shuffles == 16

    def test_swap(self):
        # A transposition composed with a lane permutation: no round stays in-thread.
        src = self.layout(self.R, self.L)
        dst = self.layout([[1, 0]] + self.R[1:], [[2, 0], [0, 1]] + self.L[2:])
        plan = plan_swap_ship(src, dst, 32)
        c = check(plan)
        assert (c.shuffles, c.selects) == (32, 64)
        pre = [i for s in plan.steps if "shuffle" in s.name for i in s.instructions if isinstance(i, Select)]
        assert len(pre) == 32 and all(i.selects == 1 for i in pre)
        assert plan.algorithm == "swap/ship: swap"
        assert plan_warp_shuffle(src, dst, 32).counts.shuffles == 32


class Test_mma:
    SHAPE = [64, 32]

    def test_mma_to_dot_operand_kwidth8(self):
        src = to_linear_layout(MMA, self.SHAPE)
        dst = to_linear_layout(f"#ttg.dot_op<{{opIdx = 0, parent = {MMA}, kWidth = 8}}>", self.SHAPE)
        assert src.bases["warp"] == dst.bases["warp"]
        plan = plan_warp_shuffle(src, dst, 16)
        c = check(plan)
        # Two register-lane transpositions, no lane permutation: 8 rounds of two f16, 2 in-thread.
        assert (c.shuffles, c.selects) == (6, 84)
        assert shuffle_round_bound(src, dst, 16) == 8

    @pytest.mark.parametrize("bits, shuffles", [(16, 8), (32, 16)])
    def test_mma_to_blocked_same_warps(self, bits, shuffles):
        src = to_linear_layout(MMA, self.SHAPE)
        dst = to_linear_layout(BLOCKED, self.SHAPE)
        assert src.bases["warp"] == dst.bases["warp"]
        c = check(plan_warp_shuffle(src, dst, bits))
        assert (c.shuffles, c.selects) == (shuffles, 32)

    def test_mma_to_linear_with_lane_and_register_exchanged(self):
        src = to_linear_layout(MMA, self.SHAPE)
        b = src.bases
        reg, lane = [list(x) for x in b["register"]], [list(x) for x in b["lane"]]
        reg[1], lane[3] = lane[3], reg[1]  # (8, 0) becomes a lane, (2, 0) a register
        dst = LinearLayout.from_bases(
            {"register": reg, "lane": lane, "warp": [list(x) for x in b["warp"]], "block": []}, src.out_dims
        )
        for bits in (8, 16, 32, 64):
            assert rounds(plan_warp_shuffle(src, dst, bits)) * 2 == shuffle_round_bound(src, dst, bits)


class Test_broadcast:
    def test_broadcast_registers_and_lanes_on_both_sides(self):
        # src: lane 4 broadcast, register 3 duplicates register 0; dst: a zero register and a zero lane.
        src = lin([[0, 1], [0, 2], [1, 0], [0, 1], [4, 0]], [[0, 4], [0, 8], [0, 16], [2, 0], [0, 0]])
        dst = lin([[0, 0], [0, 4], [0, 1], [4, 0], [1, 0]], [[0, 0], [0, 2], [0, 8], [2, 0], [0, 16]])
        assert is_warp_local(src, dst)
        for bits in (8, 16, 32, 64):
            plan = plan_warp_shuffle(src, dst, bits)
            check(plan)
            dup = [i for s in plan.steps if s.name == "destination duplicates" for i in s.instructions]
            assert len(dup) == 16 and all(isinstance(m, Move) for m in dup)

    def test_destination_broadcast_lanes_read_the_same_source(self):
        # Every lane needs the 8 elements of lanes 0-1's rows: dst lanes 2-4 are broadcast.
        out = {"dim0": 8, "dim1": 32}
        src = lin([[0, 1], [0, 2], [1, 0]], [[0, 4], [0, 8], [0, 16], [2, 0], [4, 0]], warp=[], out=out)
        dst = lin([[0, 1], [0, 2], [1, 0], [2, 0], [4, 0]], [[0, 4], [0, 8], [0, 16], [0, 0], [0, 0]], warp=[], out=out)
        plan = plan_warp_shuffle(src, dst, 32)
        c = check(plan)
        # 32 elements per thread. Keeping the 8 a thread holds would save 8 shuffles
        # but cost 3 selects per register (4-way filing); plain rounds are cheaper.
        assert (c.shuffles, c.selects, c.moves) == (32, 0, 0)
        assert shuffle_round_bound(src, dst, 32) == 32

    def test_sub_rounds_when_one_source_thread_feeds_many_lanes(self):
        # Every warp of src holds the whole 4x32 tensor (warps broadcast); a dst warp
        # needs all 4 registers of each of 8 source lanes, spread over 4 lanes each,
        # and no source lane repeats them: 4 sub-rounds. The dst warps' columns are
        # source lane vectors, so each round also needs 4 copies (source lanes may
        # not depend on the warp): 16 one-word rounds, one 16-way select.
        out = {"dim0": 4, "dim1": 32}
        src = lin([[1, 0], [2, 0]], [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp=[[0, 0], [0, 0]], out=out)
        dst = lin([], [[1, 0], [2, 0], [0, 1], [0, 2], [0, 4]], warp=[[0, 8], [0, 16]], out=out)
        assert is_warp_local(src, dst) and not dst.invert_and_compose(src).is_trivial_over(["warp"])
        plan = plan_shuffle_rounds(src, dst, 32)
        c = check(plan)
        assert (c.shuffles, c.selects) == (16, 15)
        assert rounds(plan) == shuffle_round_bound(src, dst, 32) == 16
        assert any(n.startswith("sub-rounds: 4") for n in plan.notes)
        assert any(n.startswith("copies per round: 4") for n in plan.notes)


class Test_warp_offsets:
    def test_offsets_inside_thread_cost_selects_only(self):
        # dst warp 1 holds src warp 1's data shifted by a register vector.
        dst = lin(REGS, LANES, warp=[[9, 0]])
        plan = plan_warp_shuffle(SRC, dst, 32)
        c = check(plan)
        assert c.shuffles == 0 and plan.kind == "shuffle"
        assert any(isinstance(i, Select) and i.index.depends_on_warp for i in plan.instructions)

    def test_lane_offsets_need_copies(self):
        # dst warp 1 is src warp 1 with lanes xor 1: the source lane would depend on the warp.
        dst = lin(REGS, LANE_PERM.bases["lane"], warp=[[8, 4]])
        assert is_warp_local(SRC, dst)
        assert shuffle_round_bound(SRC, dst, 32) == 16
        plan = plan_warp_shuffle(SRC, dst, 32)
        c = check(plan)
        assert c.shuffles == 16
        assert not any(s.src_lane.depends_on_warp for s in plan.instructions if isinstance(s, Shuffle))


class Test_locality:
    def test_cross_warp_conversion_is_rejected(self):
        dst = lin([[0, 1], [0, 2], [8, 0]], LANES, warp=[[1, 0]])
        assert not is_warp_local(SRC, dst)
        for f in (plan_warp_shuffle, plan_shuffle_rounds, plan_swap_ship, shuffle_round_bound):
            with pytest.raises(PlanError):
                f(SRC, dst, 32)

    def test_bad_element_width(self):
        with pytest.raises(PlanError):
            plan_warp_shuffle(SRC, LANE_PERM, 12)

    def test_swap_ship_declines_mixing(self):
        # dst lane 0 holds a sum of a register and a lane vector: not a bit permutation.
        dst = lin(REGS, [[0, 5]] + LANES[1:])
        assert plan_swap_ship(SRC, dst, 32) is None
        check(plan_warp_shuffle(SRC, dst, 32))

    def test_invert_and_compose_trivial_implies_warp_local(self):
        for dst in (LANE_PERM, TRANSPOSED):
            cvt = dst.invert_and_compose(SRC)
            assert cvt.is_trivial_over(["warp", "block"]) and is_warp_local(SRC, dst)


# ------------------------------------------------------------ property test
def _spread(rng, basis, slots, dependent=True):
    """``slots`` columns spanning span(basis): the basis in random slots, others zero or (optionally) sums."""
    cols = [0] * slots
    where = rng.choice(slots, size=len(basis), replace=False)
    for s, v in zip(where, basis):
        cols[int(s)] = v
    for s in range(slots):
        if s not in where and dependent and rng.random() < 0.4:
            cols[s] = int(np.bitwise_xor.reduce([b for b in basis if rng.integers(2)] or [0]))
    return cols


def _mix(rng, basis):
    """A random basis of span(basis)."""
    while True:
        out = [int(np.bitwise_xor.reduce([b for b in basis if rng.integers(2)] or [0])) for _ in basis]
        if f2.rank(out) == len(basis):
            return out


def _nudge(rng, cols, inner):
    """A basis of span(inner) close to src's own columns: its independent ones, a few of them xored together."""
    ech = f2.ColumnEchelon()
    out = [c for c in cols if c and ech.add(c)]
    for _ in range(int(rng.integers(0, 3))):
        i, j = rng.choice(len(out), size=2, replace=len(out) < 2)
        if i != j:
            out[i] ^= out[j]
    return [int(c) for c in rng.permutation(out)]


def _layout(n_bits, reg, lane, warp):
    return LinearLayout.from_bases(
        {"register": [[c] for c in reg], "lane": [[c] for c in lane], "warp": [[c] for c in warp], "block": []},
        {"dim0": 1 << n_bits},
    )


def random_warp_local_pair(seed: int):
    """src: a random layout of a 1-D tensor; dst: src's register+lane span, randomly mixed and spread.

    Sometimes dst warps are offset by data inside the warp, and sometimes a
    dst warp takes over a direction that src broadcasts over warps (then a dst
    warp holds only part of what a src warp holds).
    """
    rng = np.random.default_rng(seed)
    bits = int(rng.choice([8, 16, 32, 64]))
    w = int(rng.integers(0, 4))
    n = int(rng.integers(4, 11))
    inner_dim = max(n - w, min(n, int(rng.integers(4, 11))))
    order = _mix(rng, [1 << i for i in range(n)])
    inner, outer = order[:inner_dim], order[inner_dim:]
    warp_src = _spread(rng, outer, w) if w else []
    r_src = max(0, inner_dim - 5) + int(rng.integers(0, 3))
    rl = _spread(rng, inner, r_src + 5)
    if rng.random() < 0.5:  # lanes broadcast by zeros only
        rl[r_src:] = [c if c in inner else 0 for c in rl[r_src:]]
    src = _layout(n, rl[:r_src], rl[r_src:], warp_src)
    mixed = _mix(rng, inner) if rng.random() < 0.5 else _nudge(rng, rl[:r_src] + rl[r_src:], inner)
    free_warps = [i for i, c in enumerate(warp_src) if c == 0]
    moved = int(rng.integers(0, min(len(free_warps), len(inner) - 1, 2) + 1)) if rng.random() < 0.3 else 0
    kept = mixed[moved:]
    warp_dst = list(warp_src)
    for i, v in zip(free_warps, mixed[:moved]):
        warp_dst[i] = v
    if rng.random() < 0.3:  # warp offsets inside the warp's data
        warp_dst = [c ^ int(np.bitwise_xor.reduce([b for b in inner if rng.integers(2)] or [0])) for c in warp_dst]
    r_dst = max(0, len(kept) - 5) + int(rng.integers(0, 3))
    rl = _spread(rng, kept, r_dst + 5)
    dst = _layout(n, rl[:r_dst], rl[r_dst:], warp_dst)
    return src, dst, bits


@settings(max_examples=220, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_random_warp_local_pairs_are_exact(seed):
    src, dst, bits = random_warp_local_pair(seed)
    assert is_warp_local(src, dst)
    plan = plan_warp_shuffle(src, dst, bits)
    check(plan)
    swap = plan_swap_ship(src, dst, bits)
    if swap is not None:
        check(swap)


def _permuted_pair(seed: int):
    """dst: src's register and lane columns permuted (zero lanes stay zero lanes)."""
    rng = np.random.default_rng(seed)
    bits = int(rng.choice([8, 16, 32, 64]))
    n = int(rng.integers(5, 10))
    zeros = int(rng.integers(0, 3))
    cols = _mix(rng, [1 << i for i in range(n)])
    lanes_nz = 5 - zeros
    regs, lanes = cols[lanes_nz:], cols[:lanes_nz] + [0] * zeros
    src = _layout(n, regs, list(rng.permutation(lanes)), [])
    nonzero = regs + cols[:lanes_nz]
    perm = [int(i) for i in rng.permutation(len(nonzero))]
    shuffled = [nonzero[i] for i in perm]
    dst_lanes = shuffled[: lanes_nz] + [0] * zeros
    dst = _layout(n, shuffled[lanes_nz:], [int(c) for c in rng.permutation(dst_lanes)], [])
    return src, dst, bits


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_bit_permutations_get_swap_ship(seed):
    src, dst, bits = _permuted_pair(seed)
    plan = plan_swap_ship(src, dst, bits)
    assert plan is not None
    check(plan)
    best = plan_warp_shuffle(src, dst, bits).counts
    assert best.shuffles + best.selects / 4 <= plan.counts.shuffles + plan.counts.selects / 4
