"""What the PTX emitter's (ltc.lowering.emit.ptx) PTX computes, in ltc's PTX simulator
(``ltc.lowering.ptxsim.run``; skipped without it), on sm_90 and sm_80.

Elementwise kernels (every cast, compare, integer and float op on edge-case values), a
loop kernel, shuffles, shared memory and the vector add run against the exact references
of ``tests/emit_fixtures.py``; ``tests/test_emit_llvm.py`` runs llc's PTX of the LLVM IR
emitter against the same references.
"""

from __future__ import annotations

import numpy as np
import pytest

from ltc.lowering.emit.ptx import emit_ptx
from tests.emit_fixtures import (
    MODULES,
    SEMANTIC_CASTS,
    check_cast,
    check_compares,
    check_float_arithmetic,
    check_int_arithmetic,
    check_loops,
    check_shuffles,
    check_vector_add,
    loops_kernel,
    needs_simulator,
    parse,
    shuffle_kernel,
)


@needs_simulator
@pytest.mark.parametrize("arch", ["sm_90", "sm_80"])
@pytest.mark.parametrize(("kind", "s", "d"), SEMANTIC_CASTS, ids=[f"{k}-{s}-{d}" for k, s, d in SEMANTIC_CASTS])
def test_cast_semantics(kind: str, s: str, d: str, arch: str) -> None:
    check_cast(lambda text: emit_ptx(parse(text), arch), kind, s, d)


@needs_simulator
@pytest.mark.parametrize("arch", ["sm_90", "sm_80"])
@pytest.mark.parametrize("t", ["i1", "i8", "i32", "i64"])
def test_icmp_semantics(t: str, arch: str) -> None:
    check_compares(lambda text: emit_ptx(parse(text), arch), t)


@needs_simulator
@pytest.mark.parametrize("arch", ["sm_90", "sm_80"])
@pytest.mark.parametrize("t", ["f16", "bf16", "f32", "f64"])
def test_fcmp_semantics(t: str, arch: str) -> None:
    check_compares(lambda text: emit_ptx(parse(text), arch), t)


@needs_simulator
@pytest.mark.parametrize("arch", ["sm_90", "sm_80"])
@pytest.mark.parametrize("t", ["i1", "i8", "i16", "i32", "i64"])
def test_int_arithmetic_semantics(t: str, arch: str) -> None:
    check_int_arithmetic(lambda text: emit_ptx(parse(text), arch), t)


@needs_simulator
@pytest.mark.parametrize("arch", ["sm_90", "sm_80"])
@pytest.mark.parametrize("t", ["f16", "bf16", "f32", "f64"])
def test_float_arithmetic_semantics(t: str, arch: str) -> None:
    check_float_arithmetic(lambda text: emit_ptx(parse(text), arch), t)


@needs_simulator
@pytest.mark.parametrize("arch", ["sm_90", "sm_80"])
def test_vector_add_semantics(arch: str) -> None:
    check_vector_add(emit_ptx(parse(MODULES["vector_add"]), arch))


@needs_simulator
def test_shared_exchange_semantics() -> None:
    from ltc.lowering.ptxsim.parse import parse_ptx
    from ltc.lowering.ptxsim.run import run_kernel

    for name in ("shared_static", "shared_dynamic"):
        out = np.zeros(128, dtype=np.int32)
        stats = run_kernel(parse_ptx(emit_ptx(parse(MODULES[name]), "sm_90")), (1, 1, 1), [out])
        np.testing.assert_array_equal(out, np.arange(128) ^ 1)
        assert stats.barriers == 1


@needs_simulator
@pytest.mark.parametrize("arch", ["sm_90", "sm_80"])
def test_loop_semantics(arch: str) -> None:
    check_loops(emit_ptx(parse(loops_kernel(uniform=True)), arch))


@needs_simulator
@pytest.mark.parametrize("arch", ["sm_90", "sm_80"])
def test_shuffle_semantics(arch: str) -> None:
    check_shuffles(emit_ptx(parse(shuffle_kernel()), arch))
