"""The Triton IR interpreter (ltc.passes.interpret).

Kernel tests: each example kernel's .ttir and Triton's own .ttgir run on the same seeded
inputs; both must match a numpy reference of the kernel (f16/f32 tolerances) and each
other exactly. Op tests: small hand-written functions with exactly known results.
"""

from __future__ import annotations

import pathlib
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

import ltc.tools.pipeline as P
from ltc.passes.interpret import InterpretError, run_function, run_kernel

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples" / "triton"

Args = list[object]


# ----------------------------------------------------------------------------------------
# The example kernels: inputs, outputs, numpy references
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class KernelCase:
    """One example kernel: ``make(rng)`` builds its arguments, ``outputs`` names the
    argument arrays it writes, ``expect(args)`` gives (actual, expected, atol, rtol) for
    each checked region, from the arguments after the run."""

    name: str
    grid: tuple[int, ...]
    make: Callable[[np.random.Generator], Args]
    outputs: tuple[int, ...]
    expect: Callable[[Args], list[tuple[np.ndarray, np.ndarray, float, float]]]


def _softmax_args(rng: np.random.Generator) -> Args:
    rows, in_stride, out_stride, n_cols = 3, 800, 790, 781
    x = rng.standard_normal((rows, in_stride)).astype(np.float32)
    out = np.full((rows, out_stride), -5.0, dtype=np.float32)
    return [out, x, in_stride, out_stride, n_cols]


def _softmax_expect(args: Args) -> list[tuple[np.ndarray, np.ndarray, float, float]]:
    out, x, _, _, n = args
    xs = x[:, :n].astype(np.float64)
    e = np.exp(xs - xs.max(axis=1, keepdims=True))
    return [
        (out[:, :n], e / e.sum(axis=1, keepdims=True), 1e-7, 1e-5),
        (out[:, n:], np.full(out[:, n:].shape, -5.0), 0.0, 0.0),  # masked-off columns untouched
    ]


def _layer_norm_args(rng: np.random.Generator) -> Args:
    rows, stride, n = 2, 1600, 1500
    x = rng.standard_normal((rows, stride)).astype(np.float16)
    y = np.full((rows, stride), 9.0, dtype=np.float16)
    w = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    return [x, y, w, b, stride, n, 1e-5]


def _layer_norm_expect(args: Args) -> list[tuple[np.ndarray, np.ndarray, float, float]]:
    x, y, w, b, _, n, eps = args
    xs = x[:, :n].astype(np.float64)
    mean = xs.mean(axis=1, keepdims=True)
    var = ((xs - mean) ** 2).mean(axis=1, keepdims=True)
    ref = (xs - mean) / np.sqrt(var + eps) * w + b
    return [(y[:, :n], ref, 4e-3, 2e-3), (y[:, n:], np.full(y[:, n:].shape, 9.0), 0.0, 0.0)]


def _matmul_args(rng: np.random.Generator) -> Args:
    m, n, k = 200, 120, 96  # grid (2, 1) of 128x128 tiles; K: one full and one masked BK=64 step
    a = np.zeros((256, k), dtype=np.float16)  # rows >= M are read (unmasked) but never stored
    a[:m] = rng.standard_normal((m, k))
    b = np.zeros((k, 128), dtype=np.float16)
    b[:, :n] = rng.standard_normal((k, n))
    c = np.full((m, n), 3.0, dtype=np.float16)
    return [a, b, c, m, n, k, k, 1, 128, 1, n, 1]


def _matmul_expect(args: Args) -> list[tuple[np.ndarray, np.ndarray, float, float]]:
    a, b, c, m, n = args[:5]
    return [(c, a[:m].astype(np.float64) @ b[:, :n].astype(np.float64), 2e-2, 2e-3)]


def _attention_args(rng: np.random.Generator) -> Args:
    n_ctx, d = 128, 64  # two BN=64 steps of the online softmax
    q = (0.5 * rng.standard_normal((128, d))).astype(np.float16)
    k = (0.5 * rng.standard_normal((n_ctx, d))).astype(np.float16)
    v = rng.standard_normal((n_ctx, d)).astype(np.float16)
    o = np.zeros((128, d), dtype=np.float16)
    return [q, k, v, o, d, n_ctx, 0.125]


def _attention_expect(args: Args) -> list[tuple[np.ndarray, np.ndarray, float, float]]:
    q, k, v, o, _, _, scale = args
    s = q.astype(np.float64) @ k.astype(np.float64).T * scale
    p = np.exp2(s - s.max(axis=1, keepdims=True))  # the kernel's softmax is base 2
    return [(o, p @ v.astype(np.float64) / p.sum(axis=1, keepdims=True), 5e-3, 5e-3)]


def _tma_args(rng: np.random.Generator) -> Args:
    m, n, k = 100, 120, 160  # blocks 128x64 / 64x128 / 128x128: zero fill in M, N and K
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n), 7.0, dtype=np.float16)
    return [a, b, c, k]  # descriptor shapes and strides are filled in from the arrays


def _tma_expect(args: Args) -> list[tuple[np.ndarray, np.ndarray, float, float]]:
    a, b, c, _ = args
    return [(c, a.astype(np.float64) @ b.astype(np.float64), 2e-2, 2e-3)]


def _scan_args(rng: np.random.Generator) -> Args:
    x = rng.uniform(0.0, 0.002, 256).astype(np.float32)  # positive: sqrt of the prefix sums
    idx = rng.integers(0, 256, 256).astype(np.int32)
    out = rng.standard_normal(256).astype(np.float32)
    return [x, idx, out]


def _scan_expect(args: Args) -> list[tuple[np.ndarray, np.ndarray, float, float]]:
    x, idx, out = args
    g = np.cumsum(x.astype(np.float64))[idx]
    t = np.clip(np.sqrt(g) + x / g, 0.0, 1.0)
    # the atomic add is overwritten by the store of trans(reshape(t, [64, 4])) flattened
    return [(out, t.reshape(64, 4).T.reshape(256), 1e-6, 1e-5)]


def _vector_add_args(rng: np.random.Generator) -> Args:
    n = 2000  # two programs of 1024, the second partly masked
    x = rng.standard_normal(2048).astype(np.float32)
    y = rng.standard_normal(2048).astype(np.float32)
    out = np.full(2048, 4.0, dtype=np.float32)
    return [x, y, out, n]


