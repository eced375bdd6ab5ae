"""Triton 3.9 as the oracle of ltc's layout pipeline (used by tests and benchmarks only).

Everything runs in-process on the CPU through Triton's Python bindings; nothing here
imports ``ltc``.  Triton is imported lazily, so importing this module works without it.

* :func:`triton_make_ttgir` runs Triton's OWN ``CUDABackend.make_ttgir`` (the whole
  TTIR -> TTGIR stage of ``triton.compile``) on a TTIR text.  Options are built the way
  ``triton.compile`` builds them: ``CUDABackend(GPUTarget("cuda", cc, 32)).parse_options(
  {"num_warps": w, "num_stages": s})``; the context gets ``ir.load_dialects`` and the
  backend's ``load_dialects`` (the NVIDIA dialects ``make_ttgir`` needs).
* :func:`triton_layout_passes` runs only the layout part of ``make_ttgir``, in this order
  (:data:`LAYOUT_PASSES`): ``convert-triton-to-tritongpu`` (``cuda:cc``, num_warps, 32
  threads, 1 CTA), ``tritongpu-coalesce``, ``tritongpu-remove-layout-conversions``,
  ``tritongpu-accelerate-matmul``, ``tritongpu-remove-layout-conversions``.  It leaves out
  what ``make_ttgir`` interleaves with them (f32-dot-tc, assign-cga-layouts,
  optimize-cta/thread-locality, the later pipelining, dot-operand and
  reduce-data-duplication passes).  Only ``pm.run`` is timed: parsing, building the pass
  manager and printing are not.
* :func:`triton_verify` says whether Triton's parser and verifier accept a text (the
  captured MLIR diagnostics, or ``None``).  It parses in a forked child process, because
  Triton 3.9 is built with assertions on and some bad layouts abort the interpreter
  (``LLVM ERROR: Layout is expected to be surjective``); a crash comes back as an error
  text instead of killing the test run.
* :func:`count_converts` counts ``ttg.convert_layout`` ops in a printed module.

``make_ttgir`` and verification results are cached under ``benchmarks/.cache/
triton_pipeline/``, keyed by a hash of the inputs, the Triton version and this file's
source (editing the harness invalidates the cache).  Timings are never cached.
"""

from __future__ import annotations

import ast
import contextlib
import faulthandler
import hashlib
import json
import os
import re
import signal
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples" / "triton"
CACHE_DIR = REPO / "benchmarks" / ".cache" / "triton_pipeline"
THREADS_PER_WARP = 32

LAYOUT_PASSES: tuple[str, ...] = (
    "convert-triton-to-tritongpu",
    "tritongpu-coalesce",
    "tritongpu-remove-layout-conversions",
    "tritongpu-accelerate-matmul",
    "tritongpu-remove-layout-conversions",
)
"""The passes :func:`triton_layout_passes` runs, in order (Triton's flag names)."""


class TritonError(RuntimeError):
    """Triton rejected an input or a pass failed; ``str()`` holds its diagnostics."""


# --------------------------------------------------------------------------------------
# the example kernels
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class KernelOptions:
    """The compile options ``examples/triton/gen_ir.py`` used for one kernel."""

    num_warps: int = 4
    num_stages: int = 3


