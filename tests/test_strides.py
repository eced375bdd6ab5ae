"""Constant strides (``ltc.passes.strides``): exact strides and base divisibility of index
and pointer tensors in hand-written IR, and what must not be claimed.

Every expected value is worked out by hand from the definition ``v[i] = b + Σ_d s_d·i_d``
(the derivation is next to it); ``contiguous_dims`` is checked on the same tensors.
"""

from __future__ import annotations

import pytest

import ltc.tools.pipeline as P
from tests.dialect_helpers import named_values
from ltc.passes.axis_info import KMAX_DIVISOR, AxisInfoAnalysis
from ltc.passes.strides import StrideAnalysis, Strides, contiguous_dims, pow2_divisor




def strides_of(body: str, args: str = "") -> dict[str, Strides | None]:
    """Strides of every named value of ``tt.func @k(args) { body }``."""
    text = f"module {{\n  tt.func public @k({args}) {{\n{body}\n    tt.return\n  }}\n}}\n"
    module = P.parse_module(text)
    analysis = StrideAnalysis(AxisInfoAnalysis(module))
    return {name: analysis.get(v) for name, v in named_values(module).items()}


def _copy_offsets(k: int, pointee: str = "f16", row_factor: str = "%ck") -> str:
    """``r·k + c`` on a [512, k] tile and pointers ``p + offs`` (the Table 2 copy kernel)."""
    return f"""
    %ck = arith.constant dense<{k}> : tensor<512x1xi32>
    %r = tt.make_range {{end = 512 : i32, start = 0 : i32}} : tensor<512xi32>
    %re = tt.expand_dims %r {{axis = 1 : i32}} : tensor<512xi32> -> tensor<512x1xi32>
    %rk = arith.muli %re, {row_factor} : tensor<512x1xi32>
    %c = tt.make_range {{end = {k} : i32, start = 0 : i32}} : tensor<{k}xi32>
    %ce = tt.expand_dims %c {{axis = 0 : i32}} : tensor<{k}xi32> -> tensor<1x{k}xi32>
    %rb = tt.broadcast %rk : tensor<512x1xi32> -> tensor<512x{k}xi32>
    %cb = tt.broadcast %ce : tensor<1x{k}xi32> -> tensor<512x{k}xi32>
    %offs = arith.addi %rb, %cb : tensor<512x{k}xi32>
    %ps = tt.splat %p : !tt.ptr<{pointee}> -> tensor<512x{k}x!tt.ptr<{pointee}>>
    %pp = tt.addptr %ps, %offs : tensor<512x{k}x!tt.ptr<{pointee}>>, tensor<512x{k}xi32>"""


def test_pow2_divisor():
    assert pow2_divisor(0) == KMAX_DIVISOR
    assert pow2_divisor(12) == 4
    assert pow2_divisor(-8) == 8
    assert pow2_divisor(1) == 1


def test_copy_kernel_offsets_are_row_major_contiguous():
    v = strides_of(_copy_offsets(2), "%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}")
    # make_range(0, 512): stride 1, base 0 (divisible by anything)
    assert v["r"] == Strides((1,), KMAX_DIVISOR)
    # expand_dims adds the extent-1 dim with stride 0; times 2 doubles the stride
    assert v["re"] == Strides((1, 0), KMAX_DIVISOR)
    assert v["rk"] == Strides((2, 0), KMAX_DIVISOR)
    assert v["ce"] == Strides((0, 1), KMAX_DIVISOR)
    # r·2 + c: element (i, j) is 2i + j
    assert v["offs"] == Strides((2, 1), KMAX_DIVISOR)
    # p (16-byte aligned) + 2 bytes per f16: (4, 2) bytes
    assert v["ps"] == Strides((0, 0), 16)
    assert v["pp"] == Strides((4, 2), 16)
    # dim 1 steps one f16, dim 0 steps one whole row of 2: both dims chain in order [1, 0]
    assert contiguous_dims(v["pp"].strides, (512, 2), (1, 0), 2) == 2
    assert contiguous_dims(v["offs"].strides, (512, 2), (1, 0), 1) == 2
    # ... but not in order [0, 1] (dim 0 steps 2 elements)
    assert contiguous_dims(v["offs"].strides, (512, 2), (0, 1), 1) == 0


def test_runtime_row_stride_is_not_claimed():
    args = "%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}"
    body = "\n    %ns = tt.splat %n : i32 -> tensor<512x1xi32>" + _copy_offsets(2, row_factor="%ns")
    v = strides_of(body, args)
    # a runtime factor is never a stride, even a 16-divisible one
    assert v["ns"] == Strides((0, 0), 16)
    assert v["rk"] is None
    assert v["offs"] is None
    assert v["pp"] is None


