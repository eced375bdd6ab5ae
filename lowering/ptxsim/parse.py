"""Parse PTX text (the subset in ``ptx.lark``) into a program of frozen dataclasses.

:func:`parse_ptx` returns a :class:`PtxModule`: module variables (``.shared`` /
``.global`` / ``.const`` declarations with alignment, array size, initialiser) and
kernels. A :class:`Kernel` holds its name, :class:`Param` list (type, pointer or
not), thread-count directives and a body of statements: :class:`RegDecl`,
:class:`VarDecl`, :class:`Label`, :class:`Instruction` and nested :class:`Block`
scopes. An instruction is ``opcode`` + ``modifiers`` (``ld.global.v4.b32`` ->
``"ld"``, ``("global", "v4", "b32")``), operands and an optional guard.

Operands: :class:`Reg` (a declared register or a special register such as
``%tid.x``), :class:`Imm` (integer), :class:`FloatImm` (``0f``/``0d`` hex bits or
a decimal literal), :class:`Symbol` (a variable, parameter or label name),
:class:`Sink` (``_``), :class:`Vector` (``{%r1, %r2}``), :class:`Address`
(``[%rd1+16]``, ``[name+4]``), :class:`PredPair` (``%r1|%p1``) and :class:`Not`
(``!%p1``). A bare identifier is a :class:`Reg` when a register of that name is
declared in an enclosing scope (inline-asm blocks declare ``a<2>``), else a
:class:`Symbol`.

Static checks (all raise :class:`PtxSyntaxError` with the position): syntax,
``%`` registers that are neither declared nor special, duplicate register names in
one scope, duplicate labels, branch targets that name no label.
"""

from __future__ import annotations

import functools
import re
import struct
from dataclasses import dataclass, field
from importlib import resources
from typing import Iterator, Union

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

__all__ = [
    "Address",
    "Block",
    "FloatImm",
    "Guard",
    "Imm",
    "Instruction",
    "Kernel",
    "Label",
    "Not",
    "Operand",
    "Param",
    "PredPair",
    "PtxModule",
    "PtxSyntaxError",
    "Reg",
    "RegDecl",
    "Sink",
    "Statement",
    "Symbol",
    "VarDecl",
    "Vector",
    "is_special_register",
    "parse_ptx",
]


class PtxSyntaxError(Exception):
    """PTX text the parser rejects; ``str()`` is ``file:line:col: error: msg`` plus the line."""

    def __init__(self, message: str, line: int, column: int, source_line: str = "", filename: str = "<ptx>"):
        self.message = message
        self.line = line
        self.column = column
        self.source_line = source_line
        self.filename = filename
        super().__init__(str(self))

    def __str__(self) -> str:
        head = f"{self.filename}:{self.line}:{self.column}: error: {self.message}"
        if not self.source_line:
            return head
        caret = " " * (max(self.column, 1) - 1) + "^"
        return f"{head}\n  {self.source_line.expandtabs(1)}\n  {caret}"


# ------------------------------------------------------------------------ operands
@dataclass(frozen=True)
class Reg:
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Imm:
    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class FloatImm:
    """A float literal: ``bits`` of ``width`` (32 for ``0f``, 64 for ``0d`` and decimals)."""

    bits: int
    width: int

    @property
    def value(self) -> float:
        if self.width == 32:
            return struct.unpack("<f", self.bits.to_bytes(4, "little"))[0]
        return struct.unpack("<d", self.bits.to_bytes(8, "little"))[0]

    def __str__(self) -> str:
        return f"0f{self.bits:08X}" if self.width == 32 else f"0d{self.bits:016X}"


@dataclass(frozen=True)
class Symbol:
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Sink:
    def __str__(self) -> str:
        return "_"


@dataclass(frozen=True)
class Vector:
    elements: tuple["Operand", ...]

    def __str__(self) -> str:
        return "{" + ", ".join(map(str, self.elements)) + "}"


