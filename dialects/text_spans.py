"""Where a type, attribute or location written at a given offset ends, found by a
character scan (no lexing, no objects).

``TritonParser`` memoises what it parses by the exact text it consumed; these scans
find the candidate text (a key) before parsing. They are conservative: ``None`` means
"not a shape we memoise" and the caller parses normally. A scan may also overshoot or
stop short of what the parser consumes; the caller checks the parser's actual end on
every first parse and memoises only when the two agree.

Recognised shapes (``end`` is exclusive):

* a bare or ``!``-prefixed identifier not followed by ``<`` (``i32``, ``f16``,
  ``!ttg.async.token``, ``!alias``) — the identifier is one lexer token;
* an identifier immediately followed by a ``<``-bracketed body (``tensor<...>``,
  ``!tt.ptr<f32>``, ``#ttg.slice<{...}>``): the body ends at the matching ``>``;
* ``loc(...)``: ends at the matching ``)``.
"""

from __future__ import annotations

import re

# The lexer's own identifier grammars (xdsl.utils.mlir_lexer), so an identifier scan
# ends exactly where the lexer's token does.
_BARE_IDENT = re.compile(r"[a-zA-Z_][a-zA-Z0-9_$.]*")
_PREFIXED_IDENT = re.compile(r"[!#](?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)")
_SKIP_SPACE = re.compile(r"[ \t\r\n]*")
# What can change the angle-bracket depth, or make the scan give up (strings).
_ANGLE_EVENT = re.compile(r'->|[<>"]')
_PAREN_EVENT = re.compile(r'[()"]')
# One character per repetition and a possessive ``*+``: an unterminated string fails in
# linear time (``[^"]+`` inside ``*`` backtracks exponentially on the trailing text).
_STRING = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"')


def _next_char(text: str, pos: int) -> str:
    """The first character at or after ``pos`` that is not white space ('' at the end)."""
    pos = _SKIP_SPACE.match(text, pos).end()  # type: ignore[union-attr] - always matches
    return text[pos : pos + 1]


def _angle_body_end(text: str, pos: int) -> int | None:
    """``text[pos]`` is ``<``: the offset after its matching ``>`` (None on a string or EOF)."""
    depth = 0
    search = _ANGLE_EVENT.search
    while (m := search(text, pos)) is not None:
        c = m.group()
        pos = m.end()
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
            if depth == 0:
                return pos
        elif c == '"':
            return None
    return None


def symbol_span_end(text: str, pos: int, *, stop_chars: str = "<") -> int | None:
    """End of the identifier-shaped type or attribute at ``pos``, or None.

    An identifier followed (after white space) by one of ``stop_chars`` is refused: the
    parser may go on to consume what follows (``!tt.ptr <f32>``, ``5 : i32``).
    """
    first = text[pos : pos + 1]
    m = _PREFIXED_IDENT.match(text, pos) if first in ("!", "#") else _BARE_IDENT.match(text, pos)
    if m is None:
        return None
    end = m.end()
    if text[end : end + 1] == "<":
        end = _angle_body_end(text, end)
        if end is None:
            return None
    following = _next_char(text, end)
    if following and following in stop_chars:
        return None
    return end


def location_span_end(text: str, pos: int) -> int | None:
    """End of ``loc(...)`` written at ``pos`` (no space before ``(``), or None."""
    if not text.startswith("loc(", pos):
        return None
    depth = 0
    pos += 3
    search = _PAREN_EVENT.search
    while (m := search(text, pos)) is not None:
        c = m.group()
        if c == '"':
            s = _STRING.match(text, m.start())
            if s is None:
                return None
            pos = s.end()
            continue
        pos = m.end()
        if c == "(":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return pos
    return None