def _vector_add_expect(args: Args) -> list[tuple[np.ndarray, np.ndarray, float, float]]:
    x, y, out, n = args
    return [(out[:n], x[:n] + y[:n], 0.0, 0.0), (out[n:], np.full(2048 - n, 4.0), 0.0, 0.0)]


CASES = {
    c.name: c
    for c in (
        KernelCase("vector_add", (2,), _vector_add_args, (2,), _vector_add_expect),
        KernelCase("softmax", (3,), _softmax_args, (0,), _softmax_expect),
        KernelCase("layer_norm", (2,), _layer_norm_args, (1,), _layer_norm_expect),
        KernelCase("matmul", (2, 1), _matmul_args, (2,), _matmul_expect),
        KernelCase("attention_fwd", (1,), _attention_args, (3,), _attention_expect),
        KernelCase("tma_matmul", (1, 1), _tma_args, (2,), _tma_expect),
        KernelCase("scan_gather_misc", (1,), _scan_args, (2,), _scan_expect),
    )
}
"""The example kernels of examples/triton/gen_ir.py, with small grids and sizes."""


def example_module(name: str, stage: str):
    return P.parse_module((EXAMPLES / f"{name}.{stage}").read_text(), f"{name}.{stage}")


def run_case(case: KernelCase, module, seed: int = 0) -> Args:
    """Run ``case`` on ``module`` with inputs from ``seed``; the arguments after the run."""
    args = case.make(np.random.default_rng(seed))
    run_kernel(module, args, grid=case.grid)
    return args


@pytest.mark.parametrize("stage", ["ttir", "ttgir"])
@pytest.mark.parametrize("name", list(CASES))
def test_kernel_matches_reference(name: str, stage: str) -> None:
    case = CASES[name]
    args = run_case(case, example_module(name, stage))
    for actual, expected, atol, rtol in case.expect(args):
        np.testing.assert_allclose(actual.astype(np.float64), expected, atol=atol, rtol=rtol)


@pytest.mark.parametrize("name", list(CASES))
def test_ttir_and_ttgir_agree_bitwise(name: str) -> None:
    case = CASES[name]
    before = run_case(case, example_module(name, "ttir"), seed=1)
    after = run_case(case, example_module(name, "ttgir"), seed=1)
    for i in case.outputs:
        assert before[i].tobytes() == after[i].tobytes(), f"output argument {i} differs"


def test_stats_count_programs_ops_and_masked_lanes() -> None:
    case = CASES["vector_add"]
    args = case.make(np.random.default_rng(0))
    stats = run_kernel(example_module("vector_add", "ttir"), args, grid=(2,))
    assert stats.programs == 2
    assert stats.op_counts["tt.load"] == 4 and stats.op_counts["tt.store"] == 2
    assert stats.ops == sum(stats.op_counts.values())
    assert (stats.loaded, stats.stored, stats.masked_off) == (2 * 2000, 2000, 3 * 48)


def test_pipelined_matmul_with_tma_issues_every_prefetch() -> None:
    """tma_matmul.ttgir prefetches two K blocks before its loop and one per iteration
    while k < K - 128 (predicated copies): K = 160 gives 3 iterations, 2 + 1 real loads
    of A and B each, and 2 predicated-off copies."""
    case = CASES["tma_matmul"]
    args = case.make(np.random.default_rng(0))
    stats = run_kernel(example_module("tma_matmul", "ttgir"), args, grid=(1, 1))
    assert stats.op_counts["ttng.warp_group_dot"] == 3
    assert stats.op_counts["ttng.async_tma_copy_global_to_local"] == 2 * 2 + 2 * 3
    # A blocks 128x64 over a 100x160 array, B blocks 64x128 over 160x120: loaded = in bounds
    a_loaded = 100 * 64 + 100 * 64 + 100 * 32
    b_loaded = 64 * 120 + 64 * 120 + 32 * 120
    assert stats.loaded == a_loaded + b_loaded


# ----------------------------------------------------------------------------------------
# Single ops, exact values
# ----------------------------------------------------------------------------------------


def module(body: str):
    # Not verified: these cases use small shapes such as 2x3 that Triton's verifier
    # refuses (element counts must be powers of two); they check the interpreter's values.
    return P.parse_module(body, "<test>", verify=False)


def call(text: str, args: Args, func: str = "f", **kw) -> list[np.ndarray]:
    return run_function(module(text), args, func=func, **kw)


MASKED_COPY = """
tt.func @f(%src: !tt.ptr<i32>, %dst: !tt.ptr<i32>, %n: i32) {
  %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %ns = tt.splat %n : i32 -> tensor<8xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<8xi32>
  %ps = tt.splat %src : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
  %pp = tt.addptr %ps, %r : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
  %other = arith.constant dense<-7> : tensor<8xi32>
  %v = tt.load %pp, %m, %other : tensor<8x!tt.ptr<i32>>
  %ds = tt.splat %dst : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
  %dp = tt.addptr %ds, %r : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
  %two = arith.constant dense<2> : tensor<8xi32>
  %odd = arith.remsi %r, %two : tensor<8xi32>
  %one = arith.constant dense<1> : tensor<8xi32>
  %keep = arith.cmpi eq, %odd, %one : tensor<8xi32>
  tt.store %dp, %v, %keep : tensor<8x!tt.ptr<i32>>
  tt.return
} loc("copy.py":1:1)
"""


def test_masked_load_gives_other_and_masked_store_skips_lanes() -> None:
    src = np.array([10, 11, 12, 13, 14], dtype=np.int32)  # 5 elements: lanes 5..7 masked off
    dst = np.zeros(8, dtype=np.int32)
    stats = run_kernel(module(MASKED_COPY), [src, dst, 5])
    assert dst.tolist() == [0, 11, 0, 13, 0, -7, 0, -7]
    assert (stats.loaded, stats.stored, stats.masked_off) == (5, 4, 3 + 4)


def test_load_without_other_gives_zero_on_masked_lanes() -> None:
    text = MASKED_COPY.replace(", %m, %other : tensor", ", %m : tensor")
    src = np.array([10, 11, 12], dtype=np.int32)
    dst = np.full(8, 5, dtype=np.int32)
    run_kernel(module(text), [src, dst, 3])
    assert dst.tolist() == [5, 11, 5, 0, 5, 0, 5, 0]


