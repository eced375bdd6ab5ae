"""Triton's TritonInstrument dialect (``tti``): the ops the sanitizers (ConSan, GSan) insert.

The ops Triton's tests use, with Triton 3.9's syntax:

* ``%d = tti.experimental_buffer_descriptors [0, 42], [8, 16], shared_mem : tensor<1x2xi64, #l>``:
  a constant tensor of buffer descriptors (offset and length packed per element; pure).
* ``%a = tti.experimental_memdesc_to_i32 %buf : <32x32xf32, #shared, #smem, mutable>``: a
  memdesc's base address as i32 (pure; the type prints without ``!ttg.memdesc``).
* ``%c = tti.experimental_cluster_cta_id : i32``: the CTA's id in its cluster (pure).
* ``tti.experimental_lock_acquire %lock[, %pred] : !tt.ptr<i32>`` and ``..._lock_release``:
  enter / leave a critical section (write global memory).
* ``tti.experimental_assert_uniform %cond, "msg"``: assert a warp-group-uniform condition
  (writes global memory: it may report).
* ``tti.experimental_gsan_tensor_access %ptrs, true[, %mask] : tensor<..x!tt.ptr<f32>>``: report a
  load (``false``) or store (``true``) to GSan (reads and writes global memory).

Enum ``memType`` is stored as MLIR stores it (i32: 0 shared_mem, 1 tensor_mem). The
``{...}`` prints sorted by name, as MLIR does.
"""

from __future__ import annotations

from ltc.dialects.attr_dict import parse_attr_dict_into, print_sorted_attr_dict
from ltc.dialects.ods_checks import (
    check_i32_enum,
    check_type,
    enum_keyword,
    parse_enum_keyword,
    require_attrs,
)
from ltc.dialects.tt import PtrType, i1_like
from ltc.dialects.tt.checks import TT_TENSOR, is_tt_tensor
from ltc.dialects.ttg import MemDescType
from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    StringAttr,
    TensorType,
    i1,
    i32,
)
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

__all__ = [
    "MEM_TYPES",
    "TTI",
    "ExperimentalAssertUniformOp",
    "ExperimentalBufferDescriptorsOp",
    "ExperimentalClusterCTAIdOp",
    "ExperimentalGSanTensorAccessOp",
    "ExperimentalLockAcquireOp",
    "ExperimentalLockReleaseOp",
    "ExperimentalMemDescToI32Op",
]

MEM_TYPES: dict[str, int] = {"shared_mem": 0, "tensor_mem": 1}
"""Triton's ``MemType``: keyword -> stored i32."""

_PTR_LIKE = "ptr or ranked tensor of ptr values"
_BOOL_LIKE = "1-bit signless integer or ranked tensor of 1-bit signless integer values"
_I1 = "1-bit signless integer"
_I32 = "32-bit signless integer"


def _is_ptr_like(ty: Attribute) -> bool:
    return isinstance(ty, PtrType) or (isinstance(ty, TensorType) and isinstance(ty.element_type, PtrType))


def _is_bool_like(ty: Attribute) -> bool:
    return ty == i1 or (isinstance(ty, TensorType) and ty.element_type == i1)


def _parse_dense_i32_list(parser: Parser) -> DenseArrayBase:
    """``[0, 42]`` (MLIR's custom syntax of a ``DenseI32ArrayAttr``)."""
    values = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
    return DenseArrayBase.from_list(i32, values)


def _dense_list_text(attr: Attribute | None) -> str:
    """``[0, 42]``; the attribute's own text if it is no dense array (a failing op's)."""
    if isinstance(attr, DenseArrayBase):
        return "[" + ", ".join(str(v) for v in attr.get_values()) + "]"
    return str(attr)


