"""``ttg`` ops on shared memory: allocation, loads and stores, views, global scratch.

``ttg.local_alloc``, ``ttg.local_load``, ``ttg.local_store``, ``ttg.local_dealloc``,
``ttg.memdesc_trans``, ``ttg.memdesc_index``, ``ttg.memdesc_subslice``,
``ttg.memdesc_reinterpret``, ``ttg.memdesc_reshape``, ``ttg.global_scratch_alloc``, and the
indexed accesses ``ttg.local_gather``, ``ttg.local_scatter``, ``ttg.local_atomic_scatter_rmw``. ``ttg.local_alloc``
writes its types as a function type (``(tensor<...>) -> !ttg.memdesc<...>``, ``()``
without a source); ``ttg.memdesc_subslice`` writes its static offsets in brackets
(``%0[0, 32]``); the others use declarative formats. Loads, stores and allocations
check the tensor against the memdesc with Triton's messages.
"""

from __future__ import annotations

import dataclasses
import math
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
from ltc.dialects.ods_checks import check_i32_attr, check_i32_dense_array
from ltc.dialects.tt.attrs import RMWOpAttr
from ltc.dialects.tt.types import element_bit_width
from ltc.dialects.ttg.types import (
    AsyncTokenType,
    MemDescType,
    attr_text,
    dims_text,
    shape_of_shaped,
    verify_layout_dims_fit,
    verify_swizzle_tile,
)
from ltc.dialects.verifier import UnprefixedVerifyException
from ltc.dialects.ttg_attrs import SharedLayoutAttr, layout_attr
from ltc.encodings import Encoding, EncodingError, to_linear_layout
from ltc.encodings.base import CGALayout
from ltc.encodings.shared import (
    NVMMASharedEncoding,
    PaddedSharedEncoding,
    SharedLinearEncoding,
    SwizzledSharedEncoding,
    reshape_row_major,
)
from ltc.linear_layout import LayoutError