def test_out_of_bounds_unmasked_load_is_an_error_naming_lane_and_location() -> None:
    text = MASKED_COPY.replace(", %m, %other : tensor", " : tensor")
    with pytest.raises(InterpretError) as err:
        run_kernel(module(text), [np.arange(5, dtype=np.int32), np.zeros(8, dtype=np.int32), 5])
    msg = str(err.value)
    assert "tt.load" in msg and "out-of-bounds load" in msg and "(lane (5,))" in msg
    assert "byte offset 20 of argument 0 (int32[5], 20 bytes)" in msg


def test_store_outside_every_buffer_is_an_error() -> None:
    text = """
tt.func @f(%p: !tt.ptr<f32>) {
  %c = arith.constant 1.0 : f32
  %off = arith.constant -1 : i32
  %q = tt.addptr %p, %off : !tt.ptr<f32>, i32
  tt.store %q, %c : !tt.ptr<f32>
  tt.return
}
"""
    with pytest.raises(InterpretError, match=r"out-of-bounds store at address 0xfffffffc .*not inside any"):
        run_kernel(module(text), [np.zeros(4, dtype=np.float32)])


def test_unknown_op_names_op_and_location() -> None:
    text = """
tt.func @f(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<4xi32> -> tensor<4xi32> loc("asm.py":7:3)
  tt.return %0 : tensor<4xi32>
}
"""
    with pytest.raises(InterpretError, match=r"unsupported op 'tt.elementwise_inline_asm' at loc\(\"asm.py\":7:3\)"):
        call(text, [np.arange(4, dtype=np.int32)])


def test_pointer_array_of_wrong_element_size_is_rejected() -> None:
    with pytest.raises(InterpretError, match="float64 .8 bytes. for a pointer to i32"):
        run_kernel(module(MASKED_COPY), [np.zeros(8), np.zeros(8, dtype=np.int32), 8])


ATOMICS = """
tt.func @f(%p: !tt.ptr<i32>, %v: tensor<4xi32>) -> tensor<4xi32> {
  %z = arith.constant dense<0> : tensor<4xi32>
  %ps = tt.splat %p : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
  %pp = tt.addptr %ps, %z : tensor<4x!tt.ptr<i32>>, tensor<4xi32>
  %old = tt.atomic_rmw KIND, acq_rel, gpu, %pp, %v : (tensor<4x!tt.ptr<i32>>, tensor<4xi32>) -> tensor<4xi32>
  tt.return %old : tensor<4xi32>
}
"""


@pytest.mark.parametrize(
    ("kind", "start", "old", "final"),
    [
        ("add", 100, [100, 103, 98, 106], 107),
        ("max", 4, [4, 4, 4, 8], 8),
        ("min", 4, [4, 3, -5, -5], -5),
        ("umax", 4, [4, 4, -5, -5], -5),  # -5 is the largest unsigned value
        ("umin", -1, [-1, 3, 3, 3], 1),
        ("and", 15, [15, 3, 3, 0], 0),
        ("or", 0, [0, 3, -5, -5], -5),
        ("xor", 6, [6, 5, -2, -10], -9),
        ("exch", 42, [42, 3, -5, 8], 1),
    ],
)
def test_atomic_rmw_applies_lanes_in_order_and_returns_old_values(kind: str, start: int, old: list[int], final: int) -> None:
    """All four lanes (values 3, -5, 8, 1) hit one address: each sees the previous lane's result."""
    mem = np.array([start], dtype=np.int32)
    (got,) = call(ATOMICS.replace("KIND", kind), [mem, np.array([3, -5, 8, 1], dtype=np.int32)])
    assert got.tolist() == old
    assert mem[0] == final


def test_atomic_fadd_masked_lanes_do_nothing() -> None:
    text = """
tt.func @f(%p: !tt.ptr<f32>, %v: tensor<4xf32>, %m: tensor<4xi1>) -> tensor<4xf32> {
  %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %two = arith.constant dense<2> : tensor<4xi32>
  %i = arith.remsi %r, %two : tensor<4xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  %pp = tt.addptr %ps, %i : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
  %old = tt.atomic_rmw fadd, acq_rel, gpu, %pp, %v, %m : (tensor<4x!tt.ptr<f32>>, tensor<4xf32>, tensor<4xi1>) -> tensor<4xf32>
  tt.return %old : tensor<4xf32>
}
"""
    mem = np.array([1.0, 10.0], dtype=np.float32)
    (old,) = call(text, [mem, np.array([0.5, 0.25, 2.0, 4.0], dtype=np.float32), np.array([1, 1, 0, 1], dtype=bool)])
    assert old.tolist() == [1.0, 10.0, 0.0, 10.25]
    assert mem.tolist() == [1.5, 14.25]


def test_atomic_cas_swaps_only_on_match() -> None:
    text = """
tt.func @f(%p: !tt.ptr<i32>, %cmp: tensor<3xi32>, %val: tensor<3xi32>) -> tensor<3xi32> {
  %z = arith.constant dense<0> : tensor<3xi32>
  %ps = tt.splat %p : !tt.ptr<i32> -> tensor<3x!tt.ptr<i32>>
  %pp = tt.addptr %ps, %z : tensor<3x!tt.ptr<i32>>, tensor<3xi32>
  %old = tt.atomic_cas acq_rel, gpu, %pp, %cmp, %val : (tensor<3x!tt.ptr<i32>>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  tt.return %old : tensor<3xi32>
}
"""
    mem = np.array([5], dtype=np.int32)
    (old,) = call(text, [mem, np.array([5, 5, 6], dtype=np.int32), np.array([6, 7, 9], dtype=np.int32)])
    assert old.tolist() == [5, 6, 6]  # lane 0 swaps 5 -> 6; lane 1 expects 5, sees 6; lane 2 swaps
    assert mem[0] == 9


REDUCE = """
tt.func @f(%x: tensor<4x6xi32>) -> tensor<4xi32> {
  %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    BODY
  }) : (tensor<4x6xi32>) -> tensor<4xi32>
  tt.return %r : tensor<4xi32>
}
"""


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("%s = arith.addi %a, %b : i32\n    tt.reduce.return %s : i32", lambda x: x.sum(axis=1)),
        ("%s = arith.maxsi %a, %b : i32\n    tt.reduce.return %s : i32", lambda x: x.max(axis=1)),
        ("tt.reduce.return %a : i32", lambda x: x[:, 0]),  # associative, not commutative:
        ("tt.reduce.return %b : i32", lambda x: x[:, -1]),  # the left operand is the lower index
    ],
)
def test_reduce_evaluates_the_combine_region(body: str, expected: Callable[[np.ndarray], np.ndarray]) -> None:
    x = np.random.default_rng(3).integers(-50, 50, (4, 6)).astype(np.int32)
    (got,) = call(REDUCE.replace("BODY", body), [x])
    assert got.tolist() == expected(x).tolist()


