"""The PTX parser and simulator (ltc.lowering.ptxsim).

Hand-written kernels check single instructions against values derived from the
PTX ISA / CUDA documentation (shuffle modes, ldmatrix / stmatrix fragments,
conversions, bank-conflict wavefronts); Triton's own PTX (the 54 conversion
cases and the example kernels) checks whole programs: a conversion kernel is a
copy, so its output must equal its input; vector_add / softmax / layer_norm must
match numpy.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
import time
import zlib
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from ltc.lowering.ptxsim.parse import (
    Address,
    FloatImm,
    Imm,
    Label,
    Not,
    PredPair,
    PtxSyntaxError,
    Reg,
    RegDecl,
    Sink,
    Symbol,
    Vector,
    parse_ptx,
)
from ltc.lowering.ptxsim.errors import SimulationError
from ltc.lowering.ptxsim.run import run_kernel, simulate_ptx

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "triton"

HEADER = ".version 8.0\n.target sm_90\n.address_size 64\n"
REGS = """    .reg .pred %p<16>;
    .reg .b16 %rs<32>;
    .reg .b32 %r<64>;
    .reg .b64 %rd<32>;
    .reg .f32 %f<32>;
"""
# out = param 0 (u32 per thread and slot), in = param 1; %rd3 = &out[tid], %rd5 = &in[tid]
PROLOGUE = """    ld.param.u64 %rd1, [k_param_0];
    ld.param.u64 %rd4, [k_param_1];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    add.s64 %rd5, %rd4, %rd2;
"""


def kernel(body: str, *, threads: int = 32, shared: str = "", prologue: bool = True) -> str:
    params = ",\n".join(f"    .param .u64 k_param_{i}" for i in range(2))
    return (
        HEADER + shared + f".visible .entry k(\n{params}\n)\n.reqntid {threads}\n{{\n{REGS}"
        + (PROLOGUE if prologue else "") + body + "    ret;\n}\n"
    )


def stores(regs: list[str], threads: int) -> str:
    """Store ``regs[k]`` to ``out[k * threads + tid]``."""
    return "".join(f"    st.global.b32 [%rd3+{4 * k * threads}], {r};\n" for k, r in enumerate(regs))


def run(ptx: str, slots: int, threads: int = 32, inp: np.ndarray | None = None):
    """Run one CTA; returns out as [slot, thread] and the statistics."""
    out = np.zeros(slots * threads, np.uint32)
    if inp is None:
        inp = np.zeros(threads, np.uint32)
    stats = simulate_ptx(ptx, 1, [out, inp])
    return out.reshape(slots, threads), stats


def line_of(ptx: str, marker: str) -> int:
    return next(i for i, s in enumerate(ptx.splitlines(), 1) if marker in s)


def f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


SNIPPETS: dict[str, str] = {}


def snippet(name: str, ptx: str) -> str:
    SNIPPETS[name] = ptx
    return ptx


# =============================================================================== parser
PARSE_SAMPLE = """
//
// hand-written
//
.version 8.4
.target sm_90a
.address_size 64

.extern .shared .align 16 .b8 global_smem[];
.shared .align 8 .b8 tile[256];
.global .align 4 .b32 table[3] = {1, -2, 0x10};

.visible .entry sample(
    .param .u64 .ptr .global .align 1 sample_param_0,
    .param .u32 sample_param_1,
    .param .f32 sample_param_2
)
.maxntid 64, 1, 1
{
    .reg .pred %p<3>;
    .reg .b16 %rs<3>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<4>;
    .loc 1 7 3
    ld.param.b64 %rd1, [sample_param_0];
    mov.u32 %r1, %tid.x;
    mov.b32 %r2, global_smem;
    mov.b32 {_, %rs2}, %r1;
    ld.global.v4.b32 { %r3, %r4, %r5, %r6 }, [ %rd1 + 0 ];
    st.shared.v2.b32 [%r2+-16], {%r3, %r4};
    ld.shared.b32 %r7, [tile+4];
    prmt.b32 %r8, %r3, %r4, 0x7632U;
    mul.f32 %r9, %r3, 0f3FB8AA3B;
    add.f32 %r9, %r9, 1.5;
    shfl.sync.up.b32 %r5|%p1, %r4, 1, 0, -1;
    setp.lt.and.s32 %p2, %r1, 5, !%p1;
    {
        .reg .b32 a<2>;
        mov.b32 a1, %r1;
        @!%p2 add.s32 a1, a1, 1;
    }
$L__BB0_1:
    @%p2 bra $L__BB0_1;
    .pragma "nounroll";
    ret;
}
    .file 1 "kernel.py"
    .section .debug_info
    {
.b32 10
.b8 2 // a comment with no braces
    }
"""


def test_parse_module_structure():
    m = parse_ptx(PARSE_SAMPLE)
    assert m.version == "8.4" and m.target == ("sm_90a",) and m.address_size == 64
    smem, tile, table = m.variables
    assert (smem.space, smem.name, smem.align, smem.extern, smem.size) == ("shared", "global_smem", 16, True, None)
    assert (tile.space, tile.align, tile.size) == ("shared", 8, 256)
    assert (table.space, table.type, table.size, table.init) == ("global", "b32", 12, (1, -2, 16))
    k = m.kernel()
    assert k.name == "sample" and k.entry and k.maxntid == (64, 1, 1) and k.reqntid is None
    p0, p1, p2 = k.params
    assert (p0.name, p0.type, p0.pointer, p0.space, p0.align) == ("sample_param_0", "u64", True, "global", 1)
    assert (p1.type, p1.pointer) == ("u32", False) and p2.type == "f32"
    decls = [s for s in k.statements if isinstance(s, RegDecl)]
    assert [(d.type, d.name, d.count) for d in decls] == [
        ("pred", "%p", 3), ("b16", "%rs", 3), ("b32", "%r", 10), ("b64", "%rd", 4)
    ]
    assert any(isinstance(s, Label) and s.name == "$L__BB0_1" for s in k.statements)


def test_parse_operands():
    m = parse_ptx(PARSE_SAMPLE)
    by_op = list(m.kernel().instructions())
    ld_param, mov_tid, mov_sym, unpack, ld_vec, st_sh, ld_tile, prmt, mul, add, shfl, setp, mov_a, add_a, bra, ret = by_op
    assert ld_param.opcode == "ld" and ld_param.modifiers == ("param", "b64")
    assert ld_param.operands == (Reg("%rd1"), Address(Symbol("sample_param_0"), 0))
    assert mov_tid.operands == (Reg("%r1"), Reg("%tid.x"))
    assert mov_sym.operands == (Reg("%r2"), Symbol("global_smem"))
    assert unpack.operands == (Vector((Sink(), Reg("%rs2"))), Reg("%r1"))
    assert ld_vec.modifiers == ("global", "v4", "b32")
    assert ld_vec.operands[0] == Vector(tuple(Reg(f"%r{i}") for i in range(3, 7)))
    assert ld_vec.operands[1] == Address(Reg("%rd1"), 0)
    assert st_sh.operands[0] == Address(Reg("%r2"), -16)
    assert ld_tile.operands[1] == Address(Symbol("tile"), 4)
    assert prmt.operands[3] == Imm(0x7632)
    assert mul.operands[2] == FloatImm(0x3FB8AA3B, 32)
    assert add.operands[2].value == 1.5
    assert shfl.mnemonic == "shfl.sync.up.b32"
    assert shfl.operands[0] == PredPair(Reg("%r5"), Reg("%p1")) and shfl.operands[4] == Imm(-1)
    assert setp.operands[3] == Not(Reg("%p1"))
    assert mov_a.operands[0] == Reg("a1")  # a scoped register, not a symbol
    assert add_a.guard is not None and add_a.guard.negated and add_a.guard.reg == Reg("%p2")
    assert bra.operands == (Symbol("$L__BB0_1"),) and bra.guard.reg == Reg("%p2")
    assert (ret.opcode, ret.operands) == ("ret", ())
    assert ld_param.line == 25 and ld_param.column == 5
    assert ld_param.source == "ld.param.b64 %rd1, [sample_param_0];"


@pytest.mark.parametrize(
    "text, line, column, fragment",
    [
        (".version 8.0\n.target sm_90\n.visible .entry k()\n{\n  add.u32 %r1, 1, 2;\n}\n", 5, 11, "undeclared register '%r1'"),
        (".version 8.0\n.visible .entry k()\n{\n .reg .b32 %r<2>;\n  add.u32 %r1, 1 2;\n}\n", 5, 18, "unexpected '2'"),
        (".version 8.0\n.visible .entry k()\n{\n  bra L;\n}\n", 4, 3, "undefined label 'L'"),
        (".version 8.0\n.visible .entry k()\n{\nL:\nL:\n  ret;\n}\n", 5, 1, "label 'L' defined twice"),
        (".version 8.0\n.visible .entry k()\n{\n  ret\n}\n", 5, 1, "unexpected '}'"),
        (".version 8.0\n.visible .entry k()\n{\n  ret; #\n}\n", 4, 8, "unexpected character '#'"),
        (".version 8.0\n.visible .entry k()\n{\n  ret;\n", 4, 7, "unexpected end of input"),
    ],
)
def test_parse_errors_carry_position(text, line, column, fragment):
    with pytest.raises(PtxSyntaxError) as info:
        parse_ptx(text, "bad.ptx")
    e = info.value
    assert (e.line, e.column) == (line, column), str(e)
    assert fragment in e.message
    assert str(e).startswith(f"bad.ptx:{line}:{column}: error: ")
    assert e.source_line == text.splitlines()[line - 1]


def test_functions_and_unsupported_constructs():
    text = HEADER + """
