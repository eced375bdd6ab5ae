"""The reader's speed-ups change nothing but speed.

``TritonParser`` memoises types, attributes and locations by their source text, lexes
with ``FastMLIRLexer``, short-cuts a few token primitives and Triton's location aliases,
parses ops with a declarative format through ``fast_parse`` (memoised constraint checks,
direct op construction, memoised derived types), and builds an op line seen before with
other SSA names from its template (``op_templates``). Each is checked against
plain xDSL: the same tokens as ``MLIRLexer``; the same IR as ``xdsl.parser.Parser``
(printed in generic form with locations, and structurally equal) on every example
kernel, a generated module and the bad-input corpus; the same error, at the same
offset, where the error lies inside a memoised type.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.parser.generic_parser import ParserState
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from ltc.dialects.context import triton_context
from ltc.dialects.fast_lexer import FastMLIRLexer
from ltc.dialects.reader import (
    _ATTRIBUTE_TEXT,
    _TYPE_TEXT,
    SourceError,
    TritonParser,
    hoist_location_aliases,
    parse_module_text,
)
from ltc.dialects.text_spans import location_span_end, symbol_span_end
from tests.generated_ir import generate_ttgir

ROOT = Path(__file__).parent.parent
EXAMPLES = sorted((ROOT / "examples" / "triton").glob("*.tt*ir"))
BAD_INPUTS = sorted((Path(__file__).parent / "bad_inputs").glob("*.*"))


def _is_text(path: Path) -> bool:
    try:
        path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return False
    return True


_LAYOUT = "#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n"
_HEAD = _LAYOUT + 'module attributes {"ttg.num-warps" = 4 : i32} {\n  tt.func @f(%p: !tt.ptr<f32>, %n: i32) {\n'
_TAIL = "    tt.return\n  }\n}\n"


def _good(name: str) -> str:
    return f"    %{name} = tt.splat %n : i32 -> tensor<128xi32, #blocked>\n"


class _UnmemoisedTritonParser(TritonParser):
    """``TritonParser`` with every speed-up undone: xDSL's lexer and parse methods."""

    def __init__(self, ctx: Context, text: str, name: str = "<unknown>") -> None:
        super().__init__(ctx, text, name)
        self._parser_state = ParserState(MLIRLexer(Input(text, name)))
        self.derived_types = None

    parse_optional_type = Parser.parse_optional_type
    parse_optional_attribute = Parser.parse_optional_attribute
    parse_optional_location = Parser.parse_optional_location
    _consume_token = Parser._consume_token
    _parse_optional_token = Parser._parse_optional_token
    parse_optional_punctuation = Parser.parse_optional_punctuation
    parse_punctuation = Parser.parse_punctuation
    parse_optional_characters = Parser.parse_optional_characters
    parse_type = Parser.parse_type
    parse_attribute = Parser.parse_attribute
    parse_optional_unresolved_operand = Parser.parse_optional_unresolved_operand
    parse_unresolved_operand = Parser.parse_unresolved_operand
    _parse_op_result_list = Parser._parse_op_result_list
    parse_operation = TritonParser._parse_operation  # no op-line templates
    _parse_alias_def = Parser._parse_alias_def

    def _get_op_by_name(self, name: str) -> type[Operation]:
        self._registered_ops.clear()
        return super()._get_op_by_name(name)

    def _parse_custom_operation(self, op_type: type[Operation]) -> Operation:
        return op_type.parse(self)  # xDSL's FormatProgram.parse, not fast_parse


def _tokens(lexer_class: type[MLIRLexer], text: str) -> list[tuple]:
    """Every token (kind, span, span class) and every lexer error (offset, message)."""
    lexer = lexer_class(Input(text, "t"))
    out: list[tuple] = []
    while True:
        try:
            token = lexer.lex()
        except ParseError as e:
            out.append(("error", e.span.start, e.span.end, e.msg))
            lexer.pos = e.span.start + 1
            continue
        out.append((token.kind, token.span.start, token.span.end, type(token.span).__name__))
        if token.kind is MLIRTokenKind.EOF:
            return out


def _generic_text(module) -> str:  # noqa: ANN001
    out = io.StringIO()
    Printer(stream=out, print_generic_format=True, print_debuginfo=True).print_op(module)
    return out.getvalue()


