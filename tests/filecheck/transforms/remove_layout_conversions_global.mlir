// RUN: ltc-opt %s --split-input-file -p tritongpu-remove-layout-conversions | filecheck %s

// A reduction to a scalar works in any layout: it takes the sliced result of the first
// reduction as it comes (8 registers and 2 butterfly steps per thread) rather than a
// conversion to one element per lane (5 steps).
// CHECK-LABEL: tt.func @sum_of_column_sums
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#L = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#V = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @sum_of_column_sums(%p: tensor<128x32x!tt.ptr<f32>, #L>, %o: !tt.ptr<f32>) {
    %x = tt.load %p : tensor<128x32x!tt.ptr<f32>, #L>
    %c = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<128x32xf32, #L>) -> tensor<32xf32, #ttg.slice<{dim = 0, parent = #L}>>
    %v = ttg.convert_layout %c : tensor<32xf32, #ttg.slice<{dim = 0, parent = #L}>> -> tensor<32xf32, #V>
    %t = "tt.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<32xf32, #V>) -> f32
    tt.store %o, %t : !tt.ptr<f32>
    tt.return
  }
}

// -----

// A reduction of a constant is recomputed in the layout its user needs (through the
// reduction, the slice's parent is a candidate of the operand), so the 1x4 row sums
// need no conversion before the store.
// CHECK: #[[S:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @row_sums_of_a_constant
// CHECK-NOT: ttg.convert_layout
// CHECK: "tt.reduce"(%{{.*}}) <{axis = 1 : i32}>
// CHECK: (tensor<8x4xi32, #[[S]]>) -> tensor<8xi32, #ttg.slice<{dim = 1, parent = #[[S]]}>>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#A = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#S = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @row_sums_of_a_constant(%p: tensor<8x4x!tt.ptr<i32>, #S>) {
    %c = arith.constant dense<3> : tensor<8x4xi32, #A>
    %r = "tt.reduce"(%c) <{axis = 1 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      tt.reduce.return %s : i32
    }) : (tensor<8x4xi32, #A>) -> tensor<8xi32, #ttg.slice<{dim = 1, parent = #A}>>
    %e = tt.expand_dims %r {axis = 1 : i32} : tensor<8xi32, #ttg.slice<{dim = 1, parent = #A}>> -> tensor<8x1xi32, #A>
    %b = tt.broadcast %e : tensor<8x1xi32, #A> -> tensor<8x4xi32, #A>
    %v = ttg.convert_layout %b : tensor<8x4xi32, #A> -> tensor<8x4xi32, #S>
    tt.store %p, %v : tensor<8x4x!tt.ptr<i32>, #S>
    tt.return
  }
}

// -----

// tt.join's verifier asks only that its operands split the result's layout, wherever
// the new dimension's register sits: the operands here do, so the join gives the
// returned layout itself.
// CHECK-LABEL: tt.func @join_into_any_register_order
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[J:.+]] = tt.join %a, %b
// CHECK-NEXT: tt.return %[[J]]
#P = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#R = #ttg.blocked<{sizePerThread = [1, 16, 2], threadsPerWarp = [32, 1, 1], warpsPerCTA = [4, 1, 1], order = [0, 1, 2]}>
#J = #ttg.blocked<{sizePerThread = [1, 16, 2], threadsPerWarp = [32, 1, 1], warpsPerCTA = [4, 1, 1], order = [2, 0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @join_into_any_register_order(%a: tensor<128x16xf32, #P>, %b: tensor<128x16xf32, #P>) -> tensor<128x16x2xf32, #R> {
    %j = tt.join %a, %b : tensor<128x16xf32, #P> -> tensor<128x16x2xf32, #J>
    %c = ttg.convert_layout %j : tensor<128x16x2xf32, #J> -> tensor<128x16x2xf32, #R>
    tt.return %c : tensor<128x16x2xf32, #R>
  }
}

// -----

// A conversion between two spellings of one linear layout in front of a reshape goes:
// the reshape's verifier compares linear layouts, so it takes either spelling.
// CHECK-LABEL: tt.func @respelled_into_reshape
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.reshape %x
#B = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#N = #ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
#F = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @respelled_into_reshape(%x: tensor<128x2xf32, #B>) -> tensor<256xf32, #F> {
    %n = ttg.convert_layout %x : tensor<128x2xf32, #B> -> tensor<128x2xf32, #N>
    %r = tt.reshape %n : tensor<128x2xf32, #N> -> tensor<256xf32, #F>
    tt.return %r : tensor<256xf32, #F>
  }
}

