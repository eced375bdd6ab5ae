"""Parse-time shortcuts: ops with an ``assembly_format``, and types derived from parsed ones.

**Declarative formats.** Parsing an op declared with an ``assembly_format``, as xDSL does but faster.

xDSL's ``FormatProgram.parse`` runs the format's directives, then re-verifies the
parsed types against every operand/result/property constraint (to infer the types the
format leaves out), then builds the op through the generic IRDL builder. On Triton text
the same op is written with the same types thousands of times, so:

* the constraint check and type inference are memoised per parser, keyed by the op
  class, the parsed types (by identity: the reader hands out one object per type text)
  and the parsed attributes (by value). A miss runs xDSL's own code, so a bad op fails
  with xDSL's error, and a failure memoises nothing;
* the op is built without the generic IRDL builder (``Operation.__init__``, or for an
  op without regions what it and ``IRDLOperation.__post_init__`` set, defaults
  precomputed) when the op definition has no segment-size options and every
  operand/result/region/successor group has the arity its definition asks for (what
  ``irdl_op_init`` would check); otherwise through ``build``, which reports the
  problem as before.

The directives are xDSL's (the commonest bound to the very parser calls they make,
without their layers of method calls), so what is accepted, and every parse error, is
unchanged.

**Derived types.** Custom ``parse`` methods derive types from the one written
(``tt.load``'s result is the pointee type with the pointer's shape, ``arith.cmpi``'s is
i1 of the operands' shape): ``derived_type`` memoises such a derivation per parser.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from xdsl.dialects.builtin import UnknownLoc
from xdsl.ir import Attribute, Operation, OpResult, SSAValue, SSAValues, Use
from xdsl.irdl import IRDLOperation, OpDef, OptionalDef, VariadicDef
from xdsl.irdl.constraints import VerificationContext
from xdsl.irdl.declarative_assembly_format import (
    AttrDictDirective,
    FormatDirective,
    FormatProgram,
    OperandVariable,
    ParsingState,
    PunctuationDirective,
    ResultVariable,
    TypeDirective,
)
from xdsl.parser import Parser
from xdsl.utils.mlir_lexer import MLIRTokenKind

_SINGLE, _OPTIONAL, _VARIADIC = 0, 1, 2
_UNKNOWN_LOC = UnknownLoc()
_new = object.__new__
_L_BRACE = MLIRTokenKind.L_BRACE


def _arities(defs: Sequence[tuple[str, Any]]) -> tuple[int, ...]:
    return tuple(
        _OPTIONAL if isinstance(d, OptionalDef) else _VARIADIC if isinstance(d, VariadicDef) else _SINGLE
        for _, d in defs
    )


@dataclass(frozen=True)
class CompiledFormat:
    """An op class's format program, with what the fast build needs to know."""

    program: FormatProgram
    op_def: OpDef
    steps: tuple[Callable[[Parser, ParsingState], None], ...]
    """The program's statements, as ``_step`` binds them."""
    n_operands: int
    n_results: int
    n_regions: int
    n_successors: int
    direct_build: bool
    """No segment-size options: ``Operation.__init__`` gets flat lists."""
    operand_arities: tuple[int, ...]
    result_arities: tuple[int, ...]
    region_arities: tuple[int, ...]
    successor_arities: tuple[int, ...]
    defaults: tuple[tuple[tuple[str, Attribute], ...], ...] | None
    """Default (properties, attributes) for ``new_op``; None: build through ``Operation.__init__``."""


def _uses_declarative_format(op_type: type[Operation]) -> bool:
    parse = getattr(op_type.parse, "__func__", None)
    return parse is not None and parse.__name__ == "parse_with_format"


@cache
def compiled_format(op_type: type[Operation]) -> CompiledFormat | None:
    """The format of ``op_type``, or None where it parses itself (or has no format).

    Cached per class: the format is part of the class definition.
    """
    if not issubclass(op_type, IRDLOperation) or not _uses_declarative_format(op_type):
        return None
    op_def = op_type.get_irdl_definition()
    if op_def.assembly_format is None:
        return None
    program = _format_program(op_type, op_def)
    return CompiledFormat(
        program=program,
        op_def=op_def,
        steps=tuple(_step(stmt) for stmt in program.stmts),
        n_operands=len(op_def.operands),
        n_results=len(op_def.results),
        n_regions=len(op_def.regions),
        n_successors=len(op_def.successors),
        direct_build=not op_def.options,
        operand_arities=_arities(op_def.operands),
        result_arities=_arities(op_def.results),
        region_arities=_arities(op_def.regions),
        successor_arities=_arities(op_def.successors),
        defaults=_defaults(op_type, op_def),
    )


def _format_program(op_type: type[IRDLOperation], op_def: OpDef) -> FormatProgram:
    """The program ``irdl_op_definition`` compiled for the class (its ``parse`` closes
    over it); compiled again only where it cannot be found there."""
    for cell in op_type.parse.__func__.__closure__ or ():  # type: ignore[attr-defined]
        if isinstance(cell.cell_contents, FormatProgram):
            return cell.cell_contents
    return FormatProgram.from_str(op_def.assembly_format, op_def)  # type: ignore[arg-type]


