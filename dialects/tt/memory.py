"""``tt`` ops on memory through pointers: address arithmetic, loads, stores, atomics.

``tt.addptr``, ``tt.load``, ``tt.store``, ``tt.atomic_rmw``, ``tt.atomic_cas``,
``tt.atomic_load``, ``tt.atomic_store``, ``tt.atomic_poll``. ``tt.load``,
``tt.store`` and ``tt.atomic_store`` write only the pointer type: the value,
``other`` and mask types follow from it (pointee type / ``i1``, pointer's shape).
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from functools import cache
from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, IntegerAttr, IntegerType, TensorType, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
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
from xdsl.traits import EffectInstance, MemoryEffectKind, MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.attr_dict import parse_attr_dict_into, print_sorted_attr_dict
from ltc.dialects.fast_parse import derived_type
from ltc.dialects.tt.attrs import CachePolicyAttr, MemSemanticAttr, MemSyncScopeAttr, RMWOpAttr
from ltc.dialects.tt.checks import check_ods_type, check_same_shape_and_encoding, is_tt_int, reject_inside_map_elementwise
from ltc.dialects.tt.types import element_bit_width, element_type_of, i1_like, is_ptr_like, pointee_value_type, type_text

__all__ = [
    "AddPtrOp",
    "AtomicCASOp",
    "AtomicLoadOp",
    "AtomicPollOp",
    "AtomicRMWOp",
    "AtomicStoreOp",
    "LoadOp",
    "StoreOp",
]

# ---------------------------------------------------------------------------
# Pointers, loads, stores, atomics
# ---------------------------------------------------------------------------


@irdl_op_definition
class AddPtrOp(IRDLOperation):
    """``%q = tt.addptr %p, %off : tensor<128x!tt.ptr<f32>>, tensor<128xi32>``: ``p + off * sizeof(pointee)``."""

    name = "tt.addptr"

    T: ClassVar = VarConstraint("T", AnyAttr())

    ptr = operand_def(T)
    offset = operand_def()
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)"

    def __init__(self, ptr: SSAValue, offset: SSAValue):
        super().__init__(operands=[ptr, offset], result_types=[ptr.type])

    def verify_(self) -> None:
        if not is_ptr_like(self.ptr.type):
            raise VerifyException(f"'tt.addptr' op ptr must be a pointer or a tensor of pointers, got {type_text(self.ptr.type)}")
        if not isinstance(element_type_of(self.offset.type), IntegerType):
            raise VerifyException(f"'tt.addptr' op offset must be an integer or a tensor of integers, got {type_text(self.offset.type)}")
        check_same_shape_and_encoding(self, (self.ptr.type, self.offset.type, self.result.type), "operands and results")


def _check_load_store_types(op: Operation, ptr: Attribute, value: Attribute | None, mask: Attribute | None, value_name: str) -> None:
    """Triton's TypesMatchWith checks of tt.load / tt.store: value and mask types follow the pointer."""
    if not is_ptr_like(ptr):
        raise VerifyException(f"'{op.name}' op ptr must be a pointer or a tensor of pointers, got {type_text(ptr)}")
    expected = pointee_value_type(ptr)
    if value is not None and value != expected:
        raise VerifyException(
            f"'{op.name}' op {value_name} type {type_text(value)} does not match the pointee type {type_text(expected)}"
        )
    if mask is not None and mask != i1_like(ptr):
        raise VerifyException(f"'{op.name}' op mask type {type_text(mask)} does not match {type_text(i1_like(ptr))}")


class LoadEffects(MemoryReadEffect):
    """A load reads memory; a volatile one (``isVolatile = true``) also counts as a write,
    so that dead-code elimination and CSE keep it (Triton's ``LoadOp::getEffects``)."""

    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance]:
        effects = {EffectInstance(MemoryEffectKind.READ)}
        volatile = op.properties.get("isVolatile")
        if isinstance(volatile, IntegerAttr) and volatile.value.data:
            effects.add(EffectInstance(MemoryEffectKind.WRITE))
        return effects


