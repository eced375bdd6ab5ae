// RUN: ltc-opt %s --split-input-file -p tritongpu-reduce-data-duplication | filecheck %s
// Conversions to #ttg.dot_op that must cross warps go through shared memory
// (local_alloc + local_load), with the swizzled layout Triton 3.9 picks; warp-local
// ones stay. tests/test_accelerate_matmul.py checks these modules against Triton.

// MMA v2 operands from coalesced (K- and N-contiguous) tiles: stored once in shared
// memory, swizzled for the MMA's 8-row phases with 4 * kWidth = 8-element vectors.
// CHECK-DAG: #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
// CHECK-LABEL: tt.func @mma_v2_operands
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[A:.*]] = ttg.local_alloc %a : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
// CHECK-NEXT: %[[AD:.*]] = ttg.local_load %[[A]] : !ttg.memdesc<128x64xf16, #shared, #smem> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %[[B:.*]] = ttg.local_alloc %b : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared1, #smem>
// CHECK-NEXT: %[[BD:.*]] = ttg.local_load %[[B]] : !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: tt.return %[[AD]], %[[BD]]

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_v2_operands(%a: tensor<128x64xf16, #blocked>, %b: tensor<64x128xf16, #blocked1>) -> (tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>) {
    %0 = ttg.convert_layout %a : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %1 = ttg.convert_layout %b : tensor<64x128xf16, #blocked1> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    tt.return %0, %1 : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
  }
}

// -----

// f64 operands (m8n8k4): 4-row swizzle periods; B is N-contiguous here, so the
// vector runs along N.
// CHECK: #shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0]}>
// CHECK-LABEL: tt.func @f64_operand
// CHECK: ttg.local_alloc %b : (tensor<32x64xf64, #blocked>) -> !ttg.memdesc<32x64xf64, #shared, #smem>
// CHECK-NEXT: ttg.local_load

#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [8, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f64_operand(%b: tensor<32x64xf64, #blocked>) -> tensor<32x64xf64, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> {
    %0 = ttg.convert_layout %b : tensor<32x64xf64, #blocked> -> tensor<32x64xf64, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
    tt.return %0 : tensor<32x64xf64, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
  }
}

// -----

// An FMA operand (blocked parent) is staged too, without swizzling.
// CHECK: #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-LABEL: tt.func @fma_operand
// CHECK: ttg.local_alloc %a : (tensor<64x64xf32, #blocked>) -> !ttg.memdesc<64x64xf32, #shared, #smem>
// CHECK-NEXT: ttg.local_load %{{.*}} : !ttg.memdesc<64x64xf32, #shared, #smem> -> tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fma_operand(%a: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> {
    %0 = ttg.convert_layout %a : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
    tt.return %0 : tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
  }
}

// -----

// The source is replicated over both warps; each warp can pick the lanes it needs by
// warp id in one round of shuffles, so the conversion stays in registers.
// CHECK-LABEL: tt.func @warp_shuffle_stays
// CHECK-NOT: ttg.local_alloc
// CHECK: ttg.convert_layout %b : tensor<16x16xf16, #blocked> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>>

#blocked = #ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @warp_shuffle_stays(%b: tensor<16x16xf16, #blocked>) -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>> {
    %0 = ttg.convert_layout %b : tensor<16x16xf16, #blocked> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>>
    tt.return %0 : tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>>
  }
}

// -----

// wgmma accumulator -> register A operand of the next wgmma: the threads already hold
// their elements, no shared memory.
// CHECK-LABEL: tt.func @wgmma_accumulator_to_operand_stays
// CHECK-NOT: ttg.local_alloc
// CHECK: ttg.convert_layout %p : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_accumulator_to_operand_stays(%p: tensor<128x64xf16, #mma>) -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> {
    %0 = ttg.convert_layout %p : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    tt.return %0 : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  }
}
