"""``ttg`` asynchronous copies and the CTA barrier.

``ttg.async_copy_global_to_local``, ``ttg.async_commit_group``, ``ttg.async_wait``
(all yield a ``!ttg.async.token``) and ``ttg.barrier``. The async copy writes only
the pointer tensor's type and the memdesc without ``!ttg.memdesc`` (``-> <64x64xf16,
#shared, #smem, mutable>``): the mask and ``other`` types follow from the pointers.
``ttg.barrier`` writes its address spaces as ``local|global_write`` (``all`` for
every one).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, IntegerAttr, IntegerType, TensorType, i32
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.attr_dict import parse_attr_dict_into, print_sorted_attr_dict
from ltc.dialects.ods_checks import check_i32_attr
from ltc.dialects.tt import CachePolicyAttr, PtrType
from ltc.dialects.ttg.types import AsyncTokenType, MemDescType

__all__ = [
    "AsyncCommitGroupOp",
    "AsyncCopyGlobalToLocalOp",
    "AsyncWaitOp",
    "BarrierOp",
]


def _memdesc_of(value: SSAValue) -> MemDescType:
    assert isinstance(value.type, MemDescType)
    return value.type


@irdl_op_definition
class AsyncCopyGlobalToLocalOp(IRDLOperation):
    """Start a copy of a tensor of global pointers into a mutable shared buffer (cp.async).

    ``%t = ttg.async_copy_global_to_local %ptrs, %buf mask %m other %o {cachePolicy = #tt.cache_policy<...>,
    contiguity = 4 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>``

    The mask type is derived from the pointers (``i1`` elements), ``other``'s from
    the pointee; the memdesc is printed without ``!ttg.memdesc`` (read with or
    without it). ``isVolatile = false`` and ``contiguity = 1`` are defaults, not printed.
    """

    name = "ttg.async_copy_global_to_local"

    src = operand_def(TensorType)
    result = operand_def(MemDescType)
    mask = opt_operand_def(TensorType)
    other = opt_operand_def(TensorType)
    token = result_def(AsyncTokenType)

    cachePolicy = opt_prop_def(CachePolicyAttr)
    isVolatile = opt_prop_def(BoolAttr)
    contiguity = opt_prop_def(IntegerAttr[IntegerType])

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    PROPERTIES: ClassVar[tuple[str, ...]] = ("cachePolicy", "isVolatile", "contiguity")
    DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "isVolatile": IntegerAttr.from_bool(False),
        "contiguity": IntegerAttr(1, i32),
    }

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
        pos = parser.pos
        dst_type = parser.parse_optional_type()  # ``!ttg.memdesc<...>``, else the bare ``<...>``
        if dst_type is None:
            dst_type = MemDescType.parse_body(parser)
        elif not isinstance(dst_type, MemDescType):
            parser.raise_error("expected a !ttg.memdesc", pos, parser.pos)
        shape, enc = src_type.get_shape(), src_type.encoding
        op = cls(
            parser.resolve_operand(src, src_type),
            parser.resolve_operand(dst, dst_type),
            None if mask is None else parser.resolve_operand(mask, TensorType(IntegerType(1), shape, enc)),
            None if other is None else parser.resolve_operand(other, TensorType(src_type.element_type.pointee_type, shape, enc)),
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
        print_sorted_attr_dict(printer, self, defaults=self.DEFAULTS, reserved=("operandSegmentSizes",))
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        _memdesc_of(self.result).print_body(printer)

    def verify_(self) -> None:
        check_i32_attr(self, "contiguity")
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

    def verify_(self) -> None:
        check_i32_attr(self, "num")


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
