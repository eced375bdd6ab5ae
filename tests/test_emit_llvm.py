"""The LLVM IR emitter (ltc.lowering.emit.llvm_ir) on the hand-written lowered modules of
``tests/emit_fixtures.py``.

Every module's LLVM IR must pass ``llvm-as``, compile with LLVM 14's ``llc
-march=nvptx64 -mcpu=sm_80``, and the PTX llc makes must pass ``ptxas -arch=sm_80``.
Characteristic lines are checked against LLVM's syntax (typed pointers, hex floats,
phis, inline asm, nvvm annotations) and against the PTX llc selects for them; llc's PTX
of the semantic kernels runs in ltc's PTX simulator against the same exact references.
"""

from __future__ import annotations

import re
import shutil

import pytest
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.context import triton_context
from ltc.lowering.emit.common import EmitError
from ltc.lowering.emit.llvm_ir import _escape, _float_literal, emit_llvm_ir
from tests.emit_fixtures import (
    FCMP_PREDICATES,
    ICMP_PREDICATES,
    INT_OPS,
    MODULES,
    SEMANTIC_CASTS,
    check_cast,
    check_compares,
    check_float_arithmetic,
    check_int_arithmetic,
    check_loops,
    check_shuffles,
    check_vector_add,
    kernel,
    llc,
    loops_kernel,
    needs_llc_and_simulator,
    needs_llvm,
    needs_ptxas,
    parse,
    ptxas_errors,
    shuffle_kernel,
    store,
)


def lines(ir: str) -> list[str]:
    return [s.strip() for s in ir.splitlines()]


# -- LLVM 14 accepts every module ----------------------------------------------------------------


@needs_llvm
@needs_ptxas
@pytest.mark.parametrize("name", list(MODULES))
def test_llc_and_ptxas_accept(name: str) -> None:
    ir = emit_llvm_ir(parse(MODULES[name]))
    ptx = llc(ir)
    errors = ptxas_errors(ptx, "sm_80")
    assert errors is None, f"{name}:\n{errors}\n{ptx}"


# -- characteristic lines -------------------------------------------------------------------------


def test_module_header_and_annotations() -> None:
    ir = emit_llvm_ir(parse(MODULES["vector_add"]))
    ls = lines(ir)
    assert 'target triple = "nvptx64-nvidia-cuda"' in ls
    assert 'target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"' in ls
    sig = "void (i8 addrspace(1)*, i8 addrspace(1)*, i8 addrspace(1)*, i32)* @vector_add"
    assert (
        "define void @vector_add(i8 addrspace(1)* %arg0, i8 addrspace(1)* %arg1, "
        "i8 addrspace(1)* %arg2, i32 %arg3) {"
    ) in ls
    assert "!nvvm.annotations = !{!0, !1}" in ls
    assert f'!0 = !{{{sig}, !"kernel", i32 1}}' in ls
    assert f'!1 = !{{{sig}, !"reqntidx", i32 128}}' in ls
    assert "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()" in ls
    assert "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()" in ls
    assert "global_smem" not in ir


def test_vector_add_lines() -> None:
    ir = emit_llvm_ir(parse(MODULES["vector_add"]))
    ls = lines(ir)
    # gep: to the pointee's pointer type (an integer of its size), index, back to i8*
    geps = [s for s in ls if "getelementptr" in s]
    assert len(geps) == 3
    for g in geps:
        assert re.fullmatch(r"%v\d+ = getelementptr i32, i32 addrspace\(1\)\* %v\d+, i32 %v\d+", g)
    assert len([s for s in ls if re.fullmatch(r"%v\d+ = bitcast i8 addrspace\(1\)\* %arg\d to i32 addrspace\(1\)\*", s)]) == 3
    # the predicated v4 load: struct result, "\n\t" escaped, constraints verbatim
    loads = [s for s in ls if "ld.global.v4.b32" in s]
    assert len(loads) == 2
    assert re.fullmatch(
        r'%v\d+ = call \{ i32, i32, i32, i32 \} asm sideeffect "mov\.u32 \$0, \$5;\\0A\\09mov\.u32 \$1, \$5;'
        r'\\0A\\09mov\.u32 \$2, \$5;\\0A\\09mov\.u32 \$3, \$5;\\0A\\09@\$6 ld\.global\.v4\.b32 \{ \$0, \$1, \$2, \$3 \}, '
        r'\[ \$4 \+ 0 \];", "=r,=r,=r,=r,l,r,b"\(i8 addrspace\(1\)\* %v\d+, i32 0, i1 %v\d+\)',
        loads[0],
    ), loads[0]
    assert len([s for s in ls if re.fullmatch(r"%v\d+ = extractvalue \{ i32, i32, i32, i32 \} %v\d+, [0-3]", s)]) == 8
    assert len([s for s in ls if re.fullmatch(r"%v\d+ = fadd float %v\d+, %v\d+", s)]) == 4
    assert ls[ls.index("ret void") + 1] == "}"


