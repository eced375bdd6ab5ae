"""The passes ``ltc-opt`` knows, by command-line name, loaded on first use.

Names mirror Triton's and MLIR's flags so that RUN lines written for ``triton-opt``
work with ``ltc-opt``. Each entry: name -> (factory returning the ``ModulePass``
class, one-line description for ``--help`` ending with the pass's options and their
defaults as ``{name=default ...}`` when it has any; a test checks them against the class).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # xDSL is imported with the pass, not for --help
    from xdsl.passes import ModulePass


def _canonicalize() -> type[ModulePass]:
    from ltc.passes.canonicalize import TritonCanonicalizePass

    return TritonCanonicalizePass


def _cse() -> type[ModulePass]:
    from ltc.passes.cse import CSEPass

    return CSEPass


def _dce() -> type[ModulePass]:
    from xdsl.transforms.dead_code_elimination import DeadCodeElimination

    return DeadCodeElimination


def _lazy(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    def factory() -> type[ModulePass]:
        import importlib

        return getattr(importlib.import_module(f"ltc.passes.{module}"), cls)

    return factory


PASS_REGISTRY: dict[str, tuple[Callable[[], type[ModulePass]], str]] = {
    "canonicalize": (
        _canonicalize,
        "fold and simplify ops: the ops' own patterns and folders, Triton's tt/ttg folds "
        "(ltc.passes.canonicalize), dead side-effect-free ops",
    ),
    "cse": (_cse, "eliminate common subexpressions"),
    "dce": (_dce, "remove ops whose results are unused and that have no side effects"),
    "convert-triton-to-tritongpu": (
        _lazy("convert_to_ttgpu", "ConvertTritonToTritonGPUPass"),
        "give every tensor of layout-free IR Triton's default blocked layout; set the module's "
        "ttg.* attributes {num-warps=4 threads-per-warp=32 num-ctas=1 target=cuda:90}",
    ),
    "tritongpu-coalesce": (
        _lazy("coalesce", "CoalescePass"),
        "lay out global loads/stores for coalesced, widest accesses from axis info "
        "{span-rows=false}",
    ),
    "tritongpu-accelerate-matmul": (
        _lazy("accelerate_matmul", "AccelerateMatmulPass"),
        "give tt.dot a tensor-core (mma v2/v3) result layout and dot_op / shared operands",
    ),
    "tritongpu-remove-layout-conversions": (
        _lazy("remove_layout_conversions", "RemoveLayoutConversionsPass"),
        "propagate anchor layouts, resolve conflicts by cost, rematerialize and hoist, "
        "leaving the fewest ttg.convert_layout ops {debug-layouts=false}",
    ),
    "tritongpu-reduce-data-duplication": (
        _lazy("reduce_data_duplication", "ReduceDataDuplicationPass"),
        "send blocked -> dot_op conversions through shared memory (local_alloc + local_load)",
    ),
    "ltc-structurize-cf": (
        _lazy("structurize_cf", "StructurizeCfPass"),
        "rewrite multi-block tt.func bodies (cf.br / cf.cond_br early returns) as nested scf.if",
    ),
    "ltc-assign-layouts": (
        _lazy("assign_layouts", "AssignLayoutsPass"),
        "ltc's whole layout pipeline: coalesce, accelerate-matmul, remove-layout-conversions, "
        "reduce-data-duplication, canonicalize {span-rows=true debug-layouts=false}",
    ),
}


def pass_factories() -> dict[str, Callable[[], type[ModulePass]]]:
    """``{name: factory}`` in the form ``PassPipeline.parse_spec`` takes."""
    return {name: factory for name, (factory, _) in PASS_REGISTRY.items()}


_UNQUOTED_VALUE = re.compile(r'(?<=[{\s])([\w-]+)=([^\s"{},=]*[^\w\s"{},=.-][^\s"{},=]*)(?=[\s}])')


def normalize_pipeline_spec(spec: str) -> str:
    """Quote option values that xDSL's pipeline lexer cannot read bare (``target=cuda:90``
    as Triton's RUN lines write it becomes ``target="cuda:90"``)."""
    return _UNQUOTED_VALUE.sub(lambda m: f'{m.group(1)}="{m.group(2)}"', spec)


DEBUG_LAYOUT_PASSES = ("ltc-assign-layouts", "tritongpu-remove-layout-conversions")


def with_debug_layouts(spec: str) -> str:
    """``spec`` with ``debug-layouts=true`` added to the passes that explain layouts."""

    def add(m: re.Match[str]) -> str:
        name, opts = m.group(1), m.group(2)
        if opts is None:
            return f"{name}{{debug-layouts=true}}"
        return f"{name}{{{opts[1:-1].strip()} debug-layouts=true}}"

    names = "|".join(re.escape(n) for n in DEBUG_LAYOUT_PASSES)
    return re.sub(rf"\b({names})(\{{[^}}]*\}})?", add, spec)
