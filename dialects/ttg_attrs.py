"""The layout attributes of the ``ttg`` dialect: xDSL wrappers of the core encodings.

Every encoding registered in ``ltc.encodings`` (``#ttg.blocked``, ``#ttg.slice``,
...) gets one xDSL attribute class, generated from the registry, whose single
parameter is the core ``Encoding`` value. The core owns the meaning; this module
only moves text in and out of xDSL:

* Parsing. xDSL has read ``#ttg.<mnemonic>`` and stands on the ``<``. We find the
  matching ``>`` by bracket counting, hand the text ``#ttg.<mnemonic><...>`` to
  the core parser (``ltc.attr_text``, ``ltc.encodings.build_encoding``) and move
  xDSL's lexer past the ``>``. A nested ``#name`` (``parent = #blocked``) is looked
  up in the xDSL parser's alias table (``parser.attribute_aliases``); it must
  name a layout attribute. A core error at column ``c`` of that text is
  re-raised as an xDSL ``ParseError`` at source offset
  ``start(<) + (c - 1 - len("#ttg.<mnemonic>"))``, so the caret lands on the
  offending field.
* Printing: ``<`` + ``Encoding.body_text(alias)`` + ``>``, which is Triton's text
  with nested encodings inline. A printer that defines
  ``layout_alias(encoding) -> "#name" | None`` (``LayoutAliasPrinter``) can
  print nested encodings as aliases instead.
* ``attr.encoding`` is the core value; ``attr.to_linear_layout(shape)`` delegates
  to the core.

Classes are named after the core class (``BlockedEncoding`` ->
``BlockedEncodingAttr``, Triton's C++ name) and can be imported by that name;
``layout_attr(encoding)`` wraps any encoding in its class.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import ClassVar, NoReturn, Protocol, runtime_checkable

from xdsl.ir import Data, Dialect, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ltc.attr_text import (
    AliasRef,
    AttrNode,
    AttrTextError,
    DictValue,
    ListValue,
    Value,
    parse_attr_text,
)
from ltc.cached_hash import cache_hash
from ltc.encodings import (
    DistributedEncoding,
    Encoding,
    EncodingError,
    SharedEncoding,
    build_encoding,
    registered_encodings,
    to_linear_layout,
)
from ltc.linear_layout import LinearLayout

__all__ = [
    "TTG_ATTRS",
    "TTG_LAYOUTS",
    "DistributedLayoutAttr",
    "EncodingParam",
    "LayoutAliasPrinter",
    "LayoutAttr",
    "SharedLayoutAttr",
    "layout_attr",
    "layout_attr_class",
]


@runtime_checkable
class LayoutAliasPrinter(Protocol):
    """A printer that names nested encodings (``parent = #blocked``)."""

    def layout_alias(self, encoding: Encoding) -> str | None:
        """``"#name"`` to print ``encoding`` as an alias, None to print it inline."""
        ...


@irdl_attr_definition
class EncodingParam(Data[Encoding]):
    """The core ``Encoding`` value held by a layout attribute (never written alone)."""

    name = "ltc.encoding"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Encoding:
        parser.raise_error("ltc.encoding is internal; write the #ttg layout attribute itself")

    def verify(self) -> None:
        if not isinstance(self.data, Encoding):
            raise VerifyException(f"ltc.encoding holds {self.data!r}, not a layout encoding")

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.to_text()}>")


