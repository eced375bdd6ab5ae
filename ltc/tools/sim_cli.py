"""``ltc-sim``: run a PTX kernel on ltc's CPU simulator and print what it did.

Library use: ``stats = ltc.simulate_ptx(ptx_text, grid=4, args=[x, y, out, n])``.
The command line is described by ``ltc-sim --help`` (:data:`_EPILOG`). Arguments bind
to the kernel's PTX parameters (by index or PTX name); an array's dtype must match the
pointee type the kernel's instructions show (:mod:`ltc.tools.ptx_pointee`) or the one
given with ``--dtype``, unless ``--reinterpret``.
Exit status: 0 ok, 1 bad input, 2 usage error, 3 internal error (a bug in ltc).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from ltc.lowering.ptxsim.errors import SimulationError
from ltc.lowering.ptxsim.parse import Kernel, PtxSyntaxError, parse_ptx
from ltc.lowering.ptxsim.run import run_kernel
from ltc.tools.ptx_pointee import Element, pointee_types

__all__ = ["main", "short_name"]

PROG = "ltc-sim"
EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3

_DESCRIPTION = """\
Run a PTX kernel on ltc's CPU simulator and print what it did: instructions, memory
traffic, shared-memory bank conflicts."""

_EPILOG = """\
arguments:
  --arg KEY=VALUE binds one kernel parameter; every parameter needs one. KEY is the
  parameter's position in the PTX .entry (0, 1, ...) or its PTX name. PTX from Triton
  or ltc names parameters <kernel>_param_<N> (the Triton argument names are gone), so
  KEY is N, param_N or <kernel>_param_N. Triton's PTX has two extra trailing pointer
  parameters (scratch buffers): pass null for them.
  VALUE forms:
    FILE.npy        a numpy array, for a pointer parameter (copied into global memory)
    null            a null pointer
    42, -7, 0x2a    an integer
    1.5, 1e-5, inf  a float

element types:
  An array's dtype must match what the pointer points to: the type the kernel's
  instructions use it as (an f32 add of loaded values: float32), or the one declared
  with --dtype KEY=TYPE (TYPE: float16/f16, bfloat16/bf16 (pass uint16 bits), float32/
  f32, float64/f64, int8/i8 ... int64/i64, uint8/u8 ... uint64/u64, bool). A kernel that
  only copies bits shows no type; then any dtype is taken. --reinterpret takes every
  array's bytes as they are.

output:
  The statistics go to stdout (a table, or JSON with --json). With --out DIR every
  array argument is written after the run to DIR/param_<N>.npy (N: its parameter
  index; a parameter with its own PTX name, not <kernel>_param_<N>, gives DIR/<name>.npy);
  with --in-place back to the .npy file it came from.

exit status: 0 ok, 1 bad input (PTX, arguments or a fault while running), 2 usage
error, 3 internal error (a bug in ltc: please report it with the input).

example:
  ltc-sim vector_add.ptx --grid 2 --arg 0=x.npy --arg 1=y.npy --arg 2=out.npy \\
          --arg 3=1500 --arg 4=null --arg 5=null --out res/   # writes res/param_0.npy ...
