"""What Triton 3.9 emits for each conversion case (the Triton side of issue #4's benchmark).

For a :class:`~convert_cases.ConvertCase`, :func:`triton_convert_counts` compiles the
Gluon kernel ::

    x = load(in_ptr + offsets(shape, src))     # x in layout src
    y = convert_layout(x, dst)
    store(out_ptr + offsets(shape, dst), y)

for ``GPUTarget("cuda", 90, 32)`` entirely on the CPU (``triton.compile`` of a
``GluonASTSource``; ptxas assembles the PTX, no driver or GPU is used) and counts
the static PTX instructions that implement the conversion:

* ``st_shared`` / ``ld_shared``: ``st.shared*`` / ``ld.shared*`` (not the matrix forms),
* ``stmatrix`` / ``ldmatrix``: ``stmatrix*`` / ``ldmatrix*``,
* ``shfl``: ``shfl.sync*``,
* ``bar_sync``: CTA barriers (``bar.sync``, ``barrier.sync``, with ``.aligned`` /
  ``.cta`` variants); ``bar_warp_sync``: ``bar.warp.sync`` counted apart,
* ``scratch_bytes``: the kernel's shared memory size (``metadata.shared``).

Loads, stores and index arithmetic touch no shared memory and use no shuffle or
barrier, so these counts are the conversion's alone.  Counts are static (one per
PTX line; Triton fully unrolls a conversion, so there are no loops).

Compiled with ``TRITON_DISABLE_LINE_INFO`` semantics (knob set for the call only),
so the PTX has no ``.loc`` lines and the TTGIR's locations are ``loc(unknown)`` plus
argument names; :func:`strip_paths` still cuts any absolute path as a safeguard.

Results are cached under ``benchmarks/.cache/triton_convert/`` keyed by a hash of the
case, the Triton version and this harness's kernel source.

``python benchmarks/triton_convert.py`` prints the table of all cases.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import inspect
import json
import os
import re
import sys
import tempfile
import time
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

# Imported as a top-level module (xdsl installs a package named ``benchmarks``).
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
from convert_cases import CASES, ConvertCase  # noqa: E402

CACHE_DIR = Path(__file__).resolve().parent / ".cache" / "triton_convert"
HARNESS_REVISION = 1
"""Bumped when the counting or the kernel changes meaning (invalidates the cache)."""

TARGET_ARCH = 90
THREADS_PER_WARP = 32

_POINTER_TYPES: dict[str, str] = {
    "f16": "*fp16", "bf16": "*bf16", "f32": "*fp32", "i8": "*i8", "i16": "*i16", "i32": "*i32",
    "i64": "*i64", "fp8e5": "*fp8e5", "fp8e4nv": "*fp8e4nv",
}


@dataclass(frozen=True)
class TritonCounts:
    """Static PTX instruction counts of one compiled conversion kernel."""

    st_shared: int
    ld_shared: int
    stmatrix: int
    ldmatrix: int
    shfl: int
    bar_sync: int
    scratch_bytes: int
    ptx: str = field(repr=False)
    ttgir: str = field(repr=False)
    bar_warp_sync: int = 0
    has_convert: bool = True
    """False when Triton folded the ``convert_layout`` away before TTGIR."""
    compile_s: float = field(default=0.0, compare=False)
    """Wall time of the (uncached) compile that produced these counts."""


# --------------------------------------------------------------------------------------
# PTX counting
# --------------------------------------------------------------------------------------
_PREDICATE = re.compile(r"^@!?%\w+\s+")


def ptx_mnemonics(ptx: str) -> list[str]:
    """The instruction mnemonics of ``ptx``, one per instruction line, in order.

    Skips comments, directives (``.reg``, ``.loc`` ...), labels and braces; strips a
    guard predicate (``@%p1`` / ``@!%p1``).
    """
    out: list[str] = []
    for raw in ptx.splitlines():
        line = raw.split("//", 1)[0].strip()
        if not line or line[0] in ".{}$" or line.endswith(":"):
            continue
        line = _PREDICATE.sub("", line)
        mnemonic = line.split(None, 1)[0].rstrip(";")
        if mnemonic and mnemonic[0].isalpha():
            out.append(mnemonic)
    return out


def _is_st_shared(m: str) -> bool:
    parts = m.split(".")
    return parts[0] == "st" and "shared" in [p.split("::", 1)[0] for p in parts[1:]]


def _is_ld_shared(m: str) -> bool:
    parts = m.split(".")
    return parts[0] == "ld" and "shared" in [p.split("::", 1)[0] for p in parts[1:]]


def _is_cta_barrier(m: str) -> bool:
    parts = m.split(".")
    return parts[0] in ("bar", "barrier") and "warp" not in parts and ("sync" in parts or parts[1:] == ["cta"])


def count_ptx(ptx: str) -> dict[str, int]:
    """Counts of the conversion-relevant instructions in ``ptx`` (see the module doc)."""
    ms = ptx_mnemonics(ptx)
    return {
        "st_shared": sum(_is_st_shared(m) for m in ms),
        "ld_shared": sum(_is_ld_shared(m) for m in ms),
        "stmatrix": sum(m.startswith("stmatrix") for m in ms),
        "ldmatrix": sum(m.startswith("ldmatrix") for m in ms),
        "shfl": sum(m.startswith("shfl.sync") for m in ms),
        "bar_sync": sum(_is_cta_barrier(m) for m in ms),
        "bar_warp_sync": sum(m.startswith("bar.warp.sync") for m in ms),
    }


# --------------------------------------------------------------------------------------
# the kernels and the Gluon layout objects
# --------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _kernels() -> dict[int, Any]:
    """The rank-1 and rank-2 Gluon kernels (built lazily: importing Triton is slow)."""
    # Triton's bindings report "leaked" objects at interpreter exit; hide that noise.
    atexit.register(_silence_stderr)
    from triton.experimental import gluon
    from triton.experimental.gluon import language as ttgl

    @gluon.jit
    def convert_1d(in_ptr, out_ptr, N: ttgl.constexpr, SRC: ttgl.constexpr, DST: ttgl.constexpr):
        x = ttgl.load(in_ptr + ttgl.arange(0, N, layout=SRC))
        y = ttgl.convert_layout(x, DST)
        ttgl.store(out_ptr + ttgl.arange(0, N, layout=DST), y)

    @gluon.jit
    def convert_2d(in_ptr, out_ptr, M: ttgl.constexpr, N: ttgl.constexpr, SRC: ttgl.constexpr,
                   DST: ttgl.constexpr):
        src_rows = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, SRC))
        src_cols = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, SRC))
        x = ttgl.load(in_ptr + src_rows[:, None] * N + src_cols[None, :])
        y = ttgl.convert_layout(x, DST)
        dst_rows = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, DST))
        dst_cols = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, DST))
        ttgl.store(out_ptr + dst_rows[:, None] * N + dst_cols[None, :], y)

    return {1: convert_1d, 2: convert_2d}


def _silence_stderr() -> None:
    """Point fd 2 at /dev/null (run at exit, after everything else was printed)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)


