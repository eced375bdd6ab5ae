"""``ltc-sim`` and ``ltc.simulate_ptx`` (ltc/tools/sim_cli.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ltc
from ltc.tools.sim_cli import main

VECTOR_ADD = Path(__file__).resolve().parent.parent / "examples" / "triton" / "vector_add.ptx"
N = 1500


@pytest.fixture
def inputs(tmp_path):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(N).astype(np.float32)
    y = rng.standard_normal(N).astype(np.float32)
    for name, a in (("x", x), ("y", y), ("out", np.zeros(N, np.float32))):
        np.save(tmp_path / f"{name}.npy", a)
    return tmp_path, x, y


def _args(d: Path, n: int = N) -> list[str]:
    return [
        "--arg", f"vector_add_param_0={d / 'x.npy'}",
        "--arg", f"1={d / 'y.npy'}",
        "--arg", f"vector_add_param_2={d / 'out.npy'}",
        "--arg", f"3={n}",
        "--arg", "4=null",
        "--arg", "vector_add_param_5=null",
    ]


def test_runs_and_writes_outputs(inputs, capsys):
    d, x, y = inputs
    rc = main([str(VECTOR_ADD), "--grid", "2", *_args(d), "--out", str(d / "res")])
    assert rc == 0
    got = np.load(d / "res" / "vector_add_param_2.npy")
    assert np.array_equal(got, x + y)
    assert np.array_equal(np.load(d / "res" / "vector_add_param_0.npy"), x)
    table = capsys.readouterr().out
    assert "vector_add" in table and "global loads 32-bit" in table
    assert not np.load(d / "out.npy").any()  # --out leaves the inputs alone


def test_in_place_and_json(inputs, capsys):
    d, x, y = inputs
    rc = main([str(VECTOR_ADD), "--grid", "2,1,1", *_args(d), "--in-place", "--json"])
    assert rc == 0
    assert np.array_equal(np.load(d / "out.npy"), x + y)
    stats = json.loads(capsys.readouterr().out)
    assert stats["kernel"] == "vector_add" and stats["grid"] == [2, 1, 1] and stats["ctas"] == 2
    # BLOCK = 1024, 128 threads: each warp stores 8 times, element cta * 1024 + k * 128
    # + lane + 32 w; a warp counts when one of its lanes is in bounds
    assert stats["global_stores"] == {"32": sum(
        1 for cta in range(2) for w in range(4) for k in range(8) if cta * 1024 + k * 128 + w * 32 < N
    )}
    assert set(stats["line_counts"]) and all(k.isdigit() for k in stats["line_counts"])


def _err(capsys) -> str:
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return captured.err


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--arg", "7=1"], "has no parameter '7'"),
        (["--arg", "3"], "takes NAME=VALUE"),
        (["--arg", "3=abc"], "neither a .npy file"),
        (["--arg", "3=2", "--arg", "vector_add_param_3=2"], "given twice"),
        (["--grid", "0"], "--grid takes"),
        (["--block", "64"], "differs from the kernel's .reqntid"),
    ],
)
def test_usage_errors(inputs, capsys, extra, message):
    d, _, _ = inputs
    args = _args(d)
    if extra[0] == "--arg" and extra[1].startswith("3"):
        args = args[:6] + args[8:]  # drop the existing n
    rc = main([str(VECTOR_ADD), *args, *extra])
    assert rc == 1
    err = _err(capsys)
    assert err.startswith("error: ") and message in err


def test_missing_arguments(inputs, capsys):
    d, _, _ = inputs
    rc = main([str(VECTOR_ADD), "--arg", f"0={d / 'x.npy'}"])
    assert rc == 1
    assert "missing --arg for vector_add_param_1" in _err(capsys)


def test_out_of_bounds_names_the_ptx_line(inputs, capsys):
    d, _, _ = inputs
    rc = main([str(VECTOR_ADD), "--grid", "2", *_args(d, n=2048)])
    assert rc == 1
    err = _err(capsys)
    line = int(err.split(":")[1])
    assert err.startswith(f"{VECTOR_ADD}:{line}:") and "outside every global buffer" in err
    assert "ld.global" in VECTOR_ADD.read_text().splitlines()[line - 1]


def test_syntax_error_and_missing_file(tmp_path, capsys):
    bad = tmp_path / "bad.ptx"
    bad.write_text(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n  ret\n}\n")
    assert main([str(bad)]) == 1
    assert _err(capsys).startswith(f"{bad}:7:1: error: unexpected '}}'")
    assert main([str(tmp_path / "nope.ptx")]) == 1
    assert _err(capsys).startswith("error: cannot read")


def test_divergent_branch_is_a_positioned_error(tmp_path, capsys):
    ptx = tmp_path / "div.ptx"
    ptx.write_text(
        ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n.reqntid 64\n{\n"
        "  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n  mov.u32 %r1, %tid.x;\n  setp.lt.u32 %p1, %r1, 3;\n"
        "  @%p1 bra DONE;\nDONE:\n  ret;\n}\n"
    )
    assert main([str(ptx)]) == 1
    assert _err(capsys).startswith(f"{ptx}:11:3: error: divergent branch")


def test_library_entry_point():
    x = np.arange(N, dtype=np.float32)
    out = np.zeros(N, np.float32)
    stats = ltc.simulate_ptx(VECTOR_ADD.read_text(), 2, [x, x, out, N, None, None])
    assert np.array_equal(out, 2 * x) and stats.ctas == 2


def test_import_ltc_stays_light():
    code = "import sys, ltc; bad = [m for m in sys.modules if m.split('.')[0] in ('lark', 'xdsl')]; print(bad); sys.exit(bool(bad))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.skipif(shutil.which("ltc-sim") is None, reason="ltc-sim not installed (pip install -e .)")
def test_console_script(inputs):
    d, x, y = inputs
    proc = subprocess.run(["ltc-sim", str(VECTOR_ADD), "--grid", "2", *_args(d), "--in-place"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert np.array_equal(np.load(d / "out.npy"), x + y)
