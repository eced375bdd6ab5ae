"""The PTX simulator's race check for shared memory (``ptxsim.races``).

The simulator runs a CTA in lockstep, so a missing barrier gives the right values here.
The check counts the bytes two warps touch in one barrier interval where one of them
writes. ltc's transposing conversion (through shared memory, with barriers) has none;
the same PTX with its ``bar.sync`` lines removed has some, although the values it copies
are still right in lockstep. Hand-written kernels pin each kind: read after write, write
after read, and write after write (the same value twice is no race).
"""

from __future__ import annotations

import numpy as np
import pytest

from ltc import simulate_ptx
from ltc.tools.pipeline import compile_kernel
from tests.test_lower_convert_select import _convert_kernel

_ROWS = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>"
_COLS = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>"


def _copy(ptx: str) -> tuple[bool, int, str]:
    src = np.random.default_rng(3).integers(0, 1 << 16, 64 * 64, dtype=np.uint16)
    dst = ~src
    stats = simulate_ptx(ptx, (1, 1, 1), [src, dst])
    return bool(np.array_equal(src, dst)), stats.shared_races, stats.first_shared_race


def test_a_conversion_through_shared_memory_has_no_race() -> None:
    ptx = compile_kernel(_convert_kernel(_ROWS, _COLS, (64, 64), "f16", 4), emit="ptx")
    assert "bar.sync" in ptx and ("st.shared" in ptx or "stmatrix" in ptx)
    assert _copy(ptx) == (True, 0, "")


def test_the_same_conversion_without_its_barriers_races() -> None:
    ptx = compile_kernel(_convert_kernel(_ROWS, _COLS, (64, 64), "f16", 4), emit="ptx")
    unsynced = "\n".join(line for line in ptx.splitlines() if "bar.sync" not in line)
    ok, races, first = _copy(unsynced)
    assert ok  # lockstep still copies right: only the race check sees it
    assert races > 0 and "read after another warp's write" in first


def _kernel(body: str) -> str:
    """Two warps; ``%r1`` = tid.x, ``%r2`` = warp index, ``%r9`` = the smem base."""
    return f""".version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
.reqntid 64
{{
    .shared .align 4 .b8 smem[256];
    .reg .b32 %r<16>;
    .reg .b64 %rd<4>;
    .reg .pred %p<4>;
    mov.u32 %r1, %tid.x;
    shr.u32 %r2, %r1, 5;
    mov.u32 %r9, smem;
    and.b32 %r3, %r1, 31;
    shl.b32 %r4, %r3, 2;
    add.u32 %r5, %r9, %r4;
{body}
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r7;
    ret;
}}
"""


_CASES = {
    # warp 0 writes word i, warp 1 reads it: needs a barrier between
    "raw": ("    setp.eq.u32 %p1, %r2, 0;\n    @%p1 st.shared.u32 [%r5], %r1;\n"
            "    mov.u32 %r7, 0;\n    @!%p1 ld.shared.u32 %r7, [%r5];\n", 32 * 4, "read after"),
    "raw, synchronized": ("    setp.eq.u32 %p1, %r2, 0;\n    @%p1 st.shared.u32 [%r5], %r1;\n    bar.sync 0;\n"
                          "    mov.u32 %r7, 0;\n    @!%p1 ld.shared.u32 %r7, [%r5];\n", 0, ""),
    # warp 1 reads word i, then warp 0 overwrites it
    "war": ("    setp.eq.u32 %p1, %r2, 0;\n    mov.u32 %r7, 0;\n    @!%p1 ld.shared.u32 %r7, [%r5];\n"
            "    @%p1 st.shared.u32 [%r5], %r1;\n", 32 * 4, "write after"),
    # both warps write word i: different values race, the same value does not (per byte:
    # tid.x = i and 32 + i differ in the low byte only)
    "waw": ("    st.shared.u32 [%r5], %r1;\n    mov.u32 %r7, 0;\n", 32, "overwritten"),
    "waw, same value": ("    st.shared.u32 [%r5], %r3;\n    mov.u32 %r7, 0;\n", 0, ""),
    # one warp's own write then read: ordered by the warp
    "own": ("    setp.eq.u32 %p1, %r2, 0;\n    @%p1 st.shared.u32 [%r5], %r1;\n"
            "    mov.u32 %r7, 0;\n    @%p1 ld.shared.u32 %r7, [%r5];\n", 0, ""),
}


@pytest.mark.parametrize("case", list(_CASES))
def test_each_kind_of_race_is_counted_per_byte(case: str) -> None:
    body, races, kind = _CASES[case]
    stats = simulate_ptx(_kernel(body), (1, 1, 1), [np.zeros(64, np.uint32)])
    assert stats.shared_races == races
    assert kind in stats.first_shared_race and (races == 0) == (stats.first_shared_race == "")
