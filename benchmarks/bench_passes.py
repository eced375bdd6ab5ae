"""ltc's layout pipeline beside Triton 3.9's: conversions left and time taken.

    python benchmarks/bench_passes.py [NAME ...] [--num-warps 4] [--target cuda:90] [--repeat 5]
                                      [--sizes 1000 10000] [--seed 0] [--no-cache]
    python benchmarks/bench_passes.py --corpus [SUBSTRING ...] [--num-warps W] [--target cuda:CC]
                                      [--repeat 1] [--timeout 60] [--json OUT.json]

(kernel NAMEs go before ``--sizes``, which takes a list). The default run takes about two
minutes, most of it ltc on the 10k-op module.

Rows: every example kernel of ``examples/triton`` (NAME picks some) and a synthetic
module (``synthetic_ir.py``) of each ``--sizes`` op count.  Columns:

* ``ops``: operations in the input (ltc's parse, the module op excluded);
* ``cvt ltc`` / ``cvt triton``: ``ttg.convert_layout`` ops left by ltc's
  ``convert-triton-to-tritongpu{num-warps target},ltc-assign-layouts`` and by Triton's own
  ``make_ttgir`` (whole TTGIR stage, cached in ``benchmarks/.cache``);
* ``ltc ms``: ``ltc.tools.pipeline.run_pipeline`` of that spec on an already parsed module
  (parsing and printing excluded; the result verified, as run_pipeline does), best of
  ``--repeat`` runs, each on a fresh parse;
* ``triton ms``: Triton's layout passes alone (``triton_pipeline.LAYOUT_PASSES``:
  convert-to-ttgpu, coalesce, remove-layout-conversions, accelerate-matmul,
  remove-layout-conversions; ``pm.run`` only, MLIR verifying after each pass), best of
  ``--repeat``, in this same process;
* ``ratio``: ltc ms / triton ms.

The summary gives the largest/smallest synthetic time ratio for both (10k/1k by default)
and checks the targets: conversions ltc <= Triton on every row, time ratio <= 3x, and
10k/1k <= 12x (near-linear scaling; 1.2 x the size ratio for other ``--sizes``).  A failing ltc pipeline prints its error in the row.
Exit status 1 when a target is missed or a row failed.

``--corpus`` measures the third-party kernels of ``build_corpus.py`` instead (built first
when missing; SUBSTRINGs pick variants by id, ``--target``/``--num-warps`` by target).  Per
variant (``cuda90-w4/ops.softmax.softmax_kernel_inner``): the conversions and weighted
cost (``ltc.passes.conversion_cost.summarize``: plan cycles x execution weight) of ltc's
output of the TTIR and of Triton's final TTGIR, priced by the same model; ltc's layout
passes (as above, best of ``--repeat``, default 1; killed after ``--timeout`` s) and
Triton's layout passes on the same TTIR.  Then totals per category and over the corpus,
and the exceptions: every variant where ltc leaves more conversions or more weighted cost
than Triton.  Targets (issue 16): no exception, total weighted cost ltc <= 0.9 x Triton's,
median time ratio <= 2x; exit status 1 when one is missed or a variant failed.
"""

from __future__ import annotations

import argparse
import json
import platform
import signal
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))  # xdsl installs a top-level 'benchmarks' package

import build_corpus  # noqa: E402
import triton_pipeline as tp  # noqa: E402
from synthetic_ir import synthetic_module  # noqa: E402

import ltc.tools.pipeline as P  # noqa: E402
from ltc.passes.conversion_cost import CostSummary, summarize  # noqa: E402

TIME_RATIO_TARGET = 3.0
CORPUS_COST_TARGET = 0.9
"""Issue 16: ltc's total weighted conversion cost over the corpus <= 0.9 x Triton's."""
CORPUS_TIME_TARGET = 2.0
"""Issue 16: median over the corpus of ltc's layout passes / Triton's <= 2x."""
SCALING_SLACK = 1.2
"""Allowed time growth per size growth: 1.2 x 10 = 12x for the default 10k/1k."""


class _TimeRatio:
    """``ratio``: ltc's time over Triton's (None when either is missing)."""

    ltc_s: float | None
    triton_s: float | None

    @property
    def ratio(self) -> float | None:
        if self.ltc_s is None or not self.triton_s:
            return None
        return self.ltc_s / self.triton_s


