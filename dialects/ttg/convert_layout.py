"""``ttg.convert_layout`` and its canonicalization patterns (xDSL's ``canonicalize`` pass).

``%1 = ttg.convert_layout %0 : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #blocked>``
moves a tensor to another distributed layout (same shape and element type). The
patterns, tried in the order of ``CONVERT_LAYOUT_PATTERNS``:

* ``FoldIdentityConvert``: a convert between identical types is replaced by its
  source; so is one whose two layouts are the same linear layout for the tensor's
  shape (``#ttg.linear`` vs an equal ``#ttg.blocked``; out dims compared too), when
  its users do not constrain the layout (see the class).
* ``FoldConvertChain``: ``cvt(cvt(x))`` becomes ``cvt(x)``, or ``x`` when the outer
  result type is ``x``'s type.
* ``RematerializeConvertedSource``: a convert of a ``tt.splat``, ``tt.make_range``
  or a splat ``arith.constant`` becomes that op built directly in the result layout
  (as Triton's canonicalizer does).

A dead convert is removed by DCE (the op is ``Pure``).
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue, Use
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.traits import HasCanonicalizationPatternsTrait, Pure
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.tt.checks import TT_TENSOR, check_ods_type, is_tt_tensor
from ltc.dialects.ttg.memory import LocalAllocOp, LocalStoreOp
from ltc.dialects.ttg_attrs import LayoutAttr

__all__ = [
    "CONVERT_LAYOUT_PATTERNS",
    "ConvertLayoutOp",
    "FoldConvertChain",
    "FoldIdentityConvert",
    "RematerializeConvertedSource",
    "built_in_any_layout",
    "same_layout",
]


class ConvertLayoutOpHasCanonicalizationPatterns(HasCanonicalizationPatternsTrait):
    """``ttg.convert_layout``'s canonicalization: ``CONVERT_LAYOUT_PATTERNS`` (below)."""

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return CONVERT_LAYOUT_PATTERNS


@irdl_op_definition
class ConvertLayoutOp(IRDLOperation):
    """Move a tensor to another distributed layout (same shape and element type).

    ``%1 = ttg.convert_layout %0 : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #blocked>``
    """

    name = "ttg.convert_layout"

    src = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure(), ConvertLayoutOpHasCanonicalizationPatterns())

    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, result_type: TensorType):
        super().__init__(operands=[src], result_types=[result_type])

    def verify_(self) -> None:
        src, res = self.src.type, self.result.type
        check_ods_type(self, "operand", 0, src, is_tt_tensor(src), TT_TENSOR)
        check_ods_type(self, "result", 0, res, is_tt_tensor(res), TT_TENSOR)
        assert isinstance(src, TensorType) and isinstance(res, TensorType)
        if src.get_shape() != res.get_shape():
            raise VerifyException("requires the same shape for all operands and results")
        if src.element_type != res.element_type:
            raise VerifyException("requires the same element type for all operands and results")


def same_layout(src: Attribute, dst: Attribute) -> bool:
    """True when two tensor types hold the same shape, element type and layout: equal
    types, or layouts whose linear layouts for that shape are equal (out dims included)."""
    if src == dst:
        return True
    if not (isinstance(src, TensorType) and isinstance(dst, TensorType)):
        return False
    if src.get_shape() != dst.get_shape() or src.element_type != dst.element_type:
        return False
    a, b = src.encoding, dst.encoding
    if not (isinstance(a, LayoutAttr) and isinstance(b, LayoutAttr)):
        return False
    shape = list(src.get_shape())
    try:
        return a.to_linear_layout(shape) == b.to_linear_layout(shape)
    except Exception:  # a layout that has no linear layout for this shape: not provably equal
        return False


