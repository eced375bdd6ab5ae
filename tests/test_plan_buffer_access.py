"""Plans for storing into and loading from a shared buffer of a given layout
(``lowering.plans.buffer_access``), run for every thread against the layouts themselves:
every element lands at the offset the buffer's layout gives it, every register is loaded
with its own element, accesses are as wide as the vector set allows."""

from __future__ import annotations

import numpy as np
import pytest

from ltc import f2, to_linear_layout
from ltc.linear_layout import LinearLayout
from ltc.lowering.plans.buffer_access import plan_buffer_access
from ltc.lowering.plans.plan import Move, PlanError, SharedLoad, SharedStore
from tests.random_layouts import FAMILIES, random_layout_pair


def _flat_elements(layout: LinearLayout, in_dim: str, fixed: dict[str, int]) -> list[int]:
    """Flat tensor index (first out dim lowest) of every value of ``in_dim``, the others fixed."""
    out = []
    for i in range(layout.in_dim_size(in_dim)):
        coords = layout.apply({**fixed, in_dim: i})
        flat, shift = 0, 0
        for d, size in layout.out_dims.items():
            flat |= coords[d] << shift
            shift += size.bit_length() - 1
        out.append(flat)
    return out


def _buffer_elements(buffer: LinearLayout) -> np.ndarray:
    return np.array(_flat_elements(buffer, "offset", {"block": 0} if buffer.has_in_dim("block") else {}))


def _threads(dist: LinearLayout):
    for w in range(dist.in_dim_size("warp")):
        for lane in range(dist.in_dim_size("lane")):
            yield lane, w


def _check_store(dist: LinearLayout, buffer: LinearLayout, bits: int) -> None:
    plan = plan_buffer_access(dist, buffer, bits, store=True)
    want = _buffer_elements(buffer)
    memory = np.full(len(want), -1, dtype=np.int64)
    ebytes = bits // 8
    for lane, w in _threads(dist):
        held = _flat_elements(dist, "register", {"lane": lane, "warp": w, "block": 0})
        for ins in plan.instructions:
            assert isinstance(ins, SharedStore)
            addr = ins.address(lane, w)
            assert addr % (ebytes * len(ins.src)) == 0  # vector accesses are aligned
            for j, r in enumerate(ins.src):
                slot = addr // ebytes + j
                assert memory[slot] in (-1, held[r.index])  # duplicates write the same element
                memory[slot] = held[r.index]
    np.testing.assert_array_equal(memory, want)


