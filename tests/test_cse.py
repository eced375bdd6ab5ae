"""ltc's CSE (``passes/cse.py``) rewrites exactly as xDSL's pass does, on every
Triton-generated TTGIR of the examples and on hand-made cases of each rule."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.transforms.common_subexpression_elimination import cse as xdsl_cse

import ltc.tools.pipeline as P
from ltc.passes.cse import eliminate_common_subexpressions

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.ttgir"))

CASES = {
    "equal pure ops merge, the dead copy goes": """
module {
  tt.func @f(%a: i32, %p: !tt.ptr<i32>) {
    %x = arith.addi %a, %a : i32
    %y = arith.addi %a, %a : i32
    %z = arith.muli %x, %y : i32
    %dead = arith.subi %a, %a : i32
    %unread = tt.load %p : !tt.ptr<i32>
    tt.store %p, %z : !tt.ptr<i32>
    tt.return
  }
}""",
    "a volatile load is a write: two stay; two plain loads merge without a store between": """
module {
  tt.func @f(%p: !tt.ptr<i32>) {
    %a = tt.load %p {isVolatile = true} : !tt.ptr<i32>
    %b = tt.load %p {isVolatile = true} : !tt.ptr<i32>
    %c = tt.load %p : !tt.ptr<i32>
    %d = tt.load %p : !tt.ptr<i32>
    %s = arith.addi %a, %b : i32
    %t = arith.addi %c, %d : i32
    %u = arith.addi %s, %t : i32
    tt.store %p, %u : !tt.ptr<i32>
    %e = tt.load %p : !tt.ptr<i32>
    tt.store %p, %e : !tt.ptr<i32>
    tt.return
  }
}""",
    "a nested region sees the outer definitions, not the reverse": """
module {
  tt.func @f(%a: i32, %c: i1, %p: !tt.ptr<i32>) {
    %x = arith.addi %a, %a : i32
    %r = scf.if %c -> (i32) {
      %y = arith.addi %a, %a : i32
      %w = arith.muli %a, %a : i32
      scf.yield %w : i32
    } else {
      scf.yield %x : i32
    }
    %v = arith.muli %a, %a : i32
    %s = arith.addi %r, %v : i32
    tt.store %p, %s : !tt.ptr<i32>
    tt.return
  }
}""",
}


def _both(text: str) -> tuple[str, str]:
    a, b = P.parse_module(text), P.parse_module(text)
    xdsl_cse(a)
    eliminate_common_subexpressions(b)
    return P.module_text(a), P.module_text(b)


@pytest.mark.parametrize("name", sorted(CASES))
def test_cases_as_xdsl(name: str) -> None:
    ours, theirs = _both(CASES[name])[::-1]
    assert ours == theirs
    assert ours != P.module_text(P.parse_module(CASES[name]))  # something was rewritten


def test_cases_by_hand() -> None:
    text = _both(CASES["a volatile load is a write: two stay; two plain loads merge without a store between"])[1]
    assert text.count("tt.load") == 4 and text.count("isVolatile") == 2
    nested = _both(CASES["a nested region sees the outer definitions, not the reverse"])[1]
    assert nested.count("arith.addi %a, %a") == 1 and nested.count("arith.muli %a, %a") == 2


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_examples_as_xdsl(path: Path) -> None:
    xdsl_text, ours = _both(path.read_text())
    assert ours == xdsl_text
