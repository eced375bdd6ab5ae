"""ltc's tensor-aware ``arith`` dialect: xDSL 0.74's arith with the ops Triton needs fixed.

xDSL's arith is right for scalars and for most elementwise ops on tensors; those op
classes are reused as they are. The ops below replace xDSL's where it is scalar-only or
prints differently from MLIR (Triton 3.9):

* ``arith.constant``: parses ``dense<0xFF800000>`` on float tensors as a bit pattern (xDSL
  reads the hex as an integer *value*) and prints numbers exactly as MLIR does
  (``-1.000000e+00``, ``0.693147182``, ``3.40282347E+38``, ``0xFF800000`` for -inf, NaN and
  values with no exact short decimal form, bitwise splat detection).
* ``arith.cmpi`` / ``arith.cmpf``: the result is i1 with the operands' shape and encoding.
* ``arith.select``: the condition is scalar i1 or an i1 tensor of the result's shape.
* the casts (``extsi extui trunci extf truncf sitofp uitofp fptosi fptoui index_cast
  index_castui bitcast``): tensors of the same shape and encoding, element widths
  checked as MLIR does.
* ``arith.remf`` (missing in xDSL).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects import arith as xarith
from xdsl.dialects.arith import (
    CMPF_COMPARISON_OPERATIONS,
    CMPI_COMPARISON_OPERATIONS,
    FastMathFlagsAttr,
    FloatingPointLikeBinaryOperation,
    boolLike,
    floatingPointLike,
    signlessIntegerLike,
)
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FixedBitwidthType,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ReducedPrecisionFloatType,
    TensorType,
    VectorType,
    container_of,
    i1,
)
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParamAttrConstraint,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.fast_parse import derived_type
from ltc.dialects.dense_literal import parse_dense_value, signed_value

if TYPE_CHECKING:
    from fractions import Fraction

# --------------------------------------------------------------------------------------
# Shapes
# --------------------------------------------------------------------------------------


def i1_like(type_: Attribute) -> Attribute:
    """i1 with the shape (and, for tensors, the encoding) of ``type_``: cmpi/cmpf's result type."""
    if isinstance(type_, TensorType):
        return TensorType(i1, type_.get_shape(), type_.encoding)
    if isinstance(type_, VectorType):
        return VectorType(i1, type_.get_shape(), type_.scalable_dims)
    return i1


def _shape_of(type_: Attribute) -> tuple[int, ...] | None:
    """The shape of a tensor/vector type, ``None`` for a scalar."""
    if isinstance(type_, TensorType | VectorType):
        return tuple(type_.get_shape())
    return None


def _element_of(type_: Attribute) -> Attribute:
    if isinstance(type_, TensorType | VectorType):
        return type_.element_type
    return type_


def _with_element(type_: Attribute, element: Attribute) -> Attribute:
    """``type_`` with its element type replaced (scalars: ``element`` itself)."""
    if isinstance(type_, TensorType):
        return TensorType(element, type_.get_shape(), type_.encoding)
    if isinstance(type_, VectorType):
        return VectorType(element, type_.get_shape(), type_.scalable_dims)
    return element


# --------------------------------------------------------------------------------------
# Numbers as MLIR prints them (llvm::APFloat::toString and MLIR's printFloatValue)
# --------------------------------------------------------------------------------------

_IEEE_LAYOUTS: dict[type[Attribute], tuple[int, int, int]] = {
    Float16Type: (5, 10, 15),
    BFloat16Type: (8, 7, 127),
    Float32Type: (8, 23, 127),
    Float64Type: (11, 52, 1023),
}
"""Float type -> (exponent bits, mantissa bits, exponent bias)."""


def _float_layout(float_type: Attribute) -> tuple[int, int, int] | None:
    if isinstance(float_type, ReducedPrecisionFloatType):
        sem = float_type.SEMANTICS
        return sem.exponent_bits, sem.mantissa_bits, sem.exponent_bias
    return _IEEE_LAYOUTS.get(type(float_type))


def _trim_to_precision(significand: int, exp: int, precision: int) -> tuple[int, int]:
    """Drop whole decimal digits (truncating) beyond about ``precision`` digits, as APFloat does."""
    bits_required = (precision * 196 + 58) // 59
    bits = significand.bit_length()
    if bits <= bits_required:
        return significand, exp
    removable = (bits - bits_required) * 59 // 196
    if not removable:
        return significand, exp
    return significand // 10**removable, exp + removable


