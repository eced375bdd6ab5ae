"""``ltc.triton``: ltc as the layout stage of Triton 3.9 (issue 18), on the CPU.

Kernels of ``examples/triton/gen_ir.py`` are compiled by ``triton.compile`` to cubin with
ltc installed; the hook really lays them out (a spy counts), the cache key changes,
``strict`` raises or falls back with one log line, and ``uninstall`` restores Triton's hook.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest

triton = pytest.importorskip("triton", reason="ltc.triton drives Triton 3.9")

import ltc.triton as lt  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "triton"
sys.path.insert(0, str(EXAMPLES))


def _compile(name: str, capability: int = 90):  # noqa: ANN202
    import gen_ir
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import ASTSource

    _, fn, signature, constexprs, options = {k[0]: k for k in gen_ir.KERNELS}[name]
    sig = dict(signature, **{k: "constexpr" for k in constexprs})
    src = ASTSource(fn=fn, signature=sig, constexprs=constexprs, attrs=gen_ir.ATTRS.get(name))
    with triton.knobs.compilation.scope():
        triton.knobs.compilation.always_compile = True
        return triton.compile(src, target=GPUTarget("cuda", capability, 32), options=options)


@pytest.fixture
def spy(monkeypatch):  # noqa: ANN001, ANN201
    calls: list[str] = []
    real = lt._lay_out

    def counting(mod, text, options, capability):  # noqa: ANN001, ANN202
        calls.append(lt._kernel_name(text))
        return real(mod, text, options, capability)

    monkeypatch.setattr(lt, "_lay_out", counting)
    yield calls
    lt.uninstall()


@pytest.mark.parametrize("name", ["softmax", "layer_norm", "matmul", "attention_fwd"])
def test_kernels_compile_to_cubin_with_ltc_layouts(spy: list[str], name: str) -> None:
    plain = _compile(name)
    with lt.install("layouts", strict=True):
        ours = _compile(name)
    assert spy == [name]
    assert ours.asm["cubin"] and ours.hash != plain.hash  # its own cache entry
    assert ours.asm["ttgir"].count("ttg.convert_layout") <= plain.asm["ttgir"].count("ttg.convert_layout")


def test_strict_raises_and_lenient_falls_back_with_one_line(spy: list[str], caplog) -> None:  # noqa: ANN001
    with lt.install(strict=True), pytest.raises(lt.LtcStageError, match=r"^ltc: softmax: capability 100 "):
        _compile("softmax", capability=100)
    with caplog.at_level(logging.WARNING, logger="ltc.triton"), lt.install(strict=False):
        compiled = _compile("softmax", capability=100)
    assert compiled.asm["cubin"]
    lines = [r.getMessage() for r in caplog.records if r.name == "ltc.triton"]
    assert len(lines) == 1 and lines[0].startswith("ltc: softmax: capability 100")
    assert spy == []  # refused before ltc ran


def test_uninstall_restores_the_hook_that_was_there() -> None:
    seen: list[int] = []

    def theirs(*args):  # noqa: ANN002, ANN202
        if not args:
            return "theirs", "0"
        seen.append(len(args))
        return None

    triton.knobs.runtime.add_stages_inspection_hook = theirs
    try:
        with lt.install():
            assert triton.knobs.runtime.add_stages_inspection_hook is not theirs
            key, _ = triton.knobs.runtime.add_stages_inspection_hook()
            assert key.startswith("ltc-") and key.endswith("-layouts")
            _compile("vector_add")
            assert seen == [5]  # the user's hook still sees the stages
        assert triton.knobs.runtime.add_stages_inspection_hook is theirs
    finally:
        triton.knobs.runtime.add_stages_inspection_hook = None
    lt.uninstall()  # a second uninstall is a no-op
    assert triton.knobs.runtime.add_stages_inspection_hook is None
