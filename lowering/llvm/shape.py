"""Lowering of shape ops: ranges, splats, and the ops that only rename registers.

``tt.make_range`` computes each register's index (:mod:`ltc.lowering.llvm.thread_index`);
``tt.splat`` repeats a scalar. ``tt.broadcast``, ``tt.expand_dims``, ``tt.trans``,
``tt.reshape``, ``tt.join`` and ``tt.split`` are *free* when the result layout is the
source layout seen through the op's index map φ (the layout pipeline chooses such
layouts): then for every lane/warp basis b, φ(dst(b)) = src(b), and result register r
holds the element src-register s holds, where src(s) = φ(dst(r)). Such an op is a
renaming of registers; anything else is refused (the pipeline must have inserted a
``ttg.convert_layout``).

``tt.cat`` may reorder elements (Triton's frontend only emits it with ``can_reorder``), and
is lowered as Triton lowers it: each thread's distinct registers of the first operand, then
those of the second, are the result's distinct registers in order (broadcast registers left
out on both sides, then repeated in the result). Result element ``R(j, t)`` (distinct
register j of thread t) is thus ``A(j, t)`` for j below A's count, else ``B(j - |A|, t)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import IntegerAttr, TensorType
from xdsl.ir import Operation, SSAValue

from ltc.linear_layout import LinearLayout
from ltc.lowering.plans.broadcast import strip_register_broadcast
from ltc.lowering.llvm.thread_index import register_constants, thread_part
from ltc.lowering.llvm.function import FunctionLowering, Handler, Lowered, LoweringError, ThreadTensor

__all__ = ["SHAPE_HANDLERS", "rename_registers"]

Coords = tuple[int, ...]
IndexMap = Callable[[Coords], tuple[int, Coords]]
"""φ: a result index → (operand number, operand index)."""


def _coords(layout: LinearLayout, dim: str, i: int) -> Coords:
    return tuple(layout.basis(dim, i, d) for d in layout.out_dim_names)


def rename_registers(
    fl: FunctionLowering, op: Operation, sources: Sequence[ThreadTensor], result_type: object, phi: IndexMap
) -> ThreadTensor:
    """The result of a free shape op (see the module docstring)."""
    dst = fl.layout(result_type, op)  # type: ignore[arg-type]
    src = sources[0].layout
    # φ is affine (tt.split's second result adds 1 along the split dim): a basis maps by its
    # linear part, φ(b) - φ(0), and must stay in the operand φ(0) reads.
    k0, c0 = phi((0,) * len(dst.out_dim_names))
    for dim in ("lane", "warp", "block"):
        if not dst.has_in_dim(dim):
            continue
        for i in range(dst.in_dim_size_log2(dim)):
            k, c = phi(_coords(dst, dim, i))
            c = tuple(x - y for x, y in zip(c, c0))
            want = _coords(src, dim, i) if src.has_in_dim(dim) and i < src.in_dim_size_log2(dim) else None
            if k != k0 or c != want:
                raise LoweringError(
                    op, f"'{op.name}' is not free between these layouts ({dim} basis {i}): insert a ttg.convert_layout"
                )
    owner: dict[Coords, int] = {}
    for s, c in enumerate(register_constants(src)):
        owner.setdefault(c, s)
    regs = []
    for c in register_constants(dst):
        k, sc = phi(c)
        if sc not in owner:
            raise LoweringError(op, f"'{op.name}' is not free between these layouts: insert a ttg.convert_layout")
        regs.append(sources[k].regs[owner[sc]])
    return fl.tensor(op, result_type, regs)  # type: ignore[arg-type]


def _make_range(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    t = op.results[0].type
    layout = fl.layout(t, op)
    start = op.properties["start"]
    assert isinstance(start, IntegerAttr)
    part = thread_part(fl.b, layout, fl.tid(), fl.lane_bits)
    memo: dict[int, SSAValue] = {}
    regs = []
    for (c,) in register_constants(layout):
        if c not in memo:
            v = part.with_constant(fl.b, 0, c)
            if start.value.data:
                v = fl.b.add_i(v, fl.b.i32(start.value.data))
            memo[c] = v
        regs.append(memo[c])
    return [fl.tensor(op, t, regs)]


def _splat(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    (x,) = args
    if isinstance(x, ThreadTensor):
        raise LoweringError(op, "tt.splat of a tensor")
    return [fl.splat(op, op.results[0].type, x)]


def _shape(t: object) -> tuple[int, ...]:
    assert isinstance(t, TensorType)
    return tuple(t.get_shape())


def _broadcast(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    (x,) = args
    assert isinstance(x, ThreadTensor)
    src_shape = _shape(op.operands[0].type)
    phi: IndexMap = lambda c: (0, tuple(0 if n == 1 else v for v, n in zip(c, src_shape)))  # noqa: E731
    return [rename_registers(fl, op, [x], op.results[0].type, phi)]


def _expand_dims(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    (x,) = args
    assert isinstance(x, ThreadTensor)
    axis = op.properties["axis"].value.data  # type: ignore[attr-defined]
    phi: IndexMap = lambda c: (0, c[:axis] + c[axis + 1 :])  # noqa: E731
    return [rename_registers(fl, op, [x], op.results[0].type, phi)]


def _trans(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    (x,) = args
    assert isinstance(x, ThreadTensor)
    order = [int(v) for v in op.properties["order"].get_values()]  # type: ignore[attr-defined]

    def phi(c: Coords) -> tuple[int, Coords]:
        src = [0] * len(order)
        for i, o in enumerate(order):
            src[o] = c[i]
        return 0, tuple(src)

    return [rename_registers(fl, op, [x], op.results[0].type, phi)]


def _row_major(shape: Sequence[int]) -> tuple[Callable[[Coords], int], Callable[[int], Coords]]:
    def flat(c: Coords) -> int:
        v = 0
        for x, n in zip(c, shape):
            v = v * n + x
        return v

    def unflat(v: int) -> Coords:
        out = []
        for n in reversed(shape):
            out.append(v % n)
            v //= n
        return tuple(reversed(out))

    return flat, unflat


def _reshape(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    (x,) = args
    assert isinstance(x, ThreadTensor)
    flat, _ = _row_major(_shape(op.results[0].type))
    _, unflat = _row_major(_shape(op.operands[0].type))
    return [rename_registers(fl, op, [x], op.results[0].type, lambda c: (0, unflat(flat(c))))]


def _join(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    a, b = args
    assert isinstance(a, ThreadTensor) and isinstance(b, ThreadTensor)
    return [rename_registers(fl, op, [a, b], op.results[0].type, lambda c: (c[-1], c[:-1]))]


def _split(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    (x,) = args
    assert isinstance(x, ThreadTensor)
    return [
        rename_registers(fl, op, [x], r.type, lambda c, k=k: (0, (*c, k)))  # type: ignore[misc]
        for k, r in enumerate(op.results)
    ]


def _cat(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    a, b = args
    assert isinstance(a, ThreadTensor) and isinstance(b, ThreadTensor)
    t = op.results[0].type
    dst = strip_register_broadcast(fl.layout(t, op))
    values = [x.regs[r] for x in (a, b) for r in strip_register_broadcast(x.layout).kept]
    if len(values) != len(dst.kept):
        raise LoweringError(
            op, f"'tt.cat' result layout holds {len(dst.kept)} distinct elements a thread, its operands {len(values)}"
        )
    value_of = dict(zip(dst.kept, values))  # a kept register's value; the others repeat theirs
    return [fl.tensor(op, t, [value_of[c] for c in dst.canonical])]


SHAPE_HANDLERS: dict[str, Handler] = {
    "tt.cat": _cat,
    "tt.make_range": _make_range,
    "tt.splat": _splat,
    "tt.broadcast": _broadcast,
    "tt.expand_dims": _expand_dims,
    "tt.trans": _trans,
    "tt.reshape": _reshape,
    "tt.join": _join,
    "tt.split": _split,
}
