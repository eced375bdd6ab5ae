"""Addresses from 64-bit ``row * stride + col`` offsets: a pointer per row, then a
widening multiply-add per element (what LLVM's reassociation gives Triton).

``ThreadBuilder.gep`` steps a pointer by an i64 sum whose one part other sums share
(the row offset of a broadcast) first, so each row's pointer is made once, then by the
other part; the PTX emitter widens a sign-extended i32 index with ``mul.wide.s32``. The
kernel copies an ``R x C`` block of a row-major matrix with i64 offsets; the checks are
the exact instruction counts and the copied values in the PTX simulator.
"""

from __future__ import annotations

import numpy as np
import pytest

from ltc.lowering.ptxsim.run import simulate_ptx
from ltc.passes.interpret import run_kernel
from ltc.tools.pipeline import compile_kernel
from tests.emit_fixtures import parse

R, C = 8, 64


def _kernel(spt: int) -> str:
    t = f"tensor<{R}x{C}"
    return f"""#b = #ttg.blocked<{{sizePerThread = [1, {spt}], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @copy(%src: !tt.ptr<f32>, %dst: !tt.ptr<f32>, %stride: i32) {{
    %rows = tt.make_range {{end = {R} : i32, start = 0 : i32}} : tensor<{R}xi32, #ttg.slice<{{dim = 1, parent = #b}}>>
    %r2 = tt.expand_dims %rows {{axis = 1 : i32}} : tensor<{R}xi32, #ttg.slice<{{dim = 1, parent = #b}}>> -> tensor<{R}x1xi32, #b>
    %r64 = arith.extsi %r2 : tensor<{R}x1xi32, #b> to tensor<{R}x1xi64, #b>
    %s = arith.extsi %stride : i32 to i64
    %ss = tt.splat %s : i64 -> tensor<{R}x1xi64, #b>
    %roff = arith.muli %r64, %ss : tensor<{R}x1xi64, #b>
    %cols = tt.make_range {{end = {C} : i32, start = 0 : i32}} : tensor<{C}xi32, #ttg.slice<{{dim = 0, parent = #b}}>>
    %c2 = tt.expand_dims %cols {{axis = 0 : i32}} : tensor<{C}xi32, #ttg.slice<{{dim = 0, parent = #b}}>> -> tensor<1x{C}xi32, #b>
    %c64 = arith.extsi %c2 : tensor<1x{C}xi32, #b> to tensor<1x{C}xi64, #b>
    %rb = tt.broadcast %roff : tensor<{R}x1xi64, #b> -> {t}xi64, #b>
    %cb = tt.broadcast %c64 : tensor<1x{C}xi64, #b> -> {t}xi64, #b>
    %off = arith.addi %rb, %cb : {t}xi64, #b>
    %p = tt.splat %src : !tt.ptr<f32> -> {t}x!tt.ptr<f32>, #b>
    %ptrs = tt.addptr %p, %off : {t}x!tt.ptr<f32>, #b>, {t}xi64, #b>
    %x = tt.load %ptrs : {t}x!tt.ptr<f32>, #b>
    %q = tt.splat %dst : !tt.ptr<f32> -> {t}x!tt.ptr<f32>, #b>
    %qs = tt.addptr %q, %off : {t}x!tt.ptr<f32>, #b>, {t}xi64, #b>
    tt.store %qs, %x : {t}x!tt.ptr<f32>, #b>
    tt.return
  }}
}}
"""


@pytest.mark.parametrize("spt", [1, 2])
def test_a_pointer_per_row_then_a_widening_multiply_per_element(spt: int) -> None:
    ptx = compile_kernel(_kernel(spt), emit="ptx")
    rows, elements = 2, R * C // 128  # what a thread holds: 2 rows (4 warps over 8), 4 elements
    # each of the two arrays: a row pointer per row (shl + add), then per element one
    # widening multiply-add from it (no 64-bit sum of the two parts, no shift per element)
    assert ptx.count("shl.b64") == 2 * rows
    assert ptx.count("mul.wide.s32") == 2 * elements
    assert ptx.count("add.s64") == 2 * (rows + elements)
    stride = C + 3
    src = np.arange(R * stride, dtype=np.float32)
    dst = np.zeros(R * stride, np.float32)
    simulate_ptx(ptx, (1, 1, 1), [src, dst, stride])
    want = np.zeros_like(dst)
    run_kernel(parse(_kernel(spt)), [src.copy(), want, stride])
    assert np.array_equal(dst, want)
    assert np.array_equal(dst.reshape(R, stride)[:, :C], src.reshape(R, stride)[:, :C])