.func (.param .b32 ret) helper(.param .b32 x)
{
    ret;
}
.visible .entry k()
.reqntid 32
{
    .reg .b32 %r<4>;
    mov.u32 %r1, %tid.x;
    popc.b32 %r2, %r1;
    mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%r1, %r1, %r1, %r1}, {%r1, %r1, %r1, %r1}, {%r1, %r1}, {%r1, %r1, %r1, %r1};
    ret;
}
"""
    m = parse_ptx(text)
    assert [(k.name, k.entry) for k in m.kernels] == [("helper", False), ("k", True)]
    assert m.kernel().name == "k"
    with pytest.raises(SimulationError, match=r"'mma\.sync\.aligned\.m8n8k4\.row\.col\.f32\.f16\.f16\.f32' is not supported") as info:
        run_kernel(m, 1, [])
    assert info.value.line == line_of(text, "mma.sync")
    with pytest.raises(SimulationError, match="is a .func"):
        run_kernel(m, 1, [], kernel="helper")
    with pytest.raises(PtxSyntaxError, match="vector registers"):
        parse_ptx(HEADER + ".visible .entry k()\n{\n .reg .v2 .b32 %v;\n ret;\n}\n")


def test_grammar_is_package_data():
    assert resources.files("ltc.lowering.ptxsim").joinpath("ptx.lark").is_file()


# =============================================================================== shuffles
SHFL = snippet("shfl", kernel("""
    shfl.sync.bfly.b32 %r10, %r1, 5, 31, -1;
    shfl.sync.up.b32 %r11|%p1, %r1, 1, 0, -1;
    shfl.sync.down.b32 %r12|%p2, %r1, 4, 31, -1;
    shfl.sync.idx.b32 %r13, %r1, 35, 31, -1;
    shfl.sync.idx.b32 %r14, %r1, 3, 0x181f, -1;
    shfl.sync.up.b32 %r15, %r1, 2, 0x1800, -1;
    shfl.sync.down.b32 %r16, %r1, 2, 0x181f, -1;
    mul.lo.u32 %r2, %r1, 7;
    shfl.sync.idx.b32 %r17, %r1, %r2, 31, -1;
    shfl.sync.bfly.b32 %r18|%p3, %r1, 4, 0x1c03, -1;
    selp.u32 %r19, 1, 0, %p1;
    selp.u32 %r20, 1, 0, %p2;
    selp.u32 %r21, 1, 0, %p3;
""" + stores([f"%r{i}" for i in range(10, 22)], 64), threads=64))


def test_shuffle_modes_follow_the_ptx_isa():
    out, stats = run(SHFL, 12, threads=64)
    tid = np.arange(64)
    lane, base = tid % 32, tid // 32 * 32
    expect = [
        base + (lane ^ 5),                                   # bfly
        np.where(lane >= 1, tid - 1, tid),                   # up 1: lane 0 keeps its own value
        np.where(lane + 4 <= 31, tid + 4, tid),              # down 4 (clamp 31)
        base + 3,                                            # idx: only b[4:0] counts (35 -> 3)
        base + lane // 8 * 8 + 3,                            # idx in segments of 8 (c = 0x181f)
        np.where(lane % 8 >= 2, tid - 2, tid),               # up 2 in segments of 8 (c = 0x1800)
        np.where(lane % 8 <= 5, tid + 2, tid),               # down 2 in segments of 8
        base + (lane * 7) % 32,                              # idx from a register
        # bfly 4 with width 4 (c = 0x1c03): only j <= maxLane = (lane & 28) | 3 is
        # checked, so (as CUDA documents for __shfl_xor_sync with a width) a lane may
        # read the group before its own but keeps its value instead of reading a later one
        np.where(lane & 4, tid - 4, tid),
        (lane >= 1).astype(int),
        (lane <= 27).astype(int),
        (lane & 4 != 0).astype(int),
    ]
    for k, e in enumerate(expect):
        assert np.array_equal(out[k], e), k
    assert stats.shuffles == 9 * 2  # per warp


SHFL_IDLE = snippet("shfl_idle", kernel("""
    setp.lt.u32 %p1, %r1, 16;
    @%p1 shfl.sync.bfly.b32 %r2, %r1, 16, 31, 0xffff;   // MARK
""" + stores(["%r2"], 32)))
SHFL_MASK = snippet("shfl_mask", kernel("""
    shfl.sync.bfly.b32 %r2, %r1, 1, 31, 0xffff;   // MARK
