"""``tt.gather`` (through shared memory) and ``tt.atomic_rmw`` / ``tt.atomic_cas`` (one
``atom`` per element, by its owner) in the lowering: PTX that ptxas accepts, run by the
PTX simulator, against numpy and against the value interpreter on the same inputs."""

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

ROOT = Path(__file__).resolve().parents[1]

_GATHER = """#I = #ttg.blocked<{{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}}>
#S = {src}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @k(%src: !tt.ptr<{t}> {{tt.divisibility = 16 : i32}}, %idx: !tt.ptr<i32> {{tt.divisibility = 16 : i32}}, %out: !tt.ptr<{t}> {{tt.divisibility = 16 : i32}}) {{
    %r64 = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32, #ttg.slice<{{dim = 1, parent = #S}}>>
    %c32 = tt.make_range {{end = 32 : i32, start = 0 : i32}} : tensor<32xi32, #ttg.slice<{{dim = 0, parent = #S}}>>
    %re = tt.expand_dims %r64 {{axis = 1 : i32}} : tensor<64xi32, #ttg.slice<{{dim = 1, parent = #S}}>> -> tensor<64x1xi32, #S>
    %ce = tt.expand_dims %c32 {{axis = 0 : i32}} : tensor<32xi32, #ttg.slice<{{dim = 0, parent = #S}}>> -> tensor<1x32xi32, #S>
    %k32 = arith.constant dense<32> : tensor<64x1xi32, #S>
    %rs = arith.muli %re, %k32 : tensor<64x1xi32, #S>
    %rb = tt.broadcast %rs : tensor<64x1xi32, #S> -> tensor<64x32xi32, #S>
    %cb = tt.broadcast %ce : tensor<1x32xi32, #S> -> tensor<64x32xi32, #S>
    %off = arith.addi %rb, %cb : tensor<64x32xi32, #S>
    %sp = tt.splat %src : !tt.ptr<{t}> -> tensor<64x32x!tt.ptr<{t}>, #S>
    %sa = tt.addptr %sp, %off : tensor<64x32x!tt.ptr<{t}>, #S>, tensor<64x32xi32, #S>
    %s = tt.load %sa : tensor<64x32x!tt.ptr<{t}>, #S>
    %ri = tt.make_range {{end = 128 : i32, start = 0 : i32}} : tensor<128xi32, #ttg.slice<{{dim = 1, parent = #I}}>>
    %ci = tt.make_range {{end = 32 : i32, start = 0 : i32}} : tensor<32xi32, #ttg.slice<{{dim = 0, parent = #I}}>>
    %rie = tt.expand_dims %ri {{axis = 1 : i32}} : tensor<128xi32, #ttg.slice<{{dim = 1, parent = #I}}>> -> tensor<128x1xi32, #I>
    %cie = tt.expand_dims %ci {{axis = 0 : i32}} : tensor<32xi32, #ttg.slice<{{dim = 0, parent = #I}}>> -> tensor<1x32xi32, #I>
    %k32i = arith.constant dense<32> : tensor<128x1xi32, #I>
    %ris = arith.muli %rie, %k32i : tensor<128x1xi32, #I>
    %rib = tt.broadcast %ris : tensor<128x1xi32, #I> -> tensor<128x32xi32, #I>
    %cib = tt.broadcast %cie : tensor<1x32xi32, #I> -> tensor<128x32xi32, #I>
    %offi = arith.addi %rib, %cib : tensor<128x32xi32, #I>
    %ip = tt.splat %idx : !tt.ptr<i32> -> tensor<128x32x!tt.ptr<i32>, #I>
    %ia = tt.addptr %ip, %offi : tensor<128x32x!tt.ptr<i32>, #I>, tensor<128x32xi32, #I>
    %i = tt.load %ia : tensor<128x32x!tt.ptr<i32>, #I>
    %g = tt.gather %s[%i] {{axis = 0 : i32}} : (tensor<64x32x{t}, #S>, tensor<128x32xi32, #I>) -> tensor<128x32x{t}, #I>
    %op = tt.splat %out : !tt.ptr<{t}> -> tensor<128x32x!tt.ptr<{t}>, #I>
    %oa = tt.addptr %op, %offi : tensor<128x32x!tt.ptr<{t}>, #I>, tensor<128x32xi32, #I>
    tt.store %oa, %g : tensor<128x32x!tt.ptr<{t}>, #I>
    tt.return
  }}
}}
"""

