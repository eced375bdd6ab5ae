"""Verifier helpers shared by the ``tt`` op modules (Triton's shape/encoding traits).

Messages keep Triton's wording: ``'tt.X' op ...``.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.tt.types import encoding_of, shape_of, type_text
from ltc.dialects.ttg_attrs import DistributedLayoutAttr
from ltc.encodings.slice import SliceEncoding

__all__ = [
    "check_same_shape_and_encoding",
    "check_slice_relation",
    "is_tensor",
    "require_tensor",
]


def check_same_shape_and_encoding(op: Operation, types: Sequence[Attribute], what: str) -> None:
    """Triton's SameOperandsAndResultShape + SameOperandsAndResultEncoding."""
    shapes = {shape_of(t) for t in types}
    if len(shapes) > 1:
        raise VerifyException(f"'{op.name}' op requires the same shape for all {what}")
    encodings = {encoding_of(t) for t in types}
    if len(encodings) > 1:
        raise VerifyException(f"'{op.name}' op requires the same encoding for all {what}")


def is_tensor(attr: Attribute) -> bool:
    """True for a ranked tensor type (a scalar is not one)."""
    return isinstance(attr, TensorType)


def require_tensor(op: Operation, attr: Attribute, what: str) -> TensorType:
    """``attr`` as a tensor type; a VerifyException naming ``what`` if it is not one."""
    if not isinstance(attr, TensorType):
        raise VerifyException(f"'{op.name}' op {what} must be a ranked tensor, got {type_text(attr)}")
    return attr


def check_slice_relation(op: Operation, sliced: TensorType, full: TensorType, axis: int, sliced_name: str, full_name: str) -> None:
    """When ``full`` has a distributed layout, ``sliced`` must have ``#ttg.slice<{dim = axis, parent = full's}>``."""
    full_enc, sliced_enc = encoding_of(full), encoding_of(sliced)
    if full_enc is None and sliced_enc is None:
        return
    if (full_enc is None) != (sliced_enc is None):
        raise VerifyException(f"'{op.name}' op {sliced_name} and {full_name} must both have a layout or neither")
    if not isinstance(full_enc, DistributedLayoutAttr) or not isinstance(sliced_enc, DistributedLayoutAttr):
        return
    if full_enc.encoding.rank < 2:
        return
    expected = SliceEncoding(axis, full_enc.encoding)
    if sliced_enc.encoding != expected:
        raise VerifyException(
            f"'{op.name}' op {sliced_name} layout must be {expected.to_text()}, the {full_name} layout sliced along axis {axis}"
        )