@cache
def _load_segments(n_operands: int) -> DenseArrayBase:
    """``tt.load``'s operandSegmentSizes for 1, 2 or 3 operands (ptr, mask, other)."""
    return DenseArrayBase.from_list(i32, [1, int(n_operands > 1), int(n_operands > 2)])


@irdl_op_definition
class LoadOp(IRDLOperation):
    """Load through a pointer or a tensor of pointers.

    ``%x = tt.load %p, %mask, %other {cachePolicy = #tt.cache_policy<cache_modifier = ca, eviction_policy = evict_normal>, isVolatile = true} : tensor<128x!tt.ptr<f32>>``

    Only the pointer type is written; the result and ``other`` have the pointee
    type with the pointer's shape, the mask is ``i1`` of that shape.
    """

    name = "tt.load"

    ptr = operand_def()
    mask = opt_operand_def()
    other = opt_operand_def()
    cachePolicy = opt_prop_def(CachePolicyAttr)
    isVolatile = opt_prop_def(BoolAttr)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    traits = traits_def(LoadEffects())

    PROPS: ClassVar[tuple[str, ...]] = ("cachePolicy", "isVolatile")
    # isVolatile = false is the default: neither stored nor printed (as in Triton).
    DEFAULTS: ClassVar[dict[str, Attribute]] = {"isVolatile": BoolAttr.from_bool(False)}

    def __init__(
        self,
        ptr: SSAValue,
        mask: SSAValue | None = None,
        other: SSAValue | None = None,
        cache_policy: CachePolicyAttr | None = None,
        is_volatile: bool = False,
    ):
        super().__init__(
            operands=[ptr, [mask] if mask else [], [other] if other else []],
            result_types=[pointee_value_type(ptr.type)],
            properties={"cachePolicy": cache_policy, "isVolatile": BoolAttr.from_bool(True) if is_volatile else None},
        )

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        # Triton's syntax is `$ptr (`,` $mask^)? (`,` $other^)?`: each of the two
        # commas may stand without its operand (`tt.load %p, : T` is a plain load).
        operands = [parser.parse_unresolved_operand()]
        for slot in ("mask", "other"):
            if parser.parse_optional_punctuation(",") is None:
                break
            operand = parser.parse_optional_unresolved_operand()
            if operand is None:
                continue
            if slot == "other" and len(operands) == 1:
                parser.raise_error("'tt.load' op other requires a mask")
            operands.append(operand)
        props, attrs = parse_attr_dict_into(parser, cls.PROPS)
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        value_type = derived_type(parser, pointee_value_type, ptr_type)
        types = [ptr_type, derived_type(parser, i1_like, ptr_type), value_type][: len(operands)]
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, types)]
        props = {k: v for k, v in props.items() if v != cls.DEFAULTS.get(k)}
        props["operandSegmentSizes"] = _load_segments(len(values))
        return cls.create(
            operands=values,
            result_types=[value_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.ptr, *( [self.mask] if self.mask else []), *([self.other] if self.other else [])], printer.print_operand)
        print_sorted_attr_dict(printer, self, defaults=self.DEFAULTS, reserved=("operandSegmentSizes",))
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)

    def verify_(self) -> None:
        if self.other is not None and self.mask is None:
            raise VerifyException("'tt.load' op other requires a mask")
        _check_load_store_types(self, self.ptr.type, self.result.type, self.mask.type if self.mask else None, "result")
        if self.other is not None and self.other.type != self.result.type:
            raise VerifyException(
                f"'tt.load' op other type {type_text(self.other.type)} does not match the result type {type_text(self.result.type)}"
            )
        if self.cachePolicy is not None and self.cachePolicy.cache_modifier.data in ("wb", "cs", "wt"):
            raise VerifyException(
                f"'tt.load' op invalid cache policy: cache modifier '{self.cachePolicy.cache_modifier.data}' is not supported for loads"
            )