def _kernel(rank: int) -> Any:
    kernels = _kernels()
    if rank not in kernels:
        raise ValueError(f"only rank 1 and 2 conversions are benchmarked, got rank {rank}")
    return kernels[rank]


def gluon_layout(attr: str) -> Any:
    """The Gluon layout object for a distributed layout's attribute text.

    Fields map one to one (ltc's parsed encoding -> ``ttgl``):
    blocked -> ``BlockedLayout(size_per_thread, threads_per_warp, warps_per_cta, order, cga_layout)``;
    nvidia_mma -> ``NVMMADistributedLayout(version=[major, minor], warps_per_cta, instr_shape, cga_layout)``;
    dot_op -> ``DotOperandLayout(operand_index, parent, k_width)``;
    slice -> ``SliceLayout(dim, parent)``;
    linear -> ``DistributedLinearLayout(reg_bases, lane_bases, warp_bases, block_bases, shape)`` where
    ``shape`` is the layout's own extent (2 ** number of non-zero bases along each dim).
    """
    import ltc
    from ltc.encodings.blocked import BlockedEncoding
    from ltc.encodings.dot_operand import DotOperandEncoding
    from ltc.encodings.linear import LinearEncoding
    from ltc.encodings.nvidia_mma import NvidiaMmaEncoding
    from ltc.encodings.slice import SliceEncoding
    from triton.experimental.gluon import language as ttgl

    def lists(bases: Any) -> list[list[int]]:
        return [list(map(int, b)) for b in bases]

    def build(enc: Any) -> Any:
        if isinstance(enc, BlockedEncoding):
            return ttgl.BlockedLayout(
                size_per_thread=list(enc.size_per_thread),
                threads_per_warp=list(enc.threads_per_warp),
                warps_per_cta=list(enc.warps_per_cta),
                order=list(enc.order),
                cga_layout=lists(enc.cga.block_bases),
            )
        if isinstance(enc, NvidiaMmaEncoding):
            return ttgl.NVMMADistributedLayout(
                version=[enc.version_major, enc.version_minor],
                warps_per_cta=list(enc.warps_per_cta),
                instr_shape=list(enc.instr_shape),
                cga_layout=lists(enc.cga.block_bases),
            )
        if isinstance(enc, DotOperandEncoding):
            return ttgl.DotOperandLayout(operand_index=enc.op_idx, parent=build(enc.parent), k_width=enc.k_width)
        if isinstance(enc, SliceEncoding):
            return ttgl.SliceLayout(dim=enc.dim, parent=build(enc.parent))
        if isinstance(enc, LinearEncoding):
            rank = enc.rank
            extent = [1] * rank
            for bases in enc.bases_by_in_dim.values():
                for b in bases:
                    for d, v in enumerate(b):
                        if v:
                            extent[d] *= 2
            return ttgl.DistributedLinearLayout(
                reg_bases=lists(enc.register_bases),
                lane_bases=lists(enc.lane_bases),
                warp_bases=lists(enc.warp_bases),
                block_bases=lists(enc.block_bases),
                shape=extent,
            )
        raise ValueError(f"no Gluon layout for {enc.to_text()}")

    return build(ltc.parse_encoding(attr))


