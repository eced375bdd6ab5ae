"""The architecture, checked from the import statements of every module of the package.

Layers, bottom to top (a module may import its own layer and the ones below, never above):

0. core — ``ltc`` (linear layouts, F2 kernels, encodings) and ``ltc.lowering.plans``
   (conversion planning: pure F2 math), numpy only;
1. ``ltc.dialects`` — the xDSL dialects, reader, printer, verifier;
2. ``ltc.passes`` — analyses and layout passes;
3. ``ltc.lowering.llvm``, ``ltc.lowering.emit``, ``ltc.lowering.ptxsim``;
4. ``ltc.tools``, the ``ltc.pipeline`` façade and ``ltc.triton`` (ltc as Triton's layout
   stage) — the drivers.

Every ``import`` statement counts, including those inside functions (a lazy import is
still a dependency, and a cycle hidden by one is still a cycle); only imports under
``if TYPE_CHECKING:`` are left out, as they never run. The modules are found from the
package-dir mapping of pyproject.toml, so a new module is checked without editing this
file.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

LAYER_OF_PREFIX: dict[str, int] = {
    # module prefix -> rank; the longest matching prefix decides
    "ltc": 0,
    "ltc.lowering": 0,  # the package docstring; its sub-packages are ranked below
    "ltc.lowering.plans": 0,
    "ltc.dialects": 1,
    "ltc.passes": 2,
    "ltc.lowering.llvm": 3,
    "ltc.lowering.emit": 3,
    "ltc.lowering.ptxsim": 3,
    "ltc.tools": 4,
    "ltc.pipeline": 4,
    "ltc.triton": 4,
}
LAYER_NAMES = {0: "core + lowering/plans", 1: "dialects", 2: "passes", 3: "lowering", 4: "tools"}

# Upward imports that are the public API by design, each with its reason.
PUBLIC_FACADES: dict[tuple[str, str], str] = {
    ("ltc", "ltc.lowering.ptxsim.run"): "ltc.simulate_ptx, loaded on first use (import ltc stays numpy-only)",
}

# Third-party packages the bottom layer may import (everything else there is the stdlib).
CORE_THIRD_PARTY = {"numpy"}
THIRD_PARTY_ELSEWHERE = {"numpy", "xdsl", "lark"}
TRITON_HOST = "ltc.triton"
"""The one module that imports triton (lazily, inside functions; the ``triton`` extra)."""


def _modules() -> dict[str, Path]:
    """Module name -> file, for every .py file of the installed packages."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    package_dirs: dict[str, str] = config["package-dir"]
    modules: dict[str, Path] = {}
    for package, folder in package_dirs.items():
        base = ROOT / folder
        for path in base.rglob("*.py"):
            rel = path.relative_to(base).with_suffix("")
            parts = [] if rel.parts == ("__init__",) else list(rel.parts)
            if parts and parts[-1] == "__init__":
                parts.pop()
            modules[".".join([package, *parts])] = path
    return modules


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of ``tree`` except those guarded by ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _imports(module: str, path: Path) -> tuple[set[str], set[str]]:
    """(modules of ours ``module`` imports, top-level third-party/stdlib names it imports)."""
    ours: set[str] = set()
    others: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in _import_nodes(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # `from pkg import sub` imports the module pkg.sub; `from mod import name` imports mod
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        for target in targets:
            if target.split(".")[0] == "ltc":
                while target not in MODULES and "." in target:
                    target = target.rpartition(".")[0]
                ours.add(target)
            else:
                others.add(target.split(".")[0])
    ours.discard(module)
    return ours, others


GRAPH: dict[str, set[str]] = {}
THIRD_PARTY: dict[str, set[str]] = {}
for _name, _path in sorted(MODULES.items()):
    GRAPH[_name], THIRD_PARTY[_name] = _imports(_name, _path)


def _rank(module: str) -> int:
    best = max((p for p in LAYER_OF_PREFIX if module == p or module.startswith(p + ".")), key=len)
    return LAYER_OF_PREFIX[best]


RANK = {m: _rank(m) for m in MODULES}


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm (iterative): the components with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return components


def test_the_walk_sees_every_layer() -> None:
    # guards against a mapping change that silently empties the graph
    ranks = set(RANK.values())
    assert ranks == set(LAYER_NAMES), ranks
    assert "ltc.lowering.plans.convert" in MODULES and "ltc.tools.opt" in MODULES
    assert "ltc.lowering.plans.plan" in GRAPH["ltc.lowering.plans.convert"]


def test_no_import_cycle_among_files() -> None:
    cycles = _strongly_connected(GRAPH)
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_no_import_points_up_the_layers() -> None:
    upward = [
        f"{m} ({LAYER_NAMES[RANK[m]]}) imports {t} ({LAYER_NAMES[RANK[t]]})"
        for m, targets in GRAPH.items()
        for t in sorted(targets)
        if RANK[t] > RANK[m] and (m, t) not in PUBLIC_FACADES
    ]
    assert not upward, "\n".join(upward)


def test_public_facades_are_still_needed() -> None:
    # an allowance that no longer matches an import is stale: remove it
    assert all(t in GRAPH[m] for m, t in PUBLIC_FACADES), PUBLIC_FACADES


def test_core_and_plans_import_numpy_only() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    bad = {
        m: sorted(names - stdlib - CORE_THIRD_PARTY)
        for m, names in THIRD_PARTY.items()
        if RANK[m] == 0 and names - stdlib - CORE_THIRD_PARTY
    }
    assert not bad, bad


def test_no_module_imports_triton() -> None:
    # triton is the tests' oracle; at runtime nothing of ltc needs it
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    bad = {
        m: sorted(n - stdlib - THIRD_PARTY_ELSEWHERE)
        for m, n in THIRD_PARTY.items()
        if n - stdlib - THIRD_PARTY_ELSEWHERE - ({"triton"} if m == TRITON_HOST else set())
    }
    assert not bad, bad


# ltc-layout and ltc-layout convert need the core and the plans only (numpy)
LAYOUT_DRIVERS = [
    "ltc.tools.layout_cli",
    "ltc.tools.convert_cli",
    "ltc.tools.layout_input",
    "ltc.tools.layout_view",
    "ltc.tools.diagnostics",
]


@pytest.mark.parametrize("group", ["core + lowering/plans", "ltc-layout drivers"])
def test_numpy_only_modules_load_no_xdsl(group: str) -> None:
    """Importing (and using) them pulls in no xDSL, lark or triton."""
    names = LAYOUT_DRIVERS if group == "ltc-layout drivers" else sorted(m for m in MODULES if RANK[m] == 0)
    code = (
        f"import importlib, sys, ltc\nfor m in {names!r}: importlib.import_module(m)\n"
        "ltc.to_linear_layout('#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
        "warpsPerCTA = [4], order = [0]}>', [128])\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('xdsl', 'lark', 'triton'))\n"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_triton_host_imports_triton_only_when_used() -> None:
    code = "import sys, ltc.triton\nprint(sorted(m for m in sys.modules if m.split('.')[0] == 'triton'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
