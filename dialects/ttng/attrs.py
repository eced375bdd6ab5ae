"""The ``ttng`` attributes: tensor memory, its encodings and the enum attributes.

* ``#ttng.tensor_memory``: the memory space of a memdesc in Blackwell tensor memory.
* ``#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1[,
  CGALayout = [[1, 0]]][, twoCTAs = true][, fp4Padded = true]>``: how a tensor lies
  in tensor memory, in blocks of ``blockM x blockN`` with ``colStride`` columns per
  element (1 = packed). ``CGALayout`` (the CTA bases, one ``[row, col]`` pair per bit
  of the CTA id) defaults to a single CTA; defaults are not printed.
* ``#ttng.tensor_memory_scales_encoding<[CGALayout = ...][, blockRepOrder = kThenMn]>``:
  the block-scale layout of scaled MMAs (``mnThenK`` is the default).
* ``#ttng.redOp<min|max>``: the reduction of ``ttng.tmem_load``.
* ``ScaleDotElemTypeAttr``: the operand formats of ``ttng.tc_gen5_mma_scaled``
  (``lhs = e2m1``), printed as bare keywords.

The struct-like encodings accept their keys in any order (as MLIR's ``struct(params)``
does) and print them in declaration order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, BoolAttr, IntAttr, IntegerAttr, IntegerType, StringAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from ltc.dialects.tt.attrs import ScaleDotElemType  # the same enum as tt.dot_scaled's
from ltc.encodings import EncodingError
from ltc.encodings.base import CGALayout

__all__ = [
    "CGABases",
    "ScaleDotElemType",
    "ScaleDotElemTypeAttr",
    "TMEMLoadReduceModifier",
    "TMEMLoadReduceModifierAttr",
    "TensorMemoryEncodingAttr",
    "TensorMemoryScalesBlockRepOrder",
    "TensorMemoryScalesEncodingAttr",
    "TensorMemorySpaceAttr",
]

CGABases = ArrayAttr[ArrayAttr[IntAttr]]
"""A CGA layout: one ``[row, col]`` basis per bit of the CTA id (empty: one CTA)."""


@irdl_attr_definition
class TensorMemorySpaceAttr(ParametrizedAttribute):
    """Blackwell's tensor memory, as a memdesc memory space: ``#ttng.tensor_memory``."""

    name = "ttng.tensor_memory"


def cga_bases(bases: Sequence[Sequence[int]]) -> CGABases:
    """``[[1, 0], ...]`` as an attribute."""
    return ArrayAttr(ArrayAttr(IntAttr(v) for v in basis) for basis in bases)


def cga_bases_text(bases: CGABases) -> str:
    """``[[1, 0], [2, 0]]``: the bases as Triton writes them."""
    return "[" + ", ".join("[" + ", ".join(str(v.data) for v in b.data) + "]" for b in bases.data) + "]"


def _parse_cga_bases(parser: AttrParser) -> CGABases:
    def basis() -> list[int]:
        return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)

    return cga_bases(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, basis))


def _parse_struct(
    parser: AttrParser, attr_name: str, fields: dict[str, Callable[[], Attribute]], required: Sequence[str]
) -> dict[str, Attribute]:
    """``<key = value, ...>`` with the keys of ``fields`` in any order (possibly empty)."""
    values: dict[str, Attribute] = {}
    with parser.in_angle_brackets():
        first = True
        while True:
            if first:
                pos = parser.pos
                key = parser.parse_optional_identifier()
                if key is None:
                    break
            else:
                if parser.parse_optional_punctuation(",") is None:
                    break
                pos = parser.pos
                key = parser.parse_identifier()
            first = False
            if key not in fields:
                parser.raise_error(
                    f"#{attr_name}: expected one of the parameters {', '.join(fields)}, got '{key}'", pos, parser.pos
                )
            if key in values:
                parser.raise_error(f"#{attr_name}: duplicate parameter '{key}'", pos, parser.pos)
            parser.parse_punctuation("=")
            values[key] = fields[key]()
    missing = [k for k in required if k not in values]
    if missing:
        parser.raise_error(f"#{attr_name}: missing the parameter '{missing[0]}'")
    return values


def _parse_bool(parser: AttrParser) -> BoolAttr:
    value = parser.parse_boolean()
    return IntegerAttr.from_bool(value)


