"""Building per-thread LLVM-dialect IR: the instruction vocabulary of the lowered IR.

A :class:`ThreadBuilder` appends ops of the lowered-IR contract (see
:mod:`ltc.lowering.llvm.to_llvm`) to the block it currently builds: integer and float
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
* *shared index parts*: a ``getelementptr`` by an i64 sum ``a + b`` whose part ``a``
  other sums share steps by ``a`` first (one pointer for all of them) and then by ``b``
  (what LLVM's reassociation gives Triton for ``row * stride + col`` offsets);
* *repacking*: packing elements that were unpacked, in order, from one word gives
  that word back instead of rebuilding it with shifts;
* *bit-linear values*: an i32 that is ``c ⊕ (⊕_i bit_i(x) · col_i)`` of one value ``x``
  (``tid.x``, typically: every index a layout gives a thread is of this form) is known
  as such. Shifting, masking, multiplying by a power of two, XOR and carry-free
  ``add``/``or`` keep the form, and the result is built afresh from ``x`` in a canonical
  shape — one shift-and-mask per distinct bit displacement, shifts of ``x`` shared —
  instead of by stacking the operation on its operand (what LLVM's instcombine gives
  Triton: ``((tid >> 3) & 15) * 64`` becomes ``(tid << 3) & 0x3c0``).

Pure ops (integer and float arithmetic, compares, casts, the math intrinsics) are also
made once per block (common subexpressions), and the
caller may declare the bits a value can have (:meth:`assume_bits`, for ``tid.x`` <
the CTA size) so that masks that clear nothing are left out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    UNKNOWN_LOC,
    i1,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue

from ltc.dialects.llvm_ext import FPToSIOp, FPToUIOp, UIToFPOp

__all__ = ["GLOBAL_PTR", "ICMP", "REGISTER_CONSTRAINT", "SHARED_PTR", "ThreadBuilder", "bit_width", "int_type", "is_float"]

GLOBAL_PTR = llvm.LLVMPointerType(IntAttr(1))
"""``!llvm.ptr<1>``: a pointer into global memory."""
SHARED_PTR = llvm.LLVMPointerType(IntAttr(3))
"""``!llvm.ptr<3>``: a pointer into shared memory (only the shared base)."""

REGISTER_CONSTRAINT = {8: "h", 16: "h", 32: "r", 64: "l"}
"""Inline-asm constraint letter of a word of each width (a byte travels in a 16-bit register)."""

ICMP = {"eq": 0, "ne": 1, "slt": 2, "sle": 3, "sgt": 4, "sge": 5, "ult": 6, "ule": 7, "ugt": 8, "uge": 9}
"""LLVM's integer compare predicates, by name."""

_FLOATS = (Float16Type, BFloat16Type, Float32Type, Float64Type)

_PURE_INTRINSIC = re.compile(
    r"llvm\.(fabs|floor|ceil|trunc|rint|round|sqrt|fma|minnum|maxnum|minimum|maximum|smin|smax|umin|umax|abs|copysign"
    r"|nvvm\.(ex2|lg2|sin|cos|rsqrt|sqrt|rcp|div|fmin|fmax))\."
)
"""Intrinsics whose result depends on their operands alone (no memory, no other lane)."""


def is_float(t: Attribute) -> bool:
    """Whether ``t`` is one of the float types the lowered IR carries."""
    return isinstance(t, _FLOATS)


_INT_TYPES = {1: i1, 8: i8, 16: i16, 32: i32, 64: i64}


def int_type(bits: int) -> IntegerType:
    """``i<bits>``, the shared instance for the usual widths (an ``IntegerType`` is
    verified on construction: building one per element costs more than the op using it)."""
    t = _INT_TYPES.get(bits)
    return t if t is not None else IntegerType(bits)


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


_SHARED_READS = ("ld.shared", "ldmatrix", "atom.shared", "red.shared")
"""Inline PTX that reads shared memory (for :attr:`ThreadBuilder.shared_read_since_barrier`)."""


