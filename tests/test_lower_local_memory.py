"""``ttg.local_alloc`` / ``local_store`` / ``local_load`` / ``local_dealloc`` in the
lowering: buffers at their own offsets in ``@global_smem`` (scratch after them), vectorized
``st/ld.shared`` by the buffer's layout, barriers around writes. PTX that ptxas accepts,
run by the PTX simulator (values, and its shared-memory race check) against numpy and the
value interpreter."""

from __future__ import annotations

import re

import numpy as np
import pytest

from ltc import simulate_ptx
from ltc.passes.interpret import run_kernel
from ltc.tools.pipeline import compile_kernel, parse_module
from tests.test_codegen_examples import ptxas_ok

_HEAD = ('module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", '
         '"ttg.threads-per-warp" = 32 : i32}} {{\n')

_ROWS = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
_COLS = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>"

# ptr tensors of %p at offsets r * 32 + c in layout #L (64 x 32)
_OFFSETS = """    %r{n} = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32, #ttg.slice<{{dim = 1, parent = #L{n}}}>>
    %c{n} = tt.make_range {{end = 32 : i32, start = 0 : i32}} : tensor<32xi32, #ttg.slice<{{dim = 0, parent = #L{n}}}>>
    %re{n} = tt.expand_dims %r{n} {{axis = 1 : i32}} : tensor<64xi32, #ttg.slice<{{dim = 1, parent = #L{n}}}>> -> tensor<64x1xi32, #L{n}>
    %ce{n} = tt.expand_dims %c{n} {{axis = 0 : i32}} : tensor<32xi32, #ttg.slice<{{dim = 0, parent = #L{n}}}>> -> tensor<1x32xi32, #L{n}>
    %k{n} = arith.constant dense<32> : tensor<64x1xi32, #L{n}>
    %rs{n} = arith.muli %re{n}, %k{n} : tensor<64x1xi32, #L{n}>
    %rb{n} = tt.broadcast %rs{n} : tensor<64x1xi32, #L{n}> -> tensor<64x32xi32, #L{n}>
    %cb{n} = tt.broadcast %ce{n} : tensor<1x32xi32, #L{n}> -> tensor<64x32xi32, #L{n}>
    %off{n} = arith.addi %rb{n}, %cb{n} : tensor<64x32xi32, #L{n}>
"""


def _ptrs(n: int, arg: str, t: str) -> str:
    return (f"    %sp{n}{arg} = tt.splat %{arg} : !tt.ptr<{t}> -> tensor<64x32x!tt.ptr<{t}>, #L{n}>\n"
            f"    %pa{n}{arg} = tt.addptr %sp{n}{arg}, %off{n} : tensor<64x32x!tt.ptr<{t}>, #L{n}>, tensor<64x32xi32, #L{n}>\n")


def _kernel_start(shared: str, params: str, ptrs: list[tuple[int, str]], t: str = "f32") -> str:
    """Layouts #L0 (rows) / #L1 (columns) / #S (``shared``), the module, ``@k(params)``, the
    64x32 offsets in both layouts and the pointer tensors ``%pa{n}{arg}`` of ``ptrs``."""
    return (f"#L0 = {_ROWS}\n#L1 = {_COLS}\n#S = {shared}\n" + _HEAD.format()
            + f"  tt.func public @k({params}) {{\n" + _OFFSETS.format(n=0) + _OFFSETS.format(n=1)
            + "".join(_ptrs(n, arg, t) for n, arg in ptrs))


