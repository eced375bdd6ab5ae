"""ThreadBuilder's rewrites: bit-linear values built canonically, common subexpressions.

The built ops are evaluated by a small interpreter over every ``tid.x`` of a CTA and
compared with the formula they must compute, and the exact op sequence is checked where
the docstring promises a shape.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Block, SSAValue

from ltc.lowering.llvm.builder import ThreadBuilder

MASK = 0xFFFFFFFF
THREADS = 256


def _tid_builder() -> tuple[ThreadBuilder, SSAValue]:
    b = ThreadBuilder(Block())
    tid = b.sreg("tid.x")
    b.assume_bits(tid, THREADS - 1)
    return b, tid


def _evaluate(block: Block, tid: SSAValue, value: SSAValue, t: int) -> int:
    """The i32 ``value`` on thread ``t`` (the ops of :data:`_EVAL` only)."""
    env: dict[SSAValue, int] = {tid: t}
    for op in block.ops:
        if op.results and op.results[0] is tid:
            continue
        if isinstance(op, llvm.ConstantOp):
            assert isinstance(op.value, IntegerAttr)
            env[op.results[0]] = op.value.value.data & MASK
            continue
        args = [env[o] for o in op.operands]
        env[op.results[0]] = _EVAL[type(op)](*args, op) & MASK
    return env[value]


def _icmp(a: int, b: int, op: llvm.ICmpOp) -> int:
    pred = op.predicate.value.data
    return int({0: a == b, 1: a != b}[pred])


_EVAL = {
    llvm.AndOp: lambda a, b, _: a & b,
    llvm.OrOp: lambda a, b, _: a | b,
    llvm.XOrOp: lambda a, b, _: a ^ b,
    llvm.AddOp: lambda a, b, _: a + b,
    llvm.MulOp: lambda a, b, _: a * b,
    llvm.ShlOp: lambda a, b, _: a << b,
    llvm.LShrOp: lambda a, b, _: a >> b,
    llvm.ICmpOp: _icmp,
    llvm.SelectOp: lambda c, a, b, _: a if c else b,
}


def _xor_of(columns: list[int], t: int) -> int:
    out = 0
    for i, c in enumerate(columns):
        if (t >> i) & 1:
            out ^= c
    return out & MASK


def _ops(block: Block) -> list[str]:
    out = []
    for op in block.ops:
        if isinstance(op, llvm.ConstantOp):
            continue
        if isinstance(op, llvm.CallIntrinsicOp):
            out.append("tid")
            continue
        consts = [o.owner.value.value.data for o in op.operands if isinstance(o.owner, llvm.ConstantOp)]
        out.append(f"{op.name.removeprefix('llvm.')}" + "".join(f" {c:#x}" for c in consts))
    return out


def test_row_times_stride_becomes_one_shift_and_mask() -> None:
    """``((tid >> 3) & 15) * 64`` and ``(tid & 7) * 8`` share one ``tid << 3``."""
    b, tid = _tid_builder()
    row = b.binary("and", b.binary("lshr", tid, b.i32(3)), b.i32(15))
    col = b.binary("and", tid, b.i32(7))
    block = b.block
    before = len(_ops(block))
    r = b.binary("mul", row, b.i32(64))
    c = b.binary("mul", col, b.i32(8))
    assert _ops(block)[before:] == ["shl 0x3", "and 0x3c0", "and 0x38"]
    for t in range(THREADS):
        assert _evaluate(block, tid, r, t) == ((t >> 3) & 15) * 64
        assert _evaluate(block, tid, c, t) == (t & 7) * 8


def test_masks_that_clear_nothing_are_left_out() -> None:
    """tid < 256, so ``tid >> 5`` needs no mask to be the warp index."""
    b, tid = _tid_builder()
    v, bits = b.bit_linear(tid, [0, 0, 0, 0, 0, 1, 2, 4])
    assert _ops(b.block) == ["tid", "lshr 0x5"]
    assert bits == 7
    assert v is not None


def test_pure_integer_ops_are_made_once() -> None:
    b, tid = _tid_builder()
    x = b.binary("add", tid, b.binary("mul", tid, b.i32(3)))
    y = b.binary("add", b.binary("mul", tid, b.i32(3)), tid)
    assert x is y
    assert b.icmp("eq", x, b.i32(5)) is b.icmp("eq", x, b.i32(5))
    assert _ops(b.block) == ["tid", "mul 0x3", "add", "icmp 0x5"]


@settings(max_examples=200, deadline=None)
@given(
    columns=st.lists(st.integers(0, (1 << 12) - 1), min_size=1, max_size=8),
    constant=st.integers(0, (1 << 12) - 1),
    shift=st.integers(0, 6),
    mask=st.integers(0, (1 << 14) - 1),
)
def test_bit_linear_values_compute_their_formula(columns: list[int], constant: int, shift: int, mask: int) -> None:
    """Every rewrite keeps the value: affine, then shifted, masked, multiplied, XORed."""
    b, tid = _tid_builder()
    v = b.affine(tid, columns, constant)
    left = b.binary("shl", v, b.i32(shift))
    right = b.binary("lshr", v, b.i32(shift))
    masked = b.binary("and", v, b.i32(mask))
    times = b.binary("mul", v, b.i32(1 << shift))
    mixed = b.binary("xor", masked, left)
    lane = b.binary("and", tid, b.i32(31))
    of_lane, _ = b.bit_linear(lane, columns[:5])
    for t in range(0, THREADS, 7):
        f = _xor_of(columns, t) ^ constant
        assert _evaluate(b.block, tid, v, t) == f
        assert _evaluate(b.block, tid, left, t) == (f << shift) & MASK
        assert _evaluate(b.block, tid, right, t) == f >> shift
        assert _evaluate(b.block, tid, masked, t) == f & mask
        assert _evaluate(b.block, tid, times, t) == (f << shift) & MASK
        assert _evaluate(b.block, tid, mixed, t) == (f & mask) ^ ((f << shift) & MASK)
        if of_lane is not None:
            assert _evaluate(b.block, tid, of_lane, t) == _xor_of(columns[:5], t & 31)


def test_carrying_add_is_not_treated_as_xor() -> None:
    """``(tid & 1) + 1`` carries: it must stay an add, not become an XOR."""
    b, tid = _tid_builder()
    bit = b.binary("and", tid, b.i32(1))
    s = b.binary("add", bit, b.i32(1))
    both = b.binary("add", bit, bit)
    for t in range(4):
        assert _evaluate(b.block, tid, s, t) == (t & 1) + 1
        assert _evaluate(b.block, tid, both, t) == 2 * (t & 1)


def test_known_non_negative_index_is_zero_extended_once() -> None:
    """A GEP by a non-negative i32 (bit 31 impossible) widens it with one zext, shared
    by every GEP of that index; an index of unknown sign stays as it is (sign-extended
    by the GEP)."""
    from ltc.lowering.llvm.builder import GLOBAL_PTR
    from xdsl.dialects.builtin import f16

    b, tid = _tid_builder()
    block = b.block
    p = block.insert_arg(GLOBAL_PTR, 0)
    q = block.insert_arg(GLOBAL_PTR, 1)
    idx = b.binary("and", tid, b.i32(31))
    b.gep(p, idx, f16)
    b.gep(q, idx, f16)
    assert _ops(block).count("zext") == 1
    x = b.binary("sub", b.i32(0), tid)
    b.gep(p, x, f16)
    assert _ops(block).count("zext") == 1


def test_unused_values_are_removed_after_lowering() -> None:
    from ltc.lowering.llvm.to_llvm import remove_dead_ops

    b, tid = _tid_builder()
    row = b.binary("and", b.binary("lshr", tid, b.i32(3)), b.i32(15))
    kept = b.binary("mul", row, b.i32(64))  # rebuilt from tid: row itself is now unused
    b.asm("st.global.b32 [$0], $1;", "l,r", [b.i32(0), kept])
    remove_dead_ops(b.block)
    assert _ops(b.block) == ["tid", "shl 0x3", "and 0x3c0", "inline_asm 0x0"]


def test_constant_bits_outside_the_value_are_added_not_xored() -> None:
    """``v ⊕ 0x2010`` and ``v ⊕ 0x3010`` with v ∈ {0, 0x10} share ``v ⊕ 0x10``; the
    rest is an add (an address immediate for ptxas)."""
    b, tid = _tid_builder()
    before = len(_ops(b.block))
    a1 = b.affine(tid, [0x10], 0x2010)
    a2 = b.affine(tid, [0x10], 0x3010)
    assert _ops(b.block)[before:] == ["shl 0x4", "and 0x10", "xor 0x10", "add 0x2000", "add 0x3000"]
    for t in range(8):
        assert _evaluate(b.block, tid, a1, t) == ((t & 1) << 4) ^ 0x2010
        assert _evaluate(b.block, tid, a2, t) == ((t & 1) << 4) ^ 0x3010


def test_multiplying_a_thread_index_by_zero_or_shifting_it_far() -> None:
    """A multiple of 0 (the sort kernels' ``idx * 0`` for a 1-long dim) is no shift by -1:
    it is left to a plain multiply, and so is a shift of 32 bits or more."""
    b, tid = _tid_builder()
    lane = b.binary("and", tid, b.i32(31))
    zero = b.binary("mul", lane, b.i32(0))
    far = b.binary("shl", lane, b.i32(40))
    for t in range(THREADS):
        assert _evaluate(b.block, tid, zero, t) == 0
    assert far is not None
