"""convert-tritongpu-to-llvm on ``tt.reduce`` and ``tt.scan``: the instruction counts the
algorithms imply, an exhaustive check of the reduction plan over every thread, and lowered
kernels run against numpy (sums, max, argmax with ties, and for scans a linear recurrence,
whose combiner is not commutative).

Running the lowered IR: :class:`Lockstep` executes a lowered function for all threads of one
CTA at once (numpy arrays over threads; a lowered function is one block, so lockstep order is
program order). It knows only the instructions these kernels use and is independent of the
emitters. When the PTX emitter and simulator import, the kernels also go through them (and
through ``ptxas`` when it is on PATH).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import llvm
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, ModuleOp

from ltc.linear_layout import LinearLayout
from ltc.lowering.llvm.reduce import reduce_plan, scan_plan
from ltc.lowering.llvm.function import LoweringError
from ltc.lowering.llvm.to_llvm import lower_module
from ltc.passes.layout_ir import linear_layout_of
from ltc.tools.pipeline import parse_module

ROOT = Path(__file__).resolve().parents[1]

# ----------------------------------------------------------------------------------------
# kernels
# ----------------------------------------------------------------------------------------

_HEADER = (
    'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps} : i32, '
    'ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{'
)


def _blocked(spt: Sequence[int], tpw: Sequence[int], wpc: Sequence[int], order: Sequence[int]) -> str:
    def lst(v: Sequence[int]) -> str:
        return "[" + ", ".join(map(str, v)) + "]"

    return (
        f"#ttg.blocked<{{sizePerThread = {lst(spt)}, threadsPerWarp = {lst(tpw)}, "
        f"warpsPerCTA = {lst(wpc)}, order = {lst(order)}}}>"
    )


def _combiner(kind: str, dtype: str, ret: str) -> tuple[list[str], str]:
    """The combiner block's arguments (accumulators first) and body: ``sum``, ``max``, or
    ``argmax`` (value, index) keeping the first index of equal values."""
    is_float = dtype.startswith("f")
    if kind in ("sum", "max"):
        op = {("sum", True): "arith.addf", ("sum", False): "arith.addi",
              ("max", True): "arith.maxnumf", ("max", False): "arith.maxsi"}[(kind, is_float)]  # fmt: skip
        return [f"%a: {dtype}", f"%b: {dtype}"], f"      %t = {op} %a, %b : {dtype}\n      {ret} %t : {dtype}"
    if kind == "recur":  # (a, b) then (c, d) -> (a·c, b·c + d): associative, not commutative
        body = (
            f"      %m = arith.muli %a, %b : {dtype}\n"
            "      %t = arith.muli %ai, %b : i32\n"
            "      %u = arith.addi %t, %bi : i32\n"
            f"      {ret} %m, %u : {dtype}, i32"
        )
        return [f"%a: {dtype}", "%ai: i32", f"%b: {dtype}", "%bi: i32"], body
    assert kind == "argmax"
    gt, eq = ("arith.cmpf ogt", "arith.cmpf oeq") if is_float else ("arith.cmpi sgt", "arith.cmpi eq")
    body = (
        f"      %gt = {gt}, %a, %b : {dtype}\n"
        f"      %eq = {eq}, %a, %b : {dtype}\n"
        "      %lt = arith.cmpi slt, %ai, %bi : i32\n"
        "      %tie = arith.andi %eq, %lt : i1\n"
        "      %p = arith.ori %gt, %tie : i1\n"
        f"      %cv = arith.select %p, %a, %b : {dtype}\n"
        "      %ci = arith.select %p, %ai, %bi : i32\n"
        f"      {ret} %cv, %ci : {dtype}, i32"
    )
    return [f"%a: {dtype}", "%ai: i32", f"%b: {dtype}", "%bi: i32"], body


def _load_lines(shape: Sequence[int], dtype: str, axis: int) -> tuple[list[str], str, str, str]:
    """Load x (row-major) as %v in #src, with the element offsets %off. Returns the lines,
    the value and index tensor types, and the name of the coordinates along ``axis``."""
    full = "x".join(map(str, shape))
    vt, it = f"tensor<{full}x{dtype}, #src>", f"tensor<{full}xi32, #src>"
    pt = f"tensor<{full}x!tt.ptr<{dtype}>, #src>"
    if len(shape) == 1:
        (n,) = shape
        lines = [f"    %off = tt.make_range {{end = {n} : i32, start = 0 : i32}} : {it}"]
        index = "%off"
    else:
        m, n = shape
        s1, s0 = "#ttg.slice<{dim = 1, parent = #src}>", "#ttg.slice<{dim = 0, parent = #src}>"
        col = f"tensor<{m}x1xi32, #src>"
        lines = [
            f"    %cN = arith.constant dense<{n}> : {col}",
            f"    %r = tt.make_range {{end = {m} : i32, start = 0 : i32}} : tensor<{m}xi32, {s1}>",
            f"    %re = tt.expand_dims %r {{axis = 1 : i32}} : tensor<{m}xi32, {s1}> -> {col}",
            f"    %rm = arith.muli %re, %cN : {col}",
            f"    %rb = tt.broadcast %rm : {col} -> {it}",
            f"    %ri = tt.broadcast %re : {col} -> {it}",
            f"    %c = tt.make_range {{end = {n} : i32, start = 0 : i32}} : tensor<{n}xi32, {s0}>",
            f"    %ce = tt.expand_dims %c {{axis = 0 : i32}} : tensor<{n}xi32, {s0}> -> tensor<1x{n}xi32, #src>",
            f"    %cb = tt.broadcast %ce : tensor<1x{n}xi32, #src> -> {it}",
            f"    %off = arith.addi %rb, %cb : {it}",
        ]
        index = "%ri" if axis == 0 else "%cb"
    lines += [
        f"    %xs = tt.splat %x : !tt.ptr<{dtype}> -> {pt}",
        f"    %xp = tt.addptr %xs, %off : {pt}, {it}",
        f"    %v = tt.load %xp : {pt}",
    ]
    return lines, vt, it, index


def _store_lines(ptr: str, value: str, elem: str, t: str, offsets: str, tag: str) -> list[str]:
    pt = t.replace(f"x{elem},", f"x!tt.ptr<{elem}>,")
    it = t.replace(f"x{elem},", "xi32,")
    return [
        f"    %{tag}s = tt.splat {ptr} : !tt.ptr<{elem}> -> {pt}",
        f"    %{tag}p = tt.addptr %{tag}s, {offsets} : {pt}, {it}",
        f"    tt.store %{tag}p, {value} : {pt}",
    ]


def reduce_kernel(
    shape: Sequence[int], layout: str, axis: int, dtype: str, kind: str, warps: int, scan: bool = False, reverse: bool = False
) -> str:
    """Load x[shape] (row-major) in ``layout``; reduce (or scan) along ``axis`` with ``kind``
    (sum, max, argmax); store the result to y (row-major) and, for argmax, the indices to z."""
    two = kind in ("argmax", "recur")
    op, ret = ("tt.scan", "tt.scan.return") if scan else ("tt.reduce", "tt.reduce.return")
    block_args, body = _combiner(kind, dtype, ret)
    lines = [f"#src = {layout}", _HEADER.format(warps=warps)]
    lines.append(f"  tt.func public @k(%x: !tt.ptr<{dtype}>, %y: !tt.ptr<{dtype}>, %z: !tt.ptr<i32>) {{")
    load, vt, it, index = _load_lines(shape, dtype, axis)
    lines += load
    if scan:
        result_types = [vt, it]
    elif len(shape) == 1:
        result_types = [dtype, "i32"]
    else:
        r = shape[1 - axis]
        rl = f"#ttg.slice<{{dim = {axis}, parent = #src}}>"
        result_types = [f"tensor<{r}x{dtype}, {rl}>", f"tensor<{r}xi32, {rl}>"]
    n = 2 if two else 1
    props = f"axis = {axis} : i32" + (f", reverse = {'true' if reverse else 'false'}" if scan else "")
    lines += [
        f'    %s{":2" if two else ""} = "{op}"({f"%v, {index}" if two else "%v"}) <{{{props}}}> ({{',
        f"    ^bb0({', '.join(block_args)}):",
        body,
        f"    }}) : ({', '.join([vt, it][:n])}) -> ({', '.join(result_types[:n])})",
    ]
    for k, (ptr, elem) in enumerate([("%y", dtype), ("%z", "i32")][:n]):
        value = f"%s#{k}" if two else "%s"
        t = result_types[k]
        if not t.startswith("tensor"):
            lines.append(f"    tt.store {ptr}, {value} : !tt.ptr<{elem}>")
        elif scan:
            lines += _store_lines(ptr, value, elem, t, "%off", ptr[1:])
        else:
            r = shape[1 - axis]
            rl = f"#ttg.slice<{{dim = {axis}, parent = #src}}>"
            lines.append(f"    %o{ptr[1:]} = tt.make_range {{end = {r} : i32, start = 0 : i32}} : tensor<{r}xi32, {rl}>")
            lines += _store_lines(ptr, value, elem, t, f"%o{ptr[1:]}", ptr[1:])
    lines += ["    tt.return", "  }", "}"]
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------------------
# running lowered IR: all threads of one CTA in lockstep
# ----------------------------------------------------------------------------------------

_UINT = {1: np.uint8, 8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
_SINT = {1: np.int8, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
_FLOAT = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
_REG = {"h": np.uint16, "r": np.uint32, "l": np.uint64, "f": np.float32, "d": np.float64, "b": np.uint8}
_BUFFER_SHIFT = 40  # a global pointer is (buffer number + 1) << 40 | byte offset


def _type_name(t: object) -> str:
    s = str(t)
    return "ptr" if s.startswith("!llvm.ptr") else s


def _width(t: object) -> int:
    s = _type_name(t)
    if s == "ptr":
        return 64
    return int(s[1:]) if s[0] == "i" else {"f16": 16, "f32": 32, "f64": 64}[s]


def _dtype(t: object) -> type:
    s = _type_name(t)
    return _FLOAT[s] if s in _FLOAT else _UINT[_width(t)]


def _signed(v: np.ndarray, t: object) -> np.ndarray:
    w = _width(t)
    if w == 1:
        return -(v.astype(np.int8) & 1)
    return v.view(_SINT[w])


class Lockstep:
    """Run a lowered kernel (one ``llvm.func``) for every thread of one CTA."""

    def __init__(self, module: ModuleOp) -> None:
        self.module = module
        self.threads = module.attributes["ttg.num-warps"].value.data * 32  # type: ignore[attr-defined]
        self.shared = np.zeros(max(1, module.attributes["ttg.shared"].value.data), np.uint8)  # type: ignore[attr-defined]
        self.buffers: list[np.ndarray] = []
        self.barriers = 0
        self.tid = np.arange(self.threads, dtype=np.uint32)

    def run(self, args: Sequence[np.ndarray]) -> None:
        """Run with one global buffer per pointer argument (written in place)."""
        (func,) = [op for op in self.module.body.block.ops if isinstance(op, llvm.FuncOp)]
        block = func.body.block
        self.buffers = [a.view(np.uint8).reshape(-1) for a in args]
        env: dict[object, object] = {}
        for k, a in enumerate(block.args):
            env[a] = np.full(self.threads, (k + 1) << _BUFFER_SHIFT, np.uint64)
        for op in block.ops:
            if op.name == "llvm.return":
                return
            out = self.step(op, [env[v] for v in op.operands])
            if op.results:
                env[op.results[0]] = out

    # -- instructions -----------------------------------------------------------------
    def step(self, op, a):  # noqa: ANN001, ANN201, C901, PLR0911, PLR0912
        name = op.name.removeprefix("llvm.")
        t = op.results[0].type if op.results else None
        if name == "mlir.constant":
            v = op.value
            if isinstance(v, FloatAttr):
                return np.full(self.threads, v.value.data, _dtype(t))
            assert isinstance(v, IntegerAttr)
            return np.full(self.threads, v.value.data & ((1 << _width(t)) - 1), _dtype(t))
        if name == "mlir.addressof":
            return np.zeros(self.threads, np.uint64)
        if name == "call_intrinsic":
            return self.intrinsic(op.properties["intrin"].data, a, t)
        if name == "inline_asm":
            return self.inline_asm(op, a)
        if name == "extractvalue":
            return a[0][op.properties["position"].get_values()[0]]
        if name == "getelementptr":
            size = _width(op.properties["elem_type"]) // 8
            index = _signed(a[1], op.operands[1].type).astype(np.int64)
            return (a[0].astype(np.int64) + index * size).astype(np.uint64)
        if name in ("add", "sub", "mul", "and", "or", "xor"):
            fn = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "and": np.bitwise_and,
                  "or": np.bitwise_or, "xor": np.bitwise_xor}[name]  # fmt: skip
            out = fn(a[0], a[1]).astype(a[0].dtype)
            return out & 1 if _width(t) == 1 else out
        if name in ("shl", "lshr", "ashr"):
            w = _width(t)
            s = a[1].astype(np.uint64)
            x = _signed(a[0], t) if name == "ashr" else a[0]
            big = s >= w
            s = np.where(big, 0, s).astype(x.dtype)
            out = (x << s) if name == "shl" else (x >> s)
            fill = np.where(x < 0, -1, 0).astype(x.dtype) if name == "ashr" else np.zeros_like(x)
            return np.where(big, fill, out).view(_UINT[w]) if name == "ashr" else np.where(big, fill, out)
        if name in ("fadd", "fsub", "fmul", "fdiv"):
            fn = {"fadd": np.add, "fsub": np.subtract, "fmul": np.multiply, "fdiv": np.divide}[name]
            return fn(a[0], a[1]).astype(a[0].dtype)
        if name == "fneg":
            return -a[0]
        if name == "icmp":
            pred = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"][op.predicate.value.data]
            x, y = (_signed(v, op.operands[0].type) for v in a) if pred[0] == "s" else a
            fn = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
                  "gt": np.greater, "ge": np.greater_equal}[pred[1:] if pred[0] in "su" else pred]  # fmt: skip
            return fn(x, y).astype(np.uint8)
        if name == "fcmp":
            pred = llvm.ALL_FCMP_FLAGS[op.predicate.value.data].value
            x, y = a
            unordered = np.isnan(x) | np.isnan(y)
            fn = {"eq": np.equal, "gt": np.greater, "ge": np.greater_equal, "lt": np.less,
                  "le": np.less_equal, "ne": np.not_equal}[pred[1:]]  # fmt: skip
            r = fn(x, y)
            return (r & ~unordered if pred[0] == "o" else r | unordered).astype(np.uint8)
        if name == "select":
            return np.where(a[0] != 0, a[1], a[2])
        if name in ("zext", "trunc", "ptrtoint", "inttoptr"):
            out = a[0].astype(_dtype(t))
            return out & 1 if _width(t) == 1 else out
        if name == "sext":
            return _signed(a[0], op.operands[0].type).astype(_SINT[_width(t)]).view(_UINT[_width(t)])
        if name in ("fpext", "fptrunc"):
            return a[0].astype(_dtype(t))
        if name == "bitcast":
            return a[0].view(_dtype(t))
        raise NotImplementedError(op.name)

    def intrinsic(self, name: str, a, t):  # noqa: ANN001, ANN201
        if name == "llvm.nvvm.read.ptx.sreg.tid.x":
            return self.tid.copy()
        if name.startswith("llvm.nvvm.read.ptx.sreg."):
            return np.full(self.threads, 1 if ".nctaid." in name else 0, np.uint32)
        if name == "llvm.nvvm.barrier0":
            self.barriers += 1
            return None
        if name == "llvm.nvvm.shfl.sync.bfly.i32":
            (lane_mask,) = set(a[2].tolist())
            return a[1][(self.tid & ~np.uint32(31)) | ((self.tid & 31) ^ np.uint32(lane_mask))]
        kind = name.split(".")[1]
        if kind in ("maxnum", "minnum"):
            return (np.fmax if kind == "maxnum" else np.fmin)(a[0], a[1])
        if kind in ("smax", "smin", "umax", "umin"):
            x, y = (_signed(v, t) for v in a) if kind[0] == "s" else a
            r = np.maximum(x, y) if kind[1:] == "max" else np.minimum(x, y)
            return r.view(_UINT[_width(t)])
        raise NotImplementedError(name)

    def inline_asm(self, op, a):  # noqa: ANN001, ANN201
        """ld/st.global/shared (scalars and vectors, optional ``@$k`` guard) and mov."""
        cons = op.properties["constraints"].data.split(",")
        outs = [c[1:] for c in cons if c.startswith("=")]
        ins = a
        vals: list[np.ndarray] = [np.zeros(self.threads, _REG[c]) for c in outs]

        def operand(k: int) -> np.ndarray:
            return vals[k] if k < len(outs) else ins[k - len(outs)]

        for line in op.properties["asm_string"].data.split("\n"):
            m = re.fullmatch(r"\s*(?:@\$(\d+)\s+)?([\w.]+)\s+(.*);\s*", line)
            assert m, line
            guard, opcode, rest = m.groups()
            active = np.ones(self.threads, bool) if guard is None else operand(int(guard)) != 0
            parts = opcode.split(".")
            regs = [int(x) for x in re.findall(r"\$(\d+)", rest)]
            if parts[0] == "mov":
                vals[regs[0]] = np.where(active, operand(regs[1]), vals[regs[0]]).astype(vals[regs[0]].dtype)
                continue
            if parts[0] == "redux":  # redux.sync.<op>.<type> $d, $s, -1 (the whole warp)
                x = operand(regs[1]).astype(np.uint32)
                x = (x.view(np.int32) if parts[3] == "s32" else x).reshape(-1, 32)
                fn = {"add": np.add, "min": np.minimum, "max": np.maximum, "and": np.bitwise_and,
                      "or": np.bitwise_or, "xor": np.bitwise_xor}[parts[2]]  # fmt: skip
                vals[regs[0]] = np.repeat(fn.reduce(x, axis=1), 32).astype(x.dtype).view(np.uint32)
                continue
            space = parts[1]
            vec = int(parts[2][1:]) if parts[2].startswith("v") else 1
            nbytes = int(parts[-1][1:]) // 8
            if parts[0] == "ld":
                *dst, addr = regs
                for j, d in enumerate(dst):
                    got = self.read(space, operand(addr).astype(np.uint64) + j * nbytes, nbytes, active)
                    vals[d] = np.where(active, got.astype(vals[d].dtype), vals[d])
            else:
                addr, *src = regs
                for j, s in enumerate(src):
                    self.write(space, operand(addr).astype(np.uint64) + j * nbytes, nbytes, operand(s), active)
            assert len(regs) == vec + 1, line
        if not outs:
            return None
        return vals[0] if len(outs) == 1 else tuple(vals)

    def _memory(self, space: str, addr: int) -> tuple[np.ndarray, int]:
        if space == "shared":
            return self.shared, addr
        return self.buffers[(addr >> _BUFFER_SHIFT) - 1], addr & ((1 << _BUFFER_SHIFT) - 1)

    def read(self, space: str, addr: np.ndarray, nbytes: int, active: np.ndarray) -> np.ndarray:
        out = np.zeros(self.threads, np.uint64)
        for t in np.nonzero(active)[0]:
            mem, off = self._memory(space, int(addr[t]))
            assert off % nbytes == 0 and off + nbytes <= mem.size, (space, off)
            out[t] = int.from_bytes(mem[off : off + nbytes].tobytes(), "little")
        return out

    def write(self, space: str, addr: np.ndarray, nbytes: int, value: np.ndarray, active: np.ndarray) -> None:
        for t in np.nonzero(active)[0]:
            mem, off = self._memory(space, int(addr[t]))
            assert off % nbytes == 0 and off + nbytes <= mem.size, (space, off)
            v = int(value[t]) & ((1 << (8 * nbytes)) - 1)
            mem[off : off + nbytes] = np.frombuffer(v.to_bytes(nbytes, "little"), np.uint8)


# ----------------------------------------------------------------------------------------
# cases
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """A reduction of a [shape] tensor in ``layout`` along ``axis``, with the instruction
    counts worked out by hand from the layout (f32 sum): shuffles, st.shared, ld.shared,
    barriers and scratch bytes."""

    name: str
    shape: tuple[int, ...]
    layout: str
    axis: int
    warps: int
    counts: tuple[int, int, int, int, int]


CASES = [
    # one row per thread, the 8 columns in its registers
    Case("thread", (128, 8), _blocked([1, 8], [32, 1], [4, 1], [1, 0]), 1, 4, (0, 0, 0, 0, 0)),
    # 8 lanes along the row: 3 butterflies
    Case("lanes", (16, 32), _blocked([1, 4], [4, 8], [4, 1], [1, 0]), 1, 4, (3, 0, 0, 0, 0)),
    # 4 row groups x 4 lane bits; 4 warps along the row: 4 stores, 4 loads + 2 x 4 butterflies, 4 warps x 8 rows x 4 B
    Case("warps_axis1", (8, 128), _blocked([1, 2], [2, 16], [1, 4], [1, 0]), 1, 4, (24, 4, 4, 1, 128)),
    # 2 column groups x 4 lane bits; 8 warps along the column
    Case("warps_axis0", (256, 4), _blocked([2, 1], [16, 2], [8, 1], [0, 1]), 0, 8, (14, 2, 2, 1, 128)),
    # the tensor is smaller than the layout's tile: lane bit 4 and both warp bits hold copies
    Case("broadcast_axis0", (2, 8), _blocked([1, 1], [4, 8], [2, 2], [1, 0]), 0, 4, (1, 0, 0, 0, 0)),
    Case("broadcast_axis1", (2, 8), _blocked([1, 1], [4, 8], [2, 2], [1, 0]), 1, 4, (3, 0, 0, 0, 0)),
    # one warp, 8 column groups of 4 registers, 3 lane bits
    Case("one_warp", (32, 32), _blocked([2, 2], [8, 4], [1, 1], [1, 0]), 0, 1, (24, 0, 0, 0, 0)),
    Case("two_warps", (64, 16), _blocked([1, 4], [8, 4], [2, 1], [1, 0]), 0, 2, (16, 4, 4, 1, 128)),
    # warps along both dims: only warp bit 0 (axis 1) or bit 1 (axis 0) goes through shared memory
    Case("mixed_axis1", (64, 64), _blocked([1, 4], [8, 4], [2, 2], [1, 0]), 1, 4, (12, 4, 4, 1, 512)),
    Case("mixed_axis0", (64, 64), _blocked([1, 4], [8, 4], [2, 2], [1, 0]), 0, 4, (32, 8, 8, 1, 512)),
    # rank 1 to a scalar
    Case("scalar", (1024,), _blocked([4], [32], [4], [0]), 0, 4, (7, 1, 1, 1, 16)),
    # 64 elements on 128 threads: warp bit 1 holds copies
    Case("scalar_broadcast", (64,), _blocked([1], [32], [4], [0]), 0, 4, (6, 1, 1, 1, 8)),
    # linear layouts: lanes and warps in a scrambled order
    Case(
        "linear_axis1",
        (16, 64),
        "#ttg.linear<{register = [[0, 1], [4, 0]], lane = [[0, 8], [1, 0], [0, 2], [0, 32], [0, 4]], "
        "warp = [[2, 0], [0, 16], [8, 0]], block = []}>",
        1,
        8,
        # 2 row groups x 4 lane bits; warp bit 1 along the row: 2 warps x 16 rows x 4 B
        (10, 2, 2, 1, 128),
    ),
    Case(
        "linear_axis0",
        (16, 64),
        "#ttg.linear<{register = [[0, 1], [4, 0]], lane = [[0, 8], [1, 0], [0, 2], [0, 32], [0, 4]], "
        "warp = [[2, 0], [0, 16], [8, 0]], block = []}>",
        0,
        8,
        # 2 column groups x 1 lane bit; warp bits 0 and 2 along the column: 4 warps x 64 x 4 B
        (4, 2, 4, 1, 1024),
    ),
]

_DTYPE = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "i8": np.int8, "i64": np.int64}


def _data(rng: np.random.Generator, shape: Sequence[int], dtype: str, kind: str) -> np.ndarray:
    """Inputs whose float sums are exact in any order (small integers), ties for argmax,
    and full-range integers for integer sums (which wrap)."""
    t = _DTYPE[dtype]
    if dtype.startswith("f"):
        hi = 3 if kind == "sum" else 5
        return rng.integers(-hi + 1, hi, size=shape).astype(t)
    info = np.iinfo(t)
    if kind in ("argmax", "recur"):
        return rng.integers(-4, 5, size=shape).astype(t)
    return rng.integers(info.min, info.max, size=shape, dtype=t, endpoint=True)


def _expected(x: np.ndarray, axis: int, kind: str) -> tuple[np.ndarray, np.ndarray | None]:
    if kind == "sum":
        if x.dtype.kind == "f":
            return x.astype(np.float64).sum(axis=axis).astype(x.dtype), None
        u = x.view(_UINT[x.dtype.itemsize * 8])
        return u.sum(axis=axis, dtype=np.uint64).astype(u.dtype).view(x.dtype), None
    if kind == "max":
        return x.max(axis=axis), None
    return x.max(axis=axis), x.argmax(axis=axis).astype(np.int32)  # argmax: the first of equal maxima


def _lowered(case: Case, dtype: str = "f32", kind: str = "sum") -> ModuleOp:
    module = parse_module(reduce_kernel(case.shape, case.layout, case.axis, dtype, kind, case.warps))
    lower_module(module)
    return module


def _run_lockstep(case: Case, dtype: str, kind: str, seed: int = 0) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    x = _data(rng, case.shape, dtype, kind)
    n = 1 if len(case.shape) == 1 else case.shape[1 - case.axis]
    y = np.zeros(n, _DTYPE[dtype])
    z = np.full(n, -1, np.int32)
    module = _lowered(case, dtype, kind)
    sim = Lockstep(module)
    sim.run([x.copy(), y, z])
    return x, y, z


def _counts(module: ModuleOp) -> tuple[int, int, int, int, int]:
    c = Counter()
    for op in module.walk():
        if op.name == "llvm.call_intrinsic":
            name = op.properties["intrin"].data
            c["shfl"] += name.startswith("llvm.nvvm.shfl.sync.bfly")
            c["barrier"] += name == "llvm.nvvm.barrier0"
        elif op.name == "llvm.inline_asm":
            text = op.properties["asm_string"].data
            c["st"] += text.count("st.shared")
            c["ld"] += text.count("ld.shared")
    return (c["shfl"], c["st"], c["ld"], c["barrier"], module.attributes["ttg.shared"].value.data)  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------------------
# the lowered IR: counts
# ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_instruction_counts(case: Case) -> None:
    """log2(lanes along the axis) butterflies per register group; with W warps along the
    axis, one store per group, one barrier, scratch for W x (result elements), and per group
    W / 2^u loads and u more butterflies, u = min(log2 W, lane bits along the axis or copies)."""
    assert _counts(_lowered(case)) == case.counts


@pytest.mark.parametrize(
    ("dtype", "kind", "counts", "store"),
    [
        ("f16", "sum", (24, 4, 4, 1, 64), "st.shared.b16"),
        ("i8", "sum", (24, 4, 4, 1, 32), "st.shared.b8"),
        ("i64", "sum", (48, 4, 4, 1, 256), "st.shared.b64"),  # two 32-bit shuffles per value
        # two operands: each is shuffled, stored and loaded; two scratch areas
        ("f32", "argmax", (48, 8, 8, 1, 256), "st.shared.b32"),
    ],
)
def test_counts_by_element_type(dtype: str, kind: str, counts: tuple[int, ...], store: str) -> None:
    case = next(c for c in CASES if c.name == "warps_axis1")
    module = _lowered(case, dtype, kind)
    assert _counts(module) == counts
    stores = [op.properties["asm_string"].data for op in module.walk() if op.name == "llvm.inline_asm"]
    assert sum(store in s for s in stores) == counts[1]


def test_shared_store_is_guarded_to_one_lane_per_row() -> None:
    """Only lanes whose axis lane bits are zero store their partial (lane & 0b1111 == 0)."""
    case = next(c for c in CASES if c.name == "warps_axis1")
    module = _lowered(case)
    stores = [op for op in module.walk() if op.name == "llvm.inline_asm" and "st.shared" in op.properties["asm_string"].data]
    assert all(op.properties["asm_string"].data.startswith("@$2 st.shared.b32 [$0], $1;") for op in stores)
    masks = {
        op.rhs.owner.value.value.data
        for op in module.walk()
        if op.name == "llvm.and" and isinstance(op.rhs.owner, llvm.ConstantOp)
    }
    assert 0b1111 in masks


def test_barrier_sits_between_stores_and_loads() -> None:
    case = next(c for c in CASES if c.name == "mixed_axis0")
    module = _lowered(case)
    seq = []
    for op in module.walk():
        if op.name == "llvm.inline_asm" and ".shared" in op.properties["asm_string"].data:
            seq.append("st" if "st.shared" in op.properties["asm_string"].data else "ld")
        elif op.name == "llvm.call_intrinsic" and op.properties["intrin"].data == "llvm.nvvm.barrier0":
            seq.append("bar")
    assert seq == ["st"] * 8 + ["bar"] + ["ld"] * 8


def test_result_layout_not_the_slice_is_refused() -> None:
    """A result layout that is not the operand's slice (only the verifier stops it in text)."""
    case = next(c for c in CASES if c.name == "lanes")
    head, tail = reduce_kernel(case.shape, case.layout, case.axis, "f32", "sum", case.warps).split('"tt.reduce"')
    other = _blocked([1, 4], [8, 4], [4, 1], [1, 0])
    module = parse_module(f"#other = {other}\n{head}\"tt.reduce\"{tail.replace('parent = #src', 'parent = #other')}", verify=False)
    with pytest.raises(LoweringError, match="not the operand's slice"):
        lower_module(module)


