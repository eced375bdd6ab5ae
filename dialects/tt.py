"""The ``tt`` dialect (Triton 3.9's ``TritonOps.td``) for xDSL.

Types first (``!tt.ptr``, ``!tt.tensordesc``), then enum and cache-policy
attributes, then helpers other dialects reuse, then the ops, then the ``TT``
dialect object. Every op prints exactly as Triton 3.9 prints it (checked against
Triton itself in ``tests/test_dialect_tt.py``). ``tt.reduce``, ``tt.scan`` and
``tt.map_elementwise`` have no custom syntax in Triton: they print in the generic
form, so they define no ``assembly_format``.

Attribute dictionaries: Triton prints ``{...}`` sorted by name. xDSL prints them
in insertion order, which is the text order for parsed ops; the builders here
insert properties in sorted order so that built ops print the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    I32,
    I64,
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DictionaryAttr,
    FlatSymbolRefAttrConstr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    i1,
    i32,
)
from xdsl.dialects.utils import (
    EnumAttribute,
    parse_func_op_like,
    print_func_op_like,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    CallableOpInterface,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoMemoryEffect,
    Pure,
    ReturnLike,
    SymbolOpInterface,
    SymbolTable,
    SymbolUserOpInterface,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa
from xdsl.utils.str_enum import StrEnum

# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------


@irdl_attr_definition
class PtrType(ParametrizedAttribute, TypeAttribute):
    """A pointer: ``!tt.ptr<f16>``, ``!tt.ptr<i32, "constant">``.

    Triton 3.9 names the address space with a string, ``"global"`` (the default,
    never printed) or ``"constant"``; the old integer form (``!tt.ptr<f16, 1>``)
    is rejected, as Triton rejects it. The pointee is an integer or float type.
    """

    name = "tt.ptr"

    pointee_type: Attribute
    address_space: StringAttr

    ADDRESS_SPACES: ClassVar[tuple[str, ...]] = ("global", "constant")
    DEFAULT_ADDRESS_SPACE: ClassVar[str] = "global"

    def __init__(self, pointee_type: Attribute, address_space: str | StringAttr = "global"):
        if isinstance(address_space, str):
            address_space = StringAttr(address_space)
        super().__init__(pointee_type, address_space)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            pointee = parser.parse_type()
            space = cls.DEFAULT_ADDRESS_SPACE
            if parser.parse_optional_punctuation(",") is not None:
                pos = parser.pos
                space = parser.parse_str_literal(" for the pointer address space")
                if space not in cls.ADDRESS_SPACES:
                    parser.raise_error(f"invalid pointer address space '{space}'", pos, parser.pos)
        return [pointee, StringAttr(space)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.pointee_type)
            if self.address_space.data != self.DEFAULT_ADDRESS_SPACE:
                printer.print_string(", ")
                printer.print_string_literal(self.address_space.data)

    def verify(self) -> None:
        if not is_scalar_element_type(self.pointee_type):
            raise VerifyException("pointer types must point to integer or floating-point types")
        if self.address_space.data not in self.ADDRESS_SPACES:
            raise VerifyException(f"invalid pointer address space '{self.address_space.data}'")


@irdl_attr_definition
class TensorDescType(ParametrizedAttribute, TypeAttribute):
    """A TMA tensor descriptor: ``!tt.tensordesc<128x64xf16>``, ``!tt.tensordesc<128x64xf16, #shared>``.

    The single parameter is the block type (``tensor<128x64xf16, #shared>``): the
    shape and element type of one block, and optionally its shared-memory layout.
    Triton 3.9 prints the block's shape and element type directly (no ``tensor<>``).
    """

    name = "tt.tensordesc"

    block_type: TensorType

    def __init__(self, block_type: TensorType):
        super().__init__(block_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            if parser.parse_optional_characters("tensor") is not None:
                parser.raise_error(
                    "tensor descriptors must not wrap tensor types; use "
                    "!tt.tensordesc<shape x element-type[, layout]> instead"
                )
            shape, element_type = parser.parse_ranked_shape()
            encoding: Attribute = NoneAttr()
            if parser.parse_optional_punctuation(",") is not None:
                encoding = parser.parse_attribute()
        return [TensorType(element_type, shape, encoding)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.print_body(printer)

    def print_body(self, printer: Printer) -> None:
        """``128x64xf16[, #layout]``: what goes between the angle brackets."""
        for dim in self.block_type.get_shape():
            printer.print_string(f"{dim}x")
        printer.print_attribute(self.block_type.element_type)
        if not isinstance(self.block_type.encoding, NoneAttr):
            printer.print_string(", ")
            printer.print_attribute(self.block_type.encoding)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.block_type.get_shape()

    @property
    def element_type(self) -> Attribute:
        return self.block_type.element_type

    @property
    def encoding(self) -> Attribute:
        return self.block_type.encoding


# ---------------------------------------------------------------------------
# Enums (printed as bare keywords, as Triton prints them)
# ---------------------------------------------------------------------------


class ProgramIDDim(StrEnum):
    X = "x"
    Y = "y"
    Z = "z"


class RoundingMode(StrEnum):
    RTZ = "rtz"
    RTNE = "rtne"


class PropagateNan(StrEnum):
    NONE = "none"
    ALL = "all"


class InputPrecision(StrEnum):
    TF32 = "tf32"
    TF32x3 = "tf32x3"
    IEEE = "ieee"
    BF16x3 = "bf16x3"
    BF16x6 = "bf16x6"


class RMWOp(StrEnum):
    AND = "and"
    OR = "or"
    XOR = "xor"
    ADD = "add"
    FADD = "fadd"
    MAX = "max"
    MIN = "min"
    UMAX = "umax"
    UMIN = "umin"
    XCHG = "exch"


class MemSemantic(StrEnum):
    RELAXED = "relaxed"
    ACQUIRE = "acquire"
    RELEASE = "release"
    ACQUIRE_RELEASE = "acq_rel"


class MemSyncScope(StrEnum):
    GPU = "gpu"
    CTA = "cta"
    SYSTEM = "sys"


class CacheModifier(StrEnum):
    NONE = "none"
    CA = "ca"
    CG = "cg"
    WB = "wb"
    CS = "cs"
    WT = "wt"
    CV = "cv"


class EvictionPolicy(StrEnum):
    NORMAL = "evict_normal"
    EVICT_FIRST = "evict_first"
    EVICT_LAST = "evict_last"


@irdl_attr_definition
class ProgramIDDimAttr(EnumAttribute[ProgramIDDim], SpacedOpaqueSyntaxAttribute):
    """The grid axis of ``tt.get_program_id`` / ``tt.get_num_programs``: ``x``, ``y``, ``z``."""

    name = "tt.program_id_dim"


@irdl_attr_definition
class RoundingModeAttr(EnumAttribute[RoundingMode], SpacedOpaqueSyntaxAttribute):
    """Rounding of ``tt.fp_to_fp``: ``rtz`` or ``rtne``."""

    name = "tt.rounding_mode"


@irdl_attr_definition
class PropagateNanAttr(EnumAttribute[PropagateNan], SpacedOpaqueSyntaxAttribute):
    """NaN handling of ``tt.clampf``: ``none`` or ``all``."""

    name = "tt.propagate_nan"


@irdl_attr_definition
class InputPrecisionAttr(EnumAttribute[InputPrecision], SpacedOpaqueSyntaxAttribute):
    """How ``tt.dot`` multiplies f32 inputs: ``tf32``, ``tf32x3``, ``ieee``, ``bf16x3``, ``bf16x6``."""

    name = "tt.input_precision"


@irdl_attr_definition
class RMWOpAttr(EnumAttribute[RMWOp], SpacedOpaqueSyntaxAttribute):
    """The operation of ``tt.atomic_rmw``: ``add``, ``fadd``, ``max``, ``exch``, ..."""

    name = "tt.rmw_op"


@irdl_attr_definition
class MemSemanticAttr(EnumAttribute[MemSemantic], SpacedOpaqueSyntaxAttribute):
    """Memory ordering of an atomic: ``relaxed``, ``acquire``, ``release``, ``acq_rel``."""

    name = "tt.mem_semantic"


@irdl_attr_definition
class MemSyncScopeAttr(EnumAttribute[MemSyncScope], SpacedOpaqueSyntaxAttribute):
    """Scope of an atomic: ``gpu``, ``cta``, ``sys``."""

    name = "tt.mem_sync_scope"


@irdl_attr_definition
class CachePolicyAttr(ParametrizedAttribute):
    """``#tt.cache_policy<cache_modifier = ca, eviction_policy = evict_last>``.

    Triton 3.9 keeps a load's or store's cache modifier and eviction policy in
    one ``cachePolicy`` attribute (in the op's attribute dictionary). Both keys
    are required; they may be written in either order and print in this one.
    """

    name = "tt.cache_policy"

    cache_modifier: StringAttr
    eviction_policy: StringAttr

    KEYS: ClassVar[tuple[str, str]] = ("cache_modifier", "eviction_policy")

    def __init__(
        self,
        cache_modifier: CacheModifier | str = CacheModifier.NONE,
        eviction_policy: EvictionPolicy | str = EvictionPolicy.NORMAL,
    ):
        super().__init__(StringAttr(str(cache_modifier)), StringAttr(str(eviction_policy)))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values: dict[str, str] = {}
        enums: dict[str, type[StrEnum]] = {"cache_modifier": CacheModifier, "eviction_policy": EvictionPolicy}

        def parse_entry() -> None:
            pos = parser.pos
            key = parser.parse_identifier()
            if key not in enums or key in values:
                parser.raise_error(f"expected 'cache_modifier' or 'eviction_policy', got '{key}'", pos, parser.pos)
            parser.parse_punctuation("=")
            pos = parser.pos
            word = parser.parse_identifier()
            allowed = [e.value for e in enums[key]]
            if word not in allowed:
                parser.raise_error(f"expected {key} to be one of: {', '.join(allowed)}", pos, parser.pos)
            values[key] = word

        with parser.in_angle_brackets():
            parse_entry()
            parser.parse_punctuation(",")
            parse_entry()
        return [StringAttr(values[k]) for k in cls.KEYS]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            f"<cache_modifier = {self.cache_modifier.data}, eviction_policy = {self.eviction_policy.data}>"
        )

    def verify(self) -> None:
        if self.cache_modifier.data not in {e.value for e in CacheModifier}:
            raise VerifyException(f"unknown cache modifier '{self.cache_modifier.data}'")
        if self.eviction_policy.data not in {e.value for e in EvictionPolicy}:
            raise VerifyException(f"unknown eviction policy '{self.eviction_policy.data}'")


# ---------------------------------------------------------------------------
# Helpers shared with other dialects
# ---------------------------------------------------------------------------


def is_scalar_element_type(attr: Attribute) -> bool:
    """True for the integer and float types (what a ``!tt.ptr`` may point to)."""
    return isinstance(attr, IntegerType) or isa(attr, AnyFloat)


def is_float_type(attr: Attribute) -> bool:
    return isa(attr, AnyFloat)


def element_type_of(attr: Attribute) -> Attribute:
    """The element type of a tensor type, or the type itself for a scalar."""
    if isinstance(attr, TensorType):
        return attr.element_type
    return attr


def pointee_type_of(attr: Attribute) -> Attribute | None:
    """The pointee of ``!tt.ptr<T>`` or ``tensor<..x!tt.ptr<T>>``; None for anything else."""
    elem = element_type_of(attr)
    if isinstance(elem, PtrType):
        return elem.pointee_type
    return None


def is_ptr_like(attr: Attribute) -> bool:
    """True for ``!tt.ptr<T>`` and tensors of ``!tt.ptr<T>``."""
    return isinstance(element_type_of(attr), PtrType)


def shape_of(attr: Attribute) -> tuple[int, ...]:
    """The shape of a tensor type; ``()`` for a scalar."""
    if isinstance(attr, TensorType):
        return attr.get_shape()
    return ()


def encoding_of(attr: Attribute) -> Attribute | None:
    """The layout of a tensor type (None if it has none, or for a scalar)."""
    if isinstance(attr, TensorType) and not isinstance(attr.encoding, NoneAttr):
        return attr.encoding
    return None


def with_element_type(attr: Attribute, element_type: Attribute) -> Attribute:
    """``attr`` with its element type replaced: same shape and layout for a tensor."""
    if isinstance(attr, TensorType):
        return TensorType(element_type, attr.get_shape(), attr.encoding)
    return element_type


def pointee_value_type(ptr_type: Attribute) -> Attribute:
    """The type a load through ``ptr_type`` yields (``getPointeeType`` in Triton):
    ``tensor<4x!tt.ptr<f16>, #l>`` -> ``tensor<4xf16, #l>``, ``!tt.ptr<f16>`` -> ``f16``."""
    pointee = pointee_type_of(ptr_type)
    if pointee is None:
        return ptr_type
    return with_element_type(ptr_type, pointee)


def i1_like(attr: Attribute) -> Attribute:
    """``i1`` with the shape and layout of ``attr`` (``getI1SameShape`` in Triton)."""
    return with_element_type(attr, i1)


def type_text(attr: Attribute) -> str:
    """An attribute or type as xDSL prints it, for error messages."""
    return str(attr)


def _int_width(attr: Attribute) -> int | None:
    elem = element_type_of(attr)
    return elem.width.data if isinstance(elem, IntegerType) else None


def element_bit_width(attr: Attribute) -> int | None:
    """Bit width of the element type (pointers count as 64 bits)."""
    elem = element_type_of(attr)
    if isinstance(elem, PtrType):
        return 64
    if isinstance(elem, IntegerType):
        return elem.width.data
    if is_float_type(elem):
        return elem.bitwidth  # type: ignore[attr-defined]
    return None


def _check_same_shape_and_encoding(op: Operation, types: Sequence[Attribute], what: str) -> None:
    """Triton's SameOperandsAndResultShape + SameOperandsAndResultEncoding."""
    shapes = {shape_of(t) for t in types}
    if len(shapes) > 1:
        raise VerifyException(f"'{op.name}' op requires the same shape for all {what}")
    encodings = {encoding_of(t) for t in types}
    if len(encodings) > 1:
        raise VerifyException(f"'{op.name}' op requires the same encoding for all {what}")


def _is_tensor(attr: Attribute) -> bool:
    return isinstance(attr, TensorType)


def _require_tensor(op: Operation, attr: Attribute, what: str) -> TensorType:
    if not isinstance(attr, TensorType):
        raise VerifyException(f"'{op.name}' op {what} must be a ranked tensor, got {type_text(attr)}")
    return attr


def _parse_operand_list_in_brackets(parser: Parser) -> list[UnresolvedOperand]:
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)


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
        if self.arg_attrs is not None and len(self.arg_attrs) != len(self.function_type.inputs):
            raise VerifyException("'tt.func' op expects one argument attribute dictionary per argument")
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
# Casts and elementwise arithmetic
# ---------------------------------------------------------------------------