def test_vector_add_llc_selects_what_we_expect() -> None:
    if shutil.which("llc") is None:
        pytest.skip("llc is not on PATH")
    ptx = llc(emit_llvm_ir(parse(MODULES["vector_add"])))
    assert ".reqntid 128, 1, 1" in ptx
    assert ".visible .entry vector_add(" in ptx
    assert re.search(r"@%p\d+ ld\.global\.v4\.b32 \{ %r\d+, %r\d+, %r\d+, %r\d+ \}, \[ %rd\d+ \+ 0 \];", ptx)
    assert len(re.findall(r"add\.rn\.f32", ptx)) == 4


def test_loop_and_if_become_blocks_and_phis() -> None:
    ir = emit_llvm_ir(parse(MODULES["loops"]))
    ls = lines(ir)
    labels = [s[:-1] for s in ls if s.endswith(":")]
    assert labels[:8] == [
        "entry", "for1.header", "for1.body", "if2.then", "if2.else", "if2.end", "for1.latch", "for1.exit",
    ]  # fmt: skip
    header = ls.index("for1.header:")
    # induction variable: lb from entry, the latch's increment; then one phi per iter arg
    assert re.fullmatch(r"(%v\d+) = phi i32 \[ 0, %entry \], \[ %v\d+, %for1\.latch \]", ls[header + 1])
    phis = ls[header + 2 : header + 8]
    types = [re.fullmatch(r"%v\d+ = phi (\w+) \[ (\S+), %entry \], \[ (\S+), %for1\.latch \]", s).groups() for s in phis]  # type: ignore[union-attr]
    assert [t[0] for t in types] == ["float", "i32", "i32", "i32", "half", "i1"]
    assert [t[1] for t in types] == ["0x0000000000000000", "0", "1", "2", "0xH3C00", "true"]
    # the yield rotates x, y, z: x's incoming value is y's phi, y's is z's, z's is x's
    x, y, z = (re.match(r"(%v\d+)", s).group(1) for s in phis[1:4])  # type: ignore[union-attr]
    assert [t[2] for t in types[1:4]] == [y, z, x]
    iv = re.match(r"(%v\d+)", ls[header + 1]).group(1)  # type: ignore[union-attr]
    assert re.fullmatch(rf"%v\d+ = icmp slt i32 {iv}, %arg1", ls[header + 8])
    assert re.fullmatch(r"br i1 %v\d+, label %for1\.body, label %for1\.exit", ls[header + 9])
    latch = ls.index("for1.latch:")
    iv_next = re.search(r"\[ (%v\d+), %for1\.latch \]", ls[header + 1]).group(1)  # type: ignore[union-attr]
    assert ls[latch + 1] == f"{iv_next} = add i32 {iv}, 1"
    assert ls[latch + 2] == "br label %for1.header"
    # the if with a result: a phi over the two arms
    end = ls.index("if2.end:")
    assert re.fullmatch(r"%v\d+ = phi float \[ %v\d+, %if2\.then \], \[ %v\d+, %if2\.else \]", ls[end + 1])
    # the if without else branches straight to its end
    assert len([s for s in ls if re.fullmatch(r"br i1 %v\d+, label %if\d+\.then, label %if\d+\.end", s)]) == 1


