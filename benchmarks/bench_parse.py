"""Benchmark: reading and writing Triton IR text with ltc, beside Triton 3.9's own
parser and printer (through its Python binding), measured in the same process.

What is timed (the fastest of N runs; the minimum is robust to a busy machine):

1. A generated TTGIR module of about 10k ops, shaped like real TTGIR: one ``tt.func``
   of ``tt.splat``/``tt.addptr``/``tt.load``/arith/``ttg.convert_layout``/``tt.store``
   chains on ``tensor<1024x..., #blocked>`` values, two blocked layouts, a location on
   every op and the ``#loc`` aliases after the module, as Triton writes them.
   Rows: ltc's ``parse_module_text`` (and xDSL's plain ``Parser`` on the same text,
   the baseline the reader improves on), ``print_module``, ``verify_module``; Triton's
   ``ir.parse_mlir_module`` and ``module.str()``. Figures are ops per second.
2. Every example kernel (``examples/triton/*.ttir|*.ttgir``): ms for ``ltc-opt`` with
   no passes, in process (``ltc.tools.opt.run`` with ``io.StringIO`` streams: read, parse,
   verify, print), and ms for Triton's parse + print of the same file.

Triton's columns read ``n/a`` where Triton is not installed. Run from the repository
root: ``python benchmarks/bench_parse.py [--quick] [--ops N] [--corpus DIR]`` (``--corpus``
also times ``parse_module_text`` over every ``*.ttgir`` of DIR: real Triton output).
"""

from __future__ import annotations

import argparse
import gc
import glob
import io
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from ltc.dialects.context import triton_context  # noqa: E402
from ltc.dialects.printer import print_module  # noqa: E402
from ltc.dialects.reader import hoist_location_aliases, parse_module_text  # noqa: E402
from ltc.dialects.verifier import verify_module  # noqa: E402
from tests.generated_ir import generate_ttgir  # noqa: E402

EXAMPLES = os.path.join(ROOT, "examples", "triton")

# ----------------------------------------------------------------- timing
def best_s(fn: Callable[[], object], *, repeat: int) -> float:
    """Seconds for one call: the fastest of ``repeat`` calls (a full collection before each)."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def count_ops(module: Any) -> int:
    """Ops in ``module``, not counting the module itself."""
    return sum(1 for _ in module.walk()) - 1


# ----------------------------------------------------------------- Triton
@dataclass
class TritonIR:
    """Triton's binding with its dialects loaded, and a scratch file to parse from."""

    ir: Any
    context: Any
    scratch: str

    def parse(self, text: str) -> Any:
        with open(self.scratch, "w") as f:
            f.write(text)
        return self.ir.parse_mlir_module(self.scratch, self.context)

    def parse_file(self, path: str) -> Any:
        return self.ir.parse_mlir_module(path, self.context)


def load_triton() -> TritonIR | None:
    """Triton's IR binding, or None (with a note on stderr) where it cannot be loaded."""
    try:
        from triton._C import libtriton as lt
    except Exception as e:  # not installed, or a broken install
        print(f"Triton not available ({type(e).__name__}: {e}); its columns read n/a", file=sys.stderr)
        return None
    context = lt.ir.context()
    lt.ir.load_dialects(context)
    lt.nvidia.load_dialects(context)
    lt.amd.load_dialects(context)
    fd, scratch = tempfile.mkstemp(prefix="bench_parse_", suffix=".mlir")
    os.close(fd)
    return TritonIR(lt.ir, context, scratch)


# ----------------------------------------------------------------- the runs
@dataclass(frozen=True)
class RateRow:
    what: str
    ltc: float | None  # ops/s
    triton: float | None


def module_rows(n_ops: int, repeat: int, triton: TritonIR | None) -> tuple[int, list[RateRow]]:
    from xdsl.parser import Parser

    text = generate_ttgir(n_ops)
    ctx = triton_context()
    module = parse_module_text(ctx, text, "generated.ttgir").module
    verify_module(module)
    n = count_ops(module)
    hoisted, _ = hoist_location_aliases(text)

    def rate(fn: Callable[[], object]) -> float:
        return n / best_s(fn, repeat=repeat)

    parse = rate(lambda: parse_module_text(ctx, text, "generated.ttgir"))
    xdsl_parse = rate(lambda: Parser(ctx, hoisted, "generated.ttgir").parse_module())
    printed = rate(lambda: print_module(module, io.StringIO(), debuginfo=True))
    verify = rate(lambda: verify_module(module))

    t_parse = t_print = None
    if triton is not None:
        try:
            t_module = triton.parse(text)  # also leaves the text in the scratch file
            t_parse = rate(lambda: triton.parse_file(triton.scratch))
            t_print = rate(lambda: t_module.str())
        except RuntimeError as e:
            print(f"Triton rejected the generated module: {e}", file=sys.stderr)
    rows = [
        RateRow("parse (ltc parse_module_text)", parse, t_parse),
        RateRow("parse (xDSL Parser, baseline)", xdsl_parse, t_parse),
        RateRow("print (with locations)", printed, t_print),
        RateRow("verify", verify, None),
    ]
    return n, rows


