"""Self-checks of the Triton oracle (tests/oracle.py) and the case generators
(tests/layout_cases.py) against hand-checked facts (bases worked out by hand from Triton 3.9's encodings).

Run: ``python -m pytest tests/test_oracle_selfcheck.py -q`` from the repository root.
Everything that needs Triton is skipped when triton is not installed.
"""

from __future__ import annotations

import time

import pytest

from tests import layout_cases as lc
from tests import oracle
from tests.oracle import requires_triton

PER_ENCODING = 100


def ll(attr: str, shape: list[int], **kw: int) -> dict[str, list[list[int]]]:
    return oracle.triton_to_linear_layout(attr, shape, **kw)["in_dims"]


# --------------------------------------------------------------------------------------
# hand-checked encodings
# --------------------------------------------------------------------------------------
@requires_triton
def test_blocked_1d() -> None:
    a = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [4], order = [0]}>"
    assert ll(a, [16], threads_per_warp=4) == {"register": [], "lane": [[1], [2]], "warp": [[4], [8]], "block": []}
    assert ll(a, [128], threads_per_warp=4)["register"] == [[16], [32], [64]]
    b = "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [4], warpsPerCTA = [4], order = [0]}>"
    assert ll(b, [8], threads_per_warp=4) == {"register": [[1], [2]], "lane": [[4], [0]], "warp": [[0], [0]],
                                              "block": []}
    d = oracle.triton_to_linear_layout(a, [16], threads_per_warp=4)
    assert d["out_dims"] == {"dim0": 16}
    assert list(d["in_dims"]) == ["register", "lane", "warp", "block"]


@requires_triton
def test_cta_duplication() -> None:
    # CTAsPerCGA = [4], CTASplitNum = [2] == CGALayout [[1], [0]]
    a = ("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [4], order = [0], "
         "CGALayout = [[1], [0]]}>")
    assert ll(a, [32], threads_per_warp=4, num_ctas=4)["block"] == [[16], [0]]


@requires_triton
def test_mma_v2() -> None:
    a = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>"
    r = ll(a, [16, 16], num_warps=1)
    assert r["register"] == [[0, 1], [8, 0], [0, 8]]
    assert r["lane"] == [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]
    assert ll(a, [32, 32], num_warps=1)["register"] == [[0, 1], [8, 0], [0, 8], [0, 16], [16, 0]]


@requires_triton
def test_mma_v3() -> None:
    a = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 16, 8]}>"
    r = ll(a, [128, 16])
    assert r["register"] == [[0, 1], [8, 0], [0, 8], [64, 0]]
    assert r["warp"] == [[16, 0], [32, 0]]


@requires_triton
def test_dot_operand_mma_v2_kwidth8() -> None:
    mma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>"
    a = ll(f"#ttg.dot_op<{{opIdx = 0, parent = {mma}, kWidth = 8}}>", [16, 64], num_warps=1)
    assert a["register"] == [[0, 1], [0, 2], [0, 4], [8, 0], [0, 32]]
    assert a["lane"] == [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]]
    b = ll(f"#ttg.dot_op<{{opIdx = 1, parent = {mma}, kWidth = 8}}>", [64, 8], num_warps=1)
    assert b["register"] == [[1, 0], [2, 0], [4, 0], [32, 0]]
    assert b["lane"] == [[8, 0], [16, 0], [0, 1], [0, 2], [0, 4]]


@requires_triton
def test_slice_of_blocked_with_cga() -> None:
    a = ("#ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [4, 2], "
         "warpsPerCTA = [2, 2], order = [1, 0], CGALayout = [[0, 1], [1, 0]]}>}>")
    r = ll(a, [128], threads_per_warp=8, num_ctas=4)
    assert r == {"register": [[1], [2], [16], [32]], "lane": [[4], [0], [0]], "warp": [[8], [0]],
                 "block": [[64], [0]]}


