"""AMD distributed encodings: ``#ttg.amd_mfma``, ``#ttg.amd_wmma`` and their
dot operands.

Hand-checked bases (Triton's LinearLayoutConversionsTest and worked examples of the
formulas in ``ltc/encodings/amd.py``), text round trips, the parameter errors
Triton reports, and seeded differential tests against Triton 3.9.0 (bases and
printed text): the shared generators of ``tests/layout_cases.py`` plus our own
for what they leave out (WMMA rank 3 and 32x16 tiles, CGA splits along N / K).

Dot operands are checked through ``dot_operand_layout`` on the parent, so these
tests do not depend on ``#ttg.dot_op`` (one integration test does, and skips
when it is missing).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest

from ltc.attr_text import AttrTextError
from ltc.encodings import parse_encoding, to_linear_layout
from ltc.encodings.amd import AMDMfmaEncoding, AMDWmmaEncoding
from ltc.encodings.base import EncodingError, encoding_class
from ltc.linear_layout import LinearLayout
from tests import oracle

MIN_AGREEING = 300  # differential cases that must agree per family

# ----------------------------------------------------------------------- helpers


def mfma_text(warps, instr, transposed=False, cga=None, tiles=None, ebw=32) -> str:
    return (
        f"#ttg.amd_mfma<{{version = 3, warpsPerCTA = {list(warps)}, instrShape = {list(instr)}, "
        f"isTransposed = {'true' if transposed else 'false'}"
        + (f", CGALayout = {cga}" if cga else "")
        + (f", tilesPerWarp = {list(tiles)}" if tiles and any(t != 1 for t in tiles) else "")
        + (f", elementBitWidth = {ebw}" if ebw != 32 else "")
        + "}>"
    )


def wmma_text(
    version, warp, register=(), transposed=False, cga=None, instr=(16, 16, 16), rank=None, warp_key=False
) -> str:
    """``warp_key``: write ``warp = []`` when there are no warp bases (Triton
    needs the key to parse; it prints ``ctaLayout = {}``)."""
    parts = ([f"register = {[list(b) for b in register]}"] if register else []) + (
        [f"warp = {[list(b) for b in warp]}"] if warp or warp_key else []
    )
    return (
        f"#ttg.amd_wmma<{{version = {version}, isTranspose = {'true' if transposed else 'false'}, "
        f"ctaLayout = {{{', '.join(parts)}}}"
        + (f", CGALayout = {cga}" if cga else "")
        + (f", instrShape = {list(instr)}" if tuple(instr) != (16, 16, 16) else "")
        + (f", rank = {rank}" if rank is not None else "")
        + "}>"
    )


def dot_text(op_idx: int, parent: str, k_width: int) -> str:
    return f"#ttg.dot_op<{{opIdx = {op_idx}, parent = {parent}, kWidth = {k_width}}}>"


def as_lists(ll: LinearLayout) -> dict[str, list[list[int]]]:
    return {d: [list(b) for b in bs] for d, bs in ll.bases.items()}


def bases_of(text: str, shape) -> dict[str, list[list[int]]]:
    ll = to_linear_layout(text, shape)
    assert list(ll.out_dims.values()) == list(shape)
    return as_lists(ll)


_DOT = re.compile(r"^#ttg\.dot_op<\{opIdx = (\d), parent = (.*), kWidth = (\d+)\}>$")


def ltc_layout_and_text(attr_text: str, shape) -> tuple[LinearLayout, str]:
    """Our layout and our printed text; a ``#ttg.dot_op`` of an AMD parent goes
    through the parent's ``dot_operand_layout`` (this file does not test
    ``#ttg.dot_op`` itself)."""
    m = _DOT.match(attr_text)
    if m is None:
        enc = parse_encoding(attr_text)
        return enc.to_linear_layout(shape), enc.to_text()
    parent = parse_encoding(m.group(2))
    ll = parent.dot_operand_layout(tuple(shape), int(m.group(1)), int(m.group(3)))
    return ll, dot_text(int(m.group(1)), parent.to_text(), int(m.group(3)))


# ------------------------------------------------------------- hand-checked bases


