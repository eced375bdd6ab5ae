"""``ltc.passes.conversion_report`` and ``ltc-opt --conversion-report``: exact entries.

The module below holds two conversions of a 64x64 f32 tensor between two blocked
layouts (4 warps, sm_90): one in an ``scf.for`` from 2 to 10 (weight 8), one in a loop
with unknown bounds nested in it (weight 8 × 16). Every number checked is derived by
hand from the cost model:

* the plan (``lowering.plans.cost``): 8 ``st.shared.v4`` + 8 ``ld.shared.v4`` (4 wavefronts
  each) and one barrier (4): 68 cycles, plus one register move charged 1/32;
* rematerializing the first conversion's source ``math.exp(load)``: the load's result is
  converted instead (same plan, weight 8), and ``math.exp`` is computed twice (its
  result is also stored in the old layout): ``remat_cost`` = 2 cycles × 32 words a
  thread holds = 64, × 8;
* keeping the source layout for the second conversion's users: the other operand of
  the ``arith.addf`` (a load in the destination layout, weight 128) and the stored sum
  (weight 128) each need the conversion: 2 × 68.03125 × 128.
"""

from __future__ import annotations

import importlib.util
import io
import json

import pytest

from ltc.dialects.context import triton_context
from ltc.dialects.reader import parse_module_text
from ltc.passes.conversion_report import JSON_KEYS, conversion_report, format_json, report_json, report_text
from ltc.tools import opt
from tests import oracle

PLAN = 68.03125  # 8 x 4 + 8 x 4 wavefronts + 4 (barrier) + 1/32 (a move)

MODULE = """\
#X = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#D = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @k(%p: tensor<64x64x!tt.ptr<f32>, #X>, %q: tensor<64x64x!tt.ptr<f32>, #D>, %n: i32) {
    %c2 = arith.constant 2 : i32
    %c1 = arith.constant 1 : i32
    %c10 = arith.constant 10 : i32
    scf.for %i = %c2 to %c10 step %c1 : i32 {
      %l = tt.load %p : tensor<64x64x!tt.ptr<f32>, #X>
      %e = math.exp %l : tensor<64x64xf32, #X>
      tt.store %p, %e : tensor<64x64x!tt.ptr<f32>, #X>
      %a = ttg.convert_layout %e : tensor<64x64xf32, #X> -> tensor<64x64xf32, #D>
      tt.store %q, %a : tensor<64x64x!tt.ptr<f32>, #D>
      scf.for %j = %c2 to %n step %c1 : i32 {
        %b = ttg.convert_layout %l : tensor<64x64xf32, #X> -> tensor<64x64xf32, #D>
        %m = tt.load %q : tensor<64x64x!tt.ptr<f32>, #D>
        %c = arith.addf %b, %m : tensor<64x64xf32, #D>
        tt.store %q, %c : tensor<64x64x!tt.ptr<f32>, #D>
      }
    }
    tt.return
  }
}
"""

COUNTS = {
    "shared_stores": 8,
    "shared_loads": 8,
    "shared_stores_by_bits": {"128": 8},
    "shared_loads_by_bits": {"128": 8},
    "stmatrix": 0,
    "ldmatrix": 0,
    "shuffles": 0,
    "barriers": 1,
    "warp_syncs": 0,
    "selects": 0,
    "moves": 0,
}


def _module(text: str = MODULE):
    return parse_module_text(triton_context(), text, "k.ttgir").module


def _run(argv: list[str], text: str = MODULE) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = opt.run(argv, io.StringIO(text), out, err)
    return status, out.getvalue(), err.getvalue()


@oracle.requires_triton
def test_triton_accepts_the_module() -> None:
    oracle.triton_reprint(MODULE)


