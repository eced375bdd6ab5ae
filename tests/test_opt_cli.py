"""``ltc-opt``: bad input never crashes, and the driver's options do what they say.

Every file of ``tests/bad_inputs`` holds one mistake a user makes in Triton IR. For
each, ``BAD_INPUTS`` gives the exact ``line:col`` of the diagnostic and a distinctive
part of its message; the test checks the whole contract: exit status 1, nothing on
stdout, first stderr line ``<path>:<line>:<col>: error: <message>``, then the
offending source line and a caret under the column as the last two lines, no
traceback, and ``-o`` neither created nor truncated. Positions follow MLIR's
conventions (an op is reported at its name; a missing token after the last token;
an undefined value at its first use) and were checked by hand against the files.

Most tests call ``ltc.tools.opt.run`` in-process with ``io.StringIO`` streams (fast); a few
run the installed ``ltc-opt`` script, to prove the exit statuses and the absence of
tracebacks through the real entry point.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from xdsl.passes import ModulePass

from ltc.tools import opt
from ltc.passes import registry
from tests import oracle

CORPUS = Path(__file__).parent / "bad_inputs"
CORPUS_SUFFIXES = (".ttgir", ".ttir", ".mlir")


@dataclass(frozen=True)
class Bad:
    """The diagnostic one corpus file must produce."""

    line: int
    col: int
    message: str  # a distinctive substring of the first line's message
    flags: tuple[str, ...] = ()
    gap: str | None = None  # a known gap of ltc: the diagnostic test is xfail until it is closed
    accepted: bool = False  # the gap is that ltc accepts the file (every test of it is xfail)


SPLIT = ("--split-input-file",)

BAD_INPUTS: dict[str, Bad] = {
    # ---- text: truncation, braces, strings, bytes
    "truncated.ttgir": Bad(7, 70, "unexpected end of input: type expected"),
    "missing_close_brace.ttir": Bad(8, 4, "unexpected end of input: expected an operation or '}'"),
    "extra_close_brace.ttir": Bad(10, 1, "unbalanced '}': no region is open here"),
    "string_unterminated.ttgir": Bad(2, 97, "'}' expected"),
    "trailing_garbage.ttir": Bad(7, 1, "custom op 'error' is unknown"),
    "invalid_utf8.ttir": Bad(1, 53, "input is not valid UTF-8"),
    "binary_not_text.ttgir": Bad(1, 19, "input is not valid UTF-8"),
    "missing_type.ttir": Bad(4, 27, "expected ':'"),
    "tensor_missing_element_type.ttir": Bad(3, 67, "expected 'x' in shape delimiter"),
    "element_type_unknown.ttir": Bad(4, 60, "expected shape type"),
    # ---- aliases and locations
    "alias_missing_equals.ttgir": Bad(2, 10, "expected '='"),
    "alias_undefined.ttgir": Bad(6, 84, "undefined symbol alias '#blocked1'"),
    "alias_unterminated.ttgir": Bad(2, 24, "'<' is never closed in layout attribute"),
    "loc_syntax.ttir": Bad(4, 53, "expected integer literal"),
    "loc_undefined_alias.ttir": Bad(5, 38, "undefined symbol alias '#loc7'"),
    # ---- SSA values
    "ssa_undefined.ttir": Bad(5, 34, "use of undefined value '%mask'"),
    "tabs_undefined_value.ttir": Bad(4, 23, "use of undefined value '%nope'"),
    "split_second_chunk.mlir": Bad(13, 25, "use of undefined value '%undefined'", flags=SPLIT),
    "ssa_redefined.ttir": Bad(5, 5, "SSA value %0 is already defined"),
    "func_arg_redefined.ttir": Bad(3, 44, "SSA value %x is already defined"),
    "ssa_type_mismatch.ttir": Bad(4, 27, "use of value '%n' expects different type than prior uses: 'i64' vs 'i32'"),
    "use_before_def.ttir": Bad(4, 12, "'arith.addi' op operand #1 does not dominate this use"),
    "result_count.ttir": Bad(4, 5, "Operation has 1 results, but was given 2 to bind"),
    # ---- unknown ops and types
    "op_unknown_tt.ttir": Bad(5, 10, "custom op 'tt.foo' is unknown"),
    "op_unknown_dialect.ttir": Bad(4, 10, "custom op 'mydialect.scale' is unknown (dialect 'mydialect' is not registered"),
    "op_unregistered_generic.ttir": Bad(4, 10, "custom op 'mydialect.scale' is unknown (dialect 'mydialect' is not registered"),
    "type_unknown_in_tt.ttir": Bad(3, 34, "unknown type '!tt.pointer'"),
    "ptr_empty.ttir": Bad(3, 42, "type expected"),
    "memdesc_bad.ttgir": Bad(7, 106, "'>' expected"),
    # ---- layout attributes
    "blocked_unknown_key.ttgir": Bad(2, 26, "unexpected field 'sizePerThreads' (did you mean 'sizePerThread'?)"),
    "blocked_missing_order.ttgir": Bad(2, 25, "#ttg.blocked: missing field 'order'"),
    "blocked_list_length.ttgir": Bad(2, 70, "#ttg.blocked: warpsPerCTA has 2 entries but order has 1"),
    "blocked_non_pow2.ttgir": Bad(2, 26, "sizePerThread [3]: every entry must be a positive power of 2"),
    "blocked_order_not_permutation.ttgir": Bad(2, 97, "order [0, 0] is not a permutation of 0..1"),
    "blocked_warps_mismatch.ttgir": Bad(5, 13, "Result has an invalid layout: #ttg.blocked<"),
    "blocked_threads_product.ttgir": Bad(5, 13, "Result has an invalid layout: #ttg.blocked<"),
    "layout_rank_mismatch.ttgir": Bad(
        6, 13, "Result has an invalid layout: Layout has rank 1, but the tensor it's attached to has rank 2."
    ),
    "missing_num_warps.ttgir": Bad(5, 13, "Could not determine the number of warps per CTA"),
    "num_warps_not_integer.ttgir": Bad(5, 13, "Could not determine the number of warps per CTA"),
    "slice_dim_out_of_range.ttgir": Bad(3, 22, "#ttg.slice: slice dim=2 must be less than the parent rank=2"),
    "mma_bad_version.ttgir": Bad(2, 25, "versionMajor must be 2 (Ampere) or 3 (Hopper), got 7"),
    "dot_op_bad_opidx.ttgir": Bad(3, 21, "ttg.dot_op opIdx parameter can be 0 or 1, got: 2"),
    # ---- op verifiers
    "expand_dims_axis.ttir": Bad(5, 10, "'tt.expand_dims' op axis 2 is out of range for a rank-1 operand"),
    "expand_dims_axis.ttgir": Bad(6, 10, "'tt.expand_dims' op axis 2 is out of range for a rank-1 operand"),
    "make_range_empty.ttir": Bad(4, 10, "'tt.make_range' op start must be less than end"),
    "make_range_length.ttir": Bad(4, 10, "'tt.make_range' op number of elements in returned tensor, 128, must match"),
    "splat_element_type.ttir": Bad(4, 10, "'tt.splat' op requires the same element type for all operands and results"),
    "load_mask_shape.ttir": Bad(
        7, 10, "mask type",
        gap="tt.load rejects Triton's generic form (boundaryCheck, cache, evict, isVolatile properties)",
    ),
    "store_value_type.ttir": Bad(
        7, 5, "value type",
        gap="tt.store rejects Triton's generic form (boundaryCheck, cache, evict properties)",
    ),
    "addptr_not_pointer.ttir": Bad(5, 10, "'tt.addptr' op ptr must be a pointer or a tensor of pointers"),
    "dot_shape_mismatch.ttir": Bad(5, 10, "'tt.dot' op expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand (K of a is 64, of b 32)"),
    "broadcast_shape.ttir": Bad(4, 10, "'tt.broadcast' op Different dimensions at index 1 between source and result"),
    "trans_order.ttgir": Bad(6, 10, "'tt.trans' op order must be a permutation of 0..n-1"),
    "convert_layout_shape.ttgir": Bad(6, 10, "'ttg.convert_layout' op requires the same shape for all operands and results"),
    "program_id_axis.ttir": Bad(4, 30, "expected `x`, `y`, or `z`"),
    "reduce_axis.ttir": Bad(4, 10, "'tt.reduce' op axis out of bounds for operand rank 1"),
    "reduce_no_terminator.ttir": Bad(4, 10, "'tt.reduce' op combine region must end with its return op"),
    "return_mismatch.ttir": Bad(4, 5, "'tt.return' op has 1 operands, but enclosing function (@kernel) returns 0"),
    "call_undefined.ttir": Bad(4, 10, "'tt.call' op 'helper' does not reference a valid function"),
    "scf_for_yield_type.ttir": Bad(8, 12, "'scf.for' op Expected yield arg #0 to be tensor<128xf32>, but got tensor<128xi32>"),
    "scf_if_no_yield.ttir": Bad(4, 10, "'scf.if' op region #1 yields 0 value(s) of types () but the op has 1 result(s)"),
    "arith_mismatched_types.ttir": Bad(4, 10, "'arith.addi' op operand 'rhs' at position 1 does not verify"),
    "arith_float_on_int.ttir": Bad(
        4, 10, "floating-point",
        gap="arith.addf on integers fails at parse time with 'Unexpected attribute i32' at the type",
    ),
    "cmpi_predicate.ttir": Bad(4, 21, "enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]"),
    "int_attr_overflow.ttir": Bad(4, 25, "integer constant out of range for attribute"),
}

# Triton 3.9 accepts these (ltc is stricter on purpose: it reads its input as UTF-8,
# comments included).
TRITON_ACCEPTS = {"invalid_utf8.ttir"}


def corpus_files() -> list[str]:
    return sorted(p.name for p in CORPUS.iterdir() if p.suffix in CORPUS_SUFFIXES)


def corpus_params(diagnostic: bool = True) -> list[object]:
    """One parameter per corpus file; known gaps xfail (strict: closing one fails the test)."""
    marks = {
        name: [pytest.mark.xfail(strict=True, reason=bad.gap)] if bad.gap and (diagnostic or bad.accepted) else []
        for name, bad in BAD_INPUTS.items()
    }
    return [pytest.param(name, marks=marks.get(name, []), id=name) for name in corpus_files()]


def run_opt(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    """``ltc-opt argv`` in-process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = opt.run(list(argv), io.StringIO(stdin), out, err)
    return status, out.getvalue(), err.getvalue()