@lru_cache(maxsize=None)
def example_kernels() -> dict[str, KernelOptions]:
    """``{name: options}`` of ``gen_ir.py``'s ``KERNELS``, in its order.

    Read from the script's syntax tree (its last tuple field is a literal options dict),
    so that Triton need not be imported nor the kernels defined; missing options take
    Triton's defaults (4 warps, 3 stages).
    """
    tree = ast.parse((EXAMPLES / "gen_ir.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "KERNELS" for t in node.targets
        ):
            out = {}
            for entry in node.value.elts:
                name = ast.literal_eval(entry.elts[0])
                options = ast.literal_eval(entry.elts[-1])
                out[name] = KernelOptions(**options)
            return out
    raise LookupError("no KERNELS list in examples/triton/gen_ir.py")


def example_ttir(name: str) -> str:
    """The TTIR text of example kernel ``name`` (``examples/triton/NAME.ttir``)."""
    return (EXAMPLES / f"{name}.ttir").read_text()


# --------------------------------------------------------------------------------------
# counting
# --------------------------------------------------------------------------------------
_CONVERT = re.compile(r'(?<![\w.$-])"?ttg\.convert_layout\b')


def count_converts(text: str) -> int:
    """The number of ``ttg.convert_layout`` ops in a printed module (custom or generic form)."""
    return len(_CONVERT.findall(text))


_SSA_NAME = re.compile(r"%[\w.$-]+")


def normalized_ops(text: str) -> list[str]:
    """The op lines of ``text`` with SSA names erased and ``#loc`` lines dropped.

    Two printings of the same IR that differ only in value names (Triton names block
    arguments after source variables when it compiles from Python, ``%argN`` when it
    parses a file) compare equal.
    """
    lines = []
    for line in _SSA_NAME.sub("%_", text).splitlines():
        line = line.strip()
        if line and not line.startswith("#loc"):
            lines.append(line)
    return lines


_TENSOR = re.compile(r"(?<![\w.])tensor<")


def tensors_without_layout(text: str) -> list[str]:
    """The distinct ``tensor<...>`` types in ``text`` that carry no encoding (sorted).

    A type has an encoding when its bracket holds a top-level ``, `` after the element
    type (``tensor<64x!tt.ptr<f32>, #blocked>``); TTGIR has none without one.
    """
    found = set()
    for m in _TENSOR.finditer(text):
        depth, i = 1, m.end()
        top_comma = False
        while depth and i < len(text):
            c = text[i]
            if c in "<{[(":
                depth += 1
            elif c in ">}])":
                depth -= 1
            elif c == "," and depth == 1:
                top_comma = True
            i += 1
        if not top_comma:
            found.add(text[m.start():i])
    return sorted(found)


# --------------------------------------------------------------------------------------
# the disk cache
# --------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def triton_version() -> str:
    """The installed Triton's version (read from package metadata, no import)."""
    from importlib.metadata import version

    return version("triton")


@lru_cache(maxsize=None)
def _harness_hash() -> str:
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]


def cache_key(kind: str, **inputs: Any) -> str:
    """sha256 of ``kind``, ``inputs``, the Triton version and this harness's source."""
    payload = json.dumps(
        {"kind": kind, "inputs": inputs, "triton": triton_version(), "harness": _harness_hash()},
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:32]


def _cached(kind: str, use_cache: bool, compute: Callable[[], dict], **inputs: Any) -> dict:
    """``compute()``'s JSON-able dict, read from / written to the cache when ``use_cache``."""
    path = CACHE_DIR / f"{kind}-{cache_key(kind, **inputs)}.json"
    if use_cache and path.is_file():
        return json.loads(path.read_text())
    value = compute()
    if use_cache:
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=CACHE_DIR, prefix=".tmp-", suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(value, f)
        os.replace(tmp, path)  # atomic: concurrent runs never read half a file
    return value


# --------------------------------------------------------------------------------------
# talking to Triton
# --------------------------------------------------------------------------------------
_INPUT_NAME = "input.mlir"


@contextlib.contextmanager
def _captured_stderr() -> Iterator[Callable[[], str]]:
    """Redirect fd 2 (where MLIR prints diagnostics) to a file; yields a reader of it.

    Only the diagnostics' file path is rewritten: the scratch directory is cut so that
    messages read ``loc("input.mlir":3:5): error: ...`` whatever the temp path was.
    """
    with tempfile.TemporaryFile() as sink:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(sink.fileno(), 2)
        captured: list[str] = []

        def read() -> str:
            return captured[0] if captured else ""

        try:
            yield read
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            text = sink.read().decode(errors="replace")
            captured.append(_cut_scratch_paths(text))


@contextlib.contextmanager
def _no_capture() -> Iterator[Callable[[], str]]:
    yield lambda: ""


