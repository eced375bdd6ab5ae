"""Triton's own MLIR tests as ltc's conformance suite.

    python benchmarks/triton_suite.py [--suite DIR] [--jobs N] [--only GLOB] [--json OUT]

Every ``// -----`` chunk of every ``*.mlir`` file under ``DIR/test`` (default
``../shared/triton-suite`` from the repository root) is judged by Triton 3.9 (the
oracle: the files are older) and falls in one category:

* **parse/print** (Triton accepts it): ltc parses, verifies and prints it, and Triton's
  re-print of ltc's text equals Triton's re-print of the chunk.  Verdicts: ``ok``,
  ``ltc rejects``, ``differs`` (includes Triton rejecting ltc's text), ``crash``.
* **invalid** (Triton rejects it): ltc must reject it with an expected diagnostic: one of
  the chunk's ``expected-error`` annotations, or Triton 3.9's own error, at its line, the
  message matching (substring; ``{{re}}`` pieces).  :data:`DEPARTURES` lists the chunks
  where ltc's clearer message stands instead.  Verdicts: ``expected``, ``other message``
  (right line), ``wrong line``, ``accepted``, ``crash``.
* **RUN lines** piping ``triton-opt`` into FileCheck: ltc-opt runs with the line's
  arguments, per chunk with ``--split-input-file`` (each chunk padded with empty lines
  so that line numbers are the file's), and FileCheck checks each chunk's output against
  the chunk's checks and the joined output against the file.  Lines that need a pass ltc
  lacks (``unsupported pass``) or a tool after triton-opt other than FileCheck
  (``unsupported tool``) are not run.  The annotations of chunks under
  ``-verify-diagnostics`` are judged by the runner itself, never by the driver.
  A chunk of a line that runs passes and fails FileCheck may be a listed departure
  (:data:`PASS_DEPARTURES`): ``departure-refused`` when ltc refuses it by name
  (:data:`REFUSALS`), ``departure-checked`` when Triton 3.9 verifies ltc's output, that
  output holds no more ``ttg.convert_layout`` than Triton's own pass output on the
  chunk, and ltc's value interpreter gives the same results on it as on the input
  (``suite_departures``); otherwise it stays ``fail``.

ltc runs in-process in a pool of ``--jobs`` processes (one file per task); Triton runs in
child processes (``suite_oracle.py``) with its verdicts cached under
``benchmarks/.cache/triton_suite``.  ``run_suite`` is the API the test uses.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing
import os
import re
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling helper modules

from suite_departures import DepartureCheck, count_converts, interpret_compare, weighted_converts  # noqa: E402
from suite_filecheck import CheckResult, filecheck_options, run_filecheck  # noqa: E402
from suite_oracle import TritonVerdict  # noqa: E402
from suite_lit import (  # noqa: E402
    Chunk,
    Diagnostic,
    Expected,
    RunLine,
    TestFile,
    expected_errors,
    load_suite,
    parse_diagnostics,
)

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SUITE = Path(os.environ.get("LTC_TRITON_SUITE", REPO.parent / "shared" / "triton-suite"))
"""Where the suite is: ``$LTC_TRITON_SUITE``, else ``shared/triton-suite`` beside the repository."""
LTC_TIMEOUT_S = 120.0

DEPARTURES: dict[str, str] = {
    # "Dir/file.mlir#chunk": "a substring of ltc's message, clearer than Triton's",
    # MLIR: "invalid kind of type specified" (its parser wanted some tensor type); ltc says
    # which, in the words of MLIR's operand constraints
    "Triton/invalid.mlir#12": "'tt.join' op operand #0 must be ranked tensor of floating-point or integer or ptr "
                              "values, but got 'f32'",
    # Triton 3.9 stops at the old integer address space further on the line; the op the
    # line names does not exist in 3.9, which ltc says first
    "Conversion/tritoninstrument_to_llvm.mlir#5": "custom op 'tti.experimental_gsan_tensordesc_info' is unknown",
}
"""Invalid chunks where ltc's message departs from the expected one on purpose."""

PARSE_PRINT_VERDICTS = ("ok", "ltc rejects", "differs", "crash")
INVALID_VERDICTS = ("expected", "other message", "wrong line", "accepted", "crash")
RUN_STATUSES = ("pass", "fail", "unsupported pass", "unsupported tool")
CHUNK_CHECK_VERDICTS = ("pass", "departure-checked", "departure-refused", "fail", "no checks")

LAYOUT_ISSUE = "layout assignment: issue 16"
"""The reason of the departures another issue owns (``remove-layout-conversions``'s
layout assignment is being rewritten): their checks run and are reported, but the test
does not require them to hold."""

