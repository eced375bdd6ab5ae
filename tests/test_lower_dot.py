"""``tt.dot`` in the LLVM lowering: FMA dots (``#ttg.dot_op`` operands of a blocked parent)
and ``mma.sync`` dots (``#ttg.nvidia_mma`` version 2 parents), compiled to PTX that
ptxas accepts for sm_80, run by the PTX simulator and compared with numpy (and with the
value interpreter)."""

from __future__ import annotations

import numpy as np
import pytest

from ltc import simulate_ptx
from ltc.passes.interpret import run_kernel
from ltc.tools.pipeline import PipelineError, compile_kernel, parse_module
from tests.test_codegen_examples import ptxas_ok


def _load(name: str, ptr: str, rows: int, cols: int, layout: str, t: str) -> str:
    """IR that makes ``%<name>_p``: pointers to a row-major rows x cols matrix at ``%ptr``."""
    s0 = f"tensor<{rows}xi32, #ttg.slice<{{dim = 1, parent = {layout}}}>>"
    s1 = f"tensor<{cols}xi32, #ttg.slice<{{dim = 0, parent = {layout}}}>>"
    ti = f"tensor<{rows}x{cols}xi32, {layout}>"
    tp = f"tensor<{rows}x{cols}x!tt.ptr<{t}>, {layout}>"
    return f"""
    %{name}_r = tt.make_range {{end = {rows} : i32, start = 0 : i32}} : {s0}
    %{name}_c = tt.make_range {{end = {cols} : i32, start = 0 : i32}} : {s1}
    %{name}_re = tt.expand_dims %{name}_r {{axis = 1 : i32}} : {s0} -> tensor<{rows}x1xi32, {layout}>
    %{name}_ce = tt.expand_dims %{name}_c {{axis = 0 : i32}} : {s1} -> tensor<1x{cols}xi32, {layout}>
    %{name}_k = arith.constant dense<{cols}> : tensor<{rows}x1xi32, {layout}>
    %{name}_rs = arith.muli %{name}_re, %{name}_k : tensor<{rows}x1xi32, {layout}>
    %{name}_rb = tt.broadcast %{name}_rs : tensor<{rows}x1xi32, {layout}> -> {ti}
    %{name}_cb = tt.broadcast %{name}_ce : tensor<1x{cols}xi32, {layout}> -> {ti}
    %{name}_off = arith.addi %{name}_rb, %{name}_cb : {ti}
    %{name}_sp = tt.splat %{ptr} : !tt.ptr<{t}> -> {tp}
    %{name}_p = tt.addptr %{name}_sp, %{name}_off : {tp}, {ti}"""


def dot_kernel(
    m: int, n: int, k: int, *, ab: str, acc: str, la: str, lb: str, lc: str, pa: str, pb: str,
    precision: str = "", warps: int = 4,
) -> str:
    """``out = a @ b + c`` for row-major a (m x k), b (k x n), c and out (m x n): a and b are
    loaded in ``la`` / ``lb`` and converted to the operand layouts ``pa`` / ``pb``; c is
    loaded, and the result stored, in ``lc`` (the result layout)."""
    ta, tb, tc = (f"tensor<{m}x{k}x{ab}, {{}}>", f"tensor<{k}x{n}x{ab}, {{}}>", f"tensor<{m}x{n}x{acc}, {lc}>")
    prec = f", inputPrecision = {precision}" if precision else ""
    return f"""#LA = {la}
#LB = {lb}
#C = {lc}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps} : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @k(%pa: !tt.ptr<{ab}> {{tt.divisibility = 16 : i32}}, %pb: !tt.ptr<{ab}> {{tt.divisibility = 16 : i32}}, %pc: !tt.ptr<{acc}> {{tt.divisibility = 16 : i32}}, %po: !tt.ptr<{acc}> {{tt.divisibility = 16 : i32}}) {{
{_load("a", "pa", m, k, "#LA", ab)}
    %a = tt.load %a_p : tensor<{m}x{k}x!tt.ptr<{ab}>, #LA>
{_load("b", "pb", k, n, "#LB", ab)}
    %b = tt.load %b_p : tensor<{k}x{n}x!tt.ptr<{ab}>, #LB>
{_load("c", "pc", m, n, "#C", acc)}
    %c = tt.load %c_p : tensor<{m}x{n}x!tt.ptr<{acc}>, #C>
    %ad = ttg.convert_layout %a : {ta.format("#LA")} -> {ta.format(pa)}
    %bd = ttg.convert_layout %b : {tb.format("#LB")} -> {tb.format(pb)}
    %d = tt.dot %ad, %bd, %c{prec} : {ta.format(pa)} * {tb.format(pb)} -> {tc}
{_load("o", "po", m, n, "#C", acc)}
    tt.store %o_p, %d : tensor<{m}x{n}x!tt.ptr<{acc}>, #C>
    tt.return
  }}
}}
"""


