"""The PTX simulator's ``mma.sync.aligned`` on hand-written PTX: every lane loads its
fragment words, two warps each run one mma with their own matrices, and D comes back in
the PTX ISA's fragment order. The fragments are built here from the ISA's tables (written
out per shape, independently of the simulator's formula)."""

from __future__ import annotations

import numpy as np
import pytest

from ltc import simulate_ptx
from ltc.lowering.ptxsim.errors import SimulationError
from tests.test_codegen_examples import ptxas_ok

WARPS = 2


def _isa_a(lane: int, shape: str) -> list[tuple[int, int]]:
    """(row, col) of each A element of ``lane``, in register order, low element first."""
    g, t = lane // 4, lane % 4
    if shape == "m16n8k8":  # tf32: a0..a3
        return [(g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4)]
    if shape == "m16n8k16":  # f16x2 pairs a0a1, a2a3, a4a5, a6a7
        return [(g + dr, 2 * t + dc + i) for dr, dc in ((0, 0), (8, 0), (0, 8), (8, 8)) for i in (0, 1)]
    return [(g + dr, 4 * t + dc + i) for dr, dc in ((0, 0), (8, 0), (0, 16), (8, 16)) for i in range(4)]  # s8


def _isa_b(lane: int, shape: str) -> list[tuple[int, int]]:
    g, t = lane // 4, lane % 4
    if shape == "m16n8k8":
        return [(t, g), (t + 4, g)]
    if shape == "m16n8k16":
        return [(2 * t + dk + i, g) for dk in (0, 8) for i in (0, 1)]
    return [(4 * t + dk + i, g) for dk in (0, 16) for i in range(4)]


def _isa_c(lane: int) -> list[tuple[int, int]]:
    g, t = lane // 4, lane % 4
    return [(g, 2 * t), (g, 2 * t + 1), (g + 8, 2 * t), (g + 8, 2 * t + 1)]


def _fragments(mats: np.ndarray, coords) -> np.ndarray:  # noqa: ANN001
    """(warps, rows, cols) -> (warps * 32, elements) in each lane's fragment order."""
    return np.stack([
        np.array([mats[w][r, c] for r, c in coords(lane)]) for w in range(len(mats)) for lane in range(32)
    ])


def _words(elements: np.ndarray) -> np.ndarray:
    """(threads, elements) of one dtype -> (threads, 32-bit words), low element first."""
    return np.ascontiguousarray(elements).view(np.uint32)


def _ptx(mnemonic: str, n_d: int) -> str:
    regs = lambda base, n: ", ".join(f"%r{base + i}" for i in range(n))  # noqa: E731
    lines = [".version 7.0", ".target sm_80", ".address_size 64",
             ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)", "{",
             "  .reg .b32 %r<40>;", "  .reg .b64 %rd<20>;",
             "  mov.u32 %r0, %tid.x;"]
    for i, (name, n) in enumerate((("pa", 4), ("pb", 2), ("pc", n_d))):
        lines += [f"  ld.param.u64 %rd{i}, [{name}];", f"  mul.wide.u32 %rd{i + 4}, %r0, {4 * n};",
                  f"  add.s64 %rd{i + 8}, %rd{i}, %rd{i + 4};"]
    lines += ["  ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd8];", "  ld.global.v2.b32 {%r5, %r6}, [%rd9];"]
    lines.append(f"  ld.global.v{n_d}.b32 {{{regs(7, n_d)}}}, [%rd10];")
    lines.append(f"  {mnemonic} {{{regs(20, n_d)}}}, {{{regs(1, 4)}}}, {{{regs(5, 2)}}}, {{{regs(7, n_d)}}};")
    lines += ["  ld.param.u64 %rd3, [pd];", f"  mul.wide.u32 %rd7, %r0, {4 * n_d};", "  add.s64 %rd11, %rd3, %rd7;",
              f"  st.global.v{n_d}.b32 [%rd11], {{{regs(20, n_d)}}};", "  ret;", "}"]
    return "\n".join(lines) + "\n"