def test_intrinsics() -> None:
    ir = emit_llvm_ir(parse(MODULES["intrinsics"]))
    ls = lines(ir)
    for decl in (
        "declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)",
        "declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)",
        "declare void @llvm.nvvm.barrier0()",
        "declare float @llvm.maxnum.f32(float, float)",
        "declare double @llvm.minnum.f64(double, double)",
        "declare i64 @llvm.umin.i64(i64, i64)",
        "declare float @llvm.fma.f32(float, float, float)",
        "declare float @llvm.sqrt.f32(float)",
        "declare float @llvm.nvvm.ex2.approx.f(float)",
        "declare float @llvm.nvvm.cos.approx.f(float)",
    ):
        assert decl in ls, decl
    # LLVM 14 has no fmax.nan / div.full intrinsics: the same PTX as inline asm
    assert not any("@llvm.nvvm.fmax.nan" in s or "@llvm.nvvm.div.full" in s for s in ls)
    asm = [s for s in ls if "call float asm" in s]
    assert len(asm) == 3
    assert re.fullmatch(r'%v\d+ = call float asm "max\.NaN\.f32 \$0, \$1, \$2;", "=f,f,f"\(float %arg3, float %arg4\)', asm[0])
    assert re.fullmatch(r'%v\d+ = call float asm "min\.NaN\.f32 \$0, \$1, \$2;", "=f,f,f"\(float %arg3, float %arg4\)', asm[1])
    assert re.fullmatch(r'%v\d+ = call float asm "div\.full\.f32 \$0, \$1, \$2;", "=f,f,f"\(float %arg3, float %arg4\)', asm[2])
    assert re.fullmatch(
        r"%v\d+ = call i32 @llvm\.nvvm\.shfl\.sync\.bfly\.i32\(i32 %arg1, i32 %arg2, i32 16, i32 31\)",
        next(s for s in ls if "shfl.sync.bfly" in s and "call" in s),
    )
    assert "call void @llvm.nvvm.barrier0()" in ls


def test_intrinsics_llc_ptx() -> None:
    if shutil.which("llc") is None:
        pytest.skip("llc is not on PATH")
    ptx = llc(emit_llvm_ir(parse(MODULES["intrinsics"])))
    for pattern in (
        r"shfl\.sync\.bfly\.b32\s+%r\d+, %r\d+, 16, 31, %r\d+;",
        r"max\.NaN\.f32 %f\d+, %f\d+, %f\d+;",
        r"div\.full\.f32 %f\d+, %f\d+, %f\d+;",
        r"sqrt\.rn\.f32\s+%f\d+, %f\d+;",
        r"ex2\.approx\.f32\s+%f\d+, %f\d+;",
        r"bar\.sync\s+0;",
        r"mov\.u32\s+%r\d+, %nctaid\.z;",
    ):
        assert re.search(pattern, ptx), pattern


def test_shared_memory_declarations() -> None:
    static = emit_llvm_ir(parse(MODULES["shared_static"]))
    assert "@global_smem = internal addrspace(3) global [1024 x i8] undef, align 16" in lines(static)
    assert re.search(
        r"%v\d+ = ptrtoint i8 addrspace\(3\)\* bitcast \(\[1024 x i8\] addrspace\(3\)\* @global_smem to "
        r"i8 addrspace\(3\)\*\) to i32",
        static,
    )
    dynamic = emit_llvm_ir(parse(MODULES["shared_dynamic"]))
    assert "@global_smem = external addrspace(3) global [0 x i8], align 16" in lines(dynamic)
    if shutil.which("llc") is not None:
        assert ".shared .align 16 .b8 global_smem[1024];" in llc(static)
        assert ".extern .shared .align 16 .b8 global_smem[];" in llc(dynamic)


