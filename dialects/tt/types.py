"""The ``tt`` types and the type helpers other modules and dialects reuse.

* ``!tt.ptr<f16>``, ``!tt.ptr<i32, "constant">``: the address space is a string
  (``"global"``, the default, is never printed); the old integer form is rejected.
* ``!tt.tensordesc<128x64xf16[, #layout]>``: Triton prints the block's shape and
  element type directly, not a ``tensor<...>``.
* Helpers on types (``element_type_of``, ``shape_of``, ``pointee_value_type``,
  ``i1_like``, ``element_bit_width``, ...) treat a scalar as a rank-0 tensor.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import ClassVar

from xdsl.dialects.builtin import AnyFloat, IntegerType, NoneAttr, StringAttr, TensorType, i1
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

__all__ = [
    "BlockTypeView",
    "PtrType",
    "TensorDescType",
    "element_bit_width",
    "element_type_of",
    "encoding_of",
    "i1_like",
    "is_float_type",
    "is_ptr_like",
    "is_scalar_element_type",
    "pointee_type_of",
    "pointee_value_type",
    "shape_of",
    "type_text",
    "with_element_type",
]


# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------


@irdl_attr_definition
class PtrType(ParametrizedAttribute, TypeAttribute):
    """A pointer: ``!tt.ptr<f16>``, ``!tt.ptr<i32, "constant">``.

    Triton 3.9 names the address space with a string, ``"global"`` (the default,
    never printed) or ``"constant"``; the old integer form (``!tt.ptr<f16, 1>``)
    is rejected, as Triton rejects it. The pointee is an integer or float type.
    """

    name = "tt.ptr"

    pointee_type: Attribute
    address_space: StringAttr

    ADDRESS_SPACES: ClassVar[tuple[str, ...]] = ("global", "constant")
    DEFAULT_ADDRESS_SPACE: ClassVar[str] = "global"

    def __init__(self, pointee_type: Attribute, address_space: str | StringAttr = "global"):
        if isinstance(address_space, str):
            address_space = StringAttr(address_space)
        super().__init__(pointee_type, address_space)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            pointee = parser.parse_type()
            space = cls.DEFAULT_ADDRESS_SPACE
            if parser.parse_optional_punctuation(",") is not None:
                pos = parser.pos
                space = parser.parse_optional_str_literal()
                if space is None:  # Triton 3.9's words, then what it wants
                    parser.raise_error(
                        'expected string: the address space of !tt.ptr is "global" or "constant" '
                        "(the integer form of older Triton is not accepted)"
                    )
                if space not in cls.ADDRESS_SPACES:
                    parser.raise_error(f"invalid pointer address space '{space}'", pos, parser.pos)
        return [pointee, StringAttr(space)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.pointee_type)
            if self.address_space.data != self.DEFAULT_ADDRESS_SPACE:
                printer.print_string(", ")
                printer.print_string_literal(self.address_space.data)

    def verify(self) -> None:
        if not is_scalar_element_type(self.pointee_type):
            raise VerifyException("pointer types must point to integer or floating-point types")
        if self.address_space.data not in self.ADDRESS_SPACES:
            raise VerifyException(f"invalid pointer address space '{self.address_space.data}'")


class BlockTypeView:
    """A descriptor type's view of its ``block_type`` parameter (shape, element type, layout)."""

    block_type: TensorType

    @property
    def shape(self) -> tuple[int, ...]:
        return self.block_type.get_shape()

    @property
    def element_type(self) -> Attribute:
        return self.block_type.element_type

    @property
    def encoding(self) -> Attribute:
        return self.block_type.encoding


