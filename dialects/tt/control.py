"""``tt`` ops for program structure: functions, calls, grid queries, debugging.

``tt.func``, ``tt.return``, ``tt.call``; ``tt.get_program_id`` /
``tt.get_num_programs`` (axis as a bare ``x``/``y``/``z``); ``tt.print``,
``tt.assert``; ``tt.grid_dependency_wait`` / ``tt.grid_dependency_launch_dependents``.
``tt.func`` prints as ``func.func`` does (visibility keyword first, argument
attributes inline, a declaration has no body).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I32,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DictionaryAttr,
    FlatSymbolRefAttrConstr,
    FunctionType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    i1,
    i32,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    CallableOpInterface,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    MemoryReadEffect,
    MemoryWriteEffect,
    Pure,
    ReturnLike,
    SymbolOpInterface,
    SymbolTable,
    SymbolUserOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.tt.attrs import ProgramIDDim, ProgramIDDimAttr
from ltc.dialects.tt.types import element_type_of, type_text

__all__ = [
    "AssertOp",
    "CallOp",
    "CallOpSymbolUserInterface",
    "FuncOp",
    "FuncOpCallableInterface",
    "GetNumProgramsOp",
    "GetProgramIdOp",
    "GridDependencyLaunchDependentsOp",
    "GridDependencyWaitOp",
    "PrintOp",
    "ReturnOp",
]

# ---------------------------------------------------------------------------
# Functions and calls
# ---------------------------------------------------------------------------


class FuncOpCallableInterface(CallableOpInterface):
    @classmethod
    def get_callable_region(cls, op: Operation) -> Region:
        assert isinstance(op, FuncOp)
        return op.body

    @classmethod
    def get_argument_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, FuncOp)
        return op.function_type.inputs.data

    @classmethod
    def get_result_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, FuncOp)
        return op.function_type.outputs.data


@irdl_op_definition
class FuncOp(IRDLOperation):
    """A Triton function.

    ``tt.func public @k(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) attributes {noinline = false} { ... }``
    ``tt.func private @decl(i32) -> f32`` (a declaration has no body).
    """

    name = "tt.func"

    body = region_def()
    sym_name = prop_def(StringAttr)
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), FuncOpCallableInterface(), HasParent(ModuleOp))

    def __init__(
        self,
        name: str,
        function_type: FunctionType | tuple[Sequence[Attribute], Sequence[Attribute]],
        region: Region | None = None,
        visibility: str | None = None,
        *,
        arg_attrs: ArrayAttr[DictionaryAttr] | None = None,
        res_attrs: ArrayAttr[DictionaryAttr] | None = None,
    ):
        if isinstance(function_type, tuple):
            function_type = FunctionType.from_lists(*function_type)
        if region is None:
            from xdsl.ir import Block

            region = Region(Block(arg_types=function_type.inputs))
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "function_type": function_type,
                "sym_visibility": StringAttr(visibility) if visibility else None,
                "arg_attrs": arg_attrs,
                "res_attrs": res_attrs,
            },
            regions=[region],
        )

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        visibility = parser.parse_optional_visibility_keyword()
        name, inputs, outputs, region, extra_attrs, arg_attrs, res_attrs = parse_func_op_like(
            parser, reserved_attr_names=("sym_name", "function_type", "sym_visibility")
        )
        func = cls(
            name,
            (inputs, outputs),
            region,
            visibility.data if visibility else None,
            arg_attrs=arg_attrs,
            res_attrs=res_attrs,
        )
        if extra_attrs is not None:
            func.attributes |= extra_attrs.data
        return func

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(f" {self.sym_visibility.data}")
        print_func_op_like(
            printer,
            self.sym_name,
            self.function_type,
            self.body,
            self.attributes,
            arg_attrs=self.arg_attrs,
            res_attrs=self.res_attrs,
            reserved_attr_names=("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"),
            print_empty_outputs=False,
        )

    def verify_(self) -> None:
        if self.sym_visibility is not None and self.sym_visibility.data not in ("public", "private", "nested"):
            raise VerifyException(f"'tt.func' op visibility must be public, private or nested, got '{self.sym_visibility.data}'")
        if not self.body.blocks and (self.sym_visibility is None or self.sym_visibility.data == "public"):
            # MLIR's symbol rule: a declaration is private or nested (no visibility is public)
            raise VerifyException("'tt.func' op symbol declaration cannot have public visibility")
        if self.arg_attrs is not None and len(self.arg_attrs) != len(self.function_type.inputs):
            raise VerifyException("'tt.func' op expects one argument attribute dictionary per argument")
        # MLIR's function interface: argument and result attributes belong to a dialect
        for what, dicts in (("arguments", self.arg_attrs), ("results", self.res_attrs)):
            if dicts is not None and any("." not in name for d in dicts for name in d.data):
                raise VerifyException(f"'tt.func' op {what} may only have dialect attributes")
        if not self.body.blocks:
            return
        entry = self.body.blocks.first
        assert entry is not None
        if tuple(entry.arg_types) != self.function_type.inputs.data:
            raise VerifyException(
                "'tt.func' op the types of the entry block arguments must match the function's input types"
            )

    @property
    def is_declaration(self) -> bool:
        return not self.body.blocks


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """``tt.return`` / ``tt.return %a, %b : f32, i32``; operands must match the function's results."""

    name = "tt.return"

    srcs = var_operand_def()

    traits = traits_def(Pure(), HasParent(FuncOp), IsTerminator(), ReturnLike())

    assembly_format = "attr-dict ($srcs^ `:` type($srcs))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[list(values)])

    def verify_(self) -> None:
        func = self.parent_op()
        assert isinstance(func, FuncOp)
        results = func.function_type.outputs.data
        if len(self.srcs) != len(results):
            raise VerifyException(
                f"'tt.return' op has {len(self.srcs)} operands, but enclosing function (@{func.sym_name.data}) "
                f"returns {len(results)}"
            )
        for index, (value, expected) in enumerate(zip(self.srcs, results)):
            if value.type != expected:
                raise VerifyException(
                    f"'tt.return' op type of return operand {index} ({type_text(value.type)}) doesn't match "
                    f"function result type ({type_text(expected)}) in function @{func.sym_name.data}"
                )


