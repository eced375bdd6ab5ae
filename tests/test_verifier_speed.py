"""The verifier's shortcuts (issue 16) keep its verdicts: an isolated op's checks run
without xDSL's IsolatedFromAbove walk (the per-operand check reports the crossing, at
the using op, as MLIR does), and ``tt.store`` joins the per-signature cache with the
one parent fact its verify_ reads (inside ``tt.map_elementwise`` or not)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp

from ltc.dialects import verifier
from ltc.dialects.tt.control import FuncOp
from ltc.tools import opt
from tests.oracle import HAVE_TRITON


def _run(tmp_path: Path, text: str) -> tuple[int, int, str] | None:
    """``ltc-opt`` on ``text``: None when accepted, else (line, col, message)."""
    src = tmp_path / "input.mlir"
    src.write_text(text)
    stdout, stderr = io.StringIO(), io.StringIO()
    rc = opt.run([str(src)], io.StringIO(), stdout, stderr)
    err = stderr.getvalue()
    if rc == 0:
        return None
    assert "Traceback" not in err and "internal error" not in err, err
    m = re.match(rf"{re.escape(str(src))}:(\d+):(\d+): error: (.*)", err.splitlines()[0])
    assert m is not None, err
    return int(m.group(1)), int(m.group(2)), m.group(3)


_ACROSS_FUNC = (
    "module {\n"
    "  %c = arith.constant 1 : i32\n"
    "  tt.func @f(%b: i1) {\n"
    "    scf.if %b {\n"
    "      %x = arith.addi %c, %c : i32\n"
    "    }\n"
    "    tt.return\n"
    "  }\n"
    "}\n"
)
_ACROSS_MESSAGE = (5, 12, "'arith.addi' op using value defined outside the region")


def test_isolated_ops_skip_only_the_isolation_walk() -> None:
    assert verifier._verify_without_isolation(FuncOp) is not None
    assert verifier._verify_without_isolation(ModuleOp) is not None


def test_a_value_used_across_a_function_boundary_is_rejected_at_the_use(tmp_path: Path) -> None:
    assert _run(tmp_path, _ACROSS_FUNC) == _ACROSS_MESSAGE
    # the module's own isolation too (a value of the outer module in a nested one)
    nested = "module {\n  %c = arith.constant 1 : i32\n  module {\n    %x = arith.addi %c, %c : i32\n  }\n}\n"
    assert _run(tmp_path, nested) == (4, 10, "'arith.addi' op using value defined outside the region")


@pytest.mark.skipif(not HAVE_TRITON, reason="Triton is not installed")
def test_the_isolation_message_is_tritons() -> None:
    from tests.oracle import OracleError, _parse_module_text

    with pytest.raises(OracleError) as e:
        _parse_module_text(_ACROSS_FUNC)
    line, col, message = _ACROSS_MESSAGE
    assert f'"<oracle>":{line}:{col}): error: {message}' in str(e.value)


_STORE_OUTSIDE = (
    "tt.func @outside(%q: !tt.ptr<i32>, %x: i32) {\n"
    "  tt.store %q, %x : !tt.ptr<i32>\n"
    "  tt.return\n"
    "}\n"
)
_STORE_INSIDE = (
    "tt.func @inside(%p: tensor<256x!tt.ptr<i32>>, %a: tensor<256xi32>) {\n"
    '  %0 = "tt.map_elementwise"(%p, %a) <{pack = 1 : i32}> ({\n'
    "  ^bb0(%q: !tt.ptr<i32>, %x: i32):\n"
    "    tt.store %q, %x : !tt.ptr<i32>\n"
    "    tt.map_elementwise.return %x : i32\n"
    "  }) : (tensor<256x!tt.ptr<i32>>, tensor<256xi32>) -> tensor<256xi32>\n"
    "  tt.return\n"
    "}\n"
)
_STORE_MESSAGE = "'tt.store' op Stores are not supported inside map_elementwise"


def test_a_store_inside_map_elementwise_is_rejected_after_an_identical_one_passed(tmp_path: Path) -> None:
    # the same store (class, types, attributes, properties) outside: accepted and cached
    assert _run(tmp_path, _STORE_OUTSIDE) is None
    assert _run(tmp_path, _STORE_INSIDE) == (4, 5, _STORE_MESSAGE)
    # both in one module, the passing one first
    assert _run(tmp_path, _STORE_OUTSIDE + _STORE_INSIDE) == (8, 5, _STORE_MESSAGE)
    # and the cache still accepts the outside one afterwards
    assert _run(tmp_path, _STORE_OUTSIDE) is None