// -----

// ttng.warp_group_dot_wait passes its operand's layout through (a conversion in front
// of it disappears, the function's argument keeps its type), and a conversion it needs
// goes after the wait, never before it (the tensor cores may still write the operand).
// CHECK-LABEL: tt.func @through_the_wait
// CHECK-NOT: ttg.convert_layout
// CHECK: %w = ttng.warp_group_dot_wait %x {pendings = 0 : i32} : tensor<64x2xf32, #[[B:blocked[0-9]*]]>
// CHECK-NEXT: tt.return %w : tensor<64x2xf32, #[[B]]>
// CHECK-LABEL: tt.func @convert_after_the_wait
// CHECK-NOT: ttg.convert_layout
// CHECK: %w = ttng.warp_group_dot_wait %x {pendings = 0 : i32}
// CHECK: ttg.convert_layout
// CHECK: tt.return
#B = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [2, 1], order = [1, 0]}>
#C = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @through_the_wait(%x: tensor<64x2xf32, #B>) -> tensor<64x2xf32, #B> {
    %a = ttg.convert_layout %x : tensor<64x2xf32, #B> -> tensor<64x2xf32, #C>
    %w = ttng.warp_group_dot_wait %a {pendings = 0 : i32} : tensor<64x2xf32, #C>
    %b = ttg.convert_layout %w : tensor<64x2xf32, #C> -> tensor<64x2xf32, #B>
    tt.return %b : tensor<64x2xf32, #B>
  }
  tt.func @convert_after_the_wait(%x: tensor<64x2xf32, #C>, %p: tensor<64x2x!tt.ptr<f32>, #B>) {
    %w = ttng.warp_group_dot_wait %x {pendings = 0 : i32} : tensor<64x2xf32, #C>
    %b = ttg.convert_layout %w : tensor<64x2xf32, #C> -> tensor<64x2xf32, #B>
    %s = arith.addf %b, %b : tensor<64x2xf32, #B>
    tt.store %p, %s : tensor<64x2x!tt.ptr<f32>, #B>
    tt.return
  }
}

// -----

// A pure inline asm of a constant moves into the dot operand layout (nothing of the
// chain must survive in the old one), so the loop converts nothing.
// CHECK-LABEL: tt.func @inline_asm_into_dot_operand
// CHECK-NOT: ttg.convert_layout
// CHECK: arith.constant dense<2.000000e+00> : tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
// CHECK: tt.elementwise_inline_asm {{.*}} -> tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#K = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @inline_asm_into_dot_operand(%n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %k = arith.constant dense<2.000000e+00> : tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #K}>>
    %a = arith.constant dense<1.000000e+00> : tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) : i32 {
      %t = tt.elementwise_inline_asm "cvt.rna.tf32.f32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %k : tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #K}>> -> tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #K}>>
      %b = ttg.convert_layout %t : tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #K}>> -> tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
      %d = tt.dot %a, %b, %acc, inputPrecision = tf32 : tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// Conversions first: a loop whose values all end in the returned layout computes in
// it (two registers a thread where one would do), and converts nothing, rather than
// converting twice after the loop to save that work.
// CHECK-LABEL: tt.func @loop_in_the_returned_layout
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#W = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#O = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @loop_in_the_returned_layout(%n: i32) -> (tensor<32xf32, #W>, tensor<32xf32, #W>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant dense<1.000000e+00> : tensor<32xf32, #O>
    %two = arith.constant dense<2.000000e+00> : tensor<32xf32, #W>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %one, %y = %two) -> (tensor<32xf32, #O>, tensor<32xf32, #W>) : i32 {
      %s = arith.addf %x, %one : tensor<32xf32, #O>
      %sc = ttg.convert_layout %s : tensor<32xf32, #O> -> tensor<32xf32, #W>
      %m = arith.mulf %y, %sc : tensor<32xf32, #W>
      scf.yield %s, %m : tensor<32xf32, #O>, tensor<32xf32, #W>
    }
    %rc = ttg.convert_layout %r#0 : tensor<32xf32, #O> -> tensor<32xf32, #W>
    tt.return %rc, %r#1 : tensor<32xf32, #W>, tensor<32xf32, #W>
  }
}

