"""The PTX emitter (ltc.lowering.emit.ptx) on the hand-written lowered modules of
``tests/emit_fixtures.py``: ptxas, characteristic lines, errors.

Every module must be accepted by ``ptxas -arch=sm_90`` and ``-arch=sm_80``; the
characteristic lines (compare ops, rounding modifiers, operand orders, directives) are
checked against tables written here from the PTX ISA, not from the emitter. What the PTX
computes is checked in ``tests/test_emit_ptx_semantics.py``; ``tests/test_emit_llvm.py``
runs the same modules through the LLVM IR emitter.
"""

from __future__ import annotations

import re
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.parser import Parser

from ltc.dialects.context import triton_context
from ltc.lowering.emit.common import EmitError
from ltc.lowering.emit.ptx import emit_ptx, sequential_copies
from tests.emit_fixtures import (
    FCMP_PREDICATES,
    ICMP_PREDICATES,
    INTRINSIC_CALLS,
    MODULES,
    kernel,
    needs_ptxas,
    parse,
    ptxas_errors,
    store,
)


# -- reading PTX -------------------------------------------------------------------------------


def instructions(ptx: str) -> list[str]:
    """The body lines of ``ptx``, stripped, without labels, directives and braces."""
    out = []
    for line in ptx.splitlines():
        s = line.strip()
        if s and not s.startswith(("//", ".", "$", "{", "}", ")")) and not s.endswith(":"):
            out.append(s)
    return out


def matching(ptx: str, pattern: str) -> list[str]:
    return [s for s in instructions(ptx) if re.fullmatch(pattern, s)]


R = r"%r\d+"
RS = r"%rs\d+"
RD = r"%rd\d+"
F = r"%f\d+"
FD = r"%fd\d+"
P = r"%p\d+"

# -- ptxas accepts every module ----------------------------------------------------------------


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_90", "sm_80"])
@pytest.mark.parametrize("name", list(MODULES))
def test_ptxas_accepts(name: str, arch: str) -> None:
    ptx = emit_ptx(parse(MODULES[name]), arch)
    assert f".target {arch}" in ptx
    errors = ptxas_errors(ptx, arch)
    assert errors is None, f"{name} ({arch}):\n{errors}\n{ptx}"


# -- characteristic lines ----------------------------------------------------------------------


def test_header_and_entry() -> None:
    ptx = emit_ptx(parse(MODULES["vector_add"]), "sm_90")
    lines = ptx.splitlines()
    assert ".version 8.0" in lines
    assert ".address_size 64" in lines
    assert ".visible .entry vector_add(" in lines
    assert ".reqntid 128, 1, 1" in lines
    params = [s.strip() for s in lines if s.strip().startswith(".param")]
    assert params == [
        ".param .u64 vector_add_param_0,",
        ".param .u64 vector_add_param_1,",
        ".param .u64 vector_add_param_2,",
        ".param .u32 vector_add_param_3",
    ]
    assert "global_smem" not in ptx  # no shared memory without the global


def test_vector_add_lines() -> None:
    ptx = emit_ptx(parse(MODULES["vector_add"]), "sm_90")
    assert len(matching(ptx, rf"ld\.param\.u64 {RD}, \[vector_add_param_[012]\];")) == 3
    assert len(matching(ptx, rf"ld\.param\.u32 {R}, \[vector_add_param_3\];")) == 1
    assert len(matching(ptx, rf"mov\.u32 {R}, %tid\.x;")) == 1
    assert len(matching(ptx, rf"mov\.u32 {R}, %ctaid\.x;")) == 1
    # gep on f32: index * 4 widened, then added to the base
    assert len(matching(ptx, rf"mul\.wide\.s32 {RD}, {R}, 4;")) == 3
    assert len(matching(ptx, rf"add\.s64 {RD}, {RD}, {RD};")) == 3
    # the predicated vector loads/store, operands substituted
    assert len(matching(ptx, rf"@{P} ld\.global\.v4\.b32 \{{ {R}, {R}, {R}, {R} \}}, \[ {RD} \+ 0 \];")) == 2
    assert len(matching(ptx, rf"@{P} st\.global\.v4\.b32 \[ {RD} \+ 0 \], \{{ {R}, {R}, {R}, {R} \}};")) == 1
    # the 'r' input 0 of the loads is a register (inline asm needs one)
    assert len(matching(ptx, rf"mov\.u32 {R}, {R};")) == 8
    assert len(matching(ptx, rf"mov\.b32 {F}, {R};")) == 8  # bitcast i32 -> f32
    assert len(matching(ptx, rf"add\.rn\.f32 {F}, {F}, {F};")) == 4
    assert len(matching(ptx, rf"mov\.b32 {R}, {F};")) == 4  # bitcast f32 -> i32
    assert instructions(ptx)[-1] == "ret;"


