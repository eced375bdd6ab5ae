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
from tests.oracle import HAVE_TRITON, triton_reprint

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


def _accepted_as_triton_reads_it(tmp_path: Path, text: str) -> None:
    """ltc accepts ``text``, and (where Triton is at hand) its output reads back in
    Triton as ``text`` itself does."""
    out = _accepted(tmp_path, text)
    if HAVE_TRITON:
        assert triton_reprint(out) == triton_reprint(text)


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
        # indexed past the arguments (IndexError); MLIR's edge check, in its words
        (
            "tt.func @f(%x: i32) -> i32 {\n  %r:2 = scf.while (%a = %x) : (i32) -> (i32, i32) {\n"
            "    %c = arith.constant true\n    scf.condition(%c) %a, %a : i32, i32\n  } do {\n"
            "  ^bb0(%b: i32):\n    scf.yield %b : i32\n  }\n  tt.return %r#0 : i32\n}\n",
            "'scf.while' op along control flow edge from Operation scf.condition to Region #1: region branch point "
            "has 2 operands, but region successor needs 1 inputs",
        ),
        # a hex payload whose size fits neither one element nor all of them
        ('%c = arith.constant dense<"0x0000"> : tensor<4xf32>\n', "elements hex data size is invalid for provided type: 'tensor<4xf32>'"),
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


# ---------------------------------------------------------------- 15: verifier gaps of the last runs
_MOD = (
    'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", '
    '"ttg.threads-per-warp" = 32 : i32} {\n'
)
_SW = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"
_TMEM = "#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>"


def _fn(body: str, args: str = "", aliases: str = "") -> str:
    return f"{aliases}{_MOD}tt.func @f({args}) {{\n{body}  tt.return\n}}\n}}\n"


def _memdesc_arg(ty: str) -> str:
    return _fn("", f"%m: !ttg.memdesc<{ty}>")


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        # tt.atomic_poll compares integers of 16, 32 or 64 bits (Triton's TT_IntLike, then its verifier)
        (
            _fn("  %0 = tt.atomic_poll acquire, gpu, %p, %n : !tt.ptr<f32>, f32 -> i1\n", "%p: !tt.ptr<f32>, %n: f32"),
            (3, 8),
            "'tt.atomic_poll' op operand #1 must be integer or ranked tensor of integer values, but got 'f32'",
        ),
        (
            _fn("  %0 = tt.atomic_poll acquire, gpu, %p, %n : !tt.ptr<i8>, i8 -> i1\n", "%p: !tt.ptr<i8>, %n: i8"),
            (3, 8),
            "'tt.atomic_poll' op only supports integer elements with width {16, 32, 64}",
        ),
        # atomic loads and stores move whole bytes
        (
            _fn("  %0 = tt.atomic_load relaxed, gpu, %p : (!tt.ptr<i1>) -> i1\n", "%p: !tt.ptr<i1>"),
            (3, 8),
            "'tt.atomic_load' op does not support sub-byte elements",
        ),
        (
            _fn("  tt.atomic_store relaxed, gpu, %p, %v : !tt.ptr<i4>\n", "%p: !tt.ptr<i4>, %v: i4"),
            (3, 3),
            "'tt.atomic_store' op does not support sub-byte elements",
        ),
        # a decimal integer is no float literal (MLIR's parser); a hex one is a bit pattern that must fit
        (
            'module attributes {"ttg.num-ctas" = 1 : f8E4M3FN} {\n}\n',
            (1, 37),
            "unexpected decimal integer literal for a floating point value",
        ),
        (_fn("  %c = arith.constant dense<[1.0, 2]> : tensor<2xf32>\n"), (3, 35), "unexpected decimal integer literal for a floating point value"),
        ('module attributes {"ttg.x" = 0x3C001 : f16} {\n}\n', (1, 30), "hexadecimal float constant out of range for type"),
        ('module attributes {"ttg.x" = -0x3C00 : f16} {\n}\n', (1, 31), "hexadecimal float literal should not have a leading minus"),
        ('module attributes {"ttg.x" = 1.5 : i32} {\n}\n', (1, 39), "floating point value not valid for specified type"),
        # a module holds dialect attributes only
        (
            'module attributes {x = 1 : i32} {\n}\n',
            (1, 1),
            "'builtin.module' op can only contain attributes with dialect-prefixed names, found: 'x'",
        ),
        # dominance: an op's results are not visible in its regions; across blocks the CFG decides
        (
            _fn(
                "  %1 = scf.if %c -> i32 {\n    scf.yield %n : i32\n  } else {\n    scf.yield %1 : i32\n  }\n",
                "%n: i32, %c: i1",
            ),
            (6, 5),
            "'scf.yield' op operand #0 does not dominate this use",
        ),
        (
            _fn(
                "  cf.cond_br %c, ^bb1, ^bb2(%n : i32)\n^bb1:\n  %x = arith.addi %n, %n : i32\n"
                "  cf.br ^bb2(%x : i32)\n^bb2(%a: i32):\n  %y = arith.addi %x, %a : i32\n",
                "%n: i32, %c: i1",
            ),
            (8, 8),
            "'arith.addi' op operand #0 does not dominate this use",
        ),
        # branch operands match the target block's arguments
        (
            _fn("  cf.cond_br %c, ^bb1(%n : i32), ^bb2\n^bb1(%a: i64):\n  tt.return\n^bb2:\n", "%n: i32, %c: i1"),
            (3, 3),
            "'cf.cond_br' op type mismatch for bb argument #0 of successor #0",
        ),
        (
            _fn("  cf.br ^bb1(%n, %n : i32, i32)\n^bb1(%a: i32):\n", "%n: i32"),
            (3, 3),
            "'cf.br' op branch has 2 operands for successor #0, but target block has 1",
        ),
        # tt.dot multiplies tensors of numbers; Ampere's mma takes f16/bf16/f64/i8/f8 (f32 as tf32)
        (
            _fn(
                "  %d = tt.dot %a, %b, %c : tensor<16x16x!tt.ptr<f32>> * tensor<16x16x!tt.ptr<f32>> -> tensor<16x16xf32>\n",
                "%a: tensor<16x16x!tt.ptr<f32>>, %b: tensor<16x16x!tt.ptr<f32>>, %c: tensor<16x16xf32>",
            ),
            (3, 8),
            "'tt.dot' op operand #0 must be ranked tensor of floating-point or integer values, but got "
            "'tensor<16x16x!tt.ptr<f32>>'",
        ),
        (
            _fn(
                "  %d = tt.dot %a, %b, %c : tensor<16x16xi32, #a> * tensor<16x16xi32, #b> -> tensor<16x16xf32, #mma>\n",
                "%a: tensor<16x16xi32, #a>, %b: tensor<16x16xi32, #b>, %c: tensor<16x16xf32, #mma>",
                "#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>\n"
                "#a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>\n#b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>\n",
            ),
            (6, 8),
            "'tt.dot' op unsupported MMA version",
        ),
        # a splat of a tensor keeps its layout (SameOperandsAndResultEncoding)
        (
            _fn(
                "  %s = tt.splat %x : tensor<128xf32, #b> -> tensor<128xf32, #c>\n",
                "%x: tensor<128xf32, #b>",
                "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n"
                "#c = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n",
            ),
            (5, 8),
            "'tt.splat' op requires the same encoding for all operands and results",
        ),
        # a block of a CFG region ends with a terminator, an empty one too
        (
            _fn("  cf.cond_br %c, ^bb1, ^bb2\n^bb1:\n^bb2:\n", "%c: i1"),
            (2, 1),
            "empty block: expect at least a terminator",
        ),
        # the fast division is f32 only (TT_Float32Like)
        (
            _fn("  %z = tt.approx_divf %x, %x : bf16\n", "%x: bf16"),
            (3, 8),
            "'tt.approx_divf' op operand #0 must be 32-bit float or ranked tensor of 32-bit float values, but got 'bf16'",
        ),
        # I32Attr and DenseI32ArrayAttr properties
        (
            _fn("  %t = ttg.async_wait {num = 0 : i8}\n"),
            (3, 8),
            "'ttg.async_wait' op attribute 'num' failed to satisfy constraint: 32-bit signless integer attribute",
        ),
        (
            _fn("  ttng.async_tma_store_wait {pendings = 0 : i8}\n"),
            (3, 3),
            "'ttng.async_tma_store_wait' op attribute 'pendings' failed to satisfy constraint: 32-bit signless integer attribute",
        ),
        (
            _fn(
                f"  %t = ttg.memdesc_trans %m {{order = array<i8: 1, 0>}} : !ttg.memdesc<32x64xf16, {_SW}, #ttg.shared_memory> "
                f"-> !ttg.memdesc<64x32xf16, {_SW}, #ttg.shared_memory>\n",
                f"%m: !ttg.memdesc<32x64xf16, {_SW}, #ttg.shared_memory>",
            ),
            (3, 8),
            "'ttg.memdesc_trans' op attribute 'order' failed to satisfy constraint: i32 dense array attribute",
        ),
        # kWidth is a 32-bit unsigned
        (
            _fn(
                "",
                "%a: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4294967296}>>",
                "#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>\n",
            ),
            (3, 73),
            "#ttg.dot_op: integer value too large",
        ),
        # memdesc shapes and elements (Triton's type verifier)
        (_memdesc_arg(f"0x64xf16, {_SW}, #ttg.shared_memory"), (2, 28), "shape has 0 dimension"),
        (
            _memdesc_arg(f"7x16xf16, {_SW}, #ttg.shared_memory"),
            (2, 28),
            "shape must have power-of-2 and non-zero dimensions; got 7, 16",
        ),
        (
            _memdesc_arg(f"16x64xi1, {_SW}, #ttg.shared_memory"),
            (2, 28),
            "shared-memory element type bit width must be a multiple of 8; got 1",
        ),
        (_memdesc_arg(f"16x64xi4, {_SW}, #ttg.shared_memory"), (2, 28), "element type bit width must be 1 or at least 8; got 4"),
        (
            _memdesc_arg(f"128x128xi1, {_TMEM}, #ttng.tensor_memory"),
            (2, 28),
            "tensor-memory element type bit width must be at least 8; got 1",
        ),
        # Triton aborts on these: an element without a bit width, a pointer in tensor memory
        (
            _memdesc_arg(f"16x64xindex, {_SW}, #ttg.shared_memory"),
            (2, 28),
            "the element type of a memdesc must be an integer or float type, got index",
        ),
        (
            _memdesc_arg(f"128x128x!tt.ptr<f32>, {_TMEM}, #ttng.tensor_memory"),
            (2, 28),
            "the element type of tensor memory must be an integer or float type, got !tt.ptr<f32>",
        ),
    ],
)
def test_triton_rejects_this_too(tmp_path: Path, text: str, where: tuple[int, int], message: str) -> None:
    line, col, got = _refused(tmp_path, text)
    assert (line, col, got) == (*where, message)


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        # a swizzle with maxPhase = 0: Triton divides by it (SIGFPE) as soon as an op maps it
        (
            _fn(
                "  %t = ttg.memdesc_trans %m {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #s, #ttg.shared_memory> "
                "-> !ttg.memdesc<64x32xf16, #s, #ttg.shared_memory>\n",
                "%m: !ttg.memdesc<32x64xf16, #s, #ttg.shared_memory>",
                "#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 0, order = [1, 0]}>\n",
            ),
            (4, 8),
            "vec, perPhase and maxPhase must be positive",
        ),
        # a blocked tile of 2^31 (Triton's layout is then not surjective: LLVM ERROR)
        (
            _fn(
                "  %c = ttg.convert_layout %x : tensor<128xf32, #b> -> tensor<128xf32, #c>\n",
                "%x: tensor<128xf32, #b>",
                "#b = #ttg.blocked<{sizePerThread = [2147483648], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n"
                "#c = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n",
            ),
            (5, 8),
            "a layout's sizes must be below 2**31",
        ),
        # an MMA instruction of 2^31 rows (Triton asserts in LinearLayout::strided1D)
        (
            _fn(
                f"  %m = ttg.local_alloc %a : (tensor<128x128xf16, #mma>) -> !ttg.memdesc<128x128xf16, {_SW}, #ttg.shared_memory>\n",
                "%a: tensor<128x128xf16, #mma>",
                "#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
                "instrShape = [2147483648, 128, 16]}>\n",
            ),
            (4, 8),
            "instr_shape holds 2147483648; a layout's sizes must be below 2**31",
        ),
        # a tensor dim of 2^40 (Triton asserts in ensureLayoutNotLargerThan)
        (
            _fn(
                "  %c = ttg.convert_layout %x : tensor<1099511627776xf32, #b> -> tensor<1099511627776xf32, #b>\n",
                "%x: tensor<1099511627776xf32, #b>",
                "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n",
            ),
            (4, 8),
            "Dimension 0 of size 1099511627776 does not fit a layout (sizes must be below 2**31)",
        ),
    ],
)
def test_triton_aborts_on_this(tmp_path: Path, text: str, where: tuple[int, int], message: str) -> None:
    line, col, got = _refused(tmp_path, text)
    assert (line, col) == where and got.startswith("Operand 0 (<block argument> of type "), got
    out, err = io.StringIO(), io.StringIO()
    assert opt.run(["-"], io.StringIO(text), out, err) == opt.EXIT_INPUT
    assert err.getvalue().splitlines()[1].endswith(message), err.getvalue()