def _outcome(parser_class: type[Parser], text: str) -> tuple:
    """("ok", generic text with locations) or ("error", offset, message)."""
    parser = parser_class(triton_context(), text)
    try:
        return ("ok", _generic_text(parser.parse_module()))
    except ParseError as e:
        return ("error", e.span.start, e.msg)
    except VerifyException as e:
        return ("error", parser.pos, str(e))


class Test_fast_lexer:
    @pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
    def test_examples(self, path: Path) -> None:
        text = path.read_text()
        assert _tokens(FastMLIRLexer, text) == _tokens(MLIRLexer, text)

    def test_generated_module(self) -> None:
        text = generate_ttgir(300)
        assert _tokens(FastMLIRLexer, text) == _tokens(MLIRLexer, text)

    def test_random_texts(self) -> None:
        # Fragments that stress the token boundaries: comments next to '/', '{-#',
        # '#-}', '->', '...', hex and float literals, strings, non-ASCII letters/digits.
        pieces = list("abx019_$.-#!%^@\"\\/{}()[]<>:=,+*?| \n\t") + [
            "//", "->", "{-#", "#-}", "0x", "0xfg", "1.5e+3", "...", "..", "é", "²", '"s"', "i32",
        ]  # fmt: skip
        rng = random.Random(1234)
        for _ in range(3000):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 10)))
            assert _tokens(FastMLIRLexer, text) == _tokens(MLIRLexer, text), repr(text)

    def test_comment_before_unlexable_text_is_skipped_whole(self) -> None:
        # A failed match must not back off into the comment and lex its '/'.
        text = '// note\n"str"'
        assert _tokens(FastMLIRLexer, text)[0][:3] == (MLIRTokenKind.STRING_LIT, 8, 13)


class Test_text_spans:
    @pytest.mark.parametrize(
        ("text", "end"),
        [
            ("i32 loc(#loc1)", 3),
            ("f16, %x", 3),
            ("tensor<1024x!tt.ptr<f32>, #blocked> loc(#loc)", 35),
            ("!tt.ptr<f32>)", 12),
            ("#ttg.slice<{dim = 1, parent = #blocked}>>", 40),
            ("!ttg.async.token\n", 16),
            ("!tt.ptr <f32>", None),  # the body may follow after white space
            ('!foo.bar<"a>b">', None),  # strings are not scanned
            ("tensor<4xf32", None),  # unterminated
            ("%x", None),
            ("!llvm.func<void (i32) -> i32>", 29),  # '->' is no closing bracket
        ],
    )
    def test_type_spans(self, text: str, end: int | None) -> None:
        assert symbol_span_end(text, 0) == end

    def test_attribute_stop_chars(self) -> None:
        assert symbol_span_end("true}", 0, stop_chars="<:(") == 4
        assert symbol_span_end("dense<1> : tensor<2xi32>", 0, stop_chars="<:(") is None
        assert symbol_span_end("loc(#loc)", 0, stop_chars="<:(") is None

    @pytest.mark.parametrize(
        ("text", "end"),
        [
            ("loc(#loc1)\n", 10),
            ('loc("x_ptr"(#loc)) ', 18),
            ('loc(callsite(#loc1 at #loc31)))', 30),
            ('loc("a(b"(#loc))', 16),  # parentheses inside strings do not count
            ('loc("a\\"(b"(#loc))', 18),
            ("loc (#loc1)", None),
            ("loc(#loc1", None),
        ],
    )
    def test_location_spans(self, text: str, end: int | None) -> None:
        assert location_span_end(text, 0) == end


