"""The ``tt`` dialect: Triton 3.9 syntax of every op, verifiers, types.

Each op case is a Triton text (``tests.dialect_helpers.module_text``). ltc parses
and prints it; the op lines must equal Triton's own printing of the same text
(after ``normalize``), and Triton must re-print ltc's output exactly as it re-prints
the original (differential oracle). Every verifier rule has a negative case with
its exact message. Every real Triton file in ``examples/triton`` must parse.
"""

from __future__ import annotations

import math
import pathlib
import re
from io import StringIO

import pytest
from ltc.dialects.context import triton_context
from ltc.dialects.tt import (
    TT,
    CachePolicyAttr,
    LoadOp,
    PtrType,
    StoreOp,
    TensorDescType,
    i1_like,
    is_ptr_like,
    pointee_type_of,
    pointee_value_type,
)
from xdsl.dialects.builtin import TensorType, f16, f32, i32
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import ParseError, VerifyException

from tests import oracle
from tests.dialect_helpers import (
    module_text,
    op_lines,
    parse,
    parse_unverified,
    print_ir,
)

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples" / "triton"

ARGS = (
    "%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, "
    "%tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, "
    "%tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, "
    "%d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>"
)

# Layout-carrying arguments (TTGIR), with the aliases of dialect_helpers.HEADER.
MMA2 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>"
GPU_ARGS = (
    f"%x: tensor<64x64xf16, #blocked>, %a: tensor<128x64xf16, #ttg.dot_op<{{opIdx = 0, parent = {MMA2}, kWidth = 2}}>>, "
    f"%b: tensor<64x64xf16, #ttg.dot_op<{{opIdx = 1, parent = {MMA2}, kWidth = 2}}>>, %acc: tensor<128x64xf32, {MMA2}>, "
    "%r: tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, %ds: !tt.tensordesc<64x64xf16, #shared>, %i: i32"
)

DOT_SCALED_ARGS = (
    "%a8: tensor<128x64xi8>, %as: tensor<128x4xi8>, %b8: tensor<64x128xi8>, %bs: tensor<128x4xi8>, "
    "%acc: tensor<128x128xf32>, %bf: tensor<128x128xbf16>, %f8: tensor<128x128xf8E4M3FN>, %bn: tensor<128x64xi8>"
)

# #blocked (dialect_helpers.HEADER) for 1x16, and a #ttg.linear spelling of it for 16x16.
BROADCAST_ARGS = "%s1: tensor<1x16xf32, #blocked>"