def test_mfma_operand_a_research_item_9():
    """MFMA v3, warps [2, 4], 32x32, operand A with kWidth 4, 128x128 (Triton's
    LinearLayoutConversionsTest): warps along K (dim1) broadcast."""
    parent = parse_encoding(mfma_text([2, 4], [32, 32, 8]))
    got = as_lists(parent.dot_operand_layout((128, 128), 0, 4))
    assert got == {
        "register": [[0, 1], [0, 2], [0, 8], [0, 16], [0, 32], [0, 64], [64, 0]],
        "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]],
        "warp": [[0, 0], [0, 0], [32, 0]],
        "block": [],
    }


@pytest.mark.skipif(
    not hasattr(encoding_class("ttg.dot_op"), "from_fields"), reason="#ttg.dot_op is not implemented yet"
)
def test_mfma_operand_a_through_dot_op_text():
    text = dot_text(0, mfma_text([2, 4], [32, 32, 8]), 4)
    assert bases_of(text, [128, 128])["warp"] == [[0, 0], [0, 0], [32, 0]]


def test_mfma_operand_b_warps_on_k_broadcast():
    """Operand B: kWidth 4 registers on K (dim0), 32 lanes on N, 2 lane groups on
    K; the M warps land on K and broadcast."""
    parent = parse_encoding(mfma_text([2, 4], [32, 32, 8]))
    got = as_lists(parent.dot_operand_layout((128, 128), 1, 4))
    assert got == {
        "register": [[1, 0], [2, 0], [8, 0], [16, 0], [32, 0], [64, 0]],
        "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]],
        "warp": [[0, 32], [0, 64], [0, 0]],
        "block": [],
    }


def test_mfma_result_32x32():
    """4 rows of M per register group, 32 lanes along N then 2 along M, 4 groups
    along M; N warps first, then the M warps."""
    assert bases_of(mfma_text([2, 4], [32, 32, 8]), [128, 128]) == {
        "register": [[1, 0], [2, 0], [8, 0], [16, 0], [64, 0]],
        "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]],
        "warp": [[0, 32], [0, 64], [32, 0]],
        "block": [],
    }


def test_mfma_result_transposed():
    assert bases_of(mfma_text([2, 4], [32, 32, 8], transposed=True), [128, 128]) == {
        "register": [[0, 1], [0, 2], [0, 8], [0, 16], [64, 0]],
        "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]],
        "warp": [[0, 32], [0, 64], [32, 0]],
        "block": [],
    }


def test_mfma_result_f64_tiles_per_warp():
    """64-bit elements: one row per register group (8 groups); tilesPerWarp
    [2, 1] puts one more register bit on M after the N repeats."""
    text = mfma_text([2, 4], [32, 32, 8], transposed=True, tiles=[2, 1], ebw=64)
    assert bases_of(text, [128, 128]) == {
        "register": [[0, 2], [0, 4], [0, 8], [0, 16], [32, 0]],
        "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 1]],
        "warp": [[0, 32], [0, 64], [64, 0]],
        "block": [],
    }


def test_mfma_n_repeats_come_before_m_tiles():
    """Tiles are numbered N-contiguously over the whole tensor: with one warp and
    a 64x64 tensor of 16x16 tiles the N repeats are register bits 2-3 and the M
    repeats come after."""
    got = bases_of(mfma_text([1, 1], [16, 16, 16]), [64, 64])
    assert got["register"] == [[1, 0], [2, 0], [0, 16], [0, 32], [16, 0], [32, 0]]
    assert got["lane"] == [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]]


def test_mfma_quirks_with_a_cga():
    """Two Triton 3.9 behaviours kept exactly. (1) The N repeats are counted
    from the whole tensor, so with CTAs split along N the surplus register bit
    becomes a zero (broadcast) basis. (2) MFMA operands keep the parent's CGA as
    is: CTAs split along K hold different K slices (WMMA operands zero them)."""
    got = bases_of(mfma_text([1, 2], [16, 16, 8], cga=[[0, 1]]), [16, 128])
    assert got["register"] == [[1, 0], [2, 0], [0, 32], [0, 0]]
    assert got["warp"] == [[0, 16]] and got["block"] == [[0, 64]]
    parent = parse_encoding(mfma_text([1, 1], [32, 32, 8], cga=[[0, 1]]))
    got = as_lists(parent.dot_operand_layout((32, 64), 0, 4))
    assert got["register"] == [[0, 1], [0, 2], [0, 8], [0, 16], [0, 0]]
    assert got["block"] == [[0, 32]]