@dataclass(frozen=True)
class Address:
    """``[base+offset]``; ``base`` is None for an absolute address."""

    base: Union[Reg, Symbol, None]
    offset: int = 0

    def __str__(self) -> str:
        if self.base is None:
            return f"[{self.offset}]"
        return f"[{self.base}+{self.offset}]" if self.offset else f"[{self.base}]"


@dataclass(frozen=True)
class PredPair:
    """``d|p``: a value destination and a predicate destination (``_`` allowed)."""

    first: Union[Reg, Sink]
    second: Union[Reg, Sink]

    def __str__(self) -> str:
        return f"{self.first}|{self.second}"


@dataclass(frozen=True)
class Not:
    reg: Reg

    def __str__(self) -> str:
        return f"!{self.reg}"


Operand = Union[Reg, Imm, FloatImm, Symbol, Sink, Vector, Address, PredPair, Not]


# ------------------------------------------------------------------------ statements
@dataclass(frozen=True)
class Guard:
    reg: Reg
    negated: bool = False

    def __str__(self) -> str:
        return f"@{'!' if self.negated else ''}{self.reg}"


@dataclass(frozen=True)
class Instruction:
    opcode: str
    modifiers: tuple[str, ...]
    operands: tuple[Operand, ...]
    guard: Guard | None
    line: int
    column: int
    source: str = field(default="", compare=False)

    @property
    def mnemonic(self) -> str:
        return ".".join((self.opcode,) + self.modifiers)

    def __str__(self) -> str:
        g = f"{self.guard} " if self.guard else ""
        ops = ", ".join(map(str, self.operands))
        return f"{g}{self.mnemonic}{' ' + ops if ops else ''};"


@dataclass(frozen=True)
class Label:
    name: str
    line: int


@dataclass(frozen=True)
class RegDecl:
    """``.reg .type name<count>`` (``count`` None: the single register ``name``)."""

    type: str
    name: str
    count: int | None
    line: int

    @property
    def names(self) -> tuple[str, ...]:
        if self.count is None:
            return (self.name,)
        return tuple(f"{self.name}{i}" for i in range(self.count))


@dataclass(frozen=True)
class VarDecl:
    """A state-space variable: ``space`` is shared/global/const/local; ``size`` the
    byte size (None for ``.extern`` arrays declared ``[]``); ``init`` the initial
    element values (ints, floats or symbol names)."""

    space: str
    name: str
    type: str
    align: int
    dims: tuple[int | None, ...]
    extern: bool
    visible: bool
    init: tuple[Union[int, float, str], ...] | None
    line: int

    @property
    def element_bytes(self) -> int:
        return type_bits(self.type) // 8

    @property
    def size(self) -> int | None:
        n = 1
        for d in self.dims:
            if d is None:
                return None
            n *= d
        return n * self.element_bytes


@dataclass(frozen=True)
class Block:
    statements: tuple["Statement", ...]
    line: int


Statement = Union[Instruction, Label, RegDecl, VarDecl, Block]


@dataclass(frozen=True)
class Param:
    """A kernel parameter: ``type`` (e.g. ``u64``), ``pointer`` for ``.ptr`` params,
    ``space`` of the pointee when given, ``dims`` for ``.b8 name[16]`` arrays."""

    name: str
    type: str
    pointer: bool
    space: str | None
    align: int | None
    dims: tuple[int | None, ...]

    @property
    def size(self) -> int:
        n = type_bits(self.type) // 8
        for d in self.dims:
            n *= d or 1
        return n


@dataclass(frozen=True)
class Kernel:
    name: str
    params: tuple[Param, ...]
    statements: tuple[Statement, ...]
    entry: bool
    reqntid: tuple[int, ...] | None
    maxntid: tuple[int, ...] | None
    line: int

    def instructions(self) -> Iterator[Instruction]:
        """Every instruction in textual order (nested blocks flattened)."""

        def walk(stmts):
            for s in stmts:
                if isinstance(s, Instruction):
                    yield s
                elif isinstance(s, Block):
                    yield from walk(s.statements)

        return walk(self.statements)


