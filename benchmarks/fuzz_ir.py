"""A mutation fuzzer for ``ltc-opt``: mutate real Triton IR, check the driver's contract.

Seeds are the bundled examples (``examples/triton/*.ttir|*.ttgir``), the FileCheck
tests (``tests/filecheck/**/*.mlir``) and, when present, Triton's own lit tests
(``shared/triton-suite/test/**/*.mlir`` beside the repository, or ``$LTC_TRITON_SUITE/test``), each split on ``// -----``. Mutant
``i`` of run seed ``S`` is a pure function of ``(S, i)`` (``--only i`` replays it): 1-3
stacked edits -- token deletion/duplication/swap, element types swapped (one or every
occurrence), tensor dims and ranks changed, layout attributes swapped (aliases of the
file, definitions taken from other files), integers replaced by edge values (0, -1,
2^31, 2^64, ...), truncation, random bytes/unicode/NUL, lines deleted/duplicated/
spliced from other seeds, SSA values renamed, op names swapped.

Each mutant runs in-process (``ltc.tools.opt.run``) in a worker process, in up to three
modes: ``plain`` (parse, verify, print), ``layout`` (``-p 'convert-triton-to-tritongpu
{num-warps=4 target=cuda:90},ltc-assign-layouts'``, only for TTIR seeds) and ``ptx``
(``--emit ptx``), always with ``-o FILE``. The contract, per run:

* ``traceback``: no exception escapes ``run`` (the CLI would print "internal error"
  and exit 3); ``exit3``: ``run`` never returns 3; ``hang``: it ends within
  ``--timeout`` seconds (the worker is killed; its stack is dumped by faulthandler
  just before); ``crash``: the worker process never dies (segfault, memory limit);
* ``o_written``: ``-o FILE`` is not written when the exit status is non-zero;
* ``triton_rejects``: when ``plain`` exits 0, Triton 3.9's parser+verifier accepts the
  printed module (checked in a child process, since Triton may abort, on every
  ``--check-triton-every``-th such output; not for ``func.func`` modules, as Triton's
  Python context has no ``func`` dialect). The failure is split by whether Triton
  accepts the mutant *input* too (then ltc's printer is wrong) or not (ltc's verifier
  accepted IR that Triton rejects).

Informational, not a contract breach: ``masked`` counts exit-1 diagnostics whose root
cause is a Python exception that code raises by mistake (``KeyError``,
``AttributeError``, ``IndexError``, ... :data:`BUG_TYPES`) and that a parser or
verifier turned into a diagnostic -- found by hooking the driver's exception classes in
the worker. (A pass that raises such an exception is an internal error, exit 3.)

Failures are deduplicated by ``(mode, outcome, exception type, innermost ltc frame)``
(Triton rejections by the first line of Triton's diagnostic, digits blanked); the
smallest mutant per key is kept and, with ``--save-failures DIR``, written as
``DIR/<key>/{input.mlir,command.txt,error.txt}``; ``--minimize`` shrinks each (lines,
then tokens) while the key stays the same.

Exit status: 0 when no contract breach was found, 1 otherwise, 2 on a usage error.
Usage: ``python benchmarks/fuzz_ir.py --n N --seed S [--jobs J] [--timeout 5]
[--corpus DIR...] [--save-failures DIR] [--check-triton-every K] [--minimize]``.
"""

from __future__ import annotations

import os

# One thread per worker: the fuzzer forks workers and shares a small machine.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import faulthandler  # noqa: E402
import glob  # noqa: E402
import hashlib  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import multiprocessing  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import resource  # noqa: E402
import shlex  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Callable, Iterator, Sequence  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from multiprocessing.connection import Connection, wait  # noqa: E402
from typing import Any  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

SUITE = os.path.join(os.environ.get("LTC_TRITON_SUITE", os.path.join(os.path.dirname(ROOT), "shared", "triton-suite")), "test")
LAYOUT_PIPELINE = "convert-triton-to-tritongpu{num-warps=4 target=cuda:90},ltc-assign-layouts"
MODES: dict[str, tuple[str, ...]] = {
    "plain": (),
    "layout": ("-p", LAYOUT_PIPELINE),
    "ptx": ("--emit", "ptx"),
}
#: Contract breaches (make the run fail), then the other outcomes.
BREACHES = ("traceback", "exit3", "hang", "crash", "o_written", "triton_rejects")
OUTCOMES = ("ok", "rejected", *BREACHES, "masked")
#: Exception types that code raises by mistake, never to refuse input on purpose (a
#: ``ValueError`` may be either, so it does not count).
BUG_TYPES = frozenset({
    "KeyError", "IndexError", "AttributeError", "TypeError", "AssertionError", "ZeroDivisionError",
    "RecursionError", "NotImplementedError", "UnboundLocalError", "NameError", "OverflowError", "MemoryError",
    "StopIteration", "RuntimeError",
})
WORKER_MEMORY_BYTES = 3 << 30
_REPO_DIRS = tuple(os.path.join(ROOT, d) + os.sep for d in ("ltc", "dialects", "passes", "lowering"))
_SPLIT = re.compile(r"^// -----.*$", re.MULTILINE)
_COMMENT_LINE = re.compile(r"^[ \t]*//.*\n?", re.MULTILINE)


# --------------------------------------------------------------------------- seeds
@dataclass(frozen=True)
class Seed:
    """One ``// -----`` chunk of a corpus file; ``ttir``: no TritonGPU layouts yet."""

    name: str
    text: str
    group: str

    @property
    def ttir(self) -> bool:
        return "ttg." not in self.text and "#ttg" not in self.text


def _corpus_files(dirs: Sequence[str] | None) -> list[tuple[str, str]]:
    """(group, path) of every seed file: the defaults, or every IR file under ``dirs``."""
    if dirs:
        out = []
        for d in dirs:
            for ext in ("mlir", "ttir", "ttgir"):
                out += [(d, p) for p in glob.glob(os.path.join(d, "**", f"*.{ext}"), recursive=True)]
        return sorted(out)
    out = [("examples", p) for p in glob.glob(os.path.join(ROOT, "examples", "triton", "*.tt*ir"))]
    out += [("filecheck", p) for p in glob.glob(os.path.join(ROOT, "tests", "filecheck", "**", "*.mlir"), recursive=True)]
    if os.path.isdir(SUITE):
        out += [("suite", p) for p in glob.glob(os.path.join(SUITE, "**", "*.mlir"), recursive=True)]
    return sorted(out)