def test_second_scratch_user_waits_for_the_first() -> None:
    """softmax: two cross-warp reductions; the second one's stores wait behind a barrier
    for the first one's loads."""
    module = parse_module((ROOT / "examples" / "triton" / "softmax.ttgir").read_text())
    lower_module(module)
    # [1024] in 4 warps x 32 lanes x 8 registers: 5 + 2 butterflies, 1 store, 1 load per reduce
    assert _counts(module) == (14, 2, 2, 3, 16)


def test_layer_norm_lowers() -> None:
    module = parse_module((ROOT / "examples" / "triton" / "layer_norm.ttgir").read_text())
    lower_module(module)
    # two reductions of [2048] over 8 warps: 5 + 3 butterflies, 1 store and 1 load each
    assert _counts(module) == (16, 2, 2, 3, 32)


# ----------------------------------------------------------------------------------------
# the lowered kernels run (all threads in lockstep) against numpy
# ----------------------------------------------------------------------------------------

_KINDS = [("f32", "sum"), ("f16", "sum"), ("i32", "sum"), ("i8", "sum"), ("i64", "sum"),
          ("f32", "max"), ("f32", "argmax"), ("i32", "argmax")]  # fmt: skip


@pytest.mark.parametrize(("dtype", "kind"), _KINDS, ids=lambda v: v)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_reduce_runs(case: Case, dtype: str, kind: str) -> None:
    x, y, z = _run_lockstep(case, dtype, kind)
    want, want_index = _expected(x, case.axis, kind)
    np.testing.assert_array_equal(y, np.atleast_1d(want))
    if want_index is not None:
        np.testing.assert_array_equal(z, np.atleast_1d(want_index))


