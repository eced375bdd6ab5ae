"""Locality checks the planner needs before it plans a conversion.

``trivial_over`` (the linear condition for "every element the destination puts at a
hardware position is already held with the same outer coordinates") lives in the core,
``ltc.locality``, where the layout passes use it too. Trivial over {lane, warp, block}:
thread-local; over {warp, block}: warp-local; over {block}: CTA-local.
``check_convertible`` refuses pairs that are not two layouts of one tensor.
"""

from __future__ import annotations


from ltc import f2
from ltc.linear_layout import LinearLayout
from ltc.locality import HARDWARE_DIMS, trivial_over
from ltc.lowering.plan import PlanError

__all__ = ["HARDWARE_DIMS", "check_convertible", "trivial_over"]


def check_convertible(src: LinearLayout, dst: LinearLayout) -> None:
    """Raise :class:`PlanError` unless ``src`` and ``dst`` lay out one tensor over the same
    hardware and ``src`` holds every element ``dst`` needs (image(dst) ⊆ image(src);
    Triton's layouts cover the whole tensor, so both images are everything)."""
    for name, lay in (("source", src), ("destination", dst)):
        if set(lay.in_dim_names) - set(HARDWARE_DIMS) or not lay.has_in_dim("register"):
            raise PlanError(f"the {name} layout is not distributed (in dims {lay.in_dim_names})")
    if list(src.out_dims.items()) != list(dst.out_dims.items()):
        raise PlanError(
            f"the layouts cover different tensors: {dict(src.out_dims)} vs {dict(dst.out_dims)}"
        )
    for d in ("lane", "warp", "block"):
        a = src.in_dim_size(d) if src.has_in_dim(d) else 1
        b = dst.in_dim_size(d) if dst.has_in_dim(d) else 1
        if a != b:
            raise PlanError(f"the layouts use different numbers of {d}s: {a} vs {b}")
    held = f2.column_echelon(src.flat_columns)
    if any(held.express(c) is None for c in dst.flat_columns):
        raise PlanError("the source layout does not hold every element the destination needs")
