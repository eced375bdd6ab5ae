"""Result layouts that make shape ops free (the closure rules of the paper's Theorem 9.3).

Each rule takes the operand's encoding and shape and returns the encoding of the result
under which the op moves no data: every (register, lane, warp, block) keeps the element
it holds, only the element's logical index changes. Stated on linear layouts
``L: hardware -> tensor index``:

* ``trans(order)``: result out dim ``i`` is operand out dim ``order[i]``;
* ``reshape`` (row-major): ``L' = unflatten_dst . flatten_src . L``; flattening a
  power-of-two shape row-major concatenates the index bits, so it is linear over F2;
* ``join``: a new size-2 minor dim held by register bit 0 (``L' = e_new (+) L``);
* ``split``: the inverse, defined when one register basis is exactly the last dim's bit
  and no other basis touches it;
* ``expand_dims(axis)``: a size-1 out dim inserted (a slice operand gives its parent);
* ``broadcast``: the same encoding at the larger shape;
* ``fp4_to_fp(axis)`` (two e2m1 values a byte, unpacked along ``axis``): the low and high
  nibble are register bit 0 one step apart along ``axis``, every other ``axis`` step
  doubles (``fp4_unpacked_layout``); its inverse (``fp4_source_layout``) exists when
  the result holds both halves of each byte in one register pair.

A legacy encoding (``#ttg.blocked``) is returned when it spells exactly the same linear
layout, otherwise ``#ttg.linear``. ``None`` means no free result layout exists (split).
"""

from __future__ import annotations

from functools import lru_cache
from collections.abc import Sequence

from ltc.encodings import to_linear_layout
from ltc.encodings.base import DistributedEncoding, Encoding
from ltc.encodings.blocked import BlockedEncoding
from ltc.encodings.linear import LinearEncoding
from ltc.encodings.slice import SliceEncoding
from ltc.layout_utils import standard_out_dim_names
from ltc.linear_layout import LinearLayout

__all__ = [
    "broadcast_encoding",
    "fp4_packed_encoding",
    "fp4_source_layout",
    "fp4_unpacked_encoding",
    "fp4_unpacked_layout",
    "expand_dims_encoding",
    "join_encoding",
    "reduce_encoding",
    "reshape_encoding",
    "split_encoding",
    "trans_encoding",
]

Basis = tuple[int, ...]


def _with_bases(layout: LinearLayout, fn, out_sizes: Sequence[int]) -> LinearLayout:  # noqa: ANN001
    """``layout`` with every basis mapped by ``fn`` and out dims ``dim0..`` of ``out_sizes``."""
    names = standard_out_dim_names(len(out_sizes))
    bases = {d: [list(fn(tuple(b))) for b in bs] for d, bs in layout.bases.items()}
    return LinearLayout.from_bases(bases, dict(zip(names, out_sizes)))


def _spelled(layout: LinearLayout, shape: Sequence[int], legacy: Encoding | None) -> DistributedEncoding:
    """``legacy`` if it is the same linear layout at ``shape``, else ``#ttg.linear``."""
    if legacy is not None:
        try:
            if to_linear_layout(legacy, shape) == layout:
                return legacy  # type: ignore[return-value]
        except ValueError:
            pass
    return LinearEncoding.from_layout(layout)


def trans_encoding(enc: Encoding, shape: Sequence[int], order: Sequence[int]) -> DistributedEncoding:
    """The free result layout of ``tt.trans`` (result dim ``i`` = operand dim ``order[i]``)."""
    return _trans_encoding(enc, tuple(shape), tuple(order))


# (the layout passes ask these for the same layouts and shapes thousands of times;
# encodings are immutable values, so the answers are memoised as to_linear_layout's)
@lru_cache(maxsize=4096)
def _trans_encoding(enc: Encoding, shape: tuple[int, ...], order: tuple[int, ...]) -> DistributedEncoding:
    layout = to_linear_layout(enc, shape)
    out_shape = [shape[o] for o in order]
    moved = _with_bases(layout, lambda b: tuple(b[o] for o in order), out_shape)
    legacy = None
    if isinstance(enc, BlockedEncoding) and enc.cga.num_ctas == 1:
        inverse = [0] * len(order)
        for i, o in enumerate(order):
            inverse[o] = i
        legacy = BlockedEncoding(
            tuple(enc.size_per_thread[o] for o in order),
            tuple(enc.threads_per_warp[o] for o in order),
            tuple(enc.warps_per_cta[o] for o in order),
            tuple(inverse[d] for d in enc.order),
        )
    return _spelled(moved, out_shape, legacy)


