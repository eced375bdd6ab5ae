"""Helpers for the ttg/ttng dialect tests: wrap op text in a module, parse it with
ltc, print it back, and compare with Triton's own printing.

Test bodies are written with ``tt.func``/``tt.return`` (what Triton reads). ltc
parses them as they are when its ``tt`` dialect defines ``tt.func``; until then
they are parsed as ``func.func``/``func.return`` and printed back under Triton's
names, so the tests of ttg/ttng ops do not depend on the ``tt`` ops.
"""

from __future__ import annotations

import re
from io import StringIO

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer

from ltc.dialects.context import triton_context
from tests.ir_text import normalize

HEADER = """\
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
"""


def module_text(args: str, body: str) -> str:
    """A Triton module with one ``tt.func @f(args)`` holding ``body`` (one op a line)."""
    lines = "".join(f"    {line.strip()}\n" for line in body.strip().splitlines())
    return f"{HEADER}  tt.func @f({args}) {{\n{lines}    tt.return\n  }}\n}}\n"


def _has_tt_func() -> bool:
    try:
        from ltc.dialects.tt import TT
    except Exception:
        return False
    return any(op.name == "tt.func" for op in TT.operations)


def _to_xdsl_names(text: str) -> str:
    if _has_tt_func():
        return text
    return text.replace("tt.func @", "func.func @").replace("tt.return", "func.return")


def _to_triton_names(text: str) -> str:
    return text.replace("func.func @", "tt.func @").replace("func.return", "tt.return")


def parse(text: str) -> ModuleOp:
    """Parse Triton text with ltc and verify it."""
    module = Parser(triton_context(), _to_xdsl_names(text)).parse_module()
    module.verify()
    return module


def parse_unverified(text: str) -> ModuleOp:
    """Parse Triton text with ltc without verifying."""
    return Parser(triton_context(), _to_xdsl_names(text)).parse_module()


def print_ir(op: Operation) -> str:
    """xDSL's printing of ``op``, with Triton's names for the function ops."""
    out = StringIO()
    Printer(stream=out).print_op(op)
    return _to_triton_names(out.getvalue())


def find_ops(module: ModuleOp, name: str) -> list[Operation]:
    return [op for op in module.walk() if op.name == name]


_FUNC_LINE = re.compile(r"^tt\.func\b")


def op_lines(text: str) -> list[str]:
    """Normalised op lines of a module, without the function header (arg names and
    spacing there are the function op's business, not the dialect's)."""
    return [line for line in normalize(text) if not _FUNC_LINE.match(line)]


def named_values(module: Operation) -> dict[str, SSAValue]:
    """Every block argument and op result of ``module`` that has a name hint (``%x`` in
    the text), by that name (the first one where a name repeats)."""
    out: dict[str, SSAValue] = {}
    for op in module.walk():
        for region in op.regions:
            for block in region.blocks:
                for a in block.args:
                    if a.name_hint:
                        out.setdefault(a.name_hint, a)
        for r in op.results:
            if r.name_hint:
                out.setdefault(r.name_hint, r)
    return out
