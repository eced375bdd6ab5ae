// RUN: ltc-opt %s --split-input-file --verify-diagnostics
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
    // expected-error @+1 {{'tt.addptr' op ptr must be a pointer or a tensor of pointers, got tensor<128xi32>}}
    %0 = tt.addptr %ti, %ti : tensor<128xi32>, tensor<128xi32>
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
  tt.func @addptr_shape(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.addptr' op requires the same shape for all operands and results}}
    %0 = tt.addptr %tp, %n : tensor<128x!tt.ptr<f32>>, i32
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
  tt.func @assert_cond(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.assert' op condition must be i1 or a tensor of i1, got tensor<128xi32>}}
    tt.assert %ti, "x" : tensor<128xi32>
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
  tt.func @atomic_cas_cmp(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.atomic_cas' op failed to verify that ptr type matches cmp type}}
    %0 = tt.atomic_cas acq_rel, cta, %tpi, %tf, %ti : (tensor<128x!tt.ptr<i32>>, tensor<128xf32>, tensor<128xi32>) -> tensor<128xi32>
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
  tt.func @atomic_rmw_value(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.atomic_rmw' op value type tensor<128xi32> does not match the pointee type tensor<128xf32>}}
    %0 = tt.atomic_rmw fadd, acq_rel, gpu, %tp, %ti : (tensor<128x!tt.ptr<f32>>, tensor<128xi32>) -> tensor<128xi32>
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
  tt.func @bitcast_width(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.bitcast' op Cannot bitcast data-type of size 32 to data-type of size 64}}
    %0 = tt.bitcast %tf : tensor<128xf32> -> tensor<128xi64>
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
  tt.func @broadcast_dim(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.broadcast' op Different dimensions at index 0 between source and result.  Broadcast requires the source dimension to be 1.}}
    %0 = tt.broadcast %t2 : tensor<32x32xf32> -> tensor<64x32xf32>
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
  tt.func @broadcast_rank(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.broadcast' op rank of source must be same as rank of result}}
    %0 = tt.broadcast %ti : tensor<128xi32> -> tensor<2x128xi32>
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
  tt.func @cat_count(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.cat' op result must have twice as many elements as each operand}}
    %0 = tt.cat %tf, %tf : tensor<128xf32> -> tensor<128xf32>
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
  tt.func @descriptor_load_elem(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.descriptor_load' op descriptor block and tensor element types must match, but got descriptor element type 'f32' and tensor element type 'f16'}}
    %0 = tt.descriptor_load %d[%n, %n] : !tt.tensordesc<32x32xf32> -> tensor<32x32xf16>
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
  tt.func @descriptor_load_count(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.descriptor_load' op descriptor block and tensor must have the same number of elements, but got descriptor block with 1024 elements tensor with 512 elements}}
    %0 = tt.descriptor_load %d[%n, %n] : !tt.tensordesc<32x32xf32> -> tensor<32x16xf32>
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
  tt.func @descriptor_store_elem(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.descriptor_store' op descriptor block and tensor element types must match, but got descriptor element type 'f32' and tensor element type 'f16'}}
    tt.descriptor_store %d[%n, %n], %h2 : !tt.tensordesc<32x32xf32>, tensor<32x32xf16>
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
  tt.func @dot_acc_shape(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.reshape %tf : tensor<128xf32> -> tensor<4x32xf32>
    // expected-error @+1 {{'tt.dot' op accumulator shape [32, 32] must be [4, 32] (a is [4, 32], b is [32, 32])}}
    %1 = tt.dot %0, %t2, %t2 : tensor<4x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
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
  tt.func @dot_k(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.reshape %tf : tensor<128xf32> -> tensor<32x4xf32>
    // expected-error @+1 {{'tt.dot' op expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand}}
    %1 = tt.dot %0, %t2, %t2 : tensor<32x4xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
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
  tt.func @dot_rank(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.dot' op expected operands to be 2d or 3d}}
    %0 = tt.dot %tf, %tf, %tf : tensor<128xf32> * tensor<128xf32> -> tensor<128xf32>
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
  tt.func @expand_dims_axis(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.expand_dims' op axis 2 is out of range for a rank-1 operand (must be in [0, 1])}}
    %0 = tt.expand_dims %ti {axis = 2 : i32} : tensor<128xi32> -> tensor<128x1xi32>
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
  tt.func @expand_dims_layout(%x: tensor<64x64xf16, #blocked>, %a: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>>, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>>, %acc: tensor<128x64xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>>, %r: tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, %ds: !tt.tensordesc<64x64xf16, #shared>, %i: i32) {
    // expected-error @+1 {{'tt.expand_dims' op operand layout must be #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>, the result layout sliced along axis 0}}
    %0 = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
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
  tt.func @expand_dims_shape(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.expand_dims' op result shape [128, 1] must be the operand shape with a 1 inserted at axis 0: [1, 128]}}
    %0 = tt.expand_dims %ti {axis = 0 : i32} : tensor<128xi32> -> tensor<128x1xi32>
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
  tt.func @fp_to_fp_int(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.fp_to_fp' op operand and result must be floating-point types}}
    %0 = tt.fp_to_fp %ti : tensor<128xi32> -> tensor<128xf32>
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
  tt.func @fp_to_fp_rounding(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.fp_to_fp' op Rounding mode is required for FP downcast}}
    %0 = tt.fp_to_fp %tf : tensor<128xf32> -> tensor<128xf8E5M2>
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
  tt.func @gather_axis(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.gather' op gather dimension must be less than the input rank}}
    %0 = tt.gather %tf[%ti] {axis = 1 : i32} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
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
  tt.func @gather_shape(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.gather' op indices and output shapes must match}}
    %0 = tt.gather %tf[%ti] {axis = 0 : i32} : (tensor<128xf32>, tensor<128xi32>) -> tensor<64xf32>
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
  tt.func @histogram_result(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.histogram' op result #0 must be ranked tensor of integer values, but got 'tensor<8xf32>'}}
    %0 = tt.histogram %ti : tensor<128xi32> -> tensor<8xf32>
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
  tt.func @inline_asm_scalar(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.elementwise_inline_asm' op if a result is non-scalar, then at least one operand must be non-scalar}}
    %0 = tt.elementwise_inline_asm "mov.b32 $0, 1;" {constraints = "=r", packed_element = 1 : i32, pure = true} -> tensor<128xi32>
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
  tt.func @int_to_ptr_width(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.int_to_ptr' op operand must be i64 or a tensor of i64, got i32}}
    %0 = tt.int_to_ptr %n : i32 -> !tt.ptr<f32>
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
  tt.func @join_shape(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.join' op result shape must be (128, 2), but got 256}}
    %0 = tt.join %tf, %tf : tensor<128xf32> -> tensor<256xf32>
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
  tt.func @load_cache_wb(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.load' op invalid cache policy: cache modifier 'wb' is not supported for loads}}
    %0 = tt.load %tp {cachePolicy = #tt.cache_policy<cache_modifier = wb, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>
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
  tt.func @load_mask_shape(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %m = tt.splat %c : i1 -> tensor<64xi1>
    // expected-error @+1 {{'tt.load' op mask type tensor<64xi1> does not match tensor<128xi1>}}
    %0 = "tt.load"(%tp, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!tt.ptr<f32>>, tensor<64xi1>) -> tensor<128xf32>
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
  tt.func @load_not_ptr(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.load' op ptr must be a pointer or a tensor of pointers, got tensor<128xf32>}}
    %0 = "tt.load"(%tf) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128xf32>) -> tensor<128xf32>
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
  tt.func @load_result_type(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.load' op result type tensor<128xf16> does not match the pointee type tensor<128xf32>}}
    %0 = "tt.load"(%tp) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tt.ptr<f32>>) -> tensor<128xf16>
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
  tt.func @make_range_elem(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.make_range' op returned tensor must have i32 elements, but has i64}}
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi64>
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
  tt.func @make_range_empty(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.make_range' op start must be less than end}}
    %0 = tt.make_range {end = 0 : i32, start = 0 : i32} : tensor<0xi32>
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
  tt.func @make_range_rank(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.make_range' op result must be a 1D tensor}}
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<2x64xi32>
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
  tt.func @make_range_size(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.make_range' op number of elements in returned tensor, 64, must match size of range [0, 128), which has 128 elements}}
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<64xi32>
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
  tt.func @make_tensor_descriptor_rank(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.make_tensor_descriptor' op needs one shape and one stride per block dim (2), got 1 and 1}}
    %0 = tt.make_tensor_descriptor %p, [%n], [%n64] : <f32>, <32x32xf32>
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
  tt.func @mulhiui_float(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.mulhiui' op operands must be integer scalars or tensors, got tensor<128xf32>}}
    %0 = tt.mulhiui %tf, %tf : tensor<128xf32>
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
  tt.func @precise_sqrt_int(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.precise_sqrt' op operands must be floating-point scalars or tensors, got tensor<128xi32>}}
    %0 = tt.precise_sqrt %ti : tensor<128xi32>
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
  tt.func @ptr_to_int_width(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.ptr_to_int' op result must be i64 or a tensor of i64, got i32}}
    %0 = tt.ptr_to_int %p : !tt.ptr<f32> -> i32
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
  tt.func @reduce_axis(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.reduce' op axis out of bounds for operand rank 1}}
    %0 = "tt.reduce"(%tf) <{axis = 1 : i32}> ({
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
  tt.func @reduce_region_args(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.reduce' op combine region arguments must be (f32, f32)}}
    %0 = "tt.reduce"(%tf) <{axis = 0 : i32}> ({
    ^bb0(%a: f32):
    tt.reduce.return %a : f32
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
  tt.func @reduce_result(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.reduce' op result type tensor<16xf32> must be the operand type without dim 1}}
    %0 = "tt.reduce"(%t2) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
    %m = arith.addf %a, %b : f32
    tt.reduce.return %m : f32
    }) : (tensor<32x32xf32>) -> tensor<16xf32>
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
  tt.func @reshape_count(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.reshape' op number of src and dst elements of reshape must be the same}}
    %0 = tt.reshape %t2 : tensor<32x32xf32> -> tensor<512xf32>
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
  tt.func @reshape_elem(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.reshape' op requires the same element type for all operands and results}}
    %0 = tt.reshape %t2 : tensor<32x32xf32> -> tensor<1024xi32>
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
  tt.func @scan_result(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.scan' op operand types and result types must agree}}
    %0 = "tt.scan"(%tf) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.scan.return %s : f32
    }) : (tensor<128xf32>) -> tensor<128xi32>
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
  tt.func @scan_return(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.scan' op combine region must return (f32)}}
    %0 = "tt.scan"(%tf) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
    tt.scan.return %n : i32
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
  tt.func @splat_elem(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.splat' op requires the same element type for all operands and results}}
    %0 = tt.splat %n : i32 -> tensor<128xf32>
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
  tt.func @splat_tensor_elem(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.splat' op requires the same element type for all operands and results}}
    %0 = tt.splat %ti : tensor<128xi32> -> tensor<128xf32>
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
  tt.func @split_last_dim(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.split' op last dimension of input tensor must be 2; got tensor<32x32xf32>}}
    %a, %b = tt.split %t2 : tensor<32x32xf32> -> tensor<32xf32>
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
  tt.func @store_cache_ca(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.store' op invalid cache policy: cache modifier 'ca' is not supported for stores}}
    tt.store %tp, %tf {cachePolicy = #tt.cache_policy<cache_modifier = ca, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>
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
  tt.func @store_value_type(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.store' op value type tensor<128xi32> does not match the pointee type tensor<128xf32>}}
    "tt.store"(%tp, %ti) : (tensor<128x!tt.ptr<f32>>, tensor<128xi32>) -> ()
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
  tt.func @trans_perm(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    // expected-error @+1 {{'tt.trans' op order must be a permutation of 0..n-1}}
    %0 = tt.trans %t2 {order = array<i32: 0, 0>} : tensor<32x32xf32> -> tensor<32x32xf32>
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
  tt.func @trans_shape(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %n: i32, %n64: i64, %f: f32, %c: i1, %tp: tensor<128x!tt.ptr<f32>>, %tf: tensor<128xf32>, %ti: tensor<128xi32>, %tm: tensor<128xi1>, %tpi: tensor<128x!tt.ptr<i32>>, %t2: tensor<32x32xf32>, %h2: tensor<32x32xf16>, %d: !tt.tensordesc<32x32xf32>, %ti64: tensor<128xi64>) {
    %0 = tt.reshape %tf : tensor<128xf32> -> tensor<4x32xf32>
    // expected-error @+1 {{'tt.trans' op result shape must match the permutation of the source shape}}
    %1 = tt.trans %0 {order = array<i32: 1, 0>} : tensor<4x32xf32> -> tensor<4x32xf32>
    tt.return
  }
}

// -----

// Layout rules Triton 3.9 applies through result-type inference.
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @join_without_result_layout(%a: tensor<32xf32, #b1>) {
    // expected-error @+1 {{'tt.join' op result encoding must be specified}}
    %0 = tt.join %a, %a : tensor<32xf32, #b1> -> tensor<32x2xf32>
    tt.return
  }
}

// -----

#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#b12 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @join_incompatible(%a: tensor<32xf32, #b2>) {
    // expected-error @+1 {{'tt.join' op incompatible join layout}}
    %0 = tt.join %a, %a : tensor<32xf32, #b2> -> tensor<32x2xf32, #b12>
    tt.return
  }
}

// -----

#s3 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [1, 1, 1], order = [2, 0, 1]}>
#s2 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @split_layout(%a: tensor<2x2x2xf32, #s3>) {
    // expected-error @+1 {{'tt.split' op inferred type(s) 'tensor<2x2xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]}>>', 'tensor<2x2xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]}>>' are incompatible with return type(s) of operation 'tensor<2x2xf32, #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]}>>', 'tensor<2x2xf32, #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]}>>'}}
    %0, %1 = tt.split %a : tensor<2x2x2xf32, #s3> -> tensor<2x2xf32, #s2>
    tt.return
  }
}

// -----

#t0 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @trans_layout(%a: tensor<16x32xf32, #t0>) {
    // expected-error @+1 {{'tt.trans' op inferred type(s) 'tensor<32x16xf32, #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [0, 1]}>>' are incompatible with return type(s) of operation 'tensor<32x16xf32, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>>'}}
    %0 = tt.trans %a {order = array<i32: 1, 0>} : tensor<16x32xf32, #t0> -> tensor<32x16xf32, #t0>
    tt.return
  }
}

// -----

#r0 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
#r1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshape_layout(%a: tensor<32x2xf32, #r0>) {
    // expected-error @+1 {{'tt.reshape' op Expected result encoding #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}> but was #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>}}
    %0 = tt.reshape %a : tensor<32x2xf32, #r0> -> tensor<64xf32, #r1>
    // allow_reorder lets the result take any layout when no thread holds copies
    %1 = tt.reshape %a allow_reorder : tensor<32x2xf32, #r0> -> tensor<64xf32, #r1>
    tt.return
  }
}

// -----

tt.func @inline_asm_packed_element(%a: tensor<128xf32>) {
  // expected-error @+1 {{'tt.elementwise_inline_asm' op number of input elements 128 must be a multiple of the op's packed_element attribute, 3}}
  %0 = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 3 : i32, pure = true} %a : tensor<128xf32> -> tensor<128xf32>
  tt.return
}

// -----

tt.func @map_elementwise_arg_count(%a: tensor<256xi32>) {
  // expected-error @+1 {{'tt.map_elementwise' op region has wrong number of arguments}}
  %0 = "tt.map_elementwise"(%a) <{pack = 1 : i32}> ({
  ^bb0(%x: i32, %y: i32):
    tt.map_elementwise.return %x : i32
  }) : (tensor<256xi32>) -> tensor<256xi32>
  tt.return
}

// -----

tt.func @map_elementwise_arg_types(%a: tensor<256xi32>) {
  // expected-error @+1 {{'tt.map_elementwise' op argument types did not match}}
  %0 = "tt.map_elementwise"(%a) <{pack = 1 : i32}> ({
  ^bb0(%x: i64):
    tt.map_elementwise.return %x : i64
  }) : (tensor<256xi32>) -> tensor<256xi64>
  tt.return
}

// -----

tt.func @map_elementwise_return(%a: tensor<256xi32>) {
  %0 = "tt.map_elementwise"(%a) <{pack = 1 : i32}> ({
  ^bb0(%x: i32):
    // expected-error @+1 {{'tt.map_elementwise.return' op region return does not match map_elementwise result}}
    tt.map_elementwise.return %x : i32
  }) : (tensor<256xi32>) -> tensor<256xi64>
  tt.return
}

// -----

tt.func @map_elementwise_store(%p: tensor<256x!tt.ptr<i32>>, %a: tensor<256xi32>) {
  %0 = "tt.map_elementwise"(%p, %a) <{pack = 1 : i32}> ({
  ^bb0(%q: !tt.ptr<i32>, %x: i32):
    // expected-error @+1 {{'tt.store' op Stores are not supported inside map_elementwise}}
    tt.store %q, %x : !tt.ptr<i32>
    tt.map_elementwise.return %x : i32
  }) : (tensor<256x!tt.ptr<i32>>, tensor<256xi32>) -> tensor<256xi32>
  tt.return
}

// -----

#mma2 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #mma2, kWidth = 1}>
#db = #ttg.dot_op<{opIdx = 1, parent = #mma2, kWidth = 1}>
#db2 = #ttg.dot_op<{opIdx = 1, parent = #mma2, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_rules(%a: tensor<16x16xf32, #da>, %b: tensor<16x16xf32, #db>, %b2: tensor<16x16xf32, #db2>, %h: tensor<16x16xf16, #db>, %c: tensor<16x16xf32, #mma2>) {
    // expected-error @+1 {{'tt.dot' op unsupported MMA version}}
    %0 = tt.dot %a, %b, %c : tensor<16x16xf32, #da> * tensor<16x16xf32, #db> -> tensor<16x16xf32, #mma2>
    tt.return
  }
}

// -----

#mma2 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #mma2, kWidth = 1}>
#db = #ttg.dot_op<{opIdx = 1, parent = #mma2, kWidth = 1}>
#db2 = #ttg.dot_op<{opIdx = 1, parent = #mma2, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_rules(%a: tensor<16x16xf32, #da>, %b: tensor<16x16xf32, #db>, %b2: tensor<16x16xf32, #db2>, %h: tensor<16x16xf16, #db>, %c: tensor<16x16xf32, #mma2>) {
    // expected-error @+1 {{'tt.dot' op mismatching kWidth between A and B operands}}
    %0 = tt.dot %a, %b2, %c, inputPrecision = tf32 : tensor<16x16xf32, #da> * tensor<16x16xf32, #db2> -> tensor<16x16xf32, #mma2>
    tt.return
  }
}

// -----

#mma2 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #mma2, kWidth = 1}>
#db = #ttg.dot_op<{opIdx = 1, parent = #mma2, kWidth = 1}>
#db2 = #ttg.dot_op<{opIdx = 1, parent = #mma2, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_rules(%a: tensor<16x16xf32, #da>, %b: tensor<16x16xf32, #db>, %b2: tensor<16x16xf32, #db2>, %h: tensor<16x16xf16, #db>, %c: tensor<16x16xf32, #mma2>) {
    // expected-error @+1 {{'tt.dot' op element types of operands A and B must have same bit width}}
    %0 = tt.dot %a, %h, %c : tensor<16x16xf32, #da> * tensor<16x16xf16, #db> -> tensor<16x16xf32, #mma2>
    tt.return
  }
}

// -----

#mma2 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#da = #ttg.dot_op<{opIdx = 0, parent = #mma2, kWidth = 1}>
#db = #ttg.dot_op<{opIdx = 1, parent = #mma2, kWidth = 1}>
#db2 = #ttg.dot_op<{opIdx = 1, parent = #mma2, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_rules(%a: tensor<16x16xf32, #da>, %b: tensor<16x16xf32, #db>, %b2: tensor<16x16xf32, #db2>, %h: tensor<16x16xf16, #db>, %c: tensor<16x16xf32, #mma2>) {
    // expected-error @+1 {{'tt.dot' op Wrong opIdx}}
    %0 = tt.dot %a, %a, %c : tensor<16x16xf32, #da> * tensor<16x16xf32, #da> -> tensor<16x16xf32, #mma2>
    tt.return
  }
}
