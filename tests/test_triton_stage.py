"""``ltc.triton``: ltc as the layout stage of Triton 3.9 (issue 18), on the CPU.

Kernels of ``examples/triton/gen_ir.py`` are compiled by ``triton.compile`` to cubin with
ltc installed; the hook really lays them out (a spy counts), the cache key changes,
``strict`` raises or falls back with one log line, and ``uninstall`` restores Triton's hook.
``install("codegen")`` puts ltc's PTX into the cubin (Triton's ptxas assembles it; ltc's
PTX simulator runs it with Triton's arguments), and ``asm["ltc-report"]`` holds the
conversion report.
"""

from __future__ import annotations

import json
import logging
import re
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

    def counting(mod, text, options, capability, **kw):  # noqa: ANN001, ANN003, ANN202
        calls.append(lt._kernel_name(text))
        return real(mod, text, options, capability, **kw)

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
    # as many source positions in the PTX's line info as Triton's own (every one, where no
    # two ops of one position merge differently)
    lines = [set(re.findall(r"\.loc\s+\d+ (\d+ \d+)", c.asm["ptx"])) for c in (plain, ours)]
    assert len(lines[1]) == len(lines[0])
    # attention_fwd: one instruction computes the column index of both ``off_n`` (line 91)
    # and ``off_d[None, :]`` (line 93); Triton's line info names the latter, ltc's the former
    if name != "attention_fwd":
        assert lines[1] == lines[0]


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


@pytest.mark.parametrize("capability", [90, 80])
@pytest.mark.parametrize("name", ["vector_add", "softmax"])
def test_codegen_puts_ltc_ptx_into_the_cubin(
    spy: list[str], name: str, capability: int, caplog  # noqa: ANN001
) -> None:
    with caplog.at_level(logging.WARNING, logger="ltc.triton"), lt.install("codegen", strict=True):
        ours = _compile(name, capability)
        key, _ = triton.knobs.runtime.add_stages_inspection_hook()
    assert key.endswith("-codegen-strict") and spy == [name]
    assert not [r for r in caplog.records if r.name == "ltc.triton"]
    ptx = ours.asm["ptx"]
    assert ptx.startswith("//\n// Generated by ltc") and f".target sm_{capability}\n" in ptx
    assert ours.asm["cubin"] and name.encode() in ours.asm["cubin"]  # Triton's make_cubin ran ptxas
    assert ours.metadata.name == name
    plain = _compile(name, capability)  # Triton's own: same parameters, in the same order
    entry = r"\.entry \w+\(([^)]*)\)"
    assert len(re.search(entry, ptx)[1].split(",")) == len(re.search(entry, plain.asm["ptx"])[1].split(","))
    # the launcher's dynamic shared memory: ltc's scratch is a static array up to 48 KiB
    assert ours.metadata.shared == 0 and ".extern .shared" not in ptx
    assert json.loads(ours.asm["ltc-report"]) == []  # no conversions left in these


def test_codegen_ptx_runs_in_the_simulator_with_triton_arguments() -> None:
    import numpy as np

    from ltc import simulate_ptx

    with lt.install("codegen", strict=True):
        ptx = _compile("vector_add").asm["ptx"]
    rng = np.random.default_rng(0)
    n = 2500  # not a multiple of the block: the mask matters
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    simulate_ptx(ptx, grid=(3, 1, 1), args=[x, y, out, n, None, None])  # + global / profile scratch
    np.testing.assert_array_equal(out, x + y)


def test_codegen_falls_back_to_triton_ptx_with_one_line(spy: list[str], caplog) -> None:  # noqa: ANN001
    with caplog.at_level(logging.WARNING, logger="ltc.triton"), lt.install("codegen"):
        compiled = _compile("matmul")
    lines = [r.getMessage() for r in caplog.records if r.name == "ltc.triton"]
    assert len(lines) == 1 and re.match(r"ltc: matmul: codegen: '[\w.]+' is not supported", lines[0]), lines
    assert "Generated by ltc" not in compiled.asm["ptx"] and compiled.asm["cubin"]
    assert spy == ["matmul"]  # ltc's layouts all the same
    with lt.install("codegen", strict=True), pytest.raises(lt.LtcStageError, match=r"^ltc: matmul: codegen: "):
        _compile("matmul")


def test_ltc_report_is_the_conversion_report_json(spy: list[str]) -> None:
    from ltc.passes.conversion_report import JSON_KEYS

    with lt.install("layouts", strict=True):
        compiled = _compile("matmul")
    report = json.loads(compiled.asm["ltc-report"])
    assert report and all(set(e) == set(JSON_KEYS) for e in report)
    assert all(e["src"] != e["dst"] for e in report)
    assert compiled.asm["cubin"] and "ttg.num-warps" in compiled.asm["ttgir"]  # the stages after it are unchanged
    with lt.install(strict=False):  # ltc does not lay it out: null
        assert json.loads(_compile("softmax", capability=100).asm["ltc-report"]) is None