# ----------------------------------------------------------------------------------------
# the plan, for every thread: each result element combines its row exactly once
# ----------------------------------------------------------------------------------------


def _plan_result(layout: LinearLayout, axis: int) -> dict[tuple[int, int, tuple[int, ...]], Counter]:
    """Follow the plan's three stages with multisets of element coordinates in place of
    values: (lane, warp, off-axis coordinates) -> the elements combined there."""
    plan = reduce_plan(layout, axis)
    names = layout.out_dim_names
    lanes, warps = layout.in_dim_size("lane"), layout.in_dim_size("warp")

    def element(r: int, lane: int, warp: int) -> tuple[int, ...]:
        v = layout.apply({"register": r, "lane": lane, "warp": warp, "block": 0})
        return tuple(v[n] for n in names)

    def off_axis(c: tuple[int, ...]) -> tuple[int, ...]:
        return c[:axis] + c[axis + 1 :]

    acc: dict[tuple[int, int, tuple[int, ...]], Counter] = {}
    for lane in range(lanes):
        for warp in range(warps):
            for _, regs in plan.groups:
                elems = [element(r, lane, warp) for r in regs]
                (key,) = {off_axis(e) for e in elems}
                acc[(lane, warp, key)] = Counter(elems)
    for i in plan.lane_bits:  # butterflies: both partners add the other's multiset
        acc = {(lane, w, k): c + acc[(lane ^ (1 << i), w, k)] for (lane, w, k), c in acc.items()}
    if plan.warp_bits:
        along = sum(1 << j for j in plan.warp_bits)
        writer = sum(1 << i for i in plan.lane_bits) | plan.copy_lanes
        final = {}
        for (lane, warp, key) in acc:
            total: Counter = Counter()
            for w in range(warps):
                if w & ~along == warp & ~along:
                    total += acc[(lane & ~writer, w, key)]
            final[(lane, warp, key)] = total
        acc = final
    return acc


