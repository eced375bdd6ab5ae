"""Reading Triton's IR text: input splitting, location-alias hoisting, op positions.

Triton (like MLIR) prints ``#locN = loc(...)`` alias lines *after* the module that
uses them; xDSL resolves aliases in one pass, so they must come first. We move every
location-alias line to the front of the first line and blank the original (same
length), which keeps every other character at its offset: diagnostics point at the
user's text, not ours. ``OffsetMap`` undoes the move for the hoisted characters.

``TritonParser`` is xDSL's parser plus what a compiler driver needs: the source offset
of every parsed op (MLIR reports an op at its name), clear messages for unknown ops,
and speed: types, attributes and locations memoised by their text (they repeat a lot
in Triton text, and xDSL rebuilds and re-verifies each occurrence otherwise), a faster
lexer (``fast_lexer``), and no cyclic GC while parsing. About 2.5x xDSL's own parser
on TTGIR (``benchmarks/bench_parse.py``); ``tests/test_reader_speedups.py`` checks the
IR and the errors are xDSL's.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from xdsl.context import Context
from xdsl.dialects.builtin import LocationAttr, ModuleOp, UnregisteredOp
from xdsl.ir import Attribute, Operation, TypeAttribute
from xdsl.parser import Parser
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.lexer import Input
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.mlir_lexer import (
    KIND_BY_PUNCTUATION_SPELLING,
    MLIRLexer,
    MLIRToken,
    MLIRTokenKind,
    PunctuationSpelling,
)

from ltc.dialects.fast_lexer import FastMLIRLexer
from ltc.dialects.text_spans import location_span_end, symbol_span_end

SPLIT_MARKER = re.compile(r"^// -----.*$", re.MULTILINE)
_LOC_ALIAS_LINE = re.compile(r"^[ \t]*#loc[\w.$-]*[ \t]*=[ \t]*loc\(.*\)[ \t]*$", re.MULTILINE)

_T = TypeVar("_T")
_skip_space = MLIRLexer._whitespace_regex.match  # white space and comments, as the lexer skips them
_SYMBOL_TOKENS = (MLIRTokenKind.BARE_IDENT, MLIRTokenKind.EXCLAMATION_IDENT)
_TYPE_STOP = "<"  # ``!tt.ptr <f32>``: the body may follow after a space
_ATTRIBUTE_STOP = "<:("  # ``5 : i32``-like suffixes, ``loc (...)``


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
    """xDSL's parser, recording each op's source offset and memoising by source text.

    Types, attributes and locations repeat a lot in Triton text (every value is a
    ``tensor<1024xf32, #blocked>``, every op has a ``loc(#locN)``), and xDSL rebuilds
    and re-verifies each occurrence. The parser keeps what it parsed at each such text
    (``text_spans`` finds the text before parsing) and reuses it. The cache is per
    parser: what ``#blocked`` means is the input's own business. A text is memoised only
    after a parse that consumed exactly it, so a hit is the same parse; a parse that
    fails memoises nothing, so errors are reported as xDSL reports them.
    """

    def __init__(self, ctx: Context, text: str, name: str = "<unknown>") -> None:
        super().__init__(ctx, text, name)
        self._parser_state = ParserState(FastMLIRLexer(Input(text, name)))
        self.op_offsets: dict[Operation, int] = {}
        self._name_offsets: list[int] = []
        self._text = self.lexer.input.content
        self._type_cache: dict[str, Attribute] = {}
        self._attribute_cache: dict[str, Attribute] = {}
        self._location_cache: dict[str, LocationAttr] = {}
        self._registered_ops: dict[str, type[Operation]] = {}

    # ------------------------------------------------------------------ memoisation
    def _consumed_exactly(self, end: int) -> bool:
        """Whether the last parse stopped at ``end`` (the next token follows it)."""
        return self._parser_state.current_token.span.start == _skip_space(self._text, end).end()

    def _memoised(
        self,
        cache: dict[str, _T],
        end: int,
        parse: Callable[[], _T | None],
    ) -> _T | None:
        """``parse()`` at the current token, memoised by ``text[token start:end]``."""
        state = self._parser_state
        key = self._text[state.current_token.span.start : end]
        value = cache.get(key)
        if value is not None:
            lexer = state.lexer
            lexer.pos = end  # go on after the memoised text, as its first parse did
            state.current_token = lexer.lex()
            return value
        value = parse()
        if value is not None and self._consumed_exactly(end):
            cache[key] = value
        return value

    def parse_optional_type(self) -> TypeAttribute | None:
        token = self._parser_state.current_token
        if token.kind in _SYMBOL_TOKENS:
            end = symbol_span_end(self._text, token.span.start, stop_chars=_TYPE_STOP)
            if end is not None:
                return self._memoised(self._type_cache, end, super().parse_optional_type)
        return super().parse_optional_type()

    def parse_optional_attribute(self) -> Attribute | None:
        token = self._parser_state.current_token
        if token.kind in _SYMBOL_TOKENS or token.kind is MLIRTokenKind.HASH_IDENT:
            end = symbol_span_end(self._text, token.span.start, stop_chars=_ATTRIBUTE_STOP)
            if end is not None:
                return self._memoised(self._attribute_cache, end, super().parse_optional_attribute)
        return super().parse_optional_attribute()

    def parse_optional_location(self) -> LocationAttr | None:
        token = self._parser_state.current_token
        if token.kind is MLIRTokenKind.BARE_IDENT:
            end = location_span_end(self._text, token.span.start)
            if end is not None:
                return self._memoised(self._location_cache, end, super().parse_optional_location)
        return super().parse_optional_location()

    # ------------------------------------------------------------------ token primitives
    # xDSL's own, minus property lookups and the assertions that check ltc's code for
    # misuse (every call site passes a valid punctuation); same results, same errors.
    def _consume_token(self, expected_kind: MLIRTokenKind | None = None) -> MLIRToken:
        state = self._parser_state
        token = state.current_token
        assert expected_kind is None or token.kind is expected_kind, f"Unexpected token {token}"
        state.current_token = state.lexer.lex()
        return token

    def _parse_optional_token(self, expected_kind: MLIRTokenKind) -> MLIRToken | None:
        state = self._parser_state
        token = state.current_token
        if token.kind is not expected_kind:
            return None
        state.current_token = state.lexer.lex()
        return token

    def parse_optional_punctuation(self, punctuation: PunctuationSpelling) -> PunctuationSpelling | None:
        state = self._parser_state
        if state.current_token.kind is not KIND_BY_PUNCTUATION_SPELLING[punctuation]:
            return None
        state.current_token = state.lexer.lex()
        return punctuation

    def parse_punctuation(self, punctuation: PunctuationSpelling, context_msg: str = "") -> PunctuationSpelling:
        state = self._parser_state
        token = state.current_token
        if token.kind is not KIND_BY_PUNCTUATION_SPELLING[punctuation]:
            self.raise_error(f"Expected '{punctuation}'" + context_msg, token.span)
        state.current_token = state.lexer.lex()
        return punctuation

    def parse_optional_characters(self, text: str) -> str | None:
        state = self._parser_state
        span = state.current_token.span
        if self._text[span.start : span.end] != text:
            return None
        state.current_token = state.lexer.lex()
        return text

    # ------------------------------------------------------------------ op positions
    def _parse_op_result_list(self):  # noqa: ANN202 - xDSL's private signature
        results = super()._parse_op_result_list()
        self._name_offsets.append(self.pos)  # the op name follows the results
        return results

    def parse_operation(self) -> Operation:
        op = super().parse_operation()
        self.op_offsets[op] = self._name_offsets.pop()
        return op

    def _get_op_by_name(self, name: str) -> type[Operation]:
        # Registered ops by their full name: what the context answers never changes.
        if (op_type := self._registered_ops.get(name)) is not None:
            return op_type
        at = self._name_offsets[-1]
        generic = self._text.startswith('"', at)
        op_type = self.ctx.get_optional_op(name, dialect_stack=self._parser_state.dialect_stack)
        if op_type is not None and not issubclass(op_type, UnregisteredOp):
            if op_type.name == name:
                self._registered_ops[name] = op_type
            return op_type
        if op_type is not None and generic:
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


@contextmanager
def _gc_paused() -> Iterator[None]:
    """No cyclic garbage collection inside: parsing allocates many long-lived objects,
    and the collector would walk the growing IR again and again (about 15% of the time).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@dataclass(frozen=True)
class ParsedModule:
    """A parsed chunk: the module and the offset (in the chunk's own text) of each op."""

    module: ModuleOp
    op_offsets: dict[Operation, int]


# --------------------------------------------------------------------- error positions
# xDSL reports some errors where MLIR would not: "expected X" at the next token (often
# on the next line), undefined values at the end of the input. These helpers move them
# to where the user has to look; they run on the error path only.
_SPACE_AND_COMMENTS = re.compile(r"(?:\s|//[^\n]*)*")
_TOKEN_CHARS = re.compile(r"[\w.$-]")


def _comment_start(line: str) -> int | None:
    """Index of the ``//`` that starts a comment in ``line`` (not inside a string), or None."""
    in_string = False
    i = 0
    while i < len(line):
        c = line[i]
        if in_string:
            if c == "\\":
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif line.startswith("//", i):
            return i
        i += 1
    return None


def _previous_token_end(text: str, offset: int) -> int:
    """Where the last token before ``offset`` ends (white space and comments skipped); 0 if none."""
    line_start = text.rfind("\n", 0, offset) + 1
    end = offset
    while True:
        line = text[line_start:end]
        comment = _comment_start(line)
        code = (line if comment is None else line[:comment]).rstrip()
        if code:
            return line_start + len(code)
        if line_start == 0:
            return 0
        end = line_start - 1
        line_start = text.rfind("\n", 0, end) + 1


def _previous_token_start(text: str, offset: int) -> int:
    """Where the last token before ``offset`` starts (an identifier-like word, else one character)."""
    end = _previous_token_end(text, offset)
    start = end
    while start > 0 and _TOKEN_CHARS.match(text, start - 1):
        start -= 1
    if start > 0 and text[start - 1] in "%#!@^":
        start -= 1
    return start if start < end else max(end - 1, 0)


def _first_use(text: str, names: Iterable[str]) -> tuple[int, str] | None:
    """The earliest ``(offset, name)`` where one of the value ``names`` is used, outside comments."""
    best: tuple[int, str] | None = None
    for name in names:
        for m in re.finditer("%" + re.escape(name) + r"(?![\w$.-])", text):
            line_start = text.rfind("\n", 0, m.start()) + 1
            if _comment_start(text[line_start : m.start()]) is None:
                if best is None or m.start() < best[0]:
                    best = (m.start(), name)
                break
    return best


def _parse_error_position(text: str, offset: int, message: str, undefined: Iterable[str]) -> tuple[int, str]:
    """Where and how to report xDSL's ParseError ``message`` at ``offset`` of ``text``."""
    if message.startswith("values used but not defined"):
        use = _first_use(text, undefined)
        if use is not None:
            return use[0], f"use of undefined value '%{use[1]}'"
    alias = re.match(r"undefined symbol alias '(#[^']*)'", message)
    if alias and not text.startswith(alias[1], offset):  # ``loc(#locN)`` is reported at its ')'
        line_start = text.rfind("\n", 0, offset) + 1
        found = text.rfind(alias[1], line_start, offset)
        offset = found if found >= 0 else offset
    unknown = re.match(r"'([\w.$-]+)' is not registered", message)
    if unknown:  # reported after the name, at its ``<``: point at the ``!`` or ``#`` that starts it
        for sigil, what in (("!", "type"), ("#", "attribute")):
            found = text.rfind(sigil + unknown[1], 0, offset + 1)
            if found >= 0:
                return found, f"unknown {what} '{sigil}{unknown[1]}'"
    if message.strip() == "in block definition":  # a region's body ran into something else
        message = "expected an operation or '}'"
    if message == "Could not parse entire input!" and text.startswith("}", offset):
        return offset, "unbalanced '}': no region is open here"
    at_end = _SPACE_AND_COMMENTS.match(text, offset).end() == len(text)
    lowered = message.lower()
    expected = "expected" in lowered and "unexpected" not in lowered
    line_start = text.rfind("\n", 0, offset) + 1
    if at_end:
        return _previous_token_end(text, offset), f"unexpected end of input: {message}"
    if expected and not text[line_start:offset].strip():
        # Like MLIR: a missing token is reported after the last token, not on the next line.
        return _previous_token_end(text, offset), message
    return offset, message


def parse_module_text(ctx: Context, text: str, name: str = "<unknown>") -> ParsedModule:
    """Parse Triton IR text (location aliases anywhere) into a module.

    Raises ``SourceError`` with an offset into ``text`` for any malformed input.
    """
    hoisted, offsets = hoist_location_aliases(text)
    if _SPACE_AND_COMMENTS.match(hoisted).end() == len(hoisted):
        # Like Triton and mlir-opt: an empty input (or ``// -----`` chunk) is an empty module.
        return ParsedModule(ModuleOp([]), {})
    try:
        parser = TritonParser(ctx, hoisted, name)  # lexes the first token
    except ParseError as e:
        raise SourceError(offsets.to_original(e.span.start), e.msg) from None
    try:
        with _gc_paused():
            module = parser.parse_module()
    except ParseError as e:
        offset, message = _parse_error_position(hoisted, e.span.start, e.msg, parser.forward_ssa_references)
        raise SourceError(offsets.to_original(offset), message) from None
    except VerifyException as e:  # an attribute or type rejected its parameters
        # Raised once the attribute or type has been parsed: point at its last token.
        at = _previous_token_start(hoisted, parser.pos) if parser.pos > 0 else 0
        raise SourceError(offsets.to_original(at), str(e)) from None
    except (ValueError, TypeError, KeyError, IndexError, AssertionError) as e:
        # xDSL and dialect parse hooks raise these for some malformed input (an integer
        # out of range, a missing key); report them at the token being parsed.
        raise SourceError(offsets.to_original(parser.pos), str(e) or type(e).__name__) from None
    op_offsets = {op: offsets.to_original(pos) for op, pos in parser.op_offsets.items()}
    return ParsedModule(module, op_offsets)
