"""The layout engine: choose a layout for every tensor of a function, fewest conversions.

Steps (Triton's RemoveLayoutConversions with a cost model in place of its
blocked-versus-mma preference):

1. **Anchors.** Results of ``ANCHOR`` ops (global memory ops with an element per thread,
   dots, calls, ...; ``layout_rules.kind_of``) have fixed layouts, and so do the operands
   those ops need (the ``ttg.convert_layout`` results that coalesce / accelerate-matmul
   put in front of them).
2. **Propagation.** Each anchor layout is pushed *forward* from anchor results through
   users (elementwise ops keep it, shape ops take their free result layout, reductions
   give a slice, ``scf`` iter args / yields / results carry it), and each operand
   requirement *backward* through producers (the operand layout that makes the producer
   free, through ``scf.for`` iter args into their init and yield). Every value collects
   the candidate layouts that reach it.
3. **Choice.** Every value's layout as written is a candidate too, candidates are walked
   both ways (at most ``MAX_CANDIDATES`` per value, none over the element budget
   ``MAX_ELEMENTS_PER_THREAD``, no dot-operand layout but as written), and one objective
   per function is minimised (``layout_objective``): each conversion the rewrite will
   insert, priced by ltc's planner (``convert_cost``: memory-pipe cycles; spellings of
   one linear layout ``RESPELL_PRICE``) times its loop weight, plus each op's work in its
   layout. It starts from a per-value choice and from Triton's conflict rule; the lower
   local minimum wins, and is then refined with the conversions first (ALU work only
   breaks ties; memory accesses, memory-pipe cycles as a conversion's price is, keep
   their weight: strategy ``objective``; ``objective-work`` is the first minimum alone,
   which the passes keep as an alternative beside Triton's rule,
   ``never_worse_than_rule``).
4. **Rewrite.** Values are retyped in place; every op whose operands no longer fit
   (``layout_rules``) gets a ``ttg.convert_layout`` in front; canonicalization folds
   conversion chains, identities and conversions of constants / ranges / splats.
5. **Backward rematerialization.** For each remaining conversion, the producer chain
   of its source is recomputed in the target layout when that costs less than the
   conversion. Unlike Triton, the cost counts every op of the chain that must survive
   in its old layout too (an op is duplicated when anything outside the chain, directly
   or through the ops that need it, still uses it).
6. **Hoisting.** Conversions of loop-invariant values leave their loops; a conversion of
   an ``scf.if`` result moves into the branches when that frees one branch of it.

Every decision is recorded (``LayoutLog``) for ``--debug-layouts``.
"""

from __future__ import annotations

from functools import lru_cache
from collections.abc import Iterator
from dataclasses import dataclass, field

from xdsl.utils.exceptions import PassFailedException
from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue

from ltc.encodings import Encoding, to_linear_layout
from ltc.encodings.dot_operand import DotOperandEncoding
from ltc.encodings.linear import LinearEncoding
from ltc.lowering.plans.cost import estimate_conversion_cost
from ltc.passes.conversion_cost import element_bits_of
from ltc.passes.cfg import edges, incoming, is_branch, operand_targets
from ltc.passes.layout_log import LayoutLog
from ltc.passes.layout_objective import TIE_BREAK, LayoutObjective, consistent, minimize, triton_rule_start
from ltc.passes.layout_ir import (
    ModuleConfig,
    compute_in_and_convert_back,
    convert_before,
    encoding_of_type,
    for_iter_of,
    layout_of,
    retype,
    tensor_shape,
    walk_list,
    with_layout,
)
from ltc.passes.layout_rules import (
    OpKind,
    backward,
    compares_linear_layouts,
    forward,
    free_use,
    kind_of,
    tensor_operands,
    tensor_results,
)

__all__ = ["LayoutEngine", "LayoutLog", "convert_cost", "value_name", "walk_values"]

MAX_CANDIDATES = 8
"""Candidate layouts kept per value (the first to reach it: as written, then anchors')."""