class _CastOp(IRDLOperation):
    """Shared code of the one-operand casts printed ``$src attr-dict : T -> R``."""

    src = operand_def()
    result = result_def()

    traits = traits_def(Pure())

    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        _check_same_shape_and_encoding(self, (self.src.type, self.result.type), "operands and results")
        self.verify_elements(element_type_of(self.src.type), element_type_of(self.result.type))

    def verify_elements(self, src: Attribute, result: Attribute) -> None:
        raise NotImplementedError


@irdl_op_definition
class IntToPtrOp(_CastOp):
    """``%p = tt.int_to_ptr %x : i64 -> !tt.ptr<f32>`` (elementwise on tensors)."""

    name = "tt.int_to_ptr"

    def verify_elements(self, src: Attribute, result: Attribute) -> None:
        if src != IntegerType(64):
            raise VerifyException(f"'tt.int_to_ptr' op operand must be i64 or a tensor of i64, got {type_text(self.src.type)}")
        if not isinstance(result, PtrType):
            raise VerifyException(f"'tt.int_to_ptr' op result must be a pointer or a tensor of pointers, got {type_text(self.result.type)}")


@irdl_op_definition
class PtrToIntOp(_CastOp):
    """``%x = tt.ptr_to_int %p : tensor<128x!tt.ptr<f32>> -> tensor<128xi64>``."""

    name = "tt.ptr_to_int"

    def verify_elements(self, src: Attribute, result: Attribute) -> None:
        if not isinstance(src, PtrType):
            raise VerifyException(f"'tt.ptr_to_int' op operand must be a pointer or a tensor of pointers, got {type_text(self.src.type)}")
        if result != IntegerType(64):
            raise VerifyException(f"'tt.ptr_to_int' op result must be i64 or a tensor of i64, got {type_text(self.result.type)}")


@irdl_op_definition
class BitcastOp(_CastOp):
    """``%b = tt.bitcast %x : tensor<128xf32> -> tensor<128xi32>``: same bit width, pointers are 64 bits."""

    name = "tt.bitcast"

    def verify_elements(self, src: Attribute, result: Attribute) -> None:
        src_bits, dst_bits = element_bit_width(src), element_bit_width(result)
        if src_bits is None or dst_bits is None:
            raise VerifyException("'tt.bitcast' op operand and result must be integers, floats or pointers")
        if src_bits != dst_bits:
            raise VerifyException("'tt.bitcast' op Cannot bitcast data-type of size " f"{src_bits} to data-type of size {dst_bits}")


@irdl_op_definition
class FpToFpOp(IRDLOperation):
    """``%y = tt.fp_to_fp %x, rounding = rtne : tensor<128xf32> -> tensor<128xf8E5M2>``.

    Floating-point conversion with an explicit rounding mode; a downcast needs one.
    """

    name = "tt.fp_to_fp"

    src = operand_def()
    rounding = opt_prop_def(RoundingModeAttr)
    result = result_def()

    traits = traits_def(Pure())

    assembly_format = "$src attr-dict (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue | Operation, result_type: Attribute, rounding: RoundingMode | None = None):
        super().__init__(
            operands=[src],
            result_types=[result_type],
            properties={"rounding": RoundingModeAttr(rounding) if rounding else None},
        )

    def verify_(self) -> None:
        _check_same_shape_and_encoding(self, (self.src.type, self.result.type), "operands and results")
        src, dst = element_type_of(self.src.type), element_type_of(self.result.type)
        if not is_float_type(src) or not is_float_type(dst):
            raise VerifyException("'tt.fp_to_fp' op operand and result must be floating-point types")
        src_bits, dst_bits = element_bit_width(src), element_bit_width(dst)
        assert src_bits is not None and dst_bits is not None
        if dst_bits < src_bits and self.rounding is None:
            raise VerifyException("'tt.fp_to_fp' op Rounding mode is required for FP downcast")


