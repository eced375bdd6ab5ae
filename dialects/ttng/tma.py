"""TMA (tensor memory accelerator) ops and device-side descriptors.

``ttng.async_tma_copy_global_to_local`` (tiled or im2col), ``ttng.async_tma_copy_local_to_global``,
``ttng.async_tma_reduce``, ``ttng.async_tma_gather``, ``ttng.async_tma_scatter``,
``ttng.async_tma_store_wait``, ``ttng.reinterpret_tensor_descriptor``,
``ttng.tensormap_create``, ``ttng.tensormap_fenceproxy_acquire``. Verifiers follow
Triton's order and messages: coordinates, block against buffer, barrier, mutability,
NVMMA shared layouts, im2col offsets, multicast.
"""

from __future__ import annotations

import math

from collections.abc import Mapping, Sequence
from typing import ClassVar

from ltc.dialects.tt import (
    CachePolicyAttr,
    DescriptorReduceKind,
    DescriptorReduceKindAttr,
    PtrType,
    TensorDescType,
)
from ltc.dialects.tt.types import element_bit_width
from ltc.dialects.ttg import MemDescType, attr_text
from ltc.dialects.ttg.types import verify_layout_dims_fit, verify_swizzle_tile
from ltc.dialects.ttg_attrs import LayoutAttr
from ltc.dialects.ttng.common import (
    TTNGOp,
    bases_text,
    cga_bases_of,
    i32_attr,
    int_value,
    num_ctas,
    one_cta_per_bit,
    parse_operands,
    parse_types,
    print_types,
    verify_barrier_type,
)
from ltc.dialects.ods_checks import check_i32_attr, is_signless_int
from ltc.dialects.ttng.types import TensorDescIm2ColType
from xdsl.dialects.builtin import (
    BFloat16Type,
    BoolAttr,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    Signedness,
    TensorType,
    UnitAttr,
    i1,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
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
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ltc.encodings.shared import NVMMASharedEncoding

__all__ = [
    "AsyncTMACopyGlobalToLocalOp",
    "AsyncTMACopyLocalToGlobalOp",
    "AsyncTMAGatherOp",
    "AsyncTMAReduceOp",
    "AsyncTMAScatterOp",
    "AsyncTMAStoreWaitOp",
    "ReinterpretTensorDescOp",
    "TensormapCreateOp",
    "TensormapFenceproxyAcquireOp",
]

_FALSE = IntegerAttr.from_bool(False)


def _nvmma(attr: Attribute) -> NVMMASharedEncoding | None:
    if isinstance(attr, LayoutAttr) and isinstance(attr.encoding, NVMMASharedEncoding):
        return attr.encoding
    return None


def _verify_block(desc: Attribute, buffer: Attribute) -> None:
    """The descriptor's block and the shared buffer agree in element type and, for a tiled
    descriptor, in element count (Triton's rule: the shapes may differ, ``32x32`` and
    ``16x64``); an im2col block has the buffer's shape."""
    assert isinstance(desc, (TensorDescType, TensorDescIm2ColType)) and isinstance(buffer, MemDescType)
    if isinstance(desc, TensorDescIm2ColType):
        if tuple(desc.shape) != buffer.get_shape() or desc.element_type != buffer.element_type:
            raise VerifyException(
                "the tensor descriptor's block and the shared-memory buffer must have the same shape and element type"
            )
        return
    if desc.element_type != buffer.element_type:
        raise VerifyException(
            "descriptor block and tensor element types must match, but got descriptor element type "
            f"'{attr_text(desc.element_type)}' and tensor element type '{attr_text(buffer.element_type)}'"
        )
    block, tensor = math.prod(desc.shape), math.prod(buffer.get_shape())
    if block != tensor:
        raise VerifyException(
            "descriptor block and tensor must have the same number of elements, but got descriptor block with "
            f"{block} elements tensor with {tensor} elements"
        )


def _verify_coords(n_coords: int, desc: Attribute) -> None:
    assert isinstance(desc, (TensorDescType, TensorDescIm2ColType))
    if isinstance(desc, TensorDescIm2ColType):
        if n_coords < 3:
            raise VerifyException(f"IM2COL mode requires at least 3D coordinates, but got {n_coords}D")
        if n_coords > 5:
            raise VerifyException(f"IM2COL mode supports at most 5D coordinates, but got {n_coords}D")
        return
    rank = len(desc.shape)
    if n_coords != rank:
        raise VerifyException(f"expected {rank} coordinates, but got {n_coords}")
    if not 1 <= n_coords <= 5:
        raise VerifyException("must have between 1 and 5 coordinates")


def _verify_tma_encoding(desc: Attribute, buffer: Attribute) -> None:
    """The buffer has an NVMMA shared layout of its own rank (not one tile's of a buffer of
    tiles), matching the descriptor's, not transposed."""
    assert isinstance(desc, (TensorDescType, TensorDescIm2ColType)) and isinstance(buffer, MemDescType)
    buffer_encoding = buffer.encoding
    nvmma = _nvmma(buffer_encoding)
    if nvmma is None:
        raise VerifyException("TMA descriptor must have NVMMA shared layout")
    if nvmma.rank != len(buffer.get_shape()):
        raise VerifyException("TMA shared memory and layout ranks must match")
    desc_nvmma = _nvmma(desc.encoding)
    if desc_nvmma is None or (
        desc_nvmma.transposed,
        desc_nvmma.swizzling_byte_width,
        desc_nvmma.element_bit_width,
        desc_nvmma.fp4_padded,
    ) != (nvmma.transposed, nvmma.swizzling_byte_width, nvmma.element_bit_width, nvmma.fp4_padded):
        desc_text = "<<NULL ATTRIBUTE>>" if isinstance(desc.encoding, NoneAttr) else attr_text(desc.encoding)
        raise VerifyException(
            "TMA descriptor layout must match shared layout, but got descriptor layout "
            f"{desc_text} and shared memory layout {attr_text(buffer_encoding)}"
        )
    if nvmma.transposed:
        raise VerifyException("TMA descriptor layout must not be transposed")


def _has_cga_broadcast(buffer: MemDescType) -> bool:
    """Some CTA-id bit of the buffer's layout maps to no offset (the CTAs share data)."""
    enc = buffer.encoding
    if not isinstance(enc, LayoutAttr):
        return False
    cga = getattr(enc.encoding, "cga", None)
    return cga is not None and any(not any(b) for b in cga.block_bases)


def _two_ctas(op: TTNGOp) -> bool | None:
    """The enclosing module's ``ttng.two-ctas`` (None when it does not say)."""
    cur = op.parent_op()
    while cur is not None and cur.name != "builtin.module":
        cur = cur.parent_op()
    attr = None if cur is None else cur.attributes.get("ttng.two-ctas")
    if isinstance(attr, IntegerAttr) and isinstance(attr.type, IntegerType) and attr.type.width.data == 1:
        return bool(attr.value.data)
    return None


def _verify_tma_barrier_layout(op: TTNGOp, barrier: Attribute) -> None:
    """In a module that says ``ttng.two-ctas``, a TMA barrier has one element per CTA,
    or (two-CTA mode) one per CTA pair: bases ``[[0], [1], [2], ...]``."""
    two_ctas = _two_ctas(op)
    if two_ctas is None:
        return
    n = num_ctas(op)
    actual = cga_bases_of(barrier)
    per_cta = one_cta_per_bit(n)
    if actual == per_cta:
        return
    if two_ctas:
        per_pair = ((0,), *one_cta_per_bit(n // 2))
        if actual == per_pair:
            return
        raise VerifyException(
            f"TMA barrier cga_layout must be {bases_text(per_cta)} or {bases_text(per_pair)}, got {bases_text(actual)}"
        )
    raise VerifyException(f"TMA barrier cga_layout must be {bases_text(per_cta)}, got {bases_text(actual)}")


def _verify_tma_load(
    op: TTNGOp, desc: Attribute, barrier: Attribute, result: Attribute, multicast: bool, block: bool = False
) -> None:
    """Triton's order: the barrier, the block against the buffer (``block``: a copy of one
    block), a mutable buffer, its layout."""
    verify_barrier_type(op, barrier)
    _verify_tma_barrier_layout(op, barrier)
    assert isinstance(result, MemDescType)
    if block:
        _verify_block(desc, result)
    if not result.is_mutable:
        raise VerifyException("cannot store into immutable memory")
    _verify_tma_encoding(desc, result)
    verify_layout_dims_fit(result, "the shared buffer's")
    verify_swizzle_tile("the shared buffer", result)


def _verify_tma_store(desc: Attribute, src: Attribute) -> None:
    assert isinstance(src, MemDescType)
    nvmma = _nvmma(src.encoding)
    if nvmma is not None and nvmma.fp4_padded:
        raise VerifyException("does not support fp4_padded operands")
    _verify_tma_encoding(desc, src)
    verify_layout_dims_fit(src, "the shared buffer's")
    verify_swizzle_tile("the shared buffer", src)


def _parse_coords(parser: Parser) -> list[UnresolvedOperand]:
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)


def _print_coords(printer: Printer, coords: Sequence[SSAValue]) -> None:
    printer.print_string("[")
    printer.print_list(coords, printer.print_operand)
    printer.print_string("]")


# ---------------------------------------------------------------------------
# loads and stores of one block
# ---------------------------------------------------------------------------


@irdl_op_definition
class AsyncTMACopyGlobalToLocalOp(TTNGOp):
    """Start a TMA load of one block at ``coord`` into a shared buffer, signalling ``barrier``.

    ``ttng.async_tma_copy_global_to_local %desc[%x, %y] %buf, %bar, %pred
    : !tt.tensordesc<128x64xf16, #shared>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>``

    With an ``!ttng.tensordesc_im2col`` descriptor the coordinates are those of the
    full tensor (3 to 5 of them) and ``offsets = [%w, %h]`` (i16, one fewer than the
    coordinates minus one) follow the brackets.
    """

    name = "ttng.async_tma_copy_global_to_local"

    desc = operand_def(TensorDescType | TensorDescIm2ColType)
    coord = var_operand_def(i32)
    offsets = var_operand_def(i16)
    barrier = operand_def(MemDescType)
    result = operand_def(MemDescType)
    pred = operand_def(i1)

    multicast = opt_prop_def(UnitAttr)
    isVolatile = prop_def(BoolAttr, default_value=_FALSE)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    PROPERTIES: ClassVar[tuple[str, ...]] = ("multicast", "isVolatile")
    DEFAULTS: ClassVar[Mapping[str, Attribute]] = {"isVolatile": _FALSE}

    def __init__(
        self,
        desc: SSAValue,
        coord: Sequence[SSAValue],
        result: SSAValue,
        barrier: SSAValue,
        pred: SSAValue,
        offsets: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[desc, list(coord), list(offsets), barrier, result, pred], properties={"isVolatile": _FALSE}
        )

    @classmethod
    def parse(cls, parser: Parser) -> AsyncTMACopyGlobalToLocalOp:
        desc = parser.parse_unresolved_operand()
        coord = _parse_coords(parser)
        offsets: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("offsets"):
            parser.parse_punctuation("=")
            offsets = _parse_coords(parser)
        result = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        barrier = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        pred = parser.parse_unresolved_operand()
        props, attrs = cls.parse_dict(parser)
        parser.parse_punctuation(":")
        desc_type = parser.parse_type()
        parser.parse_punctuation(",")
        barrier_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        op = cls(
            parser.resolve_operand(desc, desc_type),
            [parser.resolve_operand(c, i32) for c in coord],
            parser.resolve_operand(result, result_type),
            parser.resolve_operand(barrier, barrier_type),
            parser.resolve_operand(pred, i1),
            [parser.resolve_operand(o, i16) for o in offsets],
        )
        op.properties.update(props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.desc)
        _print_coords(printer, self.coord)
        if self.offsets:
            printer.print_string(" offsets = ")
            _print_coords(printer, self.offsets)
        printer.print_string(" ")
        printer.print_list([self.result, self.barrier, self.pred], printer.print_operand)
        self.print_dict(printer)
        printer.print_string(" : ")
        print_types(printer, [self.desc.type, self.barrier.type])
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if "cache" in self.attributes or "evict" in self.attributes:
            raise VerifyException("use cachePolicy instead of legacy cache/evict attributes")
        if self.isVolatile.value.data:
            raise VerifyException("volatile TMA loads are not supported")
        policy = self.attributes.get("cachePolicy")
        if isinstance(policy, CachePolicyAttr) and policy.cache_modifier.data != "none":
            raise VerifyException("TMA operations do not support cache modifiers")
        desc = self.desc.type
        _verify_coords(len(self.coord), desc)
        _verify_tma_load(self, desc, self.barrier.type, self.result.type, self.multicast is not None, block=True)
        im2col = isinstance(desc, TensorDescIm2ColType)
        if im2col:
            if not self.offsets:
                raise VerifyException("IM2COL mode requires offsets to be provided")
            expected = len(self.coord) - 2
            if len(self.offsets) != expected:
                raise VerifyException(
                    f"IM2COL mode with {len(self.coord)}D coordinates requires {expected} offsets, "
                    f"but got {len(self.offsets)}"
                )
        elif self.offsets:
            raise VerifyException("TILED mode does not support offsets")
        result = self.result.type
        assert isinstance(result, MemDescType)
        if self.multicast is not None and not _has_cga_broadcast(result):
            raise VerifyException("multicast requires the shared layout to broadcast across CTAs")


class _TMAStoreLikeOp(TTNGOp):
    """``[KIND,] %desc[%c...] %src attr-dict : type(desc), type(src)``."""

    HAS_KIND: ClassVar[bool] = False

    @classmethod
    def parse(cls, parser: Parser) -> _TMAStoreLikeOp:
        props: dict[str, Attribute] = {}
        if cls.HAS_KIND:
            pos = parser.pos
            word = parser.parse_identifier()
            kinds = [k.value for k in DescriptorReduceKind]
            if word not in kinds:
                parser.raise_error(f"expected one of [{', '.join(kinds)}] for the reduce kind, got '{word}'", pos)
            props["kind"] = DescriptorReduceKindAttr(DescriptorReduceKind(word))
            parser.parse_punctuation(",")
        desc = parser.parse_unresolved_operand()
        coord = _parse_coords(parser)
        src = parser.parse_unresolved_operand()
        more, attrs = cls.parse_dict(parser)
        parser.parse_punctuation(":")
        desc_type = parser.parse_type()
        parser.parse_punctuation(",")
        src_type = parser.parse_type()
        return cls.create(
            operands=[
                parser.resolve_operand(desc, desc_type),
                *[parser.resolve_operand(c, i32) for c in coord],
                parser.resolve_operand(src, src_type),
            ],
            properties={**more, **props},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        desc, *coord, src = self.operands
        printer.print_string(" ")
        if self.HAS_KIND:
            kind = self.properties["kind"]
            assert isinstance(kind, DescriptorReduceKindAttr)
            printer.print_string(f"{kind.data.value}, ")
        printer.print_operand(desc)
        _print_coords(printer, coord)
        printer.print_string(" ")
        printer.print_operand(src)
        self.print_dict(printer, reserved=("kind",))
        printer.print_string(" : ")
        print_types(printer, [desc.type, src.type])

    def verify_store(self) -> None:
        desc, *coord, src = self.operands
        _verify_coords(len(coord), desc.type)
        _verify_block(desc.type, src.type)
        _verify_tma_store(desc.type, src.type)


@irdl_op_definition
class AsyncTMACopyLocalToGlobalOp(_TMAStoreLikeOp):
    """Start a TMA store of a shared buffer to the block at ``coord``.

    ``ttng.async_tma_copy_local_to_global %desc[%x, %y] %buf
    : !tt.tensordesc<128x128xf16, #shared>, !ttg.memdesc<128x128xf16, #shared, #smem>``
    """

    name = "ttng.async_tma_copy_local_to_global"

    desc = operand_def(TensorDescType)
    coord = var_operand_def(i32)
    src = operand_def(MemDescType)

    def __init__(self, desc: SSAValue, coord: Sequence[SSAValue], src: SSAValue):
        super().__init__(operands=[desc, list(coord), src])

    def verify_(self) -> None:
        self.verify_store()


def reduce_kind_supported(kind: DescriptorReduceKind, element_type: Attribute) -> bool:
    """Which element types ``cp.reduce.async.bulk.tensor`` supports for each reduction."""
    int_width = element_type.width.data if isinstance(element_type, IntegerType) else None
    signed_i64 = (
        isinstance(element_type, IntegerType)
        and int_width == 64
        and element_type.signedness.data == Signedness.SIGNED
    )
    half = isinstance(element_type, (Float16Type, BFloat16Type))
    if kind == DescriptorReduceKind.ADD:
        return int_width == 32 or (int_width == 64 and not signed_i64) or isinstance(element_type, Float32Type) or half
    if kind in (DescriptorReduceKind.MIN, DescriptorReduceKind.MAX):
        return int_width in (32, 64) or half
    if kind in (DescriptorReduceKind.AND, DescriptorReduceKind.OR, DescriptorReduceKind.XOR):
        return int_width in (32, 64)
    return False


@irdl_op_definition
class AsyncTMAReduceOp(_TMAStoreLikeOp):
    """Reduce a shared buffer into the block at ``coord`` (element-wise atomic, relaxed).

    ``ttng.async_tma_reduce add, %desc[%x, %y] %buf : !tt.tensordesc<...>, !ttg.memdesc<...>``
    """

    name = "ttng.async_tma_reduce"

    kind = prop_def(DescriptorReduceKindAttr)
    desc = operand_def(TensorDescType)
    coord = var_operand_def(i32)
    src = operand_def(MemDescType)

    HAS_KIND: ClassVar[bool] = True

    def __init__(self, kind: DescriptorReduceKind, desc: SSAValue, coord: Sequence[SSAValue], src: SSAValue):
        super().__init__(operands=[desc, list(coord), src], properties={"kind": DescriptorReduceKindAttr(kind)})

    def verify_(self) -> None:
        self.verify_store()
        desc = self.desc.type
        assert isinstance(desc, TensorDescType)
        if not reduce_kind_supported(self.kind.data, desc.element_type):
            raise VerifyException(
                f"unsupported reduce kind {self.kind.data.value} for element type '{attr_text(desc.element_type)}'"
            )


# ---------------------------------------------------------------------------
# gather / scatter of rows
# ---------------------------------------------------------------------------


def _verify_gather_scatter(desc: Attribute, buffer: Attribute, x_offsets: Attribute) -> None:
    assert isinstance(desc, TensorDescType) and isinstance(buffer, MemDescType)
    block = desc.block_type
    if len(desc.shape) != 2:
        raise VerifyException(f"descriptor block must be a 2D tensor, but got {attr_text(block)}")
    if desc.shape[0] != 1:
        raise VerifyException(f"descriptor block must have exactly 1 row, but got {attr_text(block)}")
    assert isinstance(x_offsets, TensorType)
    shape = buffer.get_shape()
    if len(x_offsets.get_shape()) != 1:
        raise VerifyException("x offsets must be a 1D tensor")
    if len(shape) != 2:
        raise VerifyException("result must be a 2D tensor")
    # TMA's minimum tile: 8 rows of at least 8 32-bit words (Triton's rule and wording;
    # the buffer may be a view of a larger allocation).
    if shape[0] < 8:
        raise VerifyException(f"must have at least 8 rows, but got {shape[0]}")
    width = element_bit_width(buffer.element_type)
    if width is not None:
        if width > 32:
            raise VerifyException("TMA dtype cannot be greater than 32 bits")
        if shape[1] < 32 // width * 8:
            raise VerifyException(
                f"must have at least {32 // width * 8} columns for '{attr_text(buffer.element_type)}', but got {shape[1]}"
            )
    if shape[0] != x_offsets.get_shape()[0]:
        raise VerifyException(
            f"result tensor must have as many rows as indices ({x_offsets.get_shape()[0]}), but got {attr_text(buffer)}"
        )
    if shape[1] != desc.shape[1]:
        raise VerifyException(
            f"result tensor number of columns must match block ({desc.shape[1]}), but got {attr_text(buffer)}"
        )
    if buffer.element_type != desc.element_type:
        raise VerifyException(
            f"result tensor element type must match block ({attr_text(desc.element_type)}), but got {attr_text(buffer)}"
        )
    if isinstance(x_offsets.encoding, LayoutAttr):
        ll = x_offsets.encoding.to_linear_layout(x_offsets.get_shape())
        bases = ll.bases
        contiguous = 1
        for i, basis in enumerate(bases.get("register", [])):
            if tuple(basis) != (1 << i,):
                break
            contiguous *= 2
        if contiguous < 4:
            raise VerifyException("x offsets must have at least 4 contiguous elements per thread")
        if any(any(b) for b in bases.get("lane", [])):
            raise VerifyException("x offsets must be broadcasted across each warp")


def _parse_gather_head(parser: Parser) -> tuple[UnresolvedOperand, UnresolvedOperand, UnresolvedOperand]:
    desc = parser.parse_unresolved_operand()
    parser.parse_punctuation("[")
    x_offsets = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    y_offset = parser.parse_unresolved_operand()
    parser.parse_punctuation("]")
    return desc, x_offsets, y_offset


def _print_gather_head(printer: Printer, desc: SSAValue, x_offsets: SSAValue, y_offset: SSAValue) -> None:
    """`` %desc[%xs, %y] `` (what ``_parse_gather_head`` reads)."""
    printer.print_string(" ")
    printer.print_operand(desc)
    printer.print_string("[")
    printer.print_list([x_offsets, y_offset], printer.print_operand)
    printer.print_string("] ")


class _OperandTypesOp(TTNGOp):
    """Ops written ``... attr-dict : type(operands)`` (every operand's type, in order)."""

    @classmethod
    def finish_parse(cls, parser: Parser, operands: Sequence[UnresolvedOperand]) -> _OperandTypesOp:
        props, attrs = cls.parse_dict(parser)
        parser.parse_punctuation(":")
        pos = parser.pos
        types = parse_types(parser)
        if len(types) != len(operands):
            parser.raise_error(f"expected {len(operands)} types, got {len(types)}", pos, parser.pos)
        return cls.create(
            operands=[parser.resolve_operand(o, t) for o, t in zip(operands, types)], properties=props, attributes=attrs
        )

    def print_tail(self, printer: Printer) -> None:
        self.print_dict(printer)
        printer.print_string(" : ")
        print_types(printer, [o.type for o in self.operands])


@irdl_op_definition
class AsyncTMAGatherOp(_OperandTypesOp):
    """Gather rows ``x_offsets`` (at column ``y_offset``) into a shared buffer.

    ``ttng.async_tma_gather %desc[%xs, %y] %buf, %bar, %pred : !tt.tensordesc<1x128xbf16, #shared>,
    tensor<32xi32, #blocked>, i32, !ttg.memdesc<1xi64, ...>, !ttg.memdesc<32x128xbf16, ...>, i1``
    """

    name = "ttng.async_tma_gather"

    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(i32)
    barrier = operand_def(MemDescType)
    result = operand_def(MemDescType)
    pred = operand_def(i1)
    multicast = opt_prop_def(UnitAttr)

    PROPERTIES: ClassVar[tuple[str, ...]] = ("multicast",)

    @classmethod
    def parse(cls, parser: Parser) -> AsyncTMAGatherOp:
        desc, x_offsets, y_offset = _parse_gather_head(parser)
        result = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        barrier = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        pred = parser.parse_unresolved_operand()
        op = cls.finish_parse(parser, [desc, x_offsets, y_offset, barrier, result, pred])
        assert isinstance(op, AsyncTMAGatherOp)
        return op

    def print(self, printer: Printer) -> None:
        _print_gather_head(printer, self.desc, self.x_offsets, self.y_offset)
        printer.print_list([self.result, self.barrier, self.pred], printer.print_operand)
        self.print_tail(printer)

    def verify_(self) -> None:
        result = self.result.type
        assert isinstance(result, MemDescType)
        _verify_tma_load(self, self.desc.type, self.barrier.type, result, self.multicast is not None)
        nvmma = _nvmma(result.encoding)
        if nvmma is not None and nvmma.fp4_padded:
            raise VerifyException("does not support fp4_padded operands")
        if self.multicast is not None and not _has_cga_broadcast(result):
            raise VerifyException("multicast requires the shared layout to broadcast across CTAs")
        _verify_gather_scatter(self.desc.type, result, self.x_offsets.type)


@irdl_op_definition
class AsyncTMAScatterOp(_OperandTypesOp):
    """Scatter the rows of a shared buffer to rows ``x_offsets`` at column ``y_offset``.

    ``ttng.async_tma_scatter %desc[%xs, %y] %buf : !tt.tensordesc<1x128xbf16, #shared>,
    tensor<32xi32>, i32, !ttg.memdesc<32x128xbf16, #shared, #smem>``
    """

    name = "ttng.async_tma_scatter"

    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(i32)
    src = operand_def(MemDescType)

    @classmethod
    def parse(cls, parser: Parser) -> AsyncTMAScatterOp:
        desc, x_offsets, y_offset = _parse_gather_head(parser)
        src = parser.parse_unresolved_operand()
        op = cls.finish_parse(parser, [desc, x_offsets, y_offset, src])
        assert isinstance(op, AsyncTMAScatterOp)
        return op

    def print(self, printer: Printer) -> None:
        _print_gather_head(printer, self.desc, self.x_offsets, self.y_offset)
        printer.print_operand(self.src)
        self.print_tail(printer)

    def verify_(self) -> None:
        _verify_tma_store(self.desc.type, self.src.type)
        _verify_gather_scatter(self.desc.type, self.src.type, self.x_offsets.type)


@irdl_op_definition
class AsyncTMAStoreWaitOp(TTNGOp):
    """Wait until at most ``pendings`` TMA stores are in flight (only their shared-memory
    reads with ``read_only``).

    ``ttng.async_tma_store_wait {pendings = 0 : i32[, read_only]}``
    """

    name = "ttng.async_tma_store_wait"

    pendings = prop_def(IntegerAttr[IntegerType])
    read_only = opt_prop_def(UnitAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self, pendings: int, read_only: bool = False):
        props: dict[str, Attribute] = {"pendings": i32_attr(pendings)}
        if read_only:
            props["read_only"] = UnitAttr()
        super().__init__(properties=props)

    def verify_(self) -> None:
        check_i32_attr(self, "pendings")


# ---------------------------------------------------------------------------
# device-side descriptors
# ---------------------------------------------------------------------------


@irdl_op_definition
class ReinterpretTensorDescOp(TTNGOp):
    """View a raw TMA descriptor pointer as a typed descriptor.

    ``%d = ttng.reinterpret_tensor_descriptor %p : !tt.ptr<i8> to !tt.tensordesc<128x64xf16, #shared>``
    """

    name = "ttng.reinterpret_tensor_descriptor"

    rawDesc = operand_def(PtrType)
    result = result_def(TensorDescType)

    traits = traits_def(Pure())

    assembly_format = "$rawDesc attr-dict `:` type($rawDesc) `to` type($result)"

    def __init__(self, raw_desc: SSAValue, result_type: TensorDescType):
        super().__init__(operands=[raw_desc], result_types=[result_type])


_TENSORMAP_LIMITS: dict[str, int] = {"elem_type": 15, "fill_mode": 1, "interleave_layout": 2, "swizzle_mode": 3}
"""The i32 attributes of ``ttng.tensormap_create`` and their maximum values."""


@irdl_op_definition
class TensormapCreateOp(TTNGOp):
    """Write a TMA descriptor to global memory on the device.

    ``ttng.tensormap_create %dst, %base, [%box...], [%dim...], [%stride...], [%estride...]
    {elem_type = 1 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32}
    : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()``
    """

    name = "ttng.tensormap_create"

    desc_ptr = operand_def(PtrType)
    global_address = operand_def(PtrType)
    box_dim = var_operand_def(i32)
    global_dim = var_operand_def(i32)
    global_stride = var_operand_def(i64)
    element_stride = var_operand_def(i32)
    elem_type = prop_def(IntegerAttr[IntegerType])
    interleave_layout = prop_def(IntegerAttr[IntegerType])
    swizzle_mode = prop_def(IntegerAttr[IntegerType])
    fill_mode = prop_def(IntegerAttr[IntegerType])

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    PROPERTIES: ClassVar[tuple[str, ...]] = tuple(_TENSORMAP_LIMITS)

    @classmethod
    def parse(cls, parser: Parser) -> TensormapCreateOp:
        desc_ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        address = parser.parse_unresolved_operand()
        groups: list[list[UnresolvedOperand]] = []
        for _ in range(4):
            parser.parse_punctuation(",")
            parser.parse_punctuation("[")
            groups.append(parse_operands(parser))
            parser.parse_punctuation("]")
        props, attrs = cls.parse_dict(parser)
        parser.parse_punctuation(":")
        pos = parser.pos
        fn = parser.parse_function_type()
        operands = [desc_ptr, address, *[o for g in groups for o in g]]
        if len(fn.inputs.data) != len(operands) or fn.outputs.data:
            parser.raise_error(f"expected ({len(operands)} types) -> ()", pos, parser.pos)
        resolved = [parser.resolve_operand(o, t) for o, t in zip(operands, fn.inputs.data)]
        sizes = [1, 1, *(len(g) for g in groups)]
        return cls.create(
            operands=resolved,
            properties={**props, "operandSegmentSizes": DenseArrayBase.from_list(i32, sizes)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.desc_ptr, self.global_address], printer.print_operand)
        for group in (self.box_dim, self.global_dim, self.global_stride, self.element_stride):
            printer.print_string(", [")
            printer.print_list(group, printer.print_operand)
            printer.print_string("]")
        self.print_dict(printer)
        printer.print_string(" : (")
        print_types(printer, [o.type for o in self.operands])
        printer.print_string(") -> ()")

    def verify_(self) -> None:
        for name, limit in _TENSORMAP_LIMITS.items():
            attr = self.properties.get(name)
            value = int_value(attr)
            if value is None or not 0 <= value <= limit or not is_signless_int(attr.type, 32):  # type: ignore[union-attr]
                raise VerifyException(
                    f"attribute '{name}' failed to satisfy constraint: 32-bit signless integer attribute "
                    f"whose value is non-negative whose maximum value is {limit}"
                )
        rank = len(self.box_dim)
        if len(self.global_dim) != rank:
            raise VerifyException(f"Rank mismatch for global dim. Got {len(self.global_dim)} but expected {rank}")
        if len(self.global_stride) + 1 != rank:
            raise VerifyException(
                f"Rank mismatch for global stride. Got {len(self.global_stride)} but expected {rank - 1}"
            )
        if len(self.element_stride) != rank:
            raise VerifyException(
                f"Rank mismatch for element stride. Got {len(self.element_stride)} but expected {rank}"
            )


@irdl_op_definition
class TensormapFenceproxyAcquireOp(TTNGOp):
    """Acquire fence on a device-written TMA descriptor: ``ttng.tensormap_fenceproxy_acquire %p : !tt.ptr<i8>``."""

    name = "ttng.tensormap_fenceproxy_acquire"

    desc_ptr = operand_def(PtrType)

    assembly_format = "$desc_ptr attr-dict `:` type($desc_ptr)"

    def __init__(self, desc_ptr: SSAValue):
        super().__init__(operands=[desc_ptr])
