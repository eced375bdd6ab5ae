"""The shared-memory bank model against an H100's own counters.

``tests/measured/h100_bank_probes.json`` holds 240 one-warp probes measured on an
H100 (``benchmarks/gpu_run.py run --ncu``): for each access width (32, 64, 128 bits)
and direction, 40 lane-address patterns (contiguous, broadcasts, strides, quarter-warp
broadcasts, random ones) and the wavefronts Nsight Compute counted for one
``ld``/``st.shared`` of them. The model must give exactly those counts; the fixed-phase
rule (no merging of load phases) must not — it over-counts broadcast loads.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ltc.lowering.plans.banks import load_phase_groups, plain_access_wavefronts

PROBES = json.loads((Path(__file__).parent / "measured" / "h100_bank_probes.json").read_text())["probes"]


def _model(p: dict, *, load_rule: bool = True) -> int:
    return plain_access_wavefronts(np.array(p["offsets"]), p["bits"] // 8,
                                   load=load_rule and p["op"] == "ld")[0]


@pytest.mark.parametrize("op", ["ld", "st"])
@pytest.mark.parametrize("bits", [32, 64, 128])
def test_model_matches_every_measured_probe(op: str, bits: int) -> None:
    probes = [p for p in PROBES if p["op"] == op and p["bits"] == bits]
    assert len(probes) == 40
    wrong = [(i, _model(p), p["wavefronts"]) for i, p in enumerate(probes) if _model(p) != p["wavefronts"]]
    assert wrong == []


def test_fixed_phases_overcount_wide_loads() -> None:
    """Without merging, 30 of the 80 wide-load probes are over-counted, none under."""
    wide = [p for p in PROBES if p["op"] == "ld" and p["bits"] > 32]
    diffs = [_model(p, load_rule=False) - p["wavefronts"] for p in wide]
    assert sum(d > 0 for d in diffs) == 30
    assert min(diffs) == 0


def test_merge_rule_cases() -> None:
    lanes = 8
    base = np.arange(2 * lanes)[None, :] * 16
    on = np.ones((1, 2 * lanes), bool)
    # disjoint, 16 distinct addresses > 8 lanes: split
    assert not load_phase_groups(base, on, lanes)[0]
    # quarter broadcasts: 2 distinct, disjoint: merged
    assert load_phase_groups(np.repeat([[0, 16]], lanes, axis=1), on, lanes)[0]
    # both phases read the same 8 addresses: split
    same = np.tile(np.arange(lanes) * 16, 2)[None, :]
    assert not load_phase_groups(same, on, lanes)[0]
    # one address for all: merged (broadcast)
    assert load_phase_groups(np.zeros((1, 2 * lanes), int), on, lanes)[0]
    # inactive lanes are ignored: the second phase predicated off merges
    half = on.copy()
    half[0, lanes:] = False
    assert load_phase_groups(base, half, lanes)[0]


@pytest.mark.parametrize("op", ["ld", "st"])
@pytest.mark.parametrize("bits", [64, 128])
def test_ptx_simulator_counts_the_probe_kernels_as_the_hardware(op: str, bits: int) -> None:
    """The very probe kernels that ran on the H100, run by ltc's PTX simulator."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from gpu_run import bank_probe_ptx

    from ltc.lowering.ptxsim.parse import parse_ptx
    from ltc.lowering.ptxsim.run import run_kernel

    module = parse_ptx(bank_probe_ptx(op, bits))
    probes = [p for p in PROBES if p["op"] == op and p["bits"] == bits]
    got = []
    for p in probes:
        stats = run_kernel(module, 1, [np.array(p["offsets"], np.uint32), np.zeros(32, np.uint32)])
        # the store probe reads one word back after its barrier: one load wavefront
        got.append(stats.shared_load_wavefronts if op == "ld" else stats.shared_store_wavefronts)
    assert got == [p["wavefronts"] for p in probes]
