"""``tritongpu-coalesce`` (``ltc.passes.coalesce``).

Differential against Triton 3.9: the input is Triton's own
``convert-triton-to-tritongpu`` output (so both passes see identical IR), then Triton's
``add_coalesce`` and ours run on it, and the layout of the pointer operand of every
memory op, in program order, must be the same ``#ttg.blocked`` (all fields). Cases:
every ``examples/triton`` kernel (as generated, and with ``tt.divisibility = 16`` on its
pointer and integer arguments, as Triton's specialization adds) for 1/2/4/8 warps on
``cuda:80`` and ``cuda:90`` and with 2 and 4 CTAs, hand-written kernels (atomics,
loops, ``scf.if`` / ``scf.while``, calls, rank 3) and seeded random kernels whose
offsets run through every axis-info transfer function.

Without Triton: exact layouts worked out by hand and the rewrite's structure.
"""

from __future__ import annotations

import os
import pathlib
import random
import re
import tempfile

import pytest

import ltc.tools.pipeline as P
from ltc.encodings.blocked import BlockedEncoding
from ltc.passes.coalesce import CoalescePass, memory_pointer
from ltc.passes.layout_ir import layout_of

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples" / "triton"
MODULE_ATTRS = (
    '{{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {nw} : i32, ttg.target = "{target}", '
    '"ttg.threads-per-warp" = 32 : i32}}'
)


def _hinted(text: str) -> str:
    """``tt.divisibility = 16`` on every pointer and i32 argument."""
    return re.sub(r"(%\w+: (?:!tt\.ptr<\w+>|i32))( loc|[,)])", r"\1 {tt.divisibility = 16 : i32}\2", text)


def _pointer_layouts(module) -> list[tuple[str, BlockedEncoding | None]]:
    return [(op.name, layout_of(memory_pointer(op))) for op in module.walk() if memory_pointer(op) is not None]


def _ours(ttgir: str) -> list[tuple[str, BlockedEncoding | None]]:
    module = P.parse_module(ttgir)
    P.run_pipeline(module, "tritongpu-coalesce")
    return _pointer_layouts(module)


# ---------------------------------------------------------------------------------------
# Triton
# ---------------------------------------------------------------------------------------


def _triton(text: str, convert: tuple[str, int, int] | None, coalesce: bool) -> str:
    """Run Triton's convert-triton-to-tritongpu (target, warps, CTAs) and/or coalesce."""
    from triton._C.libtriton import ir, passes

    ctx = ir.context()
    ir.load_dialects(ctx)
    fd, path = tempfile.mkstemp(suffix=".mlir")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        mod = ir.parse_mlir_module(path, ctx)
    finally:
        os.unlink(path)
    mod.context = ctx
    pm = ir.pass_manager(ctx)
    if convert is not None:
        target, num_warps, num_ctas = convert
        passes.ttir.add_convert_to_ttgpuir(pm, target, num_warps, 32, num_ctas)
    if coalesce:
        passes.ttgpuir.add_coalesce(pm)
    pm.run(mod, "coalesce-test")
    return str(mod)


@pytest.fixture(scope="module")
def triton_coalesce():
    """``ttir, target, warps, ctas -> (Triton's ttgir input, Triton's coalesced layouts)``,
    each case computed once per module."""
    pytest.importorskip("triton")
    cache: dict[tuple[str, str, int, int], tuple[str, list]] = {}

    def get(ttir: str, target: str, num_warps: int, num_ctas: int = 1):
        key = (ttir, target, num_warps, num_ctas)
        if key not in cache:
            ttgir = _triton(ttir, (target, num_warps, num_ctas), coalesce=False)
            ref = _pointer_layouts(P.parse_module(_triton(ttgir, None, coalesce=True)))
            cache[key] = (ttgir, ref)
        return cache[key]

    return get


def _check(get, ttir: str, target: str, num_warps: int, num_ctas: int = 1) -> list:
    ttgir, ref = get(ttir, target, num_warps, num_ctas)
    ours = _ours(ttgir)
    assert [name for name, _ in ours] == [name for name, _ in ref]
    for (name, want), (_, got) in zip(ref, ours):
        assert got == want, f"{name}: Triton {want.to_text()} ltc {got.to_text() if got else None}"
    return ref


EXAMPLE_FILES = sorted(p.name for p in EXAMPLES.glob("*.ttir"))


