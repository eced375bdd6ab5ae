"""The ``ttg`` layout attributes in xDSL: parsing through the core parser (aliases
via xDSL's table), Triton's exact printed text, errors at the right line and
column, and the bridge to the core encodings."""

from __future__ import annotations

import io
import re

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp, TensorType
from xdsl.dialects.test import Test
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException

from ltc.dialects import ttg_attrs
from ltc.dialects.ttg_attrs import (
    TTG_ATTRS,
    TTG_LAYOUTS,
    DistributedLayoutAttr,
    LayoutAttr,
    SharedLayoutAttr,
    layout_attr,
    layout_attr_class,
)
from ltc.encodings import DistributedEncoding, SharedEncoding, parse_encoding, registered_encodings
from ltc.encodings.blocked import BlockedEncoding
from tests import layout_cases, oracle

BLOCKED = (
    "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>"
)
BLOCKED_VALUE = BlockedEncoding((1, 4), (2, 16), (4, 1), (1, 0))
SLICE_OF_BLOCKED = f"#ttg.slice<{{dim = 1, parent = {BLOCKED}}}>"


def requires_encoding(*names: str) -> pytest.MarkDecorator:
    missing = [n for n in names if n not in registered_encodings()]
    return pytest.mark.skipif(bool(missing), reason=f"encoding(s) not implemented yet: {missing}")


def make_context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Test, TTG_LAYOUTS):
        ctx.load_dialect(dialect)
    return ctx


def parse(src: str) -> ModuleOp:
    return Parser(make_context(), src).parse_module()


def print_ir(obj: object, printer_cls: type[Printer] = Printer) -> str:
    out = io.StringIO()
    printer = printer_cls(stream=out)
    if isinstance(obj, ModuleOp):
        printer.print_op(obj)
    else:
        printer.print_attribute(obj)  # type: ignore[arg-type]
    return out.getvalue()


def result_encodings(module: ModuleOp) -> list[LayoutAttr]:
    op = module.body.block.first_op
    assert op is not None
    encodings = []
    for result in op.results:
        assert isinstance(result.type, TensorType)
        encodings.append(result.type.encoding)
    return encodings


def position_of(src: str, needle: str) -> tuple[int, int]:
    """1-based (line, column) of the first ``needle`` in ``src``."""
    offset = src.index(needle)
    line = src.count("\n", 0, offset) + 1
    return line, offset - (src.rfind("\n", 0, offset) + 1) + 1


def parse_error(src: str) -> ParseError:
    with pytest.raises(ParseError) as info:
        parse(src)
    return info.value


def assert_error_at(src: str, needle: str, message: str) -> None:
    err = parse_error(src)
    loc = err.span.get_location()
    assert (loc.line, loc.col) == position_of(src, needle), str(err)
    assert re.search(message, err.msg), err.msg


# -- the attribute classes ---------------------------------------------------


def test_one_class_per_registered_encoding() -> None:
    assert {cls.name for cls in TTG_ATTRS} == set(registered_encodings())
    for cls in TTG_ATTRS:
        assert cls.ENCODING_CLASS is registered_encodings()[cls.name]
        assert cls.__name__ == f"{cls.ENCODING_CLASS.__name__}Attr"
        assert getattr(ttg_attrs, cls.__name__) is cls
        assert layout_attr_class(cls.name) is cls
        if issubclass(cls.ENCODING_CLASS, DistributedEncoding):
            assert issubclass(cls, DistributedLayoutAttr)
        if issubclass(cls.ENCODING_CLASS, SharedEncoding):
            assert issubclass(cls, SharedLayoutAttr)
    assert TTG_LAYOUTS.name == "ttg"
    assert set(TTG_LAYOUTS.attributes) == set(TTG_ATTRS)


def test_blocked_attr_class_by_name() -> None:
    from ltc.dialects.ttg_attrs import BlockedEncodingAttr  # generated, imported by name

    assert BlockedEncodingAttr.name == "ttg.blocked"
    assert issubclass(BlockedEncodingAttr, DistributedLayoutAttr)
    with pytest.raises(AttributeError):
        ttg_attrs.NoSuchEncodingAttr  # noqa: B018
    with pytest.raises(KeyError, match="no layout attribute #ttg.nope"):
        layout_attr_class("ttg.nope")


def test_wrap_core_value() -> None:
    attr = layout_attr(BLOCKED_VALUE)
    assert type(attr) is layout_attr_class("ttg.blocked")
    assert attr.encoding is BLOCKED_VALUE
    assert attr == layout_attr_class("ttg.blocked")(BLOCKED_VALUE)
    assert hash(attr) == hash(layout_attr(BlockedEncoding((1, 4), (2, 16), (4, 1), (1, 0))))
    assert print_ir(attr) == BLOCKED


