"""Every input of our FileCheck tests is IR that Triton 3.9 accepts: a test of a pass or
a fold on IR Triton would reject proves nothing about Triton's IR.

Skipped: chunks that expect a diagnostic, files run with ``-allow-unregistered-dialect``,
and chunks written with ``func.func`` (a dialect Triton does not load)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests import oracle

FILECHECK = Path(__file__).parent / "filecheck"


def _chunks() -> list:
    params = []
    for path in sorted(FILECHECK.rglob("*.mlir")):
        whole = path.read_text()
        if "allow-unregistered-dialect" in whole:
            continue
        for i, text in enumerate(re.split(r"^// -----.*$", whole, flags=re.M)):
            if "expected-" in text or "func.func" in text or not re.search(r"^\s*(module|tt\.func)", text, re.M):
                continue
            params.append(pytest.param(text, id=f"{path.relative_to(FILECHECK)}#{i}"))
    return params


@oracle.requires_triton
@pytest.mark.parametrize("text", _chunks())
def test_triton_accepts_the_input(text: str) -> None:
    try:
        oracle.triton_reprint(text)
    except oracle.OracleError as e:
        pytest.fail(f"Triton 3.9 rejects this FileCheck input:\n{e.diagnostics}")
