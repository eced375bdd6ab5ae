"""xDSL's ``gpu`` dialect with the custom syntax Triton prints for ``gpu.barrier``.

xDSL 0.74's ``gpu.barrier`` has no custom format, so the bare ``gpu.barrier`` Triton
emits (a CTA-wide ``bar.sync``) would not parse. Every other op is xDSL's own.
"""

from __future__ import annotations

from xdsl.dialects import gpu as xdsl_gpu
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """Wait until every thread of the CTA reaches this point: ``gpu.barrier``."""

    name = "gpu.barrier"
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


GPU = Dialect(
    "gpu",
    [BarrierOp if op.name == "gpu.barrier" else op for op in xdsl_gpu.GPU.operations],
    list(xdsl_gpu.GPU.attributes),
)
