"""Lowering of control flow and program ids: ``scf.for``, ``scf.while``, ``scf.if``,
``scf.yield``, ``scf.condition``, ``tt.return``, ``tt.get_program_id``,
``tt.get_num_programs``.

Structured control flow stays structured: a loop or branch carries the flattened
per-register scalars of its tensor values (:func:`flatten`), and its results are regrouped
into :class:`ThreadTensor` s by their types (:func:`regroup`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import llvm, scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from ltc.dialects.ttg import MemDescType
from ltc.lowering.llvm.function import FunctionLowering, Handler, Lowered, LoweringError, SharedView, ThreadTensor
from ltc.lowering.llvm.local_memory import allocation_view

__all__ = ["CONTROL_HANDLERS", "flatten", "regroup"]


def flatten(fl: FunctionLowering, values: Sequence[Lowered], op: Operation) -> list[SSAValue]:
    """The scalars of ``values`` in order, a tensor's registers in place of the tensor and
    a whole shared-memory allocation's byte offset in place of the view (its layout
    follows from its type); a view of part of one is refused (``op``)."""
    out: list[SSAValue] = []
    for v in values:
        if isinstance(v, SharedView):
            if v.origin is not None:
                raise LoweringError(
                    op, f"convert-tritongpu-to-llvm: a ttg.memdesc_subslice view carried by '{op.name}' is not supported"
                )
            out.append(fl.b.i32(v.offset) if isinstance(v.offset, int) else v.offset)
        else:
            out.extend(v.regs if isinstance(v, ThreadTensor) else [v])
    return out


def regroup(fl: FunctionLowering, op: Operation, types: Sequence[Attribute], flat: Sequence[SSAValue]) -> list[Lowered]:
    """The inverse of :func:`flatten` for values of ``types``: runs of scalars become
    tensors, a byte offset of a ``!ttg.memdesc`` its view."""
    out: list[Lowered] = []
    i = 0
    for t in types:
        if isinstance(t, TensorType):
            n = fl.num_regs(t)
            out.append(fl.tensor(op, t, flat[i : i + n]))
            i += n
        elif isinstance(t, MemDescType):
            out.append(allocation_view(op, t, flat[i]))
            i += 1
        else:
            out.append(flat[i])
            i += 1
    return out


def _lower_for(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    lb, ub, step, *inits = args
    flat_inits = flatten(fl, inits, op)
    body = op.regions[0].block
    iv_type = body.args[0].type
    new_body = Block(arg_types=[iv_type, *(v.type for v in flat_inits)])
    new_for = scf.ForOp(lb, ub, step, flat_inits, Region(new_body))  # type: ignore[arg-type]
    fl.b.add(new_for)
    prev = fl.b.at(new_body)
    fl.values[body.args[0]] = new_body.args[0]
    carried = regroup(fl, op, [a.type for a in body.args[1:]], new_body.args[1:])
    for a, v in zip(body.args[1:], carried, strict=True):
        fl.values[a] = v
    fl.lower_block(body)
    fl.b.at(prev)
    return regroup(fl, op, [r.type for r in op.results], new_for.results)


def _lower_while(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    """``scf.while``: both regions lowered into a new loop over the flattened scalars; the
    ``after`` region's arguments (and the results) are what ``scf.condition`` forwards."""
    assert isinstance(op, scf.WhileOp)
    flat_inits = flatten(fl, args, op)
    before, after = op.before_region.block, op.after_region.block
    new_before = Block(arg_types=[v.type for v in flat_inits])
    prev = fl.b.at(new_before)
    for a, v in zip(before.args, regroup(fl, op, [a.type for a in before.args], new_before.args), strict=True):
        fl.values[a] = v
    fl.lower_block(before)
    cond = new_before.last_op
    assert isinstance(cond, scf.ConditionOp)
    forwarded = [v.type for v in cond.args]
    new_after = Block(arg_types=forwarded)
    fl.b.at(new_after)
    for a, v in zip(after.args, regroup(fl, op, [a.type for a in after.args], new_after.args), strict=True):
        fl.values[a] = v
    fl.lower_block(after)
    fl.b.at(prev)
    new_while = scf.WhileOp(flat_inits, forwarded, Region(new_before), Region(new_after))
    fl.b.add(new_while)
    return regroup(fl, op, [r.type for r in op.results], new_while.results)


def _lower_condition(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    cond, *forwarded = args
    if isinstance(cond, ThreadTensor):
        raise LoweringError(op, "scf.condition on a tensor")
    fl.b.add(scf.ConditionOp(cond, *flatten(fl, forwarded, op)))
    return []


def _lower_if(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    (cond,) = args
    result_types: list[Attribute] = []
    regions = []
    for region in op.regions:
        block = Block()
        regions.append(Region(block))
        if not region.blocks:
            block.add_op(scf.YieldOp())
            continue
        prev = fl.b.at(block)
        fl.lower_block(region.block)
        fl.b.at(prev)
    if op.results:
        y = regions[0].block.last_op
        assert y is not None
        result_types = [v.type for v in y.operands]
    new_if = scf.IfOp(cond, result_types, regions[0], regions[1] if len(regions) > 1 else None)  # type: ignore[arg-type]
    fl.b.add(new_if)
    return regroup(fl, op, [r.type for r in op.results], new_if.results)


def _lower_yield(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    fl.b.add(scf.YieldOp(*flatten(fl, args, op)))
    return []


def _lower_return(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    if args:
        raise LoweringError(op, "a kernel returns no values")
    fl.b.add(llvm.ReturnOp())
    return []


def _program_axis(name: str) -> Handler:
    def lower(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
        axis = str(op.properties["axis"].data.value) if "axis" in op.properties else "x"  # type: ignore[attr-defined]
        return [fl.b.sreg(f"{name}.{axis}")]

    return lower


CONTROL_HANDLERS: dict[str, Handler] = {
    "scf.for": _lower_for,
    "scf.while": _lower_while,
    "scf.condition": _lower_condition,
    "scf.if": _lower_if,
    "scf.yield": _lower_yield,
    "tt.return": _lower_return,
    "tt.get_program_id": _program_axis("ctaid"),
    "tt.get_num_programs": _program_axis("nctaid"),
}
