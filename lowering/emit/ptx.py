"""Lowered IR → PTX text, with our own instruction selection.

``emit_ptx(module, target)`` prints each kernel of a lowered-IR module as a
``.visible .entry`` of PTX ISA 8.0 (``ptxas -arch=sm_80`` and ``sm_90`` accept it).

Registers are virtual, one per SSA value, in LLVM's classes: ``%p`` (.pred, i1),
``%rs`` (.b16: i8, i16, f16, bf16), ``%r`` (.b32: i32), ``%f`` (.f32), ``%rd`` (.b64:
i64, global pointers), ``%fd`` (.f64). Choices that are not obvious:

* **Immediates.** Integer, f32 (``0fXXXXXXXX``) and f64 (``0dXXXXXXXXXXXXXXXX``)
  constants stay immediates wherever ptxas takes them (any source operand of an ALU
  op, setp, selp, cvt); i1, f16 and bf16 constants, which PTX cannot write inline,
  get a register at their definition. Inline-asm register operands always get a register.
* **i8** lives in a 16-bit register whose upper byte is don't-care: add, sub, mul, and,
  or, xor, shl and trunc to i8 need no fix-up; ops that read the upper bits (compares,
  division, right shifts, extensions, shift amounts) first sign- or zero-extend.
* **Float arithmetic** is exactly LLVM's: ``add/sub/mul.rn``, except that an op with the
  ``contract`` flag (Triton's FP fusion, the default) drops the ``.rn`` so that ptxas may
  fuse a mul and an add into an fma, as LLVM would; ``div.rn`` (IEEE) for ``llvm.fdiv``
  (Triton's ``arith.divf`` is ``div.full.f32``, an intrinsic). f16 division goes through f32 (exact: f32 holds more than twice f16's
  precision, so rounding twice is rounding once). bf16 add/sub/mul exist from sm_90; on
  sm_80 they are one ``fma.rn.bf16`` each (``a*1+b``, ``b*-1+a``, ``a*b+(-0)``), and
  bf16 compares and conversions widen to f32 (exact). Conversions into bf16 from
  i32/i64/f64 on sm_80 round to f32 toward zero and set the last bit if that was
  inexact (round to odd), so the final ``cvt.rn.bf16.f32`` rounds correctly.
* **frem** is LLVM's expansion ``a - trunc(a/b)*b`` with one fma (``div.rn``,
  ``cvt.rzi``, ``fma.rn``), given the sign of ``a`` (C's ``fmod``: ``-4 % 2`` is ``-0``),
  and ``a`` itself when ``|a| < |b|`` (so also for an infinite ``b``). It is exact
  unless rounding ``a/b`` reaches the next integer (large quotients; as in LLVM and
  Triton). f16/bf16 compute it in f32; :mod:`.llvm_ir` emits the same sequence.
* **i1** values are predicates: and/or/xor/add/sub/mul become ``.pred`` logic, zext/sext
  a ``selp``, trunc to i1 an ``and`` and a ``setp``.
* **Control flow.** ``scf.for`` is a rotated loop (a guard, the body, the increment and
  a conditional branch back); iter args and results share one register per slot,
  written by ``mov`` (a parallel copy at the yield). ``scf.if`` branches around its
  regions; its results get a register each. A branch whose condition depends only on
  kernel arguments, constants and block ids is uniform: ``bra.uni``.
* **Shared memory** is ``.shared .align 16 .b8 global_smem[N]`` for N = ``ttg.shared``
  up to 48 KiB (the most a kernel may declare statically); above, it is declared
  ``.extern`` (dynamic shared memory: the launch must pass N).
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import llvm, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from ltc.lowering.emit.common import (
    may_contract,
    ASM_REGISTER_BITS,
    BYTE_SIZE,
    FCMP,
    FLOAT_CASTS,
    FLOAT_TAGS,
    FLOAT_TO_INT,
    INT_BITS,
    INT_CASTS,
    INT_TO_FLOAT,
    SCALAR_TYPES,
    BinaryOp,
    EmitError,
    KernelBodyPrinter,
    KernelInfo,
    ScalarType,
    declared_shared_bytes,
    fcmp_predicate,
    float_bits,
    icmp_predicate,
    intrinsic_of,
    kernels,
    signed_value,
    substitute_operands,
    type_tag,
)

__all__ = ["PTX_VERSION", "emit_ptx"]

PTX_VERSION = "8.0"

_DECL = {"p": ".pred", "rs": ".b16", "r": ".b32", "f": ".f32", "rd": ".b64", "fd": ".f64"}
"""LLVM's PTX register classes (``%rs12`` is of class ``rs``), in the order they are
declared, and the type each is declared with (``mov`` and ``selp`` take it too)."""
_MOV = {cls: f"mov{ty}" for cls, ty in _DECL.items()}
_SELP = {cls: f"selp{ty}" for cls, ty in _DECL.items() if cls != "p"}
_CONSTRAINT_CLASS = {"r": "r", "l": "rd", "h": "rs", "c": "rs", "f": "f", "d": "fd", "b": "p"}
"""The register class of each inline-asm register constraint."""
_WIDTH = {cls: ASM_REGISTER_BITS[letter] for letter, cls in _CONSTRAINT_CLASS.items()}

CLASS = {tag: _CONSTRAINT_CLASS[t.constraint] for tag, t in SCALAR_TYPES.items() if t.constraint is not None}
"""The register class of each tag."""


def _param_type(t: ScalarType) -> str:
    """How a kernel parameter is declared and loaded: integers (i1 as a byte) and pointers
    unsigned, 16-bit floats as their bits."""
    if t.kind != "float":
        return f".u{max(t.bits, 8)}"
    return f".f{t.bits}" if t.bits >= 32 else f".b{t.bits}"


_PARAM = {tag: _param_type(t) for tag, t in SCALAR_TYPES.items() if t.constraint is not None}

_SHIFTS = ("shl", "lshr", "ashr")

_PRED_ICMP = {
    "eq": ("xor", False, False, True), "ne": ("xor", False, False, False),
    "ult": ("and", True, False, False), "ugt": ("and", False, True, False),
    "ule": ("or", True, False, False), "uge": ("or", False, True, False),
    "slt": ("and", False, True, False), "sgt": ("and", True, False, False),
    "sle": ("or", False, True, False), "sge": ("or", True, False, False),
}  # fmt: skip
"""icmp on i1 as ``op(a', b')`` with (op, negate a, negate b, negate result): unsigned
i1 is 0 < 1, signed is -1 (true) < 0 (false)."""

_BF16_ONE, _BF16_MINUS_ONE, _BF16_MINUS_ZERO = "0x3F80", "0xBF80", "0x8000"


def _imm(tag: str, bits: int, sign: str = "s") -> str:
    """A PTX immediate for constant bits: decimal integers (``sign`` "u" for the unsigned
    value), ``0f`` f32, ``0d`` f64, ``0x`` 16-bit patterns."""
    if tag in INT_BITS:
        return str(bits if sign == "u" else signed_value(bits, INT_BITS[tag]))
    if tag == "f32":
        return f"0f{bits:08X}"
    if tag == "f64":
        return f"0d{bits:016X}"
    return f"0x{bits:04X}"


def _is_register(text: str) -> bool:
    return text.startswith("%")


def _class_of(register: str) -> str:
    """``"rs"`` of ``"%rs12"``."""
    return register[1:].rstrip("0123456789")


def _target_arch(target: str) -> int:
    m = re.fullmatch(r"sm_(\d+)a?", target)
    if m is None or int(m.group(1)) < 80:
        raise EmitError(None, f"target {target!r} is not supported (sm_80 or newer)")
    return int(m.group(1))


@dataclass(frozen=True)
class _Smem:
    """The module's shared-memory symbol as an operand (only ptrtoint reads it)."""

    name: str = "global_smem"