def test_to_linear_layout_delegates() -> None:
    ll = layout_attr(BLOCKED_VALUE).to_linear_layout([64, 64])
    assert ll == BLOCKED_VALUE.to_linear_layout([64, 64])
    # sizePerThread [1, 4] along dim1 first, then lanes (2x16) and warps (4x1).
    assert [list(b) for b in ll.bases["register"]] == [[0, 1], [0, 2], [8, 0], [16, 0], [32, 0]]
    assert [list(b) for b in ll.bases["lane"]] == [[0, 4], [0, 8], [0, 16], [0, 32], [1, 0]]
    assert [list(b) for b in ll.bases["warp"]] == [[2, 0], [4, 0]]


def test_verify_rejects_a_foreign_encoding() -> None:
    blocked_attr_cls = layout_attr_class("ttg.blocked")

    class NotBlocked(DistributedEncoding):  # deliberately not registered
        mnemonic = "not_blocked"
        rank = 1

        def to_linear_layout(self, shape):  # pragma: no cover
            raise NotImplementedError

        @classmethod
        def from_fields(cls, fields):  # pragma: no cover
            raise NotImplementedError

        def body_text(self, alias=None) -> str:
            return "{}"

    with pytest.raises(VerifyException, match="#ttg.blocked holds a NotBlocked .* expected a BlockedEncoding"):
        blocked_attr_cls(NotBlocked())


# -- parsing and printing modules --------------------------------------------

MODULE = f"""#blocked = {BLOCKED}
builtin.module {{ "test.op"() : () -> (tensor<64x64xf32, #blocked>, tensor<16x32xf16, #blocked>) }}
"""

MODULE_PRINTED = f"""builtin.module {{
  %0, %1 = "test.op"() : () -> (tensor<64x64xf32, {BLOCKED}>, tensor<16x32xf16, {BLOCKED}>)
}}"""


def test_parse_module_with_alias() -> None:
    module = parse(MODULE)
    first, second = result_encodings(module)
    assert type(first) is layout_attr_class("ttg.blocked")
    assert first.encoding == BLOCKED_VALUE
    assert second == first


def test_print_module_inline() -> None:
    assert print_ir(parse(MODULE)) == MODULE_PRINTED


def test_round_trip() -> None:
    module = parse(MODULE)
    again = parse(print_ir(module))
    assert again.is_structurally_equivalent(module)
    assert print_ir(again) == MODULE_PRINTED


def test_inline_attribute_and_cga_layout() -> None:
    text = BLOCKED.replace("order = [1, 0]", "order = [0, 1], CGALayout = [[1, 0], [0, 0]]")
    module = parse(f'"test.op"() : () -> tensor<8x8xf32, {text}>')
    (attr,) = result_encodings(module)
    assert attr.encoding.cga.block_bases == ((1, 0), (0, 0))
    assert print_ir(attr) == text


def test_whitespace_and_newlines_inside_the_attribute() -> None:
    text = BLOCKED.replace(", ", ",\n    ").replace("<{", "<{ ")
    (attr,) = result_encodings(parse(f'"test.op"() : () -> tensor<8x8xf32, {text}>'))
    assert attr.encoding == BLOCKED_VALUE


@requires_encoding("ttg.blocked", "ttg.slice")
def test_nested_parent_through_alias() -> None:
    src = f"""#blocked = {BLOCKED}
#sl = #ttg.slice<{{dim = 1, parent = #blocked}}>
builtin.module {{ "test.op"() : () -> (tensor<64x64xf32, #blocked>, tensor<64xf32, #sl>) }}
"""
    module = parse(src)
    blocked, sliced = result_encodings(module)
    assert type(sliced) is layout_attr_class("ttg.slice")
    assert sliced.encoding == parse_encoding(SLICE_OF_BLOCKED)
    assert blocked.encoding == BLOCKED_VALUE
    assert print_ir(sliced) == SLICE_OF_BLOCKED
    again = parse(print_ir(module))
    assert again.is_structurally_equivalent(module)


MMA_V2 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"


@requires_encoding("ttg.nvidia_mma", "ttg.dot_op")
def test_dot_operand_of_aliased_mma() -> None:
    src = f"""#mma = {MMA_V2}
#dot0 = #ttg.dot_op<{{opIdx = 0, parent = #mma, kWidth = 2}}>
"test.op"() : () -> (tensor<64x64xf16, #dot0>, tensor<64x64xf32, #mma>)
"""
    dot, mma = result_encodings(parse(src))
    inline = f"#ttg.dot_op<{{opIdx = 0, parent = {MMA_V2}, kWidth = 2}}>"
    assert dot.encoding == parse_encoding(inline)
    assert mma.encoding == parse_encoding(MMA_V2)
    assert print_ir(dot) == inline


