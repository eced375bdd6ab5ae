"""Printing IR as Triton prints it: the alias header and ``module attributes {...}``.

xDSL prints every attribute inline and the top-level op as ``builtin.module``. Triton
(MLIR) names layout attributes once at the top of the file::

    #blocked = #ttg.blocked<{...}>
    #blocked1 = #ttg.blocked<{...}>
    #mma = #ttg.nvidia_mma<{...}>
    #shared = #ttg.nvmma_shared<{...}>
    #smem = #ttg.shared_memory
    module attributes {"ttg.num-warps" = 4 : i32, ...} {

The rules (checked against Triton 3.9 by the tests):
* Alias prefixes: ``blocked`` (#ttg.blocked), ``mma`` (nvidia_mma, amd_mfma,
  amd_wmma), ``shared`` (every shared-memory encoding), ``linear`` (#ttg.linear),
  ``smem`` (#ttg.shared_memory). Slices and dot operands print inline, their parents by
  alias.
* Numbering per prefix follows the order of first use in the printed text: the first
  is ``#blocked``, then ``#blocked1``, ``#blocked2``, ...
* Header lines are sorted by prefix, then by number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import IO

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.printer import Printer

from ltc.dialects.ttg_attrs import LayoutAttr, layout_attr
from ltc.encodings import Encoding, SharedEncoding
from ltc.encodings.blocked import BlockedEncoding
from ltc.encodings.amd import AMDMfmaEncoding, AMDWmmaEncoding
from ltc.encodings.linear import LinearEncoding
from ltc.encodings.nvidia_mma import NvidiaMmaEncoding

SHARED_MEMORY_SPACE_NAME = "ttg.shared_memory"


def encoding_alias_prefix(encoding: Encoding) -> str | None:
    """The alias prefix Triton gives a layout encoding, or None (printed inline)."""
    if isinstance(encoding, BlockedEncoding):
        return "blocked"
    if isinstance(encoding, (NvidiaMmaEncoding, AMDMfmaEncoding, AMDWmmaEncoding)):
        return "mma"
    if isinstance(encoding, SharedEncoding):
        return "shared"
    if isinstance(encoding, LinearEncoding):
        return "linear"
    return None


def attribute_alias_prefix(attr: Attribute) -> str | None:
    """The alias prefix Triton gives ``attr``, or None."""
    if isinstance(attr, LayoutAttr):
        return encoding_alias_prefix(attr.encoding)
    if getattr(attr, "name", None) == SHARED_MEMORY_SPACE_NAME:
        return "smem"
    return None


@dataclass
class AliasTable:
    """Alias names of the attributes of one module, numbered in order of first use."""

    names: dict[Attribute, str] = field(default_factory=dict)
    _counts: dict[str, int] = field(default_factory=dict)
    _seen: set[Attribute] = field(default_factory=set)

    def visit_attribute(self, attr: Attribute) -> None:
        if attr in self._seen:
            return
        self._seen.add(attr)
        if isinstance(attr, LayoutAttr):
            for nested in attr.encoding.nested_encodings():
                self.visit_attribute(layout_attr(nested))
        elif isinstance(attr, (ArrayAttr, DictionaryAttr)):
            values = attr.data.values() if isinstance(attr, DictionaryAttr) else attr.data
            for value in values:
                self.visit_attribute(value)
        elif isinstance(attr, ParametrizedAttribute):
            for param in attr.parameters:
                self.visit_attribute(param)
        prefix = attribute_alias_prefix(attr)
        if prefix is not None:
            n = self._counts.get(prefix, 0)
            self._counts[prefix] = n + 1
            self.names[attr] = f"#{prefix}{n if n else ''}"

    def visit_operation(self, op: Operation) -> None:
        for attr in op.properties.values():
            self.visit_attribute(attr)
        for attr in op.attributes.values():
            self.visit_attribute(attr)
        for operand in op.operands:
            self.visit_attribute(operand.type)
        for result in op.results:
            self.visit_attribute(result.type)
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    self.visit_attribute(arg.type)
                for nested in block.ops:
                    self.visit_operation(nested)

    def header_lines(self) -> list[str]:
        """``#name = <attribute>`` lines, sorted by prefix then number."""

        def key(item: tuple[Attribute, str]) -> tuple[str, int]:
            name = item[1][1:]
            prefix = name.rstrip("0123456789")
            return prefix, int(name[len(prefix) :] or 0)

        lines = []
        for attr, name in sorted(self.names.items(), key=key):
            lines.append(f"{name} = {_inline_text(attr, self)}")
        return lines


def _inline_text(attr: Attribute, table: AliasTable) -> str:
    """The full text of an aliased attribute (nested encodings by their aliases)."""
    if isinstance(attr, LayoutAttr):
        return attr.encoding.to_text(lambda enc: table.names.get(layout_attr(enc)))
    return "#" + attr.name


@dataclass(eq=False, repr=False)
class TritonPrinter(Printer):
    """xDSL's printer with Triton's aliases and ``module`` spelling.

    Call ``print_module``; ``aliases`` is filled from the module first.
    """

    aliases: AliasTable = field(default_factory=AliasTable)

    def layout_alias(self, encoding: Encoding) -> str | None:
        """``LayoutAliasPrinter`` hook: nested encodings print by alias."""
        return self.aliases.names.get(layout_attr(encoding))

    def print_attribute(self, attribute: Attribute) -> None:
        name = self.aliases.names.get(attribute) if self.aliases.names else None
        if name is not None:
            self.print_string(name)
        else:
            super().print_attribute(attribute)

    def _print_results(self, op: Operation) -> None:
        results = op.results
        if len(results) < 2:
            super()._print_results(op)
            return
        # MLIR binds several results as one group, ``%acc:3 = ...``, used as ``%acc#1``;
        # xDSL would print ``%acc, %acc_1, %acc_2 = ...``.
        hint = results[0].name_hint
        if hint:
            index = self.ssa_names.get(hint, 0)
            self.ssa_names[hint] = index + 1
            name = f"{hint}_{index}" if index else hint
        else:
            name = self._get_new_valid_name_id()
        for i, result in enumerate(results):
            self._ssa_values[result] = f"{name}#{i}"
        self.print_string(f"%{name}:{len(results)} = ")

    def print_op(self, op: Operation) -> None:
        if not isinstance(op, ModuleOp) or self.print_generic_format:
            super().print_op(op)
            return
        # MLIR spells the top-level op ``module``; xDSL would print ``builtin.module``.
        self.enter_scope()
        self.print_string("module")
        op.print(self)
        if self.print_debuginfo:
            self.print_string(" ")
            self.print_attribute(op.location)
        self.exit_scope()

    def print_module(self, module: ModuleOp) -> None:
        """The alias header, then the module."""
        self.aliases = AliasTable()
        self.aliases.visit_operation(module)
        for line in self.aliases.header_lines():
            self.print_string(line + "\n")
        self.print_op(module)
        self.print_string("\n")


def print_module(module: ModuleOp, stream: IO[str], debuginfo: bool = False, generic: bool = False) -> None:
    """Print ``module`` to ``stream`` as Triton would (locations when ``debuginfo``)."""
    printer = TritonPrinter(stream=stream, print_debuginfo=debuginfo, print_generic_format=generic)
    printer.print_module(module)
