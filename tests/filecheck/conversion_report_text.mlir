// RUN: ltc-opt %s --split-input-file --conversion-report 2>&1 >/dev/null | filecheck %s --check-prefix=INPUT
// RUN: ltc-opt %s --split-input-file --conversion-report -p tritongpu-remove-layout-conversions 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// RUN: ltc-opt %s --split-input-file --conversion-report | filecheck %s --check-prefix=IR
// --conversion-report (text, on stderr): one block per ttg.convert_layout in program
// order, located in the input, layouts by the aliases of the printed module; then the
// section's totals. With no pass it explains the input as it is.

// IR-NOT: total:
// IR: tt.func @loops

// A conversion in an scf.for from 2 to 10 (weight 8) and one in a nested loop with
// unknown bounds (weight 8 x 16); the engine hoists the second out of the inner loop.
// INPUT: conversion_report_text.mlir:[[# @LINE + 29]]:12: ttg.convert_layout #blocked -> #blocked1
// INPUT-NEXT: tensor<64x64xf32>, loop depth 1, weight 8
// INPUT-NEXT: plan: shared (optimal swizzling): 8 shared stores (128-bit x8), 8 shared loads (128-bit x8), 1 barrier; scratch 16384 bytes
// INPUT-NEXT: cost: 68.03 cycles x 8 = 544.25
// INPUT-NEXT: why: source #blocked fixed by tt.load result ({{.*}}conversion_report_text.mlir:[[# @LINE + 22]]:12); destination #blocked1 required by tt.store operand ({{.*}}:[[# @LINE + 26]]:7); no alternative is cheaper (the cheapest, keep-source-layout, costs 544.25)
// INPUT-NEXT: rejected: rematerialize the source chain in #blocked1 [rematerialize-source]: 1056.25
// INPUT-NEXT: rejected: keep #blocked for the users [keep-source-layout]: 544.25
// INPUT-NEXT: conversion_report_text.mlir:[[# @LINE + 25]]:14: ttg.convert_layout #blocked -> #blocked1
// INPUT-NEXT: tensor<64x64xf32>, loop depth 2, weight 128
// INPUT:      cost: 68.03 cycles x 128 = 8708
// INPUT-NEXT: why: {{.*}}; a cheaper move was not taken: rematerialize-source costs 544.25 < 8708
// INPUT-NEXT: rejected: rematerialize the source chain in #blocked1 [rematerialize-source]: 544.25
// INPUT-NEXT: rejected: keep #blocked for the users [keep-source-layout]: 17416
// INPUT-NEXT: rejected: hoist it out of the loop [hoist-out-of-loop]: 544.25
// INPUT-NEXT: total: 2 conversions, weighted cost 9252.25
// AFTER:      conversion_report_text.mlir:[[# @LINE + 17]]:14: ttg.convert_layout #blocked -> #blocked1
// AFTER-NEXT: tensor<64x64xf32>, loop depth 1, weight 8
// AFTER:      total: 2 conversions, weighted cost 1088.5
#X = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#D = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @loops(%p: tensor<64x64x!tt.ptr<f32>, #X>, %q: tensor<64x64x!tt.ptr<f32>, #D>, %n: i32) {
    %c2 = arith.constant 2 : i32
    %c1 = arith.constant 1 : i32
    %c10 = arith.constant 10 : i32
    scf.for %i = %c2 to %c10 step %c1 : i32 {
      %l = tt.load %p : tensor<64x64x!tt.ptr<f32>, #X>
      %e = math.exp %l : tensor<64x64xf32, #X>
      tt.store %p, %e : tensor<64x64x!tt.ptr<f32>, #X>
      %a = ttg.convert_layout %e : tensor<64x64xf32, #X> -> tensor<64x64xf32, #D>
      tt.store %q, %a : tensor<64x64x!tt.ptr<f32>, #D>
      scf.for %j = %c2 to %n step %c1 : i32 {
        %b = ttg.convert_layout %l : tensor<64x64xf32, #X> -> tensor<64x64xf32, #D>
        %m = tt.load %q : tensor<64x64x!tt.ptr<f32>, #D>
        %c = arith.addf %b, %m : tensor<64x64xf32, #D>
        tt.store %q, %c : tensor<64x64x!tt.ptr<f32>, #D>
      }
    }
    tt.return
  }
}

// -----

// Nothing fixes a range's layout: rebuilding it in the destination layout is free.
// #linear spells the same linear layout as #blocked1: a noop plan, cost 0.
// INPUT-LABEL: // -----
// INPUT-NEXT: conversion_report_text.mlir:[[# @LINE + 22]]:10: ttg.convert_layout #blocked1 -> #blocked
// INPUT-NEXT: tensor<256xi32>, loop depth 0, weight 1
// INPUT-NEXT: plan: shared (optimal swizzling): 1 shared load (64-bit x1), 1 stmatrix, 1 barrier; scratch 1024 bytes
// INPUT-NEXT: cost: 8.03 cycles x 1 = 8.03
// INPUT-NEXT: why: nothing fixes the source #blocked1 (the chain can be rebuilt in #blocked for free); destination #blocked required by tt.store operand ({{.*}}conversion_report_text.mlir:[[# @LINE + 19]]:5); a cheaper move was not taken: rematerialize-source costs 0 < 8.03
// INPUT-NEXT: rejected: rematerialize the source chain in #blocked [rematerialize-source]: 0
// INPUT-NEXT: rejected: keep #blocked1 for the users [keep-source-layout]: 8.03
// INPUT-NEXT: conversion_report_text.mlir:[[# @LINE + 17]]:10: ttg.convert_layout #blocked1 -> #linear
// INPUT-NEXT: tensor<256xi32>, loop depth 0, weight 1
// INPUT-NEXT: plan: noop (equal linear layouts): no instructions; scratch 0 bytes
// INPUT-NEXT: cost: 0 cycles x 1 = 0
// INPUT-NEXT: why: the two layouts are the same linear layout (a noop plan); nothing fixes the source #blocked1 (the chain can be rebuilt in #linear for free); nothing requires the destination #linear (the users can take #blocked1 for free); no alternative is cheaper (the cheapest, rematerialize-source, costs 0)
// INPUT:      conversion_report_text.mlir:[[# @LINE + 14]]:10: ttg.convert_layout #linear -> #blocked1
// INPUT:      total: 3 conversions, weighted cost 8.03
// AFTER-LABEL: // -----
// AFTER-NEXT: total: 0 conversions, weighted cost 0
#B = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#C = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#L = #ttg.linear<{register = [[128]], lane = [[1], [2], [4], [8], [16]], warp = [[32], [64]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @range(%p: tensor<256x!tt.ptr<i32>, #C>, %q: tensor<256x!tt.ptr<i32>, #B>) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #B>
    %c = ttg.convert_layout %r : tensor<256xi32, #B> -> tensor<256xi32, #C>
    tt.store %p, %c : tensor<256x!tt.ptr<i32>, #C>
    %s = ttg.convert_layout %r : tensor<256xi32, #B> -> tensor<256xi32, #L>
    %t = arith.addi %s, %s : tensor<256xi32, #L>
    %u = ttg.convert_layout %t : tensor<256xi32, #L> -> tensor<256xi32, #B>
    tt.store %q, %u : tensor<256x!tt.ptr<i32>, #B>
    tt.return
  }
}
