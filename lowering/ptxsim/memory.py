"""Memory of a launch: where each state space lives, and byte-exact reads and writes.

Global memory is the pointer arguments: each numpy array's bytes are copied to
a buffer (a :class:`Region`) mapped at its own fake 64-bit base
(``GLOBAL_BASE`` upwards, 256-byte aligned, 4 KiB apart) and written back to
the array after the last CTA. Module ``.global``/``.const`` variables get
regions too. Shared memory is fresh per CTA and filled with a poison byte (as
registers start at a poison value: :data:`~ltc.lowering.ptxsim.machine.REGISTER_POISON`,
so a read of what was never written shows, as on a GPU); its variables are
laid out from ``SHARED_BASE`` (an address below it, such as one computed
without the variable's base, is out of bounds); an ``.extern .shared`` array
gets ``EXTERN_SHARED_BYTES``. Generic addresses of shared memory are
``SHARED_WINDOW + shared address`` (``cvta``). An access outside every region
raises.

Accesses are vectorised over threads: ``size`` bytes (1, 2, 4, 8 or 16) at each
address, one unsigned word per thread (16 bytes: two uint64).
"""

from __future__ import annotations

import numpy as np

from ltc.lowering.ptxsim.errors import Fault
from ltc.lowering.ptxsim.values import UINT_DTYPE

__all__ = ["EXTERN_SHARED_BYTES", "GLOBAL_BASE", "SHARED_BASE", "SHARED_WINDOW"]

EXTERN_SHARED_BYTES = 228 * 1024
SHARED_BASE = 1024
SHARED_WINDOW = 1 << 32
GLOBAL_BASE = 1 << 40
_REGION_ALIGN = 256
_REGION_GAP = 4096


class Region:
    """One global buffer at ``base``: a padded copy of its bytes, and the array to write back (None: a variable)."""

    __slots__ = ("name", "base", "size", "buf", "array", "written")

    def __init__(self, name: str, base: int, data: bytes | np.ndarray, array: np.ndarray | None) -> None:
        raw = np.frombuffer(bytes(data), np.uint8) if isinstance(data, (bytes, bytearray)) else data
        self.name = name
        self.base = base
        self.size = int(raw.size)
        self.buf = np.zeros((self.size + 15) // 16 * 16 + 16, np.uint8)
        self.buf[: self.size] = raw
        self.array = array
        self.written = False


class GlobalMemory:
    """The global regions of a launch, laid out one after another from ``GLOBAL_BASE``."""

    def __init__(self) -> None:
        self.regions: list[Region] = []
        self.next_base = GLOBAL_BASE

    def add(self, name: str, data, array: np.ndarray | None) -> Region:
        r = Region(name, self.next_base, data, array)
        self.regions.append(r)
        end = r.base + max(r.size, 1) + _REGION_GAP
        self.next_base = (end + _REGION_ALIGN - 1) // _REGION_ALIGN * _REGION_ALIGN
        self.starts = np.array([x.base for x in self.regions], np.int64)
        self.ends = np.array([x.base + x.size for x in self.regions], np.int64)
        return r

    def locate(self, addr: np.ndarray, nbytes: int, what: str) -> np.ndarray:
        if not self.regions:
            raise Fault(f"{what} at address {int(addr[0]):#x}: no global memory is mapped")
        idx = np.searchsorted(self.starts, addr, side="right") - 1
        ok = (idx >= 0) & (addr + nbytes <= self.ends[np.clip(idx, 0, None)])
        if not ok.all():
            bad = int(addr[~ok][0])
            raise Fault(f"{what} of {nbytes} bytes at {bad:#x} is outside every global buffer{self.describe(bad)}")
        return idx

    def describe(self, addr: int) -> str:
        near = min(self.regions, key=lambda r: min(abs(addr - r.base), abs(addr - r.base - r.size)))
        off = addr - near.base
        return f" (nearest: '{near.name}' at {near.base:#x}, {near.size} bytes; offset {off})"

    def read(self, addr: np.ndarray, size: int, what: str) -> np.ndarray:
        """``size`` bytes at each address as uint{8 size} (size 16: (n, 2) uint64)."""
        idx = self.locate(addr, size, what)
        out = None
        for ri in np.unique(idx):
            r = self.regions[ri]
            sel = idx == ri
            vals = view_read(r.buf, addr[sel] - r.base, size)
            if out is None:
                if sel.all():
                    return vals
                out = np.zeros((addr.size,) + vals.shape[1:], vals.dtype)
            out[sel] = vals
        return out

    def write(self, addr: np.ndarray, size: int, vals: np.ndarray, what: str) -> None:
        idx = self.locate(addr, size, what)
        for ri in np.unique(idx):
            r = self.regions[ri]
            if r.array is not None and not r.array.flags.writeable:
                raise Fault(f"{what} writes the read-only argument '{r.name}'")
            sel = idx == ri
            view_write(r.buf, addr[sel] - r.base, size, vals[sel])
            r.written = True


def view_read(buf: np.ndarray, off: np.ndarray, size: int) -> np.ndarray:
    if size == 16:
        return buf.view(np.uint64)[(off // 8)[:, None] + np.arange(2)]
    return buf.view(UINT_DTYPE[size * 8])[off // size]


def view_write(buf: np.ndarray, off: np.ndarray, size: int, vals: np.ndarray) -> None:
    if size == 16:
        buf.view(np.uint64)[(off // 8)[:, None] + np.arange(2)] = vals
    else:
        buf.view(UINT_DTYPE[size * 8])[off // size] = vals


def pack_elements(elems: list[np.ndarray], ew: int) -> np.ndarray:
    """Per-thread elements (each uint{ew}) -> one access word (uint{8 size}; 16 bytes: (n, 2) uint64)."""
    stacked = np.ascontiguousarray(np.stack(elems, axis=1).astype(UINT_DTYPE[ew], copy=False))
    size = ew * len(elems) // 8
    if size == 16:
        return stacked.view(np.uint64).reshape(-1, 2)
    return stacked.view(UINT_DTYPE[size * 8]).reshape(-1)


def unpack_elements(word: np.ndarray, ew: int, n: int) -> np.ndarray:
    """Inverse of :func:`pack_elements`: (threads, n) uint{ew}."""
    return np.ascontiguousarray(word).view(UINT_DTYPE[ew]).reshape(-1, n)
