"""Issue 6 acceptance: example kernels compile to PTX that ptxas accepts (sm_90, sm_80), to
LLVM IR that llc then ptxas accept, and the PTX simulator runs the PTX on random inputs
and matches numpy (vector add, softmax, layer norm, a transpose, conversion kernels)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from ltc.tools.pipeline import compile_kernel

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "triton"
CODEGEN_EXAMPLES = ("vector_add", "softmax", "layer_norm", "transpose")

sys.path.insert(0, str(ROOT / "benchmarks"))


def _need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} is not on PATH")
    return path


def ptxas_ok(ptx: str, arch: str) -> None:
    """Assemble ``ptx`` for ``arch``; fail with ptxas's message if it refuses."""
    ptxas = _need("ptxas")
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "k.ptx"
        src.write_text(ptx)
        proc = subprocess.run([ptxas, f"-arch={arch}", str(src), "-o", str(Path(d) / "k.cubin")],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr


def llc_ok(llvm_ir: str) -> str:
    """``llc -march=nvptx64 -mcpu=sm_80`` of ``llvm_ir``; returns the PTX."""
    llc = _need("llc")
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "k.ll"
        src.write_text(llvm_ir)
        out = Path(d) / "k.ptx"
        proc = subprocess.run([llc, "-march=nvptx64", "-mcpu=sm_80", str(src), "-o", str(out)],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        return out.read_text()


def _source(name: str, stage: str = "ttgir") -> str:
    return (EXAMPLES / f"{name}.{stage}").read_text()


@pytest.mark.parametrize("stage", ["ttgir", "ttir"])
@pytest.mark.parametrize("name", CODEGEN_EXAMPLES)
@pytest.mark.parametrize("arch", ["sm_90", "sm_80"])
def test_example_ptx_assembles(name: str, stage: str, arch: str) -> None:
    ptx = compile_kernel(_source(name, stage), emit="ptx", target=arch)
    assert f".target {arch}" in ptx
    ptxas_ok(ptx, arch)


@pytest.mark.parametrize("name", CODEGEN_EXAMPLES)
def test_example_llvm_ir_through_llc_and_ptxas(name: str) -> None:
    ir = compile_kernel(_source(name), emit="llvm", target="sm_80")
    ptx = llc_ok(ir)
    ptxas_ok(ptx, "sm_80")


# ----------------------------------------------------------------------------------------
# running the PTX
# ----------------------------------------------------------------------------------------


def _simulate(ptx: str, grid: tuple[int, ...], args: list[object]):  # noqa: ANN202
    from ltc import simulate_ptx

    return simulate_ptx(ptx, grid=grid, args=args)


@pytest.mark.parametrize("stage", ["ttgir", "ttir"])
def test_vector_add_runs(stage: str) -> None:
    rng = np.random.default_rng(0)
    n = 2500  # not a multiple of the block: the mask matters
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    ptx = compile_kernel(_source("vector_add", stage), emit="ptx")
    _simulate(ptx, (3, 1, 1), [x, y, out, n])
    np.testing.assert_array_equal(out, x + y)


@pytest.mark.parametrize("stage", ["ttgir", "ttir"])
def test_softmax_runs(stage: str) -> None:
    rng = np.random.default_rng(1)
    rows, cols, stride = 3, 1000, 1024
    x = rng.standard_normal((rows, stride)).astype(np.float32)
    out = np.zeros((rows, stride), np.float32)
    ptx = compile_kernel(_source("softmax", stage), emit="ptx")
    _simulate(ptx, (rows, 1, 1), [out, x, stride, stride, cols])
    e = np.exp(x[:, :cols] - x[:, :cols].max(axis=1, keepdims=True))
    np.testing.assert_allclose(out[:, :cols], e / e.sum(axis=1, keepdims=True), rtol=2e-5, atol=1e-7)
    assert not out[:, cols:].any()  # masked columns untouched


@pytest.mark.parametrize("stage", ["ttgir", "ttir"])
def test_layer_norm_runs(stage: str) -> None:
    rng = np.random.default_rng(2)
    rows, n, stride, eps = 2, 1500, 2048, 1e-5
    x = rng.standard_normal((rows, stride)).astype(np.float16)
    w, b = rng.standard_normal(stride).astype(np.float32), rng.standard_normal(stride).astype(np.float32)
    y = np.zeros((rows, stride), np.float16)
    ptx = compile_kernel(_source("layer_norm", stage), emit="ptx", num_warps=8)
    _simulate(ptx, (rows, 1, 1), [x, y, w, b, stride, n, np.float32(eps)])
    xf = x[:, :n].astype(np.float32)
    mean = xf.mean(axis=1, keepdims=True)
    rstd = 1 / np.sqrt(((xf - mean) ** 2).mean(axis=1, keepdims=True) + eps)
    ref = ((xf - mean) * rstd * w[:n] + b[:n]).astype(np.float16)
    np.testing.assert_allclose(y[:, :n].astype(np.float32), ref.astype(np.float32), rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("stage", ["ttgir", "ttir"])
def test_transpose_runs(stage: str) -> None:
    rng = np.random.default_rng(3)
    m, n = 128, 192
    x = rng.standard_normal((m, n)).astype(np.float16)
    y = np.zeros((n, m), np.float16)
    ptx = compile_kernel(_source("transpose", stage), emit="ptx")
    stats = _simulate(ptx, (m // 64, n // 64, 1), [x, y, m, n])
    np.testing.assert_array_equal(y, x.T)
    assert stats is not None


_CONVERT_SAMPLE = (
    "blkT_64x64_f16_w4", "blkT_64x64_i8_w4", "blkT_128x64_fp8e4nv_w8", "blk2mma2_128x64_f32_w8",
    "mma2blk_64x64_i8_w4", "blk2mma3_64x64_f16_w4", "mma3blk_128x128_f16_w8", "mma2dot1k2_64x64_f16_w4",
    "mma2dot0k2_64x64_bf16_w4", "slcB0toB1_128_f32_w4", "slcDotToB_64_i8_w4", "laneRot_32x16_f16_w4",
    "laneRev_64x32_i8_w8", "regRot_64x64_i8_w8", "brdBlkT_8x32_f16_w4", "brdToBlk_16x16_i8_w4",
)


@pytest.mark.parametrize("name", _CONVERT_SAMPLE)
def test_conversion_kernel_runs(name: str) -> None:
    """A conversion kernel (load in src, convert, store in dst) copies its input exactly."""
    pytest.importorskip("triton", reason="the conversion kernels are Triton's TTGIR")
    from convert_cases import CASES
    from triton_convert import kernel_ttgir

    case = next(c for c in CASES if c.name == name)
    ptx = compile_kernel(kernel_ttgir(case), emit="ptx")
    ptxas_ok(ptx, "sm_90")
    nbytes = int(np.prod(case.shape)) * case.elem_bits // 8
    rng = np.random.default_rng(4)
    src = rng.integers(0, 256, nbytes, dtype=np.uint8)
    dst = np.zeros(nbytes, np.uint8)
    _simulate(ptx, (1, 1, 1), [src, dst])
    np.testing.assert_array_equal(dst, src)


def test_i1_tensor_stores_pack_bytes() -> None:
    """Four i1 elements per thread are stored as one 32-bit word of four bytes (i1 travels
    as a byte), and each byte is 0 or 1."""
    text = (ROOT / "tests" / "filecheck" / "conversion" / "inputs" / "store_i1.ttgir").read_text()
    ptx = compile_kernel(text, emit="ptx")
    assert [ln.split()[0] for ln in ptx.splitlines() if "st.global" in ln] == ["st.global.b32"]
    x = np.random.default_rng(5).integers(0, 3, 128).astype(np.uint8)
    y = np.full(128, 7, np.uint8)
    _simulate(ptx, (1, 1, 1), [x, y])
    np.testing.assert_array_equal(y, (x != 0).astype(np.uint8))