class LayoutAttr(ParametrizedAttribute):
    """A ``#ttg`` layout attribute; one generated subclass per core encoding."""

    ENCODING_CLASS: ClassVar[type[Encoding]]
    encoding_param: EncodingParam = param_def(converter=EncodingParam.get)

    @property
    def encoding(self) -> Encoding:
        """The core encoding value."""
        return self.encoding_param.data

    def to_linear_layout(self, shape: Sequence[int]) -> LinearLayout:
        """The linear layout of a tensor of ``shape`` in this encoding."""
        return to_linear_layout(self.encoding, shape)

    def verify(self) -> None:
        enc = self.encoding
        if not isinstance(enc, self.ENCODING_CLASS):
            raise VerifyException(
                f"#{self.name} holds a {type(enc).__name__} ({enc.to_text()}), "
                f"expected a {self.ENCODING_CLASS.__name__}"
            )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[EncodingParam]:
        return [EncodingParam(_parse_encoding_body(parser, cls.name))]

    def print_parameters(self, printer: Printer) -> None:
        alias = printer.layout_alias if isinstance(printer, LayoutAliasPrinter) else None
        printer.print_string(f"<{self.encoding.body_text(alias)}>")


class DistributedLayoutAttr(LayoutAttr):
    """Layout of a tensor in registers (in dims register, lane, warp, block)."""


class SharedLayoutAttr(LayoutAttr):
    """Layout of a tensor in shared memory (in dims offset, block)."""


# -- parsing ---------------------------------------------------------------


def _parse_encoding_body(parser: AttrParser, attr_name: str) -> Encoding:
    """Read ``<...>`` after ``#attr_name`` from xDSL's input with the core parser."""
    content = parser.lexer.input.content
    assert isinstance(content, str), "xDSL's Parser decodes its input to str"
    lt = parser.pos
    if content[lt : lt + 1] != "<":
        parser.raise_error(f"expected '<' after #{attr_name}")
    gt = _matching_bracket(parser, content, lt)
    head = f"#{attr_name}"
    text = head + content[lt : gt + 1]

    def source_pos(col: int) -> int:
        """Source offset of column ``col`` of ``text``; columns inside ``head``
        point at the ``#`` when the source spells it there, else at ``<``."""
        offset = col - 1 - len(head)
        if offset >= 0:
            return lt + offset
        written_at = lt - len(head)
        return written_at if content[written_at:lt] == head else lt

    try:
        node = parse_attr_text(text)
        assert isinstance(node, AttrNode)
        aliases = _resolve_aliases(parser, node)
        encoding = build_encoding(node, aliases)
    except AttrTextError as e:
        _raise_at(parser, content, source_pos(e.col), e.message)
    except EncodingError as e:  # raised outside build_encoding's field mapping
        _raise_at(parser, content, source_pos(1), f"#{attr_name}: {e.message}")
    parser._resume_from(gt + 1)  # pyright: ignore[reportPrivateUsage]  (no public way to skip raw text)
    return encoding


_BRACKETS = {">": "<", "]": "[", "}": "{", ")": "("}


def _matching_bracket(parser: AttrParser, content: str, lt: int) -> int:
    """Offset of the ``>`` closing the ``<`` at ``lt``."""
    stack: list[tuple[str, int]] = []
    for pos in range(lt, len(content)):
        c = content[pos]
        if c in "<[{(":
            stack.append((c, pos))
        elif c in _BRACKETS:
            if not stack or stack[-1][0] != _BRACKETS[c]:
                _raise_at(parser, content, pos, f"unbalanced '{c}' in layout attribute")
            stack.pop()
            if not stack:
                return pos
    opener, pos = stack[-1]
    _raise_at(parser, content, pos, f"'{opener}' is never closed in layout attribute")


def _alias_refs(value: Value) -> Iterator[AliasRef]:
    """Every ``#name`` reference inside a parsed attribute."""
    if isinstance(value, AliasRef):
        yield value
    elif isinstance(value, (AttrNode, ListValue)):
        for item in value.items:
            yield from _alias_refs(item)
    elif isinstance(value, DictValue):
        for _, item, _ in value.entries:
            yield from _alias_refs(item)