# --------------------------------------------------------------------------------------
# TTGIR helpers
# --------------------------------------------------------------------------------------
_ALIAS_DEF = re.compile(r"^(#[\w.$-]+) = (.*)$", re.M)
_LOC_PATH = re.compile(r'"(/[^"]*/)([^"/]*)"')


def strip_paths(text: str) -> str:
    """``text`` with every quoted absolute path cut to its file name (locations, ``.file``)."""
    return _LOC_PATH.sub(lambda m: f'"{m.group(2)}"', text)


def expand_aliases(ttgir: str) -> str:
    """``ttgir``'s op lines with attribute aliases (``#blocked1``) replaced by their text."""
    aliases = {m.group(1): m.group(2) for m in _ALIAS_DEF.finditer(ttgir) if not m.group(1).startswith("#loc")}
    body = "\n".join(line for line in ttgir.splitlines() if not _ALIAS_DEF.match(line))
    if not aliases:
        return body
    pattern = re.compile("|".join(re.escape(a) + r"(?![\w.$-])" for a in sorted(aliases, key=len, reverse=True)))
    for _ in range(4):  # aliases may refer to aliases (a slice's parent)
        body = pattern.sub(lambda m: aliases[m.group(0)], body)
    return body


def convert_layouts(ttgir: str) -> list[tuple[str, str]]:
    """(source, result) layout texts of every ``ttg.convert_layout`` in ``ttgir``."""
    out = []
    for line in expand_aliases(ttgir).splitlines():
        if "ttg.convert_layout" not in line:
            continue
        sig = line.split(" : ", 1)[1].rsplit(" loc(", 1)[0].strip()
        src_ty, dst_ty = sig.split(" -> ")
        out.append((_tensor_encoding(src_ty), _tensor_encoding(dst_ty)))
    return out


def _tensor_encoding(ty: str) -> str:
    if not (ty.startswith("tensor<") and ty.endswith(">")):
        raise ValueError(f"not a tensor type: {ty!r}")
    return ty[len("tensor<"):-1].split(", ", 1)[1]


# --------------------------------------------------------------------------------------
# compiling and caching
# --------------------------------------------------------------------------------------
def _triton_version() -> str:
    from importlib.metadata import version

    return version("triton")


def cache_key(case: ConvertCase) -> str:
    """sha256 of the case, the Triton version and this harness's kernel source."""
    payload = json.dumps(
        {
            "case": asdict(case),
            "triton": _triton_version(),
            "harness": HARNESS_REVISION,
            "kernels": inspect.getsource(_kernels),
            "arch": TARGET_ARCH,
        },
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:32]