class _Uniformity:
    """Which values are the same in every thread that computes them: kernel arguments,
    constants, block ids and sizes, pure ops of those, and induction variables of loops
    with such bounds. Conservative: anything else (tid, shuffles, inline asm, loop-carried
    and if-merged values) is not."""

    _VARYING_INTRINSICS = ("llvm.nvvm.read.ptx.sreg.tid.", "llvm.nvvm.shfl.")

    def __init__(self, func: llvm.FuncOp) -> None:
        self.args = set(func.body.block.args)
        self.memo: dict[SSAValue, bool] = {}

    def __call__(self, v: SSAValue) -> bool:
        # Depth-first without recursion: dependence chains can be long.
        stack = [v]
        while stack:
            top = stack[-1]
            if top in self.memo:
                stack.pop()
                continue
            pending = [d for d in self._inputs(top) if d not in self.memo]
            if pending:
                stack += pending
                continue
            stack.pop()
            self.memo[top] = self._leaf(top) and all(self.memo[d] for d in self._inputs(top))
        return self.memo[v]

    def _inputs(self, v: SSAValue) -> list[SSAValue]:
        """The values ``v`` is uniform with, if its own op allows (:meth:`_leaf`)."""
        if isinstance(v, BlockArgument):
            parent = v.block.parent_op()
            if v not in self.args and isinstance(parent, scf.ForOp) and v.index == 0:
                return [parent.lb, parent.step]
            return []
        assert isinstance(v, OpResult)
        return list(v.op.operands) if self._leaf(v) else []

    def _leaf(self, v: SSAValue) -> bool:
        """Whether ``v``'s own definition keeps uniformity (inputs aside)."""
        if isinstance(v, BlockArgument):
            parent = v.block.parent_op()
            return v in self.args or (isinstance(parent, scf.ForOp) and v.index == 0)
        assert isinstance(v, OpResult)
        op = v.op
        if isinstance(op, llvm.InlineAsmOp | scf.ForOp | scf.WhileOp | scf.IfOp | llvm.ExtractValueOp):
            return False
        return not (isinstance(op, llvm.CallIntrinsicOp) and op.intrin.data.startswith(self._VARYING_INTRINSICS))