@pytest.mark.parametrize("name", EXAMPLE_FILES)
@pytest.mark.parametrize("hinted", [False, True], ids=["plain", "div16"])
@pytest.mark.parametrize("target", ["cuda:80", "cuda:90"])
def test_examples_match_triton(triton_coalesce, name, hinted, target):
    text = (EXAMPLES / name).read_text()
    text = _hinted(text) if hinted else text
    refs = [_check(triton_coalesce, text, target, nw) for nw in (1, 2, 4, 8)]
    if not refs[0]:
        pytest.skip(f"{name} has no memory access through a tensor of pointers")


@pytest.mark.parametrize("name", ["vector_add.ttir", "softmax.ttir", "attention_fwd.ttir", "matmul.ttir"])
@pytest.mark.parametrize("num_ctas", [2, 4])
def test_multi_cta_matches_triton(triton_coalesce, name, num_ctas):
    ref = _check(triton_coalesce, _hinted((EXAMPLES / name).read_text()), "cuda:90", 4, num_ctas)
    assert all(enc is not None and enc.cga.num_ctas == num_ctas for _, enc in ref)


def test_examples_have_wide_accesses(triton_coalesce):
    """The differential above is not vacuous: with divisibility hints several kernels
    get vectors wider than one element."""
    widths = set()
    for name in ("vector_add.ttir", "softmax.ttir", "layer_norm.ttir", "attention_fwd.ttir"):
        _, ref = triton_coalesce(_hinted((EXAMPLES / name).read_text()), "cuda:90", 4)
        widths |= {max(enc.size_per_thread) for _, enc in ref}
    assert {4, 8} <= widths


# ---------------------------------------------------------------------------------------
# hand-written kernels against Triton
# ---------------------------------------------------------------------------------------

ATOMICS = """module {
  tt.func public @k(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<bf16> {tt.divisibility = 16 : i32},
                    %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %d: !tt.ptr<i32> {tt.divisibility = 16 : i32},
                    %e: !tt.ptr<f32>) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
    %pa2 = tt.addptr %pa, %r : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
    %x = arith.sitofp %r : tensor<1024xi32> to tensor<1024xf16>
    %v1 = tt.atomic_rmw fadd, acq_rel, gpu, %pa2, %x : (tensor<1024x!tt.ptr<f16>>, tensor<1024xf16>) -> tensor<1024xf16>
    %pb = tt.splat %b : !tt.ptr<bf16> -> tensor<1024x!tt.ptr<bf16>>
    %pb2 = tt.addptr %pb, %r : tensor<1024x!tt.ptr<bf16>>, tensor<1024xi32>
    %y = arith.sitofp %r : tensor<1024xi32> to tensor<1024xbf16>
    %v2 = tt.atomic_rmw fadd, acq_rel, gpu, %pb2, %y : (tensor<1024x!tt.ptr<bf16>>, tensor<1024xbf16>) -> tensor<1024xbf16>
    %pc = tt.splat %c : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %pc2 = tt.addptr %pc, %r : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %z = arith.sitofp %r : tensor<1024xi32> to tensor<1024xf32>
    %v3 = tt.atomic_rmw fadd, acq_rel, gpu, %pc2, %z : (tensor<1024x!tt.ptr<f32>>, tensor<1024xf32>) -> tensor<1024xf32>
    %v4 = tt.atomic_rmw exch, acq_rel, gpu, %pc2, %z : (tensor<1024x!tt.ptr<f32>>, tensor<1024xf32>) -> tensor<1024xf32>
    %pd = tt.splat %d : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>>
    %pd2 = tt.addptr %pd, %r : tensor<1024x!tt.ptr<i32>>, tensor<1024xi32>
    %v5 = tt.atomic_rmw add, acq_rel, gpu, %pd2, %r : (tensor<1024x!tt.ptr<i32>>, tensor<1024xi32>) -> tensor<1024xi32>
    %v6 = tt.atomic_cas acq_rel, gpu, %pd2, %r, %v5 : (tensor<1024x!tt.ptr<i32>>, tensor<1024xi32>, tensor<1024xi32>) -> tensor<1024xi32>
    %l = tt.load %pd2 : tensor<1024x!tt.ptr<i32>>
    %pe = tt.splat %e : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %pe2 = tt.addptr %pe, %r : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %pe2, %v3 : tensor<1024x!tt.ptr<f32>>
    %le = tt.load %pe2 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}
"""

