"""``ltc-opt small.ttgir`` imports only what reading, verifying and printing need.

Start-up time is mostly imports. Parsing a ``#ttg.blocked`` layout needs no numpy (only
computing a linear layout's tables does), an scf-free module needs no ``scf`` dialect,
printing integers needs no ``fractions``, and nothing needs the ``llvm`` dialect.
Checked in a fresh interpreter, after a real run of the driver on an example kernel.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_PROBE = """
import io, sys
from ltc.tools.opt import run
out = io.StringIO()
assert run([sys.argv[1]], io.StringIO(), out, io.StringIO()) == 0
assert "tt.store" in out.getvalue()
print(" ".join(sorted(m for m in ("numpy", "xdsl.dialects.scf", "xdsl.dialects.llvm", "fractions") if m in sys.modules)))
"""


def _loaded_after_run(path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(path)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_small_ttgir_loads_no_numpy_scf_or_fractions() -> None:
    assert _loaded_after_run(ROOT / "examples" / "triton" / "vector_add.ttgir") == ""


def test_the_probe_sees_modules() -> None:
    # The same probe on a kernel with scf.for does report the scf dialect.
    assert "xdsl.dialects.scf" in _loaded_after_run(ROOT / "examples" / "triton" / "matmul.ttgir").split()
