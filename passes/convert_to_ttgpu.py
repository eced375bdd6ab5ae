"""``convert-triton-to-tritongpu{num-warps threads-per-warp num-ctas target}``.

Layout-free TTIR becomes TTGIR: the module gets ``ttg.num-warps``,
``ttg.threads-per-warp``, ``ttg.num-ctas`` and ``ttg.target``; every tensor without a
layout gets Triton's default blocked layout for its shape (``default_blocked``: one
element per thread per tile, row-major), except that a reduction's result is the slice
of its operand's layout, a ``tt.dot``'s result gets Triton's dot layout (a square of up
to 4 x 4 elements a thread: ``dot_result_blocked``) and its operands are converted to
``#ttg.dot_op<{opIdx, parent = result layout}>``. Then every op whose operands do not
fit its layout rule gets ``ttg.convert_layout`` ops in front (an ``expand_dims`` operand
becomes a slice of the result's layout, shape ops get their free layouts), as Triton's
conversion does; the layout passes remove the conversions again. The row offsets of a
``tt.descriptor_gather`` / ``tt.descriptor_scatter`` (TMA gather4/scatter4) are converted
to the slice (dim 0) of a blocked parent ``[1, 4] / [threads, 1] / [1, warps]``, order
``[1, 0]``: Triton's choice, four neighbouring offsets per thread, broadcast over warps.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import FunctionType, IntegerAttr, ModuleOp, StringAttr, TensorType, i32
from xdsl.ir import OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ltc.dialects.tt import CatOp, DescriptorGatherOp, DescriptorScatterOp, DotOp, FuncOp, ReduceOp, ReturnOp
from ltc.encodings import to_linear_layout
from ltc.encodings.blocked import BlockedEncoding, default_blocked, dot_result_blocked
from ltc.hardware import check_num_warps
from ltc.encodings.dot_operand import DotOperandEncoding
from ltc.encodings.slice import SliceEncoding
from ltc.passes.layout_engine import LayoutEngine, walk_values
from ltc.passes.layout_ir import (
    NUM_CTAS,
    NUM_WARPS,
    TARGET,
    THREADS_PER_WARP,
    convert_before,
    layout_of,
    retype,
    walk_list,
    with_layout,
)

__all__ = ["ConvertTritonToTritonGPUPass"]


@dataclass(frozen=True)
class ConvertTritonToTritonGPUPass(ModulePass):
    """Give layout-free IR default layouts (see the module docstring)."""

    name = "convert-triton-to-tritongpu"

    num_warps: int = 4
    threads_per_warp: int = 32
    num_ctas: int = 1
    target: str = "cuda:90"

    def __post_init__(self) -> None:
        # Options are checked when the pipeline is built, so a bad one is a usage error.
        if self.threads_per_warp not in (32, 64):
            raise ValueError(f"threads-per-warp={self.threads_per_warp}: must be 32 (NVIDIA) or 64 (AMD)")
        try:
            check_num_warps(self.num_warps, self.threads_per_warp)
        except ValueError as e:
            raise ValueError(f"num-warps={self.num_warps}: {e}") from None
        if self.num_ctas != 1:
            raise ValueError(f"num-ctas={self.num_ctas}: ltc lays out single-CTA kernels (num-ctas=1)")
        if not (self.target.startswith("cuda:") and self.target[5:].isdigit()):
            raise ValueError(f"target={self.target}: must be cuda:<capability>, e.g. cuda:90")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        op.attributes[NUM_CTAS] = IntegerAttr(self.num_ctas, i32)
        op.attributes[NUM_WARPS] = IntegerAttr(self.num_warps, i32)
        op.attributes[TARGET] = StringAttr(self.target)
        op.attributes[THREADS_PER_WARP] = IntegerAttr(self.threads_per_warp, i32)
        for func in [f for f in walk_list(op) if isinstance(f, FuncOp)]:
            if func.body.blocks:
                self._convert_function(func)

    def gather_offsets_layout(self) -> SliceEncoding:
        """The layout of a TMA gather/scatter's row offsets (see the module docstring)."""
        parent = BlockedEncoding((1, 4), (self.threads_per_warp, 1), (1, self.num_warps), (1, 0))
        return SliceEncoding(0, parent)

    def cat_layout(self, cat: CatOp) -> BlockedEncoding:
        """A ``tt.cat`` result's layout: the default one with its per-thread run along the
        fastest dim grown until a thread holds as many elements as its two operands
        together (rounded up to a power of two), as Triton's conversion (and verifier)
        require."""
        t = cat.results[0].type
        assert isinstance(t, TensorType)
        enc = default_blocked(t.get_shape(), self.num_warps, self.threads_per_warp)
        per_thread = [_elements_per_thread(o.type, self.num_warps, self.threads_per_warp) for o in cat.operands]
        want = 1 << (sum(per_thread) - 1).bit_length()
        have = _elements_per_thread(t, self.num_warps, self.threads_per_warp)
        if want <= have:
            return enc
        spt = list(enc.size_per_thread)
        spt[enc.order[0]] *= want // have
        return BlockedEncoding(tuple(spt), enc.threads_per_warp, enc.warps_per_cta, enc.order)

    def _convert_function(self, func: FuncOp) -> None:
        body = func.body
        for v in walk_values(body):
            t = v.type
            if not isinstance(t, TensorType) or layout_of(v) is not None:
                continue
            _check_default_layout_shape(v)
            if isinstance(v, OpResult) and isinstance(v.op, ReduceOp):
                enc = SliceEncoding(v.op.axis.value.data, layout_of(v.op.srcs[0]))  # type: ignore[arg-type]
            elif isinstance(v, OpResult) and isinstance(v.op, CatOp):
                enc = self.cat_layout(v.op)
            elif isinstance(v, OpResult) and isinstance(v.op, DotOp):
                enc = dot_result_blocked(t.get_shape(), self.num_warps, self.threads_per_warp)
            else:
                enc = default_blocked(t.get_shape(), self.num_warps, self.threads_per_warp)
            retype(v, with_layout(t, enc))
        # the dots, gathers / scatters and returns, in walk order (the conversions
        # inserted below are none of them)
        ops = walk_list(func)
        for dot in [o for o in ops if isinstance(o, DotOp)]:
            parent = layout_of(dot.d)
            for i in (0, 1):
                dot.operands[i] = convert_before(dot.operands[i], DotOperandEncoding(i, parent), dot)  # type: ignore[arg-type]
            dot.operands[2] = convert_before(dot.operands[2], parent, dot)  # type: ignore[arg-type]
        LayoutEngine(body).rewrite({})
        offsets = self.gather_offsets_layout()
        for g in [o for o in ops if isinstance(o, (DescriptorGatherOp, DescriptorScatterOp))]:
            g.operands[1] = convert_before(g.x_offsets, offsets, g)
        returns = [o for o in ops if isinstance(o, ReturnOp)]
        outputs = [v.type for v in returns[0].operands] if returns else list(func.function_type.outputs.data)
        entry = body.blocks.first
        assert entry is not None
        func.properties["function_type"] = FunctionType.from_lists([a.type for a in entry.args], outputs)