def sequential_copies(moves: Sequence[tuple[str, str, str]],
                      temp: Callable[[str], str]) -> list[tuple[str, str, str]]:
    """The parallel copy ``dst_i := src_i`` (register class ``cls_i``; distinct
    destinations) as a sequence of moves with the same effect.

    A move waits while a pending move still reads its destination; each step takes the
    first move (in the given order) that need not wait. When every pending move waits,
    they form disjoint cycles (each destination is read exactly once), and the first
    one's destination is saved to ``temp(cls)``, which its one reader reads instead.
    Linear in the moves (up to a heap's log): kernels carry thousands of registers
    through a loop. The result has one move per non-trivial copy plus one per cycle."""
    pending = {d: (s, cls) for d, s, cls in moves if d != s}
    order = {d: i for i, d in enumerate(pending)}
    names = list(pending)
    readers: dict[str, set[str]] = {}
    for d, (s, _) in pending.items():
        readers.setdefault(s, set()).add(d)
    ready = [order[d] for d in pending if d not in readers]
    heapq.heapify(ready)
    out: list[tuple[str, str, str]] = []
    while pending:
        while ready:
            d = names[heapq.heappop(ready)]
            s, cls = pending.pop(d)
            out.append((d, s, cls))
            rs = readers[s]
            rs.remove(d)
            if not rs:
                del readers[s]
                if s in pending:
                    heapq.heappush(ready, order[s])
        if pending:
            d, (_, cls) = next(iter(pending.items()))
            tmp = temp(cls)
            out.append((tmp, d, cls))
            (reader,) = readers.pop(d)
            pending[reader] = (tmp, pending[reader][1])
            readers[tmp] = {reader}
            heapq.heappush(ready, order[d])
    return out


