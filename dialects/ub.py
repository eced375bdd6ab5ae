"""The ``ub`` dialect (MLIR's undefined-behaviour ops): ``ub.poison``.

``%0 = ub.poison : tensor<128x64xf16>`` stands for a value of any type whose
contents are undefined; Triton uses it for loop-carried values that are written
before they are read (a descriptor, a buffer, an accumulator).
"""

from __future__ import annotations

from xdsl.ir import Attribute, Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, result_def, traits_def
from xdsl.traits import ConstantLike, Pure

__all__ = ["UB", "PoisonOp"]


@irdl_op_definition
class PoisonOp(IRDLOperation):
    """``%p = ub.poison : T``: an undefined value of type ``T``."""

    name = "ub.poison"

    result = result_def()

    traits = traits_def(Pure(), ConstantLike())

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: Attribute):
        super().__init__(result_types=[result_type])


UB = Dialect("ub", [PoisonOp], [])
