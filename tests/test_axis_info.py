"""Axis info (``ltc.passes.axis_info``): exact contiguity / divisibility / constancy /
constant of values in hand-written IR and in the real kernels of ``examples/triton``.

Every expected value is derived by hand from Triton 3.9's transfer functions (the
derivation is in the comment next to it); Triton's analysis itself is not exposed to
Python, its effect on layouts is checked differentially in ``test_coalesce.py``.
"""

from __future__ import annotations

import pathlib
import re

import pytest

import ltc.tools.pipeline as P
from tests.dialect_helpers import named_values
from ltc.passes.axis_info import (
    KMAX_DIVISOR,
    MAKE_RANGE_ZERO_DIVISIBILITY,
    AxisInfo,
    AxisInfoAnalysis,
    alignment,
    contiguity_order,
    highest_pow2_divisor,
    mask_alignment,
    pointee_bits,
)

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples" / "triton"
R0 = MAKE_RANGE_ZERO_DIVISIBILITY  # make_range starting at 0




def analyse(body: str, args: str = "") -> dict[str, AxisInfo]:
    """Axis info of every named value of ``tt.func @k(args) { body }``."""
    text = f"module {{\n  tt.func public @k({args}) {{\n{body}\n    tt.return\n  }}\n}}\n"
    module = P.parse_module(text)
    analysis = AxisInfoAnalysis(module)
    return {name: analysis.get(v) for name, v in named_values(module).items()}


def info(contig, div, const, constant=None) -> AxisInfo:
    return AxisInfo(tuple(contig), tuple(div), tuple(const), constant)


# ---------------------------------------------------------------------------------------
# the value type
# ---------------------------------------------------------------------------------------


def test_highest_pow2_divisor_pins_triton_constants():
    assert highest_pow2_divisor(0) == KMAX_DIVISOR == 2**62
    assert highest_pow2_divisor(0, 32) == R0 == 2**30
    assert highest_pow2_divisor(48) == 16
    assert highest_pow2_divisor(-16) == 16
    assert highest_pow2_divisor(-(2**63)) == 2**62


def test_constructor_raises_divisibility_to_unit_contiguity_dims():
    # dim 1 has contiguity 1: every element starts a run, its divisibility holds everywhere
    assert info([128, 1], [2, 16], [1, 1]).divisibility == (16, 16)
    # no dim of contiguity 1: nothing changes
    assert info([128, 4], [2, 16], [1, 1]).divisibility == (2, 16)
    with pytest.raises(ValueError):
        AxisInfo((1,), (1, 1), (1,))


def test_join_is_gcd_and_folds_differing_contiguity_into_divisibility():
    a = info([8], [16], [1])
    b = info([4], [64], [1])
    # contiguities differ: gcd(16, 64, 8, 4) = 4
    assert a.join(b) == info([4], [4], [1])
    c = info([8], [64], [2])
    assert a.join(c) == info([8], [16], [1])
    k = AxisInfo.of_constant(5, 32)
    assert k.join(k) == k and k.join(AxisInfo.of_constant(7, 32)).constant is None


def test_of_constant():
    assert AxisInfo.of_constant(0, 32) == info([1], [KMAX_DIVISOR], [1], 0)
    assert AxisInfo.of_constant(24, 32, (4, 8)) == info([1, 1], [8, 8], [4, 8], 24)
    # bits are read at the value's width: i1 true is -1 (signed), divisibility 1
    assert AxisInfo.of_constant(1, 1) == info([1], [1], [1], -1)
    assert AxisInfo.of_constant(2**32 - 1, 32).constant == -1


def test_contiguity_order_breaks_ties_towards_the_higher_dim():
    assert contiguity_order(info([1, 1], [1, 1], [1, 1])) == (1, 0)
    assert contiguity_order(info([128, 1], [1, 1], [1, 1])) == (0, 1)
    assert contiguity_order(info([1, 64], [1, 1], [1, 1])) == (1, 0)
    assert contiguity_order(info([4, 1, 4], [1, 1, 1], [1, 1, 1])) == (2, 0, 1)
    assert contiguity_order(info([1], [1], [1])) == (0,)


def test_alignment_helpers():
    ptr = info([1024], [16], [1])
    assert alignment(ptr, 0, 32) == 4  # 16 bytes / 4-byte f32
    assert alignment(ptr, 0, 8) == 16
    assert alignment(info([2], [16], [1]), 0, 8) == 2  # contiguity caps
    assert alignment(info([64], [8], [1]), 0, 32, is_pointer=False) == 8  # offsets count elements
    assert mask_alignment(info([1, 1], [1, 1], [4, 32]), 1) == 32


