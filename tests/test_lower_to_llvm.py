"""convert-tritongpu-to-llvm: the lowered IR has exactly the instructions the plans and
layouts imply (independent of the emitters and the simulator)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from ltc.lowering.plans.convert import plan_conversion
from ltc.lowering.llvm.function import LoweringError
from ltc.lowering.llvm.to_llvm import lower_module
from ltc.passes.layout_ir import linear_layout_of
from ltc.tools.pipeline import PipelineError, compile_kernel, parse_module

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from convert_cases import CASES  # noqa: E402

triton = pytest.importorskip("triton", reason="Triton's TTGIR of the conversion cases needs triton")
from triton_convert import kernel_ttgir  # noqa: E402


def _counts(module) -> dict[str, int]:  # noqa: ANN001
    c = {"shfl": 0, "st.shared": 0, "ld.shared": 0, "stmatrix": 0, "ldmatrix": 0, "barrier": 0}
    for op in module.walk():
        if op.name == "llvm.call_intrinsic":
            name = op.properties["intrin"].data
            if name.startswith("llvm.nvvm.shfl.sync"):
                c["shfl"] += 1
            elif name == "llvm.nvvm.barrier0":
                c["barrier"] += 1
        elif op.name == "llvm.inline_asm":
            text = op.properties["asm_string"].data
            for key in ("st.shared", "ld.shared", "stmatrix", "ldmatrix"):
                c[key] += text.count(key)
    return c


def _convert_types(text: str) -> tuple[object, object]:
    module = parse_module(text)
    for op in module.walk():
        if op.name == "ttg.convert_layout":
            return op.operands[0].type, op.results[0].type
    raise AssertionError("no convert_layout")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_conversion_lowers_to_its_plan(case) -> None:  # noqa: ANN001
    """Each conversion kernel's lowered IR moves data exactly as its plan says: the same
    number of shuffles, shared stores/loads, matrix instructions and barriers, and the
    module's scratch size is the plan's."""
    text = kernel_ttgir(case)
    module = parse_module(text)
    converts = [op for op in module.walk() if op.name == "ttg.convert_layout"]
    counts = {"shfl": 0, "st.shared": 0, "ld.shared": 0, "stmatrix": 0, "ldmatrix": 0, "barrier": 0}
    scratch = 0
    for cvt in converts:
        src, dst = linear_layout_of(cvt.operands[0].type), linear_layout_of(cvt.results[0].type)
        plan = plan_conversion(src, dst, case.elem_bits)
        pc = plan.counts
        counts["shfl"] += pc.shuffles
        counts["st.shared"] += pc.shared_stores
        counts["ld.shared"] += pc.shared_loads
        counts["stmatrix"] += pc.stmatrix
        counts["ldmatrix"] += pc.ldmatrix
        counts["barrier"] += pc.barriers
        scratch = max(scratch, plan.scratch_bytes)
    lower_module(module)
    assert _counts(module) == counts
    assert module.attributes["ttg.shared"].value.data == scratch
    assert [op.name for op in module.body.block.ops] == (["llvm.mlir.global"] if scratch else []) + ["llvm.func"]


def _copy_kernel(layout: str, shape: tuple[int, int], dtype: str, divisibility: int = 16) -> str:
    m, n = shape
    enc = "#l"
    return f"""#l = {layout}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @copy(%in: !tt.ptr<{dtype}> {{tt.divisibility = {divisibility} : i32}}, %out: !tt.ptr<{dtype}> {{tt.divisibility = {divisibility} : i32}}) {{
    %r0 = tt.make_range {{end = {m} : i32, start = 0 : i32}} : tensor<{m}xi32, #ttg.slice<{{dim = 1, parent = {enc}}}>>
    %r1 = tt.make_range {{end = {n} : i32, start = 0 : i32}} : tensor<{n}xi32, #ttg.slice<{{dim = 0, parent = {enc}}}>>
    %e0 = tt.expand_dims %r0 {{axis = 1 : i32}} : tensor<{m}xi32, #ttg.slice<{{dim = 1, parent = {enc}}}>> -> tensor<{m}x1xi32, {enc}>
    %e1 = tt.expand_dims %r1 {{axis = 0 : i32}} : tensor<{n}xi32, #ttg.slice<{{dim = 0, parent = {enc}}}>> -> tensor<1x{n}xi32, {enc}>
    %c = arith.constant dense<{n}> : tensor<{m}x1xi32, {enc}>
    %s0 = arith.muli %e0, %c : tensor<{m}x1xi32, {enc}>
    %b0 = tt.broadcast %s0 : tensor<{m}x1xi32, {enc}> -> tensor<{m}x{n}xi32, {enc}>
    %b1 = tt.broadcast %e1 : tensor<1x{n}xi32, {enc}> -> tensor<{m}x{n}xi32, {enc}>
    %off = arith.addi %b0, %b1 : tensor<{m}x{n}xi32, {enc}>
    %pi = tt.splat %in : !tt.ptr<{dtype}> -> tensor<{m}x{n}x!tt.ptr<{dtype}>, {enc}>
    %pin = tt.addptr %pi, %off : tensor<{m}x{n}x!tt.ptr<{dtype}>, {enc}>, tensor<{m}x{n}xi32, {enc}>
    %x = tt.load %pin : tensor<{m}x{n}x!tt.ptr<{dtype}>, {enc}>
    %po = tt.splat %out : !tt.ptr<{dtype}> -> tensor<{m}x{n}x!tt.ptr<{dtype}>, {enc}>
    %pout = tt.addptr %po, %off : tensor<{m}x{n}x!tt.ptr<{dtype}>, {enc}>, tensor<{m}x{n}xi32, {enc}>
    tt.store %pout, %x : tensor<{m}x{n}x!tt.ptr<{dtype}>, {enc}>
    tt.return
  }}
}}
"""


def _asm_lines(module) -> list[str]:  # noqa: ANN001
    return [op.properties["asm_string"].data for op in module.walk() if op.name == "llvm.inline_asm"]


@pytest.mark.parametrize(
    ("spt", "dtype", "divisibility", "width"),
    [
        ([1, 8], "f16", 16, "ld.global.v4.b32"),  # 8 x f16 = 128 bits
        ([1, 4], "f16", 16, "ld.global.v2.b32"),
        ([1, 2], "f16", 16, "ld.global.b32"),
        ([1, 1], "f16", 16, "ld.global.b16"),
        ([1, 4], "f32", 16, "ld.global.v4.b32"),
        ([1, 8], "f32", 16, "ld.global.v4.b32"),  # capped at 128 bits: two loads per thread row
        ([1, 16], "i8", 16, "ld.global.v4.b32"),
        ([1, 8], "f16", 4, "ld.global.b32"),  # rows only 4-byte aligned: 2 x f16 per access
        ([1, 8], "f16", 1, "ld.global.b16"),
    ],
)
def test_global_vector_width(spt: list[int], dtype: str, divisibility: int, width: str) -> None:
    """Table 2's rule: contiguous registers, capped by pointer alignment and 128 bits."""
    layout = (
        f"#ttg.blocked<{{sizePerThread = [{spt[0]}, {spt[1]}], threadsPerWarp = [8, 4], "
        "warpsPerCTA = [4, 1], order = [1, 0]}>"
    )
    module = parse_module(_copy_kernel(layout, (64, 64), dtype, divisibility))
    lower_module(module)
    lines = _asm_lines(module)
    loads = [ln for ln in lines if "ld.global" in ln]
    stores = [ln for ln in lines if "st.global" in ln]
    assert all(width in ln for ln in loads), loads[:2]
    assert all(width.replace("ld.", "st.") in ln for ln in stores), stores[:2]
    bits = {"f16": 16, "f32": 32, "i8": 8}[dtype]
    m = re.search(r"\.v(\d)\.b32|\.b(\d+)", width)
    assert m
    per_access = int(m.group(1)) * 32 if m.group(1) else int(m.group(2))
    assert len(loads) * per_access == 64 * 64 * bits // 128  # every element exactly once per thread


