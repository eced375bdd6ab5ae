// RUN: ltc-opt %s --split-input-file | filecheck %s
// RUN: %ltc-roundtrip | filecheck %s
// Every ttg op in Triton 3.9's syntax; ltc prints each as it was written.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @convert_layout(
  // CHECK-NEXT: %0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
  // CHECK-NEXT: tt.return
  tt.func @convert_layout(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token) {
    %0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @local_alloc_load_store(
  // CHECK-NEXT: %a = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
  // CHECK-NEXT: %b = ttg.local_alloc {alignment = 16 : i32} : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
  // CHECK-NEXT: %c = ttg.local_load %a : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
  // CHECK-NEXT: %c2 = ttg.local_load %a token %tk : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
  // CHECK-NEXT: %d = ttg.memdesc_index %b[%i] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  // CHECK-NEXT: ttg.local_store %x, %d : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  // CHECK-NEXT: ttg.local_dealloc %b : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
  // CHECK-NEXT: tt.return
  tt.func @local_alloc_load_store(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token) {
    %a = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %b = ttg.local_alloc {alignment = 16 : i32} : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    %c = ttg.local_load %a : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
    %c2 = ttg.local_load %a token %tk : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
    %d = ttg.memdesc_index %b[%i] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.local_store %x, %d : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.local_dealloc %b : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#shared2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @memdesc_views(
  // CHECK-NEXT: %t = ttg.memdesc_trans %a {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared1, #smem>
  // CHECK-NEXT: %s = ttg.memdesc_subslice %d[0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
  // CHECK-NEXT: %r = ttg.memdesc_reinterpret %d : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<4096xi16, #shared2, #smem, mutable>
  // CHECK-NEXT: tt.return
  tt.func @memdesc_views(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %d: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) {
    %t = ttg.memdesc_trans %a {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared1, #smem>
    %s = ttg.memdesc_subslice %d[0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
    %r = ttg.memdesc_reinterpret %d : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<4096xi16, #shared2, #smem, mutable>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @async_copy(
  // CHECK-NEXT: %0 = ttg.async_copy_global_to_local %p, %d mask %m other %o {cache = 2 : i32, evict = 3 : i32, isVolatile = true} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
  // CHECK-NEXT: %1 = ttg.async_copy_global_to_local %p, %d : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
  // CHECK-NEXT: %2 = ttg.async_commit_group tokens %0, %1
  // CHECK-NEXT: %3 = ttg.async_commit_group
  // CHECK-NEXT: %4 = ttg.async_wait %2 {num = 0 : i32}
  // CHECK-NEXT: %5 = ttg.async_wait {num = 1 : i32}
  // CHECK-NEXT: tt.return
  tt.func @async_copy(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %d: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) {
    %0 = ttg.async_copy_global_to_local %p, %d mask %m other %o {cache = 2 : i32, evict = 3 : i32, isVolatile = true} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
    %1 = ttg.async_copy_global_to_local %p, %d : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
    %2 = ttg.async_commit_group tokens %0, %1
    %3 = ttg.async_commit_group
    %4 = ttg.async_wait %2 {num = 0 : i32}
    %5 = ttg.async_wait {num = 1 : i32}
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @barrier_and_scratch(
  // CHECK-NEXT: ttg.barrier local
  // CHECK-NEXT: ttg.barrier local|global_write
  // CHECK-NEXT: ttg.barrier all
  // CHECK-NEXT: %g = ttg.global_scratch_alloc {alignment = 1 : i32, nbytes = 1 : i32} : !tt.ptr<i8>
  // CHECK-NEXT: tt.return
  tt.func @barrier_and_scratch() {
    ttg.barrier local
    ttg.barrier local|global_write
    ttg.barrier all
    %g = ttg.global_scratch_alloc {alignment = 1 : i32, nbytes = 1 : i32} : !tt.ptr<i8>
    tt.return
  }
}