def test_a_value_named_underscore_digits_can_be_erased() -> None:
    """``%_4`` left xDSL a name hint of "" that it refused when the dead op was erased
    (exit 3 in the layout pipeline's dead-code elimination)."""
    text = (
        "tt.func @f() {\n  %_4 = arith.constant 0 : i32\n"
        "  %_5 = arith.constant dense<true> : tensor<256xi1>\n  tt.return\n}\n"
    )
    out, err = io.StringIO(), io.StringIO()
    assert opt.run(["-", "-p", LAYOUT], io.StringIO(text), out, err) == opt.EXIT_OK, err.getvalue()
    assert "arith.constant" not in out.getvalue()


# ---------------------------------------------------------------- 15: the last verifier gaps
_NV = "#ttg.nvmma_shared<{{swizzlingByteWidth = {sw}, transposed = {tr}, elementBitWidth = {bits}{extra}}}>"
_BAR = "!ttg.memdesc<1xi64, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory, mutable>"
_SW2 = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"


def _nv(sw: int = 32, tr: bool = False, bits: int = 16, extra: str = "") -> str:
    return _NV.format(sw=sw, tr=str(tr).lower(), bits=bits, extra=extra)


def _mma5(a: str, b: str, d: str) -> str:
    """``ttng.tc_gen5_mma`` of shared ``a`` (128 x K) and ``b`` into a tensor-memory ``d``."""
    types = f"!ttg.memdesc<{a}, #ttg.shared_memory>, !ttg.memdesc<{b}, #ttg.shared_memory>, !ttg.memdesc<{d}, #ttng.tensor_memory, mutable>"
    args = f"%a: !ttg.memdesc<{a}, #ttg.shared_memory>, %b: !ttg.memdesc<{b}, #ttg.shared_memory>, %d: !ttg.memdesc<{d}, #ttng.tensor_memory, mutable>, %p: i1"
    return _fn(f"  ttng.tc_gen5_mma %a, %b, %d, %p, %p : {types}\n", args)


def _tmem(n: int) -> str:
    return f"#ttng.tensor_memory_encoding<blockM = 128, blockN = {n}, colStride = 1>"


def _scatter(buf: str, rows: int) -> str:
    desc = f"!tt.tensordesc<1x16xf16, {_nv()}>"
    return _fn(
        f"  %x = arith.constant dense<1> : tensor<{rows}xi32>\n"
        f"  ttng.async_tma_scatter %desc[%x, %i] %r : {desc}, tensor<{rows}xi32>, i32, !ttg.memdesc<{buf}>\n",
        f"%desc: {desc}, %r: !ttg.memdesc<{buf}>, %i: i32",
    )


def _reinterpret(src: str, res: str) -> str:
    return _fn(
        f"  %r = ttg.memdesc_reinterpret %m : !ttg.memdesc<{src}> -> !ttg.memdesc<{res}>\n", f"%m: !ttg.memdesc<{src}>"
    )


_B3 = "#ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>"
_RESHAPE = (
    "#b1 = #ttg.blocked<{{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}}>\n"
    "#b2 = #ttg.blocked<{{sizePerThread = [{spt}], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>\n"
)


def _reshape(spt: int) -> str:
    return _fn(
        "  %r = tt.reshape %x allow_reorder : tensor<64x2xf32, #b1> -> tensor<128xf32, #b2>\n",
        "%x: tensor<64x2xf32, #b1>",
        _RESHAPE.format(spt=spt),
    )


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        # allow_reorder keeps the written layout only if it is a cheap view: the same copies
        # and registers per thread (here 32 copies of each element: not a view of the source)
        (
            _reshape(32),
            (5, 8),
            "'tt.reshape' op Expected result encoding #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
            "warpsPerCTA = [4], order = [0]}> but was #ttg.blocked<{sizePerThread = [32], threadsPerWarp = [32], "
            "warpsPerCTA = [4], order = [0]}>",
        ),
        # an NVMMA swizzle row must fit each CTA's block, counted in the layout's rank
        (
            _memdesc_arg(f"64x64xf16, {_nv(128, extra=', CGALayout = [[0, 1]]')}, #ttg.shared_memory"),
            (2, 28),
            "block shape along the contiguous dimension 1 is too small for the swizzle byte size 128 in an "
            "NVMMASharedLayout, got 32 but expected at least 64",
        ),
        (
            _memdesc_arg(f"1x1x1x1x32xf16, {_nv(64, bits=7, extra=', CGALayout = [[1, 0, 0, 0, 0]]')}, #ttg.shared_memory"),
            (2, 28),
            "block shape along the contiguous dimension 4 is too small for the swizzle byte size 64 in an "
            "NVMMASharedLayout, got 32 but expected at least 73",
        ),
        (
            _memdesc_arg(f"2x64x32xf16, {_nv(128)}, #ttg.shared_memory"),
            (2, 28),
            "block shape along the contiguous dimension 1 is too small for the swizzle byte size 128 in an "
            "NVMMASharedLayout, got 32 but expected at least 64",
        ),
        # tc_gen5_mma: shapes multiply
        (
            _mma5(f"128x32xf16, {_nv()}", f"16x16xf16, {_nv()}", f"128x16xf32, {_TMEM.replace('128, colStride', '16, colStride')}"),
            (3, 3),
            "'ttng.tc_gen5_mma' op expected the last dimension of the first operand to be equal to the "
            "second-to-last dimension of the second operand",
        ),
        # TMA gather/scatter: TMA's minimum tile, on the view (a view of a larger allocation is fine)
        (
            _scatter(f"4x16xf16, {_nv()}, #ttg.shared_memory, mutable, 16x16", 4),
            (4, 3),
            "'ttng.async_tma_scatter' op must have at least 8 rows, but got 4",
        ),
        # reinterpreting a whole view: no more bytes than the source; padding on both sides or neither
        (
            _reinterpret(f"64x64xf16, {_SW2}, #ttg.shared_memory, mutable", f"64x64xf32, {_SW2}, #ttg.shared_memory, mutable"),
            (3, 8),
            "result shared-memory footprint (16384 bytes) exceeds the source view (8192 bytes)",
        ),
        (
            _reinterpret(
                "64x64xf16, #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 64]}>, #ttg.shared_memory, mutable",
                f"64x128xf16, {_SW2}, #ttg.shared_memory, mutable",
            ),
            (3, 8),
            "cannot reinterpret between padded and non-padded layouts",
        ),
        # a register tensor has its shared layout's rank
        (
            _fn(
                f"  %m = ttg.local_alloc %x : (tensor<2x64x64xf16, #b>) -> !ttg.memdesc<2x64x64xf16, {_SW2}, #ttg.shared_memory>\n",
                "%x: tensor<2x64x64xf16, #b>",
                f"#b = {_B3}\n",
            ),
            (4, 8),
            "'ttg.local_alloc' op source has rank 3 but memdesc encoding has rank 2",
        ),
        (
            _fn(
                f"  %x = ttg.local_load %m : !ttg.memdesc<2x64x64xf16, {_SW2}, #ttg.shared_memory> -> tensor<2x64x64xf16, #b>\n",
                f"%m: !ttg.memdesc<2x64x64xf16, {_SW2}, #ttg.shared_memory>",
                f"#b = {_B3}\n",
            ),
            (4, 8),
            "'ttg.local_load' op result has rank 3 but memdesc encoding has rank 2",
        ),
        (
            _fn(
                f"  ttg.local_store %x, %m : tensor<2x64x64xf16, #b> -> !ttg.memdesc<2x64x64xf16, {_SW2}, #ttg.shared_memory, mutable>\n",
                f"%m: !ttg.memdesc<2x64x64xf16, {_SW2}, #ttg.shared_memory, mutable>, %x: tensor<2x64x64xf16, #b>",
                f"#b = {_B3}\n",
            ),
            (4, 3),
            "'ttg.local_store' op source has rank 3 but memdesc encoding has rank 2",
        ),
        # an mma.sync operand tile spans 4 lanes of kWidth elements along K
        (
            _fn(
                "  %d = tt.dot %a, %b, %c : tensor<16x8xf16, #a> * tensor<8x8xf16, #b> -> tensor<16x8xf32, #mma>\n",
                "%a: tensor<16x8xf16, #a>, %b: tensor<8x8xf16, #b>, %c: tensor<16x8xf32, #mma>",
                "#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>\n"
                "#a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>\n#b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>\n",
            ),
            (6, 8),
            "'tt.dot' op MMA operand layout requires K >= 4 * kWidth",
        ),
        # an llvm.func signature holds LLVM types only, inside structs too (at the name, MLIR's words)
        (
            "llvm.func @f(%a: !llvm.struct<(f32, index)>) {\n  llvm.return\n}\n",
            (1, 11),
            "failed to construct function type: expected LLVM type for function arguments",
        ),
        (
            "llvm.func @f() -> !llvm.struct<(f32, index)> {\n  %0 = llvm.mlir.undef : !llvm.struct<(f32, index)>\n"
            "  llvm.return %0 : !llvm.struct<(f32, index)>\n}\n",
            (1, 11),
            "failed to construct function type: expected LLVM type for function results'!llvm.struct<(f32, index)>'",
        ),
        (
            "llvm.func @f(%a: !llvm.array<4 x index>) {\n  llvm.return\n}\n",
            (1, 11),
            "failed to construct function type: expected LLVM type for function arguments",
        ),
    ],
)
def test_triton_rejects_these_too(tmp_path: Path, text: str, where: tuple[int, int], message: str) -> None:
    line, col, got = _refused(tmp_path, text)
    assert (line, col, got) == (*where, message)


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        # Triton aborts ('Illegal shared layout') mapping a swizzled NVMMA buffer with fewer than
        # 8 rows of swizzle tile per CTA: an MMAv5 operand, a TMA copy, gather or scatter
        (
            _mma5(f"128x32xf16, {_nv()}", f"32x2xf16, {_nv(tr=True)}", f"128x2xf32, {_tmem(2)}"),
            (3, 3),
            f"'ttng.tc_gen5_mma' op operand B: {_nv(tr=True)} needs a TMA box per CTA of at least 8x16 once "
            "collapsed to 2-D, got 2x16 (Triton aborts: 'Illegal shared layout')",
        ),
        (
            _mma5(f"128x128xf8E5M2, {_nv(bits=3)}", f"128x32xf8E5M2, {_nv(bits=8)}", f"128x32xf32, {_tmem(32)}"),
            (3, 3),
            f"'ttng.tc_gen5_mma' op operand A: {_nv(bits=3)} has elementBitWidth 3, not a power of 2: no swizzle "
            "tile holds whole elements (Triton aborts: 'Illegal shared layout')",
        ),
        (
            _fn(
                f"  ttng.async_tma_copy_local_to_global %desc[%i, %i] %r : !tt.tensordesc<2x16xf16, {_nv()}>, "
                f"!ttg.memdesc<2x16xf16, {_nv()}, #ttg.shared_memory>\n",
                f"%desc: !tt.tensordesc<2x16xf16, {_nv()}>, %r: !ttg.memdesc<2x16xf16, {_nv()}, #ttg.shared_memory>, %i: i32",
            ),
            (3, 3),
            f"'ttng.async_tma_copy_local_to_global' op the shared buffer: {_nv()} needs a TMA box per CTA of at "
            "least 8x16 once collapsed to 2-D, got 2x16 (Triton aborts: 'Illegal shared layout')",
        ),
        (
            _fn(
                f"  ttng.async_tma_copy_global_to_local %desc[%i, %i] %r, %bar, %p : !tt.tensordesc<2x16xf16, {_nv()}>, "
                f"{_BAR} -> !ttg.memdesc<2x16xf16, {_nv()}, #ttg.shared_memory, mutable>\n",
                f"%desc: !tt.tensordesc<2x16xf16, {_nv()}>, %bar: {_BAR}, "
                f"%r: !ttg.memdesc<2x16xf16, {_nv()}, #ttg.shared_memory, mutable>, %i: i32, %p: i1",
            ),
            (3, 3),
            f"'ttng.async_tma_copy_global_to_local' op the shared buffer: {_nv()} needs a TMA box per CTA of at "
            "least 8x16 once collapsed to 2-D, got 2x16 (Triton aborts: 'Illegal shared layout')",
        ),
        (
            _scatter(f"4x16xf16, {_nv()}, #ttg.shared_memory, mutable", 4),
            (4, 3),
            f"'ttng.async_tma_scatter' op the shared buffer: {_nv()} needs a TMA box per CTA of at least 8x16 once "
            "collapsed to 2-D, got 4x16 (Triton aborts: 'Illegal shared layout')",
        ),
    ],
)
def test_ltc_refuses_what_triton_aborts_on(tmp_path: Path, text: str, where: tuple[int, int], message: str) -> None:
    line, col, got = _refused(tmp_path, text)
    assert (line, col, got) == (*where, message)