REFUSALS: dict[str, str] = {
    "MMA v5 (tcgen05, sm_100) is not implemented": "tcgen05 MMA (sm_100 and up) is out of ltc's scope",
    "ltc lays out single-CTA kernels": "multi-CTA layouts (num-ctas > 1) are out of ltc's scope",
    "op requires tcgen05 support": "Triton 3.9 rejects the chunk with the same message",
    "'tt.reshape' op Expected result encoding": "Triton 3.9 rejects the chunk with the same message",
    "source and result must have the same allocation shape": "Triton 3.9 rejects the chunk with the same message",
    "x offsets must have at least 4 contiguous elements per thread": "Triton 3.9 rejects the chunk with the same message",
    "unrecognized arguments: --dump-pass-pipeline --run-reproducer": "MLIR's crash-reproducer replay, of a "
    "pipeline of Triton's LLVM lowering passes, is not an ltc-opt feature",
}
"""ltc's errors that refuse a pass chunk by name (a substring of the message -> why)."""

PASS_DEPARTURES: dict[str, str] = {
    # -- Triton 3.9 gives what ltc gives; the file's checks were written for an older Triton
    "TritonGPU/accelerate-matmul.mlir#run0#chunk4": "f64 MMA v2 instrShape [8, 8]: ltc's output equals Triton 3.9's",
    "TritonGPU/accelerate-matmul.mlir#run0#chunk5": "f64 on sm_90 (MMA v2, [8, 8]): ltc's output equals Triton 3.9's",
    "TritonGPU/accelerate-matmul.mlir#run0#chunk6": "batched MMA v2: ltc's output equals Triton 3.9's "
                                                    "(only the module attributes' order differs)",
    "TritonGPU/reduce-data-duplication.mlir#run0#chunk2": "the shared layout of a 32x1 operand: ltc's output "
                                                          "equals Triton 3.9's",
    "TritonGPU/reduce-data-duplication.mlir#run0#chunk6": "AMD (hip:gfx940) dot_op of a blocked parent: Triton 3.9 "
                                                          "keeps the convert too; ltc's output equals Triton 3.9's",
    # -- Triton's coalesce leaves an identity convert_layout; ltc inserts none
    "TritonGPU/coalesce.mlir#run0#chunk5": "coalesce keeps the layout: Triton 3.9 inserts an identity "
                                           "ttg.convert_layout (#blocked -> #blocked), ltc none",
    "TritonGPU/coalesce.mlir#run0#chunk6": "descriptor_store keeps its layout: Triton 3.9 inserts an identity "
                                           "ttg.convert_layout, ltc none",
    # -- tt.dot_scaled: Triton decomposes it (sm_90) or uses scaled MMA v2 (sm_120); ltc leaves it
    "TritonGPU/accelerate-matmul.mlir#run0#chunk15": "tt.dot_scaled is left as is (Triton 3.9 decomposes it "
                                                     "into an upcast and wgmma on sm_90)",
    "TritonGPU/accelerate-matmul.mlir#run0#chunk27": "tt.dot_scaled is left as is (Triton 3.9 uses scaled "
                                                     "MMA v2 on sm_120)",
    "TritonGPU/accelerate-matmul.mlir#run0#chunk28": "tt.dot_scaled is left as is (Triton 3.9 uses scaled "
                                                     "MMA v2 on sm_120)",
    **{f"TritonGPU/accelerate-matmul.mlir#run{r}#chunk{i}": "tt.dot_scaled on sm_100 is left as is (Triton 3.9 "
       "uses tcgen05 scaled MMA, out of ltc's scope)" for r, i in
       ((0, 13), (0, 17), (0, 18), (0, 21), (0, 22), (0, 30), (0, 31), (1, 21), (1, 22))},
    # -- refused by name (REFUSALS)
    **{f"TritonGPU/accelerate-matmul.mlir#run{r}#chunk{i}": "MMA v5 (tcgen05) on sm_100 / sm_110: out of scope"
       for r in (0, 1) for i in (9, 10, 32, 33)},
    **{f"Conversion/triton_to_tritongpu.mlir#run1#chunk{i}": "num-ctas=2: ltc lays out single-CTA kernels"
       for i in range(10)},
    "TritonNvidiaGPU/canonicalize.mlir#run0#chunk0": "tensor memory on cuda:80: Triton 3.9 rejects the chunk "
                                                     "('requires tcgen05 support'), and so does ltc",
    "TritonGPU/ops.mlir#run0#chunk3": "memdesc_subslice between allocation shapes: Triton 3.9 rejects the chunk "
                                      "with the same message, and so does ltc",
    "TritonNvidiaGPU/ops.mlir#run0#chunk0": "async_tma_gather offsets with too few contiguous elements: Triton 3.9 "
                                            "rejects the chunk with the same message, and so does ltc",
    "Triton/reproducer.mlir#run0#chunk0": "--run-reproducer replays Triton's LLVM lowering pipeline: not in ltc",
    **{f"TritonGPU/canonicalize.mlir#run0#chunk{i}": "a reshape whose result is not the encoding Triton 3.9 "
       "infers: Triton 3.9 rejects the chunk ('Expected result encoding'), and so does ltc" for i in (0, 3)},
    # -- remove-layout-conversions: the layout assignment is being rewritten elsewhere
    **{f"TritonGPU/combine.mlir#run0#chunk{i}": LAYOUT_ISSUE for i in (
        0, 1, 5, 9, 14, 16, 19, 20, 21, 22, 24, 28, 30, 31, 33, 36, 37, 43, 44, 45, 46, 49, 50, 51,
        56, 57, 58, 59, 60, 61, 62, 63, 72)},
}
"""Pass chunks (``FILE#runR#chunkN``: chunk N of the file's R-th triton-opt RUN line)
whose FileCheck lines ltc does not meet on purpose, with the reason.  The runner checks
each one: ltc refuses it by name (:data:`REFUSALS`), or Triton 3.9 verifies ltc's
output, it has no more ``ttg.convert_layout`` than Triton's pass output, and ltc's
interpreter gives the same results on it as on the input (``suite_departures``)."""

