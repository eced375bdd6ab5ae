"""Static instruction counts of a kernel's PTX and of the SASS ``ptxas`` makes from it.

* :func:`assemble` runs ``ptxas`` on PTX text and returns the cubin; :func:`assemble_verbose`
  also returns what ``ptxas -v`` reports (registers, barriers, static shared memory, spills).
* :func:`sass_text` disassembles a cubin with ``cuobjdump -sass``.
* :func:`sass_counts` counts the SASS instructions by kind (:class:`SassCounts`).
* :func:`ptx_counts` counts the PTX instructions by kind (:class:`PtxCounts`).

Tools are found in this order: the ``PTXAS`` / ``CUOBJDUMP`` environment variables, ``PATH``,
then the ``bin`` folder that the installed ``triton`` package ships (located with
``importlib.util.find_spec``; Triton is not imported).  A missing tool raises
:class:`ToolMissing` (benchmarks print "n/a"); a PTX that ``ptxas`` rejects raises
:class:`AssembleError` with ``ptxas``'s message.

Two normalizations let one ``ptxas`` assemble both ltc's and Triton's PTX:

* ``.version``: Triton's LLVM stamps the newest PTX ISA it knows (9.4 for Triton 3.9), not
  the oldest the kernel needs.  When ``ptxas`` answers "Unsupported .version X; current
  version is 'Y'", the ``.version`` line is rewritten to Y and the PTX assembled again.
* ``.target``: Triton targets ``sm_90a`` (the arch-specific variant of ``sm_90``, the same SM
  and SASS generation); when the PTX's ``.target`` is ``arch + "a"``, ``ptxas`` is given that.

``python benchmarks/sass_stats.py kernel.ptx [--arch sm_90]`` prints both sets of counts.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

# Imported as a top-level module (xdsl installs a package named ``benchmarks``).
_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
from triton_convert import count_ptx, ptx_mnemonics  # noqa: E402

__all__ = [
    "AssembleError",
    "PtxCounts",
    "PtxasUsage",
    "SassCounts",
    "ToolMissing",
    "assemble",
    "assemble_verbose",
    "find_tool",
    "one_statement_per_line",
    "ptx_counts",
    "ptx_global_bits",
    "sass_counts",
    "sass_text",
    "widths_text",
]


class ToolMissing(RuntimeError):
    """``ptxas`` or ``cuobjdump`` is not installed; ``str()`` says which."""


class AssembleError(RuntimeError):
    """``ptxas`` rejected the PTX; ``str()`` is ``ptxas``'s message."""


# --------------------------------------------------------------------------------------
# tools
# --------------------------------------------------------------------------------------
def _triton_bin_dir() -> Path | None:
    spec = importlib.util.find_spec("triton")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "backends" / "nvidia" / "bin"


def find_tool(name: str) -> str:
    """Path of ``name`` (``ptxas`` / ``cuobjdump``): env var ``NAME``, ``PATH``, Triton's bin."""
    env = os.environ.get(name.upper())
    if env:
        if Path(env).is_file():
            return env
        raise ToolMissing(f"{name}: ${name.upper()}={env} is not a file")
    on_path = shutil.which(name)
    if on_path:
        return on_path
    bundled = _triton_bin_dir()
    if bundled is not None and (bundled / name).is_file():
        return str(bundled / name)
    raise ToolMissing(f"{name} not found (set ${name.upper()} or put it on PATH)")


# --------------------------------------------------------------------------------------
# assembling
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PtxasUsage:
    """What ``ptxas -v`` reports for the (first) kernel; ``None`` where it said nothing."""

    registers: int | None
    barriers: int | None
    smem_bytes: int | None
    """Static shared memory only (an ``.extern .shared`` array is dynamic and not counted)."""
    spill_stores: int | None
    spill_loads: int | None
    ptx_version_lowered_from: str | None = None
    """The PTX's original ``.version`` when it had to be lowered for this ``ptxas``."""