# name -> (args, op text; one op a line, several where one needs another's result)
OP_CASES: dict[str, tuple[str, str]] = {
    "get_program_id": (ARGS, "%0 = tt.get_program_id x : i32\n%1 = tt.get_program_id y : i32\n%2 = tt.get_program_id z : i32"),
    "get_num_programs": (ARGS, "%0 = tt.get_num_programs x : i32\n%1 = tt.get_num_programs z : i32"),
    "make_range": (ARGS, "%0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>"),
    "make_range_offset": (ARGS, "%0 = tt.make_range {end = 96 : i32, start = 32 : i32} : tensor<64xi32>"),
    "splat": (ARGS, "%0 = tt.splat %n : i32 -> tensor<128xi32>\n%1 = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>"),
    "broadcast": (
        ARGS,
        "%0 = tt.splat %f : f32 -> tensor<1x32xf32>\n%1 = tt.broadcast %0 : tensor<1x32xf32> -> tensor<64x32xf32>",
    ),
    "expand_dims": (
        ARGS,
        "%0 = tt.expand_dims %ti {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>\n"
        "%1 = tt.expand_dims %ti {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>",
    ),
    "addptr": (
        ARGS,
        "%0 = tt.addptr %tp, %ti : tensor<128x!tt.ptr<f32>>, tensor<128xi32>\n"
        "%1 = tt.addptr %p, %n : !tt.ptr<f32>, i32\n%2 = tt.addptr %tp, %ti64 : tensor<128x!tt.ptr<f32>>, tensor<128xi64>",
    ),
    "load": (
        ARGS,
        "%0 = tt.load %tp : tensor<128x!tt.ptr<f32>>\n%1 = tt.load %tp, %tm : tensor<128x!tt.ptr<f32>>\n"
        "%2 = tt.load %tp, %tm, %tf : tensor<128x!tt.ptr<f32>>\n%3 = tt.load %p : !tt.ptr<f32>",
    ),
    "load_attrs": (
        ARGS,
        "%0 = tt.load %tp, %tm, %tf {isVolatile = true} : tensor<128x!tt.ptr<f32>>\n"
        "%1 = tt.load %tp {cachePolicy = #tt.cache_policy<cache_modifier = ca, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>\n"
        "%2 = tt.load %tp, %tm {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_last>} : tensor<128x!tt.ptr<f32>>\n"
        "%3 = tt.load %tp {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_first>, isVolatile = true} : tensor<128x!tt.ptr<f32>>",
    ),
    "store": (
        ARGS,
        "tt.store %tp, %tf : tensor<128x!tt.ptr<f32>>\ntt.store %tp, %tf, %tm : tensor<128x!tt.ptr<f32>>\n"
        "tt.store %p, %f : !tt.ptr<f32>\n"
        "tt.store %tp, %tf, %tm {cachePolicy = #tt.cache_policy<cache_modifier = wb, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>\n"
        "tt.store %tp, %tf {cachePolicy = #tt.cache_policy<cache_modifier = cs, eviction_policy = evict_first>} : tensor<128x!tt.ptr<f32>>",
    ),
    "dot": (
        ARGS,
        "%0 = tt.dot %t2, %t2, %t2 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>\n"
        "%1 = tt.dot %t2, %t2, %0, inputPrecision = tf32 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>\n"
        "%2 = tt.dot %t2, %t2, %1, inputPrecision = tf32x3 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>\n"
        "%3 = tt.dot %h2, %h2, %2 {maxNumImpreciseAcc = 32 : i32} : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>\n"
        "%4 = tt.dot %t2, %t2, %3, inputPrecision = bf16x3 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>",
    ),
    "dot_mma": (
        GPU_ARGS,
        f"%0 = tt.dot %a, %b, %acc : tensor<128x64xf16, #ttg.dot_op<{{opIdx = 0, parent = {MMA2}, kWidth = 2}}>> "
        f"* tensor<64x64xf16, #ttg.dot_op<{{opIdx = 1, parent = {MMA2}, kWidth = 2}}>> -> tensor<128x64xf32, {MMA2}>",
    ),
    "trans": (ARGS, "%0 = tt.trans %t2 {order = array<i32: 1, 0>} : tensor<32x32xf32> -> tensor<32x32xf32>"),
    "trans_3d": (
        ARGS,
        "%0 = tt.reshape %tf : tensor<128xf32> -> tensor<2x32x2xf32>\n"
        "%1 = tt.trans %0 {order = array<i32: 2, 0, 1>} : tensor<2x32x2xf32> -> tensor<2x2x32xf32>",
    ),
    "reshape": (
        ARGS,
        "%0 = tt.reshape %t2 : tensor<32x32xf32> -> tensor<1024xf32>\n"
        "%1 = tt.reshape %t2 allow_reorder : tensor<32x32xf32> -> tensor<1024xf32>\n"
        "%2 = tt.reshape %t2 allow_reorder efficient_layout : tensor<32x32xf32> -> tensor<1024xf32>\n"
        "%3 = tt.reshape %t2 efficient_layout : tensor<32x32xf32> -> tensor<1024xf32>",
    ),
    "join_split": (
        ARGS,
        "%0 = tt.join %tf, %tf : tensor<128xf32> -> tensor<128x2xf32>\n"
        "%outLHS, %outRHS = tt.split %0 : tensor<128x2xf32> -> tensor<128xf32>",
    ),
    "cat": (ARGS, "%0 = tt.cat %tf, %tf : tensor<128xf32> -> tensor<256xf32>"),
    "gather": (
        ARGS,
        "%0 = tt.gather %tf[%ti] {axis = 0 : i32} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>\n"
        "%1 = tt.gather %tf[%ti] {axis = 0 : i32, efficient_layout} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>",
    ),
    "bitcast": (
        ARGS,
        "%0 = tt.bitcast %tf : tensor<128xf32> -> tensor<128xi32>\n%1 = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>",
    ),
    "fp_to_fp": (
        ARGS,
        "%0 = tt.fp_to_fp %tf, rounding = rtne : tensor<128xf32> -> tensor<128xf8E5M2>\n"
        "%1 = tt.fp_to_fp %tf, rounding = rtz : tensor<128xf32> -> tensor<128xf8E4M3FN>\n"
        "%2 = tt.fp_to_fp %0 : tensor<128xf8E5M2> -> tensor<128xf32>",
    ),
    "int_ptr_casts": (
        ARGS,
        "%0 = tt.ptr_to_int %tp : tensor<128x!tt.ptr<f32>> -> tensor<128xi64>\n"
        "%1 = tt.int_to_ptr %n64 : i64 -> !tt.ptr<f32>\n%2 = tt.int_to_ptr %0 : tensor<128xi64> -> tensor<128x!tt.ptr<f32>>",
    ),
    "atomic_rmw": (
        ARGS,
        "%0 = tt.atomic_rmw fadd, acq_rel, gpu, %tp, %tf, %tm : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> tensor<128xf32>\n"
        "%1 = tt.atomic_rmw max, release, sys, %tpi, %ti : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>\n"
        "%2 = tt.atomic_rmw exch, relaxed, cta, %p, %f : (!tt.ptr<f32>, f32) -> f32",
    ),
    "atomic_cas": (
        ARGS,
        "%0 = tt.atomic_cas acq_rel, cta, %tpi, %ti, %ti : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>\n"
        "%1 = tt.atomic_cas acquire, gpu, %pi, %n, %n : (!tt.ptr<i32>, i32, i32) -> i32",
    ),
    "assert": (ARGS, 'tt.assert %tm, "neg" : tensor<128xi1>\ntt.assert %c, "scalar" : i1'),
    "print": (
        ARGS,
        'tt.print " val: " {hex = false, isSigned = array<i32: 1, 0>} : %ti, %tf : tensor<128xi32>, tensor<128xf32>\n'
        'tt.print "x" {hex = true, isSigned = array<i32>}',
    ),
    "histogram": (
        ARGS,
        "%0 = tt.histogram %ti : tensor<128xi32> -> tensor<64xi32>\n%1 = tt.histogram %ti, %tm : tensor<128xi32> -> tensor<64xi32>",
    ),
    "clampf": (ARGS, "%0 = tt.clampf %tf, %tf, %tf, propagateNan = all : tensor<128xf32>\n%1 = tt.clampf %f, %f, %f, propagateNan = none : f32"),
    "precise_sqrt_divf": (ARGS, "%0 = tt.precise_sqrt %tf : tensor<128xf32>\n%1 = tt.precise_divf %tf, %0 : tensor<128xf32>"),
    "mulhiui": (ARGS, "%0 = tt.mulhiui %ti, %ti : tensor<128xi32>\n%1 = tt.mulhiui %n, %n : i32"),
    "extern_elementwise": (
        ARGS,
        '%0 = tt.extern_elementwise %tf, %tf {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} '
        ": (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>",
    ),
    "elementwise_inline_asm": (
        ARGS,
        '%0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %ti : tensor<128xi32> -> tensor<128xi32>\n'
        '%1 = tt.elementwise_inline_asm "mov.b32 $0, 1;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32',
    ),
    "make_tensor_descriptor": (
        ARGS,
        "%0 = tt.make_tensor_descriptor %p, [%n, %n], [%n64, %n64] : <f32>, <32x32xf32>\n"
        "%1 = tt.make_tensor_descriptor %p, [%n, %n], [%n64, %n64] {padding = 2 : i32} : <f32>, <32x32xf32>",
    ),
    "make_tensor_descriptor_full_types": (
        ARGS, "%0 = tt.make_tensor_descriptor %p, [%n], [%n64] : !tt.ptr<f32>, !tt.tensordesc<32xf32>"
    ),
    "descriptor_load_store": (
        ARGS,
        "%0 = tt.descriptor_load %d[%n, %n] : !tt.tensordesc<32x32xf32> -> tensor<32x32xf32>\n"
        "%1 = tt.descriptor_load %d[%n, %n] {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_last>} : !tt.tensordesc<32x32xf32> -> tensor<32x32xf32>\n"
        "tt.descriptor_store %d[%n, %n], %0 : !tt.tensordesc<32x32xf32>, tensor<32x32xf32>",
    ),
    "descriptor_load_gpu": (
        GPU_ARGS,
        "%0 = tt.descriptor_load %ds[%i, %i] : !tt.tensordesc<64x64xf16, #shared> -> tensor<64x64xf16, #blocked>\n"
        "tt.descriptor_store %ds[%i, %i], %0 : !tt.tensordesc<64x64xf16, #shared>, tensor<64x64xf16, #blocked>",
    ),
    "expand_dims_gpu": (
        GPU_ARGS,
        "%0 = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> "
        "-> tensor<64x1xi32, #blocked>",
    ),
    "reduce": (
        ARGS,
        '%0 = "tt.reduce"(%tf) <{axis = 0 : i32}> ({\n^bb0(%a: f32, %b: f32):\n%m = arith.maxnumf %a, %b : f32\n'
        "tt.reduce.return %m : f32\n}) : (tensor<128xf32>) -> f32",
    ),
    "reduce_2d": (
        ARGS,
        '%0 = "tt.reduce"(%t2) <{axis = 1 : i32}> ({\n^bb0(%a: f32, %b: f32):\n%m = arith.addf %a, %b : f32\n'
        "tt.reduce.return %m : f32\n}) : (tensor<32x32xf32>) -> tensor<32xf32>",
    ),
    "scan": (
        ARGS,
        '%0 = "tt.scan"(%tf) <{axis = 0 : i32, reverse = true}> ({\n^bb0(%a: f32, %b: f32):\n%s = arith.addf %a, %b : f32\n'
        "tt.scan.return %s : f32\n}) : (tensor<128xf32>) -> tensor<128xf32>",
    ),
    "map_elementwise": (
        ARGS,
        '%0 = "tt.map_elementwise"(%tf, %ti) <{pack = 1 : i32}> ({\n^bb0(%a: f32, %b: i32):\n'
        "%s = arith.sitofp %b : i32 to f32\n%t = arith.addf %a, %s : f32\ntt.map_elementwise.return %t : f32\n"
        "}) : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>",
    ),
    "approx_divf": (ARGS, "%0 = tt.approx_divf %f, %f : f32\n%1 = tt.approx_divf %tf, %tf : tensor<128xf32>"),
    "atomic_load_store": (
        ARGS,
        "%0 = tt.atomic_load relaxed, gpu, %p : (!tt.ptr<f32>) -> f32\n"
        "%1 = tt.atomic_load acquire, sys, %tp, %tm : (tensor<128x!tt.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>\n"
        "tt.atomic_store relaxed, gpu, %p, %f : !tt.ptr<f32>\n"
        "tt.atomic_store release, sys, %tp, %tf, %tm : tensor<128x!tt.ptr<f32>>",
    ),
    "atomic_poll": (ARGS, "%0 = tt.atomic_poll acquire, gpu, %pi, %n : !tt.ptr<i32>, i32 -> i1"),
    "grid_dependency": (ARGS, "tt.grid_dependency_launch_dependents\ntt.grid_dependency_wait"),
    "descriptor_reduce": (
        ARGS,
        "tt.descriptor_reduce add, %d[%n, %n], %t2 : !tt.tensordesc<32x32xf32>, tensor<32x32xf32>\n"
        "tt.descriptor_reduce max, %d[%n, %n], %t2 : !tt.tensordesc<32x32xf32>, tensor<32x32xf32>",
    ),
    "descriptor_gather_scatter": (
        ARGS.replace("%ti64:", "%d1: !tt.tensordesc<1x32xf32>, %ti64:"),
        "%0 = tt.descriptor_gather %d1[%ti, %n] : (!tt.tensordesc<1x32xf32>, tensor<128xi32>, i32) -> tensor<128x32xf32>\n"
        "tt.descriptor_scatter %d1[%ti, %n], %0 : !tt.tensordesc<1x32xf32>, tensor<128xi32>, i32, tensor<128x32xf32>",
    ),
    "unsplat": (ARGS, "%0 = tt.splat %f : f32 -> tensor<1x1xf32>\n%1 = tt.unsplat %0 : tensor<1x1xf32>"),
    "dot_scaled": (
        DOT_SCALED_ARGS,
        "%0 = tt.dot_scaled %a8 scale %as, %b8 scale %bs, %acc lhs = e2m1 rhs = e2m1 {fastMath = false, "
        "lhs_k_pack = true, rhs_k_pack = true} : tensor<128x64xi8>, tensor<128x4xi8> * tensor<64x128xi8>, "
        "tensor<128x4xi8> -> tensor<128x128xf32>\n"
        "%1 = tt.dot_scaled %a8 scale %as, %bf, %0 lhs = e2m1 rhs = bf16 {fastMath = true} : tensor<128x64xi8>, "
        "tensor<128x4xi8> * tensor<128x128xbf16> -> tensor<128x128xf32>\n"
        "%2 = tt.dot_scaled %f8, %bn, %1 lhs = e4m3 rhs = e2m1 {fastMath = false, rhs_k_pack = false} : "
        "tensor<128x128xf8E4M3FN> * tensor<128x64xi8> -> tensor<128x128xf32>",
    ),
    "fp_to_fp_generic_rounding": (ARGS, "%0 = tt.fp_to_fp %tf {rounding = 1 : i32} : tensor<128xf32> -> tensor<128xf8E5M2>"),
    "splat_0d_tensor": (ARGS.replace("%ti64:", "%s0: tensor<f32>, %ti64:"), "%0 = tt.splat %s0 : tensor<f32> -> tensor<8xf32>"),
    "descriptor_load_signed": (
        ARGS.replace("%ti64:", "%ds8: !tt.tensordesc<32x32xsi8>, %ti64:"),
        "%0 = tt.descriptor_load %ds8[%n, %n] : !tt.tensordesc<32x32xsi8> -> tensor<32x32xi8>",
    ),
    "print_bare_prefix": (ARGS, 'tt.print "x" {hex = false, isSigned = array<i32: 0>}'),
    "broadcast_linear_equivalent": (
        BROADCAST_ARGS,
        "%0 = tt.broadcast %s1 : tensor<1x16xf32, #blocked> -> tensor<16x16xf32, #ttg.linear<{register = [[0, 1], "
        "[0, 2], [0, 4]], lane = [[0, 8], [0, 0], [0, 0], [2, 0], [1, 0]], warp = [[4, 0], [8, 0]], block = []}>>",
    ),
    # Triton 3.9 accepts these (the oracle test below checks it), so ltc must too.
    "splat_of_tensor": (ARGS, "%0 = tt.splat %ti : tensor<128xi32> -> tensor<128xi32>"),
    "histogram_2d_result": (ARGS, "%0 = tt.histogram %ti : tensor<128xi32> -> tensor<8x8xi32>"),
    "descriptor_load_any_shape": (ARGS, "%0 = tt.descriptor_load %d[%n, %n] : !tt.tensordesc<32x32xf32> -> tensor<64x16xf32>"),
    "descriptor_load_fewer_indices": (ARGS, "%0 = tt.descriptor_load %d[%n] : !tt.tensordesc<32x32xf32> -> tensor<32x32xf32>"),
}


