"""What every layout encoding is: a frozen value with Triton's attribute text
and a ``to_linear_layout(shape)``.

An encoding class

* is a frozen dataclass whose fields are Triton's parameters (snake_case);
  ``__post_init__`` checks them and raises ``EncodingError(message, field)``;
* names its attribute with ``mnemonic`` (``"blocked"`` for ``#ttg.blocked``)
  and registers itself with ``@register_encoding``;
* reads its text with ``from_fields(reader)`` (see ``ltc.attr_text``) and
  prints Triton's exact text with ``to_text()``;
* maps a tensor shape to a ``LinearLayout`` whose in dims are
  ``register, lane, warp, block`` (distributed) or ``offset, block`` (shared)
  and whose out dims are ``dim0..dimN-1``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar, TypeVar

from ltc.attr_text import FieldReader, format_bases
from ltc.cached_hash import cache_hash
from ltc.layout_utils import cga_linear_layout
from ltc.linear_layout import LayoutError, LinearLayout

# Prints a nested encoding (a parent): returns alias text such as "#blocked"
# or None to print the encoding inline.
AliasFn = Callable[["Encoding"], "str | None"]


class EncodingError(ValueError):
    """Invalid encoding parameters. ``field`` names the offending field
    (Triton's spelling) when there is one, so text errors can point at it."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def triton_unsigned(value: int, desc: str, field: str) -> int:
    """An integer field as Triton's attribute parser reads it: the literal is an ``i64``
    (outside ``[-2**63, 2**64)``: "integer constant out of range"), read as signed
    (so ``2**63`` and above are negative), refused when negative, then truncated to
    32 bits (``unsigned``). ``desc`` is Triton's name for the field in its message."""
    if not -(1 << 63) <= value < 1 << 64:
        raise EncodingError("integer constant out of range for attribute", field)
    if value >= 1 << 63:
        value -= 1 << 64
    if value < 0:
        raise EncodingError(f"expected an unsigned integer value in {desc}", field)
    return value & 0xFFFFFFFF


def read_unsigned(fields: FieldReader, key: str, desc: str, default: int | None = None) -> int:
    """``fields.int(key)`` checked and truncated as Triton does (``triton_unsigned``)."""
    return triton_unsigned(fields.int(key, default), desc, key)


def read_unsigneds(
    fields: FieldReader, key: str, desc: str, default: Sequence[int] | None = None
) -> tuple[int, ...]:
    """``fields.ints(key)``, each entry checked and truncated as Triton does."""
    return tuple(triton_unsigned(v, desc, key) for v in fields.ints(key, default))


class ShapeError(ValueError):
    """A shape that the encoding cannot take (wrong rank, not powers of 2...)."""


class Encoding(ABC):
    """A layout attribute of the ``ttg`` dialect."""

    mnemonic: ClassVar[str]
    dialect: ClassVar[str] = "ttg"

    @property
    def attr_name(self) -> str:
        return f"{self.dialect}.{self.mnemonic}"

    @property
    @abstractmethod
    def rank(self) -> int:
        """Tensor rank this encoding is for."""

    @abstractmethod
    def to_linear_layout(self, shape: Sequence[int]) -> LinearLayout:
        """The linear layout of a tensor of ``shape`` in this encoding."""

    @classmethod
    @abstractmethod
    def from_fields(cls, fields: FieldReader) -> Encoding:
        """Build from the attribute's ``{...}`` fields; must consume them all
        (call ``fields.finish()``)."""

    @abstractmethod
    def body_text(self, alias: AliasFn | None = None) -> str:
        """What goes between ``<`` and ``>`` in Triton's printed form."""

    def to_text(self, alias: AliasFn | None = None) -> str:
        """Triton's exact attribute text, e.g. ``#ttg.blocked<{...}>``; nested
        encodings print through ``alias`` when it names them, else inline."""
        return f"#{self.attr_name}<{self.body_text(alias)}>"

    def __str__(self) -> str:
        return self.to_text()

    def nested_encodings(self) -> tuple[Encoding, ...]:
        """The encodings written inside this one (a slice's or dot operand's parent)."""
        return ()

    def nested_text(self, enc: Encoding, alias: AliasFn | None) -> str:
        """How a nested encoding (a parent) is printed inside this one."""
        name = alias(enc) if alias is not None else None
        return name if name is not None else enc.to_text(alias)


class DistributedEncoding(Encoding):
    """Encodings of tensors in registers: in dims register, lane, warp, block."""


class SharedEncoding(Encoding):
    """Encodings of tensors in shared memory: in dims offset, block."""


_E = TypeVar("_E", bound=type[Encoding])
_REGISTRY: dict[str, type[Encoding]] = {}


def register_encoding(cls: _E) -> _E:
    """Class decorator: make ``#ttg.<mnemonic>`` parse to ``cls``."""
    name = f"{cls.dialect}.{cls.mnemonic}"
    if name in _REGISTRY:
        raise RuntimeError(f"encoding {name} registered twice")
    _REGISTRY[name] = cls
    cache_hash(cls)
    return cls


def encoding_class(name: str) -> type[Encoding] | None:
    """The class registered for ``ttg.<mnemonic>``, if any."""
    return _REGISTRY.get(name)


def registered_encodings() -> dict[str, type[Encoding]]:
    return dict(_REGISTRY)


@dataclass(frozen=True)
class CGALayout:
    """The multi-CTA part of an encoding: where each CTA of a cluster (CGA)
    sits in the tensor, as bases from in dim ``block`` to ``dim0..``.

    Printed as ``CGALayout = [[1, 0], ...]`` only when there is more than one
    CTA; zero bases mean CTAs that hold copies of the same data.
    """

    block_bases: tuple[tuple[int, ...], ...] = ()

    @property
    def num_ctas(self) -> int:
        return 1 << len(self.block_bases)

    def check_rank(self, rank: int) -> None:
        _check_cga(tuple(map(tuple, self.block_bases)), rank)

    def linear_layout(self, rank: int) -> LinearLayout:
        return cga_linear_layout(self.block_bases, rank)

    @classmethod
    def read(cls, fields: FieldReader) -> CGALayout:
        """Read the optional ``CGALayout`` field."""
        if not fields.has("CGALayout"):
            return cls()
        return cls(fields.bases("CGALayout"))

    def field_text(self) -> str:
        """``, CGALayout = [...]`` or nothing for a single CTA."""
        if not self.block_bases:
            return ""
        return f", CGALayout = {format_bases(self.block_bases)}"


# Every encoding checks its CGA when it is built, and the layout passes build the same
# few encodings over and over: the check (a linear layout and its inverse) is a pure
# function of the bases and the rank. (Only passing checks are remembered.)
@lru_cache(maxsize=1024)
def _check_cga(block_bases: tuple[tuple[int, ...], ...], rank: int) -> None:
    for b in block_bases:
        if len(b) != rank:
            raise EncodingError(
                f"CGALayout basis {list(b)} has {len(b)} entries, expected {rank} (the layout's rank)",
                "CGALayout",
            )
    # Triton's rule: without the zero (broadcast) bases, the bases form a
    # permutation matrix — each CTA bit is one distinct tensor bit, and
    # together they cover every bit of the CGA's extent.
    nonzero = [b for b in block_bases if any(b)]
    try:
        ll = cga_linear_layout(nonzero, rank)
    except LayoutError:
        ll = None
    if ll is None or not ll.is_invertible():
        raise EncodingError(
            "After removing the zero bases the CGA encoding must be a permutation matrix "
            f"(CGALayout = {format_bases(block_bases)})",
            "CGALayout",
        )


def check_shape(shape: Sequence[int], rank: int, what: str) -> tuple[int, ...]:
    """Validate a tensor shape for an encoding of ``rank``: right rank,
    every size a power of two."""
    shape = tuple(int(s) for s in shape)
    if len(shape) != rank:
        raise ShapeError(f"{what} has rank {rank} but the shape {format_shape(shape)} has rank {len(shape)}")
    for s in shape:
        if s <= 0 or s & (s - 1):
            raise ShapeError(f"shape {format_shape(shape)}: every size must be a power of 2")
    return shape


def format_shape(shape: Sequence[int]) -> str:
    return "x".join(str(s) for s in shape)
