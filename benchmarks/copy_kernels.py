"""Copy kernels of ``[rows, k]`` tensors: the global load/store width benchmark (paper Table 2).

The kernel (Triton source) is ::

    offs = arange(0, ROWS)[:, None] * K + arange(0, K)[None, :]
    x = load(in_ptr + offs)
    store(out_ptr + offs, x)

with both pointers ``tt.divisibility = 16``.  ``arange`` needs a power-of-two extent, so
``rows`` and ``k`` are powers of two; :data:`K_VALUES` are the ``k`` in 1..16 that exist.

* :func:`copy_kernel_ttir` prints the TTIR Triton 3.9 prints for it (a text template;
  ``tests/test_copy_kernels.py`` checks it against Triton's own output).
* :func:`triton_copy_kernel` / :func:`triton_copy_widths`: what Triton 3.9 makes of it for
  ``GPUTarget("cuda", 90, 32)`` on the CPU (TTIR, TTGIR, PTX; the PTX's ``ld/st.global``
  shapes), cached under ``benchmarks/.cache/triton_copy/``.
* :data:`PAPER_TABLE2`: the target width per ``(k, dtype)`` — see its doc for where the
  numbers come from.
* :func:`simulate_copy` runs a copy kernel's PTX (any kernel whose first two pointer
  parameters are ``in`` / ``out`` and that copies ``in`` to ``out``) in ltc's PTX simulator on
  random input and says whether ``out == in``.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import os
import re
import sys
import tempfile
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

# Imported as a top-level module (xdsl installs a package named ``benchmarks``).
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
from sass_stats import ptx_counts, ptx_global_bits  # noqa: E402

ROWS = 512
K_VALUES: tuple[int, ...] = (1, 2, 4, 8, 16)
"""The ``k`` in 1..16 that Triton can express (``arange`` extents are powers of two)."""

PAPER_DTYPES: dict[str, str] = {"f8": "fp8e4nv", "f16": "f16"}
"""The paper's element types -> the dtype names used here (any 8-bit type gives the same widths)."""

CACHE_DIR = Path(__file__).resolve().parent / ".cache" / "triton_copy"
HARNESS_REVISION = 1
"""Bumped when the kernel or what is cached changes meaning (invalidates the cache)."""

TARGET_ARCH = 90
THREADS_PER_WARP = 32
MAX_ACCESS_BITS = 128
"""Widest ``ld/st.global`` on sm_90 (``.v4.b32``); 256-bit accesses need sm_100."""

# dtype -> (element type in TTIR, Triton signature type, bytes)
_ELEMENTS: dict[str, tuple[str, str, int]] = {
    "f16": ("f16", "*fp16", 2),
    "bf16": ("bf16", "*bf16", 2),
    "f32": ("f32", "*fp32", 4),
    "i8": ("i8", "*i8", 1),
    "i16": ("i16", "*i16", 2),
    "i32": ("i32", "*i32", 4),
    "i64": ("i64", "*i64", 8),
    "fp8e5": ("f8E5M2", "*fp8e5", 1),
    "fp8e4nv": ("f8E4M3FN", "*fp8e4nv", 1),
}


def _element(dtype: str) -> tuple[str, str, int]:
    name = PAPER_DTYPES.get(dtype, dtype)
    if name not in _ELEMENTS:
        raise ValueError(f"unknown dtype {dtype!r}; expected one of {', '.join([*PAPER_DTYPES, *_ELEMENTS])}")
    return _ELEMENTS[name]


def element_bytes(dtype: str) -> int:
    """Bytes per element of ``dtype`` (``"f8"`` / ``"f16"`` or a name of ``convert_cases.DTYPES``)."""
    return _element(dtype)[2]


def _check_power_of_two(what: str, n: int) -> None:
    if n < 1 or n & (n - 1):
        raise ValueError(f"{what} must be a power of two, got {n}")


