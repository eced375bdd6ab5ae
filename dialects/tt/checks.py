"""Verifier helpers shared by the ``tt`` op modules (Triton's shape/encoding traits).

Messages keep Triton's wording: ``'tt.X' op ...``.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.ods_checks import is_signless_int, is_tt_float
from ltc.dialects.tt.types import PtrType, encoding_of, shape_of, type_text
from ltc.dialects.ttg_attrs import DistributedLayoutAttr, LayoutAttr
from ltc.encodings import EncodingError
from ltc.encodings.slice import SliceEncoding
from ltc.linear_layout import LayoutError

__all__ = [
    "TT_FP_INT_TENSOR",
    "TT_TENSOR",
    "TT_TYPE",
    "broadcast_layouts_match",
    "check_ods_type",
    "check_same_shape_and_encoding",
    "check_variadic_tt_tensors",
    "check_slice_relation",
    "is_tensor",
    "is_tt_element",
    "is_tt_float",
    "is_tt_fp_int_tensor",
    "is_tt_int",
    "is_tt_tensor",
    "is_tt_type",
    "reject_inside_map_elementwise",
    "require_tensor",
]


# ODS's descriptions of Triton's type constraints, as its "must be ..." messages quote them.
TT_TENSOR = "ranked tensor of floating-point or integer or ptr values"
TT_FP_INT_TENSOR = "ranked tensor of floating-point or integer values"
TT_TYPE = (
    "floating-point or ranked tensor of floating-point values or integer or ranked tensor of integer "
    "values or ptr or ranked tensor of ptr values"
)

_TT_INT_WIDTHS = frozenset({1, 4, 8, 16, 32, 64})


def is_tt_int(ty: Attribute) -> bool:
    """Triton's ``TT_Int``: signless i1, i4, i8, i16, i32 or i64 (not ``index``, not ``ui8``)."""
    return is_signless_int(ty) and ty.width.data in _TT_INT_WIDTHS  # type: ignore[attr-defined]


def is_tt_element(ty: Attribute) -> bool:
    """An element type of ``TT_Tensor``: ``TT_Float``, ``TT_Int`` or ``!tt.ptr``."""
    return is_tt_float(ty) or is_tt_int(ty) or isinstance(ty, PtrType)


def is_tt_tensor(ty: Attribute) -> bool:
    """Triton's ``TT_Tensor``: a ranked tensor of ``TT_Float``, ``TT_Int`` or pointers."""
    return isinstance(ty, TensorType) and is_tt_element(ty.element_type)


def is_tt_fp_int_tensor(ty: Attribute) -> bool:
    """Triton's ``TT_FpIntTensor``: a ranked tensor of ``TT_Float`` or ``TT_Int``."""
    return isinstance(ty, TensorType) and (is_tt_float(ty.element_type) or is_tt_int(ty.element_type))


def is_tt_type(ty: Attribute) -> bool:
    """Triton's ``TT_Type``: a ``TT_Tensor`` or one of its element types as a scalar."""
    return is_tt_tensor(ty) or is_tt_element(ty)


def check_ods_type(op: Operation, kind: str, index: int, ty: Attribute, ok: bool, description: str) -> None:
    """ODS's type-constraint failure: ``'op' op operand #0 must be <description>, but got 'T'``
    (``kind`` is ``operand`` or ``result``; ``index`` counts all operands, or results)."""
    if not ok:
        raise VerifyException(f"'{op.name}' op {kind} #{index} must be {description}, but got '{type_text(ty)}'")


def check_variadic_tt_tensors(op: Operation) -> None:
    """ODS's ``Variadic<TT_Tensor>`` operands (``tt.reduce``, ``tt.scan``): every operand a
    tensor of Triton element types (``index`` is not one)."""
    for i, v in enumerate(op.operands):
        check_ods_type(op, "operand", i, v.type, is_tt_tensor(v.type), f"variadic of {TT_TENSOR}")


def check_same_shape_and_encoding(op: Operation, types: Sequence[Attribute], what: str) -> None:
    """Triton's SameOperandsAndResultShape + SameOperandsAndResultEncoding."""
    shapes = {shape_of(t) for t in types}
    if len(shapes) > 1:
        raise VerifyException(f"'{op.name}' op requires the same shape for all {what}")
    encodings = {encoding_of(t) for t in types}
    if len(encodings) > 1:
        raise VerifyException(f"'{op.name}' op requires the same encoding for all {what}")


def nested_in(op: Operation, name: str) -> bool:
    """Whether some op enclosing ``op`` is named ``name``."""
    parent = op.parent_op()
    while parent is not None:
        if parent.name == name:
            return True
        parent = parent.parent_op()
    return False


def reject_inside_map_elementwise(op: Operation) -> None:
    """Triton bans ops that write memory from the scalar region of ``tt.map_elementwise``
    (treated as a scalar, the write would lose its masking)."""
    if nested_in(op, "tt.map_elementwise"):
        raise VerifyException(f"'{op.name}' op Stores are not supported inside map_elementwise")


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


def broadcast_layouts_match(src: TensorType, res: TensorType) -> bool:
    """Triton's rule for ``tt.broadcast``: the result's layout, with its broadcast dims
    (size 1 in ``src``) dropped from every basis, is ``src``'s layout, up to register
    bases that are zero (copies) on either side. The two may be
    spelled differently (``#ttg.linear`` for a ``#ttg.blocked``); linear layouts
    decide. Layouts without a linear layout here compare as attributes."""
    a, b = src.encoding, res.encoding
    if a == b:
        return True
    if not (isinstance(a, LayoutAttr) and isinstance(b, LayoutAttr)):
        return False
    src_shape, res_shape = list(src.get_shape()), list(res.get_shape())
    try:
        src_ll = a.to_linear_layout(src_shape)
        res_ll = b.to_linear_layout(res_shape)
    except (EncodingError, LayoutError, ValueError):
        return False
    grown = [s == 1 and r != 1 for s, r in zip(src_shape, res_shape)]

    def canonical(in_dims: dict, project: bool) -> list:
        # registers that hold a broadcast copy (zero bases) do not count, as in Triton
        out = []
        for in_dim, dim_bases in in_dims.items():
            rows = [tuple(0 if project and grown[i] else c for i, c in enumerate(b)) for b in dim_bases]
            if in_dim == "register":
                rows = [b for b in rows if any(b)]
            out.append((in_dim, rows))
        return out

    if list(res_ll.out_dims) != list(src_ll.out_dims):
        return False
    return canonical(res_ll.bases, True) == canonical(src_ll.bases, False)


def check_operand_layouts(op: Operation) -> None:
    """Ops that infer their result's layout from their operands' (expand_dims, broadcast,
    reshape, trans, join, split, reduce) need operands whose encoding, if any, is a layout:
    Triton aborts on any other attribute there (a failed ``cast<LayoutEncodingTrait>``)."""
    for operand in op.operands:
        enc = encoding_of(operand.type)
        if enc is not None and not isinstance(enc, LayoutAttr):
            raise VerifyException(
                f"'{op.name}' op operand encoding {type_text(enc)} is not a layout: the op's layouts are inferred "
                "from its operands' (Triton aborts on this)"
            )
