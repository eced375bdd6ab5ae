"""The plan simulator on hand-written plans: semantics, hazards, bank-conflict wavefronts."""

from __future__ import annotations

import pytest

from ltc.linear_layout import LinearLayout
from ltc.lowering.plans.plan import (
    Barrier,
    ConversionPlan,
    MatrixLoad,
    MatrixStore,
    Move,
    PlanError,
    PlanStep,
    Reg,
    Select,
    SharedLoad,
    SharedStore,
    Shuffle,
    ThreadAffine,
)
from ltc.lowering.plans.simulate import simulate
from tests.random_layouts import distributed

LANE_ID = ThreadAffine(0, (1, 2, 4, 8, 16))


def layout(reg, lane, warp=(), out=None) -> LinearLayout:
    return distributed(reg, lane, warp, out)


def plan(src, dst, *instructions, bits=32, scratch=0, tmp=0) -> ConversionPlan:
    return ConversionPlan(
        kind="shared" if scratch else "shuffle",
        src_layout=src,
        dst_layout=dst,
        element_bits=bits,
        steps=(PlanStep("test", tuple(instructions)),),
        scratch_bytes=scratch,
        tmp_registers=tmp,
    )


# A 32-element vector, one element per lane; and the same reversed over lanes.
VEC = layout([], [[1], [2], [4], [8], [16]], out={"dim0": 32})
VEC_REV = layout([], [[16], [8], [4], [2], [1]], out={"dim0": 32})


class Test_registers_and_shuffles:
    def test_shuffle_idx_reverses_bit_order(self):
        # dst lane l needs element bitrev(l), held by src lane bitrev(l).
        rev = ThreadAffine(0, (16, 8, 4, 2, 1))
        p = plan(VEC, VEC_REV, Shuffle((Reg("dst", 0),), (Reg("src", 0),), rev))
        assert p.instructions[0].mode == "idx"
        assert simulate(p).exact

    def test_wrong_source_lane_is_caught(self):
        p = plan(VEC, VEC_REV, Shuffle((Reg("dst", 0),), (Reg("src", 0),), LANE_ID))
        r = simulate(p)
        # Lanes whose bit-reversal is themselves are right: 0, 4, 10, 14, 17, 21, 27, 31.
        assert not r.exact and r.mismatches == 32 - 8
        assert r.first_mismatch == "warp 0 lane 1 dst[0]: holds element 1, expected 16"

    def test_bfly_mode_and_word_limits(self):
        assert Shuffle((Reg("dst", 0),), (Reg("src", 0),), LANE_ID.shifted(3)).mode == "bfly"
        two = layout([[1]], [[2], [4], [8], [16], [32]], out={"dim0": 64})
        too_wide = plan(two, two, Shuffle((Reg("dst", 0), Reg("dst", 1)), (Reg("src", 0), Reg("src", 1)), LANE_ID))
        with pytest.raises(PlanError, match="moves 64 bits"):
            simulate(too_wide)
        ok64 = plan(two, two, *(Shuffle((Reg("dst", r),), (Reg("src", r),), LANE_ID) for r in range(2)), bits=64)
        assert simulate(ok64).exact and ok64.counts.shuffles == 4

    def test_select_by_lane_and_counts(self):
        # dst swaps the two registers in odd lanes.
        src = layout([[32]], [[1], [2], [4], [8], [16]], out={"dim0": 64})
        dst = layout([[32]], [[33], [2], [4], [8], [16]], out={"dim0": 64})
        sel = [Select(Reg("dst", r), "src", ThreadAffine(r, (1,))) for r in range(2)]
        p = plan(src, dst, *sel)
        assert simulate(p).exact
        assert p.counts.selects == 2 and p.counts.moves == 0
        assert Select(Reg("dst", 0), "src", ThreadAffine(0, (1, 1, 2))).selects == 3

    def test_writing_a_source_register_is_refused(self):
        with pytest.raises(PlanError, match="read-only source register"):
            simulate(plan(VEC, VEC, Move(Reg("src", 0), Reg("src", 0))))

    def test_register_out_of_range(self):
        with pytest.raises(PlanError, match=r"register src\[1\] out of range"):
            simulate(plan(VEC, VEC, Move(Reg("dst", 0), Reg("src", 1))))


# 4 warps; each warp owns 32 consecutive elements, one per lane.
WARPS = layout([], [[1], [2], [4], [8], [16]], [[32], [64]], out={"dim0": 128})
WARPS_ROT = layout([], [[1], [2], [4], [8], [16]], [[64], [32]], out={"dim0": 128})
ADDR = ThreadAffine(0, (4, 8, 16, 32, 64), (128, 256))