LAYOUT_FAILS: dict[str, str] = {}
"""The layout-assignment departures whose check does not hold yet (more conversions than
Triton's pass), each with why; every other one must hold."""


# --------------------------------------------------------------------------------------
# results
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ChunkResult:
    """A chunk's verdict; ``group`` is ``reason`` made generic (numbers erased) for
    counting failure causes."""

    key: str
    directory: str
    category: str  # "parse_print" | "invalid"
    verdict: str
    reason: str = ""
    group: str = ""
    basis: str = ""  # invalid: what the expected diagnostic came from


@dataclass(frozen=True)
class PendingDeparture:
    """A departure chunk ltc ran: what the Triton checks need (computed in the main
    process) and the interpreter's verdict (computed in the worker)."""

    index: int
    text: str
    output: str
    interpreter: str


@dataclass(frozen=True)
class DepartureResult:
    key: str
    reason: str
    verdict: str
    check: str  # the checks' summary, or ltc's refusal


@dataclass(frozen=True)
class RunResult:
    key: str
    directory: str
    command: str
    status: str
    reason: str = ""
    missing: tuple[str, ...] = ()
    chunks: tuple[tuple[int, str, str], ...] = ()  # (chunk index, verdict, reason)
    passes: tuple = ()  # the line's passes with options (suite_lit.RunLine.pass_specs); () for none
    allow_unregistered: bool = False
    pending: tuple[PendingDeparture, ...] = ()
    departures: tuple[DepartureResult, ...] = ()

    def chunk_key(self, index: int) -> str:
        """The key of chunk ``index`` in :data:`PASS_DEPARTURES`."""
        return f"{self.key}#chunk{index}"


@dataclass(frozen=True)
class SuiteResult:
    suite: str
    triton_version: str
    chunks: tuple[ChunkResult, ...]
    runs: tuple[RunResult, ...]
    notes: tuple[str, ...] = ()
    seconds: float = 0.0
    oracle_computed: int = 0

    def counts(self, category: str) -> dict[str, int]:
        """Verdict counts of ``category``: "parse_print", "invalid", "runs" or "run_chunks"."""
        if category == "runs":
            return dict(Counter(r.status for r in self.runs))
        if category == "run_chunks":
            return dict(Counter(v for r in self.runs for _, v, _ in r.chunks))
        return dict(Counter(c.verdict for c in self.chunks if c.category == category))

    def to_json(self) -> dict:
        return {
            "suite": self.suite,
            "triton": self.triton_version,
            "seconds": round(self.seconds, 1),
            "notes": list(self.notes),
            "totals": {k: self.counts(k) for k in ("parse_print", "invalid", "runs", "run_chunks")},
            "chunks": {c.key: {k: v for k, v in asdict(c).items() if k != "key"} for c in self.chunks},
            "runs": {r.key: {"command": r.command, "status": r.status, "reason": r.reason,
                             "missing": list(r.missing),
                             "chunks": {str(i): [v, why] for i, v, why in r.chunks}} for r in self.runs},
            "departures": {d.key: {"reason": d.reason, "verdict": d.verdict, "check": d.check}
                           for d in self.departures()},
        }

    def departures(self) -> tuple[DepartureResult, ...]:
        """Every judged departure chunk (:data:`PASS_DEPARTURES`), in suite order."""
        return tuple(d for r in self.runs for d in sorted(r.departures, key=lambda d: _chunk_number(d.key)))

    def pass_chunks(self) -> dict[str, str]:
        """``{FILE#runR#chunkN: verdict}`` of every chunk the FileCheck RUN lines ran
        (with passes, or parse and print only)."""
        return {r.chunk_key(i): v for r in self.runs for i, v, _ in r.chunks}


