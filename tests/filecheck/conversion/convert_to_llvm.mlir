// convert-tritongpu-to-llvm and --emit ptx on a small kernel: a [64] f16 load in a blocked
// layout with 2 contiguous registers per thread, converted to a layout whose lanes are
// permuted (warp shuffles), stored.
// RUN: ltc-opt %s -p convert-tritongpu-to-llvm | filecheck %s --check-prefix=IR
// RUN: ltc-opt %s --emit ptx --target sm_90 | filecheck %s --check-prefix=PTX
// RUN: ltc-opt %s --emit ptx --target sm_80 | filecheck %s --check-prefix=PTX80

#a = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#b = #ttg.linear<{register = [[1]], lane = [[4], [2], [8], [16], [32]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%in: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #a>
    %p = tt.splat %in : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #a>
    %q = tt.addptr %p, %r : tensor<64x!tt.ptr<f16>, #a>, tensor<64xi32, #a>
    %x = tt.load %q : tensor<64x!tt.ptr<f16>, #a>
    %y = ttg.convert_layout %x : tensor<64xf16, #a> -> tensor<64xf16, #b>
    %r2 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %o = tt.splat %out : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #b>
    %s = tt.addptr %o, %r2 : tensor<64x!tt.ptr<f16>, #b>, tensor<64xi32, #b>
    tt.store %s, %y : tensor<64x!tt.ptr<f16>, #b>
    tt.return
  }
}

// IR:      module attributes {{.*}}ttg.shared = 0 : i32, ltc.target = "sm_90"} {
// IR-NEXT:   llvm.func @k(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
// IR:          llvm.inline_asm has_side_effects "ld.global.b32 $0, [ $1 + 0 ];"
// IR:          llvm.call_intrinsic "llvm.nvvm.shfl.sync.idx.i32"
// IR-NOT:      llvm.call_intrinsic "llvm.nvvm.shfl
// IR:          llvm.inline_asm has_side_effects "st.global.b32 [ $0 + 0 ], $1;"
// IR:          llvm.return

// PTX:      .version 8.0
// PTX-NEXT: .target sm_90
// PTX:      .visible .entry k(
// PTX:      .reqntid 32, 1, 1
// PTX:      ld.global.b32
// PTX:      shfl.sync.idx.b32
// PTX-NOT:  shfl.sync
// PTX:      st.global.b32
// PTX:      ret;
// PTX80:    .target sm_80
