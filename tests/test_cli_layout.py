"""``ltc-layout``: every output form and every error path, run in-process.

Expected tables are built from the definition of the blocked layout written
out here (which warp/lane/register holds element (i, j)), never from the code
under test.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

import ltc
from ltc.tools.layout_cli import layout_main
from ltc.encodings import registered_encodings
from ltc.linear_layout import LinearLayout

# sizePerThread [1, 2], threadsPerWarp [4, 8], warpsPerCTA [2, 1], order [1, 0]:
# one warp covers 4 x 16, the CTA tile is 8 x 16. For element (i, j) of 8 x 16:
#   register = j % 2, lane = (j // 2) % 8 + 8 * (i % 4), warp = i // 4.
BLOCKED = (
    "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], "
    "warpsPerCTA = [2, 1], order = [1, 0]}>"
)
BLOCKED_CGA = BLOCKED.replace("order = [1, 0]}", "order = [1, 0], CGALayout = [[1, 0]]}")
README_BLOCKED = (
    "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
    "warpsPerCTA = [4, 1], order = [1, 0]}>"
)
SVG_NS = "{http://www.w3.org/2000/svg}"


def blocked_owner(i: int, j: int) -> tuple[int, int, int]:
    """(warp, lane, register) of element (i, j) of BLOCKED on its 8 x 16 tile."""
    return i // 4, (j // 2) % 8 + 8 * (i % 4), j % 2


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = layout_main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def grid_text(header: str, notes: list[str], cells: list[list[str]], row_labels: list[str]) -> str:
    """The table format: header and notes, then column indices, then one line
    per row; columns one space apart, each as wide as the widest cell."""
    ncols = len(cells[0])
    width = max(max(len(c) for row in cells for c in row), len(str(ncols - 1)))
    rw = max(len(r) for r in row_labels)

    def line(head: str, items: list[str]) -> str:
        return (head.rjust(rw) + "  " + " ".join(s.ljust(width) for s in items)).rstrip()

    lines = [header, *notes, line("", [str(c) for c in range(ncols)])]
    lines += [line(r, row) for r, row in zip(row_labels, cells)]
    return "\n".join(lines) + "\n"


def needs_encoding(name: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(
        f"ttg.{name}" not in registered_encodings(), reason=f"#ttg.{name} is not implemented yet"
    )


# ----------------------------------------------------------------- text/json
def test_default_prints_triton_text_without_leading_newline(capsys):
    code, out, err = run(capsys, BLOCKED, "--shape", "8x16")
    layout = ltc.to_linear_layout(BLOCKED, [8, 16])
    assert (code, err) == (0, "")
    assert str(layout).startswith("\n")
    assert out == str(layout)[1:] + "\n"
    assert out.splitlines()[0] == " - register=1 -> (0, 1)"
    assert out.splitlines()[-1] == "where out dims are: [dim0 (size 8), dim1 (size 16)]"


def test_json_round_trips(capsys):
    code, out, _ = run(capsys, BLOCKED, "--shape", "8x16", "--json")
    assert code == 0 and out.count("\n") == 1
    data = json.loads(out)
    assert data["in_dims"]["warp"] == [[4, 0]]
    assert data["out_dims"] == {"dim0": 8, "dim1": 16}
    rebuilt = LinearLayout.from_bases(data["in_dims"], data["out_dims"])
    assert rebuilt == ltc.to_linear_layout(BLOCKED, [8, 16])


def test_num_warps_and_threads_checks(capsys):
    assert run(capsys, BLOCKED, "--shape", "8x16", "--num-warps", "2", "--threads-per-warp", "32")[0] == 0
    code, out, err = run(capsys, BLOCKED, "--shape", "8x16", "--num-warps", "4")
    assert code == 1 and out == ""
    assert err == "ltc-layout: error: --num-warps 4: the layout has 2 (its 'warp' in-dim size)\n"
    code, _, err = run(capsys, BLOCKED, "--shape", "8x16", "--threads-per-warp", "64")
    assert code == 1 and err.startswith("ltc-layout: error: --threads-per-warp 64") and err.count("\n") == 1


# --------------------------------------------------------------------- table
def test_table_blocked_exact(capsys):
    code, out, err = run(capsys, BLOCKED, "--shape", "8x16", "--table")
    assert (code, err) == (0, "")
    cells = [[f"w{w}/t{t}/r{r}" for w, t, r in (blocked_owner(i, j) for j in range(16))] for i in range(8)]
    expected = grid_text(
        "rows: dim0 (size 8), columns: dim1 (size 16); cell: w<warp>/t<lane>/r<register>",
        [],
        cells,
        [str(i) for i in range(8)],
    )
    assert out == expected
    lines = out.splitlines()
    # Spot checks written out literally.
    assert lines[2].startswith("0  w0/t0/r0  w0/t0/r1  w0/t1/r0  w0/t1/r1  w0/t2/r0")
    assert lines[-1].endswith("w1/t30/r0 w1/t30/r1 w1/t31/r0 w1/t31/r1")


def test_table_warp_broadcast(capsys):
    # 4 x 16 is half the CTA tile: warp 1 holds copies of warp 0's elements.
    code, out, _ = run(capsys, BLOCKED, "--shape", "4x16", "--table")
    assert code == 0
    cells = [[f"w0/t{blocked_owner(i, j)[1]}/r{j % 2}*2" for j in range(16)] for i in range(4)]
    note = "*2: held by 2 owners (broadcast); the first is shown, the others are it XOR any combination of: warp=1"
    expected = grid_text(
        "rows: dim0 (size 4), columns: dim1 (size 16); cell: w<warp>/t<lane>/r<register>",
        [note],
        cells,
        [str(i) for i in range(4)],
    )
    assert out == expected

    code, out, _ = run(capsys, BLOCKED, "--shape", "4x16", "--table", "--all-owners")
    assert code == 0
    cells = [
        [f"w0/t{blocked_owner(i, j)[1]}/r{j % 2},w1/t{blocked_owner(i, j)[1]}/r{j % 2}" for j in range(16)]
        for i in range(4)
    ]
    assert out == grid_text(
        "rows: dim0 (size 4), columns: dim1 (size 16); cell: w<warp>/t<lane>/r<register>",
        [note],
        cells,
        [str(i) for i in range(4)],
    )


def test_table_lane_and_warp_broadcast(capsys):
    # 4 x 8: dim1 is half the warp's 16 columns (lane bit 4 broadcasts) and
    # dim0 half the CTA's 8 rows (warp bit 1 broadcasts): 4 owners each.
    code, out, _ = run(capsys, BLOCKED, "--shape", "4x8", "--table", "--all-owners")
    assert code == 0
    lines = out.splitlines()
    assert lines[1].endswith("any combination of: lane=4; warp=1")
    assert lines[1].startswith("*4: held by 4 owners")
    row0 = lines[3].split()
    assert row0[0] == "0"
    # Element (0, 3): register 1, lanes 1 and 1^4 = 5, warps 0 and 1, listed
    # in increasing (warp, lane, register) order.
    assert row0[1 + 3] == "w0/t1/r1,w0/t5/r1,w1/t1/r1,w1/t5/r1"


def test_table_several_ctas_shows_block(capsys):
    code, out, _ = run(capsys, BLOCKED_CGA, "--shape", "16x16", "--table")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].endswith("cell: b<block>/w<warp>/t<lane>/r<register>")
    assert lines[2].split()[1:3] == ["b0/w0/t0/r0", "b0/w0/t0/r1"]
    last = lines[-1].split()
    assert last[0] == "15" and last[-1] == "b1/w1/t31/r1"


def test_table_rank1_wraps_rows_of_16(capsys):
    attr = "#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>"
    code, out, _ = run(capsys, attr, "--shape", "128", "--table")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("dim0 (size 128) = row + column")
    rows = [line.split() for line in lines[2:]]
    assert [r[0] for r in rows] == [str(16 * k) for k in range(8)]
    # Element e: register e % 2, lane (e // 2) % 32, warp e // 64.
    for k, row in enumerate(rows):
        for c, cell in enumerate(row[1:]):
            e = 16 * k + c
            assert cell == f"w{e // 64}/t{(e // 2) % 32}/r{e % 2}"


def test_readme_example_table(capsys):
    code, out, _ = run(capsys, README_BLOCKED, "--shape", "32x16", "--table")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2 + 32
    # register = j % 4, lane = j // 4 + 4 * (i % 8), warp = i // 8.
    for i, line in enumerate(lines[2:]):
        cells = line.split()
        assert cells[0] == str(i)
        assert cells[1:] == [f"w{i // 8}/t{j // 4 + 4 * (i % 8)}/r{j % 4}" for j in range(16)]


# ----------------------------------------------------------------------- svg
def parse_svg(path) -> ET.Element:
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG_NS}svg"
    return root


def cell_rects(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG_NS}rect") if e.get("class", "").split()[:1] == ["cell"]]


def grid_position(rects: list[ET.Element]) -> dict[tuple[int, int], ET.Element]:
    xs = sorted({float(r.get("x")) for r in rects})
    ys = sorted({float(r.get("y")) for r in rects})
    return {(ys.index(float(r.get("y"))), xs.index(float(r.get("x")))): r for r in rects}


def test_svg_cells_coloured_by_warp(capsys, tmp_path):
    out_file = tmp_path / "layout.svg"
    code, out, err = run(capsys, BLOCKED, "--shape", "8x16", "--svg", str(out_file))
    assert (code, out, err) == (0, "", "")
    root = parse_svg(out_file)
    rects = cell_rects(root)
    assert len(rects) == 8 * 16
    grid = grid_position(rects)
    fills = {(i, j): grid[i, j].get("fill") for i in range(8) for j in range(16)}
    warp_fill = {}
    for (i, j), fill in fills.items():
        warp_fill.setdefault(blocked_owner(i, j)[0], set()).add(fill)
    assert all(len(f) == 1 for f in warp_fill.values())
    assert warp_fill[0] != warp_fill[1]
    labels = [t.text for t in root.iter(f"{SVG_NS}text")]
    for i, j in [(0, 0), (1, 3), (7, 15)]:
        _, lane, reg = blocked_owner(i, j)
        assert f"T{lane}:R{reg}" in labels
    assert "W0" in labels and "W1" in labels
    assert not list(root.iter(f"{SVG_NS}polygon"))  # nothing replicated


def test_svg_marks_broadcast_and_writes_stdout(capsys):
    code, out, _ = run(capsys, BLOCKED, "--shape", "4x16", "--svg", "-")
    assert code == 0
    root = ET.fromstring(out.split("?>", 1)[1])
    assert len(cell_rects(root)) == 4 * 16
    markers = [p for p in root.iter(f"{SVG_NS}polygon") if p.get("class") == "replicated"]
    assert len(markers) == 4 * 16
    texts = [t.text for t in root.iter(f"{SVG_NS}text")]
    assert texts.count("\u00d72") == 4 * 16
    titles = [t.text for t in root.iter(f"{SVG_NS}title")]
    assert "dim0=0, dim1=2: w0/t1/r0, w1/t1/r0" in titles


def test_example_svg_is_well_formed():
    import pathlib

    path = pathlib.Path(__file__).resolve().parent.parent / "examples" / "blocked_32x16.svg"
    if not path.exists():
        pytest.skip("examples/blocked_32x16.svg not generated")
    assert len(cell_rects(parse_svg(path))) == 32 * 16


# -------------------------------------------------------------------- errors
def assert_one_line_error(code: int, out: str, err: str, lines: int = 1) -> list[str]:
    assert code == 1 and out == ""
    assert "Traceback" not in err
    got = err.splitlines()
    assert len(got) == lines and got[0].startswith("ltc-layout: error: ")
    return got


def test_bad_field_points_caret_at_field(capsys):
    attr = BLOCKED.replace("sizePerThread = [1, 2]", "sizePerThread = [1, 3]")
    code, out, err = run(capsys, attr, "--shape", "8x16")
    msg, text, caret = assert_one_line_error(code, out, err, lines=3)
    assert "power of 2" in msg
    assert text == "  " + attr
    col = caret.index("^") - 2
    assert caret.strip() == "^" and attr[col:].startswith("sizePerThread")


def test_syntax_error_caret(capsys):
    attr = "#ttg.blocked<{sizePerThread = [1, 2}>"
    code, out, err = run(capsys, attr, "--shape", "8x16")
    _, text, caret = assert_one_line_error(code, out, err, lines=3)
    assert text == "  " + attr
    assert 0 <= caret.index("^") - 2 <= len(attr)


def test_unknown_attribute(capsys):
    code, out, err = run(capsys, "#ttg.nonsense<{a = 1}>", "--shape", "8x16")
    msg, _, caret = assert_one_line_error(code, out, err, lines=3)
    assert "unknown layout attribute" in msg and "#ttg.blocked" in msg
    assert caret == "  ^"


@pytest.mark.parametrize("shape", ["64x15", "abc", "0x4", "8x-16", "8x"])
def test_bad_shape(capsys, shape):
    msg = assert_one_line_error(*run(capsys, BLOCKED, "--shape", shape))[0]
    assert f"bad --shape '{shape}'" in msg


def test_shape_of_wrong_rank(capsys):
    msg = assert_one_line_error(*run(capsys, BLOCKED, "--shape", "64"))[0]
    assert msg == "ltc-layout: error: #ttg.blocked has rank 2 but the shape 64 has rank 1"


def test_table_rank3_is_an_error(capsys):
    attr = (
        "#ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], "
        "warpsPerCTA = [1, 1, 1], order = [2, 1, 0]}>"
    )
    assert run(capsys, attr, "--shape", "2x4x8")[0] == 0  # the text form takes any rank
    msg = assert_one_line_error(*run(capsys, attr, "--shape", "2x4x8", "--table"))[0]
    assert "rank-1 and rank-2" in msg
    assert_one_line_error(*run(capsys, attr, "--shape", "2x4x8", "--svg", "-"))


def test_unwritable_svg(capsys, tmp_path):
    msg = assert_one_line_error(*run(capsys, BLOCKED, "--shape", "8x16", "--svg", str(tmp_path / "no" / "x.svg")))[0]
    assert "cannot write" in msg


def test_usage_errors_exit_2(capsys):
    code, out, err = run(capsys, BLOCKED)  # --shape missing
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.splitlines()[-1].startswith("ltc-layout: error: ")
    code, _, _ = run(capsys, BLOCKED, "--shape", "8x16", "--json", "--table")
    assert code == 2


def test_internal_error_is_reported_not_raised(capsys, monkeypatch):
    import ltc.tools.layout_view

    def broken(*args, **kwargs):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(ltc.tools.layout_view, "render_table", broken)
    code, out, err = run(capsys, BLOCKED, "--shape", "8x16", "--table")
    assert code == 3 and out == ""
    assert err == "ltc-layout: internal error: RuntimeError: boom second line\n"


def test_help_explains_options(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for option in ("--shape", "--num-warps", "--threads-per-warp", "--json", "--table", "--svg", "examples:"):
        assert option in out


# ------------------------------------------------ other encodings (guarded)
@needs_encoding("linear")
def test_linear_encoding_table(capsys):
    # Transposed tile: lanes walk dim0 first, registers take dim1.
    attr = (
        "#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [4, 0], [0, 4], [0, 8]], "
        "warp = [[8, 0]], block = []}>"
    )
    code, out, _ = run(capsys, attr, "--shape", "16x16")
    assert code == 0 and out == str(ltc.to_linear_layout(attr, [16, 16]))[1:] + "\n"
    code, out, _ = run(capsys, attr, "--shape", "16x16", "--table")
    assert code == 0
    rows = [line.split() for line in out.splitlines()[2:]]
    for i, row in enumerate(rows):
        assert row[1:] == [f"w{i // 8}/t{(i % 8) + 8 * (j // 4)}/r{j % 4}" for j in range(16)]


@needs_encoding("swizzled_shared")
def test_swizzled_shared_table_shows_offsets(capsys):
    # vec 1, perPhase 1, maxPhase 4, row-major 4 x 4: element (i, j) sits at
    # offset 4 * i + (j XOR i).
    attr = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 4, order = [1, 0]}>"
    code, out, _ = run(capsys, attr, "--shape", "4x4", "--table")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].endswith("cell: <offset>")
    rows = [line.split() for line in lines[2:]]
    assert [row[1:] for row in rows] == [[str(4 * i + (j ^ i)) for j in range(4)] for i in range(4)]


@needs_encoding("swizzled_shared")
def test_swizzled_shared_svg_coloured_by_bank(capsys):
    attr = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"
    code, out, _ = run(capsys, attr, "--shape", "4x64", "--svg", "-", "--dtype-bits", "32")
    assert code == 0
    root = ET.fromstring(out.split("?>", 1)[1])
    grid = grid_position(cell_rects(root))
    # offset = 64 * i + j, bank = offset mod 32 = j mod 32 for 32-bit elements.
    for i in range(4):
        for j in range(64):
            assert grid[i, j].get("fill") == grid[0, j % 32].get("fill")
    assert len({grid[0, j].get("fill") for j in range(32)}) == 32


# ------------------------------------------------------- layout_view direct
def test_elements_nobody_holds_read_dash():
    from ltc.tools.layout_view import render_table

    layout = LinearLayout.from_bases(
        {"register": [[0, 1]], "lane": [[0, 0]], "warp": [], "block": []}, {"dim0": 2, "dim1": 2}
    )
    assert render_table(layout) == (
        "rows: dim0 (size 2), columns: dim1 (size 2); cell: w<warp>/t<lane>/r<register>\n"
        "*2: held by 2 owners (broadcast); the first is shown, the others are it XOR any combination of: lane=1\n"
        "   0          1\n"
        "0  w0/t0/r0*2 w0/t0/r1*2\n"
        "1  -          -\n"
    )


def test_coupled_kernel_vector_is_described_jointly():
    from ltc.tools.layout_view import render_table

    # register=1 and lane=1 both map to (0, 1): the kernel is register=1 XOR lane=1.
    layout = LinearLayout.from_bases(
        {"register": [[0, 1]], "lane": [[0, 1], [1, 0]], "warp": [], "block": []}, {"dim0": 2, "dim1": 2}
    )
    out = render_table(layout, all_owners=True)
    assert out.splitlines()[1].endswith("any combination of: lane=1 register=1")
    assert out.splitlines()[3] == "0  w0/t0/r0,w0/t1/r1 w0/t0/r1,w0/t1/r0"


# ------------------------------------------ every encoding family, seeded
def _seeded_cases():
    """Cases of every family whose top-level encoding ltc registers (from
    tests/layout_cases.py, which needs neither Triton nor ltc)."""
    import os
    import sys

    sys.path.insert(0, os.path.dirname(__file__))
    try:
        import layout_cases
    except ImportError:
        return []
    cases = []
    for family in layout_cases.ENCODINGS:
        for case in layout_cases.cases_for(family, seed=7, n=6):
            if f"ttg.{case.attr_name}" in registered_encodings():
                cases.append(case)
    return cases


_CASES = _seeded_cases()


@pytest.mark.skipif(not _CASES, reason="tests/layout_cases.py unavailable")
@pytest.mark.parametrize("case", _CASES, ids=lambda c: f"{c.encoding}-{'x'.join(map(str, c.shape))}")
def test_every_output_form_on_seeded_cases(capsys, case):
    """The CLI prints the library's layout (whose agreement with Triton the
    encoding tests check), and the table and SVG handle every family."""
    try:
        layout = ltc.to_linear_layout(case.attr_text, case.shape)
    except (ltc.EncodingError, ltc.ShapeError, ltc.AttrTextError, ltc.LayoutError) as e:
        code, out, err = run(capsys, case.attr_text, "--shape", "x".join(map(str, case.shape)))
        assert code == 1 and out == "" and err.startswith("ltc-layout: error: ") and "Traceback" not in err
        pytest.skip(f"ltc rejects this case ({e}); the CLI reports it as an error")
    shape = "x".join(map(str, case.shape))
    checks = [] if case.is_shared else ["--num-warps", str(case.num_warps), "--threads-per-warp",
                                        str(case.threads_per_warp)]
    code, out, err = run(capsys, case.attr_text, "--shape", shape, *checks)
    assert (code, err) == (0, "")
    assert "\n" + out == str(layout) + "\n"
    code, out, _ = run(capsys, case.attr_text, "--shape", shape, "--json")
    assert code == 0 and json.loads(out) == layout.to_json()
    if len(case.shape) <= 2:
        code, out, err = run(capsys, case.attr_text, "--shape", shape, "--table")
        assert (code, err) == (0, "")
        rows = case.shape[0] if len(case.shape) == 2 else max(1, case.shape[0] // 16)
        replicated = layout.rank < layout.total_in_size_log2  # non-trivial kernel: a footnote
        assert len(out.splitlines()) == 2 + replicated + rows
        code, out, err = run(capsys, case.attr_text, "--shape", shape, "--svg", "-")
        assert (code, err) == (0, "")
        numel = 1
        for s in case.shape:
            numel *= s
        assert len(cell_rects(ET.fromstring(out.split("?>", 1)[1]))) == numel
