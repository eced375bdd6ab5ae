// RUN: ltc-opt %s --split-input-file -p tritongpu-remove-layout-conversions | filecheck %s
// tritongpu-remove-layout-conversions, one rule per case: anchors (loads, stores)
// keep their layouts, everything else follows them with the fewest conversions.

// Elementwise ops take the anchor layout of the load that feeds them; the two
// conversions around them fold.
// CHECK: #[[X:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @elementwise
// CHECK-NOT: ttg.convert_layout
// CHECK: %b = arith.addf %l, %l : tensor<64x64xf32, #[[X]]>
// CHECK-NEXT: %c = math.exp %b : tensor<64x64xf32, #[[X]]>
// CHECK-NEXT: tt.store %p, %c : tensor<64x64x!tt.ptr<f32>, #[[X]]>
#X = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#D = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @elementwise(%p: tensor<64x64x!tt.ptr<f32>, #X>) {
    %l = tt.load %p : tensor<64x64x!tt.ptr<f32>, #X>
    %a = ttg.convert_layout %l : tensor<64x64xf32, #X> -> tensor<64x64xf32, #D>
    %b = arith.addf %a, %a : tensor<64x64xf32, #D>
    %c = math.exp %b : tensor<64x64xf32, #D>
    %d = ttg.convert_layout %c : tensor<64x64xf32, #D> -> tensor<64x64xf32, #X>
    tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #X>
    tt.return
  }
}

// -----

// A reduction gives the slice of its operand layout; expand_dims gives the parent
// back; broadcast keeps it.
// CHECK: #[[X:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @reduce_expand_broadcast
// CHECK-NOT: ttg.convert_layout
// CHECK: (tensor<64x64xf32, #[[X]]>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[X]]}>>
// CHECK-NEXT: %e = tt.expand_dims %m {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[X]]}>> -> tensor<64x1xf32, #[[X]]>
// CHECK-NEXT: %b = tt.broadcast %e : tensor<64x1xf32, #[[X]]> -> tensor<64x64xf32, #[[X]]>
// CHECK-NEXT: %s = arith.subf %l, %b : tensor<64x64xf32, #[[X]]>
#X = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#D = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reduce_expand_broadcast(%p: tensor<64x64x!tt.ptr<f32>, #X>) {
    %l = tt.load %p : tensor<64x64x!tt.ptr<f32>, #X>
    %a = ttg.convert_layout %l : tensor<64x64xf32, #X> -> tensor<64x64xf32, #D>
    %m = "tt.reduce"(%a) <{axis = 1 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %z = arith.maxnumf %x, %y : f32
      tt.reduce.return %z : f32
    }) : (tensor<64x64xf32, #D>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #D}>>
    %e = tt.expand_dims %m {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #D}>> -> tensor<64x1xf32, #D>
    %b = tt.broadcast %e : tensor<64x1xf32, #D> -> tensor<64x64xf32, #D>
    %s = arith.subf %a, %b : tensor<64x64xf32, #D>
    %d = ttg.convert_layout %s : tensor<64x64xf32, #D> -> tensor<64x64xf32, #X>
    tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #X>
    tt.return
  }
}

// -----

// join adds a register-held minor dim (a blocked layout with sizePerThread 2 on it);
// split removes it: both free.
// CHECK: #[[X:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[J:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4, 2], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-LABEL: tt.func @join_split
// CHECK-NOT: ttg.convert_layout
// CHECK: %j = tt.join %l, %m : tensor<64x64xf32, #[[X]]> -> tensor<64x64x2xf32, #[[J]]>
// CHECK-NEXT: %x:2 = tt.split %j : tensor<64x64x2xf32, #[[J]]> -> tensor<64x64xf32, #[[X]]>
// CHECK-NEXT: %s = arith.subf %x#0, %x#1 : tensor<64x64xf32, #[[X]]>
#X = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#D = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @join_split(%p: tensor<64x64x!tt.ptr<f32>, #X>, %q: tensor<64x64x!tt.ptr<f32>, #X>) {
    %l = tt.load %p : tensor<64x64x!tt.ptr<f32>, #X>
    %m = tt.load %q : tensor<64x64x!tt.ptr<f32>, #X>
    %a = ttg.convert_layout %l : tensor<64x64xf32, #X> -> tensor<64x64xf32, #D>
    %b = ttg.convert_layout %m : tensor<64x64xf32, #X> -> tensor<64x64xf32, #D>
    %j = tt.join %a, %b : tensor<64x64xf32, #D> -> tensor<64x64x2xf32, #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>>
    %x, %y = tt.split %j : tensor<64x64x2xf32, #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>> -> tensor<64x64xf32, #D>
    %s = arith.subf %x, %y : tensor<64x64xf32, #D>
    %d = ttg.convert_layout %s : tensor<64x64xf32, #D> -> tensor<64x64xf32, #X>
    tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #X>
    tt.return
  }
}

