// RUN: ltc-opt %s --split-input-file -p tritongpu-coalesce | filecheck %s
// tritongpu-coalesce: each global load/store/atomic through a tensor of pointers gets the
// blocked layout of its widest aligned access (from axis info); operands are converted
// in, results converted back. The layouts are Triton 3.9's (tests/test_coalesce.py
// checks them against Triton's own pass).

// 64x64 f32, 4 warps: the row-major load reads 16 bytes per thread along dim 1, the
// transposed store writes 16 bytes per thread along dim 0.
// CHECK-DAG: [[ROW:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: [[COL:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: [[OLD:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @transpose
// CHECK: %[[P:.*]] = ttg.convert_layout %pin : tensor<64x64x!tt.ptr<f32>, [[OLD]]> -> tensor<64x64x!tt.ptr<f32>, [[ROW]]>
// CHECK-NEXT: %[[X:.*]] = tt.load %[[P]] : tensor<64x64x!tt.ptr<f32>, [[ROW]]>
// CHECK-NEXT: ttg.convert_layout %[[X]] : tensor<64x64xf32, [[ROW]]> -> tensor<64x64xf32, [[OLD]]>
// CHECK: %[[Q:.*]] = ttg.convert_layout %pout : tensor<64x64x!tt.ptr<f32>, [[OLD]]> -> tensor<64x64x!tt.ptr<f32>, [[COL]]>
// CHECK-NEXT: %[[V:.*]] = ttg.convert_layout %{{.*}} : tensor<64x64xf32, [[OLD]]> -> tensor<64x64xf32, [[COL]]>
// CHECK-NEXT: tt.store %[[Q]], %[[V]] : tensor<64x64x!tt.ptr<f32>, [[COL]]>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @transpose(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %in_stride: i32 {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_stride: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<64x1xi32, #b>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<1x64xi32, #b>
    %si = tt.splat %in_stride : i32 -> tensor<64x1xi32, #b>
    %ri = arith.muli %re, %si : tensor<64x1xi32, #b>
    %rb = tt.broadcast %ri : tensor<64x1xi32, #b> -> tensor<64x64xi32, #b>
    %cb = tt.broadcast %ce : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #b>
    %pi = tt.splat %in : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #b>
    %pin = tt.addptr %pi, %off : tensor<64x64x!tt.ptr<f32>, #b>, tensor<64x64xi32, #b>
    %x = tt.load %pin : tensor<64x64x!tt.ptr<f32>, #b>
    %so = tt.splat %out_stride : i32 -> tensor<1x64xi32, #b>
    %co = arith.muli %ce, %so : tensor<1x64xi32, #b>
    %cob = tt.broadcast %co : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
    %reb = tt.broadcast %re : tensor<64x1xi32, #b> -> tensor<64x64xi32, #b>
    %offt = arith.addi %reb, %cob : tensor<64x64xi32, #b>
    %po = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #b>
    %pout = tt.addptr %po, %offt : tensor<64x64x!tt.ptr<f32>, #b>, tensor<64x64xi32, #b>
    tt.store %pout, %x : tensor<64x64x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// Masked 1-D f16 copy: 16-byte pointers give 8 halves per thread; pointer, mask and
