"""Source locations survive ltc's passes.

MLIR's rewriters place what they create at the location of the op they rewrite, and
Triton's final TTGIR carries a location on every op that came from source; its PTX
then has a ``.loc`` line per source position, which profilers map SASS back through.
ltc's passes keep them too: a conversion inserted for a use is at the user, an op
rebuilt by a pattern or rematerialized is at the op it replaces, the operands
accelerate-matmul stages through shared memory and the tensor-core dot are at the
``tt.dot``. The check: with every location of the input known, no op of the output is
at ``loc(unknown)``.
"""

from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path

import pytest

from ltc.tools import opt

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*/*.ttir"))
PIPELINES = {
    "layouts": "convert-triton-to-tritongpu{{num-warps=4 target=cuda:{cc}}},ltc-assign-layouts",
    "layouts+canonicalize": "convert-triton-to-tritongpu{{num-warps=4 target=cuda:{cc}}},ltc-assign-layouts,canonicalize",
}


def _all_known(text: str) -> str:
    """``text`` with its unknown locations given a file position (Triton leaves constants
    at ``loc(unknown)``; here every op has a place to come from)."""
    return text.replace("loc(unknown)", 'loc("kernel.py":1:1)')


def _run(text: str, pipeline: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    rc = opt.run(["-", "--pass-pipeline", pipeline, "--print-debuginfo"], io.StringIO(text), out, err)
    assert rc == 0, err.getvalue()
    return out.getvalue()


def _unknown_ops(text: str) -> list[str]:
    """The op lines of ``text`` located at ``loc(unknown)`` (directly or through an alias)."""
    unknown = {m[1] for m in re.finditer(r"^(#loc\d*) = loc\(unknown\)$", text, re.MULTILINE)}
    return [line.strip() for line in text.splitlines()
            if (m := re.search(r"loc\((#loc\d*|unknown)\)$", line)) and not line.startswith("#")
            and (m[1] == "unknown" or m[1] in unknown)]


@pytest.mark.parametrize("cc", [80, 90])
@pytest.mark.parametrize("pipeline", sorted(PIPELINES))
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_op_keeps_a_source_location(path: Path, pipeline: str, cc: int) -> None:
    out = _run(_all_known(path.read_text()), PIPELINES[pipeline].format(cc=cc))
    assert "ttg.convert_layout" in out or "#ttg." in out  # the passes did run
    assert _unknown_ops(out) == []


def test_the_dot_and_its_staging_are_at_the_dot() -> None:
    """wgmma's shared-memory operands, the fence and the dot are at the source ``tt.dot``
    (as Triton's accelerate-matmul places them)."""
    text = (ROOT / "examples" / "triton" / "matmul.ttir").read_text()
    dot_loc = re.search(r"= tt\.dot .* loc\((#loc\d+)\)$", text, re.MULTILINE)[1]
    out = _run(_all_known(text), PIPELINES["layouts"].format(cc=90))
    staged = [line for line in out.splitlines() if re.search(r"ttg\.local_alloc|ttng\.warp_group_dot ", line)]
    assert len(staged) == 3
    want = _expanded(f"loc({dot_loc})", text)
    for line in staged:
        assert _expanded(re.search(r"(loc\(.*\))$", line)[1], out) == want, line


def _expanded(location: str, text: str) -> str:
    """``location`` (``loc(...)``) with every ``#loc`` alias of ``text`` written out."""
    aliases = dict(re.findall(r"^(#loc\d*) = loc\((.*)\)$", text, re.MULTILINE))
    while m := re.search(r"#loc\d*", location):
        location = location[: m.start()] + aliases[m[0]] + location[m.end():]
    return location


def test_a_loop_carried_again_keeps_its_attributes() -> None:
    """Rematerialization that carries a value through an ``scf.for`` once more rebuilds the
    loop: its attributes (``tt.num_stages``, ...) and location stay."""
    from xdsl.dialects import scf

    from ltc.passes.layout_ir import layout_of
    from ltc.passes.rematerialize import _carry_again
    from ltc.tools.pipeline import parse_module

    text = """
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @k(%x: tensor<128xf32, #b>, %n: i32) -> tensor<128xf32, #b> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (tensor<128xf32, #b>) : i32 {
      %s = arith.addf %a, %a : tensor<128xf32, #b>
      scf.yield %s : tensor<128xf32, #b>
    } {tt.num_stages = 3 : i32} loc("kernel.py":7:5)
    tt.return %r : tensor<128xf32, #b>
  }
}
"""
    module = parse_module(text)
    loop = next(op for op in module.walk() if isinstance(op, scf.ForOp))
    wider = layout_of(next(op for op in module.walk() if op.name == "tt.return").operands[0])
    other = dataclasses.replace(wider, size_per_thread=(2,), warps_per_cta=(2,))
    need = {loop.results[0]: other, loop.body.block.args[1]: other}
    location, attributes = loop.location, dict(loop.attributes)
    _carry_again(loop, need, lambda v: v, {})
    rebuilt = next(op for op in module.walk() if isinstance(op, scf.ForOp))
    assert rebuilt is not loop and len(rebuilt.results) == 2
    assert rebuilt.attributes == attributes and rebuilt.location == location