class Test_same_ir_as_xdsl:
    @pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
    def test_examples(self, path: Path) -> None:
        hoisted, _ = hoist_location_aliases(path.read_text())
        ours = _outcome(TritonParser, hoisted)
        assert ours[0] == "ok"
        assert ours == _outcome(Parser, hoisted)
        assert ours == _outcome(_UnmemoisedTritonParser, hoisted)

    def test_generated_module(self) -> None:
        hoisted, _ = hoist_location_aliases(generate_ttgir(500))
        ctx = triton_context()
        ours = TritonParser(ctx, hoisted).parse_module()
        plain = Parser(ctx, hoisted).parse_module()
        assert ours.is_structurally_equivalent(plain)
        assert _generic_text(ours) == _generic_text(plain)

    @pytest.mark.parametrize("path", [p for p in BAD_INPUTS if _is_text(p)], ids=lambda p: p.name)
    def test_bad_inputs(self, path: Path) -> None:
        # Against TritonParser without its speed-ups: it words some errors its own way.
        hoisted, _ = hoist_location_aliases(path.read_text())
        assert _outcome(TritonParser, hoisted) == _outcome(_UnmemoisedTritonParser, hoisted)

    @pytest.mark.parametrize(
        "line",
        [
            "%b = tt.splat %p : !tt.ptr <f32> -> tensor<128x!tt.ptr<f32>, #blocked>",
            "%b = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr <f32>, #blocked>",
            "%b = tt.splat %n : i32 -> tensor<128xi32,#blocked>",
            "%b = tt.splat %n : i32 -> tensor<128xi32, // comment\n #blocked>",
            "%b = tt.splat %n : i32 -> tensor <128xi32, #blocked>\n    %c = tt.splat %n : i32 -> tensor <64xi32, #blocked>",
            "%b = tt.splat %n : i32 -> tensor<128xi32, #blocked> loc (#loc1)",
            '%b = tt.splat %n : i32 -> tensor<128xi32, #blocked> loc("a(b"(#loc1))',
            "%b = tt.splat %n : i32 -> tensor<128xi32, #ttg.blocked<{sizePerThread = [1], "
            "threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>",
            "%b = tt.splat %n : i32.x -> tensor<128xi32, #blocked>",
        ],
    )
    def test_spelling_variants(self, line: str) -> None:
        # Each follows a memoised spelling of the same type or location.
        first = "    %a = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked> loc(#loc1)\n"
        again = "    %z = tt.splat %n : i32 -> tensor<128xi32, #blocked> loc(#loc1)\n"
        text = "#loc1 = loc(unknown)\n" + _HEAD + first + again + "    " + line + "\n" + _TAIL
        assert _outcome(TritonParser, text) == _outcome(_UnmemoisedTritonParser, text)

    def test_types_are_shared_between_ops(self) -> None:
        # The memo is in use: equal type texts give the very same object.
        text = generate_ttgir(60)
        ops = [op for op in parse_module_text(triton_context(), text).module.walk() if op.name == "tt.splat"]
        tensor_types = {id(op.results[0].type) for op in ops if "!tt.ptr" not in str(op.results[0].type)}
        assert len(ops) > 3 and len(tensor_types) == 1


class Test_errors_inside_memoised_text:
    """Where a type's text fails, the error is xDSL's, at xDSL's offset, whether or
    not an equal or similar text was memoised before."""

    def _check(self, body: str, at: str, message: str) -> None:
        text = _HEAD + body + _TAIL
        with pytest.raises(SourceError) as info:
            parse_module_text(triton_context(), text)
        assert (info.value.offset, info.value.message) == (text.index(at), message)
        raw = _outcome(TritonParser, text)  # before parse_module_text's own positioning
        assert raw[0] == "error" and raw == _outcome(Parser, text)

    def test_undefined_alias_after_memoised_type(self) -> None:
        bad = "    %c = tt.splat %n : i32 -> tensor<128xi32, #blocked9>\n"
        self._check(_good("a") + _good("b") + bad, "#blocked9", "undefined symbol alias '#blocked9'")

    def test_undefined_alias_before_memoised_type(self) -> None:
        bad = "    %b = tt.splat %n : i32 -> tensor<128xi32, #blocked9>\n"
        self._check(bad + _good("a"), "#blocked9", "undefined symbol alias '#blocked9'")

    def test_same_bad_text_twice(self) -> None:
        # A failed parse memoises nothing: the first occurrence is reported.
        bad = "    %{} = tt.splat %n : i32 -> tensor<128xi32, #blocked7>\n"
        self._check(_good("a") + bad.format("b") + bad.format("c"), "#blocked7", "undefined symbol alias '#blocked7'")

    def test_bad_element_type_inside_memoised_shape(self) -> None:
        bad = "    %b = tt.splat %n : i32 -> tensor<128xj32, #blocked>\n"
        text = _HEAD + _good("a") + bad + _TAIL
        with pytest.raises(SourceError) as info:
            parse_module_text(triton_context(), text)
        assert (info.value.offset, info.value.message) == (text.index("j32"), "expected shape type.")
        raw = _outcome(TritonParser, text)
        assert raw[0] == "error" and raw == _outcome(Parser, text)

    def test_offsets_map_back_past_hoisted_location_aliases(self) -> None:
        bad = "    %c = tt.splat %n : i32 -> tensor<128xi32, #blocked9> loc(#loc1)\n"
        good = (_good("a") + _good("b")).replace("\n", " loc(#loc1)\n")
        text = _HEAD + good + bad + _TAIL + "#loc1 = loc(unknown)\n"
        with pytest.raises(SourceError) as info:
            parse_module_text(triton_context(), text)
        assert (info.value.offset, info.value.message) == (text.index("#blocked9"), "undefined symbol alias '#blocked9'")

    @pytest.mark.parametrize(
        ("text", "offset", "message"),
        [
            ("$ module {}", 0, "Unexpected character: $"),
            ('  "abc', 2, "End of file reached before closing string literal."),
        ],
    )
    def test_bad_first_token(self, text: str, offset: int, message: str) -> None:
        # The parser lexes the first token as it is built: that error is a SourceError too.
        with pytest.raises(SourceError) as info:
            parse_module_text(triton_context(), text)
        assert (info.value.offset, info.value.message) == (offset, message)


