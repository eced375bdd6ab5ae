"""Triton's own MLIR tests as ltc's conformance suite (benchmarks/triton_suite.py).

The helpers (lit-file reading, expected-diagnostic matching, FileCheck, judging) are
checked on small texts; the whole suite runs when ``shared/triton-suite`` beside the repository (or
``LTC_TRITON_SUITE``) exists and triton is installed, and its counts must not fall below
:data:`FLOORS`.  Pass chunks (RUN lines that run passes) pass FileCheck or are listed in
``PASS_DEPARTURES``, and each listed one is refused by name or passes its checks.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

# Top-level imports: xdsl installs a package named ``benchmarks`` that shadows the folder.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks"))
import triton_suite as ts  # noqa: E402
from suite_filecheck import filecheck_options, run_filecheck  # noqa: E402
from suite_lit import (  # noqa: E402
    Chunk,
    _parse_run,
    expected_diagnostics,
    parse_diagnostics,
    pipeline_pass_names,
    split_chunks,
)
from suite_departures import DepartureCheck, count_converts, interpret_compare, weighted_converts  # noqa: E402
from suite_oracle import OracleItem, TritonOracle, triton_version  # noqa: E402

SUITE = Path(os.environ.get("LTC_TRITON_SUITE", ts.DEFAULT_SUITE))

# Measured when this test was written (the suite's Triton-3.7 files judged by triton 3.9.0).
# These are FLOORS: they may only go up; raise them as ltc improves.  The goal is 100 %:
# all 889 parse/print chunks "ok" and all 243 invalid chunks "expected".
FLOORS = {
    "parse_print": {"ok": 889},
    "invalid": {"expected": 241},
    "runs": {"pass": 4},
    "run_chunks": {"pass": 113},
}
# RUN-line chunks that pass FileCheck or are departures whose checks hold or that ltc
# refuses by name (a departure that starts to pass moves between those, so they share a floor).
ACCOUNTED_RUN_CHUNKS = 180
# Fixed by the suite and Triton alone (not by ltc): the size of each category.
PARSE_PRINT_CHUNKS = 889
INVALID_CHUNKS = 243
FILECHECK_RUN_LINES = 122


# --------------------------------------------------------------------------------------
# the helpers, on small texts
# --------------------------------------------------------------------------------------
def test_split_chunks_keeps_file_lines() -> None:
    chunks = split_chunks("a\n// -----\nb\nc\n// ----- tail\n")
    assert [(c.index, c.first_line, c.text) for c in chunks] == [(0, 1, "a\n"), (1, 3, "b\nc\n"), (2, 6, "")]
    assert chunks[1].padded == "\n\nb\nc\n"


def test_expected_annotation_lines() -> None:
    text = (
        "x = 1 // expected-error {{same line}}\n"  # 10
        "// expected-error @+2 {{plus two}}\n"  # 11
        "// expected-error @below {{below}}\n"  # 12
        "// expected-note @above {{skips annotations upward}}\n"  # 13
        "y = 2\n"  # 14
        "// expected-error@-1 {{minus one}}\n"  # 15
        "// expected-error-re @unknown {{value {{[0-9]+}} here}}\n"  # 16
    )
    got = [(e.kind, e.line, e.body, e.regex) for e in expected_diagnostics(Chunk(0, 10, text))]
    assert got == [
        ("error", 10, "same line", False),
        ("error", 13, "plus two", False),
        ("error", 14, "below", False),
        ("note", 10, "skips annotations upward", False),
        ("error", 14, "minus one", False),
        ("error", None, "value {{[0-9]+}} here", True),
    ]
    regex = expected_diagnostics(Chunk(0, 10, text))[-1]
    assert regex.matches("the value 42 here!") and not regex.matches("the value x here")


def test_run_line_parsing() -> None:
    run = _parse_run(0, "env A=1 not triton-opt %s -split-input-file --tritongpu-coalesce='x=1' "
                        "-allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefixes=A,B -DX=1")
    assert run is not None
    assert run.negated and run.merge_stderr and run.split and run.allow_unregistered
    assert run.passes == ("tritongpu-coalesce",)
    assert run.extra_tools == ()
    opts = filecheck_options(run.filecheck_args or ())
    assert opts.prefixes == ("A", "B") and opts.variables == (("X", "1"),)
    llvm = _parse_run(1, "triton-opt %s --convert-triton-gpu-to-llvm | mlir-translate -mlir-to-llvmir | FileCheck %s")
    assert llvm is not None and llvm.extra_tools == ("mlir-translate",)
    assert _parse_run(2, "split-file %s %t") is None
    assert pipeline_pass_names("'builtin.module(convert-triton-to-tritongpu{num-warps=4 target=cuda:90 },cse)'") == [
        "convert-triton-to-tritongpu", "cse"]


def test_parse_diagnostics_both_formats() -> None:
    text = ('<stdin>:6:8: error: \'tt.broadcast\' op bad\n  %c = ...\n       ^\n'
            'loc("/dev/shm/x.mlir":3:1): error: Expected basis\nloc(unknown): warning: w\n')
    got = [(d.line, d.col, d.severity, d.message) for d in parse_diagnostics(text)]
    assert got == [(6, 8, "error", "'tt.broadcast' op bad"), (3, 1, "error", "Expected basis"),
                   (None, None, "warning", "w")]


def test_filecheck_in_process() -> None:
    opts = filecheck_options(("%s", "--check-prefix=A", "-DV=3"))
    assert run_filecheck("// A: foo [[V]]\n// A-NEXT: bar\n", "foo 3\nbar\n", opts).passed is True
    bad = run_filecheck("// A: foo [[V]]\n// A-NEXT: baz\n", "foo 3\nbar\n", opts)
    assert bad.passed is False and "baz" in bad.message
    assert run_filecheck("// B: foo\n", "foo\n", opts).passed is None


def test_pass_specs_with_options() -> None:
    run = _parse_run(0, "triton-opt %s -split-input-file -convert-triton-to-tritongpu='target=cuda:80 num-warps=2' "
                        "-tritongpu-coalesce | FileCheck %s")
    assert run is not None
    assert run.pass_specs == (("convert-triton-to-tritongpu", (("target", "cuda:80"), ("num-warps", "2"))),
                              ("tritongpu-coalesce", ()))
    piped = _parse_run(1, "triton-opt %s --pass-pipeline='builtin.module(convert-triton-to-tritongpu{num-warps=4 "
                          "target=cuda:90 },cse)' | FileCheck %s")
    assert piped is not None
    assert piped.pass_specs == (("convert-triton-to-tritongpu", (("num-warps", "4"), ("target", "cuda:90"))),
                                ("cse", ()))


_KERNEL = """#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32>, %x: tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked1> {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %a : tensor<128x!tt.ptr<f32>, #blocked>
    %w = arith.addf %v, %x : tensor<128xf32, #blocked>
    tt.store %a, %w : tensor<128x!tt.ptr<f32>, #blocked>
    %c = ttg.convert_layout %w : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked1>
    tt.return %c : tensor<128xf32, #blocked1>
  }
}
"""


def test_interpret_compare() -> None:
    assert interpret_compare(_KERNEL, _KERNEL) == "same"
    assert interpret_compare(_KERNEL, _KERNEL.replace("arith.addf", "arith.subf")).startswith("differs: @k returns")
    stored_only = _KERNEL.replace("tt.store %a, %w", "tt.store %a, %v")
    assert interpret_compare(_KERNEL, stored_only) == "differs: @k leaves other values in argument 0"
    unknown = _KERNEL.replace("%w = arith.addf %v, %x : tensor<128xf32, #blocked>",
                              '%w = tt.elementwise_inline_asm "x" {constraints = "=r,r", packed_element = 1 : i32, '
                              'pure = true} %v : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked>')
    assert interpret_compare(unknown, unknown).startswith("skipped: @k: InterpretError")
    assert interpret_compare("module {\n}\n", "module {\n}\n") == "skipped: no tt.func with a body"
    assert count_converts(_KERNEL) == 1


@pytest.mark.skipif(triton_version() is None, reason="triton is not installed")
def test_oracle_runs_triton_passes() -> None:
    oracle = TritonOracle(None)
    plain, coalesced, bad = oracle.judge([
        OracleItem(_KERNEL), OracleItem(_KERNEL, passes=(("canonicalize", ()),)),
        OracleItem(_KERNEL, passes=(("no-such-pass", ()),))])
    assert plain.accepted and count_converts(plain.printed or "") == 1
    assert coalesced.accepted and count_converts(coalesced.printed or "") == 1
    assert not bad.accepted and "no Triton binding for pass" in bad.diagnostics


def _ltc(rc: int | str, stderr: str = "") -> ts.LtcRun:
    return ts.LtcRun(rc, "", stderr)


def test_judge_invalid_verdicts() -> None:
    chunk = Chunk(0, 5, "tt.func @f() {\n  // expected-error @+1 {{must be same}}\n  %x = tt.op\n}\n")
    # the annotation points at line 7
    triton_diag = 'loc("/tmp/t.mlir":7:8): error: rank must be same as result\n'

    def judge(run: ts.LtcRun) -> str:
        return ts._judge_invalid("f#0", chunk, run, triton_diag, False)[0]

    assert judge(_ltc(1, "<stdin>:7:8: error: 'tt.op' op rank must be same as result\n")) == "expected"
    assert judge(_ltc(1, "<stdin>:7:8: error: something else\n")) == "other message"
    assert judge(_ltc(1, "<stdin>:6:1: error: must be same\n")) == "wrong line"
    assert judge(_ltc(0)) == "accepted"
    assert judge(_ltc("crash", "ValueError: boom")) == "crash"


def test_call_ltc_in_process() -> None:
    ok = ts.call_ltc(["-"], "tt.func @f() {\n  tt.return\n}\n")
    assert ok.rc == 0 and "tt.func @f()" in ok.stdout
    bad = ts.call_ltc(["-"], "\n\ntt.func @f() {\n  %0 = tt.nonsense\n}\n")
    assert bad.rc == 1 and bad.errors() and bad.errors()[0].line == 4


# --------------------------------------------------------------------------------------
# the suite itself
# --------------------------------------------------------------------------------------
_skip = None
if not SUITE.is_dir():
    _skip = f"Triton's test suite is absent ({SUITE})"
elif triton_version() is None:
    _skip = "triton (3.9.0) is not installed; the oracle is unavailable"


@pytest.fixture(scope="module")
def result() -> ts.SuiteResult:
    if _skip:
        pytest.skip(_skip)
    return ts.run_suite(SUITE, jobs=os.cpu_count())


def test_category_sizes(result: ts.SuiteResult) -> None:
    assert sum(result.counts("parse_print").values()) == PARSE_PRINT_CHUNKS
    assert sum(result.counts("invalid").values()) == INVALID_CHUNKS
    assert len(result.runs) == FILECHECK_RUN_LINES
    assert len({c.key for c in result.chunks}) == len(result.chunks)


def test_floors(result: ts.SuiteResult) -> None:
    below = {}
    for category, floors in FLOORS.items():
        counts = result.counts(category)
        for verdict, floor in floors.items():
            if counts.get(verdict, 0) < floor:
                below[f"{category}/{verdict}"] = (counts.get(verdict, 0), floor)
    assert not below, f"counts fell below their floors (got, floor): {below}\n\n{ts.format_report(result)}"


def test_departures_name_invalid_chunks(result: ts.SuiteResult) -> None:
    invalid = {c.key for c in result.chunks if c.category == "invalid"}
    assert set(ts.DEPARTURES) <= invalid


def test_report_and_json(result: ts.SuiteResult) -> None:
    report = ts.format_report(result)
    for title in ("## Parse/print", "## Invalid", "## RUN lines into FileCheck"):
        assert title in report
    assert report.count("| **total** |") == 3
    data = result.to_json()
    assert len(data["chunks"]) == PARSE_PRINT_CHUNKS + INVALID_CHUNKS
    assert data["totals"]["parse_print"] == result.counts("parse_print")


def test_run_chunks_accounted(result: ts.SuiteResult) -> None:
    counts = result.counts("run_chunks")
    accounted = sum(counts.get(v, 0) for v in ("pass", "departure-checked", "departure-refused"))
    assert accounted >= ACCOUNTED_RUN_CHUNKS, (counts, ACCOUNTED_RUN_CHUNKS)


def test_every_failing_pass_chunk_is_a_departure(result: ts.SuiteResult) -> None:
    """A pass chunk that fails FileCheck is listed in PASS_DEPARTURES (new failures show)."""
    chunks = result.pass_chunks()
    unlisted = sorted(k for k, v in chunks.items() if v == "fail" and k not in ts.PASS_DEPARTURES)
    assert not unlisted, f"failing pass chunks that are not departures: {unlisted}\n\n{ts.format_report(result)}"


def test_departures_still_fail(result: ts.SuiteResult) -> None:
    """Every PASS_DEPARTURES key names a pass chunk that still misses its FileCheck lines
    (a stale entry shows)."""
    chunks = result.pass_chunks()
    missing = sorted(set(ts.PASS_DEPARTURES) - set(chunks))
    assert not missing, f"departures that name no pass chunk: {missing}"
    stale = sorted(k for k in ts.PASS_DEPARTURES if chunks[k] in ("pass", "no checks"))
    assert not stale, f"departures that pass now, drop them: {stale}"


def test_departure_checks_hold(result: ts.SuiteResult) -> None:
    """Each departure (but those issue 16 owns) is refused by name or its checks hold:
    Triton verifies ltc's output, no more conversions than Triton's pass, same values."""
    judged = {d.key: d for d in result.departures()}
    assert set(judged) == set(ts.PASS_DEPARTURES)
    broken = {k: (d.verdict, d.check) for k, d in judged.items()
              if d.reason != ts.LAYOUT_ISSUE and d.verdict not in ("departure-checked", "departure-refused")}
    assert not broken, broken
    # the layout departures hold too, but for the listed ones (never a new one)
    layout_broken = {k for k, d in judged.items() if d.reason == ts.LAYOUT_ISSUE and d.verdict == "fail"}
    assert layout_broken <= set(ts.LAYOUT_FAILS), sorted(layout_broken - set(ts.LAYOUT_FAILS))
    assert set(ts.LAYOUT_FAILS) <= layout_broken, f"listed as failing but hold now: {sorted(set(ts.LAYOUT_FAILS) - layout_broken)}"
    report = ts.format_report(result)
    assert "| chunk | verdict | reason | check |" in report
    assert "chunks departure-checked" in report


_LOOP_CONVERTS = """
#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @k(%x: tensor<128xf32, #a>, %n: i32) -> tensor<128xf32, #b> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c6 = arith.constant 6 : i32
    %y = ttg.convert_layout %x : tensor<128xf32, #a> -> tensor<128xf32, #b>
    %r = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %y) -> (tensor<128xf32, #b>) : i32 {
      %t = ttg.convert_layout %x : tensor<128xf32, #a> -> tensor<128xf32, #b>
      %s = scf.for %j = %c0 to %n step %c1 iter_args(%in = %t) -> (tensor<128xf32, #b>) : i32 {
        %u = ttg.convert_layout %x : tensor<128xf32, #a> -> tensor<128xf32, #b>
        %v = arith.addf %in, %u : tensor<128xf32, #b>
        scf.yield %v : tensor<128xf32, #b>
      }
      scf.yield %s : tensor<128xf32, #b>
    }
    tt.return %r : tensor<128xf32, #b>
  }
}
"""


def test_weighted_converts_count_each_by_its_loops() -> None:
    # once, 6 times (constant trip count), 6 x 16 times (a loop of unknown trip count)
    assert count_converts(_LOOP_CONVERTS) == 3
    assert weighted_converts(_LOOP_CONVERTS) == 1 + 6 + 6 * 16
    assert weighted_converts("not IR") is None


def test_a_departure_is_judged_by_weighted_conversions_where_both_weigh() -> None:
    fewer_run = DepartureCheck(True, "", 5, 4, "same", weighted=(67.0, 128.0))
    more_run = DepartureCheck(True, "", 3, 4, "same", weighted=(96.0, 64.0))
    unweighed = DepartureCheck(True, "", 5, 4, "same")
    assert (fewer_run.holds, more_run.holds, unweighed.holds) == (True, False, False)
    assert fewer_run.summary() == "Triton verifies; converts 5 > 4, weighted 67 <= 128; interpreter same"
    assert more_run.summary() == "Triton verifies; converts 3 <= 4, weighted 96 > 64; interpreter same"
