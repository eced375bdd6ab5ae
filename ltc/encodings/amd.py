"""AMD matrix-core encodings: ``#ttg.amd_mfma`` (CDNA, wavefronts of 64 lanes)
and ``#ttg.amd_wmma`` (RDNA / gfx1250, wavefronts of 32 lanes), and the
``#ttg.dot_op`` operand layouts for both parents.

Notation: ``id(n, in, d)`` is the 1-d identity sending ``n`` values of hardware
dim ``in`` to consecutive indices of tensor dim ``d``; ``zeros(n, in, d)`` sends
them all to 0 (a broadcast); ``*`` is the direct product (left factor minor).
For a rank-``r`` tensor ``M = dim{r-2}`` and ``N = dim{r-1}``; a rank-3 tensor
has a leading batch dim ``dim0``. A layout is finally fitted to the tensor shape
with the CGA layout (``combine_cta_cga_with_shape``): extra ``register`` bits
where the shape is larger (fastest out dim first, in the out-dim order the
layout carries), zeroed (broadcast) bits where it is smaller.

MFMA result, instruction ``instrShape = [m, n, k]`` (``(m, n)`` is one of 32x32,
16x16, 64x4, 4x64), ``height = 1`` for 64-bit elements else 4 and
``t = m*n / (64*height)`` register groups per tile::

    not transposed: id(height, reg, M) * id(n, lane, N) * id(64/n, lane, M) * id(t, reg, M)
    transposed:     id(height, reg, N) * id(m, lane, M) * id(64/m, lane, N) * id(t, reg, N)

(64x4 must be transposed). With out dims in the order ``[N, M]`` the tile is then
multiplied by ``id(tilesPerWarp[N], reg, N) * id(warpsPerCTA[N], warp, N) *
id(R, reg, N) * id(tilesPerWarp[M], reg, M) * id(warpsPerCTA[M], warp, M)``
where ``R = shape[N] / (n * warpsPerCTA[N] * tilesPerWarp[N])`` (no factor when
that is below 2): every repeat along N is a register bit *before* the
``tilesPerWarp`` and warp bits of M. Rank 3 appends ``id(warpsPerCTA[0], warp,
dim0)``.

MFMA operand ``opIdx`` (K is the last dim for A, the one before for B; the
other matrix dim is "non-K", of size ``w = m`` for A and ``n`` for B)::

    id(kWidth, reg, K) * id(w, lane, nonK) * id(64/w, lane, K)
    * id(16, reg, K)                      (A of 64x4 or B of 4x64 only)
    * id(shape[K] / kTile, reg, K)        (when above 1; kTile = K covered so far)
    * id(tilesPerWarp[nonK], reg, nonK)
    * idND(warp, warpsPerCTA, order = [r-1, ..., 0])

with out-dim order ``[K, nonK(, batch)]``. Warps that land on K end up as zero
bases when the layout is fitted to the shape (they broadcast).

WMMA result: the attribute stores ``ctaLayout``, a linear layout from
``register`` and ``warp`` to the dims, in units of 16x16 (32x16) tiles. In
coordinates ``(a, b) = (dim[o0], dim[o1])`` with ``o = [N, M]`` (``[M, N]`` when
``isTranspose``) the tile is::

    v1:    reg (0,2),(0,4),(0,8);            lane (1,0),(2,0),(4,0),(8,0),(0,1)
    v2/v3: reg (0,1),(0,2),(0,4)[,(0,16)];   lane (1,0),(2,0),(4,0),(8,0),(0,8)

(the ``(0,16)`` register only for a 32x16 instruction: it stacks two 16x16
tiles along M, or along N when transposed), and the layout is
``tile * ctaLayout`` with out-dim order ``[N, M(, batch)]``.

WMMA operand: ``id(kWidth, reg, K) * id(16, lane, nonK) * L * id(kDim/(2*kWidth),
reg, K) * id(nonKDim/16, reg, nonK) * C`` (``nonKDim`` = the operand's side of
the result tile: 32 for A of a 32x16 tile, for B of a transposed one) where ``L = zeros(2, lane, K)`` for v1
(lanes 16..31 duplicate lanes 0..15) and ``id(2, lane, K)`` otherwise, and
``C`` is ``ctaLayout`` with its K components zeroed and its all-zero register
bases dropped. Out-dim order ``[K, nonK(, batch)]``.

CGA of the operands (as Triton 3.9): a WMMA operand uses the parent's CGA with
the K component of every block basis zeroed (CTAs along K share the operand);
an MFMA operand uses the parent's CGA unchanged.
"""