CONTROL_FLOW = """module {
  tt.func public @k(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32},
                    %n: i32 {tt.divisibility = 16 : i32}, %m: i32) {
    %c0 = arith.constant 0 : i32
    %c8 = arith.constant 8 : i32
    %c64 = arith.constant 64 : i32
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>>
    %pa2 = tt.addptr %pa, %r : tensor<256x!tt.ptr<f16>>, tensor<256xi32>
    %pb = tt.splat %b : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>>
    %res:2 = scf.for %i = %c0 to %n step %c8 iter_args(%p = %pa2, %q = %r) -> (tensor<256x!tt.ptr<f16>>, tensor<256xi32>) : i32 {
      %x = tt.load %p : tensor<256x!tt.ptr<f16>>
      %is = tt.splat %i : i32 -> tensor<256xi32>
      %o = arith.addi %r, %is : tensor<256xi32>
      %pb2 = tt.addptr %pb, %o : tensor<256x!tt.ptr<f16>>, tensor<256xi32>
      tt.store %pb2, %x : tensor<256x!tt.ptr<f16>>
      %pb3 = tt.addptr %pb, %q : tensor<256x!tt.ptr<f16>>, tensor<256xi32>
      tt.store %pb3, %x : tensor<256x!tt.ptr<f16>>
      %st = tt.splat %c64 : i32 -> tensor<256xi32>
      %pn = tt.addptr %p, %st : tensor<256x!tt.ptr<f16>>, tensor<256xi32>
      %ms = tt.splat %m : i32 -> tensor<256xi32>
      %q2 = arith.addi %q, %ms : tensor<256xi32>
      scf.yield %pn, %q2 : tensor<256x!tt.ptr<f16>>, tensor<256xi32>
    }
    %y = tt.load %res#0 : tensor<256x!tt.ptr<f16>>
    %cond = arith.cmpi slt, %m, %n : i32
    %sel = scf.if %cond -> (tensor<256xi32>) {
      scf.yield %r : tensor<256xi32>
    } else {
      %c4 = arith.constant dense<4> : tensor<256xi32>
      %t = arith.addi %r, %c4 : tensor<256xi32>
      scf.yield %t : tensor<256xi32>
    }
    %pb4 = tt.addptr %pb, %sel : tensor<256x!tt.ptr<f16>>, tensor<256xi32>
    tt.store %pb4, %y : tensor<256x!tt.ptr<f16>>
    %true = arith.constant true
    %sel2 = scf.if %true -> (tensor<256xi32>) {
      scf.yield %r : tensor<256xi32>
    } else {
      %c3 = arith.constant dense<3> : tensor<256xi32>
      %t = arith.addi %r, %c3 : tensor<256xi32>
      scf.yield %t : tensor<256xi32>
    }
    %pb5 = tt.addptr %pb, %sel2 : tensor<256x!tt.ptr<f16>>, tensor<256xi32>
    tt.store %pb5, %y : tensor<256x!tt.ptr<f16>>
    %w = scf.while (%arg = %r) : (tensor<256xi32>) -> tensor<256xi32> {
      %cc = arith.cmpi slt, %m, %n : i32
      scf.condition(%cc) %arg : tensor<256xi32>
    } do {
    ^bb0(%arg2: tensor<256xi32>):
      %c16 = arith.constant dense<16> : tensor<256xi32>
      %t = arith.addi %arg2, %c16 : tensor<256xi32>
      scf.yield %t : tensor<256xi32>
    }
    %pb6 = tt.addptr %pb, %w : tensor<256x!tt.ptr<f16>>, tensor<256xi32>
    tt.store %pb6, %y : tensor<256x!tt.ptr<f16>>
    tt.return
  }
}
"""

CALLS = """module {
  tt.func private @callee(%p: !tt.ptr<f32>, %off: i32, %q: !tt.ptr<f32> {tt.divisibility = 4 : i32}) attributes {noinline = true} {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %s = tt.splat %off : i32 -> tensor<128xi32>
    %o = arith.addi %s, %r : tensor<128xi32>
    %pp = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %pp2 = tt.addptr %pp, %o : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %x = tt.load %pp2 : tensor<128x!tt.ptr<f32>>
    %qq = tt.splat %q : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %qq2 = tt.addptr %qq, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    tt.store %qq2, %x : tensor<128x!tt.ptr<f32>>
    tt.return
  }
  tt.func public @k(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %c8 = arith.constant 8 : i32
    %m = arith.muli %n, %c8 : i32
    tt.call @callee(%a, %m, %b) : (!tt.ptr<f32>, i32, !tt.ptr<f32>) -> ()
    tt.call @callee(%b, %n, %a) : (!tt.ptr<f32>, i32, !tt.ptr<f32>) -> ()
    tt.return
  }
}
"""

