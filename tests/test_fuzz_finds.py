"""Regressions for what ``benchmarks/fuzz_ir.py`` found in the parser, the verifier, the
layout passes and the lowering: each input once made ``ltc-opt`` raise, hang, exit 3,
print a meaningless message, or accept IR that Triton rejects. Each now gets a
diagnostic: exit status 1, a first line ``<file>:<line>:<col>: error: <message>``, no
traceback, and ``-o`` not written. Messages follow Triton's where Triton has one.
"""

from __future__ import annotations

import io
import re
import struct
import time
from pathlib import Path

import pytest
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

from ltc.dialects.text_spans import location_span_end
from ltc.tools import opt

LAYOUT = "convert-triton-to-tritongpu{num-warps=4 target=cuda:90},ltc-assign-layouts"


def _refused(tmp_path: Path, text: str, *flags: str) -> tuple[int, int, str]:
    """Run ``ltc-opt`` on ``text``: check the error contract, return (line, col, message)."""
    src = tmp_path / "input.mlir"
    src.write_text(text)
    out = tmp_path / "out.mlir"
    stdout, stderr = io.StringIO(), io.StringIO()
    rc = opt.run([str(src), "-o", str(out), *flags], io.StringIO(), stdout, stderr)
    err = stderr.getvalue()
    assert rc == 1, err
    assert "Traceback" not in err and "internal error" not in err, err
    assert not out.exists()
    m = re.match(rf"{re.escape(str(src))}:(\d+):(\d+): error: (.*)", err.splitlines()[0])
    assert m is not None, err
    return int(m.group(1)), int(m.group(2)), m.group(3)


def _accepted(tmp_path: Path, text: str, *flags: str) -> str:
    src = tmp_path / "ok.mlir"
    src.write_text(text)
    stdout, stderr = io.StringIO(), io.StringIO()
    assert opt.run([str(src), *flags], io.StringIO(), stdout, stderr) == 0, stderr.getvalue()
    return stdout.getvalue()


# ---------------------------------------------------------------- 04: huge payloads in messages
def _hex_i32(values: range) -> str:
    return struct.pack(f"<{len(values)}i", *values).hex().upper()


def test_a_message_never_unpacks_a_dense_payload(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failing op's message is built without printing the module (xDSL's
    ``emit_error`` printed all of it, unpacking every dense constant: minutes and
    gigabytes for a ``tensor<128x1048576xf32>``)."""

    def unpack(self: DenseIntOrFPElementsAttr) -> tuple:
        raise AssertionError("a diagnostic unpacked a dense payload")

    text = (
        "tt.func @f() {\n"
        f'  %big = arith.constant dense<"0x{_hex_i32(range(64))}"> : tensor<64xi32>\n'
        "  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<128xi32>\n"
        "  tt.return\n"
        "}\n"
    )
    from ltc.dialects import context, reader, verifier

    module = reader.parse_module_text(context.triton_context(), text, "input.mlir").module
    monkeypatch.setattr(DenseIntOrFPElementsAttr, "get_values", unpack)
    with pytest.raises(verifier.OpVerifyError) as e:
        verifier.verify_module(module)
    assert e.value.message == (
        "'tt.make_range' op number of elements in returned tensor, 128, must match size of range [0, 64), "
        "which has 64 elements"
    )


def test_a_large_constant_is_elided_in_a_message(tmp_path: Path) -> None:
    """MLIR's diagnostics elide elements attributes over 16 elements; splats stay."""
    nonsplat = f'arith.constant dense<"0x{_hex_i32(range(32))}"> : tensor<32xi32>'
    line, col, message = _refused(tmp_path, f"tt.func @f() {{\n  %0 = {nonsplat}\n}}\n")
    assert (line, col) == (2, 8)
    assert message == (
        'block with no terminator, has %0 = "arith.constant"() <{value = dense_resource<__elided__> : '
        "tensor<32xi32>}> : () -> tensor<32xi32>"
    )
    _, _, message = _refused(tmp_path, "tt.func @f() {\n  %0 = arith.constant dense<7> : tensor<1048576xi32>\n}\n")
    assert message == (
        'block with no terminator, has %0 = "arith.constant"() <{value = dense<7> : tensor<1048576xi32>}> '
        ": () -> tensor<1048576xi32>"
    )


