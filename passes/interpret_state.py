"""The interpreter's machine: values, memory, and the loop that runs a block op by op.

:class:`Interpreter` runs the functions of one module: each op's values come from its
handler (``op name -> Handler``, given at construction; the table is
:data:`ltc.passes.interpret_ops.HANDLERS`). :class:`Memory` maps the pointer arguments'
arrays to byte addresses; :class:`SharedView` and :class:`Descriptor` are the values of
shared-memory allocations and tensor descriptors. The handler modules import this one;
:mod:`ltc.passes.interpret` launches kernels with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from ltc.dialects.tt import FuncOp
from ltc.passes.cfg import edges, is_branch
from ltc.passes.interpret_types import TypeInfo, fit, from_memory, to_memory, type_info

__all__ = [
    "Descriptor",
    "Handler",
    "InterpretError",
    "InterpretStats",
    "Interpreter",
    "Memory",
    "SharedView",
    "TERMINATORS",
    "Value",
    "location",
]

Value = object  # np.ndarray | SharedView | Descriptor | None (async tokens)
Handler = Callable[["Interpreter", Operation, list[Value]], Sequence[Value]]

TERMINATORS = frozenset(
    {
        "scf.yield",
        "scf.condition",
        "tt.return",
        "tt.reduce.return",
        "tt.scan.return",
        "tt.map_elementwise.return",
        "cf.br",
        "cf.cond_br",
        "cf.switch",
    }
)
"""Ops that end a block: their operands are the block's results."""


class InterpretError(Exception):
    """A kernel the interpreter cannot run, or that does something invalid (an access out
    of bounds, a failing ``tt.assert``); the message names the op and its location."""

    def __init__(self, message: str, located: bool = False):
        super().__init__(message)
        self.located = located


@dataclass(frozen=True)
class InterpretStats:
    """What one ``run_kernel`` did: programs run, ops executed (in total and by name),
    elements loaded / stored / atomically updated, and masked-off lanes skipped.

    ``racy``: per argument index, the elements of its array whose final value depends on
    the order of a store's lanes (two active lanes of one ``tt.store`` wrote different
    values to them, and no later store overwrote them): on a GPU their value is a race's
    outcome, and any implementation may leave either.

    ``poison``: per op name, how many elements it computed that LLVM's semantics call
    poison (``arith.fptosi`` / ``fptoui`` of NaN, an infinity or a value out of the
    result's range). The interpreter gives them a value, but Triton's code (through LLVM)
    may give anything, and so may whatever depends on them."""

    programs: int
    ops: int
    op_counts: Mapping[str, int]
    loaded: int
    stored: int
    atomics: int
    masked_off: int
    racy: Mapping[int, np.ndarray] = field(default_factory=dict)
    poison: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class SharedView:
    """A ``!ttg.memdesc`` value: a view of one shared-memory allocation (writes go through)."""

    array: np.ndarray