def _chunk_number(key: str) -> int:
    return int(key.rsplit("#chunk", 1)[1])


# --------------------------------------------------------------------------------------
# running ltc in-process
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class LtcRun:
    rc: int | str  # exit status, or "crash" (a Python exception) / "timeout"
    stdout: str
    stderr: str

    @property
    def crashed(self) -> bool:
        return self.rc in ("crash", "timeout", 3)

    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in parse_diagnostics(self.stderr) if d.severity == "error")

    def first_error(self) -> str:
        if self.rc == "timeout":
            return f"timeout after {LTC_TIMEOUT_S:.0f} s"
        errs = self.errors()
        if errs:
            return errs[0].message
        lines = [ln for ln in self.stderr.splitlines() if ln.strip()]
        return lines[0] if lines else f"exit {self.rc}, no message"


class _Timeout(BaseException):
    pass


def _on_alarm(signum: int, frame: object) -> None:
    raise _Timeout()


def call_ltc(argv: list[str], text: str, timeout_s: float = LTC_TIMEOUT_S) -> LtcRun:
    """``ltc.tools.opt.run(argv)`` on ``text`` as stdin, in this process."""
    from ltc.tools.opt import run

    out, err = io.StringIO(), io.StringIO()
    in_main = threading.current_thread() is threading.main_thread()
    if in_main:
        old = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout_s)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            rc: int | str = run(argv, io.StringIO(text), out, err)
    except _Timeout:
        rc = "timeout"
    except (Exception, RecursionError, SystemExit) as e:  # noqa: BLE001 - a bug in ltc
        rc = "crash"
        err.write(f"{type(e).__name__}: {e}")
    finally:
        if in_main:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    return LtcRun(rc, out.getvalue(), err.getvalue())


def _judge_annotations(ltc: LtcRun, expected: Iterable[Expected]) -> str:
    expected = list(expected)
    for d in ltc.errors():
        for e in expected:
            if (e.line is None or d.line == e.line) and e.matches(d.message):
                return "expected"
    return "other"


def _run_line(tf: TestFile, run: RunLine, known_passes: frozenset[str]) -> RunResult:
    key = f"{tf.rel}#run{run.index}"
    if run.extra_tools:
        return RunResult(key, tf.directory, run.text, "unsupported tool", reason=" | ".join(run.extra_tools))
    missing = tuple(dict.fromkeys(p for p in run.passes if p not in known_passes))
    if missing:
        return RunResult(key, tf.directory, run.text, "unsupported pass", reason=", ".join(missing), missing=missing)
    fc = filecheck_options(run.filecheck_args or ())
    argv = ["-"] + [a for a in run.opt_args if a.lstrip("-").split("=", 1)[0]
                    not in ("split-input-file", "verify-diagnostics")]
    chunk_verdicts: list[tuple[int, str, str]] = []
    pending: list[PendingDeparture] = []
    departures: list[DepartureResult] = []
    outputs: list[str] = []
    all_ran = True
    whole_text = tf.input_text(run)
    for chunk in tf.chunks_of(run):
        text = chunk.padded if run.split else chunk.text
        ltc = call_ltc(argv, text)
        expected = expected_errors(chunk) if run.verify_diagnostics else ()
        if expected:  # MLIR prints nothing for a chunk whose expected error was reported
            ok = ltc.rc == 1 and _judge_annotations(ltc, expected) == "expected"
            why = "" if ok else f"expected error not reported: {ltc.first_error() if ltc.rc else 'ltc accepts'}"
            chunk_verdicts.append((chunk.index, "pass" if ok else "fail", why))
            all_ran &= ok
            outputs.append("")
            continue
        output = ltc.stdout + (ltc.stderr if run.merge_stderr else "")
        outputs.append(output)
        rc_ok = (ltc.rc not in (0, "crash", "timeout")) if run.negated else ltc.rc == 0
        if not rc_ok:
            all_ran = False
            why = f"ltc exit {ltc.rc}: {ltc.first_error()}"
            refusal = _refusal(ltc) if not ltc.crashed else None  # a parse/print RUN line too
            dkey = f"{key}#chunk{chunk.index}"
            if refusal is not None and dkey in PASS_DEPARTURES:
                chunk_verdicts.append((chunk.index, "departure-refused", why))
                departures.append(DepartureResult(dkey, PASS_DEPARTURES[dkey], "departure-refused",
                                                  f"refused: {refusal}"))
            else:
                chunk_verdicts.append((chunk.index, "fail", why))
                if run.passes and dkey in PASS_DEPARTURES:
                    departures.append(DepartureResult(dkey, PASS_DEPARTURES[dkey], "fail", why))
            continue
        res: CheckResult = run_filecheck(text, output, fc, f"{tf.rel}")
        verdict = "no checks" if res.passed is None else "pass" if res.passed else "fail"
        chunk_verdicts.append((chunk.index, verdict, "" if res.passed else res.message))
        if verdict == "fail" and run.passes and f"{key}#chunk{chunk.index}" in PASS_DEPARTURES:
            interp = interpret_compare(chunk.text, ltc.stdout, tf.allow_unregistered)
            pending.append(PendingDeparture(chunk.index, text, ltc.stdout, interp))
    joined = "// -----\n".join(outputs)
    whole = run_filecheck(whole_text, joined, fc, tf.rel)
    passed = all_ran and whole.passed is not False
    reason = "" if passed else (whole.message if all_ran else next(r for _, v, r in chunk_verdicts if v in ("fail", "departure-refused")))
    return RunResult(key, tf.directory, run.text, "pass" if passed else "fail", reason=reason,
                     chunks=tuple(chunk_verdicts), passes=run.pass_specs, allow_unregistered=tf.allow_unregistered,
                     pending=tuple(pending), departures=tuple(departures))


