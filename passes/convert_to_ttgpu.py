"""``convert-triton-to-tritongpu{num-warps threads-per-warp num-ctas target}``.

Layout-free TTIR becomes TTGIR: the module gets ``ttg.num-warps``,
``ttg.threads-per-warp``, ``ttg.num-ctas`` and ``ttg.target``; every tensor without a
layout gets Triton's default blocked layout for its shape (``default_blocked``: one
element per thread per tile, row-major), except that a reduction's result is the slice
of its operand's layout and a ``tt.dot``'s operands are converted to
``#ttg.dot_op<{opIdx, parent = result layout}>``. Then every op whose operands do not
fit its layout rule gets ``ttg.convert_layout`` ops in front (an ``expand_dims`` operand
becomes a slice of the result's layout, shape ops get their free layouts), as Triton's
conversion does; the layout passes remove the conversions again.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import FunctionType, IntegerAttr, ModuleOp, StringAttr, TensorType, i32
from xdsl.ir import OpResult
from xdsl.passes import ModulePass

from ltc.dialects.tt import DotOp, FuncOp, ReduceOp, ReturnOp
from ltc.encodings.blocked import default_blocked
from ltc.encodings.dot_operand import DotOperandEncoding
from ltc.encodings.slice import SliceEncoding
from ltc.passes.layout_engine import LayoutEngine, walk_values
from ltc.passes.layout_ir import NUM_CTAS, NUM_WARPS, TARGET, THREADS_PER_WARP, convert_before, layout_of, retype, with_layout

__all__ = ["ConvertTritonToTritonGPUPass"]


@dataclass(frozen=True)
class ConvertTritonToTritonGPUPass(ModulePass):
    """Give layout-free IR default layouts (see the module docstring)."""

    name = "convert-triton-to-tritongpu"

    num_warps: int = 4
    threads_per_warp: int = 32
    num_ctas: int = 1
    target: str = "cuda:90"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for name, value in ((NUM_WARPS, self.num_warps), (THREADS_PER_WARP, self.threads_per_warp), (NUM_CTAS, self.num_ctas)):
            if value < 1 or value & (value - 1):
                raise ValueError(f"{name} must be a positive power of 2, got {value}")
        if self.num_ctas != 1:
            raise ValueError("num-ctas > 1 is not supported: ltc lays out single-CTA kernels")
        if not (self.target.startswith("cuda:") and self.target[5:].isdigit()):
            raise ValueError(f"target must be cuda:<capability>, e.g. cuda:90; got {self.target!r}")
        op.attributes[NUM_CTAS] = IntegerAttr(self.num_ctas, i32)
        op.attributes[NUM_WARPS] = IntegerAttr(self.num_warps, i32)
        op.attributes[TARGET] = StringAttr(self.target)
        op.attributes[THREADS_PER_WARP] = IntegerAttr(self.threads_per_warp, i32)
        for func in [f for f in op.walk() if isinstance(f, FuncOp)]:
            if func.body.blocks:
                self._convert_function(func)

    def _convert_function(self, func: FuncOp) -> None:
        block = func.body.block
        for v in walk_values(block):
            t = v.type
            if not isinstance(t, TensorType) or layout_of(v) is not None:
                continue
            if isinstance(v, OpResult) and isinstance(v.op, ReduceOp):
                enc = SliceEncoding(v.op.axis.value.data, layout_of(v.op.srcs[0]))  # type: ignore[arg-type]
            else:
                enc = default_blocked(t.get_shape(), self.num_warps, self.threads_per_warp)
            retype(v, with_layout(t, enc))
        for dot in [o for o in func.walk() if isinstance(o, DotOp)]:
            parent = layout_of(dot.d)
            for i in (0, 1):
                dot.operands[i] = convert_before(dot.operands[i], DotOperandEncoding(i, parent), dot)  # type: ignore[arg-type]
            dot.operands[2] = convert_before(dot.operands[2], parent, dot)  # type: ignore[arg-type]
        LayoutEngine(block).rewrite({})
        returns = [o for o in func.walk() if isinstance(o, ReturnOp)]
        outputs = [v.type for v in returns[0].operands] if returns else list(func.function_type.outputs.data)
        func.properties["function_type"] = FunctionType.from_lists([a.type for a in block.args], outputs)