@dataclass(frozen=True)
class Descriptor:
    """A ``!tt.tensordesc`` value: a strided tensor in global memory.

    ``base`` byte address of element 0; ``shape`` and ``strides`` in elements;
    ``info`` the element type; ``pad_nan``: out-of-bounds loads give NaN, not 0.
    """

    base: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    info: TypeInfo
    pad_nan: bool = False

    def addresses(self, coords: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Byte addresses and in-bounds mask of the elements at ``coords`` (one int64
        array per dim, broadcast together)."""
        inside = np.ones(np.broadcast_shapes(*(c.shape for c in coords)), dtype=bool)
        offset = np.zeros(inside.shape, dtype=np.int64)
        for c, size, stride in zip(coords, self.shape, self.strides, strict=True):
            inside &= (c >= 0) & (c < size)
            offset = offset + c.astype(np.int64) * stride
        return self.base + offset * self.info.itemsize, inside


@dataclass(frozen=True)
class _LaneNames:
    """Multi-dimensional lane indices, computed only for the error message."""

    shape: tuple[int, ...]
    flat: np.ndarray

    def __getitem__(self, i: int) -> tuple[int, ...]:
        return tuple(int(j) for j in np.unravel_index(int(self.flat[i]), self.shape)) if self.shape else ()


_ADDRESS_SHIFT = 32  # buffer k lives at [(k + 1) << 32, (k + 1) << 32 + nbytes)


class Memory:
    """Global memory: the argument arrays (and scratch buffers), each at its own base
    address. Loads, stores and atomics take byte addresses and check them."""

    def __init__(self) -> None:
        self._buffers: list[np.ndarray] = []
        self._names: list[str] = []
        self._racy: dict[int, np.ndarray] = {}  # buffer -> bool per byte (see racy_elements)
        self.loaded = 0
        self.stored = 0
        self.atomics = 0
        self.masked_off = 0

    def add(self, array: np.ndarray, name: str) -> int:
        """Register ``array`` (C-contiguous; written in place) and return its base address."""
        if not array.flags.c_contiguous or not array.flags.writeable:
            raise InterpretError(f"{name}: memory arrays must be C-contiguous and writeable (np.ascontiguousarray)")
        if array.nbytes >= 1 << _ADDRESS_SHIFT:
            raise InterpretError(f"{name}: arrays of 4 GiB or more are not supported")
        self._buffers.append(array)
        self._names.append(name)
        return len(self._buffers) << _ADDRESS_SHIFT

    def _typed(self, k: int, dtype: np.dtype) -> np.ndarray:
        raw = self._buffers[k].reshape(-1).view(np.uint8)
        return raw[: raw.size - raw.size % dtype.itemsize].view(dtype)

    def _locate(self, addrs: np.ndarray, itemsize: int, what: str, lanes: _LaneNames) -> tuple[np.ndarray, np.ndarray]:
        """Buffer index and element index of each address; raises on the first bad one."""
        k = (addrs >> _ADDRESS_SHIFT) - 1
        sizes = np.array([b.nbytes for b in self._buffers] + [0], dtype=np.int64)
        known = (k >= 0) & (k < len(self._buffers))
        off = addrs - ((k + 1) << _ADDRESS_SHIFT)
        nbytes = sizes[np.where(known, k, len(self._buffers))]
        good = known & (off >= 0) & (off + itemsize <= nbytes) & (off % itemsize == 0)
        if not good.all():
            i = int(np.flatnonzero(~good)[0])
            addr, lane = int(addrs[i]), lanes[i]
            if not known[i]:
                where = "not inside any argument buffer"
            else:
                kk = int(k[i])
                buf = self._buffers[kk]
                where = (
                    f"byte offset {int(off[i])} of {self._names[kk]} "
                    f"({buf.dtype}{list(buf.shape)}, {buf.nbytes} bytes)"
                )
                if 0 <= off[i] < buf.nbytes and off[i] % itemsize:
                    where += f", misaligned for {itemsize}-byte elements"
            raise InterpretError(f"out-of-bounds {what} at address {addr:#x} (lane {lane}): {where}")
        return k, off // itemsize

    def _active(self, addrs: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
        active = np.ones(addrs.shape, dtype=bool) if mask is None else np.broadcast_to(mask, addrs.shape)
        self.masked_off += int(active.size - np.count_nonzero(active))
        return np.flatnonzero(active.ravel())

    def load(self, addrs: np.ndarray, mask: np.ndarray | None, info: TypeInfo, other: np.ndarray | None = None) -> np.ndarray:
        """Values (value representation) at ``addrs``; masked-off lanes give ``other`` (or 0)."""
        addrs = np.asarray(addrs, dtype=np.int64)
        flat = self._active(addrs, mask)
        bits = np.zeros(addrs.size, dtype=info.mem_dtype)
        picked = addrs.ravel()[flat]
        k, idx = self._locate(picked, info.itemsize, "load", _LaneNames(addrs.shape, flat))
        for kk in np.unique(k):
            sel = k == kk
            bits[flat[sel]] = self._typed(int(kk), info.mem_dtype)[idx[sel]]
        self.loaded += len(flat)
        out = from_memory(bits.reshape(addrs.shape), info)
        if mask is not None:
            fill = np.zeros((), info.dtype) if other is None else other
            out = np.where(np.broadcast_to(mask, addrs.shape), out, fill).astype(info.dtype, copy=False)
        return out

    def store(self, addrs: np.ndarray, values: np.ndarray, mask: np.ndarray | None, info: TypeInfo) -> None:
        """Write ``values`` at ``addrs`` where ``mask`` (lanes in row-major order)."""
        addrs = np.asarray(addrs, dtype=np.int64)
        flat = self._active(addrs, mask)
        k, idx = self._locate(addrs.ravel()[flat], info.itemsize, "store", _LaneNames(addrs.shape, flat))
        bits = to_memory(np.broadcast_to(values, addrs.shape), info).ravel()[flat]
        for kk in np.unique(k):
            sel = k == kk
            self._typed(int(kk), info.mem_dtype)[idx[sel]] = bits[sel]
            self._track_races(int(kk), idx[sel], bits[sel], info.itemsize)
        self.stored += len(flat)

    def _track_races(self, k: int, cells: np.ndarray, bits: np.ndarray, itemsize: int) -> None:
        """Mark the cells that lanes of one store wrote with different values as racy and
        the others it wrote as defined again."""
        order = np.argsort(cells, kind="stable")
        c, b = cells[order], bits[order]
        same_cell = c[1:] == c[:-1]
        clash = same_cell & (b[1:] != b[:-1])
        if not clash.any() and k not in self._racy:
            return
        mask = self._racy.setdefault(k, np.zeros(self._buffers[k].nbytes, dtype=bool))
        racy_cells = np.unique(c[1:][clash])
        byte = np.arange(itemsize)
        mask[(np.unique(c)[:, None] * itemsize + byte).ravel()] = False
        mask[(racy_cells[:, None] * itemsize + byte).ravel()] = True

    def racy_elements(self) -> dict[int, np.ndarray]:
        """Per buffer (in the order added), the element indices left racy, where any."""
        out = {}
        for k, mask in self._racy.items():
            per_element = mask.reshape(-1, self._buffers[k].itemsize).any(axis=1)
            if per_element.any():
                out[k] = np.flatnonzero(per_element)
        return out

    def atomic(
        self,
        addrs: np.ndarray,
        mask: np.ndarray | None,
        info: TypeInfo,
        update: Callable[[np.ndarray, int], np.ndarray],
    ) -> np.ndarray:
        """Apply ``update(old, flat_lane) -> new`` lane by lane in row-major order;
        return the old values (masked-off lanes: 0)."""
        addrs = np.asarray(addrs, dtype=np.int64)
        flat = self._active(addrs, mask)
        k, idx = self._locate(addrs.ravel()[flat], info.itemsize, "atomic", _LaneNames(addrs.shape, flat))
        old = np.zeros(addrs.size, dtype=info.dtype)
        for j, lane in enumerate(flat):
            cell = self._typed(int(k[j]), info.mem_dtype)[idx[j] : idx[j] + 1]
            before = from_memory(cell, info)
            old[lane] = before[0]
            cell[...] = to_memory(fit(update(before, int(lane)), info), info)
        self.atomics += len(flat)
        return old.reshape(addrs.shape)

def location(op: Operation) -> str:
    """``op``'s source location as printed (``loc("x"("gen_ir.py":42:9))``), or ``<unknown>``."""
    loc = getattr(op, "location", None)
    return str(loc) if loc is not None else "<unknown>"


@dataclass
class Interpreter:
    """Runs functions of one module; handlers (``op name -> Handler``) give each op's
    values. ``pid`` / ``grid``: the current program id and the launch grid."""

    module: ModuleOp
    memory: Memory
    grid: tuple[int, int, int]
    handlers: Mapping[str, Handler]
    pid: tuple[int, int, int] = (0, 0, 0)
    env: dict[SSAValue, Value] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    poison: Counter[str] = field(default_factory=Counter)
    """Per op name, elements it computed that LLVM calls poison (see InterpretStats)."""
    _infos: dict[Attribute, TypeInfo] = field(default_factory=dict)
    _memo: dict[Operation, Value] = field(default_factory=dict)

    def info(self, t: Attribute) -> TypeInfo:
        """``type_info(t)``, memoised."""
        found = self._infos.get(t)
        if found is None:
            try:
                found = self._infos[t] = type_info(t)
            except TypeError as e:
                raise InterpretError(str(e)) from None
        return found

    def memo(self, op: Operation, make: Callable[[], Value]) -> Value:
        """A value that depends on ``op`` alone (a constant, a callee), built once."""
        if op not in self._memo:
            self._memo[op] = make()
        return self._memo[op]

    def value(self, v: SSAValue | None) -> Value:
        """The current value of ``v`` (None for an absent optional operand)."""
        return None if v is None else self.env[v]

    def run_block(self, block: Block, args: Sequence[Value]) -> list[Value]:
        """Bind ``args`` to ``block``'s arguments, run its ops, return the operands of its
        terminator (``[]`` when it has none)."""
        env = self.env
        for arg, v in zip(block.args, args, strict=True):
            env[arg] = v
        handlers = self.handlers
        for op in block.ops:
            name = op.name
            self.counts[name] += 1
            if name in TERMINATORS:
                return [env[o] for o in op.operands]
            handler = handlers.get(name)
            if handler is None:
                raise InterpretError(f"unsupported op '{name}' at {location(op)}", located=True)
            try:
                results = handler(self, op, [env[o] for o in op.operands])
            except InterpretError as e:
                if e.located:
                    raise
                raise InterpretError(f"{name} at {location(op)}: {e}", located=True) from None
            except Exception as e:  # a bug or an unsupported case inside a handler
                raise InterpretError(f"{name} at {location(op)}: {type(e).__name__}: {e}", located=True) from e
            for r, v in zip(op.results, results, strict=True):
                env[r] = v
        return []

    def run_region(self, region: Region, args: Sequence[Value]) -> list[Value]:
        """Run ``region`` from its entry block, following ``cf`` branches from block to
        block, and return the operands of the terminator that leaves it."""
        block = region.blocks.first
        assert block is not None
        while True:
            out = self.run_block(block, args)
            term = block.last_op
            if term is None or not is_branch(term):
                return out
            edge = edges(term)[self._successor_index(term, out)]
            block, args = edge.block, [self.env[v] for v in edge.values]

    def _successor_index(self, term: Operation, operands: list[Value]) -> int:
        """Which successor a ``cf`` branch takes, given its operand values."""
        if term.name == "cf.br":
            return 0
        if term.name == "cf.cond_br":
            return 0 if bool(np.asarray(operands[0])) else 1
        flag = int(np.asarray(operands[0]))
        cases = term.properties.get("case_values")
        values = [int(v) for v in cases.get_values()] if cases is not None else []  # type: ignore[attr-defined]
        return 1 + values.index(flag) if flag in values else 0

    def call(self, func: FuncOp, args: Sequence[Value]) -> list[Value]:
        """Run ``func`` on ``args`` in a fresh frame; its ``tt.return`` values."""
        saved, self.env = self.env, {}
        try:
            return self.run_region(func.body, args)
        finally:
            self.env = saved

    def find_func(self, name: str) -> FuncOp:
        """The ``tt.func`` named ``name``."""
        for op in self.module.walk():
            if isinstance(op, FuncOp) and op.sym_name.data == name:
                return op
        raise InterpretError(f"no tt.func named '{name}'")
