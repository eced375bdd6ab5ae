"""xDSL's math and scf dialects (used as they are) on Triton's tensors: ltc's printing is
accepted by Triton and re-printed exactly as Triton re-prints the original.

Known xDSL differences (harmless for Triton): multi-result ops print ``%r, %r_1`` instead of
``%r:2``; ``scf.for`` prints one space before ``: i32`` where MLIR prints two. ``gpu.barrier`` is
ltc's own (xDSL 0.74's has no custom syntax).
"""

from __future__ import annotations

import pytest
from xdsl.utils.exceptions import ParseError

from tests import oracle
from tests.test_dialect_arith import F32, T32, body_lines, ltc_print, module_text, parse, to_triton

MATH_CASES = [
    *(f"%0 = math.{op} %x : {F32}" for op in (
        "exp exp2 log log2 log1p sqrt rsqrt absf ceil floor erf sin cos tanh trunc round roundeven cbrt expm1"
    ).split()),
    f"%0 = math.fma %x, %y, %x : {F32}",
    f"%0 = math.absi %a : {T32}",
    f"%0 = math.ctlz %a : {T32}",
    f"%0 = math.copysign %x, %y : {F32}",
    f"%0 = math.powf %x, %y : {F32}",
    f"%0 = math.atan2 %x, %y : {F32}",
    "%0 = math.exp %f fastmath<fast> : f32",
    f"%0 = math.sqrt %x fastmath<afn> : {F32}",
]

SCF_FOR = f"""%c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    %c1 = arith.constant 1 : i32
    %r:3 = scf.for %iv = %c0 to %c4 step %c1 iter_args(%p = %x, %q = %s, %z = %f) -> ({F32}, i32, f32) : i32 {{
      %n = arith.addf %p, %y : {F32}
      scf.yield %n, %q, %z : {F32}, i32, f32
    }}
    %u = arith.addf %r#0, %x : {F32}"""

SCF_FOR_PRINTED = [
    "%c0 = arith.constant 0 : i32",
    "%c4 = arith.constant 4 : i32",
    "%c1 = arith.constant 1 : i32",
    f"%r, %r_1, %r_2 = scf.for %iv = %c0 to %c4 step %c1 iter_args(%p = %x, %q = %s, %z = %f) -> ({F32}, i32, f32) : i32 {{",
    f"%n = arith.addf %p, %y : {F32}",
    f"scf.yield %n, %q, %z : {F32}, i32, f32",
    "}",
    f"%u = arith.addf %r, %x : {F32}",
]

SCF_IF = """%w = scf.if %c -> (f32) {
      scf.yield %f : f32
    } else {
      %mm = arith.mulf %f, %f : f32
      scf.yield %mm : f32
    }
    scf.if %c {
      %k = arith.addi %s, %s : i32
    }"""

SCF_WHILE = """%c4 = arith.constant 4 : i32
    %c1 = arith.constant 1 : i32
    %u:2 = scf.while (%arg0 = %s, %arg1 = %f) : (i32, f32) -> (i32, f32) {
      %cond = arith.cmpi slt, %arg0, %c4 : i32
      scf.condition(%cond) %arg0, %arg1 : i32, f32
    } do {
    ^bb0(%arg2: i32, %arg3: f32):
      %inc = arith.addi %arg2, %c1 : i32
      scf.yield %inc, %arg3 : i32, f32
    }"""

SCF_CASES = {"for": SCF_FOR, "if": SCF_IF, "while": SCF_WHILE}


class Test_Math:
    @pytest.mark.parametrize("text", MATH_CASES)
    def test_op_line(self, text: str) -> None:
        assert body_lines(ltc_print(text)) == [text]

    @oracle.requires_triton
    @pytest.mark.parametrize("text", MATH_CASES)
    def test_triton_reprints_identically(self, text: str) -> None:
        assert oracle.triton_reprint(to_triton(ltc_print(text))) == oracle.triton_reprint(to_triton(module_text(text)))