def test_loops_control_flow() -> None:
    ptx = emit_ptx(parse(MODULES["loops"]), "sm_90")
    body = instructions(ptx)
    labels = [s.strip() for s in ptx.splitlines() if s.strip().endswith(":")]
    # three loops (label + exit each), one if/else, one if without else
    assert sum(label.startswith("$L__loop") for label in labels) == 3
    assert len(set(labels)) == len(labels)
    # the first loop's bounds are uniform (0 .. %n): bra.uni; the third's bound is the
    # thread id: a plain bra; the constant-trip loop (0 .. 4) needs no guard
    backedges = [s for s in body if re.fullmatch(rf"@{P} bra(\.uni)? \$L__loop\d+;", s)]
    assert [s.split()[1] for s in backedges] == ["bra.uni", "bra.uni", "bra"]
    guards = [s for s in body if s.startswith("setp.ge.s32")]
    assert len(guards) == 2
    assert re.fullmatch(rf"setp\.ge\.s32 {P}, 0, {R};", guards[0])
    assert len(matching(ptx, rf"setp\.lt\.s32 {P}, {R}, 4;")) == 1
    # the if with a result branches on the negated predicate; its condition depends on
    # the induction variable of a uniform loop only: uniform. tid == 0 is not.
    assert len(matching(ptx, rf"@!{P} bra\.uni \$L__else\d+;")) == 1
    assert len(matching(ptx, rf"@!{P} bra \$L__endif\d+;")) == 1
    assert len(matching(ptx, r"bra\.uni \$L__endif\d+;")) == 1
    assert len(matching(ptx, rf"xor\.pred {P}, {P}, {P};")) == 1
    assert len(matching(ptx, rf"add\.rn\.f16 {RS}, {RS}, {RS};")) == 1
    # the slots' geps: seven by an i32, one by an i32 sign-extended to i64 (widened by
    # the multiply itself: no cvt, no shift)
    assert len(matching(ptx, rf"mul\.wide\.s32 {RD}, {R}, 4;")) == 8
    assert not matching(ptx, rf"shl\.b64 {RD}, {RD}, 2;") and not matching(ptx, rf"cvt\.s64\.s32 {RD}, {R};")


def _simulate_moves(lines: list[str], regs: dict[str, str]) -> dict[str, str]:
    """Run ``mov`` lines on symbolic register contents."""
    regs = dict(regs)
    for s in lines:
        m = re.fullmatch(r"mov\.\w+ (%\w+), (%\w+);", s)
        assert m, s
        regs[m.group(1)] = regs[m.group(2)]
    return regs


def test_loop_yield_is_a_parallel_copy() -> None:
    """The first loop yields (y, z, x) into (x, y, z): a cycle the movs must break."""
    ptx = emit_ptx(parse(MODULES["loops"]), "sm_90")
    body = instructions(ptx)
    guard = next(i for i, s in enumerate(body) if s.startswith("setp.ge.s32"))
    # before the guard: the induction variable's mov, then x, y, z (i32 slots, in order)
    inits = [s for s in body[:guard] if s.startswith("mov.b32")]
    assert [s.split(", ")[1] for s in inits] == ["0;", "0;", "1;", "2;"]
    iv, x, y, z = (s.split()[1].rstrip(",") for s in inits)
    # the yield's movs come right before the induction variable's increment
    inc = body.index(f"add.s32 {iv}, {iv}, 1;")
    start = inc
    while body[start - 1].startswith("mov."):
        start -= 1
    i32_moves = [s for s in body[start:inc] if s.startswith("mov.b32")]
    after = _simulate_moves(i32_moves, {x: "x", y: "y", z: "z"})
    assert (after[x], after[y], after[z]) == ("y", "z", "x")
    assert len(i32_moves) == 4  # a 3-cycle: three moves and one through a temporary


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_sequential_copies_equal_the_parallel_copy(data: st.DataObject) -> None:
    """Random parallel copies (permutations, fan-out, immediates, self-copies): the moves
    leave every destination holding its source's old value, touch nothing else, and
    number one per non-trivial copy plus one per cycle."""
    regs = [f"%r{i}" for i in range(data.draw(st.integers(1, 12)))]
    dests = data.draw(st.lists(st.sampled_from(regs), unique=True))
    srcs = [data.draw(st.sampled_from(regs + ["0", "7"])) for _ in dests]
    moves = [(d, s, "r") for d, s in zip(dests, srcs)]
    temps: list[str] = []
    seq = sequential_copies(moves, lambda cls: temps.append(f"%t{len(temps)}") or temps[-1])
    before = {r: f"old{r}" for r in regs} | {"0": "0", "7": "7"}
    after = dict(before)
    for d, s, cls in seq:
        assert cls == "r" and s in after
        after[d] = after[s]
    want = dict(before) | {d: before[s] for d, s in zip(dests, srcs)}
    assert {r: after[r] for r in regs} == {r: want[r] for r in regs}
    # cycles of the copy graph: chains d <- s <- ... that return to d (registers only)
    src_of = {d: s for d, s in zip(dests, srcs) if d != s}
    cycles, seen = 0, set()
    for start in src_of:
        path, r = [], start
        while r in src_of and r not in seen and r not in path:
            path.append(r)
            r = src_of[r]
        cycles += r in path
        seen.update(path)
    assert len(seq) == len(src_of) + cycles == len(src_of) + len(temps)


