"""Building per-thread LLVM-dialect IR: the instruction vocabulary of the lowered IR.

A :class:`ThreadBuilder` appends ops of the lowered-IR contract (see
:mod:`ltc.lowering.to_llvm`) to the block it currently builds: integer and float
arithmetic, compares, casts, the fixed set of intrinsics (special registers, barrier,
shuffles, min/max, approximate math) and inline PTX. Constants and special-register
reads are made once per block. Nothing here knows about tensors or layouts.

Two rewrites happen as ops are built, because the PTX path has no optimizer before
ptxas (Triton relies on LLVM's for the same effect):

* *constant offsets*: every i32/i64 value is known as ``base + constant``; adding a
  constant, adding two values and multiplying by a constant keep the form, and a
  ``getelementptr`` by ``base + c`` becomes one shared ``getelementptr`` by ``base``
  plus a constant byte offset, which ptxas folds into the address of a load or store.
  Like Triton's lowering (LLVM's ``SeparateConstOffsetFromGEP`` on ``inbounds``
  GEPs), this assumes tensor offsets do not overflow 32 bits;
* *repacking*: packing elements that were unpacked, in order, from one word gives
  that word back instead of rebuilding it with shifts.
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

__all__ = ["GLOBAL_PTR", "ICMP", "REGISTER_CONSTRAINT", "SHARED_PTR", "ThreadBuilder", "bit_width", "is_float"]

GLOBAL_PTR = llvm.LLVMPointerType(IntAttr(1))
"""``!llvm.ptr<1>``: a pointer into global memory."""
SHARED_PTR = llvm.LLVMPointerType(IntAttr(3))
"""``!llvm.ptr<3>``: a pointer into shared memory (only the shared base)."""

REGISTER_CONSTRAINT = {8: "h", 16: "h", 32: "r", 64: "l"}
"""Inline-asm constraint letter of a word of each width (a byte travels in a 16-bit register)."""

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
        self._const_of: dict[SSAValue, int] = {}
        self._offset: dict[SSAValue, tuple[SSAValue, int]] = {}
        self._ptr_offset: dict[SSAValue, tuple[SSAValue, int]] = {}
        self._derived: dict[tuple[object, ...], SSAValue] = {}
        self._unpacked: dict[SSAValue, tuple[SSAValue, int, int]] = {}

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
            c = self.value(llvm.ConstantOp(attr, t))
            if not is_float(t):
                self._const_of[c] = v
            self._consts[key] = c
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
        if name == "add" and a.type in (i32, i64):
            return self._add(a, b)
        if name == "mul" and a.type in (i32, i64) and (a in self._const_of or b in self._const_of):
            return self._mul(a, b)
        return self.value(_BINARY[name](a, b))

    # -- constant offsets (see the module docstring) ------------------------------------
    def split_offset(self, v: SSAValue) -> tuple[SSAValue | None, int]:
        """``v`` as ``(base, constant)``; base None when ``v`` is a constant."""
        if v in self._const_of:
            return None, self._const_of[v]
        return self._offset.get(v, (v, 0))

    def pointer_offset(self, p: SSAValue) -> tuple[SSAValue, int]:
        """A pointer built by :meth:`gep` as ``(base pointer, constant byte offset)``."""
        return self._ptr_offset.get(p, (p, 0))

    def _derive(self, key: tuple[object, ...], make: object) -> SSAValue:
        full = (id(self.block), *key)
        if full not in self._derived:
            self._derived[full] = make()  # type: ignore[operator]
        return self._derived[full]

    def _offset_value(self, base: SSAValue | None, c: int, t: Attribute) -> SSAValue:
        """The value ``base + c`` (recorded as such)."""
        width = bit_width(t)
        c = ((c + (1 << (width - 1))) % (1 << width)) - (1 << (width - 1))
        if base is None:
            return self.const(t, c)
        if c == 0:
            return base
        v = self._derive(("add", base, c), lambda: self.value(llvm.AddOp(base, self.const(t, c))))
        self._offset[v] = (base, c)
        return v

    def _add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        (ba, ca), (bb, cb) = self.split_offset(a), self.split_offset(b)
        if ba is None or bb is None:
            return self._offset_value(ba if bb is None else bb, ca + cb, a.type)
        x, y = sorted((ba, bb), key=id)
        s = self._derive(("add", x, y), lambda: self.value(llvm.AddOp(x, y)))
        return self._offset_value(s, ca + cb, a.type)

    def _mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        if a in self._const_of:
            a, b = b, a
        k = self._const_of[b]
        base, c = self.split_offset(a)
        if base is None:
            return self.const(a.type, c * k)
        m = self._derive(("mul", base, k), lambda: self.value(llvm.MulOp(base, self.const(a.type, k))))
        return self._offset_value(m, c * k, a.type)

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
        return self.value(_CASTS[name](a, t))

    def gep(self, base: SSAValue, index: SSAValue, pointee: Attribute) -> SSAValue:
        """``base + index * sizeof(pointee)`` on a global pointer. Constant parts of
        ``base`` and ``index`` are split off into one constant byte step from a shared
        pointer (see the module docstring)."""
        ibase, ic = self.split_offset(index) if index.type in (i32, i64) else (index, 0)
        pbase, pc = self._ptr_offset.get(base, (base, 0))

        def step(p: SSAValue, i: SSAValue, t: Attribute) -> SSAValue:
            return self.value(llvm.GEPOp(p, [llvm.GEP_USE_SSA_VAL], t, ssa_indices=[i], result_type=base.type))

        g = pbase
        if ibase is not None:
            g = self._derive(("gep", pbase, ibase, str(pointee)), lambda: step(pbase, ibase, pointee))
        total = pc + ic * (bit_width(pointee) // 8 if pointee != i1 else 1)
        if total == 0:
            return g
        r = self._derive(("gep", g, total), lambda: step(g, self.const(i64, total), IntegerType(8)))
        self._ptr_offset[r] = (g, total)
        return r

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
        """Elements (low first) packed into one integer word of type ``word`` (i1 as bytes)."""
        bits = 8 if values[0].type == i1 else bit_width(values[0].type)
        if bits == word.width.data and len(values) == 1:
            return self.to_bits(values[0])
        origin = [self._unpacked.get(v) for v in values]
        if len(values) * bits == word.width.data and all(o is not None for o in origin):
            w = origin[0][0]  # type: ignore[index]
            if (
                w.type == word
                and all(o == (w, k, len(values)) for k, o in enumerate(origin))  # type: ignore[comparison-overlap]
            ):
                return w
        if word == i32 and bits in (8, 16) and len(values) * bits == 32 and values[0].type != i1:
            return self._pack_by_permute(values, bits)
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

    def _pack_by_permute(self, values: Sequence[SSAValue], bits: int) -> SSAValue:
        """A 32-bit word of 8/16-bit elements with byte permutes (``prmt``): elements that
        were unpacked from words are taken from those words, one ``prmt`` per extra word;
        two fresh 16-bit values are one ``mov.b32 {lo, hi}``."""
        step = bits // 8
        sources: list[tuple[SSAValue, int] | None] = []
        for v in values:
            o = self._unpacked.get(v)
            sources.append((o[0], o[1] * step) if o is not None and o[0].type == i32 else None)
        if bits == 16 and all(s is None for s in sources):
            (w,) = self.asm("mov.b32 $0, {$1, $2};", "=r,h,h", [self.to_bits(v) for v in values], [i32])
            return w
        targets: list[tuple[SSAValue, int]] = []
        for v, src in zip(values, sources, strict=True):
            w, b0 = src if src is not None else (self.cast("zext", self.to_bits(v), i32), 0)
            targets += [(w, b0 + t) for t in range(step)]
        words = list(dict.fromkeys(w for w, _ in targets))

        def permute(a: SSAValue, b: SSAValue, nibbles: list[int]) -> SSAValue:
            sel = sum(n << (4 * i) for i, n in enumerate(nibbles))
            (r,) = self.asm(f"prmt.b32 $0, $1, $2, {sel:#06x};", "=r,r,r", [a, b], [i32])
            return r

        first, second = words[0], words[1] if len(words) > 1 else words[0]
        acc = permute(first, second, [
            idx if w == first else idx + 4 if w == second else 0 for w, idx in targets
        ])
        filled = {i for i, (w, _) in enumerate(targets) if w in (first, second)}
        for w in words[2:]:
            acc = permute(acc, w, [idx + 4 if tw == w else i for i, (tw, idx) in enumerate(targets)])
            filled |= {i for i, (tw, _) in enumerate(targets) if tw == w}
        return acc

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
            v = self.from_bits(x, t)
            self._unpacked[v] = (word, k, count)
            out.append(v)
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