class Test_symbol_regexes:
    """``_TYPE_TEXT`` / ``_ATTRIBUTE_TEXT`` end where ``symbol_span_end`` does, or do not match."""

    _CASES = (("type", _TYPE_TEXT, "<"), ("attribute", _ATTRIBUTE_TEXT, "<:("))

    @pytest.mark.parametrize(("what", "regex", "stop"), _CASES, ids=[c[0] for c in _CASES])
    def test_random_texts(self, what: str, regex: re.Pattern[str], stop: str) -> None:
        pieces = list('ab!#_$.-09<>"(): ,\n') + ["->", "tensor", "!tt.ptr", "#blocked", " <", "x", "i32", "{", "}"]
        rng = random.Random(99)
        matched = 0
        for _ in range(20000):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 14)))
            m = regex.match(text)
            if m is not None:
                matched += 1
                assert m.end() == symbol_span_end(text, 0, stop_chars=stop), repr(text)
        assert matched > 1000

    @pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
    def test_examples(self, path: Path) -> None:
        # Every type/attribute the examples write is taken by the regex, at the scan's end.
        text = path.read_text()
        scanned = regexed = 0
        for m in re.finditer(r"[!#]?[a-zA-Z_][\w$.]*<", text):
            end = symbol_span_end(text, m.start())
            if end is None:
                continue
            scanned += 1
            found = _TYPE_TEXT.match(text, m.start())
            if found is not None:
                regexed += 1
                assert found.end() == end
        assert scanned > 0 and regexed == scanned


class Test_fast_parse:
    """Ops with a declarative format (memoised constraint checks, direct construction)
    and derived types: the IR and the errors of xDSL's ``FormatProgram.parse``."""

    @pytest.mark.parametrize(
        "line",
        [
            "%b = arith.addf %n, %n : i32",  # addf's operand constraint, checked at parse time
            "%b = arith.addi %n, %n : f32",  # a use of %n with another type
            "%b = arith.addi %n, %n : i32\n    %c = arith.addi %b, %b : i64",
            "%b = arith.addi %n : i32",
            "%b = tt.addptr %p, %n : !tt.ptr<f32>, i64",
            "%b = arith.extf %n : i32 to f32",
            "%b = arith.truncf %x fastmath<fast> : f32 to f16",
            "%b = arith.addi %n, %n {foo = 1 : i32} : i32",
            "%b = arith.addi %n, %n overflow<nsw> : i32",
            "%b = tt.load %p, %n : !tt.ptr<f32>",
        ],
    )
    def test_same_outcome_after_memoised_ops(self, line: str) -> None:
        # Each follows ops that memoised the same op kinds with other types.
        before = (
            "    %x = arith.constant 1.0 : f32\n"
            "    %y = arith.addf %x, %x : f32\n"
            "    %z = arith.addi %n, %n : i32\n"
            "    %q = tt.addptr %p, %n : !tt.ptr<f32>, i32\n"
            "    %h = arith.truncf %x : f32 to f16\n"
            "    %v = tt.load %q : !tt.ptr<f32>\n"
        )
        text = _HEAD + before + "    " + line + "\n" + _TAIL
        assert _outcome(TritonParser, text) == _outcome(_UnmemoisedTritonParser, text)

    def test_memo_is_used(self) -> None:
        # One constraint check per (op, types): the generated module repeats a few shapes.
        parser = TritonParser(triton_context(), hoist_location_aliases(generate_ttgir(300))[0])
        parser.parse_module()
        assert 0 < len(parser._format_memo) <= 20

    def test_derived_types_are_shared(self) -> None:
        text = generate_ttgir(60)
        ops = [op for op in parse_module_text(triton_context(), text).module.walk() if op.name == "tt.load"]
        assert len(ops) > 3 and len({id(op.results[0].type) for op in ops}) == 1


