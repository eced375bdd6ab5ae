"""The READMEs are true: every example in them runs and prints what they show.

Every fenced ```sh and ```python block of ``README.md`` and ``examples/README.md`` runs,
in document order, in one scratch folder per document. The folder holds links to the
repository's ``examples/``, ``tests/`` and ``benchmarks/``, so paths read as from the
repository root and nothing is written into the checkout.

* ``sh``: a line starting with ``$ `` is a command (a trailing ``\\`` continues it on the
  next line); the lines after it, up to the next ``$ `` or the fence, are its expected
  output: stdout and stderr together, compared exactly, after the one normalisation
  :func:`normalise` (trailing spaces and blank lines). Every command must exit with
  status 0 (show a failing one with ``; echo "exit status $?"``). Lines before the first
  ``$ `` are comments.
* ``python``: runs as a fresh ``python -`` process (the interpreter running the tests);
  a ```text block right after it (blank lines between at most) is its expected stdout.
  It must exit with status 0.
* ``<!-- no-run -->`` on the line before a fence: not run (installation, the whole
  test suite: things the tests cannot or must not do).

The commands are the installed ``ltc-opt``, ``ltc-layout``, ``ltc-sim`` (``pip install
-e .``), found next to the running interpreter first. Besides the examples, the README's
list of ops ``--emit ptx`` lowers must equal the lowering's handler table, and each
tool's synopsis must name exactly the options its ``--help`` usage line does.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = {"README.md": (), "examples/README.md": ("triton",)}
"""Each document and the modules its examples import beyond ltc's own dependencies."""
LINKED = ("examples", "tests", "benchmarks")
"""Repository folders the examples read, linked into the scratch folder."""
TIMEOUT_S = 120
NO_RUN = "<!-- no-run -->"


@dataclass(frozen=True)
class Block:
    """A fenced block: its language tag, body lines, and line number (1-based) of its fence."""

    lang: str
    lines: tuple[str, ...]
    line: int
    no_run: bool
    output: tuple[str, ...] | None = None
    """For a python block: the body of the ```text block right after it, if any."""


@dataclass(frozen=True)
class Command:
    text: str
    expected: str
    line: int


def parse_blocks(text: str) -> list[Block]:
    """Every fenced block of a Markdown text, a python block's output block attached."""
    lines = text.splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        start = i
        j = i + 1
        while j < len(lines) and lines[j].rstrip() != "```":
            j += 1
        before = next((ln.strip() for ln in reversed(lines[:start]) if ln.strip()), "")
        blocks.append(Block(m.group(1), tuple(lines[start + 1 : j]), start + 1, before == NO_RUN))
        i = j + 1
    out: list[Block] = []
    for k, b in enumerate(blocks):
        if b.lang == "text" and out and out[-1].lang == "python" and out[-1].output is None:
            between = lines[out[-1].line + len(out[-1].lines) + 1 : b.line - 1]
            if all(not ln.strip() for ln in between):
                prev = out.pop()
                out.append(Block(prev.lang, prev.lines, prev.line, prev.no_run, b.lines))
                continue
        out.append(b)
    return out


def sh_commands(block: Block) -> list[Command]:
    """The ``$ `` commands of an sh block with their expected output."""
    commands: list[Command] = []
    text: list[str] = []
    expected: list[str] = []
    line = 0
    continuing = False
    for n, ln in enumerate(block.lines, start=block.line + 1):
        if continuing:
            text.append(ln)
            continuing = ln.endswith("\\")
        elif ln.startswith("$ "):
            if text:
                commands.append(Command("\n".join(text), "\n".join(expected), line))
            text, expected, line = [ln[2:]], [], n
            continuing = ln.endswith("\\")
        elif text:
            expected.append(ln)
    if text:
        commands.append(Command("\n".join(text), "\n".join(expected), line))
    return commands


def normalise(text: str) -> str:
    """Trailing spaces of each line and trailing blank lines removed: nothing else."""
    return "\n".join(ln.rstrip() for ln in text.rstrip().splitlines())


