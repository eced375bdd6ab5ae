"""Functions of several blocks (early returns: ``cf.cond_br`` / ``cf.br``) through every stage.

The layout passes treat a branch operand like an ``scf.yield`` operand (the block
argument takes its layout, no conversion is left); axis info flows through branches;
the interpreter follows them; the lowering rewrites the function into ``scf.if``
(``ltc-structurize-cf``) and its PTX computes what the interpreter computes; a loop of
branches is refused by name. Kernels compiled by Triton with early returns
(``/tmp/fgcorpus``, skipped when absent) lay out and lower.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from ltc.tools import opt
from ltc.tools.pipeline import compile as compile_text
from ltc.tools.pipeline import parse_module
from tests import oracle

LAYOUT = "convert-triton-to-tritongpu{num-warps=4 target=cuda:90},ltc-assign-layouts"

# z = n > 0 ? exp(x) : x, joined in ^bb3; then out[i] = z[i]
DIAMOND = """module {
  tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c = arith.cmpi sgt, %n, %c0 : i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %pp = tt.addptr %ps, %r : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %qp = tt.addptr %qs, %r : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %x = tt.load %pp : tensor<1024x!tt.ptr<f32>>
    cf.cond_br %c, ^bb1(%x : tensor<1024xf32>), ^bb2
  ^bb1(%a: tensor<1024xf32>):
    %e = math.exp %a : tensor<1024xf32>
    cf.br ^bb3(%e : tensor<1024xf32>)
  ^bb2:
    cf.br ^bb3(%x : tensor<1024xf32>)
  ^bb3(%z: tensor<1024xf32>):
    tt.store %qp, %z : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}
