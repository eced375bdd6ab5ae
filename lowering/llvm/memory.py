"""Lowering of global memory ops: ``tt.addptr``, ``tt.load``, ``tt.store``.

Vector width (paper Table 2, Triton's rule): along o0, the tensor dim of the layout's
first register basis, a thread holds ``c`` consecutive elements in registers 0..c-1
when register basis i is 2^i·e_{o0} for i < log2(c) (``contigPerThread``). The width
is ``vec = min(c, alignment(ptr), 128 / bits)`` with the axis-info alignment of the
pointers along o0, and no more than the mask's constancy along o0. A vector of vec
elements moves as words of ``min(vec·bits, max(32, bits))`` bits — e.g. 8 × f16 is
``ld.global.v4.b32`` — through inline PTX with the mask as a ``@p`` guard and the
``other`` values (0 without ``other``, as Triton's code) moved in first.

ltc's rule, taken where it is wider (paper Table 2's ``[rows, k]`` copies): a run of
registers g..g+v-1 (g a multiple of v) may cross dims — rows of a contiguous tile — when
the pointer tensor has constant strides ``s`` in bytes (``passes/strides.py``: element
i is at ``base + Σ_d s_d·i_d``, ``D`` divides ``base``). Register r's element is the XOR of
the layout bases of r's bits and of the thread's lane/warp/block bits, so when the run
bases' components along each dim have bits no other basis has (XOR is then a sum) and
run basis j has ``Σ_d s_d·b_d = 2^j·elemBytes``, registers g+i are at ``addr(g) + i·elemBytes``
for every thread. The run must be aligned: ``addr(g)`` is divisible by
``min(D, 2^v(s_d)·2^v(b_d))`` over the other bases ``b`` (``2^v``: largest power of two
dividing), which v·elemBytes must divide. A mask must be constant over the run: each run
basis stays inside one aligned constancy block of the mask's axis info along every dim.

Broadcast registers (zero register bases) reuse the canonical register's load and are
not stored twice; when lanes or warps hold copies of one element (zero lane/warp
bases) only the copy with those bits zero stores it. A scalar store (every thread holds
the value) is made by thread 0 alone.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import IntegerType, TensorType, i1
from xdsl.ir import Attribute, Operation, SSAValue

from ltc.dialects import tt
from ltc.linear_layout import LinearLayout
from ltc.lowering.llvm.builder import REGISTER_CONSTRAINT, ThreadBuilder, bit_width, int_type
from ltc.lowering.llvm.function import FunctionLowering, Handler, Lowered, LoweringError, ThreadTensor, map_registers, scalar_type
from ltc.passes.axis_info import AxisInfo, alignment, mask_alignment
from ltc.passes.strides import Strides, pow2_divisor

__all__ = [
    "MEMORY_HANDLERS",
    "contiguous_registers",
    "fastest_dim",
    "first_thread",
    "free_register_mask",
    "operand_of",
    "owner_predicate",
    "registers_of",
    "run_alignment",
    "run_is_contiguous",
    "single_writer",
    "spanning_width",
    "vector_width",
]


def fastest_dim(layout: LinearLayout) -> int:
    """o0: the tensor dim of the first non-zero register basis (the last dim if none)."""
    names = layout.out_dim_names
    for i in range(layout.in_dim_size_log2("register")):
        for d, n in enumerate(names):
            if layout.basis("register", i, n):
                return d
    return len(names) - 1


def contiguous_registers(layout: LinearLayout, dim: int) -> int:
    """``contigPerThread``: c such that register basis i is 2^i along ``dim`` for i < log2(c)."""
    names = layout.out_dim_names
    k = 0
    while k < layout.in_dim_size_log2("register"):
        basis = [layout.basis("register", k, n) for n in names]
        if basis[dim] != 1 << k or any(v for d, v in enumerate(basis) if d != dim):
            break
        k += 1
    return 1 << k


def vector_width(fl: FunctionLowering, op: Operation, layout: LinearLayout, bits: int) -> int:
    """Elements per global access of ``op`` (a load or store) — see the module docstring:
    Triton's rule, or ltc's (:func:`spanning_width`) where that is wider."""
    o0 = fastest_dim(layout)
    vec = min(contiguous_registers(layout, o0), max(1, 128 // bits))
    if fl.axis is None:
        return 1
    vec = min(vec, alignment(fl.axis.get(op.operands[0]), o0, bits, is_pointer=True))
    mask = _mask_operand(op)
    if mask is not None:
        vec = min(vec, mask_alignment(fl.axis.get(mask), o0))
    vec = max(1, 1 << (vec.bit_length() - 1))
    return max(vec, spanning_width(fl, op, layout, bits))


def _other_bases(layout: LinearLayout, run: int) -> Iterator[list[int]]:
    """The bases (one component per tensor dim) of every input bit but registers 0..run-1."""
    run_bits = run.bit_length() - 1
    for name in layout.in_dim_names:
        for i in range(layout.in_dim_size_log2(name)):
            if name != "register" or i >= run_bits:
                yield [layout.basis(name, i, out) for out in layout.out_dim_names]


def run_is_contiguous(layout: LinearLayout, strides: Strides, run: int, elem_bytes: int) -> bool:
    """Whether registers g..g+run-1 (g a multiple of ``run``) of every thread are at
    ``addr(g) + i·elem_bytes``, for a pointer tensor of ``strides`` (bytes) in ``layout``
    (module docstring: run bases disjoint in bits from all others, basis j one step of
    ``2^j·elem_bytes``)."""
    rank = len(layout.out_dim_names)
    taken = [0] * rank
    for b in _other_bases(layout, run):
        for d in range(rank):
            taken[d] |= b[d]
    for j in range(run.bit_length() - 1):
        b = [layout.basis("register", j, out) for out in layout.out_dim_names]
        if any(b[d] & taken[d] for d in range(rank)):
            return False
        if sum(s * x for s, x in zip(strides.strides, b, strict=True)) != (1 << j) * elem_bytes:
            return False
        for d in range(rank):
            taken[d] |= b[d]
    return True


def run_alignment(layout: LinearLayout, strides: Strides, run: int) -> int:
    """A power of two dividing the address of the first element of every group of
    ``run`` registers, for a pointer tensor of ``strides`` (bytes) in ``layout``: the
    group's index along dim d is the XOR of ``b_d`` over the bases ``b`` of the other
    register bits, lanes, warps and blocks that are set, so it is divisible by the least
    ``2^v(b_d)``, and the address ``base + Σ_d s_d·i_d`` by the least ``2^v(s_d)·2^v(b_d)``."""
    div = strides.divisibility
    for b in _other_bases(layout, run):
        for s, x in zip(strides.strides, b, strict=True):
            if s and x:
                div = min(div, pow2_divisor(s) * pow2_divisor(x))
    return div


def _mask_constant_over_run(layout: LinearLayout, mask_type: Attribute, mask_info: AxisInfo, run: int) -> bool:
    """Whether a mask is equal on registers g..g+run-1: along every dim the run's register
    bases stay below the (power-of-two part of the) mask's constancy, so each index of
    the run falls in the same aligned constancy block."""
    if not isinstance(mask_type, TensorType):
        return True  # one scalar for all registers
    for i in range(run.bit_length() - 1):
        for d, out in enumerate(layout.out_dim_names):
            if layout.basis("register", i, out) >= pow2_divisor(mask_info.constancy[d]):
                return False
    return True


def spanning_width(fl: FunctionLowering, op: Operation, layout: LinearLayout, bits: int) -> int:
    """Elements per global access by ltc's rule (module docstring): the longest run of
    registers that is contiguous and aligned by the pointer's strides and under a
    constant mask; 1 where nothing is proven."""
    if fl.strides is None or bits % 8:
        return 1
    strides = fl.strides.get(op.operands[0])
    if strides is None or len(strides.strides) != len(layout.out_dim_names):
        return 1
    elem_bytes = bits // 8
    mask = _mask_operand(op)
    cap = min(max(1, 128 // bits), layout.in_dim_size("register"))
    run = 1
    while 2 * run <= cap:
        nxt = 2 * run
        if not run_is_contiguous(layout, strides, nxt, elem_bytes):
            break
        if run_alignment(layout, strides, nxt) % (nxt * elem_bytes):
            break
        if mask is not None and not _mask_constant_over_run(layout, mask.type, fl.axis.get(mask), nxt):
            break
        run = nxt
    return run


def _mask_operand(op: Operation) -> SSAValue | None:
    m = getattr(op, "mask", None)
    return m if isinstance(m, SSAValue) else None


def operand_of(op: Operation, name: str, args: list[Lowered]) -> Lowered | None:
    """The lowered operand ``name`` of ``op`` (None where the op has no such operand)."""
    v = getattr(op, name, None)
    if not isinstance(v, SSAValue):
        return None
    return args[list(op.operands).index(v)]


def _word_bits(vec: int, bits: int) -> int:
    return min(vec * bits, max(32, bits))


_PTX_TYPE = {8: "u8", 16: "b16", 32: "b32", 64: "b64"}


def _word_type(bits: int) -> IntegerType:
    return int_type(16 if bits == 8 else bits)


def registers_of(v: Lowered | None, n: int) -> list[SSAValue | None]:
    """``n`` scalars of ``v``: a tensor's registers, a scalar repeated, or None's."""
    if v is None:
        return [None] * n
    return list(v.regs) if isinstance(v, ThreadTensor) else [v] * n


def free_register_mask(layout: LinearLayout) -> int:
    """The register bits of ``layout`` that repeat another register's element."""
    return layout.free_variable_masks().get("register", 0)