# ---------------------------------------------------------------- 06: location scan
def test_an_unterminated_string_in_a_location_ends_the_scan_at_once() -> None:
    """The string pattern backtracked exponentially on an unterminated string (the
    reader pads its text, so 30 bytes of input never finished)."""
    text = '#loc26 = loc("c_d@"esc"(#loc))' + " " * 40
    start = time.perf_counter()
    assert location_span_end(text, text.index("loc(")) is None
    assert time.perf_counter() - start < 0.5
    assert location_span_end('loc("a\\"b"(#loc)) ', 0) == len('loc("a\\"b"(#loc))')


def test_an_unterminated_string_in_a_location_is_a_parse_error(tmp_path: Path) -> None:
    assert _refused(tmp_path, '#loc26 = loc("c_d@"esc"(#loc))') == (1, 20, "')' expected")


# ---------------------------------------------------------------- 07/08/09: default layouts
def test_rank0_tensors_are_refused_by_the_conversion(tmp_path: Path) -> None:
    text = "tt.func @fn(%arg0: tensor<f32>, %arg1: tensor<f32>) {\n  tt.return\n}\n"
    assert _refused(tmp_path, text, "-p", LAYOUT) == (
        1,
        1,
        "convert-triton-to-tritongpu: tensor<f32>: a rank-0 tensor has no default layout",
    )


def test_zero_size_tensors_are_refused_by_the_conversion(tmp_path: Path) -> None:
    text = "tt.func @fn(%a: f32) {\n  %0 = tt.splat %a : f32 -> tensor<0x4xf32>\n  tt.return\n}\n"
    assert _refused(tmp_path, text, "-p", LAYOUT) == (
        2,
        8,
        "convert-triton-to-tritongpu: tensor<0x4xf32>: a tensor with a zero-size dimension has no default layout",
    )


def test_zero_size_dims_have_a_shape_per_cta() -> None:
    from ltc.encodings.base import CGALayout
    from ltc.encodings.shared import shape_per_cta

    assert shape_per_cta((0, 64), CGALayout(block_bases=((1, 0),))) == (0, 64)


def test_blocked_for_shape_refuses_by_name() -> None:
    from ltc.encodings import EncodingError
    from ltc.encodings.blocked import default_blocked

    with pytest.raises(EncodingError, match="rank-0"):
        default_blocked((), 4)
    with pytest.raises(EncodingError, match=r"shape \[128, 5\]: every size must be 0 or a power of 2"):
        default_blocked((128, 5), 4)


def test_non_power_of_two_tensors_are_rejected_by_the_tt_verifier(tmp_path: Path) -> None:
    """Triton's ``TensorSizeTrait`` on every ``tt`` op (operands, then results)."""
    text = (
        "tt.func @fn(%d: !tt.tensordesc<128x5xf16>, %i: i32) {\n"
        "  %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<128x5xf16> -> tensor<128x5xf16>\n"
        "  tt.return\n"
        "}\n"
    )
    for flags in ((), ("-p", LAYOUT), ("--emit", "ptx")):
        assert _refused(tmp_path, text, *flags) == (
            2,
            8,
            "Number of elements must be power-of-two, but %0 = \"tt.descriptor_load\"(%d, %i, %i) : "
            "(!tt.tensordesc<128x5xf16>, i32, i32) -> tensor<128x5xf16> doesn't follow the rule (640) elements",
        )


def test_more_than_2_to_the_20_elements_are_rejected_by_the_tt_verifier(tmp_path: Path) -> None:
    text = "tt.func @fn(%a: f32) {\n  %0 = tt.splat %a : f32 -> tensor<2048x1024xf32>\n  tt.return\n}\n"
    assert _refused(tmp_path, text) == (
        2,
        8,
        'Maximum allowed number of elements is 1048576, but %0 = "tt.splat"(%a) : (f32) -> '
        "tensor<2048x1024xf32> has more than that",
    )


