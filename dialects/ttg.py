"""The ``ttg`` dialect (Triton 3.9's TritonGPU dialect) for xDSL.

Types and attributes first (``!ttg.memdesc``, ``#ttg.shared_memory``,
``!ttg.async.token``; the layout attributes come from ``ttg_attrs``), then the ops,
then ``TTG = Dialect("ttg", ...)``. Every op parses and prints Triton 3.9's text
(checked against Triton itself in ``tests/test_dialect_ttg.py``); verifiers check
what Triton checks, with Triton's messages.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i32,
)
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.pattern_rewriter import RewritePattern
from xdsl.printer import Printer
from xdsl.traits import HasCanonicalizationPatternsTrait, Pure
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.ttg_attrs import TTG_ATTRS, DistributedLayoutAttr, LayoutAttr, SharedLayoutAttr
from ltc.encodings.shared import NVMMASharedEncoding

__all__ = [
    "TTG",
    "AsyncCommitGroupOp",
    "AsyncCopyGlobalToLocalOp",
    "AsyncTokenType",
    "AsyncWaitOp",
    "BarrierOp",
    "ConvertLayoutOp",
    "GlobalScratchAllocOp",
    "LocalAllocOp",
    "LocalDeallocOp",
    "LocalLoadOp",
    "LocalStoreOp",
    "MemDescIndexOp",
    "MemDescReinterpretOp",
    "MemDescSubsliceOp",
    "MemDescTransOp",
    "MemDescType",
    "SharedMemorySpaceAttr",
    "print_sorted_attr_dict",
]

# ---------------------------------------------------------------------------
# Types and attributes
# ---------------------------------------------------------------------------


@irdl_attr_definition
class SharedMemorySpaceAttr(ParametrizedAttribute):
    """The shared-memory space of a memdesc: ``#ttg.shared_memory`` (alias ``#smem``)."""

    name = "ttg.shared_memory"


@irdl_attr_definition
class AsyncTokenType(ParametrizedAttribute, TypeAttribute):
    """``!ttg.async.token``: the result of async copies, commit groups and waits."""

    name = "ttg.async.token"


def _int_array(values: Iterable[int]) -> ArrayAttr[IntAttr]:
    return ArrayAttr(IntAttr(v) for v in values)


def _dims_text(dims: Sequence[int]) -> str:
    return "x".join(str(d) for d in dims)