_ACCEPTED_15 = [
    _reshape(1),  # the inferred layout
    _fn(
        "  %d = tt.dot %a, %b, %c : tensor<16x16xf16, #a> * tensor<16x8xf16, #b> -> tensor<16x8xf32, #mma>\n",
        "%a: tensor<16x16xf16, #a>, %b: tensor<16x8xf16, #b>, %c: tensor<16x8xf32, #mma>",
        "#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>\n"
        "#a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>\n#b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>\n",
    ),
    _memdesc_arg(f"64x128xf16, {_nv(128, extra=', CGALayout = [[0, 1]]')}, #ttg.shared_memory"),
    _memdesc_arg(f"64x64xf16, {_nv(128, extra=', CGALayout = [[1, 0]]')}, #ttg.shared_memory"),
    _memdesc_arg(f"64x64xf16, {_nv(128)}, #ttg.shared_memory, mutable, 2x64x128"),
    _mma5(f"128x16xf16, {_nv()}", f"16x16xf16, {_nv(tr=True)}", f"128x16xf32, {_tmem(16)}"),
    _scatter(f"8x16xf16, {_nv()}, #ttg.shared_memory, mutable, 16x16", 8),
    _reinterpret(f"64x64xf16, {_SW2}, #ttg.shared_memory, mutable", f"32x32xf32, {_SW2}, #ttg.shared_memory, mutable"),
    "llvm.func @f(%a: !llvm.struct<(f32, i32)>, %b: !llvm.array<4 x i64>) {\n  llvm.return\n}\n",
]


@pytest.mark.parametrize("text", _ACCEPTED_15)
def test_what_triton_accepts_beside_these_rules(tmp_path: Path, text: str) -> None:
    _accepted_as_triton_reads_it(tmp_path, text)


# ---------------------------------------------------------------- 15: what Triton 3.9 still rejected (100k run, seed 93)
_BLK = "#ttg.blocked<{{sizePerThread = {spt}, threadsPerWarp = {tpw}, warpsPerCTA = [4, 1], order = [1, 0]}}>"
_TMEM64 = "#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>"
_TMD = f"!ttg.memdesc<128x64xf32, {_TMEM64}, #ttng.tensor_memory, mutable>"
_BAR1 = "#ttg.swizzled_shared<{{vec = {v}, perPhase = 1, maxPhase = {v}, order = [0]}}>"


def _tmem_op(op: str, spt: str, tpw: str) -> str:
    """``ttng.tmem_store`` / ``tmem_load`` / ``tmem_alloc`` of a 128x64 f32 tensor in ``#r``."""
    ty = "tensor<128x64xf32, #r>"
    aliases = f"#r = {_BLK.format(spt=spt, tpw=tpw)}\n"
    if op == "store":
        return _fn(f"  %t = arith.constant true\n  ttng.tmem_store %x, %b, %t : {ty} -> {_TMD}\n", f"%x: {ty}, %b: {_TMD}", aliases)
    if op == "load":
        return _fn(f"  %x = ttng.tmem_load %b : {_TMD} -> {ty}\n", f"%b: {_TMD}", aliases)
    return _fn(f"  %b = ttng.tmem_alloc %x : ({ty}) -> {_TMD}\n", f"%x: {ty}", aliases)


def _arrive(shape: str, vec: int = 1) -> str:
    ty = f"!ttg.memdesc<{shape}, {_BAR1.format(v=vec)}, #ttg.shared_memory, mutable>"
    return _fn(f"  ttng.async_copy_mbarrier_arrive %b : {ty}\n", f"%b: {ty}")


_DESC_IDX = "!tt.tensordesc<1x32xindex>"
_B2 = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
_TMEM128 = "#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>"


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        # tmem_load/store/alloc: the register layout must lower to tcgen05 messages; Triton
        # names only the operand. Here a thread holds 32 rows: warps 1 and 2 hold no rows 32, 64
        (_tmem_op("store", "[32, 64]", "[32, 1]"), (5, 3), "'ttng.tmem_store' op source"),
        (_tmem_op("load", "[32, 64]", "[32, 1]"), (4, 8), "'ttng.tmem_load' op result"),
        (_tmem_op("alloc", "[32, 64]", "[32, 1]"), (4, 8), "'ttng.tmem_alloc' op source"),
        # ... and here lane 1 holds a copy of lane 0's elements (rows 0-1 in a thread, lanes on rows 2-31)
        (_tmem_op("store", "[2, 64]", "[16, 2]"), (5, 3), "'ttng.tmem_store' op source"),
        # an async-copy arrival takes an mbarrier (Triton's verifyBarrierType)
        (
            _arrive("2xi64"),
            (3, 3),
            "'ttng.async_copy_mbarrier_arrive' op barrier allocation must be a descriptor of Nxi64 type with N <= number of CTAs",
        ),
        (
            _arrive("1xi32"),
            (3, 3),
            "'ttng.async_copy_mbarrier_arrive' op barrier allocation must be a descriptor of Nxi64 type with N <= number of CTAs",
        ),
        (
            _arrive("1xi64", vec=2),
            (3, 3),
            "'ttng.async_copy_mbarrier_arrive' op barrier must have a contiguous shared-memory layout without subviews",
        ),
        # ODS element types: TT_Tensor (no index, no f8E8M0FNU), TT_IntTensor, RankedTensorOf<[I16, I32]>
        (
            _fn(
                "  %g = tt.gather %s[%i] {axis = 0 : i32} : (tensor<16xindex>, tensor<16xi32>) -> tensor<16xindex>\n",
                "%s: tensor<16xindex>, %i: tensor<16xi32>",
            ),
            (3, 8),
            "'tt.gather' op operand #0 must be ranked tensor of floating-point or integer or ptr values, but got 'tensor<16xindex>'",
        ),
        (
            _fn(
                "  %g = tt.gather %s[%i] {axis = 0 : i32} : (tensor<16xf32>, tensor<16xui32>) -> tensor<16xf32>\n",
                "%s: tensor<16xf32>, %i: tensor<16xui32>",
            ),
            (3, 8),
            "'tt.gather' op operand #1 must be ranked tensor of integer values, but got 'tensor<16xui32>'",
        ),
        (
            _fn(
                f"  %g = tt.descriptor_gather %d[%x, %y] : ({_DESC_IDX}, tensor<8xi32>, i32) -> tensor<8x32xindex>\n",
                f"%d: {_DESC_IDX}, %x: tensor<8xi32>, %y: i32",
            ),
            (3, 8),
            "'tt.descriptor_gather' op result #0 must be ranked tensor of floating-point or integer or ptr values, but got "
            "'tensor<8x32xindex>'",
        ),
        (
            _fn(
                "  %g = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<1x32xf32>, tensor<8xi64>, i32) -> tensor<8x32xf32>\n",
                "%d: !tt.tensordesc<1x32xf32>, %x: tensor<8xi64>, %y: i32",
            ),
            (3, 8),
            "'tt.descriptor_gather' op operand #1 must be ranked tensor of 16-bit signless integer or 32-bit signless "
            "integer values, but got 'tensor<8xi64>'",
        ),
        (
            _fn(
                "  tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<1x32xf8E8M0FNU>, tensor<8xi32>, i32, tensor<8x32xf8E8M0FNU>\n",
                "%d: !tt.tensordesc<1x32xf8E8M0FNU>, %x: tensor<8xi32>, %y: i32, %v: tensor<8x32xf8E8M0FNU>",
            ),
            (3, 3),
            "'tt.descriptor_scatter' op operand #3 must be ranked tensor of floating-point or integer or ptr values, but got "
            "'tensor<8x32xf8E8M0FNU>'",
        ),
        # tt.trans infers no layout from a source without one
        (
            _fn(
                f"  %y = tt.trans %x {{order = array<i32: 1, 0>}} : tensor<16x32xf32> -> tensor<32x16xf32, {_B2}>\n",
                "%x: tensor<16x32xf32>",
            ),
            (3, 8),
            "'tt.trans' op inferred type(s) 'tensor<32x16xf32>' are incompatible with return type(s) of operation "
            f"'tensor<32x16xf32, {_B2}>'",
        ),
        # a symbol sits directly in a symbol table; a function or global sees no value from outside
        (
            "module {\n  tt.func @f() {\n    llvm.func @g() {\n      llvm.return\n    }\n    tt.return\n  }\n}\n",
            (3, 5),
            "'llvm.func' op symbol's parent must have the SymbolTable trait",
        ),
        (
            "module {\n  tt.func @f() {\n    llvm.mlir.global internal @g() : i32\n    tt.return\n  }\n}\n",
            (3, 5),
            "'llvm.mlir.global' op symbol's parent must have the SymbolTable trait",
        ),
        (
            "module {\n  %c = llvm.mlir.constant(1 : i32) : i32\n  llvm.func @h(%a: i32) -> i32 {\n"
            "    %r = llvm.add %a, %c : i32\n    llvm.return %r : i32\n  }\n}\n",
            (4, 10),
            "'llvm.add' op using value defined outside the region",
        ),
        (
            "module {\n  %c = llvm.mlir.constant(1 : i32) : i32\n  llvm.mlir.global internal @g() : i32 {\n"
            "    llvm.return %c : i32\n  }\n}\n",
            (4, 5),
            "'llvm.return' op using value defined outside the region",
        ),
        # a global's alignment is a power of 2 (MLIR's emitError: no op prefix)
        ("module {\n  llvm.mlir.global internal @g() {alignment = 3 : i64} : i32\n}\n", (2, 3), "alignment attribute is not a power of 2"),
        # a shared_linear alignment is a 32-bit unsigned
        (
            _memdesc_arg("16x16xf16, #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 0], "
                         "[8, 0]]}, alignment = 4294967296>, #ttg.shared_memory"),
            (2, 136),
            "#ttg.shared_linear: integer value too large",
        ),
    ],
)
def test_triton_39_rejects_these_as_well(tmp_path: Path, text: str, where: tuple[int, int], message: str) -> None:
    line, col, got = _refused(tmp_path, text)
    assert (line, col, got) == (*where, message)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        # a tensor-memory dim of 2**31 (Triton aborts building its layout: 'Invalid basis')
        (_memdesc_arg(f"2147483648x128xf32, {_TMEM128}, #ttng.tensor_memory, mutable"), (2, 28)),
        (_memdesc_arg(f"128x128xf32, {_TMEM128}, #ttng.tensor_memory, mutable, 2147483648x128"), (2, 28)),
    ],
)
def test_ltc_refuses_the_tensor_memory_triton_aborts_on(tmp_path: Path, text: str, where: tuple[int, int]) -> None:
    line, col, got = _refused(tmp_path, text)
    assert (line, col) == where
    assert got == "Dimension 0 of size 2147483648 does not fit a layout (sizes must be below 2**31)"


_ACCEPTED_39 = [
    _tmem_op("store", "[1, 64]", "[32, 1]"),  # the 32x32b message layout
    _tmem_op("load", "[1, 64]", "[32, 1]"),
    _tmem_op("alloc", "[1, 64]", "[32, 1]"),
    _arrive("1xi64"),
    _fn(
        "  %g = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<1x32xf32>, tensor<8xi32>, i32) -> tensor<8x32xf32>\n",
        "%d: !tt.tensordesc<1x32xf32>, %x: tensor<8xi32>, %y: i32",
    ),
    _fn("  %y = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>\n", "%x: tensor<16x32xf32>"),
    "module {\n  llvm.func @g(%a: i32) -> i32 {\n    %c = llvm.mlir.constant(1 : i32) : i32\n    llvm.br ^bb1\n  ^bb1:\n"
    "    %r = llvm.add %a, %c : i32\n    llvm.return %r : i32\n  }\n}\n",
    "module {\n  llvm.mlir.global internal @g() {alignment = 16 : i64} : i32\n}\n",
    _memdesc_arg(f"1073741824x128xf32, {_TMEM128}, #ttng.tensor_memory, mutable"),
]


@pytest.mark.parametrize("text", _ACCEPTED_39)
def test_what_triton_39_accepts_beside_these_rules(tmp_path: Path, text: str) -> None:
    _accepted_as_triton_reads_it(tmp_path, text)


# ---------------------------------------------------------------- the seed-93 run's last classes
_NV32 = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>"
_TD = "!tt.tensordesc<{s}xf32, " + _NV32.replace("{", "{{").replace("}", "}}") + ">"
_MD = "!ttg.memdesc<{s}xf32, " + _NV32.replace("{", "{{").replace("}", "}}") + ", #ttg.shared_memory, mutable{a}>"


def _tma_load(shape: str, alloc: str = "") -> str:
    """``ttng.async_tma_copy_global_to_local`` of a ``shape`` block into an NVMMA buffer."""
    desc, buf = _TD.format(s=shape), _MD.format(s=shape, a=alloc)
    coords = ", ".join(["%c"] * len(shape.split("x")))
    return _fn(
        f"  ttng.async_tma_copy_global_to_local %d[{coords}] %m, %b, %p : {desc}, {_BAR} -> {buf}\n",
        f"%d: {desc}, %m: {buf}, %b: {_BAR}, %c: i32, %p: i1",
    )


def _tma_store(shape: str) -> str:
    desc, buf = _TD.format(s=shape), _MD.format(s=shape, a="")
    return _fn(f"  ttng.async_tma_copy_local_to_global %d[%c, %c] %m : {desc}, {buf}\n", f"%d: {desc}, %m: {buf}, %c: i32")


def _sw(vec: int, per_phase: int, max_phase: int, order: str = "1, 0") -> str:
    return f"#ttg.swizzled_shared<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, order = [{order}]}}>"


