"""The corpus kernels on a GPU: Triton 3.9, Triton with ltc's layouts, and ltc's own PTX,
run on the same inputs and compared on the hardware (the ``corpus`` part of ``gpu_run.py``).

    python benchmarks/gpu_run.py prepare --parts corpus [--settings cuda90-w4 cuda90-w8] [--jobs 2]
    python benchmarks/gpu_run.py run BUNDLE --out DIR          # on the GPU: numpy + cupy
    python benchmarks/gpu_run.py report DIR/results.json

``prepare`` (here: Triton 3.9, ltc, ``ptxas``) takes every TTIR variant of the
layout-assignment corpus (``build_corpus.py``) of the sm_90 settings and writes up to three
cubins per variant:

* ``triton``: ``triton.compile`` of the TTIR (Triton's layouts, Triton's code generation);
* ``triton-ltc``: the same with ``ltc.triton.install("layouts")`` (ltc's layouts, then the
  rest of Triton's pipeline; absent where ltc fell back to Triton's passes);
* ``ltc``: ltc's own PTX of the TTIR (``compile_kernel``), assembled by ``ptxas`` (absent
  where ltc does not lower every op; the reason is kept).

``prepare`` also runs the value interpreter on each variant with those arguments
(:func:`interpret_variant`): where an access is out of bounds (the arguments are
synthesized, and a kernel may index with loaded data) the variant is undefined on a GPU
and is not run; otherwise the interpreter names the elements a store's lanes race on.

``run`` launches each variant's cubins for one program (grid 1x1x1) on the arguments that
``bench_kernels.py`` gives the simulator (:func:`host_arguments`: every pointer an array of
2^16 seeded random elements of its pointee type, every integer 16, every float 0.5), reads
every array back and compares it with what Triton's cubin left (:func:`compare_outputs`:
bitwise for integer and raw-bit data, 1e-5 relative for floats, the racy elements left
out), then times the launch (the latency of one program; median of batches of launches).
Nothing here imports more than numpy at the top: the GPU machine needs neither ltc, xDSL
nor Triton 3.9.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ELEMENTS = 1 << 16
"""Elements of every pointer argument."""
INTEGER = 16
"""Every integer argument (a multiple of the divisibility the corpus kernels ask)."""
FLOAT = 0.5
"""Every float argument."""
SETTINGS = ("cuda90-w4", "cuda90-w8", "cuda80-w4", "cuda80-w8")
DEVICE_CC = 90
"""The compute capability of the GPU the bundle is for (an H100 / H200)."""
_ENTRY = re.compile(r"\.entry\s+([A-Za-z_$][\w$]*)\s*\(")
IMPLS = ("triton", "triton-ltc", "ltc")

_NUMPY = {"f16": "float16", "f32": "float32", "f64": "float64", "i1": "int8", "i8": "int8", "i16": "int16",
          "i32": "int32", "i64": "int64"}


# ----------------------------------------------------------------------------------------
# arguments and the comparison (numpy only; bench_kernels.py uses them too)
# ----------------------------------------------------------------------------------------


def host_array(pointee: str, rng: Any) -> Any:
    """``ELEMENTS`` seeded random elements of the pointee type ``pointee`` (its MLIR
    spelling): normal floats, integers in [-1000, 1000) clipped to the type, raw bits for
    bf16 and the fp8 types."""
    import numpy as np

    if pointee in ("f16", "f32", "f64"):
        return (rng.standard_normal(ELEMENTS) * 2).astype(_NUMPY[pointee])
    if pointee in _NUMPY:
        dtype = np.dtype(_NUMPY[pointee])
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -1000), min(info.max, 1000), ELEMENTS).astype(dtype)
    bits = 16 if "bf16" in pointee or "16" in pointee else 8 if pointee.startswith("f8") else 32
    return rng.integers(0, 1 << bits, ELEMENTS, dtype=np.uint64).astype({8: np.uint8, 16: np.uint16,
                                                                          32: np.uint32}[bits])


def host_arguments(specs: list[dict[str, str]], seed: int) -> list[Any]:
    """The kernel's arguments for ``specs`` (``{"pointee": T}`` or ``{"scalar": T}``, T in
    MLIR's spelling): arrays from :func:`host_array`, ``INTEGER`` / ``FLOAT`` for scalars."""
    import numpy as np

    rng = np.random.default_rng(seed)
    args: list[Any] = []
    for spec in specs:
        if "pointee" in spec:
            args.append(host_array(spec["pointee"], rng))
        else:
            args.append(FLOAT if spec["scalar"].startswith(("f", "bf")) else INTEGER)
    return args