@irdl_op_definition
class ExperimentalBufferDescriptorsOp(IRDLOperation):
    """``%d = tti.experimental_buffer_descriptors [offsets], [lengths], shared_mem|tensor_mem : tensor<...>``:
    a constant tensor of descriptors packing each buffer's 32-bit offset and length."""

    name = "tti.experimental_buffer_descriptors"

    result = result_def()
    offsets = opt_prop_def(DenseArrayBase)  # required; checked in verify_ with MLIR's messages
    lengths = opt_prop_def(DenseArrayBase)
    memType = opt_prop_def(IntegerAttr)

    traits = traits_def(Pure())

    def __init__(self, offsets: list[int], lengths: list[int], mem_type: str, result_type: Attribute):
        super().__init__(
            result_types=[result_type],
            properties={
                "lengths": DenseArrayBase.from_list(i32, lengths),
                "memType": IntegerAttr(MEM_TYPES[mem_type], i32),
                "offsets": DenseArrayBase.from_list(i32, offsets),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExperimentalBufferDescriptorsOp:
        offsets = _parse_dense_i32_list(parser)
        parser.parse_punctuation(",")
        lengths = _parse_dense_i32_list(parser)
        parser.parse_punctuation(",")
        mem_type = parse_enum_keyword(parser, MEM_TYPES, "memType")
        props, attrs = parse_attr_dict_into(parser, ())
        parser.parse_punctuation(":")
        pos = parser.pos
        ty = parser.parse_type()
        if not isinstance(ty, TensorType):
            parser.raise_error(f"invalid kind of type specified: expected builtin.tensor, but found '{ty}'", pos, parser.pos)
        return cls.create(
            result_types=[ty],
            properties={"lengths": lengths, "memType": mem_type, "offsets": offsets, **props},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {_dense_list_text(self.offsets)}, {_dense_list_text(self.lengths)}, ")
        printer.print_string(enum_keyword(self.memType, MEM_TYPES))
        print_sorted_attr_dict(printer, self, reserved=("offsets", "lengths", "memType"))
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        require_attrs(self, ("offsets", "lengths", "memType"))
        check_i32_enum(self, "memType", MEM_TYPES.values())
        for name in ("lengths", "offsets"):
            attr = self.properties[name]
            if not isinstance(attr, DenseArrayBase) or attr.elt_type != i32:
                raise VerifyException(f"attribute '{name}' failed to satisfy constraint: i32 dense array attribute")
        check_type("result", 0, self.result.type, is_tt_tensor, TT_TENSOR)


@irdl_op_definition
class ExperimentalMemDescToI32Op(IRDLOperation):
    """``%a = tti.experimental_memdesc_to_i32 %buf : <32x32xf32, #shared, #smem>``: the base
    address of a memdesc as i32. Reads ``!ttg.memdesc<...>`` too; prints the bare ``<...>``."""

    name = "tti.experimental_memdesc_to_i32"

    memdesc = operand_def()
    result = result_def()

    traits = traits_def(Pure())

    def __init__(self, memdesc: SSAValue):
        super().__init__(operands=[memdesc], result_types=[i32])

    @classmethod
    def parse(cls, parser: Parser) -> ExperimentalMemDescToI32Op:
        value = parser.parse_unresolved_operand()
        _, attrs = parse_attr_dict_into(parser, ())
        parser.parse_punctuation(":")
        pos = parser.pos
        ty = parser.parse_optional_type()  # ``!ttg.memdesc<...>``, else the bare ``<...>``
        if ty is None:
            ty = MemDescType.parse_body(parser)
        elif not isinstance(ty, MemDescType):
            parser.raise_error(f"invalid kind of type specified: expected ttg.memdesc, but found '{ty}'", pos, parser.pos)
        return cls.create(operands=[parser.resolve_operand(value, ty)], result_types=[i32], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.memdesc)
        print_sorted_attr_dict(printer, self)
        printer.print_string(" : ")
        ty = self.memdesc.type
        if isinstance(ty, MemDescType):
            ty.print_body(printer)
        else:  # only an unverified op gets here
            printer.print_attribute(ty)

    def verify_(self) -> None:
        check_type(
            "operand", 0, self.memdesc.type, lambda t: isinstance(t, MemDescType),
            "memory descriptor type (`::mlir::triton::gpu::MemDescType`) in Triton IR type system",
        )
        check_type("result", 0, self.result.type, lambda t: t == i32, _I32)


@irdl_op_definition
class ExperimentalClusterCTAIdOp(IRDLOperation):
    """``%c = tti.experimental_cluster_cta_id : i32``: the CTA's id within its cluster."""

    name = "tti.experimental_cluster_cta_id"

    result = result_def()

    traits = traits_def(Pure())

    def __init__(self) -> None:
        super().__init__(result_types=[i32])

    @classmethod
    def parse(cls, parser: Parser) -> ExperimentalClusterCTAIdOp:
        _, attrs = parse_attr_dict_into(parser, ())
        parser.parse_punctuation(":")
        return cls.create(result_types=[parser.parse_type()], attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_sorted_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        check_type("result", 0, self.result.type, lambda t: t == i32, _I32)


class _LockOp(IRDLOperation):
    """``tti.NAME %lock[, %pred] : T``: one thread takes or gives back the lock at ``%lock``."""

    lock = operand_def()
    pred = opt_operand_def()

    traits = traits_def(MemoryWriteEffect())

    def __init__(self, lock: SSAValue, pred: SSAValue | None = None):
        super().__init__(operands=[lock, [pred] if pred is not None else []])

    @classmethod
    def parse(cls, parser: Parser) -> _LockOp:
        lock = parser.parse_unresolved_operand()
        pred = None
        if parser.parse_optional_punctuation(",") is not None:
            pred = parser.parse_unresolved_operand()
        _, attrs = parse_attr_dict_into(parser, ())
        parser.parse_punctuation(":")
        ty = parser.parse_type()
        operands = [parser.resolve_operand(lock, ty)]
        if pred is not None:
            operands.append(parser.resolve_operand(pred, i1))
        return cls.create(operands=operands, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.lock, *([self.pred] if self.pred is not None else [])], printer.print_operand)
        print_sorted_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.lock.type)

    def verify_(self) -> None:
        check_type("operand", 0, self.lock.type, _is_ptr_like, _PTR_LIKE)
        if self.pred is not None:
            check_type("operand", 1, self.pred.type, lambda t: t == i1, _I1)


@irdl_op_definition
class ExperimentalLockAcquireOp(_LockOp):
    """``tti.experimental_lock_acquire %lock[, %pred] : !tt.ptr<i32>``: enter a critical section."""

    name = "tti.experimental_lock_acquire"


@irdl_op_definition
class ExperimentalLockReleaseOp(_LockOp):
    """``tti.experimental_lock_release %lock[, %pred] : !tt.ptr<i32>``: leave a critical section."""

    name = "tti.experimental_lock_release"


@irdl_op_definition
class ExperimentalAssertUniformOp(IRDLOperation):
    """``tti.experimental_assert_uniform %cond, "message" [attributes {...}]``: assert ``%cond``,
    a value every thread of the warp group holds alike (one thread reports)."""

    name = "tti.experimental_assert_uniform"

    condition = operand_def()
    message = opt_prop_def(StringAttr)  # required; checked in verify_

    traits = traits_def(MemoryWriteEffect())

    def __init__(self, condition: SSAValue, message: str):
        super().__init__(operands=[condition], properties={"message": StringAttr(message)})

    @classmethod
    def parse(cls, parser: Parser) -> ExperimentalAssertUniformOp:
        cond = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        message = parser.parse_str_literal()
        extra = parser.parse_optional_attr_dict_with_keyword()
        entries = dict(extra.data) if extra is not None else {}
        return cls.create(
            operands=[parser.resolve_operand(cond, i1)], properties={"message": StringAttr(message)}, attributes=entries
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.condition)
        printer.print_string(", ")
        message = self.message
        printer.print_string_literal(message.data if isinstance(message, StringAttr) else str(message))
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(dict(sorted(self.attributes.items())))

    def verify_(self) -> None:
        require_attrs(self, ("message",))
        if not isinstance(self.properties["message"], StringAttr):
            raise VerifyException("attribute 'message' failed to satisfy constraint: string attribute")
        check_type("operand", 0, self.condition.type, lambda t: t == i1, _I1)


@irdl_op_definition
class ExperimentalGSanTensorAccessOp(IRDLOperation):
    """``tti.experimental_gsan_tensor_access %ptrs, isStore[, %mask] : T``: tell GSan about a load
    (``false``) or a store (``true``) through ``%ptrs``; ``%mask`` is ``i1`` shaped like ``T``."""

    name = "tti.experimental_gsan_tensor_access"

    ptr = operand_def()
    mask = opt_operand_def()
    isStore = opt_prop_def(IntegerAttr)  # required; checked in verify_

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(self, ptr: SSAValue, is_store: bool, mask: SSAValue | None = None):
        super().__init__(
            operands=[ptr, [mask] if mask is not None else []],
            properties={"isStore": BoolAttr.from_bool(is_store)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExperimentalGSanTensorAccessOp:
        ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        is_store = parser.parse_boolean()
        mask = None
        if parser.parse_optional_punctuation(",") is not None:
            mask = parser.parse_unresolved_operand()
        _, attrs = parse_attr_dict_into(parser, ())
        parser.parse_punctuation(":")
        pos = parser.pos
        ty = parser.parse_type()
        if not _is_ptr_like(ty):
            parser.raise_error(f"'ptr' must be {_PTR_LIKE}, but got '{ty}'", pos, parser.pos)
        operands = [parser.resolve_operand(ptr, ty)]
        if mask is not None:
            operands.append(parser.resolve_operand(mask, i1_like(ty)))
        return cls.create(operands=operands, properties={"isStore": BoolAttr.from_bool(is_store)}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.ptr)
        stored = self.isStore
        printer.print_string(", true" if isinstance(stored, IntegerAttr) and stored.value.data else ", false")
        if self.mask is not None:
            printer.print_string(", ")
            printer.print_operand(self.mask)
        print_sorted_attr_dict(printer, self, reserved=("isStore",))
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)

    def verify_(self) -> None:
        require_attrs(self, ("isStore",))
        stored = self.properties["isStore"]
        if not (isinstance(stored, IntegerAttr) and stored.type == i1):
            raise VerifyException("attribute 'isStore' failed to satisfy constraint: bool attribute")
        check_type("operand", 0, self.ptr.type, _is_ptr_like, _PTR_LIKE)
        if self.mask is not None:
            check_type("operand", 1, self.mask.type, _is_bool_like, _BOOL_LIKE)
            if self.mask.type != i1_like(self.ptr.type):
                raise VerifyException("failed to verify that mask type matches ptr type")


TTI = Dialect(
    "tti",
    [
        ExperimentalBufferDescriptorsOp,
        ExperimentalMemDescToI32Op,
        ExperimentalClusterCTAIdOp,
        ExperimentalLockAcquireOp,
        ExperimentalLockReleaseOp,
        ExperimentalAssertUniformOp,
        ExperimentalGSanTensorAccessOp,
    ],
    [],
)