@irdl_attr_definition
class TensorDescType(BlockTypeView, ParametrizedAttribute, TypeAttribute):
    """A TMA tensor descriptor: ``!tt.tensordesc<128x64xf16>``, ``!tt.tensordesc<128x64xf16, #shared>``.

    The single parameter is the block type (``tensor<128x64xf16, #shared>``): the
    shape and element type of one block, and optionally its shared-memory layout.
    Triton 3.9 prints the block's shape and element type directly (no ``tensor<>``).
    """

    name = "tt.tensordesc"

    block_type: TensorType

    def __init__(self, block_type: TensorType):
        super().__init__(block_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos  # the '<', where Triton reports a bad parameter list
        with parser.in_angle_brackets():
            if parser.parse_optional_characters("tensor") is not None:
                parser.raise_error(
                    "tensor descriptors must not wrap tensor types; use "
                    "!tt.tensordesc<shape x element-type[, layout]> instead",
                    start,
                    start + 1,
                )
            shape, element_type = parser.parse_ranked_shape()
            encoding: Attribute = NoneAttr()
            if parser.parse_optional_punctuation(",") is not None:
                encoding = parser.parse_attribute()
        return [TensorType(element_type, shape, encoding)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.print_body(printer)

    def print_body(self, printer: Printer) -> None:
        """``128x64xf16[, #layout]``: what goes between the angle brackets."""
        for dim in self.block_type.get_shape():
            printer.print_string(f"{dim}x")
        printer.print_attribute(self.block_type.element_type)
        if not isinstance(self.block_type.encoding, NoneAttr):
            printer.print_string(", ")
            printer.print_attribute(self.block_type.encoding)



# ---------------------------------------------------------------------------
# Helpers shared with other dialects
# ---------------------------------------------------------------------------


def is_scalar_element_type(attr: Attribute) -> bool:
    """True for the integer and float types (what a ``!tt.ptr`` may point to)."""
    return isinstance(attr, IntegerType) or isa(attr, AnyFloat)


def is_float_type(attr: Attribute) -> bool:
    return isa(attr, AnyFloat)


def element_type_of(attr: Attribute) -> Attribute:
    """The element type of a tensor type, or the type itself for a scalar."""
    if isinstance(attr, TensorType):
        return attr.element_type
    return attr


def pointee_type_of(attr: Attribute) -> Attribute | None:
    """The pointee of ``!tt.ptr<T>`` or ``tensor<..x!tt.ptr<T>>``; None for anything else."""
    elem = element_type_of(attr)
    if isinstance(elem, PtrType):
        return elem.pointee_type
    return None


def is_ptr_like(attr: Attribute) -> bool:
    """True for ``!tt.ptr<T>`` and tensors of ``!tt.ptr<T>``."""
    return isinstance(element_type_of(attr), PtrType)


def shape_of(attr: Attribute) -> tuple[int, ...]:
    """The shape of a tensor type; ``()`` for a scalar."""
    if isinstance(attr, TensorType):
        return attr.get_shape()
    return ()


def encoding_of(attr: Attribute) -> Attribute | None:
    """The layout of a tensor type (None if it has none, or for a scalar)."""
    if isinstance(attr, TensorType) and not isinstance(attr.encoding, NoneAttr):
        return attr.encoding
    return None


def with_element_type(attr: Attribute, element_type: Attribute) -> Attribute:
    """``attr`` with its element type replaced: same shape and layout for a tensor."""
    if isinstance(attr, TensorType):
        return _tensor_with_element_type(attr, element_type)
    return element_type


# Op verifiers build these types for every op they check (a pointer's value type, an
# i1 mask type); a type is immutable, so equal requests share one.
@lru_cache(maxsize=4096)
def _tensor_with_element_type(attr: TensorType, element_type: Attribute) -> TensorType:
    return TensorType(element_type, attr.get_shape(), attr.encoding)


def pointee_value_type(ptr_type: Attribute) -> Attribute:
    """The type a load through ``ptr_type`` yields (``getPointeeType`` in Triton):
    ``tensor<4x!tt.ptr<f16>, #l>`` -> ``tensor<4xf16, #l>``, ``!tt.ptr<f16>`` -> ``f16``."""
    pointee = pointee_type_of(ptr_type)
    if pointee is None:
        return ptr_type
    return with_element_type(ptr_type, pointee)


def i1_like(attr: Attribute) -> Attribute:
    """``i1`` with the shape and layout of ``attr`` (``getI1SameShape`` in Triton)."""
    return with_element_type(attr, i1)


def type_text(attr: Attribute) -> str:
    """An attribute or type as xDSL prints it, for error messages."""
    return str(attr)


def element_bit_width(attr: Attribute) -> int | None:
    """Bit width of the element type (pointers count as 64 bits)."""
    elem = element_type_of(attr)
    if isinstance(elem, PtrType):
        return 64
    if isinstance(elem, IntegerType):
        return elem.width.data
    if is_float_type(elem):
        return elem.bitwidth  # type: ignore[attr-defined]
    return None