def test_non_tt_ops_have_no_size_rule(tmp_path: Path) -> None:
    """Triton accepts ``arith`` ops on any shape (only ``tt`` ops carry the trait)."""
    _accepted(tmp_path, "tt.func @fn(%a: tensor<6xf32>) {\n  %0 = arith.addf %a, %a : tensor<6xf32>\n  tt.return\n}\n")


# ---------------------------------------------------------------- 10: declarations in --emit ptx
def test_a_declaration_is_refused_by_the_lowering(tmp_path: Path) -> None:
    assert _refused(tmp_path, "tt.func private @illegal_ws_nest()\n", "--emit", "ptx") == (
        1,
        1,
        "convert-tritongpu-to-llvm: function declaration @illegal_ws_nest (no body) is not supported",
    )


def test_a_public_declaration_is_rejected_by_the_verifier(tmp_path: Path) -> None:
    """MLIR's symbol rule (no visibility keyword means public)."""
    assert _refused(tmp_path, "tt.func @illegal_ws_nest()\n") == (
        1,
        1,
        "'tt.func' op symbol declaration cannot have public visibility",
    )
    assert _accepted(tmp_path, "tt.func private @d()\n") == "module {\n  tt.func private @d()\n}\n"


_TTNG_MODULE = (
    "#t = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1{}>\n"
    'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", '
    '"ttg.threads-per-warp" = 32 : i32}} {{\n'
    "  tt.func public @f(%a: i32) {{\n"
    "    %0 = tt.splat %a : i32 -> tensor<{}xi32, #t>\n"
    "    tt.return\n"
    "  }}\n"
    "}}\n"
)


@pytest.mark.parametrize(
    ("cga", "shape", "message"),
    [
        ("", "128x64", "Result has an invalid layout: Non-distributed layout is not allowed in tensor type."),
        ("", "1024", "Result has an invalid layout: Layout has rank 2, but the tensor it's attached to has rank 1."),
        (
            ", CGALayout = [[1, 0]], twoCTAs = true",
            "128x64",
            "Result has an invalid layout: #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, "
            "CGALayout = [[1, 0]], twoCTAs = true>.",
        ),
    ],
)
def test_a_tensor_memory_layout_on_a_register_tensor_is_rejected(
    tmp_path: Path, cga: str, shape: str, message: str
) -> None:
    """Triton's layout trait: rank, then CTAs, then "not distributed" (as for shared layouts)."""
    assert _refused(tmp_path, _TTNG_MODULE.format(cga, shape)) == (4, 10, message)


# ---------------------------------------------------------------- 11: llvm.mlir.global attributes
@pytest.mark.parametrize(
    ("attrs", "message"),
    [
        (
            "addr_space = 3 : i32, alignment = f64",
            "attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute",
        ),
        ('addr_space = "x"', "attribute 'addr_space' failed to satisfy constraint: 32-bit signless integer attribute"),
        ("section = 4 : i32", "attribute 'section' failed to satisfy constraint: string attribute"),
    ],
)
def test_a_badly_typed_global_attribute_is_named(tmp_path: Path, attrs: str, message: str) -> None:
    text = f"llvm.mlir.global external @global_smem() {{{attrs}}} : !llvm.array<0 x i8>\n"
    assert _refused(tmp_path, text) == (1, 42, f"'llvm.mlir.global' op {message}")


def test_a_global_still_round_trips(tmp_path: Path) -> None:
    text = (
        "module {\n"
        "  llvm.mlir.global internal constant @g(dense<1> : vector<2xi32>) {addr_space = 3 : i32, alignment = 16 : i64}"
        " : !llvm.array<2 x i32>\n"
        "  llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>\n"
        "}\n"
    )
    assert _accepted(tmp_path, text) == text