RANK3 = """module {
  tt.func public @k(%a: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %s0: i32 {tt.divisibility = 16 : i32}, %s1: i32) {
    %r4 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %r8 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %r64 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %a0 = tt.expand_dims %r4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %a1 = tt.expand_dims %a0 {axis = 2 : i32} : tensor<4x1xi32> -> tensor<4x1x1xi32>
    %b0 = tt.expand_dims %r8 {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
    %b1 = tt.expand_dims %b0 {axis = 2 : i32} : tensor<1x8xi32> -> tensor<1x8x1xi32>
    %c0 = tt.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %c1 = tt.expand_dims %c0 {axis = 0 : i32} : tensor<1x64xi32> -> tensor<1x1x64xi32>
    %ss0 = tt.splat %s0 : i32 -> tensor<4x1x1xi32>
    %ss1 = tt.splat %s1 : i32 -> tensor<1x8x1xi32>
    %m0 = arith.muli %a1, %ss0 : tensor<4x1x1xi32>
    %m1 = arith.muli %b1, %ss1 : tensor<1x8x1xi32>
    %x0 = tt.broadcast %m0 : tensor<4x1x1xi32> -> tensor<4x8x64xi32>
    %x1 = tt.broadcast %m1 : tensor<1x8x1xi32> -> tensor<4x8x64xi32>
    %x2 = tt.broadcast %c1 : tensor<1x1x64xi32> -> tensor<4x8x64xi32>
    %o0 = arith.addi %x0, %x1 : tensor<4x8x64xi32>
    %o = arith.addi %o0, %x2 : tensor<4x8x64xi32>
    %pa = tt.splat %a : !tt.ptr<i8> -> tensor<4x8x64x!tt.ptr<i8>>
    %pa2 = tt.addptr %pa, %o : tensor<4x8x64x!tt.ptr<i8>>, tensor<4x8x64xi32>
    %v = tt.load %pa2 : tensor<4x8x64x!tt.ptr<i8>>
    %t = tt.trans %pa2 {order = array<i32: 2, 0, 1>} : tensor<4x8x64x!tt.ptr<i8>> -> tensor<64x4x8x!tt.ptr<i8>>
    %vt = tt.trans %v {order = array<i32: 2, 0, 1>} : tensor<4x8x64xi8> -> tensor<64x4x8xi8>
    tt.store %t, %vt : tensor<64x4x8x!tt.ptr<i8>>
    tt.return
  }
}
"""


HUGE_DIVISIBILITY = """module {
  tt.func public @k(%p: tensor<128x!tt.ptr<f32>> {tt.contiguity = 128 : i64, tt.divisibility = 4294967296 : i64},
                    %q: tensor<128x!tt.ptr<f32>> {tt.contiguity = 128 : i64, tt.divisibility = 1073741824 : i64}) {
    %x = tt.load %p : tensor<128x!tt.ptr<f32>>
    %y = tt.load %q : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
"""


@pytest.mark.parametrize(
    "text",
    [ATOMICS, CONTROL_FLOW, CALLS, RANK3, HUGE_DIVISIBILITY],
    ids=["atomics", "control_flow", "calls", "rank3", "huge_divisibility"],
)
@pytest.mark.parametrize("target", ["cuda:80", "cuda:90"])
@pytest.mark.parametrize("num_warps", [1, 4])
def test_hand_written_kernels_match_triton(triton_coalesce, text, target, num_warps):
    _check(triton_coalesce, text, target, num_warps)


# -- seeded random kernels -------------------------------------------------------------

