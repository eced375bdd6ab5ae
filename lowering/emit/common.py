"""What the two text emitters (:mod:`.emit_llvm`, :mod:`.emit_ptx`) share.

Both read a module of the *lowered-IR contract* (see :mod:`ltc.lowering.llvm.to_llvm`) and
print it; this module holds the facts about that IR they both need:

* :class:`EmitError` for IR outside the contract (naming the op);
* scalar *type tags* (``"i1"`` … ``"i64"``, ``"f16"``, ``"bf16"``, ``"f32"``, ``"f64"``,
  ``"ptr1"``, ``"ptr3"``) and their byte sizes;
* constants as ``(tag, bits)``: the value's bit pattern (two's complement for integers,
  IEEE-754 for floats);
* compare-predicate tables (LLVM's names, PTX's ``setp`` compare ops);
* the intrinsic table (:data:`INTRINSICS`): signature, the LLVM 14 function to call, and
  the PTX that implements it;
* inline-asm constraint strings, parsed;
* module facts: kernels, ``nvvm.reqntid``, the shared-memory size and how to declare it.
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass

from xdsl.dialects import llvm, scf
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

__all__ = [
    "BYTE_SIZE",
    "EmitError",
    "KernelBodyPrinter",
    "FCMP",
    "FCMP_PREDICATES",
    "FLOAT_TAGS",
    "I1_LOGIC",
    "ICMP",
    "INTRINSICS",
    "INT_BITS",
    "STATIC_SHARED_LIMIT",
    "AsmConstraints",
    "IcmpPredicate",
    "Intrinsic",
    "KernelInfo",
    "constant_of",
    "fcmp_predicate",
    "float_bits",
    "icmp_predicate",
    "intrinsic_of",
    "kernels",
    "module_shared_bytes",
    "parse_constraints",
    "signed_value",
    "struct_tags",
    "substitute_operands",
    "type_tag",
]


class EmitError(Exception):
    """IR outside the lowered-IR contract; ``op`` is the offending operation."""

    def __init__(self, op: Operation | None, message: str) -> None:
        self.op = op
        self.message = message
        where = f"'{op.name}' op " if op is not None else ""
        super().__init__(where + message)


# -- types --------------------------------------------------------------------------------

INT_BITS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64}
"""Integer tags and their widths."""

FLOAT_TAGS = ("f16", "bf16", "f32", "f64")

BYTE_SIZE = {
    "i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8,
    "f16": 2, "bf16": 2, "f32": 4, "f64": 8, "ptr1": 8,
}  # fmt: skip
"""``sizeof`` of a getelementptr pointee (LLVM's alloc size: i1 takes a byte)."""


def type_tag(t: Attribute, op: Operation | None) -> str:
    """The tag of a scalar type of the contract; :class:`EmitError` for anything else."""
    if isinstance(t, IntegerType):
        tag = f"i{t.width.data}"
        if tag in INT_BITS:
            return tag
    elif isinstance(t, Float16Type):
        return "f16"
    elif isinstance(t, BFloat16Type):
        return "bf16"
    elif isinstance(t, Float32Type):
        return "f32"
    elif isinstance(t, Float64Type):
        return "f64"
    elif isinstance(t, llvm.LLVMPointerType):
        space = t.addr_space.data
        if space in (1, 3):
            return f"ptr{space}"
    raise EmitError(op, f"type {t} is not a scalar type of the lowered IR")


def struct_tags(t: Attribute, op: Operation | None) -> tuple[str, ...]:
    """Field tags of an inline-asm result struct (scalars only, no pointers to shared)."""
    if not isinstance(t, llvm.LLVMStructType):
        raise EmitError(op, f"expected an !llvm.struct, got {t}")
    tags = tuple(type_tag(f, op) for f in t.types.data)
    if "ptr3" in tags or not tags:
        raise EmitError(op, f"struct {t} is not an inline-asm result struct")
    return tags


# -- constants ----------------------------------------------------------------------------


def float_bits(value: float, tag: str) -> int:
    """IEEE bit pattern of ``value`` in float format ``tag`` (round to nearest even)."""
    if tag == "f64":
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if tag == "f32":
        return struct.unpack("<I", struct.pack("<f", value))[0]
    if tag == "f16":
        return struct.unpack("<H", struct.pack("<e", value))[0]
    if tag == "bf16":
        if math.isnan(value):
            return 0x7FC0
        f32 = struct.unpack("<I", struct.pack("<f", value))[0]
        # bf16 is the top half of an f32: round the low half to nearest even.
        return ((f32 + 0x7FFF + ((f32 >> 16) & 1)) >> 16) & 0xFFFF
    raise ValueError(tag)


def signed_value(bits: int, width: int) -> int:
    """The two's-complement value of ``bits`` at ``width`` bits."""
    bits &= (1 << width) - 1
    return bits - (1 << width) if bits >> (width - 1) else bits


def constant_of(op: llvm.ConstantOp) -> tuple[str, int]:
    """``(tag, bits)`` of an ``llvm.mlir.constant``: integers as their low ``width`` bits,
    floats as their IEEE pattern."""
    tag = type_tag(op.result.type, op)
    value = op.value
    if tag in INT_BITS and isinstance(value, IntegerAttr):
        return tag, value.value.data & ((1 << INT_BITS[tag]) - 1)
    if tag in FLOAT_TAGS and isinstance(value, FloatAttr):
        return tag, float_bits(value.value.data, tag)
    raise EmitError(op, f"constant {value} of type {op.result.type} is not a scalar constant")


I1_LOGIC = {
    "llvm.and": "and", "llvm.or": "or", "llvm.xor": "xor",
    "llvm.add": "xor", "llvm.sub": "xor", "llvm.mul": "and",
}  # fmt: skip
"""The integer ops the contract allows on i1, as logic (mod 2: add and sub are xor, mul
is and). LLVM 14's NVPTX backend cannot select ``mul i1``, and PTX has only predicate
logic, so both emitters print these."""


# -- compare predicates -------------------------------------------------------------------


@dataclass(frozen=True)
class IcmpPredicate:
    """An LLVM integer predicate: its name, PTX compare op and signedness (``"s"``/``"u"``;
    ``"s"`` also for eq/ne, whose PTX type letter does not matter)."""

    name: str
    ptx: str
    sign: str


ICMP = tuple(
    IcmpPredicate(n, p, s)
    for n, p, s in (
        ("eq", "eq", "s"), ("ne", "ne", "s"),
        ("slt", "lt", "s"), ("sle", "le", "s"), ("sgt", "gt", "s"), ("sge", "ge", "s"),
        ("ult", "lt", "u"), ("ule", "le", "u"), ("ugt", "gt", "u"), ("uge", "ge", "u"),
    )
)  # fmt: skip
"""Indexed by LLVM's predicate number (0 eq … 9 uge)."""


def icmp_predicate(op: llvm.ICmpOp) -> IcmpPredicate:
    index = op.predicate.value.data
    if not 0 <= index < len(ICMP):
        raise EmitError(op, f"unknown icmp predicate {index}")
    return ICMP[index]


FCMP = {
    "false": None, "oeq": "eq", "ogt": "gt", "oge": "ge", "olt": "lt", "ole": "le",
    "one": "ne", "ord": "num", "ueq": "equ", "ugt": "gtu", "uge": "geu", "ult": "ltu",
    "ule": "leu", "une": "neu", "uno": "nan", "true": None,
}  # fmt: skip
"""LLVM fcmp predicate → PTX ``setp`` compare op (PTX's plain ops are ordered, the ``u``
ones unordered; ``num``/``nan`` test for no NaN / a NaN). ``true``/``false`` need none."""

FCMP_PREDICATES = tuple(FCMP)
"""In xDSL's numbering (``FCmpPredicateFlag``: false, oeq, …, uno, true)."""


def fcmp_predicate(op: llvm.FCmpOp) -> str:
    """The LLVM name of an fcmp's predicate (``true``/``false`` without xDSL's ``_``)."""
    index = op.predicate.value.data
    if not 0 <= index < len(FCMP_PREDICATES):
        raise EmitError(op, f"unknown fcmp predicate {index}")
    return FCMP_PREDICATES[index]


# -- intrinsics ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Intrinsic:
    """One ``llvm.call_intrinsic`` of the contract.

    ``ptx`` is the instruction that implements it, ``{d}`` standing for the result and
    ``{0}``, ``{1}``, … for the arguments. ``llvm`` is the LLVM 14 function to call, or
    ``None`` where LLVM 14 has no such intrinsic: the LLVM emitter then writes ``ptx`` as
    inline asm.
    """

    name: str
    result: str | None
    args: tuple[str, ...]
    ptx: str
    llvm: str | None


def _intrinsics() -> dict[str, Intrinsic]:
    table: list[Intrinsic] = []
    for reg in ("tid.x", "ctaid.x", "ctaid.y", "ctaid.z", "nctaid.x", "nctaid.y", "nctaid.z"):
        name = f"llvm.nvvm.read.ptx.sreg.{reg}"
        table.append(Intrinsic(name, "i32", (), f"mov.u32 {{d}}, %{reg};", name))
    table.append(Intrinsic("llvm.nvvm.barrier0", None, (), "bar.sync 0;", "llvm.nvvm.barrier0"))
    for mode in ("bfly", "idx", "up", "down"):
        # LLVM's order (mask, value, lane, clamp); PTX's (value, lane, clamp, mask).
        name = f"llvm.nvvm.shfl.sync.{mode}.i32"
        table.append(
            Intrinsic(name, "i32", ("i32",) * 4, f"shfl.sync.{mode}.b32 {{d}}, {{1}}, {{2}}, {{3}}, {{0}};", name)
        )
    for fn, ptx in (("maxnum", "max"), ("minnum", "min")):
        for tag in ("f32", "f64"):
            name = f"llvm.{fn}.{tag}"
            table.append(Intrinsic(name, tag, (tag, tag), f"{ptx}.{tag} {{d}}, {{0}}, {{1}};", name))
    for fn, ptx in (("fmax", "max"), ("fmin", "min")):
        # NaN-propagating max/min: LLVM 14 has no nvvm.fmax.nan intrinsic.
        ptx_text = f"{ptx}.NaN.f32 {{d}}, {{0}}, {{1}};"
        table.append(Intrinsic(f"llvm.nvvm.{fn}.nan.f", "f32", ("f32", "f32"), ptx_text, None))
    for fn in ("smax", "smin", "umax", "umin"):
        for tag in ("i32", "i64"):
            name = f"llvm.{fn}.{tag}"
            ptx = f"{fn[1:]}.{fn[0]}{tag[1:]}"
            table.append(Intrinsic(name, tag, (tag, tag), f"{ptx} {{d}}, {{0}}, {{1}};", name))
    table.append(Intrinsic("llvm.fabs.f32", "f32", ("f32",), "abs.f32 {d}, {0};", "llvm.fabs.f32"))
    table.append(Intrinsic("llvm.sqrt.f32", "f32", ("f32",), "sqrt.rn.f32 {d}, {0};", "llvm.sqrt.f32"))
    table.append(Intrinsic("llvm.fma.f32", "f32", ("f32",) * 3, "fma.rn.f32 {d}, {0}, {1}, {2};", "llvm.fma.f32"))
    for fn in ("ex2", "lg2", "rsqrt", "sin", "cos"):
        name = f"llvm.nvvm.{fn}.approx.f"
        table.append(Intrinsic(name, "f32", ("f32",), f"{fn}.approx.f32 {{d}}, {{0}};", name))
    # div.full.f32 (2 ulp, full range): LLVM 14 has no intrinsic for it.
    table.append(Intrinsic("llvm.nvvm.div.full.f", "f32", ("f32", "f32"), "div.full.f32 {d}, {0}, {1};", None))
    return {i.name: i for i in table}


INTRINSICS: dict[str, Intrinsic] = _intrinsics()
"""Every intrinsic the contract allows, by name."""


def intrinsic_of(op: llvm.CallIntrinsicOp) -> Intrinsic:
    """The table entry of a call, after checking its signature."""
    name = op.intrin.data
    entry = INTRINSICS.get(name)
    if entry is None:
        raise EmitError(op, f"intrinsic {name} is not in the lowered-IR contract")
    args = tuple(type_tag(a.type, op) for a in op.args)
    result = type_tag(op.ress.type, op) if op.ress is not None else None
    if args != entry.args or result != entry.result:
        raise EmitError(
            op, f"{name} takes ({', '.join(entry.args)}) -> {entry.result}, got ({', '.join(args)}) -> {result}"
        )
    return entry


# -- inline asm ---------------------------------------------------------------------------


@dataclass(frozen=True)
class AsmConstraints:
    """An LLVM inline-asm constraint string, split: output letters (``=`` and ``&``
    dropped), input letters (a digit ``k`` ties an input to output ``k``), clobbers
    (``~{...}``, kept verbatim)."""

    outputs: tuple[str, ...]
    inputs: tuple[str, ...]
    clobbers: tuple[str, ...]


ASM_LETTERS = frozenset("rlhfdbcn")
"""Register constraints the contract uses (``n``: an immediate)."""


def parse_constraints(text: str, op: Operation) -> AsmConstraints:
    outputs: list[str] = []
    inputs: list[str] = []
    clobbers: list[str] = []
    for part in (p.strip() for p in text.split(",")) if text.strip() else ():
        if part.startswith("~"):
            clobbers.append(part)
        elif part.startswith("="):
            letter = part[1:].lstrip("&")
            if inputs or letter not in ASM_LETTERS - {"n"}:
                raise EmitError(op, f"bad output constraint '{part}' in \"{text}\"")
            outputs.append(letter)
        elif part in ASM_LETTERS or (part.isdigit() and int(part) < len(outputs)):
            inputs.append(part)
        else:
            raise EmitError(op, f"constraint '{part}' is not supported (in \"{text}\")")
    return AsmConstraints(tuple(outputs), tuple(inputs), tuple(clobbers))


_ASM_OPERAND = re.compile(r"\$(\$|\d+|\{[^}]*\})")


def substitute_operands(text: str, operand: object, op: Operation) -> str:
    """``text`` with each ``$N`` replaced by ``operand(N)`` and ``$$`` by ``$``."""

    def one(m: re.Match[str]) -> str:
        body = m.group(1)
        if body == "$":
            return "$"
        if not body.isdigit():
            raise EmitError(op, f"operand modifier ${body} is not supported")
        return operand(int(body))  # type: ignore[operator]

    return _ASM_OPERAND.sub(one, text)


# -- module facts -------------------------------------------------------------------------

STATIC_SHARED_LIMIT = 48 * 1024
"""The most shared memory a kernel may declare statically; more must be dynamic
(declared ``.extern`` and sized at launch)."""


@dataclass(frozen=True)
class KernelInfo:
    """One kernel: its function op, name and ``nvvm.reqntid`` (x, y, z; None if absent)."""

    func: llvm.FuncOp
    name: str
    reqntid: tuple[int, int, int] | None


def kernels(module: ModuleOp) -> list[KernelInfo]:
    """The module's kernels, checking the top level: kernels and ``@global_smem`` only."""
    out: list[KernelInfo] = []
    for op in module.body.block.ops:
        if isinstance(op, llvm.GlobalOp):
            if op.sym_name.data != "global_smem" or op.addr_space.value.data != 3:
                raise EmitError(op, f"only @global_smem in addrspace(3) is allowed, got @{op.sym_name.data}")
            continue
        if not isinstance(op, llvm.FuncOp):
            raise EmitError(op, "only llvm.func and llvm.mlir.global are allowed at the top level")
        if "nvvm.kernel" not in op.attributes or not isinstance(op.attributes["nvvm.kernel"], UnitAttr):
            raise EmitError(op, f"@{op.sym_name.data} is not an nvvm.kernel")
        if len(op.body.blocks) != 1:
            raise EmitError(op, f"@{op.sym_name.data} must have exactly one block")
        if not isinstance(op.function_type.output, llvm.LLVMVoidType):
            raise EmitError(op, f"kernel @{op.sym_name.data} must return void")
        reqntid = None
        attr = op.attributes.get("nvvm.reqntid")
        if attr is not None:
            if not isinstance(attr, DenseArrayBase) or not 1 <= len(dims := tuple(attr.iter_values())) <= 3:
                raise EmitError(op, f"nvvm.reqntid must be an array<i32> of 1 to 3 sizes, got {attr}")
            reqntid = tuple(int(d) for d in (*dims, 1, 1)[:3])  # type: ignore[assignment]
        out.append(KernelInfo(op, op.sym_name.data, reqntid))  # type: ignore[arg-type]
    return out


def module_shared_bytes(module: ModuleOp) -> int | None:
    """Bytes of ``@global_smem`` (the module's ``ttg.shared``), or None without the global.

    0 with the global present means the size is unknown: declare it dynamic."""
    has_global = any(isinstance(op, llvm.GlobalOp) for op in module.body.block.ops)
    if not has_global:
        return None
    attr = module.attributes.get("ttg.shared")
    if isinstance(attr, IntegerAttr):
        return int(attr.value.data)
    return 0


class KernelBodyPrinter:
    """What both printers share: walking a kernel's structured body in order.

    Subclasses provide ``kernel`` (a :class:`KernelInfo`), ``emit(line)``, ``op(op)`` and
    ``RETURN`` (the text of a return: ``ret void`` / ``ret;``).
    """

    RETURN = ""
    kernel: KernelInfo

    def emit(self, line: str) -> None:  # pragma: no cover - provided by subclasses
        raise NotImplementedError

    def op(self, op: Operation) -> None:  # pragma: no cover - provided by subclasses
        raise NotImplementedError

    def block_ops(self, block: Block, top: bool = False) -> list[SSAValue]:
        """Print ``block``'s ops; returns the operands of its terminator (scf.yield)."""
        for op in block.ops:
            if isinstance(op, scf.YieldOp):
                if top:
                    raise EmitError(op, "scf.yield outside scf.for/scf.if")
                return list(op.arguments)
            if isinstance(op, llvm.ReturnOp):
                if not top or op.arg is not None or op is not block.last_op:
                    raise EmitError(op, "llvm.return (no value) must end the kernel")
                self.emit(self.RETURN)
                return []
            self.op(op)
        if top:
            raise EmitError(self.kernel.func, "the kernel must end with llvm.return")
        return []

    def structured_op(self, op: Operation) -> None:
        """The ops both printers route the same way: GEP, extractvalue, intrinsics, inline
        asm, scf.for / scf.if (each printer defines the handlers); anything else is outside
        the contract."""
        handlers = {
            llvm.GEPOp: "gep",
            llvm.ExtractValueOp: "extractvalue",
            llvm.CallIntrinsicOp: "intrinsic",
            llvm.InlineAsmOp: "inline_asm",
            scf.ForOp: "for_loop",
            scf.IfOp: "if_else",
        }
        name = handlers.get(type(op))
        if name is None:
            raise EmitError(op, "is not in the lowered-IR contract")
        getattr(self, name)(op)

