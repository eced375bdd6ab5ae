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
from functools import lru_cache

import numpy as np

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


@lru_cache(maxsize=4096)
def strip_register_broadcast(layout: LinearLayout) -> RegisterBroadcast:
    """Split ``layout``'s register dim into independent bases and duplicates (see module doc)."""
    bases = layout.bases["register"]
    cols = layout.flat_columns_by_in_dim()["register"]
    echelon = f2.ColumnEchelon()
    kept_bits: list[int] = []
    for i, c in enumerate(cols):
        if echelon.add(c):
            kept_bits.append(i)
    stripped_bases = dict(layout.bases)
    stripped_bases["register"] = [bases[i] for i in kept_bits]
    stripped = LinearLayout.from_bases(stripped_bases, layout.out_dims)
    kept = _span_table([1 << b for b in kept_bits])
    # Element of register r (lane 0, warp 0), for every r; the kept registers hold
    # distinct elements, so sorting them finds each register's canonical one.
    images = _span_table(cols)
    kept_images = images[kept]
    order = np.argsort(kept_images, kind="stable")
    canonical = kept[order][np.searchsorted(kept_images[order], images)]
    return RegisterBroadcast(layout, stripped, tuple(kept_bits), tuple(kept.tolist()), tuple(canonical.tolist()))


def _span_table(cols: list[int]) -> np.ndarray:
    """``t[x]`` = XOR of ``cols[i]`` over the set bits ``i`` of ``x``, for every ``x``."""
    t = np.zeros(1 << len(cols), dtype=np.int64)
    for i, c in enumerate(cols):
        t[1 << i : 2 << i] = t[: 1 << i] ^ c
    return t