def _subslice(enc: str, src: str, offsets: str, res: str, alloc: str = "", el: str = "f16") -> str:
    alloc = alloc or src
    s_ty = f"!ttg.memdesc<{src}x{el}, {enc}, #ttg.shared_memory, mutable{', ' + alloc if alloc != src else ''}>"
    r_ty = f"!ttg.memdesc<{res}x{el}, {enc}, #ttg.shared_memory, mutable, {alloc}>"
    return _fn(f"  %s = ttg.memdesc_subslice %m[{offsets}] : {s_ty} -> {r_ty}\n", f"%m: {s_ty}")


_SPLIT = "We don't support splitting along the swizzling pattern"
_OUT_OF_RANGE = "dimension {d} of size 2147483648 is out of range: a shared-memory layout needs sizes below 2**31"
_LIN = "#ttg.shared_linear<{{offset = {b}}}, alignment = 16>"
_RANK1 = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>"


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        # Triton aborts (strided1D assertion, 'Invalid basis') building the layout of a shared
        # buffer with a dim of 2**31: TMA copies, subslices, reshapes, reinterprets
        (_tma_load("2147483648x32"), (3, 3),
         "'ttng.async_tma_copy_global_to_local' op the shared buffer's " + _OUT_OF_RANGE.format(d=0)),
        (_tma_load("32x32", ", 2147483648x32"), (3, 3),
         "'ttng.async_tma_copy_global_to_local' op the shared buffer's " + _OUT_OF_RANGE.format(d=0)),
        (_tma_store("32x2147483648"), (3, 3),
         "'ttng.async_tma_copy_local_to_global' op the shared buffer's " + _OUT_OF_RANGE.format(d=1)),
        (_subslice(_SW2, "2147483648x32", "0, 0", "16x16", el="f32"), (3, 8),
         "'ttg.memdesc_subslice' op source " + _OUT_OF_RANGE.format(d=0)),
        (_reinterpret(f"32x2147483648xf32, {_SW2}, #ttg.shared_memory, mutable", f"16xf32, {_RANK1}, #ttg.shared_memory, mutable"),
         (3, 8), "'ttg.memdesc_reinterpret' op source " + _OUT_OF_RANGE.format(d=1)),
        # Triton keeps NVMMA memdesc sizes in 32 bits: a multiple of 2**32 is 0 (SIGFPE)
        (_memdesc_arg(f"1099511627776x1099511627776xf32, {_NV32}, #ttg.shared_memory, mutable"), (2, 28),
         "#ttg.nvmma_shared memdesc shape dimension 0 of size 1099511627776 is out of range: a multiple of 2**32 is 0 in 32 bits"),
        (_memdesc_arg(f"32x32xf32, {_NV32}, #ttg.shared_memory, mutable, 12884901888x32x32"), (2, 28),
         "#ttg.nvmma_shared memdesc alloc shape dimension 0 of size 12884901888 is out of range: a multiple of 2**32 is 0 in 32 bits"),
        # a subslice may not cut through the swizzle pattern: each coordinate bit that picks a
        # tile of the view along a narrowed dim must be a single offset bit
        (_subslice(_sw(1, 1, 33), "32x64", "16, 32", "16x32"), (3, 8), _SPLIT),
        (_subslice(_sw(1, 1, 33), "16x32", "8, 16", "8x16", alloc="32x64"), (3, 8), _SPLIT),
        (_subslice(_sw(1, 1, 8), "32x64", "4, 0", "4x64"), (3, 8), _SPLIT),
        (_subslice(_sw(1, 1, 8, "0, 1"), "64x32", "0, 4", "64x4"), (3, 8), _SPLIT),
        (_subslice(_nv(128), "64x64", "4, 0", "4x64"), (3, 8), _SPLIT),
        (_subslice(_LIN.format(b="[[0, 1], [0, 2], [1, 0], [2, 1]]"), "4x4", "2, 0", "2x4"), (3, 8), _SPLIT),
        # a reinterpret of a subview reaches only the offsets the subview owns from its start
        (_reinterpret(f"4x1024xi32, {_SW2}, #ttg.shared_memory, mutable, 32x1024", f"4x1024x4xi32, {_sw(2, 2, 1, '2, 1, 0')}, #ttg.shared_memory, mutable"),
         (3, 8), "result shared-memory footprint includes offsets not owned by the source subview "
         "(65536 bytes requested; 16384 contiguous bytes available)"),
        (_reinterpret(f"32x512xi32, {_SW2}, #ttg.shared_memory, mutable, 32x1024", f"1024xi32, {_RANK1}, #ttg.shared_memory, mutable"),
         (3, 8), "result shared-memory footprint includes offsets not owned by the source subview "
         "(4096 bytes requested; 2048 contiguous bytes available)"),
        (_reinterpret(f"4x1024xi32, {_SW2}, #ttg.shared_memory, mutable, 32x1024", f"65536xi32, {_RANK1}, #ttg.shared_memory, mutable"),
         (3, 8), "result shared-memory footprint (262144 bytes) exceeds the source view (131072 bytes)"),
        # gather/scatter row offsets: 1-D (i16 or i32 is ODS's rule)
        (_fn("  %g = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<1x32xf32>, tensor<8x1xi32>, i32) -> tensor<8x32xf32>\n",
             "%d: !tt.tensordesc<1x32xf32>, %x: tensor<8x1xi32>, %y: i32"),
         (3, 8), "'tt.descriptor_gather' op x offsets must be a 1D tensor, but got 'tensor<8x1xi32>'"),
        # MLIR's HasParent wording: the op named once
        ("module {\n  tt.func @f() {\n    tt.func @g() {\n      tt.return\n    }\n    tt.return\n  }\n}\n", (3, 5),
         "'tt.func' op expects parent op 'builtin.module'"),
        ("module {\n  tt.func @f() {\n    scf.yield\n  }\n}\n", (3, 5),
         "'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'"),
    ],
)
def test_seed_93_last_classes(tmp_path: Path, text: str, where: tuple[int, int], message: str) -> None:
    line, col, got = _refused(tmp_path, text)
    assert (got, (line, col)) == (message, where)


_I16_GATHER = (
    "  %g = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<1x32xf32>, tensor<8xi16>, i32) -> tensor<8x32xf32>\n"
    "  tt.descriptor_scatter %d[%x, %y], %g : !tt.tensordesc<1x32xf32>, tensor<8xi16>, i32, tensor<8x32xf32>\n"
)

_ACCEPTED_93_LAST = [
    _tma_load("1073741824x1073741824"),  # 2**30 fits
    _tma_load("32x32", ", 2147483648x32x32"),  # a leading buffer dim is not laid out
    _subslice(_SW2, "2147483648x32", "0, 0", "2147483648x32", el="f32"),  # nothing cut: no layout built
    _memdesc_arg(f"32x32xf32, {_NV32}, #ttg.shared_memory, mutable, 4294967297x32x32"),
    _memdesc_arg(f"4294967296x32xf32, {_SW2}, #ttg.shared_memory, mutable"),  # only NVMMA wraps
    _subslice(_sw(1, 1, 8), "32x64", "0, 4", "32x4"),  # columns never carry the swizzle
    _subslice(_sw(1, 1, 8), "32x64", "8, 0", "8x64"),  # whole swizzle periods
    _subslice(_sw(1, 1, 8), "32x4", "4, 0", "4x4"),  # the phase XOR falls outside 4 columns
    _subslice(_sw(1, 8, 2), "8x64", "4, 0", "4x64", alloc="32x64"),  # bits of the view only
    _subslice(_nv(128), "64x64", "8, 0", "8x64"),
    _subslice(_LIN.format(b="[[0, 1], [0, 2], [1, 1], [2, 0]]"), "4x4", "2, 0", "2x4"),
    _reinterpret(f"4x1024xi32, {_SW2}, #ttg.shared_memory, mutable, 32x1024", f"4096xi32, {_RANK1}, #ttg.shared_memory, mutable"),
    _reinterpret(f"1x32x64xi32, {_SW2}, #ttg.shared_memory, mutable, 4x32x64", f"2048xi32, {_RANK1}, #ttg.shared_memory, mutable"),
    _fn(_I16_GATHER, "%d: !tt.tensordesc<1x32xf32>, %x: tensor<8xi16>, %y: i32"),
]


@pytest.mark.parametrize("text", _ACCEPTED_93_LAST)
def test_what_triton_39_accepts_beside_the_last_classes(tmp_path: Path, text: str) -> None:
    _accepted_as_triton_reads_it(tmp_path, text)


def test_i16_gather_offsets_pass_the_layout_pass(tmp_path: Path) -> None:
    """i16 row offsets get a layout like i32 ones (the PTX lowering refuses TMA descriptors
    with a diagnostic either way)."""
    text = _fn(_I16_GATHER, "%d: !tt.tensordesc<1x32xf32>, %x: tensor<8xi16>, %y: i32")
    assert "tt.descriptor_gather" in _accepted(tmp_path, text, "-p", "ltc-assign-layouts")


# ---------------------------------------------------------------- 15: the seed-101, -202 and -404 runs
_F4 = "#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 8}>"
_F8 = "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>"
_SCALES = "!ttg.memdesc<128x2xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>"


def _mma5_scaled(a: str, b: str, d: str, lhs: str = "e4m3", a_enc: str = _F8, b_enc: str = _F4) -> str:
    """``ttng.tc_gen5_mma_scaled`` of shared ``a`` and ``b`` (rhs e2m1, packed along K) into ``d``."""
    a_ty, b_ty = f"!ttg.memdesc<{a}, {a_enc}, #ttg.shared_memory>", f"!ttg.memdesc<{b}, {b_enc}, #ttg.shared_memory>"
    d_ty = f"!ttg.memdesc<{d}, {_tmem(128)}, #ttng.tensor_memory, mutable>"
    return _fn(
        f"  ttng.tc_gen5_mma_scaled %a, %b, %d, %s, %s, %p, %p lhs = {lhs} rhs = e2m1 : "
        f"{a_ty}, {b_ty}, {d_ty}, {_SCALES}, {_SCALES}\n",
        f"%a: {a_ty}, %b: {b_ty}, %d: {d_ty}, %s: {_SCALES}, %p: i1",
    )


def _tma_copy(desc_shape: str, buf_shape: str, el: str = "f32", nv: str = _NV32, store: bool = False) -> str:
    """A TMA load (or store) between a ``desc_shape`` f32 block and a ``buf_shape`` buffer."""
    desc = f"!tt.tensordesc<{desc_shape}xf32, {_NV32}>"
    buf = f"!ttg.memdesc<{buf_shape}x{el}, {nv}, #ttg.shared_memory, mutable>"
    coords = ", ".join(["%c"] * len(desc_shape.split("x")))
    if store:
        return _fn(f"  ttng.async_tma_copy_local_to_global %d[{coords}] %m : {desc}, {buf}\n", f"%d: {desc}, %m: {buf}, %c: i32")
    return _fn(
        f"  ttng.async_tma_copy_global_to_local %d[{coords}] %m, %b, %p : {desc}, {_BAR} -> {buf}\n",
        f"%d: {desc}, %m: {buf}, %b: {_BAR}, %c: i32, %p: i1",
    )


_NV32_R3 = _NV32.replace("}>", ", rank = 3}>")
_SW3 = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>"


def _md(shape: str, enc: str) -> str:
    return f"!ttg.memdesc<{shape}xf32, {enc}, #ttg.shared_memory>"


def _view(op: str, src: str, res: str) -> str:
    """``ttg.memdesc_reshape`` / ``memdesc_trans`` (dims 1 and 2 swapped) from ``src`` to ``res``."""
    attrs = " {order = array<i32: 0, 2, 1>}" if op == "trans" else ""
    return _fn(f"  %r = ttg.memdesc_{op} %m{attrs} : {src} -> {res}\n", f"%m: {src}")


def _nvmma_arg(shape: str, extra: str) -> str:
    return _memdesc_arg(
        f"{shape}, #ttg.nvmma_shared<{{swizzlingByteWidth = {extra}}}>, #ttg.shared_memory"
    )


def _tmem_red_load(rows: int) -> str:
    """A min-reducing ``ttng.tmem_load`` of ``rows`` x 128 whose threads each hold whole rows."""
    md = f"!ttg.memdesc<{rows}x128xf32, {_tmem(128)}, #ttng.tensor_memory, mutable>"
    row = "#ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>"
    red = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
    return _fn(
        f"  %v, %r = ttng.tmem_load %m {{redOp = #ttng.redOp<min>}} : {md} -> tensor<{rows}x128xf32, {row}>, "
        f"tensor<{rows}xf32, {red}>\n",
        f"%m: {md}",
    )