def test_wmma_v2_result():
    """v2: 8 consecutive rows per lane (registers), 16 lanes along N, the upper
    16 lanes 8 rows down; ctaLayout counts in 16x16 tiles."""
    assert bases_of(wmma_text(2, [[1, 0], [0, 1]]), [64, 64]) == {
        "register": [[1, 0], [2, 0], [4, 0], [0, 32], [32, 0]],
        "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]],
        "warp": [[16, 0], [0, 16]],
        "block": [],
    }


def test_wmma_v1_result_interleaved_rows():
    """v1: a lane's 8 values are every other row; lanes 16..31 hold the odd rows."""
    got = bases_of(wmma_text(1, [[0, 1]]), [16, 32])
    assert got["register"] == [[2, 0], [4, 0], [8, 0]]
    assert got["lane"] == [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0]]
    assert got["warp"] == [[0, 16]]


def test_wmma_32x16_operands():
    """v3 32x16 (two stacked 16x16 tiles): operand A gets one register bit along
    M after the K registers; operand B has none (its non-K size is 16)."""
    parent = parse_encoding(wmma_text(3, [[1, 0], [0, 1]], instr=(32, 16, 64)))
    assert as_lists(parent.to_linear_layout((64, 64))) == {
        "register": [[1, 0], [2, 0], [4, 0], [16, 0], [0, 32]],
        "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]],
        "warp": [[32, 0], [0, 16]],
        "block": [],
    }
    assert as_lists(parent.dot_operand_layout((64, 128), 0, 8)) == {
        "register": [[0, 1], [0, 2], [0, 4], [0, 16], [0, 32], [16, 0], [0, 64]],
        "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]],
        "warp": [[32, 0], [0, 0]],
        "block": [],
    }
    assert as_lists(parent.dot_operand_layout((128, 64), 1, 8)) == {
        "register": [[1, 0], [2, 0], [4, 0], [16, 0], [32, 0], [64, 0], [0, 32]],
        "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]],
        "warp": [[0, 0], [0, 16]],
        "block": [],
    }


def test_wmma_operand_cga_broadcasts_along_k():
    """CTAs that split the result along K hold the same operand: their block
    bases become zero."""
    parent = parse_encoding(wmma_text(2, [[1, 0]], cga=[[0, 1], [1, 0]]))
    got = as_lists(parent.dot_operand_layout((64, 64), 0, 8))
    assert got["block"] == [[0, 0], [32, 0]]


def test_wmma_v1_operand_upper_lanes_duplicate():
    parent = parse_encoding(wmma_text(1, [[1, 0]]))
    got = as_lists(parent.dot_operand_layout((32, 16), 0, 16))
    assert got["lane"] == [[1, 0], [2, 0], [4, 0], [8, 0], [0, 0]]
    assert got["register"] == [[0, 1], [0, 2], [0, 4], [0, 8]]


# ------------------------------------------------------------------------- text

# Texts exactly as Triton 3.9 prints them (checked against the oracle below).
CANONICAL_TEXTS = [
    "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [32, 32, 8], isTransposed = false}>",
    "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [32, 32, 8], isTransposed = true, "
    "CGALayout = [[1, 0]], tilesPerWarp = [1, 2], elementBitWidth = 64}>",
    "#ttg.amd_mfma<{version = 4, warpsPerCTA = [1, 2, 2], instrShape = [16, 16, 32], isTransposed = true}>",
    "#ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {warp = [[1, 0], [2, 0]]}}>",
    "#ttg.amd_wmma<{version = 2, isTranspose = true, ctaLayout = {register = [[0, 1]], warp = [[1, 0], [0, 0]]}}>",
    "#ttg.amd_wmma<{version = 3, isTranspose = false, ctaLayout = {warp = [[1, 0]]}, CGALayout = [[1, 0]], "
    "instrShape = [16, 16, 32]}>",
]


