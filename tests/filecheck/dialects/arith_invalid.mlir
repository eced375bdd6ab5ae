// RUN: ltc-opt %s --split-input-file --verify-diagnostics
// Verifier messages of ltc's arith (wording as Triton/MLIR's, after "'arith.x' op").

func.func @cmpi_scalar_result(%a: tensor<8xi32>) {
  // expected-error @+1 {{failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 2 : i64}> : (tensor<8xi32>, tensor<8xi32>) -> i1
  func.return
}

// -----

func.func @cmpi_bad_predicate(%a: i32) {
  // expected-error @+1 {{attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 12 : i64}> : (i32, i32) -> i1
  func.return
}

// -----

func.func @select_cond_shape(%m: tensor<4xi1>, %x: tensor<8xf32>) {
  // expected-error @+1 {{failed to verify that condition is signless i1 or has matching shape}}
  %0 = arith.select %m, %x, %x : tensor<4xi1>, tensor<8xf32>
  func.return
}

// -----

func.func @extsi_narrower(%a: tensor<8xi32>) {
  // expected-error @+1 {{operand type 'tensor<8xi32>' and result type 'tensor<8xi16>' are cast incompatible}}
  %0 = arith.extsi %a : tensor<8xi32> to tensor<8xi16>
  func.return
}

// -----

func.func @truncf_wider(%h: tensor<8xf16>) {
  // expected-error @+1 {{operand type 'tensor<8xf16>' and result type 'tensor<8xf32>' are cast incompatible}}
  %0 = arith.truncf %h : tensor<8xf16> to tensor<8xf32>
  func.return
}

// -----

func.func @extsi_shape(%a: tensor<8xi32>) {
  // expected-error @+1 {{failed to verify that input and output have the same tensor dimensions}}
  %0 = arith.extsi %a : tensor<8xi32> to tensor<4xi64>
  func.return
}

// -----

func.func @bitcast_width(%x: tensor<8xf32>) {
  // expected-error @+1 {{operand type 'tensor<8xf32>' and result type 'tensor<8xi16>' are cast incompatible}}
  %0 = arith.bitcast %x : tensor<8xf32> to tensor<8xi16>
  func.return
}