class _FunctionPrinter(KernelBodyPrinter):
    """Prints one kernel."""

    RETURN = "ret;"

    def __init__(self, kernel: KernelInfo, arch: int, has_shared: bool) -> None:
        self.kernel = kernel
        self.arch = arch
        self.has_shared = has_shared
        self.lines: list[str] = []
        self.counts = dict.fromkeys(_DECL, 0)
        self.vals: dict[SSAValue, str | tuple[str, ...] | _Smem] = {}
        self.consts: dict[SSAValue, tuple[str, int]] = {}
        self.next_label = 0
        self.uniform = _Uniformity(kernel.func)

    # -- plumbing ----------------------------------------------------------------------
    def reg(self, cls: str) -> str:
        self.counts[cls] += 1
        return f"%{cls}{self.counts[cls]}"

    def emit(self, text: str) -> None:
        self.lines.append(f"\t{text}")

    def label(self, kind: str) -> str:
        self.next_label += 1
        return f"$L__{kind}{self.next_label}"

    def new(self, v: SSAValue, op: Operation) -> str:
        """A fresh register for result ``v``."""
        r = self.reg(CLASS[self.tag(v, op)])
        self.vals[v] = r
        return r

    def tag(self, v: SSAValue, op: Operation) -> str:
        tag = type_tag(v.type, op)
        if tag == "ptr3" and not isinstance(v.owner, llvm.AddressOfOp):
            raise EmitError(op, "a shared pointer must come from llvm.mlir.addressof @global_smem")
        return tag

    def operand(self, v: SSAValue, op: Operation) -> str:
        """The register or immediate holding scalar ``v``."""
        text = self.vals.get(v)
        if not isinstance(text, str):
            what = "has not been defined" if text is None else "is not a scalar"
            raise EmitError(op, f"operand {v.name_hint or ''} {what} (outside the lowered-IR contract)")
        return text

    def in_reg(self, v: SSAValue, op: Operation) -> str:
        """``v`` in a register (an immediate is moved into a fresh one)."""
        text = self.operand(v, op)
        if _is_register(text):
            return text
        cls = CLASS[self.tag(v, op)]
        r = self.reg(cls)
        self.emit(f"{_MOV[cls]} {r}, {text};")
        return r

    def int_operand(self, v: SSAValue, op: Operation, sign: str) -> str:
        """An integer operand with an i8 extended (``sign`` "s" or "u") to its 16 bits."""
        if type_tag(v.type, op) != "i8":
            if v in self.consts and sign == "u":
                return _imm(*self.consts[v], sign="u")
            return self.operand(v, op)
        if v in self.consts:
            return _imm(*self.consts[v], sign=sign)
        r = self.reg("rs")
        if sign == "s":
            self.emit(f"cvt.s16.s8 {r}, {self.operand(v, op)};")
        else:
            self.emit(f"and.b16 {r}, {self.operand(v, op)}, 255;")
        return r

    def set_constant(self, v: SSAValue, tag: str, bits: int) -> None:
        """Define ``v`` as a constant: an immediate, or a register where PTX has none."""
        if tag in ("i1", "f16", "bf16"):
            cls = CLASS[tag]
            r = self.reg(cls)
            self.emit(f"{_MOV[cls]} {r}, {bits & 1 if tag == 'i1' else _imm(tag, bits)};")
            self.vals[v] = r
        else:
            self.vals[v] = _imm(tag, bits)
            self.consts[v] = (tag, bits)

    def copies(self, moves: list[tuple[str, str, str]]) -> None:
        """The parallel copy ``dst_i := src_i`` (register class ``cls_i``) as movs."""
        for d, src, cls in sequential_copies(moves, self.reg):
            self.emit(f"{_MOV[cls]} {d}, {src};")

    # -- the function ----------------------------------------------------------------------
    def print(self) -> list[str]:
        func = self.kernel.func
        name = self.kernel.name
        params = []
        for i, (arg, tag) in enumerate(self.kernel_params()):
            param = f"{name}_param_{i}"
            params.append(f"\t.param {_PARAM[tag]} {param}")
            if not arg.uses:
                continue
            if tag == "i1":
                byte, low = self.reg("rs"), self.reg("rs")
                self.emit(f"ld.param.u8 {byte}, [{param}];")
                self.emit(f"and.b16 {low}, {byte}, 1;")
                self.emit(f"setp.eq.b16 {self.new(arg, func)}, {low}, 1;")
            else:
                self.emit(f"ld.param{_PARAM[tag]} {self.new(arg, func)}, [{param}];")
        self.block_ops(func.body.block, top=True)
        out = [f".visible .entry {name}("]
        out.append(",\n".join(params))
        out.append(")")
        if self.kernel.reqntid is not None:
            out.append(".reqntid {}, {}, {}".format(*self.kernel.reqntid))
        out.append("{")
        for cls, decl in _DECL.items():
            if self.counts[cls]:
                out.append(f"\t.reg {decl} \t%{cls}<{self.counts[cls] + 1}>;")
        out.append("")
        out += self.lines
        out.append("}")
        return out

    # -- ops (routed by KernelBodyPrinter.op) ---------------------------------------------------
    def address_of(self, op: llvm.AddressOfOp) -> None:
        self.tag(op.result, op)
        self.vals[op.result] = _Smem()

    def fneg(self, op: llvm.FNegOp) -> None:
        tag = self.float_tag(op)
        self.emit(f"neg.{tag} {self.new(op.res, op)}, {self.operand(op.arg, op)};")

    # -- integers ---------------------------------------------------------------------------
    def int_binary(self, op: Operation, entry: BinaryOp, tag: str) -> None:
        lhs, rhs = op.operands
        res = op.results[0]
        if tag == "i1":
            a, b = self.operand(lhs, op), self.operand(rhs, op)
            self.emit(f"{entry.i1_logic}.pred {self.new(res, op)}, {a}, {b};")
            return
        width = max(INT_BITS[tag], 16)
        sign = entry.extend
        if entry.llvm in _SHIFTS:
            a = self.int_operand(lhs, op, sign) if sign else self.operand(lhs, op)
            b = self.shift_amount(rhs, op)
        elif sign:
            a, b = self.int_operand(lhs, op, sign), self.int_operand(rhs, op, sign)
        else:
            a, b = self.operand(lhs, op), self.operand(rhs, op)
        self.emit(f"{entry.ptx}{width} {self.new(res, op)}, {a}, {b};")

    def shift_amount(self, v: SSAValue, op: Operation) -> str:
        """PTX shifts take a .u32 amount (amounts past the width are poison in LLVM)."""
        tag = type_tag(v.type, op)
        if v in self.consts:
            return str(min(self.consts[v][1], 0xFFFFFFFF))
        if tag == "i32":
            return self.operand(v, op)
        r = self.reg("r")
        self.emit(f"cvt.u32.u{INT_BITS[tag]} {r}, {self.operand(v, op)};")
        return r

    def icmp(self, op: llvm.ICmpOp) -> None:
        pred = icmp_predicate(op)
        tag = type_tag(op.lhs.type, op)
        if tag == "i1":
            logic, neg_a, neg_b, neg_res = _PRED_ICMP[pred.name]
            a, b = self.operand(op.lhs, op), self.operand(op.rhs, op)
            d = self.new(op.res, op)
            self.emit(f"{logic}.pred {d}, {'!' * neg_a}{a}, {'!' * neg_b}{b};")
            if neg_res:
                self.emit(f"not.pred {d}, {d};")
            return
        if tag not in INT_BITS:
            raise EmitError(op, f"compares integers, got {op.lhs.type}")
        a, b = self.int_operand(op.lhs, op, pred.sign), self.int_operand(op.rhs, op, pred.sign)
        width = max(INT_BITS[tag], 16)
        self.emit(f"setp.{pred.ptx}.{pred.sign}{width} {self.new(op.res, op)}, {a}, {b};")

    def select(self, op: llvm.SelectOp) -> None:
        tag = self.tag(op.res, op)
        c, a, b = (self.operand(v, op) for v in (op.cond, op.lhs, op.rhs))
        if tag == "i1":  # (c and a) or (not c and b)
            t1, t2 = self.reg("p"), self.reg("p")
            self.emit(f"and.pred {t1}, {c}, {a};")
            self.emit(f"and.pred {t2}, !{c}, {b};")
            self.emit(f"or.pred {self.new(op.res, op)}, {t1}, {t2};")
            return
        self.emit(f"{_SELP[CLASS[tag]]} {self.new(op.res, op)}, {a}, {b}, {c};")

    # -- floats -----------------------------------------------------------------------------
    def to_f32(self, v: SSAValue, op: Operation) -> str:
        """An f16/bf16 value widened (exactly) to f32."""
        r = self.reg("f")
        self.emit(f"cvt.f32.{type_tag(v.type, op)} {r}, {self.operand(v, op)};")
        return r

    def float_binary(self, op: Operation, entry: BinaryOp) -> None:
        kind = entry.ptx
        tag = self.float_tag(op)
        lhs, rhs = op.operands
        a, b = self.operand(lhs, op), self.operand(rhs, op)
        res = op.results[0]
        if tag in ("f32", "f64") or (tag == "f16" or self.arch >= 90) and kind != "div":
            # no rounding modifier: ptxas may fuse it into an fma (PTX ISA), as LLVM's contract
            rnd = "" if may_contract(op) and kind != "div" else ".rn"
            self.emit(f"{kind}{rnd}.{tag} {self.new(res, op)}, {a}, {b};")
        elif kind == "div":  # f16/bf16: in f32, then one rounding
            q = self.reg("f")
            self.emit(f"div.rn.f32 {q}, {self.to_f32(lhs, op)}, {self.to_f32(rhs, op)};")
            self.emit(f"cvt.rn.{tag}.f32 {self.new(res, op)}, {q};")
        else:  # bf16 before sm_90: one fma
            x, y, z = {
                "add": (a, _BF16_ONE, b),
                "sub": (b, _BF16_MINUS_ONE, a),
                "mul": (a, b, _BF16_MINUS_ZERO),
            }[kind]
            regs = []
            for t in (x, y, z):
                if not _is_register(t):
                    r = self.reg("rs")
                    self.emit(f"mov.b16 {r}, {t};")
                    t = r
                regs.append(t)
            self.emit(f"fma.rn.bf16 {self.new(res, op)}, {regs[0]}, {regs[1]}, {regs[2]};")

    def frem(self, op: llvm.FRemOp) -> None:
        tag = self.float_tag(op)
        if tag in ("f32", "f64"):
            self.frem_expansion(tag, self.operand(op.lhs, op), self.operand(op.rhs, op), self.new(op.res, op))
            return
        r = self.reg("f")
        self.frem_expansion("f32", self.to_f32(op.lhs, op), self.to_f32(op.rhs, op), r)
        self.emit(f"cvt.rn.{tag}.f32 {self.new(op.res, op)}, {r};")

    def frem_expansion(self, tag: str, a: str, b: str, d: str) -> None:
        cls = CLASS[tag]
        q, r, abs_a, abs_b, small = self.reg(cls), self.reg(cls), self.reg(cls), self.reg(cls), self.reg("p")
        self.emit(f"div.rn.{tag} {q}, {a}, {b};")
        self.emit(f"cvt.rzi.{tag}.{tag} {q}, {q};")
        self.emit(f"neg.{tag} {q}, {q};")
        self.emit(f"fma.rn.{tag} {r}, {q}, {b}, {a};")
        self.emit(f"copysign.{tag} {r}, {a}, {r};")  # a zero remainder keeps a's sign
        self.emit(f"abs.{tag} {abs_a}, {a};")
        self.emit(f"abs.{tag} {abs_b}, {b};")
        self.emit(f"setp.lt.{tag} {small}, {abs_a}, {abs_b};")  # |a| < |b| (b = inf too): a
        self.emit(f"selp.{tag} {d}, {a}, {r}, {small};")

    def fcmp(self, op: llvm.FCmpOp) -> None:
        tag = self.float_tag(op)
        pred = fcmp_predicate(op)
        cmp = FCMP[pred]
        if cmp is None:
            self.emit(f"mov.pred {self.new(op.res, op)}, {int(pred == 'true')};")
            return
        if tag == "bf16" and self.arch < 90:
            a, b, tag = self.to_f32(op.lhs, op), self.to_f32(op.rhs, op), "f32"
        else:
            a, b = self.operand(op.lhs, op), self.operand(op.rhs, op)
        self.emit(f"setp.{cmp}.{tag} {self.new(op.res, op)}, {a}, {b};")

    # -- casts ------------------------------------------------------------------------------
    def cast_tags(self, op: Operation) -> tuple[SSAValue, SSAValue, str, str]:
        (src,) = op.operands
        (res,) = op.results
        return src, res, self.tag(src, op), self.tag(res, op)

    def cast(self, op: Operation, kind: str) -> None:
        if kind in INT_CASTS:
            self.int_cast(op, kind)
        elif kind in FLOAT_CASTS:
            self.float_cast(op, kind)
        elif kind in INT_TO_FLOAT:
            self.int_to_float(op, kind)
        elif kind in FLOAT_TO_INT:
            self.float_to_int(op, kind)
        else:
            getattr(self, kind)(op)  # bitcast, ptrtoint, inttoptr

    def int_cast(self, op: Operation, kind: str) -> None:
        src, res, s, d = self.cast_tags(op)
        if s not in INT_BITS or d not in INT_BITS:
            raise EmitError(op, f"casts integers, got {src.type} to {res.type}")
        sb, db = INT_BITS[s], INT_BITS[d]
        if (sb >= db) != (kind == "trunc") or sb == db:
            raise EmitError(op, f"cannot {kind} {src.type} to {res.type}")
        if src in self.consts:  # fold
            bits = self.consts[src][1]
            if kind == "sext":
                bits = signed_value(bits, sb)
            self.set_constant(res, d, bits & ((1 << db) - 1))
            return
        if kind in ("zext", "sext") and s == "i32" and all(
            isinstance(u.operation, llvm.GEPOp) and u.index == 1 for u in res.uses
        ):
            return  # read only as a GEP index, which widens the i32 itself (see gep)
        a = self.operand(src, op)
        if s == "i1":
            one = "-1" if kind == "sext" else "1"
            letter = "s" if kind == "sext" else "u"
            self.emit(f"selp.{letter}{max(db, 16)} {self.new(res, op)}, {one}, 0, {a};")
        elif d == "i1":
            low = self.reg(CLASS[s])
            width = max(sb, 16)
            self.emit(f"and.b{width} {low}, {a}, 1;")
            self.emit(f"setp.eq.b{width} {self.new(res, op)}, {low}, 1;")
        elif kind == "trunc" and CLASS[s] == CLASS[d]:
            self.vals[res] = a  # i16 -> i8: the same register, the upper byte don't-care
        elif kind == "zext" and (s, d) == ("i8", "i16"):
            self.emit(f"and.b16 {self.new(res, op)}, {a}, 255;")
        else:
            letter = "s" if kind == "sext" else "u"
            dst = max(db, 16) if kind == "trunc" else db
            self.emit(f"cvt.{letter}{dst}.{letter}{sb} {self.new(res, op)}, {a};")

    def float_cast(self, op: Operation, kind: str) -> None:
        """fpext, fptrunc."""
        src, res, s, d = self.cast_tags(op)
        if s not in FLOAT_TAGS or d not in FLOAT_TAGS or s == d or ({s, d} == {"f16", "bf16"}):
            raise EmitError(op, f"cannot {kind} {src.type} to {res.type}")
        if (SCALAR_TYPES[s].bits < SCALAR_TYPES[d].bits) != (kind == "fpext"):
            raise EmitError(op, f"cannot {kind} {src.type} to {res.type}")
        a = self.in_reg(src, op)
        if kind == "fpext":
            if s == "bf16" and d == "f64" and self.arch < 90:
                f = self.to_f32(src, op)
                self.emit(f"cvt.f64.f32 {self.new(res, op)}, {f};")
            else:
                self.emit(f"cvt.{d}.{s} {self.new(res, op)}, {a};")
        elif d == "bf16" and s == "f64" and self.arch < 90:
            self.to_bf16_round_odd(s, "f64", a, self.new(res, op))
        else:
            self.emit(f"cvt.rn.{d}.{s} {self.new(res, op)}, {a};")

    def to_bf16_round_odd(self, src: str, src_type: str, a: str, d: str) -> None:
        """bf16 of an i32/i64/f64 (tag ``src``) register read as ``src_type`` (``s32``,
        ``u64``, ``f64`` …), rounded once: to f32 toward zero, the last bit set when inexact
        (round to odd), then ``cvt.rn.bf16.f32``."""
        f, back, bits, inexact = self.reg("f"), self.reg(CLASS[src]), self.reg("r"), self.reg("p")
        self.emit(f"cvt.rz.f32.{src_type} {f}, {a};")
        if src_type == "f64":
            self.emit(f"cvt.f64.f32 {back}, {f};")
        else:
            self.emit(f"cvt.rzi.{src_type}.f32 {back}, {f};")
        self.emit(f"setp.ne.{src_type} {inexact}, {back}, {a};")
        self.emit(f"mov.b32 {bits}, {f};")
        self.emit(f"@{inexact} or.b32 {bits}, {bits}, 1;")
        odd = self.reg("f")
        self.emit(f"mov.b32 {odd}, {bits};")
        self.emit(f"cvt.rn.bf16.f32 {d}, {odd};")

    def int_to_float(self, op: Operation, kind: str) -> None:
        """sitofp, uitofp (round to nearest even)."""
        src, res, s, d = self.cast_tags(op)
        letter = "s" if kind == "sitofp" else "u"
        if s not in INT_BITS or d not in FLOAT_TAGS:
            raise EmitError(op, f"converts an integer to a float, got {src.type} to {res.type}")
        if s == "i1":  # true is -1 signed
            true = float_bits(-1.0 if letter == "s" else 1.0, d)
            reg = self.new(res, op)
            self.emit(f"{_SELP[CLASS[d]]} {reg}, {_imm(d, true)}, {_imm(d, 0)}, {self.operand(src, op)};")
            return
        a = self.in_reg(src, op)
        it = f"{letter}{INT_BITS[s]}"
        if d == "bf16" and self.arch < 90:
            if INT_BITS[s] <= 16:  # exact in f32
                f = self.reg("f")
                self.emit(f"cvt.rn.f32.{it} {f}, {a};")
                self.emit(f"cvt.rn.bf16.f32 {self.new(res, op)}, {f};")
            else:
                self.to_bf16_round_odd(s, it, a, self.new(res, op))
            return
        self.emit(f"cvt.rn.{d}.{it} {self.new(res, op)}, {a};")

    def float_to_int(self, op: Operation, kind: str) -> None:
        """fptosi, fptoui (round toward zero)."""
        src, res, s, d = self.cast_tags(op)
        letter = "s" if kind == "fptosi" else "u"
        if s not in FLOAT_TAGS or d not in INT_BITS:
            raise EmitError(op, f"converts a float to an integer, got {src.type} to {res.type}")
        a = self.in_reg(src, op)
        if s == "bf16" and self.arch < 90:
            a, s = self.to_f32(src, op), "f32"
        if d == "i1":
            r = self.reg("r")
            self.emit(f"cvt.rzi.{letter}32.{s} {r}, {a};")
            self.emit(f"setp.ne.s32 {self.new(res, op)}, {r}, 0;")
            return
        self.emit(f"cvt.rzi.{letter}{INT_BITS[d]}.{s} {self.new(res, op)}, {a};")

    def bitcast(self, op: Operation) -> None:
        src, res, s, d = self.cast_tags(op)
        cs, cd = CLASS[s], CLASS[d]
        if _WIDTH[cs] != _WIDTH[cd] or "ptr1" in (s, d) or "i1" in (s, d) or s == "i8" or d == "i8":
            raise EmitError(op, f"cannot bitcast {src.type} to {res.type}")
        if src in self.consts:
            self.set_constant(res, d, self.consts[src][1])
        elif cs == cd:
            self.vals[res] = self.operand(src, op)
        else:
            self.emit(f"mov.b{_WIDTH[cs]} {self.new(res, op)}, {self.operand(src, op)};")

    def ptrtoint(self, op: Operation) -> None:
        src, res, s, d = self.cast_tags(op)
        if d not in ("i32", "i64") or s not in ("ptr1", "ptr3"):
            raise EmitError(op, f"cannot ptrtoint {src.type} to {res.type}")
        if s == "ptr3":
            self.emit(f"mov.u{INT_BITS[d]} {self.new(res, op)}, global_smem;")
        elif d == "i64":
            self.vals[res] = self.operand(src, op)
        else:
            self.emit(f"cvt.u32.u64 {self.new(res, op)}, {self.operand(src, op)};")

    def inttoptr(self, op: Operation) -> None:
        src, res, s, d = self.cast_tags(op)
        if d != "ptr1" or s not in ("i32", "i64"):
            raise EmitError(op, f"cannot inttoptr {src.type} to {res.type}")
        if s == "i64":
            self.vals[res] = self.operand(src, op)
        else:
            self.emit(f"cvt.u64.u32 {self.new(res, op)}, {self.operand(src, op)};")

    # -- memory addressing and aggregates --------------------------------------------------------
    def gep(self, op: llvm.GEPOp) -> None:
        pointee, index, itag = self.gep_operands(op)
        size = BYTE_SIZE[pointee]
        base = self.operand(op.ptr, op)
        if index in self.consts:
            offset = signed_value(self.consts[index][1], INT_BITS[itag]) * size
            if offset == 0:
                self.vals[op.result] = base
            else:
                self.emit(f"add.s64 {self.new(op.result, op)}, {base}, {offset};")
            return
        owner = index.owner
        if isinstance(owner, llvm.ZExtOp | llvm.SExtOp) and type_tag(owner.arg.type, op) == "i32":
            # an i32 index widened (zero- or sign-extended): one widening multiply
            i = self.operand(owner.arg, op)
            off = self.reg("rd")
            sign = "u" if isinstance(owner, llvm.ZExtOp) else "s"
            self.emit(f"cvt.{sign}64.{sign}32 {off}, {i};" if size == 1 else f"mul.wide.{sign}32 {off}, {i}, {size};")
            self.emit(f"add.s64 {self.new(op.result, op)}, {base}, {off};")
            return
        i = self.operand(index, op)
        off = self.reg("rd")
        if itag == "i32":
            if size == 1:
                self.emit(f"cvt.s64.s32 {off}, {i};")
            else:
                self.emit(f"mul.wide.s32 {off}, {i}, {size};")
        elif size == 1:
            off = i
        else:
            self.emit(f"shl.b64 {off}, {i}, {size.bit_length() - 1};")
        self.emit(f"add.s64 {self.new(op.result, op)}, {base}, {off};")

    def extractvalue(self, op: llvm.ExtractValueOp) -> None:
        _, pos = self.extract_position(op)
        fields = self.vals.get(op.container)
        if not isinstance(fields, tuple):
            raise EmitError(op, "extracts from a value that is not an inline-asm struct")
        self.vals[op.res] = fields[pos]

    # -- calls ---------------------------------------------------------------------------------
    def intrinsic(self, op: llvm.CallIntrinsicOp) -> None:
        entry = intrinsic_of(op)
        args = [self.operand(a, op) for a in op.args]
        d = self.new(op.ress, op) if op.ress is not None else ""
        self.emit(entry.ptx.format(*args, d=d))

    def inline_asm(self, op: llvm.InlineAsmOp) -> None:
        cons, tags = self.asm_signature(op)
        inputs = list(op.operands)
        outputs = [self.reg(self.asm_class(letter, tag, op)) for letter, tag in zip(cons.outputs, tags)]
        operands = list(outputs)
        for letter, v in zip(cons.inputs, inputs):
            if letter == "n":
                if v not in self.consts:
                    raise EmitError(op, "an 'n' operand must be a constant")
                operands.append(self.operand(v, op))
            elif letter.isdigit():
                out = outputs[int(letter)]
                self.emit(f"{_MOV[_class_of(out)]} {out}, {self.operand(v, op)};")
                operands.append(out)
            else:
                cls = self.asm_class(letter, self.tag(v, op), op)
                text = self.in_reg(v, op)
                if cls != CLASS[self.tag(v, op)]:  # e.g. an f32 in an "r": same bits, other class
                    r = self.reg(cls)
                    self.emit(f"mov.b{_WIDTH[cls]} {r}, {text};")
                    text = r
                operands.append(text)
        text = substitute_operands(op.properties["asm_string"].data, lambda k: self.asm_operand(operands, k, op), op)  # type: ignore[attr-defined]
        for line in text.split("\n"):
            if line.strip():
                self.emit(line.strip())
        results = []
        for reg, tag in zip(outputs, tags):
            if CLASS[tag] != _class_of(reg):
                r = self.reg(CLASS[tag])
                self.emit(f"mov.b{_WIDTH[CLASS[tag]]} {r}, {reg};")
                reg = r
            results.append(reg)
        if op.results:
            res = op.results[0]
            self.vals[res] = tuple(results) if isinstance(res.type, llvm.LLVMStructType) else results[0]

    def asm_class(self, letter: str, tag: str, op: Operation) -> str:
        cls = _CONSTRAINT_CLASS[letter]
        if _WIDTH[cls] != _WIDTH[CLASS[tag]]:
            raise EmitError(op, f"constraint '{letter}' does not hold a {tag}")
        return cls

    @staticmethod
    def asm_operand(operands: list[str], k: int, op: Operation) -> str:
        if k >= len(operands):
            raise EmitError(op, f"${k} names no operand ({len(operands)} operands)")
        return operands[k]

    # -- structured control flow ----------------------------------------------------------------
    def branch(self, cond_uniform: bool) -> str:
        return "bra.uni" if cond_uniform else "bra"

    def for_loop(self, op: scf.ForOp) -> None:
        tag = self.check_loop_bounds(op)
        bits = tag[1:]
        block = op.body.block
        loop, end = self.label("loop"), self.label("end")
        lb, ub, step = (self.operand(v, op) for v in (op.lb, op.ub, op.step))
        uniform = all(self.uniform(v) for v in (op.lb, op.ub, op.step))
        iv = self.new(block.args[0], op)
        slots = []
        moves = [(iv, lb, CLASS[tag])]
        for arg, init, res in zip(block.args[1:], op.iter_args, op.res, strict=True):
            carried = self.carried_tag(arg, op)
            r = self.new(arg, op)
            self.vals[res] = r
            slots.append((r, CLASS[carried]))
            moves.append((r, self.operand(init, op), CLASS[carried]))
        self.copies(moves)
        guarded = not (op.lb in self.consts and op.ub in self.consts and int(lb) < int(ub))
        if guarded:
            skip = self.reg("p")
            self.emit(f"setp.ge.s{bits} {skip}, {lb}, {ub};")
            self.emit(f"@{skip} {self.branch(uniform)} {end};")
        self.lines.append(f"{loop}:")
        yielded = self.yielded(block, len(slots), "iter args", op)
        self.copies([(r, self.operand(v, op), cls) for (r, cls), v in zip(slots, yielded)])
        again = self.reg("p")
        self.emit(f"add.s{bits} {iv}, {iv}, {step};")
        self.emit(f"setp.lt.s{bits} {again}, {iv}, {ub};")
        self.emit(f"@{again} {self.branch(uniform)} {loop};")
        if guarded:
            self.lines.append(f"{end}:")

    def while_loop(self, op: scf.WhileOp) -> None:
        """The first region's arguments in registers (set from the inits, then from each
        pass's yield); the forwarded values in the result registers, which the second
        region reads as its arguments; the exit test between the regions."""
        before, after = op.before_region.block, op.after_region.block
        loop, end = self.label("while"), self.label("endwhile")
        slots = []
        moves = []
        for arg, init in zip(before.args, op.arguments, strict=True):
            tag = self.carried_tag(arg, op)
            r = self.new(arg, op)
            slots.append((r, CLASS[tag]))
            moves.append((r, self.operand(init, op), CLASS[tag]))
        outs = []
        for res, arg in zip(op.res, after.args, strict=True):
            tag = self.carried_tag(res, op)
            r = self.new(res, op)
            self.vals[arg] = r
            outs.append((r, CLASS[tag]))
        self.copies(moves)
        self.lines.append(f"{loop}:")
        cond, forwarded = self.while_condition(op, len(outs))
        self.copies([(r, self.operand(v, op), cls) for (r, cls), v in zip(outs, forwarded)])
        self.emit(f"@!{self.operand(cond, op)} {self.branch(self.uniform(cond))} {end};")
        yielded = self.yielded(after, len(slots), "arguments", op)
        self.copies([(r, self.operand(v, op), cls) for (r, cls), v in zip(slots, yielded)])
        self.emit(f"bra.uni {loop};")
        self.lines.append(f"{end}:")

    def if_else(self, op: scf.IfOp) -> None:
        regions = self.if_regions(op)
        has_else = len(regions) == 2
        cond = self.operand(op.cond, op)
        bra = self.branch(self.uniform(op.cond))
        slots = [(self.new(r, op), CLASS[self.tag(r, op)]) for r in op.output]
        end = self.label("endif")
        other = self.label("else") if has_else else end
        self.emit(f"@!{cond} {bra} {other};")
        for k, region in enumerate(regions):
            if k == 1:
                self.lines.append(f"{other}:")
            yielded = self.yielded(region.block, len(slots), "results", op)
            self.copies([(r, self.operand(v, op), cls) for (r, cls), v in zip(slots, yielded)])
            if k == 0 and has_else:
                self.emit(f"bra.uni {end};")
        self.lines.append(f"{end}:")


def emit_ptx(module: ModuleOp, target: str = "sm_90") -> str:
    """PTX text of a lowered module for ``target`` (``sm_80`` or newer)."""
    arch = _target_arch(target)
    infos = kernels(module)
    shared = declared_shared_bytes(module)
    lines = [
        "//",
        "// Generated by ltc (lowered IR -> PTX)",
        "//",
        "",
        f".version {PTX_VERSION}",
        f".target {target}",
        ".address_size 64",
        "",
    ]
    if shared is not None:
        if shared:
            lines.append(f".shared .align 16 .b8 global_smem[{shared}];")
        else:
            lines.append(".extern .shared .align 16 .b8 global_smem[];")
        lines.append("")
    for k in infos:
        lines += _FunctionPrinter(k, arch, shared is not None).print()
        lines.append("")
    return "\n".join(lines)