def test_free_shape_ops_rename_registers() -> None:
    """tt.trans between a layout and its transpose moves nothing: no shuffles, no shared."""
    layout_a = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>"
    layout_b = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>"
    text = f"""#a = {layout_a}
#b = {layout_b}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @t(%x: f32) {{
    %s = tt.splat %x : f32 -> tensor<32x32xf32, #a>
    %t = tt.trans %s {{order = array<i32: 1, 0>}} : tensor<32x32xf32, #a> -> tensor<32x32xf32, #b>
    tt.return
  }}
}}
"""
    module = parse_module(text)
    lower_module(module)
    assert _counts(module) == {"shfl": 0, "st.shared": 0, "ld.shared": 0, "stmatrix": 0, "ldmatrix": 0, "barrier": 0}


def test_trans_between_unrelated_layouts_is_refused() -> None:
    layout = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>"
    text = f"""#a = {layout}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @t(%x: f32) {{
    %s = tt.splat %x : f32 -> tensor<32x32xf32, #a>
    %t = tt.trans %s {{order = array<i32: 1, 0>}} : tensor<32x32xf32, #a> -> tensor<32x32xf32, #a>
    tt.return
  }}
}}
"""
    # Triton's verifier refuses this trans (its result must be the inferred layout) ...
    with pytest.raises(PipelineError, match="'tt.trans' op inferred type"):
        parse_module(text)
    # ... and the lowering, given it unverified, refuses it by name instead of moving data
    with pytest.raises(LoweringError, match="not free"):
        lower_module(parse_module(text, verify=False))


