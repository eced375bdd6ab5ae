"""Reading one lit test file of Triton's suite: chunks, RUN lines, expected diagnostics.

A test file is split into chunks at ``// -----`` lines (MLIR's ``--split-input-file``);
chunk ``i`` of ``Triton/invalid.mlir`` is keyed ``Triton/invalid.mlir#i``.  Every chunk
also has a *padded* text: the chunk preceded by one empty line per line above it, so
that a tool reading it alone reports the line numbers of the whole file and
FileCheck's ``[[@LINE]]`` means the same as in the file.

RUN lines (``// RUN: [env V=X] [not] triton-opt ARGS [2>&1] | ... | FileCheck ARGS``)
become :class:`RunLine` values; ``split-file %s %t`` lines are recorded so that
``%t/NAME`` reads section ``//--- NAME`` of the file.

Expected diagnostics follow MLIR's ``-verify-diagnostics`` syntax:
``// expected-(error|warning|note|remark)[-re] [@+N|@-N|@above|@below|@unknown] {{msg}}``.
The message is the text between the first ``{{`` and the last ``}}`` of the line; the
``-re`` form holds ``{{regex}}`` pieces among literal text.  No designator means the
annotation's own line; ``@above``/``@below`` skip lines that are annotations themselves.
A diagnostic matches when its message contains the expected text (or the regex
matches somewhere in it).

:func:`parse_diagnostics` reads ``FILE:LINE:COL: error: MSG`` lines (ltc, MLIR tools)
and ``loc("FILE":LINE:COL): error: MSG`` lines (Triton's Python bindings).
"""

from __future__ import annotations

import fnmatch
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

SPLIT_MARKER = re.compile(r"^// -----.*$", re.MULTILINE)
_RUN = re.compile(r"^\s*//\s*RUN:(.*)$", re.MULTILINE)
_EXPECTED = re.compile(
    r"expected-(?P<kind>error|warning|note|remark)(?P<re>-re)?\s*"
    r"(?:@(?P<where>[+-]\d+|above|below|unknown))?\s*\{\{(?P<body>.*)\}\}"
)
_SPLIT_FILE_SECTION = re.compile(r"^//--- (\S+)\s*$", re.MULTILINE)
_DIAG_PLAIN = re.compile(r"^(?P<file>[^\n]*?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|note|remark): (?P<msg>.*)$")
_DIAG_LOC = re.compile(r'^loc\("(?P<file>[^"]*)":(?P<line>\d+):(?P<col>\d+)\): (?P<sev>error|warning|note|remark): (?P<msg>.*)$')
_DIAG_LOC_OTHER = re.compile(r"^loc\((?P<loc>.*?)\): (?P<sev>error|warning|note|remark): (?P<msg>.*)$")

# triton-opt options that are not passes (the runner treats every other option as a pass).
DRIVER_OPTIONS = frozenset({
    "split-input-file", "allow-unregistered-dialect", "verify-diagnostics", "mlir-print-debuginfo",
    "mlir-print-local-scope", "mlir-print-op-generic", "mlir-disable-threading", "dump-pass-pipeline",
    "run-reproducer", "debug", "pass-pipeline", "o", "verify-each", "mlir-print-ir-after-all",
})
_FILECHECK_TOOLS = ("FileCheck", "filecheck")


@dataclass(frozen=True)
class Chunk:
    """One ``// -----`` section: ``first_line`` is its 1-based first line in the file."""

    index: int
    first_line: int
    text: str

    @property
    def padded(self) -> str:
        return "\n" * (self.first_line - 1) + self.text

    @property
    def last_line(self) -> int:
        return self.first_line + self.text.count("\n")


