"""NVIDIA-side distributed encodings: ``#ttg.nvidia_mma`` (v2, v3),
``#ttg.dot_op``, ``#ttg.slice`` and ``#ttg.linear``.

Hand-checked bases (from Triton's own unit tests, LinearLayoutConversionsTest),
parameter errors Triton reports, and seeded differential tests against
Triton 3.9.0 (layout bases and printed text) over random valid cases.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from ltc.attr_text import AttrTextError
from ltc.encodings import parse_encoding, to_linear_layout
from ltc.encodings.base import EncodingError, ShapeError, encoding_class
from ltc.encodings.blocked import BlockedEncoding
from ltc.encodings.dot_operand import DotOperandEncoding, matrix_order
from ltc.encodings.linear import LinearEncoding
from ltc.encodings.nvidia_mma import NvidiaMmaEncoding
from ltc.encodings.slice import SliceEncoding
from tests import oracle

# --------------------------------------------------------------------------- helpers


def mma_text(major: int, warps: list[int], instr: list[int], cga: list[list[int]] | None = None) -> str:
    cga_text = f", CGALayout = {cga}" if cga else ""
    return (
        f"#ttg.nvidia_mma<{{versionMajor = {major}, versionMinor = 0, warpsPerCTA = {warps}{cga_text}, "
        f"instrShape = {instr}}}>"
    )


def blocked_text(spt, tpw, wpc, order, cga=None) -> str:
    cga_text = f", CGALayout = {cga}" if cga else ""
    return (
        f"#ttg.blocked<{{sizePerThread = {list(spt)}, threadsPerWarp = {list(tpw)}, warpsPerCTA = {list(wpc)}, "
        f"order = {list(order)}{cga_text}}}>"
    )


def dot_text(op_idx: int, parent: str, k_width: int = 0) -> str:
    k = f", kWidth = {k_width}" if k_width else ""
    return f"#ttg.dot_op<{{opIdx = {op_idx}, parent = {parent}{k}}}>"


def slice_text(dim: int, parent: str) -> str:
    return f"#ttg.slice<{{dim = {dim}, parent = {parent}}}>"


def linear_text(register, lane, warp, block) -> str:
    return f"#ttg.linear<{{register = {register}, lane = {lane}, warp = {warp}, block = {block}}}>"


def bases_of(text: str, shape: list[int]) -> dict[str, list[list[int]]]:
    ll = to_linear_layout(text, shape)
    assert list(ll.out_dims.values()) == list(shape)
    return {d: [list(b) for b in bs] for d, bs in ll.bases.items()}


# --------------------------------------------------------------------------- hand-checked


def test_mma_v2_one_warp():
    mma = mma_text(2, [1, 1], [16, 8])
    lanes = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]
    assert bases_of(mma, [16, 16]) == {"register": [[0, 1], [8, 0], [0, 8]], "lane": lanes, "warp": [], "block": []}
    assert bases_of(mma, [32, 32]) == {
        "register": [[0, 1], [8, 0], [0, 8], [0, 16], [16, 0]],
        "lane": lanes,
        "warp": [],
        "block": [],
    }


def test_mma_v3_warps_column_major():
    got = bases_of(mma_text(3, [4, 1], [16, 16, 8]), [128, 16])
    assert got["register"] == [[0, 1], [8, 0], [0, 8], [64, 0]]
    assert got["warp"] == [[16, 0], [32, 0]]


def test_mma_v2_warps_row_major_and_broadcast():
    got = bases_of(mma_text(2, [2, 2], [16, 8]), [32, 32])
    assert got["warp"] == [[0, 8], [16, 0]]
    # Smaller than one warp's tile: lanes broadcast, register bases zeroed (kept).
    got = bases_of(mma_text(2, [2, 2], [16, 8]), [4, 4])
    assert got["register"] == [[0, 1], [0, 0]]
    assert got["lane"] == [[0, 2], [0, 0], [1, 0], [2, 0], [0, 0]]


def test_dot_operands_v2_kwidth8():
    mma = mma_text(2, [1, 1], [16, 8])
    a = bases_of(dot_text(0, mma, 8), [16, 64])
    assert a["register"] == [[0, 1], [0, 2], [0, 4], [8, 0], [0, 32]]
    assert a["lane"] == [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]]
    b = bases_of(dot_text(1, mma, 8), [64, 8])
    assert b["register"] == [[1, 0], [2, 0], [4, 0], [32, 0]]
    assert b["lane"] == [[8, 0], [16, 0], [0, 1], [0, 2], [0, 4]]


def test_dot_operand_warps_and_ctas_broadcast_along_k():
    mma = mma_text(2, [2, 2], [16, 8], [[1, 0], [0, 1]])
    a = bases_of(dot_text(0, mma, 2), [64, 64])
    assert a["warp"] == [[0, 0], [16, 0]]  # the warp bit along N (dim1 = K of A) is zero
    assert a["block"] == [[32, 0], [0, 0]]
    b = bases_of(dot_text(1, mma, 2), [64, 64])
    assert b["warp"] == [[0, 8], [0, 0]]
    assert b["block"] == [[0, 0], [0, 32]]


def test_fma_dot_operand_registers_cover_k():
    parent = blocked_text([1, 2], [4, 8], [2, 2], [1, 0])
    a = bases_of(dot_text(0, parent), [64, 32])
    assert a == {
        "register": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [8, 0], [16, 0], [32, 0]],
        "lane": [[0, 0], [0, 0], [0, 0], [1, 0], [2, 0]],
        "warp": [[0, 0], [4, 0]],
        "block": [],
    }


def test_slice_of_blocked_multi_cta():
    parent = blocked_text([2, 4], [4, 2], [2, 2], [1, 0], [[0, 1], [1, 0]])
    got = bases_of(slice_text(0, parent), [128])
    assert got == {
        "register": [[1], [2], [16], [32]],
        "lane": [[4], [0], [0]],
        "warp": [[8], [0]],
        "block": [[64], [0]],
    }


def test_nested_slice_and_slice_of_dot_operand():
    parent = blocked_text([1, 2, 2], [4, 4, 2], [2, 1, 2], [2, 1, 0])
    assert bases_of(slice_text(0, slice_text(1, parent)), [32]) == {
        "register": [[1], [8], [16]],
        "lane": [[2], [0], [0], [0], [0]],
        "warp": [[4], [0]],
        "block": [],
    }
    dot = dot_text(0, mma_text(2, [2, 2], [16, 8]), 2)
    assert bases_of(slice_text(1, dot), [64])["register"] == [[8], [32]]


def test_linear_fits_shape():
    lin = linear_text([[0, 1], [8, 0]], [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], [[16, 0], [0, 0]], [])
    # larger: repeat along the register order (dim1 first, then dim0)
    assert bases_of(lin, [64, 64])["register"] == [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [32, 0]]
    # smaller: register bases are dropped, lane/warp ones zeroed
    got = bases_of(lin, [2, 2])
    assert got["register"] == [[0, 1]]
    assert got["lane"] == [[0, 0], [0, 0], [1, 0], [0, 0], [0, 0]]
    assert got["warp"] == [[0, 0], [0, 0]]


def test_matrix_order():
    assert matrix_order(2, True) == (1, 0)
    assert matrix_order(2, False) == (0, 1)
    assert matrix_order(3, False) == (1, 2, 0)


# --------------------------------------------------------------------------- text


def test_print_round_trip_and_aliases():
    blocked = parse_encoding(blocked_text([1, 4], [8, 4], [4, 1], [1, 0]))
    enc = parse_encoding("#ttg.slice<{parent = #b, dim = 1}>", aliases={"b": blocked})
    assert isinstance(enc, SliceEncoding) and enc.parent == blocked
    assert enc.to_text(lambda e: "#blocked" if e == blocked else None) == "#ttg.slice<{dim = 1, parent = #blocked}>"
    dot = parse_encoding(dot_text(0, mma_text(2, [4, 1], [16, 8]), 4))
    assert isinstance(dot, DotOperandEncoding) and dot.k_width == 4
    assert isinstance(dot.parent, NvidiaMmaEncoding)
    # versionMinor may be omitted; it is always printed
    mma = parse_encoding("#ttg.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>")
    assert mma.to_text() == mma_text(3, [4, 1], [16, 64, 16])
    lin = parse_encoding("#ttg.linear<{block = [], warp = [], lane = [[1]], register = [[2]]}>")
    assert isinstance(lin, LinearEncoding)
    assert lin.to_text() == "#ttg.linear<{register = [[2]], lane = [[1]], warp = [], block = []}>"


def test_linear_from_layout():
    ll = to_linear_layout(mma_text(2, [2, 2], [16, 8]), [32, 32])
    lin = LinearEncoding.from_layout(ll)
    assert lin.to_linear_layout([32, 32]) == ll


@pytest.mark.parametrize(
    "text, message",
    [
        (mma_text(1, [4, 1], [16, 8]), "Volta"),
        (mma_text(5, [4, 1], [16, 8]), "versionMajor must be 2"),
        (mma_text(2, [4, 1], [16, 8, 16]), "instrShape"),
        (mma_text(2, [3, 1], [16, 8]), "warpsPerCTA"),
        (mma_text(3, [2, 2, 1], [16, 32, 16]), "rank 2"),
        (mma_text(3, [4, 1], [16, 24, 16]), "instrShape"),
        (mma_text(2, [4], [16]), "warpsPerCTA"),
        (dot_text(0, mma_text(2, [2, 2], [16, 8])), "kWidth parameter is mandatory"),
        (dot_text(1, mma_text(3, [4, 1], [16, 32, 16]), 2), "opIdx parameter must be 0 for Hopper"),
        (dot_text(2, mma_text(2, [2, 2], [16, 8]), 2), "opIdx parameter can be 0 or 1"),
        (dot_text(0, mma_text(2, [2, 2], [16, 8]), 3), "kWidth"),
        ("#ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], "
         "warpsPerCTA = [4, 1], order = [1, 0]}>, kWidth = 2}>", "not supported when the parent is a blocked"),
        (dot_text(0, slice_text(0, blocked_text([1, 1, 1], [1, 4, 8], [1, 4, 1], [2, 1, 0]))), "unexpected parent"),
        (slice_text(2, blocked_text([1, 1], [4, 8], [4, 1], [1, 0])), "slice dim=2 must be less than"),
        (slice_text(0, blocked_text([1], [32], [4], [0])), "at least rank >= 2"),
        ("#ttg.linear<{register = [[0, 1]], lane = [], warp = []}>", "Expected basis of 'block' not found"),
        (linear_text([], [], [], []), "Empty Layout"),
        (linear_text([[1, 1]], [], [], []), "permutation matrix"),
        (linear_text([[1], [3]], [], [], []), "permutation matrix"),
        (linear_text([[1], [1]], [], [], []), "permutation matrix"),
        (linear_text([[0, 8]], [[1, 0]], [], []), "no gap"),
        (linear_text([[0, 1]], [[1]], [], []), "entries"),
    ],
)
def test_invalid_parameters(text, message):
    with pytest.raises(AttrTextError, match=message):
        parse_encoding(text)


def test_mma_reads_like_triton():
    """Triton 3.9 ignores keys it does not know (the old CTAsPerCGA/
    CTASplitNum/CTAOrder included) and defaults both versions to 0."""
    enc = parse_encoding(
        "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], CTAsPerCGA = [1, 1], "
        "CTASplitNum = [1, 1], CTAOrder = [1, 0], instrShape = [16, 256, 32]}>"
    )
    assert enc.to_text() == (
        "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 256, 32]}>"
    )
    with pytest.raises(AttrTextError, match=r"versionMajor must be 2 \(Ampere\) or 3 \(Hopper\), got 0"):
        parse_encoding("#ttg.nvidia_mma<{versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 256, 32]}>")


def test_encoding_error_names_field():
    with pytest.raises(EncodingError) as e:
        NvidiaMmaEncoding(2, 0, (4, 1), (16, 8, 8))
    assert e.value.field == "instrShape"
    mma = NvidiaMmaEncoding(3, 0, (4, 1), (16, 64, 16))
    with pytest.raises(EncodingError) as e:
        DotOperandEncoding(1, mma, 2)
    assert e.value.field == "opIdx"
    with pytest.raises(EncodingError) as e:
        DotOperandEncoding(0, mma, 0)
    assert e.value.field == "kWidth"


def test_shape_errors():
    with pytest.raises(ShapeError):
        to_linear_layout(mma_text(2, [4, 1], [16, 8]), [64])
    with pytest.raises(ShapeError):
        to_linear_layout(slice_text(0, mma_text(2, [4, 1], [16, 8])), [64, 64])
    with pytest.raises(ShapeError):
        to_linear_layout(linear_text([[1]], [], [], []), [2, 2])
    with pytest.raises(ShapeError):
        to_linear_layout(dot_text(0, mma_text(2, [4, 1], [16, 8]), 2), [48, 64])


# --------------------------------------------------------------------------- random cases

Case = dict  # {"attr_text", "shape", "num_warps", "num_ctas"}


def pow2_between(rng: random.Random, lo: int, hi: int) -> int:
    lo, hi = max(lo, 1), max(hi, 1)
    return 1 << rng.randint(lo.bit_length() - 1, hi.bit_length() - 1)


def split_pow2(rng: random.Random, total: int, rank: int) -> list[int]:
    """Spread a power of two over ``rank`` dims at random."""
    out = [1] * rank
    while total > 1:
        out[rng.randrange(rank)] *= 2
        total //= 2
    return out


def rand_cga(rng: random.Random, rank: int) -> list[list[int]]:
    """0-2 block bases, each zero or the next power of two along some dim."""
    nxt = [1] * rank
    bases = []
    for _ in range(rng.choice([0, 0, 1, 2])):
        b = [0] * rank
        if rng.random() > 0.25:
            d = rng.randrange(rank)
            b[d] = nxt[d]
            nxt[d] *= 2
        bases.append(b)
    return bases


def cta_counts(cga: list[list[int]], rank: int) -> list[int]:
    counts = [1] * rank
    for b in cga:
        for d, c in enumerate(b):
            if c:
                counts[d] *= 2
    return counts


def fitted_shape(rng: random.Random, extents: list[int]) -> list[int]:
    """A shape from 1/8 to 4x the given per-dim extents."""
    return [pow2_between(rng, e // 8, e * 4) for e in extents]


def rand_blocked(rng: random.Random, rank: int) -> tuple[str, list[int], int, int]:
    spt = [rng.choice([1, 1, 2, 4]) for _ in range(rank)]
    tpw = split_pow2(rng, 32, rank)
    warps = split_pow2(rng, 1 << rng.randint(0, 3), rank)
    order = list(range(rank))
    rng.shuffle(order)
    cga = rand_cga(rng, rank)
    ctas = cta_counts(cga, rank)
    extents = [s * t * w * c for s, t, w, c in zip(spt, tpw, warps, ctas)]
    nw = 1
    for w in warps:
        nw *= w
    return blocked_text(spt, tpw, warps, order, cga or None), extents, nw, 1 << len(cga)


def rand_mma(rng: random.Random, major: int | None = None, rank: int | None = None) -> tuple[str, list[int], int, int]:
    major = major or rng.choice([2, 3])
    if major == 3:
        rank = 2
        instr = [rng.choice([16, 16, 16, 64]), rng.choice([8, 16, 32, 64, 128, 256]), 16]
        tile = instr[:2]
    else:
        rank = rank or rng.choice([2, 2, 3])
        tile = [rng.choice([16, 16, 32]), rng.choice([8, 8, 16, 32])]
        instr = [1] * (rank - 2) + tile
        tile = instr
    warps = split_pow2(rng, 1 << rng.randint(0, 3), rank)
    cga = rand_cga(rng, rank)
    ctas = cta_counts(cga, rank)
    extents = [t * w * c for t, w, c in zip(tile, warps, ctas)]
    nw = 1
    for w in warps:
        nw *= w
    return mma_text(major, warps, instr, cga or None), extents, nw, 1 << len(cga)


def mma_family_case(rng: random.Random) -> Case:
    text, extents, nw, nc = rand_mma(rng)
    return {"attr_text": text, "shape": fitted_shape(rng, extents), "num_warps": nw, "num_ctas": nc}


def rand_dot(rng: random.Random) -> tuple[str, list[int], int, int]:
    kind = rng.choice(["v2", "v2", "v3", "blocked"])
    if kind == "blocked":
        parent, extents, nw, nc = rand_blocked(rng, rng.choice([2, 2, 3]))
        op_idx, k_width = rng.randrange(2), 0
        k = len(extents) - 1 if op_idx == 0 else len(extents) - 2
        extents[k] = rng.choice([1, 8, 32])
        return dot_text(op_idx, parent), extents, nw, nc
    parent, extents, nw, nc = rand_mma(rng, 2 if kind == "v2" else 3)
    op_idx = 0 if kind == "v3" else rng.randrange(2)
    k_width = rng.choice([1, 2, 4, 8, 16])
    k = len(extents) - 1 if op_idx == 0 else len(extents) - 2
    extents[k] = 8 * k_width * rng.choice([1, 2])
    return dot_text(op_idx, parent, k_width), extents, nw, nc


def dot_family_case(rng: random.Random) -> Case:
    text, extents, nw, nc = rand_dot(rng)
    return {"attr_text": text, "shape": fitted_shape(rng, extents), "num_warps": nw, "num_ctas": nc}


def rand_linear(rng: random.Random, rank: int | None = None) -> tuple[str, list[int], int, int]:
    rank = rank or rng.choice([1, 2, 2, 3])
    sizes = split_pow2(rng, 1 << rng.randint(1, 12), rank)
    bits = [[0] * rank for d in range(rank) for _ in range(sizes[d].bit_length() - 1)]
    k = 0
    for d in range(rank):
        for i in range(sizes[d].bit_length() - 1):
            bits[k][d] = 1 << i
            k += 1
    rng.shuffle(bits)
    n_lane = min(5, rng.randint(0, len(bits)))
    n_warp = min(3, rng.randint(0, len(bits) - n_lane))
    n_block = min(1, rng.randint(0, len(bits) - n_lane - n_warp))
    lane, warp, block = bits[:n_lane], bits[n_lane : n_lane + n_warp], bits[n_lane + n_warp : n_lane + n_warp + n_block]
    register = bits[n_lane + n_warp + n_block :]
    register.sort(key=lambda b: (rng.random() < 0.3, max(b)))  # mostly increasing, some out of order
    zero = [0] * rank
    while len(lane) < 5:
        lane.insert(rng.randint(0, len(lane)), zero)
    for _ in range(rng.randint(0, 3 - len(warp))):
        warp.insert(rng.randint(0, len(warp)), zero)
    if rng.random() < 0.2:
        block.append(zero)
    if rng.random() < 0.1:
        register.insert(rng.randint(0, len(register)), zero)
    text = linear_text(register, lane, warp, block)
    return text, sizes, 1 << len(warp), 1 << len(block)


def linear_family_case(rng: random.Random) -> Case:
    text, sizes, nw, nc = rand_linear(rng)
    return {"attr_text": text, "shape": fitted_shape(rng, sizes), "num_warps": nw, "num_ctas": nc}


def slice_family_case(rng: random.Random) -> Case:
    kind = rng.choice(["blocked", "blocked", "mma", "dot", "linear", "nested"])
    if kind == "blocked":
        parent, extents, nw, nc = rand_blocked(rng, rng.choice([2, 3]))
    elif kind == "mma":
        parent, extents, nw, nc = rand_mma(rng)
    elif kind == "dot":
        parent, extents, nw, nc = rand_dot(rng)
    elif kind == "linear":
        parent, extents, nw, nc = rand_linear(rng, rng.choice([2, 3]))
    else:
        inner, extents, nw, nc = rand_blocked(rng, 3)
        d = rng.randrange(3)
        parent, extents = slice_text(d, inner), extents[:d] + extents[d + 1 :]
    dim = rng.randrange(len(extents))
    shape = fitted_shape(rng, extents[:dim] + extents[dim + 1 :])
    return {"attr_text": slice_text(dim, parent), "shape": shape, "num_warps": nw, "num_ctas": nc}


FAMILIES: dict[str, Callable[[random.Random], Case]] = {
    "nvidia_mma": mma_family_case,
    "dot_op": dot_family_case,
    "slice": slice_family_case,
    "linear": linear_family_case,
}
CASES_PER_FAMILY = 400


def generate(family: str, n: int = CASES_PER_FAMILY, seed: int = 0) -> list[Case]:
    rng = random.Random(f"{family}-{seed}")
    return [FAMILIES[family](rng) for _ in range(n)]


def compare_with_triton(cases: list[Case]) -> tuple[int, list[str]]:
    """(number of cases that agree, descriptions of the others)."""
    results = oracle.run_isolated(cases)
    agree, problems = 0, []
    for case, res in zip(cases, results):
        text, shape = case["attr_text"], case["shape"]
        if not res["ok"]:
            problems.append(f"Triton {res['kind']}: {text} {shape}: {res['message'][-300:]}")
            continue
        try:
            ours = parse_encoding(text)
            ll = to_linear_layout(ours, shape)
        except (AttrTextError, ShapeError, ValueError) as e:
            problems.append(f"ltc rejected {text} {shape}: {e}")
            continue
        want = res["layout"]
        got_bases = {d: [list(b) for b in bs] for d, bs in ll.bases.items()}
        if got_bases != want["in_dims"] or ll.out_dims != want["out_dims"]:
            problems.append(f"bases differ: {text} {shape}\n  ltc    {got_bases}\n  triton {want['in_dims']}")
        elif ours.to_text() != res["printed"]:
            problems.append(f"text differs: {ours.to_text()} vs Triton {res['printed']}")
        else:
            agree += 1
    return agree, problems


@oracle.requires_triton
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_differential_against_triton(family):
    cases = generate(family)
    agree, problems = compare_with_triton(cases)
    assert not problems, f"{len(problems)} of {len(cases)} {family} cases differ:\n" + "\n".join(problems[:5])
    assert agree == len(cases) >= 300


SHARED_GENERATOR_FAMILIES = (
    "nvidia_mma_v2",
    "nvidia_mma_v3",
    "dot_op_mma_v2",
    "dot_op_mma_v3",
    "dot_op_blocked",
    "slice",
    "linear",
)


@oracle.requires_triton
@pytest.mark.parametrize("family", SHARED_GENERATOR_FAMILIES)
def test_differential_on_shared_case_generators(family):
    """The project's common case generators (tests/layout_cases.py), written
    independently of the ones above."""
    layout_cases = pytest.importorskip("tests.layout_cases")
    cases = [
        {"attr_text": c.attr_text, "shape": list(c.shape), **c.oracle_kwargs()}
        for c in layout_cases.cases_for(family, seed=11, n=300)
    ]
    if family == "slice" and encoding_class("ttg.amd_mfma") is None:
        cases = [c for c in cases if "amd_" not in c["attr_text"]]
    agree, problems = compare_with_triton(cases)
    assert not problems, f"{len(problems)} of {len(cases)} {family} cases differ:\n" + "\n".join(problems[:5])
    assert agree == len(cases) > 0


def amd_parent_cases(rng: random.Random) -> list[Case]:
    mfma = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>"
    wmma = "#ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {warp = [[1, 0], [0, 1]]}}>"
    cases = []
    for parent in (mfma, dot_text(0, mfma, 4), dot_text(1, mfma, 8), wmma, dot_text(0, wmma, 8)):
        threads = 64 if "mfma" in parent else 32
        for _ in range(10):
            dim = rng.randrange(2)
            cases.append({"attr_text": slice_text(dim, parent), "shape": [pow2_between(rng, 1, 256)],
                          "threads_per_warp": threads})
            if parent.startswith("#ttg.dot_op"):
                shape = [pow2_between(rng, 1, 256), pow2_between(rng, 1, 256)]
                cases.append({"attr_text": parent, "shape": shape, "threads_per_warp": threads})
    return cases


@oracle.requires_triton
@pytest.mark.skipif(encoding_class("ttg.amd_mfma") is None, reason="the AMD encodings are not implemented yet")
def test_slice_of_amd_parents_against_triton():
    cases = amd_parent_cases(random.Random(7))
    agree, problems = compare_with_triton(cases)
    assert not problems, "\n".join(problems[:5])
    assert agree == len(cases)


def test_blocked_parent_is_the_exemplar_class():
    enc = parse_encoding(dot_text(1, blocked_text([1, 1], [4, 8], [4, 1], [1, 0])))
    assert isinstance(enc.parent, BlockedEncoding) and enc.k_dim == 0
