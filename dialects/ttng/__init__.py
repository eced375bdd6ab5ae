"""The ``ttng`` dialect (Triton 3.9's TritonNvidiaGPU dialect) for xDSL, one module per op family.

* ``attrs``: ``#ttng.tensor_memory``, ``#ttng.tensor_memory_encoding``,
  ``#ttng.tensor_memory_scales_encoding``, ``#ttng.redOp``, the scaled-MMA formats.
* ``types``: ``!ttng.tensordesc_im2col``.
* ``common``: syntax pieces and the checks the op modules share.
* ``wgmma``: ``ttng.warp_group_dot``, ``ttng.warp_group_dot_wait`` (Hopper).
* ``barriers``: fences, mbarriers, ``ttng.cluster_barrier``.
* ``tma``: TMA loads, stores, reductions, gathers, scatters and device-side descriptors.
* ``tmem``: tensor-memory allocation, loads, stores, views, copies, waits (Blackwell).
* ``mma``: ``ttng.tc_gen5_mma``, ``ttng.tc_gen5_mma_scaled``, ``ttng.tc_gen5_commit``.
* ``clc``: cluster launch control.
* ``shared_store``: ``ttng.async_shared_store``.

Every op parses and prints Triton 3.9's text (checked against Triton itself in
``tests/test_dialect_ttng.py`` and ``tests/test_dialect_ttng_blackwell.py``);
verifiers check what Triton checks, with Triton's messages, except the rules that
need CTA layouts or tensor-memory register layouts (said in each module). Ops with
side effects have no ``Pure`` trait, so dead-code elimination keeps them.
Not in Triton 3.9 (so not here): ``ttng.cluster_arrive``, ``ttng.cluster_wait``,
``ttng.async_tma_prefetch``. Not yet here: ``ttng.packed_arith``.
This package re-exports every public name of its modules and defines ``TTNG``.
"""

from __future__ import annotations

from ltc.dialects.ttng.attrs import (
    ScaleDotElemType,
    ScaleDotElemTypeAttr,
    TensorMemoryEncodingAttr,
    TensorMemoryScalesBlockRepOrder,
    TensorMemoryScalesEncodingAttr,
    TensorMemorySpaceAttr,
    TMEMLoadReduceModifier,
    TMEMLoadReduceModifierAttr,
)
from ltc.dialects.ttng.barriers import (
    ArriveBarrierOp,
    AsyncCopyMbarrierArriveOp,
    BarrierExpectOp,
    ClusterBarrierOp,
    FenceAsyncSharedOp,
    FenceMBarrierInitReleaseClusterOp,
    InitBarrierOp,
    InvalBarrierOp,
    WaitBarrierOp,
)
from ltc.dialects.ttng.clc import (
    CLCGetProgramIdOp,
    CLCIsCanceledOp,
    CLCLoadResultOp,
    CLCTryCancelOp,
    CLCTryCancelSyncOp,
)
from ltc.dialects.ttng.mma import TCGen5CommitOp, TCGen5MMAOp, TCGen5MMAScaledOp
from ltc.dialects.ttng.shared_store import AsyncSharedStoreOp
from ltc.dialects.ttng.tma import (
    AsyncTMACopyGlobalToLocalOp,
    AsyncTMACopyLocalToGlobalOp,
    AsyncTMAGatherOp,
    AsyncTMAReduceOp,
    AsyncTMAScatterOp,
    AsyncTMAStoreWaitOp,
    ReinterpretTensorDescOp,
    TensormapCreateOp,
    TensormapFenceproxyAcquireOp,
)
from ltc.dialects.ttng.tmem import (
    TMEMAllocOp,
    TMEMCopyOp,
    TMEMLoadOp,
    TMEMStoreOp,
    TMEMSubSliceOp,
    TMEMWaitKind,
    TMEMWaitOp,
)
from ltc.dialects.ttng.types import TensorDescIm2ColType
from ltc.dialects.ttng.wgmma import WarpGroupDotOp, WarpGroupDotWaitOp
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation

TTNG_OPS: tuple[type[IRDLOperation], ...] = (
    WarpGroupDotOp,
    WarpGroupDotWaitOp,
    FenceAsyncSharedOp,
    FenceMBarrierInitReleaseClusterOp,
    ClusterBarrierOp,
    InitBarrierOp,
    InvalBarrierOp,
    BarrierExpectOp,
    WaitBarrierOp,
    ArriveBarrierOp,
    AsyncCopyMbarrierArriveOp,
    AsyncTMACopyGlobalToLocalOp,
    AsyncTMACopyLocalToGlobalOp,
    AsyncTMAReduceOp,
    AsyncTMAGatherOp,
    AsyncTMAScatterOp,
    AsyncTMAStoreWaitOp,
    ReinterpretTensorDescOp,
    TensormapCreateOp,
    TensormapFenceproxyAcquireOp,
    TMEMAllocOp,
    TMEMLoadOp,
    TMEMStoreOp,
    TMEMSubSliceOp,
    TMEMCopyOp,
    TMEMWaitOp,
    TCGen5MMAOp,
    TCGen5MMAScaledOp,
    TCGen5CommitOp,
    CLCTryCancelOp,
    CLCTryCancelSyncOp,
    CLCLoadResultOp,
    CLCIsCanceledOp,
    CLCGetProgramIdOp,
    AsyncSharedStoreOp,
)

TTNG_ATTRS = (
    TensorMemorySpaceAttr,
    TensorMemoryEncodingAttr,
    TensorMemoryScalesEncodingAttr,
    TMEMLoadReduceModifierAttr,
    ScaleDotElemTypeAttr,
    TensorDescIm2ColType,
)

TTNG = Dialect("ttng", list(TTNG_OPS), list(TTNG_ATTRS))

__all__ = [
    "TTNG",
    "TTNG_ATTRS",
    "TTNG_OPS",
    "ArriveBarrierOp",
    "AsyncCopyMbarrierArriveOp",
    "AsyncSharedStoreOp",
    "AsyncTMACopyGlobalToLocalOp",
    "AsyncTMACopyLocalToGlobalOp",
    "AsyncTMAGatherOp",
    "AsyncTMAReduceOp",
    "AsyncTMAScatterOp",
    "AsyncTMAStoreWaitOp",
    "BarrierExpectOp",
    "CLCGetProgramIdOp",
    "CLCIsCanceledOp",
    "CLCLoadResultOp",
    "CLCTryCancelOp",
    "CLCTryCancelSyncOp",
    "ClusterBarrierOp",
    "FenceAsyncSharedOp",
    "FenceMBarrierInitReleaseClusterOp",
    "InitBarrierOp",
    "InvalBarrierOp",
    "ReinterpretTensorDescOp",
    "ScaleDotElemType",
    "ScaleDotElemTypeAttr",
    "TCGen5CommitOp",
    "TCGen5MMAOp",
    "TCGen5MMAScaledOp",
    "TMEMAllocOp",
    "TMEMCopyOp",
    "TMEMLoadOp",
    "TMEMLoadReduceModifier",
    "TMEMLoadReduceModifierAttr",
    "TMEMStoreOp",
    "TMEMSubSliceOp",
    "TMEMWaitKind",
    "TMEMWaitOp",
    "TensorDescIm2ColType",
    "TensorMemoryEncodingAttr",
    "TensorMemoryScalesBlockRepOrder",
    "TensorMemoryScalesEncodingAttr",
    "TensorMemorySpaceAttr",
    "TensormapCreateOp",
    "TensormapFenceproxyAcquireOp",
    "WaitBarrierOp",
    "WarpGroupDotOp",
    "WarpGroupDotWaitOp",
]
