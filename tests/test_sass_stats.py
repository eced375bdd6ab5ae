"""benchmarks/sass_stats.py: PTX and SASS instruction counting (exact counts of hand-written
snippets), and assembling a hand-written kernel with ptxas + cuobjdump (skipped without them)."""

from __future__ import annotations

import os
import sys

import pytest

# Top-level imports: xdsl installs a package named ``benchmarks`` that shadows the folder.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks"))
import sass_stats as ss  # noqa: E402

SASS = """
	code for sm_90
		Function : k
	.headerflags	@"EF_CUDA_ACCELERATORS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                         /* 0x00000a00ff017b82 */
                                                                                  /* 0x000fe20000000800 */
        /*0010*/                   LDG.E.128 R4, desc[UR6][R2.64] ;               /* 0x0000000602047981 */
        /*0020*/               @P0 LDG.E.U16 R8, desc[UR6][R2.64+0x10] ;          /* 0x0000100602080981 */
        /*0030*/              @!P1 LDG.E R9, desc[UR6][R2.64+0x20] ;              /* 0x0000200602099981 */
        /*0040*/                   STS.128 [R0], R4 ;                             /* 0x0000000400007388 */
        /*0050*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;                  /* 0x0000000000007b1d */
        /*0060*/                   LDSM.16.M88.4 R12, [R0] ;                      /* 0x000000000000783b */
        /*0070*/                   SHFL.BFLY PT, R3, R2, 0x1, 0x1f ;              /* 0x0c201f0002037f89 */
        /*0080*/                   WARPSYNC 0xffffffff ;                          /* 0xffffffff00007948 */
        /*0090*/                   STG.E.64 desc[UR6][R2.64], R4 ;                /* 0x0000000402007986 */
        /*00a0*/                   STG.E.U8 desc[UR6][R2.64+0x8], R6 ;            /* 0x0000080602007986 */
        /*00b0*/              @!PT LDS RZ, [RZ] ;                                 /* 0x00000000ff007984 */
        /*00c0*/                   ATOMS.ADD RZ, [R0], R1 ;                       /* 0x000000010000738c */
        /*00d0*/                   BAR.ARV 0x1, 0x40 ;                            /* 0x0000000000007b1d */
        /*00e0*/                   BRA 0x40;                                      /* 0xfffffffc00fc7947 */
        /*00f0*/                   EXIT ;                                         /* 0x000000000000794d */
        /*0100*/                   BRA 0x100;                                     /* 0xfffffffc00fc7947 */
        /*0110*/                   NOP;                                           /* 0x0000000000007918 */
        /*0120*/                   NOP;                                           /* 0x0000000000007918 */
"""


class Test_SassCounts:
    def test_counts(self) -> None:
        c = ss.sass_counts(SASS)
        # 0x0000..0x00f0 are 16 instructions; the self-branch at 0x100 and the NOPs are not counted
        assert c.instructions == 16
        assert c.shared == 3  # STS.128, LDSM, ATOMS (the @!PT LDS never runs)
        assert c.shuffles == 1
        assert c.barriers == 2  # BAR.SYNC.DEFER_BLOCKING, BAR.ARV; not WARPSYNC
        assert c.global_loads == ((16, 1), (32, 1), (128, 1))
        assert c.global_stores == ((8, 1), (64, 1))

    def test_empty(self) -> None:
        assert ss.sass_counts("no code here") == ss.SassCounts(0, 0, 0, 0, (), ())


PTX = """
.visible .entry k(.param .u64 k_param_0)
{
	.reg .b32 %r<9>;
	// ld.global.v4.b32 in a comment is not an instruction
	ld.param.u64 	%rd1, [k_param_0];
	// begin inline asm
	@%p1 ld.global.v4.b32 { %r1, %r2, %r3, %r4 }, [ %rd1 + 0 ];
	// end inline asm
	@!%p2 ld.global.L1::evict_last.b16 %rs1, [%rd1];
	ld.global.nc.v2.u32 	{%r5, %r6}, [%rd1];
	st.global.v2.f32 	[%rd1], {%f1, %f2};
	st.global.v4.b32 	[%rd1+16], {%r1, %r2, %r3, %r4};
	st.global.b16 	[%rd1], %rs1;
	{ .reg .pred %p9; setp.ne.b32 %p9, %r1, 0; @%p9 st.global.v4.b32 [%rd1], {%r1, %r2, %r3, %r4}; }
	st.shared.v4.b32 	[%r5], {%r1, %r2, %r3, %r4};
	ld.shared.b32 	%r7, [%r5];
	ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%r5];
	stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%r5], {%r1, %r2};
	shfl.sync.bfly.b32 	%r8, %r7, 1, 31, -1;
	bar.sync 	0;
	barrier.sync 	0;
	bar.warp.sync 	-1;
$L__BB0_1:
	ret;
}
"""


