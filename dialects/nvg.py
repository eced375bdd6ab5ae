"""Triton's NVGPU dialect (``nvg``): the NVIDIA ops left between TritonGPU and LLVM.

* ``%id = nvg.cluster_id``: the CTA's rank in its cluster (i32; pure).
* ``%t = nvg.tensor_memory_base``: the kernel's tensor-memory base, ``!llvm.ptr<6>`` (pure).
* ``%d = nvg.wgmma %a, %b, %useC[, %c] {eltTypeA = .., m = .., ..} : (...) -> !llvm.struct<...>``:
  one Hopper wgmma; A and B are a 64-bit shared-memory descriptor or a register struct.
* ``%r = nvg.wgmma_wait_group %in {pendings = N : i32} : !llvm.struct<...>``: wait until at
  most N wgmma groups are pending; passes ``%in`` through.
* ``%v = nvg.ld_acquire acquire, gpu, %p[, %mask] : (!llvm.ptr<1>) -> i32``: an acquire load.

Enum attributes are stored as MLIR stores them (i32); ``ld_acquire`` prints its two as
keywords. The ``{...}`` prints sorted by name, as MLIR does. ``wgmma`` and
``wgmma_wait_group`` declare no effects in Triton, so they count as having any (not pure).
"""

from __future__ import annotations

from typing import ClassVar

from ltc.dialects.attr_dict import parse_attr_dict_into, print_sorted_attr_dict
from ltc.dialects.ods_checks import (
    check_i32_attr,
    check_i32_enum,
    check_type,
    enum_keyword,
    is_llvm_ptr_in,
    is_llvm_struct,
    is_scalar_like,
    is_signless_int,
    parse_enum_keyword,
    require_attrs,
)
from xdsl.dialects.builtin import IntAttr, IntegerAttr, i1, i32
from xdsl.dialects.llvm import LLVMPointerType
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
from xdsl.traits import MemoryReadEffect, Pure
from xdsl.utils.exceptions import VerifyException

__all__ = [
    "MEM_SEMANTICS",
    "MEM_SYNC_SCOPES",
    "NVG",
    "WGMMA_ELT_TYPES",
    "WGMMA_LAYOUTS",
    "ClusterCTAIdOp",
    "LoadAcquireOp",
    "TensorMemoryBaseOp",
    "WGMMAOp",
    "WGMMAWaitGroupOp",
]

WGMMA_ELT_TYPES: tuple[str, ...] = ("s8", "s32", "e4m3", "e5m2", "f16", "bf16", "tf32", "f32")
"""``WGMMAEltType``: the value of ``eltTypeA/B/C`` is the index here."""

WGMMA_LAYOUTS: tuple[str, ...] = ("row", "col")
"""``WGMMALayout``: the value of ``layoutA/B`` is the index here."""

MEM_SEMANTICS: dict[str, int] = {"relaxed": 1, "acquire": 2, "release": 3, "acq_rel": 4}
"""``MemSemantic`` of ``nvg.ld_acquire``: keyword -> stored i32."""

MEM_SYNC_SCOPES: dict[str, int] = {"gpu": 1, "cta": 2, "sys": 3}
"""``MemSyncScope`` of ``nvg.ld_acquire``: keyword -> stored i32."""

_ELT_TYPE_SUMMARY = "wgmma operand type, either 's8', 's32', 'e4m3', 'e5m2', 'f16', 'bf16', 'tf32', or 'f32'"
_LAYOUT_SUMMARY = "wgmma layout, either 'row' or 'col'"


def _i32(value: int) -> IntegerAttr:
    return IntegerAttr(value, i32)


def _is_wgmma_operand(ty: Attribute) -> bool:
    return is_llvm_struct(ty) or is_signless_int(ty, 64)


