"""Per-thread runs that span rows: the coalesce option (``span_rows``) and the vectorizer's
run rule (``lowering/llvm/memory.py``), on ``[rows, k]`` copies whose offsets ``r·k + c``
are contiguous across rows (paper Table 2).

Expected layouts follow from the rule in ``passes/coalesce.py``: a thread's box is full
along ``order[0]`` and runs on along ``order[1]``, holding at most ``128 / elemBits`` and
``numel / threads`` elements and no more bytes than its first address is provably aligned
to. Expected accesses follow from the layout's register bases (a run of registers whose
addresses step by one element) and the mask's constancy; the simulator checks that the
PTX copies (and that every access is aligned: it raises otherwise).
"""

from __future__ import annotations

import os
import re
import sys

import numpy as np
import pytest

import ltc.tools.pipeline as P
from ltc.encodings.blocked import BlockedEncoding
from ltc.lowering.llvm.to_llvm import lower_module
from ltc.passes.coalesce import memory_pointer
from ltc.passes.layout_ir import layout_of

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks"))
import copy_kernels as ck  # noqa: E402

CONVERT = "convert-triton-to-tritongpu{num-warps=4 target=cuda:90}"


def _pointer_layouts(text: str, pipeline: str) -> list[tuple[str, BlockedEncoding]]:
    module = P.run_pipeline(P.parse_module(text), pipeline)
    return [(op.name, layout_of(memory_pointer(op))) for op in module.walk() if memory_pointer(op) is not None]


def _spt(text: str, span: bool) -> list[tuple[int, ...]]:
    """sizePerThread of every memory op's pointer after ``tritongpu-coalesce``."""
    layouts = _pointer_layouts(text, f"{CONVERT},tritongpu-coalesce{{span-rows={str(span).lower()}}}")
    return [enc.size_per_thread for _, enc in layouts]


# ---------------------------------------------------------------------------------------
# coalesce
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "dtype", "spt"),
    [
        # 512·k elements over 128 threads, at most 128 bits per thread:
        (2, "f16", (4, 2)),  # 8 elements, 128 bits
        (4, "f16", (2, 4)),  # 16 elements > 8 x f16 = 128 bits: 8
        (2, "f8", (4, 2)),  # 8 elements (64 bits): all a thread has
        (4, "f8", (4, 4)),  # 16 x f8 = 128 bits
        (8, "f8", (2, 8)),
        # Triton's run already is the widest: unchanged
        (8, "f16", (1, 8)),
        (16, "f8", (1, 16)),
        (16, "f16", (1, 8)),
        (1, "f16", (4, 1)),
        (1, "f8", (4, 1)),
    ],
)
def test_span_rows_sizes(k: int, dtype: str, spt: tuple[int, int]) -> None:
    text = ck.copy_kernel_ttir(512, k, dtype)
    assert _spt(text, True) == [spt, spt]
    layouts = _pointer_layouts(text, f"{CONVERT},tritongpu-coalesce{{span-rows=true}}")
    assert [enc.order for _, enc in layouts] == [(0, 1) if k == 1 else (1, 0)] * 2  # Triton's order


def test_default_coalesce_is_tritons() -> None:
    """Without the option (and with ``span-rows=false``) the pass is Triton's: [1, 2]."""
    text = ck.copy_kernel_ttir(512, 2, "f16")
    plain = _pointer_layouts(text, f"{CONVERT},tritongpu-coalesce")
    assert [enc.size_per_thread for _, enc in plain] == [(1, 2), (1, 2)]
    assert _spt(text, False) == [(1, 2), (1, 2)]


@pytest.mark.parametrize(("k", "dtype"), sorted(ck.PAPER_TABLE2))
def test_span_rows_false_is_tritons_layout(k: int, dtype: str) -> None:
    """``ltc-assign-layouts{span-rows=false}`` gives the copy kernel Triton 3.9's layout."""
    pytest.importorskip("triton", reason="Triton's TTGIR needs triton")
    theirs = ck.triton_copy_kernel(512, k, dtype).ttgir
    m = re.search(r"sizePerThread = \[(\d+), (\d+)\]", theirs)
    assert m
    text = ck.copy_kernel_ttir(512, k, dtype)
    ours = _pointer_layouts(text, f"{CONVERT},ltc-assign-layouts{{span-rows=false}}")
    assert [enc.size_per_thread for _, enc in ours] == [(int(m.group(1)), int(m.group(2)))] * 2


def test_assign_layouts_spans_rows_by_default() -> None:
    text = ck.copy_kernel_ttir(512, 2, "f16")
    ours = _pointer_layouts(text, f"{CONVERT},ltc-assign-layouts")
    assert [(enc.size_per_thread, enc.threads_per_warp, enc.warps_per_cta, enc.order) for _, enc in ours] == [
        ((4, 2), (32, 1), (4, 1), (1, 0))
    ] * 2


