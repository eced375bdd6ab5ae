"""``ltc-opt``: read Triton IR, run passes, print Triton IR.

Like ``triton-opt`` / ``mlir-opt``: the input (a file or ``-`` for stdin; ``.mlir``,
``.ttir``, ``.ttgir``) is parsed, verified, run through the passes named by
``-p a,b{opt=1}`` and/or ``--a --b=opt=1`` flags in command-line order, verified
again, and printed the way Triton prints it (alias header, ``module attributes``).
Triton's single-dash spellings (``-split-input-file``, ``-canonicalize``,
``-mlir-print-debuginfo``, ``-pass-pipeline='builtin.module(cse)'``) are accepted, so
RUN lines written for ``triton-opt`` work unchanged.

Bad input never produces a traceback: one ``file:line:col: error: message`` line, the
offending source line and a caret go to stderr, the exit status is 1 and nothing is
written to ``-o``. With ``--split-input-file`` every ``// -----`` chunk is processed
and printed on its own (outputs joined by ``// -----``, as MLIR does); a failing chunk
prints its diagnostic and no IR, and the run exits 1 at the end.
``--verify-diagnostics`` checks the diagnostics against the input's MLIR annotations
(``// expected-error @+1 {{message}}``, see ``ltc.tools.verify_diagnostics``): exit 0
when every chunk produced exactly the expected ones, else each miss is reported.

Exit status: 0 ok, 1 bad input (or a pass refused it), 2 usage error, 3 internal error
(a bug in ltc: please report it with the input).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import IO, TYPE_CHECKING, NoReturn

from ltc.tools.diagnostics import SourceFile, one_line

if TYPE_CHECKING:  # xDSL is imported on first use, not at start-up
    from xdsl.passes import PassPipeline

PROG = "ltc-opt"
EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
SPLIT_OUTPUT_MARKER = "// -----\n"

_FLAG_ALIASES = {
    "--mlir-print-debuginfo": "--print-debuginfo",
    "--mlir-print-op-generic": "--print-op-generic",
    "--allow-unregistered-dialects": "--allow-unregistered-dialect",
}
_SHORT_WITH_VALUE = ("-p", "-o")


class InputError(Exception):
    """Bad input at character ``offset`` of the input file."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message