def _cut_scratch_paths(text: str) -> str:
    """``text`` with the scratch directory cut from every quoted path of the input file."""
    return re.sub(r'"[^"]*/' + re.escape(_INPUT_NAME) + '"', f'"{_INPUT_NAME}"', text)


@contextlib.contextmanager
def _scratch_file(text: str) -> Iterator[str]:
    """``text`` in a fresh scratch file (``parse_mlir_module`` takes a path, not a string)."""
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(prefix="ltc-triton-", dir=base) as d:
        path = os.path.join(d, _INPUT_NAME)
        with open(path, "w") as f:
            f.write(text)
        yield path


def _backend(capability: int) -> Any:
    from triton.backends.compiler import GPUTarget
    from triton.backends.nvidia.compiler import CUDABackend

    return CUDABackend(GPUTarget("cuda", capability, THREADS_PER_WARP))


def _parse(path: str, capability: int, capture: bool = True) -> Any:
    """Triton's module for the file at ``path``; raises :class:`TritonError` with diagnostics.

    Without ``capture`` the diagnostics stay on fd 2 and the error says only that parsing failed.
    """
    from triton._C.libtriton import ir

    ctx = ir.context()
    ir.load_dialects(ctx)
    _backend(capability).load_dialects(ctx)
    with _captured_stderr() if capture else _no_capture() as diagnostics:
        try:
            mod = ir.parse_mlir_module(path, ctx)
        except RuntimeError as e:
            error: Exception | None = e
        else:
            error = None
    if error is not None:
        raise TritonError(diagnostics().strip() or str(error))
    mod.context = ctx
    return mod


def _run(pm: Any, mod: Any, what: str) -> float:
    """Run ``pm`` on ``mod``; the seconds ``pm.run`` took.  Failures raise :class:`TritonError`."""
    with _captured_stderr() as diagnostics:
        start = time.perf_counter()
        try:
            pm.run(mod, what)
        except RuntimeError as e:
            error: Exception | None = e
        else:
            error = None
        seconds = time.perf_counter() - start
    if error is not None:
        raise TritonError(f"{what}: {diagnostics().strip() or error}")
    return seconds


def triton_make_ttgir(
    ttir_text: str,
    num_warps: int,
    capability: int,
    *,
    num_stages: int = 3,
    use_cache: bool = True,
) -> str:
    """The TTGIR Triton 3.9's ``CUDABackend.make_ttgir`` makes of ``ttir_text`` for ``cuda:capability``.

    Raises :class:`TritonError` when Triton rejects the text or a pass fails.
    """

    def compute() -> dict:
        from triton.backends.nvidia.compiler import CUDABackend

        backend = _backend(capability)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # TRITON_DEFAULT_FP_FUSION notice
            options = backend.parse_options({"num_warps": num_warps, "num_stages": num_stages})
        with _scratch_file(ttir_text) as path:
            mod = _parse(path, capability)
        metadata = {"target": backend.target, **options.__dict__}
        with _captured_stderr() as diagnostics:
            try:
                out = CUDABackend.make_ttgir(mod, metadata, options, capability)
            except RuntimeError as e:
                error: Exception | None = e
            else:
                error = None
        if error is not None:
            raise TritonError(f"make_ttgir: {diagnostics().strip() or error}")
        return {"text": str(out)}

    inputs = {"ttir": ttir_text, "num_warps": num_warps, "capability": capability, "num_stages": num_stages}
    return _cached("make_ttgir", use_cache, compute, **inputs)["text"]


def triton_compile_file(path: str | os.PathLike[str], capability: int, num_warps: int) -> Any:
    """``triton.compile`` of the TTIR file ``path`` for ``cuda:capability`` on the CPU
    (``GPUTarget("cuda", capability, 32)``), never from Triton's cache: the compiled
    kernel (its ``asm`` holds ``ttgir``, ``ptx``, ``cubin``). Triton's errors propagate."""
    import triton
    from triton.backends.compiler import GPUTarget

    with triton.knobs.compilation.scope():
        triton.knobs.compilation.always_compile = True
        return triton.compile(str(path), target=GPUTarget("cuda", capability, THREADS_PER_WARP), options={"num_warps": num_warps})