@pytest.mark.parametrize(
    ("divisibility", "spt"),
    [
        (16, (4, 2)),
        (8, (2, 2)),  # 8-byte aligned base: 4 x f16 per box
        (4, (1, 2)),  # 4 bytes: one row (Triton's)
        (2, (1, 1)),  # one f16: Triton's rule (pointer divisibility 2 bytes)
    ],
)
def test_span_is_capped_by_alignment(divisibility: int, spt: tuple[int, int]) -> None:
    text = ck.copy_kernel_ttir(512, 2, "f16").replace("tt.divisibility = 16", f"tt.divisibility = {divisibility}")
    assert _spt(text, True) == [spt, spt]


def _runtime_stride_ttir(store_stride: str, load_stride: str) -> str:
    """A [512, 2] f16 copy whose load/store offsets are ``r·stride + c``; a stride may be
    ``%n`` (a runtime argument, 16-divisible)."""
    body = ""
    names = {}
    for i, stride in enumerate(dict.fromkeys((load_stride, store_stride))):
        if stride == "%n":
            body += f"    %f{i} = tt.splat %n : i32 -> tensor<512x1xi32>\n"
        else:
            body += f"    %f{i} = arith.constant dense<{stride}> : tensor<512x1xi32>\n"
        body += (
            f"    %rk{i} = arith.muli %re, %f{i} : tensor<512x1xi32>\n"
            f"    %rb{i} = tt.broadcast %rk{i} : tensor<512x1xi32> -> tensor<512x2xi32>\n"
            f"    %o{i} = arith.addi %rb{i}, %cb : tensor<512x2xi32>\n"
        )
        names[stride] = f"%o{i}"
    return f"""module {{
  tt.func public @k(%in: !tt.ptr<f16> {{tt.divisibility = 16 : i32}}, %out: !tt.ptr<f16> {{tt.divisibility = 16 : i32}}, %n: i32 {{tt.divisibility = 16 : i32}}) {{
    %r = tt.make_range {{end = 512 : i32, start = 0 : i32}} : tensor<512xi32>
    %re = tt.expand_dims %r {{axis = 1 : i32}} : tensor<512xi32> -> tensor<512x1xi32>
    %c = tt.make_range {{end = 2 : i32, start = 0 : i32}} : tensor<2xi32>
    %ce = tt.expand_dims %c {{axis = 0 : i32}} : tensor<2xi32> -> tensor<1x2xi32>
    %cb = tt.broadcast %ce : tensor<1x2xi32> -> tensor<512x2xi32>
{body}    %pi = tt.splat %in : !tt.ptr<f16> -> tensor<512x2x!tt.ptr<f16>>
    %pin = tt.addptr %pi, {names[load_stride]} : tensor<512x2x!tt.ptr<f16>>, tensor<512x2xi32>
    %x = tt.load %pin : tensor<512x2x!tt.ptr<f16>>
    %po = tt.splat %out : !tt.ptr<f16> -> tensor<512x2x!tt.ptr<f16>>
    %pout = tt.addptr %po, {names[store_stride]} : tensor<512x2x!tt.ptr<f16>>, tensor<512x2xi32>
    tt.store %pout, %x : tensor<512x2x!tt.ptr<f16>>
    tt.return
  }}
}}
"""


def test_runtime_row_stride_keeps_tritons_layout() -> None:
    assert _spt(_runtime_stride_ttir("%n", "%n"), True) == [(1, 2), (1, 2)]
    # rows 4 apart: not contiguous across rows either
    assert _spt(_runtime_stride_ttir("4", "4"), True) == [(1, 2), (1, 2)]


def test_a_store_keeps_its_own_run() -> None:
    """The load (contiguous rows) takes the longest box of its group; the store, whose
    rows are a runtime stride apart, never gets a box wider than its own."""
    assert _spt(_runtime_stride_ttir("%n", "2"), True) == [(4, 2), (1, 2)]


# ---------------------------------------------------------------------------------------
# the vectorizer
# ---------------------------------------------------------------------------------------

SPAN_LAYOUT = "#ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>"