# ---------------------------------------------------------------- undeclared values, kernel arguments
def test_a_value_defined_out_of_scope_is_a_diagnostic(tmp_path: Path) -> None:
    """A loop bound named before a definition nested inside the loop: the parser leaves
    a placeholder without an owner, which xDSL's isolation check asked for (ValueError).
    (Triton reports it at the use; ltc at the op using it.)"""
    text = (
        "tt.func @f(%c: i1, %n: i32) {\n"
        "  scf.for %i = %n to %n step %one : i32 {\n"
        "    scf.if %c {\n"
        "      %one = arith.constant 1 : i32\n"
        "    }\n"
        "  }\n"
        "  tt.return\n"
        "}\n"
    )
    assert _refused(tmp_path, text) == (2, 3, "'scf.for' op operand #2 is a use of undeclared SSA value name")


def test_a_descriptor_kernel_argument_is_refused_by_the_lowering(tmp_path: Path) -> None:
    text = "tt.func public @k(%d: !tt.tensordesc<128x128xf32>) {\n  tt.return\n}\n"
    assert _refused(tmp_path, text, "--emit", "ptx") == (
        1,
        1,
        "kernel arguments must be scalars or pointers, not !tt.tensordesc<128x128xf32>",
    )


# ---------------------------------------------------------------- unsigned layout fields
_BLOCKED = "#ttg.blocked<{{sizePerThread = [{}], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>"
_SWIZZLED = "#ttg.swizzled_shared<{{vec = {}, perPhase = 1, maxPhase = 1, order = [0]}}>"


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        (_BLOCKED.format(-4), "#ttg.blocked: expected an unsigned integer value in number of elements per thread"),
        (_BLOCKED.format(1 << 63), "#ttg.blocked: expected an unsigned integer value in number of elements per thread"),
        (_BLOCKED.format(1 << 64), "#ttg.blocked: integer constant out of range for attribute"),
        (_BLOCKED.format(1 << 32), "#ttg.blocked: sizePerThread [0]: every entry must be a positive power of 2"),
        (_SWIZZLED.format(-2), "#ttg.swizzled_shared: expected an unsigned integer value in vec"),
    ],
)
def test_layout_fields_are_unsigned_32_bit_as_in_triton(tmp_path: Path, layout: str, message: str) -> None:
    """Triton reads these fields as i64, refuses negatives, keeps the low 32 bits."""
    ty = "!ttg.memdesc<256xf32, #l, #ttg.shared_memory>" if "shared" in layout else "tensor<256xf32, #l>"
    text = (
        f"#l = {layout}\n"
        'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {\n'
        f"  tt.func @f(%a: {ty}) {{\n    tt.return\n  }}\n}}\n"
    )
    line, _, got = _refused(tmp_path, text)
    assert (line, got) == (1, message)


def test_a_field_that_truncates_to_a_valid_value_is_read_as_triton_reads_it() -> None:
    from ltc.encodings.base import triton_unsigned

    assert triton_unsigned((1 << 32) + 4, "vec", "vec") == 4
    assert triton_unsigned((1 << 63) - 1, "vec", "vec") == 0xFFFFFFFF