_EXTERN = '{libname = "", libpath = "", pure = true, symbol = "f"}'
_TT_TYPE = (
    "floating-point or ranked tensor of floating-point values or integer or ranked tensor of integer values or ptr "
    "or ranked tensor of ptr values"
)
_RANKS = "TMA shared memory and layout ranks must match"
_TILE = "{w} layout has rank 2 but the {w} has rank 3: a {op} needs a layout of the whole memdesc (Triton aborts on this)"


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        # the dot interface (mutant 25928 of seed 101): operands of one rank, 2 or 3, K and M x N;
        # it runs before the op's own checks (dtypes) and counts packed e2m1 dims twice
        (_mma5_scaled("1x128x64xf8E4M3FN", "32x128xi8", "128x128xf32"), (3, 3),
         "'ttng.tc_gen5_mma_scaled' op expected all operands to have the same rank"),
        (_mma5_scaled("128x64xf8E4M3FN", "64x128xi8", "128x128xf32"), (3, 3),
         "'ttng.tc_gen5_mma_scaled' op expected the last dimension of the first operand to be equal to the "
         "second-to-last dimension of the second operand"),
        (_mma5_scaled("128x64xf8E4M3FN", "32x128xi8", "128x64xf32"), (3, 3),
         "'ttng.tc_gen5_mma_scaled' op expected the output shape to be the concatenation of the last dimension "
         "of the first operand and the last dimension of the second"),
        (_mma5(f"1x128x16xf32, {_nv()}", f"16x16xf16, {_nv(tr=True)}", f"128x16xf32, {_tmem(16)}"), (3, 3),
         "'ttng.tc_gen5_mma' op expected all operands to have the same rank"),
        # one tcgen05 MMA reads 32 bytes of K (mutant 2897 of seed 404)
        (_mma5(f"128x8xf16, {_nv(0)}", f"8x128xf16, {_nv(0, tr=True)}", f"128x128xf32, {_tmem(128)}"), (3, 3),
         "'ttng.tc_gen5_mma' op K dimension must be at least 16 for 'f16' operands, but got 8"),
        (_mma5(f"128x16xf8E5M2, {_nv(0, bits=8)}", f"16x128xf8E5M2, {_nv(0, tr=True, bits=8)}", f"128x128xf32, {_tmem(128)}"),
         (3, 3), "'ttng.tc_gen5_mma' op K dimension must be at least 32 for 'f8E5M2' operands, but got 16"),
        # a reducing tensor-memory load gives one value per row and thread (mutant 3846 of seed 404)
        (_tmem_red_load(256), (3, 12), "'ttng.tmem_load' op tmem_load reduction with multiple M rows per thread is not supported."),
        # TMA copies: a buffer whose NVMMA layout is one tile's (rank 2 of a rank-3 buffer) ...
        (_tma_copy("2x32x32", "2x32x32"), (3, 3), f"'ttng.async_tma_copy_global_to_local' op {_RANKS}"),
        (_tma_copy("2x32x32", "2x32x32", store=True), (3, 3), f"'ttng.async_tma_copy_local_to_global' op {_RANKS}"),
        (_tma_copy("32x32", "2x16x32", store=True), (3, 3), f"'ttng.async_tma_copy_local_to_global' op {_RANKS}"),
        # ... and a block that differs from the buffer in element count or type (not in shape)
        (_tma_copy("32x32", "64x32"), (3, 3),
         "'ttng.async_tma_copy_global_to_local' op descriptor block and tensor must have the same number of "
         "elements, but got descriptor block with 1024 elements tensor with 2048 elements"),
        (_tma_copy("32x32", "32x32", el="i32", store=True), (3, 3),
         "'ttng.async_tma_copy_local_to_global' op descriptor block and tensor element types must match, but got "
         "descriptor element type 'f32' and tensor element type 'i32'"),
        # Triton lays out a reshape's or transpose's memdescs whole: a tile's layout of a
        # buffer of tiles aborts it (getTMABlockShape, mutant 25001's output) or, as the
        # source of a swizzled transpose, gets Triton's message (ltc raised EncodingError)
        (_view("reshape", _md("2x32x32", _NV32), _md("64x32", _NV32)), (3, 8),
         "'ttg.memdesc_reshape' op " + _TILE.format(w="source", op="reshape")),
        (_view("reshape", _md("32x16", _SW2), _md("2x16x16", _SW2)), (3, 8),
         "'ttg.memdesc_reshape' op " + _TILE.format(w="result", op="reshape")),
        (_view("trans", _md("2x16x16", _SW2), _md("2x16x16", _SW2)), (3, 8), "rank of encoding does not match order: 2 vs 3"),
        (_view("trans", _md("2x32x32", _NV32), _md("2x32x32", _NV32)), (3, 8), "rank of encoding does not match order: 2 vs 3"),
        (_view("trans", _md("2x32x32", _SW3), _md("2x32x32", _NV32)), (3, 8),
         "'ttg.memdesc_trans' op " + _TILE.format(w="result", op="transpose")),
        # getTMABlockShape's contiguous dim: dim 0 when transposed (any rank); fp4 padding doubles it
        (_nvmma_arg("2x4x16xf32", "64, transposed = true, elementBitWidth = 32, rank = 3"), (2, 28),
         "block shape along the contiguous dimension 0 is too small for the swizzle byte size 64 in an "
         "NVMMASharedLayout, got 2 but expected at least 16"),
        (_nvmma_arg("64x32xi8", "128, transposed = false, elementBitWidth = 8, fp4Padded = true"), (2, 28),
         "block shape along the contiguous dimension 1 is too small for the swizzle byte size 128 in an "
         "NVMMASharedLayout, got 64 but expected at least 128"),
        # MLIR's emitError (no op prefix)
        (_fn(f"  %r = ttg.memdesc_index %m[%i] : {_md('2x16x16', _SW2)} -> !ttg.memdesc<16x16xf32, {_SW2}, "
             "#ttg.shared_memory, 2x16x16>\n", f"%m: {_md('2x16x16', _SW2)}, %i: i32"),
         (3, 8), "alloc shape must match shape for the result"),
        # integer literals fit their type (64 bits, signed, for index: mutant 1043 of seed 202),
        # reported at the digits as MLIR does
        ('module attributes {"ttg.num-warps" = 18446744073709551616 : index} {\n}\n', (1, 38),
         "integer constant out of range for attribute"),
        (_fn("  %c = arith.constant 9223372036854775808 : index\n"), (3, 23), "integer constant out of range for attribute"),
        (_fn("  %c = arith.constant -2 : i1\n"), (3, 24), "integer constant out of range for attribute"),
        (_fn("  %r = tt.make_range {end = 4294967296 : i32, start = 0 : i32} : tensor<1xi32>\n"), (3, 29),
         "integer constant out of range for attribute"),
        (_fn('  %c = "arith.constant"() {value = -1 : ui8} : () -> ui8\n'), (3, 37),
         "negative integer literal not valid for unsigned integer type"),
        (_fn("  %c = arith.constant dense<[1, -129]> : tensor<2xi8>\n"), (3, 34), "integer constant out of range for type"),
        (_fn("  %c = arith.constant dense<2> : tensor<2xi1>\n"), (3, 29), "integer constant out of range for type"),
        # tt.extern_elementwise takes TT_Type values, not index (mutant 10000 of seed 505)
        (_fn(f"  %r = tt.extern_elementwise %b, %a {_EXTERN} : (tensor<4xi32>, tensor<4xindex>) -> tensor<4xi32>\n",
             "%a: tensor<4xindex>, %b: tensor<4xi32>"), (3, 8),
         f"'tt.extern_elementwise' op operand #1 must be variadic of {_TT_TYPE}, but got 'tensor<4xindex>'"),
        # ops that infer layouts from their operands' need layouts there, not another attribute
        # (mutant 17318 of seed 505: a location alias as a reshape's encoding; Triton aborts)
        (_fn('  %r = tt.reshape %x : tensor<256xf32, loc("x")> -> tensor<64x4xf32, loc("x")>\n', '%x: tensor<256xf32, loc("x")>'),
         (3, 8), "'tt.reshape' op operand encoding loc(\"x\") is not a layout: the op's layouts are inferred from its "
         "operands' (Triton aborts on this)"),
        (_fn('  %r = tt.expand_dims %x {axis = 0 : i32} : tensor<4xf32, "s"> -> tensor<1x4xf32, "s">\n', '%x: tensor<4xf32, "s">'),
         (3, 8), "'tt.expand_dims' op operand encoding \"s\" is not a layout: the op's layouts are inferred from its "
         "operands' (Triton aborts on this)"),
        # MLIR's emitError (no op prefix)
        (_fn('  %r = tt.reshape %x : tensor<4xf32> -> tensor<2x2xf32, "s">\n', "%x: tensor<4xf32>"), (3, 8),
         "Op requires that either (a) src and dst both have encodings, or (b) neither does."),
        # a hex payload of the wrong size (ltc printed it as dense<>)
        (_fn('  %c = arith.constant dense<"0x0000"> : tensor<4xf32>\n'), (3, 23),
         "elements hex data size is invalid for provided type: 'tensor<4xf32>'"),
    ],
)
def test_seed_101_202_404_classes(tmp_path: Path, text: str, where: tuple[int, int], message: str) -> None:
    line, col, got = _refused(tmp_path, text)
    assert (got, (line, col)) == (message, where)


_ACCEPTED_101 = [
    # MLIR rounds a float literal beyond the type's range to infinity (ltc raised
    # OverflowError, mutant 29522 of seed 101), in a dense literal too
    _fn("  %a = arith.constant 1.0e+10 : f16\n  %b = arith.constant -65520.0 : f16\n  %c = arith.constant 1.0e+39 : f32\n"),
    _fn("  %a = arith.constant dense<[1.0e+10, 2.0]> : tensor<2xf16>\n  %b = arith.constant dense<-1.0e+39> : tensor<4xf32>\n"),
    # the generic form reads elements as arith.constant does (a hex float is a bit pattern)
    _fn('  %a = "arith.constant"() {value = dense<0x7C00> : tensor<4xf16>} : () -> tensor<4xf16>\n'),
    _fn('  %a = "arith.constant"() {value = dense<1.0e+10> : tensor<4xf16>} : () -> tensor<4xf16>\n'),
    _mma5(f"128x16xf16, {_nv(0)}", f"16x128xf16, {_nv(0, tr=True)}", f"128x128xf32, {_tmem(128)}"),
    _mma5(f"128x8xf32, {_nv(0, bits=32)}", f"8x128xf32, {_nv(0, tr=True, bits=32)}", f"128x128xf32, {_tmem(128)}"),
    _tmem_red_load(128),
    _fn(f"  %r = tt.extern_elementwise %a {_EXTERN} : (!tt.ptr<f32>) -> f32\n", "%a: !tt.ptr<f32>"),
    # an encoding that is not a layout where Triton does not infer layouts from it
    _fn('  %r = arith.addf %x, %x : tensor<4xf32, "s">\n  %s = tt.splat %y : f32 -> tensor<4xf32, "s">\n',
        '%x: tensor<4xf32, "s">, %y: f32'),
    # the edges of the integer ranges MLIR accepts
    _fn("  %a = arith.constant -1 : i1\n  %b = arith.constant 4294967295 : i32\n"
        "  %c = arith.constant -9223372036854775808 : index\n  %d = arith.constant 9223372036854775807 : index\n"),
    _fn("  %a = arith.constant dense<[255, -128]> : tensor<2xi8>\n  %b = arith.constant dense<-1> : tensor<2xi1>\n"),
    # scaled MMA: e2m1 packs K in a non-transposed a, N in a b whose layout is not transposed
    _mma5_scaled("128x64xi8", "128x64xi8", "128x128xf32", lhs="e2m1", b_enc=_F8),
    _mma5_scaled("1x128x64xf8E4M3FN", "1x32x128xi8", "1x128x128xf32"),  # batched: all rank 3
    # a TMA block and its buffer need the same element count only
    _tma_copy("32x32", "16x64"),
    _tma_copy("2x16x32", "32x32", store=True),
    _tma_copy("2x32x32", "2x32x32", nv=_NV32_R3),
    _view("reshape", _md("2x16x16", _NV32.replace("128", "64").replace("}>", ", rank = 3}>")), _md("32x16", _NV32.replace("128", "64"))),
    _view("trans", _md("2x16x16", _SW3), _md("2x16x16", _SW3.replace("2, 1, 0", "1, 2, 0"))),
    _nvmma_arg("16x16x16xf32", "64, transposed = true, elementBitWidth = 32, rank = 3"),
    _nvmma_arg("64x32xi8", "128, transposed = true, elementBitWidth = 8, fp4Padded = true"),
]


@pytest.mark.parametrize("text", _ACCEPTED_101)
def test_what_triton_39_accepts_beside_the_seed_101_classes(tmp_path: Path, text: str) -> None:
    _accepted_as_triton_reads_it(tmp_path, text)


# ---------------------------------------------------------------- 15: separators, TMEM messages, scaled-MMA K
_SL_BASES = "{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 0], [8, 0]]}"
_BLK_4x8 = "sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]"
_PAD = "{order = [1, 0], shape = [64, 64]}"


def _shared_arg(shape: str, enc: str) -> str:
    return _memdesc_arg(f"{shape}, {enc}, #ttg.shared_memory")


def _lin(regs: str, lanes: str, warps: str) -> str:
    return f"#ttg.linear<{{register = {regs}, lane = {lanes}, warp = {warps}, block = []}}>"


def _tmem_io(op: str, shape: str, reg: str, block_m: int, block_n: int, col_stride: int = 1, warps: int = 4) -> str:
    """``ttng.tmem_alloc`` / ``tmem_load`` / ``tmem_store`` of a ``shape`` tensor laid out as ``reg``."""
    md = (f"!ttg.memdesc<{shape}, #ttng.tensor_memory_encoding<blockM = {block_m}, blockN = {block_n}, "
          f"colStride = {col_stride}>, #ttng.tensor_memory, mutable>")
    ty = f"tensor<{shape}, {reg}>"
    body = {
        "alloc": f"  %r = ttng.tmem_alloc %x : ({ty}) -> {md}\n",
        "load": f"  %r = ttng.tmem_load %m : {md} -> {ty}\n",
        "store": f"  %t = arith.constant true\n  ttng.tmem_store %x, %m, %t : {ty} -> {md}\n",
    }[op]
    return _fn(body, f"%x: {ty}, %m: {md}").replace('"ttg.num-warps" = 4', f'"ttg.num-warps" = {warps}')