class Test_Scf:
    def test_for_multi_result_printing(self) -> None:
        assert body_lines(ltc_print(SCF_FOR)) == SCF_FOR_PRINTED

    def test_if_and_while_round_trip_exactly(self) -> None:
        for text in (SCF_IF, SCF_WHILE):
            expected = [line.strip().replace("%u:2 =", "%u, %u_1 =") for line in text.splitlines()]
            assert body_lines(ltc_print(text)) == expected

    @oracle.requires_triton
    @pytest.mark.parametrize("name", sorted(SCF_CASES))
    def test_triton_reprints_identically(self, name: str) -> None:
        text = SCF_CASES[name]
        assert oracle.triton_reprint(to_triton(ltc_print(text))) == oracle.triton_reprint(to_triton(module_text(text)))

    @oracle.requires_triton
    def test_triton_prints_for_with_two_spaces(self) -> None:
        printed = oracle.triton_reprint(to_triton(module_text(SCF_FOR)))
        assert "-> (tensor<128xf32, #blocked>, i32, f32)  : i32 {" in printed


class Test_GpuBarrier:
    @oracle.requires_triton
    def test_custom_form_round_trips_through_triton(self) -> None:
        printed = ltc_print("gpu.barrier")
        assert "    gpu.barrier\n" in printed
        assert "    gpu.barrier\n" in oracle.triton_reprint(to_triton(printed))

    def test_generic_form_reads_as_the_same_op(self) -> None:
        assert "    gpu.barrier\n" in ltc_print('"gpu.barrier"() : () -> ()')


# MLIR reads one result type after ``->`` with or without parentheses (and ``()`` for
# none); it prints them parenthesised, as ltc does.
SCF_BARE_RESULT_TYPES = {
    "if": (
        f"""%w = scf.if %c -> {F32} {{
      scf.yield %x : {F32}
    }} else {{
      scf.yield %y : {F32}
    }}""",
        [f"%w = scf.if %c -> ({F32}) {{", f"scf.yield %x : {F32}", "} else {", f"scf.yield %y : {F32}", "}"],
    ),
    "if_empty": (
        """scf.if %c -> () {
      %k = arith.addi %s, %s : i32
    }""",
        ["scf.if %c {", "%k = arith.addi %s, %s : i32", "}"],
    ),
    "for": (
        f"""%r = scf.for %iv = %s to %s step %s iter_args(%p = %x) -> {F32} : i32 {{
      scf.yield %p : {F32}
    }}""",
        [
            f"%r = scf.for %iv = %s to %s step %s iter_args(%p = %x) -> ({F32}) : i32 {{",
            f"scf.yield %p : {F32}",
            "}",
        ],
    ),
    "for_index": (
        """%r = scf.for %iv = %i to %i step %i iter_args(%p = %s) -> i32 {
      scf.yield %p : i32
    }""",
        ["%r = scf.for %iv = %i to %i step %i iter_args(%p = %s) -> (i32) {", "scf.yield %p : i32", "}"],
    ),
}


class Test_ScfBareResultTypes:
    @pytest.mark.parametrize("name", sorted(SCF_BARE_RESULT_TYPES))
    def test_prints_parenthesised(self, name: str) -> None:
        text, printed = SCF_BARE_RESULT_TYPES[name]
        assert body_lines(ltc_print(text)) == printed

    @oracle.requires_triton
    @pytest.mark.parametrize("name", sorted(SCF_BARE_RESULT_TYPES))
    def test_triton_reprints_identically(self, name: str) -> None:
        text = SCF_BARE_RESULT_TYPES[name][0]
        assert oracle.triton_reprint(to_triton(ltc_print(text))) == oracle.triton_reprint(to_triton(module_text(text)))

    def test_result_count_must_match_iter_args(self) -> None:
        text = f"""%r:2 = scf.for %iv = %s to %s step %s iter_args(%p = %x, %q = %s) -> {F32} : i32 {{
      scf.yield %p, %q : {F32}, i32
    }}"""
        with pytest.raises(ParseError, match="mismatch in number of loop-carried values and defined values"):
            parse(module_text(text))


def test_scf_if_gets_its_yield_after_an_unregistered_op() -> None:
    # MLIR does not take an unregistered op for a terminator: the implicit scf.yield follows it
    import io as _io

    from ltc.tools import opt as _opt

    text = 'tt.func @f(%c: i1, %x: i32) {\n  scf.if %c {\n    "user"(%x) : (i32) -> ()\n  }\n  tt.return\n}\n'
    out, err = _io.StringIO(), _io.StringIO()
    assert _opt.run(["-", "--allow-unregistered-dialect", "--print-op-generic"], _io.StringIO(text), out, err) == 0, err.getvalue()
    assert '"user"' in out.getvalue() and '"scf.yield"() : () -> ()' in out.getvalue()
