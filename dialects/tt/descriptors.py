"""``tt`` ops on TMA tensor descriptors (``!tt.tensordesc``).

``tt.make_tensor_descriptor`` (its types print without the ``!tt.ptr`` /
``!tt.tensordesc`` prefix: ``: <f16>, <64x64xf16>``), ``tt.descriptor_load``,
``tt.descriptor_store``, ``tt.descriptor_reduce``, ``tt.descriptor_gather``,
``tt.descriptor_scatter``. A load or store tensor holds as many elements as the
descriptor block (any shape); gather and scatter use a one-row descriptor.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import I32, I64, DenseArrayBase, IntegerAttr, IntegerType, TensorType, i32
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.attr_dict import parse_attr_dict_into, print_sorted_attr_dict
from ltc.dialects.ods_checks import is_signless_int
from ltc.dialects.tt.attrs import CachePolicyAttr, DescriptorReduceKindAttr
from ltc.dialects.tt.checks import TT_TENSOR, check_ods_type, is_tt_tensor, require_tensor
from ltc.dialects.tt.types import PtrType, TensorDescType, element_bit_width, type_text

__all__ = [
    "DescriptorGatherOp",
    "DescriptorLoadOp",
    "DescriptorReduceOp",
    "DescriptorScatterOp",
    "DescriptorStoreOp",
    "MakeTensorDescOp",
]


# ---------------------------------------------------------------------------
# Tensor descriptors (TMA)
# ---------------------------------------------------------------------------


def _parse_operand_list_in_brackets(parser: Parser) -> list[UnresolvedOperand]:
    """``[%a, %b, ...]``: the shape and stride lists of ``tt.make_tensor_descriptor``."""
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)


@irdl_op_definition
class MakeTensorDescOp(IRDLOperation):
    """``%d = tt.make_tensor_descriptor %base, [%s0, %s1], [%st0, %st1] : <f16>, <64x64xf16>``.

    Triton prints the two types without their ``!tt.ptr`` / ``!tt.tensordesc``
    prefix (the op's own dialect); the prefixed form is accepted too. ``padding``
    (1 = zero, 2 = NaN; default 1, not printed) sits in the attribute dictionary.
    """

    name = "tt.make_tensor_descriptor"

    base = operand_def(PtrType)
    shape = var_operand_def(I32)
    strides = var_operand_def(I64)
    padding = opt_prop_def(IntegerAttr[I32])
    result = result_def(TensorDescType)

    traits = traits_def(Pure())

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    # padding = 1 (zero) is the default: neither stored nor printed (as in Triton).
    DEFAULTS: ClassVar[dict[str, Attribute]] = {"padding": IntegerAttr(1, i32)}

    @classmethod
    def parse(cls, parser: Parser) -> MakeTensorDescOp:
        base = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        shape = _parse_operand_list_in_brackets(parser)
        parser.parse_punctuation(",")
        strides = _parse_operand_list_in_brackets(parser)
        props, attrs = parse_attr_dict_into(parser, ("padding",))
        props = {k: v for k, v in props.items() if v != cls.DEFAULTS.get(k)}
        parser.parse_punctuation(":")
        base_type = cls._parse_short_type(parser, PtrType)
        parser.parse_punctuation(",")
        desc_type = cls._parse_short_type(parser, TensorDescType)
        values = [parser.resolve_operand(base, base_type)]
        values += [parser.resolve_operand(o, i32) for o in shape]
        values += [parser.resolve_operand(o, IntegerType(64)) for o in strides]
        props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [1, len(shape), len(strides)])
        return cls.create(operands=values, result_types=[desc_type], properties=props, attributes=attrs)

    @staticmethod
    def _parse_short_type(parser: Parser, type_class: type[PtrType] | type[TensorDescType]) -> Attribute:
        """``<f16>`` (Triton's short form) or the full ``!tt.ptr<f16>``."""
        if parser._current_token.text == "<":  # noqa: SLF001 (xDSL has no public peek)
            return type_class.new(type_class.parse_parameters(parser))
        parsed = parser.parse_type()
        if not isinstance(parsed, type_class):
            parser.raise_error(f"expected {type_class.name} type, got {parsed}")
        return parsed

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.base)
        printer.print_string(", [")
        printer.print_list(self.shape, printer.print_operand)
        printer.print_string("], [")
        printer.print_list(self.strides, printer.print_operand)
        printer.print_string("]")
        print_sorted_attr_dict(printer, self, defaults=self.DEFAULTS, reserved=("operandSegmentSizes",))
        printer.print_string(" : ")
        base_type = self.base.type
        assert isinstance(base_type, PtrType)
        base_type.print_parameters(printer)
        printer.print_string(", ")
        desc_type = self.result.type
        assert isinstance(desc_type, TensorDescType)
        desc_type.print_parameters(printer)

    def verify_(self) -> None:
        desc = self.result.type
        base = self.base.type
        assert isinstance(desc, TensorDescType) and isinstance(base, PtrType)
        rank = len(desc.shape)
        if len(self.shape) != rank or len(self.strides) != rank:
            raise VerifyException(
                f"'tt.make_tensor_descriptor' op needs one shape and one stride per block dim ({rank}), "
                f"got {len(self.shape)} and {len(self.strides)}"
            )
        if desc.element_type != base.pointee_type:
            raise VerifyException("'tt.make_tensor_descriptor' op descriptor element type must be the base pointee type")
        if self.padding is not None and self.padding.value.data not in (1, 2):
            raise VerifyException(
                "'tt.make_tensor_descriptor' op attribute 'padding' failed to satisfy constraint: allowed 32-bit signless integer cases: 1, 2"
            )


def _signless(ty: Attribute) -> Attribute:
    """Integers without their signedness (``si8`` -> ``i8``); other types unchanged."""
    return IntegerType(ty.width.data) if isinstance(ty, IntegerType) else ty


def _same_element(a: Attribute, b: Attribute) -> bool:
    """Triton compares a descriptor's element type with a tensor's up to integer
    signedness (``!tt.tensordesc<..xsi8>`` loads ``tensor<..xi8>``)."""
    return _signless(a) == _signless(b)


def _check_descriptor_block(op: Operation, desc_type: Attribute, tensor_type: Attribute, what: str) -> None:
    """Triton's ``verifyDescriptorLoadStoreType``: the same element type (up to signedness) and element count."""
    if not isinstance(desc_type, TensorDescType):
        raise VerifyException(f"'{op.name}' op descriptor must be a !tt.tensordesc, got {type_text(desc_type)}")
    tensor = require_tensor(op, tensor_type, what)
    if not _same_element(tensor.element_type, desc_type.element_type):
        raise VerifyException(
            f"'{op.name}' op descriptor block and tensor element types must match, but got descriptor element type "
            f"'{type_text(_signless(desc_type.element_type))}' and tensor element type "
            f"'{type_text(_signless(tensor.element_type))}'"
        )
    # Triton 3.9 checks the element count only: neither the shape nor the number of indices.
    desc_count, tensor_count = desc_type.block_type.element_count(), tensor.element_count()
    if tensor_count != desc_count:
        raise VerifyException(
            f"'{op.name}' op descriptor block and tensor must have the same number of elements, but got "
            f"descriptor block with {desc_count} elements tensor with {tensor_count} elements"
        )


@irdl_op_definition
class DescriptorLoadOp(IRDLOperation):
    """``%t = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<128x64xf16> -> tensor<128x64xf16>``."""

    name = "tt.descriptor_load"

    desc = operand_def(TensorDescType)
    indices = var_operand_def(I32)
    cachePolicy = opt_prop_def(CachePolicyAttr)
    result = result_def(TensorType)

    traits = traits_def(MemoryReadEffect())

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = "$desc `[` $indices `]` attr-dict `:` type($desc) `->` type($result)"

    def verify_(self) -> None:
        check_ods_type(self, "result", 0, self.result.type, is_tt_tensor(self.result.type), TT_TENSOR)
        _check_descriptor_block(self, self.desc.type, self.result.type, "result")


@irdl_op_definition
class DescriptorStoreOp(IRDLOperation):
    """``tt.descriptor_store %d[%i, %j], %v : !tt.tensordesc<128x128xf16>, tensor<128x128xf16>``."""

    name = "tt.descriptor_store"

    desc = operand_def(TensorDescType)
    src = operand_def(TensorType)
    indices = var_operand_def(I32)

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    assembly_format = "$desc `[` $indices `]` `,` $src attr-dict `:` type($desc) `,` type($src)"

    def verify_(self) -> None:
        check_ods_type(self, "operand", 1, self.src.type, is_tt_tensor(self.src.type), TT_TENSOR)
        _check_descriptor_block(self, self.desc.type, self.src.type, "source")


@irdl_op_definition
class DescriptorReduceOp(IRDLOperation):
    """``tt.descriptor_reduce add, %d[%i, %j], %v : !tt.tensordesc<32x32xf32>, tensor<32x32xf32>`` (TMA reduce-store)."""

    name = "tt.descriptor_reduce"

    kind = prop_def(DescriptorReduceKindAttr)
    desc = operand_def(TensorDescType)
    src = operand_def(TensorType)
    indices = var_operand_def(I32)

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    assembly_format = "$kind `,` $desc `[` $indices `]` `,` $src attr-dict `:` type($desc) `,` type($src)"

    def verify_(self) -> None:
        check_ods_type(self, "operand", 1, self.src.type, is_tt_tensor(self.src.type), TT_TENSOR)
        _check_descriptor_block(self, self.desc.type, self.src.type, "source")


@irdl_op_definition
class DescriptorGatherOp(IRDLOperation):
    """``%t = tt.descriptor_gather %d[%rows, %col] : (!tt.tensordesc<1x32xf32>, tensor<128xi32>, i32) -> tensor<128x32xf32>``."""

    name = "tt.descriptor_gather"

    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(I32)
    result = result_def(TensorType)

    traits = traits_def(MemoryReadEffect())

    assembly_format = "$desc `[` $x_offsets `,` $y_offset `]` attr-dict `:` functional-type(operands, results)"

    def verify_(self) -> None:
        _check_offsets_ods(self)
        check_ods_type(self, "result", 0, self.result.type, is_tt_tensor(self.result.type), TT_TENSOR)
        _check_gather_scatter(self, self.desc.type, self.x_offsets.type, self.result.type, "result")


@irdl_op_definition
class DescriptorScatterOp(IRDLOperation):
    """``tt.descriptor_scatter %d[%rows, %col], %v : !tt.tensordesc<1x32xf32>, tensor<128xi32>, i32, tensor<128x32xf32>``."""

    name = "tt.descriptor_scatter"

    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(I32)
    src = operand_def(TensorType)

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    assembly_format = (
        "$desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` type(operands)"
    )

    def verify_(self) -> None:
        _check_offsets_ods(self)
        check_ods_type(self, "operand", 3, self.src.type, is_tt_tensor(self.src.type), TT_TENSOR)
        _check_gather_scatter(self, self.desc.type, self.x_offsets.type, self.src.type, "source")


def _check_offsets_ods(op: DescriptorGatherOp | DescriptorScatterOp) -> None:
    """ODS's ``RankedTensorOf<[I16, I32]>`` for the row offsets (operand #1)."""
    ty = op.x_offsets.type
    ok = isinstance(ty, TensorType) and any(is_signless_int(ty.element_type, w) for w in (16, 32))
    check_ods_type(op, "operand", 1, ty, ok, "ranked tensor of 16-bit signless integer or 32-bit signless integer values")


def _check_gather_scatter(op: Operation, desc_type: Attribute, offsets_type: Attribute, tensor_type: Attribute, what: str) -> None:
    """A gather/scatter descriptor has one row; the row offsets are a 1-D tensor (of i16 or
    i32, checked with ODS); the tensor is (number of offsets) x (row width)."""
    assert isinstance(desc_type, TensorDescType)
    offsets = require_tensor(op, offsets_type, "x_offsets")
    tensor = require_tensor(op, tensor_type, what)
    # Triton's messages and order; ours add what was found.
    prefix = f"'{op.name}' op"
    block = list(desc_type.shape)
    if len(block) != 2:
        raise VerifyException(f"{prefix} block must be a 2D tensor, got {block}")
    if block[0] != 1:
        raise VerifyException(f"{prefix} block must have exactly 1 row, got {block}")
    if len(offsets.get_shape()) != 1:  # (its element type, i16 or i32, is ODS's check)
        raise VerifyException(f"{prefix} x offsets must be a 1D tensor, but got '{type_text(offsets_type)}'")
    shape = tensor.get_shape()
    if len(shape) != 2:
        raise VerifyException(f"{prefix} {what} must be a 2D tensor, got {type_text(tensor_type)}")
    # TMA's swizzled tiles have a minimum size: 8 rows of at least 8 32-bit words
    # (Triton's rule and wording).
    if shape[0] < 8:
        raise VerifyException(f"{prefix} must have at least 8 rows, but got {shape[0]}")
    width = element_bit_width(tensor.element_type)
    if width is not None:
        if width > 32:
            raise VerifyException(f"{prefix} TMA dtype cannot be greater than 32 bits")
        min_cols = 32 // width * 8
        if shape[1] < min_cols:
            raise VerifyException(
                f"{prefix} must have at least {min_cols} columns for '{type_text(tensor.element_type)}', "
                f"but got {shape[1]}"
            )
    if shape[1] != block[1]:
        raise VerifyException(f"{prefix} {what} tensor number of columns must match block ({block[1]}), got {shape[1]}")
    if shape[0] != offsets.get_shape()[0]:
        raise VerifyException(
            f"{prefix} {what} tensor must have as many rows as indices ({offsets.get_shape()[0]}), got {shape[0]}"
        )
    if tensor.element_type != desc_type.element_type:
        raise VerifyException(
            f"{prefix} {what} tensor element type must match block ('{type_text(desc_type.element_type)}'), "
            f"got '{type_text(tensor.element_type)}'"
        )