def test_sequential_copies_are_linear() -> None:
    """A carried rotation of 20,000 registers (one long cycle) plus 20,000 copies of one
    immediate: the moves come out in a time linear in their number (a quadratic
    algorithm takes minutes here), each destination written once."""
    n = 20_000
    rot = [(f"%a{i}", f"%a{(i + 1) % n}", "r") for i in range(n)]
    fan = [(f"%b{i}", "0", "r") for i in range(n)]
    seq = sequential_copies(rot + fan, lambda cls: "%tmp")
    assert len(seq) == 2 * n + 1
    # the copies of the immediate need not wait; then the rotation through the temp
    assert seq[:n] == fan and seq[n] == ("%tmp", "%a0", "r") and seq[-1] == (f"%a{n - 1}", "%tmp", "r")


# The PTX each intrinsic must become ({d} result, {0}.. arguments), from the PTX ISA.
INTRINSIC_PTX = {
    "llvm.nvvm.read.ptx.sreg.tid.x": "mov.u32 {d}, %tid.x;",
    "llvm.nvvm.read.ptx.sreg.ctaid.x": "mov.u32 {d}, %ctaid.x;",
    "llvm.nvvm.read.ptx.sreg.ctaid.y": "mov.u32 {d}, %ctaid.y;",
    "llvm.nvvm.read.ptx.sreg.ctaid.z": "mov.u32 {d}, %ctaid.z;",
    "llvm.nvvm.read.ptx.sreg.nctaid.x": "mov.u32 {d}, %nctaid.x;",
    "llvm.nvvm.read.ptx.sreg.nctaid.y": "mov.u32 {d}, %nctaid.y;",
    "llvm.nvvm.read.ptx.sreg.nctaid.z": "mov.u32 {d}, %nctaid.z;",
    # shfl.sync.mode.b32 d, value, lane, clamp, membermask
    "llvm.nvvm.shfl.sync.bfly.i32": "shfl.sync.bfly.b32 {d}, {1}, {2}, {3}, {0};",
    "llvm.nvvm.shfl.sync.idx.i32": "shfl.sync.idx.b32 {d}, {1}, {2}, {3}, {0};",
    "llvm.maxnum.f32": "max.f32 {d}, {0}, {1};",
    "llvm.minnum.f32": "min.f32 {d}, {0}, {1};",
    "llvm.maxnum.f64": "max.f64 {d}, {0}, {1};",
    "llvm.minnum.f64": "min.f64 {d}, {0}, {1};",
    "llvm.nvvm.fmax.nan.f": "max.NaN.f32 {d}, {0}, {1};",
    "llvm.nvvm.fmin.nan.f": "min.NaN.f32 {d}, {0}, {1};",
    "llvm.smax.i32": "max.s32 {d}, {0}, {1};",
    "llvm.smin.i32": "min.s32 {d}, {0}, {1};",
    "llvm.umax.i32": "max.u32 {d}, {0}, {1};",
    "llvm.umin.i32": "min.u32 {d}, {0}, {1};",
    "llvm.smax.i64": "max.s64 {d}, {0}, {1};",
    "llvm.smin.i64": "min.s64 {d}, {0}, {1};",
    "llvm.umax.i64": "max.u64 {d}, {0}, {1};",
    "llvm.umin.i64": "min.u64 {d}, {0}, {1};",
    "llvm.fabs.f32": "abs.f32 {d}, {0};",
    "llvm.sqrt.f32": "sqrt.rn.f32 {d}, {0};",
    "llvm.fma.f32": "fma.rn.f32 {d}, {0}, {1}, {2};",
    "llvm.nvvm.ex2.approx.f": "ex2.approx.f32 {d}, {0};",
    "llvm.nvvm.lg2.approx.f": "lg2.approx.f32 {d}, {0};",
    "llvm.nvvm.rsqrt.approx.f": "rsqrt.approx.f32 {d}, {0};",
    "llvm.nvvm.sin.approx.f": "sin.approx.f32 {d}, {0};",
    "llvm.nvvm.cos.approx.f": "cos.approx.f32 {d}, {0};",
    "llvm.nvvm.div.full.f": "div.full.f32 {d}, {0}, {1};",
}


def test_intrinsic_lines() -> None:
    ptx = emit_ptx(parse(MODULES["intrinsics"]), "sm_90")
    body = instructions(ptx)
    assert "bar.sync 0;" in body
    operand = {"i32": rf"(?:{R}|-?\d+)", "i64": rf"(?:{RD}|-?\d+)", "f32": rf"(?:{F}|0f[0-9A-F]{{8}})", "f64": rf"(?:{FD}|0d[0-9A-F]{{16}})"}
    dest = {"i32": R, "i64": RD, "f32": F, "f64": FD}
    for name, (res, args) in INTRINSIC_CALLS.items():
        parts = [re.escape(p) for p in re.split(r"(\{d\}|\{\d\})", INTRINSIC_PTX[name])]
        pattern = ""
        for p in parts:
            if p == re.escape("{d}"):
                pattern += dest[res]
            elif re.fullmatch(r"\\\{\d\\\}", p):
                pattern += operand[args[int(p[2])]]
            else:
                pattern += p
        assert len(matching(ptx, pattern)) >= 1, f"{name}: no line matches {pattern}"
    # PTX operand order of shuffles: value, lane (16), clamp (31), member mask
    assert len(matching(ptx, rf"shfl\.sync\.bfly\.b32 {R}, {R}, 16, 31, {R};")) == 1
    assert len(matching(ptx, rf"shfl\.sync\.idx\.b32 {R}, {R}, 16, 31, {R};")) == 1
    assert len(matching(ptx, rf"max\.s64 {RD}, {RD}, -5;")) == 1
    assert len(matching(ptx, rf"max\.f64 {FD}, {FD}, 0d4004000000000000;")) == 1