def _check_plan(layout: LinearLayout, axis: int) -> None:
    table = layout.apply_all()
    rows: dict[tuple[int, ...], set] = {}
    for c in {tuple(int(v) for v in row) for row in table}:
        rows.setdefault(c[:axis] + c[axis + 1 :], set()).add(c)
    result = _plan_result(layout, axis)
    held = {k for (_, _, k) in result}
    assert held == set(rows)
    for (lane, warp, key), combined in result.items():
        assert set(combined) == rows[key], (lane, warp, key)
        assert set(combined.values()) == {1}, f"an element of row {key} is combined twice"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_plan_combines_each_element_once(case: Case) -> None:
    module = parse_module(reduce_kernel(case.shape, case.layout, case.axis, "f32", "sum", case.warps))
    (op,) = [op for op in module.walk() if op.name == "tt.reduce"]
    _check_plan(linear_layout_of(op.operands[0].type), case.axis)


def _random_layout(
    rng: np.random.Generator, shape_log2: Sequence[int], warps_log2: int, mix: bool = True
) -> LinearLayout:
    """Unit bases of a 2-d tensor shuffled over registers, 5 lane bits and the warp bits
    (zero bases where the tensor is too small); some register bases are sums of two."""
    units = [(1 << k, 0) for k in range(shape_log2[0])] + [(0, 1 << k) for k in range(shape_log2[1])]
    units = [units[i] for i in rng.permutation(len(units))]
    slots = 5 + warps_log2
    threads = units[:slots] + [(0, 0)] * max(0, slots - len(units))
    threads = [threads[i] for i in rng.permutation(slots)]
    regs = units[slots:]
    for i in range(1, len(regs)):
        if mix and rng.random() < 0.3:  # a register basis that moves along both dims
            j = int(rng.integers(0, i))
            regs[i] = (regs[i][0] ^ regs[j][0], regs[i][1] ^ regs[j][1])
    if mix and rng.random() < 0.3:
        regs.insert(int(rng.integers(0, len(regs) + 1)), (0, 0))  # a broadcast register
    return LinearLayout.from_bases(
        {"register": [list(b) for b in regs], "lane": [list(b) for b in threads[:5]],
         "warp": [list(b) for b in threads[5:]], "block": []},  # fmt: skip
        {"dim0": 1 << shape_log2[0], "dim1": 1 << shape_log2[1]},
    )


