"""Common subexpression elimination: MLIR's ``cse``, as xDSL's pass does it, faster.

The rewrite is xDSL's (``xdsl.transforms.common_subexpression_elimination``), op for op:

* an op equal to one seen before in a dominating position (same name, operands, result
  types, attributes and properties, structurally equal regions) is replaced by it, when
  it is free of side effects, or only reads and sits in the same block with no write in
  between;
* a trivially dead op (unused results, no effect but reads and allocations of its own
  values: xDSL's ``is_trivially_dead``) is erased; terminators stay;
* the ops of a region see what the enclosing blocks defined (a scope per region), an
  op isolated from above starts from nothing; regions of several blocks are left alone.

What differs is only the cost: each op's key is built once (xDSL hashes an op on every
lookup and copies the whole table for every nested region), the scopes are a chain of
tables, and the side-effect class of an op without regions is kept per op name
(when all its effect traits are xDSL's, the class follows from the op's class; an op
with regions, or with an effect trait of ours that reads the op, is asked every time).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import cache

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnregisteredOp
from xdsl.ir import Block, Operation, Region
from xdsl.irdl import IRDLOperation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.transforms.common_subexpression_elimination import has_other_side_effecting_op_in_between
from xdsl.transforms.dead_code_elimination import would_be_trivially_dead
from xdsl.traits import (
    IsolatedFromAbove,
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    is_side_effect_free,
    only_has_effect,
)

__all__ = ["CSEPass", "eliminate_common_subexpressions"]

_PURE, _READS, _OTHER = 0, 1, 2


def eliminate_common_subexpressions(root: ModuleOp | Operation) -> None:
    """Run CSE over every region of ``root`` in place (see the module doc)."""
    _Driver().run(root)


@dataclass(frozen=True)
class CSEPass(ModulePass):
    """Merge equal side-effect-free ops and drop dead ones (MLIR's ``cse``)."""

    name = "cse"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        eliminate_common_subexpressions(op)


class _Driver:
    def __init__(self) -> None:
        self.scopes: list[dict[Hashable, list[Operation]]] = [{}]
        self.to_erase: list[Operation] = []
        self.erasing: set[Operation] = set()
        self.effects: dict[str, int] = {}
        self.visited: set[Operation] = set()

    def run(self, root: Operation) -> None:
        for region in root.regions:
            self._region(region)
        for op in self.to_erase:
            if op.parent is not None:
                Rewriter.erase_op(op)

    # -- scopes ---------------------------------------------------------------------

    def _find(self, key: Hashable, op: Operation) -> Operation | None:
        for scope in reversed(self.scopes):
            for other in scope.get(key, ()):
                if not op.regions or all(a.is_structurally_equivalent(b) for a, b in zip(op.regions, other.regions)):
                    return other
        return None

    def _remember(self, key: Hashable, op: Operation) -> None:
        self.scopes[-1].setdefault(key, []).append(op)

    # -- the walk --------------------------------------------------------------------

    def _region(self, region: Region) -> None:
        if len(region.blocks) != 1:
            return
        self.scopes.append({})
        self._block(region.block)
        self.scopes.pop()

    def _block(self, block: Block) -> None:
        for op in block.ops:
            if op.regions:
                if op.has_trait(IsolatedFromAbove, value_if_unregistered=True):
                    outer, self.scopes = self.scopes, [{}]
                    for region in op.regions:
                        self._region(region)
                    self.scopes = outer
                else:
                    for region in op.regions:
                        self._region(region)
            self._operation(op)
            self.visited.add(op)

    def _effect_class(self, op: Operation) -> int:
        if op.regions or not _effects_by_class(type(op)):
            return _classify(op)
        got = self.effects.get(op.name)
        if got is None:
            got = self.effects[op.name] = _classify(op)
        return got

    def _operation(self, op: Operation) -> None:
        if op.has_trait(IsTerminator):
            return
        if all(r.first_use is None for r in op.results) and would_be_trivially_dead(op):
            self._erase(op)  # trivially dead (no effect but reads and own allocations)
            return
        effect = self._effect_class(op)
        if any(len(region.blocks) > 1 for region in op.regions) or effect == _OTHER:
            return
        key = _key(op)
        existing = self._find(key, op)
        if existing is not None:
            if effect == _PURE or (existing.parent_block() is op.parent_block() and not has_other_side_effecting_op_in_between(existing, op)):
                self._replace(op, existing)
                return
            if effect == _READS:
                self._remember(key, op)
            return
        self._remember(key, op)

    def _replace(self, op: Operation, existing: Operation) -> None:
        # (as xDSL: a result is replaced only when no use was visited yet, i.e. all its
        # users come later in the walk)
        for old, new in zip(op.results, existing.results, strict=True):
            if all(u.operation not in self.visited for u in old.uses):
                old.replace_all_uses_with(new)
        if all(r.first_use is None for r in op.results):
            self._erase(op)

    def _erase(self, op: Operation) -> None:
        if op not in self.erasing:
            self.erasing.add(op)
            self.to_erase.append(op)


@cache
def _effects_by_class(cls: type[Operation]) -> bool:
    """Whether ops of ``cls`` have the effects their traits state for the class: every
    effect trait is one of xDSL's (an ltc trait may read the op, as a volatile
    ``tt.load`` does), and the op is registered."""
    if cls is UnregisteredOp or not issubclass(cls, IRDLOperation):
        return False
    return all(type(t).__module__.startswith("xdsl.") for t in cls.traits if isinstance(t, MemoryEffect))


def _classify(op: Operation) -> int:
    if is_side_effect_free(op):
        return _PURE
    if only_has_effect(op, MemoryEffectKind.READ):
        return _READS
    return _OTHER


def _key(op: Operation) -> Hashable:
    name = op.op_name.data if isinstance(op, UnregisteredOp) else op.name
    return (
        name,
        tuple(op.operands),
        tuple(op.result_types),
        frozenset(op.attributes.items()),
        frozenset(op.properties.items()),
        len(op.regions),
    )