class _NoOperandOp(IRDLOperation):
    """``%r = nvg.NAME [{...}]``: no operands, one result of a fixed type."""

    RESULT_TYPE: ClassVar[Attribute]
    RESULT_DESCRIPTION: ClassVar[str]

    result = result_def()

    traits = traits_def(Pure())

    def __init__(self) -> None:
        super().__init__(result_types=[self.RESULT_TYPE])

    @classmethod
    def parse(cls, parser: Parser) -> _NoOperandOp:
        _, attrs = parse_attr_dict_into(parser, ())
        return cls.create(result_types=[cls.RESULT_TYPE], attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_sorted_attr_dict(printer, self)

    def verify_(self) -> None:
        check_type("result", 0, self.result.type, lambda t: t == self.RESULT_TYPE, self.RESULT_DESCRIPTION)


@irdl_op_definition
class ClusterCTAIdOp(_NoOperandOp):
    """``%id = nvg.cluster_id``: the CTA's rank within its cluster."""

    name = "nvg.cluster_id"
    RESULT_TYPE: ClassVar[Attribute] = i32
    RESULT_DESCRIPTION: ClassVar[str] = "32-bit signless integer"


@irdl_op_definition
class TensorMemoryBaseOp(_NoOperandOp):
    """``%t = nvg.tensor_memory_base``: the base address of the kernel's tensor memory."""

    name = "nvg.tensor_memory_base"
    RESULT_TYPE: ClassVar[Attribute] = LLVMPointerType(IntAttr(6))
    RESULT_DESCRIPTION: ClassVar[str] = "LLVM pointer in address space 6"


@irdl_op_definition
class WGMMAOp(IRDLOperation):
    """``%d = nvg.wgmma %a, %b, %useC[, %c] {eltTypeA = 3 : i32, eltTypeB = 3 : i32, eltTypeC = 7 : i32,
    k = 32 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 256 : i32}
    : (i64, i64, i1[, !llvm.struct<...>]) -> !llvm.struct<...>``

    ``d = a * b (+ c when useC)`` on an m x n x k tile. ``a``/``b``: an i64 shared-memory
    descriptor or a register struct; element types and layouts are the enum indices of
    ``WGMMA_ELT_TYPES`` / ``WGMMA_LAYOUTS``.
    """

    name = "nvg.wgmma"

    opA = operand_def()
    opB = operand_def()
    useC = operand_def()
    opC = opt_operand_def()
    res = result_def()

    m = opt_prop_def(IntegerAttr)  # required; checked in verify_ with MLIR's messages
    n = opt_prop_def(IntegerAttr)
    k = opt_prop_def(IntegerAttr)
    eltTypeC = opt_prop_def(IntegerAttr)
    eltTypeA = opt_prop_def(IntegerAttr)
    eltTypeB = opt_prop_def(IntegerAttr)
    layoutA = opt_prop_def(IntegerAttr)
    layoutB = opt_prop_def(IntegerAttr)

    PROPERTIES: ClassVar[tuple[str, ...]] = ("m", "n", "k", "eltTypeC", "eltTypeA", "eltTypeB", "layoutA", "layoutB")

    def __init__(
        self,
        a: SSAValue,
        b: SSAValue,
        use_c: SSAValue,
        result_type: Attribute,
        shape: tuple[int, int, int],
        elt_types: tuple[str, str, str],
        layouts: tuple[str, str],
        c: SSAValue | None = None,
    ):
        """``shape`` is (m, n, k); ``elt_types`` (A, B, C) and ``layouts`` (A, B) by name."""
        m, n, k = shape
        ea, eb, ec = (WGMMA_ELT_TYPES.index(e) for e in elt_types)
        la, lb = (WGMMA_LAYOUTS.index(x) for x in layouts)
        super().__init__(
            operands=[a, b, use_c, [c] if c is not None else []],
            result_types=[result_type],
            properties={
                "eltTypeA": _i32(ea), "eltTypeB": _i32(eb), "eltTypeC": _i32(ec), "k": _i32(k),
                "layoutA": _i32(la), "layoutB": _i32(lb), "m": _i32(m), "n": _i32(n),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> WGMMAOp:
        names = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            names.append(parser.parse_unresolved_operand())
        if parser.parse_optional_punctuation(",") is not None:
            names.append(parser.parse_unresolved_operand())
        props, attrs = parse_attr_dict_into(parser, cls.PROPERTIES)
        parser.parse_punctuation(":")
        pos = parser.pos
        fn = parser.parse_function_type()
        if len(fn.inputs) != len(names):
            parser.raise_error(f"{len(names)} operands present, but expected {len(fn.inputs)}", pos, parser.pos)
        if len(fn.outputs) != 1:
            parser.raise_error(f"expected 1 result type, got {len(fn.outputs)}", pos, parser.pos)
        operands = [parser.resolve_operand(v, t) for v, t in zip(names, fn.inputs.data)]
        return cls.create(
            operands=operands, result_types=[fn.outputs.data[0]], properties=props, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_sorted_attr_dict(printer, self)
        printer.print_string(" : (")
        printer.print_list(self.operand_types, printer.print_attribute)
        printer.print_string(") -> ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        require_attrs(self, self.PROPERTIES)
        for name in sorted(self.PROPERTIES):
            if name.startswith("eltType"):
                check_i32_enum(self, name, range(len(WGMMA_ELT_TYPES)), _ELT_TYPE_SUMMARY)
            elif name.startswith("layout"):
                check_i32_enum(self, name, range(len(WGMMA_LAYOUTS)), _LAYOUT_SUMMARY)
            else:
                check_i32_attr(self, name)
        check_type("operand", 0, self.opA.type, _is_wgmma_operand, "wgmma operand A/B type")
        check_type("operand", 1, self.opB.type, _is_wgmma_operand, "wgmma operand A/B type")
        check_type("operand", 2, self.useC.type, lambda t: t == i1, "1-bit signless integer")
        if self.opC is not None:
            check_type("operand", 3, self.opC.type, is_llvm_struct, "LLVM structure type")
        check_type("result", 0, self.res.type, is_llvm_struct, "LLVM structure type")


@irdl_op_definition
class WGMMAWaitGroupOp(IRDLOperation):
    """``%r = nvg.wgmma_wait_group %in {pendings = 0 : i32} : !llvm.struct<...>``: wait until at
    most ``pendings`` wgmma groups are in flight; ``%r`` is ``%in`` (same type)."""

    name = "nvg.wgmma_wait_group"

    input = operand_def()
    output = result_def()
    pendings = opt_prop_def(IntegerAttr)  # required; checked in verify_

    def __init__(self, value: SSAValue, pendings: int):
        super().__init__(operands=[value], result_types=[value.type], properties={"pendings": _i32(pendings)})

    @classmethod
    def parse(cls, parser: Parser) -> WGMMAWaitGroupOp:
        value = parser.parse_unresolved_operand()
        props, attrs = parse_attr_dict_into(parser, ("pendings",))
        parser.parse_punctuation(":")
        ty = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(value, ty)], result_types=[ty], properties=props, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        print_sorted_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)

    def verify_(self) -> None:
        require_attrs(self, ("pendings",))
        check_i32_attr(self, "pendings")
        check_type("operand", 0, self.input.type, is_llvm_struct, "LLVM structure type")
        check_type("result", 0, self.output.type, is_llvm_struct, "LLVM structure type")
        if self.input.type != self.output.type:
            raise VerifyException("failed to verify that all of {input, output} have same type")


@irdl_op_definition
class LoadAcquireOp(IRDLOperation):
    """``%v = nvg.ld_acquire acquire, gpu, %ptr[, %mask] : (!llvm.ptr<1>) -> T``: load a scalar
    from global memory with the given semantic and scope; with ``%mask`` false, no load."""

    name = "nvg.ld_acquire"

    addr = operand_def()
    mask = opt_operand_def()
    result = result_def()
    sem = opt_prop_def(IntegerAttr)  # required; checked in verify_
    scope = opt_prop_def(IntegerAttr)

    traits = traits_def(MemoryReadEffect())

    def __init__(self, addr: SSAValue, result_type: Attribute, sem: str, scope: str, mask: SSAValue | None = None):
        super().__init__(
            operands=[addr, [mask] if mask is not None else []],
            result_types=[result_type],
            properties={"scope": _i32(MEM_SYNC_SCOPES[scope]), "sem": _i32(MEM_SEMANTICS[sem])},
        )

    @classmethod
    def parse(cls, parser: Parser) -> LoadAcquireOp:
        sem = parse_enum_keyword(parser, MEM_SEMANTICS, "sem")
        parser.parse_punctuation(",")
        scope = parse_enum_keyword(parser, MEM_SYNC_SCOPES, "scope")
        parser.parse_punctuation(",")
        addr = parser.parse_unresolved_operand()
        mask = None
        if parser.parse_optional_punctuation(",") is not None:
            mask = parser.parse_unresolved_operand()
        props, attrs = parse_attr_dict_into(parser, ())
        parser.parse_punctuation(":")
        pos = parser.pos
        fn = parser.parse_function_type()
        if len(fn.inputs) != 1 or len(fn.outputs) != 1:
            parser.raise_error("expected a function type from one type to one type", pos, parser.pos)
        operands = [parser.resolve_operand(addr, fn.inputs.data[0])]
        if mask is not None:
            operands.append(parser.resolve_operand(mask, i1))
        return cls.create(
            operands=operands,
            result_types=[fn.outputs.data[0]],
            properties={"scope": scope, "sem": sem, **props},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {enum_keyword(self.sem, MEM_SEMANTICS)}, {enum_keyword(self.scope, MEM_SYNC_SCOPES)}, ")
        printer.print_operand(self.addr)
        if self.mask is not None:
            printer.print_string(", ")
            printer.print_operand(self.mask)
        print_sorted_attr_dict(printer, self, reserved=("sem", "scope"))
        printer.print_string(" : (")
        printer.print_attribute(self.addr.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        require_attrs(self, ("sem", "scope"))
        check_i32_enum(self, "scope", MEM_SYNC_SCOPES.values())
        check_i32_enum(self, "sem", MEM_SEMANTICS.values())
        check_type("operand", 0, self.addr.type, lambda t: is_llvm_ptr_in(t, 1), "LLVM pointer in address space 1")
        if self.mask is not None:
            check_type("operand", 1, self.mask.type, lambda t: t == i1, "1-bit signless integer")
        check_type("result", 0, self.result.type, is_scalar_like, "floating-point or integer")


NVG = Dialect("nvg", [ClusterCTAIdOp, TensorMemoryBaseOp, WGMMAOp, WGMMAWaitGroupOp, LoadAcquireOp], [])
