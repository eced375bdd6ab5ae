"""ltc's PTX and Triton 3.9's PTX run side by side on a real GPU: exact results, time, wavefronts.

Three steps, so that the machine with the GPU needs neither ltc, xDSL nor Triton 3.9::

    python benchmarks/gpu_run.py prepare [--out DIR] [--cases SUBSTR] [--parts ...]   # here, no GPU
    python benchmarks/gpu_run.py run DIR --out RESULTS_DIR [--ncu]      # there: numpy + cupy
    python benchmarks/gpu_run.py report RESULTS_DIR/results.json        # anywhere

``prepare`` writes a bundle (default ``benchmarks/.cache/gpu_bundle``): for every kernel, the
PTX ltc emits and the PTX Triton 3.9 emits for the same kernel, both assembled here by the
same ``ptxas`` for sm_90 / sm_90a, and ``manifest.json`` saying how to launch and check them.
The kernels:

* every conversion case of ``convert_cases.py`` (``load (src) -> convert_layout -> store
  (dst)`` of one tile): ltc compiles the TTGIR Triton printed for it.  Check: ``out == in``
  bit for bit (``out`` starts as the complement of ``in``).  Times: one CTA (latency) and
  :data:`THROUGHPUT_CTAS` CTAs that all convert the same tile (the kernel reads no program
  id, so every CTA writes the same values; throughput).  Also the shared-memory wavefronts
  our PTX simulator counts for one CTA, for ``--ncu`` to compare with the hardware counter;
* the example kernels of ``examples/triton`` that ltc lowers (vector add, softmax, layer
  norm, transpose), each as Triton's PTX, ltc's PTX of Triton's TTGIR (``ltc-ttgir``: the same
  layouts, ltc's code generation) and ltc's PTX of the TTIR (``ltc-ttir``: ltc's layouts
  too), on large inputs.  Check: numpy's result within the tolerance the unit tests use.
  Each also as Triton 3.9 compiles it with ``ltc.triton.install("layouts")`` (ltc's layouts,
  Triton's code generation: ``ltc-layouts-in-triton``) and with ``install("codegen")``
  (``ltc-in-triton``). The matmul and attention kernels (tensor cores, which ltc does not
  lower) run as Triton alone and Triton with ltc's layouts;
* ``math``: f32 functions on 4M inputs (accuracy in ulps against float64), Triton's PTX
  beside ltc's;
* ``probes``: one-warp shared-memory probes for the bank model (run under ``--ncu`` only);
* ``corpus`` (only when named: it compiles ~800 kernels three ways; ``--jobs``): every
  sm_90 corpus variant as Triton alone, Triton with ltc's layouts and ltc's own PTX, run for
  one program on the same seeded arguments; every array compared with what Triton's cubin
  left on the same GPU (``gpu_corpus.py``).

``run`` executes the bundle: each kernel once for the check, then timed with CUDA events
(median of :data:`REPEATS` batches of :data:`BATCH` launches after warm-up).  It runs the
kernels in a child process and restarts it after a crash (a faulting kernel poisons its
CUDA context), recording the crash as that kernel's result.  ``--ncu`` also runs every
conversion kernel once for one CTA under Nsight Compute and reads the shared-memory
wavefronts (``l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st.sum``).

``report`` prints the tables (markdown) and exits 1 when a kernel failed its check.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import gpu_corpus  # noqa: E402  (numpy only at import)
DEFAULT_BUNDLE = HERE / ".cache" / "gpu_bundle"

THROUGHPUT_CTAS = 132 * 16
"""CTAs of the throughput launch of a conversion kernel (16 per SM of an H100 / H200)."""
WARMUP, BATCH, REPEATS = 5, 20, 7
NCU_METRICS = (
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
)

# ----------------------------------------------------------------------------------------
# prepare (here: ltc, Triton 3.9, ptxas)
# ----------------------------------------------------------------------------------------

EXAMPLES: dict[str, dict[str, Any]] = {
    # name: launch geometry and arguments, in the kernel's parameter order
    "vector_add": {"num_warps": 4, "grid": [16385, 1, 1], "args": [
        {"array": "float32", "shape": [16 * 2**20 + 7], "init": "randn"},
        {"array": "float32", "shape": [16 * 2**20 + 7], "init": "randn"},
        {"array": "float32", "shape": [16 * 2**20 + 7], "init": "nan"},
        {"scalar": "int32", "value": 16 * 2**20 + 7}], "outputs": [2]},
    "softmax": {"num_warps": 4, "grid": [8192, 1, 1], "args": [
        {"array": "float32", "shape": [8192, 1024], "init": "zeros"},
        {"array": "float32", "shape": [8192, 1024], "init": "randn"},
        {"scalar": "int32", "value": 1024}, {"scalar": "int32", "value": 1024},
        {"scalar": "int32", "value": 1000}], "outputs": [0]},
    "layer_norm": {"num_warps": 8, "grid": [8192, 1, 1], "args": [
        {"array": "float16", "shape": [8192, 2048], "init": "randn"},
        {"array": "float16", "shape": [8192, 2048], "init": "zeros"},
        {"array": "float32", "shape": [2048], "init": "randn"},
        {"array": "float32", "shape": [2048], "init": "randn"},
        {"scalar": "int32", "value": 2048}, {"scalar": "int32", "value": 1500},
        {"scalar": "float32", "value": 1e-5}], "outputs": [1]},
    "transpose": {"num_warps": 4, "grid": [64, 64, 1], "args": [
        {"array": "float16", "shape": [4096, 4096], "init": "randn"},
        {"array": "float16", "shape": [4096, 4096], "init": "zeros"},
        {"scalar": "int32", "value": 4096}, {"scalar": "int32", "value": 4096}], "outputs": [1]},
    # Two tensor-core kernels: ltc does not lower tt.dot, so they run as Triton compiles them,
    # alone and with ltc's layouts (install("layouts")).
    "matmul": {"num_warps": 4, "grid": [32, 32, 1], "args": [
        {"array": "float16", "shape": [4096, 4096], "init": "randn"},
        {"array": "float16", "shape": [4096, 4096], "init": "randn"},
        {"array": "float16", "shape": [4096, 4096], "init": "zeros"},
        *({"scalar": "int32", "value": v} for v in (4096, 4096, 4096, 4096, 1, 4096, 1, 4096, 1))],
        "outputs": [2]},
    "attention_fwd": {"num_warps": 4, "grid": [64, 1, 1], "args": [
        {"array": "float16", "shape": [8192, 64], "init": "randn"},
        {"array": "float16", "shape": [8192, 64], "init": "randn"},
        {"array": "float16", "shape": [8192, 64], "init": "randn"},
        {"array": "float16", "shape": [8192, 64], "init": "zeros"},
        {"scalar": "int32", "value": 64}, {"scalar": "int32", "value": 8192},
        {"scalar": "float32", "value": 0.18}], "outputs": [3]},
}
"""The example kernels ``run`` launches, and how (their references are in :func:`_reference`)."""

_ENTRY = re.compile(r"\.entry\s+([A-Za-z_$][\w$]*)\s*\(")
_REQNTID = re.compile(r"\.reqntid\s+(\d+)")


def _entry_name(ptx: str) -> str:
    m = _ENTRY.search(ptx)
    if not m:
        raise ValueError("no .entry in the PTX")
    return m.group(1)


def _threads(ptx: str, num_warps: int) -> int:
    m = _REQNTID.search(ptx)
    return int(m.group(1)) if m else 32 * num_warps


def _prepare_imports():  # noqa: ANN202 - the benchmark helpers, imported only to prepare
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(ROOT))
    import bench_codegen
    import convert_cases
    import copy_kernels
    import sass_stats
    import triton_convert

    return bench_codegen, convert_cases, copy_kernels, sass_stats, triton_convert


def _write_impl(out: Path, key: str, ptx: str, sass_stats: Any, arch: str) -> dict[str, Any]:
    (out / f"{key}.ptx").write_text(ptx)
    cubin = sass_stats.assemble(ptx, arch)
    (out / f"{key}.cubin").write_bytes(cubin)
    return {"ptx": f"{key}.ptx", "cubin": f"{key}.cubin", "entry": _entry_name(ptx)}


PARTS = ("cases", "examples", "probes", "math", "corpus")
DEFAULT_PARTS = PARTS[:-1]
"""What ``prepare`` bundles unless told: the corpus part compiles ~800 kernels three ways (long)."""


def prepare(out: Path, cases_filter: str | None, parts: tuple[str, ...] = DEFAULT_PARTS,
            settings: tuple[str, ...] = gpu_corpus.SETTINGS[:2], jobs: int = 1, limit: int = 0) -> int:
    """Write the bundle of ``parts``; returns the number of kernels in it."""
    bench_codegen, convert_cases, copy_kernels, sass_stats, triton_convert = _prepare_imports()
    from ltc.tools.pipeline import compile_kernel

    out.mkdir(parents=True, exist_ok=True)
    for old in out.iterdir():
        old.unlink()
    kernels: list[dict[str, Any]] = []
    for case in convert_cases.CASES if "cases" in parts else ():
        if cases_filter and cases_filter not in case.name:
            continue
        tri = triton_convert.triton_convert_counts(case)
        impls: dict[str, Any] = {}
        elements, size = convert_cases.num_elements(case), case.elem_bits // 8
        for impl, ptx, arch in (("triton", tri.ptx, "sm_90a"),
                                ("ltc", compile_kernel(tri.ttgir, emit="ptx", target="sm_90"), "sm_90")):
            entry = _write_impl(out, f"cvt.{case.name}.{impl}", ptx, sass_stats, arch)
            entry["params"] = copy_kernels.entry_param_types(ptx)
            entry["threads"] = _threads(ptx, case.num_warps)
            entry["shared_bytes"] = (tri.scratch_bytes if impl == "triton" else
                                     bench_codegen.launch_shared_bytes(ptx, tri.ttgir, case.num_warps))
            sim = copy_kernels.simulate_copy(ptx, elements, size)
            entry["sim_ok"] = sim.ok
            entry["sim_ld_wavefronts"] = sim.stats.shared_load_wavefronts
            entry["sim_st_wavefronts"] = sim.stats.shared_store_wavefronts
            impls[impl] = entry
        kernels.append({"name": f"cvt.{case.name}", "kind": "copy", "category": case.category,
                        "elements": elements, "element_bytes": size, "impls": impls})
        print(f"prepared {case.name}", flush=True)
    if not cases_filter and "examples" in parts:
        kernels.extend(_prepare_examples(out, sass_stats, compile_kernel))
    if not cases_filter and "probes" in parts:
        kernels.extend(_prepare_bank_probes(out, sass_stats))
    if not cases_filter and "math" in parts:
        kernels.extend(_prepare_math(out, sass_stats, compile_kernel))
    if not cases_filter and "corpus" in parts:
        kernels.extend(gpu_corpus.prepare_corpus(out, settings, jobs, limit))
    (out / "manifest.json").write_text(json.dumps({"kernels": kernels}, indent=1))
    return len(kernels)


def _prepare_examples(out: Path, sass_stats: Any, compile_kernel: Any) -> list[dict[str, Any]]:
    import bench_codegen

    sys.path.insert(0, str(ROOT / "examples" / "triton"))
    import gen_ir  # sets TRITON_CACHE_DIR / TRITON_HOME before importing triton
    from triton.compiler.compiler import ASTSource

    from ltc.tools.pipeline import PipelineError

    kernels = []
    by_name = {k[0]: k for k in gen_ir.KERNELS}
    for name, spec in EXAMPLES.items():
        _, fn, signature, constexprs, options = by_name[name]
        sig = dict(signature, **{k: "constexpr" for k in constexprs})
        src = ASTSource(fn=fn, signature=sig, constexprs=constexprs, attrs=gen_ir.ATTRS.get(name))
        compiled = _compile_example(src, options)
        ex = ROOT / "examples" / "triton"
        impls = {}
        sources = {"triton": (compiled.asm["ptx"], "sm_90a", None)}
        lowered = True
        for stage in ("ttgir", "ttir"):
            text = (ex / f"{name}.{stage}").read_text()
            try:
                ptx = compile_kernel(text, emit="ptx", target="sm_90", num_warps=spec["num_warps"])
            except PipelineError:  # tensor cores: ltc's layouts run inside Triton only
                lowered = False
                break
            sources[f"ltc-{stage}"] = (ptx, "sm_90", text)
        for impl, (ptx, arch, text) in sources.items():
            entry = _write_impl(out, f"ex.{name}.{impl}", ptx, sass_stats, arch)
            entry["params"] = _params(ptx)
            entry["threads"] = _threads(ptx, spec["num_warps"])
            entry["shared_bytes"] = (int(compiled.metadata.shared) if text is None else
                                     bench_codegen.launch_shared_bytes(ptx, text, spec["num_warps"]))
            impls[impl] = entry
        impls["ltc-layouts-in-triton"] = _inside_triton(out, name, src, options, "layouts", sass_stats)
        if lowered:
            impls["ltc-in-triton"] = _inside_triton(out, name, src, options, "codegen", sass_stats)
        kernels.append({"name": f"ex.{name}", "kind": "example", "example": name, **spec, "impls": impls})
        print(f"prepared example {name}", flush=True)
    return kernels


MATH_FUNCTIONS: dict[str, tuple[str, str]] = {
    # name: (Triton expression of x, input distribution the runner draws)
    "log": ("tl.log(x)", "positive"),
    "log2": ("tl.log2(x)", "positive"),
    "erf": ("tl.math.erf(x)", "erf"),
    "sin": ("tl.sin(x)", "trig"),
    "cos": ("tl.cos(x)", "trig"),
    "exp": ("tl.exp(x)", "exp"),
    "sqrt": ("tl.sqrt(x)", "positive"),
    "div": ("x / (x + 3.0)", "positive"),
    "tanh": ("libdevice.tanh(x)", "erf"),
    "rsqrt": ("libdevice.rsqrt(x)", "positive"),
    "powf": ("libdevice.pow(x, 0.37)", "positive"),
    "powi": ("libdevice.pow(x, 3)", "erf"),
}
"""Elementwise f32 functions whose accuracy ``run`` measures, Triton's PTX beside ltc's."""
MATH_ELEMENTS = 1 << 22
_MATH_SOURCE = """
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def math_{name}(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    x = tl.load(x_ptr + i, mask=m)
    tl.store(y_ptr + i, {expr}, mask=m)
"""


def _prepare_math(out: Path, sass_stats: Any, compile_kernel: Any) -> list[dict[str, Any]]:
    import importlib.util
    import tempfile

    sys.path.insert(0, str(ROOT / "examples" / "triton"))
    import gen_ir  # noqa: F401  (sets TRITON_CACHE_DIR / TRITON_HOME before importing triton)
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import ASTSource

    kernels = []
    src_dir = Path(tempfile.mkdtemp(prefix="ltc-gpu-math-"))
    for name, (expr, dist) in MATH_FUNCTIONS.items():
        path = src_dir / f"math_{name}.py"
        path.write_text(_MATH_SOURCE.format(name=name, expr=expr))
        spec = importlib.util.spec_from_file_location(f"math_{name}", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)  # type: ignore[union-attr]
        fn = getattr(mod, f"math_{name}")
        sig = {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}
        src = ASTSource(fn=fn, signature=sig, constexprs={"BLOCK": 1024})
        with triton.knobs.compilation.scope():
            triton.knobs.compilation.disable_line_info = True
            triton.knobs.compilation.always_compile = True
            compiled = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})
        impls = {}
        for impl, ptx, arch in (("triton", compiled.asm["ptx"], "sm_90a"),
                                ("ltc", compile_kernel(compiled.asm["ttgir"], emit="ptx", target="sm_90"), "sm_90")):
            entry = _write_impl(out, f"math.{name}.{impl}", ptx, sass_stats, arch)
            entry.update(params=_params(ptx), threads=128,
                         shared_bytes=int(compiled.metadata.shared) if impl == "triton" else 0)
            impls[impl] = entry
        kernels.append({"name": f"math.{name}", "kind": "math", "function": name, "distribution": dist,
                        "impls": impls})
        print(f"prepared math {name}", flush=True)
    return kernels


BANK_PROBE_SHARED = 8192
"""Bytes of the probe kernels' shared array (offsets are below it)."""


def bank_probe_ptx(op: str, bits: int) -> str:
    """One warp: lane ``i`` reads ``offsets[i]`` from global memory and does one
    ``ld``/``st.shared`` of ``bits`` at that byte offset (a store then reads one word back
    after a barrier, so that it is not dead)."""
    n = bits // 32
    regs = "{" + ", ".join(f"%r{10 + i}" for i in range(n)) + "}" if n > 1 else "%r10"
    vec = f".v{n}" if n > 1 else ""
    body = (f"ld.shared{vec}.u32 {regs}, [%r4];\n" + "".join(
        f"\tadd.u32 %r10, %r10, %r{10 + i};\n" for i in range(1, n))) if op == "ld" else (
        "".join(f"\tmov.u32 %r{10 + i}, %r1;\n" for i in range(n)) +
        f"\tst.shared{vec}.u32 [%r4], {regs};\n\tbar.sync 0;\n\tld.shared.u32 %r10, [%r3];\n")
    return f"""//
.version 8.0
.target sm_90
.address_size 64
.shared .align 16 .b8 probe_smem[{BANK_PROBE_SHARED}];
.visible .entry bank_{op}{bits}(.param .u64 table, .param .u64 out)
.reqntid 32
{{
\t.reg .b32 %r<20>;
\t.reg .b64 %rd<8>;
\tmov.u32 %r1, %tid.x;
\tld.param.u64 %rd1, [table];
\tcvta.to.global.u64 %rd2, %rd1;
\tmul.wide.u32 %rd3, %r1, 4;
\tadd.s64 %rd4, %rd2, %rd3;
\tld.global.u32 %r2, [%rd4];
\tmov.u32 %r3, probe_smem;
\tadd.u32 %r4, %r3, %r2;
\t{body}\tld.param.u64 %rd5, [out];
\tcvta.to.global.u64 %rd6, %rd5;
\tadd.s64 %rd7, %rd6, %rd3;
\tst.global.u32 [%rd7], %r10;
\tret;
}}
"""


def bank_probe_patterns(bits: int, count: int, seed: int) -> list[list[int]]:
    """Byte offsets (one per lane) for probing one access width: structured patterns
    (contiguous, broadcasts, strides, quarter-warp broadcasts) then random ones with k
    distinct addresses spread over lanes grouped, cyclically or at random."""
    import numpy as np

    n = bits // 8
    lane = np.arange(32)
    fixed = [lane * n, np.zeros(32, int), (lane // 8) * 16, (lane // 8) * 128, (lane // 2) * n,
             lane * 2 * n, lane * 128 % BANK_PROBE_SHARED, (lane % 8) * n, (lane % 16) * 128,
             np.random.default_rng(seed).permutation(32) * n]
    rng = np.random.default_rng(seed + bits)
    pats = [list(map(int, (p // n) * n % BANK_PROBE_SHARED)) for p in fixed]
    while len(pats) < count:
        k = int(rng.choice([1, 2, 4, 8, 16, 32]))
        span = max(k * n, int(rng.choice([256, 1024, BANK_PROBE_SHARED])))
        chunks = rng.choice(span // n, size=k, replace=False) * n
        how = rng.integers(3)
        idx = lane // (32 // k) if how == 0 else lane % k if how == 1 else rng.integers(0, k, 32)
        pats.append(list(map(int, chunks[idx])))
    return pats


def _prepare_bank_probes(out: Path, sass_stats: Any, per_width: int = 40) -> list[dict[str, Any]]:
    import numpy as np

    from ltc.lowering.plans.banks import plain_access_wavefronts

    kernels = []
    for op in ("ld", "st"):
        for bits in (32, 64, 128):
            ptx = bank_probe_ptx(op, bits)
            impl = _write_impl(out, f"bank.{op}{bits}", ptx, sass_stats, "sm_90")
            impl.update(params=_params(ptx), threads=32, shared_bytes=0)
            for i, offsets in enumerate(bank_probe_patterns(bits, per_width, seed=7)):
                model = plain_access_wavefronts(np.array(offsets), bits // 8, load=op == "ld")[0]
                kernels.append({"name": f"bank.{op}{bits}.{i}", "kind": "bank", "op": op, "bits": bits,
                                "offsets": offsets, "model_wavefronts": int(model), "impls": {"probe": impl}})
    return kernels


def _compile_example(src: Any, options: dict, mode: str | None = None) -> Any:
    """``triton.compile`` of an example for sm_90 without line info (``mode``: inside
    ``ltc.triton.install(mode)``); every implementation of an example is compiled so."""
    import contextlib

    import triton
    from triton.backends.compiler import GPUTarget

    import ltc.triton

    with (ltc.triton.install(mode, strict=True) if mode else contextlib.nullcontext()), \
            triton.knobs.compilation.scope():
        triton.knobs.compilation.disable_line_info = True
        triton.knobs.compilation.always_compile = True
        return triton.compile(src, target=GPUTarget("cuda", 90, 32), options=options)


def _inside_triton(out: Path, name: str, src: Any, options: dict, mode: str, sass_stats: Any) -> dict[str, Any]:
    """The kernel as Triton compiles it with ``ltc.triton.install(mode)``: ``"codegen"``,
    ltc's PTX inside Triton's flow, launched with Triton's metadata (the ABI check);
    ``"layouts"``, ltc's layouts and the rest of Triton's pipeline. Its PTX is assembled
    by the ptxas that assembles Triton's own PTX, so times compare code, not assemblers."""
    compiled = _compile_example(src, options, mode)
    key = f"ex.{name}.ltc-{'in' if mode == 'codegen' else 'layouts-in'}-triton"
    ptx = compiled.asm["ptx"]
    return {**_write_impl(out, key, ptx, sass_stats, "sm_90a"), "entry": compiled.metadata.name,
            "params": _params(ptx), "threads": 32 * compiled.metadata.num_warps,
            "shared_bytes": int(compiled.metadata.shared)}


def _params(ptx: str) -> list[str]:
    import copy_kernels

    return copy_kernels.entry_param_types(ptx)


# ----------------------------------------------------------------------------------------
# run (there: numpy and cupy only)
# ----------------------------------------------------------------------------------------


def _host_array(spec: dict[str, Any], rng: Any) -> Any:
    import numpy as np

    shape, dtype = tuple(spec["shape"]), np.dtype(spec["array"])
    init = spec["init"]
    if init == "randn":
        return rng.standard_normal(shape).astype(dtype)
    if init == "nan":
        return np.full(shape, np.nan, dtype)
    return np.zeros(shape, dtype)


def _reference(name: str, host: list[Any]) -> tuple[Any, float, float]:
    """numpy's result for example ``name`` on the host arguments, with (rtol, atol)."""
    import numpy as np

    if name == "vector_add":
        return host[0] + host[1], 0.0, 0.0
    if name == "softmax":
        x, cols = host[1][:, : host[4]], host[4]
        e = np.exp(x - x.max(axis=1, keepdims=True))
        ref = host[0].copy()
        ref[:, :cols] = e / e.sum(axis=1, keepdims=True)
        return ref, 2e-5, 1e-7
    if name == "layer_norm":
        n, eps = host[5], host[6]
        xf = host[0][:, :n].astype(np.float32)
        mean = xf.mean(axis=1, keepdims=True)
        rstd = 1 / np.sqrt(((xf - mean) ** 2).mean(axis=1, keepdims=True) + eps)
        ref = host[1].copy()
        ref[:, :n] = ((xf - mean) * rstd * host[2][:n] + host[3][:n]).astype(np.float16)
        return ref, 2e-3, 2e-3
    if name == "transpose":
        return host[0].T.copy(), 0.0, 0.0
    if name == "matmul":  # f32 accumulation, rounded to f16
        return (host[0].astype(np.float32) @ host[1].astype(np.float32)).astype(np.float16), 1e-2, 5e-2
    if name == "attention_fwd":  # softmax in base 2 of q k^T * scale, times v; p rounded to f16
        q, k, v = (h.astype(np.float32) for h in host[:3])
        s = (q @ k.T) * np.float32(host[6])
        p = np.exp2(s - s.max(axis=1, keepdims=True))
        o = (p.astype(np.float16).astype(np.float32) @ v) / p.sum(axis=1, keepdims=True)
        return o.astype(np.float16), 1e-2, 1e-2
    raise KeyError(name)


class _Launcher:
    """One implementation of one kernel, loaded into the current CUDA context."""

    def __init__(self, bundle: Path, impl: dict[str, Any]) -> None:
        import cupy as cp

        try:
            module = cp.RawModule(path=str(bundle / impl["cubin"]))
            self.function = module.get_function(impl["entry"])
            self.loaded_from = "cubin"
        except Exception:  # noqa: BLE001 - the driver JIT-compiles the PTX instead
            module = cp.RawModule(path=str(bundle / impl["ptx"]))
            self.function = module.get_function(impl["entry"])
            self.loaded_from = "ptx"
        self.module = module
        self.threads = int(impl["threads"])
        self.shared = int(impl["shared_bytes"])
        if self.shared > 48 * 1024:
            self.function.max_dynamic_shared_size_bytes = self.shared
        self.params = impl["params"]

    def args(self, given: list[Any], scratch: list[Any] | None = None) -> tuple[Any, ...]:
        """``given``, then for each further parameter (Triton's global and profile scratch
        pointers) the buffer ``scratch`` has in its place, else a null pointer / zero."""
        import numpy as np

        extra = []
        for i, t in enumerate(self.params[len(given):]):
            buffer = scratch[i] if scratch and i < len(scratch) else None
            extra.append(buffer if buffer is not None else np.uint64(0) if t.endswith("64") else np.uint32(0))
        return (*given, *extra)

    def launch(self, grid: tuple[int, int, int], args: tuple[Any, ...]) -> None:
        self.function(grid, (self.threads, 1, 1), args, shared_mem=self.shared)

    def time_us(self, grid: tuple[int, int, int], args: tuple[Any, ...]) -> float:
        """Median over REPEATS batches of BATCH launches, microseconds per launch."""
        import cupy as cp

        for _ in range(WARMUP):
            self.launch(grid, args)
        samples = []
        for _ in range(REPEATS):
            start, stop = cp.cuda.Event(), cp.cuda.Event()
            start.record()
            for _ in range(BATCH):
                self.launch(grid, args)
            stop.record()
            stop.synchronize()
            samples.append(cp.cuda.get_elapsed_time(start, stop) * 1000.0 / BATCH)
        return statistics.median(samples)


def _run_copy(bundle: Path, kernel: dict[str, Any], impl_name: str, once: bool) -> dict[str, Any]:
    import cupy as cp
    import numpy as np

    impl = kernel["impls"][impl_name]
    dtype = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[kernel["element_bytes"]]
    rng = np.random.default_rng(0)
    src = rng.integers(0, 256, size=kernel["elements"] * kernel["element_bytes"], dtype=np.uint8).view(dtype)
    d_src, d_dst = cp.asarray(src), cp.asarray(~src)
    launcher = _Launcher(bundle, impl)
    args = launcher.args([d_src, d_dst])
    launcher.launch((1, 1, 1), args)
    cp.cuda.runtime.deviceSynchronize()
    mismatches = int(np.count_nonzero(d_dst.get() != src))
    result: dict[str, Any] = {"ok": mismatches == 0, "mismatches": mismatches, "loaded_from": launcher.loaded_from}
    if once:
        return result
    result["us_1cta"] = launcher.time_us((1, 1, 1), args)
    result["us_many"] = launcher.time_us((THROUGHPUT_CTAS, 1, 1), args)
    after = int(np.count_nonzero(d_dst.get() != src))
    result["ok"] = result["ok"] and after == 0
    result["mismatches_after_timing"] = after
    return result


def _run_example(bundle: Path, kernel: dict[str, Any], impl_name: str, once: bool) -> dict[str, Any]:
    import cupy as cp
    import numpy as np

    impl = kernel["impls"][impl_name]
    rng = np.random.default_rng(1)
    host: list[Any] = []
    for spec in kernel["args"]:
        if "array" in spec:
            host.append(_host_array(spec, rng))
        else:
            host.append(np.dtype(spec["scalar"]).type(spec["value"]))
    device = [cp.asarray(h) if isinstance(h, np.ndarray) else h for h in host]
    launcher = _Launcher(bundle, impl)
    args = launcher.args(device)
    grid = tuple(kernel["grid"])
    launcher.launch(grid, args)  # type: ignore[arg-type]
    cp.cuda.runtime.deviceSynchronize()
    (out_index,) = kernel["outputs"]
    got = device[out_index].get()
    ref, rtol, atol = _reference(kernel["example"], host)
    if rtol == 0 and atol == 0:
        ok = bool(np.array_equal(got.view(np.uint8), ref.view(np.uint8)) or np.array_equal(got, ref))
        max_err = float(np.nanmax(np.abs(got.astype(np.float64) - ref.astype(np.float64))))
    else:
        ok = bool(np.allclose(got.astype(np.float32), ref.astype(np.float32), rtol=rtol, atol=atol))
        max_err = float(np.max(np.abs(got.astype(np.float64) - ref.astype(np.float64))))
    result: dict[str, Any] = {"ok": ok, "max_abs_err": max_err, "loaded_from": launcher.loaded_from,
                              "checksum": float(np.nansum(got.astype(np.float64)))}
    if not once:
        result["us"] = launcher.time_us(grid, args)  # type: ignore[arg-type]
    return result


def _math_inputs(dist: str, n: int) -> Any:
    import numpy as np

    rng = np.random.default_rng(11)
    q = n // 4
    if dist == "positive":
        parts = [np.exp2(rng.uniform(-126, 127, 2 * q)), 1 + rng.uniform(-1e-3, 1e-3, q), rng.uniform(0.1, 10, q)]
    elif dist == "erf":
        parts = [rng.uniform(-5, 5, 2 * q), rng.uniform(-1.2, 1.2, q), rng.normal(0, 1, q)]
    elif dist == "trig":
        parts = [rng.uniform(-10, 10, q), rng.uniform(-1e5, 1e5, q), rng.uniform(-3.2, 3.2, q),
                 np.exp2(rng.uniform(-10, 30, q)) * np.where(rng.normal(size=q) < 0, -1, 1)]
    else:  # exp
        parts = [rng.uniform(-87, 88, 2 * q), rng.uniform(-1, 1, 2 * q)]
    x = np.concatenate(parts).astype(np.float32)
    return np.resize(x, n).astype(np.float32)


def _math_reference(name: str, x: Any) -> Any:
    import numpy as np

    d = x.astype(np.float64)
    if name == "erf":
        try:
            from scipy.special import erf

            return erf(d)
        except ImportError:
            import math

            return np.vectorize(math.erf)(d)
    if name == "div":
        return d / (d + 3.0)
    if name == "rsqrt":
        return 1 / np.sqrt(d)
    if name == "powf":
        return d**0.37
    if name == "powi":
        return d**3
    return {"tanh": np.tanh, "log": np.log, "log2": np.log2, "sin": np.sin, "cos": np.cos, "exp": np.exp, "sqrt": np.sqrt}[name](d)


def _run_math(bundle: Path, kernel: dict[str, Any], impl_name: str, once: bool) -> dict[str, Any]:
    import cupy as cp
    import numpy as np

    n = MATH_ELEMENTS
    x = _math_inputs(kernel["distribution"], n)
    dx, dy = cp.asarray(x), cp.asarray(np.zeros(n, np.float32))
    launcher = _Launcher(bundle, kernel["impls"][impl_name])
    args = launcher.args([dx, dy, np.int32(n)])
    grid = ((n + 1023) // 1024, 1, 1)
    launcher.launch(grid, args)
    cp.cuda.runtime.deviceSynchronize()
    got = dy.get().astype(np.float64)
    want = _math_reference(kernel["function"], x)
    finite = np.isfinite(want) & (np.abs(want) >= 2.0**-126)
    spacing = np.spacing(np.abs(want[finite]).astype(np.float32)).astype(np.float64)
    ulps = np.abs(got[finite] - want[finite]) / spacing
    result: dict[str, Any] = {
        "ok": bool(np.isfinite(ulps).all()), "max_ulp": float(ulps.max()), "mean_ulp": float(ulps.mean()),
        "p999_ulp": float(np.quantile(ulps, 0.999)), "max_abs": float(np.abs(got[finite] - want[finite]).max()),
        "loaded_from": launcher.loaded_from,
    }
    if not once:
        result["us"] = launcher.time_us(grid, args)  # type: ignore[arg-type]
    return result


def _run_bank(bundle: Path, kernel: dict[str, Any], impl_name: str, once: bool) -> dict[str, Any]:
    import cupy as cp
    import numpy as np

    launcher = _Launcher(bundle, kernel["impls"][impl_name])
    table = cp.asarray(np.array(kernel["offsets"], np.uint32))
    out = cp.asarray(np.zeros(32, np.uint32))
    launcher.launch((1, 1, 1), launcher.args([table, out]))
    cp.cuda.runtime.deviceSynchronize()
    return {"ok": True, "loaded_from": launcher.loaded_from}


def _child(bundle: Path, results_path: Path, once: bool, launches_path: Path | None) -> None:
    """Run every (kernel, impl) not yet in ``results_path`` (jsonl), appending each result."""
    manifest = json.loads((bundle / "manifest.json").read_text())
    done = set()
    if results_path.exists():
        for line in results_path.read_text().splitlines():
            rec = json.loads(line)
            done.add((rec["kernel"], rec["impl"]))
    for kernel in manifest["kernels"]:
        if kernel["kind"] in ("example", "math", "corpus") and once or kernel["kind"] == "bank" and not once:
            continue
        for impl_name in kernel["impls"]:
            key = (kernel["name"], impl_name)
            if key in done:
                continue
            # A crash leaves this "started" line as the result the parent reads.
            with results_path.open("a") as f:
                f.write(json.dumps({"kernel": key[0], "impl": key[1], "started": True}) + "\n")
            try:
                if kernel["kind"] == "corpus":
                    rec = gpu_corpus.run_variant(bundle, kernel, impl_name, once, _Launcher, results_path.parent)
                else:
                    run = {"copy": _run_copy, "example": _run_example, "bank": _run_bank,
                           "math": _run_math}[kernel["kind"]]
                    rec = run(bundle, kernel, impl_name, once)
            except Exception as e:  # noqa: BLE001 - recorded; a sticky CUDA error ends the child
                rec = {"ok": False, "error": f"{type(e).__name__}: {e}"}
            if launches_path is not None and "error" not in rec:  # it launched: ncu has a row for it
                with launches_path.open("a") as f:
                    f.write(json.dumps({"kernel": key[0], "impl": key[1],
                                        "entry": kernel["impls"][impl_name]["entry"]}) + "\n")
            with results_path.open("a") as f:
                f.write(json.dumps({"kernel": key[0], "impl": key[1], **rec}) + "\n")
            if "error" in rec and "cudaError" in rec["error"]:
                sys.exit(3)  # the context is gone: let the parent start a fresh child


def _collect(results_path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    out: dict[tuple[str, str], dict[str, Any]] = {}
    if results_path.exists():
        for line in results_path.read_text().splitlines():
            rec = json.loads(line)
            out[(rec.pop("kernel"), rec.pop("impl"))] = rec  # the last line of a kernel wins
    for rec in out.values():  # started and never finished: the child died in it
        if rec.pop("started", False):
            rec.update(ok=False, error="the process died while running this kernel")
    return out


KERNEL_TIMEOUT_S = 60
"""A child whose results file has not grown for this long is stuck in a kernel: it is
killed, the kernel is recorded as died in, and a fresh child goes on after it."""


def _run_children(bundle: Path, results_path: Path, extra: list[str], wrapper: list[str]) -> None:
    for _ in range(200):
        cmd = [*wrapper, sys.executable, __file__, "child", str(bundle), "--results", str(results_path), *extra]
        proc = subprocess.Popen(cmd)
        size, since = -1, time.monotonic()
        while proc.poll() is None:
            time.sleep(0.5)
            now = results_path.stat().st_size if results_path.exists() else 0
            if now != size:
                size, since = now, time.monotonic()
            elif time.monotonic() - since > KERNEL_TIMEOUT_S:
                proc.kill()
                proc.wait()
                print(f"child stuck for {KERNEL_TIMEOUT_S} s; killed", flush=True)
        if proc.returncode == 0:
            return
        print(f"child exited {proc.returncode}; restarting after the kernel it died in", flush=True)
    raise RuntimeError("too many restarts")


def _ncu(bundle: Path, out: Path, device_info: dict[str, Any]) -> dict[tuple[str, str], dict[str, float]]:
    """Shared-memory wavefronts per conversion kernel (one CTA) read by Nsight Compute."""
    ncu = "ncu"
    for cand in ("ncu", "/usr/local/cuda/bin/ncu"):
        if subprocess.run(["which", cand], capture_output=True).returncode == 0 or Path(cand).exists():
            ncu = cand
            break
    results, launches, csv_path = out / "ncu_child.jsonl", out / "ncu_launches.jsonl", out / "ncu.csv"
    for p in (results, launches):
        p.unlink(missing_ok=True)
    cmd = [ncu, "--csv", "--print-units", "base", "--metrics", ",".join(NCU_METRICS), "--log-file", str(csv_path),
           sys.executable, __file__, "child", str(bundle), "--results", str(results), "--once",
           "--launches", str(launches)]
    start = time.time()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    device_info["ncu_seconds"] = round(time.time() - start, 1)
    device_info["ncu_returncode"] = proc.returncode
    if proc.returncode != 0:
        device_info["ncu_stderr"] = (proc.stderr or proc.stdout)[-2000:]
    order = [json.loads(line) for line in launches.read_text().splitlines()] if launches.exists() else []
    rows: dict[str, dict[str, float]] = {}
    if csv_path.exists():
        text = csv_path.read_text()
        start_at = text.find('"ID"')
        for row in csv.DictReader(io.StringIO(text[start_at:] if start_at >= 0 else "")):
            try:
                value = float(str(row["Metric Value"]).replace(",", ""))
            except (KeyError, ValueError):
                continue
            rows.setdefault(row["ID"], {})[row["Metric Name"]] = value
    by_launch: dict[tuple[str, str], dict[str, float]] = {}
    for launch, row_id in zip(order, sorted(rows, key=int)):
        by_launch[(launch["kernel"], launch["impl"])] = rows[row_id]
    device_info["ncu_profiled"] = len(rows)
    device_info["ncu_launches"] = len(order)
    return by_launch


def run(bundle: Path, out: Path, with_ncu: bool) -> Path:
    """Run the bundle; writes and returns ``out/results.json``."""
    out.mkdir(parents=True, exist_ok=True)
    device_info: dict[str, Any] = {}
    try:
        import cupy as cp

        props = cp.cuda.runtime.getDeviceProperties(0)
        device_info.update(name=props["name"].decode() if isinstance(props["name"], bytes) else props["name"],
                           sms=props["multiProcessorCount"], cc=f"{props['major']}.{props['minor']}",
                           driver=cp.cuda.runtime.driverGetVersion(), cupy=cp.__version__)
    except Exception as e:  # noqa: BLE001
        device_info["error"] = f"{type(e).__name__}: {e}"
    results_path = out / "child.jsonl"
    results_path.unlink(missing_ok=True)
    start = time.time()
    _run_children(bundle, results_path, [], [])
    device_info["run_seconds"] = round(time.time() - start, 1)
    results = _collect(results_path)
    ncu = _ncu(bundle, out, device_info) if with_ncu else {}
    manifest = json.loads((bundle / "manifest.json").read_text())
    probes = _collect(out / "ncu_child.jsonl")  # the bank probes run under ncu only
    for kernel in manifest["kernels"]:
        for impl_name, impl in kernel["impls"].items():
            if kernel["kind"] == "bank":
                rec = results[(kernel["name"], impl_name)] = probes.get(
                    (kernel["name"], impl_name), {"ok": False, "error": "not run (needs --ncu)"})
            rec = results.setdefault((kernel["name"], impl_name), {"ok": False, "error": "not run"})
            for k in ("sim_ld_wavefronts", "sim_st_wavefronts", "shared_bytes", "threads"):
                if k in impl:
                    rec[k] = impl[k]
            if (kernel["name"], impl_name) in ncu:
                rec["ncu"] = ncu[(kernel["name"], impl_name)]
    payload = {"device": device_info, "kernels": [
        {"name": k["name"], "kind": k["kind"], "category": k.get("category", k.get("example")),
         **{f: k[f] for f in ("op", "bits", "offsets", "model_wavefronts", "function", "notes", "interpreter") if f in k},
         "impls": {i: results[(k["name"], i)] for i in k["impls"]}} for k in manifest["kernels"]]}
    path = out / "results.json"
    path.write_text(json.dumps(payload, indent=1))
    return path


# ----------------------------------------------------------------------------------------
# report
# ----------------------------------------------------------------------------------------


def _fmt(x: Any, digits: int = 2) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}" if isinstance(x, float) else str(x)


def report(path: Path) -> int:
    data = json.loads(path.read_text())
    dev = data["device"]
    print(f"device: {dev.get('name')} ({dev.get('sms')} SMs, cc {dev.get('cc')}, driver {dev.get('driver')}, "
          f"cupy {dev.get('cupy')}); run {dev.get('run_seconds')} s, ncu {dev.get('ncu_seconds', 'n/a')} s\n")
    failed = _report_copies(data["kernels"])
    failed += _report_examples(data["kernels"])
    failed += _report_bank_probes(data["kernels"])
    failed += _report_math(data["kernels"])
    failed += gpu_corpus.report_corpus(data["kernels"])
    print(f"\n{failed} kernel run(s) failed their check")
    return 1 if failed else 0


def _report_copies(kernels: list[dict[str, Any]]) -> int:
    """Print the conversion-kernel table; returns how many runs failed."""
    if not any(k["kind"] == "copy" for k in kernels):
        return 0
    failed = 0
    print("## Conversion kernels (one tile: load, convert_layout, store)\n")
    print("| case | check ltc / triton | 1 CTA us ltc / triton | "
          f"{THROUGHPUT_CTAS} CTAs us ltc / triton | ratio | wavefronts sim ltc / triton | "
          "wavefronts ncu ltc / triton |")
    print("|---|---|--:|--:|--:|--:|--:|")
    ratios, sim_match, sim_total = [], 0, 0
    for k in kernels:
        if k["kind"] != "copy":
            continue
        lt, tr = k["impls"]["ltc"], k["impls"]["triton"]
        failed += (not lt.get("ok")) + (not tr.get("ok"))
        check = f"{'ok' if lt.get('ok') else 'FAIL'} / {'ok' if tr.get('ok') else 'FAIL'}"
        ratio = (lt["us_many"] / tr["us_many"]) if lt.get("us_many") and tr.get("us_many") else None
        if ratio:
            ratios.append(ratio)
        sims, ncus = [], []
        for rec in (lt, tr):
            sim = rec.get("sim_ld_wavefronts", 0) + rec.get("sim_st_wavefronts", 0)
            sims.append(sim)
            n = rec.get("ncu")
            hw = None if not n else int(sum(n.get(m, 0) for m in NCU_METRICS))
            ncus.append(hw)
            if hw is not None:
                sim_total += 1
                sim_match += hw == sim
        print(f"| {k['name'][4:]} | {check} | {_fmt(lt.get('us_1cta'))} / {_fmt(tr.get('us_1cta'))} | "
              f"{_fmt(lt.get('us_many'))} / {_fmt(tr.get('us_many'))} | {_fmt(ratio)} | "
              f"{sims[0]} / {sims[1]} | {_fmt(ncus[0])} / {_fmt(ncus[1])} |")
        for name, rec in (("ltc", lt), ("triton", tr)):
            if rec.get("error"):
                print(f"|   {name} error: {rec['error'][:200]} |||||||")
    g = gpu_corpus.geomean(ratios)
    print(f"\ngeometric mean of the throughput ratio ltc/triton: {_fmt(g, 3)} over {len(ratios)} cases; "
          f"ltc faster on {sum(r < 0.97 for r in ratios)}, slower on {sum(r > 1.03 for r in ratios)} (3 % band)")
    if sim_total:
        print(f"simulated wavefronts == hardware counter on {sim_match} of {sim_total} kernels")
    return failed


def _report_examples(kernels: list[dict[str, Any]]) -> int:
    """Print the example-kernel table; returns how many runs failed."""
    if not any(k["kind"] == "example" for k in kernels):
        return 0
    failed = 0
    print("\n## Example kernels (large inputs)\n")
    print("| kernel | impl | check | max abs err | us | vs triton |")
    print("|---|---|---|--:|--:|--:|")
    for k in kernels:
        if k["kind"] != "example":
            continue
        base = k["impls"].get("triton", {}).get("us")
        for name, rec in k["impls"].items():
            failed += not rec.get("ok")
            rel = rec["us"] / base if rec.get("us") and base else None
            print(f"| {k['name'][3:]} | {name} | {'ok' if rec.get('ok') else 'FAIL'} | "
                  f"{_fmt(rec.get('max_abs_err'), 6)} | {_fmt(rec.get('us'))} | {_fmt(rel, 3)} |")
            if rec.get("error"):
                print(f"|   error: {rec['error'][:200]} ||||||")
    return failed


def _report_math(kernels: list[dict[str, Any]]) -> int:
    """Print the accuracy table of the math kernels; returns how many did not run."""
    rows = [k for k in kernels if k["kind"] == "math"]
    if not rows:
        return 0
    print(f"\n## f32 math on {MATH_ELEMENTS} inputs against float64 (ulps; normal results)\n")
    print("| function | ltc max / 99.9 % / mean | Triton max / 99.9 % / mean | us ltc / Triton |")
    print("|---|--:|--:|--:|")
    failed = 0
    for k in rows:
        cells = []
        for impl in ("ltc", "triton"):
            r = k["impls"].get(impl, {})
            failed += not r.get("ok")
            cells.append(f"{_fmt(r.get('max_ulp'))} / {_fmt(r.get('p999_ulp'))} / {_fmt(r.get('mean_ulp'), 3)}"
                         if "max_ulp" in r else f"error: {r.get('error', '?')[:80]}")
        t = [k["impls"].get(i, {}).get("us") for i in ("ltc", "triton")]
        print(f"| {k.get('function', k['name'][5:])} | {cells[0]} | {cells[1]} | {_fmt(t[0])} / {_fmt(t[1])} |")
    return failed


def _report_bank_probes(kernels: list[dict[str, Any]]) -> int:
    """Print the bank-model table; returns the number of probes that did not run."""
    probes = [k for k in kernels if k["kind"] == "bank"]
    if not probes:
        return 0
    print("\n## Bank model against the hardware counter (one warp, one shared access)\n")
    print("| access | probes | measured | model == hardware | model > hardware | model < hardware |")
    print("|---|--:|--:|--:|--:|--:|")
    failed, rows = 0, {}
    for k in probes:
        rec = k["impls"]["probe"]
        failed += not rec.get("ok")
        metric = NCU_METRICS[0] if k["op"] == "ld" else NCU_METRICS[1]
        hw = (rec.get("ncu") or {}).get(metric)
        if hw is not None and k["op"] == "st":
            pass  # the store probe's read-back is a load: it is not in the store counter
        row = rows.setdefault(f"{k['op']}.shared {k['bits']}-bit", [0, 0, 0, 0, 0, []])
        row[0] += 1
        if hw is None:
            continue
        row[1] += 1
        model = k["model_wavefronts"]
        row[2 if model == hw else 3 if model > hw else 4] += 1
        if model != hw:
            row[5].append((k["name"], model, int(hw)))
    for name, (n, measured, eq, gt, lt, _) in rows.items():
        print(f"| {name} | {n} | {measured} | {eq} | {gt} | {lt} |")
    for name, row in rows.items():
        for probe, model, hw in row[5]:
            print(f"  {probe}: model {model}, hardware {hw}")
    return failed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare", help="compile and assemble the bundle (here, no GPU)")
    p.add_argument("--out", type=Path, default=DEFAULT_BUNDLE)
    p.add_argument("--cases", help="only conversion cases whose name contains this (no examples)")
    p.add_argument("--parts", nargs="+", choices=PARTS, default=list(DEFAULT_PARTS),
                   help="what to bundle (default: all but corpus)")
    p.add_argument("--settings", nargs="+", choices=gpu_corpus.SETTINGS, default=list(gpu_corpus.SETTINGS[:2]),
                   help="corpus settings (the part corpus; default the sm_90 ones; sm_80 code runs as PTX)")
    p.add_argument("--jobs", type=int, default=1, help="processes compiling the corpus part")
    p.add_argument("--limit", type=int, default=0, help="corpus variants per setting (0: all)")
    r = sub.add_parser("run", help="run a bundle on the GPU (needs numpy and cupy)")
    r.add_argument("bundle", type=Path)
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--ncu", action="store_true", help="also read shared wavefronts with Nsight Compute")
    c = sub.add_parser("child", help=argparse.SUPPRESS)
    c.add_argument("bundle", type=Path)
    c.add_argument("--results", type=Path, required=True)
    c.add_argument("--once", action="store_true")
    c.add_argument("--launches", type=Path)
    s = sub.add_parser("report", help="print the tables of a results.json")
    s.add_argument("results", type=Path)
    a = ap.parse_args(argv)
    if a.cmd == "prepare":
        n = prepare(a.out, a.cases, tuple(a.parts), tuple(a.settings), a.jobs, a.limit)
        print(f"wrote {n} kernels to {a.out}")
        return 0
    if a.cmd == "run":
        path = run(a.bundle, a.out, a.ncu)
        return report(path)
    if a.cmd == "child":
        _child(a.bundle, a.results, a.once, a.launches)
        return 0
    return report(a.results)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
