// RUN: ltc-opt %s --split-input-file -canonicalize | filecheck %s
// Triton's canonicalization patterns (ltc.passes.canonicalize): constant folds,
// identities, chains, constant masks, pointer round trips, conversions folded into
// producers and users, shared-memory views; and side effects that must stay.


// CHECK-LABEL: tt.func @side_effects_stay
// CHECK-NEXT: %v = tt.load %p {isVolatile = true} : !tt.ptr<f32>
// CHECK-NEXT: %a = tt.atomic_rmw fadd, relaxed, gpu, %p, %x : (!tt.ptr<f32>, f32) -> f32
// CHECK-NEXT: tt.store %p, %x : !tt.ptr<f32>
// CHECK-NEXT: tt.print " x" {hex = false, isSigned = array<i32: 0>} : %x : f32
// CHECK-NEXT: tt.return
tt.func @side_effects_stay(%p: !tt.ptr<f32>, %x: f32) {
  %v = tt.load %p {isVolatile = true} : !tt.ptr<f32>
  %dead = tt.load %p : !tt.ptr<f32>
  %a = tt.atomic_rmw fadd, relaxed, gpu, %p, %x : (!tt.ptr<f32>, f32) -> f32
  tt.store %p, %x : !tt.ptr<f32>
  tt.print " x" {hex = false, isSigned = array<i32: 0>} : %x : f32
  tt.return
}

// -----

// CHECK-LABEL: tt.func @constants
// CHECK-DAG: %[[R:.*]] = arith.constant dense<3> : tensor<1xi32>
// CHECK-DAG: %[[S:.*]] = arith.constant dense<2.500000e+00> : tensor<8xf32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<7> : tensor<8x4xi32>
// CHECK-DAG: %[[E:.*]] = arith.constant dense<7> : tensor<8x1x1xi32>
// CHECK-DAG: %[[T:.*]] = arith.constant dense<7> : tensor<1x8xi32>
// CHECK-DAG: %[[V:.*]] = arith.constant dense<7> : tensor<8xi32>
// CHECK: tt.return %[[R]], %[[S]], %[[B]], %[[E]], %[[T]], %[[V]]
tt.func @constants() -> (tensor<1xi32>, tensor<8xf32>, tensor<8x4xi32>, tensor<8x1x1xi32>, tensor<1x8xi32>, tensor<8xi32>) {
  %r = tt.make_range {end = 4 : i32, start = 3 : i32} : tensor<1xi32>
  %c = arith.constant 2.500000e+00 : f32
  %s = tt.splat %c : f32 -> tensor<8xf32>
  %k = arith.constant dense<7> : tensor<8x1xi32>
  %b = tt.broadcast %k : tensor<8x1xi32> -> tensor<8x4xi32>
  %e = tt.expand_dims %k {axis = 2 : i32} : tensor<8x1xi32> -> tensor<8x1x1xi32>
  %t = tt.trans %k {order = array<i32: 1, 0>} : tensor<8x1xi32> -> tensor<1x8xi32>
  %v = tt.reshape %k : tensor<8x1xi32> -> tensor<8xi32>
  tt.return %r, %s, %b, %e, %t, %v : tensor<1xi32>, tensor<8xf32>, tensor<8x4xi32>, tensor<8x1x1xi32>, tensor<1x8xi32>, tensor<8xi32>
}

// -----