def _round_digits(digits: str, exp: int, precision: int) -> tuple[str, int]:
    """Round the decimal digit string (most significant first) to ``precision`` digits, half up."""
    n = len(digits)
    if n <= precision:
        return digits, exp
    if digits[precision] < "5":
        kept = digits[:precision].rstrip("0")
        return kept, exp + n - len(kept)
    kept_list = list(digits[:precision])
    i = precision - 1
    while i >= 0 and kept_list[i] == "9":
        i -= 1
    if i < 0:
        return "1", exp + n
    kept_list[i] = chr(ord(kept_list[i]) + 1)
    kept = "".join(kept_list[: i + 1])
    return kept, exp + n - len(kept)


def apfloat_to_string(
    significand: int,
    exp2: int,
    mantissa_bits: int,
    format_precision: int,
    format_max_padding: int,
    truncate_zero: bool,
) -> str:
    """Decimal text of the positive value ``significand * 2**exp2`` per llvm::APFloat::toString."""
    precision = format_precision or 2 + (mantissa_bits + 1) * 59 // 196
    tz = (significand & -significand).bit_length() - 1
    significand >>= tz
    exp = exp2 + tz
    if exp > 0:
        significand <<= exp
        exp = 0
    elif exp < 0:
        significand *= 5**-exp
    significand, exp = _trim_to_precision(significand, exp, precision)
    raw = str(significand)
    digits = raw.rstrip("0")
    exp += len(raw) - len(digits)
    digits, exp = _round_digits(digits, exp, precision)
    nd = len(digits)
    if not format_max_padding:
        scientific = True
    elif exp >= 0:
        scientific = exp > format_max_padding or nd + exp > precision
    else:
        msd = exp + nd - 1
        scientific = msd < 0 and -msd > format_max_padding
    if scientific:
        exp += nd - 1
        text = digits[0] + "." + ("0" if nd == 1 and truncate_zero else digits[1:])
        if not truncate_zero and precision > nd - 1:
            text += "0" * (precision - nd + 1)
        exp_text = str(abs(exp))
        if not truncate_zero and len(exp_text) < 2:
            exp_text = "0" + exp_text
        return f"{text}{'E' if truncate_zero else 'e'}{'+' if exp >= 0 else '-'}{exp_text}"
    if exp >= 0:
        return digits + "0" * exp
    whole = exp + nd
    if whole > 0:
        return digits[:whole] + "." + digits[whole:]
    return "0." + "0" * -whole + digits


def _round_to_format(value: Fraction, mantissa_bits: int, bias: int) -> Fraction:
    """The positive ``value`` rounded (nearest, ties to even) to a float with this layout."""
    from fractions import Fraction  # float printing only: not at ltc-opt start-up

    e = value.numerator.bit_length() - value.denominator.bit_length()
    if Fraction(2) ** e > value:
        e -= 1
    ulp = Fraction(2) ** (max(e, 1 - bias) - mantissa_bits)
    return round(value / ulp) * ulp


def float_text(bits: int, float_type: Attribute) -> str:
    """MLIR's text for the float with bit pattern ``bits`` of type ``float_type``.

    Six significant digits in exponent form when that reads back exactly, else APFloat's
    shortest form when it has a decimal point, else the bit pattern in hex (always for
    infinities and NaNs), e.g. ``1.000000e+00``, ``0.693147182``, ``0xFF800000``.
    """
    layout = _float_layout(float_type)
    assert layout is not None, f"no float layout for {float_type}"
    ebits, mbits, bias = layout
    width = 1 + ebits + mbits
    hex_text = f"0x{bits:X}"
    assert isinstance(float_type, AnyFloat)
    value = float_type.unpack(bits.to_bytes(float_type.compile_time_size, "little"), 1)[0]
    if math.isnan(value) or math.isinf(value):
        return hex_text
    negative = bool(bits >> (width - 1) & 1)
    sign = "-" if negative else ""
    field = bits >> mbits & ((1 << ebits) - 1)
    mantissa = bits & ((1 << mbits) - 1)
    if field == 0 and mantissa == 0:
        return sign + "0.000000e+00"
    if field == 0:
        significand, exp2 = mantissa, 1 - bias - mbits
    else:
        significand, exp2 = mantissa | 1 << mbits, field - bias - mbits
    from fractions import Fraction  # see _round_to_format

    exact = Fraction(significand) * Fraction(2) ** exp2
    short = apfloat_to_string(significand, exp2, mbits, 6, 0, False)
    if _round_to_format(Fraction(short), mbits, bias) == exact:
        return sign + short
    natural = apfloat_to_string(significand, exp2, mbits, 0, 3, True)
    if "." in natural:
        return sign + natural
    return hex_text