__all__ = [
    "GlobalScratchAllocOp",
    "LocalAllocOp",
    "LocalAtomicScatterRMWOp",
    "LocalDeallocOp",
    "LocalGatherOp",
    "LocalLoadOp",
    "LocalScatterOp",
    "LocalStoreOp",
    "MemDescIndexOp",
    "MemDescReinterpretOp",
    "MemDescReshapeOp",
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


def _tile_layout_rank(memdesc: Attribute) -> int | None:
    """The rank of a memdesc's shared layout where it is one tile's of a buffer of tiles
    (one less than the memdesc's rank), else None."""
    enc = getattr(memdesc, "encoding", None)
    rank = getattr(enc.encoding, "rank", None) if isinstance(enc, SharedLayoutAttr) else None
    shape = shape_of_shaped(memdesc)
    if isinstance(rank, int) and shape is not None and rank != len(shape):
        return rank
    return None


def _verify_encoding_rank(tensor: Attribute, memdesc: Attribute, what: str) -> None:
    """Triton: the register tensor has the rank of the memdesc's layout (a memdesc may
    carry the layout of one tile of a buffer of tiles; a tensor may not)."""
    shape = shape_of_shaped(tensor)
    enc = getattr(memdesc, "encoding", None)
    rank = getattr(enc.encoding, "rank", None) if isinstance(enc, SharedLayoutAttr) else None
    if shape is not None and isinstance(rank, int) and rank != len(shape):
        raise VerifyException(f"{what} has rank {len(shape)} but memdesc encoding has rank {rank}")


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
        _verify_encoding_rank(self.src.type, res, "source")


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
        _verify_encoding_rank(self.result.type, self.src.type, "result")


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
        _verify_encoding_rank(self.src.type, dst, "source")


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
        check_i32_dense_array(self, "order")
        src, res = self.src.type, self.result.type
        assert isinstance(src, MemDescType) and isinstance(res, MemDescType)
        order = [int(v) for v in self.order.get_values()]
        if len(order) != len(src.get_shape()) or len(order) != len(res.get_shape()):
            raise VerifyException("order must have the same size as the rank of the operand and result")
        if sorted(order) != list(range(len(order))):
            raise VerifyException("order must be a permutation of [0, ..., rank - 1]")
        # Triton infers the result's layout from the source's, which must have the source's
        # rank (a swizzled one: this message; an NVMMA one: Triton aborts in getTMABlockShape)
        if (rank := _tile_layout_rank(src)) is not None:
            raise UnprefixedVerifyException(f"rank of encoding does not match order: {rank} vs {len(order)}")
        if (rank := _tile_layout_rank(res)) is not None:  # Triton aborts comparing it with the inferred one
            raise VerifyException(
                f"result layout has rank {rank} but the result has rank {len(order)}: a transpose needs a layout "
                "of the whole memdesc (Triton aborts on this)"
            )
        shape = src.get_shape()
        expected = tuple(shape[i] for i in order)
        if res.get_shape() != expected or res.element_type != src.element_type:
            raise VerifyException(
                f"result type {attr_text(res)} must have shape {dims_text(expected)} and element type "
                f"{attr_text(src.element_type)} (the source permuted by order)"
            )
        inferred = _trans_shared_layout(src, order)
        if inferred is None:
            return
        written = res.encoding.encoding  # type: ignore[attr-defined]
        try:
            agree = inferred == written or to_linear_layout(inferred, expected) == to_linear_layout(written, expected)
        except (EncodingError, LayoutError, ValueError, AttributeError):
            # Triton compares the two as linear layouts and aborts where an NVMMA one has
            # no whole swizzle tile; any other layout ltc cannot lay out is not provably different
            verify_swizzle_tile("source", src)
            verify_swizzle_tile("result", res)
            return
        if not agree:
            want = MemDescType(
                expected, src.element_type, layout_attr(inferred), src.memory_space,
                src.mutable_memory.value.data, _permuted_alloc_shape(src, order),
            )
            raise VerifyException(
                f"'ttg.memdesc_trans' op inferred type(s) '{attr_text(want)}' are incompatible with return "
                f"type(s) of operation '{attr_text(res)}'"
            )


def _permuted_alloc_shape(src: MemDescType, order: Sequence[int]) -> tuple[int, ...] | None:
    alloc = src.get_alloc_shape()
    if alloc == src.get_shape():
        return None
    lead = len(alloc) - len(order)  # a subview's allocation may have extra leading dims
    return (*alloc[:lead], *(alloc[lead + o] for o in order))


def _trans_shared_layout(src: MemDescType, order: Sequence[int]) -> Encoding | None:
    """The layout Triton infers for ``memdesc_trans`` of ``src`` by ``order``: swizzled
    fields with ``order`` mapped through the inverse permutation; a 2-d NVMMA layout with
    ``transposed`` flipped; otherwise the source's linear layout with its dims permuted,
    as ``#ttg.shared_linear``. None where ltc has no linear layout for the source."""
    enc = getattr(src.encoding, "encoding", None)
    if enc is None or isinstance(enc, PaddedSharedEncoding):
        return None
    inverse = [0] * len(order)
    for i, o in enumerate(order):
        inverse[o] = i
    cga = getattr(enc, "cga", None)
    if isinstance(enc, SwizzledSharedEncoding):
        moved_cga = CGALayout(tuple(tuple(b[o] for o in order) for b in enc.cga.block_bases))
        return dataclasses.replace(enc, order=tuple(inverse[d] for d in enc.order), cga=moved_cga)
    if isinstance(enc, NVMMASharedEncoding) and list(order) == [1, 0] and cga is not None and not cga.block_bases:
        return dataclasses.replace(enc, transposed=not enc.transposed)
    try:
        layout = to_linear_layout(enc, src.get_shape())
    except (EncodingError, LayoutError, ValueError, AttributeError):
        return None
    bases = {d: [[b[o] for o in order] for b in bs] for d, bs in layout.bases.items()}
    offset, block = bases.get("offset", []), bases.get("block", [])
    alignment = enc.alignment if isinstance(enc, SharedLinearEncoding) else 16
    try:
        return SharedLinearEncoding(tuple(map(tuple, offset)), tuple(map(tuple, block)), alignment)
    except EncodingError:
        return None


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
        if res.encoding != src.encoding:
            raise VerifyException("src and result must have the same encoding")
        if res.get_alloc_shape() != res.get_shape():
            raise UnprefixedVerifyException("alloc shape must match shape for the result")
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

        def offset() -> int:
            # MLIR parses each offset as an int32_t (a negative one fails the verifier).
            pos = parser.pos
            value = parser.parse_integer()
            if not -(2**31) <= value < 2**31:
                parser.raise_error("integer value too large", pos, parser.pos)
            return value

        offsets = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, offset)
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
        if res.get_alloc_shape() != src.get_alloc_shape():
            raise VerifyException("source and result must have the same allocation shape")
        padded = getattr(src.encoding, "encoding", None)
        if isinstance(padded, PaddedSharedEncoding) and padded.rank < len(src_shape):
            raise VerifyException("SubSlice of low rank PaddedSharedEncoding from higher rank tensors is not supported yet")
        for off, s, r in zip(offsets, src_shape, res_shape):
            if off < 0 or off + r > s:
                raise VerifyException("The split offset may not exceed the source shape")
            if r and off % r:
                raise VerifyException("The split offset may not touch the tile")
        if tuple(res_shape) != tuple(src_shape):
            verify_layout_dims_fit(src, "source")
            if subslice_splits_swizzle_pattern(src, res_shape):
                raise UnprefixedVerifyException("We don't support splitting along the swizzling pattern")


