"""The small dialects of Triton's IR: ``nvg`` (NVGPU), ``tti`` (TritonInstrument) and
``rocdl.barrier``. Each op prints exactly as written here, and as Triton 3.9 prints the
same text (modulo SSA names); invalid cases give Triton's message; pure ops are the
ones Triton marks Pure; the suite's chunks that use these ops parse and print as
Triton's do."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from ltc.dialects.nvg import LoadAcquireOp, WGMMAOp, WGMMAWaitGroupOp
from ltc.dialects.tti import (
    ExperimentalBufferDescriptorsOp,
    ExperimentalGSanTensorAccessOp,
)
from xdsl.dialects.builtin import TensorType, i64
from xdsl.traits import is_side_effect_free
from xdsl.utils.exceptions import ParseError, VerifyException

from tests import oracle
from tests.dialect_helpers import op_lines, parse, parse_unverified, print_ir

STRUCT = "!llvm.struct<(f32, f32)>"
LLVM_ARGS = f"%desc: i64, %s: {STRUCT}, %p: !llvm.ptr<1>, %p0: !llvm.ptr, %m: i1, %i: i32"
WGMMA_ATTRS = (
    "eltTypeA = 3 : i32, eltTypeB = 3 : i32, eltTypeC = 7 : i32, k = 32 : i32, layoutA = 0 : i32, "
    "layoutB = 1 : i32, m = 64 : i32, n = 256 : i32"
)

TTI_HEADER = """\
#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
"""
MEMDESC = "!ttg.memdesc<32x32xf32, #shared, #smem, mutable>"
PTRS = "tensor<128x2x!tt.ptr<f32>, #blocked>"
TTI_ARGS = (
    f"%lock: !tt.ptr<i32>, %pred: i1, %buf: {MEMDESC}, %i: i32, %ptrs: {PTRS}, "
    "%mask: tensor<128x2xi1, #blocked>, %locks: tensor<128x2x!tt.ptr<i32>, #blocked>"
)


def llvm_module(body: str) -> str:
    lines = "".join(f"  {line.strip()}\n" for line in body.strip().splitlines())
    return f"llvm.func @f({LLVM_ARGS}) {{\n{lines}  llvm.return\n}}\n"


def tti_module(body: str) -> str:
    lines = "".join(f"    {line.strip()}\n" for line in body.strip().splitlines())
    return f"{TTI_HEADER}  tt.func private @f({TTI_ARGS}) {{\n{lines}    tt.return\n  }}\n}}\n"


# case -> (module text, the op line ltc prints)
CASES: dict[str, tuple[str, str]] = {
    "nvg.cluster_id": (llvm_module("%0 = nvg.cluster_id"), "%0 = nvg.cluster_id"),
    "nvg.cluster_id_attrs": (llvm_module("%0 = nvg.cluster_id {b = 1 : i32, a = 2 : i32}"),
                             "%0 = nvg.cluster_id {a = 2 : i32, b = 1 : i32}"),
    "nvg.tensor_memory_base": (llvm_module("%0 = nvg.tensor_memory_base"), "%0 = nvg.tensor_memory_base"),
    "nvg.wgmma": (
        llvm_module(
            "%f = llvm.mlir.constant(false) : i1\n"
            "%0 = nvg.wgmma %desc, %desc, %f {m = 64 : i32, n = 256 : i32, k = 32 : i32, eltTypeC = 7 : i32, "
            "eltTypeA = 3 : i32, eltTypeB = 3 : i32, layoutA = 0 : i32, layoutB = 1 : i32} : (i64, i64, i1) -> "
            f"{STRUCT}"
        ),
        f"%0 = nvg.wgmma %desc, %desc, %f {{{WGMMA_ATTRS}}} : (i64, i64, i1) -> {STRUCT}",
    ),
    "nvg.wgmma_acc": (
        llvm_module(f"%0 = nvg.wgmma %s, %desc, %m, %s {{{WGMMA_ATTRS}}} : ({STRUCT}, i64, i1, {STRUCT}) -> {STRUCT}"),
        f"%0 = nvg.wgmma %s, %desc, %m, %s {{{WGMMA_ATTRS}}} : ({STRUCT}, i64, i1, {STRUCT}) -> {STRUCT}",
    ),
    "nvg.wgmma_wait_group": (
        llvm_module(f"%0 = nvg.wgmma_wait_group %s {{pendings = 1 : i32}} : {STRUCT}"),
        f"%0 = nvg.wgmma_wait_group %s {{pendings = 1 : i32}} : {STRUCT}",
    ),
    "nvg.ld_acquire": (
        llvm_module("%0 = nvg.ld_acquire acquire, gpu, %p : (!llvm.ptr<1>) -> i32"),
        "%0 = nvg.ld_acquire acquire, gpu, %p : (!llvm.ptr<1>) -> i32",
    ),
    "nvg.ld_acquire_mask": (
        llvm_module('%0 = nvg.ld_acquire "acq_rel", sys, %p, %m {x = 1 : i64} : (!llvm.ptr<1>) -> bf16'),
        "%0 = nvg.ld_acquire acq_rel, sys, %p, %m {x = 1 : i64} : (!llvm.ptr<1>) -> bf16",
    ),
    "rocdl.barrier": (llvm_module("rocdl.barrier"), "rocdl.barrier"),
    "rocdl.barrier_attrs": (llvm_module("rocdl.barrier {z = 1 : i32, a = 2 : i32}"),
                            "rocdl.barrier {a = 2 : i32, z = 1 : i32}"),
    "tti.experimental_buffer_descriptors": (
        tti_module("%0 = tti.experimental_buffer_descriptors [0, 42], [8, 16], tensor_mem : tensor<1x2xi64, #blocked>"),
        "%0 = tti.experimental_buffer_descriptors [0, 42], [8, 16], tensor_mem : tensor<1x2xi64, #ttg.blocked<{"
        "sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>",
    ),
    "tti.experimental_buffer_descriptors_shared": (
        tti_module('%0 = tti.experimental_buffer_descriptors [], [], "shared_mem" {x} : tensor<4xi64>'),
        "%0 = tti.experimental_buffer_descriptors [], [], shared_mem {x} : tensor<4xi64>",
    ),
    "tti.experimental_memdesc_to_i32": (
        tti_module(f"%0 = tti.experimental_memdesc_to_i32 %buf : {MEMDESC}"),
        "%0 = tti.experimental_memdesc_to_i32 %buf : <32x32xf32, #ttg.nvmma_shared<{swizzlingByteWidth = 128, "
        "transposed = false, elementBitWidth = 32}>, #ttg.shared_memory, mutable>",
    ),
    "tti.experimental_memdesc_to_i32_bare": (
        tti_module("%0 = tti.experimental_memdesc_to_i32 %buf : <32x32xf32, #shared, #smem, mutable>"),
        "%0 = tti.experimental_memdesc_to_i32 %buf : <32x32xf32, #ttg.nvmma_shared<{swizzlingByteWidth = 128, "
        "transposed = false, elementBitWidth = 32}>, #ttg.shared_memory, mutable>",
    ),
    "tti.experimental_cluster_cta_id": (
        tti_module("%0 = tti.experimental_cluster_cta_id : i32"), "%0 = tti.experimental_cluster_cta_id : i32"
    ),
    "tti.experimental_lock_acquire": (
        tti_module("tti.experimental_lock_acquire %lock, %pred : !tt.ptr<i32>"),
        "tti.experimental_lock_acquire %lock, %pred : !tt.ptr<i32>",
    ),
    "tti.experimental_lock_acquire_unpredicated": (
        tti_module("tti.experimental_lock_acquire %lock : !tt.ptr<i32>"),
        "tti.experimental_lock_acquire %lock : !tt.ptr<i32>",
    ),
    "tti.experimental_lock_release": (
        tti_module("tti.experimental_lock_release %locks, %pred {a = 1 : i32} : tensor<128x2x!tt.ptr<i32>, #blocked>"),
        "tti.experimental_lock_release %locks, %pred {a = 1 : i32} : tensor<128x2x!tt.ptr<i32>, #ttg.blocked<{"
        "sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>",
    ),
    "tti.experimental_assert_uniform": (
        tti_module('tti.experimental_assert_uniform %pred, "not uniform"'),
        'tti.experimental_assert_uniform %pred, "not uniform"',
    ),
    "tti.experimental_assert_uniform_attrs": (
        tti_module('tti.experimental_assert_uniform %pred, "m" attributes {b = 1 : i32, a = 2 : i32}'),
        'tti.experimental_assert_uniform %pred, "m" attributes {a = 2 : i32, b = 1 : i32}',
    ),
    "tti.experimental_gsan_tensor_access": (
        tti_module(f"tti.experimental_gsan_tensor_access %ptrs, true, %mask : {PTRS}"),
        "tti.experimental_gsan_tensor_access %ptrs, true, %mask : tensor<128x2x!tt.ptr<f32>, #ttg.blocked<{"
        "sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>",
    ),
    "tti.experimental_gsan_tensor_access_load": (
        tti_module("tti.experimental_gsan_tensor_access %lock, false, %pred : !tt.ptr<i32>"),
        "tti.experimental_gsan_tensor_access %lock, false, %pred : !tt.ptr<i32>",
    ),
}


def _op_name(expected: str) -> str:
    """The op an expected line prints: ``%0 = nvg.wgmma ...`` -> ``nvg.wgmma``."""
    return re.sub(r"^%\w+ = ", "", expected).split(" ")[0]


def _op_line(printed: str, expected: str) -> str:
    """The one printed line of the op ``expected`` is about."""
    name = _op_name(expected)
    (line,) = [x.strip() for x in printed.splitlines() if re.search(rf"(^|= ){re.escape(name)}( |$)", x.strip())]
    return line


class Test_syntax:
    @pytest.mark.parametrize("case", sorted(CASES))
    def test_prints_exactly(self, case: str) -> None:
        text, expected = CASES[case]
        printed = print_ir(parse(text))
        assert _op_line(printed, expected) == expected
        assert print_ir(parse(printed)) == printed

    @oracle.requires_triton
    @pytest.mark.parametrize("case", sorted(CASES))
    def test_prints_like_triton(self, case: str) -> None:
        text, _ = CASES[case]
        printed = print_ir(parse(text))
        triton_printed = oracle.triton_reprint(text)
        assert op_lines(printed) == op_lines(triton_printed)
        assert oracle.triton_reprint(printed) == triton_printed

    def test_every_op_has_a_case(self) -> None:
        from ltc.dialects.nvg import NVG
        from ltc.dialects.rocdl import ROCDL
        from ltc.dialects.tti import TTI

        names = {op.name for d in (NVG, TTI, ROCDL) for op in d.operations}
        assert len(names) == 13
        assert names == {_op_name(expected) for _, expected in CASES.values()}

    def test_builders(self) -> None:
        module = parse(llvm_module(f"%0 = nvg.wgmma %desc, %desc, %m {{{WGMMA_ATTRS}}} : (i64, i64, i1) -> {STRUCT}"))
        (parsed,) = [op for op in module.walk() if isinstance(op, WGMMAOp)]
        a, use_c = parsed.opA, parsed.useC
        built = WGMMAOp(a, a, use_c, parsed.res.type, (64, 256, 32), ("e5m2", "e5m2", "f32"), ("row", "col"))
        assert built.properties == parsed.properties
        assert WGMMAWaitGroupOp(parsed.res, 0).output.type == parsed.res.type
        ptr = next(b for b in module.walk() if b.name == "llvm.func").regions[0].block.args[2]
        ld = LoadAcquireOp(ptr, parsed.useC.type, "acquire", "gpu")
        assert (ld.sem.value.data, ld.scope.value.data) == (2, 1)
        bd = ExperimentalBufferDescriptorsOp([0, 42], [8, 16], "tensor_mem", TensorType(i64, [2]))
        assert bd.memType.value.data == 1 and tuple(bd.offsets.get_values()) == (0, 42)


class Test_effects:
    def test_only_triton_pure_ops_are_pure(self) -> None:
        ops = [op for text, _ in CASES.values() for op in parse(text).walk() if op.name.split(".")[0] in ("nvg", "tti", "rocdl")]
        assert len({op.name for op in ops}) == 13
        pure = {op.name for op in ops if is_side_effect_free(op)}
        assert pure == {
            "nvg.cluster_id",
            "nvg.tensor_memory_base",
            "tti.experimental_buffer_descriptors",
            "tti.experimental_memdesc_to_i32",
            "tti.experimental_cluster_cta_id",
        }

    def test_gsan_access_reads_and_writes(self) -> None:
        from xdsl.traits import MemoryEffectKind, get_effects

        module = parse(CASES["tti.experimental_gsan_tensor_access"][0])
        (op,) = [o for o in module.walk() if isinstance(o, ExperimentalGSanTensorAccessOp)]
        effects = get_effects(op)
        assert effects is not None
        assert {e.kind for e in effects} == {MemoryEffectKind.READ, MemoryEffectKind.WRITE}


# (module text, Triton 3.9's message)
INVALID: list[tuple[str, str]] = [
    (llvm_module('%0 = "nvg.cluster_id"() : () -> i64'), "'nvg.cluster_id' op result #0 must be 32-bit signless integer, but got 'i64'"),
    (llvm_module('%0 = "nvg.tensor_memory_base"() : () -> !llvm.ptr<3>'),
     "'nvg.tensor_memory_base' op result #0 must be LLVM pointer in address space 6, but got '!llvm.ptr<3>'"),
    (llvm_module(f"%0 = nvg.wgmma %i, %desc, %m {{{WGMMA_ATTRS}}} : (i32, i64, i1) -> {STRUCT}"),
     "'nvg.wgmma' op operand #0 must be wgmma operand A/B type, but got 'i32'"),
    (llvm_module(f"%0 = nvg.wgmma %desc, %desc, %i {{{WGMMA_ATTRS}}} : (i64, i64, i32) -> {STRUCT}"),
     "'nvg.wgmma' op operand #2 must be 1-bit signless integer, but got 'i32'"),
    (llvm_module(f"%0 = nvg.wgmma %desc, %desc, %m, %i {{{WGMMA_ATTRS}}} : (i64, i64, i1, i32) -> {STRUCT}"),
     "'nvg.wgmma' op operand #3 must be LLVM structure type, but got 'i32'"),
    (llvm_module(f"%0 = nvg.wgmma %desc, %desc, %m {{{WGMMA_ATTRS}}} : (i64, i64, i1) -> i32"),
     "'nvg.wgmma' op result #0 must be LLVM structure type, but got 'i32'"),
    (llvm_module(f"%0 = nvg.wgmma %i, %desc, %m {{n = 256 : i32, layoutA = 0 : i32}} : (i32, i64, i1) -> {STRUCT}"),
     "'nvg.wgmma' op requires attribute 'eltTypeA'"),
    (llvm_module(f"%0 = nvg.wgmma %desc, %desc, %m {{{WGMMA_ATTRS.replace('layoutA = 0', 'layoutA = 2')}}} : "
                 f"(i64, i64, i1) -> {STRUCT}"),
     "'nvg.wgmma' op attribute 'layoutA' failed to satisfy constraint: wgmma layout, either 'row' or 'col'"),
    (llvm_module(f"%0 = nvg.wgmma %desc, %desc, %m {{{WGMMA_ATTRS.replace('m = 64 : i32', 'm = 64 : i64')}}} : "
                 f"(i64, i64, i1) -> {STRUCT}"),
     "'nvg.wgmma' op attribute 'm' failed to satisfy constraint: 32-bit signless integer attribute"),
    (llvm_module("%0 = nvg.wgmma_wait_group %i {pendings = 0 : i32} : i32"),
     "'nvg.wgmma_wait_group' op operand #0 must be LLVM structure type, but got 'i32'"),
    (llvm_module(f"%0 = nvg.wgmma_wait_group %s : {STRUCT}"), "'nvg.wgmma_wait_group' op requires attribute 'pendings'"),
    (llvm_module(f'%0 = "nvg.wgmma_wait_group"(%s) {{pendings = 0 : i32}} : ({STRUCT}) -> !llvm.struct<(f32, i32)>'),
     "'nvg.wgmma_wait_group' op failed to verify that all of {input, output} have same type"),
    (llvm_module("%0 = nvg.ld_acquire acquire, gpu, %p0 : (!llvm.ptr) -> i32"),
     "'nvg.ld_acquire' op operand #0 must be LLVM pointer in address space 1, but got '!llvm.ptr'"),
    (llvm_module("%0 = nvg.ld_acquire acquire, gpu, %p : (!llvm.ptr<1>) -> tf32"),
     "'nvg.ld_acquire' op result #0 must be floating-point or integer, but got 'tf32'"),
    (llvm_module('%0 = "nvg.ld_acquire"(%p) {sem = 7 : i32, scope = 1 : i32} : (!llvm.ptr<1>) -> i32'),
     "'nvg.ld_acquire' op attribute 'sem' failed to satisfy constraint: allowed 32-bit signless integer cases: 1, 2, 3, 4"),
    (llvm_module('%0 = "nvg.ld_acquire"(%p) {scope = 1 : i32} : (!llvm.ptr<1>) -> i32'),
     "'nvg.ld_acquire' op requires attribute 'sem'"),
    (tti_module('%0 = "tti.experimental_buffer_descriptors"() {offsets = array<i32: 0>, lengths = array<i32: 8>, '
                "memType = 1 : i32} : () -> i64"),
     "'tti.experimental_buffer_descriptors' op result #0 must be ranked tensor of floating-point or integer or ptr "
     "values, but got 'i64'"),
    (tti_module('%0 = "tti.experimental_buffer_descriptors"() {memType = 1 : i32} : () -> tensor<2xi64>'),
     "'tti.experimental_buffer_descriptors' op requires attribute 'lengths'"),
    (tti_module('%0 = "tti.experimental_buffer_descriptors"() {offsets = array<i64: 0>, lengths = array<i32: 8>, '
                "memType = 1 : i32} : () -> tensor<2xi64>"),
     "'tti.experimental_buffer_descriptors' op attribute 'offsets' failed to satisfy constraint: i32 dense array attribute"),
    (tti_module('%0 = "tti.experimental_buffer_descriptors"() {offsets = array<i32: 0>, lengths = array<i32: 8>, '
                "memType = 2 : i32} : () -> tensor<2xi64>"),
     "'tti.experimental_buffer_descriptors' op attribute 'memType' failed to satisfy constraint: allowed 32-bit "
     "signless integer cases: 0, 1"),
    (tti_module('%0 = "tti.experimental_memdesc_to_i32"(%buf) : (' + MEMDESC + ") -> i64"),
     "'tti.experimental_memdesc_to_i32' op result #0 must be 32-bit signless integer, but got 'i64'"),
    (tti_module('%0 = "tti.experimental_memdesc_to_i32"(%i) : (i32) -> i32'),
     "'tti.experimental_memdesc_to_i32' op operand #0 must be memory descriptor type "
     "(`::mlir::triton::gpu::MemDescType`) in Triton IR type system, but got 'i32'"),
    (tti_module("%0 = tti.experimental_cluster_cta_id : i64"),
     "'tti.experimental_cluster_cta_id' op result #0 must be 32-bit signless integer, but got 'i64'"),
    (tti_module("tti.experimental_lock_acquire %i : i32"),
     "'tti.experimental_lock_acquire' op operand #0 must be ptr or ranked tensor of ptr values, but got 'i32'"),
    (tti_module('"tti.experimental_lock_release"(%lock, %i) : (!tt.ptr<i32>, i32) -> ()'),
     "'tti.experimental_lock_release' op operand #1 must be 1-bit signless integer, but got 'i32'"),
    (tti_module('"tti.experimental_assert_uniform"(%pred) : (i1) -> ()'),
     "'tti.experimental_assert_uniform' op requires attribute 'message'"),
    (tti_module('"tti.experimental_assert_uniform"(%i) {message = "x"} : (i32) -> ()'),
     "'tti.experimental_assert_uniform' op operand #0 must be 1-bit signless integer, but got 'i32'"),
    (tti_module(f'"tti.experimental_gsan_tensor_access"(%ptrs, %pred) {{isStore = false}} : ({PTRS}, i1) -> ()'),
     "'tti.experimental_gsan_tensor_access' op failed to verify that mask type matches ptr type"),
    (tti_module(f'"tti.experimental_gsan_tensor_access"(%ptrs) : ({PTRS}) -> ()'),
     "'tti.experimental_gsan_tensor_access' op requires attribute 'isStore'"),
    (tti_module(f'"tti.experimental_gsan_tensor_access"(%ptrs) {{isStore = 1 : i32}} : ({PTRS}) -> ()'),
     "'tti.experimental_gsan_tensor_access' op attribute 'isStore' failed to satisfy constraint: bool attribute"),
]

INVALID_SYNTAX: list[tuple[str, str]] = [
    (llvm_module("%0 = nvg.ld_acquire foo, gpu, %p : (!llvm.ptr<1>) -> i32"),
     "expected string or keyword containing one of the following enum values for attribute 'sem' "
     "[relaxed, acquire, release, acq_rel]"),
    (tti_module("%0 = tti.experimental_buffer_descriptors [0], [1], foo_mem : tensor<1x2xi64, #blocked>"),
     "expected string or keyword containing one of the following enum values for attribute 'memType' "
     "[shared_mem, tensor_mem]"),
    (tti_module("%0 = tti.experimental_buffer_descriptors [0], [1], shared_mem : i64"),
     "invalid kind of type specified: expected builtin.tensor, but found 'i64'"),
    (tti_module("%0 = tti.experimental_memdesc_to_i32 %lock : !tt.ptr<i32>"),
     "invalid kind of type specified: expected ttg.memdesc, but found '!tt.ptr<i32>'"),
    (tti_module("tti.experimental_gsan_tensor_access %i, false : i32"),
     "'ptr' must be ptr or ranked tensor of ptr values, but got 'i32'"),
]


def _verify_message(text: str) -> str:
    from ltc.dialects.verifier import OpVerifyError, verify_module

    module = parse_unverified(text)
    with pytest.raises((OpVerifyError, VerifyException)) as info:
        verify_module(module)
    return str(info.value)


class Test_invalid:
    @pytest.mark.parametrize("index", range(len(INVALID)))
    def test_triton_message(self, index: int) -> None:
        text, message = INVALID[index]
        assert message in _verify_message(text)

    @oracle.requires_triton
    @pytest.mark.parametrize("index", range(len(INVALID) + len(INVALID_SYNTAX)))
    def test_triton_rejects_with_that_message(self, index: int) -> None:
        text, message = (INVALID + INVALID_SYNTAX)[index]
        with pytest.raises(oracle.OracleError) as info:
            oracle.triton_reprint(text)
        assert message in info.value.diagnostics

    @pytest.mark.parametrize("index", range(len(INVALID_SYNTAX)))
    def test_parse_error(self, index: int) -> None:
        text, message = INVALID_SYNTAX[index]
        with pytest.raises(ParseError) as info:
            parse_unverified(text)
        assert message in str(info.value)


# --------------------------------------------------------------------------------------
# Triton's suite: every chunk whose IR uses these ops
# --------------------------------------------------------------------------------------
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks"))
import triton_suite as ts

SUITE = Path(os.environ.get("LTC_TRITON_SUITE", ts.DEFAULT_SUITE))
# file -> (chunks Triton accepts that use the ops, chunks Triton rejects that use them)
SUITE_FILES = {
    "Conversion/nvgpu_to_llvm.mlir": (5, 0),
    "Conversion/tritoninstrument_to_llvm.mlir": (5, 1),  # the rejected one: 3.9 has no gsan_tensordesc_info
    "Conversion/lower_tensor_memory_to_llvm.mlir": (1, 0),
    "Conversion/warp_specialize_to_llvm.mlir": (1, 0),
    "TritonGPU/consan.mlir": (1, 0),
}


_OP_USE = re.compile(r"(^|= )(nvg|tti|rocdl)\.\w+|\"(nvg|tti|rocdl)\.\w+\"\(")


def _uses_ops(text: str) -> bool:
    """An op of these dialects in the chunk's IR (not in a CHECK comment, not an attribute name)."""
    return any(_OP_USE.search(line.strip()) for line in text.splitlines() if not line.lstrip().startswith("//"))


@pytest.mark.skipif(not (SUITE / "test").is_dir(), reason="Triton's suite is not on disk")
@oracle.requires_triton
@pytest.mark.parametrize("rel", sorted(SUITE_FILES))
def test_suite_chunks_print_like_triton(rel: str) -> None:
    result = ts.run_suite(SUITE, jobs=1, only=rel)
    texts = {f"{rel}#{c.index}": c.text for c in ts.load_suite(SUITE / "test", rel)[0].chunks}
    mine = [c for c in result.chunks if _uses_ops(texts[c.key])]
    accepted = [c for c in mine if c.category == "parse_print"]
    assert (len(accepted), len(mine) - len(accepted)) == SUITE_FILES[rel]
    assert [(c.key, c.verdict) for c in accepted] == [(c.key, "ok") for c in accepted]
