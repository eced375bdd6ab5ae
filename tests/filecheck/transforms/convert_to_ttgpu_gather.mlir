// RUN: ltc-opt %s --split-input-file -p 'convert-triton-to-tritongpu{target="cuda:80" num-warps=2}' | filecheck %s
// The row offsets of a TMA gather / scatter go to Triton's index layout: the dim-0 slice
// of [1, 4] / [32, 1] / [1, warps], order [1, 0] (four neighbouring offsets per thread).

// CHECK: #[[P:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 2], order = [1, 0]}>
// CHECK-LABEL: tt.func @gather
// CHECK: %[[I:.*]] = ttg.convert_layout %cst : tensor<32xi32, #{{.*}}> -> tensor<32xi32, #ttg.slice<{dim = 0, parent = #[[P]]}>>
// CHECK-NEXT: tt.descriptor_gather %arg0[%[[I]], %arg1]
// CHECK-LABEL: tt.func @scatter
// CHECK: %[[J:.*]] = ttg.convert_layout %cst : tensor<32xi32, #{{.*}}> -> tensor<32xi32, #ttg.slice<{dim = 0, parent = #[[P]]}>>
// CHECK-NEXT: tt.descriptor_scatter %arg0[%[[J]], %arg1]
tt.func @gather(%arg0: !tt.tensordesc<1x128xf32>, %arg1: i32) -> tensor<32x128xf32> {
  %cst = arith.constant dense<1> : tensor<32xi32>
  %0 = tt.descriptor_gather %arg0[%cst, %arg1] : (!tt.tensordesc<1x128xf32>, tensor<32xi32>, i32) -> tensor<32x128xf32>
  tt.return %0 : tensor<32x128xf32>
}

tt.func @scatter(%arg0: !tt.tensordesc<1x128xf32>, %arg1: i32, %arg2: tensor<32x128xf32>) {
  %cst = arith.constant dense<1> : tensor<32xi32>
  tt.descriptor_scatter %arg0[%cst, %arg1], %arg2 : !tt.tensordesc<1x128xf32>, tensor<32xi32>, i32, tensor<32x128xf32>
  tt.return
}
