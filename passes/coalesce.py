"""``tritongpu-coalesce``: give every global memory access through a tensor of pointers
the blocked layout Triton 3.9's ``Coalesce`` pass chooses.

For a ``tt.load`` / ``tt.store`` / ``tt.atomic_rmw`` / ``tt.atomic_cas`` (or
``ttg.async_copy_global_to_local``) whose pointer is a tensor of pointers, with axis
info ``A`` of the pointer:

1. ``order``: dims by decreasing contiguity of ``A`` (``contiguity_order``);
2. per op, elements per thread along ``order[0]``:
   ``min(divisibility / elemBytes, contiguity, 128 / elemBits)`` (contiguity capped by
   the shape; narrower for atomics that have no vector form);
3. the maximum of (2) over the memory ops of the same shape and order connected to the
   op through def-use chains (MLIR's ``getSlice``; only when the pointer is an op
   result), capped at ``numel / (warps * lanes)``; a store or atomic is also capped at
   its own (2), so that no write is wider than the access it can vectorize;
4. ``sizePerThread[order[0]]`` = that, other dims 1, through Triton's blocked builder.

That is Triton's rule, and the default. With ``span_rows`` (ltc's improvement, on in
``ltc-assign-layouts``) a ``tt.load`` / ``tt.store`` whose pointer has constant strides
that chain the dims of ``order`` back to back (``passes/strides.py``: ``r·k + c`` on a
``[rows, k]`` tile) may give a thread a box that is full along ``order[0]`` and runs on
along ``order[1]``, ...: one contiguous run in memory, e.g. ``sizePerThread = [4, 2]`` for
``[512, 2] x f16`` (8 x f16 = one 128-bit access) where Triton's rule stops at ``[1, 2]``.
The box holds at most ``128 / elemBits`` and ``numel / threads`` elements, its first
address is provably a multiple of its size in bytes, and it is used only where it is
longer than Triton's run; loads take the longest box of their slice group, stores their
own.

Each op's tensor operands are converted to the new layout, its tensor results retyped
and converted back to their old layout (only where the layout differs: an op already
in its coalesced layout is left alone).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import IsolatedFromAbove

from ltc.dialects.tt import PtrType
from ltc.dialects.verifier import class_has_trait
from ltc.encodings.base import CGALayout
from ltc.encodings.blocked import BlockedEncoding, blocked_for_shape
from ltc.passes.axis_info import AxisInfoAnalysis, contiguity_order, pointee_bits
from ltc.passes.layout_ir import TARGET, ModuleConfig, compute_in_and_convert_back, convert_before, layout_of, walk_list
from ltc.passes.strides import StrideAnalysis, Strides, contiguous_dims, pow2_divisor

__all__ = [
    "CoalescePass",
    "CoalescePlanner",
    "SliceIndex",
    "coalesced_encoding",
    "elements_per_thread",
    "memory_pointer",
    "spanning_sizes",
]

_MEMORY_OPS = {
    "tt.load": 0,
    "tt.store": 0,
    "tt.atomic_rmw": 0,
    "tt.atomic_cas": 0,
    "ttg.async_copy_global_to_local": 0,
}
"""Memory op -> index of the operand it accesses memory through (``getMemAccessPtr``)."""


_SPANNING_OPS = frozenset({"tt.load", "tt.store"})
"""Memory ops that may get a box spanning dims (atomics and async copies keep Triton's)."""


def memory_pointer(op: Operation) -> SSAValue | None:
    """The pointer ``op`` reads or writes global memory through, or None."""
    index = _MEMORY_OPS.get(op.name)
    return None if index is None else op.operands[index]


def _is_pointer_tensor(value: SSAValue) -> bool:
    t = value.type
    return isinstance(t, TensorType) and isinstance(t.element_type, PtrType)


def _target(op: Operation) -> str | None:
    cur: Operation | None = op
    while cur is not None:
        t = cur.attributes.get(TARGET)
        if isinstance(t, StringAttr):
            return t.data
        cur = cur.parent_op()
    return None


def _atomic_cap(op: Operation) -> int | None:
    """The widest vector an atomic lowers to, where it is narrower than a plain store."""
    if op.name == "tt.atomic_cas":
        return 1
    if op.name != "tt.atomic_rmw":
        return None
    val_t = op.operands[1].type
    elem = val_t.element_type if isinstance(val_t, TensorType) else val_t
    bits = pointee_bits(elem)
    if isinstance(elem, IntegerType | Float64Type):
        return 1
    target = _target(op) or ""
    if target.startswith("hip:"):
        return max(1, 32 // bits)
    kind = op.properties.get("atomic_rmw_op")
    if getattr(kind, "data", None) != "fadd" or not target.startswith("cuda:"):
        return None
    if ModuleConfig.of(op).capability >= 90:
        return None
    if isinstance(elem, Float32Type | BFloat16Type):
        return 1
    if isinstance(elem, Float16Type):
        return 2
    return None


def elements_per_thread(
    op: Operation, order: tuple[int, ...], analysis: AxisInfoAnalysis, shape_per_cta: tuple[int, ...]
) -> int:
    """How many consecutive elements along ``order[0]`` one thread of ``op`` can access
    with one vector instruction (Triton's ``getNumElementsPerThread``)."""
    ptr = memory_pointer(op)
    assert ptr is not None
    info = analysis.get(ptr)
    bits = pointee_bits(ptr.type)
    elem_bytes = max(bits // 8, 1)
    # Triton holds the divisibility in an `unsigned`: 2**32 and above wrap to 0 (-> 1).
    multiple = max((info.divisibility[order[0]] & 0xFFFFFFFF) // elem_bytes, 1)
    contig = min(info.contiguity[order[0]], shape_per_cta[order[0]])
    cap = 128 // bits
    atomic = _atomic_cap(op)
    if atomic is not None:
        cap = min(cap, atomic)
    return min(min(multiple, contig), cap)


def spanning_sizes(
    strides: Strides, shape: Sequence[int], order: Sequence[int], elem_bits: int, max_elements: int
) -> tuple[int, ...]:
    """The largest per-thread box (``sizePerThread``) that is one aligned contiguous run.

    ``strides`` (bytes) of a pointer tensor of ``shape``; the box is filled along
    ``order`` (full along a dim before the next one starts, only over the dims that
    :func:`~ltc.passes.strides.contiguous_dims` chains) up to ``max_elements`` elements.
    A blocked layout starts each thread's box at multiples of its sizes, so its first
    address is ``b + Σ_d strides[d]·i_d`` with ``i_d`` a multiple of ``sizes[d]`` (0 where
    the box is full): divisible by ``min(D, 2^v(strides[d])·sizes[d])``; the box shrinks
    until its byte size divides that. All ones when nothing is contiguous."""
    elem_bytes = max(elem_bits // 8, 1)
    rank = len(shape)
    chained = order[: contiguous_dims(strides.strides, shape, order, elem_bytes)]
    cap = 1 << (max(max_elements, 1).bit_length() - 1)
    while True:
        sizes = [1] * rank
        total = 1
        for d in chained:
            sizes[d] = max(1, min(shape[d], cap // total))
            total *= sizes[d]
            if sizes[d] < shape[d]:
                break
        start = strides.divisibility
        for d in range(rank):
            if sizes[d] < shape[d] and strides.strides[d]:
                start = min(start, pow2_divisor(strides.strides[d]) * sizes[d])
        if total == 1 or start >= total * elem_bytes:
            return tuple(sizes)
        cap = 1 << ((start // elem_bytes).bit_length() - 1) if start >= elem_bytes else 1


def _slice_successors(op: Operation) -> Iterator[Operation]:
    """The ops MLIR's ``getSlice`` steps to from ``op``: the defining op of each operand
    (a block argument leads to its single-region, single-block, non-isolated parent),
    the users of each result and the ops nested in ``op``'s regions."""
    for v in op.operands:
        if isinstance(v, OpResult):
            yield v.op
        elif isinstance(v, BlockArgument):
            parent = v.block.parent_op()
            if (
                parent is not None
                and not class_has_trait(type(parent), IsolatedFromAbove)
                and len(parent.regions) == 1
                and len(parent.regions[0].blocks) == 1
            ):
                yield parent
    for r in op.results:
        for use in r.uses:
            yield use.operation
    for region in op.regions:
        for block in region.blocks:
            yield from block.ops


class SliceIndex:
    """The memory ops in ``getSlice(op)`` (the closure of ``op`` under
    ``_slice_successors``) for every op of ``root``, computed once: the strongly
    connected components of the step graph (Tarjan, which emits a component after every
    component it reaches), then the memory ops each component reaches."""

    def __init__(self, root: Operation):
        self._component: dict[Operation, int] = {}
        self._reach: list[frozenset[Operation]] = []
        index: dict[Operation, int] = {}
        low: dict[Operation, int] = {}
        stack: list[Operation] = []
        on_stack: set[Operation] = set()
        # each op's steps, listed once: the search and the closing of its component
        # both go through them
        self._succs: dict[Operation, list[Operation]] = {}
        for start in walk_list(root):
            if start in index:
                continue
            index[start] = low[start] = len(index)
            stack.append(start)
            on_stack.add(start)
            work = [(start, iter(self._successors(start)))]
            while work:
                node, succs = work[-1]
                advanced = False
                for nxt in succs:
                    if nxt not in index:
                        index[nxt] = low[nxt] = len(index)
                        stack.append(nxt)
                        on_stack.add(nxt)
                        work.append((nxt, iter(self._successors(nxt))))
                        advanced = True
                        break
                    if nxt in on_stack:
                        low[node] = min(low[node], index[nxt])
                if advanced:
                    continue
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    self._close_component(node, stack, on_stack)
        del self._succs

    def _successors(self, op: Operation) -> list[Operation]:
        succs = self._succs.get(op)
        if succs is None:
            succs = self._succs[op] = list(_slice_successors(op))
        return succs

    def _close_component(self, head: Operation, stack: list[Operation], on_stack: set[Operation]) -> None:
        members: list[Operation] = []
        while True:
            op = stack.pop()
            on_stack.discard(op)
            members.append(op)
            if op is head:
                break
        comp = len(self._reach)
        for op in members:
            self._component[op] = comp
        reach = {op for op in members if memory_pointer(op) is not None}
        reached = {self._component[nxt] for op in members for nxt in self._successors(op)}
        reached.discard(comp)
        for other in reached:
            reach |= self._reach[other]
        self._reach.append(frozenset(reach))

    def memory_ops(self, op: Operation) -> frozenset[Operation]:
        """The memory ops in ``op``'s slice (``op`` itself included if it is one)."""
        return self._reach[self._component[op]]


def _root(op: Operation) -> Operation:
    while (parent := op.parent_op()) is not None:
        op = parent
    return op


def _shape_per_cta(shape: tuple[int, ...], cga: CGALayout) -> tuple[int, ...]:
    split = [1] * len(shape)
    for basis in cga.block_bases:
        for d, b in enumerate(basis):
            if b:
                split[d] *= 2
    return tuple(s // k for s, k in zip(shape, split))


class CoalescePlanner:
    """Chooses coalesced layouts for the memory ops of one module (unchanged while it
    is used): the axis info and the slices are computed once, and the widest access
    of each (slice, shape, order) group is remembered, so planning every op of a
    module costs about as much as one pass over it."""

    def __init__(self, root: Operation, analysis: AxisInfoAnalysis | None = None, span_rows: bool = False):
        self.analysis = analysis if analysis is not None else AxisInfoAnalysis(root)
        self.slices = SliceIndex(root)
        self.span_rows = span_rows
        self.strides = StrideAnalysis(self.analysis)
        self._widths: dict[tuple, int] = {}
        self._spans: dict[tuple, tuple[int, ...]] = {}

    def _group(self, op: Operation, shape: tuple[int, ...], order: tuple[int, ...]) -> Iterator[Operation]:
        """The memory ops of ``op``'s slice (``op`` included) whose pointer tensor has
        this shape and contiguity order."""
        for other in self.slices.memory_ops(op):
            p = memory_pointer(other)
            if (
                p is not None
                and isinstance(p.type, TensorType)
                and tuple(p.type.get_shape()) == shape
                and contiguity_order(self.analysis.get(p)) == order
            ):
                yield other

    def _group_width(self, op: Operation, shape: tuple[int, ...], order: tuple[int, ...], spc: tuple[int, ...]) -> int:
        """The widest access among the memory ops of ``op``'s slice with this shape and
        order (``op`` included)."""
        key = (id(self.slices.memory_ops(op)), shape, order, spc)
        width = self._widths.get(key)
        if width is None:
            width = max(
                (elements_per_thread(other, order, self.analysis, spc) for other in self._group(op, shape, order)),
                default=0,
            )
            self._widths[key] = width
        return width

    def _own_span(
        self, op: Operation, shape: tuple[int, ...], order: tuple[int, ...], max_elements: int
    ) -> tuple[int, ...]:
        """``spanning_sizes`` of ``op``'s pointer (all ones where it has no strides)."""
        ptr = memory_pointer(op)
        ones = (1,) * len(shape)
        if ptr is None or op.name not in _SPANNING_OPS:
            return ones
        strides = self.strides.get(ptr)
        bits = pointee_bits(ptr.type)
        if strides is None or bits % 8:
            return ones
        return spanning_sizes(strides, shape, order, bits, min(max_elements, 128 // bits))

    def _group_span(
        self, op: Operation, shape: tuple[int, ...], order: tuple[int, ...], max_elements: int
    ) -> tuple[int, ...]:
        """The largest ``_own_span`` among the memory ops of ``op``'s slice with this shape
        and order (``op`` included)."""
        key = (id(self.slices.memory_ops(op)), shape, order, max_elements)
        span = self._spans.get(key)
        if span is None:
            span = (1,) * len(shape)
            for other in self._group(op, shape, order):
                own = self._own_span(other, shape, order, max_elements)
                if math.prod(own) > math.prod(span):
                    span = own
            self._spans[key] = span
        return span

    def encoding(self, op: Operation, num_warps: int, threads_per_warp: int = 32) -> BlockedEncoding:
        """The blocked layout Triton's ``buildCoalescedEncoding`` gives ``op``'s pointer
        (with ``span_rows``, a longer box that spans dims where it exists)."""
        ptr = memory_pointer(op)
        assert ptr is not None and isinstance(ptr.type, TensorType)
        shape = tuple(ptr.type.get_shape())
        order = contiguity_order(self.analysis.get(ptr))
        cga = getattr(layout_of(ptr), "cga", CGALayout())
        spc = _shape_per_cta(shape, cga)
        own = elements_per_thread(op, order, self.analysis, spc)
        # the slice is only searched from a pointer an op computes (Triton's rule)
        per_thread = self._group_width(op, shape, order, spc) if isinstance(ptr, OpResult) else own
        per_thread = min(per_thread, max(math.prod(spc) // (num_warps * threads_per_warp), 1))
        if op.name != "tt.load":
            # a write wider than its own vector access leaves gaps in each warp's stores
            per_thread = min(per_thread, own)
        size_per_thread = [1] * len(shape)
        size_per_thread[order[0]] = per_thread
        if self.span_rows and spc == shape and op.name in _SPANNING_OPS:
            max_elements = max(math.prod(shape) // (num_warps * threads_per_warp), 1)
            if op.name == "tt.load" and isinstance(ptr, OpResult):
                span = self._group_span(op, shape, order, max_elements)
            else:
                span = self._own_span(op, shape, order, max_elements)
            if math.prod(span) > per_thread and span[order[0]] == shape[order[0]]:
                size_per_thread = list(span)
        enc = blocked_for_shape(spc, size_per_thread, order, num_warps, threads_per_warp)
        return replace(enc, cga=cga) if cga.block_bases else enc


def coalesced_encoding(
    op: Operation, num_warps: int, threads_per_warp: int = 32, span_rows: bool = False
) -> BlockedEncoding:
    """The coalesced layout of one memory op (analysing its whole module; use a
    ``CoalescePlanner`` for several ops)."""
    return CoalescePlanner(_root(op), span_rows=span_rows).encoding(op, num_warps, threads_per_warp)


def _relayout(op: Operation, encoding: BlockedEncoding) -> None:
    """Run ``op`` in ``encoding``: convert its tensor operands in, its results back out."""
    operands = [
        convert_before(v, encoding, op) if isinstance(v.type, TensorType) and layout_of(v) is not None else v
        for v in op.operands
    ]
    if any(a is not b for a, b in zip(operands, op.operands)):
        op.operands = operands
    for r in op.results:
        old_t = r.type
        if not isinstance(old_t, TensorType) or layout_of(r) is None or layout_of(r) == encoding:
            continue
        compute_in_and_convert_back(r, encoding)


@dataclass(frozen=True)
class CoalescePass(ModulePass):
    """Lay out global loads/stores/atomics for coalesced, widest accesses (Triton's
    ``tritongpu-coalesce``); reads ``ttg.num-warps`` / ``ttg.threads-per-warp``."""

    name = "tritongpu-coalesce"

    span_rows: bool = False
    """ltc's wider per-thread runs across dims (module doc); False is Triton's pass exactly."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        planner = CoalescePlanner(op, span_rows=self.span_rows)
        plan: list[tuple[Operation, BlockedEncoding]] = []
        for mem in walk_list(op):
            ptr = memory_pointer(mem)
            if ptr is None or not _is_pointer_tensor(ptr) or layout_of(ptr) is None:
                continue
            config = ModuleConfig.of(mem)
            plan.append((mem, planner.encoding(mem, config.num_warps, config.threads_per_warp)))
        # all layouts are chosen on the unmodified IR, then applied
        for mem, encoding in plan:
            _relayout(mem, encoding)