class _FileError(Exception):
    """The input cannot be read at all; ``text`` is the full diagnostic."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class _InternalError(Exception):
    """A pass raised something that is not a refusal of the input: a bug in ltc."""


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{PROG}: error: {message}\n")


def _help_epilog() -> str:
    from ltc.tools.pipeline import all_passes

    import textwrap

    passes = all_passes()
    lines = [
        "passes (run in command-line order; options, shown with their defaults in {...},",
        "as --NAME='k=v k2=v2' or -p 'NAME{k=v}'):",
    ]
    for name, (_, desc) in passes.items():
        lines.append(f"  --{name}")
        lines += textwrap.wrap(
            desc, 88, initial_indent="      ", subsequent_indent="      ", break_on_hyphens=False
        )
    lines += [
        "",
        "code generation: --emit llvm|ptx lowers the result to LLVM IR or PTX for --target;",
        "TTIR input (no ttg.num-warps) is laid out first (convert-triton-to-tritongpu with",
        "--num-warps, then ltc-assign-layouts), TTGIR is lowered as it is:",
        "  ltc-opt kernel.ttgir --emit ptx --target sm_90 -o kernel.ptx",
        "",
        "Triton's single-dash spellings (-split-input-file, -canonicalize, -mlir-print-debuginfo,",
        "-pass-pipeline='builtin.module(a,b)') are accepted as well.",
        "exit status: 0 ok, 1 bad input or a pass refused it, 2 usage error, 3 internal error (a bug in ltc).",
    ]
    return "\n".join(lines)


def _argument_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(
        prog=PROG,
        description="Parse Triton IR (TTIR/TTGIR), run passes, and print it as Triton prints it.",
        epilog=_help_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("input", nargs="?", default="-", help="input file (.mlir, .ttir, .ttgir); '-' or none: stdin")
    p.add_argument("-o", dest="output", default="-", metavar="OUT", help="output file (default: stdout)")
    p.add_argument(
        "-p", "--pass-pipeline", dest="pipelines", action="append", default=[], metavar="PIPELINE",
        help="comma-separated passes with options, e.g. 'canonicalize,cse' or 'builtin.module(cse)'",
    )
    p.add_argument("--split-input-file", action="store_true",
                   help="process each '// -----' section on its own; join outputs with '// -----'; "
                   "a failing section reports, the others print, exit 1 at the end")
    p.add_argument("--allow-unregistered-dialect", action="store_true",
                   help="accept ops of unknown dialects (in generic form) and keep them as they are")
    p.add_argument("--verify-diagnostics", action="store_true",
                   help="check the diagnostics against the input's '// expected-error @+1 {{...}}' "
                   "annotations (as MLIR does); exit 1 on a missing or unexpected one")
    p.add_argument("--print-debuginfo", action="store_true", help="print locations: loc(...)")
    p.add_argument("--print-op-generic", action="store_true", help="print every op in generic form")
    p.add_argument("--verify-each", action="store_true", help="verify the module after every pass")
    p.add_argument("--disable-verify", action="store_true", help="skip verification after the passes")
    p.add_argument("--emit", choices=("mlir", "llvm", "ptx"), default="mlir",
                   help="what to print: the IR (default), or the kernel lowered to LLVM IR / PTX")
    p.add_argument("--target", choices=("sm_80", "sm_90"), default=None,
                   help="GPU for --emit llvm|ptx (default: the module's ttg.target, sm_80 for cuda:8x, "
                        "else sm_90)")
    p.add_argument("--num-warps", type=int, default=4, metavar="N",
                   help="warps per CTA when TTIR input is laid out for --emit: a power of two, 1 to 32 (default 4)")
    p.add_argument("--no-fp-fusion", dest="fp_fusion", action="store_false",
                   help="for --emit llvm|ptx: round every float add, sub and mul on its own (PTX add.rn.f32), "
                   "as Triton with enable_fp_fusion=False; by default a multiply and an add may fuse into "
                   "one fma, as Triton's default")
    p.add_argument(
        "--debug-layouts",
        action="store_true",
        help="print to stderr, per value, the layout the layout passes chose and why "
        "(anchor, propagated from, conflict scores, rematerializations)",
    )
    p.add_argument(
        "--conversion-report", nargs="?", const="text", choices=("text", "json"), default=None,
        help="after the passes (or on the input as it is, with none), print to stderr one entry per "
        "ttg.convert_layout left: location, layouts, plan, cost x loop weight, why it survives and the "
        "cost of each rejected alternative; then the module's totals (text). '=json': a JSON list, one "
        "entry per line. stdout stays the IR; with --split-input-file, one report per section",
    )
    return p


def _normalise_argv(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """(argv for argparse, pass specs from --NAME flags and -p in order).

    Single-dash long options become double-dash; ``--NAME[=OPTS]`` for a registered
    pass becomes the spec ``NAME{OPTS}``; ``-p`` values are kept in order with them.
    """
    from ltc.tools.pipeline import all_passes

    PASS_REGISTRY = all_passes()  # noqa: N806 - the registry, under its usual name

    out: list[str] = []
    specs: list[str] = []
    it = iter(argv)
    for arg in it:
        if arg in _SHORT_WITH_VALUE:
            value = next(it, None)
            if value is None:
                out.append(arg)
                continue
            if arg == "-p":
                specs.append(value)
            else:
                out += [arg, value]
            continue
        if len(arg) > 2 and arg[0] == "-" and arg[1] != "-" and not arg[1].isdigit():
            arg = "-" + arg
        name, eq, value = arg.partition("=")
        name = _FLAG_ALIASES.get(name, name)
        if name == "--pass-pipeline":
            if not eq:
                value = next(it, "")
            specs.append(value)
        elif name == "--conversion-report" and not eq:  # never takes the next argument
            out.append(name + "=text")
        elif name.startswith("--") and name[2:] in PASS_REGISTRY:
            opts = value.strip("'\"") if eq else ""
            specs.append(f"{name[2:]}{{{opts}}}" if opts else name[2:])
        else:
            out.append(name + eq + value)
    return out, specs


def _pipeline_spec(specs: Sequence[str]) -> str:
    """One xDSL pipeline spec from -p values and pass flags (``builtin.module(..)`` unwrapped)."""
    parts = []
    for spec in specs:
        spec = spec.strip()
        while spec.startswith("builtin.module(") and spec.endswith(")"):
            spec = spec[len("builtin.module(") : -1].strip()
        if spec:
            parts.append(spec)
    return ",".join(parts)


@dataclass(frozen=True)
class Options:
    split_input_file: bool
    allow_unregistered_dialect: bool
    verify_diagnostics: bool
    print_debuginfo: bool
    print_op_generic: bool
    verify_each: bool
    disable_verify: bool
    pipeline: PassPipeline | None
    emit: str = "mlir"
    target: str | None = None
    """None: the module's own (``pipeline.default_target``)."""
    num_warps: int = 4
    conversion_report: str | None = None
    fp_fusion: bool = True


