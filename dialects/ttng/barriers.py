"""Fences, mbarriers and cluster synchronisation.

``ttng.fence_async_shared``, ``ttng.fence_mbarrier_init_release_cluster``,
``ttng.cluster_barrier``, ``ttng.init_barrier``, ``ttng.inval_barrier``,
``ttng.barrier_expect``, ``ttng.wait_barrier``, ``ttng.arrive_barrier``,
``ttng.async_copy_mbarrier_arrive``. None is pure: each reads or writes a barrier or
orders memory, so none may be removed when unused. An mbarrier operand is an
``Nxi64`` memdesc with N at most the number of CTAs (Triton's ``verifyBarrierType``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from ltc.dialects.tt.checks import nested_in
from ltc.dialects.ttg import MemDescType
from ltc.dialects.ttng.common import (
    TTNGOp,
    i32_attr,
    int_value,
    num_ctas,
    print_types,
    verify_barrier_type,
)
from xdsl.dialects.builtin import BoolAttr, IntegerAttr, IntegerType, StringAttr, UnitAttr, i1, i32
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

__all__ = [
    "ArriveBarrierOp",
    "AsyncCopyMbarrierArriveOp",
    "BarrierExpectOp",
    "ClusterBarrierOp",
    "FenceAsyncSharedOp",
    "FenceMBarrierInitReleaseClusterOp",
    "InitBarrierOp",
    "InvalBarrierOp",
    "WaitBarrierOp",
]

_FALSE = IntegerAttr.from_bool(False)


def _require_multi_cta(op: TTNGOp) -> None:
    if num_ctas(op) <= 1:
        raise VerifyException("requires ttg.num-ctas > 1")


def _verify_from_cta(op: TTNGOp, barrier: Attribute, from_cta: int | None) -> None:
    """``fromCTA`` selects the CTA routing the arrival; it needs one barrier per CTA."""
    if from_cta is None:
        return
    n = num_ctas(op)
    if from_cta >= n:
        raise VerifyException("fromCTA must be in the range [0, num_ctas - 1]")
    assert isinstance(barrier, MemDescType)
    if barrier.get_shape() != (n,):
        raise VerifyException("fromCTA requires a 1D barrier with one element per CTA and canonical CGA layout")


# ---------------------------------------------------------------------------
# fences and cluster barriers (syntax: attr-dict only)
# ---------------------------------------------------------------------------


@irdl_op_definition
class FenceAsyncSharedOp(TTNGOp):
    """Order generic-proxy shared-memory accesses before async-proxy ones (TMA, wgmma).

    ``ttng.fence_async_shared {bCluster = false}``
    """

    name = "ttng.fence_async_shared"

    bCluster = prop_def(BoolAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self, b_cluster: bool = False):
        super().__init__(properties={"bCluster": IntegerAttr.from_bool(b_cluster)})


@irdl_op_definition
class FenceMBarrierInitReleaseClusterOp(TTNGOp):
    """Make mbarrier initialisation visible to the cluster: ``ttng.fence_mbarrier_init_release_cluster``."""

    name = "ttng.fence_mbarrier_init_release_cluster"

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()

    def verify_(self) -> None:
        _require_multi_cta(self)


@irdl_op_definition
class ClusterBarrierOp(TTNGOp):
    """Synchronise all warps of the cluster: ``ttng.cluster_barrier [{relaxed = true}]``."""

    name = "ttng.cluster_barrier"

    relaxed = prop_def(BoolAttr, default_value=_FALSE)

    PROPERTIES: ClassVar[tuple[str, ...]] = ("relaxed",)
    DEFAULTS: ClassVar[Mapping[str, Attribute]] = {"relaxed": _FALSE}

    def __init__(self, relaxed: bool = False):
        super().__init__(properties={"relaxed": IntegerAttr.from_bool(relaxed)})

    @classmethod
    def parse(cls, parser: Parser) -> ClusterBarrierOp:
        props, attrs = cls.parse_dict(parser)
        return cls.create(properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        self.print_dict(printer)

    def verify_(self) -> None:
        # Triton's rule: inside a function that is a kernel (public), or a tt.func the
        # inliner will move into one (not noinline)
        _require_multi_cta(self)
        func = self.parent_op()
        while func is not None and func.name not in _FUNCTION_OPS:
            func = func.parent_op()
        if func is None:
            raise VerifyException("must be inside a kernel function")
        visibility = func.properties.get("sym_visibility") or func.attributes.get("sym_visibility")
        if not isinstance(visibility, StringAttr) or visibility.data == "public":
            return
        noinline = func.attributes.get("noinline") or func.properties.get("noinline")
        if func.name == "tt.func" and not (isinstance(noinline, IntegerAttr) and noinline.value.data):
            return
        raise VerifyException("must be inside a kernel function")


_FUNCTION_OPS = frozenset({"tt.func", "llvm.func", "func.func"})


# ---------------------------------------------------------------------------
# mbarriers
# ---------------------------------------------------------------------------


class _BarrierCountOp(TTNGOp):
    """``NAME %alloc, N ...`` where N is the ``COUNT`` property, printed bare."""

    COUNT: ClassVar[str]

    def count_value(self) -> int:
        value = int_value(self.properties.get(self.COUNT))
        assert value is not None
        return value


@irdl_op_definition
class InitBarrierOp(_BarrierCountOp):
    """Initialise an mbarrier with its arrival count.

    ``ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>``
    """

    name = "ttng.init_barrier"

    alloc = operand_def(MemDescType)
    count = prop_def(IntegerAttr[IntegerType])

    COUNT: ClassVar[str] = "count"
    PROPERTIES: ClassVar[tuple[str, ...]] = ("count",)

    def __init__(self, alloc: SSAValue, count: int):
        super().__init__(operands=[alloc], properties={"count": i32_attr(count)})

    @classmethod
    def parse(cls, parser: Parser) -> InitBarrierOp:
        alloc = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        count = parser.parse_integer(allow_boolean=False)
        props, attrs = cls.parse_dict(parser)
        parser.parse_punctuation(":")
        alloc_type = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(alloc, alloc_type)],
            properties={**props, "count": i32_attr(count)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.alloc)
        printer.print_string(f", {self.count_value()}")
        self.print_dict(printer, reserved=("count",))
        printer.print_string(" : ")
        printer.print_attribute(self.alloc.type)

    def verify_(self) -> None:
        verify_barrier_type(self, self.alloc.type)
        if self.count_value() < 1:
            raise VerifyException("count must be greater than or equal to 1")
        # A barrier spanning CTAs needs a cluster barrier between its init and first
        # use, which cannot be placed inside warp specialization.
        barrier = self.alloc.type
        assert isinstance(barrier, MemDescType)
        if barrier.get_shape()[0] != num_ctas(self) and _inside_warp_specialize(self):
            raise VerifyException("cannot be used inside `ttg.warp_specialize`")


def _inside_warp_specialize(op: TTNGOp) -> bool:
    return nested_in(op, "ttg.warp_specialize")


@irdl_op_definition
class InvalBarrierOp(TTNGOp):
    """Invalidate an mbarrier.

    ``ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #shared1, #smem, mutable>``
    """

    name = "ttng.inval_barrier"

    alloc = operand_def(MemDescType)

    assembly_format = "$alloc attr-dict `:` type($alloc)"

    def __init__(self, alloc: SSAValue):
        super().__init__(operands=[alloc])

    def verify_(self) -> None:
        verify_barrier_type(self, self.alloc.type)


@irdl_op_definition
class BarrierExpectOp(_BarrierCountOp):
    """Tell an mbarrier to expect ``size`` bytes of async (TMA) traffic, if ``pred``.

    ``ttng.barrier_expect %bar, 32768 [{fromCTA = 0 : i32}], %pred : !ttg.memdesc<1xi64, ...>``
    (Triton writes the ``{...}`` before the predicate).
    """

    name = "ttng.barrier_expect"

    alloc = operand_def(MemDescType)
    pred = operand_def(i1)
    size = prop_def(IntegerAttr[IntegerType])
    fromCTA = opt_prop_def(IntegerAttr[IntegerType])

    COUNT: ClassVar[str] = "size"
    PROPERTIES: ClassVar[tuple[str, ...]] = ("size", "fromCTA")

    def __init__(self, alloc: SSAValue, size: int, pred: SSAValue, from_cta: int | None = None):
        props: dict[str, Attribute] = {"size": i32_attr(size)}
        if from_cta is not None:
            props["fromCTA"] = i32_attr(from_cta)
        super().__init__(operands=[alloc, pred], properties=props)

    @classmethod
    def parse(cls, parser: Parser) -> BarrierExpectOp:
        alloc = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        size = parser.parse_integer(allow_boolean=False)
        props, attrs = cls.parse_dict(parser)
        parser.parse_punctuation(",")
        pred = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        alloc_type = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(alloc, alloc_type), parser.resolve_operand(pred, i1)],
            properties={**props, "size": i32_attr(size)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.alloc)
        printer.print_string(f", {self.count_value()}")
        self.print_dict(printer, reserved=("size",))
        printer.print_string(", ")
        printer.print_operand(self.pred)
        printer.print_string(" : ")
        printer.print_attribute(self.alloc.type)

    def verify_(self) -> None:
        verify_barrier_type(self, self.alloc.type)
        _verify_from_cta(self, self.alloc.type, int_value(self.fromCTA))


@irdl_op_definition
class ArriveBarrierOp(_BarrierCountOp):
    """Arrive on an mbarrier ``count`` times (if ``pred``), possibly multicast.

    ``ttng.arrive_barrier %bar, 2[, %pred] [{fromCTA = 0 : i32, multicastCTA = 1 : i32}] : !ttg.memdesc<...>``
    """

    name = "ttng.arrive_barrier"

    alloc = operand_def(MemDescType)
    pred = opt_operand_def(i1)
    count = prop_def(IntegerAttr[IntegerType])
    fromCTA = opt_prop_def(IntegerAttr[IntegerType])
    multicastCTA = prop_def(IntegerAttr[IntegerType], default_value=i32_attr(0))

    COUNT: ClassVar[str] = "count"
    PROPERTIES: ClassVar[tuple[str, ...]] = ("count", "fromCTA", "multicastCTA")
    DEFAULTS: ClassVar[Mapping[str, Attribute]] = {"multicastCTA": i32_attr(0)}

    def __init__(self, alloc: SSAValue, count: int, pred: SSAValue | None = None):
        super().__init__(
            operands=[alloc, [pred] if pred is not None else []],
            properties={"count": i32_attr(count), "multicastCTA": i32_attr(0)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> ArriveBarrierOp:
        alloc = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        count = parser.parse_integer(allow_boolean=False)
        pred = None
        if parser.parse_optional_punctuation(",") is not None:
            pred = parser.parse_unresolved_operand()
        props, attrs = cls.parse_dict(parser)
        parser.parse_punctuation(":")
        alloc_type = parser.parse_type()
        operands = [parser.resolve_operand(alloc, alloc_type)]
        if pred is not None:
            operands.append(parser.resolve_operand(pred, i1))
        return cls.create(operands=operands, properties={**props, "count": i32_attr(count)}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.alloc)
        printer.print_string(f", {self.count_value()}")
        if self.pred is not None:
            printer.print_string(", ")
            printer.print_operand(self.pred)
        self.print_dict(printer, reserved=("count",))
        printer.print_string(" : ")
        printer.print_attribute(self.alloc.type)

    def verify_(self) -> None:
        verify_barrier_type(self, self.alloc.type)
        if self.count_value() < 1:
            raise VerifyException("count must be greater than or equal to 1")
        multicast = int_value(self.multicastCTA) or 0
        n = num_ctas(self)
        if multicast:
            if n <= 1:
                raise VerifyException("multicast arrive requires num_ctas > 1")
            if multicast > n - 1:
                raise VerifyException("multicastCTA exceeds numCTAs - 1")
        from_cta = int_value(self.fromCTA)
        _verify_from_cta(self, self.alloc.type, from_cta)
        if multicast and from_cta is not None and from_cta != n - 1:
            raise VerifyException("fromCTA cannot be combined with multicast arrive")


@irdl_op_definition
class WaitBarrierOp(TTNGOp):
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
        _, attrs = cls.parse_dict(parser)
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
        self.print_dict(printer)
        printer.print_string(" : ")
        print_types(printer, [self.alloc.type, *self.deps.types])

    def verify_(self) -> None:
        verify_barrier_type(self, self.alloc.type)


@irdl_op_definition
class AsyncCopyMbarrierArriveOp(TTNGOp):
    """Arrive on an mbarrier once the thread's earlier cp.async copies complete.

    ``ttng.async_copy_mbarrier_arrive %bar [{noIncrement}] : !ttg.memdesc<1xi64, ...>``
    """

    name = "ttng.async_copy_mbarrier_arrive"

    barrier = operand_def(MemDescType)
    noIncrement = opt_prop_def(UnitAttr)

    PROPERTIES: ClassVar[tuple[str, ...]] = ("noIncrement",)

    def __init__(self, barrier: SSAValue, no_increment: bool = False):
        super().__init__(operands=[barrier], properties={"noIncrement": UnitAttr()} if no_increment else {})

    @classmethod
    def parse(cls, parser: Parser) -> AsyncCopyMbarrierArriveOp:
        barrier = parser.parse_unresolved_operand()
        props, attrs = cls.parse_dict(parser)
        parser.parse_punctuation(":")
        barrier_type = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(barrier, barrier_type)], properties=props, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.barrier)
        self.print_dict(printer)
        printer.print_string(" : ")
        printer.print_attribute(self.barrier.type)

    def verify_(self) -> None:
        verify_barrier_type(self, self.barrier.type)