def _words_of(b: ThreadBuilder, elems: list[SSAValue], word_bits: int) -> list[SSAValue]:
    bits = bit_width(elems[0].type) if elems[0].type != i1 else 8
    per_word = max(1, word_bits // bits)
    wt = _word_type(word_bits)
    return [b.pack(elems[k : k + per_word], wt) for k in range(0, len(elems), per_word)]


def _elements_of(b: ThreadBuilder, words: list[SSAValue], t: Attribute, word_bits: int, vec: int) -> list[SSAValue]:
    bits = bit_width(t) if t != i1 else 8
    out: list[SSAValue] = []
    if word_bits == 8:
        for w in words:
            x = b.cast("trunc", w, int_type(8))
            out.append(b.cast("trunc", x, i1) if t == i1 else b.from_bits(x, t))
        return out
    per_word = max(1, word_bits // bits)
    for w in words:
        out.extend(b.unpack(w, t, per_word))
    return out[:vec]


def _vector_text(first: int, count: int) -> str:
    names = ", ".join(f"${first + i}" for i in range(count))
    return f"{{ {names} }}" if count > 1 else names


def _load(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    b = fl.b
    ptrs = args[0]
    t = op.results[0].type
    elem = scalar_type(t)
    bits = bit_width(elem) if elem != i1 else 8
    if not isinstance(ptrs, ThreadTensor):
        layout = None
        n, vec = 1, 1
        ptr_regs: list[SSAValue] = [ptrs]
    else:
        layout = ptrs.layout
        n = len(ptrs.regs)
        vec = vector_width(fl, op, layout, bits)
        ptr_regs = list(ptrs.regs)
    masks = registers_of(operand_of(op, "mask", args), n)
    others = registers_of(operand_of(op, "other", args), n)
    word_bits = _word_bits(vec, bits)
    nwords = vec * bits // word_bits
    wt = _word_type(word_bits)
    free = free_register_mask(layout) if layout is not None else 0
    regs: list[SSAValue | None] = [None] * n
    for g in range(0, n, vec):
        if g & free:
            continue
        text = []
        operands: list[SSAValue] = [ptr_regs[g]]
        constraints = [f"={REGISTER_CONSTRAINT[word_bits]}"] * nwords + ["l"]
        mov = f"mov.b{16 if word_bits == 8 else word_bits}"
        if others[g] is not None and masks[g] is not None:
            other_words = _words_of(b, [o for o in others[g : g + vec]], word_bits)  # type: ignore[misc]
            for k, w in enumerate(other_words):
                text.append(f"{mov} ${k}, ${nwords + 1 + k};")
                operands.append(w)
                constraints.append(REGISTER_CONSTRAINT[word_bits])
        elif masks[g] is not None:
            # No ``other``: masked-off elements are 0, as in Triton's code (its language
            # leaves them undefined, but kernels sum them and get 0 there)
            text.extend(f"{mov} ${k}, 0;" for k in range(nwords))
        guard = ""
        if masks[g] is not None:
            guard = f"@${nwords + len(operands)} "
            operands.append(masks[g])  # type: ignore[arg-type]
            constraints.append("b")
        v = f".v{nwords}" if nwords > 1 else ""
        text.append(f"{guard}ld.global{v}.{_PTX_TYPE[word_bits]} {_vector_text(0, nwords)}, [ ${nwords} + 0 ];")
        words = b.asm("\n\t".join(text), ",".join(constraints), operands, [wt] * nwords, side_effects=True)
        for k, e in enumerate(_elements_of(b, words, elem, word_bits, vec)):
            regs[g + k] = e
    for r in range(n):
        if regs[r] is None:
            regs[r] = regs[r & ~free]
    if layout is None:
        return [regs[0]]  # type: ignore[list-item]
    return [fl.tensor(op, t, regs)]  # type: ignore[arg-type]


def owner_predicate(fl: FunctionLowering, layout: LinearLayout) -> SSAValue | None:
    """True on the one thread of each group of lanes/warps that hold the same elements."""
    free = layout.free_variable_masks()
    # one test of tid.x (= warp · 2^lane_bits + lane) covers both; a test of the warp
    # index alone (tid >> 5) would be warp-uniform, which ptxas turns into branches
    mask = free.get("lane", 0) | (free.get("warp", 0) << fl.lane_bits)
    if not mask:
        return None
    b = fl.b
    return b.icmp("eq", b.binary("and", fl.tid(), b.i32(mask)), b.i32(0))


def first_thread(fl: FunctionLowering) -> SSAValue:
    """``tid.x == 0``: a scalar store's one writer (every thread holds the scalar; Triton
    also lets only thread 0 store it)."""
    b = fl.b
    return b.icmp("eq", fl.tid(), b.i32(0))


def single_writer(fl: FunctionLowering, layout: LinearLayout | None) -> tuple[SSAValue | None, int]:
    """Who writes an element of a tensor in ``layout`` (None: a scalar) once: the owner
    predicate of its thread (``owner_predicate``; thread 0 for a scalar) and the free
    register bits (registers that repeat another's element, to skip)."""
    if layout is None:
        return first_thread(fl), 0
    return owner_predicate(fl, layout), free_register_mask(layout)


def _store(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    b = fl.b
    ptrs, values = args[0], args[1]
    elem = scalar_type(op.operands[1].type)
    bits = bit_width(elem) if elem != i1 else 8
    if not isinstance(ptrs, ThreadTensor):
        layout, n, vec = None, 1, 1
        ptr_regs: list[SSAValue] = [ptrs]
        val_regs: list[SSAValue] = [values]  # type: ignore[list-item]
    else:
        assert isinstance(values, ThreadTensor)
        layout, n = ptrs.layout, len(ptrs.regs)
        vec = vector_width(fl, op, layout, bits)
        ptr_regs, val_regs = list(ptrs.regs), list(values.regs)
    masks = registers_of(operand_of(op, "mask", args), n)
    owner, free = single_writer(fl, layout)
    word_bits = _word_bits(vec, bits)
    nwords = vec * bits // word_bits
    for g in range(0, n, vec):
        if g & free:
            continue
        words = _words_of(b, val_regs[g : g + vec], word_bits)
        pred = masks[g]
        if owner is not None:
            pred = owner if pred is None else b.binary("and", pred, owner)
        operands: list[SSAValue] = [ptr_regs[g], *words]
        constraints = ["l"] + [REGISTER_CONSTRAINT[word_bits]] * nwords
        guard = ""
        if pred is not None:
            guard = f"@${len(operands)} "
            operands.append(pred)
            constraints.append("b")
        v = f".v{nwords}" if nwords > 1 else ""
        ptx_type = "b8" if word_bits == 8 else _PTX_TYPE[word_bits]
        b.asm(f"{guard}st.global{v}.{ptx_type} [ $0 + 0 ], {_vector_text(1, nwords)};", ",".join(constraints), operands)
    return []


def _addptr(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    pointee = tt.pointee_type_of(op.operands[0].type)
    if pointee is None or isinstance(pointee, TensorType):
        raise LoweringError(op, "tt.addptr needs a pointer to scalars")
    elem = scalar_type(pointee)
    return map_registers(fl, op, args, lambda b, _op, a: b.gep(a[0], a[1], elem))


MEMORY_HANDLERS: dict[str, Handler] = {
    "tt.addptr": _addptr,
    "tt.load": _load,
    "tt.store": _store,
}

