"""Triton with and without ltc as its layout stage, on the CPU (no GPU needed).

    python examples/triton_stage.py

Compiles the softmax and the matmul of ``examples/triton/gen_ir.py`` with
``triton.compile`` for ``GPUTarget("cuda", 90, 32)`` twice: Triton alone, then with
``ltc.triton.install("layouts")``; prints, side by side, the ``ttg.convert_layout`` ops of
the final TTGIR and the SASS instructions of the cubins (Triton's own ptxas and cuobjdump).

On a GPU, ``benchmarks/gpu_run.py`` runs these kernels as compiled here (Triton alone and
with ltc's layouts, same run): it checks them against numpy and times them. The GPU
machine then needs only numpy and cupy, not Triton 3.9.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "triton"))

import gen_ir  # noqa: E402  (sets Triton's cache and home to a scratch folder)
import triton  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler.compiler import ASTSource  # noqa: E402

import ltc.triton  # noqa: E402


def compile_example(name: str):  # noqa: ANN201
    _, fn, signature, constexprs, options = {k[0]: k for k in gen_ir.KERNELS}[name]
    sig = dict(signature, **{k: "constexpr" for k in constexprs})
    src = ASTSource(fn=fn, signature=sig, constexprs=constexprs, attrs=gen_ir.ATTRS.get(name))
    with triton.knobs.compilation.scope():
        triton.knobs.compilation.always_compile = True
        return triton.compile(src, target=GPUTarget("cuda", 90, 32), options=options)


def sass_instructions(cubin: bytes) -> int:
    tool = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "cuobjdump"
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        text = subprocess.run([str(tool), "-sass", f.name], capture_output=True, text=True, check=True).stdout
    return sum(1 for line in text.splitlines() if re.match(r"\s+/\*[0-9a-f]{4}\*/\s+[A-Z@]", line)
               and "NOP" not in line)


def main() -> None:
    print(f"{'kernel':12s} {'converts triton/ltc':>20s} {'SASS triton/ltc':>16s}")
    for name in ("softmax", "matmul"):
        plain = compile_example(name)
        with ltc.triton.install("layouts", strict=True):
            ours = compile_example(name)
        cvt = [c.asm["ttgir"].count("ttg.convert_layout") for c in (plain, ours)]
        sass = [sass_instructions(c.asm["cubin"]) for c in (plain, ours)]
        print(f"{name:12s} {cvt[0]:>10d} / {cvt[1]:<7d} {sass[0]:>8d} / {sass[1]:<6d}")


if __name__ == "__main__":
    main()