class _SameTypeElementwiseOp(IRDLOperation):
    """Shared code of the float/int ops whose operands and result share one type."""

    T: ClassVar = VarConstraint("T", AnyAttr())

    traits = traits_def(Pure())

    ELEMENT_KIND: ClassVar[str] = "float"

    def verify_(self) -> None:
        elem = element_type_of(self.result_types[0])
        ok = is_float_type(elem) if self.ELEMENT_KIND == "float" else isinstance(elem, IntegerType)
        if not ok:
            kind = "floating-point" if self.ELEMENT_KIND == "float" else "integer"
            raise VerifyException(f"'{self.name}' op operands must be {kind} scalars or tensors, got {type_text(self.result_types[0])}")


@irdl_op_definition
class ClampFOp(_SameTypeElementwiseOp):
    """``%y = tt.clampf %x, %lo, %hi, propagateNan = all : tensor<128xf32>``."""

    name = "tt.clampf"

    x = operand_def(_SameTypeElementwiseOp.T)
    min = operand_def(_SameTypeElementwiseOp.T)
    max = operand_def(_SameTypeElementwiseOp.T)
    propagateNan = prop_def(PropagateNanAttr)
    result = result_def(_SameTypeElementwiseOp.T)

    assembly_format = "$x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)"

    def __init__(self, x: SSAValue, lo: SSAValue, hi: SSAValue, propagate_nan: PropagateNan = PropagateNan.NONE):
        super().__init__(operands=[x, lo, hi], result_types=[x.type], properties={"propagateNan": PropagateNanAttr(propagate_nan)})


@irdl_op_definition
class PreciseSqrtOp(_SameTypeElementwiseOp):
    """``%y = tt.precise_sqrt %x : tensor<128xf32>`` (correctly rounded)."""

    name = "tt.precise_sqrt"

    x = operand_def(_SameTypeElementwiseOp.T)
    result = result_def(_SameTypeElementwiseOp.T)

    assembly_format = "$x attr-dict `:` type($x)"

    def __init__(self, x: SSAValue):
        super().__init__(operands=[x], result_types=[x.type])


@irdl_op_definition
class PreciseDivFOp(_SameTypeElementwiseOp):
    """``%z = tt.precise_divf %x, %y : tensor<128xf32>`` (correctly rounded)."""

    name = "tt.precise_divf"

    x = operand_def(_SameTypeElementwiseOp.T)
    y = operand_def(_SameTypeElementwiseOp.T)
    result = result_def(_SameTypeElementwiseOp.T)

    assembly_format = "$x `,` $y attr-dict `:` type($x)"

    def __init__(self, x: SSAValue, y: SSAValue):
        super().__init__(operands=[x, y], result_types=[x.type])


@irdl_op_definition
class ApproxDivFOp(_SameTypeElementwiseOp):
    """``%z = tt.approx_divf %x, %y : f32`` (fast, approximate division)."""

    name = "tt.approx_divf"

    x = operand_def(_SameTypeElementwiseOp.T)
    y = operand_def(_SameTypeElementwiseOp.T)
    result = result_def(_SameTypeElementwiseOp.T)

    assembly_format = "$x `,` $y attr-dict `:` type($x)"


@irdl_op_definition
class MulhiUIOp(_SameTypeElementwiseOp):
    """``%z = tt.mulhiui %x, %y : tensor<128xi32>``: high half of the unsigned product."""

    name = "tt.mulhiui"

    ELEMENT_KIND: ClassVar[str] = "int"

    x = operand_def(_SameTypeElementwiseOp.T)
    y = operand_def(_SameTypeElementwiseOp.T)
    result = result_def(_SameTypeElementwiseOp.T)

    assembly_format = "$x `,` $y attr-dict `:` type($x)"

    def __init__(self, x: SSAValue, y: SSAValue):
        super().__init__(operands=[x, y], result_types=[x.type])


@irdl_op_definition
class ExternElementwiseOp(IRDLOperation):
    """A call to a libdevice-style function, elementwise:

    ``%e = tt.extern_elementwise %a, %b {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>``
    """

    name = "tt.extern_elementwise"

    srcs = var_operand_def()
    libname = prop_def(StringAttr)
    libpath = prop_def(StringAttr)
    pure = prop_def(BoolAttr)
    symbol = prop_def(StringAttr)
    result = result_def()

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = "$srcs attr-dict `:` functional-type($srcs, $result)"

    def verify_(self) -> None:
        _check_same_shape_and_encoding(self, [*(v.type for v in self.srcs), self.result.type], "operands and results")


@irdl_op_definition
class ElementwiseInlineAsmOp(IRDLOperation):
    """Inline PTX applied elementwise:

    ``%s = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<128xi32> -> tensor<128xi32>``
    """

    name = "tt.elementwise_inline_asm"

    asm_string = prop_def(StringAttr)
    constraints = prop_def(StringAttr)
    packed_element = prop_def(IntegerAttr[I32])
    pure = prop_def(BoolAttr)
    args = var_operand_def()
    result = var_result_def()

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = "$asm_string attr-dict ($args^ `:` type($args))? `->` type($result)"

    def verify_(self) -> None:
        types = [*(v.type for v in self.args), *self.result.types]
        if any(_is_tensor(t) for t in self.result.types) and not any(_is_tensor(v.type) for v in self.args):
            raise VerifyException(
                "'tt.elementwise_inline_asm' op if a result is non-scalar, then at least one operand must be non-scalar"
            )
        tensor_types = [t for t in types if _is_tensor(t)]
        _check_same_shape_and_encoding(self, tensor_types, "tensor operands and results")


# ---------------------------------------------------------------------------
# Pointers, loads, stores, atomics
# ---------------------------------------------------------------------------


@irdl_op_definition
class AddPtrOp(IRDLOperation):
    """``%q = tt.addptr %p, %off : tensor<128x!tt.ptr<f32>>, tensor<128xi32>``: ``p + off * sizeof(pointee)``."""

    name = "tt.addptr"

    T: ClassVar = VarConstraint("T", AnyAttr())

    ptr = operand_def(T)
    offset = operand_def()
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)"

    def __init__(self, ptr: SSAValue, offset: SSAValue):
        super().__init__(operands=[ptr, offset], result_types=[ptr.type])

    def verify_(self) -> None:
        if not is_ptr_like(self.ptr.type):
            raise VerifyException(f"'tt.addptr' op ptr must be a pointer or a tensor of pointers, got {type_text(self.ptr.type)}")
        if not isinstance(element_type_of(self.offset.type), IntegerType):
            raise VerifyException(f"'tt.addptr' op offset must be an integer or a tensor of integers, got {type_text(self.offset.type)}")
        _check_same_shape_and_encoding(self, (self.ptr.type, self.offset.type, self.result.type), "operands and results")


def _check_load_store_types(op: Operation, ptr: Attribute, value: Attribute | None, mask: Attribute | None, value_name: str) -> None:
    """Triton's TypesMatchWith checks of tt.load / tt.store: value and mask types follow the pointer."""
    if not is_ptr_like(ptr):
        raise VerifyException(f"'{op.name}' op ptr must be a pointer or a tensor of pointers, got {type_text(ptr)}")
    expected = pointee_value_type(ptr)
    if value is not None and value != expected:
        raise VerifyException(
            f"'{op.name}' op {value_name} type {type_text(value)} does not match the pointee type {type_text(expected)}"
        )
    if mask is not None and mask != i1_like(ptr):
        raise VerifyException(f"'{op.name}' op mask type {type_text(mask)} does not match {type_text(i1_like(ptr))}")


def _parse_attr_dict_into(parser: Parser) -> dict[str, Attribute]:
    attrs = parser.parse_optional_attr_dict()
    return dict(attrs)


def _print_attr_dict(printer: Printer, attrs: dict[str, Attribute]) -> None:
    printer.print_op_attributes(attrs)