def test_reduce_with_two_operands_argmax_and_scalar_result() -> None:
    text = """
tt.func @f(%x: tensor<8xf32>, %i: tensor<8xi32>) -> (f32, i32) {
  %r:2 = "tt.reduce"(%x, %i) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %b, %a : f32
    %v = arith.select %gt, %b, %a : f32
    %j = arith.select %gt, %bi, %ai : i32
    tt.reduce.return %v, %j : f32, i32
  }) : (tensor<8xf32>, tensor<8xi32>) -> (f32, i32)
  tt.return %r#0, %r#1 : f32, i32
}
"""
    x = np.array([1, 7, 3, 7, -2, 0, 5, 7], dtype=np.float32)
    v, j = call(text, [x, np.arange(8, dtype=np.int32)])
    assert v.shape == () and (float(v), int(j)) == (7.0, 1)  # the first of the tied maxima


SCAN = """
tt.func @f(%x: tensor<2x5xi32>) -> tensor<2x5xi32> {
  %r = "tt.scan"(%x) <{axis = AXIS : i32, reverse = REV}> ({
  ^bb0(%a: i32, %b: i32):
    BODY
  }) : (tensor<2x5xi32>) -> tensor<2x5xi32>
  tt.return %r : tensor<2x5xi32>
}
"""


@pytest.mark.parametrize(
    ("axis", "reverse", "body", "expected"),
    [
        (1, "false", "%s = arith.addi %a, %b : i32\n    tt.scan.return %s : i32", [[1, 3, 6, 10, 15], [10, 30, 60, 100, 150]]),
        (1, "true", "%s = arith.addi %a, %b : i32\n    tt.scan.return %s : i32", [[15, 14, 12, 9, 5], [150, 140, 120, 90, 50]]),
        (0, "false", "%s = arith.subi %a, %b : i32\n    tt.scan.return %s : i32", [[1, 2, 3, 4, 5], [-9, -18, -27, -36, -45]]),
        (1, "false", "tt.scan.return %a : i32", [[1, 1, 1, 1, 1], [10, 10, 10, 10, 10]]),
    ],
)
def test_scan_is_a_running_fold(axis: int, reverse: str, body: str, expected: list[list[int]]) -> None:
    x = np.array([[1, 2, 3, 4, 5], [10, 20, 30, 40, 50]], dtype=np.int32)
    text = SCAN.replace("AXIS", str(axis)).replace("REV", reverse).replace("BODY", body)
    (got,) = call(text, [x])
    assert got.tolist() == expected


def test_gather_along_an_axis_and_its_bounds() -> None:
    text = """
tt.func @f(%x: tensor<2x4xf32>, %i: tensor<2x3xi32>) -> tensor<2x3xf32> {
  %g = tt.gather %x[%i] {axis = 1 : i32} : (tensor<2x4xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  tt.return %g : tensor<2x3xf32>
}
"""
    x = np.array([[0, 1, 2, 3], [10, 11, 12, 13]], dtype=np.float32)
    (got,) = call(text, [x, np.array([[3, 0, 0], [1, 2, 3]], dtype=np.int32)])
    assert got.tolist() == [[3, 0, 0], [11, 12, 13]]
    with pytest.raises(InterpretError, match=r"gather index 4 out of range \[0, 4\) at \(1, 0\)"):
        call(text, [x, np.array([[3, 0, 0], [4, 2, 3]], dtype=np.int32)])


def test_join_reshape_split_trans_follow_triton_order() -> None:
    text = """
tt.func @f(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4x2xi32>, tensor<8xi32>, tensor<4xi32>, tensor<4xi32>, tensor<2x4xi32>, tensor<8xi32>) {
  %j = tt.join %a, %b : tensor<4xi32> -> tensor<4x2xi32>
  %flat = tt.reshape %j : tensor<4x2xi32> -> tensor<8xi32>
  %r = tt.reshape %flat : tensor<8xi32> -> tensor<4x2xi32>
  %lo, %hi = tt.split %r : tensor<4x2xi32> -> tensor<4xi32>
  %t = tt.trans %r {order = array<i32: 1, 0>} : tensor<4x2xi32> -> tensor<2x4xi32>
  %c = tt.cat %a, %b : tensor<4xi32> -> tensor<8xi32>
  tt.return %j, %flat, %lo, %hi, %t, %c : tensor<4x2xi32>, tensor<8xi32>, tensor<4xi32>, tensor<4xi32>, tensor<2x4xi32>, tensor<8xi32>
}
"""
    a = np.array([0, 1, 2, 3], dtype=np.int32)
    b = np.array([10, 11, 12, 13], dtype=np.int32)
    j, flat, lo, hi, t, c = call(text, [a, b])
    assert j.tolist() == [[0, 10], [1, 11], [2, 12], [3, 13]]  # join adds a minor dim of size 2
    assert flat.tolist() == [0, 10, 1, 11, 2, 12, 3, 13]  # reshape is row-major
    assert (lo.tolist(), hi.tolist()) == (a.tolist(), b.tolist())  # split undoes join
    assert t.tolist() == [[0, 1, 2, 3], [10, 11, 12, 13]]
    assert c.tolist() == [0, 1, 2, 3, 10, 11, 12, 13]


def test_expand_dims_broadcast_and_3d_trans() -> None:
    text = """
tt.func @f(%a: tensor<2xi32>) -> (tensor<2x3xi32>, tensor<3x2x2xi32>) {
  %e = tt.expand_dims %a {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
  %b = tt.broadcast %e : tensor<2x1xi32> -> tensor<2x3xi32>
  %r = tt.make_range {end = 12 : i32, start = 0 : i32} : tensor<12xi32>
  %x = tt.reshape %r : tensor<12xi32> -> tensor<2x2x3xi32>
  %t = tt.trans %x {order = array<i32: 2, 0, 1>} : tensor<2x2x3xi32> -> tensor<3x2x2xi32>
  tt.return %b, %t : tensor<2x3xi32>, tensor<3x2x2xi32>
}
"""
    b, t = call(text, [np.array([4, 9], dtype=np.int32)])
    assert b.tolist() == [[4, 4, 4], [9, 9, 9]]
    x = np.arange(12).reshape(2, 2, 3)
    assert t.shape == (3, 2, 2)
    assert all(t[k, i, j] == x[i, j, k] for i in range(2) for j in range(2) for k in range(3))