@dataclass(frozen=True)
class Row(_TimeRatio):
    """One input's results; a ``None`` column failed (its error in ``ltc_error`` / ``triton_error``)."""

    name: str
    ops: int | None
    cvt_ltc: int | None
    cvt_triton: int | None
    ltc_s: float | None
    triton_s: float | None
    ltc_error: str = ""
    triton_error: str = ""


def _short(e: BaseException) -> str:
    first = str(e).strip().splitlines()[0] if str(e).strip() else ""
    text = f"{type(e).__name__}: {first}" if first else type(e).__name__
    return text if len(text) <= 100 else text[:97] + "..."


def ltc_spec(num_warps: int, capability: int) -> str:
    return f"convert-triton-to-tritongpu{{num-warps={num_warps} target=cuda:{capability}}},ltc-assign-layouts"


def run_ltc(text: str, spec: str, repeat: int) -> tuple[int, float, str]:
    """(ops in the input, best seconds of ``run_pipeline``, printed result of the last run)."""
    best = float("inf")
    out = ""
    ops = 0
    for _ in range(max(1, repeat)):
        module = P.parse_module(text)
        ops = sum(1 for _ in module.walk()) - 1
        start = time.perf_counter()
        P.run_pipeline(module, spec)
        best = min(best, time.perf_counter() - start)
        out = P.module_text(module)
    return ops, best, out


def measure(name: str, text: str, num_warps: int, capability: int, num_stages: int, repeat: int,
            use_cache: bool) -> Row:
    ops = cvt_ltc = cvt_triton = None
    ltc_s = triton_s = None
    ltc_error = triton_error = ""
    try:
        ops, ltc_s, out = run_ltc(text, ltc_spec(num_warps, capability), repeat)
        cvt_ltc = tp.count_converts(out)
    except Exception as e:  # a row reports ltc's failure and the table goes on
        ltc_error = _short(e)
    try:
        ttgir = tp.triton_make_ttgir(text, num_warps, capability, num_stages=num_stages, use_cache=use_cache)
        cvt_triton = tp.count_converts(ttgir)
        _, triton_s = tp.triton_layout_passes(text, num_warps, capability, repeat=repeat)
    except Exception as e:
        triton_error = _short(e)
    if ops is None:
        try:
            ops = sum(1 for _ in P.parse_module(text).walk()) - 1
        except Exception:
            pass
    return Row(name, ops, cvt_ltc, cvt_triton, ltc_s, triton_s, ltc_error, triton_error)


def warm_up(num_warps: int, capability: int) -> None:
    """One untimed run of both pipelines, so that lazy imports and first-use setup time no row."""
    text = tp.example_ttir(next(iter(tp.example_kernels())))
    for run in (lambda: run_ltc(text, ltc_spec(num_warps, capability), 1),
                lambda: tp.triton_layout_passes(text, num_warps, capability)):
        try:
            run()
        except Exception:
            pass  # the row of that kernel reports the error


def _fmt_ms(s: float | None) -> str:
    return "-" if s is None else f"{1000 * s:.1f}"


def _fmt(v: object) -> str:
    return "-" if v is None else str(v)


