"""The simulator's errors: what a caller sees, and what an instruction raises.

:class:`SimulationError` is the one exception the simulator lets out (bad
arguments, unsupported or faulting instructions), with the PTX position when
there is one. Code that decodes or executes an instruction raises
:class:`Fault` with a message only; the decoder and the run loop turn it into a
:class:`SimulationError` naming the instruction.
"""

from __future__ import annotations

__all__ = ["SimulationError"]


class SimulationError(Exception):
    """A kernel that cannot run: bad arguments, unsupported or faulting instruction.

    ``line``/``column`` locate the PTX instruction (None for argument errors).
    """

    def __init__(self, message: str, line: int | None = None, column: int | None = None, source: str = "") -> None:
        self.message = message
        self.line = line
        self.column = column
        self.source = source
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        return f"line {self.line}: {self.message}" + (f" [{self.source}]" if self.source else "")


class Fault(Exception):
    """Raised inside an instruction; the run loop adds the line."""