def _step(stmt: FormatDirective) -> Callable[[Parser, ParsingState], None]:
    """``stmt.parse`` where it is one of the common directives, bound without the
    directive's own layers of calls (same parser calls, so the same errors)."""
    kind = type(stmt)
    if kind is OperandVariable:
        index = stmt.index

        def operand(parser: Parser, state: ParsingState) -> None:
            state.operands[index] = (parser.parse_unresolved_operand(),)

        return operand
    if kind is PunctuationDirective:
        punctuation = stmt.punctuation

        def punctuation_(parser: Parser, state: ParsingState) -> None:
            parser.parse_punctuation(punctuation)

        return punctuation_
    if kind is TypeDirective and type(stmt.inner) in (OperandVariable, ResultVariable):
        index = stmt.inner.index
        is_operand = type(stmt.inner) is OperandVariable

        def type_(parser: Parser, state: ParsingState) -> None:
            (state.operand_types if is_operand else state.result_types)[index] = (parser.parse_type(),)

        return type_
    if kind is AttrDictDirective and not stmt.with_keyword:
        parse = stmt.parse

        def attr_dict(parser: Parser, state: ParsingState) -> None:
            if parser._current_token.kind is _L_BRACE:  # else: no dictionary, nothing to do
                parse(parser, state)

        return attr_dict
    return stmt.parse


def _flat(groups: Sequence[Sequence[Any]], arities: tuple[int, ...]) -> list[Any] | None:
    """The groups concatenated, or None where a group's size breaks its arity."""
    out: list[Any] = []
    for group, arity in zip(groups, arities, strict=True):
        if group is None:
            return None
        n = len(group)
        if n != 1 and (arity == _SINGLE or (arity == _OPTIONAL and n > 1)):
            return None
        out.extend(group)
    return out


def _memo_key(op_type: type[Operation], state: ParsingState) -> tuple[Any, ...] | None:
    """What constraint checking and type inference depend on; None if unhashable."""
    try:
        key = (
            op_type,
            tuple([None if ts is None else tuple(map(id, ts)) for ts in state.operand_types]),
            tuple([len(group) for group in state.operands]),  # type: ignore[arg-type]
            tuple([None if ts is None else tuple(map(id, ts)) for ts in state.result_types]),
            tuple(state.properties.items()) if state.properties else None,
            tuple(state.attributes.items()) if state.attributes else None,
        )
        hash(key)
    except TypeError:  # an attribute holding a dict or list
        return None
    return key


@dataclass(frozen=True)
class _Resolved:
    """The outcome of xDSL's constraint checking and inference for one memo key."""

    operand_types: tuple[Sequence[Attribute], ...]
    result_types: tuple[Sequence[Attribute], ...]
    flat_results: list[Attribute] | None
    """``result_types`` concatenated; None where a group breaks its arity (``build`` reports it)."""
    operands_fit: bool
    """Every operand group has the size its arity allows."""
    parsed_types: tuple[Any, ...]
    """The parsed types the key refers to by id: held so that their ids are not reused."""


def _resolve(parser: Parser, fmt: CompiledFormat, state: ParsingState) -> _Resolved:
    """xDSL's ``FormatProgram.parse`` steps after the directives (same checks, same errors)."""
    program, op_def = fmt.program, fmt.op_def
    state.context = VerificationContext()
    program.resolve_constraint_variables(state, op_def)
    operand_types = tuple(program.resolve_operand_types(state, op_def))
    result_types = tuple(program.resolve_result_types(state, op_def))
    return _Resolved(
        operand_types,
        result_types,
        _flat(result_types, fmt.result_arities),
        _flat(state.operands, fmt.operand_arities) is not None,  # type: ignore[arg-type]
        (state.operand_types, state.result_types),
    )


def _fresh_state(op_type: type[IRDLOperation], fmt: CompiledFormat) -> ParsingState:
    """``ParsingState(op_type)`` with the sizes precomputed; its verification context is
    made only where the constraints are checked (``_resolve``)."""
    state = _new(ParsingState)
    state.op_type = op_type
    state.operands = [None] * fmt.n_operands
    state.operand_types = [None] * fmt.n_operands
    state.result_types = [None] * fmt.n_results
    state.regions = [None] * fmt.n_regions
    state.successors = [None] * fmt.n_successors
    state.attributes = {}
    state.properties = {}
    return state


