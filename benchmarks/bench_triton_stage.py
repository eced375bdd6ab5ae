"""Triton 3.9 with and without ltc as its layout stage (``ltc.triton.install("layouts")``).

    python benchmarks/bench_triton_stage.py [SUBSTRING ...] [--setting cuda90-w4 ...] [--limit N]
                                            [--mode layouts|codegen] [--json OUT.json]

For every corpus variant (``build_corpus.py``; built when missing) whose id contains a
SUBSTRING: its TTIR compiled to cubin by ``triton.compile`` twice on the CPU
(``GPUTarget("cuda", CC, 32)``, ``num_warps`` from the setting): Triton alone, then with
ltc installed (``strict=False``: a kernel ltc does not take is compiled by Triton and
counted as a fallback, with ltc's one-line reason). Columns: ``ttg.convert_layout`` in the
final TTGIR of each, SASS instructions of each cubin (same ``ptxas``: Triton's bundled
one), the source positions (``.loc`` line and column) the PTX's line info names, and the
verdict. Totals: compiled to cubin with ltc, fallbacks, conversions and SASS
ltc <= Triton per kernel and in total. Targets (issue 18): every variant compiles to cubin
with ltc installed; conversions <= Triton's on every kernel; SASS <= Triton's on >= 95 % of
the kernels and in total. Exit status 1 when one is missed.

``--mode codegen`` installs ``ltc.triton.install("codegen")`` instead: ltc's layouts and,
wherever ltc lowers every op of the kernel, ltc's own PTX, which Triton's ``make_cubin``
assembles. The verdict column says whose PTX the cubin holds (``ltc ptx``, or ``triton
ptx:`` and ltc's reason); the totals count both and list the reasons. Target (issue 18):
every variant compiles to cubin, i.e. ``ptxas`` accepts every PTX of ltc's inside Triton's
flow. Exit status 1 when one fails.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import build_corpus  # noqa: E402
import sass_stats  # noqa: E402

from tests.triton_pipeline import triton_compile_file  # noqa: E402

SETTINGS = ("cuda90-w4", "cuda90-w8", "cuda80-w4", "cuda80-w8")


class _Reasons(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@contextmanager
def ltc_fallback_lines() -> Iterator[list[str]]:
    """While in the block: the lines ``ltc.triton`` logs for the kernels it hands back to
    Triton's own stage (``ltc: <kernel>: <reason>``), collected instead of printed."""
    handler = _Reasons()
    logger = logging.getLogger("ltc.triton")
    propagate = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield handler.lines
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def _sass(compiled: Any) -> int:
    return sass_stats.sass_counts(sass_stats.sass_text(compiled.asm["cubin"])).instructions


def line_info_positions(ptx: str) -> int:
    """Distinct ``(line, column)`` source positions of ``ptx``'s ``.loc`` directives."""
    return len(set(re.findall(r"^\s*\.loc\s+\d+\s+(\d+)\s+(\d+)", ptx, re.MULTILINE)))