# ---------------------------------------------------------------------------------------
# transfer functions
# ---------------------------------------------------------------------------------------


def test_make_range_splat_constant_addptr():
    v = analyse(
        """
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %r64 = tt.make_range {end = 192 : i32, start = 64 : i32} : tensor<128xi32>
    %r3 = tt.make_range {end = 131 : i32, start = 3 : i32} : tensor<128xi32>
    %c0 = arith.constant 0 : i32
    %c12 = arith.constant 12 : i32
    %d16 = arith.constant dense<16> : tensor<4x8xi32>
    %f = arith.constant dense<1.000000e+00> : tensor<128xf32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %pa = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %qs = tt.splat %q : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>>
    %qa = tt.addptr %qs, %r : tensor<128x!tt.ptr<f16>>, tensor<128xi32>
    %ua = tt.splat %u : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %ub = tt.addptr %ua, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>""",
        "%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %u: !tt.ptr<f32>",
    )
    assert v["r"] == info([128], [R0], [1])
    assert v["r64"] == info([128], [64], [1])
    assert v["r3"] == info([128], [1], [1])
    assert v["c0"] == info([1], [KMAX_DIVISOR], [1], 0)
    assert v["c12"] == info([1], [4], [1], 12)
    assert v["d16"] == info([1, 1], [16, 16], [4, 8], 16)
    assert v["f"] == info([1], [1], [1])  # float constants carry nothing
    assert v["p"] == info([1], [16], [1])
    assert v["u"] == info([1], [1], [1])
    assert v["ps"] == info([1], [16], [128])
    # addptr: contiguity max(gcd(128, 128), gcd(1, 1)); divisibility gcd(16, 2^30*4, 128*4)
    assert v["pa"] == info([128], [16], [1])
    assert v["qa"] == info([128], [16], [1])
    assert v["ub"] == info([128], [1], [1])


def test_vector_add_example_without_and_with_pointer_hints():
    text = (EXAMPLES / "vector_add.ttir").read_text()
    for hinted in (False, True):
        t = re.sub(r"(%\w+: !tt\.ptr<f32>)( loc)", r"\1 {tt.divisibility = 16 : i32}\2", text) if hinted else text
        module = P.parse_module(t)
        analysis = AxisInfoAnalysis(module)
        first = {}
        for op in module.walk():
            first.setdefault(op.name, op)
        # pid * 1024 splat (div 1024, constancy 1024) + make_range(0, 1024)
        assert analysis.get(first["arith.addi"].results[0]) == info([1024], [1024], [1])
        # the base pointer's divisibility (16 or 1) bounds the address'
        assert analysis.get(first["tt.addptr"].results[0]) == info([1024], [16 if hinted else 1], [1])
        # offs < splat(n): n has divisibility 1, so the mask's runs have length 1
        assert analysis.get(first["arith.cmpi"].results[0]) == info([1], [1], [1])
        assert analysis.get(first["tt.load"].results[0]) == info([1], [1], [1])


def test_two_dimensional_pointer_arithmetic():
    v = analyse(
        """
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %col = tt.expand_dims %r {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %row = tt.expand_dims %r {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %s = tt.splat %stride : i32 -> tensor<128x1xi32>
    %m = arith.muli %col, %s : tensor<128x1xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x1x!tt.ptr<f32>>
    %pm = tt.addptr %ps, %m : tensor<128x1x!tt.ptr<f32>>, tensor<128x1xi32>
    %pb = tt.broadcast %pm : tensor<128x1x!tt.ptr<f32>> -> tensor<128x128x!tt.ptr<f32>>
    %rb = tt.broadcast %row : tensor<1x128xi32> -> tensor<128x128xi32>
    %pp = tt.addptr %pb, %rb : tensor<128x128x!tt.ptr<f32>>, tensor<128x128xi32>""",
        "%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}",
    )
    # expand_dims: the new dim has contiguity 1, divisibility 1 (the source runs)
    assert v["col"] == info([128, 1], [R0, 1], [1, 1])
    assert v["row"] == info([1, 128], [1, R0], [1, 1])
    assert v["s"] == info([1, 1], [16, 16], [128, 1])
    # muli: a running side counts divisibility 1: 1 * 16 in both dims
    assert v["m"] == info([1, 1], [16, 16], [1, 1])
    assert v["pm"] == info([1, 1], [16, 16], [1, 1])
    # broadcast of a size-1 dim: constant along it
    assert v["pb"] == info([1, 1], [16, 16], [1, 128])
    assert v["rb"] == info([1, 128], [1, R0], [128, 1])
    # addptr dim 0: nothing runs, gcd(16, 1 * 4 bytes) = 4; dim 1: contiguity
    # gcd(128 const, 128 contig), divisibility gcd(16, 2^30 * 4, 128 * 4) = 16
    assert v["pp"] == info([1, 128], [4, 16], [1, 1])
    assert contiguity_order(v["pp"]) == (1, 0)


