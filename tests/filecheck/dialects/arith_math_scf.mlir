// RUN: ltc-opt %s --split-input-file | filecheck %s
// Round trip of ltc's tensor-aware arith, xDSL's math and scf, in Triton's syntax.

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  func.func @cmp_select(%a: tensor<128xi32, #blocked>, %x: tensor<128xf32, #blocked>, %c: i1) {
    %0 = arith.cmpi slt, %a, %a : tensor<128xi32, #blocked>
    %1 = arith.select %0, %x, %x : tensor<128xi1, #blocked>, tensor<128xf32, #blocked>
    %2 = arith.cmpf ogt, %x, %x : tensor<128xf32, #blocked>
    %3 = arith.select %c, %x, %x : tensor<128xf32, #blocked>
    %4 = arith.cmpf oeq, %x, %x fastmath<nnan> : tensor<128xf32, #blocked>
    func.return
  }
}
// CHECK-LABEL: func.func @cmp_select
// CHECK:      %0 = arith.cmpi slt, %a, %a : tensor<128xi32, [[B:#[a-z0-9_.]+(<.*>)?]]>
// CHECK-NEXT: %1 = arith.select %0, %x, %x : tensor<128xi1, [[B]]>, tensor<128xf32, [[B]]>
// CHECK-NEXT: %2 = arith.cmpf ogt, %x, %x : tensor<128xf32, [[B]]>
// CHECK-NEXT: %3 = arith.select %c, %x, %x : tensor<128xf32, [[B]]>
// CHECK-NEXT: %4 = arith.cmpf oeq, %x, %x fastmath<nnan> : tensor<128xf32, [[B]]>

// -----

func.func @binary(%a: tensor<8xi32>, %x: tensor<8xf32>) {
  %0 = arith.remsi %a, %a : tensor<8xi32>
  %1 = arith.remui %a, %a : tensor<8xi32>
  %2 = arith.shrsi %a, %a : tensor<8xi32>
  %3 = arith.maxui %a, %a : tensor<8xi32>
  %4 = arith.addi %a, %a overflow<nsw> : tensor<8xi32>
  %5 = arith.remf %x, %x : tensor<8xf32>
  %6 = arith.addf %x, %x fastmath<fast> : tensor<8xf32>
  %7 = arith.maxnumf %x, %x : tensor<8xf32>
  %8 = arith.negf %x : tensor<8xf32>
  %9, %10 = arith.mulsi_extended %a, %a : tensor<8xi32>
  func.return
}
// CHECK-LABEL: func.func @binary
// CHECK:      %0 = arith.remsi %a, %a : tensor<8xi32>
// CHECK-NEXT: %1 = arith.remui %a, %a : tensor<8xi32>
// CHECK-NEXT: %2 = arith.shrsi %a, %a : tensor<8xi32>
// CHECK-NEXT: %3 = arith.maxui %a, %a : tensor<8xi32>
// CHECK-NEXT: %4 = arith.addi %a, %a overflow<nsw> : tensor<8xi32>
// CHECK-NEXT: %5 = arith.remf %x, %x : tensor<8xf32>
// CHECK-NEXT: %6 = arith.addf %x, %x fastmath<fast> : tensor<8xf32>
// CHECK-NEXT: %7 = arith.maxnumf %x, %x : tensor<8xf32>
// CHECK-NEXT: %8 = arith.negf %x : tensor<8xf32>
// CHECK-NEXT: %9:2 = arith.mulsi_extended %a, %a : tensor<8xi32>

// -----

func.func @casts(%a: tensor<8xi32>, %h: tensor<8xf16>, %m: tensor<8xi1>, %i: index) {
  %0 = arith.extsi %a : tensor<8xi32> to tensor<8xi64>
  %1 = arith.extui %m : tensor<8xi1> to tensor<8xi32>
  %2 = arith.trunci %a : tensor<8xi32> to tensor<8xi8>
  %3 = arith.extf %h : tensor<8xf16> to tensor<8xf32>
  %4 = arith.truncf %3 : tensor<8xf32> to tensor<8xbf16>
  %5 = arith.sitofp %a : tensor<8xi32> to tensor<8xf32>
  %6 = arith.uitofp %a : tensor<8xi32> to tensor<8xf16>
  %7 = arith.fptosi %3 : tensor<8xf32> to tensor<8xi32>
  %8 = arith.fptoui %3 : tensor<8xf32> to tensor<8xi64>
  %9 = arith.bitcast %3 : tensor<8xf32> to tensor<8xi32>
  %10 = arith.index_cast %i : index to i32
  func.return
}
// CHECK-LABEL: func.func @casts
// CHECK:      %0 = arith.extsi %a : tensor<8xi32> to tensor<8xi64>
// CHECK-NEXT: %1 = arith.extui %m : tensor<8xi1> to tensor<8xi32>
// CHECK-NEXT: %2 = arith.trunci %a : tensor<8xi32> to tensor<8xi8>
// CHECK-NEXT: %3 = arith.extf %h : tensor<8xf16> to tensor<8xf32>
// CHECK-NEXT: %4 = arith.truncf %3 : tensor<8xf32> to tensor<8xbf16>
// CHECK-NEXT: %5 = arith.sitofp %a : tensor<8xi32> to tensor<8xf32>
// CHECK-NEXT: %6 = arith.uitofp %a : tensor<8xi32> to tensor<8xf16>
// CHECK-NEXT: %7 = arith.fptosi %3 : tensor<8xf32> to tensor<8xi32>
// CHECK-NEXT: %8 = arith.fptoui %3 : tensor<8xf32> to tensor<8xi64>
// CHECK-NEXT: %9 = arith.bitcast %3 : tensor<8xf32> to tensor<8xi32>
// CHECK-NEXT: %10 = arith.index_cast %i : index to i32