class Test_PtxCounts:
    def test_counts(self) -> None:
        c = ss.ptx_counts(PTX)
        assert (c.ld_shared, c.st_shared, c.ldmatrix, c.stmatrix, c.shfl, c.bar_sync) == (1, 1, 1, 1, 1, 2)
        assert c.global_loads == (("b16", 1), ("v2.b32", 1), ("v4.b32", 1))
        assert c.global_stores == (("b16", 1), ("v2.b32", 1), ("v4.b32", 2))

    @pytest.mark.parametrize(
        "shape,bits", [("b8", 8), ("b16", 16), ("b32", 32), ("v2.b32", 64), ("v4.b32", 128), ("v2.b64", 128)]
    )
    def test_bits(self, shape: str, bits: int) -> None:
        assert ss.ptx_global_bits(shape) == bits

    def test_bad_shape(self) -> None:
        with pytest.raises(ValueError):
            ss.ptx_global_bits("v4.f32")

    def test_widths_text(self) -> None:
        assert ss.widths_text((("b16", 2), ("v4.b32", 4))) == "2xb16+4xv4.b32"
        assert ss.widths_text(((128, 4),)) == "4x128"
        assert ss.widths_text(()) == "-"


# A kernel whose SASS is known in kind: one 128-bit load, one 16-bit store, one STS, one LDS,
# one barrier, one shuffle.  `.version 99.9` is newer than any ptxas: it must be lowered.
KERNEL = """
.version 99.9
.target sm_90
.address_size 64

.visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)
.reqntid 128
{
	.reg .b16 	%rs<2>;
	.reg .b32 	%r<16>;
	.reg .b64 	%rd<6>;
	.shared .align 16 .b8 smem[512];

	ld.param.u64 	%rd1, [k_param_0];
	ld.param.u64 	%rd2, [k_param_1];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 16;
	add.s64 	%rd4, %rd1, %rd3;
	ld.global.v4.b32 	{%r2, %r3, %r4, %r5}, [%rd4];
	shl.b32 	%r6, %r1, 2;
	mov.u32 	%r7, smem;
	add.s32 	%r8, %r7, %r6;
	st.shared.b32 	[%r8], %r2;
	bar.sync 	0;
	xor.b32 	%r9, %r6, 4;
	add.s32 	%r10, %r7, %r9;
	ld.shared.b32 	%r11, [%r10];
	shfl.sync.bfly.b32 	%r12, %r11, 1, 31, -1;
	add.s32 	%r13, %r12, %r3;
	add.s32 	%r14, %r4, %r5;
	add.s32 	%r15, %r13, %r14;
	cvt.u16.u32 	%rs1, %r15;
	mul.wide.u32 	%rd5, %r1, 2;
	add.s64 	%rd5, %rd2, %rd5;
	st.global.b16 	[%rd5], %rs1;
	ret;
}
"""


def _tools_or_skip() -> None:
    try:
        ss.find_tool("ptxas")
        ss.find_tool("cuobjdump")
    except ss.ToolMissing as e:
        pytest.skip(str(e))


class Test_Assemble:
    def test_kernel(self) -> None:
        _tools_or_skip()
        cubin, usage = ss.assemble_verbose(KERNEL, "sm_90")
        c = ss.sass_counts(ss.sass_text(cubin))
        assert (c.shared, c.shuffles, c.barriers) == (2, 1, 1)
        assert c.global_loads == ((128, 1),) and c.global_stores == ((16, 1),)
        assert usage.ptx_version_lowered_from == "99.9"
        assert usage.smem_bytes == 512 and usage.barriers == 1
        assert usage.registers is not None and usage.registers > 0

    def test_sm90a_target(self) -> None:
        _tools_or_skip()
        cubin = ss.assemble(KERNEL.replace(".target sm_90\n", ".target sm_90a\n"), "sm_90")
        assert "sm_90a" in ss.sass_text(cubin)

    def test_error_carries_ptxas_message(self) -> None:
        _tools_or_skip()
        with pytest.raises(ss.AssembleError, match="kernel.ptx"):
            ss.assemble(KERNEL.replace("add.s32 \t%r13", "bogus.s32 \t%r13"), "sm_90")

    def test_missing_tool(self, monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
        monkeypatch.setenv("PTXAS", str(tmp_path / "no-such-ptxas"))
        with pytest.raises(ss.ToolMissing, match="PTXAS"):
            ss.assemble(KERNEL)
