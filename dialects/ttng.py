"""The ``ttng`` dialect (Triton 3.9's TritonNvidiaGPU dialect) for xDSL: the Hopper ops.

Attributes first (``#ttng.tensor_memory``), then the ops (wgmma, mbarriers, TMA),
then ``TTNG = Dialect("ttng", ...)``. Syntax and verifier messages follow Triton 3.9
(checked against Triton itself in ``tests/test_dialect_ttng.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, IntegerAttr, IntegerType, TensorType, i1, i32
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.attr_dict import parse_attr_dict_into, print_sorted_attr_dict
from ltc.dialects.tt import TensorDescType, parse_dot_types, print_dot_types
from ltc.dialects.ttg import MemDescType, shape_of_shaped

__all__ = [
    "TTNG",
    "AsyncTMACopyGlobalToLocalOp",
    "AsyncTMACopyLocalToGlobalOp",
    "AsyncTMAStoreWaitOp",
    "BarrierExpectOp",
    "FenceAsyncSharedOp",
    "InitBarrierOp",
    "InvalBarrierOp",
    "TensorMemorySpaceAttr",
    "WaitBarrierOp",
    "WarpGroupDotOp",
    "WarpGroupDotWaitOp",
]


@irdl_attr_definition
class TensorMemorySpaceAttr(ParametrizedAttribute):
    """Blackwell's tensor memory, as a memdesc memory space: ``#ttng.tensor_memory``."""

    name = "ttng.tensor_memory"


def _i32(value: int) -> IntegerAttr:
    return IntegerAttr(value, i32)


def _shape(attr: Attribute) -> tuple[int, ...]:
    shape = shape_of_shaped(attr)
    assert shape is not None
    return shape


# ---------------------------------------------------------------------------
# wgmma
# ---------------------------------------------------------------------------