@irdl_op_definition
class StoreOp(IRDLOperation):
    """Store through a pointer or a tensor of pointers.

    ``tt.store %p, %v, %mask {cachePolicy = #tt.cache_policy<cache_modifier = wb, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>``
    """

    name = "tt.store"

    ptr = operand_def()
    value = operand_def()
    mask = opt_operand_def()
    cachePolicy = opt_prop_def(CachePolicyAttr)

    traits = traits_def(MemoryWriteEffect())

    def __init__(self, ptr: SSAValue, value: SSAValue, mask: SSAValue | None = None, cache_policy: CachePolicyAttr | None = None):
        super().__init__(operands=[ptr, value, [mask] if mask else []], properties={"cachePolicy": cache_policy})

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        if len(operands) not in (2, 3):
            parser.raise_error("'tt.store' takes two or three operands (ptr, value, mask)")
        props, attrs = parse_attr_dict_into(parser, ("cachePolicy",))
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        types = [ptr_type, derived_type(parser, pointee_value_type, ptr_type), derived_type(parser, i1_like, ptr_type)]
        types = types[: len(operands)]
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, types)]
        return cls.create(operands=values, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.ptr, self.value, *([self.mask] if self.mask else [])], printer.print_operand)
        print_sorted_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)

    def verify_(self) -> None:
        reject_inside_map_elementwise(self)
        _check_load_store_types(self, self.ptr.type, self.value.type, self.mask.type if self.mask else None, "value")
        if self.cachePolicy is not None and self.cachePolicy.cache_modifier.data in ("ca", "cv"):  # as Triton 3.9
            raise VerifyException(
                f"'tt.store' op invalid cache policy: cache modifier '{self.cachePolicy.cache_modifier.data}' is not supported for stores"
            )


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """``%old = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %mask : (tensor<256x!tt.ptr<f32>>, tensor<256xf32>, tensor<256xi1>) -> tensor<256xf32>``."""

    name = "tt.atomic_rmw"

    atomic_rmw_op = prop_def(RMWOpAttr)
    sem = prop_def(MemSemanticAttr)
    scope = prop_def(MemSyncScopeAttr)
    ptr = operand_def()
    val = operand_def()
    mask = opt_operand_def()
    result = result_def()

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    assembly_format = (
        "$atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:` "
        "functional-type(operands, $result)"
    )

    def verify_(self) -> None:
        _check_load_store_types(self, self.ptr.type, self.val.type, self.mask.type if self.mask else None, "value")
        if self.result.type != self.val.type:
            raise VerifyException(
                f"'tt.atomic_rmw' op result type {type_text(self.result.type)} does not match the value type {type_text(self.val.type)}"
            )


@irdl_op_definition
class AtomicCASOp(IRDLOperation):
    """``%old = tt.atomic_cas acq_rel, gpu, %p, %cmp, %v : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>``."""

    name = "tt.atomic_cas"

    sem = prop_def(MemSemanticAttr)
    scope = prop_def(MemSyncScopeAttr)
    ptr = operand_def()
    cmp = operand_def()
    val = operand_def()
    result = result_def()

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    assembly_format = "$sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:` functional-type(operands, $result)"

    def verify_(self) -> None:
        expected = pointee_value_type(self.ptr.type) if is_ptr_like(self.ptr.type) else None
        for name, t in (("cmp", self.cmp.type), ("value", self.val.type)):
            if expected is not None and t != expected:  # Triton's TypesMatchWith, cmp first
                raise VerifyException(f"'tt.atomic_cas' op failed to verify that ptr type matches {name} type")
        _check_load_store_types(self, self.ptr.type, self.val.type, None, "value")
        for name, t in (("cmp", self.cmp.type), ("result", self.result.type)):
            if t != self.val.type:
                raise VerifyException(
                    f"'tt.atomic_cas' op {name} type {type_text(t)} does not match the value type {type_text(self.val.type)}"
                )