""" + stores(["%r2"], 32)))


def test_shuffle_reading_an_idle_lane_raises():
    ptx = SHFL_IDLE
    with pytest.raises(SimulationError) as info:
        run(ptx, 1)
    assert info.value.line == line_of(ptx, "MARK")
    assert "does not execute" in info.value.message


def test_shuffle_outside_member_mask_raises():
    with pytest.raises(SimulationError, match="member mask") as info:
        run(SHFL_MASK, 1)
    assert info.value.line == line_of(SHFL_MASK, "MARK")


# =============================================================================== ldmatrix / stmatrix
# Lane l of warp w owns row r = l % 8 of matrix i = l // 8; the rows lie at a
# permuted slot ((l * 5 + 3) % 32) * 16 of the warp's 512 bytes, and hold the
# b16 values (w * 32 + l) * 8 + col.
MATRIX_SETUP = """
    and.b32 %r2, %r1, 31;
    shr.u32 %r3, %r1, 5;
    mad.lo.u32 %r4, %r2, 5, 3;
    and.b32 %r4, %r4, 31;
    shl.b32 %r5, %r4, 4;
    shl.b32 %r6, %r3, 9;
    add.u32 %r7, %r5, %r6;
    mov.u32 %r8, smem;
    add.u32 %r9, %r8, %r7;
"""
SMEM = ".shared .align 16 .b8 smem[1024];\n"

LDMATRIX = snippet("ldmatrix", kernel(MATRIX_SETUP + """
    shl.b32 %r10, %r1, 3;
    mad.lo.u32 %r11, %r10, 65537, 65536;
    add.u32 %r12, %r11, 131074;
    add.u32 %r13, %r12, 131074;
    add.u32 %r14, %r13, 131074;
    st.shared.v4.b32 [%r9], {%r11, %r12, %r13, %r14};
    bar.sync 0;
    ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r20, %r21, %r22, %r23}, [%r9];
    ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r24, %r25, %r26, %r27}, [%r9];
    ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r28, %r29}, [%r9];
    ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%r30}, [%r9];
""" + stores([f"%r{i}" for i in range(20, 31)], 64), threads=64, shared=SMEM))


def _element(w, i, r, col):
    """b16 value of row r, column col of matrix i in warp w (see MATRIX_SETUP)."""
    return (w * 32 + 8 * i + r) * 8 + col


def _pair(lo, hi):
    return lo | (hi << 16)


def test_ldmatrix_fragments_follow_the_ptx_isa():
    out, stats = run(LDMATRIX, 11, threads=64)
    tid = np.arange(64)
    w, t = tid // 32, tid % 32
    # Without .trans thread t holds row t // 4, columns 2 (t % 4) and 2 (t % 4) + 1;
    # with .trans the same positions of the transposed matrix.
    plain = [_pair(_element(w, i, t // 4, 2 * (t % 4)), _element(w, i, t // 4, 2 * (t % 4) + 1)) for i in range(4)]
    trans = [_pair(_element(w, i, 2 * (t % 4), t // 4), _element(w, i, 2 * (t % 4) + 1, t // 4)) for i in range(4)]
    expect = plain + trans + plain[:2] + trans[:1]
    for k, e in enumerate(expect):
        assert np.array_equal(out[k], e), k
    assert stats.matrix_loads == 4 * 2
    assert stats.shared_stores == 2


STMATRIX = snippet("stmatrix", kernel(MATRIX_SETUP + """
    shl.b32 %r10, %r1, 3;
    mad.lo.u32 %r20, %r10, 65537, 65536;
    add.u32 %r21, %r20, 131074;
    add.u32 %r22, %r21, 131074;
    add.u32 %r23, %r22, 131074;
    stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r9], {%r20, %r21, %r22, %r23};
    bar.sync 0;
    ld.shared.v4.b32 {%r24, %r25, %r26, %r27}, [%r9];
    bar.sync 0;
    stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%r9], {%r20, %r21, %r22, %r23};
    bar.sync 0;
    ld.shared.v4.b32 {%r28, %r29, %r30, %r31}, [%r9];
    ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r32, %r33, %r34, %r35}, [%r9];
""" + stores([f"%r{i}" for i in range(24, 36)], 64), threads=64, shared=SMEM))


def test_stmatrix_fragments_follow_the_ptx_isa():
    out, stats = run(STMATRIX, 12, threads=64)
    tid = np.arange(64)
    w, lane = tid // 32, tid % 32
    i, r = lane // 8, lane % 8  # the row this lane read back

    def frag(t, i, j):
        """Half j of register i of thread t (in warp w): the value the kernel put there."""
        return (w * 32 + t) * 8 + 2 * i + j

    # plain: row r, columns 2q, 2q+1 come from thread 4r + q
    plain = [_pair(frag(4 * r + q, i, 0), frag(4 * r + q, i, 1)) for q in range(4)]
    # .trans: memory row R, column C holds fragment (row C, column R) = thread 4C + R // 2, half R % 2
    trans = [_pair(frag(4 * (2 * q) + r // 2, i, r % 2), frag(4 * (2 * q + 1) + r // 2, i, r % 2)) for q in range(4)]
    for k in range(4):
        assert np.array_equal(out[k], plain[k]), k
        assert np.array_equal(out[4 + k], trans[k]), k
    # ldmatrix.trans undoes stmatrix.trans: the registers come back
    for k in range(4):
        assert np.array_equal(out[8 + k], _pair(frag(lane, k, 0), frag(lane, k, 1))), k
    assert stats.matrix_stores == 2 * 2 and stats.matrix_loads == 2


LDMATRIX_PARTIAL = snippet("ldmatrix_partial", kernel(MATRIX_SETUP + """
    setp.lt.u32 %p1, %r1, 16;
    @%p1 ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r20}, [%r9];   // MARK
""", threads=32, shared=SMEM))


def test_ldmatrix_needs_whole_warps():
    ptx = LDMATRIX_PARTIAL
    with pytest.raises(SimulationError, match="only part of warp 0") as info:
        run(ptx, 1)
    assert info.value.line == line_of(ptx, "MARK")


# =============================================================================== bank conflicts
def _bank_kernel(access: str, stride: int, threads: int) -> str:
    body = f"""
    mov.u32 %r2, smem;
    mad.lo.u32 %r3, %r1, {stride}, %r2;
    mov.u32 %r4, 0;
    mov.u32 %r5, 0;
    setp.lt.u32 %p1, %r1, 16;
    {access}   // MARK
