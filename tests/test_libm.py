"""Accurate math functions (``lowering/llvm/libm.py``) run in ltc's PTX simulator against
float64 numpy: Triton takes these from libdevice (about 1 ulp), so must we."""

from __future__ import annotations

import numpy as np
import pytest

from ltc import simulate_ptx
from ltc.tools.pipeline import compile_kernel

N = 1024


def _kernel(op: str) -> str:
    return f"""#b = #ttg.blocked<{{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @k(%in: !tt.ptr<f32> {{tt.divisibility = 16 : i32}}, %out: !tt.ptr<f32> {{tt.divisibility = 16 : i32}}) {{
    %r = tt.make_range {{end = {N} : i32, start = 0 : i32}} : tensor<{N}xi32, #b>
    %p = tt.splat %in : !tt.ptr<f32> -> tensor<{N}x!tt.ptr<f32>, #b>
    %a = tt.addptr %p, %r : tensor<{N}x!tt.ptr<f32>, #b>, tensor<{N}xi32, #b>
    %x = tt.load %a : tensor<{N}x!tt.ptr<f32>, #b>
    %y = {op} %x : tensor<{N}xf32, #b>
    %q = tt.splat %out : !tt.ptr<f32> -> tensor<{N}x!tt.ptr<f32>, #b>
    %qa = tt.addptr %q, %r : tensor<{N}x!tt.ptr<f32>, #b>, tensor<{N}xi32, #b>
    tt.store %qa, %y : tensor<{N}x!tt.ptr<f32>, #b>
    tt.return
  }}
}}
"""


def _run(op: str, xs: np.ndarray) -> np.ndarray:
    out = np.zeros(N, np.float32)
    simulate_ptx(compile_kernel(_kernel(op), emit="ptx"), (1, 1, 1), [xs.astype(np.float32), out])
    return out


def _ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    spacing = np.spacing(np.abs(want.astype(np.float32))).astype(np.float64)
    return np.abs(got.astype(np.float64) - want) / spacing


