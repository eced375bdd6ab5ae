"""Progress of a long benchmark loop, on stderr (stdout keeps the results).

On a terminal one line is rewritten in place (``\\r``), at most every ``refresh`` seconds,
and cleared at the end; elsewhere (a log, CI) a full line is printed every ``every``
seconds, so a run shorter than that prints nothing. Each report reads
``LABEL: DONE/TOTAL (P%) Es elapsed, about Rs left`` (the rest extrapolated from the mean
time per item so far)::

    for pair in track(range(n), "plan sweep"):
        ...
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TextIO, TypeVar

__all__ = ["Progress", "track"]

T = TypeVar("T")


class Progress:
    """Counts finished items of ``total`` and reports to ``stream`` (default stderr)."""

    def __init__(
        self,
        label: str,
        total: int | None,
        *,
        stream: TextIO | None = None,
        every: float = 10.0,
        refresh: float = 0.2,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label = label
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every = refresh if self.tty else every
        self.clock = clock
        self.done = 0
        self._start = clock()
        self._last = self._start
        self._width = 0

    def text(self) -> str:
        elapsed = self.clock() - self._start
        if not self.total:
            return f"{self.label}: {self.done} done, {elapsed:.0f}s elapsed"
        pct = 100 * self.done // self.total
        line = f"{self.label}: {self.done}/{self.total} ({pct}%) {elapsed:.0f}s elapsed"
        if 0 < self.done < self.total:
            line += f", about {elapsed / self.done * (self.total - self.done):.0f}s left"
        return line

    def advance(self, n: int = 1) -> None:
        self.done += n
        now = self.clock()
        if now - self._last >= self.every:
            self._last = now
            self._write()

    def _write(self) -> None:
        line = self.text()
        if self.tty:
            self.stream.write("\r" + line.ljust(self._width))
            self._width = len(line)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        """Clear the terminal line (a log keeps its lines)."""
        if self.tty and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def track(items: Iterable[T], label: str, total: int | None = None, **kwargs: object) -> Iterator[T]:
    """``items``, reporting progress as each one is finished (``total`` defaults to
    ``len(items)`` where there is one)."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    with Progress(label, total, **kwargs) as p:  # type: ignore[arg-type]
        for x in items:
            yield x
            p.advance()
