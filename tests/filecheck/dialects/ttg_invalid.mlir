// RUN: ltc-opt %s --split-input-file --verify-diagnostics
// One case per ttg verifier rule; the messages are Triton 3.9's where Triton checks the rule.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{requires the same shape for all operands and results}}
    %0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x32xf16, #blocked1>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{requires the same element type for all operands and results}}
    %0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf32, #blocked1>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{source shape [64, 64] must match [destination shape 64, 32]}}
    %0 = ttg.local_load %md : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #blocked>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{source element type '!ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>' must match destination element type 'f32'}}
    %0 = ttg.local_load %md : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf32, #blocked>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{Cannot store into immutable memory}}
    ttg.local_store %x, %im : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{source element type 'tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>' must match destination element type 'f32'}}
    %0 = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf32, #shared, #smem>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{uninitialized alloc must have a mutable memdesc type}}
    %0 = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{order must be a permutation of [0, ..., rank - 1]}}
    %0 = ttg.memdesc_trans %im {order = array<i32: 1, 1>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{order must have the same size as the rank of the operand and result}}
    %0 = ttg.memdesc_trans %im {order = array<i32: 1, 0, 2>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{result rank must be input rank - 1}}
    %0 = ttg.memdesc_index %m3[%i] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{result element type must match desc element type}}
    %0 = ttg.memdesc_index %m3[%i] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{The split offset may not exceed the source shape}}
    %0 = ttg.memdesc_subslice %md[0, 48] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{offsets must have the same rank as input}}
    %0 = ttg.memdesc_subslice %md[0, 32, 0] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{The split offset may not touch the tile}}
    %0 = ttg.memdesc_subslice %md[0, 16] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{src and result must have the same encoding}}
    %0 = ttg.memdesc_subslice %md[0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared2, #smem, mutable, 64x64>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{Cannot store into immutable memory}}
    %0 = ttg.async_copy_global_to_local %p, %im : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{result type !ttg.memdesc<64x64xf32, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory> must have shape 64x64 and element type f16 (the source permuted by order)}}
    %0 = ttg.memdesc_trans %im {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf32, #shared2, #smem>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    %c = arith.constant 2 : i32
    // expected-error @+1 {{index 2 is out of range for a leading dimension of size 2}}
    %0 = ttg.memdesc_index %m3[%c] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}


// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, %m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{unknown addrSpace 'shared'}}
    ttg.barrier shared
    tt.return
  }
}


// -----

#padded = #ttg.padded_shared<[4:+4] {shape = [32, 32], order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @padded_subslice_low_rank(%a: !ttg.memdesc<2x32x32xf32, #padded, #smem>) {
  // expected-error @+1 {{'ttg.memdesc_subslice' op SubSlice of low rank PaddedSharedEncoding from higher rank tensors is not supported yet}}
  %0 = ttg.memdesc_subslice %a [0, 16, 0] : !ttg.memdesc<2x32x32xf32, #padded, #smem> -> !ttg.memdesc<2x16x32xf32, #padded, #smem, 2x32x32>
  tt.return
}

// -----

// The attribute is valid (block bases may repeat offset bases), a descriptor using it is not.
#padded = #ttg.padded_shared<[2:+1] {offset = [[1, 0], [0, 1]], block = [[1, 0], [2, 0]]}>
#smem = #ttg.shared_memory
// expected-error @+1 {{layout must factor into CTA and CGA layouts}}
tt.func @padded_not_factored(%a: !ttg.memdesc<4x2xf32, #padded, #smem>) {
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @shared_layout_on_tensor(%a: tensor<16x32xf32, #shared>) {
    // expected-error @+1 {{has an invalid layout: Non-distributed layout is not allowed in tensor type.}}
    %0 = tt.trans %a {order = array<i32: 1, 0>} : tensor<16x32xf32, #shared> -> tensor<32x16xf32, #shared>
    tt.return
  }
}