def test_shared_memory() -> None:
    static = emit_ptx(parse(MODULES["shared_static"]), "sm_90")
    assert ".shared .align 16 .b8 global_smem[1024];" in static.splitlines()
    assert len(matching(static, rf"mov\.u32 {R}, global_smem;")) == 1
    assert len(matching(static, rf"st\.shared\.b32 \[{R}\], {R};")) == 1
    assert len(matching(static, rf"ld\.shared\.b32 {R}, \[{R}\];")) == 1
    body = instructions(static)
    assert body.index("bar.sync 0;") > body.index(next(s for s in body if s.startswith("st.shared")))
    dynamic = emit_ptx(parse(MODULES["shared_dynamic"]), "sm_90")
    assert ".extern .shared .align 16 .b8 global_smem[];" in dynamic.splitlines()


# (cast, source, result) -> the PTX the cast must select (on sm_90 and sm_80 alike).
CAST_PTX = {
    ("zext", "i1", "i32"): rf"selp\.u32 {R}, 1, 0, {P};",
    ("zext", "i1", "i8"): rf"selp\.u16 {RS}, 1, 0, {P};",
    ("zext", "i8", "i16"): rf"and\.b16 {RS}, {RS}, 255;",
    ("zext", "i8", "i32"): rf"cvt\.u32\.u8 {R}, {RS};",
    ("zext", "i16", "i32"): rf"cvt\.u32\.u16 {R}, {RS};",
    ("zext", "i32", "i64"): rf"cvt\.u64\.u32 {RD}, {R};",
    ("sext", "i1", "i32"): rf"selp\.s32 {R}, -1, 0, {P};",
    ("sext", "i8", "i32"): rf"cvt\.s32\.s8 {R}, {RS};",
    ("sext", "i16", "i32"): rf"cvt\.s32\.s16 {R}, {RS};",
    ("sext", "i32", "i64"): rf"cvt\.s64\.s32 {RD}, {R};",
    ("sext", "i8", "i16"): rf"cvt\.s16\.s8 {RS}, {RS};",
    ("trunc", "i64", "i32"): rf"cvt\.u32\.u64 {R}, {RD};",
    ("trunc", "i32", "i16"): rf"cvt\.u16\.u32 {RS}, {R};",
    ("fpext", "f16", "f32"): rf"cvt\.f32\.f16 {F}, {RS};",
    ("fpext", "bf16", "f32"): rf"cvt\.f32\.bf16 {F}, {RS};",
    ("fpext", "f32", "f64"): rf"cvt\.f64\.f32 {FD}, {F};",
    ("fpext", "f16", "f64"): rf"cvt\.f64\.f16 {FD}, {RS};",
    ("fptrunc", "f32", "f16"): rf"cvt\.rn\.f16\.f32 {RS}, {F};",
    ("fptrunc", "f32", "bf16"): rf"cvt\.rn\.bf16\.f32 {RS}, {F};",
    ("fptrunc", "f64", "f32"): rf"cvt\.rn\.f32\.f64 {F}, {FD};",
    ("fptrunc", "f64", "f16"): rf"cvt\.rn\.f16\.f64 {RS}, {FD};",
    ("sitofp", "i32", "f32"): rf"cvt\.rn\.f32\.s32 {F}, {R};",
    ("sitofp", "i64", "f64"): rf"cvt\.rn\.f64\.s64 {FD}, {RD};",
    ("sitofp", "i8", "f32"): rf"cvt\.rn\.f32\.s8 {F}, {RS};",
    ("sitofp", "i16", "f16"): rf"cvt\.rn\.f16\.s16 {RS}, {RS};",
    ("sitofp", "i1", "f32"): rf"selp\.f32 {F}, 0fBF800000, 0f00000000, {P};",
    ("uitofp", "i32", "f32"): rf"cvt\.rn\.f32\.u32 {F}, {R};",
    ("uitofp", "i64", "f64"): rf"cvt\.rn\.f64\.u64 {FD}, {RD};",
    ("uitofp", "i8", "f16"): rf"cvt\.rn\.f16\.u8 {RS}, {RS};",
    ("uitofp", "i1", "f16"): rf"selp\.b16 {RS}, 0x3C00, 0x0000, {P};",
    ("fptosi", "f32", "i32"): rf"cvt\.rzi\.s32\.f32 {R}, {F};",
    ("fptosi", "f64", "i64"): rf"cvt\.rzi\.s64\.f64 {RD}, {FD};",
    ("fptosi", "f16", "i32"): rf"cvt\.rzi\.s32\.f16 {R}, {RS};",
    ("fptosi", "f32", "i8"): rf"cvt\.rzi\.s8\.f32 {RS}, {F};",
    ("fptosi", "f32", "i16"): rf"cvt\.rzi\.s16\.f32 {RS}, {F};",
    ("fptoui", "f32", "i32"): rf"cvt\.rzi\.u32\.f32 {R}, {F};",
    ("fptoui", "f64", "i64"): rf"cvt\.rzi\.u64\.f64 {RD}, {FD};",
    ("fptoui", "f16", "i16"): rf"cvt\.rzi\.u16\.f16 {RS}, {RS};",
    ("bitcast", "i32", "f32"): rf"mov\.b32 {F}, {R};",
    ("bitcast", "f32", "i32"): rf"mov\.b32 {R}, {F};",
    ("bitcast", "i64", "f64"): rf"mov\.b64 {FD}, {RD};",
    ("bitcast", "f64", "i64"): rf"mov\.b64 {RD}, {FD};",
    ("ptrtoint", "ptr", "i32"): rf"cvt\.u32\.u64 {R}, {RD};",
    ("inttoptr", "i32", "ptr"): rf"cvt\.u64\.u32 {RD}, {R};",
}