"""
    return kernel(body, threads=threads, shared=".shared .align 16 .b8 smem[8192];\n")


BANK_CASES = [  # access, stride, threads, wavefronts, lower bound
    ("st.shared.b32 [%r3], %r1;", 128, 32, 32, 1),      # every thread in bank 0
    ("st.shared.b32 [%r3], %r1;", 4, 32, 1, 1),         # one word per bank
    ("st.shared.b32 [%r3], %r1;", 8, 32, 2, 1),         # two words per even bank
    ("st.shared.b32 [%r3], %r1;", 4, 64, 2, 2),         # one wavefront per warp
    ("@%p1 st.shared.b32 [%r3], %r1;", 128, 32, 16, 1),  # only 16 threads execute
    ("st.shared.v4.b32 [%r3], {%r1, %r1, %r1, %r1};", 16, 32, 4, 4),  # 4 phases of 8 lanes
    ("st.shared.v2.b32 [%r3], {%r1, %r1};", 8, 32, 2, 2),             # 2 phases of 16 lanes
    ("st.shared.v2.b32 [%r3], {%r1, %r1};", 16, 32, 4, 2),            # 2-way per phase
    ("st.shared.b8 [%r3], %rs1;", 1, 32, 1, 1),         # 32 bytes = 8 words
    ("ld.shared.b32 %r6, [%r2];", 0, 32, 1, 1),         # broadcast
    ("ld.shared.v4.b32 {%r6, %r7, %r8, %r9}, [%r3];", 32, 32, 8, 4),  # 2-way in every phase
]
BANK_PTX = [snippet(f"bank_{i}", _bank_kernel(a, st, t)) for i, (a, st, t, _, _) in enumerate(BANK_CASES)]


@pytest.mark.parametrize("index", range(len(BANK_CASES)), ids=[f"{c[0].split()[0]}-{c[1]}-{c[2]}" for c in BANK_CASES])
def test_bank_conflict_wavefronts(index):
    access, _, threads, wavefronts, lower_bound = BANK_CASES[index]
    ptx = BANK_PTX[index]
    _, stats = run(ptx, 1, threads=threads)
    assert (stats.wavefronts, stats.wavefront_lower_bound) == (wavefronts, lower_bound)
    assert stats.line_wavefronts == {line_of(ptx, "MARK"): (wavefronts, lower_bound)}
    is_store = "st.shared" in access
    assert (stats.shared_stores, stats.shared_loads) == ((threads // 32, 0) if is_store else (0, threads // 32))


MATRIX_BANKS = {
    stride: snippet(f"ldmatrix_banks_{stride}", kernel(f"""
    mov.u32 %r2, smem;
    mad.lo.u32 %r3, %r1, {stride}, %r2;
    ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{%r4, %r5, %r6, %r7}}, [%r3];
""", shared=".shared .align 16 .b8 smem[4096];\n"))
    for stride in (16, 128)
}


def test_matrix_wavefronts():
    # Rows 16 bytes apart: 8 rows = 32 consecutive words, one wavefront per matrix;
    # rows 128 bytes apart: all rows in banks 0-3, eight wavefronts per matrix.
    for stride, wf in ((16, 4), (128, 32)):
        _, stats = run(MATRIX_BANKS[stride], 1)
        assert (stats.wavefronts, stats.wavefront_lower_bound) == (wf, 4), stride


# =============================================================================== control flow
LOOP = snippet("loop", kernel("""
    mov.u32 %r2, 0;
    mov.u32 %r3, 0;
LOOP:
    add.u32 %r3, %r3, %r2;   // BODY
    add.u32 %r2, %r2, 1;
    setp.lt.u32 %p1, %r2, 10;
    @%p1 bra LOOP;
    add.u32 %r3, %r3, %r1;
""" + stores(["%r3"], 64), threads=64))


def test_loop_and_line_counts():
    out, stats = run(LOOP, 1, threads=64)
    assert np.array_equal(out[0], 45 + np.arange(64))
    assert stats.line_counts[line_of(LOOP, "BODY")] == 10 * 2  # 10 iterations x 2 warps
    assert stats.line_counts[line_of(LOOP, "bra LOOP")] == 10 * 2


DIVERGE = {
    limit: snippet(f"diverge_{limit}", kernel(f"""
    setp.lt.u32 %p1, %r1, {limit};
    @%p1 bra SKIP;   // MARK
    mov.u32 %r2, 1;
SKIP:
""", threads=64))
    for limit in (5, 32)
}


@pytest.mark.parametrize("limit", [5, 32])  # within a warp / between the two warps
def test_divergent_branch_raises_with_the_line(limit):
    ptx = DIVERGE[limit]
    with pytest.raises(SimulationError, match="divergent branch") as info:
        run(ptx, 1, threads=64)
    assert info.value.line == line_of(ptx, "MARK")


GUARDS = snippet("guards", kernel("""
    ld.global.u32 %r2, [%rd5];
    setp.gt.s32 %p1, %r2, 0;
    selp.b32 %r3, 100, 200, %p1;
    mov.u32 %r4, 7;
    @!%p1 mov.u32 %r4, 9;
    setp.ne.s32 %p2, %r2, 3;
    setp.lt.or.s32 %p3, %r2, -5, !%p2;
    selp.u32 %r5, 1, 0, %p3;
    setp.ge.u32 %p4, %r1, 16;
    @%p4 st.global.u32 [%rd3+384], %r2;
    @%p4 ret;
""" + stores(["%r3", "%r4", "%r5"], 32)))


def test_predicates_guards_and_early_exit():
    inp = np.array([-10, -1, 0, 1, 3, 5] + [3] * 26, np.int32).view(np.uint32)
    out, stats = run(GUARDS, 4, inp=inp)
    x = inp.view(np.int32)
    assert np.array_equal(out[0, :16], np.where(x > 0, 100, 200)[:16])
    assert np.array_equal(out[1, :16], np.where(x > 0, 7, 9)[:16])
    assert np.array_equal(out[2, :16], ((x < -5) | (x == 3))[:16].astype(int))
    assert not out[:3, 16:].any()  # threads 16.. returned before their stores
    assert np.array_equal(out[3, 16:], inp[16:]) and not out[3, :16].any()


# =============================================================================== arithmetic
INTS = snippet("ints", kernel("""
    mov.u32 %r2, 0x03020100;
    mov.u32 %r3, 0x07060504;
    prmt.b32 %r10, %r2, %r3, 0x7531;
    prmt.b32 %r11, %r2, %r3, 0x5410;
    mov.u32 %r4, 0x80;
    prmt.b32 %r12, %r4, 0, 0x0008;
    mov.u32 %r5, 0xF0F0F0F0;
    bfe.u32 %r13, %r5, 4, 8;
    bfe.s32 %r14, 0x00000F00, 8, 4;
    bfe.s32 %r15, 0x0000F700, 8, 4;
    bfe.s32 %r16, 0x80000000, 28, 8;
    bfi.b32 %r17, 0, 0x12345678, 8, 8;
    lop3.b32 %r18, 0xF0F0F0F0, 0xCCCCCCCC, 0xAAAAAAAA, 0x96;
    lop3.b32 %r19, 0xF0F0F0F0, 0xCCCCCCCC, 0xAAAAAAAA, 0xE8;
    mul.hi.u32 %r20, 0xFFFFFFFF, 0xFFFFFFFF;
    div.s32 %r21, -7, 2;
    rem.s32 %r22, -7, 2;
    shl.b32 %r23, %r5, 33;
    shr.s32 %r24, -8, 40;
    shr.u32 %r25, 0x80000000, 31;
    mov.b16 %rs1, 0x1111;
    mov.b16 %rs2, 0x2222;
    mov.b32 %r26, {%rs1, %rs2};
    mov.b64 %rd6, 0x1122334455667788;
    mov.b64 {%r27, %r28}, %rd6;
    mul.wide.s32 %rd7, %r1, -3;
    mov.b64 {%r29, %r30}, %rd7;
    mad.lo.s32 %r31, %r1, %r1, -1;
    neg.s32 %r32, %r1;
    min.s32 %r33, %r32, -5;
    max.u32 %r34, %r1, 20;
    not.b32 %r35, %r1;
    cvt.u16.u32 %rs3, 0x12345;
    cvt.u32.u16 %r36, %rs3;
    cvt.s32.s8 %r37, %r4;
    cvt.sat.u8.s32 %r38, 300;
    popc.b32 %r39, 0xF0F0F0F0;
    clz.b32 %r40, 0x00010000;
    brev.b32 %r41, 1;
    bfind.u32 %r42, 0x00010000;
