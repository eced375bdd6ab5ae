// RUN: ltc-opt %s --split-input-file | filecheck %s
// RUN: %ltc-roundtrip | filecheck %s
// The ttng ops Triton 3.9 emits for Hopper (TMA, mbarriers, wgmma), in Triton's syntax;
// default-valued properties are not printed.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @tma_and_barriers(
  // CHECK-NEXT: ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
  // CHECK-NEXT: ttng.barrier_expect %bar, 32768, %pr : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
  // CHECK-NEXT: ttng.async_tma_copy_global_to_local %ad[%i, %i] %buf, %bar, %pr : !tt.tensordesc<128x64xf16, #shared>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
  // CHECK-NEXT: ttng.wait_barrier %bar, %i : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
  // CHECK-NEXT: ttng.wait_barrier %bar, %i, %pr deps %am : !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<128x64xf16, #shared, #smem>
  // CHECK-NEXT: ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: ttng.async_tma_copy_local_to_global %ad[%i, %i] %buf : !tt.tensordesc<128x64xf16, #shared>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
  // CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
  // CHECK-NEXT: tt.return
  tt.func @tma_and_barriers(%ad: !tt.tensordesc<128x64xf16, #shared>, %i: i32, %pr: i1, %am: !ttg.memdesc<128x64xf16, #shared, #smem>, %bar: !ttg.memdesc<1xi64, #shared1, #smem, mutable>, %buf: !ttg.memdesc<128x64xf16, #shared, #smem, mutable>) {
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.barrier_expect %bar, 32768, %pr : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.async_tma_copy_global_to_local %ad[%i, %i] %buf, %bar, %pr : !tt.tensordesc<128x64xf16, #shared>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    ttng.wait_barrier %bar, %i : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.wait_barrier %bar, %i, %pr deps %am : !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<128x64xf16, #shared, #smem>
    ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.fence_async_shared {bCluster = false}
    ttng.async_tma_copy_local_to_global %ad[%i, %i] %buf : !tt.tensordesc<128x64xf16, #shared>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    ttng.async_tma_store_wait {pendings = 0 : i32}
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @warp_group_dot(
  // CHECK-NEXT: %d = ttng.warp_group_dot %am, %bm, %acc {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
  // CHECK-NEXT: %d2 = ttng.warp_group_dot %ta, %bm, %acc, %pr {maxNumImpreciseAcc = 4 : i32} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
  // CHECK-NEXT: %d3 = ttng.warp_group_dot %am, %bm, %acc : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
  // CHECK-NEXT: %w = ttng.warp_group_dot_wait %d {pendings = 0 : i32} : tensor<128x64xf32, #mma>
  // CHECK-NEXT: %w3:3 = ttng.warp_group_dot_wait %d2, %am, %bm {pendings = 1 : i32} : tensor<128x64xf32, #mma>, !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x64xf16, #shared, #smem>
  // CHECK-NEXT: tt.return
  tt.func @warp_group_dot(%acc: tensor<128x64xf32, #mma>, %pr: i1, %am: !ttg.memdesc<128x64xf16, #shared, #smem>, %bm: !ttg.memdesc<64x64xf16, #shared, #smem>, %ta: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>) {
    %d = ttng.warp_group_dot %am, %bm, %acc {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
    %d2 = ttng.warp_group_dot %ta, %bm, %acc, %pr {maxNumImpreciseAcc = 4 : i32} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
    %d3 = ttng.warp_group_dot %am, %bm, %acc {inputPrecision = 2 : i32, isAsync = false, maxNumImpreciseAcc = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
    %w = ttng.warp_group_dot_wait %d {pendings = 0 : i32} : tensor<128x64xf32, #mma>
    %w3:3 = ttng.warp_group_dot_wait %d2, %am, %bm {pendings = 1 : i32} : tensor<128x64xf32, #mma>, !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return
  }
}
