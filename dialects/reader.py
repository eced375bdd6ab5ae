"""Reading Triton's IR text: input splitting, location-alias hoisting, op positions.

Triton (like MLIR) prints ``#locN = loc(...)`` alias lines *after* the module that
uses them; xDSL resolves aliases in one pass, so they must come first. We move every
location-alias line to the front of the first line and blank the original (same
length), which keeps every other character at its offset: diagnostics point at the
user's text, not ours. ``OffsetMap`` undoes the move for the hoisted characters.

``TritonParser`` is xDSL's parser plus what a compiler driver needs: the source offset
of every parsed op (MLIR reports an op at its name), clear messages for unknown ops,
and memoised type parsing (types in Triton text repeat a lot, and an xDSL type is
rebuilt and re-verified at every occurrence otherwise).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnregisteredOp
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, VerifyException

SPLIT_MARKER = re.compile(r"^// -----.*$", re.MULTILINE)
_LOC_ALIAS_LINE = re.compile(r"^[ \t]*#loc[\w.$-]*[ \t]*=[ \t]*loc\(.*\)[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class InputChunk:
    """One ``// -----``-separated piece of an input file; ``offset`` is where it starts."""

    offset: int
    text: str


def split_input(text: str, split: bool) -> list[InputChunk]:
    """The chunks of ``text``: one per ``// -----`` section when ``split``, else one."""
    if not split:
        return [InputChunk(0, text)]
    chunks: list[InputChunk] = []
    start = 0
    for marker in SPLIT_MARKER.finditer(text):
        chunks.append(InputChunk(start, text[start : marker.start()]))
        start = marker.end()
    chunks.append(InputChunk(start, text[start:]))
    return chunks


@dataclass(frozen=True)
class OffsetMap:
    """Maps offsets in hoisted text back to the text the user wrote.

    The hoisted text is ``prefix + original-with-loc-lines-blanked``; ``segments`` are
    ``(start in prefix, end in prefix, original offset)`` of each moved line.
    """

    prefix_length: int
    segments: tuple[tuple[int, int, int], ...]

    def to_original(self, offset: int) -> int:
        if offset >= self.prefix_length:
            return offset - self.prefix_length
        for start, end, original in self.segments:
            if start <= offset < end:
                return original + (offset - start)
        return 0


def hoist_location_aliases(text: str) -> tuple[str, OffsetMap]:
    """Move every ``#locN = loc(...)`` line to the front, keeping their order."""
    matches = list(_LOC_ALIAS_LINE.finditer(text))
    if not matches:
        return text, OffsetMap(0, ())
    parts: list[str] = []
    segments: list[tuple[int, int, int]] = []
    blanked = list(text)
    pos = 0
    for m in matches:
        line = m.group(0)
        segments.append((pos, pos + len(line), m.start()))
        parts.append(line)
        pos += len(line) + 1
        blanked[m.start() : m.end()] = " " * len(line)
    prefix = " ".join(parts) + " "
    return prefix + "".join(blanked), OffsetMap(len(prefix), tuple(segments))


class SourceError(Exception):
    """Bad input at ``offset`` of the parsed text (a parse or verification error)."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message


class TritonParser(Parser):
    """xDSL's parser, recording each op's source offset and memoising types by text."""

    def __init__(self, ctx: Context, text: str, name: str = "<unknown>") -> None:
        super().__init__(ctx, text, name)
        self.op_offsets: dict[Operation, int] = {}
        self._name_offsets: list[int] = []
        self._type_cache: dict[str, Attribute] = {}

    def _parse_op_result_list(self):  # noqa: ANN202 - xDSL's private signature
        results = super()._parse_op_result_list()
        self._name_offsets.append(self.pos)  # the op name follows the results
        return results

    def parse_operation(self) -> Operation:
        op = super().parse_operation()
        self.op_offsets[op] = self._name_offsets.pop()
        return op

    def _get_op_by_name(self, name: str) -> type[Operation]:
        at = self._name_offsets[-1]
        generic = self.lexer.input.content.startswith('"', at)
        op_type = self.ctx.get_optional_op(name, dialect_stack=self._parser_state.dialect_stack)
        if op_type is not None and (generic or not issubclass(op_type, UnregisteredOp)):
            return op_type
        dialect = name.split(".", 1)[0]
        if op_type is not None:  # unregistered op allowed, but only in generic form
            self.raise_error(
                f"unknown operation '{name}': an unregistered op must be written in generic "
                f'form ("{name}"(...) : (...) -> (...))',
                at,
            )
        if dialect in self.ctx.registered_dialect_names:
            self.raise_error(f"unknown operation '{name}' in dialect '{dialect}'", at)
        self.raise_error(
            f"unknown operation '{name}' (dialect '{dialect}' is not registered; "
            "--allow-unregistered-dialect accepts it in generic form)",
            at,
        )


@dataclass(frozen=True)
class ParsedModule:
    """A parsed chunk: the module and the offset (in the chunk's own text) of each op."""

    module: ModuleOp
    op_offsets: dict[Operation, int]


def parse_module_text(ctx: Context, text: str, name: str = "<unknown>") -> ParsedModule:
    """Parse Triton IR text (location aliases anywhere) into a module.

    Raises ``SourceError`` with an offset into ``text`` for any malformed input.
    """
    hoisted, offsets = hoist_location_aliases(text)
    parser = TritonParser(ctx, hoisted, name)
    try:
        module = parser.parse_module()
    except ParseError as e:
        raise SourceError(offsets.to_original(e.span.start), e.msg) from None
    except VerifyException as e:  # an attribute or type rejected its parameters
        raise SourceError(offsets.to_original(parser.pos), str(e)) from None
    except (ValueError, TypeError, KeyError, IndexError, AssertionError) as e:
        # xDSL and dialect parse hooks raise these for some malformed input (an integer
        # out of range, a missing key); report them at the token being parsed.
        raise SourceError(offsets.to_original(parser.pos), str(e) or type(e).__name__) from None
    op_offsets = {op: offsets.to_original(pos) for op, pos in parser.op_offsets.items()}
    return ParsedModule(module, op_offsets)