from __future__ import annotations

import math

from collections.abc import Sequence
from dataclasses import dataclass

from ltc.attr_text import FieldReader, format_bases, format_bool, format_ints
from ltc.encodings.base import (
    AliasFn,
    CGALayout,
    DistributedEncoding,
    EncodingError,
    check_shape,
    register_encoding,
)
from ltc.encodings.blocked import check_pow2_list
from ltc.layout_utils import (
    cga_linear_layout,
    combine_cta_cga_with_shape,
    identity_standard_nd,
    standard_out_dim_names,
)
from ltc.linear_layout import LayoutError, LinearLayout

MFMA_WAVE_SIZE = 64
WMMA_WAVE_SIZE = 32
WMMA_TILE = 16  # rows/columns of one WMMA result tile held by one wavefront
MFMA_SMALL_OPERAND_REPEAT = 16  # register repeats along K for the 64-wide operand of 64x4 / 4x64

MFMA_RESULT_SHAPES = ((32, 32), (16, 16), (64, 4), (4, 64))
WMMA_INSTR_SHAPES: dict[int, tuple[tuple[int, int, int], ...]] = {
    1: ((16, 16, 16),),
    2: ((16, 16, 16), (16, 16, 32)),
    3: ((16, 16, 4), (16, 16, 32), (16, 16, 64), (16, 16, 128), (32, 16, 64), (32, 16, 128)),
}
WMMA_DEFAULT_INSTR_SHAPE = (16, 16, 16)
SUPPORTED_RANKS = (2, 3)


# ----------------------------------------------------------------- helpers
def _check_rank(rank: int, field: str) -> None:
    if rank not in SUPPORTED_RANKS:
        raise EncodingError(f"{field} describes a rank-{rank} layout; only ranks 2 and 3 are supported", field)


def _id(n: int, in_dim: str, out_dim: str) -> LinearLayout:
    """``id(n, in, out)``; sizes below 2 give a size-1 factor (no bases)."""
    return LinearLayout.identity_1d(max(n, 1), in_dim, out_dim)


def _mn_dims(rank: int) -> tuple[str, str]:
    """Names of the M and N dims of a (batched) matrix of ``rank``."""
    names = standard_out_dim_names(rank)
    return names[rank - 2], names[rank - 1]


@dataclass(frozen=True)
class OperandDims:
    """Where K and the other matrix dim of a dot operand sit."""

    k_index: int
    non_k_index: int
    k: str
    non_k: str
    order: tuple[str, ...]  # [K, nonK(, batch)]: the operand layouts' out-dim order


def operand_dims(rank: int, op_idx: int) -> OperandDims:
    """K is the last dim of operand A (``opIdx = 0``) and the one before it of
    operand B (``opIdx = 1``)."""
    check_op_idx(op_idx)
    names = standard_out_dim_names(rank)
    k_index = rank - 1 if op_idx == 0 else rank - 2
    non_k_index = rank - 2 if op_idx == 0 else rank - 1
    batch = tuple(names[:-2])
    return OperandDims(
        k_index, non_k_index, names[k_index], names[non_k_index], (names[k_index], names[non_k_index]) + batch
    )


def check_op_idx(op_idx: int) -> None:
    if op_idx not in (0, 1):
        raise EncodingError(f"ttg.dot_op opIdx parameter can be 0 or 1, got: {op_idx}", "opIdx")


