"""``--verify-diagnostics``: MLIR's expected-diagnostic annotations, checked.

A test states the diagnostics it expects as comments in the input, the way MLIR's
``SourceMgrDiagnosticVerifierHandler`` reads them::

    // expected-error @+1 {{op start must be less than end}}
    %0 = tt.make_range {end = 0 : i32, start = 4 : i32} : tensor<4xi32>

``expected-(error|warning|remark|note)[-re] [@+N | @-N | @above | @below] {{text}}``:
the diagnostic is expected on the annotation's own line, ``N`` lines below or above
it, on the last line above that holds no annotation (``@above``), or on the next line
below that holds none (``@below``; blank lines count, as in MLIR). ``text`` must occur in the message; with
``-re`` every ``{{...}}`` inside it is a regular expression and the rest literal.

Every expectation must be met by a diagnostic of that severity on that line, and
every diagnostic must meet an expectation; each miss is reported with MLIR's words
(``expected error "x" was not produced``, ``unexpected error: x``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ltc.tools.diagnostics import SourceFile

_ANNOTATION = re.compile(
    r"expected-(?P<severity>error|warning|remark|note)(?P<re>-re)?"
    r" *(?:@(?P<where>[+-][0-9]+|above|below))? *\{\{(?P<text>.*)\}\}\s*$"
)
_MALFORMED = re.compile(r"expected-(?:error|warning|remark|note)\b")


@dataclass(frozen=True)
class Diagnostic:
    """A diagnostic ltc produced: ``message`` at character ``offset`` of the input."""

    offset: int
    message: str
    severity: str = "error"


@dataclass(frozen=True)
class Expectation:
    """An ``expected-*`` annotation: ``pattern`` searched in a message on ``line``."""

    line: int
    severity: str
    text: str
    pattern: re.Pattern[str]
    offset: int  # where the annotation is written (for "was not produced")


def _pattern(text: str, is_regex: bool) -> re.Pattern[str]:
    if not is_regex:
        return re.compile(re.escape(text))
    parts: list[str] = []
    pos = 0
    for m in re.finditer(r"\{\{(.*?)\}\}", text):
        parts += [re.escape(text[pos : m.start()]), f"(?:{m.group(1)})"]
        pos = m.end()
    parts.append(re.escape(text[pos:]))
    return re.compile("".join(parts))


def read_expectations(source: SourceFile, start: int, end: int) -> tuple[list[Expectation], list[Diagnostic]]:
    """The annotations between offsets ``start`` and ``end`` of ``source``.

    Returns (expectations, errors): an annotation that cannot be read (a bad
    regular expression, an offset before line 1, ``@below`` with no line after it)
    is an error at the annotation.
    """
    expectations: list[Expectation] = []
    errors: list[Diagnostic] = []
    first_line, _ = source.line_col(start)
    last_line, _ = source.line_col(max(start, end - 1))
    last_plain_line = 0
    pending_below: list[tuple[int, str, str, re.Pattern[str]]] = []
    for line in range(first_line, last_line + 1):
        text = source.line_text(line)
        m = _ANNOTATION.search(text)
        if m is None:  # as in MLIR, any other line (blank too) is what @above/@below name
            if _MALFORMED.search(text) and "{{" in text:
                errors.append(Diagnostic(source.line_start(line) + text.find("expected-"),
                                         "unrecognized expected-* annotation"))
            last_plain_line = line
            for offset, severity, msg, pattern in pending_below:
                expectations.append(Expectation(line, severity, msg, pattern, offset))
            pending_below.clear()
            continue
        offset = source.line_start(line) + m.start()
        try:
            pattern = _pattern(m.group("text"), bool(m.group("re")))
        except re.error as e:
            errors.append(Diagnostic(offset, f"invalid regular expression in annotation: {e}"))
            continue
        severity, msg, where = m.group("severity"), m.group("text"), m.group("where")
        if where == "below":
            pending_below.append((offset, severity, msg, pattern))
            continue
        if where == "above":
            target = last_plain_line
        elif where:
            target = line + int(where)
        else:
            target = line
        if target < 1:
            errors.append(Diagnostic(offset, f"expected-{severity} points before the first line"))
            continue
        expectations.append(Expectation(target, severity, msg, pattern, offset))
    for offset, severity, _, _ in pending_below:
        errors.append(Diagnostic(offset, f"expected-{severity} @below has no line below it"))
    return expectations, errors


def check_diagnostics(
    source: SourceFile, expectations: Sequence[Expectation], produced: Sequence[Diagnostic]
) -> list[Diagnostic]:
    """The misses: produced diagnostics no expectation meets, expectations not met."""
    unmet = list(expectations)
    misses: list[Diagnostic] = []
    for diag in produced:
        line, _ = source.line_col(diag.offset)
        first_line_of_message = diag.message.splitlines()[0] if diag.message else ""
        match = next(
            (e for e in unmet if e.line == line and e.severity == diag.severity
             and e.pattern.search(first_line_of_message)),
            None,
        )
        if match is None:
            misses.append(Diagnostic(diag.offset, f"unexpected {diag.severity}: {first_line_of_message}"))
        else:
            unmet.remove(match)
    for e in unmet:
        misses.append(Diagnostic(e.offset, f'expected {e.severity} "{e.text}" was not produced'))
    return sorted(misses, key=lambda d: d.offset)
