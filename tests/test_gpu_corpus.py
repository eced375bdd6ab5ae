"""The numpy-only pieces of the GPU corpus run (``benchmarks/gpu_corpus.py``): the
arguments every implementation gets, the comparison that decides ``same`` / ``DIFF``, and
where Triton's scratch buffers go in a launch."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from gpu_corpus import ELEMENTS, FLOAT, INTEGER, compare_outputs, host_arguments  # noqa: E402
from gpu_run import _Launcher  # noqa: E402

SPECS = [{"pointee": "f32"}, {"pointee": "i1"}, {"pointee": "bf16"}, {"pointee": "f8E4M3FN"},
         {"pointee": "i64"}, {"scalar": "i32"}, {"scalar": "f32"}, {"pointee": "f16"}]


def test_host_arguments_are_seeded_and_typed() -> None:
    a, b = host_arguments(SPECS, seed=1), host_arguments(SPECS, seed=1)
    assert [x.dtype.name if isinstance(x, np.ndarray) else x for x in a] == [
        "float32", "int8", "uint16", "uint8", "int64", INTEGER, FLOAT, "float16"]
    for x, y in zip(a, b):
        if isinstance(x, np.ndarray):
            assert x.shape == (ELEMENTS,) and np.array_equal(x, y)
    assert not np.array_equal(a[0], host_arguments(SPECS, seed=2)[0])
    assert a[4].min() >= -1000 and a[4].max() < 1000


def test_compare_outputs_counts_the_first_differing_array() -> None:
    a = host_arguments(SPECS, seed=3)
    b = [x.copy() if isinstance(x, np.ndarray) else x for x in a]
    assert compare_outputs(a, b) == "same"
    b[0][:5] += np.float32(1e-7) * b[0][:5]  # rounding: within 1e-5 relative
    assert compare_outputs(a, b) == "same"
    b[2][[7, 9, 11]] ^= 1  # raw bits compare exactly
    b[4][0] += 1
    assert compare_outputs(a, b) == "DIFF: argument 2 differs at 3 of 65536"
    c = [x.copy() if isinstance(x, np.ndarray) else x for x in a]
    c[0][100:110] = np.nan
    a[0][100:105] = np.nan
    assert compare_outputs(a, c) == "DIFF: argument 0 differs at 5 of 65536"


def test_triton_scratch_buffers_take_the_trailing_pointer_slots() -> None:
    launcher = object.__new__(_Launcher)
    launcher.params = ["u64", "u32", "u64", "u64"]
    given = ["ptr", np.int32(16)]
    assert launcher.args(given) == ("ptr", np.int32(16), np.uint64(0), np.uint64(0))
    args = launcher.args(given, [None, "profile"])
    assert args[2] == np.uint64(0) and args[3] == "profile"
    assert launcher.args(given, ["global"])[2:] == ("global", np.uint64(0))
