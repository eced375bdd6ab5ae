"""32-bit words of 8/16-bit elements, built with byte permutes (``prmt``) and taken apart.

An element that was unpacked from a word is known by its *origin*: the word and the
element's index in it (the builder records it for every element it unpacks; this module
records the same for the elements it unpacks). A word of such elements is built from the
distinct *units* its bytes come from:

* an i32 word, as it is;
* a 16-bit word (a ``ld.global.b16`` of two bytes, or a fresh 16-bit element): two of them,
  paired in order of first use (or as an earlier word paired them), are one
  ``mov.b32 {lo, hi}``; an unpaired one is zero-extended;
* a fresh 8-bit element, zero-extended;

then one ``prmt`` per unit after the first; none when the word is one unit with its bytes
in order. A word may also be chosen per thread among several byte arrangements of the same
units (:meth:`WordPacker.pack_choice`): the ``prmt`` selectors are then thread-dependent
registers (the caller muxes them), the units the same. Units and permutes are made once
per packer. Unpacking is the builder's (:meth:`ThreadBuilder.unpack`: bytes by ``prmt``,
origins recorded, so that packing the same elements in order gives the word back).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import IntegerType, i1, i32
from xdsl.ir import Attribute, SSAValue

from ltc.lowering.llvm.builder import ThreadBuilder, bit_width

__all__ = ["Selector", "WordPacker", "packable"]

i16 = IntegerType(16)

UnitKey = tuple[object, ...]
"""``("w", word)``, ``("pair", lo, hi)`` (two 16-bit values) or ``("zext", value)``."""
Selector = int | SSAValue
"""A ``prmt`` selector: an immediate, or a register chosen per thread."""


def packable(t: Attribute) -> bool:
    """Whether elements of type ``t`` are packed by a :class:`WordPacker` (8/16-bit, not i1)."""
    return t != i1 and bit_width(t) in (8, 16)


def _origin(b: ThreadBuilder, v: SSAValue) -> tuple[SSAValue, int, int] | None:
    """``(word, index, count)`` when ``v`` was unpacked from ``word`` (the builder's record,
    which it repacks from too)."""
    return b.unpacked_from(v)


def _remember(b: ThreadBuilder, v: SSAValue, word: SSAValue, k: int, count: int) -> None:
    """Record ``v`` as element ``k`` of ``count`` unpacked from ``word`` (as ThreadBuilder.unpack does)."""
    b.record_unpacked(v, word, k, count)


class WordPacker:
    """Packs elements into i32 words and unpacks them, sharing work across words."""

    def __init__(self, b: ThreadBuilder) -> None:
        self.b = b
        self._units: dict[UnitKey, SSAValue] = {}
        self._permutes: dict[tuple[SSAValue, SSAValue, object], SSAValue] = {}

    # -- where the bytes of a word come from ------------------------------------------------
    def _byte_sources(self, v: SSAValue) -> list[tuple[UnitKey, int]]:
        """Per byte of element ``v``: (``("w", word)`` | ``("h", half)`` | ``("z", v)``, byte)."""
        nbytes = bit_width(v.type) // 8
        o = _origin(self.b, v)
        if o is not None and o[0].type in (i32, i16):
            word, k, _ = o
            kind = "w" if o[0].type == i32 else "h"
            return [((kind, word), k * nbytes + t) for t in range(nbytes)]
        if nbytes == 2:
            return [(("h", v), 0), (("h", v), 1)]
        return [(("z", v), 0)]

    def _pair_of(self, half: object) -> UnitKey | None:
        for key in self._units:
            if key[0] == "pair" and any(h is half for h in key[1:]):
                return key
        return None

    def _layout(self, words: Sequence[Sequence[SSAValue]]) -> tuple[list[UnitKey], list[list[tuple[int, int]]]]:
        """The units all ``words`` draw from, and per word per byte (unit index, byte)."""
        sources = [[s for v in w for s in self._byte_sources(v)] for w in words]
        halves = list(dict.fromkeys(k for src in sources for k, _ in src if k[0] == "h"))
        place: dict[object, tuple[UnitKey, int]] = {}  # a 16-bit word -> (unit, byte offset)
        fresh: list[object] = []
        for h in halves:
            pair = self._pair_of(h[1])
            if pair is not None:
                place[h] = (pair, 0 if pair[1] is h[1] else 2)
            else:
                fresh.append(h)
        for i in range(0, len(fresh) - 1, 2):
            pair = ("pair", fresh[i][1], fresh[i + 1][1])
            place[fresh[i]], place[fresh[i + 1]] = (pair, 0), (pair, 2)
        if len(fresh) % 2:
            place[fresh[-1]] = (("zext", fresh[-1][1]), 0)
        units: list[UnitKey] = []
        targets: list[list[tuple[int, int]]] = []
        for src in sources:
            row = []
            for key, byte in src:
                if key[0] == "h":
                    unit, off = place[key]
                    byte += off
                elif key[0] == "z":
                    unit = ("zext", key[1])
                else:
                    unit = key
                if unit not in units:
                    units.append(unit)
                row.append((units.index(unit), byte))
            targets.append(row)
        return units, targets

    def _unit(self, key: UnitKey) -> SSAValue:
        if key not in self._units:
            b = self.b
            if key[0] == "w":
                self._units[key] = key[1]  # type: ignore[assignment]
            elif key[0] == "pair":
                halves = [b.to_bits(h) for h in key[1:]]  # type: ignore[arg-type]
                (self._units[key],) = b.asm("mov.b32 $0, {$1, $2};", "=r,h,h", halves, [i32])
            else:
                self._units[key] = b.cast("zext", b.to_bits(key[1]), i32)  # type: ignore[arg-type]
        return self._units[key]

    def _unit_cost(self, key: UnitKey) -> int:
        return 0 if key[0] == "w" or key in self._units else 1

    # -- permutes -------------------------------------------------------------------------------
    def permute(self, a: SSAValue, b: SSAValue, selector: Selector) -> SSAValue:
        """``prmt.b32 a, b, selector`` (made once per operands and selector)."""
        key = (a, b, selector)
        if key not in self._permutes:
            if isinstance(selector, int):
                (r,) = self.b.asm(f"prmt.b32 $0, $1, $2, {selector:#06x};", "=r,r,r", [a, b], [i32])
            else:
                (r,) = self.b.asm("prmt.b32 $0, $1, $2, $3;", "=r,r,r,r", [a, b, selector], [i32])
            self._permutes[key] = r
        return self._permutes[key]

    @staticmethod
    def _steps(targets: list[tuple[int, int]], nunits: int) -> list[tuple[int, int]]:
        """The selector of each ``prmt`` of the chain: step 0 permutes units 0 and 1 (or 0
        with itself), step s ≥ 1 the accumulator with unit s + 1. Returns [(selector, step)]."""
        sels = []
        first = sum(
            ((byte if u == 0 else 4 + byte if u == 1 else 0) << (4 * i)) for i, (u, byte) in enumerate(targets)
        )
        sels.append(first)
        for s in range(2, nunits):
            sels.append(sum(((4 + byte if u == s else i) << (4 * i)) for i, (u, byte) in enumerate(targets)))
        return [(sel, k) for k, sel in enumerate(sels)]

    @staticmethod
    def _identity(targets: list[tuple[int, int]]) -> bool:
        return targets == [(0, 0), (0, 1), (0, 2), (0, 3)]

    # -- packing -------------------------------------------------------------------------------
    def _chain_cost(self, units: list[UnitKey], targets: list[tuple[int, int]]) -> int:
        """New permutes :meth:`pack` makes for ``targets`` over existing or new ``units``."""
        steps = self._steps(targets, len(units))
        if len(units) == 1 and self._identity(targets):
            return 0
        if not all(k[0] == "w" or k in self._units for k in units):
            return len(steps)
        us = [self._unit(k) for k in units]
        acc: SSAValue | None = None
        for n, (sel, k) in enumerate(steps):
            a, b = (us[0], us[1] if len(us) > 1 else us[0]) if k == 0 else (acc, us[k + 1])
            acc = self._permutes.get((a, b, sel))  # type: ignore[arg-type]
            if acc is None:
                return len(steps) - n
        return 0

    def cost(self, values: Sequence[SSAValue]) -> int:
        """New instructions :meth:`pack` would make for ``values``."""
        units, (targets,) = self._layout([values])
        return sum(self._unit_cost(u) for u in units) + self._chain_cost(units, targets)

    def pack(self, values: Sequence[SSAValue]) -> SSAValue:
        """An i32 of ``values`` (8-bit: four, 16-bit: two), low element first."""
        units, (targets,) = self._layout([values])
        us = [self._unit(k) for k in units]
        if len(us) == 1 and self._identity(targets):
            return us[0]
        return self._chain(us, [sel for sel, _ in self._steps(targets, len(us))])

    def _chain(self, us: Sequence[SSAValue], selectors: Sequence[Selector]) -> SSAValue:
        """Units ``us`` permuted into one word: step 0 permutes units 0 and 1 (or 0 with
        itself), step k > 0 the word so far with unit k + 1."""
        acc: SSAValue | None = None
        for k, sel in enumerate(selectors):
            if k == 0:
                acc = self.permute(us[0], us[1] if len(us) > 1 else us[0], sel)
            else:
                acc = self.permute(acc, us[k + 1], sel)  # type: ignore[arg-type]
        assert acc is not None
        return acc

    def choice_cost(self, options: Sequence[Sequence[SSAValue]], selector_cost: Callable[[tuple[int, ...]], int]) -> int:
        """New instructions :meth:`pack_choice` would make."""
        units, targets = self._layout(options)
        new = sum(self._unit_cost(u) for u in units)
        steps = [self._steps(t, len(units)) for t in targets]
        for k in range(len(steps[0])):
            sels = tuple(s[k][0] for s in steps)
            new += 1 + (selector_cost(sels) if len(set(sels)) > 1 else 0)
        return new

    def pack_choice(
        self, options: Sequence[Sequence[SSAValue]], selector: Callable[[tuple[int, ...]], SSAValue]
    ) -> SSAValue:
        """The word ``pack(options[q])`` for this thread's ``q``, as one chain of permutes of
        the units of all options whose selectors are ``selector(per-q selectors)``."""
        units, targets = self._layout(options)
        us = [self._unit(k) for k in units]
        steps = [self._steps(t, len(us)) for t in targets]
        chosen: list[Selector] = []
        for k in range(len(steps[0])):
            sels = tuple(s[k][0] for s in steps)
            chosen.append(sels[0] if len(set(sels)) == 1 else selector(sels))
        return self._chain(us, chosen)
