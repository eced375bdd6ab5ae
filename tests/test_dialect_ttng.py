"""The ``ttng`` dialect: Triton 3.9 syntax of the Hopper ops (wgmma, mbarriers, TMA)
and their verifiers, checked against Triton itself (see ``test_dialect_ttg``)."""

from __future__ import annotations

import re

import pytest
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.ttng import WarpGroupDotOp, WarpGroupDotWaitOp
from tests import oracle
from tests.dialect_helpers import find_ops, module_text, op_lines, parse, parse_unverified, print_ir

DOT_A = "tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>"
BAR = "!ttg.memdesc<1xi64, #shared1, #smem, mutable>"
ARGS = (
    f"%ad: !tt.tensordesc<128x64xf16, #shared>, %i: i32, %pr: i1, %acc: tensor<128x64xf32, #mma>, %ta: {DOT_A}, "
    "%bm: !ttg.memdesc<64x64xf16, #shared, #smem>, %am: !ttg.memdesc<128x64xf16, #shared, #smem>, "
    f"%bar: {BAR}, %buf: !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, "
    "%am2: !ttg.memdesc<128x64xf16, #shared2, #smem>, %x: tensor<64x64xf16, #blocked>"
)

OP_CASES: dict[str, str] = {
    "init_barrier": f"ttng.init_barrier %bar, 1 : {BAR}",
    "inval_barrier": f"ttng.inval_barrier %bar : {BAR}",
    "barrier_expect": f"ttng.barrier_expect %bar, 32768, %pr : {BAR}",
    "wait_barrier": f"ttng.wait_barrier %bar, %i : {BAR}",
    "wait_barrier_pred_deps": (
        f"ttng.wait_barrier %bar, %i, %pr deps %am, %bm : {BAR}, !ttg.memdesc<128x64xf16, #shared, #smem>, "
        "!ttg.memdesc<64x64xf16, #shared, #smem>"
    ),
    "tma_load": (
        f"ttng.async_tma_copy_global_to_local %ad[%i, %i] %buf, %bar, %pr : !tt.tensordesc<128x64xf16, #shared>, "
        f"{BAR} -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>"
    ),
    "tma_load_not_volatile": (
        f"ttng.async_tma_copy_global_to_local %ad[%i, %i] %buf, %bar, %pr {{isVolatile = false}} : "
        f"!tt.tensordesc<128x64xf16, #shared>, {BAR} -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>"
    ),
    "tma_store": (
        "ttng.async_tma_copy_local_to_global %ad[%i, %i] %buf : !tt.tensordesc<128x64xf16, #shared>, "
        "!ttg.memdesc<128x64xf16, #shared, #smem, mutable>"
    ),
    "tma_store_wait": "ttng.async_tma_store_wait {pendings = 0 : i32}",
    "fence_async_shared": "ttng.fence_async_shared {bCluster = false}",
    "fence_async_shared_cluster": "ttng.fence_async_shared {bCluster = true}",
    "warp_group_dot_smem": (
        "%0 = ttng.warp_group_dot %am, %bm, %acc {inputPrecision = 0 : i32, isAsync = true} : "
        "!ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> "
        "-> tensor<128x64xf32, #mma>"
    ),
    "warp_group_dot_reg_a": (
        "%0 = ttng.warp_group_dot %ta, %bm, %acc {inputPrecision = 0 : i32, isAsync = true} : "
        f"{DOT_A} * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>"
    ),
    "warp_group_dot_defaults_use_c": (
        "%0 = ttng.warp_group_dot %am, %bm, %acc, %pr {inputPrecision = 2 : i32, isAsync = false, "
        "maxNumImpreciseAcc = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * "
        "!ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>"
    ),
    "warp_group_dot_imprecise": (
        "%0 = ttng.warp_group_dot %am, %bm, %acc {maxNumImpreciseAcc = 4 : i32} : "
        "!ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> "
        "-> tensor<128x64xf32, #mma>"
    ),
    "warp_group_dot_wait_one": "%0 = ttng.warp_group_dot_wait %acc {pendings = 0 : i32} : tensor<128x64xf32, #mma>",
}

# multi-result ops: xDSL prints `%a, %b = ...` where Triton prints `%a:2 = ...`
MULTI_RESULT_CASES: dict[str, str] = {
    "warp_group_dot_wait_three": (
        "%0:3 = ttng.warp_group_dot_wait %acc, %am, %bm {pendings = 1 : i32} : tensor<128x64xf32, #mma>, "
        "!ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x64xf16, #shared, #smem>"
    ),
}


def _printed(body: str) -> tuple[str, str]:
    text = module_text(ARGS, body)
    return print_ir(parse(text)), text


_RESULTS = re.compile(r"^(%v\d+)(?:, %v\d+)+ = ")


