"""Lowered IR → LLVM IR text for LLVM 14's NVPTX backend (``llc -march=nvptx64``).

``emit_llvm_ir(module)`` prints a module of the lowered-IR contract as textual LLVM IR:

* LLVM 14 reads typed pointers only (``ptr`` needs ``-opaque-pointers``), so every
  ``!llvm.ptr<1>`` is ``i8 addrspace(1)*``; a getelementptr bitcasts to the pointee's
  pointer type, indexes, and bitcasts back.
* LLVM 14's NVPTX backend cannot select ``bfloat`` (a bfloat kernel parameter crashes
  llc), so bf16 values are ``i16`` bit patterns: arithmetic and compares widen to float
  (exact: bf16 is the top half of an f32) and round back with ``llvm.nvvm.f2bf16.rn``;
  as f32 carries more than twice bf16's precision, one f32 operation then one rounding
  is the correctly rounded bf16 result. Conversions into bf16 from i32/i64/f64 round to
  odd on the way to f32 (``.rz`` then the sticky bit), so the final rounding is exact.
* Structured control flow becomes basic blocks: ``scf.for`` a header (phis for the
  induction variable and the iter args, the exit test), the body, and a latch; ``scf.if``
  then/else blocks and a merge block with phis.
* Shared memory: ``@global_smem`` is a static ``[N x i8]`` for N = ``ttg.shared`` up to
  48 KiB and an external (dynamic) ``[0 x i8]`` above, as in the PTX emitter.
* ``frem`` is expanded the same way as in the PTX emitter (``a - trunc(a/b)*b`` by one
  fma, with ``a``'s sign; ``a`` when ``|a| < |b|``) so the two emitters agree.
"""

from __future__ import annotations

import struct

from xdsl.dialects import llvm, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue

from ltc.lowering.emit.common import (
    KernelBodyPrinter,
    BYTE_SIZE,
    I1_LOGIC,
    INT_BITS,
    STATIC_SHARED_LIMIT,
    EmitError,
    KernelInfo,
    constant_of,
    fcmp_predicate,
    float_bits,
    icmp_predicate,
    intrinsic_of,
    kernels,
    module_shared_bytes,
    parse_constraints,
    signed_value,
    struct_tags,
    type_tag,
)

__all__ = ["DATALAYOUT", "TRIPLE", "emit_llvm_ir"]

TRIPLE = "nvptx64-nvidia-cuda"
DATALAYOUT = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
"""LLVM's NVPTX 64-bit data layout."""

LLVM_TYPE = {
    "i1": "i1", "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64",
    "f16": "half", "bf16": "i16", "f32": "float", "f64": "double",
    "ptr1": "i8 addrspace(1)*", "ptr3": "i8 addrspace(3)*",
}  # fmt: skip
"""The LLVM 14 type that carries each tag (bf16 as its bit pattern)."""

_GEP_ELEMENT = {
    "i1": "i8", "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64", "f16": "i16",
    "bf16": "i16", "f32": "i32", "f64": "i64", "ptr1": "i64",
}  # fmt: skip
"""An integer type of the pointee's size: what getelementptr steps over."""

_INT_BINARY = {
    "llvm.add": "add", "llvm.sub": "sub", "llvm.mul": "mul", "llvm.sdiv": "sdiv",
    "llvm.udiv": "udiv", "llvm.srem": "srem", "llvm.urem": "urem", "llvm.and": "and",
    "llvm.or": "or", "llvm.xor": "xor", "llvm.shl": "shl", "llvm.lshr": "lshr",
    "llvm.ashr": "ashr",
}  # fmt: skip
_FLOAT_BINARY = {"llvm.fadd": "fadd", "llvm.fsub": "fsub", "llvm.fmul": "fmul", "llvm.fdiv": "fdiv"}
_CASTS = frozenset(
    ("zext", "sext", "trunc", "fpext", "fptrunc", "sitofp", "uitofp", "fptosi", "fptoui", "bitcast")
    + ("ptrtoint", "inttoptr")
)
_CONSTRAINT_OF = {"i1": "b", "i16": "h", "f16": "h", "bf16": "h", "i32": "r", "f32": "f", "i64": "l", "f64": "d"}