def load_seeds(dirs: Sequence[str] | None = None) -> list[Seed]:
    """Every non-empty ``// -----`` chunk of the corpus files, in a stable order."""
    seeds = []
    for group, path in _corpus_files(dirs):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        rel = os.path.relpath(path, SUITE if group == "suite" else ROOT)
        for i, chunk in enumerate(_SPLIT.split(text)):
            # Comment lines (RUN, CHECK) only dilute the mutations.
            chunk = _COMMENT_LINE.sub("", chunk)
            if chunk.strip():
                seeds.append(Seed(f"{group}:{rel}#{i}", chunk, group))
    return seeds


# --------------------------------------------------------------------------- mutations
_TOKEN = re.compile(
    r'"(?:[^"\\\n]|\\.)*"|[%@#!^][\w$.\-]*|0x[0-9A-Fa-f]+|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|[A-Za-z_][\w$.]*|->|\S'
)
_ELEM_TYPES = ("f16", "f32", "f64", "bf16", "i1", "i8", "i16", "i32", "i64", "f8E4M3FN", "f8E5M2", "index", "!tt.ptr<f32>")
_ELEM_RE = re.compile(r"(?:(?<![\w.])|(?<=\dx))(f16|f32|f64|bf16|i1|i8|i16|i32|i64|f8E4M3FN|f8E5M2|index)(?![\w])")
_DIMS_RE = re.compile(r"(tensor|memdesc)<((?:\d+x)+)")
_NUMBER_RE = re.compile(r"(?<![\w.%#@^])-?\d+(?![\w.])")
_SSA_RE = re.compile(r"%[\w$.\-]+")
_ALIAS_USE_RE = re.compile(r"#[A-Za-z_][\w$.]*")
_ALIAS_DEF_RE = re.compile(r"^(#[A-Za-z_][\w$.]*) = (#tt[a-z]*\.\w+<.*>)\s*$", re.MULTILINE)
_OP_RE = re.compile(r"(?<![\w.%#@!])(?:tt|ttg|ttng|arith|scf|math|gpu|cf|nvgpu)\.[a-z_][\w.]*")
_EDGE_INTS = (0, -1, -2, 1, 2, 3, 5, 7, 31, 32, 33, 63, 64, 127, 256, 1 << 16, (1 << 31) - 1, 1 << 31,
              1 << 32, (1 << 63) - 1, 1 << 63, 1 << 64, 10**30)
_EDGE_DIMS = (0, 1, 2, 3, 4, 5, 7, 16, 32, 64, 128, 256, 512, 1024, 4096, 1 << 20, 1 << 31, 1 << 40)
_JUNK = ("\x00", "\ufeff", "\u202e", "é", "💥", "\t", "\r", "\\", "\"", "'", "{", "}", "<", ">", "(", ")", "[", "]",
         ",", ":", "=", "%", "@", "#", "!", "^", "x", "?", "-", "//", "\x7f", "\u00a0")


