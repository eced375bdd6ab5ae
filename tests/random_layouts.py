"""Seeded random pairs of distributed layouts of one tensor, for property tests and sweeps.

``random_layout_pair(rng)`` draws an element width (8/16/32/64 bits), a warp
count (1–8) and one of several families:

* ``encoded``: two Triton encodings (blocked, mma v2/v3, dot_op, slice,
  linear) of one tensor, built from attribute texts like a user would write;
* ``linear``: two independent random linear layouts (broadcast anywhere);
* ``warp_local``: the destination mixes the source's register and lane bits
  within each warp (so shuffles can serve), warps offset by such data;
* ``thread_local``: the destination reorders each thread's registers, possibly
  depending on the lane (register permutations / selects);
* ``same``: the destination is the source, possibly written differently.

Layouts are plain :class:`LinearLayout` values; broadcast columns are zero or
sums of other columns, so every layout covers the tensor (is surjective).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ltc import f2, to_linear_layout
from ltc.linear_layout import LinearLayout

FAMILIES = ("encoded", "linear", "warp_local", "thread_local", "same")
LANE_BITS = 5


@dataclass(frozen=True)
class LayoutPair:
    src: LinearLayout
    dst: LinearLayout
    element_bits: int
    family: str
    description: str


def distributed(reg, lane, warp, out_dims: dict[str, int]) -> LinearLayout:
    """A one-CTA distributed layout from lists of register, lane and warp bases (each a list of ints)."""
    return LinearLayout.from_bases(
        {
            "register": [list(b) for b in reg],
            "lane": [list(b) for b in lane],
            "warp": [list(b) for b in warp],
            "block": [],
        },
        out_dims,
    )


def _random_invertible(rng: np.random.Generator, basis: list[int]) -> list[int]:
    """A random basis of span(basis)."""
    while True:
        out = [_random_member(rng, basis) for _ in basis]
        if f2.rank(out) == len(basis):
            return out


def _spread_columns(rng: np.random.Generator, basis: list[int], slots: int, zero_bias: float = 0.6) -> list[int]:
    """``slots`` columns spanning exactly span(basis): a random basis placed in
    random slots, the other slots zero (broadcast) or random sums (duplication)."""
    assert slots >= len(basis)
    cols = [0] * slots
    independent = sorted(rng.choice(slots, size=len(basis), replace=False).tolist())
    for s, v in zip(independent, _random_invertible(rng, basis)):
        cols[s] = v
    for s in range(slots):
        if s not in independent and rng.random() > zero_bias:
            cols[s] = _random_member(rng, basis)
    return cols


def _layout(out_dims: dict[str, int], reg: list[int], lane: list[int], warp: list[int]) -> LinearLayout:
    shifts, sizes = [], []
    sh = 0
    for n, s in out_dims.items():
        shifts.append(sh)
        sizes.append(s)
        sh += s.bit_length() - 1

    def split(v: int) -> list[int]:
        return [(v >> a) & (s - 1) for a, s in zip(shifts, sizes)]

    return distributed(
        [split(c) for c in reg], [split(c) for c in lane], [split(c) for c in warp], out_dims
    )


def _columns(layout: LinearLayout) -> dict[str, list[int]]:
    return {d: list(c) for d, c in layout.flat_columns_by_in_dim().items()}


def _random_shape(rng: np.random.Generator, warps: int) -> dict[str, int]:
    total_bits = int(rng.integers(LANE_BITS + warps.bit_length() - 1 - 1, 12))
    total_bits = max(total_bits, 3)
    a = int(rng.integers(0, total_bits + 1))
    return {"dim0": 1 << a, "dim1": 1 << (total_bits - a)}


def random_linear_layout(rng: np.random.Generator, out_dims: dict[str, int], warps: int) -> LinearLayout:
    n = sum(s.bit_length() - 1 for s in out_dims.values())
    w = warps.bit_length() - 1
    regs = max(0, n - LANE_BITS - w) + int(rng.integers(0, 3))
    cols = _spread_columns(rng, [1 << i for i in range(n)], regs + LANE_BITS + w)
    return _layout(out_dims, cols[:regs], cols[regs : regs + LANE_BITS], cols[regs + LANE_BITS :])


def _warp_local_variant(rng: np.random.Generator, src: LinearLayout) -> LinearLayout:
    cols = _columns(src)
    inner = f2.echelon_basis(cols["register"] + cols["lane"])
    regs = max(0, len(inner) - LANE_BITS) + int(rng.integers(0, 3))
    rl = _spread_columns(rng, inner, regs + LANE_BITS)
    warp = [c ^ _random_member(rng, inner) for c in cols["warp"]]
    return _layout(src.out_dims, rl[:regs], rl[regs:], warp)


def _thread_local_variant(rng: np.random.Generator, src: LinearLayout) -> LinearLayout:
    cols = _columns(src)
    inner = f2.echelon_basis(cols["register"])
    regs = len(inner) + int(rng.integers(0, 2))
    reg = _spread_columns(rng, inner, regs) if regs else []
    lane_dep = rng.random() < 0.4
    lane = [c ^ (_random_member(rng, inner) if lane_dep else 0) for c in cols["lane"]]
    warp = [c ^ (_random_member(rng, inner) if lane_dep else 0) for c in cols["warp"]]
    return _layout(src.out_dims, reg, lane, warp)


def _random_member(rng: np.random.Generator, basis: list[int]) -> int:
    v = 0
    for b in basis:
        if rng.integers(2):
            v ^= b
    return v


# ----------------------------------------------------------- Triton encodings
def _pow2_split(rng: np.random.Generator, total_log2: int) -> tuple[int, int]:
    a = int(rng.integers(0, total_log2 + 1))
    return 1 << a, 1 << (total_log2 - a)


def _blocked(rng: np.random.Generator, warps: int) -> str:
    spt = [1 << int(rng.integers(0, 4)), 1 << int(rng.integers(0, 4))]
    tpw = _pow2_split(rng, LANE_BITS)
    wpc = _pow2_split(rng, warps.bit_length() - 1)
    order = [1, 0] if rng.integers(2) else [0, 1]
    return (
        f"#ttg.blocked<{{sizePerThread = {spt}, threadsPerWarp = {list(tpw)}, "
        f"warpsPerCTA = {list(wpc)}, order = {order}}}>"
    )


def _mma_v2(rng: np.random.Generator, warps: int) -> str:
    wpc = _pow2_split(rng, warps.bit_length() - 1)
    return (
        f"#ttg.nvidia_mma<{{versionMajor = 2, versionMinor = 0, warpsPerCTA = {list(wpc)}, "
        f"instrShape = [16, 8]}}>"
    )


def _mma_v3(rng: np.random.Generator, warps: int) -> str | None:
    if warps < 4:
        return None
    n = int(rng.choice([8, 16, 32, 64]))
    wpc = [4, warps // 4] if rng.integers(2) else [warps, 1]
    return (
        f"#ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, warpsPerCTA = {wpc}, "
        f"instrShape = [16, {n}, 16]}}>"
    )


def _dot_op(rng: np.random.Generator, warps: int, bits: int) -> str:
    k_width = max(1, 32 // bits) * int(rng.choice([1, 2]))
    op = int(rng.integers(2))
    return f"#ttg.dot_op<{{opIdx = {op}, parent = {_mma_v2(rng, warps)}, kWidth = {k_width}}}>"


def _encoded_2d(rng: np.random.Generator, warps: int, bits: int) -> str | None:
    kind = rng.choice(["blocked", "blocked", "mma_v2", "mma_v3", "dot_op"])
    if kind == "blocked":
        return _blocked(rng, warps)
    if kind == "mma_v2":
        return _mma_v2(rng, warps)
    if kind == "mma_v3":
        return _mma_v3(rng, warps)
    return _dot_op(rng, warps, bits)


def _encoded_1d(rng: np.random.Generator, warps: int, bits: int) -> str | None:
    parent = _encoded_2d(rng, warps, bits)
    if parent is None or parent.startswith("#ttg.dot_op"):
        return None
    return f"#ttg.slice<{{dim = {int(rng.integers(2))}, parent = {parent}}}>"


def _encoded_pair(rng: np.random.Generator, warps: int, bits: int) -> tuple[LinearLayout, LinearLayout, str] | None:
    one_d = rng.random() < 0.25
    if one_d:
        shape = [1 << int(rng.integers(4, 11))]
        make = _encoded_1d
    else:
        shape = [1 << int(rng.integers(3, 8)), 1 << int(rng.integers(3, 8))]
        make = _encoded_2d
    texts = [make(rng, warps, bits), make(rng, warps, bits)]
    if None in texts:
        return None
    try:
        a, b = (to_linear_layout(t, shape) for t in texts)
    except Exception:
        return None
    if a.in_dim_size("warp") != warps or b.in_dim_size("warp") != warps:
        return None
    return a, b, f"{'x'.join(map(str, shape))}: {texts[0]} -> {texts[1]}"


def random_layout_pair(rng: np.random.Generator, family: str | None = None) -> LayoutPair:
    """One random pair (see the module doc); ``family`` forces a family."""
    bits = int(rng.choice([8, 16, 32, 64]))
    warps = int(rng.choice([1, 2, 4, 8]))
    family = family or str(rng.choice(FAMILIES, p=[0.3, 0.25, 0.25, 0.15, 0.05]))
    if family == "encoded":
        for _ in range(50):
            got = _encoded_pair(rng, warps, bits)
            if got is not None:
                a, b, text = got
                return LayoutPair(a, b, bits, family, text)
        family = "linear"
    out_dims = _random_shape(rng, warps)
    src = random_linear_layout(rng, out_dims, warps)
    if family == "linear":
        dst = random_linear_layout(rng, out_dims, warps)
    elif family == "warp_local":
        dst = _warp_local_variant(rng, src)
    elif family == "thread_local":
        dst = _thread_local_variant(rng, src)
    else:
        dst = src
    shape = "x".join(str(s) for s in out_dims.values())
    return LayoutPair(src, dst, bits, family, f"{shape} {family} {bits}-bit {warps} warps")