class Test_shared_memory_hazards:
    def store_load(self, *middle):
        return plan(
            WARPS,
            WARPS_ROT,
            SharedStore((Reg("src", 0),), ADDR),
            *middle,
            SharedLoad((Reg("dst", 0),), ThreadAffine(0, (4, 8, 16, 32, 64), (256, 128))),
            scratch=512,
        )

    def test_with_a_cta_barrier_it_is_exact(self):
        r = simulate(self.store_load(Barrier("cta")))
        assert r.exact and r.errors == ()
        # Each 32-bit access of a warp touches 32 consecutive words: 1 wavefront.
        assert (r.wavefronts, r.wavefront_lower_bound) == (8, 8)
        assert [a.wavefronts for a in r.accesses] == [4, 4]

    def test_missing_barrier_is_an_error_even_though_lockstep_values_are_right(self):
        r = simulate(self.store_load())
        assert r.mismatches == 0 and not r.exact
        assert r.errors == (
            "missing barrier: 'ld.shared {dst[0]}, [lane0*0x4 ^ lane1*0x8 ^ lane2*0x10 ^ lane3*0x20 ^ "
            "lane4*0x40 ^ warp0*0x100 ^ warp1*0x80]' reads data another thread wrote without a barrier",
        )

    def test_a_warp_sync_does_not_order_other_warps(self):
        r = simulate(self.store_load(Barrier("warp")))
        assert not r.exact and r.errors[0].startswith("missing barrier:")

    def test_warp_sync_suffices_inside_a_warp(self):
        rev = layout([], [[16], [8], [4], [2], [1]], [[32], [64]], out={"dim0": 128})
        p = plan(
            WARPS,
            rev,
            SharedStore((Reg("src", 0),), ADDR),
            Barrier("warp"),
            SharedLoad((Reg("dst", 0),), ThreadAffine(0, (64, 32, 16, 8, 4), (128, 256))),
            scratch=512,
        )
        assert simulate(p).exact

    def test_overwrite_before_others_read_is_an_error(self):
        p = plan(
            WARPS,
            WARPS_ROT,
            SharedStore((Reg("src", 0),), ADDR),
            Barrier("cta"),
            SharedLoad((Reg("dst", 0),), ThreadAffine(0, (4, 8, 16, 32, 64), (256, 128))),
            SharedStore((Reg("src", 0),), ADDR.shifted(0)),
            scratch=512,
        )
        r = simulate(p)
        assert r.mismatches == 0
        assert any(e.startswith("missing barrier: 'st.shared") and "overwrites" in e for e in r.errors)

    def test_race_between_threads(self):
        # Every lane of a warp stores its own element to one address.
        p = plan(WARPS, WARPS, SharedStore((Reg("src", 0),), ThreadAffine(0, (), (4, 8))), scratch=16)
        assert "race: 'st.shared" in simulate(p).errors[0]

    def test_reading_unwritten_memory(self):
        p = plan(WARPS, WARPS, SharedLoad((Reg("dst", 0),), ADDR), scratch=512)
        assert simulate(p).errors[0].endswith("reads shared memory nothing wrote")

    @pytest.mark.parametrize(
        "address, scratch, message",
        [
            (ADDR.shifted(2), 516, "not aligned to the 4-byte access"),
            (ADDR, 256, "outside the 256-byte scratch"),
        ],
    )
    def test_address_errors(self, address, scratch, message):
        with pytest.raises(PlanError, match=message):
            simulate(plan(WARPS, WARPS, SharedStore((Reg("src", 0),), address), scratch=scratch))


