"""Command-line drivers of ltc.

``ltc-layout ATTR --shape 64x16`` shows the linear layout L of a tensor of that
shape in the layout attribute ATTR: L maps hardware indices (register, lane,
warp, block — or offset, block for shared memory) to tensor indices
(dim0, dim1, ...). Output forms:

* default: Triton's ``LinearLayout::toString`` text of L (``str(layout)``)
  *without its leading newline*: the first printed line is `` - register=...``
  and the last ``where out dims are: [...]``;
* ``--json``: ``{"in_dims": {dim: [basis, ...]}, "out_dims": {dim: size}}`` on
  one line (``LinearLayout.to_json()``; ``LinearLayout.from_bases`` reads it back);
* ``--table``: a text grid of who holds each element (``ltc.tools.layout_view``);
* ``--svg OUT``: the same as an SVG picture (``-`` writes it to stdout).

``ltc-layout convert SRC DST --shape ... --dtype ...`` plans the conversion
between two layouts instead (``ltc.tools.convert_cli``); both read layouts with
``ltc.tools.layout_input``.

Exit status: 0 on success; 1 for bad input (attribute text, shape, options that
the layout contradicts), with one ``ltc-layout: error: ...`` line on stderr (plus
the attribute text and a caret under the bad column for text errors); 2 for
command-line usage errors; 3 for an internal error (a bug in ltc), reported in
one line as well.

``ltc-layout`` needs only the core (numpy); ``ltc-layout convert`` adds
``ltc.lowering.plans``, numpy only as well.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn, TextIO

from ltc.tools.convert_cli import convert_parser, run_convert
from ltc.tools.diagnostics import one_line
from ltc.tools.layout_input import CliError, build_layout, check_in_dim, parse_shape

__all__ = ["layout_main"]

_LAYOUT_PROG = "ltc-layout"

_LAYOUT_DESCRIPTION = """\
Show the linear layout of a tensor of shape SHAPE in the Triton layout
attribute ATTR: the map from hardware indices (register, lane, warp, block;
or offset, block for shared memory) to tensor indices (dim0, dim1, ...).
By default prints it in Triton's LinearLayout text form."""

_LAYOUT_EPILOG = """\
examples:
  ltc-layout '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], \\
      warpsPerCTA = [4, 1], order = [1, 0]}>' --shape 64x16
  ltc-layout '#ttg.blocked<{...}>' --shape 64x16 --json
  ltc-layout '#ttg.blocked<{...}>' --shape 32x16 --table
  ltc-layout '#ttg.blocked<{...}>' --shape 32x16 --svg blocked.svg
  ltc-layout '#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, \\
      order = [1, 0]}>' --shape 64x64 --svg shared.svg --dtype-bits 16
  ltc-layout convert SRC DST --shape 64x64 --dtype f16   (plan a conversion;
      see ltc-layout convert --help)

table cells: w<warp>/t<lane>/r<register> (b<block>/ first when there are
several CTAs), or the offset for shared layouts; "*N" marks an element held
by N owners (broadcast), the first owner being shown.
exit status: 0 ok, 1 bad input, 2 usage error, 3 internal error."""