def test_entries_plan_weight_and_alternatives() -> None:
    first, second = report_json(_module())
    assert list(first) == list(JSON_KEYS)
    assert first["src"] == "#blocked" and first["dst"] == "#blocked1"
    assert (first["shape"], first["dtype"]) == ([64, 64], "f32")
    assert (first["kind"], first["counts"], first["scratch_bytes"]) == ("shared", COUNTS, 16384)
    assert (first["loop_depth"], first["weight"], first["cost"]) == (1, 8.0, PLAN * 8)
    assert first["alternatives"] == [
        {"move": "rematerialize-source", "cost": PLAN * 8 + 64 * 8},
        {"move": "keep-source-layout", "cost": PLAN * 8},
    ]
    assert (second["loop_depth"], second["weight"], second["cost"]) == (2, 128.0, PLAN * 128)
    assert second["alternatives"] == [
        {"move": "rematerialize-source", "cost": PLAN * 8},
        {"move": "keep-source-layout", "cost": 2 * PLAN * 128},
        {"move": "hoist-out-of-loop", "cost": PLAN * 8},
    ]
    assert second["reason"] == (
        "source #blocked fixed by tt.load result (<unknown>); destination #blocked1 required by "
        "tt.store operand (<unknown>); a cheaper move was not taken: rematerialize-source costs "
        "544.25 < 8708"
    )
    report = conversion_report(_module())
    assert (report.summary.conversions, report.summary.weighted_cost) == (2, PLAN * 136)


def test_weight_of_a_loop_counted_from_zero() -> None:
    """``scf.for %i = %c0 to %c8``: weight 8 (a zero lower bound is a constant too)."""
    text = MODULE.replace("%c2 to %c10", "%c0 to %c8").replace(
        "%c2 = arith.constant 2 : i32", "%c2 = arith.constant 2 : i32\n    %c0 = arith.constant 0 : i32"
    ).replace("%c10 = arith.constant 10 : i32", "%c8 = arith.constant 8 : i32")
    first, second = report_json(_module(text))
    assert (first["weight"], second["weight"]) == (8.0, 128.0)


def test_text_block() -> None:
    text = report_text(_module(), locate=lambda op: None)
    assert text.splitlines()[:7] == [
        "<unknown>: ttg.convert_layout #blocked -> #blocked1",
        "  tensor<64x64xf32>, loop depth 1, weight 8",
        "  plan: shared (optimal swizzling): 8 shared stores (128-bit x8), 8 shared loads (128-bit x8), "
        "1 barrier; scratch 16384 bytes",
        "  cost: 68.03 cycles x 8 = 544.25",
        "  why: source #blocked fixed by tt.load result (<unknown>); destination #blocked1 required by "
        "tt.store operand (<unknown>); no alternative is cheaper (the cheapest, keep-source-layout, costs 544.25)",
        "  rejected: rematerialize the source chain in #blocked1 [rematerialize-source]: 1056.25",
        "  rejected: keep #blocked for the users [keep-source-layout]: 544.25",
    ]
    assert text.endswith("total: 2 conversions, weighted cost 9252.25\n")


def test_full_layouts_without_aliases() -> None:
    first = report_json(_module(), aliases=False)[0]
    assert first["src"] == (
        "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
    )


def test_driver_json_on_stderr_ir_on_stdout() -> None:
    status, out, err = _run(["--conversion-report=json", "-"])
    assert status == 0
    assert out == _run(["-"])[1]  # stdout stays the IR
    entries = json.loads(err)
    assert [e["loc"] for e in entries] == ["<stdin>:12:12", "<stdin>:15:14"]
    assert all(list(e) == list(JSON_KEYS) for e in entries)
    assert entries[1]["reason"].startswith(
        "source #blocked fixed by tt.load result (<stdin>:9:12); destination #blocked1 required by "
        "tt.store operand (<stdin>:18:9)"
    )
    assert err == format_json(entries)  # one entry per line


def test_driver_text_after_a_pass() -> None:
    """The engine hoists the inner conversion out of the unknown loop (weight 128 -> 8);
    the report describes the module after the pass, the op at its input position."""
    status, _, err = _run(["--conversion-report", "-p", "tritongpu-remove-layout-conversions", "-"])
    assert status == 0
    lines = err.splitlines()
    assert lines[7] == "<stdin>:15:14: ttg.convert_layout #blocked -> #blocked1"
    assert lines[8] == "  tensor<64x64xf32>, loop depth 1, weight 8"
    assert lines[14] == "total: 2 conversions, weighted cost 1088.5"
    has_rule = importlib.util.find_spec("ltc.passes.layout_strategies") is not None
    assert any(line.startswith("Triton's rule: ") for line in lines) == has_rule


