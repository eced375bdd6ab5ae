"""Shared-memory bank-conflict cost: wavefronts of one warp's access (32 banks × 4 bytes).

One shared-memory instruction of a warp is split into *phases*:

* plain ``ld``/``st.shared``: lanes in consecutive groups — 32 lanes per phase
  for accesses of up to 32 bits per thread, 16 for 64-bit, 8 for 128-bit;
* ``ldmatrix``/``stmatrix``: one phase per 8×8 matrix, its 8 row addresses of
  16 bytes each.

A phase touches a set of 4-byte words (an access of ``n`` bytes at ``a`` touches
words ``a // 4 .. a // 4 + max(1, n // 4) - 1``). It costs as many wavefronts as
the most *distinct* words any one bank (``word % 32``) serves — the same word read
by several lanes is one broadcast. Its lower bound is ``ceil(distinct words /
32)``. An instruction's cost is the sum over its phases; threads that do not
execute it (predicated off) are left out of their phase.

Loads of 64 and 128 bits merge phases pairwise (:func:`load_phase_groups`): the two
half-warps of a 64-bit load, and the two quarter-warps of each half-warp of a 128-bit
load, are served as one phase when together they read no more distinct addresses than
one phase has lanes and no address is read by both, or when all their lanes read one
address (a broadcast). Stores never merge. This is the rule measured on an H100
(``benchmarks/gpu_run.py``: Nsight Compute's shared-memory wavefront counters for 240
one-warp probes and 108 conversion kernels; the old fixed-phase rule over-counted 30
load probes and every count it now gives matches, except where several warps load the
very same addresses at the same time, which the hardware may serve together).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "BANK_BYTES",
    "NUM_BANKS",
    "lanes_per_phase",
    "load_phase_groups",
    "matrix_access_wavefronts",
    "phase_cost",
    "phases_cost",
    "plain_access_wavefronts",
]

NUM_BANKS = 32
BANK_BYTES = 4


def phase_cost(words: np.ndarray) -> tuple[int, int]:
    """(wavefronts, lower bound) of one phase touching these 4-byte words."""
    distinct = np.unique(np.asarray(words))
    if distinct.size == 0:
        return 0, 0
    per_bank = np.bincount(distinct % NUM_BANKS, minlength=NUM_BANKS)
    return int(per_bank.max()), math.ceil(distinct.size / NUM_BANKS)


def phases_cost(words: np.ndarray, valid: np.ndarray | None = None) -> tuple[int, int]:
    """Summed (wavefronts, lower bound) of many phases at once.

    ``words[p, k]``: the k-th word touched in phase p (non-negative); entries
    where ``valid`` is False are ignored. Equal to summing :func:`phase_cost`
    over the rows.
    """
    w = np.asarray(words, dtype=np.int64)
    if w.ndim != 2 or w.size == 0:
        return 0, 0
    if valid is not None:
        w = np.where(valid, w, -1)
    s = np.sort(w, axis=1)
    new = np.empty(s.shape, dtype=bool)
    new[:, 0] = True
    new[:, 1:] = s[:, 1:] != s[:, :-1]
    new &= s >= 0
    phases = s.shape[0]
    keys = (np.arange(phases)[:, None] * NUM_BANKS + s % NUM_BANKS)[new]
    per_bank = np.bincount(keys, minlength=phases * NUM_BANKS).reshape(phases, NUM_BANKS)
    distinct = new.sum(axis=1)
    return int(per_bank.max(axis=1).sum()), int(((distinct + NUM_BANKS - 1) // NUM_BANKS).sum())


def lanes_per_phase(nbytes: int) -> int:
    """Lanes served per phase by a plain access of ``nbytes`` per thread."""
    return 32 if nbytes <= 4 else 16 if nbytes == 8 else 8


def _distinct(values: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Per row: the number of distinct valid entries (entries are non-negative)."""
    s = np.sort(np.where(valid, values, -1), axis=1)
    new = np.ones(s.shape, dtype=bool)
    new[:, 1:] = s[:, 1:] != s[:, :-1]
    return (new & (s >= 0)).sum(axis=1)


def load_phase_groups(addr: np.ndarray, active: np.ndarray, lanes: int) -> np.ndarray:
    """Which consecutive pairs of ``lanes``-thread phases of a load merge into one phase.

    ``addr``/``active``: ``[pairs, 2 * lanes]`` (a pair: two consecutive phases of one
    warp). A pair merges when its active lanes read one address, or when the two phases
    read disjoint address sets with at most ``lanes`` distinct addresses together.
    """
    first, second = addr[:, :lanes], addr[:, lanes:]
    a1, a2 = active[:, :lanes], active[:, lanes:]
    union = _distinct(addr, active)
    disjoint = union == _distinct(first, a1) + _distinct(second, a2)
    return (union <= 1) | (disjoint & (union <= lanes))


def plain_access_wavefronts(
    addr: np.ndarray, nbytes: int, active: np.ndarray | None = None, *, load: bool = False
) -> tuple[int, int]:
    """(wavefronts, lower bound) of a plain shared access, ``nbytes`` per thread.

    ``addr``: one byte address per thread, threads in order (``t = warp * 32 +
    lane``); phases are consecutive groups of :func:`lanes_per_phase` threads,
    merged pairwise for 64- and 128-bit loads (``load=True``, see the module doc).
    ``active`` (same length) marks the threads that execute the access.
    """
    a = np.asarray(addr, dtype=np.int64).ravel()
    lanes = lanes_per_phase(nbytes)
    n = a.size
    pad = (-n) % 32  # whole warps: phase pairs never straddle two warps
    act = np.ones(n, dtype=bool) if active is None else np.asarray(active, dtype=bool).ravel()
    if pad:
        a = np.concatenate([a, np.zeros(pad, np.int64)])
        act = np.concatenate([act, np.zeros(pad, bool)])
    k = max(1, nbytes // BANK_BYTES)
    words = (a[:, None] // BANK_BYTES + np.arange(k)[None, :]).reshape(-1, lanes * k)
    valid = np.repeat(act, k).reshape(-1, lanes * k)
    if load and lanes < 32:
        merged = load_phase_groups(a.reshape(-1, 2 * lanes), act.reshape(-1, 2 * lanes), lanes)
        pair_words = words.reshape(-1, 2 * lanes * k)
        pair_valid = valid.reshape(-1, 2 * lanes * k)
        # A merged pair is one phase; a split pair two phases, padded to the same width.
        split_words = np.concatenate([words, np.full_like(words, -1)], axis=1)
        split_valid = np.concatenate([valid, np.zeros_like(valid)], axis=1)
        keep = np.repeat(~merged, 2)
        words = np.concatenate([pair_words[merged], split_words[keep]])
        valid = np.concatenate([pair_valid[merged], split_valid[keep]])
    return phases_cost(words, valid)


def matrix_access_wavefronts(row_addr: np.ndarray) -> tuple[int, int]:
    """(wavefronts, lower bound) of ``ldmatrix``/``stmatrix`` phases.

    ``row_addr[m, r]``: byte address of row r (0..7, 16 bytes each) of matrix m;
    each matrix is one phase.
    """
    rows = np.asarray(row_addr, dtype=np.int64).reshape(-1, 8)
    k = 16 // BANK_BYTES
    words = (rows[:, :, None] // BANK_BYTES + np.arange(k)[None, None, :]).reshape(rows.shape[0], 8 * k)
    return phases_cost(words)
