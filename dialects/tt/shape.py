"""``tt`` ops that reshape tensors without computing on elements.

``tt.splat``, ``tt.unsplat``, ``tt.expand_dims``, ``tt.broadcast``, ``tt.reshape``,
``tt.trans``, ``tt.join``, ``tt.cat``, ``tt.split``, ``tt.gather``. Most print
``$src : T -> R``; ``tt.unsplat`` writes only the source type.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import I32, DenseArrayBase, IntegerAttr, IntegerType, TensorType, UnitAttr, i32
from xdsl.ir import Attribute, SSAValue
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
from ltc.dialects.tt.checks import (
    check_operand_layouts,
    TT_TENSOR,
    TT_TYPE,
    broadcast_layouts_match,
    check_ods_type,
    check_slice_relation,
    is_tt_int,
    is_tt_tensor,
    is_tt_type,
    require_tensor,
)
from ltc.dialects.tt.inferred_layouts import (
    is_expensive_view,
    layouts_agree,
    reshape_result,
    split_result,
    trans_result,
)
from ltc.dialects.tt.types import element_type_of, encoding_of, type_text
from ltc.dialects.ttg_attrs import DistributedLayoutAttr, LayoutAttr, layout_attr
from ltc.dialects.verifier import UnprefixedVerifyException

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

    def _check_ods_types(self) -> None:
        """ODS's constraints: a ``TT_Tensor`` (a splat's source: a ``TT_Type``) in and out."""
        src = self.src.type
        if isinstance(self, SplatOp):
            check_ods_type(self, "operand", 0, src, is_tt_type(src), TT_TYPE)
        else:
            check_ods_type(self, "operand", 0, src, is_tt_tensor(src), TT_TENSOR)
        check_ods_type(self, "result", 0, self.result.type, is_tt_tensor(self.result.type), TT_TENSOR)

    def _check_same_element_type(self) -> None:
        self._check_ods_types()
        if element_type_of(self.src.type) != element_type_of(self.result.type):
            raise VerifyException(f"'{self.name}' op requires the same element type for all operands and results")


@irdl_op_definition
class SplatOp(_UnaryShapeOp):
    """``%t = tt.splat %x : i32 -> tensor<128xi32>``: a tensor filled with a scalar."""

    name = "tt.splat"

    def __init__(self, src: SSAValue, result_type: TensorType):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        # Triton 3.9 checks the element type and, as SameOperandsAndResultEncoding, a
        # tensor operand's layout: it splats a tensor operand too.
        self._check_same_element_type()
        if isinstance(self.src.type, TensorType) and encoding_of(self.src.type) != encoding_of(self.result.type):
            raise VerifyException("'tt.splat' op requires the same encoding for all operands and results")


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
        check_operand_layouts(self)
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
    """``%b = tt.broadcast %e : tensor<1x128xi32> -> tensor<64x128xi32>``: grow size-1 dims.

    The layouts must agree up to broadcasting, as linear layouts (``broadcast_layouts_match``).
    """

    name = "tt.broadcast"

    def __init__(self, src: SSAValue, result_type: TensorType):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        self._check_same_element_type()
        src = require_tensor(self, self.src.type, "operand")
        check_operand_layouts(self)
        res = require_tensor(self, self.result.type, "result")
        src_shape, res_shape = src.get_shape(), res.get_shape()
        if len(src_shape) != len(res_shape):
            raise VerifyException("'tt.broadcast' op rank of source must be same as rank of result")
        for dim, (s, r) in enumerate(zip(src_shape, res_shape)):
            if s != 1 and s != r:
                raise VerifyException(
                    f"'tt.broadcast' op Different dimensions at index {dim} between source and result.  "
                    "Broadcast requires the source dimension to be 1."
                )
        # Triton checks the layouts only when both sides have one.
        if encoding_of(src) is not None and encoding_of(res) is not None and not broadcast_layouts_match(src, res):
            raise VerifyException("'tt.broadcast' op requires matching source and result layouts up to broadcasting")


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
        check_operand_layouts(self)
        res = require_tensor(self, self.result.type, "result")
        if src.element_count() != res.element_count():
            raise VerifyException("'tt.reshape' op number of src and dst elements of reshape must be the same")
        src_enc, res_enc = encoding_of(src), encoding_of(res)
        if (src_enc is None) != (res_enc is None):
            raise UnprefixedVerifyException(  # Triton's emitError
                "Op requires that either (a) src and dst both have encodings, or (b) neither does."
            )
        if not isinstance(src_enc, LayoutAttr) or not isinstance(res_enc, LayoutAttr):
            return
        shape, new_shape = list(src.get_shape()), list(res.get_shape())
        # With `allow_reorder` Triton 3.9 takes the written result layout as long as
        # it is a cheap view of the source (same copies, same registers per thread);
        # otherwise the result must keep every element in its thread.
        if self.allow_reorder is not None and not is_expensive_view(src_enc.encoding, shape, res_enc.encoding, new_shape):
            return
        expected = reshape_result(src_enc.encoding, shape, new_shape)
        if not layouts_agree(new_shape, expected, res_enc.encoding):
            raise VerifyException(
                f"'tt.reshape' op Expected result encoding {expected.to_text()} but was {res_enc.encoding.to_text()}"
            )


@irdl_op_definition
class TransOp(_UnaryShapeOp):
    """``%t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x128xi32> -> tensor<128x64xi32>``: permute dims."""

    name = "tt.trans"

    order = prop_def(DenseArrayBase)

    irdl_options = (ParsePropInAttrDict(),)

    def verify_(self) -> None:
        self._check_same_element_type()
        src = require_tensor(self, self.src.type, "operand")
        check_operand_layouts(self)
        res = require_tensor(self, self.result.type, "result")
        order = list(self.order.get_values())
        rank = len(src.get_shape())
        if self.order.elt_type != i32:
            raise VerifyException("'tt.trans' op order must be an array<i32: ...>")
        if len(order) != rank:
            raise VerifyException("'tt.trans' op order must have the same size as the source tensor")
        if sorted(order) != list(range(rank)):
            raise VerifyException("'tt.trans' op order must be a permutation of 0..n-1")
        expected = tuple(src.get_shape()[i] for i in order)
        if res.get_shape() != expected:
            raise VerifyException("'tt.trans' op result shape must match the permutation of the source shape")
        src_enc, res_enc = encoding_of(src), encoding_of(res)
        if isinstance(src_enc, DistributedLayoutAttr):
            inferred = trans_result(src_enc.encoding, list(src.get_shape()), order)
            written = res_enc.encoding if isinstance(res_enc, LayoutAttr) else None
            if written is None or not layouts_agree(list(expected), inferred, written):
                _raise_inferred_mismatch(self, [TensorType(src.element_type, expected, layout_attr(inferred))], [res])
        elif src_enc is None and res_enc is not None:
            # no layout in, none inferred out
            _raise_inferred_mismatch(self, [TensorType(src.element_type, expected)], [res])


class _BinaryShapeOp(IRDLOperation):
    """``$lhs, $rhs attr-dict : T -> R`` with both operands of one type."""

    T: ClassVar = VarConstraint("T", AnyAttr())

    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(TensorType)

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"

    def _check_ods_types(self) -> None:
        """ODS's constraints: both operands and the result are ``TT_Tensor``s."""
        for index, value in enumerate((self.lhs, self.rhs)):
            check_ods_type(self, "operand", index, value.type, is_tt_tensor(value.type), TT_TENSOR)
        check_ods_type(self, "result", 0, self.result.type, is_tt_tensor(self.result.type), TT_TENSOR)