_BINARY = (
    ["arith.addi", "arith.subi", "arith.muli"] * 4
    + ["arith.divsi", "arith.divui", "arith.remsi", "arith.remui", "arith.andi", "arith.ori", "arith.xori"]
    + ["arith.shli", "arith.shrsi", "arith.shrui", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui"]
)
_PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


class _RandomKernel:
    """Three stores of a constant through ``splat(ptr) + offsets``; each offset is a
    random expression of ranges, splats and constants through binary ops, compare +
    select, trans, reshape and int casts. The stores do not share values, so each
    store's layout shows its own pointer's axis info."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.lines: list[str] = []
        self.count = 0

    def name(self) -> str:
        self.count += 1
        return f"%v{self.count}"

    def emit(self, text: str) -> str:
        v = self.name()
        self.lines.append(f"    {v} = {text}")
        return v

    @staticmethod
    def ty(shape: list[int], elem: str = "i32") -> str:
        return f"tensor<{'x'.join(map(str, shape))}x{elem}>"

    def scalar(self, depth: int = 0) -> str:
        r = self.rng
        k = r.random()
        if k < 0.3:
            return r.choice(self.int_args)
        if k < 0.6 or depth > 1:
            return self.emit(f"arith.constant {r.choice([0, 1, 2, 3, 4, 8, 16, 64, 1024, 6, 12, -1, -16, 48])} : i32")
        if k < 0.7:
            return self.emit("tt.get_program_id x : i32")
        a, b = self.scalar(depth + 1), self.scalar(depth + 1)
        op = r.choice(["arith.addi", "arith.muli", "arith.subi", "arith.shli", "arith.andi", "arith.divsi"])
        return self.emit(f"{op} {a}, {b} : i32")

    def const(self, shape: list[int]) -> str:
        c = self.rng.choice([0, 1, 2, 4, 8, 16, 3, 32, 64, 1024, -1, -4])
        if self.rng.random() < 0.5:
            return self.emit(f"arith.constant dense<{c}> : {self.ty(shape)}")
        s = self.emit(f"arith.constant {c} : i32")
        return self.emit(f"tt.splat {s} : i32 -> {self.ty(shape)}")

    def arange(self, shape: list[int], d: int) -> str:
        n = shape[d]
        start = self.rng.choice([0, 0, 0, 16, 32, n, 4, 3, 64])
        v = self.emit(f"tt.make_range {{end = {start + n} : i32, start = {start} : i32}} : tensor<{n}xi32>")
        if len(shape) == 1:
            return v
        unit = [1, 1]
        unit[d] = n
        e = self.emit(f"tt.expand_dims {v} {{axis = {1 - d} : i32}} : tensor<{n}xi32> -> {self.ty(unit)}")
        return self.emit(f"tt.broadcast {e} : {self.ty(unit)} -> {self.ty(shape)}")

    def leaf(self, shape: list[int]) -> str:
        k = self.rng.random()
        if k < 0.6:
            return self.arange(shape, self.rng.randrange(len(shape)))
        if k < 0.85:
            return self.emit(f"tt.splat {self.scalar()} : i32 -> {self.ty(shape)}")
        return self.const(shape)

    def expr(self, shape: list[int], depth: int) -> str:
        r = self.rng
        if depth <= 0 or r.random() < 0.25:
            return self.leaf(shape)
        k = r.random()
        t = self.ty(shape)
        if k < 0.6:
            a = self.expr(shape, depth - 1)
            if r.random() < 0.6:
                b = self.leaf(shape) if r.random() < 0.3 else self.const(shape)
            else:
                b = self.expr(shape, depth - 1)
            if r.random() < 0.5:
                a, b = b, a
            return self.emit(f"{r.choice(_BINARY)} {a}, {b} : {t}")
        if k < 0.72:
            a, b = self.expr(shape, depth - 1), self.expr(shape, depth - 1)
            x, y = self.expr(shape, depth - 2), self.expr(shape, depth - 2)
            c = self.emit(f"arith.cmpi {r.choice(_PREDICATES)}, {x}, {y} : {t}")
            return self.emit(f"arith.select {c}, {a}, {b} : {self.ty(shape, 'i1')}, {t}")
        if k < 0.8 and len(shape) == 2:
            src = [shape[1], shape[0]]
            a = self.expr(src, depth - 1)
            return self.emit(f"tt.trans {a} {{order = array<i32: 1, 0>}} : {self.ty(src)} -> {t}")
        if k < 0.9:
            if len(shape) == 2:
                src = [shape[0] * shape[1]]
            else:
                split = r.choice([2, 4, 8, 16])
                src = [split, shape[0] // split] if shape[0] >= 2 * split else [shape[0]]
            a = self.expr(src, depth - 1)
            return self.emit(f"tt.reshape {a} : {self.ty(src)} -> {t}")
        a = self.expr(shape, depth - 1)
        w = self.emit(f"arith.extsi {a} : {t} to {self.ty(shape, 'i64')}")
        return self.emit(f"arith.trunci {w} : {self.ty(shape, 'i64')} to {t}")

    def text(self) -> str:
        r = self.rng
        shape = r.choice([[64], [128], [256], [1024], [16, 64], [32, 32], [64, 16], [8, 128], [128, 8], [2, 64], [64, 1]])
        elem = r.choice(["i8", "f16", "f32", "i64", "f32"])
        hints = [" {tt.divisibility = 16 : i32}", " {tt.divisibility = 16 : i32}", "", " {tt.divisibility = 8 : i32}"]
        args = [f"%p{i}: !tt.ptr<{elem}>{r.choice(hints)}" for i in range(3)]
        self.int_args = [f"%n{i}" for i in range(3)]
        args += [f"%n{i}: i32{r.choice(hints[1:] + [' {tt.divisibility = 4 : i32}'])}" for i in range(3)]
        offsets = [self.expr(shape, r.randrange(1, 5)) for _ in range(3)]
        pty = self.ty(shape, f"!tt.ptr<{elem}>")
        zero = "0.000000e+00" if elem.startswith("f") else "0"
        ptrs = []
        for i, off in enumerate(offsets):
            s = self.emit(f"tt.splat %p{i} : !tt.ptr<{elem}> -> {pty}")
            ptrs.append(self.emit(f"tt.addptr {s}, {off} : {pty}, {self.ty(shape)}"))
            c = self.emit(f"arith.constant dense<{zero}> : {self.ty(shape, elem)}")
            self.lines.append(f"    tt.store {ptrs[-1]}, {c} : {pty}")
        if r.random() < 0.5:
            self.emit(f"tt.load {ptrs[0]} : {pty}")
        body = "\n".join(self.lines)
        return f"module {{\n  tt.func public @k({', '.join(args)}) {{\n{body}\n    tt.return\n  }}\n}}\n"


@pytest.mark.parametrize("seed", range(48))
def test_random_kernels_match_triton(triton_coalesce, seed):
    rng = random.Random(seed)
    num_warps = rng.choice([1, 1, 2, 4, 8])
    target = rng.choice(["cuda:80", "cuda:90"])
    _check(triton_coalesce, _RandomKernel(seed).text(), target, num_warps)


# ---------------------------------------------------------------------------------------
# exact layouts and the rewrite (no Triton needed)
# ---------------------------------------------------------------------------------------

BLOCKED_2D = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>"
BLOCKED_1D = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
BLOCKED_1D_W1 = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>"


def _module(body: str, args: str, layouts: str = "", nw: int = 4, target: str = "cuda:90") -> str:
    return (
        f"{layouts}\nmodule attributes {MODULE_ATTRS.format(nw=nw, target=target)} {{\n"
        f"  tt.func public @k({args}) {{\n{body}\n    tt.return\n  }}\n}}\n"
    )


TRANSPOSE_64x64 = _module(
    """
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<64x1xi32, #b>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<1x64xi32, #b>
    %si = tt.splat %in_stride : i32 -> tensor<64x1xi32, #b>
    %ri = arith.muli %re, %si : tensor<64x1xi32, #b>
    %rb = tt.broadcast %ri : tensor<64x1xi32, #b> -> tensor<64x64xi32, #b>
    %cb = tt.broadcast %ce : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #b>
    %pi = tt.splat %in : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #b>
    %pin = tt.addptr %pi, %off : tensor<64x64x!tt.ptr<f32>, #b>, tensor<64x64xi32, #b>
    %x = tt.load %pin : tensor<64x64x!tt.ptr<f32>, #b>
    %so = tt.splat %out_stride : i32 -> tensor<1x64xi32, #b>
    %co = arith.muli %ce, %so : tensor<1x64xi32, #b>
    %cob = tt.broadcast %co : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
    %reb = tt.broadcast %re : tensor<64x1xi32, #b> -> tensor<64x64xi32, #b>
    %offt = arith.addi %reb, %cob : tensor<64x64xi32, #b>
    %po = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #b>
    %pout = tt.addptr %po, %offt : tensor<64x64x!tt.ptr<f32>, #b>, tensor<64x64xi32, #b>
    tt.store %pout, %x : tensor<64x64x!tt.ptr<f32>, #b>""",
    "%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %in_stride: i32 {tt.divisibility = 16 : i32}, "
    "%out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_stride: i32 {tt.divisibility = 16 : i32}",
    f"#b = {BLOCKED_2D}",
)