def test_div_rem_shift_and_bitwise():
    v = analyse(
        """
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %c4 = arith.constant dense<4> : tensor<128xi32>
    %c8 = arith.constant dense<8> : tensor<128xi32>
    %c1 = arith.constant dense<1> : tensor<128xi32>
    %c2 = arith.constant dense<2> : tensor<128xi32>
    %q = arith.divsi %r, %c4 : tensor<128xi32>
    %q1 = arith.divsi %r, %c1 : tensor<128xi32>
    %m = arith.remsi %r, %c8 : tensor<128xi32>
    %mu = arith.remui %r, %c1 : tensor<128xi32>
    %shl = arith.shli %r, %c2 : tensor<128xi32>
    %shr = arith.shrui %r, %c2 : tensor<128xi32>
    %a = arith.andi %r, %c4 : tensor<128xi32>
    %s16 = tt.splat %n : i32 -> tensor<128xi32>
    %sq = arith.divui %s16, %c4 : tensor<128xi32>""",
        "%n: i32 {tt.divisibility = 16 : i32}",
    )
    # r / 4: lhs runs over the whole dim, rhs is constant: constancy gcd(128, 2^30, 4) = 4
    assert v["q"] == info([1], [1], [4])
    # r / 1 = r (and the divisibility is kept)
    assert v["q1"] == info([128], [R0], [1])
    # r % 8: runs of gcd(128, 2^30, 8) = 8 starting at multiples of 8
    assert v["m"] == info([8], [8], [1])
    # x % 1 is the constant 0
    assert v["mu"] == info([1], [KMAX_DIVISOR], [128], 0)
    # r << 2: a running lhs counts divisibility 1, times 4
    assert v["shl"] == info([1], [4], [1])
    assert v["shr"] == info([1], [1], [1])
    assert v["a"] == info([1], [1], [1])
    # splat(n) / 4 with n divisible by 16: contiguity-1 lhs, power-of-two divisor: 16 >> 2
    assert v["sq"] == info([1], [4], [128])


def test_compare_select_min_max():
    v = analyse(
        """
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %sn = tt.splat %n : i32 -> tensor<128xi32>
    %sm = tt.splat %m : i32 -> tensor<128xi32>
    %lt = arith.cmpi slt, %r, %sn : tensor<128xi32>
    %gt = arith.cmpi sgt, %sn, %r : tensor<128xi32>
    %eq = arith.cmpi eq, %r, %sn : tensor<128xi32>
    %ltm = arith.cmpi slt, %r, %sm : tensor<128xi32>
    %c4 = arith.constant dense<4> : tensor<128xi32>
    %r4 = arith.addi %r, %c4 : tensor<128xi32>
    %sel = arith.select %lt, %r, %r4 : tensor<128xi1>, tensor<128xi32>
    %selm = arith.select %ltm, %r, %r4 : tensor<128xi1>, tensor<128xi32>
    %b = arith.cmpi slt, %n, %m : i32
    %sels = arith.select %b, %r, %r4 : tensor<128xi32>
    %mx = arith.maxsi %r, %r4 : tensor<128xi32>""",
        "%n: i32 {tt.divisibility = 16 : i32}, %m: i32",
    )
    # r < splat(n): flips only at multiples of gcd(128, 2^30, 16) = 16
    assert v["lt"] == info([1], [1], [16])
    assert v["gt"] == info([1], [1], [16])
    assert v["eq"] == info([1], [1], [1])  # eq/ne: just the gcd of the constancies
    assert v["ltm"] == info([1], [1], [1])  # m has divisibility 1
    # r + 4: contiguity 128, divisibility gcd(2^30, 4, 128) = 4
    assert v["r4"] == info([128], [4], [1])
    # tensor condition: contiguity gcd(128, 128, 16) = 16, divisibility gcd(gcd(2^30, 4), 16) = 4
    assert v["sel"] == info([16], [4], [1])
    assert v["selm"] == info([1], [1], [1])
    # scalar condition: the join of both sides
    assert v["sels"] == info([128], [4], [1])
    assert v["mx"] == info([128], [4], [1])
    # the scalar compare has no tensor rule: unknown
    assert v["b"] == info([1], [1], [1])


