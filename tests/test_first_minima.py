"""The objective's first minimum, searched once (``layout_engine.FirstMinima``).

``ltc-assign-layouts`` lays a kernel out with the ``objective`` strategy and, on a copy of
the same input, with ``objective-work`` (the objective's first minimum, before the
refinement), and keeps the cheaper. Both searches start alike, so the second run takes the
first run's minimum instead of searching again. These tests check that taking it changes
nothing: the copy laid out with the memo prints exactly as one laid out by its own search,
and a memo that does not fit the function (other values) is ignored.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.context import Context

from ltc.passes.layout_engine import FirstMinima, LayoutEngine
from ltc.passes.layout_strategies import lay_out
from ltc.tools.pipeline import module_text, parse_module, run_pipeline

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "triton"


def _converted(name: str, warps: int = 4):
    m = parse_module((EXAMPLES / f"{name}.ttir").read_text(), name)
    return run_pipeline(m, f"convert-triton-to-tritongpu{{num-warps={warps} target=cuda:90}}")


@pytest.mark.parametrize("name", ["attention_fwd", "layer_norm", "softmax", "scan_gather_misc", "transpose"])
def test_the_first_minimum_taken_equals_the_one_searched(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = Context(allow_unregistered=True)
    memo = FirstMinima()
    lay_out(ctx, _converted(name), span_rows=True, strategy="objective", first_minima=memo)
    assert memo.choices, "the objective run keeps its first minimum"
    searched = _converted(name)
    lay_out(ctx, searched, span_rows=True, strategy="objective-work")
    # the run with the memo must not search: the objective's minimize is not called
    import ltc.passes.layout_engine as engine

    def no_search(*args: object, **kwargs: object) -> float:
        raise AssertionError("searched although the memo holds the minimum")

    monkeypatch.setattr(engine, "minimize", no_search)
    taken = _converted(name)
    lay_out(ctx, taken, span_rows=True, strategy="objective-work", first_minima=memo)
    assert module_text(taken) == module_text(searched)


def test_a_memo_of_other_values_is_ignored() -> None:
    memo = FirstMinima()
    m = _converted("softmax")
    func = next(op for op in m.walk() if op.name == "tt.func")
    engine = LayoutEngine(func.body, None, "objective", memo)
    engine.propagate()
    engine.resolve()
    name = func.properties["sym_name"].data
    kept_cands, choice = memo.choices[name]
    taken = memo.take(name, func.body, engine.cands)
    assert taken is not None and set(taken.values()) <= {e for c in kept_cands for e in c}
    memo.choices[name] = (kept_cands[:-1], choice)  # another function's values
    assert memo.take(name, func.body, engine.cands) is None
    with_cands = next(i for i, c in enumerate(kept_cands) if c)
    other = tuple(c[:-1] if i == with_cands else c for i, c in enumerate(kept_cands))
    memo.choices[name] = (other, choice)  # a value with other candidates
    assert memo.take(name, func.body, engine.cands) is None
    memo.choices[name] = (kept_cands, choice)
    assert memo.take("other", func.body, engine.cands) is None
    assert memo.take(name, func.body, engine.cands) == taken