class _UsageError(Exception):
    """argparse's complaint about the command line (exit status 2)."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of exiting, so ``main`` returns."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)


@dataclass(frozen=True)
class _Streams:
    out: TextIO
    err: TextIO


def _layout_parser() -> _Parser:
    p = _Parser(
        prog=_LAYOUT_PROG,
        description=_LAYOUT_DESCRIPTION,
        epilog=_LAYOUT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "attr",
        metavar="ATTR",
        help="layout attribute text as Triton prints it, parents inline, "
        "e.g. '#ttg.slice<{dim = 1, parent = #ttg.blocked<{...}>}>'",
    )
    p.add_argument(
        "--shape",
        required=True,
        metavar="SHAPE",
        help="tensor shape, sizes separated by 'x', each a power of 2, e.g. 64x16",
    )
    p.add_argument(
        "--num-warps",
        type=int,
        metavar="N",
        help="check that the layout has N warps (its 'warp' in-dim size), e.g. --num-warps 4",
    )
    p.add_argument(
        "--threads-per-warp",
        type=int,
        metavar="N",
        help="check that the layout has N lanes per warp (its 'lane' in-dim size), e.g. --threads-per-warp 32",
    )
    form = p.add_mutually_exclusive_group()
    form.add_argument(
        "--json",
        action="store_true",
        help='print {"in_dims": {"register": [[0, 1], ...], ...}, "out_dims": {"dim0": 64, ...}} on one line',
    )
    form.add_argument(
        "--table",
        action="store_true",
        help="print a grid (rows dim0, columns dim1) of who holds each element: w0/t5/r1 = warp 0, "
        "lane 5, register 1; the offset for shared layouts; rank-1 and rank-2 tensors only",
    )
    form.add_argument(
        "--svg",
        metavar="OUT",
        help="write an SVG picture to OUT ('-' for stdout): cells coloured by warp and labelled "
        "T<lane>:R<register> (shared layouts: coloured by bank, labelled with the offset), "
        "e.g. --svg layout.svg",
    )
    p.add_argument(
        "--all-owners",
        action="store_true",
        help="with --table: list every owner of a broadcast element (w0/t1/r0,w1/t1/r0) "
        "instead of the first one and a count (w0/t1/r0*2)",
    )
    p.add_argument(
        "--dtype-bits",
        type=int,
        default=16,
        metavar="BITS",
        help="with --svg on a shared layout: element size in bits used to colour by "
        "bank = (offset * BITS / 32) mod 32 (default 16)",
    )
    return p


def _print_error(streams: _Streams, err: CliError) -> None:
    print(f"{_LAYOUT_PROG}: error: {one_line(err.message)}", file=streams.err)
    if err.source is not None and err.col is not None:
        # Keep every character one column wide so the caret lines up.
        shown = "".join(" " if ch in "\t\r\n" else ch for ch in err.source)
        col = min(max(err.col, 1), len(shown) + 1)
        print(f"  {shown}", file=streams.err)
        print("  " + " " * (col - 1) + "^", file=streams.err)


def _run_layout(args: argparse.Namespace, streams: _Streams) -> None:
    shape = parse_shape(args.shape)
    layout = build_layout(args.attr, shape)
    check_in_dim(layout, "warp", args.num_warps, "--num-warps")
    check_in_dim(layout, "lane", args.threads_per_warp, "--threads-per-warp")
    if args.json:
        import json

        print(json.dumps(layout.to_json()), file=streams.out)
    elif args.table or args.svg is not None:
        from ltc.tools.layout_view import ViewError, render_svg, render_table

        try:
            if args.table:
                streams.out.write(render_table(layout, all_owners=args.all_owners))
                return
            title = f"{args.attr.strip()}  shape {'x'.join(map(str, shape))}"
            svg = render_svg(layout, elem_bits=args.dtype_bits, title=title)
        except ViewError as e:
            raise CliError(str(e)) from None
        if args.svg == "-":
            streams.out.write(svg)
        else:
            try:
                with open(args.svg, "w", encoding="utf-8") as f:
                    f.write(svg)
            except OSError as e:
                raise CliError(f"cannot write {args.svg}: {e.strerror or e}") from None
    else:
        print(str(layout).removeprefix("\n"), file=streams.out)


def layout_main(argv: Sequence[str] | None = None) -> int:
    """``ltc-layout``: returns the exit status (see the module docstring)."""
    streams = _Streams(sys.stdout, sys.stderr)
    argv = list(argv) if argv is not None else sys.argv[1:]
    if argv[:1] == ["convert"]:
        parser = convert_parser(_Parser)
        run = run_convert
        argv = argv[1:]
    else:
        parser = _layout_parser()

        def run(args: argparse.Namespace, out: TextIO) -> int:
            _run_layout(args, _Streams(out, streams.err))
            return 0

    try:
        args = parser.parse_args(argv)
    except _UsageError as e:
        parser.print_usage(streams.err)
        print(f"{_LAYOUT_PROG}: error: {one_line(str(e))}", file=streams.err)
        return 2
    except SystemExit as e:  # --help
        return int(e.code or 0) if not isinstance(e.code, str) else 2
    try:
        return run(args, streams.out)
    except CliError as e:
        _print_error(streams, e)
        return 1
    except Exception as e:  # a bug in ltc: still one line, never a traceback
        print(f"{_LAYOUT_PROG}: internal error: {type(e).__name__}: {one_line(str(e))}", file=streams.err)
        return 3


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m ltc.tools.layout_cli ...``: the same as ``ltc-layout ...``."""
    return layout_main(argv)


if __name__ == "__main__":
    sys.exit(main())