@pytest.mark.parametrize("seed", range(40))
def test_plan_on_random_layouts(seed: int) -> None:
    rng = np.random.default_rng(seed)
    shape_log2 = (int(rng.integers(0, 6)), int(rng.integers(0, 6)))
    layout = _random_layout(rng, shape_log2, int(rng.integers(0, 4)))
    for axis in (0, 1):
        _check_plan(layout, axis)


def test_plan_refuses_a_lane_moving_along_two_dims() -> None:
    layout = LinearLayout.from_bases(
        {"register": [[0, 1]], "lane": [[1, 1], [2, 0], [4, 0], [8, 0], [16, 0]], "warp": [], "block": []},
        {"dim0": 32, "dim1": 2},
    )
    with pytest.raises(ValueError, match="lane basis 0 moves along the axis and another dim"):
        reduce_plan(layout, 0)


def test_plan_refuses_an_element_held_twice() -> None:
    layout = LinearLayout.from_bases(
        {"register": [[1]], "lane": [[1], [2], [4], [8], [16]], "warp": [], "block": []}, {"dim0": 32}
    )
    with pytest.raises(ValueError, match="holds an element in two places"):
        reduce_plan(layout, 0)


def _linear_text(layout: LinearLayout) -> str:
    def bases(dim: str) -> str:
        n = layout.in_dim_size_log2(dim)
        return "[" + ", ".join(
            "[" + ", ".join(str(layout.basis(dim, i, d)) for d in layout.out_dim_names) + "]" for i in range(n)
        ) + "]"

    return f"#ttg.linear<{{register = {bases('register')}, lane = {bases('lane')}, warp = {bases('warp')}, block = []}}>"


