"""``benchmarks/fuzz_ir.py``: mutated IR never breaks ``ltc-opt``'s contract.

The main test runs a few hundred mutants of the bundled IR (and Triton's suite when
present) through ``ltc-opt`` in its three modes (plain, layout pipeline, ``--emit
ptx``), for a fixed run seed and for one taken from today's date (so CI explores a
little more every day; the seed is printed on failure and ``python
benchmarks/fuzz_ir.py --seed S --n N --only I`` replays a mutant). It asserts no
traceback, no exit status 3, no hang, no dead worker and no ``-o`` file written on
error. Triton's acceptance of ltc's output is checked by the fuzzer itself, not here
(it is slower and its findings are verifier gaps, listed by the fuzzer's runs).

The other tests show that the fuzzer's checks can fail: a driver that raises, returns
3, writes ``-o`` on error or hangs is reported as such.
"""

from __future__ import annotations

import datetime
import io
import os
import random
import sys

import pytest

# Top-level import: xdsl installs a package named ``benchmarks`` that shadows the folder.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks"))
import fuzz_ir as fz  # noqa: E402

CONTRACT = ("traceback", "exit3", "hang", "crash", "o_written")
MUTANTS_PER_SEED = 250


def _date_seed() -> int:
    return int(datetime.date.today().strftime("%Y%m%d"))


def _contract_breaches(report: fz.FuzzReport) -> list[fz.Failure]:
    return [f for key, f in sorted(report.failures.items()) if key[1] in CONTRACT]


@pytest.mark.parametrize("run_seed", [20240607, _date_seed()], ids=["fixed", "date"])
def test_mutants_keep_the_contract(run_seed: int) -> None:
    cfg = fz.FuzzConfig(n=MUTANTS_PER_SEED, seed=run_seed, jobs=2, timeout=20.0, check_triton_every=0,
                        seed_pass=False)
    report = fz.fuzz(cfg)
    assert report.mutants == MUTANTS_PER_SEED
    runs = sum(report.counts.values())
    assert runs >= 2 * MUTANTS_PER_SEED  # plain and ptx for every mutant, layout for TTIR ones
    bad = _contract_breaches(report)
    detail = "\n\n".join(
        f"{' | '.join(f.key)} [{f.hits} hits]\nreplay: python benchmarks/fuzz_ir.py --seed {run_seed} "
        f"--n {MUTANTS_PER_SEED} --only {f.mutant.index} --no-seed-pass\n"
        f"command: {fz.command_line(f.mode)}\n{f.message}"
        for f in bad
    )
    table = report.table(tuple(fz.MODES))
    assert not bad, f"run seed {run_seed}: {len(bad)} contract breaches\n{table}\n\n{detail}"


# ----------------------------------------------------------------- the fuzzer itself
def test_mutants_are_a_function_of_seed_and_index() -> None:
    seeds = fz.load_seeds()
    pool = fz.Pool.of(seeds)
    a = [fz.make_mutant(3, i, seeds, pool).data for i in range(20)]
    b = [fz.make_mutant(3, i, seeds, pool).data for i in range(20)]
    c = [fz.make_mutant(4, i, seeds, pool).data for i in range(20)]
    assert a == b
    assert a != c
    assert len(set(a)) == 20


def test_seeds_drop_comment_lines_and_split_chunks() -> None:
    seeds = [s for s in fz.load_seeds() if s.name.startswith("filecheck:tests/filecheck/dialects/tt_invalid.mlir#")]
    with open(os.path.join(fz.ROOT, "tests", "filecheck", "dialects", "tt_invalid.mlir")) as f:
        chunks = fz._SPLIT.split(f.read())
    assert len(seeds) == sum(1 for c in chunks if fz._COMMENT_LINE.sub("", c).strip())
    assert all("// CHECK" not in s.text and "// RUN" not in s.text for s in seeds)


