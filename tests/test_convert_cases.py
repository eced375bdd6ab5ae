"""The conversion benchmark's case list (benchmarks/convert_cases.py) and its Triton
harness (benchmarks/triton_convert.py): the cases are well formed and cover every
category; the PTX counting is exact; Triton's counts for a few cases are pinned."""

from __future__ import annotations

import os
import sys
from collections import Counter

import pytest

import ltc
from ltc.encodings.blocked import BlockedEncoding
from ltc.encodings.dot_operand import DotOperandEncoding
from ltc.encodings.nvidia_mma import NvidiaMmaEncoding
from ltc.encodings.slice import SliceEncoding
from tests import oracle

# Top-level imports: xdsl installs a package named ``benchmarks`` that shadows the folder.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks"))
import convert_cases as cc  # noqa: E402
import triton_convert as tc  # noqa: E402

CASES = cc.CASES
IDS = [c.name for c in CASES]


def _bases(attr: str, shape: tuple[int, ...]) -> dict[str, list[tuple[int, ...]]]:
    ll = ltc.to_linear_layout(attr, shape)
    return {d: [tuple(b) for b in ll.bases[d]] for d in ("register", "lane", "warp", "block")}


class Test_CaseList:
    def test_count_and_unique_names(self) -> None:
        assert len(CASES) >= 44
        assert len({c.name for c in CASES}) == len(CASES)
        assert set(cc.CASES_BY_NAME) == {c.name for c in CASES}

    def test_every_category_has_cases(self) -> None:
        counts = Counter(c.category for c in CASES)
        assert set(counts) == set(cc.CATEGORIES)
        assert all(n >= 2 for n in counts.values()), counts

    def test_dtypes_and_warps_spread(self) -> None:
        dtypes = {c.dtype for c in CASES}
        assert dtypes <= set(cc.DTYPES)
        assert {"f16", "f32", "i8"} <= dtypes
        assert dtypes & {"fp8e4nv", "fp8e5"}
        assert {c.num_warps for c in CASES} == {4, 8}

    @pytest.mark.parametrize("case", CASES, ids=IDS)
    def test_name_spells_shape_dtype_warps(self, case: cc.ConvertCase) -> None:
        shape = "x".join(map(str, case.shape))
        assert case.name.endswith(f"_{shape}_{case.dtype}_w{case.num_warps}")

    @pytest.mark.parametrize("case", CASES, ids=IDS)
    def test_layouts_parse_and_fit(self, case: cc.ConvertCase) -> None:
        for attr in (case.src, case.dst):
            ll = ltc.to_linear_layout(attr, case.shape)
            assert ll.out_dims == {f"dim{i}": s for i, s in enumerate(case.shape)}
            assert ll.in_dim_size("warp") == case.num_warps
            assert ll.in_dim_size("lane") == cc.THREADS_PER_WARP
            assert ll.in_dim_size("block") == 1
            # the texts are Triton's printed form (ltc prints like Triton)
            assert ltc.parse_encoding(attr).to_text() == attr

    @pytest.mark.parametrize("case", CASES, ids=IDS)
    def test_category_property(self, case: cc.ConvertCase) -> None:
        src, dst = ltc.parse_encoding(case.src), ltc.parse_encoding(case.dst)
        sb, db = _bases(case.src, case.shape), _bases(case.dst, case.shape)
        same_layout = ltc.to_linear_layout(case.src, case.shape) == ltc.to_linear_layout(case.dst, case.shape)
        cat = case.category
        if cat == "equivalent":
            assert same_layout
            return
        if cat not in ("mma2_to_dot", "mma3_to_dot"):
            # (a 16-bit accumulator *is* its kWidth = 2 operand A layout: those stay)
            assert not same_layout
        if cat == "blocked_transpose":
            assert isinstance(src, BlockedEncoding) and isinstance(dst, BlockedEncoding)
            assert dst.order == src.order[::-1]
        elif cat == "blocked_reshape":
            assert isinstance(src, BlockedEncoding) and isinstance(dst, BlockedEncoding)
            assert dst.order == src.order
        elif cat in ("blocked_to_mma2", "blocked_to_mma3", "mma2_to_blocked", "mma3_to_blocked"):
            blk, mma = (src, dst) if cat.startswith("blocked") else (dst, src)
            assert isinstance(blk, BlockedEncoding) and isinstance(mma, NvidiaMmaEncoding)
            assert mma.version_major == int(cat[-1] if cat.startswith("blocked") else cat[3])
        elif cat in ("mma2_to_dot", "mma3_to_dot"):
            assert isinstance(src, NvidiaMmaEncoding) and isinstance(dst, DotOperandEncoding)
            assert dst.parent == src and src.version_major == int(cat[3])
            assert dst.k_width == max(1, 32 // case.elem_bits)
            if cat == "mma3_to_dot":
                assert dst.op_idx == 0
        elif cat == "slice":
            assert len(case.shape) == 1
            assert isinstance(src, SliceEncoding) or isinstance(dst, SliceEncoding)
        elif cat == "lane_permutation":
            assert sb["register"] == db["register"] and sb["warp"] == db["warp"]
            assert sb["lane"] != db["lane"] and sorted(sb["lane"]) == sorted(db["lane"])
        elif cat == "register_permutation":
            assert sb["lane"] == db["lane"] and sb["warp"] == db["warp"]
            assert sb["register"] != db["register"] and sorted(sb["register"]) == sorted(db["register"])
        elif cat == "broadcast":
            zero = tuple([0] * len(case.shape))
            assert any(zero in bases for layout in (sb, db) for bases in layout.values())
        else:  # pragma: no cover
            pytest.fail(f"unknown category {cat}")

    def test_both_mma2_operands_and_kwidths(self) -> None:
        dots = [ltc.parse_encoding(c.dst) for c in CASES if c.category == "mma2_to_dot"]
        assert {d.op_idx for d in dots} == {0, 1}
        assert {d.k_width for d in dots} == {1, 2, 4}


PTX_SAMPLE = """\
//
// Generated by LLVM NVPTX Back-End
//
.version 8.7
.target sm_90a
.extern .shared .align 16 .b8 global_smem[];
.visible .entry k(
	.param .u64 .ptr .global .align 1 k_param_0
)
{
	.reg .b32 	%r<9>;
// %bb.0:
	ld.param.b64 	%rd1, [k_param_0];
	ld.global.v4.b32 { %r1, %r2, %r3, %r4 }, [ %rd1 + 0 ];
	st.shared.v4.b32 	[%r5], {%r1, %r2, %r3, %r4};
	@%p1 st.shared.b16 	[%r5+8], %rs1;
	@!%p2 st.shared::cta.b32 	[%r5+16], %r1;   // st.shared.b32 in a comment
	bar.sync 	0;
	barrier.sync.aligned 	1;
	bar.warp.sync 	-1;
	ld.shared.v2.b32 	{%r1, %r2}, [%r6];
	ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r1, %r2, %r3, %r4}, [%r6];
	stmatrix.sync.aligned.m8n8.x2.shared.b16 [%r6], {%r1, %r2};
	shfl.sync.idx.b32 	%r7, %r1, 3, 31, -1;
	shfl.sync.bfly.b32 	%r8, %r2, 1, 31, -1;
$L__BB0_1:
	st.global.b32 	[%rd1], %r8;
	ret;
}
"""


class Test_PtxCounting:
    def test_counts_sample_exactly(self) -> None:
        assert tc.count_ptx(PTX_SAMPLE) == {
            "st_shared": 3,
            "ld_shared": 1,
            "stmatrix": 1,
            "ldmatrix": 1,
            "shfl": 2,
            "bar_sync": 2,
            "bar_warp_sync": 1,
        }

    def test_mnemonics_skip_directives_labels_comments(self) -> None:
        ms = tc.ptx_mnemonics(PTX_SAMPLE)
        assert ms[:3] == ["ld.param.b64", "ld.global.v4.b32", "st.shared.v4.b32"]
        assert ms[-2:] == ["st.global.b32", "ret"]
        assert len(ms) == 15


TTGIR_SAMPLE = """\
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#loc1 = loc("/abs/dir/kernel.py":3:1)
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @f(%a: tensor<64x64xf16, #blocked>) {
    %0 = ttg.convert_layout %a : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.slice<{dim = 0, parent = #blocked1}>> loc(#loc1)
    tt.return
  }
}
"""


class Test_TtgirHelpers:
    def test_convert_layouts_expands_aliases(self) -> None:
        b = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
        b1 = "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>"
        assert tc.convert_layouts(TTGIR_SAMPLE) == [(b, f"#ttg.slice<{{dim = 0, parent = {b1}}}>")]

    def test_strip_paths(self) -> None:
        assert 'loc("kernel.py":3:1)' in tc.strip_paths(TTGIR_SAMPLE)
        assert "/abs/dir" not in tc.strip_paths(TTGIR_SAMPLE)


@oracle.requires_triton
class Test_TritonCounts:
    """Counts Triton 3.9 emits for sm_90 (observed, pinned exactly)."""

    @pytest.fixture(autouse=True)
    def _private_cache(self, tmp_path, monkeypatch) -> None:
        monkeypatch.setattr(tc, "CACHE_DIR", tmp_path / "cache")

    @staticmethod
    def _counts(counts: tc.TritonCounts) -> tuple[int, ...]:
        return tuple(getattr(counts, k) for k in tc.COLUMNS)

    def test_blocked_transpose_uses_one_round_trip(self) -> None:
        counts = tc.triton_convert_counts(cc.case_by_name("blkT_64x64_f16_w4"), use_cache=False)
        # st.shared, ld.shared, stmatrix, ldmatrix (.trans), shfl, bar, bar.warp, bytes
        assert self._counts(counts) == (4, 0, 0, 4, 0, 1, 0, 8192)
        assert counts.has_convert
        assert "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16" in counts.ptx

    def test_register_permutation_is_free(self) -> None:
        counts = tc.triton_convert_counts(cc.case_by_name("regRev_64x16_f16_w4"), use_cache=False)
        assert self._counts(counts) == (0, 0, 0, 0, 0, 0, 0, 0)

    def test_lane_permutation_uses_shuffles_only(self) -> None:
        counts = tc.triton_convert_counts(cc.case_by_name("laneRot_32x16_f16_w4"), use_cache=False)
        assert self._counts(counts) == (0, 0, 0, 0, 2, 0, 0, 0)

    def test_cache_round_trip_and_ttgir(self) -> None:
        case = cc.case_by_name("laneRot_32x16_f16_w4")
        first = tc.triton_convert_counts(case)
        assert list(tc.CACHE_DIR.glob(f"{case.name}-*.json"))
        again = tc.triton_convert_counts(case)
        assert again == first
        ttgir = tc.kernel_ttgir(case)
        assert tc.convert_layouts(ttgir) == [(case.src, case.dst)]
        assert '"/' not in ttgir
