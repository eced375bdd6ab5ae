"""ltc's tensor-aware arith dialect: parse, print (op line identical to Triton's), verify.

Every op case is checked three ways: ltc's printed line equals the expected text; with
Triton, the line equals Triton's own printing of the same op (``ir_text.normalize``), and
Triton re-prints ltc's whole module exactly as it re-prints the original.

xDSL has no ``tt.func``-free way to host ops that Triton also accepts, so the modules are
parsed by ltc with ``func.func``/``func.return`` and handed to Triton with
``tt.func``/``tt.return`` (the only textual change).
"""

from __future__ import annotations

import random
import struct

import pytest
from xdsl.context import Context
from xdsl.ir import Dialect
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    ModuleOp,
    TensorType,
    i1,
    i32,
)
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.test_value import create_ssa_value

from ltc.dialects import arith
from ltc.dialects.context import DIALECT_FACTORIES
from tests import oracle
from tests.ir_text import normalize

BLOCKED = "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
BLOCKED1 = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
MMA = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>"
SLICE = "#ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>}>"

ARGS = {
    "a": f"tensor<128xi32, {BLOCKED}>",
    "b": f"tensor<128xi32, {BLOCKED}>",
    "x": f"tensor<128xf32, {BLOCKED}>",
    "y": f"tensor<128xf32, {BLOCKED}>",
    "h": f"tensor<128xf16, {BLOCKED}>",
    "l": f"tensor<128xi64, {BLOCKED}>",
    "m": f"tensor<128xi1, {BLOCKED}>",
    "s": "i32",
    "f": "f32",
    "c": "i1",
    "i": "index",
}
T32 = f"tensor<128xi32, {BLOCKED}>"
F32 = f"tensor<128xf32, {BLOCKED}>"


def _context() -> Context:
    """The ltc context; ``ttg`` holds only the layout attributes when ltc.dialects.ttg is absent."""
    ctx = Context()
    for name, factory in DIALECT_FACTORIES.items():
        if name in ("tt", "ttng"):
            continue
        if name == "ttg":
            try:
                from ltc.dialects.ttg import TTG  # noqa: F401
            except ImportError:
                from ltc.dialects.ttg_attrs import TTG_ATTRS

                ctx.register_dialect("ttg", lambda: Dialect("ttg", [], list(TTG_ATTRS)))
                continue
        ctx.register_dialect(name, factory)
    return ctx


def _layout_attrs_compare_by_value() -> bool:
    return Parser(_context(), BLOCKED).parse_attribute() != Parser(_context(), BLOCKED1).parse_attribute()


needs_encoding_equality = pytest.mark.xfail(
    not _layout_attrs_compare_by_value(),
    reason="ttg_attrs: generated layout attribute classes have no dataclass fields, so any two "
    "#ttg.blocked attributes compare equal and encoding mismatches cannot be detected",
    strict=True,
)


def module_text(body: str) -> str:
    """``body`` (op lines) inside ``func.func @f`` over the values of ``ARGS``."""
    args = ", ".join(f"%{n}: {t}" for n, t in ARGS.items())
    return f"module {{\n  func.func @f({args}) {{\n    {body}\n    func.return\n  }}\n}}\n"


def to_triton(text: str) -> str:
    return text.replace("builtin.module", "module").replace("func.func", "tt.func").replace("func.return", "tt.return")


def parse(text: str) -> ModuleOp:
    module = Parser(_context(), text).parse_module()
    module.verify()
    return module


def ltc_print(body: str) -> str:
    return str(parse(module_text(body)))


def body_lines(printed: str) -> list[str]:
    lines = [line.strip() for line in printed.splitlines()]
    start = next(i for i, line in enumerate(lines) if "func.func" in line or "tt.func" in line)
    end = next(i for i, line in enumerate(lines) if line.startswith(("func.return", "tt.return")))
    return lines[start + 1 : end]


