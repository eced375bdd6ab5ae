"""``tt`` ops that compute whole tensors: ranges, histograms, dot, reductions.

``tt.make_range``, ``tt.histogram``, ``tt.dot`` (``, inputPrecision = tf32``
before the attribute dictionary; ``ieee`` is never printed), ``tt.dot_scaled``, and the region ops
``tt.reduce``, ``tt.scan``, ``tt.map_elementwise`` with their return ops. The
region ops have no custom syntax in Triton: they print in the generic form, so
they define no ``assembly_format``.
``parse_dot_types`` / ``print_dot_types`` read and write the dot types
(`` : A * B -> D``), shared with ``ttng.warp_group_dot``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import I32, BoolAttr, DenseArrayBase, IntegerAttr, IntegerType, TensorType, f32, i32
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
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
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, Pure, ReturnLike
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.attr_dict import parse_attr_dict_into, print_sorted_attr_dict
from ltc.dialects.ods_checks import is_signless_int
from ltc.dialects.tt.attrs import InputPrecision, InputPrecisionAttr, ScaleDotElemType, ScaleDotElemTypeAttr
from ltc.dialects.tt.checks import (
    TT_FP_INT_TENSOR,
    check_operand_layouts,
    check_ods_type,
    check_same_shape_and_encoding,
    check_slice_relation,
    check_variadic_tt_tensors,
    is_tt_float,
    is_tt_fp_int_tensor,
    require_tensor,
)
from ltc.dialects.tt.types import element_bit_width, element_type_of, encoding_of, i1_like, type_text
from ltc.encodings.dot_operand import DotOperandEncoding
from ltc.encodings.nvidia_mma import NvidiaMmaEncoding
from ltc.encodings.shared import NVMMASharedEncoding, SharedLinearEncoding

__all__ = [
    "DotOp",
    "DotScaledOp",
    "HistogramOp",
    "MakeRangeOp",
    "MapElementwiseOp",
    "MapElementwiseReturnOp",
    "ReduceOp",
    "ReduceReturnOp",
    "ScanOp",
    "ScanReturnOp",
    "parse_dot_types",
    "print_dot_types",
]


# ---------------------------------------------------------------------------
# Ranges and histograms
# ---------------------------------------------------------------------------


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
        _, attrs = parse_attr_dict_into(parser, ())
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, (src_type, i1_like(src_type)))]
        return cls.create(operands=values, result_types=[result_type], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_sorted_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        src = require_tensor(self, self.src.type, "operand")
        res = require_tensor(self, self.result.type, "result")
        if not isinstance(src.element_type, IntegerType):
            raise VerifyException("'tt.histogram' op operand and result must be integer tensors")
        check_ods_type(self, "result", 0, res, isinstance(res.element_type, IntegerType), "ranked tensor of integer values")
        if self.mask is not None and self.mask.type != i1_like(src):
            raise VerifyException(f"'tt.histogram' op mask type must be {type_text(i1_like(src))}")


# ---------------------------------------------------------------------------
# Dot
# ---------------------------------------------------------------------------


def parse_dot_types(parser: Parser) -> tuple[Attribute, Attribute, Attribute]:
    """`` : A * B -> D``: the types of a dot-like op (``tt.dot``, ``ttng.warp_group_dot``);
    the accumulator has the result's type."""
    parser.parse_punctuation(":")
    a_type = parser.parse_type()
    parser.parse_punctuation("*")
    b_type = parser.parse_type()
    parser.parse_punctuation("->")
    return a_type, b_type, parser.parse_type()


