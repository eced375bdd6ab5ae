"""Reading and printing Triton text: location hoisting, splitting, aliases, positions."""

from __future__ import annotations

import io

import pytest

from ltc.tools.diagnostics import SourceFile
from ltc.dialects.context import triton_context
from ltc.dialects.printer import print_module
from ltc.dialects.reader import SourceError, hoist_location_aliases, parse_module_text, split_input
from tests import oracle

HEADER = (
    'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, '
    'ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {'
)


def blocked(spt: int) -> str:
    return f"#ttg.blocked<{{sizePerThread = [{spt}], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>"


def test_hoisting_moves_location_aliases_first_and_keeps_offsets() -> None:
    text = 'module {\n} loc(#loc1)\n#loc = loc("a.py":1:2)\n#loc1 = loc("f"(#loc))\n'
    hoisted, offsets = hoist_location_aliases(text)
    assert hoisted.startswith('#loc = loc("a.py":1:2) #loc1 = loc("f"(#loc)) module {')
    # Every character outside the moved lines keeps its offset, shifted by the prefix.
    assert hoisted[offsets.prefix_length :].replace(" ", "") == "module{\n}loc(#loc1)\n\n\n"
    assert offsets.to_original(offsets.prefix_length + 3) == 3
    # A character inside a moved line maps back to where the user wrote it.
    assert text[offsets.to_original(hoisted.index('"f"'))] == '"'
    assert offsets.to_original(hoisted.index('"f"')) == text.index('"f"')


def test_split_input_keeps_chunk_offsets() -> None:
    text = "a\n// -----\nbb\n// ----- trailing words\nccc\n"
    chunks = split_input(text, split=True)
    assert [c.text.strip() for c in chunks] == ["a", "bb", "ccc"]
    for c in chunks:
        assert text[c.offset : c.offset + len(c.text)] == c.text
    assert split_input(text, split=False)[0].text == text


def test_op_offsets_point_at_op_names() -> None:
    text = f"{HEADER}\n  tt.func @f() {{\n    %0 = tt.get_program_id x : i32\n    tt.return\n  }}\n}}\n"
    parsed = parse_module_text(triton_context(), text)
    names = {op.name: off for op, off in parsed.op_offsets.items()}
    src = SourceFile("t", text)
    assert src.line_col(names["tt.get_program_id"]) == (3, 10)
    assert src.line_col(names["tt.return"]) == (4, 5)
    assert src.line_col(names["builtin.module"]) == (1, 1)


def test_parse_error_offset_is_in_the_users_text() -> None:
    text = f"{HEADER}\n  tt.func @f() {{\n    %0 = tt.get_program_id w : i32\n    tt.return\n  }}\n}}\n#loc = loc(unknown)\n"
    with pytest.raises(SourceError) as info:
        parse_module_text(triton_context(), text)
    line, _ = SourceFile("t", text).line_col(info.value.offset)
    assert line == 3


def _printed(text: str) -> str:
    out = io.StringIO()
    print_module(parse_module_text(triton_context(), text).module, out)
    return out.getvalue()


def _make_range_module(layouts: list[str]) -> str:
    body = "\n".join(
        f"    %r{i} = tt.make_range {{end = 4096 : i32, start = 0 : i32}} : tensor<4096xi32, {enc}>"
        for i, enc in enumerate(layouts)
    )
    return f"{HEADER}\n  tt.func public @f() {{\n{body}\n    tt.return\n  }}\n}}\n"


def test_alias_numbering_follows_first_use_and_sorts_numerically() -> None:
    sizes = [8, 1, 4, 2, 16, 32, 64, 128, 256, 512, 1024, 2048]
    linear = "#ttg.linear<{register = [[1]], lane = [[2], [4], [8], [16], [32]], warp = [[64], [128]], block = []}>"
    printed = _printed(_make_range_module([blocked(s) for s in sizes] + [linear]))
    header = [line for line in printed.splitlines() if line.startswith("#")]
    assert header[0] == f"#blocked = {blocked(8)}"
    assert header[1] == f"#blocked1 = {blocked(1)}"
    assert header[9] == f"#blocked9 = {blocked(512)}"
    assert header[10] == f"#blocked10 = {blocked(1024)}"
    assert header[11] == f"#blocked11 = {blocked(2048)}"
    assert header[12] == f"#linear = {linear}"
    assert len(header) == 13
    assert "tensor<4096xi32, #blocked11>" in printed
    assert printed.splitlines()[13].startswith("module attributes {")


@oracle.requires_triton
def test_alias_header_equals_triton_including_nested_parents() -> None:
    parent = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
    mma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
    layouts = [
        blocked(4),
        f"#ttg.slice<{{dim = 0, parent = {parent}}}>",
        blocked(2),
    ]
    text = _make_range_module(layouts).replace(
        "tt.func public @f() {",
        f"tt.func public @f(%a: tensor<16x16xf16, #ttg.dot_op<{{opIdx = 0, parent = {mma}, kWidth = 2}}>>) {{",
    )
    text = text.replace("tensor<4096xi32, #ttg.slice", "tensor<4096xi32, #ttg.slice", 1)
    printed = _printed(text)
    expected = oracle.triton_reprint(text)
    assert [ln for ln in printed.splitlines() if ln.startswith("#")] == [
        ln for ln in expected.splitlines() if ln.startswith("#")
    ]
    assert oracle.triton_reprint(printed) == expected


def test_multiple_results_print_as_a_group() -> None:
    text = 'module {\n  %a:2 = "test.op"() : () -> (i32, i32)\n  "test.use"(%a#1, %a#0) : (i32, i32) -> ()\n}\n'
    out = io.StringIO()
    print_module(parse_module_text(triton_context(allow_unregistered=True), text).module, out)
    assert out.getvalue() == text