def _ltc_roundtrip(text: str) -> str:
    return print_ir(parse(text))


@pytest.mark.parametrize("name", sorted(OP_CASES))
def test_op_parses_and_prints(name: str) -> None:
    """ltc reads the op and prints it back to text ltc reads again identically."""
    args, body = OP_CASES[name]
    text = module_text(args, body)
    printed = _ltc_roundtrip(text)
    assert _ltc_roundtrip(printed) == printed


def test_load_commas_without_operands() -> None:
    """Triton's `$ptr (`,` $mask^)? (`,` $other^)?` lets each comma stand alone:
    `tt.load %p, : T` is a plain load (Triton 3.9 reads it so)."""
    text = module_text(
        ARGS,
        "%0 = tt.load %tp, : tensor<128x!tt.ptr<f32>>\n%1 = tt.load %tp, %tm, : tensor<128x!tt.ptr<f32>>\n"
        "%2 = tt.load %tp, {isVolatile = true} : tensor<128x!tt.ptr<f32>>",
    )
    lines = [ln.strip() for ln in _ltc_roundtrip(text).splitlines() if "tt.load" in ln]
    assert lines == [
        "%0 = tt.load %tp : tensor<128x!tt.ptr<f32>>",
        "%1 = tt.load %tp, %tm : tensor<128x!tt.ptr<f32>>",
        "%2 = tt.load %tp {isVolatile = true} : tensor<128x!tt.ptr<f32>>",
    ]