def subslice_splits_swizzle_pattern(src: MemDescType, res_shape: Sequence[int]) -> bool:
    """Whether a subslice of ``src`` with shape ``res_shape`` cuts through its swizzle
    pattern, which Triton does not support.

    The rule, on the linear layout of the allocation (the trailing dims of the layout's
    rank): along each dim ``d`` the view narrows (``res_shape[d] < shape[d]``), each
    coordinate ``2**k`` with ``res_shape[d] <= 2**k < shape[d]``, the ones that pick a
    tile of the view, must be where a single offset (or CTA) bit lands, i.e. tiles sit
    at unswizzled offsets. Rows of a swizzled layout below its period carry a column
    XOR and fail; columns never do. Applied to ``#ttg.swizzled_shared``,
    ``#ttg.nvmma_shared`` and ``#ttg.shared_linear`` (the encodings it was checked on)."""
    enc = getattr(src.encoding, "encoding", None)
    if not isinstance(enc, (SwizzledSharedEncoding, NVMMASharedEncoding, SharedLinearEncoding)):
        return False
    shape, alloc = src.get_shape(), src.get_alloc_shape()
    rank = enc.rank
    if len(res_shape) != len(shape) or len(alloc) < rank or len(shape) < rank:
        return False
    try:
        layout = to_linear_layout(enc, list(alloc[len(alloc) - rank :]))
    except (EncodingError, LayoutError, ValueError):
        return False
    names = [f"dim{i}" for i in range(rank)]
    if sorted(layout.out_dims) != sorted(names):
        return False
    images = {
        tuple(layout.basis(in_dim, i, name) for name in names)
        for in_dim in layout.in_dims
        for i in range(layout.in_dim_size_log2(in_dim))
    }
    lead_shape = len(shape) - rank
    for d in range(rank):
        narrow, wide = res_shape[lead_shape + d], shape[lead_shape + d]
        if narrow >= wide or narrow & (narrow - 1) or wide & (wide - 1):
            continue
        bit = narrow
        while bit < wide:
            if tuple(bit if i == d else 0 for i in range(rank)) not in images:
                return True
            bit <<= 1
    return False


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

    def verify_(self) -> None:
        _verify_shared_reinterpret(self.src.type, self.result.type)
        src, res = _tmem_columns(self.src.type), _tmem_columns(self.result.type)
        if src is not None and res is not None and res > src:
            raise VerifyException(
                f"'ttg.memdesc_reinterpret' op result tensor-memory column footprint ({res} columns) "
                f"exceeds the source view ({src} columns)"
            )


