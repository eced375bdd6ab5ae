"""The LLVM casts xDSL 0.74's ``llvm`` dialect lacks, under LLVM's own names.

``llvm.fptosi`` / ``llvm.fptoui`` (float to signed / unsigned integer, rounding toward
zero) and ``llvm.uitofp`` (unsigned integer to float) have the shape of xDSL's
``llvm.sitofp``: one operand, one result, ``"llvm.fptosi"(%x) : (f32) -> i32`` in generic
form. :data:`LLVM` is xDSL's ``llvm`` dialect with these three added; the Triton
context registers it in place of xDSL's.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.llvm import GenericCastOp
from xdsl.ir import Dialect
from xdsl.irdl import irdl_op_definition


@irdl_op_definition
class FPToSIOp(GenericCastOp):
    """Float to signed integer, rounding toward zero (LLVM ``fptosi``)."""

    name = "llvm.fptosi"


@irdl_op_definition
class FPToUIOp(GenericCastOp):
    """Float to unsigned integer, rounding toward zero (LLVM ``fptoui``)."""

    name = "llvm.fptoui"


@irdl_op_definition
class UIToFPOp(GenericCastOp):
    """Unsigned integer to float, rounding to nearest even (LLVM ``uitofp``)."""

    name = "llvm.uitofp"


LLVM = Dialect(
    "llvm",
    [*llvm.LLVM.operations, FPToSIOp, FPToUIOp, UIToFPOp],
    list(llvm.LLVM.attributes),
)