def test_driver_split_input_file_one_report_per_section() -> None:
    text = MODULE + "// -----\n" + MODULE.replace("tt.func @k", "tt.func @k2")
    status, _, err = _run(["--split-input-file", "--conversion-report=json", "-"], text)
    assert status == 0
    first, second = err.split("// -----\n")
    assert [e["loc"] for e in json.loads(second)] == ["<stdin>:36:12", "<stdin>:39:14"]
    assert json.loads(first)[0]["loc"] == "<stdin>:12:12"


def test_driver_bad_input() -> None:
    """A module that fails to parse gets the usual diagnostic, exit 1, and no report."""
    bad = MODULE.replace("%e : tensor<64x64xf32, #X> -> tensor<64x64xf32, #D>", "%e : tensor<64x64xf32, #X> -> tensor<64x32xf32, #D>")
    status, out, err = _run(["--conversion-report", "-"], bad)
    assert status == 1 and out == ""
    assert err.startswith("<stdin>:13:20: error: use of value '%a' expects different type than prior uses")
    assert "ttg.convert_layout #" not in err and "total:" not in err


def test_no_conversion_and_usage() -> None:
    status, _, err = _run(["--conversion-report", "-"], MODULE.split("    scf.for")[0] + "    tt.return\n  }\n}\n")
    assert status == 0 and err == "total: 0 conversions, weighted cost 0\n"
    status, _, err = _run(["--conversion-report=yaml", "-"])
    assert status == 2 and "invalid choice: 'yaml'" in err


@pytest.mark.parametrize("flag", ["--conversion-report", "-conversion-report"])
def test_bare_flag_does_not_take_the_input(flag: str, tmp_path) -> None:  # noqa: ANN001 - pytest fixture
    path = tmp_path / "k.ttgir"
    path.write_text(MODULE)
    status, _, err = _run([flag, str(path)])
    assert status == 0 and err.startswith(f"{path}:12:12: ttg.convert_layout")


def test_loop_carried_source_on_triton_output() -> None:
    """Triton's own matmul (examples/triton/matmul.ttgir, no pass): the stored f16 comes
    from the accumulator an ``scf.for`` carries; rematerializing stops at the loop's
    result (the f32 accumulator converted once after the loop, not every iteration) and
    the reason names the anchor inside the loop that fixes the layout."""
    from pathlib import Path

    from ltc.passes.conversion_cost import price
    from ltc.passes.layout_ir import with_layout

    path = Path(__file__).resolve().parent.parent / "examples" / "triton" / "matmul.ttgir"
    module = _module(path.read_text())
    (entry,) = conversion_report(module).entries
    cvt = next(op for op in module.walk() if op.name == "ttg.convert_layout")
    acc = cvt.operands[0].owner.operands[0]  # arith.truncf of the loop's result
    after_loop = price(acc.type, with_layout(acc.type, cvt.results[0].type.encoding.encoding)).cycles
    assert (entry.kind, entry.weight, entry.src, entry.dst) == ("shared", 1.0, "#mma", "#blocked")
    assert [(a.move, a.cost) for a in entry.alternatives] == [
        ("rematerialize-source", after_loop),
        ("keep-source-layout", entry.cost),
    ]
    # (the wait passes its operand's layout through: the dot behind it fixes it)
    assert [e.what for e in entry.fixed_by] == ["ttng.warp_group_dot result"]
    assert [e.what for e in entry.required_by] == ["tt.store operand"]


def test_driver_split_input_file_failing_section_keeps_the_sections_apart() -> None:
    """A section that fails reports nothing, and the separators still count sections."""
    broken = "module {\n  tt.func @f() {\n    tt.return %x\n  }\n}\n"
    text = MODULE + "// -----\n" + broken + "// -----\n" + MODULE.replace("tt.func @k", "tt.func @k2")
    status, _, err = _run(["--split-input-file", "--conversion-report=json", "-"], text)
    assert status == 1
    first, second, third = err.split("// -----\n")
    assert len(json.loads(first)) == 2 and len(json.loads(third)) == 2
    assert second.startswith("<stdin>:") and " error: " in second