def differing(x: Any, y: Any) -> Any:
    """Where arrays ``x`` and ``y`` differ: bitwise for integer and raw-bit data; for
    floats beyond 1e-5 relative to the element or to ``x``'s largest magnitude (sums in
    another order differ by rounding, most where terms cancel), NaN matching NaN."""
    import numpy as np

    if x.dtype.kind == "f":
        finite = np.abs(x[np.isfinite(x)])
        scale = float(finite.max()) if finite.size else 1.0
        return ~(np.isclose(x, y, rtol=1e-5, atol=1e-5 * max(scale, 1.0)) | (np.isnan(x) & np.isnan(y)))
    return x != y


def compare_outputs(a: list[Any], b: list[Any], racy: Mapping[int, Any] | None = None) -> str:
    """``same``, or ``DIFF: argument I differs at N of M`` for the first array of ``a`` and
    ``b`` that :func:`differing` finds, leaving out the elements ``racy[I]`` (their value
    is the outcome of a race: see ``InterpretStats.racy``)."""
    import numpy as np

    for i, (x, y) in enumerate(zip(a, b)):
        if not isinstance(x, np.ndarray):
            continue
        bad = differing(x, y)
        if racy and i in racy:
            bad[np.asarray(racy[i], dtype=np.int64)] = False
        if bad.any():
            return f"DIFF: argument {i} differs at {int(bad.sum())} of {x.size}"
    return "same"


def _launch_scalar(spec: dict[str, str], value: Any) -> Any:
    import numpy as np

    t = spec["scalar"]
    if t == "f16":
        return np.float16(value)
    if t.startswith(("f", "bf")):
        return np.float64(value) if t == "f64" else np.float32(value)
    return np.int64(value) if t == "i64" else np.int32(value)


# ----------------------------------------------------------------------------------------
# prepare (here)
# ----------------------------------------------------------------------------------------


def argument_specs(module: Any) -> list[dict[str, str]]:
    """One spec per argument of the kernel of ``module`` (parsed TTIR): ``{"pointee": T}``
    for a pointer, ``{"scalar": T}`` otherwise."""
    from ltc.dialects.tt import PtrType
    from ltc.passes.interpret import kernel_function

    specs = []
    for t in kernel_function(module).function_type.inputs.data:
        specs.append({"pointee": str(t.pointee_type)} if isinstance(t, PtrType) else {"scalar": str(t)})
    return specs


def _write_code(out: Path, key: str, cubin: bytes, ptx: str, cc: int) -> dict[str, str]:
    """The cubin to launch: ``cubin`` itself, or for another target than the GPU's (an
    sm_80 cubin does not load on an H100) the PTX assembled here for the GPU, as the
    driver would JIT-compile it (the PTX is kept beside it)."""
    import sass_stats

    files = {"cubin": f"{key}.cubin"}
    if cc != DEVICE_CC:
        (out / f"{key}.ptx").write_text(ptx)
        files["ptx"] = f"{key}.ptx"
        cubin = sass_stats.assemble(ptx, f"sm_{DEVICE_CC}")
    (out / f"{key}.cubin").write_bytes(cubin)
    return files