class Test_op_syntax:
    @pytest.mark.parametrize("case", sorted(OP_CASES | MULTI_RESULT_CASES))
    def test_roundtrip_is_stable(self, case: str) -> None:
        printed, _ = _printed((OP_CASES | MULTI_RESULT_CASES)[case])
        assert print_ir(parse(printed)) == printed

    @oracle.requires_triton
    @pytest.mark.parametrize("case", sorted(OP_CASES))
    def test_prints_like_triton(self, case: str) -> None:
        printed, original = _printed(OP_CASES[case])
        triton_printed = oracle.triton_reprint(original)
        assert op_lines(printed) == op_lines(triton_printed)
        assert oracle.triton_reprint(printed) == triton_printed

    @oracle.requires_triton
    @pytest.mark.parametrize("case", sorted(MULTI_RESULT_CASES))
    def test_multi_result_prints_like_triton(self, case: str) -> None:
        printed, original = _printed(MULTI_RESULT_CASES[case])
        triton_printed = oracle.triton_reprint(original)
        ours = [_RESULTS.sub(r"\1:N = ", line) for line in op_lines(printed)]
        theirs = [re.sub(r"^(%v\d+):\d+ = ", r"\1:N = ", line) for line in op_lines(triton_printed)]
        assert ours == theirs
        assert oracle.triton_reprint(printed) == triton_printed

    def test_defaults_not_printed(self) -> None:
        printed, _ = _printed(OP_CASES["warp_group_dot_defaults_use_c"])
        (line,) = [x for x in op_lines(printed) if "warp_group_dot" in x]
        assert line.startswith("%v11 = ttng.warp_group_dot %v6, %v5, %v3, %v2 : !ttg.memdesc<128x64xf16")

    def test_wait_results_have_operand_types(self) -> None:
        module = parse(module_text(ARGS, MULTI_RESULT_CASES["warp_group_dot_wait_three"]))
        (op,) = find_ops(module, "ttng.warp_group_dot_wait")
        assert isinstance(op, WarpGroupDotWaitOp)
        assert list(op.outputs.types) == list(op.inputs.types)

    def test_build_warp_group_dot(self) -> None:
        module = parse(module_text(ARGS, OP_CASES["warp_group_dot_smem"]))
        (op,) = find_ops(module, "ttng.warp_group_dot")
        assert isinstance(op, WarpGroupDotOp)
        built = WarpGroupDotOp(op.a, op.b, op.c, input_precision=0, is_async=True)
        built.verify()
        assert print_ir(built).split(" = ", 1)[1] == print_ir(op).split(" = ", 1)[1]


INVALID_CASES: list[tuple[str, str]] = [
    (
        "%0 = ttng.warp_group_dot %am, %am, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, "
        "#smem> * !ttg.memdesc<128x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>",
        "expected the last dimension of the first operand to be equal to the second-to-last dimension of the "
        "second operand",
    ),
    (
        "%0 = ttng.warp_group_dot %am, %bm, %x {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, "
        "#smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>",
        "expected the output shape to be the concatenation of the last dimension of the first operand and the "
        "last dimension of the second",
    ),
    (
        f"ttng.async_tma_copy_global_to_local %ad[%i, %i] %buf, %bar, %pr {{cache = 1 : i32}} : "
        f"!tt.tensordesc<128x64xf16, #shared>, {BAR} -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>",
        "use cachePolicy instead of legacy cache/evict attributes",
    ),
    (
        f"ttng.async_tma_copy_global_to_local %ad[%i, %i] %buf, %bar, %pr {{isVolatile = true}} : "
        f"!tt.tensordesc<128x64xf16, #shared>, {BAR} -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>",
        "volatile TMA loads are not supported",
    ),
    (
        f"ttng.async_tma_copy_global_to_local %ad[%i, %i] %am, %bar, %pr : !tt.tensordesc<128x64xf16, #shared>, "
        f"{BAR} -> !ttg.memdesc<128x64xf16, #shared, #smem>",
        "cannot store into immutable memory",
    ),
]

LTC_INVALID_CASES: list[tuple[str, str]] = [
    (
        "ttng.async_tma_copy_local_to_global %ad[%i, %i] %bm : !tt.tensordesc<128x64xf16, #shared>, "
        "!ttg.memdesc<64x64xf16, #shared, #smem>",
        "descriptor block and tensor must have the same number of elements, but got descriptor block with 8192 "
        "elements tensor with 4096 elements",
    ),
]


class Test_verifiers:
    @pytest.mark.parametrize(("body", "message"), INVALID_CASES, ids=[m[:40] for _, m in INVALID_CASES])
    def test_message(self, body: str, message: str) -> None:
        module = parse_unverified(module_text(ARGS, body))
        with pytest.raises(VerifyException, match=re.escape(message)):
            module.verify()

    @oracle.requires_triton
    @pytest.mark.parametrize(("body", "message"), INVALID_CASES, ids=[m[:40] for _, m in INVALID_CASES])
    def test_triton_says_the_same(self, body: str, message: str) -> None:
        with pytest.raises(oracle.OracleError) as info:
            oracle.triton_reprint(module_text(ARGS, body))
        assert message in info.value.diagnostics

    @pytest.mark.parametrize(("body", "message"), LTC_INVALID_CASES, ids=[m[:40] for _, m in LTC_INVALID_CASES])
    def test_ltc_only(self, body: str, message: str) -> None:
        module = parse_unverified(module_text(ARGS, body))
        with pytest.raises(VerifyException, match=re.escape(message)):
            module.verify()