# Target-dependent bf16 conversions: sm_90 has them, sm_80 goes through f32.
CAST_PTX_SM90 = {
    ("sitofp", "i32", "bf16"): rf"cvt\.rn\.bf16\.s32 {RS}, {R};",
    ("sitofp", "i64", "bf16"): rf"cvt\.rn\.bf16\.s64 {RS}, {RD};",
    ("uitofp", "i32", "bf16"): rf"cvt\.rn\.bf16\.u32 {RS}, {R};",
    ("fptrunc", "f64", "bf16"): rf"cvt\.rn\.bf16\.f64 {RS}, {FD};",
    ("fpext", "bf16", "f64"): rf"cvt\.f64\.bf16 {FD}, {RS};",
    ("fptosi", "bf16", "i32"): rf"cvt\.rzi\.s32\.bf16 {R}, {RS};",
    ("fptoui", "bf16", "i64"): rf"cvt\.rzi\.u64\.bf16 {RD}, {RS};",
}


def test_cast_lines() -> None:
    for arch in ("sm_90", "sm_80"):
        ptx = emit_ptx(parse(MODULES["casts"]), arch)
        for key, pattern in CAST_PTX.items():
            assert matching(ptx, pattern), f"{arch} {key}: no line matches {pattern}"
    sm90 = emit_ptx(parse(MODULES["casts"]), "sm_90")
    sm80 = emit_ptx(parse(MODULES["casts"]), "sm_80")
    for key, pattern in CAST_PTX_SM90.items():
        assert len(matching(sm90, pattern)) == 1, f"sm_90 {key}: {pattern}"
        assert not matching(sm80, pattern), f"sm_80 must not use {pattern}"
    # sm_80: i32/i64/f64 -> bf16 round to odd (.rz to f32, sticky bit), then .rn
    assert len(matching(sm80, rf"cvt\.rz\.f32\.s32 {F}, {R};")) == 1
    assert len(matching(sm80, rf"cvt\.rz\.f32\.s64 {F}, {RD};")) == 1
    assert len(matching(sm80, rf"cvt\.rz\.f32\.u32 {F}, {R};")) == 1
    assert len(matching(sm80, rf"cvt\.rz\.f32\.f64 {F}, {FD};")) == 1
    assert len(matching(sm80, rf"@{P} or\.b32 {R}, {R}, 1;")) == 4
    assert not matching(sm90, r"cvt\.rz\.f32.*")


def test_cast_register_aliases() -> None:
    """trunc i16->i8, bitcasts within the 16-bit class and ptr<->i64 emit nothing."""
    text = kernel(
        "aliases",
        [("out", "ptr"), ("h", "i16"), ("x", "f16")],
        [
            "%b = llvm.trunc %h : i16 to i8",
            "%y = llvm.bitcast %x : f16 to bf16",
            "%q = llvm.ptrtoint %out : !llvm.ptr<1> to i64",
            "%o = llvm.inttoptr %q : i64 to !llvm.ptr<1>",
            store("%o", "%b", "i8"),
            store("%o", "%y", "bf16"),
        ],
    )
    body = instructions(emit_ptx(parse(text)))
    assert body == [
        "ld.param.u64 %rd1, [aliases_param_0];",
        "ld.param.u16 %rs1, [aliases_param_1];",
        "ld.param.b16 %rs2, [aliases_param_2];",
        "st.global.b8 [%rd1], %rs1;",
        "st.global.b16 [%rd1], %rs2;",
        "ret;",
    ]


# LLVM predicate -> PTX setp compare op and type letter, from the PTX ISA.
ICMP_PTX = {
    "eq": "eq.s", "ne": "ne.s", "slt": "lt.s", "sle": "le.s", "sgt": "gt.s", "sge": "ge.s",
    "ult": "lt.u", "ule": "le.u", "ugt": "gt.u", "uge": "ge.u",
}  # fmt: skip