def _escape(text: str) -> str:
    """An LLVM string literal body: printable ASCII except ``"`` and ``\\`` as is, the
    rest as ``\\XX`` (hex of each UTF-8 byte)."""
    out = []
    for byte in text.encode():
        ch = chr(byte)
        out.append(ch if 0x20 <= byte < 0x7F and ch not in '"\\' else f"\\{byte:02X}")
    return "".join(out)


def _float_literal(tag: str, bits: int) -> str:
    """An LLVM constant for float bits: ``0xH`` for half, the f64 hex of the (exactly
    representable) value for float, plain f64 hex for double."""
    if tag == "f16":
        return f"0xH{bits:04X}"
    if tag == "f32":
        value = struct.unpack("<f", struct.pack("<I", bits))[0]
        # A NaN keeps its payload: widen by hand rather than through Python's float.
        if bits & 0x7F800000 == 0x7F800000 and bits & 0x7FFFFF:
            sign = (bits >> 31) << 63
            return f"0x{sign | 0x7FF << 52 | (bits & 0x7FFFFF) << 29:016X}"
        return f"0x{struct.unpack('<Q', struct.pack('<d', value))[0]:016X}"
    if tag == "f64":
        return f"0x{bits:016X}"
    raise ValueError(tag)


def _literal(tag: str, bits: int) -> str:
    if tag == "i1":
        return "true" if bits & 1 else "false"
    if tag in INT_BITS:
        return str(signed_value(bits, INT_BITS[tag]))
    if tag == "bf16":
        return str(signed_value(bits, 16))
    return _float_literal(tag, bits)


class _Declarations:
    """The intrinsic functions a module calls: name → ``declare`` line."""

    def __init__(self) -> None:
        self.lines: dict[str, str] = {}

    def use(self, name: str, result: str, args: tuple[str, ...]) -> str:
        self.lines.setdefault(name, f"declare {result} @{name}({', '.join(args)})")
        return f"@{name}"


