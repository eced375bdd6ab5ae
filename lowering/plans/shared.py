"""Shared-memory conversion plans: store, barrier, load through an optimally swizzled buffer.

For each candidate pair of lane tiles — ``st.shared`` or ``stmatrix`` (sm_90,
``.trans`` for 16-bit) to store, ``ld.shared`` or ``ldmatrix`` (sm_80,
``.trans`` for 16-bit) to load — :func:`ltc.lowering.plans.swizzle.optimal_swizzling`
gives a shared-memory layout M. A thread's element at hardware position
(r, lane, warp) lives at element offset ``M⁻¹(S(r)) ⊕ M⁻¹(S(lane)) ⊕ M⁻¹(S(warp))``
(M and S linear), so every address is a constant per register group plus a
:class:`ThreadAffine` of lane and warp bits. The plan with the fewest
wavefronts, then the fewest instructions besides the data (shared accesses, two
barriers per round, a ``prmt`` per word that must be repacked before it is
stored: :func:`repacked_words`), then the fewest rounds wins — among those with
no more shared instructions than ``ld/st.shared`` alone, so a matrix instruction
never trades instructions for wavefronts.

Per round (one value of the rep bits): the stores, a barrier, the loads; a
barrier before the next round reuses the buffer. The barriers are
``bar.warp.sync`` when every warp reads only what it wrote (the conversion is
trivial over warps and no two warps hold one element), else ``bar.sync``.
Source duplicates are never stored twice by one thread (broadcast registers are
stripped); destination duplicates are filled by moves at the end.
"""

from __future__ import annotations

from collections.abc import Sequence

from ltc import f2
from ltc.linear_layout import LinearLayout
from ltc.lowering.plans.broadcast import strip_register_broadcast
from ltc.lowering.plans.locality import check_convertible, trivial_over
from ltc.lowering.plans.plan import (
    Barrier,
    ConversionPlan,
    Instruction,
    MatrixLoad,
    MatrixStore,
    PlanError,
    PlanStep,
    Reg,
    SharedLoad,
    SharedStore,
    ThreadAffine,
)
from ltc.lowering.plans.swizzle import (
    MATRIX_TILE,
    MATRIX_TRANS_TILE,
    PLAIN_TILE,
    LaneTile,
    SideAccess,
    SwizzledSmem,
    SwizzleError,
    optimal_swizzling,
    plan_rank,
)

__all__ = ["candidate_tiles", "plan_shared_memory", "repacked_words", "warp_local"]

STMATRIX_MIN_CC = 90
LDMATRIX_MIN_CC = 80


def candidate_tiles(
    element_bits: int, *, store: bool, matrix_instructions: bool, compute_capability: int
) -> list[LaneTile]:
    """The lane tiles one side may use: plain always, matrix ones where the target has them."""
    tiles = [PLAIN_TILE]
    need = STMATRIX_MIN_CC if store else LDMATRIX_MIN_CC
    if matrix_instructions and compute_capability >= need and element_bits <= 32:
        tiles.append(MATRIX_TILE)
        if element_bits == 16:
            tiles.append(MATRIX_TRANS_TILE)
    return tiles


def warp_local(src: LinearLayout, dst: LinearLayout) -> bool:
    """Whether every warp reads back only what it stored: the conversion is trivial
    over warps and the source's warp bases are independent (no warp broadcast)."""
    if not trivial_over(src, dst, ("warp", "block")):
        return False
    cols = strip_register_broadcast(src).stripped.flat_columns_by_in_dim()
    inner = [c for d in ("register", "lane") for c in cols.get(d, ())]
    warps = cols.get("warp", ())
    return f2.rank([*inner, *warps]) == f2.rank(inner) + len(warps)