def tritons_wmma_text(ltc_text: str) -> str:
    """Triton's print of ltc's text: ltc always writes ``warp = ..`` (Triton's
    parser needs the key), Triton leaves an empty ``warp = []`` out."""
    return ltc_text.replace(", warp = []}", "}").replace("{warp = []}", "{}")


@pytest.mark.parametrize("text", CANONICAL_TEXTS)
def test_canonical_text_round_trips(text):
    assert parse_encoding(text).to_text() == text


def test_mfma_text_defaults_and_order():
    enc = parse_encoding(
        "#ttg.amd_mfma<{elementBitWidth = 32, tilesPerWarp = [1, 1], instrShape = [16, 16, 16], "
        "warpsPerCTA = [4, 1], version = 2}>"
    )
    assert isinstance(enc, AMDMfmaEncoding)
    assert enc.tiles_per_warp == (1, 1) and not enc.is_transposed
    assert enc.to_text() == (
        "#ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 16, 16], isTransposed = false}>"
    )


def test_wmma_text_order_and_rank():
    enc = parse_encoding(
        "#ttg.amd_wmma<{instrShape = [16, 16, 32], CGALayout = [[0, 0, 1]], rank = 3, "
        "ctaLayout = {warp = [[0, 1, 0]], register = [[1, 0, 0]]}, isTranspose = false, version = 3}>"
    )
    assert isinstance(enc, AMDWmmaEncoding) and enc.rank == 3
    # Triton never prints ``rank``; we read it back from the bases.
    text = (
        "#ttg.amd_wmma<{version = 3, isTranspose = false, ctaLayout = {register = [[1, 0, 0]], "
        "warp = [[0, 1, 0]]}, CGALayout = [[0, 0, 1]], instrShape = [16, 16, 32]}>"
    )
    assert enc.to_text() == text
    assert parse_encoding(text) == enc


@pytest.mark.parametrize(
    "text, field",
    [
        (mfma_text([2, 2], [8, 8, 8]), "instrShape"),
        ("#ttg.amd_mfma<{version = 5, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false}>",
         "version"),
        (mfma_text([2, 2], [32, 32, 8], ebw=16), "elementBitWidth"),
        (mfma_text([2, 3], [32, 32, 8]), "warpsPerCTA"),
        (mfma_text([8], [32, 32, 8]), "warpsPerCTA"),
        (mfma_text([2, 2], [32, 32, 8], tiles=[3, 1]), "tilesPerWarp"),
        (mfma_text([2, 2], [32, 32, 8], tiles=[1, 1, 2]), "tilesPerWarp"),
        (wmma_text(1, [[1, 0]], instr=(16, 16, 32)), "instrShape"),
        (wmma_text(3, [[1, 0]]), "instrShape"),  # v3 has no [16, 16, 16]
        (wmma_text(2, [[1, 0]], instr=(32, 16, 64)), "instrShape"),
        (wmma_text(4, [[1, 0]]), "version"),
        (wmma_text(2, [[2, 0]]), "ctaLayout"),  # not surjective: aborts Triton
        (wmma_text(2, [[1, 1]]), "ctaLayout"),
        (wmma_text(2, [[1, 0]], rank=3), "rank"),
        (wmma_text(2, [[1, 0, 0, 0]], rank=4), "rank"),
    ],
)
def test_invalid_parameters(text, field):
    """Rejected, with the error pointing at the offending field."""
    with pytest.raises(AttrTextError) as err:
        parse_encoding(text)
    expected_col = text.index(f"{field} =") + 1 if f"{field} =" in text else 1  # absent: the attribute
    assert err.value.col == expected_col, err.value.message