def test_exact_constants_fold():
    v = analyse(
        """
    %c3 = arith.constant 3 : i32
    %c5 = arith.constant 5 : i32
    %c0 = arith.constant 0 : i32
    %mul = arith.muli %c3, %c5 : i32
    %sub = arith.subi %c3, %c5 : i32
    %shl = arith.shli %c5, %c3 : i32
    %cmp = arith.cmpi slt, %c5, %c3 : i32
    %zero = arith.muli %x, %c0 : i32
    %one = arith.constant 1 : i32
    %rem = arith.remui %x, %one : i32
    %div0 = arith.divsi %c5, %c0 : i32
    %e = arith.extsi %sub : i32 to i64
    %t = arith.trunci %shl : i32 to i8
    %sp = tt.splat %mul : i32 -> tensor<64xi32>
    %ex = tt.expand_dims %sp {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %bc = tt.broadcast %ex : tensor<1x64xi32> -> tensor<16x64xi32>""",
        "%x: i32",
    )
    assert v["mul"] == info([1], [1], [1], 15)
    assert v["sub"] == info([1], [2], [1], -2)
    assert v["shl"] == info([1], [8], [1], 40)
    assert v["cmp"] == info([1], [KMAX_DIVISOR], [1], 0)  # false
    assert v["zero"] == info([1], [KMAX_DIVISOR], [1], 0)  # x * 0 whatever x is
    assert v["rem"] == info([1], [KMAX_DIVISOR], [1], 0)  # x % 1
    assert v["div0"] == info([1], [1], [1])  # division by zero is poison: unknown
    assert v["e"] == info([1], [2], [1], -2)
    assert v["t"] == info([1], [8], [1], 40)
    # shape ops forward a splat constant with its full constancy
    assert v["sp"] == info([1], [1], [64], 15)
    assert v["ex"] == info([1, 1], [1, 1], [1, 64], 15)
    assert v["bc"] == info([1, 1], [1, 1], [16, 64], 15)


def test_reshape_and_trans():
    v = analyse(
        """
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %rs = tt.reshape %r : tensor<256xi32> -> tensor<16x16xi32>
    %tr = tt.trans %rs {order = array<i32: 1, 0>} : tensor<16x16xi32> -> tensor<16x16xi32>
    %sp = tt.splat %n : i32 -> tensor<8x32xi32>
    %flat = tt.reshape %sp : tensor<8x32xi32> -> tensor<256xi32>""",
        "%n: i32 {tt.divisibility = 8 : i32}",
    )
    # dim 1 starts at the run's low boundary: contiguity min(256, 16), divisibility
    # clamped to the cut run (16); dim 0 starts inside the run: nothing survives
    assert v["rs"] == info([1, 16], [1, 16], [1, 1])
    assert v["tr"] == info([16, 1], [16, 1], [1, 1])
    # constant dims merge: 32 along dim 1 times 8 along dim 0
    assert v["flat"] == info([1], [8], [256])


def test_op_hints_override():
    v = analyse(
        """
    %pid = tt.get_program_id x : i32
    %h = arith.muli %pid, %n {tt.divisibility = dense<16> : tensor<1xi32>} : i32
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %s = tt.splat %h : i32 -> tensor<64xi32>
    %o = arith.addi %s, %r {tt.contiguity = dense<64> : tensor<1xi32>, tt.divisibility = dense<64> : tensor<1xi32>} : tensor<64xi32>""",
        "%n: i32",
    )
    assert v["h"] == info([1], [16], [1])
    assert v["o"] == info([64], [64], [1])


# ---------------------------------------------------------------------------------------
# control flow and calls
# ---------------------------------------------------------------------------------------


def test_for_loop_induction_variable_and_carried_pointer():
    v = analyse(
        """
    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>>
    %p0 = tt.addptr %ps, %r : tensor<128x!tt.ptr<f16>>, tensor<128xi32>
    %st = tt.splat %s : i32 -> tensor<128xi32>
    %res:2 = scf.for %i = %c0 to %n step %c16 iter_args(%pc = %p0, %acc = %r) -> (tensor<128x!tt.ptr<f16>>, tensor<128xi32>) : i32 {
      %pn = tt.addptr %pc, %st : tensor<128x!tt.ptr<f16>>, tensor<128xi32>
      %c3 = arith.constant dense<3> : tensor<128xi32>
      %an = arith.addi %acc, %c3 : tensor<128xi32>
      scf.yield %pn, %an : tensor<128x!tt.ptr<f16>>, tensor<128xi32>
    }""",
        "%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32, %s: i32 {tt.divisibility = 8 : i32}",
    )
    assert v["i"] == info([1], [16], [1])  # gcd(div(0) = 2^62, 16)
    # pointer advanced by 8 f16 = 16 bytes per step: the gcd stays 16
    assert v["pc"] == info([128], [16], [1])
    assert v["pn"] == info([128], [16], [1])
    # acc + 3 each step: the join of r and r + 3 loses every factor of 2
    assert v["acc"] == info([128], [1], [1])
    assert v["an"] == info([128], [1], [1])