def _copy_kernel(shared: str, t: str, src: str = _ROWS, dst: str = _COLS) -> str:
    """Load 64x32 in ``src``, ``local_alloc`` it in ``shared``, ``local_load`` it in ``dst``, store."""
    mem = f"!ttg.memdesc<64x32x{t}, #S, #ttg.shared_memory>"
    return (f"#L0 = {src}\n#L1 = {dst}\n#S = {shared}\n" + _HEAD.format()
            + f"  tt.func public @k(%x: !tt.ptr<{t}>, %y: !tt.ptr<{t}>) {{\n"
            + _OFFSETS.format(n=0) + _OFFSETS.format(n=1) + _ptrs(0, "x", t) + _ptrs(1, "y", t)
            + f"    %v = tt.load %pa0x : tensor<64x32x!tt.ptr<{t}>, #L0>\n"
            + f"    %m = ttg.local_alloc %v : (tensor<64x32x{t}, #L0>) -> {mem}\n"
            + f"    %w = ttg.local_load %m : {mem} -> tensor<64x32x{t}, #L1>\n"
            + f"    ttg.local_dealloc %m : {mem}\n"
            + f"    tt.store %pa1y, %w : tensor<64x32x!tt.ptr<{t}>, #L1>\n"
            + "    tt.return\n  }\n}\n")


_SHARED = {
    "row-major": "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>",
    "col-major": "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>",
    "swizzled": "#ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
    "nvmma": "#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 32}>",
}
_TYPES = {"f32": np.float32, "f16": np.float16, "i8": np.int8}


@pytest.mark.parametrize("shared", sorted(_SHARED))
@pytest.mark.parametrize("t", sorted(_TYPES))
def test_a_buffer_carries_every_element_between_layouts(shared: str, t: str) -> None:
    enc = _SHARED[shared]
    if "nvmma" in enc:
        enc = enc.replace("elementBitWidth = 32", f"elementBitWidth = {np.dtype(_TYPES[t]).itemsize * 8}")
    text = _copy_kernel(enc, t)
    ptx = compile_kernel(text, emit="ptx", target="sm_80")
    assert "st.shared" in ptx and "ld.shared" in ptx
    ptxas_ok(ptx, "sm_80")
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(64 * 32) * 100).astype(_TYPES[t])
    y = np.zeros_like(x)
    stats = simulate_ptx(ptx, (1, 1, 1), [x, y])
    np.testing.assert_array_equal(y, x)
    assert stats.shared_races == 0, stats.first_shared_race
    want = np.zeros_like(x)
    run_kernel(parse_module(text), [x, want])
    np.testing.assert_array_equal(y, want)


def test_row_major_f32_rows_move_as_128_bit_vectors() -> None:
    # #L0 holds 4 consecutive columns per thread: one st.shared.v4.b32 each; #L1's four
    # registers run down a column (64 elements apart in a row-major buffer): scalar loads
    ptx = compile_kernel(_copy_kernel(_SHARED["row-major"], "f32"), emit="ptx", target="sm_80")
    assert len(re.findall(r"st\.shared\.v4\.b32", ptx)) == 4  # 16 elements a thread, 4 at a time
    assert len(re.findall(r"ld\.shared\.b32", ptx)) == 16
    assert "ttg.shared = 8192" in compile_kernel(_copy_kernel(_SHARED["row-major"], "f32"), emit="mlir", target="sm_80")


def test_removing_the_barrier_races() -> None:
    ptx = compile_kernel(_copy_kernel(_SHARED["swizzled"], "f32"), emit="ptx", target="sm_80")
    assert "bar.sync" in ptx
    unsynced = "\n".join(line for line in ptx.splitlines() if "bar.sync" not in line)
    x = np.arange(64 * 32, dtype=np.float32)
    stats = simulate_ptx(unsynced, (1, 1, 1), [x, np.zeros_like(x)])
    assert stats.shared_races > 0