"""

# Early exit for program ids >= n; the pointer tensor reaches the load as a block argument.
EARLY_EXIT = """module {
  tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %pid = tt.get_program_id x : i32
    %done = arith.cmpi sge, %pid, %n : i32
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
    %c512 = arith.constant 512 : i32
    %base = arith.muli %pid, %c512 : i32
    %off = tt.splat %base : i32 -> tensor<512xi32>
    %idx = arith.addi %off, %r : tensor<512xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
    %pp = tt.addptr %ps, %idx : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
    cf.cond_br %done, ^exit, ^work(%pp : tensor<512x!tt.ptr<f32>>)
  ^exit:
    tt.return
  ^work(%a: tensor<512x!tt.ptr<f32>>):
    %x = tt.load %a : tensor<512x!tt.ptr<f32>>
    %y = arith.addf %x, %x : tensor<512xf32>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
    %qp = tt.addptr %qs, %idx : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
    tt.store %qp, %y : tensor<512x!tt.ptr<f32>>
    tt.return
  }
}
"""

LOOP = """module {
  tt.func public @k(%n: i32) {
    %c1 = arith.constant 1 : i32
    cf.br ^bb1(%n : i32)
  ^bb1(%i: i32):
    %j = arith.subi %i, %c1 : i32
    %c = arith.cmpi sgt, %j, %c1 : i32
    cf.cond_br %c, ^bb1(%j : i32), ^bb2
  ^bb2:
    tt.return
  }
}
"""


def _run_opt(argv: list[str], text: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = opt.run([*argv, "-"], io.StringIO(text), out, err)
    return rc, out.getvalue(), err.getvalue()


def test_block_arguments_take_the_layout_of_their_uses() -> None:
    text = compile_text(DIAMOND, LAYOUT)
    assert "ttg.convert_layout" not in text
    blocked = "#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
    assert text.splitlines()[0] == blocked
    # cond_br's operand, ^bb1's argument, math.exp, the two cf.br operands, ^bb3's argument
    assert text.count("tensor<1024xf32, #blocked>") == 6
    if oracle.HAVE_TRITON:
        oracle.triton_reprint(text)


def test_axis_info_flows_through_branches() -> None:
    """The pointer reaches its load through a block argument and is still known
    contiguous and 16-byte aligned: the load is vectorized (4 per thread)."""
    text = compile_text(EARLY_EXIT, LAYOUT)
    assert text.splitlines()[0].startswith("#blocked = #ttg.blocked<{sizePerThread = [4],")
    assert "ttg.convert_layout" not in text


@pytest.mark.parametrize("n", [3, -1])
def test_interpreter_follows_branches(n: int) -> None:
    from ltc.passes.interpret import run_kernel

    x = np.linspace(-2, 2, 1024, dtype=np.float32)
    out = np.zeros(1024, dtype=np.float32)
    run_kernel(parse_module(DIAMOND), [x, out, n])
    expected = np.exp(x) if n > 0 else x
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def test_interpreter_early_exit() -> None:
    from ltc.passes.interpret import run_kernel

    x = np.arange(2048, dtype=np.float32)
    out = np.full(2048, -1.0, dtype=np.float32)
    stats = run_kernel(parse_module(EARLY_EXIT), [x, out, 3], grid=(4,))
    np.testing.assert_array_equal(out[:1536], 2 * x[:1536])
    np.testing.assert_array_equal(out[1536:], -1.0)
    assert stats.op_counts["tt.store"] == 3


def test_structurize_keeps_the_interpreted_result() -> None:
    from ltc.passes.interpret import run_kernel

    laid_out = compile_text(DIAMOND, LAYOUT + ",ltc-structurize-cf")
    assert "cf.br" not in laid_out and "cf.cond_br" not in laid_out and laid_out.count("scf.if") == 1
    if oracle.HAVE_TRITON:
        oracle.triton_reprint(laid_out)
    x = np.linspace(-2, 2, 1024, dtype=np.float32)
    for n in (3, -1):
        out = np.zeros(1024, dtype=np.float32)
        run_kernel(parse_module(laid_out), [x, out, n])
        np.testing.assert_allclose(out, np.exp(x) if n > 0 else x, rtol=1e-6)


def _needs_simulator():  # noqa: ANN202
    from importlib.util import find_spec

    return pytest.mark.skipif(find_spec("ltc.lowering.ptxsim.run") is None, reason="no PTX simulator")


@_needs_simulator()
def test_ptx_of_early_exit_kernel() -> None:
    from ltc.lowering.ptxsim.run import simulate_ptx

    rc, ptx, err = _run_opt(["--emit", "ptx"], EARLY_EXIT)
    assert rc == 0, err
    x = np.arange(2048, dtype=np.float32)
    out = np.full(2048, -1.0, dtype=np.float32)
    simulate_ptx(ptx, (4, 1, 1), [x, out, np.int32(3)])
    np.testing.assert_array_equal(out[:1536], 2 * x[:1536])
    np.testing.assert_array_equal(out[1536:], -1.0)


@_needs_simulator()
@pytest.mark.parametrize("n", [3, -1])
def test_ptx_of_diamond_kernel(n: int) -> None:
    from ltc.lowering.ptxsim.run import simulate_ptx

    rc, ptx, err = _run_opt(["--emit", "ptx"], DIAMOND)
    assert rc == 0, err
    x = np.linspace(-2, 2, 1024, dtype=np.float32)
    out = np.zeros(1024, dtype=np.float32)
    simulate_ptx(ptx, (1, 1, 1), [x, out, np.int32(n)])
    np.testing.assert_allclose(out, np.exp(x) if n > 0 else x, rtol=1e-5, atol=1e-6)


def test_loop_of_branches_is_refused_by_name() -> None:
    rc, out, err = _run_opt(["--emit", "ptx"], LOOP)
    assert rc == 1 and out == ""
    first = err.splitlines()[0]
    assert first == (
        "<stdin>:8:5: error: convert-tritongpu-to-llvm: 'cf.cond_br' forms a loop of blocks: "
        "loops made of branches are not supported"
    )
    assert "Traceback" not in err


def test_layout_passes_accept_a_loop_of_branches() -> None:
    rc, out, err = _run_opt(["-p", LAYOUT], LOOP)
    assert rc == 0, err
    assert "cf.cond_br %c, ^bb1(%j : i32), ^bb2" in out


FGCORPUS = Path("/tmp/fgcorpus")
_MULTIBLOCK = sorted(p for p in FGCORPUS.glob("*.tt*ir") if "cf.cond_br" in p.read_text()) if FGCORPUS.is_dir() else []


@pytest.mark.skipif(not _MULTIBLOCK, reason="no compiled multi-block kernels in /tmp/fgcorpus")
@pytest.mark.parametrize("path", _MULTIBLOCK[:4], ids=lambda p: p.name)
def test_compiled_kernels_with_early_returns(path: Path) -> None:
    text = path.read_text()
    if path.suffix == ".ttir":
        rc, _, err = _run_opt(["-p", LAYOUT], text)
        assert rc == 0, err
    rc, ptx, err = _run_opt(["--emit", "ptx"], text)
    assert rc == 0, err
    assert ".entry" in ptx