def triton_op_count(text: str) -> int:
    """How many operations Triton's parser builds from ``text`` (all but ``builtin.module``)."""
    with _scratch_file(text) as path:
        mod = _parse(path, 90)
    names: list[str] = []
    mod.walk(lambda op: names.append(op.get_name()))
    return sum(name != "builtin.module" for name in names)


def triton_layout_passes(
    ttir_text: str, num_warps: int, capability: int, *, repeat: int = 1
) -> tuple[str, float]:
    """Triton's layout passes (:data:`LAYOUT_PASSES`) on ``ttir_text``: (TTGIR text, seconds).

    The seconds are the best of ``repeat`` runs of ``pm.run`` alone, each on a freshly
    parsed module; never cached.  Raises :class:`TritonError` on failure.
    """
    from triton._C.libtriton import ir, passes

    best = float("inf")
    text = ""
    with _scratch_file(ttir_text) as path:
        for _ in range(max(1, repeat)):
            mod = _parse(path, capability)
            pm = ir.pass_manager(mod.context)
            passes.ttir.add_convert_to_ttgpuir(pm, f"cuda:{capability}", num_warps, THREADS_PER_WARP, 1)
            passes.ttgpuir.add_coalesce(pm)
            passes.ttgpuir.add_remove_layout_conversions(pm)
            passes.ttgpuir.add_accelerate_matmul(pm)
            passes.ttgpuir.add_remove_layout_conversions(pm)
            best = min(best, _run(pm, mod, "layout passes"))
            text = str(mod)
    return text, best


def _verify_here(text: str) -> str | None:
    """Parse (which verifies) ``text`` with Triton in this process; the error text or None."""
    with _scratch_file(text) as path:
        try:
            _parse(path, 90)
        except TritonError as e:
            return str(e)
    return None


def _verify_in_child(text: str) -> str | None:
    """:func:`_verify_here` in a forked child; a crash of the child becomes an error text.

    The child sends fd 2 straight to a file the parent reads (no nested capture), so the
    last words of an abort (``LLVM ERROR: ...``) reach the report.
    """
    read_fd, write_fd = os.pipe()
    with tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: never returns, never runs atexit handlers
            status = 1
            try:
                # a faulthandler (pytest enables one) writes to its own copy of the parent's
                # stderr, not to fd 2: off, so that an abort's last words reach only ``err``
                faulthandler.disable()
                os.close(read_fd)
                os.dup2(err.fileno(), 2)
                with _scratch_file(text) as path:
                    try:
                        _parse(path, 90, capture=False)
                        ok = True
                    except TritonError:
                        ok = False
                with os.fdopen(write_fd, "w") as out:
                    out.write("ok" if ok else "rejected")
                status = 0
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(status)
        os.close(write_fd)
        with os.fdopen(read_fd) as inp:
            reply = inp.read()
        _, status = os.waitpid(pid, 0)
        err.seek(0)
        stderr = _cut_scratch_paths(err.read().decode(errors="replace")).strip()
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 and reply in ("ok", "rejected"):
        return None if reply == "ok" else (stderr or "Triton rejected the text (no diagnostics)")
    if os.WIFSIGNALED(status):
        how = f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    else:
        how = f"exit status {os.WEXITSTATUS(status)}"
    return f"Triton crashed ({how}): {stderr[-4000:]}"


def triton_verify(text: str, *, use_cache: bool = True, isolate: bool = True) -> str | None:
    """``None`` when Triton 3.9's parser and verifier accept ``text``, else the diagnostics.

    With ``isolate`` (the default, where ``os.fork`` exists) the parse runs in a child
    process, so that an assertion failure inside Triton is reported, not fatal.
    """

    def compute() -> dict:
        if isolate and hasattr(os, "fork"):
            return {"error": _verify_in_child(text)}
        return {"error": _verify_here(text)}

    return _cached("verify", use_cache, compute, text=text)["error"]