# A mutable buffer updated in a loop: each iteration reads it in #L1 (into a carried sum)
# and in #L0, and writes it back in #L0, so other warps' reads of the previous iteration
# and this one's write meet unless a barrier comes before the write. A second buffer
# holds the input meanwhile (buffers must not overlap), and a cross-warp reduction's
# scratch is used while both buffers still hold data (scratch comes after them).
def _loop_kernel() -> str:
    mem = "!ttg.memdesc<64x32xf32, #S, #ttg.shared_memory, mutable>"
    keep = "!ttg.memdesc<64x32xf32, #S, #ttg.shared_memory>"
    red = "#ttg.slice<{dim = 1, parent = #L1}>"
    return (_kernel_start(_SHARED["swizzled"], "%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %o: !tt.ptr<f32>, %z: !tt.ptr<f32>, "
                          "%n: i32", [(0, "x"), (1, "y"), (1, "o")])
            + "    %v = tt.load %pa0x : tensor<64x32x!tt.ptr<f32>, #L0>\n"
            + f"    %m = ttg.local_alloc : () -> {mem}\n"
            + f"    ttg.local_store %v, %m : tensor<64x32xf32, #L0> -> {mem}\n"
            + f"    %k = ttg.local_alloc %v : (tensor<64x32xf32, #L0>) -> {keep}\n"
            + "    %zero = arith.constant dense<0.0> : tensor<64x32xf32, #L1>\n"
            + "    %i0 = arith.constant 0 : i32\n    %i1 = arith.constant 1 : i32\n"
            + "    %acc = scf.for %i = %i0 to %n step %i1 iter_args(%s0 = %zero) -> (tensor<64x32xf32, #L1>) : i32 {\n"
            + f"      %a = ttg.local_load %m : {mem} -> tensor<64x32xf32, #L1>\n"
            + "      %s1 = arith.addf %s0, %a : tensor<64x32xf32, #L1>\n"
            + f"      %b = ttg.local_load %m : {mem} -> tensor<64x32xf32, #L0>\n"
            + "      %b2 = arith.addf %b, %b : tensor<64x32xf32, #L0>\n"
            + f"      ttg.local_store %b2, %m : tensor<64x32xf32, #L0> -> {mem}\n"
            + "      scf.yield %s1 : tensor<64x32xf32, #L1>\n"
            + "    }\n"
            + "    %s = \"tt.reduce\"(%acc) <{axis = 1 : i32}> ({\n"
            + "    ^bb0(%p: f32, %q: f32):\n      %t = arith.addf %p, %q : f32\n      tt.reduce.return %t : f32\n"
            + f"    }}) : (tensor<64x32xf32, #L1>) -> tensor<64xf32, {red}>\n"
            + f"    %w = ttg.local_load %m : {mem} -> tensor<64x32xf32, #L1>\n"
            + "    tt.store %pa1y, %w : tensor<64x32x!tt.ptr<f32>, #L1>\n"
            + f"    %kw = ttg.local_load %k : {keep} -> tensor<64x32xf32, #L1>\n"
            + "    tt.store %pa1o, %kw : tensor<64x32x!tt.ptr<f32>, #L1>\n"
            + f"    %zr = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32, {red}>\n"
            + f"    %zs = tt.splat %z : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, {red}>\n"
            + f"    %za = tt.addptr %zs, %zr : tensor<64x!tt.ptr<f32>, {red}>, tensor<64xi32, {red}>\n"
            + f"    tt.store %za, %s : tensor<64x!tt.ptr<f32>, {red}>\n"
            + "    tt.return\n  }\n}\n")


def test_buffers_in_a_loop_beside_reduction_scratch() -> None:
    text = _loop_kernel()
    mlir = compile_kernel(text, emit="mlir", target="sm_80")
    shared = int(re.search(r"ttg.shared = (\d+)", mlir).group(1))  # type: ignore[union-attr]
    assert shared > 2 * 8192  # two buffers, then the reduction's scratch
    ptx = compile_kernel(text, emit="ptx", target="sm_80")
    ptxas_ok(ptx, "sm_80")
    x = np.random.default_rng(1).integers(-8, 8, 64 * 32).astype(np.float32)
    for n in (0, 3):
        outs = [np.zeros_like(x), np.zeros_like(x), np.zeros(64, np.float32)]
        stats = simulate_ptx(ptx, (1, 1, 1), [x, *outs, np.int32(n)])
        assert stats.shared_races == 0, stats.first_shared_race
        y, o, z = outs
        np.testing.assert_array_equal(y, x * 2**n)
        np.testing.assert_array_equal(o, x)
        np.testing.assert_array_equal(z, (x * (2**n - 1)).reshape(64, 32).sum(axis=1))
        want = [np.zeros_like(x), np.zeros_like(x), np.zeros(64, np.float32)]
        run_kernel(parse_module(text), [x, *want, np.int32(n)])
        for got, w in zip(outs, want):
            np.testing.assert_array_equal(got, w)


