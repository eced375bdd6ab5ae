"""Pictures of a linear layout: who holds each element of a tensor.

A layout L maps a hardware index x (register, lane, warp, block — or offset,
block for memory) to a tensor element L(x). Reading it backwards, the *owners*
of an element e are the preimage L^-1(e). Because L is linear over F2, every
non-empty preimage is a coset ``x0 XOR ker L``: all elements that are held at
all are held by the same number ``2**dim(ker L)`` of owners, and knowing one
owner x0 plus a basis of the kernel gives all of them. A kernel of dimension
> 0 is *broadcast* (replication): several threads hold copies of one element.

Everything here is computed from ``LinearLayout.apply_all()`` (one numpy table
over the whole input domain) and a stable sort by element, so the first owner
of each element is its owner with the smallest flat hardware index — the
lowest block, then warp, then lane, then register.

Two renderings, both for rank-1 and rank-2 tensors (rank 1 is wrapped into
rows of at most 16 elements: element = row label + column):

* ``render_table`` — a text grid; rows are dim0, columns dim1. Distributed
  cells read ``w<warp>/t<lane>/r<register>`` (``b<block>/`` first when there is
  more than one CTA); memory cells show the ``offset``. A replicated element
  shows its first owner followed by ``*N`` (N owners); a footnote lists the
  kernel basis, i.e. how the other owners differ from the first.
  ``all_owners=True`` lists every owner instead, comma separated.
* ``render_svg`` — a standalone SVG grid: distributed cells coloured by warp
  (by block and warp with several CTAs) and labelled ``T<lane>:R<register>``;
  memory cells coloured by shared-memory bank
  ``(offset * elem_bits / 32) mod 32`` and labelled with the offset. Replicated
  cells get a corner triangle and their owner count; every cell's tooltip
  lists all its owners.

Core code: numpy and the standard library only.
"""

from __future__ import annotations

import colorsys
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

import numpy as np

from ltc.linear_layout import LinearLayout

__all__ = [
    "OwnerMap",
    "ViewError",
    "owner_map",
    "palette",
    "render_svg",
    "render_table",
]

# Short prefixes of the standard in dims in cell labels (major dims first).
_PREFIX = {"block": "b", "warp": "w", "lane": "t", "register": "r", "offset": ""}
_WRAP_RANK1 = 16  # columns per row when drawing a rank-1 tensor
_BANKS = 32
_REPLICATED_TEXT = "replicated (\u00d7owners)"


class ViewError(ValueError):
    """The layout cannot be drawn (rank >= 3, or a zero-dimensional tensor)."""


# ------------------------------------------------------------------ owners
@dataclass(frozen=True, eq=False)
class OwnerMap:
    """Who holds each element of a rank-1/2 tensor under ``layout``.

    Elements are numbered row-major over the drawing grid (for rank 2,
    ``e = dim0 * size(dim1) + dim1``; for rank 1, ``e = dim0``).
    ``owners_sorted[starts[e] : starts[e] + counts[e]]`` are the flat hardware
    indices that hold element e, in increasing order.
    """

    layout: LinearLayout
    rows: int
    cols: int
    counts: np.ndarray  # (rows * cols,) owners per element
    starts: np.ndarray  # (rows * cols,) offset of each element's run in owners_sorted
    owners_sorted: np.ndarray  # (total in size,) flat hardware indices grouped by element

    @property
    def is_memory(self) -> bool:
        """True for memory layouts (in dim ``offset``), False for distributed ones."""
        return self.layout.has_in_dim("offset")

    @property
    def replication(self) -> int:
        """Owners per held element (``2 ** dim ker L``)."""
        held = self.counts[self.counts > 0]
        return int(held.max()) if held.size else 0

    def first_owners(self) -> np.ndarray:
        """Flat hardware index of each element's first owner, -1 where none."""
        first = np.full(self.counts.shape, -1, dtype=np.int64)
        held = self.counts > 0
        first[held] = self.owners_sorted[self.starts[held]]
        return first

    def owners(self, element: int) -> np.ndarray:
        s = int(self.starts[element])
        return self.owners_sorted[s : s + int(self.counts[element])]

    def row_labels(self) -> list[str]:
        step = self.cols if self.layout.num_out_dims == 1 else 1
        return [str(r * step) for r in range(self.rows)]

    def axis_text(self) -> str:
        """One line saying how the grid maps to tensor dims."""
        names = self.layout.out_dim_names
        if len(names) == 1:
            return f"{names[0]} (size {self.rows * self.cols}) = row + column"
        return f"rows: {names[0]} (size {self.rows}), columns: {names[1]} (size {self.cols})"


