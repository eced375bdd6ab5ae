"""``#ttg.blocked``: each thread holds a contiguous block of elements.

Per CTA the layout is the product, minor to major, of

    identity(register over sizePerThread) * identity(lane over threadsPerWarp)
    * identity(warp over warpsPerCTA),

each an N-d identity walking the dims in ``order`` (fastest first). The CTA tile
is then fitted to the tensor shape together with the CGA layout
(``combine_cta_cga_with_shape``): extra register bases when the shape is
larger, zero (broadcast) lane/warp bases when it is smaller; register bits
beyond a smaller shape are dropped, as Triton 3.9 does for this encoding.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ltc.attr_text import FieldReader, format_ints
from ltc.encodings.base import (
    AliasFn,
    CGALayout,
    DistributedEncoding,
    EncodingError,
    check_shape,
    read_unsigneds,
    register_encoding,
)
from ltc.layout_utils import combine_cta_cga_with_shape, identity_standard_nd
from ltc.linear_layout import LinearLayout


def check_order(order: Sequence[int], rank: int, field: str = "order") -> None:
    """``order`` must be a permutation of ``0..rank-1``."""
    if sorted(order) != list(range(rank)):
        raise EncodingError(f"{field} {list(order)} is not a permutation of 0..{rank - 1}", field)


def check_pow2_list(values: Sequence[int], field: str) -> None:
    for v in values:
        if v <= 0 or v & (v - 1):
            raise EncodingError(f"{field} {list(values)}: every entry must be a positive power of 2", field)


@register_encoding
@dataclass(frozen=True)
class BlockedEncoding(DistributedEncoding):
    """``#ttg.blocked<{sizePerThread, threadsPerWarp, warpsPerCTA, order[, CGALayout]}>``."""

    size_per_thread: tuple[int, ...]
    threads_per_warp: tuple[int, ...]
    warps_per_cta: tuple[int, ...]
    order: tuple[int, ...]
    cga: CGALayout = CGALayout()

    mnemonic = "blocked"

    def __post_init__(self) -> None:
        rank = len(self.order)
        for name, vals in (
            ("sizePerThread", self.size_per_thread),
            ("threadsPerWarp", self.threads_per_warp),
            ("warpsPerCTA", self.warps_per_cta),
        ):
            if len(vals) != rank:
                raise EncodingError(f"{name} has {len(vals)} entries but order has {rank}", name)
            check_pow2_list(vals, name)
        check_order(self.order, rank)
        self.cga.check_rank(rank)

    @property
    def rank(self) -> int:
        return len(self.order)

    @property
    def threads_per_warp_total(self) -> int:
        return math.prod(self.threads_per_warp)

    @property
    def num_warps(self) -> int:
        return math.prod(self.warps_per_cta)

    def cta_layout(self) -> LinearLayout:
        """The per-CTA tile, before fitting to a shape (out dims in ``order``)."""
        return (
            identity_standard_nd("register", self.size_per_thread, self.order)
            * identity_standard_nd("lane", self.threads_per_warp, self.order)
            * identity_standard_nd("warp", self.warps_per_cta, self.order)
        )

    def to_linear_layout(self, shape: Sequence[int]) -> LinearLayout:
        shape = check_shape(shape, self.rank, "#ttg.blocked")
        # Triton 3.9 drops (rather than zeroes) the register bits of a blocked
        # tile that exceed a smaller shape; the differential tests pin this.
        return combine_cta_cga_with_shape(
            self.cta_layout(), self.cga.linear_layout(self.rank), shape, broadcast_registers=False
        )

    @classmethod
    def from_fields(cls, fields: FieldReader) -> BlockedEncoding:
        enc = cls(
            size_per_thread=read_unsigneds(fields, "sizePerThread", "number of elements per thread"),
            threads_per_warp=read_unsigneds(fields, "threadsPerWarp", "number of threads per warp"),
            warps_per_cta=read_unsigneds(fields, "warpsPerCTA", "number of warps per CTA"),
            order=read_unsigneds(fields, "order", "order"),
            cga=CGALayout.read(fields),
        )
        fields.finish()
        return enc

    def body_text(self, alias: AliasFn | None = None) -> str:
        return (
            f"{{sizePerThread = {format_ints(self.size_per_thread)}, "
            f"threadsPerWarp = {format_ints(self.threads_per_warp)}, "
            f"warpsPerCTA = {format_ints(self.warps_per_cta)}, "
            f"order = {format_ints(self.order)}{self.cga.field_text()}}}"
        )


