// RUN: ltc-opt %s --split-input-file --verify-diagnostics | filecheck %s
// One case per verifier rule of the tt dialect, with its exact message.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @addptr_not_ptr(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.addptr %ti, %ti : tensor<128xi32>, tensor<128xi32>
    tt.return
  }
}
// CHECK: 'tt.addptr' op ptr must be a pointer or a tensor of pointers, got tensor<128xi32>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @addptr_shape(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.addptr %tp, %n : tensor<128x!tt.ptr<f32>>, i32
    tt.return
  }
}
// CHECK: 'tt.addptr' op requires the same shape for all operands and results

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @assert_cond(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    tt.assert %ti, "x" : tensor<128xi32>
    tt.return
  }
}
// CHECK: 'tt.assert' op condition must be i1 or a tensor of i1, got tensor<128xi32>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @atomic_cas_cmp(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.atomic_cas acq_rel, cta, %tpi, %tf, %ti : (tensor<128x!tt.ptr<i32>>, tensor<128xf32>, tensor<128xi32>) -> tensor<128xi32>
    tt.return
  }
}
// CHECK: 'tt.atomic_cas' op cmp type tensor<128xf32> does not match the value type tensor<128xi32>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @atomic_rmw_value(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.atomic_rmw fadd, acq_rel, gpu, %tp, %ti : (tensor<128x!tt.ptr<f32>>, tensor<128xi32>) -> tensor<128xi32>
    tt.return
  }
}
// CHECK: 'tt.atomic_rmw' op value type tensor<128xi32> does not match the pointee type tensor<128xf32>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @bitcast_width(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.bitcast %tf : tensor<128xf32> -> tensor<128xi64>
    tt.return
  }
}
// CHECK: 'tt.bitcast' op Cannot bitcast data-type of size 32 to data-type of size 64

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @broadcast_dim(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.broadcast %t2 : tensor<32x32xf32> -> tensor<64x32xf32>
    tt.return
  }
}
// CHECK: 'tt.broadcast' op Different dimensions at index 0 between source and result.  Broadcast requires the source dimension to be 1.

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @broadcast_rank(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.broadcast %ti : tensor<128xi32> -> tensor<2x128xi32>
    tt.return
  }
}
// CHECK: 'tt.broadcast' op source rank differs from result rank

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @cat_count(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.cat %tf, %tf : tensor<128xf32> -> tensor<128xf32>
    tt.return
  }
}
// CHECK: 'tt.cat' op result must have twice as many elements as each operand

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @descriptor_load_indices(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.descriptor_load %d[%n] : !tt.tensordesc<32x32xf32> -> tensor<32x32xf32>
    tt.return
  }
}
// CHECK: 'tt.descriptor_load' op needs one index per descriptor dim (2), got 1

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @descriptor_load_shape(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.descriptor_load %d[%n, %n] : !tt.tensordesc<32x32xf32> -> tensor<64x16xf32>
    tt.return
  }
}
// CHECK: 'tt.descriptor_load' op result shape [64, 16] must be the descriptor block shape [32, 32] (leading 1s may be dropped)

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @descriptor_store_elem(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    tt.descriptor_store %d[%n, %n], %h2 : !tt.tensordesc<32x32xf32>, tensor<32x32xf16>
    tt.return
  }
}
// CHECK: 'tt.descriptor_store' op source element type must be the descriptor element type

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_acc_shape(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.reshape %tf : tensor<128xf32> -> tensor<4x32xf32>
    %1 = tt.dot %0, %t2, %t2 : tensor<4x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
    tt.return
  }
}
// CHECK: 'tt.dot' op accumulator shape [32, 32] must be [4, 32] (a is [4, 32], b is [32, 32])

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_k(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.reshape %tf : tensor<128xf32> -> tensor<32x4xf32>
    %1 = tt.dot %0, %t2, %t2 : tensor<32x4xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
    tt.return
  }
}
// CHECK: 'tt.dot' op the K dims of a (4) and b (32) must be equal

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_rank(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.dot %tf, %tf, %tf : tensor<128xf32> * tensor<128xf32> -> tensor<128xf32>
    tt.return
  }
}
// CHECK: 'tt.dot' op expected operands to be 2d or 3d

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @expand_dims_axis(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.expand_dims %ti {axis = 2 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    tt.return
  }
}
// CHECK: 'tt.expand_dims' op axis 2 is out of range for a rank-1 operand (must be in [0, 1])

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @expand_dims_layout(%x: tensor<64x64xf16, #blocked>, %a: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>>, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>>, %acc: tensor<128x64xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>>, %r: tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, %ds: !tt.tensordesc<64x64xf16, #shared>, %i: i32) {
    %0 = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    tt.return
  }
}
// CHECK: 'tt.expand_dims' op operand layout must be #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>, the result layout sliced along axis 0

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @expand_dims_shape(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.expand_dims %ti {axis = 0 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    tt.return
  }
}
// CHECK: 'tt.expand_dims' op result shape [128, 1] must be the operand shape with a 1 inserted at axis 0: [1, 128]

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp_to_fp_int(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.fp_to_fp %ti : tensor<128xi32> -> tensor<128xf32>
    tt.return
  }
}
// CHECK: 'tt.fp_to_fp' op operand and result must be floating-point types

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp_to_fp_rounding(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.fp_to_fp %tf : tensor<128xf32> -> tensor<128xf8E5M2>
    tt.return
  }
}
// CHECK: 'tt.fp_to_fp' op Rounding mode is required for FP downcast

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @gather_axis(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.gather %tf[%ti] {axis = 1 : i32} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
    tt.return
  }
}
// CHECK: 'tt.gather' op gather dimension must be less than the input rank

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @gather_shape(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.gather %tf[%ti] {axis = 0 : i32} : (tensor<128xf32>, tensor<128xi32>) -> tensor<64xf32>
    tt.return
  }
}
// CHECK: 'tt.gather' op indices and output shapes must match

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @histogram_rank(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.histogram %ti : tensor<128xi32> -> tensor<8x8xi32>
    tt.return
  }
}
// CHECK: 'tt.histogram' op result must be a 1D tensor

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @inline_asm_scalar(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.elementwise_inline_asm "mov.b32 $0, 1;" {constraints = "=r", packed_element = 1 : i32, pure = true} -> tensor<128xi32>
    tt.return
  }
}
// CHECK: 'tt.elementwise_inline_asm' op if a result is non-scalar, then at least one operand must be non-scalar

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @int_to_ptr_width(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.int_to_ptr %n : i32 -> !tt.ptr<f32>
    tt.return
  }
}
// CHECK: 'tt.int_to_ptr' op operand must be i64 or a tensor of i64, got i32

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @join_shape(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.join %tf, %tf : tensor<128xf32> -> tensor<256xf32>
    tt.return
  }
}
// CHECK: 'tt.join' op result shape must be (128, 2), but got 256

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @load_cache_wb(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.load %tp {cachePolicy = #tt.cache_policy<cache_modifier = wb, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
// CHECK: 'tt.load' op invalid cache policy: cache modifier 'wb' is not supported for loads

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @load_mask_shape(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %m = tt.splat %c : i1 -> tensor<64xi1>
    %0 = "tt.load"(%tp, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!tt.ptr<f32>>, tensor<64xi1>) -> tensor<128xf32>
    tt.return
  }
}
// CHECK: 'tt.load' op mask type tensor<64xi1> does not match tensor<128xi1>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @load_not_ptr(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = "tt.load"(%tf) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128xf32>) -> tensor<128xf32>
    tt.return
  }
}
// CHECK: 'tt.load' op ptr must be a pointer or a tensor of pointers, got tensor<128xf32>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @load_result_type(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = "tt.load"(%tp) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tt.ptr<f32>>) -> tensor<128xf16>
    tt.return
  }
}
// CHECK: 'tt.load' op result type tensor<128xf16> does not match the pointee type tensor<128xf32>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @make_range_elem(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi64>
    tt.return
  }
}
// CHECK: 'tt.make_range' op returned tensor must have i32 elements, but has i64

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @make_range_empty(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.make_range {end = 0 : i32, start = 0 : i32} : tensor<0xi32>
    tt.return
  }
}
// CHECK: 'tt.make_range' op start must be less than end

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @make_range_rank(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<2x64xi32>
    tt.return
  }
}
// CHECK: 'tt.make_range' op result must be a 1D tensor

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @make_range_size(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<64xi32>
    tt.return
  }
}
// CHECK: 'tt.make_range' op number of elements in returned tensor, 64, must match size of range [0, 128), which has 128 elements

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @make_tensor_descriptor_rank(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.make_tensor_descriptor %p, [%n], [%n64] : <f32>, <32x32xf32>
    tt.return
  }
}
// CHECK: 'tt.make_tensor_descriptor' op needs one shape and one stride per block dim (2), got 1 and 1

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mulhiui_float(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.mulhiui %tf, %tf : tensor<128xf32>
    tt.return
  }
}
// CHECK: 'tt.mulhiui' op operands must be integer scalars or tensors, got tensor<128xf32>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @precise_sqrt_int(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.precise_sqrt %ti : tensor<128xi32>
    tt.return
  }
}
// CHECK: 'tt.precise_sqrt' op operands must be floating-point scalars or tensors, got tensor<128xi32>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @print_signed(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    tt.print "x" {hex = false, isSigned = array<i32>} : %ti : tensor<128xi32>
    tt.return
  }
}
// CHECK: 'tt.print' op isSigned must have one entry per argument

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @ptr_to_int_width(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.ptr_to_int %p : !tt.ptr<f32> -> i32
    tt.return
  }
}
// CHECK: 'tt.ptr_to_int' op result must be i64 or a tensor of i64, got i32

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reduce_axis(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = "tt.reduce"(%tf) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    tt.reduce.return %m : f32
    }) : (tensor<128xf32>) -> f32
    tt.return
  }
}
// CHECK: 'tt.reduce' op reduction axis 1 is out of range for rank 1

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reduce_region_args(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = "tt.reduce"(%tf) <{axis = 0 : i32}> ({
    ^bb0(%a: f32):
    tt.reduce.return %a : f32
    }) : (tensor<128xf32>) -> f32
    tt.return
  }
}
// CHECK: 'tt.reduce' op combine region arguments must be (f32, f32)

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reduce_result(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = "tt.reduce"(%t2) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
    %m = arith.addf %a, %b : f32
    tt.reduce.return %m : f32
    }) : (tensor<32x32xf32>) -> tensor<16xf32>
    tt.return
  }
}
// CHECK: 'tt.reduce' op result type tensor<16xf32> must be the operand type without dim 1

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshape_count(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.reshape %t2 : tensor<32x32xf32> -> tensor<512xf32>
    tt.return
  }
}
// CHECK: 'tt.reshape' op number of src and dst elements of reshape must be the same

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshape_elem(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.reshape %t2 : tensor<32x32xf32> -> tensor<1024xi32>
    tt.return
  }
}
// CHECK: 'tt.reshape' op requires the same element type for all operands and results

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scan_result(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = "tt.scan"(%tf) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.scan.return %s : f32
    }) : (tensor<128xf32>) -> tensor<128xi32>
    tt.return
  }
}
// CHECK: 'tt.scan' op result type tensor<128xi32> must equal the operand type tensor<128xf32>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scan_return(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = "tt.scan"(%tf) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
    tt.scan.return %n : i32
    }) : (tensor<128xf32>) -> tensor<128xf32>
    tt.return
  }
}
// CHECK: 'tt.scan' op combine region must return (f32)

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @splat_elem(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.splat %n : i32 -> tensor<128xf32>
    tt.return
  }
}
// CHECK: 'tt.splat' op requires the same element type for all operands and results

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @splat_tensor(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.splat %ti : tensor<128xi32> -> tensor<128xi32>
    tt.return
  }
}
// CHECK: 'tt.splat' op operand must be a scalar, got tensor<128xi32>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @split_last_dim(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %a, %b = tt.split %t2 : tensor<32x32xf32> -> tensor<32xf32>
    tt.return
  }
}
// CHECK: 'tt.split' op last dimension of input tensor must be 2; got tensor<32x32xf32>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @store_cache_ca(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    tt.store %tp, %tf {cachePolicy = #tt.cache_policy<cache_modifier = ca, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
// CHECK: 'tt.store' op invalid cache policy: cache modifier 'ca' is not supported for stores

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @store_value_type(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    "tt.store"(%tp, %ti) : (tensor<128x!tt.ptr<f32>>, tensor<128xi32>) -> ()
    tt.return
  }
}
// CHECK: 'tt.store' op value type tensor<128xi32> does not match the pointee type tensor<128xf32>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @trans_perm(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.trans %t2 {order = array<i32: 0, 0>} : tensor<32x32xf32> -> tensor<32x32xf32>
    tt.return
  }
}
// CHECK: 'tt.trans' op order must be a permutation of [0, ..., rank - 1]

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @trans_shape(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.reshape %tf : tensor<128xf32> -> tensor<4x32xf32>
    %1 = tt.trans %0 {order = array<i32: 1, 0>} : tensor<4x32xf32> -> tensor<4x32xf32>
    tt.return
  }
}
// CHECK: 'tt.trans' op result shape [4, 32] must be the operand shape permuted by the order: [32, 4]