@requires_triton
def test_swizzled_shared() -> None:
    a = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 4, order = [1, 0]}>"
    d = oracle.triton_to_linear_layout(a, [32, 32])
    assert list(d["in_dims"]) == ["offset", "block"]
    assert d["in_dims"]["offset"] == [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 1], [2, 2], [4, 0], [8, 0],
                                      [16, 0]]


@requires_triton
def test_nvmma_shared() -> None:
    f16 = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"
    assert ll(f16, [8, 64])["offset"] == [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16],
                                          [4, 32]]
    f32 = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>"
    assert ll(f32, [8, 64])["offset"] == [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 4], [2, 8], [4, 16],
                                          [0, 32]]


@requires_triton
def test_mfma_dot_operand() -> None:
    mfma = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [32, 32, 8], isTransposed = false}>"
    r = ll(f"#ttg.dot_op<{{opIdx = 0, parent = {mfma}, kWidth = 4}}>", [128, 128], num_warps=8)
    assert r["register"] == [[0, 1], [0, 2], [0, 8], [0, 16], [0, 32], [0, 64], [64, 0]]
    assert r["lane"] == [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]]
    assert r["warp"] == [[0, 0], [0, 0], [32, 0]]


@requires_triton
def test_padded_shared_linear_component() -> None:
    a = ("#ttg.padded_shared<[32:+4] {offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 0], "
         "[2, 0], [4, 0], [8, 0], [16, 0]], block = [[32, 0]]}>")
    d = oracle.triton_to_linear_layout(a, [64, 64], num_ctas=2)
    assert d["in_dims"]["block"] == [[32, 0]]
    assert len(d["in_dims"]["offset"]) == 11


@requires_triton
def test_rejection_and_guards() -> None:
    with pytest.raises(oracle.OracleError, match="power of two"):
        oracle.triton_to_linear_layout(
            "#ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>", [128])
    with pytest.raises(ValueError):  # Triton would abort on a non-power-of-two shape
        oracle.triton_to_linear_layout(
            "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>", [48])
    with pytest.raises(ValueError):  # ... and on a rank mismatch
        oracle.triton_to_linear_layout(
            "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>", [8, 8])


@requires_triton
def test_canonical_text() -> None:
    t = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false, " \
        "tilesPerWarp = [1, 1], elementBitWidth = 32}>"
    assert oracle.canonical_attr_text(t, [64, 64]) == \
        "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false}>"


@requires_triton
def test_gluon_attr_text() -> None:
    from triton.experimental.gluon.language import BlockedLayout

    assert oracle.gluon_attr_text(BlockedLayout([1, 4], [2, 16], [4, 1], [1, 0])) == \
        "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>"