FCMP_PTX = {
    "oeq": "eq", "ogt": "gt", "oge": "ge", "olt": "lt", "ole": "le", "one": "ne", "ord": "num",
    "ueq": "equ", "ugt": "gtu", "uge": "geu", "ult": "ltu", "ule": "leu", "une": "neu", "uno": "nan",
}  # fmt: skip


def test_compare_lines() -> None:
    for arch in ("sm_90", "sm_80"):
        ptx = emit_ptx(parse(MODULES["compares"]), arch)
        # (the two i1 kernel arguments are read as bytes and tested: setp.eq.b16 x, 1)
        setps = [s for s in instructions(ptx) if s.startswith("setp.") and not s.startswith("setp.eq.b16")]
        expected = []
        expected += [rf"setp\.{ICMP_PTX[p]}32 {P}, {R}, {R};" for p in ICMP_PREDICATES]
        expected += [rf"setp\.{ICMP_PTX[p]}16 {P}, {RS}, {RS};" for p in ICMP_PREDICATES]
        expected += [rf"setp\.{ICMP_PTX[p]}64 {P}, {RD}, {RD};" for p in ICMP_PREDICATES]
        # i1 compares are predicate logic; the i1 stores add no setp
        bf16 = "f32" if arch == "sm_80" else "bf16"
        for t, reg in (("f32", F), ("f16", RS), (bf16, F if bf16 == "f32" else RS), ("f64", FD)):
            expected += [rf"setp\.{FCMP_PTX[p]}\.{t} {P}, {reg}, {reg};" for p in FCMP_PREDICATES]
        assert len(setps) == len(expected), arch
        for line, pattern in zip(setps, expected):
            assert re.fullmatch(pattern, line), f"{arch}: {line!r} !~ {pattern}"
        # i8 operands are extended first: sign for eq..sge, zero for the unsigned ones
        assert len(matching(ptx, rf"cvt\.s16\.s8 {RS}, {RS};")) == 2 * 6
        assert len(matching(ptx, rf"and\.b16 {RS}, {RS}, 255;")) == 2 * 4
        # fcmp true/false are constants
        assert len(matching(ptx, rf"mov\.pred {P}, 1;")) == 4
        assert len(matching(ptx, rf"mov\.pred {P}, 0;")) == 4


def test_i1_compares_are_predicate_logic() -> None:
    ptx = emit_ptx(parse(MODULES["compares"]), "sm_90")
    logic = [s for s in instructions(ptx) if re.fullmatch(r"(and|or|xor|not)\.pred .*", s)]
    shapes = [re.sub(r"%p\d+", "p", s) for s in logic]
    assert shapes == [
        "xor.pred p, p, p;", "not.pred p, p;",  # eq
        "xor.pred p, p, p;",  # ne
        "and.pred p, p, !p;",  # slt: true (-1) < false (0)
        "or.pred p, p, !p;",  # sle
        "and.pred p, !p, p;",  # sgt
        "or.pred p, !p, p;",  # sge
        "and.pred p, !p, p;",  # ult: false (0) < true (1)
        "or.pred p, !p, p;",  # ule
        "and.pred p, p, !p;",  # ugt
        "or.pred p, p, !p;",  # uge
    ]  # fmt: skip