def _copy_ttgir(layout: str, rows: int = 512, divisibility: int = 16, mask_rows: int | None = None) -> str:
    """A [rows, 2] f16 copy in ``layout``; with ``mask_rows``, load and store only rows
    below it."""
    t = f"tensor<{rows}x2"
    mask, use = "", ""
    if mask_rows is not None:
        mask = (
            f"    %cm = arith.constant dense<{mask_rows}> : {t[:-2]}x1xi32, #l>\n"
            f"    %m1 = arith.cmpi slt, %e0, %cm : {t[:-2]}x1xi32, #l>\n"
            f"    %m = tt.broadcast %m1 : {t[:-2]}x1xi1, #l> -> {t}xi1, #l>\n"
        )
        use = ", %m"
    return f"""#l = {layout}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @copy(%in: !tt.ptr<f16> {{tt.divisibility = {divisibility} : i32}}, %out: !tt.ptr<f16> {{tt.divisibility = {divisibility} : i32}}) {{
    %r0 = tt.make_range {{end = {rows} : i32, start = 0 : i32}} : tensor<{rows}xi32, #ttg.slice<{{dim = 1, parent = #l}}>>
    %r1 = tt.make_range {{end = 2 : i32, start = 0 : i32}} : tensor<2xi32, #ttg.slice<{{dim = 0, parent = #l}}>>
    %e0 = tt.expand_dims %r0 {{axis = 1 : i32}} : tensor<{rows}xi32, #ttg.slice<{{dim = 1, parent = #l}}>> -> tensor<{rows}x1xi32, #l>
    %e1 = tt.expand_dims %r1 {{axis = 0 : i32}} : tensor<2xi32, #ttg.slice<{{dim = 0, parent = #l}}>> -> tensor<1x2xi32, #l>
    %c = arith.constant dense<2> : tensor<{rows}x1xi32, #l>
    %s0 = arith.muli %e0, %c : tensor<{rows}x1xi32, #l>
    %b0 = tt.broadcast %s0 : tensor<{rows}x1xi32, #l> -> {t}xi32, #l>
    %b1 = tt.broadcast %e1 : tensor<1x2xi32, #l> -> {t}xi32, #l>
    %off = arith.addi %b0, %b1 : {t}xi32, #l>
{mask}    %pi = tt.splat %in : !tt.ptr<f16> -> {t}x!tt.ptr<f16>, #l>
    %pin = tt.addptr %pi, %off : {t}x!tt.ptr<f16>, #l>, {t}xi32, #l>
    %x = tt.load %pin{use} : {t}x!tt.ptr<f16>, #l>
    %po = tt.splat %out : !tt.ptr<f16> -> {t}x!tt.ptr<f16>, #l>
    %pout = tt.addptr %po, %off : {t}x!tt.ptr<f16>, #l>, {t}xi32, #l>
    tt.store %pout, %x{use} : {t}x!tt.ptr<f16>, #l>
    tt.return
  }}
}}
"""


def _global_accesses(text: str) -> tuple[list[str], list[str]]:
    """The ``ld.global`` / ``st.global`` instruction texts of the lowered module."""
    module = P.parse_module(text)
    lower_module(module)
    asm = [op.properties["asm_string"].data for op in module.walk() if op.name == "llvm.inline_asm"]
    loads = [m.group(0) for a in asm for m in re.finditer(r"(@\$\d+ )?ld\.global\S*", a)]
    stores = [m.group(0) for a in asm for m in re.finditer(r"(@\$\d+ )?st\.global\S*", a)]
    return loads, stores


def _simulate(text: str, rows: int) -> ck.CopyRun:
    return ck.simulate_copy(P.compile_kernel(text, emit="ptx"), rows * 2, 2, seed=rows)


def test_registers_over_dim1_then_dim0_give_one_128_bit_access() -> None:
    """[4, 2] per thread, registers along dim 1 then dim 0: 8 consecutive f16 (rows are
    adjacent: offsets 2r + c), 16-byte aligned (a thread's first row is a multiple of 4)."""
    text = _copy_ttgir(SPAN_LAYOUT)
    assert _global_accesses(text) == (["ld.global.v4.b32"], ["st.global.v4.b32"])
    run = _simulate(text, 512)
    assert run.ok
    assert dict(run.stats.global_loads) == {128: 4} and dict(run.stats.global_stores) == {128: 4}  # one per warp


def test_alignment_caps_the_run() -> None:
    # 8-byte aligned pointers: two 64-bit accesses per thread
    text = _copy_ttgir(SPAN_LAYOUT, divisibility=8)
    assert _global_accesses(text) == (["ld.global.v2.b32"] * 2, ["st.global.v2.b32"] * 2)
    assert _simulate(text, 512).ok


def test_registers_over_dim0_first_are_not_a_run() -> None:
    """Register bases along dim 0 first (order [0, 1]): neighbours are a row (4 bytes)
    apart, and dim 0 is not contiguous: one f16 per access, as Triton's rule gives."""
    layout = SPAN_LAYOUT.replace("order = [1, 0]", "order = [0, 1]")
    text = _copy_ttgir(layout)
    assert _global_accesses(text) == (["ld.global.b16"] * 8, ["st.global.b16"] * 8)