""" + stores([f"%r{i}" for i in range(10, 43)], 32)))


def test_integer_and_bit_instructions():
    out, _ = run(INTS, 33)
    t = np.arange(32)
    expect = [
        0x07050301,            # prmt example of the CUDA docs (cub::PRMT)
        0x05040100,
        0x808080FF,            # selector nibble 8: replicate byte 0's sign bit
        0x0F,
        0xFFFFFFFF,            # field 0xF, sign bit set
        0x7,
        0xFFFFFFF8,            # field past bit 31: only 4 bits, sign from bit 31
        0x12340078,
        0x96969696,            # lop3 0x96 = a ^ b ^ c
        0xE8E8E8E8,            # lop3 0xE8 = majority(a, b, c)
        0xFFFFFFFE,
        (-3) & 0xFFFFFFFF,     # division truncates toward zero
        (-1) & 0xFFFFFFFF,     # remainder has the dividend's sign
        0,                     # shift count >= 32
        0xFFFFFFFF,            # arithmetic shift by >= 32: sign fill
        1,
        0x22221111,            # vector element 0 is the low half
        0x55667788,
        0x11223344,
        (-3 * t) & 0xFFFFFFFF,
        ((-3 * t) >> 32) & 0xFFFFFFFF,
        t * t - 1 & 0xFFFFFFFF,
        -t & 0xFFFFFFFF,
        np.minimum(-t, -5) & 0xFFFFFFFF,
        np.maximum(t, 20),
        ~t & 0xFFFFFFFF,
        0x2345,
        0xFFFFFF80,            # cvt.s32.s8 sign-extends byte 0x80
        255,
        16,
        15,
        0x80000000,
        16,
    ]
    for k, e in enumerate(expect):
        assert np.array_equal(out[k], np.broadcast_to(np.asarray(e, np.int64) & 0xFFFFFFFF, (32,))), (k, hex(int(out[k][0])))


FLOATS = snippet("floats", kernel("""
    mov.f32 %f1, 0f3F800800;
    fma.rn.f32 %f2, %f1, %f1, 0fBF800000;
    mul.rn.f32 %f3, %f1, %f1;
    add.rn.f32 %f3, %f3, 0fBF800000;
    add.rn.f32 %f4, 0f3F800000, 0f33C00000;
    add.rz.f32 %f5, 0f3F800000, 0f33C00000;
    add.rm.f32 %f6, 0fBF800000, 0fB3C00000;
    max.f32 %f7, 0f7FC00000, 0f3F800000;
    max.NaN.f32 %f8, 0f7FC00000, 0f3F800000;
    min.f32 %f9, 0f80000000, 0f00000000;
    max.f32 %f10, 0f80000000, 0f00000000;
    sqrt.rn.f32 %f11, 0f40000000;
    div.rn.f32 %f12, 0f3F800000, 0f40400000;
    rcp.rn.f32 %f13, 0f40400000;
    ex2.approx.f32 %f14, 0f40400000;
    lg2.approx.f32 %f15, 0f41000000;
    rsqrt.approx.f32 %f16, 0f40800000;
    abs.f32 %f17, 0fC0000000;
    neg.f32 %f18, 0f40000000;
    add.sat.f32 %f19, 0f3F800000, 0f3F800000;
    cvt.rn.f32.s32 %f20, -7;
    fma.rn.f32 %f21, %f1, %f1, 0f17800000;
    setp.nan.f32 %p1, %f8, %f8;
    selp.u32 %r20, 1, 0, %p1;
    setp.ltu.f32 %p2, %f8, 0f3F800000;
    selp.u32 %r21, 1, 0, %p2;
    setp.ne.f32 %p3, %f8, 0f3F800000;
    selp.u32 %r22, 1, 0, %p3;
""" + stores([f"%f{i}" for i in range(2, 22)] + ["%r20", "%r21", "%r22"], 32)))


def test_float_instructions():
    out, _ = run(FLOATS, 23)
    expect = [
        0x3A000400,   # fma: 2^-11 + 2^-24, rounded once
        0x3A000000,   # mul then add rounds twice and loses 2^-24
        0x3F800001,   # 1 + 1.5 * 2^-24: nearest is 1 + 2^-23
        0x3F800000,   # .rz
        0xBF800001,   # .rm of -(1 + 1.5 * 2^-24)
        0x3F800000,   # max ignores one NaN
        0x7FFFFFFF,   # max.NaN: canonical NaN
        0x80000000,   # min(-0, +0) = -0
        0x00000000,   # max(-0, +0) = +0
        0x3FB504F3,   # sqrt(2)
        0x3EAAAAAB,   # 1 / 3
        0x3EAAAAAB,
        f32_bits(8.0),
        f32_bits(3.0),
        f32_bits(0.5),
        f32_bits(2.0),
        f32_bits(-2.0),
        f32_bits(1.0),  # .sat
        f32_bits(-7.0),
        # (1 + 2^-12)^2 + 2^-80 = 1 + 2^-11 + 2^-24 + 2^-80: just above a float32 tie.
        # Rounding to float64 first would drop 2^-80 and then round the tie to even.
        0x3F801001,
        1, 1, 0,       # nan; ltu true on NaN; ne (ordered) false on NaN
    ]
    for k, e in enumerate(expect):
        assert np.all(out[k] == e), (k, hex(int(out[k][0])))


CVT_IN = np.array(
    [1.0, 2.5, 3.5, -2.5, -2.7, -2.2, 3e9, -3e9, np.nan, 448.0, 1000.0, -1.5, 2.0**-9, 2.0**-10, 0.0,
     57344.0, 1e6, -2.0, np.inf, 1 + 1.75 * 2**-10, 65520.0, 1e-8]
    + [0.0] * 10, np.float32,
)
BF16_IN = np.array([0x3F800000, 0x3F808000, 0x3F818000, 0x3F80C000, 0x7FC00000, 0x7F800000, 0x7F7FFFFF,
                    0x80000001] + [0] * 24, np.uint32)
CVT = snippet("cvt", kernel("""
    ld.global.f32 %f1, [%rd5];
    cvt.rn.f16.f32 %rs1, %f1;
    cvt.u32.u16 %r10, %rs1;
    cvt.rz.f16.f32 %rs2, %f1;
    cvt.u32.u16 %r11, %rs2;
    cvt.rni.s32.f32 %r12, %f1;
    cvt.rzi.s32.f32 %r13, %f1;
    cvt.rmi.s32.f32 %r14, %f1;
    cvt.rn.satfinite.e4m3x2.f32 %rs3, %f1, %f1;
    cvt.u32.u16 %r15, %rs3;
    cvt.rn.satfinite.e5m2x2.f32 %rs4, %f1, %f1;
    cvt.u32.u16 %r16, %rs4;
    cvt.rn.bf16.f32 %rs5, %f1;
    cvt.u32.u16 %r17, %rs5;
    cvt.f32.f16 %f2, %rs1;
    cvt.rn.f16x2.f32 %r18, 0f3F800000, 0fC0000000;
    cvt.rn.bf16x2.f32 %r19, 0f3F800000, 0fC0000000;
    mov.b16 %rs6, 0x38C0;
    cvt.rn.f16x2.e4m3x2 %r20, %rs6;
    mov.b16 %rs7, 0x3CC0;
    cvt.rn.f16x2.e5m2x2 %r21, %rs7;
    cvt.rn.satfinite.e4m3x2.f16x2 %rs8, %r18;
    cvt.u32.u16 %r22, %rs8;