@dataclass(frozen=True)
class Pool:
    """Material taken from every seed for cross-file mutations."""

    layouts: tuple[str, ...]  # right-hand sides of ``#alias = #ttg.<...>`` lines
    ops: tuple[str, ...]  # op names seen
    lines: tuple[str, ...]  # a sample of IR lines

    @staticmethod
    def of(seeds: Sequence[Seed]) -> Pool:
        layouts: set[str] = set()
        ops: set[str] = set()
        lines: list[str] = []
        for s in seeds:
            layouts.update(m.group(2) for m in _ALIAS_DEF_RE.finditer(s.text))
            ops.update(_OP_RE.findall(s.text))
            lines += [ln for ln in s.text.splitlines() if ln.strip() and not ln.lstrip().startswith("//")]
        step = max(1, len(lines) // 5000)
        return Pool(tuple(sorted(layouts)), tuple(sorted(ops)), tuple(lines[::step]))


def _replace_span(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def _pick_match(rng: random.Random, regex: re.Pattern[str], text: str) -> re.Match[str] | None:
    matches = list(regex.finditer(text))
    return rng.choice(matches) if matches else None


def _m_token_delete(text: str, rng: random.Random, pool: Pool) -> str | None:
    m = _pick_match(rng, _TOKEN, text)
    return _replace_span(text, m.start(), m.end(), "") if m else None


def _m_token_duplicate(text: str, rng: random.Random, pool: Pool) -> str | None:
    m = _pick_match(rng, _TOKEN, text)
    return _replace_span(text, m.start(), m.end(), m.group() + rng.choice(("", " ")) + m.group()) if m else None


def _m_token_swap(text: str, rng: random.Random, pool: Pool) -> str | None:
    toks = list(_TOKEN.finditer(text))
    if len(toks) < 2:
        return None
    i = rng.randrange(len(toks) - 1)
    j = i + 1 if rng.random() < 0.6 else rng.randrange(i + 1, len(toks))
    a, b = toks[i], toks[j]
    return text[: a.start()] + b.group() + text[a.end() : b.start()] + a.group() + text[b.end() :]


def _m_type_swap(text: str, rng: random.Random, pool: Pool) -> str | None:
    m = _pick_match(rng, _ELEM_RE, text)
    if not m:
        return None
    new = rng.choice([t for t in _ELEM_TYPES if t != m.group()])
    if rng.random() < 0.5:  # every occurrence: often still well-typed, so it gets deeper
        return _ELEM_RE.sub(lambda x: new if x.group() == m.group() else x.group(), text)
    return _replace_span(text, m.start(), m.end(), new)


def _m_dim_change(text: str, rng: random.Random, pool: Pool) -> str | None:
    m = _pick_match(rng, _DIMS_RE, text)
    if not m:
        return None
    dims = m.group(2).split("x")[:-1]
    k = rng.randrange(len(dims))
    old, new = dims[k], str(rng.choice(_EDGE_DIMS))
    if rng.random() < 0.5:  # the same size everywhere (e.g. every 1024 -> 512)
        return re.sub(rf"(?<=[<x]){old}(?=x)", new, text)
    dims[k] = new
    return _replace_span(text, m.start(2), m.end(2), "x".join(dims) + "x")


def _m_rank_change(text: str, rng: random.Random, pool: Pool) -> str | None:
    m = _pick_match(rng, _DIMS_RE, text)
    if not m:
        return None
    dims = m.group(2)
    if rng.random() < 0.5 and dims.count("x") > 1:
        new = dims.split("x", 1)[1]
    elif rng.random() < 0.5:
        new = f"{rng.choice((1, 2, 4, 32))}x{dims}"
    else:
        new = dims + f"{rng.choice((1, 2, 8))}x"
    if rng.random() < 0.3:  # every tensor with these dims
        return text.replace(f"{m.group(1)}<{dims}", f"{m.group(1)}<{new}")
    return _replace_span(text, m.start(2), m.end(2), new)


def _m_layout_swap(text: str, rng: random.Random, pool: Pool) -> str | None:
    defs = list(_ALIAS_DEF_RE.finditer(text))
    choice = rng.random()
    if defs and pool.layouts and choice < 0.4:  # a definition replaced by one from another file
        d = rng.choice(defs)
        return _replace_span(text, d.start(2), d.end(2), rng.choice(pool.layouts))
    names = sorted({d.group(1) for d in defs})
    uses = [u for u in _ALIAS_USE_RE.finditer(text) if u.group() in names and text[u.end() : u.end() + 3] != " = "]
    if not uses:
        if pool.layouts and "tensor<" in text:  # give a TTIR tensor an inline layout
            m = _pick_match(rng, re.compile(r"tensor<[^<>]*?(?=>)"), text)
            if m:
                return _replace_span(text, m.end(), m.end(), ", " + rng.choice(pool.layouts))
        return None
    u = rng.choice(uses)
    new = rng.choice(names + list(pool.layouts[:1]) + [rng.choice(pool.layouts)] if pool.layouts else names)
    if choice < 0.7:
        return _replace_span(text, u.start(), u.end(), new)
    return re.sub(re.escape(u.group()) + r"(?![\w$.])", lambda _: new, text)  # every use


def _m_int_edge(text: str, rng: random.Random, pool: Pool) -> str | None:
    matches = list(_NUMBER_RE.finditer(text))
    if not matches:
        return None
    # Favour integers inside attributes (axis = 0, sizePerThread = [..], "ttg.num-warps" = 4).
    attr = [m for m in matches if "=" in text[max(0, m.start() - 24) : m.start()] or "[" in text[max(0, m.start() - 3) : m.start()]]
    m = rng.choice(attr if attr and rng.random() < 0.7 else matches)
    return _replace_span(text, m.start(), m.end(), str(rng.choice(_EDGE_INTS)))


def _m_truncate(text: str, rng: random.Random, pool: Pool) -> str | None:
    return text[: rng.randrange(len(text))] if text else None


def _m_junk(text: str, rng: random.Random, pool: Pool) -> str | None:
    at = rng.randrange(len(text) + 1)
    if rng.random() < 0.3:  # raw bytes, possibly invalid UTF-8 (kept as surrogate escapes)
        junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4))).decode("utf-8", "surrogateescape")
    else:
        junk = "".join(rng.choice(_JUNK) for _ in range(rng.randint(1, 3)))
    return text[:at] + junk + text[at:]


def _lines_edit(text: str, rng: random.Random, pool: Pool) -> str | None:
    lines = text.splitlines(keepends=True)
    if not lines:
        return None
    i = rng.randrange(len(lines))
    r = rng.random()
    if r < 0.35:
        del lines[i]
    elif r < 0.6:
        lines.insert(i, lines[i])
    elif r < 0.8 and pool.lines:
        lines.insert(i, rng.choice(pool.lines) + "\n")  # a line from another seed
    else:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines)


def _m_ssa_rename(text: str, rng: random.Random, pool: Pool) -> str | None:
    uses = list(_SSA_RE.finditer(text))
    if not uses:
        return None
    m = rng.choice(uses)
    names = sorted({u.group() for u in uses})
    new = rng.choice(names) if rng.random() < 0.6 else rng.choice(("%fuzz", "%0", "%arg0", "%-1", "%9999999999999999999"))
    if rng.random() < 0.5:
        return _replace_span(text, m.start(), m.end(), new)
    return re.sub(re.escape(m.group()) + r"(?![\w$.\-])", lambda _: new, text)  # every occurrence


def _m_op_swap(text: str, rng: random.Random, pool: Pool) -> str | None:
    m = _pick_match(rng, _OP_RE, text)
    if not m or not pool.ops:
        return None
    same = [o for o in pool.ops if o.split(".")[0] == m.group().split(".")[0]]
    return _replace_span(text, m.start(), m.end(), rng.choice(same if same and rng.random() < 0.7 else pool.ops))


MUTATIONS: dict[str, Callable[[str, random.Random, Pool], str | None]] = {
    "token-delete": _m_token_delete,
    "token-duplicate": _m_token_duplicate,
    "token-swap": _m_token_swap,
    "type-swap": _m_type_swap,
    "dim-change": _m_dim_change,
    "rank-change": _m_rank_change,
    "layout-swap": _m_layout_swap,
    "int-edge": _m_int_edge,
    "truncate": _m_truncate,
    "junk": _m_junk,
    "lines": _lines_edit,
    "ssa-rename": _m_ssa_rename,
    "op-swap": _m_op_swap,
}
_WEIGHTS = {"truncate": 0.4, "junk": 0.6}


@dataclass(frozen=True)
class Mutant:
    """Mutant ``index`` of a run: the seed it came from, the edits, the bytes."""

    index: int
    seed: Seed
    edits: tuple[str, ...]
    data: bytes

    def modes(self, modes: Sequence[str]) -> list[str]:
        return [m for m in modes if m != "layout" or self.seed.ttir]