def _elements_per_thread(t: object, num_warps: int, threads_per_warp: int) -> int:
    """Registers a thread holds of a tensor of type ``t`` in its default layout."""
    assert isinstance(t, TensorType)
    shape = tuple(t.get_shape())
    return to_linear_layout(default_blocked(shape, num_warps, threads_per_warp), shape).in_dim_size("register")


def _check_default_layout_shape(value: SSAValue) -> None:
    """Refuse (``PassFailedException`` at the value's op) a tensor whose shape has no
    default blocked layout: rank 0 (Triton's conversion crashes on it), a zero-size
    dimension, or a dimension that is not a power of two (its verifier rejects those)."""
    ty = value.type
    assert isinstance(ty, TensorType)
    shape = tuple(ty.get_shape())
    if not shape:
        why = "a rank-0 tensor has no default layout"
    elif any(d <= 0 for d in shape):
        why = "a tensor with a zero-size dimension has no default layout"
    elif any(d & (d - 1) for d in shape):
        why = "a tensor whose dimensions are not powers of two has no default layout"
    else:
        return
    raise _refusal(value, f"{ConvertTritonToTritonGPUPass.name}: {ty}: {why}")


def _refusal(value: SSAValue, message: str) -> PassFailedException:
    """A refusal located at the op defining ``value`` (or owning the block argument)."""
    error = PassFailedException(message)
    error.op = value.op if isinstance(value, OpResult) else value.owner.parent_op()  # type: ignore[attr-defined]
    return error
