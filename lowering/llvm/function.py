"""The per-function state of ``convert-tritongpu-to-llvm`` and the vocabulary of its handlers.

Every tensor value of layout L becomes a :class:`ThreadTensor`: one scalar per *register* of
L — the element L(register=r, lane, warp) of the executing thread — where broadcast
registers (zero register bases) reuse the scalar of their canonical register. Scalars stay
scalars (:data:`Lowered` is either). A :data:`Handler` lowers one op: it receives the
:class:`FunctionLowering` (builder, value map, thread ids, scratch), the op and its lowered
operands, emits per-thread IR with the builder and returns the op's lowered results.

Shared memory is one ``addrspace(3)`` global, ``@global_smem``: first the buffers of the
function's ``ttg.local_alloc`` ops, placed by liveness (:class:`SharedView`,
``shared_allocation``), then the scratch area; every op that needs scratch claims it from the scratch area's start
(:meth:`FunctionLowering.claim_scratch`), preceded by a barrier when an earlier op used it;
buffers plus the largest claim are the module's ``ttg.shared``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Union

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerType, TensorType, i32
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ltc.dialects import tt
from ltc.linear_layout import LinearLayout
from ltc.lowering.llvm.builder import GLOBAL_PTR, SHARED_PTR, ThreadBuilder
from ltc.passes.axis_info import AxisInfoAnalysis
from ltc.passes.layout_ir import ModuleConfig, linear_layout_of
from ltc.passes.strides import StrideAnalysis

__all__ = [
    "DeferredTensor",
    "FunctionLowering",
    "Handler",
    "Lowered",
    "LoweringError",
    "Scalar",
    "SharedView",
    "ThreadTensor",
    "map_registers",
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


@dataclass(frozen=True)
class SharedView:
    """A ``!ttg.memdesc`` in shared memory as every thread sees it: the byte ``offset`` of
    its first element in the function's buffer area (a constant, or an i32 value for a view
    chosen at run time), its ``layout`` (in dim ``offset``: element offsets; out dims those
    of the allocation it lies in; None for a buffer of several slices of its encoding's
    rank, which is accessed through ``ttg.memdesc_index`` views), its scalar ``element``
    type, and the coordinates of its first element in that allocation (``origin``: a
    ``ttg.memdesc_subslice``'s offsets; None for the whole allocation)."""

    offset: int | SSAValue
    layout: LinearLayout | None
    element: Attribute
    origin: tuple[int, ...] | None = None


@dataclass(frozen=True)
class DeferredTensor:
    """A tensor of ``layout`` whose registers are made where they are first read:
    ``fetch(r)`` emits (once) what register ``r`` needs and returns it. A ``ttg.local_load``
    read only by a ``tt.dot`` is one: its loads then come beside the fmas or mmas that use
    them, not all before the first (which would keep every operand element live)."""

    layout: LinearLayout
    fetch: Callable[[int], SSAValue]


Lowered = Union[SSAValue, ThreadTensor, SharedView, DeferredTensor]
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
    """The state of lowering one function: builder, value map, thread ids, scratch use.

    ``handlers`` maps op names to the functions that lower them (the pass passes its
    table, :data:`ltc.lowering.llvm.to_llvm.HANDLERS`); an op without one is refused."""

    builder: ThreadBuilder
    config: ModuleConfig
    values: dict[SSAValue, Lowered] = field(default_factory=dict)
    entry: Block | None = None
    handlers: Mapping[str, Handler] = field(default_factory=dict)
    axis: AxisInfoAnalysis | None = None
    strides: StrideAnalysis | None = None
    shared_bytes: int = 0
    shared_used: bool = False
    buffer_offsets: dict[Operation, int] = field(default_factory=dict)
    """The byte offset of each ``ttg.local_alloc``'s buffer (``shared_allocation.allocate_buffers``)."""
    buffer_bytes: int = 0
    """Bytes of the buffer area at the start of ``@global_smem``; scratch comes after it."""
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
    def smem_address(self) -> SSAValue:
        """The 32-bit shared-memory address of ``@global_smem`` (where buffers start)."""
        addr = self.b.value(llvm.AddressOfOp("global_smem", SHARED_PTR))
        return self.b.cast("ptrtoint", addr, i32)

    def shared_base(self) -> SSAValue:
        """The 32-bit shared-memory address of the scratch area (after the buffers)."""
        base = self.smem_address()
        return self.b.add_i(base, self.b.i32(self.buffer_bytes)) if self.buffer_bytes else base

    def claim_scratch(self, nbytes: int) -> None:
        """Note a scratch use of ``nbytes`` from the scratch area's start; a barrier first if scratch was
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
        handler = self.handlers.get(op.name)
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


Scalar = Callable[[ThreadBuilder, Operation, list[SSAValue]], SSAValue]


def map_registers(fl: FunctionLowering, op: Operation, args: Sequence[Lowered], fn: Scalar) -> list[Lowered]:
    """Apply ``fn`` per register (or once, on scalars); equal operand tuples share a result."""
    tensors = [a for a in args if isinstance(a, ThreadTensor)]
    if not tensors:
        return [fn(fl.b, op, list(args))]  # type: ignore[arg-type]
    n = len(tensors[0].regs)
    memo: dict[tuple[SSAValue, ...], SSAValue] = {}
    regs = []
    for r in range(n):
        key = tuple(a.regs[r] if isinstance(a, ThreadTensor) else a for a in args)
        if key not in memo:
            memo[key] = fn(fl.b, op, list(key))
        regs.append(memo[key])
    return [fl.tensor(op, op.results[0].type, regs)]
