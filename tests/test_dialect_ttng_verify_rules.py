"""Verifier rules of the ``ttng`` ops that need layouts, and the module-level order of
checks, each compared with Triton 3.9 on the same text.

Every invalid case names the line and message ltc-opt reports; where Triton is
installed, Triton must reject the text at the same line with a diagnostic containing
the same message. Every valid case must pass ltc and round-trip through Triton.
"""

from __future__ import annotations

import io
import re

import pytest

from ltc.tools.opt import run
from tests import oracle

SMEM = "#ttg.shared_memory"


def module(body: str, *, ctas: int = 1, warps: int = 4, extra: str = "", aliases: str = "", args: str = "") -> str:
    """A module whose function ``@f(args)`` runs ``body`` (line 1 is the first alias)."""
    lines = "".join(f"    {line.strip()}\n" for line in body.strip().splitlines())
    return (
        f"{aliases.strip()}\n"
        f'module attributes {{"ttg.num-ctas" = {ctas} : i32, "ttg.num-warps" = {warps} : i32{extra}}} {{\n'
        f"  tt.func @f({args}) {{\n{lines}    tt.return\n  }}\n}}\n"
    )


def ltc_diagnostic(text: str) -> tuple[int, str] | None:
    """(line, message) of ltc-opt's first error, or None when it accepts ``text``."""
    out, err = io.StringIO(), io.StringIO()
    if run(["-", "--allow-unregistered-dialect"], io.StringIO(text), out, err) == 0:
        return None
    m = re.match(r"<stdin>:(\d+):\d+: error: (.*)", err.getvalue(), re.S)
    assert m is not None, err.getvalue()
    line, rest = int(m.group(1)), m.group(2)
    # The message ends where the quoted source line starts.
    return line, rest.rsplit("\n", 3)[0]


SHARED1 = "#s1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>"
TMEM = "#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>"
BLOCKED2 = "#b2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>"
BLOCKED4 = "#b4 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
NVMMA = "#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>"


def barrier_aliases(cga: str) -> str:
    return f"#bar = #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = {cga}}}>"


def tma_load(n: int) -> str:
    return (
        "%c0 = arith.constant 0 : i32\n%t = arith.constant true\n"
        f"ttng.async_tma_copy_global_to_local %d[%c0, %c0] %buf, %bar, %t : !tt.tensordesc<64x128xf16, #nv>, "
        f"!ttg.memdesc<{n}xi64, #bar, {SMEM}, mutable> -> !ttg.memdesc<64x128xf16, #nv, {SMEM}, mutable>"
    )


def tma_args(n: int) -> str:
    return (
        f"%d: !tt.tensordesc<64x128xf16, #nv>, %buf: !ttg.memdesc<64x128xf16, #nv, {SMEM}, mutable>, "
        f"%bar: !ttg.memdesc<{n}xi64, #bar, {SMEM}, mutable>"
    )


NVMMA4 = (
    "#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16, "
    "CGALayout = [[1, 0], [0, 1]]}>"
)


def reduce_case(spt: str, tpw: str, wpc: str, warps: int, n: int) -> str:
    aliases = (
        f"#bs = #ttg.blocked<{{sizePerThread = {spt}, threadsPerWarp = {tpw}, warpsPerCTA = {wpc}, order = [0, 1]}}>\n"
        f"#br = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [{warps}], order = [0]}}>\n"
        f"#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = {n}, colStride = 1>"
    )
    ty = f"!ttg.memdesc<128x{n}xf32, #tm, #ttng.tensor_memory, mutable>"
    return module(
        f"%r, %red = ttng.tmem_load %m {{redOp = #ttng.redOp<min>}} : {ty} -> tensor<128x{n}xf32, #bs>, "
        "tensor<128xf32, #br>",
        warps=warps, aliases=aliases, args=f"%m: {ty}", extra=', ttg.target = "cuda:107"',
    )


def tmem_arg(ty: str, enc: str = TMEM) -> str:
    return module("", aliases=enc, args=f"%a: {ty}")