@irdl_op_definition
class JoinOp(_BinaryShapeOp):
    """``%j = tt.join %a, %b : tensor<128xf32> -> tensor<128x2xf32>``: stack along a new minor dim."""

    name = "tt.join"

    def verify_(self) -> None:
        self._check_ods_types()
        src = require_tensor(self, self.lhs.type, "operand")
        check_operand_layouts(self)
        res = require_tensor(self, self.result.type, "result")
        if res.element_type != src.element_type:
            raise VerifyException("'tt.join' op requires the same element type for operands and result")
        if res.get_shape() != (*src.get_shape(), 2):
            expected = ", ".join(str(d) for d in (*src.get_shape(), 2))
            got = ", ".join(str(d) for d in res.get_shape())
            raise VerifyException(f"'tt.join' op result shape must be ({expected}), but got {got}")
        src_enc, res_enc = encoding_of(src), encoding_of(res)
        if res_enc is None:
            if src_enc is not None:
                raise VerifyException("'tt.join' op result encoding must be specified")
            return
        if not isinstance(res_enc, DistributedLayoutAttr):
            return
        # A result layout has one source layout: split it and compare (Triton's rule).
        split = split_result(res_enc.encoding, list(res.get_shape()))
        if (
            split is None
            or not isinstance(src_enc, LayoutAttr)
            or not layouts_agree(list(src.get_shape()), split, src_enc.encoding)
        ):
            raise VerifyException("'tt.join' op incompatible join layout")


