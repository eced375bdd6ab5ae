"""The passes ``ltc-opt`` knows, by command-line name, loaded on first use.

Names mirror Triton's and MLIR's flags so that RUN lines written for ``triton-opt``
work with ``ltc-opt``. Each entry: name -> (factory returning the ``ModulePass``
class, one-line description for ``--help``).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def _canonicalize() -> type[ModulePass]:
    from xdsl.transforms.canonicalize import CanonicalizePass

    return CanonicalizePass


def _cse() -> type[ModulePass]:
    from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

    return CommonSubexpressionElimination


def _dce() -> type[ModulePass]:
    from xdsl.transforms.dead_code_elimination import DeadCodeElimination

    return DeadCodeElimination


PASS_REGISTRY: dict[str, tuple[Callable[[], type[ModulePass]], str]] = {
    "canonicalize": (
        _canonicalize,
        "fold and simplify ops (ttg.convert_layout between equal linear layouts, cvt(cvt(x)), constants)",
    ),
    "cse": (_cse, "eliminate common subexpressions"),
    "dce": (_dce, "remove ops whose results are unused and that have no side effects"),
}


def pass_factories() -> dict[str, Callable[[], type[ModulePass]]]:
    """``{name: factory}`` in the form ``PassPipeline.parse_spec`` takes."""
    return {name: factory for name, (factory, _) in PASS_REGISTRY.items()}