@irdl_op_definition
class LoadOp(IRDLOperation):
    """Load through a pointer or a tensor of pointers.

    ``%x = tt.load %p, %mask, %other {cachePolicy = #tt.cache_policy<cache_modifier = ca, eviction_policy = evict_normal>, isVolatile = true} : tensor<128x!tt.ptr<f32>>``

    Only the pointer type is written; the result and ``other`` have the pointee
    type with the pointer's shape, the mask is ``i1`` of that shape.
    """

    name = "tt.load"

    ptr = operand_def()
    mask = opt_operand_def()
    other = opt_operand_def()
    cachePolicy = opt_prop_def(CachePolicyAttr)
    isVolatile = opt_prop_def(BoolAttr)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    traits = traits_def(MemoryReadEffect())

    PROPS: ClassVar[tuple[str, ...]] = ("cachePolicy", "isVolatile")

    def __init__(
        self,
        ptr: SSAValue,
        mask: SSAValue | None = None,
        other: SSAValue | None = None,
        cache_policy: CachePolicyAttr | None = None,
        is_volatile: bool = False,
    ):
        super().__init__(
            operands=[ptr, [mask] if mask else [], [other] if other else []],
            result_types=[pointee_value_type(ptr.type)],
            properties={"cachePolicy": cache_policy, "isVolatile": BoolAttr.from_bool(True) if is_volatile else None},
        )

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        if len(operands) > 3:
            parser.raise_error("'tt.load' takes at most three operands (ptr, mask, other)")
        attrs = _parse_attr_dict_into(parser)
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        types = [ptr_type, i1_like(ptr_type), pointee_value_type(ptr_type)][: len(operands)]
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, types)]
        props = {k: attrs.pop(k) for k in cls.PROPS if k in attrs}
        if props.get("isVolatile") == BoolAttr.from_bool(False):
            del props["isVolatile"]
        segments = [1, int(len(values) > 1), int(len(values) > 2)]
        props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, segments)
        return cls.create(
            operands=values,
            result_types=[pointee_value_type(ptr_type)],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.ptr, *( [self.mask] if self.mask else []), *([self.other] if self.other else [])], printer.print_operand)
        attrs = {k: v for k, v in self.properties.items() if k in self.PROPS}
        if attrs.get("isVolatile") == BoolAttr.from_bool(False):
            del attrs["isVolatile"]
        _print_attr_dict(printer, self.attributes | attrs)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)

    def verify_(self) -> None:
        if self.other is not None and self.mask is None:
            raise VerifyException("'tt.load' op other requires a mask")
        _check_load_store_types(self, self.ptr.type, self.result.type, self.mask.type if self.mask else None, "result")
        if self.other is not None and self.other.type != self.result.type:
            raise VerifyException(
                f"'tt.load' op other type {type_text(self.other.type)} does not match the result type {type_text(self.result.type)}"
            )
        if self.cachePolicy is not None and self.cachePolicy.cache_modifier.data in ("wb", "cs", "wt"):
            raise VerifyException(
                f"'tt.load' op invalid cache policy: cache modifier '{self.cachePolicy.cache_modifier.data}' is not supported for loads"
            )


@irdl_op_definition
class StoreOp(IRDLOperation):
    """Store through a pointer or a tensor of pointers.

    ``tt.store %p, %v, %mask {cachePolicy = #tt.cache_policy<cache_modifier = wb, eviction_policy = evict_normal>} : tensor<128x!tt.ptr<f32>>``
    """

    name = "tt.store"

    ptr = operand_def()
    value = operand_def()
    mask = opt_operand_def()
    cachePolicy = opt_prop_def(CachePolicyAttr)

    traits = traits_def(MemoryWriteEffect())

    PROPS: ClassVar[tuple[str, ...]] = ("cachePolicy",)

    def __init__(self, ptr: SSAValue, value: SSAValue, mask: SSAValue | None = None, cache_policy: CachePolicyAttr | None = None):
        super().__init__(operands=[ptr, value, [mask] if mask else []], properties={"cachePolicy": cache_policy})

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        if len(operands) not in (2, 3):
            parser.raise_error("'tt.store' takes two or three operands (ptr, value, mask)")
        attrs = _parse_attr_dict_into(parser)
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        types = [ptr_type, pointee_value_type(ptr_type), i1_like(ptr_type)][: len(operands)]
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, types)]
        props = {k: attrs.pop(k) for k in cls.PROPS if k in attrs}
        return cls.create(operands=values, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.ptr, self.value, *([self.mask] if self.mask else [])], printer.print_operand)
        attrs = {k: v for k, v in self.properties.items() if k in self.PROPS}
        _print_attr_dict(printer, self.attributes | attrs)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)

    def verify_(self) -> None:
        _check_load_store_types(self, self.ptr.type, self.value.type, self.mask.type if self.mask else None, "value")
        if self.cachePolicy is not None and self.cachePolicy.cache_modifier.data in ("ca", "cg", "cv"):
            raise VerifyException(
                f"'tt.store' op invalid cache policy: cache modifier '{self.cachePolicy.cache_modifier.data}' is not supported for stores"
            )


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """``%old = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %mask : (tensor<256x!tt.ptr<f32>>, tensor<256xf32>, tensor<256xi1>) -> tensor<256xf32>``."""

    name = "tt.atomic_rmw"

    atomic_rmw_op = prop_def(RMWOpAttr)
    sem = prop_def(MemSemanticAttr)
    scope = prop_def(MemSyncScopeAttr)
    ptr = operand_def()
    val = operand_def()
    mask = opt_operand_def()
    result = result_def()

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    assembly_format = (
        "$atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:` "
        "functional-type(operands, $result)"
    )

    def verify_(self) -> None:
        _check_load_store_types(self, self.ptr.type, self.val.type, self.mask.type if self.mask else None, "value")
        if self.result.type != self.val.type:
            raise VerifyException(
                f"'tt.atomic_rmw' op result type {type_text(self.result.type)} does not match the value type {type_text(self.val.type)}"
            )


@irdl_op_definition
class AtomicCASOp(IRDLOperation):
    """``%old = tt.atomic_cas acq_rel, gpu, %p, %cmp, %v : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>``."""

    name = "tt.atomic_cas"

    sem = prop_def(MemSemanticAttr)
    scope = prop_def(MemSyncScopeAttr)
    ptr = operand_def()
    cmp = operand_def()
    val = operand_def()
    result = result_def()

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    assembly_format = "$sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:` functional-type(operands, $result)"

    def verify_(self) -> None:
        _check_load_store_types(self, self.ptr.type, self.val.type, None, "value")
        for name, t in (("cmp", self.cmp.type), ("result", self.result.type)):
            if t != self.val.type:
                raise VerifyException(
                    f"'tt.atomic_cas' op {name} type {type_text(t)} does not match the value type {type_text(self.val.type)}"
                )


@irdl_op_definition
class AtomicLoadOp(IRDLOperation):
    """``%v = tt.atomic_load acquire, gpu, %p, %mask : (tensor<128x!tt.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>``."""

    name = "tt.atomic_load"

    sem = prop_def(MemSemanticAttr)
    scope = prop_def(MemSyncScopeAttr)
    ptr = operand_def()
    mask = opt_operand_def()
    result = result_def()

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    assembly_format = "$sem `,` $scope `,` $ptr (`,` $mask^)? attr-dict `:` functional-type(operands, $result)"

    def verify_(self) -> None:
        _check_load_store_types(self, self.ptr.type, self.result.type, self.mask.type if self.mask else None, "result")


@irdl_op_definition
class AtomicStoreOp(IRDLOperation):
    """``tt.atomic_store release, sys, %p, %v, %mask : tensor<128x!tt.ptr<f32>>`` (value and mask types follow the pointer)."""

    name = "tt.atomic_store"

    sem = prop_def(MemSemanticAttr)
    scope = prop_def(MemSyncScopeAttr)
    ptr = operand_def()
    val = operand_def()
    mask = opt_operand_def()

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    @classmethod
    def parse(cls, parser: Parser) -> AtomicStoreOp:
        sem = MemSemanticAttr(MemSemanticAttr.parse_parameter(parser))
        parser.parse_punctuation(",")
        scope = MemSyncScopeAttr(MemSyncScopeAttr.parse_parameter(parser))
        parser.parse_punctuation(",")
        operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        if len(operands) not in (2, 3):
            parser.raise_error("'tt.atomic_store' takes two or three operands (ptr, value, mask)")
        attrs = _parse_attr_dict_into(parser)
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        types = [ptr_type, pointee_value_type(ptr_type), i1_like(ptr_type)]
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, types)]
        return cls.create(operands=values, properties={"sem": sem, "scope": scope}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.sem.data.value}, {self.scope.data.value}, ")
        printer.print_list(self.operands, printer.print_operand)
        _print_attr_dict(printer, dict(self.attributes))
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)

    def verify_(self) -> None:
        _check_load_store_types(self, self.ptr.type, self.val.type, self.mask.type if self.mask else None, "value")


@irdl_op_definition
class AtomicPollOp(IRDLOperation):
    """``%done = tt.atomic_poll acquire, gpu, %p, %cmp : !tt.ptr<i32>, i32 -> i1``: whether ``*p == cmp``."""

    name = "tt.atomic_poll"

    sem = prop_def(MemSemanticAttr)
    scope = prop_def(MemSyncScopeAttr)
    ptr = operand_def()
    cmp = operand_def()
    result = result_def()

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    assembly_format = "$sem `,` $scope `,` $ptr `,` $cmp attr-dict `:` type($ptr) `,` type($cmp) `->` type($result)"

    def verify_(self) -> None:
        _check_load_store_types(self, self.ptr.type, self.cmp.type, None, "cmp")
        if self.result.type != i1_like(self.ptr.type):
            raise VerifyException(f"'tt.atomic_poll' op result type must be {type_text(i1_like(self.ptr.type))}")


# ---------------------------------------------------------------------------
# Program ids and ranges
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