@oracle.requires_triton
@pytest.mark.parametrize("name", sorted(OP_CASES))
def test_op_prints_as_triton(name: str) -> None:
    """ltc's op lines equal Triton's printing of the same module, and Triton re-reads
    ltc's output to the same module."""
    args, body = OP_CASES[name]
    text = module_text(args, body)
    printed = _ltc_roundtrip(text)
    triton = oracle.triton_reprint(text)
    assert op_lines(printed) == op_lines(triton)
    assert oracle.triton_reprint(printed) == triton


def test_op_cases_cover_every_op() -> None:
    covered = {m for _, body in OP_CASES.values() for m in re.findall(r'"?(tt\.[a-z_.]+)"?', body)}
    defined = {op.name for op in TT.operations} - {"tt.func", "tt.return", "tt.call"}
    assert defined - covered == set()


# --- functions and calls ------------------------------------------------------------

FUNC_MODULE = """\
module {
  tt.func private @decl(i32, !tt.ptr<f16, "constant">) -> f32
  tt.func private @decl2()
  tt.func public @g(%a: !tt.ptr<f16, "constant"> {tt.divisibility = 16 : i32, tt.pointer_range = 32 : i32}, %b: i32) -> (f32, i32) attributes {noinline = true} {
    %0 = tt.call @decl(%b, %a) : (i32, !tt.ptr<f16, "constant">) -> f32
    tt.call @decl2() : () -> ()
    tt.return %0, %b : f32, i32
  }
  tt.func @h(%a: f32) -> (f32 {tt.foo = 1 : i32}) {
    tt.return %a : f32
  }
}
"""


def test_func_call_return_roundtrip() -> None:
    printed = print_ir(parse(FUNC_MODULE))
    assert print_ir(parse(printed)) == printed
    assert 'tt.func private @decl(i32, !tt.ptr<f16, "constant">) -> f32' in printed
    assert "tt.func private @decl2()\n" in printed
    assert "attributes {noinline = true} {" in printed


@oracle.requires_triton
def test_func_call_return_as_triton() -> None:
    printed = print_ir(parse(FUNC_MODULE))
    assert oracle.triton_reprint(printed) == oracle.triton_reprint(FUNC_MODULE)
    strip = re.compile(r"^\s*tt\.func.*$", re.M)
    assert op_lines(strip.sub("", printed)) == op_lines(strip.sub("", oracle.triton_reprint(FUNC_MODULE)))


# --- types ---------------------------------------------------------------------------


def _print_attr(attr: object) -> str:
    out = StringIO()
    Printer(stream=out).print_attribute(attr)  # type: ignore[arg-type]
    return out.getvalue()


def _parse_type(text: str):  # noqa: ANN202
    return Parser(triton_context(), text).parse_type()


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("!tt.ptr<f16>", "!tt.ptr<f16>"),
        ('!tt.ptr<f16, "global">', "!tt.ptr<f16>"),
        ('!tt.ptr<i8, "constant">', '!tt.ptr<i8, "constant">'),
        ("tensor<4x!tt.ptr<f32>>", "tensor<4x!tt.ptr<f32>>"),
        ("!tt.tensordesc<128x64xf16>", "!tt.tensordesc<128x64xf16>"),
        ("!tt.tensordesc<1x2x128xf8E4M3FN>", "!tt.tensordesc<1x2x128xf8E4M3FN>"),
        (
            "!tt.tensordesc<64xi32, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>>",
            "!tt.tensordesc<64xi32, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>>",
        ),
    ],
)
def test_type_roundtrip(text: str, printed: str) -> None:
    assert _print_attr(_parse_type(text)) == printed


@oracle.requires_triton
@pytest.mark.parametrize(
    "type_text",
    ["!tt.ptr<f16>", '!tt.ptr<i8, "constant">', "!tt.tensordesc<128x64xf16>", "!tt.tensordesc<1x2x128xf8E4M3FN>"],
)
def test_type_prints_as_triton(type_text: str) -> None:
    text = f"module {{\n  tt.func @f(%a: {type_text}) {{\n    tt.return\n  }}\n}}\n"
    printed = print_ir(parse(text))
    assert oracle.triton_reprint(printed) == oracle.triton_reprint(text)
    assert f"(%arg0: {type_text})" in oracle.triton_reprint(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("!tt.ptr<f16, 1>", "expected string: the address space of !tt.ptr is"),
        ('!tt.ptr<f16, "shared">', "invalid pointer address space 'shared'"),
        ("!tt.ptr<tensor<4xf16>>", "pointer types must point to integer or floating-point types"),
        ("!tt.ptr<!tt.ptr<f16>>", "pointer types must point to integer or floating-point types"),
        (
            "!tt.tensordesc<tensor<4xf16>>",
            "tensor descriptors must not wrap tensor types; use !tt.tensordesc<shape x element-type[, layout]> instead",
        ),
    ],
)
def test_type_errors(text: str, message: str) -> None:
    with pytest.raises((ParseError, VerifyException)) as err:
        _parse_type(text)
    assert message in str(err.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("#tt.cache_policy<cache_modifier = xx, eviction_policy = evict_normal>",
         "expected cache_modifier to be one of: none, ca, cg, wb, cs, wt, cv"),
        ("#tt.cache_policy<cache_modifier = ca, eviction_policy = foo>",
         "expected eviction_policy to be one of: evict_normal, evict_first, evict_last"),
        ("#tt.cache_policy<cache_modifier = ca>", "Expected ','"),
    ],
)
def test_cache_policy_errors(text: str, message: str) -> None:
    with pytest.raises(ParseError) as err:
        Parser(triton_context(), text).parse_attribute()
    assert message in str(err.value)


def test_cache_policy_either_order() -> None:
    attr = Parser(triton_context(), "#tt.cache_policy<eviction_policy = evict_last, cache_modifier = cg>").parse_attribute()
    assert attr == CachePolicyAttr("cg", "evict_last")
    assert _print_attr(attr) == "#tt.cache_policy<cache_modifier = cg, eviction_policy = evict_last>"