def _verify_shared_reinterpret(src: Attribute, res: Attribute) -> None:
    """Triton's rules for a shared-memory reinterpret (messages without the op prefix, as
    Triton's): padding is kept or absent on both sides; the result spans no more bytes
    than the source view, counted as the view's leading (buffer) dims times the whole
    allocation of the layout's dims; and the result of a subview (its layout's dims
    narrower than the allocation's) spans no more than the offsets the subview owns from
    its start on (see ``_owned_prefix_elements``). Views of one CTA only: the bytes of a
    multi-CTA layout are not modelled."""
    if not isinstance(src, MemDescType) or not isinstance(res, MemDescType):
        return
    src_enc, res_enc = getattr(src.encoding, "encoding", None), getattr(res.encoding, "encoding", None)
    if src_enc is None or res_enc is None or not isinstance(src.encoding, SharedLayoutAttr):
        return
    if isinstance(src_enc, PaddedSharedEncoding) != isinstance(res_enc, PaddedSharedEncoding):
        raise UnprefixedVerifyException("cannot reinterpret between padded and non-padded layouts")
    verify_layout_dims_fit(src, "source")
    verify_layout_dims_fit(res, "result")
    if isinstance(src_enc, PaddedSharedEncoding) or any(
        getattr(getattr(e, "cga", None), "block_bases", ()) for e in (src_enc, res_enc)
    ):
        return
    src_bits, res_bits = element_bit_width(src.element_type), element_bit_width(res.element_type)
    if not src_bits or not res_bits:
        return
    shape, alloc = list(src.get_shape()), list(src.get_alloc_shape())
    want = math.prod(res.get_shape()) * res_bits // 8
    if alloc[len(alloc) - len(shape) :] == shape:
        have = math.prod(shape) * src_bits // 8
        if want > have:
            raise UnprefixedVerifyException(
                f"result shared-memory footprint ({want} bytes) exceeds the source view ({have} bytes)"
            )
        return
    rank = getattr(src_enc, "rank", None)
    if not isinstance(rank, int) or not 0 <= len(shape) - rank <= 1 or len(alloc) < rank:
        return
    lead = len(shape) - rank
    tile = alloc[len(alloc) - rank :]
    have = math.prod(shape[:lead]) * math.prod(tile) * src_bits // 8
    if want > have:
        raise UnprefixedVerifyException(f"result shared-memory footprint ({want} bytes) exceeds the source view ({have} bytes)")
    owned = _owned_prefix_elements(src_enc, tile, shape[lead:])
    if owned is not None and want > owned * src_bits // 8:
        raise UnprefixedVerifyException(
            "result shared-memory footprint includes offsets not owned by the source subview "
            f"({want} bytes requested; {owned * src_bits // 8} contiguous bytes available)"
        )


def _owned_prefix_elements(enc: Encoding, tile: Sequence[int], view: Sequence[int]) -> int | None:
    """How many elements from a subview's first offset on all belong to the subview: the
    view is the box ``[0, view)`` of an allocation laid out by ``enc`` over ``tile``
    (both powers of 2 per dim). Offsets ``[0, 2**j)`` are spanned by the first ``j``
    offset bits, so the prefix ends at the first offset bit whose position lies outside
    the box. None when the view fills the tile (only leading buffers are cut: it owns
    all of them) or no linear layout is known."""
    if list(view) == list(tile):
        return None
    try:
        layout = to_linear_layout(enc, list(tile))
    except (EncodingError, LayoutError, ValueError):
        return None
    names = [f"dim{i}" for i in range(len(tile))]
    if sorted(layout.out_dims) != sorted(names) or "offset" not in layout.in_dims:
        return None
    for j in range(layout.in_dim_size_log2("offset")):
        if any(layout.basis("offset", j, name) >= size for name, size in zip(names, view)):
            return 1 << j
    return layout.in_dim_size("offset")