""" + stores([f"%r{i}" for i in range(10, 18)] + ["%f2"] + [f"%r{i}" for i in range(18, 23)], 32)))


def test_conversions():
    out, _ = run(CVT, 14, inp=CVT_IN.view(np.uint32))
    x = CVT_IN.astype(np.float64)
    n = 22
    with np.errstate(over="ignore"):
        f16 = CVT_IN.astype(np.float16).view(np.uint16)  # numpy: IEEE round to nearest even
    finite = ~np.isnan(CVT_IN[:n])
    assert np.array_equal(out[0, :n][finite], f16[:n][finite])
    assert out[0, 8] & 0x7C00 == 0x7C00 and out[0, 8] & 0x3FF  # NaN stays NaN
    # .rz differs from .rn where the nearest is away from zero
    assert out[1, 19] == 0x3C01 and out[0, 19] == 0x3C02
    assert out[1, 20] == 0x7BFF and out[0, 20] == 0x7C00  # 65520 rounds to inf, truncates to max
    ints = out[2:5, :9].view(np.int32)
    assert list(ints[0]) == [1, 2, 4, -2, -3, -2, 2**31 - 1, -(2**31), 0]   # rni (ties to even), saturating
    assert list(ints[1]) == [1, 2, 3, -2, -2, -2, 2**31 - 1, -(2**31), 0]   # rzi
    assert list(ints[2]) == [1, 2, 3, -3, -3, -3, 2**31 - 1, -(2**31), 0]   # rmi
    e4m3 = {0: 0x38, 8: 0x7F, 9: 0x7E, 10: 0x7E, 11: 0xBC, 12: 0x01, 13: 0x00, 14: 0x00, 17: 0xC0, 18: 0x7E}
    e5m2 = {0: 0x3C, 15: 0x7B, 16: 0x7B, 17: 0xC0, 14: 0x00, 18: 0x7B}
    for i, code in e4m3.items():
        assert out[5, i] == code * 0x101, (i, hex(int(out[5, i])))
    for i, code in e5m2.items():
        assert out[6, i] == code * 0x101, (i, hex(int(out[6, i])))
    assert out[7, 0] == 0x3F80 and out[7, 17] == 0xC000 and out[7, 8] == 0x7FFF and out[7, 18] == 0x7F80
    with np.errstate(over="ignore"):
        back = x[:n].astype(np.float16).astype(np.float32)
    assert np.array_equal(out[8, :n].view(np.float32), back, equal_nan=True)
    assert np.all(out[9] == 0x3C00C000) and np.all(out[10] == 0x3F80C000)
    assert np.all(out[11] == 0x3C00C000)  # e4m3 0x38 = 1.0 (high), 0xC0 = -2.0 (low)
    assert np.all(out[12] == 0x3C00C000)  # e5m2 0x3C = 1.0, 0xC0 = -2.0
    assert np.all(out[13] == 0x38C0)


CVT64 = snippet("cvt64", kernel("""
    mov.b64 %rd6, 0x1000000000000001;
    neg.s64 %rd7, %rd6;
    mov.b64 %rd8, 0xFFFFFFFFFFFFFFFF;
    cvt.rn.f32.s64 %f1, %rd6;
    cvt.rz.f32.s64 %f2, %rd6;
    cvt.rp.f32.s64 %f3, %rd6;
    cvt.rm.f32.s64 %f4, %rd7;
    cvt.rz.f32.s64 %f5, %rd7;
    cvt.rn.f32.u64 %f6, %rd8;
    cvt.rz.f32.u64 %f7, %rd8;
""" + stores([f"%f{i}" for i in range(1, 8)], 32)))


def test_64_bit_integers_to_float_round_exactly():
    out, _ = run(CVT64, 7)
    up = np.nextafter(np.float32(2.0**60), np.float32(np.inf))  # 2^60 (1 + 2^-23)
    below = np.nextafter(np.float32(2.0**64), np.float32(0))     # largest float32 below 2^64
    expect = [2.0**60, 2.0**60, up, -up, -(2.0**60), 2.0**64, below]
    for k, e in enumerate(expect):
        assert np.all(out[k].view(np.float32) == np.float32(e)), k


BF16 = snippet("bf16", kernel("""
    ld.global.f32 %f1, [%rd5];
    cvt.rn.bf16.f32 %rs1, %f1;
    cvt.u32.u16 %r10, %rs1;
""" + stores(["%r10"], 32)))


def test_bf16_rounding_is_nearest_even():
    out, _ = run(BF16, 1, inp=BF16_IN)
    # 1.0; tie -> even (down); tie -> even (up); above half -> up; NaN; inf; max f32 -> inf; tiny -> 0
    assert list(out[0, :8]) == [0x3F80, 0x3F80, 0x3F82, 0x3F81, 0x7FFF, 0x7F80, 0x7F80, 0x8000]


HALF = snippet("half", kernel("""
    mov.b32 %r2, 0x3C004000;
    mov.b32 %r3, 0x40003C00;
    add.f16x2 %r10, %r2, %r3;
    mul.f16x2 %r11, %r2, %r3;
    fma.rn.f16x2 %r12, %r2, %r3, %r2;
    mov.b32 %r4, 0x3F804000;
    mov.b32 %r5, 0x40003F80;
    add.rn.bf16x2 %r13, %r4, %r5;
    mov.b16 %rs1, 0x3C00;
    mov.b16 %rs2, 0x1400;
    add.f16 %rs3, %rs1, %rs2;
    cvt.u32.u16 %r14, %rs3;
    max.f16x2 %r15, %r2, %r3;
""" + stores([f"%r{i}" for i in range(10, 16)], 32)))


def test_half_precision():
    out, _ = run(HALF, 6)
    # (1, 2) + (2, 1) = (3, 3); (1, 2) * (2, 1) = (2, 2); fma (2, 2) + (1, 2) = (3, 4)
    assert np.all(out[0] == 0x42004200) and np.all(out[1] == 0x40004000) and np.all(out[2] == 0x42004400)
    assert np.all(out[3] == 0x40404040)  # bf16 (1, 2) + (2, 1) = (3, 3)
    # 1 + 2^-10 * 1.0 is exactly 1 + ulp: 0x3C01
    assert np.all(out[4] == 0x3C01)
    assert np.all(out[5] == 0x40004000)


# =============================================================================== memory, special registers
SPECIAL = snippet("special", kernel("""
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ctaid.y;
    mov.u32 %r4, %nctaid.x;
    mov.u32 %r5, %nctaid.y;
    mad.lo.u32 %r6, %r3, %r4, %r2;
    mul.lo.u32 %r7, %r6, 32;
    add.u32 %r8, %r7, %r1;
    mul.wide.u32 %rd6, %r8, 4;
    add.s64 %rd7, %rd1, %rd6;
    shl.b32 %r9, %r3, 8;
    or.b32 %r10, %r2, %r9;
    shl.b32 %r11, %r4, 16;
    or.b32 %r10, %r10, %r11;
    shl.b32 %r12, %r5, 24;
    or.b32 %r10, %r10, %r12;
    mov.u32 %r13, %laneid;
    add.u32 %r10, %r10, %r13;
    st.global.u32 [%rd7], %r10;
