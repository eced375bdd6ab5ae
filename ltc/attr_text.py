"""Reading Triton's layout attribute text: a small parser with column numbers.

Grammar of the attribute text Triton 3.9 prints (``#ttg.blocked<{...}>`` and
friends)::

    attr   := '#' NAME ( '<' items? '>' )?                NAME = dialect.mnemonic
    items  := item                                      (most attributes)
            | item ',' item                             (shared_linear: {...}, alignment = N)
            | list item                                 (padded_shared: [..] {...}, no comma)
    alias  := '#' IDENT                                 (no '<', no '.')
    item   := value
    value  := INT | 'true' | 'false' | IDENT | list | dict | attr | alias
            | INT ':' '+' INT                           (padded_shared intervals)
    list   := '[' (value (',' value)*)? ']'
    dict   := '{' (IDENT '=' value (',' IDENT '=' value)*)? '}'

Every node records its column (1-based) so errors can point at it. Encodings
read their parameters through ``FieldReader``, which reports missing, unknown,
duplicate and ill-typed fields as ``AttrTextError``s with the column.
"""

from __future__ import annotations

import difflib

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Union


class AttrTextError(ValueError):
    """Bad attribute text; ``col`` is the 1-based column of the problem."""

    def __init__(self, message: str, col: int) -> None:
        super().__init__(message)
        self.message = message
        self.col = col


@dataclass(frozen=True)
class Int:
    value: int
    col: int


@dataclass(frozen=True)
class Bool:
    value: bool
    col: int


@dataclass(frozen=True)
class Ident:
    name: str
    col: int


@dataclass(frozen=True)
class ListValue:
    items: tuple[Value, ...]
    col: int


@dataclass(frozen=True)
class DictValue:
    entries: tuple[tuple[str, Value, int], ...]  # (key, value, key column)
    col: int


@dataclass(frozen=True)
class Interval:
    """``interval:+pad`` in ``#ttg.padded_shared<[32:+4] ...>``."""

    interval: int
    pad: int
    col: int


@dataclass(frozen=True)
class AliasRef:
    """``#name`` without a body: a reference to an alias definition."""

    name: str
    col: int


@dataclass(frozen=True)
class AttrNode:
    """``#dialect.mnemonic<items>``."""

    name: str
    items: tuple[Value, ...]
    col: int
    end_col: int = 0


Value = Union[Int, Bool, Ident, ListValue, DictValue, Interval, AliasRef, AttrNode]