# Triton's software pipeline in miniature: a two-slot buffer, the next tile's cp.async
# issued while the current one is summed (memdesc_index slots chosen at run time, tokens
# carried by the loop, a masked copy past the last tile)
def _pipelined_sum_kernel(t: str = "f32", src: str = _ROWS, other: str | None = None, carry: str = "") -> str:
    """``carry``: "view" carries the slot to read next through the loop (a memdesc
    iter_arg, passed through an scf.if), "subslice" a subslice of it (refused)."""
    buf = f"!ttg.memdesc<2x64x32x{t}, #S, #ttg.shared_memory, mutable>"
    one = f"!ttg.memdesc<64x32x{t}, #S, #ttg.shared_memory, mutable>"
    ptrs = f"tensor<64x32x!tt.ptr<{t}>, #L0>"
    return (f"#L0 = {src}\n#L1 = {_COLS}\n#S = {_SHARED['swizzled']}\n" + _HEAD.format()
            + f"  tt.func public @k(%x: !tt.ptr<{t}> {{tt.divisibility = 16 : i32}}, %y: !tt.ptr<{t}> {{tt.divisibility = 16 : i32}}, %n: i32) {{\n"
            + _OFFSETS.format(n=0) + _OFFSETS.format(n=1) + _ptrs(0, "x", t) + _ptrs(1, "y", t)
            + "    %i0 = arith.constant 0 : i32\n    %i1 = arith.constant 1 : i32\n    %i2 = arith.constant 2 : i32\n"
            + f"    %tile = arith.constant 2048 : i32\n    %zero = arith.constant dense<0.0> : tensor<64x32x{t}, #L1>\n"
            + f"    %buf = ttg.local_alloc : () -> {buf}\n"
            + f"    %s0 = ttg.memdesc_index %buf[%i0] : {buf} -> {one}\n"
            + f"    %t0 = ttg.async_copy_global_to_local %pa0x, %s0 : {ptrs} -> <64x32x{t}, #S, #ttg.shared_memory, mutable>\n"
            + "    %g0 = ttg.async_commit_group tokens %t0\n"
            + (f"    %first = ttg.memdesc_subslice %s0[0, 0] : {one} -> {one}\n" if carry == "subslice" else "")
            + (f"    %acc:3 = scf.for %i = %i0 to %n step %i1 iter_args(%a = %zero, %tok = %g0, %cur = "
               f"{'%first' if carry == 'subslice' else '%s0'}) -> (tensor<64x32x{t}, #L1>, !ttg.async.token, {one}) : i32 {{\n"
               if carry else
               f"    %acc:2 = scf.for %i = %i0 to %n step %i1 iter_args(%a = %zero, %tok = %g0) -> (tensor<64x32x{t}, #L1>, !ttg.async.token) : i32 {{\n")
            + "      %w = ttg.async_wait %tok {num = 0 : i32}\n"
            + ("      %more0 = arith.cmpi slt, %i, %n : i32\n" if carry else "")
            + "      %slot = arith.remsi %i, %i2 : i32\n"
            + (f"      %sv = ttg.memdesc_index %buf[%slot] : {buf} -> {one}\n" if not carry else "")
            + ("      %sv = scf.if %more0 -> (" + one + ") {\n        scf.yield %cur : " + one + "\n      } else {\n"
               "        scf.yield %cur : " + one + "\n      }\n" if carry else "")
            + f"      %v = ttg.local_load %sv token %w : {one} -> tensor<64x32x{t}, #L1>\n"
            + f"      %a2 = arith.addf %a, %v : tensor<64x32x{t}, #L1>\n"
            + "      %next = arith.addi %i, %i1 : i32\n"
            + "      %nslot = arith.remsi %next, %i2 : i32\n"
            + f"      %nv = ttg.memdesc_index %buf[%nslot] : {buf} -> {one}\n"
            + "      %more = arith.cmpi slt, %next, %n : i32\n"
            + "      %mk = tt.splat %more : i1 -> tensor<64x32xi1, #L0>\n"
            + (f"      %oth = arith.constant dense<{other}> : tensor<64x32x{t}, #L0>\n" if other else "")
            + "      %step = arith.muli %next, %tile : i32\n"
            + "      %steps = tt.splat %step : i32 -> tensor<64x32xi32, #L0>\n"
            + f"      %np = tt.addptr %pa0x, %steps : {ptrs}, tensor<64x32xi32, #L0>\n"
            + f"      %t = ttg.async_copy_global_to_local %np, %nv mask %mk{' other %oth' if other else ''} : {ptrs} -> "
            + f"<64x32x{t}, #S, #ttg.shared_memory, mutable>\n"
            + "      %c = ttg.async_commit_group tokens %t\n"
            + (f"      scf.yield %a2, %c, %nv : tensor<64x32x{t}, #L1>, !ttg.async.token, {one}\n" if carry else
               f"      scf.yield %a2, %c : tensor<64x32x{t}, #L1>, !ttg.async.token\n")
            + "    }\n"
            + "    %done = ttg.async_wait {num = 0 : i32}\n"
            + f"    tt.store %pa1y, %acc#0 : tensor<64x32x!tt.ptr<{t}>, #L1>\n"
            + "    tt.return\n  }\n}\n")


