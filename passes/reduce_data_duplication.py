"""``tritongpu-reduce-data-duplication``: route conversions to ``#ttg.dot_op`` through
shared memory, as Triton 3.9.

A ``ttg.convert_layout`` from a distributed layout to a ``#ttg.dot_op`` (MMA v2/v3 or
blocked parent; AMD parents are left alone) that Triton would not do in registers
becomes

    %m = ttg.local_alloc %src : (tensor<..., #src>) -> !ttg.memdesc<..., #shared, #smem>
    %r = ttg.local_load %m : !ttg.memdesc<..., #shared, #smem> -> tensor<..., #dot_op>

In registers means (``cvt_needs_shared_memory``): a register permutation, or a
conversion within each warp (a warp may pick source lanes by its id when the source is
replicated across warps) needing at most one register<->lane transposition, i.e. one
round of shuffles.

Each element is then stored once and every thread that needs a copy loads it (a
``dot_op`` layout duplicates operand elements across the warps of the other MMA
dimension). ``#shared`` is Triton's ``SwizzledSharedEncodingAttr::get`` for a dot
operand, with the order the source's registers and lanes suggest
(``order_for_memory``): for an MMA (v2 or v3) parent, with ``K`` the extent of the
contiguous dim ``order[0]`` and ``b`` the element bits,

    perPhase = max(1024 / (b * K), 1)       rows sharing one swizzle phase
    vec      = 4 * kWidth, stride = 8       swapped when order[0] is not the K dim
                                            (stride = 4 for 64-bit elements)
    maxPhase = max(max(min(stride, 1024 / (vec * b)), 1) / perPhase, 1)

and ``vec = perPhase = maxPhase = 1`` for any other parent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException
from xdsl.rewriter import InsertPoint, Rewriter

from ltc.dialects.ttg import ConvertLayoutOp, LocalAllocOp, LocalLoadOp, MemDescType
from ltc.dialects.ttg_attrs import layout_attr
from ltc.encodings import CGALayout, SharedEncoding
from ltc.encodings.dot_operand import DotOperandEncoding
from ltc.encodings.nvidia_mma import NvidiaMmaEncoding
from ltc.encodings.shared import SwizzledSharedEncoding, shape_per_cta
from ltc.linear_layout import LayoutError, LinearLayout
from ltc.lowering.plans.locality import trivial_over
from ltc.passes.accelerate_matmul import order_for_memory
from ltc.passes.layout_ir import encoding_of_type, linear_layout_of, tensor_shape, walk_list

__all__ = [
    "ReduceDataDuplicationPass",
    "cvt_needs_shared_memory",
    "minimal_cvt_layout",
    "mixed_transpositions",
    "swizzled_shared_for_dot_operand",
    "reduce_data_duplication",
]

# Hardware dims from slowest to fastest: a conversion that is trivial over the slow
# ones need not move data across them.
_SLOW_TO_FAST = ("block", "warp", "lane", "register")


def minimal_cvt_layout(src: LinearLayout, dst: LinearLayout) -> LinearLayout:
    """Triton's ``minimalCvtLayout``: ``dst^-1 . src`` with the slowest hardware dims
    over which it is the identity (block, then warp, then lane) quotiented out."""
    comp = dst.invert_and_compose(src)
    for dim in _SLOW_TO_FAST:
        if not (src.has_in_dim(dim) and dst.has_in_dim(dim)):
            break
        quotient = comp.quotient([dim])
        if quotient is None:
            break
        comp = quotient
    return comp


def _padded(layout: LinearLayout, n_reg: int, n_lane: int) -> LinearLayout:
    """The register and lane part of ``layout`` with zero bases appended up to
    ``n_reg`` / ``n_lane`` bases (not surjective in general)."""
    zero = (0,) * layout.num_out_dims
    bases = {
        "register": [*layout.bases["register"], *[zero] * (n_reg - layout.in_dim_size_log2("register"))],
        "lane": [*layout.bases["lane"], *[zero] * (n_lane - layout.in_dim_size_log2("lane"))],
    }
    return LinearLayout.from_bases(bases, layout.out_dims)


def mixed_transpositions(src: LinearLayout, dst: LinearLayout) -> int:
    """How many register<->lane bit transpositions a warp-local conversion needs
    (Triton's ``getWarpLayoutConvertDecomposition``): the conversion, broadcast
    registers dropped and register/lane dims padded to equal sizes, is a permutation
    P of register and lane bits; each maximal run of lane bits inside a cycle of P
    that also moves register bits costs one transposition (one round of shuffles)."""
    src = src.remove_zero_bases_along_dim("register")
    dst = dst.remove_zero_bases_along_dim("register")
    n_reg = max(src.in_dim_size_log2("register"), dst.in_dim_size_log2("register"))
    n_lane = max(src.in_dim_size_log2("lane"), dst.in_dim_size_log2("lane"))
    s, t = _padded(src, n_reg, n_lane), _padded(dst, n_reg, n_lane)
    dims = ("register", "lane")
    perm = s.invert_and_compose(t)
    p = {d: [list(b) for b in perm.bases[d]] for d in dims}
    # Bits neither layout uses are fixed points; bits only one side leaves unused
    # are paired up in order.
    s_flat, t_flat = s.flatten_outs(), t.flatten_outs()
    src_free: list[tuple[int, int]] = []
    dst_free: list[tuple[int, int]] = []
    for k, d in enumerate(dims):
        for i in range(s.in_dim_size_log2(d)):
            sv, tv = s_flat.bases[d][i][0], t_flat.bases[d][i][0]
            if sv == 0 and tv == 0:
                p[d][i][k] = 1 << i
            elif sv == 0:
                src_free.append((k, i))
            elif tv == 0:
                dst_free.append((k, i))
    for (sk, si), (dk, di) in zip(src_free, dst_free):
        p[dims[sk]][si][dk] = 1 << di

    # Walk the cycles of P; each step from a lane bit back to a register bit closes one
    # run of lane bits, i.e. one transposition.
    sizes = {"register": n_reg, "lane": n_lane}
    visited: set[tuple[str, int]] = set()
    count = 0
    for d in dims:
        for i in range(sizes[d]):
            cur = (d, i)
            while cur not in visited:
                visited.add(cur)
                nxt = cur
                for k, v in enumerate(p[cur[0]][cur[1]]):
                    if v:
                        nxt = (dims[k], v.bit_length() - 1)
                count += cur[0] == "lane" and nxt[0] == "register"
                cur = nxt
    return count


def _warp_selected_lanes_removed(src: LinearLayout, dst: LinearLayout) -> tuple[LinearLayout, LinearLayout] | None:
    """The register and lane parts of a warp-local conversion with the lane bits that a
    warp selects taken out, or None when the conversion cannot stay in the warp.

    A destination warp basis that differs from the source's must be an element the
    source (replicated across warps there) holds at a lane bit: each warp then reads its
    part by picking source lanes from its warp id, so that lane bit and the warp bit
    take no part in the register/lane permutation. A warp bit held in a source register
    (or a mix of bits) would make the source registers depend on the warp: not a
    shuffle.
    """
    if not trivial_over(src, dst, ("warp", "block")):
        return None
    src_lanes = [tuple(b) for b in src.bases["lane"]]
    zero = (0,) * src.num_out_dims
    for a, b in zip(src.bases["warp"], dst.bases["warp"]):
        if tuple(a) == tuple(b) or not any(b):
            continue
        held = tuple(x ^ y for x, y in zip(a, b))
        if held not in src_lanes:
            return None
        src_lanes[src_lanes.index(held)] = zero
    s = LinearLayout.from_bases({"register": src.bases["register"], "lane": src_lanes}, src.out_dims)
    d = LinearLayout.from_bases({"register": dst.bases["register"], "lane": dst.bases["lane"]}, dst.out_dims)
    return s, d


def cvt_needs_shared_memory(src: LinearLayout, dst: LinearLayout) -> bool:
    """Whether converting ``src`` to ``dst`` goes through shared memory in Triton 3.9:
    not when it only permutes registers, nor when it stays within each warp and needs
    at most one register<->lane transposition (one round of shuffles); a destination
    warp may select its source lanes by warp id when the source is replicated across
    warps. Checked against Triton's ``tritongpu-reduce-data-duplication`` decisions."""
    outs = minimal_cvt_layout(src, dst).out_dim_names
    if outs in ([], ["register"]):
        return False
    if "block" in outs:
        return True
    if "warp" in outs:
        local = _warp_selected_lanes_removed(src, dst)
        if local is None:
            return True
        src, dst = local
    try:
        return mixed_transpositions(src, dst) >= 2
    except LayoutError:  # not a permutation of register and lane bits
        return True


def swizzled_shared_for_dot_operand(
    dot: DotOperandEncoding,
    shape: Sequence[int],
    order: Sequence[int],
    bit_width: int,
    cga: CGALayout = CGALayout(),
) -> SwizzledSharedEncoding:
    """The swizzled shared layout Triton stages a ``dot`` operand in (module docstring)."""
    parent = dot.parent
    if not isinstance(parent, NvidiaMmaEncoding):
        if parent.attr_name.startswith("ttg.amd_"):
            raise PassFailedException(
                "tritongpu-reduce-data-duplication: AMD dot operands are staged with MFMA/WMMA-specific layouts (not in ltc)"
            )
        return SwizzledSharedEncoding(1, 1, 1, tuple(order), cga)
    k = shape_per_cta(shape, cga)[order[0]]
    per_phase = max(1024 // (bit_width * k), 1)
    # rows of one MMA operand tile per swizzle period (f64 MMA operands have 4)
    stride, vec = (4 if bit_width == 64 else 8), 4 * dot.k_width
    rank = len(order)
    k_dim = rank - 1 if dot.op_idx == 0 else rank - 2
    if order[0] != k_dim:
        stride, vec = vec, stride
    max_phase = max(min(stride, 1024 // (vec * bit_width)), 1)
    max_phase = max(max_phase // per_phase, 1)
    return SwizzledSharedEncoding(vec, per_phase, max_phase, tuple(order), cga)


def _rewrite(cvt: ConvertLayoutOp) -> bool:
    src_type, dst_type = cvt.src.type, cvt.result.type
    src_enc, dst_enc = encoding_of_type(src_type), encoding_of_type(dst_type)
    if src_enc is None or isinstance(src_enc, SharedEncoding) or not isinstance(dst_enc, DotOperandEncoding):
        return False
    if dst_enc.parent.attr_name.startswith("ttg.amd_"):
        return False  # AMD operands get MFMA/WMMA-specific shared layouts, not modelled here
    src_ll, dst_ll = linear_layout_of(src_type), linear_layout_of(dst_type)
    assert src_ll is not None and dst_ll is not None
    if not cvt_needs_shared_memory(src_ll, dst_ll):
        return False
    assert isinstance(src_type, TensorType) and isinstance(dst_type, TensorType)
    cga = getattr(src_enc, "cga", CGALayout())
    shared = swizzled_shared_for_dot_operand(
        dst_enc,
        tensor_shape(src_type),
        order_for_memory(src_type),
        src_type.element_type.bitwidth,  # type: ignore[attr-defined]
        cga if isinstance(cga, CGALayout) else CGALayout(),
    )
    alloc = LocalAllocOp(MemDescType(tensor_shape(dst_type), dst_type.element_type, layout_attr(shared)), cvt.src)
    load = LocalLoadOp(alloc.result, dst_type)
    alloc.location = load.location = cvt.location
    Rewriter.insert_op([alloc, load], InsertPoint.before(cvt))
    cvt.result.replace_all_uses_with(load.result)
    Rewriter.erase_op(cvt)
    return True


@dataclass(frozen=True)
class ReduceDataDuplicationPass(ModulePass):
    """Stage ``convert_layout`` to ``#ttg.dot_op`` in shared memory (module docstring)."""

    name = "tritongpu-reduce-data-duplication"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        reduce_data_duplication(op)


def reduce_data_duplication(module: ModuleOp) -> bool:
    """The pass on ``module``; returns whether it changed anything."""
    changed = False
    for cvt in [o for o in walk_list(module) if isinstance(o, ConvertLayoutOp)]:
        changed |= _rewrite(cvt)
    return changed
