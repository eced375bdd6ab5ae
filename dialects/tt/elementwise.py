"""Elementwise ``tt`` ops: casts and arithmetic with no ``arith`` equivalent.

``tt.int_to_ptr``, ``tt.ptr_to_int``, ``tt.bitcast``, ``tt.fp_to_fp`` (``, rounding
= rtne`` after the attribute dictionary, required for a downcast), ``tt.clampf``,
``tt.precise_sqrt``, ``tt.precise_divf``, ``tt.approx_divf``, ``tt.mulhiui``,
``tt.extern_elementwise``, ``tt.elementwise_inline_asm``. Casts print ``T -> R``;
the same-type ops print one type.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import I32, BoolAttr, IntegerAttr, IntegerType, StringAttr, TensorType, f32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.attr_dict import parse_attr_dict_into, print_sorted_attr_dict
from ltc.dialects.tt.attrs import PropagateNan, PropagateNanAttr, RoundingMode, RoundingModeAttr
from ltc.dialects.tt.checks import TT_TYPE, check_ods_type, check_same_shape_and_encoding, is_tensor, is_tt_type
from ltc.dialects.tt.types import PtrType, element_bit_width, element_type_of, is_float_type, type_text

__all__ = [
    "ApproxDivFOp",
    "BitcastOp",
    "ClampFOp",
    "ElementwiseInlineAsmOp",
    "ExternElementwiseOp",
    "FpToFpOp",
    "IntToPtrOp",
    "MulhiUIOp",
    "PreciseDivFOp",
    "PreciseSqrtOp",
    "PtrToIntOp",
]

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
        check_same_shape_and_encoding(self, (self.src.type, self.result.type), "operands and results")
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
        src_ptr, dst_ptr = isinstance(element_type_of(src), PtrType), isinstance(element_type_of(result), PtrType)
        if src_ptr != dst_ptr:
            raise VerifyException("'tt.bitcast' op Cannot bitcast pointer to non-pointer type")
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

    ROUNDING_CODES: ClassVar[tuple[RoundingMode, ...]] = (RoundingMode.RTZ, RoundingMode.RTNE)
    """Triton's integer codes of the rounding modes (``{rounding = 1 : i32}`` is rtne)."""

    def __init__(self, src: SSAValue | Operation, result_type: Attribute, rounding: RoundingMode | None = None):
        super().__init__(
            operands=[src],
            result_types=[result_type],
            properties={"rounding": RoundingModeAttr(rounding) if rounding else None},
        )

    @classmethod
    def parse(cls, parser: Parser) -> FpToFpOp:
        src = parser.parse_unresolved_operand()
        pos = parser.pos
        props, attrs = parse_attr_dict_into(parser, ("rounding",))
        code = props.pop("rounding", None)
        if code is not None:  # the property in its generic (integer) spelling
            if not isinstance(code, IntegerAttr) or not 0 <= code.value.data < len(cls.ROUNDING_CODES):
                parser.raise_error("rounding must be 0 (rtz) or 1 (rtne)", pos, parser.pos)
            props["rounding"] = RoundingModeAttr(cls.ROUNDING_CODES[code.value.data])
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("rounding")
            parser.parse_punctuation("=")
            props["rounding"] = RoundingModeAttr(RoundingModeAttr.parse_parameter(parser))
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(src, src_type)],
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        print_sorted_attr_dict(printer, self, reserved=("rounding",))
        if self.rounding is not None:
            printer.print_string(f", rounding = {self.rounding.data.value}")
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        check_same_shape_and_encoding(self, (self.src.type, self.result.type), "operands and results")
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

    def verify_(self) -> None:
        # Triton's TT_Float32Like: the fast division is an f32 instruction
        for index, value in enumerate(self.operands):
            ty = value.type
            ok = element_type_of(ty) == f32 and (ty == f32 or isinstance(ty, TensorType))
            if not ok:
                raise VerifyException(
                    f"'tt.approx_divf' op operand #{index} must be 32-bit float or ranked tensor of 32-bit float "
                    f"values, but got '{type_text(ty)}'"
                )


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
        # ODS: each source and the result a ``TT_Type`` (not ``index``)
        for i, src in enumerate(self.srcs):
            check_ods_type(self, "operand", i, src.type, is_tt_type(src.type), f"variadic of {TT_TYPE}")
        check_ods_type(self, "result", 0, self.result.type, is_tt_type(self.result.type), TT_TYPE)
        check_same_shape_and_encoding(self, [*(v.type for v in self.srcs), self.result.type], "operands and results")


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
        for i, res in enumerate(self.result):  # (Triton's operands are of any type)
            check_ods_type(self, "result", i, res.type, is_tt_type(res.type), f"variadic of {TT_TYPE}")
        types = [*(v.type for v in self.args), *self.result.types]
        if any(is_tensor(t) for t in self.result.types) and not any(is_tensor(v.type) for v in self.args):
            raise VerifyException(
                "'tt.elementwise_inline_asm' op if a result is non-scalar, then at least one operand must be non-scalar"
            )
        tensor_types = [t for t in types if is_tensor(t)]
        check_same_shape_and_encoding(self, tensor_types, "tensor operands and results")
        if self.args:
            first = self.args[0].type
            count = first.element_count() if isinstance(first, TensorType) else 0
            # Triton reads the i32 as unsigned: -1 asks for packs of 4294967295 elements.
            pack = self.packed_element.value.data & 0xFFFFFFFF
            if pack == 0:
                raise VerifyException("'tt.elementwise_inline_asm' op packed_element must be positive")
            if count % pack:
                raise VerifyException(
                    f"'tt.elementwise_inline_asm' op number of input elements {count} must be a multiple of "
                    f"the op's packed_element attribute, {pack}"
                )
