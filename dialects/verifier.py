"""Whole-module verification with source positions and Triton's layout rules.

xDSL's ``module.verify()`` stops at the first failure without saying where in the
file it is. ``verify_module`` verifies op by op (outermost first) so the failing op is
known, and adds the rule Triton checks for every distributed layout
(``TritonGPUDialect`` layout verification): the layout's rank is the tensor's, and
its lanes, warps and CTAs are those the enclosing ``ttg.threads-per-warp``,
``ttg.num-warps`` and ``ttg.num-ctas`` specify. Messages follow Triton's wording.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, TensorType
from xdsl.ir import Attribute, OpResult, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.ttg_attrs import DistributedLayoutAttr, LayoutAttr
from ltc.encodings import EncodingError
from ltc.linear_layout import LayoutError

NUM_WARPS = "ttg.num-warps"
THREADS_PER_WARP = "ttg.threads-per-warp"
NUM_CTAS = "ttg.num-ctas"


class OpVerifyError(Exception):
    """``op`` does not verify; ``message`` says why (MLIR style: ``'name' op ...``)."""

    def __init__(self, op: Operation, message: str) -> None:
        super().__init__(message)
        self.op = op
        self.message = message


@dataclass(frozen=True)
class LayoutContext:
    """What the enclosing ops say about the hardware (None where unspecified)."""

    num_warps: int | None
    threads_per_warp: int
    num_ctas: int


def _int_attr(op: Operation, name: str) -> int | None:
    attr = op.attributes.get(name)
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def layout_context(op: Operation) -> LayoutContext:
    """The nearest ``ttg.num-warps`` (and lanes, CTAs) on ``op`` or its ancestors."""
    num_warps = threads = ctas = None
    cur: Operation | None = op
    while cur is not None:
        num_warps = num_warps if num_warps is not None else _int_attr(cur, NUM_WARPS)
        threads = threads if threads is not None else _int_attr(cur, THREADS_PER_WARP)
        ctas = ctas if ctas is not None else _int_attr(cur, NUM_CTAS)
        cur = cur.parent_op()
    return LayoutContext(num_warps, threads if threads is not None else 32, ctas if ctas is not None else 1)


def layout_problem(tensor: TensorType[Attribute], context: LayoutContext) -> str | None:
    """Why ``tensor``'s layout is invalid in ``context``, or None if it is valid."""
    attr = tensor.encoding
    if not isinstance(attr, LayoutAttr):
        return None
    shape = tuple(tensor.get_shape())
    if attr.encoding.rank != len(shape):
        return f"Layout has rank {attr.encoding.rank}, but the tensor it's attached to has rank {len(shape)}."
    if not isinstance(attr, DistributedLayoutAttr):
        return None
    text = attr.encoding.to_text()
    try:
        ll = attr.to_linear_layout(shape)
    except (EncodingError, LayoutError, ValueError) as e:
        return f"{text}.\n{e}"
    lanes = ll.in_dim_size("lane") if "lane" in ll.in_dims else 1
    warps = ll.in_dim_size("warp") if "warp" in ll.in_dims else 1
    ctas = ll.in_dim_size("block") if "block" in ll.in_dims else 1
    if lanes != context.threads_per_warp:
        return (
            f"{text}.\nLayout has {lanes} threads per warp, but the module specifies "
            f"{context.threads_per_warp} threads per warp."
        )
    if context.num_warps is None:
        return "Could not determine the number of warps per CTA. Operation is not in a context with `ttg.num-warps`."
    if warps != context.num_warps:
        return f"{text}.\nLayout has {warps} warps per CTA, but the context requires {context.num_warps} warps per CTA."
    if ctas != context.num_ctas:
        return f"{text}.\nLayout has {ctas} CTAs per CGA, but the context requires {context.num_ctas} CTAs per CGA."
    return None


def _defined_values(op: Operation) -> Iterator[tuple[str, SSAValue]]:
    for result in op.results:
        yield "Result", result
    for region in op.regions:
        for block in region.blocks:
            for arg in block.args:
                yield "Block argument", arg


def verify_module(module: Operation) -> None:
    """Verify every op (outermost first); raise ``OpVerifyError`` at the first failure."""
    problems: dict[tuple[TensorType[Attribute], LayoutContext], str | None] = {}
    # Results of the ops walked so far (in text order): xDSL's parser accepts a use
    # before its definition and xDSL checks no dominance, MLIR does.
    defined: set[SSAValue] = set()
    for op in module.walk():
        for index, operand in enumerate(op.operands):
            if isinstance(operand, OpResult) and operand not in defined:
                raise OpVerifyError(op, f"'{op.name}' op operand #{index} does not dominate this use")
        defined.update(op.results)
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as e:
            message = _strip_xdsl_prefix(str(e))
            if not message.startswith(f"'{op.name}' op "):  # some verifiers name the op themselves
                message = f"'{op.name}' op {message}"
            raise OpVerifyError(op, message) from None
        if isinstance(op, scf.IfOp):
            _verify_if_yields(op)
        context: LayoutContext | None = None
        for what, value in _defined_values(op):
            ty = value.type
            if not isinstance(ty, TensorType) or not isinstance(ty.encoding, LayoutAttr):
                continue
            if context is None:
                context = layout_context(op)
            key = (ty, context)
            if key not in problems:
                problems[key] = layout_problem(ty, context)
            if problems[key] is not None:
                raise OpVerifyError(op, f"{what} has an invalid layout: {problems[key]}")


def _verify_if_yields(op: scf.IfOp) -> None:
    """Each branch of an ``scf.if`` yields its results' types (xDSL 0.74 does not check;
    it even adds an empty ``scf.yield`` to a branch that has none)."""
    expected = [r.type for r in op.results]
    for index, region in enumerate(op.regions):
        if not region.blocks or not isinstance(region.block.last_op, scf.YieldOp):
            continue
        got = [v.type for v in region.block.last_op.operands]
        if got != expected:
            raise OpVerifyError(
                op,
                f"'scf.if' op region #{index} yields {len(got)} value(s) of types ({', '.join(map(str, got))}) "
                f"but the op has {len(expected)} result(s) of types ({', '.join(map(str, expected))})",
            )


def _strip_xdsl_prefix(message: str) -> str:
    for prefix in ("Operation does not verify: ",):
        if message.startswith(prefix):
            message = message[len(prefix) :]
    return message