def make_mutant(
    run_seed: int, index: int, seeds: Sequence[Seed], pool: Pool, accepted: frozenset[str] | None = None
) -> Mutant:
    """Mutant ``index`` of run ``run_seed``: a pure function of its arguments. Its seed
    is, 4 times in 5, one of the ``accepted`` seeds (by name; those ltc takes unmutated,
    whose mutants get past the parser more often) when its corpus has any."""
    rng = random.Random(f"{run_seed}:{index}")
    groups = sorted({s.group for s in seeds})
    group = rng.choice(groups)  # every corpus gets its share, however many chunks it has
    in_group = [s for s in seeds if s.group == group]
    good = [s for s in in_group if accepted is not None and s.name in accepted]
    seed = rng.choice(good if good and rng.random() < 0.8 else in_group)
    text, edits = seed.text, []
    names = list(MUTATIONS)
    weights = [_WEIGHTS.get(n, 1.0) for n in names]
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
        for _attempt in range(5):
            name = rng.choices(names, weights)[0]
            new = MUTATIONS[name](text, rng, pool)
            if new is not None and new != text:
                text, edits = new, [*edits, name]
                break
    return Mutant(index, seed, tuple(edits), text.encode("utf-8", "surrogateescape"))


# --------------------------------------------------------------------------- one run (in a worker)
@dataclass(frozen=True)
class RunResult:
    """What one (mutant, mode) run did. ``key``: the dedup key of a failure, else None."""

    outcome: str
    rc: int | None
    message: str  # first lines of stderr / the traceback / the hang's stack
    key: tuple[str, ...] | None
    output: str | None = None  # printed IR of a ``plain`` run that exited 0


def _innermost_repo_frame(frames: Sequence[traceback.FrameSummary]) -> str:
    for fr in reversed(frames):
        if fr.filename.startswith(_REPO_DIRS):
            return f"{os.path.relpath(fr.filename, ROOT)}:{fr.lineno} in {fr.name}"
    return f"{os.path.basename(frames[-1].filename)}:{frames[-1].lineno} in {frames[-1].name}" if frames else "?"


def _root_cause(exc: BaseException) -> BaseException:
    seen = {id(exc)}
    while exc.__cause__ is not None or exc.__context__ is not None:
        nxt = exc.__cause__ or exc.__context__
        if nxt is None or id(nxt) in seen:
            break
        seen.add(id(nxt))
        exc = nxt
    return exc


def _format_exc(exc: BaseException, limit: int = 14) -> str:
    lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
    text = "".join(lines)
    return "\n".join(text.splitlines()[-limit:])


class _DriverHook:
    """Remembers, for each exception the driver (``ltc.tools.opt``) constructs, the
    exception being handled at that moment: the driver turns internal exceptions into
    diagnostics ``from None``, and this is how the fuzzer still finds where they came
    from. Installed in worker processes only."""

    def __init__(self) -> None:
        self.seen: list[BaseException] = []
        from ltc.tools import opt

        for name in dir(opt):
            cls = getattr(opt, name)
            if isinstance(cls, type) and issubclass(cls, Exception) and cls.__module__ == opt.__name__:
                self._wrap(cls)

    def _wrap(self, cls: type) -> None:
        original = cls.__init__
        seen = self.seen

        def init(obj: object, *args: object, **kwargs: object) -> None:
            original(obj, *args, **kwargs)
            handled = sys.exc_info()[1]
            if handled is not None:
                seen.append(handled)

        cls.__init__ = init  # type: ignore[misc]


def _hang_frame(dump: str) -> str:
    """Innermost repo frame of a faulthandler dump (most recent call first)."""
    for m in re.finditer(r'File "([^"]+)", line (\d+) in (\S+)', dump):
        if m.group(1).startswith(_REPO_DIRS):
            return f"{os.path.relpath(m.group(1), ROOT)}:{m.group(2)} in {m.group(3)}"
    return "?"


def run_case(data: bytes, mode: str, workdir: str, hook: _DriverHook | None, dump_after: float) -> RunResult:
    """Run ``ltc-opt FILE -o OUT <mode flags>`` in this process and classify it."""
    from ltc.tools.opt import run

    src, out = os.path.join(workdir, "input.mlir"), os.path.join(workdir, "out.txt")
    with open(src, "wb") as f:
        f.write(data)
    if os.path.exists(out):
        os.unlink(out)
    stdout, stderr = io.StringIO(), io.StringIO()
    if hook is not None:
        hook.seen.clear()
    with open(os.path.join(workdir, "stack.txt"), "w") as dump:
        faulthandler.dump_traceback_later(dump_after, exit=False, file=dump)
        try:
            rc = run([src, "-o", out, *MODES[mode]], io.StringIO(""), stdout, stderr)
        except BaseException as e:  # noqa: BLE001 - escaping exceptions are what we look for
            frames = traceback.extract_tb(e.__traceback__)
            return RunResult("traceback", None, _format_exc(e), (mode, "traceback", type(e).__name__, _innermost_repo_frame(frames)))
        finally:
            faulthandler.cancel_dump_traceback_later()
    err = stderr.getvalue()
    head = "\n".join(err.splitlines()[:6])
    written = os.path.exists(out)
    if rc != 0 and written:
        return RunResult("o_written", rc, head, (mode, "o_written", f"exit {rc}"))
    if rc == 3 or (rc != 0 and "Traceback (most recent call last)" in err):
        causes = [_root_cause(e) for e in (hook.seen if hook else [])]
        cause = causes[-1] if causes else None
        where = _innermost_repo_frame(traceback.extract_tb(cause.__traceback__)) if cause else "?"
        kind = type(cause).__name__ if cause else "?"
        text = head + ("\n--- root cause:\n" + _format_exc(cause) if cause else "")
        return RunResult("exit3" if rc == 3 else "traceback", rc, text, (mode, "exit3" if rc == 3 else "traceback", kind, where))
    if rc == 0:
        output = None
        if mode == "plain" and written:
            with open(out, encoding="utf-8", errors="replace") as f:
                output = f.read()
        return RunResult("ok", rc, "", None, output)
    if hook is not None and hook.seen:
        cause = _root_cause(hook.seen[0])
        if type(cause).__name__ in BUG_TYPES:
            where = _innermost_repo_frame(traceback.extract_tb(cause.__traceback__))
            text = head + "\n--- root cause:\n" + _format_exc(cause)
            return RunResult("masked", rc, text, (mode, "masked", type(cause).__name__, where))
    return RunResult("rejected", rc, head, None)


