"""``ltc-opt`` refuses what it cannot do as a usage error (exit 2, one line naming the
option and what it accepts) or as bad input at the offending line (exit 1) — never a
traceback, never an internal error, never silently.

Each case is a mistake a newcomer made (issue: "a newcomer's first hour").
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ltc.tools import opt

EXAMPLES = Path(__file__).parent.parent / "examples" / "triton"
TTIR = EXAMPLES / "vector_add.ttir"
TTGIR = EXAMPLES / "vector_add.ttgir"


def run_opt(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = opt.run(list(argv), io.StringIO(stdin), out, err)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("pipeline", "first_line"),
    [
        (
            "convert-triton-to-tritongpu{num-warps=4,ltc-assign-layouts",
            "ltc-opt: error: bad pass pipeline 'convert-triton-to-tritongpu{num-warps=4,ltc-assign-layouts' "
            "at column 59: Malformed pass arguments, expected either a space or `}` here",
        ),
        ("cse{", "ltc-opt: error: bad pass pipeline 'cse{' at column 5: Expected argument name here"),
        ("cse}", "ltc-opt: error: bad pass pipeline 'cse}' at column 4: Expected a comma or pass arguments here"),
        (",", "ltc-opt: error: bad pass pipeline ',' at column 1: Expected pass name here"),
        (
            "a{b=",
            "ltc-opt: error: bad pass pipeline 'a{b=' at column 5: "
            "Unknown argument value, wrap argument in quotes to pass arbitrary string values",
        ),
        (
            "no-such-pass",
            "ltc-opt: error: bad pass pipeline 'no-such-pass': unknown pass 'no-such-pass' "
            "(ltc-opt --help lists the passes and their options)",
        ),
    ],
)
def test_a_malformed_pipeline_is_one_usage_line(pipeline: str, first_line: str, tmp_path: Path) -> None:
    out_path = tmp_path / "out.mlir"
    status, stdout, stderr = run_opt(str(TTIR), "-p", pipeline, "-o", str(out_path))
    assert (status, stdout) == (opt.EXIT_USAGE, "")
    assert stderr.splitlines() == [first_line]
    assert not out_path.exists()


@pytest.mark.parametrize("warps", ["3", "0", "-4", "64", "1024"])
def test_num_warps_must_be_a_power_of_two_within_a_cta(warps: str) -> None:
    status, stdout, stderr = run_opt(str(TTIR), "--emit", "ptx", "--num-warps", warps)
    assert (status, stdout) == (opt.EXIT_USAGE, "")
    assert stderr.splitlines() == [
        f"ltc-opt: error: --num-warps: {warps} warps: must be a power of two from 1 to 32 "
        "(1024 threads per CTA at 32 threads per warp)"
    ]


def test_a_ttgir_module_beyond_1024_threads_is_refused_at_its_header(tmp_path: Path) -> None:
    text = TTGIR.read_text().replace('"ttg.num-warps" = 4', '"ttg.num-warps" = 64')
    text = text.replace("warpsPerCTA = [4]", "warpsPerCTA = [64]")
    path = tmp_path / "k.ttgir"
    path.write_text(text)
    status, stdout, stderr = run_opt(str(path), "--emit", "ptx")
    assert (status, stdout) == (opt.EXIT_INPUT, "")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("module attributes"))
    assert stderr.splitlines()[0] == (
        f"{path}:{line}:1: error: convert-tritongpu-to-llvm: ttg.num-warps: 64 warps: must be a power of two from 1 to 32 "
        "(1024 threads per CTA at 32 threads per warp)"
    )


@pytest.mark.parametrize("text", ["", "module {\n}\n", "// nothing here\n"])
@pytest.mark.parametrize("emit", ["llvm", "ptx"])
def test_emitting_code_for_an_input_without_a_kernel_is_refused(text: str, emit: str) -> None:
    status, stdout, stderr = run_opt("-", "--emit", emit, stdin=text)
    assert (status, stdout) == (opt.EXIT_INPUT, "")
    assert stderr.splitlines()[0] == "<stdin>:1:1: error: nothing to compile: the input has no tt.func"


def test_an_unsupported_op_in_the_lowering_pass_is_reported_at_the_op() -> None:
    # -p convert-tritongpu-to-llvm and --emit ptx point at the same op
    matmul = EXAMPLES / "matmul.ttgir"
    via_pass = run_opt(str(matmul), "-p", "convert-tritongpu-to-llvm")
    via_emit = run_opt(str(matmul), "--emit", "ptx")
    assert via_pass[0] == via_emit[0] == opt.EXIT_INPUT
    first = via_pass[2].splitlines()[0]
    assert first == via_emit[2].splitlines()[0]
    assert first.startswith(f"{matmul}:") and ":1:1:" not in first
    assert "is not supported" in first


def test_help_lists_every_pass_with_exactly_its_options_and_defaults() -> None:
    # the registry's descriptions end with "{name=default ...}"; the pass classes decide
    import re

    from xdsl.passes import get_pass_option_infos

    from ltc.tools.pipeline import all_passes

    status, stdout, _ = run_opt("--help")
    assert status == 0
    help_text = " ".join(stdout.split())
    for name, (factory, description) in all_passes().items():
        assert f"--{name} {' '.join(description.split())}" in help_text
        shown = re.search(r"\{([^{}]*)\}$", description)
        listed = dict(kv.split("=", 1) for kv in shown.group(1).split()) if shown else {}
        actual = {i.name.replace("_", "-"): i.default_value for i in get_pass_option_infos(factory())}
        assert listed == actual, name


def test_a_pass_option_out_of_range_is_a_usage_error() -> None:
    for spec, message in [
        ("convert-triton-to-tritongpu{target=sm_90}", "target=sm_90: must be cuda:<capability>, e.g. cuda:90"),
        ("convert-triton-to-tritongpu{num-ctas=2}", "num-ctas=2: ltc lays out single-CTA kernels (num-ctas=1)"),
        (
            "convert-triton-to-tritongpu{num-warps=64}",
            "num-warps=64: 64 warps: must be a power of two from 1 to 32 (1024 threads per CTA at 32 threads per warp)",
        ),
        ("convert-tritongpu-to-llvm{target=sm_100}", "target=sm_100: must be sm_80 or sm_90"),
    ]:
        status, stdout, stderr = run_opt(str(TTIR), "-p", spec)
        assert (status, stdout) == (opt.EXIT_USAGE, "")
        assert stderr.splitlines() == [f"ltc-opt: error: bad pass pipeline '{spec}': {message}"]