def owner_map(layout: LinearLayout) -> OwnerMap:
    """Group the whole input domain of ``layout`` by the element it maps to."""
    sizes = list(layout.out_dims.values())
    if len(sizes) == 0 or len(sizes) > 2:
        raise ViewError(
            f"can only draw rank-1 and rank-2 tensors; this layout has {len(sizes)} out dims "
            f"({', '.join(layout.out_dim_names) or 'none'})"
        )
    table = layout.apply_all()
    if len(sizes) == 2:
        rows, cols = sizes
        element = table[:, 0] * cols + table[:, 1]
    else:
        cols = min(sizes[0], _WRAP_RANK1)
        rows = sizes[0] // cols
        element = table[:, 0]
    owners_sorted = np.argsort(element, kind="stable").astype(np.int64)
    counts = np.bincount(element, minlength=rows * cols).astype(np.int64)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    return OwnerMap(layout, rows, cols, counts, starts, owners_sorted)


def hardware_coords(layout: LinearLayout, flat: np.ndarray) -> dict[str, np.ndarray]:
    """Split flat input indices (first in dim in the low bits) into per-dim values."""
    coords, shift = {}, 0
    for dim, size in layout.in_dims.items():
        coords[dim] = (flat >> shift) & (size - 1)
        shift += layout.in_dim_size_log2(dim)
    return coords


def kernel_basis(layout: LinearLayout) -> list[int]:
    """A basis of ker L as flat input bit-vectors, in reduced echelon form.

    Column elimination with a record of which input bits make up each reduced
    column: a column that reduces to zero gives a kernel vector.
    """
    pivots: dict[int, tuple[int, int]] = {}  # lowest out bit -> (column value, input-bit combination)
    kernel = []
    for i, col in enumerate(layout.flat_columns):
        combo = 1 << i
        while col:
            low = (col & -col).bit_length() - 1
            if low not in pivots:
                pivots[low] = (col, combo)
                break
            pcol, pcombo = pivots[low]
            col, combo = col ^ pcol, combo ^ pcombo
        if col == 0:
            kernel.append(combo)
    return _reduced_echelon(kernel)


def _reduced_echelon(vectors: list[int]) -> list[int]:
    """Reduce so that each vector has a distinct lowest bit absent from the others."""
    basis: list[int] = []
    for v in vectors:
        for b in basis:
            if v & (b & -b):
                v ^= b
        if v:
            low = v & -v
            basis = [b ^ v if b & low else b for b in basis]
            basis.append(v)
    return sorted(basis, key=lambda b: b & -b)


# ------------------------------------------------------------------ labels
def _shown_dims(layout: LinearLayout) -> list[str]:
    """In dims shown in labels, major first; block only with several CTAs."""
    return [d for d in reversed(layout.in_dim_names) if d != "block" or layout.in_dim_size(d) > 1]


def _prefix(dim: str) -> str:
    return _PREFIX.get(dim, f"{dim}=")


def label_legend(layout: LinearLayout) -> str:
    """What a table cell says, e.g. ``w<warp>/t<lane>/r<register>``."""
    return "/".join(f"{_prefix(d)}<{d}>" for d in _shown_dims(layout))


def owner_labels(layout: LinearLayout, flat: np.ndarray) -> list[str]:
    """Table labels (``w0/t1/r0`` or an offset) of flat hardware indices."""
    dims = _shown_dims(layout)
    coords = hardware_coords(layout, np.asarray(flat, dtype=np.int64))
    columns = [[f"{_prefix(d)}{int(v)}" for v in coords[d]] for d in dims]
    return ["/".join(parts) for parts in zip(*columns)]


def describe_vector(layout: LinearLayout, flat: int) -> str:
    """A flat input bit-vector as ``lane=1 register=2`` (nonzero dims only)."""
    coords = hardware_coords(layout, np.array([flat], dtype=np.int64))
    return " ".join(f"{d}={int(coords[d][0])}" for d in reversed(layout.in_dim_names) if coords[d][0])


def replication_note(owners: OwnerMap) -> str | None:
    """Footnote explaining ``*N``, or None when nothing is replicated."""
    n = owners.replication
    if n <= 1:
        return None
    steps = "; ".join(describe_vector(owners.layout, k) for k in kernel_basis(owners.layout))
    return (
        f"*{n}: held by {n} owners (broadcast); the first is shown, the others are it "
        f"XOR any combination of: {steps}"
    )