def _read_input(path: str, stdin: IO[str]) -> SourceFile:
    if path == "-":
        return SourceFile("<stdin>", stdin.read())
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise _FileError(f"{path}:1:1: error: cannot read input file: {e.strerror or e}") from None
    try:
        return SourceFile(path, data.decode("utf-8"))
    except UnicodeDecodeError as e:
        good = SourceFile(path, data[: e.start].decode("utf-8"))
        raise _FileError(good.diagnostic(e.start and len(good.text), "input is not valid UTF-8")) from None


def _process_chunk(
    chunk_offset: int,
    text: str,
    opts: Options,
    name: str,
    source: SourceFile | None = None,
    report: Callable[[str], None] | None = None,
) -> str:
    """The printed result of one chunk; raises InputError for bad input (offsets are
    in the whole file) and _InternalError for a bug. With ``opts.conversion_report``,
    the chunk's conversion report goes to ``report`` (positions from ``source``)."""
    from ltc.dialects.context import triton_context
    from ltc.dialects.printer import print_module
    from ltc.dialects.reader import SourceError, parse_module_text
    from ltc.dialects.verifier import OpVerifyError, verify_module
    ctx = triton_context(allow_unregistered=opts.allow_unregistered_dialect)
    try:
        parsed = parse_module_text(ctx, text, name)
    except SourceError as e:
        raise InputError(chunk_offset + e.offset, e.message) from None

    def op_offset(op: object) -> int:
        cur = op
        while cur is not None:
            if cur in parsed.op_offsets:
                return chunk_offset + parsed.op_offsets[cur]
            cur = getattr(cur, "parent_op", lambda: None)()
        return chunk_offset

    def verify(after: str | None) -> None:
        try:
            verify_module(parsed.module)
        except OpVerifyError as e:
            message = e.message if after is None else f"after pass '{after}': {e.message}"
            raise InputError(op_offset(e.op), message) from None

    verify(None)
    before = _module_before(parsed.module, opts)
    if opts.pipeline is not None:

        def between_passes(prev, module, nxt) -> None:  # noqa: ANN001 - xDSL callback
            if prev is not None and opts.verify_each:
                verify(prev.name)

        with _refusals_located(op_offset, chunk_offset):
            replace(opts.pipeline, callback=between_passes).apply(ctx, parsed.module)
        if not opts.disable_verify and not opts.verify_each:
            verify("pipeline")
    if opts.conversion_report is not None and report is not None:
        with _refusals_located(op_offset, chunk_offset):
            report(_conversion_report(parsed, before, opts, source, op_offset))
    if opts.emit != "mlir":
        from ltc.tools.pipeline import default_target, emit_text, lower_to_llvm

        target = opts.target or default_target(parsed.module)
        with _refusals_located(op_offset, chunk_offset):  # TTIR is laid out first
            lower_to_llvm(parsed.module, target, opts.num_warps, fp_fusion=opts.fp_fusion)
            return emit_text(parsed.module, opts.emit, target)
    out = io.StringIO()
    print_module(
        parsed.module, out, debuginfo=opts.print_debuginfo, generic=opts.print_op_generic, resources=parsed.resources
    )
    return out.getvalue()


