"""Global load/store widths of the ``[512, k]`` copy kernels: target, Triton 3.9, ltc.

For every ``k`` in :data:`copy_kernels.K_VALUES` and element type f8 / f16, prints

* ``target``: :data:`copy_kernels.PAPER_TABLE2` (derived widths; see its doc),
* ``triton``: the ``ld.global`` / ``st.global`` shapes in Triton 3.9's PTX,
* ``ltc``: the same for ``ltc.tools.pipeline.compile_kernel(copy_kernel_ttir(...), emit="ptx")``,
* ``verdict``: ``OK`` when ltc's narrowest global access is at least as wide as the target,
  ``LOW`` otherwise; ``n/a`` when ltc has no ``compile_kernel`` yet or it failed,
* ``copy``: whether ltc's PTX copies ``in`` to ``out`` in ltc's simulator (``--no-sim`` skips).

Shapes are written ``COUNTxSHAPE`` (``4xv4.b32`` = four 128-bit accesses), loads then stores.
Exit status 1 when a verdict is LOW or a copy FAILs.

``python benchmarks/bench_global_widths.py [--json] [--no-sim]``
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

# Imported as a top-level module (xdsl installs a package named ``benchmarks``).
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
from copy_kernels import (  # noqa: E402
    K_VALUES,
    PAPER_TABLE2,
    ROWS,
    CopyWidths,
    copy_kernel_ttir,
    copy_widths,
    element_bytes,
    simulate_copy,
    triton_copy_widths,
)
from progress import track  # noqa: E402
from sass_stats import ptx_global_bits, widths_text  # noqa: E402

PAPER_DTYPE_ORDER = ("f8", "f16")


def ltc_compile_kernel():  # noqa: ANN201 - returns the function or None
    """``ltc.tools.pipeline.compile_kernel``, or None while it does not exist."""
    try:
        from ltc.tools.pipeline import compile_kernel
    except ImportError:
        return None
    return compile_kernel


def _shapes(w: CopyWidths) -> str:
    return f"{widths_text(w.loads)} / {widths_text(w.stores)}"


def measure(k: int, dtype: str, *, simulate: bool = True) -> dict:
    """One row: target, Triton's and ltc's widths, verdict, copy check."""
    target = PAPER_TABLE2[(k, dtype)]
    row: dict = {"k": k, "dtype": dtype, "target": target, "target_bits": ptx_global_bits(target)}
    try:
        tw = triton_copy_widths(k, dtype)
        row["triton"] = _shapes(tw)
        row["triton_bits"] = tw.narrowest_bits
    except ImportError:
        row["triton"], row["triton_bits"] = "n/a", None
    compile_kernel = ltc_compile_kernel()
    row.update(ltc="n/a", ltc_bits=None, verdict="n/a", copy="n/a", error=None)
    if compile_kernel is None:
        row["error"] = "ltc.tools.pipeline.compile_kernel does not exist yet"
        return row
    try:
        ptx = compile_kernel(copy_kernel_ttir(ROWS, k, dtype), emit="ptx", target="sm_90",
                             name=f"copy_{ROWS}x{k}_{dtype}.ttir")
    except Exception as e:  # a failure of ltc is a result to report, not a crash of the benchmark
        row.update(ltc="error", error=f"{type(e).__name__}: {e}")
        return row
    lw = copy_widths(ptx)
    row.update(ltc=_shapes(lw), ltc_bits=lw.narrowest_bits)
    row["verdict"] = "OK" if lw.narrowest_bits >= row["target_bits"] else "LOW"
    if simulate:
        try:
            run = simulate_copy(ptx, ROWS * k, element_bytes(dtype))
            row["copy"] = "ok" if run.ok else f"FAIL ({run.mismatches} wrong)"
        except ImportError:
            row["copy"] = "n/a"
        except Exception as e:  # the simulator rejected ltc's PTX: report it
            row["copy"] = f"FAIL ({type(e).__name__}: {e})"
    return row


def format_table(rows: list[dict]) -> str:
    cols = [("k", "k"), ("dtype", "dtype"), ("target", "target"), ("triton", "triton 3.9 (ld / st)"),
            ("ltc", "ltc (ld / st)"), ("verdict", "verdict"), ("copy", "copy")]
    widths = {key: max(len(head), *(len(str(r[key])) for r in rows)) for key, head in cols}
    head = "  ".join(f"{h:<{widths[k]}}" for k, h in cols)
    lines = [head, "-" * len(head)]
    lines += ["  ".join(f"{str(r[k]):<{widths[k]}}" for k, _ in cols).rstrip() for r in rows]
    errors = sorted({r["error"] for r in rows if r["error"]})
    lines += [f"note: {e}" for e in errors]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--no-sim", action="store_true", help="do not run ltc's PTX in the simulator")
    args = parser.parse_args(argv)
    grid = [(k, dt) for dt in PAPER_DTYPE_ORDER for k in K_VALUES]
    rows = [measure(k, dt, simulate=not args.no_sim) for k, dt in track(grid, "bench_global_widths")]
    print(json.dumps(rows, indent=1) if args.json else format_table(rows))
    failed = [r for r in rows if r["verdict"] == "LOW" or str(r["copy"]).startswith("FAIL")]
    if failed:
        print(f"FAIL: {len(failed)} case(s) LOW or not copying", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