// CHECK-LABEL: tt.func @fp_to_fp_zero
// CHECK-NEXT: %one = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[P:.*]] = arith.constant dense<0.000000e+00> : tensor<16xf16>
// CHECK-NEXT: %[[N:.*]] = arith.constant -0.000000e+00 : f8E5M2
// CHECK-NEXT: %[[U:.*]] = arith.constant 0.000000e+00 : f8E4M3FNUZ
// CHECK-NEXT: %[[K:.*]] = tt.fp_to_fp %one
// CHECK-NEXT: tt.return %[[P]], %[[N]], %[[U]], %[[K]], %x
tt.func @fp_to_fp_zero(%x: f16) -> (tensor<16xf16>, f8E5M2, f8E4M3FNUZ, f8E5M2, f16) {
  %z = arith.constant dense<0.000000e+00> : tensor<16xf32>
  %nz = arith.constant -0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %a = tt.fp_to_fp %z, rounding = rtne : tensor<16xf32> -> tensor<16xf16>
  %b = tt.fp_to_fp %nz, rounding = rtne : f32 -> f8E5M2
  %c = tt.fp_to_fp %nz, rounding = rtne : f32 -> f8E4M3FNUZ
  %d = tt.fp_to_fp %one, rounding = rtne : f32 -> f8E5M2
  %i = tt.fp_to_fp %x : f16 -> f16
  tt.return %a, %b, %c, %d, %i : tensor<16xf16>, f8E5M2, f8E4M3FNUZ, f8E5M2, f16
}

// -----

// CHECK-LABEL: tt.func @identities
// CHECK-NEXT: tt.return %p, %x, %x
tt.func @identities(%p: tensor<8x!tt.ptr<f32>>, %x: tensor<8x4xi32>) -> (tensor<8x!tt.ptr<f32>>, tensor<8x4xi32>, tensor<8x4xi32>) {
  %z = arith.constant dense<0> : tensor<8xi32>
  %q = tt.addptr %p, %z : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %b = tt.broadcast %x : tensor<8x4xi32> -> tensor<8x4xi32>
  %c = tt.bitcast %b : tensor<8x4xi32> -> tensor<8x4xi32>
  %t = tt.trans %x {order = array<i32: 0, 1>} : tensor<8x4xi32> -> tensor<8x4xi32>
  tt.return %q, %c, %t : tensor<8x!tt.ptr<f32>>, tensor<8x4xi32>, tensor<8x4xi32>
}

// -----

