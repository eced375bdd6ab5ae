"""A value-level interpreter for Triton IR (tt / ttg / ttng / arith / math / scf) on numpy.

    stats = run_kernel(module, [x, y, out, n], grid=(4,))

runs the kernel's ``tt.func`` once per program id of ``grid`` (x fastest), one program
after another. It computes what the kernel computes and nothing about how: layouts are
ignored (``ttg.convert_layout`` is the identity), shared memory is a numpy array per
allocation, async copies, TMA and wgmma complete at once, fences and barriers do
nothing. So the IR before and after a layout pipeline must give bitwise-identical
results here; that is what it is for.

Arguments, in the order of the function's parameters:

* a pointer parameter takes a C-contiguous numpy array: the memory it points to, read
  and written in place. Each array gets its own base byte address; ``tt.addptr`` adds
  ``offset * sizeof(pointee)``. A load or store outside every argument array (or
  misaligned) raises ``InterpretError``; masked-off lanes are never accessed (a masked
  load gives ``other``, or 0 without it).
* a ``!tt.tensordesc`` parameter takes a C-contiguous array of the descriptor's rank;
  block loads fill out-of-bounds elements with zeros, block stores drop them. Triton
  passes each descriptor's shape (i32) and strides (i64) as the next parameters: give
  them, or leave them out and they are taken from the array.
* scalar parameters take Python or numpy numbers.

Values are numpy arrays (0-d for scalars) in the representation of
``interpret_types``: bf16 and f8 are emulated in float32, rounded to the format after
every op. ``tt.reduce`` combines adjacent pairs level by level (a fixed tree over the
axis, left operand lower indices: right for any associative combine region);
``tt.scan`` is a running fold; ``tt.dot`` computes in float64 and rounds once to the
result type (integers: exact, then wrapped). Atomics apply lane by lane in row-major
order and return the old values. An op the interpreter does not know raises
``InterpretError`` naming it and its location.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

import numpy as np
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute

from ltc.dialects.tt import FuncOp, PtrType, TensorDescType
from ltc.passes.interpret_ops import HANDLERS
from ltc.passes.interpret_types import fit
from ltc.passes.interpret_state import (
    Descriptor,
    InterpretError,
    InterpretStats,
    Interpreter,
    Memory,
    SharedView,
    Value,
)

__all__ = [
    "Descriptor",
    "InterpretError",
    "InterpretStats",
    "Memory",
    "SharedView",
    "kernel_function",
    "run_function",
    "run_kernel",
]


def kernel_function(module: ModuleOp, name: str | None = None) -> FuncOp:
    """The ``tt.func`` named ``name``, or the module's single public one."""
    funcs = [op for op in module.walk() if isinstance(op, FuncOp)]
    if name is not None:
        named = [f for f in funcs if f.sym_name.data == name]
        if not named:
            raise InterpretError(f"no tt.func named '{name}' (have: {', '.join(f.sym_name.data for f in funcs)})")
        return named[0]
    public = [f for f in funcs if f.sym_visibility is None or f.sym_visibility.data == "public"]
    if len(public) != 1:
        names = ", ".join(f.sym_name.data for f in public) or "none"
        raise InterpretError(f"expected exactly one public tt.func, found {len(public)} ({names}); pass func=")
    return public[0]