# (cast, source, result) -> the LLVM instruction text (operands elided) it must become.
CAST_LLVM = {
    ("zext", "i1", "i32"): "zext i1 %arg1 to i32",
    ("sext", "i8", "i32"): "sext i8 %arg2 to i32",
    ("trunc", "i64", "i32"): "trunc i64 %arg5 to i32",
    ("fpext", "f16", "f32"): "fpext half %arg6 to float",
    ("fptrunc", "f64", "f32"): "fptrunc double %arg9 to float",
    ("sitofp", "i32", "f32"): "sitofp i32 %arg4 to float",
    ("uitofp", "i64", "f64"): "uitofp i64 %arg5 to double",
    ("fptosi", "f32", "i32"): "fptosi float %arg8 to i32",
    ("fptoui", "f64", "i64"): "fptoui double %arg9 to i64",
    ("bitcast", "i32", "f32"): "bitcast i32 %arg4 to float",
    ("bitcast", "i16", "f16"): "bitcast i16 %arg3 to half",
    ("ptrtoint", "ptr", "i64"): "ptrtoint i8 addrspace(1)* %arg0 to i64",
    ("inttoptr", "i32", "ptr"): "inttoptr i32 %arg4 to i8 addrspace(1)*",
}


def test_cast_lines() -> None:
    ls = lines(emit_llvm_ir(parse(MODULES["casts"])))
    for key, text in CAST_LLVM.items():
        assert any(re.fullmatch(rf"%v\d+ = {re.escape(text)}", s) for s in ls), f"{key}: {text}"
    # bf16 is an i16 bit pattern: widening is a shift into the top half of an f32 ...
    assert any(re.fullmatch(r"%v\d+ = zext i16 %arg7 to i32", s) for s in ls)
    assert any(re.fullmatch(r"%v\d+ = shl i32 %v\d+, 16", s) for s in ls)
    # ... narrowing rounds with llvm.nvvm.f2bf16.rn, after round-to-odd where needed
    assert "declare i16 @llvm.nvvm.f2bf16.rn(float)" in ls
    for fn, arg in (("i2f", "i32"), ("ui2f", "i32"), ("ll2f", "i64"), ("d2f", "double")):
        assert f"declare float @llvm.nvvm.{fn}.rz({arg})" in ls, fn
    # bitcast between bf16 and i16 is nothing at all
    assert not any(re.fullmatch(r"%v\d+ = bitcast i16 %arg\d+ to i16", s) for s in ls)


def test_casts_llc_ptx() -> None:
    if shutil.which("llc") is None:
        pytest.skip("llc is not on PATH")
    ptx = llc(emit_llvm_ir(parse(MODULES["casts"])))
    for pattern in (
        r"cvt\.rzi\.s32\.f32", r"cvt\.rn\.f32\.s32", r"cvt\.rn\.f16\.f32", r"cvt\.f32\.f16",
        r"cvt\.rn\.bf16\.f32", r"cvt\.rz\.f32\.s32", r"cvt\.rz\.f32\.f64", r"cvt\.rzi\.u64\.f64",
    ):  # fmt: skip
        assert re.search(pattern, ptx), pattern


def test_compares() -> None:
    ls = lines(emit_llvm_ir(parse(MODULES["compares"])))
    icmps = [re.fullmatch(r"%v\d+ = icmp (\w+) (\w+) .*", s).groups() for s in ls if " = icmp " in s]  # type: ignore[union-attr]
    assert icmps == [(p, t) for t in ("i32", "i8", "i64", "i1") for p in ICMP_PREDICATES]
    fcmps = [re.fullmatch(r"%v\d+ = fcmp (\w+) (\w+) .*", s).groups() for s in ls if " = fcmp " in s]  # type: ignore[union-attr]
    expected = []
    for t in ("float", "half", "float", "double"):  # bf16 compares widen to float
        expected += [(p, t) for p in (*FCMP_PREDICATES, "true", "false")]
    assert fcmps == expected


