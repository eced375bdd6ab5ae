"""Triton 3.9 as the judge of the suite's chunks: does it accept a text, and how does it
re-print it.  Used by ``benchmarks/triton_suite.py``; never imports ``ltc``.

Triton parses in child processes (``python suite_oracle.py --serve``), many texts per
child, because the wheel is built with assertions on and some inputs abort the
interpreter; a text that kills its child counts as rejected (``crashed``) and the child
is restarted after it.  A child reads JSON lines ``{"text": T, "unreg": B, "passes": [[NAME,
{OPT: VALUE}], ...]}`` (passes to run after parsing, through Triton's Python bindings)
and answers one JSON line each: ``{"ok": true, "printed": str_nodebug()}`` or ``{"ok": false, "diag":
MLIR's diagnostics}``.  Diagnostics read ``loc("FILE":LINE:COL): error: MSG``; the
text is written to a scratch file as given, so pad it to keep line numbers.

``-allow-unregistered-dialect``: Triton's bindings do not expose
``MLIRContext::allowUnregisteredDialects``; the child calls the exported C++ symbol
through ``ctypes`` on the context behind the nanobind object and checks that it took
effect (``allowsUnregisteredDialects()`` reads back true).  When that fails the answers
carry ``"unreg_supported": false`` and such texts are judged without it.

Verdicts are cached in ``benchmarks/.cache/triton_suite/verdicts-<triton version>.json``
keyed by the sha256 of the protocol version, the flag and the text.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

PROTOCOL = "2"
CACHE_DIR = Path(__file__).resolve().parent / ".cache" / "triton_suite"


PassSpec = tuple[str, tuple[tuple[str, str], ...]]
"""A pass by its command-line name, with its options (``("convert-triton-to-tritongpu",
(("target", "cuda:80"), ("num-warps", "2")))``)."""


@dataclass(frozen=True)
class OracleItem:
    """A text to judge; with ``passes``, Triton runs them after parsing and the verdict's
    ``printed`` is the module after them (``diagnostics`` when one fails)."""

    text: str
    allow_unregistered: bool = False
    passes: tuple[PassSpec, ...] = ()


@dataclass(frozen=True)
class TritonVerdict:
    """``accepted``: parsed and verified; ``printed``: Triton's ``str_nodebug()`` then;
    ``diagnostics``: MLIR's text otherwise; ``crashed``: the text aborted Triton."""

    accepted: bool
    printed: str | None
    diagnostics: str
    crashed: bool = False
    unregistered_supported: bool = True

    @staticmethod
    def from_json(d: dict) -> TritonVerdict:
        return TritonVerdict(bool(d["ok"]), d.get("printed"), d.get("diag", ""), bool(d.get("crash", False)),
                             bool(d.get("unreg_supported", True)))

    def to_json(self) -> dict:
        return {"ok": self.accepted, "printed": self.printed, "diag": self.diagnostics, "crash": self.crashed,
                "unreg_supported": self.unregistered_supported}