# (op text as written, expected ltc text of that line when it differs from the input)
OP_CASES: list[tuple[str, str | None]] = [
    *((f"%0 = arith.{op} %a, %b : {T32}", None) for op in (
        "addi subi muli divsi divui remsi remui andi ori xori shli shrsi shrui "
        "minsi maxsi minui maxui ceildivsi floordivsi"
    ).split()),
    *((f"%0 = arith.{op} %x, %y : {F32}", None) for op in (
        "addf subf mulf divf remf maximumf minimumf maxnumf minnumf"
    ).split()),
    (f"%0 = arith.negf %x : {F32}", None),
    (f"%0 = arith.addf %x, %y fastmath<fast> : {F32}", None),
    ("%0 = arith.mulf %f, %f fastmath<nnan,ninf> : f32", None),
    (f"%0 = arith.addi %a, %b overflow<nsw> : {T32}", None),
    (f"%0 = arith.cmpi slt, %a, %b : {T32}", None),
    ("%0 = arith.cmpi uge, %s, %s : i32", None),
    (f"%0 = arith.cmpf ogt, %x, %y : {F32}", None),
    (f"%0 = arith.cmpf oeq, %x, %y fastmath<nnan> : {F32}", None),
    # MLIR's enum attributes read a keyword or a string; they print the keyword.
    (f'%0 = arith.cmpi "slt", %a, %b : {T32}', f"%0 = arith.cmpi slt, %a, %b : {T32}"),
    ('%0 = arith.cmpf "une", %f, %f : f32', "%0 = arith.cmpf une, %f, %f : f32"),
    (f"%0 = arith.select %m, %x, %y : tensor<128xi1, {BLOCKED}>, {F32}", None),
    (f"%0 = arith.select %c, %x, %y : {F32}", None),
    ("%0 = arith.select %c, %s, %s : i32", None),
    (f"%0 = arith.extf %h : tensor<128xf16, {BLOCKED}> to {F32}", None),
    (f"%0 = arith.truncf %x : {F32} to tensor<128xf16, {BLOCKED}>", None),
    (f"%0 = arith.extsi %a : {T32} to tensor<128xi64, {BLOCKED}>", None),
    (f"%0 = arith.extui %m : tensor<128xi1, {BLOCKED}> to {T32}", None),
    (f"%0 = arith.trunci %l : tensor<128xi64, {BLOCKED}> to {T32}", None),
    (f"%0 = arith.sitofp %a : {T32} to {F32}", None),
    (f"%0 = arith.uitofp %a : {T32} to tensor<128xf16, {BLOCKED}>", None),
    (f"%0 = arith.fptosi %x : {F32} to tensor<128xi8, {BLOCKED}>", None),
    (f"%0 = arith.fptoui %x : {F32} to {T32}", None),
    (f"%0 = arith.bitcast %x : {F32} to {T32}", None),
    ("%0 = arith.index_cast %i : index to i32", None),
    ("%0 = arith.index_castui %s : i32 to index", None),
    (f"%0, %1 = arith.mulsi_extended %a, %b : {T32}", None),
    ("%0, %1 = arith.mului_extended %s, %s : i32", None),
    (f"%0 = arith.constant dense<0.000000e+00> : tensor<128x128xf32, {MMA}>", None),
    (f"%0 = arith.constant dense<true> : tensor<256xi1, {BLOCKED}>", None),
    (f"%0 = arith.constant dense<0xFF800000> : tensor<128xf32, {SLICE}>", None),
    ("%0 = arith.constant dense<0x7FC00000> : tensor<4xf32>", None),
    ("%0 = arith.constant dense<0xFC00> : tensor<4xf16>", None),
    ("%0 = arith.constant dense<0xFF80> : tensor<4xbf16>", None),
    ("%0 = arith.constant dense<[1.0, 2.5]> : tensor<2xf32>", "%0 = arith.constant dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf32>"),
    ("%0 = arith.constant dense<[0.0, -0.0]> : tensor<2xf32>", "%0 = arith.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>"),
    ("%0 = arith.constant dense<[0x7FC00000, 1.0]> : tensor<2xf32>", "%0 = arith.constant dense<[0x7FC00000, 1.000000e+00]> : tensor<2xf32>"),
    ("%0 = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>", None),
    ("%0 = arith.constant dense<[true, false]> : tensor<2xi1>", None),
    ("%0 = arith.constant dense<[255, 1]> : tensor<2xi8>", "%0 = arith.constant dense<[-1, 1]> : tensor<2xi8>"),
    ("%0 = arith.constant 1.0 : f32", "%0 = arith.constant 1.000000e+00 : f32"),
    ("%0 = arith.constant -0.0 : f32", "%0 = arith.constant -0.000000e+00 : f32"),
    ("%0 = arith.constant 0xFF800000 : f32", None),
    ("%0 = arith.constant 0.693147182 : f32", None),
    ("%0 = arith.constant 3.40282347E+38 : f32", None),
    ("%0 = arith.constant 1234567.0 : f32", "%0 = arith.constant 0x4996B438 : f32"),
    ("%0 = arith.constant 0.1 : f16", "%0 = arith.constant 9.997550e-02 : f16"),
    ("%0 = arith.constant 1.0e-45 : f32", "%0 = arith.constant 1.401300e-45 : f32"),
    ("%0 = arith.constant 1.0e-5 : f32", "%0 = arith.constant 9.99999974E-6 : f32"),
    ("%0 = arith.constant 448.0 : f8E4M3FN", "%0 = arith.constant 4.480000e+02 : f8E4M3FN"),
    ("%0 = arith.constant 128 : i32", None),
    ("%0 = arith.constant -1 : i64", None),
    ("%0 = arith.constant 255 : i8", "%0 = arith.constant -1 : i8"),
    ("%0 = arith.constant 0 : index", None),
    ("%0 = arith.constant true", None),
    ("%0 = arith.constant false", None),
]
OP_IDS = [case[0].split(" = ", 1)[1].split(" %")[0].split(" ")[0] + f"-{i}" for i, case in enumerate(OP_CASES)]


