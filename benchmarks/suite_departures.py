"""Checking a pass chunk where ltc departs from the file's FileCheck lines on purpose.

A departure stands when ltc's output is as good as Triton's: Triton 3.9 parses and
verifies it, it runs no more ``ttg.convert_layout`` ops than Triton's own pass output on
the same chunk, and ltc's value interpreter gives the same results on it as on the
input. "Runs" counts each conversion by its execution weight (the layout objective's:
the trip count of each enclosing ``scf.for`` with constant bounds, 16 for any other loop),
so a conversion moved out of a loop counts less than one left inside; where a module
cannot be weighed, ops are counted as written.  The Triton parts run in ``suite_oracle``'s children; this module holds the ltc
part (:func:`interpret_compare`, run in the suite's workers) and the verdict
(:class:`DepartureCheck`).

:func:`interpret_compare` runs every ``tt.func`` with a body of both modules once (as
program 0 of a 1-program grid) on the same seeded random arguments: a pointer to a
scalar gets its own array of :data:`POINTER_ELEMENTS` random elements, a tensor a
random tensor (integers in 0..7: they often become offsets), an integer scalar 1..4,
a float a random number.  Results and every argument
array after the call must be equal bit for bit (NaN equal to NaN).  A function the
interpreter cannot run on the input (an op it lacks, an address outside the arrays,
a parameter it cannot make) is skipped with the reason; so is a chunk whose every
function is skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

POINTER_ELEMENTS = 1 << 14
SEED = 20240917

_CONVERT = re.compile(r'(?<![\w.$-])"?ttg\.convert_layout\b')


def count_converts(text: str) -> int:
    """``ttg.convert_layout`` ops in a printed module (custom or generic form)."""
    return len(_CONVERT.findall(text))


def weighted_converts(text: str, allow_unregistered: bool = False) -> float | None:
    """The ``ttg.convert_layout`` ops of a printed module, each counted by its execution
    weight (``ltc.passes.conversion_cost.execution_weight``); None where ltc cannot read it."""
    from ltc.dialects.context import triton_context
    from ltc.dialects.reader import SourceError, parse_module_text
    from ltc.dialects.ttg import ConvertLayoutOp
    from ltc.passes.conversion_cost import execution_weight

    try:
        module = parse_module_text(triton_context(allow_unregistered), text).module
    except SourceError:
        return None
    return sum(execution_weight(op) for op in module.walk() if isinstance(op, ConvertLayoutOp))


@dataclass(frozen=True)
class DepartureCheck:
    """The checks of one departure chunk whose ltc run succeeded.

    ``verifies``: Triton parses and verifies ltc's output (None: not asked);
    ``converts``: ``ttg.convert_layout`` ops in ltc's output and in Triton's pass output
    (None when Triton's pass failed: nothing to compare with); ``weighted``: the same,
    each by its execution weight (None where ltc cannot read one of them); ``interpreter``:
    ``same``, ``skipped: why`` or ``differs: why``; ``same_as_triton``: ltc's output
    equals Triton 3.9's pass output up to value names (the file's checks are older).
    """

    verifies: bool | None
    triton_error: str
    converts: int
    triton_converts: int | None
    interpreter: str
    same_as_triton: bool = False
    weighted: tuple[float, float] | None = None

    @property
    def fewer(self) -> bool:
        """ltc runs no more conversions than Triton (weighted where both weigh)."""
        if self.triton_converts is None:
            return True
        if self.weighted is not None:
            return self.weighted[0] <= self.weighted[1]
        return self.converts <= self.triton_converts

    @property
    def holds(self) -> bool:
        return bool(self.verifies) and self.fewer and not self.interpreter.startswith("differs")

    def summary(self) -> str:
        triton = "?" if self.triton_converts is None else str(self.triton_converts)
        counted = f"converts {self.converts} {'>' if self.converts > (self.triton_converts or self.converts) else '<='} {triton}"
        if self.weighted is not None and self.triton_converts is not None:
            ours, theirs = self.weighted
            counted += f", weighted {ours:g} {'<=' if ours <= theirs else '>'} {theirs:g}"
        parts = [
            "Triton verifies" if self.verifies else f"Triton rejects: {self.triton_error[:120]}",
            counted,
            f"interpreter {self.interpreter}",
        ]
        if self.same_as_triton:
            parts.append("equals Triton 3.9's output")
        return "; ".join(parts)


# --------------------------------------------------------------------------------------
# the value interpreter
# --------------------------------------------------------------------------------------
class _Unrunnable(Exception):
    """A parameter the comparison cannot make an argument for."""


def _random_values(info, shape: tuple[int, ...], rng):  # noqa: ANN001, ANN202 - numpy / TypeInfo
    import numpy as np

    from ltc.passes.interpret_types import fit

    if info.kind == "float":
        return fit(rng.standard_normal(shape).astype(np.float32), info)
    if info.width == 1:
        return rng.integers(0, 2, shape).astype(np.bool_)
    return fit(rng.integers(0, 8, shape), info)  # non-negative: integers often become offsets


def _arguments(params: list, rng) -> list:  # noqa: ANN001
    import numpy as np
    from xdsl.dialects.builtin import TensorType

    from ltc.dialects.tt import PtrType, TensorDescType
    from ltc.passes.interpret_types import to_memory, type_info

    args: list = []
    for t in params:
        if isinstance(t, PtrType):
            if isinstance(t.pointee_type, TensorType):
                raise _Unrunnable(f"a pointer to a tensor ({t})")
            info = type_info(t.pointee_type)
            args.append(np.ascontiguousarray(to_memory(_random_values(info, (POINTER_ELEMENTS,), rng), info)))
        elif isinstance(t, TensorDescType):
            info = type_info(t.element_type)
            shape = tuple(2 * int(s) for s in t.shape)
            args.append(np.ascontiguousarray(to_memory(_random_values(info, shape, rng), info)))
        elif isinstance(t, TensorType):
            info = type_info(t.element_type)
            args.append(_random_values(info, tuple(t.get_shape()), rng))
        else:
            try:
                info = type_info(t)
            except TypeError as e:
                raise _Unrunnable(str(e)) from None
            if info.kind == "float":
                args.append(_random_values(info, (), rng))
            elif info.width == 1:
                args.append(np.bool_(True))
            else:
                args.append(np.asarray(int(rng.integers(1, 5)), dtype=info.dtype))
    return args


def _equal(a, b) -> bool:  # noqa: ANN001
    import numpy as np

    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind == "f":
        return bool(np.array_equal(a, b, equal_nan=True))
    return bool(np.array_equal(a, b))


def interpret_compare(before: str, after: str, allow_unregistered: bool = False) -> str:
    """``same``, ``skipped: why`` or ``differs: why`` (see the module docstring)."""
    import copy

    import numpy as np

    from ltc.dialects.context import triton_context
    from ltc.dialects.reader import parse_module_text
    from ltc.dialects.tt import FuncOp
    from ltc.passes.interpret import run_function

    try:
        mods = [parse_module_text(triton_context(allow_unregistered), t, "<departure>").module
                for t in (before, after)]
    except Exception as e:  # noqa: BLE001 - ltc printed it; a failure to re-read is a finding
        return f"differs: ltc cannot re-read a module ({type(e).__name__}: {str(e)[:120]})"
    funcs = [f for f in mods[0].walk() if isinstance(f, FuncOp) and f.body.blocks]
    if not funcs:
        return "skipped: no tt.func with a body"
    skipped: list[str] = []
    ran = 0
    for f in funcs:
        name = f.sym_name.data
        rng = np.random.default_rng(SEED)
        try:
            args = _arguments(list(f.function_type.inputs.data), rng)
        except _Unrunnable as e:
            skipped.append(f"@{name}: {e}")
            continue
        outs = []
        for i, m in enumerate(mods):
            call_args = copy.deepcopy(args)
            try:
                with np.errstate(all="ignore"):
                    results = run_function(m, call_args, func=name)
            except Exception as e:  # noqa: BLE001 - InterpretError, or an op the interpreter lacks
                if i == 0:
                    skipped.append(f"@{name}: {type(e).__name__}: {str(e)[:100]}")
                    break
                return f"differs: @{name} fails on ltc's output ({type(e).__name__}: {str(e)[:100]})"
            outs.append((results, call_args))
        if len(outs) != 2:
            continue
        ran += 1
        (r0, a0), (r1, a1) = outs
        if len(r0) != len(r1) or not all(_equal(x, y) for x, y in zip(r0, r1)):
            return f"differs: @{name} returns other values"
        for k, (x, y) in enumerate(zip(a0, a1)):
            if isinstance(x, np.ndarray) and x.ndim and not _equal(x, y):
                return f"differs: @{name} leaves other values in argument {k}"
    if not ran:
        return "skipped: " + "; ".join(skipped)[:200]
    return "same" if not skipped else f"same ({ran} function(s); skipped " + "; ".join(skipped)[:120] + ")"
