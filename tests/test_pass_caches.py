"""The layout passes' speed-ups keep their results (issue 16): the verifier's verdict
kept per op signature still rejects an op that differs, a dense constant retyped by its
bytes equals one rebuilt from its values, and a canonicalization that reports a settled
module has nothing left to do."""

from __future__ import annotations

import math
import struct

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, f32, i1, i32

import ltc.tools.pipeline as P
from ltc.encodings.blocked import BlockedEncoding
from ltc.passes.layout_ir import _retyped_dense, _same_bytes, with_layout
from ltc.passes.remove_layout_conversions import canonicalize_module

RANGE = """module {{
  tt.func public @k(%p: !tt.ptr<i32>) {{
    %r = tt.make_range {{end = {end} : i32, start = 0 : i32}} : tensor<128xi32>
    %s = tt.splat %p : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>>
    %a = tt.addptr %s, %r : tensor<128x!tt.ptr<i32>>, tensor<128xi32>
    tt.store %a, %r : tensor<128x!tt.ptr<i32>>
    tt.return
  }}
}}
"""


def test_verdict_kept_per_signature_still_rejects_another_op() -> None:
    P.parse_module(RANGE.format(end=128))  # passes: its ops' signatures are kept
    P.parse_module(RANGE.format(end=128))
    with pytest.raises(P.PipelineError, match="number of elements in returned tensor"):
        P.parse_module(RANGE.format(end=64))  # same op class and types, other attribute


def test_verdict_kept_after_layout_passes() -> None:
    spec = "convert-triton-to-tritongpu{num-warps=4 target=cuda:90},ltc-assign-layouts"
    first = P.module_text(P.run_pipeline(P.parse_module(RANGE.format(end=128)), spec))
    again = P.module_text(P.run_pipeline(P.parse_module(RANGE.format(end=128)), spec))
    assert first == again


def _blocked(t: TensorType) -> TensorType:
    return with_layout(t, BlockedEncoding((1,), (32,), (4,), (0,)))  # type: ignore[return-value]


@pytest.mark.parametrize(
    "values, element",
    [([1.5] * 128, f32), ([0.0, -0.0] * 64, f32), (list(range(-64, 64)), i32), ([1, 0, 0, 1] * 32, i1)],
)
def test_retyped_dense_is_from_list(values: list, element: object) -> None:
    t = TensorType(element, [128])  # type: ignore[arg-type]
    attr = DenseIntOrFPElementsAttr.from_list(t, values)
    new = _blocked(t)
    assert _same_bytes(attr, new)
    assert _retyped_dense(attr, new) == DenseIntOrFPElementsAttr.from_list(new, list(attr.get_values()))


def test_nan_constants_are_rebuilt_from_values() -> None:
    t = TensorType(f32, [128])
    attr = DenseIntOrFPElementsAttr.from_list(t, [math.nan] * 128)
    new = _blocked(t)
    assert not _same_bytes(attr, new)  # a NaN's payload may change in a round trip
    assert _retyped_dense(attr, new) == DenseIntOrFPElementsAttr.from_list(new, list(attr.get_values()))
    assert struct.unpack("<f", _retyped_dense(attr, new).data.data[:4])[0] != 0.0


def test_settled_canonicalization_has_nothing_left() -> None:
    text = RANGE.format(end=128)
    module = P.parse_module(text)
    P.run_pipeline(module, "convert-triton-to-tritongpu{num-warps=4 target=cuda:90},ltc-assign-layouts")
    ctx = Context(allow_unregistered=True)
    settled = canonicalize_module(ctx, module)
    before = P.module_text(module)
    if settled:
        canonicalize_module(ctx, module)  # a full run on a settled module changes nothing
        assert P.module_text(module) == before