def compile_case(case: ConvertCase) -> Any:
    """Compile ``case``'s kernel for sm_90 on the CPU; returns Triton's ``CompiledKernel``."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource

    rank = len(case.shape)
    kernel = _kernel(rank)
    src, dst = gluon_layout(case.src), gluon_layout(case.dst)
    dims = dict(zip(("M", "N"), case.shape)) if rank == 2 else {"N": case.shape[0]}
    constexprs = {**dims, "SRC": src, "DST": dst}
    ptr = _POINTER_TYPES[case.dtype]
    signature = {"in_ptr": ptr, "out_ptr": ptr, **{k: "constexpr" for k in constexprs}}
    aligned = [["tt.divisibility", 16]]
    source = GluonASTSource(kernel, signature, constexprs=constexprs, attrs={(0,): aligned, (1,): aligned})
    with triton.knobs.compilation.scope(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # TRITON_DEFAULT_FP_FUSION notice
        triton.knobs.compilation.always_compile = True
        triton.knobs.compilation.disable_line_info = True
        return triton.compile(
            source,
            target=GPUTarget("cuda", TARGET_ARCH, THREADS_PER_WARP),
            options={"num_warps": case.num_warps},
        )


def _compile_counts(case: ConvertCase) -> TritonCounts:
    start = time.perf_counter()
    kernel = compile_case(case)
    seconds = time.perf_counter() - start
    ttgir = strip_paths(kernel.asm["ttgir"])
    ptx = strip_paths(kernel.asm["ptx"])
    converts = convert_layouts(ttgir)
    if len(converts) > 1:
        raise RuntimeError(f"{case.name}: expected at most one convert_layout, got {len(converts)}")
    if converts and converts[0] != (case.src, case.dst):
        raise RuntimeError(
            f"{case.name}: Triton printed the conversion as {converts[0]}, not as the case's texts"
        )
    if not converts and case.src != case.dst:
        raise RuntimeError(f"{case.name}: Triton dropped a conversion between different layout texts")
    return TritonCounts(
        **count_ptx(ptx),
        scratch_bytes=int(kernel.metadata.shared),
        ptx=ptx,
        ttgir=ttgir,
        has_convert=bool(converts),
        compile_s=seconds,
    )


def _cache_path(case: ConvertCase) -> Path:
    return CACHE_DIR / f"{case.name}-{cache_key(case)}.json"


def triton_convert_counts(case: ConvertCase, *, use_cache: bool = True) -> TritonCounts:
    """Triton 3.9's static PTX counts for ``case`` (compiled once, then read from disk)."""
    path = _cache_path(case)
    if use_cache and path.is_file():
        return TritonCounts(**json.loads(path.read_text()))
    counts = _compile_counts(case)
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=CACHE_DIR, prefix=".tmp-", suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump(asdict(counts), f)
    os.replace(tmp, path)  # atomic: concurrent runs never see half a file
    return counts


def kernel_ttgir(case: ConvertCase) -> str:
    """The TTGIR Triton produced for ``case``'s kernel (``asm['ttgir']``, paths stripped)."""
    return triton_convert_counts(case).ttgir


# --------------------------------------------------------------------------------------
# the table
# --------------------------------------------------------------------------------------
COLUMNS: tuple[str, ...] = (
    "st_shared", "ld_shared", "stmatrix", "ldmatrix", "shfl", "bar_sync", "bar_warp_sync", "scratch_bytes",
)
_HEADERS = {"st_shared": "st.sh", "ld_shared": "ld.sh", "stmatrix": "stmat", "ldmatrix": "ldmat",
            "shfl": "shfl", "bar_sync": "bar", "bar_warp_sync": "wbar", "scratch_bytes": "smem_B"}


def format_table(rows: list[tuple[ConvertCase, TritonCounts]], *, times: bool = False) -> str:
    width = max(len(c.name) for c, _ in rows)
    head = f"{'case':<{width}}  {'category':<20}" + "".join(f" {_HEADERS[k]:>6}" for k in COLUMNS)
    head += "  cvt" + ("  compile_s" if times else "")
    lines = [head, "-" * len(head)]
    for case, counts in rows:
        line = f"{case.name:<{width}}  {case.category:<20}" + "".join(f" {getattr(counts, k):>6}" for k in COLUMNS)
        line += "  " + ("yes" if counts.has_convert else " no")
        if times:
            line += f"  {counts.compile_s:9.2f}"
        lines.append(line)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("names", nargs="*", help="case names (default: all)")
    parser.add_argument("--no-cache", action="store_true", help="recompile even when cached")
    parser.add_argument("--times", action="store_true", help="show each case's compile time")
    args = parser.parse_args(argv)
    cases = [c for c in CASES if not args.names or c.name in args.names]
    rows = [(case, triton_convert_counts(case, use_cache=not args.no_cache)) for case in cases]
    print(format_table(rows, times=args.times))
    return 0


if __name__ == "__main__":
    sys.exit(main())
