// RUN: ltc-opt %s --split-input-file -p tritongpu-accelerate-matmul | filecheck %s
// tt.dot gets a tensor-core layout as Triton 3.9's accelerate-matmul gives it (inputs are
// Triton's own convert-to-ttgpu + coalesce + remove-layout-conversions output;
// tests/test_accelerate_matmul.py checks the same modules against Triton).

// sm_80: MMA v2. Warps balance the 16x8 repetitions of the 128x128 result ([2, 2]);
// f16 operands get kWidth = 2; the accumulator goes in and the result comes back
// through converts.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func public @mma_v2
// CHECK: %[[ACC:.*]] = ttg.convert_layout %cst : tensor<128x128xf32, #blocked2> -> tensor<128x128xf32, #mma>
// CHECK-NEXT: %[[A:.*]] = ttg.convert_layout %{{.*}} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %[[B:.*]] = ttg.convert_layout %{{.*}} : tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %[[D:.*]] = tt.dot %[[A]], %[[B]], %[[ACC]] : {{.*}} -> tensor<128x128xf32, #mma>
// CHECK-NEXT: ttg.convert_layout %[[D]] : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked2>

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_v2(%arg0: tensor<128x64xf16, #blocked>, %arg1: tensor<64x128xf16, #blocked1>) -> tensor<128x128xf32, #blocked1> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked2>
    %0 = ttg.convert_layout %arg0 : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
    %1 = ttg.convert_layout %arg1 : tensor<64x128xf16, #blocked1> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>>
    %2 = tt.dot %0, %1, %cst : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<128x128xf32, #blocked2>
    %3 = ttg.convert_layout %2 : tensor<128x128xf32, #blocked2> -> tensor<128x128xf32, #blocked1>
    tt.return %3 : tensor<128x128xf32, #blocked1>
  }
}

// -----

// sm_90: wgmma. Operands that come from loads or block arguments go to shared
// memory in the 128-byte swizzled NVMMA layout (K-contiguous A, N-contiguous B); the
// converts to #ttg.dot_op<#blocked> die.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @wgmma_shared
// CHECK-NOT: dot_op
// CHECK-DAG: %[[B:.*]] = ttg.local_alloc %arg1 : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
// CHECK-DAG: %[[A:.*]] = ttg.local_alloc %arg0 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
// CHECK: %[[ACC:.*]] = ttg.convert_layout %cst : tensor<128x128xf32, #blocked2> -> tensor<128x128xf32, #mma>
// CHECK-NEXT: ttng.warp_group_dot %[[A]], %[[B]], %[[ACC]] : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_shared(%arg0: tensor<128x64xf16, #blocked>, %arg1: tensor<64x128xf16, #blocked1>) -> tensor<128x128xf32, #blocked1> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked2>
    %0 = ttg.convert_layout %arg0 : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
    %1 = ttg.convert_layout %arg1 : tensor<64x128xf16, #blocked1> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>>
    %2 = tt.dot %0, %1, %cst : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<128x128xf32, #blocked2>
    %3 = ttg.convert_layout %2 : tensor<128x128xf32, #blocked2> -> tensor<128x128xf32, #blocked1>
    tt.return %3 : tensor<128x128xf32, #blocked1>
  }
}

// -----

// sm_90, A computed in registers: A stays a register operand (dot_op of the wgmma
// layout), only B is staged in shared memory.
// CHECK-LABEL: tt.func public @wgmma_register_a
// CHECK: %[[B:.*]] = ttg.local_alloc %arg1 : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
// CHECK: %[[A:.*]] = ttg.convert_layout %{{.*}} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: ttng.warp_group_dot %[[A]], %[[B]], %{{.*}} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_register_a(%arg0: tensor<128x64xf16, #blocked>, %arg1: tensor<64x128xf16, #blocked1>) -> tensor<128x128xf32, #blocked1> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked2>
    %0 = arith.addf %arg0, %arg0 : tensor<128x64xf16, #blocked>
    %1 = ttg.convert_layout %0 : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
    %2 = ttg.convert_layout %arg1 : tensor<64x128xf16, #blocked1> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>>
    %3 = tt.dot %1, %2, %cst : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<128x128xf32, #blocked2>
    %4 = ttg.convert_layout %3 : tensor<128x128xf32, #blocked2> -> tensor<128x128xf32, #blocked1>
    tt.return %4 : tensor<128x128xf32, #blocked1>
  }
}

// -----