# ---------------------------------------------------------------- ttng.warp_group_dot
_WGMMA = (
    "#mma = #ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}}>\n"
    "#shared = #ttg.nvmma_shared<{{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}}>\n"
    "#sw = #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}}>\n"
    "#blocked = #ttg.blocked<{{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}}>\n"
    "#smem = #ttg.shared_memory\n"
    'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", '
    '"ttg.threads-per-warp" = 32 : i32}} {{\n'
    "  tt.func @f(%acc: tensor<{m}x64x{acc}, {res}>, %am: !ttg.memdesc<{m}x64x{el}, {al}, #smem>, "
    "%bm: !ttg.memdesc<64x64x{el}, {bl}, #smem>) {{\n"
    "    %d = ttng.warp_group_dot %am, %bm, %acc{attrs} : !ttg.memdesc<{m}x64x{el}, {al}, #smem> * "
    "!ttg.memdesc<64x64x{el}, {bl}, #smem> -> tensor<{m}x64x{acc}, {res}>\n"
    "    tt.return\n"
    "  }}\n"
    "}}\n"
)
_WGMMA_OK = dict(m=128, acc="f32", el="f16", res="#mma", al="#shared", bl="#shared", attrs="")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (dict(res="#blocked"), "WGMMA result layout must be Hopper NVMMA"),
        (dict(al="#sw"), "WGMMA A operand must have NVMMA shared or dot layout"),
        (dict(bl="#sw"), "WGMMA B operand must have NVMMA shared layout"),
        (dict(m=32), "WGMMA result M dimension must be divisible by 64"),
        (dict(el="i16", acc="i32"), "unsupported MMA version for the given operands"),
        (
            dict(el="f8E5M2"),
            "Cannot use F32 as the accumulator element type when the max_num_imprecise_acc is less than 32",
        ),
    ],
)
def test_warp_group_dot_rules_of_triton(tmp_path: Path, change: dict, message: str) -> None:
    """Triton's ``WarpGroupDotOp::verify``, each rule broken once (messages from Triton 3.9)."""
    text = _WGMMA.format(**{**_WGMMA_OK, **change})
    assert _refused(tmp_path, text) == (8, 10, f"'ttng.warp_group_dot' op {message}")


@pytest.mark.parametrize(
    "change", [dict(), dict(el="f8E5M2", attrs=" {maxNumImpreciseAcc = 32 : i32}"), dict(el="f64", acc="f64")]
)
def test_warp_group_dot_that_triton_accepts(tmp_path: Path, change: dict) -> None:
    _accepted(tmp_path, _WGMMA.format(**{**_WGMMA_OK, **change}))


# ---------------------------------------------------------------- tt.descriptor_gather / scatter sizes
@pytest.mark.parametrize(
    ("result", "block", "rows", "message"),
    [
        ("4x32xf32", "1x32xf32", 4, "must have at least 8 rows, but got 4"),
        ("8x16xi8", "1x16xi8", 8, "must have at least 32 columns for 'i8', but got 16"),
        ("8x4xf64", "1x4xf64", 8, "TMA dtype cannot be greater than 32 bits"),
    ],
)
def test_gather_and_scatter_tiles_have_tma_minimum_sizes(
    tmp_path: Path, result: str, block: str, rows: int, message: str
) -> None:
    gather = (
        f"tt.func @f(%d: !tt.tensordesc<{block}>, %x: tensor<{rows}xi32>, %y: i32) {{\n"
        f"  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<{block}>, tensor<{rows}xi32>, i32) -> tensor<{result}>\n"
        "  tt.return\n}\n"
    )
    assert _refused(tmp_path, gather) == (2, 8, f"'tt.descriptor_gather' op {message}")
    scatter = (
        f"tt.func @f(%d: !tt.tensordesc<{block}>, %x: tensor<{rows}xi32>, %y: i32, %v: tensor<{result}>) {{\n"
        f"  tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<{block}>, tensor<{rows}xi32>, i32, tensor<{result}>\n"
        "  tt.return\n}\n"
    )
    assert _refused(tmp_path, scatter) == (2, 3, f"'tt.descriptor_scatter' op {message}")


# ---------------------------------------------------------------- barrier layouts
_BARRIER = (
    "#s = #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}}>\n"
    "#s2 = #ttg.swizzled_shared<{{vec = 2, perPhase = 1, maxPhase = 1, order = [0]}}>\n"
    "#n = #ttg.nvmma_shared<{{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 64, rank = 1}}>\n"
    "#smem = #ttg.shared_memory\n"
    'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", '
    '"ttg.threads-per-warp" = 32 : i32}} {{\n'
    "  tt.func @f(%b: !ttg.memdesc<{ty}>) {{\n"
    "    ttng.init_barrier %b, 1 : !ttg.memdesc<{ty}>\n"
    "    tt.return\n"
    "  }}\n"
    "}}\n"
)


