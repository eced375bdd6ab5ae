"""``ltc-assign-layouts``: ltc's whole layout pipeline under one name.

In order: ``tritongpu-coalesce`` (memory-op anchors; with ``span-rows=true``, the
default, ltc's per-thread runs that span dims where the addresses are contiguous across
them — see ``passes/coalesce.py``; ``span-rows=false`` is Triton's choice exactly), ``tritongpu-accelerate-matmul``
(tensor-core anchors), ``tritongpu-remove-layout-conversions`` (propagation, conflicts,
rematerialization, hoisting), ``tritongpu-reduce-data-duplication`` (blocked ->
dot_op through shared memory) and a last canonicalization. The input must already carry
layouts (run ``convert-triton-to-tritongpu`` first on TTIR).

Triton's rule (``layout_strategies``) lays out a copy of the input too; its result is
kept instead when it costs less under ltc's cost model (``conversion_cost``): the
objective's choice never loses to the rule.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ltc.passes.layout_engine import LayoutLog
from ltc.passes.candidate_layouts import lay_out_never_worse
from ltc.passes.layout_strategies import apply_triton_rule, lay_out

__all__ = ["AssignLayoutsPass"]


@dataclass(frozen=True)
class AssignLayoutsPass(ModulePass):
    """Coalesce, accelerate matmuls, remove conversions, reduce duplication, canonicalize."""

    name = "ltc-assign-layouts"

    debug_layouts: bool = False
    span_rows: bool = True
    """Let coalescing give threads runs across dims (``CoalescePass.span_rows``)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        log = LayoutLog() if self.debug_layouts else None
        lay_out_never_worse(
            op,
            lambda m, strategy, first, log_: lay_out(
                ctx, m, span_rows=self.span_rows, strategy=strategy, log=log_, first_minima=first),
            lambda m: apply_triton_rule(ctx, m),
            log,
        )
        if log is not None:
            sys.stderr.write(log.text(op))

