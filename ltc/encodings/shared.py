"""Shared-memory encodings: where each element of a tile sits in shared memory.

A shared encoding maps the in dims ``offset`` (the element's position in one
CTA's buffer) and ``block`` (the CTA of the cluster) to the tensor index
``dim0..dimN-1``. Every layout here is built per CTA on ``shapePerCTA`` (the
shape divided by the CGA split, at least 1 per dim) and then fitted to the
whole shape with the CGA layout, as for distributed encodings
(``combine_cta_cga_with_shape``), unless stated otherwise.

``#ttg.swizzled_shared<{vec, perPhase, maxPhase, order}>``
    With ``c = order[0]`` (columns, contiguous) and ``r = order[1]`` (rows),
    the offset bases are ``(row 0, col 2^i)`` for each column bit, then for
    each row ``ρ = 2^j``: ``(ρ, vec * ((ρ / perPhase) mod maxPhase) mod
    numCols)`` -- row ``ρ`` is XOR-swizzled by its phase. The other dims
    follow as identities in ``order``. Rank 1 is the identity.

``#ttg.amd_rotating_shared<{vec, perPhase, maxPhase, order}>``
    The same, with phase ``p XOR ((ρ / maxPhase / perPhase) mod maxPhase)``,
    ``p`` the swizzled phase above; Triton sizes this tile by the whole shape
    (not per CTA).

``#ttg.nvmma_shared<{swizzlingByteWidth = S, transposed, elementBitWidth = b}>``
    The layout TMA and wgmma read. The TMA box is ``shapePerCTA`` with every
    dim clamped to 256 and the contiguous dim (last, or dim 0 when
    ``transposed``) set to exactly ``8 S / b`` elements. With ``S = 0`` the
    box is an identity, last dim fastest (when transposed: an identity over the
    box rotated left by one, whose basis components are then rotated right by
    one in the layout's own out-dim order ``dimN-1..dim0``; for rank >= 3 this
    makes some box dims exceed the tensor and broadcast, as in Triton 3.9).
    Otherwise a core matrix of 8 rows
    by ``8 max(16, S) / b`` columns swizzles row ``ρ`` by ``vec * ((ρ /
    perPhase) mod maxPhase)`` with ``vec = 128 / b``, ``perPhase = 128 / S``,
    ``maxPhase = S / 16``; it is grown (rows first) to the box collapsed to 2-D
    (outer dims multiplied into rows; rows and columns swapped when
    transposed), reshaped row-major to the N-d box (rotated left by one when
    transposed, then dim ``N-1`` moved to the front), and repeated to
    ``shapePerCTA`` (extra boxes are the most major offset bits).
    ``fp4Padded`` packs two fp4 values per byte and pads each 8-byte run with
    8 bytes: column ``c`` of the core matrix maps to ``c/16*8 + c mod 8`` (the
    padding offsets alias real ones).

``#ttg.padded_shared<[interval:+pad, ...] {...}>``
    A padded buffer: after every ``interval`` elements ``pad`` unused ones
    are inserted (the paddings of all intervals add up). The *linear
    component* is a fixed offset/block -> index map, an identity written as
    ``{order, shape}`` or bases ``{offset, block}``; it is what
    ``to_linear_layout`` returns here (padding excluded). Triton has no
    ``toLinearLayout`` for it (it aborts), and a memory descriptor must have
    exactly the component's shape, so other shapes raise ``ShapeError``.

``#ttg.shared_linear<{offset[, block]}, alignment = N>``
    The layout written as its bases. Triton does not fit it to other shapes:
    the shape must be the layout's own (``ShapeError`` otherwise).

``#ttg.partitioned_shared<{numPartitions, numGroups, partitionDim, partitionLayout}>``
    The tensor is cut along ``partitionDim`` into ``numPartitions *
    numGroups`` pieces, each laid out by ``partitionLayout``; piece ``k``
    lives in physical partition ``k mod numPartitions``. Its layout has a
    third in dim, ``partition``:
    ``partitionLayout(piece shape) * identity(partition -> partitionDim)
    * identity(offset -> partitionDim over numGroups)``. (Triton 3.9's Gluon
    binding drops the ``partition`` dim when it returns this layout.) A
    padded ``partitionLayout`` has no linear layout in Triton 3.9 (it aborts);
    ours raises ``EncodingError``.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ltc.attr_text import (
    AttrNode,
    AttrTextError,
    DictValue,
    FieldReader,
    Interval,
    ListValue,
    Value,
    format_bases,
    format_bool,
    format_ints,
)
from ltc.encodings.base import (
    AliasFn,
    CGALayout,
    Encoding,
    EncodingError,
    SharedEncoding,
    ShapeError,
    check_shape,
    format_shape,
    read_unsigned,
    read_unsigneds,
    register_encoding,
)
from ltc.encodings.blocked import check_order
from ltc.layout_utils import (
    combine_cta_cga_with_shape,
    ensure_layout_not_smaller_than,
    identity_standard_nd,
    standard_out_dim_names,
)
from ltc.linear_layout import LayoutError, LinearLayout

Bases = tuple[tuple[int, ...], ...]

OFFSET = "offset"
BLOCK = "block"
PARTITION = "partition"

NVMMA_SWIZZLE_WIDTHS = (0, 32, 64, 128)
TMA_MAX_BOX_DIM = 256
PADDED_NOT_FACTORED = "layout must factor into CTA and CGA layouts"


# --------------------------------------------------------------------------
# helpers shared by the encodings of this module
# --------------------------------------------------------------------------
def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _powers_below(n: int) -> list[int]:
    """``1, 2, 4, ...`` below ``n``."""
    out, p = [], 1
    while p < n:
        out.append(p)
        p *= 2
    return out


def shape_per_cta(shape: Sequence[int], cga: CGALayout) -> tuple[int, ...]:
    """Triton's ``getShapePerCTA``: each dim divided by the number of CTAs
    that split it (non-zero CGA bases along it), and never below 1 (a zero-size
    dim stays 0)."""
    split = [1] * len(shape)
    for b in cga.block_bases:
        for d, c in enumerate(b):
            if c:
                split[d] *= 2
                break
    return tuple(s // min(s, p) if s > 0 else s for s, p in zip(shape, split))


def order_per_dim(bases: Bases, rank: int) -> tuple[int, ...]:
    """Dims in the order the bases first move along them; dims never moved
    follow, last dim first (Triton's ``orderPerDim`` with the default order)."""
    order: list[int] = []
    for b in bases:
        for d, c in enumerate(b):
            if c:
                if d not in order:
                    order.append(d)
                break
    order += [d for d in reversed(range(rank)) if d not in order]
    return tuple(order)


def reshape_row_major(layout: LinearLayout, shape: Sequence[int]) -> LinearLayout:
    """Triton's ``reshapeLayout``: reinterpret the out index space, read
    row-major (last dim fastest), as ``shape`` with out dims ``dim0..``."""
    names = standard_out_dim_names(len(shape))
    flat_minor_first = list(reversed(layout.out_dim_names))
    new_minor_first = list(reversed(list(zip(names, shape))))
    return layout.transpose_outs(flat_minor_first).reshape_outs(new_minor_first).transpose_outs(names)


def permute_components(layout: LinearLayout, order: Sequence[int]) -> LinearLayout:
    """Triton's ``transposeLinearLayout``: component ``j`` of every basis
    becomes old component ``order[j]``; out names are kept and sizes
    re-inferred from the bases."""
    bases = {d: [tuple(b[i] for i in order) for b in bs] for d, bs in layout.bases.items()}
    return LinearLayout.from_bases(bases, layout.out_dim_names)


def _check_bases_shape(per_dim: dict[str, Bases], field: str) -> int:
    """Every basis has the same length, at least 1, with non-negative
    entries; returns that length (the rank)."""
    lengths = {len(b) for bases in per_dim.values() for b in bases}
    if not lengths:
        raise EncodingError("Empty Layout not supported: give at least one basis", field)
    if len(lengths) > 1:
        raise EncodingError(f"all bases must have the same length, got lengths {sorted(lengths)}", field)
    rank = lengths.pop()
    if rank == 0:
        raise EncodingError("bases must have at least one entry (one per tensor dim)", field)
    for name, bases in per_dim.items():
        for b in bases:
            if any(c < 0 for c in b):
                raise EncodingError(f"basis {list(b)} of '{name}' has a negative entry", name)
    return rank


def _surjective_layout(per_dim: dict[str, Bases], rank: int, field: str) -> LinearLayout:
    """The layout with out sizes inferred from the bases; must be onto."""
    try:
        return LinearLayout.from_bases({d: list(bs) for d, bs in per_dim.items()}, standard_out_dim_names(rank))
    except LayoutError:
        raise EncodingError(
            "the bases must reach every index below their largest entries (the layout must be surjective)",
            field,
        ) from None


def _check_exact_shape(shape: tuple[int, ...], own: tuple[int, ...], what: str) -> None:
    if shape != own:
        raise ShapeError(
            f"{what} is defined for the shape {format_shape(own)} only (Triton does not fit it to "
            f"other shapes); got {format_shape(shape)}"
        )


def _field_reader(node: AttrNode, item: Value, resolve: Callable[[Value], object]) -> FieldReader:
    if not isinstance(item, DictValue):
        raise AttrTextError(f"#{node.name}: expected '{{key = value, ...}}'", item.col)
    return FieldReader.from_dict(f"#{node.name}", item, resolve)


# --------------------------------------------------------------------------
# swizzled_shared and amd_rotating_shared
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class _PhaseSwizzledEncoding(SharedEncoding):
    """Fields and text common to the XOR-swizzled encodings."""

    vec: int
    per_phase: int
    max_phase: int
    order: tuple[int, ...]
    cga: CGALayout = CGALayout()

    def __post_init__(self) -> None:
        for name, v in (("vec", self.vec), ("perPhase", self.per_phase), ("maxPhase", self.max_phase)):
            if v < 0:
                raise EncodingError(f"{name} must be non-negative, got {v}", name)
        if not self.order:
            raise EncodingError("order must list the dims, fastest first", "order")
        check_order(self.order, len(self.order))
        self.cga.check_rank(len(self.order))

    @property
    def rank(self) -> int:
        return len(self.order)

    @abstractmethod
    def phase(self, row: int) -> int:
        """The swizzle phase of row ``row`` (a power of two)."""

    @abstractmethod
    def tile_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        """The shape the per-CTA tile is built on (rank >= 2)."""

    def cta_layout(self, shape: tuple[int, ...]) -> LinearLayout:
        names = standard_out_dim_names(self.rank)
        if self.rank == 1:
            return LinearLayout.identity_1d(shape_per_cta(shape, self.cga)[0], OFFSET, names[0])
        tile = self.tile_shape(shape)
        col, row = self.order[0], self.order[1]
        n_cols, n_rows = tile[col], tile[row]
        bases = [(0, c) for c in _powers_below(n_cols)]
        if n_rows > 1 and (self.per_phase == 0 or self.max_phase == 0):
            raise EncodingError(
                f"perPhase and maxPhase must be positive to swizzle rows (got {self.per_phase}, {self.max_phase})",
                "perPhase" if self.per_phase == 0 else "maxPhase",
            )
        bases += [(r, self.vec * self.phase(r) % n_cols) for r in _powers_below(n_rows)]
        layout = LinearLayout([(OFFSET, bases)], [(names[row], n_rows), (names[col], n_cols)])
        for d in self.order[2:]:
            layout = layout * LinearLayout.identity_1d(tile[d], OFFSET, names[d])
        return layout

    def to_linear_layout(self, shape: Sequence[int]) -> LinearLayout:
        shape = check_shape(shape, self.rank, f"#{self.attr_name}")
        return combine_cta_cga_with_shape(self.cta_layout(shape), self.cga.linear_layout(self.rank), shape)

    @classmethod
    def from_fields(cls, fields: FieldReader) -> _PhaseSwizzledEncoding:
        # Triton leaves a missing vec/perPhase/maxPhase at 0.
        enc = cls(
            vec=read_unsigned(fields, "vec", "vec", 0),
            per_phase=read_unsigned(fields, "perPhase", "perPhase", 0),
            max_phase=read_unsigned(fields, "maxPhase", "maxPhase", 0),
            order=read_unsigneds(fields, "order", "order"),
            cga=CGALayout.read(fields),
        )
        fields.finish()
        return enc

    def body_text(self, alias: AliasFn | None = None) -> str:
        return (
            f"{{vec = {self.vec}, perPhase = {self.per_phase}, maxPhase = {self.max_phase}, "
            f"order = {format_ints(self.order)}{self.cga.field_text()}}}"
        )


@register_encoding
@dataclass(frozen=True)
class SwizzledSharedEncoding(_PhaseSwizzledEncoding):
    """``#ttg.swizzled_shared<{vec, perPhase, maxPhase, order[, CGALayout]}>``."""

    mnemonic = "swizzled_shared"

    def phase(self, row: int) -> int:
        return (row // self.per_phase) % self.max_phase

    def tile_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        return shape_per_cta(shape, self.cga)


@register_encoding
@dataclass(frozen=True)
class AMDRotatingSharedEncoding(_PhaseSwizzledEncoding):
    """``#ttg.amd_rotating_shared<{vec, perPhase, maxPhase, order[, CGALayout]}>``.

    Not checked against Triton: its Gluon binding cannot represent this
    encoding, so the oracle cannot return its layout.
    """

    mnemonic = "amd_rotating_shared"

    def phase(self, row: int) -> int:
        swizzled = (row // self.per_phase) % self.max_phase
        block_no = (row // self.max_phase // self.per_phase) % self.max_phase
        return swizzled ^ block_no

    def tile_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        return shape


# --------------------------------------------------------------------------
# nvmma_shared
# --------------------------------------------------------------------------
MAX_NVMMA_RANK = 8
"""The highest ``rank`` an ``#ttg.nvmma_shared`` may name (TMA tensors have at most 5 dims)."""


@register_encoding
@dataclass(frozen=True)
class NVMMASharedEncoding(SharedEncoding):
    """``#ttg.nvmma_shared<{swizzlingByteWidth, transposed, elementBitWidth
    [, fp4Padded = true][, rank = N][, CGALayout]}>``.

    ``layout_rank`` is Triton's ``rank`` (2 unless given, or the length of
    the CGA bases).
    """

    swizzling_byte_width: int
    transposed: bool
    element_bit_width: int
    fp4_padded: bool = False
    layout_rank: int = 2
    cga: CGALayout = CGALayout()

    mnemonic = "nvmma_shared"

    def __post_init__(self) -> None:
        if self.swizzling_byte_width not in NVMMA_SWIZZLE_WIDTHS:
            raise EncodingError(
                f"swizzlingByteWidth must be 0, 32, 64, or 128, got {self.swizzling_byte_width}",
                "swizzlingByteWidth",
            )
        if self.element_bit_width <= 0:
            raise EncodingError("elementBitWidth must be non-zero", "elementBitWidth")
        if not 1 <= self.layout_rank <= MAX_NVMMA_RANK:
            raise EncodingError(f"rank must be from 1 to {MAX_NVMMA_RANK}, got {self.layout_rank}", "rank")
        if self.cga.block_bases and len(self.cga.block_bases[0]) != self.layout_rank:
            raise EncodingError(f"'CGALayout' entry length does not match rank {self.layout_rank}", "CGALayout")
        self.cga.check_rank(self.layout_rank)

    @property
    def rank(self) -> int:
        return self.layout_rank

    @property
    def vec(self) -> int:
        return 128 // self.element_bit_width if self.swizzling_byte_width else 1

    @property
    def per_phase(self) -> int:
        return 128 // self.swizzling_byte_width if self.swizzling_byte_width else 1

    @property
    def max_phase(self) -> int:
        return self.swizzling_byte_width // 16 if self.swizzling_byte_width else 1

    def tma_block_shape(self, shape_per_cta_: Sequence[int]) -> tuple[int, ...]:
        """The TMA box in packed elements (Triton's ``getTMABlockShape`` with
        ``packedSize``): dims clamped to 256, the contiguous one exactly one
        swizzle row."""
        box = list(shape_per_cta_)
        contig = 0 if self.transposed else len(box) - 1
        if self.fp4_padded:
            box[contig] *= 2
        box = [min(s, TMA_MAX_BOX_DIM) for s in box]
        if self.swizzling_byte_width:
            row = 8 * self.swizzling_byte_width // self.element_bit_width
            if box[contig] < row:
                raise ShapeError(
                    f"#ttg.nvmma_shared: block shape along the contiguous dimension {contig} is too small for the "
                    f"swizzle byte size {self.swizzling_byte_width}: got {box[contig]}, expected at least {row}"
                )
            box[contig] = row
        if self.fp4_padded:
            box[contig] //= 2
        return tuple(box)

    def core_matrix(self) -> LinearLayout:
        """One 8-row swizzle tile (out dims dim0 = rows, dim1 = columns)."""
        cols = 8 * max(16, self.swizzling_byte_width) // self.element_bit_width

        def packed(c: int) -> int:
            return c // 16 * 8 + c % 8 if self.fp4_padded else c

        bases = [(0, packed(c)) for c in _powers_below(cols)]
        bases += [(r, packed(self.vec * ((r // self.per_phase) % self.max_phase))) for r in _powers_below(8)]
        return LinearLayout.from_bases({OFFSET: bases}, standard_out_dim_names(2))

    def swizzle_tile_shortfall(self, shape: Sequence[int]) -> str | None:
        """Why a swizzled layout cannot map a buffer of ``shape`` (the trailing dims of
        its rank), else None: the TMA box per CTA, collapsed to 2-D (rows = all outer
        dims, cols = the contiguous one, swapped when transposed), must hold a whole
        8-row swizzle tile. Triton aborts ('Illegal shared layout') on an op that
        maps such a buffer (MMAv5 operands, TMA copies)."""
        if not self.swizzling_byte_width or self.rank < 2 or len(shape) < self.rank:
            return None
        if not _is_pow2(self.element_bit_width):
            return (
                f"{self.to_text()} has elementBitWidth {self.element_bit_width}, not a power of 2: no swizzle "
                "tile holds whole elements (Triton aborts: 'Illegal shared layout')"
            )
        row_bits = 8 * max(16, self.swizzling_byte_width)
        if self.element_bit_width > row_bits:
            return (
                f"{self.to_text()} has elementBitWidth {self.element_bit_width}, wider than a swizzle tile's row "
                f"of {row_bits} bits: no row holds a whole element (Triton aborts: 'Illegal shared layout')"
            )
        try:
            box = self.tma_block_shape(shape_per_cta(shape[len(shape) - self.rank :], self.cga))
        except ShapeError:
            return None  # a swizzle row wider than the block: the memdesc type says so
        rows, cols = math.prod(box[:-1]), box[-1]
        if self.transposed:
            rows, cols = cols, rows
        tile = self.core_matrix()
        packing = 2 if self.fp4_padded else 1
        tile_rows, tile_cols = tile.out_dim_size("dim0"), tile.out_dim_size("dim1") // packing
        if cols >= tile_cols and rows >= tile_rows:
            return None
        return (
            f"{self.to_text()} needs a TMA box per CTA of at least {tile_rows}x{tile_cols} once collapsed "
            f"to 2-D, got {rows}x{cols} (Triton aborts: 'Illegal shared layout')"
        )

    def cta_layout(self, spc: tuple[int, ...]) -> LinearLayout:
        names = standard_out_dim_names(self.rank)
        box = self.tma_block_shape(spc)
        fit = dict(zip(names, spc))
        to_front = [self.rank - 1, *range(self.rank - 1)]
        if self.swizzling_byte_width == 0:
            dims = box[1:] + box[:1] if self.transposed else box
            layout = LinearLayout.empty()
            for d in reversed(range(self.rank)):
                layout = layout * LinearLayout.identity_1d(dims[d], OFFSET, names[d])
            if self.transposed:
                layout = permute_components(layout, to_front)
            return ensure_layout_not_smaller_than(layout, fit)
        if self.rank < 2:
            raise ShapeError("#ttg.nvmma_shared: a swizzled layout needs rank >= 2 (Triton asserts)")
        rows, cols = 1, box[-1]
        for s in box[:-1]:
            rows *= s
        if self.transposed:
            rows, cols = cols, rows
        tile = self.core_matrix()
        packing = 2 if self.fp4_padded else 1
        tile_rows, tile_cols = tile.out_dim_size("dim0"), tile.out_dim_size("dim1")
        if cols * packing < tile_cols or rows < tile_rows:
            raise ShapeError(
                f"#ttg.nvmma_shared: the TMA box collapsed to 2-D is {rows}x{cols}, smaller than the "
                f"{tile_rows}x{tile_cols // packing} swizzle tile (Triton: 'Illegal shared layout')"
            )
        layout = ensure_layout_not_smaller_than(tile, {"dim0": rows, "dim1": cols})
        if self.transposed:
            layout = reshape_row_major(layout, box[1:] + box[:1])
            layout = permute_components(layout, to_front)
        else:
            layout = reshape_row_major(layout, box)
        return ensure_layout_not_smaller_than(layout, fit)

    def to_linear_layout(self, shape: Sequence[int]) -> LinearLayout:
        shape = check_shape(shape, self.rank, "#ttg.nvmma_shared")
        if not _is_pow2(self.element_bit_width):
            raise ShapeError(
                f"#ttg.nvmma_shared: elementBitWidth {self.element_bit_width} is not a power of 2; "
                "no layout can be built"
            )
        cta = self.cta_layout(shape_per_cta(shape, self.cga))
        return combine_cta_cga_with_shape(cta, self.cga.linear_layout(self.rank), shape)

    @classmethod
    def from_fields(cls, fields: FieldReader) -> NVMMASharedEncoding:
        cga = CGALayout.read(fields)
        default_rank = len(cga.block_bases[0]) if cga.block_bases else 2
        enc = cls(
            swizzling_byte_width=read_unsigned(fields, "swizzlingByteWidth", "swizzlingByteWidth"),
            transposed=fields.bool("transposed", False),
            element_bit_width=read_unsigned(fields, "elementBitWidth", "elementBitWidth"),
            fp4_padded=fields.bool("fp4Padded", False),
            layout_rank=fields.int("rank", default_rank),
            cga=cga,
        )
        fields.finish()
        return enc

    def body_text(self, alias: AliasFn | None = None) -> str:
        text = (
            f"{{swizzlingByteWidth = {self.swizzling_byte_width}, transposed = {format_bool(self.transposed)}, "
            f"elementBitWidth = {self.element_bit_width}"
        )
        if self.fp4_padded:
            text += ", fp4Padded = true"
        if not self.cga.block_bases and self.layout_rank != 2:
            text += f", rank = {self.layout_rank}"
        return text + self.cga.field_text() + "}"


# --------------------------------------------------------------------------
# padded_shared
# --------------------------------------------------------------------------
@register_encoding
@dataclass(frozen=True)
class PaddedSharedEncoding(SharedEncoding):
    """``#ttg.padded_shared<[interval:+pad, ...] {order, shape}>`` or
    ``... {offset = [[..]], block = [[..]]}>``.

    Stored as its linear component (``offset_bases``, ``block_bases``; the
    out sizes are inferred from them), so both text forms of one layout are
    equal values. ``intervals`` holds ``(interval, padding)`` pairs in text
    order.
    """

    intervals: tuple[tuple[int, int], ...]
    offset_bases: Bases
    block_bases: Bases = ()
    # The rank, which the bases cannot tell when there are none (``shape = [1]``);
    # set from the bases whenever there are some.
    layout_rank: int = 0

    mnemonic = "padded_shared"

    def __post_init__(self) -> None:
        if not self.intervals:
            raise EncodingError("must have at least one interval-padding pair", "intervals")
        seen: set[int] = set()
        for interval, pad in self.intervals:
            if not _is_pow2(interval):
                raise EncodingError("interval values must all be power of two", "intervals")
            if not _is_pow2(pad):
                raise EncodingError("padding values must all be power of two", "intervals")
            if interval in seen:
                raise EncodingError("interval values cannot have duplicates", "intervals")
            seen.add(interval)
        per_dim = {OFFSET: self.offset_bases, BLOCK: self.block_bases}
        if not self.offset_bases and not self.block_bases and self.layout_rank > 0:
            return  # one element (every dim of size 1): nothing more to check
        rank = _check_bases_shape(per_dim, OFFSET)
        object.__setattr__(self, "layout_rank", rank)  # frozen: normalise so equal layouts compare equal
        for name, bases in per_dim.items():
            for b in bases:
                nonzero = [c for c in b if c]
                if len(nonzero) > 1:
                    raise EncodingError(f"Each {name} basis must move in at most one dimension: {list(b)}", name)
                if nonzero and not _is_pow2(nonzero[0]):
                    raise EncodingError(f"Each {name} basis must be 0 or a power of two: {list(b)}", name)
        if any(not any(b) for b in self.offset_bases):
            raise EncodingError("Broadcasting in offset dimension is not supported.", OFFSET)
        _surjective_layout(per_dim, rank, OFFSET)
        # Triton 3.9's attribute verifier stops here: block bases that repeat an
        # offset basis pass it ("broadcasting in block dim is allowed"), and only
        # a use of the layout needs it to factor (see ``factors_into_cta_cga``).

    def factors_into_cta_cga(self) -> bool:
        """Whether the linear component, less its zero (broadcast) block bases,
        is a bijection: every (offset, CTA) pair holds its own element. Triton
        aborts ("layout must factor into CTA and CGA layouts") on a memory
        descriptor whose padded layout does not."""
        return self.linear_component().remove_zero_bases_along_dim(BLOCK).is_invertible()

    @classmethod
    def identity(
        cls, intervals: Sequence[tuple[int, int]], shape: Sequence[int], order: Sequence[int]
    ) -> PaddedSharedEncoding:
        """The ``{order = .., shape = ..}`` form: offsets walk ``shape`` as an
        identity, ``order[0]`` fastest."""
        if len(order) != len(shape):
            raise EncodingError("Mismatch of shape and order ranks in padded layout", "order")
        if not shape:
            raise EncodingError("linearComponent must have [offset, block] as input dims", "shape")
        for s in shape:
            if not _is_pow2(s):
                raise EncodingError(f"shape {list(shape)}: every size must be a power of 2", "shape")
        check_order(order, len(order))
        names = standard_out_dim_names(len(shape))
        layout = identity_standard_nd(OFFSET, shape, order).transpose_outs(names)
        return cls(tuple((int(i), int(p)) for i, p in intervals), tuple(layout.bases[OFFSET]), (), len(shape))

    @property
    def rank(self) -> int:
        return self.layout_rank

    def linear_component(self) -> LinearLayout:
        """The offset/block -> index map (padding excluded)."""
        per_dim = {OFFSET: list(self.offset_bases), BLOCK: list(self.block_bases)}
        return LinearLayout.from_bases(per_dim, standard_out_dim_names(self.rank))

    @property
    def shape(self) -> tuple[int, ...]:
        """The tensor shape the linear component covers."""
        return tuple(self.linear_component().out_dims.values())

    @property
    def order(self) -> tuple[int, ...]:
        return order_per_dim(self.offset_bases, self.rank)

    def padded_offset(self, offset: int) -> int:
        """Where unpadded offset ``offset`` lands once padding is inserted."""
        return offset + sum((offset // interval) * pad for interval, pad in self.intervals)

    def to_linear_layout(self, shape: Sequence[int]) -> LinearLayout:
        shape = check_shape(shape, self.rank, "#ttg.padded_shared")
        _check_exact_shape(shape, self.shape, "#ttg.padded_shared")
        if not self.factors_into_cta_cga():
            raise EncodingError(PADDED_NOT_FACTORED, BLOCK)
        return self.linear_component()

    @classmethod
    def from_fields(cls, fields: FieldReader) -> PaddedSharedEncoding:
        raise EncodingError("#ttg.padded_shared is written '<[interval:+pad, ...] {...}>'")

    @classmethod
    def from_items(cls, node: AttrNode, resolve: Callable[[Value], object]) -> PaddedSharedEncoding:
        if len(node.items) != 2 or not isinstance(node.items[0], ListValue):
            raise AttrTextError(
                "#ttg.padded_shared expects '<[interval:+pad, ...] {order = [..], shape = [..]}>' "
                "or '<[interval:+pad, ...] {offset = [..], block = [..]}>'",
                node.col,
            )
        intervals = []
        for item in node.items[0].items:
            if not isinstance(item, Interval):
                raise AttrTextError("#ttg.padded_shared: expected 'interval:+pad'", item.col)
            intervals.append((item.interval, item.pad))
        if not intervals:
            raise AttrTextError("#ttg.padded_shared: expected at least one 'interval:+pad'", node.items[0].col)
        fields = _field_reader(node, node.items[1], resolve)
        if fields.has(OFFSET) or fields.has(BLOCK):
            # Triton 3.9 reads only the two bases here: any other key draws a
            # diagnostic but the attribute still parses, so ltc ignores it too.
            for name in (OFFSET, BLOCK):
                if not fields.has(name):
                    raise AttrTextError(f"Expected basis of '{name}' not found", node.col)
            return cls(tuple(intervals), fields.bases(OFFSET), fields.bases(BLOCK))
        for key in sorted(fields.entries):  # Triton walks its dictionary in key order
            if key not in ("order", "shape"):
                raise AttrTextError(f'Unexpected attribute "{key}" found', fields.column(key))
        return cls.identity(intervals, fields.ints("shape"), fields.ints("order"))

    def body_text(self, alias: AliasFn | None = None) -> str:
        pairs = ", ".join(f"{i}:+{p}" for i, p in self.intervals)
        shape, order = self.shape, self.order
        identity = identity_standard_nd(OFFSET, shape, order).transpose_outs(standard_out_dim_names(self.rank))
        if not self.block_bases and tuple(identity.bases[OFFSET]) == self.offset_bases:
            body = f"order = {format_ints(order)}, shape = {format_ints(shape)}"
        else:
            body = f"offset = {format_bases(self.offset_bases)}, block = {format_bases(self.block_bases)}"
        return f"[{pairs}] {{{body}}}"


# --------------------------------------------------------------------------
# shared_linear
# --------------------------------------------------------------------------
@register_encoding
@dataclass(frozen=True)
class SharedLinearEncoding(SharedEncoding):
    """``#ttg.shared_linear<{offset = [[..]][, block = [[..]]]}, alignment = N>``."""

    offset_bases: Bases
    block_bases: Bases = ()
    alignment: int = 16

    mnemonic = "shared_linear"

    def __post_init__(self) -> None:
        if self.alignment >= 1 << 32:  # Triton reads the alignment as a 32-bit unsigned
            raise EncodingError("integer value too large", "alignment")
        if not _is_pow2(self.alignment):
            raise EncodingError("alignment must be a positive power of two", "alignment")
        per_dim = {OFFSET: self.offset_bases, BLOCK: self.block_bases}
        rank = _check_bases_shape(per_dim, OFFSET)
        layout = _surjective_layout(per_dim, rank, OFFSET)
        if not layout.remove_zero_bases_along_dim(OFFSET).remove_zero_bases_along_dim(BLOCK).is_invertible():
            raise EncodingError("After removing the zero bases the layout must be bijective", OFFSET)

    @property
    def rank(self) -> int:
        return len((self.offset_bases or self.block_bases)[0])

    def linear_layout(self) -> LinearLayout:
        per_dim = {OFFSET: list(self.offset_bases), BLOCK: list(self.block_bases)}
        return LinearLayout.from_bases(per_dim, standard_out_dim_names(self.rank))

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.linear_layout().out_dims.values())

    def to_linear_layout(self, shape: Sequence[int]) -> LinearLayout:
        shape = check_shape(shape, self.rank, "#ttg.shared_linear")
        _check_exact_shape(shape, self.shape, "#ttg.shared_linear")
        return self.linear_layout()

    @classmethod
    def from_fields(cls, fields: FieldReader) -> SharedLinearEncoding:
        raise EncodingError("#ttg.shared_linear is written '<{offset = [..]}, alignment = N>'")

    @classmethod
    def from_items(cls, node: AttrNode, resolve: Callable[[Value], object]) -> SharedLinearEncoding:
        if not node.items:
            raise AttrTextError("#ttg.shared_linear expects '<{offset = [..]}, alignment = N>'", node.col)
        layout_fields = _field_reader(node, node.items[0], resolve)
        if layout_fields.has("alignment"):
            raise AttrTextError(
                "#ttg.shared_linear: alignment must be specified outside of the linear layout braces",
                layout_fields.column("alignment"),
            )
        if len(node.items) != 2:
            raise AttrTextError("#ttg.shared_linear expects ', alignment = N' after the bases", node.col)
        align_fields = _field_reader(node, node.items[1], resolve)
        enc = cls(
            offset_bases=layout_fields.bases(OFFSET),
            block_bases=layout_fields.bases(BLOCK, ()),
            alignment=align_fields.int("alignment"),
        )
        layout_fields.finish()
        align_fields.finish()
        return enc

    def body_text(self, alias: AliasFn | None = None) -> str:
        block = f", block = {format_bases(self.block_bases)}" if self.block_bases else ""
        return f"{{offset = {format_bases(self.offset_bases)}{block}}}, alignment = {self.alignment}"


# --------------------------------------------------------------------------
# partitioned_shared
# --------------------------------------------------------------------------
@register_encoding
@dataclass(frozen=True)
class PartitionedSharedEncoding(SharedEncoding):
    """``#ttg.partitioned_shared<{numPartitions, numGroups, partitionDim,
    partitionLayout = <shared encoding>}>``."""

    num_partitions: int
    num_groups: int
    partition_dim: int
    partition_layout: SharedEncoding

    mnemonic = "partitioned_shared"

    def __post_init__(self) -> None:
        if not isinstance(self.partition_layout, SharedEncoding):
            raise EncodingError("partitionLayout must be a shared encoding", "partitionLayout")
        if self.num_partitions < 2 or not _is_pow2(self.num_partitions):
            raise EncodingError("numPartitions must be a power of 2 and at least 2", "numPartitions")
        if not _is_pow2(self.num_groups):
            raise EncodingError("numGroups must be a power of 2 and at least 1", "numGroups")
        if not 0 <= self.partition_dim < self.partition_layout.rank:
            raise EncodingError(
                f"partitionDim {self.partition_dim} is out of range for the partition layout's rank "
                f"{self.partition_layout.rank}",
                "partitionDim",
            )

    @property
    def rank(self) -> int:
        return self.partition_layout.rank

    @property
    def num_pieces(self) -> int:
        return self.num_partitions * self.num_groups

    def to_linear_layout(self, shape: Sequence[int]) -> LinearLayout:
        shape = check_shape(shape, self.rank, "#ttg.partitioned_shared")
        if isinstance(self.partition_layout, PaddedSharedEncoding):
            raise EncodingError(
                "#ttg.partitioned_shared over a #ttg.padded_shared layout has no linear layout in Triton 3.9 "
                "(toLinearLayout aborts; Triton uses its padded linear layout instead)",
                "partitionLayout",
            )
        if shape[self.partition_dim] < self.num_pieces:
            raise ShapeError(
                f"#ttg.partitioned_shared: dim {self.partition_dim} of {format_shape(shape)} is smaller than "
                f"numPartitions * numGroups = {self.num_pieces}"
            )
        piece = list(shape)
        piece[self.partition_dim] //= self.num_pieces
        dim = standard_out_dim_names(self.rank)[self.partition_dim]
        return (
            self.partition_layout.to_linear_layout(piece)
            * LinearLayout.identity_1d(self.num_partitions, PARTITION, dim)
            * LinearLayout.identity_1d(self.num_groups, OFFSET, dim)
        )

    @classmethod
    def from_fields(cls, fields: FieldReader) -> PartitionedSharedEncoding:
        enc = cls(
            num_partitions=fields.int("numPartitions"),
            num_groups=fields.int("numGroups"),
            partition_dim=fields.int("partitionDim"),
            partition_layout=fields.encoding("partitionLayout"),
        )
        fields.finish()
        return enc

    def nested_encodings(self) -> tuple[Encoding, ...]:
        return (self.partition_layout,)

    def body_text(self, alias: AliasFn | None = None) -> str:
        return (
            f"{{numPartitions = {self.num_partitions}, numGroups = {self.num_groups}, "
            f"partitionDim = {self.partition_dim}, "
            f"partitionLayout = {self.nested_text(self.partition_layout, alias)}}}"
        )