# --------------------------------------------------------------------------------------
# the TTIR template
# --------------------------------------------------------------------------------------
def copy_kernel_ttir(rows: int, k: int, dtype: str, num_warps: int = 4) -> str:
    """The TTIR Triton 3.9 prints for the copy kernel of a ``[rows, k]`` tensor of ``dtype``.

    Printed without line info (``loc(unknown)`` plus the argument names), as
    ``triton.compile`` prints ``asm["ttir"]`` with line info disabled.  For ``k == 1`` Triton
    folds ``* 1``, the ``arange(0, 1)`` and its broadcast away.  TTIR records no warp count
    (``num_warps`` is a compile option), so the text is the same for every ``num_warps``; the
    argument only documents (and checks) what the caller compiles it with.
    """
    _check_power_of_two("rows", rows)
    _check_power_of_two("k", k)
    _check_power_of_two("num_warps", num_warps)
    elem = _element(dtype)[0]
    ptr = f"!tt.ptr<{elem}>"
    arg = f"{ptr} {{tt.divisibility = 16 : i32}}"
    col, full, ptrs = f"tensor<{rows}x1xi32>", f"tensor<{rows}x{k}xi32>", f"tensor<{rows}x{k}x{ptr}>"
    lines = [
        '#loc1 = loc("in_ptr")',
        '#loc2 = loc("out_ptr")',
        "module {",
        f'  tt.func public @copy_kernel(%in_ptr: {arg} loc("in_ptr"), %out_ptr: {arg} loc("out_ptr"))'
        " attributes {noinline = false} {",
    ]
    body: list[str] = []
    if k == 1:
        body += [
            f"%0 = tt.make_range {{end = {rows} : i32, start = 0 : i32}} : tensor<{rows}xi32>",
            f"%1 = tt.expand_dims %0 {{axis = 1 : i32}} : tensor<{rows}xi32> -> {col}",
        ]
        offs, n = "%1", 2
    else:
        body += [
            f"%cst = arith.constant dense<{k}> : {col}",
            f"%0 = tt.make_range {{end = {rows} : i32, start = 0 : i32}} : tensor<{rows}xi32>",
            f"%1 = tt.expand_dims %0 {{axis = 1 : i32}} : tensor<{rows}xi32> -> {col}",
            f"%2 = arith.muli %1, %cst : {col}",
            f"%3 = tt.make_range {{end = {k} : i32, start = 0 : i32}} : tensor<{k}xi32>",
            f"%4 = tt.expand_dims %3 {{axis = 0 : i32}} : tensor<{k}xi32> -> tensor<1x{k}xi32>",
            f"%5 = tt.broadcast %2 : {col} -> {full}",
            f"%6 = tt.broadcast %4 : tensor<1x{k}xi32> -> {full}",
            f"%7 = arith.addi %5, %6 : {full}",
        ]
        offs, n = "%7", 8
    body += [
        f"%{n} = tt.splat %in_ptr : {ptr} -> {ptrs}",
        f"%{n + 1} = tt.addptr %{n}, {offs} : {ptrs}, {full}",
        f"%{n + 2} = tt.load %{n + 1} : {ptrs}",
        f"%{n + 3} = tt.splat %out_ptr : {ptr} -> {ptrs}",
        f"%{n + 4} = tt.addptr %{n + 3}, {offs} : {ptrs}, {full}",
        f"tt.store %{n + 4}, %{n + 2} : {ptrs}",
        "tt.return",
    ]
    lines += [f"    {op} loc(#loc)" for op in body]
    lines += ["  } loc(#loc)", "} loc(#loc)", "#loc = loc(unknown)", ""]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------
