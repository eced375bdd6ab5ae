"""Loops in the lowering and both emitters: an ``scf.while`` whose trip count is only
known at run time, carrying a scalar and a tensor, and an ``scf.for`` over i64 bounds,
run 0, 1 and several times in the PTX simulator with the interpreter's results; ptxas
accepts the PTX and llc the LLVM IR."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

from ltc import simulate_ptx
from ltc.passes.interpret import run_kernel
from ltc.tools.pipeline import compile_kernel, parse_module

_WHILE = """#B = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%x: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %o: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %n: i32) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #B>
    %xp = tt.splat %x : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #B>
    %xa = tt.addptr %xp, %r : tensor<128x!tt.ptr<i32>, #B>, tensor<128xi32, #B>
    %v = tt.load %xa : tensor<128x!tt.ptr<i32>, #B>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant dense<1> : tensor<128xi32, #B>
    %res:2 = scf.while (%i = %c0, %acc = %v) : (i32, tensor<128xi32, #B>) -> (i32, tensor<128xi32, #B>) {
      %go = arith.cmpi slt, %i, %n : i32
      scf.condition(%go) %i, %acc : i32, tensor<128xi32, #B>
    } do {
    ^bb0(%j: i32, %a: tensor<128xi32, #B>):
      %d = arith.muli %a, %a : tensor<128xi32, #B>
      %e = arith.addi %d, %one : tensor<128xi32, #B>
      %j1 = arith.addi %j, %c1 : i32
      scf.yield %j1, %e : i32, tensor<128xi32, #B>
    }
    %op = tt.splat %o : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #B>
    %oa = tt.addptr %op, %r : tensor<128x!tt.ptr<i32>, #B>, tensor<128xi32, #B>
    %s = tt.splat %res#0 : i32 -> tensor<128xi32, #B>
    %t = arith.addi %res#1, %s : tensor<128xi32, #B>
    tt.store %oa, %t : tensor<128x!tt.ptr<i32>, #B>
    tt.return
  }
}
"""


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not on PATH")
    return path


@pytest.mark.parametrize("n", [0, 1, 3])
def test_while_loop_runs_as_the_interpreter(n: int) -> None:
    ptx = compile_kernel(_WHILE, emit="ptx")
    x = np.arange(128, dtype=np.int32) % 7
    ours, theirs = np.zeros(128, np.int32), np.zeros(128, np.int32)
    simulate_ptx(ptx, (1, 1, 1), [x.copy(), ours, n])
    run_kernel(parse_module(_WHILE), [x.copy(), theirs, n])
    np.testing.assert_array_equal(ours, theirs)
    expect = x.astype(np.int64)
    for _ in range(n):
        expect = expect * expect + 1
    np.testing.assert_array_equal(ours, (expect + n).astype(np.int32))


_FOR_I64 = """#B = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%x: !tt.ptr<i64> {tt.divisibility = 16 : i32}, %o: !tt.ptr<i64> {tt.divisibility = 16 : i32}, %n: i64) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #B>
    %xp = tt.splat %x : !tt.ptr<i64> -> tensor<128x!tt.ptr<i64>, #B>
    %xa = tt.addptr %xp, %r : tensor<128x!tt.ptr<i64>, #B>, tensor<128xi32, #B>
    %v = tt.load %xa : tensor<128x!tt.ptr<i64>, #B>
    %c0 = arith.constant 0 : i64
    %c3 = arith.constant 3 : i64
    %acc = scf.for %i = %c0 to %n step %c3 iter_args(%a = %v) -> (tensor<128xi64, #B>) : i64 {
      %s = tt.splat %i : i64 -> tensor<128xi64, #B>
      %b = arith.addi %a, %s : tensor<128xi64, #B>
      scf.yield %b : tensor<128xi64, #B>
    }
    %op = tt.splat %o : !tt.ptr<i64> -> tensor<128x!tt.ptr<i64>, #B>
    %oa = tt.addptr %op, %r : tensor<128x!tt.ptr<i64>, #B>, tensor<128xi32, #B>
    tt.store %oa, %acc : tensor<128x!tt.ptr<i64>, #B>
    tt.return
  }
}
"""


@pytest.mark.parametrize("n", [0, 1, 10])
def test_for_loop_over_i64_bounds(n: int) -> None:
    """An scf.for with i64 bounds and step: a 64-bit induction variable, compare and
    increment, as the interpreter runs it."""
    ptx = compile_kernel(_FOR_I64, emit="ptx")
    assert "add.s64" in ptx and "setp.lt.s64" in ptx
    x = np.arange(128, dtype=np.int64) * 5
    ours, theirs = np.zeros(128, np.int64), np.zeros(128, np.int64)
    simulate_ptx(ptx, (1, 1, 1), [x.copy(), ours, n])
    run_kernel(parse_module(_FOR_I64), [x.copy(), theirs, n])
    np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(ours, x + sum(range(0, n, 3)))


@pytest.mark.parametrize("kernel", ["while", "for-i64"])
def test_loops_assemble_and_compile_with_llc(kernel: str) -> None:
    text = {"while": _WHILE, "for-i64": _FOR_I64}[kernel]
    with tempfile.TemporaryDirectory() as d:
        ptx = Path(d) / "k.ptx"
        ptx.write_text(compile_kernel(text, emit="ptx"))
        proc = subprocess.run([_tool("ptxas"), "-arch=sm_90", str(ptx), "-o", str(Path(d) / "k.cubin")],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        ll = Path(d) / "k.ll"
        ll.write_text(compile_kernel(text, emit="llvm"))
        proc = subprocess.run([_tool("llc"), "-march=nvptx64", "-mcpu=sm_80", str(ll), "-o", str(Path(d) / "k2.ptx")],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