def test_type_helpers() -> None:
    ptr = PtrType(f16)
    tensor = TensorType(ptr, [4, 8])
    assert pointee_type_of(tensor) == f16 and pointee_type_of(ptr) == f16 and pointee_type_of(f16) is None
    assert is_ptr_like(tensor) and not is_ptr_like(TensorType(f16, [4]))
    assert pointee_value_type(tensor) == TensorType(f16, [4, 8])
    assert i1_like(tensor) == TensorType(Parser(triton_context(), "i1").parse_type(), [4, 8])
    desc = TensorDescType(TensorType(f32, [64, 32]))
    assert desc.shape == (64, 32) and desc.element_type == f32
    assert _print_attr(desc) == "!tt.tensordesc<64x32xf32>"


# --- traits --------------------------------------------------------------------------


def test_memory_effect_traits() -> None:
    ops = {op.name: op for op in TT.operations}
    assert ops["tt.load"].has_trait(MemoryReadEffect) and not ops["tt.load"].has_trait(Pure)
    assert ops["tt.store"].has_trait(MemoryWriteEffect)
    assert ops["tt.atomic_rmw"].has_trait(MemoryReadEffect) and ops["tt.atomic_rmw"].has_trait(MemoryWriteEffect)
    for name in ("tt.splat", "tt.make_range", "tt.addptr", "tt.dot", "tt.reduce", "tt.expand_dims", "tt.broadcast"):
        assert ops[name].has_trait(Pure), name


def test_builders() -> None:
    from xdsl.utils.test_value import create_ssa_value

    ptrs = create_ssa_value(TensorType(PtrType(f32), [128]))
    mask = create_ssa_value(TensorType(Parser(triton_context(), "i1").parse_type(), [128]))
    load = LoadOp(ptrs, mask, cache_policy=CachePolicyAttr("ca", "evict_last"), is_volatile=True)
    load.verify()
    assert load.result.type == TensorType(f32, [128])
    store = StoreOp(ptrs, load.result, mask)
    store.verify()
    assert i32 is not None


# --- verifier rules -----------------------------------------------------------------