def test_arithmetic() -> None:
    ls = lines(emit_llvm_ir(parse(MODULES["arithmetic"])))
    for t in ("i8", "i16", "i32", "i64"):
        for op in INT_OPS:
            rhs = "7" if t == "i32" else r"%arg\d+"
            assert any(re.fullmatch(rf"%v\d+ = {op} {t} %arg\d+, {rhs}", s) for s in ls), (op, t)
    for op in ("fadd", "fsub", "fmul", "fdiv"):
        for t in ("half", "double"):
            assert any(re.fullmatch(rf"%v\d+ = {op} {t} %arg\d+, %arg\d+", s) for s in ls), (op, t)
    assert any(re.fullmatch(r"%v\d+ = fadd float %arg\d+, 0x3FE0000000000000", s) for s in ls)
    # bf16 arithmetic in float, rounded back once; fneg flips the sign bit
    assert len([s for s in ls if "call i16 @llvm.nvvm.f2bf16.rn" in s]) == 5
    assert any(re.fullmatch(r"%v\d+ = xor i16 %arg\d+, -32768", s) for s in ls)
    # frem: trunc, fma, copysign, |a| < |b| (f16, bf16, f32 in float; f64 in double)
    assert len([s for s in ls if "call float @llvm.trunc.f32" in s]) == 3
    assert len([s for s in ls if "call double @llvm.trunc.f64" in s]) == 1
    assert len([s for s in ls if "call float @llvm.copysign.f32" in s]) == 3
    assert len([s for s in ls if re.fullmatch(r"%v\d+ = fcmp olt float %v\d+, %v\d+", s)]) == 3
    assert not any(" frem " in s for s in ls)
    assert not any("bfloat" in s for s in ls)
    assert any(re.fullmatch(r"%v\d+ = select i1 %arg1, i16 %arg\d+, i16 %arg\d+", s) for s in ls)


# -- text details ------------------------------------------------------------------------------------


def test_escape() -> None:
    assert _escape('a"b\\c\nd\te$0') == "a\\22b\\5Cc\\0Ad\\09e$0"
    assert _escape("µ") == "\\C2\\B5"


def test_float_literals() -> None:
    assert _float_literal("f32", 0x3FC00000) == "0x3FF8000000000000"  # 1.5
    assert _float_literal("f32", 0x3DCCCCCD) == "0x3FB99999A0000000"  # 0.1f, exactly
    assert _float_literal("f32", 0x80000000) == "0x8000000000000000"  # -0.0
    assert _float_literal("f32", 0x7F800000) == "0x7FF0000000000000"  # inf
    assert _float_literal("f32", 0x7FC00001) == "0x7FF8000020000000"  # NaN payload kept
    assert _float_literal("f16", 0x3E00) == "0xH3E00"
    assert _float_literal("f64", 0xC000000000000000) == "0xC000000000000000"


def test_constants_round_trip_through_llc() -> None:
    text = kernel(
        "constants",
        [("out", "ptr")],
        [
            "%a = llvm.mlir.constant(0.1 : f32) : f32",
            "%b = llvm.mlir.constant(-2.0 : f64) : f64",
            "%c = llvm.mlir.constant(1.5 : f16) : f16",
            "%d = llvm.mlir.constant(-1.5 : bf16) : bf16",
            "%e = llvm.mlir.constant(-7 : i8) : i8",
            store("%out", "%a", "f32"),
            store("%out", "%b", "f64"),
            store("%out", "%c", "f16"),
            store("%out", "%d", "bf16"),
            store("%out", "%e", "i8"),
        ],
    )
    ir = emit_llvm_ir(parse(text))
    for operand in ("float 0x3FB99999A0000000", "double 0xC000000000000000", "half 0xH3E00", "i16 -16448", "i8 -7"):
        assert operand in ir, operand
    if shutil.which("llc") is not None:
        ptx = llc(ir)
        # (llc prints 16-bit patterns in decimal: 0x3E00 is 15872)
        for imm in ("0f3DCCCCCD", "0dC000000000000000", "15872", "-16448"):
            assert imm in ptx, imm
        assert re.search(r"mov\.u16\s+%rs\d+, 249;", ptx)  # i8 -7 in a 16-bit register


