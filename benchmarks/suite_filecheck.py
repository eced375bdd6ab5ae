"""FileCheck in-process: the ``filecheck`` package (LLVM FileCheck's syntax) on strings.

:func:`filecheck_options` reads a RUN line's FileCheck arguments (``--check-prefix``,
``--check-prefixes``, ``-DVAR=VALUE``, ``--match-full-lines``, ``--strict-whitespace``,
``--enable-var-scope``, ``--allow-empty``; ``--dump-input*`` and
``--implicit-check-not`` are ignored and reported).  :func:`run_filecheck` matches an
output text against the check lines of a text and returns a :class:`CheckResult`:
``passed`` is None when the text holds no check line for those prefixes (nothing to
check), else whether every check matched; ``message`` is FileCheck's first error line.
"""

from __future__ import annotations

import contextlib
import io
import re
from dataclasses import dataclass, field

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_BOOL_FLAGS = {"match-full-lines", "strict-whitespace", "enable-var-scope", "allow-empty"}
_IGNORED_WITH_VALUE = {"dump-input-context", "dump-input", "implicit-check-not", "comment-prefixes",
                       "input-file", "dump-input-filter"}


@dataclass(frozen=True)
class FileCheckOptions:
    prefixes: tuple[str, ...] = ("CHECK",)
    variables: tuple[tuple[str, str], ...] = ()
    flags: frozenset[str] = frozenset()
    ignored: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class CheckResult:
    passed: bool | None
    message: str = ""


def filecheck_options(args: tuple[str, ...]) -> FileCheckOptions:
    prefixes: list[str] = []
    variables: list[tuple[str, str]] = []
    flags: set[str] = set()
    ignored: list[str] = []
    it = iter(args)
    for a in it:
        if a.startswith("-D") and len(a) > 2:
            name, _, value = a[2:].partition("=")
            variables.append((name, value))
            continue
        if not a.startswith("-"):
            continue  # the check file (%s)
        name, eq, value = a.lstrip("-").partition("=")
        if name in ("check-prefix", "check-prefixes"):
            value = value if eq else next(it, "")
            prefixes += [p for p in value.split(",") if p]
        elif name in _BOOL_FLAGS:
            flags.add(name)
        elif name in _IGNORED_WITH_VALUE:
            ignored.append(a if eq else f"{a} {next(it, '')}")
        else:
            ignored.append(a)
    return FileCheckOptions(tuple(prefixes) or ("CHECK",), tuple(variables), frozenset(flags), tuple(ignored))


def run_filecheck(check_text: str, output: str, opts: FileCheckOptions, check_name: str = "check") -> CheckResult:
    from filecheck.finput import FInput
    from filecheck.matcher import Matcher
    from filecheck.options import Options
    from filecheck.parser import Parser, pattern_for_opts

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(err):
        try:
            fopts = Options(
                match_filename=check_name,
                check_prefixes=list(opts.prefixes),
                match_full_lines="match-full-lines" in opts.flags,
                strict_whitespace="strict-whitespace" in opts.flags,
                enable_var_scope="enable-var-scope" in opts.flags,
                allow_empty="allow-empty" in opts.flags,
                variables=dict(opts.variables),
            )
            parser = Parser(fopts, io.StringIO(check_text), *pattern_for_opts(fopts))
            matcher = Matcher(fopts, FInput(check_name, FInput.canonicalize_line_ends(output)), parser)
            rc = matcher.run()
        except Exception as e:  # noqa: BLE001 - a FileCheck bug or unsupported syntax
            return CheckResult(False, f"filecheck raised {type(e).__name__}: {e}")
    text = _ANSI.sub("", err.getvalue())
    if rc == 2 and "No check strings found" in text:
        return CheckResult(None, "no check lines")
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    return CheckResult(rc == 0, first)
