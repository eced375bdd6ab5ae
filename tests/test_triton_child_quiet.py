"""A Triton abort in the oracle's forked child stays out of the parent's stderr (issue 19,
item 7): pytest enables ``faulthandler`` on a *duplicate* of fd 2, which the child inherits,
so redirecting fd 2 alone let ``Fatal Python error: Aborted`` and a stack through. A green
test run must look green.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("triton")

ROOT = Path(__file__).resolve().parents[1]

_PROBE = textwrap.dedent(
    """
    import faulthandler, os, sys
    faulthandler.enable(file=open(os.dup(2), "w"))  # as pytest does: a copy of stderr
    from tests import triton_pipeline as tp
    text = (
        'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, '
        '"ttg.threads-per-warp" = 32 : i32} {\\n'
        '  tt.func @f(%a: tensor<4xf32, #ttg.linear<{register = [[2]], lane = [], warp = [], block = []}>>) {\\n'
        '    tt.return\\n  }\\n}\\n'
    )
    error = tp.triton_verify(text, use_cache=False)
    print(error.splitlines()[0])
    """
)


def test_an_abort_in_the_child_prints_nothing_on_the_parents_stderr() -> None:
    proc = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Triton crashed (killed by SIGABRT)")
    assert proc.stderr == ""
