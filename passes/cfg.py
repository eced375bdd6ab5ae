"""Branch edges of a multi-block function: which operand flows into which block argument.

A ``tt.func`` with early returns has several blocks tied by ``cf.br`` / ``cf.cond_br``
(``cf.switch``). Operand ``i`` of an edge's operand range is the value the successor's
block argument ``i`` takes when control comes that way — the same relation as an
``scf.yield`` operand and the loop's iter argument. The analyses treat block arguments
of non-entry blocks as values fed by every incoming edge.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Block, BlockArgument, Operation, SSAValue

__all__ = ["BRANCH_OPS", "Edge", "edges", "incoming", "is_branch", "operand_targets"]

BRANCH_OPS = frozenset({"cf.br", "cf.cond_br", "cf.switch"})


@dataclass(frozen=True)
class Edge:
    """``branch`` passes ``branch.operands[first : first + len(block.args)]`` to ``block``."""

    branch: Operation
    first: int
    block: Block

    @property
    def values(self) -> tuple[SSAValue, ...]:
        return tuple(self.branch.operands[self.first : self.first + len(self.block.args)])


def is_branch(op: Operation) -> bool:
    return op.name in BRANCH_OPS


def edges(op: Operation) -> list[Edge]:
    """The edges of a branch terminator, in successor order ([] for any other op)."""
    if op.name == "cf.br":
        return [Edge(op, 0, op.successors[0])]
    if op.name == "cf.cond_br":
        then_block, else_block = op.successors
        return [Edge(op, 1, then_block), Edge(op, 1 + len(then_block.args), else_block)]
    if op.name == "cf.switch":
        # operands: flag, the default's, then each case's in successor order
        out = [Edge(op, 1, op.successors[0])]
        first = 1 + len(op.successors[0].args)
        for block in op.successors[1:]:
            out.append(Edge(op, first, block))
            first += len(block.args)
        return out
    return []


def operand_targets(op: Operation, index: int) -> list[BlockArgument]:
    """The block arguments that operand ``index`` of branch ``op`` flows into."""
    out: list[BlockArgument] = []
    for e in edges(op):
        if e.first <= index < e.first + len(e.block.args):
            out.append(e.block.args[index - e.first])
    return out


def incoming(arg: BlockArgument) -> list[tuple[Operation, int]]:
    """(branch, operand index) of every edge that feeds ``arg``."""
    out: list[tuple[Operation, int]] = []
    seen: set[int] = set()
    for use in arg.block.uses:
        op = use.operation
        if id(op) in seen:
            continue
        seen.add(id(op))
        for e in edges(op):
            if e.block is arg.block:
                out.append((op, e.first + arg.index))
    return out
