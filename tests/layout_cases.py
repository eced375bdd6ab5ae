"""Seeded random generators of valid Triton 3.9 layout cases for differential tests.

Every generator takes a ``random.Random`` and returns a :class:`LayoutCase` whose
``attr_text`` is exactly Triton 3.9's printed form of the attribute (fields in the
printer's order, optional fields omitted as the printer omits them), so
``oracle.canonical_attr_text(case.attr_text, ...) == case.attr_text`` holds.
This module does not import Triton (nor ``ltc``); ``tests/test_oracle_selfcheck.py``
checks every generated case against the oracle.

Families (``LayoutCase.encoding``) and the constraints they respect -- found by
probing triton 3.9.0 (R = rejected by the verifier with a diagnostic, A = the
process *aborts*, which is why the generators never produce such cases):

* ``blocked``: sizePerThread / threadsPerWarp / warpsPerCTA powers of two (R),
  prod(threadsPerWarp) = threads_per_warp (32 or 64) and prod(warpsPerCTA) =
  num_warps -- NOT checked by Triton, kept consistent here; any ``order``.
* CGALayout (all encodings that take it): one basis per block bit; after
  dropping zero (broadcast) bases it must be a permutation matrix (R), e.g.
  ``[[0, 1], [1, 0]]``, ``[[2, 0], [1, 0]]`` (bits out of order) and ``[[0, 0]]``
  are accepted; ``[[1, 1]]`` is not.  Printed only when non-empty.  The legacy
  ``CTAsPerCGA/CTASplitNum/CTAOrder`` keys are rejected (R).
* ``slice``: any distributed parent (blocked, mma, dot_op, mfma, wmma, linear,
  slice); ``dim < parent rank`` (R); parent rank >= 2 (R).
* ``nvidia_mma_v2``: instrShape ``[16, 8]`` (rank 2) / ``[1, 16, 8]`` (rank 3).
  Triton also accepts ``[16, 16]``, ``[8, 8]`` or versionMinor 1 without complaint,
  but they are not generated; an instrShape whose length differs from the rank
  aborts (A).  versionMajor 1 and 5 are rejected (R).
* ``nvidia_mma_v3``: rank 2, instrShape ``[16, N, K]`` with N a power of two in
  8..256 (N = 24 aborts, A) and K = 256/bitwidth in {8, 16, 32}; warpsPerCTA
  ``[4k, m]`` (wgmma needs 4 warps along M; Triton itself accepts [2, 2]).
* ``dot_op``: kWidth is mandatory (non-zero) for nvidia_mma / amd_mfma / WMMA v3
  parents (R) and forbidden for a blocked parent (R, printed without kWidth);
  MMA v3 parents allow opIdx 0 only (R); kWidth must be a power of two
  (kWidth = 3 aborts, A).  WMMA v1: kWidth in {8, 16}; WMMA v2: {4, 8, 16} (R).
  Generated kWidths: mma v2 {1, 2, 4, 8}, mma v3 ``K/8`` (= 32/bitwidth), mfma
  {1, 2, 4, 8, 16}, wmma v3 {1 .. K/2}.
* ``amd_mfma``: version 1..4 (0 parses but the Gluon object rejects it, 5 is R);
  (M, N) in {32x32, 16x16, 4x64, 64x4} (R otherwise); 64x4 must be transposed
  (A otherwise); K is not checked (any value works; realistic ones generated);
  elementBitWidth 32 (omitted) or 64 (R otherwise); tilesPerWarp powers of two
  (3 aborts, A), omitted when all 1; rank 2 or 3 (rank 1 aborts, A); 64 lanes.
* ``amd_wmma``: version 1..3; instrShape v1 ``[16, 16, 16]``, v2 ``[16, 16, 16]`` or
  ``[16, 16, 32]``, v3 ``[16, 16, K]`` K in {4, 32, 64, 128} (R otherwise); the
  default ``[16, 16, 16]`` is omitted when printing (so v3 always prints it);
  ``ctaLayout = {[register = ..,] [warp = ..]}`` in tile units must be a
  permutation matrix after dropping zeros and surjective (A otherwise); empty
  keys are omitted (``ctaLayout = {}``), but the parser *requires* ``warp`` ("Expected
  basis of 'warp' not found", then an abort), so a 1-warp WMMA layout does not
  round-trip and num_warps >= 2 is generated.  Rank 3 prints but does NOT parse back
  ("Serialized rank and rank deduced from LL need to match" followed by an
  abort), so only rank 2 is generated; 32 lanes.
* ``linear``: all four keys ``register, lane, warp, block`` always printed in that
  order; after dropping zero bases the bases must form a permutation matrix (R)
  and be surjective onto the inferred sizes (A otherwise).  The tensor shape
  may differ from the layout's own size (Triton re-fits it).
* ``swizzled_shared``: vec / perPhase / maxPhase >= 1 (0 aborts with SIGFPE, A);
  Triton accepts non-powers of two (vec = 3) but they are not generated.
* ``nvmma_shared``: swizzlingByteWidth in {0, 32, 64, 128} (R); with swizzle > 0
  the contiguous dim per CTA (last dim, or dim 0 if ``transposed``) must be >=
  swizzle*8/bitwidth (R) and the product of the other dims per CTA must be >= 8
  (A: "Illegal shared layout"); ``rank = N`` printed when N != 2 and there is no
  CGALayout; ``fp4Padded = true`` needs swizzle 128 and elementBitWidth 8;
  transposed only generated for rank 2; a tensor of one element makes the Gluon
  conversion fail, so shared shapes have >= 2 elements per CTA.
* ``padded_shared``: ``[interval:+pad, ...]`` powers of two (R), distinct
  intervals; then ``{order = .., shape = ..}`` when the linear component is an
  identity in some order (size-1 dims are appended to ``order`` in *descending*
  order by the printer) else ``{offset = .., block = ..}`` (``block`` always
  printed there); every offset basis moves along one dim (R), all bases
  together must be surjective (A); the memdesc shape must equal the attribute's
  shape (R).  CGALayout is not accepted in the shorthand form (R).
* ``shared_linear``: arbitrary (XOR) offset bases, zero bases allowed, must be
  surjective (A otherwise); ``, alignment = N`` is mandatory in the text (power of
  two, R); ``block = ..`` printed only when non-empty; memdesc shape must equal
  the layout's size (R).
* ``partitioned_shared``: numPartitions >= 2 and powers of two, numGroups power
  of two, partitionDim < rank (violations abort in the verifier, A); shape along
  partitionDim divisible by numPartitions*numGroups; the partition layout must
  not be padded_shared (to_linear_layout aborts, A).

Shapes are powers of two from 1/8 of the layout's natural tile to 4x it per dim,
capped at ``MAX_NUMEL`` elements.  ``num_warps`` is 1..8 (4 or 8 for MMA v3),
``threads_per_warp`` 32 or 64 (64 for MFMA, 32 for NVIDIA MMA / WMMA), and
``num_ctas`` 1..8 with a CGALayout when > 1.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Sequence

MAX_NUMEL = 1 << 16
"""Upper bound on the number of tensor elements in a generated case."""


@dataclass(frozen=True)
class LayoutCase:
    """One layout at one shape, as Triton prints it.

    ``encoding`` is the generator family (see :data:`ENCODINGS`); the top-level
    attribute name is :attr:`attr_name`.  ``num_warps``, ``threads_per_warp`` and
    ``num_ctas`` are the module attributes (``ttg.num-warps`` ...) that go with it.
    """

    encoding: str
    attr_text: str
    shape: tuple[int, ...]
    num_warps: int
    threads_per_warp: int
    num_ctas: int

    @property
    def attr_name(self) -> str:
        """``"#ttg.dot_op<{...}>"`` -> ``"dot_op"``."""
        return self.attr_text[1:].split("<", 1)[0].split(".", 1)[1]

    @property
    def is_shared(self) -> bool:
        """True for memory layouts (in dims ``offset, block``)."""
        return self.attr_name in _SHARED_NAMES

    def oracle_kwargs(self) -> dict[str, int]:
        """Keyword arguments for ``oracle.triton_to_linear_layout``."""
        return {"num_warps": self.num_warps, "threads_per_warp": self.threads_per_warp, "num_ctas": self.num_ctas}


_SHARED_NAMES = frozenset(
    {"swizzled_shared", "nvmma_shared", "padded_shared", "shared_linear", "partitioned_shared"}
)


# --------------------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------------------
def _fmt_list(xs: Sequence[int]) -> str:
    return "[" + ", ".join(str(int(x)) for x in xs) + "]"


def _fmt_bases(bs: Sequence[Sequence[int]]) -> str:
    return "[" + ", ".join(_fmt_list(b) for b in bs) + "]"


def _log2(x: int) -> int:
    return x.bit_length() - 1


def _split_bits(rng: random.Random, nbits: int, rank: int) -> list[int]:
    """Randomly distribute ``nbits`` factors of two over ``rank`` dims (as sizes)."""
    sizes = [1] * rank
    for _ in range(nbits):
        sizes[rng.randrange(rank)] *= 2
    return sizes


def _prod(xs: Sequence[int]) -> int:
    p = 1
    for x in xs:
        p *= x
    return p


def _shape_for(rng: random.Random, tile: Sequence[int], mins: Sequence[int] | None = None,
               cap: int = MAX_NUMEL) -> tuple[int, ...]:
    """A power-of-two shape between tile/8 and 4*tile per dim (>= ``mins``), with
    at most ``cap`` elements (dims above their minimum are halved to fit)."""
    mins = list(mins) if mins is not None else [1] * len(tile)
    shape = []
    for t, m in zip(tile, mins):
        k = rng.randint(-3, 2)
        s = t << k if k >= 0 else max(1, t >> -k)
        shape.append(max(s, m, 1))
    while _prod(shape) > cap:
        cands = [i for i, (s, m) in enumerate(zip(shape, mins)) if s > max(m, 1)]
        if not cands:
            break
        i = max(cands, key=lambda j: shape[j])
        shape[i] //= 2
    return tuple(shape)


def _pick_warps(rng: random.Random, choices: Sequence[int] = (1, 2, 4, 8)) -> int:
    return rng.choice(list(choices))


def _pick_ctas(rng: random.Random, p_multi: float = 0.35) -> int:
    return rng.choice([2, 4, 8]) if rng.random() < p_multi else 1


def _gen_cga(rng: random.Random, rank: int, num_ctas: int) -> list[list[int]]:
    """A CGALayout for ``num_ctas`` CTAs: one basis per block bit, each a unit vector
    or zero (broadcast); per dim the bits usually ascend (as ``fromSplitParams``
    produces them) and are occasionally permuted (also accepted by Triton)."""
    nbits = _log2(num_ctas)
    if nbits == 0:
        return []
    tokens = [(-1 if rng.random() < 0.2 else rng.randrange(rank)) for _ in range(nbits)]
    per_dim: dict[int, list[int]] = {}
    for t in tokens:
        if t >= 0:
            per_dim.setdefault(t, []).append(0)
    for d, lst in per_dim.items():
        vals = [1 << i for i in range(len(lst))]
        if rng.random() < 0.15:
            rng.shuffle(vals)
        per_dim[d] = vals
    counters = {d: 0 for d in per_dim}
    bases = []
    for t in tokens:
        b = [0] * rank
        if t >= 0:
            b[t] = per_dim[t][counters[t]]
            counters[t] += 1
        bases.append(b)
    return bases


def _cga_split(cga: Sequence[Sequence[int]], rank: int) -> list[int]:
    """Number of distinct CTA tiles along each dim."""
    split = [1] * rank
    for b in cga:
        for d, v in enumerate(b):
            if v:
                split[d] *= 2
    return split


def _cga_suffix(cga: Sequence[Sequence[int]]) -> str:
    return f", CGALayout = {_fmt_bases(cga)}" if cga else ""


@dataclass(frozen=True)
class _Dist:
    """A generated distributed layout (internal): text plus what parents need."""

    text: str
    tile: tuple[int, ...]
    num_warps: int
    threads_per_warp: int
    num_ctas: int
    kind: str
    extra: tuple = ()


def _case(encoding: str, lay: _Dist, shape: Sequence[int]) -> LayoutCase:
    return LayoutCase(encoding, lay.text, tuple(int(s) for s in shape), lay.num_warps, lay.threads_per_warp,
                      lay.num_ctas)


# --------------------------------------------------------------------------------------
# distributed layouts
# --------------------------------------------------------------------------------------
def _blocked(rng: random.Random, rank: int | None = None) -> _Dist:
    rank = rank if rank is not None else rng.choice([1, 2, 2, 2, 3, 3])
    tpw_total = 64 if rng.random() < 0.25 else 32
    nw = _pick_warps(rng)
    nctas = _pick_ctas(rng, 0.3)
    while True:
        spt = [1 << rng.choice([0, 0, 1, 2, 3]) for _ in range(rank)]
        if _prod(spt) <= 16:
            break
    tpw = _split_bits(rng, _log2(tpw_total), rank)
    wpc = _split_bits(rng, _log2(nw), rank)
    order = list(range(rank))
    rng.shuffle(order)
    if rng.random() < 0.5:
        order = list(range(rank - 1, -1, -1))
    cga = _gen_cga(rng, rank, nctas)
    split = _cga_split(cga, rank)
    text = (f"#ttg.blocked<{{sizePerThread = {_fmt_list(spt)}, threadsPerWarp = {_fmt_list(tpw)}, "
            f"warpsPerCTA = {_fmt_list(wpc)}, order = {_fmt_list(order)}{_cga_suffix(cga)}}}>")
    tile = tuple(spt[d] * tpw[d] * wpc[d] * split[d] for d in range(rank))
    return _Dist(text, tile, nw, tpw_total, nctas, "blocked")


def _mma_v2(rng: random.Random, rank: int | None = None) -> _Dist:
    rank = rank if rank is not None else (3 if rng.random() < 0.2 else 2)
    nw = _pick_warps(rng)
    nctas = _pick_ctas(rng, 0.3)
    wpc = _split_bits(rng, _log2(nw), rank)
    cga = _gen_cga(rng, rank, nctas)
    split = _cga_split(cga, rank)
    instr = [16, 8] if rank == 2 else [1, 16, 8]
    text = (f"#ttg.nvidia_mma<{{versionMajor = 2, versionMinor = 0, warpsPerCTA = {_fmt_list(wpc)}"
            f"{_cga_suffix(cga)}, instrShape = {_fmt_list(instr)}}}>")
    tile = tuple(instr[d] * wpc[d] * split[d] for d in range(rank))
    return _Dist(text, tile, nw, 32, nctas, "mma_v2", (tuple(wpc),))


def _mma_v3(rng: random.Random) -> _Dist:
    nw = rng.choice([4, 4, 8])
    wpc = [4, 1] if nw == 4 else rng.choice([[8, 1], [4, 2]])
    nctas = _pick_ctas(rng, 0.3)
    cga = _gen_cga(rng, 2, nctas)
    split = _cga_split(cga, 2)
    n = rng.choice([8, 16, 32, 64, 64, 128, 128, 256])
    bits = rng.choice([8, 16, 16, 32])
    k = 256 // bits
    text = (f"#ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, warpsPerCTA = {_fmt_list(wpc)}"
            f"{_cga_suffix(cga)}, instrShape = {_fmt_list([16, n, k])}}}>")
    tile = (16 * wpc[0] * split[0], n * wpc[1] * split[1])
    return _Dist(text, tile, nw, 32, nctas, "mma_v3", (k,))


_MFMA_K = {(32, 32): [2, 4, 8, 8, 16, 16, 64], (16, 16): [4, 8, 16, 16, 32, 32, 128], (4, 64): [4], (64, 4): [4]}


def _mfma(rng: random.Random, rank: int | None = None) -> _Dist:
    rank = rank if rank is not None else (3 if rng.random() < 0.15 else 2)
    version = rng.choice([1, 2, 3, 3, 4, 4])
    nw = _pick_warps(rng)
    nctas = _pick_ctas(rng, 0.25)
    wpc = _split_bits(rng, _log2(nw), rank)
    mn = rng.choice([(32, 32), (32, 32), (16, 16), (16, 16), (4, 64), (64, 4)])
    k = rng.choice(_MFMA_K[mn])
    transposed = True if mn == (64, 4) else rng.random() < 0.5
    tiles = [1] * rank
    if rng.random() < 0.25:
        tiles[-2] = rng.choice([1, 2, 4])
        tiles[-1] = rng.choice([1, 2, 4])
    ebw = 64 if rng.random() < 0.15 else 32
    cga = _gen_cga(rng, rank, nctas)
    split = _cga_split(cga, rank)
    text = (f"#ttg.amd_mfma<{{version = {version}, warpsPerCTA = {_fmt_list(wpc)}, "
            f"instrShape = {_fmt_list([mn[0], mn[1], k])}, isTransposed = {'true' if transposed else 'false'}"
            f"{_cga_suffix(cga)}"
            + (f", tilesPerWarp = {_fmt_list(tiles)}" if any(t != 1 for t in tiles) else "")
            + (f", elementBitWidth = {ebw}" if ebw != 32 else "")
            + "}>")
    base = [1] * (rank - 2) + [mn[0], mn[1]]
    tile = tuple(base[d] * tiles[d] * wpc[d] * split[d] for d in range(rank))
    return _Dist(text, tile, nw, 64, nctas, "mfma", (mn, k, tuple(wpc)))


def _perm_bases(rng: random.Random, slots: Sequence[str], rank: int, zero_ok: Sequence[str],
                p_zero: float = 0.15, shuffle_bits: float = 0.2) -> dict[str, list[list[int]]]:
    """Fill ``slots`` (one in-dim name per basis) with unit vectors such that the
    non-zero ones form a permutation matrix onto some power-of-two sizes (bits of
    each dim ascending unless shuffled), zeros only in dims named in ``zero_ok``."""
    is_zero = [(s in zero_ok and rng.random() < p_zero) for s in slots]
    nonzero = [i for i, z in enumerate(is_zero) if not z]
    dims = [rng.randrange(rank) for _ in nonzero]
    per_dim: dict[int, list[int]] = {}
    for d in dims:
        per_dim.setdefault(d, []).append(0)
    for d, lst in per_dim.items():
        vals = [1 << i for i in range(len(lst))]
        if rng.random() < shuffle_bits:
            rng.shuffle(vals)
        per_dim[d] = vals
    counters = {d: 0 for d in per_dim}
    out: dict[str, list[list[int]]] = {}
    for s in slots:
        out.setdefault(s, [])
    for i, s in enumerate(slots):
        b = [0] * rank
        if not is_zero[i]:
            d = dims[nonzero.index(i)]
            b[d] = per_dim[d][counters[d]]
            counters[d] += 1
        out[s].append(b)
    return out


def _bases_sizes(bases: Sequence[Sequence[int]], rank: int) -> list[int]:
    """Power-of-two out sizes covered by a permutation-matrix style basis set."""
    sizes = [1] * rank
    for b in bases:
        for d, v in enumerate(b):
            if v:
                sizes[d] = max(sizes[d], v * 2)
    return sizes


_WMMA_INSTR = {1: [[16, 16, 16]], 2: [[16, 16, 16], [16, 16, 32]], 3: [[16, 16, 4], [16, 16, 32], [16, 16, 64],
                                                                      [16, 16, 128]]}


def _wmma(rng: random.Random) -> _Dist:
    version = rng.choice([1, 2, 3, 3])
    nw = _pick_warps(rng, (2, 4, 8))  # 1 warp prints `ctaLayout = {}`, which does not parse back
    nctas = _pick_ctas(rng, 0.25)
    instr = rng.choice(_WMMA_INSTR[version])
    transposed = rng.random() < 0.5
    nreg = rng.choice([0, 0, 0, 1, 2])
    slots = ["register"] * nreg + ["warp"] * _log2(nw)
    cta = _perm_bases(rng, slots, 2, zero_ok=("warp", "register"), p_zero=0.12)
    reg, warp = cta.get("register", []), cta.get("warp", [])
    parts = []
    if reg:
        parts.append(f"register = {_fmt_bases(reg)}")
    if warp:
        parts.append(f"warp = {_fmt_bases(warp)}")
    cga = _gen_cga(rng, 2, nctas)
    split = _cga_split(cga, 2)
    text = (f"#ttg.amd_wmma<{{version = {version}, isTranspose = {'true' if transposed else 'false'}, "
            f"ctaLayout = {{{', '.join(parts)}}}{_cga_suffix(cga)}"
            + (f", instrShape = {_fmt_list(instr)}" if instr != [16, 16, 16] else "")
            + "}>")
    tiles = _bases_sizes(reg + warp, 2)
    tile = (16 * tiles[0] * split[0], 16 * tiles[1] * split[1])
    return _Dist(text, tile, nw, 32, nctas, "wmma", (version, instr[2], tuple(tiles)))


def _linear(rng: random.Random, rank: int | None = None) -> _Dist:
    rank = rank if rank is not None else rng.choice([1, 2, 2, 3])
    tpw = 64 if rng.random() < 0.25 else 32
    nw = _pick_warps(rng)
    nctas = _pick_ctas(rng, 0.25)
    nreg = rng.choice([0, 1, 2, 2, 3, 4])
    slots = ["register"] * nreg + ["lane"] * _log2(tpw) + ["warp"] * _log2(nw) + ["block"] * _log2(nctas)
    order_slots = slots
    # a random interleaving: bases are taken in slot order, dims chosen at random
    bases = _perm_bases(rng, order_slots, rank, zero_ok=("register", "lane", "warp", "block"), p_zero=0.12,
                        shuffle_bits=0.3)
    if all(not any(b) for bs in bases.values() for b in bs):
        bases["lane"][0] = [1] + [0] * (rank - 1)
    parts = [f"{k} = {_fmt_bases(bases.get(k, []))}" for k in ("register", "lane", "warp", "block")]
    text = "#ttg.linear<{" + ", ".join(parts) + "}>"
    tile = tuple(_bases_sizes([b for bs in bases.values() for b in bs], rank))
    return _Dist(text, tile, nw, tpw, nctas, "linear")


def _dot_mma_v2(rng: random.Random) -> _Dist:
    parent = _mma_v2(rng)
    (wpc,) = parent.extra
    op = rng.randrange(2)
    kw = rng.choice([1, 2, 2, 4, 8])
    rank = len(wpc)
    tile = list(parent.tile)
    ktile = 8 * kw
    if op == 0:
        tile[-1] = ktile
    else:
        tile[-2] = ktile
    text = f"#ttg.dot_op<{{opIdx = {op}, parent = {parent.text}, kWidth = {kw}}}>"
    return _Dist(text, tuple(tile[:rank]), parent.num_warps, 32, parent.num_ctas, "dot_mma_v2")


def _dot_mma_v3(rng: random.Random) -> _Dist:
    parent = _mma_v3(rng)
    (k,) = parent.extra
    kw = k // 8
    text = f"#ttg.dot_op<{{opIdx = 0, parent = {parent.text}, kWidth = {kw}}}>"
    tile = (parent.tile[0], 4 * k)
    return _Dist(text, tile, parent.num_warps, 32, parent.num_ctas, "dot_mma_v3")


def _dot_blocked(rng: random.Random) -> _Dist:
    parent = _blocked(rng, rank=rng.choice([2, 2, 3]))
    op = rng.randrange(2)
    text = f"#ttg.dot_op<{{opIdx = {op}, parent = {parent.text}}}>"
    return _Dist(text, parent.tile, parent.num_warps, parent.threads_per_warp, parent.num_ctas, "dot_blocked")


def _dot_mfma(rng: random.Random) -> _Dist:
    parent = _mfma(rng)
    mn, _k, _wpc = parent.extra
    op = rng.randrange(2)
    kw = rng.choice([1, 2, 4, 4, 8, 8, 16])
    nonk = mn[0] if op == 0 else mn[1]
    ktile = kw * max(1, 64 // nonk)
    tile = list(parent.tile)
    if op == 0:
        tile[-1] = ktile
    else:
        tile[-2] = ktile
    text = f"#ttg.dot_op<{{opIdx = {op}, parent = {parent.text}, kWidth = {kw}}}>"
    return _Dist(text, tuple(tile), parent.num_warps, 64, parent.num_ctas, "dot_mfma")


def _dot_wmma(rng: random.Random) -> _Dist:
    parent = _wmma(rng)
    version, k, _tiles = parent.extra
    op = rng.randrange(2)
    if version == 1:
        kw = rng.choice([8, 16])
    elif version == 2:
        kw = rng.choice([4, 8, 16])
    else:
        kw = rng.choice([x for x in (1, 2, 4, 8, 16, 32, 64) if x <= max(1, k // 2)])
    tile = list(parent.tile)
    ktile = max(k, 2 * kw)
    if op == 0:
        tile[-1] = ktile
    else:
        tile[-2] = ktile
    text = f"#ttg.dot_op<{{opIdx = {op}, parent = {parent.text}, kWidth = {kw}}}>"
    return _Dist(text, tuple(tile), parent.num_warps, 32, parent.num_ctas, "dot_wmma")


def _any_distributed(rng: random.Random, min_rank: int = 2) -> _Dist:
    """A random distributed layout of rank >= ``min_rank`` (parents for slice)."""
    r = rng.random()
    if r < 0.45:
        return _blocked(rng, rank=rng.choice([min_rank, 3]) if min_rank <= 3 else 3)
    if r < 0.55:
        return _mma_v2(rng)
    if r < 0.62:
        return _mma_v3(rng)
    if r < 0.72:
        return _mfma(rng)
    if r < 0.79:
        return _wmma(rng)
    if r < 0.88:
        return _linear(rng, rank=rng.choice([2, 3]))
    if r < 0.94:
        return _dot_mma_v2(rng)
    return _dot_mfma(rng)


def _slice(rng: random.Random) -> _Dist:
    nested = rng.random() < 0.3
    parent = _any_distributed(rng)
    rank = len(parent.tile)
    if nested and rank < 3:
        parent = _blocked(rng, rank=3) if rng.random() < 0.7 else _linear(rng, rank=3)
        rank = 3
    if nested:
        d0 = rng.randrange(rank)
        inner_tile = tuple(t for i, t in enumerate(parent.tile) if i != d0)
        parent = _Dist(f"#ttg.slice<{{dim = {d0}, parent = {parent.text}}}>", inner_tile, parent.num_warps,
                       parent.threads_per_warp, parent.num_ctas, "slice")
        rank -= 1
    d = rng.randrange(rank)
    tile = tuple(t for i, t in enumerate(parent.tile) if i != d)
    text = f"#ttg.slice<{{dim = {d}, parent = {parent.text}}}>"
    return _Dist(text, tile, parent.num_warps, parent.threads_per_warp, parent.num_ctas, "slice")


def _dist_case(encoding: str, make: Callable[[random.Random], _Dist]) -> Callable[[random.Random], LayoutCase]:
    def gen(rng: random.Random) -> LayoutCase:
        lay = make(rng)
        return _case(encoding, lay, _shape_for(rng, lay.tile))

    gen.__name__ = f"gen_{encoding}"
    gen.__doc__ = f"A random valid ``{encoding}`` case."
    return gen


# --------------------------------------------------------------------------------------
# shared (memory) layouts
# --------------------------------------------------------------------------------------
def _shared_case(encoding: str, text: str, shape: Sequence[int], nctas: int, rng: random.Random) -> LayoutCase:
    nw = _pick_warps(rng)
    return LayoutCase(encoding, text, tuple(int(s) for s in shape), nw, 32, nctas)


def _fit_shared_shape(shape: list[int], split: Sequence[int], mins: Sequence[int]) -> list[int]:
    """Make every dim >= its minimum and a multiple of the CGA split, with >= 2
    elements per CTA (a one-element shared layout breaks the Gluon conversion)."""
    shape = [max(s, m, sp) for s, m, sp in zip(shape, mins, split)]
    while _prod(shape) // _prod(split) < 2:
        shape[-1] *= 2
    return shape


def _swizzled_text(rng: random.Random, rank: int, cga: Sequence[Sequence[int]]) -> tuple[str, list[int], list[int]]:
    vec = rng.choice([1, 2, 4, 8, 8, 16])
    per_phase = rng.choice([1, 1, 2, 4, 8])
    max_phase = rng.choice([1, 2, 4, 8, 8, 16])
    order = list(range(rank - 1, -1, -1))
    if rng.random() < 0.4:
        rng.shuffle(order)
    text = (f"#ttg.swizzled_shared<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, "
            f"order = {_fmt_list(order)}{_cga_suffix(cga)}}}>")
    tile = [2] * rank
    tile[order[0]] = vec * max_phase
    if rank > 1:
        tile[order[1]] = per_phase * max_phase
    return text, tile, order


def gen_swizzled_shared(rng: random.Random) -> LayoutCase:
    """A random valid ``swizzled_shared`` case."""
    rank = rng.choice([1, 2, 2, 2, 3])
    nctas = _pick_ctas(rng, 0.25)
    cga = _gen_cga(rng, rank, nctas)
    split = _cga_split(cga, rank)
    text, tile, _ = _swizzled_text(rng, rank, cga)
    tile = [t * s for t, s in zip(tile, split)]
    shape = _fit_shared_shape(list(_shape_for(rng, tile)), split, [1] * rank)
    return _shared_case("swizzled_shared", text, shape, nctas, rng)


def _nvmma_text(rng: random.Random, rank: int, cga: Sequence[Sequence[int]], allow_transposed: bool = True
                ) -> tuple[str, list[int], list[int]]:
    """Text plus (tile, per-CTA minimum shape) of a random nvmma_shared layout."""
    swizzle = rng.choice([0, 32, 64, 128, 128]) if rank >= 2 else 0
    bits = rng.choice([8, 16, 16, 32]) if swizzle else rng.choice([8, 16, 32, 64])
    fp4 = swizzle == 128 and bits == 8 and rng.random() < 0.3
    transposed = allow_transposed and rank == 2 and rng.random() < 0.3
    text = (f"#ttg.nvmma_shared<{{swizzlingByteWidth = {swizzle}, transposed = {'true' if transposed else 'false'}, "
            f"elementBitWidth = {bits}" + (", fp4Padded = true" if fp4 else "")
            + (_cga_suffix(cga) if cga else (f", rank = {rank}" if rank != 2 else "")) + "}>")
    contig = 0 if transposed else rank - 1
    mins = [1] * rank
    tile = [8] * rank
    if swizzle:
        c = swizzle * 8 // bits
        mins[contig] = c
        tile[contig] = c
        # the other dims together must hold >= 8 rows per CTA
        others = [d for d in range(rank) if d != contig]
        need = 8
        for d in others[::-1]:
            take = min(need, 8)
            mins[d] = take
            need //= take
    else:
        tile[rank - 1] = 64 // max(1, bits // 8)
    return text, tile, mins


def gen_nvmma_shared(rng: random.Random) -> LayoutCase:
    """A random valid ``nvmma_shared`` case."""
    rank = rng.choice([1, 2, 2, 2, 2, 3])
    nctas = _pick_ctas(rng, 0.25) if rank >= 2 else 1
    cga = _gen_cga(rng, rank, nctas)
    split = _cga_split(cga, rank)
    text, tile, mins = _nvmma_text(rng, rank, cga)
    tile = [t * s for t, s in zip(tile, split)]
    mins = [m * s for m, s in zip(mins, split)]
    shape = _fit_shared_shape(list(_shape_for(rng, tile, mins)), split, mins)
    return _shared_case("nvmma_shared", text, shape, nctas, rng)


def _identity_order(offsets: Sequence[Sequence[int]], shape: Sequence[int]) -> list[int] | None:
    """If ``offsets`` is the identity layout of ``shape`` in some dim order, return
    that order as Triton prints it (size-1 dims appended in descending order)."""
    rank = len(shape)
    seq: list[int] = []
    expect = [1] * rank
    for b in offsets:
        nz = [d for d, v in enumerate(b) if v]
        if len(nz) != 1:
            return None
        d = nz[0]
        if b[d] != expect[d]:
            return None
        if seq and seq[-1] != d and d in seq:
            return None
        if not seq or seq[-1] != d:
            seq.append(d)
        expect[d] *= 2
    if any(expect[d] != shape[d] for d in range(rank)):
        return None
    return seq + sorted((d for d in range(rank) if d not in seq), reverse=True)


def gen_padded_shared(rng: random.Random) -> LayoutCase:
    """A random valid ``padded_shared`` case (shape = the attribute's shape)."""
    rank = rng.choice([1, 2, 2, 2, 3])
    while True:
        per_cta = [1 << rng.randint(0, 7) for _ in range(rank)]
        if 4 <= _prod(per_cta) <= 1 << 14:
            break
    npairs = rng.choice([1, 1, 2])
    intervals = rng.sample([8, 16, 32, 64, 128, 256], npairs)
    pads = [rng.choice([1, 2, 4, 8, 16]) for _ in intervals]
    ivtext = "[" + ", ".join(f"{i}:+{p}" for i, p in zip(intervals, pads)) + "]"
    nctas = _pick_ctas(rng, 0.25)
    bits = [(d, 1 << i) for d in range(rank) for i in range(_log2(per_cta[d]))]
    style = rng.random()
    if style < 0.5 and nctas == 1:
        order = list(range(rank - 1, -1, -1))
        if rng.random() < 0.5:
            rng.shuffle(order)
        bits = [(d, 1 << i) for d in order for i in range(_log2(per_cta[d]))]
    elif style < 0.8:
        rng.shuffle(bits)
    else:  # mostly ordered with a few swaps
        bits.sort(key=lambda t: (-t[0], t[1]))
        for _ in range(rng.randint(1, 3)):
            if len(bits) >= 2:
                i, j = rng.randrange(len(bits)), rng.randrange(len(bits))
                bits[i], bits[j] = bits[j], bits[i]
    offsets = []
    for d, v in bits:
        b = [0] * rank
        b[d] = v
        offsets.append(b)
    cga = _gen_cga(rng, rank, nctas)
    split = _cga_split(cga, rank)
    block = [[v * per_cta[d] for d, v in enumerate(b)] for b in cga]
    shape = [per_cta[d] * split[d] for d in range(rank)]
    order = _identity_order(offsets, per_cta) if not block else None
    if order is not None:
        body = f"order = {_fmt_list(order)}, shape = {_fmt_list(shape)}"
    else:
        body = f"offset = {_fmt_bases(offsets)}, block = {_fmt_bases(block)}"
    text = f"#ttg.padded_shared<{ivtext} {{{body}}}>"
    return _shared_case("padded_shared", text, shape, nctas, rng)


def _random_invertible_columns(rng: random.Random, nbits: int, xor: bool) -> list[int]:
    """``nbits`` linearly independent ``nbits``-bit vectors (a permutation of the unit
    vectors, optionally mixed by random XORs)."""
    cols = [1 << i for i in range(nbits)]
    rng.shuffle(cols)
    if xor and nbits > 1:
        for _ in range(rng.randint(1, 2 * nbits)):
            i, j = rng.randrange(nbits), rng.randrange(nbits)
            if i != j:
                cols[i] ^= cols[j]
    return cols


def _unflatten(v: int, sizes: Sequence[int]) -> list[int]:
    out = []
    for s in sizes:
        out.append(v & (s - 1))
        v >>= _log2(s)
    return out


def _shared_linear_parts(rng: random.Random, rank: int, nctas: int
                         ) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """(offset bases, block bases, shape) of a random surjective shared linear layout."""
    nblock = _log2(nctas)
    while True:
        shape = [1 << rng.randint(0, 5) for _ in range(rank)]
        nbits = sum(_log2(s) for s in shape)
        if nblock + 1 <= nbits <= 12:
            break
    cols = _random_invertible_columns(rng, nbits, xor=rng.random() < 0.5)
    vecs = [_unflatten(c, shape) for c in cols]
    block = vecs[:nblock]
    offset = vecs[nblock:]
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        offset.insert(rng.randrange(len(offset) + 1), [0] * rank)
    if block and rng.random() < 0.15:  # a broadcast block bit: its vector moves to offset
        i = rng.randrange(len(block))
        offset.append(block[i])
        block[i] = [0] * rank
    return offset, block, shape


def _shared_linear_text(offset: Sequence[Sequence[int]], block: Sequence[Sequence[int]], align: int) -> str:
    blk = f", block = {_fmt_bases(block)}" if block else ""
    return f"#ttg.shared_linear<{{offset = {_fmt_bases(offset)}{blk}}}, alignment = {align}>"


def gen_shared_linear(rng: random.Random) -> LayoutCase:
    """A random valid ``shared_linear`` case (shape = the layout's size)."""
    rank = rng.choice([1, 2, 2, 3])
    nctas = _pick_ctas(rng, 0.25)
    offset, block, shape = _shared_linear_parts(rng, rank, nctas)
    align = rng.choice([16, 16, 32, 64, 128, 256, 512, 1024])
    return _shared_case("shared_linear", _shared_linear_text(offset, block, align), shape, nctas, rng)


def gen_partitioned_shared(rng: random.Random) -> LayoutCase:
    """A random valid ``partitioned_shared`` case."""
    rank = rng.choice([2, 2, 2, 3])
    nparts = rng.choice([2, 2, 4, 8])
    ngroups = rng.choice([1, 1, 2, 4])
    pdim = rng.randrange(rank)
    pieces = nparts * ngroups
    kind = rng.random()
    nctas = 1
    if kind < 0.6:
        nctas = _pick_ctas(rng, 0.2)
        cga = _gen_cga(rng, rank, nctas)
        split = _cga_split(cga, rank)
        inner, tile, _ = _swizzled_text(rng, rank, cga)
        tile = [t * s for t, s in zip(tile, split)]
        piece = _fit_shared_shape(list(_shape_for(rng, tile, cap=MAX_NUMEL // pieces)), split, [1] * rank)
    elif kind < 0.85:
        inner, tile, mins = _nvmma_text(rng, rank, [], allow_transposed=True)
        piece = _fit_shared_shape(list(_shape_for(rng, tile, mins, cap=MAX_NUMEL // pieces)), [1] * rank, mins)
    else:
        offset, block, piece = _shared_linear_parts(rng, rank, 1)
        if _prod(piece) < 2:
            piece[-1] = 2
            offset = [[0] * (rank - 1) + [1]]
        inner = _shared_linear_text(offset, block, rng.choice([16, 128, 512]))
    shape = list(piece)
    shape[pdim] *= pieces
    text = (f"#ttg.partitioned_shared<{{numPartitions = {nparts}, numGroups = {ngroups}, "
            f"partitionDim = {pdim}, partitionLayout = {inner}}}>")
    return _shared_case("partitioned_shared", text, shape, nctas, rng)


# --------------------------------------------------------------------------------------
# registry
# --------------------------------------------------------------------------------------
gen_blocked = _dist_case("blocked", _blocked)
gen_slice = _dist_case("slice", _slice)
gen_nvidia_mma_v2 = _dist_case("nvidia_mma_v2", _mma_v2)
gen_nvidia_mma_v3 = _dist_case("nvidia_mma_v3", _mma_v3)
gen_dot_op_mma_v2 = _dist_case("dot_op_mma_v2", _dot_mma_v2)
gen_dot_op_mma_v3 = _dist_case("dot_op_mma_v3", _dot_mma_v3)
gen_dot_op_blocked = _dist_case("dot_op_blocked", _dot_blocked)
gen_dot_op_amd_mfma = _dist_case("dot_op_amd_mfma", _dot_mfma)
gen_dot_op_amd_wmma = _dist_case("dot_op_amd_wmma", _dot_wmma)
gen_amd_mfma = _dist_case("amd_mfma", _mfma)
gen_amd_wmma = _dist_case("amd_wmma", _wmma)
gen_linear = _dist_case("linear", _linear)

GENERATORS: dict[str, Callable[[random.Random], LayoutCase]] = {
    "blocked": gen_blocked,
    "slice": gen_slice,
    "nvidia_mma_v2": gen_nvidia_mma_v2,
    "nvidia_mma_v3": gen_nvidia_mma_v3,
    "dot_op_mma_v2": gen_dot_op_mma_v2,
    "dot_op_mma_v3": gen_dot_op_mma_v3,
    "dot_op_blocked": gen_dot_op_blocked,
    "dot_op_amd_mfma": gen_dot_op_amd_mfma,
    "dot_op_amd_wmma": gen_dot_op_amd_wmma,
    "amd_mfma": gen_amd_mfma,
    "amd_wmma": gen_amd_wmma,
    "linear": gen_linear,
    "swizzled_shared": gen_swizzled_shared,
    "nvmma_shared": gen_nvmma_shared,
    "padded_shared": gen_padded_shared,
    "shared_linear": gen_shared_linear,
    "partitioned_shared": gen_partitioned_shared,
}
"""Family name -> generator ``(random.Random) -> LayoutCase``."""

ENCODINGS: tuple[str, ...] = tuple(GENERATORS)


def cases_for(encoding: str, seed: int, n: int, *, unique: bool = True) -> list[LayoutCase]:
    """``n`` cases of one family, deterministic in ``(encoding, seed)``.

    With ``unique`` (default) duplicates are skipped (up to ``50 * n`` draws; a
    family with a small parameter space may then return fewer than ``n``)."""
    rng = random.Random(f"ltc-layout-cases:{encoding}:{seed}")
    gen = GENERATORS[encoding]
    out: list[LayoutCase] = []
    seen: set[LayoutCase] = set()
    draws = 0
    while len(out) < n and draws < 50 * max(n, 1):
        draws += 1
        c = gen(rng)
        if unique and c in seen:
            continue
        seen.add(c)
        out.append(c)
    return out


def all_cases(seed: int, per_encoding: int) -> list[LayoutCase]:
    """``per_encoding`` cases of every family in :data:`ENCODINGS` (deterministic)."""
    out: list[LayoutCase] = []
    for enc in ENCODINGS:
        out.extend(cases_for(enc, seed, per_encoding))
    return out
