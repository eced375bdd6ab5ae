"""Integer reductions over a whole warp are one ``redux.sync`` on sm_80 and newer, as in Triton.

Triton's NVIDIA lowering replaces the five butterfly rounds of a warp reduction by one
``redux.sync`` when the reduction has one operand, its combiner is a single integer op of
at most 32 bits on the two block arguments (``addi``, ``andi``, ``ori``, ``xori``, signed
and unsigned min/max), and all 32 lanes lie along the axis. Narrower integers are widened
first (sign-extended for the signed min/max, zero-extended otherwise) and truncated back.
Each kernel below reduces rows of random integers and is run by the PTX simulator against
numpy; the PTX holds exactly the expected ``redux.sync`` and no shuffle, or, where one of
the conditions fails, shuffles and no ``redux``.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from ltc.lowering.ptxsim.run import simulate_ptx
from ltc.tools.pipeline import compile_kernel
from tests.test_codegen_examples import ptxas_ok

ROWS, COLS, WARPS = 4, 128, 4
ALL_LANES = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>"
EIGHT_LANES = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"

NUMPY = {
    "arith.addi": np.add, "arith.andi": np.bitwise_and, "arith.ori": np.bitwise_or, "arith.xori": np.bitwise_xor,
    "arith.minsi": np.minimum, "arith.maxsi": np.maximum, "arith.minui": np.minimum, "arith.maxui": np.maximum,
}  # fmt: skip
SIGNED = {"i8": np.int8, "i16": np.int16, "i32": np.int32}
UNSIGNED = {"i8": np.uint8, "i16": np.uint16, "i32": np.uint32}


def _kernel(combiner: str, dtype: str, layout: str, swap: bool = False) -> str:
    t = f"tensor<{ROWS}x{COLS}x{dtype}, #src>"
    rl = "#ttg.slice<{dim = 1, parent = #src}>"
    args = "%b, %a" if swap else "%a, %b"
    return f"""#src = {layout}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {WARPS} : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @k(%x: !tt.ptr<{dtype}>, %y: !tt.ptr<{dtype}>) {{
    %i = tt.make_range {{end = {ROWS} : i32, start = 0 : i32}} : tensor<{ROWS}xi32, {rl}>
    %j = tt.make_range {{end = {COLS} : i32, start = 0 : i32}} : tensor<{COLS}xi32, #ttg.slice<{{dim = 0, parent = #src}}>>
    %i2 = tt.expand_dims %i {{axis = 1 : i32}} : tensor<{ROWS}xi32, {rl}> -> tensor<{ROWS}x1xi32, #src>
    %j2 = tt.expand_dims %j {{axis = 0 : i32}} : tensor<{COLS}xi32, #ttg.slice<{{dim = 0, parent = #src}}>> -> tensor<1x{COLS}xi32, #src>
    %w = arith.constant dense<{COLS}> : tensor<{ROWS}x1xi32, #src>
    %r = arith.muli %i2, %w : tensor<{ROWS}x1xi32, #src>
    %rb = tt.broadcast %r : tensor<{ROWS}x1xi32, #src> -> tensor<{ROWS}x{COLS}xi32, #src>
    %cb = tt.broadcast %j2 : tensor<1x{COLS}xi32, #src> -> tensor<{ROWS}x{COLS}xi32, #src>
    %off = arith.addi %rb, %cb : tensor<{ROWS}x{COLS}xi32, #src>
    %xs = tt.splat %x : !tt.ptr<{dtype}> -> tensor<{ROWS}x{COLS}x!tt.ptr<{dtype}>, #src>
    %xp = tt.addptr %xs, %off : tensor<{ROWS}x{COLS}x!tt.ptr<{dtype}>, #src>, tensor<{ROWS}x{COLS}xi32, #src>
    %v = tt.load %xp : tensor<{ROWS}x{COLS}x!tt.ptr<{dtype}>, #src>
    %s = "tt.reduce"(%v) <{{axis = 1 : i32}}> ({{
    ^bb0(%a: {dtype}, %b: {dtype}):
      %c = {combiner} {args} : {dtype}
      tt.reduce.return %c : {dtype}
    }}) : ({t}) -> tensor<{ROWS}x{dtype}, {rl}>
    %ys = tt.splat %y : !tt.ptr<{dtype}> -> tensor<{ROWS}x!tt.ptr<{dtype}>, {rl}>
    %yp = tt.addptr %ys, %i : tensor<{ROWS}x!tt.ptr<{dtype}>, {rl}>, tensor<{ROWS}xi32, {rl}>
    tt.store %yp, %s : tensor<{ROWS}x!tt.ptr<{dtype}>, {rl}>
    tt.return
  }}
}}
"""


def _run(combiner: str, dtype: str, layout: str, swap: bool = False) -> tuple[str, np.ndarray, np.ndarray]:
    ptx = compile_kernel(_kernel(combiner, dtype, layout, swap), emit="ptx", target="sm_80")
    ptxas_ok(ptx, "sm_80")
    np_t = UNSIGNED[dtype] if combiner.endswith("ui") else SIGNED[dtype]
    info = np.iinfo(np_t)
    x = np.random.default_rng(3).integers(info.min, info.max, (ROWS, COLS), endpoint=True).astype(np_t)
    y = np.zeros(ROWS, np_t)
    simulate_ptx(ptx, (1, 1, 1), [x.ravel(), y])
    want = NUMPY[combiner].reduce(x, axis=1).astype(np_t)  # wraps like the integer op
    return ptx, y, want


def _redux(ptx: str) -> list[str]:
    return re.findall(r"redux\.sync\.\w+\.\w+", ptx)


@pytest.mark.parametrize(("combiner", "redux"), [
    ("arith.addi", "redux.sync.add.s32"), ("arith.andi", "redux.sync.and.b32"), ("arith.ori", "redux.sync.or.b32"),
    ("arith.xori", "redux.sync.xor.b32"), ("arith.minsi", "redux.sync.min.s32"), ("arith.maxsi", "redux.sync.max.s32"),
    ("arith.minui", "redux.sync.min.u32"), ("arith.maxui", "redux.sync.max.u32"),
])  # fmt: skip
@pytest.mark.parametrize("dtype", ["i32", "i16", "i8"])
def test_a_whole_warp_integer_reduction_is_one_redux(combiner: str, redux: str, dtype: str) -> None:
    ptx, got, want = _run(combiner, dtype, ALL_LANES)
    assert _redux(ptx) == [redux]  # one row a warp: one redux a thread
    assert "shfl.sync" not in ptx
    np.testing.assert_array_equal(got, want)


def test_the_combiner_may_take_its_arguments_in_either_order() -> None:
    ptx, got, want = _run("arith.addi", "i32", ALL_LANES, swap=True)
    assert _redux(ptx) == ["redux.sync.add.s32"]
    np.testing.assert_array_equal(got, want)


def test_fewer_than_32_lanes_along_the_axis_keep_the_shuffles() -> None:
    # Triton too: its redux path is for reductions over all the lanes of a warp only
    ptx, got, want = _run("arith.addi", "i32", EIGHT_LANES)
    assert _redux(ptx) == []
    assert ptx.count("shfl.sync.bfly") == 3
    np.testing.assert_array_equal(got, want)