def plan_shared_memory(
    src: LinearLayout,
    dst: LinearLayout,
    element_bits: int,
    *,
    matrix_instructions: bool = True,
    compute_capability: int = 90,
) -> ConversionPlan:
    """An exact plan converting ``src`` to ``dst`` through shared memory (see the module doc)."""
    check_convertible(src, dst)
    if element_bits not in (8, 16, 32, 64):
        raise PlanError(f"element width {element_bits} bits is not 8, 16, 32 or 64")
    if not trivial_over(src, dst, ("block",)):
        raise PlanError("the conversion moves data between CTAs, which ltc does not plan")
    options = dict(matrix_instructions=matrix_instructions, compute_capability=compute_capability)
    try:
        plain = optimal_swizzling(src, dst, element_bits)
    except SwizzleError as e:
        raise PlanError(str(e)) from e
    best = _plan(src, dst, element_bits, plain)
    best_key = _choice_key(plain, best)
    for ts in candidate_tiles(element_bits, store=True, **options):
        for td in candidate_tiles(element_bits, store=False, **options):
            if ts is PLAIN_TILE and td is PLAIN_TILE:
                continue
            try:
                s = optimal_swizzling(src, dst, element_bits, src_tile=ts, dst_tile=td)
            except SwizzleError:
                continue
            # Matrix instructions only where they need no more instructions than
            # ld/st (which already match or beat Triton's count).
            if s.instructions > plain.instructions:
                continue
            plan = _plan(src, dst, element_bits, s)
            key = _choice_key(s, plan)
            if key < best_key:
                best, best_key = plan, key
    return best


def repacked_words(plan: ConversionPlan) -> int:
    """Stored 32-bit words that are not a source word as is: their sub-word elements are
    not the registers ``k·per .. k·per + per − 1`` in order (per = elements per word), so
    the thread packs them first (a ``prmt`` each). ``stmatrix`` rows of consecutive
    registers need none; a vector set that skips register 1 repacks every word."""
    per = 32 // plan.element_bits
    if per <= 1:
        return 0
    count = 0
    for ins in plan.instructions:
        if isinstance(ins, (SharedStore, MatrixStore)):
            for k in range(0, len(ins.src), per):
                word = ins.src[k : k + per]
                first = word[0].index
                if any(r.file != "src" for r in word) or first % per or any(
                    r.index != first + j for j, r in enumerate(word)
                ):
                    count += 1
    return count


def _choice_key(s: SwizzledSmem, plan: ConversionPlan) -> tuple[int, ...]:
    """How candidates compare: bank conflicts, then wavefronts (``plan_rank``), then the
    per-thread instructions the plan costs besides its data — shared accesses, two
    barriers per round, a ``prmt`` per repacked word — then rounds and scratch."""
    conflicts, wavefronts, instructions, rounds, scratch = plan_rank(s)
    return (conflicts, wavefronts, instructions + 2 * rounds + repacked_words(plan), rounds, scratch)


# ---------------------------------------------------------------- building


def _plan(src: LinearLayout, dst: LinearLayout, element_bits: int, s: SwizzledSmem) -> ConversionPlan:
    scope = "warp" if warp_local(src, dst) else "cta"
    stores = _side(s, s.store, src, "src", element_bits, store=True)
    loads = _side(s, s.load, dst, "dst", element_bits, store=False)
    steps: list[PlanStep] = []
    for r in range(s.rounds):
        if r:
            steps.append(PlanStep(f"round {r}: reuse the buffer", (Barrier(scope),)))
        steps.append(PlanStep(f"round {r}: store", tuple(stores[r])))
        steps.append(PlanStep(f"round {r}: barrier", (Barrier(scope),)))
        steps.append(PlanStep(f"round {r}: load", tuple(loads[r])))
    moves = strip_register_broadcast(dst).restore_moves()
    if moves:
        steps.append(PlanStep("restore broadcast registers", moves))
    return ConversionPlan(
        kind="shared",
        src_layout=src,
        dst_layout=dst,
        element_bits=element_bits,
        steps=tuple(steps),
        scratch_bytes=s.scratch_bytes,
        algorithm="optimal swizzling",
        notes=_notes(s),
    )