# -- errors ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "op_name"),
    [
        ('%r = "llvm.intr.fabs"(%x) : (f32) -> f32', "llvm.intr.fabs"),
        ('%r = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.laneid"() : () -> i32', "llvm.call_intrinsic"),
        ("%r = llvm.getelementptr %out[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32", "llvm.getelementptr"),
        ('%r = llvm.inline_asm "mov.b32 $0, $1;", "=r,q" %n : (i32) -> i32', "llvm.inline_asm"),
        ("%r = llvm.load %out : !llvm.ptr<1> -> f32", "llvm.load"),
    ],
)
def test_outside_the_contract_names_the_op(line: str, op_name: str) -> None:
    text = kernel("bad", [("out", "ptr"), ("x", "f32"), ("n", "i32")], [line])
    with pytest.raises(EmitError) as info:
        emit_llvm_ir(parse(text))
    assert info.value.op is not None and info.value.op.name == op_name


def test_addressof_needs_the_global() -> None:
    text = kernel("k", [("out", "ptr")], ["%s = llvm.mlir.addressof @global_smem : !llvm.ptr<3>"])
    # the verifier refuses it as MLIR does (tests/test_fuzz_finds.py); the emitter, given
    # an unverified module, names it too
    with pytest.raises(VerifyException, match="must reference a global"):
        parse(text)
    with pytest.raises(EmitError, match="global_smem") as info:
        emit_llvm_ir(Parser(triton_context(), text).parse_module())
    assert info.value.op is not None and info.value.op.name == "llvm.mlir.addressof"


# -- semantics: llc's PTX of our LLVM IR, in ltc's PTX simulator ------------------------------------------
#
# The same elementwise kernels and exact references as tests/test_emit_ptx_semantics.py.


def via_llc(text: str) -> str:
    return llc(emit_llvm_ir(parse(text)))


@needs_llc_and_simulator
@pytest.mark.parametrize(("kind", "s", "d"), SEMANTIC_CASTS, ids=[f"{k}-{s}-{d}" for k, s, d in SEMANTIC_CASTS])
def test_cast_semantics(kind: str, s: str, d: str) -> None:
    check_cast(via_llc, kind, s, d)


@needs_llc_and_simulator
@pytest.mark.parametrize("t", ["i1", "i8", "i32", "i64", "f16", "bf16", "f32", "f64"])
def test_compare_semantics(t: str) -> None:
    check_compares(via_llc, t)


@needs_llc_and_simulator
@pytest.mark.parametrize("t", ["i1", "i8", "i16", "i32", "i64"])
def test_int_arithmetic_semantics(t: str) -> None:
    # llc's 64-bit division first tests whether both operands fit 32 bits and branches
    # per thread; the simulator runs uniform branches only.
    skip = ("sdiv", "udiv", "srem", "urem") if t == "i64" else ()
    check_int_arithmetic(via_llc, t, skip)


def test_i1_to_float_is_signed_for_sitofp() -> None:
    """LLVM 14 converts an i1 as unsigned for sitofp too; we select -1.0 / 0.0."""
    ls = lines(emit_llvm_ir(parse(MODULES["casts"])))
    assert any(re.fullmatch(r"%v\d+ = select i1 %arg1, float 0xBFF0000000000000, float 0x0000000000000000", s) for s in ls)
    assert any(re.fullmatch(r"%v\d+ = select i1 %arg1, half 0xH3C00, half 0xH0000", s) for s in ls)
    assert not any(re.fullmatch(r"%v\d+ = [su]itofp i1 .*", s) for s in ls)


@needs_llc_and_simulator
@pytest.mark.parametrize("t", ["f16", "bf16", "f32", "f64"])
def test_float_arithmetic_semantics(t: str) -> None:
    check_float_arithmetic(via_llc, t)


@needs_llc_and_simulator
def test_vector_add_semantics() -> None:
    check_vector_add(via_llc(MODULES["vector_add"]))


@needs_llc_and_simulator
def test_loop_semantics() -> None:
    check_loops(via_llc(loops_kernel(uniform=True)))


@needs_llc_and_simulator
def test_shuffle_semantics() -> None:
    check_shuffles(via_llc(shuffle_kernel()))
