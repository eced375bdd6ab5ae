"""``#ttg.slice``: the layout of a tensor that lost dim ``dim`` of a tensor laid
out by ``parent`` (the result of a reduction along ``dim``, or the operand of
an ``expand_dims`` at ``dim``).

For a shape ``s`` of rank ``r``:

1. take the parent's layout ``P`` at the shape ``s`` with a 1 inserted at
   ``dim`` (rank ``r+1``); every basis of ``P`` is then zero along ``dim``;
2. drop out dim ``dim`` (the remaining ones are renamed ``dim0..dim{r-1}``);
3. drop the register bases that became all zero (registers that only walked
   along ``dim``); zero lane, warp and block bases stay (those threads hold
   copies).

Any distributed parent works, slices included (nested slices peel one dim
each), since only ``parent.to_linear_layout`` is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ltc.attr_text import FieldReader
from ltc.encodings.base import AliasFn, DistributedEncoding, Encoding, EncodingError, check_shape, register_encoding
from ltc.layout_utils import standard_out_dim_names
from ltc.linear_layout import LinearLayout


def remove_out_dim(layout: LinearLayout, dim: int) -> LinearLayout:
    """Drop the ``dim``-th out dim of a layout with out dims ``dim0..``
    (renaming the rest to ``dim0..``) and the register bases left all zero."""
    keep = [i for i in range(layout.num_out_dims) if i != dim]
    sizes = list(layout.out_dims.values())
    names = standard_out_dim_names(len(keep))
    bases: dict[str, list[tuple[int, ...]]] = {}
    for in_dim, in_bases in layout.bases.items():
        projected = [tuple(b[i] for i in keep) for b in in_bases]
        if in_dim == "register":
            projected = [b for b in projected if any(b)]
        bases[in_dim] = projected
    return LinearLayout.from_bases(bases, {n: sizes[i] for n, i in zip(names, keep)})


@register_encoding
@dataclass(frozen=True)
class SliceEncoding(DistributedEncoding):
    """``#ttg.slice<{dim, parent}>``."""

    dim: int
    parent: DistributedEncoding

    mnemonic = "slice"

    def __post_init__(self) -> None:
        if not isinstance(self.parent, DistributedEncoding):
            raise EncodingError(f"the parent of a slice must be a distributed layout, got {self.parent}", "parent")
        if self.parent.rank < 2:
            raise EncodingError("parent layout must have at least rank >= 2", "parent")
        if not 0 <= self.dim < self.parent.rank:
            raise EncodingError(f"slice dim={self.dim} must be less than the parent rank={self.parent.rank}", "dim")

    @property
    def rank(self) -> int:
        return self.parent.rank - 1

    def parent_shape(self, shape: Sequence[int]) -> tuple[int, ...]:
        """The parent's shape for a tensor of ``shape``: a 1 inserted at ``dim``."""
        return (*shape[: self.dim], 1, *shape[self.dim :])

    def to_linear_layout(self, shape: Sequence[int]) -> LinearLayout:
        shape = check_shape(shape, self.rank, "#ttg.slice")
        return remove_out_dim(self.parent.to_linear_layout(self.parent_shape(shape)), self.dim)

    @classmethod
    def from_fields(cls, fields: FieldReader) -> SliceEncoding:
        dim = fields.int("dim")
        parent = fields.encoding("parent")
        fields.finish()
        return cls(dim=dim, parent=parent)

    def nested_encodings(self) -> tuple[Encoding, ...]:
        return (self.parent,)

    def body_text(self, alias: AliasFn | None = None) -> str:
        return f"{{dim = {self.dim}, parent = {self.nested_text(self.parent, alias)}}}"
