"""``tt.cat`` lowers as Triton lowers it: the operands' distinct registers, concatenated.

``tl.cat`` may reorder elements (``can_reorder=True``), so which element lands where is
the lowering's choice; ltc makes Triton's. For every thread ``t``, list the elements ``a``
holds in register order without repeats, then those of ``b``: that list fills the
result's registers, in register order without repeats. The model below computes it
from the three linear layouts alone (first occurrences; the lowering uses the free
variables of the register dim) and the PTX simulator checks every element. The value
interpreter keeps the plain concatenation, one of the orders ``can_reorder`` allows:
with the pointers concatenated the same way (the only use Triton's kernels make of it),
memory is the same either way, which the second test checks.
"""

from __future__ import annotations

import numpy as np
import pytest

from ltc.encodings import to_linear_layout
from ltc.lowering.ptxsim.run import simulate_ptx
from ltc.passes.interpret import run_kernel
from ltc.tools.pipeline import compile_kernel
from tests.emit_fixtures import parse
from tests.test_codegen_examples import ptxas_ok

WARPS = 4

# (operand shape, operand layout, result layout); dim 0 doubles
CASES = {
    "one element a thread, two in the result": (
        (128,), "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
        "#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"),
    "operands broadcast over warps": (
        (32,), "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
        "#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"),
    "2-D, runs along dim 1": (
        (16, 16), "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
        "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"),
}


def _ranges(shape: tuple[int, ...], enc: str, name: str, start: int) -> tuple[str, str]:
    """Lines computing ``%{name}`` = start + row-major index over ``shape`` in ``enc``."""
    t = "x".join(map(str, shape))
    if len(shape) == 1:
        return f"    %{name} = tt.make_range {{end = {start + shape[0]} : i32, start = {start} : i32}} : tensor<{t}xi32, {enc}>\n", t
    rows, cols = shape
    row_enc = f"#ttg.slice<{{dim = 1, parent = {enc}}}>"
    col_enc = f"#ttg.slice<{{dim = 0, parent = {enc}}}>"
    return (f"    %{name}_i = tt.make_range {{end = {rows} : i32, start = 0 : i32}} : tensor<{rows}xi32, {row_enc}>\n"
            f"    %{name}_j = tt.make_range {{end = {cols} : i32, start = 0 : i32}} : tensor<{cols}xi32, {col_enc}>\n"
            f"    %{name}_i2 = tt.expand_dims %{name}_i {{axis = 1 : i32}} : tensor<{rows}xi32, {row_enc}> -> tensor<{rows}x1xi32, {enc}>\n"
            f"    %{name}_j2 = tt.expand_dims %{name}_j {{axis = 0 : i32}} : tensor<{cols}xi32, {col_enc}> -> tensor<1x{cols}xi32, {enc}>\n"
            f"    %{name}_w = arith.constant dense<{cols}> : tensor<{rows}x1xi32, {enc}>\n"
            f"    %{name}_s = arith.constant dense<{start}> : tensor<{rows}x1xi32, {enc}>\n"
            f"    %{name}_ri = arith.muli %{name}_i2, %{name}_w : tensor<{rows}x1xi32, {enc}>\n"
            f"    %{name}_rs = arith.addi %{name}_ri, %{name}_s : tensor<{rows}x1xi32, {enc}>\n"
            f"    %{name}_ib = tt.broadcast %{name}_rs : tensor<{rows}x1xi32, {enc}> -> tensor<{rows}x{cols}xi32, {enc}>\n"
            f"    %{name}_jb = tt.broadcast %{name}_j2 : tensor<1x{cols}xi32, {enc}> -> tensor<{rows}x{cols}xi32, {enc}>\n"
            f"    %{name} = arith.addi %{name}_ib, %{name}_jb : tensor<{rows}x{cols}xi32, {enc}>\n"), t


