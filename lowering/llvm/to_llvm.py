"""``convert-tritongpu-to-llvm``: tensor programs become per-thread LLVM-dialect programs.

Every ``tt.func`` becomes an ``llvm.func`` (a kernel: ``nvvm.kernel``, ``nvvm.reqntid`` =
num-warps × threads-per-warp). Every tensor value of layout L becomes a
:class:`ThreadTensor`: one scalar per *register* of L — the element L(register=r,
lane, warp) of the executing thread — where broadcast registers (zero register bases)
reuse the scalar of their canonical register. Scalars stay scalars. Each op is lowered
by one handler (``HANDLERS``: op name → function), in program order; structured control
flow (``scf.for``/``scf.if``) stays structured, carrying the per-register scalars.

Shared memory is one ``addrspace(3)`` global, ``@global_smem``; every op that needs
scratch (layout conversions through shared memory, cross-warp reductions) uses it from
offset 0, preceded by a barrier when an earlier op used it, and the largest need is the
module's ``ttg.shared`` attribute, as Triton records it.

The output is the *lowered-IR contract* (what the emitters accept): one block per
function, only the llvm ops, intrinsics and inline PTX that :mod:`ltc.lowering.llvm.builder`
makes, and ``scf.for``/``scf.if``/``scf.yield``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Union

from xdsl.context import Context
from xdsl.dialects import llvm, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ltc.dialects import tt
from ltc.linear_layout import LinearLayout
from ltc.lowering.llvm.builder import GLOBAL_PTR, SHARED_PTR, ThreadBuilder
from ltc.passes.axis_info import AxisInfoAnalysis
from ltc.passes.strides import StrideAnalysis
from ltc.passes.layout_ir import ModuleConfig, linear_layout_of

__all__ = [
    "ConvertTritonGPUToLLVMPass",
    "FunctionLowering",
    "Handler",
    "Lowered",
    "LoweringError",
    "ThreadTensor",
    "lower_module",
    "scalar_type",
]


class LoweringError(Exception):
    """An op or type the lowering does not handle; ``op`` is the offending op."""

    def __init__(self, op: Operation | None, message: str) -> None:
        super().__init__(message)
        self.op = op
        self.message = message


@dataclass(frozen=True)
class ThreadTensor:
    """A tensor as one thread holds it: ``regs[r]`` is the element at register ``r`` of
    ``layout`` (broadcast registers share their canonical register's value)."""

    regs: tuple[SSAValue, ...]
    layout: LinearLayout


Lowered = Union[SSAValue, ThreadTensor]
Handler = Callable[["FunctionLowering", Operation, list[Lowered]], list[Lowered]]


def scalar_type(t: Attribute) -> Attribute:
    """The lowered scalar type of a Triton element type (fp8 is carried as i8, pointers
    as global pointers)."""
    if isinstance(t, TensorType):
        t = t.element_type
    if isinstance(t, tt.PtrType):
        return GLOBAL_PTR
    if tt.is_float_type(t) and tt.element_bit_width(t) == 8:
        return IntegerType(8)
    return t


@dataclass
class FunctionLowering:
    """The state of lowering one function: builder, value map, thread ids, scratch use."""

    builder: ThreadBuilder
    config: ModuleConfig
    values: dict[SSAValue, Lowered] = field(default_factory=dict)
    entry: Block | None = None
    axis: AxisInfoAnalysis | None = None
    strides: StrideAnalysis | None = None
    shared_bytes: int = 0
    shared_used: bool = False
    _layouts: dict[Attribute, LinearLayout] = field(default_factory=dict)

    @property
    def b(self) -> ThreadBuilder:
        return self.builder

    @property
    def threads(self) -> int:
        return self.config.num_warps * self.config.threads_per_warp

    # -- thread coordinates ---------------------------------------------------------------
    def tid(self) -> SSAValue:
        """``tid.x``: warp · threads-per-warp + lane (known to be below the CTA size)."""
        v = self.b.sreg("tid.x")
        self.b.assume_bits(v, self.threads - 1)
        return v

    @property
    def lane_bits(self) -> int:
        """log2(threads per warp)."""
        return self.config.threads_per_warp.bit_length() - 1

    def lane(self) -> SSAValue:
        """This thread's lane (``tid.x % threads-per-warp``)."""
        return self.b.binary("and", self.tid(), self.b.i32(self.config.threads_per_warp - 1))

    def warp(self) -> SSAValue:
        """This thread's warp (``tid.x / threads-per-warp``)."""
        shift = self.config.threads_per_warp.bit_length() - 1
        return self.b.binary("lshr", self.tid(), self.b.i32(shift))

    # -- layouts --------------------------------------------------------------------------
    def layout(self, t: Attribute, op: Operation | None = None) -> LinearLayout:
        """The linear layout of tensor type ``t``."""
        if t not in self._layouts:
            ll = linear_layout_of(t)
            if ll is None:
                raise LoweringError(op, f"tensor type {t} has no layout: run the layout pipeline first")
            self._layouts[t] = ll
        return self._layouts[t]

    def num_regs(self, t: Attribute) -> int:
        return self.layout(t).in_dim_size("register")

    def tensor(self, op: Operation, t: Attribute, regs: Sequence[SSAValue]) -> ThreadTensor:
        ll = self.layout(t, op)
        assert len(regs) == ll.in_dim_size("register"), (op.name, len(regs), ll.in_dim_size("register"))
        return ThreadTensor(tuple(regs), ll)

    def splat(self, op: Operation, t: Attribute, v: SSAValue) -> ThreadTensor:
        return self.tensor(op, t, [v] * self.num_regs(t))

    # -- shared scratch -------------------------------------------------------------------
    def shared_base(self) -> SSAValue:
        """The 32-bit shared-memory address of ``@global_smem``."""
        addr = self.b.value(llvm.AddressOfOp("global_smem", SHARED_PTR))
        return self.b.cast("ptrtoint", addr, i32)

    def claim_scratch(self, nbytes: int) -> None:
        """Note a scratch use of ``nbytes`` from offset 0; a barrier first if scratch was
        used before (earlier readers must be done) or if this use is inside a loop or a
        branch (the previous iteration's readers, or a use before the region)."""
        if self.shared_used or self.b.block is not self.entry:
            self.b.barrier()
        self.shared_used = True
        self.shared_bytes = max(self.shared_bytes, nbytes)

    # -- walking ------------------------------------------------------------------------------
    def lower_block(self, block: Block) -> None:
        for op in block.ops:
            self.lower_op(op)

    def lower_op(self, op: Operation) -> None:
        handler = _handlers().get(op.name)
        if handler is None:
            raise LoweringError(op, f"'{op.name}' is not supported by convert-tritongpu-to-llvm")
        args = [self.get(v, op) for v in op.operands]
        results = handler(self, op, args)
        for r, v in zip(op.results, results, strict=True):
            self.values[r] = v

    def get(self, v: SSAValue, op: Operation | None = None) -> Lowered:
        if v not in self.values:
            raise LoweringError(op, f"value {v.name_hint or v} was not lowered")
        return self.values[v]


def _flatten(values: Sequence[Lowered]) -> list[SSAValue]:
    out: list[SSAValue] = []
    for v in values:
        out.extend(v.regs if isinstance(v, ThreadTensor) else [v])
    return out


def _rebuild(fl: FunctionLowering, op: Operation, types: Sequence[Attribute], flat: Sequence[SSAValue]) -> list[Lowered]:
    out: list[Lowered] = []
    i = 0
    for t in types:
        if isinstance(t, TensorType):
            n = fl.num_regs(t)
            out.append(fl.tensor(op, t, flat[i : i + n]))
            i += n
        else:
            out.append(flat[i])
            i += 1
    return out


# ----------------------------------------------------------------------------------------
# structured control flow and functions
# ----------------------------------------------------------------------------------------


def _lower_for(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    lb, ub, step, *inits = args
    flat_inits = _flatten(inits)
    body = op.regions[0].block
    iv_type = body.args[0].type
    new_body = Block(arg_types=[iv_type, *(v.type for v in flat_inits)])
    new_for = scf.ForOp(lb, ub, step, flat_inits, Region(new_body))  # type: ignore[arg-type]
    fl.b.add(new_for)
    prev = fl.b.at(new_body)
    fl.values[body.args[0]] = new_body.args[0]
    carried = _rebuild(fl, op, [a.type for a in body.args[1:]], new_body.args[1:])
    for a, v in zip(body.args[1:], carried, strict=True):
        fl.values[a] = v
    fl.lower_block(body)
    fl.b.at(prev)
    return _rebuild(fl, op, [r.type for r in op.results], new_for.results)


def _lower_if(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    (cond,) = args
    result_types: list[Attribute] = []
    regions = []
    for region in op.regions:
        block = Block()
        regions.append(Region(block))
        if not region.blocks:
            block.add_op(scf.YieldOp())
            continue
        prev = fl.b.at(block)
        fl.lower_block(region.block)
        fl.b.at(prev)
    if op.results:
        y = regions[0].block.last_op
        assert y is not None
        result_types = [v.type for v in y.operands]
    new_if = scf.IfOp(cond, result_types, regions[0], regions[1] if len(regions) > 1 else None)  # type: ignore[arg-type]
    fl.b.add(new_if)
    return _rebuild(fl, op, [r.type for r in op.results], new_if.results)


def _lower_yield(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    fl.b.add(scf.YieldOp(*_flatten(args)))
    return []


def _lower_return(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    if args:
        raise LoweringError(op, "a kernel returns no values")
    fl.b.add(llvm.ReturnOp())
    return []


def _program_axis(name: str) -> Handler:
    def lower(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
        axis = str(op.properties["axis"].data.value) if "axis" in op.properties else "x"  # type: ignore[attr-defined]
        return [fl.b.sreg(f"{name}.{axis}")]

    return lower


CONTROL_HANDLERS: dict[str, Handler] = {
    "scf.for": _lower_for,
    "scf.if": _lower_if,
    "scf.yield": _lower_yield,
    "tt.return": _lower_return,
    "tt.get_program_id": _program_axis("ctaid"),
    "tt.get_num_programs": _program_axis("nctaid"),
}


@functools.cache
def _handlers() -> dict[str, Handler]:
    """Every op's handler (built on first use: the handler modules import this one)."""
    from ltc.lowering.llvm.convert_layout import CONVERT_HANDLERS
    from ltc.lowering.llvm.elementwise import ELEMENTWISE_HANDLERS
    from ltc.lowering.llvm.memory import MEMORY_HANDLERS
    from ltc.lowering.llvm.reduce import REDUCE_HANDLERS
    from ltc.lowering.llvm.shape import SHAPE_HANDLERS

    return {
        **CONTROL_HANDLERS,
        **ELEMENTWISE_HANDLERS,
        **SHAPE_HANDLERS,
        **MEMORY_HANDLERS,
        **CONVERT_HANDLERS,
        **REDUCE_HANDLERS,
    }


# ----------------------------------------------------------------------------------------
# the pass
# ----------------------------------------------------------------------------------------


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


def _lower_function(func: tt.FuncOp, config: ModuleConfig, axis: AxisInfoAnalysis) -> tuple[llvm.FuncOp, int]:
    arg_types = [scalar_type(a.type) for a in func.body.block.args]
    for a in func.body.block.args:
        if isinstance(a.type, TensorType):
            raise LoweringError(func, "kernel arguments must be scalars or pointers, not tensors")
    entry = Block(arg_types=arg_types)
    fl = FunctionLowering(ThreadBuilder(entry), config, entry=entry, axis=axis, strides=StrideAnalysis(axis))
    for old, new in zip(func.body.block.args, entry.args, strict=True):
        fl.values[old] = new
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
    return lowered, fl.shared_bytes


def lower_module(module: ModuleOp, target: str = "sm_90") -> None:
    """Lower every ``tt.func`` of ``module`` in place (see the module docstring)."""
    config = ModuleConfig.of(module)
    # the code runs on the emit target: no instruction newer than it (stmatrix needs sm_90)
    config = replace(config, capability=min(config.capability, int(target.removeprefix("sm_"))))
    if config.num_ctas != 1:
        raise LoweringError(module, "convert-tritongpu-to-llvm handles num-ctas = 1 only")
    shared = 0
    axis = AxisInfoAnalysis(module)
    for op in list(module.body.block.ops):
        if isinstance(op, tt.FuncOp):
            lowered, nbytes = _lower_function(op, config, axis)
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

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.target not in ("sm_80", "sm_90"):
            raise LoweringError(op, f"unknown target '{self.target}' (sm_80 or sm_90)")
        lower_module(op, self.target)
