"""Cluster launch control (Blackwell dynamic persistent kernels).

``ttng.clc_try_cancel`` (asynchronously cancel a pending cluster; the 16-byte
response lands in a ``2xi64`` shared buffer, an mbarrier signals it),
``ttng.clc_try_cancel_sync``, ``ttng.clc_load_result`` (response to an ``i128``),
``ttng.clc_is_canceled`` and ``ttng.clc_get_program_id`` (decode it; pure).
"""

from __future__ import annotations

from typing import ClassVar

from ltc.dialects.tt import ProgramIDDimAttr
from ltc.dialects.ttg import MemDescType, attr_text
from ltc.dialects.ttng.common import (
    TTNGOp,
    bases_text,
    cga_bases_of,
    is_contiguous_unswizzled,
    verify_barrier_type,
    verify_completion_barrier,
)
from xdsl.dialects.builtin import BoolAttr, IntegerType, TensorType, i1, i32
from xdsl.ir import Attribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, Pure
from xdsl.utils.exceptions import VerifyException

__all__ = ["CLCGetProgramIdOp", "CLCIsCanceledOp", "CLCLoadResultOp", "CLCTryCancelOp", "CLCTryCancelSyncOp"]

i128 = IntegerType(128)


def _verify_response_buffer(desc: Attribute) -> None:
    assert isinstance(desc, MemDescType)
    elem = desc.element_type
    if not (isinstance(elem, IntegerType) and elem.width.data == 64):
        raise VerifyException(f"Expected CLC result buffer to have type int64, but got{attr_text(elem)}")
    if desc.get_shape() != (2,):
        raise VerifyException(
            "Expected CLC result buffer to have rank 1 and a single dimension equal to 2, but got "
            f"{', '.join(map(str, desc.get_shape()))}."
        )
    if not is_contiguous_unswizzled(desc):
        raise VerifyException("CLC result buffer must have a contiguous shared-memory layout without subviews")
    bases = cga_bases_of(desc)
    if any(any(b) for b in bases):
        raise VerifyException(f"Expected CLC result buffer cga_layout bases to be all zeros. Got {bases_text(bases)}")


@irdl_op_definition
class CLCTryCancelOp(TTNGOp):
    """``ttng.clc_try_cancel %resp, %bar [{multicast = true}] : !ttg.memdesc<2xi64, ...>, !ttg.memdesc<1xi64, ...>``"""

    name = "ttng.clc_try_cancel"

    result = operand_def(MemDescType)
    mbarrier = operand_def(MemDescType)
    multicast = opt_prop_def(BoolAttr)

    PROPERTIES: ClassVar[tuple[str, ...]] = ("multicast",)

    @classmethod
    def parse(cls, parser: Parser) -> CLCTryCancelOp:
        result = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        barrier = parser.parse_unresolved_operand()
        props, attrs = cls.parse_dict(parser)
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        parser.parse_punctuation(",")
        barrier_type = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(result, result_type), parser.resolve_operand(barrier, barrier_type)],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.result, self.mbarrier], printer.print_operand)
        self.print_dict(printer)
        printer.print_string(" : ")
        printer.print_list([self.result.type, self.mbarrier.type], printer.print_attribute)

    def verify_(self) -> None:
        _verify_response_buffer(self.result.type)
        verify_barrier_type(self, self.mbarrier.type)
        verify_completion_barrier(self, self.mbarrier.type)


@irdl_op_definition
class CLCTryCancelSyncOp(TTNGOp):
    """Cancel a pending cluster and wait for the response: ``%r = ttng.clc_try_cancel_sync : tensor<2xi64, #l>``."""

    name = "ttng.clc_try_cancel_sync"

    response = result_def(TensorType)

    assembly_format = "attr-dict `:` type($response)"

    def verify_(self) -> None:
        response = self.response.type
        assert isinstance(response, TensorType)
        if tuple(response.get_shape()) != (2,):
            raise VerifyException("response must have shape [2]")


@irdl_op_definition
class CLCLoadResultOp(TTNGOp):
    """``%r = ttng.clc_load_result %resp : !ttg.memdesc<2xi64, #shared, #smem> -> i128``"""

    name = "ttng.clc_load_result"

    src = operand_def(MemDescType)
    clcResult = result_def(i128)

    traits = traits_def(MemoryReadEffect())

    assembly_format = "$src attr-dict `:` type($src) `->` type($clcResult)"

    def verify_(self) -> None:
        _verify_response_buffer(self.src.type)


@irdl_op_definition
class CLCIsCanceledOp(TTNGOp):
    """``%c = ttng.clc_is_canceled %r : i128 -> i1``"""

    name = "ttng.clc_is_canceled"

    clcResult = operand_def(i128)
    is_canceled = result_def(i1)

    traits = traits_def(Pure())

    assembly_format = "$clcResult attr-dict `:` type($clcResult) `->` type($is_canceled)"


@irdl_op_definition
class CLCGetProgramIdOp(TTNGOp):
    """``%pid = ttng.clc_get_program_id %r, x : i128 -> i32``"""

    name = "ttng.clc_get_program_id"

    clcResult = operand_def(i128)
    dim = prop_def(ProgramIDDimAttr)
    result = result_def(i32)

    traits = traits_def(Pure())

    assembly_format = "$clcResult `,` $dim attr-dict `:` type($clcResult) `->` type($result)"
