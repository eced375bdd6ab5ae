"""Optimal swizzling (lowering/plans/swizzle.py): exact bases for hand cases, bank conflicts by brute force.

The facts checked:

* hand cases (64×64 f16, 4 warps): the vector, bank, segment and rep bases of a
  blocked transpose and of blocked → mma v2, for ld/st and for ldmatrix tiles,
  each derived in the comments;
* the shared-memory layout is a bijection from offsets onto the tensor whose
  first offsets are the vector bases;
* conflicts counted by brute force — every warp, every access, every phase, the
  words each lane touches, grouped by bank — equal the module's
  ``wavefronts_per_phase`` and are 1 (conflict-free) whenever
  ``conflict_free_reachable`` holds;
* the vector part holds every shared register basis (capped at 128 bits);
* tiles that cannot apply raise :class:`SwizzleError`.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ltc import f2, to_linear_layout
from ltc.linear_layout import LinearLayout
from ltc.lowering.plans.broadcast import strip_register_broadcast
from ltc.lowering.plans.swizzle import (
    MATRIX_TILE,
    MATRIX_TRANS_TILE,
    SwizzledSmem,
    SwizzleError,
    conflict_free_reachable,
    optimal_swizzling,
)
from tests.random_layouts import random_layout_pair

MMA2 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>"
ROWS = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
COLS = "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>"


def L(text: str, shape=(64, 64)) -> LinearLayout:
    return to_linear_layout(text, list(shape))


def columns(layout: LinearLayout, dim: str) -> list[int]:
    flat = layout.flatten_outs()
    start = sum(flat.in_dim_size_log2(d) for d in flat.in_dim_names[: flat.in_dim_names.index(dim)])
    return list(flat.flat_columns[start : start + flat.in_dim_size_log2(dim)])


# ------------------------------------------------------------- brute force
def offsets_table(s: SwizzledSmem) -> dict[int, int]:
    """Flat tensor index -> element offset, by evaluating the smem layout everywhere."""
    flat = s.smem.flatten_outs()
    table = flat.sublayout(["offset"], flat.out_dim_names).apply_all_flat()
    assert len(set(table.tolist())) == len(table)  # a bijection onto its image
    return {int(t): o for o, t in enumerate(table)}


def brute_wavefronts(layout: LinearLayout, s: SwizzledSmem, side: str) -> int:
    """Worst phase, over every warp and plain access, of max distinct words per bank."""
    access = s.store if side == "store" else s.load
    assert access.tile.kind == "plain"
    offset = offsets_table(s)
    ebytes = s.element_bits // 8
    stripped = strip_register_broadcast(layout).stripped.flatten_outs()
    nreg = stripped.in_dim_size("register")
    elems = 1 << access.vector
    nbytes = elems * ebytes
    per_phase = 32 if nbytes <= 4 else 16 if nbytes == 8 else 8
    worst = 0
    for warp in range(layout.in_dim_size("warp")):
        for reg in range(nreg):
            offs = [
                offset[stripped.apply_flat(reg | lane << stripped.in_dim_size_log2("register")
                                           | warp << (stripped.in_dim_size_log2("register") + 5))]
                for lane in range(32)
            ]
            if offs[0] % elems:
                continue  # not the first element of an access
            for start in range(0, 32, per_phase):
                words = {(o * ebytes + b) // 4 for o in offs[start : start + per_phase] for b in range(0, max(nbytes, 4), 4)}
                banks = np.bincount([w % 32 for w in words], minlength=32)
                worst = max(worst, int(banks.max()))
    return worst


class Test_hand_cases:
    def test_blocked_transpose_f16(self):
        # src: 8 f16 along dim1 per thread, lanes (0,8),(0,16),(0,32),(1,0),(2,0);
        # dst: 8 along dim0, lanes (8,0),(16,0),(32,0),(0,1),(0,2). No shared
        # register, so the word is filled from src with (0,4) — a dst *warp*,
        # keeping dst lanes for later — and extended with (0,1), (0,2), dst
        # lanes of its 32-lane phase: src stores 128 bits, dst loads 16 bits.
        s = optimal_swizzling(L(ROWS), L(COLS), 16)
        assert s.coords(s.vector) == ((0, 4), (0, 1), (0, 2))
        # The rest of the 128-byte row: src's phase lanes (lanes 0-2, 8 per phase).
        assert s.coords(s.bank) == ((0, 8), (0, 16), (0, 32))
        # Segment: tensor bits outside both bank sets, then src lane ⊕ dst lane
        # pairs: the classic XOR swizzle of the row index into the column.
        assert s.coords(s.segment) == ((1, 0), (2, 0), (4, 0), (8, 8), (16, 16), (32, 32))
        assert s.reps == ()
        assert (s.store.vector, s.store.instructions, s.store.phases) == (3, 4, 4)
        assert (s.load.vector, s.load.instructions, s.load.phases) == (0, 32, 1)
        assert s.store_conflicts == s.load_conflicts == 0
        assert s.wavefronts == s.wavefront_lower_bound == (4 * 4 * 4, 4 * 32)
        assert s.scratch_bytes == 64 * 64 * 2
        assert brute_wavefronts(L(ROWS), s, "store") == brute_wavefronts(L(COLS), s, "load") == 1

    def test_blocked_transpose_f16_ldmatrix_trans(self):
        # .trans fixes the 16-byte row to dst lanes 2, 3, 4: (32,0), (0,1), (0,2),
        # all src registers, so src still stores 128 bits; dst's row address
        # bits are its first free register (1,0) (the word's high half) and
        # lanes 0, 1; two more registers select 4 matrices.
        s = optimal_swizzling(L(ROWS), L(COLS), 16, dst_tile=MATRIX_TRANS_TILE)
        assert s.coords(s.vector) == ((32, 0), (0, 1), (0, 2))
        assert s.coords(s.bank) == ((0, 8), (0, 16), (0, 32))
        assert s.coords(s.segment) == ((2, 0), (4, 0), (0, 4), (1, 8), (8, 16), (16, 32))
        assert s.coords([s.load.half]) == ((1, 0),)
        assert s.coords(s.load.select) == ((2, 0), (4, 0))
        assert (s.load.instructions, s.load.matrices, s.load.wavefronts_per_phase) == (4, 4, 1)
        assert s.wavefronts == s.wavefront_lower_bound == (64, 64)

    def test_blocked_to_mma_v2(self):
        # Shared register (0,1) is the vector set (one 32-bit word); src's
        # (0,2), (0,4) are lanes 0, 1 of mma's 32-lane phase, so src stores
        # 128 bits while mma loads its 32-bit pairs.
        s = optimal_swizzling(L(ROWS), L(MMA2), 16)
        assert s.coords(s.vector) == ((0, 1), (0, 2), (0, 4))
        assert s.coords(s.bank) == ((0, 8), (0, 16), (0, 32))
        assert s.coords(s.segment) == ((8, 0), (16, 0), (32, 0), (1, 8), (2, 16), (4, 32))
        assert (s.store.vector, s.store.instructions) == (3, 4)
        assert (s.load.vector, s.load.instructions) == (1, 16)
        assert s.wavefronts == s.wavefront_lower_bound == (64, 64)
        assert brute_wavefronts(L(ROWS), s, "store") == brute_wavefronts(L(MMA2), s, "load") == 1

    def test_blocked_to_mma_v2_ldmatrix(self):
        # ldmatrix's row: the shared (0,1), then mma lanes 0, 1 = (0,2), (0,4) —
        # the same vector part; the matrices are picked by mma registers (8,0), (0,8).
        s = optimal_swizzling(L(ROWS), L(MMA2), 16, dst_tile=MATRIX_TILE)
        assert s.coords(s.vector) == ((0, 1), (0, 2), (0, 4))
        assert s.coords(s.load.select) == ((8, 0), (0, 8))
        assert (s.load.instructions, s.load.phases, s.load.wavefronts_per_phase) == (4, 4, 1)

    def test_reps_are_shared_registers_in_the_segment(self):
        # 32 f32 per thread along dim1 on both sides, lanes 0 and 1 swapped:
        # (0,1), (0,2) make the 128-bit vector; the bank holds src's phase lanes
        # (1,0), (2,0), (4,0); the segment takes tensor bits outside both bank
        # sets lowest first — (8,0), (16,0), (0,4), (0,8), (0,16) — and the
        # shared registers among them are reps: 8 rounds of 512 bytes.
        a = "#ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>"
        b = LinearLayout.from_bases(
            {"register": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]],
             "lane": [[2, 0], [1, 0], [4, 0], [8, 0], [16, 0]], "warp": [], "block": []},
            {"dim0": 32, "dim1": 32},
        )
        s = optimal_swizzling(L(a, (32, 32)), b, 32)
        assert s.coords(s.vector) == ((0, 1), (0, 2))
        assert s.coords(s.bank) == ((1, 0), (2, 0), (4, 0))
        assert s.coords(s.segment) == ((8, 0), (16, 0))
        assert s.coords(s.reps) == ((0, 4), (0, 8), (0, 16))
        assert s.rounds == 8 and s.scratch_bytes == 32 * 32 * 4 // 8
        assert s.wavefronts == s.wavefront_lower_bound == (32, 32)


class Test_structure:
    @pytest.mark.parametrize("bits", [8, 16, 32, 64])
    def test_smem_layout_is_a_bijection_with_the_vector_first(self, bits):
        s = optimal_swizzling(L(ROWS), L(COLS), bits)
        table = offsets_table(s)
        assert len(table) == 64 * 64
        for j, v in enumerate(s.vector):
            assert table[v] == 1 << j
        assert s.smem.in_dim_names == ["offset"]
        assert list(s.smem.out_dims.items()) == [("dim0", 64), ("dim1", 64)]

    def test_matrix_tiles_that_do_not_apply(self):
        with pytest.raises(SwizzleError):
            optimal_swizzling(L(ROWS), L(MMA2), 64, dst_tile=MATRIX_TILE)  # 64-bit elements
        with pytest.raises(SwizzleError):
            optimal_swizzling(L(ROWS), L(MMA2), 32, dst_tile=MATRIX_TRANS_TILE)  # .trans is 16-bit
        # A broadcast lane 0 cannot pick the word of a matrix row.
        bcast = LinearLayout.from_bases(
            {"register": [[0, 1], [0, 2], [0, 4], [0, 8]], "lane": [[0, 0], [1, 0], [2, 0], [4, 0], [8, 0]],
             "warp": [], "block": []},
            {"dim0": 16, "dim1": 16},
        )
        other = L("#ttg.blocked<{sizePerThread = [16, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]}>", (16, 16))
        with pytest.raises(SwizzleError):
            optimal_swizzling(other, bcast, 16, dst_tile=MATRIX_TILE)

    def test_block_bases_stay_in_the_smem_layout(self):
        # Two CTAs with the same block basis (16,0): one buffer per CTA.
        def lay(lanes):
            return LinearLayout.from_bases(
                {"register": [[0, 1]], "lane": lanes, "warp": [], "block": [[16, 0]]}, {"dim0": 32, "dim1": 4}
            )

        s = optimal_swizzling(lay([[1, 0], [2, 0], [4, 0], [8, 0], [0, 2]]), lay([[0, 2], [1, 0], [2, 0], [4, 0], [8, 0]]), 16)
        assert s.smem.in_dim_names == ["offset", "block"]
        assert s.smem.bases["block"] == [(16, 0)]
        assert s.scratch_bytes == 16 * 4 * 2
        with pytest.raises(SwizzleError, match="CTAs"):
            optimal_swizzling(lay([[1, 0], [2, 0], [4, 0], [8, 0], [0, 2]]), LinearLayout.from_bases(
                {"register": [[0, 1]], "lane": [[1, 0], [2, 0], [4, 0], [16, 0], [0, 2]], "warp": [], "block": [[8, 0]]},
                {"dim0": 32, "dim1": 4}), 16)

    def test_different_tensors_are_rejected(self):
        with pytest.raises(SwizzleError):
            optimal_swizzling(L(ROWS), L(ROWS, (64, 32)), 16)

    @pytest.mark.parametrize("bits", [8, 16, 32, 64])
    def test_conflict_free_reachable_on_encodings(self, bits):
        for a, b in [(ROWS, COLS), (ROWS, MMA2), (MMA2, COLS)]:
            assert conflict_free_reachable(L(a), L(b), bits)


# ------------------------------------------------------------- properties
seeds = st.integers(min_value=0, max_value=2**63 - 1)


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_brute_force_conflicts_match(seed):
    """On random pairs (any family): the brute-force worst phase equals the
    measured wavefronts per phase, and is 1 whenever reachability holds."""
    pair = random_layout_pair(np.random.default_rng(seed))
    s = optimal_swizzling(pair.src, pair.dst, pair.element_bits)
    got = (brute_wavefronts(pair.src, s, "store"), brute_wavefronts(pair.dst, s, "load"))
    assert got == (s.store.wavefronts_per_phase, s.load.wavefronts_per_phase), pair.description
    if conflict_free_reachable(pair.src, pair.dst, pair.element_bits):
        assert got == (1, 1), pair.description


def _shared_register_dim(src: LinearLayout, dst: LinearLayout) -> int:
    a = columns(strip_register_broadcast(src).stripped, "register")
    b = columns(strip_register_broadcast(dst).stripped, "register")
    return len(f2.intersect_spans(a, b))


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_vector_part_holds_every_shared_register(seed):
    """Maximal vectorisation on Triton encodings: the vector part contains
    min(dim span(src regs) ∩ span(dst regs), 128 bits) shared registers, and
    both plain accesses are at least that wide."""
    pair = random_layout_pair(np.random.default_rng(seed), "encoded")
    s = optimal_swizzling(pair.src, pair.dst, pair.element_bits)
    cap = (128 // pair.element_bits).bit_length() - 1
    want = min(_shared_register_dim(pair.src, pair.dst), cap)
    src_regs = columns(strip_register_broadcast(pair.src).stripped, "register")
    dst_regs = columns(strip_register_broadcast(pair.dst).stripped, "register")
    shared = [v for v in s.vector if f2.in_span(v, f2.rref(src_regs)) and f2.in_span(v, f2.rref(dst_regs))]
    assert len(shared) == want, pair.description
    assert min(s.store.vector, s.load.vector) >= want, pair.description
