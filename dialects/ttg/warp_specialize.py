"""``ttg.warp_specialize``: run different code on different warp groups at once.

The op has two regions: the *default* region (run by the current warps, may capture
values implicitly, ends with ``ttg.warp_yield``) and a one-block *holder* region
with a single ``ttg.warp_specialize.partitions`` op. That op takes the explicit
captures as operands and owns one isolated region per partition (each ends with
``ttg.warp_return``; its arguments are the captures). ``partitionNumWarps[i]`` is the
warp count of partition ``i``; layouts inside a partition use it (``region_num_warps``).
Triton writes the whole thing as::

    %0 = ttg.warp_specialize(%a, %b) attributes {warpGroupStartIds = array<i32: 4>}
    default {
      ttg.warp_yield %x : i32
    }
    partition0(%arg0: i32, %arg1: i32) num_warps(8) {
      ttg.warp_return
    } : (i32, i32) -> i32

``ttg.warp_id`` (the current warp's index) lives here as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, IntegerType, UnitAttr, i32
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsolatedFromAbove, IsTerminator, Pure, ReturnLike
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.attr_dict import parse_attr_dict_into, print_sorted_attr_dict
from ltc.dialects.tt.types import type_text
from ltc.dialects.verifier import layout_context

__all__ = [
    "WarpIdOp",
    "WarpReturnOp",
    "WarpSpecializeOp",
    "WarpSpecializePartitionsOp",
    "WarpYieldOp",
]


def _i32_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, list(values))


def _ints(attr: DenseArrayBase | None) -> tuple[int, ...]:
    return () if attr is None else tuple(int(v) for v in attr.get_values())


@irdl_op_definition
class WarpSpecializeOp(IRDLOperation):
    """``ttg.warp_specialize``: a default region and N isolated partitions (see the module doc)."""

    name = "ttg.warp_specialize"

    partitionNumWarps = prop_def(DenseArrayBase)
    warpGroupStartIds = opt_prop_def(DenseArrayBase)
    requestedRegisters = opt_prop_def(DenseArrayBase)
    actualRegisters = opt_prop_def(DenseArrayBase)
    defaultPassthrough = var_result_def()
    defaultRegion = region_def()
    partitionOpHolder = region_def("single_block")

    PROPERTIES: ClassVar[tuple[str, ...]] = ("warpGroupStartIds", "requestedRegisters", "actualRegisters")

    def __init__(
        self,
        default_region: Region,
        partition_regions: Sequence[Region],
        num_warps: Sequence[int],
        captures: Sequence[SSAValue] = (),
        result_types: Sequence[Attribute] = (),
    ):
        holder = Region(Block([WarpSpecializePartitionsOp(captures, partition_regions)]))
        super().__init__(
            result_types=[list(result_types)],
            regions=[default_region, holder],
            properties={"partitionNumWarps": _i32_array(num_warps)},
        )

    # -- accessors ----------------------------------------------------------

    @property
    def partition_op(self) -> WarpSpecializePartitionsOp | None:
        """The holder region's ``ttg.warp_specialize.partitions`` (None if malformed)."""
        block = self.partitionOpHolder.blocks.first
        op = None if block is None else block.first_op
        return op if isinstance(op, WarpSpecializePartitionsOp) else None

    @property
    def num_warps(self) -> tuple[int, ...]:
        """``partitionNumWarps``: the warp count of each partition."""
        return _ints(self.partitionNumWarps)

    # -- syntax -------------------------------------------------------------

    @classmethod
    def parse(cls, parser: Parser) -> WarpSpecializeOp:
        captures = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        props: dict[str, Attribute] = {}
        attrs: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("attributes") is not None:
            pos = parser.pos
            props, attrs = parse_attr_dict_into(parser, cls.PROPERTIES)
            if "partitionNumWarps" in attrs:
                parser.raise_error("partitionNumWarps is written as num_warps(N) after each partition", pos, parser.pos)
        parser.parse_keyword("default")
        default_region = parser.parse_region()
        regions: list[Region] = []
        num_warps: list[int] = []
        partitions_at = None
        while True:
            pos = parser.pos
            word = parser.parse_optional_identifier()
            if word is None:
                break
            if word != f"partition{len(regions)}":
                parser.raise_error(f"expected 'partition{len(regions)}'", pos, parser.pos)
            partitions_at = pos if partitions_at is None else partitions_at
            args = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_argument)
            parser.parse_keyword("num_warps")
            parser.parse_punctuation("(")
            num_warps.append(parser.parse_integer(allow_boolean=False, allow_negative=False))
            parser.parse_punctuation(")")
            region = parser.parse_region(args)
            if len(region.blocks) == 1 and not region.block.ops and not region.block.args:
                region.detach_block(0)  # `{}` is a region without blocks, as in MLIR
            regions.append(region)
        parser.parse_punctuation(":")
        pos = parser.pos
        fn = parser.parse_function_type()
        if len(fn.inputs) != len(captures):
            parser.raise_error(
                f"expected {len(captures)} operand types but got {len(fn.inputs)}", pos, parser.pos
            )
        values = [parser.resolve_operand(o, t) for o, t in zip(captures, fn.inputs.data)]
        op = cls(default_region, regions, num_warps, values, fn.outputs.data)
        op.properties.update(props)
        op.attributes.update(attrs)
        offsets = getattr(parser, "op_offsets", None)  # ltc's reader: where each op is written
        if offsets is not None and partitions_at is not None and op.partition_op is not None:
            offsets[op.partition_op] = partitions_at  # the implicit partitions op is at `partition0`
        return op

    def print(self, printer: Printer) -> None:
        holder = self.partition_op
        captures = () if holder is None else holder.explicitCaptures
        printer.print_string("(")
        printer.print_list(captures, printer.print_operand)
        printer.print_string(")")
        shown = {
            k: v
            for k, v in sorted({**self.attributes, **self.properties}.items())
            if k != "partitionNumWarps"
        }
        if shown:
            printer.print_string(" attributes ")
            printer.print_attr_dict(shown)
        printer._print_new_line()
        printer.print_string("default ")
        printer.print_region(self.defaultRegion)
        regions = () if holder is None else holder.partitionRegions
        for index, (region, warps) in enumerate(zip(regions, self.num_warps)):
            printer._print_new_line()
            printer.print_string(f"partition{index}(")
            printer.enter_scope()  # each partition is named afresh, arguments included, as MLIR does
            entry = region.blocks.first
            if entry is not None:
                printer.print_list(entry.args, printer.print_block_argument)
            printer.print_string(f") num_warps({warps}) ")
            printer.print_region(region, print_entry_block_args=False)
            printer.exit_scope()
        printer.print_string(" : ")
        printer.print_function_type([v.type for v in captures], self.result_types)

    # -- verification ---------------------------------------------------------

    def verify_(self) -> None:
        holder_block = self.partitionOpHolder.blocks.first
        holder = self.partition_op
        if holder is None or holder_block is None or len(holder_block.ops) != 1:
            raise VerifyException(
                "'ttg.warp_specialize' op expected to find only a `ttg.warp_specialize.partitions` op inside its second region"
            )
        num_warps = self.num_warps
        n = len(holder.partitionRegions)
        if n != len(num_warps):
            raise VerifyException(
                f"'ttg.warp_specialize' op has {n} partitions but `partitionNumWarps` has {len(num_warps)} elements"
            )
        for index, warps in enumerate(num_warps):
            if warps <= 0 or warps & (warps - 1):
                raise VerifyException(
                    f"'ttg.warp_specialize' op partition #{index} number of warps ({warps}) must be a power of 2"
                )
        starts = _ints(self.warpGroupStartIds)
        if self.warpGroupStartIds is not None and len(starts) != n:
            raise VerifyException(f"'ttg.warp_specialize' op has {len(starts)} warp group start IDs but expected {n}")
        parent = self.parent_op()
        while parent is not None:
            if isinstance(parent, (WarpSpecializeOp, WarpSpecializePartitionsOp)):
                raise VerifyException(
                    "'ttg.warp_specialize' op cannot be nested inside another `ttg.warp_specialize` op"
                )
            parent = parent.parent_op()
        if not self.defaultRegion.blocks:
            raise VerifyException(
                "'ttg.warp_specialize' op region #0 ('defaultRegion') failed to verify constraint: region with at least 1 blocks"
            )
        for block in self.defaultRegion.blocks:
            last = block.last_op
            if last is None or not last.has_trait(IsTerminator):
                raise VerifyException("block with no terminator")
        # Triton checks this on the module's ``ttg.num-warps``, reporting it at each of these ops.
        module_warps = layout_context(self).num_warps
        if module_warps is not None and module_warps % 4:
            raise VerifyException("warp-specialized kernels requires num_warps to be a multiple of 4")


