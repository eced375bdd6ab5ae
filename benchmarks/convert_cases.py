"""The layout conversions of the conversion benchmark (issue #4).

Each :class:`ConvertCase` is one ``ttg.convert_layout`` of a ``shape`` tensor of
``dtype`` from layout ``src`` to layout ``dst`` in a CTA of ``num_warps`` warps
(32 lanes, one CTA).  ``src`` / ``dst`` are Triton 3.9's printed attribute texts
with parents written inline, so the same text feeds ``ltc.to_linear_layout`` and
Triton's parser; ``benchmarks/triton_convert.py`` checks that Triton prints them
back unchanged.

Categories (``ConvertCase.category``) and what they exercise:

* ``blocked_transpose``: blocked -> blocked with the dims' ``order`` swapped
  (threads own rows before, columns after): a shared-memory round trip.
* ``blocked_reshape``: blocked -> blocked with a different sizePerThread,
  threadsPerWarp or warpsPerCTA but the same order.
* ``blocked_to_mma2`` / ``mma2_to_blocked``: Ampere accumulator layouts.
* ``blocked_to_mma3`` / ``mma3_to_blocked``: Hopper wgmma accumulator layouts
  (instrShape ``[16, N, K]``).
* ``mma2_to_dot``: an mma v2 accumulator to a dot operand of the next mma
  (opIdx 0 and 1; kWidth 2 for 16-bit, 4 for 8-bit, 1 for 32-bit elements).
* ``mma3_to_dot``: an mma v3 accumulator to operand A (opIdx 0) of a chained
  wgmma (kWidth = 32 / element bits).
* ``slice``: 1-D tensors in ``#ttg.slice`` layouts of blocked / mma parents.
* ``lane_permutation``: register and warp bases equal, lane bases permuted
  (data moves only inside a warp).
* ``register_permutation``: only the order of the register bases differs
  (no data leaves its thread).
* ``equivalent``: the same linear layout written two ways (a no-op).
* ``broadcast``: a layout larger than the tensor, so some bases are zero
  (several threads hold copies of an element).

Attribute-building helpers (:func:`blocked`, :func:`mma_v2`, :func:`mma_v3`,
:func:`dot_op`, :func:`slice_of`, :func:`linear`) print exactly Triton's text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from ltc.tools.convert_cli import DTYPE_BITS

DTYPES: tuple[str, ...] = tuple(DTYPE_BITS)
"""Element types a case may use (``ltc-layout convert --dtype``'s; fp8 as in ``tt``)."""

CATEGORIES: tuple[str, ...] = (
    "blocked_transpose",
    "blocked_reshape",
    "blocked_to_mma2",
    "mma2_to_blocked",
    "blocked_to_mma3",
    "mma3_to_blocked",
    "mma2_to_dot",
    "mma3_to_dot",
    "slice",
    "lane_permutation",
    "register_permutation",
    "equivalent",
    "broadcast",
)

THREADS_PER_WARP = 32


@dataclass(frozen=True)
class ConvertCase:
    """``convert_layout`` of a ``shape`` x ``dtype`` tensor from ``src`` to ``dst``
    (attribute texts, parents inline) with ``num_warps`` warps of 32 lanes."""

    name: str
    src: str
    dst: str
    shape: tuple[int, ...]
    dtype: str
    num_warps: int
    category: str

    @property
    def elem_bits(self) -> int:
        return DTYPE_BITS[self.dtype]


# --------------------------------------------------------------------------------------
# attribute text builders (Triton 3.9's printed form, single CTA)
# --------------------------------------------------------------------------------------
def _ints(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def _bases(bases: Sequence[Sequence[int]]) -> str:
    return "[" + ", ".join(_ints(b) for b in bases) + "]"


def blocked(spt: Sequence[int], tpw: Sequence[int], wpc: Sequence[int], order: Sequence[int]) -> str:
    return (
        f"#ttg.blocked<{{sizePerThread = {_ints(spt)}, threadsPerWarp = {_ints(tpw)}, "
        f"warpsPerCTA = {_ints(wpc)}, order = {_ints(order)}}}>"
    )


def mma_v2(wpc: Sequence[int], instr: Sequence[int] = (16, 8)) -> str:
    return (
        f"#ttg.nvidia_mma<{{versionMajor = 2, versionMinor = 0, warpsPerCTA = {_ints(wpc)}, "
        f"instrShape = {_ints(instr)}}}>"
    )


def mma_v3(wpc: Sequence[int], instr: Sequence[int]) -> str:
    return (
        f"#ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, warpsPerCTA = {_ints(wpc)}, "
        f"instrShape = {_ints(instr)}}}>"
    )


def dot_op(op_idx: int, parent: str, k_width: int) -> str:
    return f"#ttg.dot_op<{{opIdx = {op_idx}, parent = {parent}, kWidth = {k_width}}}>"


def slice_of(dim: int, parent: str) -> str:
    return f"#ttg.slice<{{dim = {dim}, parent = {parent}}}>"


def linear(
    register: Sequence[Sequence[int]],
    lane: Sequence[Sequence[int]],
    warp: Sequence[Sequence[int]],
    block: Sequence[Sequence[int]] = (),
) -> str:
    return (
        f"#ttg.linear<{{register = {_bases(register)}, lane = {_bases(lane)}, "
        f"warp = {_bases(warp)}, block = {_bases(block)}}}>"
    )


def linear_equivalent(attr: str, shape: Sequence[int]) -> str:
    """The ``#ttg.linear`` text with the same bases as ``attr`` at ``shape``."""
    import ltc  # only here: the case texts themselves need no ltc

    ll = ltc.to_linear_layout(attr, shape)
    return linear(*(ll.bases[d] for d in ("register", "lane", "warp", "block")))


def _shape_name(shape: Sequence[int]) -> str:
    return "x".join(str(s) for s in shape)


def _case(tag: str, category: str, src: str, dst: str, shape: Sequence[int], dtype: str, num_warps: int) -> ConvertCase:
    name = f"{tag}_{_shape_name(shape)}_{dtype}_w{num_warps}"
    return ConvertCase(name, src, dst, tuple(int(s) for s in shape), dtype, num_warps, category)


def _build_cases() -> tuple[ConvertCase, ...]:
    c: list[ConvertCase] = []
    add = c.append

    # -- blocked <-> blocked, transposed order ---------------------------------------
    cat = "blocked_transpose"
    add(_case("blkT", cat, blocked([1, 8], [4, 8], [4, 1], [1, 0]), blocked([8, 1], [8, 4], [1, 4], [0, 1]),
              [64, 64], "f16", 4))
    add(_case("blkT", cat, blocked([1, 8], [4, 8], [8, 1], [1, 0]), blocked([8, 1], [8, 4], [1, 8], [0, 1]),
              [128, 64], "f16", 8))
    add(_case("blkT", cat, blocked([1, 4], [1, 32], [4, 1], [1, 0]), blocked([4, 1], [32, 1], [1, 4], [0, 1]),
              [32, 128], "f32", 4))
    add(_case("blkT", cat, blocked([1, 16], [8, 4], [4, 1], [1, 0]), blocked([16, 1], [4, 8], [1, 4], [0, 1]),
              [64, 64], "i8", 4))
    add(_case("blkT", cat, blocked([1, 16], [8, 4], [8, 1], [1, 0]), blocked([16, 1], [4, 8], [1, 8], [0, 1]),
              [128, 64], "fp8e4nv", 8))
    add(_case("blkT", cat, blocked([1, 8], [4, 8], [8, 1], [1, 0]), blocked([8, 1], [8, 4], [1, 8], [0, 1]),
              [128, 128], "f16", 8))

    # -- blocked <-> blocked, same order, other sizes ---------------------------------
    cat = "blocked_reshape"
    add(_case("blkSpt", cat, blocked([1, 8], [4, 8], [4, 1], [1, 0]), blocked([1, 1], [1, 32], [4, 1], [1, 0]),
              [64, 64], "f16", 4))
    add(_case("blkTpw", cat, blocked([1, 4], [2, 16], [4, 1], [1, 0]), blocked([1, 4], [8, 4], [4, 1], [1, 0]),
              [64, 64], "f32", 4))
    add(_case("blkWpc", cat, blocked([1, 8], [4, 8], [4, 1], [1, 0]), blocked([1, 8], [4, 8], [1, 4], [1, 0]),
              [64, 64], "f16", 4))
    add(_case("blkWpc", cat, blocked([1, 8], [4, 8], [8, 1], [1, 0]), blocked([1, 8], [4, 8], [2, 4], [1, 0]),
              [128, 128], "f16", 8))
    add(_case("blkSpt", cat, blocked([1, 16], [16, 2], [8, 1], [1, 0]), blocked([1, 4], [4, 8], [8, 1], [1, 0]),
              [128, 32], "i8", 8))

    # -- blocked <-> mma v2 ----------------------------------------------------------
    add(_case("blk2mma2", "blocked_to_mma2", blocked([1, 8], [4, 8], [4, 1], [1, 0]), mma_v2([2, 2]),
              [64, 64], "f16", 4))
    add(_case("blk2mma2", "blocked_to_mma2", blocked([1, 4], [2, 16], [8, 1], [1, 0]), mma_v2([4, 2]),
              [128, 64], "f32", 8))
    add(_case("blk2mma2", "blocked_to_mma2", blocked([1, 4], [4, 8], [4, 1], [1, 0]), mma_v2([4, 1]),
              [64, 32], "i32", 4))
    add(_case("mma2blk", "mma2_to_blocked", mma_v2([2, 2]), blocked([1, 8], [4, 8], [4, 1], [1, 0]),
              [64, 64], "f16", 4))
    add(_case("mma2blk", "mma2_to_blocked", mma_v2([4, 2]), blocked([1, 4], [2, 16], [8, 1], [1, 0]),
              [128, 128], "f32", 8))
    add(_case("mma2blk", "mma2_to_blocked", mma_v2([4, 1]), blocked([1, 16], [8, 4], [4, 1], [1, 0]),
              [64, 64], "i8", 4))

    # -- blocked <-> mma v3 ----------------------------------------------------------
    add(_case("blk2mma3", "blocked_to_mma3", blocked([1, 8], [4, 8], [4, 1], [1, 0]), mma_v3([4, 1], [16, 64, 16]),
              [64, 64], "f16", 4))
    add(_case("blk2mma3", "blocked_to_mma3", blocked([1, 4], [2, 16], [8, 1], [1, 0]),
              mma_v3([8, 1], [16, 128, 16]), [128, 128], "f32", 8))
    add(_case("mma3blk", "mma3_to_blocked", mma_v3([4, 1], [16, 64, 16]), blocked([1, 4], [2, 16], [4, 1], [1, 0]),
              [128, 64], "f32", 4))
    add(_case("mma3blk", "mma3_to_blocked", mma_v3([8, 1], [16, 128, 16]), blocked([1, 8], [4, 8], [8, 1], [1, 0]),
              [128, 128], "f16", 8))
    add(_case("mma3blk", "mma3_to_blocked", mma_v3([4, 1], [16, 64, 32]), blocked([1, 16], [8, 4], [4, 1], [1, 0]),
              [64, 64], "fp8e4nv", 4))

    # -- mma v2 accumulator -> dot operand -------------------------------------------
    cat = "mma2_to_dot"
    m2_41, m2_22, m2_81 = mma_v2([4, 1]), mma_v2([2, 2]), mma_v2([8, 1])
    add(_case("mma2dot0k2", cat, m2_41, dot_op(0, m2_41, 2), [64, 64], "f16", 4))
    add(_case("mma2dot1k2", cat, m2_41, dot_op(1, m2_41, 2), [64, 64], "f16", 4))
    add(_case("mma2dot0k2", cat, m2_22, dot_op(0, m2_22, 2), [64, 64], "bf16", 4))
    add(_case("mma2dot0k4", cat, m2_41, dot_op(0, m2_41, 4), [64, 64], "i8", 4))
    add(_case("mma2dot1k4", cat, m2_41, dot_op(1, m2_41, 4), [64, 64], "fp8e5", 4))
    add(_case("mma2dot0k1", cat, m2_41, dot_op(0, m2_41, 1), [64, 32], "f32", 4))
    add(_case("mma2dot0k2", cat, m2_81, dot_op(0, m2_81, 2), [128, 64], "f16", 8))

    # -- mma v3 accumulator -> operand A of a chained wgmma ----------------------------
    cat = "mma3_to_dot"
    m3_64, m3_128, m3_fp8 = mma_v3([4, 1], [16, 64, 16]), mma_v3([8, 1], [16, 128, 16]), mma_v3([4, 1], [16, 64, 32])
    add(_case("mma3dot0k2", cat, m3_64, dot_op(0, m3_64, 2), [64, 64], "f16", 4))
    add(_case("mma3dot0k2", cat, m3_128, dot_op(0, m3_128, 2), [128, 128], "f16", 8))
    add(_case("mma3dot0k4", cat, m3_fp8, dot_op(0, m3_fp8, 4), [64, 64], "fp8e4nv", 4))
    m3_42 = mma_v3([4, 2], [16, 64, 16])  # operand A is shared by the two warps along N
    add(_case("mma3dot0k2", cat, m3_42, dot_op(0, m3_42, 2), [128, 128], "bf16", 8))

    # -- 1-D slices --------------------------------------------------------------------
    cat = "slice"
    b2 = blocked([1, 4], [4, 8], [4, 1], [1, 0])
    add(_case("slcB0toB1", cat, slice_of(0, b2), slice_of(1, b2), [128], "f32", 4))
    add(_case("slcMma2toB", cat, slice_of(1, mma_v2([4, 1])), slice_of(1, b2), [64], "f32", 4))
    add(_case("slcMma3toB", cat, slice_of(1, mma_v3([8, 1], [16, 64, 16])), blocked([1], [32], [8], [0]),
              [128], "f32", 8))
    add(_case("slcBtoB1d", cat, blocked([2], [32], [4], [0]), slice_of(0, blocked([1, 1], [4, 8], [1, 4], [0, 1])),
              [256], "f16", 4))
    add(_case("slcDotToB", cat, slice_of(1, dot_op(0, mma_v2([4, 1]), 2)), slice_of(1, b2), [64], "i8", 4))

    # -- lanes permuted inside a warp --------------------------------------------------
    cat = "lane_permutation"
    # 32x16: registers along dim1, lanes own a 8x4 grid of 1x4 strips, warps along dim0.
    reg, lanes, warps = [[0, 1], [0, 2]], [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], [[8, 0], [16, 0]]
    add(_case("laneRot", cat, linear(reg, lanes, warps), linear(reg, lanes[2:] + lanes[:2], warps),
              [32, 16], "f16", 4))
    add(_case("laneSwap", cat, linear(reg, lanes, warps), linear(reg, [lanes[4], *lanes[1:4], lanes[0]], warps),
              [32, 16], "f32", 4))
    # 64x32, 8 warps: 4 registers along dim1, lanes 4x8.
    reg8, lanes8, warps8 = [[0, 1], [0, 2]], [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], [[4, 0], [8, 0], [16, 0]]
    add(_case("laneRev", cat, linear(reg8 + [[32, 0]], lanes8, warps8),
              linear(reg8 + [[32, 0]], lanes8[::-1], warps8), [64, 32], "i8", 8))
    # Two blocked layouts with the same per-warp 8x32 tile and the same warp tiling,
    # threads ordered row-major in one and column-major in the other.
    add(_case("laneBlk", cat, blocked([1, 8], [8, 4], [4, 1], [1, 0]), linear(
        [[0, 1], [0, 2], [0, 4]], [[1, 0], [2, 0], [4, 0], [0, 8], [0, 16]], [[8, 0], [16, 0]]),
        [32, 32], "fp8e5", 4))

    # -- register permutations ---------------------------------------------------------
    cat = "register_permutation"
    lanes_a, warps_a = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], [[8, 0], [16, 0]]
    add(_case("regRev", cat, linear([[0, 1], [0, 2], [32, 0]], lanes_a, warps_a),
              linear([[32, 0], [0, 2], [0, 1]], lanes_a, warps_a), [64, 16], "f16", 4))
    add(_case("regSwap", cat, linear([[0, 1], [0, 2], [0, 16], [32, 0]], lanes_a, warps_a),
              linear([[0, 2], [0, 1], [32, 0], [0, 16]], lanes_a, warps_a), [64, 32], "f32", 4))
    add(_case("regRot", cat, linear([[0, 1], [0, 2], [0, 4], [0, 8]], [[0, 16], [0, 32], [1, 0], [2, 0], [4, 0]],
                                    [[8, 0], [16, 0], [32, 0]]),
              linear([[0, 4], [0, 8], [0, 1], [0, 2]], [[0, 16], [0, 32], [1, 0], [2, 0], [4, 0]],
                     [[8, 0], [16, 0], [32, 0]]), [64, 64], "i8", 8))
    add(_case("regMma2", cat, mma_v2([4, 1]), linear(
        *_permuted_registers(mma_v2([4, 1]), [64, 32])), [64, 32], "f32", 4))

    # -- the same layout written two ways -----------------------------------------------
    cat = "equivalent"
    eb = blocked([1, 8], [4, 8], [4, 1], [1, 0])
    add(_case("eqBlkLin", cat, eb, linear_equivalent(eb, [64, 64]), [64, 64], "f16", 4))
    em = mma_v2([2, 4])
    add(_case("eqMma2Lin", cat, em, linear_equivalent(em, [64, 64]), [64, 64], "f32", 8))
    add(_case("eqBlkOrder", cat, blocked([1, 1], [1, 32], [4, 1], [1, 0]), blocked([1, 1], [1, 32], [4, 1], [0, 1]),
              [32, 32], "i8", 4))
    add(_case("eqSame", cat, eb, eb, [64, 64], "f16", 4))

    # -- broadcast: layouts larger than the tensor ---------------------------------------
    cat = "broadcast"
    add(_case("brdBlkT", cat, blocked([1, 8], [4, 8], [4, 1], [1, 0]), blocked([8, 1], [8, 4], [1, 4], [0, 1]),
              [8, 32], "f16", 4))
    add(_case("brdMma2", cat, mma_v2([4, 2]), blocked([1, 4], [4, 8], [8, 1], [1, 0]), [16, 16], "f32", 8))
    add(_case("brdLinZero", cat, linear([[0, 1], [0, 2]], [[0, 4], [0, 8], [1, 0], [0, 0], [2, 0]],
                                        [[4, 0], [0, 0]]),
              blocked([1, 4], [4, 8], [4, 1], [1, 0]), [8, 16], "f16", 4))
    add(_case("brdToBlk", cat, blocked([1, 4], [4, 8], [4, 1], [1, 0]), blocked([1, 1], [32, 1], [1, 4], [0, 1]),
              [16, 16], "i8", 4))

    return tuple(c)


def _permuted_registers(attr: str, shape: Sequence[int]) -> tuple[list[list[int]], ...]:
    """``attr``'s bases at ``shape`` with the register bases in reverse order."""
    import ltc

    ll = ltc.to_linear_layout(attr, shape)
    reg = [list(b) for b in ll.bases["register"]][::-1]
    return (reg, *([list(b) for b in ll.bases[d]] for d in ("lane", "warp", "block")))


CASES: tuple[ConvertCase, ...] = _build_cases()
"""Every benchmark case, in category order; names are unique."""

CASES_BY_NAME: dict[str, ConvertCase] = {case.name: case for case in CASES}


def case_by_name(name: str) -> ConvertCase:
    return CASES_BY_NAME[name]


def num_elements(case: ConvertCase) -> int:
    return math.prod(case.shape)