// -----

// trans permutes the blocked fields (free); the transposed data must still move
// to the store's layout: one conversion (before math.exp or after it costs the same:
// both layouts give a thread 16 registers). The reshape of the load is exactly the 1-D
// store layout (spt 4, 32 lanes, 4 warps), so it needs none.
// CHECK: #[[X:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[Y:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[R:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[T:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @trans_reshape
// CHECK: %t = tt.trans %l {order = array<i32: 1, 0>} : tensor<64x32xf32, #[[X]]> -> tensor<32x64xf32, #[[T]]>
// CHECK-NEXT: %[[C:.+]] = ttg.convert_layout %t : tensor<32x64xf32, #[[T]]> -> tensor<32x64xf32, #[[Y]]>
// CHECK-NEXT: %n = math.exp %[[C]] : tensor<32x64xf32, #[[Y]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: %f = tt.reshape %l : tensor<64x32xf32, #[[X]]> -> tensor<2048xf32, #[[R]]>
// CHECK-NEXT: tt.store %r, %f
#X = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#D = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#Y = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @trans_reshape(%p: tensor<64x32x!tt.ptr<f32>, #X>, %q: tensor<32x64x!tt.ptr<f32>, #Y>, %r: tensor<2048x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
    %l = tt.load %p : tensor<64x32x!tt.ptr<f32>, #X>
    %a = ttg.convert_layout %l : tensor<64x32xf32, #X> -> tensor<64x32xf32, #D>
    %t = tt.trans %a {order = array<i32: 1, 0>} : tensor<64x32xf32, #D> -> tensor<32x64xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>>
    %n = math.exp %t : tensor<32x64xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>>
    %d = ttg.convert_layout %n : tensor<32x64xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>> -> tensor<32x64xf32, #Y>
    tt.store %q, %d : tensor<32x64x!tt.ptr<f32>, #Y>
    %f = tt.reshape %a : tensor<64x32xf32, #D> -> tensor<2048xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    %g = ttg.convert_layout %f : tensor<2048xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> -> tensor<2048xf32, #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    tt.store %r, %g : tensor<2048x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    tt.return
  }
}

// -----

// scf.for: the loop-carried accumulator takes the layout the load gives it; the
// init constant is rebuilt in it and the result needs no conversion.
// CHECK: #[[X:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @for_loop
// CHECK-NOT: ttg.convert_layout
// CHECK: %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #[[X]]>
// CHECK-NEXT: %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #[[X]]>)
// CHECK: %s = arith.addf %acc, %l : tensor<64x64xf32, #[[X]]>
// CHECK-NEXT: scf.yield %s : tensor<64x64xf32, #[[X]]>
// CHECK: tt.store %p, %r
#X = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#D = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @for_loop(%p: tensor<64x64x!tt.ptr<f32>, #X>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #D>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #D>) : i32 {
      %l = tt.load %p : tensor<64x64x!tt.ptr<f32>, #X>
      %a = ttg.convert_layout %l : tensor<64x64xf32, #X> -> tensor<64x64xf32, #D>
      %s = arith.addf %acc, %a : tensor<64x64xf32, #D>
      scf.yield %s : tensor<64x64xf32, #D>
    }
    %d = ttg.convert_layout %r : tensor<64x64xf32, #D> -> tensor<64x64xf32, #X>
    tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #X>
    tt.return
  }
}

// -----

// scf.if: the result takes the anchor layout; the other branch's constant is
// built in it.
// CHECK: #[[X:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @if_else
// CHECK-NOT: ttg.convert_layout
// CHECK: %r = scf.if %c -> (tensor<64x64xf32, #[[X]]>)
// CHECK: scf.yield %l : tensor<64x64xf32, #[[X]]>
// CHECK: arith.constant dense<1.000000e+00> : tensor<64x64xf32, #[[X]]>
// CHECK: tt.store %p, %r
#X = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#D = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @if_else(%p: tensor<64x64x!tt.ptr<f32>, #X>, %c: i1) {
    %r = scf.if %c -> (tensor<64x64xf32, #D>) {
      %l = tt.load %p : tensor<64x64x!tt.ptr<f32>, #X>
      %a = ttg.convert_layout %l : tensor<64x64xf32, #X> -> tensor<64x64xf32, #D>
      scf.yield %a : tensor<64x64xf32, #D>
    } else {
      %z = arith.constant dense<1.000000e+00> : tensor<64x64xf32, #D>
      scf.yield %z : tensor<64x64xf32, #D>
    }
    %d = ttg.convert_layout %r : tensor<64x64xf32, #D> -> tensor<64x64xf32, #X>
    tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #X>
    tt.return
  }
}