def _worker_main(conn: Connection, workdir: str, timeout: float) -> None:
    try:
        resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY_BYTES, WORKER_MEMORY_BYTES))
    except (ValueError, OSError):
        pass
    hook = _DriverHook()
    dump_after = max(0.2, timeout * 0.9)
    parent = os.getppid()
    while True:
        # Forked siblings hold copies of this pipe's other end, so a dead parent is not
        # always an EOF here: check who the parent is while idle.
        if not conn.poll(1.0):
            if os.getppid() != parent:
                return
            continue
        task = conn.recv()
        if task is None:
            return
        data, mode = task
        conn.send(run_case(data, mode, workdir, hook, dump_after))


def _warm_up() -> None:
    """Import every ltc module and build every dialect before forking workers: starts
    are cheaper, and a long run tests one version of the code even while files change."""
    import importlib
    import pkgutil

    from ltc.dialects.context import DIALECT_FACTORIES
    from ltc.tools.opt import run

    for pkg_name in ("ltc", "ltc.dialects", "ltc.passes", "ltc.lowering"):
        pkg = importlib.import_module(pkg_name)
        for info in pkgutil.walk_packages(pkg.__path__, pkg_name + "."):
            try:
                importlib.import_module(info.name)
            except Exception:  # noqa: BLE001 - a broken module shows up as a finding later
                pass
    for factory in DIALECT_FACTORIES.values():
        try:
            factory()
        except Exception:  # noqa: BLE001
            pass

    text = "tt.func @f(%a: tensor<4xf32>) {\n  tt.return\n}\n"
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "w.ttir")
        with open(path, "w") as f:
            f.write(text)
        for flags in MODES.values():
            run([path, *flags], io.StringIO(""), io.StringIO(), io.StringIO())


# --------------------------------------------------------------------------- the worker pool
@dataclass
class _Worker:
    proc: multiprocessing.process.BaseProcess
    conn: Connection
    workdir: str
    task: Any = None
    deadline: float = 0.0


class WorkerPool:
    """``jobs`` forked worker processes, one task each at a time; a task that runs past
    ``timeout`` seconds is a hang (its worker is killed and replaced)."""

    def __init__(self, jobs: int, timeout: float) -> None:
        _warm_up()
        self.timeout = timeout
        self._ctx = multiprocessing.get_context("fork")
        self._tmp = tempfile.TemporaryDirectory(prefix="fuzz_ir_", dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else None)
        self.workers = [self._start(i) for i in range(jobs)]

    def _start(self, i: int) -> _Worker:
        workdir = os.path.join(self._tmp.name, f"w{i}")
        os.makedirs(workdir, exist_ok=True)
        parent, child = self._ctx.Pipe()
        proc = self._ctx.Process(target=_worker_main, args=(child, workdir, self.timeout), daemon=True)
        proc.start()
        child.close()
        return _Worker(proc, parent, workdir)

    def _replace(self, i: int) -> None:
        w = self.workers[i]
        w.proc.kill()
        w.proc.join()
        w.conn.close()
        self.workers[i] = self._start(i)

    def _send(self, i: int, task: tuple[Any, bytes, str]) -> None:
        w = self.workers[i]
        w.task, w.deadline = task, time.monotonic() + self.timeout
        try:
            w.conn.send((task[1], task[2]))
        except OSError:  # the worker died between tasks: the next wait() reports it
            pass

    def map(self, tasks: Iterator[tuple[Any, bytes, str]]) -> Iterator[tuple[Any, RunResult]]:
        """Run ``(tag, data, mode)`` tasks; yield ``(tag, result)`` as they finish."""
        pending = iter(tasks)
        for i in range(len(self.workers)):
            nxt = next(pending, None)
            if nxt is not None:
                self._send(i, nxt)
        while True:
            busy = [i for i, w in enumerate(self.workers) if w.task is not None]
            if not busy:
                return
            left = max(0.0, min(self.workers[i].deadline for i in busy) - time.monotonic())
            ready = wait([self.workers[i].conn for i in busy], timeout=left)
            now = time.monotonic()
            for i in busy:
                w = self.workers[i]
                tag, _, mode = w.task
                if w.conn in ready:
                    try:
                        result = w.conn.recv()
                    except (EOFError, OSError):
                        result = self._crash(i, mode)
                elif now >= w.deadline:
                    result = self._hang(i, mode)
                else:
                    continue
                self.workers[i].task = None
                yield tag, result
                nxt = next(pending, None)
                if nxt is not None:
                    self._send(i, nxt)

    def _crash(self, i: int, mode: str) -> RunResult:
        w = self.workers[i]
        w.proc.join(1)
        code = w.proc.exitcode
        self._replace(i)
        return RunResult("crash", None, f"worker died (exit code {code})", (mode, "crash", f"exit code {code}"))

    def _hang(self, i: int, mode: str) -> RunResult:
        w = self.workers[i]
        w.proc.kill()
        w.proc.join()
        try:
            with open(os.path.join(w.workdir, "stack.txt")) as f:
                dump = f.read()
        except OSError:
            dump = ""
        self._replace(i)
        stack = "\n".join(dump.splitlines()[:16])
        return RunResult("hang", None, f"no result after {self.timeout}s; stack:\n{stack}", (mode, "hang", _hang_frame(dump)))

    def close(self) -> None:
        for w in self.workers:
            try:
                w.conn.send(None)
            except (OSError, BrokenPipeError):
                pass
        for w in self.workers:
            w.proc.join(2)
            if w.proc.is_alive():
                w.proc.kill()
                w.proc.join()
        self._tmp.cleanup()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --------------------------------------------------------------------------- Triton