@irdl_op_definition
class WarpGroupDotOp(IRDLOperation):
    """Hopper warp-group matrix multiply-accumulate ``d = a * b + c``.

    ``%d = ttng.warp_group_dot %a, %b, %c[, %useC] {inputPrecision = 0 : i32, isAsync = true}
    : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem>
    -> tensor<128x128xf32, #mma>``

    ``a`` is a memdesc or a register tensor (``#ttg.dot_op`` layout), ``b`` a memdesc,
    ``c`` has the result's type. Defaults are not printed: ``inputPrecision = 2``
    (ieee), ``maxNumImpreciseAcc = 0``, ``isAsync = false``.
    """

    name = "ttng.warp_group_dot"

    a = operand_def()
    b = operand_def(MemDescType)
    c = operand_def(TensorType)
    useC = opt_operand_def(i1)
    d = result_def(TensorType)

    inputPrecision = prop_def(IntegerAttr[IntegerType], default_value=_i32(2))
    maxNumImpreciseAcc = prop_def(IntegerAttr[IntegerType], default_value=_i32(0))
    isAsync = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "inputPrecision": _i32(2),
        "maxNumImpreciseAcc": _i32(0),
        "isAsync": IntegerAttr.from_bool(False),
    }

    def __init__(
        self,
        a: SSAValue,
        b: SSAValue,
        c: SSAValue,
        use_c: SSAValue | None = None,
        input_precision: int = 2,
        max_num_imprecise_acc: int = 0,
        is_async: bool = False,
    ):
        super().__init__(
            operands=[a, b, c, [use_c] if use_c is not None else []],
            result_types=[c.type],
            properties={
                "inputPrecision": _i32(input_precision),
                "isAsync": IntegerAttr.from_bool(is_async),
                "maxNumImpreciseAcc": _i32(max_num_imprecise_acc),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> WarpGroupDotOp:
        a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        b = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        c = parser.parse_unresolved_operand()
        use_c = None
        if parser.parse_optional_punctuation(",") is not None:
            use_c = parser.parse_unresolved_operand()
        props, attrs = parse_attr_dict_into(parser, cls.DEFAULTS)
        a_type, b_type, d_type = parse_dot_types(parser)
        operands = [
            parser.resolve_operand(a, a_type),
            parser.resolve_operand(b, b_type),
            parser.resolve_operand(c, d_type),
        ]
        if use_c is not None:
            operands.append(parser.resolve_operand(use_c, i1))
        return cls.create(
            operands=operands, result_types=[d_type], properties={**cls.DEFAULTS, **props}, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.a, self.b, self.c, *([self.useC] if self.useC else [])], printer.print_operand)
        print_sorted_attr_dict(printer, self, defaults=self.DEFAULTS)
        print_dot_types(printer, self.a.type, self.b.type, self.d.type)

    def verify_(self) -> None:
        a_shape, b_shape, d_shape = _shape(self.a.type), _shape(self.b.type), _shape(self.d.type)
        if self.c.type != self.d.type:
            raise VerifyException("the accumulator and the result must have the same type")
        if not isinstance(self.a.type, (TensorType, MemDescType)):
            raise VerifyException("operand a must be a tensor or a memdesc")
        if len(a_shape) < 2 or len(b_shape) != len(a_shape) or len(d_shape) != len(a_shape):
            raise VerifyException("expected operands and result of the same rank (2 or more)")
        if a_shape[-1] != b_shape[-2]:
            raise VerifyException(
                "expected the last dimension of the first operand to be equal to the second-to-last "
                "dimension of the second operand"
            )
        if d_shape != (*a_shape[:-1], b_shape[-1]):
            raise VerifyException(
                "expected the output shape to be the concatenation of the last dimension of the first "
                "operand and the last dimension of the second"
            )


@irdl_op_definition
class WarpGroupDotWaitOp(IRDLOperation):
    """Wait until at most ``pendings`` async wgmma groups are in flight; passes its
    operands through (results have the operands' types).

    ``%r:3 = ttng.warp_group_dot_wait %d, %a, %b {pendings = 0 : i32} : tensor<...>, !ttg.memdesc<...>, ...``
    """

    name = "ttng.warp_group_dot_wait"

    inputs = var_operand_def()
    outputs = var_result_def()
    pendings = prop_def(IntegerAttr[IntegerType])

    def __init__(self, inputs: Sequence[SSAValue], pendings: int):
        super().__init__(
            operands=[list(inputs)],
            result_types=[[v.type for v in inputs]],
            properties={"pendings": _i32(pendings)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> WarpGroupDotWaitOp:
        inputs = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        props, attrs = parse_attr_dict_into(parser, ("pendings",))
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) != len(inputs):
            parser.raise_error(f"expected {len(inputs)} types, got {len(types)}")
        operands = [parser.resolve_operand(v, t) for v, t in zip(inputs, types)]
        return cls.create(operands=operands, result_types=types, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.inputs, printer.print_operand)
        print_sorted_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_list(self.inputs.types, printer.print_attribute)

    def verify_(self) -> None:
        if tuple(self.inputs.types) != tuple(self.outputs.types):
            raise VerifyException("the results must have the operands' types")


# ---------------------------------------------------------------------------
# fences and mbarriers
# ---------------------------------------------------------------------------


@irdl_op_definition
class FenceAsyncSharedOp(IRDLOperation):
    """Order generic-proxy shared-memory accesses before async-proxy ones (TMA, wgmma).

    ``ttng.fence_async_shared {bCluster = false}``
    """

    name = "ttng.fence_async_shared"

    bCluster = prop_def(BoolAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self, b_cluster: bool = False):
        super().__init__(properties={"bCluster": IntegerAttr.from_bool(b_cluster)})


class _BarrierWithCountOp(IRDLOperation):
    """``NAME %alloc, N[, %pred] : !ttg.memdesc<1xi64, ...>`` with ``N`` an i32 property
    printed as a bare integer (shared by init_barrier and barrier_expect)."""

    COUNT_NAME: ClassVar[str]
    HAS_PRED: ClassVar[bool]

    @classmethod
    def parse(cls, parser: Parser) -> IRDLOperation:
        alloc = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        count = parser.parse_integer(allow_boolean=False)
        pred = None
        if cls.HAS_PRED:
            parser.parse_punctuation(",")
            pred = parser.parse_unresolved_operand()
        props, attrs = parse_attr_dict_into(parser, ())
        parser.parse_punctuation(":")
        alloc_type = parser.parse_type()
        operands = [parser.resolve_operand(alloc, alloc_type)]
        if pred is not None:
            operands.append(parser.resolve_operand(pred, i1))
        return cls.create(operands=operands, properties={cls.COUNT_NAME: _i32(count)}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        alloc, *rest = self.operands
        printer.print_string(" ")
        printer.print_operand(alloc)
        count = self.properties[self.COUNT_NAME]
        assert isinstance(count, IntegerAttr)
        printer.print_string(f", {count.value.data}")
        for pred in rest:
            printer.print_string(", ")
            printer.print_operand(pred)
        print_sorted_attr_dict(printer, self, reserved=(self.COUNT_NAME,))
        printer.print_string(" : ")
        printer.print_attribute(alloc.type)


@irdl_op_definition
class InitBarrierOp(_BarrierWithCountOp):
    """Initialise an mbarrier with its arrival count.

    ``ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>``
    """

    name = "ttng.init_barrier"

    alloc = operand_def(MemDescType)
    count = prop_def(IntegerAttr[IntegerType])

    COUNT_NAME: ClassVar[str] = "count"
    HAS_PRED: ClassVar[bool] = False

    def __init__(self, alloc: SSAValue, count: int):
        super().__init__(operands=[alloc], properties={"count": _i32(count)})


@irdl_op_definition
class InvalBarrierOp(IRDLOperation):
    """Invalidate an mbarrier.

    ``ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #shared1, #smem, mutable>``
    """

    name = "ttng.inval_barrier"

    alloc = operand_def(MemDescType)

    assembly_format = "$alloc attr-dict `:` type($alloc)"

    def __init__(self, alloc: SSAValue):
        super().__init__(operands=[alloc])


@irdl_op_definition
class BarrierExpectOp(_BarrierWithCountOp):
    """Tell an mbarrier to expect ``size`` bytes of async (TMA) traffic, if ``pred``.

    ``ttng.barrier_expect %bar, 32768, %pred : !ttg.memdesc<1xi64, #shared1, #smem, mutable>``
    """

    name = "ttng.barrier_expect"

    alloc = operand_def(MemDescType)
    pred = operand_def(i1)
    size = prop_def(IntegerAttr[IntegerType])

    COUNT_NAME: ClassVar[str] = "size"
    HAS_PRED: ClassVar[bool] = True

    def __init__(self, alloc: SSAValue, size: int, pred: SSAValue):
        super().__init__(operands=[alloc, pred], properties={"size": _i32(size)})


@irdl_op_definition
class WaitBarrierOp(IRDLOperation):
    """Wait for an mbarrier's ``phase`` to complete (if ``pred``); ``deps`` are the
    buffers the wait protects.

    ``ttng.wait_barrier %bar, %phase[, %pred] [deps %a, %b] : !ttg.memdesc<1xi64, ...>[, T_a, T_b]``
    """

    name = "ttng.wait_barrier"

    alloc = operand_def(MemDescType)
    phase = operand_def(i32)
    pred = opt_operand_def(i1)
    deps = var_operand_def(MemDescType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self, alloc: SSAValue, phase: SSAValue, pred: SSAValue | None = None, deps: Sequence[SSAValue] = ()
    ):
        super().__init__(operands=[alloc, phase, [pred] if pred is not None else [], list(deps)])

    @classmethod
    def parse(cls, parser: Parser) -> WaitBarrierOp:
        alloc = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        phase = parser.parse_unresolved_operand()
        pred = None
        if parser.parse_optional_punctuation(",") is not None:
            pred = parser.parse_unresolved_operand()
        deps = []
        if parser.parse_optional_keyword("deps"):
            deps = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        props, attrs = parse_attr_dict_into(parser, ())
        parser.parse_punctuation(":")
        alloc_type = parser.parse_type()
        dep_types = []
        for _ in deps:
            parser.parse_punctuation(",")
            dep_types.append(parser.parse_type())
        op = cls(
            parser.resolve_operand(alloc, alloc_type),
            parser.resolve_operand(phase, i32),
            None if pred is None else parser.resolve_operand(pred, i1),
            [parser.resolve_operand(d, t) for d, t in zip(deps, dep_types)],
        )
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.alloc)
        printer.print_string(", ")
        printer.print_operand(self.phase)
        if self.pred is not None:
            printer.print_string(", ")
            printer.print_operand(self.pred)
        if self.deps:
            printer.print_string(" deps ")
            printer.print_list(self.deps, printer.print_operand)
        print_sorted_attr_dict(printer, self, reserved=("operandSegmentSizes",))
        printer.print_string(" : ")
        printer.print_list([self.alloc.type, *self.deps.types], printer.print_attribute)


# ---------------------------------------------------------------------------
# TMA
# ---------------------------------------------------------------------------


def _verify_tma_block(desc: Attribute, buffer: Attribute) -> None:
    """The descriptor's block and the shared buffer agree in shape and element type."""
    assert isinstance(desc, TensorDescType) and isinstance(buffer, MemDescType)
    if tuple(desc.shape) != buffer.get_shape() or desc.element_type != buffer.element_type:
        raise VerifyException(
            "the tensor descriptor's block and the shared-memory buffer must have the same shape and element type"
        )


@irdl_op_definition
class AsyncTMACopyGlobalToLocalOp(IRDLOperation):
    """Start a TMA load of one block at ``coord`` into a shared buffer, signalling ``barrier``.

    ``ttng.async_tma_copy_global_to_local %desc[%x, %y] %buf, %bar, %pred
    : !tt.tensordesc<128x64xf16, #shared>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>``
    """

    name = "ttng.async_tma_copy_global_to_local"

    desc = operand_def(TensorDescType)
    coord = var_operand_def(i32)
    result = operand_def(MemDescType)
    barrier = operand_def(MemDescType)
    pred = operand_def(i1)

    isVolatile = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$desc `[` $coord `]` $result `,` $barrier `,` $pred attr-dict `:` "
        "type($desc) `,` type($barrier) `->` type($result)"
    )

    def __init__(
        self, desc: SSAValue, coord: Sequence[SSAValue], result: SSAValue, barrier: SSAValue, pred: SSAValue
    ):
        super().__init__(operands=[desc, list(coord), result, barrier, pred])

    def verify_(self) -> None:
        dst = self.result.type
        assert isinstance(dst, MemDescType)
        if not dst.is_mutable:
            raise VerifyException("Cannot store into immutable memory")
        if "cache" in self.attributes or "evict" in self.attributes:
            raise VerifyException("use cachePolicy instead of legacy cache/evict attributes")
        if self.isVolatile.value.data:
            raise VerifyException("volatile TMA loads are not supported")
        _verify_tma_block(self.desc.type, dst)


@irdl_op_definition
class AsyncTMACopyLocalToGlobalOp(IRDLOperation):
    """Start a TMA store of a shared buffer to the block at ``coord``.

    ``ttng.async_tma_copy_local_to_global %desc[%x, %y] %buf
    : !tt.tensordesc<128x128xf16, #shared>, !ttg.memdesc<128x128xf16, #shared, #smem>``
    """

    name = "ttng.async_tma_copy_local_to_global"

    desc = operand_def(TensorDescType)
    coord = var_operand_def(i32)
    src = operand_def(MemDescType)

    assembly_format = "$desc `[` $coord `]` $src attr-dict `:` type($desc) `,` type($src)"

    def __init__(self, desc: SSAValue, coord: Sequence[SSAValue], src: SSAValue):
        super().__init__(operands=[desc, list(coord), src])

    def verify_(self) -> None:
        _verify_tma_block(self.desc.type, self.src.type)


@irdl_op_definition
class AsyncTMAStoreWaitOp(IRDLOperation):
    """Wait until at most ``pendings`` TMA stores are still reading shared memory.

    ``ttng.async_tma_store_wait {pendings = 0 : i32}``
    """

    name = "ttng.async_tma_store_wait"

    pendings = prop_def(IntegerAttr[IntegerType])

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self, pendings: int):
        super().__init__(properties={"pendings": _i32(pendings)})


TTNG_OPS: tuple[type[IRDLOperation], ...] = (
    WarpGroupDotOp,
    WarpGroupDotWaitOp,
    FenceAsyncSharedOp,
    InitBarrierOp,
    InvalBarrierOp,
    BarrierExpectOp,
    WaitBarrierOp,
    AsyncTMACopyGlobalToLocalOp,
    AsyncTMACopyLocalToGlobalOp,
    AsyncTMAStoreWaitOp,
)

TTNG = Dialect("ttng", list(TTNG_OPS), [TensorMemorySpaceAttr])
