"""The core layer imports numpy only: never xDSL, never Triton."""

import subprocess
import sys


def test_import_ltc_pulls_in_neither_xdsl_nor_triton() -> None:
    code = (
        "import sys, ltc, ltc.tools.layout_cli, ltc.tools.layout_view, ltc.tools.diagnostics; "
        "ltc.to_linear_layout('#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
        "warpsPerCTA = [4], order = [0]}>', [128]); "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('xdsl', 'triton')); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
