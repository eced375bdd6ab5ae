// Real Triton 3.9 TTGIR (examples/triton/vector_add.ttgir): ltc prints it as Triton does.
// RUN: ltc-opt %S/../../../examples/triton/vector_add.ttgir | filecheck %s
// RUN: ltc-opt %S/../../../examples/triton/vector_add.ttgir --print-debuginfo | filecheck %s --check-prefix=LOC

// CHECK:      #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {
// CHECK-NEXT:   tt.func public @vector_add(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>, %n: i32) attributes {noinline = false} {
// CHECK-NEXT:     %[[C:.*]] = arith.constant 1024 : i32
// CHECK-NEXT:     %[[PID:.*]] = tt.get_program_id x : i32
// CHECK-NEXT:     %[[OFF:.*]] = arith.muli %[[PID]], %[[C]] : i32
// CHECK-NEXT:     %[[R:.*]] = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
// CHECK-NEXT:     %[[S:.*]] = tt.splat %[[OFF]] : i32 -> tensor<1024xi32, #blocked>
// CHECK-NEXT:     %[[OFFS:.*]] = arith.addi %[[S]], %[[R]] : tensor<1024xi32, #blocked>
// CHECK-NEXT:     %[[N:.*]] = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
// CHECK-NEXT:     %[[MASK:.*]] = arith.cmpi slt, %[[OFFS]], %[[N]] : tensor<1024xi32, #blocked>
// CHECK-NEXT:     %[[XP:.*]] = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
// CHECK-NEXT:     %[[XA:.*]] = tt.addptr %[[XP]], %[[OFFS]] : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
// CHECK-NEXT:     %[[X:.*]] = tt.load %[[XA]], %[[MASK]] : tensor<1024x!tt.ptr<f32>, #blocked>
// CHECK:          %[[SUM:.*]] = arith.addf %[[X]], %{{.*}} : tensor<1024xf32, #blocked>
// CHECK-NEXT:     tt.store %{{.*}}, %[[SUM]], %[[MASK]] : tensor<1024x!tt.ptr<f32>, #blocked>
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// LOC: tt.func public @vector_add(%x_ptr: !tt.ptr<f32> loc("x_ptr"({{.*}})),
// LOC: tt.get_program_id x : i32 loc({{.*}}"pid"{{.*}})
// LOC: } loc(