class FoldIdentityConvert(RewritePattern):
    """``cvt(x) -> x`` when the convert does not move data.

    With equal types the result is simply ``x``. When the two types spell the same
    linear layout differently (a ``#ttg.linear`` equal to a ``#ttg.blocked``), replacing
    the result by ``x`` changes the type its users see, so it is done only when every
    user accepts any layout there: another ``ttg.convert_layout``, ``ttg.local_alloc``
    or ``ttg.local_store`` (as the stored value), whose verifiers check shape and
    element type only. Other users keep the convert (it is free at run time).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertLayoutOp, rewriter: PatternRewriter) -> None:
        src_type, res_type = op.src.type, op.result.type
        if src_type == res_type:
            rewriter.replace(op, [], [op.src])
            return
        if op.result.uses and all(_accepts_any_layout(use) for use in op.result.uses) and same_layout(
            src_type, res_type
        ):
            rewriter.replace(op, [], [op.src])


def _accepts_any_layout(use: Use) -> bool:
    """True when ``use`` is an operand whose layout its op does not constrain."""
    user = use.operation
    if isinstance(user, (ConvertLayoutOp, LocalAllocOp)):
        return True
    return isinstance(user, LocalStoreOp) and use.index == 0


class FoldConvertChain(RewritePattern):
    """``cvt(cvt(x)) -> cvt(x)``, or ``-> x`` when the outer result has ``x``'s type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertLayoutOp, rewriter: PatternRewriter) -> None:
        inner = op.src.owner
        if not isinstance(inner, ConvertLayoutOp):
            return
        x = inner.src
        if x.type == op.result.type:
            rewriter.replace(op, [], [x])
        else:
            rewriter.replace(op, ConvertLayoutOp(x, op.result.type))


_REMATERIALIZABLE = ("tt.splat", "tt.make_range")


def built_in_any_layout(src: Operation) -> bool:
    """Whether ``src`` (one result) builds the same values in any layout: a splat, a range
    or a splat constant, which ``RematerializeConvertedSource`` builds again in the
    layout a conversion of it asks for."""
    if len(src.results) != 1:
        return False
    if src.name in _REMATERIALIZABLE:
        return True
    if src.name == "arith.constant":
        value = src.properties.get("value", src.attributes.get("value"))
        return isinstance(value, DenseIntOrFPElementsAttr) and value.is_splat()
    return False


class RematerializeConvertedSource(RewritePattern):
    """``cvt(splat(s))``, ``cvt(make_range)``, ``cvt(arith.constant dense<c>)``: build the
    source op directly in the convert's result layout (its value does not depend on
    the layout)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertLayoutOp, rewriter: PatternRewriter) -> None:
        src = op.src.owner
        if not isinstance(src, Operation) or not built_in_any_layout(src):
            return
        res_type = op.result.type
        assert isinstance(res_type, TensorType)
        if src.name in _REMATERIALIZABLE:
            new = type(src).create(
                operands=list(src.operands),
                result_types=[res_type],
                properties=dict(src.properties),
                attributes=dict(src.attributes),
                location=src.location,
            )
            _keep_name(new, op, src)
            rewriter.replace(op, new)
        else:  # a splat constant
            value = src.properties.get("value", src.attributes.get("value"))
            assert isinstance(value, DenseIntOrFPElementsAttr)
            new_value = DenseIntOrFPElementsAttr.from_list(res_type, [value.get_values()[0]])
            props = {**src.properties}
            attrs = {**src.attributes}
            if "value" in props:
                props["value"] = new_value
            else:
                attrs["value"] = new_value
            new = type(src).create(result_types=[res_type], properties=props, attributes=attrs, location=src.location)
            _keep_name(new, op, src)
            rewriter.replace(op, new)


def _keep_name(new: Operation, cvt: ConvertLayoutOp, src: Operation) -> None:
    """The rebuilt source keeps a name: the conversion's, else the source's (the printer
    tells equal names apart)."""
    new.results[0].name_hint = cvt.result.name_hint or src.results[0].name_hint


CONVERT_LAYOUT_PATTERNS: tuple[RewritePattern, ...] = (
    FoldIdentityConvert(),
    FoldConvertChain(),
    RematerializeConvertedSource(),
)
"""The canonicalization patterns of ``ttg.convert_layout``, in the order they are tried."""
