"""``mma.sync.aligned`` (warp-level matrix multiply-accumulate), the ``m16n8k8`` (tf32),
``m16n8k16`` (f16, bf16) and ``m16n8k32`` (s8, u8) shapes with ``.row.col`` operands.

``D = A · B + C`` for each warp: A is 16 x K, B is K x 8, C and D are 16 x 8. Each lane
holds fragments of them in 32-bit registers, elements packed low first; with
``g = lane / 4``, ``t = lane % 4`` and ``w = 32 / (bits of an A/B element)`` elements a
register, the PTX ISA's fragment maps are (register i, packed element p):

* A (4 registers): row ``g + 8 (i % 2)``, column ``w t + p + 4 w (i / 2)``;
* B (2 registers): row ``w t + p + 4 w i``, column ``g``;
* C / D (element e = i for f32 / s32, e = 2 i + p for f16x2): row ``g + 8 (e / 2)``,
  column ``2 t + e % 2``.

A warp runs it whole (all 32 lanes) or not at all.

Rounding model (the hardware's accumulation is not IEEE; this is a documented model, not
a bit-exact one): tf32 operands keep their top 19 bits (the low 13 bits of the register
are ignored: ``cvt.rna.tf32.f32`` before gives round-to-nearest-away); products of
tf32 / f16 / bf16 elements are exact in float64, and the K products and C are summed in
float64 and rounded once, to nearest even, to D's type. Real tensor cores truncate the
aligned partial sums, so D may differ from hardware in the last bit or so. Integer
``s32`` results are exact modulo 2^32 (no ``.satfinite``).
"""

from __future__ import annotations

import numpy as np

from ltc.lowering.ptxsim.errors import Fault
from ltc.lowering.ptxsim.parse import Instruction, Vector
from ltc.lowering.ptxsim.state import WARP, MachineState
from ltc.lowering.ptxsim.values import BIT_TYPES, split_modifiers

__all__ = ["MmaOps", "fragment_coordinates"]

_SHAPE_K = {"m16n8k8": ("tf32",), "m16n8k16": ("f16", "bf16"), "m16n8k32": ("s8", "u8")}
"""The shapes simulated and the A/B element types each takes."""
_AB_BITS = {"tf32": 32, "f16": 16, "bf16": 16, "s8": 8, "u8": 8}
_ACCUMULATORS = {"tf32": ("f32",), "f16": ("f32", "f16"), "bf16": ("f32",), "s8": ("s32",), "u8": ("s32",)}


