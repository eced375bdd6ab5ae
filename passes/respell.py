"""Respelling: a ``ttg.convert_layout`` between two spellings of one linear layout goes
away by giving one side the other side's spelling.

Equal linear layouts cost nothing to convert, but the op is still there (a count of
conversions sees it, and the lowering walks it). It survives the layout passes when a
user wants one spelling exactly (``tt.expand_dims`` wants the slice of its result's
layout) and the producer chain cannot be rematerialized (a loop-carried value, a
reduction).

**Components.** The component of a value ``v`` spelled ``A`` is the set of values that
must change spelling with it: through a SAME op (one encoding for every tensor operand
and result) all its tensor operands and results; through an ``scf.for`` the iter
argument, its init value, its yielded value and the loop result; a SOURCE op's result
(constants, ranges, splats) is built in any spelling. Every value of the component must
be spelled ``A`` now. The component may take spelling ``B`` when ``B`` is the same
linear layout as ``A`` at every value's shape and every op on its border accepts ``B``:
a conversion (its other side is untouched: it stays a conversion, or becomes a no-op
when that side is spelled ``B``), a SINK, or a shape op whose verifier compares linear
layouts (``tt.trans``, ``tt.reshape``, ``tt.join``, ``tt.split``). Any other op on the border (an anchor, a
shape op, a branch, a function argument) rejects the component, so the IR stays valid.

**The rewrite.** For a conversion ``A -> B`` between equal linear layouts, the source's
component takes ``B`` or, failing that, the destination's component takes ``A``; the one
that removes more conversions wins (at least the one it starts from).
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import Rewriter

from ltc.dialects.ttg import ConvertLayoutOp
from ltc.encodings import Encoding, to_linear_layout
from ltc.passes.layout_ir import layout_of, retype, tensor_shape, walk_list, with_layout
from ltc.passes.layout_rules import OpKind, compares_linear_layouts, free_use, kind_of, tensor_operands, tensor_results

__all__ = ["respell", "respell_conversions"]

MAX_COMPONENT = 512
"""Values a component may hold before it is given up (a bound on the walk)."""


def respell_conversions(root: Operation) -> int:
    """Remove every conversion between two spellings of one linear layout under ``root``
    that a component's respelling removes (module doc); returns how many went."""
    return respell(root)[0]


def respell(root: Operation) -> tuple[int, bool]:
    """``respell_conversions``, and whether it changed the IR at all (a component
    respelled)."""
    removed = 0
    changed = False
    for cvt in [op for op in walk_list(root) if isinstance(op, ConvertLayoutOp)]:
        if cvt.parent is None:
            continue
        src, dst = layout_of(cvt.operands[0]), layout_of(cvt.results[0])
        if src is None or dst is None or src == dst or not _same_linear(src, dst, cvt.results[0].type):
            continue
        best: tuple[int, set[SSAValue], Encoding] | None = None
        for start, old, new in ((cvt.operands[0], src, dst), (cvt.results[0], dst, src)):
            comp = _component(start, old, new)
            if comp is None:
                continue
            gain = _converts_removed(comp, new)
            if gain >= 1 and (best is None or gain > best[0]):
                best = (gain, comp, new)
        if best is None:
            continue
        _, comp, new = best
        changed = True
        for v in comp:
            retype(v, with_layout(v.type, new))
        for op in {u.operation for v in comp for u in v.uses} | {v.op for v in comp if isinstance(v, OpResult)}:
            if isinstance(op, ConvertLayoutOp) and op.parent is not None and op.operands[0].type == op.results[0].type:
                op.results[0].replace_all_uses_with(op.operands[0])
                Rewriter.erase_op(op)
                removed += 1
    return removed, changed


def _same_linear(a: Encoding, b: Encoding, t: object) -> bool:
    shape = tensor_shape(t)  # type: ignore[arg-type]
    try:
        return to_linear_layout(a, shape) == to_linear_layout(b, shape)
    except ValueError:
        return False


def _component(start: SSAValue, old: Encoding, new: Encoding) -> set[SSAValue] | None:
    """The values that respell with ``start`` (module doc), or None when a border op
    rejects ``new`` or a value is spelled otherwise."""
    comp: set[SSAValue] = set()
    work = [start]
    while work:
        v = work.pop()
        if v in comp:
            continue
        if not isinstance(v.type, TensorType) or layout_of(v) != old or not _same_linear(old, new, v.type):
            return None
        comp.add(v)
        if len(comp) > MAX_COMPONENT:
            return None
        joined = _joined(v)
        if joined is None:
            return None
        work.extend(joined)
    return comp


def _joined(v: SSAValue) -> list[SSAValue] | None:
    """The values that must share ``v``'s spelling, or None when an op touching ``v``
    rejects a change of spelling."""
    out: list[SSAValue] = []
    if isinstance(v, BlockArgument):
        loop = v.block.parent_op()
        if not isinstance(loop, scf.ForOp) or v.index < 1:
            return None  # a function argument, a branch's block argument, a while's
        out += _loop_group(loop, v.index - 1)
    else:
        assert isinstance(v, OpResult)
        op = v.op
        k = kind_of(op)
        if isinstance(op, scf.ForOp):
            out += _loop_group(op, v.index)
        elif k is OpKind.SAME:
            out += tensor_operands(op) + tensor_results(op)
        elif k not in (OpKind.SOURCE, OpKind.CONVERT) and not compares_linear_layouts(op):
            return None
    for use in v.uses:
        user = use.operation
        k = kind_of(user)
        if k in (OpKind.CONVERT, OpKind.SINK) or free_use(use) or compares_linear_layouts(user):
            continue
        if k is OpKind.SAME:
            out += tensor_operands(user) + tensor_results(user)
        elif isinstance(user, scf.ForOp) and use.index >= 3:
            out += _loop_group(user, use.index - 3)
        elif isinstance(user, scf.YieldOp) and isinstance(user.parent_op(), scf.ForOp):
            out += _loop_group(user.parent_op(), use.index)  # type: ignore[arg-type]
        else:
            return None
    return out


def _loop_group(loop: scf.ForOp, i: int) -> list[SSAValue]:
    """Iter value ``i`` of ``loop``: its init, iter argument, yielded value and result."""
    group: list[SSAValue] = [loop.operands[3 + i], loop.body.block.args[1 + i], loop.results[i]]
    y = loop.body.block.last_op
    if isinstance(y, scf.YieldOp):
        group.append(y.operands[i])
    return group


def _converts_removed(comp: set[SSAValue], new: Encoding) -> int:
    """Conversions on the component's border that become no-ops, less those that
    start to change spelling (were no-ops before)."""
    gain = 0
    seen: set[Operation] = set()
    for v in comp:
        ops = [u.operation for u in v.uses]
        if isinstance(v, OpResult):
            ops.append(v.op)
        for op in ops:
            if not isinstance(op, ConvertLayoutOp) or op in seen:
                continue
            seen.add(op)
            a, b = op.operands[0], op.results[0]
            before = layout_of(a) == layout_of(b)
            after_a = new if a in comp else layout_of(a)
            after_b = new if b in comp else layout_of(b)
            gain += int(after_a == after_b) - int(before)
    return gain
