"""``ltc-layout convert``: plan text, --json keys and values, errors and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ltc.tools.layout_cli import layout_main
from ltc.tools.convert_cli import JSON_KEYS

REG_A = (
    "#ttg.linear<{register = [[0, 1], [0, 2], [1, 0]], lane = [[0, 4], [0, 8], [0, 16], [2, 0], [4, 0]], "
    "warp = [], block = []}>"
)
REG_B = (
    "#ttg.linear<{register = [[1, 0], [0, 1], [0, 2]], lane = [[0, 4], [0, 8], [0, 16], [2, 0], [4, 0]], "
    "warp = [], block = []}>"
)
BLOCKED = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
BLOCKED_T = "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>"


def run(argv, capsys):
    rc = layout_main(["convert", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


class Test_convert_cli:
    def test_register_permutation_json(self, capsys):
        rc, out, err = run([REG_A, REG_B, "--shape", "8x32", "--dtype", "f16", "--json"], capsys)
        assert rc == 0 and err == ""
        obj = json.loads(out)
        assert tuple(obj) == JSON_KEYS
        assert obj == {
            "kind": "registers",
            "shared_stores": 0,
            "shared_loads": 0,
            "stmatrix": 0,
            "ldmatrix": 0,
            "shuffles": 0,
            "barriers": 0,
            "scratch_bytes": 0,
            "wavefronts": 0,
            "wavefront_lower_bound": 0,
            "verified": True,
        }

    def test_readable_plan(self, capsys):
        rc, out, _ = run([REG_A, REG_B, "--shape", "8x32", "--dtype", "f16"], capsys)
        lines = out.splitlines()
        assert rc == 0
        assert lines[0] == "convert 8x32 f16 (16-bit), 1 warp, sm_90"
        assert lines[3] == "kind: registers (register permutation)"
        assert "    mov dst[1], src[4]" in lines
        assert "  shuffles       0" in lines
        assert lines[-1] == "verified: yes (simulated 32 threads; every destination register exact)"

    def test_transpose_goes_through_shared_memory(self, capsys):
        rc, out, _ = run([BLOCKED, BLOCKED_T, "--shape", "64x64", "--dtype", "f16", "--json"], capsys)
        obj = json.loads(out)
        assert rc == 0 and obj["kind"] == "shared" and obj["verified"] is True
        assert obj["barriers"] >= 1 and obj["scratch_bytes"] > 0
        assert obj["wavefronts"] == obj["wavefront_lower_bound"]

    def test_brief_omits_instructions(self, capsys):
        rc, out, _ = run([REG_A, REG_B, "--shape", "8x32", "--dtype", "i8", "--brief"], capsys)
        assert rc == 0 and "per-thread instructions:" not in out and "mov " not in out

    def test_bad_attribute_points_at_the_column(self, capsys):
        rc, out, err = run(["#ttg.blocked<{sizePerThreads = [1, 8]}>", REG_B, "--shape", "8x32", "--dtype", "f16"], capsys)
        lines = err.splitlines()
        assert rc == 1 and out == ""
        assert lines[0].startswith("ltc-layout: error: ") and "did you mean 'sizePerThread'" in lines[0]
        assert lines[2].strip() == "^"

    def test_different_warp_counts(self, capsys):
        rc, _, err = run([BLOCKED, REG_B, "--shape", "8x32", "--dtype", "f16"], capsys)
        assert rc == 1
        assert err == "ltc-layout: error: the layouts use different numbers of warps: 4 vs 1\n"

    def test_num_warps_checked(self, capsys):
        rc, _, err = run([BLOCKED, BLOCKED_T, "--shape", "64x64", "--dtype", "f16", "--num-warps", "8"], capsys)
        assert rc == 1
        assert err == "ltc-layout: error: SRC: --num-warps 8: the layout has 4 (its 'warp' in-dim size)\n"

    @pytest.mark.parametrize(
        "argv, message",
        [
            (["--shape", "8x32", "--dtype", "f17"], "argument --dtype: invalid choice: 'f17'"),
            (["--shape", "8x32", "--dtype", "f16", "--target", "sm_70"], "argument --target: invalid choice"),
            (["--dtype", "f16"], "the following arguments are required: --shape"),
        ],
    )
    def test_usage_errors(self, capsys, argv, message):
        rc, _, err = run([REG_A, REG_B, *argv], capsys)
        assert rc == 2 and message in err

    def test_help_lists_dtypes_and_keys(self, capsys):
        rc, out, _ = run(["--help"], capsys)
        out = " ".join(out.split())
        assert rc == 0
        assert "f16, bf16, f32, i8, i16, i32, i64, fp8e5, fp8e4nv" in out
        assert '"wavefront_lower_bound"' in out

    def test_console_script(self):
        proc = subprocess.run(
            [sys.executable, "-m", "ltc.tools.layout_cli", "convert", REG_A, REG_B, "--shape", "8x32", "--dtype", "f32", "--json"],
            capture_output=True,
            text=True,
        )
        assert proc.returncode == 0 and json.loads(proc.stdout)["kind"] == "registers"