# name -> (args, op text, exact message)
INVALID_CASES: dict[str, tuple[str, str, str]] = {
    "make_range_empty": (
        ARGS, "%0 = tt.make_range {end = 0 : i32, start = 0 : i32} : tensor<0xi32>",
        "'tt.make_range' op start must be less than end",
    ),
    "make_range_size": (
        ARGS, "%0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<64xi32>",
        "'tt.make_range' op number of elements in returned tensor, 64, must match size of range [0, 128), which has 128 elements",
    ),
    "make_range_rank": (
        ARGS, "%0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<2x64xi32>",
        "'tt.make_range' op result must be a 1D tensor",
    ),
    "make_range_elem": (
        ARGS, "%0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi64>",
        "'tt.make_range' op returned tensor must have i32 elements, but has i64",
    ),
    "splat_elem": (ARGS, "%0 = tt.splat %n : i32 -> tensor<128xf32>",
                   "'tt.splat' op requires the same element type for all operands and results"),
    "splat_tensor_elem": (ARGS, "%0 = tt.splat %ti : tensor<128xi32> -> tensor<128xf32>",
                          "'tt.splat' op requires the same element type for all operands and results"),
    "broadcast_rank": (ARGS, "%0 = tt.broadcast %ti : tensor<128xi32> -> tensor<2x128xi32>",
                       "'tt.broadcast' op rank of source must be same as rank of result"),
    "broadcast_dim": (
        ARGS, "%0 = tt.broadcast %t2 : tensor<32x32xf32> -> tensor<64x32xf32>",
        "'tt.broadcast' op Different dimensions at index 0 between source and result.  "
        "Broadcast requires the source dimension to be 1.",
    ),
    "expand_dims_axis": (
        ARGS, "%0 = tt.expand_dims %ti {axis = 2 : i32} : tensor<128xi32> -> tensor<128x1xi32>",
        "'tt.expand_dims' op axis 2 is out of range for a rank-1 operand (must be in [0, 1])",
    ),
    "expand_dims_shape": (
        ARGS, "%0 = tt.expand_dims %ti {axis = 0 : i32} : tensor<128xi32> -> tensor<128x1xi32>",
        "'tt.expand_dims' op result shape [128, 1] must be the operand shape with a 1 inserted at axis 0: [1, 128]",
    ),
    "expand_dims_layout": (
        GPU_ARGS,
        "%0 = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> "
        "-> tensor<1x64xi32, #blocked>",
        "'tt.expand_dims' op operand layout must be #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 8], "
        "threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>, the result layout sliced along axis 0",
    ),
    "trans_perm": (ARGS, "%0 = tt.trans %t2 {order = array<i32: 0, 0>} : tensor<32x32xf32> -> tensor<32x32xf32>",
                   "'tt.trans' op order must be a permutation of 0..n-1"),
    "trans_shape": (
        ARGS,
        "%0 = tt.reshape %tf : tensor<128xf32> -> tensor<4x32xf32>\n"
        "%1 = tt.trans %0 {order = array<i32: 1, 0>} : tensor<4x32xf32> -> tensor<4x32xf32>",
        "'tt.trans' op result shape must match the permutation of the source shape",
    ),
    "reshape_count": (ARGS, "%0 = tt.reshape %t2 : tensor<32x32xf32> -> tensor<512xf32>",
                      "'tt.reshape' op number of src and dst elements of reshape must be the same"),
    "reshape_elem": (ARGS, "%0 = tt.reshape %t2 : tensor<32x32xf32> -> tensor<1024xi32>",
                     "'tt.reshape' op requires the same element type for all operands and results"),
    "join_shape": (ARGS, "%0 = tt.join %tf, %tf : tensor<128xf32> -> tensor<256xf32>",
                   "'tt.join' op result shape must be (128, 2), but got 256"),
    "split_last_dim": (ARGS, "%a, %b = tt.split %t2 : tensor<32x32xf32> -> tensor<32xf32>",
                       "'tt.split' op last dimension of input tensor must be 2; got tensor<32x32xf32>"),
    "cat_count": (ARGS, "%0 = tt.cat %tf, %tf : tensor<128xf32> -> tensor<128xf32>",
                  "'tt.cat' op result must have twice as many elements as each operand"),
    "dot_k": (
        ARGS,
        "%0 = tt.reshape %tf : tensor<128xf32> -> tensor<32x4xf32>\n"
        "%1 = tt.dot %0, %t2, %t2 : tensor<32x4xf32> * tensor<32x32xf32> -> tensor<32x32xf32>",
        "'tt.dot' op expected the last dimension of the first operand to be equal to the second-to-last dimension "
        "of the second operand",
    ),
    "dot_acc_shape": (
        ARGS,
        "%0 = tt.reshape %tf : tensor<128xf32> -> tensor<4x32xf32>\n"
        "%1 = tt.dot %0, %t2, %t2 : tensor<4x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>",
        "'tt.dot' op accumulator shape [32, 32] must be [4, 32] (a is [4, 32], b is [32, 32])",
    ),
    "dot_rank": (
        ARGS, "%0 = tt.dot %tf, %tf, %tf : tensor<128xf32> * tensor<128xf32> -> tensor<128xf32>",
        "'tt.dot' op expected operands to be 2d or 3d",
    ),
    "load_mask_shape": (
        ARGS,
        "%m = tt.splat %c : i1 -> tensor<64xi1>\n%0 = \"tt.load\"(%tp, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> "
        ": (tensor<128x!tt.ptr<f32>>, tensor<64xi1>) -> tensor<128xf32>",
        "'tt.load' op mask type tensor<64xi1> does not match tensor<128xi1>",
    ),
    "load_result_type": (
        ARGS,
        '%0 = "tt.load"(%tp) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tt.ptr<f32>>) -> tensor<128xf16>',
        "'tt.load' op result type tensor<128xf16> does not match the pointee type tensor<128xf32>",
    ),
    "load_not_ptr": (
        ARGS,
        '%0 = "tt.load"(%tf) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128xf32>) -> tensor<128xf32>',
        "'tt.load' op ptr must be a pointer or a tensor of pointers, got tensor<128xf32>",
    ),
    "load_cache_wb": (
        ARGS,
        "%0 = tt.load %tp {cachePolicy = #tt.cache_policy<cache_modifier = wb, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>",
        "'tt.load' op invalid cache policy: cache modifier 'wb' is not supported for loads",
    ),
    "store_value_type": (
        ARGS, '"tt.store"(%tp, %ti) : (tensor<128x!tt.ptr<f32>>, tensor<128xi32>) -> ()',
        "'tt.store' op value type tensor<128xi32> does not match the pointee type tensor<128xf32>",
    ),
    "store_cache_ca": (
        ARGS,
        "tt.store %tp, %tf {cachePolicy = #tt.cache_policy<cache_modifier = ca, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>",
        "'tt.store' op invalid cache policy: cache modifier 'ca' is not supported for stores",
    ),
    "addptr_not_ptr": (ARGS, "%0 = tt.addptr %ti, %ti : tensor<128xi32>, tensor<128xi32>",
                       "'tt.addptr' op ptr must be a pointer or a tensor of pointers, got tensor<128xi32>"),
    "addptr_shape": (
        ARGS, "%0 = tt.addptr %tp, %n : tensor<128x!tt.ptr<f32>>, i32",
        "'tt.addptr' op requires the same shape for all operands and results",
    ),
    "bitcast_width": (ARGS, "%0 = tt.bitcast %tf : tensor<128xf32> -> tensor<128xi64>",
                      "'tt.bitcast' op Cannot bitcast data-type of size 32 to data-type of size 64"),
    "fp_to_fp_rounding": (ARGS, "%0 = tt.fp_to_fp %tf : tensor<128xf32> -> tensor<128xf8E5M2>",
                          "'tt.fp_to_fp' op Rounding mode is required for FP downcast"),
    "fp_to_fp_int": (ARGS, "%0 = tt.fp_to_fp %ti : tensor<128xi32> -> tensor<128xf32>",
                     "'tt.fp_to_fp' op operand and result must be floating-point types"),
    "int_to_ptr_width": (ARGS, "%0 = tt.int_to_ptr %n : i32 -> !tt.ptr<f32>",
                         "'tt.int_to_ptr' op operand must be i64 or a tensor of i64, got i32"),
    "ptr_to_int_width": (ARGS, "%0 = tt.ptr_to_int %p : !tt.ptr<f32> -> i32",
                         "'tt.ptr_to_int' op result must be i64 or a tensor of i64, got i32"),
    "precise_sqrt_int": (ARGS, "%0 = tt.precise_sqrt %ti : tensor<128xi32>",
                         "'tt.precise_sqrt' op operands must be floating-point scalars or tensors, got tensor<128xi32>"),
    "mulhiui_float": (ARGS, "%0 = tt.mulhiui %tf, %tf : tensor<128xf32>",
                      "'tt.mulhiui' op operands must be integer scalars or tensors, got tensor<128xf32>"),
    "atomic_rmw_value": (
        ARGS,
        "%0 = tt.atomic_rmw fadd, acq_rel, gpu, %tp, %ti : (tensor<128x!tt.ptr<f32>>, tensor<128xi32>) -> tensor<128xi32>",
        "'tt.atomic_rmw' op value type tensor<128xi32> does not match the pointee type tensor<128xf32>",
    ),
    "atomic_cas_cmp": (
        ARGS,
        "%0 = tt.atomic_cas acq_rel, cta, %tpi, %tf, %ti : (tensor<128x!tt.ptr<i32>>, tensor<128xf32>, tensor<128xi32>) -> tensor<128xi32>",
        "'tt.atomic_cas' op failed to verify that ptr type matches cmp type",
    ),
    "assert_cond": (ARGS, 'tt.assert %ti, "x" : tensor<128xi32>',
                    "'tt.assert' op condition must be i1 or a tensor of i1, got tensor<128xi32>"),
    "gather_shape": (
        ARGS,
        "%0 = tt.gather %tf[%ti] {axis = 0 : i32} : (tensor<128xf32>, tensor<128xi32>) -> tensor<64xf32>",
        "'tt.gather' op indices and output shapes must match",
    ),
    "gather_axis": (
        ARGS,
        "%0 = tt.gather %tf[%ti] {axis = 1 : i32} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>",
        "'tt.gather' op gather dimension must be less than the input rank",
    ),
    "histogram_result": (ARGS, "%0 = tt.histogram %ti : tensor<128xi32> -> tensor<8xf32>",
                         "'tt.histogram' op result #0 must be ranked tensor of integer values, but got 'tensor<8xf32>'"),
    "inline_asm_scalar": (
        ARGS,
        '%0 = tt.elementwise_inline_asm "mov.b32 $0, 1;" {constraints = "=r", packed_element = 1 : i32, pure = true} -> tensor<128xi32>',
        "'tt.elementwise_inline_asm' op if a result is non-scalar, then at least one operand must be non-scalar",
    ),
    "reduce_axis": (
        ARGS,
        '%0 = "tt.reduce"(%tf) <{axis = 1 : i32}> ({\n^bb0(%a: f32, %b: f32):\n%m = arith.maxnumf %a, %b : f32\n'
        "tt.reduce.return %m : f32\n}) : (tensor<128xf32>) -> f32",
        "'tt.reduce' op axis out of bounds for operand rank 1",
    ),
    "reduce_result": (
        ARGS,
        '%0 = "tt.reduce"(%t2) <{axis = 1 : i32}> ({\n^bb0(%a: f32, %b: f32):\n%m = arith.addf %a, %b : f32\n'
        "tt.reduce.return %m : f32\n}) : (tensor<32x32xf32>) -> tensor<16xf32>",
        "'tt.reduce' op result type tensor<16xf32> must be the operand type without dim 1",
    ),
    "reduce_region_args": (
        ARGS,
        '%0 = "tt.reduce"(%tf) <{axis = 0 : i32}> ({\n^bb0(%a: f32):\n'
        "tt.reduce.return %a : f32\n}) : (tensor<128xf32>) -> f32",
        "'tt.reduce' op combine region arguments must be (f32, f32)",
    ),
    "scan_result": (
        ARGS,
        '%0 = "tt.scan"(%tf) <{axis = 0 : i32, reverse = false}> ({\n^bb0(%a: f32, %b: f32):\n%s = arith.addf %a, %b : f32\n'
        "tt.scan.return %s : f32\n}) : (tensor<128xf32>) -> tensor<128xi32>",
        "'tt.scan' op operand types and result types must agree",
    ),
    "scan_return": (
        ARGS,
        '%0 = "tt.scan"(%tf) <{axis = 0 : i32, reverse = false}> ({\n^bb0(%a: f32, %b: f32):\n'
        "tt.scan.return %n : i32\n}) : (tensor<128xf32>) -> tensor<128xf32>",
        "'tt.scan' op combine region must return (f32)",
    ),
    "descriptor_load_count": (
        ARGS, "%0 = tt.descriptor_load %d[%n, %n] : !tt.tensordesc<32x32xf32> -> tensor<32x16xf32>",
        "'tt.descriptor_load' op descriptor block and tensor must have the same number of elements, but got "
        "descriptor block with 1024 elements tensor with 512 elements",
    ),
    "descriptor_load_elem": (
        ARGS, "%0 = tt.descriptor_load %d[%n, %n] : !tt.tensordesc<32x32xf32> -> tensor<32x32xf16>",
        "'tt.descriptor_load' op descriptor block and tensor element types must match, but got descriptor element type 'f32' and tensor element type 'f16'",
    ),
    "descriptor_store_elem": (
        ARGS, "tt.descriptor_store %d[%n, %n], %h2 : !tt.tensordesc<32x32xf32>, tensor<32x32xf16>",
        "'tt.descriptor_store' op descriptor block and tensor element types must match, but got descriptor element type 'f32' and tensor element type 'f16'",
    ),
    "make_tensor_descriptor_rank": (
        ARGS, "%0 = tt.make_tensor_descriptor %p, [%n], [%n64] : <f32>, <32x32xf32>",
        "'tt.make_tensor_descriptor' op needs one shape and one stride per block dim (2), got 1 and 1",
    ),
    "dot_scaled_k": (
        DOT_SCALED_ARGS,
        "%0 = tt.dot_scaled %a8 scale %as, %b8, %acc lhs = e2m1 rhs = e4m3 {fastMath = true} : tensor<128x64xi8>, "
        "tensor<128x4xi8> * tensor<64x128xi8> -> tensor<128x128xf32>",
        "'tt.dot_scaled' op expected the last dimension of the first operand to be equal to the second-to-last "
        "dimension of the second operand",
    ),
    "dot_scaled_output": (
        DOT_SCALED_ARGS.replace("%acc: tensor<128x128xf32>", "%acc: tensor<128x64xf32>"),
        "%0 = tt.dot_scaled %a8 scale %as, %b8 scale %bs, %acc lhs = e2m1 rhs = e2m1 {fastMath = false} : "
        "tensor<128x64xi8>, tensor<128x4xi8> * tensor<64x128xi8>, tensor<128x4xi8> -> tensor<128x64xf32>",
        "'tt.dot_scaled' op expected the output shape to be the concatenation of the last dimension of the first "
        "operand and the last dimension of the second operand",
    ),
    "dot_scaled_factor": (
        DOT_SCALED_ARGS.replace("%as: tensor<128x4xi8>", "%as: tensor<128x128xi8>"),
        "%0 = tt.dot_scaled %a8 scale %as, %b8 scale %bs, %acc lhs = e2m1 rhs = e2m1 {fastMath = false} : "
        "tensor<128x64xi8>, tensor<128x128xi8> * tensor<64x128xi8>, tensor<128x4xi8> -> tensor<128x128xf32>",
        "scale factor must be 16 or 32. Got 1",
    ),
    "dot_scaled_same_factor": (
        DOT_SCALED_ARGS.replace("%as: tensor<128x4xi8>", "%as: tensor<128x8xi8>"),
        "%0 = tt.dot_scaled %a8 scale %as, %b8 scale %bs, %acc lhs = e2m1 rhs = e2m1 {fastMath = false} : "
        "tensor<128x64xi8>, tensor<128x8xi8> * tensor<64x128xi8>, tensor<128x4xi8> -> tensor<128x128xf32>",
        "Operands must have the same scale factor; (lhs: 16 vs rhs: 32)",
    ),
    "dot_scaled_scale_n": (
        DOT_SCALED_ARGS.replace("%bs: tensor<128x4xi8>", "%bs: tensor<64x4xi8>"),
        "%0 = tt.dot_scaled %a8 scale %as, %b8 scale %bs, %acc lhs = e2m1 rhs = e2m1 {fastMath = false} : "
        "tensor<128x64xi8>, tensor<128x4xi8> * tensor<64x128xi8>, tensor<64x4xi8> -> tensor<128x128xf32>",
        "scales N dimension must match the operand N dimension",
    ),
    "broadcast_layouts": (
        BROADCAST_ARGS,
        "%0 = tt.broadcast %s1 : tensor<1x16xf32, #blocked> -> tensor<16x16xf32, #blocked1>",
        "'tt.broadcast' op requires matching source and result layouts up to broadcasting",
    ),
    "descriptor_load_elem_width": (
        ARGS.replace("%ti64:", "%ds8: !tt.tensordesc<32x32xsi8>, %ti64:"),
        "%0 = tt.descriptor_load %ds8[%n, %n] : !tt.tensordesc<32x32xsi8> -> tensor<32x32xi16>",
        "'tt.descriptor_load' op descriptor block and tensor element types must match, but got descriptor element "
        "type 'i8' and tensor element type 'i16'",
    ),
}