@irdl_op_definition
class MakeRangeOp(IRDLOperation):
    """``%r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>``: start, ..., end - 1."""

    name = "tt.make_range"

    end = prop_def(IntegerAttr[I32])
    start = prop_def(IntegerAttr[I32])
    result = result_def(TensorType)

    traits = traits_def(Pure())

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, start: int, end: int, result_type: TensorType | None = None):
        if result_type is None:
            result_type = TensorType(i32, [end - start])
        super().__init__(
            result_types=[result_type],
            properties={"end": IntegerAttr(end, i32), "start": IntegerAttr(start, i32)},
        )

    def verify_(self) -> None:
        start, end = self.start.value.data, self.end.value.data
        ty = self.result.type
        assert isinstance(ty, TensorType)
        if len(ty.get_shape()) != 1:
            raise VerifyException("'tt.make_range' op result must be a 1D tensor")
        if start >= end:
            raise VerifyException("'tt.make_range' op start must be less than end")
        if ty.get_shape()[0] != end - start:
            raise VerifyException("'tt.make_range' op number of elements in returned tensor, "
                                  f"{ty.get_shape()[0]}, must match size of range [{start}, {end}), which has {end - start} elements")
        if ty.element_type != i32:
            raise VerifyException(f"'tt.make_range' op returned tensor must have i32 elements, but has {type_text(ty.element_type)}")


# ---------------------------------------------------------------------------
# Shape manipulation
# ---------------------------------------------------------------------------


class _UnaryShapeOp(IRDLOperation):
    """Shared code of ``$src attr-dict : T -> R`` shape ops."""

    src = operand_def()
    result = result_def(TensorType)

    traits = traits_def(Pure())

    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def _check_same_element_type(self) -> None:
        if element_type_of(self.src.type) != element_type_of(self.result.type):
            raise VerifyException(f"'{self.name}' op requires the same element type for all operands and results")


@irdl_op_definition
class SplatOp(_UnaryShapeOp):
    """``%t = tt.splat %x : i32 -> tensor<128xi32>``: a tensor filled with a scalar."""

    name = "tt.splat"

    def __init__(self, src: SSAValue, result_type: TensorType):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        self._check_same_element_type()
        if _is_tensor(self.src.type):
            raise VerifyException(f"'tt.splat' op operand must be a scalar, got {type_text(self.src.type)}")


@irdl_op_definition
class UnsplatOp(IRDLOperation):
    """``%x = tt.unsplat %t : tensor<1x1xf32>``: the only element of a one-element tensor
    (the result type, the element type, is not written)."""

    name = "tt.unsplat"

    src = operand_def(TensorType)
    result = result_def()

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> UnsplatOp:
        operand = parser.parse_unresolved_operand()
        attrs = _parse_attr_dict_into(parser)
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        value = parser.resolve_operand(operand, src_type)
        return cls.create(operands=[value], result_types=[element_type_of(src_type)], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        _print_attr_dict(printer, dict(self.attributes))
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)

    def verify_(self) -> None:
        src = self.src.type
        assert isinstance(src, TensorType)
        if src.element_count() != 1:
            raise VerifyException("'tt.unsplat' op source tensor must have exactly one element")
        if src.element_type != self.result.type:
            raise VerifyException("'tt.unsplat' op result type must be the element type of the source")


@irdl_op_definition
class ExpandDimsOp(_UnaryShapeOp):
    """``%e = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>``: insert a size-1 dim."""

    name = "tt.expand_dims"

    axis = prop_def(IntegerAttr[I32])

    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, src: SSAValue, axis: int, result_type: TensorType):
        super().__init__(operands=[src], result_types=[result_type], properties={"axis": IntegerAttr(axis, i32)})

    def verify_(self) -> None:
        self._check_same_element_type()
        src = _require_tensor(self, self.src.type, "operand")
        res = _require_tensor(self, self.result.type, "result")
        axis = self.axis.value.data
        rank = len(src.get_shape())
        if not 0 <= axis <= rank:
            raise VerifyException(f"'tt.expand_dims' op axis {axis} is out of range for a rank-{rank} operand (must be in [0, {rank}])")
        expected = (*src.get_shape()[:axis], 1, *src.get_shape()[axis:])
        if res.get_shape() != expected:
            raise VerifyException(
                f"'tt.expand_dims' op result shape {list(res.get_shape())} must be the operand shape with a 1 inserted "
                f"at axis {axis}: {list(expected)}"
            )
        _check_slice_relation(self, src, res, axis, "operand", "result")


def _check_slice_relation(op: Operation, sliced: TensorType, full: TensorType, axis: int, sliced_name: str, full_name: str) -> None:
    """When ``full`` has a distributed layout, ``sliced`` must have ``#ttg.slice<{dim = axis, parent = full's}>``."""
    full_enc, sliced_enc = encoding_of(full), encoding_of(sliced)
    if full_enc is None and sliced_enc is None:
        return
    if (full_enc is None) != (sliced_enc is None):
        raise VerifyException(f"'{op.name}' op {sliced_name} and {full_name} must both have a layout or neither")
    from ltc.dialects.ttg_attrs import DistributedLayoutAttr  # noqa: PLC0415 (ttg_attrs imports the core)
    from ltc.encodings.slice import SliceEncoding

    if not isinstance(full_enc, DistributedLayoutAttr) or not isinstance(sliced_enc, DistributedLayoutAttr):
        return
    if full_enc.encoding.rank < 2:
        return
    expected = SliceEncoding(axis, full_enc.encoding)
    if sliced_enc.encoding != expected:
        raise VerifyException(
            f"'{op.name}' op {sliced_name} layout must be {expected.to_text()}, the {full_name} layout sliced along axis {axis}"
        )


@irdl_op_definition
class BroadcastOp(_UnaryShapeOp):
    """``%b = tt.broadcast %e : tensor<1x128xi32> -> tensor<64x128xi32>``: grow size-1 dims."""

    name = "tt.broadcast"

    def __init__(self, src: SSAValue, result_type: TensorType):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        self._check_same_element_type()
        src = _require_tensor(self, self.src.type, "operand")
        res = _require_tensor(self, self.result.type, "result")
        if encoding_of(src) != encoding_of(res):
            raise VerifyException("'tt.broadcast' op requires the same encoding for all operands and results")
        src_shape, res_shape = src.get_shape(), res.get_shape()
        if len(src_shape) != len(res_shape):
            raise VerifyException("'tt.broadcast' op source rank differs from result rank")
        for dim, (s, r) in enumerate(zip(src_shape, res_shape)):
            if s != 1 and s != r:
                raise VerifyException(
                    f"'tt.broadcast' op Different dimensions at index {dim} between source and result.  "
                    "Broadcast requires the source dimension to be 1."
                )


@irdl_op_definition
class ReshapeOp(_UnaryShapeOp):
    """``%r = tt.reshape %t allow_reorder efficient_layout : tensor<128x2xf32> -> tensor<256xf32>``."""

    name = "tt.reshape"

    allow_reorder = opt_prop_def(UnitAttr)
    efficient_layout = opt_prop_def(UnitAttr)

    assembly_format = (
        "$src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)? attr-dict "
        "`:` type($src) `->` type($result)"
    )

    def verify_(self) -> None:
        self._check_same_element_type()
        src = _require_tensor(self, self.src.type, "operand")
        res = _require_tensor(self, self.result.type, "result")
        if src.element_count() != res.element_count():
            raise VerifyException("'tt.reshape' op number of src and dst elements of reshape must be the same")
        if self.allow_reorder is None and (encoding_of(src) is None) != (encoding_of(res) is None):
            raise VerifyException("'tt.reshape' op operand and result must both have a layout or neither")


@irdl_op_definition
class TransOp(_UnaryShapeOp):
    """``%t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x128xi32> -> tensor<128x64xi32>``: permute dims."""

    name = "tt.trans"

    order = prop_def(DenseArrayBase)

    irdl_options = (ParsePropInAttrDict(),)

    def verify_(self) -> None:
        self._check_same_element_type()
        src = _require_tensor(self, self.src.type, "operand")
        res = _require_tensor(self, self.result.type, "result")
        order = list(self.order.get_values())
        rank = len(src.get_shape())
        if self.order.elt_type != i32:
            raise VerifyException("'tt.trans' op order must be an array<i32: ...>")
        if sorted(order) != list(range(rank)):
            raise VerifyException("'tt.trans' op order must be a permutation of [0, ..., rank - 1]")
        expected = tuple(src.get_shape()[i] for i in order)
        if res.get_shape() != expected:
            raise VerifyException(
                f"'tt.trans' op result shape {list(res.get_shape())} must be the operand shape permuted by the order: {list(expected)}"
            )


class _BinaryShapeOp(IRDLOperation):
    """``$lhs, $rhs attr-dict : T -> R`` with both operands of one type."""

    T: ClassVar = VarConstraint("T", AnyAttr())

    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(TensorType)

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"


@irdl_op_definition
class JoinOp(_BinaryShapeOp):
    """``%j = tt.join %a, %b : tensor<128xf32> -> tensor<128x2xf32>``: stack along a new minor dim."""

    name = "tt.join"

    def verify_(self) -> None:
        src = _require_tensor(self, self.lhs.type, "operand")
        res = _require_tensor(self, self.result.type, "result")
        if res.element_type != src.element_type:
            raise VerifyException("'tt.join' op requires the same element type for operands and result")
        if res.get_shape() != (*src.get_shape(), 2):
            expected = ", ".join(str(d) for d in (*src.get_shape(), 2))
            got = ", ".join(str(d) for d in res.get_shape())
            raise VerifyException(f"'tt.join' op result shape must be ({expected}), but got {got}")


