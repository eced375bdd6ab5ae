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
lexer (``fast_lexer``), ops with a declarative format parsed through ``fast_parse``
(constraint checks memoised, ops built directly), one-line ops seen before with other
SSA names built from their template (``op_templates``), short cuts for the common
tokens (``%x =``, operands, ``loc(#locN)``) and for Triton's location alias
definitions, and no cyclic GC while parsing. About 12x xDSL's own parser on a
generated TTGIR module (``benchmarks/bench_parse.py``);
``tests/test_reader_speedups.py`` checks the IR and the errors are xDSL's.
"""

from __future__ import annotations

import gc
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

from ltc.dialects.dense_literal import MAX_DENSE_ELEMENTS, integer_literal_problem, parse_dense_value, rounded_float
from ltc.dialects.fast_lexer import FastMLIRLexer
from ltc.dialects.fast_parse import compiled_format, parse_with_format
from ltc.dialects.op_templates import OpLine, OpRecord, build, read_line, record
from ltc.dialects.text_spans import location_span_end, symbol_span_end
from xdsl.context import Context
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import (
    AnyFloat,
    CallSiteLoc,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntAttr,
    IntegerType,
    LocationAttr,
    ModuleOp,
    NameLoc,
    NoneAttr,
    StringAttr,
    UnknownLoc,
    UnregisteredOp,
    f64,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue, TypeAttribute
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.parser.core import ForwardDeclaredValue
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import (
    KIND_BY_PUNCTUATION_SPELLING,
    MLIRLexer,
    MLIRToken,
    MLIRTokenKind,
    PunctuationSpelling,
)

SPLIT_MARKER = re.compile(r"^// -----.*$", re.MULTILINE)
_LOC_ALIAS_LINE = re.compile(r"^[ \t]*#loc[\w.$-]*[ \t]*=[ \t]*loc\(.*\)[ \t]*$", re.MULTILINE)

_LOC_ALIAS_USE = re.compile(r"loc\(#[\w.$-]+\)")  # ends where ``location_span_end`` does
# The location alias definitions Triton writes (a file position, a name, a call site,
# unknown), with plain strings (no escapes): ``_parse_alias_def``'s short cut.
_ALIAS_REF = r"#[a-zA-Z0-9$._-]+"
_LOC_ALIAS_DEF = re.compile(
    rf"({_ALIAS_REF})[ \t]*=[ \t]*loc\((?:"
    r'"([^"\\\n\v\f]*)"(?::([0-9]+):([0-9]+)|\((' + _ALIAS_REF + r')\))?'  # (what the lexer takes unescaped)
    rf"|callsite\(({_ALIAS_REF}) at ({_ALIAS_REF})\)"
    r"|(unknown))\)"
)
# ``symbol_span_end`` in one regex match for the common shapes: an identifier, then an
# angle-bracketed body nested at most four deep with no string in it. Atomic and
# possessive, so a body it cannot take (deeper, a string) fails the whole match (the
# ``<`` lookahead) rather than backing off to a shorter identifier; the scan then decides.
_BODY = r'(?:[^<>"\-]++|->?+)*+'  # ``->`` does not close a bracket
_NESTED = _BODY
for _ in range(4):
    _NESTED = rf"<{_BODY}(?:{_NESTED}{_BODY})*+>"
_SYMBOL = (
    r"(?>(?:[!#](?:[0-9]++|[a-zA-Z$._-][a-zA-Z0-9$._-]*+)|[a-zA-Z_][a-zA-Z0-9_$.]*+)"
    rf"(?:{_NESTED})?)"
)
_TYPE_TEXT = re.compile(_SYMBOL + r"(?![ \t\r\n]*<)")
_ATTRIBUTE_TEXT = re.compile(_SYMBOL + r"(?![ \t\r\n]*[<:(])")
_SIGN_PREFIX = re.compile(r"-?\s*")  # before a number literal
_ARRAY_COUNT = re.compile(r"<\s*(\d+)")  # ``!llvm.array<N x T>``'s count
_T = TypeVar("_T")
_A = TypeVar("_A", bound=Attribute)
_skip_space = MLIRLexer._whitespace_regex.match  # white space and comments, as the lexer skips them
_PERCENT = MLIRTokenKind.PERCENT_IDENT
_SYMBOL_TOKENS = (MLIRTokenKind.BARE_IDENT, MLIRTokenKind.EXCLAMATION_IDENT)
_RESOURCE_VALUE_TOKENS = (
    MLIRTokenKind.STRING_LIT,
    MLIRTokenKind.BYTES_LIT,
    MLIRTokenKind.BARE_IDENT,
    MLIRTokenKind.INTEGER_LIT,
    MLIRTokenKind.FLOAT_LIT,
)
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


def _kept_name(name: str) -> bool:
    """Whether ``%name`` keeps its name as the value's hint.

    Not ``%0`` (no valid name) nor ``%_4``: xDSL strips a ``_<digits>`` suffix, which
    leaves ``""``, a hint xDSL accepts here but refuses when an erased or replaced value
    inherits it (an internal error in any pass that erases the op).
    """
    return bool(SSAValue.is_valid_name(name)) and SSAValue.extract_valid_name(name) != ""


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
        # xDSL's own lexer would lex the first token (its string pattern can backtrack
        # for ever on an unclosed string): hand it nothing, then lex with ours
        super().__init__(ctx, "", name)
        self._parser_state = ParserState(FastMLIRLexer(Input(text, name)))
        self.op_offsets: dict[Operation, int] = {}
        self._name_offsets: list[int] = []
        self._text = self.lexer.input.content
        self._type_cache: dict[str, Attribute] = {}
        self._attribute_cache: dict[str, Attribute] = {}
        self._location_cache: dict[str, LocationAttr] = {}
        self._registered_ops: dict[str, type[Operation]] = {}
        self._format_memo: dict[tuple, object] = {}
        self._templates: dict[tuple[bool, str], OpRecord] = {}
        self._dialect_names: dict[type[Operation], str] = {}
        self.derived_types: dict[tuple, tuple[Attribute, Attribute]] = {}
        """``fast_parse.derived_type``'s memo: types that parse methods derive from parsed ones."""
        self.resources: dict[str, dict[str, str]] = {}
        """Dialect resources of the ``{-# dialect_resources ... #-}`` trailer: dialect -> key -> blob."""

    def _register_ssa_definition(self, name: str, values: Sequence[SSAValue], span: Span) -> None:
        super()._register_ssa_definition(name, values, span)
        if not _kept_name(name):
            for v in values:
                v.name_hint = None

    # ------------------------------------------------------------------ module and file metadata
    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """xDSL's top level, except that a file of alias definitions (and file metadata)
        only is an empty module, as in MLIR."""
        if not allow_implicit_module:
            return super().parse_module(allow_implicit_module)
        ops: list[Operation] = []
        state = self._parser_state
        while (kind := state.current_token.kind) is not MLIRTokenKind.EOF:
            if kind is MLIRTokenKind.HASH_IDENT or kind is MLIRTokenKind.EXCLAMATION_IDENT:
                self._parse_alias_def()
            elif kind is MLIRTokenKind.FILE_METADATA_BEGIN:
                self._parse_file_metadata_dictionary()
            elif (op := self.parse_optional_operation()) is not None:
                ops.append(op)
            else:
                self.raise_error("Could not parse entire input!")
        module = ops[0] if len(ops) == 1 and isinstance(ops[0], ModuleOp) else ModuleOp(ops)
        if self.forward_ssa_references:
            names = ", ".join("%" + name for name in self.forward_ssa_references)
            self.raise_error(f"values used but not defined: [{names}]")
        return module

    def _parse_dialect_resource_handle(self, dialect_name: str, interface: OpAsmDialectInterface) -> str:
        # xDSL declares the handle in the dialect's (process-wide) blob store, which
        # renames it (``blob_0``) when an earlier input used the same key. A handle
        # names the resource of this input's trailer; the blobs live in ``resources``.
        key = self.parse_identifier(" for resource handle")
        self.dialect_resources.add((dialect_name, key))
        return key

    def _parse_metadata_element(self) -> None:
        key = self._parse_token(MLIRTokenKind.BARE_IDENT, "expected identifier key in file metadata dictionary")
        self.parse_punctuation(":")
        if key.text == "dialect_resources":
            self._parse_dialect_resources()
        elif key.text == "external_resources":
            self._parse_external_resources()
        else:
            self.raise_error(f"unknown key '{key.text}' in file metadata dictionary", key.span)

    def _parse_resource(self, dialect_name: str, interface: OpAsmDialectInterface) -> None:
        key = self.parse_identifier(" for resource handle")
        self.parse_punctuation(":")
        pos = self.pos
        value = self.parse_optional_str_literal()
        if value is None or not value.startswith("0x"):
            self.raise_error(f"expected hex string blob for key '{key}'", pos)
        self.resources.setdefault(dialect_name, {})[key] = value

    def _parse_external_resources(self) -> None:
        # ``external_resources: {group: {key: value, ...}, ...}`` is configuration for
        # tools (``mlir_reproducer``: a pass pipeline), not IR; like mlir-opt without a
        # handler for the group, read it and ignore it (a value is one token).
        def entry() -> None:
            if self.parse_optional_identifier() is None:
                self.parse_str_literal(" or identifier for the resource key")
            self.parse_punctuation(":")
            if self._parser_state.current_token.kind not in _RESOURCE_VALUE_TOKENS:
                self.raise_error("expected a resource value (a string, a keyword or a number)")
            self._consume_token()

        def group() -> None:
            if self.parse_optional_identifier() is None:
                self.parse_str_literal(" or identifier for the resource group")
            self.parse_punctuation(":")
            self.parse_comma_separated_list(self.Delimiter.BRACES, entry)

        self.parse_comma_separated_list(self.Delimiter.BRACES, group)

    def _parse_alias_def(self) -> None:
        """xDSL's, with a short cut for the location aliases Triton writes
        (``_LOC_ALIAS_DEF``): the same attribute, built without the attribute parser."""
        state = self._parser_state
        token = state.current_token
        if token.kind is MLIRTokenKind.HASH_IDENT:
            m = _LOC_ALIAS_DEF.match(self._text, token.span.start)
            if m is not None and m.end(1) == token.span.end and m.group(1) not in self.attribute_aliases:
                loc = self._simple_location(m)
                if loc is not None:
                    self.attribute_aliases[m.group(1)] = loc
                    state.lexer.pos = m.end()
                    state.current_token = state.lexer.lex()
                    return
        super()._parse_alias_def()

    def _simple_location(self, m: re.Match[str]) -> LocationAttr | None:
        """The location an ``_LOC_ALIAS_DEF`` match spells, as xDSL's ``_parse_location``
        builds it; None where a referenced alias is not a location read before."""
        name, line, col, inner, callee, caller, unknown = m.group(2, 3, 4, 5, 6, 7, 8)
        if unknown is not None:
            return UnknownLoc()
        if name is not None:
            if line is not None:
                return FileLineColLoc(StringAttr(name), IntAttr(int(line)), IntAttr(int(col)))
            if inner is None:
                return NameLoc(StringAttr(name), NoneAttr())
            nested = self.attribute_aliases.get(inner)
            return NameLoc(StringAttr(name), nested) if isinstance(nested, LocationAttr) else None
        callee_loc = self.attribute_aliases.get(callee)
        caller_loc = self.attribute_aliases.get(caller)
        if isinstance(callee_loc, LocationAttr) and isinstance(caller_loc, LocationAttr):
            return CallSiteLoc(callee_loc, caller_loc)
        return None

    def _alias_location(self, text: str) -> LocationAttr | None:
        """The location ``loc(#alias)`` (``text``) names, or None where the alias is
        not a location read before."""
        loc = self.attribute_aliases.get(text[4:-1])
        return loc if isinstance(loc, LocationAttr) else None

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
            start = token.span.start
            m = _TYPE_TEXT.match(self._text, start)
            end = m.end() if m is not None else symbol_span_end(self._text, start, stop_chars=_TYPE_STOP)
            if end is not None:
                return self._memoised(self._type_cache, end, super().parse_optional_type)
        return super().parse_optional_type()

    def parse_optional_attribute(self) -> Attribute | None:
        token = self._parser_state.current_token
        if token.kind in _SYMBOL_TOKENS or token.kind is MLIRTokenKind.HASH_IDENT:
            start = token.span.start
            m = _ATTRIBUTE_TEXT.match(self._text, start)
            end = m.end() if m is not None else symbol_span_end(self._text, start, stop_chars=_ATTRIBUTE_STOP)
            if end is not None:
                return self._memoised(self._attribute_cache, end, super().parse_optional_attribute)
        return super().parse_optional_attribute()

    def parse_optional_builtin_int_or_float_attr(self) -> IntegerAttr | FloatAttr | None:
        """``7 : i32``, ``1.5 : f32``, ``0x3C00 : f16`` (a float's bit pattern), as MLIR reads them.

        MLIR refuses what xDSL lets through: a decimal integer for a float type, a hex
        pattern with a minus or wider than the float, a float for an integer type.
        """
        if (flag := self.try_parse_builtin_boolean_attr()) is not None:
            return flag
        lit = _SIGN_PREFIX.match(self._text, self._parser_state.current_token.span.start).end()  # type: ignore[union-attr]
        is_hex = self._text.startswith(("0x", "0X"), lit)
        value = self.parse_optional_number()
        if value is None:
            return None
        if self._parser_state.current_token.kind is not MLIRTokenKind.COLON:
            return FloatAttr(value, f64) if isinstance(value, float) else IntegerAttr(value, i64)
        type_ = self._parse_attribute_type()
        if isinstance(type_, AnyFloat):
            if is_hex:
                assert isinstance(value, int)
                if value < 0:
                    self.raise_error("hexadecimal float literal should not have a leading minus", lit)
                if value >> type_.bitwidth:
                    self.raise_error("hexadecimal float constant out of range for type", lit)
                return FloatAttr(next(type_.iter_unpack(value.to_bytes(type_.compile_time_size, "little"))), type_)
            if isinstance(value, int):
                self.raise_error("unexpected decimal integer literal for a floating point value", lit)
            return FloatAttr(rounded_float(value, type_), type_)
        if isinstance(type_, IntegerType | IndexType):
            if isinstance(value, float):
                self.raise_error("floating point value not valid for specified type")
            if (problem := integer_literal_problem(value, type_)) is not None:
                self.raise_error(problem, lit)
            return IntegerAttr(value, type_)
        return self.raise_error("Invalid type given for integer or float attribute.")

    def _parse_block(self) -> Block:
        # xDSL forgets where a forward-referenced block was defined, and a second
        # definition then fails with a KeyError: report it as MLIR does
        token = self._parser_state.current_token
        if token.kind is MLIRTokenKind.CARET_IDENT:
            name = token.text[1:]
            if name in self.blocks and name not in self.forward_block_references:
                self.raise_error(f"redefinition of block '^{name}'", token.span.start, token.span.end)
        return super()._parse_block()

    def _parse_builtin_dense_attr(self) -> DenseIntOrFPElementsAttr:
        # xDSL expands a splat to every element: refuse absurd sizes before it does
        m = _DENSE_SHAPE.match(self._text, self._parser_state.current_token.span.start)
        if m is not None:
            count = math.prod(int(d) for d in m.group(1).split("x") if d)
            if count > MAX_DENSE_ELEMENTS:
                self.raise_error(f"dense literal of {count} elements is too large: ltc stores at most {MAX_DENSE_ELEMENTS}")
        # read elements as MLIR does (arith.constant's reader): xDSL's took a float's hex bit
        # pattern for an integer value (dense<0x7C00> : tensor<4xf16> became 31744.0) and
        # raised OverflowError on a literal beyond the type's range (MLIR rounds to infinity)
        return parse_dense_value(self)

    def parse_optional_location(self) -> LocationAttr | None:
        state = self._parser_state
        token = state.current_token
        if token.kind is MLIRTokenKind.BARE_IDENT:
            start = token.span.start
            m = _LOC_ALIAS_USE.match(self._text, start)  # the common ``loc(#loc12)``
            if m is not None:
                loc = self._alias_location(self._text[start : m.end()])
                if loc is not None:  # (else xDSL's parse reports it)
                    state.lexer.pos = m.end()
                    state.current_token = state.lexer.lex()
                    return loc
            end = m.end() if m is not None else location_span_end(self._text, start)
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

    def _parse_dialect_type_or_attribute_body(
        self, attr_name: str, is_type: bool, is_opaque: bool, starting_opaque_pos: int | None
    ) -> Attribute:
        start = self._current_token.span.start
        # MLIR reads ``!llvm.array<N x T>``'s count as uint64_t; xDSL takes any integer
        if attr_name == "llvm.array" and (m := _ARRAY_COUNT.match(self._text, start)):
            if int(m[1]) >> 64:
                self.raise_error("integer value too large", m.start(1), m.end(1))
        if not is_type:
            return super()._parse_dialect_type_or_attribute_body(attr_name, is_type, is_opaque, starting_opaque_pos)
        try:
            return super()._parse_dialect_type_or_attribute_body(attr_name, is_type, is_opaque, starting_opaque_pos)
        except VerifyException as e:
            # MLIR checks a dialect type's parameters where they start (its '<')
            self.raise_error(str(e), start, start + 1)

    def parse_type(self) -> TypeAttribute:
        if (type_ := self.parse_optional_type()) is None:
            self.raise_error("type expected")
        return type_

    def parse_attribute(self) -> Attribute:
        if (attr := self.parse_optional_attribute()) is None:
            self.raise_error("attribute expected")
        return attr

    # ------------------------------------------------------------------ operands
    def parse_optional_unresolved_operand(self) -> UnresolvedOperand | None:
        state = self._parser_state
        token = state.current_token
        if token.kind is not _PERCENT:
            return None
        state.current_token = state.lexer.lex()
        if state.current_token.kind is MLIRTokenKind.HASH_IDENT:  # ``%x#1``: xDSL's checks
            state.current_token = token
            state.lexer.pos = token.span.end
            return super().parse_optional_unresolved_operand()
        return UnresolvedOperand(token.span, 0)

    def parse_unresolved_operand(self, msg: str = "operand expected") -> UnresolvedOperand:
        if (operand := self.parse_optional_unresolved_operand()) is None:
            self.raise_error(msg)
        return operand

    def resolve_operand(self, operand: UnresolvedOperand, type: _A) -> SSAValue[_A]:
        """xDSL's, with MLIR's message when a use's type differs from an earlier one."""
        span = operand.span
        name = self._text[span.start + 1 : span.end]  # ``operand_name``
        values = self.ssa_values.get(name)
        if values is None:  # not defined yet: a typed forward reference
            references = self.forward_ssa_references.setdefault(name, {})
            resolved = references.get(operand.index)
            if resolved is None:
                resolved = references[operand.index] = ForwardDeclaredValue(type)
                return resolved
        elif operand.index < len(values):
            resolved = values[operand.index]
        else:
            self.raise_error(
                "SSA value tuple index out of bounds. "
                f"Tuple is of size {len(values)} but tried to access element {operand.index}.",
                operand.span,
            )
        if resolved.type != type:
            self.raise_error(
                f"use of value '%{name}' expects different type than prior uses: "
                f"'{type}' vs '{resolved.type}'",
                operand.span,
            )
        return resolved  # type: ignore[return-value] - equal attributes have equal classes

    # ------------------------------------------------------------------ operations
    def parse_operation(self) -> Operation:
        """xDSL's ``parse_operation``, recording where the op's name is, and parsing
        ops with a declarative format through ``fast_parse`` and op lines seen before
        with other names through ``op_templates`` (same IR, same errors)."""
        state = self._parser_state
        op_loc = state.current_token.span
        line = read_line(self._text, op_loc.start)
        if line is not None:
            rec = self._templates.get(line.key)
            if rec is not None and (op := self._op_from_template(rec, line)) is not None:
                return op
        op = self._parse_operation()
        if line is not None and line.key not in self._templates and self._consumed_exactly(line.end):
            rec = record(op, line, self.ssa_values)
            if rec is not None:
                self._templates[line.key] = rec
        return op

    def _op_from_template(self, rec: OpRecord, line: OpLine) -> Operation | None:
        """``line``'s op built from its template's record (``op_templates.build``), its
        result bound and the parser moved past the line; None where the ordinary parse
        must read it (a name bound before, an alias not read yet, ...)."""
        location = None
        if line.location is not None:
            location = self._alias_location(line.location)
            if location is None:
                return None
        name = line.result
        if name is not None and (name in self.ssa_values or name in self.forward_ssa_references):
            return None
        op = build(rec, line, self.ssa_values, location)
        if op is None:
            return None
        if name is not None:
            result = op.results[0]
            self.ssa_values[name] = (result,)
            if _kept_name(name):
                result.name_hint = name
        self.op_offsets[op] = line.name_at
        state = self._parser_state
        state.lexer.pos = line.end
        state.current_token = state.lexer.lex()
        return op

    def _parse_operation(self) -> Operation:
        state = self._parser_state
        op_loc = state.current_token.span
        bound_results = self._parse_op_result_list()
        at = state.current_token.span.start  # the op name follows the results
        self._name_offsets.append(at)
        if (op_name := self._parse_optional_token(MLIRTokenKind.BARE_IDENT)) is not None:
            name = self._text[op_name.span.start : op_name.span.end]
            op_type = self._get_op_by_name(name)
            if (dialect := self._dialect_names.get(op_type)) is None:
                dialect = self._dialect_names[op_type] = op_type.dialect_name()
            dialect_stack = state.dialect_stack
            dialect_stack.append(dialect)
            op = self._parse_custom_operation(op_type)
            dialect_stack.pop()
            if (location := self.parse_optional_location()) is not None:
                op.location = location
        else:
            op_name = self.expect(self.parse_optional_str_literal, "operation name expected")
            op_type = self._get_op_by_name(op_name)
            state.dialect_stack.append(op_type.dialect_name())
            op = self._parse_generic_operation(op_type)
            state.dialect_stack.pop()
        self._name_offsets.pop()

        if bound_results:
            n_bound_results = sum(r[1] for r in bound_results)
            results = op.results
            if n_bound_results != 0 and len(results) != n_bound_results:
                self.raise_error(
                    f"Operation has {len(results)} results, but was given {n_bound_results} to bind.",
                    at_position=op_loc,
                )
            res_idx = 0
            if len(bound_results) == 1 and len(results) == 1:  # ``%x = ...``: xDSL's checks, inline
                res_span = bound_results[0][0]
                name = self._text[res_span.start + 1 : res_span.end]
                if name not in self.ssa_values and name not in self.forward_ssa_references:
                    self.ssa_values[name] = (results[0],)
                    if _kept_name(name):
                        results[0].name_hint = name
                    bound_results = []
            for res_span, res_size in bound_results:
                name = self._text[res_span.start + 1 : res_span.end]  # without the '%'
                self._register_ssa_definition(name, results[res_idx : res_idx + res_size], res_span)
                res_idx += res_size
        self.op_offsets[op] = at
        return op

    def _parse_op_result_list(self) -> list[tuple[Span, int]]:
        """xDSL's, with a short cut for the common ``%x =``."""
        state = self._parser_state
        token = state.current_token
        if token.kind is not _PERCENT:
            return []
        state.current_token = state.lexer.lex()
        if state.current_token.kind is MLIRTokenKind.EQUAL:
            state.current_token = state.lexer.lex()
            return [(token.span, 1)]
        state.current_token = token  # ``%x:2 =``, ``%a, %b =``: xDSL's, from ``%x``
        state.lexer.pos = token.span.end
        return super()._parse_op_result_list()

    def op_name_offset(self) -> int:
        """Where the name of the op being parsed starts (MLIR reports an op's attribute
        constraints there)."""
        return self._name_offsets[-1]

    def _parse_custom_operation(self, op_type: type[Operation]) -> Operation:
        """The op after its name, in its custom form."""
        fmt = compiled_format(op_type)
        if fmt is None:
            return op_type.parse(self)
        return parse_with_format(self, op_type, fmt, self._format_memo)  # type: ignore[arg-type]

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
                f"custom op '{name}' is unknown: an unregistered op must be written in generic "
                f'form ("{name}"(...) : (...) -> (...))',
                at,
            )
        if dialect in self.ctx.registered_dialect_names:
            self.raise_error(f"custom op '{name}' is unknown", at)  # MLIR's words
        self.raise_error(
            f"custom op '{name}' is unknown (dialect '{dialect}' is not registered; "
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
    """A parsed chunk: the module, the offset (in the chunk's own text) of each op, and
    the blobs of its ``{-# dialect_resources ... #-}`` trailer (dialect -> key -> hex)."""

    module: ModuleOp
    op_offsets: dict[Operation, int]
    resources: dict[str, dict[str, str]] = field(default_factory=dict)


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


def _mlir_wording(message: str) -> str:
    """xDSL's parse errors as MLIR words them ("Expected X" -> "expected X", a type of
    the wrong kind -> "invalid kind of type specified"), so that ``expected-error``
    annotations written for MLIR match."""
    if message.startswith("Expected ") and not message.startswith(_TRITON_CAPITALISED):
        return "e" + message[1:]
    if (m := _WRONG_KIND_OF_TYPE.fullmatch(message)) is not None:
        # an op's format names the kind of type: MLIR says so in these words
        return f"invalid kind of type specified: expected {m.group(2)}, got {m.group(1)}"
    return message


_DENSE_SHAPE = re.compile(r"<[^<>]*>\s*:\s*(?:tensor|vector)<((?:\d+x)+)")
"""``<literal> : tensor<AxBx...`` after ``dense``: the shape of a dense attribute."""
_TRITON_CAPITALISED = ("Expected basis of",)  # Triton's own attribute parsers' words, kept as they are
_WRONG_KIND_OF_TYPE = re.compile(r"(.+) should be of base attribute ([\w.]+)")


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
        raise SourceError(offsets.to_original(offset), _mlir_wording(message)) from None
    except VerifyException as e:  # an attribute or type rejected its parameters
        # Raised once the attribute or type has been parsed: point at its last token.
        at = _previous_token_start(hoisted, parser.pos) if parser.pos > 0 else 0
        raise SourceError(offsets.to_original(at), _mlir_wording(str(e))) from None
    except (ValueError, TypeError, KeyError, IndexError, AssertionError, OverflowError) as e:
        # xDSL and dialect parse hooks raise these for some malformed input (an integer
        # out of range, a missing key); report them at the token being parsed.
        raise SourceError(offsets.to_original(parser.pos), str(e) or type(e).__name__) from None
    op_offsets = {op: offsets.to_original(pos) for op, pos in parser.op_offsets.items()}
    return ParsedModule(module, op_offsets, parser.resources)
