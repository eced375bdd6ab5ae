"""xDSL's ``scf`` dialect, reading result types the way MLIR does.

MLIR writes the result types of ``scf.if`` and ``scf.for`` after ``->`` as a function
result list: parenthesised (``-> (i32, f32)``, ``-> ()``) or, for one type, bare
(``-> i32``, ``-> tensor<32xf32, #blocked>``). xDSL 0.74 reads only the parenthesised
form, and takes an unregistered op that ends a region for its terminator (MLIR adds the
implicit ``scf.yield`` after it). ``IfOp`` and ``ForOp`` here are xDSL's ops with that parse; they print as xDSL
(and MLIR) do, always with parentheses. ``WhileOp`` adds MLIR's control-flow-edge checks. Every other op is xDSL's own.
"""

from __future__ import annotations

from xdsl.dialects import scf as xdsl_scf
from xdsl.dialects.builtin import IndexType, i1
from xdsl.dialects.utils import parse_assignment
from xdsl.ir import Attribute, Block, Dialect, Region, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.traits import IsTerminator, SingleBlockImplicitTerminator, ensure_terminator
from xdsl.utils.exceptions import VerifyException


def parse_function_result_types(parser: Parser) -> list[Attribute]:
    """MLIR's function-result-types after ``->``: ``(t1, ..., tn)`` or a single type."""
    if parser.parse_optional_punctuation("(") is None:
        return [parser.parse_type()]
    if parser.parse_optional_punctuation(")") is not None:
        return []
    types = [parser.parse_type()]
    while parser.parse_optional_punctuation(",") is not None:
        types.append(parser.parse_type())
    parser.parse_punctuation(")")
    return types


class IfOp(xdsl_scf.IfOp):
    """``scf.if %c [-> types] {...} [else {...}]``: xDSL's op, results with or without parentheses."""

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        cond = parser.parse_operand(i1)
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parse_function_result_types(parser)
        then_region = cls.parse_region_with_yield(parser)
        else_region = Region()
        if parser.parse_optional_keyword("else") is not None:
            else_region = cls.parse_region_with_yield(parser)
        attributes = parser.parse_optional_attr_dict()
        return cls(cond, result_types, then_region, else_region, attributes)

    @staticmethod
    def parse_region_with_yield(parser: Parser) -> Region:
        """A region, given its implicit ``scf.yield`` unless it already ends with a
        terminator. As in MLIR, an unregistered op is not taken for a terminator."""
        region = parser.parse_region()
        block = region.blocks.last
        if block is None:
            block = Block()
            region.add_block(block)
        last_op = block.last_op
        if last_op is None or not last_op.has_trait(IsTerminator, value_if_unregistered=False):
            block.add_op(xdsl_scf.YieldOp())
        return region


class ForOp(xdsl_scf.ForOp):
    """``scf.for %i = %lb to %ub step %s [iter_args(...) -> types] [: t] {...}``.

    xDSL's op; the iteration types after ``->`` may be bare when there is one.
    """

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        indvar = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        lb = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        ub = parser.parse_unresolved_operand()
        parser.parse_keyword("step")
        step = parser.parse_unresolved_operand()

        pos = parser.pos
        args: list[Parser.UnresolvedArgument] = []
        inits: list[UnresolvedOperand] = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_args") is not None:
            for arg, init in parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, lambda: parse_assignment(parser)
            ):
                args.append(arg)
                inits.append(init)
            parser.parse_punctuation("->")
            types = parse_function_result_types(parser)
            if len(types) != len(args):
                parser.raise_error("mismatch in number of loop-carried values and defined values", pos, parser.pos)
        init_values = parser.resolve_operands(inits, types, pos)
        indvar_type = parser.parse_type() if parser.parse_optional_punctuation(":") is not None else IndexType()
        bounds = [parser.resolve_operand(v, indvar_type) for v in (lb, ub, step)]
        block_args = (indvar.resolve(indvar_type), *(a.resolve(t) for a, t in zip(args, types, strict=True)))
        body = parser.parse_region(block_args)
        attributes = parser.parse_optional_attr_dict()

        op = cls(*bounds, init_values, body)
        op.attributes |= attributes
        if not args:
            for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
                ensure_terminator(op, trait)
        return op


class WhileOp(xdsl_scf.WhileOp):
    """xDSL's ``scf.while``, verified first as MLIR's region-branch interface does: along
    each control-flow edge (``scf.condition`` to the results and to the ``do`` region,
    ``scf.yield`` to the ``before`` region) the values passed must match the inputs
    waiting for them in number and type (xDSL indexes the arguments before counting
    them, and checks no edge from ``scf.condition`` to the results)."""

    def verify_(self) -> None:
        before, after = self.before_region.blocks.first, self.after_region.blocks.first
        condition = before.last_op if before is not None else None
        if isinstance(condition, xdsl_scf.ConditionOp) and after is not None:
            passed = list(condition.args)
            self._check_edge("Operation scf.condition", "Operation scf.while", passed, list(self.res))
            self._check_edge("Operation scf.condition", "Region #1", passed, list(after.args))
        yield_ = after.last_op if after is not None else None
        if isinstance(yield_, xdsl_scf.YieldOp) and before is not None:
            self._check_edge("Operation scf.yield", "Region #0", list(yield_.arguments), list(before.args))
        super().verify_()

    @staticmethod
    def _check_edge(source: str, target: str, passed: list[SSAValue], inputs: list[SSAValue]) -> None:
        edge = f"along control flow edge from {source} to {target}"
        if len(passed) != len(inputs):
            raise VerifyException(
                f"{edge}: region branch point has {len(passed)} operands, but region successor needs {len(inputs)} inputs"
            )
        for i, (value, into) in enumerate(zip(passed, inputs)):
            if value.type != into.type:
                raise VerifyException(
                    f"{edge}: successor operand type #{i} '{value.type}' should match successor input type #{i} "
                    f"'{into.type}'"
                )


SCF = Dialect(
    "scf",
    [{"scf.if": IfOp, "scf.for": ForOp, "scf.while": WhileOp}.get(op.name, op) for op in xdsl_scf.Scf.operations],
    list(xdsl_scf.Scf.attributes),
)
"""xDSL's ``scf`` with ``IfOp``, ``ForOp`` and ``WhileOp`` replaced by the ones above."""
