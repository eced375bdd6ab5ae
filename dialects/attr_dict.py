"""An op's attribute dictionary in hand-written syntax: ``{...}`` as MLIR prints it.

MLIR prints a ``DictionaryAttr`` sorted by name, so Triton's text always has its
``{...}`` sorted; ops of ``tt``, ``ttg`` and ``ttng`` with a custom ``parse`` /
``print`` use these two functions so that what they print matches Triton whether
the op was parsed (text order) or built (insertion order). The dictionary holds
the op's properties and attributes together, as MLIR prints inherent attributes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser
from xdsl.printer import Printer

__all__ = ["parse_attr_dict_into", "print_sorted_attr_dict"]


def print_sorted_attr_dict(
    printer: Printer,
    op: Operation,
    defaults: Mapping[str, Attribute] = {},
    reserved: Iterable[str] = (),
) -> None:
    """Print ``op``'s properties and attributes as one ``{...}``, sorted by name as
    MLIR does, leaving out ``reserved`` names (printed elsewhere in the syntax) and
    entries equal to their default. Prints a leading space when anything is printed."""
    skip = set(reserved)
    entries = {**op.attributes, **op.properties}
    shown = {
        name: entries[name]
        for name in sorted(entries)
        if name not in skip and not (name in defaults and entries[name] == defaults[name])
    }
    if shown:
        printer.print_string(" ")
        printer.print_attr_dict(shown)


def parse_attr_dict_into(
    parser: Parser, property_names: Iterable[str]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """Parse an optional ``{...}``; split it into (properties, attributes): the
    entries named in ``property_names`` are properties, the rest attributes."""
    names = set(property_names)
    entries = parser.parse_optional_attr_dict()
    props = {k: v for k, v in entries.items() if k in names}
    attrs = {k: v for k, v in entries.items() if k not in names}
    return props, attrs