def triton_version() -> str | None:
    """The installed triton's version, or None when ``triton._C.libtriton`` is unusable."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        ver = version("triton")
    except PackageNotFoundError:
        return None
    import importlib.util

    return ver if importlib.util.find_spec("triton") is not None else None


def _key(item: OracleItem, ver: str) -> str:
    fields: list = [PROTOCOL, ver, item.allow_unregistered, item.text]
    if item.passes:  # keys of plain parses stay as they were
        fields.append([[name, list(map(list, opts))] for name, opts in item.passes])
    payload = json.dumps(fields)
    return hashlib.sha256(payload.encode()).hexdigest()[:32]


class TritonOracle:
    """Judges texts with Triton (cached); ``judge`` keeps the order of its input."""

    def __init__(self, cache_dir: Path | None = CACHE_DIR, timeout_s: float = 600.0) -> None:
        ver = triton_version()
        if ver is None:
            raise RuntimeError("triton is not installed")
        self.version = ver
        self.timeout_s = timeout_s
        self._path = None if cache_dir is None else cache_dir / f"verdicts-{ver}.json"
        self._cache: dict[str, dict] = self._load()
        self._new: dict[str, dict] = {}
        self.computed = 0

    def _load(self) -> dict[str, dict]:
        if self._path is None or not self._path.is_file():
            return {}
        try:
            return json.loads(self._path.read_text())
        except (OSError, ValueError):
            return {}

    def save(self) -> None:
        """Merge the new verdicts into the cache file (atomically; concurrent runs may
        lose each other's entries, never corrupt the file)."""
        if self._path is None or not self._new:
            return
        merged = {**self._load(), **self._new}
        self._path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self._path.parent, prefix=".tmp-", suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(merged, f)
        os.replace(tmp, self._path)
        self._cache.update(self._new)
        self._new = {}

    def judge(self, items: list[OracleItem], jobs: int = 1) -> list[TritonVerdict]:
        keys = [_key(it, self.version) for it in items]
        todo: dict[str, OracleItem] = {}
        for k, it in zip(keys, items):
            if k not in self._cache and k not in self._new:
                todo.setdefault(k, it)
        if todo:
            todo_keys = list(todo)
            n = max(1, min(jobs, (len(todo_keys) + 49) // 50))
            batches = [todo_keys[i::n] for i in range(n)]
            with ThreadPoolExecutor(n) as pool:
                results = list(pool.map(lambda b: self._run_children([todo[k] for k in b]), batches))
            for batch, res in zip(batches, results):
                for k, v in zip(batch, res):
                    self._new[k] = v
            self.computed += len(todo_keys)
        return [TritonVerdict.from_json(self._new.get(k) or self._cache[k]) for k in keys]

    def _run_children(self, items: list[OracleItem]) -> list[dict]:
        results: list[dict] = []
        scratch = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
        paths = []
        for suffix in (".mlir", ".diag"):  # the child's input and its fd 2; ours to remove
            fd, p = tempfile.mkstemp(prefix="suite_oracle_", suffix=suffix, dir=scratch)
            os.close(fd)
            paths.append(p)
        text_path, diag_path = paths
        env = dict(os.environ, SUITE_ORACLE_TEXT=text_path, SUITE_ORACLE_DIAG=diag_path)
        try:
            while len(results) < len(items):
                rest = items[len(results):]
                payload = "".join(json.dumps({"text": it.text, "unreg": it.allow_unregistered,
                                              "passes": [[n, dict(o)] for n, o in it.passes]}) + "\n"
                                  for it in rest)
                try:
                    proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--serve"], input=payload,
                                          capture_output=True, text=True, timeout=self.timeout_s, env=env)
                    out, err, rc = proc.stdout, proc.stderr, proc.returncode
                except subprocess.TimeoutExpired as e:
                    out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
                    err, rc = "", "timeout"
                got = [json.loads(ln) for ln in out.splitlines() if ln.startswith("{")]
                results += got
                if len(got) < len(rest):  # the next text killed the child
                    with open(diag_path) as f:  # fd 2 pointed there while Triton parsed
                        diag = f.read()
                    tail = (diag + err).split("nanobind: leaked", 1)[0].strip()[-1500:]
                    results.append({"ok": False, "printed": None, "crash": True,
                                    "diag": f"Triton crashed (rc={rc}):\n{tail}"})
        finally:
            for p in paths:
                os.unlink(p)
        return results


# --------------------------------------------------------------------------------------
# the child
# --------------------------------------------------------------------------------------
def _allow_unregistered(lt: object, ctx: object) -> bool:
    """Set ``allowUnregisteredDialects(true)`` on the MLIRContext inside ``ctx``."""
    import ctypes

    try:
        lib = ctypes.CDLL(lt.__file__)  # type: ignore[attr-defined]
        get = lib._ZN4mlir11MLIRContext26allowsUnregisteredDialectsEv
        put = lib._ZN4mlir11MLIRContext25allowUnregisteredDialectsEb
        get.restype, get.argtypes = ctypes.c_bool, [ctypes.c_void_p]
        put.argtypes = [ctypes.c_void_p, ctypes.c_bool]
        # nanobind instance: PyObject header, int32 offset, flags (bit 2: stored inline)
        addr = id(ctx)
        offset = ctypes.c_int32.from_address(addr + 16).value
        inline = bool(ctypes.c_uint32.from_address(addr + 20).value & 4)
        ptr = addr + offset if inline else ctypes.c_void_p.from_address(addr + offset).value
        if not ptr or get(ptr):
            return False
        put(ptr, True)
        return bool(get(ptr))
    except (OSError, AttributeError, ValueError):
        return False


def _add_pass(lt: object, pm: object, name: str, opts: dict[str, str]) -> None:
    """Add Triton's pass ``name`` (a ``triton-opt`` flag) to ``pm``; KeyError if the
    bindings do not expose it."""
    p = lt.passes  # type: ignore[attr-defined]
    simple = {
        "canonicalize": p.common.add_canonicalizer,
        "cse": p.common.add_cse,
        "tritongpu-coalesce": p.ttgpuir.add_coalesce,
        "tritongpu-accelerate-matmul": p.ttgpuir.add_accelerate_matmul,
        "tritongpu-remove-layout-conversions": p.ttgpuir.add_remove_layout_conversions,
        "tritongpu-reduce-data-duplication": p.ttgpuir.add_reduce_data_duplication,
    }
    if name == "convert-triton-to-tritongpu":
        p.ttir.add_convert_to_ttgpuir(pm, opts.get("target", "cuda:90"), int(opts.get("num-warps", 4)),
                                      int(opts.get("threads-per-warp", 32)), int(opts.get("num-ctas", 1)))
    else:
        simple[name](pm)


def _serve() -> None:  # pragma: no cover - runs in the child
    from triton._C import libtriton as lt

    def new_context() -> object:
        ctx = lt.ir.context()
        lt.ir.load_dialects(ctx)
        lt.nvidia.load_dialects(ctx)
        lt.amd.load_dialects(ctx)
        return ctx

    plain = new_context()
    unreg = new_context()
    unreg_ok = _allow_unregistered(lt, unreg)
    path = os.environ["SUITE_ORACLE_TEXT"]  # set by TritonOracle, which removes both files
    diag_path = os.environ["SUITE_ORACLE_DIAG"]
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        with open(path, "w") as f:
            f.write(req["text"])
        sys.stderr.flush()
        saved = os.dup(2)
        dfd = os.open(diag_path, os.O_WRONLY | os.O_TRUNC)
        os.dup2(dfd, 2)
        os.close(dfd)
        try:
            ctx = unreg if req["unreg"] else plain
            module = lt.ir.parse_mlir_module(path, ctx)
            if req.get("passes"):
                module.context = ctx
                pm = lt.ir.pass_manager(ctx)
                for name, opts in req["passes"]:
                    _add_pass(lt, pm, name, opts)
                pm.run(module, "suite")
            reply = {"ok": True, "printed": module.str_nodebug()}
        except (RuntimeError, KeyError) as e:
            reply = {"ok": False, "printed": None}
            if isinstance(e, KeyError):
                sys.stderr.write(f"no Triton binding for pass {e}\n")
                sys.stderr.flush()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        if not reply["ok"]:
            with open(diag_path) as f:
                reply["diag"] = f.read()
        reply["unreg_supported"] = unreg_ok
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    sys.stdout.flush()
    os._exit(0)  # skip teardown: nanobind's leak report and slow MLIR context destruction


if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:] == ["--serve"]:
        _serve()
