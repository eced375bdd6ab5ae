"""``math.floor`` / ``math.ceil`` / ``math.trunc``: ``cvt.rmi`` / ``cvt.rpi`` / ``cvt.rzi``
(f16 and bf16 through f32, exact), equal to numpy's in the simulator, signed zeros and
infinities included; ptxas accepts the PTX and llc the LLVM IR."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

from ltc import simulate_ptx
from ltc.tools.pipeline import compile_kernel

_KERNEL = """#B = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @k(%x: !tt.ptr<{t}> {{tt.divisibility = 16 : i32}}, %o: !tt.ptr<{t}> {{tt.divisibility = 16 : i32}}) {{
    %r = tt.make_range {{end = 128 : i32, start = 0 : i32}} : tensor<128xi32, #B>
    %xp = tt.splat %x : !tt.ptr<{t}> -> tensor<128x!tt.ptr<{t}>, #B>
    %xa = tt.addptr %xp, %r : tensor<128x!tt.ptr<{t}>, #B>, tensor<128xi32, #B>
    %v = tt.load %xa : tensor<128x!tt.ptr<{t}>, #B>
    %f = math.{op} %v : tensor<128x{t}, #B>
    %op = tt.splat %o : !tt.ptr<{t}> -> tensor<128x!tt.ptr<{t}>, #B>
    %oa = tt.addptr %op, %r : tensor<128x!tt.ptr<{t}>, #B>, tensor<128xi32, #B>
    tt.store %oa, %f : tensor<128x!tt.ptr<{t}>, #B>
    tt.return
  }}
}}
"""


@pytest.mark.parametrize(("op", "fn", "mode"), [("floor", np.floor, "rmi"), ("ceil", np.ceil, "rpi"), ("trunc", np.trunc, "rzi")])
@pytest.mark.parametrize(("t", "dtype"), [("f32", np.float32), ("f16", np.float16), ("f64", np.float64)])
def test_rounding_to_integer_values(op: str, fn, mode: str, t: str, dtype: type) -> None:  # noqa: ANN001
    text = _KERNEL.format(t=t, op=op)
    ptx = compile_kernel(text, emit="ptx")
    assert f"cvt.{mode}." in ptx
    x = (np.random.default_rng(0).standard_normal(128) * 8).astype(dtype)
    x[:6] = [-0.0, 2.5, -2.5, np.inf, -np.inf, -0.25]
    out = np.zeros(128, dtype)
    simulate_ptx(ptx, (1, 1, 1), [x, out])
    np.testing.assert_array_equal(out, fn(x))
    assert np.array_equal(np.signbit(out), np.signbit(fn(x)))  # -0.25 -> -0.0 for ceil and trunc
    for tool, args, name in (("ptxas", ["-arch=sm_90"], "k.ptx"), ("llc", ["-march=nvptx64", "-mcpu=sm_80"], "k.ll")):
        exe = shutil.which(tool)
        if exe is None:
            continue
        with tempfile.TemporaryDirectory() as d:
            src = Path(d) / name
            src.write_text(ptx if tool == "ptxas" else compile_kernel(text, emit="llvm"))
            proc = subprocess.run([exe, *args, str(src), "-o", str(Path(d) / "out")], capture_output=True, text=True)
            assert proc.returncode == 0, proc.stderr
