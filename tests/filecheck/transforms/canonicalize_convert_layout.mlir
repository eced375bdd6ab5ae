// RUN: ltc-opt %s --split-input-file -p canonicalize | filecheck %s
// ttg.convert_layout canonicalization: identity converts fold (also between two
// spellings of one linear layout, where the users accept any layout), chains merge,
// converts of constants are rematerialized, dead converts go.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @identity
  // CHECK-NEXT: %a = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
  // CHECK-NEXT: tt.return %a
  tt.func @identity(%x: tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem> {
    %0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked>
    %a = ttg.local_alloc %0 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return %a : !ttg.memdesc<64x64xf16, #shared, #smem>
  }
}

// -----

// #linear is #blocked's linear layout for 64x64: the convert moves no data.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [16, 0], [32, 0]], lane = [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @linear_equals_blocked
  // CHECK-NEXT: %a = ttg.local_alloc %x : (tensor<64x64xf16, #linear>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
  // CHECK-NEXT: tt.return %a
  tt.func @linear_equals_blocked(%x: tensor<64x64xf16, #linear>) -> !ttg.memdesc<64x64xf16, #shared, #smem> {
    %0 = ttg.convert_layout %x : tensor<64x64xf16, #linear> -> tensor<64x64xf16, #blocked>
    %a = ttg.local_alloc %0 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return %a : !ttg.memdesc<64x64xf16, #shared, #smem>
  }
}

// -----

// Lanes 8 and 16 swapped: a different layout, the convert stays.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [16, 0], [32, 0]], lane = [[0, 8], [0, 16], [0, 32], [2, 0], [1, 0]], warp = [[4, 0], [8, 0]], block = []}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @different_layouts
  // CHECK-NEXT: %0 = ttg.convert_layout %x : tensor<64x64xf16, #linear> -> tensor<64x64xf16, #blocked>
  // CHECK-NEXT: tt.return %0
  tt.func @different_layouts(%x: tensor<64x64xf16, #linear>) -> tensor<64x64xf16, #blocked> {
    %0 = ttg.convert_layout %x : tensor<64x64xf16, #linear> -> tensor<64x64xf16, #blocked>
    tt.return %0 : tensor<64x64xf16, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @chains
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
  // CHECK-NEXT: %s = arith.addf %[[C]], %[[C]] : tensor<64x64xf16, #blocked1>
  // CHECK-NEXT: %t = arith.addf %x, %x : tensor<64x64xf16, #blocked>
  // CHECK-NEXT: ttg.local_store %s, %m
  // CHECK-NEXT: ttg.local_store %t, %m2
  // CHECK-NEXT: tt.return
  tt.func @chains(%x: tensor<64x64xf16, #blocked>, %m: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %m2: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) {
    %0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked2>
    %1 = ttg.convert_layout %0 : tensor<64x64xf16, #blocked2> -> tensor<64x64xf16, #blocked1>
    %s = arith.addf %1, %1 : tensor<64x64xf16, #blocked1>
    %2 = ttg.convert_layout %0 : tensor<64x64xf16, #blocked2> -> tensor<64x64xf16, #blocked>
    %t = arith.addf %2, %2 : tensor<64x64xf16, #blocked>
    ttg.local_store %s, %m : tensor<64x64xf16, #blocked1> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.local_store %t, %m2 : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @constant_and_dead
  // CHECK-NEXT: %[[K:.*]] = arith.constant dense<1.000000e+00> : tensor<64x64xf16, #blocked>
  // CHECK-NEXT: %s = arith.addf %[[K]], %x : tensor<64x64xf16, #blocked>
  // CHECK-NEXT: ttg.local_store %s, %m
  // CHECK-NEXT: tt.return
  tt.func @constant_and_dead(%x: tensor<64x64xf16, #blocked1>, %m: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) {
    %c = arith.constant dense<1.000000e+00> : tensor<64x64xf16, #blocked>
    %0 = ttg.convert_layout %c : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    %s = arith.addf %0, %x : tensor<64x64xf16, #blocked1>
    %dead = ttg.convert_layout %x : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked>
    ttg.local_store %s, %m : tensor<64x64xf16, #blocked1> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}
