// RUN: ltc-opt %s --split-input-file -p 'convert-triton-to-tritongpu{num-warps=4 target=cuda:90},ltc-assign-layouts' | filecheck %s
// ltc-assign-layouts never leaves more conversion cost than Triton's rule: patterns
// where Triton's remove-layout-conversions leaves less than a per-value choice would.

// A load of fewer elements than the CTA has threads is no anchor (Triton's
// isExpensiveLoadOrStore is false): it is recomputed in the layout its user needs, as
// Triton's backward rematerialization does, so the outer product keeps no conversion.
// CHECK: #[[B:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-LABEL: tt.func public @outer
// CHECK-NOT: ttg.convert_layout
// CHECK: %xv = tt.load %xq : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #[[B]]}>>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
module {
  tt.func public @outer(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %o: !tt.ptr<f32>, %s: i32) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %st = tt.splat %s : i32 -> tensor<64xi32>
    %off = arith.muli %r, %st : tensor<64xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %xq = tt.addptr %xp, %off : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %xv = tt.load %xq : tensor<64x!tt.ptr<f32>>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %yq = tt.addptr %yp, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %yv = tt.load %yq : tensor<64x!tt.ptr<f32>>
    %a = tt.expand_dims %xv {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %b = tt.expand_dims %yv {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
    %ab = tt.broadcast %a : tensor<64x1xf32> -> tensor<64x64xf32>
    %bb = tt.broadcast %b : tensor<1x64xf32> -> tensor<64x64xf32>
    %p = arith.mulf %ab, %bb : tensor<64x64xf32>
    %ri = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %c64 = arith.constant dense<64> : tensor<64x1xi32>
    %rm = arith.muli %ri, %c64 : tensor<64x1xi32>
    %ci = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %rb = tt.broadcast %rm : tensor<64x1xi32> -> tensor<64x64xi32>
    %cb = tt.broadcast %ci : tensor<1x64xi32> -> tensor<64x64xi32>
    %oo = arith.addi %rb, %cb : tensor<64x64xi32>
    %op = tt.splat %o : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
    %oq = tt.addptr %op, %oo : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
    tt.store %oq, %p : tensor<64x64x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// The same with a volatile load: its reads are effects, so it is never duplicated. In
// the product's layout each thread would hold 32 of the 64 rows and issue 32 volatile
// loads; in rows across lanes and warps it issues one, and one 64-element conversion
// (37 cycles) costs less than 31 more loads (8 cycles each): the objective weighs the
// ops' work against the conversion, as Triton's rule does here too.
// CHECK: #[[X:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[P:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-LABEL: tt.func public @outer_volatile
// CHECK-NOT: ttg.convert_layout
// CHECK: %xv = tt.load %xq {isVolatile = true} : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #[[X]]}>>
// CHECK-NOT: tt.load %xq
// CHECK: ttg.convert_layout %a : tensor<64x1xf32, #[[X]]> -> tensor<64x1xf32, #[[P]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
module {
  tt.func public @outer_volatile(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %o: !tt.ptr<f32>, %s: i32) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %st = tt.splat %s : i32 -> tensor<64xi32>
    %off = arith.muli %r, %st : tensor<64xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %xq = tt.addptr %xp, %off : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %xv = tt.load %xq {isVolatile = true} : tensor<64x!tt.ptr<f32>>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %yq = tt.addptr %yp, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %yv = tt.load %yq : tensor<64x!tt.ptr<f32>>
    %a = tt.expand_dims %xv {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %b = tt.expand_dims %yv {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
    %ab = tt.broadcast %a : tensor<64x1xf32> -> tensor<64x64xf32>
    %bb = tt.broadcast %b : tensor<1x64xf32> -> tensor<64x64xf32>
    %p = arith.mulf %ab, %bb : tensor<64x64xf32>
    %ri = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %c64 = arith.constant dense<64> : tensor<64x1xi32>
    %rm = arith.muli %ri, %c64 : tensor<64x1xi32>
    %ci = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %rb = tt.broadcast %rm : tensor<64x1xi32> -> tensor<64x64xi32>
    %cb = tt.broadcast %ci : tensor<1x64xi32> -> tensor<64x64xi32>
    %oo = arith.addi %rb, %cb : tensor<64x64xi32>
    %op = tt.splat %o : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
    %oq = tt.addptr %op, %oo : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
    tt.store %oq, %p : tensor<64x64x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A loop carries a row maximum that a reduction makes in the slice of the load's
// layout and a store after the loop wants in its own layout. Triton's propagation
// gives the loop-carried value the reduction's layout (the only one an anchor's result
// reaches), so the one conversion runs once after the loop, not in every iteration.
// CHECK-LABEL: tt.func public @row_max
// CHECK: %m = scf.for {{.*}} -> (tensor<8xf32, #ttg.slice<{dim = 1, parent = #[[L:blocked[0-9]*]]}>>)
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.yield %new : tensor<8xf32, #ttg.slice<{dim = 1, parent = #[[L]]}>>
// CHECK-NEXT: }
// CHECK: ttg.convert_layout %m
// CHECK: tt.store
module {
  tt.func public @row_max(%x: !tt.ptr<f32>, %o: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %init = arith.constant dense<0xFF800000> : tensor<8xf32>
    %rows = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
    %ns = tt.splat %n : i32 -> tensor<8x1xi32>
    %rn = arith.muli %r2, %ns : tensor<8x1xi32>
    %rb = tt.broadcast %rn : tensor<8x1xi32> -> tensor<8x1024xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<8x1024x!tt.ptr<f32>>
    %m = scf.for %i = %c0 to %n step %c1024 iter_args(%acc = %init) -> (tensor<8xf32>) : i32 {
      %is = tt.splat %i : i32 -> tensor<1024xi32>
      %ci = arith.addi %is, %cols : tensor<1024xi32>
      %c2 = tt.expand_dims %ci {axis = 0 : i32} : tensor<1024xi32> -> tensor<1x1024xi32>
      %cb = tt.broadcast %c2 : tensor<1x1024xi32> -> tensor<8x1024xi32>
      %off = arith.addi %rb, %cb : tensor<8x1024xi32>
      %ptr = tt.addptr %xp, %off : tensor<8x1024x!tt.ptr<f32>>, tensor<8x1024xi32>
      %v = tt.load %ptr : tensor<8x1024x!tt.ptr<f32>>
      %red = "tt.reduce"(%v) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %mx = arith.maxnumf %a, %b : f32
        tt.reduce.return %mx : f32
      }) : (tensor<8x1024xf32>) -> tensor<8xf32>
      %new = arith.maxnumf %acc, %red : tensor<8xf32>
      scf.yield %new : tensor<8xf32>
    }
    %op = tt.splat %o : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %oq = tt.addptr %op, %rows : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    tt.store %oq, %m : tensor<8x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A reduction that stays within each thread in the layout a user needs (here along a
// dim of size 1: no shuffle, no shared memory) is recomputed there with the small
// load feeding it, as Triton rematerializes the chain; the 64x1 column is not
// converted, and the reduction runs once per layout.
// CHECK: #[[R:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-LABEL: tt.func public @rescale
// CHECK: }) : (tensor<64x1xf32, #[[R]]>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[R]]}>>
// CHECK-NOT: ttg.convert_layout {{.*}} : tensor<64x1xf32
// CHECK: tt.return
module {
  tt.func public @rescale(%lse: !tt.ptr<f32>, %x: !tt.ptr<f32>, %o: !tt.ptr<f32>, %m: !tt.ptr<f32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %lp = tt.splat %lse : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>>
    %lq = tt.addptr %lp, %r2 : tensor<64x1x!tt.ptr<f32>>, tensor<64x1xi32>
    %lv = tt.load %lq : tensor<64x1x!tt.ptr<f32>>
    %mx = "tt.reduce"(%lv) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.maxnumf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<64x1xf32>) -> tensor<64xf32>
    %mp = tt.splat %m : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %mq = tt.addptr %mp, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %mq, %mx : tensor<64x!tt.ptr<f32>>
    %e = tt.expand_dims %mx {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %eb = tt.broadcast %e : tensor<64x1xf32> -> tensor<64x64xf32>
    %c64 = arith.constant dense<64> : tensor<64x1xi32>
    %row = arith.muli %r2, %c64 : tensor<64x1xi32>
    %rowb = tt.broadcast %row : tensor<64x1xi32> -> tensor<64x64xi32>
    %col = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %colb = tt.broadcast %col : tensor<1x64xi32> -> tensor<64x64xi32>
    %off = arith.addi %rowb, %colb : tensor<64x64xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
    %xq = tt.addptr %xp, %off : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
    %xv = tt.load %xq : tensor<64x64x!tt.ptr<f32>>
    %y = arith.mulf %xv, %eb : tensor<64x64xf32>
    %op = tt.splat %o : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
    %oq = tt.addptr %op, %off : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
    tt.store %oq, %y : tensor<64x64x!tt.ptr<f32>>
    tt.return
  }
}