def _notes(s: SwizzledSmem) -> tuple[str, ...]:
    def fmt(vs: Sequence[int]) -> str:
        return "[" + ", ".join(str(list(c)) for c in s.coords(vs)) + "]"

    def access(a: SideAccess, verb: str) -> str:
        if a.tile.kind == "plain":
            what = f"{verb}.shared {(s.element_bits << a.vector)}-bit"
        else:
            name = "stmatrix" if verb == "st" else "ldmatrix"
            what = f"{name}.x{a.matrices}" + (".trans" if a.tile.kind == "matrix_trans" else "")
        return (
            f"{what}: {a.instructions} per thread, {a.phases} phase(s) each, "
            f"{a.wavefronts_per_phase} wavefront(s) per phase"
        )

    return (
        f"vector: {fmt(s.vector)}",
        f"bank: {fmt(s.bank)}",
        f"segment: {fmt(s.segment)}",
        f"reps: {fmt(s.reps)} ({s.rounds} round(s))",
        f"store: {access(s.store, 'st')}",
        f"load: {access(s.load, 'ld')}",
        f"conflicts per phase: store {s.store_conflicts}, load {s.load_conflicts}",
    )


def _side(
    s: SwizzledSmem, a: SideAccess, layout: LinearLayout, file: str, element_bits: int, *, store: bool
) -> list[list[Instruction]]:
    """Per round, one side's instructions (ordered by offset)."""
    rb = strip_register_broadcast(layout)
    cols = rb.stripped.flat_columns_by_in_dim()
    regs = cols.get("register", ())
    ebytes = element_bits // 8
    n = len(s.basis)
    round_bits = n - len(s.reps)
    round_mask = (1 << round_bits) - 1

    # Offset of every (stripped) register: linear, so a table by doubling.
    reg_off = f2.span_table(s.offset_of(r) for r in regs)
    index_of = {o: i for i, o in enumerate(reg_off)}

    def byte_affine(constant: int, lane: Sequence[int], warp: Sequence[int]) -> ThreadAffine:
        return ThreadAffine(
            (constant & round_mask) * ebytes,
            tuple((v & round_mask) * ebytes for v in lane),
            tuple((v & round_mask) * ebytes for v in warp),
        )

    lane_off = [s.offset_of(v) if v else 0 for v in cols.get("lane", ())]
    warp_off = [s.offset_of(v) if v else 0 for v in cols.get("warp", ())]

    def reg(offset: int) -> Reg:
        return Reg(file, rb.kept[index_of[offset]])  # type: ignore[arg-type]

    rounds: list[list[Instruction]] = [[] for _ in range(s.rounds)]
    if a.tile.kind == "plain":
        group = f2.rref([1 << j for j in range(a.vector)])
        elements = 1 << a.vector
        for base in sorted({f2.reduce_by(o, group) for o in reg_off}):
            vec = tuple(reg(base | j) for j in range(elements))
            addr = byte_affine(base, lane_off, warp_off)
            rounds[base >> round_bits].append(SharedStore(vec, addr) if store else SharedLoad(vec, addr))
        return rounds

    trans = a.tile.kind == "matrix_trans"
    half = s.offset_of(a.half) if trans else 0
    sel = [s.offset_of(v) for v in a.select]
    k_sub = 0 if trans else a.vector - len(a.tile.lane_contig)
    group = f2.rref([*([1 << j for j in range(k_sub)]), *([half] if trans else []), *sel])
    num = 1 << len(sel)
    row_lanes = [half, lane_off[0], lane_off[1]] if trans else lane_off[2:5]
    select_lanes = sel + [0] * (2 - len(sel))
    for base in sorted({f2.reduce_by(o, group) for o in reg_off}):
        elems: list[Reg] = []
        for m in range(num):
            mo = base
            for b, so in enumerate(sel):
                if m >> b & 1:
                    mo ^= so
            if trans:
                elems += [reg(mo), reg(mo ^ half)]
            else:
                elems += [reg(mo | j) for j in range(1 << k_sub)]
        addr = byte_affine(base, [*row_lanes, *select_lanes], warp_off)
        ins = (MatrixStore if store else MatrixLoad)(tuple(elems), addr, num, trans)  # type: ignore[operator]
        rounds[base >> round_bits].append(ins)
    return rounds
