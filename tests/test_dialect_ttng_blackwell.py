"""The ``ttng`` ops beyond Hopper's wgmma/TMA basics: tensor memory, tcgen05 MMAs,
mbarrier arrivals, cluster ops, CLC, TMA gather/scatter/reduce/im2col, device-side
descriptors. Each case is printed by ltc and compared with Triton 3.9's own printing
of the same text; invalid cases give Triton's message; side-effecting ops survive
dead-code elimination."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from ltc.dialects.ttng import (
    TensorMemoryEncodingAttr,
    TensorMemoryScalesEncodingAttr,
    TMEMAllocOp,
)
from xdsl.traits import is_side_effect_free
from xdsl.utils.exceptions import VerifyException

from tests import oracle
from tests.dialect_helpers import find_ops, op_lines, parse, parse_unverified, print_ir

HEADER = """\
#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked4 = #ttg.blocked<{sizePerThread = [32], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#shared3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#tmem_scales = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
"""

BAR = "!ttg.memdesc<1xi64, #shared1, #smem, mutable>"
ACC = "!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>"
ACC2 = "!ttg.memdesc<128x256xf32, #tmem, #ttng.tensor_memory, mutable>"
A = "!ttg.memdesc<128x64xf16, #shared, #smem>"
B = "!ttg.memdesc<64x128xf16, #shared2, #smem>"
F8A = "!ttg.memdesc<128x64xf8E4M3FN, #shared, #smem>"
F8B = "!ttg.memdesc<64x128xf8E4M3FN, #shared2, #smem>"
SCALES_A = "!ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory>"
SCALES_B = "!ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory>"
DESC = "!tt.tensordesc<128x64xf16, #shared>"
BUF = "!ttg.memdesc<128x64xf16, #shared, #smem, mutable>"
ROWS = "!tt.tensordesc<1x64xf16, #shared>"
ARGS = (
    f"%bar: {BAR}, %p: i1, %i: i32, %acc: {ACC}, %acc2: {ACC2}, %a: {A}, %b: {B}, %x: tensor<128x128xf32, #blocked>, "
    f"%tok: !ttg.async.token, %f8a: {F8A}, %f8b: {F8B}, %sa: {SCALES_A}, %sb: {SCALES_B}, %d: {DESC}, %buf: {BUF}, "
    f"%im: !ttng.tensordesc_im2col<128x64xf16, #shared>, %o: i16, %rows: {ROWS}, %xs: tensor<32xi32, #blocked4>, "
    "%gbuf: !ttg.memdesc<32x64xf16, #shared, #smem, mutable>, %q: !tt.ptr<i8>, %g: !tt.ptr<f16>, %i64: i64, "
    "%resp: !ttg.memdesc<2xi64, #shared1, #smem, mutable>, %c: i128, "
    "%ssrc: !ttg.memdesc<128x2xi8, #shared3, #smem>, %sdst: !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory, mutable>"
)


def module_text(body: str, args: str = ARGS, header: str = HEADER) -> str:
    lines = "".join(f"    {line.strip()}\n" for line in body.strip().splitlines())
    return f"{header}  tt.func @f({args}) {{\n{lines}    tt.return\n  }}\n}}\n"


OP_CASES: dict[str, str] = {
    "tmem_alloc": f"%0 = ttng.tmem_alloc : () -> {ACC}",
    "tmem_alloc_src_token": (
        "%0, %1 = ttng.tmem_alloc %x {loop.stage = 1 : i32} : (tensor<128x128xf32, #blocked>) -> "
        f"({ACC}, !ttg.async.token)"
    ),
    "tmem_load": f"%0 = ttng.tmem_load %acc : {ACC} -> tensor<128x128xf32, #blocked>",
    "tmem_load_token": f"%0, %1 = ttng.tmem_load %acc[%tok] : {ACC} -> tensor<128x128xf32, #blocked>",
    "tmem_load_new_token": f"%0, %1 = ttng.tmem_load %acc[] : {ACC} -> tensor<128x128xf32, #blocked>",
    "tmem_store": f"ttng.tmem_store %x, %acc, %p : tensor<128x128xf32, #blocked> -> {ACC}",
    "tmem_store_token": f"%0 = ttng.tmem_store %x, %acc[%tok], %p : tensor<128x128xf32, #blocked> -> {ACC}",
    "tmem_subslice": (
        f"%0 = ttng.tmem_subslice %acc2 {{offset = 128 : i32}} : {ACC2} -> "
        "!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable, 128x256>"
    ),
    "tmem_subslice_default_dim": (
        f"%0 = ttng.tmem_subslice %acc2 {{dim = 1 : i32, offset = 0 : i32}} : {ACC2} -> "
        "!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable, 128x256>"
    ),
    "tmem_copy_scales": (
        "ttng.tmem_copy %ssrc, %sdst : !ttg.memdesc<128x2xi8, #shared3, #smem>, "
        "!ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory, mutable>"
    ),
    "tmem_wait_load": "ttng.tmem_wait load",
    "tmem_wait_store": "ttng.tmem_wait store {a = 1 : i32}",
    "tc_gen5_mma": f"ttng.tc_gen5_mma %a, %b, %acc, %p, %p : {A}, {B}, {ACC}",
    "tc_gen5_mma_token_barriers": (
        f"%0 = ttng.tc_gen5_mma %a, %b, %acc[%tok], %p, %p, %bar[%p], %bar[%p] {{is_async}} : {A}, {B}, {ACC}, {BAR}, {BAR}"
    ),
    "tc_gen5_mma_new_token": f"%0 = ttng.tc_gen5_mma %a, %b, %acc[], %p, %p {{is_async, is_unsigned}} : {A}, {B}, {ACC}",
    "tc_gen5_mma_scaled": (
        f"ttng.tc_gen5_mma_scaled %f8a, %f8b, %acc, %sa, %sb, %p, %p lhs = e4m3 rhs = e4m3 : "
        f"{F8A}, {F8B}, {ACC}, {SCALES_A}, {SCALES_B}"
    ),
    "tc_gen5_mma_scaled_barrier": (
        f"%0 = ttng.tc_gen5_mma_scaled %f8a, %f8b, %acc[%tok], %sa, %sb, %p, %p lhs = e4m3 rhs = e5m2, %bar[%p] "
        f"{{is_async}} : {F8A}, {F8B}, {ACC}, {SCALES_A}, {SCALES_B}, {BAR}"
    ),
    "tc_gen5_commit": f"ttng.tc_gen5_commit %bar : {BAR}",
    "tc_gen5_commit_pred_descs": f"ttng.tc_gen5_commit %bar, %p descs %a, %b : {BAR}, {A}, {B}",
    "arrive_barrier": f"ttng.arrive_barrier %bar, 2 : {BAR}",
    "arrive_barrier_pred_attrs": f"ttng.arrive_barrier %bar, 1, %p {{fromCTA = 0 : i32, multicastCTA = 0 : i32}} : {BAR}",
    "barrier_expect_from_cta": f"ttng.barrier_expect %bar, 16384 {{fromCTA = 0 : i32}}, %p : {BAR}",
    "async_copy_mbarrier_arrive": f"ttng.async_copy_mbarrier_arrive %bar : {BAR}",
    "async_copy_mbarrier_arrive_no_increment": f"ttng.async_copy_mbarrier_arrive %bar {{noIncrement}} : {BAR}",
    "tma_load_im2col": (
        f"ttng.async_tma_copy_global_to_local %im[%i, %i, %i, %i] offsets = [%o, %o] %buf, %bar, %p : "
        f"!ttng.tensordesc_im2col<128x64xf16, #shared>, {BAR} -> {BUF}"
    ),
    "tma_load_cache_policy": (
        "ttng.async_tma_copy_global_to_local %d[%i, %i] %buf, %bar, %p {cachePolicy = #tt.cache_policy<"
        f"cache_modifier = none, eviction_policy = evict_last>}} : {DESC}, {BAR} -> {BUF}"
    ),
    "tma_reduce": f"ttng.async_tma_reduce add, %d[%i, %i] %buf : {DESC}, {BUF}",
    "tma_gather": (
        f"ttng.async_tma_gather %rows[%xs, %i] %gbuf, %bar, %p : {ROWS}, tensor<32xi32, #blocked4>, i32, {BAR}, "
        "!ttg.memdesc<32x64xf16, #shared, #smem, mutable>, i1"
    ),
    "tma_scatter": (
        f"ttng.async_tma_scatter %rows[%xs, %i] %gbuf : {ROWS}, tensor<32xi32, #blocked4>, i32, "
        "!ttg.memdesc<32x64xf16, #shared, #smem, mutable>"
    ),
    "tma_store_wait_read_only": "ttng.async_tma_store_wait {pendings = 0 : i32, read_only}",
    "reinterpret_tensor_descriptor": f"%0 = ttng.reinterpret_tensor_descriptor %q : !tt.ptr<i8> to {DESC}",
    "tensormap_create": (
        "ttng.tensormap_create %q, %g, [%i, %i], [%i, %i], [%i64], [%i, %i] {elem_type = 6 : i32, fill_mode = 0 : i32, "
        "interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, "
        "i32, i32) -> ()"
    ),
    "tensormap_fenceproxy_acquire": "ttng.tensormap_fenceproxy_acquire %q : !tt.ptr<i8>",
    "clc_try_cancel": f"ttng.clc_try_cancel %resp, %bar {{multicast = false}} : !ttg.memdesc<2xi64, #shared1, #smem, mutable>, {BAR}",
    "clc_try_cancel_sync": "%0 = ttng.clc_try_cancel_sync : tensor<2xi64, #blocked1>",
    "clc_load_result": "%0 = ttng.clc_load_result %resp : !ttg.memdesc<2xi64, #shared1, #smem, mutable> -> i128",
    "clc_is_canceled": "%0 = ttng.clc_is_canceled %c : i128 -> i1",
    "clc_get_program_id": "%0 = ttng.clc_get_program_id %c, y : i128 -> i32",
    "tmem_load_reduce": (
        f"%0, %1 = ttng.tmem_load %acc {{NaN = true, abs = true, redOp = #ttng.redOp<max>}} : {ACC} -> "
        "tensor<128x128xf32, #blocked>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>"
    ),
}

MULTI_CTA_HEADER = HEADER.replace('"ttg.num-ctas" = 1', '"ttg.num-ctas" = 2').replace(
    "order = [0]}>\n#shared2", "order = [0], CGALayout = [[1]]}>\n#shared2"
)
MULTI_CTA_CASES: dict[str, str] = {
    "cluster_barrier": "ttng.cluster_barrier",
    "cluster_barrier_relaxed": "ttng.cluster_barrier {relaxed = true}",
    "fence_mbarrier_init_release_cluster": "ttng.fence_mbarrier_init_release_cluster",
}
MULTI_CTA_ARGS = "%p: i1"


def _roundtrip(text: str) -> tuple[str, str]:
    return print_ir(parse(text)), text


ALL_CASES = {**{k: (module_text(v),) for k, v in OP_CASES.items()},
             **{k: (module_text(v, MULTI_CTA_ARGS, MULTI_CTA_HEADER),) for k, v in MULTI_CTA_CASES.items()}}


class Test_op_syntax:
    @pytest.mark.parametrize("case", sorted(ALL_CASES))
    def test_roundtrip_is_stable(self, case: str) -> None:
        printed, _ = _roundtrip(ALL_CASES[case][0])
        assert print_ir(parse(printed)) == printed

    @oracle.requires_triton
    @pytest.mark.parametrize("case", sorted(ALL_CASES))
    def test_prints_like_triton(self, case: str) -> None:
        printed, original = _roundtrip(ALL_CASES[case][0])
        triton_printed = oracle.triton_reprint(original)
        assert op_lines(printed) == op_lines(triton_printed)
        assert oracle.triton_reprint(printed) == triton_printed

    def test_defaults_are_not_printed(self) -> None:
        printed, _ = _roundtrip(module_text(OP_CASES["arrive_barrier_pred_attrs"]))
        (line,) = [x for x in printed.splitlines() if "ttng.arrive_barrier" in x]
        assert line.strip().startswith("ttng.arrive_barrier %bar, 1, %p {fromCTA = 0 : i32} : !ttg.memdesc<1xi64")
        printed, _ = _roundtrip(module_text(OP_CASES["tmem_subslice_default_dim"]))
        (line,) = [x for x in printed.splitlines() if "ttng.tmem_subslice" in x]
        assert " {offset = 0 : i32} : " in line


class Test_attributes:
    def test_tensor_memory_encoding_prints_in_declaration_order(self) -> None:
        text = module_text(
            "",
            "%t: !ttg.memdesc<256x128xf32, #ttng.tensor_memory_encoding<twoCTAs = true, colStride=1, "
            "CGALayout = [[1, 0]], blockN = 64, blockM = 128>, #ttng.tensor_memory>",
            HEADER.replace('"ttg.num-ctas" = 1', '"ttg.num-ctas" = 2'),
        )
        (arg,) = find_ops(parse(text), "tt.func")[0].regions[0].block.args
        enc = arg.type.encoding
        assert isinstance(enc, TensorMemoryEncodingAttr)
        assert str(enc) == (
            "#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, CGALayout = [[1, 0]], twoCTAs = true>"
        )

    def test_scales_encoding(self) -> None:
        assert str(TensorMemoryScalesEncodingAttr()) == "#ttng.tensor_memory_scales_encoding<>"
        assert str(TensorMemoryScalesEncodingAttr((), "kThenMn")) == (
            "#ttng.tensor_memory_scales_encoding<blockRepOrder = kThenMn>"
        )

    def test_unknown_parameter_is_a_parse_error(self) -> None:
        from xdsl.utils.exceptions import ParseError

        text = module_text(
            "", "%t: !ttg.memdesc<128x128xf32, #ttng.tensor_memory_encoding<blockM = 64, blockN = 256, "
            "colStride = 1, CTASplitM = 2>, #ttng.tensor_memory>"
        )
        with pytest.raises(ParseError, match="expected one of the parameters blockM"):
            parse_unverified(text)


class Test_effects:
    def test_side_effecting_ops_are_not_pure(self) -> None:
        ops = [op for body in OP_CASES.values() for op in parse(module_text(body)).walk() if op.name.startswith("ttng.")]
        assert len({op.name for op in ops}) == 25
        pure = {op.name for op in ops if is_side_effect_free(op)}
        assert pure == {"ttng.clc_is_canceled", "ttng.clc_get_program_id", "ttng.tmem_subslice",
                        "ttng.reinterpret_tensor_descriptor"}

    def test_immutable_tmem_alloc_has_no_effect_until_placed(self) -> None:
        module = parse(module_text(
            "%0 = ttng.tmem_alloc %x : (tensor<128x128xf32, #blocked>) -> "
            "!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>\n"
            "%1 = ttng.tmem_alloc %x {tensor_memory_col_offset = 0 : i32} : (tensor<128x128xf32, #blocked>) -> "
            "!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>"
        ))
        first, second = find_ops(module, "ttng.tmem_alloc")
        assert isinstance(first, TMEMAllocOp)
        assert is_side_effect_free(first) and not is_side_effect_free(second)


INVALID_CASES: list[tuple[str, str]] = [
    (f"%0 = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>",
     "uninitialized alloc must have a mutable memdesc type"),
    (f"%0 = ttng.tmem_alloc %x : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>\n"
     "ttng.tmem_store %x, %0, %p : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>",
     "Cannot store into an immutable alloc"),
    (f"%0 = ttng.tmem_subslice %acc2 {{N = 0 : i32}} : {ACC2} -> "
     "!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable, 128x256>", "requires attribute 'offset'"),
    (f"ttng.init_barrier %bar, 0 : {BAR}", "count must be greater than or equal to 1"),
    (f"ttng.arrive_barrier %bar, 0 : {BAR}", "count must be greater than or equal to 1"),
    ("ttng.arrive_barrier %gbuf, 1 : !ttg.memdesc<32x64xf16, #shared, #smem, mutable>",
     "barrier allocation must be a descriptor of Nxi64 type with N <= number of CTAs"),
    (f"ttng.arrive_barrier %bar, 1 {{multicastCTA = 1 : i32}} : {BAR}", "multicast arrive requires num_ctas > 1"),
    (f"ttng.barrier_expect %bar, 16 {{fromCTA = 1 : i32}}, %p : {BAR}", "fromCTA must be in the range [0, num_ctas - 1]"),
    ("ttng.cluster_barrier", "requires ttg.num-ctas > 1"),
    ("ttng.fence_mbarrier_init_release_cluster", "requires ttg.num-ctas > 1"),
    (f"ttng.tc_gen5_mma %a, %b, %acc, %p, %p, %bar[%p] : {A}, {B}, {ACC}, {BAR}",
     "The op is synchronous but a barrier is present."),
    (f"ttng.tc_gen5_mma %a, %f8b, %acc, %p, %p : {A}, {F8B}, {ACC}",
     "LHS and RHS operand dtypes kinds don't match: LHS kind is f16 but RHS kind is f8f6f4"),
    (f"ttng.tc_gen5_mma %a, %bs, %acc, %p, %p : {A}, !ttg.memdesc<64x128xf16, #shared3, #smem>, {ACC}",
     "RHS operand must have a NVMMAShared encoding"),
    (f"ttng.async_tma_copy_global_to_local %im[%i, %i, %i, %i] offsets = [%o] %buf, %bar, %p : "
     f"!ttng.tensordesc_im2col<128x64xf16, #shared>, {BAR} -> {BUF}",
     "IM2COL mode with 4D coordinates requires 2 offsets, but got 1"),
    (f"ttng.async_tma_copy_global_to_local %d[%i, %i] %buf, %bar, %p {{cachePolicy = #tt.cache_policy<"
     f"cache_modifier = ca, eviction_policy = evict_last>}} : {DESC}, {BAR} -> {BUF}",
     "TMA operations do not support cache modifiers"),
    (f"ttng.async_tma_copy_global_to_local %d[%i, %i] %a, %bar, %p : {DESC}, {BAR} -> {A}",
     "cannot store into immutable memory"),
    (f"ttng.async_tma_reduce inc, %d[%i, %i] %buf : {DESC}, {BUF}", "unsupported reduce kind inc for element type 'f16'"),
    (f"ttng.async_tma_gather %rows[%xs, %i] %gbuf, %bar, %p {{multicast}} : {ROWS}, tensor<32xi32, #blocked4>, i32, {BAR}, "
     "!ttg.memdesc<32x64xf16, #shared, #smem, mutable>, i1", "multicast requires the shared layout to broadcast across CTAs"),
    (f"ttng.async_tma_gather %rows[%ys, %i] %gbuf, %bar, %p : {ROWS}, tensor<32xi32, #blocked1>, i32, {BAR}, "
     "!ttg.memdesc<32x64xf16, #shared, #smem, mutable>, i1", "x offsets must have at least 4 contiguous elements per thread"),
    ("ttng.tensormap_create %q, %g, [%i, %i], [%i], [%i64], [%i, %i] {elem_type = 6 : i32, fill_mode = 0 : i32, "
     "interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i64, i32, i32) -> ()",
     "Rank mismatch for global dim. Got 1 but expected 2"),
    ("ttng.clc_try_cancel %bar, %bar : !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>",
     "Expected CLC result buffer to have rank 1 and a single dimension equal to 2, but got 1."),
    ("%0 = ttng.clc_try_cancel_sync : tensor<4xi64, #blocked1>", "response must have shape [2]"),
    (f"%0 = ttng.tmem_load %acc {{abs = true}} : {ACC} -> tensor<128x128xf32, #blocked>", "'abs' requires 'redOp' to be set"),
]
INVALID_ARGS = ARGS + ", %ys: tensor<32xi32, #blocked1>, %bs: !ttg.memdesc<64x128xf16, #shared3, #smem>"


def _ids(cases: list[tuple[str, str]]) -> list[str]:
    return [re.sub(r"\W+", "_", m[:40]) + f"_{i}" for i, (_, m) in enumerate(cases)]


class Test_verifiers:
    @pytest.mark.parametrize(("body", "message"), INVALID_CASES, ids=_ids(INVALID_CASES))
    def test_message(self, body: str, message: str) -> None:
        module = parse_unverified(module_text(body, INVALID_ARGS))
        with pytest.raises(VerifyException, match=re.escape(message)):
            module.verify()

    @oracle.requires_triton
    @pytest.mark.parametrize(("body", "message"), INVALID_CASES, ids=_ids(INVALID_CASES))
    def test_triton_says_the_same(self, body: str, message: str) -> None:
        with pytest.raises(oracle.OracleError) as info:
            oracle.triton_reprint(module_text(body, INVALID_ARGS))
        assert message in info.value.diagnostics

    def test_tcgen05_needs_a_blackwell_target(self) -> None:
        text = module_text(OP_CASES["tmem_alloc"]).replace('"cuda:100"', '"cuda:90"')
        with pytest.raises(VerifyException, match="requires tcgen05 support"):
            parse_unverified(text).verify()
        parse(module_text(OP_CASES["tmem_alloc"]).replace('ttg.target = "cuda:100", ', ""))


# Triton's own tests, next to the repository (``<repo root>/../shared/triton-suite``).
SUITE = Path(os.environ.get("LTC_TRITON_SUITE", Path(__file__).resolve().parents[2] / "shared" / "triton-suite")) / "test" / "TritonNvidiaGPU"


@oracle.requires_triton
@pytest.mark.skipif(not SUITE.is_dir(), reason="Triton's test suite is not on disk")
def test_suite_chunks_reprint_like_triton() -> None:
    """Every chunk of Triton's TritonNvidiaGPU tests that Triton accepts parses in ltc,
    and Triton reads ltc's printing back to the same module."""
    import io

    from ltc.tools.opt import run

    checked = 0
    for path in sorted(SUITE.glob("*.mlir")):
        for chunk in re.split(r"^// -----.*$", path.read_text(), flags=re.M):
            try:
                expected = oracle.triton_reprint(chunk)
            except oracle.OracleError:
                continue
            out, err = io.StringIO(), io.StringIO()
            rc = run(["-", "--allow-unregistered-dialect"], io.StringIO(chunk), out, err)
            assert rc == 0, f"{path.name}: {err.getvalue()}"
            assert oracle.triton_reprint(out.getvalue()) == expected, path.name
            checked += 1
    assert checked >= 60