"""


class _UsageError(Exception):
    pass


def short_name(kernel: Kernel, index: int) -> str:
    """``param_<index>`` for a parameter named ``<kernel>_param_<index>`` (LLVM's and
    ltc's names), else the parameter's own PTX name: the name of its ``--out`` file."""
    name = kernel.params[index].name
    return f"param_{index}" if name == f"{kernel.name}_param_{index}" else name


def _parse_dims(text: str, what: str) -> tuple[int, ...]:
    message = f"--{what} takes up to three positive integers separated by commas, got '{text}'"
    try:
        dims = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise _UsageError(message) from None
    if not 1 <= len(dims) <= 3 or any(d < 1 for d in dims):
        raise _UsageError(message)
    return dims


def _parse_value(text: str) -> Any:
    import numpy as np

    if text.endswith(".npy"):
        try:
            return np.load(text, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise _UsageError(f"cannot load '{text}': {e}") from None
    if text.lower() in ("null", "none"):
        return None
    try:
        return int(text, 0)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise _UsageError(f"'{text}' is neither a .npy file, null, an integer nor a float") from None


def _param_index(kernel: Kernel, key: str) -> int:
    names = [p.name for p in kernel.params]
    if key in names:
        return names.index(key)
    m = re.fullmatch(r"(?:param_)?(\d+)", key)
    if m and int(m.group(1)) < len(names):
        return int(m.group(1))
    listed = ", ".join(f"{i}={n}" for i, n in enumerate(names)) or "none"
    raise _UsageError(
        f"kernel '{kernel.name}' has no parameter '{key}' (its PTX parameters: {listed}; "
        "KEY is a PTX parameter's index or name, not a Triton argument name)"
    )


def _bind_args(kernel: Kernel, specs: list[str]) -> tuple[list[Any], dict[int, str]]:
    """Arguments in parameter order and, per array argument, the .npy file it came from."""
    names = [p.name for p in kernel.params]
    values: dict[int, Any] = {}
    files: dict[int, str] = {}
    for spec in specs:
        if "=" not in spec:
            raise _UsageError(f"--arg takes KEY=VALUE, got '{spec}'")
        key, text = spec.split("=", 1)
        index = _param_index(kernel, key)
        if index in values:
            raise _UsageError(f"parameter '{names[index]}' given twice")
        values[index] = _parse_value(text)
        if text.endswith(".npy"):
            files[index] = text
    missing = [names[i] for i in range(len(names)) if i not in values]
    if missing:
        raise _UsageError(f"missing --arg for {', '.join(missing)} (use KEY=null for an unused pointer)")
    return [values[i] for i in range(len(names))], files


_TYPE_NAMES: dict[str, Element] = {
    **{n: Element("f", b) for b in (16, 32, 64) for n in (f"f{b}", f"float{b}")},
    **{n: Element("i", b) for b in (8, 16, 32, 64) for n in (f"i{b}", f"s{b}", f"u{b}", f"int{b}", f"uint{b}")},
    "bf16": Element("bf", 16),
    "bfloat16": Element("bf", 16),
    "bool": Element("i", 8),
}


def _declared_types(kernel: Kernel, specs: list[str]) -> dict[int, Element]:
    out: dict[int, Element] = {}
    for spec in specs:
        key, _, name = spec.partition("=")
        if name.lower() not in _TYPE_NAMES:
            raise _UsageError(
                f"--dtype takes KEY=TYPE with TYPE one of {', '.join(sorted(_TYPE_NAMES))}; got '{spec}'"
            )
        out[_param_index(kernel, key)] = _TYPE_NAMES[name.lower()]
    return out


def _holds(dtype: Any, e: Element) -> bool:
    """Whether an array of ``dtype`` holds elements ``e`` (bf16 travels as 16-bit integers)."""
    bits = dtype.itemsize * 8
    if e.kind == "bf":
        return dtype.name == "bfloat16" or (dtype.kind in "iu" and bits == 16)
    if e.kind == "f":
        return dtype.kind == "f" and bits == e.bits
    return dtype.kind in "iub" and bits == e.bits


def _check_dtypes(kernel: Kernel, args: list[Any], files: dict[int, str], declared: dict[int, Element]) -> None:
    import numpy as np

    inferred = pointee_types(kernel)
    for i, a in enumerate(args):
        if not isinstance(a, np.ndarray) or i not in files:
            continue
        if i in declared:
            e, how = declared[i], "declared with --dtype"
        elif len(inferred.get(i, ())) == 1:
            (e,) = inferred[i]
            how = "as the kernel's instructions use it"
        else:
            continue
        if not _holds(a.dtype, e):
            name = kernel.params[i].name
            raise _UsageError(
                f"parameter {i} ({name}) points to {e} ({how}) but '{files[i]}' holds {a.dtype}: "
                f"convert the array, declare the type with --dtype {i}=TYPE, or pass --reinterpret "
                "to use its bytes as they are"
            )


def _argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description=_DESCRIPTION, epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("ptx", help="PTX file (text)")
    parser.add_argument("--grid", default="1", help="CTAs: X[,Y[,Z]] (default 1)")
    parser.add_argument("--block", type=int, default=None, help="threads per CTA when the kernel has no .reqntid")
    parser.add_argument("--kernel", default=None, help="entry to run (default: the only one)")
    parser.add_argument("--arg", action="append", default=[], metavar="KEY=VALUE",
                        help="a kernel argument (see below); repeat for each parameter")
    parser.add_argument("--dtype", action="append", default=[], metavar="KEY=TYPE",
                        help="the element type a pointer parameter points to (see below)")
    parser.add_argument("--reinterpret", action="store_true",
                        help="take every array's bytes as they are, whatever the element type")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--out", default=None, metavar="DIR", help="write the array arguments to DIR/param_<N>.npy")
    out.add_argument("--in-place", action="store_true", help="write the array arguments back to their .npy files")
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON")
    return parser


def _read_text(path: str) -> str:
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise _UsageError(f"cannot read '{path}': {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None or "\x00" in text:
        raise _UsageError(f"'{path}' is not a text PTX file (it holds binary data; a .cubin is not PTX)")
    return text


def main(argv: list[str] | None = None) -> int:
    ns = _argument_parser().parse_args(argv)
    path = ns.ptx
    try:
        module = parse_ptx(_read_text(path), path)
        try:
            kernel = module.kernel(ns.kernel)
        except KeyError as e:
            raise _UsageError(str(e.args[0])) from None
        grid = _parse_dims(ns.grid, "grid")
        args, files = _bind_args(kernel, ns.arg)
        declared = _declared_types(kernel, ns.dtype)
        if not ns.reinterpret:
            _check_dtypes(kernel, args, files, declared)
        stats = run_kernel(module, grid, args, kernel=kernel.name, block=ns.block)
        _write_arrays(kernel, args, files, ns.out, ns.in_place)
    except PtxSyntaxError as e:
        print(str(e), file=sys.stderr)
        return EXIT_BAD_INPUT
    except SimulationError as e:
        if e.line is not None:
            print(f"{path}:{e.line}:{e.column or 1}: error: {e.message}", file=sys.stderr)
        else:
            print(f"{PROG}: error: {e.message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except _UsageError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as e:  # noqa: BLE001 - a bug in ltc: one line, not a traceback
        if os.environ.get("LTC_TRACEBACK"):
            raise
        print(f"{PROG}: internal error: {type(e).__name__}: {e} (a bug in ltc; set LTC_TRACEBACK=1 for the trace)",
              file=sys.stderr)
        return EXIT_INTERNAL
    if ns.json:
        print(json.dumps(stats.as_dict(), indent=2))
    else:
        print(stats.format_table())
    return EXIT_OK


def _write_arrays(kernel: Kernel, args: list[Any], files: dict[int, str], out_dir: str | None, in_place: bool) -> None:
    import numpy as np

    if out_dir is None and not in_place:
        return
    if out_dir is not None:
        try:
            Path(out_dir).mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise _UsageError(f"cannot create '{out_dir}': {e}") from None
    for i, a in enumerate(args):
        if not isinstance(a, np.ndarray):
            continue
        target = Path(out_dir) / f"{short_name(kernel, i)}.npy" if out_dir is not None else Path(files[i])
        try:
            np.save(target, a, allow_pickle=False)
        except OSError as e:
            raise _UsageError(f"cannot write '{target}': {e}") from None


if __name__ == "__main__":
    sys.exit(main())
