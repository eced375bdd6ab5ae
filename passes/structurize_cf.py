"""``ltc-structurize-cf``: a ``tt.func`` of several blocks becomes one block of ``scf.if``.

Triton writes an ``if`` that contains a ``return`` with ``cf.cond_br`` / ``cf.br``
between blocks (an early exit: ``cf.cond_br %done, ^exit, ^rest``). The lowering and
the emitters take one block per function, so an acyclic CFG is rewritten as a tree of
``scf.if``:

1. *Tree.* Blocks are visited in topological order; a block reached by ``k > 1``
   edges is cloned for edges 2..k (each copy sees the copies of the values of the
   path that leads to it), so that every block has one incoming edge. The first path
   keeps the original ops (their source locations and identities); only join blocks
   are duplicated.
2. *Nest.* From the entry block: a block's ops stay or move into the enclosing region,
   its arguments are replaced by the values of its one incoming edge, and its
   terminator becomes: ``cf.br ^s`` -> ``^s`` continues in place; ``cf.cond_br %c, ^t,
   ^f`` -> ``scf.if %c`` with ``^t`` and ``^f`` nested in its regions; ``tt.return`` ->
   the values of the region (``scf.yield`` in a branch, ``tt.return`` at the top).
   Every ``scf.if`` yields the function's results, so an early return with values works.

Refused by name (``StructurizeError``, with the op): loops made of branches (a back
edge) and ``cf.switch``.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ltc.dialects.tt import FuncOp, ReturnOp
from ltc.passes.cfg import Edge, edges

__all__ = ["StructurizeCfPass", "StructurizeError", "structurize_function"]

MAX_GROWTH = 8
"""Refuse when duplication would make a function this many times larger (a chain of
diamonds doubles it per diamond)."""


class StructurizeError(ValueError):
    """A control-flow shape the rewrite does not handle; ``op`` is the offending op."""

    def __init__(self, op: Operation, message: str) -> None:
        super().__init__(message)
        self.op = op
        self.message = message


def structurize_function(func: FuncOp) -> bool:
    """Rewrite ``func``'s body into one block (see the module docstring); returns whether
    it had several blocks."""
    region = func.body
    if len(region.blocks) <= 1:
        return False
    order = _topological_order(region)
    _make_tree(order, _op_count(region))
    entry = region.blocks.first
    assert entry is not None
    results = list(func.function_type.outputs.data)
    _nest(entry, entry, results, top=True)
    for block in list(region.blocks):
        if block is not entry:
            _erase_block(block)
    return True


def _op_count(region: Region) -> int:
    return sum(1 for _ in region.walk())


def _topological_order(region: Region) -> list[Block]:
    """The blocks reachable from the entry, every block after all its predecessors;
    refuses a back edge (a loop of branches). Unreachable blocks are erased."""
    entry = region.blocks.first
    assert entry is not None
    post: list[Block] = []
    state: dict[Block, int] = {}  # 1 on the DFS stack, 2 done
    stack: list[tuple[Block, int]] = [(entry, 0)]
    state[entry] = 1
    while stack:
        block, i = stack.pop()
        succ = _successors(block)
        if i < len(succ):
            stack.append((block, i + 1))
            nxt = succ[i]
            if state.get(nxt) == 1:
                term = block.last_op
                assert term is not None
                raise StructurizeError(term, f"'{term.name}' forms a loop of blocks: loops made of branches are not supported")
            if nxt not in state:
                state[nxt] = 1
                stack.append((nxt, 0))
        else:
            state[block] = 2
            post.append(block)
    for block in list(region.blocks):
        if block not in state:
            _erase_block(block)
    return post[::-1]


def _successors(block: Block) -> list[Block]:
    term = block.last_op
    if term is None:
        return []
    if term.name == "cf.switch":
        raise StructurizeError(term, "'cf.switch' is not supported: only cf.br / cf.cond_br between blocks")
    return list(term.successors)


def _incoming(block: Block) -> list[tuple[Operation, int]]:
    """(branch, successor index) of every edge into ``block``, in use-list order made
    deterministic by program order of the branches."""
    out = [(use.operation, use.index) for use in block.uses]
    position = {b: i for i, b in enumerate(block.parent.blocks)} if block.parent else {}
    out.sort(key=lambda e: (position.get(e[0].parent_block(), 0), e[1]))
    return out


def _make_tree(order: list[Block], size: int) -> None:
    """Clone each block reached by several edges once per extra edge (step 1)."""
    env: dict[Block, dict[SSAValue, SSAValue]] = {b: {} for b in order}
    budget = MAX_GROWTH * max(size, 1)
    grown = size
    for block in order:
        for branch, succ_index in _incoming(block)[1:]:
            source = branch.parent_block()
            assert source is not None
            mapper = dict(env.get(source, {}))
            copy = Block(arg_types=block.arg_types)
            for old, new in zip(block.args, copy.args):
                mapper[old] = new
            for op in block.ops:
                copy.add_op(op.clone(value_mapper=mapper))
                grown += sum(1 for _ in op.walk())
            if grown > budget:
                raise StructurizeError(branch, f"'{branch.name}': structurizing the branches would grow the function more than {MAX_GROWTH}x")
            block.parent.insert_block_after(copy, block)  # type: ignore[union-attr]
            branch.successors[succ_index] = copy
            env[copy] = mapper
        # the original block stays on the first path; its ops see that path's values
        first = _incoming(block)[:1]
        if first:
            source = first[0][0].parent_block()
            mapping = env.get(source, {}) if source is not None else {}
            if mapping:
                for op in block.walk():
                    op.operands = tuple(mapping.get(o, o) for o in op.operands)
                env[block] = {**mapping, **env[block]}


def _edge_into(block: Block) -> Edge | None:
    for use in block.uses:
        for e in edges(use.operation):
            if e.block is block:
                return e
    return None


def _end_with(into: Block, values: list, top: bool, term: Operation) -> None:
    """End ``into`` with ``values``: the function's return at the top level, else the
    ``scf.yield`` of the ``scf.if`` it is a branch of; at the terminator it replaces."""
    end = ReturnOp(*values) if top else scf.YieldOp(*values)
    end.location = term.location
    into.add_op(end)


def _nest(block: Block, into: Block, results: list, top: bool) -> None:
    """Move ``block``'s ops to the end of ``into`` and turn its terminator into
    structured control flow (step 2)."""
    edge = _edge_into(block)
    if edge is not None:
        for arg, value in zip(block.args, edge.values):
            arg.replace_all_uses_with(value)
    term = block.last_op
    if term is None:
        raise StructurizeError(block.parent_op(), "a block without a terminator")  # type: ignore[arg-type]
    if block is not into:
        for op in list(block.ops):
            if op is term:
                break
            op.detach()
            into.add_op(op)
    if isinstance(term, ReturnOp):
        values = list(term.operands)
        if block is into and top:
            return
        term.detach()
        _end_with(into, values, top, term)
        term.erase()
        return
    if term.name == "cf.br":
        (succ,) = term.successors
        _nest(succ, into, results, top)
        _drop(term)
        return
    if term.name == "cf.cond_br":
        then_block, else_block = term.successors
        regions = (Region(Block()), Region(Block()))
        if_op = scf.IfOp(term.operands[0], results, regions[0], regions[1])
        if_op.location = term.location
        into.add_op(if_op)
        _nest(then_block, regions[0].block, results, top=False)
        _nest(else_block, regions[1].block, results, top=False)
        _end_with(into, list(if_op.results), top, term)
        _drop(term)
        return
    raise StructurizeError(term, f"'{term.name}' ends a block: only cf.br, cf.cond_br and tt.return are supported between blocks")


def _drop(term: Operation) -> None:
    term.detach()
    term.erase(safe_erase=False)


def _erase_block(block: Block) -> None:
    """Erase an unreachable or emptied block (its values have no reachable users)."""
    for op in reversed(list(block.ops)):
        op.detach()
        op.erase(safe_erase=False)
    if block.parent is not None:
        block.parent.detach_block(block)
    block.erase(safe_erase=False)


@dataclass(frozen=True)
class StructurizeCfPass(ModulePass):
    """Rewrite every multi-block ``tt.func`` into ``scf.if`` (see the module docstring)."""

    name = "ltc-structurize-cf"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in op.walk() if isinstance(f, FuncOp)]:
            structurize_function(func)
