"""ltc's conversion plans beside Triton 3.9's code for the same conversions.

    python benchmarks/bench_convert_plans.py [--no-triton] [--no-cache] [NAME ...]

For each case of ``benchmarks/convert_cases.py`` (a ``ttg.convert_layout`` of a
tensor between two layouts), prints ltc's plan — kind, plain shared stores and
loads, stmatrix/ldmatrix, shuffles, CTA barriers, scratch bytes, and the
simulator's wavefronts against their lower bound — beside the same counts in
the PTX Triton 3.9 emits for a Gluon kernel load → convert_layout → store
compiled on CPU for ``GPUTarget("cuda", 90, 32)`` (``triton_convert.py``; its
results are cached in ``benchmarks/.cache``).

Columns are ``ltc/triton``. The last column flags each count where ltc needs
more than Triton (``st``, ``ld``, ``shfl``, ``bar``; ``smem`` = all shared
instructions together) and any plan that is not exact or misses a reachable
wavefront bound. The summary says on how many cases ltc has fewer, equal or
more of each, and whether the targets hold: never more shared instructions,
shuffles or barriers than Triton; the wavefront bound met wherever reachable.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))  # xdsl installs a top-level 'benchmarks' package

from convert_cases import CASES, ConvertCase  # noqa: E402
from progress import track  # noqa: E402

from ltc import to_linear_layout  # noqa: E402
from ltc.lowering.plans.convert import plan_conversion  # noqa: E402
from ltc.lowering.plans.simulate import simulate  # noqa: E402
from ltc.lowering.plans.swizzle import conflict_free_reachable  # noqa: E402


def ltc_row(case: ConvertCase) -> dict:
    src = to_linear_layout(case.src, case.shape)
    dst = to_linear_layout(case.dst, case.shape)
    t = time.perf_counter()
    plan = plan_conversion(src, dst, case.elem_bits, compute_capability=90)
    ms = 1000 * (time.perf_counter() - t)
    report = simulate(plan)
    c = plan.counts
    return {
        "kind": plan.kind,
        "st": c.shared_stores,
        "ld": c.shared_loads,
        "stm": c.stmatrix,
        "ldm": c.ldmatrix,
        "shfl": c.shuffles,
        "bar": c.barriers,
        "scratch": plan.scratch_bytes,
        "wf": report.wavefronts,
        "lb": report.wavefront_lower_bound,
        "exact": report.exact,
        "reachable": plan.kind == "shared" and conflict_free_reachable(src, dst, case.elem_bits),
        "plan_ms": ms,
    }


def triton_row(case: ConvertCase, use_cache: bool) -> dict:
    from triton_convert import triton_convert_counts

    t = triton_convert_counts(case, use_cache=use_cache)
    return {
        "st": t.st_shared,
        "ld": t.ld_shared,
        "stm": t.stmatrix,
        "ldm": t.ldmatrix,
        "shfl": t.shfl,
        "bar": t.bar_sync,
        "scratch": t.scratch_bytes,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="case names (default: all)")
    ap.add_argument("--no-triton", action="store_true", help="ltc's columns only")
    ap.add_argument("--no-cache", action="store_true", help="recompile the Triton kernels")
    args = ap.parse_args(argv)
    cases = [c for c in CASES if not args.names or c.name in args.names]

    head = ["case", "kind", "st", "ld", "stmatrix", "ldmatrix", "shfl", "bar", "scratch B", "wavefronts/bound", "worse than Triton"]
    rows = []
    worse_cases = 0
    tally = {k: [0, 0, 0] for k in ("smem", "shfl", "bar")}  # fewer, equal, more
    bad = 0
    for case in track(cases, "bench_convert_plans"):
        a = ltc_row(case)
        b = None if args.no_triton else triton_row(case, not args.no_cache)
        flags = []
        if not a["exact"]:
            flags.append("NOT EXACT")
            bad += 1
        if a["reachable"] and a["wf"] != a["lb"]:
            flags.append("bound missed")
            bad += 1

        def both(k: str) -> str:
            return str(a[k]) if b is None else f"{a[k]}/{b[k]}"

        if b is not None:
            smem_a = a["st"] + a["ld"] + a["stm"] + a["ldm"]
            smem_b = b["st"] + b["ld"] + b["stm"] + b["ldm"]
            for key, x, y in (("smem", smem_a, smem_b), ("shfl", a["shfl"], b["shfl"]), ("bar", a["bar"], b["bar"])):
                tally[key][(x > y) - (x < y) + 1] += 1
                if x > y:
                    flags.append(f"{key} +{x - y}")
            if any(f[0] in "sb" and "+" in f for f in flags):
                worse_cases += 1
        rows.append([
            case.name, a["kind"], both("st"), both("ld"), both("stm"), both("ldm"), both("shfl"), both("bar"),
            both("scratch"), f"{a['wf']}/{a['lb']}", ", ".join(flags) or "-",
        ])
    widths = [max(len(str(r[i])) for r in (head, *rows)) for i in range(len(head))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(head, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print("| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |")
    print()
    print(f"{len(cases)} cases; columns are ltc/Triton 3.9 (sm_90 PTX, static counts)")
    if not args.no_triton:
        for key, (fewer, equal, more) in tally.items():
            print(f"  {key:<5} ltc fewer on {fewer}, equal on {equal}, more on {more}")
        print(f"  cases where ltc needs more shared instructions, shuffles or barriers: {worse_cases}")
    print(f"  plans not exact or missing a reachable wavefront bound: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