def test_dot_accumulates_and_int8_dot_is_exact() -> None:
    text = """
tt.func @f(%a: tensor<2x3xf16>, %b: tensor<3x2xf16>, %c: tensor<2x2xf32>, %p: tensor<2x2xi8>, %q: tensor<2x2xi8>, %r: tensor<2x2xi32>) -> (tensor<2x2xf32>, tensor<2x2xi32>) {
  %d = tt.dot %a, %b, %c : tensor<2x3xf16> * tensor<3x2xf16> -> tensor<2x2xf32>
  %e = tt.dot %p, %q, %r : tensor<2x2xi8> * tensor<2x2xi8> -> tensor<2x2xi32>
  tt.return %d, %e : tensor<2x2xf32>, tensor<2x2xi32>
}
"""
    a = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float16)
    b = np.array([[1, 0], [0.5, 1], [2, -1]], dtype=np.float16)
    c = np.array([[100, 0], [0, -1]], dtype=np.float32)
    p = np.array([[-128, 127], [3, 4]], dtype=np.int8)
    r = np.array([[1, 0], [0, 0]], dtype=np.int32)
    d, e = call(text, [a, b, c, p, p, r])
    assert d.tolist() == [[108.0, -1.0], [18.5, -2.0]]
    assert e.tolist() == [[-128 * -128 + 127 * 3 + 1, -128 * 127 + 127 * 4], [3 * -128 + 4 * 3, 3 * 127 + 16]]


def test_dot_tf32_drops_the_low_13_bits_of_f32_operands() -> None:
    text = """
tt.func @f(%a: tensor<1x1xf32>, %b: tensor<1x1xf32>, %c: tensor<1x1xf32>) -> (tensor<1x1xf32>, tensor<1x1xf32>) {
  %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<1x1xf32> * tensor<1x1xf32> -> tensor<1x1xf32>
  %e = tt.dot %a, %b, %c : tensor<1x1xf32> * tensor<1x1xf32> -> tensor<1x1xf32>
  tt.return %d, %e : tensor<1x1xf32>, tensor<1x1xf32>
}
"""
    # below tf32's 10 mantissa bits: dropped as the tensor core does (Triton's PTX passes
    # f32 bits unrounded), so 1 + 3/4096 is 1, not rounded up to 1 + 1/1024
    for v in (1 + 2.0**-12, 1 + 3 * 2.0**-12):
        x = np.full((1, 1), v, dtype=np.float32)
        d, e = call(text, [x, np.ones((1, 1), np.float32), np.zeros((1, 1), np.float32)])
        assert float(d[0, 0]) == 1.0 and float(e[0, 0]) == v