def _refusal(ltc: LtcRun) -> str | None:
    """ltc's error when it names one of :data:`REFUSALS`, else None."""
    text = ltc.first_error() + "\n" + ltc.stderr
    return next((ltc.first_error() for r in REFUSALS if r in text), None)


@dataclass(frozen=True)
class _FileWork:
    """What a worker computes for one file without Triton."""

    rel: str
    parse: tuple[LtcRun, ...]
    runs: tuple[RunResult, ...]


def _work_file(tf: TestFile) -> _FileWork:
    from ltc.tools.pipeline import all_passes

    known = frozenset(all_passes())
    argv = ["-", "--allow-unregistered-dialect"] if tf.allow_unregistered else ["-"]
    parse = tuple(call_ltc(argv, c.padded) for c in tf.chunks)
    runs = tuple(_run_line(tf, r, known) for r in tf.runs
                 if r.filecheck_args is not None)
    return _FileWork(tf.rel, parse, runs)


# --------------------------------------------------------------------------------------
# judging
# --------------------------------------------------------------------------------------
_SSA = re.compile(r"%[\w.$-]+")
_NUM = re.compile(r"\d+")


def _generic(message: str) -> str:
    """A failure message with numbers and value names erased, for grouping."""
    return _NUM.sub("N", _SSA.sub("%_", message)).strip()[:160]


def _first_difference(want: str, got: str) -> tuple[str, str]:
    a, b = want.splitlines(), got.splitlines()
    for x, y in zip(a, b):
        if x != y:
            return x.strip(), y.strip()
    if len(a) != len(b):
        return (a[len(b)].strip() if len(a) > len(b) else "<end>"), (b[len(a)].strip() if len(b) > len(a) else "<end>")
    return "", ""


_OP_NAME = re.compile(r'(?:=\s*)?"?([a-z_]+\.[\w.]+)"?[\s(<{]')


def _difference_group(line: str) -> str:
    s = line.strip()
    if s.startswith("#"):
        return "differs: attribute alias " + s.split("=", 1)[0].strip().rstrip("0123456789_")
    if s.startswith("module"):
        return "differs: module header"
    body = s.split("=", 1)[1] if re.match(r"^%[\w:#.,% ]+=", s) else s
    m = _OP_NAME.search(body + " ")
    return f"differs: {m.group(1)}" if m else "differs: " + _generic(s)[:60]


def _judge_parse_print(ltc: LtcRun, original: str, reprint: TritonVerdict | None) -> tuple[str, str, str]:
    """(verdict, reason, group) of a chunk Triton accepts; ``reprint`` is Triton's verdict
    on ltc's output (None when ltc failed)."""
    if ltc.crashed:
        msg = ltc.first_error()
        return "crash", msg, "crash: " + _generic(msg)
    if ltc.rc != 0 or reprint is None:
        msg = ltc.first_error()
        return "ltc rejects", msg, _generic(msg)
    if not reprint.accepted:
        errs = [d for d in parse_diagnostics(reprint.diagnostics) if d.severity == "error"]
        msg = errs[0].message if errs else reprint.diagnostics.strip()[:200]
        how = "crashes on" if reprint.crashed else "rejects"
        return "differs", f"Triton {how} ltc's output: {msg}", f"Triton {how} ltc's output: " + _generic(msg)
    got = reprint.printed or ""
    if got == original or _SSA.sub("%_", got) == _SSA.sub("%_", original):
        return "ok", "", ""
    want_line, got_line = _first_difference(_SSA.sub("%_", original), _SSA.sub("%_", got))
    return "differs", f"Triton: {want_line[:200]} | ltc: {got_line[:200]}", _difference_group(want_line or got_line)