_M16x256 = _lin("[[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [16, 0]]", "[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]",
               "[[32, 0], [64, 0]]")


def _maxnreg(text: str, n: int) -> str:
    return text.replace('ttg.target = "cuda:100"', f'ttg.target = "cuda:100", "ttg.maxnreg" = {n} : i32')


_S0 = "#ttg.nvmma_shared<{{swizzlingByteWidth = 0, transposed = {t}, elementBitWidth = 8}}>"


def _scaled_k(k_a: int, k_b: int, lhs: str, rhs: str, a_el: str, b_el: str) -> str:
    """A scaled MMA of unswizzled operands: a is 128 x ``k_a``, b ``k_b`` x 128 (both i8 when e2m1)."""
    text = _mma5_scaled(f"128x{k_a}x{a_el}", f"{k_b}x128x{b_el}", "128x128xf32", lhs=lhs,
                        a_enc=_S0.format(t="false"), b_enc=_S0.format(t="true"))
    return text.replace("rhs = e2m1", f"rhs = {rhs}")


# lanes of a 32x32b message whose rows 8 and 16 are swapped: every lane still holds its own
# row (ltc's former necessary condition), but no message atom tiles it
_LANES_SWAPPED = "[[1, 0], [2, 0], [4, 0], [16, 0], [8, 0]]"
_COLS_64 = "[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]]"


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        # attribute items are separated as Triton's parsers read them: shared_linear's
        # ', alignment = N' needs its comma, padded_shared's dictionary has none, every other
        # attribute (and these once complete) ends at '>'; a missing token is reported just
        # after the previous one, as MLIR does
        (_shared_arg("16x16xf16", f"#ttg.shared_linear<{_SL_BASES} alignment = 16>"), (2, 134), "expected ','"),
        (_shared_arg("16x16xf16", f"#ttg.shared_linear<{_SL_BASES}, alignment = 16,>"), (2, 150), "expected '>'"),
        (_shared_arg("16x16xf16", f"#ttg.shared_linear<{_SL_BASES}, alignment = 16 alignment = 16>"), (2, 150),
         "expected '>'"),
        (_shared_arg("16x16xf16", f"#ttg.shared_linear<{_SL_BASES},>"), (2, 135), "expected 'alignment'"),
        (_shared_arg("4x4xf16", "#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]], alignment = 16}  , "
                     "alignment = 16>"), (2, 118), "alignment must be specified outside of the linear layout braces"),
        (_shared_arg("64x64xf16", f"#ttg.padded_shared<[32:+4], {_PAD}>"), (2, 66), "expected attribute value"),
        (_shared_arg("64x64xf16", f"#ttg.padded_shared<[32:+4] {_PAD},>"), (2, 101), "expected '>'"),
        (_shared_arg("64x64xf16", f"#ttg.padded_shared<[32:+4] {_PAD} {{}}>"), (2, 101), "expected '>'"),
        (_fn("", f"%x: tensor<16x16xf32, #ttg.blocked<{{{_BLK_4x8}}},>>"), (2, 134), "expected '>'"),
        (_fn("", f"%x: tensor<16x16xf32, #ttg.blocked<{{{_BLK_4x8}}} {{}}>>"), (2, 134), "expected '>'"),
        # a register layout moves to or from tensor memory only where one tcgen05.ld/st message
        # atom tiles it (mutant 17763 of seed 404: a blockM = 64 buffer)
        (_tmem_io("alloc", "128x256xf32", "#ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], "
                  "warpsPerCTA = [4, 2], order = [0, 1]}>", 64, 32, warps=8), (3, 8), "'ttng.tmem_alloc' op source"),
        (_tmem_io("load", "128x64xf32", _lin(_COLS_64, _LANES_SWAPPED, "[[32, 0], [64, 0]]"), 128, 64), (3, 8),
         "'ttng.tmem_load' op result"),
        (_tmem_io("store", "128x64xf32", _lin(_COLS_64, _LANES_SWAPPED, "[[32, 0], [64, 0]]"), 128, 64), (4, 3),
         "'ttng.tmem_store' op source"),
        # a message may take at most half the registers: the 16x256b atom's 4 need ttg.maxnreg >= 8
        (_maxnreg(_tmem_io("load", "128x64xf32", _M16x256, 128, 64), 6), (3, 8), "'ttng.tmem_load' op result"),
        # 16-bit elements pack two columns into a 32-bit word only where the first register
        # holds the next column (registers are reordered for the message, not for packing)
        (_tmem_io("load", "128x64xf16", _lin("[[0, 2], [0, 1], [0, 4], [0, 8], [0, 16], [0, 32]]",
                                             "[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]", "[[32, 0], [64, 0]]"),
                  128, 64), (3, 8), "'ttng.tmem_load' op result"),
        # one scaled tcgen05 MMA reads K = 64 values when both operands are e2m1, else 32
        (_scaled_k(16, 16, "e4m3", "e4m3", "f8E4M3FN", "f8E4M3FN"), (3, 3),
         "'ttng.tc_gen5_mma_scaled' op K dimension must be at least 32 for this scaled MMA, but got 16"),
        (_scaled_k(16, 16, "e2m1", "e2m1", "i8", "i8"), (3, 3),
         "'ttng.tc_gen5_mma_scaled' op K dimension must be at least 64 for this scaled MMA, but got 32"),
        (_scaled_k(8, 16, "e2m1", "e4m3", "i8", "f8E4M3FN"), (3, 3),
         "'ttng.tc_gen5_mma_scaled' op K dimension must be at least 32 for this scaled MMA, but got 16"),
    ],
)
def test_separators_tmem_messages_and_scaled_k(tmp_path: Path, text: str, where: tuple[int, int], message: str) -> None:
    line, col, got = _refused(tmp_path, text)
    assert (got, (line, col)) == (message, where)


_ACCEPTED_TMEM = [
    _shared_arg("16x16xf16", f"#ttg.shared_linear<{_SL_BASES}, alignment = 16>"),
    _shared_arg("64x64xf16", f"#ttg.padded_shared<[32:+4] {_PAD}>"),
    # blockM = 64: lanes take 16 rows and one column bit, warps rows 16 and 32
    _tmem_io("store", "64x128xf32", _lin("[[0, 16], [0, 64], [0, 32], [0, 2], [0, 4], [0, 1]]",
                                         "[[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]]", "[[16, 0], [32, 0]]"), 64, 8),
    _tmem_io("store", "64x32xi8", _lin("[[0, 1], [0, 2], [0, 16]]", "[[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]]",
                                       "[[16, 0], [32, 0], [0, 4]]"), 64, 16, warps=8),
    _tmem_io("load", "64x128xf16", _lin("[[0, 64], [0, 4], [0, 32], [0, 16], [0, 1], [0, 8]]",
                                        "[[1, 0], [2, 0], [4, 0], [8, 0], [0, 2]]", "[[16, 0], [32, 0]]"), 64, 8, 2),
    # blockM = 128, f16 unpacked (colStride = 2), registers in any order
    _tmem_io("alloc", "256x128xf16", _lin("[[0, 16], [0, 1], [128, 0], [0, 4], [0, 64], [0, 32], [0, 8], [0, 2]]",
                                          "[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]", "[[32, 0], [64, 0]]"), 128, 64, 2),
    # ... and registers in order, packed
    _tmem_io("load", "128x64xf16", _lin("[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]]",
                                        "[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]", "[[32, 0], [64, 0]]"), 128, 64),
    # the 16x256b atom: two registers on (row 0, col 1) and (row 8, col 0)
    _tmem_io("load", "128x64xf32", _M16x256, 128, 64),
    _maxnreg(_tmem_io("load", "128x64xf32", _M16x256, 128, 64), 8),
    _scaled_k(32, 32, "e4m3", "e4m3", "f8E4M3FN", "f8E4M3FN"),
    _scaled_k(32, 32, "e2m1", "e2m1", "i8", "i8"),
    _scaled_k(16, 32, "e2m1", "e4m3", "i8", "f8E4M3FN"),
]


@pytest.mark.parametrize("text", _ACCEPTED_TMEM)
def test_what_triton_39_accepts_beside_the_separator_tmem_and_scaled_k_rules(tmp_path: Path, text: str) -> None:
    _accepted_as_triton_reads_it(tmp_path, text)


# --- seed 2026 (100,000 mutants): the lowering and two verifier rules -----------------
_SEED_2026_REFUSED = [
    # an i32 histogram into 2-D bins (Triton's verifier takes it; the lowering refuses it)
    ("module {\n"
     "  tt.func @k(%p: !tt.ptr<i32>) {\n"
     "    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>\n"
     "    %h = tt.histogram %r : tensor<64xi32> -> tensor<64x1xi32>\n"
     "    %q = tt.splat %p : !tt.ptr<i32> -> tensor<64x1x!tt.ptr<i32>>\n"
     "    tt.store %q, %h : tensor<64x1x!tt.ptr<i32>>\n"
     "    tt.return\n  }\n}\n",
     ("--emit", "ptx"), (4, 10), "'tt.histogram' of other than a 1-D tensor into 1-D bins is not supported"),
    ("llvm.func @f() -> i8 {\n  %0 = llvm.mlir.constant(1 : i32) : i32\n  llvm.return %0 : i32\n}\n",
     (), (3, 3), "'llvm.return' op mismatching result types"),
    ("llvm.func @f() -> i32 {\n  llvm.return\n}\n", (), (2, 3), "'llvm.return' op expected 1 operand"),
    ("llvm.func @f() {\n  %0 = llvm.mlir.constant(1 : i32) : i32\n  llvm.return %0 : i32\n}\n",
     (), (3, 3), "'llvm.return' op expected no operands"),
    # a cluster barrier at module level, or in a noinline helper that is no kernel
    ("module attributes {\"ttg.num-ctas\" = 2 : i32, \"ttg.num-warps\" = 4 : i32} {\n"
     "  ttng.cluster_barrier\n  llvm.func @f() {\n    llvm.return\n  }\n}\n",
     (), (2, 3), "'ttng.cluster_barrier' op must be inside a kernel function"),
    ("module attributes {\"ttg.num-ctas\" = 2 : i32, \"ttg.num-warps\" = 4 : i32} {\n"
     "  tt.func private @f() attributes {noinline = true} {\n    ttng.cluster_barrier\n    tt.return\n  }\n}\n",
     (), (3, 5), "'ttng.cluster_barrier' op must be inside a kernel function"),
]


@pytest.mark.parametrize(("text", "flags", "where", "message"), _SEED_2026_REFUSED)
def test_seed_2026_finds(tmp_path: Path, text: str, flags: tuple[str, ...], where: tuple[int, int], message: str) -> None:
    line, col, got = _refused(tmp_path, text, *flags)
    assert (got, (line, col)) == (message, where)


_ACCEPTED_2026 = [
    # a cluster barrier in a kernel, and in a helper the inliner will move into one
    "module attributes {\"ttg.num-ctas\" = 2 : i32, \"ttg.num-warps\" = 4 : i32} {\n"
    "  tt.func @k() {\n    ttng.cluster_barrier\n    tt.return\n  }\n"
    "  tt.func private @h() {\n    ttng.cluster_barrier\n    tt.return\n  }\n}\n",
    "llvm.func @f() -> i32 {\n  %0 = llvm.mlir.constant(1 : i32) : i32\n  llvm.return %0 : i32\n}\n",
]


@pytest.mark.parametrize("text", _ACCEPTED_2026)
def test_what_triton_39_accepts_beside_the_seed_2026_rules(tmp_path: Path, text: str) -> None:
    _accepted_as_triton_reads_it(tmp_path, text)


# --- seed 2027 (100,000 mutants): two ODS rules -----------------------------------------
_SEED_2027_REFUSED = [
    ("tt.func @f(%p: !tt.ptr<f32>, %n: i32 {t, t.divisibility = 16 : i32}) {\n  tt.return\n}\n",
     (1, 1), "'tt.func' op arguments may only have dialect attributes"),
    ("tt.func private @f() -> (i32 {nodialect})\n", (1, 1), "'tt.func' op results may only have dialect attributes"),
    ("#s = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>\n"
     "tt.func @f(%d: !tt.tensordesc<8x8xindex, #s>, %v: tensor<8x8xindex>, %i: i32) {\n"
     "  tt.descriptor_store %d[%i, %i], %v : !tt.tensordesc<8x8xindex, #s>, tensor<8x8xindex>\n  tt.return\n}\n",
     (3, 3), "'tt.descriptor_store' op operand #1 must be ranked tensor of floating-point or integer or ptr values, "
     "but got 'tensor<8x8xindex>'"),
]


@pytest.mark.parametrize(("text", "where", "message"), _SEED_2027_REFUSED)
def test_seed_2027_finds(tmp_path: Path, text: str, where: tuple[int, int], message: str) -> None:
    line, col, got = _refused(tmp_path, text)
    assert (got, (line, col)) == (message, where)