def test_arithmetic_lines() -> None:
    sm90 = emit_ptx(parse(MODULES["arithmetic"]), "sm_90")
    sm80 = emit_ptx(parse(MODULES["arithmetic"]), "sm_80")
    for ptx in (sm90, sm80):
        # i32 with an immediate right operand
        for op in ("add.s32", "sub.s32", "mul.lo.s32", "div.s32", "div.u32", "rem.s32", "rem.u32",
                   "and.b32", "or.b32", "xor.b32", "shl.b32", "shr.u32", "shr.s32"):  # fmt: skip
            assert len(matching(ptx, rf"{re.escape(op)} {R}, {R}, 7;")) == 1, op
        # i64 shifts take a 32-bit amount
        assert len(matching(ptx, rf"cvt\.u32\.u64 {R}, {RD};")) == 3
        assert len(matching(ptx, rf"shl\.b64 {RD}, {RD}, {R};")) == 1
        # i16 shifts likewise; i8 ones zero-extend the amount from 8 bits
        assert len(matching(ptx, rf"cvt\.u32\.u16 {R}, {RS};")) == 3
        assert len(matching(ptx, rf"cvt\.u32\.u8 {R}, {RS};")) == 3
        # the i8 lshr by a constant: the value zero-extended, the amount an immediate
        assert len(matching(ptx, rf"shr\.u16 {RS}, {RS}, 3;")) == 1
        # i1: and, mul -> and; or; xor, add, sub -> xor; the i1 select is (c & a) | (!c & b)
        assert len(matching(ptx, rf"and\.pred {P}, {P}, {P};")) == 3
        assert len(matching(ptx, rf"or\.pred {P}, {P}, {P};")) == 2
        assert len(matching(ptx, rf"xor\.pred {P}, {P}, {P};")) == 3
        assert len(matching(ptx, rf"and\.pred {P}, !{P}, {P};")) == 1
        assert len(matching(ptx, rf"add\.rn\.f32 {F}, {F}, 0f3F000000;")) == 1
        assert len(matching(ptx, rf"div\.rn\.f32 {F}, {F}, {F};")) >= 1
        assert len(matching(ptx, rf"add\.rn\.f64 {FD}, {FD}, {FD};")) == 1
        assert len(matching(ptx, rf"div\.rn\.f64 {FD}, {FD}, {FD};")) == 2  # fdiv, frem
        assert len(matching(ptx, rf"add\.rn\.f16 {RS}, {RS}, {RS};")) == 1
        assert len(matching(ptx, rf"mul\.rn\.f16 {RS}, {RS}, {RS};")) == 1
        # f16 and bf16 division and remainder go through f32 and round once
        assert len(matching(ptx, rf"cvt\.rn\.f16\.f32 {RS}, {F};")) == 2
        assert len(matching(ptx, rf"cvt\.rn\.bf16\.f32 {RS}, {F};")) == 2
        # frem: trunc(a / b), then one fma, a's sign; a itself when |a| < |b|
        assert len(matching(ptx, rf"cvt\.rzi\.f32\.f32 {F}, {F};")) == 3
        assert len(matching(ptx, rf"cvt\.rzi\.f64\.f64 {FD}, {FD};")) == 1
        assert len(matching(ptx, rf"fma\.rn\.f32 {F}, {F}, {F}, {F};")) == 3
        assert len(matching(ptx, rf"copysign\.f32 {F}, {F}, {F};")) == 3
        assert len(matching(ptx, rf"setp\.lt\.f32 {P}, {F}, {F};")) == 3
        assert len(matching(ptx, rf"setp\.lt\.f64 {P}, {FD}, {FD};")) == 1
        for t in ("f16", "bf16", "f32", "f64"):
            reg = {"f16": RS, "bf16": RS, "f32": F, "f64": FD}[t]
            # fneg, plus the f32 frem expansions of f16, bf16, f32 and the f64 one
            assert len(matching(ptx, rf"neg\.{t} {reg}, {reg};")) == {"f32": 4, "f64": 2}.get(t, 1), t
        for sel, reg in (("b16", RS), ("b32", R), ("f32", F), ("b64", RD), ("f64", FD)):
            # i8, i16, f16, bf16 selects share selp.b16; frem adds its infinity selps
            count = {"b16": 4, "f32": 4, "f64": 2}.get(sel, 1)
            assert len(matching(ptx, rf"selp\.{sel} {reg}, {reg}, {reg}, {P};")) == count, sel
    # bf16 add/sub/mul: native on sm_90, one fma on sm_80
    assert len(matching(sm90, rf"add\.rn\.bf16 {RS}, {RS}, {RS};")) == 1
    assert len(matching(sm90, rf"sub\.rn\.bf16 {RS}, {RS}, {RS};")) == 1
    assert len(matching(sm90, rf"mul\.rn\.bf16 {RS}, {RS}, {RS};")) == 1
    assert not matching(sm80, r"(add|sub|mul)\.rn\.bf16 .*")
    assert len(matching(sm80, rf"fma\.rn\.bf16 {RS}, {RS}, {RS}, {RS};")) == 3
    assert len(matching(sm80, rf"mov\.b16 {RS}, 0x3F80;")) == 1  # a*1 + b
    assert len(matching(sm80, rf"mov\.b16 {RS}, 0xBF80;")) == 1  # b*-1 + a
    assert len(matching(sm80, rf"mov\.b16 {RS}, 0x8000;")) == 1  # a*b + -0


def test_i8_ops_extend_only_where_upper_bits_matter() -> None:
    ptx = emit_ptx(parse(MODULES["arithmetic"]), "sm_90")
    # i8: sdiv, srem sign-extend both operands, ashr the value; udiv, urem both, lshr (x2)
    # the value: zero-extended
    assert len(matching(ptx, rf"cvt\.s16\.s8 {RS}, {RS};")) == 5
    assert len(matching(ptx, rf"and\.b16 {RS}, {RS}, 255;")) == 6
    for op in ("add.s16", "sub.s16", "mul.lo.s16", "div.s16", "div.u16", "rem.s16", "rem.u16"):
        assert len(matching(ptx, rf"{re.escape(op)} {RS}, {RS}, {RS};")) == 2, op  # i8 and i16