def test_unsupported_op_is_a_diagnostic(tmp_path: Path) -> None:
    """ltc-opt --emit ptx on a kernel with an op the lowering lacks: file:line:col, exit 1."""
    src = ROOT / "examples" / "triton" / "matmul.ttgir"
    proc = subprocess.run(
        [sys.executable, "-m", "ltc.tools.opt", str(src), "--emit", "ptx"], capture_output=True, text=True
    )
    assert proc.returncode == 1, proc.stderr
    first = proc.stderr.splitlines()[0]
    # (its Hopper-only ops: the async fence before the warp-group MMA comes first)
    assert re.match(rf"{re.escape(str(src))}:81:7: error: 'ttng.fence_async_shared' is not supported", first), first
    assert "Traceback" not in proc.stderr


def test_compile_kernel_rejects_unknown_target() -> None:
    text = (ROOT / "examples" / "triton" / "vector_add.ttgir").read_text()
    with pytest.raises(PipelineError, match="unknown target 'sm_70'"):
        compile_kernel(text, target="sm_70")


def test_a_tensor_too_large_for_registers_is_refused_at_once() -> None:
    # 2^20 elements over one warp: 32768 per thread (the planners would take minutes)
    layout = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>"
    text = f"""#a = {layout}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @t(%p: !tt.ptr<f32>) {{
    %r = tt.make_range {{end = 1048576 : i32, start = 0 : i32}} : tensor<1048576xi32, #a>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1048576x!tt.ptr<f32>, #a>
    %q = tt.addptr %ps, %r : tensor<1048576x!tt.ptr<f32>, #a>, tensor<1048576xi32, #a>
    %v = tt.load %q : tensor<1048576x!tt.ptr<f32>, #a>
    tt.store %q, %v : tensor<1048576x!tt.ptr<f32>, #a>
    tt.return
  }}
}}
"""
    with pytest.raises(LoweringError, match="32768 elements per thread in one tensor is more than ltc lowers"):
        lower_module(parse_module(text))