def _float_bits(value: float, float_type: AnyFloat) -> int:
    return int.from_bytes(float_type.pack((value,)), "little")


def _int_text(value: int, int_type: Attribute) -> str:
    """MLIR's text for an integer element: ``true``/``false`` for i1, signed for signless iN."""
    if isinstance(int_type, IntegerType):
        if int_type.width.data == 1:
            return "true" if value & 1 else "false"
        value = signed_value(value, int_type.width.data)
    return str(value)


def _element_text(chunk: bytes, element: Attribute) -> str:
    value = int.from_bytes(chunk, "little")
    if isinstance(element, IntegerType | IndexType):
        return _int_text(value, element)
    return float_text(value, element)


def _nested(texts: Sequence[str], shape: Sequence[int]) -> str:
    if not shape:
        return texts[0]
    step = len(texts) // shape[0] if shape[0] else 0
    return "[" + ", ".join(_nested(texts[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])) + "]"


def dense_text(attr: DenseIntOrFPElementsAttr) -> str:
    """``dense<...>`` as MLIR prints it (without the type): splat when all elements are bitwise equal."""
    element = attr.get_element_type()
    size = element.compile_time_size
    data = attr.data.data
    count = len(data) // size if size else 0
    if not count:
        return "dense<>"
    # A splat (the common case: tensor<128x128xf32> of zeros) is formatted once.
    if data == data[:size] * count:
        return f"dense<{_element_text(data[:size], element)}>"
    texts = [_element_text(data[i : i + size], element) for i in range(0, len(data), size)]
    return f"dense<{_nested(texts, attr.get_shape())}>"


# --------------------------------------------------------------------------------------
# Ops
# --------------------------------------------------------------------------------------


@irdl_op_definition
class ConstantOp(IRDLOperation, HasFolderInterface):
    """A constant scalar or tensor.

    Triton: ``%cst = arith.constant dense<0xFF800000> : tensor<128xf32, #blocked>``,
    ``%c1_i32 = arith.constant 1 : i32``, ``%true = arith.constant true``.
    """

    name = "arith.constant"
    _T: ClassVar = VarConstraint("T", AnyAttr())
    result = result_def(_T)
    value = prop_def(
        IntegerAttr.constr(AnyAttr() & _T)
        | ParamAttrConstraint(FloatAttr, (AnyAttr(), _T))
        | ParamAttrConstraint(DenseIntOrFPElementsAttr, (_T, AnyAttr()))
        | ParamAttrConstraint(DenseResourceAttr, (AnyAttr(), _T))
    )

    traits = traits_def(Pure(), ConstantLike())

    def __init__(
        self,
        value: IntegerAttr | FloatAttr | DenseIntOrFPElementsAttr | DenseResourceAttr,
        value_type: Attribute | None = None,
    ):
        super().__init__(
            operands=[], result_types=[value_type or value.get_type()], properties={"value": value}
        )

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        return (self.value,)

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        attributes = parser.parse_optional_attr_dict()
        value: Attribute
        if parser.parse_optional_keyword("dense") is not None:
            value = parse_dense_value(parser)
        else:
            value = parser.parse_attribute()
        if not isinstance(value, IntegerAttr | FloatAttr | DenseIntOrFPElementsAttr | DenseResourceAttr):
            parser.raise_error(f"expected an integer, float or elements constant, got {value}")
        # ``cls(value)`` without the generic IRDL builder (what ``__init__`` builds)
        return cls.create(result_types=[value.get_type()], properties={"value": value}, attributes=attributes)

    def print(self, printer: Printer) -> None:
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        value = self.value
        if isinstance(value, IntegerAttr):
            printer.print_string(_int_text(value.value.data, value.type))
            if value.type != i1:
                printer.print_string(" : ")
                printer.print_attribute(value.type)
        elif isinstance(value, FloatAttr) and _float_layout(value.type) is not None:
            printer.print_string(float_text(_float_bits(value.value.data, value.type), value.type))
            printer.print_string(" : ")
            printer.print_attribute(value.type)
        elif isinstance(value, DenseIntOrFPElementsAttr) and _dense_printable(value):
            printer.print_string(dense_text(value))
            printer.print_string(" : ")
            printer.print_attribute(value.type)
        else:
            printer.print_attribute(value)


