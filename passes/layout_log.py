"""The ``--debug-layouts`` log: why each value got its layout, in the printed IR's names.

Lines are recorded while the layout passes run, with references in place of names:
:meth:`LayoutLog.value` and :meth:`LayoutLog.layout` return placeholders. When the pass
is done, :meth:`LayoutLog.text` prints the module with ltc's printer (the text is thrown
away) and replaces each value by the name that printer gave it (``%12``, ``%acc_3``,
``%res#1``); layouts are spelled out in full (an alias such as ``#blocked1`` names a
layout only within one printed module). A value no longer in the module reads
``<removed OP>``. Each function's section (opened by
:meth:`LayoutLog.function`) ends with every tensor value of the function that no line
was about, so that every value with a layout is listed once at least.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, OpResult, SSAValue

from ltc.dialects.printer import TritonPrinter
from ltc.encodings import Encoding

__all__ = ["LayoutLog"]

_REF = re.compile("\ue000([vl])(\\d+)\ue001")
"""A placeholder: private-use brackets around ``v<index>`` (a value) or ``l<index>``."""


@dataclass(eq=False, repr=False)
class _NamingPrinter(TritonPrinter):
    """ltc's printer, keeping every value's name (xDSL forgets a function's names when
    it leaves the function's scope)."""

    names: dict[SSAValue, str] = field(default_factory=dict)

    def print_ssa_value(self, value: SSAValue) -> str:
        name = super().print_ssa_value(value)
        self.names[value] = self._ssa_values.get(value, name)
        return name

    def _print_results(self, op: Operation) -> None:
        super()._print_results(op)
        for r in op.results:  # a result group (``%x:2``) is named without print_ssa_value
            if r in self._ssa_values:
                self.names[r] = self._ssa_values[r]


def _values(op: Operation) -> Iterator[SSAValue]:
    """Block arguments and results of the ops nested in ``op``, in program order."""
    for region in op.regions:
        for block in region.blocks:
            yield from block.args
            for inner in block.ops:
                yield from _values(inner)
                yield from inner.results


def _encoding(t: Attribute) -> Encoding | None:
    enc = getattr(t, "encoding", None)
    return getattr(enc, "encoding", None) if enc is not None else None


@dataclass
class LayoutLog:
    """Lines explaining layouts, printed by ``--debug-layouts`` (see the module docstring)."""

    _entries: list[tuple[str, object]] = field(default_factory=list)
    _values: list[SSAValue] = field(default_factory=list)
    _fallback: list[str] = field(default_factory=list)
    _layouts: list[Encoding] = field(default_factory=list)

    def value(self, v: SSAValue) -> str:
        """A placeholder for ``v``'s printed name."""
        self._values.append(v)
        what = v.op.name if isinstance(v, OpResult) else "block argument"
        self._fallback.append(f"<removed {what}>")
        return f"\ue000v{len(self._values) - 1}\ue001"

    def layout(self, enc: Encoding) -> str:
        """A placeholder for ``enc``'s text."""
        self._layouts.append(enc)
        return f"\ue000l{len(self._layouts) - 1}\ue001"

    def function(self, func: Operation, name: str) -> None:
        """Open the section of function ``func`` (``@name``)."""
        self._entries.append(("function", (func, name)))

    def add(self, line: str, about: SSAValue | None = None) -> None:
        """A line (with placeholders); ``about``: the value it gives a layout."""
        self._entries.append(("line", (line, about)))

    def text(self, module: ModuleOp) -> str:
        """Every line, names resolved against ``module`` as printed now."""
        printer = _NamingPrinter(stream=io.StringIO())
        printer.print_module(module)
        names = printer.names

        def spell(enc: Encoding) -> str:
            return enc.to_text()

        def resolve(line: str) -> str:
            def one(m: re.Match[str]) -> str:
                k = int(m.group(2))
                if m.group(1) == "l":
                    return spell(self._layouts[k])
                v = self._values[k]
                return f"%{names[v]}" if v in names else self._fallback[k]

            return _REF.sub(one, line)

        out: list[str] = []
        section: tuple[Operation, set[SSAValue]] | None = None

        def close() -> None:
            if section is None:
                return
            func, listed = section
            for v in _values(func):
                enc = _encoding(v.type) if isinstance(v.type, TensorType) else None
                if enc is not None and v not in listed and v in names:
                    out.append(f"%{names[v]}: {spell(enc)} <- no choice made here (as written, or made by a rewrite)")

        for kind, data in self._entries:
            if kind == "function":
                close()
                func, name = data  # type: ignore[misc]
                section = (func, set())
                out.append(f"// layouts of @{name}")
            else:
                line, about = data  # type: ignore[misc]
                if section is not None and about is not None:
                    section[1].add(about)
                out.append(resolve(line))
        close()
        return "\n".join(out) + ("\n" if out else "")