// stored value are all converted.
// CHECK-DAG: [[OLD:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: [[WIDE:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @copy
// CHECK: %[[P:.*]] = ttg.convert_layout %pa : tensor<2048x!tt.ptr<f16>, [[OLD]]> -> tensor<2048x!tt.ptr<f16>, [[WIDE]]>
// CHECK-NEXT: %[[M:.*]] = ttg.convert_layout %mask : tensor<2048xi1, [[OLD]]> -> tensor<2048xi1, [[WIDE]]>
// CHECK-NEXT: %[[X:.*]] = tt.load %[[P]], %[[M]] : tensor<2048x!tt.ptr<f16>, [[WIDE]]>
// CHECK-NEXT: %[[X2:.*]] = ttg.convert_layout %[[X]] : tensor<2048xf16, [[WIDE]]> -> tensor<2048xf16, [[OLD]]>
// CHECK: ttg.convert_layout %pb : tensor<2048x!tt.ptr<f16>, [[OLD]]> -> tensor<2048x!tt.ptr<f16>, [[WIDE]]>
// CHECK-NEXT: ttg.convert_layout %[[X2]] : tensor<2048xf16, [[OLD]]> -> tensor<2048xf16, [[WIDE]]>
// CHECK-NEXT: ttg.convert_layout %mask : tensor<2048xi1, [[OLD]]> -> tensor<2048xi1, [[WIDE]]>
// CHECK-NEXT: tt.store {{.*}} : tensor<2048x!tt.ptr<f16>, [[WIDE]]>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copy(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) {
    %r = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #b>
    %sn = tt.splat %n : i32 -> tensor<2048xi32, #b>
    %mask = arith.cmpi slt, %r, %sn : tensor<2048xi32, #b>
    %sa = tt.splat %a : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #b>
    %pa = tt.addptr %sa, %r : tensor<2048x!tt.ptr<f16>, #b>, tensor<2048xi32, #b>
    %x = tt.load %pa, %mask : tensor<2048x!tt.ptr<f16>, #b>
    %sb = tt.splat %b : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #b>
    %pb = tt.addptr %sb, %r : tensor<2048x!tt.ptr<f16>, #b>, tensor<2048xi32, #b>
    tt.store %pb, %x, %mask : tensor<2048x!tt.ptr<f16>, #b>
    tt.return
  }
}

// -----

// Without a divisibility hint the base pointer may be odd: one element per thread is
// already the layout, so nothing changes.
// CHECK-LABEL: tt.func public @unaligned
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @unaligned(%a: !tt.ptr<f32>) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %sa = tt.splat %a : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
    %pa = tt.addptr %sa, %r : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    %x = tt.load %pa : tensor<1024x!tt.ptr<f32>, #b>
    tt.store %pa, %x : tensor<1024x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// sm_80 has no vector f16 atomic add beyond pairs: 2 per thread (16 on sm_90 would be 8);
// the atomic's value operand and result go through the same layout.
// CHECK-DAG: [[OLD:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: [[PAIR:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @atomic_add
// CHECK: tt.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}} : (tensor<1024x!tt.ptr<f16>, [[PAIR]]>, tensor<1024xf16, [[PAIR]]>) -> tensor<1024xf16, [[PAIR]]>
// CHECK-NEXT: ttg.convert_layout %{{.*}} : tensor<1024xf16, [[PAIR]]> -> tensor<1024xf16, [[OLD]]>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @atomic_add(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %sa = tt.splat %a : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b>
    %pa = tt.addptr %sa, %r : tensor<1024x!tt.ptr<f16>, #b>, tensor<1024xi32, #b>
    %x = arith.sitofp %r : tensor<1024xi32, #b> to tensor<1024xf16, #b>
    %old = tt.atomic_rmw fadd, acq_rel, gpu, %pa, %x : (tensor<1024x!tt.ptr<f16>, #b>, tensor<1024xf16, #b>) -> tensor<1024xf16, #b>
    tt.return
  }
}

// -----

// A pointer carried by a loop and advanced by 64 floats per trip keeps its 16-byte
// alignment: the load inside the loop reads 4 floats per thread.
// CHECK-DAG: [[WIDE:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK-LABEL: tt.func public @loop
// CHECK: scf.for
// CHECK: tt.load %{{.*}} : tensor<256x!tt.ptr<f32>, [[WIDE]]>
// CHECK: scf.yield
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @loop(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<256xf32, #b> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<64> : tensor<256xi32, #b>
    %zero = arith.constant dense<0.000000e+00> : tensor<256xf32, #b>
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b>
    %sa = tt.splat %a : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #b>
    %pa = tt.addptr %sa, %r : tensor<256x!tt.ptr<f32>, #b>, tensor<256xi32, #b>
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %pa, %acc = %zero) -> (tensor<256x!tt.ptr<f32>, #b>, tensor<256xf32, #b>) : i32 {
      %x = tt.load %p : tensor<256x!tt.ptr<f32>, #b>
      %acc2 = arith.addf %acc, %x : tensor<256xf32, #b>
      %p2 = tt.addptr %p, %step : tensor<256x!tt.ptr<f32>, #b>, tensor<256xi32, #b>
      scf.yield %p2, %acc2 : tensor<256x!tt.ptr<f32>, #b>, tensor<256xf32, #b>
    }
    tt.return %res#1 : tensor<256xf32, #b>
  }
}