def _dense_printable(attr: DenseIntOrFPElementsAttr) -> bool:
    element = attr.get_element_type()
    return isinstance(element, IntegerType | IndexType) or _float_layout(element) is not None


@cache
def _predicate_attr(index: int) -> IntegerAttr:
    """A comparison's ``predicate`` property (immutable, so one per value)."""
    return IntegerAttr(index, 64)


@cache
def _no_fastmath() -> FastMathFlagsAttr:
    return FastMathFlagsAttr("none")


class _ComparisonBase(IRDLOperation):
    """Shared parse/print/verify of cmpi and cmpf (a decorated op cannot be subclassed)."""

    PREDICATES: ClassVar[Sequence[str]]
    result = result_def(boolLike)

    def _verify_comparison(self, lhs: SSAValue, predicate: IntegerAttr) -> None:
        if not 0 <= predicate.value.data < len(self.PREDICATES):
            cases = ", ".join(str(i) for i in range(len(self.PREDICATES)))
            raise VerifyException(
                f"attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: {cases}"
            )
        if self.result.type != i1_like(lhs.type):
            raise VerifyException(
                "failed to verify that result type has i1 element type and same shape as operands"
            )

    @classmethod
    def _predicate_index(cls, parser: Parser) -> int:
        pos = parser.pos
        # MLIR's enum attributes read a keyword or a string: ``slt`` or ``"slt"``.
        keyword = parser.parse_optional_identifier()
        if keyword is None:
            keyword = parser.parse_optional_str_literal()
        if keyword not in cls.PREDICATES:
            parser.raise_error(
                "expected string or keyword containing one of the following enum values for "
                f"attribute 'predicate' [{', '.join(cls.PREDICATES)}]",
                pos,
            )
        return list(cls.PREDICATES).index(keyword)


@irdl_op_definition
class CmpiOp(_ComparisonBase):
    """Integer comparison; the result is i1 shaped (and encoded) like the operands.

    Triton: ``%0 = arith.cmpi slt, %a, %b : tensor<1024xi32, #blocked>``
    (result ``tensor<1024xi1, #blocked>``).
    """

    name = "arith.cmpi"
    PREDICATES: ClassVar[Sequence[str]] = tuple(CMPI_COMPARISON_OPERATIONS)
    T: ClassVar = VarConstraint("T", signlessIntegerLike)
    predicate = prop_def(IntegerAttr)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(boolLike)

    traits = traits_def(Pure())

    def __init__(self, lhs: Operation | SSAValue, rhs: Operation | SSAValue, predicate: int | str):
        lhs = SSAValue.get(lhs)
        if isinstance(predicate, str):
            predicate = CMPI_COMPARISON_OPERATIONS.index(predicate)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[i1_like(lhs.type)],
            properties={"predicate": IntegerAttr(predicate, 64)},
        )

    def verify_(self) -> None:
        self._verify_comparison(self.lhs, self.predicate)

    @classmethod
    def parse(cls, parser: Parser) -> CmpiOp:
        predicate = cls._predicate_index(parser)
        parser.parse_punctuation(",")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        lhs_v, rhs_v = parser.resolve_operands([lhs, rhs], [type_, type_], parser.pos)
        # ``cls(lhs_v, rhs_v, predicate)`` without the generic IRDL builder
        return cls.create(
            operands=[lhs_v, rhs_v],
            result_types=[derived_type(parser, i1_like, type_)],
            properties={"predicate": _predicate_attr(predicate)},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.PREDICATES[self.predicate.value.data]}, ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)


