"""Shared-memory races between warps: a barrier-interval check.

The simulator runs a CTA's threads in lockstep, so a missing ``bar.sync`` between one
warp's store and another warp's load of the same bytes reads the right value here while
on a GPU the load may come first. This check finds such pairs without a GPU. Time is cut
into *epochs* by CTA barriers. Within one epoch, two accesses to the same byte by
different warps race when one of them writes:

* read after write (RAW): a warp reads a byte another warp wrote in this epoch;
* write after read (WAR): a warp writes a byte another warp read in this epoch;
* write after write (WAW): a warp overwrites, with a different value, a byte another warp
  wrote in this epoch (the same value written twice is no race: every order leaves it).

Accesses by one warp are ordered by the warp's own program order (lockstep within a
warp), and atomics are left out: their order is never defined. The count and the first
race (PTX line and kind) go into the launch's statistics.
"""

from __future__ import annotations

import numpy as np


class SharedRaces:
    """Per byte of a CTA's shared memory: the last writing warp and its epoch, and the set
    of warps (a bit mask) that read it in the current epoch."""

    def __init__(self, nbytes: int) -> None:
        self.epoch = 0
        self.writer = np.full(nbytes, -1, np.int16)
        self.write_epoch = np.full(nbytes, -1, np.int32)
        self.readers = np.zeros(nbytes, np.uint64)
        self.read_epoch = np.full(nbytes, -1, np.int32)
        self.count = 0
        self.first = ""

    def barrier(self) -> None:
        """A CTA barrier: every access before it happens before every access after it."""
        self.epoch += 1

    def _report(self, n: int, kind: str, line: int) -> None:
        if n:
            self.count += n
            if not self.first:
                self.first = f"line {line}: {kind}"

    @staticmethod
    def _bytes(off: np.ndarray, size: int, warps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        b = (np.asarray(off, np.int64).reshape(-1)[:, None] + np.arange(size)[None, :]).reshape(-1)
        return b, np.repeat(np.asarray(warps, np.int64).reshape(-1), size)

    def read(self, off: np.ndarray, size: int, warps: np.ndarray, line: int) -> None:
        """Warps ``warps[i]`` read ``size`` bytes at byte offsets ``off[i]``."""
        b, w = self._bytes(off, size, warps)
        raw = (self.write_epoch[b] == self.epoch) & (self.writer[b] >= 0) & (self.writer[b] != w)
        self._report(int(np.count_nonzero(raw)), "read after another warp's write, no barrier between", line)
        stale = self.read_epoch[b] != self.epoch
        self.readers[b[stale]] = 0
        self.read_epoch[b] = self.epoch
        np.bitwise_or.at(self.readers, b, np.left_shift(np.uint64(1), w.astype(np.uint64)))

    def write(self, smem: np.ndarray, off: np.ndarray, size: int, warps: np.ndarray, new: np.ndarray,
              line: int) -> None:
        """Warps ``warps[i]`` are about to write the bytes ``new[i]`` (``size`` of them) at
        ``off[i]`` of ``smem``: called before the write, which ``smem`` does not hold yet."""
        b, w = self._bytes(off, size, warps)
        new = np.ascontiguousarray(new).view(np.uint8).reshape(-1)
        bit = np.left_shift(np.uint64(1), w.astype(np.uint64))
        war = (self.read_epoch[b] == self.epoch) & ((self.readers[b] & ~bit) != 0)
        changed = smem[b] != new
        waw = (self.write_epoch[b] == self.epoch) & (self.writer[b] >= 0) & (self.writer[b] != w) & changed
        # two warps writing one byte in the same instruction, with different values
        order = np.argsort(b, kind="stable")
        bs, ws, vs = b[order], w[order], new[order]
        same_byte = (bs[1:] == bs[:-1]) & (ws[1:] != ws[:-1]) & (vs[1:] != vs[:-1])
        self._report(int(np.count_nonzero(war)), "write after another warp's read, no barrier between", line)
        self._report(int(np.count_nonzero(waw)) + int(np.count_nonzero(same_byte)),
                     "another warp's write overwritten, no barrier between", line)
        self.writer[b] = w
        self.write_epoch[b] = self.epoch