// -----

func.func @constants() {
  %0 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %1 = arith.constant dense<0.0> : tensor<64x64xf32>
  %2 = arith.constant dense<true> : tensor<256xi1>
  %3 = arith.constant dense<[1.0, -0.0]> : tensor<2xf32>
  %4 = arith.constant 0x7FC00000 : f32
  %5 = arith.constant 0.693147182 : f32
  %6 = arith.constant 1234567.0 : f32
  %7 = arith.constant 0.1 : f16
  %8 = arith.constant 255 : i8
  %9 = arith.constant true
  %10 = arith.constant 0 : index
  %11 = arith.constant dense<0xFC00> : tensor<4xf16>
  func.return
}
// CHECK-LABEL: func.func @constants
// CHECK:      arith.constant dense<0xFF800000> : tensor<128xf32>
// CHECK-NEXT: arith.constant dense<0.000000e+00> : tensor<64x64xf32>
// CHECK-NEXT: arith.constant dense<true> : tensor<256xi1>
// CHECK-NEXT: arith.constant dense<[1.000000e+00, -0.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: arith.constant 0x7FC00000 : f32
// CHECK-NEXT: arith.constant 0.693147182 : f32
// CHECK-NEXT: arith.constant 0x4996B438 : f32
// CHECK-NEXT: arith.constant 9.997550e-02 : f16
// CHECK-NEXT: arith.constant -1 : i8
// CHECK-NEXT: arith.constant true
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: arith.constant dense<0xFC00> : tensor<4xf16>

// -----

func.func @math(%x: tensor<8xf32>, %a: tensor<8xi32>) {
  %0 = math.exp %x : tensor<8xf32>
  %1 = math.exp2 %x fastmath<fast> : tensor<8xf32>
  %2 = math.rsqrt %x : tensor<8xf32>
  %3 = math.fma %x, %x, %x : tensor<8xf32>
  %4 = math.absi %a : tensor<8xi32>
  %5 = math.erf %x : tensor<8xf32>
  func.return
}
// CHECK-LABEL: func.func @math
// CHECK:      %0 = math.exp %x : tensor<8xf32>
// CHECK-NEXT: %1 = math.exp2 %x fastmath<fast> : tensor<8xf32>
// CHECK-NEXT: %2 = math.rsqrt %x : tensor<8xf32>
// CHECK-NEXT: %3 = math.fma %x, %x, %x : tensor<8xf32>
// CHECK-NEXT: %4 = math.absi %a : tensor<8xi32>
// CHECK-NEXT: %5 = math.erf %x : tensor<8xf32>

// -----

func.func @scf(%x: tensor<8xf32>, %s: i32, %c: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.for %iv = %c0 to %s step %c1 iter_args(%p = %x, %q = %s) -> (tensor<8xf32>, i32) : i32 {
    %n = arith.addf %p, %x : tensor<8xf32>
    scf.yield %n, %q : tensor<8xf32>, i32
  }
  %w = scf.if %c -> (i32) {
    scf.yield %r#1 : i32
  } else {
    scf.yield %s : i32
  }
  func.return
}
// CHECK-LABEL: func.func @scf
// CHECK:      %r:2 = scf.for %iv = %c0 to %s step %c1 iter_args(%p = %x, %q = %s) -> (tensor<8xf32>, i32) : i32 {
// CHECK-NEXT:   %n = arith.addf %p, %x : tensor<8xf32>
// CHECK-NEXT:   scf.yield %n, %q : tensor<8xf32>, i32
// CHECK-NEXT: }
// CHECK-NEXT: %w = scf.if %c -> (i32) {
// CHECK-NEXT:   scf.yield %r#1 : i32
// CHECK-NEXT: } else {
// CHECK-NEXT:   scf.yield %s : i32
// CHECK-NEXT: }