# --------------------------------------------------------------------- file trailers
_RESOURCE_MODULE = (
    "module {{\n  tt.func @f() {{\n"
    "    %0 = arith.constant dense_resource<{key}> : tensor<2xi32>\n"
    "    tt.return\n  }}\n}}\n"
)
_BLOB = "0x040000000100000002000000"  # alignment 4, then the i32 values 1 and 2
_TRAILER = '\n{{-#\n  dialect_resources: {{\n    builtin: {{\n      {key}: "{blob}"\n    }}\n  }}\n#-}}\n'


def _printed_with_resources(text: str) -> str:
    parsed = parse_module_text(triton_context(), text)
    out = io.StringIO()
    print_module(parsed.module, out, resources=parsed.resources)
    return out.getvalue()


def test_dialect_resources_are_kept_per_input() -> None:
    text = _RESOURCE_MODULE.format(key="blob1") + _TRAILER.format(key="blob1", blob=_BLOB)
    # xDSL keeps blobs in the (process-wide) dialect and renamed the handle to blob1_0
    # the second time the same input was read.
    assert _printed_with_resources(text) == text
    assert _printed_with_resources(text) == text
    assert parse_module_text(triton_context(), text).resources == {"builtin": {"blob1": _BLOB}}
    # Without the blobs the handle prints alone, as MLIR prints a resource it lacks.
    assert _printed(text) == _RESOURCE_MODULE.format(key="blob1")


@oracle.requires_triton
def test_dialect_resources_print_as_triton_reads_them() -> None:
    # Triton's blobs are context-wide (a key read twice is renamed): each read gets its own key.
    key = f"blob_ltc_{id(object())}"
    text = _RESOURCE_MODULE.format(key=key) + _TRAILER.format(key=key, blob=_BLOB)
    original = oracle.triton_reprint(text.replace(key, key + "x")).replace(key + "x", key)
    assert key in original
    assert oracle.triton_reprint(_printed_with_resources(text)) == original


def test_external_resources_are_read_and_ignored() -> None:
    text = (
        "module {\n}\n\n{-#\n  external_resources: {\n    mlir_reproducer: {\n"
        '      pipeline: "builtin.module(canonicalize)",\n      disable_threading: false,\n'
        "      verify_each: true,\n      level: 3\n    }\n  }\n#-}\n"
    )
    assert _printed(text) == "module {\n}\n"


@pytest.mark.parametrize(
    ("text", "line_col", "message"),
    [
        ("module {\n}\n{-#\n  external_resources: { a: { b: [3] } }\n#-}\n", (4, 33), "expected a resource value"),
        ('module {\n}\n{-#\n  dialect_resources: { builtin: { k: "12" } }\n#-}\n', (4, 38), "expected hex string blob for key 'k'"),
        ("module {\n}\n{-#\n  other_resources: {}\n#-}\n", (4, 3), "unknown key 'other_resources' in file metadata dictionary"),
        ("module {\n}\n{-#\n  external_resources: {\n", (4, 24), "unexpected end of input"),
    ],
)
def test_bad_file_metadata_is_a_source_error(text: str, line_col: tuple[int, int], message: str) -> None:
    with pytest.raises(SourceError) as info:
        parse_module_text(triton_context(), text)
    assert message in info.value.message
    assert SourceFile("t", text).line_col(info.value.offset) == line_col


def test_a_file_of_aliases_only_is_an_empty_module() -> None:
    text = f"#blocked = {blocked(1)}\n!memdesc = !ttg.memdesc<4xf32, #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}}>, #ttg.shared_memory>\n"
    assert _printed(text) == "module {\n}\n"


def test_a_use_with_another_type_is_reported_as_mlir_does() -> None:
    text = "module {\n  tt.func @f(%a: i32) {\n    %0 = arith.addi %a, %a : i64\n    tt.return\n  }\n}\n"
    with pytest.raises(SourceError) as info:
        parse_module_text(triton_context(), text)
    assert info.value.message == "use of value '%a' expects different type than prior uses: 'i64' vs 'i32'"
    assert SourceFile("t", text).line_col(info.value.offset) == (3, 21)


_WHILE = """module {
  tt.func public @k(%n: i32) {
    %c0 = arith.constant 0 : i32 loc("a.py":1:1)
    %r = scf.while (%i = %c0) : (i32) -> i32 {
      %c = arith.cmpi slt, %i, %n : i32 loc("a.py":2:2)
      scf.condition(%c) %i : i32 loc("a.py":2:3)
    } do {
    ^bb0(%j: i32 loc("a.py":3:1)):
      %c1 = arith.constant 1 : i32 loc("a.py":3:2)
      %s = arith.addi %j, %c1 : i32 loc("a.py":3:3)
      scf.yield %s : i32 loc("a.py":3:4)
    } loc("a.py":4:4)
    tt.return loc("a.py":5:5)
  } loc("a.py":6:6)
} loc("a.py":7:7)
"""


def test_locations_of_ops_with_regions_follow_the_whole_op() -> None:
    """scf.while prints its type before its regions; its location still ends the op (MLIR
    reads a location only there), and Triton re-reads the output."""
    out = io.StringIO()
    print_module(parse_module_text(triton_context(), _WHILE).module, out, debuginfo=True)
    text = out.getvalue()
    while_line = next(line for line in text.splitlines() if "scf.while" in line)
    assert "loc(" not in while_line
    assert '} loc("a.py":4:4)' in text
    assert parse_module_text(triton_context(), text).module is not None
    if oracle.HAVE_TRITON:
        assert "scf.while" in oracle.triton_reprint(text, debug_info=True)
