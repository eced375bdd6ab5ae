"""A masked ``tt.load`` without ``other`` gives 0 in its masked-off elements, as
Triton's code does (its language leaves them undefined; real kernels sum them).

Found on an H100 (``benchmarks/gpu_corpus.py``): ltc's PTX left the destination
registers' old contents there, so a sum over a partly masked row read garbage on the
GPU while the PTX simulator, whose registers started at 0, agreed with the interpreter.
The simulator now starts registers and shared memory at a poison value
(``ptxsim.machine.REGISTER_POISON``), so these tests fail without the zero fill.
Each kernel sums ``x[i]`` for ``i < n`` over a padded row: one element per load, a
vectorized ``v4`` load, and 16-bit elements (two per 32-bit word).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from ltc.lowering.ptxsim.run import simulate_ptx
from ltc.passes.interpret import run_kernel
from ltc.tools.pipeline import compile_kernel
from tests.emit_fixtures import parse

COLS, N = 512, 304  # N: a multiple of the divisibility 16 the kernel declares for n


def _kernel(spt: int, elem: str, acc: str) -> str:
    ext = "" if elem == acc else f"    %w = arith.extf %x : tensor<{COLS}x{elem}, #blk> to tensor<{COLS}x{acc}, #blk>\n"
    val = "%x" if elem == acc else "%w"
    return f"""#blk = #ttg.blocked<{{sizePerThread = [{spt}], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @masked_sum(%x_ptr: !tt.ptr<{elem}> {{tt.divisibility = 16 : i32}}, %out_ptr: !tt.ptr<{acc}>, %n: i32 {{tt.divisibility = 16 : i32}}) {{
    %offs = tt.make_range {{end = {COLS} : i32, start = 0 : i32}} : tensor<{COLS}xi32, #blk>
    %nn = tt.splat %n : i32 -> tensor<{COLS}xi32, #blk>
    %m = arith.cmpi slt, %offs, %nn : tensor<{COLS}xi32, #blk>
    %base = tt.splat %x_ptr : !tt.ptr<{elem}> -> tensor<{COLS}x!tt.ptr<{elem}>, #blk>
    %ptrs = tt.addptr %base, %offs : tensor<{COLS}x!tt.ptr<{elem}>, #blk>, tensor<{COLS}xi32, #blk>
    %x = tt.load %ptrs, %m : tensor<{COLS}x!tt.ptr<{elem}>, #blk>
{ext}    %s = "tt.reduce"({val}) <{{axis = 0 : i32}}> ({{
    ^bb0(%a: {acc}, %b: {acc}):
      %t = arith.addf %a, %b : {acc}
      tt.reduce.return %t : {acc}
    }}) : (tensor<{COLS}x{acc}, #blk>) -> {acc}
    tt.store %out_ptr, %s : !tt.ptr<{acc}>
    tt.return
  }}
}}
"""


@pytest.mark.parametrize(("spt", "elem", "acc", "dtype"), [
    (1, "f32", "f32", np.float32),
    (4, "f32", "f32", np.float32),
    (8, "f16", "f32", np.float16),
])
def test_masked_off_elements_are_zero(spt: int, elem: str, acc: str, dtype: type) -> None:
    text = _kernel(spt, elem, acc)
    ptx = compile_kernel(text, emit="ptx")
    x = (np.arange(COLS) % 7 + 1).astype(dtype)  # exact sums in any order
    want = float(x[:N].astype(np.float64).sum())
    out = np.zeros(1, np.float32)
    simulate_ptx(ptx, (1, 1, 1), [x, out, N])
    assert out[0] == want
    interpreted = np.zeros(1, np.float32)
    run_kernel(parse(text), [x.copy(), interpreted, N])
    assert interpreted[0] == want


@pytest.mark.parametrize(("spt", "elem", "words"), [(1, "f32", 1), (4, "f32", 4), (8, "f16", 4)])
def test_each_destination_word_is_zeroed_before_the_guarded_load(spt: int, elem: str, words: int) -> None:
    lines = [line.strip() for line in compile_kernel(_kernel(spt, elem, "f32"), emit="ptx").splitlines()]
    loads = [i for i, line in enumerate(lines) if "ld.global" in line]
    assert loads
    for i in loads:
        dests = re.findall(r"%r\d+", lines[i].split("[")[0])
        assert lines[i].startswith("@") and len(dests) == words
        assert lines[i - words : i] == [f"mov.b32 {d}, 0;" for d in dests]
