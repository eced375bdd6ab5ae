"""Layouts from the command line: the shape, the attribute text, checks against options.

Shared by ``ltc-layout`` and ``ltc-layout convert``. Every failure is a :class:`CliError`,
which the drivers print as one ``ltc-layout: error:`` line (with the attribute text and a
caret under the bad column for text errors) and exit status 1.
"""

from __future__ import annotations

from ltc.encodings import AttrTextError, EncodingError, ShapeError, parse_encoding
from ltc.linear_layout import LayoutError, LinearLayout

__all__ = ["CliError", "build_layout", "check_in_dim", "parse_shape"]


class CliError(Exception):
    """A user-facing error: printed as one line, exit status 1.

    ``source``/``col`` (1-based), when given, are echoed under the message
    with a caret under the column.
    """

    def __init__(self, message: str, source: str | None = None, col: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.col = col


def parse_shape(text: str) -> tuple[int, ...]:
    """``"64x16"`` (or ``"64,16"``, ``"64"``) -> ``(64, 16)``; every size a
    positive power of two."""
    parts = text.strip().lower().replace(",", "x").split("x")
    try:
        shape = tuple(int(p) for p in parts)
    except ValueError:
        raise CliError(f"bad --shape '{text}': expected sizes separated by 'x', e.g. 64x16") from None
    bad = [s for s in shape if s <= 0 or s & (s - 1)]
    if bad:
        raise CliError(f"bad --shape '{text}': every size must be a positive power of 2 (got {bad[0]})")
    return shape


def build_layout(attr: str, shape: tuple[int, ...]) -> LinearLayout:
    """Parse ``attr`` and build its layout, turning library errors into ``CliError``."""
    text = attr.strip()
    try:
        encoding = parse_encoding(text)
    except AttrTextError as e:
        raise CliError(e.message, text, e.col) from None
    except EncodingError as e:
        raise CliError(e.message) from None
    try:
        return encoding.to_linear_layout(shape)
    except ShapeError as e:
        raise CliError(str(e)) from None
    except (EncodingError, LayoutError) as e:
        raise CliError(f"shape {'x'.join(map(str, shape))}: {e}") from None


def check_in_dim(layout: LinearLayout, dim: str, expected: int | None, option: str) -> None:
    """Refuse ``layout`` unless its in-dim ``dim`` has size ``expected`` (``option`` names the flag)."""
    if expected is None:
        return
    if not layout.has_in_dim(dim):
        raise CliError(f"{option} {expected}: the layout has no '{dim}' dimension (in dims: "
                       f"{', '.join(layout.in_dim_names)})")
    actual = layout.in_dim_size(dim)
    if actual != expected:
        raise CliError(f"{option} {expected}: the layout has {actual} (its '{dim}' in-dim size)")