# (name, text, line, message): ltc and Triton reject ``text`` at ``line`` saying ``message``.
INVALID: list[tuple[str, str, int, str]] = [
    (
        "tmem_alloc_ctas",
        module(f"%0 = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>",
               ctas=2, aliases=TMEM),
        4,
        "Result has an invalid layout: #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>.\n"
        "Layout has 1 CTAs per CGA, but the context requires 2 CTAs per CGA.",
    ),
    (
        "tmem_scales_ctas",
        module("%0 = ttng.tmem_alloc : () -> !ttg.memdesc<128x4xi8, #sc, #ttng.tensor_memory, mutable>",
               ctas=2, aliases="#sc = #ttng.tensor_memory_scales_encoding<>"),
        4,
        "Result has an invalid layout: #ttng.tensor_memory_scales_encoding<>.\n"
        "Layout has 1 CTAs per CGA, but the context requires 2 CTAs per CGA.",
    ),
    (
        "shared_memdesc_ctas",
        module(f"%0 = ttg.local_alloc : () -> !ttg.memdesc<128xf32, #s1, {SMEM}, mutable>", ctas=2, aliases=SHARED1),
        4,
        "Result has an invalid layout: #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>.\n"
        "Layout has 1 CTAs per CGA, but the context requires 2 CTAs per CGA.",
    ),
    (
        "operand_block_argument_layout",
        module("%r = ttg.convert_layout %a : tensor<128xf32, #b2> -> tensor<128xf32, #b4>",
               aliases=f"{BLOCKED2}\n{BLOCKED4}", args="%s: f32, %a: tensor<128xf32, #b2>"),
        5,
        "Operand 0 (<block argument> of type 'tensor<128xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = "
        "[32], warpsPerCTA = [2], order = [0]}>>' at index: 1) has an invalid layout: #ttg.blocked<{sizePerThread = "
        "[1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>.\n"
        "Layout has 2 warps per CTA, but the context requires 4 warps per CTA.",
    ),
    (
        "own_error_before_missing_terminator",
        module(f"ttng.async_tma_copy_global_to_local %d[%i, %i] %buf, %bar, %p : !tt.tensordesc<64x128xf16, #s2>, "
               f"!ttg.memdesc<1xi64, #s1, {SMEM}, mutable> -> !ttg.memdesc<64x128xf16, #s2, {SMEM}, mutable>",
               aliases=f"{SHARED1}\n#s2 = #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}}>",
               args=f"%d: !tt.tensordesc<64x128xf16, #s2>, %buf: !ttg.memdesc<64x128xf16, #s2, {SMEM}, mutable>, "
               f"%bar: !ttg.memdesc<1xi64, #s1, {SMEM}, mutable>, %i: i32, %p: i1").replace("    tt.return\n", ""),
        5,
        "'ttng.async_tma_copy_global_to_local' op TMA descriptor must have NVMMA shared layout",
    ),
    (
        "missing_terminator",
        module("%c = arith.constant 0 : i32").replace("    tt.return\n", ""),
        4,
        'block with no terminator, has %c = "arith.constant"() <{value = 0 : i32}> : () -> i32',
    ),
    (
        "tma_barrier_one_cta_mode",
        module(tma_load(2), ctas=4, extra=', "ttng.two-ctas" = false', aliases=f"{NVMMA4}\n{barrier_aliases('[[0], [1]]')}",
               args=tma_args(2)),
        7,
        "'ttng.async_tma_copy_global_to_local' op TMA barrier cga_layout must be [[1], [2]], got [[0], [1]]",
    ),
    (
        "tma_barrier_two_cta_mode",
        module(tma_load(2), ctas=4, extra=', "ttng.two-ctas" = true', aliases=f"{NVMMA4}\n{barrier_aliases('[[1], [0]]')}",
               args=tma_args(2)),
        7,
        "'ttng.async_tma_copy_global_to_local' op TMA barrier cga_layout must be [[1], [2]] or [[0], [1]], got [[1], [0]]",
    ),
    (
        "init_barrier_in_warp_specialize",
        module(
            f"%bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, {SMEM}, mutable>\n"
            "ttg.warp_specialize()\ndefault {\n"
            f"ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, {SMEM}, mutable>\n"
            "ttg.warp_yield\n}\npartition0() num_warps(4) {\nttg.warp_return\n} : () -> ()",
            ctas=2, aliases=barrier_aliases("[[0]]"),
        ),
        7,
        "'ttng.init_barrier' op cannot be used inside `ttg.warp_specialize`",
    ),
    *[
        (
            f"barrier_bases_{op}",
            module(f"{body} : !ttg.memdesc<4xi64, #bar, {SMEM}, mutable>", ctas=8,
                   aliases=barrier_aliases("[[2], [0], [1]]"),
                   args=f"%bar: !ttg.memdesc<4xi64, #bar, {SMEM}, mutable>, %ph: i32"),
            4,
            f"'ttng.{op}' op broadcasted cluster barriers require bases to be the sequence 1, 2, 4, 8, ... "
            "perhaps with zero bases interleaved.",
        )
        for op, body in [("wait_barrier", "ttng.wait_barrier %bar, %ph"), ("init_barrier", "ttng.init_barrier %bar, 1"),
                         ("inval_barrier", "ttng.inval_barrier %bar")]
    ],
    (
        "tmem_load_reduce_n_across_warps",
        reduce_case("[1, 128]", "[32, 1]", "[4, 2]", 8, 256),
        6,
        "'ttng.tmem_load' op tmem_load reduction with N dimension sharded across threads is not supported.",
    ),
    ("tmem_shape_too_small", tmem_arg("!ttg.memdesc<64x128xf32, #tmem, #ttng.tensor_memory>"), 3,
     "the tensor shape must be at least 128x128. Got 64, 128"),
    ("tmem_shape_too_small_3d", tmem_arg("!ttg.memdesc<2x64x128xf32, #tmem, #ttng.tensor_memory>"), 3,
     "the tensor shape must be at least 128x128. Got 2, 64, 128"),
    ("tmem_rank", tmem_arg("!ttg.memdesc<128xf32, #tmem, #ttng.tensor_memory>"), 3, "rank must be 2 or 3"),
    ("tmem_space", tmem_arg(f"!ttg.memdesc<128x128xf32, #tmem, {SMEM}>"), 3, "memorySpace must be TensorMemorySpace"),
    ("tmem_pow2", tmem_arg("!ttg.memdesc<128x96xf32, #tmem, #ttng.tensor_memory>"), 3,
     "shape must have power-of-2 and non-zero dimensions; got 128, 96"),
    ("tmem_col_stride", tmem_arg("!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>",
                                 TMEM.replace("colStride = 1", "colStride = 2")), 3,
     "bitwidth * colStride must be less than or equal to 32. Got 32 and 2"),
    ("tmem_scales_width", tmem_arg("!ttg.memdesc<128x4xi16, #tmem, #ttng.tensor_memory>",
                                   "#tmem = #ttng.tensor_memory_scales_encoding<>"), 3, "bitwidth must be 8"),
    ("tmem_block_m", tmem_arg("!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>",
                              TMEM.replace("blockM = 128", "blockM = 32")), 1, "blockM must be 64 or 128 but got 32"),
    ("tmem_block_n", tmem_arg("!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>",
                              TMEM.replace("blockN = 128", "blockN = 96")), 1, "blockN must be a power of 2 but got 96"),
    ("tmem_cga", tmem_arg("!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>",
                          TMEM.replace(">", ", CGALayout = [[0, 64]]>")), 1,
     "After removing broadcast bases the CGA encoding must be a permutation matrix"),
]

