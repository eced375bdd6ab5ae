// RUN: ltc-opt %s --split-input-file -p tritongpu-accelerate-matmul | filecheck %s
// sm_100..sm_119: a dot tcgen05 (MMA v5) cannot compute (16 warps, i8 on sm_103) falls
// back to MMA v2 as in Triton 3.9 (one it can is refused: accelerate_matmul_tcgen05.mlir).

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [16, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 16 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 8], instrShape = [16, 8]}>
  // CHECK-LABEL: tt.func @sixteen_warps
  tt.func @sixteen_warps(%a: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x256xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x256xf32, #blocked>) -> tensor<128x256xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x256xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x256xf32, #blocked>
    tt.return %d : tensor<128x256xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:103", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 4], instrShape = [16, 8]}>
  // CHECK-LABEL: tt.func @int8_sm103
  tt.func @int8_sm103(%a: tensor<128x128xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<128x256xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x256xi32, #blocked>) -> tensor<128x256xi32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x128xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<128x256xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x256xi32, #blocked>
    tt.return %d : tensor<128x256xi32, #blocked>
  }
}

