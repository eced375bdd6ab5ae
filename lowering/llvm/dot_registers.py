"""Which registers of a ``tt.dot``'s operands pair with each register of its result.

A layout L is linear, so a thread's element of register r is at
``L(r, 0, 0) ⊕ L(0, lane, warp)``: a register *constant* XOR a per-thread *part*. When a
thread's part of A (of B) is its part of C with the N (M) coordinate replaced by K = 0,
the A element at (batch, m, k) for C's register of constant (batch, m, n) is the A register
of constant (batch, m, k), found by lookup in :func:`register_index`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.ir import Operation, SSAValue

from ltc.linear_layout import LinearLayout
from ltc.lowering.llvm.function import DeferredTensor, LoweringError, ThreadTensor
from ltc.lowering.llvm.thread_index import register_constants

__all__ = [
    "Coords",
    "check_operand_thread_parts",
    "input_precision",
    "operand_reader",
    "operand_register",
    "register_index",
]

Coords = tuple[int, ...]


def register_index(layout: LinearLayout) -> dict[Coords, int]:
    """Register constant (coordinates at lane 0, warp 0) → the first register holding it."""
    index: dict[Coords, int] = {}
    for r, const in enumerate(register_constants(layout)):
        index.setdefault(const, r)
    return index


def check_operand_thread_parts(
    op: Operation, a: LinearLayout, b: LinearLayout, c: LinearLayout, dims: Sequence[str] | None = None
) -> None:
    """Refuse unless every basis of the in-dims ``dims`` (default: all but ``register``) of A
    is C's with N replaced by K = 0 and of B is C's with M replaced by K = 0 (so a thread's
    part of A and B is its part of C, K cleared: see the module doc)."""
    rank = c.num_out_dims
    for dim in c.in_dim_names:
        if dim == "register" or (dims is not None and dim not in dims):
            continue
        for i in range(c.in_dim_size_log2(dim)):
            cb = [c.basis(dim, i, d) for d in c.out_dim_names]
            want_a = (*cb[: rank - 1], 0)
            want_b = (*cb[: rank - 2], 0, cb[rank - 1])
            got_a = tuple(a.basis(dim, i, d) for d in a.out_dim_names) if a.has_in_dim(dim) and i < a.in_dim_size_log2(dim) else None
            got_b = tuple(b.basis(dim, i, d) for d in b.out_dim_names) if b.has_in_dim(dim) and i < b.in_dim_size_log2(dim) else None
            if got_a != want_a or got_b != want_b:
                raise LoweringError(
                    op,
                    f"'tt.dot' whose operand layouts do not follow the result's ({dim} basis {i}: result {tuple(cb)}, "
                    f"a {got_a}, b {got_b}) is not supported",
                )


def operand_register(op: Operation, index: dict[Coords, int], coords: Coords, what: str) -> int:
    """The register of operand ``what`` whose constant is ``coords``; refused when none is."""
    r = index.get(coords)
    if r is None:
        raise LoweringError(op, f"'tt.dot' whose operand {what} holds no register at {coords} (its layout does not match the result's) is not supported")
    return r


def operand_reader(x: ThreadTensor | DeferredTensor) -> Callable[[int], SSAValue]:
    """Register ``r`` of an operand (a deferred one is loaded at its first read)."""
    return x.fetch if isinstance(x, DeferredTensor) else x.regs.__getitem__


def input_precision(op: Operation) -> str:
    """A ``tt.dot``'s ``inputPrecision`` (``ieee`` where unset)."""
    attr = op.properties.get("inputPrecision")
    return "ieee" if attr is None else str(attr.data.value)  # type: ignore[attr-defined]
