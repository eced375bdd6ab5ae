"""``ltc-assign-layouts``: ltc's whole layout pipeline under one name.

In order: ``tritongpu-coalesce`` (memory-op anchors; with ``span-rows=true``, the
default, ltc's per-thread runs that span dims where the addresses are contiguous across
them — see ``passes/coalesce.py``; ``span-rows=false`` is Triton's choice exactly), ``tritongpu-accelerate-matmul``
(tensor-core anchors), ``tritongpu-remove-layout-conversions`` (propagation, conflicts,
rematerialization, hoisting), ``tritongpu-reduce-data-duplication`` (blocked ->
dot_op through shared memory) and a last canonicalization. The input must already carry
layouts (run ``convert-triton-to-tritongpu`` first on TTIR).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ltc.passes.layout_engine import LayoutLog
from ltc.passes.remove_layout_conversions import canonicalize_module, remove_layout_conversions

__all__ = ["AssignLayoutsPass"]


@dataclass(frozen=True)
class AssignLayoutsPass(ModulePass):
    """Coalesce, accelerate matmuls, remove conversions, reduce duplication, canonicalize."""

    name = "ltc-assign-layouts"

    debug_layouts: bool = False
    span_rows: bool = True
    """Let coalescing give threads runs across dims (``CoalescePass.span_rows``)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from ltc.passes.accelerate_matmul import AccelerateMatmulPass
        from ltc.passes.coalesce import CoalescePass
        from ltc.passes.reduce_data_duplication import ReduceDataDuplicationPass

        log = LayoutLog() if self.debug_layouts else None
        CoalescePass(span_rows=self.span_rows).apply(ctx, op)
        AccelerateMatmulPass().apply(ctx, op)
        remove_layout_conversions(ctx, op, log, cse=False)
        ReduceDataDuplicationPass().apply(ctx, op)
        canonicalize_module(ctx, op, cse=True)
        if log is not None:
            sys.stderr.write(log.text(op))
