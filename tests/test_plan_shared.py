"""Shared-memory conversion plans (lowering/plans/shared.py), run by the simulator.

The facts checked:

* exact plans, instruction by instruction, for a one-warp 32×4 f32 transpose
  (``st.shared.v4`` + 4 × ``ld.shared.b32``, and ``stmatrix.x4`` + ``ld.shared.v4``);
* exact instruction counts, barriers and scratch bytes for 64×64, 4-warp hand
  cases — blocked transposes in f16/f32/i8/i64, blocked ↔ mma v2, mma v3 →
  blocked through ``stmatrix``, dot-operand loads through ``ldmatrix`` (and
  ``.trans``), each derived in a comment — all exact and conflict-free;
* target and option gates (no ``stmatrix`` below sm_90, none at all without
  matrix instructions); barriers (warp-local vs CTA); broadcast on both sides;
  cross-CTA conversions refused;
* on ≥150 random pairs (1–8 warps, 8–64-bit, broadcast): exact, wavefronts at
  the lower bound whenever ``conflict_free_reachable``, instruction counts as
  the swizzled layout predicts, plain vectors as wide as the shared registers.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ltc import f2, to_linear_layout
from ltc.linear_layout import LinearLayout
from ltc.lowering.plans.broadcast import strip_register_broadcast
from ltc.lowering.plans.plan import Barrier, MatrixLoad, MatrixStore, Move, PlanError
from ltc.lowering.plans.shared import plan_shared_memory, repacked_words
from ltc.lowering.plans.simulate import simulate
from ltc.lowering.plans.swizzle import conflict_free_reachable, optimal_swizzling
from tests.random_layouts import random_layout_pair

MMA2 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>"
MMA3 = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>"
ROWS = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
COLS = "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>"
LANE_ROWS = "#ttg.blocked<{sizePerThread = [2, 8], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>"
DOT_A = "#ttg.dot_op<{opIdx = 0, parent = " + MMA2 + ", kWidth = 2}>"
SMALL_ROWS = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>"
SMALL_COLS = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [0, 1]}>"


def L(text: str, shape=(64, 64)) -> LinearLayout:
    return to_linear_layout(text, list(shape))


def run(src: LinearLayout, dst: LinearLayout, bits: int, **kw):
    plan = plan_shared_memory(src, dst, bits, **kw)
    report = simulate(plan)
    assert report.exact, (report.first_mismatch, report.errors)
    assert report.wavefronts == report.wavefront_lower_bound
    assert plan.kind == "shared" and plan.algorithm == "optimal swizzling"
    return plan, report


def counts(plan) -> tuple:
    c = plan.counts
    return (c.shared_stores_by_bits, c.shared_loads_by_bits, c.stmatrix, c.ldmatrix, c.barriers, c.warp_syncs)


class Test_exact_plans:
    # src: lane t holds row t (4 f32 along dim1); dst: thread (r, c) holds rows
    # 4r..4r+3 of column c = lane >> 3. No shared register; src's (0,1), (0,2)
    # are dst lanes 3, 4, so they extend the vector: src stores its row with one
    # 128-bit access. Offsets: (0,1), (0,2) | bank (1,0), (2,0), (4,0) |
    # segment (9,0), (18,0) = src lane ⊕ dst lane pairs (8,0)⊕(1,0), (16,0)⊕(2,0).
    def test_transpose_with_ld_st(self):
        plan, report = run(L(SMALL_ROWS, (32, 4)), L(SMALL_COLS, (32, 4)), 32, matrix_instructions=False)
        assert str(plan).splitlines() == [
            "kind: shared (optimal swizzling)",
            "note: vector: [[0, 1], [0, 2]]",
            "note: bank: [[1, 0], [2, 0], [4, 0]]",
            "note: segment: [[9, 0], [18, 0]]",
            "note: reps: [] (1 round(s))",
            "note: store: st.shared 128-bit: 1 per thread, 4 phase(s) each, 1 wavefront(s) per phase",
            "note: load: ld.shared 32-bit: 4 per thread, 1 phase(s) each, 1 wavefront(s) per phase",
            "note: conflicts per phase: store 0, load 0",
            "round 0: store:",
            # lane 8 = row 8 = (9,0)⊕(1,0): element 32 + 4, byte 0x90.
            "  st.shared [lane0*0x10 ^ lane1*0x20 ^ lane2*0x40 ^ lane3*0x90 ^ lane4*0x120], {src[0], src[1], src[2], src[3]}",
            "round 0: barrier:",
            "  bar.warp.sync -1",
            "round 0: load:",
            "  ld.shared {dst[0]}, [lane0*0x40 ^ lane1*0x90 ^ lane2*0x120 ^ lane3*0x4 ^ lane4*0x8]",
            "  ld.shared {dst[1]}, [0x10 ^ lane0*0x40 ^ lane1*0x90 ^ lane2*0x120 ^ lane3*0x4 ^ lane4*0x8]",
            "  ld.shared {dst[2]}, [0x20 ^ lane0*0x40 ^ lane1*0x90 ^ lane2*0x120 ^ lane3*0x4 ^ lane4*0x8]",
            "  ld.shared {dst[3]}, [0x30 ^ lane0*0x40 ^ lane1*0x90 ^ lane2*0x120 ^ lane3*0x4 ^ lane4*0x8]",
        ]
        assert plan.scratch_bytes == 32 * 4 * 4
        assert report.wavefronts == 4 + 4  # one 128-bit store (4 phases), four 32-bit loads

    def test_transpose_with_stmatrix(self):
        # stmatrix's row is src lanes 0, 1 = (1,0), (2,0), dst registers: dst
        # loads 128 bits. Matrix m = column m (src registers (0,1), (0,2) select):
        # element (i, j) sits at offset i + 32·j, row j of matrix m at 16·j + 128·m.
        plan, _ = run(L(SMALL_ROWS, (32, 4)), L(SMALL_COLS, (32, 4)), 32)
        body = [line for line in str(plan).splitlines() if not line.startswith("note")]
        assert body == [
            "kind: shared (optimal swizzling)",
            "round 0: store:",
            "  stmatrix.x4 [lane0*0x10 ^ lane1*0x20 ^ lane2*0x40 ^ lane3*0x80 ^ lane4*0x100], {src[0], src[1], src[2], src[3]}",
            "round 0: barrier:",
            "  bar.warp.sync -1",
            "round 0: load:",
            "  ld.shared {dst[0], dst[1], dst[2], dst[3]}, [lane0*0x10 ^ lane1*0x20 ^ lane2*0x40 ^ lane3*0x80 ^ lane4*0x100]",
        ]


    def test_blocked_to_mma_v2_instructions(self):
        # Offsets: (0,1),(0,2),(0,4) | (0,8),(0,16),(0,32) | (8,0),(16,0),(32,0),
        # (1,8),(2,16),(4,32); f16, so byte = 2·offset. ROWS lane 3 = (1,0) =
        # (1,8)⊕(0,8): offset 512 + 8, byte 0x410; warp 0 = (4,0) = (4,32)⊕(0,32):
        # byte 0x1040; registers (16,0), (32,0): 0x100, 0x200. ldmatrix: lanes
        # 0-2 give rows = mma lanes 2-4 = (1,0),(2,0),(4,0); lanes 3, 4 pick the
        # matrix = mma registers (8,0), (0,8) (bytes 0x80, 0x10); the constants
        # are mma registers (0,16), (0,32): 0x20, 0x40.
        plan, _ = run(L(ROWS), L(MMA2), 16)
        st = "lane0*0x10 ^ lane1*0x20 ^ lane2*0x40 ^ lane3*0x410 ^ lane4*0x820 ^ warp0*0x1040 ^ warp1*0x80"
        ld = "lane0*0x410 ^ lane1*0x820 ^ lane2*0x1040 ^ lane3*0x80 ^ lane4*0x10 ^ warp0*0x100 ^ warp1*0x200"

        def regs(f, i):
            return "{" + ", ".join(f"{f}[{j}]" for j in range(8 * i, 8 * i + 8)) + "}"

        assert [line for line in str(plan).splitlines() if not line.startswith("note")] == [
            "kind: shared (optimal swizzling)",
            "round 0: store:",
            *(f"  st.shared [{c}{st}], {regs('src', i)}" for i, c in enumerate(["", "0x100 ^ ", "0x200 ^ ", "0x300 ^ "])),
            "round 0: barrier:",
            "  bar.sync 0",
            "round 0: load:",
            *(f"  ldmatrix.x4 {regs('dst', i)}, [{c}{ld}]" for i, c in enumerate(["", "0x20 ^ ", "0x40 ^ ", "0x60 ^ "])),
        ]


class Test_hand_counts:
    # ROWS: registers (0,1),(0,2),(0,4),(16,0),(32,0), lanes (0,8),(0,16),(0,32),
    # (1,0),(2,0), warps (4,0),(8,0); COLS: registers (1,0),(2,0),(4,0),(0,16),
    # (0,32), lanes (8,0),(16,0),(32,0),(0,1),(0,2), warps (0,4),(0,8). 32
    # elements per thread, no shared register.
    def test_transpose_f16_uses_stmatrix_trans(self):
        # Two plans of 8 instructions and 128 wavefronts: st.shared + ldmatrix.x4.trans
        # (its .trans row = COLS lanes 2-4 = (32,0), (0,1), (0,2), so every stored word
        # pairs src[r] with src[r+16]: 16 words repacked) and stmatrix.x4.trans, whose
        # rows are ROWS's consecutive registers (the words as loaded), + 4 × 128-bit
        # loads of COLS's consecutive registers. The second needs no repacking.
        plan, report = run(L(ROWS), L(COLS), 16)
        assert counts(plan) == ((), ((128, 4),), 4, 0, 1, 0)
        assert repacked_words(plan) == 0
        assert plan.scratch_bytes == 64 * 64 * 2
        assert report.wavefronts == 2 * 4 * 4 * 4  # 4 warps × 4 instructions × 4 phases, twice
        assert all(i.trans for i in plan.instructions if isinstance(i, MatrixStore))

    def test_transpose_f32(self):
        # Vector (0,1), (0,2) (ROWS registers, COLS lanes 3, 4): 8 × 128-bit
        # stores; COLS loads its 32 elements one by one.
        plan, _ = run(L(ROWS), L(COLS), 32)
        assert counts(plan) == (((128, 8),), ((32, 32),), 0, 0, 1, 0)
        assert plan.scratch_bytes == 64 * 64 * 4

    def test_transpose_i8(self):
        # st.shared fills its word with (0,4) (a COLS warp) and (0,1); then (0,2),
        # (16,0) — COLS lanes — make 16 bytes: 2 stores of 8 repacked words. Two
        # stmatrix.x4 (rows of byte pairs = consecutive registers) store the same
        # 32 bytes as loaded, in as many instructions; COLS loads bytes either way.
        plan, _ = run(L(ROWS), L(COLS), 8)
        assert counts(plan) == ((), ((8, 32),), 2, 0, 1, 0)
        assert repacked_words(plan) == 0
        assert plan.scratch_bytes == 64 * 64

    def test_transpose_i64(self):
        # 128 bits is two i64: (0,1), a lane of COLS's 16-lane phase.
        plan, _ = run(L(ROWS), L(COLS), 64)
        assert counts(plan) == (((128, 16),), ((64, 32),), 0, 0, 1, 0)
        assert plan.scratch_bytes == 64 * 64 * 8

    def test_blocked_to_mma_v2(self):
        # ldmatrix row: shared (0,1), mma lanes 0, 1 = (0,2), (0,4): ROWS registers.
        plan, _ = run(L(ROWS), L(MMA2), 16)
        assert counts(plan) == (((128, 4),), (), 0, 4, 1, 0)
        assert plan.scratch_bytes == 8192

    def test_blocked_to_mma_v2_without_matrix_instructions(self):
        # mma loads its 32-bit pairs: 16 loads of the vector set (0,1).
        plan, _ = run(L(ROWS), L(MMA2), 16, matrix_instructions=False)
        assert counts(plan) == (((128, 4),), ((32, 16),), 0, 0, 1, 0)

    def test_mma_v2_to_blocked(self):
        # Ties between stmatrix + ld.v4 and st.v4 + ldmatrix (8 instructions,
        # same wavefronts, one round) go to the plain store.
        plan, _ = run(L(MMA2), L(ROWS), 16)
        assert counts(plan) == (((128, 4),), (), 0, 4, 1, 0)

    def test_mma_v3_to_blocked_uses_stmatrix(self):
        # mma v3 registers (0,1),(8,0),(0,8),(0,16),(0,32); LANE_ROWS registers
        # (0,1),(0,2),(0,4),(1,0),(0,32), lanes (2,0)…(32,0). stmatrix's row is
        # the shared (0,1) and mma lanes 0, 1 = (0,2), (0,4): LANE_ROWS loads 128
        # bits. ldmatrix would need LANE_ROWS lanes (2,0), (4,0) — mma lanes —
        # in mma's vector. (0,32), shared and outside both bank sets, is a rep.
        plan, _ = run(L(MMA3), L(LANE_ROWS), 16)
        assert counts(plan) == ((), ((128, 4),), 4, 0, 3, 0)
        assert all(i.num == 4 for i in plan.instructions if isinstance(i, MatrixStore))
        assert plan.scratch_bytes == 64 * 64 * 2 // 2
        assert "reps: [[0, 32]] (2 round(s))" in plan.notes

    def test_mma_v3_to_blocked_before_sm90(self):
        # No stmatrix: vector set (0,1), (0,32) extended by (8,0) (a LANE_ROWS
        # lane of its 16-lane phase): 4 × 128-bit stores, 8 × 64-bit loads.
        plan, _ = run(L(MMA3), L(LANE_ROWS), 16, compute_capability=80)
        assert counts(plan) == (((128, 4),), ((64, 8),), 0, 0, 1, 0)

    def test_dot_operand_load_uses_ldmatrix(self):
        # opIdx 0, kWidth 2 is mma v2's register pattern: ldmatrix.x4, not .trans.
        plan, _ = run(L(ROWS), L(DOT_A), 16)
        assert counts(plan) == (((128, 4),), (), 0, 4, 1, 0)
        assert not any(i.trans for i in plan.instructions if isinstance(i, MatrixLoad))

    def test_dot_operand_from_columns_uses_ldmatrix_trans(self):
        # COLS holds columns, the A operand wants row pairs: the .trans row is
        # the operand's lanes 2-4 = (1,0), (2,0), (4,0) — COLS registers, so
        # COLS stores 128 bits; (0,16), (0,32) are registers of both outside
        # both bank sets: reps, 4 rounds (7 barriers) of 2 KiB.
        plan, _ = run(L(COLS), L(DOT_A), 16)
        assert counts(plan) == (((128, 4),), (), 0, 4, 7, 0)
        assert plan.scratch_bytes == 64 * 64 * 2 // 4


class Test_gates_and_barriers:
    def test_ldmatrix_needs_sm80(self):
        plan, _ = run(L(ROWS), L(MMA2), 16, compute_capability=75)
        assert plan.counts.ldmatrix == plan.counts.stmatrix == 0

    def test_no_matrix_instructions_for_64_bit(self):
        plan, _ = run(L(MMA2), L(ROWS), 64)
        assert plan.counts.ldmatrix == plan.counts.stmatrix == 0

    def test_warp_local_exchange_syncs_the_warp(self):
        # Same warp bases, lanes and registers exchanged inside each warp.
        src = L(ROWS)
        dst = LinearLayout.from_bases(
            {"register": [[0, 8], [0, 16], [0, 32], [16, 0], [32, 0]],
             "lane": [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]], "warp": [[4, 0], [8, 0]], "block": []},
            {"dim0": 64, "dim1": 64},
        )
        plan, _ = run(src, dst, 16)
        barriers = [i for i in plan.instructions if isinstance(i, Barrier)]
        assert barriers and all(b.scope == "warp" for b in barriers)

    def test_broadcast_on_both_sides(self):
        # src: warp 1 duplicates warp 0 (zero basis): CTA barrier, stores of the
        # duplicates write the same data. dst: register 2 duplicates register 0,
        # filled by moves after the loads.
        src = L("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>", (16, 16))
        dst = LinearLayout.from_bases(
            {"register": [[1, 0], [0, 0], [2, 0]], "lane": [[4, 0], [8, 0], [0, 1], [0, 2], [0, 4]],
             "warp": [[0, 8], [0, 0]], "block": []},
            {"dim0": 16, "dim1": 16},
        )
        plan, _ = run(src, dst, 32)
        assert counts(plan) == (((128, 1),), ((32, 4),), 0, 0, 1, 0)
        assert plan.steps[-1].instructions == tuple(strip_register_broadcast(dst).restore_moves())
        assert all(isinstance(i, Move) for i in plan.steps[-1].instructions)
        assert plan.scratch_bytes == 16 * 16 * 4

    def test_conversions_across_ctas_are_refused(self):
        def lay(block):
            return LinearLayout.from_bases(
                {"register": [[0, 1]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 2]], "warp": [], "block": [block]},
                {"dim0": 32, "dim1": 4},
            )

        with pytest.raises(PlanError, match="CTAs"):
            plan_shared_memory(lay([16, 0]), LinearLayout.from_bases(
                {"register": [[0, 1]], "lane": [[1, 0], [2, 0], [4, 0], [16, 0], [0, 2]], "warp": [], "block": [[8, 0]]},
                {"dim0": 32, "dim1": 4},
            ), 16)


    def test_conversions_inside_each_cta(self):
        # Two CTAs with the same block basis: each converts its half alone.
        def lay(lanes):
            return LinearLayout.from_bases(
                {"register": [[0, 1]], "lane": lanes, "warp": [], "block": [[16, 0]]}, {"dim0": 32, "dim1": 4}
            )

        plan = plan_shared_memory(lay([[1, 0], [2, 0], [4, 0], [8, 0], [0, 2]]),
                                  lay([[0, 2], [1, 0], [2, 0], [4, 0], [8, 0]]), 16)
        assert plan.scratch_bytes == 16 * 4 * 2  # one CTA's half of the tensor


# ------------------------------------------------------------- properties
seeds = st.integers(min_value=0, max_value=2**63 - 1)


@st.composite
def encoded_pairs(draw):
    """Two Triton encodings (blocked, mma v2/v3, dot operands) of one 2-D tensor."""
    bits = draw(st.sampled_from([8, 16, 32, 64]))
    warps = draw(st.sampled_from([1, 2, 4, 8]))
    shape = [1 << draw(st.integers(4, 7)), 1 << draw(st.integers(4, 7))]

    def split(total: int) -> list[int]:
        a = draw(st.integers(0, total))
        return [1 << a, 1 << (total - a)]

    def encoding() -> str:
        kinds = ["blocked", "mma2", "dot"] + (["mma3"] if warps >= 4 else [])
        kind = draw(st.sampled_from(kinds if bits <= 32 else ["blocked", "mma2"]))
        wpc = split(warps.bit_length() - 1)
        mma2 = f"#ttg.nvidia_mma<{{versionMajor = 2, versionMinor = 0, warpsPerCTA = {wpc}, instrShape = [16, 8]}}>"
        if kind == "blocked":
            spt = [1 << draw(st.integers(0, 3)), 1 << draw(st.integers(0, 3))]
            order = draw(st.sampled_from([[1, 0], [0, 1]]))
            return (f"#ttg.blocked<{{sizePerThread = {spt}, threadsPerWarp = {split(5)}, "
                    f"warpsPerCTA = {wpc}, order = {order}}}>")
        if kind == "mma2":
            return mma2
        if kind == "mma3":
            n = draw(st.sampled_from([8, 16, 32, 64]))
            return (f"#ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, warpsPerCTA = [{warps}, 1], "
                    f"instrShape = [16, {n}, {256 // max(bits, 16)}]}}>")
        k_width = (32 // bits) * draw(st.sampled_from([1, 2]))
        return f"#ttg.dot_op<{{opIdx = {draw(st.integers(0, 1))}, parent = {mma2}, kWidth = {k_width}}}>"

    texts = (encoding(), encoding())
    try:
        src, dst = (to_linear_layout(t, shape) for t in texts)
    except Exception:  # an encoding that does not fit the shape
        assume(False)
    assume(src.in_dim_size("warp") == dst.in_dim_size("warp") == warps)
    return src, dst, bits, f"{shape} {bits}-bit: {texts[0]} -> {texts[1]}"


@settings(max_examples=60, deadline=None)
@given(encoded_pairs())
def test_random_encodings(case):
    """mma and dot-operand layouts (which tests/random_layouts.py cannot yet
    build): exact and conflict-free, ldmatrix/stmatrix included."""
    src, dst, bits, text = case
    plan = plan_shared_memory(src, dst, bits)
    report = simulate(plan)
    assert report.exact, (text, report.first_mismatch, report.errors)
    assert report.wavefronts == report.wavefront_lower_bound, text


def _regs(layout: LinearLayout) -> list[int]:
    flat = strip_register_broadcast(layout).stripped.flatten_outs()
    return list(flat.flat_columns[: flat.in_dim_size_log2("register")])


@settings(max_examples=160, deadline=None)
@given(seeds)
def test_random_pairs(seed):
    """Exact; at the lower bound when reachable; counts as the layout predicts."""
    pair = random_layout_pair(np.random.default_rng(seed))
    plan = plan_shared_memory(pair.src, pair.dst, pair.element_bits)
    report = simulate(plan)
    assert report.exact, (pair.description, report.first_mismatch, report.errors)
    if conflict_free_reachable(pair.src, pair.dst, pair.element_bits):
        assert report.wavefronts == report.wavefront_lower_bound, pair.description
    c = plan.counts
    shared = c.shared_stores + c.shared_loads + c.stmatrix + c.ldmatrix
    plain = optimal_swizzling(pair.src, pair.dst, pair.element_bits)
    # Never more shared instructions than plain ld/st with the same layout rules.
    assert shared <= plain.instructions, pair.description
    rounds = sum(1 for s in plan.steps if s.name.endswith(": store"))
    assert plan.scratch_bytes * rounds <= plan.src_layout.total_out_size * pair.element_bits // 8


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_plain_vectors_are_maximal(seed):
    """Without matrix instructions both sides move at least every shared
    register basis (capped at 128 bits) per access."""
    pair = random_layout_pair(np.random.default_rng(seed), "encoded")
    plan = plan_shared_memory(pair.src, pair.dst, pair.element_bits, matrix_instructions=False)
    shared = len(f2.intersect_spans(_regs(pair.src), _regs(pair.dst)))
    want = 1 << min(shared, (128 // pair.element_bits).bit_length() - 1)
    c = plan.counts
    for by_bits in (c.shared_stores_by_bits, c.shared_loads_by_bits):
        assert min(bits for bits, _ in by_bits) >= want * pair.element_bits, pair.description


def test_mma_to_dot_operand_f16_keeps_source_words() -> None:
    """mma v2 → dot operand (opIdx 1, kWidth 2), 64×64 f16, 4 warps: 128-bit st.shared
    would pair registers (8,0) apart (vector (8,0),(0,8),(0,16), not the register (0,1)
    of each loaded word: 16 prmt), in 2 rounds (3 barriers); stmatrix stores the words
    as they are and ldmatrix.trans hands back the (1,0) pairs the destination holds,
    in 4 rounds of 2 KiB (Triton's plan, 7 barriers) — 16 repacks cost more than 4
    barriers, so that one is chosen."""
    mma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>"
    dot = f"#ttg.dot_op<{{opIdx = 1, parent = {mma}, kWidth = 2}}>"
    src, dst = to_linear_layout(mma, (64, 64)), to_linear_layout(dot, (64, 64))
    plan = plan_shared_memory(src, dst, 16)
    assert (plan.counts.stmatrix, plan.counts.ldmatrix, plan.counts.barriers) == (4, 16, 7)
    assert repacked_words(plan) == 0
    assert plan.scratch_bytes == 2048
    plain = plan_shared_memory(src, dst, 16, matrix_instructions=False)
    assert (plain.counts.shared_stores, plain.counts.shared_loads, plain.counts.barriers) == (4, 16, 3)
    assert repacked_words(plain) == 16
