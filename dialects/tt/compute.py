"""``tt`` ops that compute whole tensors: ranges, histograms, dot, reductions.

``tt.make_range``, ``tt.histogram``, ``tt.dot`` (``, inputPrecision = tf32``
before the attribute dictionary; ``ieee`` is never printed), and the region ops
``tt.reduce``, ``tt.scan``, ``tt.map_elementwise`` with their return ops. The
region ops have no custom syntax in Triton: they print in the generic form, so
they define no ``assembly_format``.
``parse_dot_types`` / ``print_dot_types`` read and write the dot types
(`` : A * B -> D``), shared with ``ttng.warp_group_dot``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import I32, BoolAttr, IntegerAttr, IntegerType, TensorType, i32
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, Pure, ReturnLike
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.attr_dict import parse_attr_dict_into, print_sorted_attr_dict
from ltc.dialects.tt.attrs import InputPrecision, InputPrecisionAttr
from ltc.dialects.tt.checks import check_same_shape_and_encoding, check_slice_relation, require_tensor
from ltc.dialects.tt.types import element_type_of, encoding_of, i1_like, type_text

__all__ = [
    "DotOp",
    "HistogramOp",
    "MakeRangeOp",
    "MapElementwiseOp",
    "MapElementwiseReturnOp",
    "ReduceOp",
    "ReduceReturnOp",
    "ScanOp",
    "ScanReturnOp",
    "parse_dot_types",
    "print_dot_types",
]


# ---------------------------------------------------------------------------
# Ranges and histograms
# ---------------------------------------------------------------------------


@irdl_op_definition
class MakeRangeOp(IRDLOperation):
    """``%r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>``: start, ..., end - 1."""

    name = "tt.make_range"

    end = prop_def(IntegerAttr[I32])
    start = prop_def(IntegerAttr[I32])
    result = result_def(TensorType)

    traits = traits_def(Pure())

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, start: int, end: int, result_type: TensorType | None = None):
        if result_type is None:
            result_type = TensorType(i32, [end - start])
        super().__init__(
            result_types=[result_type],
            properties={"end": IntegerAttr(end, i32), "start": IntegerAttr(start, i32)},
        )

    def verify_(self) -> None:
        start, end = self.start.value.data, self.end.value.data
        ty = self.result.type
        assert isinstance(ty, TensorType)
        if len(ty.get_shape()) != 1:
            raise VerifyException("'tt.make_range' op result must be a 1D tensor")
        if start >= end:
            raise VerifyException("'tt.make_range' op start must be less than end")
        if ty.get_shape()[0] != end - start:
            raise VerifyException("'tt.make_range' op number of elements in returned tensor, "
                                  f"{ty.get_shape()[0]}, must match size of range [{start}, {end}), which has {end - start} elements")
        if ty.element_type != i32:
            raise VerifyException(f"'tt.make_range' op returned tensor must have i32 elements, but has {type_text(ty.element_type)}")


@irdl_op_definition
class HistogramOp(IRDLOperation):
    """``%h = tt.histogram %x[, %mask] : tensor<128xi32> -> tensor<64xi32>``: counts of 0 .. bins-1."""

    name = "tt.histogram"

    src = operand_def(TensorType)
    mask = opt_operand_def()
    result = result_def(TensorType)

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> HistogramOp:
        operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        if len(operands) > 2:
            parser.raise_error("'tt.histogram' takes one or two operands (src, mask)")
        _, attrs = parse_attr_dict_into(parser, ())
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, (src_type, i1_like(src_type)))]
        return cls.create(operands=values, result_types=[result_type], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_sorted_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        src = require_tensor(self, self.src.type, "operand")
        res = require_tensor(self, self.result.type, "result")
        if not isinstance(src.element_type, IntegerType) or not isinstance(res.element_type, IntegerType):
            raise VerifyException("'tt.histogram' op operand and result must be integer tensors")
        if len(res.get_shape()) != 1:
            raise VerifyException("'tt.histogram' op result must be a 1D tensor")
        if self.mask is not None and self.mask.type != i1_like(src):
            raise VerifyException(f"'tt.histogram' op mask type must be {type_text(i1_like(src))}")


# ---------------------------------------------------------------------------
# Dot
# ---------------------------------------------------------------------------


def parse_dot_types(parser: Parser) -> tuple[Attribute, Attribute, Attribute]:
    """`` : A * B -> D``: the types of a dot-like op (``tt.dot``, ``ttng.warp_group_dot``);
    the accumulator has the result's type."""
    parser.parse_punctuation(":")
    a_type = parser.parse_type()
    parser.parse_punctuation("*")
    b_type = parser.parse_type()
    parser.parse_punctuation("->")
    return a_type, b_type, parser.parse_type()


