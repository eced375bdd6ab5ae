"""``canonicalize`` (``ltc.passes.canonicalize``): side effects are never dropped, and
Triton's own canonicalization tests pass chunk by chunk.

Effects: a volatile ``tt.load`` counts as a write (kept by ``canonicalize``, ``cse`` and
``dce``, never merged), and so are stores, atomics, ``tt.print`` and ``tt.assert``; an
unused plain load goes, as in Triton. Every pattern of ``TRITON_PATTERNS`` has a case in
``tests/filecheck/transforms/canonicalize_triton.mlir``; its output is re-read by Triton.
Triton's ``test/Triton/canonicalize.mlir`` and ``test/TritonGPU/canonicalize.mlir``
(skipped without the suite) run through ``ltc-opt -canonicalize | filecheck``: every
chunk passes but those that need what ltc does not have (``KNOWN_GAPS``, empty now).
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ltc.tools import opt
from tests import oracle

HERE = Path(__file__).parent
SUITE = Path(os.environ.get("LTC_TRITON_SUITE", Path(__file__).resolve().parents[2] / "shared" / "triton-suite")) / "test"

EFFECTS = """module {
  tt.func public @k(%p: !tt.ptr<f32>, %x: f32, %c: i1) {
    %v = tt.load %p {isVolatile = true} : !tt.ptr<f32>
    %w = tt.load %p {isVolatile = true} : !tt.ptr<f32>
    %dead = tt.load %p : !tt.ptr<f32>
    %a = tt.atomic_rmw fadd, relaxed, gpu, %p, %x : (!tt.ptr<f32>, f32) -> f32
    %b = tt.atomic_cas relaxed, gpu, %p, %x, %x : (!tt.ptr<f32>, f32, f32) -> f32
    tt.store %p, %x : !tt.ptr<f32>
    tt.print " x" {hex = false, isSigned = array<i32: 0>} : %x : f32
    tt.assert %c, "boom" : i1
    tt.return
  }
}
"""


def _opt(argv: list[str], text: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    rc = opt.run([*argv, "-"], io.StringIO(text), out, err)
    assert rc == 0, err.getvalue()
    return out.getvalue()


@pytest.mark.parametrize("pass_flag", ["-canonicalize", "-cse", "--dce"])
def test_side_effects_are_kept(pass_flag: str) -> None:
    text = _opt([pass_flag], EFFECTS)
    assert text.count("tt.load %p {isVolatile = true}") == 2
    assert "%dead" not in text
    for op in ("tt.atomic_rmw", "tt.atomic_cas", "tt.store", "tt.print", "tt.assert"):
        assert text.count(op) == 1, op


def test_volatile_load_effects() -> None:
    from xdsl.traits import MemoryEffectKind, get_effects

    from ltc.tools.pipeline import parse_module

    module = parse_module(EFFECTS)
    loads = [op for op in module.walk() if op.name == "tt.load"]
    kinds = [sorted(e.kind.name for e in get_effects(op) or ()) for op in loads]
    assert kinds == [["READ", "WRITE"], ["READ", "WRITE"], ["READ"]]
    assert MemoryEffectKind.WRITE.name == "WRITE"


def test_every_pattern_has_a_filecheck_case() -> None:
    from ltc.passes.canonicalize import TRITON_PATTERNS

    text = (HERE / "filecheck" / "transforms" / "canonicalize_triton.mlir").read_text()
    for name in TRITON_PATTERNS:
        assert f"{name} " in text or f"= {name}" in text, name


@pytest.mark.skipif(not oracle.HAVE_TRITON, reason="Triton is not installed")
def test_canonicalized_output_is_valid_triton() -> None:
    source = (HERE / "filecheck" / "transforms" / "canonicalize_triton.mlir").read_text()
    out = _opt(["--split-input-file", "-canonicalize"], source)
    chunks = out.split("// -----\n")
    assert len(chunks) == 14
    for chunk in chunks:
        oracle.triton_reprint(chunk)


KNOWN_GAPS: set[tuple[str, str]] = set()  # (directory, CHECK-LABEL) of chunks ltc cannot pass yet
TRITON_39_REJECTS: dict[tuple[str, int], str] = {
    # The suite is older than Triton 3.9, which rejects these inputs (tests/oracle.py
    # confirms): ltc must reject them with Triton's message.
    ("TritonGPU", 0): "'tt.reshape' op Expected result encoding",
    ("TritonGPU", 3): "'tt.reshape' op Expected result encoding",
}


def _suite_chunks() -> list[tuple[str, int, str, str]]:
    out = []
    for sub in ("Triton", "TritonGPU"):
        path = SUITE / sub / "canonicalize.mlir"
        if not path.is_file():
            continue
        for i, chunk in enumerate(re.split(r"^// -----\s*$", path.read_text(), flags=re.M)):
            labels = re.findall(r"CHECK-LABEL:\s*(\S+)", chunk)
            out.append((sub, i, labels[0] if labels else "", chunk))
    return out


_CHUNKS = _suite_chunks()


@pytest.mark.skipif(not _CHUNKS or shutil.which("filecheck") is None, reason="no Triton suite or no filecheck")
@pytest.mark.parametrize(("sub", "index", "label", "chunk"), _CHUNKS, ids=[f"{c[0]}-{c[1]}" for c in _CHUNKS])
def test_triton_canonicalize_suite(sub: str, index: int, label: str, chunk: str, tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    rc = opt.run(["-canonicalize", "-allow-unregistered-dialect", "-"], io.StringIO(chunk), out, err)
    if (sub, index) in TRITON_39_REJECTS:
        assert rc == 1 and TRITON_39_REJECTS[sub, index] in err.getvalue(), err.getvalue()
        return
    check = tmp_path / "chunk.mlir"
    check.write_text(chunk)
    result = subprocess.run(["filecheck", str(check)], input=out.getvalue(), capture_output=True, text=True)
    passed = rc == 0 and result.returncode == 0
    if (sub, label) in KNOWN_GAPS:
        assert not passed, f"{sub} chunk {index} ({label}) passes now: drop it from KNOWN_GAPS"
    else:
        assert passed, err.getvalue() + result.stderr
