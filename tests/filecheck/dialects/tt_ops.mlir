// RUN: ltc-opt %s --split-input-file | filecheck %s
// Every tt op in Triton 3.9's syntax (the lines Triton itself prints; see tests/test_dialect_tt.py).
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @addptr(
  // CHECK-NEXT: %0 = tt.addptr %tp, %ti : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  // CHECK-NEXT: %1 = tt.addptr %p, %n : !tt.ptr<f32>, i32
  // CHECK-NEXT: %2 = tt.addptr %tp, %ti64 : tensor<128x!tt.ptr<f32>>, tensor<128xi64>
  // CHECK-NEXT: tt.return
  tt.func @addptr(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.addptr %tp, %ti : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %1 = tt.addptr %p, %n : !tt.ptr<f32>, i32
    %2 = tt.addptr %tp, %ti64 : tensor<128x!tt.ptr<f32>>, tensor<128xi64>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @approx_divf(
  // CHECK-NEXT: %0 = tt.approx_divf %f, %f : f32
  // CHECK-NEXT: %1 = tt.approx_divf %tf, %tf : tensor<128xf32>
  // CHECK-NEXT: tt.return
  tt.func @approx_divf(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.approx_divf %f, %f : f32
    %1 = tt.approx_divf %tf, %tf : tensor<128xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @assert(
  // CHECK-NEXT: tt.assert %tm, "neg" : tensor<128xi1>
  // CHECK-NEXT: tt.assert %c, "scalar" : i1
  // CHECK-NEXT: tt.return
  tt.func @assert(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    tt.assert %tm, "neg" : tensor<128xi1>
    tt.assert %c, "scalar" : i1
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @atomic_cas(
  // CHECK-NEXT: %0 = tt.atomic_cas acq_rel, cta, %tpi, %ti, %ti : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>
  // CHECK-NEXT: %1 = tt.atomic_cas acquire, gpu, %pi, %n, %n : (!tt.ptr<i32>, i32, i32) -> i32
  // CHECK-NEXT: tt.return
  tt.func @atomic_cas(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.atomic_cas acq_rel, cta, %tpi, %ti, %ti : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>
    %1 = tt.atomic_cas acquire, gpu, %pi, %n, %n : (!tt.ptr<i32>, i32, i32) -> i32
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @atomic_load_store(
  // CHECK-NEXT: %0 = tt.atomic_load relaxed, gpu, %p : (!tt.ptr<f32>) -> f32
  // CHECK-NEXT: %1 = tt.atomic_load acquire, sys, %tp, %tm : (tensor<128x!tt.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
  // CHECK-NEXT: tt.atomic_store relaxed, gpu, %p, %f : !tt.ptr<f32>
  // CHECK-NEXT: tt.atomic_store release, sys, %tp, %tf, %tm : tensor<128x!tt.ptr<f32>>
  // CHECK-NEXT: tt.return
  tt.func @atomic_load_store(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.atomic_load relaxed, gpu, %p : (!tt.ptr<f32>) -> f32
    %1 = tt.atomic_load acquire, sys, %tp, %tm : (tensor<128x!tt.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
    tt.atomic_store relaxed, gpu, %p, %f : !tt.ptr<f32>
    tt.atomic_store release, sys, %tp, %tf, %tm : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @atomic_poll(
  // CHECK-NEXT: %0 = tt.atomic_poll acquire, gpu, %pi, %n : !tt.ptr<i32>, i32 -> i1
  // CHECK-NEXT: tt.return
  tt.func @atomic_poll(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.atomic_poll acquire, gpu, %pi, %n : !tt.ptr<i32>, i32 -> i1
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @atomic_rmw(
  // CHECK-NEXT: %0 = tt.atomic_rmw fadd, acq_rel, gpu, %tp, %tf, %tm : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> tensor<128xf32>
  // CHECK-NEXT: %1 = tt.atomic_rmw max, release, sys, %tpi, %ti : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
  // CHECK-NEXT: %2 = tt.atomic_rmw exch, relaxed, cta, %p, %f : (!tt.ptr<f32>, f32) -> f32
  // CHECK-NEXT: tt.return
  tt.func @atomic_rmw(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.atomic_rmw fadd, acq_rel, gpu, %tp, %tf, %tm : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> tensor<128xf32>
    %1 = tt.atomic_rmw max, release, sys, %tpi, %ti : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
    %2 = tt.atomic_rmw exch, relaxed, cta, %p, %f : (!tt.ptr<f32>, f32) -> f32
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @bitcast(
  // CHECK-NEXT: %0 = tt.bitcast %tf : tensor<128xf32> -> tensor<128xi32>
  // CHECK-NEXT: %1 = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>
  // CHECK-NEXT: tt.return
  tt.func @bitcast(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.bitcast %tf : tensor<128xf32> -> tensor<128xi32>
    %1 = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @broadcast(
  // CHECK-NEXT: %0 = tt.splat %f : f32 -> tensor<1x32xf32>
  // CHECK-NEXT: %1 = tt.broadcast %0 : tensor<1x32xf32> -> tensor<64x32xf32>
  // CHECK-NEXT: tt.return
  tt.func @broadcast(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.splat %f : f32 -> tensor<1x32xf32>
    %1 = tt.broadcast %0 : tensor<1x32xf32> -> tensor<64x32xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @cat(
  // CHECK-NEXT: %0 = tt.cat %tf, %tf : tensor<128xf32> -> tensor<256xf32>
  // CHECK-NEXT: tt.return
  tt.func @cat(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.cat %tf, %tf : tensor<128xf32> -> tensor<256xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @clampf(
  // CHECK-NEXT: %0 = tt.clampf %tf, %tf, %tf, propagateNan = all : tensor<128xf32>
  // CHECK-NEXT: %1 = tt.clampf %f, %f, %f, propagateNan = none : f32
  // CHECK-NEXT: tt.return
  tt.func @clampf(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.clampf %tf, %tf, %tf, propagateNan = all : tensor<128xf32>
    %1 = tt.clampf %f, %f, %f, propagateNan = none : f32
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @descriptor_gather_scatter(
  // CHECK-NEXT: %0 = tt.descriptor_gather %d1[%ti, %n] : (!tt.tensordesc<1x32xf32>, tensor<128xi32>, i32) -> tensor<128x32xf32>
  // CHECK-NEXT: tt.descriptor_scatter %d1[%ti, %n], %0 : !tt.tensordesc<1x32xf32>, tensor<128xi32>, i32, tensor<128x32xf32>
  // CHECK-NEXT: tt.return
  tt.func @descriptor_gather_scatter(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %d1: !tt.tensordesc<1x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.descriptor_gather %d1[%ti, %n] : (!tt.tensordesc<1x32xf32>, tensor<128xi32>, i32) -> tensor<128x32xf32>
    tt.descriptor_scatter %d1[%ti, %n], %0 : !tt.tensordesc<1x32xf32>, tensor<128xi32>, i32, tensor<128x32xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @descriptor_load_gpu(
  // CHECK-NEXT: %0 = tt.descriptor_load %ds[%i, %i] : !tt.tensordesc<64x64xf16, #shared> -> tensor<64x64xf16, #blocked>
  // CHECK-NEXT: tt.descriptor_store %ds[%i, %i], %0 : !tt.tensordesc<64x64xf16, #shared>, tensor<64x64xf16, #blocked>
  // CHECK-NEXT: tt.return
  tt.func @descriptor_load_gpu(%x: tensor<64x64xf16, #blocked>, %a: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>>, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>>, %acc: tensor<128x64xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>>, %r: tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, %ds: !tt.tensordesc<64x64xf16, #shared>, %i: i32) {
    %0 = tt.descriptor_load %ds[%i, %i] : !tt.tensordesc<64x64xf16, #shared> -> tensor<64x64xf16, #blocked>
    tt.descriptor_store %ds[%i, %i], %0 : !tt.tensordesc<64x64xf16, #shared>, tensor<64x64xf16, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @descriptor_load_store(
  // CHECK-NEXT: %0 = tt.descriptor_load %d[%n, %n] : !tt.tensordesc<32x32xf32> -> tensor<32x32xf32>
  // CHECK-NEXT: %1 = tt.descriptor_load %d[%n, %n] {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_last>} : !tt.tensordesc<32x32xf32> -> tensor<32x32xf32>
  // CHECK-NEXT: tt.descriptor_store %d[%n, %n], %0 : !tt.tensordesc<32x32xf32>, tensor<32x32xf32>
  // CHECK-NEXT: tt.return
  tt.func @descriptor_load_store(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.descriptor_load %d[%n, %n] : !tt.tensordesc<32x32xf32> -> tensor<32x32xf32>
    %1 = tt.descriptor_load %d[%n, %n] {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_last>} : !tt.tensordesc<32x32xf32> -> tensor<32x32xf32>
    tt.descriptor_store %d[%n, %n], %0 : !tt.tensordesc<32x32xf32>, tensor<32x32xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @descriptor_reduce(
  // CHECK-NEXT: tt.descriptor_reduce add, %d[%n, %n], %t2 : !tt.tensordesc<32x32xf32>, tensor<32x32xf32>
  // CHECK-NEXT: tt.descriptor_reduce max, %d[%n, %n], %t2 : !tt.tensordesc<32x32xf32>, tensor<32x32xf32>
  // CHECK-NEXT: tt.return
  tt.func @descriptor_reduce(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    tt.descriptor_reduce add, %d[%n, %n], %t2 : !tt.tensordesc<32x32xf32>, tensor<32x32xf32>
    tt.descriptor_reduce max, %d[%n, %n], %t2 : !tt.tensordesc<32x32xf32>, tensor<32x32xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @dot(
  // CHECK-NEXT: %0 = tt.dot %t2, %t2, %t2 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
  // CHECK-NEXT: %1 = tt.dot %t2, %t2, %0, inputPrecision = tf32 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
  // CHECK-NEXT: %2 = tt.dot %t2, %t2, %1, inputPrecision = tf32x3 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
  // CHECK-NEXT: %3 = tt.dot %h2, %h2, %2 {maxNumImpreciseAcc = 32 : i32} : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
  // CHECK-NEXT: %4 = tt.dot %t2, %t2, %3, inputPrecision = bf16x3 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
  // CHECK-NEXT: tt.return
  tt.func @dot(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.dot %t2, %t2, %t2 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
    %1 = tt.dot %t2, %t2, %0, inputPrecision = tf32 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
    %2 = tt.dot %t2, %t2, %1, inputPrecision = tf32x3 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
    %3 = tt.dot %h2, %h2, %2 {maxNumImpreciseAcc = 32 : i32} : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %4 = tt.dot %t2, %t2, %3, inputPrecision = bf16x3 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @dot_mma(
  // CHECK-NEXT: %0 = tt.dot %a, %b, %acc : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x64xf32, #mma>
  // CHECK-NEXT: tt.return
  tt.func @dot_mma(%x: tensor<64x64xf16, #blocked>, %a: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>>, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>>, %acc: tensor<128x64xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>>, %r: tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, %ds: !tt.tensordesc<64x64xf16, #shared>, %i: i32) {
    %0 = tt.dot %a, %b, %acc : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>> -> tensor<128x64xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @elementwise_inline_asm(
  // CHECK-NEXT: %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %ti : tensor<128xi32> -> tensor<128xi32>
  // CHECK-NEXT: %1 = tt.elementwise_inline_asm "mov.b32 $0, 1;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  // CHECK-NEXT: tt.return
  tt.func @elementwise_inline_asm(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %ti : tensor<128xi32> -> tensor<128xi32>
    %1 = tt.elementwise_inline_asm "mov.b32 $0, 1;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @expand_dims(
  // CHECK-NEXT: %0 = tt.expand_dims %ti {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  // CHECK-NEXT: %1 = tt.expand_dims %ti {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  // CHECK-NEXT: tt.return
  tt.func @expand_dims(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.expand_dims %ti {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %1 = tt.expand_dims %ti {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @expand_dims_gpu(
  // CHECK-NEXT: %0 = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
  // CHECK-NEXT: tt.return
  tt.func @expand_dims_gpu(%x: tensor<64x64xf16, #blocked>, %a: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>>, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>>, %acc: tensor<128x64xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>>, %r: tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, %ds: !tt.tensordesc<64x64xf16, #shared>, %i: i32) {
    %0 = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @extern_elementwise(
  // CHECK-NEXT: %0 = tt.extern_elementwise %tf, %tf {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
  // CHECK-NEXT: tt.return
  tt.func @extern_elementwise(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.extern_elementwise %tf, %tf {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @fp_to_fp(
  // CHECK-NEXT: %0 = tt.fp_to_fp %tf, rounding = rtne : tensor<128xf32> -> tensor<128xf8E5M2>
  // CHECK-NEXT: %1 = tt.fp_to_fp %tf, rounding = rtz : tensor<128xf32> -> tensor<128xf8E4M3FN>
  // CHECK-NEXT: %2 = tt.fp_to_fp %0 : tensor<128xf8E5M2> -> tensor<128xf32>
  // CHECK-NEXT: tt.return
  tt.func @fp_to_fp(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.fp_to_fp %tf, rounding = rtne : tensor<128xf32> -> tensor<128xf8E5M2>
    %1 = tt.fp_to_fp %tf, rounding = rtz : tensor<128xf32> -> tensor<128xf8E4M3FN>
    %2 = tt.fp_to_fp %0 : tensor<128xf8E5M2> -> tensor<128xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @gather(
  // CHECK-NEXT: %0 = tt.gather %tf[%ti] {axis = 0 : i32} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
  // CHECK-NEXT: %1 = tt.gather %tf[%ti] {axis = 0 : i32, efficient_layout} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
  // CHECK-NEXT: tt.return
  tt.func @gather(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.gather %tf[%ti] {axis = 0 : i32} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
    %1 = tt.gather %tf[%ti] {axis = 0 : i32, efficient_layout} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @get_num_programs(
  // CHECK-NEXT: %0 = tt.get_num_programs x : i32
  // CHECK-NEXT: %1 = tt.get_num_programs z : i32
  // CHECK-NEXT: tt.return
  tt.func @get_num_programs(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.get_num_programs x : i32
    %1 = tt.get_num_programs z : i32
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @get_program_id(
  // CHECK-NEXT: %0 = tt.get_program_id x : i32
  // CHECK-NEXT: %1 = tt.get_program_id y : i32
  // CHECK-NEXT: %2 = tt.get_program_id z : i32
  // CHECK-NEXT: tt.return
  tt.func @get_program_id(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = tt.get_program_id z : i32
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @grid_dependency(
  // CHECK-NEXT: tt.grid_dependency_launch_dependents
  // CHECK-NEXT: tt.grid_dependency_wait
  // CHECK-NEXT: tt.return
  tt.func @grid_dependency(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    tt.grid_dependency_launch_dependents
    tt.grid_dependency_wait
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @histogram(
  // CHECK-NEXT: %0 = tt.histogram %ti : tensor<128xi32> -> tensor<64xi32>
  // CHECK-NEXT: %1 = tt.histogram %ti, %tm : tensor<128xi32> -> tensor<64xi32>
  // CHECK-NEXT: tt.return
  tt.func @histogram(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.histogram %ti : tensor<128xi32> -> tensor<64xi32>
    %1 = tt.histogram %ti, %tm : tensor<128xi32> -> tensor<64xi32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @int_ptr_casts(
  // CHECK-NEXT: %0 = tt.ptr_to_int %tp : tensor<128x!tt.ptr<f32>> -> tensor<128xi64>
  // CHECK-NEXT: %1 = tt.int_to_ptr %n64 : i64 -> !tt.ptr<f32>
  // CHECK-NEXT: %2 = tt.int_to_ptr %0 : tensor<128xi64> -> tensor<128x!tt.ptr<f32>>
  // CHECK-NEXT: tt.return
  tt.func @int_ptr_casts(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.ptr_to_int %tp : tensor<128x!tt.ptr<f32>> -> tensor<128xi64>
    %1 = tt.int_to_ptr %n64 : i64 -> !tt.ptr<f32>
    %2 = tt.int_to_ptr %0 : tensor<128xi64> -> tensor<128x!tt.ptr<f32>>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @join_split(
  // CHECK-NEXT: %0 = tt.join %tf, %tf : tensor<128xf32> -> tensor<128x2xf32>
  // CHECK-NEXT: %outLHS:2 = tt.split %0 : tensor<128x2xf32> -> tensor<128xf32>
  // CHECK-NEXT: tt.return
  tt.func @join_split(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.join %tf, %tf : tensor<128xf32> -> tensor<128x2xf32>
    %outLHS, %outRHS = tt.split %0 : tensor<128x2xf32> -> tensor<128xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @load(
  // CHECK-NEXT: %0 = tt.load %tp : tensor<128x!tt.ptr<f32>>
  // CHECK-NEXT: %1 = tt.load %tp, %tm : tensor<128x!tt.ptr<f32>>
  // CHECK-NEXT: %2 = tt.load %tp, %tm, %tf : tensor<128x!tt.ptr<f32>>
  // CHECK-NEXT: %3 = tt.load %p : !tt.ptr<f32>
  // CHECK-NEXT: tt.return
  tt.func @load(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.load %tp : tensor<128x!tt.ptr<f32>>
    %1 = tt.load %tp, %tm : tensor<128x!tt.ptr<f32>>
    %2 = tt.load %tp, %tm, %tf : tensor<128x!tt.ptr<f32>>
    %3 = tt.load %p : !tt.ptr<f32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @load_attrs(
  // CHECK-NEXT: %0 = tt.load %tp, %tm, %tf {isVolatile = true} : tensor<128x!tt.ptr<f32>>
  // CHECK-NEXT: %1 = tt.load %tp {cachePolicy = #tt.cache_policy<cache_modifier = ca, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>
  // CHECK-NEXT: %2 = tt.load %tp, %tm {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_last>} : tensor<128x!tt.ptr<f32>>
  // CHECK-NEXT: %3 = tt.load %tp {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_first>, isVolatile = true} : tensor<128x!tt.ptr<f32>>
  // CHECK-NEXT: tt.return
  tt.func @load_attrs(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.load %tp, %tm, %tf {isVolatile = true} : tensor<128x!tt.ptr<f32>>
    %1 = tt.load %tp {cachePolicy = #tt.cache_policy<cache_modifier = ca, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>
    %2 = tt.load %tp, %tm {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_last>} : tensor<128x!tt.ptr<f32>>
    %3 = tt.load %tp {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_first>, isVolatile = true} : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @make_range(
  // CHECK-NEXT: %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // CHECK-NEXT: tt.return
  tt.func @make_range(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @make_range_offset(
  // CHECK-NEXT: %0 = tt.make_range {end = 96 : i32, start = 32 : i32} : tensor<64xi32>
  // CHECK-NEXT: tt.return
  tt.func @make_range_offset(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.make_range {end = 96 : i32, start = 32 : i32} : tensor<64xi32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @make_tensor_descriptor(
  // CHECK-NEXT: %0 = tt.make_tensor_descriptor %p, [%n, %n], [%n64, %n64] : <f32>, <32x32xf32>
  // CHECK-NEXT: %1 = tt.make_tensor_descriptor %p, [%n, %n], [%n64, %n64] {padding = 2 : i32} : <f32>, <32x32xf32>
  // CHECK-NEXT: tt.return
  tt.func @make_tensor_descriptor(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.make_tensor_descriptor %p, [%n, %n], [%n64, %n64] : <f32>, <32x32xf32>
    %1 = tt.make_tensor_descriptor %p, [%n, %n], [%n64, %n64] {padding = 2 : i32} : <f32>, <32x32xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @make_tensor_descriptor_full_types(
  // CHECK-NEXT: %0 = tt.make_tensor_descriptor %p, [%n], [%n64] : <f32>, <32xf32>
  // CHECK-NEXT: tt.return
  tt.func @make_tensor_descriptor_full_types(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.make_tensor_descriptor %p, [%n], [%n64] : !tt.ptr<f32>, !tt.tensordesc<32xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @map_elementwise(
  // CHECK-NEXT: %0 = "tt.map_elementwise"(%tf, %ti) <{pack = 1 : i32}> ({
  // CHECK-NEXT: ^bb0(%a: f32, %b: i32):
  // CHECK-NEXT: %s = arith.sitofp %b : i32 to f32
  // CHECK-NEXT: %t = arith.addf %a, %s : f32
  // CHECK-NEXT: tt.map_elementwise.return %t : f32
  // CHECK-NEXT: }) : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
  // CHECK-NEXT: tt.return
  tt.func @map_elementwise(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = "tt.map_elementwise"(%tf, %ti) <{pack = 1 : i32}> ({
    ^bb0(%a: f32, %b: i32):
    %s = arith.sitofp %b : i32 to f32
    %t = arith.addf %a, %s : f32
    tt.map_elementwise.return %t : f32
    }) : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @mulhiui(
  // CHECK-NEXT: %0 = tt.mulhiui %ti, %ti : tensor<128xi32>
  // CHECK-NEXT: %1 = tt.mulhiui %n, %n : i32
  // CHECK-NEXT: tt.return
  tt.func @mulhiui(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.mulhiui %ti, %ti : tensor<128xi32>
    %1 = tt.mulhiui %n, %n : i32
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @precise_sqrt_divf(
  // CHECK-NEXT: %0 = tt.precise_sqrt %tf : tensor<128xf32>
  // CHECK-NEXT: %1 = tt.precise_divf %tf, %0 : tensor<128xf32>
  // CHECK-NEXT: tt.return
  tt.func @precise_sqrt_divf(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.precise_sqrt %tf : tensor<128xf32>
    %1 = tt.precise_divf %tf, %0 : tensor<128xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @print(
  // CHECK-NEXT: tt.print " val: " {hex = false, isSigned = array<i32: 1, 0>} : %ti, %tf : tensor<128xi32>, tensor<128xf32>
  // CHECK-NEXT: tt.print "x" {hex = true, isSigned = array<i32>}
  // CHECK-NEXT: tt.return
  tt.func @print(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    tt.print " val: " {hex = false, isSigned = array<i32: 1, 0>} : %ti, %tf : tensor<128xi32>, tensor<128xf32>
    tt.print "x" {hex = true, isSigned = array<i32>}
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @reduce(
  // CHECK-NEXT: %0 = "tt.reduce"(%tf) <{axis = 0 : i32}> ({
  // CHECK-NEXT: ^bb0(%a: f32, %b: f32):
  // CHECK-NEXT: %m = arith.maxnumf %a, %b : f32
  // CHECK-NEXT: tt.reduce.return %m : f32
  // CHECK-NEXT: }) : (tensor<128xf32>) -> f32
  // CHECK-NEXT: tt.return
  tt.func @reduce(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = "tt.reduce"(%tf) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    tt.reduce.return %m : f32
    }) : (tensor<128xf32>) -> f32
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @reduce_2d(
  // CHECK-NEXT: %0 = "tt.reduce"(%t2) <{axis = 1 : i32}> ({
  // CHECK-NEXT: ^bb0(%a: f32, %b: f32):
  // CHECK-NEXT: %m = arith.addf %a, %b : f32
  // CHECK-NEXT: tt.reduce.return %m : f32
  // CHECK-NEXT: }) : (tensor<32x32xf32>) -> tensor<32xf32>
  // CHECK-NEXT: tt.return
  tt.func @reduce_2d(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = "tt.reduce"(%t2) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
    %m = arith.addf %a, %b : f32
    tt.reduce.return %m : f32
    }) : (tensor<32x32xf32>) -> tensor<32xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @reshape(
  // CHECK-NEXT: %0 = tt.reshape %t2 : tensor<32x32xf32> -> tensor<1024xf32>
  // CHECK-NEXT: %1 = tt.reshape %t2 allow_reorder : tensor<32x32xf32> -> tensor<1024xf32>
  // CHECK-NEXT: %2 = tt.reshape %t2 allow_reorder efficient_layout : tensor<32x32xf32> -> tensor<1024xf32>
  // CHECK-NEXT: %3 = tt.reshape %t2 efficient_layout : tensor<32x32xf32> -> tensor<1024xf32>
  // CHECK-NEXT: tt.return
  tt.func @reshape(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.reshape %t2 : tensor<32x32xf32> -> tensor<1024xf32>
    %1 = tt.reshape %t2 allow_reorder : tensor<32x32xf32> -> tensor<1024xf32>
    %2 = tt.reshape %t2 allow_reorder efficient_layout : tensor<32x32xf32> -> tensor<1024xf32>
    %3 = tt.reshape %t2 efficient_layout : tensor<32x32xf32> -> tensor<1024xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @scan(
  // CHECK-NEXT: %0 = "tt.scan"(%tf) <{axis = 0 : i32, reverse = true}> ({
  // CHECK-NEXT: ^bb0(%a: f32, %b: f32):
  // CHECK-NEXT: %s = arith.addf %a, %b : f32
  // CHECK-NEXT: tt.scan.return %s : f32
  // CHECK-NEXT: }) : (tensor<128xf32>) -> tensor<128xf32>
  // CHECK-NEXT: tt.return
  tt.func @scan(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = "tt.scan"(%tf) <{axis = 0 : i32, reverse = true}> ({
    ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.scan.return %s : f32
    }) : (tensor<128xf32>) -> tensor<128xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @splat(
  // CHECK-NEXT: %0 = tt.splat %n : i32 -> tensor<128xi32>
  // CHECK-NEXT: %1 = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  // CHECK-NEXT: tt.return
  tt.func @splat(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.splat %n : i32 -> tensor<128xi32>
    %1 = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @store(
  // CHECK-NEXT: tt.store %tp, %tf : tensor<128x!tt.ptr<f32>>
  // CHECK-NEXT: tt.store %tp, %tf, %tm : tensor<128x!tt.ptr<f32>>
  // CHECK-NEXT: tt.store %p, %f : !tt.ptr<f32>
  // CHECK-NEXT: tt.store %tp, %tf, %tm {cachePolicy = #tt.cache_policy<cache_modifier = wb, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>
  // CHECK-NEXT: tt.store %tp, %tf {cachePolicy = #tt.cache_policy<cache_modifier = cs, eviction_policy = evict_first>} : tensor<128x!tt.ptr<f32>>
  // CHECK-NEXT: tt.return
  tt.func @store(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    tt.store %tp, %tf : tensor<128x!tt.ptr<f32>>
    tt.store %tp, %tf, %tm : tensor<128x!tt.ptr<f32>>
    tt.store %p, %f : !tt.ptr<f32>
    tt.store %tp, %tf, %tm {cachePolicy = #tt.cache_policy<cache_modifier = wb, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>
    tt.store %tp, %tf {cachePolicy = #tt.cache_policy<cache_modifier = cs, eviction_policy = evict_first>} : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @trans(
  // CHECK-NEXT: %0 = tt.trans %t2 {order = array<i32: 1, 0>} : tensor<32x32xf32> -> tensor<32x32xf32>
  // CHECK-NEXT: tt.return
  tt.func @trans(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.trans %t2 {order = array<i32: 1, 0>} : tensor<32x32xf32> -> tensor<32x32xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @trans_3d(
  // CHECK-NEXT: %0 = tt.reshape %tf : tensor<128xf32> -> tensor<2x32x2xf32>
  // CHECK-NEXT: %1 = tt.trans %0 {order = array<i32: 2, 0, 1>} : tensor<2x32x2xf32> -> tensor<2x2x32xf32>
  // CHECK-NEXT: tt.return
  tt.func @trans_3d(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.reshape %tf : tensor<128xf32> -> tensor<2x32x2xf32>
    %1 = tt.trans %0 {order = array<i32: 2, 0, 1>} : tensor<2x32x2xf32> -> tensor<2x2x32xf32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @unsplat(
  // CHECK-NEXT: %0 = tt.splat %f : f32 -> tensor<1x1xf32>
  // CHECK-NEXT: %1 = tt.unsplat %0 : tensor<1x1xf32>
  // CHECK-NEXT: tt.return
  tt.func @unsplat(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.splat %f : f32 -> tensor<1x1xf32>
    %1 = tt.unsplat %0 : tensor<1x1xf32>
    tt.return
  }
}