_VERSION_LINE = re.compile(r"^(\s*\.version\s+)(\d+\.\d+)", re.M)
_TARGET_LINE = re.compile(r"^\s*\.target\s+(\w+)", re.M)
_UNSUPPORTED_VERSION = re.compile(r"Unsupported \.version (\d+\.\d+); current version is '(\d+\.\d+)'")


def _ptxas_arch(ptx: str, arch: str) -> str:
    m = _TARGET_LINE.search(ptx)
    if m and m.group(1) == arch + "a":
        return m.group(1)
    return arch


def _run_ptxas(ptx: str, arch: str) -> tuple[bytes, str]:
    ptxas = find_tool("ptxas")
    with tempfile.TemporaryDirectory(prefix="ltc-ptxas-") as tmp:
        src, out = Path(tmp) / "kernel.ptx", Path(tmp) / "kernel.cubin"
        src.write_text(ptx)
        proc = subprocess.run(
            [ptxas, f"-arch={arch}", "-v", str(src), "-o", str(out)],
            capture_output=True, text=True, check=False,
        )
        log = (proc.stdout + proc.stderr).replace(str(src), "kernel.ptx")
        if proc.returncode != 0:
            raise AssembleError(log.strip() or f"ptxas exited with status {proc.returncode}")
        return out.read_bytes(), log


def _usage(log: str, lowered_from: str | None) -> PtxasUsage:
    def find(pattern: str) -> int | None:
        m = re.search(pattern, log)
        return int(m.group(1)) if m else None

    return PtxasUsage(
        registers=find(r"Used (\d+) registers"),
        barriers=find(r"used (\d+) barriers"),
        smem_bytes=find(r"(\d+) bytes smem"),
        spill_stores=find(r"(\d+) bytes spill stores"),
        spill_loads=find(r"(\d+) bytes spill loads"),
        ptx_version_lowered_from=lowered_from,
    )


def assemble_verbose(ptx: str, arch: str = "sm_90") -> tuple[bytes, PtxasUsage]:
    """The cubin ``ptxas -arch=ARCH`` makes of ``ptx``, and what ``ptxas -v`` reported.

    See the module doc for the ``.version`` / ``.target`` normalizations.
    """
    arch = _ptxas_arch(ptx, arch)
    try:
        cubin, log = _run_ptxas(ptx, arch)
        return cubin, _usage(log, None)
    except AssembleError as e:
        m = _UNSUPPORTED_VERSION.search(str(e))
        if not m:
            raise
        original, supported = m.group(1), m.group(2)
        cubin, log = _run_ptxas(_VERSION_LINE.sub(lambda v: v.group(1) + supported, ptx, count=1), arch)
        return cubin, _usage(log, original)


def assemble(ptx: str, arch: str = "sm_90") -> bytes:
    """The cubin ``ptxas -arch=ARCH`` makes of ``ptx`` (raises :class:`AssembleError`)."""
    return assemble_verbose(ptx, arch)[0]


def sass_text(cubin: bytes) -> str:
    """``cuobjdump -sass`` of ``cubin``."""
    tool = find_tool("cuobjdump")
    with tempfile.TemporaryDirectory(prefix="ltc-sass-") as tmp:
        path = Path(tmp) / "kernel.cubin"
        path.write_bytes(cubin)
        proc = subprocess.run([tool, "-sass", str(path)], capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"cuobjdump failed: {(proc.stdout + proc.stderr).strip()}")
        return proc.stdout