@irdl_op_definition
class CatOp(_BinaryShapeOp):
    """``%c = tt.cat %a, %b : tensor<128xf32> -> tensor<256xf32>``: concatenate along dim 0."""

    name = "tt.cat"

    def verify_(self) -> None:
        src = _require_tensor(self, self.lhs.type, "operand")
        res = _require_tensor(self, self.result.type, "result")
        if res.element_type != src.element_type:
            raise VerifyException("'tt.cat' op requires the same element type for all operands and results")
        if len(res.get_shape()) != len(src.get_shape()):
            raise VerifyException("'tt.cat' op result rank must equal the operand rank")
        if res.element_count() != 2 * src.element_count():
            raise VerifyException("'tt.cat' op result must have twice as many elements as each operand")


@irdl_op_definition
class SplitOp(IRDLOperation):
    """``%lo, %hi = tt.split %t : tensor<128x2xf32> -> tensor<128xf32>``: split the trailing size-2 dim."""

    name = "tt.split"

    T: ClassVar = VarConstraint("T", AnyAttr())

    src = operand_def(TensorType)
    outLHS = result_def(T)
    outRHS = result_def(T)

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$src attr-dict `:` type($src) `->` type($outLHS)"

    def verify_(self) -> None:
        src = _require_tensor(self, self.src.type, "operand")
        res = _require_tensor(self, self.outLHS.type, "result")
        shape = src.get_shape()
        if not shape or shape[-1] != 2:
            raise VerifyException(f"'tt.split' op last dimension of input tensor must be 2; got {type_text(src)}")
        if res.element_type != src.element_type or res.get_shape() != shape[:-1]:
            raise VerifyException(
                f"'tt.split' op results must be the operand without its trailing dim: {list(shape[:-1])}x{type_text(src.element_type)}"
            )


@irdl_op_definition
class GatherOp(IRDLOperation):
    """``%g = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<256xf32>, tensor<256xi32>) -> tensor<256xf32>``."""

    name = "tt.gather"

    src = operand_def(TensorType)
    indices = operand_def(TensorType)
    axis = prop_def(IntegerAttr[I32])
    efficient_layout = opt_prop_def(UnitAttr)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = "$src `[` $indices `]` attr-dict `:` functional-type(operands, results)"

    def verify_(self) -> None:
        src = _require_tensor(self, self.src.type, "source")
        idx = _require_tensor(self, self.indices.type, "indices")
        res = _require_tensor(self, self.result.type, "result")
        axis = self.axis.value.data
        rank = len(src.get_shape())
        if res.get_shape() != idx.get_shape():
            raise VerifyException("'tt.gather' op indices and output shapes must match")
        if encoding_of(res) != encoding_of(idx):
            raise VerifyException("'tt.gather' op indices and output encodings must match")
        if res.element_type != src.element_type:
            raise VerifyException("'tt.gather' op input and output element types must match")
        if not isinstance(idx.element_type, IntegerType):
            raise VerifyException("'tt.gather' op indices must be integers")
        if len(idx.get_shape()) != rank:
            raise VerifyException("'tt.gather' op input and indices ranks must match")
        if not 0 <= axis < rank:
            raise VerifyException("'tt.gather' op gather dimension must be less than the input rank")
        for dim in range(rank):
            if dim != axis and idx.get_shape()[dim] != src.get_shape()[dim]:
                raise VerifyException(f"'tt.gather' op indices dimension {dim} must match the corresponding input dimension")


@irdl_op_definition
class HistogramOp(IRDLOperation):
    """``%h = tt.histogram %x[, %mask] : tensor<128xi32> -> tensor<64xi32>``: counts of 0 .. bins-1."""

    name = "tt.histogram"

    src = operand_def(TensorType)
    mask = opt_operand_def()
    result = result_def(TensorType)

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> HistogramOp:
        operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        if len(operands) > 2:
            parser.raise_error("'tt.histogram' takes one or two operands (src, mask)")
        attrs = _parse_attr_dict_into(parser)
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, (src_type, i1_like(src_type)))]
        return cls.create(operands=values, result_types=[result_type], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        _print_attr_dict(printer, dict(self.attributes))
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        src = _require_tensor(self, self.src.type, "operand")
        res = _require_tensor(self, self.result.type, "result")
        if not isinstance(src.element_type, IntegerType) or not isinstance(res.element_type, IntegerType):
            raise VerifyException("'tt.histogram' op operand and result must be integer tensors")
        if len(res.get_shape()) != 1:
            raise VerifyException("'tt.histogram' op result must be a 1D tensor")
        if self.mask is not None and self.mask.type != i1_like(src):
            raise VerifyException(f"'tt.histogram' op mask type must be {type_text(i1_like(src))}")


# ---------------------------------------------------------------------------
# Dot
# ---------------------------------------------------------------------------


@irdl_op_definition
class DotOp(IRDLOperation):
    """``%d = tt.dot %a, %b, %c[, inputPrecision = tf32] : tensor<MxKxf16> * tensor<KxNxf16> -> tensor<MxNxf32>``.

    ``ieee`` (the default) is never printed; ``maxNumImpreciseAcc`` (default 0)
    goes in the attribute dictionary.
    """

    name = "tt.dot"

    a = operand_def(TensorType)
    b = operand_def(TensorType)
    c = operand_def(TensorType)
    inputPrecision = opt_prop_def(InputPrecisionAttr)
    maxNumImpreciseAcc = opt_prop_def(IntegerAttr[I32])
    d = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(self, a: SSAValue, b: SSAValue, c: SSAValue, input_precision: InputPrecision = InputPrecision.IEEE):
        props = {"inputPrecision": InputPrecisionAttr(input_precision) if input_precision != InputPrecision.IEEE else None}
        super().__init__(operands=[a, b, c], result_types=[c.type], properties=props)

    @classmethod
    def parse(cls, parser: Parser) -> DotOp:
        operands = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            operands.append(parser.parse_unresolved_operand())
        props: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("inputPrecision")
            parser.parse_punctuation("=")
            precision = InputPrecisionAttr(InputPrecisionAttr.parse_parameter(parser))
            if precision.data != InputPrecision.IEEE:
                props["inputPrecision"] = precision
        attrs = _parse_attr_dict_into(parser)
        if "maxNumImpreciseAcc" in attrs:
            props["maxNumImpreciseAcc"] = attrs.pop("maxNumImpreciseAcc")
        if "inputPrecision" in attrs:
            parser.raise_error("inputPrecision is written as ', inputPrecision = <mode>' before the attribute dictionary")
        parser.parse_punctuation(":")
        a_type = parser.parse_type()
        parser.parse_punctuation("*")
        b_type = parser.parse_type()
        parser.parse_punctuation("->")
        d_type = parser.parse_type()
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, (a_type, b_type, d_type))]
        return cls.create(operands=values, result_types=[d_type], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        if self.inputPrecision is not None and self.inputPrecision.data != InputPrecision.IEEE:
            printer.print_string(f", inputPrecision = {self.inputPrecision.data.value}")
        attrs = dict(self.attributes)
        if self.maxNumImpreciseAcc is not None and self.maxNumImpreciseAcc.value.data != 0:
            attrs["maxNumImpreciseAcc"] = self.maxNumImpreciseAcc
        _print_attr_dict(printer, attrs)
        printer.print_string(" : ")
        printer.print_attribute(self.a.type)
        printer.print_string(" * ")
        printer.print_attribute(self.b.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.d.type)

    def verify_(self) -> None:
        a, b, c, d = (_require_tensor(self, v.type, n) for v, n in ((self.a, "a"), (self.b, "b"), (self.c, "c"), (self.d, "d")))
        if c != d:
            raise VerifyException("'tt.dot' op result type must match the accumulator type")
        a_shape, b_shape, c_shape = a.get_shape(), b.get_shape(), c.get_shape()
        if not (len(a_shape) == len(b_shape) == len(c_shape)) or len(a_shape) not in (2, 3):
            raise VerifyException("'tt.dot' op expected operands to be 2d or 3d")
        if a_shape[-1] != b_shape[-2]:
            raise VerifyException(
                f"'tt.dot' op the K dims of a ({a_shape[-1]}) and b ({b_shape[-2]}) must be equal"
            )
        expected = (*a_shape[:-1], b_shape[-1])
        if len(a_shape) == 3 and (a_shape[0] != b_shape[0]):
            raise VerifyException("'tt.dot' op the batch dims of a and b must be equal")
        if c_shape != expected:
            raise VerifyException(
                f"'tt.dot' op accumulator shape {list(c_shape)} must be {list(expected)} (a is {list(a_shape)}, b is {list(b_shape)})"
            )
        if (encoding_of(a) is None) != (encoding_of(c) is None) or (encoding_of(b) is None) != (encoding_of(c) is None):
            raise VerifyException("'tt.dot' op operands and result must all have a layout or none")


# ---------------------------------------------------------------------------
# Reduce, scan, map_elementwise (generic form in Triton's printing)
# ---------------------------------------------------------------------------


def _verify_combine_region(op: Operation, region: Region, element_types: Sequence[Attribute], n_args: int, what: str) -> None:
    """The combiner takes ``n_args`` scalars (element types repeated) and yields one per input."""
    block = region.blocks.first
    if block is None or len(region.blocks) != 1:
        raise VerifyException(f"'{op.name}' op expects a single-block {what} region")
    expected_args = list(element_types) * (n_args // len(element_types))
    if list(block.arg_types) != expected_args:
        raise VerifyException(
            f"'{op.name}' op {what} region arguments must be ({', '.join(type_text(t) for t in expected_args)})"
        )
    term = block.last_op
    if term is None or not term.has_trait(IsTerminator):
        raise VerifyException(f"'{op.name}' op {what} region must end with its return op")
    if [v.type for v in term.operands] != list(element_types):
        raise VerifyException(
            f"'{op.name}' op {what} region must return ({', '.join(type_text(t) for t in element_types)})"
        )


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """Reduction along ``axis`` with a combiner region; printed generically by Triton::

        %m = "tt.reduce"(%x) <{axis = 0 : i32}> ({
        ^bb0(%a: f32, %b: f32):
          %s = arith.maxnumf %a, %b : f32
          tt.reduce.return %s : f32
        }) : (tensor<128xf32>) -> f32
    """

    name = "tt.reduce"

    srcs = var_operand_def(TensorType)
    axis = prop_def(IntegerAttr[I32])
    result = var_result_def()
    combineOp = region_def("single_block")

    traits = traits_def(Pure())

    def verify_(self) -> None:
        if not self.srcs:
            raise VerifyException("'tt.reduce' op must have at least 1 operand")
        types = [_require_tensor(self, v.type, "operand") for v in self.srcs]
        shape = types[0].get_shape()
        if any(t.get_shape() != shape for t in types):
            raise VerifyException("'tt.reduce' op requires the same shape for all operands")
        if len({encoding_of(t) for t in types}) > 1:
            raise VerifyException("'tt.reduce' op requires the same encoding for all operands")
        axis = self.axis.value.data
        rank = len(shape)
        if not 0 <= axis < rank:
            raise VerifyException(f"'tt.reduce' op reduction axis {axis} is out of range for rank {rank}")
        if len(self.result) != len(types):
            raise VerifyException("'tt.reduce' op must have one result per operand")
        for src, res in zip(types, self.result.types):
            if rank == 1:
                if res != src.element_type:
                    raise VerifyException(
                        f"'tt.reduce' op result type {type_text(res)} must be the element type {type_text(src.element_type)}"
                    )
                continue
            res_t = _require_tensor(self, res, "result")
            expected = shape[:axis] + shape[axis + 1 :]
            if res_t.get_shape() != expected or res_t.element_type != src.element_type:
                raise VerifyException(
                    f"'tt.reduce' op result type {type_text(res)} must be the operand type without dim {axis}"
                )
            _check_slice_relation(self, res_t, src, axis, "result", "operand")
        elem_types = [t.element_type for t in types]
        _verify_combine_region(self, self.combineOp, elem_types, 2 * len(types), "combine")


@irdl_op_definition
class ReduceReturnOp(IRDLOperation):
    """``tt.reduce.return %s : f32``: terminator of a ``tt.reduce`` combiner."""

    name = "tt.reduce.return"

    result = var_operand_def()

    traits = traits_def(Pure(), HasParent(ReduceOp), IsTerminator(), ReturnLike())

    assembly_format = "$result attr-dict `:` type($result)"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[list(values)])


@irdl_op_definition
class ScanOp(IRDLOperation):
    """Associative scan along ``axis`` (optionally reversed); printed generically by Triton::

        %c = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
        ^bb0(%a: f32, %b: f32):
          %s = arith.addf %a, %b : f32
          tt.scan.return %s : f32
        }) : (tensor<256xf32>) -> tensor<256xf32>
    """

    name = "tt.scan"

    srcs = var_operand_def(TensorType)
    axis = prop_def(IntegerAttr[I32])
    reverse = prop_def(BoolAttr)
    result = var_result_def(TensorType)
    combineOp = region_def("single_block")

    traits = traits_def(Pure())

    def verify_(self) -> None:
        if not self.srcs:
            raise VerifyException("'tt.scan' op must have at least 1 operand")
        types = [_require_tensor(self, v.type, "operand") for v in self.srcs]
        if len(self.result) != len(types):
            raise VerifyException("'tt.scan' op must have one result per operand")
        _check_same_shape_and_encoding(self, [*types, *self.result.types], "operands and results")
        axis = self.axis.value.data
        rank = len(types[0].get_shape())
        if not 0 <= axis < rank:
            raise VerifyException(f"'tt.scan' op scan axis {axis} is out of range for rank {rank}")
        for src, res in zip(types, self.result.types):
            if src != res:
                raise VerifyException(f"'tt.scan' op result type {type_text(res)} must equal the operand type {type_text(src)}")
        elem_types = [t.element_type for t in types]
        _verify_combine_region(self, self.combineOp, elem_types, 2 * len(types), "combine")


@irdl_op_definition
class ScanReturnOp(IRDLOperation):
    """``tt.scan.return %s : f32``: terminator of a ``tt.scan`` combiner."""

    name = "tt.scan.return"

    result = var_operand_def()

    traits = traits_def(Pure(), HasParent(ScanOp), IsTerminator(), ReturnLike())

    assembly_format = "$result attr-dict `:` type($result)"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[list(values)])


