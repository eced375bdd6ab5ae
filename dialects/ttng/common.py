"""Helpers the ``ttng`` op modules share: hand-written syntax pieces, the module
facts verifiers consult (CTAs, target), and Triton's barrier and tensor-memory checks.

Hand-written ops print their ``{...}`` sorted by name, as MLIR does
(``ltc.dialects.attr_dict``); properties equal to their default are not printed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from ltc.dialects.attr_dict import parse_attr_dict_into, print_sorted_attr_dict
from ltc.dialects.ttg import MemDescType, attr_text
from ltc.dialects.ttg_attrs import LayoutAttr
from ltc.dialects.ttng.attrs import (
    TensorMemoryEncodingAttr,
    TensorMemoryScalesEncodingAttr,
    TensorMemorySpaceAttr,
)
from ltc.dialects.verifier import layout_context
from ltc.encodings.shared import SwizzledSharedEncoding
from xdsl.dialects.builtin import IntegerAttr, IntegerType, StringAttr, TensorType, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

__all__ = [
    "TTNGOp",
    "i32_attr",
    "int_value",
    "is_tensor_memory",
    "num_ctas",
    "parse_operands",
    "parse_types",
    "print_operands",
    "print_types",
    "require_tcgen05",
    "verify_barrier_type",
    "verify_same_shape_and_element",
]


def i32_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, i32)


def int_value(attr: Attribute | None) -> int | None:
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def parse_operands(parser: Parser) -> list[UnresolvedOperand]:
    """``%a, %b, ...`` (possibly none)."""
    first = parser.parse_optional_unresolved_operand()
    if first is None:
        return []
    operands = [first]
    while parser.parse_optional_punctuation(",") is not None:
        operands.append(parser.parse_unresolved_operand())
    return operands


def parse_types(parser: Parser) -> list[Attribute]:
    """``T1, T2, ...`` (at least one)."""
    return parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)


def print_operands(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_list(values, printer.print_operand)


def print_types(printer: Printer, types: Sequence[Attribute]) -> None:
    printer.print_list(types, printer.print_attribute)


class TTNGOp(IRDLOperation):
    """Shared attr-dict handling: ``PROPERTIES`` are the names that live in properties,
    ``DEFAULTS`` their default values (filled in when absent, not printed)."""

    PROPERTIES: ClassVar[tuple[str, ...]] = ()
    DEFAULTS: ClassVar[Mapping[str, Attribute]] = {}

    @classmethod
    def parse_dict(cls, parser: Parser) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
        """The optional ``{...}``, split into (properties with defaults filled, attributes)."""
        props, attrs = parse_attr_dict_into(parser, cls.PROPERTIES)
        return {**cls.DEFAULTS, **props}, attrs

    def print_dict(self, printer: Printer, reserved: Sequence[str] = ()) -> None:
        print_sorted_attr_dict(printer, self, defaults=self.DEFAULTS, reserved=("operandSegmentSizes", "resultSegmentSizes", *reserved))


def num_ctas(op: Operation) -> int:
    """``ttg.num-ctas`` of the enclosing module (1 when unspecified)."""
    return layout_context(op).num_ctas


def _target(op: Operation) -> str | None:
    cur: Operation | None = op
    while cur is not None:
        attr = cur.attributes.get("ttg.target")
        if isinstance(attr, StringAttr):
            return attr.data
        cur = cur.parent_op()
    return None


def require_tcgen05(op: Operation) -> None:
    """Triton rejects tensor-memory ops in a module whose ``ttg.target`` has no tcgen05
    (anything but ``cuda:100`` to ``cuda:119``); a module without a target passes."""
    target = _target(op)
    if target is None:
        return
    arch, _, cap = target.partition(":")
    if arch == "cuda" and cap.isdigit() and 100 <= int(cap) < 120:
        return
    raise VerifyException("requires tcgen05 support")


def verify_barrier_type(op: Operation, barrier: Attribute) -> None:
    """An mbarrier is ``Nxi64`` with N at most the number of CTAs."""
    assert isinstance(barrier, MemDescType)
    shape = barrier.get_shape()
    elem = barrier.element_type
    if (
        not (isinstance(elem, IntegerType) and elem.width.data == 64)
        or len(shape) != 1
        or shape[0] > num_ctas(op)
    ):
        raise VerifyException("barrier allocation must be a descriptor of Nxi64 type with N <= number of CTAs")
    if not is_contiguous_unswizzled(barrier):
        raise VerifyException("barrier must have a contiguous shared-memory layout without subviews")
    # A barrier shared by several CTAs (zero bases) is addressed by the CTA id with the
    # broadcast bits dropped, so its other bases must be 1, 2, 4, ... in order.
    nonzero = [b[0] for b in cga_bases_of(barrier) if any(b)]
    if nonzero != [1 << i for i in range(len(nonzero))]:
        raise VerifyException(
            "broadcasted cluster barriers require bases to be the sequence 1, 2, 4, 8, ... "
            "perhaps with zero bases interleaved."
        )


def is_contiguous_unswizzled(memdesc: MemDescType) -> bool:
    """Triton's layout rule for barriers (and CLC buffers): an unswizzled
    ``#ttg.swizzled_shared`` (vec, perPhase and maxPhase all 1) whose allocation ends
    in the view's own shape (leading buffer dims only, no subview within a buffer)."""
    enc = memdesc.encoding
    layout = enc.encoding if isinstance(enc, LayoutAttr) else None
    if not (
        isinstance(layout, SwizzledSharedEncoding) and layout.vec == layout.per_phase == layout.max_phase == 1
    ):
        return False
    shape, alloc = tuple(memdesc.get_shape()), memdesc.get_alloc_shape()
    return len(alloc) >= len(shape) and alloc[len(alloc) - len(shape) :] == shape