def test_if_joins_both_branches_and_prunes_a_constant_condition():
    v = analyse(
        """
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %c = arith.cmpi slt, %n, %m : i32
    %a = scf.if %c -> (tensor<128xi32>) {
      scf.yield %r : tensor<128xi32>
    } else {
      %c4 = arith.constant dense<4> : tensor<128xi32>
      %r4 = arith.addi %r, %c4 : tensor<128xi32>
      scf.yield %r4 : tensor<128xi32>
    }
    %true = arith.constant true
    %b = scf.if %true -> (tensor<128xi32>) {
      scf.yield %r : tensor<128xi32>
    } else {
      %c3 = arith.constant dense<3> : tensor<128xi32>
      %r3 = arith.addi %r, %c3 : tensor<128xi32>
      scf.yield %r3 : tensor<128xi32>
    }""",
        "%n: i32, %m: i32",
    )
    assert v["a"] == info([128], [4], [1])
    assert v["b"] == info([128], [R0], [1])  # only the taken branch
    assert v["r3"] == info([1], [1], [1])  # dead code is never visited: pessimistic


def test_while_loop():
    v = analyse(
        """
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %w = scf.while (%x = %r) : (tensor<128xi32>) -> tensor<128xi32> {
      %c = arith.cmpi slt, %n, %m : i32
      scf.condition(%c) %x : tensor<128xi32>
    } do {
    ^bb0(%y: tensor<128xi32>):
      %c16 = arith.constant dense<16> : tensor<128xi32>
      %z = arith.addi %y, %c16 : tensor<128xi32>
      scf.yield %z : tensor<128xi32>
    }""",
        "%n: i32, %m: i32",
    )
    for name in ("x", "y", "w"):
        assert v[name] == info([128], [16], [1]), name
    assert v["z"] == info([128], [16], [1])


def test_callee_arguments_take_the_gcd_over_call_sites():
    text = """module {
  tt.func private @callee(%p: !tt.ptr<f32>, %off: i32, %q: !tt.ptr<f32> {tt.divisibility = 4 : i32}) attributes {noinline = true} {
    tt.return
  }
  tt.func public @k(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32>, %n: i32 {tt.divisibility = 16 : i32}) {
    %c8 = arith.constant 8 : i32
    %m = arith.muli %n, %c8 : i32
    tt.call @callee(%a, %m, %a) : (!tt.ptr<f32>, i32, !tt.ptr<f32>) -> ()
    tt.call @callee(%a, %n, %b) : (!tt.ptr<f32>, i32, !tt.ptr<f32>) -> ()
    tt.return
  }
}
"""
    module = P.parse_module(text)
    analysis = AxisInfoAnalysis(module)
    vals = named_values(module)
    assert analysis.get(vals["m"]) == info([1], [128], [1])
    assert analysis.get(vals["p"]) == info([1], [16], [1])
    assert analysis.get(vals["off"]) == info([1], [16], [1])  # gcd(128, 16)
    assert analysis.get(vals["q"]) == info([1], [1], [1])  # gcd(own 4, 16, 1)
    # a single function analysed alone sees only its own hints
    callee = next(op for op in module.walk() if getattr(op, "sym_name", None) and op.sym_name.data == "callee")
    alone = AxisInfoAnalysis(callee)
    assert alone.get(vals["q"]) == info([1], [4], [1]) and alone.get(vals["off"]) == info([1], [1], [1])


def test_matmul_example_loop_pointers():
    text = (EXAMPLES / "matmul.ttir").read_text()
    text = re.sub(r"(%\w+: (!tt\.ptr<\w+>|i32))( loc)", r"\1 {tt.divisibility = 16 : i32}\3", text)
    module = P.parse_module(text)
    analysis = AxisInfoAnalysis(module)
    loads = [op for op in module.walk() if op.name == "tt.load"]
    assert len(loads) == 2
    a, b = (analysis.get(op.operands[0]) for op in loads)
    # a = a_ptr + rm[:, None] * sam + rk[None, :] * sak: every stride is a multiple of 16,
    # so no dim runs; rk * sak has divisibility 16 (running side counts 1), f16 base 16
    assert a.contiguity == (1, 1) and b.contiguity == (1, 1)
    assert a.divisibility == (16, 16) and b.divisibility == (16, 16)
    assert pointee_bits(loads[0].operands[0].type) == 16
