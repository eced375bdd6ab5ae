"""Shared-memory buffers placed by liveness (``lowering.llvm.shared_allocation``): buffers
that are never live at once share bytes, buffers that are do not — across branches, loops,
loop-carried views and loads the lowering defers to their dot — and a kernel whose
buffers share bytes still moves every element, with no race, in the PTX simulator."""

from __future__ import annotations

import re

import numpy as np

from ltc import simulate_ptx
from ltc.dialects.tt import FuncOp
from ltc.dialects.ttg import LocalAllocOp
from ltc.lowering.llvm.shared_allocation import allocate_buffers
from ltc.tools.pipeline import compile_kernel, parse_module
from tests.test_codegen_examples import ptxas_ok
from tests.test_lower_local_memory import _COLS, _HEAD, _ROWS, _kernel_start

_S = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"
_M = "!ttg.memdesc<64x32xf32, #S, #ttg.shared_memory, mutable>"  # 8 KiB
_T0 = "tensor<64x32xf32, #L0>"


def _offsets(body: str, args: str = "%c: i1, %n: i32") -> tuple[list[int], int]:
    text = (f"#L0 = {_ROWS}\n#L1 = {_COLS}\n#S = {_S}\n" + _HEAD.format()
            + f"  tt.func public @k({args}) {{\n{body}    tt.return\n  }}\n}}\n")
    module = parse_module(text)
    (func,) = [op for op in module.walk() if isinstance(op, FuncOp)]
    offsets, total = allocate_buffers(func)
    allocs = [op for op in func.walk() if isinstance(op, LocalAllocOp)]
    return [offsets[a] for a in allocs], total


def _alloc(name: str) -> str:
    return f"    %{name} = ttg.local_alloc : () -> {_M}\n"


def _use(name: str, indent: str = "    ") -> str:
    return f"{indent}%r{name} = ttg.local_load %{name} : {_M} -> {_T0}\n"


def test_buffers_used_one_after_the_other_share_bytes() -> None:
    assert _offsets(_alloc("a") + _use("a") + _alloc("b") + _use("b")) == ([0, 0], 8192)


def test_buffers_live_at_once_do_not() -> None:
    assert _offsets(_alloc("a") + _alloc("b") + _use("b") + _use("a")) == ([0, 8192], 16384)


def test_buffers_of_two_branches_share_bytes() -> None:
    body = ("    scf.if %c {\n" + _alloc("a").replace("    ", "      ", 1) + _use("a", "      ")
            + "    } else {\n" + _alloc("b").replace("    ", "      ", 1) + _use("b", "      ") + "    }\n")
    assert _offsets(body) == ([0, 0], 8192)


def test_a_buffer_used_in_a_loop_lives_to_the_loop_end() -> None:
    # %a is read in every iteration: %b, allocated after that read in the body, may not take its bytes
    body = ("    %i0 = arith.constant 0 : i32\n    %i1 = arith.constant 1 : i32\n" + _alloc("a")
            + "    scf.for %i = %i0 to %n step %i1 : i32 {\n" + _use("a", "      ")
            + _alloc("b").replace("    ", "      ", 1) + _use("b", "      ") + "    }\n")
    assert _offsets(body) == ([0, 8192], 16384)
    # both allocated in the body: %a is dead when %b is allocated
    inner = ("    %i0 = arith.constant 0 : i32\n    %i1 = arith.constant 1 : i32\n"
             + "    scf.for %i = %i0 to %n step %i1 : i32 {\n" + _alloc("a").replace("    ", "      ", 1)
             + _use("a", "      ") + _alloc("b").replace("    ", "      ", 1) + _use("b", "      ") + "    }\n")
    assert _offsets(inner) == ([0, 0], 8192)