@irdl_attr_definition
class MemDescType(ParametrizedAttribute, TypeAttribute):
    """A descriptor of a buffer in shared (or tensor) memory.

    ``!ttg.memdesc<128x64xf16, #shared, #smem, mutable>``: shape, element type,
    layout, memory space, ``mutable`` when the buffer may be written. A view of a
    larger allocation (``ttg.memdesc_subslice``) also carries the allocation's shape,
    printed last (``, 64x64``) and only when it differs from the shape. Inside
    ``ttg.async_copy_global_to_local`` Triton prints it without ``!ttg.memdesc``
    (``<64x64xf16, #shared, #smem, mutable>``); ``parse_body``/``print_body`` serve that.
    """

    name = "ttg.memdesc"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    encoding: Attribute
    memory_space: Attribute
    mutable_memory: BoolAttr
    alloc_shape: ArrayAttr[IntAttr]

    def __init__(
        self,
        shape: Sequence[int],
        element_type: Attribute,
        encoding: Attribute,
        memory_space: Attribute | None = None,
        mutable_memory: bool = False,
        alloc_shape: Sequence[int] | None = None,
    ):
        super().__init__(
            _int_array(shape),
            element_type,
            encoding,
            SharedMemorySpaceAttr() if memory_space is None else memory_space,
            IntegerAttr.from_bool(mutable_memory),
            _int_array(shape if alloc_shape is None else alloc_shape),
        )

    # -- accessors ----------------------------------------------------------

    def get_shape(self) -> tuple[int, ...]:
        """The shape of the view."""
        return tuple(d.data for d in self.shape)

    def get_alloc_shape(self) -> tuple[int, ...]:
        """The shape of the allocation the view lies in (== shape unless a subslice)."""
        return tuple(d.data for d in self.alloc_shape)

    @property
    def is_mutable(self) -> bool:
        """True for ``mutable`` memdescs (may be written)."""
        return bool(self.mutable_memory.value.data)

    def with_changes(
        self,
        *,
        shape: Sequence[int] | None = None,
        element_type: Attribute | None = None,
        encoding: Attribute | None = None,
        mutable_memory: bool | None = None,
        alloc_shape: Sequence[int] | None = None,
    ) -> MemDescType:
        """A copy with the given parameters replaced (alloc shape follows a new shape)."""
        new_shape = self.get_shape() if shape is None else tuple(shape)
        if alloc_shape is None:
            alloc_shape = self.get_alloc_shape() if shape is None else new_shape
        return MemDescType(
            new_shape,
            self.element_type if element_type is None else element_type,
            self.encoding if encoding is None else encoding,
            self.memory_space,
            self.is_mutable if mutable_memory is None else mutable_memory,
            alloc_shape,
        )

    # -- text ---------------------------------------------------------------

    @classmethod
    def parse_body(cls, parser: AttrParser) -> MemDescType:
        """Parse ``<128x64xf16, #shared, #smem[, mutable][, 2x128x64]>``."""
        with parser.in_angle_brackets():
            shape, element_type = parser.parse_ranked_shape()
            parser.parse_punctuation(",")
            encoding = parser.parse_attribute()
            parser.parse_punctuation(",")
            memory_space = parser.parse_attribute()
            mutable_memory = False
            alloc_shape: list[int] | None = None
            while parser.parse_optional_punctuation(",") is not None:
                if alloc_shape is None and not mutable_memory and parser.parse_optional_keyword("mutable"):
                    mutable_memory = True
                    continue
                if alloc_shape is not None:
                    parser.raise_error("expected '>' after the allocation shape of a memdesc")
                alloc_shape = parser.parse_dimension_list()
        return cls(shape, element_type, encoding, memory_space, mutable_memory, alloc_shape)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return cls.parse_body(parser).parameters

    def print_body(self, printer: Printer) -> None:
        """Print ``<128x64xf16, #shared, #smem[, mutable][, 2x128x64]>``."""
        with printer.in_angle_brackets():
            for dim in self.get_shape():
                printer.print_string(f"{dim}x")
            printer.print_attribute(self.element_type)
            printer.print_string(", ")
            printer.print_attribute(self.encoding)
            printer.print_string(", ")
            printer.print_attribute(self.memory_space)
            if self.is_mutable:
                printer.print_string(", mutable")
            if self.get_alloc_shape() != self.get_shape():
                printer.print_string(f", {_dims_text(self.get_alloc_shape())}")

    def print_parameters(self, printer: Printer) -> None:
        self.print_body(printer)

    def verify(self) -> None:
        shape = self.get_shape()
        alloc_shape = self.get_alloc_shape()
        if not shape:
            raise VerifyException("rank 0 memdesc is not allowed")
        if isinstance(self.encoding, DistributedLayoutAttr):
            raise VerifyException(f"{_attr_text(self.encoding)} is not a valid encoding")
        if isinstance(self.encoding, SharedLayoutAttr) and not isinstance(self.memory_space, SharedMemorySpaceAttr):
            raise VerifyException(
                "memorySpace must be SharedMemorySpace for shared encoding. "
                f"Got {_attr_text(self.memory_space)}"
            )
        if alloc_shape != shape:
            if len(alloc_shape) < len(shape) or any(
                s > a for s, a in zip(reversed(shape), reversed(alloc_shape))
            ):
                raise VerifyException(
                    "shape must be less than or equal to allocShape. "
                    f"shape = {', '.join(map(str, shape))}, allocShape = {', '.join(map(str, alloc_shape))}"
                )
        if isinstance(self.encoding, LayoutAttr) and isinstance(self.encoding.encoding, NVMMASharedEncoding):
            _verify_nvmma_block(self.encoding.encoding, alloc_shape[len(alloc_shape) - len(shape) :])