def fma_chain(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``c + a @ b`` in float32 as a chain of fmas in ascending k (see :func:`fma_f32`)."""
    acc = c.astype(np.float32).copy()
    for k in range(a.shape[1]):
        acc = fma_f32(a[:, k : k + 1], b[k : k + 1, :], acc)
    return acc


def fma_f32(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
    """float32 ``x·y + z`` rounded once (to nearest even). ``x·y`` is exact in float64
    (48 significant bits); the sum is rounded to float64 *to odd* (the exact sum is
    ``s + err``, TwoSum: an inexact ``s`` with an even last bit moves one ulp toward
    ``err``), which then rounds to float32 exactly as the exact sum would (53 >= 24 + 2)."""
    p = x.astype(np.float64) * y.astype(np.float64)
    zz = np.broadcast_to(z.astype(np.float64), p.shape)
    s = p + zz
    bv = s - p
    err = (p - (s - bv)) + (zz - bv)
    even = (np.ascontiguousarray(s).view(np.uint64) & np.uint64(1)) == 0
    s = np.where((err != 0) & even, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)
    return s.astype(np.float32)


BLOCKED = "#ttg.blocked<{{sizePerThread = [{s0}, {s1}], threadsPerWarp = [{t0}, {t1}], warpsPerCTA = [{w0}, {w1}], order = [1, 0]}}>"

# (m, n, k, result layout): a lane/warp split with one element per thread and a column
# broadcast, one with several registers per thread along both dims
_FMA_CASES = {
    "32x32x32-rows": (32, 32, 32, BLOCKED.format(s0=1, s1=1, t0=1, t1=32, w0=4, w1=1)),
    "64x16x32-spt": (64, 16, 32, BLOCKED.format(s0=2, s1=4, t0=8, t1=4, w0=2, w1=2)),
    "16x16x8-broadcast": (16, 16, 8, BLOCKED.format(s0=1, s1=1, t0=4, t1=8, w0=4, w1=1)),
}
_LOADS = BLOCKED.format(s0=1, s1=4, t0=4, t1=8, w0=4, w1=1)


def _fma_text(case: str, t: str) -> tuple[str, int, int, int]:
    m, n, k, lc = _FMA_CASES[case]
    text = dot_kernel(
        m, n, k, ab=t, acc=t, la=_LOADS, lb=_LOADS, lc=lc,
        pa="#ttg.dot_op<{opIdx = 0, parent = #C}>", pb="#ttg.dot_op<{opIdx = 1, parent = #C}>",
    )
    return text, m, n, k


@pytest.mark.parametrize("case", sorted(_FMA_CASES))
def test_fma_dot_f32_is_an_fma_chain_in_k_order(case: str) -> None:
    text, m, n, k = _fma_text(case, "f32")
    ptx = compile_kernel(text, emit="ptx", target="sm_80")
    ptxas_ok(ptx, "sm_80")
    assert ptx.count("fma.rn.f32") >= m * n * k // 128, "one fma per (m, n, k) and thread"
    rng = np.random.default_rng(11)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c = rng.standard_normal((m, n)).astype(np.float32)
    out = np.zeros(m * n, np.float32)
    simulate_ptx(ptx, (1, 1, 1), [a.ravel(), b.ravel(), c.ravel(), out])
    np.testing.assert_array_equal(out.reshape(m, n), fma_chain(a, b, c))
    # the interpreter sums in float64 and rounds once: within k+1 roundings of the chain
    ref = np.zeros(m * n, np.float32)
    run_kernel(parse_module(text), [a.ravel(), b.ravel(), c.ravel(), ref])
    bound = (k + 1) * np.finfo(np.float32).eps * (np.abs(a) @ np.abs(b) + np.abs(c))
    assert np.all(np.abs(ref.reshape(m, n) - out.reshape(m, n)) <= bound)


def _simulator_and_interpreter_give(
    text: str, ptx: str, a: np.ndarray, b: np.ndarray, c: np.ndarray, expect: np.ndarray
) -> None:
    """Run ``ptx`` in the simulator and ``text`` in the interpreter on (a, b, c): both give
    ``expect`` exactly."""
    for run in ("simulator", "interpreter"):
        out = np.zeros(expect.size, expect.dtype)
        if run == "simulator":
            simulate_ptx(ptx, (1, 1, 1), [a.ravel(), b.ravel(), c.ravel(), out])
        else:
            run_kernel(parse_module(text), [a.ravel(), b.ravel(), c.ravel(), out])
        np.testing.assert_array_equal(out.reshape(expect.shape), expect, err_msg=run)


@pytest.mark.parametrize("case", ["32x32x32-rows", "64x16x32-spt"])
def test_fma_dot_i32_wraps_like_numpy(case: str) -> None:
    text, m, n, k = _fma_text(case, "i32")
    ptx = compile_kernel(text, emit="ptx", target="sm_80")
    ptxas_ok(ptx, "sm_80")
    rng = np.random.default_rng(5)
    a = rng.integers(-(2**20), 2**20, (m, k)).astype(np.int32)
    b = rng.integers(-(2**20), 2**20, (k, n)).astype(np.int32)
    c = rng.integers(-(2**31), 2**31 - 1, (m, n)).astype(np.int32)
    expect = (c.astype(np.int64) + a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32)  # wraps mod 2^32
    _simulator_and_interpreter_give(text, ptx, a, b, c, expect)


def test_fma_dot_i8_into_i32_sign_extends() -> None:
    m, n, k, lc = _FMA_CASES["64x16x32-spt"]
    text = dot_kernel(
        m, n, k, ab="i8", acc="i32", la=_LOADS, lb=_LOADS, lc=lc,
        pa="#ttg.dot_op<{opIdx = 0, parent = #C}>", pb="#ttg.dot_op<{opIdx = 1, parent = #C}>",
    )
    ptx = compile_kernel(text, emit="ptx", target="sm_80")
    ptxas_ok(ptx, "sm_80")
    rng = np.random.default_rng(6)
    a, b = rng.integers(-128, 128, (m, k)).astype(np.int8), rng.integers(-128, 128, (k, n)).astype(np.int8)
    c = rng.integers(-1000, 1000, (m, n)).astype(np.int32)
    expect = (c + a.astype(np.int32) @ b.astype(np.int32)).astype(np.int32)
    _simulator_and_interpreter_give(text, ptx, a, b, c, expect)


def test_fma_dot_without_fp_fusion_rounds_each_step() -> None:
    text, m, n, k = _fma_text("16x16x8-broadcast", "f32")
    ptx = compile_kernel(text, emit="ptx", target="sm_80", fp_fusion=False)
    ptxas_ok(ptx, "sm_80")
    assert "fma.rn.f32" not in ptx and "mul.rn.f32" in ptx and "add.rn.f32" in ptx
    rng = np.random.default_rng(2)
    a, b, c = (rng.standard_normal(s).astype(np.float32) for s in ((m, k), (k, n), (m, n)))
    out = np.zeros(m * n, np.float32)
    simulate_ptx(ptx, (1, 1, 1), [a.ravel(), b.ravel(), c.ravel(), out])
    acc = c.copy()
    for i in range(k):
        acc = acc + a[:, i : i + 1] * b[i : i + 1, :]  # float32 multiply, then float32 add
    np.testing.assert_array_equal(out.reshape(m, n), acc)


def test_fma_dot_of_f16_is_refused_by_name() -> None:
    text, *_ = _fma_text("16x16x8-broadcast", "f16")
    with pytest.raises(PipelineError, match="FMA 'tt.dot' of f16 is not supported"):
        compile_kernel(text, emit="ptx", target="sm_80")


# -- mma.sync ---------------------------------------------------------------------------------

MMA = "#ttg.nvidia_mma<{{versionMajor = 2, versionMinor = 0, warpsPerCTA = [{w0}, {w1}], instrShape = [16, 8]}}>"
"""The result layout ltc's accelerate-matmul gives an sm_80 dot (as in the corpus)."""


def _mma_text(m: int, n: int, k: int, ab: str, acc: str, warps: tuple[int, int], k_width: int, precision: str = "") -> str:
    return dot_kernel(
        m, n, k, ab=ab, acc=acc, la=_LOADS, lb=_LOADS, lc=MMA.format(w0=warps[0], w1=warps[1]),
        pa=f"#ttg.dot_op<{{opIdx = 0, parent = #C, kWidth = {k_width}}}>",
        pb=f"#ttg.dot_op<{{opIdx = 1, parent = #C, kWidth = {k_width}}}>", precision=precision,
    )


def _tf32(x: np.ndarray) -> np.ndarray:
    """An f32 as the tensor core reads it for tf32: the low 13 mantissa bits dropped."""
    u = x.astype(np.float32).view(np.uint32)
    return (u & np.uint32(0xFFFFE000)).view(np.float32)


def _run_mma(text: str, m: int, n: int, k: int, dtype: type, acc_dtype: type, seed: int) -> tuple[np.ndarray, ...]:
    ptx = compile_kernel(text, emit="ptx", target="sm_80")
    ptxas_ok(ptx, "sm_80")
    rng = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.integer):
        a, b = rng.integers(-128, 128, (m, k)).astype(dtype), rng.integers(-128, 128, (k, n)).astype(dtype)
        c = rng.integers(-(2**20), 2**20, (m, n)).astype(acc_dtype)
    else:
        a, b = rng.standard_normal((m, k)).astype(dtype), rng.standard_normal((k, n)).astype(dtype)
        c = rng.standard_normal((m, n)).astype(acc_dtype)
    out = np.zeros(m * n, acc_dtype)
    simulate_ptx(ptx, (1, 1, 1), [a.ravel(), b.ravel(), c.ravel(), out])
    return ptx, a, b, c, out.reshape(m, n)