def _triton_impl(out: Path, key: str, compiled: Any, cc: int) -> dict[str, Any]:
    import copy_kernels

    md = compiled.metadata
    return {**_write_code(out, key, compiled.asm["cubin"], compiled.asm["ptx"], cc), "entry": md.name,
            "params": copy_kernels.entry_param_types(compiled.asm["ptx"]),
            "threads": 32 * md.num_warps, "shared_bytes": int(md.shared),
            "global_scratch_bytes": int(getattr(md, "global_scratch_size", 0) or 0),
            "profile_scratch_bytes": int(getattr(md, "profile_scratch_size", 0) or 0)}


def prepare_variant(out: Path, setting: str, path: Path) -> dict[str, Any]:
    """Compile one corpus variant three ways into ``out``; its manifest entry."""
    from bench_triton_stage import ltc_fallback_lines

    import ltc.triton
    from ltc.tools.pipeline import parse_module
    from tests.triton_pipeline import triton_compile_file

    cc, warps = int(setting[4:6]), int(setting.split("-w")[1])
    ttir = path.read_text()
    name = f"corpus.{setting}.{path.stem}"
    module = parse_module(ttir)  # (the interpreter only reads it)
    kernel: dict[str, Any] = {"name": name, "kind": "corpus", "category": setting, "num_warps": warps,
                              "args": argument_specs(module), "impls": {}, "notes": {}}
    kernel["interpreter"] = interpret_variant(module, kernel["args"])
    try:
        kernel["impls"]["triton"] = _triton_impl(out, f"{name}.triton", triton_compile_file(path, cc, warps), cc)
    except Exception as e:  # noqa: BLE001 - Triton refuses the variant: nothing to compare with
        kernel["notes"]["triton"] = " ".join(str(e).split())[:160]
        return kernel
    try:
        with ltc_fallback_lines() as reasons, ltc.triton.install("layouts", strict=False):
            compiled = triton_compile_file(path, cc, warps)
        if reasons:
            kernel["notes"]["triton-ltc"] = "fallback: " + reasons[0][:160]
        else:
            kernel["impls"]["triton-ltc"] = _triton_impl(out, f"{name}.triton-ltc", compiled, cc)
    except Exception as e:  # noqa: BLE001
        kernel["notes"]["triton-ltc"] = " ".join(str(e).split())[:160]
    impl, note = ltc_impl(out, name, ttir, cc, warps)
    if impl is not None:
        kernel["impls"]["ltc"] = impl
    else:
        kernel["notes"]["ltc"] = note
    return kernel


def ltc_impl(out: Path, name: str, ttir: str, cc: int, warps: int) -> tuple[dict[str, Any] | None, str]:
    """ltc's own PTX of ``ttir`` assembled into ``out``: its impl entry, or None and why
    ltc does not lower the kernel."""
    import bench_codegen
    import copy_kernels
    import sass_stats

    from ltc.tools.pipeline import compile_kernel

    try:
        ptx = compile_kernel(ttir, emit="ptx", target=f"sm_{cc}", num_warps=warps, name=name)
        key = f"{name}.ltc"
        files = _write_code(out, key, sass_stats.assemble(ptx, f"sm_{cc}"), ptx, cc)
        shared = bench_codegen.launch_shared_bytes(ptx, ttir, warps, f"sm_{cc}")
    except Exception as e:  # noqa: BLE001 - a kernel ltc does not lower: the reason is the row
        return None, " ".join(str(getattr(e, "message", e)).split())[:160]
    entry = _ENTRY.search(ptx)
    return {**files, "entry": entry.group(1) if entry else name,
            "params": copy_kernels.entry_param_types(ptx), "threads": 32 * warps, "shared_bytes": shared}, ""


INTERPRETER_TIMEOUT_S = 60


