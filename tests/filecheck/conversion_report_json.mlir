// RUN: ltc-opt %s --conversion-report=json 2>&1 >/dev/null | filecheck %s
// RUN: ltc-opt %s --conversion-report=json 2>&1 >/dev/null | python -c "import json, sys; print(sorted(json.load(sys.stdin)[0]))" | filecheck %s --check-prefix=KEYS
// --conversion-report=json (on stderr): a JSON list, one entry per line, the keys of
// issue 16 in this order; counts always list every instruction kind.

// KEYS: ['alternatives', 'cost', 'counts', 'dst', 'dtype', 'kind', 'loc', 'loop_depth', 'reason', 'scratch_bytes', 'shape', 'src', 'weight']

// The 128x64 f32 scores of a dot (#mma) stored through a blocked layout, in an scf.for
// with unknown bounds (weight 16). Rematerializing the product in #blocked costs the
// same conversion at the dot plus the product computed twice (the reduction still uses
// it in #mma): 64 words a thread x 1/4 cycle x 16.
// CHECK:      [
// CHECK-NEXT: {"loc": "{{.*}}conversion_report_json.mlir:[[# @LINE + 19]]:12", "src": "#mma", "dst": "#blocked", "shape": [128, 64], "dtype": "f32", "loop_depth": 1, "weight": 16.0, "kind": "shared", "counts": {"shared_stores": 16, "shared_loads": 16, "shared_stores_by_bits": {"128": 16}, "shared_loads_by_bits": {"128": 16}, "stmatrix": 0, "ldmatrix": 0, "shuffles": 0, "barriers": 3, "warp_syncs": 0, "selects": 0, "moves": 0}, "scratch_bytes": 16384, "cost": 2240.5, "reason": "source #mma fixed by ttng.warp_group_dot result ({{.*}}conversion_report_json.mlir:[[# @LINE + 12]]:12); destination #blocked required by tt.store operand ({{.*}}conversion_report_json.mlir:[[# @LINE + 20]]:7); no alternative is cheaper (the cheapest, keep-source-layout, costs 2240.5)", "alternatives": [{"move": "rematerialize-source", "cost": 2496.5}, {"move": "keep-source-layout", "cost": 2240.5}]}
// CHECK-NEXT: ]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scores(%a: !ttg.memdesc<128x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %out: tensor<128x64x!tt.ptr<f32>, #blocked>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %s = ttng.warp_group_dot %a, %b, %zero : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
      %x = arith.mulf %s, %s : tensor<128x64xf32, #mma>
      %m = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%p: f32, %q: f32):
        %r = arith.maxnumf %p, %q : f32
        tt.reduce.return %r : f32
      }) : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %c = ttg.convert_layout %x : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #blocked>
      tt.store %out, %c : tensor<128x64x!tt.ptr<f32>, #blocked>
    }
    tt.return
  }
}