TEXT = (
    "#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n"
    'module attributes {"ttg.num-warps" = 4 : i32} {\n'
    "  tt.func @f(%a: tensor<128xf32, #blocked>, %b: tensor<128xf32, #blocked>) {\n"
    "    %c = arith.addf %a, %b : tensor<128xf32, #blocked>\n"
    "    tt.return\n"
    "  }\n"
    "}\n"
)
POOL = fz.Pool(layouts=("#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>",),
               ops=("arith.mulf", "arith.addf"), lines=("  %z = arith.constant 0 : i32",))


@pytest.mark.parametrize("name", sorted(fz.MUTATIONS))
def test_every_mutation_changes_the_text(name: str) -> None:
    changed = 0
    for k in range(10):
        new = fz.MUTATIONS[name](TEXT, random.Random(k), POOL)
        changed += new is not None and new != TEXT
    assert changed >= 7, name


def test_type_swap_everywhere_is_consistent() -> None:
    outs = {fz._m_type_swap(TEXT, random.Random(k), POOL) for k in range(40)}
    swapped_all = [o for o in outs if o and "f32" not in o]
    assert swapped_all, "no mutant swapped every f32"
    assert all(o.count("tensor<128x") == 3 for o in swapped_all)


# ----------------------------------------------------------------- the checks can fail
def _case(monkeypatch: pytest.MonkeyPatch, tmp_path: object, fake: object) -> fz.RunResult:
    from ltc.tools import opt

    monkeypatch.setattr(opt, "run", fake)
    return fz.run_case(TEXT.encode(), "plain", str(tmp_path), None, 30.0)


def test_an_escaping_exception_is_a_traceback(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    def fake(argv: list[str], stdin: io.StringIO, stdout: io.StringIO, stderr: io.StringIO) -> int:
        return {}["missing"]

    r = _case(monkeypatch, tmp_path, fake)
    assert r.outcome == "traceback"
    assert r.key is not None and r.key[:3] == ("plain", "traceback", "KeyError")
    assert "KeyError: 'missing'" in r.message


def test_exit_3_and_o_written_on_error(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    def three(argv: list[str], stdin: io.StringIO, stdout: io.StringIO, stderr: io.StringIO) -> int:
        stderr.write("ltc-opt: internal error: KeyError: 'x'\n")
        return 3

    def writes(argv: list[str], stdin: io.StringIO, stdout: io.StringIO, stderr: io.StringIO) -> int:
        with open(argv[argv.index("-o") + 1], "w") as f:
            f.write("partial")
        stderr.write("input.mlir:1:1: error: bad\n")
        return 1

    assert _case(monkeypatch, tmp_path, three).outcome == "exit3"
    r = _case(monkeypatch, tmp_path, writes)
    assert (r.outcome, r.key) == ("o_written", ("plain", "o_written", "exit 1"))


def test_plain_ok_returns_the_printed_output(tmp_path: object) -> None:
    r = fz.run_case(TEXT.encode(), "plain", str(tmp_path), None, 30.0)
    assert (r.outcome, r.rc, r.key) == ("ok", 0, None)
    assert r.output is not None and "arith.addf %a, %b : tensor<128xf32, #blocked>" in r.output
    bad = fz.run_case(TEXT.replace("%b :", "%zz :").encode(), "plain", str(tmp_path), None, 30.0)
    assert (bad.outcome, bad.rc, bad.output) == ("rejected", 1, None)


def test_a_run_past_the_timeout_is_a_hang_and_the_pool_recovers() -> None:
    with open(os.path.join(fz.ROOT, "examples", "triton", "attention_fwd.ttgir"), "rb") as f:
        big = f.read()
    with fz.WorkerPool(1, 0.001) as pool:
        results = [r for _, r in pool.map(iter([(0, big, "ptx"), (1, big, "ptx")]))]
    assert [r.outcome for r in results] == ["hang", "hang"]
    assert results[0].key is not None and results[0].key[:2] == ("ptx", "hang")
    with fz.WorkerPool(1, 30.0) as pool:
        ((_, r),) = list(pool.map(iter([(0, TEXT.encode(), "plain")])))
    assert r.outcome == "ok"
