"""ltc's layout pipeline against Triton 3.9's on the example kernels (differential acceptance).

For every ``examples/triton/*.ttir``, num_warps in {1, 2, 4, 8} and cuda:80 / cuda:90, ltc runs
``convert-triton-to-tritongpu{num-warps=N target=cuda:CC},ltc-assign-layouts`` and its output
must (a) be accepted by Triton's parser and verifier, (b) be TTGIR (every tensor laid out,
the module attributes set), (c) leave no more ``ttg.convert_layout`` ops than Triton's own
``make_ttgir`` and (d) use the same tensor-core MMA versions as Triton.

The ltc tests skip while a pass of that pipeline is missing from ``ltc.passes`` (its module
not written yet); the Triton-side tests check the oracle itself: ``make_ttgir`` in-process
reproduces ``examples/triton/*.ttgir`` and gives the known conversion counts.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from tests import triton_pipeline as tp

pytest.importorskip("triton")

KERNELS = tuple(tp.example_kernels())
WARPS = (1, 2, 4, 8)
CAPABILITIES = (80, 90)

TRITON_CONVERTS = {
    "vector_add": {80: 0, 90: 0},
    "softmax": {80: 0, 90: 0},
    "layer_norm": {80: 0, 90: 0},
    "matmul": {80: 1, 90: 1},
    "attention_fwd": {80: 2, 90: 2},
    "tma_matmul": {80: 1, 90: 0},
    "scan_gather_misc": {80: 1, 90: 1},
    "transpose": {80: 1, 90: 1},
}
"""``ttg.convert_layout`` ops left by Triton 3.9's ``make_ttgir``, the same for every num_warps."""

CASES = [
    pytest.param(name, w, cc, id=f"{name}-w{w}-sm{cc}")
    for name in KERNELS
    for cc in CAPABILITIES
    for w in WARPS
]


def _triton_ttgir(name: str, num_warps: int, capability: int) -> str:
    stages = tp.example_kernels()[name].num_stages
    return tp.triton_make_ttgir(tp.example_ttir(name), num_warps, capability, num_stages=stages)


# --------------------------------------------------------------------------------------
# the Triton side (the oracle itself)
# --------------------------------------------------------------------------------------
def test_example_list_matches_gen_ir() -> None:
    assert set(KERNELS) == {p.stem for p in tp.EXAMPLES.glob("*.ttir")}
    assert set(KERNELS) == set(TRITON_CONVERTS)
    assert tp.example_kernels()["layer_norm"] == tp.KernelOptions(num_warps=8, num_stages=3)
    assert tp.example_kernels()["attention_fwd"] == tp.KernelOptions(num_warps=4, num_stages=2)


@pytest.mark.parametrize("name", KERNELS)
def test_make_ttgir_reproduces_example(name: str) -> None:
    """In-process ``make_ttgir`` on the TTIR == what ``triton.compile`` wrote (up to SSA names)."""
    options = tp.example_kernels()[name]
    ours = tp.triton_make_ttgir(
        tp.example_ttir(name), options.num_warps, 90, num_stages=options.num_stages, use_cache=False
    )
    reference = (tp.EXAMPLES / f"{name}.ttgir").read_text()
    assert tp.count_converts(ours) == tp.count_converts(reference)
    assert tp.normalized_ops(ours) == tp.normalized_ops(reference)


@pytest.mark.parametrize("capability", CAPABILITIES, ids=lambda cc: f"sm{cc}")
@pytest.mark.parametrize("name", KERNELS)
def test_triton_convert_counts(name: str, capability: int) -> None:
    counts = {w: tp.count_converts(_triton_ttgir(name, w, capability)) for w in WARPS}
    assert counts == {w: TRITON_CONVERTS[name][capability] for w in WARPS}


@pytest.mark.parametrize("name", KERNELS)
def test_triton_output_is_fully_laid_out(name: str) -> None:
    """The TTGIR checks applied to ltc hold for Triton's own output (and fail on TTIR)."""
    text = _triton_ttgir(name, 4, 90)
    assert tp.tensors_without_layout(text) == []
    assert _module_config(text) == (4, "cuda:90")
    assert tp.tensors_without_layout(tp.example_ttir(name)) != []


def test_count_converts() -> None:
    text = """
    %0 = ttg.convert_layout %a : tensor<4xf32, #b0> -> tensor<4xf32, #b1>
    %1 = "ttg.convert_layout"(%0) : (tensor<4xf32, #b1>) -> tensor<4xf32, #b0>
    %2 = ttg.convert_layout_like %a  // not the op
    %3 = myttg.convert_layout %a
    """
    assert tp.count_converts(text) == 2
    assert tp.count_converts("tt.return") == 0


def test_tensors_without_layout() -> None:
    text = (
        "tensor<64x!tt.ptr<f32>, #blocked> tensor<64x!tt.ptr<f32>> -> tensor<4xf32>, "
        "tensor<4x8xf16, #ttg.blocked<{sizePerThread = [1, 1], order = [1, 0]}>> !tt.tensordesc<tensor<8xf16>>"
    )
    assert tp.tensors_without_layout(text) == ["tensor<4xf32>", "tensor<64x!tt.ptr<f32>>", "tensor<8xf16>"]


_MODULE = (
    'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {\n'
    "  tt.func @f(%a: TYPE) {\n    tt.return\n  }\n}\n"
)