def _expand_descriptor_args(params: Sequence[Attribute], args: Sequence[object]) -> list[object]:
    """``args`` with each descriptor array followed by its shape and strides (the
    parameters Triton adds after a descriptor), unless every parameter is given."""
    if len(args) == len(params):
        return list(args)
    out: list[object] = []
    for a in args:
        param = params[len(out)] if len(out) < len(params) else None
        out.append(a)
        if isinstance(param, TensorDescType) and isinstance(a, np.ndarray):
            out.extend(a.shape)
            out.extend(s // a.itemsize for s in a.strides)
    return out


def _bind(params: Sequence[Attribute], args: Sequence[object], memory: Memory, it: Interpreter) -> list[Value]:
    args = _expand_descriptor_args(params, args)
    if len(args) != len(params):
        raise InterpretError(f"the kernel takes {len(params)} arguments, got {len(args)}")
    bound: list[Value] = []
    for i, (t, a) in enumerate(zip(params, args, strict=True)):
        name = f"argument {i}"
        if isinstance(t, PtrType) and isinstance(a, np.ndarray):
            info = it.info(t.pointee_type)
            if a.itemsize != info.itemsize:
                raise InterpretError(
                    f"{name}: array of {a.dtype} ({a.itemsize} bytes) for a pointer to {t.pointee_type} "
                    f"({info.itemsize} bytes)"
                )
            bound.append(np.asarray(memory.add(a, name), dtype=np.int64))
        elif isinstance(t, TensorDescType):
            if not isinstance(a, np.ndarray) or a.ndim != len(t.shape):
                raise InterpretError(f"{name}: a {len(t.shape)}-d tensor descriptor takes a {len(t.shape)}-d array")
            info = it.info(t.element_type)
            if a.itemsize != info.itemsize:
                raise InterpretError(f"{name}: array of {a.dtype} for a descriptor of {t.element_type}")
            base = memory.add(a, name)
            strides = tuple(s // a.itemsize for s in a.strides)
            bound.append(Descriptor(base, tuple(a.shape), strides, info))
        elif isinstance(t, TensorType):
            bound.append(fit(np.broadcast_to(np.asarray(a), t.get_shape()), it.info(t)))
        else:
            if isinstance(a, np.ndarray) and a.ndim:
                raise InterpretError(f"{name}: scalar parameter of type {t} got an array")
            bound.append(fit(np.asarray(a), it.info(t)))
    return bound


def _grid3(grid: int | Sequence[int]) -> tuple[int, int, int]:
    dims = (grid,) if isinstance(grid, int) else tuple(grid)
    if not 1 <= len(dims) <= 3 or any(d < 1 for d in dims):
        raise InterpretError(f"grid must have 1 to 3 positive sizes, got {grid}")
    x, y, z = (dims + (1, 1))[:3]
    return (x, y, z)


def _interpreter(module: ModuleOp, grid: tuple[int, int, int]) -> Interpreter:
    return Interpreter(module, Memory(), grid, HANDLERS)


def run_kernel(
    module: ModuleOp,
    args: Sequence[np.ndarray | int | float],
    grid: int | Sequence[int] = (1, 1, 1),
    func: str | None = None,
) -> InterpretStats:
    """Run the single public (or the named) ``tt.func`` of ``module`` for every program
    id of ``grid``; array arguments are updated in place."""
    full = _grid3(grid)
    kernel = kernel_function(module, func)
    it = _interpreter(module, full)
    memory = it.memory
    bound = _bind(kernel.function_type.inputs.data, args, memory, it)
    # memory buffers in the order _bind added them: the array arguments, in order
    argument_of = dict(enumerate(i for i, a in enumerate(args) if isinstance(a, np.ndarray)))
    with np.errstate(all="ignore"):  # integer wraparound and inf / NaN are the IR's semantics
        for z in range(full[2]):
            for y in range(full[1]):
                for x in range(full[0]):
                    it.pid = (x, y, z)
                    it.call(kernel, bound)
    return InterpretStats(
        programs=full[0] * full[1] * full[2],
        ops=sum(it.counts.values()),
        op_counts=MappingProxyType(dict(it.counts)),
        loaded=memory.loaded,
        stored=memory.stored,
        atomics=memory.atomics,
        masked_off=memory.masked_off,
        racy={argument_of[k]: cells for k, cells in memory.racy_elements().items() if k in argument_of},
        poison=MappingProxyType(dict(it.poison)),
    )


def run_function(
    module: ModuleOp,
    args: Sequence[np.ndarray | int | float],
    func: str | None = None,
    pid: Sequence[int] = (0, 0, 0),
    grid: int | Sequence[int] = (1, 1, 1),
) -> list[np.ndarray]:
    """Run one ``tt.func`` once, as program ``pid`` of ``grid``, and return what its
    ``tt.return`` returns. Arguments bind as for ``run_kernel``; a tensor parameter
    takes an array (or a scalar, splat to its shape)."""
    it = _interpreter(module, _grid3(grid))
    x, y, z = (tuple(pid) + (0, 0))[:3]
    it.pid = (x, y, z)
    kernel = kernel_function(module, func)
    bound = _bind(kernel.function_type.inputs.data, args, it.memory, it)
    with np.errstate(all="ignore"):
        return [np.asarray(v) for v in it.call(kernel, bound)]  # type: ignore[call-overload]