def _resolve_aliases(parser: AttrParser, node: AttrNode) -> Mapping[str, Encoding]:
    """The encodings that the ``#name`` references in ``node`` stand for,
    from the aliases xDSL has parsed so far."""
    resolved: dict[str, Encoding] = {}
    for ref in _alias_refs(node):
        attr = parser.attribute_aliases.get(f"#{ref.name}")
        if attr is None:
            raise AttrTextError(f"undefined attribute alias '#{ref.name}'", ref.col)
        if not isinstance(attr, LayoutAttr):
            raise AttrTextError(f"alias '#{ref.name}' is not a ttg layout attribute", ref.col)
        resolved[ref.name] = attr.encoding
    return resolved


_WORD = re.compile(r"#?[\w.$-]+")


def _raise_at(parser: AttrParser, content: str, pos: int, message: str) -> NoReturn:
    """Raise an xDSL ``ParseError`` underlining the word at ``pos``."""
    m = _WORD.match(content, pos)
    end = m.end() if m else pos + 1
    parser.raise_error(message, pos, end)


# -- one attribute class per registered encoding ----------------------------


def _attr_class(enc_cls: type[Encoding]) -> type[LayoutAttr]:
    if issubclass(enc_cls, DistributedEncoding):
        base: type[LayoutAttr] = DistributedLayoutAttr
    elif issubclass(enc_cls, SharedEncoding):
        base = SharedLayoutAttr
    else:
        base = LayoutAttr
    attr_name = f"{enc_cls.dialect}.{enc_cls.mnemonic}"
    class_name = f"{enc_cls.__name__}Attr"
    namespace = {
        "name": attr_name,
        "ENCODING_CLASS": enc_cls,
        "__module__": __name__,
        "__qualname__": class_name,
        "__doc__": f"``#{attr_name}<...>``, holding a core ``{enc_cls.__name__}``.",
        # Re-declared so the generated dataclass compares and hashes the encoding
        # (without it every attribute of one class would be equal to every other).
        "__annotations__": {"encoding_param": EncodingParam},
        "encoding_param": param_def(converter=EncodingParam.get),
    }
    return _with_cached_hash(irdl_attr_definition(type(class_name, (base,), namespace)))


def _with_cached_hash(cls: type[LayoutAttr]) -> type[LayoutAttr]:
    cache_hash(cls)  # a layout attribute sits in every tensor type xDSL hashes
    return cls


_ATTR_CLASSES: Mapping[str, type[LayoutAttr]] = MappingProxyType(
    {name: _attr_class(enc_cls) for name, enc_cls in sorted(registered_encodings().items())}
)
_BY_CLASS_NAME: Mapping[str, type[LayoutAttr]] = MappingProxyType(
    {cls.__name__: cls for cls in _ATTR_CLASSES.values()}
)

TTG_ATTRS: tuple[type[LayoutAttr], ...] = tuple(_ATTR_CLASSES.values())
"""Every layout attribute class, for ``Dialect("ttg", ops, [*TTG_ATTRS, ...])``."""

TTG_LAYOUTS = Dialect("ttg", [], list(TTG_ATTRS))
"""The ``ttg`` dialect with its layout attributes only (the ops file builds the
full dialect from ``TTG_ATTRS``)."""


def layout_attr_class(attr_name: str) -> type[LayoutAttr]:
    """The class of ``#attr_name``, e.g. ``layout_attr_class("ttg.blocked")``."""
    try:
        return _ATTR_CLASSES[attr_name]
    except KeyError:
        known = ", ".join(f"#{n}" for n in _ATTR_CLASSES)
        raise KeyError(f"no layout attribute #{attr_name} (known: {known})") from None


def layout_attr(encoding: Encoding) -> LayoutAttr:
    """``encoding`` wrapped in its xDSL attribute class."""
    return layout_attr_class(encoding.attr_name)(encoding)


def __getattr__(name: str) -> type[LayoutAttr]:
    """``from dialects.ttg_attrs import BlockedEncodingAttr`` (generated classes)."""
    try:
        return _BY_CLASS_NAME[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
