"""The PTX type model, and conversions between a register's raw bits and numpy values.

A :class:`PtxType` is a PTX type (``.u32``, ``.f16x2``, ``.pred``, ...): name,
width and kind. Registers hold raw bits (unsigned numpy ints of the declared
width; ``.pred``: bool). :func:`from_bits` / :func:`to_bits` reinterpret
them as the values an instruction computes with (signed ints, floats; bf16 as
float32; packed pairs as (threads, 2) arrays) and back. Also: width changes
(:func:`fit_bits`, :func:`extend_bits`) and bfloat16 rounding to nearest even.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class PtxType:
    """A PTX type: its name, width in bits, and kind (how an instruction reads its bits)."""

    name: str
    bits: int
    kind: str  # b u s f bf f16x2 bf16x2 pred fp8x2 tf32


def _make_types() -> dict[str, PtxType]:
    t: dict[str, PtxType] = {}
    for w in (8, 16, 32, 64):
        for k in ("b", "u", "s"):
            t[f"{k}{w}"] = PtxType(f"{k}{w}", w, k)
    for w in (16, 32, 64):
        t[f"f{w}"] = PtxType(f"f{w}", w, "f")
    t["bf16"] = PtxType("bf16", 16, "bf")
    t["f16x2"] = PtxType("f16x2", 32, "f16x2")
    t["bf16x2"] = PtxType("bf16x2", 32, "bf16x2")
    t["pred"] = PtxType("pred", 1, "pred")
    t["e4m3x2"] = PtxType("e4m3x2", 16, "fp8x2")
    t["e5m2x2"] = PtxType("e5m2x2", 16, "fp8x2")
    t["tf32"] = PtxType("tf32", 32, "tf32")
    return t


PTX_TYPES = _make_types()
UINT_DTYPE = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
SINT_DTYPE = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
FLOAT_DTYPE = {16: np.float16, 32: np.float32, 64: np.float64}
FLOAT_KINDS = ("f", "bf", "f16x2", "bf16x2")
BIT_TYPES = {w: PTX_TYPES[f"b{w}"] for w in (8, 16, 32, 64)}
U32 = PTX_TYPES["u32"]
U64 = PTX_TYPES["u64"]
PRED = PTX_TYPES["pred"]
_CANON_NAN = {16: 0x7FFF, 32: 0x7FFFFFFF, 64: 0x7FFFFFFFFFFFFFFF}


def split_modifiers(mods: tuple[str, ...]) -> tuple[list[PtxType], list[str]]:
    types = [PTX_TYPES[m] for m in mods if m in PTX_TYPES]
    flags = [m for m in mods if m not in PTX_TYPES]
    return types, flags


def float_target(ty: PtxType) -> str:
    """The scalar float format of a float type's lanes."""
    if ty.kind == "f":
        return f"f{ty.bits}"
    return {"bf": "bf16", "f16x2": "f16", "bf16x2": "bf16"}[ty.kind]


# ---------------------------------------------------------------- bit <-> value
def bf16_bits_to_f32(b16: np.ndarray) -> np.ndarray:
    return (b16.astype(np.uint32) << np.uint32(16)).view(np.float32)


def f32_to_bf16_bits(v: np.ndarray) -> np.ndarray:
    """Round float32 values to bfloat16 (nearest even); NaN -> 0x7FFF."""
    v = np.ascontiguousarray(v, dtype=np.float32)
    u = v.view(np.uint32)
    r = (u + np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16)
    r = np.where(np.isnan(v), np.uint32(0x7FFF), r)
    return r.astype(np.uint16)


def bf16_round(v32: np.ndarray) -> np.ndarray:
    """float32 -> the nearest-even bfloat16 value, as float32."""
    return bf16_bits_to_f32(f32_to_bf16_bits(v32))


def from_bits(ty: PtxType) -> Callable[[np.ndarray], np.ndarray] | None:
    k = ty.kind
    if k in ("b", "u", "pred", "fp8x2", "tf32"):
        return None
    if k == "s":
        dt = SINT_DTYPE[ty.bits]
        return lambda b: b.view(dt)
    if k == "f":
        dt = FLOAT_DTYPE[ty.bits]
        return lambda b: b.view(dt)
    if k == "bf":
        return bf16_bits_to_f32
    if k == "f16x2":
        return lambda b: np.ascontiguousarray(b).view(np.uint16).reshape(-1, 2).view(np.float16)
    if k == "bf16x2":
        return lambda b: bf16_bits_to_f32(np.ascontiguousarray(b).view(np.uint16).reshape(-1, 2))
    raise AssertionError(k)


def to_bits(ty: PtxType, canon: bool = False) -> Callable[[np.ndarray], np.ndarray]:
    k, w = ty.kind, ty.bits
    if k == "pred":
        return lambda v: np.asarray(v, dtype=bool)
    if k in ("b", "u", "fp8x2", "tf32"):
        dt = UINT_DTYPE[w]
        return lambda v: np.asarray(v).astype(dt, copy=False)
    if k == "s":
        st, ut = SINT_DTYPE[w], UINT_DTYPE[w]
        return lambda v: np.asarray(v).astype(st, copy=False).view(ut)
    if k == "f":
        ft, ut = FLOAT_DTYPE[w], UINT_DTYPE[w]
        if canon:
            nan = ut(_CANON_NAN[w])

            def f(v):
                v = np.asarray(v).astype(ft, copy=False)
                return np.where(np.isnan(v), nan, v.view(ut))

            return f
        return lambda v: np.ascontiguousarray(np.asarray(v).astype(ft, copy=False)).view(ut)
    if k == "bf":
        return lambda v: f32_to_bf16_bits(v)
    if k == "f16x2":
        nan = np.uint16(0x7FFF)

        def f2(v):
            h = np.ascontiguousarray(np.asarray(v).astype(np.float16, copy=False)).view(np.uint16)
            if canon:
                h = np.where(np.isnan(v), nan, h)
            return np.ascontiguousarray(h).view(np.uint32).reshape(-1)

        return f2
    if k == "bf16x2":
        return lambda v: np.ascontiguousarray(f32_to_bf16_bits(v)).view(np.uint32).reshape(-1)
    raise AssertionError(k)


def fit_bits(bits: np.ndarray, width: int) -> np.ndarray:
    """Truncate or zero-extend unsigned ``bits`` to ``width`` bits."""
    if bits.dtype.itemsize * 8 == width:
        return bits
    return bits.astype(UINT_DTYPE[width])


def extend_bits(bits: np.ndarray, src_width: int, dst_width: int, signed: bool) -> np.ndarray:
    if src_width == dst_width:
        return bits
    if dst_width > src_width and signed:
        return bits.view(SINT_DTYPE[src_width]).astype(SINT_DTYPE[dst_width]).view(UINT_DTYPE[dst_width])
    return bits.astype(UINT_DTYPE[dst_width])
