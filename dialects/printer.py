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

Values are named from their hints (``%acc``, ``%acc_1``) or numbered, every name unique
in its function (Triton rejects a redefinition). A module read with a
``{-# dialect_resources #-}`` trailer prints the blobs it still refers to after it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import IO

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, Region, SSAValue
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove

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
    """xDSL's printer with Triton's aliases, ``module`` spelling and SSA names unique per function.

    Call ``print_module``; ``aliases`` is filled from the module first.
    """

    aliases: AliasTable = field(default_factory=AliasTable)
    _used_names: list[set[str]] = field(default_factory=lambda: [set[str]()], init=False)
    """Per scope, every value name visible in it (its parents' and its own)."""
    _custom_printing: list[Operation] = field(default_factory=list, init=False)
    """The ops being printed in their custom form, innermost last."""

    def layout_alias(self, encoding: Encoding) -> str | None:
        """``LayoutAliasPrinter`` hook: nested encodings print by alias."""
        return self.aliases.names.get(layout_attr(encoding))

    def print_attribute(self, attribute: Attribute) -> None:
        name = self.aliases.names.get(attribute) if self.aliases.names else None
        if name is not None:
            self.print_string(name)
        else:
            super().print_attribute(attribute)

    def enter_scope(self) -> None:
        """A new name scope, for each isolated-from-above op (a function, a warp
        partition): it sees its parents' names and adds its own, which are free again
        after it, so sibling functions or partitions reuse names as MLIR prints them
        (a region isolated from above cannot refer to them)."""
        super().enter_scope()
        self._used_names.append(set(self._used_names[-1]))

    def exit_scope(self) -> None:
        super().exit_scope()
        self._used_names.pop()

    def print_region(
        self,
        region: Region,
        print_entry_block_args: bool = True,
        print_empty_block: bool = True,
        print_block_terminators: bool = True,
    ) -> None:
        # MLIR numbers each region of an op isolated from above afresh (xDSL: once per op),
        # so the partitions of a ttg.warp_specialize each start from the same names.
        parent = region.parent_op()
        fresh = parent is not None and len(parent.regions) > 1 and parent.has_trait(IsolatedFromAbove)
        if fresh:
            self.enter_scope()
        super().print_region(region, print_entry_block_args, print_empty_block, print_block_terminators)
        if fresh:
            self.exit_scope()

    def _unused_name(self, base: str, index: int) -> tuple[str, int]:
        """The first of ``base``, ``base_1``, ``base_2``, ... from ``index`` on that is unused."""
        used = self._used_names[-1]
        name = f"{base}_{index}" if index else base
        while name in used:
            index += 1
            name = f"{base}_{index}"
        used.add(name)
        return name, index

    def _get_new_valid_name_id(self) -> str:
        used = self._used_names[-1]
        name = super()._get_new_valid_name_id()
        while name in used:  # a hint took it
            name = super()._get_new_valid_name_id()
        used.add(name)
        return name

    def _name_for(self, value: SSAValue) -> str:
        """A name no other value of the function has: the hint, suffixed if needed, or a number.

        A hint may itself look suffixed (``x_1`` from ``x_1_2``), so a counter per hint
        alone (xDSL's scheme) can hand out the same name twice.
        """
        hint = value.name_hint
        if not hint:
            return self._get_new_valid_name_id()
        name, index = self._unused_name(hint, self.ssa_names.get(hint, 0))
        self.ssa_names[hint] = index + 1
        return name

    def print_ssa_value(self, value: SSAValue) -> str:
        name = self._ssa_values.get(value)
        if name is None:
            name = self._ssa_values[value] = self._name_for(value)
        self.print_string(f"%{name}")
        return name

    def _print_results(self, op: Operation) -> None:
        results = op.results
        if len(results) < 2:
            super()._print_results(op)
            return
        # MLIR binds several results as one group, ``%acc:3 = ...``, used as ``%acc#1``;
        # xDSL would print ``%acc, %acc_1, %acc_2 = ...``.
        name = self._name_for(results[0])
        for i, result in enumerate(results):
            self._ssa_values[result] = f"{name}#{i}"
        self.print_string(f"%{name}:{len(results)} = ")

    def print_operation_type(self, op: Operation) -> None:
        # xDSL prints the location with the type: right for the generic form, where the
        # type ends the op, but a custom form may print its type before its regions
        # (scf.while): there MLIR's location comes after the whole op, which print_op does.
        if self._custom_printing and self._custom_printing[-1] is op:
            self.print_function_type(op.operand_types, op.result_types)
            return
        super().print_operation_type(op)

    def print_op(self, op: Operation) -> None:
        if not isinstance(op, ModuleOp) or self.print_generic_format:
            custom = not self.print_generic_format and type(op).print is not Operation.print
            if custom:
                self._custom_printing.append(op)
            try:
                super().print_op(op)
            finally:
                if custom:
                    self._custom_printing.pop()
            return
        # MLIR spells the top-level op ``module``; xDSL would print ``builtin.module``.
        self.enter_scope()
        self.print_string("module")
        op.print(self)
        if self.print_debuginfo:
            self.print_string(" ")
            self.print_attribute(op.location)
        self.exit_scope()

    def print_module(self, module: ModuleOp, resources: Mapping[str, Mapping[str, str]] | None = None) -> None:
        """The alias header, then the module, then the ``resources`` it refers to."""
        self.aliases = AliasTable()
        self.aliases.visit_operation(module)
        for line in self.aliases.header_lines():
            self.print_string(line + "\n")
        self.print_op(module)
        self.print_string("\n")
        if resources:
            self.print_string(resource_trailer(self._dialect_resources, resources))


def resource_trailer(used: Mapping[str, Iterable[str]], resources: Mapping[str, Mapping[str, str]]) -> str:
    """MLIR's ``{-# dialect_resources: {...} #-}`` trailer: the blobs of the ``used``
    handles (dialect -> keys) that ``resources`` has, sorted by key; '' when none."""
    groups = []
    for dialect, keys in used.items():
        blobs = resources.get(dialect, {})
        entries = [f'      {key}: "{blobs[key]}"' for key in sorted(keys) if key in blobs]
        if entries:
            groups.append(f"    {dialect}: {{\n" + ",\n".join(entries) + "\n    }")
    if not groups:
        return ""
    return "\n{-#\n  dialect_resources: {\n" + ",\n".join(groups) + "\n  }\n#-}\n"


def print_module(
    module: ModuleOp,
    stream: IO[str],
    debuginfo: bool = False,
    generic: bool = False,
    resources: Mapping[str, Mapping[str, str]] | None = None,
) -> None:
    """Print ``module`` to ``stream`` as Triton would (locations when ``debuginfo``), with
    the blobs of ``resources`` (``ParsedModule.resources``) that it refers to."""
    printer = TritonPrinter(stream=stream, print_debuginfo=debuginfo, print_generic_format=generic)
    printer.print_module(module, resources)
