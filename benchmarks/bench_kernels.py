"""The corpus kernels through ltc's whole code generation, checked in the simulator.

    python benchmarks/bench_kernels.py [SUBSTRING ...] [--setting cuda80-w4 ...] [--limit N]
                                       [--timeout S] [--json OUT.json] [--no-triton] [--ttgir]

For every variant of the layout-assignment corpus (``build_corpus.py``; built when
missing) whose id contains a SUBSTRING, its TTIR (what Triton's frontend printed, no
layouts) goes through ``compile_kernel`` (ltc's layouts, lowering and PTX for the
setting's target and warps), then:

* ``ptxas`` assembles the PTX for the target (and counts SASS instructions);
* the value interpreter runs the TTIR and the PTX simulator runs ltc's PTX, one program
  (grid 1x1x1), on the same synthesized arguments: every pointer an array of 2^16
  seeded random elements of its pointee type (raw bits for bf16 and fp8), every integer
  16 (a multiple of the ``tt.divisibility`` the corpus asks), every float 0.5. Then every
  array must be equal: bitwise for integer and raw-bit data, within 1e-5 relative to the
  element or to the array's largest magnitude (and NaN where NaN) for f16/f32/f64 (the
  libm routines are ltc's own, reductions run in another order). Elements a store's
  lanes race on (two lanes wrote different values: the interpreter's
  ``InterpretStats.racy``) are left out: any order is a correct outcome. The simulator
  starts registers and shared memory at a poison value, so a read of what was never
  written shows as on a GPU, and counts shared-memory races between warps (a missing
  barrier: ``RACE``, a failure like ``DIFF``). One cause of a ``DIFF`` that is not an error: random data
  can make a reduction depend on its order (a Welford merge of random counts).

Columns: ``lowered`` (``yes`` or the first op the lowering refuses), ``ptxas``, ``sass``,
``triton sass`` (Triton 3.9's own PTX for the same TTIR, setting and warps, from
``triton.compile`` on the CPU, assembled by the same ``ptxas`` and counted the same way;
empty without triton or with ``--no-triton``), ``check`` (``same``, ``DIFF: <array>
<count>``, or why no comparison ran: the interpreter refused the synthesized arguments,
a timeout). Totals per setting: variants, lowered, assembled, compared, same, and over
the kernels with both SASS counts: how many have ltc's <= Triton's and the geometric
mean of ltc / Triton (issue 17's targets: every non-matmul kernel <= 1, mean <= 0.95).
A ``DIFF`` sets the exit status to 1. With ``--ttgir`` the input is Triton's own final
TTGIR of each variant instead (its layouts, software pipeline and async copies; the
interpreter runs that TTGIR).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import signal
import subprocess
import sys
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from build_corpus import DEFAULT_OUT as CORPUS_DIR  # noqa: E402
from gpu_corpus import argument_specs, compare_outputs, host_arguments  # noqa: E402
from sass_stats import AssembleError, assemble, sass_counts, sass_text  # noqa: E402

from ltc import simulate_ptx  # noqa: E402

from ltc.lowering.llvm.function import LoweringError  # noqa: E402
from ltc.passes.interpret import run_kernel  # noqa: E402
from ltc.tools.pipeline import compile_kernel, parse_module  # noqa: E402
from tests.triton_pipeline import triton_compile_file  # noqa: E402

SETTINGS = ("cuda80-w4", "cuda80-w8", "cuda90-w4", "cuda90-w8")


@dataclass
class Row:
    variant: str
    lowered: str
    ptxas: str
    sass: int | None
    check: str
    sass_triton: int | None = None


class _Timeout(Exception):
    pass


def _alarm(_sig, _frame):  # noqa: ANN001, ANN202
    raise _Timeout()


def measure(variant: str, ttir: str, target: str, num_warps: int, timeout: int) -> Row:
    try:
        ptx = compile_kernel(ttir, emit="ptx", target=target, num_warps=num_warps, name=variant)
    except LoweringError as e:
        return Row(variant, e.message[:90], "", None, "")
    except Exception as e:  # noqa: BLE001 - a row reports what stopped the kernel
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        m = re.search(r"error: (.*)", first)
        return Row(variant, (m.group(1) if m else first)[:90], "", None, "")
    sass = None
    ptxas = "n/a"
    if shutil.which("ptxas"):
        try:
            cubin = assemble(ptx, target)
            ptxas = "ok"
        except AssembleError as e:
            cubin = None
            ptxas = "FAIL: " + (str(e).strip().splitlines() or ["ptxas"])[0][:80]
        if cubin is not None:
            try:
                sass = sass_counts(sass_text(cubin)).instructions
            except Exception:  # noqa: BLE001 - a missing cuobjdump leaves the cell empty
                sass = None
    module = parse_module(ttir)  # (the interpreter only reads it)
    try:
        base = host_arguments(argument_specs(module), seed=1)
    except Exception as e:  # noqa: BLE001
        return Row(variant, "yes", ptxas, sass, f"no arguments: {e}"[:90])
    copies = [[a.copy() if isinstance(a, np.ndarray) else a for a in base] for _ in range(2)]
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        signal.alarm(timeout)
        try:
            racy = run_kernel(module, copies[0]).racy
        except _Timeout:
            return Row(variant, "yes", ptxas, sass, "interpreter timeout")
        except Exception as e:  # noqa: BLE001 - the synthesized arguments do not fit the kernel
            return Row(variant, "yes", ptxas, sass, f"interpreter: {str(e).splitlines()[0][:70]}")
        signal.alarm(timeout)
        try:
            sim = simulate_ptx(ptx, (1, 1, 1), copies[1])
        except _Timeout:
            return Row(variant, "yes", ptxas, sass, "simulator timeout")
        except Exception as e:  # noqa: BLE001
            return Row(variant, "yes", ptxas, sass, f"SIMULATOR: {str(e).splitlines()[0][:70]}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    if sim.shared_races:  # lockstep hides a missing barrier; the race check does not
        return Row(variant, "yes", ptxas, sass, f"RACE: {sim.shared_races} shared bytes, {sim.first_shared_race}"[:90])
    return Row(variant, "yes", ptxas, sass, compare_outputs(copies[0], copies[1], racy))


def triton_sass(path: Path, target: str, num_warps: int) -> int | None:
    """SASS instructions of Triton's PTX for the TTIR file ``path``, assembled for
    ``target`` by the ``ptxas`` ltc's PTX meets; None where Triton, ptxas or cuobjdump
    is missing or refuses."""
    try:
        ptx = triton_compile_file(path, int(target[3:]), num_warps).asm["ptx"]
        return sass_counts(sass_text(assemble(ptx, target))).instructions
    except Exception:  # noqa: BLE001 - the cell stays empty
        return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("substrings", nargs="*")
    ap.add_argument("--setting", nargs="+", choices=SETTINGS, default=["cuda80-w4"])
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--timeout", type=int, default=30, help="seconds per run of the interpreter or the simulator")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--no-triton", action="store_true", help="skip the Triton SASS column")
    ap.add_argument("--ttgir", action="store_true",
                    help="lower Triton's own final TTGIR of each kernel (its layouts, pipelining and async copies) "
                         "instead of laying out the TTIR")
    args = ap.parse_args()
    rows: list[Row] = []
    failed = False
    for setting in args.setting:
        folder = CORPUS_DIR / setting
        if not folder.is_dir():
            subprocess.run([sys.executable, str(Path(__file__).with_name("build_corpus.py"))], check=True)
        target = "sm_" + setting[4:6]
        warps = int(setting.split("-w")[1])
        files = sorted(folder.glob("*.ttir"))
        files = [f for f in files if not args.substrings or any(s in f.stem for s in args.substrings)]
        if args.limit:
            files = files[: args.limit]
        tally: Counter[str] = Counter()
        print(f"| {setting} variant | lowered | ptxas | sass | triton sass | check |\n|---|---|---|---:|---:|---|")
        for f in files:
            source = f.with_suffix(".ttgir") if args.ttgir else f
            row = measure(f"{setting}/{f.stem}", source.read_text(), target, warps, args.timeout)
            if row.sass is not None and not args.no_triton:
                row.sass_triton = triton_sass(f, target, warps)
            rows.append(row)
            print(f"| {row.variant} | {row.lowered} | {row.ptxas} | {_cell(row.sass)} | {_cell(row.sass_triton)} | {row.check} |",
                  flush=True)
            tally["variants"] += 1
            tally["lowered"] += row.lowered == "yes"
            tally["assembled"] += row.ptxas == "ok"
            tally["compared"] += row.check.startswith(("same", "DIFF"))
            tally["same"] += row.check.startswith("same")
            failed |= row.check.startswith(("DIFF", "SIMULATOR", "RACE"))
        print(f"\n{setting}: {tally['variants']} variants, {tally['lowered']} lowered to PTX, {tally['assembled']} "
              f"assembled by ptxas, {tally['compared']} compared with the interpreter, {tally['same']} the same")
        both = [r for r in rows if r.variant.startswith(setting) and r.sass and r.sass_triton]
        if both:
            le = sum(r.sass <= r.sass_triton for r in both)  # type: ignore[operator]
            mean = float(np.exp(np.mean([np.log(r.sass / r.sass_triton) for r in both])))  # type: ignore[operator]
            print(f"SASS vs Triton's PTX (same ptxas), {len(both)} kernels: ltc <= Triton on {le}, geometric mean "
                  f"ltc/Triton {mean:.3f}, total {sum(r.sass for r in both)} vs {sum(r.sass_triton for r in both)}"  # type: ignore[misc]
                  "   [targets: <= on every non-matmul kernel, mean <= 0.95]")
        refusals = Counter(r.lowered.split(" is not supported")[0] for r in rows
                           if r.variant.startswith(setting) and r.lowered != "yes")
        print("first refusal per kernel: " + ", ".join(f"{k} ({v})" for k, v in refusals.most_common(12)))
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1))
    return 1 if failed else 0


def _cell(n: int | None) -> str:
    return "" if n is None else str(n)


if __name__ == "__main__":
    sys.exit(main())
