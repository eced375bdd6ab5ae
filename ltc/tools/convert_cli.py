"""``ltc-layout convert SRC DST --shape MxN --dtype f16``: plan a layout conversion and show it.

Builds both layouts, plans the conversion (``ltc.lowering.plans.convert``), runs the
plan for every thread of the CTA in the simulator (``ltc.lowering.plans.simulate``)
and prints the plan with its costs; ``--json`` prints one object with exactly
the keys of :data:`JSON_KEYS`. Counts are static per-thread instruction
counts, as they would appear in PTX; wavefronts are totals over all warps.

Exit status: 0 when the plan was verified exact, 1 for bad input, 2 for usage
errors, 3 when ltc failed (including a plan the simulator found wrong).
This is the driver layer: it imports the lowering layer.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import TextIO

from ltc.tools.layout_input import CliError, build_layout, check_in_dim, parse_shape

__all__ = ["DTYPE_BITS", "JSON_KEYS", "convert_parser", "run_convert"]

DTYPE_BITS = {
    "f16": 16,
    "bf16": 16,
    "f32": 32,
    "i8": 8,
    "i16": 16,
    "i32": 32,
    "i64": 64,
    "fp8e5": 8,
    "fp8e4nv": 8,
}

TARGETS = {"sm_80": 80, "sm_90": 90}

JSON_KEYS = (
    "kind",
    "shared_stores",
    "shared_loads",
    "stmatrix",
    "ldmatrix",
    "shuffles",
    "barriers",
    "scratch_bytes",
    "wavefronts",
    "wavefront_lower_bound",
    "verified",
)

_DESCRIPTION = """\
Plan the conversion of a tensor of shape SHAPE from layout SRC to layout DST
(Triton attribute texts, parents inline) and print the plan and its costs:
kind (noop, registers, shuffle, shared), the per-thread instructions, shared
stores/loads by width, stmatrix/ldmatrix, shuffles, selects, barriers,
scratch bytes, and shared-memory wavefronts against their lower bound. The
plan is run for every thread of the CTA by ltc's simulator before printing;
"verified" says every destination register got exactly its element."""

_EPILOG = """\
examples:
  ltc-layout convert '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], \\
      warpsPerCTA = [4, 1], order = [1, 0]}>' '#ttg.blocked<{sizePerThread = [8, 1], \\
      threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>' --shape 64x64 --dtype f16
  ltc-layout convert SRC DST --shape 128x64 --dtype f32 --num-warps 8 --json

