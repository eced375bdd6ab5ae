"""Execute a parsed PTX kernel for every CTA of a grid, with numpy, and count what it did.

Execution model
---------------
* CTAs run one after another (in ``ctaid`` order, x fastest); all threads of a
  CTA run in lockstep. Each register is a numpy vector with one entry per thread
  holding raw bits of the register's declared width (``.pred``: bool); an
  instruction reinterprets the bits by its type. Threads are padded to whole
  warps; padding threads never execute.
* A guard ``@%p`` / ``@!%p`` masks the threads that execute an instruction.
  Branches must be uniform over the live threads of the CTA: a ``bra`` that some
  live threads take and others do not raises :class:`SimulationError` naming the
  line. ``ret``/``exit`` under a guard retire those threads.
* Global memory is the pointer arguments: each numpy array's bytes are copied to
  a buffer mapped at its own fake 64-bit base (``GLOBAL_BASE`` upwards, 256-byte
  aligned, 4 KiB apart) and written back to the array after the last CTA.
  Module ``.global``/``.const`` variables get regions too. Shared memory is fresh
  and zero-filled per CTA; its variables are laid out from ``SHARED_BASE`` (an
  address below it, such as one computed without the variable's base, is out of
  bounds); an ``.extern .shared`` array gets ``EXTERN_SHARED_BYTES``. Generic
  addresses of shared memory are ``SHARED_WINDOW + shared address`` (``cvta``).
  An access outside every region, or misaligned for its size, raises.
* ``shfl.sync``, ``vote``, ``redux`` follow the PTX ISA exactly (clamp / segment
  mask, out-of-range lanes keep their own value); a thread outside the member
  mask, or a shuffle reading a lane that does not execute it, raises.
  ``ldmatrix``/``stmatrix`` (m8n8, x1/x2/x4, ``.trans``, b16) use the ISA's
  fragment mapping: thread t holds row ``t // 4``, columns ``2 (t % 4)`` and
  ``2 (t % 4) + 1`` of each matrix (transposed for ``.trans``); matrix i's row
  addresses come from lanes ``8 i .. 8 i + 7``. Barriers only count (lockstep
  already orders every access).

Floating point: f32 and f64 arithmetic is IEEE (numpy float32 / float64); f16
uses numpy float16; bf16 is computed in float32 and rounded to nearest even by
bit manipulation. ``fma`` is correctly rounded (f32/f16/bf16 through an exact
float64 sum and round-to-odd; f64 with exact rationals). Directed rounding
(``.rz/.rm/.rp``) is exact for f32/f16/bf16 add/sub/mul/fma and conversions.
*Approximate* instructions (``ex2/lg2/sin/cos/tanh/rsqrt.approx``,
``div.approx/full``, ``rcp/sqrt.approx``) are computed in float64 and rounded
once to the destination type, i.e. (nearly) exactly, not with the hardware's
error. NaN results of arithmetic are the canonical NaN (all ones payload).

Statistics (:class:`PtxStats`): an *instruction* is counted once per warp that
reaches it with at least one live thread (predicated-off instructions included,
as a warp issues them); ``thread_instructions`` counts threads whose guard was
true. Shared-memory, shuffle, matrix, atomic and global-memory counts are per
warp with at least one executing thread; barriers are per CTA. Wavefronts use
the bank model of :mod:`ltc.lowering.plans.banks`, per warp per executed shared
instruction, executing threads only.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ltc.lowering.plans.banks import matrix_access_wavefronts, plain_access_wavefronts
from ltc.lowering.ptxsim.parse import (
    Address,
    Block,
    FloatImm,
    Imm,
    Instruction,
    Kernel,
    Label,
    Not,
    Operand,
    PredPair,
    PtxModule,
    Reg,
    RegDecl,
    Sink,
    Symbol,
    VarDecl,
    Vector,
    is_special_register,
)

__all__ = [
    "EXTERN_SHARED_BYTES",
    "GLOBAL_BASE",
    "SHARED_BASE",
    "SHARED_WINDOW",
    "PtxStats",
    "SimulationError",
    "run_kernel",
]

WARP = 32
EXTERN_SHARED_BYTES = 228 * 1024
SHARED_BASE = 1024
SHARED_WINDOW = 1 << 32
GLOBAL_BASE = 1 << 40
_REGION_ALIGN = 256
_REGION_GAP = 4096
DEFAULT_MAX_STEPS = 1_000_000


class SimulationError(Exception):
    """A kernel that cannot run: bad arguments, unsupported or faulting instruction.

    ``line``/``column`` locate the PTX instruction (None for argument errors).
    """

    def __init__(self, message: str, line: int | None = None, column: int | None = None, source: str = ""):
        self.message = message
        self.line = line
        self.column = column
        self.source = source
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        return f"line {self.line}: {self.message}" + (f" [{self.source}]" if self.source else "")


class _Fault(Exception):
    """Raised inside an instruction; the run loop adds the line."""


# ============================================================================ statistics
@dataclass(frozen=True)
class PtxStats:
    """What one kernel launch did (see the module doc for what is counted how)."""

    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    instructions: int
    thread_instructions: int
    line_counts: Mapping[int, int]
    shared_loads: int
    shared_stores: int
    matrix_loads: int
    matrix_stores: int
    shared_load_wavefronts: int
    shared_store_wavefronts: int
    wavefronts: int
    wavefront_lower_bound: int
    line_wavefronts: Mapping[int, tuple[int, int]]
    shuffles: int
    barriers: int
    warp_barriers: int
    global_loads: Mapping[int, int]
    global_stores: Mapping[int, int]
    atomics: int
    shared_bytes: int = 0

    @property
    def ctas(self) -> int:
        return self.grid[0] * self.grid[1] * self.grid[2]

    @property
    def threads_per_cta(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]

    @property
    def conflict_free(self) -> bool:
        return self.wavefronts == self.wavefront_lower_bound

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (mapping keys as strings)."""
        out: dict[str, Any] = {}
        for k in self.__dataclass_fields__:
            v = getattr(self, k)
            if isinstance(v, Mapping):
                v = {str(a): (list(b) if isinstance(b, tuple) else b) for a, b in sorted(v.items())}
            elif isinstance(v, tuple):
                v = list(v)
            out[k] = v
        out["ctas"] = self.ctas
        out["threads_per_cta"] = self.threads_per_cta
        return out

    def format_table(self) -> str:
        rows = [
            ("kernel", self.kernel),
            ("grid", "x".join(map(str, self.grid))),
            ("block", "x".join(map(str, self.block))),
            ("warp instructions", self.instructions),
            ("thread instructions", self.thread_instructions),
            ("shared loads", self.shared_loads),
            ("shared stores", self.shared_stores),
            ("ldmatrix", self.matrix_loads),
            ("stmatrix", self.matrix_stores),
            ("shared load wavefronts", self.shared_load_wavefronts),
            ("shared store wavefronts", self.shared_store_wavefronts),
            ("wavefronts", self.wavefronts),
            ("wavefront lower bound", self.wavefront_lower_bound),
            ("shuffles", self.shuffles),
            ("barriers", self.barriers),
            ("warp barriers", self.warp_barriers),
            ("atomics", self.atomics),
        ]
        for bits, n in sorted(self.global_loads.items()):
            rows.append((f"global loads {bits}-bit", n))
        for bits, n in sorted(self.global_stores.items()):
            rows.append((f"global stores {bits}-bit", n))
        width = max(len(r[0]) for r in rows)
        return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


# ============================================================================ types
@dataclass(frozen=True)
class _Ty:
    name: str
    bits: int
    kind: str  # b u s f bf f16x2 bf16x2 pred fp8x2 tf32


def _make_types() -> dict[str, _Ty]:
    t: dict[str, _Ty] = {}
    for w in (8, 16, 32, 64):
        for k in ("b", "u", "s"):
            t[f"{k}{w}"] = _Ty(f"{k}{w}", w, k)
    for w in (16, 32, 64):
        t[f"f{w}"] = _Ty(f"f{w}", w, "f")
    t["bf16"] = _Ty("bf16", 16, "bf")
    t["f16x2"] = _Ty("f16x2", 32, "f16x2")
    t["bf16x2"] = _Ty("bf16x2", 32, "bf16x2")
    t["pred"] = _Ty("pred", 1, "pred")
    t["e4m3x2"] = _Ty("e4m3x2", 16, "fp8x2")
    t["e5m2x2"] = _Ty("e5m2x2", 16, "fp8x2")
    t["tf32"] = _Ty("tf32", 32, "tf32")
    return t


_TYPES = _make_types()
_UINT = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
_SINT = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
_FLOAT = {16: np.float16, 32: np.float32, 64: np.float64}
_FLOAT_KINDS = ("f", "bf", "f16x2", "bf16x2")
_B = {w: _TYPES[f"b{w}"] for w in (8, 16, 32, 64)}
_U32 = _TYPES["u32"]
_U64 = _TYPES["u64"]
_PRED = _TYPES["pred"]
_CANON_NAN = {16: 0x7FFF, 32: 0x7FFFFFFF, 64: 0x7FFFFFFFFFFFFFFF}


def _split_mods(mods: tuple[str, ...]) -> tuple[list[_Ty], list[str]]:
    types = [_TYPES[m] for m in mods if m in _TYPES]
    flags = [m for m in mods if m not in _TYPES]
    return types, flags


def _float_target(ty: _Ty) -> str:
    """The scalar float format of a float type's lanes."""
    if ty.kind == "f":
        return f"f{ty.bits}"
    return {"bf": "bf16", "f16x2": "f16", "bf16x2": "bf16"}[ty.kind]


# ---------------------------------------------------------------- bit <-> value
def _bf16_bits_to_f32(b16: np.ndarray) -> np.ndarray:
    return (b16.astype(np.uint32) << np.uint32(16)).view(np.float32)


def _f32_to_bf16_bits(v: np.ndarray) -> np.ndarray:
    """Round float32 values to bfloat16 (nearest even); NaN -> 0x7FFF."""
    v = np.ascontiguousarray(v, dtype=np.float32)
    u = v.view(np.uint32)
    r = (u + np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16)
    r = np.where(np.isnan(v), np.uint32(0x7FFF), r)
    return r.astype(np.uint16)


def _bf16_round(v32: np.ndarray) -> np.ndarray:
    """float32 -> the nearest-even bfloat16 value, as float32."""
    return _bf16_bits_to_f32(_f32_to_bf16_bits(v32))


def _from_bits(ty: _Ty) -> Callable[[np.ndarray], np.ndarray] | None:
    k = ty.kind
    if k in ("b", "u", "pred", "fp8x2", "tf32"):
        return None
    if k == "s":
        dt = _SINT[ty.bits]
        return lambda b: b.view(dt)
    if k == "f":
        dt = _FLOAT[ty.bits]
        return lambda b: b.view(dt)
    if k == "bf":
        return _bf16_bits_to_f32
    if k == "f16x2":
        return lambda b: np.ascontiguousarray(b).view(np.uint16).reshape(-1, 2).view(np.float16)
    if k == "bf16x2":
        return lambda b: _bf16_bits_to_f32(np.ascontiguousarray(b).view(np.uint16).reshape(-1, 2))
    raise AssertionError(k)


def _to_bits(ty: _Ty, canon: bool = False) -> Callable[[np.ndarray], np.ndarray]:
    k, w = ty.kind, ty.bits
    if k == "pred":
        return lambda v: np.asarray(v, dtype=bool)
    if k in ("b", "u", "fp8x2", "tf32"):
        dt = _UINT[w]
        return lambda v: np.asarray(v).astype(dt, copy=False)
    if k == "s":
        st, ut = _SINT[w], _UINT[w]
        return lambda v: np.asarray(v).astype(st, copy=False).view(ut)
    if k == "f":
        ft, ut = _FLOAT[w], _UINT[w]
        if canon:
            nan = ut(_CANON_NAN[w])

            def f(v):
                v = np.asarray(v).astype(ft, copy=False)
                return np.where(np.isnan(v), nan, v.view(ut))

            return f
        return lambda v: np.ascontiguousarray(np.asarray(v).astype(ft, copy=False)).view(ut)
    if k == "bf":
        return lambda v: _f32_to_bf16_bits(v)
    if k == "f16x2":
        nan = np.uint16(0x7FFF)

        def f2(v):
            h = np.ascontiguousarray(np.asarray(v).astype(np.float16, copy=False)).view(np.uint16)
            if canon:
                h = np.where(np.isnan(v), nan, h)
            return np.ascontiguousarray(h).view(np.uint32).reshape(-1)

        return f2
    if k == "bf16x2":
        return lambda v: np.ascontiguousarray(_f32_to_bf16_bits(v)).view(np.uint32).reshape(-1)
    raise AssertionError(k)


def _fit(bits: np.ndarray, width: int) -> np.ndarray:
    """Truncate or zero-extend unsigned ``bits`` to ``width`` bits."""
    if bits.dtype.itemsize * 8 == width:
        return bits
    return bits.astype(_UINT[width])


def _extend(bits: np.ndarray, src_width: int, dst_width: int, signed: bool) -> np.ndarray:
    if src_width == dst_width:
        return bits
    if dst_width > src_width and signed:
        return bits.view(_SINT[src_width]).astype(_SINT[dst_width]).view(_UINT[dst_width])
    return bits.astype(_UINT[dst_width])


# ---------------------------------------------------------------- float rounding
def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, np.where(np.isfinite(s), e, 0.0)


def _odd64(s: np.ndarray, e: np.ndarray) -> np.ndarray:
    """float64 round-to-odd of the exact value ``s + e`` (``|e| <= ulp(s) / 2``)."""
    s = np.asarray(s, dtype=np.float64)
    inexact = (e != 0) & np.isfinite(s)
    if not inexact.any():
        return s
    even = (np.ascontiguousarray(s).view(np.uint64) & np.uint64(1)) == 0
    nb = np.nextafter(s, np.where(e > 0, np.inf, -np.inf))
    return np.where(inexact & even, nb, s)


def _odd32(x: np.ndarray) -> np.ndarray:
    """float64 -> float32 with round-to-odd (keeps enough to round again exactly)."""
    x = np.asarray(x, dtype=np.float64)
    r = x.astype(np.float32)
    r64 = r.astype(np.float64)
    inexact = (r64 != x) & ~np.isnan(x) & ~np.isinf(x)
    if not inexact.any():
        return r
    over = np.abs(r64) > np.abs(x)
    t = np.where(over, np.nextafter(r, np.float32(0)), r)
    tb = np.ascontiguousarray(t).view(np.uint32) | np.uint32(1)
    return np.where(inexact, tb.view(np.float32), r)