def _judge_invalid(key: str, chunk: Chunk, ltc: LtcRun, triton_diag: str, triton_crashed: bool) -> tuple[str, str, str, str]:
    """(verdict, reason, group, basis) of a chunk Triton rejects."""
    if ltc.crashed:
        msg = ltc.first_error()
        return "crash", msg, "crash: " + _generic(msg), ""
    annotated = expected_errors(chunk)
    triton_errors = [d for d in parse_diagnostics(triton_diag) if d.severity == "error"]
    from_triton = tuple(Expected("error", d.line, d.message, False, 0) for d in triton_errors)
    want = annotated[0] if annotated else (from_triton[0] if from_triton else None)
    want_text = f"line {want.line}: {want.body}" if want is not None else "Triton crashed" if triton_crashed else "?"
    if ltc.rc == 0:
        return "accepted", f"expected {want_text}", "accepted: " + _generic(want.body if want else want_text), ""
    for basis, candidates in (("annotation", annotated), ("triton", from_triton)):
        if _judge_annotations(ltc, candidates) == "expected":
            return "expected", "", "", basis
    errors = ltc.errors()
    lines = {e.line for e in annotated + from_triton}
    at_line = [d for d in errors if d.line in lines]
    if key in DEPARTURES and any(DEPARTURES[key] in d.message for d in at_line):
        return "expected", "", "", "departure"
    got = errors[0] if errors else None
    got_text = f"line {got.line}: {got.message}" if got else ltc.first_error()
    if not lines:  # Triton aborted and the file states no expectation: any rejection will do
        return "expected", "", "", "rejected (Triton crashed, no line known)"
    if at_line:
        return "other message", f"want {want_text} | ltc {got_text}", _generic(at_line[0].message), ""
    return "wrong line", f"want {want_text} | ltc {got_text}", _generic(got.message if got else got_text), ""


def _check_departures(runs: tuple[RunResult, ...], oracle, jobs: int) -> tuple[RunResult, ...]:  # noqa: ANN001
    """Judge the departure chunks ltc ran: Triton verifies ltc's output, Triton's own pass
    output on the chunk (for the ``ttg.convert_layout`` count), and the interpreter's
    verdict from the worker; a departure whose checks hold is ``departure-checked``,
    else ``fail`` (see :data:`PASS_DEPARTURES`)."""
    from suite_oracle import OracleItem

    todo = [(r, p) for r in runs for p in r.pending]
    if not todo:
        return runs
    verified = oracle.judge([OracleItem(p.output, r.allow_unregistered) for r, p in todo], jobs)
    theirs = oracle.judge([OracleItem(p.text, r.allow_unregistered, r.passes) for r, p in todo], jobs)
    checks: dict[tuple[str, int], DepartureCheck] = {}
    for (r, p), mine, triton in zip(todo, verified, theirs):
        errs = [d.message for d in parse_diagnostics(mine.diagnostics) if d.severity == "error"]
        same = triton.accepted and _SSA.sub("%_", triton.printed or "") == _SSA.sub("%_", mine.printed or "-")
        weights = [weighted_converts(t, r.allow_unregistered) for t in (p.output, triton.printed or "")]
        checks[(r.key, p.index)] = DepartureCheck(
            mine.accepted, (errs[0] if errs else mine.diagnostics.strip())[:200], count_converts(p.output),
            count_converts(triton.printed or "") if triton.accepted else None, p.interpreter, same,
            (weights[0], weights[1]) if None not in weights else None)
    out = []
    for r in runs:
        if not r.pending:
            out.append(r)
            continue
        chunks, departures = [], list(r.departures)
        for i, v, why in r.chunks:
            check = checks.get((r.key, i))
            if check is not None:
                key = r.chunk_key(i)
                v = "departure-checked" if check.holds else "fail"
                why = check.summary() if check.holds else f"departure check fails: {check.summary()} ({why})"
                departures.append(DepartureResult(key, PASS_DEPARTURES[key], v, check.summary()))
            chunks.append((i, v, why))
        out.append(replace(r, chunks=tuple(chunks), pending=(), departures=tuple(departures)))
    return tuple(out)


