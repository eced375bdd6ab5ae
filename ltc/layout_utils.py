"""Building blocks shared by the encodings: N-d identities and fitting a
layout to a tensor shape (Triton's ``LayoutUtils`` helpers).

Fitting a layout to a shape is the one rule every encoding shares:

* a layout *larger* than the shape along an out dim keeps its hardware bits but
  maps the highest ones to zero (they broadcast: replicated data);
* a layout *smaller* than the shape repeats: extra bits of its first in dim
  (``register`` or ``offset``) cover the rest, fastest out dim first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ltc.linear_layout import LayoutError, LinearLayout

DISTRIBUTED_IN_DIMS = ("register", "lane", "warp", "block")
SHARED_IN_DIMS = ("offset", "block")


def standard_out_dim_names(rank: int) -> list[str]:
    """``["dim0", ..., "dim{rank-1}"]``."""
    return [f"dim{i}" for i in range(rank)]


def identity_standard_nd(in_dim: str, shape: Sequence[int], order: Sequence[int]) -> LinearLayout:
    """Product of 1-d identities from ``in_dim`` onto each dim, most minor
    (``order[0]``) first. Out dims come out in ``order``'s order."""
    if len(shape) != len(order):
        raise LayoutError(f"shape {list(shape)} and order {list(order)} differ in rank")
    names = standard_out_dim_names(len(shape))
    ret = LinearLayout.empty()
    for d in order:
        ret = ret * LinearLayout.identity_1d(shape[d], in_dim, names[d])
    return ret


def ensure_layout_not_larger_than(
    layout: LinearLayout, shape: Mapping[str, int], broadcast_registers: bool = True
) -> LinearLayout:
    """Shrink every out dim to at most ``shape[dim]``.

    Per out dim, the bases with the largest components are zeroed first until
    the dim fits (those input bits now broadcast). With
    ``broadcast_registers=False`` register bases are dropped instead of
    zeroed. Out sizes are then re-inferred, as Triton does.
    """
    if not shape:
        return layout
    bases = {d: [list(b) for b in bs] for d, bs in layout.bases.items()}
    dropped_regs: set[int] = set()
    for k, (out_dim, actual) in enumerate(layout.out_dims.items()):
        desired = shape[out_dim]
        if actual <= desired:
            continue
        nonzero = [
            (d, i, b[k]) for d, bs in bases.items() for i, b in enumerate(bs) if b[k] != 0
        ]
        nonzero.sort(key=lambda t: -t[2])  # largest first; stable for ties
        for d, i, _ in nonzero:
            if actual <= desired:
                break
            if not broadcast_registers and d == "register":
                dropped_regs.add(i)
            else:
                bases[d][i][k] = 0
            actual >>= 1
    if not broadcast_registers and "register" in bases:
        bases["register"] = [b for i, b in enumerate(bases["register"]) if i not in dropped_regs]
    return LinearLayout.from_bases(bases, layout.out_dim_names)


def ensure_layout_not_smaller_than(layout: LinearLayout, shape: Mapping[str, int]) -> LinearLayout:
    """Grow every out dim to at least ``shape[dim]`` by repeating the layout
    along its first in dim, one out dim at a time in the layout's out order."""
    if not shape:
        return layout
    k_dim = layout.in_dim_names[0]
    ret = layout
    for out_dim, actual in layout.out_dims.items():
        desired = shape[out_dim]
        if desired > actual:
            ret = ret * LinearLayout.identity_1d(desired // actual, k_dim, out_dim)
    return ret


def cga_linear_layout(block_bases: Sequence[Sequence[int]], rank: int) -> LinearLayout:
    """The CTA-to-tensor map of a CGA: in dim ``block`` onto ``dim0..``.

    An empty list of bases is the single-CTA layout.
    """
    return LinearLayout.from_bases({"block": [list(b) for b in block_bases]}, standard_out_dim_names(rank))


def combine_cta_cga_with_shape(
    cta: LinearLayout, cga: LinearLayout, shape: Sequence[int], broadcast_registers: bool = True
) -> LinearLayout:
    """Fit a per-CTA layout and its CGA layout to the whole tensor ``shape``.

    The CGA is shrunk to the shape; each CTA covers ``shape / cga size`` (at
    least 1 per dim) and is grown then shrunk to exactly that; the product
    (CTA minor, CGA major) is returned with out dims ``dim0..dimN-1``.
    Register bits that fall outside the shape stay as zero (broadcast)
    bases, or are dropped when ``broadcast_registers`` is False (what Triton
    3.9 does for ``#ttg.blocked``).
    """
    names = standard_out_dim_names(len(shape))
    if cta.num_out_dims != len(shape):
        raise LayoutError(
            f"layout of rank {cta.num_out_dims} used with a shape of rank {len(shape)}"
        )
    labeled = dict(zip(names, shape))
    cga = ensure_layout_not_larger_than(cga, labeled).transpose_outs(cta.out_dim_names)
    cta_shape = {d: max(1, labeled[d] // cga.out_dim_size(d)) for d in cta.out_dim_names}
    cta = ensure_layout_not_smaller_than(cta, cta_shape)
    cta = ensure_layout_not_larger_than(cta, cta_shape, broadcast_registers)
    return (cta * cga).transpose_outs(names)