def source_line(path: Path, line: int) -> str:
    """The text of 1-based ``line`` as a diagnostic shows it (up to the first non-UTF-8 byte)."""
    text = path.read_bytes().decode("utf-8", errors="replace")
    bad = text.find("\ufffd")
    if bad >= 0:
        text = text[:bad]
    return text.split("\n")[line - 1]


def caret_line(text: str, col: int) -> str:
    """Spaces (tabs kept) up to ``col``, then ``^``."""
    return "".join(c if c == "\t" else " " for c in text[: col - 1]) + "^"


def check_diagnostic(stderr: str, name: str, bad: Bad, path: Path) -> None:
    """``stderr`` is exactly one diagnostic at ``bad``'s position for ``path``."""
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert stderr.endswith("\n") and len(lines) >= 3, stderr
    head = re.match(r"^(.*):(\d+):(\d+): error: (.*)$", lines[0])
    assert head is not None, lines[0]
    assert head[1] == str(path)
    assert (int(head[2]), int(head[3])) == (bad.line, bad.col), lines[0]
    assert bad.message in head[4], lines[0]
    expected_line = source_line(path, bad.line)
    assert lines[-2] == expected_line
    assert lines[-1] == caret_line(expected_line, bad.col)


class Test_BadInputCorpus:
    def test_every_file_has_an_expectation(self) -> None:
        assert corpus_files() == sorted(BAD_INPUTS)
        assert len(BAD_INPUTS) >= 40

    @pytest.mark.parametrize("name", corpus_params())
    def test_diagnostic(self, name: str, tmp_path: Path) -> None:
        bad = BAD_INPUTS[name]
        path = CORPUS / name
        out_path = tmp_path / "out.mlir"
        status, stdout, stderr = run_opt(str(path), *bad.flags, "-o", str(out_path))
        check_diagnostic(stderr, name, bad, path)
        assert (status, stdout) == (opt.EXIT_INPUT, "")
        assert not out_path.exists()

    @pytest.mark.parametrize("name", corpus_params(diagnostic=False))
    def test_existing_output_is_left_alone(self, name: str, tmp_path: Path) -> None:
        out_path = tmp_path / "out.mlir"
        out_path.write_text("previous output\n")
        status, _, _ = run_opt(str(CORPUS / name), *BAD_INPUTS[name].flags, "-o", str(out_path))
        assert status == opt.EXIT_INPUT
        assert out_path.read_text() == "previous output\n"

    @pytest.mark.parametrize("name", corpus_params(diagnostic=False))
    def test_main_never_reports_an_internal_error(
        self, name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # main() turns any exception into exit status 3; no corpus file may get there.
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        status = opt.main([str(CORPUS / name), *BAD_INPUTS[name].flags])
        err = capsys.readouterr().err
        assert "internal error" not in err
        assert status == opt.EXIT_INPUT

    @pytest.mark.parametrize("name", [n for n in sorted(BAD_INPUTS) if n not in TRITON_ACCEPTS])
    @oracle.requires_triton
    def test_triton_rejects_it_too(self, name: str) -> None:
        try:
            text = (CORPUS / name).read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            pytest.skip("not UTF-8: the oracle takes text")
        with pytest.raises(oracle.OracleError):
            oracle.triton_reprint(text)

    @pytest.mark.parametrize("name", sorted(TRITON_ACCEPTS))
    @oracle.requires_triton
    def test_triton_accepts_what_ltc_rejects_on_purpose(self, name: str) -> None:
        text = (CORPUS / name).read_bytes().decode("utf-8", errors="ignore")
        assert oracle.triton_reprint(text).startswith("module")


# ------------------------------------------------------------------------------ driver

KERNEL = """\
module {
  tt.func public @twice(%p: !tt.ptr<i32>, %a: i32) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %0 = arith.addi %a, %c0_i32 : i32
    %1 = arith.addi %a, %c0_i32 : i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.muli %a, %a : i32
    tt.store %p, %2 : !tt.ptr<i32>
    tt.return
  }
}
"""
KERNEL_PRINTED = KERNEL
# --cse merges the two identical adds (and, like MLIR's, erases the unused muli).
KERNEL_CSE = """\
module {
  tt.func public @twice(%p: !tt.ptr<i32>, %a: i32) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %0 = arith.addi %a, %c0_i32 : i32
    %1 = arith.muli %0, %0 : i32
    tt.store %p, %1 : !tt.ptr<i32>
    tt.return
  }
}
"""
# --canonicalize folds a + 0 to a and erases what is left unused.
KERNEL_CANONICAL = """\
module {
  tt.func public @twice(%p: !tt.ptr<i32>, %a: i32) attributes {noinline = false} {
    %0 = arith.muli %a, %a : i32
    tt.store %p, %0 : !tt.ptr<i32>
    tt.return
  }
}
"""

WITH_LOCATIONS = """\
module {
  tt.func public @copy(%p: !tt.ptr<f32>) attributes {noinline = false} {
    %x = tt.load %p : !tt.ptr<f32> loc(#loc1)
    tt.store %p, %x : !tt.ptr<f32> loc(#loc2)
    tt.return loc(#loc2)
  } loc(#loc)
} loc(#loc)
#loc = loc("kernel.py":3:0)
#loc1 = loc("kernel.py":4:8)
#loc2 = loc("kernel.py":5:4)
"""
WITHOUT_LOCATIONS = """\
module {
  tt.func public @copy(%p: !tt.ptr<f32>) attributes {noinline = false} {
    %x = tt.load %p : !tt.ptr<f32>
    tt.store %p, %x : !tt.ptr<f32>
    tt.return
  }
}
"""

GOOD_CHUNK = """\
module {
  tt.func public @ok(%a: i32) attributes {noinline = false} {
    %0 = arith.addi %a, %a : i32
    tt.return
  }
}
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


class Test_Driver:
    def test_round_trip(self, tmp_path: Path) -> None:
        assert run_opt(str(write(tmp_path, "k.ttir", KERNEL))) == (0, KERNEL_PRINTED, "")

    def test_missing_file(self, tmp_path: Path) -> None:
        missing = tmp_path / "no_such.ttgir"
        out_path = tmp_path / "out.mlir"
        status, stdout, stderr = run_opt(str(missing), "-o", str(out_path))
        assert (status, stdout) == (1, "")
        assert stderr == f"{missing}:1:1: error: cannot read input file: No such file or directory\n"
        assert not out_path.exists()

    def test_directory_as_input(self, tmp_path: Path) -> None:
        status, _, stderr = run_opt(str(tmp_path))
        assert status == 1
        assert stderr == f"{tmp_path}:1:1: error: cannot read input file: Is a directory\n"

    def test_help_lists_the_passes(self) -> None:
        status, stdout, stderr = run_opt("--help")
        assert (status, stderr) == (0, "")
        assert stdout.startswith("usage: ltc-opt")
        for name in registry.PASS_REGISTRY:
            assert re.search(rf"^  --{re.escape(name)}\n      \S", stdout, re.MULTILINE), name
        assert "-split-input-file" in stdout

    @pytest.mark.parametrize(
        ("argv", "complaint"),
        [
            (("-p", "no-such-pass"), "ltc-opt: error: bad pass pipeline 'no-such-pass': "),
            (("-p", "cse{no-such-option=1}"), "ltc-opt: error: bad pass pipeline 'cse{no-such-option=1}': "),
            (("--pass-pipeline=builtin.module(cse,nope)",), "ltc-opt: error: bad pass pipeline 'cse,nope': "),
            (("--no-such-flag",), "ltc-opt: error: unrecognized arguments: --no-such-flag"),
        ],
    )
    def test_usage_errors(self, argv: tuple[str, ...], complaint: str, tmp_path: Path) -> None:
        path = write(tmp_path, "k.ttir", KERNEL)
        out_path = tmp_path / "out.mlir"
        status, stdout, stderr = run_opt(str(path), *argv, "-o", str(out_path))
        assert (status, stdout) == (opt.EXIT_USAGE, "")
        assert complaint in stderr
        assert "Traceback" not in stderr
        assert not out_path.exists()

    def test_bad_pipeline_is_a_usage_error_even_with_bad_input(self) -> None:
        status, _, stderr = run_opt(str(CORPUS / "truncated.ttgir"), "-p", "no-such-pass")
        assert status == opt.EXIT_USAGE
        assert stderr.startswith("ltc-opt: error: bad pass pipeline 'no-such-pass'")

    @pytest.mark.parametrize("flag", ["-split-input-file", "--split-input-file"])
    def test_split_input_file(self, flag: str, tmp_path: Path) -> None:
        second = KERNEL
        path = write(tmp_path, "two.mlir", f"{GOOD_CHUNK}\n// -----\n\n{second}")
        status, stdout, stderr = run_opt(str(path), flag)
        assert (status, stderr) == (0, "")
        assert stdout == f"{GOOD_CHUNK}// -----\n{KERNEL_PRINTED}"

    def test_without_split_two_modules_are_one_input(self, tmp_path: Path) -> None:
        path = write(tmp_path, "two.mlir", f"{GOOD_CHUNK}\n// -----\n\n{CORPUS.joinpath('ssa_redefined.ttir').read_text()}")
        status, _, stderr = run_opt(str(path))
        assert status == 1
        assert stderr.startswith(f"{path}:14:5: error: SSA value %0 is already defined")

    def test_split_input_file_prints_every_chunk_and_fails_at_the_end(self, tmp_path: Path) -> None:
        # MLIR's semantics: the failing chunk reports and prints nothing, the others print,
        # the run exits 1; -o is not written.
        path = CORPUS / "split_second_chunk.mlir"
        text = path.read_text() + f"\n// -----\n{GOOD_CHUNK}"
        path = write(tmp_path, "three.mlir", text)
        status, stdout, stderr = run_opt(str(path), "-split-input-file")
        assert status == 1
        assert stdout == f"{GOOD_CHUNK}// -----\n// -----\n{GOOD_CHUNK}"
        assert stderr == (
            f"{path}:13:25: error: use of undefined value '%undefined'\n"
            "    %0 = arith.addi %a, %undefined : i32\n"
            "                        ^\n"
        )
        out_path = tmp_path / "out.mlir"
        status, stdout, _ = run_opt(str(path), "-split-input-file", "-o", str(out_path))
        assert (status, stdout) == (1, "")
        assert not out_path.exists()

    @pytest.mark.parametrize(
        "annotation",
        [
            "// expected-error @+2 {{use of undefined value '%undefined'}}",
            "// expected-error@+2 {{undefined value}}",
            "// expected-error @below {{undefined value}}",
            "// expected-error-re @+2 {{use of {{[a-z]+}} value '%{{.*}}'}}",
        ],
    )
    def test_verify_diagnostics_expected_error_met(self, annotation: str, tmp_path: Path) -> None:
        text = CORPUS.joinpath("split_second_chunk.mlir").read_text()
        text = text.replace("  tt.func public @bad", f"{annotation}\n  tt.func public @bad")
        if "@below" in annotation:  # @below: the next line that is not an annotation
            text = text.replace("  tt.func public @bad(%a: i32) attributes {noinline = false} {\n", "")
            text = text.replace(f"{annotation}\n", f"  tt.func public @bad(%a: i32) attributes {{noinline = false}} {{\n{annotation}\n")
        path = write(tmp_path, "cases.mlir", text)
        status, stdout, stderr = run_opt(str(path), "-split-input-file", "--verify-diagnostics")
        assert (status, stderr) == (0, "")
        assert stdout == f"{GOOD_CHUNK}// -----\n"

    def test_verify_diagnostics_above_and_same_line(self, tmp_path: Path) -> None:
        text = CORPUS.joinpath("split_second_chunk.mlir").read_text()
        same = text.replace("%undefined : i32\n", "%undefined : i32 // expected-error {{undefined}}\n")
        above = text.replace("%undefined : i32\n", "%undefined : i32\n    // expected-error @above {{undefined}}\n")
        minus = text.rstrip("\n") + "\n// expected-error @-4 {{undefined}}\n"
        for case in (same, above, minus):
            path = write(tmp_path, "cases.mlir", case)
            status, _, stderr = run_opt(str(path), "-split-input-file", "--verify-diagnostics")
            assert (status, stderr) == (0, ""), case

    def test_verify_diagnostics_reports_unexpected_and_missing(self, tmp_path: Path) -> None:
        text = CORPUS.joinpath("split_second_chunk.mlir").read_text()
        path = write(tmp_path, "cases.mlir", text)
        status, _, stderr = run_opt(str(path), "-split-input-file", "--verify-diagnostics")
        assert status == 1
        assert stderr.splitlines()[0] == f"{path}:13:25: error: unexpected error: use of undefined value '%undefined'"
        wrong = text.replace("    %0 = arith.addi %a, %undefined", "    // expected-error @+1 {{some other message}}\n    %0 = arith.addi %a, %undefined")
        path = write(tmp_path, "cases.mlir", wrong)
        status, _, stderr = run_opt(str(path), "-split-input-file", "--verify-diagnostics")
        lines = [ln for ln in stderr.splitlines() if ": error: " in ln]
        assert status == 1
        assert lines == [
            f"{path}:13:8: error: expected error \"some other message\" was not produced",
            f"{path}:14:25: error: unexpected error: use of undefined value '%undefined'",
        ]
        # an expectation in a chunk that is fine is not met either
        good = write(tmp_path, "good.mlir", f"// expected-error @+1 {{{{boom}}}}\n{GOOD_CHUNK}")
        status, _, stderr = run_opt(str(good), "--verify-diagnostics")
        assert status == 1
        assert stderr.splitlines()[0] == f"{good}:1:4: error: expected error \"boom\" was not produced"

    def test_verify_diagnostics_for_a_verifier_error(self, tmp_path: Path) -> None:
        body = CORPUS.joinpath("make_range_empty.ttir").read_text()
        lines = body.splitlines(keepends=True)
        lines.insert(3, "// expected-error @+1 {{'tt.make_range' op start must be less than end}}\n")
        path = write(tmp_path, "cases.mlir", "".join(lines) + f"// -----\n{GOOD_CHUNK}")
        status, stdout, stderr = run_opt(str(path), "--split-input-file", "--verify-diagnostics")
        assert (status, stderr) == (0, "")
        assert stdout == f"// -----\n{GOOD_CHUNK}"

    @pytest.mark.parametrize(
        "argv",
        [
            ("--pass-pipeline=builtin.module(cse)",),
            ("-pass-pipeline=builtin.module(cse)",),
            ("--pass-pipeline", "builtin.module(cse)"),
            ("-p", "cse"),
            ("--cse",),
            ("-cse",),
        ],
    )
    def test_pipeline_spellings(self, argv: tuple[str, ...], tmp_path: Path) -> None:
        path = write(tmp_path, "k.ttir", KERNEL)
        assert run_opt(str(path), *argv) == (0, KERNEL_CSE, "")

    def test_canonicalize_pipeline(self, tmp_path: Path) -> None:
        path = write(tmp_path, "k.ttir", KERNEL)
        assert run_opt(str(path), "--pass-pipeline=builtin.module(canonicalize)") == (0, KERNEL_CANONICAL, "")
        assert run_opt(str(path), "-canonicalize") == (0, KERNEL_CANONICAL, "")

    def test_canonicalize_then_cse_matches_the_pipeline(self, tmp_path: Path) -> None:
        path = write(tmp_path, "k.ttir", KERNEL)
        assert run_opt(str(path), "--canonicalize", "--cse") == (0, KERNEL_CANONICAL, "")
        assert run_opt(str(path), "-p", "canonicalize,cse") == (0, KERNEL_CANONICAL, "")

    @pytest.mark.parametrize(
        ("argv", "order"),
        [
            (("--record-a", "--record-b"), ["record-a", "record-b"]),
            (("--record-b", "--record-a"), ["record-b", "record-a"]),
            (("-record-b", "-p", "record-a,record-b", "--record-a"), ["record-b", "record-a", "record-b", "record-a"]),
            (("--pass-pipeline=builtin.module(record-b,record-a)",), ["record-b", "record-a"]),
        ],
    )
    def test_passes_run_in_command_line_order(
        self, argv: tuple[str, ...], order: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        log: list[str] = []

        def recording(pass_name: str) -> type[ModulePass]:
            def apply(self: ModulePass, ctx: object, op: object) -> None:
                log.append(pass_name)

            return type(f"Record_{pass_name[-1]}", (ModulePass,), {"name": pass_name, "apply": apply})

        for name in ("record-a", "record-b"):
            monkeypatch.setitem(registry.PASS_REGISTRY, name, (lambda n=name: recording(n), "records its name"))
        path = write(tmp_path, "k.ttir", GOOD_CHUNK)
        assert run_opt(str(path), *argv) == (0, GOOD_CHUNK, "")
        assert log == order

    def test_output_file(self, tmp_path: Path) -> None:
        path = write(tmp_path, "k.ttir", KERNEL)
        out_path = write(tmp_path, "out.mlir", "old contents that are longer than the new ones\n" * 100)
        assert run_opt(str(path), "--cse", "-o", str(out_path)) == (0, "", "")
        assert out_path.read_text() == KERNEL_CSE

    def test_unwritable_output(self, tmp_path: Path) -> None:
        path = write(tmp_path, "k.ttir", KERNEL)
        target = tmp_path / "no_such_dir" / "out.mlir"
        status, stdout, stderr = run_opt(str(path), "-o", str(target))
        assert (status, stdout) == (1, "")
        assert stderr == f"ltc-opt: error: cannot write {target}: No such file or directory\n"

    @pytest.mark.parametrize("argv", [("-",), ()])
    def test_stdin(self, argv: tuple[str, ...]) -> None:
        assert run_opt(*argv, stdin=KERNEL) == (0, KERNEL_PRINTED, "")

    def test_bad_stdin_is_named_stdin(self) -> None:
        status, stdout, stderr = run_opt("-", stdin=CORPUS.joinpath("ssa_undefined.ttir").read_text())
        assert (status, stdout) == (1, "")
        assert stderr == (
            "<stdin>:5:34: error: use of undefined value '%mask'\n"
            "    %ok = arith.cmpi slt, %offs, %mask : tensor<128xi32>\n"
            "                                 ^\n"
        )

    @pytest.mark.parametrize("flag", ["--print-debuginfo", "--mlir-print-debuginfo", "-mlir-print-debuginfo"])
    def test_print_debuginfo(self, flag: str) -> None:
        status, stdout, stderr = run_opt(flag, stdin=WITH_LOCATIONS)
        assert (status, stderr) == (0, "")
        assert 'tt.load %p : !tt.ptr<f32> loc("kernel.py":4:8)' in stdout
        assert 'tt.store %p, %x : !tt.ptr<f32> loc("kernel.py":5:4)' in stdout

    def test_locations_are_dropped_by_default(self) -> None:
        assert run_opt(stdin=WITH_LOCATIONS) == (0, WITHOUT_LOCATIONS, "")

    def test_unregistered_dialect_is_accepted_when_asked(self) -> None:
        text = CORPUS.joinpath("op_unregistered_generic.ttir").read_text()
        status, stdout, stderr = run_opt("--allow-unregistered-dialect", stdin=text)
        assert (status, stderr) == (0, "")
        assert '%y = "mydialect.scale"(%x) : (i32) -> i32' in stdout

    def test_unregistered_custom_form_is_still_an_error(self) -> None:
        text = CORPUS.joinpath("op_unknown_dialect.ttir").read_text()
        status, _, stderr = run_opt("--allow-unregistered-dialect", stdin=text)
        assert status == 1
        assert stderr.startswith(
            "<stdin>:4:10: error: custom op 'mydialect.scale' is unknown: an unregistered op must be written in generic form"
        )


# -------------------------------------------------------------------- the real script


def ltc_opt_command() -> list[str]:
    """The installed ``ltc-opt`` script (next to this Python, else on PATH)."""
    beside = Path(sys.executable).with_name("ltc-opt")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("ltc-opt")
    if found is None:
        pytest.skip("ltc-opt is not installed (pip install -e .)")
    return [found]


def run_script(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "LTC_TRACEBACK"}
    return subprocess.run(
        [*ltc_opt_command(), *argv], input=stdin, capture_output=True, text=True, timeout=120, env=env
    )


class Test_Script:
    @pytest.mark.parametrize(
        "name", ["truncated.ttgir", "blocked_warps_mismatch.ttgir", "invalid_utf8.ttir", "expand_dims_axis.ttgir"]
    )
    def test_bad_input(self, name: str, tmp_path: Path) -> None:
        path = CORPUS / name
        out_path = tmp_path / "out.mlir"
        result = run_script(str(path), "-o", str(out_path))
        assert (result.returncode, result.stdout) == (1, "")
        check_diagnostic(result.stderr, name, BAD_INPUTS[name], path)
        assert not out_path.exists()

    def test_missing_file(self, tmp_path: Path) -> None:
        result = run_script(str(tmp_path / "gone.ttir"))
        assert result.returncode == 1
        assert result.stderr == f"{tmp_path / 'gone.ttir'}:1:1: error: cannot read input file: No such file or directory\n"

    def test_usage_error(self) -> None:
        result = run_script("-p", "no-such-pass", stdin=GOOD_CHUNK)
        assert result.returncode == 2
        assert "Traceback" not in result.stderr
        assert "ltc-opt: error: bad pass pipeline 'no-such-pass'" in result.stderr

    def test_help(self) -> None:
        result = run_script("--help")
        assert (result.returncode, result.stderr) == (0, "")
        assert "--canonicalize" in result.stdout

    def test_good_input_from_stdin(self) -> None:
        result = run_script("-split-input-file", "-", stdin=f"{GOOD_CHUNK}// -----\n{GOOD_CHUNK}")
        assert (result.returncode, result.stdout, result.stderr) == (0, f"{GOOD_CHUNK}// -----\n{GOOD_CHUNK}", "")


@pytest.mark.parametrize("text", ["", "\n  \n", "// only a comment\n"])
def test_an_empty_input_is_an_empty_module_as_in_triton(text: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert opt.run(["-"], io.StringIO(text), out, err) == opt.EXIT_OK, err.getvalue()
    assert out.getvalue() == "module {\n}\n"


def test_a_trailing_split_marker_gives_an_empty_last_module() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert opt.run(["-", "--split-input-file"], io.StringIO("module {\n}\n// -----\n"), out, err) == 0
    assert out.getvalue() == "module {\n}\n// -----\nmodule {\n}\n"


_SM80_KERNEL = ('#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n'
                'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:TARGET", '
                '"ttg.threads-per-warp" = 32 : i32} {\n'
                "  tt.func public @k(%p: !tt.ptr<f32>) {\n"
                "    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>\n"
                "    %f = arith.sitofp %r : tensor<128xi32, #b> to tensor<128xf32, #b>\n"
                "    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>\n"
                "    %a = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>\n"
                "    tt.store %a, %f : tensor<128x!tt.ptr<f32>, #b>\n"
                "    tt.return\n  }\n}\n")


@pytest.mark.parametrize(("module_target", "flags", "ptx_target"), [
    ("80", (), "sm_80"), ("86", (), "sm_80"), ("90", (), "sm_90"), ("100", (), "sm_90"),
    ("80", ("--target", "sm_90"), "sm_90"), ("90", ("--target", "sm_80"), "sm_80"),
])
def test_emit_targets_the_modules_own_gpu_unless_told(
    tmp_path: Path, module_target: str, flags: tuple[str, ...], ptx_target: str
) -> None:
    src = tmp_path / "k.ttgir"
    src.write_text(_SM80_KERNEL.replace("TARGET", module_target))
    status, out, err = run_opt(str(src), "--emit", "ptx", *flags)
    assert status == 0, err
    assert re.search(r"^\.target (\S+)$", out, re.M).group(1) == ptx_target  # type: ignore[union-attr]