@dataclass(frozen=True)
class PtxModule:
    version: str | None
    target: tuple[str, ...]
    address_size: int | None
    variables: tuple[VarDecl, ...]
    kernels: tuple[Kernel, ...]

    def kernel(self, name: str | None = None) -> Kernel:
        """The entry called ``name``, or the only entry when ``name`` is None."""
        entries = [k for k in self.kernels if k.entry]
        if name is None:
            if len(entries) != 1:
                names = ", ".join(k.name for k in entries) or "none"
                raise KeyError(f"the module has {len(entries)} entry kernels ({names}); name one")
            return entries[0]
        for k in self.kernels:
            if k.name == name:
                return k
        raise KeyError(f"no kernel named '{name}' (have: {', '.join(k.name for k in self.kernels) or 'none'})")


# ------------------------------------------------------------------------ types
_TYPE_BITS = {
    "b8": 8, "u8": 8, "s8": 8, "b16": 16, "u16": 16, "s16": 16, "f16": 16, "bf16": 16, "e4m3x2": 16,
    "e5m2x2": 16, "b32": 32, "u32": 32, "s32": 32, "f32": 32, "f16x2": 32, "bf16x2": 32, "tf32": 32,
    "b64": 64, "u64": 64, "s64": 64, "f64": 64, "b128": 128, "pred": 1,
}


def type_bits(t: str) -> int:
    """Bit width of a PTX type name without the dot (``pred`` -> 1)."""
    return _TYPE_BITS[t]


_SPECIAL = re.compile(
    r"%(tid|ntid|ctaid|nctaid|clusterid|nclusterid|cluster_ctaid|cluster_nctaid)\.[xyz]$"
    r"|%(laneid|warpid|nwarpid|smid|nsmid|gridid|clock|clock64|clock_hi|globaltimer|globaltimer_lo|"
    r"globaltimer_hi|lanemask_eq|lanemask_le|lanemask_lt|lanemask_ge|lanemask_gt|cluster_ctarank|"
    r"cluster_nctarank|is_explicit_cluster|dynamic_smem_size|total_smem_size|aggr_smem_size)$"
    r"|%(envreg\d+|pm\d+|pm\d+_64)$"
)


def is_special_register(name: str) -> bool:
    return bool(_SPECIAL.match(name))


_BRANCH_OPCODES = ("bra", "brx")


# ------------------------------------------------------------------------ transformer
def _int_token(tok: Token) -> int:
    s = str(tok).rstrip("U")
    if s[:2] in ("0x", "0X"):
        return int(s[2:], 16)
    if s[:2] in ("0b", "0B"):
        return int(s[2:], 2)
    if len(s) > 1 and s[0] == "0":
        if any(c not in "01234567" for c in s):
            raise _PosError(f"invalid octal literal '{tok}'", tok)
        return int(s, 8)
    return int(s)


class _PosError(Exception):
    def __init__(self, message: str, tok) -> None:
        super().__init__(message)
        self.message = message
        self.tok = tok


@dataclass(frozen=True)
class _Name:
    """A register-or-symbol name before scope resolution."""

    text: str
    line: int
    column: int


@dataclass(frozen=True)
class _Entry:
    name: str
    params: tuple[Param, ...]
    statements: tuple
    entry: bool
    perf: tuple
    line: int