@dataclass(frozen=True)
class TritonVerdict:
    ok: bool
    message: str  # Triton's diagnostics ("" when ok); "crash: ..." when Triton aborted


def _triton_available() -> bool:
    try:
        from tests.oracle import HAVE_TRITON
    except ImportError:
        return False
    return bool(HAVE_TRITON)


def triton_check(texts: Sequence[str], timeout_s: float = 600.0) -> list[TritonVerdict]:
    """Does Triton 3.9 parse and verify each text? Runs in a child that is restarted
    when Triton aborts (that text's verdict is then a crash)."""
    verdicts: list[TritonVerdict] = []
    fd, diag_path = tempfile.mkstemp(prefix="fuzz_ir_triton_", suffix=".diag")
    os.close(fd)
    env = dict(os.environ, LTC_ORACLE_DIAG_PATH=diag_path)
    try:
        while len(verdicts) < len(texts):
            rest = texts[len(verdicts):]
            payload = "".join(json.dumps(t) + "\n" for t in rest)
            try:
                proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--triton-serve"], input=payload,
                                      capture_output=True, text=True, timeout=timeout_s, env=env, cwd=ROOT)
                stdout, code = proc.stdout, proc.returncode
            except subprocess.TimeoutExpired as e:
                stdout, code = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), "timeout"
            lines = [ln for ln in stdout.splitlines() if ln.startswith("{")]
            verdicts += [TritonVerdict(**json.loads(ln)) for ln in lines]
            if len(lines) < len(rest):
                with open(diag_path) as f:
                    diag = f.read().split("nanobind: leaked", 1)[0].strip()
                verdicts.append(TritonVerdict(False, f"crash (rc={code}): {diag[-600:]}"))
    finally:
        os.unlink(diag_path)
    return verdicts