def _bf16_next(v32: np.ndarray, up: np.ndarray) -> np.ndarray:
    """The bfloat16 neighbour of bf16 values ``v32`` toward +inf (``up``) or -inf."""
    b = _f32_to_bf16_bits(v32).astype(np.int32)
    key = np.where(b & 0x8000, -(b & 0x7FFF), b)
    key = key + np.where(up, 1, -1)
    nb = np.where(key < 0, (-key) | 0x8000, key).astype(np.uint16)
    return _bf16_bits_to_f32(nb)


def _round_f64(x: np.ndarray, target: str, mode: str = "rn") -> np.ndarray:
    """Round float64 ``x`` (exact, or round-to-odd of the exact value) to ``target``.

    Returns the compute representation (bf16 as float32 values).
    """
    x = np.asarray(x, dtype=np.float64)
    if target == "f64":
        return x
    if target == "f32":
        r = x.astype(np.float32)
    elif target == "f16":
        r = _odd32(x).astype(np.float16)
    elif target == "bf16":
        r = _bf16_round(_odd32(x))
    else:  # pragma: no cover
        raise AssertionError(target)
    if mode == "rn":
        return r
    r64 = r.astype(np.float64)
    if mode == "rz":
        fix = np.abs(r64) > np.abs(x)
        up = r64 < 0
    elif mode == "rm":
        fix = r64 > x
        up = np.zeros(x.shape, bool)
    elif mode == "rp":
        fix = r64 < x
        up = np.ones(x.shape, bool)
    else:
        raise _Fault(f"rounding mode .{mode} is not supported here")
    if not fix.any():
        return r
    if target == "bf16":
        return np.where(fix, _bf16_next(r, up), r)
    toward = np.where(up, np.inf, -np.inf).astype(r.dtype)
    return np.where(fix, np.nextafter(r, toward), r)


def _round_pair_f64(s: np.ndarray, e: np.ndarray, mode: str) -> np.ndarray:
    """float64 rounding of the exact ``s + e`` where ``s`` is its nearest-even float64."""
    if mode == "rn":
        return s
    if mode == "rz":
        fix = (e != 0) & (np.sign(e) != np.sign(s))
        return np.where(fix, np.nextafter(s, 0.0), s)
    if mode == "rm":
        return np.where(e < 0, np.nextafter(s, -np.inf), s)
    return np.where(e > 0, np.nextafter(s, np.inf), s)


def _ftz(v: np.ndarray, tiny: float) -> np.ndarray:
    return np.where(np.abs(v) < tiny, np.copysign(np.zeros((), v.dtype), v), v)


def _tiny(target: str) -> float:
    return {"f16": 2.0**-14, "bf16": 2.0**-126, "f32": 2.0**-126, "f64": 2.0**-1022}[target]


def _saturate(v: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(v), np.zeros((), v.dtype), np.clip(v, 0, 1)).astype(v.dtype, copy=False)