def _verify_nvmma_block(enc: NVMMASharedEncoding, shape: Sequence[int]) -> None:
    """Triton: a swizzled NVMMA layout needs a whole swizzle row along the contiguous dim.

    ``shape`` is the allocation's shape (Triton checks the allocation, so a subslice
    narrower than a swizzle row is fine); with one CTA per CGA (the only case
    checked) that is the CTA's block.
    """
    swizzle = enc.swizzling_byte_width
    if swizzle == 0 or len(shape) < 2 or enc.fp4_padded or enc.cga.block_bases:
        return
    dim = len(shape) - 2 if enc.transposed else len(shape) - 1
    needed = swizzle * 8 // enc.element_bit_width
    if shape[dim] < needed:
        raise VerifyException(
            f"block shape along the contiguous dimension {dim} is too small for the swizzle byte size "
            f"{swizzle} in an NVMMASharedLayout, got {shape[dim]} but expected at least {needed}"
        )


def _attr_text(attr: Attribute) -> str:
    """``attr`` as Triton writes it in messages (inline, no aliases)."""
    from io import StringIO

    out = StringIO()
    Printer(stream=out).print_attribute(attr)
    return out.getvalue()


def shape_of_shaped(attr: Attribute) -> tuple[int, ...] | None:
    """The shape of a tensor or memdesc type; None for anything else."""
    if isinstance(attr, (TensorType, MemDescType)):
        return tuple(attr.get_shape())
    return None


# ---------------------------------------------------------------------------
# Shared helpers for hand-written op syntax
# ---------------------------------------------------------------------------


def print_sorted_attr_dict(
    printer: Printer,
    op: Operation,
    defaults: Mapping[str, Attribute] = {},
    reserved: Iterable[str] = (),
) -> None:
    """Print ``op``'s properties and attributes as one ``{...}``, sorted by name as
    MLIR does, leaving out ``reserved`` names and entries equal to their default.
    Prints a leading space when anything is printed."""
    skip = set(reserved)
    entries = {**op.attributes, **op.properties}
    shown = {
        name: entries[name]
        for name in sorted(entries)
        if name not in skip and not (name in defaults and entries[name] == defaults[name])
    }
    if shown:
        printer.print_string(" ")
        printer.print_attr_dict(shown)


def parse_attr_dict_into(
    parser: Parser, property_names: Iterable[str]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """Parse an optional ``{...}``; split it into (properties, attributes)."""
    names = set(property_names)
    entries = parser.parse_optional_attr_dict()
    props = {k: v for k, v in entries.items() if k in names}
    attrs = {k: v for k, v in entries.items() if k not in names}
    return props, attrs


def _resolve(parser: Parser, operand: UnresolvedOperand, type_: Attribute) -> SSAValue:
    return parser.resolve_operand(operand, type_)


def _memdesc_of(value: SSAValue) -> MemDescType:
    assert isinstance(value.type, MemDescType)
    return value.type


def _type_text(attr: Attribute) -> str:
    return _attr_text(attr)


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
            f"{what_src} element type '{_type_text(src)}' must match "
            f"{what_dst} element type '{_type_text(_element_type(dst))}'"
        )


# ---------------------------------------------------------------------------
# Ops: layout conversion
# ---------------------------------------------------------------------------


class ConvertLayoutOpHasCanonicalizationPatterns(HasCanonicalizationPatternsTrait):
    """Identity converts (same linear layout) fold away; convert chains merge."""

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        from ltc.dialects.ttg_canonicalize import CONVERT_LAYOUT_PATTERNS

        return CONVERT_LAYOUT_PATTERNS


@irdl_op_definition
class ConvertLayoutOp(IRDLOperation):
    """Move a tensor to another distributed layout (same shape and element type).

    ``%1 = ttg.convert_layout %0 : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #blocked>``
    """

    name = "ttg.convert_layout"

    src = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure(), ConvertLayoutOpHasCanonicalizationPatterns())

    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, result_type: TensorType):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        src, res = self.src.type, self.result.type
        assert isinstance(src, TensorType) and isinstance(res, TensorType)
        if src.get_shape() != res.get_shape():
            raise VerifyException("requires the same shape for all operands and results")
        if src.element_type != res.element_type:
            raise VerifyException("requires the same element type for all operands and results")