@irdl_op_definition
class CatOp(_BinaryShapeOp):
    """``%c = tt.cat %a, %b : tensor<128xf32> -> tensor<256xf32>``: concatenate along dim 0."""

    name = "tt.cat"

    def verify_(self) -> None:
        self._check_ods_types()
        src = require_tensor(self, self.lhs.type, "operand")
        res = require_tensor(self, self.result.type, "result")
        if res.element_type != src.element_type:
            raise VerifyException("'tt.cat' op requires the same element type for all operands and results")
        if len(res.get_shape()) != len(src.get_shape()):
            raise VerifyException("'tt.cat' op result rank must equal the operand rank")
        if res.element_count() != 2 * src.element_count():
            raise VerifyException("'tt.cat' op result must have twice as many elements as each operand")
        if (encoding_of(src) is None) != (encoding_of(res) is None):
            raise VerifyException(
                "'tt.cat' op requires that either (a) operands and result all have encodings, or (b) none do."
            )
        need = _distinct_registers(res)
        parts = [_distinct_registers(src), _distinct_registers(require_tensor(self, self.rhs.type, "operand"))]
        give = None if None in parts else sum(parts)  # type: ignore[arg-type]
        if need is not None and give is not None and need < give:
            raise VerifyException(
                f"tt.cat result encoding requires {need} non-broadcast register values, but operands provide {give}"
            )


def _distinct_registers(t: TensorType) -> int | None:
    """Distinct elements a thread holds of ``t`` in its layout (register broadcast left
    out); None without a distributed layout."""
    from ltc import f2
    from ltc.encodings import to_linear_layout

    enc = encoding_of(t)
    if not isinstance(enc, DistributedLayoutAttr):
        return None
    try:
        ll = to_linear_layout(enc.encoding, tuple(t.get_shape()))
    except ValueError:
        return None
    return 1 << f2.rank(ll.flat_columns_by_in_dim()["register"])


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
        check_ods_type(self, "operand", 0, self.src.type, is_tt_tensor(self.src.type), TT_TENSOR)
        for index, value in enumerate((self.outLHS, self.outRHS)):
            check_ods_type(self, "result", index, value.type, is_tt_tensor(value.type), TT_TENSOR)
        src = require_tensor(self, self.src.type, "operand")
        check_operand_layouts(self)
        res = require_tensor(self, self.outLHS.type, "result")
        shape = src.get_shape()
        if not shape or shape[-1] != 2:
            raise VerifyException(f"'tt.split' op last dimension of input tensor must be 2; got {type_text(src)}")
        src_enc, res_enc = encoding_of(src), encoding_of(res)
        inferred_enc = None
        if isinstance(src_enc, DistributedLayoutAttr):
            split = split_result(src_enc.encoding, list(shape))
            if split is None:
                raise VerifyException("'tt.split' op failed to infer returned types")
            inferred_enc = layout_attr(split)
        inferred = (
            TensorType(src.element_type, shape[:-1])
            if inferred_enc is None
            else TensorType(src.element_type, shape[:-1], inferred_enc)
        )
        agree = res.element_type == src.element_type and res.get_shape() == shape[:-1]
        if agree and inferred_enc is not None:
            agree = isinstance(res_enc, LayoutAttr) and layouts_agree(
                list(shape[:-1]), inferred_enc.encoding, res_enc.encoding
            )
        elif agree:
            agree = res_enc is None
        if not agree:
            _raise_inferred_mismatch(self, [inferred, inferred], [res, res])


def _raise_inferred_mismatch(op: IRDLOperation, inferred: list[Attribute], written: list[Attribute]) -> None:
    """MLIR's diagnostic for an op whose written result types are not the inferred ones."""
    def quoted(types: list[Attribute]) -> str:
        return ", ".join("'" + type_text(t) + "'" for t in types)

    raise VerifyException(
        f"'{op.name}' op inferred type(s) {quoted(inferred)} are incompatible "
        f"with return type(s) of operation {quoted(written)}"
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
        # ODS first: TT_Tensor source and result, TT_IntTensor indices
        check_ods_type(self, "operand", 0, self.src.type, is_tt_tensor(self.src.type), TT_TENSOR)
        idx_ok = isinstance(self.indices.type, TensorType) and is_tt_int(self.indices.type.element_type)
        check_ods_type(self, "operand", 1, self.indices.type, idx_ok, "ranked tensor of integer values")
        check_ods_type(self, "result", 0, self.result.type, is_tt_tensor(self.result.type), TT_TENSOR)
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