class Test_ArithPrint:
    @pytest.mark.parametrize(("text", "expected"), OP_CASES, ids=OP_IDS)
    def test_op_line(self, text: str, expected: str | None) -> None:
        assert body_lines(ltc_print(text)) == [expected or text]

    @oracle.requires_triton
    @pytest.mark.parametrize(("text", "expected"), OP_CASES, ids=OP_IDS)
    def test_line_equals_triton(self, text: str, expected: str | None) -> None:
        triton = oracle.triton_reprint(to_triton(module_text(text)))
        mine = to_triton(ltc_print(text))
        assert body_lines("\n".join(normalize(mine))) == body_lines("\n".join(normalize(triton)))

    @oracle.requires_triton
    @pytest.mark.parametrize(("text", "expected"), OP_CASES, ids=OP_IDS)
    def test_triton_reprints_identically(self, text: str, expected: str | None) -> None:
        original = oracle.triton_reprint(to_triton(module_text(text)))
        assert oracle.triton_reprint(to_triton(ltc_print(text))) == original

    def test_cmpi_result_is_shaped_and_encoded(self) -> None:
        op = parse(module_text(f"%0 = arith.cmpi slt, %a, %b : {T32}")).body.block.first_op
        assert op is not None
        cmp = next(o for o in op.walk() if isinstance(o, arith.CmpiOp))
        assert str(cmp.result.type) == f"tensor<128xi1, {BLOCKED}>"

    def test_cmpf_scalar_result_is_i1(self) -> None:
        module = parse(module_text("%0 = arith.cmpf olt, %f, %f : f32"))
        cmp = next(o for o in module.walk() if isinstance(o, arith.CmpfOp))
        assert cmp.result.type == i1

    def test_dense_hex_is_a_bit_pattern(self) -> None:
        module = parse(module_text("%0 = arith.constant dense<0xFF800000> : tensor<4xf32>"))
        const = next(o for o in module.walk() if isinstance(o, arith.ConstantOp))
        assert const.value.get_values() == (float("-inf"),) * 4  # type: ignore[union-attr]

    def test_dense_shape_mismatch_is_a_parse_error(self) -> None:
        with pytest.raises(Exception, match=r"inferred shape of elements literal \(\[3\]\) does not match type \(\[2\]\)"):
            parse(module_text("%0 = arith.constant dense<[1, 2, 3]> : tensor<2xi32>"))

    def test_unknown_predicate_is_a_parse_error(self) -> None:
        with pytest.raises(Exception, match=r"expected string or keyword containing one of the following enum values for attribute 'predicate' \[eq, ne, slt"):
            parse(module_text(f"%0 = arith.cmpi foo, %a, %b : {T32}"))
        with pytest.raises(Exception, match=r"expected string or keyword containing one of the following enum values for attribute 'predicate' \[false, oeq"):
            parse(module_text('%0 = arith.cmpf "slt", %f, %f : f32'))

    def test_builders(self) -> None:
        a = create_ssa_value(TensorType(i32, [4]))
        cmp = arith.CmpiOp(a, a, "sge")
        assert cmp.result.type == TensorType(i1, [4])
        sel = arith.SelectOp(cmp, a, a)
        sel.verify()
        assert sel.result.type == a.type


def verify_error(body: str) -> str:
    with pytest.raises(VerifyException) as info:
        parse(module_text(body))
    return str(info.value)


