"""Hopper warp-group MMA: ``ttng.warp_group_dot`` and ``ttng.warp_group_dot_wait``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ltc.dialects.attr_dict import parse_attr_dict_into, print_sorted_attr_dict
from ltc.dialects.ods_checks import check_i32_attr, check_i32_enum, is_tt_float
from ltc.dialects.tt import element_bit_width, parse_dot_types, print_dot_types
from ltc.dialects.tt.checks import TT_FP_INT_TENSOR, check_ods_type, is_tt_fp_int_tensor
from ltc.dialects.ttg import MemDescType, shape_of_shaped
from ltc.dialects.ttg_attrs import LayoutAttr
from ltc.dialects.ttng.common import i32_attr
from ltc.dialects.verifier import layout_context
from xdsl.dialects.builtin import (
    BoolAttr,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float32Type,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ltc.encodings.dot_operand import DotOperandEncoding
from ltc.encodings.nvidia_mma import NvidiaMmaEncoding
from ltc.encodings.shared import NVMMASharedEncoding, SharedLinearEncoding, shape_per_cta

__all__ = ["WarpGroupDotOp", "WarpGroupDotWaitOp"]


def _shape(attr: Attribute) -> tuple[int, ...]:
    shape = shape_of_shaped(attr)
    assert shape is not None
    return shape


@irdl_op_definition
class WarpGroupDotOp(IRDLOperation):
    """Hopper warp-group matrix multiply-accumulate ``d = a * b + c``.

    ``%d = ttng.warp_group_dot %a, %b, %c[, %useC] {inputPrecision = 0 : i32, isAsync = true}
    : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem>
    -> tensor<128x128xf32, #mma>``

    ``a`` is a memdesc or a register tensor (``#ttg.dot_op`` layout), ``b`` a memdesc,
    ``c`` has the result's type. Defaults are not printed: ``inputPrecision = 2``
    (ieee), ``maxNumImpreciseAcc = 0``, ``isAsync = false``.
    """

    name = "ttng.warp_group_dot"

    a = operand_def()
    b = operand_def(MemDescType)
    c = operand_def(TensorType)
    useC = opt_operand_def(i1)
    d = result_def(TensorType)

    inputPrecision = prop_def(IntegerAttr[IntegerType], default_value=i32_attr(2))
    maxNumImpreciseAcc = prop_def(IntegerAttr[IntegerType], default_value=i32_attr(0))
    isAsync = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "inputPrecision": i32_attr(2),
        "maxNumImpreciseAcc": i32_attr(0),
        "isAsync": IntegerAttr.from_bool(False),
    }

    def __init__(
        self,
        a: SSAValue,
        b: SSAValue,
        c: SSAValue,
        use_c: SSAValue | None = None,
        input_precision: int = 2,
        max_num_imprecise_acc: int = 0,
        is_async: bool = False,
    ):
        super().__init__(
            operands=[a, b, c, [use_c] if use_c is not None else []],
            result_types=[c.type],
            properties={
                "inputPrecision": i32_attr(input_precision),
                "isAsync": IntegerAttr.from_bool(is_async),
                "maxNumImpreciseAcc": i32_attr(max_num_imprecise_acc),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> WarpGroupDotOp:
        a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        b = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        c = parser.parse_unresolved_operand()
        use_c = None
        if parser.parse_optional_punctuation(",") is not None:
            use_c = parser.parse_unresolved_operand()
        props, attrs = parse_attr_dict_into(parser, cls.DEFAULTS)
        a_type, b_type, d_type = parse_dot_types(parser)
        operands = [
            parser.resolve_operand(a, a_type),
            parser.resolve_operand(b, b_type),
            parser.resolve_operand(c, d_type),
        ]
        if use_c is not None:
            operands.append(parser.resolve_operand(use_c, i1))
        return cls.create(
            operands=operands, result_types=[d_type], properties={**cls.DEFAULTS, **props}, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.a, self.b, self.c, *([self.useC] if self.useC else [])], printer.print_operand)
        print_sorted_attr_dict(printer, self, defaults=self.DEFAULTS)
        print_dot_types(printer, self.a.type, self.b.type, self.d.type)

    def verify_(self) -> None:
        # ODS's order: attribute constraints, then operand and result types.
        check_i32_enum(self, "inputPrecision", range(5))
        check_i32_attr(self, "maxNumImpreciseAcc")
        check_ods_type(self, "operand", 2, self.c.type, is_tt_fp_int_tensor(self.c.type), TT_FP_INT_TENSOR)
        check_ods_type(self, "result", 0, self.d.type, is_tt_fp_int_tensor(self.d.type), TT_FP_INT_TENSOR)
        a_shape, b_shape, d_shape = _shape(self.a.type), _shape(self.b.type), _shape(self.d.type)
        if self.c.type != self.d.type:
            raise VerifyException("the accumulator and the result must have the same type")
        if not isinstance(self.a.type, (TensorType, MemDescType)):
            raise VerifyException("operand a must be a tensor or a memdesc")
        if len(a_shape) < 2 or len(b_shape) != len(a_shape) or len(d_shape) != len(a_shape):
            raise VerifyException("expected operands and result of the same rank (2 or more)")
        if a_shape[-1] != b_shape[-2]:
            raise VerifyException(
                "expected the last dimension of the first operand to be equal to the second-to-last "
                "dimension of the second operand"
            )
        if d_shape != (*a_shape[:-1], b_shape[-1]):
            raise VerifyException(
                "expected the output shape to be the concatenation of the last dimension of the first "
                "operand and the last dimension of the second"
            )
        self._verify_wgmma(d_shape)
        a_type = self.a.type
        if isinstance(a_type, TensorType) and isinstance(a_type.encoding, LayoutAttr):
            enc = a_type.encoding.encoding
            width = element_bit_width(a_type)
            if isinstance(enc, DotOperandEncoding) and width:
                k_width = 32 // width
                if enc.k_width != k_width:
                    raise VerifyException(f"in-register LHS operand must have a kWidth of {k_width} but got {enc.k_width}")

    def _verify_wgmma(self, d_shape: tuple[int, ...]) -> None:
        """Triton's ``WarpGroupDotOp::verify`` (up to the kWidth rule), in its order:
        a Hopper (v3) NVMMA result; A in NVMMA shared / shared linear / dot-operand
        layout, B in NVMMA shared / shared linear; warps a multiple of 4; a 2-d result
        whose per-CTA M divides by 64 and N by 8; operand element types v3 MMA takes;
        an fp8 product into f32 needs ``maxNumImpreciseAcc >= 32``."""
        res = _encoding(self.d.type)
        if not isinstance(res, NvidiaMmaEncoding) or res.version_major != 3:
            raise VerifyException("WGMMA result layout must be Hopper NVMMA")
        if not isinstance(_encoding(self.a.type), NVMMASharedEncoding | SharedLinearEncoding | DotOperandEncoding):
            raise VerifyException("WGMMA A operand must have NVMMA shared or dot layout")
        if not isinstance(_encoding(self.b.type), NVMMASharedEncoding | SharedLinearEncoding):
            raise VerifyException("WGMMA B operand must have NVMMA shared layout")
        num_warps = layout_context(self).num_warps
        if num_warps is not None and num_warps % 4:
            raise VerifyException("WGMMA requires num_warps to be divisible by 4")
        if len(d_shape) != 2:
            raise VerifyException("WGMMA result shape must be 2D")
        m, n = shape_per_cta(d_shape, res.cga)
        if m % 64:
            raise VerifyException("WGMMA result M dimension must be divisible by 64")
        if n % 8:
            raise VerifyException("WGMMA result N dimension must be divisible by 8")
        a_elem, b_elem = _element_type(self.a.type), _element_type(self.b.type)
        if not (_v3_mma_element(a_elem) and _v3_mma_element(b_elem)):
            raise VerifyException("unsupported MMA version for the given operands")
        if (
            self.maxNumImpreciseAcc.value.data < 32
            and isinstance(a_elem, Float8E5M2Type | Float8E4M3FNType)
            and isinstance(_element_type(self.d.type), Float32Type)
        ):
            raise VerifyException(
                "Cannot use F32 as the accumulator element type when the max_num_imprecise_acc is less than 32"
            )


def _encoding(ty: Attribute) -> object:
    """The ltc encoding of a tensor's or memdesc's layout (None without one)."""
    attr = getattr(ty, "encoding", None)
    return attr.encoding if isinstance(attr, LayoutAttr) else None


def _element_type(ty: Attribute) -> Attribute:
    return ty.element_type if isinstance(ty, TensorType | MemDescType) else ty


def _v3_mma_element(t: Attribute) -> bool:
    """Triton's ``supportMMA(value, 3)``: fp8 (any of the four), f16, bf16, f32, f64, i8."""
    return is_tt_float(t) or (isinstance(t, IntegerType) and t.width.data == 8)


@irdl_op_definition
class WarpGroupDotWaitOp(IRDLOperation):
    """Wait until at most ``pendings`` async wgmma groups are in flight; passes its
    operands through (results have the operands' types).

    ``%r:3 = ttng.warp_group_dot_wait %d, %a, %b {pendings = 0 : i32} : tensor<...>, !ttg.memdesc<...>, ...``
    """

    name = "ttng.warp_group_dot_wait"

    inputs = var_operand_def()
    outputs = var_result_def()
    pendings = prop_def(IntegerAttr[IntegerType])

    def __init__(self, inputs: Sequence[SSAValue], pendings: int):
        super().__init__(
            operands=[list(inputs)],
            result_types=[[v.type for v in inputs]],
            properties={"pendings": i32_attr(pendings)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> WarpGroupDotWaitOp:
        inputs = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        props, attrs = parse_attr_dict_into(parser, ("pendings",))
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) != len(inputs):
            parser.raise_error(f"expected {len(inputs)} types, got {len(types)}")
        operands = [parser.resolve_operand(v, t) for v, t in zip(inputs, types)]
        return cls.create(operands=operands, result_types=types, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.inputs, printer.print_operand)
        print_sorted_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_list(self.inputs.types, printer.print_attribute)

    def verify_(self) -> None:
        check_i32_attr(self, "pendings")
        if not self.inputs:
            raise VerifyException("expected to be waiting on at least one dependency")
        if tuple(self.inputs.types) != tuple(self.outputs.types):
            raise VerifyException("the results must have the operands' types")
