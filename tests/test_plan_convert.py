"""Classification and register permutations (lowering/plans/convert.py), checked by the simulator."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from ltc import to_linear_layout
from ltc.linear_layout import LinearLayout
from ltc.lowering.plans.convert import (
    classify_conversion,
    plan_conversion,
    plan_register_permutation,
    trivial_over,
)
from ltc.lowering.plans.plan import Move, PlanError, Select
from ltc.lowering.plans.simulate import simulate, thread_elements
from tests.random_layouts import distributed, random_layout_pair

OUT = {"dim0": 8, "dim1": 32}
LANES = [[0, 4], [0, 8], [0, 16], [2, 0], [4, 0]]


def lin(reg, lane=LANES, warp=(), out=OUT) -> LinearLayout:
    return distributed(reg, lane, warp, out)


A = lin([[0, 1], [0, 2], [1, 0]])
B = lin([[1, 0], [0, 1], [0, 2]])

BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>"
BLOCKED_T = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>"
MMA = (
    "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], "
    "instrShape = [16, 8]}>"
)


class Test_classify:
    def test_equal_layouts_written_differently_are_noop(self):
        a = to_linear_layout(BLOCKED, [64, 64])
        bases = a.to_json()["in_dims"]
        text = (
            "#ttg.linear<{register = %s, lane = %s, warp = %s, block = []}>"
            % (bases["register"], bases["lane"], bases["warp"])
        )
        b = to_linear_layout(text, [64, 64])
        assert classify_conversion(a, b).kind == "noop"
        plan = plan_conversion(a, b, 16)
        assert plan.kind == "noop" and simulate(plan).exact

    def test_register_order_only(self):
        assert classify_conversion(A, B).kind == "registers"

    def test_lane_permutation_is_warp_local(self):
        lanes = [LANES[1], LANES[0], *LANES[2:]]
        assert classify_conversion(A, lin(A.to_json()["in_dims"]["register"], lanes)).kind == "shuffle"

    def test_mma_to_blocked_with_other_warps_crosses_warps(self):
        a, b = to_linear_layout(MMA, [64, 64]), to_linear_layout(BLOCKED, [64, 64])
        assert classify_conversion(a, b).kind == "shared"

    def test_transpose_crosses_warps(self):
        a, b = to_linear_layout(BLOCKED, [64, 64]), to_linear_layout(BLOCKED_T, [64, 64])
        assert classify_conversion(a, b).kind == "shared"

    def test_lane_bit_mixed_with_a_register(self):
        src = lin([[0, 1], [0, 2], [4, 0]], [[0, 4], [0, 8], [0, 16], [2, 0], [1, 0]])
        dst = lin([[0, 1], [0, 2], [4, 0]], [[0, 4], [0, 8], [0, 16], [2, 0], [1, 0]])
        assert classify_conversion(src, dst).kind == "noop"
        dst2 = lin([[0, 1], [0, 2], [1, 0]], [[0, 4], [0, 8], [0, 16], [2, 0], [4, 1]])
        assert trivial_over(src, dst2, ("warp", "block")) and not trivial_over(src, dst2, ("lane", "warp", "block"))

    def test_errors(self):
        with pytest.raises(PlanError, match="different tensors"):
            square = lin([[0, 1], [0, 2], [1, 0]], [[0, 4], [0, 8], [2, 0], [4, 0], [8, 0]], out={"dim0": 16, "dim1": 16})
            classify_conversion(A, square)
        with pytest.raises(PlanError, match="numbers of warps"):
            classify_conversion(A, lin([[0, 1], [0, 2]], warp=[[1, 0]]))
        with pytest.raises(PlanError, match="8, 16, 32 or 64"):
            plan_conversion(A, B, 12)
        with pytest.raises(PlanError, match="does not hold every element the destination needs"):
            classify_conversion(lin([[0, 1], [0, 2], [0, 0]]), A)


class Test_register_permutation:
    def test_exact_moves(self):
        plan = plan_register_permutation(A, B, 16)
        moves = plan.instructions
        assert all(isinstance(m, Move) for m in moves)
        # dst register r (bits: dim0 bit0, dim1 bit0, dim1 bit1) reads the src
        # register (bits: dim1 bit0, dim1 bit1, dim0 bit0) holding that element.
        assert [m.src.index for m in moves] == [0, 4, 1, 5, 2, 6, 3, 7]
        assert plan.counts.selects == 0 and simulate(plan).exact

    def test_lane_dependent_order_needs_selects(self):
        dst = lin([[0, 1], [0, 2], [1, 0]], [[0, 4], [0, 8], [0, 16], [2, 1], [4, 0]])
        plan = plan_register_permutation(A, dst, 32)
        assert all(isinstance(m, Select) for m in plan.instructions)
        assert [str(m.index) for m in plan.instructions][:2] == ["lane3*0x1", "0x1 ^ lane3*0x1"]
        assert plan.counts.selects == 8
        assert simulate(plan).exact

    def test_broadcast_source_and_destination(self):
        dup = lin([[0, 1], [0, 0], [0, 2], [1, 0], [0, 3]])
        for src, dst in ((dup, B), (B, dup)):
            plan = plan_register_permutation(src, dst, 8)
            assert simulate(plan).exact, plan

    def test_simulator_catches_a_wrong_plan(self):
        plan = plan_register_permutation(A, B, 16)
        report = simulate(replace(plan, dst_layout=A))
        # Registers 0 and 7 hold the same element in A and B; the other 6 of
        # 8 are wrong in each of the 32 threads.
        assert not report.exact and report.mismatches == 6 * 32
        assert report.first_mismatch == "warp 0 lane 0 dst[1]: holds element 32, expected 1"

    def test_not_thread_local(self):
        with pytest.raises(PlanError, match="cross threads"):
            plan_register_permutation(A, lin([[0, 1], [0, 2], [0, 4]], [[1, 0], [0, 8], [0, 16], [2, 0], [4, 0]]), 16)


def test_thread_elements_orders_threads_warp_major():
    lay = to_linear_layout(BLOCKED, [64, 64])
    ids = thread_elements(lay, 128)
    # Thread 33 = warp 1, lane 1: warp 1 owns rows 8..15, lane 1 columns 4..7
    # of row 8; the next registers repeat every 16 columns, then every 32 rows.
    assert ids.shape == (128, 32)
    row8 = [8 * 64 + 4 + 16 * k + j for k in range(4) for j in range(4)]
    assert ids[33].tolist() == row8 + [x + 32 * 64 for x in row8]


@pytest.mark.parametrize("family", ["thread_local", "same"])
def test_random_thread_local_pairs_are_exact(family):
    for seed in range(60):
        pair = random_layout_pair(np.random.default_rng(seed), family)
        plan = plan_conversion(pair.src, pair.dst, pair.element_bits)
        assert plan.kind in ("noop", "registers")
        report = simulate(plan)
        assert report.exact, (pair.description, report.first_mismatch)