def interpret_variant(module: Any, specs: list[dict[str, str]]) -> dict[str, Any]:
    """The value interpreter's verdict on one program of the kernel of ``module`` (parsed
    TTIR) with the arguments of :func:`host_arguments`: ``{"racy": {arg: [element, ...]}, "poison": {op: count}}``
    (elements whose value is a race's outcome, left out of the comparison; ops that
    computed LLVM poison, which makes a difference no error), or ``{"refused": why}`` where the
    arguments do not fit the kernel (an out-of-bounds access: on the GPU undefined
    behaviour, so the variant is not run)."""
    import signal

    from ltc.passes.interpret import run_kernel

    def alarm(_sig: int, _frame: Any) -> None:
        raise TimeoutError(f"no result in {INTERPRETER_TIMEOUT_S} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(INTERPRETER_TIMEOUT_S)
    try:
        stats = run_kernel(module, host_arguments(specs, seed=1))
    except Exception as e:  # noqa: BLE001 - the verdict records why
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        return {"refused": " ".join(first.split())[:200]}
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return {"racy": {str(k): [int(i) for i in v] for k, v in stats.racy.items()}, "poison": dict(stats.poison)}


def _prepare_one(job: tuple[str, str, str]) -> dict[str, Any]:
    out, setting, path = job
    return prepare_variant(Path(out), setting, Path(path))


def prepare_corpus(out: Path, settings: tuple[str, ...], jobs: int, limit: int = 0) -> list[dict[str, Any]]:
    """Manifest entries of every corpus variant of ``settings`` (built when missing)."""
    import subprocess
    import sys
    from concurrent.futures import ProcessPoolExecutor

    import build_corpus

    todo = []
    for setting in settings:
        folder = build_corpus.DEFAULT_OUT / setting
        if not folder.is_dir():
            subprocess.run([sys.executable, str(Path(__file__).with_name("build_corpus.py"))], check=True)
        files = sorted(folder.glob("*.ttir"))
        todo += [(str(out), setting, str(f)) for f in (files[:limit] if limit else files)]
    kernels = []
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        for i, kernel in enumerate(pool.map(_prepare_one, todo, chunksize=4)):
            kernels.append(kernel)
            print(f"prepared {i + 1}/{len(todo)} {kernel['name']}: {', '.join(kernel['impls'])}", flush=True)
    return kernels


# ----------------------------------------------------------------------------------------
# run (there: numpy and cupy only)
# ----------------------------------------------------------------------------------------


def run_variant(bundle: Path, kernel: dict[str, Any], impl_name: str, once: bool, launcher_class: Any,
                scratch: Path) -> dict[str, Any]:
    """Launch one impl of one variant for one program; compare with Triton's arrays (kept
    in ``scratch`` by the ``triton`` impl, which runs first); time it unless ``once``."""
    import cupy as cp
    import numpy as np

    verdict = kernel.get("interpreter", {})
    if "refused" in verdict:  # out-of-bounds with these arguments: undefined on a GPU
        return {"ok": True, "check": "not run: " + verdict["refused"][:120]}
    racy = {int(k): v for k, v in verdict.get("racy", {}).items()}
    ref_path = scratch / f"{kernel['name']}.npz"
    if impl_name == "triton":
        ref_path.unlink(missing_ok=True)  # a crash leaves no reference from an older run
    host = host_arguments(kernel["args"], seed=1)
    device = [cp.asarray(h) if isinstance(h, np.ndarray) else _launch_scalar(s, h)
              for h, s in zip(host, kernel["args"])]
    impl = kernel["impls"][impl_name]
    launcher = launcher_class(bundle, impl)
    # Triton's two trailing pointers: global scratch, profile scratch (null when unused)
    scratch_buffers = [cp.zeros(size, np.uint8) if size else None
                       for size in (impl.get("global_scratch_bytes", 0), impl.get("profile_scratch_bytes", 0))]
    args = launcher.args(device, scratch_buffers)
    launcher.launch((1, 1, 1), args)
    cp.cuda.runtime.deviceSynchronize()
    got = [d.get() if isinstance(h, np.ndarray) else h for d, h in zip(device, host)]
    if impl_name == "triton":
        np.savez(ref_path, *[g for g in got if isinstance(g, np.ndarray)])
        check = "reference"
    elif ref_path.exists():
        with np.load(ref_path) as z:
            arrays = [z[f"arr_{i}"] for i in range(len(z.files))]
        ref = [arrays.pop(0) if isinstance(g, np.ndarray) else g for g in got]
        check = compare_outputs(ref, got, racy)
        if check.startswith("DIFF"):  # the first differing elements, for the report's reader
            i = int(check.split()[2])
            bad = differing(ref[i], got[i])
            bad[np.asarray(racy.get(i, []), dtype=np.int64)] = False
            where = np.flatnonzero(bad)[:6]
            check += " (element: Triton / this: " + ", ".join(
                f"{int(j)}: {ref[i][j].item()!r} / {got[i][j].item()!r}" for j in where) + ")"
    else:
        check = "no reference (Triton's run failed)"
    if check.startswith("DIFF") and verdict.get("poison"):
        # LLVM may give a poison value (and what depends on it) any value: not an error
        ops = ", ".join(f"{name} x{n}" for name, n in verdict["poison"].items())
        check = f"undefined ({ops} computes LLVM poison): {check}"
    result: dict[str, Any] = {"ok": check in ("same", "reference") or check.startswith("undefined"),
                              "check": check}
    if not once:
        result["us"] = launcher.time_us((1, 1, 1), args)
    return result


# ----------------------------------------------------------------------------------------
# report
# ----------------------------------------------------------------------------------------


def report_corpus(kernels: list[dict[str, Any]]) -> int:
    """Print the corpus tables; returns how many runs failed (a crash or a DIFF)."""
    rows = [k for k in kernels if k["kind"] == "corpus"]
    if not rows:
        return 0
    failed = 0
    print("\n## Corpus kernels (one program, the arguments of bench_kernels.py)\n")
    print("| setting | variants | not run (out of bounds) | compared | with racy elements | "
          "triton-ltc: cubins / same / undefined / DIFF / crash | ltc: cubins / same / undefined / DIFF / crash | "
          "latency geomean triton-ltc / triton | ltc / triton |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    bad_lines: list[str] = []
    explained: list[str] = []
    for setting in sorted({k["category"] for k in rows}):
        ks = [k for k in rows if k["category"] == setting]
        skipped = [k for k in ks if str(k["impls"].get("triton", {}).get("check", "")).startswith("not run")]
        run = [k for k in ks if k not in skipped]
        racy = sum(bool(k.get("interpreter", {}).get("racy")) for k in run)
        cells, means = [], []
        for impl in IMPLS:
            recs = [(k, k["impls"][impl]) for k in run if impl in k["impls"]]
            for k, r in recs:
                if not r.get("ok"):
                    bad_lines.append(f"| {k['name'][7:]} | {impl} | {r.get('check') or r.get('error', '')[:160]} |")
            if impl == "triton":
                continue
            same = sum(r.get("check") == "same" for _, r in recs)
            undefined = sum(str(r.get("check", "")).startswith("undefined") for _, r in recs)
            diff = sum(str(r.get("check", "")).startswith("DIFF") for _, r in recs)
            crash = sum("error" in r for _, r in recs)
            cells.append(f"{len(recs)} / {same} / {undefined} / {diff} / {crash}")
            explained += [f"| {k['name'][7:]} | {impl} | {r['check'][:300]} |" for k, r in recs
                          if str(r.get("check", "")).startswith("undefined")]
            ratios = [r["us"] / k["impls"]["triton"]["us"] for k, r in recs
                      if r.get("us") and k["impls"]["triton"].get("us")]
            means.append(geomean(ratios))
        print(f"| {setting} | {len(ks)} | {len(skipped)} | {len(run)} | {racy} | {cells[0]} | {cells[1]} | "
              f"{_fmt(means[0])} | {_fmt(means[1])} |")
    failed += len(bad_lines)
    if explained:
        print("\nDifferences where the kernel computes LLVM poison (any result is correct):\n")
        print("| variant | impl | result |\n|---|---|---|")
        print("\n".join(explained))
    if bad_lines:
        print("\n| variant | impl | result |\n|---|---|---|")
        print("\n".join(bad_lines))
    return failed


def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def geomean(xs: list[float]) -> float | None:
    """The geometric mean of the positive ``xs``; None when there are none."""
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None
