"""``#ttg.nvidia_mma``: the accumulator of NVIDIA tensor-core MMAs (v2 = Ampere
``mma.sync``, v3 = Hopper ``wgmma``), and the register layout of their
operands.

One tile builder serves both. For a tile ``[.., m, n]`` whose fast ("inner")
dim has extent ``n`` and slow ("outer") dim extent ``m``, a warp holds, from
the lowest bit up:

    kWidth registers along inner, 4 lanes along inner, 8 lanes along outer,
    m/8 registers along outer, n/(4*kWidth) registers along inner.

* Accumulator: tile ``instrShape`` (v2: one entry per dim, only the last two
  matter; v3: ``[M, N, K]``, tile ``[M, N]``), ``kWidth = 2``, inner = last
  dim. Warps tile ``warpsPerCTA`` row-major (last dim fastest) for v2 and
  column-major (``[0, 1]``) for v3's warp groups.
* Operand A (opIdx 0, v2 and v3): tile ``[M, 8*kWidth]`` with ``M`` the
  accumulator tile's (16 for the usual instruction shapes), inner = K.
  Operand B (opIdx 1, v2 only): tile ``[8*kWidth, 8]``, inner = K. Warps as
  the accumulator's but broadcast along K; the CGA loses its K component.

Both are then fitted to the shape with the CGA (``combine_cta_cga_with_shape``);
the register repetitions this adds walk the out dims in the tile's repetition
order (row-major for the accumulator, K-contiguous for operands).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ltc.attr_text import FieldReader, format_ints
from ltc.encodings.base import (
    AliasFn,
    CGALayout,
    DistributedEncoding,
    EncodingError,
    check_shape,
    read_unsigned,
    read_unsigneds,
    register_encoding,
)
from ltc.encodings.blocked import check_pow2_list
from ltc.encodings.dot_operand import (
    broadcast_along_k,
    dot_operand_order,
    matrix_order,
    operand_cga_layout,
    operand_k_dim,
)
from ltc.layout_utils import combine_cta_cga_with_shape, identity_standard_nd, standard_out_dim_names
from ltc.linear_layout import LinearLayout

ACCUMULATOR_K_WIDTH = 2


def mma_tile_layout(
    tile_shape: Sequence[int], k_width: int, order: Sequence[int], rep_order: Sequence[int]
) -> LinearLayout:
    """The register/lane layout of one warp's MMA tile (see module docstring);
    ``order[0]`` is the inner dim, ``order[1]`` the outer one; out dims are
    listed in ``rep_order``."""
    rank = len(rep_order)
    names = standard_out_dim_names(rank)
    inner, outer = order[0], order[1]
    m, n = tile_shape[outer], tile_shape[inner]
    return (
        identity_standard_nd("register", [1] * rank, rep_order)
        * LinearLayout.identity_1d(k_width, "register", names[inner])
        * LinearLayout.identity_1d(4, "lane", names[inner])
        * LinearLayout.identity_1d(8, "lane", names[outer])
        * LinearLayout.identity_1d(m // 8, "register", names[outer])
        * LinearLayout.identity_1d(n // (4 * k_width), "register", names[inner])
    )


def _is_pow2(x: int) -> bool:
    return x > 0 and x & (x - 1) == 0


@register_encoding
@dataclass(frozen=True)
class NvidiaMmaEncoding(DistributedEncoding):
    """``#ttg.nvidia_mma<{versionMajor, versionMinor, warpsPerCTA[, CGALayout], instrShape}>``."""

    version_major: int
    version_minor: int
    warps_per_cta: tuple[int, ...]
    instr_shape: tuple[int, ...]
    cga: CGALayout = CGALayout()

    mnemonic = "nvidia_mma"

    def __post_init__(self) -> None:
        if self.version_major == 1:
            raise EncodingError("Volta (versionMajor = 1) is deprecated and no longer supported", "versionMajor")
        if self.version_major not in (2, 3):
            raise EncodingError(
                f"versionMajor must be 2 (Ampere) or 3 (Hopper), got {self.version_major}", "versionMajor"
            )
        if self.version_minor < 0:
            raise EncodingError(f"versionMinor must be non-negative, got {self.version_minor}", "versionMinor")
        rank = len(self.warps_per_cta)
        if rank < 2:
            raise EncodingError(f"warpsPerCTA {list(self.warps_per_cta)} must have at least 2 entries", "warpsPerCTA")
        check_pow2_list(self.warps_per_cta, "warpsPerCTA")
        if any(v < 0 for v in self.instr_shape):
            raise EncodingError(f"instrShape {list(self.instr_shape)} must not be negative", "instrShape")
        if self.is_hopper:
            if rank != 2:
                raise EncodingError(f"an MMA v3 layout has rank 2, but warpsPerCTA has {rank} entries", "warpsPerCTA")
            if len(self.instr_shape) < 2:
                raise EncodingError(
                    f"instrShape {list(self.instr_shape)} must be [M, N, K] for MMA v3", "instrShape"
                )
        elif len(self.instr_shape) != rank:
            raise EncodingError(
                f"instrShape {list(self.instr_shape)} must have one entry per dim ({rank}) for MMA v2", "instrShape"
            )
        m, n = self.tile_shape[-2:]
        for what, v in (("M", m), ("N", n)):
            if not _is_pow2(v) or v % 8:
                raise EncodingError(
                    f"instrShape {list(self.instr_shape)}: the tile's {what} extent ({v}) must be a power of 2 "
                    "and a multiple of 8",
                    "instrShape",
                )
        self.cga.check_rank(rank)

    @property
    def rank(self) -> int:
        return len(self.warps_per_cta)

    @property
    def is_hopper(self) -> bool:
        return self.version_major == 3

    @property
    def tile_shape(self) -> tuple[int, ...]:
        """One warp's accumulator tile: instrShape for v2, [M, N] for v3."""
        return self.instr_shape[:2] if self.is_hopper else self.instr_shape

    @property
    def warp_order(self) -> tuple[int, ...]:
        return matrix_order(self.rank, row_major=not self.is_hopper)

    def to_linear_layout(self, shape: Sequence[int]) -> LinearLayout:
        shape = check_shape(shape, self.rank, "#ttg.nvidia_mma")
        row_major = matrix_order(self.rank, row_major=True)
        tile = mma_tile_layout(self.tile_shape, ACCUMULATOR_K_WIDTH, row_major, row_major)
        warps = identity_standard_nd("warp", self.warps_per_cta, self.warp_order)
        cta = tile * warps.transpose_outs(tile.out_dim_names)
        return combine_cta_cga_with_shape(cta, self.cga.linear_layout(self.rank), shape)

    # -- as the parent of #ttg.dot_op
    def check_dot_operand(self, op_idx: int, k_width: int) -> None:
        """Reject operand parameters Triton rejects (or cannot lay out)."""
        if k_width == 0:
            raise EncodingError("ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent", "kWidth")
        if not _is_pow2(k_width):
            raise EncodingError(f"ttg.dot_op kWidth must be a power of 2, got {k_width}", "kWidth")
        if op_idx != 0 and self.is_hopper:
            raise EncodingError(
                "ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper WGMMA only allows "
                "first operand to be in registers",
                "opIdx",
            )

    def dot_operand_layout(self, shape: tuple[int, ...], op_idx: int, k_width: int) -> LinearLayout:
        """Layout of operand ``op_idx`` of a dot whose result has this layout."""
        self.check_dot_operand(op_idx, k_width)
        rank = self.rank
        shape = check_shape(shape, rank, "#ttg.dot_op")
        tile = [1] * rank
        tile[-2:] = [self.tile_shape[-2], 8 * k_width] if op_idx == 0 else [8 * k_width, 8]
        order = dot_operand_order(op_idx, rank)
        cta_tile = mma_tile_layout(tile, k_width, order, order)
        warps = broadcast_along_k("warp", self.warps_per_cta, self.warp_order, operand_k_dim(rank, op_idx))
        cta = cta_tile * warps.transpose_outs(cta_tile.out_dim_names)
        return combine_cta_cga_with_shape(cta, operand_cga_layout(self.cga, rank, op_idx), shape)

    @classmethod
    def from_fields(cls, fields: FieldReader) -> NvidiaMmaEncoding:
        """Triton 3.9's reading: both versions default to 0 (a missing
        ``versionMajor`` then fails the version check) and keys it does not
        know (the old ``CTAsPerCGA``/``CTASplitNum``/``CTAOrder`` ...) are
        ignored, so they are left unread here too (no ``finish()``)."""
        return cls(
            version_major=read_unsigned(fields, "versionMajor", "versionMajor", 0),
            version_minor=read_unsigned(fields, "versionMinor", "versionMinor", 0),
            warps_per_cta=read_unsigneds(fields, "warpsPerCTA", "warpsPerCTA"),
            instr_shape=read_unsigneds(fields, "instrShape", "instrShape"),
            cga=CGALayout.read(fields),
        )

    def body_text(self, alias: AliasFn | None = None) -> str:
        return (
            f"{{versionMajor = {self.version_major}, versionMinor = {self.version_minor}, "
            f"warpsPerCTA = {format_ints(self.warps_per_cta)}{self.cga.field_text()}, "
            f"instrShape = {format_ints(self.instr_shape)}}}"
        )
