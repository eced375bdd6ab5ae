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
    # outputs are named param_<N> after the PTX parameters vector_add_param_<N>
    assert sorted(f.name for f in (d / "res").iterdir()) == ["param_0.npy", "param_1.npy", "param_2.npy"]
    got = np.load(d / "res" / "param_2.npy")
    assert np.array_equal(got, x + y)
    assert np.array_equal(np.load(d / "res" / "param_0.npy"), x)
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
        (["--arg", "3"], "--arg takes KEY=VALUE, got '3'"),
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
    assert err.startswith("ltc-sim: error: ") and message in err


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
    assert _err(capsys).startswith(f"ltc-sim: error: cannot read '{tmp_path / 'nope.ptx'}'")


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


# -- issue 19, item 10: help, parameter keys, exit codes, binary input, dtypes --------------


def _run_cli(*argv: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("ltc-sim")
    cmd = [exe] if exe else [sys.executable, "-m", "ltc.tools.sim_cli"]
    return subprocess.run([*cmd, *argv], capture_output=True, text=True)


def test_help_is_plain_text_and_says_what_keys_values_and_exits_are():
    proc = _run_cli("--help")
    assert proc.returncode == 0 and proc.stderr == ""
    text = proc.stdout
    assert "``" not in text and ":func:" not in text  # no reST
    assert "KEY is the\n  parameter's position in the PTX .entry (0, 1, ...) or its PTX name" in text
    assert "(the Triton argument names are gone)" in text
    for form in ("FILE.npy", "null", "0x2a", "1e-5"):
        assert form in text
    assert "DIR/param_<N>.npy" in text
    assert "exit status: 0 ok, 1 bad input" in text and "2 usage\nerror, 3 internal error" in text


def test_short_parameter_keys(inputs):
    d, x, y = inputs
    args = ["--arg", f"param_0={d / 'x.npy'}", "--arg", f"param_1={d / 'y.npy'}", "--arg", f"2={d / 'out.npy'}",
            "--arg", f"param_3={N}", "--arg", "param_4=null", "--arg", "5=null"]
    assert main([str(VECTOR_ADD), "--grid", "2", *args, "--in-place"]) == 0
    assert np.array_equal(np.load(d / "out.npy"), x + y)


def test_a_triton_argument_name_is_explained(inputs):
    d, _, _ = inputs
    proc = _run_cli(str(VECTOR_ADD), "--arg", f"x_ptr={d / 'x.npy'}")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[0] == (
        "ltc-sim: error: kernel 'vector_add' has no parameter 'x_ptr' (its PTX parameters: 0=vector_add_param_0, "
        "1=vector_add_param_1, 2=vector_add_param_2, 3=vector_add_param_3, 4=vector_add_param_4, "
        "5=vector_add_param_5; KEY is a PTX parameter's index or name, not a Triton argument name)"
    )


def test_binary_input_is_not_a_text_ptx_file(tmp_path):
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes(b"\x7fELF\x02\x01\x01\x00\xff\xfe\x00\x00" * 8)
    proc = _run_cli(str(cubin))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[0] == (
        f"ltc-sim: error: '{cubin}' is not a text PTX file (it holds binary data; a .cubin is not PTX)"
    )


def test_usage_error_exit_status(tmp_path):
    proc = _run_cli(str(VECTOR_ADD), "--no-such-option")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[-1] == "ltc-sim: error: unrecognized arguments: --no-such-option"


def _int_inputs(d: Path) -> None:
    np.save(d / "xi.npy", np.arange(N, dtype=np.int32))


def test_an_int32_array_for_an_f32_pointer_is_refused(inputs):
    d, _, _ = inputs
    _int_inputs(d)
    args = _args(d)
    args[1] = f"vector_add_param_0={d / 'xi.npy'}"
    proc = _run_cli(str(VECTOR_ADD), "--grid", "2", *args)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[0] == (
        f"ltc-sim: error: parameter 0 (vector_add_param_0) points to f32 (as the kernel's instructions use it) "
        f"but '{d / 'xi.npy'}' holds int32: convert the array, declare the type with --dtype 0=TYPE, "
        "or pass --reinterpret to use its bytes as they are"
    )


def test_reinterpret_and_dtype_take_the_bytes(inputs, capsys):
    d, _, y = inputs
    _int_inputs(d)
    args = _args(d)
    args[1] = f"vector_add_param_0={d / 'xi.npy'}"
    want = np.arange(N, dtype=np.int32).view(np.float32) + y
    assert main([str(VECTOR_ADD), "--grid", "2", *args, "--reinterpret", "--in-place"]) == 0
    assert np.array_equal(np.load(d / "out.npy"), want)
    np.save(d / "out.npy", np.zeros(N, np.float32))
    assert main([str(VECTOR_ADD), "--grid", "2", *args, "--dtype", "0=int32", "--in-place"]) == 0
    assert np.array_equal(np.load(d / "out.npy"), want)
    # a declared type is checked as well
    assert main([str(VECTOR_ADD), "--grid", "2", *_args(d), "--dtype", "param_1=f16"]) == 1
    err = _err(capsys)
    assert err.startswith("ltc-sim: error: parameter 1 (vector_add_param_1) points to f16 (declared with --dtype)")


def test_unknown_dtype_name(inputs, capsys):
    d, _, _ = inputs
    assert main([str(VECTOR_ADD), *_args(d), "--dtype", "0=float128"]) == 1
    assert _err(capsys).startswith("ltc-sim: error: --dtype takes KEY=TYPE with TYPE one of ")


def test_pointee_types_of_the_example_kernels():
    from ltc.lowering.ptxsim.parse import parse_ptx
    from ltc.tools.ptx_pointee import Element, pointee_types

    examples = VECTOR_ADD.parent
    f16, f32 = Element("f", 16), Element("f", 32)
    got = pointee_types(parse_ptx((examples / "layer_norm.ptx").read_text()).kernel(None))
    assert got == {0: {f16}, 1: {f16}, 2: {f32}, 3: {f32}, 7: set(), 8: set()}
    got = pointee_types(parse_ptx(VECTOR_ADD.read_text()).kernel(None))
    assert got == {0: {f32}, 1: {f32}, 2: {f32}, 4: set(), 5: set()}
