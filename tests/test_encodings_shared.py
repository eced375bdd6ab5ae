"""Shared-memory encodings: ``#ttg.swizzled_shared``, ``#ttg.nvmma_shared``,
``#ttg.padded_shared``, ``#ttg.shared_linear``, ``#ttg.partitioned_shared``
and ``#ttg.amd_rotating_shared``.

Hand-checked bases (Triton's unit tests,
and small cases worked out by hand), Triton's printed text, the parameter and
shape errors, and seeded differential tests against Triton 3.9.0: the
generators of ``tests/layout_cases.py`` (valid cases, checked in process) and
a wider generator here (run in a child process, since Triton aborts on some
of them: we must then raise).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from ltc.attr_text import AttrTextError
from ltc.encodings import parse_encoding, to_linear_layout
from ltc.encodings.base import CGALayout, EncodingError, ShapeError
from ltc.encodings.shared import (
    AMDRotatingSharedEncoding,
    NVMMASharedEncoding,
    PaddedSharedEncoding,
    PartitionedSharedEncoding,
    SharedLinearEncoding,
    SwizzledSharedEncoding,
    order_per_dim,
    shape_per_cta,
)
from tests import layout_cases, oracle

N_CASES = 300

# --------------------------------------------------------------------------- helpers


def swizzled_text(vec: int, per_phase: int, max_phase: int, order: list[int], cga=None) -> str:
    cga_text = f", CGALayout = {cga}" if cga else ""
    return (
        f"#ttg.swizzled_shared<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, "
        f"order = {order}{cga_text}}}>"
    )


def nvmma_text(swizzle: int, bits: int, transposed: bool = False, fp4: bool = False, rank: int = 2, cga=None) -> str:
    text = (
        f"#ttg.nvmma_shared<{{swizzlingByteWidth = {swizzle}, transposed = {'true' if transposed else 'false'}, "
        f"elementBitWidth = {bits}"
    )
    if fp4:
        text += ", fp4Padded = true"
    if cga:
        text += f", CGALayout = {cga}"
    elif rank != 2:
        text += f", rank = {rank}"
    return text + "}>"


def offsets(text: str, shape: list[int]) -> list[list[int]]:
    ll = to_linear_layout(text, shape)
    assert list(ll.out_dims.values()) == list(shape)
    return [list(b) for b in ll.bases["offset"]]


def ours_as_dict(text: str, shape) -> dict[str, list[list[int]]]:
    ll = to_linear_layout(text, shape)
    return {d: [list(b) for b in bs] for d, bs in ll.bases.items()}


# --------------------------------------------------------------------------- hand-checked bases


def test_swizzled_triton_unit_test():
    # Triton's swizzled-shared unit test: 32x32, vec 1, perPhase 1, maxPhase 4.
    assert offsets(swizzled_text(1, 1, 4, [1, 0]), [32, 32]) == [
        [0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 1], [2, 2], [4, 0], [8, 0], [16, 0]
    ]


def test_swizzled_column_major_and_rank3():
    # order [0, 1]: dim0 is the contiguous (column) dim; rows are dim1.
    assert offsets(swizzled_text(2, 1, 2, [0, 1]), [4, 4]) == [[1, 0], [2, 0], [2, 1], [0, 2]]
    # rank 3: the third dim of order follows as an identity.
    assert offsets(swizzled_text(1, 2, 2, [2, 1, 0]), [2, 4, 2]) == [
        [0, 0, 1], [0, 1, 0], [0, 2, 1], [1, 0, 0]
    ]


def test_swizzled_rank1_and_non_power_of_two_vec():
    assert offsets(swizzled_text(8, 1, 8, [0]), [64]) == [[1], [2], [4], [8], [16], [32]]
    # Triton accepts vec = 3: the row swizzle is 3 * phase mod numCols.
    assert offsets(swizzled_text(3, 1, 8, [1, 0]), [8, 8])[3:] == [[1, 3], [2, 6], [4, 4]]


def test_swizzled_multi_cta():
    # CGA split along dim0: each CTA holds 32x64, the block bit is row 32.
    text = swizzled_text(8, 1, 8, [1, 0], [[1, 0]])
    ll = to_linear_layout(text, [64, 64])
    assert [list(b) for b in ll.bases["block"]] == [[32, 0]]
    assert [list(b) for b in ll.bases["offset"]][6:9] == [[1, 8], [2, 16], [4, 32]]
    assert shape_per_cta((64, 64), CGALayout(((1, 0),))) == (32, 64)
    assert shape_per_cta((1, 64), CGALayout(((1, 0), (2, 0)))) == (1, 64)


def test_nvmma_triton_unit_tests():
    # Triton's NVMMA-shared unit test: 128B swizzle, 8x64, fp16 then fp32.
    assert offsets(nvmma_text(128, 16), [8, 64]) == [
        [0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32]
    ]
    assert offsets(nvmma_text(128, 32), [8, 64]) == [
        [0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 4], [2, 8], [4, 16], [0, 32]
    ]


def test_nvmma_transposed_fp4_and_no_swizzle():
    # transposed: dim 0 is contiguous.
    assert offsets(nvmma_text(128, 16, transposed=True), [64, 8]) == [
        [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [8, 1], [16, 2], [32, 4]
    ]
    # fp4Padded: column 8 of the padded 16-byte run aliases column 0.
    assert offsets(nvmma_text(128, 8, fp4=True), [8, 64]) == [
        [0, 1], [0, 2], [0, 4], [0, 0], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32]
    ]
    # no swizzle: identity, last dim fastest; outer rows after.
    assert offsets(nvmma_text(0, 16), [4, 8]) == [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]]
    # rank 3: outer dims collapse into rows, dim 0 is most major.
    assert offsets(nvmma_text(128, 16, rank=3), [2, 8, 64])[6:] == [[0, 1, 8], [0, 2, 16], [0, 4, 32], [1, 0, 0]]


def test_nvmma_box_repeats_are_most_major():
    # 32B swizzle on fp32 has an 8-element box row: extra columns come last.
    ll = offsets(nvmma_text(32, 32), [16, 32])
    assert ll[:3] == [[0, 1], [0, 2], [0, 4]]
    assert ll[-2:] == [[0, 8], [0, 16]]


def test_padded_identity_and_bases_forms():
    text = "#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [4, 8]}>"
    enc = parse_encoding(text)
    assert isinstance(enc, PaddedSharedEncoding)
    assert offsets(text, [4, 8]) == [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]]
    # The bases form of the same identity is the same value and prints short.
    same = parse_encoding("#ttg.padded_shared<[32:+4] {offset = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]], block = []}>")
    assert same == enc and same.to_text() == text
    # Padding: after every 32 elements 4 are skipped.
    assert [enc.padded_offset(i) for i in (0, 31, 32, 64)] == [0, 31, 36, 72]


def test_padded_with_block_bases():
    text = "#ttg.padded_shared<[32:+4] {offset = [[0, 1], [0, 2], [1, 0]], block = [[2, 0]]}>"
    ll = to_linear_layout(text, [4, 4])
    assert [list(b) for b in ll.bases["block"]] == [[2, 0]]
    assert parse_encoding(text).to_text() == text


def test_padded_block_bases_may_repeat_offsets():
    """Triton 3.9 accepts block bases that repeat offset bases (the attribute
    verifier does not ask for a bijection) but aborts on a descriptor that
    uses such a layout; ltc accepts the text and refuses the layout."""
    text = "#ttg.padded_shared<[2:+1] {offset = [[1, 0], [0, 1]], block = [[1, 0], [2, 0]]}>"
    enc = parse_encoding(text)
    assert isinstance(enc, PaddedSharedEncoding) and enc.to_text() == text
    assert not enc.factors_into_cta_cga()
    with pytest.raises(EncodingError, match="^layout must factor into CTA and CGA layouts$"):
        enc.to_linear_layout([4, 2])
    # zero (broadcast) block bases are fine
    assert parse_encoding(
        "#ttg.padded_shared<[2:+1] {offset = [[1, 0], [0, 1]], block = [[0, 0], [0, 0]]}>"
    ).factors_into_cta_cga()


def test_padded_bases_form_ignores_other_keys():
    """Triton 3.9 reads only ``offset`` and ``block`` in the bases form and
    parses the attribute despite other keys (it prints them away)."""
    enc = parse_encoding("#ttg.padded_shared<[2:+1, 4:+2] {offset = [[1, 0], [2, 0]], block = [], order = [0, 1]}>")
    assert enc.to_text() == "#ttg.padded_shared<[2:+1, 4:+2] {order = [0, 1], shape = [4, 1]}>"


def test_shared_linear():
    text = "#ttg.shared_linear<{offset = [[1, 0]], block = [[0, 1], [2, 0]]}, alignment = 16>"
    ll = to_linear_layout(text, [4, 2])
    assert ll.bases == {"offset": [(1, 0)], "block": [(0, 1), (2, 0)]}
    enc = parse_encoding("#ttg.shared_linear<{block = [[0, 1], [2, 0]], offset = [[1, 0]]}, alignment = 16>")
    assert enc == parse_encoding(text) and enc.to_text() == text


def test_partitioned_adds_a_partition_dim():
    inner = swizzled_text(1, 1, 1, [1, 0])
    text = (
        "#ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 0, "
        f"partitionLayout = {inner}}}>"
    )
    ll = to_linear_layout(text, [16, 16])
    # Pieces of 4 rows: the piece layout, then groups as the top offset bit.
    assert [list(b) for b in ll.bases["offset"]] == [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [8, 0]]
    assert [list(b) for b in ll.bases["partition"]] == [[4, 0]]
    assert list(ll.in_dims) == ["offset", "block", "partition"]


def test_amd_rotating_phase_xor_block():
    # vec 1, perPhase 1, maxPhase 2, 8 rows: phase of row r is (r mod 2) XOR (r/2 mod 2).
    text = "#ttg.amd_rotating_shared<{vec = 1, perPhase = 1, maxPhase = 2, order = [1, 0]}>"
    assert offsets(text, [8, 2]) == [[0, 1], [1, 1], [2, 1], [4, 0]]
    assert isinstance(parse_encoding(text), AMDRotatingSharedEncoding)
    assert parse_encoding(text).to_text() == text


def test_order_per_dim():
    assert order_per_dim(((0, 1), (1, 0)), 2) == (1, 0)
    assert order_per_dim(((0, 0, 1), (1, 0, 0)), 3) == (2, 0, 1)
    assert order_per_dim((), 3) == (2, 1, 0)


# --------------------------------------------------------------------------- printing


@pytest.mark.parametrize(
    "text, printed",
    [
        (swizzled_text(8, 1, 8, [1, 0], []), swizzled_text(8, 1, 8, [1, 0])),
        ("#ttg.swizzled_shared<{order = [1, 0], vec = 2, perPhase = 1, maxPhase = 4}>", swizzled_text(2, 1, 4, [1, 0])),
        # Triton leaves a missing vec/perPhase/maxPhase at 0.
        ("#ttg.swizzled_shared<{vec = 1, perPhase = 1, order = [1, 0]}>", swizzled_text(1, 1, 0, [1, 0])),
        (
            "#ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, rank = 2, fp4Padded = false}>",
            nvmma_text(128, 16),
        ),
        (
            "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3, "
            "CGALayout = [[1, 0, 0]]}>",
            nvmma_text(128, 16, cga=[[1, 0, 0]]),
        ),
        (nvmma_text(0, 16, rank=1), nvmma_text(0, 16, rank=1)),
        (
            "#ttg.padded_shared<[32:+4] {order = [0, 1], shape = [1, 64]}>",
            "#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [1, 64]}>",
        ),
        (
            "#ttg.padded_shared<[64:+4, 32:+8] {block = [], offset = [[0, 1], [1, 0]]}>",
            "#ttg.padded_shared<[64:+4, 32:+8] {order = [1, 0], shape = [2, 2]}>",
        ),
        (
            "#ttg.shared_linear<{offset = [[0, 1], [1, 0]], block = []}, alignment = 512>",
            "#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 512>",
        ),
    ],
)
def test_printed_text(text: str, printed: str):
    assert parse_encoding(text).to_text() == printed


def test_partitioned_prints_nested_alias():
    inner = parse_encoding(swizzled_text(1, 1, 1, [1, 0]))
    enc = PartitionedSharedEncoding(2, 1, 0, inner)
    assert enc.to_text(lambda e: "#shared" if e == inner else None) == (
        "#ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim = 0, partitionLayout = #shared}>"
    )
    assert parse_encoding(enc.to_text()) == enc


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "text, message",
    [
        (swizzled_text(1, 1, 1, [1, 1]), "permutation"),
        (swizzled_text(1, 1, 1, [1, 0], [[1, 1]]), "permutation matrix"),
        (swizzled_text(1, 1, 1, [1, 0], [[2, 0]]), "permutation matrix"),
        ("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], foo = 1}>", "unknown field"),
        ("#ttg.nvmma_shared<{swizzlingByteWidth = 16, transposed = false, elementBitWidth = 16}>", "0, 32, 64, or 128"),
        ("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 0}>", "non-zero"),
        (
            "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3, "
            "CGALayout = [[1, 0]]}>",
            "does not match rank 3",
        ),
        ("#ttg.padded_shared<[32:+4, 32:+8] {order = [1, 0], shape = [4, 4]}>", "duplicates"),
        ("#ttg.padded_shared<[24:+4] {order = [1, 0], shape = [4, 4]}>", "interval values"),
        ("#ttg.padded_shared<[32:+3] {order = [1, 0], shape = [4, 4]}>", "padding values"),
        ("#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [3, 4]}>", "power of 2"),
        ("#ttg.padded_shared<[32:+4] {order = [1, 0]}>", "missing field 'shape'"),
        ("#ttg.padded_shared<[32:+4] {offset = [[0, 1], [1, 0]]}>", "^Expected basis of 'block' not found$"),
        ("#ttg.padded_shared<[32:+4] {block = [[0, 1]]}>", "^Expected basis of 'offset' not found$"),
        ("#ttg.padded_shared<[32:+4] {order = [1, 0], register = [[0, 1]]}>", '^Unexpected attribute "register" found$'),
        ("#ttg.padded_shared<[32:+4] {unknown = 5}>", '^Unexpected attribute "unknown" found$'),
        ("#ttg.padded_shared<[32:+4] {offset = [[0, 1], [0, 0]], block = []}>", "Broadcasting"),
        ("#ttg.padded_shared<[32:+4] {offset = [[0, 1], [1, 1]], block = []}>", "at most one dimension"),
        ("#ttg.padded_shared<[32:+4] {offset = [[0, 1], [0, 3]], block = []}>", "power of two"),
        ("#ttg.padded_shared<[32:+4] {offset = [[0, 1], [0, 4]], block = []}>", "surjective"),
        ("#ttg.padded_shared<[32:+4] {offset = [], block = []}>", "Empty Layout"),
        ("#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 24>", "power of two"),
        ("#ttg.shared_linear<{offset = [[0, 1], [0, 1]]}, alignment = 16>", "bijective"),
        ("#ttg.shared_linear<{offset = [[0, 1], [2, 0]]}, alignment = 16>", "surjective"),
        ("#ttg.shared_linear<{offset = [[0, 1], [1, 0]], alignment = 16}>", "outside of the linear layout braces"),
        ("#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}>", "alignment"),
        ("#ttg.shared_linear<{offset = [[0, 1], [1, 0]], foo = []}, alignment = 16>", "unknown field"),
        ("#ttg.shared_linear<{offset = []}, alignment = 16>", "Empty Layout"),
        (
            "#ttg.partitioned_shared<{numPartitions = 1, numGroups = 1, partitionDim = 0, "
            f"partitionLayout = {swizzled_text(1, 1, 1, [1, 0])}}}>",
            "numPartitions",
        ),
        (
            "#ttg.partitioned_shared<{numPartitions = 2, numGroups = 3, partitionDim = 0, "
            f"partitionLayout = {swizzled_text(1, 1, 1, [1, 0])}}}>",
            "numGroups",
        ),
        (
            "#ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim = 2, "
            f"partitionLayout = {swizzled_text(1, 1, 1, [1, 0])}}}>",
            "partitionDim",
        ),
        (
            "#ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim = 0, partitionLayout = "
            "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>",
            "shared encoding",
        ),
    ],
)
def test_bad_text(text: str, message: str):
    with pytest.raises(AttrTextError, match=message):
        parse_encoding(text)


@pytest.mark.parametrize(
    "text, shape, error, message",
    [
        (nvmma_text(128, 16), [4, 64], ShapeError, "smaller than"),
        (nvmma_text(128, 16), [8, 32], ShapeError, "too small"),
        (nvmma_text(32, 16, rank=1), [16], ShapeError, "rank >= 2"),
        (nvmma_text(128, 12), [16, 128], ShapeError, "power of 2"),
        ("#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 64]}>", [128, 64], ShapeError, "64x64 only"),
        ("#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 16>", [4, 2], ShapeError, "2x2 only"),
        (swizzled_text(1, 1, 1, [1, 0]), [8, 64, 2], ShapeError, "rank"),
        (swizzled_text(1, 0, 1, [1, 0]), [8, 8], EncodingError, "perPhase"),
        (
            "#ttg.partitioned_shared<{numPartitions = 4, numGroups = 2, partitionDim = 0, "
            f"partitionLayout = {swizzled_text(2, 1, 4, [1, 0])}}}>",
            [4, 16],
            ShapeError,
            "smaller than numPartitions",
        ),
        (
            "#ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 1, "
            "partitionLayout = #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [16, 4]}>}>",
            [16, 16],
            EncodingError,
            "no linear layout",
        ),
    ],
)
def test_bad_shape(text: str, shape: list[int], error: type[Exception], message: str):
    with pytest.raises(error, match=message):
        to_linear_layout(text, shape)


def test_encoding_values():
    swz = SwizzledSharedEncoding(8, 1, 8, (1, 0))
    assert parse_encoding(swizzled_text(8, 1, 8, [1, 0])) == swz
    assert hash(swz) == hash(SwizzledSharedEncoding(8, 1, 8, (1, 0)))
    assert swz != AMDRotatingSharedEncoding(8, 1, 8, (1, 0))
    nv = NVMMASharedEncoding(128, False, 16)
    assert (nv.vec, nv.per_phase, nv.max_phase) == (8, 1, 8)
    assert NVMMASharedEncoding(0, False, 16).vec == 1
    assert SharedLinearEncoding(((0, 1), (1, 0))).shape == (2, 2)


# --------------------------------------------------------------------------- differential tests


requires_triton = pytest.mark.skipif(not oracle.HAVE_TRITON, reason="triton 3.9.0 is not installed (the oracle)")

SHARED_FAMILIES = ["swizzled_shared", "nvmma_shared", "padded_shared", "shared_linear", "partitioned_shared"]


def triton_view_of(ours: dict[str, list[list[int]]]) -> dict[str, list[list[int]]]:
    """Our layout as the oracle reports it: the oracle gets Triton's layout
    through Gluon, which drops the ``partition`` in dim of partitioned_shared
    (checked separately, see ``expected_partition_bases``)."""
    return {d: bs for d, bs in ours.items() if d != "partition"}


def expected_partition_bases(text: str, shape) -> list[list[int]]:
    """The partition in dim, from the encoding's parameters (the oracle cannot
    see it): partition ``p`` starts ``p`` pieces along ``partitionDim``."""
    enc = parse_encoding(text)
    piece = shape[enc.partition_dim] // enc.num_pieces
    out = []
    for i in range(enc.num_partitions.bit_length() - 1):
        b = [0] * enc.rank
        b[enc.partition_dim] = piece << i
        out.append(b)
    return out


def check_case(case: layout_cases.LayoutCase) -> None:
    triton = oracle.triton_to_linear_layout(case.attr_text, case.shape, **case.oracle_kwargs())
    printed = oracle.canonical_attr_text(case.attr_text, case.shape, **case.oracle_kwargs())
    enc = parse_encoding(case.attr_text)
    assert enc.to_text() == printed, case
    ll = to_linear_layout(enc, case.shape)
    ours = {d: [list(b) for b in bs] for d, bs in ll.bases.items()}
    assert triton_view_of(ours) == triton["in_dims"], case
    assert ll.out_dims == triton["out_dims"], case
    if case.encoding == "partitioned_shared":
        assert list(ll.in_dims) == ["offset", "block", "partition"]
        assert ours["partition"] == expected_partition_bases(case.attr_text, case.shape), case
    if case.encoding == "padded_shared" and "offset = " in printed:
        # Triton's printed text shows the element block bases directly.
        assert f"block = {[list(b) for b in ll.bases['block']]}" in printed, case


@requires_triton
@pytest.mark.parametrize("family", SHARED_FAMILIES)
def test_differential_layout_cases(family: str):
    cases = layout_cases.cases_for(family, seed=7, n=N_CASES)
    assert len(cases) >= N_CASES
    for case in cases:
        check_case(case)


# A wider generator than layout_cases: every nvmma variant (rank 1-3, transposed
# at any rank, fp4, all widths incl. 64), swizzled with any vec (incl. 3) and
# shapes from 1/8 of the natural tile to 4x, including shapes Triton refuses
# (it aborts or reports an error: ours must raise).


def _pow2_around(rng: random.Random, natural: int) -> int:
    k = rng.choice([-3, -2, -1, -1, 0, 0, 0, 1, 1, 2])
    return max(1, natural << k if k >= 0 else natural >> -k)


def _random_cga(rng: random.Random, rank: int) -> list[list[int]]:
    if rng.random() < 0.7:
        return []
    bases, seen = [], [1] * rank
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.2:
            bases.append([0] * rank)
            continue
        d = rng.randrange(rank)
        b = [0] * rank
        b[d] = seen[d]
        seen[d] *= 2
        bases.append(b)
    return bases


def wide_nvmma_case(rng: random.Random) -> tuple[str, list[int]]:
    rank = rng.choice([1, 2, 2, 2, 3, 3])
    swizzle = rng.choice([0, 32, 64, 128, 128])
    bits = rng.choice([8, 16, 16, 32, 64])
    fp4 = swizzle == 128 and bits == 8 and rng.random() < 0.4
    transposed = rng.random() < 0.4
    cga = _random_cga(rng, rank) if rank > 1 else []
    contig = 0 if transposed else rank - 1
    natural = [8] * rank
    natural[contig] = max(8, 8 * max(16, swizzle) // bits)
    shape = [_pow2_around(rng, n) for n in natural]
    if rng.random() < 0.8:  # mostly keep the contiguous dim a whole swizzle row (else Triton refuses)
        shape[contig] = max(shape[contig], natural[contig] * (1 << len(cga)))
    return nvmma_text(swizzle, bits, transposed, fp4, rank, cga), shape


def wide_swizzled_case(rng: random.Random) -> tuple[str, list[int]]:
    rank = rng.choice([1, 2, 2, 3])
    vec, per_phase, max_phase = rng.choice([1, 2, 3, 4, 8]), rng.choice([1, 2, 4]), rng.choice([1, 2, 4, 8])
    order = list(range(rank))
    rng.shuffle(order)
    cga = _random_cga(rng, rank)
    natural = [4] * rank
    natural[order[0]] = vec * max_phase
    if rank > 1:
        natural[order[1]] = per_phase * max_phase
    shape = [_pow2_around(rng, max(2, n)) for n in natural]
    return swizzled_text(vec, per_phase, max_phase, order, cga), shape


def run_wide(make: Callable[[random.Random], tuple[str, list[int]]], seed: int, n: int) -> tuple[int, int]:
    """Compare ``n`` cases with Triton in a child process; returns (agree, raised)."""
    rng = random.Random(seed)
    cases = [make(rng) for _ in range(n)]
    results = oracle.run_isolated([{"attr_text": t, "shape": s} for t, s in cases])
    agree = raised = 0
    for (text, shape), res in zip(cases, results):
        if res["ok"]:
            enc = parse_encoding(text)
            assert enc.to_text() == res["printed"], (text, shape)
            ours = triton_view_of(ours_as_dict(text, shape))
            assert ours == res["layout"]["in_dims"], (text, shape)
            agree += 1
        elif "SharedLinearLayout offset_bases must not be empty" in res["message"]:
            # A layout with no offset bases (one element per CTA): Gluon
            # cannot return it, so there is nothing to compare.
            continue
        else:
            # Triton rejects the attribute or aborts on the shape: we raise.
            with pytest.raises((AttrTextError, EncodingError, ShapeError)):
                to_linear_layout(text, shape)
            raised += 1
    return agree, raised


@requires_triton
@pytest.mark.parametrize("make", [wide_nvmma_case, wide_swizzled_case], ids=["nvmma", "swizzled"])
def test_differential_wide(make):
    agree, raised = run_wide(make, seed=2024, n=N_CASES)
    # Every case either agrees or raises where Triton refuses; most are valid.
    assert agree >= N_CASES // 2, (agree, raised)