class _FunctionPrinter(KernelBodyPrinter):
    """Prints one kernel: values get names ``%vN``, blocks labels ``<kind>N``."""

    RETURN = "ret void"

    def __init__(self, kernel: KernelInfo, smem_type: str | None, decls: _Declarations) -> None:
        self.kernel = kernel
        self.smem_type = smem_type
        self.decls = decls
        self.lines: list[str] = []
        self.names: dict[SSAValue, str] = {}
        self.next_value = 0
        self.next_label = 0
        self.block = "entry"

    # -- plumbing ----------------------------------------------------------------------
    def fresh(self) -> str:
        self.next_value += 1
        return f"%v{self.next_value}"

    def label_number(self) -> int:
        """A fresh number for the blocks of one scf op (``for3.header``, ``if4.then``...)."""
        self.next_label += 1
        return self.next_label

    def emit(self, text: str) -> None:
        self.lines.append(f"  {text}")

    def start_block(self, label: str) -> None:
        self.lines.append(f"{label}:")
        self.block = label

    def temp(self, text: str) -> str:
        """``%vN = text``; returns ``%vN``."""
        name = self.fresh()
        self.emit(f"{name} = {text}")
        return name

    def define(self, result: SSAValue, text: str) -> str:
        """``%vN = text``, the value of ``result``."""
        self.names[result] = self.temp(text)
        return self.names[result]

    def value(self, v: SSAValue, op: Operation) -> str:
        name = self.names.get(v)
        if name is None:
            raise EmitError(op, "uses a value the emitter has not seen (not in the contract)")
        return name

    def typed(self, v: SSAValue, op: Operation) -> str:
        return f"{LLVM_TYPE[type_tag(v.type, op)]} {self.value(v, op)}"

    # -- the function ----------------------------------------------------------------------
    def print(self) -> list[str]:
        func = self.kernel.func
        block = func.body.block
        params = []
        for i, arg in enumerate(block.args):
            tag = type_tag(arg.type, func)
            if tag == "ptr3":
                raise EmitError(func, "a kernel argument cannot point to shared memory")
            self.names[arg] = f"%arg{i}"
            params.append(f"{LLVM_TYPE[tag]} %arg{i}")
        self.start_block("entry")
        self.block_ops(block, top=True)
        head = f"define void @{self.kernel.name}({', '.join(params)}) {{"
        return [head, *self.lines, "}"]

    def signature(self) -> str:
        func = self.kernel.func
        args = ", ".join(LLVM_TYPE[type_tag(a.type, func)] for a in func.body.block.args)
        return f"void ({args})* @{self.kernel.name}"

    # -- ops -------------------------------------------------------------------------------
    def op(self, op: Operation) -> None:
        name = op.name
        if isinstance(op, llvm.ConstantOp):
            self.names[op.result] = _literal(*constant_of(op))
        elif isinstance(op, llvm.AddressOfOp):
            if op.global_name.root_reference.data != "global_smem" or self.smem_type is None:
                raise EmitError(op, "only @global_smem (declared in the module) may be addressed")
            self.names[op.result] = f"bitcast ({self.smem_type} addrspace(3)* @global_smem to i8 addrspace(3)*)"
        elif name in _INT_BINARY:
            self.int_binary(op, _INT_BINARY[name])
        elif name in _FLOAT_BINARY:
            self.float_binary(op, _FLOAT_BINARY[name])
        elif isinstance(op, llvm.FRemOp):
            self.frem(op)
        elif isinstance(op, llvm.FNegOp):
            self.fneg(op)
        elif isinstance(op, llvm.ICmpOp):
            pred = icmp_predicate(op)
            self.define(op.res, f"icmp {pred.name} {self.typed(op.lhs, op)}, {self.value(op.rhs, op)}")
        elif isinstance(op, llvm.FCmpOp):
            self.fcmp(op)
        elif isinstance(op, llvm.SelectOp):
            type_tag(op.res.type, op)
            c, a, b = (self.typed(v, op) for v in (op.cond, op.lhs, op.rhs))
            self.define(op.res, f"select {c}, {a}, {b}")
        elif name.startswith("llvm.") and name[5:] in _CASTS:
            self.cast(op, name[5:])
        else:
            self.structured_op(op)

    def int_binary(self, op: Operation, opcode: str) -> None:
        lhs, rhs = op.operands
        tag = type_tag(lhs.type, op)
        if tag not in INT_BITS or type_tag(rhs.type, op) != tag:
            raise EmitError(op, f"needs two integer operands of one type, got {lhs.type}, {rhs.type}")
        if tag == "i1":
            if op.name not in I1_LOGIC:
                raise EmitError(op, "on i1 has no predicate form")
            opcode = I1_LOGIC[op.name]
        self.define(op.results[0], f"{opcode} {self.typed(lhs, op)}, {self.value(rhs, op)}")

    def float_operands(self, op: Operation) -> str:
        tags = {type_tag(v.type, op) for v in op.operands}
        if len(tags) != 1 or not tags <= {"f16", "bf16", "f32", "f64"}:
            raise EmitError(op, "needs float operands of one type")
        return tags.pop()

    def float_binary(self, op: Operation, opcode: str) -> None:
        tag = self.float_operands(op)
        lhs, rhs = op.operands
        if tag == "bf16":
            a, b = self.bf16_to_f32(lhs, op), self.bf16_to_f32(rhs, op)
            self.names[op.results[0]] = self.f32_to_bf16(self.temp(f"{opcode} float {a}, {b}"))
            return
        self.define(op.results[0], f"{opcode} {self.typed(lhs, op)}, {self.value(rhs, op)}")

    def frem(self, op: llvm.FRemOp) -> None:
        tag = self.float_operands(op)
        if tag in ("f32", "f64"):
            a, b = self.value(op.lhs, op), self.value(op.rhs, op)
            self.names[op.res] = self.frem_expansion(LLVM_TYPE[tag], a, b)
            return
        if tag == "f16":
            a = self.temp(f"fpext half {self.value(op.lhs, op)} to float")
            b = self.temp(f"fpext half {self.value(op.rhs, op)} to float")
            r = self.frem_expansion("float", a, b)
            self.define(op.res, f"fptrunc float {r} to half")
            return
        a, b = self.bf16_to_f32(op.lhs, op), self.bf16_to_f32(op.rhs, op)
        self.names[op.res] = self.f32_to_bf16(self.frem_expansion("float", a, b))

    def frem_expansion(self, ty: str, a: str, b: str) -> str:
        """``a - trunc(a / b) * b`` with one fma and the sign of ``a``; ``a`` when
        ``|a| < |b|`` (the PTX emitter's sequence)."""
        suffix = "f32" if ty == "float" else "f64"
        trunc = self.decls.use(f"llvm.trunc.{suffix}", ty, (ty,))
        fma = self.decls.use(f"llvm.fma.{suffix}", ty, (ty, ty, ty))
        fabs = self.decls.use(f"llvm.fabs.{suffix}", ty, (ty,))
        q = self.temp(f"fdiv {ty} {a}, {b}")
        t = self.temp(f"call {ty} {trunc}({ty} {q})")
        n = self.temp(f"fneg {ty} {t}")
        copysign = self.decls.use(f"llvm.copysign.{suffix}", ty, (ty, ty))
        m = self.temp(f"call {ty} {fma}({ty} {n}, {ty} {b}, {ty} {a})")
        r = self.temp(f"call {ty} {copysign}({ty} {m}, {ty} {a})")  # a zero keeps a's sign
        abs_a = self.temp(f"call {ty} {fabs}({ty} {a})")
        abs_b = self.temp(f"call {ty} {fabs}({ty} {b})")
        small = self.temp(f"fcmp olt {ty} {abs_a}, {abs_b}")  # |a| < |b| (b = inf too): a
        return self.temp(f"select i1 {small}, {ty} {a}, {ty} {r}")

    def fneg(self, op: llvm.FNegOp) -> None:
        tag = self.float_operands(op)
        if tag == "bf16":
            self.define(op.res, f"xor i16 {self.value(op.arg, op)}, -32768")
        else:
            self.define(op.res, f"fneg {self.typed(op.arg, op)}")

    def fcmp(self, op: llvm.FCmpOp) -> None:
        tag = self.float_operands(op)
        pred = fcmp_predicate(op)
        if tag == "bf16":
            a, b = self.bf16_to_f32(op.lhs, op), self.bf16_to_f32(op.rhs, op)
            self.define(op.res, f"fcmp {pred} float {a}, {b}")
        else:
            self.define(op.res, f"fcmp {pred} {self.typed(op.lhs, op)}, {self.value(op.rhs, op)}")

    # -- bf16 as i16 ------------------------------------------------------------------------
    def bf16_to_f32(self, v: SSAValue, op: Operation) -> str:
        """The f32 of a bf16 value: its bits in the top half of a word."""
        if isinstance(v.owner, llvm.ConstantOp):
            _, bits = constant_of(v.owner)
            return _float_literal("f32", bits << 16)
        wide = self.temp(f"zext i16 {self.value(v, op)} to i32")
        high = self.temp(f"shl i32 {wide}, 16")
        return self.temp(f"bitcast i32 {high} to float")

    def f32_to_bf16(self, f: str) -> str:
        fn = self.decls.use("llvm.nvvm.f2bf16.rn", "i16", ("float",))
        return self.temp(f"call i16 {fn}(float {f})")

    def round_odd_to_f32(self, src_ty: str, x: str, rz_fn: str, back: str) -> str:
        """``x`` (an integer or double) rounded to f32 toward zero, with the last bit set
        when that was inexact (round to odd): rounding it to bf16 is then exact."""
        fn = self.decls.use(rz_fn, "float", (src_ty,))
        f = self.temp(f"call float {fn}({src_ty} {x})")
        again = self.temp(f"{back} float {f} to {src_ty}")
        cmp = "fcmp une" if src_ty == "double" else "icmp ne"
        inexact = self.temp(f"{cmp} {src_ty} {again}, {x}")
        sticky = self.temp(f"zext i1 {inexact} to i32")
        bits = self.temp(f"bitcast float {f} to i32")
        odd = self.temp(f"or i32 {bits}, {sticky}")
        return self.temp(f"bitcast i32 {odd} to float")

    # -- casts ------------------------------------------------------------------------------
    def cast(self, op: Operation, kind: str) -> None:
        (src,) = op.operands
        (res,) = op.results
        s, d = type_tag(src.type, op), type_tag(res.type, op)
        x = self.value(src, op)
        if kind in ("sitofp", "uitofp") and s == "i1":
            # LLVM 14's NVPTX backend converts i1 as unsigned either way (true is -1 signed)
            one = float_bits(-1.0 if kind == "sitofp" else 1.0, d)
            self.define(res, f"select i1 {x}, {LLVM_TYPE[d]} {_literal(d, one)}, {LLVM_TYPE[d]} {_literal(d, 0)}")
            return
        if kind in ("fptosi", "fptoui") and d == "i1":  # the PTX emitter's way: to i32, test
            wide = self.temp(f"{kind} {LLVM_TYPE[s]} {x} to i32") if s != "bf16" else None
            if wide is None:
                wide = self.temp(f"{kind} float {self.bf16_to_f32(src, op)} to i32")
            self.define(res, f"icmp ne i32 {wide}, 0")
            return
        if "bf16" in (s, d) and kind in ("fpext", "fptrunc", "sitofp", "uitofp", "fptosi", "fptoui"):
            self.names[res] = self.bf16_cast(op, kind, s, d, x)
            return
        if kind == "bitcast" and LLVM_TYPE[s] == LLVM_TYPE[d]:
            self.names[res] = x  # bf16 <-> i16: the same bits, the same LLVM type
            return
        if kind == "ptrtoint" and s not in ("ptr1", "ptr3") or kind == "inttoptr" and d != "ptr1":
            raise EmitError(op, f"{kind} from {src.type} to {res.type}")
        self.define(res, f"{kind} {LLVM_TYPE[s]} {x} to {LLVM_TYPE[d]}")

    def bf16_cast(self, op: Operation, kind: str, s: str, d: str, x: str) -> str:
        src = op.operands[0]
        if s == "bf16":  # widen exactly to f32 first
            f = self.bf16_to_f32(src, op)
            if kind == "fpext" and d == "f32":
                return f
            if kind == "fpext" and d == "f64":
                return self.temp(f"fpext float {f} to double")
            if kind in ("fptosi", "fptoui"):
                return self.temp(f"{kind} float {f} to {LLVM_TYPE[d]}")
            raise EmitError(op, f"{kind} from bf16 to {d}")
        if kind == "fptrunc" and s == "f32":
            return self.f32_to_bf16(x)
        if kind == "fptrunc" and s == "f64":
            return self.f32_to_bf16(self.round_odd_to_f32("double", x, "llvm.nvvm.d2f.rz", "fpext"))
        if kind in ("sitofp", "uitofp") and s in INT_BITS:
            bits = INT_BITS[s]
            if bits <= 16:  # exact in f32
                return self.f32_to_bf16(self.temp(f"{kind} {LLVM_TYPE[s]} {x} to float"))
            signed = kind == "sitofp"
            fn = {(32, True): "i2f", (32, False): "ui2f", (64, True): "ll2f", (64, False): "ull2f"}[bits, signed]
            back = "fptosi" if signed else "fptoui"
            return self.f32_to_bf16(self.round_odd_to_f32(LLVM_TYPE[s], x, f"llvm.nvvm.{fn}.rz", back))
        raise EmitError(op, f"{kind} from {s} to bf16")

    def gep(self, op: llvm.GEPOp) -> None:
        indices = tuple(op.rawConstantIndices.iter_values())
        if len(indices) != 1 or len(op.ssa_indices) != 1 or indices[0] != llvm.GEP_USE_SSA_VAL:
            raise EmitError(op, "needs exactly one SSA index")
        if type_tag(op.ptr.type, op) != "ptr1" or type_tag(op.result.type, op) != "ptr1":
            raise EmitError(op, "works on !llvm.ptr<1> only")
        pointee = type_tag(op.elem_type, op)
        if pointee not in BYTE_SIZE:
            raise EmitError(op, f"pointee {op.elem_type} is not a scalar")
        (index,) = op.ssa_indices
        if type_tag(index.type, op) not in ("i32", "i64"):
            raise EmitError(op, f"index must be i32 or i64, got {index.type}")
        elem = _GEP_ELEMENT[pointee]
        base = self.value(op.ptr, op)
        if elem != "i8":
            base = self.temp(f"bitcast i8 addrspace(1)* {base} to {elem} addrspace(1)*")
        addr = self.temp(f"getelementptr {elem}, {elem} addrspace(1)* {base}, {self.typed(index, op)}")
        if elem == "i8":
            self.names[op.result] = addr
        else:
            self.define(op.result, f"bitcast {elem} addrspace(1)* {addr} to i8 addrspace(1)*")

    def extractvalue(self, op: llvm.ExtractValueOp) -> None:
        tags = struct_tags(op.container.type, op)
        pos = tuple(op.position.iter_values())
        if len(pos) != 1 or not 0 <= pos[0] < len(tags):
            raise EmitError(op, f"position {list(pos)} is not a field of {op.container.type}")
        struct_ty = "{ " + ", ".join(LLVM_TYPE[t] for t in tags) + " }"
        self.define(op.res, f"extractvalue {struct_ty} {self.value(op.container, op)}, {pos[0]}")

    # -- calls -------------------------------------------------------------------------------
    def intrinsic(self, op: llvm.CallIntrinsicOp) -> None:
        entry = intrinsic_of(op)
        args = [self.typed(a, op) for a in op.args]
        result = LLVM_TYPE[entry.result] if entry.result else "void"
        if entry.llvm is not None:
            fn = self.decls.use(entry.llvm, result, tuple(LLVM_TYPE[t] for t in entry.args))
            call = f"call {result} {fn}({', '.join(args)})"
        else:
            # LLVM 14 lacks it: the same PTX as the PTX emitter, as inline asm.
            text = entry.ptx.format(*(f"${i + 1}" for i in range(len(entry.args))), d="$0")
            letters = ["=" + _CONSTRAINT_OF[entry.result]] if entry.result else []
            constraints = ",".join(letters + [_CONSTRAINT_OF[t] for t in entry.args])
            call = f'call {result} asm "{_escape(text)}", "{constraints}"({", ".join(args)})'
        if entry.result is None:
            self.emit(call)
        else:
            self.define(op.ress, call)  # type: ignore[arg-type]

    def inline_asm(self, op: llvm.InlineAsmOp) -> None:
        if op.asm_dialect is not None and op.asm_dialect.value.data != 0:
            raise EmitError(op, "only AT&T-dialect (PTX) inline asm")
        cons = parse_constraints(op.constraints.data, op)
        if len(cons.inputs) != len(op.operands_):
            raise EmitError(op, f"{len(op.operands_)} operands for {len(cons.inputs)} input constraints")
        if op.res is None:
            result, n_results = "void", 0
        elif isinstance(op.res.type, llvm.LLVMStructType):
            tags = struct_tags(op.res.type, op)
            result, n_results = "{ " + ", ".join(LLVM_TYPE[t] for t in tags) + " }", len(tags)
        else:
            result, n_results = LLVM_TYPE[type_tag(op.res.type, op)], 1
        if n_results != len(cons.outputs):
            raise EmitError(op, f"{n_results} results for {len(cons.outputs)} output constraints")
        side = " sideeffect" if op.has_side_effects is not None else ""
        args = ", ".join(self.typed(v, op) for v in op.operands_)
        call = f'call {result} asm{side} "{_escape(op.asm_string.data)}", "{_escape(op.constraints.data)}"({args})'
        if op.res is None:
            self.emit(call)
        else:
            self.define(op.res, call)

    # -- structured control flow -------------------------------------------------------------
    def phi_lines(self, results: list[SSAValue], op: Operation) -> list[tuple[str, str]]:
        """A name and LLVM type for each phi of ``results``."""
        out = []
        for r in results:
            tag = type_tag(r.type, op)
            if tag == "ptr3":
                raise EmitError(op, "cannot carry a shared pointer")
            out.append((self.fresh(), LLVM_TYPE[tag]))
        return out

    def for_loop(self, op: scf.ForOp) -> None:
        for v in (op.lb, op.ub, op.step):
            if type_tag(v.type, op) != "i32":
                raise EmitError(op, "bounds and step must be i32")
        n = self.label_number()
        header, body, latch, exit_ = f"for{n}.header", f"for{n}.body", f"for{n}.latch", f"for{n}.exit"
        pred = self.block
        lb, ub, step = (self.value(v, op) for v in (op.lb, op.ub, op.step))
        inits = [self.value(v, op) for v in op.iter_args]
        self.emit(f"br label %{header}")
        self.start_block(header)
        block = op.body.block
        iv = self.fresh()
        self.names[block.args[0]] = iv
        phis = self.phi_lines(list(block.args[1:]), op)
        for arg, (name, _) in zip(block.args[1:], phis, strict=True):
            self.names[arg] = name
        iv_next = self.fresh()
        self.emit(f"{iv} = phi i32 [ {lb}, %{pred} ], [ {iv_next}, %{latch} ]")
        slots = []
        for init, (name, ty) in zip(inits, phis, strict=True):
            slots.append(len(self.lines))
            self.emit(f"{name} = phi {ty} [ {init}, %{pred} ], [ ?, %{latch} ]")
        go = self.temp(f"icmp slt i32 {iv}, {ub}")
        self.emit(f"br i1 {go}, label %{body}, label %{exit_}")
        self.start_block(body)
        yielded = self.block_ops(block)
        if len(yielded) != len(phis):
            raise EmitError(op, f"yields {len(yielded)} values for {len(phis)} iter args")
        values = [self.value(v, op) for v in yielded]
        self.emit(f"br label %{latch}")
        self.start_block(latch)
        self.emit(f"{iv_next} = add i32 {iv}, {step}")
        self.emit(f"br label %{header}")
        for slot, value in zip(slots, values, strict=True):
            self.lines[slot] = self.lines[slot].replace("[ ?, ", f"[ {value}, ", 1)
        self.start_block(exit_)
        for r, (name, _) in zip(op.res, phis, strict=True):
            self.names[r] = name

    def if_else(self, op: scf.IfOp) -> None:
        if type_tag(op.cond.type, op) != "i1":
            raise EmitError(op, "condition must be i1")
        n = self.label_number()
        then, else_, end = f"if{n}.then", f"if{n}.else", f"if{n}.end"
        has_else = bool(op.false_region.blocks)
        if op.output and not has_else:
            raise EmitError(op, "an scf.if with results needs an else region")
        self.emit(f"br i1 {self.value(op.cond, op)}, label %{then}, label %{else_ if has_else else end}")
        incoming: list[tuple[list[str], str]] = []
        regions = [op.true_region, op.false_region] if has_else else [op.true_region]
        for label, region in zip((then, else_), regions):
            self.start_block(label)
            yielded = self.block_ops(region.block)
            if len(yielded) != len(op.output):
                raise EmitError(op, f"yields {len(yielded)} values for {len(op.output)} results")
            incoming.append(([self.value(v, op) for v in yielded], self.block))
            self.emit(f"br label %{end}")
        self.start_block(end)
        for k, (name, ty) in enumerate(self.phi_lines(list(op.output), op)):
            sources = ", ".join(f"[ {values[k]}, %{block} ]" for values, block in incoming)
            self.emit(f"{name} = phi {ty} {sources}")
            self.names[op.output[k]] = name


