// RUN: not ltc-opt %s -p tritongpu-accelerate-matmul 2>&1 | filecheck %s
// A dot Triton 3.9 gives to tcgen05 (MMA v5, sm_100 .. sm_119) is refused by name.

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:110", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: error: tritongpu-accelerate-matmul: MMA v5 (tcgen05, sm_100) is not implemented
  tt.func @tcgen05(%a: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x256xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x256xf32, #blocked>) -> tensor<128x256xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x256xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x256xf32, #blocked>
    tt.return %d : tensor<128x256xf32, #blocked>
  }
}
