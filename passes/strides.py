"""Constant strides: which integer and pointer tensors are affine in their index.

A tensor ``v`` of shape ``(n_0, ..., n_{r-1})`` has :class:`Strides` ``(s, D)`` when one
scalar ``b`` (known only at run time) gives every element::

    v[i_0, ..., i_{r-1}] = b + s_0·i_0 + ... + s_{r-1}·i_{r-1}      and  D divides b

(``s`` and ``D`` count elements for integers, bytes for pointers; ``D`` is a power of
two). Triton's axis info keeps, per dim, how long ``+1`` runs are; strides also say how
the dims join up: ``r·k + c`` on a ``[rows, k]`` tensor has strides ``(k, 1)``, so the
whole tensor is one contiguous run in row-major order, which per-dim contiguity cannot
tell (:func:`contiguous_dims`).

Rules (everything else is unknown, ``None``; a runtime factor is never a stride):
``make_range`` has stride 1; ``splat``, constants and scalars stride 0 with the axis-info
divisibility of the value; ``expand_dims`` / ``broadcast`` add stride-0 dims;
``convert_layout`` keeps, ``trans`` permutes; ``addi`` / ``subi`` / ``addptr`` add strides
(an ``addptr`` offset counts elements of the pointee); ``muli`` / ``shli`` by a known
constant scale them; ``extsi`` keeps them. A dim of extent 1 has stride 0. Like Triton's
axis info and ltc's lowering, this assumes that index arithmetic does not overflow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, TensorType
from xdsl.ir import Operation, OpResult, SSAValue

from ltc.passes.axis_info import KMAX_DIVISOR, AxisInfoAnalysis, highest_pow2_divisor, pointee_bits

__all__ = ["StrideAnalysis", "Strides", "contiguous_dims", "pow2_divisor"]


def pow2_divisor(n: int) -> int:
    """The largest power of two dividing ``n`` (``KMAX_DIVISOR`` for 0)."""
    return highest_pow2_divisor(n) if n else KMAX_DIVISOR


def _mul_div(a: int, b: int) -> int:
    return KMAX_DIVISOR if a > KMAX_DIVISOR // b else a * b


@dataclass(frozen=True)
class Strides:
    """``v[i] = b + Σ_d strides[d]·i_d`` with ``divisibility | b`` (see the module doc).
    A scalar has no strides (``()``)."""

    strides: tuple[int, ...]
    divisibility: int

    def scaled(self, k: int) -> Strides:
        """``v · k``."""
        if k == 0:
            return Strides((0,) * len(self.strides), KMAX_DIVISOR)
        return Strides(tuple(s * k for s in self.strides), _mul_div(self.divisibility, pow2_divisor(k)))

    def plus(self, other: Strides, sign: int = 1) -> Strides:
        """``v + sign·other`` (same rank, or ``other`` a scalar that is splat implicitly)."""
        theirs = other.strides or (0,) * len(self.strides)
        return Strides(
            tuple(a + sign * b for a, b in zip(self.strides, theirs, strict=True)),
            min(self.divisibility, other.divisibility),
        )

    @property
    def is_uniform(self) -> bool:
        """Every element is ``b`` (all strides 0)."""
        return not any(self.strides)


def contiguous_dims(strides: Sequence[int], shape: Sequence[int], order: Sequence[int], unit: int) -> int:
    """How many dims of ``order`` (fastest first) are laid out back to back: the largest
    ``m`` with ``strides[order[j]] == unit · Π_{i<j} shape[order[i]]`` for all ``j < m``
    (``unit``: the stride of one element, its bytes for a pointer). Then, for any
    ``t <= shape[order[m-1]]``, the elements of a box that is full along ``order[0..m-2]``
    and ``t`` long along ``order[m-1]`` are ``unit``-spaced and consecutive in that order.
    Dims of extent 1 never break the chain."""
    expected = unit
    m = 0
    for d in order:
        if shape[d] != 1 and strides[d] != expected:
            break
        expected *= shape[d]
        m += 1
    return m


def _shape(v: SSAValue) -> tuple[int, ...] | None:
    return tuple(v.type.get_shape()) if isinstance(v.type, TensorType) else None


def _normalized(strides: Sequence[int], shape: Sequence[int], divisibility: int) -> Strides:
    return Strides(tuple(0 if n == 1 else s for s, n in zip(strides, shape, strict=True)), divisibility)


class StrideAnalysis:
    """Strides of values on demand (each value's def chain is walked once, then
    remembered); scalar facts come from ``axis`` (the module's axis info)."""

    def __init__(self, axis: AxisInfoAnalysis) -> None:
        self.axis = axis
        self._memo: dict[SSAValue, Strides | None] = {}

    def get(self, value: SSAValue) -> Strides | None:
        """The strides of ``value`` (an integer or pointer tensor or scalar), or None."""
        if value in self._memo:
            return self._memo[value]
        # post-order over the def chain without recursion (chains can be long)
        stack: list[tuple[SSAValue, bool]] = [(value, False)]
        while stack:
            v, ready = stack.pop()
            if v in self._memo:
                continue
            inputs = self._inputs(v)
            if not ready and any(u not in self._memo for u in inputs):
                stack.append((v, True))
                stack.extend((u, False) for u in inputs if u not in self._memo)
                continue
            self._memo[v] = self._compute(v)
        return self._memo[value]

    # -- rules ------------------------------------------------------------------------------
    def _inputs(self, v: SSAValue) -> list[SSAValue]:
        if not isinstance(v, OpResult) or _shape(v) is None or v.op.name not in _TRANSFER_OPS:
            return []
        return list(v.op.operands)

    def _uniform(self, v: SSAValue) -> Strides | None:
        """A scalar, or a tensor whose axis info says all its elements are equal."""
        info = self.axis.get(v)
        shape = _shape(v)
        if shape is None:
            div = KMAX_DIVISOR if info.constant == 0 else info.divisibility[0]
            return Strides((), div)
        if info.rank == len(shape) and all(c >= n for c, n in zip(info.constancy, shape)):
            div = KMAX_DIVISOR if info.constant == 0 else info.global_divisibility
            return Strides((0,) * len(shape), div)
        return None

    def _constant(self, v: SSAValue) -> int | None:
        return self.axis.get(v).constant

    def _compute(self, v: SSAValue) -> Strides | None:
        shape = _shape(v)
        uniform = self._uniform(v)
        if shape is None or uniform is not None or not isinstance(v, OpResult):
            return uniform
        op = v.op
        if op.name not in _TRANSFER_OPS:
            return None
        ins = [self._memo.get(u) for u in op.operands]
        out = _transfer(self, op, ins, shape)
        return None if out is None else _normalized(out.strides, shape, out.divisibility)


def _transfer(sa: StrideAnalysis, op: Operation, ins: list[Strides | None], shape: tuple[int, ...]) -> Strides | None:
    name = op.name
    if name == "tt.make_range":
        start = op.properties["start"]
        assert isinstance(start, IntegerAttr)
        return Strides((1,), pow2_divisor(start.value.data))
    if name == "tt.splat":
        src = ins[0]
        return None if src is None else Strides((0,) * len(shape), src.divisibility)
    if any(s is None for s in ins):
        return None
    known: list[Strides] = ins  # type: ignore[assignment]
    if name in ("ttg.convert_layout", "arith.extsi"):
        return known[0]
    if name == "tt.expand_dims":
        axis = op.properties["axis"]
        assert isinstance(axis, IntegerAttr)
        strides = list(known[0].strides)
        strides.insert(axis.value.data, 0)
        return Strides(tuple(strides), known[0].divisibility)
    if name == "tt.broadcast":
        return known[0]  # extent-1 dims already have stride 0
    if name == "tt.trans":
        order = op.properties["order"]
        assert isinstance(order, DenseArrayBase)
        return Strides(tuple(known[0].strides[int(o)] for o in order.get_values()), known[0].divisibility)
    if name in ("arith.addi", "arith.subi"):
        return known[0].plus(known[1], -1 if name == "arith.subi" else 1)
    if name == "tt.addptr":
        elem_bytes = max(1, pointee_bits(op.operands[0].type) // 8)
        return known[0].plus(known[1].scaled(elem_bytes))
    if name == "arith.muli":
        for a, b in ((0, 1), (1, 0)):
            k = sa._constant(op.operands[b])
            if k is not None:
                return known[a].scaled(k)
        if known[0].is_uniform and known[1].is_uniform:  # a runtime scalar times a runtime scalar
            return Strides(known[0].strides, _mul_div(known[0].divisibility, known[1].divisibility))
        return None
    if name == "arith.shli":
        k = sa._constant(op.operands[1])
        if k is None or not 0 <= k < 63:
            return None
        return known[0].scaled(1 << k)
    return None


_TRANSFER_OPS = frozenset({
    "tt.make_range", "tt.splat", "ttg.convert_layout", "arith.extsi", "tt.expand_dims", "tt.broadcast",
    "tt.trans", "arith.addi", "arith.subi", "tt.addptr", "arith.muli", "arith.shli",
})
"""Ops with a stride rule; any other op's tensor result is unknown unless it is uniform."""

