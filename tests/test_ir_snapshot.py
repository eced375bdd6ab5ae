"""``passes.ir_snapshot``: a copy rebuilt from a snapshot is the clone taken at the
snapshot — the same text, the same use lists in the same order — even after the
original was laid out in place (issue 16: ``never_worse_than_rule`` copies its input
only when Triton's rule runs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.ir import Operation

import ltc.tools.pipeline as P
from ltc.passes.ir_snapshot import rebuild, snapshot
from ltc.passes.layout_strategies import lay_out

ROOT = Path(__file__).resolve().parents[1]
INPUTS = sorted((ROOT / "examples" / "triton").glob("*.tt*ir")) + [
    ROOT / "tests" / "filecheck" / "transforms" / "multiblock_layouts.mlir",
]
CONVERT = "convert-triton-to-tritongpu{num-warps=4 target=cuda:90}"


def _shape(op: Operation) -> list:
    """Every value's uses as (walk index of the user, operand index), in use-list order,
    with each block's successors as walk positions: what text does not show."""
    ops = list(op.walk())
    index = {o: i for i, o in enumerate(ops)}
    blocks = {b: (i, j) for o in ops for i, r in enumerate(o.regions) for j, b in enumerate(r.blocks)}
    out = []
    for o in ops:
        values = list(o.results) + [a for r in o.regions for b in r.blocks for a in b.args]
        out.append([[(index[u.operation], u.index) for u in v.uses] for v in values])
        out.append([blocks.get(s) for s in o.successors])
    return out


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_rebuild_is_the_clone(path: Path) -> None:
    module = P.parse_module(path.read_text())
    if path.suffix != ".ttgir":
        P.run_pipeline(module, CONVERT, verify=False)
    clone = module.clone()
    snap = snapshot(module)
    before = P.module_text(module)
    if path.suffix != ".ttgir":  # rewrite the original in place: the snapshot keeps the input
        lay_out(Context(allow_unregistered=True), module, span_rows=True, strategy="objective")
    copy = rebuild(snap)
    assert P.module_text(copy) == P.module_text(clone) == before
    assert _shape(copy) == _shape(clone)
    assert {id(o) for o in copy.walk()}.isdisjoint(id(o) for o in module.walk())


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_walk_list_is_the_walk(path: Path) -> None:
    from ltc.passes.layout_ir import walk_list

    module = P.parse_module(path.read_text())
    assert walk_list(module) == list(module.walk())
    for op in module.walk():
        for region in op.regions:
            assert walk_list(region) == list(region.walk())
