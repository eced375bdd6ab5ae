"""Broadcast registers: the registers of a thread that repeat an element it already holds.

A register basis that lies in the span of the earlier register bases (a *free
variable* of the register dim: zero, or a sum of earlier ones) only duplicates
data inside the thread. Planning works on the layout with those bases removed
(the *stripped* layout); the destination's duplicates are then filled by moves
from their canonical register, and a source's duplicates are simply never read.

Because the layout is linear, which kept register repeats register ``r`` does
not depend on the thread; it is computed once per layout as the table
``canonical``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ltc import f2
from ltc.linear_layout import LinearLayout
from ltc.lowering.plans.plan import Move, Reg

__all__ = ["RegisterBroadcast", "strip_register_broadcast"]


@dataclass(frozen=True)
class RegisterBroadcast:
    """A layout split into its non-broadcast registers and the duplicates.

    ``stripped``: the layout without the free register bases. ``kept[i]``: the
    original register index of stripped register ``i`` (the free bits are 0).
    ``canonical[r]``: the kept original register holding the same element as
    register ``r`` in every thread.
    """

    layout: LinearLayout
    stripped: LinearLayout
    kept_bits: tuple[int, ...]
    kept: tuple[int, ...]
    canonical: tuple[int, ...]

    def restore_moves(self, file: str = "dst") -> tuple[Move, ...]:
        """Moves that fill every duplicate register of ``file`` from its canonical one."""
        kept = set(self.kept)
        return tuple(
            Move(Reg(file, r), Reg(file, c)) for r, c in enumerate(self.canonical) if r not in kept
        )


def strip_register_broadcast(layout: LinearLayout) -> RegisterBroadcast:
    """Split ``layout``'s register dim into independent bases and duplicates (see module doc)."""
    bases = layout.bases["register"]
    n = len(bases)
    cols = layout.flat_columns_by_in_dim()["register"]
    echelon = f2.ColumnEchelon()
    kept_bits: list[int] = []
    for i, c in enumerate(cols):
        if echelon.add(c):
            kept_bits.append(i)
    stripped_bases = dict(layout.bases)
    stripped_bases["register"] = [bases[i] for i in kept_bits]
    stripped = LinearLayout.from_bases(stripped_bases, layout.out_dims)
    kept = tuple(sum(1 << kept_bits[j] for j in range(len(kept_bits)) if i >> j & 1) for i in range(1 << len(kept_bits)))
    # Element of register r (lane 0, warp 0) -> the kept register holding it.
    value_to_kept = {}
    for r in kept:
        value_to_kept[f2.apply_columns(cols, r)] = r
    canonical = tuple(value_to_kept[f2.apply_columns(cols, r)] for r in range(1 << n))
    return RegisterBroadcast(layout, stripped, tuple(kept_bits), kept, canonical)
