"""ltc's code generation beside Triton 3.9's, on the conversion benchmark's kernels.

For every :class:`~convert_cases.ConvertCase` (``benchmarks/convert_cases.py``) the kernel
``load (layout src) -> convert_layout -> store (layout dst)`` is compiled twice:

* Triton: Triton 3.9's own PTX (``triton_convert.triton_convert_counts(case).ptx``),
* ltc: ``ltc.tools.pipeline.compile_kernel(ttgir, emit="ptx", target="sm_90")`` of the TTGIR
  Triton printed for that kernel (``triton_convert.kernel_ttgir(case)``),

and both PTX texts are assembled by the same ``ptxas`` (``sass_stats.assemble``) and measured:

========  ===============================================================================
column    meaning (each cell ``ltc/triton``)
========  ===============================================================================
sass      SASS instructions (``sass_stats.SassCounts.instructions``: no NOPs, no final
          self-branch)
shared    SASS shared-memory instructions (LDS, STS, LDSM, STSM, ATOMS)
shfl      SASS shuffles (SHFL)
bar       SASS CTA barriers (BAR.*)
ld / st   SASS global loads / stores as ``COUNTxBITS`` (``4x128`` = four LDG.E.128)
smem      scratch bytes: ltc's module ``ttg.shared`` (the ``global_smem[N]`` array its PTX
          declares; above 48 KiB the array is ``.extern`` and N is read from the lowered
          module, ``compile_kernel(..., emit="mlir")``), Triton's ``metadata.shared``
wavefr    shared-memory wavefronts executed by one CTA on random input (ltc's PTX
          simulator, ``ltc.simulate_ptx``)
verdict   ``ok``, or ``WORSE:`` and the columns among sass, shared, bar, wavefr where ltc
          needs more than Triton; ``error`` where ltc failed on the case (cells ``err``),
          ``n/a`` while ltc has no ``compile_kernel``
========  ===============================================================================

The simulator also checks that each kernel copies (``out == in`` element for element; both
offsets cover the whole tensor); a kernel that does not is reported as ``FAIL`` loudly and
the exit status is 1.  The summary line counts, per column, the cases where ltc <=, == and <
Triton (among the cases where both are known).  Missing tools (ptxas, cuobjdump), a missing
``compile_kernel`` or simulator, or ``--no-sim`` show as ``n/a``.

``python benchmarks/bench_codegen.py [--cases SUBSTR] [--json] [--no-sim]``
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

# Imported as a top-level module (xdsl installs a package named ``benchmarks``).
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
from convert_cases import CASES, ConvertCase, num_elements  # noqa: E402
from copy_kernels import simulate_copy  # noqa: E402
from progress import track  # noqa: E402
from sass_stats import (  # noqa: E402
    AssembleError,
    ToolMissing,
    assemble_verbose,
    ptx_counts,
    sass_counts,
    sass_text,
    widths_text,
)
from triton_convert import kernel_ttgir, triton_convert_counts  # noqa: E402

from ltc.tools.convert_cli import DTYPE_BITS  # noqa: E402

TARGET = "sm_90"
COMPARED = ("sass", "shared", "shfl", "bar", "smem", "wavefr")
"""Columns the summary counts (smaller is better)."""
VERDICT_COLUMNS = ("sass", "shared", "bar", "wavefr")
"""Columns where ltc needing more than Triton marks the case."""

NOT_YET = "ltc.tools.pipeline.compile_kernel does not exist yet"

_GLOBAL_SMEM = re.compile(r"\.shared\s+(?:\.align\s+\d+\s+)?\.b8\s+global_smem\[(\d+)\]")
_EXTERN_SMEM = re.compile(r"\.extern\s+\.shared\s+(?:\.align\s+\d+\s+)?\.b8\s+global_smem\[\]")
_TTG_SHARED = re.compile(r'(?<![\w.])"?ttg\.shared"?\s*=\s*(\d+)')


def ltc_scratch_bytes(ptx: str) -> int | None:
    """The size of the ``global_smem[N]`` array ltc's PTX declares: 0 when it declares none,
    None when it is ``.extern`` (above 48 KiB; the size is then only in the module)."""
    m = _GLOBAL_SMEM.search(ptx)
    if m:
        return int(m.group(1))
    return None if _EXTERN_SMEM.search(ptx) else 0


def module_shared_bytes(mlir: str) -> int:
    """The ``ttg.shared`` attribute of a printed (lowered) module; 0 when absent."""
    m = _TTG_SHARED.search(mlir)
    return int(m.group(1)) if m else 0


def launch_shared_bytes(ptx: str, text: str, num_warps: int, target: str = "sm_90") -> int:
    """Dynamic shared bytes to launch ltc's PTX of ``text`` with: 0 where it declares a
    static ``global_smem[N]``, else the ``ttg.shared`` of the lowered module."""
    if ltc_scratch_bytes(ptx) is not None:
        return 0
    from ltc.tools.pipeline import compile_kernel

    return module_shared_bytes(compile_kernel(text, emit="mlir", target=target, num_warps=num_warps))


def ltc_compile_kernel():  # noqa: ANN201 - returns the function or None
    """``ltc.tools.pipeline.compile_kernel``, or None while it does not exist."""
    try:
        from ltc.tools.pipeline import compile_kernel
    except ImportError:
        return None
    return compile_kernel


def wavefronts_of(stats: Any) -> int:
    """Total shared-memory wavefronts in a ``PtxStats``."""
    for name in ("shared_wavefronts", "wavefronts", "total_wavefronts"):
        value = getattr(stats, name, None)
        if isinstance(value, int):
            return value
    fields = sorted(n for n in dir(stats) if not n.startswith("_"))
    raise AttributeError(f"no wavefront total in {type(stats).__name__} (fields: {', '.join(fields)})")


def measure_ptx(ptx: str, case: ConvertCase, scratch_bytes: int, *, simulate: bool) -> dict:
    """The metrics of one side (see the module doc); unknown values are None."""
    out: dict = dict.fromkeys(("sass", "shared", "shfl", "bar", "ld", "st", "registers", "wavefr",
                               "wavefr_lower_bound"))
    out.update(smem=scratch_bytes, copy="n/a", notes=[])
    counts = ptx_counts(ptx)
    out["ptx"] = {
        "ld_shared": counts.ld_shared, "st_shared": counts.st_shared, "ldmatrix": counts.ldmatrix,
        "stmatrix": counts.stmatrix, "shfl": counts.shfl, "bar_sync": counts.bar_sync,
        "global_loads": widths_text(counts.global_loads), "global_stores": widths_text(counts.global_stores),
    }
    try:
        cubin, usage = assemble_verbose(ptx, TARGET)
        sass = sass_counts(sass_text(cubin))
        out.update(sass=sass.instructions, shared=sass.shared, shfl=sass.shuffles, bar=sass.barriers,
                   ld=widths_text(sass.global_loads), st=widths_text(sass.global_stores),
                   registers=usage.registers)
    except ToolMissing as e:
        out["notes"].append(str(e))
    except (AssembleError, RuntimeError) as e:
        out["notes"].append(f"assembly failed: {e}")
    if simulate:
        try:
            run = simulate_copy(ptx, num_elements(case), DTYPE_BITS[case.dtype] // 8)
            out["wavefr"] = wavefronts_of(run.stats)
            out["wavefr_lower_bound"] = getattr(run.stats, "wavefront_lower_bound", None)
            out["copy"] = "ok" if run.ok else f"FAIL ({run.mismatches} elements wrong)"
        except ImportError as e:
            out["notes"].append(f"no simulator: {e}")
        except Exception as e:  # the simulator rejected the PTX: a result to report
            out["copy"] = f"FAIL ({type(e).__name__}: {e})"
    return out


def measure_case(case: ConvertCase, *, simulate: bool = True) -> dict:
    """Both sides of one case and the verdict."""
    counts = triton_convert_counts(case)
    row: dict = {"case": case.name, "category": case.category,
                 "triton": measure_ptx(counts.ptx, case, counts.scratch_bytes, simulate=simulate)}
    compile_kernel = ltc_compile_kernel()
    if compile_kernel is None:
        row["ltc"], row["error"] = None, NOT_YET
    else:
        try:
            ttgir, name = kernel_ttgir(case), f"{case.name}.ttgir"
            ptx = compile_kernel(ttgir, emit="ptx", target=TARGET, name=name)
            smem = ltc_scratch_bytes(ptx)
            if smem is None:  # dynamic shared memory: read ttg.shared from the lowered module
                smem = module_shared_bytes(compile_kernel(ttgir, emit="mlir", target=TARGET, name=name))
            row["ltc"], row["error"] = measure_ptx(ptx, case, smem, simulate=simulate), None
        except Exception as e:  # ltc failing on a case is a result, not a crash of the benchmark
            row["ltc"], row["error"] = None, f"{type(e).__name__}: {e}"
    row["verdict"] = verdict(row)
    return row


def verdict(row: dict) -> str:
    ltc, tri = row["ltc"], row["triton"]
    if ltc is None:
        return "n/a" if row["error"] == NOT_YET else "error"
    worse = [c for c in VERDICT_COLUMNS if ltc[c] is not None and tri[c] is not None and ltc[c] > tri[c]]
    return "WORSE:" + ",".join(worse) if worse else "ok"


def summary(rows: list[dict]) -> dict[str, dict[str, int]]:
    """Per column: cases compared, and how many have ltc <=, ==, < Triton."""
    out = {}
    for col in COMPARED:
        pairs = [(r["ltc"][col], r["triton"][col]) for r in rows
                 if r["ltc"] is not None and r["ltc"][col] is not None and r["triton"][col] is not None]
        out[col] = {"cases": len(pairs), "le": sum(a <= b for a, b in pairs),
                    "eq": sum(a == b for a, b in pairs), "lt": sum(a < b for a, b in pairs)}
    return out


def copy_failures(rows: list[dict]) -> list[str]:
    fails = []
    for r in rows:
        for side in ("ltc", "triton"):
            m = r[side]
            if m is not None and str(m["copy"]).startswith("FAIL"):
                fails.append(f"FAIL: {r['case']}: {side}'s kernel does not copy: {m['copy']}")
    return fails


def _cell(row: dict, col: str) -> str:
    def one(m: dict | None) -> str:
        if m is None:
            return "n/a" if row["error"] == NOT_YET else "err"
        v = m[col]
        return "n/a" if v is None else str(v)

    return f"{one(row['ltc'])}/{one(row['triton'])}"


def format_table(rows: list[dict]) -> str:
    cols = ("sass", "shared", "shfl", "bar", "ld", "st", "smem", "wavefr")
    cells = [[r["case"], *(_cell(r, c) for c in cols), r["verdict"]] for r in rows]
    heads = ["case (ltc/triton)", *cols, "verdict"]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(heads)]
    line = lambda vals: "  ".join(f"{v:<{w}}" for v, w in zip(vals, widths)).rstrip()  # noqa: E731
    out = [line(heads), "-" * len(line(heads))] + [line(c) for c in cells]
    s = summary(rows)
    out.append("summary: " + "; ".join(
        f"{c} ltc<=triton {v['le']}/{v['cases']} (== {v['eq']}, < {v['lt']})" for c, v in s.items()))
    errors = [f"  {r['case']}: {r['error']}" for r in rows if r["error"]]
    if errors and all(r["ltc"] is None for r in rows) and len({r["error"] for r in rows}) == 1:
        out.append(f"note: ltc: {rows[0]['error']}")
    elif errors:
        out.append("ltc errors:")
        out += errors
    notes = sorted({n for r in rows for side in ("ltc", "triton") if r[side] for n in r[side]["notes"]})
    out += [f"note: {n}" for n in notes]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--cases", metavar="SUBSTR", help="only cases whose name contains SUBSTR")
    parser.add_argument("--json", action="store_true", help="print rows and summary as JSON")
    parser.add_argument("--no-sim", action="store_true", help="do not simulate (no wavefronts, no copy check)")
    args = parser.parse_args(argv)
    cases = [c for c in CASES if not args.cases or args.cases in c.name]
    if not cases:
        print(f"error: no case name contains {args.cases!r}", file=sys.stderr)
        return 1
    rows = [measure_case(c, simulate=not args.no_sim) for c in track(cases, "bench_codegen")]
    fails = copy_failures(rows)
    if args.json:
        print(json.dumps({"rows": rows, "summary": summary(rows), "failures": fails}, indent=1))
    else:
        print(format_table(rows))
    for f in fails:
        print(f, file=sys.stderr)
    if fails:
        print(f"FAIL: {len(fails)} kernel(s) do not copy their input", file=sys.stderr)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