def test_wmma_prints_empty_warp_bases():
    """Triton prints no warp bases as ``ctaLayout = {}``, which its parser
    rejects; ltc writes ``warp = []`` so that its text re-reads everywhere."""
    enc = parse_encoding("#ttg.amd_wmma<{version = 1, ctaLayout = {register = [], warp = []}}>")
    assert enc.to_text() == "#ttg.amd_wmma<{version = 1, isTranspose = false, ctaLayout = {warp = []}}>"
    assert parse_encoding(enc.to_text()) == enc
    enc = parse_encoding("#ttg.amd_wmma<{version = 2, ctaLayout = {register = [[1, 0]], warp = []}}>")
    assert enc.to_text() == (
        "#ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {register = [[1, 0]], warp = []}}>"
    )


@oracle.requires_triton
def test_wmma_empty_warp_text_rereads_in_triton():
    text = "#ttg.amd_wmma<{version = 1, isTranspose = false, ctaLayout = {warp = []}}>"
    assert parse_encoding(text).to_text() == text
    (res,) = oracle.run_isolated([{"attr_text": text, "shape": [16, 16], "threads_per_warp": 32, "num_warps": 1}])
    assert res.get("printed") == "#ttg.amd_wmma<{version = 1, isTranspose = false, ctaLayout = {}}>", res


def test_mfma_reads_like_triton():
    """Triton 3.9 defaults ``version`` to 0 and ignores keys it does not know
    (a misspelt ``isTranspose``, the old ``CTAsPerCGA`` ...)."""
    enc = parse_encoding(
        "#ttg.amd_mfma<{warpsPerCTA = [1, 1], instrShape = [32, 32], isTranspose = true, foo = 1, "
        "CTAsPerCGA = [1, 1]}>"
    )
    assert enc.to_text() == (
        "#ttg.amd_mfma<{version = 0, warpsPerCTA = [1, 1], instrShape = [32, 32], isTransposed = false}>"
    )


@oracle.requires_triton
def test_mfma_lenient_text_matches_triton():
    """(Through a whole module: Gluon's layout objects refuse version 0.)"""
    text = "#ttg.amd_mfma<{warpsPerCTA = [1, 1], instrShape = [32, 32], isTranspose = true, foo = 1}>"
    module = oracle.module_text(text, [64, 64], num_warps=1, threads_per_warp=64)
    assert f"#mma = {parse_encoding(text).to_text()}\n" in oracle.triton_reprint(module)


def test_wmma_ignores_unknown_fields():
    """As Triton 3.9 does, at the top and inside ``ctaLayout``."""
    enc = parse_encoding(
        "#ttg.amd_wmma<{version = 2, ctaLayout = {warp = [[1, 0]], lane = [[1, 0]]}, foo = 3}>"
    )
    assert enc.to_text() == "#ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {warp = [[1, 0]]}}>"


def test_mfma_64x4_result_must_be_transposed():
    enc = parse_encoding(mfma_text([2, 2], [64, 4, 4]))
    with pytest.raises(EncodingError, match="transposed"):
        enc.to_linear_layout((64, 64))
    # its operands are fine (Triton computes them too)
    got = as_lists(enc.dot_operand_layout((64, 64), 0, 4))
    assert got["lane"] == [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]]
    assert got["register"] == [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]]


@pytest.mark.parametrize(
    "parent, good, bad",
    [
        (mfma_text([2, 2], [32, 32, 8]), [1, 2, 4, 8, 16, 32, 64], [0, 3, -1]),
        (wmma_text(1, [[1, 0]]), [8, 16], [0, 1, 2, 4, 32]),
        (wmma_text(2, [[1, 0]]), [4, 8, 16], [0, 1, 2, 32]),
        (wmma_text(3, [[1, 0]], instr=(16, 16, 32)), [1, 2, 4, 8, 16, 32, 64], [0, 3]),
    ],
)
def test_k_width_rules(parent, good, bad):
    enc = parse_encoding(parent)
    for kw in good:
        enc.check_dot_operand(0, kw)
        enc.dot_operand_layout((64, 64), 1, kw)
    for kw in bad:
        with pytest.raises(EncodingError) as err:
            enc.dot_operand_layout((64, 64), 0, kw)
        assert err.value.field == "kWidth"
    with pytest.raises(EncodingError) as err:
        enc.check_dot_operand(2, good[0])
    assert err.value.field == "opIdx"