def print_dot_types(printer: Printer, a_type: Attribute, b_type: Attribute, d_type: Attribute) -> None:
    """Print `` : A * B -> D`` (see ``parse_dot_types``)."""
    printer.print_string(" : ")
    printer.print_attribute(a_type)
    printer.print_string(" * ")
    printer.print_attribute(b_type)
    printer.print_string(" -> ")
    printer.print_attribute(d_type)


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

    DEFAULTS: ClassVar[dict[str, Attribute]] = {"maxNumImpreciseAcc": IntegerAttr(0, i32)}

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
        dict_props, attrs = parse_attr_dict_into(parser, ("maxNumImpreciseAcc",))
        props |= dict_props
        if "inputPrecision" in attrs:
            parser.raise_error("inputPrecision is written as ', inputPrecision = <mode>' before the attribute dictionary")
        a_type, b_type, d_type = parse_dot_types(parser)
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, (a_type, b_type, d_type))]
        return cls.create(operands=values, result_types=[d_type], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        if self.inputPrecision is not None and self.inputPrecision.data != InputPrecision.IEEE:
            printer.print_string(f", inputPrecision = {self.inputPrecision.data.value}")
        print_sorted_attr_dict(printer, self, defaults=self.DEFAULTS, reserved=("inputPrecision",))
        print_dot_types(printer, self.a.type, self.b.type, self.d.type)

    def verify_(self) -> None:
        for kind, index, v in (("operand", 0, self.a), ("operand", 1, self.b), ("operand", 2, self.c), ("result", 0, self.d)):
            check_ods_type(self, kind, index, v.type, is_tt_fp_int_tensor(v.type), TT_FP_INT_TENSOR)
        a, b, c, d = (require_tensor(self, v.type, n) for v, n in ((self.a, "a"), (self.b, "b"), (self.c, "c"), (self.d, "d")))
        if c != d:
            raise VerifyException("'tt.dot' op result type must match the accumulator type")
        a_shape, b_shape, c_shape = a.get_shape(), b.get_shape(), c.get_shape()
        if not (len(a_shape) == len(b_shape) == len(c_shape)) or len(a_shape) not in (2, 3):
            raise VerifyException("'tt.dot' op expected operands to be 2d or 3d")
        if a_shape[-1] != b_shape[-2]:
            raise VerifyException(
                "'tt.dot' op expected the last dimension of the first operand to be equal to the "
                f"second-to-last dimension of the second operand (K of a is {a_shape[-1]}, of b {b_shape[-2]})"
            )
        expected = (*a_shape[:-1], b_shape[-1])
        if len(a_shape) == 3 and (a_shape[0] != b_shape[0]):
            raise VerifyException("'tt.dot' op the batch dims of a and b must be equal")
        if c_shape != expected:
            raise VerifyException(
                f"'tt.dot' op accumulator shape {list(c_shape)} must be {list(expected)} (a is {list(a_shape)}, b is {list(b_shape)})"
            )
        self._verify_encodings(a, b, c)

    def _verify_encodings(self, a: TensorType, b: TensorType, c: TensorType) -> None:
        """Triton 3.9's order: the operand layouts its type inference demands of
        each operand (``inferDotOpEncoding``), then the bit widths, then the
        operands' agreement (``verifyDotOpEncodingCompatibility``)."""
        a_enc, b_enc, c_enc = encoding_of(a), encoding_of(b), encoding_of(c)
        if a_enc is not None and b_enc is not None and c_enc is not None:
            for op_idx, enc in ((0, a_enc), (1, b_enc)):
                problem = _dot_operand_problem(enc, op_idx, c_enc)
                if problem is not None:
                    raise VerifyException(f"'tt.dot' op {problem}")
        if element_bit_width(a) != element_bit_width(b):
            raise VerifyException("'tt.dot' op element types of operands A and B must have same bit width")
        if a_enc is None and b_enc is None:
            return
        if a_enc is None or b_enc is None:
            raise VerifyException("'tt.dot' op mismatching encoding between A and B operands")
        if c_enc is None:
            raise VerifyException("'tt.dot' op miss encoding of C operand")
        a_dot, b_dot = (getattr(e, "encoding", None) for e in (a_enc, b_enc))
        a_is_dot, b_is_dot = isinstance(a_dot, DotOperandEncoding), isinstance(b_dot, DotOperandEncoding)
        if not a_is_dot and not b_is_dot:
            return
        if not (a_is_dot and b_is_dot):
            raise VerifyException("'tt.dot' op mismatching encoding between A and B operands")
        if a_dot.k_width != b_dot.k_width:
            raise VerifyException("'tt.dot' op mismatching kWidth between A and B operands")
        mmas = [e if isinstance(e, NvidiaMmaEncoding) else None for e in (a_dot.parent, b_dot.parent, c_enc.encoding)]
        if any(m is not None for m in mmas):
            if any(m is None for m in mmas):
                raise VerifyException("'tt.dot' op mismatching MMA encoding")
            if len({m.version_major for m in mmas}) > 1:
                raise VerifyException("'tt.dot' op mismatched MMA version.")
            precision = self.inputPrecision.data if self.inputPrecision is not None else InputPrecision.IEEE
            if a.element_type == b.element_type == f32:
                if precision != InputPrecision.TF32:
                    # Tensor cores take f32 operands only as TF32.
                    raise VerifyException("'tt.dot' op unsupported MMA version")
            elif mmas[2].version_major == 2 and not all(_mma_v2_operand(t.element_type) for t in (a, b)):
                raise VerifyException("'tt.dot' op unsupported MMA version")
            if mmas[2].version_major == 2 and a.get_shape()[-1] < 4 * a_dot.k_width:
                # An mma.sync operand tile spans 4 lanes of kWidth elements along K.
                raise VerifyException("'tt.dot' op MMA operand layout requires K >= 4 * kWidth")


def _mma_v2_operand(element: Attribute) -> bool:
    """An element type Ampere's ``mma`` multiplies: f16, bf16, f64, i8, or an f8 kind
    (promoted to f16); f32 only as TF32 (checked apart)."""
    return is_tt_float(element) or is_signless_int(element, 8)


def _dot_operand_problem(enc: Attribute, op_idx: int, result_enc: Attribute) -> str | None:
    """What Triton's ``inferDotOpEncoding`` says against operand ``op_idx`` of a
    ``tt.dot`` with result layout ``result_enc`` (None when it agrees)."""
    operand = getattr(enc, "encoding", None)
    result = getattr(result_enc, "encoding", None)
    if isinstance(result, NvidiaMmaEncoding) and result.is_hopper:
        a_of_mma = (
            op_idx == 0
            and isinstance(operand, DotOperandEncoding)
            and operand.op_idx == 0
            and isinstance(operand.parent, NvidiaMmaEncoding)
        )
        if not isinstance(operand, (NVMMASharedEncoding, SharedLinearEncoding)) and not a_of_mma:
            return "unexpected operand layout for NvidiaMmaEncodingAttr v3"
        return None
    if not isinstance(operand, DotOperandEncoding):
        return "Dot's a/b's encoding should be of DotOperandEncodingAttr"
    if operand.op_idx != op_idx:
        return "Wrong opIdx"
    if operand.parent != result:
        return "Incompatible parent encoding"
    return None


@irdl_op_definition
class DotScaledOp(IRDLOperation):
    """A dot of micro-scaled operands: ``d = scale(a, a_scale) @ scale(b, b_scale) + c``.

    ``%d = tt.dot_scaled %a scale %as, %b scale %bs, %c lhs = e2m1 rhs = e4m3 {fastMath = false}
    : tensor<128x32xi8>, tensor<128x2xi8> * tensor<64x128xf8E4M3FN>, tensor<128x2xi8> -> tensor<128x128xf32>``

    ``e2m1`` operands pack two values per i8: along K when ``lhs_k_pack`` /
    ``rhs_k_pack`` (default true, not printed), else along M / N. A scale tensor is
    ``[M, K / f]`` (``[N, K / f]`` for b) with the same block size ``f`` (16 or 32)
    for both. ``c`` has the result's type.
    """

    name = "tt.dot_scaled"

    a = operand_def(TensorType)
    b = operand_def(TensorType)
    c = operand_def(TensorType)
    a_scale = opt_operand_def(TensorType)
    b_scale = opt_operand_def(TensorType)
    a_elem_type = prop_def(ScaleDotElemTypeAttr)
    b_elem_type = prop_def(ScaleDotElemTypeAttr)
    fastMath = prop_def(BoolAttr)
    lhs_k_pack = opt_prop_def(BoolAttr)
    rhs_k_pack = opt_prop_def(BoolAttr)
    d = result_def(TensorType)

    traits = traits_def(Pure())

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    PROPERTIES: ClassVar[tuple[str, ...]] = ("fastMath", "lhs_k_pack", "rhs_k_pack")
    DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "lhs_k_pack": IntegerAttr.from_bool(True),
        "rhs_k_pack": IntegerAttr.from_bool(True),
    }

    def __init__(
        self,
        a: SSAValue,
        a_scale: SSAValue | None,
        b: SSAValue,
        b_scale: SSAValue | None,
        c: SSAValue,
        a_elem_type: ScaleDotElemType,
        b_elem_type: ScaleDotElemType,
        fast_math: bool = False,
    ):
        super().__init__(
            operands=[a, b, c, [a_scale] if a_scale else [], [b_scale] if b_scale else []],
            result_types=[c.type],
            properties={
                "a_elem_type": ScaleDotElemTypeAttr(a_elem_type),
                "b_elem_type": ScaleDotElemTypeAttr(b_elem_type),
                "fastMath": IntegerAttr.from_bool(fast_math),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> DotScaledOp:
        def operand_and_scale() -> tuple[UnresolvedOperand, UnresolvedOperand | None]:
            value = parser.parse_unresolved_operand()
            scale = parser.parse_unresolved_operand() if parser.parse_optional_keyword("scale") else None
            return value, scale

        a, a_scale = operand_and_scale()
        parser.parse_punctuation(",")
        b, b_scale = operand_and_scale()
        parser.parse_punctuation(",")
        c = parser.parse_unresolved_operand()
        parser.parse_keyword("lhs")
        parser.parse_punctuation("=")
        lhs = ScaleDotElemTypeAttr(ScaleDotElemTypeAttr.parse_parameter(parser))
        parser.parse_keyword("rhs")
        parser.parse_punctuation("=")
        rhs = ScaleDotElemTypeAttr(ScaleDotElemTypeAttr.parse_parameter(parser))
        props, attrs = parse_attr_dict_into(parser, cls.PROPERTIES)
        parser.parse_punctuation(":")

        def type_and_scale(scale: UnresolvedOperand | None) -> tuple[Attribute, Attribute | None]:
            ty = parser.parse_type()
            if scale is None:
                return ty, None
            parser.parse_punctuation(",")
            return ty, parser.parse_type()

        a_type, a_scale_type = type_and_scale(a_scale)
        parser.parse_punctuation("*")
        b_type, b_scale_type = type_and_scale(b_scale)
        parser.parse_punctuation("->")
        d_type = parser.parse_type()

        def resolve(value: UnresolvedOperand | None, ty: Attribute | None) -> list[SSAValue]:
            return [] if value is None or ty is None else [parser.resolve_operand(value, ty)]

        op = cls.create(
            operands=[
                *resolve(a, a_type),
                *resolve(b, b_type),
                *resolve(c, d_type),
                *resolve(a_scale, a_scale_type),
                *resolve(b_scale, b_scale_type),
            ],
            result_types=[d_type],
            properties={"a_elem_type": lhs, "b_elem_type": rhs, **props},
            attributes=attrs,
        )
        op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(
            i32, [1, 1, 1, int(a_scale is not None), int(b_scale is not None)]
        )
        return op

    def print(self, printer: Printer) -> None:
        def operand_and_scale(value: SSAValue, scale: SSAValue | None) -> None:
            printer.print_operand(value)
            if scale is not None:
                printer.print_string(" scale ")
                printer.print_operand(scale)

        printer.print_string(" ")
        operand_and_scale(self.a, self.a_scale)
        printer.print_string(", ")
        operand_and_scale(self.b, self.b_scale)
        printer.print_string(", ")
        printer.print_operand(self.c)
        printer.print_string(f" lhs = {self.a_elem_type.data.value} rhs = {self.b_elem_type.data.value}")
        print_sorted_attr_dict(
            printer,
            self,
            defaults=self.DEFAULTS,
            reserved=("a_elem_type", "b_elem_type", "operandSegmentSizes"),
        )

        def type_and_scale(value: SSAValue, scale: SSAValue | None) -> None:
            printer.print_attribute(value.type)
            if scale is not None:
                printer.print_string(", ")
                printer.print_attribute(scale.type)

        printer.print_string(" : ")
        type_and_scale(self.a, self.a_scale)
        printer.print_string(" * ")
        type_and_scale(self.b, self.b_scale)
        printer.print_string(" -> ")
        printer.print_attribute(self.d.type)

    def _k_pack(self, name: str) -> bool:
        attr = self.properties.get(name)
        return True if attr is None else bool(attr.value.data)

    def verify_(self) -> None:
        prefix = "'tt.dot_scaled' op"
        # ODS numbers operands over the whole list: a, b, c, then the scales present.
        for index, value in enumerate(self.operands):
            ty = value.type
            if value is self.c:
                continue
            if not isinstance(ty, TensorType) or not (
                is_tt_float(ty.element_type) or ty.element_type == IntegerType(8)
            ):
                raise VerifyException(
                    f"{prefix} operand #{index} must be ranked tensor of floating-point or 8-bit signless integer "
                    f"values, but got '{type_text(ty)}'"
                )
        if self.c.type != self.d.type:
            raise VerifyException(f"{prefix} result type must match the accumulator type")
        d = self.d.type
        if not isinstance(d, TensorType) or not is_tt_float(d.element_type):
            raise VerifyException(f"{prefix} 'd' must be ranked tensor of floating-point values, but got '{type_text(d)}'")
        a, b = self.a.type, self.b.type
        assert isinstance(a, TensorType) and isinstance(b, TensorType)
        a_shape, b_shape, d_shape = list(a.get_shape()), list(b.get_shape()), list(d.get_shape())
        if not (len(a_shape) == len(b_shape) == len(d_shape)) or len(a_shape) < 2:
            raise VerifyException(f"{prefix} expected all operands to have the same rank")
        a_fp4 = self.a_elem_type.data == ScaleDotElemType.E2M1
        b_fp4 = self.b_elem_type.data == ScaleDotElemType.E2M1
        lhs_k_pack, rhs_k_pack = self._k_pack("lhs_k_pack"), self._k_pack("rhs_k_pack")
        # Logical (unpacked) M, K of a and K, N of b.
        m = a_shape[-2] * (2 if a_fp4 and not lhs_k_pack else 1)
        k_a = a_shape[-1] * (2 if a_fp4 and lhs_k_pack else 1)
        k_b = b_shape[-2] * (2 if b_fp4 and rhs_k_pack else 1)
        n = b_shape[-1] * (2 if b_fp4 and not rhs_k_pack else 1)
        if k_a != k_b:
            raise VerifyException(
                f"{prefix} expected the last dimension of the first operand to be equal to the second-to-last "
                "dimension of the second operand"
            )
        if d_shape[-2:] != [m, n]:
            raise VerifyException(
                f"{prefix} expected the output shape to be the concatenation of the last dimension of the first "
                "operand and the last dimension of the second operand"
            )
        factors: list[int] = []
        for scale in (self.a_scale, self.b_scale):
            if scale is None:
                continue
            ty = scale.type
            assert isinstance(ty, TensorType)
            groups = ty.get_shape()[-1]
            factor = k_a // groups if groups and k_a % groups == 0 else 0
            if factor not in (16, 32):
                raise VerifyException(f"scale factor must be 16 or 32. Got {factor}")
            factors.append(factor)
        if len(factors) == 2 and factors[0] != factors[1]:
            raise VerifyException(
                f"Operands must have the same scale factor; (lhs: {factors[0]} vs rhs: {factors[1]})"
            )
        for scale, extent, dim in ((self.a_scale, m, "M"), (self.b_scale, n, "N")):
            if scale is not None:
                ty = scale.type
                assert isinstance(ty, TensorType)
                if len(ty.get_shape()) < 2 or ty.get_shape()[-2] != extent:
                    raise VerifyException(f"scales {dim} dimension must match the operand {dim} dimension")


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


class _RegionReturnOp(IRDLOperation):
    """Shared code of the terminators of the combiner / scalar regions: ``NAME %a, %b : f32, i32``."""

    result = var_operand_def()

    assembly_format = "$result attr-dict `:` type($result)"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[list(values)])


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
        check_variadic_tt_tensors(self)
        types = [require_tensor(self, v.type, "operand") for v in self.srcs]
        check_operand_layouts(self)
        shape = types[0].get_shape()
        if any(t.get_shape() != shape for t in types):
            raise VerifyException("'tt.reduce' op requires the same shape for all operands")
        if len({encoding_of(t) for t in types}) > 1:
            raise VerifyException("'tt.reduce' op requires the same encoding for all operands")
        axis = self.axis.value.data
        rank = len(shape)
        if not 0 <= axis < rank:
            raise VerifyException(f"'tt.reduce' op axis out of bounds for operand rank {rank}")
        if len(self.result) != len(types):
            raise VerifyException("'tt.reduce' op must have one result per operand")
        for src, res in zip(types, self.result.types):
            if element_type_of(res) != src.element_type:
                raise VerifyException("'tt.reduce' op operand types and result types must agree")
        for src, res in zip(types, self.result.types):
            if rank == 1:
                if res != src.element_type:
                    raise VerifyException(
                        f"'tt.reduce' op result type {type_text(res)} must be the element type {type_text(src.element_type)}"
                    )
                continue
            res_t = require_tensor(self, res, "result")
            expected = shape[:axis] + shape[axis + 1 :]
            if res_t.get_shape() != expected or res_t.element_type != src.element_type:
                raise VerifyException(
                    f"'tt.reduce' op result type {type_text(res)} must be the operand type without dim {axis}"
                )
            check_slice_relation(self, res_t, src, axis, "result", "operand")
        elem_types = [t.element_type for t in types]
        _verify_combine_region(self, self.combineOp, elem_types, 2 * len(types), "combine")


@irdl_op_definition
class ReduceReturnOp(_RegionReturnOp):
    """``tt.reduce.return %s : f32``: terminator of a ``tt.reduce`` combiner."""

    name = "tt.reduce.return"

    traits = traits_def(Pure(), HasParent(ReduceOp), IsTerminator(), ReturnLike())


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
        check_variadic_tt_tensors(self)
        types = [require_tensor(self, v.type, "operand") for v in self.srcs]
        if len(self.result) != len(types):
            raise VerifyException("'tt.scan' op must have one result per operand")
        check_same_shape_and_encoding(self, [*types, *self.result.types], "operands and results")
        axis = self.axis.value.data
        rank = len(types[0].get_shape())
        if not 0 <= axis < rank:
            raise VerifyException(f"'tt.scan' op axis out of bounds for operand rank {rank}")
        for src, res in zip(types, self.result.types):
            if element_type_of(res) != src.element_type:
                raise VerifyException("'tt.scan' op operand types and result types must agree")
            if src != res:
                raise VerifyException(f"'tt.scan' op result type {type_text(res)} must equal the operand type {type_text(src)}")
        elem_types = [t.element_type for t in types]
        _verify_combine_region(self, self.combineOp, elem_types, 2 * len(types), "combine")


@irdl_op_definition
class ScanReturnOp(_RegionReturnOp):
    """``tt.scan.return %s : f32``: terminator of a ``tt.scan`` combiner."""

    name = "tt.scan.return"

    traits = traits_def(Pure(), HasParent(ScanOp), IsTerminator(), ReturnLike())


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
        check_same_shape_and_encoding(self, [*(v.type for v in self.srcs), *self.result.types], "operands and results")
        pack = self.pack.value.data
        if pack < 1:
            raise VerifyException("'tt.map_elementwise' op pack must be at least 1")
        block = self.scalarOp.blocks.first
        if block is None:
            raise VerifyException("'tt.map_elementwise' op expects a single-block region")
        if len(block.arg_types) != len(self.srcs) * pack:
            raise VerifyException("'tt.map_elementwise' op region has wrong number of arguments")
        expected = [element_type_of(v.type) for v in self.srcs for _ in range(pack)]
        if list(block.arg_types) != expected:
            raise VerifyException("'tt.map_elementwise' op argument types did not match")


@irdl_op_definition
class MapElementwiseReturnOp(_RegionReturnOp):
    """``tt.map_elementwise.return %r : f32``: terminator of ``tt.map_elementwise``."""

    name = "tt.map_elementwise.return"

    traits = traits_def(Pure(), HasParent(MapElementwiseOp), IsTerminator(), ReturnLike())

    def verify_(self) -> None:
        parent = self.parent_op()
        if not isinstance(parent, MapElementwiseOp):
            return
        pack = parent.pack.value.data
        expected = [element_type_of(r.type) for r in parent.result for _ in range(pack)]
        if [v.type for v in self.operands] != expected:
            raise VerifyException("'tt.map_elementwise.return' op region return does not match map_elementwise result")
