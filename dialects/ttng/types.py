"""The ``ttng`` types: ``!ttng.tensordesc_im2col<16x64xf32[, #shared]>``.

An im2col TMA descriptor (convolution-friendly loads): written like
``!tt.tensordesc`` (the block's shape, element type and optional shared layout),
accepted by ``ttng.async_tma_copy_global_to_local`` with im2col ``offsets``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ltc.dialects.tt import TensorDescType
from ltc.dialects.tt.types import BlockTypeView
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

__all__ = ["AnyTensorDesc", "TensorDescIm2ColType"]


@irdl_attr_definition
class TensorDescIm2ColType(BlockTypeView, ParametrizedAttribute, TypeAttribute):
    """``!ttng.tensordesc_im2col<64x128xf16, #nvmma>``: the block type, as ``!tt.tensordesc``."""

    name = "ttng.tensordesc_im2col"

    block_type: TensorType

    def __init__(self, block_type: TensorType):
        super().__init__(block_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return TensorDescType.parse_parameters(parser)

    def print_parameters(self, printer: Printer) -> None:
        TensorDescType(self.block_type).print_parameters(printer)

    def verify(self) -> None:
        rank = len(self.block_type.get_shape())
        if rank != 2:
            raise VerifyException(f"TensorDescIm2ColType requires rank-2 shape, got rank {rank}")


AnyTensorDesc = TensorDescType | TensorDescIm2ColType
"""Either kind of TMA descriptor (Triton's ``TT_AnyTensorDescType``)."""
