"""``ttg`` ops on shared memory: allocation, loads and stores, views, global scratch.

``ttg.local_alloc``, ``ttg.local_load``, ``ttg.local_store``, ``ttg.local_dealloc``,
``ttg.memdesc_trans``, ``ttg.memdesc_index``, ``ttg.memdesc_subslice``,
``ttg.memdesc_reinterpret``, ``ttg.global_scratch_alloc``. ``ttg.local_alloc``
writes its types as a function type (``(tensor<...>) -> !ttg.memdesc<...>``, ``()``
without a source); ``ttg.memdesc_subslice`` writes its static offsets in brackets
(``%0[0, 32]``); the others use declarative formats. Loads, stores and allocations
check the tensor against the memdesc with Triton's messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, TensorType, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.attr_dict import parse_attr_dict_into, print_sorted_attr_dict
from ltc.dialects.ttg.types import AsyncTokenType, MemDescType, attr_text, dims_text, shape_of_shaped

__all__ = [
    "GlobalScratchAllocOp",
    "LocalAllocOp",
    "LocalDeallocOp",
    "LocalLoadOp",
    "LocalStoreOp",
    "MemDescIndexOp",
    "MemDescReinterpretOp",
    "MemDescSubsliceOp",
    "MemDescTransOp",
]


def _element_type(attr: Attribute) -> Attribute:
    if isinstance(attr, (TensorType, MemDescType)):
        return attr.element_type
    return attr


def _verify_same_shape_and_element(
    src: Attribute, dst: Attribute, what_src: str = "source", what_dst: str = "destination"
) -> None:
    """Triton's check of a tensor against a memdesc (local_alloc/load/store).

    The messages keep Triton's wording (and its quirks: the bracket of the shape
    message, the full type in the element-type message)."""
    src_shape = shape_of_shaped(src)
    dst_shape = shape_of_shaped(dst)
    assert src_shape is not None and dst_shape is not None
    if src_shape != dst_shape:
        raise VerifyException(
            f"{what_src} shape [{', '.join(map(str, src_shape))}] must match "
            f"[{what_dst} shape {', '.join(map(str, dst_shape))}]"
        )
    if _element_type(src) != _element_type(dst):
        raise VerifyException(
            f"{what_src} element type '{attr_text(src)}' must match "
            f"{what_dst} element type '{attr_text(_element_type(dst))}'"
        )


@irdl_op_definition
class LocalAllocOp(IRDLOperation):
    """Allocate a shared-memory buffer, optionally initialised from a tensor.

    ``%0 = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>``
    ``%1 = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>``
    """

    name = "ttg.local_alloc"

    src = opt_operand_def(TensorType)
    result = result_def(MemDescType)
    alignment = opt_prop_def(IntegerAttr[IntegerType])

    PROPERTIES: ClassVar[tuple[str, ...]] = ("alignment",)

    def __init__(self, result_type: MemDescType, src: SSAValue | None = None, alignment: int | None = None):
        props: dict[str, Attribute] = {}
        if alignment is not None:
            props["alignment"] = IntegerAttr(alignment, i32)
        super().__init__(operands=[[src] if src is not None else []], result_types=[result_type], properties=props)

    @classmethod
    def parse(cls, parser: Parser) -> LocalAllocOp:
        src = parser.parse_optional_unresolved_operand()
        props, attrs = parse_attr_dict_into(parser, cls.PROPERTIES)
        parser.parse_punctuation(":")
        parser.parse_punctuation("(")
        src_type = None if src is None else parser.parse_type()
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        operands = [] if src is None or src_type is None else [parser.resolve_operand(src, src_type)]
        op = cls.create(operands=operands, result_types=[result_type], properties=props, attributes=attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.src is not None:
            printer.print_string(" ")
            printer.print_operand(self.src)
        print_sorted_attr_dict(printer, self)
        printer.print_string(" : (")
        if self.src is not None:
            printer.print_attribute(self.src.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        res = self.result.type
        assert isinstance(res, MemDescType)
        if self.src is None:
            if not res.is_mutable:
                raise VerifyException("uninitialized alloc must have a mutable memdesc type")
            return
        _verify_same_shape_and_element(self.src.type, res)


@irdl_op_definition
class LocalLoadOp(IRDLOperation):
    """Load a shared-memory buffer into a distributed tensor.

    ``%1 = ttg.local_load %0 [token %t] : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>``
    """

    name = "ttg.local_load"

    src = operand_def(MemDescType)
    token = opt_operand_def(AsyncTokenType)
    result = result_def(TensorType)

    assembly_format = "$src (`token` $token^)? attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, result_type: TensorType, token: SSAValue | None = None):
        super().__init__(operands=[src, [token] if token is not None else []], result_types=[result_type])

    def verify_(self) -> None:
        _verify_same_shape_and_element(self.src.type, self.result.type)


@irdl_op_definition
class LocalStoreOp(IRDLOperation):
    """Store a distributed tensor into a mutable shared-memory buffer.

    ``ttg.local_store %x, %m : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>``
    """

    name = "ttg.local_store"

    src = operand_def(TensorType)
    dst = operand_def(MemDescType)

    assembly_format = "$src `,` $dst attr-dict `:` type($src) `->` type($dst)"

    def __init__(self, src: SSAValue, dst: SSAValue):
        super().__init__(operands=[src, dst])

    def verify_(self) -> None:
        dst = self.dst.type
        assert isinstance(dst, MemDescType)
        if not dst.is_mutable:
            raise VerifyException("Cannot store into immutable memory")
        _verify_same_shape_and_element(self.src.type, dst)


@irdl_op_definition
class LocalDeallocOp(IRDLOperation):
    """Free a shared-memory buffer.

    ``ttg.local_dealloc %0 : !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>``
    """

    name = "ttg.local_dealloc"

    src = operand_def(MemDescType)

    assembly_format = "$src attr-dict `:` type($src)"

    def __init__(self, src: SSAValue):
        super().__init__(operands=[src])


@irdl_op_definition
class MemDescTransOp(IRDLOperation):
    """A transposed view of a memdesc (``order`` permutes the dims).

    ``%1 = ttg.memdesc_trans %0 {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem>
    -> !ttg.memdesc<64x128xf16, #shared1, #smem>``
    """

    name = "ttg.memdesc_trans"

    src = operand_def(MemDescType)
    result = result_def(MemDescType)
    order = prop_def(DenseArrayBase)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, order: Sequence[int], result_type: MemDescType):
        super().__init__(
            operands=[src], result_types=[result_type], properties={"order": DenseArrayBase.from_list(i32, order)}
        )

    def verify_(self) -> None:
        src, res = self.src.type, self.result.type
        assert isinstance(src, MemDescType) and isinstance(res, MemDescType)
        order = [int(v) for v in self.order.get_values()]
        if len(order) != len(src.get_shape()) or len(order) != len(res.get_shape()):
            raise VerifyException("order must have the same size as the rank of the operand and result")
        if sorted(order) != list(range(len(order))):
            raise VerifyException("order must be a permutation of [0, ..., rank - 1]")
        shape = src.get_shape()
        expected = tuple(shape[i] for i in order)
        if res.get_shape() != expected or res.element_type != src.element_type:
            raise VerifyException(
                f"result type {attr_text(res)} must have shape {dims_text(expected)} and element type "
                f"{attr_text(src.element_type)} (the source permuted by order)"
            )


@irdl_op_definition
class MemDescIndexOp(IRDLOperation):
    """The ``index``-th buffer along dim 0 of a memdesc (a view; rank drops by one).

    ``%1 = ttg.memdesc_index %0[%i] : !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
    -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>``
    """

    name = "ttg.memdesc_index"

    src = operand_def(MemDescType)
    index = operand_def(i32)
    result = result_def(MemDescType)

    traits = traits_def(Pure())
    assembly_format = "$src `[` $index `]` attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, index: SSAValue, result_type: MemDescType):
        super().__init__(operands=[src, index], result_types=[result_type])

    def verify_(self) -> None:
        src, res = self.src.type, self.result.type
        assert isinstance(src, MemDescType) and isinstance(res, MemDescType)
        if len(res.get_shape()) != len(src.get_shape()) - 1:
            raise VerifyException("result rank must be input rank - 1")
        if res.element_type != src.element_type:
            raise VerifyException("result element type must match desc element type")
        if res.get_shape() != src.get_shape()[1:]:
            raise VerifyException("result shape must match the input shape without its leading dimension")
        index = _constant_int(self.index)
        if index is not None and not 0 <= index < src.get_shape()[0]:
            raise VerifyException(
                f"index {index} is out of range for a leading dimension of size {src.get_shape()[0]}"
            )


def _constant_int(value: SSAValue) -> int | None:
    """The value of an ``arith.constant`` integer, else None."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "arith.constant":
        attr = owner.properties.get("value", owner.attributes.get("value"))
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


@irdl_op_definition
class MemDescSubsliceOp(IRDLOperation):
    """A view of a tile of a memdesc at static ``offsets`` (the allocation shape stays).

    ``%1 = ttg.memdesc_subslice %0[0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>``
    """

    name = "ttg.memdesc_subslice"

    src = operand_def(MemDescType)
    result = result_def(MemDescType)
    offsets = prop_def(DenseArrayBase)

    traits = traits_def(Pure())

    def __init__(self, src: SSAValue, offsets: Sequence[int], result_type: MemDescType):
        super().__init__(
            operands=[src], result_types=[result_type], properties={"offsets": DenseArrayBase.from_list(i32, offsets)}
        )

    def get_offsets(self) -> tuple[int, ...]:
        return tuple(int(v) for v in self.offsets.get_values())

    @classmethod
    def parse(cls, parser: Parser) -> MemDescSubsliceOp:
        src = parser.parse_unresolved_operand()
        offsets = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
        props, attrs = parse_attr_dict_into(parser, ("offsets",))
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        props["offsets"] = DenseArrayBase.from_list(i32, offsets)
        return cls.create(
            operands=[parser.resolve_operand(src, src_type)],
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        printer.print_string(f"[{', '.join(map(str, self.get_offsets()))}]")
        print_sorted_attr_dict(printer, self, reserved=("offsets",))
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        src, res = self.src.type, self.result.type
        assert isinstance(src, MemDescType) and isinstance(res, MemDescType)
        offsets = self.get_offsets()
        src_shape, res_shape = src.get_shape(), res.get_shape()
        if len(offsets) != len(src_shape):
            raise VerifyException("offsets must have the same rank as input")
        if len(res_shape) != len(src_shape):
            raise VerifyException("result rank must equal to input rank")
        if res.encoding != src.encoding:
            raise VerifyException("src and result must have the same encoding")
        if res.element_type != src.element_type:
            raise VerifyException("result element type must match desc element type")
        for off, s, r in zip(offsets, src_shape, res_shape):
            if off + r > s:
                raise VerifyException("The split offset may not exceed the source shape")
            if r and off % r:
                raise VerifyException("The split offset may not touch the tile")


@irdl_op_definition
class MemDescReinterpretOp(IRDLOperation):
    """View a memdesc with another shape, element type or layout (same memory).

    ``%1 = ttg.memdesc_reinterpret %0 : !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    -> !ttg.memdesc<4096xi16, #shared1, #smem, mutable>``
    """

    name = "ttg.memdesc_reinterpret"

    src = operand_def(MemDescType)
    result = result_def(MemDescType)

    traits = traits_def(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, result_type: MemDescType):
        super().__init__(operands=[src], result_types=[result_type])


@irdl_op_definition
class GlobalScratchAllocOp(IRDLOperation):
    """Allocate global scratch memory for the kernel.

    ``%0 = ttg.global_scratch_alloc {alignment = 1 : i32, nbytes = 1 : i32} : !tt.ptr<i8>``
    """

    name = "ttg.global_scratch_alloc"

    nbytes = prop_def(IntegerAttr[IntegerType])
    alignment = prop_def(IntegerAttr[IntegerType])
    result = result_def()

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, nbytes: int, alignment: int, result_type: Attribute):
        super().__init__(
            result_types=[result_type],
            properties={"alignment": IntegerAttr(alignment, i32), "nbytes": IntegerAttr(nbytes, i32)},
        )