# ---------------------------------------------------------- differential (Triton)


def _pow2(rng: random.Random, lo: int, hi: int) -> int:
    return 1 << rng.randint(lo.bit_length() - 1, hi.bit_length() - 1)


def _split_bits(rng: random.Random, nbits: int, rank: int) -> list[int]:
    sizes = [1] * rank
    for _ in range(nbits):
        sizes[rng.randrange(rank)] *= 2
    return sizes


def _shape_around(rng: random.Random, tile: list[int]) -> list[int]:
    """Each dim from 1/8 of the tile to 4x it (at least 1), at most 2^16 elements."""
    while True:
        shape = [max(1, t * _pow2(rng, 1, 32) // 8) for t in tile]
        n = 1
        for s in shape:
            n *= s
        if n <= 1 << 16:
            return shape


def _unit_bases(rng: random.Random, slots: int, rank: int, p_zero: float) -> list[list[int]]:
    """``slots`` bases, each zero or a fresh power of two along a random dim (a
    permutation matrix after dropping zeros)."""
    next_bit = [1] * rank
    out = []
    for _ in range(slots):
        b = [0] * rank
        if rng.random() >= p_zero:
            d = rng.randrange(rank)
            b[d] = next_bit[d]
            next_bit[d] *= 2
        out.append(b)
    return out


def _cga(rng: random.Random, rank: int) -> list[list[int]]:
    n = rng.choice([0, 0, 1, 2])
    return _unit_bases(rng, n, rank, 0.2)


def _extent(bases: list[list[int]], rank: int) -> list[int]:
    ext = [1] * rank
    for b in bases:
        for d, c in enumerate(b):
            ext[d] = max(ext[d], 2 * c)
    return ext


def gen_extra_mfma(rng: random.Random) -> tuple[str, list[int], int]:
    """MFMA results and operands with CGAs along any dim (N and K included) and
    rank-3 batches; returns (Triton text, shape, num_warps)."""
    rank = rng.choice([2, 2, 3])
    warps = _split_bits(rng, rng.randint(0, 3), rank)
    mn = rng.choice([(32, 32), (16, 16), (4, 64), (64, 4)])
    transposed = mn == (64, 4) or rng.random() < 0.5
    tiles = [1] * (rank - 2) + [rng.choice([1, 2]), rng.choice([1, 2, 4])]
    cga = _cga(rng, rank)
    parent = mfma_text(warps, [mn[0], mn[1], 8], transposed, cga, tiles, rng.choice([32, 64]))
    tile = [1] * (rank - 2) + list(mn)
    tile = [t * w * s for t, w, s in zip(tile, warps, _extent(cga, rank))]
    nw = 1
    for w in warps:
        nw *= w
    if rng.random() < 0.5:
        return parent, _shape_around(rng, tile), nw
    op = rng.randrange(2)
    kw = rng.choice([1, 2, 4, 8, 16])
    k_index = rank - 1 if op == 0 else rank - 2
    tile[k_index] = kw * 64 // (mn[0] if op == 0 else mn[1])
    return dot_text(op, parent, kw), _shape_around(rng, tile), nw


_WMMA_INSTR = {1: [(16, 16, 16)], 2: [(16, 16, 16), (16, 16, 32)],
               3: [(16, 16, 4), (16, 16, 32), (16, 16, 64), (16, 16, 128), (32, 16, 64), (32, 16, 128)]}


def gen_extra_wmma(rng: random.Random) -> tuple[str, list[int], int]:
    """WMMA results and operands of rank 2 and 3 (with ``rank = 3`` spelled out
    for Triton), all instruction shapes incl. 32x16, CGAs; returns (Triton
    text, shape, num_warps)."""
    rank = rng.choice([2, 3])
    version = rng.choice([1, 2, 3, 3])
    instr = rng.choice(_WMMA_INSTR[version])
    nw_bits = rng.randint(0, 3)
    n_reg = rng.choice([0, 0, 1, 2])
    bases = _unit_bases(rng, n_reg + nw_bits, rank, 0.15)
    register, warp = bases[:n_reg], bases[n_reg:]
    cga = _cga(rng, rank)
    parent = wmma_text(
        version, warp, register, rng.random() < 0.5, cga, instr, rank if rank != 2 else None, warp_key=True
    )
    ext = _extent(register + warp, rank)
    tile = [1] * (rank - 2) + [instr[0], 16]
    tile = [t * e * s for t, e, s in zip(tile, ext, _extent(cga, rank))]
    if rng.random() < 0.5:
        return parent, _shape_around(rng, tile), 1 << nw_bits
    op = rng.randrange(2)
    kw = {1: [8, 16], 2: [4, 8, 16]}.get(version, [1, 2, 4, 8, 16, 32])
    kw = rng.choice(kw)
    k_index = rank - 1 if op == 0 else rank - 2
    tile[k_index] = max(instr[2], 2 * kw)
    return dot_text(op, parent, kw), _shape_around(rng, tile), 1 << nw_bits


def _compare(cases: list[dict]) -> tuple[int, list[str]]:
    """Run the cases through Triton (in a child process) and through ltc;
    return (how many agree, descriptions of those that do not)."""
    results = oracle.run_isolated(cases)
    agree, problems = 0, []
    for case, res in zip(cases, results):
        where = f"{case['attr_text']} @ {case['shape']}"
        if not res["ok"]:
            problems.append(f"Triton failed ({res['kind']}): {where}: {res['message'][:300]}")
            continue
        try:
            ll, text = ltc_layout_and_text(case["attr_text"], case["shape"])
        except Exception as e:  # noqa: BLE001 - reported as a disagreement
            problems.append(f"ltc raised {type(e).__name__}: {e}: {where}")
            continue
        expected = res["layout"]
        if as_lists(ll) != expected["in_dims"] or ll.out_dims != expected["out_dims"]:
            problems.append(f"bases differ: {where}\n  ltc    {as_lists(ll)}\n  triton {expected['in_dims']}")
        elif tritons_wmma_text(text) != res["printed"]:
            problems.append(f"text differs: ltc {text!r}, triton {res['printed']!r}")
        else:
            agree += 1
    return agree, problems


def _shared_generator_cases(family: str, n: int) -> list[dict]:
    from tests import layout_cases

    return [
        {"attr_text": c.attr_text, "shape": list(c.shape), **c.oracle_kwargs()}
        for c in layout_cases.cases_for(family, seed=0, n=n)
    ]


def _own_cases(gen: Callable[[random.Random], tuple[str, list[int], int]], seed: str, n: int) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        text, shape, nw = gen(rng)
        lanes = 64 if "mfma" in text else 32
        out.append({"attr_text": text, "shape": shape, "num_warps": nw, "threads_per_warp": lanes})
    return out


@oracle.requires_triton
@pytest.mark.parametrize("family", ["amd_mfma", "dot_op_amd_mfma", "amd_wmma", "dot_op_amd_wmma"])
def test_differential_shared_generators(family):
    agree, problems = _compare(_shared_generator_cases(family, 320))
    assert not problems, f"{len(problems)} disagreements, first: " + "\n".join(problems[:5])
    assert agree >= MIN_AGREEING


@oracle.requires_triton
@pytest.mark.parametrize("family, gen", [("mfma", gen_extra_mfma), ("wmma", gen_extra_wmma)])
def test_differential_own_generators(family, gen):
    agree, problems = _compare(_own_cases(gen, f"ltc-amd-{family}", 400))
    assert not problems, f"{len(problems)} disagreements, first: " + "\n".join(problems[:5])
    assert agree >= MIN_AGREEING


@oracle.requires_triton
def test_canonical_texts_are_tritons():
    """Triton prints each of CANONICAL_TEXTS exactly so (in a child process:
    some texts abort Triton)."""
    cases = [
        {
            "attr_text": text,
            "shape": [2, 64, 64] if "[1, 2, 2]" in text else [64, 64],
            "threads_per_warp": 64 if "mfma" in text else 32,
        }
        for text in CANONICAL_TEXTS
    ]
    printed = [r.get("printed", r.get("message")) for r in oracle.run_isolated(cases)]
    assert printed == CANONICAL_TEXTS
