"""How each op relates the layouts of its tensor operands and results.

The layout engine (``layout_engine``) only asks these questions, so teaching it a new op
means adding it here:

* ``kind_of(op)`` — the op's category:
  - ``SAME``: every tensor operand and result has one encoding (elementwise ops,
    ``tt.addptr``, ``tt.broadcast``, small loads; Triton's SameOperandsAndResultEncoding;
    a ``tt.gather``'s indices and result, its source taken in any layout: ``free_use``);
  - ``SOURCE``: its tensor results can be built in any layout at no cost (constants,
    ``tt.make_range``, ``tt.splat``, ``ttg.local_load``, ``tt.histogram``);
  - ``SINK``: its tensor operands are accepted in any layout (``ttg.local_alloc``,
    ``tt.descriptor_store``, ``tt.print``, ``tt.assert``, ``tt.unsplat``, ``ttg.local_store``);
  - ``SHAPE``: a shape op with a free result layout (``ltc.encodings.shape_rules``;
    ``ttg.fp4_to_fp`` too: it unpacks each byte in its thread);
  - ``CONVERT``: ``ttg.convert_layout``;
  - ``ANCHOR``: the layouts it has are fixed (global memory ops of at least one element
    per thread, ``tt.dot``, ``ttng.warp_group_dot``, calls, gathers, scans, ...);
  - ``REGION``: ``scf`` ops and ``cf`` branches, whose block arguments and results
    follow their operands.
* ``forward(op, encoding)`` — the result encodings when the first tensor operand has
  ``encoding`` (SAME / SHAPE), None if there is no free one;
* ``backward(op, encoding)`` — the operand encodings that make the op produce
  ``encoding`` for free (SAME / SHAPE), None if none exists.
* ``remat_cost(op)`` — the cost of computing ``op`` a second time, in the unit of
  ``convert_cost`` (memory-pipe cycles per warp: ALU ops a quarter per register,
  transcendental math 2, loads 8; shape ops and sources 0).
"""

from __future__ import annotations

import math
from enum import Enum

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue, Use

from ltc.dialects.tt import element_bit_width
from ltc.dialects.verifier import layout_context
from ltc.encodings import Encoding
from ltc.encodings.shape_rules import (
    expand_dims_encoding,
    fp4_packed_encoding,
    fp4_unpacked_encoding,
    join_encoding,
    reduce_encoding,
    reshape_encoding,
    split_encoding,
    trans_encoding,
)
from ltc.encodings.slice import SliceEncoding
from ltc.encodings.blocked import BlockedEncoding
from ltc.passes.layout_ir import encoding_of_type, tensor_shape

__all__ = [
    "OpKind",
    "backward",
    "compares_linear_layouts",
    "element_bytes",
    "forward",
    "free_use",
    "is_expensive_memory_op",
    "MEMORY_PRICE",
    "kind_of",
    "compute_price",
    "remat_cost",
    "tensor_bytes",
    "tensor_operands",
    "tensor_results",
]


class OpKind(Enum):
    SAME = "same"
    SOURCE = "source"
    SINK = "sink"
    SHAPE = "shape"
    CONVERT = "convert"
    ANCHOR = "anchor"
    REGION = "region"


_SOURCES = {"arith.constant", "tt.make_range", "tt.splat", "ttg.local_load", "tt.histogram"}
_SINKS = {"ttg.local_alloc", "ttg.local_store", "tt.descriptor_store", "tt.print", "tt.assert", "tt.unsplat"}
_SHAPES = {"tt.trans", "tt.reshape", "tt.join", "tt.split", "tt.expand_dims", "tt.reduce", "ttg.fp4_to_fp"}
_REGIONS = {"scf.for", "scf.if", "scf.while", "scf.yield", "scf.condition", "cf.br", "cf.cond_br", "cf.switch"}
_MEMORY = {"tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas"}
_ELEMENTWISE_TT = {
    "tt.addptr",
    "tt.broadcast",
    "tt.fp_to_fp",
    "tt.bitcast",
    "tt.int_to_ptr",
    "tt.ptr_to_int",
    "tt.clampf",
    "tt.precise_sqrt",
    "tt.precise_divf",
    "tt.approx_divf",
    "tt.mulhiui",
    "tt.extern_elementwise",
    "tt.elementwise_inline_asm",
    "tt.map_elementwise",
}
# Transcendental and division ops: Triton prices recomputing them at 8x an add.
_EXPENSIVE_MATH = {
    "arith.divf",
    "arith.divsi",
    "arith.divui",
    "arith.remf",
    "arith.remsi",
    "arith.remui",
    "tt.precise_divf",
    "tt.precise_sqrt",
    "tt.extern_elementwise",
    "tt.elementwise_inline_asm",
}