def print_dot_types(printer: Printer, a_type: Attribute, b_type: Attribute, d_type: Attribute) -> None:
    """Print `` : A * B -> D`` (see ``parse_dot_types``)."""
    printer.print_string(" : ")
    printer.print_attribute(a_type)
    printer.print_string(" * ")
    printer.print_attribute(b_type)
    printer.print_string(" -> ")
    printer.print_attribute(d_type)


@irdl_op_definition
class DotOp(IRDLOperation):
    """``%d = tt.dot %a, %b, %c[, inputPrecision = tf32] : tensor<MxKxf16> * tensor<KxNxf16> -> tensor<MxNxf32>``.

    ``ieee`` (the default) is never printed; ``maxNumImpreciseAcc`` (default 0)
    goes in the attribute dictionary.
    """

    name = "tt.dot"

    a = operand_def(TensorType)
    b = operand_def(TensorType)
    c = operand_def(TensorType)
    inputPrecision = opt_prop_def(InputPrecisionAttr)
    maxNumImpreciseAcc = opt_prop_def(IntegerAttr[I32])
    d = result_def(TensorType)

    traits = traits_def(Pure())

    DEFAULTS: ClassVar[dict[str, Attribute]] = {"maxNumImpreciseAcc": IntegerAttr(0, i32)}

    def __init__(self, a: SSAValue, b: SSAValue, c: SSAValue, input_precision: InputPrecision = InputPrecision.IEEE):
        props = {"inputPrecision": InputPrecisionAttr(input_precision) if input_precision != InputPrecision.IEEE else None}
        super().__init__(operands=[a, b, c], result_types=[c.type], properties=props)

    @classmethod
    def parse(cls, parser: Parser) -> DotOp:
        operands = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            operands.append(parser.parse_unresolved_operand())
        props: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("inputPrecision")
            parser.parse_punctuation("=")
            precision = InputPrecisionAttr(InputPrecisionAttr.parse_parameter(parser))
            if precision.data != InputPrecision.IEEE:
                props["inputPrecision"] = precision
        dict_props, attrs = parse_attr_dict_into(parser, ("maxNumImpreciseAcc",))
        props |= dict_props
        if "inputPrecision" in attrs:
            parser.raise_error("inputPrecision is written as ', inputPrecision = <mode>' before the attribute dictionary")
        a_type, b_type, d_type = parse_dot_types(parser)
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, (a_type, b_type, d_type))]
        return cls.create(operands=values, result_types=[d_type], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        if self.inputPrecision is not None and self.inputPrecision.data != InputPrecision.IEEE:
            printer.print_string(f", inputPrecision = {self.inputPrecision.data.value}")
        print_sorted_attr_dict(printer, self, defaults=self.DEFAULTS, reserved=("inputPrecision",))
        print_dot_types(printer, self.a.type, self.b.type, self.d.type)

    def verify_(self) -> None:
        a, b, c, d = (require_tensor(self, v.type, n) for v, n in ((self.a, "a"), (self.b, "b"), (self.c, "c"), (self.d, "d")))
        if c != d:
            raise VerifyException("'tt.dot' op result type must match the accumulator type")
        a_shape, b_shape, c_shape = a.get_shape(), b.get_shape(), c.get_shape()
        if not (len(a_shape) == len(b_shape) == len(c_shape)) or len(a_shape) not in (2, 3):
            raise VerifyException("'tt.dot' op expected operands to be 2d or 3d")
        if a_shape[-1] != b_shape[-2]:
            raise VerifyException(
                f"'tt.dot' op the K dims of a ({a_shape[-1]}) and b ({b_shape[-2]}) must be equal"
            )
        expected = (*a_shape[:-1], b_shape[-1])
        if len(a_shape) == 3 and (a_shape[0] != b_shape[0]):
            raise VerifyException("'tt.dot' op the batch dims of a and b must be equal")
        if c_shape != expected:
            raise VerifyException(
                f"'tt.dot' op accumulator shape {list(c_shape)} must be {list(expected)} (a is {list(a_shape)}, b is {list(b_shape)})"
            )
        if (encoding_of(a) is None) != (encoding_of(c) is None) or (encoding_of(b) is None) != (encoding_of(c) is None):
            raise VerifyException("'tt.dot' op operands and result must all have a layout or none")


# ---------------------------------------------------------------------------
# Reduce, scan, map_elementwise (generic form in Triton's printing)
# ---------------------------------------------------------------------------


def _verify_combine_region(op: Operation, region: Region, element_types: Sequence[Attribute], n_args: int, what: str) -> None:
    """The combiner takes ``n_args`` scalars (element types repeated) and yields one per input."""
    block = region.blocks.first
    if block is None or len(region.blocks) != 1:
        raise VerifyException(f"'{op.name}' op expects a single-block {what} region")
    expected_args = list(element_types) * (n_args // len(element_types))
    if list(block.arg_types) != expected_args:
        raise VerifyException(
            f"'{op.name}' op {what} region arguments must be ({', '.join(type_text(t) for t in expected_args)})"
        )
    term = block.last_op
    if term is None or not term.has_trait(IsTerminator):
        raise VerifyException(f"'{op.name}' op {what} region must end with its return op")
    if [v.type for v in term.operands] != list(element_types):
        raise VerifyException(
            f"'{op.name}' op {what} region must return ({', '.join(type_text(t) for t in element_types)})"
        )


class _RegionReturnOp(IRDLOperation):
    """Shared code of the terminators of the combiner / scalar regions: ``NAME %a, %b : f32, i32``."""

    result = var_operand_def()

    assembly_format = "$result attr-dict `:` type($result)"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[list(values)])


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """Reduction along ``axis`` with a combiner region; printed generically by Triton::

        %m = "tt.reduce"(%x) <{axis = 0 : i32}> ({
        ^bb0(%a: f32, %b: f32):
          %s = arith.maxnumf %a, %b : f32
          tt.reduce.return %s : f32
        }) : (tensor<128xf32>) -> f32
    """

    name = "tt.reduce"

    srcs = var_operand_def(TensorType)
    axis = prop_def(IntegerAttr[I32])
    result = var_result_def()
    combineOp = region_def("single_block")

    traits = traits_def(Pure())

    def verify_(self) -> None:
        if not self.srcs:
            raise VerifyException("'tt.reduce' op must have at least 1 operand")
        types = [require_tensor(self, v.type, "operand") for v in self.srcs]
        shape = types[0].get_shape()
        if any(t.get_shape() != shape for t in types):
            raise VerifyException("'tt.reduce' op requires the same shape for all operands")
        if len({encoding_of(t) for t in types}) > 1:
            raise VerifyException("'tt.reduce' op requires the same encoding for all operands")
        axis = self.axis.value.data
        rank = len(shape)
        if not 0 <= axis < rank:
            raise VerifyException(f"'tt.reduce' op reduction axis {axis} is out of range for rank {rank}")
        if len(self.result) != len(types):
            raise VerifyException("'tt.reduce' op must have one result per operand")
        for src, res in zip(types, self.result.types):
            if rank == 1:
                if res != src.element_type:
                    raise VerifyException(
                        f"'tt.reduce' op result type {type_text(res)} must be the element type {type_text(src.element_type)}"
                    )
                continue
            res_t = require_tensor(self, res, "result")
            expected = shape[:axis] + shape[axis + 1 :]
            if res_t.get_shape() != expected or res_t.element_type != src.element_type:
                raise VerifyException(
                    f"'tt.reduce' op result type {type_text(res)} must be the operand type without dim {axis}"
                )
            check_slice_relation(self, res_t, src, axis, "result", "operand")
        elem_types = [t.element_type for t in types]
        _verify_combine_region(self, self.combineOp, elem_types, 2 * len(types), "combine")


@irdl_op_definition
class ReduceReturnOp(_RegionReturnOp):
    """``tt.reduce.return %s : f32``: terminator of a ``tt.reduce`` combiner."""

    name = "tt.reduce.return"

    traits = traits_def(Pure(), HasParent(ReduceOp), IsTerminator(), ReturnLike())


@irdl_op_definition
class ScanOp(IRDLOperation):
    """Associative scan along ``axis`` (optionally reversed); printed generically by Triton::

        %c = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
        ^bb0(%a: f32, %b: f32):
          %s = arith.addf %a, %b : f32
          tt.scan.return %s : f32
        }) : (tensor<256xf32>) -> tensor<256xf32>
    """

    name = "tt.scan"

    srcs = var_operand_def(TensorType)
    axis = prop_def(IntegerAttr[I32])
    reverse = prop_def(BoolAttr)
    result = var_result_def(TensorType)
    combineOp = region_def("single_block")

    traits = traits_def(Pure())

    def verify_(self) -> None:
        if not self.srcs:
            raise VerifyException("'tt.scan' op must have at least 1 operand")
        types = [require_tensor(self, v.type, "operand") for v in self.srcs]
        if len(self.result) != len(types):
            raise VerifyException("'tt.scan' op must have one result per operand")
        check_same_shape_and_encoding(self, [*types, *self.result.types], "operands and results")
        axis = self.axis.value.data
        rank = len(types[0].get_shape())
        if not 0 <= axis < rank:
            raise VerifyException(f"'tt.scan' op scan axis {axis} is out of range for rank {rank}")
        for src, res in zip(types, self.result.types):
            if src != res:
                raise VerifyException(f"'tt.scan' op result type {type_text(res)} must equal the operand type {type_text(src)}")
        elem_types = [t.element_type for t in types]
        _verify_combine_region(self, self.combineOp, elem_types, 2 * len(types), "combine")


@irdl_op_definition
class ScanReturnOp(_RegionReturnOp):
    """``tt.scan.return %s : f32``: terminator of a ``tt.scan`` combiner."""

    name = "tt.scan.return"

    traits = traits_def(Pure(), HasParent(ScanOp), IsTerminator(), ReturnLike())


@irdl_op_definition
class MapElementwiseOp(IRDLOperation):
    """A scalar region applied elementwise (``pack`` elements at a time); printed generically::

        %y = "tt.map_elementwise"(%x, %i) <{pack = 1 : i32}> ({
        ^bb0(%a: f32, %b: i32):
          ...
          tt.map_elementwise.return %r : f32
        }) : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
    """

    name = "tt.map_elementwise"

    srcs = var_operand_def()
    pack = prop_def(IntegerAttr[I32])
    result = var_result_def()
    scalarOp = region_def("single_block")

    traits = traits_def(Pure())

    def verify_(self) -> None:
        check_same_shape_and_encoding(self, [*(v.type for v in self.srcs), *self.result.types], "operands and results")
        pack = self.pack.value.data
        if pack < 1:
            raise VerifyException("'tt.map_elementwise' op pack must be at least 1")
        block = self.scalarOp.blocks.first
        if block is None:
            raise VerifyException("'tt.map_elementwise' op expects a single-block region")
        expected = [element_type_of(v.type) for v in self.srcs for _ in range(pack)]
        if sorted(map(str, block.arg_types)) != sorted(map(str, expected)) or len(block.arg_types) != len(expected):
            raise VerifyException("'tt.map_elementwise' op region arguments must be pack copies of each operand's element type")


@irdl_op_definition
class MapElementwiseReturnOp(_RegionReturnOp):
    """``tt.map_elementwise.return %r : f32``: terminator of ``tt.map_elementwise``."""

    name = "tt.map_elementwise.return"

    traits = traits_def(Pure(), HasParent(MapElementwiseOp), IsTerminator(), ReturnLike())