@dataclass(frozen=True)
class Expected:
    """One expected diagnostic; ``line`` is None for ``@unknown``."""

    kind: str
    line: int | None
    body: str
    regex: bool
    annotation_line: int

    def matches(self, message: str) -> bool:
        if self.regex:
            return re.search(_regex_of(self.body), message) is not None
        if self.body in message:
            return True
        # MLIR's plain form is a substring; be lenient with `{{re}}` pieces written in it.
        return "{{" in self.body and re.search(_regex_of(self.body), message) is not None


@dataclass(frozen=True)
class Diagnostic:
    """A reported diagnostic; ``line`` is None when its location has no line."""

    line: int | None
    col: int | None
    severity: str
    message: str


@dataclass(frozen=True)
class RunLine:
    """One ``RUN:`` line that runs ``triton-opt``.

    ``opt_args``: triton-opt's arguments without the input and redirections;
    ``input``: ``%s`` or ``%t/NAME``; ``tools``: the commands after the first ``|``
    (``("FileCheck",)`` normally); ``filecheck_args``: the last command's arguments when it
    is FileCheck.
    """

    index: int
    text: str
    negated: bool
    opt_args: tuple[str, ...]
    input: str
    merge_stderr: bool
    tools: tuple[str, ...]
    filecheck_args: tuple[str, ...] | None

    @property
    def split(self) -> bool:
        return any(_option_name(a) == "split-input-file" for a in self.opt_args)

    @property
    def allow_unregistered(self) -> bool:
        return any(_option_name(a) == "allow-unregistered-dialect" for a in self.opt_args)

    @property
    def verify_diagnostics(self) -> bool:
        return any(_option_name(a) == "verify-diagnostics" for a in self.opt_args)

    @property
    def passes(self) -> tuple[str, ...]:
        """The pass names the line runs, in order (``-pass-pipeline`` expanded)."""
        out: list[str] = []
        for name, arg in self._pass_args():
            out += pipeline_pass_names(arg) if name == "pass-pipeline" else [name]
        return tuple(out)

    @property
    def pass_specs(self) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
        """The passes with their options: ``-name='a=1 b=2'`` and ``name{a=1 b=2}`` in
        ``-pass-pipeline`` give ``(name, (("a", "1"), ("b", "2")))``."""
        out: list[tuple[str, tuple[tuple[str, str], ...]]] = []
        for name, arg in self._pass_args():
            if name == "pass-pipeline":
                out += [(n, _options(o)) for n, o in _pipeline_entries(arg)]
            else:
                body = arg.lstrip("-")
                out.append((name, _options(body.split("=", 1)[1] if "=" in body else "")))
        return tuple(out)

    def _pass_args(self) -> list[tuple[str, str]]:
        """The arguments that select passes, in order: ``("pass-pipeline", its value)``, or
        ``(pass name, the whole argument)`` for a ``-name[=options]`` flag."""
        out: list[tuple[str, str]] = []
        args = list(self.opt_args)
        for i, a in enumerate(args):
            if not a.startswith("-"):
                continue
            name = _option_name(a)
            if name == "pass-pipeline":
                out.append((name, a.split("=", 1)[1] if "=" in a else (args[i + 1] if i + 1 < len(args) else "")))
            elif name not in DRIVER_OPTIONS:
                out.append((name, a))
        return out

    @property
    def extra_tools(self) -> tuple[str, ...]:
        """Commands between triton-opt and FileCheck (mlir-translate, opt, llc ...)."""
        tools = self.tools[:-1] if self.filecheck_args is not None else self.tools
        return tuple(tools)


