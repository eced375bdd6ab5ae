"""Regenerate Triton 3.9's sm_90 PTX for the small example kernels (no GPU needed).

Usage: python examples/triton/gen_ptx.py
Compiles vector_add, softmax and layer_norm of gen_ir.py (same signatures, constexprs
and options) for GPUTarget("cuda", 90, 32) on the CPU and writes NAME.ptx next to this
file.  Line info is disabled: with it the PTX carries ``.loc``/``.file`` and DWARF
sections whose bytes spell the absolute build directory.  Any quoted absolute path
left is cut to its file name as a safeguard.
The PTX is test data for ltc's PTX simulator (tests/test_ptx_sim.py).
"""
from __future__ import annotations

import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_ir  # noqa: E402  (sets TRITON_CACHE_DIR / TRITON_HOME before importing triton)
import triton  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler.compiler import ASTSource  # noqa: E402

NAMES = ("vector_add", "softmax", "layer_norm")


def strip_paths(text: str) -> str:
    """Cut every quoted absolute path to its last component."""
    return re.sub(r'"/[^"]*/([^"/]*)"', r'"\1"', text)


def main() -> None:
    target = GPUTarget("cuda", 90, 32)
    for name, fn, signature, constexprs, options in gen_ir.KERNELS:
        if name not in NAMES:
            continue
        sig = dict(signature, **{k: "constexpr" for k in constexprs})
        src = ASTSource(fn=fn, signature=sig, constexprs=constexprs)
        with triton.knobs.compilation.scope():
            triton.knobs.compilation.disable_line_info = True
            triton.knobs.compilation.always_compile = True
            compiled = triton.compile(src, target=target, options=options)
        path = HERE / f"{name}.ptx"
        path.write_text(strip_paths(compiled.asm["ptx"]))
        print(f"wrote {path.relative_to(HERE.parent.parent)}")


if __name__ == "__main__":
    main()
