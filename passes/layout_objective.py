"""The layout objective of one function and its minimisation.

**Objective.** Given a layout ``L(v)`` for every tensor value, each op contributes the
cost of the conversions the rewrite (``LayoutEngine.rewrite``) will put around it,
priced by ltc's own planner (``layout_engine.convert_cost``: memory-pipe cycles) and
multiplied by the op's execution weight (``conversion_cost.execution_weight``: trip
counts of enclosing constant loops, 16 for other loops):

* elementwise (``SAME``): every operand converted to the result's layout;
* shape ops (``SHAPE``): operands converted to the layout that makes the op free for
  its result, else the result converted from what the operand gives;
* anchors: every operand converted to the layout the anchor requires;
* ``scf`` / branch edges: an init, yielded or branched value converted to the layout
  of the value it becomes;
* a ``ttg.convert_layout`` already in the IR: its own price;
* no conversion of a splat, a range or a splat constant (``rebuilt``: canonicalization
  builds them again in the layout needed), nor between two spellings of one linear
  layout at a shape op whose verifier compares linear layouts;
* an op without a result (a store): every operand converted to the first one's layout,
  as the rewrite does;
* the op's own work, times ``work_weight`` (memory accesses always at weight 1):
  ``layout_rules.compute_price`` per 32-bit register of its first result a thread holds
  in the chosen layout, or of the stored value for a store (a layout that repeats a
  tensor in every thread multiplies the work); a reduction's in its operand's layout
  (``estimate_reduction_cost``: in-thread combines, butterflies, a shared round trip
  across warps), whatever becomes of its result.

Equal linear layouts cost 0 (one spelling is kept). A value that keeps its layout (no
candidates: a load's result, an argument) converted to one layout for several
elementwise ops, conversions or anchors of one block is priced once, at the first of
them (CSE leaves one conversion). (A value with candidates can move itself instead;
pricing its conversions once too leads the search into minima that rematerialization
then serves worse: two sorting kernels of the corpus.) The objective is a sum of per-op terms, so
the change of a move is the change of the terms of the ops it touches (an elementwise
op's result also touches the later consumers of its operands).

**Search.** Variables are the values with candidate layouts (``LayoutEngine.cands``);
an ``scf.for`` result shares its iter argument's layout. From a start assignment:

*region moves*: for a value ``x`` and a candidate ``c``, the region of ``(x, c)`` is
the closure of ``x := c`` along propagation — through each op touching a region value,
the layout its neighbour would take for the op to be free (``forward`` / ``backward``),
kept where that layout is one of the neighbour's candidates, and through an operand
that keeps its layout to the operand's other elementwise consumers (which then share
its conversion) — in breadth-first order,
the values of ``x``'s own loop first. The best prefix of that order is applied (each
value's marginal change summed as it joins; the scan stops ``PATIENCE`` values past its
best): a chain of elementwise ops, or a loop's carried values with their bodies, moves
at once, and the region is cut where it starts to cost, e.g. at a loop's boundary or
before index computations shared with a load. The prefix of length 1 is a single move
(coordinate descent). Only values next to a conversion, and the operands of a store
whose threads hold the stored tensor more than once, seed moves, the costliest first,
within ``EVALUATIONS_PER_OP`` term evaluations per op of the function, until no move
improves. Two starts are searched and the lower objective kept: the engine's
per-value choice, and Triton's conflict rule (a value near a global memory op
prefers a blocked layout, any other a tensor-core layout). The engine may then refine
the minimum with the work at ``TIE_BREAK`` (conversions first).
"""

from __future__ import annotations

from heapq import heappop, heappush
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from ltc.dialects.ttg.convert_layout import built_in_any_layout
from ltc.encodings import Encoding, to_linear_layout
from ltc.encodings.blocked import BlockedEncoding
from ltc.encodings.amd import AMDMfmaEncoding, AMDWmmaEncoding
from ltc.encodings.nvidia_mma import NvidiaMmaEncoding
from ltc.encodings.slice import SliceEncoding
from ltc.lowering.plans.cost import estimate_reduction_cost
from ltc.passes.cfg import edges, incoming, is_branch
from ltc.passes.conversion_cost import execution_weight
from ltc.passes.layout_ir import layout_of, tensor_shape
from ltc.passes.layout_rules import (
    MEMORY_PRICE,
    OpKind,
    backward,
    compares_linear_layouts,
    compute_price,
    element_bytes,
    forward,
    free_use,
    kind_of,
    tensor_operands,
    tensor_results,
)