@pytest.mark.parametrize(("other", "carry"), [(None, ""), ("0.000000e+00", ""), (None, "view")])
def test_a_pipelined_loop_of_async_copies_sums_every_tile(other: str | None, carry: str) -> None:
    text = _pipelined_sum_kernel(other=other, carry=carry)
    ptx = compile_kernel(text, emit="ptx", target="sm_80")
    # 16 f32 a thread in runs of 4 consecutive columns: 4 copies of 16 bytes per tile
    assert len(re.findall(r"cp\.async\.cg\.shared\.global \[%r\d+\], \[%rd\d+\], 16", ptx)) == 8
    assert "cp.async.commit_group" in ptx and "cp.async.wait_group 0" in ptx
    # a barrier after each wait, and before the loop's copy (the tile just read shares
    # the buffer); none before the first copy, nothing having been read yet
    assert ptx.count("bar.sync") == 3
    ptxas_ok(ptx, "sm_80")
    rng = np.random.default_rng(11)
    for n in (1, 3):
        x = rng.integers(-50, 50, n * 64 * 32).astype(np.float32)
        y = np.zeros(64 * 32, np.float32)
        stats = simulate_ptx(ptx, (1, 1, 1), [x, y, np.int32(n)])
        assert stats.shared_races == 0, stats.first_shared_race
        np.testing.assert_array_equal(y, x.reshape(n, -1).sum(axis=0))
        want = np.zeros_like(y)
        run_kernel(parse_module(text), [x, want, np.int32(n)])
        np.testing.assert_array_equal(y, want)


def test_an_async_copy_of_fewer_than_4_bytes_is_refused_by_name() -> None:
    # f16 one element a thread at a time (a column-major source layout): 2-byte copies
    from ltc.tools.pipeline import PipelineError

    text = _pipelined_sum_kernel("f16", src=_COLS)
    with pytest.raises(PipelineError, match="cp.async copies 4, 8 or 16 bytes; these elements move 2 at a time"):
        compile_kernel(text, emit="ptx", target="sm_80")


