// RUN: ltc-opt %s --split-input-file -p ltc-structurize-cf | filecheck %s
// Early returns (cf.cond_br / cf.br between blocks) become nested scf.if; a join block
// reached two ways is duplicated, block arguments become the values passed.

// CHECK-LABEL: tt.func public @early_exit
// CHECK-NEXT: %pid = tt.get_program_id x : i32
// CHECK-NEXT: %c = arith.cmpi sge, %pid, %n : i32
// CHECK-NEXT: scf.if %c {
// CHECK-NEXT: } else {
// CHECK-NEXT: tt.store %p, %v : !tt.ptr<f32>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
tt.func public @early_exit(%p: !tt.ptr<f32>, %v: f32, %n: i32) {
  %pid = tt.get_program_id x : i32
  %c = arith.cmpi sge, %pid, %n : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  tt.return
^bb2:
  tt.store %p, %v : !tt.ptr<f32>
  tt.return
}

// -----

// CHECK-LABEL: tt.func @join
// CHECK-NEXT: %[[R:.*]] = scf.if %c -> (f32) {
// CHECK-NEXT: %e = math.exp %x : f32
// CHECK-NEXT: %s = arith.addf %e, %x : f32
// CHECK-NEXT: scf.yield %s : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: %s_1 = arith.addf %x, %x : f32
// CHECK-NEXT: scf.yield %s_1 : f32
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %[[R]] : f32
tt.func @join(%c: i1, %x: f32) -> f32 {
  cf.cond_br %c, ^bb1, ^bb2(%x : f32)
^bb1:
  %e = math.exp %x : f32
  cf.br ^bb2(%e : f32)
^bb2(%a: f32):
  %s = arith.addf %a, %x : f32
  tt.return %s : f32
}