@irdl_op_definition
class WarpSpecializePartitionsOp(IRDLOperation):
    """The holder of ``ttg.warp_specialize``'s partition regions and explicit captures.

    Written inside ``ttg.warp_specialize``'s syntax, never on its own (generic form
    ``"ttg.warp_specialize.partitions"(%a) ({...}, {...}) : (i32) -> ()``).
    """

    name = "ttg.warp_specialize.partitions"

    explicitCaptures = var_operand_def()
    partitionRegions = var_region_def()

    traits = traits_def(IsolatedFromAbove(), IsTerminator(), HasParent(WarpSpecializeOp))

    def __init__(self, captures: Sequence[SSAValue], regions: Sequence[Region]):
        super().__init__(operands=[list(captures)], regions=[list(regions)])

    def verify_(self) -> None:
        capture_types = [v.type for v in self.explicitCaptures]
        for index, region in enumerate(self.partitionRegions):
            entry = region.blocks.first
            if entry is None:
                raise VerifyException(
                    f"'ttg.warp_specialize.partitions' op region #{index} ('partition{index}') failed to verify "
                    "constraint: region with at least 1 blocks"
                )
            if len(entry.args) != len(capture_types):
                raise VerifyException(
                    f"'ttg.warp_specialize.partitions' op partition region #{index} has {len(entry.args)} arguments "
                    f"but expected {len(capture_types)}"
                )
            for arg_index, (arg, expected) in enumerate(zip(entry.args, capture_types)):
                if arg.type != expected:
                    raise VerifyException(
                        f"'ttg.warp_specialize.partitions' op partition region #{index} argument #{arg_index} has type "
                        f"'{type_text(arg.type)}' but corresponding capture has type '{type_text(expected)}'"
                    )
            # a block without a terminator is reported at its last op by the module verifier

    def region_num_warps(self, region: Region) -> int | None:
        """Warps that run partition ``region``: its ``partitionNumWarps`` entry."""
        parent = self.parent_op()
        if not isinstance(parent, WarpSpecializeOp):
            return None
        for index, r in enumerate(self.partitionRegions):
            if r is region:
                warps = parent.num_warps
                return warps[index] if index < len(warps) else None
        return None