@pytest.mark.parametrize(("m", "n", "k", "warps"), [(64, 64, 32, (2, 2)), (32, 16, 16, (4, 1)), (16, 32, 8, (1, 4))])
def test_mma_tf32(m: int, n: int, k: int, warps: tuple[int, int]) -> None:
    text = _mma_text(m, n, k, "f32", "f32", warps, 1, precision="tf32")
    ptx, a, b, c, out = _run_mma(text, m, n, k, np.float32, np.float32, 8)
    tiles = (m // 16) * (n // 8) * (k // 8)
    warps_in_m, warps_in_n = min(warps[0], m // 16), min(warps[1], n // 8)
    assert ptx.count("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32") == tiles // (warps_in_m * warps_in_n)
    assert "cvt.rna.tf32.f32" not in ptx  # the f32 bits go in as they are (as Triton's PTX)
    # the simulator's model: tf32 products exact, each mma's 8 products and C summed
    # exactly and rounded once to f32 (module doc of ltc.lowering.ptxsim.ops_mma): the
    # K/8 steps round k/8 times, so compare with the exact sum within k/8 f32 roundings
    # of the running sums' magnitudes (and check the dot is not the plain f32 one)
    exact = _tf32(a).astype(np.float64) @ _tf32(b).astype(np.float64) + c
    scale = np.abs(_tf32(a)).astype(np.float64) @ np.abs(_tf32(b)).astype(np.float64) + np.abs(c)
    assert np.all(np.abs(out - exact) <= (k // 8) * np.finfo(np.float32).eps / 2 * scale)
    assert np.any(out != (a.astype(np.float64) @ b + c).astype(np.float32))
    # the interpreter reads tf32 operands the same way (its sum exact, rounded once)
    ref = np.zeros(m * n, np.float32)
    run_kernel(parse_module(text), [a.ravel(), b.ravel(), c.ravel(), ref])
    np.testing.assert_allclose(out, ref.reshape(m, n), rtol=0, atol=1e-5 * k)


@pytest.mark.parametrize(("ab", "acc", "dtype", "acc_dtype"), [
    ("f16", "f32", np.float16, np.float32),
    ("f16", "f16", np.float16, np.float16),
])
def test_mma_f16(ab: str, acc: str, dtype: type, acc_dtype: type) -> None:
    m, n, k = 32, 32, 32
    text = _mma_text(m, n, k, ab, acc, (2, 2), 2)
    ptx, a, b, c, out = _run_mma(text, m, n, k, dtype, acc_dtype, 9)
    assert ptx.count(f"mma.sync.aligned.m16n8k16.row.col.{acc}.f16.f16.{acc}") == (m // 16) * (n // 8) * (k // 16) // 4
    # products of f16 are exact; two mmas (k = 32) each round once to the result type
    exact = a.astype(np.float64) @ b.astype(np.float64) + c
    scale = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)) + np.abs(c.astype(np.float64))
    assert np.all(np.abs(out - exact) <= 2 * np.finfo(acc_dtype).eps / 2 * scale + (2.0**-24 if acc == "f16" else 0))


def test_mma_bf16_matches_the_interpreter() -> None:
    m, n, k = 32, 16, 16
    text = _mma_text(m, n, k, "bf16", "f32", (2, 2), 2)
    ptx = compile_kernel(text, emit="ptx", target="sm_80")
    ptxas_ok(ptx, "sm_80")
    assert ptx.count("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32") == 1  # 4 tiles, one a warp
    rng = np.random.default_rng(4)
    bf16 = lambda x: (x.astype(np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)  # noqa: E731
    a, b = bf16(rng.standard_normal((m, k))), bf16(rng.standard_normal((k, n)))
    c = rng.standard_normal((m, n)).astype(np.float32)
    out = np.zeros(m * n, np.float32)
    simulate_ptx(ptx, (1, 1, 1), [a.ravel(), b.ravel(), c.ravel(), out])
    value = lambda h: (h.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)  # noqa: E731
    # one mma (k = 16): exact products, summed and rounded once: exactly numpy's f64 sum
    # rounded to f32 (an f64 sum of 17 terms this size is exact)
    expect = (value(a) @ value(b) + c).astype(np.float32)
    np.testing.assert_array_equal(out.reshape(m, n), expect)
    ref = np.zeros(m * n, np.float32)
    run_kernel(parse_module(text), [a.ravel(), b.ravel(), c.ravel(), ref])
    np.testing.assert_array_equal(ref.reshape(m, n), expect)


def test_mma_i8_is_exact() -> None:
    m, n, k = 32, 32, 64
    text = _mma_text(m, n, k, "i8", "i32", (2, 2), 4)
    ptx, a, b, c, out = _run_mma(text, m, n, k, np.int8, np.int32, 10)
    assert ptx.count("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32") == (m // 16) * (n // 8) * (k // 32) // 4
    expect = (a.astype(np.int64) @ b.astype(np.int64) + c).astype(np.int32)
    np.testing.assert_array_equal(out, expect)
    ref = np.zeros(m * n, np.int32)
    run_kernel(parse_module(text), [a.ravel(), b.ravel(), c.ravel(), ref])
    np.testing.assert_array_equal(ref.reshape(m, n), expect)


def test_mma_refusals_name_what_is_not_supported() -> None:
    # kWidth = 2 for f32 operands: the lanes do not hold the tf32 fragments
    text = _mma_text(32, 32, 16, "f32", "f32", (2, 2), 2, precision="tf32")
    with pytest.raises(PipelineError, match="does not hold mma.sync fragments"):
        compile_kernel(text, emit="ptx", target="sm_80")
    text = _mma_text(32, 32, 8, "f16", "f32", (2, 2), 2)  # K = 8: less than one m16n8k16 step
    with pytest.raises(PipelineError, match="32x32x8 is not supported with mma.sync m16n8k16"):
        compile_kernel(text, emit="ptx", target="sm_80")


@pytest.mark.parametrize(("m", "n", "k", "warps"), [(1, 1, 64, (4, 1)), (8, 4, 32, (2, 2)), (16, 2, 64, (4, 1)), (2, 16, 32, (1, 4))])
def test_mma_smaller_than_a_tile_is_exact(m: int, n: int, k: int, warps: tuple[int, int]) -> None:
    # M < 16 or N < 8: the layouts repeat the tensor over the 16 x 8 tile, every repeat
    # computes the same sum, and one mma a K step serves the whole dot (a 1x1x64 dot of
    # f16 is in the corpus: an attention indexer's q·k)
    text = _mma_text(m, n, k, "i8", "i32", warps, 4)
    ptx, a, b, c, out = _run_mma(text, m, n, k, np.int8, np.int32, 12)
    assert ptx.count("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32") == k // 32
    np.testing.assert_array_equal(out, (a.astype(np.int64) @ b.astype(np.int64) + c).astype(np.int32))


def test_mma_1x1x64_f16_into_f16_matches_the_interpreter() -> None:
    text = _mma_text(1, 1, 64, "f16", "f16", (4, 1), 2)
    ptx, a, b, c, out = _run_mma(text, 1, 1, 64, np.float16, np.float16, 13)
    assert ptx.count("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16") == 4
    ref = np.zeros(1, np.float16)
    run_kernel(parse_module(text), [a.ravel(), b.ravel(), c.ravel(), ref])
    exact = a.astype(np.float64) @ b.astype(np.float64) + c
    scale = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)) + np.abs(c.astype(np.float64))
    assert np.all(np.abs(out - exact) <= 4 * np.finfo(np.float16).eps / 2 * scale + 2.0**-24)
    assert np.all(np.abs(ref - exact) <= 4 * np.finfo(np.float16).eps / 2 * scale + 2.0**-24)


def test_mma_k_smaller_than_a_step_is_still_refused() -> None:
    # a repeated K slice would be summed twice: K must be whole steps, however small M, N
    text = _mma_text(1, 1, 16, "i8", "i32", (4, 1), 4)
    with pytest.raises(PipelineError, match="1x1x16 is not supported with mma.sync m16n8k32"):
        compile_kernel(text, emit="ptx", target="sm_80")
