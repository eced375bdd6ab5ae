"""A kernel of our own, compiled by Triton (on the CPU, no GPU needed) to TTIR.

out[r, c] = max(x[r, c] * scale + bias[c], 0) for a row-major float32 matrix with
n_cols <= 256 columns: one program per row. Writes scale_bias_relu.ttir here.
"""
import os
import re
import tempfile

# Triton's cache in a scratch folder, not under $HOME; FP fusion on (Triton 3.9's default,
# which it warns about when the variable is unset)
_scratch = tempfile.mkdtemp(prefix="ltc-tutorial-")
os.environ.setdefault("TRITON_CACHE_DIR", os.path.join(_scratch, "cache"))
os.environ.setdefault("TRITON_HOME", os.path.join(_scratch, "home"))
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler.compiler import ASTSource


@triton.jit
def scale_bias_relu(x_ptr, bias_ptr, out_ptr, n_cols, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    b = tl.load(bias_ptr + cols, mask=mask, other=0.0)
    y = tl.maximum(x * scale + b, 0.0)
    tl.store(out_ptr + row * n_cols + cols, y, mask=mask)


if __name__ == "__main__":
    signature = {"x_ptr": "*fp32", "bias_ptr": "*fp32", "out_ptr": "*fp32",
                 "n_cols": "i32", "scale": "fp32", "BLOCK": "constexpr"}
    src = ASTSource(fn=scale_bias_relu, signature=signature, constexprs={"BLOCK": 256})
    compiled = triton.compile(src, target=GPUTarget("cuda", 90, 32))  # sm_90, 32 lanes
    # the locations name this file by its absolute path: keep only its name
    ttir = re.sub(r'loc\("[^"]*/([^"/]+)"', r'loc("\1"', compiled.asm["ttir"])
    with open("scale_bias_relu.ttir", "w") as f:
        f.write(ttir)
    print(f"wrote scale_bias_relu.ttir: {len(ttir.splitlines())} lines")