// CHECK-LABEL: tt.func @chains
// CHECK-NEXT: %[[S1:.*]] = tt.splat %s : i32 -> tensor<8x4xi32>
// CHECK-NEXT: %[[S2:.*]] = tt.splat %s : i32 -> tensor<8x1xi32>
// CHECK-NEXT: %[[S3:.*]] = tt.splat %s : i32 -> tensor<32xi32>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %w : tensor<1x1xi32> -> tensor<8x4xi32>
// CHECK-NEXT: %[[R:.*]] = tt.reshape %x allow_reorder : tensor<8x4xi32> -> tensor<32xi32>
// CHECK-NEXT: %[[T:.*]] = tt.trans %z {order = array<i32: 2, 0, 1>} : tensor<2x4x8xi32> -> tensor<8x2x4xi32>
// CHECK-NEXT: tt.return %[[S1]], %[[S2]], %[[S3]], %[[B]], %[[R]], %[[T]]
tt.func @chains(%s: i32, %x: tensor<8x4xi32>, %w: tensor<1x1xi32>, %z: tensor<2x4x8xi32>) -> (tensor<8x4xi32>, tensor<8x1xi32>, tensor<32xi32>, tensor<8x4xi32>, tensor<32xi32>, tensor<8x2x4xi32>) {
  %a = tt.splat %s : i32 -> tensor<8x1xi32>
  %b = tt.broadcast %a : tensor<8x1xi32> -> tensor<8x4xi32>
  %c = tt.splat %s : i32 -> tensor<8xi32>
  %d = tt.expand_dims %c {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  %e = tt.reshape %b : tensor<8x4xi32> -> tensor<32xi32>
  %h0 = tt.broadcast %w : tensor<1x1xi32> -> tensor<1x4xi32>
  %h = tt.broadcast %h0 : tensor<1x4xi32> -> tensor<8x4xi32>
  %i = tt.reshape %x : tensor<8x4xi32> -> tensor<4x8xi32>
  %j = tt.reshape %i allow_reorder : tensor<4x8xi32> -> tensor<32xi32>
  %k = tt.trans %z {order = array<i32: 1, 2, 0>} : tensor<2x4x8xi32> -> tensor<4x8x2xi32>
  %l = tt.trans %k {order = array<i32: 1, 2, 0>} : tensor<4x8x2xi32> -> tensor<8x2x4xi32>
  tt.return %b, %d, %e, %h, %j, %l : tensor<8x4xi32>, tensor<8x1xi32>, tensor<32xi32>, tensor<8x4xi32>, tensor<32xi32>, tensor<8x2x4xi32>
}

// -----

// CHECK-LABEL: tt.func @masks
// CHECK-NEXT: %other = arith.constant dense<1.000000e+00> : tensor<64xf32>
// CHECK-NEXT: %a = tt.load %p : tensor<64x!tt.ptr<f32>>
// CHECK-NEXT: tt.store %p, %a : tensor<64x!tt.ptr<f32>>
// CHECK-NEXT: tt.return %a, %other
tt.func @masks(%p: tensor<64x!tt.ptr<f32>>) -> (tensor<64xf32>, tensor<64xf32>) {
  %t = arith.constant dense<true> : tensor<64xi1>
  %f = arith.constant dense<false> : tensor<64xi1>
  %other = arith.constant dense<1.000000e+00> : tensor<64xf32>
  %a = tt.load %p, %t, %other : tensor<64x!tt.ptr<f32>>
  %b = tt.load %p, %f, %other {isVolatile = true} : tensor<64x!tt.ptr<f32>>
  tt.store %p, %a, %t : tensor<64x!tt.ptr<f32>>
  tt.store %p, %b, %f : tensor<64x!tt.ptr<f32>>
  tt.return %a, %b : tensor<64xf32>, tensor<64xf32>
}

// -----

// CHECK-LABEL: tt.func @int_to_ptr
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2> : tensor<64xi64>
// CHECK-NEXT: %[[Q:.*]] = tt.addptr %p, %[[C]] : tensor<64x!tt.ptr<f32>>, tensor<64xi64>
// CHECK-NEXT: tt.return %p, %[[Q]]
tt.func @int_to_ptr(%p: tensor<64x!tt.ptr<f32>>) -> (tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>) {
  %i = tt.ptr_to_int %p : tensor<64x!tt.ptr<f32>> -> tensor<64xi64>
  %back = tt.int_to_ptr %i : tensor<64xi64> -> tensor<64x!tt.ptr<f32>>
  %eight = arith.constant dense<8> : tensor<64xi64>
  %j = arith.addi %i, %eight : tensor<64xi64>
  %q = tt.int_to_ptr %j : tensor<64xi64> -> tensor<64x!tt.ptr<f32>>
  tt.return %back, %q : tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @shared
  // CHECK-NEXT: %[[L:.*]] = ttg.local_load %m : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked1>
  // CHECK-NEXT: %[[A:.*]] = ttg.local_alloc %x : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
  // CHECK-NEXT: ttg.local_store %x, %m
  // CHECK-NEXT: tt.return %[[L]], %[[A]], %i
  tt.func @shared(%x: tensor<32x32xf16, #blocked>, %m: !ttg.memdesc<32x32xf16, #shared, #smem, mutable>, %i: !ttg.memdesc<32x32xf16, #shared, #smem>) -> (tensor<32x32xf16, #blocked1>, !ttg.memdesc<32x32xf16, #shared, #smem>, !ttg.memdesc<32x32xf16, #shared, #smem>) {
    %l = ttg.local_load %m : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked>
    %c = ttg.convert_layout %l : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #blocked1>
    %cx = ttg.convert_layout %x : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #blocked1>
    %a = ttg.local_alloc %cx : (tensor<32x32xf16, #blocked1>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    %unused = ttg.local_alloc %x : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    ttg.local_store %cx, %m : tensor<32x32xf16, #blocked1> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    %li = ttg.local_load %i : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #blocked>
    %again = ttg.local_alloc %li : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    tt.return %c, %a, %again : tensor<32x32xf16, #blocked1>, !ttg.memdesc<32x32xf16, #shared, #smem>, !ttg.memdesc<32x32xf16, #shared, #smem>
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @memdesc_views
  // CHECK-NEXT: %[[S:.*]] = ttg.memdesc_subslice %m[24, 48] : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<8x16xf16, #shared, #smem, mutable, 32x64>
  // CHECK-NEXT: tt.return %[[S]], %m
  tt.func @memdesc_views(%m: !ttg.memdesc<32x64xf16, #shared, #smem, mutable>) -> (!ttg.memdesc<8x16xf16, #shared, #smem, mutable, 32x64>, !ttg.memdesc<32x64xf16, #shared, #smem, mutable>) {
    %a = ttg.memdesc_subslice %m[16, 32] : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x32xf16, #shared, #smem, mutable, 32x64>
    %b = ttg.memdesc_subslice %a[8, 16] : !ttg.memdesc<16x32xf16, #shared, #smem, mutable, 32x64> -> !ttg.memdesc<8x16xf16, #shared, #smem, mutable, 32x64>
    %t = ttg.memdesc_trans %m {order = array<i32: 0, 1>} : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    tt.return %b, %t : !ttg.memdesc<8x16xf16, #shared, #smem, mutable, 32x64>, !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @layouts
  // CHECK-NEXT: %[[E:.*]] = tt.expand_dims %s {axis = 1 : i32} : tensor<1xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<1x1xf32, #blocked>
  // CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[E]] : tensor<1x1xf32, #blocked> -> tensor<128x1xf32, #blocked>
  // CHECK-NEXT: %[[R:.*]] = tt.reshape %x allow_reorder : tensor<64x2xf32, #[[B3:.*]]> -> tensor<128xf32, #[[B2:.*]]>
  // CHECK-NEXT: tt.return %[[B]], %[[R]]
  tt.func @layouts(%s: tensor<1xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, %x: tensor<64x2xf32, #blocked3>) -> (tensor<128x1xf32, #blocked>, tensor<128xf32, #blocked2>) {
    %a = tt.broadcast %s : tensor<1xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %b = tt.expand_dims %a {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xf32, #blocked>
    %c = ttg.convert_layout %x : tensor<64x2xf32, #blocked3> -> tensor<64x2xf32, #blocked1>
    %r = tt.reshape %c allow_reorder : tensor<64x2xf32, #blocked1> -> tensor<128xf32, #blocked2>
    tt.return %b, %r : tensor<128x1xf32, #blocked>, tensor<128xf32, #blocked2>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @converts_into_users
  // CHECK-NEXT: %[[H:.*]] = tt.histogram %x : tensor<256xi32, #blocked> -> tensor<64xi32, #[[B:.*]]>
  // CHECK-NEXT: %[[G:.*]] = tt.gather %s[%i] {axis = 0 : i32}
  // CHECK-NEXT: tt.return %[[H]], %[[G]]
  tt.func @converts_into_users(%x: tensor<256xi32, #blocked>, %s: tensor<32x32xf16, #blocked2>, %i: tensor<32x32xi32, #blocked3>) -> (tensor<64xi32, #blocked1>, tensor<32x32xf16, #blocked3>) {
    %cx = ttg.convert_layout %x : tensor<256xi32, #blocked> -> tensor<256xi32, #blocked1>
    %h = tt.histogram %cx : tensor<256xi32, #blocked1> -> tensor<64xi32, #blocked>
    %ch = ttg.convert_layout %h : tensor<64xi32, #blocked> -> tensor<64xi32, #blocked1>
    %cs = ttg.convert_layout %s : tensor<32x32xf16, #blocked2> -> tensor<32x32xf16, #blocked3>
    %g = tt.gather %cs[%i] {axis = 0 : i32} : (tensor<32x32xf16, #blocked3>, tensor<32x32xi32, #blocked3>) -> tensor<32x32xf16, #blocked3>
    tt.return %ch, %g : tensor<64xi32, #blocked1>, tensor<32x32xf16, #blocked3>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // A masked histogram takes the convert's source; the mask follows it.
  // CHECK-LABEL: tt.func @masked_histogram
  // CHECK-NEXT: %[[M:.*]] = ttg.convert_layout %m : tensor<256xi1, #[[B:.*]]> -> tensor<256xi1, #[[B1:.*]]>
  // CHECK-NEXT: %[[H:.*]] = tt.histogram %x, %[[M]] : tensor<256xi32, #[[B1]]> -> tensor<64xi32, #[[B]]>
  // CHECK-NEXT: tt.return %[[H]]
  tt.func @masked_histogram(%x: tensor<256xi32, #blocked1>, %m: tensor<256xi1, #blocked>) -> tensor<64xi32, #blocked> {
    %cx = ttg.convert_layout %x : tensor<256xi32, #blocked1> -> tensor<256xi32, #blocked>
    %h = tt.histogram %cx, %m : tensor<256xi32, #blocked> -> tensor<64xi32, #blocked>
    tt.return %h : tensor<64xi32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // The 32x32b message layout (a row per thread) is stored directly; another keeps its convert.
  // CHECK-LABEL: tt.func @tmem_store_converts
  // CHECK-NEXT: %true = arith.constant true
  // CHECK-NEXT: ttng.tmem_store %x, %buf, %true : tensor<128x64xf32, #blocked> ->
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %y
  // CHECK-NEXT: ttng.tmem_store %[[C]], %buf, %true : tensor<128x64xf32, #blocked> ->
  tt.func @tmem_store_converts(%x: tensor<128x64xf32, #blocked>, %y: tensor<128x64xf32, #blocked1>, %buf: !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>) {
    %true = arith.constant true
    %cx = ttg.convert_layout %x : tensor<128x64xf32, #blocked> -> tensor<128x64xf32, #blocked1>
    %cy = ttg.convert_layout %cx : tensor<128x64xf32, #blocked1> -> tensor<128x64xf32, #blocked>
    ttng.tmem_store %cy, %buf, %true : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
    %cz = ttg.convert_layout %y : tensor<128x64xf32, #blocked1> -> tensor<128x64xf32, #blocked>
    ttng.tmem_store %cz, %buf, %true : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}

// -----

// Unused results and captures of a warp specialization go, duplicates merge; an unused
// one without effects goes entirely.
// CHECK-LABEL: tt.func @warp_specialize_cleanup
// CHECK-NEXT: %[[W:.*]] = ttg.warp_specialize(%a, %p)
// CHECK-NEXT: default {
// CHECK-NEXT: ttg.warp_yield %b : i32
// CHECK: partition0(%arg3: i32, %arg4: !tt.ptr<i32>) num_warps(4) {
// CHECK-NEXT: tt.store %arg4, %arg3 : !tt.ptr<i32>
// CHECK: } : (i32, !tt.ptr<i32>) -> i32
// CHECK-NEXT: tt.return %[[W]] : i32
tt.func @warp_specialize_cleanup(%a: i32, %b: i32, %p: !tt.ptr<i32>) -> i32 {
  %0:2 = ttg.warp_specialize(%a, %b, %a, %p)
  default {
    ttg.warp_yield %a, %b : i32, i32
  }
  partition0(%arg3: i32, %arg4: i32, %arg5: i32, %arg6: !tt.ptr<i32>) num_warps(4) {
    tt.store %arg6, %arg5 : !tt.ptr<i32>
    ttg.warp_return
  } : (i32, i32, i32, !tt.ptr<i32>) -> (i32, i32)
  %1 = ttg.warp_specialize(%a)
  default {
    %2 = arith.addi %a, %a : i32
    ttg.warp_yield %2 : i32
  }
  partition0(%arg7: i32) num_warps(4) {
    ttg.warp_return
  } : (i32) -> i32
  tt.return %0#1 : i32
}