class _Build(Transformer):
    """Tree -> raw dataclasses (names unresolved: :class:`_Name` stands for Reg/Symbol)."""

    def __init__(self, text_lines: list[str]) -> None:
        super().__init__()
        self.lines = text_lines

    # --- scalars
    def signed_int(self, items):
        if len(items) == 2:
            return -_int_token(items[1])
        return _int_token(items[0])

    def signed_decimal(self, items):
        v = float(items[-1])
        return -v if len(items) == 2 else v

    def reg_name(self, items):
        tok = items[0]
        return _Name(str(tok), tok.line, tok.column)

    # --- operands
    def op_name(self, items):
        return items[0]

    def op_pair(self, items):
        return PredPair(items[0], items[1])  # resolved later

    def op_not(self, items):
        return Not(items[1])

    def op_int(self, items):
        return Imm(items[0])

    def op_float_hex(self, items):
        s = str(items[0])
        width = 32 if s[1] in "fF" else 64
        return FloatImm(int(s[2:], 16), width)

    def op_decimal(self, items):
        return FloatImm(int.from_bytes(struct.pack("<d", items[0]), "little"), 64)

    def op_vector(self, items):
        return Vector(tuple(items))

    def op_address(self, items):
        return items[0]

    def addr_name(self, items):
        return Address(items[0], 0)

    def addr_plus(self, items):
        return Address(items[0], items[1])

    def addr_minus(self, items):
        return Address(items[0], -_int_token(items[1]))

    def addr_abs(self, items):
        return Address(None, items[0])

    # --- statements
    def guard(self, items):
        negated = len(items) == 2
        return ("guard", items[-1], negated)

    def instruction(self, items):
        guard = None
        if items and isinstance(items[0], tuple) and items[0][0] == "guard":
            guard = items[0]
            items = items[1:]
        tok = items[0]
        operands = tuple(x for x in items[1:] if x is not None)
        parts = str(tok).split(".")
        line = guard[1].line if guard else tok.line
        col = guard[1].column - 1 - int(guard[2]) if guard else tok.column
        return ("ins", parts[0], tuple(parts[1:]), operands, guard, line, col, self._line(line))

    def label(self, items):
        tok = items[0]
        return Label(str(tok)[:-1], tok.line)

    def reg_item(self, items):
        name = items[0]
        count = _int_token(items[1]) if len(items) > 1 else None
        return (name, count)

    def reg_decl(self, items):
        for i in items:
            if isinstance(i, Token) and i.type == "VECTOR_KW":
                raise _PosError("vector registers (.reg .v2/.v4) are not supported", i)
        tok = items[0]
        t = str(tok)[1:]
        return ("regs", t, tuple(items[1:]), tok.line)

    def block(self, items):
        line = items[0].line if items and hasattr(items[0], "line") else 0
        return Block(tuple(i for i in items if i is not None), line)

    def body(self, items):
        return ("body", tuple(i for i in items if i is not None))

    def pragma(self, items):
        return None

    # --- declarations
    def linkages(self, items):
        return tuple(str(t)[1:] for t in items)

    def align(self, items):
        return ("align", _int_token(items[0]))

    def var_attr(self, items):
        return items[0]

    def dim(self, items):
        return _int_token(items[0]) if items else None

    def dims(self, items):
        return ("dims", tuple(items))

    def init_value(self, items):
        v = items[0]
        if isinstance(v, Token):
            if v.type == "FLOAT_HEX":
                return FloatImm(int(str(v)[2:], 16), 32 if str(v)[1] in "fF" else 64).value
            return str(v)
        return v

    def init(self, items):
        return ("init", tuple(items))

    def var_rest(self, items):
        space_tok = items[0]
        space = str(space_tok)[1:].split("::", 1)[0]
        align = None
        type_ = None
        name = None
        dims: tuple = ()
        init = None
        for it in items[1:]:
            if isinstance(it, Token) and it.type == "TYPE":
                type_ = str(it)[1:]
            elif isinstance(it, Token) and it.type == "NAME":
                name = it
            elif isinstance(it, Token) and it.type == "VECTOR_KW":
                raise _PosError("vector variables are not supported", it)
            elif isinstance(it, tuple) and it[0] == "align":
                align = it[1]
            elif isinstance(it, tuple) and it[0] == "dims":
                dims = it[1]
            elif isinstance(it, tuple) and it[0] == "init":
                init = it[1]
        if type_ is None or name is None:  # pragma: no cover - the grammar guarantees both
            raise _PosError("malformed variable declaration", space_tok)
        bits = type_bits(type_)
        return ("var", space, str(name), type_, align or max(1, bits // 8), dims, init, space_tok.line)

    def param_attr(self, items):
        if not items:
            return ("ptr",)
        it = items[0]
        if isinstance(it, tuple):
            return it
        return ("space", str(it)[1:].split("::", 1)[0])

    def param(self, items):
        pointer = False
        space = None
        align = None
        type_ = None
        name = None
        dims: tuple = ()
        for it in items:
            if isinstance(it, tuple) and it and it[0] == "ptr":
                pointer = True
            elif isinstance(it, tuple) and it and it[0] == "space":
                space = it[1]
            elif isinstance(it, tuple) and it and it[0] == "align":
                align = it[1]
            elif isinstance(it, Token) and it.type == "TYPE":
                type_ = str(it)[1:]
            elif isinstance(it, Token) and it.type == "NAME":
                name = str(it)
            elif isinstance(it, tuple) and it and it[0] == "dims":
                dims = it[1]
        return Param(name, type_, pointer, space, align, dims)

    def param_list(self, items):
        return ("params", tuple(p for p in items if p is not None))

    def perf(self, items):
        if not items or items[0] is None:
            return None
        tok = items[0]
        if tok.type == "PERF_FLAG":
            return ("perf", str(tok)[1:], ())
        return ("perf", str(tok)[1:], tuple(_int_token(t) for t in items[1:]))

    def entry_rest(self, items):
        return self._function(items, entry=True)

    def func_rest(self, items):
        return self._function(items, entry=False)

    def _function(self, items, *, entry: bool) -> "_Entry":
        name = next(i for i in items if isinstance(i, Token) and i.type == "NAME")
        after = items[items.index(name) + 1:]
        params = next((i[1] for i in after if isinstance(i, tuple) and i[0] == "params"), ())
        body = next((i[1] for i in after if isinstance(i, tuple) and i[0] == "body"), ())
        perf = tuple((i[1], i[2]) for i in after if isinstance(i, tuple) and i[0] == "perf")
        return _Entry(str(name), params, body, entry, perf, name.line)

    def decl(self, items):
        link, rest = items
        if isinstance(rest, _Entry):
            return rest
        _, space, name, type_, align, dims, init, line = rest
        return VarDecl(space, name, type_, align, dims, "extern" in link, "visible" in link, init, line)

    def local_decl(self, items):
        return self.decl(items)

    def version(self, items):
        return ("version", str(items[0]))

    def target(self, items):
        return ("target", tuple(str(t) for t in items))

    def address_size(self, items):
        return ("address_size", _int_token(items[0]))

    def _line(self, n: int) -> str:
        return self.lines[n - 1].strip() if 0 < n <= len(self.lines) else ""


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = resources.files("ltc.lowering.ptxsim").joinpath("ptx.lark").read_text()
    return Lark(grammar, parser="lalr", lexer="contextual", propagate_positions=False, maybe_placeholders=True)


# ------------------------------------------------------------------------ resolution
class _Resolver:
    """Scope-aware name resolution and static checks over one kernel body."""

    def __init__(self, kernel_name: str, module_symbols: set[str], params: tuple[Param, ...], lines: list[str],
                 filename: str) -> None:
        self.kernel_name = kernel_name
        self.symbols = set(module_symbols) | {p.name for p in params}
        self.lines = lines
        self.filename = filename
        self.scopes: list[dict[str, str]] = []
        self.labels: dict[str, int] = {}
        self.branches: list[tuple[str, int, int]] = []

    def error(self, message: str, line: int, column: int) -> PtxSyntaxError:
        src = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return PtxSyntaxError(message, line, column, src, self.filename)

    def lookup(self, name: str) -> bool:
        return any(name in s for s in self.scopes)

    def resolve(self, n, *, value: bool = True):
        if isinstance(n, _Name):
            if n.text == "_":
                return Sink()
            if self.lookup(n.text):
                return Reg(n.text)
            if n.text.startswith("%"):
                if is_special_register(n.text):
                    return Reg(n.text)
                raise self.error(f"undeclared register '{n.text}'", n.line, n.column)
            return Symbol(n.text)
        if isinstance(n, PredPair):
            return PredPair(self.resolve(n.first), self.resolve(n.second))
        if isinstance(n, Not):
            r = self.resolve(n.reg)
            if not isinstance(r, Reg):
                raise self.error("'!' applies to a predicate register", n.reg.line, n.reg.column)
            return Not(r)
        if isinstance(n, Vector):
            return Vector(tuple(self.resolve(e) for e in n.elements))
        if isinstance(n, Address):
            return Address(self.resolve(n.base) if n.base is not None else None, n.offset)
        return n

    def body(self, raw: tuple) -> tuple:
        self.scopes.append({})
        out = []
        # Declarations are visible in the whole scope (PTX allows use before the
        # .reg line only in practice never; we still collect first for simplicity).
        for item in raw:
            if isinstance(item, tuple) and item and item[0] == "regs":
                _, t, regs, line = item
                for name, count in regs:
                    for full in ([name.text] if count is None else [f"{name.text}{i}" for i in range(count)]):
                        if full in self.scopes[-1]:
                            raise self.error(f"register '{full}' declared twice in one scope", name.line, name.column)
                        self.scopes[-1][full] = t
        for item in raw:
            if isinstance(item, tuple) and item and item[0] == "regs":
                _, t, regs, line = item
                for name, count in regs:
                    out.append(RegDecl(t, name.text, count, line))
            elif isinstance(item, tuple) and item and item[0] == "ins":
                out.append(self.instruction(item))
            elif isinstance(item, Label):
                if item.name in self.labels:
                    raise self.error(f"label '{item.name}' defined twice", item.line, 1)
                self.labels[item.name] = item.line
                out.append(item)
            elif isinstance(item, Block):
                out.append(Block(self.body(item.statements), item.line))
            elif isinstance(item, VarDecl):
                self.symbols.add(item.name)
                out.append(item)
        self.scopes.pop()
        return tuple(out)

    def instruction(self, raw) -> Instruction:
        _, opcode, mods, operands, guard, line, col, source = raw
        g = None
        if guard is not None:
            r = self.resolve(guard[1])
            if not isinstance(r, Reg):
                raise self.error(f"guard '{guard[1].text}' is not a register", guard[1].line, guard[1].column)
            g = Guard(r, guard[2])
        ops = tuple(self.resolve(o) for o in operands)
        if opcode in _BRANCH_OPCODES and ops and isinstance(ops[-1], Symbol):
            self.branches.append((ops[-1].name, line, col))
        return Instruction(opcode, mods, ops, g, line, col, source)

    def check_branches(self) -> None:
        for name, line, col in self.branches:
            if name not in self.labels:
                raise self.error(f"branch to undefined label '{name}'", line, col)


def parse_ptx(text: str, filename: str = "<ptx>") -> PtxModule:
    """Parse PTX ``text``; raises :class:`PtxSyntaxError` (with line:col) on bad input."""
    lines = text.splitlines()
    try:
        tree = _parser().parse(text)
        items = _Build(lines).transform(tree).children
    except UnexpectedInput as e:
        raise _syntax_error(e, lines, filename) from None
    except _PosError as e:
        raise _token_error(e, lines, filename) from None
    except Exception as e:  # lark wraps transformer errors in VisitError
        inner = getattr(e, "orig_exc", None)
        if isinstance(inner, _PosError):
            raise _token_error(inner, lines, filename) from None
        raise

    version = None
    target: tuple[str, ...] = ()
    address_size = None
    variables: list[VarDecl] = []
    entries: list[_Entry] = []
    for it in items:
        if it is None or isinstance(it, Token):
            continue
        if isinstance(it, tuple) and it[0] == "version":
            version = it[1]
        elif isinstance(it, tuple) and it[0] == "target":
            target = it[1]
        elif isinstance(it, tuple) and it[0] == "address_size":
            address_size = it[1]
        elif isinstance(it, VarDecl):
            variables.append(it)
        elif isinstance(it, _Entry):
            entries.append(it)

    seen: set[str] = set()
    for v in variables:
        if v.name in seen:
            raise PtxSyntaxError(f"variable '{v.name}' declared twice", v.line, 1, _src(lines, v.line), filename)
        seen.add(v.name)
    module_symbols = seen | {e.name for e in entries}
    kernels = []
    for e in entries:
        res = _Resolver(e.name, module_symbols, e.params, lines, filename)
        stmts = res.body(e.statements)
        res.check_branches()
        perf = dict(e.perf)
        kernels.append(
            Kernel(
                name=e.name,
                params=e.params,
                statements=stmts,
                entry=e.entry,
                reqntid=perf.get("reqntid"),
                maxntid=perf.get("maxntid"),
                line=e.line,
            )
        )
    return PtxModule(version, target, address_size, tuple(variables), tuple(kernels))


def _src(lines: list[str], line: int) -> str:
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _syntax_error(e: UnexpectedInput, lines: list[str], filename: str) -> PtxSyntaxError:
    line = getattr(e, "line", None) or len(lines)
    column = getattr(e, "column", None) or 1
    if isinstance(e, UnexpectedEOF) or line < 1:
        line = max(1, len(lines))
        column = len(lines[-1]) + 1 if lines else 1
        return PtxSyntaxError("unexpected end of input", line, column, _src(lines, line), filename)
    if isinstance(e, UnexpectedCharacters):
        ch = e.char if hasattr(e, "char") else "?"
        msg = f"unexpected character '{ch}'"
    elif isinstance(e, UnexpectedToken):
        tok = e.token
        if tok.type == "$END":
            line = max(1, len(lines))
            column = len(lines[-1]) + 1 if lines else 1
            return PtxSyntaxError("unexpected end of input", line, column, _src(lines, line), filename)
        expected = sorted(_pretty(x) for x in e.expected)
        msg = f"unexpected '{tok}'"
        if len(expected) <= 6:
            msg += f" (expected {', '.join(expected)})"
    else:  # pragma: no cover
        msg = "syntax error"
    return PtxSyntaxError(msg, line, column, _src(lines, line), filename)


def _token_error(e: _PosError, lines: list[str], filename: str) -> PtxSyntaxError:
    line = getattr(e.tok, "line", 1) or 1
    col = getattr(e.tok, "column", 1) or 1
    return PtxSyntaxError(e.message, line, col, _src(lines, line), filename)


_PRETTY = {
    "SEMICOLON": "';'", "COMMA": "','", "LBRACE": "'{'", "RBRACE": "'}'", "LSQB": "'['", "RSQB": "']'",
    "LPAR": "'('", "RPAR": "')'", "OPCODE": "an instruction", "REG": "a register", "NAME": "a name",
    "INT": "an integer", "TYPE": "a type", "LABEL": "a label", "MINUS": "'-'", "BANG": "'!'",
    "VBAR": "'|'", "PLUS": "'+'", "AT": "'@'", "LESSTHAN": "'<'", "MORETHAN": "'>'", "EQUAL": "'='",
}


def _pretty(name: str) -> str:
    return _PRETTY.get(name, name.lower() if not name.startswith("__") else name)