def _environment(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _scratch(tmp: Path) -> Path:
    for name in LINKED:
        (tmp / name).symlink_to(ROOT / name, target_is_directory=True)
    return tmp


def _report(doc: str, line: int, what: str, expected: str, got: str) -> str:
    return f"{doc}:{line}: {what}\n--- README shows:\n{expected}\n--- it printed:\n{got}\n"


def _run_document(doc: str, tmp: Path) -> list[str]:
    """Run every example of ``doc``; one report per example that differs."""
    cwd = _scratch(tmp)
    env = _environment(tmp)
    problems: list[str] = []
    for block in parse_blocks((ROOT / doc).read_text(encoding="utf-8")):
        if block.no_run or block.lang not in ("sh", "python"):
            continue
        if block.lang == "sh":
            commands = sh_commands(block)
            if not commands:
                problems.append(f"{doc}:{block.line}: an sh block without a '$ ' command (fence it as text?)")
            for c in commands:
                r = subprocess.run(
                    ["bash", "-c", c.text], cwd=cwd, env=env, stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT_S, check=False,
                )
                got = normalise(r.stdout)
                if r.returncode != 0 or got != normalise(c.expected):
                    what = f"$ {c.text}" + (f"  (exit status {r.returncode})" if r.returncode else "")
                    problems.append(_report(doc, c.line, what, normalise(c.expected), got))
        else:
            r = subprocess.run(
                [sys.executable, "-"], input="\n".join(block.lines), cwd=cwd, env=env,
                capture_output=True, text=True, timeout=TIMEOUT_S, check=False,
            )
            got = normalise(r.stdout)
            if r.returncode != 0:
                problems.append(_report(doc, block.line, f"python block (exit status {r.returncode})",
                                        "", got + "\n" + r.stderr))
            elif block.output is not None and got != normalise("\n".join(block.output)):
                problems.append(_report(doc, block.line, "python block", normalise("\n".join(block.output)), got))
    return problems


@pytest.mark.parametrize("doc", sorted(DOCUMENTS))
def test_examples_print_what_the_readme_shows(doc: str, tmp_path: Path) -> None:
    for module in DOCUMENTS[doc]:
        pytest.importorskip(module, reason=f"{doc} compiles a kernel with {module}")
    if shutil.which("ltc-opt", path=_environment(tmp_path)["PATH"]) is None:
        pytest.fail("ltc-opt is not installed: run `pip install -e .` first")
    problems = _run_document(doc, tmp_path)
    assert not problems, "\n".join(problems)


def test_every_document_has_examples() -> None:
    """The walker finds the blocks (a broken parser would pass the test above vacuously)."""
    counts = {}
    for doc in DOCUMENTS:
        blocks = [b for b in parse_blocks((ROOT / doc).read_text(encoding="utf-8")) if not b.no_run]
        counts[doc] = (
            sum(len(sh_commands(b)) for b in blocks if b.lang == "sh"),
            sum(1 for b in blocks if b.lang == "python"),
        )
    assert all(sh >= 5 and py >= 2 for sh, py in counts.values()), counts


def test_parser_on_a_sample() -> None:
    sample = (
        "```sh\n# a comment\n$ echo a \\\n  b\na b\n$ true\n```\n\n"
        "<!-- no-run -->\n```sh\n$ false\n```\n"
        "```python\nprint(1)\n```\n\n```text\n1\n```\n```text\nsynopsis\n```\n"
    )
    blocks = parse_blocks(sample)
    assert [(b.lang, b.no_run, b.output) for b in blocks] == [
        ("sh", False, None), ("sh", True, None), ("python", False, ("1",)), ("text", False, None)
    ]
    assert sh_commands(blocks[0]) == [Command("echo a \\\n  b", "a b", 3), Command("true", "", 6)]


# ----------------------------------------------------------------------- generated lists
def _section(text: str, name: str) -> str:
    m = re.search(rf"<!-- {name}:begin -->(.*?)<!-- {name}:end -->", text, re.DOTALL)
    assert m, f"README.md has no <!-- {name}:begin --> ... <!-- {name}:end --> section"
    return m.group(1)


def test_emit_ptx_op_list_is_the_handler_table() -> None:
    """The README's table of ops ``--emit ptx`` lowers is the lowering's handler table."""
    from ltc.lowering.llvm.to_llvm import HANDLERS

    listed = re.findall(r"`([a-z_]+\.[a-z_0-9]+)`", _section((ROOT / "README.md").read_text(encoding="utf-8"), "emit-ops"))
    assert len(listed) == len(set(listed)), "an op is listed twice"
    assert sorted(listed) == sorted(HANDLERS)


_TOOLS = {"ltc-opt": ["ltc-opt"], "ltc-layout": ["ltc-layout"],
          "ltc-layout convert": ["ltc-layout", "convert"], "ltc-sim": ["ltc-sim"]}


def _options(text: str) -> set[str]:
    """``-x`` / ``--name`` option spellings in ``text`` (metavariables in capitals excluded)."""
    found = set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", text))
    return {o for o in found if not o.lstrip("-").isupper() and o != "-h"}


@pytest.mark.parametrize("tool", sorted(_TOOLS))
def test_synopsis_names_every_option(tool: str, tmp_path: Path) -> None:
    """The README's synopsis of each tool (the first ```text block starting with its name)
    names exactly the options of the tool's ``--help`` usage line."""
    argv = _TOOLS[tool]
    r = subprocess.run([*argv, "--help"], env=_environment(tmp_path), capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    usage = r.stdout.split("\n\n", 1)[0]
    synopses = [
        b for b in parse_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
        if b.lang == "text" and b.lines and re.match(rf"{re.escape(tool)} (?!convert)", b.lines[0])
    ]
    assert synopses, f"README.md has no ```text synopsis starting with '{tool} '"
    assert _options("\n".join(synopses[0].lines)) == _options(usage)