@irdl_op_definition
class CmpfOp(_ComparisonBase):
    """Float comparison; the result is i1 shaped (and encoded) like the operands.

    Triton: ``%0 = arith.cmpf ogt, %x, %y : tensor<128xf32, #blocked>``, with flags
    ``arith.cmpf oeq, %x, %y fastmath<nnan,ninf> : f32``.
    """

    name = "arith.cmpf"
    PREDICATES: ClassVar[Sequence[str]] = tuple(CMPF_COMPARISON_OPERATIONS)
    T: ClassVar = VarConstraint("T", floatingPointLike)
    predicate = prop_def(IntegerAttr)
    lhs = operand_def(T)
    rhs = operand_def(T)
    fastmath = prop_def(FastMathFlagsAttr, default_value=FastMathFlagsAttr("none"))
    result = result_def(boolLike)

    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: Operation | SSAValue,
        rhs: Operation | SSAValue,
        predicate: int | str,
        fastmath: FastMathFlagsAttr | None = None,
    ):
        lhs = SSAValue.get(lhs)
        if isinstance(predicate, str):
            predicate = CMPF_COMPARISON_OPERATIONS.index(predicate)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[i1_like(lhs.type)],
            properties={
                "predicate": IntegerAttr(predicate, 64),
                "fastmath": fastmath or FastMathFlagsAttr("none"),
            },
        )

    def verify_(self) -> None:
        self._verify_comparison(self.lhs, self.predicate)

    @classmethod
    def parse(cls, parser: Parser) -> CmpfOp:
        predicate = cls._predicate_index(parser)
        parser.parse_punctuation(",")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        fastmath = None
        if parser.parse_optional_keyword("fastmath") is not None:
            fastmath = FastMathFlagsAttr(FastMathFlagsAttr.parse_parameter(parser))
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        lhs_v, rhs_v = parser.resolve_operands([lhs, rhs], [type_, type_], parser.pos)
        # ``cls(lhs_v, rhs_v, predicate, fastmath)`` without the generic IRDL builder
        return cls.create(
            operands=[lhs_v, rhs_v],
            result_types=[derived_type(parser, i1_like, type_)],
            properties={"predicate": _predicate_attr(predicate), "fastmath": fastmath or _no_fastmath()},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.PREDICATES[self.predicate.value.data]}, ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        if self.fastmath != FastMathFlagsAttr("none"):
            printer.print_string(" fastmath")
            self.fastmath.print_parameter(printer)
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)


