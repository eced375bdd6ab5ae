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
    may_contract,
    BYTE_SIZE,
    FLOAT_CASTS,
    FLOAT_TO_INT,
    INT_BITS,
    INT_TO_FLOAT,
    SCALAR_TYPES,
    BinaryOp,
    EmitError,
    KernelBodyPrinter,
    KernelInfo,
    ScalarType,
    constant_of,
    declared_shared_bytes,
    fcmp_predicate,
    float_bits,
    icmp_predicate,
    intrinsic_of,
    kernels,
    signed_value,
    type_tag,
)

__all__ = ["DATALAYOUT", "TRIPLE", "emit_llvm_ir"]

TRIPLE = "nvptx64-nvidia-cuda"
DATALAYOUT = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
"""LLVM's NVPTX 64-bit data layout."""

_FLOAT_TYPE = {16: "half", 32: "float", 64: "double"}


def _llvm_type(t: ScalarType) -> str:
    if t.address_space is not None:
        return f"i8 addrspace({t.address_space})*"  # LLVM 14: typed pointers
    if t.tag == "bf16":
        return "i16"  # LLVM 14's NVPTX backend cannot select bfloat: its bit pattern
    return _FLOAT_TYPE[t.bits] if t.kind == "float" else t.tag


LLVM_TYPE = {tag: _llvm_type(t) for tag, t in SCALAR_TYPES.items()}
"""The LLVM 14 type that carries each tag (bf16 as its bit pattern)."""

_GEP_ELEMENT = {tag: f"i{8 * size}" for tag, size in BYTE_SIZE.items()}
"""An integer type of the pointee's size: what getelementptr steps over."""


def _register_constraint(tag: str) -> str:
    letter = SCALAR_TYPES[tag].constraint
    assert letter is not None, tag  # intrinsics take and return values in registers only
    return letter