def _run(mnemonic: str, shape: str, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """D (warps, 16, 8) of the mma on per-warp A, B, C (numpy arrays of the element type)."""
    n_d = 2 if c.dtype == np.float16 else 4
    ptx = _ptx(mnemonic, n_d)
    ptxas_ok(ptx, "sm_80")
    fa = _words(_fragments(a, lambda lane: _isa_a(lane, shape)))
    fb = _words(_fragments(b, lambda lane: _isa_b(lane, shape)))
    fc = _words(_fragments(c, _isa_c))
    out = np.zeros_like(fc)
    simulate_ptx(ptx, (1, 1, 1), [fa.ravel(), fb.ravel(), fc.ravel(), out.ravel()], block=32 * WARPS)
    d_elems = out.view(c.dtype)
    d = np.zeros_like(c)
    for w in range(WARPS):
        for lane in range(32):
            for e, (r, col) in enumerate(_isa_c(lane)):
                d[w, r, col] = d_elems[w * 32 + lane, e]
    return d


def test_mma_tf32_ignores_the_low_13_bits_and_rounds_once() -> None:
    rng = np.random.default_rng(1)
    a = rng.standard_normal((WARPS, 16, 8)).astype(np.float32)
    b = rng.standard_normal((WARPS, 8, 8)).astype(np.float32)
    c = rng.standard_normal((WARPS, 16, 8)).astype(np.float32)
    d = _run("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "m16n8k8", a, b, c)
    tf32 = lambda x: (x.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32).astype(np.float64)  # noqa: E731
    expect = (np.matmul(tf32(a), tf32(b)) + c).astype(np.float32)
    np.testing.assert_array_equal(d, expect)
    assert not np.array_equal(d, (np.matmul(a.astype(np.float64), b) + c).astype(np.float32))


@pytest.mark.parametrize("acc", [np.float32, np.float16])
def test_mma_f16(acc: type) -> None:
    rng = np.random.default_rng(2)
    a = rng.standard_normal((WARPS, 16, 16)).astype(np.float16)
    b = rng.standard_normal((WARPS, 16, 8)).astype(np.float16)
    c = rng.standard_normal((WARPS, 16, 8)).astype(acc)
    tag = "f32" if acc == np.float32 else "f16"
    d = _run(f"mma.sync.aligned.m16n8k16.row.col.{tag}.f16.f16.{tag}", "m16n8k16", a, b, c)
    expect = (np.matmul(a.astype(np.float64), b.astype(np.float64)) + c).astype(acc)
    np.testing.assert_array_equal(d, expect)


def test_mma_bf16() -> None:
    rng = np.random.default_rng(3)
    bf16 = lambda x: (x.astype(np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)  # noqa: E731
    a32 = rng.standard_normal((WARPS, 16, 16)).astype(np.float32)
    b32 = rng.standard_normal((WARPS, 16, 8)).astype(np.float32)
    a, b = bf16(a32), bf16(b32)  # truncated to bf16 bit patterns
    c = rng.standard_normal((WARPS, 16, 8)).astype(np.float32)
    d = _run("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "m16n8k16", a, b, c)
    value = lambda h: (h.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)  # noqa: E731
    np.testing.assert_array_equal(d, (np.matmul(value(a), value(b)) + c).astype(np.float32))


def test_mma_s8_wraps_to_s32() -> None:
    rng = np.random.default_rng(4)
    a = rng.integers(-128, 128, (WARPS, 16, 32)).astype(np.int8)
    b = rng.integers(-128, 128, (WARPS, 32, 8)).astype(np.int8)
    c = rng.integers(-(2**31), 2**31 - 1, (WARPS, 16, 8)).astype(np.int32)
    d = _run("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", "m16n8k32", a, b, c)
    expect = (np.matmul(a.astype(np.int64), b.astype(np.int64)) + c).astype(np.int32)
    np.testing.assert_array_equal(d, expect)


def test_mma_shape_the_simulator_does_not_run_is_refused() -> None:
    ptx = _ptx("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", 4)
    a, b, c, d = (np.zeros(64 * n, np.uint32) for n in (4, 2, 4, 4))
    with pytest.raises(SimulationError, match="is not supported"):
        simulate_ptx(ptx, (1, 1, 1), [a, b, c, d], block=64)