def _strides(shape: Sequence[int]) -> list[int]:
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return strides


def reshape_encoding(enc: Encoding, shape: Sequence[int], new_shape: Sequence[int]) -> DistributedEncoding:
    """The free result layout of a row-major ``tt.reshape`` from ``shape`` to ``new_shape``."""
    return _reshape_encoding(enc, tuple(shape), tuple(new_shape))


@lru_cache(maxsize=4096)
def _reshape_encoding(enc: Encoding, shape: tuple[int, ...], new_shape: tuple[int, ...]) -> DistributedEncoding:
    layout = to_linear_layout(enc, shape)
    src_strides, dst_strides = _strides(shape), _strides(new_shape)

    def move(b: Basis) -> Basis:
        flat = sum(c * s for c, s in zip(b, src_strides))
        return tuple((flat // s) % n for s, n in zip(dst_strides, new_shape))

    legacy = None
    if isinstance(enc, BlockedEncoding) and list(shape) == list(new_shape):
        legacy = enc
    return _spelled(_with_bases(layout, move, new_shape), new_shape, legacy)


def join_encoding(enc: Encoding, shape: Sequence[int]) -> DistributedEncoding:
    """The free result layout of ``tt.join`` of two ``shape`` tensors (new minor dim of 2)."""
    return _join_encoding(enc, tuple(shape))


@lru_cache(maxsize=4096)
def _join_encoding(enc: Encoding, shape: tuple[int, ...]) -> DistributedEncoding:
    layout = to_linear_layout(enc, shape)
    rank = len(shape)
    bases = {d: [list(b) + [0] for b in bs] for d, bs in layout.bases.items()}
    bases["register"] = [[0] * rank + [1]] + bases.get("register", [])
    names = standard_out_dim_names(rank + 1)
    joined = LinearLayout.from_bases(bases, dict(zip(names, [*shape, 2])))
    legacy = None
    if isinstance(enc, BlockedEncoding) and enc.cga.num_ctas == 1:
        legacy = BlockedEncoding(
            (*enc.size_per_thread, 2), (*enc.threads_per_warp, 1), (*enc.warps_per_cta, 1), (rank, *enc.order)
        )
    return _spelled(joined, [*shape, 2], legacy)


def split_encoding(enc: Encoding, shape: Sequence[int]) -> DistributedEncoding | None:
    """The free result layout of ``tt.split`` of a ``shape`` tensor (last dim 2), or None
    when the last dim is not held by exactly one register bit."""
    layout = to_linear_layout(enc, shape)
    rank = len(shape)
    if rank < 2 or shape[-1] != 2:
        return None
    last = tuple([0] * (rank - 1) + [1])
    registers = [tuple(b) for b in layout.bases.get("register", [])]
    if registers.count(last) != 1:
        return None
    for d, bs in layout.bases.items():
        for b in bs:
            if b[-1] and tuple(b) != last:
                return None
            if d != "register" and b[-1]:
                return None
    bases = {d: [list(b[:-1]) for b in bs if not (d == "register" and tuple(b) == last)] for d, bs in layout.bases.items()}
    names = standard_out_dim_names(rank - 1)
    split = LinearLayout.from_bases(bases, dict(zip(names, shape[:-1])))
    legacy = None
    if (
        isinstance(enc, BlockedEncoding)
        and enc.cga.num_ctas == 1
        and enc.order[0] == rank - 1
        and enc.size_per_thread[-1] == 2
    ):
        legacy = BlockedEncoding(
            enc.size_per_thread[:-1], enc.threads_per_warp[:-1], enc.warps_per_cta[:-1], enc.order[1:]
        )
    return _spelled(split, shape[:-1], legacy)


def expand_dims_encoding(enc: Encoding, shape: Sequence[int], axis: int) -> DistributedEncoding:
    """The result layout of ``tt.expand_dims(axis)``: the parent of a slice along ``axis``,
    else the operand's layout with a size-1 dim inserted (as ``#ttg.linear``)."""
    if isinstance(enc, SliceEncoding) and enc.dim == axis:
        return enc.parent
    layout = to_linear_layout(enc, shape)
    new_shape = [*shape[:axis], 1, *shape[axis:]]
    return LinearEncoding.from_layout(_with_bases(layout, lambda b: (*b[:axis], 0, *b[axis:]), new_shape))


def reduce_encoding(enc: Encoding, axis: int) -> DistributedEncoding:
    """The result layout of ``tt.reduce(axis)``: the slice of the operand's layout."""
    assert isinstance(enc, DistributedEncoding)
    return SliceEncoding(axis, enc)


def broadcast_encoding(enc: Encoding) -> Encoding:
    """``tt.broadcast`` keeps its encoding (Triton: SameOperandsAndResultEncoding)."""
    return enc


def fp4_source_layout(result: LinearLayout, axis: int) -> LinearLayout | None:
    """The layout of the packed source given the unpacked result's ``result`` layout,
    or None when the result does not keep the two halves of a byte in one register
    pair (first register basis one step along ``axis``, other ``axis`` steps even)."""
    bases = result.bases
    outs = result.out_dims
    names = list(outs)
    if axis >= len(names):
        return None
    unit = tuple(1 if i == axis else 0 for i in range(len(names)))
    registers = [tuple(b) for b in bases.get("register", [])]
    if not registers or registers[0] != unit:
        return None
    halved: list[tuple[str, list[tuple[int, ...]]]] = []
    for in_dim, dim_bases in bases.items():
        kept = [tuple(b) for b in dim_bases]
        if in_dim == "register":
            kept = kept[1:]
        new = []
        for b in kept:
            if b[axis] % 2:
                return None
            new.append(tuple(c // 2 if i == axis else c for i, c in enumerate(b)))
        halved.append((in_dim, new))
    out_dims = [(n, s // 2 if i == axis else s) for i, (n, s) in enumerate(outs.items())]
    return LinearLayout(halved, out_dims)


def fp4_unpacked_layout(source: LinearLayout, axis: int) -> LinearLayout:
    """The unpacked result's layout of a packed ``source`` (``fp4_source_layout``'s
    inverse): register bit 0 steps one along ``axis``, every other ``axis`` step doubles."""
    outs = source.out_dims
    unit = [1 if i == axis else 0 for i in range(len(outs))]
    bases: dict[str, list[list[int]]] = {}
    for in_dim, dim_bases in source.bases.items():
        bases[in_dim] = [[c * 2 if i == axis else c for i, c in enumerate(b)] for b in dim_bases]
    bases["register"] = [unit] + bases.get("register", [])
    return LinearLayout.from_bases(bases, {n: s * 2 if i == axis else s for i, (n, s) in enumerate(outs.items())})


def fp4_unpacked_encoding(enc: Encoding, shape: Sequence[int], axis: int) -> DistributedEncoding:
    """The free result layout of ``ttg.fp4_to_fp`` of a packed ``shape`` tensor."""
    out_shape = [s * 2 if i == axis else s for i, s in enumerate(shape)]
    legacy = None
    if isinstance(enc, BlockedEncoding) and enc.cga.num_ctas == 1 and enc.order[0] == axis:
        spt = tuple(s * 2 if i == axis else s for i, s in enumerate(enc.size_per_thread))
        legacy = BlockedEncoding(spt, enc.threads_per_warp, enc.warps_per_cta, enc.order)
    return _spelled(fp4_unpacked_layout(to_linear_layout(enc, shape), axis), out_shape, legacy)


def fp4_packed_encoding(enc: Encoding, shape: Sequence[int], axis: int) -> DistributedEncoding | None:
    """The packed operand layout that makes ``ttg.fp4_to_fp`` give ``enc`` at the
    unpacked ``shape`` for free, or None when ``enc`` splits a byte's halves."""
    source = fp4_source_layout(to_linear_layout(enc, shape), axis)
    if source is None:
        return None
    in_shape = [s // 2 if i == axis else s for i, s in enumerate(shape)]
    legacy = None
    if isinstance(enc, BlockedEncoding) and enc.cga.num_ctas == 1 and enc.size_per_thread[axis] % 2 == 0:
        spt = tuple(s // 2 if i == axis else s for i, s in enumerate(enc.size_per_thread))
        legacy = BlockedEncoding(spt, enc.threads_per_warp, enc.warps_per_cta, enc.order)
    return _spelled(source, in_shape, legacy)
