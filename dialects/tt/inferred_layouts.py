"""The result layouts Triton 3.9's verifiers infer for ``tt.trans``, ``tt.split``,
``tt.join`` and ``tt.reshape``, and how they compare them with the written ones.

Two encodings agree at a shape when they are equal or have the same linear layout
there (Triton's ``verifyLayoutsAreEqual``). The inferred encodings are spelled as
Triton spells them, since its diagnostics print them:

* ``trans(order)`` of a ``#ttg.blocked``: every per-dim field permuted by ``order``,
  ``order`` mapped through the inverse permutation, CGA bases permuted;
* ``split`` of a ``#ttg.blocked`` holding the last dim as 2 registers of one thread
  (``sizePerThread[-1] = 2``, one thread, warp and CTA along it): the same fields
  without the last dim;
* ``reshape`` of a single-CTA ``#ttg.blocked``: the legacy blocked layout that gives
  every thread the same elements, when one exists (see ``_legacy_reshape``);
* anything else: ``#ttg.linear`` of the layout that moves no data
  (``ltc.encodings.shape_rules``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ltc.encodings import Encoding, to_linear_layout
from ltc.encodings.blocked import BlockedEncoding
from ltc.encodings.base import CGALayout
from ltc.encodings.linear import LinearEncoding
from ltc.encodings.shape_rules import reshape_encoding, split_encoding, trans_encoding
from ltc.linear_layout import LayoutError

__all__ = ["is_expensive_view", "layouts_agree", "reshape_result", "split_result", "trans_result"]


def layouts_agree(shape: Sequence[int], a: Encoding, b: Encoding) -> bool:
    """Equal encodings, or the same linear layout at ``shape``."""
    if a == b:
        return True
    try:
        return to_linear_layout(a, shape) == to_linear_layout(b, shape)
    except (LayoutError, ValueError):
        return False


def _as_linear(enc: Encoding, shape: Sequence[int]) -> LinearEncoding:
    return enc if isinstance(enc, LinearEncoding) else LinearEncoding.from_layout(to_linear_layout(enc, shape))


def trans_result(enc: Encoding, shape: Sequence[int], order: Sequence[int]) -> Encoding:
    """The result encoding Triton infers for ``tt.trans`` of ``enc`` at ``shape``."""
    if isinstance(enc, BlockedEncoding):
        inverse = [0] * len(order)
        for i, o in enumerate(order):
            inverse[o] = i
        return BlockedEncoding(
            tuple(enc.size_per_thread[o] for o in order),
            tuple(enc.threads_per_warp[o] for o in order),
            tuple(enc.warps_per_cta[o] for o in order),
            tuple(inverse[d] for d in enc.order),
            CGALayout(tuple(tuple(b[o] for o in order) for b in enc.cga.block_bases)),
        )
    return trans_encoding(enc, shape, order)


def split_result(enc: Encoding, shape: Sequence[int]) -> Encoding | None:
    """The encoding Triton infers for the results of ``tt.split`` of ``enc`` at
    ``shape`` (last dim 2), None when the last dim is not held by one register bit."""
    rank = len(shape)
    if (
        isinstance(enc, BlockedEncoding)
        and enc.size_per_thread[-1] == 2
        and enc.threads_per_warp[-1] == 1
        and enc.warps_per_cta[-1] == 1
        and not any(b[-1] for b in enc.cga.block_bases)
    ):
        return BlockedEncoding(
            enc.size_per_thread[:-1],
            enc.threads_per_warp[:-1],
            enc.warps_per_cta[:-1],
            tuple(d for d in enc.order if d != rank - 1),
            CGALayout(tuple(b[:-1] for b in enc.cga.block_bases)),
        )
    try:
        split = split_encoding(enc, shape)
    except (LayoutError, ValueError):
        return None
    return None if split is None else _as_linear(split, shape[:-1])


def is_expensive_view(enc: Encoding, shape: Sequence[int], new_enc: Encoding, new_shape: Sequence[int]) -> bool:
    """Whether reading ``enc`` at ``shape`` as ``new_enc`` at ``new_shape`` moves data
    (Triton's ``isExpensiveView``): per hardware index, the bits that only hold
    copies (the free variables of the linear layout) differ, or a thread holds a
    different number of registers. A layout that does not fit its shape is expensive."""
    try:
        src, dst = to_linear_layout(enc, shape), to_linear_layout(new_enc, new_shape)
    except (LayoutError, ValueError):
        return True
    if src.free_variable_masks() != dst.free_variable_masks():
        return True
    return src.in_dim_size("register") != dst.in_dim_size("register")


def reshape_result(enc: Encoding, shape: Sequence[int], new_shape: Sequence[int]) -> Encoding:
    """The result encoding Triton infers for a ``tt.reshape`` that keeps every element
    in its thread: the legacy blocked layout when there is one, else ``#ttg.linear``."""
    inferred = reshape_encoding(enc, shape, new_shape)
    if list(shape) == list(new_shape):
        return enc
    legacy = _legacy_reshape(enc, shape, new_shape)
    if legacy is not None and layouts_agree(new_shape, legacy, inferred):
        return legacy
    return _as_linear(inferred, new_shape)


def _decomposition(shape: Sequence[int], new_shape: Sequence[int]) -> list[tuple[list[int], list[int]]]:
    """Groups of consecutive source and result dims with equal products (a reshape
    merges each source group and splits it into the result group)."""
    groups: list[tuple[list[int], list[int]]] = []
    i = j = 0
    while i < len(shape) or j < len(new_shape):
        src, dst = [], []
        p = q = 1
        while True:
            if p <= q and i < len(shape):
                p *= shape[i]
                src.append(i)
                i += 1
            elif j < len(new_shape):
                q *= new_shape[j]
                dst.append(j)
                j += 1
            else:
                break
            if p == q and src and dst:
                break
        groups.append((src, dst))
    return groups


def _legacy_reshape(enc: Encoding, shape: Sequence[int], new_shape: Sequence[int]) -> BlockedEncoding | None:
    """Triton's blocked-to-blocked reshape rule for a single-CTA ``#ttg.blocked``:
    each of sizePerThread, threadsPerWarp and warpsPerCTA of a merged source group is
    poured into the result group from its minor dim up; the dims keep the source's
    physical order. None when ``enc`` is not such a layout or a group is not
    contiguous in it (the caller checks the answer against the linear layout)."""
    if not isinstance(enc, BlockedEncoding) or enc.cga.block_bases:
        return None
    groups = _decomposition(shape, new_shape)
    if any(not src or not dst for src, dst in groups):
        return None
    position = {d: i for i, d in enumerate(enc.order)}  # 0 = most minor
    for src, _ in groups:
        ranks = [position[d] for d in reversed(src)]
        if ranks != list(range(ranks[0], ranks[0] + len(ranks))):
            return None
    remaining = list(new_shape)
    fields = []
    for src_field in (enc.size_per_thread, enc.threads_per_warp, enc.warps_per_cta):
        out = [1] * len(new_shape)
        for src, dst in groups:
            left = math.prod(src_field[d] for d in src)
            for d in reversed(dst):
                val = max(1, min(left, remaining[d]))
                out[d] = val
                left //= val
                remaining[d] //= val
            out[dst[0]] *= left
        fields.append(tuple(out))
    groups.sort(key=lambda g: position[g[0][0]])
    inv_order = [0] * len(new_shape)
    k = 0
    for _, dst in groups:
        for d in reversed(dst):
            inv_order[d] = k
            k += 1
    order = [0] * len(new_shape)
    for d, k in enumerate(inv_order):
        order[k] = d
    try:
        return BlockedEncoding(fields[0], fields[1], fields[2], tuple(order))
    except ValueError:
        return None
