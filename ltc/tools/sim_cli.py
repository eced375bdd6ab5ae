"""``ltc-sim``: run a PTX kernel on the CPU simulator and print what it did.

Library use::

    stats = ltc.simulate_ptx(ptx_text, grid=4, args=[x, y, out, n])

Command line::

    ltc-sim kernel.ptx --grid 4[,y,z] [--block N] --arg x=in.npy --arg n=1024 \\
            [--kernel NAME] [--out DIR | --in-place] [--json]

``--arg NAME=VALUE`` names a parameter by its PTX name (``k_param_0``) or its
index (``0=in.npy``). A value ending in ``.npy`` is loaded as a numpy array (a
pointer argument); ``null`` is a null pointer; otherwise an integer (decimal or
``0x`` hex) or a float. After the run every array argument is written to
``DIR/<param name>.npy`` (``--out``) or back to its file (``--in-place``).
Statistics are printed as a table, or as JSON with ``--json``. Bad input prints
``file:line:col: error: msg`` (or ``error: msg``) and exits with status 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ltc.lowering.ptxsim.errors import SimulationError
from ltc.lowering.ptxsim.parse import PtxSyntaxError, parse_ptx
from ltc.lowering.ptxsim.run import run_kernel

__all__ = ["main"]


class _UsageError(Exception):
    pass


def _parse_dims(text: str, what: str) -> tuple[int, ...]:
    try:
        dims = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise _UsageError(f"--{what} takes up to three positive integers separated by commas, got '{text}'") from None
    if not 1 <= len(dims) <= 3 or any(d < 1 for d in dims):
        raise _UsageError(f"--{what} takes up to three positive integers separated by commas, got '{text}'")
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


def _bind_args(kernel, specs: list[str]) -> tuple[list[Any], dict[int, str]]:
    """Arguments in parameter order and, per array argument, the .npy file it came from."""
    names = [p.name for p in kernel.params]
    values: dict[int, Any] = {}
    files: dict[int, str] = {}
    for spec in specs:
        if "=" not in spec:
            raise _UsageError(f"--arg takes NAME=VALUE, got '{spec}'")
        key, text = spec.split("=", 1)
        if key in names:
            index = names.index(key)
        elif key.isdigit() and int(key) < len(names):
            index = int(key)
        else:
            raise _UsageError(
                f"kernel '{kernel.name}' has no parameter '{key}' (parameters: {', '.join(names) or 'none'})"
            )
        if index in values:
            raise _UsageError(f"parameter '{names[index]}' given twice")
        values[index] = _parse_value(text)
        if text.endswith(".npy"):
            files[index] = text
    missing = [names[i] for i in range(len(names)) if i not in values]
    if missing:
        raise _UsageError(f"missing --arg for {', '.join(missing)} (use NAME=null for an unused pointer)")
    return [values[i] for i in range(len(names))], files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ltc-sim", description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("ptx", help="PTX file")
    parser.add_argument("--grid", default="1", help="CTAs: X[,Y[,Z]] (default 1)")
    parser.add_argument("--block", type=int, default=None, help="threads per CTA when the kernel has no .reqntid")
    parser.add_argument("--kernel", default=None, help="entry to run (default: the only one)")
    parser.add_argument("--arg", action="append", default=[], metavar="NAME=VALUE", help="a kernel argument")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--out", default=None, metavar="DIR", help="write array arguments to DIR/<param>.npy")
    out.add_argument("--in-place", action="store_true", help="write array arguments back to their .npy files")
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON")
    ns = parser.parse_args(argv)

    path = ns.ptx
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as e:
        print(f"error: cannot read '{path}': {e}", file=sys.stderr)
        return 1
    try:
        module = parse_ptx(text, path)
        try:
            kernel = module.kernel(ns.kernel)
        except KeyError as e:
            raise _UsageError(str(e.args[0])) from None
        grid = _parse_dims(ns.grid, "grid")
        args, files = _bind_args(kernel, ns.arg)
        stats = run_kernel(module, grid, args, kernel=kernel.name, block=ns.block)
        _write_arrays(kernel, args, files, ns.out, ns.in_place)
    except PtxSyntaxError as e:
        print(str(e), file=sys.stderr)
        return 1
    except SimulationError as e:
        if e.line is not None:
            print(f"{path}:{e.line}:{e.column or 1}: error: {e.message}", file=sys.stderr)
        else:
            print(f"error: {e.message}", file=sys.stderr)
        return 1
    except _UsageError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if ns.json:
        print(json.dumps(stats.as_dict(), indent=2))
    else:
        print(stats.format_table())
    return 0


def _write_arrays(kernel, args: list[Any], files: dict[int, str], out_dir: str | None, in_place: bool) -> None:
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
        target = Path(out_dir) / f"{kernel.params[i].name}.npy" if out_dir is not None else Path(files[i])
        try:
            np.save(target, a, allow_pickle=False)
        except OSError as e:
            raise _UsageError(f"cannot write '{target}': {e}") from None


if __name__ == "__main__":
    sys.exit(main())