def _inputs(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    normal = rng.integers(0x00800000, 0x7F800000, N // 2, dtype=np.uint32).view(np.float32)
    near_one = (1 + rng.uniform(-1e-3, 1e-3, N // 4)).astype(np.float32)
    moderate = rng.uniform(0.25, 4, N // 4).astype(np.float32)
    return np.concatenate([normal, near_one, moderate])


@pytest.mark.parametrize(("op", "ref", "bound"), [("math.log", np.log, 1.0), ("math.log2", np.log2, 1.25)])
def test_log_within_an_ulp_or_so(op: str, ref, bound: float) -> None:  # noqa: ANN001
    xs = _inputs(7)
    got = _run(op, xs)
    want = ref(xs.astype(np.float64))
    keep = want != 0
    assert _ulps(got[keep], want[keep]).max() <= bound
    exact = xs == 1
    assert np.all(got[exact] == 0)


@pytest.mark.parametrize("op", ["math.log", "math.log2"])
def test_log_special_values(op: str) -> None:
    special = np.array([0.0, -0.0, 1e-40, -1e-40, -1.0, -np.inf, np.inf, np.nan, 1.0], np.float32)
    xs = np.resize(special, N)
    got = _run(op, xs)[: special.size]
    assert got[0] == got[1] == got[2] == got[3] == -np.inf  # zeros and flushed denormals
    assert np.isnan(got[4]) and np.isnan(got[5]) and np.isnan(got[7])
    assert got[6] == np.inf and got[8] == 0


def test_log_uses_no_approximate_logarithm() -> None:
    """lg2.approx has an absolute error of 2^-22: near 1 that is three digits lost (the
    simulator computes approximate instructions exactly, so only the PTX shows it)."""
    for op in ("math.log", "math.log2"):
        assert "lg2.approx" not in compile_kernel(_kernel(op), emit="ptx")


def test_erf_within_an_ulp_in_the_simulator() -> None:
    import math

    rng = np.random.default_rng(3)
    xs = np.concatenate([rng.uniform(-5, 5, N // 2), rng.uniform(-1.2, 1.2, N // 4), rng.normal(0, 2, N // 4)])
    xs = xs.astype(np.float32)
    got = _run("math.erf", xs)
    want = np.array([math.erf(float(v)) for v in xs])
    keep = want != 0
    assert _ulps(got[keep], want[keep]).max() <= 1.0
    special = np.resize(np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 3.92, -10.0], np.float32), N)
    got = _run("math.erf", special)[:7]
    assert list(got[[0, 2, 3, 5, 6]]) == [0.0, 1.0, -1.0, 1.0, -1.0] and np.signbit(got[1]) and np.isnan(got[4])


def test_erf_coefficients_bound_the_error_with_the_hardware_ex2() -> None:
    """f32 Horner (fma) of the fitted polynomials, ex2.approx off by its worst relative
    error either way, compared with float64 erf on a dense grid of [0, 4]."""
    import math

    from ltc.lowering.llvm.libm import ERF_LARGE, ERF_ONE, ERF_SMALL, ERF_SPLIT

    def horner(cs: tuple[float, ...], t: np.ndarray) -> np.ndarray:
        acc = np.full(t.shape, np.float32(cs[-1]))
        for c in cs[-2::-1]:  # one rounding per step: an fma
            acc = (acc.astype(np.float64) * t + np.float32(c)).astype(np.float32)
        return acc

    a = np.linspace(0, 4, 200_001).astype(np.float32)
    a64 = a.astype(np.float64)
    want = np.array([math.erf(v) for v in a64])
    p = horner(ERF_SMALL, (a64 * a64).astype(np.float32).astype(np.float64))
    small = (a64 * p + a64).astype(np.float32)
    q = horner(ERF_LARGE, a64).astype(np.float64)
    worst = 0.0
    for eps in (2.0**-22.5, -(2.0**-22.5)):
        tail = (np.exp2(q) * (1 + eps)).astype(np.float32)
        large = (1 - tail.astype(np.float64)).astype(np.float32)
        got = np.where(a < ERF_SPLIT, small, np.where(a >= ERF_ONE, np.float32(1), large))
        keep = want != 0
        worst = max(worst, float(_ulps(got[keep], want[keep]).max()))
    assert worst <= 1.5


@pytest.mark.parametrize(("op", "ref"), [("math.sin", np.sin), ("math.cos", np.cos)])
def test_sin_cos_within_an_ulp_far_from_zero_too(op: str, ref) -> None:  # noqa: ANN001
    """sin.approx/cos.approx reduce x with an f32 view of π: at |x| = 10^5 their error is
    about 10^-2; reduced in f64 with π/2 in three doubles, every |x| < 2^51 is exact."""
    rng = np.random.default_rng(5)
    sign = np.where(rng.normal(size=N // 4) < 0, -1, 1)
    xs = np.concatenate([
        rng.uniform(-10, 10, N // 4), rng.uniform(-1e5, 1e5, N // 4),
        np.exp2(rng.uniform(-20, 50, N // 4)) * sign, rng.uniform(-1, 1, N // 4),
    ]).astype(np.float32)
    got = _run(op, xs)
    want = ref(xs.astype(np.float64))
    assert _ulps(got, want).max() <= 1.0


@pytest.mark.parametrize("op", ["math.sin", "math.cos"])
def test_sin_cos_special_values(op: str) -> None:
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1e-20], np.float32)
    got = _run(op, np.resize(special, N))[: special.size]
    assert np.all(np.isnan(got[2:5]))
    if op == "math.sin":
        assert got[0] == 0 and not np.signbit(got[0]) and got[1] == 0 and np.signbit(got[1]) and got[5] == special[5]
    else:
        assert got[0] == got[1] == got[5] == 1


def _extern_kernel(symbol: str, exponent: str | None) -> str:
    """``y = symbol(x)`` (or ``symbol(x, n)``: ``exponent`` is ``"load"`` for n read from a
    third pointer, else a constant) over ``N`` f32s."""
    t = f"tensor<{N}xf32, #b>"
    ti = f"tensor<{N}xi32, #b>"
    args, types, extra = "%x", t, ""
    if exponent == "load":
        extra = (f"    %pn = tt.splat %n : !tt.ptr<i32> -> tensor<{N}x!tt.ptr<i32>, #b>\n"
                 f"    %an = tt.addptr %pn, %r : tensor<{N}x!tt.ptr<i32>, #b>, {ti}\n"
                 f"    %e = tt.load %an : tensor<{N}x!tt.ptr<i32>, #b>\n")
    elif exponent is not None:
        extra = f"    %e = arith.constant dense<{exponent}> : {ti}\n"
    if exponent is not None:
        args, types = "%x, %e", f"{t}, {ti}"
    op = f'tt.extern_elementwise {args} {{libname = "", libpath = "", pure = true, symbol = "{symbol}"}} : ({types}) -> {t}'
    text = _kernel("OP")
    text = text.replace("%out: !tt.ptr<f32> {tt.divisibility = 16 : i32})",
                        "%out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: !tt.ptr<i32> {tt.divisibility = 16 : i32})")
    return text.replace(f"    %y = OP %x : {t}\n", extra + f"    %y = {op}\n")


def _run_extern(symbol: str, xs: np.ndarray, exponent: str | None = None, ns: np.ndarray | None = None) -> np.ndarray:
    out = np.zeros(N, np.float32)
    n = np.zeros(N, np.int32) if ns is None else ns.astype(np.int32)
    simulate_ptx(compile_kernel(_extern_kernel(symbol, exponent), emit="ptx"), (1, 1, 1), [xs.astype(np.float32), out, n])
    return out


def _same_floats(got: np.ndarray, want: np.ndarray) -> bool:
    """Equal bit for bit, any NaN equal to any NaN."""
    nan = np.isnan(want)
    return bool(np.array_equal(np.isnan(got), nan) and np.array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32)))


def test_powi_is_the_correctly_rounded_power() -> None:
    rng = np.random.default_rng(3)
    xs = rng.uniform(-4, 4, N).astype(np.float32)
    ns = rng.integers(-40, 41, N).astype(np.int32)
    ns[:64] = rng.integers(-(1 << 19), 1 << 19, 64)  # large powers: inf and 0 where f32 ends
    xs[:64] = (1 + rng.uniform(-1e-5, 1e-5, 64)).astype(np.float32)
    got = _run_extern("__nv_powif", xs, "load", ns)
    with np.errstate(all="ignore"):
        want = np.power(xs.astype(np.float64), ns.astype(np.float64)).astype(np.float32)
    assert _same_floats(got, want)


def test_powi_special_values() -> None:
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -3.0, 1e-30], np.float32)
    powers = np.array([0, 1, -1, 2, 3, -3, 7, -(1 << 31), (1 << 31) - 1, 1 << 30], np.int64)
    xs = np.resize(np.repeat(specials, len(powers)), N).astype(np.float32)
    ns = np.resize(np.tile(powers, len(specials)), N).astype(np.int32)
    got = _run_extern("__nv_powif", xs, "load", ns)
    with np.errstate(all="ignore"):
        want = np.power(xs.astype(np.float64), ns.astype(np.float64)).astype(np.float32)
    assert _same_floats(got, want)


@pytest.mark.parametrize("n", [0, 1, 2, 3, -2, 5, 13])
def test_powi_of_a_constant_power(n: int) -> None:
    xs = _inputs(11) * np.float32(2.0**-120)  # keep x^13 finite often enough
    xs[: N // 2] = np.random.default_rng(n + 20).uniform(-3, 3, N // 2)
    got = _run_extern("__nv_powif", xs, str(n))
    with np.errstate(all="ignore"):
        want = np.power(xs.astype(np.float64), float(n)).astype(np.float32)
    assert _same_floats(got, want)


def test_tanh_within_a_few_ulps() -> None:
    rng = np.random.default_rng(5)
    xs = np.concatenate([
        rng.uniform(-0.5, 0.5, N // 4), rng.uniform(0.45, 0.55, N // 4) * rng.choice([-1, 1], N // 4),
        rng.uniform(-12, 12, N // 4), rng.integers(0x00800000, 0x3F000000, N // 4, dtype=np.uint32).view(np.float32),
    ]).astype(np.float32)  # fmt: skip
    got = _run_extern("__nv_tanhf", xs)
    want = np.tanh(xs.astype(np.float64))
    assert _ulps(got, want).max() <= 3.0


def test_tanh_special_values() -> None:
    xs = np.resize(np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 100.0, -100.0, 1e-30], np.float32), N)
    got = _run_extern("__nv_tanhf", xs)
    want = np.tanh(xs.astype(np.float64)).astype(np.float32)
    assert _same_floats(got, want)


def test_an_unknown_libdevice_function_is_refused_by_name() -> None:
    text = _extern_kernel("__nv_cbrtf", None)
    with pytest.raises(Exception, match=r"'tt.extern_elementwise' of '__nv_cbrtf' is not supported"):
        compile_kernel(text, emit="ptx")


def test_pow_is_the_correctly_rounded_power() -> None:
    rng = np.random.default_rng(9)
    xs = np.concatenate([
        rng.uniform(0, 4, N // 4), rng.uniform(-4, 0, N // 4),
        rng.integers(0x00000001, 0x7F800000, N // 4, dtype=np.uint32).view(np.float32),
        (1 + rng.uniform(-1e-4, 1e-4, N // 4)),
    ]).astype(np.float32)  # fmt: skip
    ys = np.concatenate([
        rng.uniform(-8, 8, N // 4), np.round(rng.uniform(-9, 9, N // 4)),
        rng.uniform(-2, 2, N // 4), rng.uniform(-3e4, 3e4, N // 4),
    ]).astype(np.float32)  # fmt: skip
    got = _run_pow(xs, ys)
    with np.errstate(all="ignore"):
        want = np.power(xs.astype(np.float64), ys.astype(np.float64))
    finite = np.isfinite(want) & (np.abs(want) >= np.finfo(np.float32).tiny) & (np.abs(want) <= np.finfo(np.float32).max)
    assert finite.sum() > N // 2
    assert _ulps(got[finite], want[finite]).max() <= 0.5001
    with np.errstate(over="ignore"):
        assert _same_floats(got[~finite], want[~finite].astype(np.float32))


def test_pow_special_values() -> None:
    specials = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, np.inf, -np.inf, np.nan, 3.0], np.float32)
    powers = np.array([0.0, -0.0, 1.0, -1.0, 2.0, 3.0, -3.0, 0.5, -0.5, np.inf, -np.inf, np.nan, 2.0**25 + 2, 7.0], np.float32)
    xs = np.resize(np.repeat(specials, len(powers)), N).astype(np.float32)
    ys = np.resize(np.tile(powers, len(specials)), N).astype(np.float32)
    got = _run_pow(xs, ys)
    with np.errstate(all="ignore"):
        want = np.power(xs.astype(np.float64), ys.astype(np.float64)).astype(np.float32)
    assert _same_floats(got, want)


def _run_pow(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    t = f"tensor<{N}xf32, #b>"
    text = _extern_kernel("__nv_powf", None)
    load_y = (f"    %py = tt.splat %n : !tt.ptr<f32> -> tensor<{N}x!tt.ptr<f32>, #b>\n"
              f"    %ay = tt.addptr %py, %r : tensor<{N}x!tt.ptr<f32>, #b>, tensor<{N}xi32, #b>\n"
              f"    %e = tt.load %ay : tensor<{N}x!tt.ptr<f32>, #b>\n")
    text = text.replace("%n: !tt.ptr<i32>", "%n: !tt.ptr<f32>").replace(
        "    %y = tt.extern_elementwise %x ", load_y + "    %y = tt.extern_elementwise %x, %e ").replace(
        f"pure = true, symbol = \"__nv_powf\"}} : ({t}) ->", f"pure = true, symbol = \"__nv_powf\"}} : ({t}, {t}) ->")
    out = np.zeros(N, np.float32)
    simulate_ptx(compile_kernel(text, emit="ptx"), (1, 1, 1), [xs.astype(np.float32), out, ys.astype(np.float32)])
    return out
