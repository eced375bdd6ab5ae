"""Lowering of elementwise ops (``arith``, ``math``, ``tt`` casts): one scalar op per register.

An elementwise op on tensors of layout L is the same op on each register's scalars;
registers whose operand scalars are the same values (broadcast registers) share one
result. 8- and 16-bit float math functions run in f32 (as Triton does), rounding
back at the end. Precision is Triton 3.9's: f32 ``arith.divf`` is ``div.full.f32``
(2 ulp), ``tt.precise_divf`` ``div.rn.f32`` and ``tt.approx_divf`` ``div.approx.f32``; ``math.sqrt`` / ``math.rsqrt`` /
``math.exp2`` are ``sqrt`` / ``rsqrt`` / ``ex2.approx.ftz.f32`` and ``tt.precise_sqrt``
``sqrt.rn.f32``; ``math.exp`` is ``ex2.approx`` with the change of base folded into a
multiply; ``math.log``/``log2``/``erf``/``sin``/``cos``, which Triton takes from libdevice, are the accurate
sequences of :mod:`.libm`, and so are the libdevice calls of ``tt.extern_elementwise``
that ltc knows (``__nv_powf``, ``__nv_powif``, ``__nv_tanhf``; ``__nv_rsqrtf`` as
``math.rsqrt``). Float
add, sub and mul carry LLVM's ``contract`` flag unless fusion is off
(:class:`~ltc.lowering.llvm.builder.ThreadBuilder`'s ``fp_contract``).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable

from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    f32,
    i32,
)
from xdsl.dialects.arith import CMPF_COMPARISON_OPERATIONS, CMPI_COMPARISON_OPERATIONS
from xdsl.ir import Attribute, Operation, SSAValue

from ltc.lowering.llvm.builder import ThreadBuilder, bit_width
from ltc.lowering.llvm.libm import cos_f32, erf_f32, log2_f32, log_f32, pow_f32, powi_f32, sin_f32, tanh_f32
from ltc.lowering.llvm.function import FunctionLowering, Handler, Lowered, LoweringError, Scalar, map_registers, scalar_type

__all__ = ["ELEMENTWISE_HANDLERS"]

def _elementwise(fn: Scalar) -> Handler:
    def lower(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
        return map_registers(fl, op, args, fn)

    return lower


def _result(op: Operation) -> Attribute:
    return scalar_type(op.results[0].type)


def _binary(name: str) -> Handler:
    return _elementwise(lambda b, op, a: b.binary(name, a[0], a[1]))


def _float_binary(name: str) -> Handler:
    def fn(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
        return _in_f32(b, a, lambda x: b.binary(name, x[0], x[1])) if _needs_f32(a[0].type) else b.binary(name, *a)

    return _elementwise(fn)


def _divf(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
    """Triton's ``arith.divf``: ``div.full.f32`` on f32 (and on narrower floats, in f32),
    IEEE ``div.rn`` on f64."""
    if isinstance(a[0].type, Float64Type):
        return b.binary("fdiv", *a)
    return _in_f32(b, a, lambda x: b.intrinsic("llvm.nvvm.div.full.f", x, f32))


def _accurate(fn: Callable[[ThreadBuilder, SSAValue], SSAValue]) -> Handler:
    """An f32 function of :mod:`.libm` (narrower floats in f32); f64 is refused."""

    def lower(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
        if isinstance(a[0].type, Float64Type):
            raise LoweringError(op, f"'{op.name}' on f64 is not supported")
        return _in_f32(b, a, lambda x: fn(b, x[0]))

    return _elementwise(lower)


def _needs_f32(t: Attribute) -> bool:
    """bf16 arithmetic is done in f32 (PTX has bf16 add/mul only from sm_90)."""
    return isinstance(t, BFloat16Type)


def _in_f32(b: ThreadBuilder, args: list[SSAValue], fn: Callable[[list[SSAValue]], SSAValue]) -> SSAValue:
    """``fn`` computed in f32 on narrower floats, rounded back to their type."""
    t = args[0].type
    if isinstance(t, Float32Type | Float64Type):
        return fn(args)
    wide = [b.cast("fpext", a, f32) for a in args]
    return b.cast("fptrunc", fn(wide), t)


def _intrinsic(name: str, promote: bool = True) -> Handler:
    """A float intrinsic ``name`` (``{t}`` is replaced by f32/f64) on every register."""

    def fn(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
        def call(x: list[SSAValue]) -> SSAValue:
            suffix = "f64" if isinstance(x[0].type, Float64Type) else "f32"
            return b.intrinsic(name.format(t=suffix), x, x[0].type)

        return _in_f32(b, a, call) if promote else call(a)

    return _elementwise(fn)


def _approx(name: str, pre: float | None = None, post: float | None = None) -> Handler:
    """An f32 approximate PTX function, with optional scale before / after."""

    def fn(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
        def call(x: list[SSAValue]) -> SSAValue:
            if isinstance(x[0].type, Float64Type):
                raise LoweringError(op, f"'{op.name}' on f64 is not supported")
            v = x[0]
            if pre is not None:
                v = b.binary("fmul", v, b.const(f32, pre))
            v = b.intrinsic(name, [v], f32)
            if post is not None:
                v = b.binary("fmul", v, b.const(f32, post))
            return v

        return _in_f32(b, a, call)

    return _elementwise(fn)


def _cast(name: str) -> Handler:
    return _elementwise(lambda b, op, a: b.cast(name, a[0], _result(op)))


def _cmpi(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
    pred = CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]  # type: ignore[attr-defined]
    return b.icmp(pred, a[0], a[1])


def _cmpf(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
    pred = CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]  # type: ignore[attr-defined]
    x, y = a
    if _needs_f32(x.type):
        x, y = b.cast("fpext", x, f32), b.cast("fpext", y, f32)
    return b.fcmp(pred, x, y)


def _select(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
    return b.select(a[0], a[1], a[2])


def _negf(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
    return b.fneg(a[0])


def _min_max(kind: str) -> Handler:
    """maxnumf/minnumf (NaN-ignoring), maximumf/minimumf (NaN-propagating), signed/unsigned ints."""

    def fn(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
        t = a[0].type
        if isinstance(t, IntegerType):
            width = t.width.data
            if width >= 32:
                return b.intrinsic(f"llvm.{kind}.i{width}", a, t)
            # PTX has min/max from 16 bits and ltc's contract from 32: widen (sign or zero
            # as the comparison reads the bits), compare, narrow back (as LLVM legalizes)
            wide = [b.cast("sext" if kind[0] == "s" else "zext", x, i32) for x in a]
            return b.cast("trunc", b.intrinsic(f"llvm.{kind}.i32", wide, i32), t)

        def call(x: list[SSAValue]) -> SSAValue:
            if kind in ("maxnum", "minnum"):
                suffix = "f64" if isinstance(x[0].type, Float64Type) else "f32"
                return b.intrinsic(f"llvm.{kind}.{suffix}", x, x[0].type)
            if isinstance(x[0].type, Float64Type):
                raise LoweringError(op, f"'{op.name}' on f64 is not supported")
            return b.intrinsic(f"llvm.nvvm.f{kind[:3]}.nan.f", x, f32)

        return _in_f32(b, a, call)

    return _elementwise(fn)


def _shift(name: str) -> Handler:
    """Shifts by at least the bit width give 0 (or the sign) as in MLIR's poison-free
    Triton semantics; PTX clamps the amount the same way, so the plain shift is exact."""
    return _binary(name)


def _extf(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
    return b.cast("fpext", a[0], _result(op))


def _truncf(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
    t = _result(op)
    if isinstance(t, IntegerType):  # to fp8
        return _to_fp8(b, op, a[0], str(op.results[0].type))
    return b.cast("fptrunc", a[0], t)


def _to_fp8(b: ThreadBuilder, op: Operation, x: SSAValue, type_text: str) -> SSAValue:
    """f32/f16 → fp8 (e4m3 or e5m2) with ``cvt.rn.satfinite.*x2.f32`` (sm_89+)."""
    fmt = "e5m2" if "E5M2" in type_text else "e4m3"
    if not isinstance(x.type, Float32Type):
        x = b.cast("fpext", x, f32)
    (word,) = b.asm(
        f"{{ .reg .b16 t; cvt.rn.satfinite.{fmt}x2.f32 t, $1, $1; cvt.u32.u16 $0, t; }}",
        "=r,f",
        [x],
        [IntegerType(32)],
    )
    return b.cast("trunc", word, IntegerType(8))


def _from_fp8(b: ThreadBuilder, op: Operation, x: SSAValue, type_text: str, t: Attribute) -> SSAValue:
    """fp8 → f16 with ``cvt.rn.f16x2.{e4m3,e5m2}x2`` (sm_89+), then to ``t``."""
    fmt = "e5m2" if "E5M2" in type_text else "e4m3"
    wide = b.cast("zext", x, IntegerType(16))
    (word,) = b.asm(
        f"{{ .reg .b32 t; cvt.rn.f16x2.{fmt}x2 t, $1; cvt.u16.u32 $0, t; }}", "=h,h", [wide], [IntegerType(16)]
    )
    h = b.cast("bitcast", word, Float16Type())
    return h if isinstance(t, Float16Type) else b.cast("fpext", h, t)


def _fp_to_fp(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
    src_text = str(op.operands[0].type)
    dst_text = str(op.results[0].type)
    t = _result(op)
    x = a[0]
    if isinstance(x.type, IntegerType):  # from fp8
        return _from_fp8(b, op, x, src_text, t)
    if isinstance(t, IntegerType):
        return _to_fp8(b, op, x, dst_text)
    if bit_width(t) < bit_width(x.type):
        return b.cast("fptrunc", x, t)
    return b.cast("fpext", x, t)


def _bitcast(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
    t = _result(op)
    return b.from_bits(b.to_bits(a[0]), t)


def _clampf(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
    def call(x: list[SSAValue]) -> SSAValue:
        lo = b.intrinsic("llvm.maxnum.f32", [x[0], x[1]], f32)
        return b.intrinsic("llvm.minnum.f32", [lo, x[2]], f32)

    return _in_f32(b, a, call)


def _fma(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
    return _in_f32(b, a, lambda x: b.intrinsic("llvm.fma.f32", x, f32))


def _absi(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
    x = a[0]
    zero = b.const(x.type, 0)
    return b.select(b.icmp("slt", x, zero), b.binary("sub", zero, x), x)


def _mulhiui(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
    (v,) = b.asm("mul.hi.u32 $0, $1, $2;", "=r,r,r", a, [a[0].type])
    return v


def _splat(values: list[int | float]) -> bool:
    """Whether every element of a dense literal is the first: bitwise for floats, so
    that a NaN splat (``dense<0x7FC00000>``, which is not equal to itself) is one."""
    first = values[0]
    if isinstance(first, float):
        bits = struct.pack("<d", first)
        return all(struct.pack("<d", v) == bits for v in values)
    return all(v == first for v in values)


def _constant(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    value = op.properties.get("value")
    if value is None:
        value = op.attributes.get("value")
    t = op.results[0].type
    st = scalar_type(t)
    if isinstance(value, DenseIntOrFPElementsAttr):
        values = list(value.get_values())
        if not _splat(values):
            raise LoweringError(op, "non-splat dense constants are not supported by convert-tritongpu-to-llvm")
        scalar = fl.b.const(st, values[0])
        return [fl.splat(op, t, scalar)] if isinstance(t, TensorType) else [scalar]
    if isinstance(value, IntegerAttr | FloatAttr):
        return [fl.b.const(st, value.value.data)]
    raise LoweringError(op, f"unsupported constant {value}")


_EXTERN_F32: dict[str, Callable[[ThreadBuilder, list[SSAValue]], SSAValue]] = {
    "__nv_powf": lambda b, a: pow_f32(b, a[0], a[1]),
    "__nv_powif": lambda b, a: powi_f32(b, a[0], a[1]),
    "__nv_tanhf": lambda b, a: tanh_f32(b, a[0]),
    "__nv_rsqrtf": lambda b, a: b.intrinsic("llvm.nvvm.rsqrt.approx.ftz.f", [a[0]], f32),
}
"""The libdevice functions ``tt.extern_elementwise`` may call, on f32 (:mod:`.libm`;
``rsqrtf`` is the approximate instruction, as ``math.rsqrt``)."""


def _extern_elementwise(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    symbol = op.properties["symbol"].data  # type: ignore[union-attr]
    fn = _EXTERN_F32.get(symbol)
    if fn is None:
        raise LoweringError(op, f"'tt.extern_elementwise' of '{symbol}' is not supported")

    def call(b: ThreadBuilder, op: Operation, a: list[SSAValue]) -> SSAValue:
        if not isinstance(a[0].type, Float32Type):
            raise LoweringError(op, f"'tt.extern_elementwise' of '{symbol}' on {a[0].type} is not supported")
        return fn(b, a)

    return map_registers(fl, op, args, call)


ELEMENTWISE_HANDLERS: dict[str, Handler] = {
    "tt.extern_elementwise": _extern_elementwise,
    "arith.constant": _constant,
    **{f"arith.{k}": _binary(v) for k, v in {
        "addi": "add", "subi": "sub", "muli": "mul", "divsi": "sdiv", "divui": "udiv",
        "remsi": "srem", "remui": "urem", "andi": "and", "ori": "or", "xori": "xor",
    }.items()},  # fmt: skip
    "arith.shli": _shift("shl"),
    "arith.shrui": _shift("lshr"),
    "arith.shrsi": _shift("ashr"),
    **{f"arith.{k}": _float_binary(v) for k, v in {
        "addf": "fadd", "subf": "fsub", "mulf": "fmul", "remf": "frem",
    }.items()},  # fmt: skip
    "arith.divf": _elementwise(_divf),
    "arith.negf": _elementwise(_negf),
    "arith.maxnumf": _min_max("maxnum"),
    "arith.minnumf": _min_max("minnum"),
    "arith.maximumf": _min_max("maximum"),
    "arith.minimumf": _min_max("minimum"),
    "arith.maxsi": _min_max("smax"),
    "arith.minsi": _min_max("smin"),
    "arith.maxui": _min_max("umax"),
    "arith.minui": _min_max("umin"),
    "arith.cmpi": _elementwise(_cmpi),
    "arith.cmpf": _elementwise(_cmpf),
    "arith.select": _elementwise(_select),
    "arith.extsi": _cast("sext"),
    "arith.extui": _cast("zext"),
    "arith.trunci": _cast("trunc"),
    "arith.extf": _elementwise(_extf),
    "arith.truncf": _elementwise(_truncf),
    "arith.sitofp": _cast("sitofp"),
    "arith.uitofp": _cast("uitofp"),
    "arith.fptosi": _cast("fptosi"),
    "arith.fptoui": _cast("fptoui"),
    "arith.bitcast": _elementwise(_bitcast),
    "tt.bitcast": _elementwise(_bitcast),
    "tt.int_to_ptr": _cast("inttoptr"),
    "tt.ptr_to_int": _cast("ptrtoint"),
    "tt.fp_to_fp": _elementwise(_fp_to_fp),
    "tt.clampf": _elementwise(_clampf),
    "tt.precise_sqrt": _intrinsic("llvm.sqrt.{t}"),
    "tt.precise_divf": _float_binary("fdiv"),
    "tt.approx_divf": _elementwise(lambda b, op, a: b.intrinsic("llvm.nvvm.div.approx.f", a, f32)),
    "tt.mulhiui": _elementwise(_mulhiui),
    "math.sqrt": _approx("llvm.nvvm.sqrt.approx.ftz.f"),
    "math.absf": _intrinsic("llvm.fabs.{t}"),
    "math.floor": _intrinsic("llvm.floor.{t}"),
    "math.ceil": _intrinsic("llvm.ceil.{t}"),
    "math.trunc": _intrinsic("llvm.trunc.{t}"),
    "math.absi": _elementwise(_absi),
    "math.fma": _elementwise(_fma),
    "math.exp": _approx("llvm.nvvm.ex2.approx.f", pre=1 / math.log(2)),
    "math.exp2": _approx("llvm.nvvm.ex2.approx.ftz.f"),
    "math.log": _accurate(log_f32),
    "math.log2": _accurate(log2_f32),
    "math.erf": _accurate(erf_f32),
    "math.rsqrt": _approx("llvm.nvvm.rsqrt.approx.ftz.f"),
    "math.sin": _accurate(sin_f32),
    "math.cos": _accurate(cos_f32),
}