@irdl_op_definition
class MapElementwiseOp(IRDLOperation):
    """A scalar region applied elementwise (``pack`` elements at a time); printed generically::

        %y = "tt.map_elementwise"(%x, %i) <{pack = 1 : i32}> ({
        ^bb0(%a: f32, %b: i32):
          ...
          tt.map_elementwise.return %r : f32
        }) : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
    """

    name = "tt.map_elementwise"

    srcs = var_operand_def()
    pack = prop_def(IntegerAttr[I32])
    result = var_result_def()
    scalarOp = region_def("single_block")

    traits = traits_def(Pure())

    def verify_(self) -> None:
        _check_same_shape_and_encoding(self, [*(v.type for v in self.srcs), *self.result.types], "operands and results")
        pack = self.pack.value.data
        if pack < 1:
            raise VerifyException("'tt.map_elementwise' op pack must be at least 1")
        block = self.scalarOp.blocks.first
        if block is None:
            raise VerifyException("'tt.map_elementwise' op expects a single-block region")
        expected = [element_type_of(v.type) for v in self.srcs for _ in range(pack)]
        if sorted(map(str, block.arg_types)) != sorted(map(str, expected)) or len(block.arg_types) != len(expected):
            raise VerifyException("'tt.map_elementwise' op region arguments must be pack copies of each operand's element type")


@irdl_op_definition
class MapElementwiseReturnOp(IRDLOperation):
    """``tt.map_elementwise.return %r : f32``: terminator of ``tt.map_elementwise``."""

    name = "tt.map_elementwise.return"

    result = var_operand_def()

    traits = traits_def(Pure(), HasParent(MapElementwiseOp), IsTerminator(), ReturnLike())

    assembly_format = "$result attr-dict `:` type($result)"


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
        if len(self.isSigned) != len(self.args):
            raise VerifyException("'tt.print' op isSigned must have one entry per argument")


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
# Tensor descriptors (TMA)
# ---------------------------------------------------------------------------


@irdl_op_definition
class MakeTensorDescOp(IRDLOperation):
    """``%d = tt.make_tensor_descriptor %base, [%s0, %s1], [%st0, %st1] : <f16>, <64x64xf16>``.

    Triton prints the two types without their ``!tt.ptr`` / ``!tt.tensordesc``
    prefix (the op's own dialect); the prefixed form is accepted too. ``padding``
    (1 = zero, 2 = NaN; default 1, not printed) sits in the attribute dictionary.
    """

    name = "tt.make_tensor_descriptor"

    base = operand_def(PtrType)
    shape = var_operand_def(I32)
    strides = var_operand_def(I64)
    padding = opt_prop_def(IntegerAttr[I32])
    result = result_def(TensorDescType)

    traits = traits_def(Pure())

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> MakeTensorDescOp:
        base = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        shape = _parse_operand_list_in_brackets(parser)
        parser.parse_punctuation(",")
        strides = _parse_operand_list_in_brackets(parser)
        attrs = _parse_attr_dict_into(parser)
        props: dict[str, Attribute] = {}
        if "padding" in attrs:
            padding = attrs.pop("padding")
            if padding != IntegerAttr(1, i32):
                props["padding"] = padding
        parser.parse_punctuation(":")
        base_type = cls._parse_short_type(parser, PtrType)
        parser.parse_punctuation(",")
        desc_type = cls._parse_short_type(parser, TensorDescType)
        values = [parser.resolve_operand(base, base_type)]
        values += [parser.resolve_operand(o, i32) for o in shape]
        values += [parser.resolve_operand(o, IntegerType(64)) for o in strides]
        props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [1, len(shape), len(strides)])
        return cls.create(operands=values, result_types=[desc_type], properties=props, attributes=attrs)

    @staticmethod
    def _parse_short_type(parser: Parser, type_class: type[PtrType] | type[TensorDescType]) -> Attribute:
        """``<f16>`` (Triton's short form) or the full ``!tt.ptr<f16>``."""
        if parser._current_token.text == "<":  # noqa: SLF001 (xDSL has no public peek)
            return type_class.new(type_class.parse_parameters(parser))
        parsed = parser.parse_type()
        if not isinstance(parsed, type_class):
            parser.raise_error(f"expected {type_class.name} type, got {parsed}")
        return parsed

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.base)
        printer.print_string(", [")
        printer.print_list(self.shape, printer.print_operand)
        printer.print_string("], [")
        printer.print_list(self.strides, printer.print_operand)
        printer.print_string("]")
        attrs = dict(self.attributes)
        if self.padding is not None and self.padding != IntegerAttr(1, i32):
            attrs["padding"] = self.padding
        _print_attr_dict(printer, attrs)
        printer.print_string(" : ")
        base_type = self.base.type
        assert isinstance(base_type, PtrType)
        base_type.print_parameters(printer)
        printer.print_string(", ")
        desc_type = self.result.type
        assert isinstance(desc_type, TensorDescType)
        desc_type.print_parameters(printer)

    def verify_(self) -> None:
        desc = self.result.type
        base = self.base.type
        assert isinstance(desc, TensorDescType) and isinstance(base, PtrType)
        rank = len(desc.shape)
        if len(self.shape) != rank or len(self.strides) != rank:
            raise VerifyException(
                f"'tt.make_tensor_descriptor' op needs one shape and one stride per block dim ({rank}), "
                f"got {len(self.shape)} and {len(self.strides)}"
            )
        if desc.element_type != base.pointee_type:
            raise VerifyException("'tt.make_tensor_descriptor' op descriptor element type must be the base pointee type")
        if self.padding is not None and self.padding.value.data not in (1, 2):
            raise VerifyException(
                "'tt.make_tensor_descriptor' op attribute 'padding' failed to satisfy constraint: allowed 32-bit signless integer cases: 1, 2"
            )