def measure(path: Path, cc: int, warps: int, reasons: list[str], mode: str = "layouts") -> dict[str, Any]:
    """One variant compiled by Triton alone and with ltc installed in ``mode``; the row
    records ltc's one-line reasons: ``fallback`` (Triton's layout stage) and, in codegen
    mode, ``ptx_fallback`` (Triton's PTX)."""
    import ltc.triton

    row: dict[str, Any] = {"variant": f"{path.parent.name}/{path.stem}"}
    try:
        base = triton_compile_file(path, cc, warps)
    except Exception as e:  # noqa: BLE001 - Triton itself refuses: not ltc's row
        row["error"] = f"triton: {' '.join(str(e).split())[:160]}"
        return row
    reasons.clear()
    start = time.perf_counter()
    try:
        with ltc.triton.install(mode, strict=False):
            ours = triton_compile_file(path, cc, warps)
    except Exception as e:  # noqa: BLE001
        row["error"] = f"with ltc: {' '.join(str(e).split())[:160]}"
        return row
    row["seconds_with_ltc"] = round(time.perf_counter() - start, 2)
    codegen = [r for r in reasons if ": codegen: " in r]
    layouts = [r for r in reasons if ": codegen: " not in r]
    row["fallback"] = layouts[0] if layouts else None
    if mode == "codegen":
        row["ptx_fallback"] = codegen[0].split(": codegen: ", 1)[1] if codegen else None
    row["cvt_triton"] = base.asm["ttgir"].count("ttg.convert_layout")
    row["cvt_ltc"] = ours.asm["ttgir"].count("ttg.convert_layout")
    row["sass_triton"] = _sass(base)
    row["sass_ltc"] = _sass(ours)
    row["loc_triton"] = line_info_positions(base.asm["ptx"])
    row["loc_ltc"] = line_info_positions(ours.asm["ptx"])
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("substrings", nargs="*")
    ap.add_argument("--setting", nargs="+", choices=SETTINGS, default=["cuda90-w4"])
    ap.add_argument("--limit", type=int, default=None, help="at most N variants per setting")
    ap.add_argument("--mode", choices=("layouts", "codegen"), default="layouts")
    ap.add_argument("--json", type=Path, default=None)
    a = ap.parse_args(argv)
    corpus = build_corpus.ensure_corpus() if hasattr(build_corpus, "ensure_corpus") else HERE / ".cache" / "corpus"
    rows = []
    with ltc_fallback_lines() as reasons:
        for setting in a.setting:
            cc, warps = (int(x) for x in re.fullmatch(r"cuda(\d+)-w(\d+)", setting).groups())  # type: ignore[union-attr]
            paths = sorted((Path(corpus) / setting).glob("*.ttir"))
            paths = [p for p in paths if not a.substrings or any(s in p.stem for s in a.substrings)][: a.limit]
            for p in paths:
                row = measure(p, cc, warps, reasons, a.mode)
                rows.append(row)
                if "error" in row:
                    print(f"{row['variant']:70s} ERROR {row['error']}", flush=True)
                    continue
                verdict = "fallback: " + row["fallback"] if row["fallback"] else (
                    "ok" if row["cvt_ltc"] <= row["cvt_triton"] and row["sass_ltc"] <= row["sass_triton"] else
                    f"WORSE{' cvt' if row['cvt_ltc'] > row['cvt_triton'] else ''}"
                    f"{' sass' if row['sass_ltc'] > row['sass_triton'] else ''}")
                if a.mode == "codegen" and not row["fallback"]:
                    verdict += f"  triton ptx: {row['ptx_fallback']}" if row["ptx_fallback"] else "  ltc ptx"
                print(f"{row['variant']:70s} cvt {row['cvt_ltc']:3d}/{row['cvt_triton']:<3d} "
                      f"sass {row['sass_ltc']:5d}/{row['sass_triton']:<5d} "
                      f"lines {row['loc_ltc']:3d}/{row['loc_triton']:<3d} {verdict}", flush=True)
    done = [r for r in rows if "error" not in r]
    taken = [r for r in done if not r["fallback"]]
    cvt_worse = [r["variant"] for r in taken if r["cvt_ltc"] > r["cvt_triton"]]
    sass_le = sum(r["sass_ltc"] <= r["sass_triton"] for r in taken)
    errors = [r for r in rows if "error" in r and r["error"].startswith("with ltc")]
    print(f"\n{len(rows)} variants: {len(done)} compiled to cubin with ltc installed, "
          f"{len(errors)} failed with ltc, {len(done) - len(taken)} fell back to Triton's stage, "
          f"{sum('error' in r and r['error'].startswith('triton') for r in rows)} refused by Triton itself")
    if taken:
        print(f"laid out by ltc: {len(taken)}; conversions {sum(r['cvt_ltc'] for r in taken)} vs Triton "
              f"{sum(r['cvt_triton'] for r in taken)} (ltc more on {len(cvt_worse)}); SASS ltc <= Triton on "
              f"{sass_le}/{len(taken)} ({100 * sass_le / len(taken):.1f} %), total "
              f"{sum(r['sass_ltc'] for r in taken)} vs {sum(r['sass_triton'] for r in taken)}")
        fewer = sum(r["loc_ltc"] < r["loc_triton"] for r in taken)
        print(f"line info: source positions {sum(r['loc_ltc'] for r in taken)} vs Triton "
              f"{sum(r['loc_triton'] for r in taken)} (ltc fewer on {fewer}, more on "
              f"{sum(r['loc_ltc'] > r['loc_triton'] for r in taken)})")
    if a.mode == "codegen":
        ltc_ptx = [r for r in taken if not r["ptx_fallback"]]
        print(f"codegen: ltc's PTX assembled by Triton's make_cubin in {len(ltc_ptx)} of {len(taken)}; "
              f"Triton's PTX (ltc does not lower the kernel) in {len(taken) - len(ltc_ptx)}")
        if ltc_ptx:
            print(f"  where ltc's PTX is taken: SASS ltc <= Triton on "
                  f"{sum(r['sass_ltc'] <= r['sass_triton'] for r in ltc_ptx)}/{len(ltc_ptx)}, total "
                  f"{sum(r['sass_ltc'] for r in ltc_ptx)} vs {sum(r['sass_triton'] for r in ltc_ptx)}")
        why = Counter(re.sub(r"\d+", "N", r["ptx_fallback"])[:100] for r in taken if r["ptx_fallback"])
        for reason, n in why.most_common(15):
            print(f"  {n:4d} x {reason}")
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1))
    if a.mode == "codegen":
        return 0 if rows and not errors else 1
    ok = (not errors and len(taken) == len(done) and not cvt_worse and taken
          and sass_le >= 0.95 * len(taken) and sum(r["sass_ltc"] for r in taken) <= sum(r["sass_triton"] for r in taken))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
