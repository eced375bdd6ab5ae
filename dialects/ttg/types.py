"""The ``ttg`` types: ``#ttg.shared_memory``, ``!ttg.async.token``, ``!ttg.memdesc``.

``!ttg.memdesc<128x64xf16, #shared, #smem[, mutable][, 2x128x64]>``: shape, element
type, layout, memory space, ``mutable`` when writable, and the allocation's shape
when the memdesc is a view of a larger buffer. ``MemDescType.parse_body`` and
``print_body`` read and write the ``<...>`` alone (``ttg.async_copy_global_to_local``
writes its memdesc that way). Also the text helpers the ops' messages share
(``attr_text``, ``dims_text``) and ``shape_of_shaped``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from io import StringIO

from xdsl.dialects.builtin import AnyFloat, ArrayAttr, BoolAttr, IntAttr, IntegerAttr, IntegerType, TensorType
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.ttg_attrs import DistributedLayoutAttr, LayoutAttr, SharedLayoutAttr
from ltc.encodings.shared import (
    PADDED_NOT_FACTORED,
    NVMMASharedEncoding,
    PaddedSharedEncoding,
    SharedLinearEncoding,
    shape_per_cta,
)

__all__ = [
    "AsyncTokenType",
    "MemDescType",
    "SharedMemorySpaceAttr",
    "attr_text",
    "dims_text",
    "layout_dim_out_of_range",
    "shape_of_shaped",
    "verify_layout_dims_fit",
]


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


def dims_text(dims: Sequence[int]) -> str:
    """A shape as MLIR writes it in a type: ``64x32``."""
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
                printer.print_string(f", {dims_text(self.get_alloc_shape())}")

    def print_parameters(self, printer: Printer) -> None:
        self.print_body(printer)

    def verify(self) -> None:
        shape = self.get_shape()
        alloc_shape = self.get_alloc_shape()
        if not shape:
            raise VerifyException("rank 0 memdesc is not allowed")
        if isinstance(self.encoding, DistributedLayoutAttr):
            raise VerifyException(f"{attr_text(self.encoding)} is not a valid encoding")
        layout_rank = getattr(self.encoding.encoding, "rank", None) if isinstance(self.encoding, LayoutAttr) else None
        if isinstance(layout_rank, int) and layout_rank not in (len(shape), len(shape) - 1):
            # A buffer of N tiles may carry the tile's layout (one rank less).
            raise VerifyException(
                f"rank must be equal to or one less than the shape size. Got {layout_rank} and {len(shape)}"
            )
        _verify_shape_and_element(self, layout_rank if isinstance(layout_rank, int) else None)
        if isinstance(self.encoding, SharedLayoutAttr) and not isinstance(self.memory_space, SharedMemorySpaceAttr):
            raise VerifyException(
                "memorySpace must be SharedMemorySpace for shared encoding. "
                f"Got {attr_text(self.memory_space)}"
            )
        if alloc_shape != shape:
            if len(alloc_shape) < len(shape) or any(
                s > a for s, a in zip(reversed(shape), reversed(alloc_shape))
            ):
                raise VerifyException(
                    "shape must be less than or equal to allocShape. "
                    f"shape = {', '.join(map(str, shape))}, allocShape = {', '.join(map(str, alloc_shape))}"
                )
        if isinstance(self.encoding, LayoutAttr) and isinstance(
            self.encoding.encoding, (PaddedSharedEncoding, SharedLinearEncoding)
        ):
            # These layouts fix their own extent: the allocation's trailing dims must be it.
            own = self.encoding.encoding.shape
            for dim, (want, got) in enumerate(zip(alloc_shape[len(alloc_shape) - len(own) :], own)):
                if want != got:
                    raise VerifyException(f"Mismatch in expected shape for dimension {dim}. Expected: {want}, got: {got}")
            padded = self.encoding.encoding
            if isinstance(padded, PaddedSharedEncoding) and not padded.factors_into_cta_cga():
                # The attribute alone is valid; Triton aborts on such a descriptor.
                raise VerifyException(f"{attr_text(self.encoding)}: {PADDED_NOT_FACTORED}")
        if isinstance(self.encoding, LayoutAttr) and isinstance(self.encoding.encoding, NVMMASharedEncoding):
            _verify_nvmma_dims_wrap(shape, alloc_shape)
            _verify_nvmma_block(self.encoding.encoding, alloc_shape[len(alloc_shape) - len(shape) :])
        # Encodings of other dialects (the ttng tensor-memory ones) state their own rules.
        verify_memdesc = getattr(self.encoding, "verify_memdesc", None)
        if verify_memdesc is not None:
            verify_memdesc(self)


def _verify_shape_and_element(memdesc: MemDescType, layout_rank: int | None) -> None:
    """Triton's shape and element rules for any memdesc: no zero dim; the dims the layout
    covers (not a leading buffer index) powers of 2, in the shape and the allocation; an
    element of 1 or at least 8 bits, whole bytes in shared memory. Triton aborts on an
    element without a bit width (``index``) or, in tensor memory, a pointer."""
    shape, alloc_shape = memdesc.get_shape(), memdesc.get_alloc_shape()
    if 0 in shape or 0 in alloc_shape:
        raise VerifyException("shape has 0 dimension")
    if layout_rank is not None:
        for what, dims in (("shape", shape), ("alloc shape", alloc_shape)):
            if any(d & (d - 1) for d in dims[len(dims) - layout_rank :]):
                raise VerifyException(
                    f"{what} must have power-of-2 and non-zero dimensions; got {', '.join(map(str, dims))}"
                )
    element = memdesc.element_type
    in_tmem = getattr(memdesc.memory_space, "name", None) == "ttng.tensor_memory"
    if isinstance(element, IntegerType):
        width = element.width.data
    elif isinstance(element, AnyFloat):
        width = element.bitwidth
    elif getattr(element, "name", None) == "tt.ptr" and not in_tmem:  # (no import: tt's types import this module)
        return
    else:
        where = "tensor memory" if in_tmem else "a memdesc"
        raise VerifyException(f"the element type of {where} must be an integer or float type, got {attr_text(element)}")
    if width != 1 and width < 8:
        raise VerifyException(f"element type bit width must be 1 or at least 8; got {width}")
    if isinstance(memdesc.memory_space, SharedMemorySpaceAttr) and width % 8:
        raise VerifyException(f"shared-memory element type bit width must be a multiple of 8; got {width}")
    if in_tmem and width < 8:
        raise VerifyException(f"tensor-memory element type bit width must be at least 8; got {width}")


def _verify_nvmma_dims_wrap(shape: Sequence[int], alloc_shape: Sequence[int]) -> None:
    """A ``#ttg.nvmma_shared`` memdesc has no dim (of its shape or its allocation, a
    leading buffer dim too) that is a multiple of 2**32: Triton keeps these sizes in 32
    bits, where such a dim is 0, and aborts dividing by it (SIGFPE) while verifying the
    type. Other multiples (``2**32 + 1`` buffers) and other encodings are fine."""
    for what, dims in (("shape", shape), ("alloc shape", alloc_shape)):
        for dim, size in enumerate(dims):
            if size and size % (1 << 32) == 0:
                raise VerifyException(
                    f"#ttg.nvmma_shared memdesc {what} dimension {dim} of size {size} is out of range: "
                    "a multiple of 2**32 is 0 in 32 bits"
                )


LAYOUT_DIM_LIMIT = 1 << 31


def layout_dim_out_of_range(memdesc: Attribute) -> tuple[int, int] | None:
    """The first dim of a shared memdesc's allocation that its layout lays out (the
    trailing dims of the layout's rank) and that is ``2**31`` or more, as ``(dim, size)``
    with ``dim`` counted in the allocation shape; None when all fit (or the memdesc has
    no shared layout with a rank)."""
    if not isinstance(memdesc, MemDescType) or not isinstance(memdesc.encoding, SharedLayoutAttr):
        return None
    rank = getattr(memdesc.encoding.encoding, "rank", None)
    alloc = memdesc.get_alloc_shape()
    if not isinstance(rank, int):
        return None
    start = max(0, len(alloc) - rank)
    for dim in range(start, len(alloc)):
        if alloc[dim] >= LAYOUT_DIM_LIMIT:
            return dim, alloc[dim]
    return None


def verify_layout_dims_fit(memdesc: Attribute, what: str) -> None:
    """An op that builds the linear layout of a shared buffer (TMA copies, subslices,
    reshapes, reinterprets) needs each dim the layout covers below ``2**31``: Triton
    builds layouts with 32-bit sizes and aborts on a larger one. ``what`` names the
    operand in the message."""
    bad = layout_dim_out_of_range(memdesc)
    if bad is not None:
        dim, size = bad
        raise VerifyException(
            f"{what} dimension {dim} of size {size} is out of range: a shared-memory layout needs sizes below 2**31"
        )


def verify_swizzle_tile(what: str, memdesc: Attribute) -> None:
    """An op that maps a shared buffer with a swizzled ``#ttg.nvmma_shared`` layout (an
    MMAv5 operand, a TMA copy) needs a whole 8-row swizzle tile per CTA in its
    allocation; Triton aborts on less, ltc says so (``what`` names the operand)."""
    if not isinstance(memdesc, MemDescType) or not isinstance(memdesc.encoding, LayoutAttr):
        return
    enc = memdesc.encoding.encoding
    if isinstance(enc, NVMMASharedEncoding):
        problem = enc.swizzle_tile_shortfall(memdesc.get_alloc_shape())
        if problem is not None:
            raise VerifyException(f"{what}: {problem}")


def _verify_nvmma_block(enc: NVMMASharedEncoding, shape: Sequence[int]) -> None:
    """Triton: a swizzled NVMMA layout needs a whole swizzle row along the contiguous
    dim of each CTA's block (the last dim, dim 0 when transposed; an fp4-padded dim
    holds twice its size), as Triton's ``getTMABlockShape`` checks.

    ``shape`` is the allocation's shape (Triton checks the allocation, so a subslice
    narrower than a swizzle row is fine). The block is the allocation's trailing dims
    of the layout's rank divided by the CTAs along each
    (Triton's ``getShapePerCTA``); dims are counted within that rank.
    """
    swizzle = enc.swizzling_byte_width
    if swizzle == 0 or len(shape) < 2:
        return
    rank = enc.rank
    if rank < 2 or rank > len(shape):
        return
    shape = shape_per_cta(shape[len(shape) - rank :], enc.cga)
    dim = 0 if enc.transposed else len(shape) - 1  # Triton's getTMABlockShape: dim 0 when transposed
    needed = swizzle * 8 // enc.element_bit_width
    got = shape[dim] * 2 if enc.fp4_padded else shape[dim]  # fp4 padding: two elements per byte
    if got < needed:
        raise VerifyException(
            f"block shape along the contiguous dimension {dim} is too small for the swizzle byte size "
            f"{swizzle} in an NVMMASharedLayout, got {got} but expected at least {needed}"
        )


def attr_text(attr: Attribute) -> str:
    """``attr`` as Triton writes it in messages (inline, no aliases)."""
    out = StringIO()
    Printer(stream=out).print_attribute(attr)
    return out.getvalue()


def shape_of_shaped(attr: Attribute) -> tuple[int, ...] | None:
    """The shape of a tensor or memdesc type; None for anything else."""
    if isinstance(attr, (TensorType, MemDescType)):
        return tuple(attr.get_shape())
    return None