class TritonSession:
    """One long-lived Triton child for one-at-a-time checks (the minimizer's); restarted
    after an abort."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[str] | None = None

    def check(self, text: str, timeout_s: float = 60.0) -> TritonVerdict:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--triton-serve"], cwd=ROOT,
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                          text=True)
        assert self._proc.stdin is not None and self._proc.stdout is not None
        try:
            self._proc.stdin.write(json.dumps(text) + "\n")
            self._proc.stdin.flush()
        except OSError:
            pass
        ready = wait([self._proc.stdout], timeout=timeout_s)  # type: ignore[list-item]
        line = self._proc.stdout.readline() if ready else ""
        if not line.startswith("{"):
            self.close()
            return TritonVerdict(False, "crash")
        return TritonVerdict(**json.loads(line))

    def close(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
            self._proc = None


def _triton_serve() -> None:  # pragma: no cover - the child of triton_check
    from tests.oracle import OracleError, triton_reprint

    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            triton_reprint(json.loads(line))
            v = {"ok": True, "message": ""}
        except OracleError as e:
            v = {"ok": False, "message": (getattr(e, "diagnostics", "") or str(e))[:2000]}
        print(json.dumps(v), flush=True)


def _triton_message_key(message: str) -> str:
    """Triton's first error line without what varies between instances of one check:
    quoted types and printed ops, aliases, numbers."""
    first = next((ln for ln in message.splitlines() if "error" in ln), message.splitlines()[0] if message else "")
    first = re.sub(r"^.*?error: ", "", first)
    first = re.sub(r"'[^']*'", lambda m: m.group() if re.fullmatch(r"'\w+\.[\w.]+'", m.group()) else "'…'", first)
    first = re.sub(r"\(<[^)]*\)", "(…)", first)
    first = re.split(r' %|"\w+\.\w+"\(|<\{', first, maxsplit=1)[0]
    first = re.sub(r"#\w+", "#A", first)
    return re.sub(r"\d+", "N", first)[:120]


# --------------------------------------------------------------------------- the campaign
@dataclass
class Failure:
    """The smallest mutant seen for one dedup key, and how many mutants hit the key."""

    key: tuple[str, ...]
    mutant: Mutant
    mode: str
    message: str
    hits: int = 1

    @property
    def data(self) -> bytes:
        return self.mutant.data


@dataclass(frozen=True)
class FuzzConfig:
    n: int
    seed: int
    jobs: int = 1
    timeout: float = 5.0
    modes: tuple[str, ...] = tuple(MODES)
    corpus: tuple[str, ...] = ()
    check_triton_every: int = 1  # 0: no Triton check
    seed_pass: bool = True  # run every seed unmutated first
    only: int | None = None
    progress: bool = False


@dataclass
class FuzzReport:
    """Counts per ``(mode, outcome)`` and the distinct failures."""

    mutants: int = 0
    seeds: int = 0
    counts: Counter[tuple[str, str]] = field(default_factory=Counter)  # mutants
    seed_counts: Counter[tuple[str, str]] = field(default_factory=Counter)  # unmutated seeds
    failures: dict[tuple[str, ...], Failure] = field(default_factory=dict)
    triton_checked: int = 0
    seconds: float = 0.0

    def breaches(self, outcomes: Sequence[str] = BREACHES) -> int:
        """Runs (seeds and mutants) with one of ``outcomes``."""
        return sum(c for counts in (self.counts, self.seed_counts) for (_, o), c in counts.items() if o in outcomes)

    def record(self, mutant: Mutant, mode: str, outcome: str, key: tuple[str, ...] | None, message: str) -> None:
        (self.seed_counts if mutant.index < 0 else self.counts)[mode, outcome] += 1
        if key is None:
            return
        old = self.failures.get(key)
        if old is None:
            self.failures[key] = Failure(key, mutant, mode, message)
        else:
            old.hits += 1
            if len(mutant.data) < len(old.data):
                old.mutant, old.message = mutant, message

    def table(self, modes: Sequence[str]) -> str:
        cols = ("ok", "rejected", "traceback", "exit3", "hang", "crash", "o_written", "triton_rejects", "masked")
        lines = [f"mutants run: {self.mutants} (and {self.seeds} unmutated seeds) in {self.seconds:.0f}s; "
                 f"distinct plain outputs checked by Triton: {self.triton_checked}",
                 f"{'mode':<13}" + "".join(f"{c:>15}" for c in cols)]
        for label, counts in (("", self.counts), ("seeds ", self.seed_counts)):
            for m in modes:
                if any(counts[m, c] for c in OUTCOMES):
                    lines.append(f"{label + m:<13}" + "".join(f"{counts[m, c]:>15}" for c in cols))
        return "\n".join(lines)


def fuzz(cfg: FuzzConfig) -> FuzzReport:
    """Run ``cfg.n`` mutants (or just ``cfg.only``) through every mode; check Triton."""
    start = time.monotonic()
    seeds = load_seeds(cfg.corpus or None)
    pool = Pool.of(seeds)
    report = FuzzReport()
    mutants: dict[int, Mutant] = {}
    to_check: dict[str, list[Mutant]] = {}  # printed output -> mutants that printed it
    accepted: set[str] = set()
    plain_ok = 0

    def seed_tasks() -> Iterator[tuple[Any, bytes, str]]:
        modes = cfg.modes if cfg.only is None else ("plain",)  # a replay only needs the accepted set
        for k, s in enumerate(seeds):
            m = mutants[-1 - k] = Mutant(-1 - k, s, (), s.text.encode("utf-8", "surrogateescape"))
            report.seeds += 1
            for mode in m.modes(modes):
                yield (m.index, mode), m.data, mode

    def mutant_tasks() -> Iterator[tuple[Any, bytes, str]]:
        frozen = frozenset(accepted) if cfg.seed_pass else None
        for i in [cfg.only] if cfg.only is not None else range(cfg.n):
            m = mutants[i] = make_mutant(cfg.seed, i, seeds, pool, frozen)
            report.mutants += 1
            for mode in m.modes(cfg.modes):
                yield (i, mode), m.data, mode

    with WorkerPool(cfg.jobs, cfg.timeout) as workers:
        done = 0
        phases = [seed_tasks, mutant_tasks] if cfg.seed_pass else [mutant_tasks]
        for phase in phases:
            for (i, mode), r in workers.map(phase()):
                m = mutants[i]
                if cfg.only is None or i >= 0:
                    report.record(m, mode, r.outcome, r.key, r.message)
                if i < 0 and mode == "plain" and r.outcome == "ok":
                    accepted.add(m.seed.name)
                checkable = r.output is not None and "func.func" not in r.output  # no func dialect in Triton
                if checkable and cfg.check_triton_every and (cfg.only is None or i >= 0):
                    plain_ok += 1
                    if plain_ok % cfg.check_triton_every == 0 or cfg.only is not None:
                        to_check.setdefault(r.output, []).append(m)
                done += 1
                if cfg.progress and done % 2000 == 0:
                    print(f"  {done} runs, {report.mutants} mutants, {time.monotonic() - start:.0f}s, "
                          f"{len(report.failures)} distinct failures", file=sys.stderr, flush=True)
    if to_check and _triton_available():
        _check_with_triton(to_check, report)
    report.seconds = time.monotonic() - start
    return report


def accepted_seeds(seeds: Sequence[Seed], jobs: int, timeout: float) -> frozenset[str]:
    """Names of the seeds that ``plain`` mode accepts unmutated (what ``fuzz`` computes
    in its seed pass)."""
    with WorkerPool(jobs, timeout) as workers:
        tasks = ((s.name, s.text.encode("utf-8", "surrogateescape"), "plain") for s in seeds)
        return frozenset(name for name, r in workers.map(tasks) if r.outcome == "ok")


def _check_with_triton(to_check: dict[str, list[Mutant]], report: FuzzReport) -> None:
    outputs = list(to_check)
    verdicts = triton_check(outputs)
    report.triton_checked = len(outputs)
    bad = [(o, v) for o, v in zip(outputs, verdicts, strict=True) if not v.ok]
    # Would Triton take the mutant itself? Then ltc's printer is wrong; else its verifier.
    inputs = [to_check[o][0].data.decode("utf-8", "replace") for o, _ in bad]
    input_verdicts = triton_check(inputs) if inputs else []
    for (o, v), iv in zip(bad, input_verdicts, strict=True):
        where = "printer (Triton takes the input)" if iv.ok else "verifier (Triton rejects the input too)"
        key = ("plain", "triton_rejects", where, _triton_message_key(v.message))
        for m in to_check[o]:
            report.record(m, "plain", "triton_rejects", key, "Triton on ltc's output:\n" + v.message[:1500]
                          + ("" if iv.ok else "\n--- Triton on the input:\n" + iv.message[:600]))


# --------------------------------------------------------------------------- minimizing and saving
def _still_fails(data: bytes, failure: Failure, workers: WorkerPool, triton: TritonSession) -> bool:
    (_, r), = workers.map(iter([(0, data, failure.mode)]))
    if failure.key[1] == "triton_rejects":
        if r.output is None or "func.func" in r.output:
            return False
        v = triton.check(r.output)
        if v.ok or _triton_message_key(v.message) != failure.key[3]:
            return False
        printer_bug = failure.key[2].startswith("printer")
        return triton.check(data.decode("utf-8", "replace")).ok == printer_bug
    return r.key == failure.key


def minimize(failure: Failure, workers: WorkerPool, triton: TritonSession, budget: int = 400) -> bytes:
    """A smaller input with the same failure key: drop line chunks (halving sizes), then
    single lines, then tokens; at most ``budget`` tries."""
    data = failure.data
    tries = 0

    def attempt(candidate: bytes) -> bool:
        nonlocal tries
        tries += 1
        return candidate != data and _still_fails(candidate, failure, workers, triton)

    for unit in ("line", "token"):
        text = data.decode("utf-8", "surrogateescape")
        parts = text.splitlines(keepends=True) if unit == "line" else [m.group() for m in re.finditer(r"\s*\S+", text)] + [
            text[len(text.rstrip()) :]]
        size = max(1, len(parts) // 2)
        while size >= 1 and tries < budget:
            i, changed = 0, False
            while i < len(parts) and tries < budget:
                cand = parts[:i] + parts[i + size :]
                blob = "".join(cand).encode("utf-8", "surrogateescape")
                if attempt(blob):
                    parts, data, changed = cand, blob, True
                else:
                    i += size
            if not changed:
                size //= 2
    return data


def _minimize_saved(report: FuzzReport, directory: str, run_seed: int, timeout: float, with_triton: bool) -> None:
    triton = TritonSession()
    try:
        with WorkerPool(1, timeout) as workers:
            for key, f in sorted(report.failures.items(), key=lambda kv: len(kv[1].data)):
                if key[1] == "triton_rejects" and not with_triton:
                    continue
                small = minimize(f, workers, triton, budget=60 if key[1] == "hang" else 400)
                if small == f.data:
                    continue
                f.mutant = dataclasses.replace(f.mutant, data=small)
                ((_, r),) = workers.map(iter([(0, small, f.mode)]))
                f.message = r.message if r.key == key else f.message
                save_failures(FuzzReport(failures={key: f}), directory, run_seed)
                print(f"minimized {_slug(key)}: {len(small)} bytes", flush=True)
    finally:
        triton.close()


def command_line(mode: str, path: str = "input.mlir") -> str:
    return shlex.join(["ltc-opt", path, "-o", "/tmp/out.mlir", *MODES[mode]])


def _slug(key: tuple[str, ...]) -> str:
    text = "_".join(key)
    slug = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:80]
    return f"{slug}-{hashlib.sha1(text.encode()).hexdigest()[:8]}"


def save_failures(report: FuzzReport, directory: str, run_seed: int) -> list[str]:
    """Write each distinct failure as ``directory/<slug>/{input.mlir,command.txt,error.txt}``."""
    os.makedirs(directory, exist_ok=True)
    paths = []
    for key, f in sorted(report.failures.items()):
        d = os.path.join(directory, _slug(key))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "input.mlir"), "wb") as fh:
            fh.write(f.data)
        with open(os.path.join(d, "command.txt"), "w") as fh:
            fh.write(command_line(f.mode) + "\n")
            fh.write(f"# key: {key}\n# hits: {f.hits}; mutant {f.mutant.index} of --seed {run_seed} "
                     f"(--only {f.mutant.index}); seed chunk {f.mutant.seed.name}; edits {', '.join(f.mutant.edits)}\n")
        with open(os.path.join(d, "error.txt"), "w") as fh:
            fh.write(f.message + "\n")
        paths.append(d)
    return paths


def describe_failures(report: FuzzReport) -> str:
    lines = []
    for key, f in sorted(report.failures.items(), key=lambda kv: (kv[0][1] == "masked", kv[0])):
        lines.append(f"- [{f.hits} hits] {' | '.join(key)}  (mutant {f.mutant.index}, {len(f.data)} bytes)")
    return "\n".join(lines)


# --------------------------------------------------------------------------- CLI
def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    p.add_argument("--n", type=int, default=1000, help="number of mutants")
    p.add_argument("--seed", type=int, default=0, help="run seed: mutant i is a function of (seed, i)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--timeout", type=float, default=5.0, help="seconds per (mutant, mode) before it is a hang")
    p.add_argument("--corpus", nargs="+", default=[], metavar="DIR", help="seed IR from these folders instead")
    p.add_argument("--modes", default=",".join(MODES), help="comma-separated subset of plain,layout,ptx")
    p.add_argument("--check-triton-every", type=int, default=1, metavar="K",
                   help="check every K-th plain output with Triton (0: never)")
    p.add_argument("--save-failures", metavar="DIR", help="write each distinct failure here")
    p.add_argument("--minimize", action="store_true",
                   help="then shrink each saved failure (smallest first) and rewrite it")
    p.add_argument("--minimize-triton", action="store_true",
                   help="with --minimize: Triton rejections too (slow: Triton checks each try)")
    p.add_argument("--no-seed-pass", action="store_true",
                   help="skip running the seeds unmutated first (mutants then pick seeds blindly)")
    p.add_argument("--only", type=int, metavar="I", help="run only mutant I (replay)")
    p.add_argument("--print-mutant", action="store_true", help="with --only: print the mutant and exit")
    p.add_argument("--include-masked", action="store_true", help="also save/minimize 'masked' failures")
    args = p.parse_args(argv)
    modes = tuple(m for m in args.modes.split(",") if m)
    if any(m not in MODES for m in modes):
        p.error(f"--modes: unknown mode in {args.modes!r}")
    if args.print_mutant:
        if args.only is None:
            p.error("--print-mutant needs --only")
        seeds = load_seeds(args.corpus or None)
        accepted = None if args.no_seed_pass else accepted_seeds(seeds, max(1, args.jobs), args.timeout)
        m = make_mutant(args.seed, args.only, seeds, Pool.of(seeds), accepted)
        print(f"// seed chunk {m.seed.name}; edits {', '.join(m.edits)}", file=sys.stderr)
        sys.stdout.buffer.write(m.data)
        return 0
    if not args.corpus and not os.path.isdir(SUITE):  # the run is weaker: say so, it is not reproducible otherwise
        print(f"fuzz_ir: no Triton suite at {SUITE} (set LTC_TRITON_SUITE): seeds are the repository's IR only",
              file=sys.stderr)
    cfg = FuzzConfig(n=args.n, seed=args.seed, jobs=max(1, args.jobs), timeout=args.timeout, modes=modes,
                     corpus=tuple(args.corpus), check_triton_every=args.check_triton_every, only=args.only,
                     seed_pass=not args.no_seed_pass,
                     progress=True)
    report = fuzz(cfg)
    print(report.table(modes))
    if report.failures:
        print(f"\ndistinct failures ({len(report.failures)}):")
        print(describe_failures(report))
    if args.save_failures:
        if not args.include_masked:
            report.failures = {k: f for k, f in report.failures.items() if k[1] != "masked"}
        for d in save_failures(report, args.save_failures, args.seed):
            print(f"saved {d}")
        if args.minimize:  # rewrites each saved failure as soon as it is minimized
            _minimize_saved(report, args.save_failures, args.seed, args.timeout, args.minimize_triton)
    return 1 if report.breaches() else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--triton-serve"]:
        _triton_serve()
        sys.exit(0)
    sys.exit(main())