@requires_encoding("ttg.blocked", "ttg.slice")
def test_error_inside_an_inline_parent() -> None:
    bad_parent = BLOCKED.replace("order = [1, 0]", "order = [1, 1]")
    src = f'#sl = #ttg.slice<{{dim = 1, parent = {bad_parent}}}>\n"test.op"() : () -> tensor<64xf32, #sl>'
    assert_error_at(src, "order = [1, 1]", r"#ttg\.blocked: order \[1, 1\] is not a permutation")


@requires_encoding("ttg.blocked", "ttg.slice")
def test_error_against_an_aliased_parent() -> None:
    src = f'#b = {BLOCKED}\n#sl = #ttg.slice<{{dim = 2, parent = #b}}>\n"test.op"() : () -> tensor<64xf32, #sl>'
    assert_error_at(src, "dim = 2", r"#ttg\.slice: .*dim=2 .*parent rank=2")


@requires_encoding("ttg.nvidia_mma", "ttg.dot_op")
def test_error_in_dot_operand_index() -> None:
    src = f'#mma = {MMA_V2}\n#d = #ttg.dot_op<{{opIdx = 2, parent = #mma, kWidth = 2}}>'
    assert_error_at(src + "\n", "opIdx = 2", r"ttg\.dot_op.*opIdx.* 0 or 1")


@requires_encoding("ttg.blocked", "ttg.slice")
def test_alias_printer_hook() -> None:
    class AliasingPrinter(Printer):
        def layout_alias(self, encoding):
            return "#blocked" if encoding == BLOCKED_VALUE else None

    attr = layout_attr(parse_encoding(SLICE_OF_BLOCKED))
    assert print_ir(attr, AliasingPrinter) == "#ttg.slice<{dim = 1, parent = #blocked}>"
    assert print_ir(attr) == SLICE_OF_BLOCKED


# -- errors: message and position ---------------------------------------------


def test_invalid_order_points_at_the_field() -> None:
    src = MODULE.replace("order = [1, 0]", "order = [1, 1]")
    assert_error_at(src, "order = [1, 1]", r"#ttg\.blocked: order \[1, 1\] is not a permutation of 0\.\.1")
    err = parse_error(src)
    assert "^^^^^" in str(err)  # xDSL underlines the word 'order'


def test_invalid_parameter_inline_on_a_later_line() -> None:
    bad = BLOCKED.replace("sizePerThread = [1, 4]", "sizePerThread = [1, 3]")
    src = f'builtin.module {{\n  "test.op"() : () -> tensor<8x8xf32, {bad}>\n}}'
    assert_error_at(src, "sizePerThread", r"sizePerThread \[1, 3\]: every entry must be a positive power of 2")


@pytest.mark.parametrize(
    ("order_field", "needle", "message"),
    [
        ("order = [1, 0], vec = 2", "vec", "#ttg.blocked: unknown field 'vec'"),
        ("order = true", "true", "#ttg.blocked: field 'order' must be a list of integers, got a boolean"),
        ("order = #undefined", "#undefined", "undefined attribute alias '#undefined'"),
        ("order = #num", "#num}", "alias '#num' is not a ttg layout attribute"),
        ("order = [1 0]", "0]", "expected ']', found '0'"),
    ],
)
def test_bad_fields(order_field: str, needle: str, message: str) -> None:
    text = BLOCKED.replace("order = [1, 0]", order_field)
    src = f'#num = 5 : i32\n"test.op"() : () -> tensor<8x8xf32, {text}>'
    err = parse_error(src)
    loc = err.span.get_location()
    assert (loc.line, loc.col) == position_of(src, needle), str(err)
    assert message in err.msg, err.msg


def test_missing_field_points_at_the_dictionary() -> None:
    text = BLOCKED.replace(", order = [1, 0]", "")
    src = f'"test.op"() : () -> tensor<8x8xf32, {text}>'
    assert_error_at(src, "{sizePerThread", "#ttg.blocked: missing field 'order'")


def test_unbalanced_and_missing_brackets() -> None:
    src = '"test.op"() : () -> tensor<8x8xf32, #ttg.blocked<{order = [1, 0}>>'
    assert_error_at(src, "}>>", r"unbalanced '\}'")
    src = '#b = #ttg.blocked<{order = [1, 0]}'
    assert_error_at(src, "<{", "'<' is never closed")
    src = '"test.op"() : () -> tensor<8x8xf32, #ttg.blocked>, i32'
    assert_error_at(src, ">, i32", r"expected '<' after #ttg\.blocked")