def test_transpose_64x64_f32_four_warps():
    """The row-major load gets 4 f32 (16 bytes) per thread along dim 1: 16 lanes cover
    a 64-wide row, 2 rows per warp, warps stacked; the transposed store mirrors it."""
    layouts = _ours(TRANSPOSE_64x64)
    assert layouts == [
        ("tt.load", BlockedEncoding((1, 4), (2, 16), (4, 1), (1, 0))),
        ("tt.store", BlockedEncoding((4, 1), (16, 2), (1, 4), (0, 1))),
    ]


VECTOR_ADD = _module(
    """
    %c1024 = arith.constant 1024 : i32
    %pid = tt.get_program_id x : i32
    %base = arith.muli %pid, %c1024 : i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %sb = tt.splat %base : i32 -> tensor<1024xi32, #b>
    %off = arith.addi %sb, %r : tensor<1024xi32, #b>
    %sn = tt.splat %n : i32 -> tensor<1024xi32, #b>
    %mask = arith.cmpi slt, %off, %sn : tensor<1024xi32, #b>
    %px = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
    %pxo = tt.addptr %px, %off : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    %vx = tt.load %pxo, %mask : tensor<1024x!tt.ptr<f32>, #b>
    %py = tt.splat %y : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
    %pyo = tt.addptr %py, %off : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    %s = arith.addf %vx, %vx : tensor<1024xf32, #b>
    tt.store %pyo, %s, %mask : tensor<1024x!tt.ptr<f32>, #b>""",
    "%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32",
    f"#b = {BLOCKED_1D}",
)