MAX_ELEMENTS_PER_THREAD = 256
"""A layout that gives a thread more elements of one tensor than this, and more than an
even share of it, is never a candidate (Triton has shipped layouts repeating a whole
8K tensor in every thread)."""


def _even_share(layout) -> int:  # noqa: ANN001
    """Elements per thread when the tensor is spread over the CTA without repeats."""
    threads = 1
    for d in ("lane", "warp"):
        if layout.has_in_dim(d):
            threads *= layout.in_dim_size(d)
    return max(1, layout.total_out_size // threads)

INFEASIBLE_PRICE = 1e9
"""Price of a conversion between layouts that do not fit the tensor's shape."""


def convert_cost(src: Encoding, dst: Encoding, t: TensorType, capability: int = 90) -> float:
    """Memory-pipe cycles per warp of converting a tensor of type ``t`` from ``src`` to
    ``dst``, as the plan's closed-form price (``ltc.lowering.plans.cost.
    estimate_conversion_cost``; 0 for the same spelling, ``RESPELL_PRICE`` for two
    spellings of one linear layout)."""
    if src is dst or src == dst:
        return 0.0
    return _type_price(src, dst, t, capability)


@lru_cache(maxsize=65536)
def _type_price(src: Encoding, dst: Encoding, t: TensorType, capability: int) -> float:
    # keyed by the (hash-cached) tensor type: the shape and element width follow from it
    return _plan_price(src, dst, tensor_shape(t), element_bits_of(t), capability)


RESPELL_PRICE = 1e-3
"""Price of a conversion between two spellings of one linear layout: free to run, but an
op left in the IR, so the engine prefers one spelling where it can."""


@lru_cache(maxsize=16384)
def _plan_price(src: Encoding, dst: Encoding, shape: tuple[int, ...], bits: int, capability: int) -> float:
    try:
        a, b = to_linear_layout(src, shape), to_linear_layout(dst, shape)
    except ValueError:
        return INFEASIBLE_PRICE
    return estimate_conversion_cost(a, b, bits) or RESPELL_PRICE


def value_name(v: SSAValue) -> str:
    """``%name`` as the printer is likely to show it (name hint, else owner and index)."""
    if v.name_hint:
        return f"%{v.name_hint}"
    if isinstance(v, OpResult):
        return f"%<{v.op.name}#{v.index}>"
    assert isinstance(v, BlockArgument)
    return f"%<arg{v.index}>"


def walk_values(body: Block | Region) -> Iterator[SSAValue]:
    """Block arguments and op results of ``body`` (every block of a region) and nested
    blocks, in program order."""
    if isinstance(body, Region):
        for b in body.blocks:
            yield from walk_values(b)
        return
    yield from body.args
    for op in body.ops:
        for region in op.regions:
            for b in region.blocks:
                yield from walk_values(b)
        yield from op.results


_GLOBAL_MEMORY = {"tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas", "tt.descriptor_load", "tt.descriptor_store"}


def _near_memory(v: SSAValue) -> bool:
    """Whether a global memory op defines or uses ``v`` (Triton's conflict rule)."""
    if isinstance(v, OpResult) and v.op.name in _GLOBAL_MEMORY:
        return True
    return any(u.operation.name in _GLOBAL_MEMORY for u in v.uses)


@dataclass
class FirstMinima:
    """The objective's first minimum (the best of its starts, before the refinement) of
    each function, as an ``objective`` run reached it, for an ``objective-work`` run on
    a copy of the same input. That run would search the same starts to the same
    minimum (the passes before it and the search are deterministic), so it takes this
    one instead of searching again. Values are named by their position in program order
    (``walk_values``); a function whose values or candidates differ is searched."""

    choices: dict[str, tuple[tuple[tuple[Encoding, ...], ...], dict[int, Encoding]]] = field(default_factory=dict)
    """Per function: every value's candidates, and the chosen layouts, by position."""

    def keep(
        self, function: str, body: Region, cands: dict[SSAValue, list[Encoding]], choice: dict[SSAValue, Encoding]
    ) -> None:
        values = list(walk_values(body))
        self.choices[function] = (
            tuple(tuple(cands.get(v, ())) for v in values),
            {i: choice[v] for i, v in enumerate(values) if v in choice},
        )

    def take(self, function: str, body: Region, cands: dict[SSAValue, list[Encoding]]) -> dict[SSAValue, Encoding] | None:
        got = self.choices.get(function)
        if got is None:
            return None
        kept_cands, by_index = got
        values = list(walk_values(body))
        if tuple(tuple(cands.get(v, ())) for v in values) != kept_cands:
            return None
        return {values[i]: e for i, e in by_index.items()}


class LayoutEngine:
    """Runs steps 1–4 on one function body (see the module docstring). The body may have
    several blocks: the entry block's arguments are the function's (fixed); another
    block's arguments take layouts like loop-carried values, from the branch operands
    that feed them (``cfg``) and from their users."""

    def __init__(
        self,
        body: Region,
        log: LayoutLog | None = None,
        strategy: str = "objective",
        first_minima: FirstMinima | None = None,
    ) -> None:
        self.body = body
        self.log = log
        self.strategy = strategy
        """``objective``: minimise the function's objective, then refine its choice with
        the conversions first (``TIE_BREAK``); ``objective-work``: the first minimum alone
        (the ops' work weighed against conversions); ``triton``: Triton's conflict rule
        alone (what Triton's pass would choose, for comparisons)."""
        self.first_minima = first_minima
        """Where an ``objective`` run leaves its first minimum and an ``objective-work``
        run on a copy of the same input takes it (:class:`FirstMinima`)."""
        self.fixed: dict[SSAValue, str] = {}
        self.cands: dict[SSAValue, list[Encoding]] = {}
        self.why: dict[tuple[SSAValue, Encoding], str] = {}
        self.walked: set[tuple[SSAValue, Encoding, bool]] = set()
        self.anchored: set[tuple[SSAValue, Encoding]] = set()
        """(value, candidate) pairs that forward propagation from an anchor's result
        reaches: the layouts Triton's propagation would give the value."""
        owner = body.parent_op()
        self.capability = ModuleConfig.of(owner).capability if owner is not None else 90

    # -- step 1 and 2 -------------------------------------------------------------------

    def _push(self, v: SSAValue, enc: Encoding, why: str, work: list[tuple[SSAValue, Encoding, bool]], fwd: bool) -> None:
        if v in self.fixed or not isinstance(v.type, TensorType):
            return
        if isinstance(enc, DotOperandEncoding) and enc != layout_of(v):
            # Dot operand layouts repeat data across threads: computing in them
            # multiplies the work (as Triton, they only reach a value as written).
            return
        lst = self.cands.setdefault(v, [])
        if enc in lst:
            # Known candidate: still walk it in the other direction once.
            if (v, enc, fwd) not in self.walked:
                self.walked.add((v, enc, fwd))
                work.append((v, enc, fwd))
            return
        # Spellings of one linear layout are distinct candidates (Triton's verifiers
        # compare some ops' encodings by spelling, and a conversion between two spellings
        # is still an op), except #ttg.linear beside a legacy spelling of it.
        shape = tensor_shape(v.type)
        try:
            layout = to_linear_layout(enc, shape)
        except ValueError:
            return
        if layout.in_dim_size("register") > max(MAX_ELEMENTS_PER_THREAD, _even_share(layout)) and enc != layout_of(v):
            return  # the budget: never give a thread more than this many elements
        for i, other in enumerate(lst):
            if (isinstance(other, LinearEncoding) or isinstance(enc, LinearEncoding)) and to_linear_layout(other, shape) == layout:
                if isinstance(other, LinearEncoding) and not isinstance(enc, LinearEncoding):
                    lst[i] = enc
                    if self.log is not None:
                        self.why.setdefault((v, enc), why)
                    work.append((v, enc, fwd))
                return
        if len(lst) >= MAX_CANDIDATES:
            return  # the search's width: shape ops can breed layouts without end
        lst.append(enc)
        if self.log is not None:  # (the reasons are only read for the log)
            self.why.setdefault((v, enc), why)
        # A new candidate is walked both ways: forward to the users it can reach for
        # free, backward to the producers that can make it for free.
        for d in (fwd, not fwd):
            self.walked.add((v, enc, d))
            work.append((v, enc, d))

    def propagate(self) -> None:
        work: list[tuple[SSAValue, Encoding, bool]] = []
        # (the function's arguments first: an anchor's operand pushed back through a
        # conversion must not make one a variable)
        entry = self.body.blocks.first
        for arg in entry.args if entry is not None else ():
            if isinstance(arg.type, TensorType):
                self.fixed[arg] = "function argument"
        for op in walk_list(self.body):
            k = kind_of(op)
            if k is OpKind.ANCHOR:
                for r in tensor_results(op):
                    self.fixed[r] = f"anchor ({op.name})"
                    if (e := layout_of(r)) is not None:
                        self.anchored.add((r, e))
                        work.append((r, e, True))
                for o in tensor_operands(op):
                    if (e := layout_of(o)) is not None:
                        self._push_backward_from_use(o, e, f"operand of {op.name}", work)
        # Every value's layout as written is a candidate too, walked both ways: values no
        # anchor reaches still find the layouts that make their shape ops free.
        for v in walk_values(self.body):
            if v not in self.fixed and (e := layout_of(v)) is not None:
                self._push(v, e, "as written", work, fwd=True)
        self._drain(work)

    def _drain(self, work: list[tuple[SSAValue, Encoding, bool]]) -> None:
        while work:
            v, enc, fwd = work.pop()
            if fwd:
                self._forward(v, enc, work)
            else:
                self._backward(v, enc, work)

    def _push_backward_from_use(self, o: SSAValue, e: Encoding, why: str, work: list) -> None:
        """An anchor needs ``o`` in ``e``: if ``o`` is a conversion, its source can take ``e``.
        Dot operand layouts are not pushed back: they duplicate data across threads,
        so computing a producer chain in them multiplies its work (as Triton)."""
        if isinstance(e, DotOperandEncoding):
            return
        if isinstance(o, OpResult) and kind_of(o.op) is OpKind.CONVERT:
            self._push(o.op.operands[0], e, why, work, fwd=False)

    def _forward(self, v: SSAValue, enc: Encoding, work: list) -> None:
        name = self._name(v)
        anchored = (v, enc) in self.anchored
        log = self.log
        for use in list(v.uses):
            if free_use(use):
                continue  # (a gather's source: nothing flows through it)
            op, idx = use.operation, use.index
            k = kind_of(op)
            why = f"propagated from {name} through {op.name}" if log is not None else ""
            targets: list[tuple[SSAValue, Encoding]] = []
            if k is OpKind.CONVERT:
                targets = [(op.results[0], enc)]
            elif k in (OpKind.SAME, OpKind.SHAPE):
                outs = forward(op, enc)
                if outs is not None:
                    targets = list(zip(tensor_results(op), outs))
            elif k is OpKind.REGION:
                targets = [(t, enc) for t in self._region_targets(op, idx)]
            for r, e in targets:
                self._push(r, e, why, work, True)
                if anchored and (r, e) not in self.anchored and e in self.cands.get(r, ()):
                    # the anchor's reach grows: walk on from here even if walked before
                    self.anchored.add((r, e))
                    work.append((r, e, True))

    def _backward(self, v: SSAValue, enc: Encoding, work: list) -> None:
        why = f"needed as {self._layout(enc)} by users of {self._name(v)}" if self.log is not None else ""
        if isinstance(v, BlockArgument):
            loop = for_iter_of(v)
            if loop is not None:
                for_op, i = loop
                self._push(for_op.results[i], enc, why, work, False)
                self._push(for_op.operands[3 + i], enc, why, work, False)
                yield_op = for_op.body.block.last_op
                if yield_op is not None:
                    self._push(yield_op.operands[i], enc, why, work, False)
            for branch, idx in incoming(v):
                self._push(branch.operands[idx], enc, why, work, False)
            return
        assert isinstance(v, OpResult)
        op = v.op
        k = kind_of(op)
        if k is OpKind.CONVERT:
            self._push(op.operands[0], enc, why, work, False)
        elif k in (OpKind.SAME, OpKind.SHAPE):
            # Through reductions too: the slice's parent is one more candidate of the
            # (larger) operand, and the objective prices the reduction in each.
            need = backward(op, enc)
            if need is not None:
                for o in tensor_operands(op):
                    self._push(o, need, why, work, False)
        elif isinstance(op, scf.ForOp):
            self._push(op.body.block.args[1 + v.index], enc, why, work, False)

    def _region_targets(self, op: Operation, idx: int) -> list[SSAValue]:
        """The values an ``scf`` op or a branch ties to its operand ``idx``."""
        if is_branch(op):
            return list(operand_targets(op, idx))
        if isinstance(op, scf.ForOp):
            if idx < 3:
                return []
            return [op.body.block.args[idx - 2], op.results[idx - 3]]
        if isinstance(op, scf.YieldOp):
            parent = op.parent_op()
            if isinstance(parent, scf.ForOp):
                return [parent.results[idx], parent.body.block.args[idx + 1]]
            if isinstance(parent, scf.IfOp):
                return [parent.results[idx]]
            if isinstance(parent, scf.WhileOp):
                return [parent.before_region.block.args[idx]]
            return []
        if isinstance(op, scf.WhileOp):
            return [op.before_region.block.args[idx]]
        if isinstance(op, scf.ConditionOp):
            parent = op.parent_op()
            if idx == 0 or not isinstance(parent, scf.WhileOp):
                return []
            return [parent.after_region.block.args[idx - 1], parent.results[idx - 1]]
        return []

    # -- step 3 ----------------------------------------------------------------------------

    def _neighbour_layouts(self, v: SSAValue) -> list[tuple[list[Encoding], TensorType]]:
        """Layouts ``v``'s neighbours would like it in: per neighbour, its options."""
        out: list[tuple[list[Encoding], TensorType]] = []
        t = v.type
        assert isinstance(t, TensorType)

        def options(w: SSAValue) -> list[Encoding]:
            if w in self.fixed or not self.cands.get(w):
                e = layout_of(w)
                return [e] if e is not None else []
            return self.cands[w]

        for use in v.uses:
            if free_use(use):
                continue
            op = use.operation
            k = kind_of(op)
            if k is OpKind.CONVERT:
                out.append((options(op.results[0]), t))
            elif k is OpKind.SAME:
                res = tensor_results(op)
                if res:
                    out.append((options(res[0]), t))
            elif k is OpKind.SHAPE:
                res = tensor_results(op)
                if res:
                    wants = [w for r in options(res[0]) if (w := backward(op, r)) is not None]
                    if wants:
                        out.append((wants, t))
            elif k is OpKind.ANCHOR:
                e = layout_of(v)
                if e is not None:
                    out.append(([e], t))
            elif is_branch(op):
                for arg in operand_targets(op, use.index):
                    out.append((options(arg), t))
        if isinstance(v, BlockArgument):
            for branch, idx in incoming(v):
                out.append((options(branch.operands[idx]), t))
        if isinstance(v, OpResult) and kind_of(v.op) is OpKind.SAME:
            for o in tensor_operands(v.op):
                if o is not v:
                    out.append((options(o), t))
        return out

    def resolve(self) -> dict[SSAValue, Encoding]:
        """Step 3: the per-value choice, then the whole function's objective minimised
        from it and from Triton's conflict rule (``layout_objective``); the lower wins."""
        greedy = self._per_value_choice()
        if self.strategy == "triton":
            rule = consistent({**greedy, **triton_rule_start(self.cands, _near_memory, self.anchored)})
            for v in walk_values(self.body):
                if v in rule:
                    self._note(v, rule[v], "Triton's conflict rule")
            return rule
        obj = LayoutObjective(self.cands, self._price)
        variables = list(greedy)
        body_ops = walk_list(self.body)
        best, best_cost = None, None
        name_of_body = self._function_name()
        known = None
        if self.strategy == "objective-work" and self.first_minima is not None and self.log is None:
            known = self.first_minima.take(name_of_body, self.body, self.cands)
        if known is not None:
            return known
        # The conflict rule over every candidate (not only the anchors' reach, as the
        # "triton" strategy): a start that keeps layouts near memory ops blocked.
        starts = [("per-value choice", greedy), ("Triton's conflict rule", {**greedy, **triton_rule_start(self.cands, _near_memory)})]
        distinct: list[tuple[str, dict[SSAValue, Encoding]]] = []
        for name, start in starts:
            start = consistent({v: start[v] for v in variables if v in start})
            if not distinct or start != distinct[-1][1]:
                distinct.append((name, start))
            # (else the same start reaches the same minimum, and the first is kept on a tie)
        for name, start in distinct:
            obj.reset(start)
            # the objective reached is only compared between starts
            cost = minimize(obj, variables, body_ops, total=len(distinct) > 1)
            if best_cost is None or cost < best_cost:
                best, best_cost, best_name = dict(obj.choice), cost, name
        assert best is not None
        if self.strategy == "objective" and self.first_minima is not None:
            self.first_minima.keep(name_of_body, self.body, self.cands, best)
        # Refinement: from the best choice, conversions first (the ops' work only breaks
        # ties), so a conversion is never kept to save ALU work alone; memory accesses
        # keep their weight (``layout_objective.TIE_BREAK``).
        if self.strategy != "objective-work":
            obj.work_weight = TIE_BREAK
            obj.reset(best)
            minimize(obj, variables, body_ops, total=False)
            best = dict(obj.choice)
        if self.log is not None:
            obj.reset(best)
            for v in walk_values(self.body):
                if v in best:
                    self._note(v, best[v], self._explain(obj, v, best_name))
        return best

    def _function_name(self) -> str:
        owner = self.body.parent_op()
        name = owner.properties.get("sym_name") if owner is not None else None
        return name.data if name is not None else ""  # type: ignore[attr-defined]

    def _explain(self, obj: LayoutObjective, v: SSAValue, start: str) -> str:
        """Why ``v`` has its layout: its only candidate, or the objective's change for
        each other candidate (the chosen one is a local minimum: every change is >= 0)."""
        cands = self.cands.get(v, [])
        chosen = obj.choice[v]
        if len(cands) <= 1:
            return self.why.get((v, chosen), "")
        if isinstance(v, OpResult) and isinstance(v.op, scf.ForOp):
            return f"result of the loop carrying {self._name(v.op.body.block.args[1 + v.index])}"
        ops = obj.touching(v)
        base = obj.local(ops)
        deltas = []
        for c in cands:
            obj._set(v, c)  # noqa: SLF001 - a probe, undone below
            deltas.append(obj.local(ops) - base)
        obj._set(v, chosen)  # noqa: SLF001
        listing = ", ".join(f"{self._layout(c)}: {d:+g}" for c, d in zip(cands, deltas))
        return f"chosen by the objective (from {start}; change per candidate {{{listing}}}); " + self.why.get((v, chosen), "")

    def _price(self, src: Encoding, dst: Encoding, t: TensorType) -> float:
        return convert_cost(src, dst, t, self.capability)

    def _per_value_choice(self) -> dict[SSAValue, Encoding]:
        choice: dict[SSAValue, Encoding] = {}
        for v in walk_values(self.body):
            cands = self.cands.get(v)
            if v in self.fixed or not cands:
                if self.log is not None and v in self.fixed and (e := layout_of(v)) is not None:
                    self._note(v, e, self.fixed[v])  # for the log: kept as it is
                continue
            if isinstance(v, OpResult) and isinstance(v.op, scf.ForOp):
                arg = v.op.body.block.args[1 + v.index]
                if arg in choice:
                    choice[v] = choice[arg]
                    continue
            if len(cands) == 1:
                choice[v] = cands[0]
                continue
            scores = []
            neighbours = self._neighbour_layouts(v)
            for c in cands:
                s = 0.0
                for opts, t in neighbours:
                    if opts:
                        s += min(convert_cost(c, o, t) for o in opts)
                scores.append(s)
            best = min(range(len(cands)), key=lambda i: (scores[i], isinstance(cands[i], LinearEncoding), i))
            choice[v] = cands[best]
        return choice

    def _note(self, v: SSAValue, enc: Encoding, why: str) -> None:
        if self.log is not None:
            self.log.add(f"{self.log.value(v)}: {self.log.layout(enc)} <- {why}", about=v)

    def _name(self, v: SSAValue) -> str:
        """``v``'s name in the log (resolved when the log is printed; '' without a log)."""
        return self.log.value(v) if self.log is not None else ""

    def _layout(self, enc: Encoding) -> str:
        return self.log.layout(enc) if self.log is not None else ""

    # -- step 4 ----------------------------------------------------------------------------

    def rewrite(self, choice: dict[SSAValue, Encoding]) -> None:
        required: dict[tuple[Operation, int], TensorType] = {}
        for op in walk_list(self.body):
            if kind_of(op) is OpKind.ANCHOR:
                for i, o in enumerate(op.operands):
                    if isinstance(o.type, TensorType):
                        required[(op, i)] = o.type
        for v, enc in choice.items():
            if layout_of(v) != enc:
                retype(v, with_layout(v.type, enc))
        for op in walk_list(self.body):
            self._legalize(op, required)

    def _legalize(self, op: Operation, required: dict[tuple[Operation, int], TensorType]) -> None:
        k = kind_of(op)
        if k is OpKind.ANCHOR:
            for i, o in enumerate(op.operands):
                need = required.get((op, i))
                if need is not None and o.type != need:
                    enc = need.encoding.encoding  # type: ignore[union-attr]
                    op.operands[i] = convert_before(o, enc, op)
        elif k is OpKind.SAME and op.name == "ttng.warp_group_dot_wait":
            # the waited-on value may still be written by the tensor cores: convert the
            # result after the wait, never the operand before it
            self._convert_results(op, [layout_of(o) for o in tensor_operands(op)])
        elif k is OpKind.SAME:
            res = tensor_results(op) or tensor_operands(op)
            target = layout_of(res[0]) if res else None
            if target is not None:
                self._convert_operands(op, target)
        elif k is OpKind.SHAPE:
            res = tensor_results(op)
            if not res:  # a reduction to a scalar takes any layout, one for all operands
                first = layout_of(tensor_operands(op)[0]) if tensor_operands(op) else None
                if first is not None:
                    self._convert_operands(op, first)
                return
            enc = layout_of(res[0])
            if enc is None:
                return
            src_enc = layout_of(tensor_operands(op)[0])
            if src_enc is not None and self._free_as_is(op, src_enc):
                # the operand's own layout gives the results (a split whose register of
                # the split dim is not the first): only other operands follow the first
                self._convert_operands(op, src_enc, by_linear_layout=True)
                return
            need = backward(op, enc)
            if need is not None and self._free(op, need):
                self._convert_operands(op, need, by_linear_layout=compares_linear_layouts(op))
                return
            src_enc = layout_of(tensor_operands(op)[0])
            outs = forward(op, src_enc) if src_enc is not None else None
            if outs is None:
                raise PassFailedException(f"no layout makes {op.name} legal here")
            # Every operand takes the first one's layout (join, a multi-operand reduce).
            self._convert_operands(op, src_enc, by_linear_layout=compares_linear_layouts(op))
            self._convert_results(op, outs)
        elif isinstance(op, scf.ForOp):
            for i, arg in enumerate(op.body.block.args[1:]):
                self._fit_operand(op, 3 + i, arg.type)
                retype(op.results[i], arg.type)
        elif isinstance(op, scf.YieldOp):
            parent = op.parent_op()
            if isinstance(parent, (scf.ForOp, scf.IfOp)):
                for i in range(len(op.operands)):
                    self._fit_operand(op, i, parent.results[i].type)
            elif isinstance(parent, scf.WhileOp):
                for i, arg in enumerate(parent.before_region.block.args):
                    self._fit_operand(op, i, arg.type)
        elif isinstance(op, scf.WhileOp):
            for i, arg in enumerate(op.before_region.block.args):
                self._fit_operand(op, i, arg.type)
        elif isinstance(op, scf.ConditionOp):
            parent = op.parent_op()
            if isinstance(parent, scf.WhileOp):
                for i, arg in enumerate(parent.after_region.block.args):
                    self._fit_operand(op, 1 + i, arg.type)
                    retype(parent.results[i], arg.type)
        elif is_branch(op):
            for e in edges(op):
                for i, arg in enumerate(e.block.args):
                    self._fit_operand(op, e.first + i, arg.type)

    @staticmethod
    def _convert_results(op: Operation, outs: list[Encoding | None]) -> None:
        """Give ``op``'s tensor results the layouts ``outs`` it computes them in, each
        converted after ``op`` to the layout its users were given."""
        for r, e in zip(tensor_results(op), outs):
            if e is None or layout_of(r) == e:
                continue
            compute_in_and_convert_back(r, e)

    def _free_as_is(self, op: Operation, src: Encoding) -> bool:
        """Whether a shape op whose verifier compares linear layouts (not a reduction or
        ``tt.expand_dims``) gives its results' layouts, as linear layouts, from ``src``."""
        if not compares_linear_layouts(op):
            return False
        outs = forward(op, src)
        return outs is not None and self._results_are(op, outs, exact=False)

    def _free(self, op: Operation, need: Encoding) -> bool:
        """Whether ``op`` with operands in ``need`` gives its result layout (an exact
        spelling for reduce / expand_dims, an equal linear layout for the others).
        ``need`` is what ``backward`` gives for the result's layout: for ``tt.join`` that
        is the split of the result's layout, which is all join's verifier asks (the new
        dimension's register bit may sit anywhere, not only where ``forward`` puts it)."""
        if op.name == "tt.join":
            return True
        outs = forward(op, need)
        return outs is not None and self._results_are(op, outs, exact=not compares_linear_layouts(op))

    @staticmethod
    def _results_are(op: Operation, outs: list[Encoding], exact: bool) -> bool:
        """Whether ``op``'s tensor results have the layouts ``outs``: spelled so with
        ``exact``, else as linear layouts."""
        for r, e in zip(tensor_results(op), outs):
            have = layout_of(r)
            if have == e:
                continue
            if exact or have is None:
                return False
            shape = tensor_shape(r.type)
            if to_linear_layout(have, shape) != to_linear_layout(e, shape):
                return False
        return True

    def _convert_operands(self, op: Operation, enc: Encoding, by_linear_layout: bool = False) -> None:
        """Convert ``op``'s tensor operands to ``enc``; with ``by_linear_layout`` an operand
        whose layout is the same linear layout spelled differently is left alone (the
        shape ops' verifiers compare linear layouts)."""
        ruled = set(tensor_operands(op))  # (not a gather's source: it takes any layout)
        for i, o in enumerate(op.operands):
            have = layout_of(o)
            if o not in ruled or have == enc:
                continue
            if by_linear_layout and have is not None:
                shape = tensor_shape(o.type)
                if to_linear_layout(have, shape) == to_linear_layout(enc, shape):
                    continue
            op.operands[i] = convert_before(o, enc, op)

    def _fit_operand(self, op: Operation, i: int, t) -> None:  # noqa: ANN001
        o = op.operands[i]
        if isinstance(t, TensorType) and o.type != t and layout_of(o) is not None:
            enc = encoding_of_type(t)
            if enc is not None:
                op.operands[i] = convert_before(o, enc, op)