@pytest.mark.parametrize(
    ("mask_rows", "load", "count"),
    [
        (256, "ld.global.v4.b32", 1),  # rows < 256: constant over 256-row blocks
        (6, "ld.global.v2.b32", 2),  # constant over 2-row blocks: 2 rows x 2 f16
        (3, "ld.global.b32", 4),  # changes every row: one row (2 f16) per access
    ],
)
def test_mask_varying_inside_the_run_narrows_it(mask_rows: int, load: str, count: int) -> None:
    text = _copy_ttgir(SPAN_LAYOUT, mask_rows=mask_rows)
    loads, stores = _global_accesses(text)
    assert len(loads) == count and len(stores) == count
    assert all(re.fullmatch(rf"@\$\d+ {re.escape(load)}", ld) for ld in loads)
    assert all(re.fullmatch(rf"@\$\d+ {re.escape(load.replace('ld.', 'st.'))}", st) for st in stores)
    run = _simulate(text, 512)
    assert run.mismatches == (512 - min(mask_rows, 512)) * 2  # exactly the masked-off rows stay unwritten


def test_duplicated_warps_store_once() -> None:
    """[128, 2] in a layout that covers 512 rows: the 4 warps hold the same elements; all
    load (v4), only warp 0 stores (the owner predicate guards the vector store)."""
    text = _copy_ttgir(SPAN_LAYOUT, rows=128)
    loads, stores = _global_accesses(text)
    assert loads == ["ld.global.v4.b32"]
    assert len(stores) == 1 and re.fullmatch(r"@\$\d+ st\.global\.v4\.b32", stores[0])
    run = _simulate(text, 128)
    assert run.ok
    assert dict(run.stats.global_loads) == {128: 4}
    assert dict(run.stats.global_stores) == {128: 1}


def test_simulated_copy_round_trips_random_bits() -> None:
    """The 128-bit run moves each f16 to its own place (not only the right set of bytes)."""
    ptx = P.compile_kernel(_copy_ttgir(SPAN_LAYOUT), emit="ptx")
    from ltc.lowering.ptxsim.run import simulate_ptx

    src = np.arange(1024, dtype=np.uint16)
    dst = np.zeros(1024, dtype=np.uint16)
    simulate_ptx(ptx, (1, 1, 1), [src, dst])
    assert np.array_equal(dst, src)


def _layout(registers: list[list[int]], lanes: list[list[int]]):  # noqa: ANN202
    from ltc.linear_layout import LinearLayout

    return LinearLayout.from_bases(
        {"register": registers, "lane": lanes, "warp": [], "block": []}, {"dim0": 32, "dim1": 2}
    )


def test_run_proof_on_linear_layouts() -> None:
    """``run_is_contiguous`` / ``run_alignment`` on [32, 2] f16 offsets 2r + c (strides 4, 2
    bytes, 16-byte aligned base)."""
    from ltc.lowering.llvm.memory import run_alignment, run_is_contiguous
    from ltc.passes.strides import Strides

    s = Strides((4, 2), 16)
    rows = [[4, 0], [8, 0], [16, 0]]
    # registers: col, row, row+2 ; lanes: rows 4, 8, 16 (and a column-free lane)
    blocked = _layout([[0, 1], [1, 0], [2, 0]], [*rows, [0, 0], [0, 0]])
    assert run_is_contiguous(blocked, s, 8, 2)
    assert run_alignment(blocked, s, 8) == 16  # the first row of a run is a multiple of 4
    # lane basis 6 = 4 ⊕ 2 shares bit 1 with register basis [2, 0]: lane 0 set gives rows
    # 6, 7, 4, 5 for registers 0..7 — no 8-run, but rows (6, 7) and (4, 5) are 4-runs
    tangled = _layout([[0, 1], [1, 0], [2, 0]], [[6, 0], [8, 0], [16, 0], [0, 0], [0, 0]])
    assert not run_is_contiguous(tangled, s, 8, 2)
    assert run_is_contiguous(tangled, s, 4, 2)
    assert run_alignment(tangled, s, 4) == 8  # row 2 or 6: 8 bytes
    # registers in the wrong order (row before column): register 1 is 4 bytes on
    swapped = _layout([[1, 0], [0, 1], [2, 0]], [*rows, [0, 0], [0, 0]])
    assert not run_is_contiguous(swapped, s, 2, 2)
    # a broadcast register inside the run is no step at all
    broadcast = _layout([[0, 1], [0, 0], [1, 0]], [[2, 0], *rows, [0, 0]])
    assert run_is_contiguous(broadcast, s, 2, 2)
    assert not run_is_contiguous(broadcast, s, 4, 2)