@dataclass(frozen=True)
class TestFile:
    rel: str
    text: str
    chunks: tuple[Chunk, ...]
    runs: tuple[RunLine, ...]
    sections: tuple[tuple[str, int], ...]  # split-file: (name, first line of the section)

    @property
    def directory(self) -> str:
        return self.rel.rsplit("/", 1)[0] if "/" in self.rel else "."

    @property
    def allow_unregistered(self) -> bool:
        return any(r.allow_unregistered for r in self.runs)

    @property
    def verify_diagnostics(self) -> bool:
        return any(r.verify_diagnostics for r in self.runs)

    def chunk_key(self, chunk: Chunk) -> str:
        return f"{self.rel}#{chunk.index}"

    def input_text(self, run: RunLine) -> str:
        """The text ``run`` reads: the file, or a split-file section padded to its lines."""
        if run.input.startswith("%t/"):
            name = run.input[3:]
            for sec, first in self.sections:
                if sec == name:
                    lines = self.text.splitlines(keepends=True)
                    body = "".join(lines[first - 1:])
                    end = _SPLIT_FILE_SECTION.search(body)
                    if end:
                        body = body[: end.start()]
                    return "\n" * (first - 1) + body
        return self.text

    def chunks_of(self, run: RunLine) -> tuple[Chunk, ...]:
        """The chunks ``run`` processes: every section with --split-input-file, else one."""
        text = self.input_text(run)
        if run.split:
            return split_chunks(text)
        return (Chunk(0, 1, text),)


def _option_name(arg: str) -> str:
    return arg.lstrip("-").split("=", 1)[0]


def _options(text: str) -> tuple[tuple[str, str], ...]:
    """``"a=1 b=x"`` -> ``(("a", "1"), ("b", "x"))`` (a bare word is ``(word, "true")``)."""
    out = []
    for word in text.strip().strip("'\"").split():
        k, eq, v = word.partition("=")
        out.append((k, v if eq else "true"))
    return tuple(out)


def _pipeline_entries(spec: str) -> list[tuple[str, str]]:
    """``builtin.module(a{x=1},b)`` -> ``[("a", "x=1"), ("b", "")]``."""
    spec = spec.strip().strip("'\"")
    entries: list[tuple[str, str]] = []
    depth, token, opts = 0, "", ""
    for c in spec + ",":
        if c == "{":
            depth += 1
            if depth == 1:
                continue
        elif c == "}":
            depth -= 1
            if depth == 0:
                continue
        if depth > 0:
            opts += c
            continue
        if c in ",()":
            t = token.strip()
            if t and c != "(":
                entries.append((t, opts.strip()))
            token, opts = "", ""
            continue
        token += c
    return entries


def pipeline_pass_names(spec: str) -> list[str]:
    """``builtin.module(a{x=1},b)`` -> ``["a", "b"]`` (nested op anchors unwrapped)."""
    spec = spec.strip().strip("'\"")
    names: list[str] = []
    depth_brace = 0
    token = ""
    for c in spec + ",":
        if c == "{":
            depth_brace += 1
        elif c == "}":
            depth_brace -= 1
        elif depth_brace == 0 and c in ",()":
            t = token.strip()
            if t and c != "(":
                names.append(t)
            token = ""
            continue
        elif depth_brace == 0:
            token += c
    return names


def split_chunks(text: str) -> tuple[Chunk, ...]:
    chunks: list[Chunk] = []
    start, line = 0, 1
    for m in SPLIT_MARKER.finditer(text):
        body = text[start : m.start()]
        chunks.append(Chunk(len(chunks), line, body))
        line += body.count("\n") + 1
        start = m.end() + 1 if m.end() < len(text) and text[m.end()] == "\n" else m.end()
    chunks.append(Chunk(len(chunks), line, text[start:]))
    return tuple(chunks)


def _run_line_texts(text: str) -> list[str]:
    """RUN commands with ``\\`` continuations joined."""
    out: list[str] = []
    pending = ""
    for m in _RUN.finditer(text):
        part = m.group(1).strip()
        if part.endswith("\\"):
            pending += part[:-1] + " "
            continue
        out.append(pending + part)
        pending = ""
    if pending:
        out.append(pending)
    return out