@pytest.mark.parametrize(
    "ty", ["1xi64, #s2, #smem, mutable", "1xi64, #n, #smem, mutable", "1xi64, #s, #smem, mutable, 2"]
)
def test_a_barrier_needs_an_unswizzled_layout_without_subviews(tmp_path: Path, ty: str) -> None:
    """Triton 3.9's barrier rule (checked against its verifier): ``#ttg.swizzled_shared``
    with vec = perPhase = maxPhase = 1, the allocation ending in the view's shape."""
    assert _refused(tmp_path, _BARRIER.format(ty=ty)) == (
        7,
        5,
        "'ttng.init_barrier' op barrier must have a contiguous shared-memory layout without subviews",
    )


@pytest.mark.parametrize("ty", ["1xi64, #s, #smem, mutable", "1xi64, #s, #smem, mutable, 4x1"])
def test_barriers_that_triton_accepts(tmp_path: Path, ty: str) -> None:
    _accepted(tmp_path, _BARRIER.format(ty=ty))


def test_an_arith_layout_that_does_not_fit_its_shape_is_refused_by_the_lowering(tmp_path: Path) -> None:
    """Triton checks layouts on its own ops only; the lowering refuses what it cannot place."""
    blocked = "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 2], warpsPerCTA = [4, 1], order = [1, 0]}>"
    text = (
        'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32} {\n'
        "  tt.func @f() {\n"
        f"    %mask = arith.constant dense<true> : tensor<5xi1, {blocked}>\n"
        "    tt.return\n"
        "  }\n"
        "}\n"
    )
    assert _refused(tmp_path, text, "--emit", "ptx") == (
        3,
        13,
        f"convert-tritongpu-to-llvm: {blocked}: #ttg.blocked has rank 2 but the shape 5 has rank 1",
    )


@pytest.mark.parametrize(
    ("attrs", "message"),
    [
        (
            '"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 2147483648 : i32',
            "convert-tritongpu-to-llvm handles 32 threads per warp only, not -2147483648",
        ),
        (
            '"ttg.num-warps" = 3 : i32, "ttg.threads-per-warp" = 32 : i32',
            "convert-tritongpu-to-llvm: ttg.num-warps: 3 warps: must be a power of two from 1 to 32 "
            "(1024 threads per CTA at 32 threads per warp)",
        ),
    ],
)
def test_a_module_the_lowering_cannot_launch_is_refused(tmp_path: Path, attrs: str, message: str) -> None:
    """The thread count went into an i32 attribute unchecked (ValueError out of xDSL)."""
    text = f'module attributes {{"ttg.num-ctas" = 1 : i32, {attrs}}} {{\n  tt.func @f() {{\n    tt.return\n  }}\n}}\n'
    assert _refused(tmp_path, text, "--emit", "ptx") == (1, 1, message)


