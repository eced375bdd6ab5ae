// RUN: ltc-opt %s -p 'convert-triton-to-tritongpu{num-warps=4 target=cuda:90},ltc-assign-layouts' | filecheck %s
// Layouts across blocks: a value passed by cf.cond_br / cf.br to a block argument
// takes the layout of the coalesced store that uses it (as an scf.yield operand
// would), with no ttg.convert_layout left.

// CHECK: #[[B:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NOT: ttg.convert_layout
// CHECK: %x = tt.load %pp : tensor<1024x!tt.ptr<f32>, #[[B]]>
// CHECK-NEXT: cf.cond_br %c, ^bb1(%x : tensor<1024xf32, #[[B]]>), ^bb2
// CHECK-NEXT: ^bb1(%a: tensor<1024xf32, #[[B]]>):
// CHECK-NEXT: %e = math.exp %a : tensor<1024xf32, #[[B]]>
// CHECK-NEXT: cf.br ^bb3(%e : tensor<1024xf32, #[[B]]>)
// CHECK-NEXT: ^bb2:
// CHECK-NEXT: cf.br ^bb3(%x : tensor<1024xf32, #[[B]]>)
// CHECK-NEXT: ^bb3(%z: tensor<1024xf32, #[[B]]>):
// CHECK-NEXT: tt.store %qp, %z : tensor<1024x!tt.ptr<f32>, #[[B]]>
// CHECK-NEXT: tt.return
module {
  tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c = arith.cmpi sgt, %n, %c0 : i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %pp = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %qp = tt.addptr %qs, %r : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %x = tt.load %pp : tensor<1024x!tt.ptr<f32>>
    cf.cond_br %c, ^bb1(%x : tensor<1024xf32>), ^bb2
  ^bb1(%a: tensor<1024xf32>):
    %e = math.exp %a : tensor<1024xf32>
    cf.br ^bb3(%e : tensor<1024xf32>)
  ^bb2:
    cf.br ^bb3(%x : tensor<1024xf32>)
  ^bb3(%z: tensor<1024xf32>):
    tt.store %qp, %z : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}
