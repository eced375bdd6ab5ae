"""The candidate solutions a layout pass chooses among: ltc's objective, the objective's
first minimum, and Triton's rule — the cheapest under ltc's cost model is kept, so a pass
never leaves more than Triton's rule would (``conversion_cost.never_worse_than_rule``).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import ModuleOp

from ltc.passes.conversion_cost import never_worse_than_rule
from ltc.passes.layout_engine import FirstMinima
from ltc.passes.layout_log import LayoutLog

__all__ = ["LayoutRun", "lay_out_never_worse"]

LayoutRun = Callable[[ModuleOp, str, "FirstMinima | None", "LayoutLog | None"], object]
"""``run(module, strategy, first_minima, log)``: a layout pass's work by one engine strategy."""


def lay_out_never_worse(
    module: ModuleOp, run: LayoutRun, by_rule: Callable[[ModuleOp], None], log: LayoutLog | None
) -> None:
    """Lay out ``module`` by ``run`` with the ``"objective"`` strategy. Its first minimum
    (ops' work weighed against conversions: ``"objective-work"``) and Triton's rule
    (``by_rule``) are candidate solutions too; the cheapest under ltc's cost model is
    kept (``never_worse_than_rule``). The first-minimum run takes the objective run's
    search from the shared memo (``FirstMinima``): its search is the first half of the
    objective's."""
    first = FirstMinima()
    never_worse_than_rule(
        module,
        lambda m: run(m, "objective", first, log),
        by_rule,
        log.add if log is not None else None,
        others=[("the objective's first minimum", lambda m: run(m, "objective-work", first, None))],
    )