def test_constants() -> None:
    text = kernel(
        "constants",
        [("out", "ptr")],
        [
            "%a = llvm.mlir.constant(0.1 : f32) : f32",
            "%b = llvm.mlir.constant(-2.0 : f64) : f64",
            "%c = llvm.mlir.constant(1.5 : f16) : f16",
            "%d = llvm.mlir.constant(-1.5 : bf16) : bf16",
            "%e = llvm.mlir.constant(-7 : i64) : i64",
            "%f = llvm.mlir.constant(0x7F800000 : i32) : i32",
            "%g = llvm.bitcast %f : i32 to f32",
            "%s = llvm.fadd %a, %g : f32",
            store("%out", "%s", "f32"),
            store("%out", "%b", "f64"),
            store("%out", "%c", "f16"),
            store("%out", "%d", "bf16"),
            store("%out", "%e", "i64"),
        ],
    )
    ptx = emit_ptx(parse(text))
    body = instructions(ptx)
    assert "mov.b16 %rs1, 0x3E00;" in body  # 1.5 in f16
    assert "mov.b16 %rs2, 0xBFC0;" in body  # -1.5 in bf16
    assert len(matching(ptx, r"add\.rn\.f32 %f\d+, 0f3DCCCCCD, 0f7F800000;")) == 1
    assert len(matching(ptx, rf"mov\.f64 {FD}, 0dC000000000000000;")) == 1
    assert len(matching(ptx, rf"mov\.b64 {RD}, -7;")) == 1
    assert errors_free(ptx)


def errors_free(ptx: str) -> bool:
    return shutil.which("ptxas") is None or ptxas_errors(ptx, "sm_90") is None


def test_inline_asm_operand_classes() -> None:
    """An f32 in an "r" operand is moved into a b32 register (and back for results); a
    tied input shares its output's register; "n" operands are immediates; $$ is $."""
    text = kernel(
        "asm_classes",
        [("out", "ptr"), ("x", "f32")],
        [
            "%k = llvm.mlir.constant(3 : i32) : i32",
            '%y = llvm.inline_asm "add.s32 $0, $1, $2; // $$ok", "=r,r,n" %x, %k : (f32, i32) -> f32',
            '%z = llvm.inline_asm "add.s32 $0, $0, 1;", "=r,0" %k : (i32) -> i32',
            store("%out", "%y", "f32"),
            store("%out", "%z", "i32"),
        ],
    )
    ptx = emit_ptx(parse(text))
    body = instructions(ptx)
    i = body.index(next(s for s in body if s.startswith("add.s32")))
    assert re.fullmatch(r"mov\.b32 (%r\d+), %f1;", body[i - 1])
    src = re.fullmatch(r"mov\.b32 (%r\d+), %f1;", body[i - 1]).group(1)  # type: ignore[union-attr]
    assert re.fullmatch(rf"add\.s32 ({R}), {src}, 3; // \$ok", body[i])
    out = re.fullmatch(rf"add\.s32 ({R}), .*", body[i]).group(1)  # type: ignore[union-attr]
    assert re.fullmatch(rf"mov\.b32 {F}, {out};", body[i + 1])
    assert re.fullmatch(r"mov\.b32 (%r\d+), 3;", body[i + 2])
    tied = re.fullmatch(r"mov\.b32 (%r\d+), 3;", body[i + 2]).group(1)  # type: ignore[union-attr]
    assert body[i + 3] == f"add.s32 {tied}, {tied}, 1;"
    assert errors_free(ptx)


# -- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "op_name"),
    [
        ('%r = "llvm.intr.fabs"(%x) : (f32) -> f32', "llvm.intr.fabs"),
        ('%r = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.laneid"() : () -> i32', "llvm.call_intrinsic"),
        ('%r = llvm.call_intrinsic "llvm.fabs.f32"(%n) : (i32) -> i32', "llvm.call_intrinsic"),
        ("%r = llvm.getelementptr %out[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32", "llvm.getelementptr"),
        ('%r = llvm.inline_asm "mov.b32 $0, $1;", "=r,q" %n : (i32) -> i32', "llvm.inline_asm"),
        ('%r = llvm.inline_asm "mov.b32 $0, $1;", "=r,r,r" %n : (i32) -> i32', "llvm.inline_asm"),
        ("%r = llvm.load %out : !llvm.ptr<1> -> f32", "llvm.load"),
    ],
)
def test_outside_the_contract_names_the_op(line: str, op_name: str) -> None:
    text = kernel("bad", [("out", "ptr"), ("x", "f32"), ("n", "i32")], [line])
    with pytest.raises(EmitError) as info:
        emit_ptx(parse(text))
    assert info.value.op is not None and info.value.op.name == op_name
    assert str(info.value).startswith(f"'{op_name}' op ")


def test_module_level_errors() -> None:
    not_kernel = MODULES["vector_add"].replace('"nvvm.kernel", ', "")
    with pytest.raises(EmitError, match="not an nvvm.kernel") as info:
        emit_ptx(parse(not_kernel))
    assert info.value.op is not None and info.value.op.name == "llvm.func"
    with pytest.raises(EmitError, match="sm_80 or newer"):
        emit_ptx(parse(MODULES["vector_add"]), "sm_70")
    no_global = kernel("k", [("out", "ptr")], ["%s = llvm.mlir.addressof @global_smem : !llvm.ptr<3>"])
    with pytest.raises(EmitError, match="global_smem") as info:  # (the verifier refuses it before: unverified here)
        emit_ptx(Parser(triton_context(), no_global).parse_module())
    assert info.value.op is not None and info.value.op.name == "llvm.mlir.addressof"