# --------------------------------------------------------------------------------------
# SASS counting
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SassCounts:
    """Static SASS instruction counts of one kernel.

    ``instructions`` counts every instruction except ``NOP`` (alignment padding) and the
    ``BRA`` to its own address that ends the code (an unreachable self-loop after ``EXIT``).
    Instructions guarded by ``@!PT`` (never executed; ptxas scheduling fillers) are counted in
    ``instructions`` but in no category.  Categories by opcode (the mnemonic before the first
    ``.``, modifiers after it):

    * ``shared``: ``LDS``, ``STS``, ``LDSM``, ``STSM``, ``ATOMS``;
    * ``shuffles``: ``SHFL``;
    * ``barriers``: ``BAR`` (``BAR.SYNC``, ``BAR.SYNC.DEFER_BLOCKING``, ``BAR.ARV`` ...; not
      ``WARPSYNC``);
    * ``global_loads`` / ``global_stores``: ``LDG`` / ``STG`` by access width in bits
      (``.U8``/``.S8`` 8, ``.U16``/``.S16`` 16, ``.64`` 64, ``.128`` 128, otherwise 32), as
      sorted ``(bits, count)`` pairs.
    """

    instructions: int
    shared: int
    shuffles: int
    barriers: int
    global_loads: tuple[tuple[int, int], ...]
    global_stores: tuple[tuple[int, int], ...]


_SASS_LINE = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
_SASS_GUARD = re.compile(r"^@(!?)(U?P\w+)\s+")
_SHARED_OPCODES = frozenset({"LDS", "STS", "LDSM", "STSM", "ATOMS"})
_WIDTH_MODIFIERS = {"U8": 8, "S8": 8, "U16": 16, "S16": 16, "64": 64, "128": 128}


def _sass_width(modifiers: list[str]) -> int:
    for mod in modifiers:
        if mod in _WIDTH_MODIFIERS:
            return _WIDTH_MODIFIERS[mod]
    return 32


def _sorted_pairs(counter: Counter) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(counter.items()))


def sass_counts(sass: str) -> SassCounts:
    """Counts of the instructions in ``cuobjdump -sass`` text (see :class:`SassCounts`)."""
    total = shared = shuffles = barriers = 0
    loads: Counter = Counter()
    stores: Counter = Counter()
    for raw in sass.splitlines():
        m = _SASS_LINE.match(raw)
        if not m:
            continue
        address, text = int(m.group(1), 16), m.group(2)
        guard = _SASS_GUARD.match(text)
        never = bool(guard) and guard.group(1) == "!" and guard.group(2) == "PT"
        if guard:
            text = text[guard.end():]
        fields = text.split(None, 1)
        parts = fields[0].split(".")
        opcode, modifiers = parts[0], parts[1:]
        if opcode == "NOP":
            continue
        if opcode == "BRA" and len(fields) > 1 and _is_self_branch(fields[1], address):
            continue
        total += 1
        if never:
            continue
        if opcode in _SHARED_OPCODES:
            shared += 1
        elif opcode == "SHFL":
            shuffles += 1
        elif opcode == "BAR":
            barriers += 1
        elif opcode == "LDG":
            loads[_sass_width(modifiers)] += 1
        elif opcode == "STG":
            stores[_sass_width(modifiers)] += 1
    return SassCounts(total, shared, shuffles, barriers, _sorted_pairs(loads), _sorted_pairs(stores))


def _is_self_branch(operands: str, address: int) -> bool:
    target = operands.strip().split()[-1].rstrip(";")
    try:
        return int(target, 16) == address
    except ValueError:
        return False


# --------------------------------------------------------------------------------------
# PTX counting
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PtxCounts:
    """Static PTX instruction counts (one per instruction line; no loops are unrolled).

    Shared/matrix/shuffle/barrier counts follow ``triton_convert.count_ptx`` (the Triton side
    of the conversion benchmark).  ``global_loads`` / ``global_stores``: ``ld.global*`` /
    ``st.global*`` by access shape, as sorted ``(shape, count)`` pairs where the shape is
    ``vN.bB`` or ``bB`` (vector length and element bits; ``.u32``/``.f32``/``.s32`` are
    written ``b32``), e.g. ``("v4.b32", 4)``; :func:`ptx_global_bits` gives a shape's bits.
    """

    ld_shared: int
    st_shared: int
    ldmatrix: int
    stmatrix: int
    shfl: int
    bar_sync: int
    global_loads: tuple[tuple[str, int], ...]
    global_stores: tuple[tuple[str, int], ...]


