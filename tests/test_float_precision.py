"""Float precision and fusion as Triton 3.9 lowers them (issue 17, item 5).

A kernel using every float op whose PTX form Triton chooses (``arith.divf``,
``tt.precise_divf``, ``tt.approx_divf``, ``math.sqrt`` / ``rsqrt`` / ``exp`` / ``exp2``, ``tt.precise_sqrt``,
f32 and f16 add/sub/mul) is compiled by Triton 3.9 (CPU only) and by ltc from Triton's
TTGIR; both PTXs must use the same instruction for each, with and without
``enable_fp_fusion``. ``fma.rn.f32`` in Triton's PTX is LLVM contracting a mul and an add;
ltc leaves that to ptxas (``mul.f32`` / ``add.f32`` carry no rounding modifier), so fmas
are counted as the mul and add they replace.
"""

from __future__ import annotations

import collections
import os
import re
import tempfile
import textwrap
from pathlib import Path

import pytest

from ltc.tools.pipeline import compile_kernel

SOURCE = textwrap.dedent('''
    import triton, triton.language as tl

    @triton.jit
    def k(x_ptr, y_ptr, z_ptr, o_ptr, h_ptr, BLOCK: tl.constexpr):
        i = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + i)
        y = tl.load(y_ptr + i)
        z = tl.load(z_ptr + i)
        r = (x * y + z) / (x - z)
        r = r + tl.exp(x) + tl.sqrt(y) + tl.exp2(y) + tl.rsqrt(x)
        r = r + tl.div_rn(x, y) + tl.sqrt_rn(z) + tl.fdiv(z, y, approx=True)
        tl.store(o_ptr + i, r)
        h = tl.load(h_ptr + i)
        tl.store(h_ptr + i, h * h + h)
''')


def _float_ops(ptx: str) -> collections.Counter[str]:
    ops = collections.Counter(o for o in re.findall(r"^\s*([a-z][a-z0-9.]*)\s", ptx, re.M)
                              if re.search(r"\.f(16|32|64)$", o) and not o.startswith(("cvt", "ld", "st", "mov")))
    for fma in [o for o in ops if o.startswith("fma.rn.") and ".ftz" not in o]:
        tag = fma.rsplit(".", 1)[1]
        n = ops.pop(fma)
        ops[f"mul.{tag}"] += n
        ops[f"add.{tag}"] += n
    return ops


@pytest.fixture(scope="module")
def triton_kernel():  # noqa: ANN201
    pytest.importorskip("triton", reason="Triton 3.9 is the oracle of this test")
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="ltc-precision-"))
    import importlib.util

    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import ASTSource

    path = Path(tempfile.mkdtemp(prefix="ltc-precision-src-")) / "kernel.py"
    path.write_text(SOURCE)
    spec = importlib.util.spec_from_file_location("precision_kernel", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    sig = {"x_ptr": "*fp32", "y_ptr": "*fp32", "z_ptr": "*fp32", "o_ptr": "*fp32", "h_ptr": "*fp16",
           "BLOCK": "constexpr"}
    out = {}
    for fusion in (True, False):
        src = ASTSource(fn=mod.k, signature=sig, constexprs={"BLOCK": 128})
        out[fusion] = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"enable_fp_fusion": fusion})
    return out


@pytest.mark.parametrize("fusion", [True, False])
def test_same_float_instructions_as_triton(triton_kernel, fusion: bool) -> None:
    compiled = triton_kernel[fusion]
    ours = compile_kernel(compiled.asm["ttgir"], emit="ptx", target="sm_90", fp_fusion=fusion)
    assert _float_ops(ours) == _float_ops(compiled.asm["ptx"])


def test_llvm_ir_marks_contraction(triton_kernel) -> None:
    ttgir = triton_kernel[True].asm["ttgir"]
    fused = compile_kernel(ttgir, emit="llvm", target="sm_80")
    assert re.search(r"= fmul contract float", fused) and re.search(r"= fadd contract float", fused)
    plain = compile_kernel(ttgir, emit="llvm", target="sm_80", fp_fusion=False)
    assert "contract" not in plain
    assert "div.full.f32" in plain  # LLVM 14 has no intrinsic for it: inline asm
