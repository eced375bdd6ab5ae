"""Free shape ops in the lowering: ``tt.split`` and ``tt.join`` rename registers.

``tt.split``'s second result reads index (i, 1) for its index i: an affine map, whose lane
and warp bases map by the linear part. Before that was taken into account, every split's
second result was refused as "not free" (issue 17).
"""

from __future__ import annotations

import numpy as np

from ltc import simulate_ptx
from ltc.tools.pipeline import compile_kernel

_SPLIT = """#pair = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #row>
    %c2 = arith.constant dense<2> : tensor<128xi32, #row>
    %c1 = arith.constant dense<1> : tensor<128xi32, #row>
    %even = arith.muli %r, %c2 : tensor<128xi32, #row>
    %odd = arith.addi %even, %c1 : tensor<128xi32, #row>
    %p = tt.splat %in : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #row>
    %pe = tt.addptr %p, %even : tensor<128x!tt.ptr<f32>, #row>, tensor<128xi32, #row>
    %po = tt.addptr %p, %odd : tensor<128x!tt.ptr<f32>, #row>, tensor<128xi32, #row>
    %x = tt.load %pe : tensor<128x!tt.ptr<f32>, #row>
    %y = tt.load %po : tensor<128x!tt.ptr<f32>, #row>
    %j = tt.join %x, %y : tensor<128xf32, #row> -> tensor<128x2xf32, #pair>
    %s0, %s1 = tt.split %j : tensor<128x2xf32, #pair> -> tensor<128xf32, #row>
    %d = arith.subf %s1, %s0 : tensor<128xf32, #row>
    %q = tt.splat %out : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #row>
    %qa = tt.addptr %q, %r : tensor<128x!tt.ptr<f32>, #row>, tensor<128xi32, #row>
    tt.store %qa, %d : tensor<128x!tt.ptr<f32>, #row>
    tt.return
  }
}
"""


def test_join_then_split_moves_nothing_and_keeps_both_halves() -> None:
    ptx = compile_kernel(_SPLIT, emit="ptx")
    assert "shfl" not in ptx and ".shared" not in ptx
    x = (np.arange(256, dtype=np.float32) * 3.0) ** 2
    y = np.full(128, np.nan, np.float32)
    simulate_ptx(ptx, (1, 1, 1), [x, y])
    np.testing.assert_array_equal(y, x[1::2] - x[0::2])