@pytest.mark.parametrize("other", ["1.000000e+00", "-0.000000e+00"])
def test_an_async_copy_whose_other_is_not_zero_bits_is_refused_by_name(other: str) -> None:
    from ltc.tools.pipeline import PipelineError

    with pytest.raises(PipelineError, match="async_copy_global_to_local with a non-zero 'other' is not supported"):
        compile_kernel(_pipelined_sum_kernel(other=other), emit="ptx", target="sm_80")


# ttg.memdesc_subslice: a tile of a 64x64 buffer at an aligned origin, read in #L1
def _subslice_kernel(shared: str, origin: tuple[int, int], tile: tuple[int, int]) -> str:
    full = "!ttg.memdesc<64x64xf32, #S, #ttg.shared_memory>"
    part = f"!ttg.memdesc<{tile[0]}x{tile[1]}xf32, #S, #ttg.shared_memory, 64x64>"
    rows, cols = tile
    layout = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>"
    return (f"#L0 = {layout}\n#L1 = {_COLS}\n#S = {shared}\n" + _HEAD.format()
            + "  tt.func public @k(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {\n"
            + "    %r0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #L0}>>\n"
            + "    %re0 = tt.expand_dims %r0 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #L0}>> -> tensor<64x1xi32, #L0>\n"
            + "    %k0 = arith.constant dense<64> : tensor<64x1xi32, #L0>\n"
            + "    %rs0 = arith.muli %re0, %k0 : tensor<64x1xi32, #L0>\n"
            + "    %c0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #L0}>>\n"
            + "    %ce0 = tt.expand_dims %c0 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #L0}>> -> tensor<1x64xi32, #L0>\n"
            + "    %rb0 = tt.broadcast %rs0 : tensor<64x1xi32, #L0> -> tensor<64x64xi32, #L0>\n"
            + "    %cb0 = tt.broadcast %ce0 : tensor<1x64xi32, #L0> -> tensor<64x64xi32, #L0>\n"
            + "    %off0 = arith.addi %rb0, %cb0 : tensor<64x64xi32, #L0>\n"
            + "    %sp = tt.splat %x : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #L0>\n"
            + "    %pa = tt.addptr %sp, %off0 : tensor<64x64x!tt.ptr<f32>, #L0>, tensor<64x64xi32, #L0>\n"
            + "    %v = tt.load %pa : tensor<64x64x!tt.ptr<f32>, #L0>\n"
            + f"    %m = ttg.local_alloc %v : (tensor<64x64xf32, #L0>) -> {full}\n"
            + f"    %t = ttg.memdesc_subslice %m[{origin[0]}, {origin[1]}] : {full} -> {part}\n"
            + f"    %w = ttg.local_load %t : {part} -> tensor<{rows}x{cols}xf32, #L1>\n"
            + f"    %r1 = tt.make_range {{end = {rows} : i32, start = 0 : i32}} : tensor<{rows}xi32, #ttg.slice<{{dim = 1, parent = #L1}}>>\n"
            + f"    %re1 = tt.expand_dims %r1 {{axis = 1 : i32}} : tensor<{rows}xi32, #ttg.slice<{{dim = 1, parent = #L1}}>> -> tensor<{rows}x1xi32, #L1>\n"
            + f"    %k1 = arith.constant dense<{cols}> : tensor<{rows}x1xi32, #L1>\n"
            + f"    %rs1 = arith.muli %re1, %k1 : tensor<{rows}x1xi32, #L1>\n"
            + f"    %c1 = tt.make_range {{end = {cols} : i32, start = 0 : i32}} : tensor<{cols}xi32, #ttg.slice<{{dim = 0, parent = #L1}}>>\n"
            + f"    %ce1 = tt.expand_dims %c1 {{axis = 0 : i32}} : tensor<{cols}xi32, #ttg.slice<{{dim = 0, parent = #L1}}>> -> tensor<1x{cols}xi32, #L1>\n"
            + f"    %rb1 = tt.broadcast %rs1 : tensor<{rows}x1xi32, #L1> -> tensor<{rows}x{cols}xi32, #L1>\n"
            + f"    %cb1 = tt.broadcast %ce1 : tensor<1x{cols}xi32, #L1> -> tensor<{rows}x{cols}xi32, #L1>\n"
            + f"    %off1 = arith.addi %rb1, %cb1 : tensor<{rows}x{cols}xi32, #L1>\n"
            + f"    %sq = tt.splat %y : !tt.ptr<f32> -> tensor<{rows}x{cols}x!tt.ptr<f32>, #L1>\n"
            + f"    %pb = tt.addptr %sq, %off1 : tensor<{rows}x{cols}x!tt.ptr<f32>, #L1>, tensor<{rows}x{cols}xi32, #L1>\n"
            + f"    tt.store %pb, %w : tensor<{rows}x{cols}x!tt.ptr<f32>, #L1>\n"
            + "    tt.return\n  }\n}\n")


