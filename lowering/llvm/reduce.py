"""Lowering of ``tt.reduce`` and ``tt.scan``: combine along one axis within threads, lanes
and warps.

Let L be the operand layout (register, lane, warp → tensor index) and ``a`` the axis.
Every thread holds, per register r, the element L(r) ⊕ L(lane) ⊕ L(warp). The combiner is
the op's region, lowered inline for every combination (block args: the accumulators, then
the new values). A reduction combines the elements with the same coordinates off the axis
(one *group*, one result element) in three stages:

1. in the thread: the registers of a group, in register order; registers holding the same
   element (broadcast register bases) are taken once;
2. across lanes: for each lane bit i whose basis moves along ``a``, a butterfly shuffle
   with lane mask 2^i (``shfl.sync.bfly``), each partner combining its own value with the
   other's (so the combiner is taken to be commutative, as Triton does); afterwards every
   lane along ``a`` holds the group's combination over the warp. Lane bits with zero bases
   (copies) are skipped. As in Triton, on sm_80 and newer a reduction over all 32 lanes
   whose combiner is one integer op of at most 32 bits (``addi``, ``andi``, ``ori``,
   ``xori``, ``minsi``/``maxsi``, ``minui``/``maxui``) is one ``redux.sync`` instead of
   five shuffle rounds (narrower integers widened first: sign-extended for the signed
   min/max, zero-extended otherwise; the low bits of the result are the same);
3. across warps (warp bits whose basis moves along ``a``): the lanes whose axis and copy
   lane bits are zero store their partials to shared scratch at
   ``[warp index along a][result element]``, a barrier, then the W partials of each group
   are split over the lanes that hold the same groups (lane bits along ``a`` or copies):
   with u = min(log2 W, such lane bits), each thread loads W / 2^u rows (row = its u lane
   bits, plus j · 2^u) and combines them, then butterfly-shuffles over those u lane bits.
   With u = log2 W that is one load and log2 W shuffles per group and one partial live
   (as Triton does), not W loads.

A lane or warp basis that moves along ``a`` must not move along any other dim (else the
butterfly partner holds another group): the layout pipeline gives such layouts, anything
else is refused. The result layout is the slice of L along ``a``: its lane and warp bases
are L's with dim ``a`` dropped, so result register r holds the group whose off-axis
register constant equals r's. A rank-1 operand reduces to a scalar.

A scan doubles over the bits of the axis coordinate, low to high, each bit living in a
register, lane or warp bit (see :func:`_scan`); it keeps the combination order, so any
associative combiner works.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from xdsl.dialects.builtin import IntegerType, TensorType, i32
from xdsl.ir import Operation, SSAValue

from ltc.linear_layout import LinearLayout
from ltc.lowering.llvm.builder import ThreadBuilder, bit_width
from ltc.lowering.llvm.thread_index import register_constants
from ltc.lowering.llvm.function import FunctionLowering, Handler, Lowered, LoweringError, ThreadTensor
from ltc.lowering.llvm.scratch import load_shared, storage_bits, store_shared

__all__ = ["REDUCE_HANDLERS", "ReducePlan", "ScanPlan", "combine_region", "reduce_plan", "scan_plan"]

Coords = tuple[int, ...]


@dataclass(frozen=True)
class ReducePlan:
    """How a reduction along ``axis`` of ``layout`` proceeds (no IR, just the layout).

    ``groups``: per result element a thread holds, its off-axis register constant and the
    registers (one per distinct element, in register order) to combine; ``lane_bits`` /
    ``warp_bits``: the lane / warp bits whose bases move along the axis; ``copy_lanes``:
    the mask of lane bits with zero bases.
    """

    axis: int
    groups: tuple[tuple[Coords, tuple[int, ...]], ...]
    lane_bits: tuple[int, ...]
    warp_bits: tuple[int, ...]
    copy_lanes: int

    @property
    def warps_along_axis(self) -> int:
        return 1 << len(self.warp_bits)


def _basis(layout: LinearLayout, dim: str, i: int) -> Coords:
    return tuple(layout.basis(dim, i, d) for d in layout.out_dim_names)


def _drop(c: Coords, axis: int) -> Coords:
    return c[:axis] + c[axis + 1 :]


def reduce_plan(layout: LinearLayout, axis: int) -> ReducePlan:
    """The plan of a reduction of ``layout`` along ``axis``; ``ValueError`` when the layout
    does not allow the three-stage reduction (see the module docstring)."""
    nonzero = sum(
        1 for d in layout.in_dim_names for i in range(layout.in_dim_size_log2(d)) if any(_basis(layout, d, i))
    )
    if layout.rank != nonzero:
        raise ValueError("the layout holds an element in two places that are not broadcast copies")
    bits: dict[str, list[int]] = {}
    for dim in ("lane", "warp", "block"):
        bits[dim] = []
        if not layout.has_in_dim(dim):
            continue
        for i in range(layout.in_dim_size_log2(dim)):
            b = _basis(layout, dim, i)
            if not b[axis]:
                continue
            if any(_drop(b, axis)):
                raise ValueError(f"{dim} basis {i} moves along the axis and another dim")
            bits[dim].append(i)
    if bits["block"]:
        raise ValueError("the axis is split across CTAs")
    groups: dict[Coords, list[int]] = {}
    seen: set[Coords] = set()
    for r, c in enumerate(register_constants(layout)):
        if c in seen:  # a broadcast copy of an earlier register
            continue
        seen.add(c)
        groups.setdefault(_drop(c, axis), []).append(r)
    copy_lanes = 0
    if layout.has_in_dim("lane"):
        for i in range(layout.in_dim_size_log2("lane")):
            if not any(_basis(layout, "lane", i)):
                copy_lanes |= 1 << i
    return ReducePlan(
        axis,
        tuple((k, tuple(v)) for k, v in groups.items()),
        tuple(bits["lane"]),
        tuple(bits["warp"]),
        copy_lanes,
    )


@dataclass(frozen=True)
class ScanPlan:
    """How a scan along ``axis`` of ``layout`` proceeds: ``steps[k]`` is where bit k of the
    axis coordinate lives — ``("register", m)`` (bit m of a group's register pattern),
    ``("lane", i)`` or ``("warp", j)``; ``groups``: per off-axis register constant, the
    register holding pattern e, for e = 0 .. 2^(register steps) - 1."""

    axis: int
    steps: tuple[tuple[str, int], ...]
    groups: tuple[tuple[Coords, tuple[int, ...]], ...]
    copy_lanes: int

    def bits(self, dim: str) -> tuple[int, ...]:
        return tuple(i for d, i in self.steps if d == dim)


def scan_plan(layout: LinearLayout, axis: int) -> ScanPlan:
    """The plan of a scan of ``layout`` along ``axis``; ``ValueError`` when the axis is not
    spread over registers, lanes and warps bit by bit (each basis along the axis a power of
    two along it only)."""
    base = reduce_plan(layout, axis)  # the same conditions on lanes and warps, and no duplicates
    size_log2 = layout.out_dim_size_log2(layout.out_dim_names[axis])
    where: dict[int, tuple[str, int]] = {}
    register_bits: list[int] = []
    for dim in ("register", "lane", "warp"):
        for i in range(layout.in_dim_size_log2(dim)):
            b = _basis(layout, dim, i)
            a = b[axis]
            if not a:
                continue
            if a & (a - 1) or any(_drop(b, axis)):
                raise ValueError(f"{dim} basis {i} is not a power of two along the axis only")
            if dim == "register":
                register_bits.append(i)
                where[_log2(a)] = ("register", len(register_bits) - 1)
            else:
                where[_log2(a)] = (dim, i)
    if sorted(where) != list(range(size_log2)):
        raise ValueError("the layout does not cover the axis")
    steps = tuple(where[k] for k in range(size_log2))
    zero = sum(1 << i for i in range(layout.in_dim_size_log2("register")) if not any(_basis(layout, "register", i)))
    along = sum(1 << i for i in register_bits)
    constants = register_constants(layout)
    groups = []
    for r in range(layout.in_dim_size("register")):
        if r & (zero | along):
            continue
        regs = []
        for e in range(1 << len(register_bits)):
            regs.append(r | sum(1 << i for m, i in enumerate(register_bits) if e >> m & 1))
        groups.append((_drop(constants[r], axis), tuple(regs)))
    return ScanPlan(axis, steps, tuple(groups), base.copy_lanes)


# ----------------------------------------------------------------------------------------
# the combiner
# ----------------------------------------------------------------------------------------


def combine_region(
    fl: FunctionLowering, op: Operation, acc: Sequence[SSAValue], new: Sequence[SSAValue]
) -> list[SSAValue]:
    """The op's combiner region applied to (accumulators, new values), lowered inline."""
    block = op.regions[0].block
    if len(block.args) != len(acc) + len(new):
        raise LoweringError(op, f"'{op.name}' combiner takes {len(block.args)} values, expected {len(acc) + len(new)}")
    for a, v in zip(block.args, [*acc, *new], strict=True):
        fl.values[a] = v
    term = block.last_op
    assert term is not None
    for inner in block.ops:
        if inner is not term:
            fl.lower_op(inner)
    out = [fl.get(v, term) for v in term.operands]
    for v in out:
        if not isinstance(v, SSAValue):
            raise LoweringError(op, f"'{op.name}' combiner must return scalars")
    return out  # type: ignore[return-value]


# ----------------------------------------------------------------------------------------
# moving scalars: shuffles and shared memory
# ----------------------------------------------------------------------------------------


def shuffle_xor(b: ThreadBuilder, v: SSAValue, lane_mask: int) -> SSAValue:
    """``v`` of the lane ``lane ^ lane_mask`` (32-bit shuffles; wider values in halves)."""
    t = v.type
    bits = b.to_bits(v)
    width = bit_width(bits.type)
    if width > 32:
        lo = b.cast("trunc", bits, i32)
        hi = b.cast("trunc", b.binary("lshr", bits, b.const(bits.type, 32)), i32)
        lo, hi = (b.shuffle("bfly", x, b.i32(lane_mask)) for x in (lo, hi))
        high = b.binary("shl", b.cast("zext", hi, bits.type), b.const(bits.type, 32))
        wide = b.binary("or", b.cast("zext", lo, bits.type), high)
        return b.from_bits(wide, t)
    word = b.cast("zext", bits, i32) if width < 32 else bits
    got = b.shuffle("bfly", word, b.i32(lane_mask))
    return b.from_bits(b.cast("trunc", got, bits.type) if width < 32 else got, t)


# ----------------------------------------------------------------------------------------
# scratch tables for values exchanged between warps
# ----------------------------------------------------------------------------------------


def _log2(n: int) -> int:
    return n.bit_length() - 1


def _off_axis_shifts(shape: Sequence[int], axis: int) -> list[int]:
    """Per off-axis dim, its bit offset in the row-major index of a result element."""
    dims = [n for d, n in enumerate(shape) if d != axis]
    shifts, s = [0] * len(dims), 0
    for d in reversed(range(len(dims))):
        shifts[d] = s
        s += _log2(dims[d])
    return shifts


def _linear(c: Coords, shifts: Sequence[int]) -> int:
    v = 0
    for x, s in zip(c, shifts):
        v |= x << s
    return v


class _Exchange:
    """A scratch table ``[operand][row][entry]`` in shared memory for values that threads of
    different warps combine: ``row`` is a warp's index along the axis (given per thread, as
    the runtime value ``row``), ``entry`` = (upper, class, result element): ``upper`` the
    thread's bits listed in ``upper`` (lane/warp bits along the axis that tell blocks
    apart), the class a constant, the result element the row-major index of the off-axis
    coordinates, i.e. a per-thread part from the lane/warp bases ⊕ the register constant."""

    def __init__(
        self,
        fl: FunctionLowering,
        layout: LinearLayout,
        axis: int,
        types: Sequence[object],
        rows: int,
        row: SSAValue,
        lane: SSAValue,
        warp: SSAValue,
        classes: int = 1,
        upper: Sequence[tuple[str, int]] = (),
    ) -> None:
        b = self.b = fl.b
        shape = [layout.out_dim_size(d) for d in layout.out_dim_names]
        self.axis = axis
        self.shifts = _off_axis_shifts(shape, axis)
        self.elements_log2 = sum(_log2(n) for d, n in enumerate(shape) if d != axis)
        upper_shift = self.elements_log2 + _log2(classes)
        self.entries_log2 = upper_shift + len(upper)
        self.types = list(types)

        def off_axis(dim: str) -> list[int]:
            cols = []
            for i in range(layout.in_dim_size_log2(dim)):
                if (dim, i) in upper:
                    cols.append(1 << (upper_shift + list(upper).index((dim, i))))
                else:
                    cols.append(_linear(_drop(_basis(layout, dim, i), axis), self.shifts))
            return cols

        lane_part, lane_bits = b.bit_linear(lane, off_axis("lane"))
        warp_part, warp_bits = b.bit_linear(warp, off_axis("warp"))
        self.part, self.part_bits = _or_parts(b, (lane_part, lane_bits), (warp_part, warp_bits))
        row_part = b.binary("shl", row, b.i32(self.entries_log2)) if self.entries_log2 else row
        self.store_part, self.store_bits = _or_parts(
            b, (self.part, self.part_bits), (row_part, (rows - 1) << self.entries_log2)
        )
        self.sizes = [max(1, storage_bits(t) // 8) for t in types]
        self.offsets, total = [], 0
        for size in self.sizes:
            total = (total + size - 1) // size * size
            self.offsets.append(total)
            total += (rows << self.entries_log2) * size
        fl.claim_scratch(total)
        self.base = fl.shared_base()
        self._scaled: dict[tuple[SSAValue, int], SSAValue] = {}

    def entry(self, key: Coords, cls: int = 0) -> int:
        return (cls << self.elements_log2) | _linear(key, self.shifts)

    def _address(self, part: SSAValue | None, part_bits: int, constant: int, k: int) -> SSAValue:
        """base + offsets[k] + (part ⊕ constant) · sizes[k]; the constant is added (and
        folds into the access) when its bits are disjoint from the part's."""
        b = self.b
        size = self.sizes[k]
        if part is not None and constant & part_bits:
            part = b.binary("xor", part, b.i32(constant))
            constant = 0
        addr = self.base
        if part is not None:
            if (part, size) not in self._scaled:
                scaled = part if size == 1 else b.binary("shl", part, b.i32(_log2(size)))
                self._scaled[(part, size)] = b.add_i(self.base, scaled)
            addr = self._scaled[(part, size)]
        byte = self.offsets[k] + constant * size
        return b.add_i(addr, b.i32(byte)) if byte else addr

    def store(self, entry: int, values: Sequence[SSAValue], pred: SSAValue | None) -> None:
        """This thread's ``values`` (one per operand) at [its row][entry]."""
        for k, v in enumerate(values):
            store_shared(self.b, self._address(self.store_part, self.store_bits, entry, k), v, pred)

    def load_rows(self, row: SSAValue | None, rows: int, row_constant: int, entry: int) -> list[SSAValue]:
        """The values at [row ⊕ row_constant][entry] (one per operand), ``row`` a per-thread
        value below ``rows`` (None: 0) and ``row_constant`` a multiple of ``rows``."""
        b = self.b
        part, bits = self.part, self.part_bits
        if row is not None:
            row_part = b.binary("shl", row, b.i32(self.entries_log2)) if self.entries_log2 else row
            part, bits = _or_parts(b, (part, bits), (row_part, (rows - 1) << self.entries_log2))
        constant = entry | (row_constant << self.entries_log2)
        return [load_shared(b, self._address(part, bits, constant, k), t) for k, t in enumerate(self.types)]

    def load(self, row: int, entry: int) -> list[SSAValue]:
        """The values at [row][entry] (one per operand)."""
        return self.load_rows(None, 1, row, entry)


def _or_parts(b: ThreadBuilder, *parts: tuple[SSAValue | None, int]) -> tuple[SSAValue | None, int]:
    """⊕ of per-thread parts (``or`` when their possible bits are disjoint)."""
    acc: SSAValue | None = None
    bits = 0
    for v, m in parts:
        if v is None:
            continue
        acc = v if acc is None else b.binary("or" if not bits & m else "xor", acc, v)
        bits |= m
    return acc, bits


def _writer(b: ThreadBuilder, lane: SSAValue, lane_mask: int) -> SSAValue | None:
    """True on lanes whose bits in ``lane_mask`` are zero (one writer per set of lanes that
    hold the same value)."""
    if not lane_mask:
        return None
    return b.icmp("eq", b.binary("and", lane, b.i32(lane_mask)), b.i32(0))


def _compact_bits(b: ThreadBuilder, x: SSAValue, bits: Sequence[int], width: int) -> SSAValue:
    """Σ_t bit_{bits[t]}(x) · 2^t (``width``: how many bits ``x`` has)."""
    cols = [1 << bits.index(i) if i in bits else 0 for i in range(width)]
    v, _ = b.bit_linear(x, cols)
    return v if v is not None else b.i32(0)


# ----------------------------------------------------------------------------------------
# tt.reduce
# ----------------------------------------------------------------------------------------


def _cross_warp(
    fl: FunctionLowering, op: Operation, layout: LinearLayout, plan: ReducePlan, values: list[list[SSAValue]]
) -> list[list[SSAValue]]:
    """Stage 3: ``values[g][k]`` (group g, operand k, combined over the warp) combined over
    the warps along the axis through shared scratch."""
    b = fl.b
    warps = plan.warps_along_axis
    lane, warp = fl.lane(), fl.warp()
    row = _compact_bits(b, warp, plan.warp_bits, layout.in_dim_size_log2("warp"))
    table = _Exchange(fl, layout, plan.axis, [v.type for v in values[0]], warps, row, lane, warp)
    pred = _writer(b, lane, sum(1 << i for i in plan.lane_bits) | plan.copy_lanes)
    for (key, _), vals in zip(plan.groups, values):
        table.store(table.entry(key), vals, pred)
    b.barrier()
    lanes_log2 = layout.in_dim_size_log2("lane")
    same = [i for i in range(lanes_log2) if i in plan.lane_bits or plan.copy_lanes >> i & 1]
    # Lanes that differ only in `use` hold the same groups: they split the rows.
    use = same[: len(plan.warp_bits)]
    mine = _compact_bits(b, lane, use, lanes_log2) if use else None
    out = []
    for key, _ in plan.groups:
        acc: list[SSAValue] | None = None
        for j in range(warps >> len(use)):
            got = table.load_rows(mine, 1 << len(use), j << len(use), table.entry(key))
            acc = got if acc is None else combine_region(fl, op, acc, got)
        assert acc is not None
        for i in use:
            acc = combine_region(fl, op, acc, [shuffle_xor(b, v, 1 << i) for v in acc])
        out.append(acc)
    return out


_REDUX = {
    "arith.addi": ("add", "s32"), "arith.andi": ("and", "b32"), "arith.ori": ("or", "b32"),
    "arith.xori": ("xor", "b32"), "arith.minsi": ("min", "s32"), "arith.maxsi": ("max", "s32"),
    "arith.minui": ("min", "u32"), "arith.maxui": ("max", "u32"),
}  # fmt: skip
"""Combiner op → (``redux.sync`` operation, type)."""


def _redux_kind(op: Operation) -> tuple[str, str] | None:
    """``redux.sync``'s operation and type for a one-operand reduction whose combiner is a
    single integer op of at most 32 bits on the two block arguments, else None."""
    block = op.regions[0].block
    ops = list(block.ops)
    if len(op.operands) != 1 or len(block.args) != 2 or len(ops) != 2:
        return None
    inner, term = ops
    kind = _REDUX.get(inner.name)
    if (
        kind is None
        or len(term.operands) != 1
        or term.operands[0] is not inner.results[0]
        or set(inner.operands) != set(block.args)
        or len(inner.operands) != 2
        or not isinstance(inner.results[0].type, IntegerType)
        or inner.results[0].type.width.data > 32
    ):
        return None
    return kind


def _redux(b: ThreadBuilder, kind: tuple[str, str], v: SSAValue) -> SSAValue:
    """``v`` combined over the 32 lanes of the warp by one ``redux.sync``."""
    name, ty = kind
    width = bit_width(v.type)
    word = v if width == 32 else b.cast("sext" if ty == "s32" and name in ("min", "max") else "zext", v, i32)
    (got,) = b.asm(f"redux.sync.{name}.{ty} $0, $1, -1;", "=r,r", [word], [i32])
    return got if width == 32 else b.cast("trunc", got, v.type)


def _reduce(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    srcs = []
    for a in args:
        if not isinstance(a, ThreadTensor):
            raise LoweringError(op, "tt.reduce operands must be tensors")
        srcs.append(a)
    layout = srcs[0].layout
    axis = op.properties["axis"].value.data  # type: ignore[attr-defined]
    try:
        plan = reduce_plan(layout, axis)
    except ValueError as e:
        raise LoweringError(op, f"tt.reduce along axis {axis}: {e}: insert a ttg.convert_layout") from None

    # 1. within the thread
    values: list[list[SSAValue]] = []
    for _, regs in plan.groups:
        acc = [s.regs[regs[0]] for s in srcs]
        for r in regs[1:]:
            acc = combine_region(fl, op, acc, [s.regs[r] for s in srcs])
        values.append(acc)
    # 2. across lanes (the highest lane bit first)
    redux = _redux_kind(op) if fl.config.capability >= 80 and len(plan.lane_bits) == 5 else None
    if redux is not None:
        values = [[_redux(fl.b, redux, acc[0])] for acc in values]
    else:
        for i in reversed(plan.lane_bits):
            values = [combine_region(fl, op, acc, [shuffle_xor(fl.b, v, 1 << i) for v in acc]) for acc in values]
    # 3. across warps
    if plan.warp_bits:
        values = _cross_warp(fl, op, layout, plan, values)

    by_key = {key: vals for (key, _), vals in zip(plan.groups, values)}
    out: list[Lowered] = []
    for k, result in enumerate(op.results):
        t = result.type
        if not isinstance(t, TensorType):
            if len(plan.groups) != 1 or plan.groups[0][0] != ():
                raise LoweringError(op, "tt.reduce to a scalar needs a rank-1 operand")
            out.append(values[0][k])
            continue
        dst = fl.layout(t, op)
        _check_slice(op, layout, dst, axis)
        regs = []
        for c in register_constants(dst):
            if c not in by_key:
                raise LoweringError(op, f"the result layout holds element {c}, which no group of the operand gives")
            regs.append(by_key[c][k])
        out.append(fl.tensor(op, t, regs))
    return out


def _check_slice(op: Operation, src: LinearLayout, dst: LinearLayout, axis: int) -> None:
    """The result's lane/warp bases must be the operand's with the axis dropped."""
    for dim in ("lane", "warp", "block"):
        n = src.in_dim_size_log2(dim) if src.has_in_dim(dim) else 0
        m = dst.in_dim_size_log2(dim) if dst.has_in_dim(dim) else 0
        if n != m or any(_drop(_basis(src, dim, i), axis) != _basis(dst, dim, i) for i in range(n)):
            raise LoweringError(op, f"the result layout of tt.reduce is not the operand's slice ({dim} bases differ)")


# ----------------------------------------------------------------------------------------
# tt.scan
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Pending:
    """A left factor not yet combined into the elements of a class: it applies on threads
    where ``flag`` holds (on all when ``flag`` is None)."""

    values: list[SSAValue]
    flag: SSAValue | None


def _select(b: ThreadBuilder, c: SSAValue, xs: Sequence[SSAValue], ys: Sequence[SSAValue]) -> list[SSAValue]:
    return [x if x is y else b.select(c, x, y) for x, y in zip(xs, ys, strict=True)]


def _prepend(
    fl: FunctionLowering, op: Operation, pending: _Pending | None, factor: list[SSAValue], cond: SSAValue | None
) -> _Pending:
    """``factor ⊕ pending`` where ``cond`` holds (everywhere when None), else ``pending``."""
    b = fl.b
    if pending is None:
        return _Pending(factor, cond)
    joined = combine_region(fl, op, factor, pending.values)
    if pending.flag is not None:
        joined = _select(b, pending.flag, joined, factor)
    if cond is None:
        return _Pending(joined, None)
    flag = None if pending.flag is None else b.binary("or", pending.flag, cond)
    return _Pending(_select(b, cond, joined, pending.values), flag)


def _apply(fl: FunctionLowering, op: Operation, pending: _Pending | None, values: list[SSAValue]) -> list[SSAValue]:
    if pending is None:
        return values
    joined = combine_region(fl, op, pending.values, values)
    return joined if pending.flag is None else _select(fl.b, pending.flag, joined, values)


def _compress(c: int, mask: int) -> int:
    """The bits of ``c`` at the set bits of ``mask``, packed."""
    out, k = 0, 0
    for i in range(mask.bit_length()):
        if mask >> i & 1:
            out |= (c >> i & 1) << k
            k += 1
    return out


def _scan(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    """Inclusive scan by doubling over the bits of the axis coordinate, low to high (see
    :func:`scan_plan`). Before step k every element holds S = the combination of its
    aligned block of 2^k elements up to itself, and every class of elements (the same
    register bits above k) the total T of its block. At bit k, the later element of each
    pair of blocks (bit k = 1; 0 when ``reverse``) gets S ← T(other) ⊕ S, and both
    T ← T(earlier) ⊕ T(later). Register bits are local, lane bits a butterfly shuffle of
    T; each run of consecutive warp bits goes through shared memory at once: each warp
    row stores its T, then takes the combination of the rows before it. Left factors from
    lanes and warps are the same for a whole class: they are kept per class and combined
    into the elements once, before the next register bit and at the end."""
    srcs = [a for a in args if isinstance(a, ThreadTensor)]
    if len(srcs) != len(args):
        raise LoweringError(op, "tt.scan operands must be tensors")
    layout = srcs[0].layout
    axis = op.properties["axis"].value.data  # type: ignore[attr-defined]
    reverse = bool(op.properties["reverse"].value.data)  # type: ignore[attr-defined]
    try:
        plan = scan_plan(layout, axis)
    except ValueError as e:
        raise LoweringError(op, f"tt.scan along axis {axis}: {e}: insert a ttg.convert_layout") from None
    b = fl.b
    lane, warp = cache(fl.lane), cache(fl.warp)  # made when first needed
    n_reg = len(plan.bits("register"))
    elements = [[[s.regs[r] for s in srcs] for r in regs] for _, regs in plan.groups]
    totals: list[dict[int, list[SSAValue]]] = [dict(enumerate(vals)) for vals in elements]
    pending: list[dict[int, _Pending]] = [{} for _ in plan.groups]
    mask = (1 << n_reg) - 1  # the register-pattern bits that still tell classes apart

    def flush() -> None:
        for g, vals in enumerate(elements):
            for e in range(len(vals)):
                vals[e] = _apply(fl, op, pending[g].get(e & mask), vals[e])
            pending[g] = {}

    k = 0
    while k < len(plan.steps):
        dim, i = plan.steps[k]
        last = k == len(plan.steps) - 1
        if dim == "register":
            flush()
            bit = 1 << i
            for g, vals in enumerate(elements):
                t = totals[g]
                for e in range(len(vals)):
                    if bool(e & bit) != reverse:
                        vals[e] = combine_region(fl, op, t[(e ^ bit) & mask], vals[e])
                if not last:
                    totals[g] = {
                        c & ~bit: combine_region(fl, op, t[c], t[c ^ bit]) for c in t if bool(c & bit) == reverse
                    }
            mask &= ~bit
            k += 1
        elif dim == "lane":
            later = b.icmp("eq" if reverse else "ne", b.binary("and", lane(), b.i32(1 << i)), b.i32(0))
            for g in range(len(elements)):
                for c, t in totals[g].items():
                    other = [shuffle_xor(b, v, 1 << i) for v in t]
                    if not last:
                        up, down = combine_region(fl, op, other, t), combine_region(fl, op, t, other)
                        totals[g][c] = _select(b, later, up, down)
                    pending[g][c] = _prepend(fl, op, pending[g].get(c), other, later)
            k += 1
        else:
            run = k
            while run < len(plan.steps) and plan.steps[run][0] == "warp":
                run += 1
            warp_bits = [j for _, j in plan.steps[k:run]]
            last = run == len(plan.steps)
            rows = 1 << len(warp_bits)
            row = _compact_bits(b, warp(), warp_bits, layout.in_dim_size_log2("warp"))
            if reverse:
                row = b.binary("xor", row, b.i32(rows - 1))
            types = [v.type for v in elements[0][0]]
            upper = [s for s in plan.steps[run:] if s[0] != "register"]  # blocks not combined yet
            classes = 1 << bin(mask).count("1")
            table = _Exchange(fl, layout, axis, types, rows, row, lane(), warp(), classes, upper)
            below = sum(1 << j for d, j in plan.steps[:k] if d == "lane")
            pred = _writer(b, lane(), below | plan.copy_lanes)
            for g, (key, _) in enumerate(plan.groups):
                for c, t in totals[g].items():
                    table.store(table.entry(key, _compress(c, mask)), t, pred)
            b.barrier()
            after_first = b.icmp("ne", row, b.i32(0))
            for g, (key, _) in enumerate(plan.groups):
                for c in list(totals[g]):
                    entry = table.entry(key, _compress(c, mask))
                    prefix = [table.load(0, entry)]  # prefix[w]: rows 0..w combined
                    for w in range(1, rows if not last else rows - 1):
                        prefix.append(combine_region(fl, op, prefix[-1], table.load(w, entry)))
                    before = prefix[0]
                    for w in range(2, rows):
                        before = _select(b, b.icmp("eq", row, b.i32(w)), prefix[w - 1], before)
                    pending[g][c] = _prepend(fl, op, pending[g].get(c), before, after_first)
                    if not last:
                        totals[g][c] = prefix[rows - 1]
            k = run
    flush()

    by_element: dict[Coords, list[SSAValue]] = {}
    constants = register_constants(layout)
    for (_, regs), vals in zip(plan.groups, elements):
        for r, v in zip(regs, vals):
            by_element[constants[r]] = v
    out: list[Lowered] = []
    for k, result in enumerate(op.results):
        dst = fl.layout(result.type, op)
        for dim in ("lane", "warp"):
            if any(_basis(dst, dim, i) != _basis(layout, dim, i) for i in range(layout.in_dim_size_log2(dim))):
                raise LoweringError(op, "the result layout of tt.scan is not the operand's")
        out.append(fl.tensor(op, result.type, [by_element[c][k] for c in register_constants(dst)]))
    return out


REDUCE_HANDLERS: dict[str, Handler] = {"tt.reduce": _reduce, "tt.scan": _scan}
