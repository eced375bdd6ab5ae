"""The ROCDL ops (MLIR's AMDGPU dialect of LLVM) that appear in Triton's IR: ``rocdl.barrier``.

``rocdl.barrier [{...}]`` synchronises the workgroup (``s_barrier``). MLIR declares no
effects for it, so it is not pure. Only the ops Triton's tests write are here; NVVM's
``nvvm.barrier0``, which older tests use, is not: Triton 3.9's parser rejects it.
"""

from __future__ import annotations

from ltc.dialects.attr_dict import parse_attr_dict_into, print_sorted_attr_dict
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition
from xdsl.parser import Parser
from xdsl.printer import Printer

__all__ = ["ROCDL", "BarrierOp"]


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """``rocdl.barrier``: wait until every thread of the workgroup reaches this point."""

    name = "rocdl.barrier"

    def __init__(self) -> None:
        super().__init__()

    @classmethod
    def parse(cls, parser: Parser) -> BarrierOp:
        _, attrs = parse_attr_dict_into(parser, ())
        return cls.create(attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_sorted_attr_dict(printer, self)


ROCDL = Dialect("rocdl", [BarrierOp], [])