class Test_op_templates:
    """An op line whose template (the line without its SSA names and location) was
    parsed before is built from that parse, or parsed again where its names or its
    location differ in what they bind: the outcome is the unmemoised parser's."""

    _BEFORE = (
        "    %a = arith.addi %n, %n : i32 loc(#loc1)\n"
        "    %s = tt.splat %n : i32 -> tensor<128xi32, #blocked> loc(#loc1)\n"
        "    %w = arith.extsi %n : i32 to i64\n"
    )

    @pytest.mark.parametrize(
        "lines",
        [
            "%b = arith.addi %a, %a : i32 loc(#loc1)",  # a hit
            "%b = arith.addi %w, %w : i32 loc(#loc1)",  # operand of another type
            "%b = arith.addi %later, %later : i32 loc(#loc1)\n    %later = arith.addi %n, %n : i32",
            "%a = arith.addi %n, %n : i32 loc(#loc1)",  # the result name again
            "%b = arith.addi %n, %n : i32 loc(#loc9)",  # an undefined location alias
            "%b = arith.addi %n, %n : i32 loc(#blocked)",  # an alias that is no location
            "%b = arith.addi %n, %n : i32 loc(#loc1) %junk",  # more on the line
            "%b = arith.addi %n, %n : i32",  # no location
            "%b = arith.addi %n,%n : i32 loc(#loc1)",  # another spelling: another template
            "%b = arith.addi %undefined, %n : i32 loc(#loc1)",
            "%t = tt.splat %a : i32 -> tensor<128xi32, #blocked> loc(#loc1)\n    %u = tt.splat %w : i64 -> tensor<128xi32, #blocked>",
            "%t:2 = arith.addi %n, %n : i32 loc(#loc1)",
        ],
    )
    def test_same_outcome_as_unmemoised(self, lines: str) -> None:
        text = "#loc1 = loc(unknown)\n" + _HEAD + self._BEFORE + "    " + lines + "\n" + _TAIL
        assert _outcome(TritonParser, text) == _outcome(_UnmemoisedTritonParser, text)

    def test_templates_are_used(self) -> None:
        # The generated module writes a few dozen op lines thousands of times.
        parser = TritonParser(triton_context(), hoist_location_aliases(generate_ttgir(300))[0])
        module = parser.parse_module()
        n_ops = sum(1 for _ in module.walk())
        assert 0 < len(parser._templates) < n_ops // 10


class Test_location_alias_short_cut:
    """Triton's location alias definitions are built without the attribute parser:
    the same attributes, and the parser's own errors where the short cut declines."""

    @pytest.mark.parametrize(
        "aliases",
        [
            '#loc1 = loc("f.py":3:4)\n#loc2 = loc("x_ptr"(#loc1))\n#loc3 = loc(callsite(#loc2 at #loc1))\n'
            '#loc4 = loc("name")\n#loc5 = loc(unknown)',
            '#loc1 = loc("a\\"b.py":1:2)',  # an escape: the attribute parser reads it
            '#loc1 = loc("x"(#loc9))',  # an undefined alias
            "#loc1 = loc(unknown)\n#loc1 = loc(unknown)",  # defined twice
            '#loc1 = loc(callsite(#loc2 at #blocked))\n#loc2 = loc(unknown)',
            '#loc1 = loc("x"(#blocked))',  # an alias that is no location
            '#loc1 = loc("f.py":3:4) junk',
            "#loc1 = loc(fused[#loc2])",  # a form the short cut leaves to the parser
            '#loc1 = loc("a\x0bb":1:2)',  # a character the lexer refuses in a string
        ],
    )
    def test_same_outcome_as_xdsl(self, aliases: str) -> None:
        uses = "    %a = arith.addi %n, %n : i32 loc(#loc1)\n"
        text = aliases + "\n" + _HEAD + uses + _TAIL
        ours = _outcome(TritonParser, text)
        assert ours == _outcome(_UnmemoisedTritonParser, text)
        if ours[0] == "ok":  # (TritonParser words some errors its own way)
            assert ours == _outcome(Parser, text)
