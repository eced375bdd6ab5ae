"""A scalar ``tt.store`` is made once per CTA (issue 19, item 11).

Every thread holds a scalar (a reduction's result, a splat-free value), so an unguarded
store is executed by every warp: 4 stores per program with 4 warps where Triton issues
one. Like Triton, ltc predicates a scalar store on ``tid.x == 0``. The kernel sums a row
of 512 integers per program (exact in any order) and stores the sum at ``out[pid]``; the
PTX simulator counts the warp-level ``st.global`` executions, and the stored values are
numpy's sums and the value interpreter's.
"""

from __future__ import annotations

import numpy as np

from ltc.lowering.ptxsim.run import simulate_ptx
from ltc.passes.interpret import run_kernel
from ltc.tools.pipeline import compile_kernel
from tests.emit_fixtures import parse
from tests.test_codegen_examples import ptxas_ok

ROWS, COLS, WARPS = 10, 512, 4

KERNEL = f"""#blk = #ttg.blocked<{{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [{WARPS}], order = [0]}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {WARPS} : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @row_sum(%x_ptr: !tt.ptr<i32>, %out_ptr: !tt.ptr<i32>) {{
    %pid = tt.get_program_id x : i32
    %c = arith.constant {COLS} : i32
    %start = arith.muli %pid, %c : i32
    %row = tt.addptr %x_ptr, %start : !tt.ptr<i32>, i32
    %offs = tt.make_range {{end = {COLS} : i32, start = 0 : i32}} : tensor<{COLS}xi32, #blk>
    %base = tt.splat %row : !tt.ptr<i32> -> tensor<{COLS}x!tt.ptr<i32>, #blk>
    %ptrs = tt.addptr %base, %offs : tensor<{COLS}x!tt.ptr<i32>, #blk>, tensor<{COLS}xi32, #blk>
    %x = tt.load %ptrs : tensor<{COLS}x!tt.ptr<i32>, #blk>
    %s = "tt.reduce"(%x) <{{axis = 0 : i32}}> ({{
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.reduce.return %t : i32
    }}) : (tensor<{COLS}xi32, #blk>) -> i32
    %dst = tt.addptr %out_ptr, %pid : !tt.ptr<i32>, i32
    tt.store %dst, %s : !tt.ptr<i32>
    tt.return
  }}
}}
"""


def test_a_reduction_result_is_stored_once_per_program() -> None:
    ptx = compile_kernel(KERNEL, emit="ptx")
    ptxas_ok(ptx, "sm_90")
    x = np.random.default_rng(11).integers(-1000, 1000, (ROWS, COLS), dtype=np.int32)
    out = np.full(ROWS, -1, np.int32)
    stats = simulate_ptx(ptx, (ROWS, 1, 1), [x, out])
    assert dict(stats.global_stores) == {32: ROWS}  # one warp per program (was 4 per program)
    np.testing.assert_array_equal(out, x.sum(axis=1))
    ref = np.full(ROWS, -1, np.int32)
    run_kernel(parse(KERNEL), [x, ref], grid=(ROWS, 1, 1))
    np.testing.assert_array_equal(out, ref)


def test_the_store_is_guarded_by_thread_zero() -> None:
    ptx = compile_kernel(KERNEL, emit="ptx")
    stores = [ln.strip() for ln in ptx.splitlines() if "st.global" in ln]
    assert len(stores) == 1 and stores[0].startswith("@%p")
