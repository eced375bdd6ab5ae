"""A cheap record of an op tree from which a copy is built later, only when one is needed.

``snapshot(op)`` reads what xDSL's ``Operation.clone`` copies — each op's class, operands,
result types and name hints, attributes, properties, location, successors and regions
(blocks with their arguments' types, locations and name hints) — into tuples, about a
tenth of the time of the clone itself; ``rebuild(snap)`` makes the clone from them, the
same ops built the same way (``Operation.create``) in the same order. The record holds
immutable attributes and the original's values and blocks as keys only, so ``op`` may be
rewritten in place in between: ``rebuild`` returns what ``op.clone()`` returned when the
snapshot was taken.

``never_worse_than_rule`` (``conversion_cost``) needs the input of the layout passes
again only when ltc's own layout leaves a conversion (a few variants in a hundred): it
keeps a snapshot rather than a clone.
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, Region

__all__ = ["Snapshot", "rebuild", "snapshot"]

Snapshot = tuple
"""(class, operands, results, result types, result name hints, attributes, properties,
location, successors, regions); a region is a list of (block, [(arg, type, location, name
hint)], [op snapshots]). The original's values and blocks key the copy's."""


def snapshot(op: Operation) -> Snapshot:
    """The record of ``op`` and everything nested in it (see the module doc)."""
    results = op.results
    return (
        type(op),
        tuple(op._operands),  # noqa: SLF001 - what clone reads, without the property's copy
        tuple(results),
        tuple([r.type for r in results]),
        tuple([r.name_hint for r in results]),
        op.attributes.copy(),
        op.properties.copy(),
        op.location,
        tuple(op.successors),
        [
            [(b, [(a, a.type, a.location, a.name_hint) for a in b.args], [snapshot(o) for o in b.ops])
             for b in region.blocks]
            for region in op.regions
        ] if op.regions else (),
    )


def rebuild(snap: Snapshot) -> Operation:
    """The op tree recorded by ``snap``, as ``op.clone()`` made it at the snapshot."""
    values: dict = {}
    blocks: dict = {}
    pending: list[tuple[Operation, tuple]] = []
    op = _build(snap, values, blocks, pending)
    # Operands last, as Operation.clone sets them: a use may come before its definition
    # in the walk (a graph region, a block argument of a later block).
    for new, operands in pending:
        if operands:
            new.operands = tuple([values.get(o, o) for o in operands])
    return op


def _build(snap: Snapshot, values: dict, blocks: dict, pending: list) -> Operation:
    cls, operands, results, result_types, hints, attributes, properties, location, successors, regions = snap
    new = cls.create(
        operands=(),
        result_types=result_types,
        attributes=attributes.copy(),
        properties=properties.copy(),
        location=location,
        successors=[blocks.get(s, s) for s in successors],
        regions=[Region() for _ in regions],
    )
    for old, result, hint in zip(results, new.results, hints, strict=True):
        values[old] = result
        result.name_hint = hint
    pending.append((new, operands))
    for region, new_region in zip(regions, new.regions):
        # every block first, so that a branch may name a later one (Region.clone_into)
        new_blocks = []
        for block, _, _ in region:
            new_blocks.append(new_block := Block())
            blocks[block] = new_block
        if new_blocks:
            new_region.add_block(new_blocks)
        for (_, args, ops), new_block in zip(region, new_blocks):
            for index, (arg, ty, loc, hint) in enumerate(args):
                new_arg = new_block.insert_arg(ty, index, loc)
                values[arg] = new_arg
                new_arg.name_hint = hint
            for child in ops:
                new_block.add_op(_build(child, values, blocks, pending))
    return new