@pytest.mark.parametrize("seed", range(12))
def test_random_linear_layouts_run(seed: int) -> None:
    """Lanes and warps in random order over the tensor (broadcast where it is small)."""
    rng = np.random.default_rng(100 + seed)
    shape_log2 = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
    warps_log2 = int(rng.integers(0, 4))
    layout = _random_layout(rng, shape_log2, warps_log2, mix=False)
    shape = (1 << shape_log2[0], 1 << shape_log2[1])
    for axis in (0, 1):
        for dtype, kind in (("f32", "sum"), ("i64", "argmax")):
            case = Case(f"random{seed}", shape, _linear_text(layout), axis, 1 << warps_log2, (0, 0, 0, 0, 0))
            x, y, z = _run_lockstep(case, dtype, kind, seed)
            want, want_index = _expected(x, axis, kind)
            np.testing.assert_array_equal(y, want)
            if want_index is not None:
                np.testing.assert_array_equal(z, want_index)


# ----------------------------------------------------------------------------------------
# tt.scan
# ----------------------------------------------------------------------------------------


def _scan_expected(x: np.ndarray, axis: int, kind: str, reverse: bool) -> tuple[np.ndarray, np.ndarray]:
    """The scan by its definition: acc = x[first]; acc = combine(acc, x[next]) along the
    axis (from the end when ``reverse``)."""
    xs = np.moveaxis(x, axis, -1)
    n = xs.shape[-1]
    idx = np.broadcast_to(np.arange(n, dtype=np.int32), xs.shape)
    unsigned = x.dtype.kind == "i"
    if unsigned:  # integer sums wrap
        xs = xs.view(_UINT[x.dtype.itemsize * 8])
    out_v, out_i = np.empty_like(xs), np.empty(xs.shape, np.int32)
    acc_v = acc_i = None
    for t in range(n - 1, -1, -1) if reverse else range(n):
        v, i = xs[..., t], idx[..., t]
        if acc_v is None:
            acc_v, acc_i = v.copy(), i.copy()
        elif kind == "sum":
            acc_v = (acc_v + v).astype(xs.dtype)
        elif kind == "max":
            acc_v = np.maximum(acc_v.view(x.dtype), v.view(x.dtype)).view(xs.dtype)
        elif kind == "recur":
            acc_v, acc_i = (acc_v * v).astype(xs.dtype), (acc_i.astype(np.uint32) * v.astype(np.uint32) + i).astype(np.int32)
        else:
            a, b = acc_v.view(x.dtype), v.view(x.dtype)
            p = (a > b) | ((a == b) & (acc_i < i))
            acc_v, acc_i = np.where(p, acc_v, v), np.where(p, acc_i, i)
        out_v[..., t], out_i[..., t] = acc_v, acc_i
    return np.moveaxis(out_v.view(x.dtype), -1, axis), np.moveaxis(out_i, -1, axis)


