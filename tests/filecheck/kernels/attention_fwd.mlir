// Real Triton 3.9 TTGIR for sm_90 (examples/triton/attention_fwd.ttgir): aliases numbered as
// Triton numbers them, grouped results (%acc:3), generic tt.reduce, Hopper wgmma ops.
// RUN: ltc-opt %S/../../../examples/triton/attention_fwd.ttgir | filecheck %s

// CHECK:      #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
// CHECK:      #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-NEXT: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-NEXT: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: module attributes
// CHECK:      ttg.local_alloc %{{.*}} : (tensor<128x64xf16, #{{blocked[0-9]*}}>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
// CHECK:      %[[ACC:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %n_ctx step %{{.*}} iter_args(%[[M:.*]] = %{{.*}}, %[[L:.*]] = %{{.*}}, %[[A:.*]] = %{{.*}}) -> (tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128x64xf32, #mma>) : i32 {
// CHECK:        %[[QK:.*]] = ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared1, #smem> -> tensor<128x64xf32, #mma>
// CHECK-NEXT:   %[[W:.*]]:3 = ttng.warp_group_dot_wait %[[QK]], %{{.*}}, %{{.*}} {pendings = 0 : i32} : tensor<128x64xf32, #mma>, !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x64xf16, #shared1, #smem>
// CHECK:        "tt.reduce"(%{{.*}}) <{axis = 1 : i32}> ({
// CHECK-NEXT:   ^{{.*}}(%[[X:.*]]: f32, %[[Y:.*]]: f32):
// CHECK-NEXT:     %[[MAX:.*]] = arith.maxnumf %[[X]], %[[Y]] : f32
// CHECK-NEXT:     tt.reduce.return %[[MAX]] : f32
// CHECK-NEXT:   }) : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
// CHECK:        ttg.convert_layout %{{.*}} : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK:        scf.yield
// CHECK:      }
// CHECK:      arith.divf %[[ACC]]#2, %{{.*}} : tensor<128x64xf32, #mma>