def test_an_index_value_is_refused_by_the_lowering(tmp_path: Path) -> None:
    """``index`` has no bit width in the lowering (TypeError out of its builder)."""
    text = (
        'module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {\n'
        "  tt.func public @f(%a: i32) -> i32 {\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %c5 = arith.constant 5 : index\n"
        "    %0 = scf.for %i = %c0 to %c5 step %c5 iter_args(%s = %a) -> (i32) {\n"
        "      %t = arith.addi %s, %a : i32\n"
        "      scf.yield %t : i32\n"
        "    }\n"
        "    tt.return %0 : i32\n"
        "  }\n"
        "}\n"
    )
    assert _refused(tmp_path, text, "--emit", "ptx") == (
        3,
        11,
        "convert-tritongpu-to-llvm: 'index' values are not supported (arith.constant)",
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # a splat of 2^44 elements was stored element by element (MemoryError)
        ("%cst = arith.constant dense<1.0> : tensor<16x1099511627776xf32>\n", "dense literal of 17592186044416 elements is too large"),
        # xDSL's float packing overflowed (OverflowError escaped)
        ('"u.op"() {x = 65544.0 : f16} : () -> ()\n', "float too large to pack"),
        # an unterminated string: xDSL's string pattern backtracked exponentially (a hang)
        (
            "tt.func @f(%rk: tensor<64xi32>) {\n"
            '    %b = tt.expand_dims %rk {axis = 1 : i3"%2} : tensor<64xi32> -> tensor<64x1xi32> '
            + "x" * 40
            + "\n    tt.return\n}\n",
            "closing string literal",
        ),
        # a block defined twice after a forward reference: xDSL raised a KeyError
        (
            "tt.func @j(%c: i1, %x: f32) -> f32 {\n  cf.cond_br %c, ^bb1, ^bb2(%x : f32)\n^bb1:\n"
            "  cf.br ^bb2(%x : f32)\n^bb2(%a: f32):\n^bb2(%b: f32):\n  tt.return %a : f32\n}\n",
            "redefinition of block '^bb2'",
        ),
        # a dense attribute of 2^26 elements in an attribute dictionary (xDSL expanded it: a hang)
        (
            '"u.op"() {d = dense<16> : tensor<1048576x64xi32>} : () -> ()\n',
            "dense literal of 67108864 elements is too large",
        ),
        # an unclosed string as the very first token (lexed by xDSL's own lexer: a hang)
        ('"#s = #ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 4]' + "x" * 40 + "\n", "closing string literal"),
        # an nvmma_shared of rank 2^32 (a list of 2^32 dim names: a hang)
        (
            "#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, "
            "rank = 4294967296}>\n",
            "rank must be from 1 to 8, got 4294967296",
        ),
        # an scf.while with more results than its after-region takes: xDSL's verifier
        # indexed past the arguments (IndexError)
        (
            "tt.func @f(%x: i32) -> i32 {\n  %r:2 = scf.while (%a = %x) : (i32) -> (i32, i32) {\n"
            "    %c = arith.constant true\n    scf.condition(%c) %a, %a : i32, i32\n  } do {\n"
            "  ^bb0(%b: i32):\n    scf.yield %b : i32\n  }\n  tt.return %r#0 : i32\n}\n",
            "'scf.while' op region arguments do not match its operands or results",
        ),
        # a float literal beyond f16 in a dense constant (OverflowError)
        ("%c = arith.constant dense<1.0e9> : tensor<4xf16>\n", "out of range for type f16"),
    ],
)
def test_parser_finds_are_bad_input(text: str, message: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    status = opt.run(["-", "--allow-unregistered-dialect"], io.StringIO(text), out, err)
    assert (status, out.getvalue()) == (opt.EXIT_INPUT, "")
    first = err.getvalue().splitlines()[0]
    assert first.startswith("<stdin>:") and ": error: " in first and message in first, first


def test_a_zero_divisibility_hint_says_nothing() -> None:
    # tt.divisibility = 0 divided by zero in the axis analysis (exit 3): a hint of 0 is 1
    text = (
        "tt.func public @k(%p: !tt.ptr<f32>, %m: i32 {tt.divisibility = 0 : i32}) {\n"
        "  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>\n"
        "  %ms = tt.splat %m : i32 -> tensor<128xi32>\n"
        "  %o = arith.muli %r, %ms : tensor<128xi32>\n"
        "  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>\n"
        "  %q = tt.addptr %ps, %o : tensor<128x!tt.ptr<f32>>, tensor<128xi32>\n"
        "  %v = tt.load %q : tensor<128x!tt.ptr<f32>>\n"
        "  tt.store %q, %v : tensor<128x!tt.ptr<f32>>\n"
        "  tt.return\n}\n"
    )
    out, err = io.StringIO(), io.StringIO()
    status = opt.run(["-", "-p", "convert-triton-to-tritongpu{num-warps=4 target=cuda:90},ltc-assign-layouts"],
                     io.StringIO(text), out, err)
    assert status == opt.EXIT_OK, err.getvalue()