# ------------------------------------------------------------------- table
def render_table(layout: LinearLayout, *, all_owners: bool = False) -> str:
    """A text grid of the owners of every element (see the module docstring).

    Elements nobody holds read ``-``. The result ends with a newline.
    """
    owners = owner_map(layout)
    first = owners.first_owners()
    held = first >= 0
    first_text = owner_labels(layout, first[held])
    cells = ["-"] * first.size
    for e, text in zip(np.flatnonzero(held), first_text):
        n = int(owners.counts[e])
        if n > 1:
            text = ",".join(owner_labels(layout, owners.owners(int(e)))) if all_owners else f"{text}*{n}"
        cells[int(e)] = text

    col_labels = [str(c) for c in range(owners.cols)]
    row_labels = owners.row_labels()
    width = max(max(map(len, cells)), max(map(len, col_labels)))
    row_width = max(map(len, row_labels))

    def line(head: str, items: Sequence[str]) -> str:
        return (head.rjust(row_width) + "  " + " ".join(s.ljust(width) for s in items)).rstrip()

    out = [f"{owners.axis_text()}; cell: {label_legend(layout)}"]
    note = replication_note(owners)
    if note is not None:
        out.append(note)
    out.append(line("", col_labels))
    for r, head in enumerate(row_labels):
        out.append(line(head, cells[r * owners.cols : (r + 1) * owners.cols]))
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------- svg
# ColorBrewer "Set3": 12 light colours that black text reads well on.
_SET3 = (
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
    "#b3de69", "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f",
)


def palette(n: int) -> list[str]:
    """``n`` distinguishable light fill colours (hex); neighbours differ most."""
    if n <= len(_SET3):
        return list(_SET3[:n])
    colours = []
    for k in range(n):
        hue = (k * 0.618033988749895) % 1.0  # golden-ratio hue steps
        light = 0.72 if k % 2 == 0 else 0.82
        r, g, b = colorsys.hls_to_rgb(hue, light, 0.65)
        colours.append(f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}")
    return colours


@dataclass(frozen=True)
class _CellStyle:
    """Per held element: colour group, label, and the legend of the groups."""

    group: np.ndarray  # colour index per element (-1: not held)
    labels: list[str]  # label per element ("" when not held)
    legend: list[str]  # legend text per colour index
    legend_title: str


def _distributed_style(owners: OwnerMap, first: np.ndarray) -> _CellStyle:
    layout = owners.layout
    held = first >= 0
    coords = hardware_coords(layout, np.where(held, first, 0))
    zeros = np.zeros(first.shape, dtype=np.int64)
    warp = coords.get("warp", zeros)
    block = coords.get("block", zeros)
    num_warps = layout.in_dim_size("warp") if layout.has_in_dim("warp") else 1
    num_blocks = layout.in_dim_size("block") if layout.has_in_dim("block") else 1
    group = np.where(held, block * num_warps + warp, -1)
    if num_blocks > 1:
        legend = [f"B{b} W{w}" for b in range(num_blocks) for w in range(num_warps)]
    else:
        legend = [f"W{w}" for w in range(num_warps)]
    lane = coords.get("lane", zeros)
    reg = coords.get("register", zeros)
    prefix = [f"B{int(b)}:" if num_blocks > 1 else "" for b in block]
    labels = [
        f"{p}T{int(t)}:R{int(r)}" if h else "" for p, t, r, h in zip(prefix, lane, reg, held)
    ]
    return _CellStyle(group, labels, legend, "warp" if num_blocks == 1 else "block, warp")