@irdl_op_definition
class WarpYieldOp(IRDLOperation):
    """``ttg.warp_yield %a, %b : i32, f32``: ends the default region; the op's results."""

    name = "ttg.warp_yield"

    values = var_operand_def()

    traits = traits_def(Pure(), IsTerminator(), ReturnLike(), HasParent(WarpSpecializeOp))

    assembly_format = "($values^)? attr-dict (`:` type($values)^)?"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[list(values)])

    def verify_(self) -> None:
        parent = self.parent_op()
        assert isinstance(parent, WarpSpecializeOp)
        expected = parent.result_types
        if len(self.values) != len(expected):
            raise VerifyException(
                f"'ttg.warp_yield' op has {len(self.values)} operands but parent op expected {len(expected)}"
            )
        for index, (value, ty) in enumerate(zip(self.values, expected)):
            if value.type != ty:
                raise VerifyException(
                    f"'ttg.warp_yield' op operand #{index} has type '{type_text(value.type)}' but parent op "
                    f"expected '{type_text(ty)}'"
                )


@irdl_op_definition
class WarpReturnOp(IRDLOperation):
    """``ttg.warp_return``: ends a partition region (partitions return nothing)."""

    name = "ttg.warp_return"

    traits = traits_def(Pure(), IsTerminator(), ReturnLike(), HasParent(WarpSpecializePartitionsOp))

    assembly_format = "attr-dict"


@irdl_op_definition
class WarpIdOp(IRDLOperation):
    """``%w = ttg.warp_id`` (``{omitUniformHint}``): the current warp's index, an i32."""

    name = "ttg.warp_id"

    omitUniformHint = opt_prop_def(UnitAttr)
    result = result_def(IntegerType(32))

    traits = traits_def(Pure())

    def __init__(self, omit_uniform_hint: bool = False):
        super().__init__(
            result_types=[i32], properties={"omitUniformHint": UnitAttr() if omit_uniform_hint else None}
        )

    @classmethod
    def parse(cls, parser: Parser) -> WarpIdOp:
        props, attrs = parse_attr_dict_into(parser, ("omitUniformHint",))
        return cls.create(result_types=[i32], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_sorted_attr_dict(printer, self)