# --- seed 2029 (100,000 mutants): three verifier rules ----------------------------------
def _gen5(m: int, k: int, n: int) -> str:
    """One tc_gen5_mma with ``a`` and ``d`` in blockM = 64 tensor memory."""
    a = f"!ttg.memdesc<{m}x{k}xbf16, #tmem, #ttng.tensor_memory>"
    b = f"!ttg.memdesc<{k}x{n}xbf16, #shared, #smem>"
    d = f"!ttg.memdesc<{m}x{n}xf32, #tmem, #ttng.tensor_memory, mutable>"
    return ("#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>\n"
            "#tmem = #ttng.tensor_memory_encoding<blockM = 64, blockN = 128, colStride = 1>\n"
            "#smem = #ttg.shared_memory\n"
            'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", '
            '"ttg.threads-per-warp" = 32 : i32} {\n'
            f"  tt.func @k(%a: {a}, %b: {b}, %d: {d}, %p: i1) {{\n"
            f"    ttng.tc_gen5_mma %a, %b, %d, %p, %p : {a}, {b}, {d}\n"
            "    tt.return\n  }\n}\n")


_CAT = ('#b = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>\n'
        '#b2 = #ttg.blocked<{{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>\n'
        'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32}} {{\n'
        "  tt.func @k(%x: tensor<128xf32{0}>) {{\n"
        "    %c = tt.cat %x, %x : tensor<128xf32{0}> -> tensor<256xf32{1}>\n"
        "    tt.return\n  }}\n}}\n")
_FP4 = ('#b = #ttg.blocked<{{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}}>\n'
        '#b2 = #ttg.blocked<{{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}}>\n'
        'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32}} {{\n'
        "  tt.func @k(%c: tensor<64x32xi8, #b>) {{\n"
        "    %u = ttg.fp4_to_fp %c {{axis = 1 : {0}}} : tensor<64x32xi8, #b> -> tensor<64x64xbf16, #b2>\n"
        "    tt.return\n  }}\n}}\n")
_SEED_2029_REFUSED = [
    # tt.cat: encodings on all of operands and result or on none
    (_CAT.format("", ", #b2"), (5, 10),
     "'tt.cat' op requires that either (a) operands and result all have encodings, or (b) none do."),
    (_CAT.format(", #b", ""), (5, 10),
     "'tt.cat' op requires that either (a) operands and result all have encodings, or (b) none do."),
    # ODS: the axis of ttg.fp4_to_fp is an I32Attr
    (_FP4.format("i8"), (5, 10),
     "'ttg.fp4_to_fp' op attribute 'axis' failed to satisfy constraint: 32-bit signless integer attribute"),
    # the MMAv5 interface: blockM = 64 buffers of several blocks for both a and d
    (_gen5(64, 256, 256), (6, 5), "'ttng.tc_gen5_mma' op does not support blockM=64 with interleaved blocks in TMEM layout"),
    (_gen5(128, 128, 128), (6, 5), "'ttng.tc_gen5_mma' op does not support blockM=64 with interleaved blocks in TMEM layout"),
    (_gen5(128, 64, 64), (6, 5), "'ttng.tc_gen5_mma' op does not support blockM=64 with interleaved blocks in TMEM layout"),
]


@pytest.mark.parametrize(("text", "where", "message"), _SEED_2029_REFUSED)
def test_seed_2029_finds(tmp_path: Path, text: str, where: tuple[int, int], message: str) -> None:
    line, col, got = _refused(tmp_path, text)
    assert (got, (line, col)) == (message, where)


_ACCEPTED_2029 = [
    _CAT.format(", #b", ", #b2"),
    _FP4.format("i32"),
    _gen5(64, 128, 256),  # only d has several blocks
    _gen5(64, 256, 128),  # only a
    _gen5(64, 128, 128),  # one block each
    _gen5(64, 512, 64),
]


@pytest.mark.parametrize("text", _ACCEPTED_2029)
def test_what_triton_39_accepts_beside_the_seed_2029_rules(tmp_path: Path, text: str) -> None:
    _accepted_as_triton_reads_it(tmp_path, text)


# seed 2030: an ``!llvm.array`` count above uint64_t (mutant 32929), and a memdesc_trans whose
# written NVMMA layout has no whole swizzle tile (mutant 48748: Triton aborts comparing it)
def _llvm_array(count: str) -> str:
    return ('module attributes {"ttg.num-warps" = 4 : i32} {\n'
            "  llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : "
            f"!llvm.array<{count} x i8>\n}}\n")


def _memdesc_trans(bits: int) -> str:
    src = "!ttg.memdesc<64x64xf16, #shared, #smem>"
    return ("#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>\n"
            f"#shared1 = #ttg.nvmma_shared<{{swizzlingByteWidth = 128, transposed = true, elementBitWidth = {bits}}}>\n"
            "#smem = #ttg.shared_memory\n"
            'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", '
            '"ttg.threads-per-warp" = 32 : i32} {\n'
            f"  tt.func @k(%a: {src}) {{\n"
            f"    %t = ttg.memdesc_trans %a {{order = array<i32: 1, 0>}} : {src} -> "
            "!ttg.memdesc<64x64xf16, #shared1, #smem>\n"
            "    tt.return\n  }\n}\n")


def _not_a_tile(bits: int) -> str:
    return (f"'ttg.memdesc_trans' op result: #ttg.nvmma_shared<{{swizzlingByteWidth = 128, transposed = true, "
            f"elementBitWidth = {bits}}}> has elementBitWidth {bits}, not a power of 2: no swizzle tile holds whole "
            "elements (Triton aborts: 'Illegal shared layout')")


_SEED_2030_REFUSED = [
    (_llvm_array(str(2**64)), (2, 103), "integer value too large"),
    (_llvm_array("1" + "0" * 30), (2, 103), "integer value too large"),
    (_memdesc_trans(33), (6, 10), _not_a_tile(33)),
    (_memdesc_trans(24), (6, 10), _not_a_tile(24)),
]


@pytest.mark.parametrize(("text", "where", "message"), _SEED_2030_REFUSED)
def test_seed_2030_finds(tmp_path: Path, text: str, where: tuple[int, int], message: str) -> None:
    line, col, got = _refused(tmp_path, text)
    assert (got, (line, col)) == (message, where)


@pytest.mark.parametrize("text", [_llvm_array(str(2**64 - 1)), _llvm_array("0"), _memdesc_trans(16)])
def test_what_triton_39_accepts_beside_the_seed_2030_rules(tmp_path: Path, text: str) -> None:
    _accepted_as_triton_reads_it(tmp_path, text)


# A dialect type's parameter errors are reported where its parameters start (its '<'),
# as MLIR's parser reports them (Triton 3.9's columns)
_TYPE_HEAD = ('#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>\n'
              '#smem = #ttg.shared_memory\nmodule attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {\n')


@pytest.mark.parametrize(("arg", "col", "message"), [
    ("!ttg.memdesc<64x64xf16, #shared, #smem, mutable, 32x64>", 30,
     "shape must be less than or equal to allocShape. shape = 64, 64, allocShape = 32, 64"),
    ("!ttg.memdesc<64xf16, #shared, #smem>", 30, "rank must be equal to or one less than the shape size. Got 2 and 1"),
    ("!tt.tensordesc<tensor<64x64xf16, #shared>>", 32,
     "tensor descriptors must not wrap tensor types; use !tt.tensordesc<shape x element-type[, layout]> instead"),
])
def test_type_parameter_errors_point_at_the_parameters(tmp_path: Path, arg: str, col: int, message: str) -> None:
    text = _TYPE_HEAD + f"  tt.func @f(%a: {arg}) {{\n    tt.return\n  }}\n}}\n"
    assert _refused(tmp_path, text) == (4, col, message)


# seed 2031: an llvm.mlir.global attribute of the wrong width or sign (mutant 22135), a
# reduction of index values (65669), a two-CTA MMA wider than one instruction along N
# per CTA (65118), an MMA operand dimension of 2**31 (57379: Triton aborts), and the
# control-flow edges of scf.while (3879: xDSL indexed its arguments before counting them)
def _global(attrs: str) -> str:
    return f"llvm.mlir.global external @global_smem() {{{attrs}}} : !llvm.array<0 x i8>\n"


def _reduce(elem: str, op: str = "reduce") -> str:
    region = f"^bb0(%a: {elem}, %b: {elem}):\n      %c = arith.ori %a, %b : {elem}\n      tt.{op}.return %c : {elem}\n"
    props = "<{axis = 1 : i32}>" if op == "reduce" else "<{axis = 1 : i32, reverse = false}>"
    result = f"tensor<256x{elem}, #slice>" if op == "reduce" else f"tensor<256x2x{elem}, #blocked>"
    return ("#blocked = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 2], order = [1, 0]}>\n"
            "#slice = #ttg.slice<{dim = 1, parent = #blocked}>\n"
            'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32} {\n'
            f"  tt.func public @f(%arg: tensor<256x2x{elem}, #blocked>) {{\n"
            f'    %r = "tt.{op}"(%arg) {props} ({{\n    {region}'
            f"    }}) : (tensor<256x2x{elem}, #blocked>) -> {result}\n"
            "    tt.return\n  }\n}\n")


def _two_cta_mma(k: int, n: int, block_n: int = 128) -> str:
    a = f"!ttg.memdesc<256x{k}xf16, #shared, #ttg.shared_memory>"
    b = f"!ttg.memdesc<{k}x{n}xf16, #shared1, #ttg.shared_memory>"
    d = f"!ttg.memdesc<256x{n}xf32, #tmem, #ttng.tensor_memory, mutable>"
    return ("#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16, CGALayout = [[1, 0]]}>\n"
            "#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>\n"
            f"#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = {block_n}, colStride = 1, CGALayout = [[1, 0]], twoCTAs = true>\n"
            'module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 8 : i32, "ttng.two-ctas" = true} {\n'
            f"  tt.func @f(%a: {a}, %b: {b}, %d: {d}, %p: i1) {{\n"
            f"    ttng.tc_gen5_mma %a, %b, %d, %p, %p {{two_ctas}} : {a}, {b}, {d}\n"
            "    tt.return\n  }\n}\n")


def _while(inits: str, cond: str, after: str, yields: str, types: str = "i32", results: str = "(i32)") -> str:
    return ("module {\n  tt.func @f(%c: i32, %b: i1) {\n"
            f"    %r = scf.while ({inits}) : ({types}) -> {results} {{\n"
            f"      scf.condition(%b) {cond}\n    }} do {{\n    {after}\n      scf.yield {yields}\n    }}\n"
            "    tt.return\n  }\n}\n")


_EDGE = "'scf.while' op along control flow edge from Operation scf."
_SEED_2031_REFUSED = [
    (_global("addr_space = -1 : i32, alignment = 16 : i64"), (1, 1),
     "'llvm.mlir.global' op attribute 'addr_space' failed to satisfy constraint: 32-bit signless integer attribute "
     "whose value is non-negative"),
    (_global("addr_space = 3 : i64"), (1, 1),
     "'llvm.mlir.global' op attribute 'addr_space' failed to satisfy constraint: 32-bit signless integer attribute "
     "whose value is non-negative"),
    (_global("addr_space = 3 : i32, alignment = 16 : i32"), (1, 1),
     "'llvm.mlir.global' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute"),
    (_reduce("index"), (5, 10),
     "'tt.reduce' op operand #0 must be variadic of ranked tensor of floating-point or integer or ptr values, but got "
     "'tensor<256x2xindex, #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 2], "
     "order = [1, 0]}>>'"),
    (_reduce("index", "scan"), (5, 10),
     "'tt.scan' op operand #0 must be variadic of ranked tensor of floating-point or integer or ptr values, but got "
     "'tensor<256x2xindex, #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 2], "
     "order = [1, 0]}>>'"),
    (_two_cta_mma(32, 1024), (6, 5), "'ttng.tc_gen5_mma' op We don't allow to emit more than one mma instruction along "
     "N. Reduce the block or increase the number of warps or CTAs along N"),
    (_two_cta_mma(32, 512, 256), (6, 5), "'ttng.tc_gen5_mma' op We don't allow to emit more than one mma instruction "
     "along N. Reduce the block or increase the number of warps or CTAs along N"),
    (_two_cta_mma(1 << 31, 128), (6, 5), "'ttng.tc_gen5_mma' op operand A dimension 1 of size 2147483648 is out of "
     "range: a shared-memory layout needs sizes below 2**31"),
    (_while("%x = %c", "%x : i32", "", "%c : i32"), (3, 10),
     _EDGE + "condition to Region #1: region branch point has 1 operands, but region successor needs 0 inputs"),
    (_while("%x = %c", "%x, %x : i32, i32", "^bb0(%y: i32):", "%y : i32"), (3, 10),
     _EDGE + "condition to Operation scf.while: region branch point has 2 operands, but region successor needs 1 inputs"),
    (_while("%x = %c", "%x : i32", "^bb0(%y: i32):", "%y, %y : i32, i32"), (3, 10),
     _EDGE + "yield to Region #0: region branch point has 2 operands, but region successor needs 1 inputs"),
    (_while("%x = %c", "%x : i32", "^bb0(%y: i32, %z: i32):", "%y : i32"), (3, 10),
     _EDGE + "condition to Region #1: region branch point has 1 operands, but region successor needs 2 inputs"),
    (_while("%x = %c", "%b : i1", "^bb0(%y: i32):", "%y : i32"), (3, 10),
     _EDGE + "condition to Operation scf.while: successor operand type #0 'i1' should match successor input type #0 'i32'"),
    (_while("%x = %c", "%x : i32", "^bb0(%y: f32):", "%c : i32"), (3, 10),
     _EDGE + "condition to Region #1: successor operand type #0 'i32' should match successor input type #0 'f32'"),
]