def _verify_error(args: str, body: str) -> str:
    module = parse_unverified(module_text(args, body))
    with pytest.raises(VerifyException) as err:
        module.verify()
    return str(err.value)


@pytest.mark.parametrize("name", sorted(INVALID_CASES))
def test_verifier_message(name: str) -> None:
    args, body, message = INVALID_CASES[name]
    assert message in _verify_error(args, body)


@pytest.mark.parametrize(
    ("ret", "message"),
    [
        ("tt.return %n : i32", "'tt.return' op has 1 operands, but enclosing function (@f) returns 1"),
        ("tt.return %n, %n : i32, i32", "'tt.return' op has 2 operands, but enclosing function (@f) returns 1"),
        ("tt.return %f : f32", "'tt.return' op type of return operand 0 (f32) doesn't match function result type (i32) in function @f"),
    ],
)
def test_return_verifier(ret: str, message: str) -> None:
    ok = "tt.return %n : i32"
    text = f"module {{\n  tt.func @f(%n: i32, %f: f32) -> i32 {{\n    {ret}\n  }}\n}}\n"
    module = Parser(triton_context(), text).parse_module()
    if ret == ok:
        module.verify()
        return
    with pytest.raises(VerifyException) as err:
        module.verify()
    assert message in str(err.value)


