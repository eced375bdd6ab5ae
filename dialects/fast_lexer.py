"""xDSL's MLIR lexer with a one-regex fast path.

``MLIRLexer.lex`` dispatches on the first character through several method calls and
regexes per token; parsing Triton text spends about a fifth of its time there. This
lexer matches white space, comments and the common tokens (identifiers, numbers,
punctuation) with one regex and builds the same ``Token`` (kind and span) xDSL would.
Everything else — string literals, end of input, non-ASCII identifiers and anything
malformed — goes to xDSL's own ``lex`` from the same position, so its tokens and its
error messages are unchanged. Tokens are built without the dataclass constructors
(same classes, same fields).
"""

from __future__ import annotations

import re
from functools import partial

from xdsl.utils.lexer import Input, Span, Token
from xdsl.utils.mlir_lexer import (
    KIND_BY_PUNCTUATION_SPELLING,
    MLIRLexer,
    MLIRToken,
    MLIRTokenKind,
)

_SUFFIX_ID = r"(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)"  # xDSL's suffix-id
_TOKEN = re.compile(
    # What MLIRLexer._consume_whitespace skips; atomic, or a failed match would back
    # off into a comment and read its '/' as a token.
    r"(?>(?://[^\n]*\n?|\s+)*)"
    r"(?:"
    r"(?P<p>->|\.\.\.|\{-\#|\#-\}|[-:,(){}\[\]<>=+/*?|])"
    r"|(?P<b>[a-zA-Z_][a-zA-Z0-9_$.]*)"
    rf"|(?P<v>%{_SUFFIX_ID})"
    rf"|(?P<h>\#{_SUFFIX_ID})"
    rf"|(?P<x>!{_SUFFIX_ID})"
    rf"|(?P<c>\^{_SUFFIX_ID})"
    r"|(?P<a>@[a-zA-Z_][a-zA-Z0-9_$.]*)"
    r"|(?P<f>[0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?)"
    r"|(?P<i>0x[0-9a-fA-F]+|[0-9]+)"
    r")",
    re.ASCII,
)
_KIND_BY_GROUP = {
    "b": MLIRTokenKind.BARE_IDENT,
    "v": MLIRTokenKind.PERCENT_IDENT,
    "h": MLIRTokenKind.HASH_IDENT,
    "x": MLIRTokenKind.EXCLAMATION_IDENT,
    "c": MLIRTokenKind.CARET_IDENT,
    "a": MLIRTokenKind.AT_IDENT,
    "f": MLIRTokenKind.FLOAT_LIT,
    "i": MLIRTokenKind.INTEGER_LIT,
}
# Group number (from 1) -> kind; None for punctuation, whose kind depends on its spelling.
_KIND_BY_INDEX = (None,) + tuple(
    None if name == "p" else _KIND_BY_GROUP[name]
    for name, _ in sorted(_TOKEN.groupindex.items(), key=lambda item: item[1])
)
_new = object.__new__


class FastMLIRLexer(MLIRLexer):
    """``MLIRLexer`` with the common tokens lexed by one regex match."""

    # xDSL's string pattern nests `+` in `*` and backtracks exponentially on a string
    # that is never closed; possessive quantifiers (Python 3.11) match the same strings
    # in linear time.
    _unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]++|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"')

    def __init__(self, input: Input) -> None:
        super().__init__(input)
        self._match = partial(_TOKEN.match, input.content)

    def lex(self) -> MLIRToken:
        m = self._match(self.pos)
        if m is None:
            return super().lex()
        index = m.lastindex
        start, end = m.span(index)
        kind = _KIND_BY_INDEX[index]
        if kind is None:
            kind = KIND_BY_PUNCTUATION_SPELLING[m.group(index)]
        self.pos = end
        # ``Token(kind, Span(start, end, self.input))`` without the dataclass
        # constructors (a frozen one sets each field through ``object.__setattr__``):
        # the same classes and fields, equal objects.
        span = _new(Span)
        fields = span.__dict__
        fields["start"] = start
        fields["end"] = end
        fields["input"] = self.input
        token = _new(Token)
        token.kind = kind
        token.span = span
        return token