def emit_llvm_ir(module: ModuleOp) -> str:
    """LLVM IR text of a lowered module (LLVM 14 syntax: typed pointers)."""
    infos = kernels(module)
    shared = module_shared_bytes(module)
    smem_type: str | None = None
    lines = [
        "; Generated by ltc (lowered IR -> LLVM IR)",
        f'target datalayout = "{DATALAYOUT}"',
        f'target triple = "{TRIPLE}"',
        "",
    ]
    if shared is not None:
        if 0 < shared <= STATIC_SHARED_LIMIT:
            smem_type = f"[{shared} x i8]"
            lines.append(f"@global_smem = internal addrspace(3) global {smem_type} undef, align 16")
        else:
            smem_type = "[0 x i8]"
            lines.append(f"@global_smem = external addrspace(3) global {smem_type}, align 16")
        lines.append("")
    decls = _Declarations()
    printers = [_FunctionPrinter(k, smem_type, decls) for k in infos]
    for p in printers:
        lines += p.print()
        lines.append("")
    lines += sorted(decls.lines.values())
    if decls.lines:
        lines.append("")
    annotations: list[str] = []
    for p in printers:
        sig = p.signature()
        annotations.append(f'!{{{sig}, !"kernel", i32 1}}')
        if p.kernel.reqntid is not None:
            for axis, size in zip("xyz", p.kernel.reqntid):
                if axis == "x" or size != 1:
                    annotations.append(f'!{{{sig}, !"reqntid{axis}", i32 {size}}}')
    if annotations:
        lines.append("!nvvm.annotations = !{" + ", ".join(f"!{i}" for i in range(len(annotations))) + "}")
        lines += [f"!{i} = {a}" for i, a in enumerate(annotations)]
    return "\n".join(lines) + "\n"
