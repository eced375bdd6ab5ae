"""``tt`` ops that reshape tensors without computing on elements.

``tt.splat``, ``tt.unsplat``, ``tt.expand_dims``, ``tt.broadcast``, ``tt.reshape``,
``tt.trans``, ``tt.join``, ``tt.cat``, ``tt.split``, ``tt.gather``. Most print
``$src : T -> R``; ``tt.unsplat`` writes only the source type.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import I32, DenseArrayBase, IntegerAttr, IntegerType, TensorType, UnitAttr, i32
from xdsl.ir import SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.attr_dict import parse_attr_dict_into, print_sorted_attr_dict
from ltc.dialects.tt.checks import check_slice_relation, is_tensor, require_tensor
from ltc.dialects.tt.types import element_type_of, encoding_of, type_text

__all__ = [
    "BroadcastOp",
    "CatOp",
    "ExpandDimsOp",
    "GatherOp",
    "JoinOp",
    "ReshapeOp",
    "SplatOp",
    "SplitOp",
    "TransOp",
    "UnsplatOp",
]

# ---------------------------------------------------------------------------
# Shape manipulation
# ---------------------------------------------------------------------------


class _UnaryShapeOp(IRDLOperation):
    """Shared code of ``$src attr-dict : T -> R`` shape ops."""

    src = operand_def()
    result = result_def(TensorType)

    traits = traits_def(Pure())

    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def _check_same_element_type(self) -> None:
        if element_type_of(self.src.type) != element_type_of(self.result.type):
            raise VerifyException(f"'{self.name}' op requires the same element type for all operands and results")


@irdl_op_definition
class SplatOp(_UnaryShapeOp):
    """``%t = tt.splat %x : i32 -> tensor<128xi32>``: a tensor filled with a scalar."""

    name = "tt.splat"

    def __init__(self, src: SSAValue, result_type: TensorType):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        self._check_same_element_type()
        if is_tensor(self.src.type):
            raise VerifyException(f"'tt.splat' op operand must be a scalar, got {type_text(self.src.type)}")


@irdl_op_definition
class UnsplatOp(IRDLOperation):
    """``%x = tt.unsplat %t : tensor<1x1xf32>``: the only element of a one-element tensor
    (the result type, the element type, is not written)."""

    name = "tt.unsplat"

    src = operand_def(TensorType)
    result = result_def()

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> UnsplatOp:
        operand = parser.parse_unresolved_operand()
        _, attrs = parse_attr_dict_into(parser, ())
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        value = parser.resolve_operand(operand, src_type)
        return cls.create(operands=[value], result_types=[element_type_of(src_type)], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        print_sorted_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)

    def verify_(self) -> None:
        src = self.src.type
        assert isinstance(src, TensorType)
        if src.element_count() != 1:
            raise VerifyException("'tt.unsplat' op source tensor must have exactly one element")
        if src.element_type != self.result.type:
            raise VerifyException("'tt.unsplat' op result type must be the element type of the source")


@irdl_op_definition
class ExpandDimsOp(_UnaryShapeOp):
    """``%e = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>``: insert a size-1 dim."""

    name = "tt.expand_dims"

    axis = prop_def(IntegerAttr[I32])

    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, src: SSAValue, axis: int, result_type: TensorType):
        super().__init__(operands=[src], result_types=[result_type], properties={"axis": IntegerAttr(axis, i32)})

    def verify_(self) -> None:
        self._check_same_element_type()
        src = require_tensor(self, self.src.type, "operand")
        res = require_tensor(self, self.result.type, "result")
        axis = self.axis.value.data
        rank = len(src.get_shape())
        if not 0 <= axis <= rank:
            raise VerifyException(f"'tt.expand_dims' op axis {axis} is out of range for a rank-{rank} operand (must be in [0, {rank}])")
        expected = (*src.get_shape()[:axis], 1, *src.get_shape()[axis:])
        if res.get_shape() != expected:
            raise VerifyException(
                f"'tt.expand_dims' op result shape {list(res.get_shape())} must be the operand shape with a 1 inserted "
                f"at axis {axis}: {list(expected)}"
            )
        check_slice_relation(self, src, res, axis, "operand", "result")


@irdl_op_definition
class BroadcastOp(_UnaryShapeOp):
    """``%b = tt.broadcast %e : tensor<1x128xi32> -> tensor<64x128xi32>``: grow size-1 dims."""

    name = "tt.broadcast"

    def __init__(self, src: SSAValue, result_type: TensorType):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        self._check_same_element_type()
        src = require_tensor(self, self.src.type, "operand")
        res = require_tensor(self, self.result.type, "result")
        if encoding_of(src) != encoding_of(res):
            raise VerifyException("'tt.broadcast' op requires the same encoding for all operands and results")
        src_shape, res_shape = src.get_shape(), res.get_shape()
        if len(src_shape) != len(res_shape):
            raise VerifyException("'tt.broadcast' op source rank differs from result rank")
        for dim, (s, r) in enumerate(zip(src_shape, res_shape)):
            if s != 1 and s != r:
                raise VerifyException(
                    f"'tt.broadcast' op Different dimensions at index {dim} between source and result.  "
                    "Broadcast requires the source dimension to be 1."
                )


@irdl_op_definition
class ReshapeOp(_UnaryShapeOp):
    """``%r = tt.reshape %t allow_reorder efficient_layout : tensor<128x2xf32> -> tensor<256xf32>``."""

    name = "tt.reshape"

    allow_reorder = opt_prop_def(UnitAttr)
    efficient_layout = opt_prop_def(UnitAttr)

    assembly_format = (
        "$src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)? attr-dict "
        "`:` type($src) `->` type($result)"
    )

    def verify_(self) -> None:
        self._check_same_element_type()
        src = require_tensor(self, self.src.type, "operand")
        res = require_tensor(self, self.result.type, "result")
        if src.element_count() != res.element_count():
            raise VerifyException("'tt.reshape' op number of src and dst elements of reshape must be the same")
        if self.allow_reorder is None and (encoding_of(src) is None) != (encoding_of(res) is None):
            raise VerifyException("'tt.reshape' op operand and result must both have a layout or neither")


@irdl_op_definition
class TransOp(_UnaryShapeOp):
    """``%t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x128xi32> -> tensor<128x64xi32>``: permute dims."""

    name = "tt.trans"

    order = prop_def(DenseArrayBase)

    irdl_options = (ParsePropInAttrDict(),)

    def verify_(self) -> None:
        self._check_same_element_type()
        src = require_tensor(self, self.src.type, "operand")
        res = require_tensor(self, self.result.type, "result")
        order = list(self.order.get_values())
        rank = len(src.get_shape())
        if self.order.elt_type != i32:
            raise VerifyException("'tt.trans' op order must be an array<i32: ...>")
        if sorted(order) != list(range(rank)):
            raise VerifyException("'tt.trans' op order must be a permutation of [0, ..., rank - 1]")
        expected = tuple(src.get_shape()[i] for i in order)
        if res.get_shape() != expected:
            raise VerifyException(
                f"'tt.trans' op result shape {list(res.get_shape())} must be the operand shape permuted by the order: {list(expected)}"
            )


class _BinaryShapeOp(IRDLOperation):
    """``$lhs, $rhs attr-dict : T -> R`` with both operands of one type."""

    T: ClassVar = VarConstraint("T", AnyAttr())

    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(TensorType)

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"


@irdl_op_definition
class JoinOp(_BinaryShapeOp):
    """``%j = tt.join %a, %b : tensor<128xf32> -> tensor<128x2xf32>``: stack along a new minor dim."""

    name = "tt.join"

    def verify_(self) -> None:
        src = require_tensor(self, self.lhs.type, "operand")
        res = require_tensor(self, self.result.type, "result")
        if res.element_type != src.element_type:
            raise VerifyException("'tt.join' op requires the same element type for operands and result")
        if res.get_shape() != (*src.get_shape(), 2):
            expected = ", ".join(str(d) for d in (*src.get_shape(), 2))
            got = ", ".join(str(d) for d in res.get_shape())
            raise VerifyException(f"'tt.join' op result shape must be ({expected}), but got {got}")


@irdl_op_definition
class CatOp(_BinaryShapeOp):
    """``%c = tt.cat %a, %b : tensor<128xf32> -> tensor<256xf32>``: concatenate along dim 0."""

    name = "tt.cat"

    def verify_(self) -> None:
        src = require_tensor(self, self.lhs.type, "operand")
        res = require_tensor(self, self.result.type, "result")
        if res.element_type != src.element_type:
            raise VerifyException("'tt.cat' op requires the same element type for all operands and results")
        if len(res.get_shape()) != len(src.get_shape()):
            raise VerifyException("'tt.cat' op result rank must equal the operand rank")
        if res.element_count() != 2 * src.element_count():
            raise VerifyException("'tt.cat' op result must have twice as many elements as each operand")


@irdl_op_definition
class SplitOp(IRDLOperation):
    """``%lo, %hi = tt.split %t : tensor<128x2xf32> -> tensor<128xf32>``: split the trailing size-2 dim."""

    name = "tt.split"

    T: ClassVar = VarConstraint("T", AnyAttr())

    src = operand_def(TensorType)
    outLHS = result_def(T)
    outRHS = result_def(T)

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$src attr-dict `:` type($src) `->` type($outLHS)"

    def verify_(self) -> None:
        src = require_tensor(self, self.src.type, "operand")
        res = require_tensor(self, self.outLHS.type, "result")
        shape = src.get_shape()
        if not shape or shape[-1] != 2:
            raise VerifyException(f"'tt.split' op last dimension of input tensor must be 2; got {type_text(src)}")
        if res.element_type != src.element_type or res.get_shape() != shape[:-1]:
            raise VerifyException(
                f"'tt.split' op results must be the operand without its trailing dim: {list(shape[:-1])}x{type_text(src.element_type)}"
            )


@irdl_op_definition
class GatherOp(IRDLOperation):
    """``%g = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<256xf32>, tensor<256xi32>) -> tensor<256xf32>``."""

    name = "tt.gather"

    src = operand_def(TensorType)
    indices = operand_def(TensorType)
    axis = prop_def(IntegerAttr[I32])
    efficient_layout = opt_prop_def(UnitAttr)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = "$src `[` $indices `]` attr-dict `:` functional-type(operands, results)"

    def verify_(self) -> None:
        src = require_tensor(self, self.src.type, "source")
        idx = require_tensor(self, self.indices.type, "indices")
        res = require_tensor(self, self.result.type, "result")
        axis = self.axis.value.data
        rank = len(src.get_shape())
        if res.get_shape() != idx.get_shape():
            raise VerifyException("'tt.gather' op indices and output shapes must match")
        if encoding_of(res) != encoding_of(idx):
            raise VerifyException("'tt.gather' op indices and output encodings must match")
        if res.element_type != src.element_type:
            raise VerifyException("'tt.gather' op input and output element types must match")
        if not isinstance(idx.element_type, IntegerType):
            raise VerifyException("'tt.gather' op indices must be integers")
        if len(idx.get_shape()) != rank:
            raise VerifyException("'tt.gather' op input and indices ranks must match")
        if not 0 <= axis < rank:
            raise VerifyException("'tt.gather' op gather dimension must be less than the input rank")
        for dim in range(rank):
            if dim != axis and idx.get_shape()[dim] != src.get_shape()[dim]:
                raise VerifyException(f"'tt.gather' op indices dimension {dim} must match the corresponding input dimension")