# the target widths
# --------------------------------------------------------------------------------------
def best_copy_width(rows: int, k: int, element_bits: int, num_warps: int = 4) -> str:
    """The widest ``ld/st.global`` shape a copy of a contiguous ``[rows, k]`` tensor can use.

    The tensor is ``rows * k`` contiguous elements (row stride ``k``), 16-byte aligned.  A
    layout that gives each of the ``32 * num_warps`` threads runs of consecutive elements
    (register bases first along dim 1, then along dim 0; the rows are adjacent in memory) lets
    a thread move ``rows * k / threads`` elements contiguously, and every run starts at a
    multiple of its size, so the width is ``min(rows * k / threads * bits, 128)`` bits.  Shape:
    32-bit words ``vN.b32`` (``b32`` for one word), or ``bB`` below 32 bits.
    """
    threads = THREADS_PER_WARP * num_warps
    per_thread_bits = max(rows * k // threads, 1) * element_bits
    bits = min(per_thread_bits, MAX_ACCESS_BITS)
    if bits < 32:
        return f"b{bits}"
    words = bits // 32
    return "b32" if words == 1 else f"v{words}.b32"


PAPER_TABLE2: dict[tuple[int, str], str] = {
    (1, "f8"): "b32", (2, "f8"): "v2.b32", (4, "f8"): "v4.b32", (8, "f8"): "v4.b32", (16, "f8"): "v4.b32",
    (1, "f16"): "v2.b32", (2, "f16"): "v4.b32", (4, "f16"): "v4.b32", (8, "f16"): "v4.b32",
    (16, "f16"): "v4.b32",
}
"""Target ``ld/st.global`` shape per ``(k, dtype)`` for the ``[512, k]`` copy, 4 warps.

NOT transcribed from the paper: the text of Table 2 of Zhou et al. 2025 (arXiv 2505.23819)
could not be found in the stored sources searched (only a secondary summary saying that on
the load/store-contiguity micro-benchmark linear layouts widen accesses "up to 7x").  These
are the widths derived from first principles by :func:`best_copy_width` (512 * k elements over
128 threads = 4k elements per thread, capped at 128 bits): f8 gives 32/64/128 bits for
k = 1/2/>=4, f16 gives 64/128 bits for k = 1/>=2.  Widths linear layouts reach can be no
wider than these, so they are the bar ltc must meet.
"""


# --------------------------------------------------------------------------------------
# Triton's side (compiled on the CPU, cached)
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TritonCopy:
    """What Triton 3.9 made of one copy kernel (texts with absolute paths stripped)."""

    ttir: str
    ttgir: str
    ptx: str


@dataclass(frozen=True)
class CopyWidths:
    """``ld.global`` / ``st.global`` shapes of a PTX, as sorted ``(shape, count)`` pairs."""

    loads: tuple[tuple[str, int], ...]
    stores: tuple[tuple[str, int], ...]

    @property
    def narrowest_bits(self) -> int:
        """Bits of the narrowest global access (0 when there is none)."""
        shapes = [s for s, _ in self.loads + self.stores]
        return min((ptx_global_bits(s) for s in shapes), default=0)


def copy_widths(ptx: str) -> CopyWidths:
    counts = ptx_counts(ptx)
    return CopyWidths(counts.global_loads, counts.global_stores)


@functools.lru_cache(maxsize=None)
def _kernel() -> Any:
    """The Triton kernel (built lazily: importing Triton is slow)."""
    import triton
    import triton.language as tl

    @triton.jit
    def copy_kernel(in_ptr, out_ptr, ROWS: tl.constexpr, K: tl.constexpr):
        offs = tl.arange(0, ROWS)[:, None] * K + tl.arange(0, K)[None, :]
        x = tl.load(in_ptr + offs)
        tl.store(out_ptr + offs, x)

    return copy_kernel


def _triton_version() -> str:
    from importlib.metadata import version

    return version("triton")


def _cache_path(rows: int, k: int, dtype: str, num_warps: int) -> Path:
    payload = json.dumps(
        {
            "rows": rows, "k": k, "dtype": PAPER_DTYPES.get(dtype, dtype), "num_warps": num_warps,
            "triton": _triton_version(), "harness": HARNESS_REVISION,
            "kernel": inspect.getsource(_kernel), "arch": TARGET_ARCH,
        },
        sort_keys=True,
    )
    key = hashlib.sha256(payload.encode()).hexdigest()[:32]
    return CACHE_DIR / f"copy_{rows}x{k}_{PAPER_DTYPES.get(dtype, dtype)}_w{num_warps}-{key}.json"


def _compile(rows: int, k: int, dtype: str, num_warps: int) -> TritonCopy:
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import ASTSource

    from triton_convert import strip_paths

    ptr = _element(dtype)[1]
    aligned = [["tt.divisibility", 16]]
    source = ASTSource(
        _kernel(),
        {"in_ptr": ptr, "out_ptr": ptr, "ROWS": "constexpr", "K": "constexpr"},
        constexprs={"ROWS": rows, "K": k},
        attrs={(0,): aligned, (1,): aligned},
    )
    with triton.knobs.compilation.scope(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # TRITON_DEFAULT_FP_FUSION notice
        triton.knobs.compilation.always_compile = True
        triton.knobs.compilation.disable_line_info = True
        compiled = triton.compile(
            source, target=GPUTarget("cuda", TARGET_ARCH, THREADS_PER_WARP), options={"num_warps": num_warps}
        )
    return TritonCopy(*(strip_paths(compiled.asm[s]) for s in ("ttir", "ttgir", "ptx")))


def triton_copy_kernel(rows: int, k: int, dtype: str, num_warps: int = 4, *, use_cache: bool = True) -> TritonCopy:
    """Triton 3.9's TTIR / TTGIR / PTX of the copy kernel (compiled once, then read from disk)."""
    _check_power_of_two("rows", rows)
    _check_power_of_two("k", k)
    path = _cache_path(rows, k, dtype, num_warps)
    if use_cache and path.is_file():
        return TritonCopy(**json.loads(path.read_text()))
    result = _compile(rows, k, dtype, num_warps)
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=CACHE_DIR, prefix=".tmp-", suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump(asdict(result), f)
    os.replace(tmp, path)  # atomic: concurrent runs never see half a file
    return result


def triton_copy_widths(k: int, dtype: str, rows: int = ROWS, num_warps: int = 4) -> CopyWidths:
    """The ``ld/st.global`` shapes in Triton 3.9's PTX for the ``[rows, k]`` copy."""
    return copy_widths(triton_copy_kernel(rows, k, dtype, num_warps).ptx)


# --------------------------------------------------------------------------------------
# running a copy kernel in ltc's simulator
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CopyRun:
    """One simulated run of a copy kernel on random input."""

    ok: bool
    """``out == in`` element for element."""
    mismatches: int
    stats: Any
    """The simulator's ``PtxStats``."""


_ENTRY_PARAMS = re.compile(r"\.entry\s+[\w$]+\s*\(([^)]*)\)", re.S)
_PARAM = re.compile(r"\.param\s+\.(\w+)")


def entry_param_types(ptx: str) -> list[str]:
    """The ``.param`` types (``u64``, ``u32`` ...) of the first ``.entry`` in ``ptx``."""
    m = _ENTRY_PARAMS.search(ptx)
    if not m:
        raise ValueError("no .entry in the PTX")
    return _PARAM.findall(m.group(1))


def simulate_copy(ptx: str, num_elements: int, element_size: int, *, seed: int = 0) -> CopyRun:
    """Run ``ptx`` for one CTA with ``in`` = random bits and check that ``out == in``.

    The first two parameters are ``in`` and ``out`` (``num_elements`` elements of
    ``element_size`` bytes; ``out`` starts as the bitwise complement of ``in`` so an element
    never written fails).  Further 64-bit parameters (Triton's global / profile scratch
    pointers) get a small zeroed array; other parameters 0.
    """
    import numpy as np

    from ltc.lowering.ptxsim.run import simulate_ptx

    dtype = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[element_size]
    rng = np.random.default_rng(seed)
    src = rng.integers(0, 256, size=num_elements * element_size, dtype=np.uint8).view(dtype)
    dst = ~src
    params = entry_param_types(ptx)
    if len(params) < 2:
        raise ValueError(f"a copy kernel needs in and out pointers, the PTX has {len(params)} parameters")
    extra = [np.zeros(64, dtype=np.uint8) if t in ("u64", "b64", "s64") else 0 for t in params[2:]]
    stats = simulate_ptx(ptx, (1, 1, 1), [src, dst, *extra])
    mismatches = int(np.count_nonzero(dst != src))
    return CopyRun(ok=mismatches == 0, mismatches=mismatches, stats=stats)