def _check_k_width_pow2(k_width: int, parent: str) -> None:
    if k_width <= 0:
        raise EncodingError(f"ttg.dot_op kWidth parameter is mandatory for {parent}", "kWidth")
    if k_width & (k_width - 1):
        raise EncodingError(
            f"ttg.dot_op kWidth = {k_width} for {parent}: the operand layout needs a power of 2", "kWidth"
        )


def operand_cga_layout(cga: CGALayout, rank: int, k_index: int) -> LinearLayout:
    """The CGA layout of a dot operand: the parent's, with the K component of
    every block basis zeroed (CTAs that split the result along K share the
    operand)."""
    return cga_linear_layout([[0 if i == k_index else c for i, c in enumerate(b)] for b in cga.block_bases], rank)


def _multiply_in_order(inner: LinearLayout, outer: LinearLayout) -> LinearLayout:
    """``inner * outer`` after putting ``outer``'s out dims in ``inner``'s order
    (the dims ``inner`` lacks go last, in ``outer``'s order). The bases of a
    product do not depend on out-dim order; this only keeps the merge defined."""
    order = [d for d in inner.out_dim_names if outer.has_out_dim(d)]
    order += [d for d in outer.out_dim_names if d not in order]
    return inner * outer.transpose_outs(order)


# -------------------------------------------------------------------- MFMA
class _InstructionTile:
    """The M and N extents of one matrix instruction (``instrShape[:2]``),
    shared by the MFMA and WMMA encodings."""

    instr_shape: tuple[int, ...]

    @property
    def m_dim(self) -> int:
        return self.instr_shape[0]

    @property
    def n_dim(self) -> int:
        return self.instr_shape[1]