def cga_bases_of(memdesc: Attribute) -> tuple[tuple[int, ...], ...]:
    """The CTA bases of a memdesc's layout (``()`` for one CTA or a layout without any)."""
    assert isinstance(memdesc, MemDescType)
    enc = memdesc.encoding
    if isinstance(enc, LayoutAttr):
        cga = getattr(enc.encoding, "cga", None)
        return tuple(tuple(b) for b in cga.block_bases) if cga is not None else ()
    if isinstance(enc, (TensorMemoryEncodingAttr, TensorMemoryScalesEncodingAttr)):
        return tuple(tuple(v.data for v in b.data) for b in enc.CGALayout.data)
    return ()


def bases_text(bases: Sequence[Sequence[int]]) -> str:
    """``[[1], [2]]``, as Triton prints a CGA layout in messages."""
    return "[" + ", ".join("[" + ", ".join(map(str, b)) + "]" for b in bases) + "]"


def one_cta_per_bit(n_ctas: int) -> tuple[tuple[int, ...], ...]:
    """The canonical 1-D CGA layout of ``n_ctas`` CTAs: ``[[1], [2], [4], ...]``."""
    return tuple((1 << i,) for i in range(max(n_ctas, 1).bit_length() - 1))


def verify_completion_barrier(op: Operation, barrier: Attribute) -> None:
    """A completion barrier has one element per CTA, in CTA order."""
    expected = one_cta_per_bit(num_ctas(op))
    actual = cga_bases_of(barrier)
    if actual != expected:
        raise VerifyException(
            f"completion barrier cga_layout must be {bases_text(expected)}, got {bases_text(actual)}"
        )


def is_tensor_memory(attr: Attribute) -> bool:
    return isinstance(attr, MemDescType) and isinstance(attr.memory_space, TensorMemorySpaceAttr)


def is_tmem_encoding(attr: Attribute) -> bool:
    return isinstance(attr, (TensorMemoryEncodingAttr, TensorMemoryScalesEncodingAttr))


def verify_same_shape_and_element(src: Attribute, dst: Attribute) -> None:
    """Triton's ``verifyMemoryOpTypes``: a tensor and a memdesc (either way round)
    agree in shape and element type."""
    assert isinstance(src, (TensorType, MemDescType)) and isinstance(dst, (TensorType, MemDescType))
    src_shape, dst_shape = tuple(src.get_shape()), tuple(dst.get_shape())
    if src_shape != dst_shape:
        raise VerifyException(
            f"source shape [{', '.join(map(str, src_shape))}] must match "
            f"[destination shape {', '.join(map(str, dst_shape))}]"
        )
    if src.element_type != dst.element_type:
        raise VerifyException(
            f"source element type '{attr_text(src)}' must match "
            f"destination element type '{attr_text(dst.element_type)}'"
        )
