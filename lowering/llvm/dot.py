"""``tt.dot`` in registers: FMA dots (any non-MMA parent) and ``mma.sync`` (``#ttg.nvidia_mma``
version 2 parents).

``%d = tt.dot %a, %b, %c``: ``d[.., m, n] = c[.., m, n] + Σ_k a[.., m, k] · b[.., k, n]``.

Which registers a thread combines follows from the layouts alone
(:mod:`ltc.lowering.llvm.dot_registers`): for an FMA dot, every (lane, warp) basis of A
must be C's with N replaced by K = 0 (B's: M replaced by K = 0), so a thread holds the
whole K strip of its rows and columns; layouts that do not agree are refused by name.

* FMA (:func:`_fma_dot`): for k ascending (outermost), per C register,
  ``acc = fma(a[m, k], b[k, n], acc)`` starting from C's register — Triton's order
  (``llvm.fmuladd``: one rounding per step when fp fusion is on, else a rounded multiply
  and a rounded add). Integers: ``acc = acc + a · b`` (wrapping), narrower operands sign-extended to the
  result's width first. ``inputPrecision`` does not
  change an FMA dot (Triton computes it in the operands' type); ``tf32x3``/``bf16x*`` are
  refused.
* MMA (``#ttg.nvidia_mma`` parents): :mod:`ltc.lowering.llvm.mma_sync`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import Float32Type, Float64Type, IntegerType, TensorType
from xdsl.ir import Operation

from ltc.encodings.dot_operand import DotOperandEncoding
from ltc.encodings.nvidia_mma import NvidiaMmaEncoding
from ltc.lowering.llvm.function import DeferredTensor, FunctionLowering, Handler, Lowered, LoweringError, ThreadTensor
from ltc.lowering.llvm.dot_registers import (
    Coords,
    check_operand_thread_parts,
    input_precision,
    operand_reader,
    operand_register,
    register_index,
)
from ltc.lowering.llvm.mma_sync import mma_dot
from ltc.lowering.llvm.thread_index import register_constants
from ltc.passes.layout_ir import encoding_of_type

__all__ = ["DOT_HANDLERS"]


def _fma_dot(
    fl: FunctionLowering, op: Operation, a: ThreadTensor | DeferredTensor, b: ThreadTensor | DeferredTensor, c: ThreadTensor
) -> list[Lowered]:
    a_t, res_t = op.operands[0].type, op.results[0].type
    assert isinstance(a_t, TensorType) and isinstance(res_t, TensorType)
    elem, a_elem = res_t.element_type, a_t.element_type
    is_int = isinstance(elem, IntegerType)
    widen = is_int and isinstance(a_elem, IntegerType) and 1 < a_elem.width.data < elem.width.data
    if a_elem != op.operands[1].type.element_type or (a_elem != elem and not widen):  # type: ignore[attr-defined]
        raise LoweringError(op, f"FMA 'tt.dot' of {a_elem} operands into {elem} is not supported (promote the operands first)")
    if not (is_int or isinstance(elem, Float32Type | Float64Type)):
        raise LoweringError(op, f"FMA 'tt.dot' of {elem} is not supported (f32, f64 and integers are)")
    precision = input_precision(op)
    if precision not in ("ieee", "tf32"):
        raise LoweringError(op, f"FMA 'tt.dot' with inputPrecision = {precision} is not supported")
    check_operand_thread_parts(op, a.layout, b.layout, c.layout)
    k_size = a_t.get_shape()[-1]
    a_index, b_index = register_index(a.layout), register_index(b.layout)
    bld = fl.b
    fma_name = "llvm.fma.f32" if isinstance(elem, Float32Type) else "llvm.fma.f64"
    a_reg, b_reg = operand_reader(a), operand_reader(b)
    # one accumulator per distinct result element (broadcast registers share it)
    first: dict[Coords, int] = {}
    consts = register_constants(c.layout)
    for r, const in enumerate(consts):
        first.setdefault(const, r)
    acc = {const: c.regs[r] for const, r in first.items()}
    # k outermost, as Triton's FMA dot: each step needs one column of A and one row of B
    # live, not every operand element at once (the sum of each result is the same chain)
    for k in range(k_size):
        for const in first:
            *batch, m, n = const
            x = a_reg(operand_register(op, a_index, (*batch, m, k), "a"))
            y = b_reg(operand_register(op, b_index, (*batch, k, n), "b"))
            if widen:  # integer operands are signed (as the interpreter reads them)
                x, y = bld.cast("sext", x, elem), bld.cast("sext", y, elem)
            if is_int:
                acc[const] = bld.binary("add", acc[const], bld.binary("mul", x, y))
            elif bld.fp_contract:
                acc[const] = bld.intrinsic(fma_name, [x, y, acc[const]], elem)
            else:
                acc[const] = bld.binary("fadd", acc[const], bld.binary("fmul", x, y))
    return [fl.tensor(op, res_t, [acc[const] for const in consts])]


def _dot(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    a, b, c = args
    if not all(isinstance(v, ThreadTensor | DeferredTensor) for v in args):
        raise LoweringError(op, "'tt.dot' of scalars")
    assert isinstance(c, ThreadTensor)
    a_enc, b_enc = encoding_of_type(op.operands[0].type), encoding_of_type(op.operands[1].type)
    if not isinstance(a_enc, DotOperandEncoding) or not isinstance(b_enc, DotOperandEncoding):
        raise LoweringError(op, "'tt.dot' whose operands are not in #ttg.dot_op layouts is not supported")
    parent = encoding_of_type(op.results[0].type)
    if isinstance(parent, NvidiaMmaEncoding):
        return mma_dot(fl, op, a, b, c, parent)
    return _fma_dot(fl, op, a, b, c)


DOT_HANDLERS: dict[str, Handler] = {"tt.dot": _dot}
"""``tt.dot`` (see the module doc)."""

