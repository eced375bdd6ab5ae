"""Source locations through pattern rewrites.

MLIR's rewriters place a new op at the location of the op being rewritten
(``rewriter.replaceOpWithNewOp``, ``builder.create(op->getLoc(), ...)``); xDSL's leave a
new op at ``loc(unknown)``. :class:`AtMatchedLocation` wraps a pattern so that every op
it inserts without a location takes the matched op's: after ltc's rewrites, Triton's
PTX still carries ``.loc`` lines for the source lines a kernel came from.
"""

from __future__ import annotations

from xdsl.dialects.builtin import UnknownLoc
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

__all__ = ["AtMatchedLocation"]


class AtMatchedLocation(RewritePattern):
    """``pattern``, with every op it inserts at ``loc(unknown)`` moved to the location of
    the op it matched (ops built with a location keep theirs)."""

    def __init__(self, pattern: RewritePattern) -> None:
        self.pattern = pattern

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        location = op.location

        def locate(new: Operation) -> None:
            if isinstance(new.location, UnknownLoc):
                new.location = location

        handlers = rewriter.operation_insertion_handler
        handlers.append(locate)
        try:
            self.pattern.match_and_rewrite(op, rewriter)
        finally:
            handlers.remove(locate)