""", threads=32))


def test_grid_and_special_registers():
    out = np.zeros(6 * 32, np.uint32)
    stats = simulate_ptx(SPECIAL, (2, 3), [out, np.zeros(1, np.uint32)])
    got = out.reshape(3, 2, 32)
    for y in range(3):
        for x in range(2):
            assert np.array_equal(got[y, x], (x | y << 8 | 2 << 16 | 3 << 24) + np.arange(32))
    assert stats.ctas == 6 and stats.grid == (2, 3, 1)


PARTIAL_WARP = snippet("partial_warp", HEADER + """
.visible .entry k(
    .param .u64 k_param_0
)
.maxntid 64, 1, 1
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [k_param_0];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ntid.x;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
    ret;
}
""")


def test_block_size_from_the_caller_with_a_partial_warp():
    out = np.zeros(48, np.uint32)
    stats = simulate_ptx(PARTIAL_WARP, 1, [out], block=48)
    assert np.all(out == 48)  # 48 threads, none beyond the buffer
    assert stats.block == (48, 1, 1)
    assert stats.thread_instructions == 7 * 48 and stats.instructions == 7 * 2
    with pytest.raises(SimulationError, match="no .reqntid|exceeds"):
        simulate_ptx(PARTIAL_WARP, 1, [out], block=96)


SHARED_FRESH = snippet("shared_fresh", kernel("""
    mov.u32 %r2, smem;
    mad.lo.u32 %r3, %r1, 4, %r2;
    ld.shared.u32 %r4, [%r3];
    mov.u32 %r5, %ctaid.x;
    add.u32 %r5, %r5, 1;
    st.shared.u32 [%r3], %r5;
    mul.lo.u32 %r6, %r5, 128;
    mul.wide.u32 %rd6, %r6, 1;
    add.s64 %rd7, %rd3, %rd6;
    st.global.u32 [%rd7+-128], %r4;
""", shared=".shared .align 4 .b8 smem[128];\n"))


def test_shared_memory_is_fresh_per_cta():
    """Each CTA reads the never-written pattern, not the previous CTA's values."""
    from ltc.lowering.ptxsim.machine import SHARED_POISON

    out = np.full(3 * 32, 7, np.uint32)
    simulate_ptx(SHARED_FRESH, 3, [out, np.zeros(1, np.uint32)])
    assert (out == SHARED_POISON * 0x01010101).all()


BAD_ACCESSES = {
    name: (snippet(name, kernel(f"    {access}   // MARK\n", shared=".shared .align 4 .b8 smem[128];\n")), message)
    for name, access, message in [
        ("oob_global", "st.global.u32 [%rd3+128], %r1;", "outside every global buffer"),
        ("misaligned", "st.global.u32 [%rd3+2], %r1;", "not aligned"),
        ("oob_shared", "mov.u32 %r2, smem;\n    st.shared.u32 [%r2+128], %r1;", "outside shared memory"),
        ("below_shared", "shl.b32 %r2, %r1, 2;\n    st.shared.u32 [%r2], %r1;", "outside shared memory"),
    ]
}


@pytest.mark.parametrize("name", sorted(BAD_ACCESSES))
def test_bad_accesses_raise_with_the_line(name):
    ptx, message = BAD_ACCESSES[name]
    with pytest.raises(SimulationError, match=message) as info:
        run(ptx, 1)
    assert info.value.line == line_of(ptx, "MARK")


GENERIC = snippet("generic", kernel("""
    mov.u32 %r2, smem;
    mad.lo.u32 %r3, %r1, 4, %r2;
    cvt.u64.u32 %rd6, %r3;
    cvta.shared.u64 %rd7, %rd6;
    st.u32 [%rd7], %r1;
    ld.shared.u32 %r4, [%r3];
    cvta.to.global.u64 %rd8, %rd3;
    ld.u32 %r5, [%rd5];
    add.u32 %r4, %r4, %r5;
    st.u32 [%rd8], %r4;
""", shared=".shared .align 4 .b8 smem[128];\n"))


def test_generic_addressing():
    inp = np.arange(32, dtype=np.uint32) * 100
    out, stats = run(GENERIC, 1, inp=inp)
    assert np.array_equal(out[0], np.arange(32) + inp)
    assert stats.shared_stores == 1 and stats.shared_loads == 1
    assert stats.global_loads == {32: 1} and stats.global_stores == {32: 1}


ATOMICS = snippet("atomics", kernel("""
    atom.global.add.u32 %r2, [%rd4], 1;
    red.global.add.f32 [%rd4+4], 0f3F000000;
    vote.sync.ballot.b32 %r3, %p15, -1;
    and.b32 %r4, %r1, 1;
    setp.eq.u32 %p1, %r4, 1;
    vote.sync.ballot.b32 %r5, %p1, -1;
    atom.global.max.s32 %r6, [%rd4+8], %r1;
""" + stores(["%r2", "%r5"], 64), threads=64))


def test_atomics_and_votes():
    inp = np.zeros(3, np.uint32)
    out, stats = run(ATOMICS, 2, threads=64, inp=inp)
    assert sorted(out[0]) == list(range(64)) and inp[0] == 64
    assert inp[1].view(np.float32) == 32.0
    assert inp[2] == 63
    assert np.all(out[1] == 0xAAAAAAAA)
    assert stats.atomics == 3 * 2


SCALARS = HEADER + """
.visible .entry scal(
    .param .u64 scal_param_0,
    .param .f32 scal_param_1,
    .param .s32 scal_param_2,
    .param .u16 scal_param_3,
    .param .f64 scal_param_4
)
.reqntid 32
{
    .reg .b16 %rs<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [scal_param_0];
    ld.param.f32 %r1, [scal_param_1];
    ld.param.s32 %r2, [scal_param_2];
    ld.param.u16 %rs1, [scal_param_3];
    cvt.u32.u16 %r3, %rs1;
    ld.param.f64 %rd2, [scal_param_4];
    mov.b64 {%r4, %r5}, %rd2;
    st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
    st.global.u32 [%rd1+16], %r5;
    ret;
}
"""
SNIPPETS["scalars"] = SCALARS


def test_scalar_parameters():
    out = np.zeros(5, np.uint32)
    simulate_ptx(SCALARS, 1, [out, 1.5, -4, 65535, 2.0])
    d = struct.unpack("<II", struct.pack("<d", 2.0))
    assert list(out) == [f32_bits(1.5), (-4) & 0xFFFFFFFF, 65535, d[0], d[1]]