def run_suite(suite_dir: Path = DEFAULT_SUITE, jobs: int | None = None, only: str | None = None,
              use_cache: bool = True) -> SuiteResult:
    """Judge every chunk and RUN line of the suite (see the module docstring)."""
    from suite_oracle import CACHE_DIR, OracleItem, TritonOracle

    start = time.monotonic()
    test_dir = suite_dir / "test" if (suite_dir / "test").is_dir() else suite_dir
    files = load_suite(test_dir, only)
    jobs = max(1, jobs or os.cpu_count() or 1)
    oracle = TritonOracle(CACHE_DIR if use_cache else None)
    items = [OracleItem(c.padded, tf.allow_unregistered) for tf in files for c in tf.chunks]

    import ltc.tools.opt  # noqa: F401 - imported once, before the workers fork
    import ltc.tools.pipeline

    ltc.tools.pipeline.all_passes()
    order = sorted(files, key=lambda f: -len(f.text))
    pool = None
    if jobs > 1 and len(files) > 1:
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
        pool = multiprocessing.get_context(method).Pool(jobs)
    verdicts: list = []
    oracle_thread = threading.Thread(target=lambda: verdicts.extend(oracle.judge(items, jobs)))
    oracle_thread.start()  # after the fork: the workers never see this thread
    try:
        if pool is not None:
            work = {w.rel: w for w in pool.imap_unordered(_work_file, order)}
        else:
            work = {tf.rel: _work_file(tf) for tf in order}
    finally:
        if pool is not None:
            pool.close()
            pool.join()
        oracle_thread.join()

    notes: list[str] = []
    if verdicts and not all(v.unregistered_supported for v in verdicts):
        notes.append("Triton could not be told to allow unregistered dialects; such chunks count as rejected")
    # Triton's re-print of ltc's output, for the chunks both accept.
    by_chunk = {}
    i = 0
    for tf in files:
        for c in tf.chunks:
            by_chunk[(tf.rel, c.index)] = verdicts[i]
            i += 1
    second: list[tuple[str, int]] = []
    for tf in files:
        for c in tf.chunks:
            if by_chunk[(tf.rel, c.index)].accepted and work[tf.rel].parse[c.index].rc == 0:
                second.append((tf.rel, c.index))
    allow = {tf.rel: tf.allow_unregistered for tf in files}
    reprints = dict(zip(second, oracle.judge(
        [OracleItem(work[rel].parse[idx].stdout, allow[rel]) for rel, idx in second], jobs)))
    if use_cache:
        oracle.save()

    chunks: list[ChunkResult] = []
    annotated_valid: list[str] = []
    for tf in files:
        for c in tf.chunks:
            key = tf.chunk_key(c)
            tv = by_chunk[(tf.rel, c.index)]
            ltc_run = work[tf.rel].parse[c.index]
            if tv.accepted:
                if tf.verify_diagnostics and expected_errors(c):
                    annotated_valid.append(key)
                v, why, group = _judge_parse_print(ltc_run, tv.printed or "", reprints.get((tf.rel, c.index)))
                chunks.append(ChunkResult(key, tf.directory, "parse_print", v, why, group))
            else:
                v, why, group, basis = _judge_invalid(key, c, ltc_run, tv.diagnostics, tv.crashed)
                chunks.append(ChunkResult(key, tf.directory, "invalid", v, why, group, basis))
    if annotated_valid:
        notes.append(f"{len(annotated_valid)} chunk(s) of -verify-diagnostics files carry expected-error annotations "
                     f"but Triton {oracle.version} accepts them, judged as parse/print: {', '.join(annotated_valid)}")
    runs = _check_departures(tuple(r for tf in files for r in work[tf.rel].runs), oracle, jobs)
    if use_cache:
        oracle.save()
    return SuiteResult(str(suite_dir), oracle.version, tuple(chunks), runs, tuple(notes),
                       time.monotonic() - start, oracle.computed)


