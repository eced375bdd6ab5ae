"""The price of a reduction in a layout (``estimate_reduction_cost``), worked by hand,
and the layout objective's use of it: the work is the operand's, not the result's."""

from __future__ import annotations

import pytest

from ltc import to_linear_layout
from ltc.encodings.blocked import BlockedEncoding
from ltc.encodings.slice import SliceEncoding
from ltc.lowering.plans.cost import ALU_PER_WORD, estimate_reduction_cost

# 8 registers x 4 lanes along dim 1, 8 lanes x 4 warps along dim 0
L = BlockedEncoding((1, 8), (8, 4), (4, 1), (1, 0))


def test_reduction_across_registers_lanes_and_warps() -> None:
    # 128x32: dim 0 wraps 4 times into registers (32 registers, 2 bases along dim 0),
    # 8 lanes (3 bases) and 4 warps (2 bases) along dim 0; 8 registers remain.
    layout = to_linear_layout(L, (128, 32))
    in_thread = (32 - 8) * ALU_PER_WORD
    butterflies = 3 * 8 * (1 + ALU_PER_WORD)
    across_warps = 2 * 8 + 2 * 4 + 2 * 8 * ALU_PER_WORD
    assert estimate_reduction_cost(layout, 0, 32) == in_thread + butterflies + across_warps == 64.0


def test_reduction_within_a_warp_skips_broadcast_bases() -> None:
    # the column sums of L: 8 registers and 2 lane bases along the dim; 3 lane bases
    # and both warp bases are broadcast (zero) and cost nothing
    layout = to_linear_layout(SliceEncoding(0, L), (32,))
    assert estimate_reduction_cost(layout, 0, 32) == 7 * ALU_PER_WORD + 2 * (1 + ALU_PER_WORD) == 4.25
    # one element a lane, 5 butterflies: dearer than the sliced layout
    flat = to_linear_layout(BlockedEncoding((1,), (32,), (4,), (0,)), (32,))
    assert estimate_reduction_cost(flat, 0, 32) == 5 * (1 + ALU_PER_WORD) > 4.25


@pytest.mark.parametrize(("bits", "factor"), [(8, 1), (16, 1), (32, 1), (64, 2)])
def test_wide_elements_cost_their_words(bits: int, factor: int) -> None:
    layout = to_linear_layout(SliceEncoding(0, L), (32,))
    assert estimate_reduction_cost(layout, 0, bits) == 4.25 * factor


def test_other_axis_costs_only_what_moves_along_it() -> None:
    # along dim 1 of 128x32: 3 of the 5 register bases (4 registers remain), 2 lane
    # bases, no warp basis
    layout = to_linear_layout(L, (128, 32))
    assert estimate_reduction_cost(layout, 1, 32) == (32 - 4) * ALU_PER_WORD + 2 * 4 * (1 + ALU_PER_WORD) == 17.0