class Test_ArithVerify:
    def test_cmpi_result_must_match_operand_shape(self) -> None:
        msg = verify_error(f'%0 = "arith.cmpi"(%a, %b) <{{predicate = 2 : i64}}> : ({T32}, {T32}) -> i1')
        assert "failed to verify that result type has i1 element type and same shape as operands" in msg

    @needs_encoding_equality
    def test_cmpi_result_must_match_operand_encoding(self) -> None:
        body = f'%0 = "arith.cmpi"(%a, %b) <{{predicate = 2 : i64}}> : ({T32}, {T32}) -> tensor<128xi1, {BLOCKED1}>'
        assert "failed to verify that result type has i1 element type and same shape as operands" in verify_error(body)

    def test_cmpi_operands_must_have_the_same_type(self) -> None:
        body = f'%0 = "arith.cmpi"(%a, %l) <{{predicate = 2 : i64}}> : ({T32}, tensor<128xi64, {BLOCKED}>) -> tensor<128xi1, {BLOCKED}>'
        assert "attribute tensor<128xi32" in verify_error(body)

    def test_cmpi_predicate_range(self) -> None:
        body = f'%0 = "arith.cmpi"(%a, %b) <{{predicate = 12 : i64}}> : ({T32}, {T32}) -> tensor<128xi1, {BLOCKED}>'
        assert (
            "attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: "
            "0, 1, 2, 3, 4, 5, 6, 7, 8, 9" in verify_error(body)
        )

    def test_select_condition_shape_mismatch(self) -> None:
        body = f'%0 = "arith.select"(%c2, %x, %y) : (tensor<64xi1, {BLOCKED}>, {F32}, {F32}) -> {F32}'
        body = f"%c2 = arith.constant dense<true> : tensor<64xi1, {BLOCKED}>\n    " + body
        assert "failed to verify that condition is signless i1 or has matching shape" in verify_error(body)

    @needs_encoding_equality
    def test_select_condition_encoding_mismatch(self) -> None:
        body = (
            f"%c2 = arith.constant dense<true> : tensor<128xi1, {BLOCKED1}>\n    "
            f"%0 = arith.select %c2, %x, %y : tensor<128xi1, {BLOCKED1}>, {F32}"
        )
        assert (
            "expected condition type to have the same shape as the result type, "
            f"expected 'tensor<128xi1, {BLOCKED}>', but got 'tensor<128xi1, {BLOCKED1}>'" in verify_error(body)
        )

    def test_extsi_to_narrower_type(self) -> None:
        body = f"%0 = arith.extsi %a : {T32} to tensor<128xi16, {BLOCKED}>"
        assert (
            f"operand type '{T32}' and result type 'tensor<128xi16, {BLOCKED}>' are cast incompatible"
            in verify_error(body)
        )

    @pytest.mark.parametrize(
        "body",
        [
            f"%0 = arith.extsi %a : {T32} to {T32}",
            f"%0 = arith.trunci %a : {T32} to tensor<128xi64, {BLOCKED}>",
            f"%0 = arith.extf %x : {F32} to tensor<128xf16, {BLOCKED}>",
            f"%0 = arith.truncf %h : tensor<128xf16, {BLOCKED}> to {F32}",
            f"%0 = arith.bitcast %x : {F32} to tensor<128xi16, {BLOCKED}>",
            pytest.param(f"%0 = arith.extsi %a : {T32} to tensor<128xi64, {BLOCKED1}>", marks=needs_encoding_equality),
            pytest.param(f"%0 = arith.bitcast %x : {F32} to tensor<128xi32, {BLOCKED1}>", marks=needs_encoding_equality),
            "%0 = arith.index_cast %s : i32 to i64",
        ],
    )
    def test_cast_incompatible(self, body: str) -> None:
        assert "are cast incompatible" in verify_error(body)

    @pytest.mark.parametrize(
        "body",
        [f"%0 = arith.extsi %a : {T32} to tensor<64xi64, {BLOCKED}>", f"%0 = arith.extsi %a : {T32} to i64"],
    )
    def test_cast_shape_mismatch(self, body: str) -> None:
        assert "failed to verify that input and output have the same tensor dimensions" in verify_error(body)

    def test_sitofp_needs_integer_operand(self) -> None:
        with pytest.raises(VerifyException):
            parse(module_text(f"%0 = arith.sitofp %x : {F32} to {F32}"))

    @oracle.requires_triton
    @pytest.mark.parametrize(
        "body",
        [
            f"%0 = arith.extsi %a : {T32} to tensor<128xi16, {BLOCKED}>",
            f"%0 = arith.extsi %a : {T32} to tensor<64xi64, {BLOCKED}>",
            f"%0 = arith.extf %x : {F32} to tensor<128xf16, {BLOCKED}>",
            pytest.param(f"%0 = arith.bitcast %x : {F32} to tensor<128xi32, {BLOCKED1}>", marks=needs_encoding_equality),
            f'%0 = "arith.cmpi"(%a, %b) <{{predicate = 2 : i64}}> : ({T32}, {T32}) -> i1',
        ],
    )
    def test_triton_rejects_what_ltc_rejects(self, body: str) -> None:
        ltc_msg = verify_error(body)
        with pytest.raises(oracle.OracleError) as info:
            oracle.triton_reprint(to_triton(module_text(body)))
        triton_msg = str(info.value.diagnostics).split(" op ", 1)[1]
        assert triton_msg.strip() in ltc_msg