def print_table(rows: list[Row]) -> None:
    head = ["input", "ops", "cvt ltc", "cvt triton", "ltc ms", "triton ms", "ratio", "notes"]
    body = []
    for r in rows:
        notes = []
        if r.cvt_ltc is not None and r.cvt_triton is not None and r.cvt_ltc > r.cvt_triton:
            notes.append(f"cvt +{r.cvt_ltc - r.cvt_triton}")
        if r.ratio is not None and r.ratio > TIME_RATIO_TARGET:
            notes.append(f"time > {TIME_RATIO_TARGET:g}x")
        if r.ltc_error:
            notes.append(f"ltc: {r.ltc_error}")
        if r.triton_error:
            notes.append(f"triton: {r.triton_error}")
        body.append([
            r.name, _fmt(r.ops), _fmt(r.cvt_ltc), _fmt(r.cvt_triton), _fmt_ms(r.ltc_s), _fmt_ms(r.triton_s),
            "-" if r.ratio is None else f"{r.ratio:.2f}x", "; ".join(notes) or "-",
        ])
    widths = [max(len(row[i]) for row in (head, *body)) for i in range(len(head))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(head, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in body:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |")


def _scaling(small: Row | None, large: Row | None, attr: str) -> float | None:
    if small is None or large is None:
        return None
    a, b = getattr(small, attr), getattr(large, attr)
    return None if a is None or b is None or a == 0 else b / a


# --------------------------------------------------------------------------------------
# the corpus (--corpus)
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CorpusRow(_TimeRatio):
    """One corpus variant; a ``None`` column failed (its error in ``ltc_error`` / ``triton_error``)."""

    variant: str
    category: str
    cvt_ltc: int | None = None
    cost_ltc: float | None = None
    cvt_triton: int | None = None
    cost_triton: float | None = None
    ltc_s: float | None = None
    triton_s: float | None = None
    ltc_error: str = ""
    triton_error: str = ""

    @property
    def compared(self) -> bool:
        return self.cvt_ltc is not None and self.cvt_triton is not None

    def exception(self) -> str:
        """Why ltc loses to Triton on this variant ("" when it does not)."""
        if not self.compared:
            return ""
        why = []
        if self.cvt_ltc > self.cvt_triton:
            why.append(f"conversions {self.cvt_ltc} > {self.cvt_triton}")
        if self.cost_ltc > self.cost_triton + 1e-9:
            why.append(f"weighted cost {self.cost_ltc:.1f} > {self.cost_triton:.1f}")
        elif why:
            # more conversions, but cheaper in all: a cheap one where Triton has a dearer one
            why.append(f"weighted cost {self.cost_ltc:.1f} < {self.cost_triton:.1f} (more, cheaper conversions)")
        return "; ".join(why)


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Timeout()


def _ltc_corpus(text: str, spec: str, repeat: int, timeout: float) -> tuple[CostSummary, float]:
    """ltc's pipeline on ``text``: (cost summary of its output, best seconds of ``run_pipeline``).
    Raises :class:`_Timeout` past ``timeout`` seconds (all repeats together)."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        best = float("inf")
        module = None
        for _ in range(max(1, repeat)):
            module = P.parse_module(text)
            start = time.perf_counter()
            P.run_pipeline(module, spec)
            best = min(best, time.perf_counter() - start)
        return summarize(module), best
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def measure_variant(v: build_corpus.CorpusVariant, repeat: int, timeout: float) -> CorpusRow:
    text = v.ttir.read_text()
    fields: dict[str, object] = {}
    try:
        ltc, seconds = _ltc_corpus(text, ltc_spec(v.num_warps, v.capability), repeat, timeout)
        fields.update(cvt_ltc=ltc.conversions, cost_ltc=ltc.weighted_cost, ltc_s=seconds)
    except _Timeout:
        fields["ltc_error"] = f"timeout > {timeout:g} s"
    except Exception as e:  # a row reports ltc's failure and the table goes on
        fields["ltc_error"] = _short(e)
    try:
        triton = summarize(P.parse_module(v.ttgir.read_text()))
        fields.update(cvt_triton=triton.conversions, cost_triton=triton.weighted_cost)
        _, fields["triton_s"] = tp.triton_layout_passes(text, v.num_warps, v.capability, repeat=repeat)
    except Exception as e:
        fields["triton_error"] = _short(e)
    return CorpusRow(v.id, v.category, **fields)


def _fmt_cost(c: float | None) -> str:
    return "-" if c is None else f"{c:.1f}"


def print_corpus_table(rows: list[CorpusRow]) -> None:
    head = ["variant", "category", "cvt ltc", "cvt triton", "cost ltc", "cost triton", "ltc ms", "triton ms",
            "ratio", "notes"]
    body = []
    for r in rows:
        notes = [n for n in (r.exception(), r.ltc_error and f"ltc: {r.ltc_error}",
                             r.triton_error and f"triton: {r.triton_error}") if n]
        body.append([r.variant, r.category, _fmt(r.cvt_ltc), _fmt(r.cvt_triton), _fmt_cost(r.cost_ltc),
                     _fmt_cost(r.cost_triton), _fmt_ms(r.ltc_s), _fmt_ms(r.triton_s),
                     "-" if r.ratio is None else f"{r.ratio:.2f}x", "; ".join(notes) or "-"])
    widths = [max(len(row[i]) for row in (head, *body)) for i in range(len(head))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(head, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in body:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |")


def print_corpus_summary(rows: list[CorpusRow]) -> bool:
    """Totals per category and overall, the exceptions and the targets; whether all are met."""
    compared = [r for r in rows if r.compared]
    groups: dict[str, list[CorpusRow]] = defaultdict(list)
    for r in compared:
        groups[r.category].append(r)
    print("| category | variants | cvt ltc | cvt triton | cost ltc | cost triton | cost ratio |")
    print("|---|---|---|---|---|---|---|")
    for name, group in sorted(groups.items()) + [("total", compared)]:
        c_l, c_t = sum(r.cvt_ltc for r in group), sum(r.cvt_triton for r in group)
        w_l, w_t = sum(r.cost_ltc for r in group), sum(r.cost_triton for r in group)
        ratio = f"{w_l / w_t:.3f}" if w_t else "-"
        print(f"| {name} | {len(group)} | {c_l} | {c_t} | {w_l:.1f} | {w_t:.1f} | {ratio} |")
    print()
    total_l = sum(r.cost_ltc for r in compared)
    total_t = sum(r.cost_triton for r in compared)
    cost_ratio = total_l / total_t if total_t else (0.0 if total_l == 0 else float("inf"))
    exceptions = [(r.variant, r.exception()) for r in compared if r.exception()]
    fewer = sum(1 for r in compared if r.cvt_ltc < r.cvt_triton)
    ratios = [r.ratio for r in rows if r.ratio is not None]
    failed = [r for r in rows if r.ltc_error or r.triton_error]

    print(f"variants: {len(rows)}, compared {len(compared)}; ltc leaves fewer conversions on {fewer}, "
          f"more conversions or cost on {len(exceptions)}")
    print(f"total conversions: ltc {sum(r.cvt_ltc for r in compared)}, "
          f"Triton {sum(r.cvt_triton for r in compared)}")
    print(f"total weighted cost: ltc {total_l:.1f}, Triton {total_t:.1f}, ratio {cost_ratio:.3f}   "
          f"[target: <= {CORPUS_COST_TARGET:g}]")
    ok = cost_ratio <= CORPUS_COST_TARGET and not exceptions and not failed and bool(compared)
    if ratios:
        median = statistics.median(ratios)
        print(f"time ltc/Triton layout passes: median {median:.2f}x over {len(ratios)} variants, "
              f"worst {max(ratios):.2f}x, best {min(ratios):.2f}x   [target: median <= {CORPUS_TIME_TARGET:g}x]")
        ok &= median <= CORPUS_TIME_TARGET
    else:
        print("time ltc/Triton layout passes: no variant with both times")
        ok = False
    print()
    print(f"exceptions (ltc > Triton; target: none): {len(exceptions)}")
    for name, why in exceptions:
        print(f"  {name}: {why}")
    if failed:
        print(f"variants with errors: {len(failed)}")
        for r in failed:
            print(f"  {r.variant}: " + "; ".join(x for x in (r.ltc_error and f"ltc: {r.ltc_error}",
                                                                r.triton_error and f"triton: {r.triton_error}") if x))
    return ok


def corpus_main(args: argparse.Namespace) -> int:
    try:
        variants = build_corpus.corpus_variants(args.corpus_dir)
    except build_corpus.CorpusUnavailable as e:
        print(f"corpus unavailable: {e}", file=sys.stderr)
        return 2
    variants = [v for v in variants
                if (not args.names or any(n in v.id for n in args.names))
                and (args.target is None or v.target == args.target)
                and (args.num_warps is None or v.num_warps == args.num_warps)]
    if not variants:
        print("no corpus variant matches", file=sys.stderr)
        return 2
    repeat = 1 if args.repeat is None else args.repeat
    first = variants[0]
    try:  # untimed: lazy imports and first-use setup time no row
        _ltc_corpus(first.ttir.read_text(), ltc_spec(first.num_warps, first.capability), 1, args.timeout)
        tp.triton_layout_passes(first.ttir.read_text(), first.num_warps, first.capability)
    except Exception:
        pass
    rows = []
    for i, v in enumerate(variants):
        rows.append(measure_variant(v, repeat, args.timeout))
        if args.progress:
            print(f"[{i + 1}/{len(variants)}] {v.id}", file=sys.stderr, flush=True)
    print(f"corpus {build_corpus.PACKAGE}=={build_corpus.PACKAGE_VERSION}: {len(rows)} variants; best of {repeat}; "
          f"triton {tp.triton_version()}, python {platform.python_version()}, {platform.machine()}")
    print()
    print_corpus_table(rows)
    print()
    ok = print_corpus_summary(rows)
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(r) for r in rows], indent=1) + "\n")
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="example kernels (default: all); with --corpus, substrings of ids")
    ap.add_argument("--num-warps", type=int, default=None, help="default 4 (--corpus: every count)")
    ap.add_argument("--target", default=None, help="cuda:CC (default cuda:90; --corpus: every target)")
    ap.add_argument("--repeat", type=int, default=None, help="best of N runs (default 5; --corpus: 1)")
    ap.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000], help="synthetic module op counts")
    ap.add_argument("--seed", type=int, default=0, help="synthetic module seed")
    ap.add_argument("--no-cache", action="store_true", help="re-run Triton's make_ttgir")
    ap.add_argument("--corpus", action="store_true", help="measure the third-party corpus (build_corpus.py)")
    ap.add_argument("--corpus-dir", type=Path, default=None, help="corpus folder (default: build_corpus's)")
    ap.add_argument("--timeout", type=float, default=60.0, help="--corpus: seconds of ltc per variant")
    ap.add_argument("--json", default=None, help="--corpus: write the rows to this JSON file")
    ap.add_argument("--progress", action="store_true", help="--corpus: print each variant on stderr")
    args = ap.parse_args(argv)
    if args.target is not None and not args.target.startswith("cuda:"):
        ap.error(f"--target must be cuda:CC, got {args.target!r}")
    if args.corpus:
        return corpus_main(args)
    args.target = args.target or "cuda:90"
    args.num_warps = args.num_warps or 4
    args.repeat = 5 if args.repeat is None else args.repeat
    capability = int(args.target.split(":", 1)[1])
    kernels = tp.example_kernels()
    unknown = [n for n in args.names if n not in kernels]
    if unknown:
        ap.error(f"unknown kernels {unknown}; known: {', '.join(kernels)}")

    warm_up(args.num_warps, capability)
    rows = []
    for name, options in kernels.items():
        if args.names and name not in args.names:
            continue
        rows.append(measure(name, tp.example_ttir(name), args.num_warps, capability, options.num_stages,
                            args.repeat, not args.no_cache))
    synthetic = []
    for n in sorted(args.sizes):
        label = f"synthetic-{n // 1000}k" if n % 1000 == 0 else f"synthetic-{n}"
        row = measure(label, synthetic_module(n, args.seed), args.num_warps, capability, 3, args.repeat,
                      not args.no_cache)
        rows.append(row)
        synthetic.append(row)

    print(f"num_warps={args.num_warps} target={args.target} best of {args.repeat}; triton {tp.triton_version()}, "
          f"python {platform.python_version()}, {platform.machine()}")
    print()
    print_table(rows)
    print()

    failed = [r.name for r in rows if r.ltc_error or r.triton_error]
    compared = [r for r in rows if r.cvt_ltc is not None and r.cvt_triton is not None]
    more = [r.name for r in compared if r.cvt_ltc > r.cvt_triton]
    ratios = [r.ratio for r in rows if r.ratio is not None]
    sizes = sorted(args.sizes)
    small, large = (synthetic[0], synthetic[-1]) if len(synthetic) >= 2 else (None, None)
    scale_ltc, scale_triton = _scaling(small, large, "ltc_s"), _scaling(small, large, "triton_s")

    ok = not failed
    print(f"conversions ltc <= Triton: {len(compared) - len(more)}/{len(compared)} rows"
          + (f" (more on {', '.join(more)})" if more else "") + f"   [target: all {len(rows)}]")
    ok &= not more and len(compared) == len(rows)
    if ratios:
        worst = max(ratios)
        print(f"time ltc/Triton: worst {worst:.2f}x, best {min(ratios):.2f}x   [target: <= {TIME_RATIO_TARGET:g}x]")
        ok &= worst <= TIME_RATIO_TARGET
    else:
        print(f"time ltc/Triton: no row with both times   [target: <= {TIME_RATIO_TARGET:g}x]")
        ok = False
    if small is not None:
        span = f"{large.name}/{small.name}"
        ltc_txt = "-" if scale_ltc is None else f"{scale_ltc:.1f}x"
        tri_txt = "-" if scale_triton is None else f"{scale_triton:.1f}x"
        target = SCALING_SLACK * sizes[-1] / sizes[0]
        print(f"scaling {span}: ltc {ltc_txt}, Triton {tri_txt}   [target: ltc <= {target:g}x]")
        ok &= scale_ltc is not None and scale_ltc <= target
    if failed:
        print(f"rows with errors: {', '.join(failed)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
