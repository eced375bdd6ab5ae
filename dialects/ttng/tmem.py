"""Tensor-memory (Blackwell TMEM) ops.

``ttng.tmem_alloc``, ``ttng.tmem_load``, ``ttng.tmem_store``, ``ttng.tmem_subslice``,
``ttng.tmem_copy``, ``ttng.tmem_wait``. Loads, stores and allocations may carry an
async token: ``%buf[%tok]`` consumes one, ``%buf[]`` only produces one (Triton's
``custom<Token>``). Every op needs a tcgen05 target (``cuda:100`` to ``cuda:119``)
when the module names one. A reducing load needs each row's columns in one thread.
The register layout of a loaded, stored or initialising tensor must lower to tcgen05.ld/st
messages: two necessary conditions of Triton's message search are checked (warps on
rows 32 and 64, no lane copies among the first 16 lanes; see
``_register_layout_fits_tmem``), not the search itself. Not checked: the alignment of a
subslice's offset.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from math import prod
from typing import ClassVar

from ltc.dialects.ttg import AsyncTokenType, MemDescType, SharedMemorySpaceAttr
from ltc.dialects.ttg.types import verify_swizzle_tile
from ltc.dialects.ttg_attrs import DistributedLayoutAttr, LayoutAttr
from ltc.dialects.ttng import tmem_ldst
from ltc.dialects.ttng.attrs import element_bit_width
from ltc.dialects.ttng.attrs import (
    TensorMemoryEncodingAttr,
    TensorMemoryScalesEncodingAttr,
    TMEMLoadReduceModifierAttr,
)
from ltc.dialects.ttng.common import (
    TTNGOp,
    i32_attr,
    int_value,
    is_tensor_memory,
    is_tmem_encoding,
    print_types,
    require_tcgen05,
    verify_same_shape_and_element,
)
from xdsl.dialects.builtin import (
    BoolAttr,
    Float32Type,
    FunctionType,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedResultSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    EffectInstance,
    MemoryEffect,
    MemoryEffectKind,
    MemoryReadEffect,
    Pure,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from ltc.encodings import EncodingError
from ltc.encodings.shared import NVMMASharedEncoding
from ltc.linear_layout import LayoutError, LinearLayout

__all__ = [
    "TMEMAllocOp",
    "TMEMCopyOp",
    "TMEMLoadOp",
    "TMEMStoreOp",
    "TMEMSubSliceOp",
    "TMEMWaitKind",
    "TMEMWaitOp",
    "parse_token",
    "print_token",
]


def parse_token(parser: Parser) -> tuple[UnresolvedOperand | None, bool]:
    """``[%dep]``, ``[]`` or nothing: (the dependency, whether a token is produced)."""
    if parser.parse_optional_punctuation("[") is None:
        return None, False
    if parser.parse_optional_punctuation("]") is not None:
        return None, True
    dep = parser.parse_unresolved_operand()
    parser.parse_punctuation("]")
    return dep, True


def print_token(printer: Printer, dep: SSAValue | None, produces: bool) -> None:
    if not produces:
        return
    printer.print_string("[")
    if dep is not None:
        printer.print_operand(dep)
    printer.print_string("]")


def _verify_register_operand(tensor: Attribute, what: str) -> None:
    assert isinstance(tensor, TensorType)
    if len(tensor.get_shape()) != 2:
        raise VerifyException(f"{what} must be a 2D tensor")


def _register_layout_fits_tmem(op: Operation, tensor: Attribute, memdesc: Attribute) -> bool:
    """Whether Triton's TMEM message search (``tcgen05.ld/st``; its
    ``computeTMemLdStEncodingInfo``) lowers ``tensor``'s register layout to or from
    ``memdesc`` (see :mod:`ltc.dialects.ttng.tmem_ldst`). True where the rule does not
    apply: no layout, a layout the layout checks refuse, a scale layout repeated K first."""
    assert isinstance(tensor, TensorType) and isinstance(memdesc, MemDescType)
    reg = tensor.encoding
    shape = tuple(tensor.get_shape())
    if not isinstance(reg, DistributedLayoutAttr) or len(shape) != 2:
        return True
    alloc = tuple(memdesc.get_alloc_shape())[-len(memdesc.get_shape()):]
    try:
        mem = tmem_ldst.memory_layout(memdesc.encoding, alloc)
        if mem is None:
            return True
        ll = reg.to_linear_layout(shape)
    except (EncodingError, LayoutError, ValueError):
        return True  # the layout check reports it
    bitwidth = element_bit_width(memdesc.element_type)
    if bitwidth is None:
        return True
    return tmem_ldst.fits_tmem(ll, mem, bitwidth, tmem_ldst.contextual_maxnreg(op))


_TMEM_ACCESS_ELEMENTS_LIMIT = 1 << 32
"""Triton's TMEM operand check composes layouts of 32-bit sizes: beyond this many elements
it aborts ("outer layout does not cover this layout's image"); measured on Triton 3.9."""


def _verify_tmem_register_layout(op: Operation, tensor: Attribute, memdesc: Attribute, what: str) -> None:
    """Triton's ``verifyTMEMOperand``: the register layout must lower to TMEM messages;
    Triton says only which operand (its notes list layouts that would)."""
    elements = prod(tensor.get_shape()) if isinstance(tensor, TensorType) else 0
    if elements > _TMEM_ACCESS_ELEMENTS_LIMIT:
        raise VerifyException(
            f"{what} of {elements} elements is out of range: a tensor-memory access moves at most "
            f"2**32 (Triton's layout check aborts beyond)"
        )
    if not _register_layout_fits_tmem(op, tensor, memdesc):
        raise VerifyException(what)


def _register_layout(tensor: Attribute) -> LinearLayout | None:
    """``tensor``'s distributed layout as a linear layout; None when it has none or the
    layout check (which reports it) rejects it."""
    assert isinstance(tensor, TensorType)
    attr = tensor.encoding
    if not isinstance(attr, DistributedLayoutAttr):
        return None
    try:
        return attr.to_linear_layout(tuple(tensor.get_shape()))
    except (EncodingError, LayoutError, ValueError):
        return None


def _n_sharded_across_threads(tensor: Attribute) -> bool:
    """Whether some lane or warp of ``tensor``'s register layout holds other columns
    (dim 1) than its neighbours: a reducing load reduces each thread's own registers,
    so every column of a row must sit in one thread."""
    ll = _register_layout(tensor)
    return ll is not None and any(
        ll.basis(dim, i, "dim1") != 0
        for dim in ("lane", "warp")
        if dim in ll.in_dims
        for i in range(ll.in_dim_size_log2(dim))
    )


def _several_rows_per_thread(tensor: Attribute) -> bool:
    """Whether some thread of ``tensor``'s register layout holds elements of more than one
    row (dim 0): a reducing load yields one value per row and thread."""
    ll = _register_layout(tensor)
    return ll is not None and "register" in ll.in_dims and any(
        ll.basis("register", i, "dim0") != 0 for i in range(ll.in_dim_size_log2("register"))
    )


class TMEMAllocEffect(MemoryEffect):
    """Triton: an immutable allocation without an assigned offset has no effect (so
    CSE/DCE may touch it); otherwise it allocates, and writes when initialised."""

    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance]:
        assert isinstance(op, TMEMAllocOp)
        result = op.result.type
        assert isinstance(result, MemDescType)
        if not result.is_mutable and "tensor_memory_col_offset" not in op.attributes:
            return frozenset()
        effects = {EffectInstance(MemoryEffectKind.ALLOC, op.result)}
        if op.src is not None:
            effects.add(EffectInstance(MemoryEffectKind.WRITE, op.result))
        return frozenset(effects)


@irdl_op_definition
class TMEMAllocOp(TTNGOp):
    """Allocate a tensor-memory buffer, optionally initialised from a tensor.

    ``%r = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>``
    ``%r, %tok = ttng.tmem_alloc %x : (tensor<...>) -> (!ttg.memdesc<...>, !ttg.async.token)``
    """

    name = "ttng.tmem_alloc"

    src = opt_operand_def(TensorType)
    result = result_def(MemDescType)
    token = opt_result_def(AsyncTokenType)

    traits = traits_def(TMEMAllocEffect())

    @classmethod
    def parse(cls, parser: Parser) -> TMEMAllocOp:
        src = parser.parse_optional_unresolved_operand()
        props, attrs = cls.parse_dict(parser)
        parser.parse_punctuation(":")
        pos = parser.pos
        fn = parser.parse_function_type()
        inputs, outputs = fn.inputs.data, fn.outputs.data
        if len(inputs) != (src is not None) or not 1 <= len(outputs) <= 2:
            parser.raise_error(
                "expected (source type?) -> (memdesc type[, !ttg.async.token])", pos, parser.pos
            )
        operands = [] if src is None else [parser.resolve_operand(src, inputs[0])]
        return cls.create(operands=operands, result_types=list(outputs), properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.src is not None:
            printer.print_string(" ")
            printer.print_operand(self.src)
        self.print_dict(printer)
        printer.print_string(" : ")
        printer.print_attribute(FunctionType.from_lists([o.type for o in self.operands], [r.type for r in self.results]))

    def verify_(self) -> None:
        require_tcgen05(self)
        result = self.result.type
        assert isinstance(result, MemDescType)
        if not is_tmem_encoding(result.encoding):
            raise VerifyException("should use tensor memory encoding")
        if self.src is None:
            if not result.is_mutable:
                raise VerifyException("uninitialized alloc must have a mutable memdesc type")
            return
        _verify_register_operand(self.src.type, "source")
        _verify_tmem_register_layout(self, self.src.type, result, "source")
        verify_same_shape_and_element(self.src.type, result)


@irdl_op_definition
class TMEMLoadOp(TTNGOp):
    """Load a tensor-memory buffer into registers, optionally reducing along N.

    ``%r = ttng.tmem_load %buf[%tok] : !ttg.memdesc<128x128xf32, ...> -> tensor<128x128xf32, #blocked>``
    ``%r, %red = ttng.tmem_load %buf {redOp = #ttng.redOp<max>} : ... -> tensor<128x128xf32, #b>, tensor<128xf32, #s>``
    """

    name = "ttng.tmem_load"

    src = operand_def(MemDescType)
    dep = opt_operand_def(AsyncTokenType)
    result = result_def(TensorType)
    token = opt_result_def(AsyncTokenType)
    red = opt_result_def(TensorType)
    redOp = opt_prop_def(TMEMLoadReduceModifierAttr)
    abs = opt_prop_def(BoolAttr)
    NaN = opt_prop_def(BoolAttr)

    irdl_options = (AttrSizedResultSegments(as_property=True),)
    traits = traits_def(MemoryReadEffect())

    PROPERTIES: ClassVar[tuple[str, ...]] = ("redOp", "abs", "NaN")

    @classmethod
    def parse(cls, parser: Parser) -> TMEMLoadOp:
        src = parser.parse_unresolved_operand()
        dep, produces = parse_token(parser)
        props, attrs = cls.parse_dict(parser)
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        red_type = parser.parse_type() if parser.parse_optional_punctuation(",") is not None else None
        operands = [parser.resolve_operand(src, src_type)]
        if dep is not None:
            operands.append(parser.resolve_operand(dep, AsyncTokenType()))
        results: list[Sequence[Attribute]] = [[result_type], [AsyncTokenType()] if produces else [], [red_type] if red_type else []]
        op = cls.build(operands=[operands[0], operands[1:]], result_types=results, properties=props, attributes=attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        print_token(printer, self.dep, self.token is not None)
        self.print_dict(printer)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        print_types(printer, [self.result.type, *([self.red.type] if self.red is not None else [])])

    def verify_(self) -> None:
        require_tcgen05(self)
        src = self.src.type
        assert isinstance(src, MemDescType)
        if not is_tensor_memory(src):
            raise VerifyException("source must be a tensor memory buffer.")
        if not isinstance(src.encoding, TensorMemoryEncodingAttr):
            raise VerifyException("should use tensor memory encoding.")
        _verify_register_operand(self.result.type, "result")
        _verify_tmem_register_layout(self, self.result.type, src, "result")
        has_red_op, has_red = self.redOp is not None, self.red is not None
        if has_red_op and not has_red:
            raise VerifyException("redOp is set but 'red' result is not present")
        if has_red and not has_red_op:
            raise VerifyException("'red' result is present but redOp is not set")
        use_abs = self.abs is not None and bool(self.abs.value.data)
        use_nan = self.NaN is not None and bool(self.NaN.value.data)
        if use_abs and not has_red_op:
            raise VerifyException("'abs' requires 'redOp' to be set")
        if use_nan and not has_red_op:
            raise VerifyException("'NaN' requires 'redOp' to be set")
        is_f32 = isinstance(src.element_type, Float32Type)
        if use_abs and not is_f32:
            raise VerifyException("'abs' requires floating-point element type (f32)")
        if use_nan and not is_f32:
            raise VerifyException("'NaN' requires floating-point element type (f32)")
        if has_red_op and _n_sharded_across_threads(self.result.type):
            raise VerifyException("tmem_load reduction with N dimension sharded across threads is not supported.")
        if has_red_op and _several_rows_per_thread(self.result.type):
            raise VerifyException("tmem_load reduction with multiple M rows per thread is not supported.")
        verify_same_shape_and_element(src, self.result.type)


@irdl_op_definition
class TMEMStoreOp(TTNGOp):
    """Store registers into a mutable tensor-memory buffer, if ``pred``.

    ``[%tok2 =] ttng.tmem_store %x, %buf[[%tok]], %pred : tensor<128x128xf32, #b> -> !ttg.memdesc<...>``
    """

    name = "ttng.tmem_store"

    dst = operand_def(MemDescType)
    dep = opt_operand_def(AsyncTokenType)
    src = operand_def(TensorType)
    pred = operand_def(i1)
    token = opt_result_def(AsyncTokenType)

    @classmethod
    def parse(cls, parser: Parser) -> TMEMStoreOp:
        src = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        dst = parser.parse_unresolved_operand()
        dep, produces = parse_token(parser)
        parser.parse_punctuation(",")
        pred = parser.parse_unresolved_operand()
        props, attrs = cls.parse_dict(parser)
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("->")
        dst_type = parser.parse_type()
        return cls.build(
            operands=[
                parser.resolve_operand(dst, dst_type),
                [parser.resolve_operand(dep, AsyncTokenType())] if dep is not None else [],
                parser.resolve_operand(src, src_type),
                parser.resolve_operand(pred, i1),
            ],
            result_types=[[AsyncTokenType()] if produces else []],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.src, self.dst], printer.print_operand)
        print_token(printer, self.dep, self.token is not None)
        printer.print_string(", ")
        printer.print_operand(self.pred)
        self.print_dict(printer)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.dst.type)

    def verify_(self) -> None:
        require_tcgen05(self)
        dst = self.dst.type
        assert isinstance(dst, MemDescType)
        if not is_tmem_encoding(dst.encoding):
            raise VerifyException("should use tensor memory encoding.")
        if not dst.is_mutable:
            raise VerifyException("Cannot store into an immutable alloc")
        _verify_register_operand(self.src.type, "source")
        _verify_tmem_register_layout(self, self.src.type, dst, "source")
        verify_same_shape_and_element(self.src.type, dst)


@irdl_op_definition
class TMEMSubSliceOp(TTNGOp):
    """A view of a tensor-memory buffer from ``offset`` along ``dim`` (default 1, N).

    ``%s = ttng.tmem_subslice %buf {offset = 64 : i32} : !ttg.memdesc<128x128xf32, #tmem,
    #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable, 128x128>``
    """

    name = "ttng.tmem_subslice"

    src = operand_def(MemDescType)
    result = result_def(MemDescType)
    offset = opt_prop_def(IntegerAttr[IntegerType])  # required; checked in verify_ as Triton does
    dim = prop_def(IntegerAttr[IntegerType], default_value=i32_attr(1))

    traits = traits_def(Pure())

    PROPERTIES: ClassVar[tuple[str, ...]] = ("offset", "dim")
    DEFAULTS: ClassVar[Mapping[str, Attribute]] = {"dim": i32_attr(1)}

    @classmethod
    def parse(cls, parser: Parser) -> TMEMSubSliceOp:
        src = parser.parse_unresolved_operand()
        props, attrs = cls.parse_dict(parser)
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(src, src_type)], result_types=[result_type], properties=props, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        self.print_dict(printer)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if self.offset is None:
            raise VerifyException("requires attribute 'offset'")
        require_tcgen05(self)
        src, dst = self.src.type, self.result.type
        assert isinstance(src, MemDescType) and isinstance(dst, MemDescType)
        if not is_tensor_memory(src):
            raise VerifyException("The source must be a tensor memory buffer.")
        if not is_tensor_memory(dst):
            raise VerifyException("The destination must be a tensor memory buffer.")
        if src.element_type != dst.element_type:
            raise VerifyException("The source and result must have the same element type.")
        if src.encoding != dst.encoding:
            raise VerifyException("The source and result must have the same encoding.")
        if src.get_alloc_shape() != dst.get_alloc_shape():
            raise VerifyException("The source and result must have the same alloc shape.")
        s_shape, d_shape = src.get_shape(), dst.get_shape()
        rank = len(s_shape)
        if len(d_shape) != rank or rank not in (2, 3):
            raise VerifyException("The source and result must both be 2D or 3D tensor memory buffers.")
        dim = int_value(self.dim)
        offset = int_value(self.offset)
        assert dim is not None and offset is not None
        if not 0 <= dim < rank:
            raise VerifyException("The slice dimension must be within the descriptor rank.")
        if any(d_shape[a] != s_shape[a] for a in range(rank) if a != dim):
            raise VerifyException(
                "The result must have the same size as the source in the dimensions that are not being sliced."
            )
        if offset < 0 or offset + d_shape[dim] > s_shape[dim]:
            raise VerifyException("The split offset may not exceed the source shape")


@irdl_op_definition
class TMEMCopyOp(TTNGOp):
    """Start an async copy from shared memory to tensor memory (``tcgen05.cp``).

    ``ttng.tmem_copy %src, %dst : !ttg.memdesc<128x4xi8, #shared, #smem>, !ttg.memdesc<128x4xi8,
    #tmem_scales, #ttng.tensor_memory, mutable>``
    """

    name = "ttng.tmem_copy"

    src = operand_def(MemDescType)
    dst = operand_def(MemDescType)

    @classmethod
    def parse(cls, parser: Parser) -> TMEMCopyOp:
        src = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        dst = parser.parse_unresolved_operand()
        props, attrs = cls.parse_dict(parser)
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation(",")
        dst_type = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(src, src_type), parser.resolve_operand(dst, dst_type)],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.src, self.dst], printer.print_operand)
        self.print_dict(printer)
        printer.print_string(" : ")
        print_types(printer, [self.src.type, self.dst.type])

    def verify_(self) -> None:
        require_tcgen05(self)
        src, dst = self.src.type, self.dst.type
        assert isinstance(src, MemDescType) and isinstance(dst, MemDescType)
        if not isinstance(src.memory_space, SharedMemorySpaceAttr):
            raise VerifyException("The source must be a shared memory buffer")
        if src.get_shape() != dst.get_shape():
            raise VerifyException(
                f"source shape {', '.join(map(str, src.get_shape()))} must match destination shape "
                f"{', '.join(map(str, dst.get_shape()))}"
            )
        if not dst.is_mutable:
            raise VerifyException("Cannot copy into an immutable alloc")
        nvmma = src.encoding.encoding if isinstance(src.encoding, LayoutAttr) else None
        nvmma = nvmma if isinstance(nvmma, NVMMASharedEncoding) else None
        if nvmma is not None and (nvmma.transposed or nvmma.fp4_padded):
            raise VerifyException("The source should not be transposed or padded")
        if isinstance(dst.encoding, TensorMemoryScalesEncodingAttr):
            if nvmma is not None and nvmma.swizzling_byte_width != 0:
                raise VerifyException("The source should not be swizzled for now")
            _verify_copy_source_fits(src)
            return
        if not isinstance(dst.encoding, TensorMemoryEncodingAttr):
            raise VerifyException("Incorrect tmem layout.")
        if dst.encoding.blockM.data != 128:
            raise VerifyException("Tmem layout must have blockM=128.")
        if nvmma is not None and nvmma.swizzling_byte_width == 0:
            raise VerifyException("Source layout should be swizzled.")
        elem = src.element_type
        width = elem.width.data if isinstance(elem, IntegerType) else getattr(elem, "bitwidth", None)
        if width != 32:
            raise VerifyException("Source element type should be 32-bit.")
        _verify_copy_source_fits(src)
        verify_swizzle_tile("source", src)


def _verify_copy_source_fits(src: MemDescType) -> None:
    """Triton's ``tmem_copy`` verifier builds the source's shared layout (for tensor
    memory and for scales alike), whose 32-bit offset dim wraps on 2**31 elements or more:
    it aborts ("Invalid basis ... for out-dim 'offset'"), ltc says so."""
    elements = prod(src.get_shape())
    if elements >= 1 << 31:
        raise VerifyException(
            f"a source of {elements} elements does not fit a shared-memory layout (offsets are below 2**31)"
        )


class TMEMWaitKind(StrEnum):
    """What ``ttng.tmem_wait`` waits for: the thread's tensor-memory loads or stores."""

    LOAD = "load"
    STORE = "store"


@irdl_op_definition
class TMEMWaitOp(TTNGOp):
    """Wait for the thread's outstanding tensor-memory loads or stores (``tcgen05.wait``).

    ``ttng.tmem_wait load`` / ``ttng.tmem_wait store``
    """

    name = "ttng.tmem_wait"

    kind = prop_def(IntegerAttr[IntegerType])

    PROPERTIES: ClassVar[tuple[str, ...]] = ("kind",)
    KINDS: ClassVar[tuple[str, ...]] = tuple(k.value for k in TMEMWaitKind)

    def __init__(self, kind: TMEMWaitKind | str):
        super().__init__(properties={"kind": i32_attr(self.KINDS.index(TMEMWaitKind(kind).value))})

    @classmethod
    def parse(cls, parser: Parser) -> TMEMWaitOp:
        pos = parser.pos
        word = parser.parse_optional_identifier()
        if word not in cls.KINDS:
            parser.raise_error(
                "expected string or keyword containing one of the following enum values for attribute 'kind' "
                f"[{', '.join(cls.KINDS)}]",
                pos,
            )
        props, attrs = cls.parse_dict(parser)
        return cls.create(properties={**props, "kind": i32_attr(cls.KINDS.index(word))}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.KINDS[int_value(self.kind) or 0]}")
        self.print_dict(printer, reserved=("kind",))

    def verify_(self) -> None:
        require_tcgen05(self)
        if not 0 <= (int_value(self.kind) or 0) < len(self.KINDS):
            raise VerifyException(f"kind must be one of [{', '.join(self.KINDS)}]")
