"""``benchmarks/synthetic_ir.py``: the synthetic TTIR parses with ltc and Triton and has the asked size."""

from __future__ import annotations

import os
import re
import sys

import pytest
from xdsl.dialects.builtin import ModuleOp

import ltc.tools.pipeline as P

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks"))
from synthetic_ir import count_ops, synthetic_module  # noqa: E402  (xdsl owns the name 'benchmarks')

SIZES = [(100, 0), (1000, 1), (3000, 2)]


def _ltc_op_count(text: str) -> int:
    return sum(not isinstance(op, ModuleOp) for op in P.parse_module(text).walk())


@pytest.mark.parametrize("n_ops, seed", SIZES, ids=lambda v: str(v))
def test_ltc_parses_with_the_asked_size(n_ops: int, seed: int) -> None:
    text = synthetic_module(n_ops, seed)
    n = _ltc_op_count(text)
    assert n == count_ops(text)
    assert n_ops <= n <= 1.1 * n_ops, (n, n_ops)


@pytest.mark.parametrize("n_ops, seed", SIZES, ids=lambda v: str(v))
def test_triton_parses_the_same_ops(n_ops: int, seed: int) -> None:
    pytest.importorskip("triton")
    from tests import triton_pipeline as tp

    text = synthetic_module(n_ops, seed)
    assert tp.triton_verify(text, use_cache=False) is None
    assert tp.triton_op_count(text) == count_ops(text)


def test_triton_layout_passes_run_on_it() -> None:
    pytest.importorskip("triton")
    from tests import triton_pipeline as tp

    text, seconds = tp.triton_layout_passes(synthetic_module(400, 5), 4, 90)
    assert seconds > 0
    assert tp.tensors_without_layout(text) == []


def test_deterministic_in_size_and_seed() -> None:
    assert synthetic_module(500, 3) == synthetic_module(500, 3)
    assert synthetic_module(500, 3) != synthetic_module(500, 4)
    assert synthetic_module(500, 3) != synthetic_module(600, 3)


def test_has_every_kind_of_piece() -> None:
    text = synthetic_module(3000, 2)
    ops = {m.group(1) for m in re.finditer(r'^\s*(?:%\S+ = )?"?([a-z_]+\.[a-z_.0-9]+)', text, re.M)}
    assert {
        "tt.func", "tt.load", "tt.store", "tt.addptr", "tt.splat", "tt.make_range", "tt.expand_dims",
        "tt.broadcast", "tt.trans", "tt.dot", "tt.reduce", "tt.reduce.return", "scf.for", "scf.yield",
        "arith.truncf", "arith.extf", "arith.select", "arith.cmpi", "math.exp", "tt.return",
    } <= ops
    assert len(re.findall(r"^  tt\.func public @kernel\d+\(", text, re.M)) >= 5
    assert re.search(r"^      \s*%\S+ = scf\.for", text, re.M), "no loop nested in a loop"
    assert re.search(r"tt\.load \S+, \S+, \S+ :", text), "no masked load"


def test_too_small_is_rejected() -> None:
    with pytest.raises(ValueError):
        synthetic_module(10, 0)