# the source spread over lanes and warps, with a warp broadcast (64 rows over 128
# threads); and the same rows held in registers only
_SOURCES = {
    "lanes-and-warps": "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>",
    "registers": "#ttg.blocked<{sizePerThread = [64, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>",
}


def _ptxas_ok(ptx: str) -> None:
    ptxas = shutil.which("ptxas")
    if ptxas is None:
        pytest.skip("ptxas is not on PATH")
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "k.ptx"
        src.write_text(ptx)
        proc = subprocess.run([ptxas, "-arch=sm_90", str(src), "-o", str(Path(d) / "k.cubin")], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("src_layout", sorted(_SOURCES))
@pytest.mark.parametrize(("t", "dtype"), [("f32", np.float32), ("f16", np.float16), ("i8", np.int8), ("f8E5M2", np.uint8)])
def test_gather_reads_every_index(src_layout: str, t: str, dtype: type) -> None:
    text = _GATHER.format(src=_SOURCES[src_layout], t=t)
    ptx = compile_kernel(text, emit="ptx")
    assert "st.shared" in ptx and "ld.shared" in ptx and "bar.sync" in ptx
    _ptxas_ok(ptx)
    rng = np.random.default_rng(7)
    src = (rng.standard_normal((64, 32)) * 50).astype(dtype)
    idx = rng.integers(0, 64, (128, 32)).astype(np.int32)
    out = np.zeros(128 * 32, dtype)
    simulate_ptx(ptx, (1, 1, 1), [src.ravel(), idx.ravel(), out])
    np.testing.assert_array_equal(out.reshape(128, 32), np.take_along_axis(src, idx, axis=0))


_ATOMIC = """#B = {layout}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @k(%p: !tt.ptr<{t}> {{tt.divisibility = 16 : i32}}, %v: !tt.ptr<{t}> {{tt.divisibility = 16 : i32}}, %o: !tt.ptr<{t}> {{tt.divisibility = 16 : i32}}, %n: i32) {{
    %r = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32, #B>
    %lim = tt.splat %n : i32 -> tensor<64xi32, #B>
    %m = arith.cmpi slt, %r, %lim : tensor<64xi32, #B>
    %pp = tt.splat %p : !tt.ptr<{t}> -> tensor<64x!tt.ptr<{t}>, #B>
    %pa = tt.addptr %pp, %r : tensor<64x!tt.ptr<{t}>, #B>, tensor<64xi32, #B>
    %vp = tt.splat %v : !tt.ptr<{t}> -> tensor<64x!tt.ptr<{t}>, #B>
    %va = tt.addptr %vp, %r : tensor<64x!tt.ptr<{t}>, #B>, tensor<64xi32, #B>
    %x = tt.load %va : tensor<64x!tt.ptr<{t}>, #B>
    %old = tt.atomic_rmw {op}, acq_rel, gpu, %pa, %x, %m : (tensor<64x!tt.ptr<{t}>, #B>, tensor<64x{t}, #B>, tensor<64xi1, #B>) -> tensor<64x{t}, #B>
    %op = tt.splat %o : !tt.ptr<{t}> -> tensor<64x!tt.ptr<{t}>, #B>
    %oa = tt.addptr %op, %r : tensor<64x!tt.ptr<{t}>, #B>, tensor<64xi32, #B>
    tt.store %oa, %old : tensor<64x!tt.ptr<{t}>, #B>
    tt.return
  }}
}}
"""

# 64 elements: one a lane in two warps (the other two warps hold the same: a broadcast,
# so only the owners may add), or two a thread in one warp
_LAYOUTS = {
    "warp-broadcast": "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
    "registers": "#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
}


@pytest.mark.parametrize("layout", sorted(_LAYOUTS))
@pytest.mark.parametrize(
    ("op", "t", "dtype", "fn"),
    [
        ("fadd", "f32", np.float32, np.add),
        ("add", "i32", np.int32, np.add),
        ("max", "i32", np.int32, np.maximum),
        ("umin", "i32", np.int32, lambda a, b: np.minimum(a.view(np.uint32), b.view(np.uint32)).view(np.int32)),
        ("xor", "i64", np.int64, np.bitwise_xor),
        ("exch", "f32", np.float32, lambda a, b: b),
    ],
)
def test_atomic_rmw_updates_each_element_once(layout: str, op: str, t: str, dtype: type, fn) -> None:  # noqa: ANN001
    text = _ATOMIC.format(layout=_LAYOUTS[layout], t=t, op=op)
    ptx = compile_kernel(text, emit="ptx")
    _ptxas_ok(ptx)
    rng = np.random.default_rng(3)
    p = (rng.standard_normal(64) * 1000).astype(dtype)
    v = (rng.standard_normal(64) * 1000).astype(dtype)
    n = 50  # the last 14 elements are masked off
    for run in ("simulator", "interpreter"):
        pa, oa = p.copy(), np.full(64, 7, dtype)
        if run == "simulator":
            simulate_ptx(ptx, (1, 1, 1), [pa, v.copy(), oa, n])
        else:
            run_kernel(parse_module(text), [pa, v.copy(), oa, n])
        expect = p.copy()
        expect[:n] = fn(p[:n], v[:n])
        np.testing.assert_array_equal(pa, expect, err_msg=run)
        old = np.zeros(64, dtype)
        old[:n] = p[:n]
        np.testing.assert_array_equal(oa, old, err_msg=run)


def test_atomic_cas_and_a_scalar_atomic() -> None:
    text = """#B = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %c: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %o: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #B>
    %pp = tt.splat %p : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #B>
    %pa = tt.addptr %pp, %r : tensor<128x!tt.ptr<i32>, #B>, tensor<128xi32, #B>
    %two = arith.constant dense<2> : tensor<128xi32, #B>
    %even = arith.remsi %r, %two : tensor<128xi32, #B>
    %nine = arith.constant dense<9> : tensor<128xi32, #B>
    %old = tt.atomic_cas acq_rel, gpu, %pa, %even, %nine : (tensor<128x!tt.ptr<i32>, #B>, tensor<128xi32, #B>, tensor<128xi32, #B>) -> tensor<128xi32, #B>
    %op = tt.splat %o : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #B>
    %oa = tt.addptr %op, %r : tensor<128x!tt.ptr<i32>, #B>, tensor<128xi32, #B>
    tt.store %oa, %old : tensor<128x!tt.ptr<i32>, #B>
    %one = arith.constant 1 : i32
    %prev = tt.atomic_rmw add, relaxed, gpu, %c, %one : (!tt.ptr<i32>, i32) -> i32
    %s = tt.splat %prev : i32 -> tensor<128xi32, #B>
    %oc = tt.addptr %oa, %two : tensor<128x!tt.ptr<i32>, #B>, tensor<128xi32, #B>
    %m = arith.cmpi eq, %r, %two : tensor<128xi32, #B>
    tt.store %oc, %s, %m : tensor<128x!tt.ptr<i32>, #B>
    tt.return
  }
}
"""
    ptx = compile_kernel(text, emit="ptx")
    _ptxas_ok(ptx)
    assert "atom.acq_rel.gpu.global.cas.b32" in ptx and "atom.relaxed.gpu.global.add.u32" in ptx
    p0 = np.zeros(128, np.int32)
    p0[::3] = 1
    for run in ("simulator", "interpreter"):
        p, c, o = p0.copy(), np.array([41], np.int32), np.zeros(130, np.int32)
        if run == "simulator":
            simulate_ptx(ptx, (1, 1, 1), [p, c, o])
        else:
            run_kernel(parse_module(text), [p, c, o])
        even = np.arange(128) % 2
        np.testing.assert_array_equal(p, np.where(p0 == even, 9, p0), err_msg=run)
        assert c[0] == 42, run  # one add, by thread 0
        np.testing.assert_array_equal(o[:2], p0[:2], err_msg=run)
        assert o[4] == 41, run  # the old value reached every thread


def test_example_with_gather_and_atomics_matches_the_interpreter() -> None:
    """examples/triton/scan_gather_misc: a scan, a gather, sqrt/div/clamp, an atomic add
    and a store, Triton's own TTGIR, to PTX; the simulator gives the interpreter's
    results (the atomic adds to distinct elements, so the order does not matter)."""
    text = (ROOT / "examples" / "triton" / "scan_gather_misc.ttgir").read_text()
    ptx = compile_kernel(text, emit="ptx")
    _ptxas_ok(ptx)
    rng = np.random.default_rng(11)
    x = rng.uniform(0.5, 4.0, 256).astype(np.float32)
    idx = rng.integers(0, 256, 256).astype(np.int32)
    results = {}
    for run in ("simulator", "interpreter"):
        out = np.linspace(-1, 1, 256).astype(np.float32)
        args = [x.copy(), idx.copy(), out]
        if run == "simulator":
            simulate_ptx(ptx, (1, 1, 1), args)
        else:
            run_kernel(parse_module(text), args)
        results[run] = out
    np.testing.assert_allclose(results["simulator"], results["interpreter"], rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize(
    ("src_layout", "bins"),
    [
        ("#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>", 64),
        # a broadcast source (128 values over 4 warps of 64 lanes' worth): counted once
        ("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>", 256),
    ],
)
def test_histogram_counts_each_value_once(src_layout: str, bins: int) -> None:
    text = f"""#S = {src_layout}
#H = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @k(%x: !tt.ptr<i32> {{tt.divisibility = 16 : i32}}, %o: !tt.ptr<i32> {{tt.divisibility = 16 : i32}}, %n: i32) {{
    %r = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32, #S>
    %xp = tt.splat %x : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #S>
    %xa = tt.addptr %xp, %r : tensor<64x!tt.ptr<i32>, #S>, tensor<64xi32, #S>
    %v = tt.load %xa : tensor<64x!tt.ptr<i32>, #S>
    %lim = tt.splat %n : i32 -> tensor<64xi32, #S>
    %m = arith.cmpi slt, %r, %lim : tensor<64xi32, #S>
    %h = tt.histogram %v, %m : tensor<64xi32, #S> -> tensor<{bins}xi32, #H>
    %hr = tt.make_range {{end = {bins} : i32, start = 0 : i32}} : tensor<{bins}xi32, #H>
    %op = tt.splat %o : !tt.ptr<i32> -> tensor<{bins}x!tt.ptr<i32>, #H>
    %oa = tt.addptr %op, %hr : tensor<{bins}x!tt.ptr<i32>, #H>, tensor<{bins}xi32, #H>
    tt.store %oa, %h : tensor<{bins}x!tt.ptr<i32>, #H>
    tt.return
  }}
}}
"""
    ptx = compile_kernel(text, emit="ptx")
    assert "red.shared.add.u32" in ptx
    _ptxas_ok(ptx)
    rng = np.random.default_rng(5)
    x = rng.integers(-4, bins + 4, 64).astype(np.int32)  # some out of range: not counted
    n = 57
    for run in ("simulator", "interpreter"):
        o = np.full(bins, -1, np.int32)
        if run == "simulator":
            simulate_ptx(ptx, (1, 1, 1), [x.copy(), o, n])
        else:
            run_kernel(parse_module(text), [x.copy(), o, n])
        kept = x[:n][(x[:n] >= 0) & (x[:n] < bins)]
        np.testing.assert_array_equal(o, np.bincount(kept, minlength=bins), err_msg=run)