# Texts ltc and Triton both accept (the neighbours of the invalid cases).
VALID: list[tuple[str, str]] = [
    ("arith_and_func_args_are_not_layout_checked",
     module("%c = arith.addf %a, %a : tensor<128xf32, #b2>", aliases=BLOCKED2, args="%a: tensor<128xf32, #b2>")),
    ("tma_barrier_per_cta", module(tma_load(4), ctas=4, extra=', "ttng.two-ctas" = false',
                                   aliases=f"{NVMMA4}\n{barrier_aliases('[[1], [2]]')}", args=tma_args(4))),
    ("tma_barrier_per_pair", module(tma_load(2), ctas=4, extra=', "ttng.two-ctas" = true',
                                    aliases=f"{NVMMA4}\n{barrier_aliases('[[0], [1]]')}", args=tma_args(2))),
    ("tma_barrier_unchecked_without_two_ctas", module(tma_load(2), ctas=4,
                                                      aliases=f"{NVMMA4}\n{barrier_aliases('[[1], [0]]')}",
                                                      args=tma_args(2))),
    ("barrier_bases_with_broadcast",
     module(f"ttng.wait_barrier %bar, %ph : !ttg.memdesc<4xi64, #bar, {SMEM}, mutable>", ctas=8,
            aliases=barrier_aliases("[[1], [0], [2]]"), args=f"%bar: !ttg.memdesc<4xi64, #bar, {SMEM}, mutable>, %ph: i32")),
    ("init_barrier_per_cta_in_warp_specialize",
     module(f"%bar = ttg.local_alloc : () -> !ttg.memdesc<2xi64, #bar, {SMEM}, mutable>\n"
            "ttg.warp_specialize()\ndefault {\n"
            f"ttng.init_barrier %bar, 1 : !ttg.memdesc<2xi64, #bar, {SMEM}, mutable>\n"
            "ttg.warp_yield\n}\npartition0() num_warps(4) {\nttg.warp_return\n} : () -> ()",
            ctas=2, aliases=barrier_aliases("[[1]]"))),
    ("tmem_load_reduce_n_in_registers", reduce_case("[1, 256]", "[32, 1]", "[8, 1]", 8, 256)),
    ("tmem_subslice_view", tmem_arg("!ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, 128x128>")),
    ("tmem_f8_col_stride_4", tmem_arg("!ttg.memdesc<128x128xf8E4M3FN, #tmem, #ttng.tensor_memory>",
                                      TMEM.replace("colStride = 1", "colStride = 4"))),
]