class CallOpSymbolUserInterface(SymbolUserOpInterface):
    def verify(self, op: Operation) -> None:
        assert isinstance(op, CallOp)
        callee = SymbolTable.lookup_symbol(op, op.callee)
        if callee is None:
            raise VerifyException(f"'tt.call' op '{op.callee.string_value()}' does not reference a valid function")
        if not isinstance(callee, FuncOp):
            raise VerifyException(f"'tt.call' op '{op.callee.string_value()}' does not reference a valid function")
        inputs = callee.function_type.inputs.data
        outputs = callee.function_type.outputs.data
        if len(inputs) != len(op.args):
            raise VerifyException("'tt.call' op incorrect number of operands for callee")
        for index, (expected, value) in enumerate(zip(inputs, op.args)):
            if expected != value.type:
                raise VerifyException(
                    f"'tt.call' op operand type mismatch: expected operand type '{type_text(expected)}', "
                    f"but provided '{type_text(value.type)}' for operand number {index}"
                )
        if len(outputs) != len(op.results):
            raise VerifyException("'tt.call' op incorrect number of results for callee")
        for index, (expected, result) in enumerate(zip(outputs, op.results)):
            if expected != result.type:
                raise VerifyException(
                    f"'tt.call' op result type mismatch: expected result type '{type_text(expected)}', "
                    f"but provided '{type_text(result.type)}' for result number {index}"
                )


@irdl_op_definition
class CallOp(IRDLOperation):
    """``%r = tt.call @f(%a, %b) : (i32, !tt.ptr<f16>) -> f32``."""

    name = "tt.call"

    callee = prop_def(FlatSymbolRefAttrConstr)
    args = var_operand_def()
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res = var_result_def()

    traits = traits_def(CallOpSymbolUserInterface())

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = "$callee `(` $args `)` attr-dict `:` functional-type($args, $res)"

    def __init__(self, callee: str | SymbolRefAttr, args: Sequence[SSAValue | Operation], result_types: Sequence[Attribute]):
        if isinstance(callee, str):
            callee = SymbolRefAttr(callee)
        super().__init__(operands=[args], result_types=[result_types], properties={"callee": callee})


# ---------------------------------------------------------------------------
# Grid queries
# ---------------------------------------------------------------------------


class _ProgramAxisOp(IRDLOperation):
    axis = prop_def(ProgramIDDimAttr)
    result = result_def(I32)

    traits = traits_def(Pure())

    assembly_format = "$axis attr-dict `:` type($result)"

    def __init__(self, axis: ProgramIDDim | str):
        super().__init__(result_types=[i32], properties={"axis": ProgramIDDimAttr(ProgramIDDim(axis))})


@irdl_op_definition
class GetProgramIdOp(_ProgramAxisOp):
    """``%pid = tt.get_program_id x : i32``."""

    name = "tt.get_program_id"


@irdl_op_definition
class GetNumProgramsOp(_ProgramAxisOp):
    """``%n = tt.get_num_programs y : i32``."""

    name = "tt.get_num_programs"


# ---------------------------------------------------------------------------
# Debugging
# ---------------------------------------------------------------------------


@irdl_op_definition
class PrintOp(IRDLOperation):
    """``tt.print " val: " {hex = false, isSigned = array<i32: 1, 0>} : %a, %b : tensor<128xi32>, tensor<128xf32>``."""

    name = "tt.print"

    prefix = prop_def(StringAttr)
    hex = prop_def(BoolAttr)
    args = var_operand_def()
    isSigned = prop_def(DenseArrayBase)

    traits = traits_def(MemoryWriteEffect())

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = "$prefix attr-dict (`:` $args^ `:` type($args))?"

    def verify_(self) -> None:
        if self.isSigned.elt_type != i32:
            raise VerifyException("'tt.print' op isSigned must be an array<i32: ...>")
        # Triton 3.9 does not check len(isSigned) against the arguments (its tests
        # print a bare prefix with isSigned = array<i32: 0>).


@irdl_op_definition
class AssertOp(IRDLOperation):
    """``tt.assert %cond, "message" : tensor<128xi1>``."""

    name = "tt.assert"

    condition = operand_def()
    message = prop_def(StringAttr)

    traits = traits_def(MemoryWriteEffect())

    assembly_format = "$condition `,` $message attr-dict `:` type($condition)"

    def verify_(self) -> None:
        if element_type_of(self.condition.type) != i1:
            raise VerifyException(
                f"'tt.assert' op condition must be i1 or a tensor of i1, got {type_text(self.condition.type)}"
            )


# ---------------------------------------------------------------------------
# Grid dependencies (programmatic dependent launch)
# ---------------------------------------------------------------------------


@irdl_op_definition
class GridDependencyLaunchDependentsOp(IRDLOperation):
    """``tt.grid_dependency_launch_dependents``: let dependent grids start (programmatic dependent launch)."""

    name = "tt.grid_dependency_launch_dependents"

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    assembly_format = "attr-dict"


@irdl_op_definition
class GridDependencyWaitOp(IRDLOperation):
    """``tt.grid_dependency_wait``: wait for the grids this one depends on."""

    name = "tt.grid_dependency_wait"

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    assembly_format = "attr-dict"
