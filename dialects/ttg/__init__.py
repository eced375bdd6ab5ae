"""The ``ttg`` dialect (Triton 3.9's TritonGPU dialect) for xDSL, one module per op family.

* ``types``: ``#ttg.shared_memory``, ``!ttg.async.token``, ``!ttg.memdesc`` and the
  helpers the ops share (``shape_of_shaped``, ``attr_text``, ``dims_text``).
* ``convert_layout``: ``ttg.convert_layout`` and its canonicalization patterns
  (``CONVERT_LAYOUT_PATTERNS``, ``same_layout``).
* ``memory``: ``ttg.local_alloc``, ``ttg.local_load``, ``ttg.local_store``,
  ``ttg.local_dealloc``, the ``ttg.memdesc_*`` views (``memdesc_reshape`` too),
  ``ttg.global_scratch_alloc``, ``ttg.local_gather`` / ``local_scatter`` /
  ``local_atomic_scatter_rmw``.
* ``async_copy``: ``ttg.async_copy_global_to_local``, ``ttg.async_commit_group``,
  ``ttg.async_wait``, ``ttg.barrier``.
* ``warp_specialize``: ``ttg.warp_specialize`` with its partitions holder,
  ``ttg.warp_yield``, ``ttg.warp_return``, and ``ttg.warp_id``.
* ``upcast``: ``ttg.fp4_to_fp``.
* ``pipeline``: ``ttg.predicate_stage``, ``ttg.mask``, ``ttg.mask.return``.

The layout attributes (``#ttg.blocked``, ...) live in ``ltc.dialects.ttg_attrs``;
``TTG`` registers them with the types above. Every op parses and prints Triton 3.9's
text (checked against Triton itself in ``tests/test_dialect_ttg.py``); verifiers
check what Triton checks, with Triton's messages.
This package re-exports every public name of its modules and defines ``TTG``.
"""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation

from ltc.dialects.ttg.types import (
    SharedMemorySpaceAttr,
    AsyncTokenType,
    MemDescType,
    shape_of_shaped,
    attr_text,
    dims_text,
)
from ltc.dialects.ttg.memory import (
    LocalAllocOp,
    LocalLoadOp,
    LocalStoreOp,
    LocalDeallocOp,
    MemDescTransOp,
    MemDescIndexOp,
    MemDescSubsliceOp,
    MemDescReinterpretOp,
    GlobalScratchAllocOp,
    MemDescReshapeOp,
    LocalGatherOp,
    LocalScatterOp,
    LocalAtomicScatterRMWOp,
)
from ltc.dialects.ttg.convert_layout import (
    ConvertLayoutOp,
    same_layout,
    FoldIdentityConvert,
    FoldConvertChain,
    RematerializeConvertedSource,
    CONVERT_LAYOUT_PATTERNS,
)
from ltc.dialects.ttg.async_copy import (
    AsyncCopyGlobalToLocalOp,
    AsyncCommitGroupOp,
    AsyncWaitOp,
    BarrierOp,
)
from ltc.dialects.ttg.warp_specialize import (
    WarpSpecializeOp,
    WarpSpecializePartitionsOp,
    WarpYieldOp,
    WarpReturnOp,
    WarpIdOp,
)
from ltc.dialects.ttg.pipeline import PredicateStageOp, MaskOp, MaskReturnOp
from ltc.dialects.ttg.upcast import Fp4ToFpOp, fp4_source_layout
from ltc.dialects.ttg_attrs import TTG_ATTRS

__all__ = [
    "CONVERT_LAYOUT_PATTERNS",
    "TTG",
    "TTG_OPS",
    "AsyncCommitGroupOp",
    "AsyncCopyGlobalToLocalOp",
    "AsyncTokenType",
    "AsyncWaitOp",
    "BarrierOp",
    "ConvertLayoutOp",
    "FoldConvertChain",
    "FoldIdentityConvert",
    "GlobalScratchAllocOp",
    "LocalAllocOp",
    "LocalDeallocOp",
    "LocalLoadOp",
    "LocalStoreOp",
    "MemDescIndexOp",
    "MemDescReinterpretOp",
    "MemDescSubsliceOp",
    "MemDescTransOp",
    "MemDescType",
    "RematerializeConvertedSource",
    "SharedMemorySpaceAttr",
    "attr_text",
    "dims_text",
    "same_layout",
    "shape_of_shaped",
    "WarpIdOp",
    "Fp4ToFpOp",
    "PredicateStageOp",
    "MaskOp",
    "MaskReturnOp",
    "MemDescReshapeOp",
    "LocalGatherOp",
    "LocalScatterOp",
    "LocalAtomicScatterRMWOp",
    "fp4_source_layout",
    "WarpReturnOp",
    "WarpSpecializeOp",
    "WarpSpecializePartitionsOp",
    "WarpYieldOp",
]

TTG_OPS: tuple[type[IRDLOperation], ...] = (
    ConvertLayoutOp,
    LocalAllocOp,
    LocalLoadOp,
    LocalStoreOp,
    LocalDeallocOp,
    MemDescTransOp,
    MemDescIndexOp,
    MemDescSubsliceOp,
    MemDescReinterpretOp,
    GlobalScratchAllocOp,
    MemDescReshapeOp,
    LocalGatherOp,
    LocalScatterOp,
    LocalAtomicScatterRMWOp,
    AsyncCopyGlobalToLocalOp,
    AsyncCommitGroupOp,
    AsyncWaitOp,
    BarrierOp,
    WarpSpecializeOp,
    WarpSpecializePartitionsOp,
    WarpYieldOp,
    WarpReturnOp,
    WarpIdOp,
    Fp4ToFpOp,
    PredicateStageOp,
    MaskOp,
    MaskReturnOp,
)
"""Every ``ttg`` op, in the order ``TTG`` registers them."""

TTG = Dialect(
    "ttg",
    list(TTG_OPS),
    [*TTG_ATTRS, MemDescType, SharedMemorySpaceAttr, AsyncTokenType],
)
