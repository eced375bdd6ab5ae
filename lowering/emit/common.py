"""What the two text printers (:mod:`.llvm_ir`, :mod:`.ptx`) share.

Both read a module of the *lowered-IR contract* (see :mod:`ltc.lowering.llvm.to_llvm`) and
print it; this module holds the facts about that IR they both need, each printer deriving
its own spellings from them:

* :class:`EmitError` for IR outside the contract (naming the op);
* scalar *type tags* (``"i1"`` … ``"i64"``, ``"f16"``, ``"bf16"``, ``"f32"``, ``"f64"``,
  ``"ptr1"``, ``"ptr3"``): one :class:`ScalarType` of facts each (:data:`SCALAR_TYPES`:
  kind, bits, byte size, inline-asm register constraint);
* constants as ``(tag, bits)``: the value's bit pattern (two's complement for integers,
  IEEE-754 for floats);
* the binary ops (:data:`INT_BINARY`, :data:`FLOAT_BINARY`: LLVM's and PTX's opcodes, i8
  extension, i1 logic) and the casts, by family;
* compare-predicate tables (LLVM's names, PTX's ``setp`` compare ops);
* the intrinsic table (:data:`INTRINSICS`): signature, the LLVM 14 function to call, and
  the PTX that implements it;
* inline-asm constraint strings, parsed;
* module facts: kernels, ``nvvm.reqntid``, the shared-memory size and how to declare it;
* :class:`KernelBodyPrinter`: the walk of a kernel's body, the routing of each op to its
  printer's handler, and the contract checks that do not depend on the spelling.
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass
from typing import Literal

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
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue

__all__ = [
    "ASM_LETTERS",
    "ASM_REGISTER_BITS",
    "BYTE_SIZE",
    "CASTS",
    "FCMP",
    "FCMP_PREDICATES",
    "FLOAT_BINARY",
    "FLOAT_CASTS",
    "FLOAT_TAGS",
    "FLOAT_TO_INT",
    "ICMP",
    "INTRINSICS",
    "INT_BINARY",
    "INT_BITS",
    "INT_CASTS",
    "INT_TO_FLOAT",
    "SCALAR_TYPES",
    "STATIC_SHARED_LIMIT",
    "AsmConstraints",
    "BinaryOp",
    "EmitError",
    "IcmpPredicate",
    "Intrinsic",
    "KernelBodyPrinter",
    "KernelInfo",
    "ScalarType",
    "cast_kind",
    "constant_of",
    "declared_shared_bytes",
    "fcmp_predicate",
    "float_bits",
    "icmp_predicate",
    "intrinsic_of",
    "kernels",
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

ASM_REGISTER_BITS = {"b": 1, "c": 16, "h": 16, "r": 32, "l": 64, "f": 32, "d": 64}
"""The NVPTX inline-asm register constraints and the width of the register each names:
``b`` a predicate, ``c`` (an i8) and ``h`` 16-bit registers, ``r``/``l`` 32/64-bit ones,
``f``/``d`` float ones."""


@dataclass(frozen=True)
class ScalarType:
    """The facts about one scalar type tag that both printers spell from.

    ``kind`` is ``"int"``, ``"float"`` or ``"ptr"``; ``bits`` the value's width (64 for
    pointers: LLVM's NVPTX 64-bit data layout); ``byte_size`` the getelementptr stride, LLVM's
    alloc size (i1 takes a byte; None: not a pointee); ``constraint`` the inline-asm letter
    (:data:`ASM_REGISTER_BITS`) of the register that holds it (None: no register holds it:
    the shared base is a symbol); ``address_space`` a pointer's.
    """

    tag: str
    kind: Literal["int", "float", "ptr"]
    bits: int
    byte_size: int | None
    constraint: str | None
    address_space: int | None = None


SCALAR_TYPES: dict[str, ScalarType] = {
    t.tag: t
    for t in (
        ScalarType("i1", "int", 1, 1, "b"),
        ScalarType("i8", "int", 8, 1, "h"),  # a byte travels in a 16-bit register
        ScalarType("i16", "int", 16, 2, "h"),
        ScalarType("i32", "int", 32, 4, "r"),
        ScalarType("i64", "int", 64, 8, "l"),
        ScalarType("f16", "float", 16, 2, "h"),
        ScalarType("bf16", "float", 16, 2, "h"),
        ScalarType("f32", "float", 32, 4, "f"),
        ScalarType("f64", "float", 64, 8, "d"),
        ScalarType("ptr1", "ptr", 64, 8, "l", address_space=1),
        ScalarType("ptr3", "ptr", 64, None, None, address_space=3),
    )
}
"""Every scalar type of the contract, by tag."""

INT_BITS = {t.tag: t.bits for t in SCALAR_TYPES.values() if t.kind == "int"}
"""Integer tags and their widths."""

FLOAT_TAGS = tuple(t.tag for t in SCALAR_TYPES.values() if t.kind == "float")

BYTE_SIZE = {t.tag: t.byte_size for t in SCALAR_TYPES.values() if t.byte_size is not None}
"""``sizeof`` of a getelementptr pointee (LLVM's alloc size: i1 takes a byte)."""


def type_tag(t: Attribute, op: Operation | None) -> str:
    """The tag of a scalar type of the contract; :class:`EmitError` for anything else."""
    # (by class, not isinstance: xDSL's types are ABCs, whose isinstance is slow, and
    # printing a kernel asks this for every operand; the types are not subclassed)
    cls = type(t)
    if cls is IntegerType:
        tag = f"i{t.width.data}"  # type: ignore[attr-defined]
        if tag in INT_BITS:
            return tag
    elif cls is llvm.LLVMPointerType:
        tag = f"ptr{t.addr_space.data}"  # type: ignore[attr-defined]
        if tag in SCALAR_TYPES:
            return tag
    else:
        tag = _FLOAT_TAGS.get(cls)
        if tag is not None:
            return tag
    raise EmitError(op, f"type {t} is not a scalar type of the lowered IR")


_FLOAT_TAGS: dict[type, str] = {Float16Type: "f16", BFloat16Type: "bf16", Float32Type: "f32", Float64Type: "f64"}


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


# -- ops ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BinaryOp:
    """An integer or float binary op of the contract, ``llvm.<llvm>``.

    ``llvm`` is LLVM's opcode; ``ptx`` PTX's (for integers with its type letter, the width
    follows: ``div.s`` prints ``div.s32``). ``extend`` says how an i8 operand is extended
    first (``"s"``/``"u"``) where the op reads its upper bits (None: it does not; for a
    shift, of the shifted value only).
    ``i1_logic`` is the op on i1 as logic (mod 2: add and sub are xor, mul is and; None: not
    allowed on i1): LLVM 14's NVPTX backend cannot select ``mul i1``, and PTX has only
    predicate logic, so both printers print that.
    """

    llvm: str
    ptx: str
    extend: str | None = None
    i1_logic: str | None = None


def _by_op_name(ops: tuple[BinaryOp, ...]) -> dict[str, BinaryOp]:
    return {f"llvm.{o.llvm}": o for o in ops}


INT_BINARY = _by_op_name(
    (
        BinaryOp("add", "add.s", i1_logic="xor"),
        BinaryOp("sub", "sub.s", i1_logic="xor"),
        BinaryOp("mul", "mul.lo.s", i1_logic="and"),
        BinaryOp("sdiv", "div.s", extend="s"),
        BinaryOp("udiv", "div.u", extend="u"),
        BinaryOp("srem", "rem.s", extend="s"),
        BinaryOp("urem", "rem.u", extend="u"),
        BinaryOp("and", "and.b", i1_logic="and"),
        BinaryOp("or", "or.b", i1_logic="or"),
        BinaryOp("xor", "xor.b", i1_logic="xor"),
        BinaryOp("shl", "shl.b"),
        BinaryOp("lshr", "shr.u", extend="u"),
        BinaryOp("ashr", "shr.s", extend="s"),
    )
)
"""The integer binary ops, by op name."""

FLOAT_BINARY = _by_op_name(
    (BinaryOp("fadd", "add"), BinaryOp("fsub", "sub"), BinaryOp("fmul", "mul"), BinaryOp("fdiv", "div"))
)
"""The float binary ops but ``frem`` (which both printers expand), by op name."""

INT_CASTS = ("zext", "sext", "trunc")
FLOAT_CASTS = ("fpext", "fptrunc")
INT_TO_FLOAT = ("sitofp", "uitofp")
FLOAT_TO_INT = ("fptosi", "fptoui")
CASTS = (*INT_CASTS, *FLOAT_CASTS, *INT_TO_FLOAT, *FLOAT_TO_INT, "bitcast", "ptrtoint", "inttoptr")
"""The casts of the contract (``llvm.<kind>``), by family."""


def cast_kind(op: Operation) -> str | None:
    """``"zext"`` … of a cast op; None for any other op."""
    kind = op.name.removeprefix("llvm.")
    return kind if kind != op.name and kind in CASTS else None


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


def may_contract(op: Operation) -> bool:
    """A float add/sub/mul whose ``contract`` flag lets it fuse with a neighbour into an fma."""
    flags = getattr(op, "fastmathFlags", None)
    return flags is not None and llvm.FastMathFlag.ALLOW_CONTRACT in flags.data


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
    for fn, mode in (("floor", "rmi"), ("ceil", "rpi"), ("trunc", "rzi")):  # round to an integer value
        for tag in ("f32", "f64"):
            name = f"llvm.{fn}.{tag}"
            table.append(Intrinsic(name, tag, (tag,), f"cvt.{mode}.{tag}.{tag} {{d}}, {{0}};", name))
    table.append(Intrinsic("llvm.sqrt.f32", "f32", ("f32",), "sqrt.rn.f32 {d}, {0};", "llvm.sqrt.f32"))
    for tag in ("f32", "f64"):
        name = f"llvm.fma.{tag}"
        table.append(Intrinsic(name, tag, (tag,) * 3, f"fma.rn.{tag} {{d}}, {{0}}, {{1}}, {{2}};", name))
    for fn in ("ex2", "lg2", "rsqrt", "sin", "cos"):
        name = f"llvm.nvvm.{fn}.approx.f"
        table.append(Intrinsic(name, "f32", ("f32",), f"{fn}.approx.f32 {{d}}, {{0}};", name))
    for fn in ("ex2", "rsqrt", "sqrt"):  # denormal inputs and results flush to zero
        name = f"llvm.nvvm.{fn}.approx.ftz.f"
        table.append(Intrinsic(name, "f32", ("f32",), f"{fn}.approx.ftz.f32 {{d}}, {{0}};", name))
    # div.full.f32 (2 ulp, full range): LLVM 14 has no intrinsic for it.
    table.append(Intrinsic("llvm.nvvm.div.full.f", "f32", ("f32", "f32"), "div.full.f32 {d}, {0}, {1};", None))
    # div.approx.f32 (2 ulp, divisors below 2^126 in magnitude): tt.approx_divf
    name = "llvm.nvvm.div.approx.f"
    table.append(Intrinsic(name, "f32", ("f32", "f32"), "div.approx.f32 {d}, {0}, {1};", name))
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


ASM_LETTERS = frozenset(ASM_REGISTER_BITS) | {"n"}
"""Constraints the contract uses: the registers and ``n`` (an immediate)."""


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


def declared_shared_bytes(module: ModuleOp) -> int | None:
    """How to declare ``@global_smem``: None without the global; its size in bytes (the
    module's ``ttg.shared``) to declare it statically; 0 to declare it dynamic (``extern``,
    sized at launch), as when the size is unknown or above :data:`STATIC_SHARED_LIMIT`."""
    has_global = any(isinstance(op, llvm.GlobalOp) for op in module.body.block.ops)
    if not has_global:
        return None
    attr = module.attributes.get("ttg.shared")
    size = int(attr.value.data) if isinstance(attr, IntegerAttr) else 0
    return size if 0 < size <= STATIC_SHARED_LIMIT else 0


_HANDLERS: dict[str, str] = {
    op.name: handler
    for op, handler in (
        (llvm.FRemOp, "frem"),
        (llvm.FNegOp, "fneg"),
        (llvm.ICmpOp, "icmp"),
        (llvm.FCmpOp, "fcmp"),
        (llvm.SelectOp, "select"),
        (llvm.GEPOp, "gep"),
        (llvm.ExtractValueOp, "extractvalue"),
        (llvm.CallIntrinsicOp, "intrinsic"),
        (llvm.InlineAsmOp, "inline_asm"),
        (scf.ForOp, "for_loop"),
        (scf.WhileOp, "while_loop"),
        (scf.IfOp, "if_else"),
    )
}
"""The printer method that prints each op taking just the op, by op name (see
:meth:`KernelBodyPrinter.op`): by name, because a context may register its own class for
an op (ltc's ``scf.for`` reads MLIR's bare ``-> T``)."""


class KernelBodyPrinter:
    """What both printers share: walking a kernel's structured body in order, routing each
    op to its handler (:meth:`op`), and the checks of the contract that do not depend on
    the spelling.

    Subclasses set ``kernel`` (a :class:`KernelInfo`), ``has_shared`` (whether the module
    declares ``@global_smem``) and ``RETURN`` (the text of a return: ``ret void`` /
    ``ret;``), and provide ``emit(line)`` and the handlers :meth:`op` names.
    """

    RETURN = ""
    kernel: KernelInfo
    has_shared: bool

    def emit(self, line: str) -> None:  # pragma: no cover - provided by subclasses
        raise NotImplementedError

    # The handlers :meth:`op` calls with more than the op (the others take just the op).
    def set_constant(self, v: SSAValue, tag: str, bits: int) -> None:  # pragma: no cover
        raise NotImplementedError

    def address_of(self, op: llvm.AddressOfOp) -> None:  # pragma: no cover
        raise NotImplementedError

    def int_binary(self, op: Operation, entry: BinaryOp, tag: str) -> None:  # pragma: no cover
        raise NotImplementedError

    def float_binary(self, op: Operation, entry: BinaryOp) -> None:  # pragma: no cover
        raise NotImplementedError

    def cast(self, op: Operation, kind: str) -> None:  # pragma: no cover
        raise NotImplementedError

    def tag(self, v: SSAValue, op: Operation) -> str:
        """The tag of ``v``'s type (a printer may check more)."""
        return type_tag(v.type, op)

    def block_ops(self, block: Block, top: bool = False) -> list[SSAValue]:
        """Print ``block``'s ops; returns the operands of its terminator (scf.yield, or
        scf.condition: the condition first)."""
        for op in block.ops:
            if isinstance(op, scf.YieldOp):
                if top:
                    raise EmitError(op, "scf.yield outside scf.for/scf.if")
                return list(op.arguments)
            if isinstance(op, scf.ConditionOp):  # the end of an scf.while's first region
                if top:
                    raise EmitError(op, "scf.condition outside scf.while")
                return [op.condition, *op.args]
            if isinstance(op, llvm.ReturnOp):
                if not top or op.arg is not None or op is not block.last_op:
                    raise EmitError(op, "llvm.return (no value) must end the kernel")
                self.emit(self.RETURN)
                return []
            self.op(op)
        if top:
            raise EmitError(self.kernel.func, "the kernel must end with llvm.return")
        return []

    def op(self, op: Operation) -> None:
        """Route ``op`` to its handler: ``set_constant(result, tag, bits)``,
        ``address_of(op)``, ``int_binary(op, entry, tag)`` (operands checked),
        ``float_binary(op, entry)``, ``cast(op, kind)``, or the handler of its op class
        (:data:`_HANDLERS`); anything else is outside the contract."""
        name = op.name
        if isinstance(op, llvm.ConstantOp):
            self.set_constant(op.result, *constant_of(op))
        elif isinstance(op, llvm.AddressOfOp):
            if op.global_name.root_reference.data != "global_smem" or not self.has_shared:
                raise EmitError(op, "only @global_smem (declared in the module) may be addressed")
            self.address_of(op)
        elif name in INT_BINARY:
            self.int_binary(op, INT_BINARY[name], self.int_binary_tag(op))
        elif name in FLOAT_BINARY:
            self.float_binary(op, FLOAT_BINARY[name])
        elif (kind := cast_kind(op)) is not None:
            self.cast(op, kind)
        else:
            handler = _HANDLERS.get(name)
            if handler is None:
                raise EmitError(op, "is not in the lowered-IR contract")
            getattr(self, handler)(op)

    # -- checks of the contract ---------------------------------------------------------------
    def kernel_params(self) -> list[tuple[BlockArgument, str]]:
        """The kernel's arguments and their tags (none may point to shared memory)."""
        func = self.kernel.func
        params = []
        for arg in func.body.block.args:
            tag = type_tag(arg.type, func)
            if tag == "ptr3":
                raise EmitError(func, "a kernel argument cannot point to shared memory")
            params.append((arg, tag))
        return params

    def int_binary_tag(self, op: Operation) -> str:
        """The tag of an integer binary op's operands: one integer type, i1 only for the
        ops with :attr:`BinaryOp.i1_logic`."""
        lhs, rhs = op.operands
        tag = type_tag(lhs.type, op)
        if tag not in INT_BITS or type_tag(rhs.type, op) != tag:
            raise EmitError(op, f"needs two integer operands of one type, got {lhs.type}, {rhs.type}")
        if tag == "i1" and INT_BINARY[op.name].i1_logic is None:
            raise EmitError(op, "on i1 has no predicate form")
        return tag

    def float_tag(self, op: Operation) -> str:
        """The tag of a float op's operands (all of one float type)."""
        tags = {type_tag(v.type, op) for v in op.operands}
        if len(tags) != 1 or not tags <= set(FLOAT_TAGS):
            raise EmitError(op, "needs float operands of one type")
        return tags.pop()

    def gep_operands(self, op: llvm.GEPOp) -> tuple[str, SSAValue, str]:
        """``(pointee tag, index, index tag)`` of a getelementptr: one i32 or i64 SSA index
        into a global pointer, stepping over a scalar."""
        # (operands and properties by position and name: xDSL's named accessors cost more
        # than the rest of printing a getelementptr)
        props = op.properties
        indices = tuple(props["rawConstantIndices"].iter_values())  # type: ignore[attr-defined]
        ptr, *ssa_indices = op.operands
        if len(indices) != 1 or len(ssa_indices) != 1 or indices[0] != llvm.GEP_USE_SSA_VAL:
            raise EmitError(op, "needs exactly one SSA index")
        if self.tag(ptr, op) != "ptr1" or self.tag(op.results[0], op) != "ptr1":
            raise EmitError(op, "works on !llvm.ptr<1> only")
        elem_type = props["elem_type"]
        pointee = type_tag(elem_type, op)
        if pointee not in BYTE_SIZE:
            raise EmitError(op, f"pointee {elem_type} is not a scalar")
        (index,) = ssa_indices
        index_tag = type_tag(index.type, op)
        if index_tag not in ("i32", "i64"):
            raise EmitError(op, f"index must be i32 or i64, got {index.type}")
        return pointee, index, index_tag

    def extract_position(self, op: llvm.ExtractValueOp) -> tuple[tuple[str, ...], int]:
        """The field tags of an extractvalue's (inline-asm result) struct and the field."""
        tags = struct_tags(op.container.type, op)
        pos = tuple(op.position.iter_values())
        if len(pos) != 1 or not 0 <= pos[0] < len(tags):
            raise EmitError(op, f"position {list(pos)} is not a field of {op.container.type}")
        return tags, pos[0]

    def asm_signature(self, op: llvm.InlineAsmOp) -> tuple[AsmConstraints, tuple[str, ...]]:
        """The constraints of a PTX inline asm and its result tags (a struct's fields, one
        scalar, or none), one output constraint each and one input constraint an operand."""
        # (by position and name: see gep_operands; the operands are all the asm's inputs)
        props = op.properties
        dialect = props.get("asm_dialect")
        if dialect is not None and dialect.value.data != 0:  # type: ignore[attr-defined]
            raise EmitError(op, "only AT&T-dialect (PTX) inline asm")
        cons = parse_constraints(props["constraints"].data, op)  # type: ignore[attr-defined]
        if len(cons.inputs) != len(op.operands):
            raise EmitError(op, f"{len(op.operands)} operands for {len(cons.inputs)} input constraints")
        res = op.results[0] if op.results else None
        if res is None:
            tags: tuple[str, ...] = ()
        elif isinstance(res.type, llvm.LLVMStructType):
            tags = struct_tags(res.type, op)
        else:
            tags = (self.tag(res, op),)
        if len(tags) != len(cons.outputs):
            raise EmitError(op, f"{len(tags)} results for {len(cons.outputs)} output constraints")
        return cons, tags

    def carried_tag(self, v: SSAValue, op: Operation) -> str:
        """The tag of a value an scf op carries (an iter arg or result): not a shared pointer."""
        tag = self.tag(v, op)
        if tag == "ptr3":
            raise EmitError(op, "cannot carry a shared pointer")
        return tag

    @staticmethod
    def check_loop_bounds(op: scf.ForOp) -> str:
        """The tag of the loop's bounds, step and induction variable: i32 or i64, one for all."""
        tags = {type_tag(v.type, op) for v in (op.lb, op.ub, op.step)}
        if len(tags) != 1 or not tags <= {"i32", "i64"}:
            raise EmitError(op, "bounds and step must be all i32 or all i64")
        return tags.pop()

    def while_condition(self, op: scf.WhileOp, count: int) -> tuple[SSAValue, list[SSAValue]]:
        """Print the first region of ``op``; its condition (an i1) and the ``count`` values
        it forwards (to the second region's arguments and the results)."""
        values = self.block_ops(op.before_region.block)
        if not values or type_tag(values[0].type, op) != "i1":
            raise EmitError(op, "the first region must end with scf.condition on an i1")
        if len(values) - 1 != count:
            raise EmitError(op, f"scf.condition forwards {len(values) - 1} values for {count} results")
        return values[0], values[1:]

    @staticmethod
    def if_regions(op: scf.IfOp) -> list[Region]:
        """The regions of an scf.if on an i1 to print: then, and else if it has one (it must
        when the if has results)."""
        if type_tag(op.cond.type, op) != "i1":
            raise EmitError(op, "condition must be i1")
        has_else = bool(op.false_region.blocks)
        if op.output and not has_else:
            raise EmitError(op, "an scf.if with results needs an else region")
        return [op.true_region, op.false_region] if has_else else [op.true_region]

    def yielded(self, block: Block, count: int, what: str, op: Operation) -> list[SSAValue]:
        """Print a region's ``block``; the ``count`` values it yields (for ``what`` of ``op``)."""
        values = self.block_ops(block)
        if len(values) != count:
            raise EmitError(op, f"yields {len(values)} values for {count} {what}")
        return values
