"""``#ttg.linear``: a distributed layout written directly as its bases.

The text lists the bases of the in dims ``register, lane, warp, block`` (all
four, printed in that order); the out dims are implicit: ``dim0..dim{N-1}``
with ``N`` the length of a basis, each sized as the smallest power of two
above its largest component. Triton accepts it only when every basis moves
along at most one dim by a power of two and, once the zero (broadcast) bases
are dropped, the map is a bijection (a permutation matrix).

Fitting to a tensor shape (Triton's ``LinearEncodingAttr::toLinearLayout``):
with the out dims listed in the layout's *order* (dims in the order the
register bases first move along them, the unmoved ones after, last dim
first),

1. a dim smaller than the shape repeats: extra register bases, fastest dim
   of that order first;
2. a dim larger than the shape is cut down, largest bases first: register
   bases are *dropped*, lane/warp/block bases become zero (broadcast).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ltc.attr_text import FieldReader, format_bases
from ltc.encodings.base import AliasFn, DistributedEncoding, EncodingError, check_shape, register_encoding
from ltc.layout_utils import (
    DISTRIBUTED_IN_DIMS,
    ensure_layout_not_larger_than,
    ensure_layout_not_smaller_than,
    standard_out_dim_names,
)
from ltc.linear_layout import LinearLayout

Bases = tuple[tuple[int, ...], ...]


def _check_permutation_bases(per_dim: dict[str, Bases], rank: int) -> None:
    """Every basis of length ``rank``, zero or a single power of two; the
    non-zero ones distinct and covering every out bit."""
    seen: set[tuple[int, ...]] = set()
    for in_dim, bases in per_dim.items():
        for b in bases:
            if len(b) != rank:
                raise EncodingError(
                    f"basis {list(b)} of '{in_dim}' has {len(b)} entries, expected {rank} "
                    "(the length of the first basis)",
                    in_dim,
                )
            nonzero = [c for c in b if c != 0]
            if any(c < 0 for c in b) or len(nonzero) > 1 or (nonzero and nonzero[0] & (nonzero[0] - 1)):
                raise EncodingError(
                    "LinearEncodingAttr requires a permutation matrix layout after removing broadcast bases "
                    f"(basis {list(b)} of '{in_dim}' must be zero or a single power of 2)",
                    in_dim,
                )
            if nonzero:
                if b in seen:
                    raise EncodingError(
                        "LinearEncodingAttr requires a permutation matrix layout after removing broadcast bases "
                        f"(basis {list(b)} of '{in_dim}' repeats)",
                        in_dim,
                    )
                seen.add(b)
    for d in range(rank):
        powers = sorted(b[d] for b in seen if b[d])
        if powers != [1 << i for i in range(len(powers))]:
            raise EncodingError(
                f"the bases along dim{d} must be 1, 2, 4, ... with no gap (got {powers}): a linear layout must "
                "cover every element",
                "register",
            )


@register_encoding
@dataclass(frozen=True)
class LinearEncoding(DistributedEncoding):
    """``#ttg.linear<{register, lane, warp, block}>``: bases per in dim."""

    register_bases: Bases
    lane_bases: Bases
    warp_bases: Bases
    block_bases: Bases

    mnemonic = "linear"

    def __post_init__(self) -> None:
        for name in ("register_bases", "lane_bases", "warp_bases", "block_bases"):
            object.__setattr__(self, name, tuple(tuple(int(c) for c in b) for b in getattr(self, name)))
        per_dim = self.bases_by_in_dim
        first = next((b for bases in per_dim.values() for b in bases), None)
        if first is None or not first:
            raise EncodingError("Empty Layout not supported", "register")
        _check_permutation_bases(per_dim, len(first))

    @classmethod
    def from_layout(cls, layout: LinearLayout) -> LinearEncoding:
        """The encoding holding ``layout``'s bases (in dims register, lane,
        warp, block; out dims dim0..)."""
        if layout.in_dim_names != list(DISTRIBUTED_IN_DIMS):
            raise EncodingError(
                f"a #ttg.linear layout needs in dims {list(DISTRIBUTED_IN_DIMS)}, got {layout.in_dim_names}"
            )
        if layout.out_dim_names != standard_out_dim_names(layout.num_out_dims):
            raise EncodingError(f"a #ttg.linear layout needs out dims dim0.., got {layout.out_dim_names}")
        return cls(*(tuple(layout.bases[d]) for d in DISTRIBUTED_IN_DIMS))

    @property
    def bases_by_in_dim(self) -> dict[str, Bases]:
        return {
            "register": self.register_bases,
            "lane": self.lane_bases,
            "warp": self.warp_bases,
            "block": self.block_bases,
        }

    @property
    def rank(self) -> int:
        return len(next(b for bases in self.bases_by_in_dim.values() for b in bases))

    @property
    def linear_layout(self) -> LinearLayout:
        """The layout as written (out sizes inferred)."""
        return LinearLayout.from_bases(
            {d: [list(b) for b in bs] for d, bs in self.bases_by_in_dim.items()},
            standard_out_dim_names(self.rank),
        )

    @property
    def order(self) -> tuple[int, ...]:
        """Dims in the order the register bases first move along them; dims
        they never move along follow, last dim first."""
        order: list[int] = []
        for b in self.register_bases:
            for d, c in enumerate(b):
                if c and d not in order:
                    order.append(d)
        order += [d for d in range(self.rank - 1, -1, -1) if d not in order]
        return tuple(order)

    def to_linear_layout(self, shape: Sequence[int]) -> LinearLayout:
        shape = check_shape(shape, self.rank, "#ttg.linear")
        names = standard_out_dim_names(self.rank)
        by_name = dict(zip(names, shape))
        layout = self.linear_layout.transpose_outs([names[d] for d in self.order])
        layout = ensure_layout_not_smaller_than(layout, by_name)
        layout = ensure_layout_not_larger_than(layout, by_name, broadcast_registers=False)
        return layout.transpose_outs(names)

    @classmethod
    def from_fields(cls, fields: FieldReader) -> LinearEncoding:
        for d in DISTRIBUTED_IN_DIMS:
            if not fields.has(d):
                raise EncodingError(f"Expected basis of '{d}' not found", d)
        enc = cls(*(fields.bases(d) for d in DISTRIBUTED_IN_DIMS))
        fields.finish()
        return enc

    def body_text(self, alias: AliasFn | None = None) -> str:
        fields = ", ".join(f"{d} = {format_bases(bs)}" for d, bs in self.bases_by_in_dim.items())
        return f"{{{fields}}}"