// -----

// ttg.fp4_to_fp unpacks each byte in its thread: the packed constant is built in the
// layout that unpacks to the returned one, and no conversion is left.
// CHECK-LABEL: tt.func @unpack_into_the_returned_layout
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[U:.+]] = ttg.fp4_to_fp
// CHECK-NEXT: tt.return %[[U]]
#P8 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#U16 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#R16 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @unpack_into_the_returned_layout() -> tensor<64x64xbf16, #R16> {
    %c = arith.constant dense<7> : tensor<64x32xi8, #P8>
    %u = ttg.fp4_to_fp %c {axis = 1 : i32} : tensor<64x32xi8, #P8> -> tensor<64x64xbf16, #U16>
    %r = ttg.convert_layout %u : tensor<64x64xbf16, #U16> -> tensor<64x64xbf16, #R16>
    tt.return %r : tensor<64x64xbf16, #R16>
  }
}

// -----

// tt.gather: the indices and the result share a layout and the source is taken in
// any, so the indices' layout flows through to the returned result and the source is
// not converted; with efficient_layout the written layouts stay.
// CHECK-LABEL: tt.func @gather_takes_its_indices_layout
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.gather %src[%idx] {axis = 0 : i32} : (tensor<64x32xf32, #[[S:blocked[0-9]*]]>, tensor<128x32xi32, #[[I:blocked[0-9]*]]>) -> tensor<128x32xf32, #[[I]]>
// CHECK-NOT: ttg.convert_layout
// CHECK-LABEL: tt.func @gather_with_efficient_layout
// CHECK: ttg.convert_layout %idx
// CHECK: tt.gather {{.*}} efficient_layout
// CHECK: ttg.convert_layout
#I = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#G = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#S = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @gather_takes_its_indices_layout(%idx: tensor<128x32xi32, #I>, %src: tensor<64x32xf32, #S>) -> tensor<128x32xf32, #I> {
    %i = ttg.convert_layout %idx : tensor<128x32xi32, #I> -> tensor<128x32xi32, #G>
    %g = tt.gather %src[%i] {axis = 0 : i32} : (tensor<64x32xf32, #S>, tensor<128x32xi32, #G>) -> tensor<128x32xf32, #G>
    %r = ttg.convert_layout %g : tensor<128x32xf32, #G> -> tensor<128x32xf32, #I>
    tt.return %r : tensor<128x32xf32, #I>
  }
  tt.func @gather_with_efficient_layout(%idx: tensor<128x32xi32, #I>, %src: tensor<64x32xf32, #S>) -> tensor<128x32xf32, #I> {
    %i = ttg.convert_layout %idx : tensor<128x32xi32, #I> -> tensor<128x32xi32, #G>
    %g = tt.gather %src[%i] {axis = 0 : i32, efficient_layout} : (tensor<64x32xf32, #S>, tensor<128x32xi32, #G>) -> tensor<128x32xf32, #G>
    %r = ttg.convert_layout %g : tensor<128x32xf32, #G> -> tensor<128x32xf32, #I>
    tt.return %r : tensor<128x32xf32, #I>
  }
}

// -----

// A conversion inside a loop whose source is carried by the loop, and needed in its old
// layout too: the loop carries the value a second time in the new layout (its init
// rebuilt, its update recomputed), and the conversion of the loop's result after the
// loop takes the new result. Nothing is converted.
// CHECK-LABEL: tt.func @carried_twice
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[R:.+]]:3 = scf.for {{.*}} -> (tensor<32xf32, #[[O:blocked[0-9]*]]>, tensor<32xf32, #[[W:blocked[0-9]*]]>, tensor<32xf32, #[[W]]>)
// CHECK: arith.addf {{.*}} : tensor<32xf32, #[[O]]>
// CHECK: arith.addf {{.*}} : tensor<32xf32, #[[W]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return %[[R]]#2, %[[R]]#1, %[[R]]#0
#W = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#O = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @carried_twice() -> (tensor<32xf32, #W>, tensor<32xf32, #W>, tensor<32xf32, #O>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %one = arith.constant dense<1.000000e+00> : tensor<32xf32, #O>
    %two = arith.constant dense<2.000000e+00> : tensor<32xf32, #W>
    %r:2 = scf.for %i = %c0 to %c64 step %c1 iter_args(%x = %one, %y = %two) -> (tensor<32xf32, #O>, tensor<32xf32, #W>) : i32 {
      %s = arith.addf %x, %one : tensor<32xf32, #O>
      %sc = ttg.convert_layout %s : tensor<32xf32, #O> -> tensor<32xf32, #W>
      %m = arith.mulf %y, %sc : tensor<32xf32, #W>
      scf.yield %s, %m : tensor<32xf32, #O>, tensor<32xf32, #W>
    }
    %rc = ttg.convert_layout %r#0 : tensor<32xf32, #O> -> tensor<32xf32, #W>
    tt.return %rc, %r#1, %r#0 : tensor<32xf32, #W>, tensor<32xf32, #W>, tensor<32xf32, #O>
  }
}

