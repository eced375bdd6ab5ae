"""``convert-tritongpu-to-llvm``: tensor programs become per-thread LLVM-dialect programs.

Every ``tt.func`` becomes an ``llvm.func`` (a kernel: ``nvvm.kernel``, ``nvvm.reqntid`` =
num-warps × threads-per-warp). Each op is lowered, in program order, by its handler in
:data:`HANDLERS` (op name → function, one module per op family: ``control``,
``elementwise``, ``shape``, ``memory``, ``convert_layout``, ``reduce``, ``gather``,
``atomic``, ``histogram``), with the per-function state of
:mod:`ltc.lowering.llvm.function`; then pure ops left unused by the builder's rewrites
are removed. The scratch the functions claimed becomes one
``@global_smem`` array and the module's ``ttg.shared``.

A function of several blocks (early returns: ``cf.br`` / ``cf.cond_br``) is first
rewritten as nested ``scf.if`` (``ltc.passes.structurize_cf``); loops of branches are
refused by name. The output is the *lowered-IR contract* (what the emitters accept): one block per
function, only the llvm ops, intrinsics and inline PTX that :mod:`ltc.lowering.llvm.builder`
makes, and ``scf.for``/``scf.if``/``scf.yield``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
    i32,
)
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass

from ltc.dialects import tt
from ltc.hardware import MAX_SHARED_BYTES_PER_CTA, check_num_warps
from ltc.dialects.ttg_attrs import LayoutAttr
from ltc.lowering.llvm.builder import ThreadBuilder
from ltc.lowering.llvm.control import CONTROL_HANDLERS
from ltc.lowering.llvm.convert_layout import CONVERT_HANDLERS
from ltc.lowering.llvm.dot import DOT_HANDLERS
from ltc.lowering.llvm.elementwise import ELEMENTWISE_HANDLERS
from ltc.lowering.llvm.async_copy import ASYNC_COPY_HANDLERS
from ltc.lowering.llvm.atomic import ATOMIC_HANDLERS
from ltc.lowering.llvm.function import FunctionLowering, Handler, LoweringError, scalar_type
from ltc.lowering.llvm.gather import GATHER_HANDLERS
from ltc.lowering.llvm.histogram import HISTOGRAM_HANDLERS
from ltc.lowering.llvm.local_memory import LOCAL_MEMORY_HANDLERS
from ltc.lowering.llvm.memory import MEMORY_HANDLERS
from ltc.lowering.llvm.reduce import REDUCE_HANDLERS
from ltc.lowering.llvm.shape import SHAPE_HANDLERS
from ltc.lowering.llvm.shared_allocation import allocate_buffers
from ltc.passes.axis_info import AxisInfoAnalysis
from ltc.passes.layout_ir import ModuleConfig
from ltc.passes.strides import StrideAnalysis
from ltc.passes.structurize_cf import StructurizeError, structurize_function

__all__ = ["HANDLERS", "ConvertTritonGPUToLLVMPass", "lower_module", "remove_dead_ops"]

HANDLERS: Mapping[str, Handler] = {
    **CONTROL_HANDLERS,
    **ELEMENTWISE_HANDLERS,
    **SHAPE_HANDLERS,
    **MEMORY_HANDLERS,
    **CONVERT_HANDLERS,
    **REDUCE_HANDLERS,
    **GATHER_HANDLERS,
    **ATOMIC_HANDLERS,
    **HISTOGRAM_HANDLERS,
    **LOCAL_MEMORY_HANDLERS,
    **ASYNC_COPY_HANDLERS,
    **DOT_HANDLERS,
}
"""Every op the pass lowers, by name."""


_PURE_INTRINSIC_PREFIX = "llvm.nvvm.read.ptx.sreg."


def _is_pure(op: Operation) -> bool:
    """Whether ``op`` may be dropped when its results are unused."""
    if isinstance(op, llvm.InlineAsmOp):
        return op.has_side_effects is None
    if isinstance(op, llvm.CallIntrinsicOp):
        return op.intrin.data.startswith(_PURE_INTRINSIC_PREFIX)
    return op.name.startswith("llvm.") and op.name not in ("llvm.return", "llvm.func")


def remove_dead_ops(block: Block) -> None:
    """Erase pure ops whose results nobody reads (the builder's rewrites leave the
    values they replaced behind), innermost regions included."""
    for op in reversed(list(block.ops)):
        for region in op.regions:
            for inner in region.blocks:
                remove_dead_ops(inner)
        if op.results and _is_pure(op) and all(not r.uses for r in op.results):
            op.detach()
            op.erase()


MAX_REGISTERS_PER_THREAD = 4096
"""The most elements of one tensor a thread may hold: beyond it the planners' per-register
work grows for minutes, and no GPU has the registers (255 per thread)."""


def _check_result_types(func: tt.FuncOp) -> None:
    """Refuse (``LoweringError`` at the op) what the lowering cannot hold in registers:
    an ``index`` value (no bit width), a tensor without elements or with more than
    :data:`MAX_REGISTERS_PER_THREAD` elements per thread, or a tensor whose layout does not fit its shape
    (Triton checks layouts only on its own dialects' ops, so an ``arith`` op may carry
    a layout of the wrong rank or size)."""
    for op in func.walk():
        for value in op.results:
            ty = value.type
            if isinstance(ty.element_type if isinstance(ty, TensorType) else ty, IndexType):
                raise LoweringError(op, f"convert-tritongpu-to-llvm: 'index' values are not supported ({op.name})")
            if isinstance(ty, TensorType) and 0 in ty.get_shape():
                raise LoweringError(op, f"convert-tritongpu-to-llvm: tensors without elements are not supported ({op.name})")
            if isinstance(ty, TensorType) and isinstance(ty.encoding, LayoutAttr):
                try:
                    layout = ty.encoding.to_linear_layout(tuple(ty.get_shape()))
                except ValueError as e:  # EncodingError, ShapeError, LayoutError
                    text = ty.encoding.encoding.to_text()
                    raise LoweringError(op, f"convert-tritongpu-to-llvm: {text}: {e}") from None
                registers = 1 << len(layout.bases.get("register", ()))
                if registers > MAX_REGISTERS_PER_THREAD:
                    raise LoweringError(
                        op,
                        f"convert-tritongpu-to-llvm: {registers} elements per thread in one tensor is more than "
                        f"ltc lowers ({MAX_REGISTERS_PER_THREAD}); use more warps or smaller blocks",
                    )


def _lower_function(
    func: tt.FuncOp, config: ModuleConfig, axis: AxisInfoAnalysis, fp_fusion: bool
) -> tuple[llvm.FuncOp, int]:
    arg_types = [scalar_type(a.type) for a in func.body.block.args]
    for a in func.body.block.args:
        if isinstance(a.type, TensorType):
            raise LoweringError(func, "kernel arguments must be scalars or pointers, not tensors")
        if not (isinstance(a.type, IntegerType | tt.PtrType) or tt.is_float_type(a.type)):
            raise LoweringError(func, f"kernel arguments must be scalars or pointers, not {a.type}")
    entry = Block(arg_types=arg_types)
    fl = FunctionLowering(
        ThreadBuilder(entry, fp_contract=fp_fusion), config, handlers=HANDLERS, entry=entry, axis=axis, strides=StrideAnalysis(axis)
    )
    for old, new in zip(func.body.block.args, entry.args, strict=True):
        fl.values[old] = new
    fl.buffer_offsets, fl.buffer_bytes = allocate_buffers(func)
    fl.lower_block(func.body.block)
    remove_dead_ops(entry)
    threads = config.num_warps * config.threads_per_warp
    lowered = llvm.FuncOp(
        func.sym_name.data,
        llvm.LLVMFunctionType(arg_types),
        linkage=llvm.LinkageAttr("external"),
        body=Region(entry),
        extra_attrs={
            "nvvm.kernel": UnitAttr(),
            "nvvm.reqntid": DenseArrayBase.from_list(i32, [threads]),
        },
    )
    return lowered, fl.buffer_bytes + fl.shared_bytes


def lower_module(module: ModuleOp, target: str = "sm_90", *, fp_fusion: bool = True) -> None:
    """Lower every ``tt.func`` of ``module`` in place (see the module docstring).

    ``fp_fusion`` (Triton's ``enable_fp_fusion``, on by default) lets a float multiply and
    add be contracted into one fma (``contract``; PTX ``add.f32`` rather than ``add.rn.f32``).
    """
    config = ModuleConfig.of(module)
    # the code runs on the emit target: no instruction newer than it (stmatrix needs sm_90)
    target_capability = int(target.removeprefix("sm_"))
    config = replace(config, capability=min(config.capability, target_capability))
    if config.num_ctas != 1:
        raise LoweringError(module, "convert-tritongpu-to-llvm handles num-ctas = 1 only")
    if config.threads_per_warp != 32:
        raise LoweringError(module, f"convert-tritongpu-to-llvm handles 32 threads per warp only, not {config.threads_per_warp}")
    try:
        check_num_warps(config.num_warps, config.threads_per_warp)
    except ValueError as e:
        raise LoweringError(module, f"convert-tritongpu-to-llvm: ttg.num-warps: {e}") from None
    for op in list(module.body.block.ops):
        if isinstance(op, tt.FuncOp):
            if not op.body.blocks:  # ltc lowers kernels (no calls): a declaration is foreign here
                raise LoweringError(
                    op, f"convert-tritongpu-to-llvm: function declaration @{op.sym_name.data} (no body) is not supported"
                )
            try:  # early returns (cf.br / cf.cond_br) become scf.if: the emitters take one block
                structurize_function(op)
            except StructurizeError as e:
                raise LoweringError(e.op, f"convert-tritongpu-to-llvm: {e.message}") from None
            _check_result_types(op)  # before the axis analysis looks at the values
    shared = 0
    axis = AxisInfoAnalysis(module)
    for op in list(module.body.block.ops):
        if isinstance(op, tt.FuncOp):
            lowered, nbytes = _lower_function(op, config, axis, fp_fusion)
            limit = MAX_SHARED_BYTES_PER_CTA[target_capability]
            if nbytes > limit:
                raise LoweringError(
                    op, f"convert-tritongpu-to-llvm: the kernel needs {nbytes} bytes of shared memory (buffers and "
                    f"scratch); a CTA on {target} has at most {limit}"
                )
            shared = max(shared, nbytes)
            module.body.block.insert_op_before(lowered, op)
            op.detach()
            op.erase(safe_erase=False)
        else:
            raise LoweringError(op, f"'{op.name}' at module level is not supported by convert-tritongpu-to-llvm")
    if shared:
        first = module.body.block.first_op
        glob = llvm.GlobalOp(
            llvm.LLVMArrayType(IntAttr(0), IntegerType(8)),
            "global_smem",
            "external",
            addr_space=3,
            alignment=16,
        )
        if first is None:
            module.body.block.add_op(glob)
        else:
            module.body.block.insert_op_before(glob, first)
    module.attributes["ttg.shared"] = IntegerAttr(shared, i32)
    module.attributes["ltc.target"] = StringAttr(target)


@dataclass(frozen=True)
class ConvertTritonGPUToLLVMPass(ModulePass):
    """Lower a laid-out TTGIR module to per-thread LLVM-dialect IR (``target``: sm_80 or sm_90)."""

    name = "convert-tritongpu-to-llvm"

    target: str = "sm_90"
    enable_fp_fusion: bool = True

    def __post_init__(self) -> None:
        # checked when the pipeline is built: a bad target is a usage error
        if self.target not in ("sm_80", "sm_90"):
            raise ValueError(f"target={self.target}: must be sm_80 or sm_90")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_module(op, self.target, fp_fusion=self.enable_fp_fusion)
