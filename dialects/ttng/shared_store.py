"""``ttng.async_shared_store``: store registers to (possibly another CTA's) shared
memory with ``st.async``; completion decrements an mbarrier's transaction count.

``ttng.async_shared_store %x, %buf, %bar : tensor<128x64xf16, #blocked>
-> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>``
"""

from __future__ import annotations

from ltc.dialects.ttg import MemDescType
from ltc.dialects.ttng.common import (
    TTNGOp,
    num_ctas,
    verify_barrier_type,
    verify_same_shape_and_element,
)
from xdsl.dialects.builtin import TensorType
from xdsl.irdl import irdl_op_definition, operand_def
from xdsl.utils.exceptions import VerifyException

__all__ = ["AsyncSharedStoreOp"]


@irdl_op_definition
class AsyncSharedStoreOp(TTNGOp):
    """Asynchronous register-to-shared store (needs a cluster of at least two CTAs).

    Not checked here: Triton's rule that the layouts vectorise stores to 32 bits."""

    name = "ttng.async_shared_store"

    src = operand_def(TensorType)
    dst = operand_def(MemDescType)
    mbarrier = operand_def(MemDescType)

    assembly_format = "$src `,` $dst `,` $mbarrier attr-dict `:` type($src) `->` type($dst) `,` type($mbarrier)"

    def verify_(self) -> None:
        if num_ctas(self) < 2:
            raise VerifyException("requires at least two CTAs in the cluster")
        dst = self.dst.type
        assert isinstance(dst, MemDescType)
        if not dst.is_mutable:
            raise VerifyException("cannot store into immutable memory")
        verify_same_shape_and_element(self.src.type, dst)
        verify_barrier_type(self, self.mbarrier.type)