def test_a_view_carried_by_a_loop_keeps_its_buffer_live() -> None:
    body = ("    %i0 = arith.constant 0 : i32\n    %i1 = arith.constant 1 : i32\n" + _alloc("a")
            + f"    %v = scf.for %i = %i0 to %n step %i1 iter_args(%x = %a) -> ({_M}) : i32 {{\n"
            + f"      scf.yield %x : {_M}\n    }}\n" + _alloc("b") + _use("b") + _use("v"))
    assert _offsets(body) == ([0, 8192], 16384)


def test_a_load_read_by_a_later_dot_keeps_its_buffer_live_to_the_dot() -> None:
    dot = "#ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>"
    a = "!ttg.memdesc<32x32xf32, #S, #ttg.shared_memory, mutable>"
    op = [f"tensor<32x32xf32, #ttg.dot_op<{{opIdx = {i}, parent = #D}}>>" for i in (0, 1)]
    body = (f"    %a = ttg.local_alloc : () -> {a}\n    %b = ttg.local_alloc : () -> {a}\n"
            f"    %la = ttg.local_load %a : {a} -> {op[0]}\n"
            f"    %z = arith.constant dense<0.0> : tensor<32x32xf32, #D>\n"
            f"    %c2 = ttg.local_alloc %z : (tensor<32x32xf32, #D>) -> {a}\n"  # written between the load and the dot
            f"    %lb = ttg.local_load %b : {a} -> {op[1]}\n"
            f"    %d = tt.dot %la, %lb, %z : {op[0]} * {op[1]} -> tensor<32x32xf32, #D>\n")
    text = (f"#L0 = {_ROWS}\n#L1 = {_COLS}\n#D = {dot}\n#S = {_S}\n" + _HEAD.format()
            + f"  tt.func public @k() {{\n{body}    tt.return\n  }}\n}}\n")
    module = parse_module(text)
    (func,) = [o for o in module.walk() if isinstance(o, FuncOp)]
    offsets, _ = allocate_buffers(func)
    got = [offsets[o] for o in func.walk() if isinstance(o, LocalAllocOp)]
    assert len(set(got)) == 3  # %c2's write may not land on %a or %b before the dot reads them


def test_shared_bytes_pass_from_one_buffer_to_the_next_without_a_race() -> None:
    # x (rows) -> buffer A -> columns -> y; x (rows) again -> buffer B -> columns -> z: B
    # takes A's bytes, and its writers are not A's readers: its write must wait for them
    one = "!ttg.memdesc<64x32xf32, #S, #ttg.shared_memory>"
    text = (_kernel_start(_S, "%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %z: !tt.ptr<f32>", [(0, "x"), (1, "y"), (1, "z")])
            + "    %v = tt.load %pa0x : tensor<64x32x!tt.ptr<f32>, #L0>\n"
            + f"    %a = ttg.local_alloc %v : ({_T0}) -> {one}\n"
            + f"    %w = ttg.local_load %a : {one} -> tensor<64x32xf32, #L1>\n"
            + "    tt.store %pa1y, %w : tensor<64x32x!tt.ptr<f32>, #L1>\n"
            + f"    %b = ttg.local_alloc %v : ({_T0}) -> {one}\n"
            + f"    %u = ttg.local_load %b : {one} -> tensor<64x32xf32, #L1>\n"
            + "    tt.store %pa1z, %u : tensor<64x32x!tt.ptr<f32>, #L1>\n"
            + "    tt.return\n  }\n}\n")
    assert re.search(r"ttg.shared = 8192\b", compile_kernel(text, emit="mlir", target="sm_80"))
    ptx = compile_kernel(text, emit="ptx", target="sm_80")
    ptxas_ok(ptx, "sm_80")
    x = np.arange(64 * 32, dtype=np.float32)
    y, z = np.zeros_like(x), np.zeros_like(x)
    stats = simulate_ptx(ptx, (1, 1, 1), [x, y, z])
    assert stats.shared_races == 0, stats.first_shared_race
    np.testing.assert_array_equal(y, x)
    np.testing.assert_array_equal(z, x)