def blocked_for_shape(
    shape: Sequence[int],
    size_per_thread: Sequence[int],
    order: Sequence[int],
    num_warps: int,
    threads_per_warp: int = 32,
) -> BlockedEncoding:
    """The blocked layout Triton builds for ``shape`` from ``sizePerThread`` and ``order``.

    Walking ``order`` (fastest dim first) over all dims but the last: the threads a dim
    can use are ``clamp(remaining threads, 1, max(1, shape[d] / sizePerThread[d]))``;
    lanes take ``clamp(threads, 1, lanes left)`` of them and warps
    ``clamp(threads / lanes, 1, warps left)``. The last dim in ``order`` takes the lanes
    and warps that remain, so lanes multiply to ``threads_per_warp`` and warps to
    ``num_warps`` whatever the shape (small shapes broadcast). ``shape`` must have rank
    >= 1 and power-of-two (or zero) dims (``EncodingError`` otherwise).
    """
    return _blocked_for_shape(tuple(shape), tuple(size_per_thread), tuple(order), num_warps, threads_per_warp)


# A pure function of its arguments, asked for every tensor of a module (the default
# layout, coalescing); building the encoding checks its CGA and fields each time.
@lru_cache(maxsize=1024)
def _blocked_for_shape(
    shape: tuple[int, ...], size_per_thread: tuple[int, ...], order: tuple[int, ...], num_warps: int, threads_per_warp: int
) -> BlockedEncoding:
    rank = len(shape)
    if rank == 0:
        raise EncodingError("a rank-0 shape has no blocked layout")
    if any(d < 0 or d & (d - 1) for d in shape):
        raise EncodingError(f"shape {list(shape)}: every size must be 0 or a power of 2", "shape")
    if len(size_per_thread) != rank or len(order) != rank:
        raise EncodingError(f"sizePerThread {list(size_per_thread)} and order {list(order)} need rank {rank}")
    check_order(order, rank)
    check_pow2_list(size_per_thread, "sizePerThread")
    check_pow2_list([num_warps], "num-warps")
    check_pow2_list([threads_per_warp], "threads-per-warp")
    lanes = [1] * rank
    warps = [1] * rank
    lanes_left, warps_left, threads_left = threads_per_warp, num_warps, num_warps * threads_per_warp
    for d in order[:-1]:
        threads = min(max(threads_left, 1), max(1, shape[d] // size_per_thread[d]))
        lanes[d] = min(max(threads, 1), lanes_left)
        warps[d] = min(max(threads // lanes[d], 1), warps_left)
        lanes_left //= lanes[d]
        warps_left //= warps[d]
        threads_left //= threads
    last = order[-1]
    lanes[last] = lanes_left
    warps[last] = warps_left
    return BlockedEncoding(tuple(size_per_thread), tuple(lanes), tuple(warps), tuple(order))


def dot_result_blocked(shape: Sequence[int], num_warps: int, threads_per_warp: int = 32) -> BlockedEncoding:
    """Triton's layout for a ``tt.dot`` result (``convert-triton-to-tritongpu``): each
    thread holds a square of the two last dims, 2 x 2 when the tensor has at least 4
    elements per thread, 4 x 4 from 16 (each side at most the dim's size), row-major —
    so an FMA dot reads each operand element it loads for several results."""
    rank = len(shape)
    if rank < 2:
        return default_blocked(shape, num_warps, threads_per_warp)
    per_thread = math.prod(shape) // (num_warps * threads_per_warp)
    side = 4 if per_thread >= 16 else 2 if per_thread >= 4 else 1
    spt = [1] * rank
    spt[-1], spt[-2] = min(side, shape[-1]), min(side, shape[-2])
    return blocked_for_shape(shape, spt, list(range(rank - 1, -1, -1)), num_warps, threads_per_warp)


def default_blocked(shape: Sequence[int], num_warps: int, threads_per_warp: int = 32) -> BlockedEncoding:
    """Triton's default layout for a tensor of ``shape``: one element per thread per
    tile, row-major order (``convert-triton-to-tritongpu``)."""
    rank = len(shape)
    return blocked_for_shape(shape, [1] * rank, list(range(rank - 1, -1, -1)), num_warps, threads_per_warp)
