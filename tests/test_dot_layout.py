"""A ``tt.dot``'s result layout in ``convert-triton-to-tritongpu``: Triton's (a square of up
to 4 x 4 elements a thread, ``encodings.blocked.dot_result_blocked``), checked against
Triton 3.9's own conversion pass on every shape and warp count here, and what it buys an
FMA dot: each operand element a thread loads serves several results."""

from __future__ import annotations

import re

import pytest

from ltc import to_linear_layout
from ltc.dialects.tt import DotOp
from ltc.encodings.blocked import dot_result_blocked
from ltc.tools.pipeline import parse_module, run_pipeline
from tests.oracle import requires_triton

_SHAPES = [(64, 64), (16, 16), (32, 32), (16, 64), (128, 64), (8, 128), (4, 4), (1, 64), (2, 8), (64, 8), (2, 64)]


def _dot_kernel(m: int, n: int, k: int) -> str:
    return (f"module {{\n  tt.func public @k(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>, %c: tensor<{m}x{n}xf32>) "
            f"-> tensor<{m}x{n}xf32> {{\n"
            f"    %d = tt.dot %a, %b, %c : tensor<{m}x{k}xf32> * tensor<{k}x{n}xf32> -> tensor<{m}x{n}xf32>\n"
            f"    tt.return %d : tensor<{m}x{n}xf32>\n  }}\n}}\n")


def _result_layout(text: str) -> str:
    name = re.search(r"tt\.dot .* -> tensor<[^,]*, (#\w+)>", text).group(1)  # type: ignore[union-attr]
    return re.search(rf"^{name} = (.*)$", text, re.M).group(1)  # type: ignore[union-attr]


@requires_triton
@pytest.mark.parametrize("num_warps", [1, 2, 4, 8])
@pytest.mark.parametrize("shape", _SHAPES)
def test_the_dot_layout_is_tritons(shape: tuple[int, int], num_warps: int) -> None:
    from triton._C.libtriton import ir, passes

    from tests.triton_pipeline import _parse, _run, _scratch_file

    with _scratch_file(_dot_kernel(*shape, 16)) as path:
        mod = _parse(path, 80)
        pm = ir.pass_manager(mod.context)
        passes.ttir.add_convert_to_ttgpuir(pm, "cuda:80", num_warps, 32, 1)
        _run(pm, mod, "convert-triton-to-tritongpu")
        triton = _result_layout(str(mod))
    assert dot_result_blocked(shape, num_warps).to_text() == triton
    module = parse_module(_dot_kernel(*shape, 16))
    run_pipeline(module, f"convert-triton-to-tritongpu{{num-warps={num_warps} target=cuda:80}}")
    (dot,) = [op for op in module.walk() if isinstance(op, DotOp)]
    assert dot.results[0].type.encoding.encoding.to_text() == triton  # type: ignore[attr-defined]


@pytest.mark.parametrize(("shape", "side"), [((64, 64), 4), ((32, 32), 2), ((16, 16), 1), ((128, 4), 2), ((128, 2), 1), ((4, 16, 64), 4), ((2, 4, 64), 2)])
def test_each_thread_holds_a_square_of_the_last_two_dims(shape: tuple[int, ...], side: int) -> None:
    enc = dot_result_blocked(shape, 4)
    assert enc.size_per_thread[-2:] == (min(side, shape[-2]), min(side, shape[-1]))
    assert all(s == 1 for s in enc.size_per_thread[:-2])
    # a thread's elements: its square repeated over the tensor
    layout = to_linear_layout(enc, shape)
    assert layout.in_dim_size("register") * 128 >= layout.total_out_size