// -----

// scf.while: before-args, after-args and results carry the layout.
// CHECK: #[[X:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @while_loop
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.while (%i = %c0, %acc = %{{.*}}) : (i32, tensor<64x64xf32, #[[X]]>) -> (i32, tensor<64x64xf32, #[[X]]>)
// CHECK: ^bb0(%j: i32, %v: tensor<64x64xf32, #[[X]]>):
// CHECK: %s = arith.addf %v, %l : tensor<64x64xf32, #[[X]]>
// CHECK: tt.store %p, %r#1
#X = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#D = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @while_loop(%p: tensor<64x64x!tt.ptr<f32>, #X>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #D>
    %r:2 = scf.while (%i = %c0, %acc = %z) : (i32, tensor<64x64xf32, #D>) -> (i32, tensor<64x64xf32, #D>) {
      %go = arith.cmpi slt, %i, %n : i32
      scf.condition(%go) %i, %acc : i32, tensor<64x64xf32, #D>
    } do {
    ^bb0(%j: i32, %v: tensor<64x64xf32, #D>):
      %l = tt.load %p : tensor<64x64x!tt.ptr<f32>, #X>
      %a = ttg.convert_layout %l : tensor<64x64xf32, #X> -> tensor<64x64xf32, #D>
      %s = arith.addf %v, %a : tensor<64x64xf32, #D>
      %k = arith.addi %j, %c1 : i32
      scf.yield %k, %s : i32, tensor<64x64xf32, #D>
    }
    %d = ttg.convert_layout %r#1 : tensor<64x64xf32, #D> -> tensor<64x64xf32, #X>
    tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #X>
    tt.return
  }
}

// -----

// A conversion of a loop-invariant value leaves the loop.
// CHECK: #[[X:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @hoist_invariant
// CHECK: %l = tt.load %p
// CHECK-NEXT: %[[C:.+]] = ttg.convert_layout %l
// CHECK-NEXT: scf.for
// CHECK-NEXT: tt.store %q, %[[C]]
#X = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#Y = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @hoist_invariant(%p: tensor<64x64x!tt.ptr<f32>, #X>, %q: tensor<64x64x!tt.ptr<f32>, #Y>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %l = tt.load %p : tensor<64x64x!tt.ptr<f32>, #X>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %a = ttg.convert_layout %l : tensor<64x64xf32, #X> -> tensor<64x64xf32, #Y>
      tt.store %q, %a : tensor<64x64x!tt.ptr<f32>, #Y>
    }
    tt.return
  }
}

// -----

// Conflict: the sum of an f32 load in X and an f16 load in Y is stored in Y. X costs
// two f32 conversions (the add and the store), Y one: Y wins.
// CHECK: #[[X:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[Y:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @conflict
// CHECK: %[[A:.+]] = ttg.convert_layout %a : tensor<64x64xf32, #[[X]]> -> tensor<64x64xf32, #[[Y]]>
// CHECK: %s = arith.addf %[[A]], %b1 : tensor<64x64xf32, #[[Y]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %o, %e
#X = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#Y = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @conflict(%p: tensor<64x64x!tt.ptr<f32>, #X>, %q: tensor<64x64x!tt.ptr<f16>, #Y>, %o: tensor<64x64x!tt.ptr<f32>, #Y>) {
    %a = tt.load %p : tensor<64x64x!tt.ptr<f32>, #X>
    %b = tt.load %q : tensor<64x64x!tt.ptr<f16>, #Y>
    %a1 = ttg.convert_layout %a : tensor<64x64xf32, #X> -> tensor<64x64xf32, #Y>
    %b1 = arith.extf %b : tensor<64x64xf16, #Y> to tensor<64x64xf32, #Y>
    %s = arith.addf %a1, %b1 : tensor<64x64xf32, #Y>
    %e = math.exp %s : tensor<64x64xf32, #Y>
    tt.store %o, %e : tensor<64x64x!tt.ptr<f32>, #Y>
    tt.return
  }
}
