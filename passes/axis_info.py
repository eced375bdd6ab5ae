"""Axis info: Triton 3.9's ``AxisInfoAnalysis`` (``lib/Analysis/AxisInfo.cpp``), ours.

For every SSA value of a ``tt.func`` it computes, per tensor dim ``d`` (a scalar counts
as one dim):

* ``contiguity[d]``: the length of the shortest run of ``+1`` steps along ``d``;
* ``divisibility[d]``: the largest power of two dividing the first element of every
  such run (for pointers: the byte address);
* ``constancy[d]``: the length of the shortest run of equal values along ``d``;
* ``constant``: the value itself when it is a known integer (scalar or splat), as a
  signed integer of the value's bit width.

It is a forward data-flow analysis: transfer functions per op over ``tt`` / ``arith`` /
``scf``, a join that takes the gcd of each field, loop-carried values iterated to a
fixpoint from the optimistic side (a loop argument starts at its init value). Seeds
are the ``tt.divisibility`` / ``tt.contiguity`` / ``tt.constancy`` attributes of
function arguments and of ops; everything unknown is 1. On a module, callers are
solved before callees and a callee's scalar arguments take the gcd over its call sites.

Triton's quirks kept on purpose (the tests pin them against Triton's coalesce output):
``make_range`` starting at 0 has divisibility ``2**30`` (Triton takes the highest power
of two of a ``uint32``), the constant 0 has ``2**62``; every ``AxisInfo`` raises each
dim's divisibility to the largest divisibility of a dim whose contiguity is 1 (every
element of such a dim starts a run).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.traits import IsolatedFromAbove

from ltc.dialects.tt import FuncOp, PtrType
from ltc.dialects.verifier import class_has_trait
from ltc.passes.cfg import edges, is_branch
from ltc.passes.layout_ir import walk_list

__all__ = [
    "KMAX_DIVISOR",
    "MAKE_RANGE_ZERO_DIVISIBILITY",
    "AxisInfo",
    "AxisInfoAnalysis",
    "alignment",
    "contiguity_order",
    "highest_pow2_divisor",
    "mask_alignment",
    "pointee_bits",
]

KMAX_DIVISOR = 1 << 62
"""Divisibility of 0 (and of "unknown, optimistic"): ``highestPowOf2Divisor<int64_t>(0)``."""

MAKE_RANGE_ZERO_DIVISIBILITY = 1 << 30
"""Divisibility of ``make_range`` starting at 0: Triton reads ``start`` as a ``uint32``."""

_KMAX_LOG2 = 62
_HINTS = ("tt.contiguity", "tt.divisibility", "tt.constancy")


def highest_pow2_divisor(n: int, bits: int = 64) -> int:
    """The largest power of two dividing ``n`` (Triton's ``highestPowOf2Divisor<intN_t>``):
    ``2**(bits - 2)`` for 0 (and for the most negative value)."""
    n &= (1 << bits) - 1
    if n == 0 or n == 1 << (bits - 1):
        return 1 << (bits - 2)
    return n & -n


def _gcd(a: int, b: int, *rest: int) -> int:
    """Triton's variadic gcd: a zero first argument returns the second (rest ignored)."""
    if a == 0:
        return b
    if b == 0:
        return a
    g = math.gcd(a, b)
    return _gcd(g, *rest) if rest else g


def _mul_divisor(lhs: int, rhs: int) -> int:
    """``lhs * rhs`` saturated at ``KMAX_DIVISOR`` (Triton's ``multiplyDivisor``)."""
    return KMAX_DIVISOR if lhs > KMAX_DIVISOR // rhs else lhs * rhs


def _unsigned(v: int, width: int) -> int:
    return v & ((1 << width) - 1)


def _signed(v: int, width: int) -> int:
    v = _unsigned(v, width)
    return v - (1 << width) if v >> (width - 1) else v


def _ctz(v: int) -> int:
    return (v & -v).bit_length() - 1


# ---------------------------------------------------------------------------------------
# The lattice value
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AxisInfo:
    """Contiguity, divisibility and constancy per dim (a scalar has one dim) and the
    known integer value (signed), as Triton's ``AxisInfo``.

    Construction normalizes as Triton's constructor does: every dim's divisibility is
    raised to the largest divisibility of a dim with contiguity 1.
    """

    contiguity: tuple[int, ...]
    divisibility: tuple[int, ...]
    constancy: tuple[int, ...]
    constant: int | None = None

    def __post_init__(self) -> None:
        # (map and the comprehension below: this runs for every lattice value)
        contig = tuple(map(int, self.contiguity))
        div = tuple(map(int, self.divisibility))
        const = tuple(map(int, self.constancy))
        if not len(contig) == len(div) == len(const):
            raise ValueError(f"AxisInfo fields need one entry per dim: {contig} {div} {const}")
        global_div = max([d for c, d in zip(contig, div) if c == 1], default=1)
        div = tuple([d if d >= global_div else global_div for d in div])
        object.__setattr__(self, "contiguity", contig)
        object.__setattr__(self, "divisibility", div)
        object.__setattr__(self, "constancy", const)

    @property
    def rank(self) -> int:
        return len(self.contiguity)

    @property
    def global_divisibility(self) -> int:
        """The largest divisibility of a dim of contiguity 1 (1 if none)."""
        return max((d for c, d in zip(self.contiguity, self.divisibility) if c == 1), default=1)

    @staticmethod
    def unknown(rank: int) -> AxisInfo:
        """Nothing known: every field 1 (Triton's pessimistic state without hints)."""
        return _unknown(rank)

    @staticmethod
    def of_constant(value: int, width: int, shape: Sequence[int] | None = None) -> AxisInfo:
        """A known ``width``-bit integer, splat over ``shape`` (None: a scalar)."""
        return _of_constant(value, width, None if shape is None else tuple(shape))

    @staticmethod
    def _of_constant(value: int, width: int, shape: tuple[int, ...] | None) -> AxisInfo:
        bits = _unsigned(value, width)
        div = KMAX_DIVISOR if bits == 0 else 1 << min(_ctz(bits), _KMAX_LOG2)
        constancy = tuple(shape) if shape is not None else (1,)
        rank = len(constancy)
        return AxisInfo((1,) * rank, (div,) * rank, constancy, _signed(value, width))

    def without_constant(self) -> AxisInfo:
        return AxisInfo(self.contiguity, self.divisibility, self.constancy)

    def join(self, other: AxisInfo) -> AxisInfo:
        """The gcd of each field; divisibility also folds in the contiguities where they
        differ (a run of the join may start inside a run of either side)."""
        if self == other:
            return self  # the join is idempotent (a revisit that learns nothing new)
        if self.rank != other.rank:
            raise ValueError(f"cannot join AxisInfo of rank {self.rank} and {other.rank}")
        return AxisInfo(
            tuple(_gcd(a, b) for a, b in zip(self.contiguity, other.contiguity)),
            tuple(_div_from_contiguity(self, other, d) for d in range(self.rank)),
            tuple(_gcd(a, b) for a, b in zip(self.constancy, other.constancy)),
            self.constant if self.constant is not None and self.constant == other.constant else None,
        )

    def __str__(self) -> str:
        c = "<none>" if self.constant is None else str(self.constant)
        return (
            f"contiguity = {list(self.contiguity)}, divisibility = {list(self.divisibility)}, "
            f"constancy = {list(self.constancy)}, constant_value = {c}"
        )


# The solver asks for these for nearly every value; an AxisInfo is immutable, so equal
# requests share one (building one normalizes its fields).
@lru_cache(maxsize=64)
def _unknown(rank: int) -> AxisInfo:
    ones = (1,) * rank
    return AxisInfo(ones, ones, ones)


@lru_cache(maxsize=1024)
def _of_constant(value: int, width: int, shape: tuple[int, ...] | None) -> AxisInfo:
    return AxisInfo._of_constant(value, width, shape)


def _div_from_contiguity(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
    lc, rc = lhs.contiguity[d], rhs.contiguity[d]
    if lc == rc or lc == KMAX_DIVISOR or rc == KMAX_DIVISOR:
        return _gcd(lhs.divisibility[d], rhs.divisibility[d])
    return _gcd(lhs.divisibility[d], rhs.divisibility[d], lc, rc)


# ---------------------------------------------------------------------------------------
# Public helpers (coalescing, vectorized loads and stores)
# ---------------------------------------------------------------------------------------


def contiguity_order(info: AxisInfo) -> tuple[int, ...]:
    """Dims by decreasing contiguity, ties towards the higher dim (Triton's
    ``getOrderFromContiguity``): all-ones gives ``[rank-1, ..., 0]``."""
    dims = list(range(info.rank - 1, -1, -1))
    return tuple(sorted(dims, key=lambda d: -info.contiguity[d]))


def alignment(info: AxisInfo, dim: int, elem_bits: int, is_pointer: bool = True) -> int:
    """Elements per aligned contiguous run along ``dim`` (Triton's ``getAlignment`` with
    ``dim`` = the layout's fastest dim): ``min(divisibility / elemBytes, contiguity)``;
    the divisibility of a pointer is in bytes, of an integer offset in elements."""
    div = info.divisibility[dim]
    multiple = max(div // max(elem_bits // 8, 1), 1) if is_pointer else div
    return min(multiple, info.contiguity[dim])


def mask_alignment(info: AxisInfo, dim: int) -> int:
    """How many consecutive mask elements along ``dim`` are equal (``getMaskAlignment``)."""
    return max(info.constancy[dim], 1)


def pointee_bits(t: Attribute) -> int:
    """Bit width of what a pointer (or tensor of pointers) points to; for a non-pointer,
    its own element width (Triton's ``getPointeeBitWidth``)."""
    elem = t.element_type if isinstance(t, TensorType) else t
    if isinstance(elem, PtrType):
        elem = elem.pointee_type
        if isinstance(elem, TensorType):
            elem = elem.element_type
    if isinstance(elem, IntegerType):
        return elem.width.data
    width = getattr(elem, "bitwidth", None)
    return int(width) if width is not None else 0


# ---------------------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------------------


def _int_width(t: Attribute) -> int:
    """Width of an integer (element) type; 0 for anything else (index included)."""
    elem = t.element_type if isinstance(t, TensorType) else t
    return elem.width.data if isinstance(elem, IntegerType) else 0


def _shape(t: Attribute) -> tuple[int, ...] | None:
    return tuple(t.get_shape()) if isinstance(t, TensorType) else None


def _rank_of(t: Attribute) -> int:
    if isinstance(t, TensorType):
        return len(t.get_shape())
    if isinstance(t, PtrType) and isinstance(t.pointee_type, TensorType):
        return len(t.pointee_type.get_shape())
    return 1


def _hint_vector(attr: Attribute | None) -> tuple[int, ...] | None:
    """A ``tt.*`` hint: an integer gives one entry, a dense array one per dim."""
    if isinstance(attr, IntegerAttr):
        return (_unsigned(attr.value.data, attr.type.width.data) if isinstance(attr.type, IntegerType) else attr.value.data,)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return tuple(int(v) for v in attr.get_values())
    return None


def _apply_hints(info: AxisInfo, attrs: dict[str, Attribute]) -> AxisInfo:
    """Override fields with ``tt.contiguity`` / ``tt.divisibility`` / ``tt.constancy``
    (hints of the wrong length are ignored: Triton would build an ill-formed value)."""
    if not any(name in attrs for name in _HINTS):
        return info  # the common case, without building anything
    fields = [info.contiguity, info.divisibility, info.constancy]
    changed = False
    for i, name in enumerate(_HINTS):
        vec = _hint_vector(attrs.get(name))
        if vec is not None and len(vec) == info.rank:
            fields[i] = tuple(max(1, v) for v in vec)  # a hint of 0 (or less) says nothing: 1
            changed = True
    return AxisInfo(*fields, info.constant) if changed else info


# ---------------------------------------------------------------------------------------
# Exact constants (Triton's ConstantEvaluator: fixed-width two's complement)
# ---------------------------------------------------------------------------------------


def _overflow_flags(op: Operation) -> frozenset[str]:
    flags = op.properties.get("overflowFlags")
    data = getattr(flags, "data", None)
    if not data:
        return frozenset()
    return frozenset(getattr(f, "value", str(f)) for f in data)


def _eval_constant(op: Operation, consts: list[int | None]) -> int | None:
    """The exact value of ``op``'s single integer result from constant operands, or None.

    ``consts`` are the operands' known values (signed). Operations whose result would be
    poison (division by zero, a flagged overflow, a too-large shift) give None.
    """
    if len(op.results) != 1:
        return None
    w = _int_width(op.results[0].type)
    if not w:
        return None
    name = op.name
    if name == "arith.constant":
        value = op.properties.get("value")
        if isinstance(value, IntegerAttr) and isinstance(value.type, IntegerType):
            return _signed(value.value.data, w)
        if isinstance(value, DenseIntOrFPElementsAttr) and value.is_splat() and _int_width(value.type):
            return _signed(int(value.get_values()[0]), w)
        return None
    widths = [_int_width(v.type) for v in op.operands]
    u = [None if c is None or not wd else _unsigned(c, wd) for c, wd in zip(consts, widths)]
    if name in ("arith.extsi", "arith.extui", "arith.trunci"):
        if u[0] is None:
            return None
        if name == "arith.extsi":
            return _signed(u[0], widths[0])
        if name == "arith.extui":
            if "nonNeg" in op.properties and u[0] >> (widths[0] - 1):
                return None
            return _signed(u[0], w)
        flags = _overflow_flags(op)
        if "nuw" in flags and u[0] >> w:
            return None
        if "nsw" in flags and _signed(u[0], widths[0]) != _signed(u[0], w):
            return None
        return _signed(u[0], w)
    if name == "arith.select":
        if u[0] is not None:
            chosen = consts[2] if u[0] == 0 else consts[1]
            return None if chosen is None else _signed(chosen, w)
        if u[1] is not None and u[1] == u[2]:
            return _signed(u[1], w)
        return None
    if len(u) != 2:
        return None
    a, b = u
    wa = widths[0]
    if name == "arith.muli" and (a == 0 or b == 0):
        return 0
    if name in ("arith.remsi", "arith.remui") and b is not None:
        if b == 1 or (name == "arith.remsi" and b == (1 << wa) - 1):
            return 0
    if a is None or b is None:
        return None
    sa, sb = _signed(a, wa), _signed(b, wa)
    mod = 1 << wa
    if name in ("arith.addi", "arith.subi", "arith.muli", "arith.shli"):
        if name == "arith.shli" and b >= wa:
            return None
        if name == "arith.addi":
            ures, sres = a + b, sa + sb
        elif name == "arith.subi":
            ures, sres = a - b, sa - sb
        elif name == "arith.muli":
            ures, sres = a * b, sa * sb
        else:
            ures, sres = a << b, sa << b
        flags = _overflow_flags(op)
        if "nuw" in flags and not 0 <= ures < mod:
            return None
        if "nsw" in flags and not -(mod >> 1) <= sres < (mod >> 1):
            return None
        return _signed(ures, wa)
    if name in ("arith.divsi", "arith.divui"):
        if b == 0:
            return None
        exact = "isExact" in op.properties or "isExact" in op.attributes
        if name == "arith.divsi":
            if sa == -(mod >> 1) and sb == -1:
                return None
            q = abs(sa) // abs(sb) * (1 if (sa < 0) == (sb < 0) else -1)
            if exact and q * sb != sa:
                return None
            return _signed(q, wa)
        if exact and a % b:
            return None
        return _signed(a // b, wa)
    if name in ("arith.remsi", "arith.remui"):
        if b == 0:
            return None
        if name == "arith.remsi":
            r = abs(sa) % abs(sb)
            return _signed(-r if sa < 0 else r, wa)
        return _signed(a % b, wa)
    if name == "arith.andi":
        return _signed(a & b, wa)
    if name == "arith.ori":
        return _signed(a | b, wa)
    if name == "arith.xori":
        return _signed(a ^ b, wa)
    if name in ("arith.shrsi", "arith.shrui"):
        if b >= wa:
            return None
        if ("isExact" in op.properties or "isExact" in op.attributes) and _ctz(a | mod) < b:
            return None
        return _signed((sa >> b) if name == "arith.shrsi" else (a >> b), wa)
    if name in ("arith.minsi", "arith.maxsi"):
        return _signed((min if name == "arith.minsi" else max)(sa, sb), wa)
    if name in ("arith.minui", "arith.maxui"):
        return _signed((min if name == "arith.minui" else max)(a, b), wa)
    if name == "arith.cmpi":
        pred = _CMPI[op.properties["predicate"].value.data]  # type: ignore[union-attr]
        x, y = (sa, sb) if pred[0] == "s" or pred in ("eq", "ne") else (a, b)
        res = {
            "eq": x == y, "ne": x != y,
            "slt": x < y, "sle": x <= y, "sgt": x > y, "sge": x >= y,
            "ult": x < y, "ule": x <= y, "ugt": x > y, "uge": x >= y,
        }[pred]
        return _signed(int(res), 1)
    return None


_CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


# ---------------------------------------------------------------------------------------
# Transfer functions: op, operand infos -> result info (None: nothing known)
# ---------------------------------------------------------------------------------------

_Transfer = Callable[[Operation, list[AxisInfo]], "AxisInfo | None"]


def _is_one(info: AxisInfo, width: int) -> bool:
    return info.constant is not None and width > 0 and _unsigned(info.constant, width) == 1


def _is_zero(info: AxisInfo) -> bool:
    return info.constant == 0


def _binary(
    op: Operation,
    ins: list[AxisInfo],
    contiguity: Callable[[AxisInfo, AxisInfo, int], int] | None = None,
    divisibility: Callable[[AxisInfo, AxisInfo, int], int] | None = None,
    constancy: Callable[[AxisInfo, AxisInfo, int], int] | None = None,
) -> AxisInfo:
    """Triton's ``BinaryOpVisitorImpl``: defaults contiguity 1, divisibility 1,
    constancy gcd."""
    lhs, rhs = ins[0], ins[1]
    dims = range(lhs.rank)
    return AxisInfo(
        tuple(contiguity(lhs, rhs, d) if contiguity else 1 for d in dims),
        tuple(divisibility(lhs, rhs, d) if divisibility else 1 for d in dims),
        tuple(constancy(lhs, rhs, d) if constancy else _gcd(lhs.constancy[d], rhs.constancy[d]) for d in dims),
    )


def _add_sub(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    is_sub = op.name == "arith.subi"
    elem_size = max(1, pointee_bits(op.operands[0].type) // 8) if op.name == "tt.addptr" else 1

    def contig(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
        # x + y is contiguous where one side runs and the other is constant; for x - y
        # only a running left side keeps the +1 steps.
        if is_sub:
            return _gcd(lhs.contiguity[d], rhs.constancy[d])
        return max(_gcd(lhs.constancy[d], rhs.contiguity[d]), _gcd(lhs.contiguity[d], rhs.constancy[d]))

    def div(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
        ldiv, rdiv = lhs.divisibility[d], rhs.divisibility[d]
        if op.name == "tt.addptr":
            rdiv = _mul_divisor(rdiv, elem_size)  # the offset counts elements, the pointer bytes
        lc, rc = lhs.contiguity[d], rhs.contiguity[d]
        if lc > 1 and rc > 1:
            # both run: x_t + y_t steps by 2, x_t - y_t is constant within the common run
            if is_sub and lc == rc:
                return _gcd(ldiv, rdiv)
            return 2 if ldiv % 2 == 0 and rdiv % 2 == 0 else 1
        if lc > 1 or rc > 1:
            # a run of the result may start inside a run of an operand
            return _gcd(ldiv, rdiv, _mul_divisor(contig(lhs, rhs, d), elem_size))
        return _gcd(ldiv, rdiv)

    return _binary(op, ins, contig, div)


def _muli(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    w = _int_width(op.results[0].type)

    def contig(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
        return max(lhs.contiguity[d] if _is_one(rhs, w) else 1, rhs.contiguity[d] if _is_one(lhs, w) else 1)

    def div(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
        # [4, 5, 6, 7] * 2 = [8, 10, 12, 14]: a running side contributes only 1
        ldiv = 1 if lhs.contiguity[d] > 1 and not _is_one(rhs, w) else lhs.divisibility[d]
        rdiv = 1 if rhs.contiguity[d] > 1 and not _is_one(lhs, w) else rhs.divisibility[d]
        return _mul_divisor(ldiv, rdiv)

    return _binary(op, ins, contig, div)


def _contiguous_dim(info: AxisInfo, shape: Sequence[int], d: int) -> bool:
    return info.contiguity[d] == shape[d]


def _constant_dim(info: AxisInfo, shape: Sequence[int], d: int) -> bool:
    return info.constancy[d] == shape[d]


def _div(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    w = _int_width(op.results[0].type)
    shape = _shape(op.results[0].type)

    def contig(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
        return lhs.contiguity[d] if _is_one(rhs, w) else 1

    def const(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
        k = _gcd(lhs.constancy[d], rhs.constancy[d])
        if shape is not None and _contiguous_dim(lhs, shape, d) and _constant_dim(rhs, shape, d):
            # a run [k*d_l, k*d_l + n) divided by a constant stays constant in
            # gcd(d_l, d_r)-long pieces
            k = max(k, _gcd(lhs.contiguity[d], lhs.divisibility[d], rhs.divisibility[d]))
        return k

    def div(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
        if _is_zero(lhs) or _is_one(rhs, w):
            return lhs.divisibility[d]
        if rhs.constant is not None and lhs.contiguity[d] == 1:
            divisor = _unsigned(rhs.constant, w)
            if op.name == "arith.divsi" and divisor >> (w - 1):
                divisor = _unsigned(-divisor, w)
            if divisor and divisor & (divisor - 1) == 0:
                return max(1, lhs.divisibility[d] >> min(_ctz(divisor), _KMAX_LOG2))
        return 1

    return _binary(op, ins, contig, div, const)


def _rem(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    shape = _shape(op.results[0].type)

    def contig(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
        if shape is not None and _contiguous_dim(lhs, shape, d) and _constant_dim(rhs, shape, d):
            return _gcd(lhs.contiguity[d], lhs.divisibility[d], rhs.divisibility[d])
        return 1

    def div(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
        c = contig(lhs, rhs, d)
        g = _gcd(lhs.divisibility[d], rhs.divisibility[d])
        if lhs.contiguity[d] > c or rhs.contiguity[d] > c:
            g = _gcd(g, c)  # new runs start inside an operand's run, at multiples of c
        return g

    return _binary(op, ins, contig, div)


def _logical(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    return _binary(op, ins)


def _shift(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    w = _int_width(op.results[0].type)
    left = op.name == "arith.shli"

    def contig(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
        return lhs.contiguity[d] if _is_zero(rhs) else 1

    def div(lhs: AxisInfo, rhs: AxisInfo, d: int) -> int:
        amount = None if rhs.constant is None else _unsigned(rhs.constant, w)
        ldiv = lhs.divisibility[d]
        if lhs.contiguity[d] > 1 and amount != 0:
            ldiv = 1
        if amount is None:
            return ldiv if left else 1
        if amount >= w:
            return 1
        shift = min(amount, _KMAX_LOG2)
        return _mul_divisor(ldiv, 1 << shift) if left else max(1, ldiv >> shift)

    return _binary(op, ins, contig, div)


def _cmpi(op: Operation, ins: list[AxisInfo]) -> AxisInfo | None:
    shape = _shape(op.results[0].type)
    if shape is None:
        return None
    pred = _CMPI[op.properties["predicate"].value.data]  # type: ignore[union-attr]
    lhs, rhs = ins
    constancy = []
    for d in range(len(shape)):
        k = _gcd(lhs.constancy[d], rhs.constancy[d])
        if pred in ("sgt", "ugt", "sle", "ule") and _constant_dim(lhs, shape, d):
            # c > [c, c+1, ...] flips only at run boundaries aligned to the divisibility
            k = max(k, _gcd(rhs.contiguity[d], lhs.divisibility[d], rhs.divisibility[d]))
        elif pred in ("slt", "ult", "sge", "uge") and _constant_dim(rhs, shape, d):
            k = max(k, _gcd(lhs.contiguity[d], lhs.divisibility[d], rhs.divisibility[d]))
        constancy.append(k)
    ones = (1,) * len(shape)
    return AxisInfo(ones, ones, tuple(constancy))


def _select(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    cond, lhs, rhs = ins
    if cond.constant is not None:
        return rhs if cond.constant == 0 else lhs
    if not isinstance(op.operands[0].type, TensorType):
        return lhs.join(rhs)  # one whole side is taken
    contig, div, const = [], [], []
    for d in range(lhs.rank):
        const.append(_gcd(lhs.constancy[d], rhs.constancy[d], cond.constancy[d]))
        contig.append(_gcd(lhs.contiguity[d], rhs.contiguity[d], cond.constancy[d]))
        div.append(_gcd(_div_from_contiguity(lhs, rhs, d), contig[-1]))
    return AxisInfo(tuple(contig), tuple(div), tuple(const))


def _min_max(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    return ins[0].join(ins[1])


def _make_range(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    start = op.properties["start"].value.data  # type: ignore[union-attr]
    end = op.properties["end"].value.data  # type: ignore[union-attr]
    return AxisInfo((end - start,), (highest_pow2_divisor(start, 32),), (1,))


def _splat(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    shape = _shape(op.results[0].type) or (1,)
    rank = len(shape)
    return AxisInfo((1,) * rank, (ins[0].divisibility[0],) * rank, shape, ins[0].constant)


def _load(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    # a load of equal pointers under an equal mask yields equal values
    ptr = ins[0]
    mask = ins[1] if len(ins) > 1 else None
    ones = (1,) * ptr.rank
    return AxisInfo(
        ones, ones, tuple(_gcd(ptr.constancy[d], mask.constancy[d] if mask else 0) for d in range(ptr.rank))
    )


def _expand_dims(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    src = ins[0]
    out_type = op.results[0].type
    if src.constant is not None:
        return AxisInfo.of_constant(src.constant, _int_width(out_type) or 64, _shape(out_type))
    axis = op.properties["axis"].value.data  # type: ignore[union-attr]
    new_div = 1
    if src.rank:
        # a running dim's divisibility says nothing about its other elements
        new_div = 1 if src.contiguity[0] > 1 else src.divisibility[0]
        for d in range(1, src.rank):
            new_div = _gcd(new_div, 1 if src.contiguity[d] > 1 else src.divisibility[d])
    contig = list(src.contiguity)
    div = list(src.divisibility)
    const = list(src.constancy)
    contig.insert(axis, 1)
    div.insert(axis, new_div)
    const.insert(axis, 1)
    return AxisInfo(tuple(contig), tuple(div), tuple(const))


def _broadcast(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    src = ins[0]
    src_shape = _shape(op.operands[0].type) or (1,)
    dst_shape = _shape(op.results[0].type) or (1,)
    return AxisInfo(
        tuple(1 if s == 1 else src.contiguity[d] for d, s in enumerate(src_shape)),
        src.divisibility,
        tuple(dst_shape[d] if s == 1 else src.constancy[d] for d, s in enumerate(src_shape)),
        src.constant,
    )


def _suffix_products(shape: Sequence[int]) -> list[int]:
    out = [1] * (len(shape) + 1)
    for d in range(len(shape) - 1, -1, -1):
        out[d] = out[d + 1] * shape[d]
    return out


def _reshape(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    """Row-major reshape: a destination dim inherits from the source dim it splits; a run
    survives only from that dim's low boundary, constancy merges constant dims."""
    src = ins[0]
    src_shape = _shape(op.operands[0].type) or (1,)
    dst_type = op.results[0].type
    dst_shape = _shape(dst_type) or (1,)
    if src.constant is not None:
        return AxisInfo.of_constant(src.constant, _int_width(dst_type) or 64, dst_shape)
    p = _suffix_products(src_shape)
    q = _suffix_products(dst_shape)
    g = src.global_divisibility
    contig = [1] * len(dst_shape)
    div = [g] * len(dst_shape)
    const = [1] * len(dst_shape)
    for m in range(len(dst_shape)):
        dst_stride = q[m + 1]
        i = next((i for i in range(len(src_shape)) if p[i + 1] <= dst_stride < p[i]), 0)
        src_stride = p[i + 1]
        sc, sd, sk = src.contiguity[i], src.divisibility[i], src.constancy[i]
        if sc > 1:
            if dst_stride == src_stride:
                dc = min(sc, dst_shape[m])
                contig[m] = dc
                div[m] = max(g, sd if dc == sc else min(sd, dc))
            continue
        end = src_stride * sk
        if dst_stride <= end:
            dk = min(dst_shape[m], end // dst_stride)
            remaining = dst_shape[m] // dk
            dim = i - 1
            while sk == src_shape[i] and dim >= 0 and remaining > 1:
                piece = min(src_shape[dim], remaining)
                pk = min(src.constancy[dim], piece)
                dk *= pk
                if pk < piece:
                    break
                remaining //= piece
                dim -= 1
            const[m] = dk
    return AxisInfo(tuple(contig), tuple(div), tuple(const))


def _trans(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    src = ins[0]
    order_attr = op.properties["order"]
    assert isinstance(order_attr, DenseArrayBase)
    order = [int(v) for v in order_attr.get_values()]
    return AxisInfo(
        tuple(src.contiguity[o] for o in order),
        tuple(src.divisibility[o] for o in order),
        tuple(src.constancy[o] for o in order),
        src.constant,
    )


def _identity(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    return ins[0]


def _int_cast(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    return ins[0].without_constant()  # an exact cast was already folded


def _unrealized_cast(op: Operation, ins: list[AxisInfo]) -> AxisInfo | None:
    if len(op.operands) != 1 or len(op.results) != 1:
        return None
    out = op.results[0].type
    if isinstance(out, TensorType) and len(out.get_shape()) != ins[0].rank:
        return AxisInfo.unknown(_rank_of(out))
    return ins[0] if op.operands[0].type == out else ins[0].without_constant()


def _bitcast(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    info = ins[0]
    src_t = op.operands[0].type
    src_elem = src_t.element_type if isinstance(src_t, TensorType) else src_t
    if not isinstance(src_elem, PtrType):
        return info
    src_bytes = max(1, pointee_bits(src_t) // 8)
    dst_bytes = max(1, pointee_bits(op.results[0].type) // 8)
    if src_bytes == dst_bytes:
        return info
    # every former element now starts a run of its own
    div = tuple(_gcd(d, src_bytes) if c > 1 else d for c, d in zip(info.contiguity, info.divisibility))
    return AxisInfo((1,) * info.rank, div, info.constancy, info.constant)


def _poison(op: Operation, ins: list[AxisInfo]) -> AxisInfo:
    rank = _rank_of(op.results[0].type)
    big = (KMAX_DIVISOR,) * rank
    return AxisInfo(big, big, big)  # never read: anything goes


_TRANSFER: dict[str, _Transfer] = {
    "builtin.unrealized_conversion_cast": _unrealized_cast,
    "arith.extsi": _int_cast,
    "arith.extui": _int_cast,
    "arith.trunci": _int_cast,
    "ttg.convert_layout": _identity,
    "gluon.set_auto_layout": _identity,
    "tt.bitcast": _bitcast,
    "tt.make_range": _make_range,
    "ub.poison": _poison,
    "tt.addptr": _add_sub,
    "arith.addi": _add_sub,
    "arith.subi": _add_sub,
    "arith.muli": _muli,
    "arith.divsi": _div,
    "arith.divui": _div,
    "arith.remsi": _rem,
    "arith.remui": _rem,
    "tt.broadcast": _broadcast,
    "tt.splat": _splat,
    "tt.expand_dims": _expand_dims,
    "tt.reshape": _reshape,
    "arith.cmpi": _cmpi,
    "arith.andi": _logical,
    "arith.ori": _logical,
    "arith.xori": _logical,
    "arith.select": _select,
    "arith.shli": _shift,
    "arith.shrui": _shift,
    "arith.shrsi": _shift,
    "arith.maxsi": _min_max,
    "arith.maxui": _min_max,
    "arith.minsi": _min_max,
    "arith.minui": _min_max,
    "tt.load": _load,
    "tt.trans": _trans,
}


# ---------------------------------------------------------------------------------------
# The solver
# ---------------------------------------------------------------------------------------


def _parent_op(block: Block | None) -> Operation | None:
    if block is None or block.parent is None:
        return None
    return block.parent.parent


def _func_arg_attrs(func: FuncOp, index: int) -> dict[str, Attribute]:
    attrs = func.arg_attrs
    if isinstance(attrs, ArrayAttr) and index < len(attrs.data):
        d = attrs.data[index]
        if isinstance(d, DictionaryAttr):
            return dict(d.data)
    return {}


class _FunctionSolver:
    """Chaotic iteration over one function: visit every op once in program order, then
    revisit the users of every value whose info changed (first in, first out) until
    nothing changes. Infos only ever get joined, so this terminates."""

    def __init__(self, lattice: dict[SSAValue, AxisInfo], arg_seed: dict[int, dict[str, int]]):
        self.lattice = lattice
        self.arg_seed = arg_seed
        self.queue: deque[Operation] = deque()
        self.queued: set[Operation] = set()
        self.live_if_regions: set[Region] = set()
        # Ops of ``visit_generic`` visited since an operand last changed: a revisit would
        # compute the info it joined then, which the join keeps (an op's results are
        # joined by its visits alone, each time with what the visit computes), so it is
        # skipped. Most ops are queued by an operand before the program-order pass
        # reaches them, and nothing has changed by the time the queue comes to them.
        self.settled: set[Operation] = set()

    # -- lattice --------------------------------------------------------------------

    def join(self, value: SSAValue, info: AxisInfo) -> None:
        old = self.lattice.get(value)
        new = info if old is None else old.join(info)
        if new != old:
            self.lattice[value] = new
            settled = self.settled
            for use in value.uses:
                user = use.operation
                settled.discard(user)
                self.enqueue(user)

    def enqueue(self, op: Operation) -> None:
        if op not in self.queued:
            self.queued.add(op)
            self.queue.append(op)

    # -- driver ---------------------------------------------------------------------

    def run(self, func: FuncOp) -> None:
        entry = func.body.blocks.first
        assert entry is not None
        for i, arg in enumerate(entry.args):
            self.join(arg, self.func_arg_state(func, i, arg))
        for op in walk_list(func.body):
            self.visit(op)
        while self.queue:
            op = self.queue.popleft()
            self.queued.discard(op)
            if op not in self.settled:
                self.visit(op)

    def func_arg_state(self, func: FuncOp, index: int, arg: SSAValue) -> AxisInfo:
        info = _apply_hints(AxisInfo.unknown(_rank_of(arg.type)), _func_arg_attrs(func, index))
        seed = self.arg_seed.get(index)
        if seed:
            fields = [info.contiguity, info.divisibility, info.constancy]
            for i, name in enumerate(_HINTS):
                if name in seed and info.rank == 1:
                    fields[i] = (seed[name],)
            info = AxisInfo(*fields)
        return info

    def is_live(self, op: Operation) -> bool:
        """False inside the untaken region of an ``scf.if`` on a known condition (dead
        code is never visited, so its values keep the pessimistic state)."""
        region = op.parent_region()
        while region is not None:
            parent = region.parent
            if parent is None:
                return True
            if parent.name == "scf.if" and region not in self.live_if_regions:
                return False
            if class_has_trait(type(parent), IsolatedFromAbove):
                return True
            region = parent.parent_region()
        return True

    def visit(self, op: Operation) -> None:
        if not self.is_live(op):
            return
        name = op.name
        if name == "scf.for":
            self.visit_for(op)
        elif name == "scf.if":
            self.visit_if(op)
        elif name == "scf.while":
            self.visit_while(op)
        elif name in ("scf.yield", "scf.condition"):
            self.visit_terminator(op)
        elif is_branch(op):
            # a branch operand flows into the successor's block argument (join of all edges)
            for edge in edges(op):
                for v, arg in zip(edge.values, edge.block.args):
                    info = self.lattice.get(v)
                    if info is not None:
                        self.join(arg, info)
        else:
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.args:  # e.g. a reduction's combine arguments
                        self.join(arg, AxisInfo.unknown(_rank_of(arg.type)))
            self.settled.add(op)
            self.visit_generic(op)

    def visit_generic(self, op: Operation) -> None:
        if not op.results:
            return
        ins: list[AxisInfo] = []
        for v in op.operands:
            info = self.lattice.get(v)
            if info is None:
                return  # revisited once every operand is known
            ins.append(info)
        if op.name == "tt.call":
            info = None  # callees are solved separately; their results are unknown here
        else:
            value = _eval_constant(op, [i.constant for i in ins])
            if value is not None:
                out_t = op.results[0].type
                info = AxisInfo.of_constant(value, _int_width(out_t), _shape(out_t))
            else:
                fn = _TRANSFER.get(op.name)
                info = fn(op, ins) if fn else None
                if info is not None and info.constant is not None:
                    w = _int_width(op.results[0].type) if len(op.results) == 1 else 0
                    if w:
                        info = AxisInfo.of_constant(info.constant, w, _shape(op.results[0].type))
                    else:
                        info = info.without_constant()
        if info is None:
            for r in op.results:
                self.join(r, _pessimistic(r))
            return
        info = _apply_hints(info, op.attributes)
        for r in op.results:
            self.join(r, info)

    # -- scf ------------------------------------------------------------------------

    def visit_for(self, op: Operation) -> None:
        lb, _ub, step, *inits = op.operands
        body = op.regions[0].blocks.first
        assert body is not None
        iv, *iter_args = body.args
        for init, arg, res in zip(inits, iter_args, op.results):
            info = self.lattice.get(init)
            if info is not None:  # the loop may run zero times: results see the inits
                self.join(arg, info)
                self.join(res, info)
        lb_info, step_info = self.lattice.get(lb), self.lattice.get(step)
        if lb_info is not None and step_info is not None:
            div = _gcd(lb_info.divisibility[0], step_info.divisibility[0])
            self.join(iv, AxisInfo((1,), (div,), (1,)))

    def if_region_taken(self, op: Operation, index: int) -> bool:
        cond = self.lattice.get(op.operands[0])
        if cond is None:
            return False
        if cond.constant is None:
            return True
        return (cond.constant != 0) == (index == 0)

    def visit_if(self, op: Operation) -> None:
        for index, region in enumerate(op.regions):
            if region in self.live_if_regions or not self.if_region_taken(op, index):
                continue
            self.live_if_regions.add(region)
            for inner in walk_list(region):
                self.enqueue(inner)

    def visit_while(self, op: Operation) -> None:
        before = op.regions[0].blocks.first
        assert before is not None
        for init, arg in zip(op.operands, before.args):
            info = self.lattice.get(init)
            if info is not None:
                self.join(arg, info)

    def visit_terminator(self, op: Operation) -> None:
        parent = _parent_op(op.parent_block())
        if parent is None:
            return
        targets: list[Sequence[SSAValue]] = []
        values: Sequence[SSAValue] = op.operands
        if op.name == "scf.yield" and parent.name == "scf.for":
            body = parent.regions[0].blocks.first
            assert body is not None
            targets = [body.args[1:], parent.results]
        elif op.name == "scf.yield" and parent.name == "scf.if":
            targets = [parent.results]
        elif op.name == "scf.yield" and parent.name == "scf.while":
            before = parent.regions[0].blocks.first
            assert before is not None
            targets = [before.args]
        elif op.name == "scf.condition" and parent.name == "scf.while":
            after = parent.regions[1].blocks.first
            assert after is not None
            values = op.operands[1:]
            targets = [after.args, parent.results]
        for target in targets:
            for v, t in zip(values, target):
                info = self.lattice.get(v)
                if info is not None:
                    self.join(t, info)


def _pessimistic(value: SSAValue) -> AxisInfo:
    """Nothing known, but for ``tt.*`` hints on the defining op."""
    info = AxisInfo.unknown(_rank_of(value.type))
    owner = value.owner
    if isinstance(owner, Operation):
        info = _apply_hints(info, owner.attributes)
    return info


def _functions(op: Operation) -> list[FuncOp]:
    if isinstance(op, FuncOp):
        return [op] if op.body.blocks else []
    return [f for f in walk_list(op) if isinstance(f, FuncOp) and f.body.blocks]


def _callee_name(call: Operation) -> str | None:
    callee = call.properties.get("callee") or call.attributes.get("callee")
    root = getattr(callee, "root_reference", None)
    return getattr(root, "data", None)


def _callers_first(funcs: list[FuncOp]) -> list[FuncOp]:
    """Functions in reverse post-order of the call graph from its roots (callers
    before callees), as Triton's ``ModuleAxisInfoAnalysis`` orders them."""
    by_name = {f.sym_name.data: f for f in funcs}
    callees: dict[FuncOp, list[FuncOp]] = {f: [] for f in funcs}
    called: set[FuncOp] = set()
    for f in funcs:
        for op in walk_list(f.body):
            if op.name == "tt.call" and (target := by_name.get(_callee_name(op) or "")) is not None:
                callees[f].append(target)
                called.add(target)
    post: list[FuncOp] = []
    seen: set[FuncOp] = set()

    def dfs(f: FuncOp) -> None:
        seen.add(f)
        for g in callees[f]:
            if g not in seen:
                dfs(g)
        post.append(f)

    for f in funcs:
        if f not in called and f not in seen:
            dfs(f)
    return list(reversed(post))


class AxisInfoAnalysis:
    """Axis info of every value in ``op`` (a ``builtin.module`` or one ``tt.func``).

    ``get(value)`` is the value's ``AxisInfo``; values the analysis never reached (dead
    code, values outside any function) get the pessimistic state (all 1, but for
    ``tt.*`` hints on their defining op). The IR is not modified.
    """

    def __init__(self, op: Operation):
        self._lattice: dict[SSAValue, AxisInfo] = {}
        funcs = _functions(op)
        ordered = _callers_first(funcs) if isinstance(op, ModuleOp) else funcs
        by_name = {f.sym_name.data: f for f in funcs}
        seeds: dict[FuncOp, dict[int, dict[str, int]]] = {f: {} for f in funcs}
        for func in ordered:
            _FunctionSolver(self._lattice, seeds[func]).run(func)
            for call in walk_list(func.body):
                callee = by_name.get(_callee_name(call) or "") if call.name == "tt.call" else None
                if callee is not None:
                    self._seed_callee(callee, call, seeds[callee])

    def _seed_callee(self, callee: FuncOp, call: Operation, seed: dict[int, dict[str, int]]) -> None:
        """Fold a call site's scalar arguments into the callee's argument hints (the gcd
        over call sites, starting from the callee's own integer hints)."""
        for index, arg in enumerate(call.operands):
            info = self.get(arg)
            if info.rank != 1:
                continue
            own = _func_arg_attrs(callee, index)
            entry = seed.setdefault(index, {})
            for name, value in zip(_HINTS, (info.contiguity[0], info.divisibility[0], info.constancy[0])):
                if name not in entry:
                    attr = own.get(name)
                    entry[name] = attr.value.data if isinstance(attr, IntegerAttr) else KMAX_DIVISOR
                entry[name] = _gcd(entry[name], value)

    def get(self, value: SSAValue) -> AxisInfo:
        """The axis info of ``value``."""
        info = self._lattice.get(value)
        return info if info is not None else _pessimistic(value)

    def __contains__(self, value: SSAValue) -> bool:
        return value in self._lattice

    def items(self) -> Iterator[tuple[SSAValue, AxisInfo]]:
        """Every analysed value with its info (in no particular order)."""
        return iter(self._lattice.items())