@pytest.mark.parametrize(("text", "where", "message"), _SEED_2031_REFUSED)
def test_seed_2031_finds(tmp_path: Path, text: str, where: tuple[int, int], message: str) -> None:
    line, col, got = _refused(tmp_path, text)
    assert (got, (line, col)) == (message, where)


@pytest.mark.parametrize("text", [
    "module {\n  " + _global("addr_space = 3 : i32, alignment = 16 : i64") + "}\n",
    "module {\n  " + _global("addr_space = 0 : i32") + "}\n",
    _reduce("i32"),
    _two_cta_mma(32, 256),
    _two_cta_mma(32, 256, 256),
    _while("%x = %c", "%x : i32", "^bb0(%y: i32):", "%y : i32"),
])
def test_what_triton_39_accepts_beside_the_seed_2031_rules(tmp_path: Path, text: str) -> None:
    _accepted_as_triton_reads_it(tmp_path, text)


# seed 2032, mutant 90846: inline asm results are Variadic<TT_Type> (its operands any type)
def _inline_asm(arg: str, res: str) -> str:
    t_arg, t_res = f"tensor<64x64x{arg}, #blocked>", f"tensor<64x64x{res}, #blocked>"
    return ("#blocked = #ttg.blocked<{sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>\n"
            'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", '
            '"ttg.threads-per-warp" = 32 : i32} {\n'
            f"  tt.func public @f(%x: {t_arg}) {{\n"
            '    %r:2 = tt.elementwise_inline_asm "" {constraints = "=r,=r,r", packed_element = 4 : i32, pure = true} '
            f"%x : {t_arg} -> {t_res}, {t_res}\n"
            "    tt.return\n  }\n}\n")


def test_inline_asm_results_are_triton_types(tmp_path: Path) -> None:
    assert _refused(tmp_path, _inline_asm("i8", "index")) == (
        4, 12, "'tt.elementwise_inline_asm' op result #0 must be variadic of floating-point or ranked tensor of "
        "floating-point values or integer or ranked tensor of integer values or ptr or ranked tensor of ptr values, but "
        "got 'tensor<64x64xindex, #ttg.blocked<{sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], "
        "order = [0, 1]}>>'")


@pytest.mark.parametrize(("arg", "res"), [("index", "i8"), ("i8", "i8")])
def test_inline_asm_that_triton_39_accepts(tmp_path: Path, arg: str, res: str) -> None:
    _accepted_as_triton_reads_it(tmp_path, _inline_asm(arg, res))


# seed 2034, mutant 66083: llvm.mlir.addressof must name a global (or function) of its
# symbol table, in the pointer's address space (MLIR's verifySymbolUses)
def _addressof(globals_: str, use: str) -> str:
    return f"module {{\n{globals_}  llvm.func @k() {{\n    %p = llvm.mlir.addressof {use}\n    llvm.return\n  }}\n}}\n"


_SMEM = "  llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>\n"


@pytest.mark.parametrize(("text", "message"), [
    (_addressof("", "@global_smem : !llvm.ptr<3>"),
     "must reference a global defined by 'llvm.mlir.global', 'llvm.mlir.alias' or 'llvm.func' or 'llvm.mlir.ifunc'"),
    (_addressof(_SMEM, "@global_smem : !llvm.ptr<1>"),
     "pointer address space must match address space of the referenced global or alias"),
])
def test_addressof_names_a_global_of_its_address_space(tmp_path: Path, text: str, message: str) -> None:
    line = 2 + text.count("llvm.mlir.global")
    assert _refused(tmp_path, text) == (line + 1, 10, f"'llvm.mlir.addressof' op {message}")


@pytest.mark.parametrize("text", [
    _addressof(_SMEM, "@global_smem : !llvm.ptr<3>"),
    _addressof("", "@k : !llvm.ptr"),
])
def test_addressof_that_triton_39_accepts(tmp_path: Path, text: str) -> None:
    _accepted_as_triton_reads_it(tmp_path, text)


# seed 2035, mutants 74345 and 87202: Triton dies on both (SIGFPE; "Illegal shared layout")
def _scaled_mma(scale_a: str, scale_b: str) -> str:
    types = (f"!ttg.memdesc<128x64xi8, #shared, #smem>, !ttg.memdesc<128x128xi8, #shared1, #smem>, "
             f"!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, "
             f"!ttg.memdesc<{scale_a}xi8, #scales, #ttng.tensor_memory>, "
             f"!ttg.memdesc<{scale_b}xi8, #scales, #ttng.tensor_memory>")
    args = ", ".join(f"%{n}: !{t.lstrip('!')}" for n, t in zip("abcxy", types.split(", !")))
    return ("#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>\n"
            "#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>\n"
            "#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>\n"
            "#scales = #ttng.tensor_memory_scales_encoding<>\n#smem = #ttg.shared_memory\n"
            'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {\n'
            f"  tt.func @f({args}, %p: i1) {{\n"
            f"    ttng.tc_gen5_mma_scaled %a, %b, %c, %x, %y, %p, %p lhs = e2m1 rhs = e4m3 : {types}\n"
            "    tt.return\n  }\n}\n")


def _tmem_copy(src_enc: str, dst_enc: str, shape: str) -> str:
    src = f"!ttg.memdesc<{shape}, #src, #ttg.shared_memory>"
    dst = f"!ttg.memdesc<{shape}, #dst, #ttng.tensor_memory, mutable>"
    return (f"#src = {src_enc}\n#dst = {dst_enc}\n"
            'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {\n'
            f"  tt.func @f(%s: {src}) {{\n"
            f"    %d = ttng.tmem_alloc : () -> {dst}\n"
            f"    ttng.tmem_copy %s, %d : {src}, {dst}\n"
            "    tt.return\n  }\n}\n")


def _nvmma(swizzle: int, bits: int) -> str:
    return f"#ttg.nvmma_shared<{{swizzlingByteWidth = {swizzle}, transposed = false, elementBitWidth = {bits}}}>"


_TMEM = "#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>"
_SCALES = "#ttng.tensor_memory_scales_encoding<>"
_UNSWIZZLED = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"
_TILE = "(Triton aborts: 'Illegal shared layout')"


@pytest.mark.parametrize(("text", "message"), [
    (_scaled_mma("128x1099511627776", "128x4"),
     "'ttng.tc_gen5_mma_scaled' op scale A dimension 1 of size 1099511627776 is out of range: scale sizes must be "
     "below 2**32"),
    (_scaled_mma("128x4", "4294967296x4"),
     "'ttng.tc_gen5_mma_scaled' op scale B dimension 0 of size 4294967296 is out of range: scale sizes must be "
     "below 2**32"),
    (_tmem_copy(_nvmma(128, 24), _TMEM, "128x128xf32"),
     f"'ttng.tmem_copy' op source: {_nvmma(128, 24)} has elementBitWidth 24, not a power of 2: no swizzle tile holds "
     f"whole elements {_TILE}"),
    (_tmem_copy(_nvmma(128, 2048), _TMEM, "128x128xf32"),
     f"'ttng.tmem_copy' op source: {_nvmma(128, 2048)} has elementBitWidth 2048, wider than a swizzle tile's row of "
     f"1024 bits: no row holds a whole element {_TILE}"),
    (_tmem_copy(_nvmma(32, 512), _TMEM, "128x128xf32"),
     f"'ttng.tmem_copy' op source: {_nvmma(32, 512)} has elementBitWidth 512, wider than a swizzle tile's row of "
     f"256 bits: no row holds a whole element {_TILE}"),
    (_tmem_copy(_UNSWIZZLED, _SCALES, "128x2147483648xi8"),
     "'ttng.tmem_copy' op a source of 274877906944 elements does not fit a shared-memory layout (offsets are below "
     "2**31)"),
])
def test_seed_2035_finds(tmp_path: Path, text: str, message: str) -> None:
    line = text.count("\n", 0, text.index("    ttng.t")) + 1  # the refused op's line
    assert _refused(tmp_path, text) == (line, 5, message)


@pytest.mark.parametrize("text", [
    _scaled_mma("128x2147483648", "128x2147483648"),
    _scaled_mma("128x4", "128x4"),
    _tmem_copy(_nvmma(128, 1024), _TMEM, "128x128xf32"),
    _tmem_copy(_nvmma(64, 512), _TMEM, "128x128xf32"),
    _tmem_copy(_nvmma(32, 256), _TMEM, "128x128xf32"),
    _tmem_copy(_UNSWIZZLED, _SCALES, "128x16xi8"),
])
def test_what_triton_39_accepts_beside_the_seed_2035_rules(tmp_path: Path, text: str) -> None:
    _accepted_as_triton_reads_it(tmp_path, text)


# seed 2029, mutant 24966: a tmem_copy whose source has 2**31 elements or more (Triton
# aborts building its shared layout: the 32-bit 'offset' dim wraps)
def test_a_tmem_copy_source_of_2_31_elements_is_refused(tmp_path: Path) -> None:
    line, col, got = _refused(tmp_path, _tmem_copy(_nvmma(128, 32), _TMEM, "65536x32768xf32"))
    assert (got, (line, col)) == ("'ttng.tmem_copy' op a source of 2147483648 elements does not fit a shared-memory "
                                  "layout (offsets are below 2**31)", (6, 5))


def test_a_tmem_copy_source_below_2_31_elements_is_what_triton_39_accepts(tmp_path: Path) -> None:
    _accepted_as_triton_reads_it(tmp_path, _tmem_copy(_nvmma(128, 32), _TMEM, "32768x32768xf32"))


# seed 2037 (mutants 76931, 33882, 56266, 39070): inputs Triton 3.9 rejects or dies on
def _module_with_block_args(args: str) -> str:
    return ('module attributes {"ttg.num-warps" = 4 : i32} {\n'
            f"{args}  tt.func @f() {{\n    tt.return\n  }}\n}}\n")


def _tmem_reinterpret(src: str) -> str:
    s = f"!ttg.memdesc<{src}xf32, #f32, #ttng.tensor_memory>"
    r = "!ttg.memdesc<256x32xf16, #f16, #ttng.tensor_memory>"
    return ("#f32 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 16, colStride = 1>\n"
            "#f16 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 16, colStride = 2>\n"
            'module attributes {"ttg.num-warps" = 4 : i32} {\n'
            f"  tt.func private @f(%x: {s}) -> {r} {{\n"
            f"    %0 = ttg.memdesc_reinterpret %x : {s} -> {r}\n"
            f"    tt.return %0 : {r}\n  }}\n}}\n")


def _tmem_scales(shape: str) -> str:
    return ("#scales = #ttng.tensor_memory_scales_encoding<>\n"
            'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {\n'
            "  tt.func public @f() {\n"
            f"    %s = ttng.tmem_alloc : () -> !ttg.memdesc<{shape}, #scales, #ttng.tensor_memory, mutable>\n"
            "    tt.return\n  }\n}\n")


def _tmem_load(shape: str) -> str:
    m = f"!ttg.memdesc<{shape}xf32, #tmem, #ttng.tensor_memory, mutable>"
    return ("#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
            "#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>\n"
            'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", '
            '"ttg.threads-per-warp" = 32 : i32} {\n'
            f"  tt.func public @f(%m: {m}) {{\n"
            f"    %r = ttng.tmem_load %m : {m} -> tensor<{shape}xf32, #blocked>\n"
            "    tt.return\n  }\n}\n")


@pytest.mark.parametrize(("text", "where", "message"), [
    (_module_with_block_args("  ^bb0(%a: f32):\n"), (1, 1), "'builtin.module' op region should have no arguments"),
    (_tmem_reinterpret("1x128x32"), (5, 10), "'ttg.memdesc_reinterpret' op result tensor-memory column footprint "
     "(64 columns) exceeds the source view (32 columns)"),
    (_tmem_scales("128x5xi8"), (4, 46), "shape must have power-of-2 and non-zero dimensions; got 128, 5"),
    (_tmem_scales("3x4xi8"), (4, 46), "shape must have power-of-2 and non-zero dimensions; got 3, 4"),
    (_tmem_load("131072x65536"), (5, 10), "'ttng.tmem_load' op result of 8589934592 elements is out of range: a "
     "tensor-memory access moves at most 2**32 (Triton's layout check aborts beyond)"),
])
def test_seed_2037_finds(tmp_path: Path, text: str, where: tuple[int, int], message: str) -> None:
    line, col, got = _refused(tmp_path, text)
    assert (got, (line, col)) == (message, where)


@pytest.mark.parametrize("text", [
    _module_with_block_args(""),
    _tmem_reinterpret("2x128x32"),
    _tmem_reinterpret("4x128x16"),
    _tmem_scales("128x4xi8"),
    _tmem_load("65536x65536"),
])
def test_what_triton_39_accepts_beside_the_seed_2037_rules(tmp_path: Path, text: str) -> None:
    _accepted_as_triton_reads_it(tmp_path, text)