// -----

// tt.split takes its operand with the split dim's register anywhere (its verifier
// compares linear layouts): a conversion that only moves that register first goes.
// CHECK-LABEL: tt.func @split_any_register_order
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.split %x
#P = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#C = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#R = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @split_any_register_order(%p: tensor<256x2x!tt.ptr<f32>, #P>) -> (tensor<256xf32, #R>, tensor<256xf32, #R>) {
    %x = tt.load %p : tensor<256x2x!tt.ptr<f32>, #P>
    %c = ttg.convert_layout %x : tensor<256x2xf32, #P> -> tensor<256x2xf32, #C>
    %a, %b = tt.split %c : tensor<256x2xf32, #C> -> tensor<256xf32, #R>
    tt.return %a, %b : tensor<256xf32, #R>, tensor<256xf32, #R>
  }
}

// -----

// One conversion serves every consumer that needs a value in one layout (CSE leaves
// one): the i8 load is converted once and both its consumers work in the slice layout,
// where converting their two results would take two conversions.
// CHECK-LABEL: tt.func @one_conversion_for_two_consumers
// CHECK: %l = tt.load
// CHECK-NEXT: %[[C:.+]] = ttg.convert_layout %l : tensor<32x4xi8, #{{.+}}> -> tensor<32x4xi8, #ttg.slice<{dim = 2, parent = #[[B:blocked[0-9]*]]}>>
// CHECK-NOT: ttg.convert_layout
// CHECK: arith.extui %[[C]]
// CHECK-NOT: ttg.convert_layout
// CHECK: arith.cmpi eq, %[[C]]
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#A = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [4, 8, 1], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @one_conversion_for_two_consumers(%p: tensor<32x4x!tt.ptr<i8>, #A>, %q: tensor<32x4x1x!tt.ptr<i16>, #B>, %r: tensor<32x4x1x!tt.ptr<i8>, #B>) {
    %c = arith.constant dense<-1> : tensor<32x4xi8, #A>
    %l = tt.load %p : tensor<32x4x!tt.ptr<i8>, #A>
    %x = arith.extui %l : tensor<32x4xi8, #A> to tensor<32x4xi16, #A>
    %y = arith.cmpi eq, %l, %c : tensor<32x4xi8, #A>
    %cx = ttg.convert_layout %x : tensor<32x4xi16, #A> -> tensor<32x4xi16, #ttg.slice<{dim = 2, parent = #B}>>
    %cy = ttg.convert_layout %y : tensor<32x4xi1, #A> -> tensor<32x4xi1, #ttg.slice<{dim = 2, parent = #B}>>
    %ex = tt.expand_dims %cx {axis = 2 : i32} : tensor<32x4xi16, #ttg.slice<{dim = 2, parent = #B}>> -> tensor<32x4x1xi16, #B>
    %ey = tt.expand_dims %cy {axis = 2 : i32} : tensor<32x4xi1, #ttg.slice<{dim = 2, parent = #B}>> -> tensor<32x4x1xi1, #B>
    %zy = arith.extui %ey : tensor<32x4x1xi1, #B> to tensor<32x4x1xi8, #B>
    tt.store %q, %ex : tensor<32x4x1x!tt.ptr<i16>, #B>
    tt.store %r, %zy : tensor<32x4x1x!tt.ptr<i8>, #B>
    tt.return
  }
}