def test_triton_verify_accepts_and_rejects() -> None:
    assert tp.triton_verify((tp.EXAMPLES / "attention_fwd.ttgir").read_text(), use_cache=False) is None
    bad = _MODULE.replace(
        "TYPE", "tensor<128xf32, #ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>"
    )
    error = tp.triton_verify(bad, use_cache=False)
    assert error is not None and "power of two" in error and 'loc("input.mlir":2:' in error
    assert tp.triton_verify(bad, isolate=False, use_cache=False) == error


def test_triton_verify_survives_a_triton_abort() -> None:
    # Triton asserts (SIGABRT) on a non-surjective linear layout while parsing it.
    text = _MODULE.replace("TYPE", "tensor<4xf32, #ttg.linear<{register = [[2]], lane = [], warp = [], block = []}>>")
    error = tp.triton_verify(text, use_cache=False)
    assert error is not None
    assert error.startswith("Triton crashed (killed by SIGABRT)") and "surjective" in error


def test_triton_layout_passes() -> None:
    text, seconds = tp.triton_layout_passes(tp.example_ttir("matmul"), 4, 90, repeat=2)
    assert 0 < seconds < 10
    assert tp.tensors_without_layout(text) == []
    assert "versionMajor = 3" in text  # accelerate-matmul ran: a wgmma accumulator
    assert "ttg.local_load" not in text  # ... but not make_ttgir's later passes
    assert tp.triton_verify(text) is None


def test_cache_returns_the_computed_text() -> None:
    ttir = tp.example_ttir("softmax")
    fresh = tp.triton_make_ttgir(ttir, 2, 80, use_cache=False)
    assert tp.triton_make_ttgir(ttir, 2, 80) == fresh
    assert tp.triton_make_ttgir(ttir, 2, 80) == fresh  # second call: read from disk
    assert '"ttg.num-warps" = 2' in fresh and "cuda:80" in fresh
    assert tp.cache_key("make_ttgir", ttir=ttir, num_warps=2) != tp.cache_key("make_ttgir", ttir=ttir, num_warps=4)


# --------------------------------------------------------------------------------------
# ltc against Triton
# --------------------------------------------------------------------------------------
LTC_PASSES = ("convert-triton-to-tritongpu", "ltc-assign-layouts")


def _skip_if_unwritten(e: ModuleNotFoundError) -> None:
    """Skip the test when ``e`` says a module of ``ltc.passes`` does not exist yet."""
    if e.name and e.name.startswith("ltc.passes."):
        pytest.skip(f"ltc's layout pipeline is not complete yet (no module {e.name})")


def _require_ltc_pipeline() -> None:
    """Skip while a pass of the pipeline has no module yet; any other import error fails."""
    from ltc.passes.registry import pass_factories

    factories = pass_factories()
    for name in LTC_PASSES:
        try:
            factories[name]()
        except ModuleNotFoundError as e:
            _skip_if_unwritten(e)
            raise


def ltc_spec(num_warps: int, capability: int) -> str:
    return f"convert-triton-to-tritongpu{{num-warps={num_warps} target=cuda:{capability}}},ltc-assign-layouts"


def _ltc_ttgir(name: str, num_warps: int, capability: int) -> str:
    """ltc's output for the case (computed once per session); skips while a pass module is missing."""
    _require_ltc_pipeline()
    try:
        return _ltc_compile(name, num_warps, capability)
    except ModuleNotFoundError as e:  # a pass imports a sibling that is not written yet
        _skip_if_unwritten(e)
        raise


@lru_cache(maxsize=None)
def _ltc_compile(name: str, num_warps: int, capability: int) -> str:
    import ltc.tools.pipeline as P

    return P.compile(tp.example_ttir(name), ltc_spec(num_warps, capability), name=f"{name}.ttir")


def _module_config(text: str) -> tuple[int | None, str | None]:
    warps = re.search(r'"ttg\.num-warps" = (\d+) : i32', text)
    target = re.search(r'ttg\.target = "([^"]*)"', text)
    return (int(warps.group(1)) if warps else None, target.group(1) if target else None)


def _mma_versions(text: str) -> list[tuple[str, str]]:
    return sorted(set(re.findall(r"nvidia_mma<\{versionMajor = (\d+), versionMinor = (\d+)", text)))


@pytest.mark.parametrize("name, num_warps, capability", CASES)
def test_ltc_output_is_ttgir_triton_accepts(name: str, num_warps: int, capability: int) -> None:
    out = _ltc_ttgir(name, num_warps, capability)
    error = tp.triton_verify(out)
    assert error is None, f"Triton rejects ltc's output:\n{error}\n--- ltc output ---\n{out}"
    assert tp.tensors_without_layout(out) == []
    assert _module_config(out) == (num_warps, f"cuda:{capability}")


@pytest.mark.parametrize("name, num_warps, capability", CASES)
def test_ltc_converts_at_most_triton(name: str, num_warps: int, capability: int) -> None:
    out = _ltc_ttgir(name, num_warps, capability)
    ours, theirs = tp.count_converts(out), tp.count_converts(_triton_ttgir(name, num_warps, capability))
    assert ours <= theirs, f"ltc leaves {ours} ttg.convert_layout, Triton {theirs}\n--- ltc output ---\n{out}"


@pytest.mark.parametrize("name, num_warps, capability", CASES)
def test_ltc_mma_versions_match_triton(name: str, num_warps: int, capability: int) -> None:
    """Fewer conversions must not come from skipping tensor cores: same MMA versions as Triton."""
    out = _ltc_ttgir(name, num_warps, capability)
    assert _mma_versions(out) == _mma_versions(_triton_ttgir(name, num_warps, capability))