_FLOAT_TYPES = {
    "f16": Float16Type(),
    "bf16": BFloat16Type(),
    "f32": Float32Type(),
    "f64": Float64Type(),
    "f8E4M3FN": Float8E4M3FNType(),
    "f8E5M2": Float8E5M2Type(),
}


class Test_FloatText:
    @pytest.mark.parametrize(
        ("bits", "type_name", "text"),
        [
            (0x3F800000, "f32", "1.000000e+00"),
            (0xBF800000, "f32", "-1.000000e+00"),
            (0xFF800000, "f32", "0xFF800000"),
            (0x7FC00000, "f32", "0x7FC00000"),
            (0x80000000, "f32", "-0.000000e+00"),
            (0x00000001, "f32", "1.401300e-45"),
            (0x3F317218, "f32", "0.693147182"),
            (0x7F7FFFFF, "f32", "3.40282347E+38"),
            (0x4996B438, "f32", "0x4996B438"),
            (0x2E66, "f16", "9.997550e-02"),
            (0xFC00, "f16", "0xFC00"),
            (0x3DCD, "bf16", "1.000980e-01"),
            (0x7E, "f8E4M3FN", "4.480000e+02"),
            (0x7F, "f8E4M3FN", "0x7F"),
        ],
    )
    def test_known(self, bits: int, type_name: str, text: str) -> None:
        assert arith.float_text(bits, _FLOAT_TYPES[type_name]) == text

    @oracle.requires_triton
    def test_random_bit_patterns_match_triton(self) -> None:
        rnd = random.Random(7)
        cases: list[tuple[str, int]] = []
        for name, type_ in _FLOAT_TYPES.items():
            width = type_.bitwidth
            cases += [(name, b) for b in range(256)] if width == 8 else [(name, rnd.getrandbits(width)) for _ in range(150)]
        for value in (0.1, 0.3, 1.5, 10.0, 1234.0, 123456.0, 1234567.0, 1e-5, 3.14159, 1e10):
            cases.append(("f32", struct.unpack("<I", struct.pack("<f", value))[0]))
            cases.append(("f64", struct.unpack("<Q", struct.pack("<d", value))[0]))
        body = "\n".join(f"    %v{i} = arith.constant 0x{b:X} : {n}" for i, (n, b) in enumerate(cases))
        printed = oracle.triton_reprint(f"module {{\n  tt.func @f() {{\n{body}\n    tt.return\n  }}\n}}\n")
        triton = [
            line.split("= arith.constant ", 1)[1].rsplit(" : ", 1)[0] for line in printed.splitlines() if "arith.constant" in line
        ]
        assert len(triton) == len(cases)
        mismatches = [
            (n, hex(b), t, arith.float_text(b, _FLOAT_TYPES[n]))
            for (n, b), t in zip(cases, triton)
            if arith.float_text(b, _FLOAT_TYPES[n]) != t
        ]
        assert mismatches == []


class Test_ArithDialect:
    def test_every_xdsl_op_name_is_kept(self) -> None:
        from xdsl.dialects.arith import Arith

        ours = {op.name for op in arith.ARITH.operations}
        assert {op.name for op in Arith.operations} <= ours
        assert {"arith.remf", "arith.index_castui"} <= ours

    def test_context_uses_ltc_arith(self) -> None:
        from ltc.dialects.context import triton_context

        assert triton_context().get_op("arith.cmpi") is arith.CmpiOp