@register_encoding
@dataclass(frozen=True)
class AMDMfmaEncoding(_InstructionTile, DistributedEncoding):
    """``#ttg.amd_mfma<{version, warpsPerCTA, instrShape, isTransposed[, CGALayout]
    [, tilesPerWarp][, elementBitWidth]}>``; ``tilesPerWarp`` is printed only
    when not all ones, ``elementBitWidth`` only when not 32."""

    version: int
    warps_per_cta: tuple[int, ...]
    instr_shape: tuple[int, ...]
    is_transposed: bool = False
    cga: CGALayout = CGALayout()
    tiles_per_warp: tuple[int, ...] = ()  # () means all ones
    element_bit_width: int = 32

    mnemonic = "amd_mfma"

    def __post_init__(self) -> None:
        if not 0 <= self.version <= 4:
            raise EncodingError(f"version must be in the [0, 4] range, got {self.version}", "version")
        rank = len(self.warps_per_cta)
        _check_rank(rank, "warpsPerCTA")
        check_pow2_list(self.warps_per_cta, "warpsPerCTA")
        if len(self.instr_shape) not in (2, 3) or any(s <= 0 for s in self.instr_shape):
            raise EncodingError(
                f"instrShape {list(self.instr_shape)} must be [M, N] or [M, N, K] with positive entries", "instrShape"
            )
        if tuple(self.instr_shape[:2]) not in MFMA_RESULT_SHAPES:
            m, n = self.instr_shape[:2]
            raise EncodingError(f"invalid (mDim, nDim) combination: ({m}, {n})", "instrShape")
        if not self.tiles_per_warp:
            object.__setattr__(self, "tiles_per_warp", (1,) * rank)
        if len(self.tiles_per_warp) != rank:
            raise EncodingError(
                f"tilesPerWarp has {len(self.tiles_per_warp)} entries but warpsPerCTA has {rank}", "tilesPerWarp"
            )
        check_pow2_list(self.tiles_per_warp, "tilesPerWarp")
        if self.element_bit_width not in (32, 64):
            raise EncodingError(
                f"elementBitWidth must be 32 or 64, got {self.element_bit_width}", "elementBitWidth"
            )
        self.cga.check_rank(rank)

    @property
    def rank(self) -> int:
        return len(self.warps_per_cta)

    @property
    def num_warps(self) -> int:
        return math.prod(self.warps_per_cta)

    def _result_tile(self) -> LinearLayout:
        """One instruction's result held by one wavefront (out dims ``[N, M]``)."""
        dim_m, dim_n = _mn_dims(self.rank)
        m, n = self.m_dim, self.n_dim
        height = 1 if self.element_bit_width == 64 else 4
        groups = (m * n) // (MFMA_WAVE_SIZE * height)
        if not self.is_transposed:
            # lanes walk N first; each lane holds `height` rows of M
            tile = (
                _id(height, "register", dim_m)
                * _id(n, "lane", dim_n)
                * _id(MFMA_WAVE_SIZE // n, "lane", dim_m)
                * _id(groups, "register", dim_m)
            )
        else:
            tile = (
                _id(height, "register", dim_n)
                * _id(m, "lane", dim_m)
                * _id(MFMA_WAVE_SIZE // m, "lane", dim_n)
                * _id(groups, "register", dim_n)
            )
        return tile.transpose_outs([dim_n, dim_m])

    def to_linear_layout(self, shape: Sequence[int]) -> LinearLayout:
        shape = check_shape(shape, self.rank, "#ttg.amd_mfma")
        if (self.m_dim, self.n_dim) == (64, 4) and not self.is_transposed:
            raise EncodingError("a 64x4 MFMA result layout must be transposed (isTransposed = true)", "isTransposed")
        rank = self.rank
        dim_m, dim_n = _mn_dims(rank)
        tiles_m, tiles_n = self.tiles_per_warp[rank - 2], self.tiles_per_warp[rank - 1]
        warps_m, warps_n = self.warps_per_cta[rank - 2], self.warps_per_cta[rank - 1]
        # Tiles are numbered N-contiguously over the whole tensor: all the
        # repeats along N come before the tilesPerWarp and warps along M.
        n_repeats = shape[rank - 1] // (self.n_dim * warps_n * tiles_n)
        layout = (
            self._result_tile()
            * _id(tiles_n, "register", dim_n)
            * _id(warps_n, "warp", dim_n)
            * _id(n_repeats, "register", dim_n)
            * _id(tiles_m, "register", dim_m)
            * _id(warps_m, "warp", dim_m)
        )
        if rank == 3:
            layout = (
                layout
                * _id(1, "register", "dim0")
                * _id(1, "lane", "dim0")
                * _id(self.warps_per_cta[0], "warp", "dim0")
            )
        return combine_cta_cga_with_shape(layout, self.cga.linear_layout(rank), shape)

    # -- dot operands
    def check_dot_operand(self, op_idx: int, k_width: int) -> None:
        """Triton requires a non-zero ``kWidth`` for an MFMA parent; the layout
        needs it to be a power of 2."""
        check_op_idx(op_idx)
        _check_k_width_pow2(k_width, "MFMA parent")

    def dot_operand_layout(self, shape: tuple[int, ...], op_idx: int, k_width: int) -> LinearLayout:
        """Layout of operand ``op_idx`` (0 = A, 1 = B) of a dot whose result is
        in this encoding, each lane holding ``k_width`` consecutive K elements."""
        self.check_dot_operand(op_idx, k_width)
        shape = check_shape(shape, self.rank, "#ttg.dot_op with an #ttg.amd_mfma parent")
        dims = operand_dims(self.rank, op_idx)
        non_k_lanes = self.m_dim if op_idx == 0 else self.n_dim
        tile = (
            _id(k_width, "register", dims.k)
            * _id(non_k_lanes, "lane", dims.non_k)
            * _id(MFMA_WAVE_SIZE // non_k_lanes, "lane", dims.k)
        )
        k_tile = MFMA_WAVE_SIZE // non_k_lanes * k_width
        if non_k_lanes == 64:  # A of 64x4 or B of 4x64: the wide operand repeats along K
            tile = tile * _id(MFMA_SMALL_OPERAND_REPEAT, "register", dims.k)
            k_tile *= MFMA_SMALL_OPERAND_REPEAT
        if shape[dims.k_index] > k_tile:
            tile = tile * _id(shape[dims.k_index] // k_tile, "register", dims.k)
        tile = tile * _id(self.tiles_per_warp[dims.non_k_index], "register", dims.non_k)
        tile = tile.transpose_outs([dims.k, dims.non_k])
        if self.rank == 3:
            tile = tile * _id(1, "register", "dim0") * _id(1, "lane", "dim0")
        warps = identity_standard_nd("warp", self.warps_per_cta, list(range(self.rank - 1, -1, -1)))
        layout = _multiply_in_order(tile, warps)
        # (an MFMA operand keeps the parent's CGA layout unchanged, as Triton does)
        return combine_cta_cga_with_shape(layout.transpose_outs(dims.order), self.cga.linear_layout(self.rank), shape)

    # -- text
    @classmethod
    def from_fields(cls, fields: FieldReader) -> AMDMfmaEncoding:
        """Triton 3.9's reading: ``version`` defaults to 0 and keys it does not
        know (``isTranspose``, the old ``CTAsPerCGA`` ...) are ignored, so they
        are left unread here too (no ``finish()``)."""
        return cls(
            version=fields.int("version", default=0),
            warps_per_cta=fields.ints("warpsPerCTA"),
            instr_shape=fields.ints("instrShape"),
            is_transposed=fields.bool("isTransposed", default=False),
            cga=CGALayout.read(fields),
            tiles_per_warp=fields.ints("tilesPerWarp", default=()),
            element_bit_width=fields.int("elementBitWidth", default=32),
        )

    def body_text(self, alias: AliasFn | None = None) -> str:
        unit_tiles = all(t == 1 for t in self.tiles_per_warp)
        tiles = "" if unit_tiles else f", tilesPerWarp = {format_ints(self.tiles_per_warp)}"
        width = "" if self.element_bit_width == 32 else f", elementBitWidth = {self.element_bit_width}"
        return (
            f"{{version = {self.version}, warpsPerCTA = {format_ints(self.warps_per_cta)}, "
            f"instrShape = {format_ints(self.instr_shape)}, isTransposed = {format_bool(self.is_transposed)}"
            f"{self.cga.field_text()}{tiles}{width}}}"
        )


# -------------------------------------------------------------------- WMMA
Bases = tuple[tuple[int, ...], ...]


@register_encoding
@dataclass(frozen=True)
class AMDWmmaEncoding(_InstructionTile, DistributedEncoding):
    """``#ttg.amd_wmma<{version, isTranspose, ctaLayout = {[register = ...,]
    warp = ...}[, CGALayout][, instrShape]}>``; ``instrShape`` is printed only
    when not ``[16, 16, 16]``.

    ``ctaLayout`` places the 16x16 (or 32x16) instruction tiles: its bases are
    in units of tiles. Triton reads an optional ``rank`` field (default: the
    length of the bases, else 2) but never prints it.
    """

    version: int
    is_transposed: bool
    warp_bases: Bases
    register_bases: Bases = ()
    cga: CGALayout = CGALayout()
    instr_shape: tuple[int, ...] = WMMA_DEFAULT_INSTR_SHAPE
    tensor_rank: int = 2

    mnemonic = "amd_wmma"

    def __post_init__(self) -> None:
        if not 1 <= self.version <= 3:
            raise EncodingError(f"WMMA version must be in the [1, 3] range, got {self.version}", "version")
        _check_rank(self.tensor_rank, "rank")
        if tuple(self.instr_shape) not in WMMA_INSTR_SHAPES[self.version]:
            valid = ", ".join(format_ints(s) for s in WMMA_INSTR_SHAPES[self.version])
            raise EncodingError(
                f"invalid WMMA v{self.version} instruction shape {format_ints(self.instr_shape)} (valid: {valid})",
                "instrShape",
            )
        for name, bases in (("register", self.register_bases), ("warp", self.warp_bases)):
            for b in bases:
                if len(b) != self.tensor_rank or any(c < 0 for c in b):
                    raise EncodingError(
                        f"ctaLayout {name} basis {list(b)} must have {self.tensor_rank} non-negative entries",
                        "ctaLayout",
                    )
        try:
            self.cta_layout()
        except LayoutError:
            raise EncodingError(
                "ctaLayout must reach every tile index below its extent (a surjective layout)", "ctaLayout"
            ) from None
        self.cga.check_rank(self.tensor_rank)

    @property
    def rank(self) -> int:
        return self.tensor_rank

    @property
    def k_dim(self) -> int:
        return self.instr_shape[2]

    @property
    def num_warps(self) -> int:
        return 1 << len(self.warp_bases)

    def cta_layout(self) -> LinearLayout:
        """The stored ``ctaLayout``: ``register``, ``warp`` to tile indices."""
        return LinearLayout.from_bases(
            {"register": self.register_bases, "warp": self.warp_bases}, standard_out_dim_names(self.rank)
        )

    def _result_tile(self) -> LinearLayout:
        """One instruction's result held by one wavefront (standard out order)."""
        rank = self.rank
        dim_m, dim_n = _mn_dims(rank)
        first, second = (dim_m, dim_n) if self.is_transposed else (dim_n, dim_m)
        if self.version == 1:
            regs = [(0, 2), (0, 4), (0, 8)]
            lanes = [(1, 0), (2, 0), (4, 0), (8, 0), (0, 1)]
        else:
            regs = [(0, 1), (0, 2), (0, 4)]
            if (self.m_dim, self.n_dim) == (32, 16):  # two 16x16 tiles stacked, more registers
                regs.append((0, 16))
            lanes = [(1, 0), (2, 0), (4, 0), (8, 0), (0, 8)]
        tile = LinearLayout.from_bases({"register": regs, "lane": lanes}, [first, second])
        if rank == 3:
            tile = tile * _id(1, "register", "dim0") * _id(1, "lane", "dim0")
        return tile.transpose_outs(standard_out_dim_names(rank))

    def to_linear_layout(self, shape: Sequence[int]) -> LinearLayout:
        shape = check_shape(shape, self.rank, "#ttg.amd_wmma")
        layout = self._result_tile() * self.cta_layout()
        layout = layout.transpose_outs(list(reversed(standard_out_dim_names(self.rank))))
        return combine_cta_cga_with_shape(layout, self.cga.linear_layout(self.rank), shape)

    # -- dot operands
    def check_dot_operand(self, op_idx: int, k_width: int) -> None:
        """Triton's rule: kWidth 8 or 16 for v1, 4, 8 or 16 for v2, non-zero
        for v3 (which the layout needs to be a power of 2)."""
        check_op_idx(op_idx)
        allowed = {1: (8, 16), 2: (4, 8, 16)}.get(self.version)
        if allowed is not None and k_width not in allowed:
            choices = "/".join(str(k) for k in allowed)
            raise EncodingError(
                f"ttg.dot_op kWidth parameter must be {choices} for WMMA v{self.version} "
                f"(including packed cases for `scaled_dot`), got {k_width}",
                "kWidth",
            )
        _check_k_width_pow2(k_width, f"WMMA v{self.version}")

    def dot_operand_layout(self, shape: tuple[int, ...], op_idx: int, k_width: int) -> LinearLayout:
        """Layout of operand ``op_idx`` (0 = A, 1 = B) of a dot whose result is
        in this encoding, each lane holding ``k_width`` consecutive K elements."""
        self.check_dot_operand(op_idx, k_width)
        shape = check_shape(shape, self.rank, "#ttg.dot_op with an #ttg.amd_wmma parent")
        dims = operand_dims(self.rank, op_idx)
        depth = WMMA_WAVE_SIZE // WMMA_TILE  # lane groups along K
        upper_lanes = (
            LinearLayout.zeros_1d(depth, "lane", dims.k) if self.version == 1 else _id(depth, "lane", dims.k)
        )
        # a transposed 32x16 result stacks its two 16x16 tiles along N
        tile_m, tile_n = (self.n_dim, self.m_dim) if self.is_transposed else (self.m_dim, self.n_dim)
        non_k_dim = tile_m if op_idx == 0 else tile_n
        tile = (
            _id(k_width, "register", dims.k)
            * _id(WMMA_TILE, "lane", dims.non_k)
            * upper_lanes
            * _id(self.k_dim // (depth * k_width), "register", dims.k)
            * _id(non_k_dim // WMMA_TILE, "register", dims.non_k)
        )
        layout = _multiply_in_order(tile, self._operand_cta_layout(dims.k_index))
        return combine_cta_cga_with_shape(
            layout.transpose_outs(dims.order), operand_cga_layout(self.cga, self.rank, dims.k_index), shape
        )

    def _operand_cta_layout(self, k_index: int) -> LinearLayout:
        """``ctaLayout`` seen by an operand: K components zeroed (the operand
        is shared by the tiles along K) and the register bases that became
        zero dropped."""

        def project(bases: Bases) -> list[list[int]]:
            return [[0 if i == k_index else c for i, c in enumerate(b)] for b in bases]

        registers = [b for b in project(self.register_bases) if any(b)]
        return LinearLayout.from_bases(
            {"register": registers, "warp": project(self.warp_bases)}, standard_out_dim_names(self.rank)
        )

    # -- text
    @classmethod
    def from_fields(cls, fields: FieldReader) -> AMDWmmaEncoding:
        """Triton 3.9's reading: ``version`` defaults to 0 (which then fails the
        version check) and keys it does not know, at the top or inside
        ``ctaLayout``, are ignored, so they are left unread (no ``finish()``)."""
        version = fields.int("version", default=0)
        is_transposed = fields.bool("isTranspose", default=False)
        cta = fields.dict("ctaLayout")
        register_bases = cta.bases("register", default=())
        warp_bases = cta.bases("warp", default=())
        cga = CGALayout.read(fields)
        instr_shape = fields.ints("instrShape", default=WMMA_DEFAULT_INSTR_SHAPE)
        deduced = next((len(b) for b in warp_bases + register_bases + cga.block_bases), None)
        rank = fields.int("rank", default=deduced if deduced is not None else 2)
        if deduced is not None and rank != deduced:
            raise EncodingError(f"rank = {rank} but the bases have {deduced} entries", "rank")
        return cls(
            version=version,
            is_transposed=is_transposed,
            warp_bases=warp_bases,
            register_bases=register_bases,
            cga=cga,
            instr_shape=instr_shape,
            tensor_rank=rank,
        )

    def body_text(self, alias: AliasFn | None = None) -> str:
        # Triton prints an empty ``warp`` list as nothing (``ctaLayout = {}``)
        # but its parser requires the key, so ltc always prints ``warp``: the
        # text then re-reads in Triton, which re-prints it as its own.
        cta = []
        if self.register_bases:
            cta.append(f"register = {format_bases(self.register_bases)}")
        cta.append(f"warp = {format_bases(self.warp_bases)}")
        default_instr = tuple(self.instr_shape) == WMMA_DEFAULT_INSTR_SHAPE
        instr = "" if default_instr else f", instrShape = {format_ints(self.instr_shape)}"
        return (
            f"{{version = {self.version}, isTranspose = {format_bool(self.is_transposed)}, "
            f"ctaLayout = {{{', '.join(cta)}}}{self.cga.field_text()}{instr}}}"
        )