@irdl_attr_definition
class TensorMemoryEncodingAttr(ParametrizedAttribute):
    """``#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, ...>``."""

    name = "ttng.tensor_memory_encoding"

    blockM: IntAttr
    blockN: IntAttr
    colStride: IntAttr
    CGALayout: CGABases
    twoCTAs: BoolAttr
    fp4Padded: BoolAttr

    def __init__(
        self,
        block_m: int,
        block_n: int,
        col_stride: int,
        cga_layout: Sequence[Sequence[int]] = (),
        two_ctas: bool = False,
        fp4_padded: bool = False,
    ):
        super().__init__(
            IntAttr(block_m),
            IntAttr(block_n),
            IntAttr(col_stride),
            cga_bases(cga_layout),
            IntegerAttr.from_bool(two_ctas),
            IntegerAttr.from_bool(fp4_padded),
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        def unsigned() -> IntAttr:
            return IntAttr(parser.parse_integer(allow_boolean=False, allow_negative=False))

        v = _parse_struct(
            parser,
            cls.name,
            {
                "blockM": unsigned,
                "blockN": unsigned,
                "colStride": unsigned,
                "CGALayout": lambda: _parse_cga_bases(parser),
                "twoCTAs": lambda: _parse_bool(parser),
                "fp4Padded": lambda: _parse_bool(parser),
            },
            ("blockM", "blockN", "colStride"),
        )
        return [
            v["blockM"],
            v["blockN"],
            v["colStride"],
            v.get("CGALayout", cga_bases(())),
            v.get("twoCTAs", IntegerAttr.from_bool(False)),
            v.get("fp4Padded", IntegerAttr.from_bool(False)),
        ]

    def print_parameters(self, printer: Printer) -> None:
        parts = [f"blockM = {self.blockM.data}", f"blockN = {self.blockN.data}", f"colStride = {self.colStride.data}"]
        if self.CGALayout.data:
            parts.append(f"CGALayout = {cga_bases_text(self.CGALayout)}")
        if self.two_ctas:
            parts.append("twoCTAs = true")
        if self.fp4_padded:
            parts.append("fp4Padded = true")
        printer.print_string("<" + ", ".join(parts) + ">")

    @property
    def cga_block_bases(self) -> tuple[tuple[int, ...], ...]:
        """The CTA bases, one ``(row, col)`` per bit of the CTA id."""
        return tuple(tuple(v.data for v in b.data) for b in self.CGALayout.data)

    @property
    def two_ctas(self) -> bool:
        return bool(self.twoCTAs.value.data)

    @property
    def fp4_padded(self) -> bool:
        return bool(self.fp4Padded.value.data)

    def verify(self) -> None:
        if any(len(b.data) != 2 for b in self.CGALayout.data):
            raise VerifyException("#ttng.tensor_memory_encoding: every CGALayout basis must have 2 entries")
        _verify_cga(self.cga_block_bases)
        block_m, block_n, col_stride = self.blockM.data, self.blockN.data, self.colStride.data
        if block_m not in (64, 128):
            raise VerifyException(f"blockM must be 64 or 128 but got {block_m}")
        if block_n <= 0 or block_n & (block_n - 1):
            raise VerifyException(f"blockN must be a power of 2 but got {block_n}")
        if block_n > 512:
            raise VerifyException(f"blockN must be less than or equal to 512 but got {block_n}")
        if col_stride not in (1, 2, 4):
            # Triton's message says "but got" twice.
            raise VerifyException(f"colStride must be 1, 2, or 4 but got but got {col_stride}")

    def cta_split(self) -> tuple[int, int]:
        """How many CTA tiles the CGA layout cuts the tensor into along M and N."""
        ll = CGALayout(self.cga_block_bases).linear_layout(2)
        return ll.out_dim_size("dim0"), ll.out_dim_size("dim1")

    def verify_memdesc(self, memdesc: Attribute) -> None:
        """Triton's rules for a memdesc in this encoding (its type verifier)."""
        shape, alloc_shape = memdesc.get_shape(), memdesc.get_alloc_shape()  # type: ignore[attr-defined]
        if not isinstance(memdesc.memory_space, TensorMemorySpaceAttr):  # type: ignore[attr-defined]
            raise VerifyException("memorySpace must be TensorMemorySpace")
        if len(shape) not in (2, 3):
            raise VerifyException("rank must be 2 or 3")
        if not all(_is_pow2(d) for d in shape[-2:]):
            raise VerifyException(f"shape must have power-of-2 and non-zero dimensions; got {_dims(shape)}")
        if not all(_is_pow2(d) for d in alloc_shape[-2:]):
            raise VerifyException(f"alloc shape must have power-of-2 and non-zero dimensions; got {_dims(alloc_shape)}")
        bitwidth = _bit_width(memdesc.element_type)  # type: ignore[attr-defined]
        if bitwidth is not None and bitwidth != 1 and bitwidth < 8:
            raise VerifyException(f"element type bit width must be 1 or at least 8; got {bitwidth}")
        if bitwidth is not None and bitwidth * self.colStride.data > 32:
            raise VerifyException(
                f"bitwidth * colStride must be less than or equal to 32. Got {bitwidth} and {self.colStride.data}"
            )
        for dim, size in [*enumerate(shape[-2:], len(shape) - 2), *enumerate(alloc_shape[-2:], len(alloc_shape) - 2)]:
            if size >= 1 << 31:
                # Triton's 32-bit layout arithmetic wraps: it aborts building the layout
                raise VerifyException(f"Dimension {dim} of size {size} does not fit a layout (sizes must be below 2**31)")
        split_m, split_n = self.cta_split()
        block_n = min(self.blockN.data, shape[-1])
        if shape[-2] < self.blockM.data * split_m or shape[-1] < block_n * split_n:
            raise VerifyException(
                f"the tensor shape must be at least {self.blockM.data * split_m}x{block_n * split_n}. "
                f"Got {_dims(shape)}"
            )


def _verify_cga(bases: Sequence[Sequence[int]]) -> None:
    try:
        CGALayout(tuple(tuple(b) for b in bases)).check_rank(2)
    except EncodingError:
        raise VerifyException("After removing broadcast bases the CGA encoding must be a permutation matrix") from None


def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _dims(shape: Sequence[int]) -> str:
    return ", ".join(map(str, shape))


def _bit_width(elem: Attribute) -> int | None:
    """The storage width of a scalar element type (None if it has none)."""
    if isinstance(elem, IntegerType):
        return elem.width.data
    width = getattr(elem, "bitwidth", None)
    return width if isinstance(width, int) else None


element_bit_width = _bit_width


class TensorMemoryScalesBlockRepOrder(StrEnum):
    """The order of the repeated 32x4x4B scale blocks along tensor-memory columns."""

    MN_THEN_K = "mnThenK"
    K_THEN_MN = "kThenMn"


@irdl_attr_definition
class TensorMemoryScalesEncodingAttr(ParametrizedAttribute):
    """``#ttng.tensor_memory_scales_encoding<>`` (optional ``CGALayout``, ``blockRepOrder``)."""

    name = "ttng.tensor_memory_scales_encoding"

    CGALayout: CGABases
    blockRepOrder: StringAttr

    DEFAULT_ORDER: ClassVar[str] = TensorMemoryScalesBlockRepOrder.MN_THEN_K.value

    def __init__(self, cga_layout: Sequence[Sequence[int]] = (), block_rep_order: str = "mnThenK"):
        super().__init__(cga_bases(cga_layout), StringAttr(block_rep_order))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        orders = [o.value for o in TensorMemoryScalesBlockRepOrder]

        def order() -> StringAttr:
            pos = parser.pos
            word = parser.parse_identifier()
            if word not in orders:
                parser.raise_error(f"expected one of [{', '.join(orders)}] for blockRepOrder, got '{word}'", pos)
            return StringAttr(word)

        v = _parse_struct(
            parser, cls.name, {"CGALayout": lambda: _parse_cga_bases(parser), "blockRepOrder": order}, ()
        )
        return [v.get("CGALayout", cga_bases(())), v.get("blockRepOrder", StringAttr(cls.DEFAULT_ORDER))]

    def print_parameters(self, printer: Printer) -> None:
        parts = []
        if self.CGALayout.data:
            parts.append(f"CGALayout = {cga_bases_text(self.CGALayout)}")
        if self.blockRepOrder.data != self.DEFAULT_ORDER:
            parts.append(f"blockRepOrder = {self.blockRepOrder.data}")
        printer.print_string("<" + ", ".join(parts) + ">")

    @property
    def cga_block_bases(self) -> tuple[tuple[int, ...], ...]:
        """The CTA bases, one ``(row, col)`` per bit of the CTA id."""
        return tuple(tuple(v.data for v in b.data) for b in self.CGALayout.data)

    def verify(self) -> None:
        if self.blockRepOrder.data not in [o.value for o in TensorMemoryScalesBlockRepOrder]:
            raise VerifyException(f"invalid blockRepOrder '{self.blockRepOrder.data}'")
        if any(len(b.data) != 2 for b in self.CGALayout.data):
            raise VerifyException("#ttng.tensor_memory_scales_encoding: every CGALayout basis must have 2 entries")
        _verify_cga(self.cga_block_bases)

    def verify_memdesc(self, memdesc: Attribute) -> None:
        """Triton's rules for a memdesc in this encoding (its type verifier)."""
        if not isinstance(memdesc.memory_space, TensorMemorySpaceAttr):  # type: ignore[attr-defined]
            raise VerifyException("memorySpace must be TensorMemorySpace")
        shape = memdesc.get_shape()  # type: ignore[attr-defined]
        if len(shape) != 2:
            raise VerifyException(f"tensor-memory scale descriptors must have rank 2; got {len(shape)}")
        if not all(_is_pow2(d) for d in shape):
            raise VerifyException(f"shape must have power-of-2 and non-zero dimensions; got {_dims(shape)}")
        if _bit_width(memdesc.element_type) != 8:  # type: ignore[attr-defined]
            raise VerifyException("bitwidth must be 8")


class TMEMLoadReduceModifier(StrEnum):
    MIN = "min"
    MAX = "max"


@irdl_attr_definition
class TMEMLoadReduceModifierAttr(EnumAttribute[TMEMLoadReduceModifier]):
    """``#ttng.redOp<max>``: the reduction ``ttng.tmem_load`` applies along N."""

    name = "ttng.redOp"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> TMEMLoadReduceModifier:
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


@irdl_attr_definition
class ScaleDotElemTypeAttr(EnumAttribute[ScaleDotElemType], SpacedOpaqueSyntaxAttribute):
    """An operand format of ``ttng.tc_gen5_mma_scaled``, printed as a bare keyword."""

    name = "ttng.scale_dot_elem_type"