_TYPE_BITS = re.compile(r"^[bsuf](8|16|32|64|128)$")


def _global_shape(mnemonic: str) -> str | None:
    """``"v4.b32"`` for ``ld.global.L1::evict_last.v4.b32``; None when not a global ld/st."""
    parts = mnemonic.split(".")
    if parts[0] not in ("ld", "st") or "global" not in parts[1:]:
        return None
    vec = next((p for p in parts if re.fullmatch(r"v\d+", p)), None)
    bits = next((m.group(1) for p in parts[1:] if (m := _TYPE_BITS.match(p))), None)
    if bits is None:
        raise ValueError(f"no element type in {mnemonic!r}")
    return f"{vec}.b{bits}" if vec else f"b{bits}"


def ptx_global_bits(shape: str) -> int:
    """Bits one ``ld/st.global`` of ``shape`` moves: ``"v4.b32"`` -> 128, ``"b16"`` -> 16."""
    m = re.fullmatch(r"(?:v(\d+)\.)?b(\d+)", shape)
    if not m:
        raise ValueError(f"not a global access shape: {shape!r}")
    return int(m.group(1) or 1) * int(m.group(2))


def one_statement_per_line(ptx: str) -> str:
    """``ptx`` with comments dropped and every ``;``-terminated statement on its own line.

    Inline asm may put several instructions and scope braces on one line
    (``{ .reg .pred %p; setp.ne.b32 %p, %r1, 0; @%p ld.global.b32 %r2, [%rd1]; }``); scope
    braces only open or close a statement, vector operands' braces never start one.
    """
    out = []
    for raw in ptx.splitlines():
        line = raw.split("//", 1)[0]
        for stmt in line.split(";"):
            stmt = stmt.strip().lstrip("{}").strip()
            if stmt:
                out.append(stmt if stmt.endswith(":") else stmt + ";")
    return "\n".join(out)


def ptx_counts(ptx: str) -> PtxCounts:
    """Counts of the instructions in ``ptx`` (see :class:`PtxCounts`)."""
    ptx = one_statement_per_line(ptx)
    base = count_ptx(ptx)
    loads: Counter = Counter()
    stores: Counter = Counter()
    for m in ptx_mnemonics(ptx):
        shape = _global_shape(m)
        if shape is not None:
            (loads if m.startswith("ld.") else stores)[shape] += 1
    return PtxCounts(
        ld_shared=base["ld_shared"],
        st_shared=base["st_shared"],
        ldmatrix=base["ldmatrix"],
        stmatrix=base["stmatrix"],
        shfl=base["shfl"],
        bar_sync=base["bar_sync"],
        global_loads=tuple(sorted(loads.items(), key=lambda kv: (ptx_global_bits(kv[0]), kv[0]))),
        global_stores=tuple(sorted(stores.items(), key=lambda kv: (ptx_global_bits(kv[0]), kv[0]))),
    )


def widths_text(pairs: tuple[tuple[object, int], ...]) -> str:
    """``"4xv4.b32+2xb16"`` / ``"4x128"`` for ``(width, count)`` pairs; ``"-"`` for none."""
    return "+".join(f"{count}x{width}" for width, count in pairs) or "-"


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="PTX and SASS instruction counts of one PTX file")
    parser.add_argument("ptx", help="PTX file")
    parser.add_argument("--arch", default="sm_90", help="ptxas -arch (default sm_90)")
    args = parser.parse_args(argv)
    try:
        text = Path(args.ptx).read_text()
    except OSError as e:
        print(f"error: {e.strerror}: {args.ptx}", file=sys.stderr)
        return 1
    print(ptx_counts(text))
    try:
        cubin, usage = assemble_verbose(text, args.arch)
        print(sass_counts(sass_text(cubin)))
        print(usage)
    except (ToolMissing, AssembleError, RuntimeError) as e:
        print(f"{args.ptx}: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