def _check_load(dist: LinearLayout, buffer: LinearLayout, bits: int) -> None:
    plan = plan_buffer_access(dist, buffer, bits, store=False)
    memory = _buffer_elements(buffer)
    ebytes = bits // 8
    for lane, w in _threads(dist):
        want = _flat_elements(dist, "register", {"lane": lane, "warp": w, "block": 0})
        regs: dict[int, int] = {}
        for ins in plan.instructions:
            if isinstance(ins, Move):
                regs[ins.dst.index] = regs[ins.src.index]
                continue
            assert isinstance(ins, SharedLoad)
            addr = ins.address(lane, w)
            assert addr % (ebytes * len(ins.dst)) == 0
            for j, r in enumerate(ins.dst):
                regs[r.index] = int(memory[addr // ebytes + j])
        assert [regs[r] for r in range(len(want))] == want


def _random_buffer(rng: np.random.Generator, out_dims: dict[str, int]) -> LinearLayout:
    """A random bijection from offsets onto the tensor (an invertible F2 matrix)."""
    n = sum(s.bit_length() - 1 for s in out_dims.values())
    while True:
        cols = [int(rng.integers(1, 1 << n)) for _ in range(n)]
        if f2.rank(cols) == n:
            break
    bases = []
    for c in cols:
        coords, shift = [], 0
        for size in out_dims.values():
            coords.append(c >> shift & (size - 1))
            shift += size.bit_length() - 1
        bases.append(coords)
    return LinearLayout.from_bases({"offset": bases}, out_dims)


@pytest.mark.parametrize("seed", range(40))
def test_random_layouts_store_and_load_every_element_in_place(seed: int) -> None:
    rng = np.random.default_rng(seed)
    pair = random_layout_pair(rng, FAMILIES[seed % len(FAMILIES)])
    bits = max(8, pair.element_bits)
    buffer = _random_buffer(rng, dict(pair.src.out_dims))
    _check_store(pair.src, buffer, bits)
    _check_load(pair.dst, buffer, bits)


_BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>"


@pytest.mark.parametrize(
    ("shared", "bits", "vector"),
    [
        # unswizzled row-major: a thread's 4 consecutive columns are one st.shared.v4.b32
        ("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>", 32, 2),
        # swizzle in groups of 4: still 4 consecutive offsets per thread
        ("#ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>", 32, 2),
        # column-major buffer: a thread's columns are 64 elements apart: scalar accesses
        ("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>", 32, 0),
        # swizzle by 2 in a row of 16-bit elements: pairs stay together
        ("#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>", 16, 1),
    ],
)
def test_triton_shared_encodings(shared: str, bits: int, vector: int) -> None:
    shape = (64, 32)
    dist = to_linear_layout(_BLOCKED, shape)
    buffer = to_linear_layout(shared, shape)
    for store in (True, False):
        plan = plan_buffer_access(dist, buffer, bits, store=store)
        assert plan.vector == vector
        assert plan.accesses == dist.in_dim_size("register") >> vector
    _check_store(dist, buffer, bits)
    _check_load(dist, buffer, bits)


def test_a_buffer_of_another_shape_is_refused() -> None:
    dist = to_linear_layout(_BLOCKED, (64, 32))
    buffer = to_linear_layout("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>", (32, 64))
    with pytest.raises(PlanError, match="shape"):
        plan_buffer_access(dist, buffer, 32, store=True)


def _flat(coords: dict[str, int], dims: dict[str, int]) -> int:
    flat, shift = 0, 0
    for d, size in dims.items():
        flat |= coords[d] << shift
        shift += size.bit_length() - 1
    return flat


@pytest.mark.parametrize("seed", range(30))
def test_a_tile_at_an_aligned_origin_lands_where_the_buffer_puts_it(seed: int) -> None:
    from tests.random_layouts import random_linear_layout

    rng = np.random.default_rng(100 + seed)
    full = {"dim0": 1 << int(rng.integers(2, 6)), "dim1": 1 << int(rng.integers(2, 6))}
    tile = {d: max(1, s >> int(rng.integers(0, 3))) for d, s in full.items()}
    origin = [int(rng.integers(0, full[d] // tile[d])) * tile[d] for d in full]
    warps = 1 << int(rng.integers(0, 3))
    dist = random_linear_layout(rng, tile, warps)
    buffer = _random_buffer(rng, full)
    bits = [8, 16, 32, 64][seed % 4]
    ebytes = bits // 8
    where = {}  # buffer offset of every full-shape flat index
    for off in range(buffer.in_dim_size("offset")):
        where[_flat(buffer.apply({"offset": off}), full)] = off
    for store in (True, False):
        plan = plan_buffer_access(dist, buffer, bits, store=store, origin=origin)
        for lane, w in _threads(dist):
            for ins in plan.instructions:
                if isinstance(ins, Move):
                    continue
                regs = ins.src if store else ins.dst
                addr = ins.address(lane, w)
                assert addr % (ebytes * len(regs)) == 0
                for j, r in enumerate(regs):
                    c = dist.apply({"register": r.index, "lane": lane, "warp": w, "block": 0})
                    at = {d: c[d] + o for d, o in zip(full, origin)}
                    assert addr // ebytes + j == where[_flat(at, full)]


def test_an_unaligned_origin_is_refused() -> None:
    dist = to_linear_layout(_BLOCKED, (64, 32))
    buffer = to_linear_layout("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>", (64, 64))
    assert plan_buffer_access(dist, buffer, 32, store=True, origin=(0, 32)).vector == 2
    with pytest.raises(PlanError, match="aligned"):
        plan_buffer_access(dist, buffer, 32, store=True, origin=(0, 16))
