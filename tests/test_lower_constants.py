"""Dense constants in the lowering: a splat is one scalar per register, whatever its value.

MLIR prints a splat whose value has no exact decimal form as hex (``dense<0x7FC00000>``,
a NaN: Triton's ``float("nan")`` and ``erfinv``'s out-of-domain result). A NaN is not
equal to itself, so a splat test by value equality took it for 64 different elements and
refused the kernel. Splats are compared bitwise; the stored bits are exact.
"""

from __future__ import annotations

import numpy as np
import pytest

from ltc.lowering.ptxsim.run import simulate_ptx
from ltc.tools.pipeline import PipelineError, compile_kernel
from tests.test_codegen_examples import ptxas_ok

N, WARPS = 128, 4


def _kernel(literal: str) -> str:
    return f"""#blk = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [{WARPS}], order = [0]}}>
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {WARPS} : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @fill(%out_ptr: !tt.ptr<f32>) {{
    %offs = tt.make_range {{end = {N} : i32, start = 0 : i32}} : tensor<{N}xi32, #blk>
    %base = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<{N}x!tt.ptr<f32>, #blk>
    %ptrs = tt.addptr %base, %offs : tensor<{N}x!tt.ptr<f32>, #blk>, tensor<{N}xi32, #blk>
    %v = arith.constant {literal} : tensor<{N}xf32, #blk>
    tt.store %ptrs, %v : tensor<{N}x!tt.ptr<f32>, #blk>
    tt.return
  }}
}}
"""


@pytest.mark.parametrize("literal, bits", [("dense<0x7FC00000>", 0x7FC00000), ("dense<0xFFC00001>", 0xFFC00001),
                                           ("dense<-0.000000e+00>", 0x80000000)])
def test_a_splat_without_a_decimal_form_stores_its_exact_bits(literal: str, bits: int) -> None:
    ptx = compile_kernel(_kernel(literal), emit="ptx", target="sm_80")
    ptxas_ok(ptx, "sm_80")
    out = np.zeros(N, np.float32)
    simulate_ptx(ptx, (1, 1, 1), [out])
    assert out.view(np.uint32).tolist() == [bits] * N


def test_a_constant_with_different_elements_is_still_refused_by_name() -> None:
    values = ", ".join(str(float(i)) for i in range(N))
    with pytest.raises(PipelineError, match="non-splat dense constants are not supported"):
        compile_kernel(_kernel(f"dense<[{values}]>"), emit="ptx", target="sm_80")
