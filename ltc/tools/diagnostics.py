"""Source text and compiler-style diagnostics: ``file:line:col: error: message``.

A ``SourceFile`` turns a character offset into a 1-based line and column and renders a
diagnostic as three lines, the way compilers do::

    kernel.ttgir:12:10: error: 'tt.expand_dims' op axis 2 is out of range for rank 2
        %3 = tt.expand_dims %2 {axis = 2 : i32} : tensor<16x16xi32> -> ...
             ^
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field


@dataclass(frozen=True)
class SourceFile:
    """A named text; ``name`` is what diagnostics print (a path, or ``<stdin>``)."""

    name: str
    text: str
    _line_starts: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        starts = [0]
        find = self.text.find
        i = find("\n")
        while i >= 0:
            starts.append(i + 1)
            i = find("\n", i + 1)
        object.__setattr__(self, "_line_starts", tuple(starts))

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of character ``offset`` (clamped to the text)."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self._line_starts, offset) - 1
        return line + 1, offset - self._line_starts[line] + 1

    def line_start(self, line: int) -> int:
        """The offset of the first character of 1-based ``line``."""
        return self._line_starts[line - 1]

    def line_text(self, line: int) -> str:
        """The text of 1-based ``line`` without its newline."""
        start = self._line_starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start:] if end < 0 else self.text[start:end]

    def diagnostic(self, offset: int, message: str, severity: str = "error") -> str:
        """``name:line:col: severity: message``, the source line and a caret under the column."""
        line, col = self.line_col(offset)
        text = self.line_text(line)
        # Tabs keep their width in the caret line so the caret stays under the column.
        pad = "".join(c if c == "\t" else " " for c in text[: col - 1])
        first, *rest = message.splitlines() or [""]
        head = f"{self.name}:{line}:{col}: {severity}: {first}"
        return "\n".join([head, *rest, text, pad + "^"])


def one_line(message: str) -> str:
    """``message`` with every run of whitespace (newlines included) made one space."""
    return " ".join(message.split())
