"""benchmarks/bench_codegen.py's pure helpers: scratch-size parsing, verdict, summary, copy
failures (no compiling; the benchmark itself is run by hand)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

import pytest

# Top-level imports: xdsl installs a package named ``benchmarks`` that shadows the folder.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks"))
import bench_codegen as bc  # noqa: E402


def test_scratch_bytes() -> None:
    assert bc.ltc_scratch_bytes(".version 8.0\n.shared .align 16 .b8 global_smem[4096];\n") == 4096
    assert bc.ltc_scratch_bytes(".extern .shared .align 16 .b8 global_smem[];\n") is None
    assert bc.ltc_scratch_bytes(".version 8.0\n.visible .entry k()\n{\n\tret;\n}\n") == 0


def test_module_shared_bytes() -> None:
    assert bc.module_shared_bytes('builtin.module attributes {ttg.shared = 65536 : i32, "x" = 1} {') == 65536
    assert bc.module_shared_bytes('module attributes {"ttg.shared" = 1024 : i32} {') == 1024
    assert bc.module_shared_bytes("module {") == 0


def _side(**values: object) -> dict:
    side = dict.fromkeys(("sass", "shared", "shfl", "bar", "smem", "wavefr"))
    side.update(values, copy="ok")
    return side


def _row(ltc: dict | None, triton: dict, error: str | None = None) -> dict:
    return {"case": "c", "ltc": ltc, "triton": triton, "error": error}


class Test_Verdict:
    def test_worse_columns(self) -> None:
        row = _row(_side(sass=10, shared=4, shfl=9, bar=1, wavefr=8), _side(sass=9, shared=4, shfl=0, bar=2, wavefr=7))
        assert bc.verdict(row) == "WORSE:sass,wavefr"  # shfl is not a verdict column

    def test_ok_and_unknown(self) -> None:
        row = _row(_side(sass=5, shared=None, bar=0), _side(sass=5, shared=3, bar=0))
        assert bc.verdict(row) == "ok"

    def test_no_ltc(self) -> None:
        assert bc.verdict(_row(None, _side(), bc.NOT_YET)) == "n/a"
        assert bc.verdict(_row(None, _side(), "PipelineError: boom")) == "error"


def test_summary() -> None:
    rows = [
        _row(_side(sass=3, bar=1), _side(sass=3, bar=2)),
        _row(_side(sass=4, bar=1), _side(sass=3, bar=1)),
        _row(None, _side(sass=1, bar=1), "x"),
    ]
    s = bc.summary(rows)
    assert s["sass"] == {"cases": 2, "le": 1, "eq": 1, "lt": 0}
    assert s["bar"] == {"cases": 2, "le": 2, "eq": 1, "lt": 1}
    assert s["wavefr"] == {"cases": 0, "le": 0, "eq": 0, "lt": 0}


def test_copy_failures() -> None:
    bad = _side()
    bad["copy"] = "FAIL (3 elements wrong)"
    rows = [_row(_side(), bad), _row(None, _side(), "x")]
    assert bc.copy_failures(rows) == ["FAIL: c: triton's kernel does not copy: FAIL (3 elements wrong)"]


@dataclass(frozen=True)
class _Stats:
    shared_wavefronts: int


def test_wavefronts_of() -> None:
    assert bc.wavefronts_of(_Stats(12)) == 12
    with pytest.raises(AttributeError):
        bc.wavefronts_of(object())