__all__ = ["LayoutObjective", "consistent", "group", "minimize", "triton_rule_start"]

INFEASIBLE = 1e18
"""Term of an op no layout choice makes legal (never chosen over a legal one)."""

MAX_ROUNDS = 6
MAX_REGION = 1024
PATIENCE = 48
"""A prefix scan stops this many values past its best prefix."""
EVALUATIONS_PER_OP = 100
"""The search's budget: op terms computed per op of the function (it stops there)."""
TIE_BREAK = 1e-6
"""The op work's weight in the refinement (``LayoutObjective.work_weight``): conversions
decide, and ALU work only between choices whose conversions cost the same (far below a
respelling's price, ``layout_engine.RESPELL_PRICE``, so that one still counts). The work
of memory accesses (``compute_price`` at least ``layout_rules.MEMORY_PRICE``) keeps
weight 1: like a conversion's price it is memory-pipe cycles, so a conversion that saves more
accesses than it costs stays (a store of row sums held once, not by every thread)."""

Price = Callable[[Encoding, Encoding, TensorType], float]


class _OpInfo(NamedTuple):
    """What ``_term`` reads of an op that its layouts do not change (a tuple: ``_term``
    unpacks it on every evaluation)."""

    kind: OpKind
    results: list[SSAValue]
    operands: list[SSAValue]
    unit: float
    """The op's work price per 32-bit register (``compute_price``)."""
    edges: list[tuple[SSAValue, SSAValue]] | None
    """Control-flow edges (None for the other kinds)."""
    results_written: tuple[Encoding | None, ...]
    operands_written: tuple[Encoding | None, ...]
    rebuilt: tuple[bool, ...]
    """Per operand: ``LayoutObjective.rebuilt``."""
    weight: float
    is_reduce: bool


