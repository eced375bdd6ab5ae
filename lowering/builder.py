"""Building per-thread LLVM-dialect IR: the instruction vocabulary of the lowered IR.

A :class:`ThreadBuilder` appends ops of the lowered-IR contract (see
:mod:`ltc.lowering.to_llvm`) to the block it currently builds: integer and float
arithmetic, compares, casts, the fixed set of intrinsics (special registers, barrier,
shuffles, min/max, approximate math) and inline PTX. Constants and special-register
reads are made once per block. Nothing here knows about tensors or layouts.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ltc.dialects.llvm_ext import FPToSIOp, FPToUIOp, UIToFPOp

__all__ = ["GLOBAL_PTR", "ICMP", "SHARED_PTR", "ThreadBuilder", "bit_width", "is_float"]

GLOBAL_PTR = llvm.LLVMPointerType(IntAttr(1))
"""``!llvm.ptr<1>``: a pointer into global memory."""
SHARED_PTR = llvm.LLVMPointerType(IntAttr(3))
"""``!llvm.ptr<3>``: a pointer into shared memory (only the shared base)."""

ICMP = {"eq": 0, "ne": 1, "slt": 2, "sle": 3, "sgt": 4, "sge": 5, "ult": 6, "ule": 7, "ugt": 8, "uge": 9}
"""LLVM's integer compare predicates, by name."""

_FLOATS = (Float16Type, BFloat16Type, Float32Type, Float64Type)


def is_float(t: Attribute) -> bool:
    """Whether ``t`` is one of the float types the lowered IR carries."""
    return isinstance(t, _FLOATS)


def bit_width(t: Attribute) -> int:
    """Bits of a scalar type of the lowered IR (pointers are 64)."""
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, Float16Type | BFloat16Type):
        return 16
    if isinstance(t, Float32Type):
        return 32
    if isinstance(t, Float64Type):
        return 64
    if isinstance(t, llvm.LLVMPointerType):
        return 64
    raise TypeError(f"no bit width for {t}")