_TOKEN = re.compile(
    r"\s*(?:(?P<int>-?\d+)|(?P<hash>#[A-Za-z_][\w.$-]*)|(?P<ident>[A-Za-z_][\w.$]*)"
    r"|(?P<punct>[<>\[\]{}=,:+]))"
)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    # -- lexing
    def _peek(self) -> tuple[str, str, int] | None:
        m = _TOKEN.match(self.text, self.pos)
        if not m:
            rest = self.text[self.pos :]
            if rest.strip() == "":
                return None
            col = self.pos + len(rest) - len(rest.lstrip()) + 1
            raise AttrTextError(f"unexpected character '{rest.lstrip()[0]}'", col)
        kind = m.lastgroup
        assert kind is not None
        return kind, m.group(kind), m.start(kind) + 1

    def _next(self) -> tuple[str, str, int]:
        tok = self._peek()
        if tok is None:
            raise AttrTextError("unexpected end of attribute text", len(self.text) + 1)
        m = _TOKEN.match(self.text, self.pos)
        assert m is not None
        self.pos = m.end()
        return tok

    def _expect(self, punct: str) -> int:
        kind, val, col = self._next()
        if kind != "punct" or val != punct:
            raise AttrTextError(f"expected '{punct}', found '{val}'", col)
        return col

    def _at(self, punct: str) -> bool:
        tok = self._peek()
        return tok is not None and tok[0] == "punct" and tok[1] == punct

    # -- grammar
    def parse_top(self) -> AttrNode | AliasRef:
        value = self.value()
        tok = self._peek()
        if tok is not None:
            raise AttrTextError(f"unexpected '{tok[1]}' after the attribute", tok[2])
        if not isinstance(value, (AttrNode, AliasRef)):
            raise AttrTextError("expected a layout attribute such as '#ttg.blocked<{...}>'", value.col)
        return value

    def value(self) -> Value:
        kind, val, col = self._next()
        if kind == "int":
            if self._at(":"):
                self._next()
                self._expect("+")
                k2, v2, c2 = self._next()
                if k2 != "int":
                    raise AttrTextError(f"expected a padding amount, found '{v2}'", c2)
                return Interval(int(val), int(v2), col)
            return Int(int(val), col)
        if kind == "ident":
            if val in ("true", "false"):
                return Bool(val == "true", col)
            return Ident(val, col)
        if kind == "hash":
            name = val[1:]
            if not self._at("<"):
                if "." in name:
                    return AttrNode(name, (), col, self.pos + 1)
                return AliasRef(name, col)
            self._next()
            items: list[Value] = []
            if not self._at(">"):
                items.append(self._item())
            while not self._at(">"):
                self._separator(name, items)
                items.append(self._item())
            self._expect(">")
            return AttrNode(name, tuple(items), col, self.pos + 1)
        if val == "[":
            items = []
            if not self._at("]"):
                items.append(self.value())
                while self._at(","):
                    self._next()
                    items.append(self.value())
            self._expect("]")
            return ListValue(tuple(items), col)
        if val == "{":
            entries: list[tuple[str, Value, int]] = []
            if not self._at("}"):
                entries.append(self._entry())
                while self._at(","):
                    self._next()
                    entries.append(self._entry())
            self._expect("}")
            return DictValue(tuple(entries), col)
        raise AttrTextError(f"unexpected '{val}'", col)

    def _separator(self, name: str, items: list[Value]) -> None:
        """What Triton reads after ``items`` inside ``<...>`` when no ``>`` follows:
        ``shared_linear`` a ``,`` before ``alignment = N``, ``padded_shared`` its
        dictionary right after the interval list (no comma); every other attribute
        (and these, once complete) the ``>``. Like MLIR, a missing token is reported
        just after the previous one."""
        end_col = self.pos + 1
        if name == "ttg.padded_shared" and len(items) == 1 and isinstance(items[0], ListValue):
            if self._at(","):
                raise AttrTextError("expected attribute value", self._peek()[2])  # type: ignore[index]
            return
        if name == "ttg.shared_linear" and len(items) == 1:
            first = items[0]
            if isinstance(first, DictValue) and any(key == "alignment" for key, _, _ in first.entries):
                # Triton checks the bases' dictionary before it reads on
                tok = self._peek()
                raise AttrTextError(
                    "alignment must be specified outside of the linear layout braces", tok[2] if tok else end_col
                )
            if not self._at(","):
                raise AttrTextError("expected ','", end_col)
            self._next()
            tok = self._peek()
            if tok is None or tok[:2] != ("ident", "alignment"):
                raise AttrTextError("expected 'alignment'", tok[2] if tok else len(self.text) + 1)
            return
        raise AttrTextError("expected '>'", end_col)

    def _item(self) -> Value:
        """A value, or ``key = value`` written directly inside ``<...>``
        (``alignment = 512`` in shared_linear), read as a one-entry dict."""
        save = self.pos
        tok = self._next()
        if tok[0] == "ident" and self._at("="):
            self._next()
            return DictValue(((tok[1], self.value(), tok[2]),), tok[2])
        self.pos = save
        return self.value()

    def _entry(self) -> tuple[str, Value, int]:
        kind, key, col = self._next()
        if kind != "ident":
            raise AttrTextError(f"expected a field name, found '{key}'", col)
        self._expect("=")
        return key, self.value(), col


def parse_attr_text(text: str) -> AttrNode | AliasRef:
    """Parse one attribute (``#ttg.x<...>`` or an alias ``#name``)."""
    return _Parser(text).parse_top()


def describe(value: Value) -> str:
    """Short name of a value's kind, for error messages."""
    return {
        Int: "an integer",
        Bool: "a boolean",
        Ident: "a keyword",
        ListValue: "a list",
        DictValue: "a dictionary",
        Interval: "an interval",
        AliasRef: "an alias",
        AttrNode: "an attribute",
    }[type(value)]