class Test_wavefronts:
    def one_warp_store(self, lane_columns, bits=32, k=1, scratch=4096):
        reg = [[32 * (1 << i)] for i in range(k.bit_length() - 1)]
        src = layout(reg, [[1], [2], [4], [8], [16]], out={"dim0": 32 * k})
        regs = tuple(Reg("src", i) for i in range(k))
        return simulate(plan(src, src, SharedStore(regs, ThreadAffine(0, lane_columns)), bits=bits, scratch=scratch))

    def test_stride_one_word_is_conflict_free(self):
        r = self.one_warp_store((4, 8, 16, 32, 64))
        assert (r.wavefronts, r.wavefront_lower_bound) == (1, 1)

    def test_stride_two_words_is_a_two_way_conflict(self):
        r = self.one_warp_store((8, 16, 32, 64, 128))
        assert (r.wavefronts, r.wavefront_lower_bound) == (2, 1)

    def test_a_column_of_a_row_major_32x32_f32_tile_is_32_way(self):
        r = self.one_warp_store((128, 256, 512, 1024, 2048), scratch=4096)
        assert (r.wavefronts, r.wavefront_lower_bound) == (32, 1)

    def test_same_word_is_a_broadcast(self):
        r = self.one_warp_store((0, 0, 0, 0, 0))
        assert (r.wavefronts, r.wavefront_lower_bound) == (1, 1)

    def test_128_bit_accesses_go_in_four_phases_of_eight_lanes(self):
        # 4 f32 per lane, lanes 16 bytes apart: each phase of 8 lanes covers 128 bytes.
        r = self.one_warp_store((16, 32, 64, 128, 256), k=4)
        assert (r.wavefronts, r.wavefront_lower_bound) == (4, 4)
        # Lanes 32 bytes apart: each phase touches 256 bytes, 2 words per bank.
        r = self.one_warp_store((32, 64, 128, 256, 512), k=4)
        assert (r.wavefronts, r.wavefront_lower_bound) == (8, 4)

    def test_64_bit_accesses_go_in_two_phases(self):
        r = self.one_warp_store((8, 16, 32, 64, 128), k=2)
        assert (r.wavefronts, r.wavefront_lower_bound) == (2, 2)


class Test_matrix_instructions:
    """ldmatrix/stmatrix follow the PTX fragment layout of m8n8 .b16 matrices."""

    # An 8x8 f16 matrix, thread t holding row t//4, columns 2(t%4), 2(t%4)+1.
    FRAG = layout([[0, 1]], [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], out={"dim0": 8, "dim1": 8})
    # Its transpose: thread t holds column t//4, rows 2(t%4), 2(t%4)+1.
    FRAG_T = layout([[1, 0]], [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], out={"dim0": 8, "dim1": 8})
    ROWS = ThreadAffine(0, (16, 32, 64))  # lanes 0..7 give rows 0..7, 16 bytes each

    def test_stmatrix_then_ldmatrix_round_trip(self):
        regs = (Reg("src", 0), Reg("src", 1))
        p = plan(
            self.FRAG,
            self.FRAG,
            MatrixStore(regs, self.ROWS, 1),
            Barrier("warp"),
            MatrixLoad((Reg("dst", 0), Reg("dst", 1)), self.ROWS, 1),
            bits=16,
            scratch=128,
        )
        r = simulate(p)
        assert r.exact and p.counts.stmatrix == 1 and p.counts.ldmatrix == 1
        assert (r.wavefronts, r.wavefront_lower_bound) == (2, 2)

    def test_ldmatrix_trans_transposes(self):
        p = plan(
            self.FRAG,
            self.FRAG_T,
            MatrixStore((Reg("src", 0), Reg("src", 1)), self.ROWS, 1),
            Barrier("warp"),
            MatrixLoad((Reg("dst", 0), Reg("dst", 1)), self.ROWS, 1, trans=True),
            bits=16,
            scratch=128,
        )
        assert simulate(p).exact
        wrong = plan(
            self.FRAG,
            self.FRAG_T,
            MatrixStore((Reg("src", 0), Reg("src", 1)), self.ROWS, 1),
            Barrier("warp"),
            MatrixLoad((Reg("dst", 0), Reg("dst", 1)), self.ROWS, 1),
            bits=16,
            scratch=128,
        )
        # Element (r, c) lands where (c, r) belongs; it is right only when the
        # thread's row t//4 equals its column 2(t%4)+i: once in 8 threads.
        assert simulate(wrong).mismatches == 2 * 32 - 8

    def test_rows_in_one_bank_group_conflict(self):
        # Rows 128 bytes apart all start in bank 0: 8 rows x 4 words in 4 banks.
        p = plan(
            self.FRAG,
            self.FRAG,
            MatrixStore((Reg("src", 0), Reg("src", 1)), ThreadAffine(0, (128, 256, 512)), 1),
            bits=16,
            scratch=1024,
        )
        r = simulate(p)
        assert (r.wavefronts, r.wavefront_lower_bound) == (8, 1)

    def test_trans_needs_16_bit(self):
        p = plan(self.FRAG, self.FRAG, MatrixStore((Reg("src", 0),), self.ROWS, 1, trans=True), bits=32, scratch=128)
        with pytest.raises(PlanError, match=".trans needs 16-bit"):
            simulate(p)