class ThreadBuilder:
    """Appends lowered-IR ops to ``block`` (changeable with :meth:`at`)."""

    def __init__(self, block: Block, *, fp_contract: bool = True) -> None:
        self.block = block
        self.fp_contract = fp_contract
        """Float add/sub/mul may be fused into an fma (``contract``): Triton's default
        (``enable_fp_fusion``); off, they round separately (``.rn`` in PTX)."""
        self._consts: dict[tuple[int, str, object], SSAValue] = {}
        self._sregs: dict[tuple[int, str], SSAValue] = {}
        self._const_of: dict[SSAValue, int] = {}
        self._offset: dict[SSAValue, tuple[SSAValue, int]] = {}
        self._ptr_offset: dict[SSAValue, tuple[SSAValue, int]] = {}
        self._derived: dict[tuple[object, ...], SSAValue] = {}
        self._unpacked: dict[SSAValue, tuple[SSAValue, int, int]] = {}
        self._linear: dict[SSAValue, tuple[SSAValue, tuple[int, ...], int]] = {}
        self._known: dict[SSAValue, int] = {}
        self._declared: set[SSAValue] = set()
        self._sum_of: dict[SSAValue, tuple[SSAValue, SSAValue]] = {}
        self._sum_uses: dict[SSAValue, int] = {}
        self._structs: dict[tuple[Attribute, ...], llvm.LLVMStructType] = {}
        self._templates: dict[tuple[object, ...], tuple[type[Operation], dict[str, Attribute], dict[str, Attribute], tuple[Attribute, ...]]] = {}
        self.shared_read_since_barrier = False
        """Whether shared memory may have been read since the last ``bar.sync`` on the way
        to the current position (a new block, or a return from one, is unknown: True).
        A write needs no barrier before it against earlier readers when this is False."""

    # -- plumbing ----------------------------------------------------------------------
    def add(self, op: Operation) -> Operation:
        self.block.add_op(op)
        return op

    def value(self, op: Operation) -> SSAValue:
        return self.add(op).results[0]

    def new_op(self, key: tuple[object, ...], operands: Sequence[SSAValue], make: object) -> Operation:
        """An op that ``make()`` (an xDSL constructor call on ``operands``) would build,
        appended. ``key`` names everything but the operands that the op's properties and
        result types depend on (its kind, operand types, parameters): the first op of a key
        is built by ``make``, later ones by ``Operation.create`` from its properties and
        result types. (xDSL's constructors check and rebuild their arguments on every
        call: about ten times the cost, which kernels of thousands of ops per thread pay.)"""
        t = self._templates.get(key)
        if t is None:
            op = make()  # type: ignore[operator]
            self._templates[key] = (type(op), dict(op.properties), dict(op.attributes), tuple(r.type for r in op.results))
            return self.add(op)
        cls, props, attrs, results = t
        # (create copies the property and attribute dicts: the template's stay as they are)
        return self.add(cls.create(operands=operands, result_types=results, properties=props,
                                   attributes=attrs, location=UNKNOWN_LOC))

    def at(self, block: Block) -> Block:
        """Build into ``block`` from now on; returns the previous block."""
        prev, self.block = self.block, block
        self.shared_read_since_barrier = True  # a loop's back edge, or the region just built
        return prev

    def _bin_op(self, name: str, a: SSAValue, b: SSAValue, contract: bool = False) -> SSAValue:
        """A new ``llvm.<name>`` of ``a`` and ``b`` (``contract``: the float op may fuse)."""
        if contract:
            return self.new_op(("bin", name, a.type, True), [a, b], lambda: _BINARY[name](
                a, b, llvm.FastMathAttr([llvm.FastMathFlag.ALLOW_CONTRACT]))).results[0]
        return self.new_op(("bin", name, a.type), [a, b], lambda: _BINARY[name](a, b)).results[0]

    # -- constants -----------------------------------------------------------------------
    def const(self, t: Attribute, value: int | float) -> SSAValue:
        """A constant of scalar type ``t`` (made once per block)."""
        key = (id(self.block), t, value)
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

    def int_constant(self, v: SSAValue) -> int | None:
        """The value of ``v`` when it is an integer constant ``const`` made (signed), else None."""
        return self._const_of.get(v)

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
        if a.type == i32 and name in _LINEAR_OPS:
            r = self._linear_binary(name, a, b)
            if r is not None:
                return r
        if name == "add" and a.type in (i32, i64):
            return self._add(a, b)
        if name == "mul" and a.type in (i32, i64) and (a in self._const_of or b in self._const_of):
            return self._mul(a, b)
        if isinstance(a.type, IntegerType):
            # the key ignores the order of commutative operands; the op keeps the caller's
            key = (name, *sorted((a, b), key=id)) if name in _COMMUTATIVE else (name, a, b)
            return self._derive(("bin", *key), lambda: self._bin_op(name, a, b))
        if name in _CONTRACTIBLE and self.fp_contract:
            return self._derive(("fbin", name, a, b), lambda: self._bin_op(name, a, b, contract=True))
        return self._derive(("fbin", name, a, b), lambda: self._bin_op(name, a, b))

    # -- bit-linear values (see the module docstring) -----------------------------------
    def assume_bits(self, v: SSAValue, mask: int) -> None:
        """Declare that ``v`` (an i32) has no bits outside ``mask``; ``v`` then also counts
        as bit-linear in itself."""
        self._known[v] = mask & _MASK32
        self._declared.add(v)

    def known_bits(self, v: SSAValue) -> int:
        """A mask of the bits ``v`` can have (all 32 when nothing is known)."""
        if v in self._const_of:
            return self._const_of[v] & _MASK32
        return self._known.get(v, _MASK32)

    def _affine_of(self, v: SSAValue) -> tuple[SSAValue | None, tuple[int, ...], int] | None:
        """``v`` as ``(x, columns, c)`` with ``v = c ⊕ (⊕ bit_i(x)·columns[i])``, or None."""
        if v in self._const_of:
            return None, (), self._const_of[v] & _MASK32
        if v in self._linear:
            return self._linear[v]
        base, c = self._offset.get(v, (None, 0))
        if base is not None and base in self._linear:
            x, cols, c0 = self._linear[base]
            c &= _MASK32
            if not (self.known_bits(base) & c):  # a carry-free add is an XOR
                return x, cols, c0 ^ c
        if v in self._declared:  # tid.x is linear in itself
            return v, tuple(1 << i for i in range(self._known[v].bit_length())), 0
        return None

    def _linear_binary(self, name: str, a: SSAValue, b: SSAValue) -> SSAValue | None:
        fa, fb = self._affine_of(a), self._affine_of(b)
        if fa is None or fb is None or (fa[0] is None and fb[0] is None):
            return None
        if name in ("shl", "lshr", "mul", "and") and fa[0] is None:
            if name in ("shl", "lshr"):
                return None
            fa, fb = fb, fa
        if name in ("shl", "lshr", "mul", "and"):
            x, cols, c = fa
            k = fb[2]
            if name == "mul":
                if k <= 0 or k & (k - 1):
                    return None  # (a multiple of 0 is left to the plain multiply)
                name, k = "shl", k.bit_length() - 1
            if name in ("shl", "lshr") and not 0 <= k < 32:
                return None
            if name == "shl":
                f = lambda t: (t << k) & _MASK32  # noqa: E731
            elif name == "lshr":
                f = lambda t: t >> k  # noqa: E731
            else:
                f = lambda t: t & k  # noqa: E731
            return self.affine(x, [f(t) for t in cols], f(c))  # type: ignore[arg-type]
        # xor, or, add: XOR of the two forms (or/add only without carries or overlaps)
        if name != "xor" and self.known_bits(a) & self.known_bits(b):
            return None
        xa, xb = fa[0], fb[0]
        if xa is not None and xb is not None and xa is not xb:
            return None
        x = xa if xa is not None else xb
        n = max(len(fa[1]), len(fb[1]))
        cols = [(fa[1][i] if i < len(fa[1]) else 0) ^ (fb[1][i] if i < len(fb[1]) else 0) for i in range(n)]
        return self.affine(x, cols, fa[2] ^ fb[2])  # type: ignore[arg-type]

    def affine(self, x: SSAValue, columns: Sequence[int], constant: int = 0) -> SSAValue:
        """``constant ⊕ (⊕_i bit_i(x) · columns[i])`` as i32; the constant is added (and
        so kept apart for address immediates) when its bits are disjoint from the rest."""
        v, bits = self.bit_linear(x, columns)
        constant &= _MASK32
        if v is None:
            return self.i32(constant)
        if not constant:
            return v
        # c ⊕ v = ((c ∧ bits) ⊕ v) + (c ∧ ¬bits): only the bits v can have are XORed
        # (one shared XOR for every constant with the same overlap), the rest is added
        # and so kept apart for address immediates
        overlap, apart = constant & bits, constant & ~bits
        if overlap:
            x0, cols, c0 = self._linear[v]
            xv = v
            v = self._derive(("xorc", xv, overlap), lambda: self._bin_op("xor", xv, self.i32(overlap)))
            self._linear[v] = (x0, cols, c0 ^ overlap)
            self._known[v] = bits
        if not apart:
            return v
        r = self._offset_value(v, apart, i32)
        self._known[r] = bits | apart
        return r

    def bit_linear(self, x: SSAValue, columns: Sequence[int]) -> tuple[SSAValue | None, int]:
        """``⊕_i bit_i(x) · columns[i]`` as i32, and the OR of the bits it can have;
        ``(None, 0)`` when it is zero. Built from ``x`` canonically (module docstring):
        input bits grouped by displacement ``s`` = output bit − input bit, each group one
        ``(x shifted by s) & mask``, groups ORed (XORed where they overlap). A column of
        several bits whose displacements no single-bit column has is one select."""
        if x in self._linear and not self._linear[x][2]:  # compose: x is itself linear in y
            y, inner, _ = self._linear[x]
            composed = []
            for d in inner:
                acc = 0
                for i, c in enumerate(columns):
                    if (d >> i) & 1:
                        acc ^= c
                composed.append(acc)
            x, columns = y, composed
        possible = self.known_bits(x)
        cols = [c & _MASK32 if (possible >> i) & 1 else 0 for i, c in enumerate(columns[:32])]
        while cols and not cols[-1]:
            cols.pop()
        if not cols:
            return None, 0
        key = tuple(cols)
        bits = 0
        for c in cols:
            bits |= c
        v = self._derive(("linear", x, key), lambda: self._emit_linear(x, key, possible))
        self._linear.setdefault(v, (x, key, 0))
        self._known[v] = bits
        return v, bits

    def _shifted(self, x: SSAValue, s: int) -> SSAValue:
        if s == 0:
            return x
        if s > 0:
            return self._derive(("bin", "shl", x, s), lambda: self._bin_op("shl", x, self.i32(s)))
        return self._derive(("bin", "lshr", x, -s), lambda: self._bin_op("lshr", x, self.i32(-s)))

    def _emit_linear(self, x: SSAValue, cols: tuple[int, ...], possible: int) -> SSAValue:
        groups: dict[int, int] = {}
        for i, c in enumerate(cols):
            if c and not (c & (c - 1)):
                s = c.bit_length() - 1 - i
                groups[s] = groups.get(s, 0) | (1 << i)
        selected: list[tuple[int, int]] = []
        for i, c in enumerate(cols):
            if not c or not (c & (c - 1)):
                continue
            shifts = [t - i for t in range(32) if (c >> t) & 1]
            if all(s in groups for s in shifts):
                for s in shifts:
                    groups[s] |= 1 << i
            else:
                selected.append((i, c))
        terms: list[tuple[SSAValue, int]] = []
        for s in sorted(groups):
            in_mask = groups[s]
            out_mask = ((in_mask << s) if s >= 0 else (in_mask >> -s)) & _MASK32
            have = ((possible << s) if s >= 0 else (possible >> -s)) & _MASK32
            v = self._shifted(x, s)
            if have & ~out_mask:
                v = self._derive(("bin", "and", v, out_mask), lambda v=v, m=out_mask: self._bin_op("and", v, self.i32(m)))
            terms.append((v, out_mask))
        for i, c in selected:
            bit = self._derive(("bin", "and", x, 1 << i), lambda i=i: self._bin_op("and", x, self.i32(1 << i)))
            cond = self.icmp("ne", bit, self.i32(0))
            terms.append((self.select(cond, self.i32(c), self.i32(0)), c))
        acc, bits = terms[0]
        for v, m in terms[1:]:
            acc = self._bin_op("or" if not (bits & m) else "xor", acc, v)
            bits |= m
        return acc

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
        v = self._derive(("add", base, c), lambda: self._bin_op("add", base, self.const(t, c)))
        self._offset[v] = (base, c)
        return v

    def _add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        (ba, ca), (bb, cb) = self.split_offset(a), self.split_offset(b)
        if ba is None or bb is None:
            return self._offset_value(ba if bb is None else bb, ca + cb, a.type)
        x, y = sorted((ba, bb), key=id)
        s = self._derive(("add", x, y), lambda: self._bin_op("add", ba, bb))
        if a.type == i64:  # an index sum a getelementptr may split (see gep)
            self._sum_of[s] = (ba, bb)
            for part in (ba, bb):
                self._sum_uses[part] = self._sum_uses.get(part, 0) + 1
        return self._offset_value(s, ca + cb, a.type)

    def _mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        if a in self._const_of:
            a, b = b, a
        k = self._const_of[b]
        base, c = self.split_offset(a)
        if base is None:
            return self.const(a.type, c * k)
        m = self._derive(("mul", base, k), lambda: self._bin_op("mul", base, self.const(a.type, k)))
        return self._offset_value(m, c * k, a.type)

    def add_i(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.binary("add", a, b)

    def icmp(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._derive(("icmp", pred, a, b), lambda: self.new_op(
            ("icmp", pred, a.type), [a, b], lambda: llvm.ICmpOp(a, b, IntegerAttr(ICMP[pred], i64))).results[0])

    def fcmp(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._derive(("fcmp", pred, a, b), lambda: self.new_op(
            ("fcmp", pred, a.type), [a, b], lambda: llvm.FCmpOp(a, b, pred)).results[0])

    def select(self, c: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        if a is b:
            return a
        return self._derive(("select", c, a, b), lambda: self.new_op(
            ("select", a.type), [c, a, b], lambda: llvm.SelectOp(c, a, b)).results[0])

    def fneg(self, a: SSAValue) -> SSAValue:
        return self._derive(("fneg", a), lambda: self.new_op(("fneg", a.type), [a], lambda: llvm.FNegOp(a)).results[0])

    def cast(self, name: str, a: SSAValue, t: Attribute) -> SSAValue:
        """``llvm.<name>`` cast of ``a`` to ``t`` (zext, sext, trunc, fpext, fptrunc, sitofp,
        uitofp, fptosi, fptoui, bitcast, ptrtoint, inttoptr); a no-op when types agree, and
        the source of a cast it undoes (a pointer made from an i64 and back, a bitcast of
        a bitcast to the first type: same bits, as LLVM folds them)."""
        if a.type == t and name in ("bitcast", "zext", "sext", "trunc", "fpext", "fptrunc"):
            return a
        if name in _UNDOES and isinstance(a, OpResult) and isinstance(a.op, _UNDOES[name]) and a.op.operands[0].type == t:
            return a.op.operands[0]
        if name == "inttoptr":
            # xDSL's constructor always makes an address-space-0 pointer: give the type here
            return self.new_op(("cast", name, a.type, t), [a], lambda: llvm.IntToPtrOp.build(
                operands=[a], result_types=[t])).results[0]
        return self._derive(("cast", name, a, t), lambda: self.new_op(
            ("cast", name, a.type, t), [a], lambda: _CASTS[name](a, t)).results[0])

    def gep(self, base: SSAValue, index: SSAValue, pointee: Attribute) -> SSAValue:
        """``base + index * sizeof(pointee)`` on a global pointer. Constant parts of
        ``base`` and ``index`` are split off into one constant byte step from a shared
        pointer (see the module docstring)."""
        ibase, ic = self.split_offset(index) if index.type in (i32, i64) else (index, 0)
        if ibase is not None and ibase in self._sum_of:
            # an i64 sum whose one part many sums share (a row offset beside each column's):
            # step by that part first, a pointer shared by those elements, then by the other
            # (exact: 64-bit address arithmetic wraps as the sum does)
            parts = sorted(self._sum_of[ibase], key=lambda v: -self._sum_uses.get(v, 0))
            if self._sum_uses.get(parts[0], 0) > 1:
                g = self.gep(self.gep(base, parts[0], pointee), parts[1], pointee)
                return self.gep(g, self.const(i64, ic), pointee) if ic else g
        pbase, pc = self._ptr_offset.get(base, (base, 0))

        def step(p: SSAValue, i: SSAValue, t: Attribute) -> SSAValue:
            return self.new_op(("gep", t, p.type, i.type, base.type), [p, i], lambda: llvm.GEPOp(
                p, [llvm.GEP_USE_SSA_VAL], t, ssa_indices=[i], result_type=base.type)).results[0]

        g = pbase
        if ibase is not None:
            if ibase.type == i32 and not (self.known_bits(ibase) >> 31):
                # a non-negative index: zero extension is sign extension (and cheaper)
                ibase = self._derive(("zext", ibase), lambda: self.new_op(
                    ("cast", "zext", ibase.type, i64), [ibase], lambda: llvm.ZExtOp(ibase, i64)).results[0])
            g = self._derive(("gep", pbase, ibase, pointee), lambda: step(pbase, ibase, pointee))
        total = pc + ic * (bit_width(pointee) // 8 if pointee != i1 else 1)
        if total == 0:
            return g
        r = self._derive(("gep", g, total), lambda: step(g, self.const(i64, total), i8))
        self._ptr_offset[r] = (g, total)
        return r

    # -- intrinsics and inline PTX ---------------------------------------------------------
    def intrinsic(self, name: str, args: Sequence[SSAValue], result: Attribute | None) -> SSAValue:
        if result is not None and _PURE_INTRINSIC.match(name):
            return self._derive(("intrinsic", name, *args), lambda: self._call(name, args, result))
        return self._call(name, args, result)

    def _call(self, name: str, args: Sequence[SSAValue], result: Attribute | None) -> SSAValue:
        op = self.new_op(("call", name, *(a.type for a in args), result), args, lambda: llvm.CallIntrinsicOp(
            name, list(args), [result] if result is not None else []))
        return op.results[0] if result is not None else None  # type: ignore[return-value]

    def barrier(self) -> None:
        self.intrinsic("llvm.nvvm.barrier0", [], None)
        self.shared_read_since_barrier = False

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
        if any(k in text for k in _SHARED_READS):
            self.shared_read_since_barrier = True
        def inline_asm(res: list[Attribute] | None, effects: bool) -> Operation:
            key = ("asm", text, constraints, *(v.type for v in operands), res and tuple(res), effects)
            return self.new_op(key, operands, lambda: llvm.InlineAsmOp(
                text, constraints, list(operands), res, has_side_effects=effects))

        if not results:
            inline_asm(None, True)
            return []
        if len(results) == 1:
            return [inline_asm([results[0]], side_effects).results[0]]
        struct = self._structs.get(tuple(results))
        if struct is None:
            struct = self._structs[tuple(results)] = llvm.LLVMStructType.from_type_list(list(results))
        whole = inline_asm([struct], side_effects).results[0]
        return [
            self.new_op(("extract", i, struct, t), [whole], lambda i=i, t=t: llvm.ExtractValueOp(
                DenseArrayBase.from_list(i64, [i]), whole, t)).results[0]
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
        return self.cast("bitcast", v, int_type(bit_width(t)))

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
                x = self.cast("zext", x, i8)
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

    def unpacked_from(self, v: SSAValue) -> tuple[SSAValue, int, int] | None:
        """``(word, k, count)`` when ``v`` is element ``k`` of ``count`` unpacked from ``word``."""
        return self._unpacked.get(v)

    def record_unpacked(self, v: SSAValue, word: SSAValue, k: int, count: int) -> None:
        """Record ``v`` as element ``k`` of ``count`` taken out of ``word`` (so that packing
        those elements in order gives ``word`` back)."""
        self._unpacked[v] = (word, k, count)

    def unpack(self, word: SSAValue, t: Attribute, count: int) -> list[SSAValue]:
        """``count`` elements of type ``t`` (low first) out of an integer ``word``; a byte of
        an i32 is one ``prmt w, 0, 0x777k`` (zero-extended; a shift and a truncation are two
        SASS instructions)."""
        bits = bit_width(t) if t != i1 else 8
        wbits = bit_width(word.type)
        out: list[SSAValue] = []
        for k in range(count):
            if bits == 8 and wbits == 32 and k:
                (x,) = self.asm(f"prmt.b32 $0, $1, 0, {0x7770 | k:#06x};", "=r,r", [word], [i32])
            else:
                x = word if not k else self.binary("lshr", word, self.const(word.type, k * bits))
            if bits < wbits:
                x = self.cast("trunc", x, int_type(bits))
            if t == i1:
                x = self.cast("trunc", x, i1)
            v = self.from_bits(x, t)
            self._unpacked[v] = (word, k, count)
            out.append(v)
        return out


_CONTRACTIBLE = frozenset({"fadd", "fsub", "fmul"})
"""Float ops an fma may absorb when contraction is allowed."""

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

_MASK32 = 0xFFFFFFFF
_LINEAR_OPS = frozenset({"add", "or", "xor", "and", "shl", "lshr", "mul"})
"""i32 ops that keep a bit-linear value bit-linear (add and or: without carries)."""
_COMMUTATIVE = frozenset({"add", "mul", "and", "or", "xor"})

_UNDOES: dict[str, type[Operation]] = {
    "ptrtoint": llvm.IntToPtrOp,
    "inttoptr": llvm.PtrToIntOp,
    "bitcast": llvm.BitcastOp,
}
"""The casts each cast undoes (when it gives back the first one's operand type)."""

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