def test_vector_add_rewrite_structure():
    module = P.parse_module(VECTOR_ADD)
    P.run_pipeline(module, "tritongpu-coalesce")
    wide = BlockedEncoding((4,), (32,), (4,), (0,))
    ops = list(module.walk())
    load = next(op for op in ops if op.name == "tt.load")
    store = next(op for op in ops if op.name == "tt.store")
    # every tensor operand converted in, the result converted back
    assert [layout_of(v) for v in load.operands] == [wide, wide]
    assert [layout_of(v) for v in store.operands] == [wide, wide, wide]
    assert all(v.owner.name == "ttg.convert_layout" for v in [*load.operands, *store.operands])
    assert layout_of(load.results[0]) == wide
    (use,) = load.results[0].uses
    assert use.operation.name == "ttg.convert_layout" and layout_of(use.operation.results[0]).size_per_thread == (1,)
    assert sum(op.name == "ttg.convert_layout" for op in ops) == 6
    # the users still see the old layout
    addf = next(op for op in ops if op.name == "arith.addf")
    assert layout_of(addf.operands[0]).size_per_thread == (1,)


def test_coalesced_ops_are_left_alone():
    """A second run finds every memory op in its coalesced layout: nothing changes."""
    module = P.parse_module(VECTOR_ADD)
    P.run_pipeline(module, "tritongpu-coalesce")
    once = P.module_text(module)
    P.run_pipeline(module, "tritongpu-coalesce")
    assert P.module_text(module) == once


def test_store_is_capped_at_its_own_width_and_load_takes_the_group_max():
    body = """
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %pa = tt.splat %a : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
    %pa2 = tt.addptr %pa, %r : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    %pb = tt.splat %b : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
    %pb2 = tt.addptr %pb, %r : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    %x = tt.load %pa2 : tensor<1024x!tt.ptr<f32>, #b>
    tt.store %pb2, %x : tensor<1024x!tt.ptr<f32>, #b>
    %y = tt.load %pb2 : tensor<1024x!tt.ptr<f32>, #b>"""
    text = _module(body, "%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32>", f"#b = {BLOCKED_1D}")
    widths = [enc.size_per_thread for _, enc in _ours(text)]
    # b has divisibility 1: its store stays scalar; its load joins a's group (4 wide)
    assert widths == [(4,), (1,), (4,)]