_FREE_OPERANDS = {"tt.gather": (0,)}
"""Operands an op takes in any layout, apart from its layout rule (the source of a
``tt.gather``: only the indices share the result's layout)."""


def tensor_operands(op: Operation) -> list[SSAValue]:
    """The tensor operands that follow ``op``'s layout rule (``kind_of``)."""
    free = _FREE_OPERANDS.get(op.name, ())
    return [v for i, v in enumerate(op.operands) if isinstance(v.type, TensorType) and i not in free]


def compares_linear_layouts(op: Operation) -> bool:
    """A shape op whose verifier compares its operands' and results' layouts as linear
    layouts (Triton's does so): it takes any spelling of the layouts that make it free.
    Not a reduction or ``tt.expand_dims``, which want the exact slice of their result's
    spelling."""
    return kind_of(op) is OpKind.SHAPE and op.name not in ("tt.reduce", "tt.expand_dims")


def free_use(use: Use) -> bool:
    """Whether ``use`` is an operand its op takes in any layout (``_FREE_OPERANDS``): no
    layout flows through it and none is required of it."""
    free = _FREE_OPERANDS.get(use.operation.name)
    return free is not None and use.index in free


def tensor_results(op: Operation) -> list[SSAValue]:
    return [v for v in op.results if isinstance(v.type, TensorType)]