def test_unknown_ttg_attribute_is_xdsl_error() -> None:
    src = '"test.op"() : () -> tensor<8x8xf32, #ttg.no_such_layout<{}>>'
    assert_error_at(src, "<{}>", "'ttg.no_such_layout' is not registered")


# -- Triton's exact text (differential) ----------------------------------------

# (Triton's printed text, a shape the layout accepts); taken from Triton 3.9.0.
TRITON_TEXTS = [
    (BLOCKED, [64, 64]),
    (BLOCKED.replace("}>", ", CGALayout = [[1, 0]]}>"), [64, 64]),
    (SLICE_OF_BLOCKED, [64]),
    (
        "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
        "warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>",
        [64, 64],
    ),
    ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>", [64, 64]),
    (
        "#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], "
        "instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>",
        [64, 64],
    ),
    ("#ttg.amd_wmma<{version = 2, isTranspose = true, ctaLayout = {warp = [[0, 1], [1, 0]]}}>", [64, 64]),
    (
        "#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], "
        "warp = [[4, 0], [8, 0]], block = []}>",
        [16, 32],
    ),
    ("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>", [64, 64]),
    ("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>", [64, 64]),
    ("#ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [1, 0]]}, alignment = 16>", [2, 8]),
    ("#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [4, 64]}>", [4, 64]),
]


def _attr_names(text: str) -> set[str]:
    return {m.group(1) for m in re.finditer(r"#(ttg\.\w+)<", text)}


def _type_of(text: str, shape: list[int]) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xf16, {text}>"


@pytest.mark.parametrize(("text", "shape"), TRITON_TEXTS, ids=lambda v: str(v)[:40])
def test_triton_text_round_trips(text: str, shape: list[int]) -> None:
    missing = _attr_names(text) - set(registered_encodings())
    if missing:
        pytest.skip(f"encoding(s) not implemented yet: {sorted(missing)}")
    (attr,) = result_encodings(parse(f'"test.op"() : () -> {_type_of(text, shape)}'))
    assert attr.encoding == parse_encoding(text)
    assert print_ir(attr) == text


@oracle.requires_triton
@pytest.mark.parametrize(("text", "shape"), TRITON_TEXTS, ids=lambda v: str(v)[:40])
def test_triton_prints_the_same_text(text: str, shape: list[int]) -> None:
    """The texts above are what Triton prints (guards the table itself)."""
    num_ctas = 2 if "CGALayout" in text else 1
    assert oracle.canonical_attr_text(text, shape, num_ctas=num_ctas) == text


# Generated cases: their text is Triton's printed form (tests/layout_cases.py checks
# that against the oracle), so printing must reproduce it character for character.
GENERATED_CASES_PER_FAMILY = 25


@pytest.mark.parametrize("family", layout_cases.ENCODINGS)
def test_generated_cases_print_as_triton(family: str) -> None:
    cases = layout_cases.cases_for(family, seed=7, n=GENERATED_CASES_PER_FAMILY)
    missing = {f"ttg.{c.attr_name}" for c in cases} - set(registered_encodings())
    if missing:
        pytest.skip(f"encoding(s) not implemented yet: {sorted(missing)}")
    # One module per family: each layout as an alias and inline.
    lines = [f"#l{i} = {case.attr_text}" for i, case in enumerate(cases)]
    types = ", ".join(f"{_type_of(f'#l{i}', list(c.shape))}, {_type_of(c.attr_text, list(c.shape))}"
                      for i, c in enumerate(cases))
    src = "\n".join(lines) + f'\n"test.op"() : () -> ({types})'
    attrs = result_encodings(parse(src))
    for i, case in enumerate(cases):
        aliased, inline = attrs[2 * i], attrs[2 * i + 1]
        assert aliased == inline, case.attr_text
        assert aliased.encoding == parse_encoding(case.attr_text)
        assert print_ir(aliased) == case.attr_text


def test_attributes_compare_and_hash_by_their_encoding() -> None:
    from ltc.dialects.ttg_attrs import layout_attr
    from ltc.encodings import parse_encoding

    def blocked(spt: int):
        return layout_attr(parse_encoding(
            f"#ttg.blocked<{{sizePerThread = [{spt}], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>"
        ))

    assert blocked(1) == blocked(1) and hash(blocked(1)) == hash(blocked(1))
    assert blocked(1) != blocked(8)
    assert len({blocked(1), blocked(2), blocked(8), blocked(1)}) == 3