def _struct_type(tags: tuple[str, ...]) -> str:
    return "{ " + ", ".join(LLVM_TYPE[t] for t in tags) + " }"


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
        self.has_shared = smem_type is not None
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
        params = []
        for i, (arg, tag) in enumerate(self.kernel_params()):
            self.names[arg] = f"%arg{i}"
            params.append(f"{LLVM_TYPE[tag]} %arg{i}")
        self.start_block("entry")
        self.block_ops(self.kernel.func.body.block, top=True)
        head = f"define void @{self.kernel.name}({', '.join(params)}) {{"
        return [head, *self.lines, "}"]

    def signature(self) -> str:
        args = ", ".join(LLVM_TYPE[tag] for _, tag in self.kernel_params())
        return f"void ({args})* @{self.kernel.name}"

    # -- ops (routed by KernelBodyPrinter.op) ---------------------------------------------------
    def set_constant(self, v: SSAValue, tag: str, bits: int) -> None:
        self.names[v] = _literal(tag, bits)

    def address_of(self, op: llvm.AddressOfOp) -> None:
        self.names[op.result] = f"bitcast ({self.smem_type} addrspace(3)* @global_smem to i8 addrspace(3)*)"

    def icmp(self, op: llvm.ICmpOp) -> None:
        pred = icmp_predicate(op)
        self.define(op.res, f"icmp {pred.name} {self.typed(op.lhs, op)}, {self.value(op.rhs, op)}")

    def select(self, op: llvm.SelectOp) -> None:
        type_tag(op.res.type, op)
        c, a, b = (self.typed(v, op) for v in (op.cond, op.lhs, op.rhs))
        self.define(op.res, f"select {c}, {a}, {b}")

    def int_binary(self, op: Operation, entry: BinaryOp, tag: str) -> None:
        lhs, rhs = op.operands
        opcode = entry.i1_logic if tag == "i1" else entry.llvm
        self.define(op.results[0], f"{opcode} {self.typed(lhs, op)}, {self.value(rhs, op)}")

    def float_binary(self, op: Operation, entry: BinaryOp) -> None:
        opcode = entry.llvm
        tag = self.float_tag(op)
        lhs, rhs = op.operands
        if tag == "bf16":
            a, b = self.bf16_to_f32(lhs, op), self.bf16_to_f32(rhs, op)
            self.names[op.results[0]] = self.f32_to_bf16(self.temp(f"{opcode} float {a}, {b}"))
            return
        flags = " contract" if may_contract(op) else ""
        self.define(op.results[0], f"{opcode}{flags} {self.typed(lhs, op)}, {self.value(rhs, op)}")

    def frem(self, op: llvm.FRemOp) -> None:
        tag = self.float_tag(op)
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
        tag = self.float_tag(op)
        if tag == "bf16":
            self.define(op.res, f"xor i16 {self.value(op.arg, op)}, -32768")
        else:
            self.define(op.res, f"fneg {self.typed(op.arg, op)}")

    def fcmp(self, op: llvm.FCmpOp) -> None:
        tag = self.float_tag(op)
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
        if kind in INT_TO_FLOAT and s == "i1":
            # LLVM 14's NVPTX backend converts i1 as unsigned either way (true is -1 signed)
            one = float_bits(-1.0 if kind == "sitofp" else 1.0, d)
            self.define(res, f"select i1 {x}, {LLVM_TYPE[d]} {_literal(d, one)}, {LLVM_TYPE[d]} {_literal(d, 0)}")
            return
        if kind in FLOAT_TO_INT and d == "i1":  # the PTX emitter's way: to i32, test
            wide = self.temp(f"{kind} {LLVM_TYPE[s]} {x} to i32") if s != "bf16" else None
            if wide is None:
                wide = self.temp(f"{kind} float {self.bf16_to_f32(src, op)} to i32")
            self.define(res, f"icmp ne i32 {wide}, 0")
            return
        if "bf16" in (s, d) and kind in (*FLOAT_CASTS, *INT_TO_FLOAT, *FLOAT_TO_INT):
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
            if kind in FLOAT_TO_INT:
                return self.temp(f"{kind} float {f} to {LLVM_TYPE[d]}")
            raise EmitError(op, f"{kind} from bf16 to {d}")
        if kind == "fptrunc" and s == "f32":
            return self.f32_to_bf16(x)
        if kind == "fptrunc" and s == "f64":
            return self.f32_to_bf16(self.round_odd_to_f32("double", x, "llvm.nvvm.d2f.rz", "fpext"))
        if kind in INT_TO_FLOAT and s in INT_BITS:
            bits = INT_BITS[s]
            if bits <= 16:  # exact in f32
                return self.f32_to_bf16(self.temp(f"{kind} {LLVM_TYPE[s]} {x} to float"))
            signed = kind == "sitofp"
            fn = {(32, True): "i2f", (32, False): "ui2f", (64, True): "ll2f", (64, False): "ull2f"}[bits, signed]
            back = "fptosi" if signed else "fptoui"
            return self.f32_to_bf16(self.round_odd_to_f32(LLVM_TYPE[s], x, f"llvm.nvvm.{fn}.rz", back))
        raise EmitError(op, f"{kind} from {s} to bf16")

    def gep(self, op: llvm.GEPOp) -> None:
        pointee, index, _ = self.gep_operands(op)
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
        tags, pos = self.extract_position(op)
        self.define(op.res, f"extractvalue {_struct_type(tags)} {self.value(op.container, op)}, {pos}")

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
            letters = ["=" + _register_constraint(entry.result)] if entry.result else []
            constraints = ",".join(letters + [_register_constraint(t) for t in entry.args])
            call = f'call {result} asm "{_escape(text)}", "{constraints}"({", ".join(args)})'
        self.call(op.ress, call)

    def inline_asm(self, op: llvm.InlineAsmOp) -> None:
        _, tags = self.asm_signature(op)
        if op.res is None:
            result = "void"
        elif isinstance(op.res.type, llvm.LLVMStructType):
            result = _struct_type(tags)
        else:
            result = LLVM_TYPE[tags[0]]
        side = " sideeffect" if op.has_side_effects is not None else ""
        args = ", ".join(self.typed(v, op) for v in op.operands_)
        asm = f'"{_escape(op.asm_string.data)}", "{_escape(op.constraints.data)}"'
        self.call(op.res, f"call {result} asm{side} {asm}({args})")

    def call(self, result: SSAValue | None, text: str) -> None:
        """A call: the value of ``result``, or a statement when it returns nothing."""
        if result is None:
            self.emit(text)
        else:
            self.define(result, text)

    # -- structured control flow -------------------------------------------------------------
    def phi_lines(self, results: list[SSAValue], op: Operation) -> list[tuple[str, str]]:
        """A name and LLVM type for each phi of ``results``."""
        return [(self.fresh(), LLVM_TYPE[self.carried_tag(r, op)]) for r in results]

    def for_loop(self, op: scf.ForOp) -> None:
        iv_ty = LLVM_TYPE[self.check_loop_bounds(op)]
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
        self.emit(f"{iv} = phi {iv_ty} [ {lb}, %{pred} ], [ {iv_next}, %{latch} ]")
        slots = []
        for init, (name, ty) in zip(inits, phis, strict=True):
            slots.append(len(self.lines))
            self.emit(f"{name} = phi {ty} [ {init}, %{pred} ], [ ?, %{latch} ]")
        go = self.temp(f"icmp slt {iv_ty} {iv}, {ub}")
        self.emit(f"br i1 {go}, label %{body}, label %{exit_}")
        self.start_block(body)
        values = [self.value(v, op) for v in self.yielded(block, len(phis), "iter args", op)]
        self.emit(f"br label %{latch}")
        self.start_block(latch)
        self.emit(f"{iv_next} = add {iv_ty} {iv}, {step}")
        self.emit(f"br label %{header}")
        for slot, value in zip(slots, values, strict=True):
            self.lines[slot] = self.lines[slot].replace("[ ?, ", f"[ {value}, ", 1)
        self.start_block(exit_)
        for r, (name, _) in zip(op.res, phis, strict=True):
            self.names[r] = name

    def while_loop(self, op: scf.WhileOp) -> None:
        """``header``: phis of the first region's arguments, its ops, the exit test;
        ``body``: the second region (its arguments the forwarded values), back to the
        header; the results are the forwarded values (defined in the header)."""
        n = self.label_number()
        header, body, exit_ = f"while{n}.header", f"while{n}.body", f"while{n}.exit"
        pred = self.block
        inits = [self.value(v, op) for v in op.arguments]
        self.emit(f"br label %{header}")
        self.start_block(header)
        before, after = op.before_region.block, op.after_region.block
        phis = self.phi_lines(list(before.args), op)
        slots = []
        for arg, init, (name, ty) in zip(before.args, inits, phis, strict=True):
            self.names[arg] = name
            slots.append(len(self.lines))
            self.emit(f"{name} = phi {ty} [ {init}, %{pred} ], [ ?, %? ]")
        cond, forwarded = self.while_condition(op, len(op.res))
        values = [self.value(v, op) for v in forwarded]
        self.emit(f"br i1 {self.value(cond, op)}, label %{body}, label %{exit_}")
        self.start_block(body)
        for arg, v in zip(after.args, forwarded, strict=True):
            self.carried_tag(arg, op)
            self.names[arg] = self.value(v, op)
        yielded = [self.value(v, op) for v in self.yielded(after, len(before.args), "arguments", op)]
        latch = self.block
        self.emit(f"br label %{header}")
        for slot, value in zip(slots, yielded, strict=True):
            self.lines[slot] = self.lines[slot].replace("[ ?, %? ]", f"[ {value}, %{latch} ]", 1)
        self.start_block(exit_)
        for r, value in zip(op.res, values, strict=True):
            self.names[r] = value

    def if_else(self, op: scf.IfOp) -> None:
        regions = self.if_regions(op)
        n = self.label_number()
        then, else_, end = f"if{n}.then", f"if{n}.else", f"if{n}.end"
        self.emit(f"br i1 {self.value(op.cond, op)}, label %{then}, label %{else_ if len(regions) == 2 else end}")
        incoming: list[tuple[list[str], str]] = []
        for label, region in zip((then, else_), regions):
            self.start_block(label)
            yielded = self.yielded(region.block, len(op.output), "results", op)
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
    shared = declared_shared_bytes(module)
    smem_type: str | None = None
    lines = [
        "; Generated by ltc (lowered IR -> LLVM IR)",
        f'target datalayout = "{DATALAYOUT}"',
        f'target triple = "{TRIPLE}"',
        "",
    ]
    if shared is not None:
        if shared:
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