class LayoutObjective:
    """The objective of one function body over an assignment ``choice`` (see the module doc).

    ``cands`` are the variables' candidate layouts; values outside it keep their type's
    layout. ``price(src, dst, type)`` prices one conversion (0 for equal layouts).
    """

    def __init__(self, cands: dict[SSAValue, list[Encoding]], price: Price) -> None:
        self.cands = cands
        self.price = price
        self.choice: dict[SSAValue, Encoding] = {}
        self._weights: dict[Block | None, float] = {}
        self._touch: dict[SSAValue, tuple[Operation, ...]] = {}
        self._regs: dict[tuple[Encoding, TensorType], float] = {}
        self._reduce_prices: dict[tuple[Encoding, TensorType, int], float] = {}
        self._rebuilt: dict[SSAValue, bool] = {}
        self._prices: dict[tuple[Encoding, Encoding, TensorType], float] = {}
        self._terms: dict[Operation, float] = {}
        self._converts: dict[Operation, bool] = {}
        self._kinds: dict[Operation, OpKind] = {}
        self._nbrs: dict[tuple[SSAValue, Encoding], list[tuple[SSAValue, Encoding | None]]] = {}
        self._fw: dict[tuple[Operation, Encoding], list[Encoding] | None] = {}
        self._bw: dict[tuple[Operation, Encoding], Encoding | None] = {}
        self._eq: dict[tuple[Encoding, Encoding, TensorType], bool] = {}
        self._info: dict[Operation, _OpInfo] = {}
        self._groups: dict[SSAValue, tuple[SSAValue, ...]] = {}
        self._loops: dict[SSAValue, Operation | None] = {}
        self._positions: dict[Operation, int] = {}
        self.evaluations = 0
        """Op terms computed so far (``minimize`` stops at its budget)."""
        self.work_weight = 1.0
        """The weight of the ops' own work beside the conversions (``reset`` after a change)."""

    # -- the objective ----------------------------------------------------------------

    def layout(self, v: SSAValue) -> Encoding | None:
        c = self.choice.get(v)
        return c if c is not None else layout_of(v)

    def weight(self, op: Operation) -> float:
        block = op.parent_block()
        w = self._weights.get(block)
        if w is None:
            w = self._weights[block] = execution_weight(op)
        return w

    def _cvt(self, src: Encoding | None, dst: Encoding | None, t: object) -> float:
        if src is None or dst is None or src is dst or src == dst or not isinstance(t, TensorType):
            return 0.0
        key = (src, dst, t)
        p = self._prices.get(key)
        if p is None:
            p = self._prices[key] = self.price(src, dst, t)
        return p

    def reset(self, choice: dict[SSAValue, Encoding]) -> None:
        """Start from ``choice``."""
        self.choice = dict(choice)
        self._terms.clear()

    def term(self, op: Operation) -> float:
        """The conversions the rewrite puts around ``op`` and its work, priced and weighted
        (cached until a value it touches changes layout)."""
        t = self._terms.get(op)
        if t is None:
            t = self._terms[op] = self._term(op)
        return t

    def converts_near(self, v: SSAValue) -> bool:
        """Whether an op touching ``v`` needs a conversion under the current choice."""
        for op in self.touching(v):
            self.term(op)
            if self._converts.get(op):
                return True
        return False

    def kind(self, op: Operation) -> OpKind:
        k = self._kinds.get(op)
        if k is None:
            k = self._kinds[op] = kind_of(op)
        return k

    def _op_info(self, op: Operation) -> _OpInfo:
        """``op``'s :class:`_OpInfo`, made once (the IR is fixed while the objective lives)."""
        info = self._info.get(op)
        if info is None:
            k = self.kind(op)
            edges = None if k in (OpKind.SAME, OpKind.SHAPE, OpKind.CONVERT, OpKind.ANCHOR) else _edges(op)
            res, operands = tensor_results(op), tensor_operands(op)
            info = self._info[op] = _OpInfo(
                k, res, operands, compute_price(op), edges,
                tuple(layout_of(r) for r in res), tuple(layout_of(o) for o in operands),
                tuple(self.rebuilt(o) for o in operands), self.weight(op), op.name == "tt.reduce",
            )  # fmt: skip
        return info

    def _term(self, op: Operation) -> float:
        self.evaluations += 1
        k, res, operands, unit, edges, res_written, written, rebuilt, weight, is_reduce = self._op_info(op)
        choice = self.choice
        cvt = self._cvt
        cost = 0.0
        if k is OpKind.SAME:
            if res:
                target = choice.get(res[0])
                if target is None:
                    target = res_written[0]
            elif operands:
                # no result (a store): the rewrite converts every operand to the first's
                target = choice.get(operands[0])
                if target is None:
                    target = written[0]
            else:
                target = None
            if target is not None:
                for i, o in enumerate(operands):
                    if rebuilt[i]:
                        continue
                    e = choice.get(o)
                    if e is None:
                        e = written[i]
                    if e is not target and e != target and not self._converted_before(op, i, operands, target):
                        cost += cvt(e, target, o.type)
                for j in range(1, len(res)):
                    r = res[j]
                    e = choice.get(r)
                    cost += cvt(target, e if e is not None else res_written[j], r.type)
        elif k is OpKind.SHAPE:
            cost = self._shape_term(op, res, operands)
        elif k is OpKind.CONVERT:
            if not self.rebuilt(op.operands[0]):
                cost = cvt(self.layout(op.operands[0]), self.layout(op.results[0]), op.results[0].type)
        elif k is OpKind.ANCHOR:
            for i, o in enumerate(operands):
                if rebuilt[i]:
                    continue
                e = choice.get(o)
                if e is not None and e != written[i] and not self._converted_before(op, i, operands, written[i]):
                    cost += cvt(e, written[i], o.type)
        else:
            cost = sum(cvt(self.layout(a), self.layout(b), a.type) for a, b in edges if not self.rebuilt(a))
        self._converts[op] = cost > 0
        if is_reduce and operands:
            # a reduction works in its operands' layout (the first one's, after the
            # conversions above), whatever becomes of its result
            o0 = operands[0]
            e = choice.get(o0)
            cost += self.work_weight * len(operands) * self.reduce_work(e if e is not None else written[0], o0.type, op)
        elif unit:
            if res:
                r0 = res[0]
                e = choice.get(r0)
                ww = 1.0 if unit >= MEMORY_PRICE else self.work_weight
                cost += ww * unit * self.words(e if e is not None else res_written[0], r0.type)
            elif operands and k is OpKind.SAME:
                # a store works in its operands' layout (the first one's, after the
                # conversions above): one access per register of the stored value, at
                # full weight as every memory access
                e = choice.get(operands[0])
                v = operands[1] if len(operands) > 1 else operands[0]
                cost += unit * self.words(e if e is not None else written[0], v.type)
        return cost * weight if cost else 0.0

    def _converted_before(self, op: Operation, i: int, operands: list[SSAValue], target: Encoding) -> bool:
        """Whether the conversion of ``operands[i]`` to ``target`` that ``op`` needs is
        one an earlier operand of ``op`` needs, or, for a value without candidates, an
        earlier consumer of it in the same block: CSE leaves one conversion per value
        and layout, and the objective prices it once, at its first consumer."""
        o = operands[i]
        if o in operands[:i]:
            return True
        if o in self.cands:
            return False
        block = op.parent
        at = None
        for use in o.uses:
            other = use.operation
            if other is op or other.parent is not block:
                continue
            if at is None:
                at = self._position(op)
            if self._position(other) < at and self._need(other, o) == target:
                return True
        return False

    def _need(self, op: Operation, o: SSAValue) -> Encoding | None:
        """The layout ``op`` takes its operand ``o`` in under the current choice, where
        that is one layout for every operand: an elementwise op's result layout, a
        conversion's result layout, a store's pointer layout, an anchor's layout as written
        (None otherwise)."""
        k = self.kind(op)
        if k is OpKind.ANCHOR:
            return layout_of(o)
        if k is OpKind.SAME or k is OpKind.CONVERT:
            info = self._op_info(op)
            if info.results:
                return self.layout(info.results[0])
            return self.layout(info.operands[0]) if k is OpKind.SAME and info.operands else None
        return None

    def _position(self, op: Operation) -> int:
        """``op``'s index in its block (the IR is fixed while the objective lives)."""
        got = self._positions.get(op)
        if got is None:
            block = op.parent
            assert block is not None
            for index, other in enumerate(block.ops):
                self._positions[other] = index
            got = self._positions[op]
        return got

    def rebuilt(self, v: SSAValue) -> bool:
        """Whether a conversion of ``v`` costs nothing: ``v`` is a splat, a range or a splat
        constant, which canonicalization builds again in the conversion's layout
        (``built_in_any_layout``)."""
        got = self._rebuilt.get(v)
        if got is None:
            got = self._rebuilt[v] = isinstance(v, OpResult) and built_in_any_layout(v.op)
        return got

    def reduce_work(self, enc: Encoding | None, t: object, op: Operation) -> float:
        """What reducing one operand of type ``t`` in ``enc`` costs
        (``estimate_reduction_cost``)."""
        if enc is None or not isinstance(t, TensorType):
            return 0.0
        axis = op.properties["axis"].value.data  # type: ignore[union-attr]
        key = (enc, t, axis)
        got = self._reduce_prices.get(key)
        if got is None:
            try:
                layout = to_linear_layout(enc, tensor_shape(t))
                got = estimate_reduction_cost(layout, axis, element_bytes(t) * 8)
            except ValueError:
                got = INFEASIBLE
            self._reduce_prices[key] = got
        return got

    def words(self, enc: Encoding | None, t: object) -> float:
        """32-bit registers a thread holds of a tensor of type ``t`` in ``enc``."""
        if enc is None or not isinstance(t, TensorType):
            return 0.0
        key = (enc, t)
        words = self._regs.get(key)
        if words is None:
            try:
                regs = to_linear_layout(enc, tensor_shape(t)).in_dim_size("register")
            except ValueError:
                regs = 1
            words = self._regs[key] = regs * max(1.0, element_bytes(t) / 4)
        return words

    def held_more_than_once(self, v: SSAValue) -> bool:
        """Whether the threads hold more registers of ``v`` in its current layout than an
        even share of its elements (lanes or warps repeat them)."""
        enc = self.layout(v)
        if enc is None or not isinstance(v.type, TensorType):
            return False
        try:
            layout = to_linear_layout(enc, tensor_shape(v.type))
        except ValueError:
            return False
        threads = layout.in_dim_size("lane") * layout.in_dim_size("warp")
        return layout.in_dim_size("register") > max(1, layout.total_out_size // threads)

    def _shape_term(self, op: Operation, res: list[SSAValue], ops: list[SSAValue]) -> float:
        if not res:  # a reduction to a scalar: every operand in the first one's layout
            first = self.layout(ops[0]) if ops else None
            return sum(self._cvt(self.layout(o), first, o.type) for o in ops[1:] if not self.rebuilt(o))
        want = self.layout(res[0])
        if want is None:
            return 0.0
        src = self.layout(ops[0])
        if src is not None and self._free_as_is(op, src, res):
            # (the operand's own layout gives the results: e.g. a split whose register
            # of the split dim is not the first one backward() would ask for)
            return sum(self._operand_cvt(op, o, src) for o in ops[1:] if not self.rebuilt(o))
        need = self._backward(op, want)
        if need is not None and self._free(op, need, res):
            return sum(self._operand_cvt(op, o, need) for o in ops if not self.rebuilt(o))
        outs = self._forward(op, src) if src is not None else None
        if outs is None:
            return INFEASIBLE
        cost = sum(self._operand_cvt(op, o, src) for o in ops[1:] if not self.rebuilt(o))
        return cost + sum(self._cvt(e, self.layout(r), r.type) for r, e in zip(res, outs))

    def _free_as_is(self, op: Operation, src: Encoding, res: list[SSAValue]) -> bool:
        """Whether a shape op whose verifier compares linear layouts
        (``compares_linear_layouts``) gives its results' layouts from ``src`` as it is."""
        if not compares_linear_layouts(op):
            return False
        outs = self._forward(op, src)
        return outs is not None and self._results_are(res, outs, exact=False)

    def _operand_cvt(self, op: Operation, o: SSAValue, need: Encoding) -> float:
        """The conversion of a shape op's operand ``o`` to ``need``: none between two
        spellings of one linear layout where the op's verifier compares linear layouts
        (``compares_linear_layouts``), as the rewrite leaves them."""
        have = self.layout(o)
        if have is None or have == need:
            return 0.0
        if compares_linear_layouts(op) and self._same_linear(have, need, o.type):  # type: ignore[arg-type]
            return 0.0
        return self._cvt(have, need, o.type)

    def _forward(self, op: Operation, enc: Encoding) -> list[Encoding] | None:
        key = (op, enc)
        if key not in self._fw:
            self._fw[key] = forward(op, enc)
        return self._fw[key]

    def _backward(self, op: Operation, enc: Encoding) -> Encoding | None:
        key = (op, enc)
        if key not in self._bw:
            self._bw[key] = backward(op, enc)
        return self._bw[key]

    def _free(self, op: Operation, need: Encoding, res: list[SSAValue]) -> bool:
        if op.name == "tt.join":
            return True  # ``need`` splits the result's layout: what join's verifier asks
        outs = self._forward(op, need)
        return outs is not None and self._results_are(res, outs, exact=not compares_linear_layouts(op))

    def _results_are(self, res: list[SSAValue], outs: list[Encoding], exact: bool) -> bool:
        """Whether the values ``res`` have the layouts ``outs``: spelled so with ``exact``,
        else as linear layouts."""
        for r, e in zip(res, outs):
            have = self.layout(r)
            if have == e:
                continue
            if exact or have is None or not self._same_linear(have, e, r.type):  # type: ignore[arg-type]
                return False
        return True

    def _same_linear(self, a: Encoding, b: Encoding, t: TensorType) -> bool:
        key = (a, b, t)
        got = self._eq.get(key)
        if got is None:
            shape = tensor_shape(t)
            try:
                got = to_linear_layout(a, shape) == to_linear_layout(b, shape)
            except ValueError:
                got = False
            self._eq[key] = got
        return got

    def touching(self, v: SSAValue) -> tuple[Operation, ...]:
        """The ops whose terms depend on ``v``'s layout."""
        got = self._touch.get(v)
        if got is not None:
            return got
        ops: dict[Operation, None] = {}
        for m in group(v):
            for use in m.uses:
                ops[use.operation] = None
            if isinstance(m, OpResult):
                ops[m.op] = None
                if self.kind(m.op) in (OpKind.SAME, OpKind.CONVERT):
                    # the later consumers of its operands in its block: whether one of
                    # them shares this op's conversion of an operand (_converted_before)
                    for o in m.op.operands:
                        for use in o.uses:
                            if use.operation.parent is m.op.parent:
                                ops[use.operation] = None
                if isinstance(m.op, scf.ForOp):
                    ops[m.op.body.block.last_op] = None  # type: ignore[index]
                elif isinstance(m.op, (scf.IfOp, scf.WhileOp)):
                    # their yields / condition read the results' layouts
                    for region in m.op.regions:
                        for b in region.blocks:
                            ops[b.last_op] = None  # type: ignore[index]
            elif isinstance(m, BlockArgument):
                parent = m.block.parent_op()
                if isinstance(parent, scf.ForOp):
                    ops[parent] = None
                    ops[parent.body.block.last_op] = None  # type: ignore[index]
                elif isinstance(parent, scf.WhileOp):
                    ops[parent] = None
                    for region in parent.regions:
                        if region.block.last_op is not None:
                            ops[region.block.last_op] = None
                for branch, _ in incoming(m):
                    ops[branch] = None
        out = tuple(op for op in ops if op is not None)
        self._touch[v] = out
        return out

    def local(self, ops: Iterable[Operation]) -> float:
        return sum(self.term(op) for op in ops)

    def total(self, body_ops: Iterable[Operation]) -> float:
        return sum(self.term(op) for op in body_ops)

    # -- moves ------------------------------------------------------------------------

    def region(self, x: SSAValue, c: Encoding) -> Iterator[tuple[SSAValue, Encoding]]:
        """``x := c`` closed along propagation through the candidates (module doc), lazily:
        breadth first, values of ``x``'s own loop before the others, so that a prefix of
        the order is a region that stays in the loop (``try_prefix``)."""
        seen = {x}
        loop_of = self.loop_of
        home = loop_of(x)
        work = [(0, 0, 0, x, c)]
        tick = 0
        while work and tick < MAX_REGION:
            _, dist, _, v, e = heappop(work)
            yield v, e
            for u, f in self.neighbours(v, e):
                if u in seen or f is None:
                    continue
                opts = self.cands.get(u)
                if not opts:
                    continue
                pick = _same_layout(f, opts, u)
                if pick is None or self.choice.get(u) == pick:
                    continue
                seen.add(u)
                tick += 1
                heappush(work, (0 if loop_of(u) is home else 1, dist + 1, tick, u, pick))

    # (the IR is fixed while the objective lives: a value's group and loop are kept)
    def group(self, v: SSAValue) -> tuple[SSAValue, ...]:
        """``group(v)``."""
        got = self._groups.get(v)
        if got is None:
            got = self._groups[v] = group(v)
        return got

    def loop_of(self, v: SSAValue) -> Operation | None:
        """``_loop_of(v)``."""
        try:
            return self._loops[v]
        except KeyError:
            got = self._loops[v] = _loop_of(v)
            return got

    def try_prefix(self, move: Iterable[tuple[SSAValue, Encoding]]) -> list[SSAValue]:
        """Apply the best non-empty prefix of ``move`` if it lowers the objective; returns
        the values it moved (none: nothing applied). Each value's marginal change is the
        change of the terms of the ops it touches, so the scan costs one pass; it stops
        ``PATIENCE`` values past its best prefix."""
        applied: list[tuple[SSAValue, Encoding | None]] = []
        total = best = 0.0
        best_k = 0
        for v, e in move:
            ops = self.touching(v)
            before = self.local(ops)
            applied.append((v, self.choice.get(v)))
            self._set(v, e)
            total += self.local(ops) - before
            if total < best - 1e-9 * max(1.0, abs(before)):
                best, best_k = total, len(applied)
            elif len(applied) - best_k > PATIENCE:
                break
        for v, old in reversed(applied[best_k:]):
            if old is not None:
                self._set(v, old)
        return [v for v, _ in applied[:best_k]]

    def neighbours(self, v: SSAValue, e: Encoding) -> list[tuple[SSAValue, Encoding | None]]:
        """For ``v`` in ``e``: the values next to it and the layout each needs to be free
        (memoized: it depends on the IR only)."""
        key = (v, e)
        got = self._nbrs.get(key)
        if got is not None:
            return got
        out: list[tuple[SSAValue, Encoding | None]] = []
        for m in group(v):
            for use in m.uses:
                if free_use(use):
                    continue
                op = use.operation
                k = self.kind(op)
                if k in (OpKind.SAME, OpKind.SHAPE):
                    outs = forward(op, e)
                    if outs is not None:
                        out += list(zip(tensor_results(op), outs))
                    if k is OpKind.SAME:
                        out += [(o, e) for o in tensor_operands(op) if o is not m]
                elif k is OpKind.CONVERT:
                    out.append((op.results[0], e))
                else:
                    out += [(b, e) for a, b in _edges(op) if a is m]
            if isinstance(m, OpResult):
                op = m.op
                k = self.kind(op)
                if k in (OpKind.SAME, OpKind.SHAPE):
                    need = backward(op, e)
                    out += [(o, need) for o in tensor_operands(op)]
                    if k is OpKind.SAME:
                        out += self._siblings(op, e)
                elif k is OpKind.CONVERT:
                    out.append((op.operands[0], e))
            for a, b in _incoming_edges(m):
                out.append((a, e))
        self._nbrs[key] = out
        return out

    def _siblings(self, op: Operation, e: Encoding) -> list[tuple[SSAValue, Encoding]]:
        """For an elementwise ``op`` moving to ``e``: the results of the other elementwise
        consumers, in its block, of its operands that keep their layout (no candidates),
        in ``e`` too, so that one conversion of the operand serves them all
        (``_converted_before``): each alone would only move the conversion."""
        out: list[tuple[SSAValue, Encoding]] = []
        for o in tensor_operands(op):
            if o in self.cands or self.rebuilt(o):
                continue
            for use in o.uses:
                other = use.operation
                if other is not op and other.parent is op.parent and self.kind(other) is OpKind.SAME:
                    out += [(r, e) for r in tensor_results(other)]
        return out

    def _set(self, v: SSAValue, e: Encoding) -> None:
        for m in self.group(v):
            self.choice[m] = e
        for op in self.touching(v):
            self._terms.pop(op, None)


_SAME_ENCODING_RESULTS = ("tt.split", "tt.reduce")


def group(v: SSAValue) -> tuple[SSAValue, ...]:
    """Values that share one layout: an ``scf.for`` iter argument and its result; the
    results of ``tt.split`` and of a multi-result ``tt.reduce`` (their verifiers want one
    encoding)."""
    if isinstance(v, BlockArgument):
        parent = v.block.parent_op()
        if isinstance(parent, scf.ForOp) and v.index >= 1:
            return (v, parent.results[v.index - 1])
    elif isinstance(v, OpResult) and isinstance(v.op, scf.ForOp):
        return (v, v.op.body.block.args[1 + v.index])
    elif isinstance(v, OpResult) and v.op.name in _SAME_ENCODING_RESULTS and len(v.op.results) > 1:
        return tuple(r for r in v.op.results if isinstance(r.type, TensorType))
    return (v,)


def consistent(choice: dict[SSAValue, Encoding]) -> dict[SSAValue, Encoding]:
    """``choice`` with every group taking its first member's layout."""
    out = dict(choice)
    done: set[SSAValue] = set()
    for v, e in choice.items():
        if v in done:
            continue
        for m in group(v):
            done.add(m)
            out[m] = e
    return out


def _loop_of(v: SSAValue) -> Operation | None:
    """The innermost loop computing ``v`` (a loop's iter argument: that loop)."""
    op = v.op if isinstance(v, OpResult) else v.block.parent_op()  # type: ignore[union-attr]
    if isinstance(v, OpResult) and isinstance(op, scf.ForOp):
        return op  # a loop's result shares its iter argument's layout
    while op is not None and not isinstance(op, (scf.ForOp, scf.WhileOp)):
        op = op.parent_op()
    return op


def _edges(op: Operation) -> list[tuple[SSAValue, SSAValue]]:
    """(value, the value it becomes) pairs of a control-flow op (init, yield, branch)."""
    if isinstance(op, scf.ForOp):
        return [(op.operands[3 + i], a) for i, a in enumerate(op.body.block.args[1:])]
    if isinstance(op, scf.YieldOp):
        parent = op.parent_op()
        if isinstance(parent, scf.ForOp):
            return list(zip(op.operands, parent.body.block.args[1:]))
        if isinstance(parent, scf.IfOp):
            return list(zip(op.operands, parent.results))
        if isinstance(parent, scf.WhileOp):
            return list(zip(op.operands, parent.before_region.block.args))
        return []
    if isinstance(op, scf.WhileOp):
        return list(zip(op.operands, op.before_region.block.args))
    if isinstance(op, scf.ConditionOp):
        parent = op.parent_op()
        if isinstance(parent, scf.WhileOp):
            return list(zip(op.operands[1:], parent.after_region.block.args)) + list(zip(op.operands[1:], parent.results))
        return []
    if is_branch(op):
        return [(op.operands[e.first + i], a) for e in edges(op) for i, a in enumerate(e.block.args)]
    return []


def _incoming_edges(v: SSAValue) -> list[tuple[SSAValue, SSAValue]]:
    if not isinstance(v, BlockArgument):
        if isinstance(v, OpResult) and isinstance(v.op, scf.IfOp):
            return [(y.operands[v.index], v) for r in v.op.regions for y in [r.block.last_op] if isinstance(y, scf.YieldOp)]
        return []
    out = [(branch.operands[i], v) for branch, i in incoming(v)]
    parent = v.block.parent_op()
    if isinstance(parent, scf.ForOp) and v.index >= 1:
        out.append((parent.operands[2 + v.index], v))
        y = parent.body.block.last_op
        if isinstance(y, scf.YieldOp):
            out.append((y.operands[v.index - 1], v))
    return out


def _same_layout(f: Encoding, opts: list[Encoding], u: SSAValue) -> Encoding | None:
    """The candidate of ``u`` equal to ``f`` (as written, else as a linear layout)."""
    if f in opts:
        return f
    shape = tensor_shape(u.type)
    try:
        ll = to_linear_layout(f, shape)
        for o in opts:
            if to_linear_layout(o, shape) == ll:
                return o
    except ValueError:
        return None
    return None


def triton_rule_start(
    cands: dict[SSAValue, list[Encoding]],
    memory_near: Callable[[SSAValue], bool],
    anchored: set[tuple[SSAValue, Encoding]] = frozenset(),  # type: ignore[assignment]
) -> dict[SSAValue, Encoding]:
    """Triton's rule: a value takes the layouts forward propagation from anchors brings
    it (``anchored``; all its candidates when none does), and among several, near a
    global memory op a blocked one, elsewhere a tensor-core one (a slice of one counts
    as its parent), else the first."""

    def is_mma(e: Encoding) -> bool:
        while isinstance(e, SliceEncoding):
            e = e.parent
        return isinstance(e, (NvidiaMmaEncoding, AMDMfmaEncoding, AMDWmmaEncoding))

    def is_blocked(e: Encoding) -> bool:
        while isinstance(e, SliceEncoding):
            e = e.parent
        return isinstance(e, BlockedEncoding)

    start: dict[SSAValue, Encoding] = {}
    for v, opts in cands.items():
        if not opts:
            continue
        pool = [e for e in opts if (v, e) in anchored] or opts
        want = is_blocked if memory_near(v) else is_mma
        start[v] = next((e for e in pool if want(e)), pool[0])
    return start


def minimize(obj: LayoutObjective, variables: list[SSAValue], body_ops: list[Operation], total: bool = True) -> float:
    """Region moves from ``obj.choice`` until none improves or the budget
    (``EVALUATIONS_PER_OP``) is spent (module doc); returns the objective reached (0.0
    without ``total``: a caller that compares nothing skips summing it). A value seeds moves only while an op it touches holds a
    conversion (elsewhere every move only adds some), and after the first round only
    when a move changed something next to it. The operands of a store whose threads
    hold the stored tensor more than once seed moves too."""
    multi = [v for v in variables if len(obj.cands.get(v, ())) > 1]
    dirty = set(multi)
    budget = obj.evaluations + EVALUATIONS_PER_OP * max(1, len(body_ops))
    # A store's operands seed moves too where its threads hold the stored tensor more
    # than once: its work (one access per register) can make a layout that holds it once
    # cheaper than the one it comes in.
    stored = {o for op in body_ops if not tensor_results(op) and obj.kind(op) is OpKind.SAME
              for o in tensor_operands(op)}  # fmt: skip

    def seeds_moves(x: SSAValue) -> bool:
        return (x in stored and obj.held_more_than_once(x)) or obj.converts_near(x)

    for _ in range(MAX_ROUNDS):
        changed: set[SSAValue] = set()
        # The costliest neighbourhoods first, so that a spent budget leaves the least.
        seeds = sorted((x for x in multi if x in dirty and seeds_moves(x)), key=lambda x: -obj.local(obj.touching(x)))
        for x in seeds:
            if obj.evaluations > budget:
                return obj.total(body_ops) if total else 0.0
            if not seeds_moves(x):
                continue
            cur = obj.choice.get(x)
            for c in obj.cands[x]:
                if c == cur:
                    continue
                moved = obj.try_prefix(obj.region(x, c))
                if moved:
                    for v in moved:
                        changed.add(v)
                        for op in obj.touching(v):
                            changed.update(r for r in op.results)
                            changed.update(op.operands)
                    cur = obj.choice.get(x)
        if not changed:
            break
        dirty = changed
    return obj.total(body_ops) if total else 0.0