def _fma_exact_f64(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Correctly rounded float64 fma, element by element with exact rationals."""
    out = np.empty(np.broadcast(a, b, c).shape, np.float64)
    fa, fb, fc = np.broadcast_arrays(a, b, c)
    for i in np.ndindex(out.shape):
        x, y, z = float(fa[i]), float(fb[i]), float(fc[i])
        if all(np.isfinite((x, y, z))):
            exact = Fraction(x) * Fraction(y) + Fraction(z)
            if exact == 0:
                out[i] = x * y + z  # the sign of an exact zero follows IEEE
            else:
                try:
                    out[i] = float(exact)
                except OverflowError:
                    out[i] = np.inf if exact > 0 else -np.inf
        else:
            out[i] = x * y + z
    return out


# ---------------------------------------------------------------- fp8
def _fp8_values(fmt: str) -> np.ndarray:
    """float64 value of each of the 256 codes of e4m3 (fn) or e5m2."""
    vals = np.empty(256, np.float64)
    for code in range(256):
        s = -1.0 if code & 0x80 else 1.0
        if fmt == "e4m3":
            e, m = (code >> 3) & 15, code & 7
            if e == 15 and m == 7:
                vals[code] = np.nan
            elif e == 0:
                vals[code] = s * m / 8 * 2.0**-6
            else:
                vals[code] = s * (1 + m / 8) * 2.0 ** (e - 7)
        else:
            e, m = (code >> 2) & 31, code & 3
            if e == 31:
                vals[code] = s * np.inf if m == 0 else np.nan
            elif e == 0:
                vals[code] = s * m / 4 * 2.0**-14
            else:
                vals[code] = s * (1 + m / 4) * 2.0 ** (e - 15)
    return vals


_FP8_VALUES = {"e4m3": _fp8_values("e4m3"), "e5m2": _fp8_values("e5m2")}
_FP8_MAX_CODE = {"e4m3": 0x7E, "e5m2": 0x7B}
_FP8_NAN = {"e4m3": 0x7F, "e5m2": 0x7F}


def _encode_fp8(x: np.ndarray, fmt: str, satfinite: bool, relu: bool) -> np.ndarray:
    """float64 -> fp8 codes (uint8), round to nearest even."""
    x = np.asarray(x, np.float64)
    if relu:
        x = np.where(x < 0, 0.0, x)
    vals = _FP8_VALUES[fmt][: _FP8_MAX_CODE[fmt] + 1]  # positive finite, ascending
    a = np.abs(x)
    hi = np.clip(np.searchsorted(vals, a, side="left"), 0, len(vals) - 1)
    lo = np.clip(hi - 1, 0, None)
    dlo = a - vals[lo]
    dhi = vals[hi] - a
    pick_hi = (dhi < dlo) | ((dhi == dlo) & (hi % 2 == 0))
    code = np.where(a <= vals[0], 0, np.where(pick_hi, hi, lo))
    maxc = _FP8_MAX_CODE[fmt]
    max_val = vals[maxc]
    half_ulp = (vals[maxc] - vals[maxc - 1]) / 2
    over = a > max_val
    if satfinite:
        code = np.where(over, maxc, code)
    else:
        overflow_code = 0x7C if fmt == "e5m2" else _FP8_NAN[fmt]
        code = np.where(a >= max_val + half_ulp, overflow_code, np.where(over, maxc, code))
    code = code.astype(np.uint8) | np.where(np.signbit(x), np.uint8(0x80), np.uint8(0))
    return np.where(np.isnan(x), np.uint8(_FP8_NAN[fmt]), code).astype(np.uint8)


# ============================================================================ memory
class _Region:
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


class _GlobalMemory:
    def __init__(self) -> None:
        self.regions: list[_Region] = []
        self.next_base = GLOBAL_BASE

    def add(self, name: str, data, array: np.ndarray | None) -> _Region:
        r = _Region(name, self.next_base, data, array)
        self.regions.append(r)
        end = r.base + max(r.size, 1) + _REGION_GAP
        self.next_base = (end + _REGION_ALIGN - 1) // _REGION_ALIGN * _REGION_ALIGN
        self.starts = np.array([x.base for x in self.regions], np.int64)
        self.ends = np.array([x.base + x.size for x in self.regions], np.int64)
        return r

    def locate(self, addr: np.ndarray, nbytes: int, what: str) -> np.ndarray:
        if not self.regions:
            raise _Fault(f"{what} at address {int(addr[0]):#x}: no global memory is mapped")
        idx = np.searchsorted(self.starts, addr, side="right") - 1
        ok = (idx >= 0) & (addr + nbytes <= self.ends[np.clip(idx, 0, None)])
        if not ok.all():
            bad = int(addr[~ok][0])
            raise _Fault(f"{what} of {nbytes} bytes at {bad:#x} is outside every global buffer{self.describe(bad)}")
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
            vals = _view_read(r.buf, addr[sel] - r.base, size)
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
                raise _Fault(f"{what} writes the read-only argument '{r.name}'")
            sel = idx == ri
            _view_write(r.buf, addr[sel] - r.base, size, vals[sel])
            r.written = True


def _view_read(buf: np.ndarray, off: np.ndarray, size: int) -> np.ndarray:
    if size == 16:
        return buf.view(np.uint64)[(off // 8)[:, None] + np.arange(2)]
    return buf.view(_UINT[size * 8])[off // size]


def _view_write(buf: np.ndarray, off: np.ndarray, size: int, vals: np.ndarray) -> None:
    if size == 16:
        buf.view(np.uint64)[(off // 8)[:, None] + np.arange(2)] = vals
    else:
        buf.view(_UINT[size * 8])[off // size] = vals


def _pack_elements(elems: list[np.ndarray], ew: int) -> np.ndarray:
    """Per-thread elements (each uint{ew}) -> one access word (uint{8 size}; 16 bytes: (n, 2) uint64)."""
    stacked = np.ascontiguousarray(np.stack(elems, axis=1).astype(_UINT[ew], copy=False))
    size = ew * len(elems) // 8
    if size == 16:
        return stacked.view(np.uint64).reshape(-1, 2)
    return stacked.view(_UINT[size * 8]).reshape(-1)


def _unpack_elements(word: np.ndarray, ew: int, n: int) -> np.ndarray:
    """Inverse of :func:`_pack_elements`: (threads, n) uint{ew}."""
    return np.ascontiguousarray(word).view(_UINT[ew]).reshape(-1, n)


# ============================================================================ machine state
class _Cta:
    __slots__ = ("regs", "special", "smem", "alive", "full", "alive_warps", "ctaid")

    def __init__(self) -> None:
        self.regs: list[np.ndarray] = []
        self.special: dict[str, np.ndarray] = {}
        self.smem = np.zeros(0, np.uint8)
        self.alive = np.zeros(0, bool)
        self.full = True
        self.alive_warps = 0
        self.ctaid = (0, 0, 0)


class _Op:
    __slots__ = ("fn", "guard", "negated", "ins")

    def __init__(self, fn, guard: int | None, negated: bool, ins: Instruction) -> None:
        self.fn = fn
        self.guard = guard
        self.negated = negated
        self.ins = ins


class _Counters:
    def __init__(self, n_ops: int) -> None:
        self.issues = np.zeros(n_ops, np.int64)
        self.thread_instructions = 0
        self.shared_loads = 0
        self.shared_stores = 0
        self.matrix_loads = 0
        self.matrix_stores = 0
        self.load_wf = 0
        self.store_wf = 0
        self.wf = 0
        self.lb = 0
        self.line_wf: dict[int, list[int]] = {}
        self.shuffles = 0
        self.barriers = 0
        self.warp_barriers = 0
        self.global_loads: dict[int, int] = {}
        self.global_stores: dict[int, int] = {}
        self.atomics = 0

    def wavefronts(self, line: int, wf: int, lb: int, store: bool) -> None:
        self.wf += wf
        self.lb += lb
        if store:
            self.store_wf += wf
        else:
            self.load_wf += wf
        acc = self.line_wf.setdefault(line, [0, 0])
        acc[0] += wf
        acc[1] += lb


_SPECIAL_U64 = {"%clock64", "%globaltimer", "%gridid"}


# ============================================================================ the decoder
class _Machine:
    """One launch: decoded code, memory, counters; runs CTAs one at a time."""

    def __init__(self, module: PtxModule, kernel: Kernel, grid: tuple[int, int, int],
                 block: tuple[int, int, int], args: Sequence[Any], max_steps: int) -> None:
        self.module = module
        self.kernel = kernel
        self.grid = grid
        self.block = block
        self.threads = block[0] * block[1] * block[2]
        self.warps = (self.threads + WARP - 1) // WARP
        self.tp = self.warps * WARP
        self.max_steps = max_steps
        t = np.arange(self.tp)
        self.t = t
        self.lane = (t % WARP).astype(np.int64)
        self.warp_of = t // WARP
        self.warp_base = self.warp_of * WARP
        self.exists = t < self.threads
        self.mem = _GlobalMemory()
        self.symbols: dict[str, tuple[str, int]] = {}  # name -> (space, address)
        self._layout_variables()
        self._bind_params(args)
        self.slot_types: list[_Ty] = []
        self.labels: dict[str, int] = {}
        self.code: list[_Op] = []
        self._decode_kernel()
        self.counters = _Counters(len(self.code))

    # ------------------------------------------------------------ setup
    def _layout_variables(self) -> None:
        """Addresses of module / kernel variables: shared ones from SHARED_BASE, the
        ``.extern .shared`` arrays (dynamic shared memory, all at one address) last."""
        shared_end = SHARED_BASE
        externs: list[VarDecl] = []
        for v in list(self.module.variables) + _walk_vars(self.kernel.statements):
            if v.space == "shared":
                if v.size is None:
                    if not v.extern:
                        raise SimulationError(f"shared array '{v.name}' has no size", v.line)
                    externs.append(v)
                    continue
                shared_end = (shared_end + v.align - 1) // v.align * v.align
                self.symbols[v.name] = ("shared", shared_end)
                shared_end += v.size
            elif v.space in ("global", "const"):
                if v.size is None:
                    raise SimulationError(f"{v.space} array '{v.name}' has no size", v.line)
                data = _init_bytes(v, v.size, self.symbols, self.mem)
                r = self.mem.add(v.name, data, None)
                self.symbols[v.name] = ("global", r.base)
            else:
                raise SimulationError(f".{v.space} variables are not supported ('{v.name}')", v.line)
        if externs:
            align = max(v.align for v in externs)
            shared_end = (shared_end + align - 1) // align * align
            for v in externs:
                self.symbols[v.name] = ("shared", shared_end)
            shared_end += EXTERN_SHARED_BYTES
        self.shared_size = shared_end

    def _bind_params(self, args: Sequence[Any]) -> None:
        params = self.kernel.params
        if len(args) != len(params):
            names = ", ".join(p.name for p in params)
            raise SimulationError(
                f"kernel '{self.kernel.name}' takes {len(params)} arguments ({names}), got {len(args)}"
            )
        buf = bytearray()
        seen: dict[int, _Region] = {}
        for p, a in zip(params, args):
            align = max(p.align or 1, min(8, _param_elem_bytes(p))) if p.dims else min(8, p.size)
            while len(buf) % max(1, align):
                buf.append(0)
            self.symbols[p.name] = ("param", len(buf))
            buf += self._param_bytes(p, a, seen)
        padded = bytes(buf) + bytes(16 + (-len(buf)) % 16)
        self.param_buf = np.frombuffer(padded, np.uint8).copy()
        self.param_size = len(buf)

    def _param_bytes(self, p, a, seen: dict[int, "_Region"]) -> bytes:
        ty = _TYPES.get(p.type)
        if p.dims:
            if isinstance(a, (bytes, bytearray)):
                data = bytes(a)
            elif isinstance(a, np.ndarray):
                data = a.tobytes()
            else:
                raise SimulationError(f"parameter '{p.name}' is a byte array: pass bytes or a numpy array")
            if len(data) != p.size:
                raise SimulationError(f"parameter '{p.name}' takes {p.size} bytes, got {len(data)}")
            return data
        if ty is None or ty.kind == "pred":
            raise SimulationError(f"parameter '{p.name}' has unsupported type .{p.type}")
        if isinstance(a, np.ndarray) and a.ndim > 0 or a is None:
            if ty.bits != 64 or ty.kind not in ("b", "u", "s"):
                raise SimulationError(f"parameter '{p.name}' (.{p.type}) is not a pointer; got an array")
            if a is None:
                return (0).to_bytes(8, "little")
            key = id(a)
            if key not in seen:
                for other in seen.values():
                    if other.array is not None and np.shares_memory(other.array, a):
                        raise SimulationError(
                            f"argument for '{p.name}' overlaps the array of '{other.name}'; pass the same array object"
                        )
                data = np.ascontiguousarray(a).view(np.uint8).reshape(-1)
                seen[key] = self.mem.add(p.name, data, a)
            return seen[key].base.to_bytes(8, "little")
        if isinstance(a, np.ndarray):
            a = a.item()
        if isinstance(a, np.generic):
            a = a.item()
        if ty.kind in ("b", "u", "s"):
            if not isinstance(a, int):  # bool is an int
                raise SimulationError(f"parameter '{p.name}' (.{p.type}) takes an integer, got {a!r}")
            v = int(a)
            if not -(1 << (ty.bits - 1)) <= v < (1 << ty.bits):
                raise SimulationError(f"parameter '{p.name}' (.{p.type}): {v} does not fit")
            return (v & ((1 << ty.bits) - 1)).to_bytes(ty.bits // 8, "little")
        if not isinstance(a, (int, float)) or isinstance(a, bool):
            raise SimulationError(f"parameter '{p.name}' (.{p.type}) takes a number, got {a!r}")
        if ty.name == "f32":
            return struct.pack("<f", float(a))
        if ty.name == "f64":
            return struct.pack("<d", float(a))
        if ty.name == "f16":
            return np.float16(a).tobytes()
        if ty.name == "bf16":
            return _f32_to_bf16_bits(np.array([a], np.float32)).tobytes()
        raise SimulationError(f"parameter '{p.name}' has unsupported type .{p.type}")

    # ------------------------------------------------------------ decoding
    def _decode_kernel(self) -> None:
        pending: list[tuple[Instruction, list[dict[str, int]]]] = []
        scopes: list[dict[str, int]] = []

        def walk(stmts) -> None:
            scopes.append({})
            for s in stmts:
                if isinstance(s, RegDecl):
                    ty = _TYPES.get(s.type)
                    if ty is None or ty.kind in ("fp8x2",) or s.type == "b128":
                        raise SimulationError(f"registers of type .{s.type} are not supported", s.line)
                    for name in s.names:
                        scopes[-1][name] = len(self.slot_types)
                        self.slot_types.append(_reg_type(ty))
            for s in stmts:
                if isinstance(s, Instruction):
                    pending.append((s, list(scopes)))
                elif isinstance(s, Label):
                    self.labels[s.name] = len(pending)
                elif isinstance(s, Block):
                    walk(s.statements)
            scopes.pop()

        walk(self.kernel.statements)
        for ins, sc in pending:
            self._scopes = sc
            self._ins = ins
            try:
                fn = self._decode(ins)
                guard = None
                neg = False
                if ins.guard is not None:
                    slot = self._slot(ins.guard.reg)
                    if self.slot_types[slot].kind != "pred":
                        raise _Fault(f"guard {ins.guard.reg} is not a predicate")
                    guard, neg = slot, ins.guard.negated
            except _Fault as e:
                raise SimulationError(str(e), ins.line, ins.column, ins.source) from None
            self.code.append(_Op(fn, guard, neg, ins))

    def _slot(self, reg: Reg) -> int:
        for scope in reversed(self._scopes):
            if reg.name in scope:
                return scope[reg.name]
        raise _Fault(f"undeclared register {reg.name}")

    def _decode(self, ins: Instruction):
        method = getattr(self, "_op_" + ins.opcode, None)
        if method is None:
            raise _Fault(f"unsupported instruction '{ins.mnemonic}'")
        return method(ins)

    # ------------------------------------------------------------ operand access
    def _const(self, op: Operand, ty: _Ty) -> np.ndarray:
        """Raw bits (full-length array) of an immediate or symbol operand read as ``ty``."""
        if ty.kind == "pred":
            if isinstance(op, Imm):
                return np.full(self.tp, bool(op.value))
            raise _Fault(f"operand {op} is not a predicate")
        ut = _UINT[ty.bits] if ty.bits in _UINT else None
        if isinstance(op, Symbol):
            if op.name not in self.symbols or self.symbols[op.name][0] == "param":
                raise _Fault(f"'{op.name}' is not a variable whose address can be taken")
            return np.full(self.tp, self.symbols[op.name][1] & ((1 << ty.bits) - 1), ut)
        if ty.kind in _FLOAT_KINDS:
            if isinstance(op, Imm):
                value = float(op.value)
            elif isinstance(op, FloatImm):
                if op.width == ty.bits and ty.kind == "f":
                    return np.full(self.tp, op.bits, ut)
                value = op.value
            else:
                raise _Fault(f"operand {op} is not a constant")
            target = _float_target(ty)
            v = _round_f64(np.full(self.tp, value), target)
            if ty.kind in ("f16x2", "bf16x2"):
                v = np.stack([v, v], axis=1)
            return _to_bits(ty)(v)
        if isinstance(op, Imm):
            return np.full(self.tp, op.value & ((1 << ty.bits) - 1), ut)
        if isinstance(op, FloatImm):
            if op.width != ty.bits:
                raise _Fault(f"{op.width}-bit float literal {op} used as .{ty.name}")
            return np.full(self.tp, op.bits, ut)
        raise _Fault(f"operand {op} is not a constant")

    def _bits(self, op: Operand, ty: _Ty) -> Callable[[_Cta], np.ndarray]:
        """Reader of ``op``'s raw bits as ``ty`` (uint of ty.bits; bool for pred)."""
        if isinstance(op, Not):
            if ty.kind != "pred":
                raise _Fault(f"'!{op.reg}' where a .{ty.name} value is expected")
            inner = self._bits(op.reg, ty)
            return lambda c: ~inner(c)
        if isinstance(op, Reg):
            if is_special_register(op.name) and not any(op.name in s for s in self._scopes):
                name = op.name
                if ty.kind == "pred":
                    raise _Fault(f"special register {name} is not a predicate")
                w = ty.bits
                return lambda c: _fit(c.special[name], w)
            slot = self._slot(op)
            st = self.slot_types[slot]
            if ty.kind == "pred" or st.kind == "pred":
                if ty.kind != st.kind:
                    raise _Fault(f"register {op.name} is .{st.name}, the instruction reads .{ty.name}")
                return lambda c: c.regs[slot]
            if st.bits == ty.bits:
                return lambda c: c.regs[slot]
            w = ty.bits
            return lambda c: _fit(c.regs[slot], w)
        const = self._const(op, ty)
        return lambda c: const

    def _value(self, op: Operand, ty: _Ty) -> Callable[[_Cta], np.ndarray]:
        """Reader of ``op`` as ``ty``'s compute value (ints, floats; bf16 as float32)."""
        raw = self._bits(op, ty)
        conv = _from_bits(ty)
        if conv is None:
            return raw
        return lambda c: conv(raw(c))

    def _bits_writer(self, op: Operand, ty: _Ty) -> Callable[[_Cta, np.ndarray, np.ndarray | None], None]:
        if isinstance(op, Sink):
            return lambda c, v, m: None
        if not isinstance(op, Reg) or is_special_register(op.name) and not any(op.name in s for s in self._scopes):
            raise _Fault(f"cannot write to {op}")
        slot = self._slot(op)
        st = self.slot_types[slot]
        if (st.kind == "pred") != (ty.kind == "pred"):
            raise _Fault(f"register {op.name} is .{st.name}, the instruction writes .{ty.name}")
        src_w, dst_w, signed = ty.bits, st.bits, ty.kind == "s"
        tp = self.tp

        def write(c: _Cta, bits: np.ndarray, mask: np.ndarray | None) -> None:
            if st.kind != "pred":
                bits = _extend(bits, src_w, dst_w, signed)
            if bits.shape != (tp,):
                bits = np.broadcast_to(bits, (tp,)).copy()
            elif not bits.flags.c_contiguous:
                bits = np.ascontiguousarray(bits)
            c.regs[slot] = bits if mask is None else np.where(mask, bits, c.regs[slot])

        return write

    def _writer(self, op: Operand, ty: _Ty, canon: bool = False):
        w = self._bits_writer(op, ty)
        conv = _to_bits(ty, canon)
        return lambda c, v, m: w(c, conv(v), m)

    def _address(self, op: Operand, space: str) -> Callable[[_Cta], np.ndarray]:
        """Reader of an address operand's value (int64) in ``space``."""
        if not isinstance(op, Address):
            raise _Fault(f"expected an address [..], got {op}")
        off = op.offset
        if op.base is None:
            const = np.full(self.tp, off, np.int64)
            return lambda c: const
        if isinstance(op.base, Symbol):
            name = op.base.name
            if name not in self.symbols:
                raise _Fault(f"unknown symbol '{name}'")
            sp, addr = self.symbols[name]
            if sp == "param" and space != "param":
                raise _Fault(f"'{name}' is a kernel parameter; read it with ld.param")
            if sp != "param" and space == "param":
                raise _Fault(f"'{name}' is not a kernel parameter")
            if sp == "shared" and space not in ("shared", "generic"):
                raise _Fault(f"'{name}' is a .shared variable, accessed as .{space}")
            if sp == "shared" and space == "generic":
                addr += SHARED_WINDOW
            const = np.full(self.tp, addr + off, np.int64)
            return lambda c: const
        slot_reader = self._bits(op.base, _U64 if self._reg_bits(op.base) == 64 else _U32)
        o = np.int64(off)
        return lambda c: slot_reader(c).astype(np.int64) + o

    def _reg_bits(self, reg: Reg) -> int:
        if is_special_register(reg.name) and not any(reg.name in s for s in self._scopes):
            return 64 if reg.name in _SPECIAL_U64 else 32
        return self.slot_types[self._slot(reg)].bits

    def _operands(self, ins: Instruction, n: int, at_least: bool = False) -> tuple[Operand, ...]:
        ops = ins.operands
        if (len(ops) < n) if at_least else (len(ops) != n):
            raise _Fault(f"'{ins.mnemonic}' takes {n}{' or more' if at_least else ''} operands, got {len(ops)}")
        return ops

    def _one_type(self, ins: Instruction) -> tuple[_Ty, list[str]]:
        types, flags = _split_mods(ins.modifiers)
        if len(types) != 1:
            raise _Fault(f"'{ins.mnemonic}': expected one type modifier")
        return types[0], flags

    # ------------------------------------------------------------ helpers for execution
    def _active_idx(self, mask: np.ndarray | None) -> np.ndarray | None:
        return None if mask is None else np.flatnonzero(mask)

    def _active_warps(self, mask: np.ndarray | None) -> int:
        if mask is None:
            return self.warps
        return int(mask.reshape(self.warps, WARP).any(axis=1).sum())

    # ============================================================ instructions: moves
    def _op_mov(self, ins: Instruction):
        ty, _ = self._one_type(ins)
        d, a = self._operands(ins, 2)
        if isinstance(d, Vector):
            n = len(d.elements)
            ew = ty.bits // n
            if ew * n != ty.bits or ew not in _UINT:
                raise _Fault(f"cannot split .{ty.name} into {n} parts")
            src = self._bits(a, _B[ty.bits] if ty.kind != "pred" else ty)
            writers = [self._bits_writer(e, _B[ew]) for e in d.elements]
            mask_e = _UINT[ty.bits]((1 << ew) - 1) if ew < 64 else None
            ut = _UINT[ty.bits]

            def unpack(c, m):
                v = src(c)
                for k, w in enumerate(writers):
                    part = v >> ut(k * ew) if k else v
                    w(c, (part & mask_e).astype(_UINT[ew]), m)

            return unpack
        if isinstance(a, Vector):
            n = len(a.elements)
            ew = ty.bits // n
            if ew * n != ty.bits or ew not in _UINT:
                raise _Fault(f"cannot pack {n} parts into .{ty.name}")
            parts = [self._bits(e, _B[ew]) for e in a.elements]
            w = self._bits_writer(d, _B[ty.bits])
            ut = _UINT[ty.bits]

            def pack(c, m):
                acc = parts[0](c).astype(ut)
                for k in range(1, n):
                    acc = acc | (parts[k](c).astype(ut) << ut(k * ew))
                w(c, acc, m)

            return pack
        if ty.kind == "pred":
            src = self._bits(a, ty)
        elif ty.kind in _FLOAT_KINDS and isinstance(a, (Imm, FloatImm)):
            src = self._bits(a, ty)
        else:
            src = self._bits(a, _B[ty.bits] if ty.bits in _B else ty)
        w = self._bits_writer(d, ty if ty.kind == "pred" else _B[ty.bits])
        return lambda c, m: w(c, src(c), m)

    def _op_selp(self, ins: Instruction):
        ty, _ = self._one_type(ins)
        d, a, b, p = self._operands(ins, 4)
        bt = ty if ty.kind == "pred" else _B[ty.bits]
        # Immediates take the instruction's type (a float literal of selp.f32);
        # registers are copied bit for bit.
        ra = self._bits(a, ty if isinstance(a, (Imm, FloatImm)) else bt)
        rb = self._bits(b, ty if isinstance(b, (Imm, FloatImm)) else bt)
        rp = self._bits(p, _PRED)
        w = self._bits_writer(d, bt)
        return lambda c, m: w(c, np.where(rp(c), ra(c), rb(c)), m)

    def _op_createpolicy(self, ins: Instruction):
        d = ins.operands[0]
        w = self._bits_writer(d, _B[64])
        zero = np.zeros(self.tp, np.uint64)
        return lambda c, m: w(c, zero, m)

    def _op_cvta(self, ins: Instruction):
        ty, flags = self._one_type(ins)
        d, a = self._operands(ins, 2)
        to = "to" in flags
        spaces = [f for f in flags if f.split("::")[0] in ("global", "shared", "const", "local", "param")]
        if not spaces:
            raise _Fault("cvta needs a state space")
        space = spaces[0].split("::")[0]
        if space == "local" or space == "param":
            raise _Fault(f"cvta of .{space} addresses is not supported")
        if isinstance(a, Symbol):
            if a.name not in self.symbols:
                raise _Fault(f"unknown symbol '{a.name}'")
            addr = self.symbols[a.name][1]
            src = lambda c, _v=np.full(self.tp, addr, np.int64): _v  # noqa: E731
        else:
            r = self._bits(a, ty)
            src = lambda c: r(c).astype(np.int64)  # noqa: E731
        delta = 0
        if space == "shared":
            delta = -SHARED_WINDOW if to else SHARED_WINDOW
        w = self._bits_writer(d, _B[ty.bits])
        ut = _UINT[ty.bits]
        return lambda c, m: w(c, (src(c) + delta).astype(ut), m)

    def _op_isspacep(self, ins: Instruction):
        _, flags = _split_mods(ins.modifiers)
        p, a = self._operands(ins, 2)
        space = flags[0].split("::")[0]
        r = self._bits(a, _U64)
        w = self._bits_writer(p, _PRED)

        def run(c, m):
            v = r(c).astype(np.int64)
            in_sh = (v >= SHARED_WINDOW) & (v < SHARED_WINDOW + (1 << 32))
            res = in_sh if space == "shared" else (~in_sh if space in ("global", "const") else np.zeros_like(in_sh))
            w(c, res, m)

        return run

    # ============================================================ integer / float arithmetic
    def _op_add(self, ins):
        return self._arith(ins, "add")

    def _op_sub(self, ins):
        return self._arith(ins, "sub")

    def _op_mul(self, ins):
        return self._arith(ins, "mul")

    def _op_mad(self, ins):
        return self._arith(ins, "mad")

    def _op_fma(self, ins):
        return self._arith(ins, "fma")

    def _op_div(self, ins):
        return self._arith(ins, "div")

    def _op_rem(self, ins):
        return self._arith(ins, "rem")

    def _op_abs(self, ins):
        return self._arith(ins, "abs")

    def _op_neg(self, ins):
        return self._arith(ins, "neg")

    def _op_min(self, ins):
        return self._arith(ins, "min")

    def _op_max(self, ins):
        return self._arith(ins, "max")

    def _arith(self, ins: Instruction, name: str):
        types, flags = _split_mods(ins.modifiers)
        if not types:
            raise _Fault(f"'{ins.mnemonic}': missing type")
        ty = types[-1]
        if ty.kind in _FLOAT_KINDS:
            return self._float_arith(ins, name, ty, flags)
        if ty.kind in ("b", "u", "s"):
            return self._int_arith(ins, name, ty, flags)
        raise _Fault(f"'{ins.mnemonic}' is not supported")

    def _int_arith(self, ins: Instruction, name: str, ty: _Ty, flags: list[str]):
        w = ty.bits
        signed = ty.kind == "s"
        if "cc" in flags:
            raise _Fault("carry (.cc) arithmetic is not supported")
        if name in ("abs", "neg"):
            d, a = self._operands(ins, 2)
            ra = self._value(a, ty)
            wr = self._writer(d, ty)
            fn = np.abs if name == "abs" else np.negative
            return lambda c, m: wr(c, fn(ra(c)), m)
        if name in ("mul", "mad"):
            mode = "lo"
            for f in flags:
                if f in ("lo", "hi", "wide"):
                    mode = f
            if name == "mad":
                d, a, b, e = self._operands(ins, 4)
            else:
                d, a, b = self._operands(ins, 3)
                e = None
            ra, rb = self._value(a, ty), self._value(b, ty)
            if mode == "wide":
                if w == 64:
                    raise _Fault("mul.wide of 64-bit values is not supported")
                wt = _TYPES[("s" if signed else "u") + str(2 * w)]
                big = _SINT[2 * w] if signed else _UINT[2 * w]
                re = self._value(e, wt) if e is not None else None
                wr = self._writer(d, wt)

                def wide(c, m):
                    r = ra(c).astype(big) * rb(c).astype(big)
                    if re is not None:
                        r = r + re(c)
                    wr(c, r, m)

                return wide
            re = self._value(e, ty) if e is not None else None
            wr = self._writer(d, ty)
            sat = "sat" in flags
            if mode == "lo":
                def lo(c, m):
                    r = ra(c) * rb(c)
                    if re is not None:
                        r = r + re(c)
                    wr(c, r, m)

                return lo

            def hi(c, m):
                x, y = ra(c), rb(c)
                if w < 64:
                    big = np.int64 if signed else np.uint64
                    r = ((x.astype(big) * y.astype(big)) >> big(w)).astype(x.dtype)
                else:
                    r = _smulhi64(x, y) if signed else _umulhi64(x, y)
                if re is not None:
                    if sat and signed and w == 32:
                        r = np.clip(r.astype(np.int64) + re(c).astype(np.int64), -(2**31), 2**31 - 1).astype(np.int32)
                    else:
                        r = r + re(c)
                wr(c, r, m)

            return hi
        if name in ("add", "sub", "min", "max"):
            d, a, b = self._operands(ins, 3)
            ra, rb = self._value(a, ty), self._value(b, ty)
            wr = self._writer(d, ty)
            fn = {"add": np.add, "sub": np.subtract, "min": np.minimum, "max": np.maximum}[name]
            if "sat" in flags and name in ("add", "sub"):
                if not (signed and w == 32):
                    raise _Fault(".sat integer arithmetic needs .s32")
                return lambda c, m: wr(
                    c, np.clip(fn(ra(c).astype(np.int64), rb(c).astype(np.int64)), -(2**31), 2**31 - 1), m
                )
            if "relu" in flags:
                return lambda c, m: wr(c, np.maximum(fn(ra(c), rb(c)), 0), m)
            return lambda c, m: wr(c, fn(ra(c), rb(c)), m)
        if name in ("div", "rem"):
            d, a, b = self._operands(ins, 3)
            ra, rb = self._value(a, ty), self._value(b, ty)
            wr = self._writer(d, ty)
            allones = _SINT[w](-1) if signed else _UINT[w]((1 << w) - 1)

            def divrem(c, m):
                x, y = ra(c), rb(c)
                zero = y == 0
                ys = np.where(zero, y.dtype.type(1), y)
                if signed:
                    r = np.fmod(x, ys)
                    q = (x - r) // ys
                else:
                    q, r = x // ys, x % ys
                if name == "div":
                    wr(c, np.where(zero, allones, q), m)
                else:
                    wr(c, np.where(zero, x, r), m)

            return divrem
        raise _Fault(f"'{ins.mnemonic}' is not supported")

    def _float_arith(self, ins: Instruction, name: str, ty: _Ty, flags: list[str]):
        target = _float_target(ty)
        mode = "rn"
        for f in flags:
            if f in ("rn", "rz", "rm", "rp"):
                mode = f
        ftz = "ftz" in flags
        sat = "sat" in flags
        tiny = _tiny(target)

        def prep(x):
            return _ftz(x, tiny) if ftz else x

        def post(r):
            if ftz:
                r = _ftz(r, tiny)
            if sat:
                r = _saturate(r)
            if "relu" in flags:
                r = np.where(np.isnan(r), r, np.maximum(r, 0)).astype(r.dtype, copy=False)
            return r

        if name in ("abs", "neg"):
            d, a = self._operands(ins, 2)
            ra = self._value(a, ty)
            wr = self._writer(d, ty)
            fn = np.abs if name == "abs" else np.negative
            return lambda c, m: wr(c, post(fn(prep(ra(c)))), m)

        if name in ("min", "max"):
            d, a, b = self._operands(ins, 3)
            if "xorsign" in flags or "abs" in flags:
                raise _Fault(f"'{ins.mnemonic}' is not supported")
            ra, rb = self._value(a, ty), self._value(b, ty)
            wr = self._writer(d, ty, canon=True)
            nan_prop = "NaN" in flags
            is_min = name == "min"

            def minmax(c, m):
                x, y = prep(ra(c)), prep(rb(c))
                r = np.fmin(x, y) if is_min else np.fmax(x, y)
                both0 = (x == 0) & (y == 0)
                if both0.any():
                    neg = (np.signbit(x) | np.signbit(y)) if is_min else (np.signbit(x) & np.signbit(y))
                    z = np.where(neg, -0.0, 0.0).astype(r.dtype)
                    r = np.where(both0, z, r)
                if nan_prop:
                    r = np.where(np.isnan(x) | np.isnan(y), np.array(np.nan, r.dtype), r)
                wr(c, post(r), m)

            return minmax

        if name in ("add", "sub", "mul"):
            d, a, b = self._operands(ins, 3)
            ra, rb = self._value(a, ty), self._value(b, ty)
            wr = self._writer(d, ty, canon=True)
            fn = {"add": np.add, "sub": np.subtract, "mul": np.multiply}[name]
            if mode == "rn":
                return lambda c, m: wr(c, post(fn(prep(ra(c)), prep(rb(c)))), m)
            if target == "f64":
                raise _Fault(f"'{ins.mnemonic}': directed rounding of f64 is not supported")

            def directed(c, m):
                x = prep(ra(c)).astype(np.float64)
                y = prep(rb(c)).astype(np.float64)
                if name == "mul":
                    exact = x * y
                else:
                    exact = _odd64(*_two_sum(x, y if name == "add" else -y))
                wr(c, post(_round_f64(exact, target, mode)), m)

            return directed

        if name in ("fma", "mad"):
            d, a, b, e = self._operands(ins, 4)
            ra, rb, re = self._value(a, ty), self._value(b, ty), self._value(e, ty)
            wr = self._writer(d, ty, canon=True)

            def fma(c, m):
                x, y, z = prep(ra(c)), prep(rb(c)), prep(re(c))
                if target == "f64":
                    if mode != "rn":
                        raise _Fault("directed rounding of f64 fma is not supported")
                    r = _fma_exact_f64(x, y, z)
                else:
                    p = x.astype(np.float64) * y.astype(np.float64)
                    r = _round_f64(_odd64(*_two_sum(p, z.astype(np.float64))), target, mode)
                wr(c, post(r), m)

            return fma

        if name == "div":
            d, a, b = self._operands(ins, 3)
            if mode != "rn" and "approx" not in flags and "full" not in flags:
                raise _Fault(f"'{ins.mnemonic}': directed rounding of division is not supported")
            ra, rb = self._value(a, ty), self._value(b, ty)
            wr = self._writer(d, ty, canon=True)

            def div(c, m):
                x, y = prep(ra(c)), prep(rb(c))
                if target == "f64":
                    r = x / y
                else:
                    r = _round_f64(x.astype(np.float64) / y.astype(np.float64), target)
                wr(c, post(r), m)

            return div
        if name == "rem":
            raise _Fault("rem of floats does not exist in PTX")
        raise _Fault(f"'{ins.mnemonic}' is not supported")

    def _unary_math(self, ins: Instruction, fn64: Callable[[np.ndarray], np.ndarray]):
        types, flags = _split_mods(ins.modifiers)
        if len(types) != 1 or types[0].kind not in _FLOAT_KINDS:
            raise _Fault(f"'{ins.mnemonic}': expected one float type")
        ty = types[0]
        target = _float_target(ty)
        d, a = self._operands(ins, 2)
        ra = self._value(a, ty)
        wr = self._writer(d, ty, canon=True)
        ftz = "ftz" in flags
        tiny = _tiny(target)
        mode = "rn"
        for f in flags:
            if f in ("rz", "rm", "rp"):
                raise _Fault(f"'{ins.mnemonic}': directed rounding is not supported")

        def run(c, m):
            x = ra(c)
            if ftz:
                x = _ftz(x, tiny)
            r = _round_f64(fn64(x.astype(np.float64)), target, mode)
            if ftz:
                r = _ftz(r, tiny)
            if "sat" in flags:
                r = _saturate(r)
            wr(c, r, m)

        return run

    def _op_rcp(self, ins):
        return self._unary_math(ins, lambda x: 1.0 / x)

    def _op_sqrt(self, ins):
        return self._unary_math(ins, np.sqrt)

    def _op_rsqrt(self, ins):
        return self._unary_math(ins, lambda x: 1.0 / np.sqrt(x))

    def _op_ex2(self, ins):
        return self._unary_math(ins, np.exp2)

    def _op_lg2(self, ins):
        return self._unary_math(ins, np.log2)

    def _op_sin(self, ins):
        return self._unary_math(ins, np.sin)

    def _op_cos(self, ins):
        return self._unary_math(ins, np.cos)

    def _op_tanh(self, ins):
        return self._unary_math(ins, np.tanh)

    def _op_copysign(self, ins):
        ty, _ = self._one_type(ins)
        d, a, b = self._operands(ins, 3)
        ra, rb = self._value(a, ty), self._value(b, ty)
        wr = self._writer(d, ty)
        return lambda c, m: wr(c, np.copysign(rb(c), ra(c)), m)

    def _op_testp(self, ins):
        ty, flags = self._one_type(ins)
        d, a = self._operands(ins, 2)
        ra = self._value(a, ty)
        wr = self._bits_writer(d, _PRED)
        tiny = _tiny(_float_target(ty))
        tests = {
            "finite": np.isfinite,
            "infinite": np.isinf,
            "number": lambda x: ~np.isnan(x),
            "notanumber": np.isnan,
            "normal": lambda x: np.isfinite(x) & (np.abs(x) >= tiny),
            "subnormal": lambda x: (np.abs(x) < tiny) & (x != 0),
        }
        op = next((f for f in flags if f in tests), None)
        if op is None:
            raise _Fault("testp needs a test (.finite, .nan, ...)")
        fn = tests[op]
        return lambda c, m: wr(c, fn(ra(c)), m)

    # ------------------------------------------------------------ bit operations
    def _logic(self, ins: Instruction, name: str):
        ty, _ = self._one_type(ins)
        bt = ty if ty.kind == "pred" else _B[ty.bits]
        if name in ("not", "cnot"):
            d, a = self._operands(ins, 2)
            ra = self._bits(a, bt)
            wr = self._bits_writer(d, bt)
            if name == "not":
                return lambda c, m: wr(c, ~ra(c), m)
            if ty.kind == "pred":
                return lambda c, m: wr(c, ~ra(c), m)
            return lambda c, m: wr(c, (ra(c) == 0).astype(_UINT[ty.bits]), m)
        d, a, b = self._operands(ins, 3)
        ra, rb = self._bits(a, bt), self._bits(b, bt)
        wr = self._bits_writer(d, bt)
        fn = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[name]
        return lambda c, m: wr(c, fn(ra(c), rb(c)), m)

    def _op_and(self, ins):
        return self._logic(ins, "and")

    def _op_or(self, ins):
        return self._logic(ins, "or")

    def _op_xor(self, ins):
        return self._logic(ins, "xor")

    def _op_not(self, ins):
        return self._logic(ins, "not")

    def _op_cnot(self, ins):
        return self._logic(ins, "cnot")

    def _shift(self, ins: Instruction, left: bool):
        ty, _ = self._one_type(ins)
        d, a, b = self._operands(ins, 3)
        w = ty.bits
        arith = ty.kind == "s" and not left
        ra = self._value(a, ty)
        rb = self._value(b, _U32)
        wr = self._writer(d, ty)

        def run(c, m):
            x = ra(c)
            s = rb(c)
            big = s >= w
            sc = np.minimum(s, w - 1)
            if arith:  # sign fill; a count >= w behaves as w - 1
                r = np.right_shift(x.astype(np.int64), sc.astype(np.int64)).astype(x.dtype)
            else:
                u = x.astype(np.uint64)
                r = (u << sc.astype(np.uint64)) if left else (u >> sc.astype(np.uint64))
                r = np.where(big, np.uint64(0), r).astype(x.dtype)
            wr(c, r, m)

        return run

    def _op_shl(self, ins):
        return self._shift(ins, True)

    def _op_shr(self, ins):
        return self._shift(ins, False)

    def _op_popc(self, ins):
        ty, _ = self._one_type(ins)
        d, a = self._operands(ins, 2)
        ra = self._bits(a, _B[ty.bits])
        wr = self._writer(d, _U32)
        return lambda c, m: wr(c, np.bitwise_count(ra(c)).astype(np.uint32), m)

    def _op_clz(self, ins):
        ty, _ = self._one_type(ins)
        d, a = self._operands(ins, 2)
        w = ty.bits
        ra = self._bits(a, _B[w])
        wr = self._writer(d, _U32)

        def run(c, m):
            x = ra(c).astype(np.uint64)
            n = np.zeros(x.shape, np.uint32)
            for k in range(w):
                n += ((x >> np.uint64(k)) != 0).astype(np.uint32)
            wr(c, np.uint32(w) - n, m)

        return run

    def _op_brev(self, ins):
        ty, _ = self._one_type(ins)
        d, a = self._operands(ins, 2)
        w = ty.bits
        ra = self._bits(a, _B[w])
        wr = self._bits_writer(d, _B[w])

        def run(c, m):
            x = ra(c).astype(np.uint64)
            r = np.zeros(x.shape, np.uint64)
            for k in range(w):
                r |= ((x >> np.uint64(k)) & np.uint64(1)) << np.uint64(w - 1 - k)
            wr(c, r.astype(_UINT[w]), m)

        return run

    def _op_bfind(self, ins):
        ty, flags = self._one_type(ins)
        d, a = self._operands(ins, 2)
        w = ty.bits
        ra = self._value(a, ty)
        wr = self._writer(d, _U32)
        shiftamt = "shiftamt" in flags

        def run(c, m):
            x = ra(c)
            if ty.kind == "s":
                x = np.where(x < 0, ~x, x)
            u = x.astype(np.int64).astype(np.uint64) if w < 64 else x.view(np.uint64)
            pos = np.full(u.shape, -1, np.int64)
            for k in range(w):
                pos = np.where(((u >> np.uint64(k)) & np.uint64(1)) != 0, k, pos)
            if shiftamt:
                pos = np.where(pos < 0, -1, (w - 1) - pos)
            wr(c, pos.astype(np.int64).astype(np.uint32), m)

        return run

    def _op_bfe(self, ins):
        ty, _ = self._one_type(ins)
        d, a, b, e = self._operands(ins, 4)
        w = ty.bits
        ra = self._bits(a, _B[w])
        rb, re = self._value(b, _U32), self._value(e, _U32)
        wr = self._bits_writer(d, _B[w])
        signed = ty.kind == "s"

        def run(c, m):
            x = ra(c).astype(np.uint64)
            pos = (rb(c) & 0xFF).astype(np.int64)
            ln = (re(c) & 0xFF).astype(np.int64)
            out = np.zeros(x.shape, np.uint64)
            if signed:
                top = np.clip(pos + ln - 1, 0, w - 1)
                sbit = np.where(ln == 0, 0, (x >> top.astype(np.uint64)) & np.uint64(1)).astype(np.uint64)
            else:
                sbit = np.zeros(x.shape, np.uint64)
            for i in range(w):
                src = pos + i
                inside = (i < ln) & (src <= w - 1)
                bit = np.where(inside, (x >> np.clip(src, 0, w - 1).astype(np.uint64)) & np.uint64(1), sbit)
                out |= bit.astype(np.uint64) << np.uint64(i)
            wr(c, out.astype(_UINT[w]), m)

        return run

    def _op_bfi(self, ins):
        ty, _ = self._one_type(ins)
        f, a, b, cc, dd = self._operands(ins, 5)
        w = ty.bits
        ra, rb = self._bits(a, _B[w]), self._bits(b, _B[w])
        rc, rd = self._value(cc, _U32), self._value(dd, _U32)
        wr = self._bits_writer(f, _B[w])

        def run(c, m):
            x, y = ra(c).astype(np.uint64), rb(c).astype(np.uint64)
            pos = (rc(c) & 0xFF).astype(np.int64)
            ln = (rd(c) & 0xFF).astype(np.int64)
            out = y.copy()
            for i in range(w):
                dst = pos + i
                inside = (i < ln) & (dst <= w - 1)
                sh = np.clip(dst, 0, w - 1).astype(np.uint64)
                bit = (x >> np.uint64(i)) & np.uint64(1)
                out = np.where(inside, (out & ~(np.uint64(1) << sh)) | (bit << sh), out)
            wr(c, out.astype(_UINT[w]), m)

        return run

    def _op_prmt(self, ins):
        ty, flags = self._one_type(ins)
        d, a, b, s = self._operands(ins, 4)
        ra, rb, rs = self._bits(a, _B[32]), self._bits(b, _B[32]), self._bits(s, _B[32])
        wr = self._bits_writer(d, _B[32])
        mode = next((f for f in flags if f in _PRMT_MODES), None)

        def run(c, m):
            x = ra(c).astype(np.uint64) | (rb(c).astype(np.uint64) << np.uint64(32))
            sel = rs(c).astype(np.uint64)
            out = np.zeros(x.shape, np.uint64)
            for i in range(4):
                if mode is None:
                    nib = (sel >> np.uint64(4 * i)) & np.uint64(0xF)
                    idx = nib & np.uint64(7)
                    byte = (x >> (idx * np.uint64(8))) & np.uint64(0xFF)
                    rep = np.where(byte & np.uint64(0x80), np.uint64(0xFF), np.uint64(0))
                    byte = np.where(nib & np.uint64(8), rep, byte)
                else:
                    idx = np.array(_PRMT_MODES[mode], np.uint64)[(sel & np.uint64(3)).astype(np.int64), i]
                    byte = (x >> (idx * np.uint64(8))) & np.uint64(0xFF)
                out |= byte << np.uint64(8 * i)
            wr(c, out.astype(np.uint32), m)

        return run

    def _op_lop3(self, ins):
        ty, _ = self._one_type(ins)
        d, a, b, e, lut = self._operands(ins, 5)
        if not isinstance(lut, Imm):
            raise _Fault("lop3 needs an immediate truth table")
        w = ty.bits
        ra, rb, re = self._bits(a, _B[w]), self._bits(b, _B[w]), self._bits(e, _B[w])
        wr = self._bits_writer(d, _B[w])
        table = lut.value & 0xFF

        def run(c, m):
            x, y, z = ra(c), rb(c), re(c)
            out = np.zeros_like(x)
            for i in range(8):
                if table >> i & 1:
                    out |= (x if i & 4 else ~x) & (y if i & 2 else ~y) & (z if i & 1 else ~z)
            wr(c, out, m)

        return run

    # ------------------------------------------------------------ comparisons
    def _op_setp(self, ins: Instruction):
        types, flags = _split_mods(ins.modifiers)
        if len(types) != 1:
            raise _Fault("setp needs one type")
        ty = types[0]
        if ty.kind in ("f16x2", "bf16x2"):
            raise _Fault("setp on packed types is not supported")
        cmp = next((f for f in flags if f in _CMP), None)
        if cmp is None:
            raise _Fault(f"'{ins.mnemonic}': missing comparison")
        bop = next((f for f in flags if f in ("and", "or", "xor")), None)
        ops = ins.operands
        if len(ops) != (4 if bop else 3):
            raise _Fault(f"'{ins.mnemonic}' takes {4 if bop else 3} operands")
        dst = ops[0]
        if isinstance(dst, PredPair):
            wp, wq = self._bits_writer(dst.first, _PRED), self._bits_writer(dst.second, _PRED)
        else:
            wp, wq = self._bits_writer(dst, _PRED), None
        ra, rb = self._value(ops[1], ty), self._value(ops[2], ty)
        rc = self._bits(ops[3], _PRED) if bop else None
        is_float = ty.kind in _FLOAT_KINDS
        unsigned = ty.kind in ("u", "b")
        if not is_float and cmp in _FLOAT_ONLY_CMP:
            raise _Fault(f"comparison .{cmp} needs a float type")
        fn = _CMP[cmp]
        comb = {"and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor}.get(bop)

        def run(c, m):
            x, y = ra(c), rb(c)
            if is_float:
                r = fn(x, y)
            else:
                r = _int_compare(cmp, x, y, unsigned)
            if comb is not None:
                cv = rc(c)
                p, q = comb(r, cv), comb(~r, cv)
            else:
                p, q = r, ~r
            wp(c, p, m)
            if wq is not None:
                wq(c, q, m)

        return run

    # ------------------------------------------------------------ conversions
    def _op_cvt(self, ins: Instruction):
        types, flags = _split_mods(ins.modifiers)
        if len(types) != 2:
            raise _Fault("cvt needs a destination and a source type")
        dt, st = types
        ops = ins.operands
        rnd = next((f for f in flags if f in ("rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "rna", "rs")), None)
        ftz, sat = "ftz" in flags, "sat" in flags
        relu, satfinite = "relu" in flags, "satfinite" in flags
        if rnd == "rs":
            raise _Fault("stochastic rounding is not supported")

        # ---- packed destinations / sources
        if dt.kind in ("f16x2", "bf16x2") and st.name == "f32":
            d, a, b = self._operands(ins, 3)
            ra, rb = self._value(a, st), self._value(b, st)
            wr = self._writer(d, dt)
            target = _float_target(dt)
            mode = rnd or "rn"

            def pack2(c, m):
                halves = []
                for r in (rb, ra):  # low half from b, high half from a
                    v = _round_f64(r(c).astype(np.float64), target, mode)
                    halves.append(_post_narrow(v, target, relu, satfinite))
                wr(c, np.stack(halves, axis=1), m)

            return pack2
        if dt.kind == "fp8x2":
            fmt = dt.name[:4]
            d = ops[0]
            wr = self._bits_writer(d, _B[16])
            if st.name == "f32":
                _, a, b = self._operands(ins, 3)
                ra, rb = self._value(a, st), self._value(b, st)
                srcs = lambda c: (rb(c).astype(np.float64), ra(c).astype(np.float64))  # noqa: E731
            elif st.kind in ("f16x2", "bf16x2"):
                _, a = self._operands(ins, 2)
                ra = self._value(a, st)
                srcs = lambda c: (ra(c)[:, 0].astype(np.float64), ra(c)[:, 1].astype(np.float64))  # noqa: E731
            else:
                raise _Fault(f"cvt to .{dt.name} from .{st.name} is not supported")

            def to_fp8(c, m):
                lo, hi = srcs(c)
                lo8 = _encode_fp8(lo, fmt, satfinite, relu).astype(np.uint16)
                hi8 = _encode_fp8(hi, fmt, satfinite, relu).astype(np.uint16)
                wr(c, lo8 | (hi8 << np.uint16(8)), m)

            return to_fp8
        if st.kind == "fp8x2":
            fmt = st.name[:4]
            if dt.kind not in ("f16x2", "bf16x2"):
                raise _Fault(f"cvt from .{st.name} to .{dt.name} is not supported")
            d, a = self._operands(ins, 2)
            ra = self._bits(a, _B[16])
            wr = self._writer(d, dt)
            table = _FP8_VALUES[fmt]

            def from_fp8(c, m):
                v = ra(c)
                lo = table[(v & np.uint16(0xFF)).astype(np.int64)]
                hi = table[(v >> np.uint16(8)).astype(np.int64)]
                pair = np.stack([lo, hi], axis=1)
                if relu:
                    pair = np.where(pair < 0, 0.0, pair)
                wr(c, pair.astype(np.float16) if dt.kind == "f16x2" else pair.astype(np.float32), m)

            return from_fp8
        if dt.kind in ("f16x2", "bf16x2") or st.kind in ("f16x2", "bf16x2"):
            raise _Fault(f"cvt .{dt.name}.{st.name} is not supported")
        if dt.kind == "tf32":
            d, a = self._operands(ins, 2)
            ra = self._bits(a, _B[32])
            wr = self._bits_writer(d, _B[32])
            mode = rnd or "rna"

            def tf32(c, m):
                u = ra(c)
                v = u.view(np.float32)
                if mode == "rna":
                    r = (u + np.uint32(0x1000)) & np.uint32(0xFFFFE000)
                elif mode == "rz":
                    r = u & np.uint32(0xFFFFE000)
                else:
                    r = (u + np.uint32(0xFFF) + ((u >> np.uint32(13)) & np.uint32(1))) & np.uint32(0xFFFFE000)
                r = np.where(np.isfinite(v), r, u)
                wr(c, r, m)

            return tf32

        d, a = self._operands(ins, 2)
        src_float = st.kind in ("f", "bf")
        dst_float = dt.kind in ("f", "bf")
        ra = self._value(a, st)
        wr = self._writer(d, dt, canon=dst_float)
        if not src_float and not dst_float:
            lo, hi = _int_range(dt)

            def int_int(c, m):
                v = ra(c)
                if sat:
                    v = _clamp_int(v, lo, hi)
                wr(c, v.astype(_SINT[dt.bits] if dt.kind == "s" else _UINT[dt.bits]), m)

            return int_int
        if src_float and not dst_float:
            mode = rnd or "rzi"
            lo, hi = _int_range(dt)
            rounder = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}.get(mode)
            if rounder is None:
                raise _Fault(f"float-to-int cvt needs .rni/.rzi/.rmi/.rpi, not .{mode}")
            tiny = _tiny(_float_target(st))

            def float_int(c, m):
                x = ra(c)
                if ftz:
                    x = _ftz(x, tiny)
                v = rounder(x.astype(np.float64))
                wr(c, _float_to_int(v, dt, lo, hi), m)

            return float_int
        target = _float_target(dt)
        if not src_float and dst_float:
            mode = rnd or "rn"
            if mode not in ("rn", "rz", "rm", "rp"):
                raise _Fault(f"int-to-float cvt needs .rn/.rz/.rm/.rp, not .{mode}")

            def int_float(c, m):
                v = ra(c)
                if st.bits == 64:
                    # v = hi * 2^32 + lo with both halves exact in float64
                    hi = (v >> 32).astype(np.float64) * 4294967296.0
                    lo = (v.view(np.uint64) & np.uint64(0xFFFFFFFF)).astype(np.float64)
                    s_, e_ = _two_sum(hi, lo)
                    r = _round_pair_f64(s_, e_, mode) if target == "f64" else _round_f64(_odd64(s_, e_), target, mode)
                else:
                    r = _round_f64(v.astype(np.float64), target, mode)
                if sat:
                    r = _saturate(r)
                wr(c, r, m)

            return int_float
        # float -> float
        int_round = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}.get(rnd or "")
        mode = rnd if rnd in ("rn", "rz", "rm", "rp") else "rn"
        tiny_s, tiny_d = _tiny(_float_target(st)), _tiny(target)

        def float_float(c, m):
            x = ra(c)
            if ftz and st.name == "f32":
                x = _ftz(x, tiny_s)
            v = x.astype(np.float64)
            if int_round is not None:
                v = int_round(v)
            r = _round_f64(v, target, mode)
            if ftz and dt.name == "f32":
                r = _ftz(r, tiny_d)
            r = _post_narrow(r, target, relu, satfinite)
            if sat:
                r = _saturate(r)
            wr(c, r, m)

        return float_float

    # ============================================================ memory
    def _mem_parts(self, ins: Instruction) -> tuple[str, int, _Ty]:
        space = "generic"
        vec = 1
        types = []
        for mod in ins.modifiers:
            base = mod.split("::", 1)[0]
            if base in ("global", "shared", "param", "local", "const"):
                space = base
            elif mod in ("v2", "v4", "v8"):
                vec = int(mod[1])
            elif mod in _TYPES:
                types.append(_TYPES[mod])
        if len(types) != 1:
            raise _Fault(f"'{ins.mnemonic}': expected one type")
        ty = types[0]
        if ty.kind == "pred" or ty.bits not in _UINT:
            raise _Fault(f"'{ins.mnemonic}': cannot access memory as .{ty.name}")
        if space == "local":
            raise _Fault("local memory is not supported")
        if ty.bits * vec > 128:
            raise _Fault(f"'{ins.mnemonic}': accesses of more than 128 bits are not supported")
        return space, vec, ty

    def _op_ld(self, ins: Instruction):
        space, vec, ty = self._mem_parts(ins)
        ops = self._operands(ins, 2, at_least=True)
        dst, addr = ops[0], ops[1]
        elems = list(dst.elements) if isinstance(dst, Vector) else [dst]
        if len(elems) != vec:
            raise _Fault(f"'{ins.mnemonic}' loads {vec} value(s) but names {len(elems)} destination(s)")
        writers = [self._bits_writer(e, ty) for e in elems]
        ra = self._address(addr, space)
        size = ty.bits * vec // 8
        ew = ty.bits
        line = ins.line
        tp = self.tp
        ut = _UINT[ew]

        def run(c, m):
            a = ra(c)
            idx = self._active_idx(m)
            av = a if idx is None else a[idx]
            word = self._load(c, space, av, size, m, a, line)
            vals = _unpack_elements(word, ew, vec)
            for k, w in enumerate(writers):
                if idx is None:
                    w(c, vals[:, k], m)
                else:
                    full = np.zeros(tp, ut)
                    full[idx] = vals[:, k]
                    w(c, full, m)

        return run

    _op_ldu = _op_ld

    def _op_st(self, ins: Instruction):
        space, vec, ty = self._mem_parts(ins)
        ops = self._operands(ins, 2, at_least=True)
        addr, src = ops[0], ops[1]
        if space == "param":
            raise _Fault("stores to .param space are not supported")
        elems = list(src.elements) if isinstance(src, Vector) else [src]
        if len(elems) != vec:
            raise _Fault(f"'{ins.mnemonic}' stores {vec} value(s) but names {len(elems)} source(s)")
        readers = [self._bits(e, ty) for e in elems]
        ra = self._address(addr, space)
        size = ty.bits * vec // 8
        ew = ty.bits
        line = ins.line

        def run(c, m):
            a = ra(c)
            idx = self._active_idx(m)
            vals = [r(c) for r in readers]
            if idx is not None:
                vals = [v[idx] for v in vals]
            av = a if idx is None else a[idx]
            word = _pack_elements(vals, ew)
            self._store(c, space, av, size, word, m, a, line)

        return run

    def _check_align(self, addr: np.ndarray, size: int, what: str) -> None:
        if size > 1 and np.any(addr % size):
            bad = int(addr[(addr % size) != 0][0])
            raise _Fault(f"{what}: address {bad:#x} is not aligned to {size} bytes")

    def _split_generic(self, addr: np.ndarray):
        return (addr >= SHARED_WINDOW) & (addr < SHARED_WINDOW + (1 << 32))

    def _load(self, c: _Cta, space: str, av: np.ndarray, size: int, mask, full_addr, line: int) -> np.ndarray:
        """Read ``size`` bytes at the executing threads' addresses ``av``; count the access."""
        self._check_align(av, size, "load")
        if space == "param":
            if av.size and (av.min() < 0 or av.max() + size > self.param_size):
                raise _Fault(f"ld.param outside the {self.param_size}-byte parameter block")
            return _view_read(self.param_buf, av, size)
        if space == "generic":
            sh = self._split_generic(av)
            if sh.all():
                return self._load(c, "shared", av - SHARED_WINDOW, size, mask, full_addr - SHARED_WINDOW, line)
            if not sh.any():
                return self._load(c, "global", av, size, mask, full_addr, line)
            sh_full = self._split_generic(full_addr)
            a = self._load(c, "shared", av[sh] - SHARED_WINDOW, size, _mask_and(mask, sh_full),
                           full_addr - SHARED_WINDOW, line)
            b = self._load(c, "global", av[~sh], size, _mask_and(mask, ~sh_full), full_addr, line)
            out = np.zeros((av.size,) + a.shape[1:], a.dtype)
            out[sh], out[~sh] = a, b
            return out
        if space in ("global", "const"):
            k = self.counters
            k.global_loads[size * 8] = k.global_loads.get(size * 8, 0) + self._active_warps(mask)
            return self.mem.read(av, size, "load")
        out = self._shared_read(c, av, size, "load")
        self._count_shared(c, full_addr, size, mask, line, store=False)
        return out

    def _store(self, c: _Cta, space: str, av: np.ndarray, size: int, word: np.ndarray, mask, full_addr, line) -> None:
        self._check_align(av, size, "store")
        if space == "generic":
            sh = self._split_generic(av)
            sh_full = self._split_generic(full_addr)
            if sh.any():
                self._store(c, "shared", av[sh] - SHARED_WINDOW, size, word[sh], _mask_and(mask, sh_full),
                            full_addr - SHARED_WINDOW, line)
            if (~sh).any():
                self._store(c, "global", av[~sh], size, word[~sh], _mask_and(mask, ~sh_full), full_addr, line)
            return
        if space in ("global", "const"):
            k = self.counters
            k.global_stores[size * 8] = k.global_stores.get(size * 8, 0) + self._active_warps(mask)
            self.mem.write(av, size, word, "store")
            return
        self._shared_write(c, av, size, word, "store")
        self._count_shared(c, full_addr, size, mask, line, store=True)

    def _shared_check(self, av: np.ndarray, size: int, what: str) -> np.ndarray:
        if av.size and (av.min() < SHARED_BASE or av.max() + size > self.shared_size):
            bad = av[(av < SHARED_BASE) | (av + size > self.shared_size)][0]
            raise _Fault(
                f"shared {what} of {size} bytes at {int(bad):#x} is outside shared memory "
                f"[{SHARED_BASE:#x}, {self.shared_size:#x})"
            )
        return av - SHARED_BASE

    def _shared_read(self, c: _Cta, av: np.ndarray, size: int, what: str) -> np.ndarray:
        off = self._shared_check(av, size, what)
        return _view_read(c.smem, off, size)

    def _shared_write(self, c: _Cta, av: np.ndarray, size: int, word: np.ndarray, what: str) -> None:
        off = self._shared_check(av, size, what)
        _view_write(c.smem, off, size, word)

    def _count_shared(self, c: _Cta, full_addr: np.ndarray, size: int, mask, line: int, store: bool) -> None:
        k = self.counters
        nw = self._active_warps(mask)
        if store:
            k.shared_stores += nw
        else:
            k.shared_loads += nw
        wf, lb = plain_access_wavefronts(full_addr, size, mask)
        k.wavefronts(line, wf, lb, store)

    # ------------------------------------------------------------ atomics
    def _op_atom(self, ins: Instruction):
        return self._atomic(ins, returns=True)

    def _op_red(self, ins: Instruction):
        return self._atomic(ins, returns=False)

    def _atomic(self, ins: Instruction, returns: bool):
        space = "generic"
        op = None
        types = []
        for mod in ins.modifiers:
            base = mod.split("::", 1)[0]
            if base in ("global", "shared"):
                space = base
            elif mod in _ATOM_OPS:
                op = mod
            elif mod in _TYPES:
                types.append(_TYPES[mod])
            elif mod in ("v2", "v4", "v8"):
                raise _Fault("vector atomics are not supported")
        if op is None or len(types) != 1:
            raise _Fault(f"'{ins.mnemonic}': expected an operation and a type")
        ty = types[0]
        ops = ins.operands
        if returns:
            need = 5 if op == "cas" else 4
            if len(ops) < need - 1:
                raise _Fault(f"'{ins.mnemonic}' has too few operands")
            d, addr, b = ops[0], ops[1], ops[2]
            e = ops[3] if op == "cas" else None
            wr = self._bits_writer(d, ty if ty.kind != "s" else _B[ty.bits])
        else:
            addr, b = ops[0], ops[1]
            e = None
            wr = None
        bt = _B[ty.bits] if ty.bits in _B else ty
        rb = self._bits(b, ty if isinstance(b, (Imm, FloatImm)) else bt)
        re = self._bits(e, ty if isinstance(e, (Imm, FloatImm)) else bt) if e is not None else None
        ra = self._address(addr, space)
        size = ty.bits // 8
        tp = self.tp
        combine = _atomic_combiner(op, ty)

        def run(c, m):
            a = ra(c)
            idx = np.arange(tp) if m is None else np.flatnonzero(m)
            bv, ev = rb(c), (re(c) if re is not None else None)
            old_all = np.zeros(tp, _UINT[ty.bits])
            self._check_align(a[idx], size, "atomic")
            for t in idx:
                at = a[t : t + 1]
                old = self._atomic_read(c, space, at, size)
                new = combine(old, bv[t : t + 1], ev[t : t + 1] if ev is not None else None)
                self._atomic_write(c, space, at, size, new.astype(_UINT[ty.bits]))
                old_all[t] = old[0]
            self.counters.atomics += self._active_warps(m)
            if wr is not None:
                wr(c, old_all, m)

        return run

    def _atomic_read(self, c: _Cta, space: str, at: np.ndarray, size: int) -> np.ndarray:
        if space == "shared":
            return self._shared_read(c, at, size, "atomic")
        if space == "generic" and self._split_generic(at)[0]:
            return self._shared_read(c, at - SHARED_WINDOW, size, "atomic")
        return self.mem.read(at, size, "atomic")

    def _atomic_write(self, c: _Cta, space: str, at: np.ndarray, size: int, v: np.ndarray) -> None:
        if space == "shared":
            self._shared_write(c, at, size, v, "atomic")
        elif space == "generic" and self._split_generic(at)[0]:
            self._shared_write(c, at - SHARED_WINDOW, size, v, "atomic")
        else:
            self.mem.write(at, size, v, "atomic")

    def _op_cp(self, ins: Instruction):
        """``cp.async`` global -> shared copies, done at once (lockstep needs no waiting)."""
        mods = ins.modifiers
        if not mods or mods[0] != "async":
            raise _Fault(f"unsupported instruction '{ins.mnemonic}'")
        rest = mods[1:]
        if rest and rest[0] in ("commit_group", "wait_group", "wait_all"):
            return lambda c, m: None
        if any(x.startswith("bulk") or x.startswith("mbarrier") for x in rest):
            raise _Fault(f"'{ins.mnemonic}' is not supported")
        ops = self._operands(ins, 3, at_least=True)
        dst, src, size_op = ops[0], ops[1], ops[2]
        if not isinstance(size_op, Imm) or size_op.value not in (4, 8, 16):
            raise _Fault("cp.async copies 4, 8 or 16 bytes")
        size = size_op.value
        hint = any("cache_hint" in x for x in rest)
        extra = list(ops[3 : len(ops) - (1 if hint else 0)])
        src_size = ignore = None
        if extra:
            e = extra[0]
            is_pred = isinstance(e, Not) or (
                isinstance(e, Reg) and not is_special_register(e.name) and self.slot_types[self._slot(e)].kind == "pred"
            )
            if is_pred:
                ignore = self._bits(e, _PRED)
            else:
                src_size = self._value(e, _U32)
        rd = self._address(dst, "shared")
        rsrc = self._address(src, "global")
        line = ins.line

        def run(c, m):
            idx = self._active_idx(m)
            d, s = rd(c), rsrc(c)
            dv = d if idx is None else d[idx]
            sv = s if idx is None else s[idx]
            self._check_align(dv, size, "cp.async")
            if src_size is not None:
                n = src_size(c).astype(np.int64)
            elif ignore is not None:
                n = np.where(ignore(c), 0, size)
            else:
                n = np.full(self.tp, size)
            nv = n if idx is None else n[idx]
            raw = np.zeros((dv.size, size), np.uint8)
            reads = nv > 0
            if reads.any():
                data = self.mem.read(sv[reads], size, "cp.async")
                raw[reads] = np.ascontiguousarray(data).view(np.uint8).reshape(-1, size)
            raw = np.where(np.arange(size)[None, :] < nv[:, None], raw, 0).astype(np.uint8)
            word = raw.view(np.uint64).reshape(-1, 2) if size == 16 else raw.view(_UINT[size * 8]).reshape(-1)
            self._shared_write(c, dv, size, word, "cp.async")
            k = self.counters
            k.global_loads[size * 8] = k.global_loads.get(size * 8, 0) + self._active_warps(m)
            wf, lb = plain_access_wavefronts(d, size, m)
            k.wavefronts(line, wf, lb, True)

        return run

    # ------------------------------------------------------------ matrices
    def _matrix_parts(self, ins: Instruction) -> tuple[int, bool]:
        mods = set(ins.modifiers)
        if "m8n8" not in mods or "b16" not in mods:
            raise _Fault(f"'{ins.mnemonic}': only .m8n8 .b16 matrices are supported")
        num = next((int(x[1]) for x in ins.modifiers if x in ("x1", "x2", "x4")), None)
        if num is None:
            raise _Fault(f"'{ins.mnemonic}': missing .x1/.x2/.x4")
        return num, "trans" in mods

    def _matrix_rows(self, c: _Cta, addr: np.ndarray, num: int, warps: np.ndarray, what: str) -> np.ndarray:
        rows = addr.reshape(self.warps, WARP)[warps][:, : 8 * num].reshape(-1, num, 8)
        if np.any(rows % 16):
            raise _Fault(f"{what}: row addresses must be 16-byte aligned")
        self._shared_check(rows.ravel(), 16, what)
        return rows

    def _full_warps(self, m, what: str) -> np.ndarray:
        if m is None:
            return np.arange(self.warps)
        per = m.reshape(self.warps, WARP)
        part = per.any(axis=1) & ~per.all(axis=1)
        if part.any():
            raise _Fault(f"{what} executed by only part of warp {int(np.flatnonzero(part)[0])}")
        return np.flatnonzero(per.all(axis=1))

    def _op_ldmatrix(self, ins: Instruction):
        num, trans = self._matrix_parts(ins)
        dst, addr = self._operands(ins, 2)
        elems = list(dst.elements) if isinstance(dst, Vector) else [dst]
        if len(elems) != num:
            raise _Fault(f"ldmatrix .x{num} writes {num} registers, got {len(elems)}")
        writers = [self._bits_writer(e, _B[32]) for e in elems]
        ra = self._address(addr, "shared")
        lane = np.arange(WARP)
        tp = self.tp
        line = ins.line

        def run(c, m):
            warps = self._full_warps(m, "ldmatrix")
            rows = self._matrix_rows(c, ra(c), num, warps, "ldmatrix")  # (w, num, 8)
            off = rows - SHARED_BASE
            data = c.smem[off[..., None] + np.arange(16)]  # (w, num, 8, 16) bytes
            halves = np.ascontiguousarray(data).view(np.uint16)  # (w, num, 8, 8) b16 elements
            threads = (warps[:, None] * WARP + lane[None, :]).ravel()
            for i, w in enumerate(writers):
                mat = halves[:, i]  # (w, 8 rows, 8 cols)
                if trans:
                    lo = mat[:, 2 * (lane % 4), lane // 4]
                    hi = mat[:, 2 * (lane % 4) + 1, lane // 4]
                else:
                    lo = mat[:, lane // 4, 2 * (lane % 4)]
                    hi = mat[:, lane // 4, 2 * (lane % 4) + 1]
                val = lo.astype(np.uint32) | (hi.astype(np.uint32) << np.uint32(16))
                full = np.zeros(tp, np.uint32)
                full[threads] = val.ravel()
                w(c, full, m)
            k = self.counters
            k.matrix_loads += len(warps)
            wf, lb = matrix_access_wavefronts(rows.reshape(-1, 8))
            k.wavefronts(line, wf, lb, False)

        return run

    def _op_stmatrix(self, ins: Instruction):
        num, trans = self._matrix_parts(ins)
        addr, src = self._operands(ins, 2)
        elems = list(src.elements) if isinstance(src, Vector) else [src]
        if len(elems) != num:
            raise _Fault(f"stmatrix .x{num} reads {num} registers, got {len(elems)}")
        readers = [self._bits(e, _B[32]) for e in elems]
        ra = self._address(addr, "shared")
        lane = np.arange(WARP)
        line = ins.line

        def run(c, m):
            warps = self._full_warps(m, "stmatrix")
            rows = self._matrix_rows(c, ra(c), num, warps, "stmatrix")  # (w, num, 8)
            threads = warps[:, None] * WARP + lane[None, :]  # (w, 32)
            for i, r in enumerate(readers):
                v = r(c)[threads]  # (w, 32)
                lo = (v & np.uint32(0xFFFF)).astype(np.uint16)
                hi = (v >> np.uint32(16)).astype(np.uint16)
                if trans:
                    row0, row1 = 2 * (lane % 4), 2 * (lane % 4) + 1
                    b0 = rows[:, i, row0] + 2 * (lane // 4)
                    b1 = rows[:, i, row1] + 2 * (lane // 4)
                else:
                    b0 = rows[:, i, lane // 4] + 4 * (lane % 4)
                    b1 = b0 + 2
                for addr_, val in ((b0, lo), (b1, hi)):
                    off = (addr_ - SHARED_BASE).ravel()
                    c.smem.view(np.uint16)[off // 2] = val.ravel()
            k = self.counters
            k.matrix_stores += len(warps)
            wf, lb = matrix_access_wavefronts(rows.reshape(-1, 8))
            k.wavefronts(line, wf, lb, True)

        return run

    # ------------------------------------------------------------ warp-level
    def _op_shfl(self, ins: Instruction):
        mods = ins.modifiers
        mode = next((x for x in mods if x in ("up", "down", "bfly", "idx")), None)
        if mode is None or "b32" not in mods:
            raise _Fault(f"'{ins.mnemonic}': expected shfl.sync.{{up,down,bfly,idx}}.b32")
        sync = "sync" in mods
        ops = self._operands(ins, 5 if sync else 4)
        dst, a, b, cc = ops[:4]
        rmask = self._value(ops[4], _U32) if sync else None
        if isinstance(dst, PredPair):
            wd, wp = self._bits_writer(dst.first, _B[32]), self._bits_writer(dst.second, _PRED)
        else:
            wd, wp = self._bits_writer(dst, _B[32]), None
        ra = self._bits(a, _B[32])
        rb, rc = self._value(b, _U32), self._value(cc, _U32)
        lane = self.lane
        base = self.warp_base
        tp = self.tp

        def run(c, m):
            act = np.ones(tp, bool) if m is None else m
            if rmask is not None:
                mm = rmask(c).astype(np.int64)
                inmask = ((mm >> lane) & 1).astype(bool)
                if np.any(act & ~inmask):
                    t = int(np.flatnonzero(act & ~inmask)[0])
                    raise _Fault(
                        f"shfl.sync: lane {t % WARP} of warp {t // WARP} executes but is not in the member mask"
                    )
            bval = (rb(c) & np.uint32(31)).astype(np.int64)
            cv = rc(c).astype(np.int64)
            cval = cv & 31
            seg = (cv >> 8) & 31
            max_lane = (lane & seg) | (cval & ~seg)
            min_lane = lane & seg
            if mode == "up":
                j = lane - bval
                pval = j >= max_lane
            elif mode == "down":
                j = lane + bval
                pval = j <= max_lane
            elif mode == "bfly":
                j = lane ^ bval
                pval = j <= max_lane
            else:
                j = min_lane | (bval & ~seg)
                pval = j <= max_lane
            j = np.where(pval, j, lane)
            src = base + j
            if m is not None:
                reads_idle = act & pval & ~act[src]
                if reads_idle.any():
                    t = int(np.flatnonzero(reads_idle)[0])
                    raise _Fault(
                        f"shfl.sync: lane {t % WARP} of warp {t // WARP} reads lane {int(j[t])}, which does not execute it"
                    )
            wd(c, ra(c)[src], m)
            if wp is not None:
                wp(c, pval, m)
            self.counters.shuffles += self._active_warps(m)

        return run

    def _op_vote(self, ins: Instruction):
        mods = ins.modifiers
        mode = next((x for x in mods if x in ("ballot", "any", "all", "uni")), None)
        if mode is None:
            raise _Fault(f"'{ins.mnemonic}' is not supported")
        sync = "sync" in mods
        ops = self._operands(ins, 3 if sync else 2)
        d, p = ops[0], ops[1]
        rp = self._bits(p, _PRED)
        w = self._bits_writer(d, _B[32] if mode == "ballot" else _PRED)
        lane_bit = (np.uint64(1) << self.lane.astype(np.uint64))
        nw = self.warps
        tp = self.tp

        def run(c, m):
            act = np.ones(tp, bool) if m is None else m
            pv = rp(c) & act
            if mode == "ballot":
                per = (np.where(pv, lane_bit, np.uint64(0))).reshape(nw, WARP).sum(axis=1).astype(np.uint32)
                w(c, np.repeat(per, WARP), m)
                return
            pa = pv.reshape(nw, WARP)
            aa = act.reshape(nw, WARP)
            if mode == "any":
                r = pa.any(axis=1)
            elif mode == "all":
                r = (pa | ~aa).all(axis=1)
            else:
                r = (pa | ~aa).all(axis=1) | ~(pa & aa).any(axis=1)
            w(c, np.repeat(r, WARP), m)

        return run

    def _op_activemask(self, ins: Instruction):
        (d,) = self._operands(ins, 1)
        w = self._bits_writer(d, _B[32])
        lane_bit = (np.uint64(1) << self.lane.astype(np.uint64))
        nw, tp = self.warps, self.tp

        def run(c, m):
            act = np.ones(tp, bool) if m is None else m
            per = np.where(act, lane_bit, np.uint64(0)).reshape(nw, WARP).sum(axis=1).astype(np.uint32)
            w(c, np.repeat(per, WARP), m)

        return run

    def _op_redux(self, ins: Instruction):
        types, flags = _split_mods(ins.modifiers)
        op = next((f for f in flags if f in ("add", "min", "max", "and", "or", "xor")), None)
        if op is None or len(types) != 1 or types[0].kind not in ("b", "u", "s") or types[0].bits != 32:
            raise _Fault(f"'{ins.mnemonic}' is not supported")
        ty = types[0]
        d, a, _mask = self._operands(ins, 3)
        ra = self._value(a, ty)
        w = self._writer(d, ty)
        nw, tp = self.warps, self.tp

        def run(c, m):
            act = (np.ones(tp, bool) if m is None else m).reshape(nw, WARP)
            v = ra(c).reshape(nw, WARP)
            if op == "add":
                r = np.where(act, v.astype(np.int64), 0).sum(axis=1)
            elif op in ("min", "max"):
                big = np.iinfo(v.dtype)
                fill = big.max if op == "min" else big.min
                vv = np.where(act, v, v.dtype.type(fill))
                r = vv.min(axis=1) if op == "min" else vv.max(axis=1)
            else:
                fill = v.dtype.type(-1 if ty.kind == "s" else 0xFFFFFFFF) if op == "and" else v.dtype.type(0)
                vv = np.where(act, v, fill)
                fn = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[op]
                r = fn.reduce(vv, axis=1)
            w(c, np.repeat(np.asarray(r).astype(np.int64).astype(v.dtype), WARP), m)

        return run

    # ------------------------------------------------------------ control and sync
    def _op_bra(self, ins: Instruction):
        (target,) = self._operands(ins, 1)
        if not isinstance(target, Symbol) or target.name not in self.labels:
            raise _Fault(f"branch target {target} is not a label")
        dest = self.labels[target.name]

        def run(c, m):
            if m is not None and not np.array_equal(m, c.alive):
                n = int(m.sum())
                raise _Fault(
                    f"divergent branch: {n} of {int(c.alive.sum())} live threads take it "
                    f"(branches must be uniform over the CTA)"
                )
            return dest

        return run

    def _op_ret(self, ins: Instruction):
        def run(c, m):
            if m is None or np.array_equal(m, c.alive):
                return _END
            c.alive = c.alive & ~m
            c.full = False
            c.alive_warps = int(c.alive.reshape(self.warps, WARP).any(axis=1).sum())
            return None

        return run

    _op_exit = _op_ret

    def _op_trap(self, ins: Instruction):
        def run(c, m):
            raise _Fault("trap")

        return run

    def _barrier(self, ins: Instruction, warp_level: bool):
        def run(c, m):
            if warp_level:
                self.counters.warp_barriers += self._active_warps(m)
                return None
            if m is not None and not np.array_equal(m, c.alive):
                raise _Fault("CTA barrier executed by only some live threads")
            self.counters.barriers += 1
            return None

        return run

    def _op_bar(self, ins: Instruction):
        mods = ins.modifiers
        if "warp" in mods:
            return self._barrier(ins, True)
        if "red" in mods:
            raise _Fault("bar.red is not supported")
        return self._barrier(ins, False)

    def _op_barrier(self, ins: Instruction):
        if "red" in ins.modifiers:
            raise _Fault("barrier.red is not supported")
        return self._barrier(ins, False)

    def _noop(self, ins: Instruction):
        return lambda c, m: None

    _op_membar = _noop
    _op_fence = _noop
    _op_nanosleep = _noop
    _op_prefetch = _noop
    _op_prefetchu = _noop
    _op_griddepcontrol = _noop
    _op_discard = _noop
    _op_applypriority = _noop
    _op_pmevent = _noop

    # ============================================================ running
    def _special_values(self, ctaid: tuple[int, int, int]) -> dict[str, np.ndarray]:
        bx, by, _ = self.block
        t = self.t
        u32 = np.uint32
        lane = self.lane
        vals: dict[str, np.ndarray] = {
            "%tid.x": (t % bx).astype(u32),
            "%tid.y": ((t // bx) % by).astype(u32),
            "%tid.z": (t // (bx * by)).astype(u32),
            "%laneid": lane.astype(u32),
            "%warpid": self.warp_of.astype(u32),
            "%nwarpid": np.full(self.tp, self.warps, u32),
            "%lanemask_eq": (np.uint64(1) << lane.astype(np.uint64)).astype(u32),
            "%lanemask_lt": ((np.uint64(1) << lane.astype(np.uint64)) - np.uint64(1)).astype(u32),
            "%lanemask_le": ((np.uint64(2) << lane.astype(np.uint64)) - np.uint64(1)).astype(u32),
            "%smid": np.zeros(self.tp, u32),
            "%nsmid": np.ones(self.tp, u32),
            "%gridid": np.zeros(self.tp, np.uint64),
            "%clock": np.zeros(self.tp, u32),
            "%clock_hi": np.zeros(self.tp, u32),
            "%clock64": np.zeros(self.tp, np.uint64),
            "%globaltimer": np.zeros(self.tp, np.uint64),
            "%globaltimer_lo": np.zeros(self.tp, u32),
            "%globaltimer_hi": np.zeros(self.tp, u32),
            "%cluster_ctarank": np.zeros(self.tp, u32),
            "%cluster_nctarank": np.ones(self.tp, u32),
            "%is_explicit_cluster": np.zeros(self.tp, u32),
            "%dynamic_smem_size": np.full(self.tp, self.shared_size - SHARED_BASE, u32),
            "%total_smem_size": np.full(self.tp, self.shared_size - SHARED_BASE, u32),
            "%aggr_smem_size": np.full(self.tp, self.shared_size - SHARED_BASE, u32),
        }
        vals["%lanemask_ge"] = ~vals["%lanemask_lt"]
        vals["%lanemask_gt"] = ~vals["%lanemask_le"]
        for i, ax in enumerate("xyz"):
            vals[f"%ntid.{ax}"] = np.full(self.tp, self.block[i], u32)
            vals[f"%ctaid.{ax}"] = np.full(self.tp, ctaid[i], u32)
            vals[f"%nctaid.{ax}"] = np.full(self.tp, self.grid[i], u32)
            vals[f"%clusterid.{ax}"] = np.full(self.tp, ctaid[i], u32)
            vals[f"%nclusterid.{ax}"] = np.full(self.tp, self.grid[i], u32)
            vals[f"%cluster_ctaid.{ax}"] = np.zeros(self.tp, u32)
            vals[f"%cluster_nctaid.{ax}"] = np.ones(self.tp, u32)
        return vals

    def run(self) -> PtxStats:
        gx, gy, gz = self.grid
        with np.errstate(all="ignore"):
            for z in range(gz):
                for y in range(gy):
                    for x in range(gx):
                        self._run_cta((x, y, z))
        for r in self.mem.regions:
            if r.array is not None and r.written:
                a = r.array
                data = r.buf[: r.size].view(a.dtype).reshape(a.shape)
                np.copyto(a, data)
        return self._stats()

    def _run_cta(self, ctaid: tuple[int, int, int]) -> None:
        c = _Cta()
        c.ctaid = ctaid
        c.regs = [np.zeros(self.tp, bool if t.kind == "pred" else _UINT[t.bits]) for t in self.slot_types]
        c.special = self._special_values(ctaid)
        c.smem = np.zeros((self.shared_size - SHARED_BASE + 15) // 16 * 16 + 16, np.uint8)
        c.alive = self.exists.copy()
        c.full = bool(c.alive.all())
        c.alive_warps = self.warps
        code = self.code
        n = len(code)
        issues = self.counters.issues
        tp = self.tp
        pc = 0
        steps = 0
        thread_instr = 0
        max_steps = self.max_steps
        while pc < n:
            op = code[pc]
            steps += 1
            if steps > max_steps:
                raise SimulationError(
                    f"CTA {ctaid} executed more than {max_steps} instructions (infinite loop?)",
                    op.ins.line, op.ins.column, op.ins.source,
                )
            issues[pc] += c.alive_warps
            if op.guard is None:
                mask = None if c.full else c.alive
            else:
                g = c.regs[op.guard]
                if op.negated:
                    g = ~g
                mask = g if c.full else (g & c.alive)
            if mask is None:
                thread_instr += tp
            else:
                cnt = int(np.count_nonzero(mask))
                thread_instr += cnt
                if cnt == 0:
                    pc += 1
                    continue
                if cnt == tp:
                    mask = None
            try:
                r = op.fn(c, mask)
            except _Fault as e:
                raise SimulationError(
                    f"{e} (CTA {ctaid})", op.ins.line, op.ins.column, op.ins.source
                ) from None
            if r is None:
                pc += 1
            elif r is _END:
                break
            else:
                pc = r
        self.counters.thread_instructions += thread_instr

    def _stats(self) -> PtxStats:
        k = self.counters
        lines: dict[int, int] = {}
        for op, n in zip(self.code, k.issues.tolist()):
            if n:
                lines[op.ins.line] = lines.get(op.ins.line, 0) + int(n)
        return PtxStats(
            kernel=self.kernel.name,
            grid=self.grid,
            block=self.block,
            instructions=int(k.issues.sum()),
            thread_instructions=int(k.thread_instructions),
            line_counts=lines,
            shared_loads=k.shared_loads,
            shared_stores=k.shared_stores,
            matrix_loads=k.matrix_loads,
            matrix_stores=k.matrix_stores,
            shared_load_wavefronts=k.load_wf,
            shared_store_wavefronts=k.store_wf,
            wavefronts=k.wf,
            wavefront_lower_bound=k.lb,
            line_wavefronts={ln: (v[0], v[1]) for ln, v in sorted(k.line_wf.items())},
            shuffles=k.shuffles,
            barriers=k.barriers,
            warp_barriers=k.warp_barriers,
            global_loads=dict(sorted(k.global_loads.items())),
            global_stores=dict(sorted(k.global_stores.items())),
            atomics=k.atomics,
            shared_bytes=self.shared_size - SHARED_BASE,
        )


_END = object()


# ============================================================================ small helpers
_PRMT_MODES = {
    # d.b0..d.b3 source byte for c[1:0] = 0..3
    "f4e": [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
    "b4e": [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
    "rc8": [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
    "ecl": [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
    "ecr": [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
    "rc16": [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]],
}

def _unord(f):
    return lambda x, y: f(x, y) | np.isnan(x) | np.isnan(y)


_CMP: dict[str, Callable] = {
    "eq": np.equal, "ne": lambda x, y: _ordered_ne(x, y),
    "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
    "lo": np.less, "ls": np.less_equal, "hi": np.greater, "hs": np.greater_equal,
    "equ": _unord(np.equal), "neu": np.not_equal, "ltu": _unord(np.less), "leu": _unord(np.less_equal),
    "gtu": _unord(np.greater), "geu": _unord(np.greater_equal),
    "num": lambda x, y: ~np.isnan(x) & ~np.isnan(y), "nan": lambda x, y: np.isnan(x) | np.isnan(y),
}
def _ordered_ne(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "f":
        return np.not_equal(x, y) & ~np.isnan(x) & ~np.isnan(y)
    return np.not_equal(x, y)


_FLOAT_ONLY_CMP = {"equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"}
_ATOM_OPS = {"add", "inc", "dec", "min", "max", "and", "or", "xor", "exch", "cas"}


def _int_compare(cmp: str, x: np.ndarray, y: np.ndarray, unsigned: bool) -> np.ndarray:
    if cmp in ("lo", "ls", "hi", "hs") and not unsigned:
        x = x.view(_UINT[x.dtype.itemsize * 8])
        y = y.view(_UINT[y.dtype.itemsize * 8])
    return _CMP[cmp](x, y)


def _umulhi64(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = a.view(np.uint64) if a.dtype != np.uint64 else a
    b = b.view(np.uint64) if b.dtype != np.uint64 else b
    m32 = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    a_lo, a_hi = a & m32, a >> s32
    b_lo, b_hi = b & m32, b >> s32
    p0, p1, p2, p3 = a_lo * b_lo, a_lo * b_hi, a_hi * b_lo, a_hi * b_hi
    mid = (p0 >> s32) + (p1 & m32) + (p2 & m32)
    return p3 + (p1 >> s32) + (p2 >> s32) + (mid >> s32)


def _smulhi64(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    ua, ub = a.view(np.uint64), b.view(np.uint64)
    hi = _umulhi64(ua, ub)
    hi = hi - np.where(a < 0, ub, np.uint64(0)) - np.where(b < 0, ua, np.uint64(0))
    return hi.view(np.int64)


def _int_range(ty: _Ty) -> tuple[int, int]:
    if ty.kind == "s":
        return -(1 << (ty.bits - 1)), (1 << (ty.bits - 1)) - 1
    return 0, (1 << ty.bits) - 1


def _clamp_int(v: np.ndarray, lo: int, hi: int) -> np.ndarray:
    info = np.iinfo(v.dtype)
    if lo > info.min:
        v = np.where(v < lo, v.dtype.type(lo), v)
    if hi < info.max:
        v = np.where(v > hi, v.dtype.type(hi), v)
    return v


def _float_to_int(v: np.ndarray, dt: _Ty, lo: int, hi: int) -> np.ndarray:
    """Rounded float64 values -> dt, saturating at the type's range; NaN -> 0."""
    out_t = _SINT[dt.bits] if dt.kind == "s" else _UINT[dt.bits]
    nan = np.isnan(v)
    too_low = v < float(lo)
    too_high = v >= float(hi) + 1.0  # hi + 1 is a power of two, exact in float64
    ok = ~(nan | too_low | too_high)
    r = np.where(ok, v, 0.0).astype(out_t)
    r = np.where(too_low, out_t(lo), r)
    return np.where(too_high, out_t(hi), r)


def _post_narrow(v: np.ndarray, target: str, relu: bool, satfinite: bool) -> np.ndarray:
    if satfinite:
        big = {"f16": 65504.0, "bf16": float(np.float32(3.3895313892515355e38)), "f32": float(np.finfo(np.float32).max),
               "f64": float(np.finfo(np.float64).max)}[target]
        v = np.where(np.isnan(v), v, np.clip(v, -big, big)).astype(v.dtype, copy=False)
    if relu:
        v = np.where(np.isnan(v), v, np.maximum(v, 0)).astype(v.dtype, copy=False)
    return v


def _mask_and(mask: np.ndarray | None, sel: np.ndarray) -> np.ndarray:
    return sel if mask is None else mask & sel


def _atomic_combiner(op: str, ty: _Ty):
    conv = _from_bits(ty)
    back = _to_bits(ty)

    def val(bits):
        return conv(bits) if conv is not None else bits

    def combine(old, b, e):
        x, y = val(old), val(b)
        if op == "add":
            r = x + y
        elif op == "min":
            r = np.fmin(x, y) if ty.kind in _FLOAT_KINDS else np.minimum(x, y)
        elif op == "max":
            r = np.fmax(x, y) if ty.kind in _FLOAT_KINDS else np.maximum(x, y)
        elif op == "and":
            return old & b
        elif op == "or":
            return old | b
        elif op == "xor":
            return old ^ b
        elif op == "exch":
            return b
        elif op == "cas":
            return np.where(old == b, e, old)
        elif op == "inc":
            return np.where(old >= b, old.dtype.type(0), old + old.dtype.type(1))
        elif op == "dec":
            return np.where((old == 0) | (old > b), b, old - old.dtype.type(1))
        else:  # pragma: no cover
            raise _Fault(op)
        return back(r)

    return combine


def _reg_type(ty: _Ty) -> _Ty:
    """Register storage type: raw bits of the declared width."""
    if ty.kind == "pred":
        return ty
    return _B[ty.bits]


def _param_elem_bytes(p) -> int:
    return max(1, (_TYPES[p.type].bits // 8) if p.type in _TYPES else 1)


def _walk_vars(stmts) -> list[VarDecl]:
    out = []
    for s in stmts:
        if isinstance(s, VarDecl):
            out.append(s)
        elif isinstance(s, Block):
            out.extend(_walk_vars(s.statements))
    return out


def _init_bytes(v: VarDecl, size: int, symbols: dict, mem: _GlobalMemory) -> bytes:
    data = bytearray(size)
    if v.init is None:
        return bytes(data)
    ty = _TYPES[v.type]
    eb = max(1, ty.bits // 8)
    for i, x in enumerate(v.init):
        if i * eb >= size:
            raise SimulationError(f"too many initial values for '{v.name}'", v.line)
        if isinstance(x, str):
            if x not in symbols:
                raise SimulationError(f"initial value '{x}' of '{v.name}' is not a known variable", v.line)
            val = symbols[x][1]
        elif isinstance(x, float):
            if ty.kind == "f":
                raw = np.array([x], _FLOAT[ty.bits]).tobytes()
                data[i * eb : (i + 1) * eb] = raw
                continue
            val = int(x)
        else:
            val = int(x)
        data[i * eb : (i + 1) * eb] = (val & ((1 << (8 * eb)) - 1)).to_bytes(eb, "little")
    return bytes(data)


# ============================================================================ entry point
def run_kernel(
    module: PtxModule,
    grid: tuple[int, ...] | int = (1, 1, 1),
    args: Sequence[Any] = (),
    *,
    kernel: str | None = None,
    block: int | tuple[int, ...] | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> PtxStats:
    """Run ``kernel`` (default: the module's only entry) for every CTA of ``grid``.

    ``args`` in parameter order: numpy arrays (or None for a null pointer) for
    pointer parameters, Python / numpy scalars for the rest; arrays are updated
    in place. Threads per CTA come from ``.reqntid`` / ``.maxntid`` or ``block``.
    Raises :class:`SimulationError` for bad arguments, unsupported instructions,
    divergent branches and out-of-bounds or misaligned accesses.
    """
    try:
        k = module.kernel(kernel)
    except KeyError as e:
        raise SimulationError(str(e.args[0])) from None
    if not k.entry:
        raise SimulationError(f"'{k.name}' is a .func, not an .entry kernel")
    g = _dims(grid, "grid")
    b = _block_dims(k, block)
    m = _Machine(module, k, g, b, args, max_steps)
    return m.run()


def _dims(v, what: str) -> tuple[int, int, int]:
    if isinstance(v, (int, np.integer)):
        v = (int(v),)
    v = tuple(int(x) for x in v)
    if not 1 <= len(v) <= 3 or any(x < 1 for x in v):
        raise SimulationError(f"{what} must be 1 to 3 positive sizes, got {v}")
    return (v + (1, 1))[:3]


def _block_dims(k: Kernel, block) -> tuple[int, int, int]:
    req = _dims(k.reqntid, ".reqntid") if k.reqntid else None
    mx = _dims(k.maxntid, ".maxntid") if k.maxntid else None
    if block is not None:
        b = _dims(block, "block")
        if req is not None and b != req:
            raise SimulationError(f"block {b} differs from the kernel's .reqntid {req}")
        if mx is not None and b[0] * b[1] * b[2] > mx[0] * mx[1] * mx[2]:
            raise SimulationError(f"block {b} exceeds the kernel's .maxntid {mx}")
        return b
    if req is not None:
        return req
    if mx is not None:
        return mx
    raise SimulationError(f"kernel '{k.name}' declares no .reqntid/.maxntid: give the block size")