@pytest.mark.parametrize(
    ("target", "expected"),
    [("cuda:80", [(2,), (1,), (4,), (1,)]), ("cuda:90", [(8,), (8,), (4,), (1,)])],
)
def test_atomic_widths(target, expected):
    """fadd has no vector form before sm_90 (f16: pairs); integer atomics and CAS are
    always one element per thread."""
    body = """
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b>
    %pa2 = tt.addptr %pa, %r : tensor<1024x!tt.ptr<f16>, #b>, tensor<1024xi32, #b>
    %x = arith.sitofp %r : tensor<1024xi32, #b> to tensor<1024xf16, #b>
    %v1 = tt.atomic_rmw fadd, acq_rel, gpu, %pa2, %x : (tensor<1024x!tt.ptr<f16>, #b>, tensor<1024xf16, #b>) -> tensor<1024xf16, #b>
    %pb = tt.splat %b : !tt.ptr<bf16> -> tensor<1024x!tt.ptr<bf16>, #b>
    %pb2 = tt.addptr %pb, %r : tensor<1024x!tt.ptr<bf16>, #b>, tensor<1024xi32, #b>
    %y = arith.sitofp %r : tensor<1024xi32, #b> to tensor<1024xbf16, #b>
    %v2 = tt.atomic_rmw fadd, acq_rel, gpu, %pb2, %y : (tensor<1024x!tt.ptr<bf16>, #b>, tensor<1024xbf16, #b>) -> tensor<1024xbf16, #b>
    %pc = tt.splat %c : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
    %pc2 = tt.addptr %pc, %r : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    %z = arith.sitofp %r : tensor<1024xi32, #b> to tensor<1024xf32, #b>
    %v3 = tt.atomic_rmw exch, acq_rel, gpu, %pc2, %z : (tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xf32, #b>) -> tensor<1024xf32, #b>
    %pd = tt.splat %d : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #b>
    %pd2 = tt.addptr %pd, %r : tensor<1024x!tt.ptr<i32>, #b>, tensor<1024xi32, #b>
    %v4 = tt.atomic_cas acq_rel, gpu, %pd2, %r, %r : (tensor<1024x!tt.ptr<i32>, #b>, tensor<1024xi32, #b>, tensor<1024xi32, #b>) -> tensor<1024xi32, #b>"""
    args = ", ".join(
        f"%{n}: !tt.ptr<{t}> {{tt.divisibility = 16 : i32}}" for n, t in zip("abcd", ["f16", "bf16", "f32", "i32"])
    )
    text = _module(body, args, f"#b = {BLOCKED_1D}", target=target)
    assert [enc.size_per_thread for _, enc in _ours(text)] == expected


def test_small_tensor_caps_at_elements_per_thread():
    """64 elements over 4 warps * 32 lanes: at most one element per thread."""
    body = """
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #b>
    %pa2 = tt.addptr %pa, %r : tensor<64x!tt.ptr<f16>, #b>, tensor<64xi32, #b>
    %x = tt.load %pa2 : tensor<64x!tt.ptr<f16>, #b>"""
    text = _module(body, "%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}", f"#b = {BLOCKED_1D}")
    assert _ours(text) == [("tt.load", BlockedEncoding((1,), (32,), (4,), (0,)))]
    text1 = text.replace('"ttg.num-warps" = 4', '"ttg.num-warps" = 1').replace("warpsPerCTA = [4]", "warpsPerCTA = [1]")
    assert _ours(text1) == [("tt.load", BlockedEncoding((2,), (32,), (1,), (0,)))]


def test_divisibility_of_two_to_the_32_wraps_to_one():
    """Triton keeps the divisibility in a 32-bit ``unsigned`` when it sizes the access:
    2**32 bytes reads as 0, i.e. one element per thread, while 2**30 allows 16 bytes."""
    attrs = MODULE_ATTRS.format(nw=1, target="cuda:90")
    text = HUGE_DIVISIBILITY.replace("module {", f"#b = {BLOCKED_1D_W1}\nmodule attributes {attrs} {{")
    text = text.replace("x!tt.ptr<f32>>", "x!tt.ptr<f32>, #b>")
    assert [enc.size_per_thread for _, enc in _ours(text)] == [(1,), (4,)]


def test_pass_is_registered_and_optionless():
    from ltc.passes.registry import PASS_REGISTRY

    assert PASS_REGISTRY["tritongpu-coalesce"][0]() is CoalescePass
    assert CoalescePass.name == "tritongpu-coalesce"
    assert CoalescePass() == CoalescePass()
