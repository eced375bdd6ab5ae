"""Op-line templates: a one-line op written again with other SSA names parses as before.

Triton text repeats op lines that differ only in their SSA names and location alias::

    %w0 = arith.mulf %v0, %v0 : tensor<1024xf32, #blocked> loc(#loc12)
    %w1 = arith.mulf %v1, %v1 : tensor<1024xf32, #blocked> loc(#loc31)

A line's *template* is its text with the result name and every operand name replaced by
``%`` and the ``loc(#alias)`` suffix cut off. After the reader has parsed a one-line op
the ordinary way (``record``), it keeps what that parse made of the template: the op
class, the operand and result types, properties, attributes. A later line with the same
template is built from that record (``build``) when each of its operand names is
already bound to one value of the recorded type, its result name is new, and its
location alias was read before; otherwise ``build`` declines and the line is parsed the
ordinary way, so every error and every other outcome is the parser's own.

Why a built op equals the parsed one: a parse of one op line reads only the line's text
(types, attributes, aliases are fixed for the module being read) and the values its
names bind; the template fixes the text but for the names, and ``build`` requires the
values to have the recorded types. ``record`` keeps only parses that consumed exactly
the line, made an op without regions or successors whose operands are the line's names
in order, and set nothing on the op beyond what ``fast_parse.new_op`` sets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Attribute, Operation, SSAValue

from ltc.dialects.fast_parse import new_op

__all__ = ["OpLine", "OpRecord", "build", "read_line", "record"]

_ID = r"(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)"  # MLIR's suffix-id
_RESULT = re.compile(rf"%({_ID})[ \t]*=[ \t]*")
_OP_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_$.]*")
_OPERAND = re.compile(rf"%({_ID})(#?)")
_LOC_SUFFIX = re.compile(r"[ \t]+(loc\(#[a-zA-Z0-9_$.-]+\))[ \t]*$")
_PLAIN_FIELDS = frozenset(
    {
        "_operands", "_operand_uses", "results", "properties", "attributes", "location",
        "_successors", "_successor_uses", "regions", "parent", "_next_op", "_prev_op",
    }
)
"""What an op parsed into a block holds (``new_op`` sets these, the block the links)."""


@dataclass(frozen=True)
class OpLine:
    """The op line at a parse position, cut into template and names."""

    key: tuple[bool, str]
    """(whether a result is bound, the template text)."""
    result: str | None
    """The bound result's name (without ``%``)."""
    operands: tuple[str, ...]
    """The operand names, in text order (without ``%``)."""
    name_at: int
    """Offset of the op name in the text (where MLIR reports the op)."""
    location: str | None
    """The ``loc(#alias)`` suffix, or None."""
    end: int
    """Offset of the line's end (its newline, or the end of the text)."""


@dataclass(frozen=True)
class OpRecord:
    """What the ordinary parse of a template's first line made."""

    op_type: type[Operation]
    operand_types: tuple[Attribute, ...]
    result_types: tuple[Attribute, ...]
    properties: tuple[tuple[str, Attribute], ...]
    attributes: tuple[tuple[str, Attribute], ...]
    location: Attribute
    """The op's location when the line has no ``loc(...)`` suffix."""


def read_line(text: str, start: int) -> OpLine | None:
    """The op line starting at ``start`` (a custom-form op, optionally ``%x = ``), or
    None for a line no template can stand for (a string, a comment, ``%x#1``)."""
    end = text.find("\n", start)
    if end < 0:
        end = len(text)
    line = text[start:end]
    if '"' in line or "//" in line:
        return None
    at = 0
    result = None
    m = _RESULT.match(line)
    if m is not None:
        result = m.group(1)
        at = m.end()
    name = _OP_NAME.match(line, at)
    if name is None:
        return None
    body_end = len(line)
    location = None
    loc = _LOC_SUFFIX.search(line, name.end())
    if loc is not None:
        location = loc.group(1)
        body_end = loc.start()
    body = line[at:body_end]
    names = []
    for operand in _OPERAND.finditer(body):
        if operand.group(2):  # ``%x#1``: a result of a multi-result op
            return None
        names.append(operand.group(1))
    template = _OPERAND.sub("%", body) if names else body
    return OpLine((result is not None, template), result, tuple(names), start + at, location, end)


def record(op: Operation, line: OpLine, bound: dict[str, tuple[SSAValue, ...]]) -> OpRecord | None:
    """What to keep of ``op``, parsed the ordinary way from exactly ``line`` with the
    names ``bound`` (the parser's SSA values), or None where a template cannot stand
    for it."""
    if isinstance(op, UnregisteredOp) or op.regions or op.successors or not _PLAIN_FIELDS.issuperset(op.__dict__):
        return None
    if line.result is not None and len(op.results) != 1:
        return None
    operands = op.operands
    if len(operands) != len(line.operands):
        return None
    for name, value in zip(line.operands, operands):
        values = bound.get(name)
        if values is None or len(values) != 1 or values[0] is not value:
            return None
    return OpRecord(
        type(op),
        tuple(v.type for v in operands),
        tuple(r.type for r in op.results),
        tuple(op.properties.items()),
        tuple(op.attributes.items()),
        op.location,
    )


def build(
    rec: OpRecord, line: OpLine, bound: dict[str, tuple[SSAValue, ...]], location: Attribute | None
) -> Operation | None:
    """The op ``line`` parses to, from ``rec`` (its template's record); None where the
    ordinary parse must decide (an operand unbound or of another type)."""
    values: list[SSAValue] = []
    for name, t in zip(line.operands, rec.operand_types):
        got = bound.get(name)
        if got is None or len(got) != 1:
            return None
        value = got[0]
        if value.type is not t and value.type != t:
            return None
        values.append(value)
    op = new_op(rec.op_type, _NO_DEFAULTS, values, list(rec.result_types), dict(rec.properties), dict(rec.attributes))
    op.location = rec.location if location is None else location
    return op


_NO_DEFAULTS: tuple[tuple[tuple[str, Attribute], ...], tuple[tuple[str, Attribute], ...]] = ((), ())