@pytest.mark.parametrize(("text", "line", "message"), [c[1:] for c in INVALID], ids=[c[0] for c in INVALID])
def test_ltc_rejects(text: str, line: int, message: str) -> None:
    assert ltc_diagnostic(text) == (line, message)


@oracle.requires_triton
@pytest.mark.parametrize(("text", "line", "message"), [c[1:] for c in INVALID], ids=[c[0] for c in INVALID])
def test_triton_rejects_the_same_way(text: str, line: int, message: str) -> None:
    with pytest.raises(oracle.OracleError) as info:
        oracle.triton_reprint(text)
    first = re.match(r'loc\("<oracle>":(\d+):\d+\): error: (.*)', info.value.diagnostics, re.S)
    assert first is not None, info.value.diagnostics
    assert int(first.group(1)) == line
    # MLIR numbers SSA values afresh in diagnostics (%0 where ltc keeps %c).
    expected = re.sub(r"%\w+", "%_", message)
    assert expected in re.sub(r"%\w+", "%_", first.group(2))


@pytest.mark.parametrize("text", [c[1] for c in VALID], ids=[c[0] for c in VALID])
def test_ltc_accepts(text: str) -> None:
    assert ltc_diagnostic(text) is None


@oracle.requires_triton
@pytest.mark.parametrize("text", [c[1] for c in VALID], ids=[c[0] for c in VALID])
def test_triton_accepts_ltc_output(text: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run(["-"], io.StringIO(text), out, err) == 0, err.getvalue()
    assert oracle.triton_reprint(out.getvalue()) == oracle.triton_reprint(text)