def _run_scan(case: Case, dtype: str, kind: str, reverse: bool, seed: int = 0) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    x = _data(rng, case.shape, dtype, kind)
    y = np.zeros(case.shape, _DTYPE[dtype])
    z = np.full(case.shape, -1, np.int32)
    module = parse_module(reduce_kernel(case.shape, case.layout, case.axis, dtype, kind, case.warps, True, reverse))
    lower_module(module)
    Lockstep(module).run([x.copy(), y, z])
    return x, y, z


_SCAN_KINDS = [("f32", "sum"), ("i64", "sum"), ("f16", "max"), ("f32", "argmax"), ("i32", "recur")]


@pytest.mark.parametrize("reverse", [False, True], ids=["forward", "reverse"])
@pytest.mark.parametrize(("dtype", "kind"), _SCAN_KINDS, ids=lambda v: v)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_scan_runs(case: Case, dtype: str, kind: str, reverse: bool) -> None:
    x, y, z = _run_scan(case, dtype, kind, reverse)
    want, want_index = _scan_expected(x, case.axis, kind, reverse)
    np.testing.assert_array_equal(y, want)
    if kind in ("argmax", "recur"):
        np.testing.assert_array_equal(z, want_index)


@pytest.mark.parametrize("seed", range(12))
def test_scan_random_linear_layouts(seed: int) -> None:
    """Lanes and warps in random order along the axis (warp bits between lane bits, register
    bits between warp bits): a linear recurrence (order matters), forward and reverse."""
    rng = np.random.default_rng(200 + seed)
    shape_log2 = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
    warps_log2 = int(rng.integers(0, 4))
    layout = _random_layout(rng, shape_log2, warps_log2, mix=False)
    shape = (1 << shape_log2[0], 1 << shape_log2[1])
    for axis in (0, 1):
        case = Case(f"random{seed}", shape, _linear_text(layout), axis, 1 << warps_log2, (0, 0, 0, 0, 0))
        for reverse in (False, True):
            x, y, z = _run_scan(case, "i32", "recur", reverse, seed)
            want, want_index = _scan_expected(x, axis, "recur", reverse)
            np.testing.assert_array_equal(y, want)
            np.testing.assert_array_equal(z, want_index)


