"""``ttg.fp4_to_fp``: unpack e2m1 (fp4) values stored two per i8 into bf16 / f16.

``%r = ttg.fp4_to_fp %src {axis = 1 : i32} : tensor<32x64xi8, #b> -> tensor<32x128xbf16, #b2>``:
the low nibble of each byte is the first element along ``axis``, the high nibble the
second, so the result is twice as long along ``axis``. With layouts, the result's
layout must hold both halves of a byte in one thread: its first register basis is
one step along ``axis``, and dropping that basis (halving the ``axis`` coordinates)
gives the source's linear layout (Triton infers the source's layout from the
result's this way; a blocked result needs an even ``sizePerThread[axis]``).
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloat, BFloat16Type, Float16Type, IntegerAttr, IntegerType, TensorType, i32
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.ods_checks import check_i32_attr
from ltc.dialects.tt.types import type_text
from ltc.dialects.ttg_attrs import LayoutAttr
from ltc.encodings.blocked import BlockedEncoding
from ltc.encodings.shape_rules import fp4_source_layout

__all__ = ["Fp4ToFpOp", "fp4_source_layout"]


@irdl_op_definition
class Fp4ToFpOp(IRDLOperation):
    """``ttg.fp4_to_fp`` (see the module doc)."""

    name = "ttg.fp4_to_fp"

    src = operand_def(TensorType)
    axis = prop_def(IntegerAttr[IntegerType])
    result = result_def(TensorType)

    traits = traits_def(Pure())

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, axis: int, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type], properties={"axis": IntegerAttr(axis, i32)})

    def verify_(self) -> None:
        check_i32_attr(self, "axis")  # ODS checks the attribute before the operand types
        src, res = self.src.type, self.result.type
        if not isinstance(src, TensorType) or src.element_type != IntegerType(8):
            raise VerifyException(
                f"'ttg.fp4_to_fp' op operand #0 must be ranked tensor of 8-bit signless integer values, but got "
                f"'{type_text(src)}'"
            )
        assert isinstance(res, TensorType)
        elem = res.element_type
        if not isinstance(elem, AnyFloat):
            raise VerifyException(
                f"'ttg.fp4_to_fp' op result #0 must be ranked tensor of floating-point values, but got '{type_text(res)}'"
            )
        if not isinstance(elem, (BFloat16Type, Float16Type)):
            raise VerifyException(f"only bf16 or f16 is supported for now, got '{type_text(elem)}'")
        axis = self.axis.value.data
        src_shape, res_shape = list(src.get_shape()), list(res.get_shape())
        if not 0 <= axis < len(src_shape):
            raise VerifyException(f"axis {axis} out of range for rank {len(src_shape)}")
        if len(res_shape) != len(src_shape):
            raise VerifyException("source and result must have the same rank")
        if res_shape[axis] != 2 * src_shape[axis]:
            raise VerifyException(
                f"axis {axis} dimension must be 2x source dimension (src={src_shape[axis]}, dst={res_shape[axis]})"
            )
        for dim, (s, r) in enumerate(zip(src_shape, res_shape)):
            if dim != axis and s != r:
                raise VerifyException(f"dimension {dim} must match the source dimension (src={s}, dst={r})")
        src_enc, res_enc = src.encoding, res.encoding
        src_has, res_has = isinstance(src_enc, LayoutAttr), isinstance(res_enc, LayoutAttr)
        if src_has != res_has:
            raise VerifyException("source and result must both have an encoding, or neither")
        if not src_has:
            return
        assert isinstance(src_enc, LayoutAttr) and isinstance(res_enc, LayoutAttr)
        enc = res_enc.encoding
        if isinstance(enc, BlockedEncoding) and enc.size_per_thread[axis] % 2:
            raise VerifyException("failed to infer encoding")
        inferred = fp4_source_layout(res_enc.to_linear_layout(res_shape), axis)
        if inferred is None:
            raise VerifyException("failed to infer encoding")
        if inferred != src_enc.to_linear_layout(src_shape):
            raise VerifyException(
                f"Src and Dst encodings are not compatible: {src_enc.encoding.to_text()} is not the source layout of "
                f"{enc.to_text()}"
            )