def test_rows_that_do_not_touch():
    # r·4 + c on [512, 2]: dim 1 is contiguous, rows are 4 apart (gaps of 2)
    v = strides_of(_copy_offsets(2).replace("dense<2>", "dense<4>"), "%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}")
    assert v["offs"] == Strides((4, 1), KMAX_DIVISOR)
    assert contiguous_dims(v["offs"].strides, (512, 2), (1, 0), 1) == 1


def test_program_offset_scalars_take_axis_info_divisibility():
    v = strides_of(
        """
    %pid = tt.get_program_id x : i32
    %c1024 = arith.constant 1024 : i32
    %start = arith.muli %pid, %c1024 : i32
    %ss = tt.splat %start : i32 -> tensor<1024xi32>
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %offs = arith.addi %ss, %r : tensor<1024xi32>
    %r4 = tt.make_range {end = 1028 : i32, start = 4 : i32} : tensor<1024xi32>
    %back = arith.subi %r4, %r : tensor<1024xi32>
    %twice = arith.addi %r, %r : tensor<1024xi32>
    %c3 = arith.constant dense<3> : tensor<1024xi32>
    %sh = arith.shli %r4, %c3 : tensor<1024xi32>
    %neg = arith.constant dense<-2> : tensor<1024xi32>
    %down = arith.muli %r, %neg : tensor<1024xi32>
    %wide = arith.extsi %offs : tensor<1024xi32> to tensor<1024xi64>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %pp = tt.addptr %ps, %wide : tensor<1024x!tt.ptr<f32>>, tensor<1024xi64>""",
        "%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}",
    )
    # pid·1024 is a scalar: stride-free, divisible by 1024 (axis info)
    assert v["start"] == Strides((), 1024)
    assert v["ss"] == Strides((0,), 1024)
    assert v["offs"] == Strides((1,), 1024)
    # make_range(4, 1028): base 4
    assert v["r4"] == Strides((1,), 4)
    # (4 + i) - i = 4: stride 0, base 4
    assert v["back"] == Strides((0,), 4)
    assert v["twice"] == Strides((2,), KMAX_DIVISOR)
    # (4 + i) << 3 = 32 + 8i
    assert v["sh"] == Strides((8,), 32)
    assert v["down"] == Strides((-2,), KMAX_DIVISOR)
    assert v["wide"] == Strides((1,), 1024)
    # f32 pointer: 4 bytes per element, base min(16, 1024·4)
    assert v["pp"] == Strides((4,), 16)


def test_trans_permutes_and_unknown_ops_are_unknown():
    v = strides_of(
        """
    %ck = arith.constant dense<8> : tensor<4x1xi32>
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %rk = arith.muli %ck, %re : tensor<4x1xi32>
    %c = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
    %rb = tt.broadcast %rk : tensor<4x1xi32> -> tensor<4x8xi32>
    %cb = tt.broadcast %ce : tensor<1x8xi32> -> tensor<4x8xi32>
    %offs = arith.addi %rb, %cb : tensor<4x8xi32>
    %t = tt.trans %offs {order = array<i32: 1, 0>} : tensor<4x8xi32> -> tensor<8x4xi32>
    %c5 = arith.constant dense<5> : tensor<4x8xi32>
    %rem = arith.remsi %offs, %c5 : tensor<4x8xi32>
    %sq = arith.muli %offs, %offs : tensor<4x8xi32>""",
    )
    assert v["offs"] == Strides((8, 1), KMAX_DIVISOR)
    assert v["t"] == Strides((1, 8), KMAX_DIVISOR)
    # transposed: dim 0 is the fast one, and it chains with dim 1 in order [0, 1]
    assert contiguous_dims(v["t"].strides, (8, 4), (0, 1), 1) == 2
    assert v["rem"] is None  # wraps around every 5
    assert v["sq"] is None  # not affine
    assert v["c5"] == Strides((0, 0), 1)


@pytest.mark.parametrize(
    ("strides", "shape", "order", "unit", "expected"),
    [
        ((2, 1), (512, 2), (1, 0), 1, 2),
        ((16, 1), (512, 16), (1, 0), 1, 2),
        ((1, 0), (512, 1), (0, 1), 1, 2),  # extent-1 dims never break the chain
        ((0, 1), (1, 8), (0, 1), 1, 2),
        ((3, 1), (512, 2), (1, 0), 1, 1),
        ((2, 2), (512, 2), (1, 0), 2, 1),  # f16 bytes: dim 1 fine, a row would need 4
        ((2, 1), (512, 2), (1, 0), 2, 0),
        ((64, 8, 1), (4, 8, 8), (2, 1, 0), 1, 3),
        ((64, 8, 1), (4, 8, 8), (2, 0, 1), 1, 1),
    ],
)
def test_contiguous_dims(strides, shape, order, unit, expected):  # noqa: ANN001
    assert contiguous_dims(strides, shape, order, unit) == expected