def _module_before(module: object, opts: Options) -> object | None:
    """A copy of the input for the report's "Triton's rule" line, when that can be priced."""
    if opts.conversion_report != "text" or _triton_rule() is None:
        return None
    return module.clone()  # type: ignore[attr-defined]


def _triton_rule() -> Callable | None:
    """``triton_rule_summary(module_before) -> CostSummary``, when ltc has it."""
    try:
        from ltc.passes.layout_strategies import triton_rule_summary
    except ImportError:
        return None
    return triton_rule_summary


def _conversion_report(
    parsed: object, before: object | None, opts: Options, source: SourceFile | None, op_offset: Callable
) -> str:
    """The ``--conversion-report`` of a processed chunk: entries located in the input
    (``file:line:col``; ops the passes made are located by the report's own rules)."""
    from ltc.passes.conversion_report import conversion_report, format_json, report_text

    offsets = parsed.op_offsets  # type: ignore[attr-defined]

    def locate(op: object) -> str | None:
        if source is None or op not in offsets:
            return None
        line, col = source.line_col(op_offset(op))
        return f"{source.name}:{line}:{col}"

    aliases = opts.emit == "mlir"  # alias names mean something only next to the printed IR
    module = parsed.module  # type: ignore[attr-defined]
    if opts.conversion_report == "json":
        return format_json(e.to_json() for e in conversion_report(module, locate, aliases).entries)
    rule = _triton_rule()
    triton = rule(before) if rule is not None and before is not None else None
    return report_text(conversion_report(module, locate, aliases, triton))


@contextlib.contextmanager
def _refusals_located(op_offset: Callable[[object], int], chunk_offset: int) -> Iterator[None]:
    """A pass's or the lowering's refusal as bad input at its op (or the chunk's start);
    anything else raised inside is a bug in ltc (``_InternalError``)."""
    from ltc.tools.pipeline import refusal_types

    try:
        yield
    except InputError:
        raise
    except refusal_types() as e:
        op = getattr(e, "op", None)
        message = getattr(e, "message", None) or str(e)
        raise InputError(op_offset(op) if op is not None else chunk_offset, one_line(message)) from None
    except Exception as e:
        raise _InternalError(f"{type(e).__name__}: {one_line(str(e))}") from e


class _UsageError(Exception):
    pass


def _parse_pipeline(spec: str) -> PassPipeline | None:
    """xDSL's pipeline for ``spec`` (None if empty); raises ``_UsageError`` if it is
    malformed or names unknown passes or options."""
    if not spec:
        return None
    from ltc.tools.pipeline import PipelineError, parse_pass_pipeline

    try:
        return parse_pass_pipeline(spec)
    except PipelineError as e:
        raise _UsageError(str(e)) from None


def _check_options(args: argparse.Namespace) -> None:
    from ltc.hardware import check_num_warps

    try:
        check_num_warps(args.num_warps)
    except ValueError as e:
        raise _UsageError(f"--num-warps: {e}") from None