def _memory_style(owners: OwnerMap, first: np.ndarray, elem_bits: int) -> _CellStyle:
    layout = owners.layout
    held = first >= 0
    coords = hardware_coords(layout, np.where(held, first, 0))
    offset = coords["offset"]
    bank = (offset * elem_bits // 32) % _BANKS
    group = np.where(held, bank, -1)
    multi_cta = layout.has_in_dim("block") and layout.in_dim_size("block") > 1
    block = coords.get("block", np.zeros(first.shape, dtype=np.int64))
    labels = [
        (f"B{int(b)}:{int(o)}" if multi_cta else str(int(o))) if h else ""
        for b, o, h in zip(block, offset, held)
    ]
    return _CellStyle(group, labels, [f"bank {k}" for k in range(_BANKS)], f"bank ({elem_bits}-bit elements)")


def render_svg(layout: LinearLayout, *, elem_bits: int = 16, title: str | None = None) -> str:
    """A standalone SVG drawing of the owners of every element.

    ``elem_bits`` (memory layouts only) sets the element size used to find each
    offset's bank. ``title`` is printed above the grid.
    """
    if elem_bits <= 0:
        raise ViewError(f"element size must be positive, got {elem_bits} bits")
    owners = owner_map(layout)
    first = owners.first_owners()
    style = (
        _memory_style(owners, first, elem_bits) if owners.is_memory else _distributed_style(owners, first)
    )
    colours = palette(len(style.legend))

    char_w, cell_h, font = 6.6, 22, 11
    longest = max([len(s) for s in style.labels] + [len(str(owners.cols - 1))])
    replicated = owners.replication > 1
    marker_w = 12 if replicated else 0  # room for the replication corner and count
    cell_w = max(36, int(char_w * longest + 14)) + marker_w
    row_labels = owners.row_labels()
    left = 30 + int(char_w * max(map(len, row_labels)))
    top = 62 if title else 44
    grid_w, grid_h = owners.cols * cell_w, owners.rows * cell_h
    legend_x = left + grid_w + 24
    legend_texts = style.legend + [style.legend_title] + ([_REPLICATED_TEXT] if replicated else [])
    legend_w = 24 + int(char_w * max(map(len, legend_texts)))
    width = max(legend_x + legend_w + 10, left + int(7.3 * len(title or "")) + 10)
    height = max(top + grid_h, top + 22 * (len(style.legend) + 1)) + 16

    names = layout.out_dim_names
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="monospace" font-size="{font}">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    if title:
        out.append(f'<text x="{left}" y="18" font-size="12">{escape(title)}</text>')
    # Axis labels: the column dim across the top, the row dim down the left side.
    across = f"{names[1]} \u2192" if len(names) == 2 else f"{names[0]} = row + column \u2192"
    down = f"{names[0]} \u2193" if len(names) == 2 else "row"
    out.append(f'<text x="{left + grid_w / 2}" y="{top - 26}" text-anchor="middle" font-weight="bold">{across}</text>')
    out.append(
        f'<text x="12" y="{top + grid_h / 2}" text-anchor="middle" font-weight="bold" '
        f'transform="rotate(-90 12 {top + grid_h / 2})">{down}</text>'
    )
    for c in range(owners.cols):
        out.append(f'<text x="{left + c * cell_w + cell_w / 2}" y="{top - 8}" text-anchor="middle">{c}</text>')
    for r, head in enumerate(row_labels):
        out.append(f'<text x="{left - 6}" y="{top + r * cell_h + cell_h / 2 + 4}" text-anchor="end">{head}</text>')

    for e in range(owners.rows * owners.cols):
        r, c = divmod(e, owners.cols)
        x, y = left + c * cell_w, top + r * cell_h
        g = int(style.group[e])
        n = int(owners.counts[e])
        fill = colours[g] if g >= 0 else "#ffffff"
        cls = f"cell g{g}" if g >= 0 else "cell empty"
        tip = _cell_tooltip(owners, e)
        out.append(
            f'<g><title>{escape(tip)}</title>'
            f'<rect class="{cls}" x="{x}" y="{y}" width="{cell_w}" height="{cell_h}" '
            f'fill="{fill}" stroke="#555" stroke-width="0.5"/>'
        )
        if g >= 0:
            out.append(
                f'<text x="{x + (cell_w - marker_w) / 2}" y="{y + cell_h / 2 + 4}" text-anchor="middle">'
                f"{escape(style.labels[e])}</text>"
            )
        if n > 1:
            out.append(
                f'<polygon class="replicated" points="{x + cell_w - 8},{y} {x + cell_w},{y} {x + cell_w},{y + 8}" '
                f'fill="#222"/><text x="{x + cell_w - 2}" y="{y + cell_h - 2}" text-anchor="end" '
                f'font-size="7">\u00d7{n}</text>'
            )
        out.append("</g>")

    out.append(f'<text x="{legend_x}" y="{top - 8}" font-weight="bold">{escape(style.legend_title)}</text>')
    for k, (text, colour) in enumerate(zip(style.legend, colours)):
        y = top + k * 22
        out.append(
            f'<rect class="legend" x="{legend_x}" y="{y + 3}" width="16" height="16" fill="{colour}" '
            f'stroke="#555" stroke-width="0.5"/><text x="{legend_x + 22}" y="{y + 15}">{escape(text)}</text>'
        )
    if replicated:
        y = top + len(style.legend) * 22
        out.append(
            f'<polygon points="{legend_x + 7},{y + 3} {legend_x + 16},{y + 3} {legend_x + 16},{y + 12}" fill="#222"/>'
            f'<text x="{legend_x + 22}" y="{y + 15}">{_REPLICATED_TEXT}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _cell_tooltip(owners: OwnerMap, element: int, limit: int = 64) -> str:
    r, c = divmod(element, owners.cols)
    names = owners.layout.out_dim_names
    where = f"{names[0]}={r}, {names[1]}={c}" if len(names) == 2 else f"{names[0]}={element}"
    held = owners.owners(element)
    if held.size == 0:
        return f"{where}: not held"
    labels = owner_labels(owners.layout, held[:limit])
    more = f", ... ({held.size} in all)" if held.size > limit else ""
    return f"{where}: {', '.join(labels)}{more}"