def test_integer_arith_wraps_and_divides_toward_zero() -> None:
    text = """
tt.func @f(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi32>, tensor<4xi32>, tensor<4xi8>) {
  %q = arith.divsi %a, %b : tensor<4xi32>
  %r = arith.remsi %a, %b : tensor<4xi32>
  %u = arith.divui %a, %b : tensor<4xi32>
  %fd = arith.floordivsi %a, %b : tensor<4xi32>
  %lt = arith.cmpi ult, %a, %b : tensor<4xi32>
  %big = arith.constant dense<2147483647> : tensor<4xi32>
  %w = arith.addi %big, %b : tensor<4xi32>
  %s = arith.shrsi %a, %b : tensor<4xi32>
  %t = arith.trunci %a : tensor<4xi32> to tensor<4xi8>
  tt.return %q, %r, %u, %fd, %lt, %w, %s, %t : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi32>, tensor<4xi32>, tensor<4xi8>
}
"""
    a = np.array([-7, 7, -7, 300], dtype=np.int32)
    b = np.array([2, -2, -2, 3], dtype=np.int32)
    q, r, u, fd, lt, w, s, t = call(text, [a, b])
    assert q.tolist() == [-3, -3, 3, 100]
    assert r.tolist() == [-1, 1, -1, 0]
    assert u.tolist() == [(2**32 - 7) // 2, 0, 0, 100]
    assert fd.tolist() == [-4, -4, 3, 100]
    assert lt.tolist() == [False, True, True, False]  # unsigned: 2^32-7 < 2^32-2
    assert w.tolist() == [-(2**31) + 1, 2**31 - 3, 2**31 - 3, -(2**31) + 2]
    assert s.tolist() == [-2, 0, -1, 37]  # shift by >= 32 (-2 as unsigned): sign fill
    assert t.tolist() == [-7, 7, -7, 44]


def test_casts_bitcast_and_i1_arithmetic() -> None:
    text = """
tt.func @f(%x: tensor<4xf32>, %c: tensor<4xi1>, %n: tensor<4xi8>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>) {
  %i = arith.fptosi %x : tensor<4xf32> to tensor<4xi32>
  %bits = tt.bitcast %x : tensor<4xf32> -> tensor<4xi32>
  %s = arith.addi %c, %c : tensor<4xi1>
  %e = arith.extsi %n : tensor<4xi8> to tensor<4xi32>
  %z = arith.extui %n : tensor<4xi8> to tensor<4xi32>
  %f = arith.uitofp %n : tensor<4xi8> to tensor<4xf32>
  tt.return %i, %bits, %s, %e, %z, %f : tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>
}
"""
    x = np.array([1.0, -2.7, 2.7, -0.5], dtype=np.float32)
    c = np.array([True, False, True, False])
    n = np.array([-1, 127, -128, 5], dtype=np.int8)
    i, bits, s, e, z, f = call(text, [x, c, n])
    assert i.tolist() == [1, -2, 2, 0]
    assert bits[0] == 0x3F800000 and bits.tolist() == x.view(np.int32).tolist()
    assert s.tolist() == [False, False, False, False]  # i1 addition is xor
    assert e.tolist() == [-1, 127, -128, 5] and z.tolist() == [255, 127, 128, 5]
    assert f.tolist() == [255.0, 127.0, 128.0, 5.0]


def test_float_compare_predicates_and_nan() -> None:
    text = """
tt.func @f(%a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) {
  %olt = arith.cmpf olt, %a, %b : tensor<3xf32>
  %ult = arith.cmpf ult, %a, %b : tensor<3xf32>
  %une = arith.cmpf une, %a, %b : tensor<3xf32>
  %mx = arith.maxnumf %a, %b : tensor<3xf32>
  %mm = arith.maximumf %a, %b : tensor<3xf32>
  tt.return %olt, %ult, %une, %mx, %mm : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
}
"""
    a = np.array([1.0, np.nan, 2.0], dtype=np.float32)
    b = np.array([2.0, 1.0, 2.0], dtype=np.float32)
    olt, ult, une, mx, mm = call(text, [a, b])
    assert olt.tolist() == [True, False, False]
    assert ult.tolist() == [True, True, False]
    assert une.tolist() == [True, True, False]
    assert mx.tolist() == [2.0, 1.0, 2.0]
    assert np.isnan(mm[1]) and mm[0] == 2.0


def test_bf16_and_fp8_round_and_store_their_bits() -> None:
    text = """
tt.func @f(%x: tensor<4xf32>, %p: !tt.ptr<bf16>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %b = arith.truncf %x : tensor<4xf32> to tensor<4xbf16>
  %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %ps = tt.splat %p : !tt.ptr<bf16> -> tensor<4x!tt.ptr<bf16>>
  %pp = tt.addptr %ps, %r : tensor<4x!tt.ptr<bf16>>, tensor<4xi32>
  tt.store %pp, %b : tensor<4x!tt.ptr<bf16>>
  %back = arith.extf %b : tensor<4xbf16> to tensor<4xf32>
  %e = tt.fp_to_fp %x, rounding = rtne : tensor<4xf32> -> tensor<4xf8E4M3FN>
  %eb = tt.fp_to_fp %e : tensor<4xf8E4M3FN> -> tensor<4xf32>
  %h = tt.fp_to_fp %x, rounding = rtz : tensor<4xf32> -> tensor<4xf16>
  %hb = arith.extf %h : tensor<4xf16> to tensor<4xf32>
  tt.return %back, %eb, %hb : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
"""
    x = np.array([1.0 + 2.0**-8, 1.0 + 3 * 2.0**-8, 3.3, -1000.0], dtype=np.float32)
    mem = np.zeros(4, dtype=np.uint16)
    back, e8, h = call(text, [x, mem])
    assert back.tolist() == [1.0, 1.0 + 2.0**-6, 3.296875, -1000.0]  # ties to even on 7 bits
    assert mem.tolist() == [0x3F80, 0x3F82, 0x4053, 0xC47A]
    assert e8.tolist()[:3] == [1.0, 1.0, 3.25] and np.isnan(e8[3])  # e4m3fn has no inf
    assert h.tolist() == [1.00390625, 1.01171875, 3.298828125, -1000.0]  # 3.3: toward zero


def test_scf_for_while_if_and_call() -> None:
    text = """
tt.func @g(%x: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %y = arith.muli %x, %c3 : i32
  tt.return %y : i32
}
tt.func @f(%n: i32) -> (i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %s = scf.for %i = %c0 to %n step %c2 iter_args(%acc = %c0) -> (i32)  : i32 {
    %t = arith.addi %acc, %i : i32
    scf.yield %t : i32
  }
  %w:2 = scf.while (%a = %c1, %k = %c0) : (i32, i32) -> (i32, i32) {
    %lt = arith.cmpi slt, %a, %n : i32
    scf.condition(%lt) %a, %k : i32, i32
  } do {
  ^bb0(%a2: i32, %k2: i32):
    %d = arith.muli %a2, %c2 : i32
    %k3 = arith.addi %k2, %c1 : i32
    scf.yield %d, %k3 : i32, i32
  }
  %odd = arith.remsi %n, %c2 : i32
  %isodd = arith.cmpi eq, %odd, %c1 : i32
  %r = scf.if %isodd -> (i32) {
    %g = tt.call @g(%n) : (i32) -> i32
    scf.yield %g : i32
  } else {
    scf.yield %c0 : i32
  }
  tt.return %s, %w#1, %r : i32, i32, i32
}
"""
    s, k, r = call(text, [9])
    assert (int(s), int(k), int(r)) == (0 + 2 + 4 + 6 + 8, 4, 27)  # 1 -> 2 -> 4 -> 8 -> 16: 4 steps
    s, k, r = call(text, [4])
    assert (int(s), int(k), int(r)) == (2, 2, 0)


def test_program_ids_and_grid() -> None:
    text = """
tt.func @f(%p: !tt.ptr<i32>) {
  %x = tt.get_program_id x : i32
  %y = tt.get_program_id y : i32
  %nx = tt.get_num_programs x : i32
  %row = arith.muli %y, %nx : i32
  %i = arith.addi %row, %x : i32
  %q = tt.addptr %p, %i : !tt.ptr<i32>, i32
  %c10 = arith.constant 10 : i32
  %v = arith.muli %y, %c10 : i32
  %v2 = arith.addi %v, %x : i32
  tt.store %q, %v2 : !tt.ptr<i32>
  tt.return
}
"""
    out = np.full(6, -1, dtype=np.int32)
    stats = run_kernel(module(text), [out], grid=(3, 2))
    assert out.tolist() == [0, 1, 2, 10, 11, 12] and stats.programs == 6


def test_descriptor_load_zero_fills_and_store_drops_out_of_bounds() -> None:
    text = """
tt.func @f(%d: !tt.tensordesc<2x4xf32>, %s0: i32, %s1: i32, %t0: i64, %t1: i64, %i: i32, %j: i32, %o: !tt.tensordesc<2x4xf32>, %o0: i32, %o1: i32, %u0: i64, %u1: i64) -> tensor<2x4xf32> {
  %b = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<2x4xf32> -> tensor<2x4xf32>
  tt.descriptor_store %o[%i, %j], %b : !tt.tensordesc<2x4xf32>, tensor<2x4xf32>
  tt.return %b : tensor<2x4xf32>
}
"""
    src = np.arange(15, dtype=np.float32).reshape(3, 5)
    dst = np.full((3, 5), -1.0, dtype=np.float32)
    (block,) = call(text, [src, 2, 3, dst])  # descriptor shapes / strides filled in
    assert block.tolist() == [[13, 14, 0, 0], [0, 0, 0, 0]]
    expected = np.full((3, 5), -1.0)
    expected[2, 3:] = [13, 14]
    assert dst.tolist() == expected.tolist()


def test_histogram_clampf_and_extern_elementwise() -> None:
    text = """
tt.func @f(%x: tensor<8xi32>, %y: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %h = tt.histogram %x : tensor<8xi32> -> tensor<4xi32>
  %lo = arith.constant dense<0.0> : tensor<4xf32>
  %hi = arith.constant dense<1.0> : tensor<4xf32>
  %c = tt.clampf %y, %lo, %hi, propagateNan = none : tensor<4xf32>
  %n = tt.clampf %y, %lo, %hi, propagateNan = all : tensor<4xf32>
  %e = tt.extern_elementwise %y {libname = "", libpath = "", pure = true, symbol = "__nv_fabsf"} : (tensor<4xf32>) -> tensor<4xf32>
  tt.return %h, %c, %n, %e : tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
"""
    x = np.array([0, 3, 3, 1, 3, 9, -1, 0], dtype=np.int32)
    y = np.array([-2.0, 0.5, 7.0, np.nan], dtype=np.float32)
    h, c, n, e = call(text, [x, y])
    assert h.tolist() == [2, 1, 0, 3]
    assert c.tolist() == [0.0, 0.5, 1.0, 0.0]  # minnum(maxnum(NaN, lo), hi) = lo
    assert n.tolist()[:3] == [0.0, 0.5, 1.0] and np.isnan(n[3])
    assert e.tolist()[:3] == [2.0, 0.5, 7.0]


def test_assert_failure_reports_the_lane() -> None:
    text = """
tt.func @f(%x: tensor<4xi32>) {
  %z = arith.constant dense<0> : tensor<4xi32>
  %ok = arith.cmpi sge, %x, %z : tensor<4xi32>
  tt.assert %ok, "negative" : tensor<4xi1>
  tt.return
}
"""
    call(text, [np.array([0, 1, 2, 3], dtype=np.int32)])
    with pytest.raises(InterpretError, match=r"assertion failed in program \(0, 0, 0\) at lane \(2,\): negative"):
        call(text, [np.array([0, 1, -2, 3], dtype=np.int32)])


def test_shared_memory_ops_and_async_copy() -> None:
    text = """
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%p: !tt.ptr<f32>) -> (tensor<4xf32, #blocked>, tensor<4xf32, #blocked>) {
    %c1 = arith.constant 1 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x4xf32, #shared, #smem, mutable>
    %slot = ttg.memdesc_index %buf[%c1] : !ttg.memdesc<2x4xf32, #shared, #smem, mutable> -> !ttg.memdesc<4xf32, #shared, #smem, mutable>
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<4x!tt.ptr<f32>, #blocked>, tensor<4xi32, #blocked>
    %tok = ttg.async_copy_global_to_local %pp, %slot : tensor<4x!tt.ptr<f32>, #blocked> -> <4xf32, #shared, #smem, mutable>
    %tok2 = ttg.async_commit_group tokens %tok
    %tok3 = ttg.async_wait %tok2 {num = 0 : i32}
    %v = ttg.local_load %slot : !ttg.memdesc<4xf32, #shared, #smem, mutable> -> tensor<4xf32, #blocked>
    %two = arith.constant dense<2.0> : tensor<4xf32, #blocked>
    %w = arith.mulf %v, %two : tensor<4xf32, #blocked>
    ttg.local_store %w, %slot : tensor<4xf32, #blocked> -> !ttg.memdesc<4xf32, #shared, #smem, mutable>
    %v2 = ttg.local_load %slot : !ttg.memdesc<4xf32, #shared, #smem, mutable> -> tensor<4xf32, #blocked>
    tt.return %v, %v2 : tensor<4xf32, #blocked>, tensor<4xf32, #blocked>
  }
}
"""
    v, v2 = call(text, [np.array([1, 2, 3, 4], dtype=np.float32)])
    assert v.tolist() == [1, 2, 3, 4] and v2.tolist() == [2, 4, 6, 8]


def test_kernel_selection() -> None:
    text = """
tt.func public @a(%p: !tt.ptr<i32>) {
  tt.return
}
tt.func public @b(%p: !tt.ptr<i32>) {
  tt.return
}
"""
    with pytest.raises(InterpretError, match=r"expected exactly one public tt.func, found 2 \(a, b\)"):
        run_kernel(module(text), [np.zeros(1, dtype=np.int32)])
    assert run_kernel(module(text), [np.zeros(1, dtype=np.int32)], func="b").ops == 1


def test_math_functions() -> None:
    text = """
tt.func @f(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %exp = math.exp %x : tensor<3xf32>
  %exp2 = math.exp2 %x : tensor<3xf32>
  %log2 = math.log2 %x : tensor<3xf32>
  %sqrt = math.sqrt %x : tensor<3xf32>
  %rsqrt = math.rsqrt %x : tensor<3xf32>
  %cos = math.cos %x : tensor<3xf32>
  %abs = math.absf %x : tensor<3xf32>
  %fma = math.fma %x, %x, %x : tensor<3xf32>
  %erf = math.erf %x : tensor<3xf32>
  %floor = math.floor %x : tensor<3xf32>
  %ceil = math.ceil %x : tensor<3xf32>
  tt.return %exp, %exp2, %log2, %sqrt, %rsqrt, %cos, %abs, %fma, %erf, %floor, %ceil : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
"""
    x = np.array([0.0, 4.0, 0.5], dtype=np.float32)
    exp, exp2, log2, sqrt, rsqrt, cos, absf, fma, erf, floor, ceil = call(text, [x])
    assert exp.tolist()[:1] == [1.0] and exp2.tolist()[:2] == [1.0, 16.0]
    assert log2.tolist() == [-np.inf, 2.0, -1.0]
    assert sqrt.tolist()[:2] == [0.0, 2.0] and rsqrt.tolist()[1:] == [0.5, float(np.float32(2**0.5))]
    assert cos[0] == 1.0 and absf.tolist() == x.tolist() and fma.tolist() == [0.0, 20.0, 0.75]
    assert floor.tolist() == [0.0, 4.0, 0.0] and ceil.tolist() == [0.0, 4.0, 1.0]
    # transcendental results are the float64 value rounded once to f32
    assert exp[2] == np.float32(np.exp(0.5)) and cos[1] == np.float32(np.cos(4.0))
    assert erf.tolist()[0] == 0.0 and erf[2] == np.float32(0.5204998778130465)


def test_pointer_integer_round_trip() -> None:
    text = """
tt.func @f(%p: !tt.ptr<i32>) -> i32 {
  %a = tt.ptr_to_int %p : !tt.ptr<i32> -> i64
  %c8 = arith.constant 8 : i64
  %b = arith.addi %a, %c8 : i64
  %q = tt.int_to_ptr %b : i64 -> !tt.ptr<i32>
  %v = tt.load %q : !tt.ptr<i32>
  tt.return %v : i32
}
"""
    (v,) = call(text, [np.array([5, 6, 7], dtype=np.int32)])
    assert v.shape == () and int(v) == 7  # 8 bytes past the base: element 2


def test_triton_software_pipelined_matmul(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Triton's 3-stage pipeline (cp.async into a ring of shared buffers, commit groups,
    waits, subslices on sm_80; wgmma on sm_90) computes what its TTIR computes."""
    pytest.importorskip("triton")
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TRITON_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TRITON_DEFAULT_FP_FUSION", "1")  # Triton's default; set to silence its warning
    import triton
    import triton.language as tl
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import ASTSource

    @triton.jit
    def mm(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
        a = a_ptr + rm[:, None] * K + rk[None, :]
        b = b_ptr + rk[:, None] * BN + rn[None, :]
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for _ in range(0, K, BK):
            acc = tl.dot(tl.load(a), tl.load(b), acc)
            a += BK
            b += BK * BN
        tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)

    signature = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "K": "i32"}
    signature.update(BM="constexpr", BN="constexpr", BK="constexpr")
    k_size = 96
    rng = np.random.default_rng(5)
    a = rng.standard_normal((64, k_size)).astype(np.float16)
    b = rng.standard_normal((k_size, 64)).astype(np.float16)
    for capability in (80, 90):
        src = ASTSource(
            fn=mm,
            signature=signature,
            constexprs={"BM": 64, "BN": 64, "BK": 32},
            attrs={(i,): [["tt.divisibility", 16]] for i in range(4)},
        )
        compiled = triton.compile(src, target=GPUTarget("cuda", capability, 32), options={"num_warps": 4, "num_stages": 3})
        outputs = []
        for stage in ("ttir", "ttgir"):
            c = np.zeros((64, 64), dtype=np.float32)
            stats = run_kernel(module(compiled.asm[stage]), [a, b, c, k_size])
            outputs.append(c)
        # two stages of A and B copied before the loop, one (predicated) pair per iteration
        assert stats.op_counts["ttg.async_copy_global_to_local"] == 2 * 2 + 2 * (k_size // 32)
        np.testing.assert_allclose(outputs[1], a.astype(np.float64) @ b.astype(np.float64), rtol=1e-6, atol=1e-5)
        if capability == 90:
            assert outputs[0].tobytes() == outputs[1].tobytes()
        else:  # sm_80's prefetch pass splits each dot along K: the accumulator rounds twice
            assert stats.op_counts["tt.dot"] == 2 * (k_size // 32)
            np.testing.assert_allclose(outputs[0], outputs[1], rtol=1e-6, atol=1e-6)


# --- racy stores: the elements whose value is a race's outcome ------------------------
_RACY = """
module {
  tt.func public @k(%out: !tt.ptr<i32>, %vals: !tt.ptr<i32>, %stride: i32, %twice: i32) {
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %s = tt.splat %stride : i32 -> tensor<8xi32>
    %q = arith.divsi %r, %s : tensor<8xi32>
    %vp = tt.splat %vals : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
    %va = tt.addptr %vp, %r : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
    %v = tt.load %va : tensor<8x!tt.ptr<i32>>
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
    %oa = tt.addptr %op, %q : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
    tt.store %oa, %v : tensor<8x!tt.ptr<i32>>
    %z = arith.constant 0 : i32
    %again = arith.cmpi ne, %twice, %z : i32
    scf.if %again {
      %o1 = tt.addptr %op, %r : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
      tt.store %o1, %v : tensor<8x!tt.ptr<i32>>
    }
    tt.return
  }
}
"""


@pytest.mark.parametrize(("vals", "stride", "twice", "racy"), [
    ([0, 1, 2, 3, 4, 5, 6, 7], 1, 0, {}),                    # one lane per element
    ([0, 1, 2, 3, 4, 5, 6, 7], 2, 0, {0: [0, 1, 2, 3]}),     # lanes 2i and 2i+1 write out[i]
    ([5, 5, 6, 6, 7, 7, 8, 9], 2, 0, {0: [3]}),              # the same value twice is no race
    ([0, 1, 2, 3, 4, 5, 6, 7], 4, 1, {}),                    # a later store of every element
])
def test_racy_elements_are_the_ones_a_store_writes_twice_with_different_values(
        vals: list[int], stride: int, twice: int, racy: dict[int, list[int]]) -> None:
    out = np.zeros(8, np.int32)
    stats = run_kernel(P.parse_module(_RACY), [out, np.array(vals, np.int32), stride, twice])
    assert {k: v.tolist() for k, v in stats.racy.items()} == racy


_FPTOSI = """
module {
  tt.func public @k(%x: !tt.ptr<f32>, %y: !tt.ptr<i8>) {
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %v = tt.load %xa : tensor<8x!tt.ptr<f32>>
    %i = arith.fptosi %v : tensor<8xf32> to tensor<8xi8>
    %yp = tt.splat %y : !tt.ptr<i8> -> tensor<8x!tt.ptr<i8>>
    %ya = tt.addptr %yp, %r : tensor<8x!tt.ptr<i8>>, tensor<8xi32>
    tt.store %ya, %i : tensor<8x!tt.ptr<i8>>
    tt.return
  }
}
"""


def test_fptosi_out_of_its_range_is_counted_as_poison() -> None:
    # in range: -128.9 and 127.5 truncate to -128 and 127; outside: 128, -129.5, inf, NaN
    x = np.array([0.5, -128.9, 127.5, 128.0, -129.5, np.inf, np.nan, 3.0], np.float32)
    stats = run_kernel(P.parse_module(_FPTOSI), [x, np.zeros(8, np.int8)])
    assert dict(stats.poison) == {"arith.fptosi": 4}
    stats = run_kernel(P.parse_module(_FPTOSI), [np.arange(8, dtype=np.float32), np.zeros(8, np.int8)])
    assert dict(stats.poison) == {}