def _parse_run(index: int, command: str) -> RunLine | None:
    try:
        tokens = shlex.split(command)
    except ValueError:
        return None
    stages: list[list[str]] = [[]]
    for t in tokens:
        if t == "|":
            stages.append([])
        else:
            stages[-1].append(t)
    first = stages[0]
    while first and (first[0] == "env" or ("=" in first[0] and not first[0].startswith("-"))):
        first = first[1:]  # `env VAR=VALUE triton-opt ...`: the environment is not modelled
    negated = bool(first) and first[0] == "not"
    if negated:
        first = first[1:]
    if not first or first[0] != "triton-opt":
        return None
    args: list[str] = []
    input_name = "%s"
    merge = False
    for t in first[1:]:
        if t == "2>&1":
            merge = True
        elif t.startswith("2>") or t.startswith(">"):
            continue
        elif t == "%s" or t.startswith("%t/"):
            input_name = t
        else:
            args.append(t)
    tools = tuple(s[0] for s in stages[1:] if s)
    fc = stages[-1] if len(stages) > 1 and stages[-1] and stages[-1][0] in _FILECHECK_TOOLS else None
    return RunLine(index, command, negated, tuple(args), input_name, merge, tools,
                   tuple(fc[1:]) if fc is not None else None)


def parse_test_file(path: Path, rel: str) -> TestFile:
    text = path.read_text()
    runs = []
    for cmd in _run_line_texts(text):
        r = _parse_run(len(runs), cmd)
        if r is not None:
            runs.append(r)
    sections = []
    for m in _SPLIT_FILE_SECTION.finditer(text):
        sections.append((m.group(1), text.count("\n", 0, m.end()) + 2))
    return TestFile(rel, text, split_chunks(text), tuple(runs), tuple(sections))


def load_suite(suite_dir: Path, only: str | None = None) -> list[TestFile]:
    """Every ``*.mlir`` file under ``suite_dir`` (sorted), filtered by the glob ``only``
    (matched against the path relative to ``suite_dir``)."""
    files = []
    for p in sorted(suite_dir.rglob("*.mlir")):
        rel = p.relative_to(suite_dir).as_posix()
        if only and not fnmatch.fnmatch(rel, only):
            continue
        files.append(parse_test_file(p, rel))
    return files


# --------------------------------------------------------------------------------------
# expected diagnostics
# --------------------------------------------------------------------------------------
def _regex_of(body: str) -> str:
    parts = re.split(r"\{\{(.*?)\}\}", body)
    return "".join(p if i % 2 else re.escape(p) for i, p in enumerate(parts))


def expected_diagnostics(chunk: Chunk) -> tuple[Expected, ...]:
    lines = chunk.text.split("\n")
    is_annotation = [bool(_EXPECTED.search(ln)) for ln in lines]
    out = []
    for i, ln in enumerate(lines):
        m = _EXPECTED.search(ln)
        if not m:
            continue
        where = m.group("where")
        line: int | None = i
        if where is None:
            pass
        elif where == "unknown":
            line = None
        elif where == "above":
            line = i - 1
            while line > 0 and is_annotation[line]:
                line -= 1
        elif where == "below":
            line = i + 1
            while line < len(lines) - 1 and is_annotation[line]:
                line += 1
        else:
            line = i + int(where)
        first = chunk.first_line
        out.append(Expected(m.group("kind"), None if line is None else line + first, m.group("body"),
                            bool(m.group("re")), i + first))
    return tuple(out)


def expected_errors(chunk: Chunk) -> tuple[Expected, ...]:
    return tuple(e for e in expected_diagnostics(chunk) if e.kind == "error")


def parse_diagnostics(text: str) -> tuple[Diagnostic, ...]:
    out = []
    for ln in text.splitlines():
        m = _DIAG_PLAIN.match(ln) or _DIAG_LOC.match(ln)
        if m:
            out.append(Diagnostic(int(m.group("line")), int(m.group("col")), m.group("sev"), m.group("msg")))
            continue
        m = _DIAG_LOC_OTHER.match(ln)
        if m:
            out.append(Diagnostic(None, None, m.group("sev"), m.group("msg")))
    return tuple(out)
