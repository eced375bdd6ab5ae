"""``benchmarks/progress.py``: a long benchmark shows progress on stderr (issue 19, item 12)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))  # xdsl installs a top-level 'benchmarks' package

from progress import Progress, track  # noqa: E402


class _Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_log_gets_a_line_every_period() -> None:
    clock, out = _Clock(), io.StringIO()
    with Progress("sweep", 100, stream=out, every=10.0, clock=clock) as p:
        for _ in range(100):
            clock.t += 0.5  # 50 s in all: a line at 10, 20, 30, 40 and 50 s
            p.advance()
    assert out.getvalue().splitlines() == [
        "sweep: 20/100 (20%) 10s elapsed, about 40s left",
        "sweep: 40/100 (40%) 20s elapsed, about 30s left",
        "sweep: 60/100 (60%) 30s elapsed, about 20s left",
        "sweep: 80/100 (80%) 40s elapsed, about 10s left",
        "sweep: 100/100 (100%) 50s elapsed",
    ]


def test_a_short_run_prints_nothing_to_a_log() -> None:
    out = io.StringIO()
    assert list(track(range(5), "quick", stream=out)) == [0, 1, 2, 3, 4]
    assert out.getvalue() == ""


def test_a_terminal_line_is_rewritten_in_place_and_cleared() -> None:
    clock, out = _Clock(), _Tty()
    with Progress("sweep", 4, stream=out, refresh=0.2, clock=clock) as p:
        for _ in range(4):
            clock.t += 1.0
            p.advance()
    text = out.getvalue()
    assert "\n" not in text
    assert text.split("\r")[1:] == [
        "sweep: 1/4 (25%) 1s elapsed, about 3s left",
        "sweep: 2/4 (50%) 2s elapsed, about 2s left",
        "sweep: 3/4 (75%) 3s elapsed, about 1s left",
        "sweep: 4/4 (100%) 4s elapsed".ljust(len("sweep: 3/4 (75%) 3s elapsed, about 1s left")),
        " " * len("sweep: 4/4 (100%) 4s elapsed"),
        "",
    ]


def test_the_plan_sweep_reports_on_stderr() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    code = (
        "import sys, progress; progress.Progress.__init__.__kwdefaults__['every'] = 0.0\n"
        "import bench_plan_sweep; sys.exit(bench_plan_sweep.main(['--pairs', '3']))"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT / "benchmarks", env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines()[-1].startswith("plan sweep: 3/3 (100%) ")
    assert proc.stdout.startswith("3 random pairs, seed 0: ")