# --------------------------------------------------------------------------------------
# reporting
# --------------------------------------------------------------------------------------
def _table(header: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" if i == 0 else "--:" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(str(x) for x in r) + " |" for r in rows]
    return "\n".join(lines)


def _by_directory(items: Iterable[object], columns: tuple[str, ...], verdict_of) -> list[list[object]]:  # noqa: ANN001
    per: dict[str, Counter] = {}
    for it in items:
        per.setdefault(it.directory, Counter())[verdict_of(it)] += 1  # type: ignore[attr-defined]
    rows = []
    total: Counter = Counter()
    for d in sorted(per):
        total += per[d]
        rows.append([d, sum(per[d].values()), *(per[d][c] for c in columns)])
    rows.append(["**total**", sum(total.values()), *(total[c] for c in columns)])
    return rows


def format_report(res: SuiteResult, top: int = 20) -> str:
    out: list[str] = [f"Triton suite: {res.suite} (oracle: triton {res.triton_version}); "
                      f"{len(res.chunks)} chunks, {len(res.runs)} FileCheck RUN lines, {res.seconds:.1f} s "
                      f"({res.oracle_computed} Triton verdicts computed, the rest cached)", ""]
    pp = [c for c in res.chunks if c.category == "parse_print"]
    inv = [c for c in res.chunks if c.category == "invalid"]
    out += ["## Parse/print (Triton 3.9 accepts the chunk)", "",
            _table(["directory", "chunks", *PARSE_PRINT_VERDICTS], _by_directory(pp, PARSE_PRINT_VERDICTS, lambda c: c.verdict)), ""]
    out += ["## Invalid (Triton 3.9 rejects the chunk)", "",
            _table(["directory", "chunks", "expected diag at line", "right line, other msg", "wrong line", "accepted", "crash"],
                   _by_directory(inv, INVALID_VERDICTS, lambda c: c.verdict)), ""]
    per: dict[str, Counter] = {}
    for r in res.runs:
        cnt = per.setdefault(r.directory, Counter())
        cnt[r.status] += 1
        for _, v, _ in r.chunks:
            cnt["chunk " + v] += 1
    cols = [*RUN_STATUSES, *("chunk " + v for v in CHUNK_CHECK_VERDICTS)]
    rows, total = [], Counter()
    for d in sorted(per):
        total += per[d]
        rows.append([d, sum(per[d][s] for s in RUN_STATUSES), *(per[d][c] for c in cols)])
    rows.append(["**total**", sum(total[s] for s in RUN_STATUSES), *(total[c] for c in cols)])
    out += ["## RUN lines into FileCheck (passes)", "",
            _table(["directory", "RUN lines", "pass", "fail", "unsupported pass", "unsupported tool",
                    "chunks pass", "chunks departure-checked", "chunks departure-refused", "chunks fail",
                    "chunks no checks"], rows), ""]
    deps = res.departures()
    if deps:
        counts = Counter(d.verdict for d in deps)
        out += [f"### Departures ({len(deps)}: " + ", ".join(f"{v} {n}" for v, n in counts.most_common()) + ")", "",
                "| chunk | verdict | reason | check |", "|---|---|---|---|"]
        out += [f"| {d.key} | {d.verdict} | {d.reason} | {d.check[:160]} |" for d in deps]
        out.append("")
    basis = Counter(c.basis for c in inv if c.verdict == "expected")
    if basis:
        out += ["Invalid chunks rejected as expected, by what the expectation came from: "
                + ", ".join(f"{b} {n}" for b, n in basis.most_common()), ""]
    missing = Counter(p for r in res.runs for p in r.missing)
    if missing:
        out += ["Passes ltc lacks (RUN lines needing them): " + ", ".join(f"{p} ({n})" for p, n in missing.most_common()), ""]
    for note in res.notes:
        out.append(f"Note: {note}")
    out.append("")
    for title, items in (("parse/print", [c for c in pp if c.verdict != "ok"]),
                         ("invalid", [c for c in inv if c.verdict != "expected"])):
        groups = Counter(f"[{c.verdict}] {c.group}" for c in items)
        out += [f"### Top {top} failure reasons: {title}", ""]
        for g, n in groups.most_common(top):
            example = next(c.key for c in items if f"[{c.verdict}] {c.group}" == g)
            out.append(f"- {n} x {g}  (e.g. {example})")
        out.append("")
    fails = Counter(_generic(why) for r in res.runs for _, v, why in r.chunks if v == "fail")
    out += [f"### Top {top} failure reasons: RUN-line chunks", ""]
    out += [f"- {n} x {g}" for g, n in fails.most_common(top)]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--suite", type=Path, default=DEFAULT_SUITE, help=f"suite folder (default {DEFAULT_SUITE})")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="ltc worker processes (default: CPUs)")
    p.add_argument("--only", default=None, metavar="GLOB", help="only files whose relative path matches GLOB")
    p.add_argument("--json", type=Path, default=None, metavar="OUT", help="write per-chunk results here")
    p.add_argument("--no-cache", action="store_true", help="do not read or write Triton's cached verdicts")
    p.add_argument("--top", type=int, default=20, help="failure reasons listed per category (default 20)")
    args = p.parse_args(argv)
    if not args.suite.is_dir():
        print(f"triton_suite: suite folder {args.suite} is absent; nothing to run (skipped)")
        return 0
    from suite_oracle import triton_version

    if triton_version() is None:
        print("triton_suite: triton is not installed; the oracle is unavailable (skipped)")
        return 0
    res = run_suite(args.suite, args.jobs, args.only, use_cache=not args.no_cache)
    sys.stdout.write(format_report(res, args.top))
    if args.json:
        args.json.write_text(json.dumps(res.to_json(), indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