@dataclass(frozen=True)
class FileRow:
    name: str
    ops: int
    ltc_ms: float
    triton_ms: float | None


def example_rows(repeat: int, triton: TritonIR | None) -> list[FileRow]:
    from ltc.tools.opt import run as ltc_opt

    rows = []
    for path in sorted(glob.glob(os.path.join(EXAMPLES, "*.ttir")) + glob.glob(os.path.join(EXAMPLES, "*.ttgir"))):
        with open(path) as f:
            text = f.read()

        def opt() -> None:
            out, err = io.StringIO(), io.StringIO()
            if ltc_opt([path], io.StringIO(), out, err) != 0:
                raise RuntimeError(f"ltc-opt failed on {path}: {err.getvalue()}")

        n = count_ops(parse_module_text(triton_context(), text, path).module)
        ltc_ms = best_s(opt, repeat=repeat) * 1e3
        tri_ms = None
        if triton is not None:
            tri_ms = best_s(lambda: triton.parse_file(path).str(), repeat=repeat) * 1e3
        rows.append(FileRow(os.path.basename(path), n, ltc_ms, tri_ms))
    return rows


def _fmt(x: float | None, spec: str) -> str:
    return "n/a" if x is None else format(x, spec)


def _ratio(a: float | None, b: float | None) -> str:
    return "n/a" if a is None or b is None else f"{a / b:.1f}x"


def markdown(n: int, rates: list[RateRow], files: list[FileRow]) -> str:
    lines = [
        f"generated TTGIR module, {n} ops: ops/s (higher is better)",
        "",
        "| what | ltc ops/s | Triton ops/s | Triton/ltc |",
        "|---|---:|---:|---:|",
    ]
    for r in rates:
        lines.append(f"| {r.what} | {_fmt(r.ltc, ',.0f')} | {_fmt(r.triton, ',.0f')} | {_ratio(r.triton, r.ltc)} |")
    lines += [
        "",
        "example kernels: ms per file (lower is better); ltc = ltc-opt with no passes "
        "(parse, verify, print), Triton = parse + print",
        "",
        "| file | ops | ltc ms | Triton ms | ltc/Triton |",
        "|---|---:|---:|---:|---:|",
    ]
    for f in files:
        lines.append(
            f"| {f.name} | {f.ops} | {f.ltc_ms:.1f} | {_fmt(f.triton_ms, '.2f')} | {_ratio(f.ltc_ms, f.triton_ms)} |"
        )
    return "\n".join(lines)


def corpus_rate(folder: str, repeat: int) -> tuple[int, int, float]:
    """(files, ops, best seconds) of ``parse_module_text`` over every ``*.ttgir`` of
    ``folder`` (Triton's real output: location aliases, few repeated lines)."""
    paths = sorted(glob.glob(os.path.join(folder, "*.ttgir")))
    texts = [(p, open(p).read()) for p in paths]
    ctx = triton_context()
    ops = sum(count_ops(parse_module_text(ctx, t, p).module) for p, t in texts)
    return len(texts), ops, best_s(lambda: [parse_module_text(ctx, t, p) for p, t in texts], repeat=repeat)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats (noisier)")
    ap.add_argument("--ops", type=int, default=10_000, help="ops in the generated module (default 10000)")
    ap.add_argument("--corpus", metavar="DIR", help="also parse every *.ttgir of DIR (e.g. the layout corpus, "
                    "benchmarks/.cache/corpus/cuda90-w4) and print ops/s")
    args = ap.parse_args(argv)
    repeat_module, repeat_file = (2, 3) if args.quick else (5, 15)
    if args.corpus:
        n_files, n_ops, seconds = corpus_rate(args.corpus, 1 if args.quick else 3)
        print(f"corpus {args.corpus}: {n_files} TTGIR files, {n_ops} ops, parse {n_ops / seconds:,.0f} ops/s\n")
    triton = load_triton()
    try:
        n, rates = module_rows(args.ops, repeat_module, triton)
        files = example_rows(repeat_file, triton)
    finally:
        if triton is not None:
            os.unlink(triton.scratch)
    print(f"fastest of {repeat_module} runs (module) / {repeat_file} runs (files)\n")
    print(markdown(n, rates, files))


if __name__ == "__main__":
    main()