@irdl_op_definition
class AtomicLoadOp(IRDLOperation):
    """``%v = tt.atomic_load acquire, gpu, %p, %mask : (tensor<128x!tt.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>``."""

    name = "tt.atomic_load"

    sem = prop_def(MemSemanticAttr)
    scope = prop_def(MemSyncScopeAttr)
    ptr = operand_def()
    mask = opt_operand_def()
    result = result_def()

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    assembly_format = "$sem `,` $scope `,` $ptr (`,` $mask^)? attr-dict `:` functional-type(operands, $result)"

    def verify_(self) -> None:
        _check_load_store_types(self, self.ptr.type, self.result.type, self.mask.type if self.mask else None, "result")
        _reject_sub_byte(self, self.result.type)


@irdl_op_definition
class AtomicStoreOp(IRDLOperation):
    """``tt.atomic_store release, sys, %p, %v, %mask : tensor<128x!tt.ptr<f32>>`` (value and mask types follow the pointer)."""

    name = "tt.atomic_store"

    sem = prop_def(MemSemanticAttr)
    scope = prop_def(MemSyncScopeAttr)
    ptr = operand_def()
    val = operand_def()
    mask = opt_operand_def()

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    @classmethod
    def parse(cls, parser: Parser) -> AtomicStoreOp:
        sem = MemSemanticAttr(MemSemanticAttr.parse_parameter(parser))
        parser.parse_punctuation(",")
        scope = MemSyncScopeAttr(MemSyncScopeAttr.parse_parameter(parser))
        parser.parse_punctuation(",")
        operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        if len(operands) not in (2, 3):
            parser.raise_error("'tt.atomic_store' takes two or three operands (ptr, value, mask)")
        _, attrs = parse_attr_dict_into(parser, ())
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        types = [ptr_type, pointee_value_type(ptr_type), i1_like(ptr_type)]
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, types)]
        return cls.create(operands=values, properties={"sem": sem, "scope": scope}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.sem.data.value}, {self.scope.data.value}, ")
        printer.print_list(self.operands, printer.print_operand)
        print_sorted_attr_dict(printer, self, reserved=("sem", "scope"))
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)

    def verify_(self) -> None:
        _check_load_store_types(self, self.ptr.type, self.val.type, self.mask.type if self.mask else None, "value")
        _reject_sub_byte(self, self.val.type)


@irdl_op_definition
class AtomicPollOp(IRDLOperation):
    """``%done = tt.atomic_poll acquire, gpu, %p, %cmp : !tt.ptr<i32>, i32 -> i1``: whether ``*p == cmp``."""

    name = "tt.atomic_poll"

    sem = prop_def(MemSemanticAttr)
    scope = prop_def(MemSyncScopeAttr)
    ptr = operand_def()
    cmp = operand_def()
    result = result_def()

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    assembly_format = "$sem `,` $scope `,` $ptr `,` $cmp attr-dict `:` type($ptr) `,` type($cmp) `->` type($result)"

    def verify_(self) -> None:
        cmp = self.cmp.type
        # ODS's TT_IntLike: an integer (i1/i4/i8/i16/i32/i64) or a ranked tensor of them
        int_like = is_tt_int(cmp) or (isinstance(cmp, TensorType) and is_tt_int(cmp.element_type))
        check_ods_type(self, "operand", 1, cmp, int_like, "integer or ranked tensor of integer values")
        _check_load_store_types(self, self.ptr.type, cmp, None, "cmp")
        if self.result.type != i1_like(self.ptr.type):
            raise VerifyException(f"'tt.atomic_poll' op result type must be {type_text(i1_like(self.ptr.type))}")
        if element_bit_width(cmp) not in (16, 32, 64):  # what the hardware polls
            raise VerifyException("'tt.atomic_poll' op only supports integer elements with width {16, 32, 64}")


def _reject_sub_byte(op: Operation, value: Attribute) -> None:
    """Triton's atomic load/store move whole bytes: no i1 or i4 elements."""
    width = element_bit_width(value)
    if width is not None and width < 8:
        raise VerifyException(f"'{op.name}' op does not support sub-byte elements")