def test_argument_errors():
    with pytest.raises(SimulationError, match="takes 5 arguments"):
        simulate_ptx(SCALARS, 1, [np.zeros(5, np.uint32)])
    with pytest.raises(SimulationError, match="takes an integer"):
        simulate_ptx(SCALARS, 1, [np.zeros(5, np.uint32), 1.5, 2.5, 1, 2.0])
    with pytest.raises(SimulationError, match="does not fit"):
        simulate_ptx(SCALARS, 1, [np.zeros(5, np.uint32), 1.5, 2**40, 1, 2.0])
    with pytest.raises(SimulationError, match="differs from the kernel's .reqntid"):
        simulate_ptx(SCALARS, 1, [np.zeros(5, np.uint32), 1.5, 1, 1, 2.0], block=64)


CP_ASYNC = snippet("cp_async", kernel("""
    mov.u32 %r2, smem;
    mad.lo.u32 %r3, %r1, 16, %r2;
    mul.wide.u32 %rd6, %r1, 16;
    add.s64 %rd7, %rd4, %rd6;
    cp.async.cg.shared.global [%r3], [%rd7], 16, 8;
    cp.async.commit_group;
    cp.async.wait_group 0;
    bar.sync 0;
    ld.shared.v4.u32 {%r4, %r5, %r6, %r7}, [%r3];
""" + stores(["%r4", "%r5", "%r6", "%r7"], 32), shared=".shared .align 16 .b8 smem[512];\n"))


def test_cp_async_copies_and_zero_fills():
    inp = np.arange(1, 129, dtype=np.uint32)
    out, _ = run(CP_ASYNC, 4, inp=inp)
    t = np.arange(32)
    assert np.array_equal(out[0], inp[4 * t]) and np.array_equal(out[1], inp[4 * t + 1])
    assert not out[2:].any()  # src-size 8 of 16: the rest is zero


def test_speed_of_a_long_straight_line_kernel():
    # ~3000 instructions for one CTA of 256 threads
    body = "".join(
        f"    add.u32 %r{2 + i % 40}, %r{2 + (i + 7) % 40}, %r1;\n    xor.b32 %r{2 + (i + 3) % 40}, %r{2 + i % 40}, {i};\n"
        f"    mul.lo.u32 %r{2 + (i + 5) % 40}, %r{2 + (i + 3) % 40}, 3;\n"
        for i in range(1000)
    )
    ptx = kernel(body + stores(["%r2"], 256), threads=256)
    start = time.perf_counter()
    _, stats = run(ptx, 1, threads=256)
    seconds = time.perf_counter() - start
    assert stats.instructions == (3000 + 6 + 1 + 1) * 8
    assert seconds < 1.5, seconds


# =============================================================================== Triton's PTX
def _conversion_cases():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from convert_cases import CASES
    finally:
        sys.path.pop(0)
    return CASES


_ELEMENT = {"f16": np.uint16, "bf16": np.uint16, "f32": np.uint32, "i8": np.uint8, "i16": np.uint16,
            "i32": np.uint32, "i64": np.uint64, "fp8e5": np.uint8, "fp8e4nv": np.uint8}


@pytest.mark.parametrize("case", _conversion_cases(), ids=lambda c: c.name)
def test_triton_conversion_ptx_is_a_copy(case):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from triton_convert import triton_convert_counts

        try:
            counts = triton_convert_counts(case)
        except ImportError as e:  # no cached PTX and no Triton to compile it
            pytest.skip(f"Triton unavailable: {e}")
    finally:
        sys.path.pop(0)
    dt = _ELEMENT[case.dtype]
    n = int(np.prod(case.shape))
    rng = np.random.default_rng(zlib.crc32(case.name.encode()))
    x = rng.integers(0, np.iinfo(dt).max, size=n, dtype=dt, endpoint=True)
    y = np.zeros_like(x)
    # Triton 3.9 kernels take two extra scratch pointers (unused here).
    stats = simulate_ptx(counts.ptx, 1, [x, y, None, None])
    assert stats.threads_per_cta == 32 * case.num_warps
    assert np.array_equal(y, x)
    # Dynamic counts agree with the static counts of the text: the conversion code
    # is straight-line and unpredicated, so each warp runs each instruction once.
    w = case.num_warps
    assert stats.shared_stores == counts.st_shared * w
    assert stats.shared_loads == counts.ld_shared * w
    assert stats.matrix_stores == counts.stmatrix * w and stats.matrix_loads == counts.ldmatrix * w
    assert stats.shuffles == counts.shfl * w
    assert stats.barriers == counts.bar_sync
    assert stats.wavefronts >= stats.wavefront_lower_bound


def test_triton_vector_add():
    text = (EXAMPLES / "vector_add.ptx").read_text()
    rng = np.random.default_rng(1)
    n = 3000  # not a multiple of BLOCK = 1024: the last CTA is masked
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = np.zeros(n, np.float32)
    stats = simulate_ptx(text, 3, [x, y, out, n, None, None])
    assert np.array_equal(out, x + y)
    assert stats.block == (128, 1, 1)


def test_triton_softmax():
    text = (EXAMPLES / "softmax.ptx").read_text()
    rng = np.random.default_rng(2)
    rows, cols, stride = 5, 1000, 1024
    inp = (rng.standard_normal((rows, stride)) * 3).astype(np.float32)
    out = np.full((rows, stride), 7, np.float32)
    stats = simulate_ptx(text, rows, [out, inp, stride, stride, cols, None, None])
    x = inp[:, :cols].astype(np.float64)
    ref = np.exp(x - x.max(axis=1, keepdims=True))
    ref /= ref.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(out[:, :cols], ref, rtol=2e-6, atol=1e-9)
    assert np.all(out[:, cols:] == 7)  # masked columns untouched
    assert stats.barriers == 3 * rows


def test_triton_layer_norm():
    text = (EXAMPLES / "layer_norm.ptx").read_text()
    rng = np.random.default_rng(3)
    rows, n, stride, eps = 4, 1500, 2048, 1e-5
    x = rng.standard_normal((rows, stride)).astype(np.float16)
    y = np.zeros((rows, stride), np.float16)
    w, b = rng.standard_normal(stride).astype(np.float32), rng.standard_normal(stride).astype(np.float32)
    simulate_ptx(text, rows, [x, y, w, b, stride, n, eps, None, None])
    xs = x[:, :n].astype(np.float64)
    mean = xs.mean(axis=1, keepdims=True)
    var = ((xs - mean) ** 2).mean(axis=1, keepdims=True)
    ref = (xs - mean) / np.sqrt(var + eps) * w[:n] + b[:n]
    # one f16 rounding of the result, plus float32 reduction order
    np.testing.assert_allclose(y[:, :n].astype(np.float64), ref, rtol=2e-3, atol=2e-3)
    assert not y[:, n:].any()


# =============================================================================== ptxas
@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas not on PATH")
def test_hand_written_snippets_assemble(tmp_path):
    """The snippets above are real PTX: ptxas -arch=sm_90 accepts every one."""
    failures = []
    for name, text in sorted(SNIPPETS.items()):
        path = tmp_path / f"{name}.ptx"
        path.write_text(text)
        proc = subprocess.run(
            ["ptxas", "-arch=sm_90", str(path), "-o", os.devnull], capture_output=True, text=True
        )
        if proc.returncode:
            failures.append(f"{name}: {proc.stderr.strip()}")
    assert not failures, "\n".join(failures)
