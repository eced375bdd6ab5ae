"""Seeded sweep: plan and simulate many random layout pairs; every plan must be exact.

    python benchmarks/bench_plan_sweep.py [--pairs 20000] [--seed 0]

Pairs come from ``tests/random_layouts.py`` (Triton encodings, random linear
layouts, warp-local and thread-local variants, broadcast anywhere; 8–64-bit
elements; 1–8 warps). Prints, per family, how many plans of each kind were made,
how many the simulator found exact, how many shared-memory plans reached the
wavefront lower bound (overall and where §9.2 says it is reachable), whether
shuffle plans stayed within the paper's round bound, and the time per pair.
Exits 1 if any plan was not exact or broke a bound. Progress goes to stderr (``progress.py``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # xdsl installs a top-level 'benchmarks'

from ltc.lowering.plans.convert import plan_conversion  # noqa: E402
from ltc.lowering.plans.shuffle import shuffle_round_bound  # noqa: E402
from ltc.lowering.plans.simulate import simulate  # noqa: E402
from ltc.lowering.plans.swizzle import conflict_free_reachable  # noqa: E402
from progress import track  # noqa: E402
from tests.random_layouts import FAMILIES, random_layout_pair  # noqa: E402


def shuffle_rounds(plan) -> int:
    """Shuffle instructions per 32-bit word moved — the plan's rounds."""
    return plan.counts.shuffles // (2 if plan.element_bits == 64 else 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    kinds: dict[str, Counter] = defaultdict(Counter)
    stats: dict[str, Counter] = defaultdict(Counter)
    failures: list[str] = []
    t0 = time.perf_counter()
    for i in track(range(args.pairs), "plan sweep"):
        pair = random_layout_pair(np.random.default_rng([args.seed, i]))
        fam = pair.family
        try:
            plan = plan_conversion(pair.src, pair.dst, pair.element_bits)
            report = simulate(plan)
        except Exception as e:  # a crash is a failure to report, not to hide
            failures.append(f"pair {i} ({pair.description}): {type(e).__name__}: {e}")
            continue
        kinds[fam][plan.kind] += 1
        s = stats[fam]
        s["pairs"] += 1
        s["exact"] += report.exact
        if not report.exact:
            failures.append(f"pair {i} ({pair.description}): {report.first_mismatch or report.errors}")
        if plan.kind == "shared":
            s["shared"] += 1
            s["at_bound"] += report.conflict_free
            if conflict_free_reachable(pair.src, pair.dst, pair.element_bits):
                s["reachable"] += 1
                s["reachable_at_bound"] += report.conflict_free
                if not report.conflict_free:
                    failures.append(
                        f"pair {i} ({pair.description}): {report.wavefronts} wavefronts, "
                        f"bound {report.wavefront_lower_bound} is reachable"
                    )
        if plan.kind == "shuffle":
            s["shuffle"] += 1
            bound = shuffle_round_bound(pair.src, pair.dst, pair.element_bits)
            ok = shuffle_rounds(plan) <= bound
            s["within_round_bound"] += ok
            if not ok:
                failures.append(f"pair {i} ({pair.description}): {shuffle_rounds(plan)} rounds > bound {bound}")
    elapsed = time.perf_counter() - t0

    print(f"{args.pairs} random pairs, seed {args.seed}: {elapsed:.1f} s ({1000 * elapsed / args.pairs:.2f} ms per pair)")
    print()
    head = ("family", "pairs", "noop", "regs", "shuffle", "shared", "exact", "shared at bound", "reachable at bound", "shuffle ≤ bound")
    rows = []
    total = Counter()
    for fam in FAMILIES:
        s, k = stats[fam], kinds[fam]
        total.update(s)
        for kk, v in k.items():
            total["kind_" + kk] += v
        rows.append((fam, s["pairs"], k["noop"], k["registers"], k["shuffle"], k["shared"], s["exact"],
                     f"{s['at_bound']}/{s['shared']}", f"{s['reachable_at_bound']}/{s['reachable']}",
                     f"{s['within_round_bound']}/{s['shuffle']}"))
    rows.append(("all", total["pairs"], total["kind_noop"], total["kind_registers"], total["kind_shuffle"],
                 total["kind_shared"], total["exact"], f"{total['at_bound']}/{total['shared']}",
                 f"{total['reachable_at_bound']}/{total['reachable']}",
                 f"{total['within_round_bound']}/{total['shuffle']}"))
    widths = [max(len(str(r[i])) for r in (head, *rows)) for i in range(len(head))]
    print("| " + " | ".join(str(h).ljust(w) for h, w in zip(head, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print("| " + " | ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(r, widths))) + " |")
    if failures:
        print(f"\n{len(failures)} failures:")
        for f in failures[:20]:
            print("  " + f)
        return 1
    print("\nevery plan exact; every reachable bound reached; every shuffle plan within the round bound")
    return 0


if __name__ == "__main__":
    sys.exit(main())
