"""What a PTX kernel's pointer parameters point to, read off how the kernel uses them.

PTX has no pointee types: a pointer parameter is a ``.u64``. The element type shows in
the instructions instead. A register holding ``param + offset`` (``ld.param``, then
``add``/``sub``/``mov``/``cvta``/``mad`` chains) is the address of a global access; the
access's own type says the element when it is typed (``ld.global.f32``, ``atom.add.f32``).
Bit-typed accesses (``ld.global.v4.b32``: what Triton and ltc emit) are followed a few
steps through the data registers: forward from a load to its uses, backward from a store
to its definitions, through copies (``mov.bN``) and packing (``mov.b32 {a, b}``), up to
an instruction of a typed class (``add.f32``, ``cvt.f32.f16``, ``setp.lt.s32``, ...).

:func:`pointee_types` gives, per pointer parameter, the element evidence found: a set
of :class:`Element`. Exactly one element is a reliable answer; none means the kernel
only moves bits (a copy) or does not touch the pointer; several mean conflicting uses.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from ltc.lowering.ptxsim.parse import Address, Instruction, Kernel, Reg, Vector

__all__ = ["Element", "pointee_types"]

_FOLLOW_STEPS = 4
"""How many copies/packs a bit-typed value is followed through (a cvt or an arithmetic op
is usually one or two steps from the load or store)."""

_POINTER_MOVES = frozenset({"add", "sub", "mov", "cvta", "mad"})
_NO_DESTINATION = frozenset({"st", "red", "bar", "bra", "ret", "exit", "membar", "fence", "stmatrix", "prefetch"})
_BIT_OPS = frozenset({"and", "or", "xor", "not", "shl", "shr", "prmt", "bfe", "bfi", "selp", "shf", "lop3", "mov"})


@dataclass(frozen=True, order=True)
class Element:
    """An element type as PTX spells it: ``kind`` ``f`` (IEEE float), ``bf`` (bfloat16)
    or ``i`` (integer of either signedness), of ``bits`` bits."""

    kind: str
    bits: int

    def __str__(self) -> str:
        return {"f": f"f{self.bits}", "bf": "bf16", "i": f"i{self.bits}"}[self.kind]


def _type_of(token: str) -> Element | None:
    """The element of one PTX type token (``f16x2`` is two ``f16``); None for bit types."""
    base = token[:-2] if token.endswith("x2") else token
    if base == "bf16":
        return Element("bf", 16)
    if base in ("f16", "f32", "f64"):
        return Element("f", int(base[1:]))
    if base[:1] in ("s", "u") and base[1:] in ("8", "16", "32", "64"):
        return Element("i", int(base[1:]))
    return None


def _types(ins: Instruction) -> list[str]:
    return [m for m in ins.modifiers if m[:1] in "bfsu" and m[1:2].isdigit() or m in ("bf16", "bf16x2", "pred")]


def _regs(op: object) -> list[str]:
    if isinstance(op, Reg):
        return [op.name]
    if isinstance(op, Vector):
        return [e.name for e in op.elements if isinstance(e, Reg)]
    return []


def _dest_and_sources(ins: Instruction) -> tuple[list[str], list[str]]:
    ops = ins.operands
    if ins.opcode in _NO_DESTINATION or not ops:
        return [], [r for op in ops for r in _regs(op)]
    return _regs(ops[0]), [r for op in ops[1:] for r in _regs(op)]


def _element_here(ins: Instruction, reg: str, as_source: bool) -> Element | None:
    """The element type ``ins`` gives ``reg`` (one of its sources, or its destination)."""
    types = _types(ins)
    if not types or ins.opcode in ("ld", "st", "atom", "red", "mov"):  # a mov only copies bits
        return None
    if ins.opcode == "cvt":
        return _type_of(types[-1] if as_source else types[0])
    if ins.opcode in ("mul", "mad") and "wide" in ins.modifiers:
        return _type_of(types[0]) if as_source else None
    if ins.opcode in ("setp", "set") and not as_source:
        return None
    if ins.opcode in _BIT_OPS and types[0].startswith("b"):
        return None
    return _type_of(types[0])


class _Uses:
    """Definitions and uses of every register of one kernel."""

    def __init__(self, instructions: list[Instruction]) -> None:
        self.defs: dict[str, list[Instruction]] = defaultdict(list)
        self.uses: dict[str, list[Instruction]] = defaultdict(list)
        for ins in instructions:
            dst, src = _dest_and_sources(ins)
            for r in dst:
                self.defs[r].append(ins)
            for r in src:
                self.uses[r].append(ins)


def _copy_targets(ins: Instruction, reg: str, forward: bool) -> list[str]:
    """Registers that carry ``reg``'s bits on through a copy or a pack/unpack ``mov``."""
    if ins.opcode != "mov" or len(ins.operands) != 2:
        return []
    dst, src = ins.operands
    if forward and reg in _regs(src):
        return _regs(dst)
    if not forward and reg in _regs(dst):
        return _regs(src)
    return []