@pytest.mark.parametrize(
    ("name", "counts"),
    [
        # axis bits: 2 register, 5 lane, 2 warp, then the register repetition (a second
        # class): 2 shuffles per lane bit, 2 stores, 4 rows x 2 classes loads, 4 x 2 x 4 B
        ("scalar", (10, 2, 8, 1, 32)),
        # axis bits: 2 register, 3 lane; one class
        ("lanes", (3, 0, 0, 0, 0)),
        # 4 row groups; 1 register bit, 4 lane bits, 2 warp bits (the last: rows 0..2 are loaded)
        ("warps_axis1", (16, 4, 12, 1, 128)),
    ],
)
def test_scan_counts(name: str, counts: tuple[int, ...]) -> None:
    case = next(c for c in CASES if c.name == name)
    module = parse_module(reduce_kernel(case.shape, case.layout, case.axis, "f32", "sum", case.warps, True))
    lower_module(module)
    assert _counts(module) == counts


def test_scan_plan_refuses_a_register_moving_along_two_dims() -> None:
    layout = LinearLayout.from_bases(
        {"register": [[1, 1]], "lane": [[2, 0], [4, 0], [8, 0], [16, 0], [0, 0]], "warp": [], "block": []},
        {"dim0": 32, "dim1": 2},
    )
    reduce_plan(layout, 0)  # a reduction takes it: registers are grouped by coordinates
    with pytest.raises(ValueError, match="register basis 0 is not a power of two along the axis only"):
        scan_plan(layout, 0)


# ----------------------------------------------------------------------------------------
# through the PTX emitter, ptxas and the PTX simulator
# ----------------------------------------------------------------------------------------


def _ptx(module: ModuleOp, target: str) -> str:
    emit = pytest.importorskip("ltc.lowering.emit.ptx", reason="the PTX emitter is not there yet")
    return emit.emit_ptx(module, target)


def _ptxas(ptx: str, arch: str, tmp_path: Path) -> None:
    if shutil.which("ptxas") is None:
        return
    src = tmp_path / f"k_{arch}.ptx"
    src.write_text(ptx)
    proc = subprocess.run(["ptxas", f"-arch={arch}", str(src), "-o", str(tmp_path / "k.cubin")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


_PTX_RUNS = [
    *((c, "f32", "sum", False) for c in CASES),
    *((c, "f32", "argmax", False) for c in CASES),
    *((c, "i32", "recur", True) for c in CASES),
    # the element types whose moves differ: narrow (extended for shuffles) and 64-bit (two shuffles)
    *((c, t, k, scan) for c in CASES if c.name in ("warps_axis1", "linear_axis0")
      for t, k, scan in [("f16", "sum", False), ("i8", "sum", False), ("i64", "sum", False), ("f16", "max", True), ("i64", "sum", True)]),
]  # fmt: skip


@pytest.mark.parametrize(("case", "dtype", "kind", "scan"), _PTX_RUNS, ids=lambda v: v.name if isinstance(v, Case) else str(v))
def test_ptx_runs(case: Case, dtype: str, kind: str, scan: bool, tmp_path: Path) -> None:
    """The emitted PTX passes ptxas (sm_90 and sm_80) and computes what numpy does in the
    PTX simulator; the simulator sees the shuffles and barriers the lowered IR has."""
    module = parse_module(reduce_kernel(case.shape, case.layout, case.axis, dtype, kind, case.warps, scan))
    lower_module(module)
    ptx = _ptx(module, "sm_90")
    _ptxas(ptx, "sm_90", tmp_path)
    _ptxas(_ptx(module, "sm_80"), "sm_80", tmp_path)
    sim = pytest.importorskip("ltc.lowering.ptxsim.run", reason="the PTX simulator is not there yet")
    rng = np.random.default_rng(7)
    x = _data(rng, case.shape, dtype, kind)
    out_shape = case.shape if scan else (1 if len(case.shape) == 1 else case.shape[1 - case.axis],)
    y = np.zeros(out_shape, _DTYPE[dtype])
    z = np.full(out_shape, -1, np.int32)
    stats = sim.simulate_ptx(ptx, 1, [x.copy(), y, z])
    if scan:
        want, want_index = _scan_expected(x, case.axis, kind, False)
    else:
        want, want_index = _expected(x, case.axis, kind)
    np.testing.assert_array_equal(y, np.reshape(want, out_shape))
    if kind in ("argmax", "recur"):
        np.testing.assert_array_equal(z, np.reshape(want_index, out_shape))
    shfl, _, _, barriers, _ = _counts(module)
    assert stats.barriers == barriers
    assert stats.shuffles == shfl * case.warps
