"""The ``ub`` dialect: ``ub.poison`` of any type, printed as Triton 3.9 prints it."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import f16

from ltc.dialects.ub import PoisonOp
from tests import oracle
from tests.dialect_helpers import module_text, op_lines, parse, print_ir

BODY = (
    "%0 = ub.poison : tensor<128x64xf16>\n"
    "%1 = ub.poison : !tt.tensordesc<64x128xf16, #shared>\n"
    "%2 = ub.poison : !ttg.memdesc<64x64xf16, #shared, #smem, mutable>\n"
    "%3 = ub.poison {tag = 1 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>\n"
    "%4 = ub.poison : i32"
)


def test_roundtrip() -> None:
    printed = print_ir(parse(module_text("", BODY)))
    assert [line for line in op_lines(printed) if "ub.poison" in line] == [
        "%v0 = ub.poison : tensor<128x64xf16>",
        "%v1 = ub.poison : !tt.tensordesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, "
        "transposed = false, elementBitWidth = 16}>>",
        "%v2 = ub.poison : !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, "
        "transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>",
        "%v3 = ub.poison {tag = 1 : i32} : tensor<64x64x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], "
        "threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>",
        "%v4 = ub.poison : i32",
    ]


def test_builder() -> None:
    op = PoisonOp(f16)
    assert op.result.type == f16 and op.name == "ub.poison"


@oracle.requires_triton
def test_prints_as_triton() -> None:
    text = module_text("", BODY)
    printed = print_ir(parse(text))
    triton = oracle.triton_reprint(text)
    assert op_lines(printed) == op_lines(triton)
    assert oracle.triton_reprint(printed) == triton


@pytest.mark.parametrize("bad", ["%0 = ub.poison", "%0 = ub.poison : "])
def test_needs_a_type(bad: str) -> None:
    from xdsl.utils.exceptions import ParseError

    with pytest.raises(ParseError):
        parse(module_text("", bad))
