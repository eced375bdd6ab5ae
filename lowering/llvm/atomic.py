"""``tt.atomic_rmw`` and ``tt.atomic_cas``: one PTX ``atom`` per element.

Each element is updated once: of the threads that hold it (a layout's broadcast lanes
and warps, its free variables), only the owner issues the ``atom`` (guarded by the mask
too), and a scalar atomic is issued by thread 0 alone. The old value a masked-off element
gets is 0, as the interpreter gives it. When the result is used and other threads hold
the element as well, the owners write the old values to scratch memory at the element's
row-major offset and, after a barrier, every thread reads its elements there (Triton does
this for scalars; a broadcast layout needs it as much).

PTX: ``atom.{sem}.{scope}.global.{op}.{type}`` with Triton's memory semantics and scope
(``relaxed``/``acquire``/``release``/``acq_rel``; ``cta``/``gpu``/``sys``); integer
``add`` as ``.u``, ``max``/``min`` as ``.s`` and ``umax``/``umin`` as ``.u``, the
bitwise ops and ``exch`` as ``.b``, ``fadd`` as ``.f32``/``.f64`` (``.noftz.f16``).
"""

from __future__ import annotations

from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, IntegerType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from ltc.linear_layout import LinearLayout
from ltc.lowering.llvm.builder import REGISTER_CONSTRAINT, bit_width
from ltc.lowering.llvm.function import FunctionLowering, Handler, Lowered, LoweringError, ThreadTensor, scalar_type
from ltc.lowering.llvm.memory import operand_of, registers_of, single_writer
from ltc.lowering.llvm.scratch import load_shared, register_address, store_shared, tensor_scratch
from ltc.lowering.llvm.thread_index import register_constants, row_major_shifts, thread_part

__all__ = ["ATOMIC_HANDLERS"]


def _enum(op: Operation, name: str) -> str:
    attr = op.properties[name]
    return attr.data.value if hasattr(attr.data, "value") else str(attr.data)  # type: ignore[attr-defined]


def _ptx_op(op: Operation, rmw: str, elem: Attribute) -> tuple[str, str]:
    """(PTX operation, PTX type) of a ``tt.atomic_rmw`` on ``elem``."""
    bits = bit_width(elem)
    is_float = isinstance(elem, (Float16Type, Float32Type, Float64Type))
    if rmw == "fadd":
        if isinstance(elem, Float16Type):
            return "add.noftz", "f16"
        if is_float:
            return "add", f"f{bits}"
    elif not is_float and isinstance(elem, IntegerType) and bits in (32, 64):
        kind = {"add": ("add", "u"), "max": ("max", "s"), "min": ("min", "s"), "umax": ("max", "u"),
                "umin": ("min", "u"), "and": ("and", "b"), "or": ("or", "b"), "xor": ("xor", "b"),
                "exch": ("exch", "b")}.get(rmw)
        if kind is not None:
            return kind[0], f"{kind[1]}{bits}"
    elif rmw == "exch" and is_float and bits in (32, 64):
        return "exch", f"b{bits}"
    raise LoweringError(op, f"'tt.atomic_rmw' {rmw} on {elem} is not supported")


def _atomic(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    b = fl.b
    is_cas = op.name == "tt.atomic_cas"
    ptrs = args[0]
    res_t = op.results[0].type
    elem = scalar_type(res_t)
    bits = bit_width(elem)
    if is_cas:
        if bits not in (16, 32, 64):
            raise LoweringError(op, f"'tt.atomic_cas' of {bits}-bit elements is not supported")
        ptx_op, ptx_type = "cas", f"b{bits}"
    else:
        ptx_op, ptx_type = _ptx_op(op, _enum(op, "atomic_rmw_op"), elem)
    sem, scope = _enum(op, "sem"), _enum(op, "scope")
    reg = REGISTER_CONSTRAINT[bits]
    layout = ptrs.layout if isinstance(ptrs, ThreadTensor) else None
    n = len(ptrs.regs) if isinstance(ptrs, ThreadTensor) else 1
    ptr_regs, val_regs = registers_of(ptrs, n), registers_of(operand_of(op, "val", args), n)
    cmp_regs, mask_regs = registers_of(operand_of(op, "cmp", args), n), registers_of(operand_of(op, "mask", args), n)
    owner, free = single_writer(fl, layout)
    old: list[SSAValue | None] = [None] * n
    for g in range(n):
        if g & free:
            continue
        pred = mask_regs[g]
        if owner is not None:
            pred = owner if pred is None else b.binary("and", pred, owner)
        operands: list[SSAValue] = [ptr_regs[g], b.to_bits(val_regs[g])]  # type: ignore[arg-type]
        constraints = [f"={reg}", "l", reg]
        if is_cas:
            operands.insert(1, b.to_bits(cmp_regs[g]))  # type: ignore[arg-type]
            constraints.insert(2, reg)
        guard = ""
        if pred is not None:
            guard = f"@${len(operands) + 1} "
            operands.append(pred)
            constraints.append("b")
        srcs = "$2, $3" if is_cas else "$2"
        text = f"mov.b{bits} $0, 0;\n\t{guard}atom.{sem}.{scope}.global.{ptx_op}.{ptx_type} $0, [ $1 + 0 ], {srcs};"
        (w,) = b.asm(text, ",".join(constraints), operands, [IntegerType(bits)], side_effects=True)
        old[g] = b.from_bits(w, elem)
    for r in range(n):
        if old[r] is None:
            old[r] = old[r & ~free]
    if owner is not None and op.results[0].first_use is not None:
        old = _share_with_holders(fl, op, layout, old, owner, elem)  # type: ignore[arg-type]
    if layout is None:
        return [old[0]]  # type: ignore[list-item]
    return [fl.tensor(op, res_t, old)]  # type: ignore[arg-type]


def _share_with_holders(
    fl: FunctionLowering, op: Operation, layout: LinearLayout | None, old: list[SSAValue], owner: SSAValue, elem: Attribute
) -> list[SSAValue]:
    """Every thread's old values, from the owners' through scratch (see the module doc)."""
    b = fl.b
    t = op.results[0].type
    bits = bit_width(elem)
    if layout is None or not isinstance(t, TensorType):
        base = tensor_scratch(fl, (), bits)
        store_shared(b, base, old[0], owner)
        b.barrier()
        return [load_shared(b, base, elem)]
    shape = list(t.get_shape())
    if any(s & (s - 1) for s in shape):
        raise LoweringError(op, "a used result of an atomic on a broadcast layout of a shape that is not a power of two is not supported")
    shifts = row_major_shifts(shape)
    base = tensor_scratch(fl, shape, bits)
    part = thread_part(b, layout, fl.tid(), fl.lane_bits)
    consts = register_constants(layout)
    addrs = [register_address(b, part, const, shifts, base, bits) for const in consts]
    done: set[tuple[int, ...]] = set()
    for r, const in enumerate(consts):
        if const not in done:
            done.add(const)
            store_shared(b, addrs[r], old[r], owner)
    b.barrier()
    loaded: dict[tuple[int, ...], SSAValue] = {}
    for const, addr in zip(consts, addrs):
        if const not in loaded:
            loaded[const] = load_shared(b, addr, elem)
    return [loaded[const] for const in consts]


ATOMIC_HANDLERS: dict[str, Handler] = {"tt.atomic_rmw": _atomic, "tt.atomic_cas": _atomic}
"""``tt.atomic_rmw`` and ``tt.atomic_cas`` (see the module doc)."""
