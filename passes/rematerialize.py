"""Backward rematerialization and hoisting of ``ttg.convert_layout`` ops.

``rematerialize(cvt)``: the *slice* of a conversion is the producer chain of its source
that can be recomputed in the target layout — walking back from the source with the
layout each value would need (``layout_rules.backward``), stopping at values already in
that layout and at ``SOURCE`` ops (built in any layout for free), failing at anything
else (anchors, block arguments, reductions, a value needed in two layouts). The chain
is cloned in the target layout and the conversion disappears.

Cost model: a slice op whose original must survive (some user outside the slice needs
it, directly or through the slice ops that survive) is computed twice and costs
``remat_cost``; an op only the slice uses is moved, which is free. Triton counts only
ops used outside the slice, so it misses the producers those ops keep alive. The
rewrite happens when the duplicated work costs less than the conversion
(``layout_engine.convert_cost``, at least ``CONVERT_FLOOR``), both times their
execution weights.

``hoist_out_of_loops(cvt)``: a conversion whose source is defined outside an enclosing
``scf.for`` / ``scf.while`` moves in front of the outermost such loop.
``sink_into_branches(cvt)``: a conversion whose source is an ``scf.if`` result used by
nothing else moves into both branches when that removes it from at least one.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ltc.dialects.ttg import ConvertLayoutOp
from ltc.encodings import Encoding, to_linear_layout
from ltc.encodings.dot_operand import DotOperandEncoding
from ltc.passes.conversion_cost import execution_weight
from ltc.passes.layout_engine import RESPELL_PRICE, LayoutLog, convert_cost
from ltc.passes.layout_ir import convert_before, for_iter_of, layout_of, retype, tensor_shape, with_layout
from ltc.passes.layout_rules import OpKind, backward, forward, kind_of, remat_cost, tensor_operands, tensor_results

__all__ = ["RematChains", "hoist_out_of_loops", "rematerialize", "sink_into_branches"]

CONVERT_FLOOR = 4.0
"""What a conversion left in the IR is worth removing, at least (a barrier's price): even
one between two spellings of a layout, free to run, is an op the count of conversions
sees, so cheap producers are recomputed rather than kept behind it."""

_NOT_REMATERIALIZABLE = {
    "tt.load",
    "tt.reduce",
    "tt.scan",
    "tt.atomic_rmw",
    "tt.atomic_cas",
    "tt.store",
    "ttng.warp_group_dot_wait",
}


@dataclass(frozen=True)
class RematChains:
    """What a rematerialized chain may hold besides elementwise and shape ops.

    ``cheap_loads``: a ``tt.load`` that is not an anchor (fewer elements than threads:
    Triton's ``isExpensiveLoadOrStore`` is false, the data sits in L1), as in Triton's
    backward rematerialization; never a volatile one (its reads are effects).
    ``in_thread_reductions``: a ``tt.reduce`` that reduces within each thread in the
    needed layout (no lane, warp or block basis along its axis: no shuffle, no shared
    memory), so recomputing it costs its ALU work only. Triton's rule takes both;
    ltc's objective only the first (a duplicated reduction keeps its original alive, and
    the greedy order of removals can then leave more than it saves)."""

    cheap_loads: bool = True
    in_thread_reductions: bool = False


def _rematerializable(op: Operation, operand_enc: Encoding, chains: RematChains) -> bool:
    """Whether a SAME / SHAPE op may be recomputed with its operands in ``operand_enc``
    (``RematChains`` says which loads and reductions may)."""
    if op.name == "tt.reduce":
        return chains.in_thread_reductions and _reduces_in_thread(op, operand_enc)
    if op.regions:
        return False
    if op.name == "tt.load":
        volatile = op.properties.get("isVolatile")
        return chains.cheap_loads and not (isinstance(volatile, IntegerAttr) and volatile.value.data)
    return op.name not in _NOT_REMATERIALIZABLE


def _reduces_in_thread(op: Operation, operand_enc: Encoding) -> bool:
    axis = op.properties["axis"].value.data  # type: ignore[union-attr]
    try:
        layout = to_linear_layout(operand_enc, tensor_shape(op.operands[0].type))
    except ValueError:
        return False
    return all(b[axis] == 0 for dim in ("lane", "warp", "block") for b in layout.bases.get(dim, []))


def _backward_slice(
    src: SSAValue, target: Encoding, chains: RematChains = RematChains(), through_loops: bool = False
) -> dict[SSAValue, Encoding] | None:
    """Value -> layout it must be recomputed in; None when no slice exists. With
    ``through_loops`` an ``scf.for`` iter argument or result is in the slice too (the
    loop then carries the value a second time, in the needed layout): its init value
    and the value yielded for it join the slice."""
    need: dict[SSAValue, Encoding] = {}
    work = [(src, target)]
    while work:
        v, e = work.pop()
        if layout_of(v) == e:
            continue
        if v in need:
            if need[v] != e:
                return None
            continue
        carried = for_iter_of(v) if through_loops else None
        if carried is not None:
            loop, i = carried
            y = loop.body.block.last_op
            if not isinstance(y, scf.YieldOp):
                return None
            for w in (loop.body.block.args[1 + i], loop.results[i]):
                if w in need and need[w] != e:
                    return None
                need[w] = e
            work.append((loop.operands[3 + i], e))
            work.append((y.operands[i], e))
            continue
        if isinstance(v, BlockArgument) or not isinstance(v, OpResult):
            return None
        op = v.op
        k = kind_of(op)
        if k is OpKind.SOURCE:
            need[v] = e
        elif k is OpKind.CONVERT:
            need[v] = e
            work.append((op.operands[0], e))
        elif k in (OpKind.SAME, OpKind.SHAPE):
            operand_enc = backward(op, e)
            if operand_enc is None or not _rematerializable(op, operand_enc, chains):
                return None
            outs = forward(op, operand_enc)
            if outs is None:
                return None
            need[v] = e
            for o in tensor_operands(op):
                work.append((o, operand_enc))
        else:
            return None
    return need


def _duplicated_cost(need: dict[SSAValue, Encoding], cvt: Operation) -> float:
    """Cost of the slice ops whose originals must survive."""
    ops = {v.op for v in need if isinstance(v, OpResult) and not isinstance(v.op, scf.ForOp)}
    survives: set[Operation] = set()
    changed = True
    while changed:
        changed = False
        for op in ops:
            if op in survives:
                continue
            for r in op.results:
                for use in r.uses:
                    user = use.operation
                    if user is cvt:
                        continue
                    if user not in ops or user in survives:
                        survives.add(op)
                        changed = True
                        break
                if op in survives:
                    break
    return sum(remat_cost(op) * execution_weight(op) for op in survives if kind_of(op) is not OpKind.CONVERT)


def rematerialize(cvt: ConvertLayoutOp, log: LayoutLog | None = None, chains: RematChains = RematChains()) -> bool:
    """Replace ``cvt`` by its source's producer chain recomputed in the target layout,
    when that is cheaper (``chains``: what the chain may hold besides elementwise and
    shape ops). Returns whether the IR changed."""
    target = layout_of(cvt.result)
    src = cvt.src
    source_enc = layout_of(src)
    if target is None or source_enc is None:
        return False
    dot_operand = isinstance(target, DotOperandEncoding)
    need = _backward_slice(
        src, target, RematChains(cheap_loads=False) if dot_operand else chains, through_loops=not dot_operand
    )
    if need is None:
        return False
    if dot_operand and any(kind_of(v.op) is OpKind.SHAPE for v in need if isinstance(v, OpResult)):
        return False
    price = convert_cost(source_enc, target, cvt.result.type)  # type: ignore[arg-type]
    respelled = price <= RESPELL_PRICE  # two spellings of one layout: the conversion goes
    saved = max(price, CONVERT_FLOOR) * execution_weight(cvt)
    cost = _duplicated_cost(need, cvt)
    if dot_operand and cost > 0:
        # A dot operand layout repeats data across threads: a chain moves into one
        # (elementwise ops from constants, ranges and splats, as Triton hoists a
        # conversion to a dot operand) only when nothing of it must also survive.
        return False
    if cost >= saved and not respelled:
        return False
    mapping: dict[SSAValue, SSAValue] = {}

    def resolve(v: SSAValue) -> SSAValue:
        return mapping.get(v, v)

    yields: list[tuple[scf.YieldOp, int, list[SSAValue]]] = []
    for node in _program_order(need):
        if isinstance(node, scf.ForOp):
            yields.append(_carry_again(node, need, resolve, mapping))
            continue
        v = node
        op = v.op
        if op in {m.op for m in mapping if isinstance(m, OpResult)}:
            continue
        if kind_of(op) is OpKind.CONVERT:
            inner = resolve(op.operands[0])
            mapping[v] = inner if layout_of(inner) == need[v] else convert_before(inner, need[v], cvt)
            continue
        clone = op.clone()
        Rewriter.insert_op(clone, InsertPoint.after(op))
        for i, o in enumerate(op.operands):
            clone.operands[i] = resolve(o)
        encs = _result_layouts(op, need)
        for r, new_r, e in zip(op.results, clone.results, encs):
            if e is not None:
                retype(new_r, with_layout(r.type, e))
            mapping[r] = new_r
    for y, n, yielded in yields:  # the new iter values are yielded in their layout
        y.operands = [*y.operands[:n], *(resolve(w) for w in yielded)]
    replacement = resolve(src)
    if log is not None:
        # a conversion between equal layouts (cost 0) goes whatever the duplication costs
        why = "the layouts are equal" if respelled else f"duplicated cost {cost:g} < conversion {saved:g}"
        log.add(
            f"conversion of {log.value(src)} to {log.layout(target)} removed: {len(need)} value(s) "
            f"recomputed in {log.layout(target)} ({why})"
        )
    cvt.result.replace_all_uses_with(replacement)
    Rewriter.erase_op(cvt)
    return True


def _result_layouts(op: Operation, need: dict[SSAValue, Encoding]) -> list[Encoding | None]:
    """The layouts of ``op``'s results when rebuilt for the slice."""
    wanted = [need.get(r) for r in op.results]
    if kind_of(op) is OpKind.SOURCE:
        return wanted
    known = next(w for w in wanted if w is not None)
    operand_enc = backward(op, known) if kind_of(op) in (OpKind.SAME, OpKind.SHAPE) else None
    outs = forward(op, operand_enc) if operand_enc is not None else None
    results = tensor_results(op)
    out: list[Encoding | None] = []
    for r, w in zip(op.results, wanted):
        if w is not None:
            out.append(w)
        elif outs is not None and r in results:
            out.append(outs[results.index(r)])
        else:
            out.append(None)
    return out


def _program_order(need: dict[SSAValue, Encoding]) -> list[OpResult | scf.ForOp]:
    """The slice's nodes, each after the nodes it uses: an op's result, or an ``scf.for``
    that carries some of the slice's values a second time (after their init values; the
    values computed in its body come after it). Clones are placed right after their
    originals, so only data order matters."""

    def node(v: SSAValue) -> OpResult | scf.ForOp:
        carried = for_iter_of(v)
        if carried is not None:
            return carried[0]
        assert isinstance(v, OpResult)
        return v

    def uses(n: OpResult | scf.ForOp) -> list[OpResult | scf.ForOp]:
        if isinstance(n, scf.ForOp):
            inits = [n.operands[3 + i] for i in _carried_indices(n, need)]
            return [node(o) for o in inits if o in need]
        return [node(o) for o in n.op.operands if o in need]

    order: list[OpResult | scf.ForOp] = []
    done: set[OpResult | scf.ForOp] = set()
    for root in {node(v): None for v in need}:
        stack = [(root, False)]
        while stack:
            n, expanded = stack.pop()
            if n in done:
                continue
            if expanded:
                done.add(n)
                order.append(n)
                continue
            stack.append((n, True))
            stack.extend((m, False) for m in uses(n) if m not in done)
    return order


def _carried_indices(loop: scf.ForOp, need: dict[SSAValue, Encoding]) -> list[int]:
    """The iter indices of ``loop`` whose values the slice carries again."""
    return [i for i, r in enumerate(loop.results) if r in need]


def _carry_again(
    loop: scf.ForOp, need: dict[SSAValue, Encoding], resolve, mapping: dict[SSAValue, SSAValue]  # noqa: ANN001
) -> tuple[scf.YieldOp, int, list[SSAValue]]:
    """Rebuild ``loop`` carrying each of its slice values once more, in the needed layout:
    a new iter argument (its init the rebuilt init value) and a new result. Returns the
    yield, the old number of iter values and the old yielded values whose rebuilt ones
    the new iter values yield (patched once the body's slice is rebuilt; until then the
    yield passes the new arguments through). A conversion of an old result to the new
    layout after the loop takes the new result instead."""
    indices = _carried_indices(loop, need)
    body = loop.body.block
    n = len(loop.results)
    y = body.last_op
    assert isinstance(y, scf.YieldOp)
    yielded = [y.operands[i] for i in indices]
    args = []
    for i in indices:
        old = body.args[1 + i]
        new = body.insert_arg(with_layout(old.type, need[old]), len(body.args))
        new.name_hint = old.name_hint
        mapping[old] = new
        args.append(new)
    y.operands = [*y.operands, *args]
    inits = [resolve(loop.operands[3 + i]) for i in indices]
    region = loop.detach_region(loop.body)
    rebuilt = scf.ForOp(loop.lb, loop.ub, loop.step, [*loop.operands[3:], *inits], region)
    rebuilt.attributes.update(loop.attributes)  # tt.num_stages and the like stay on the loop
    rebuilt.location = loop.location
    Rewriter.insert_op(rebuilt, InsertPoint.before(loop))
    for old_r, new_r in zip(loop.results, rebuilt.results):
        new_r.name_hint = old_r.name_hint
        old_r.replace_all_uses_with(new_r)
    for k, i in enumerate(indices):
        again = rebuilt.results[n + k]
        mapping[loop.results[i]] = again
        for use in list(rebuilt.results[i].uses):
            user = use.operation
            if isinstance(user, ConvertLayoutOp) and user.result.type == again.type:
                user.result.replace_all_uses_with(again)
                Rewriter.erase_op(user)
    Rewriter.erase_op(loop)
    return y, n, yielded


def hoist_out_of_loops(cvt: ConvertLayoutOp) -> bool:
    """Move ``cvt`` in front of the outermost enclosing loop its source is defined outside of."""
    src = cvt.src
    src_block = src.block if isinstance(src, BlockArgument) else src.op.parent_block()  # type: ignore[union-attr]
    target: Operation | None = None
    cur = cvt.parent_op()
    while cur is not None and not _encloses(cur, src_block):
        if isinstance(cur, (scf.ForOp, scf.WhileOp)):
            target = cur
        cur = cur.parent_op()
    if target is None:
        return False
    cvt.detach()
    Rewriter.insert_op(cvt, InsertPoint.before(target))
    return True


def _encloses(op: Operation, block: Block | None) -> bool:
    """Whether ``block`` lies inside one of ``op``'s regions (at any depth)."""
    while block is not None:
        parent = block.parent_op()
        if parent is op:
            return True
        block = parent.parent_block() if parent is not None else None
    return False


def sink_into_branches(cvt: ConvertLayoutOp, log: LayoutLog | None = None) -> bool:
    """Move a conversion of an ``scf.if`` result into its branches when one branch then
    needs no conversion (its yielded value is already, or cheaply, in the target)."""
    src = cvt.src
    if not isinstance(src, OpResult) or not isinstance(src.op, scf.IfOp) or src.uses.get_length() != 1:
        return False
    if_op = src.op
    target = layout_of(cvt.result)
    if target is None or len(if_op.regions) < 2 or not if_op.regions[1].blocks:
        return False
    yields = [region.block.last_op for region in if_op.regions]
    values = [y.operands[src.index] for y in yields]  # type: ignore[union-attr]
    if not any(layout_of(v) == target or _backward_slice(v, target) is not None for v in values):
        return False
    for y in yields:
        assert y is not None
        y.operands[src.index] = convert_before(y.operands[src.index], target, y)
    retype(src, cvt.result.type)
    cvt.result.replace_all_uses_with(src)
    Rewriter.erase_op(cvt)
    if log is not None:
        log.add(f"{log.value(src)}: conversion to {log.layout(target)} moved into the branches of scf.if")
    for y in yields:
        inner = y.operands[src.index]  # type: ignore[union-attr]
        if isinstance(inner, OpResult) and isinstance(inner.op, ConvertLayoutOp):
            rematerialize(inner.op, log)
    return True
