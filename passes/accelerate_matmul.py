"""``tritongpu-accelerate-matmul``: give every ``tt.dot`` a tensor-core layout, as Triton 3.9.

For each ``tt.dot`` whose result is laid out but not yet ``#ttg.nvidia_mma`` (last dot
of the module first, as Triton's greedy driver visits them):

* **Version** by compute capability ``cc`` (``ttg.target = "cuda:cc"``): below 80 the dot
  stays (FMA); 80..89 tries MMA v2; 90..99 tries v3 then v2; 100..119 tries v5 (tcgen05,
  which ltc refuses by name) then v2; 120..129 tries v2. v5 needs rank 2, 4 or 8 warps,
  ``M % 64 == 0``, ``N % 8 == 0``, ``K >= 256 / bits(A)``, no f64, integers only as
  i8 x i8 -> i32 and not on cc 103. v3 needs ``num_warps % 4 == 0``, rank 2,
  ``M % 64 == 0``, ``N % 8 == 0``, ``K >= 256 / bits(A)`` and A in {f16, bf16, f32
  (tf32), i8, f8E4M3FN, f8E5M2}; an fp8 dot with an f32 result also needs
  ``maxNumImpreciseAcc >= 32``. Any MMA needs both operands in {fp8, f16, bf16, f32,
  f64, i8}; f32 x f32 only with ``inputPrecision = tf32``; f64 only on cc 80 and 90.
* **instrShape**: v2 ``[.., 16, 8]`` (``[.., 8, 8]`` for f64); v3 ``[16, n, 256 / bits]``
  with ``n`` the largest valid width dividing N and at most ``max(N / nWarps, 8)``,
  ``nWarps = max(num_warps / max(M / 16, 1), 1)``.
* **warpsPerCTA**, v2: the warps of a related dot that already has an MMA layout
  (related = connected through def-use edges in the dot's region, ``tt.trans`` cut);
  else ``[nw, 1]`` (``[1, nw]`` when N > M) if any related dot exists; else the side
  with more 16x8 repetitions is doubled until ``nw`` (ties to M). A batched (rank-3)
  dot gives ``min(nw, batch)`` warps to the batch and balances the rest. v3: ``[nw, 1]``
  if a dot is in the result's forward slice, else from ``[4, 1]`` double M while
  ``M > 16 * wM``, then N.
* **Operands**, v2: ``ttg.convert_layout`` to ``#ttg.dot_op<{opIdx, parent, kWidth}>``
  with ``kWidth = max(32 / bits, 1)``, ``bits`` the narrowest width loaded in either
  operand's backward slice (through elementwise ops, views, broadcasts, conversions;
  halved when a ``tt.join`` is met). v3 (``ttng.warp_group_dot``): B always, and A when
  it comes from a load or a block argument, go to shared memory through
  ``ttg.local_alloc`` into ``#ttg.nvmma_shared`` (order from the source's registers and
  lanes; K-major for types other than f16/bf16); otherwise A is converted to a
  ``dot_op`` with ``kWidth = 32 / bits(A)``. The accumulator is converted to the MMA
  layout and the result back to the dot's old layout; ops left dead are erased.
* Afterwards fp8 operands of an MMA v2 dot are promoted to f16 (``tt.fp_to_fp``) unless
  the target has fp8 MMA v2 (cc 89, 120), and operands of an FMA dot whose element type
  differs from the result's are promoted to it (``arith.extf``; integers fail, as in
  Triton).

Triton runs this as a greedy pattern rewrite, which also folds, erases dead ops and
hoists constants everywhere in the module; run ``canonicalize`` for that here.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import is_trivially_dead
from xdsl.utils.exceptions import PassFailedException

from ltc.dialects.arith import ExtFOp
from ltc.dialects.tt import (
    DescriptorGatherOp,
    DescriptorLoadOp,
    DotOp,
    FpToFpOp,
    InputPrecision,
    JoinOp,
    LoadOp,
    TransOp,
    is_float_type,
)
from ltc.dialects.ttg import (
    ConvertLayoutOp,
    LocalAllocOp,
    MemDescIndexOp,
    MemDescReinterpretOp,
    MemDescSubsliceOp,
    MemDescTransOp,
    MemDescType,
)
from ltc.dialects.ttg_attrs import layout_attr
from ltc.dialects.ttng import WarpGroupDotOp
from ltc.encodings import CGALayout, Encoding, to_linear_layout
from ltc.encodings.dot_operand import DotOperandEncoding
from ltc.encodings.nvidia_mma import NvidiaMmaEncoding
from ltc.encodings.shared import NVMMASharedEncoding, shape_per_cta
from ltc.linear_layout import LinearLayout
from ltc.passes.layout_ir import ModuleConfig, encoding_of_type, layout_of, tensor_shape, walk_list, with_layout

__all__ = [
    "AccelerateMatmulPass",
    "dot_operand_k_width",
    "instr_shape",
    "mma_version",
    "nvmma_shared_for",
    "order_for_memory",
    "orig_bit_width",
    "supports_mma",
]

# Triton's InputPrecision enum as the integer ttng.warp_group_dot stores.
_PRECISION_CODE = {
    InputPrecision.TF32: 0,
    InputPrecision.TF32x3: 1,
    InputPrecision.IEEE: 2,
    InputPrecision.BF16x3: 3,
    InputPrecision.BF16x6: 4,
}
_FP8_NATIVE = (Float8E4M3FNType, Float8E5M2Type)
_FP8_ANY = (Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType, Float8E5M2FNUZType)
# MMA v3 instruction widths N, largest first (wgmma's i8 forms have fewer).
_V3_N_FLOAT = tuple(range(256, 0, -8))
_V3_N_INT8 = (224, 208, 192, 176, 160, 144, 128, 112, 96, 80, 64, 48, 32, 24, 16, 8)


# --------------------------------------------------------------------------- types
def _elem(value_or_type: SSAValue | Attribute) -> Attribute:
    t = value_or_type.type if isinstance(value_or_type, SSAValue) else value_or_type
    return t.element_type if isinstance(t, (TensorType, MemDescType)) else t


def _bits(t: Attribute) -> int:
    width = getattr(t, "bitwidth", None)
    if width is None:
        raise PassFailedException(f"tritongpu-accelerate-matmul: element type {t} has no bit width")
    return int(width)


def _is_i8(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data == 8


def _precision(dot: DotOp) -> InputPrecision:
    return dot.inputPrecision.data if dot.inputPrecision is not None else InputPrecision.IEEE


def _max_imprecise_acc(dot: DotOp) -> int:
    attr = dot.maxNumImpreciseAcc
    return attr.value.data if isinstance(attr, IntegerAttr) else 0


def _cga(enc: Encoding | None) -> CGALayout:
    cga = getattr(enc, "cga", None)
    return cga if isinstance(cga, CGALayout) else CGALayout()


def _shape_per_cta(t: Attribute) -> tuple[int, ...]:
    return shape_per_cta(tensor_shape(t), _cga(encoding_of_type(t)))


# --------------------------------------------------------------------------- version
def _operand_supports_mma(elem: Attribute, version: int) -> bool:
    """Triton's ``supportMMA(Value, version)``: fp8 (promoted when needed), f16 and bf16
    everywhere; f32, f64 and i8 from v2 on."""
    if isinstance(elem, (*_FP8_ANY, Float16Type, BFloat16Type)):
        return True
    return version >= 2 and (isinstance(elem, (Float32Type, Float64Type)) or _is_i8(elem))


def _supports_mma_v5(dot: DotOp, num_warps: int, capability: int) -> bool:
    """Triton's ``supportMMA(dot, 5)``: rank 2, 4 or 8 warps, ``K >= 256 / bits(A)``,
    ``M % 64 == 0``, ``N % 8 == 0``, no f64, and integers only as i8 x i8 -> i32 (not on
    sm_103, which has no integer tcgen05 MMA)."""
    a_elem, b_elem, d_elem = _elem(dot.a), _elem(dot.b), _elem(dot.d)
    ints = [isinstance(e, IntegerType) for e in (a_elem, b_elem, d_elem)]
    if any(ints):
        if not (_is_i8(a_elem) and _is_i8(b_elem) and isinstance(d_elem, IntegerType) and d_elem.width.data == 32):
            return False
        if capability == 103:
            return False
    shape = _shape_per_cta(dot.d.type)
    if len(shape) != 2 or num_warps not in (4, 8):
        return False
    if tensor_shape(dot.a.type)[-1] < 256 // _bits(a_elem):
        return False
    if shape[0] % 64 or shape[1] % 8:
        return False
    return not any(isinstance(e, Float64Type) for e in (a_elem, b_elem, d_elem))


def supports_mma(dot: DotOp, version: int, num_warps: int, capability: int = 100) -> bool:
    """Whether MMA ``version`` (2, 3 or 5) can compute ``dot`` (Triton's ``supportMMA``)."""
    a_elem, b_elem = _elem(dot.a), _elem(dot.b)
    both_f32 = isinstance(a_elem, Float32Type) and isinstance(b_elem, Float32Type)
    if both_f32 and _precision(dot) != InputPrecision.TF32:
        return False
    if version == 5:
        return _supports_mma_v5(dot, num_warps, capability)
    if version == 3:
        if tensor_shape(dot.a.type)[-1] < 256 // _bits(a_elem):
            return False
        shape = _shape_per_cta(dot.d.type)
        if len(shape) == 3:
            return False
        v3_types = (*_FP8_NATIVE, Float16Type, BFloat16Type, Float32Type)
        if not (
            num_warps % 4 == 0
            and shape[-2] % 64 == 0
            and shape[-1] % 8 == 0
            and (isinstance(a_elem, v3_types) or _is_i8(a_elem))
        ):
            return False
        # wgmma accumulates fp8 products imprecisely: f32 accuracy needs the split.
        if _max_imprecise_acc(dot) < 32 and isinstance(a_elem, _FP8_NATIVE) and isinstance(_elem(dot.d), Float32Type):
            return False
    if both_f32:
        return version >= 2
    return _operand_supports_mma(a_elem, version) and _operand_supports_mma(b_elem, version)


def mma_version(capability: int, dot: DotOp, num_warps: int) -> int:
    """The MMA version Triton picks for ``dot`` on ``cuda:capability`` (0: none)."""
    if capability < 75:
        candidates: tuple[int, ...] = (1,)
    elif capability < 90:
        candidates = (2,)
    elif capability < 100:
        candidates = (3, 2)
    elif capability < 120:
        candidates = (5, 2)
    elif capability < 130:
        candidates = (2,)
    else:
        raise PassFailedException(f"tritongpu-accelerate-matmul: compute capability {capability} is not supported")
    for version in candidates:
        if supports_mma(dot, version, num_warps, capability):
            if version == 5:  # Triton would use tcgen05 here; ltc cannot lay it out yet
                raise PassFailedException("tritongpu-accelerate-matmul: MMA v5 (tcgen05, sm_100) is not implemented")
            return version
    return 0


def instr_shape(version: int, shape: Sequence[int], elem: Attribute, num_warps: int) -> tuple[int, ...]:
    """Triton's ``mmaVersionToInstrShape`` for the result shape (per CTA) and A's type."""
    if version == 2:
        tile = (8, 8) if isinstance(elem, Float64Type) else (16, 8)
        return (1,) * (len(shape) - 2) + tile
    if version != 3:
        raise ValueError(f"no instruction shape for MMA v{version}")
    m, n = shape[0], shape[1]
    k = 256 // _bits(elem)
    valid_n = _V3_N_INT8 if _is_i8(elem) else _V3_N_FLOAT
    m_warps = max(m // 16, 1)
    n_warps = max(num_warps // m_warps, 1)
    max_n = max(n // n_warps, 8)
    for cand in valid_n:
        if n % cand == 0 and cand <= max_n:
            return (16, cand, k)
    raise PassFailedException(f"tritongpu-accelerate-matmul: no MMA v3 instruction for {m}x{n} {elem}")


# --------------------------------------------------------------------------- slices
def _users(value: SSAValue) -> Iterator[Operation]:
    for use in value.uses:
        yield use.operation


def _nested_ops(op: Operation) -> Iterator[Operation]:
    for region in op.regions:
        for block in region.blocks:
            yield from block.ops


def _related_dots(dot: DotOp) -> list[Operation]:
    """The dots connected to ``dot`` through def-use edges among the ops of its region,
    ``tt.trans`` excluded (Triton's ``multiRootGetSlice`` with its filter), in program
    order (a topological order of one block)."""
    region = dot.parent_region()
    seen: set[int] = {id(dot)}
    stack: list[Operation] = [dot]
    found: list[Operation] = []

    def visit(op: Operation | None) -> None:
        if op is None or id(op) in seen:
            return
        if op.parent_region() is not region or isinstance(op, TransOp):
            return
        seen.add(id(op))
        stack.append(op)

    while stack:
        op = stack.pop()
        if op is not dot and isinstance(op, DotOp):
            found.append(op)
        for operand in op.operands:
            if isinstance(operand, OpResult):
                visit(operand.op)
        for result in op.results:
            for user in _users(result):
                visit(user)
    block = dot.parent_block()
    if block is None:
        return found
    position = {id(o): i for i, o in enumerate(block.ops)}
    return sorted(found, key=lambda o: position.get(id(o), 0))


def _forward_slice_has_dot(value: SSAValue) -> bool:
    """Whether a dot-like op is in ``value``'s forward slice (users, their results'
    users, and every op nested in their regions, as MLIR's ``getForwardSlice``)."""
    seen: set[int] = set()
    stack = list(_users(value))
    while stack:
        op = stack.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        if isinstance(op, (DotOp, WarpGroupDotOp)) or op.name == "tt.dot_scaled":
            return True
        stack.extend(_nested_ops(op))
        for result in op.results:
            stack.extend(_users(result))
    return False


def _balanced_warps(shape: Sequence[int], num_warps: int) -> tuple[int, int]:
    """Split ``num_warps`` over an [M, N] tile so each warp's 16x8 repetitions stay
    balanced (registers: repM*4*repK + repN*2*repK), ties toward M whose tile is the
    larger; warps beyond one tile go to M."""
    reps = [math.ceil(shape[0] / 16), math.ceil(shape[1] / 8)]
    warps = [1, 1]
    while warps[0] * warps[1] < num_warps:
        if reps[0] >= reps[1]:
            warps[0] *= 2
            if reps[0] != 1:
                reps[0] //= 2
        else:
            warps[1] *= 2
            reps[1] //= 2
    return warps[0], warps[1]


def _warps_v2(dot: DotOp, shape: Sequence[int], num_warps: int) -> tuple[int, ...]:
    rank = len(shape)
    if rank == 3:  # batched: warps go to the batch first, the rest is balanced
        batch = min(num_warps, shape[0])
        return (batch, *_balanced_warps(shape[1:], num_warps // batch))
    chained = False
    for other in _related_dots(dot):
        res_enc = layout_of(other.results[0])
        if len(tensor_shape(other.results[0].type)) != rank:
            continue
        if isinstance(res_enc, NvidiaMmaEncoding):
            return res_enc.warps_per_cta
        chained = True
    if chained:
        return (num_warps, 1) if shape[0] >= shape[1] else (1, num_warps)
    return _balanced_warps(shape, num_warps)


def _warps_v3(dot: DotOp, shape: Sequence[int], num_warps: int) -> tuple[int, ...]:
    if _forward_slice_has_dot(dot.d):
        return (num_warps, 1)  # chained dots (attention): keep rows in one warp group
    warps = [4, 1]
    while warps[0] * warps[1] < num_warps:
        if shape[0] > 16 * warps[0]:
            warps[0] *= 2
        else:
            warps[1] *= 2
    return tuple(warps)


# --------------------------------------------------------------------------- kWidth
_VIEW_OPS = ("tt.expand_dims", "tt.reshape", "tt.trans", "tt.join", "tt.split")
_SLICE_OPS = (
    *_VIEW_OPS,
    "tt.load",
    "tt.descriptor_load",
    "tt.broadcast",
    "ttg.convert_layout",
    "ttg.fp4_to_fp",
    # Triton's elementwise, side-effect-free ops outside the arith and math dialects
    "tt.fp_to_fp",
    "tt.bitcast",
    "tt.int_to_ptr",
    "tt.ptr_to_int",
    "tt.addptr",
    "tt.clampf",
    "tt.precise_sqrt",
    "tt.precise_divf",
    "tt.mulhiui",
)


def _in_bit_width_slice(op: Operation) -> bool:
    if op.name in _SLICE_OPS:
        return True
    if op.name.startswith(("arith.", "math.")):
        return True
    if op.name in ("tt.extern_elementwise", "tt.elementwise_inline_asm"):
        pure = op.properties.get("pure") or op.attributes.get("pure")
        return isinstance(pure, IntegerAttr) and bool(pure.value.data)
    return False


def _backward_slice(value: SSAValue) -> list[Operation]:
    """MLIR's ``getBackwardSlice`` of ``value`` with Triton's bit-width filter, block
    arguments omitted; the value's own defining op is not part of it."""
    root = value.op if isinstance(value, OpResult) else None
    if root is None or not _in_bit_width_slice(root):
        return []
    seen: set[int] = {id(root)}
    out: list[Operation] = []
    stack = [root]
    while stack:
        op = stack.pop()
        if op is not root:
            out.append(op)
        for operand in op.operands:
            if isinstance(operand, OpResult) and id(operand.op) not in seen and _in_bit_width_slice(operand.op):
                seen.add(id(operand.op))
                stack.append(operand.op)
    return out


def orig_bit_width(value: SSAValue) -> int:
    """The narrowest element width loaded in ``value``'s backward slice (Triton's
    ``computeOrigBitWidth``): 4 when an fp4 upcast is met, halved through a join."""
    ops = _backward_slice(value)
    if any(op.name == "ttg.fp4_to_fp" for op in ops):
        return 4
    width = _bits(_elem(value))
    for op in ops:
        if isinstance(op, (LoadOp, DescriptorLoadOp)) and isinstance(op.results[0].type, TensorType):
            width = min(width, _bits(_elem(op.results[0])))
    if any(isinstance(op, JoinOp) for op in ops):
        width //= 2
    return width


def dot_operand_k_width(bit_width: int) -> int:
    """``kWidth`` of an MMA operand whose narrowest element has ``bit_width`` bits."""
    return max(32 // bit_width, 1)


# --------------------------------------------------------------------------- shared operands
def _order_per_dim(layout: LinearLayout, in_dim: str, default: Sequence[int]) -> tuple[int, ...]:
    """Dims in the order ``in_dim``'s bases first move along them, then ``default``."""
    rank = layout.num_out_dims
    dims = [int(name[3:]) for name in layout.out_dim_names]
    order: list[int] = []
    for basis in layout.bases.get(in_dim, []):
        for i in range(rank):
            if basis[i]:
                if dims[i] not in order:
                    order.append(dims[i])
                break
    order += [d for d in default if d not in order]
    return tuple(order)


def order_for_memory(t: Attribute) -> tuple[int, ...]:
    """Triton's ``getOrderForMemory`` of a distributed tensor type: the register order
    of its linear layout, or the lane order when the lanes' fastest dim has one element
    per thread."""
    enc = encoding_of_type(t)
    if enc is None:
        raise ValueError(f"{t} has no layout")
    shape = tensor_shape(t)
    layout = to_linear_layout(enc, shape)
    rank = len(shape)
    order = _order_per_dim(layout, "register", tuple(reversed(range(rank))))
    thread_order = _order_per_dim(layout, "lane", order)
    if order == thread_order:
        return order
    # Elements per thread along each dim; a broadcast register counts toward the dim
    # of the last real one (Triton's basesPerDim without skipping broadcasts).
    dims = [int(name[3:]) for name in layout.out_dim_names]
    per_dim = [1] * rank
    last = 0
    for basis in layout.bases.get("register", []):
        nonzero = [i for i in range(rank) if basis[i]]
        if nonzero:
            last = dims[nonzero[0]]
        per_dim[last] *= 2
    return thread_order if per_dim[thread_order[0]] == 1 else order


def nvmma_shared_for(
    shape: Sequence[int], order: Sequence[int], elem: Attribute, cga: CGALayout = CGALayout()
) -> NVMMASharedEncoding:
    """Triton's ``NVMMASharedEncodingAttr::get(shape, order, ...)``: the widest swizzle
    (128, 64, 32 bytes) that the contiguous dim's byte size is a multiple of; none when
    fewer than 8 rows; transposed when dim 0 is contiguous."""
    spc = shape_per_cta(shape, cga)
    bits = _bits(elem)
    contig_bytes = spc[order[0]] * bits // 8
    swizzle = next((w for w in (128, 64, 32) if contig_bytes >= w and contig_bytes % w == 0), 0)
    rows = math.prod(spc[d] for d in order[1:])
    if len(spc) < 2 or rows < 8:
        swizzle = 0
    transposed = len(order) > 1 and order[0] == 0
    return NVMMASharedEncoding(swizzle, transposed, bits, layout_rank=max(len(spc), 1), cga=cga)


def _peel_converts(value: SSAValue) -> SSAValue:
    while isinstance(value, OpResult) and isinstance(value.op, ConvertLayoutOp):
        value = value.op.src
    return value


def comes_from_load_or_block_arg(value: SSAValue) -> bool:
    """Whether ``value`` is, through conversions, transposes and memdesc views, a load
    or a block argument (Triton's ``comesFromLoadOrBlockArg``)."""
    views = (ConvertLayoutOp, TransOp, MemDescTransOp, MemDescIndexOp, MemDescSubsliceOp, MemDescReinterpretOp)
    while isinstance(value, OpResult) and isinstance(value.op, views):
        value = value.op.operands[0]
    if isinstance(value, BlockArgument):
        return True
    return isinstance(value, OpResult) and isinstance(value.op, (LoadOp, DescriptorLoadOp, DescriptorGatherOp))


def _insert_after_value(op: Operation, value: SSAValue) -> None:
    if isinstance(value, OpResult):
        Rewriter.insert_op(op, InsertPoint.after(value.op))
    else:
        assert isinstance(value, BlockArgument)
        Rewriter.insert_op(op, InsertPoint.at_start(value.block))


def _shared_operand(value: SSAValue, op_idx: int, allow_transpose: bool, dot: Operation) -> SSAValue:
    """A ``ttg.local_alloc`` of ``value``'s source (conversions peeled) laid out for wgmma,
    located at ``dot``."""
    src = _peel_converts(value)
    src_type = src.type
    assert isinstance(src_type, TensorType)
    order = order_for_memory(src_type)
    if not allow_transpose:  # wgmma reads non-16-bit operands K-major only
        order = (0, 1) if op_idx == 1 else (1, 0)
    shape = tensor_shape(src_type)
    enc = nvmma_shared_for(shape, order, src_type.element_type, _cga(encoding_of_type(src_type)))
    alloc = LocalAllocOp(MemDescType(shape, src_type.element_type, layout_attr(enc)), src)
    alloc.location = dot.location
    _insert_after_value(alloc, src)
    return alloc.result


# --------------------------------------------------------------------------- rewriting
def _convert(value: SSAValue, enc: Encoding, before: Operation) -> SSAValue:
    """A new ``ttg.convert_layout`` of ``value`` to ``enc`` before ``before`` (always
    created, as Triton's pattern does)."""
    cvt = ConvertLayoutOp(value, with_layout(value.type, enc))  # type: ignore[arg-type]
    cvt.location = before.location
    Rewriter.insert_op(cvt, InsertPoint.before(before))
    return cvt.result


def _erase_dead_chain(values: Sequence[SSAValue]) -> None:
    """Erase the ops that feeding ``values`` made dead (as Triton's greedy driver)."""
    stack = [v.op for v in values if isinstance(v, OpResult)]
    while stack:
        op = stack.pop()
        if op.parent is None or not is_trivially_dead(op):
            continue
        operands = list(op.operands)
        Rewriter.erase_op(op)
        stack.extend(v.op for v in operands if isinstance(v, OpResult))


def _rewrite_dot(dot: DotOp, config: ModuleConfig) -> bool:
    old_type = dot.d.type
    old_enc = encoding_of_type(old_type)
    if old_enc is None or isinstance(old_enc, NvidiaMmaEncoding):
        return False
    cc = config.capability
    if cc < 80:  # Volta MMA is gone; Turing falls back to FMA too
        return False
    dtypes = (_elem(dot.a), _elem(dot.b), _elem(dot.d))
    if any(isinstance(t, Float64Type) for t in dtypes) and cc not in (80, 90):
        return False  # only A100/H100 have fast f64 tensor cores
    num_warps = config.num_warps
    version = mma_version(cc, dot, num_warps)
    if version not in (2, 3):
        return False
    shape = _shape_per_cta(old_type)
    instr = instr_shape(version, shape, _elem(dot.a), num_warps)
    warps = _warps_v2(dot, shape, num_warps) if version == 2 else _warps_v3(dot, shape, num_warps)
    mma = NvidiaMmaEncoding(version, 0, tuple(warps), tuple(instr), _cga(old_enc))  # minor 1 was Turing
    new_type = with_layout(old_type, mma)
    acc = _convert(dot.c, mma, dot)
    old_operands = [dot.a, dot.b, dot.c]
    if version == 3:
        a, b = dot.a, dot.b
        a_elem = _elem(a)
        allow_transpose = isinstance(a_elem, (Float16Type, BFloat16Type))
        if comes_from_load_or_block_arg(a):
            a = _shared_operand(a, 0, allow_transpose, dot)
        else:
            a = _convert(a, DotOperandEncoding(0, mma, dot_operand_k_width(_bits(a_elem))), dot)
        b = _shared_operand(b, 1, allow_transpose, dot)
        new_dot: Operation = WarpGroupDotOp(
            a,
            b,
            acc,
            input_precision=_PRECISION_CODE[_precision(dot)],
            max_num_imprecise_acc=_max_imprecise_acc(dot),
        )
    else:
        k_width = dot_operand_k_width(min(orig_bit_width(dot.a), orig_bit_width(dot.b)))
        a = _convert(dot.a, DotOperandEncoding(0, mma, k_width), dot)
        b = _convert(dot.b, DotOperandEncoding(1, mma, k_width), dot)
        props = {k: v for k, v in dot.properties.items() if k in ("inputPrecision", "maxNumImpreciseAcc")}
        new_dot = DotOp.create(operands=[a, b, acc], result_types=[new_type], properties=props)
    new_dot.location = dot.location
    Rewriter.insert_op(new_dot, InsertPoint.before(dot))
    back = ConvertLayoutOp(new_dot.results[0], old_type)  # type: ignore[arg-type]
    back.location = dot.location
    Rewriter.insert_op(back, InsertPoint.before(dot))
    dot.d.replace_all_uses_with(back.result)
    Rewriter.erase_op(dot)
    _erase_dead_chain(old_operands)
    return True


def _promote(value: SSAValue, elem: Attribute, before: Operation) -> SSAValue:
    """``value`` converted to element type ``elem``: ``tt.fp_to_fp`` from fp8, else ``arith.extf``."""
    t = value.type
    assert isinstance(t, TensorType)
    if not is_float_type(t.element_type) or not is_float_type(elem):
        # Triton builds an arith.extf here too, which then fails verification.
        raise PassFailedException(
            f"tritongpu-accelerate-matmul: cannot promote a {t.element_type} dot operand to {elem} "
            "(no tensor-core path for this dot on this target)"
        )
    new_type = TensorType(elem, t.get_shape(), t.encoding)
    op: Operation = FpToFpOp(value, new_type) if isinstance(_elem(t), _FP8_ANY) else ExtFOp(value, new_type)
    op.location = before.location
    Rewriter.insert_op(op, InsertPoint.before(before))
    return op.results[0]


def _decompose_mixed_mode(module: ModuleOp, capability: int) -> None:
    """Promote dot operands the chosen unit cannot multiply natively (Triton's
    ``decomposeMixedModeDotOp``)."""
    for dot in [op for op in walk_list(module) if isinstance(op, DotOp)]:
        a_elem, d_elem = _elem(dot.a), _elem(dot.d)
        mma = layout_of(dot.d)
        if isinstance(mma, NvidiaMmaEncoding):
            native_fp8 = capability in (89, 120) or mma.is_hopper
            if not isinstance(a_elem, _FP8_NATIVE) or native_fp8:
                continue
            target: Attribute = Float16Type()
        else:
            if a_elem == d_elem:
                continue
            target = d_elem
        a = _promote(dot.a, target, dot)
        b = _promote(dot.b, target, dot)
        dot.operands = [a, b, dot.c]


@dataclass(frozen=True)
class AccelerateMatmulPass(ModulePass):
    """Lay out ``tt.dot`` for tensor cores (see the module docstring)."""

    name = "tritongpu-accelerate-matmul"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        config = ModuleConfig.of(op)
        dots = [o for o in walk_list(op) if isinstance(o, DotOp)]
        # Triton's greedy rewrite visits the dots last to first: a dot's warps may copy
        # those of a later dot it feeds.
        for dot in reversed(dots):
            _rewrite_dot(dot, config)
        _decompose_mixed_mode(op, config.capability)