def test_call_verifier() -> None:
    text = """\
module {
  tt.func private @decl(i32) -> f32
  tt.func @g(%b: i64) {
    %0 = tt.call @decl(%b) : (i64) -> f32
    tt.return
  }
}
"""
    module = Parser(triton_context(), text).parse_module()
    with pytest.raises(VerifyException) as err:
        module.verify()
    assert "'tt.call' op operand type mismatch: expected operand type 'i32', but provided 'i64' for operand number 0" in str(
        err.value
    )


@oracle.requires_triton
@pytest.mark.parametrize(
    "name",
    ["make_range_size", "broadcast_dim", "trans_perm", "reshape_count", "bitcast_width", "load_cache_wb", "inline_asm_scalar",
     "split_last_dim", "reduce_axis", "fp_to_fp_rounding", "join_shape", "dot_rank", "splat_elem", "gather_axis",
     "dot_scaled_k", "dot_scaled_output", "dot_scaled_factor", "dot_scaled_same_factor", "dot_scaled_scale_n",
     "broadcast_layouts", "descriptor_load_elem_width", "splat_tensor_elem", "histogram_result",
     "descriptor_load_count", "descriptor_load_elem"],
)
def test_triton_also_rejects(name: str) -> None:
    """Triton rejects what these verifier rules reject (the oracle agrees with the rule)."""
    args, body, _ = INVALID_CASES[name]
    with pytest.raises(oracle.OracleError):
        oracle.triton_reprint(module_text(args, body))


# --- real Triton files ---------------------------------------------------------------

_LOC_ALIAS = re.compile(r"^#loc\d*\s*=\s*loc\(.*\)\s*$")


def hoist_loc_aliases(text: str) -> str:
    """Move Triton's trailing ``#locN = loc(...)`` lines to the top (xDSL needs aliases first)."""
    lines = text.splitlines()
    locs = [line for line in lines if _LOC_ALIAS.match(line)]
    rest = [line for line in lines if not _LOC_ALIAS.match(line)]
    return "\n".join(locs + rest) + "\n"


@pytest.mark.parametrize(
    "path", sorted([*EXAMPLES.glob("*.ttir"), *EXAMPLES.glob("*.ttgir")]), ids=lambda p: p.name
)
def test_example_parses_and_verifies(path: pathlib.Path) -> None:
    module = Parser(triton_context(), hoist_loc_aliases(path.read_text())).parse_module()
    module.verify()
    ops = {op.name for op in module.walk()}
    assert "tt.func" in ops and "tt.return" in ops


@pytest.mark.parametrize("modifier", ["ca", "cg", "cv", "wb", "cs", "wt"])
def test_store_cache_modifiers_as_triton(modifier: str) -> None:
    # Triton 3.9 refuses only the load-side ca and cv on a store (its own kernels use cg)
    import io as _io

    from ltc.tools import opt as _opt

    text = (
        "tt.func @f(%p: !tt.ptr<f32>, %v: f32) {\n"
        f"  tt.store %p, %v {{cachePolicy = #tt.cache_policy<cache_modifier = {modifier}, "
        "eviction_policy = evict_normal>} : !tt.ptr<f32>\n  tt.return\n}\n"
    )
    err = _io.StringIO()
    status = _opt.run(["-"], _io.StringIO(text), _io.StringIO(), err)
    assert status == (1 if modifier in ("ca", "cv") else 0), err.getvalue()
    if oracle.HAVE_TRITON:
        try:
            oracle.triton_reprint(text)
            assert status == 0
        except oracle.OracleError:
            assert status == 1


_B = "#ttg.blocked<{{sizePerThread = {}, threadsPerWarp = {}, warpsPerCTA = {}, order = {}}}>"


@pytest.mark.parametrize(
    ("src", "dst", "shapes", "valid"),
    [
        ((["1, 1"], ["32, 1"], ["8, 1"], ["1, 0"]), (["1, 1"], ["32, 1"], ["2, 4"], ["0, 1"]), ("64x1", "64x128"), True),
        ((["1, 1"], ["32, 1"], ["2, 4"], ["0, 1"]), (["1, 1"], ["32, 1"], ["8, 1"], ["1, 0"]), ("64x1", "64x128"), True),
        ((["2, 1"], ["32, 1"], ["4, 1"], ["0, 1"]), (["2, 4"], ["32, 1"], ["4, 1"], ["1, 0"]), ("256x1", "256x64"), True),
        ((["2, 1"], ["32, 1"], ["4, 1"], ["0, 1"]), (["1, 1"], ["32, 1"], ["4, 1"], ["0, 1"]), ("256x1", "256x64"), False),
        ((["1, 1"], ["32, 1"], ["4, 1"], ["0, 1"]), (["1, 1"], ["16, 2"], ["4, 1"], ["0, 1"]), ("64x1", "64x64"), False),
    ],
)
def test_broadcast_layouts_up_to_copies_as_triton(src: tuple, dst: tuple, shapes: tuple, valid: bool) -> None:
    # Triton's real TTGIR broadcasts between blocked layouts that differ in warps a
    # size-1 dim cannot use, or in register copies: equal up to broadcasting
    import io as _io

    from ltc.tools import opt as _opt

    s, d = (_B.format(*(f"[{x[0]}]" for x in t)) for t in (src, dst))
    a, b = shapes
    text = (
        'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = NW : i32, ttg.target = "cuda:90", '
        '"ttg.threads-per-warp" = 32 : i32} {\n'
        f"  tt.func @f(%a: tensor<{a}xi1, {s}>) -> tensor<{b}xi1, {d}> {{\n"
        f"    %b = tt.broadcast %a : tensor<{a}xi1, {s}> -> tensor<{b}xi1, {d}>\n"
        f"    tt.return %b : tensor<{b}xi1, {d}>\n  }}\n}}\n"
    ).replace("NW", str(math.prod(int(w) for w in src[2][0].split(", "))))  # warpsPerCTA's product
    err = _io.StringIO()
    status = _opt.run(["-"], _io.StringIO(text), _io.StringIO(), err)
    assert status == (0 if valid else 1), err.getvalue()
    if not valid:
        assert "requires matching source and result layouts up to broadcasting" in err.getvalue()
    if oracle.HAVE_TRITON:
        try:
            oracle.triton_reprint(text)
            accepted = True
        except oracle.OracleError:
            accepted = False
        assert accepted == valid