def _follow(uses: _Uses, regs: Iterable[str], forward: bool) -> set[Element]:
    """Elements met following ``regs`` forward to their uses (or back to their defs)."""
    found: set[Element] = set()
    seen: set[str] = set()
    frontier = list(regs)
    for _ in range(_FOLLOW_STEPS):
        nxt: list[str] = []
        for reg in frontier:
            if reg in seen:
                continue
            seen.add(reg)
            for ins in (uses.uses if forward else uses.defs).get(reg, ()):
                copied = _copy_targets(ins, reg, forward)
                if copied:
                    nxt += copied
                    continue
                e = _element_here(ins, reg, as_source=forward)
                if e is not None:
                    found.add(e)
        frontier = nxt
    return found


def _pointer_sources(instructions: list[Instruction], params: dict[str, int]) -> dict[str, int]:
    """Registers that hold ``parameter + offset``, by parameter index (one pass per loop
    nesting would do; iterate to a fixed point)."""
    origin: dict[str, int] = {}
    changed = True
    while changed:
        changed = False
        for ins in instructions:
            dst, src = _dest_and_sources(ins)
            if len(dst) != 1 or dst[0] in origin:
                continue
            got: set[int] = set()
            if ins.opcode == "ld" and "param" in ins.modifiers and isinstance(ins.operands[1], Address):
                base = ins.operands[1].base
                if base is not None and base.name in params:
                    got.add(params[base.name])
            elif ins.opcode in _POINTER_MOVES and (
                _types(ins)[-1:] in (["u64"], ["s64"], ["b64"]) or "wide" in ins.modifiers
            ):
                got = {origin[r] for r in src if r in origin}
            if len(got) == 1:
                origin[dst[0]] = got.pop()
                changed = True
    return origin


def pointee_types(kernel: Kernel) -> dict[int, set[Element]]:
    """Per pointer-sized parameter index, the element types its global accesses show."""
    instructions = list(kernel.instructions())
    params = {p.name: i for i, p in enumerate(kernel.params) if p.type in ("u64", "b64", "s64") and not p.dims}
    origin = _pointer_sources(instructions, params)
    uses = _Uses(instructions)
    found: dict[int, set[Element]] = {i: set() for i in params.values()}
    for ins in instructions:
        if ins.opcode not in ("ld", "st", "atom", "red") or "param" in ins.modifiers or "shared" in ins.modifiers:
            continue
        address = next((op for op in ins.operands if isinstance(op, Address)), None)
        if address is None or not isinstance(address.base, Reg) or address.base.name not in origin:
            continue
        param = origin[address.base.name]
        types = _types(ins)
        e = _type_of(types[-1]) if types else None
        if e is not None:
            found[param].add(e)
            continue
        if ins.opcode == "ld":
            found[param] |= _follow(uses, _regs(ins.operands[0]), forward=True)
        elif ins.opcode == "st":
            data = [r for op in ins.operands if not isinstance(op, Address) for r in _regs(op)]
            found[param] |= _follow(uses, data, forward=False)
    return found