def _run_chunks(source: SourceFile, opts: Options, stderr: IO[str]) -> tuple[list[str], bool]:
    """(each chunk's output, whether every chunk went as it should)."""
    from ltc.dialects.reader import split_input
    from ltc.tools.verify_diagnostics import Diagnostic, check_diagnostics, read_expectations

    outputs: list[str] = []
    ok = True

    def report(text: str) -> None:  # --conversion-report goes to stderr
        print(text, end="", file=stderr)

    for i, chunk in enumerate(split_input(source.text, opts.split_input_file)):
        if i and opts.conversion_report is not None:  # sections apart as on stdout
            print(SPLIT_OUTPUT_MARKER, end="", file=stderr)
        produced: list[Diagnostic] = []
        try:
            outputs.append(_process_chunk(chunk.offset, chunk.text, opts, source.name, source, report))
        except InputError as e:
            produced.append(Diagnostic(e.offset, e.message))
            outputs.append("")
        if opts.verify_diagnostics:
            expectations, misses = read_expectations(source, chunk.offset, chunk.offset + len(chunk.text))
            misses += check_diagnostics(source, expectations, produced)
        else:
            misses = produced
        for d in misses:
            print(source.diagnostic(d.offset, d.message, d.severity), file=stderr)
        ok = ok and not misses
        if misses and not opts.split_input_file:
            break
    return outputs, ok


def run(argv: Sequence[str], stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> int:
    """The whole tool; returns the exit status."""
    args_list, specs = _normalise_argv(argv)
    try:  # argparse prints --help and usage errors to sys.stdout/sys.stderr and exits
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            args = _argument_parser().parse_args(args_list)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    try:  # a usage error is reported before the input is read
        _check_options(args)
        spec = _pipeline_spec(specs + args.pipelines)
        if args.debug_layouts:
            from ltc.passes.registry import with_debug_layouts

            spec = with_debug_layouts(spec)
        pipeline = _parse_pipeline(spec)
    except _UsageError as e:
        print(f"{PROG}: error: {e}", file=stderr)
        return EXIT_USAGE
    opts = Options(
        split_input_file=args.split_input_file,
        allow_unregistered_dialect=args.allow_unregistered_dialect,
        verify_diagnostics=args.verify_diagnostics,
        print_debuginfo=args.print_debuginfo,
        print_op_generic=args.print_op_generic,
        verify_each=args.verify_each,
        disable_verify=args.disable_verify,
        pipeline=pipeline,
        emit=args.emit,
        target=args.target,
        num_warps=args.num_warps,
        conversion_report=args.conversion_report,
        fp_fusion=args.fp_fusion,
    )
    try:
        source = _read_input(args.input, stdin)
    except _FileError as e:
        print(e.text, file=stderr)
        return EXIT_INPUT
    try:
        outputs, ok = _run_chunks(source, opts, stderr)
    except _InternalError as e:
        print(f"{PROG}: internal error: {e} (a bug in ltc; set LTC_TRACEBACK=1 for the trace)", file=stderr)
        if os.environ.get("LTC_TRACEBACK"):
            raise
        return EXIT_INTERNAL
    text = SPLIT_OUTPUT_MARKER.join(outputs)
    if args.output == "-":
        if ok or opts.split_input_file:
            stdout.write(text)
    elif ok:
        try:
            with open(args.output, "w") as f:
                f.write(text)
        except OSError as e:
            print(f"{PROG}: error: cannot write {args.output}: {e.strerror or e}", file=stderr)
            return EXIT_INPUT
    return EXIT_OK if ok else EXIT_INPUT


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ltc-opt`` script."""
    try:
        return run(sys.argv[1:] if argv is None else argv, sys.stdin, sys.stdout, sys.stderr)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as e:  # a bug in ltc, never bad input: say so without a traceback
        print(f"{PROG}: internal error: {type(e).__name__}: {one_line(str(e))}", file=sys.stderr)
        if os.environ.get("LTC_TRACEBACK"):
            raise
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