# ---------------------------------------------------------------------------
# Ops: shared memory
# ---------------------------------------------------------------------------


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
        operands = [] if src is None or src_type is None else [_resolve(parser, src, src_type)]
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
                f"result type {_type_text(res)} must have shape {_dims_text(expected)} and element type "
                f"{_type_text(src.element_type)} (the source permuted by order)"
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
            operands=[_resolve(parser, src, src_type)],
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


# ---------------------------------------------------------------------------
# Ops: asynchronous copies
# ---------------------------------------------------------------------------


@irdl_op_definition
class AsyncCopyGlobalToLocalOp(IRDLOperation):
    """Start a copy of a tensor of global pointers into a mutable shared buffer (cp.async).

    ``%t = ttg.async_copy_global_to_local %ptrs, %buf mask %m other %o {cache = 1 : i32, evict = 1 : i32}
    : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>``

    The mask type is derived from the pointers (``i1`` elements), ``other``'s from
    the pointee; the memdesc is written without ``!ttg.memdesc``.
    """

    name = "ttg.async_copy_global_to_local"

    src = operand_def(TensorType)
    result = operand_def(MemDescType)
    mask = opt_operand_def(TensorType)
    other = opt_operand_def(TensorType)
    token = result_def(AsyncTokenType)

    cache = opt_prop_def(IntegerAttr[IntegerType])
    evict = opt_prop_def(IntegerAttr[IntegerType])
    isVolatile = opt_prop_def(BoolAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    PROPERTIES: ClassVar[tuple[str, ...]] = ("cache", "evict", "isVolatile")

    def __init__(
        self,
        src: SSAValue,
        result: SSAValue,
        mask: SSAValue | None = None,
        other: SSAValue | None = None,
    ):
        super().__init__(
            operands=[src, result, [mask] if mask else [], [other] if other else []],
            result_types=[AsyncTokenType()],
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncCopyGlobalToLocalOp:
        from ltc.dialects.tt import PtrType

        src = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        dst = parser.parse_unresolved_operand()
        mask = other = None
        if parser.parse_optional_keyword("mask"):
            mask = parser.parse_unresolved_operand()
        if parser.parse_optional_keyword("other"):
            other = parser.parse_unresolved_operand()
        props, attrs = parse_attr_dict_into(parser, cls.PROPERTIES)
        parser.parse_punctuation(":")
        pos = parser.pos
        src_type = parser.parse_type()
        if not isinstance(src_type, TensorType) or not isinstance(src_type.element_type, PtrType):
            parser.raise_error("expected a tensor of !tt.ptr", pos, parser.pos)
        parser.parse_punctuation("->")
        dst_type = MemDescType.parse_body(parser)
        shape, enc = src_type.get_shape(), src_type.encoding
        op = cls(
            _resolve(parser, src, src_type),
            _resolve(parser, dst, dst_type),
            None if mask is None else _resolve(parser, mask, TensorType(IntegerType(1), shape, enc)),
            None if other is None else _resolve(parser, other, TensorType(src_type.element_type.pointee_type, shape, enc)),
        )
        op.properties.update(props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        printer.print_string(", ")
        printer.print_operand(self.result)
        if self.mask is not None:
            printer.print_string(" mask ")
            printer.print_operand(self.mask)
        if self.other is not None:
            printer.print_string(" other ")
            printer.print_operand(self.other)
        print_sorted_attr_dict(
            printer, self, defaults={"isVolatile": IntegerAttr.from_bool(False)}, reserved=("operandSegmentSizes",)
        )
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        _memdesc_of(self.result).print_body(printer)

    def verify_(self) -> None:
        dst = _memdesc_of(self.result)
        if not dst.is_mutable:
            raise VerifyException("Cannot store into immutable memory")


@irdl_op_definition
class AsyncCommitGroupOp(IRDLOperation):
    """Close a group of async copies; the token stands for the group.

    ``%t = ttg.async_commit_group [tokens %a, %b]``
    """

    name = "ttg.async_commit_group"

    input_tokens = var_operand_def(AsyncTokenType)
    async_token = result_def(AsyncTokenType)

    assembly_format = "(`tokens` $input_tokens^)? attr-dict"

    def __init__(self, input_tokens: Sequence[SSAValue] = ()):
        super().__init__(operands=[list(input_tokens)], result_types=[AsyncTokenType()])


@irdl_op_definition
class AsyncWaitOp(IRDLOperation):
    """Wait until at most ``num`` commit groups are still in flight.

    ``%t = ttg.async_wait [%a, %b] {num = 0 : i32}``
    """

    name = "ttg.async_wait"

    async_token = var_operand_def(AsyncTokenType)
    num = prop_def(IntegerAttr[IntegerType])
    result = result_def(AsyncTokenType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "($async_token^)? attr-dict"

    def __init__(self, num: int, async_token: Sequence[SSAValue] = ()):
        super().__init__(
            operands=[list(async_token)], result_types=[AsyncTokenType()], properties={"num": IntegerAttr(num, i32)}
        )


# ---------------------------------------------------------------------------
# Ops: synchronisation
# ---------------------------------------------------------------------------


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """A CTA-wide barrier that also orders the named memory accesses.

    ``ttg.barrier local``, ``ttg.barrier local|global_write``, ``ttg.barrier all``.
    ``addrSpace`` is a bit set: local 1, global_read 2, global_write 4,
    tensor_read 8, tensor_write 16; all five print as ``all``.
    """

    name = "ttg.barrier"

    addrSpace = prop_def(IntegerAttr[IntegerType])

    SPACES: ClassVar[tuple[str, ...]] = ("local", "global_read", "global_write", "tensor_read", "tensor_write")
    ALL: ClassVar[int] = 0b11111

    def __init__(self, spaces: Iterable[str] | int):
        bits = spaces if isinstance(spaces, int) else sum(1 << self.SPACES.index(s) for s in set(spaces))
        super().__init__(properties={"addrSpace": IntegerAttr(bits, i32)})

    @classmethod
    def parse(cls, parser: Parser) -> BarrierOp:
        bits = 0
        while True:
            pos = parser.pos
            word = parser.parse_optional_identifier()
            if word is None:
                parser.raise_error("expected valid keyword or string", pos, pos + 1)
            if word == "all":
                bits |= cls.ALL
            elif word in cls.SPACES:
                bits |= 1 << cls.SPACES.index(word)
            else:
                parser.raise_error(f"unknown addrSpace '{word}'", pos, parser.pos)
            if parser.parse_optional_punctuation("|") is None:
                break
        props, attrs = parse_attr_dict_into(parser, ())
        return cls.create(properties={"addrSpace": IntegerAttr(bits, i32)}, attributes=attrs)

    def space_names(self) -> list[str]:
        """The set bits as Triton prints them (``["all"]`` when every bit is set)."""
        bits = self.addrSpace.value.data
        if bits == self.ALL:
            return ["all"]
        return [name for i, name in enumerate(self.SPACES) if bits >> i & 1]

    def print(self, printer: Printer) -> None:
        printer.print_string(" " + "|".join(self.space_names()))
        print_sorted_attr_dict(printer, self, reserved=("addrSpace",))


TTG_OPS: tuple[type[IRDLOperation], ...] = (
    ConvertLayoutOp,
    LocalAllocOp,
    LocalLoadOp,
    LocalStoreOp,
    LocalDeallocOp,
    MemDescTransOp,
    MemDescIndexOp,
    MemDescSubsliceOp,
    MemDescReinterpretOp,
    GlobalScratchAllocOp,
    AsyncCopyGlobalToLocalOp,
    AsyncCommitGroupOp,
    AsyncWaitOp,
    BarrierOp,
)

TTG = Dialect(
    "ttg",
    list(TTG_OPS),
    [*TTG_ATTRS, MemDescType, SharedMemorySpaceAttr, AsyncTokenType],
)