// sm_90, fp8 with an f32 result and no maxNumImpreciseAcc: wgmma would accumulate
// imprecisely, so MMA v2 is used, whose fp8 operands are promoted to f16.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func public @fp8_needs_split_accumulation
// CHECK-NOT: ttng.warp_group_dot
// CHECK: %[[A:.*]] = tt.fp_to_fp %{{.*}} : tensor<128x64xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK-NEXT: %[[B:.*]] = tt.fp_to_fp %{{.*}} : tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK-NEXT: tt.dot %[[A]], %[[B]], %{{.*}} : tensor<128x64xf16, {{.*}}> * tensor<64x64xf16, {{.*}}> -> tensor<128x64xf32, #mma>

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_needs_split_accumulation(%arg0: tensor<128x64xf8E4M3FN, #blocked>, %arg1: tensor<64x64xf8E4M3FN, #blocked>) -> tensor<128x64xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #blocked1>
    %0 = ttg.convert_layout %arg0 : tensor<128x64xf8E4M3FN, #blocked> -> tensor<128x64xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
    %1 = ttg.convert_layout %arg1 : tensor<64x64xf8E4M3FN, #blocked> -> tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
    %2 = tt.dot %0, %1, %cst : tensor<128x64xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<128x64xf32, #blocked1>
    %3 = ttg.convert_layout %2 : tensor<128x64xf32, #blocked1> -> tensor<128x64xf32, #blocked>
    tt.return %3 : tensor<128x64xf32, #blocked>
  }
}

// -----

// sm_75: no MMA (FMA path); f16 operands of an f32 dot are extended to f32.
// CHECK-LABEL: tt.func public @fma_promotes
// CHECK-NOT: #mma
// CHECK: %[[A:.*]] = arith.extf %{{.*}} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> to tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
// CHECK-NEXT: %[[B:.*]] = arith.extf %{{.*}} : tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> to tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>>
// CHECK-NEXT: tt.dot %[[A]], %[[B]], %cst : {{.*}} -> tensor<64x64xf32, #blocked2>

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fma_promotes(%arg0: tensor<64x32xf16, #blocked>, %arg1: tensor<32x64xf16, #blocked1>) -> tensor<64x64xf32, #blocked1> {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked2>
    %0 = ttg.convert_layout %arg0 : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
    %1 = ttg.convert_layout %arg1 : tensor<32x64xf16, #blocked1> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>>
    %2 = tt.dot %0, %1, %cst : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<64x64xf32, #blocked2>
    %3 = ttg.convert_layout %2 : tensor<64x64xf32, #blocked2> -> tensor<64x64xf32, #blocked1>
    tt.return %3 : tensor<64x64xf32, #blocked1>
  }
}

// -----

// Chained dots share one MMA layout: the second (64x64) is visited first and, having
// a related dot, gets [num_warps, 1]; the first (64x128, alone it would get [1, 4])
// copies it.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-NOT: #mma1
// CHECK-LABEL: tt.func public @chained_dots
// CHECK: tt.dot {{.*}} -> tensor<64x128xf32, #mma>
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #mma>

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked4 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @chained_dots(%arg0: tensor<64x16xf16, #blocked>, %arg1: tensor<16x128xf16, #blocked1>, %arg2: tensor<128x64xf16, #blocked2>) -> tensor<64x64xf32, #blocked2> {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked3>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #blocked4>
    %0 = ttg.convert_layout %arg0 : tensor<64x16xf16, #blocked> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked4}>>
    %1 = ttg.convert_layout %arg1 : tensor<16x128xf16, #blocked1> -> tensor<16x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked4}>>
    %2 = tt.dot %0, %1, %cst_0 : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked4}>> * tensor<16x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked4}>> -> tensor<64x128xf32, #blocked4>
    %3 = arith.truncf %2 : tensor<64x128xf32, #blocked4> to tensor<64x128xf16, #blocked4>
    %4 = ttg.convert_layout %3 : tensor<64x128xf16, #blocked4> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked3}>>
    %5 = ttg.convert_layout %arg2 : tensor<128x64xf16, #blocked2> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked3}>>
    %6 = tt.dot %4, %5, %cst : tensor<64x128xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked3}>> * tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked3}>> -> tensor<64x64xf32, #blocked3>
    %7 = ttg.convert_layout %6 : tensor<64x64xf32, #blocked3> -> tensor<64x64xf32, #blocked2>
    tt.return %7 : tensor<64x64xf32, #blocked2>
  }
}