@dataclass
class FieldReader:
    """Typed access to the ``{key = value, ...}`` fields of one attribute.

    Each getter removes the field; ``finish()`` rejects the ones left over.
    ``resolve`` turns a nested attribute or alias into an encoding.
    """

    attr: str
    entries: dict[str, tuple[Value, int]]
    col: int
    resolve: Callable[[Value], Any]
    used: set[str] = field(default_factory=set)

    @classmethod
    def from_dict(cls, attr: str, d: DictValue, resolve: Callable[[Value], Any]) -> FieldReader:
        entries: dict[str, tuple[Value, int]] = {}
        for key, value, col in d.entries:
            if key in entries:
                raise AttrTextError(f"{attr}: duplicate field '{key}'", col)
            entries[key] = (value, col)
        return cls(attr, entries, d.col, resolve)

    def has(self, key: str) -> bool:
        return key in self.entries

    def column(self, key: str) -> int:
        return self.entries[key][1] if key in self.entries else self.col

    def _take(self, key: str) -> Value:
        if key not in self.entries:
            # A misspelt key is likelier than a forgotten one: name it where it stands.
            unused = [k for k in self.entries if k not in self.used]
            close = difflib.get_close_matches(key, unused, n=1, cutoff=0.75)
            if close:
                raise AttrTextError(
                    f"{self.attr}: unexpected field '{close[0]}' (did you mean '{key}'?)", self.entries[close[0]][1]
                )
            raise AttrTextError(f"{self.attr}: missing field '{key}'", self.col)
        self.used.add(key)
        return self.entries[key][0]

    def _bad(self, key: str, value: Value, want: str) -> AttrTextError:
        return AttrTextError(f"{self.attr}: field '{key}' must be {want}, got {describe(value)}", value.col)

    def int(self, key: str, default: int | None = None) -> int:
        if default is not None and key not in self.entries:
            return default
        v = self._take(key)
        if not isinstance(v, Int):
            raise self._bad(key, v, "an integer")
        return v.value

    def bool(self, key: str, default: bool | None = None) -> bool:
        if default is not None and key not in self.entries:
            return default
        v = self._take(key)
        if not isinstance(v, Bool):
            raise self._bad(key, v, "true or false")
        return v.value

    def ints(self, key: str, default: Sequence[int] | None = None) -> tuple[int, ...]:
        if default is not None and key not in self.entries:
            return tuple(default)
        v = self._take(key)
        return self._int_list(key, v)

    def _int_list(self, key: str, v: Value) -> tuple[int, ...]:
        if not isinstance(v, ListValue) or not all(isinstance(i, Int) for i in v.items):
            raise self._bad(key, v, "a list of integers")
        return tuple(i.value for i in v.items)  # type: ignore[union-attr]

    def bases(self, key: str, default: Sequence[Sequence[int]] | None = None) -> tuple[tuple[int, ...], ...]:
        """A list of integer lists, e.g. ``[[0, 1], [2, 0]]``."""
        if default is not None and key not in self.entries:
            return tuple(tuple(b) for b in default)
        v = self._take(key)
        if not isinstance(v, ListValue):
            raise self._bad(key, v, "a list of bases such as [[0, 1], [1, 0]]")
        return tuple(self._int_list(key, b) for b in v.items)

    def dict(self, key: str) -> FieldReader:
        v = self._take(key)
        if not isinstance(v, DictValue):
            raise self._bad(key, v, "a dictionary")
        return FieldReader.from_dict(f"{self.attr} {key}", v, self.resolve)

    def encoding(self, key: str) -> Any:
        v = self._take(key)
        if not isinstance(v, (AttrNode, AliasRef)):
            raise self._bad(key, v, "a layout attribute")
        return self.resolve(v)

    def raw(self, key: str) -> Value:
        return self._take(key)

    def finish(self) -> None:
        for key, (_, col) in self.entries.items():
            if key not in self.used:
                raise AttrTextError(f"{self.attr}: unknown field '{key}'", col)


def format_ints(values: Sequence[int]) -> str:
    """``[1, 2, 3]``, as MLIR prints integer arrays."""
    return "[" + ", ".join(str(v) for v in values) + "]"


def format_bases(bases: Sequence[Sequence[int]]) -> str:
    """``[[0, 1], [2, 0]]``."""
    return "[" + ", ".join(format_ints(b) for b in bases) + "]"


def format_bool(v: bool) -> str:
    return "true" if v else "false"