def parse_with_format(
    parser: Parser,
    op_type: type[IRDLOperation],
    fmt: CompiledFormat,
    memo: dict[tuple[Any, ...], _Resolved],
) -> Operation:
    """Parse an ``op_type`` op with its format: ``FormatProgram.parse``, memoised.

    ``memo`` belongs to one parser (its types are that parser's objects).
    """
    state = _fresh_state(op_type, fmt)
    for step in fmt.steps:
        step(parser, state)
    assert None not in state.operands

    key = _memo_key(op_type, state)
    resolved = None if key is None else memo.get(key)
    if resolved is None:
        resolved = _resolve(parser, fmt, state)
        if key is not None:
            memo[key] = resolved

    operands: list[SSAValue] = []
    resolve_operand = parser.resolve_operand
    for group, types in zip(state.operands, resolved.operand_types, strict=True):
        if len(group) != len(types):  # type: ignore[arg-type]
            parser.raise_error(f"expected {len(types)} operand types but had {len(group)}", parser.pos)  # type: ignore[arg-type]
        operands.extend(map(resolve_operand, group, types))  # type: ignore[arg-type]

    if fmt.direct_build and resolved.operands_fit and resolved.flat_results is not None:
        flat_regions = _flat(state.regions, fmt.region_arities) if fmt.n_regions else []  # type: ignore[arg-type]
        flat_successors = _flat(state.successors, fmt.successor_arities) if fmt.n_successors else []  # type: ignore[arg-type]
        if flat_regions is not None and flat_successors is not None:
            if fmt.defaults is not None and not flat_successors and not flat_regions:
                return new_op(
                    op_type, fmt.defaults, operands, resolved.flat_results, state.properties, state.attributes
                )
            op = op_type.__new__(op_type)
            Operation.__init__(
                op,
                operands=operands,
                result_types=resolved.flat_results,
                properties=_without_none(state.properties),
                attributes=_without_none(state.attributes),
                successors=flat_successors,
                regions=flat_regions,
            )
            return op
    groups, at = [], 0
    for group in state.operands:
        groups.append(operands[at : at + len(group)])  # type: ignore[arg-type]
        at += len(group)  # type: ignore[arg-type]
    return op_type.build(
        result_types=resolved.result_types,
        operands=groups,
        attributes=state.attributes,
        properties=state.properties,
        regions=state.regions,
        successors=state.successors,
    )


def new_op(
    op_type: type[IRDLOperation],
    defaults: tuple[tuple[tuple[str, Attribute], ...], tuple[tuple[str, Attribute], ...]],
    operands: list[SSAValue],
    result_types: list[Attribute],
    properties: dict[str, Attribute | None],
    attributes: dict[str, Attribute | None],
) -> Operation:
    """What ``Operation.__init__`` then ``IRDLOperation.__post_init__`` make of an op
    without regions or successors, with less bookkeeping: no previous operands to
    unlink, the op definition's defaults precomputed, the unknown location shared
    (attributes are immutable)."""
    op = op_type.__new__(op_type)
    uses = tuple([Use(op, i) for i in range(len(operands))])
    for value, use in zip(operands, uses):
        value.add_use(use)
    op._operands = SSAValues(operands)
    op._operand_uses = uses
    op.results = SSAValues([OpResult(t, op, i) for i, t in enumerate(result_types)])
    props = _without_none(properties)  # the parse's own dicts: no copies needed
    attrs = _without_none(attributes)
    default_props, default_attrs = defaults
    for name, value in default_props:
        if name not in props:
            props[name] = value
    for name, value in default_attrs:
        if name not in attrs:
            attrs[name] = value
    op.properties = props
    op.attributes = attrs
    op.location = _UNKNOWN_LOC
    op._successors = ()
    op._successor_uses = ()
    op.regions = ()
    return op


def _defaults(op_type: type[IRDLOperation], op_def: OpDef) -> tuple[tuple[tuple[str, Attribute], ...], ...] | None:
    """The properties and attributes ``IRDLOperation.__post_init__`` fills in, or None
    where the class initialises itself differently (``new_op`` does not apply)."""
    if op_type.__post_init__ is not IRDLOperation.__post_init__:
        return None
    return tuple(
        tuple(
            (name, d.default_value)
            for name, d in defs.items()
            if not isinstance(d, OptionalDef) and d.default_value is not None
        )
        for defs in (op_def.properties, op_def.attributes)
    )


def _without_none(attrs: dict[str, Attribute | None]) -> dict[str, Attribute]:
    if None in attrs.values():
        return {k: v for k, v in attrs.items() if v is not None}
    return attrs  # type: ignore[return-value]


def derived_type(parser: Parser, derive: Callable[[Attribute], Attribute], type_: Attribute) -> Attribute:
    """``derive(type_)``, memoised per ``(derive, type_ object)`` where the parser keeps a
    ``derived_types`` memo (``TritonParser`` does; xDSL's ``Parser`` does not).

    ``derive`` must be a pure function of the type: the reader hands out one object per
    type text, so a type written again is a hit.
    """
    memo: dict[tuple[Any, int], tuple[Attribute, Attribute]] | None = getattr(parser, "derived_types", None)
    if memo is None:
        return derive(type_)
    key = (derive, id(type_))
    hit = memo.get(key)
    if hit is not None:
        return hit[1]
    value = derive(type_)
    memo[key] = (type_, value)  # holds type_: its id stays its own while the memo lives
    return value