def element_bytes(t: TensorType) -> int:
    """Bytes of one element (pointers count 8, i1 counts 1)."""
    return max(1, (element_bit_width(t) or 32) // 8)


def tensor_bytes(t: TensorType) -> int:
    return math.prod(t.get_shape()) * element_bytes(t)


def is_expensive_memory_op(op: Operation) -> bool:
    """A global memory op with at least one element per thread (Triton's anchor rule)."""
    tensors = tensor_operands(op)
    if not tensors:
        return False
    hw = layout_context(op)
    numel = math.prod(tensor_shape(tensors[0].type))
    return numel > 1 and numel >= (hw.num_warps or 4) * hw.threads_per_warp


def _is_elementwise(op: Operation) -> bool:
    name = op.name
    if name in _ELEMENTWISE_TT:
        return True
    if name.startswith(("arith.", "math.")) and name != "arith.constant":
        return True
    return False


def kind_of(op: Operation) -> OpKind:
    name = op.name
    k = _KIND_OF_NAME.get(name)
    if k is not None:
        return k
    if name in _MEMORY:
        return OpKind.ANCHOR if is_expensive_memory_op(op) else OpKind.SAME
    if name == "tt.gather":
        # The indices and the result share a layout (the source is taken in any); with
        # efficient_layout the written layouts were chosen for the lowering: kept.
        return OpKind.ANCHOR if "efficient_layout" in op.attributes or "efficient_layout" in op.properties else OpKind.SAME
    if name == "ttng.warp_group_dot_wait":
        # One waited-on tensor passes through in its layout (Triton propagates through
        # the wait); several are tied index by index, which SAME cannot say.
        return OpKind.SAME if len(tensor_operands(op)) == 1 else OpKind.ANCHOR
    if name == "tt.scan":
        # Scans lower for blocked layouts only; anything else stays where it is.
        encs = {encoding_of_type(v.type) for v in tensor_operands(op)}
        return OpKind.SAME if all(isinstance(e, BlockedEncoding) for e in encs) else OpKind.ANCHOR
    k = _KIND_OF_NAME[name] = _kind_of_name(op)
    return k


# The layout passes ask for the kind of an op some thirty times each: but for memory ops
# and scans (see kind_of) it follows from the op's name alone, and is kept per name.
_KIND_OF_NAME: dict[str, OpKind] = {}


def _kind_of_name(op: Operation) -> OpKind:
    name = op.name
    if name == "ttg.convert_layout":
        return OpKind.CONVERT
    if name in _SOURCES:
        return OpKind.SOURCE
    if name in _SINKS:
        return OpKind.SINK
    if name in _SHAPES:
        return OpKind.SHAPE
    if name in _REGIONS:
        return OpKind.REGION
    assert name not in _MEMORY and name not in ("tt.scan", "ttng.warp_group_dot_wait", "tt.gather")
    if _is_elementwise(op):
        return OpKind.SAME
    return OpKind.ANCHOR


def _axis(op: Operation) -> int:
    return op.properties["axis"].value.data  # type: ignore[union-attr]


def forward(op: Operation, enc: Encoding) -> list[Encoding] | None:
    """Result encodings of a SAME or SHAPE op whose tensor operands have ``enc``."""
    results = tensor_results(op)
    if kind_of(op) is OpKind.SAME or op.name == "tt.scan":
        if op.name == "tt.scan" and not isinstance(enc, BlockedEncoding):
            return None
        return [enc] * len(results)
    src = tensor_operands(op)[0]
    shape = tensor_shape(src.type)
    try:
        if op.name == "tt.trans":
            order = list(op.properties["order"].get_values())  # type: ignore[union-attr]
            return [trans_encoding(enc, shape, order)]
        if op.name == "tt.reshape":
            return [reshape_encoding(enc, shape, tensor_shape(results[0].type))]
        if op.name == "tt.join":
            return [join_encoding(enc, shape)]
        if op.name == "tt.split":
            out = split_encoding(enc, shape)
            return None if out is None else [out, out]
        if op.name == "tt.expand_dims":
            return [expand_dims_encoding(enc, shape, _axis(op))]
        if op.name == "tt.reduce":
            return [reduce_encoding(enc, _axis(op))] * len(results)
        if op.name == "ttg.fp4_to_fp":
            return [fp4_unpacked_encoding(enc, shape, _axis(op))]
    except (ValueError, AssertionError):
        return None
    return None


def backward(op: Operation, enc: Encoding) -> Encoding | None:
    """The encoding every tensor operand of a SAME or SHAPE op needs so that its (first)
    tensor result has ``enc`` for free; None if there is none."""
    if kind_of(op) is OpKind.SAME:
        return enc
    results = tensor_results(op)
    src = tensor_operands(op)[0]
    shape = tensor_shape(results[0].type)
    try:
        if op.name == "tt.trans":
            order = list(op.properties["order"].get_values())  # type: ignore[union-attr]
            inverse = [order.index(i) for i in range(len(order))]
            return trans_encoding(enc, shape, inverse)
        if op.name == "tt.reshape":
            return reshape_encoding(enc, shape, tensor_shape(src.type))
        if op.name == "tt.join":
            return split_encoding(enc, shape)
        if op.name == "tt.split":
            return join_encoding(enc, shape)
        if op.name == "tt.expand_dims":
            from ltc.encodings.base import DistributedEncoding

            return SliceEncoding(_axis(op), enc) if isinstance(enc, DistributedEncoding) else None
        if op.name == "tt.reduce":
            return enc.parent if isinstance(enc, SliceEncoding) and enc.dim == _axis(op) else None
        if op.name == "ttg.fp4_to_fp":
            return fp4_packed_encoding(enc, shape, _axis(op))
    except (ValueError, AssertionError):
        return None
    return None


MEMORY_PRICE = 8.0
"""``compute_price`` of a memory access (a load, a store, an atomic, a shared load)."""


def compute_price(op: Operation) -> float:
    """Cycles per warp for each 32-bit register of its result a thread computes with
    ``op``, in the unit of a conversion's price (memory-pipe cycles,
    ``ltc.lowering.plans.cost``): a quarter for ALU ops (as a plan's select), 2 for
    transcendental math, 8 for a memory access; shape ops and sources are free."""
    if kind_of(op) is OpKind.SOURCE or (kind_of(op) is OpKind.SHAPE and op.name not in ("tt.reduce", "ttg.fp4_to_fp")):
        return 0.0
    if op.name in _MEMORY or op.name == "ttg.local_load":
        return MEMORY_PRICE
    if op.name in _EXPENSIVE_MATH or op.name.startswith("math."):
        return 2.0
    return 0.25


def remat_cost(op: Operation) -> float:
    """What computing ``op`` once more costs per warp (``compute_price`` times the
    32-bit registers of its first result a thread holds, elements spread evenly)."""
    results = tensor_results(op)
    price = compute_price(op)
    if not results or not price:
        return 0.0
    t = results[0].type
    hw = layout_context(op)
    threads = (hw.num_warps or 4) * hw.threads_per_warp
    words = max(1.0, math.prod(tensor_shape(t)) / threads) * max(1.0, element_bytes(t) / 4)  # type: ignore[arg-type]
    return price * words
