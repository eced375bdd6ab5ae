"""``ltc-opt --debug-layouts`` names values as the printed IR does (issue 19, item 9).

The log used to name values by their source names (matmul: four lines about ``%acc``,
eight about ``%<ttg.convert_layout#0>``), listed only the values the engine chose among
candidates, and printed ``(duplicated cost 0 < conversion 0)``. Now every line's value is
the printed ``%name`` of the output (or ``<removed OP>`` for a value the pass deleted),
every tensor value with a layout is listed exactly once, and a removal between equal
layouts says so.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from xdsl.dialects.builtin import TensorType

from ltc.tools.pipeline import parse_module

ROOT = Path(__file__).resolve().parents[1]
PIPELINE = "convert-triton-to-tritongpu{num-warps=4 target=cuda:90},ltc-assign-layouts"


def _ltc_opt(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("ltc-opt")
    cmd = [exe] if exe else [sys.executable, "-m", "ltc.tools.opt"]
    return subprocess.run([*cmd, *args], capture_output=True, text=True, cwd=ROOT)


def _laid_out_values(text: str) -> int:
    """Tensor values with a layout in the module ``text`` (results and block arguments)."""
    n = 0
    for op in parse_module(text).walk():
        values = [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
        n += sum(isinstance(v.type, TensorType) and hasattr(v.type.encoding, "encoding") for v in values)
    return n


def test_matmul_log_names_every_value_once_as_printed() -> None:
    proc = _ltc_opt("examples/triton/matmul.ttir", "-p", PIPELINE, "--debug-layouts")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert lines[0] == "// layouts of @matmul"
    subjects = [re.match(r"(%[\w#]+): ", ln).group(1) for ln in lines if ln.startswith("%")]  # type: ignore[union-attr]
    assert [s for s, k in Counter(subjects).items() if k > 1] == []
    assert len(subjects) == _laid_out_values(proc.stdout) == 74
    defined = set(re.findall(r"(%[\w]+)(?::\d+)? = ", proc.stdout))
    assert all(s.split("#")[0] in defined for s in subjects), [s for s in subjects if s.split("#")[0] not in defined]
    assert "%<" not in proc.stderr  # no source-name fallbacks
    assert "cost 0 < conversion 0" not in proc.stderr
    assert "chosen by the objective (from " in proc.stderr
    # the loop's results and the dot's accumulator are told apart
    # (the printer's suffixes follow the IR: match the name, not its number)
    assert any(re.match(r"%acc(_\d+)?#2: #ttg.nvidia_mma<", ln) for ln in lines)
    assert any(
        re.match(r"%acc(_\d+)?: #ttg.nvidia_mma<", ln) and ln.endswith("<- anchor (ttng.warp_group_dot)") for ln in lines
    )


def test_a_value_the_pass_removed_is_marked() -> None:
    proc = _ltc_opt("examples/triton/matmul.ttir", "-p", PIPELINE, "--debug-layouts")
    removed = [ln for ln in proc.stderr.splitlines() if ln.startswith("conversion of ")]
    assert removed and all(" removed: " in ln for ln in removed)
    assert any(ln.startswith("<removed ttg.convert_layout>: ") for ln in proc.stderr.splitlines())