def _check_descriptor_block(op: Operation, desc_type: Attribute, tensor_type: Attribute, n_indices: int, what: str) -> None:
    if not isinstance(desc_type, TensorDescType):
        raise VerifyException(f"'{op.name}' op descriptor must be a !tt.tensordesc, got {type_text(desc_type)}")
    tensor = _require_tensor(op, tensor_type, what)
    if tensor.element_type != desc_type.element_type:
        raise VerifyException(f"'{op.name}' op {what} element type must be the descriptor element type")
    block = desc_type.shape
    shape = tensor.get_shape()
    # Leading size-1 block dims may be dropped from the tensor.
    if tensor.element_count() != desc_type.block_type.element_count() or tuple(shape) != tuple(block[len(block) - len(shape):]):
        raise VerifyException(
            f"'{op.name}' op {what} shape {list(shape)} must be the descriptor block shape {list(block)} "
            "(leading 1s may be dropped)"
        )
    if n_indices != len(block):
        raise VerifyException(f"'{op.name}' op needs one index per descriptor dim ({len(block)}), got {n_indices}")


@irdl_op_definition
class DescriptorLoadOp(IRDLOperation):
    """``%t = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<128x64xf16> -> tensor<128x64xf16>``."""

    name = "tt.descriptor_load"

    desc = operand_def(TensorDescType)
    indices = var_operand_def(I32)
    cachePolicy = opt_prop_def(CachePolicyAttr)
    result = result_def(TensorType)

    traits = traits_def(MemoryReadEffect())

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = "$desc `[` $indices `]` attr-dict `:` type($desc) `->` type($result)"

    def verify_(self) -> None:
        _check_descriptor_block(self, self.desc.type, self.result.type, len(self.indices), "result")


@irdl_op_definition
class DescriptorStoreOp(IRDLOperation):
    """``tt.descriptor_store %d[%i, %j], %v : !tt.tensordesc<128x128xf16>, tensor<128x128xf16>``."""

    name = "tt.descriptor_store"

    desc = operand_def(TensorDescType)
    src = operand_def(TensorType)
    indices = var_operand_def(I32)

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    assembly_format = "$desc `[` $indices `]` `,` $src attr-dict `:` type($desc) `,` type($src)"

    def verify_(self) -> None:
        _check_descriptor_block(self, self.desc.type, self.src.type, len(self.indices), "source")


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


class DescriptorReduceKind(StrEnum):
    ADD = "add"
    MIN = "min"
    MAX = "max"
    INC = "inc"
    DEC = "dec"
    AND = "and"
    OR = "or"
    XOR = "xor"


@irdl_attr_definition
class DescriptorReduceKindAttr(EnumAttribute[DescriptorReduceKind], SpacedOpaqueSyntaxAttribute):
    """The reduction of ``tt.descriptor_reduce``: ``add``, ``min``, ``max``, ``inc``, ``dec``, ``and``, ``or``, ``xor``."""

    name = "tt.descriptor_reduce_kind"


@irdl_op_definition
class DescriptorReduceOp(IRDLOperation):
    """``tt.descriptor_reduce add, %d[%i, %j], %v : !tt.tensordesc<32x32xf32>, tensor<32x32xf32>`` (TMA reduce-store)."""

    name = "tt.descriptor_reduce"

    kind = prop_def(DescriptorReduceKindAttr)
    desc = operand_def(TensorDescType)
    src = operand_def(TensorType)
    indices = var_operand_def(I32)

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    assembly_format = "$kind `,` $desc `[` $indices `]` `,` $src attr-dict `:` type($desc) `,` type($src)"

    def verify_(self) -> None:
        _check_descriptor_block(self, self.desc.type, self.src.type, len(self.indices), "source")


@irdl_op_definition
class DescriptorGatherOp(IRDLOperation):
    """``%t = tt.descriptor_gather %d[%rows, %col] : (!tt.tensordesc<1x32xf32>, tensor<128xi32>, i32) -> tensor<128x32xf32>``."""

    name = "tt.descriptor_gather"

    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(I32)
    result = result_def(TensorType)

    traits = traits_def(MemoryReadEffect())

    assembly_format = "$desc `[` $x_offsets `,` $y_offset `]` attr-dict `:` functional-type(operands, results)"

    def verify_(self) -> None:
        _check_gather_scatter(self, self.desc.type, self.x_offsets.type, self.result.type, "result")


@irdl_op_definition
class DescriptorScatterOp(IRDLOperation):
    """``tt.descriptor_scatter %d[%rows, %col], %v : !tt.tensordesc<1x32xf32>, tensor<128xi32>, i32, tensor<128x32xf32>``."""

    name = "tt.descriptor_scatter"

    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(I32)
    src = operand_def(TensorType)

    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    assembly_format = (
        "$desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` type(operands)"
    )

    def verify_(self) -> None:
        _check_gather_scatter(self, self.desc.type, self.x_offsets.type, self.src.type, "source")


def _check_gather_scatter(op: Operation, desc_type: Attribute, offsets_type: Attribute, tensor_type: Attribute, what: str) -> None:
    """A gather/scatter descriptor has one row; the tensor is (number of offsets) x (row width)."""
    assert isinstance(desc_type, TensorDescType)
    offsets = _require_tensor(op, offsets_type, "x_offsets")
    tensor = _require_tensor(op, tensor_type, what)
    if len(desc_type.shape) != 2 or desc_type.shape[0] != 1:
        raise VerifyException(f"'{op.name}' op descriptor block must have exactly 1 row, got {list(desc_type.shape)}")
    if len(offsets.get_shape()) != 1 or offsets.element_type != i32:
        raise VerifyException(f"'{op.name}' op x_offsets must be a 1D tensor of i32")
    expected = (offsets.get_shape()[0], desc_type.shape[1])
    if tensor.get_shape() != expected or tensor.element_type != desc_type.element_type:
        raise VerifyException(
            f"'{op.name}' op {what} must be {expected[0]}x{expected[1]}x{type_text(desc_type.element_type)} "
            "(one row per offset, the descriptor's row width)"
        )


TT = Dialect(
    "tt",
    [
        FuncOp,
        ReturnOp,
        CallOp,
        IntToPtrOp,
        PtrToIntOp,
        BitcastOp,
        FpToFpOp,
        ClampFOp,
        PreciseSqrtOp,
        PreciseDivFOp,
        MulhiUIOp,
        ExternElementwiseOp,
        ElementwiseInlineAsmOp,
        AddPtrOp,
        LoadOp,
        StoreOp,
        AtomicRMWOp,
        AtomicCASOp,
        GetProgramIdOp,
        GetNumProgramsOp,
        MakeRangeOp,
        SplatOp,
        UnsplatOp,
        ExpandDimsOp,
        BroadcastOp,
        ReshapeOp,
        TransOp,
        JoinOp,
        CatOp,
        SplitOp,
        GatherOp,
        HistogramOp,
        DotOp,
        ReduceOp,
        ReduceReturnOp,
        ScanOp,
        ScanReturnOp,
        MapElementwiseOp,
        MapElementwiseReturnOp,
        PrintOp,
        AssertOp,
        MakeTensorDescOp,
        DescriptorLoadOp,
        DescriptorStoreOp,
        DescriptorReduceOp,
        DescriptorGatherOp,
        DescriptorScatterOp,
        AtomicLoadOp,
        AtomicStoreOp,
        AtomicPollOp,
        ApproxDivFOp,
        GridDependencyLaunchDependentsOp,
        GridDependencyWaitOp,
    ],
    [
        PtrType,
        TensorDescType,
        ProgramIDDimAttr,
        RoundingModeAttr,
        PropagateNanAttr,
        InputPrecisionAttr,
        RMWOpAttr,
        MemSemanticAttr,
        MemSyncScopeAttr,
        CachePolicyAttr,
        DescriptorReduceKindAttr,
    ],
)
