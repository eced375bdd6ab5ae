"""The layout pipeline must not change what a kernel computes.

Each example .ttir runs through ``convert-triton-to-tritongpu`` + ``ltc-assign-layouts``
for num_warps 1, 2, 4, 8 and targets sm_80, sm_90; the interpreter runs the IR before
and after on the same seeded inputs. Layouts carry no values and the interpreter folds
reductions in one fixed order, so the outputs must be bitwise identical.
"""

from __future__ import annotations

import numpy as np
import pytest

import ltc.tools.pipeline as P
from tests.test_interpret import CASES, EXAMPLES, run_case

SEED = 2


@pytest.fixture(scope="module")
def reference_outputs() -> dict[str, list[np.ndarray]]:
    """Outputs of each kernel's .ttir (computed once per kernel, on demand)."""
    return {}


def _outputs_before(name: str, cache: dict[str, list[np.ndarray]]) -> list[np.ndarray]:
    if name not in cache:
        case = CASES[name]
        args = run_case(case, P.parse_module((EXAMPLES / f"{name}.ttir").read_text(), f"{name}.ttir"), SEED)
        cache[name] = [np.array(args[i]) for i in case.outputs]
    return cache[name]


@pytest.mark.parametrize("target", ["cuda:80", "cuda:90"])
@pytest.mark.parametrize("num_warps", [1, 2, 4, 8])
@pytest.mark.parametrize("name", list(CASES))
def test_layout_pipeline_preserves_kernel_outputs(
    name: str, num_warps: int, target: str, reference_outputs: dict[str, list[np.ndarray]]
) -> None:
    text = (EXAMPLES / f"{name}.ttir").read_text()
    spec = f"convert-triton-to-tritongpu{{num-warps={num_warps} target={target}}},ltc-assign-layouts"
    after_text = P.compile(text, spec, f"{name}.ttir")
    assert f'"ttg.num-warps" = {num_warps} : i32' in after_text
    assert f'ttg.target = "{target}"' in after_text

    case = CASES[name]
    after = run_case(case, P.parse_module(after_text, f"{name} after {spec}"), SEED)
    for expected, i in zip(_outputs_before(name, reference_outputs), case.outputs, strict=True):
        actual = after[i]
        assert actual.dtype == expected.dtype and actual.shape == expected.shape
        differ = np.flatnonzero(actual.view(np.uint8).reshape(-1) != expected.view(np.uint8).reshape(-1))
        assert not len(differ), (
            f"output argument {i} differs after the pipeline in {len(differ)} bytes "
            f"(first at flat byte {differ[0]})"
        )