def _kernel(shape: tuple[int, ...], src: str, dst: str, cat_pointers: bool) -> str:
    """out[index] = cat(index of a, n + index of b): stored through the result's own
    indices (``cat_pointers`` False: shows the order) or through pointers concatenated
    like the values (True: the use Triton's kernels make)."""
    n = int(np.prod(shape))
    out_shape = (2 * shape[0], *shape[1:])
    a_lines, t = _ranges(shape, "#src", "a", 0)
    b_lines, _ = _ranges(shape, "#src", "b", n)
    o_lines, to = _ranges(out_shape, "#dst", "o", 0)
    if cat_pointers:
        ptrs = (f"    %pa = tt.addptr %sa, %a : tensor<{t}x!tt.ptr<i32>, #src>, tensor<{t}xi32, #src>\n"
                f"    %pb = tt.addptr %sb, %b : tensor<{t}x!tt.ptr<i32>, #src>, tensor<{t}xi32, #src>\n"
                f"    %p = tt.cat %pa, %pb : tensor<{t}x!tt.ptr<i32>, #src> -> tensor<{to}x!tt.ptr<i32>, #dst>\n")
    else:
        ptrs = o_lines + f"    %p = tt.addptr %so, %o : tensor<{to}x!tt.ptr<i32>, #dst>, tensor<{to}xi32, #dst>\n"
    return f"""#src = {src}
#dst = {dst}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {WARPS} : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @cat(%out: !tt.ptr<i32>) {{
{a_lines}{b_lines}    %v = tt.cat %a, %b : tensor<{t}xi32, #src> -> tensor<{to}xi32, #dst>
    %sa = tt.splat %out : !tt.ptr<i32> -> tensor<{t}x!tt.ptr<i32>, #src>
    %sb = tt.splat %out : !tt.ptr<i32> -> tensor<{t}x!tt.ptr<i32>, #src>
    %so = tt.splat %out : !tt.ptr<i32> -> tensor<{to}x!tt.ptr<i32>, #dst>
{ptrs}    tt.store %p, %v : tensor<{to}x!tt.ptr<i32>, #dst>
    tt.return
  }}
}}
"""


def _row_major(coords: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    flat = np.zeros(coords.shape[0], np.int64)
    for k, size in enumerate(shape):
        flat = flat * size + coords[:, k]
    return flat


def _distinct_per_thread(shape: tuple[int, ...], enc: str) -> list[list[int]]:
    """For each thread (lane + 32 warp), its elements (row-major) in register order, first occurrences only."""
    ll = to_linear_layout(enc, shape)
    regs = ll.in_dim_size("register")
    table = _row_major(ll.apply_all(), shape)  # flat input: register bits lowest, then lane, warp
    out = []
    for t in range(32 * WARPS):
        seen: dict[int, None] = {}
        for r in range(regs):
            seen.setdefault(int(table[t * regs + r]), None)
        out.append(list(seen))
    return out


def expected_order(shape: tuple[int, ...], src: str, dst: str) -> np.ndarray:
    """out[e] for every result element e: the value Triton's lowering puts there."""
    n = int(np.prod(shape))
    out_shape = (2 * shape[0], *shape[1:])
    a = _distinct_per_thread(shape, src)
    r = _distinct_per_thread(out_shape, dst)
    out = np.full(2 * n, -1, np.int64)
    for t in range(32 * WARPS):
        values = a[t] + [n + e for e in a[t]]
        assert len(values) == len(r[t])
        for e, v in zip(r[t], values):
            assert out[e] in (-1, v)  # threads holding the same element agree
            out[e] = v
    return out


@pytest.mark.parametrize("case", list(CASES))
def test_cat_puts_each_element_where_tritons_lowering_does(case: str) -> None:
    shape, src, dst = CASES[case]
    ptx = compile_kernel(_kernel(shape, src, dst, cat_pointers=False), emit="ptx", target="sm_80")
    ptxas_ok(ptx, "sm_80")
    out = np.full(2 * int(np.prod(shape)), -1, np.int32)
    simulate_ptx(ptx, (1, 1, 1), [out])
    want = expected_order(shape, src, dst)
    assert out.tolist() == want.tolist()
    assert sorted(want.tolist()) == list(range(out.size))  # a permutation of the concatenation


@pytest.mark.parametrize("case", list(CASES))
def test_values_stored_through_pointers_cat_the_same_way_match_the_interpreter(case: str) -> None:
    shape, src, dst = CASES[case]
    text = _kernel(shape, src, dst, cat_pointers=True)
    ptx = compile_kernel(text, emit="ptx", target="sm_80")
    out = np.full(2 * int(np.prod(shape)), -1, np.int32)
    simulate_ptx(ptx, (1, 1, 1), [out])
    ref = np.full_like(out, -1)
    run_kernel(parse(text), [ref], grid=(1, 1, 1))
    assert out.tolist() == ref.tolist() == list(range(out.size))
