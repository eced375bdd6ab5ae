"""The lowering passes ``ltc-opt`` knows, by command-line name (same form as
:data:`ltc.passes.registry.PASS_REGISTRY`: name -> (factory, one-line description))."""

from __future__ import annotations

from collections.abc import Callable

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # xDSL is imported with the pass, not for --help
    from xdsl.passes import ModulePass


def _convert_to_llvm() -> type[ModulePass]:
    from ltc.lowering.llvm.to_llvm import ConvertTritonGPUToLLVMPass

    return ConvertTritonGPUToLLVMPass


LOWERING_PASSES: dict[str, tuple[Callable[[], type[ModulePass]], str]] = {
    "convert-tritongpu-to-llvm": (
        _convert_to_llvm,
        "lower laid-out TTGIR to per-thread LLVM-dialect IR (registers, shuffles, shared memory) "
        "for sm_80 or sm_90; enable-fp-fusion=false rounds every float add/sub/mul on its own "
        "{enable-fp-fusion=true target=sm_90}",
    ),
}