# --------------------------------------------------------------------------------------
# LinearLayout binding wrappers
# --------------------------------------------------------------------------------------
@requires_triton
def test_ll_binding_roundtrip_and_algebra() -> None:
    bases = {"register": [[0, 1], [8, 0]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "warp": [],
             "block": []}
    out = {"dim0": 16, "dim1": 8}
    x = oracle.triton_ll_from_bases(bases, out)
    assert oracle.triton_ll_to_dict(x) == {"in_dims": bases, "out_dims": out}
    assert oracle.ll_str(x) == (
        "\n - register=1 -> (0, 1)\n   register=2 -> (8, 0)\n - lane=1 -> (0, 2)\n   lane=2 -> (0, 4)\n"
        "   lane=4 -> (1, 0)\n   lane=8 -> (2, 0)\n   lane=16 -> (4, 0)\n - warp is a size 1 dimension\n"
        " - block is a size 1 dimension\nwhere out dims are: [dim0 (size 16), dim1 (size 8)]")
    assert oracle.ll_apply(x, {"register": 1, "lane": 3}) == {"dim0": 0, "dim1": 7}

    a = oracle.triton_ll_from_bases({"in": [[2], [1], [4]]}, {"out": 8})
    b = oracle.triton_ll_from_bases({"in": [[4], [1], [2]]}, {"out": 8})
    assert oracle.triton_ll_to_dict(oracle.ll_invert_and_compose(a, b))["in_dims"] == {"in": [[4], [2], [1]]}
    inv = oracle.ll_invert(a)
    assert oracle.triton_ll_to_dict(oracle.ll_compose(a, inv))["in_dims"] == {"in": [[1], [2], [4]]}
    assert oracle.triton_ll_to_dict(oracle.ll_pseudoinvert(a))["in_dims"] == {"out": [[2], [1], [4]]}

    from triton._C.libtriton.linear_layout import LinearLayout

    p = oracle.ll_product(LinearLayout.identity_1d(4, "i", "o1"), LinearLayout.identity_1d(8, "i", "o2"))
    assert oracle.triton_ll_to_dict(p) == {"in_dims": {"i": [[1, 0], [2, 0], [0, 1], [0, 2], [0, 4]]},
                                           "out_dims": {"o1": 4, "o2": 8}}
    with pytest.raises(ValueError):
        oracle.ll_invert(oracle.triton_ll_from_bases({"in": [[0], [1]]}, {"out": 4}))


# --------------------------------------------------------------------------------------
# generators
# --------------------------------------------------------------------------------------
def test_generators_are_deterministic() -> None:
    a = lc.all_cases(0, 5)
    assert a == lc.all_cases(0, 5)
    assert a != lc.all_cases(1, 5)
    assert {c.encoding for c in a} == set(lc.ENCODINGS)
    for c in a:
        assert all(s > 0 and s & (s - 1) == 0 for s in c.shape)
        assert c.attr_text.startswith("#ttg.")


@pytest.fixture(scope="module")
def seed0_results() -> tuple[list[lc.LayoutCase], list[dict], float]:
    cases = [c for enc in lc.ENCODINGS for c in lc.cases_for(enc, 0, PER_ENCODING)]
    t0 = time.perf_counter()
    res = oracle.run_isolated([{"attr_text": c.attr_text, "shape": list(c.shape), **c.oracle_kwargs()}
                               for c in cases])
    return cases, res, time.perf_counter() - t0


@requires_triton
@pytest.mark.parametrize("encoding", lc.ENCODINGS)
def test_generated_cases_are_valid(encoding: str, seed0_results) -> None:
    cases, res, _ = seed0_results
    mine = [(c, r) for c, r in zip(cases, res) if c.encoding == encoding]
    assert len(mine) >= PER_ENCODING
    for c, r in mine:
        assert r["ok"], (c, r)
        assert r["printed"] == c.attr_text, (c, r["printed"])
        layout = r["layout"]
        assert layout["out_dims"] == {f"dim{i}": s for i, s in enumerate(c.shape)}
        want = ["offset", "block"] if c.is_shared else ["register", "lane", "warp", "block"]
        assert list(layout["in_dims"]) == want
        for name, bs in layout["in_dims"].items():
            for b in bs:
                assert len(b) == len(c.shape) and all(0 <= v < s for v, s in zip(b, c.shape)), (c, name, b)
        if not c.is_shared:
            assert len(layout["in_dims"]["lane"]) == c.threads_per_warp.bit_length() - 1
            assert len(layout["in_dims"]["warp"]) == c.num_warps.bit_length() - 1
            assert len(layout["in_dims"]["block"]) == c.num_ctas.bit_length() - 1


@requires_triton
def test_oracle_throughput(seed0_results) -> None:
    cases, _, isolated_s = seed0_results
    t0 = time.perf_counter()
    for c in cases:
        oracle.triton_to_linear_layout(c.attr_text, list(c.shape), **c.oracle_kwargs())
    dt = time.perf_counter() - t0
    print(f"\n{len(cases)} cases: in-process {1e3 * dt / len(cases):.3f} ms/case ({len(cases) / dt:.0f}/s); "
          f"isolated child {1e3 * isolated_s / len(cases):.3f} ms/case")
    assert dt < 120
