"""Triton's layout encodings as core values, and reading them from text.

``parse_encoding`` turns Triton's attribute text (parents inline, or aliases
resolved through a table) into an ``Encoding``; ``to_linear_layout`` is the
one-call form the Python API exposes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from ltc.attr_text import AliasRef, AttrNode, AttrTextError, DictValue, FieldReader, Value, parse_attr_text
from ltc.encodings import amd, blocked, dot_operand, linear, nvidia_mma, shared, slice  # noqa: F401  (register)
from ltc.encodings.base import (
    CGALayout,
    DistributedEncoding,
    Encoding,
    EncodingError,
    SharedEncoding,
    ShapeError,
    encoding_class,
    registered_encodings,
)
from ltc.linear_layout import LinearLayout

__all__ = [
    "CGALayout",
    "DistributedEncoding",
    "Encoding",
    "EncodingError",
    "SharedEncoding",
    "ShapeError",
    "AttrTextError",
    "build_encoding",
    "parse_encoding",
    "registered_encodings",
    "to_linear_layout",
]


def build_encoding(node: AttrNode | AliasRef, aliases: Mapping[str, Encoding] | None = None) -> Encoding:
    """Turn a parsed attribute node into an encoding (nested ones too)."""
    if isinstance(node, AliasRef):
        if aliases is None or node.name not in aliases:
            raise AttrTextError(f"undefined attribute alias '#{node.name}'", node.col)
        return aliases[node.name]
    cls = encoding_class(node.name)
    if cls is None:
        known = ", ".join(f"#{n}" for n in sorted(registered_encodings()))
        raise AttrTextError(f"unknown layout attribute '#{node.name}' (known: {known})", node.col)

    def resolve(v: Value) -> Encoding:
        assert isinstance(v, (AttrNode, AliasRef))
        return build_encoding(v, aliases)

    try:
        if hasattr(cls, "from_items"):
            return cls.from_items(node, resolve)
        return _from_dict(cls, node, resolve)
    except EncodingError as e:
        # Messages that echo Triton's own already name the attribute.
        msg = e.message if e.message.startswith(node.name) else f"#{node.name}: {e.message}"
        raise AttrTextError(msg, _field_column(node, e.field)) from None


def _field_column(node: AttrNode, key: str | None) -> int:
    """Column of field ``key`` in the attribute's text (the attribute's own
    column when the field is absent or unnamed)."""
    for item in node.items:
        if isinstance(item, DictValue):
            for k, _, col in item.entries:
                if k == key:
                    return col
    return node.col


def _from_dict(cls: type[Encoding], node: AttrNode, resolve) -> Encoding:
    if len(node.items) != 1 or not isinstance(node.items[0], DictValue):
        raise AttrTextError(f"#{node.name} expects its parameters as <{{key = value, ...}}>", node.col)
    return cls.from_fields(FieldReader.from_dict(f"#{node.name}", node.items[0], resolve))


def parse_encoding(text: str, aliases: Mapping[str, Encoding] | None = None) -> Encoding:
    """Parse Triton's attribute text, e.g. ``#ttg.slice<{dim = 1, parent = #ttg.blocked<{...}>}>``.

    Raises ``AttrTextError`` (with a 1-based column) for any bad text or
    invalid parameter.
    """
    return build_encoding(parse_attr_text(text.strip()), aliases)


@lru_cache(maxsize=4096)
def _cached_layout(enc: Encoding, shape: tuple[int, ...]) -> LinearLayout:
    return enc.to_linear_layout(shape)


def to_linear_layout(attr: str | Encoding, shape: Sequence[int]) -> LinearLayout:
    """The linear layout of a tensor of ``shape`` in the encoding ``attr``
    (Triton's attribute text, parents inline, or an ``Encoding``)."""
    enc = _parse_cached(attr) if isinstance(attr, str) else attr
    return _cached_layout(enc, tuple(int(s) for s in shape))


@lru_cache(maxsize=1024)
def _parse_cached(text: str) -> Encoding:
    # Encodings are immutable values, so text -> encoding can be memoised.
    return parse_encoding(text)
