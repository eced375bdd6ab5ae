"""Every real Triton 3.9 file in examples/ round-trips through ltc-opt and Triton.

For each ``.ttir`` / ``.ttgir``:
* ltc's output, fed back to Triton's parser, re-prints exactly as the original does
  (Triton's ``str_nodebug``: no locations, values renamed), with and without
  ``--print-debuginfo``;
* ltc's alias header equals Triton's (same names, numbering and order);
* ltc's op lines equal Triton's, modulo value names and locations (``normalize``);
* printing is a fixpoint: ltc(ltc(x)) == ltc(x).
"""

from __future__ import annotations

import io
import pathlib

import pytest

from ltc.tools.opt import run
from tests import oracle
from tests.ir_text import normalize

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"
FILES = sorted([*EXAMPLES.rglob("*.ttir"), *EXAMPLES.rglob("*.ttgir")])


def ltc_opt(*argv: str, stdin: str = "") -> str:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), io.StringIO(stdin), out, err)
    assert status == 0, err.getvalue()
    return out.getvalue()


def alias_header(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("#") and not line.startswith("#loc")]


def test_examples_exist() -> None:
    names = {p.stem for p in FILES}
    assert {"vector_add", "softmax", "layer_norm", "matmul", "attention_fwd"} <= names
    assert len(FILES) >= 10


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_ltc_prints_triton_text(path: pathlib.Path) -> None:
    original = path.read_text()
    printed = ltc_opt(str(path))
    assert alias_header(printed) == alias_header(original)
    assert normalize(printed) == normalize(original)
    assert ltc_opt("-", stdin=printed) == printed


@oracle.requires_triton
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_triton_reparses_ltc_output(path: pathlib.Path) -> None:
    original = path.read_text()
    expected = oracle.triton_reprint(original)
    assert oracle.triton_reprint(ltc_opt(str(path))) == expected
    with_locations = ltc_opt(str(path), "--print-debuginfo")
    assert "loc(" in with_locations
    assert oracle.triton_reprint(with_locations) == expected


@oracle.requires_triton
def test_split_input_file_round_trips_each_chunk(tmp_path: pathlib.Path) -> None:
    texts = [FILES[0].read_text(), FILES[-1].read_text()]
    joined = tmp_path / "two.ttgir"
    joined.write_text("\n// -----\n".join(texts))
    printed = ltc_opt(str(joined), "--split-input-file").split("// -----\n")
    assert len(printed) == 2
    for chunk, original in zip(printed, texts):
        assert oracle.triton_reprint(chunk) == oracle.triton_reprint(original)