def fragment_coordinates(operand: str, ab_bits: int, acc_bits: int = 32) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, cols)``, each of shape (32 lanes, elements a lane holds), of the fragment of
    ``operand`` (``"a"``, ``"b"`` or ``"c"``) as the module doc gives them; element
    ``e`` of a lane is packed element ``e % w`` of its register ``e / w``."""
    lane = np.arange(WARP)[:, None]
    g, t = lane // 4, lane % 4
    if operand == "c":
        e = np.arange(4)[None, :]
        return np.broadcast_to(g + 8 * (e // 2), (WARP, 4)), np.broadcast_to(2 * t + e % 2, (WARP, 4))
    w = 32 // ab_bits
    regs = 4 if operand == "a" else 2
    e = np.arange(regs * w)[None, :]
    i, p = e // w, e % w
    if operand == "a":
        return np.broadcast_to(g + 8 * (i % 2), (WARP, regs * w)), w * t + p + 4 * w * (i // 2)
    return w * t + p + 4 * w * i, np.broadcast_to(g, (WARP, regs * w))


def _unpack(words: np.ndarray, kind: str) -> np.ndarray:
    """(..., registers) uint32 words -> (..., elements) float64 / int64 values, low first."""
    if kind in ("f32", "tf32"):
        bits = words if kind == "f32" else words & np.uint32(0xFFFFE000)
        return bits.astype(np.uint32).view(np.float32).astype(np.float64)
    if kind == "s32":
        return words.astype(np.uint32).view(np.int32).astype(np.int64)
    width = 16 if kind in ("f16", "bf16") else 8
    n = 32 // width
    parts = (words[..., None] >> (np.arange(n, dtype=np.uint32) * np.uint32(width))) & np.uint32((1 << width) - 1)
    parts = parts.reshape(*words.shape[:-1], words.shape[-1] * n)
    if kind == "f16":
        return parts.astype(np.uint16).view(np.float16).astype(np.float64)
    if kind == "bf16":
        return (parts << np.uint32(16)).astype(np.uint32).view(np.float32).astype(np.float64)
    if kind == "s8":
        return parts.astype(np.uint8).view(np.int8).astype(np.int64)
    return parts.astype(np.int64)  # u8


def _pack(values: np.ndarray, kind: str) -> np.ndarray:
    """(..., elements) results -> (..., registers) uint32 words (f32, s32, or f16 pairs)."""
    if kind == "f32":
        return values.astype(np.float32).view(np.uint32)
    if kind == "s32":
        return (values & 0xFFFFFFFF).astype(np.uint32)
    halves = values.astype(np.float16).view(np.uint16).astype(np.uint32)
    halves = halves.reshape(*values.shape[:-1], values.shape[-1] // 2, 2)
    return halves[..., 0] | (halves[..., 1] << np.uint32(16))


class MmaOps(MachineState):
    """``mma.sync.aligned`` (see the module doc)."""

    def _op_mma(self, ins: Instruction):
        types, flags = split_modifiers(ins.modifiers)
        shape = next((f for f in flags if f in _SHAPE_K), None)
        names = [t.name for t in types]
        if (
            "sync" not in flags or "aligned" not in flags or shape is None or "row" not in flags or "col" not in flags
            or len(names) != 4 or names[1] != names[2] or names[1] not in _SHAPE_K[shape]
            or names[0] != names[3] or names[0] not in _ACCUMULATORS[names[1]]
            or set(flags) - {"sync", "aligned", shape, "row", "col"}
        ):
            raise Fault(f"'{ins.mnemonic}' is not supported (mma.sync.aligned.{{m16n8k8 tf32, m16n8k16 f16/bf16, "
                        "m16n8k32 s8/u8}.row.col with an f32/f16/s32 accumulator)")
        d_kind, ab, _, c_kind = names
        ab_bits = _AB_BITS[ab]
        k = 8 * (32 // ab_bits)
        d_regs = 2 if d_kind == "f16" else 4
        counts = {"d": d_regs, "a": 4, "b": 2, "c": d_regs}
        ops = self._operands(ins, 4)
        vectors = {}
        for name, op in zip("dabc", ops):
            if not isinstance(op, Vector) or len(op.elements) != counts[name]:
                raise Fault(f"'{ins.mnemonic}': operand {name} must be a vector of {counts[name]} registers")
            vectors[name] = op.elements
        b32 = BIT_TYPES[32]
        writers = [self._bits_writer(e, b32) for e in vectors["d"]]
        readers = {n: [self._bits(e, b32) for e in vectors[n]] for n in "abc"}
        ar, ac = fragment_coordinates("a", ab_bits)
        br, bc = fragment_coordinates("b", ab_bits)
        cr, cc = fragment_coordinates("c", ab_bits)
        lane = np.arange(WARP)
        tp = self.tp
        is_int = d_kind == "s32"

        def run(c, m):
            warps = self._full_warps(m, "mma.sync")
            if not len(warps):
                return
            threads = warps[:, None] * WARP + lane[None, :]  # (w, 32)

            def words(n):
                return np.stack([r(c)[threads] for r in readers[n]], axis=-1)  # (w, 32, regs)

            a_vals, b_vals = _unpack(words("a"), ab), _unpack(words("b"), ab)
            c_vals = _unpack(words("c"), c_kind)
            dtype = np.int64 if is_int else np.float64
            a_mat = np.zeros((len(warps), 16, k), dtype)
            b_mat = np.zeros((len(warps), k, 8), dtype)
            c_mat = np.zeros((len(warps), 16, 8), dtype)
            a_mat[:, ar, ac] = a_vals
            b_mat[:, br, bc] = b_vals
            c_mat[:, cr, cc] = c_vals
            d_mat = np.matmul(a_mat, b_mat) + c_mat
            out = _pack(d_mat[:, cr, cc], d_kind)  # (w, 32, regs)
            for i, wr in enumerate(writers):
                full = np.zeros(tp, np.uint32)  # (threads outside m are not written)
                full[threads.ravel()] = out[..., i].ravel()
                wr(c, full, m)

        return run