class ThreadBuilder:
    """Appends lowered-IR ops to ``block`` (changeable with :meth:`at`)."""

    def __init__(self, block: Block) -> None:
        self.block = block
        self._consts: dict[tuple[int, str, object], SSAValue] = {}
        self._sregs: dict[tuple[int, str], SSAValue] = {}

    # -- plumbing ----------------------------------------------------------------------
    def add(self, op: Operation) -> Operation:
        self.block.add_op(op)
        return op

    def value(self, op: Operation) -> SSAValue:
        return self.add(op).results[0]

    def at(self, block: Block) -> Block:
        """Build into ``block`` from now on; returns the previous block."""
        prev, self.block = self.block, block
        return prev

    # -- constants -----------------------------------------------------------------------
    def const(self, t: Attribute, value: int | float) -> SSAValue:
        """A constant of scalar type ``t`` (made once per block)."""
        key = (id(self.block), str(t), value)
        if key not in self._consts:
            if is_float(t):
                attr = FloatAttr(float(value), t)  # type: ignore[arg-type]
            else:
                width = bit_width(t)
                v = int(value) & ((1 << width) - 1)
                if width > 1 and v >= 1 << (width - 1):
                    v -= 1 << width  # IntegerAttr wants the signed spelling
                attr = IntegerAttr(v if width > 1 else int(value) & 1, t)
            self._consts[key] = self.value(llvm.ConstantOp(attr, t))
        return self._consts[key]

    def i32(self, value: int) -> SSAValue:
        return self.const(i32, value)

    # -- special registers ---------------------------------------------------------------
    def sreg(self, name: str) -> SSAValue:
        """``%tid.x`` etc. as ``llvm.nvvm.read.ptx.sreg.<name>`` (read once per block)."""
        key = (id(self.block), name)
        if key not in self._sregs:
            self._sregs[key] = self.intrinsic(f"llvm.nvvm.read.ptx.sreg.{name}", [], i32)
        return self._sregs[key]

    # -- arithmetic ----------------------------------------------------------------------
    def binary(self, name: str, a: SSAValue, b: SSAValue) -> SSAValue:
        """``llvm.<name>`` of two operands of one type (add, mul, xor, fadd, ...)."""
        cls = _BINARY[name]
        return self.value(cls(a, b))

    def add_i(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.binary("add", a, b)

    def icmp(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(llvm.ICmpOp(a, b, IntegerAttr(ICMP[pred], i64)))

    def fcmp(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(llvm.FCmpOp(a, b, pred))

    def select(self, c: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.value(llvm.SelectOp(c, a, b))

    def fneg(self, a: SSAValue) -> SSAValue:
        return self.value(llvm.FNegOp(a))

    def cast(self, name: str, a: SSAValue, t: Attribute) -> SSAValue:
        """``llvm.<name>`` cast of ``a`` to ``t`` (zext, sext, trunc, fpext, fptrunc, sitofp,
        uitofp, fptosi, fptoui, bitcast, ptrtoint, inttoptr); a no-op when types agree."""
        if a.type == t and name in ("bitcast", "zext", "sext", "trunc", "fpext", "fptrunc"):
            return a
        cls = _CASTS[name]
        if cls in (llvm.ZExtOp, llvm.SExtOp, llvm.TruncOp):
            return self.value(cls(a, t))
        return self.value(cls(a, t))

    def gep(self, base: SSAValue, index: SSAValue, pointee: Attribute) -> SSAValue:
        """``base + index * sizeof(pointee)`` on a global pointer."""
        return self.value(llvm.GEPOp(base, [llvm.GEP_USE_SSA_VAL], pointee, ssa_indices=[index], result_type=base.type))

    # -- intrinsics and inline PTX ---------------------------------------------------------
    def intrinsic(self, name: str, args: Sequence[SSAValue], result: Attribute | None) -> SSAValue:
        op = self.add(llvm.CallIntrinsicOp(name, list(args), [result] if result is not None else []))
        return op.results[0] if result is not None else None  # type: ignore[return-value]

    def barrier(self) -> None:
        self.intrinsic("llvm.nvvm.barrier0", [], None)

    def shuffle(self, mode: str, value: SSAValue, lane: SSAValue) -> SSAValue:
        """``shfl.sync.<mode>.b32`` of a 32-bit integer over the full warp."""
        clamp = 0x1F if mode in ("bfly", "idx") else 0
        return self.intrinsic(
            f"llvm.nvvm.shfl.sync.{mode}.i32", [self.i32(-1), value, lane, self.i32(clamp)], i32
        )

    def asm(
        self,
        text: str,
        constraints: str,
        operands: Sequence[SSAValue],
        results: Sequence[Attribute] = (),
        side_effects: bool = False,
    ) -> list[SSAValue]:
        """Inline PTX; returns its results (a struct result is split with extractvalue)."""
        if not results:
            self.add(llvm.InlineAsmOp(text, constraints, list(operands), None, has_side_effects=True))
            return []
        if len(results) == 1:
            op = self.add(llvm.InlineAsmOp(text, constraints, list(operands), [results[0]], has_side_effects=side_effects))
            return [op.results[0]]
        struct = llvm.LLVMStructType.from_type_list(list(results))
        whole = self.value(llvm.InlineAsmOp(text, constraints, list(operands), [struct], has_side_effects=side_effects))
        from xdsl.dialects.builtin import DenseArrayBase

        return [
            self.value(llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [i]), whole, t))
            for i, t in enumerate(results)
        ]

    # -- packing -------------------------------------------------------------------------------
    def to_bits(self, v: SSAValue) -> SSAValue:
        """``v`` reinterpreted as an integer of its width (i1 stays i1, pointers ptrtoint)."""
        t = v.type
        if isinstance(t, IntegerType):
            return v
        if isinstance(t, llvm.LLVMPointerType):
            return self.cast("ptrtoint", v, i64)
        return self.cast("bitcast", v, IntegerType(bit_width(t)))

    def from_bits(self, v: SSAValue, t: Attribute) -> SSAValue:
        """The inverse of :meth:`to_bits`."""
        if isinstance(t, IntegerType):
            return v
        if isinstance(t, llvm.LLVMPointerType):
            return self.cast("inttoptr", v, t)
        return self.cast("bitcast", v, t)

    def pack(self, values: Sequence[SSAValue], word: IntegerType) -> SSAValue:
        """Elements (low first) packed into one integer word of type ``word``."""
        bits = bit_width(values[0].type)
        if bits == word.width.data and len(values) == 1:
            return self.to_bits(values[0])
        out: SSAValue | None = None
        for k, v in enumerate(values):
            x = self.to_bits(v)
            if x.type == i1:
                x = self.cast("zext", x, IntegerType(8))
            x = self.cast("zext", x, word) if bit_width(x.type) < word.width.data else x
            if k:
                x = self.binary("shl", x, self.const(word, k * bits))
            out = x if out is None else self.binary("or", out, x)
        assert out is not None
        return out

    def unpack(self, word: SSAValue, t: Attribute, count: int) -> list[SSAValue]:
        """``count`` elements of type ``t`` (low first) out of an integer ``word``."""
        bits = bit_width(t) if t != i1 else 8
        wbits = bit_width(word.type)
        out: list[SSAValue] = []
        for k in range(count):
            x = word if not k else self.binary("lshr", word, self.const(word.type, k * bits))
            if bits < wbits:
                x = self.cast("trunc", x, IntegerType(bits))
            if t == i1:
                x = self.cast("trunc", x, i1)
            out.append(self.from_bits(x, t))
        return out


_BINARY: dict[str, type[Operation]] = {
    "add": llvm.AddOp,
    "sub": llvm.SubOp,
    "mul": llvm.MulOp,
    "sdiv": llvm.SDivOp,
    "udiv": llvm.UDivOp,
    "srem": llvm.SRemOp,
    "urem": llvm.URemOp,
    "and": llvm.AndOp,
    "or": llvm.OrOp,
    "xor": llvm.XOrOp,
    "shl": llvm.ShlOp,
    "lshr": llvm.LShrOp,
    "ashr": llvm.AShrOp,
    "fadd": llvm.FAddOp,
    "fsub": llvm.FSubOp,
    "fmul": llvm.FMulOp,
    "fdiv": llvm.FDivOp,
    "frem": llvm.FRemOp,
}

_CASTS: dict[str, type[Operation]] = {
    "zext": llvm.ZExtOp,
    "sext": llvm.SExtOp,
    "trunc": llvm.TruncOp,
    "fpext": llvm.FPExtOp,
    "fptrunc": llvm.FPTruncOp,
    "sitofp": llvm.SIToFPOp,
    "uitofp": UIToFPOp,
    "fptosi": FPToSIOp,
    "fptoui": FPToUIOp,
    "bitcast": llvm.BitcastOp,
    "ptrtoint": llvm.PtrToIntOp,
    "inttoptr": llvm.IntToPtrOp,
}
