"""``ttg`` ops of the software pipeliner: stage predicates and masked regions.

* ``%p = ttg.predicate_stage %iv, %ub, %step maxStage 2 stage 0 : i32 -> i1``: whether
  stage ``stage`` of the iteration at ``%iv`` runs (``iv``, ``ub``, ``step`` share
  one integer or index type).
* ``ttg.mask`` runs its one-block region only where ``%pred`` holds; the region ends
  with ``ttg.mask.return`` whose values are the op's results. Triton has no custom
  syntax for it (generic form); ``ttg.mask.return %a : f32``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import I32, IndexType, IntegerAttr, IntegerType, i1, i32
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import HasParent, IsTerminator, Pure, ReturnLike
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.tt.types import type_text

__all__ = ["MaskOp", "MaskReturnOp", "PredicateStageOp"]


@irdl_op_definition
class PredicateStageOp(IRDLOperation):
    """``ttg.predicate_stage`` (see the module doc)."""

    name = "ttg.predicate_stage"

    T: ClassVar = VarConstraint("T", AnyAttr())

    iv = operand_def(T)
    ub = operand_def(T)
    step = operand_def(T)
    maxStage = prop_def(IntegerAttr[I32])
    stage = prop_def(IntegerAttr[I32])
    result = result_def(IntegerType(1))

    traits = traits_def(Pure())

    assembly_format = "$iv `,` $ub `,` $step `maxStage` $maxStage `stage` $stage attr-dict `:` type($iv) `->` type($result)"

    def __init__(self, iv: SSAValue, ub: SSAValue, step: SSAValue, max_stage: int, stage: int):
        super().__init__(
            operands=[iv, ub, step],
            result_types=[i1],
            properties={"maxStage": IntegerAttr(max_stage, i32), "stage": IntegerAttr(stage, i32)},
        )

    def verify_(self) -> None:
        ty = self.iv.type
        if not isinstance(ty, (IntegerType, IndexType)):
            raise VerifyException(
                f"'ttg.predicate_stage' op operand #0 must be signless integer or index, but got '{type_text(ty)}'"
            )


@irdl_op_definition
class MaskOp(IRDLOperation):
    """``ttg.mask``: a one-block region run under ``pred`` (generic syntax only)."""

    name = "ttg.mask"

    pred = operand_def(IntegerType(1))
    result = var_result_def()
    region = region_def("single_block")

    def __init__(self, pred: SSAValue, region: Region, result_types: Sequence[Attribute] = ()):
        super().__init__(operands=[pred], result_types=[list(result_types)], regions=[region])


@irdl_op_definition
class MaskReturnOp(IRDLOperation):
    """``ttg.mask.return %a, %b : f32, i32``: ends a ``ttg.mask`` region; its results."""

    name = "ttg.mask.return"

    values = var_operand_def()

    traits = traits_def(Pure(), IsTerminator(), ReturnLike(), HasParent(MaskOp))

    assembly_format = "$values attr-dict `:` type($values)"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[list(values)])