@irdl_op_definition
class SelectOp(IRDLOperation):
    """Elementwise choice: ``cond ? true_value : false_value``; cond is i1 or an i1 tensor of the result's shape.

    Triton: ``%1 = arith.select %0, %x, %y : tensor<128xi1, #blocked>, tensor<128xf32, #blocked>``;
    with a scalar condition only the value type is printed: ``arith.select %c, %x, %y : tensor<128xf32, #blocked>``.
    """

    name = "arith.select"
    _T: ClassVar = VarConstraint("T", AnyAttr())
    cond = operand_def(boolLike)
    lhs = operand_def(_T)
    rhs = operand_def(_T)
    result = result_def(_T)

    traits = traits_def(Pure())

    def __init__(
        self, cond: Operation | SSAValue, true_value: Operation | SSAValue, false_value: Operation | SSAValue
    ):
        true_value = SSAValue.get(true_value)
        super().__init__(operands=[cond, true_value, false_value], result_types=[true_value.type])

    def verify_(self) -> None:
        cond_type = self.cond.type
        if cond_type == i1:
            return
        result_type = self.result.type
        if _shape_of(cond_type) != _shape_of(result_type):
            raise VerifyException("failed to verify that condition is signless i1 or has matching shape")
        expected = i1_like(result_type)
        if cond_type != expected:
            raise VerifyException(
                "expected condition type to have the same shape as the result type, "
                f"expected '{expected}', but got '{cond_type}'"
            )

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        cond = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        true_value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        false_value = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        cond_type: Attribute = i1
        value_type = parser.parse_type()
        if parser.parse_optional_punctuation(",") is not None:
            cond_type, value_type = value_type, parser.parse_type()
        operands = parser.resolve_operands(
            [cond, true_value, false_value], [cond_type, value_type, value_type], parser.pos
        )
        # ``cls(*operands)`` without the generic IRDL builder
        return cls.create(operands=operands, result_types=[operands[1].type], attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.cond, self.lhs, self.rhs), printer.print_operand)
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" : ")
        if isinstance(self.cond.type, TensorType | VectorType):
            printer.print_attribute(self.cond.type)
            printer.print_string(", ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class RemFOp(FloatingPointLikeBinaryOperation):
    """Float remainder (sign of the dividend). Triton: ``%5 = arith.remf %x, %y : tensor<128xf32, #blocked>``."""

    name = "arith.remf"

    traits = traits_def(Pure())


# --- casts ---------------------------------------------------------------------------

integerLike = container_of(IntegerType)
indexLike = container_of(IntegerType | IndexType)
bitcastableLike = container_of(IntegerType | IndexType | AnyFloat)


class _CastBase(IRDLOperation):
    """A one-operand cast: same shape and encoding, element types related by ``_elements_compatible``.

    Printed ``op %x : tensor<128xi32, #b> to tensor<128xi64, #b>``.
    """

    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"
    traits = traits_def(Pure())

    def __init__(self, input: Operation | SSAValue, result_type: Attribute):
        super().__init__(operands=[input], result_types=[result_type])

    @staticmethod
    def _elements_compatible(source: Attribute, target: Attribute) -> bool:
        raise NotImplementedError

    def verify_(self) -> None:
        source = self.operands[0].type
        target = self.results[0].type
        if _shape_of(source) != _shape_of(target):
            raise VerifyException("failed to verify that input and output have the same tensor dimensions")
        same_container = _with_element(source, _element_of(target)) == target
        if not same_container or not self._elements_compatible(_element_of(source), _element_of(target)):
            raise VerifyException(f"operand type '{source}' and result type '{target}' are cast incompatible")


def _width(type_: Attribute) -> int:
    assert isinstance(type_, FixedBitwidthType)
    return type_.bitwidth


class _WideningCast(_CastBase):
    @staticmethod
    def _elements_compatible(source: Attribute, target: Attribute) -> bool:
        return _width(target) > _width(source)


class _NarrowingCast(_CastBase):
    @staticmethod
    def _elements_compatible(source: Attribute, target: Attribute) -> bool:
        return _width(target) < _width(source)


class _AnyWidthCast(_CastBase):
    @staticmethod
    def _elements_compatible(source: Attribute, target: Attribute) -> bool:
        return True


@irdl_op_definition
class ExtSIOp(_WideningCast):
    """Sign extension to a wider integer. Triton: ``arith.extsi %a : tensor<128xi32, #b> to tensor<128xi64, #b>``."""

    name = "arith.extsi"
    input = operand_def(integerLike)
    result = result_def(integerLike)


@irdl_op_definition
class ExtUIOp(_WideningCast):
    """Zero extension to a wider integer. Triton: ``arith.extui %m : tensor<128xi1, #b> to tensor<128xi32, #b>``."""

    name = "arith.extui"
    input = operand_def(integerLike)
    result = result_def(integerLike)


@irdl_op_definition
class TruncIOp(_NarrowingCast):
    """Integer truncation. Triton: ``arith.trunci %a : tensor<128xi64, #b> to tensor<128xi32, #b>``."""

    name = "arith.trunci"
    input = operand_def(integerLike)
    result = result_def(integerLike)


@irdl_op_definition
class ExtFOp(_WideningCast):
    """Float extension. Triton: ``arith.extf %x : tensor<128xf16, #b> to tensor<128xf32, #b>``."""

    name = "arith.extf"
    input = operand_def(floatingPointLike)
    result = result_def(floatingPointLike)
    fastmath = prop_def(FastMathFlagsAttr, default_value=FastMathFlagsAttr("none"))
    assembly_format = "$input (`fastmath` `` $fastmath^)? attr-dict `:` type($input) `to` type($result)"


@irdl_op_definition
class TruncFOp(_NarrowingCast):
    """Float truncation. Triton: ``arith.truncf %x : tensor<128xf32, #b> to tensor<128xf16, #b>``."""

    name = "arith.truncf"
    input = operand_def(floatingPointLike)
    result = result_def(floatingPointLike)
    fastmath = prop_def(FastMathFlagsAttr, default_value=FastMathFlagsAttr("none"))
    assembly_format = "$input (`fastmath` `` $fastmath^)? attr-dict `:` type($input) `to` type($result)"


@irdl_op_definition
class SIToFPOp(_AnyWidthCast):
    """Signed integer to float. Triton: ``arith.sitofp %a : tensor<128xi32, #b> to tensor<128xf32, #b>``."""

    name = "arith.sitofp"
    input = operand_def(integerLike)
    result = result_def(floatingPointLike)


@irdl_op_definition
class UIToFPOp(_AnyWidthCast):
    """Unsigned integer to float. Triton: ``arith.uitofp %a : tensor<128xi32, #b> to tensor<128xf32, #b>``."""

    name = "arith.uitofp"
    input = operand_def(integerLike)
    result = result_def(floatingPointLike)


@irdl_op_definition
class FPToSIOp(_AnyWidthCast):
    """Float to signed integer. Triton: ``arith.fptosi %x : tensor<128xf32, #b> to tensor<128xi32, #b>``."""

    name = "arith.fptosi"
    input = operand_def(floatingPointLike)
    result = result_def(integerLike)


@irdl_op_definition
class FPToUIOp(_AnyWidthCast):
    """Float to unsigned integer. Triton: ``arith.fptoui %x : tensor<128xf32, #b> to tensor<128xi32, #b>``."""

    name = "arith.fptoui"
    input = operand_def(floatingPointLike)
    result = result_def(integerLike)


class _IndexCastBase(_CastBase):
    @staticmethod
    def _elements_compatible(source: Attribute, target: Attribute) -> bool:
        return isinstance(source, IndexType) != isinstance(target, IndexType)


@irdl_op_definition
class IndexCastOp(_IndexCastBase):
    """Integer <-> index, sign-extending. Triton: ``arith.index_cast %i : index to i32``."""

    name = "arith.index_cast"
    input = operand_def(indexLike)
    result = result_def(indexLike)


@irdl_op_definition
class IndexCastUIOp(_IndexCastBase):
    """Integer <-> index, zero-extending. Triton: ``arith.index_castui %i : index to i32``."""

    name = "arith.index_castui"
    input = operand_def(indexLike)
    result = result_def(indexLike)


@irdl_op_definition
class BitcastOp(_CastBase):
    """Reinterpret bits between types of equal width. Triton: ``arith.bitcast %x : tensor<128xf32, #b> to tensor<128xi32, #b>``."""

    name = "arith.bitcast"
    input = operand_def(bitcastableLike)
    result = result_def(bitcastableLike)

    @staticmethod
    def _elements_compatible(source: Attribute, target: Attribute) -> bool:
        if isinstance(source, IndexType) or isinstance(target, IndexType):
            return isinstance(source, IndexType) and isinstance(target, IndexType)
        return _width(source) == _width(target)


_REPLACED: dict[type[Operation], type[Operation]] = {
    xarith.ConstantOp: ConstantOp,
    xarith.CmpiOp: CmpiOp,
    xarith.CmpfOp: CmpfOp,
    xarith.SelectOp: SelectOp,
    xarith.ExtSIOp: ExtSIOp,
    xarith.ExtUIOp: ExtUIOp,
    xarith.TruncIOp: TruncIOp,
    xarith.ExtFOp: ExtFOp,
    xarith.TruncFOp: TruncFOp,
    xarith.SIToFPOp: SIToFPOp,
    xarith.UIToFPOp: UIToFPOp,
    xarith.FPToSIOp: FPToSIOp,
    xarith.FPToUIOp: FPToUIOp,
    xarith.IndexCastOp: IndexCastOp,
    xarith.BitcastOp: BitcastOp,
}
"""xDSL arith op -> ltc's replacement; every other xDSL arith op is reused as is."""

_ADDED: tuple[type[Operation], ...] = (RemFOp, IndexCastUIOp)

ARITH = Dialect(
    "arith",
    [_REPLACED.get(op, op) for op in xarith.Arith.operations] + list(_ADDED),
    list(xarith.Arith.attributes),
)
