"""A ``ttg.convert_layout`` of a *pointer* tensor through shared memory (issue 19, item 1).

Pointers travel through shared memory as 64-bit words: the inline asm stores and loads
the pointers themselves (no ``ptrtoint`` / ``inttoptr`` per element). The kernel converts the x pointers between two blocked layouts that
need shared memory (a transpose of the thread order), loads through them and stores at y
pointers built directly in the destination layout, so a wrong pointer lands in the wrong
place: y must equal x exactly, in ltc's PTX simulator and in the value interpreter.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ltc.lowering.ptxsim.run import simulate_ptx
from ltc.passes.interpret import run_kernel
from ltc.tools.pipeline import compile_kernel
from tests.emit_fixtures import llc, needs_llc_and_simulator, parse
from tests.test_codegen_examples import ptxas_ok

_SRC = "#ttg.slice<{dim = 1, parent = #a}>"
_SRC0 = "#ttg.slice<{dim = 0, parent = #a}>"
_DST = "#ttg.slice<{dim = 1, parent = #b}>"
_DST0 = "#ttg.slice<{dim = 0, parent = #b}>"


def _offsets(layout: str, rows: str, cols: str, tag: str) -> str:
    """``%{tag}off = row * 32 + col`` as a 32x32 i32 tensor in ``#layout``."""
    t = f"tensor<32x32xi32, #{layout}>"
    return f"""
    %{tag}r = tt.make_range {{end = 32 : i32, start = 0 : i32}} : tensor<32xi32, {rows}>
    %{tag}c = tt.make_range {{end = 32 : i32, start = 0 : i32}} : tensor<32xi32, {cols}>
    %{tag}r2 = tt.expand_dims %{tag}r {{axis = 1 : i32}} : tensor<32xi32, {rows}> -> tensor<32x1xi32, #{layout}>
    %{tag}k = arith.constant dense<32> : tensor<32x1xi32, #{layout}>
    %{tag}rs = arith.muli %{tag}r2, %{tag}k : tensor<32x1xi32, #{layout}>
    %{tag}c2 = tt.expand_dims %{tag}c {{axis = 0 : i32}} : tensor<32xi32, {cols}> -> tensor<1x32xi32, #{layout}>
    %{tag}rb = tt.broadcast %{tag}rs : tensor<32x1xi32, #{layout}> -> {t}
    %{tag}cb = tt.broadcast %{tag}c2 : tensor<1x32xi32, #{layout}> -> {t}
    %{tag}off = arith.addi %{tag}rb, %{tag}cb : {t}"""


KERNEL = f"""#a = #ttg.blocked<{{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}}>
#b = #ttg.blocked<{{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @ptr_convert(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<f32>) {{{_offsets("a", _SRC, _SRC0, "s")}{_offsets("b", _DST, _DST0, "d")}
    %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #a>
    %xp = tt.addptr %xs, %soff : tensor<32x32x!tt.ptr<f32>, #a>, tensor<32x32xi32, #a>
    %xq = ttg.convert_layout %xp : tensor<32x32x!tt.ptr<f32>, #a> -> tensor<32x32x!tt.ptr<f32>, #b>
    %ys = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #b>
    %yp = tt.addptr %ys, %doff : tensor<32x32x!tt.ptr<f32>, #b>, tensor<32x32xi32, #b>
    %v = tt.load %xq : tensor<32x32x!tt.ptr<f32>, #b>
    tt.store %yp, %v : tensor<32x32x!tt.ptr<f32>, #b>
    tt.return
  }}
}}
"""


def test_pointer_conversion_goes_through_shared_memory() -> None:
    ptx = compile_kernel(KERNEL, emit="ptx")
    assert "st.shared.b64" in ptx or "st.shared.v2.b64" in ptx  # pointers as 64-bit words
    assert "ld.shared" in ptx


@pytest.mark.parametrize("arch", ["sm_90", "sm_80"])
def test_pointer_conversion_assembles(arch: str) -> None:
    ptxas_ok(compile_kernel(KERNEL, emit="ptx", target=arch), arch)


def test_pointer_conversion_runs_exactly() -> None:
    x = np.random.default_rng(7).standard_normal(32 * 32).astype(np.float32)
    y = np.full(32 * 32, np.nan, np.float32)
    stats = simulate_ptx(compile_kernel(KERNEL, emit="ptx"), (1, 1, 1), [x, y])
    assert stats.shared_stores > 0 and stats.shared_loads > 0
    np.testing.assert_array_equal(y, x)
    # the value interpreter agrees (bit for bit)
    z = np.full(32 * 32, np.nan, np.float32)
    run_kernel(parse(KERNEL), [x, z])
    np.testing.assert_array_equal(z.view(np.uint32), y.view(np.uint32))


@needs_llc_and_simulator
def test_pointers_cross_shared_memory_without_casts() -> None:
    """The lowered conversion has no ptrtoint/inttoptr of a global pointer (the shared
    stores and loads take and give pointers); LLVM's own tools accept that IR and the
    PTX llc makes from it moves every pointer exactly."""
    lowered = compile_kernel(KERNEL, emit="mlir")
    assert "st.shared" in lowered and "ld.shared" in lowered
    assert "!llvm.ptr<1> to i64" not in lowered and "i64 to !llvm.ptr<1>" not in lowered
    ptx = llc(compile_kernel(KERNEL, emit="llvm"))
    x = np.random.default_rng(8).standard_normal(32 * 32).astype(np.float32)
    y = np.full(32 * 32, np.nan, np.float32)
    simulate_ptx(ptx, (1, 1, 1), [x, y])
    np.testing.assert_array_equal(y, x)


def test_ltc_opt_emits_ptx_for_a_pointer_conversion(tmp_path: Path) -> None:
    """The command of the issue: exit 0, PTX on stdout, nothing on stderr (it was exit 3,
    ``internal error: TypeError: IntToPtrOp.__init__() ...``)."""
    src = tmp_path / "k.ttgir"
    src.write_text(KERNEL)
    exe = shutil.which("ltc-opt")
    cmd = [exe] if exe else [sys.executable, "-m", "ltc.tools.opt"]
    proc = subprocess.run([*cmd, str(src), "--emit", "ptx"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "Traceback" not in proc.stderr
    assert ".entry ptr_convert(" in proc.stdout