@pytest.mark.parametrize("shared", ["row-major", "swizzled", "nvmma"])
@pytest.mark.parametrize(("origin", "tile"), [((0, 32), (64, 32)), ((32, 0), (32, 64)), ((16, 48), (16, 16))])
def test_a_subslice_reads_its_tile(shared: str, origin: tuple[int, int], tile: tuple[int, int]) -> None:
    text = _subslice_kernel(_SHARED[shared], origin, tile)
    ptx = compile_kernel(text, emit="ptx", target="sm_80")
    ptxas_ok(ptx, "sm_80")
    x = np.arange(64 * 64, dtype=np.float32)
    y = np.zeros(tile[0] * tile[1], np.float32)
    stats = simulate_ptx(ptx, (1, 1, 1), [x, y])
    assert stats.shared_races == 0, stats.first_shared_race
    want = x.reshape(64, 64)[origin[0]:origin[0] + tile[0], origin[1]:origin[1] + tile[1]]
    np.testing.assert_array_equal(y.reshape(tile), want)
    got = np.zeros_like(y)
    run_kernel(parse_module(text), [x, got])
    np.testing.assert_array_equal(got, y)


def test_a_subslice_carried_by_a_loop_is_refused_by_name() -> None:
    from ltc.tools.pipeline import PipelineError

    with pytest.raises(PipelineError, match="a ttg.memdesc_subslice view carried by 'scf.for' is not supported"):
        compile_kernel(_pipelined_sum_kernel(carry="subslice"), emit="ptx", target="sm_80")


@pytest.mark.parametrize(("target", "rows", "fits"), [
    ("sm_80", (1024, 256), True), ("sm_80", (1024, 512), False),
    ("sm_90", (1024, 512, 256), True), ("sm_90", (1024, 512, 512), False),
])
def test_shared_memory_beyond_the_cta_limit_is_refused_by_name(target: str, rows: tuple[int, ...], fits: bool) -> None:
    # f32 buffers of rows x 32 (128 bytes a row; at most 163 KiB on sm_80, 227 KiB on sm_90)
    from ltc.tools.pipeline import PipelineError

    types = [f"!ttg.memdesc<{r}x32xf32, #S, #ttg.shared_memory, mutable>" for r in rows]
    allocs = "".join(f"    %m{i} = ttg.local_alloc : () -> {t}\n" for i, t in enumerate(types))
    frees = "".join(f"    ttg.local_dealloc %m{i} : {t}\n" for i, t in enumerate(types))  # all live at once
    text = (f"#S = {_SHARED['row-major']}\n" + _HEAD.format()
            + f"  tt.func public @k() {{\n{allocs}{frees}    tt.return\n  }}\n}}\n")
    need = sum(rows) * 128
    if fits:
        assert f"ttg.shared = {need}" in compile_kernel(text, emit="mlir", target=target)
    else:
        limit = {"sm_80": 166912, "sm_90": 232448}[target]
        with pytest.raises(PipelineError, match=f"needs {need} bytes of shared memory .* has at most {limit}"):
            compile_kernel(text, emit="mlir", target=target)