def _tmem_columns(t: Attribute) -> int | None:
    """The 32-bit tensor-memory columns a ``#ttng.tensor_memory_encoding`` view of 128-row
    blocks spans: one ``blockN``-wide stripe per ``blockM x blockN`` block, ``colStride``
    elements apart, ``32 / bits`` elements per column, times the leading (buffer) dim of a
    rank-3 view; None for anything else."""
    enc = getattr(t, "encoding", None)
    if getattr(enc, "name", None) != "ttng.tensor_memory_encoding" or not isinstance(t, MemDescType):
        return None
    block_m, block_n, stride = enc.blockM.data, enc.blockN.data, enc.colStride.data  # type: ignore[attr-defined]
    shape = t.get_shape()
    bits = element_bit_width(t.element_type) or 0
    if block_m != 128 or len(shape) not in (2, 3) or not block_n or not bits:
        return None  # other block shapes share lanes; not modelled, never refused
    buffers = shape[0] if len(shape) == 3 else 1
    blocks = -(-shape[-2] // block_m) * -(-shape[-1] // block_n)
    return buffers * max(1, blocks * block_n * stride * bits // 32)


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

    def verify_(self) -> None:
        for name in ("alignment", "nbytes"):  # ODS's I32Attr, in name order
            check_i32_attr(self, name)


@irdl_op_definition
class MemDescReshapeOp(IRDLOperation):
    """View a whole allocation with another shape (same memory, row-major order kept).

    ``%1 = ttg.memdesc_reshape %0 : !ttg.memdesc<32x1x4x64xf16, #shared, #smem, mutable>
    -> !ttg.memdesc<128x64xf16, #shared1, #smem, mutable>``

    The result's layout must be the source's linear layout read row-major in the
    new shape (compared as linear layouts, not spellings).
    """

    name = "ttg.memdesc_reshape"

    src = operand_def(MemDescType)
    result = result_def(MemDescType)

    traits = traits_def(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, result_type: MemDescType):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        src, res = self.src.type, self.result.type
        assert isinstance(src, MemDescType) and isinstance(res, MemDescType)
        if src.element_type != res.element_type:
            raise VerifyException("'ttg.memdesc_reshape' op requires the same element type for all operands and results")
        if math.prod(src.get_shape()) != math.prod(res.get_shape()):
            raise VerifyException("number of src and dst elements of reshape must be the same")
        if src.get_alloc_shape() != src.get_shape():
            raise VerifyException("NYI: memdesc_reshape of memdesc_subslice")
        if src.is_mutable != res.is_mutable:
            raise VerifyException("'ttg.memdesc_reshape' op source and result must be both mutable or both immutable")
        if src.memory_space != res.memory_space:
            raise VerifyException("'ttg.memdesc_reshape' op source and result must be in the same memory space")
        for what, ty in (("source", src), ("result", res)):
            # Triton lays out both over their whole shapes, and aborts (getTMABlockShape for
            # NVMMA) on a layout of one tile of a buffer of tiles
            if (rank := _tile_layout_rank(ty)) is not None:
                raise VerifyException(
                    f"'ttg.memdesc_reshape' op {what} layout has rank {rank} but the {what} has rank "
                    f"{len(ty.get_shape())}: a reshape needs a layout of the whole memdesc (Triton aborts on this)"
                )
        verify_layout_dims_fit(src, "source")
        verify_layout_dims_fit(res, "result")
        a, b = src.encoding, res.encoding
        if not (isinstance(a, SharedLayoutAttr) and isinstance(b, SharedLayoutAttr)):
            return
        try:
            expected = reshape_row_major(a.to_linear_layout(list(src.get_shape())), res.get_shape())
            actual = b.to_linear_layout(list(res.get_shape()))
        except (EncodingError, LayoutError, ValueError):
            return  # no linear layout to compare (e.g. padded layouts)
        if expected != actual:
            raise VerifyException(
                f"'ttg.memdesc_reshape' op result layout {attr_text(b)} is not the source layout {attr_text(a)} "
                "reshaped"
            )


def _verify_gather_like(
    op: Operation, memdesc: Attribute, indices: Attribute, values: Attribute, axis: int, what: str = "values"
) -> None:
    """Shared checks of ``ttg.local_gather`` / ``local_scatter``: the values tensor has the
    indices' shape, the memdesc's element type and rank, and ``axis`` is a dim of it."""
    assert isinstance(memdesc, MemDescType)
    if not isinstance(indices, TensorType) or not isinstance(indices.element_type, IntegerType):
        raise VerifyException(f"'{op.name}' op indices must be a tensor of integers")
    if not isinstance(values, TensorType):
        raise VerifyException(f"'{op.name}' op values must be a ranked tensor")
    rank = len(memdesc.get_shape())
    if not 0 <= axis < rank:
        raise VerifyException(f"axis {axis} is out of bounds for source rank {rank}")
    if len(indices.get_shape()) != rank:
        raise VerifyException("source and indices must have the same rank")
    if values.get_shape() != indices.get_shape():
        raise VerifyException(f"'{op.name}' op indices and {what} shapes must match")
    if values.element_type != memdesc.element_type:
        raise VerifyException(f"{what} element type must match source element type")


@irdl_op_definition
class LocalGatherOp(IRDLOperation):
    """``result[I] = src[I with I[axis] replaced by indices[I]]`` (shared memory).

    ``%r = ttg.local_gather %md[%idx] {axis = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem>,
    tensor<16x32xi32, #blocked> -> tensor<16x32xf16, #blocked>``
    """

    name = "ttg.local_gather"

    src = operand_def(MemDescType)
    indices = operand_def(TensorType)
    token = opt_operand_def(AsyncTokenType)
    axis = prop_def(IntegerAttr[IntegerType])
    result = result_def(TensorType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$src `[` $indices `]` (`token` $token^)? attr-dict `:` type($src) `,` type($indices) `->` type($result)"
    )

    def __init__(self, src: SSAValue, indices: SSAValue, axis: int, result_type: TensorType):
        super().__init__(
            operands=[src, indices, []], result_types=[result_type], properties={"axis": IntegerAttr(axis, i32)}
        )

    def verify_(self) -> None:
        _verify_gather_like(self, self.src.type, self.indices.type, self.result.type, self.axis.value.data, "result")


@irdl_op_definition
class LocalScatterOp(IRDLOperation):
    """``dst[I with I[axis] replaced by indices[I]] = values[I]`` (shared memory).

    ``ttg.local_scatter %md[%idx], %vals {axis = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem, mutable>,
    tensor<16x32xi32, #blocked>, tensor<16x32xf16, #blocked>``
    """

    name = "ttg.local_scatter"

    dst = operand_def(MemDescType)
    values = operand_def(TensorType)
    indices = operand_def(TensorType)
    token = opt_operand_def(AsyncTokenType)
    axis = prop_def(IntegerAttr[IntegerType])

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$dst `[` $indices `]` `,` $values (`token` $token^)? attr-dict `:` type($dst) `,` type($indices) `,` "
        "type($values)"
    )

    def __init__(self, dst: SSAValue, values: SSAValue, indices: SSAValue, axis: int):
        super().__init__(operands=[dst, values, indices, []], properties={"axis": IntegerAttr(axis, i32)})

    def verify_(self) -> None:
        dst = self.dst.type
        assert isinstance(dst, MemDescType)
        if not dst.is_mutable:
            raise VerifyException("Cannot store into immutable memory")
        _verify_gather_like(self, dst, self.indices.type, self.values.type, self.axis.value.data)


@irdl_op_definition
class LocalAtomicScatterRMWOp(IRDLOperation):
    """Atomic read-modify-write of ``dst`` at gathered positions; the old values.

    ``%old = ttg.local_atomic_scatter_rmw add, %md[%idx], %vals[, %mask] {axis = 0 : i32}
    : (!ttg.memdesc<...>, tensor<...xi32>, tensor<...xf32>[, tensor<...xi1>]) -> tensor<...xf32>``
    """

    name = "ttg.local_atomic_scatter_rmw"

    atomic_rmw_op = prop_def(RMWOpAttr)
    dst = operand_def(MemDescType)
    values = operand_def(TensorType)
    indices = operand_def(TensorType)
    mask = opt_operand_def(TensorType)
    axis = prop_def(IntegerAttr[IntegerType])
    result = result_def(TensorType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$atomic_rmw_op `,` $dst `[` $indices `]` `,` $values (`,` $mask^)? attr-dict `:` "
        "functional-type(operands, results)"
    )

    def verify_(self) -> None:
        dst = self.dst.type
        assert isinstance(dst, MemDescType)
        if not dst.is_mutable:
            raise VerifyException("Cannot store into immutable memory")
        _verify_gather_like(self, dst, self.indices.type, self.values.type, self.axis.value.data)
        if self.result.type != self.values.type:
            raise VerifyException(f"'{self.name}' op result type must match the values type")