--json prints {"kind", "shared_stores", "shared_loads", "stmatrix", "ldmatrix",
"shuffles", "barriers", "scratch_bytes", "wavefronts", "wavefront_lower_bound",
"verified"} on one line.
exit status: 0 ok, 1 bad input, 2 usage error, 3 internal error or unverified plan."""


def convert_parser(parser_class: type[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """The argument parser of ``ltc-layout convert`` (built on the caller's non-exiting class)."""
    p = parser_class(
        prog="ltc-layout convert",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("src", metavar="SRC", help="source layout attribute, e.g. '#ttg.blocked<{...}>'")
    p.add_argument("dst", metavar="DST", help="destination layout attribute")
    p.add_argument("--shape", required=True, metavar="SHAPE", help="tensor shape, e.g. 64x64")
    p.add_argument(
        "--dtype",
        required=True,
        choices=list(DTYPE_BITS),
        metavar="DTYPE",
        help="element type: " + ", ".join(DTYPE_BITS),
    )
    p.add_argument("--num-warps", type=int, metavar="N", help="check that both layouts have N warps")
    p.add_argument(
        "--target",
        default="sm_90",
        choices=list(TARGETS),
        metavar="TARGET",
        help="sm_80 or sm_90 (default sm_90; stmatrix needs sm_90)",
    )
    form = p.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print the costs as one JSON object")
    form.add_argument("--brief", action="store_true", help="print the costs without the instructions")
    return p


def run_convert(args: argparse.Namespace, out: TextIO) -> int:
    """Plan, simulate and print; returns the exit status (3 when the plan is not exact).

    Raises :class:`ltc.tools.layout_cli.CliError` for bad input.
    """
    from ltc.lowering.plans.convert import plan_conversion
    from ltc.lowering.plans.plan import PlanError
    from ltc.lowering.plans.simulate import simulate

    shape = parse_shape(args.shape)
    src = build_layout(args.src, shape)
    dst = build_layout(args.dst, shape)
    for name, lay in (("SRC", src), ("DST", dst)):
        try:
            check_in_dim(lay, "warp", args.num_warps, "--num-warps")
        except CliError as e:
            raise CliError(f"{name}: {e.message}") from None
    bits = DTYPE_BITS[args.dtype]
    try:
        plan = plan_conversion(src, dst, bits, compute_capability=TARGETS[args.target])
    except PlanError as e:
        raise CliError(str(e)) from None
    report = simulate(plan)
    c = plan.counts
    if args.json:
        values = {
            "kind": plan.kind,
            "shared_stores": c.shared_stores,
            "shared_loads": c.shared_loads,
            "stmatrix": c.stmatrix,
            "ldmatrix": c.ldmatrix,
            "shuffles": c.shuffles,
            "barriers": c.barriers,
            "scratch_bytes": plan.scratch_bytes,
            "wavefronts": report.wavefronts,
            "wavefront_lower_bound": report.wavefront_lower_bound,
            "verified": report.exact,
        }
        print(json.dumps({k: values[k] for k in JSON_KEYS}), file=out)
    else:
        out.write(_describe(args, shape, bits, plan, report))
    return 0 if report.exact else 3


def _by_bits(pairs: Sequence[tuple[int, int]]) -> str:
    return ", ".join(f"{n}×{b}-bit" for b, n in pairs)


def _describe(args, shape, bits, plan, report) -> str:
    c = plan.counts
    warps = plan.num_warps
    lines = [
        f"convert {'x'.join(map(str, shape))} {args.dtype} ({bits}-bit), {warps} warp{'s' * (warps != 1)}, {args.target}",
        f"  from: {args.src.strip()}",
        f"  to:   {args.dst.strip()}",
        f"kind: {plan.kind}" + (f" ({plan.algorithm})" if plan.algorithm else ""),
    ]
    lines += [f"  {n}" for n in plan.notes]
    if not args.brief:
        lines.append("per-thread instructions:")
        for step in plan.steps:
            lines.append(f"  {step.name}:")
            lines += [f"    {i}" for i in step.instructions]
    rows = [
        ("shared stores", f"{c.shared_stores}" + (f"  ({_by_bits(c.shared_stores_by_bits)})" if c.shared_stores else "")),
        ("shared loads", f"{c.shared_loads}" + (f"  ({_by_bits(c.shared_loads_by_bits)})" if c.shared_loads else "")),
        ("stmatrix", str(c.stmatrix)),
        ("ldmatrix", str(c.ldmatrix)),
        ("shuffles", str(c.shuffles)),
        ("selects", str(c.selects)),
        ("barriers", str(c.barriers) + (f"  (+{c.warp_syncs} bar.warp.sync)" if c.warp_syncs else "")),
        ("scratch bytes", str(plan.scratch_bytes)),
        ("wavefronts", f"{report.wavefronts} (lower bound {report.wavefront_lower_bound})"),
    ]
    lines.append("costs (static, per thread; wavefronts over all warps):")
    lines += [f"  {k:<14} {v}" for k, v in rows]
    threads = warps * plan.threads_per_warp
    if report.exact:
        lines.append(f"verified: yes (simulated {threads} threads; every destination register exact)")
    else:
        why = report.first_mismatch or "; ".join(report.errors)
        lines.append(f"verified: NO ({report.mismatches} wrong registers; {why})")
    return "\n".join(lines) + "\n"
