"""``tt.dot`` with an ``#ttg.nvidia_mma`` version 2 result: one ``mma.sync`` per
(16 x 8 result tile, K step), as inline PTX (sm_80).

Instructions by operand type (A and B alike; C is D's type):

* f32 with ``inputPrecision = tf32``: ``m16n8k8 .f32.tf32.tf32.f32`` on the f32 bits as
  they are (the tensor core ignores their low 13 bits), as Triton 3.9's PTX does — no
  ``cvt.rna.tf32.f32``, whose extra registers made ptxas spill attention kernels;
* f16: ``m16n8k16 .f32.f16.f16.f32`` (or ``.f16…f16`` into an f16 result); bf16:
  ``m16n8k16 .f32.bf16.bf16.f32``; i8: ``m16n8k32 .s32.s8.s8.s32``.

With ``w = 32 / element bits`` elements packed in a 32-bit register (low first), the PTX
ISA gives lane ``l`` (``g = l / 4``, ``t = l % 4``) these elements of a tile:

* A (16 x 8w; 4 registers): register i, element p at (g + 8 (i % 2), w t + p + 4w (i / 2));
* B (8w x 8; 2 registers): register i, element p at (w t + p + 4w i, g);
* C / D (16 x 8; element e, 4 of them: one a register, or two f16 a register):
  (g + 8 (e / 2), 2 t + e % 2).

Each is a tile-relative offset for the lane (g, t part) XOR one for the element, so a
layout holds the fragments when its lane bases are the ISA's lane offsets (checked, else
refused by name): then the element of fragment slot e of the tile at register-constant
origin O is the register of constant ``O ⊕ offset(e)`` (looked up; see
:mod:`ltc.lowering.llvm.dot_registers`). Warps: A's warp bases must be C's with N → K = 0,
B's C's with M → K = 0 (each warp computes its own tiles). The K steps of a tile run in
ascending order, each mma accumulating into the previous one's D; the K steps are the
outer loop, so one K slice of the operands is live at a time.

M below 16 or N below 8 (a 1x1x64 dot, say): the layouts repeat the tensor over the tile
(their bases past the shape are 0), so a tile coordinate is read modulo the size and every
repeat computes the same sum. K must be whole steps: a repeated K slice would count twice.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IntegerType,
    TensorType,
    f16,
    f32,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue

from ltc.encodings.nvidia_mma import NvidiaMmaEncoding
from ltc.linear_layout import LinearLayout
from ltc.lowering.llvm.builder import ThreadBuilder
from ltc.lowering.llvm.dot_registers import (
    Coords,
    check_operand_thread_parts,
    input_precision,
    operand_reader,
    operand_register,
    register_index,
)
from ltc.lowering.llvm.function import DeferredTensor, FunctionLowering, Lowered, LoweringError, ThreadTensor
from ltc.lowering.llvm.thread_index import register_constants

__all__ = ["fragment_offsets", "mma_dot"]

Offset = tuple[int, int]


def fragment_offsets(operand: str, w: int) -> tuple[list[Offset], list[Offset]]:
    """The ISA's fragment of ``operand`` (``"a"``, ``"b"``, ``"c"``) with ``w`` A/B
    elements a register: (tile offsets of the elements of lane 0 in slot order — register
    by register, low element first —, offset of each lane bit 0..4) as (row, col)."""
    if operand == "a":
        elems = [(8 * (i % 2), p + 4 * w * (i // 2)) for i in range(4) for p in range(w)]
        lanes = [(0, w), (0, 2 * w), (1, 0), (2, 0), (4, 0)]
    elif operand == "b":
        elems = [(p + 4 * w * i, 0) for i in range(2) for p in range(w)]
        lanes = [(w, 0), (2 * w, 0), (0, 1), (0, 2), (0, 4)]
    else:
        elems = [(8 * (e // 2), e % 2) for e in range(4)]
        lanes = [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)]
    return elems, lanes


def _check_lanes(op: Operation, layout: LinearLayout, operand: str, w: int, fit: Callable[[Offset], Offset]) -> None:
    """Refuse unless ``layout``'s lane bases are the ISA's lane offsets of ``operand``
    (folded into the tensor by ``fit`` where it is smaller than a tile)."""
    _, lanes = fragment_offsets(operand, w)
    rank = layout.num_out_dims
    got = [tuple(layout.basis("lane", i, d) for d in layout.out_dim_names) for i in range(layout.in_dim_size_log2("lane"))]
    want = [(*([0] * (rank - 2)), *fit((r, c))) for r, c in lanes]
    if got != want:
        raise LoweringError(
            op,
            f"'tt.dot' whose operand {operand} layout does not hold mma.sync fragments (lane bases {got}, the ISA's {want}) "
            "is not supported",
        )


def _instruction(op: Operation, a_elem: Attribute, c_elem: Attribute) -> tuple[str, str, str, int]:
    """(shape, A/B type, accumulator type, w) of the mma for these element types."""
    precision_name = input_precision(op)
    if isinstance(a_elem, Float32Type) and isinstance(c_elem, Float32Type):
        if precision_name != "tf32":
            raise LoweringError(op, f"'tt.dot' of f32 on tensor cores with inputPrecision = {precision_name} is not supported (tf32 is)")
        return "m16n8k8", "tf32", "f32", 1
    if isinstance(a_elem, Float16Type) and isinstance(c_elem, Float32Type | Float16Type):
        return "m16n8k16", "f16", "f32" if isinstance(c_elem, Float32Type) else "f16", 2
    if isinstance(a_elem, BFloat16Type) and isinstance(c_elem, Float32Type):
        return "m16n8k16", "bf16", "f32", 2
    if isinstance(a_elem, IntegerType) and a_elem.width.data == 8 and c_elem == i32:
        return "m16n8k32", "s8", "s32", 4
    raise LoweringError(op, f"'tt.dot' of {a_elem} operands into {c_elem} on tensor cores (mma.sync) is not supported")


def mma_dot(
    fl: FunctionLowering,
    op: Operation,
    a: ThreadTensor | DeferredTensor,
    b: ThreadTensor | DeferredTensor,
    c: ThreadTensor,
    parent: NvidiaMmaEncoding,
) -> list[Lowered]:
    """Lower ``op`` (see the module doc)."""
    a_t, b_t, res_t = op.operands[0].type, op.operands[1].type, op.results[0].type
    assert isinstance(a_t, TensorType) and isinstance(b_t, TensorType) and isinstance(res_t, TensorType)
    if parent.version_major != 2:
        raise LoweringError(op, f"'tt.dot' into #ttg.nvidia_mma versionMajor = {parent.version_major} (wgmma) is not supported")
    if fl.config.capability < 80:
        raise LoweringError(op, f"'tt.dot' with mma.sync needs sm_80 or newer, not sm_{fl.config.capability}")
    if tuple(parent.instr_shape[-2:]) != (16, 8):
        raise LoweringError(op, f"'tt.dot' with #ttg.nvidia_mma instrShape {list(parent.instr_shape)} is not supported (16 x 8 is)")
    if a_t.element_type != b_t.element_type:
        raise LoweringError(op, f"'tt.dot' of {a_t.element_type} by {b_t.element_type} on tensor cores is not supported")
    shape, ab, acc, w = _instruction(op, a_t.element_type, res_t.element_type)
    *_, m_size, k_size = a_t.get_shape()
    n_size = res_t.get_shape()[-1]
    k_step = 8 * w
    # M or N smaller than a tile: the layouts repeat the tensor over the tile (their bases
    # beyond the shape are 0), so every row (column) of the tile computes the same dot
    # product and a tile coordinate reads the tensor at itself modulo the size. K may not
    # be: a repeated K slice would be summed twice.
    if (m_size % 16 and 16 % m_size) or (n_size % 8 and 8 % n_size) or k_size % k_step:
        raise LoweringError(
            op,
            f"'tt.dot' of {m_size}x{n_size}x{k_size} is not supported with mma.sync {shape} "
            f"(M, N multiples or divisors of 16, 8; K a multiple of {k_step})",
        )
    m_mask, n_mask = min(m_size, 16) - 1 | ~15, min(n_size, 8) - 1 | ~7
    fit_c: Callable[[Offset], Offset] = lambda rc: (rc[0] & m_mask, rc[1] & n_mask)  # noqa: E731
    fit_a: Callable[[Offset], Offset] = lambda rc: (rc[0] & m_mask, rc[1])  # noqa: E731
    fit_b: Callable[[Offset], Offset] = lambda rc: (rc[0], rc[1] & n_mask)  # noqa: E731
    for layout, operand, fit in ((a.layout, "a", fit_a), (b.layout, "b", fit_b), (c.layout, "c", fit_c)):
        _check_lanes(op, layout, operand, w, fit)
    check_operand_thread_parts(op, a.layout, b.layout, c.layout, dims=("warp", "block"))

    bld = fl.b
    a_index, b_index, c_index = register_index(a.layout), register_index(b.layout), register_index(c.layout)
    a_offsets, _ = fragment_offsets("a", w)
    b_offsets, _ = fragment_offsets("b", w)
    c_offsets, _ = fragment_offsets("c", w)
    a_words = _OperandWords(fl, a, ab, w)
    b_words = _OperandWords(fl, b, ab, w)

    c_constants = register_constants(c.layout)
    origins = sorted({(*const[:-2], const[-2] & ~15, const[-1] & ~7) for const in c_constants})
    accumulators: dict[Coords, list[SSAValue]] = {}
    for origin in origins:
        *batch, m0, n0 = origin
        c_regs = [operand_register(op, c_index, (*batch, *fit_c((m0 | r, n0 | col))), "c") for r, col in c_offsets]
        accumulators[origin] = [c.regs[r] for r in c_regs]
    # K steps outermost (each tile's steps still in ascending order): a step needs one
    # K slice of A and B live, not all of them
    for k0 in range(0, k_size, k_step):
        for origin in origins:
            *batch, m0, n0 = origin
            a_regs = [operand_register(op, a_index, (*batch, *fit_a((m0 | r, k0 | col))), "a") for r, col in a_offsets]
            b_regs = [operand_register(op, b_index, (*batch, *fit_b((k0 | r, n0 | col))), "b") for r, col in b_offsets]
            accumulators[origin] = _mma(
                bld, shape, ab, acc, a_words.words(a_regs), b_words.words(b_regs), accumulators[origin]
            )
    result: dict[Coords, SSAValue] = {}
    for origin in origins:
        *batch, m0, n0 = origin
        for (r, col), v in zip(c_offsets, accumulators[origin], strict=True):
            result.setdefault((*batch, *fit_c((m0 | r, n0 | col))), v)  # (repeats hold the same sum)
    missing = [const for const in c_constants if const not in result]
    if missing:
        raise LoweringError(op, f"'tt.dot' result register at {missing[0]} is in no mma.sync tile (its layout is not an mma layout)")
    return [fl.tensor(op, res_t, [result[const] for const in c_constants])]


class _OperandWords:
    """The 32-bit operand registers of an mma, made once per distinct element group:
    tf32 the f32 bits, 16- and 8-bit elements packed low first."""

    def __init__(self, fl: FunctionLowering, t: ThreadTensor | DeferredTensor, ab: str, w: int) -> None:
        self.b = fl.b
        self.read = operand_reader(t)
        self.ab = ab
        self.w = w
        self.memo: dict[tuple[SSAValue, ...], SSAValue] = {}

    def words(self, regs: list[int]) -> list[SSAValue]:
        out = []
        for i in range(0, len(regs), self.w):
            group = tuple(self.read(r) for r in regs[i : i + self.w])
            if group not in self.memo:
                if self.ab == "tf32":  # the f32 bits: the tensor core reads their top 19 (as Triton's PTX)
                    self.memo[group] = self.b.to_bits(group[0])
                else:
                    self.memo[group] = self.b.pack(list(group), i32)
            out.append(self.memo[group])
        return out


def _mma(
    bld: ThreadBuilder, shape: str, ab: str, acc: str, a: list[SSAValue], b: list[SSAValue], c: list[SSAValue]
) -> list[SSAValue]:
    """One ``mma.sync``: the four accumulator elements after D = A·B + C."""
    if acc == "f16":  # two f16 pairs in two registers
        c_words = [bld.pack([c[0], c[1]], i32), bld.pack([c[2], c[3]], i32)]
        letter, types = "r", [i32, i32]
    else:
        c_words = list(c)
        letter, types = ("f", [f32] * 4) if acc == "f32" else ("r", [i32] * 4)
    nd = len(c_words)
    slots = iter(range(nd + len(a) + len(b) + nd))

    def vec(n: int) -> str:
        return "{" + ", ".join(f"${next(slots)}" for _ in range(n)) + "}"

    text = f"mma.sync.aligned.{shape}.row.col.{acc}.{ab}.{ab}.{acc} {vec(nd)}, {vec(len(a))}, {vec(len(b))}, {vec(nd)};"
    constraints = ",".join([f"={letter}"] * nd + ["r"] * (len(a) + len(b)) + [letter] * nd)
    d = bld.asm(text, constraints, [*a, *b, *c_words], types)
    if acc == "f16":
        return [*bld.unpack(d[0], f16, 2), *bld.unpack(d[1], f16, 2)]
    return d
