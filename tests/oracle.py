"""Triton 3.9.0 as a test oracle for ltc's linear layouts.

This module is used ONLY by tests.  It never imports ``ltc``; Triton is imported
lazily inside functions, so importing this module works without Triton
(``HAVE_TRITON`` is then ``False`` and :data:`requires_triton` skips).

How a layout attribute's *text* reaches Triton
----------------------------------------------
``triton._C.libtriton.ir.parse_mlir_module(path, ctx)`` parses an MLIR *file* (it
takes a path, not a string).  We write a two-line module to a per-process scratch
file (under ``/dev/shm`` when available)::

    module attributes {"ttg.num-ctas" = C : i32, "ttg.num-warps" = W : i32,
                       "ttg.threads-per-warp" = T : i32} {
      tt.func @f(%arg0: tensor<64x64xf16, ATTR>) { tt.return }      # distributed
      tt.func @f(%arg0: !ttg.memdesc<64x64xf16, ATTR, #ttg.shared_memory>) ...  # shared
    }

Parsing runs the attribute verifiers (e.g. "Every element in sizePerThread must be
a power of two") but NOT module-level consistency checks: Triton 3.9 happily parses
a blocked layout whose warpsPerCTA product differs from ``ttg.num-warps``.  Keeping
the case consistent is the caller's job (``layout_cases`` does it).

The block argument is turned into a Gluon layout object with
``GluonOpBuilder.get_gluon_layout_from_tensor`` / ``get_gluon_layout_from_memdesc``,
back into an ``ir.attribute`` with the object's ``_to_ir(builder)`` and finally into
Triton's linear layout with ``GluonOpBuilder.to_linear_layout(attr, shape)`` (which
returns a Gluon ``DistributedLinearLayout`` with ``reg_bases/lane_bases/warp_bases/
block_bases`` or a ``SharedLinearLayout`` with ``offset_bases/block_bases``).  The
Python round trip is checked to be lossless: the re-built attribute must print
exactly like the parsed one (``check_roundtrip=True``).

``#ttg.padded_shared`` is special: ``to_linear_layout`` aborts the process
("padded shared encoding has no linear layout; use paddedLinearLayout instead"), so
for it we return the attribute's *linear component*: the ``offset`` bases of the
Gluon ``PaddedSharedLayout`` object (Triton expands the ``{order, shape}``
shorthand) and the ``block`` bases in element units as printed (the Gluon object
keeps those in CTA-tile units); padding intervals are not part of the returned map.
The memdesc shape must equal the attribute's own shape (the verifier says so).

Triton's printed text of an attribute is ``str(value.get_type())`` of the parsed
block argument (types print attributes inline, never as ``#alias``).

Hazards (Triton 3.9.0 wheel is built with assertions ON)
--------------------------------------------------------
Several misuses abort the *whole interpreter* (SIGABRT, "LLVM ERROR" or a failed
``assert``), which no ``try`` can catch.  Seen so far:

* a non-power-of-two shape in ``to_linear_layout``;
* ``to_linear_layout`` on ``#ttg.padded_shared`` (avoided here, see above);
* ``LinearLayout.apply`` with a partial set of input dims (the wrapper here fills
  missing dims with 0);
* ``LinearLayout.invert`` on a non-invertible layout, ``compose`` with mismatched
  dims or sizes, ``invert_and_compose`` / ``pseudoinvert`` whose outer layout does
  not cover the image, ``from_bases`` of a non-surjective layout unless
  ``require_surjective=False`` (the wrappers check all of these);
* a layout whose rank differs from the shape's (checked here, ``ValueError``);
* several texts that pass or half-pass the parser: non-surjective ``#ttg.linear``
  / ``ctaLayout`` / ``shared_linear`` / ``padded_shared`` bases ("LLVM ERROR:
  Layout is expected to be surjective"), an ``#ttg.amd_wmma`` without a ``warp``
  key or of rank 3 (a parse error *followed by* an abort), swizzled_shared with
  vec/perPhase/maxPhase = 0 (SIGFPE), nvmma_shared with fewer than 8 rows per CTA
  ("Illegal shared layout"), partitioned_shared with numPartitions < 2 or
  partitionDim >= rank, MMA instrShape of the wrong length or with a
  non-power-of-two N, kWidth = 3, tilesPerWarp = 3, 64x4 MFMA not transposed,
  rank-1 MFMA.  ``layout_cases`` documents the constraints it respects.

The module attributes (``ttg.num-warps`` ...) are NOT consulted by either the
parser or ``to_linear_layout``: the number of lane/warp/block bases comes from
the layout alone.

The wrappers below check the cheap preconditions in Python and raise
``ValueError`` instead.  :func:`run_isolated` runs cases in a child process and
survives aborts; use it to probe untrusted inputs.

Verified binding surface (``triton._C.libtriton``, triton 3.9.0)
-----------------------------------------------------------------
``linear_layout.LinearLayout``:

* ``LinearLayout()`` -- the empty layout (``str`` gives ``"\\n(empty layout)"``).
* ``LinearLayout.from_bases(bases: Sequence[tuple[str, Sequence[Sequence[int]]]],
  out_dim_names: Sequence[str], out_dim_sizes: Sequence[int] | None = None,
  require_surjective: bool = True)``; ``out_dim_sizes`` is mandatory when
  ``require_surjective`` is False.
* ``identity_1d(size, inDim, outDim)``, ``strided_1d(size, stride, inDim, outDim)``,
  ``zeros_1d(size, inDim, outDim, outDimSize=1)`` (static).
* ``compose(other)``, ``invert_and_compose(other)``, ``invert()``,
  ``pseudoinvert()``, ``__mul__`` / ``__imul__`` (direct product), ``__eq__``.
* ``apply(inputs: dict[str, int]) -> dict[str, int]`` (all in dims required).
* properties ``bases -> list[(in_dim, [[int,...],...])]``, ``out_dims ->
  list[(out_dim, size)]``, ``num_in_dims``, ``num_out_dims``; methods
  ``get_in_dim_names()``, ``get_out_dim_names()``, ``get_matrix_view() ->
  list[list[int]]`` (rows = out bits, cols = in bits), ``is_injective()``,
  ``is_surjective()``, ``is_invertible()``.
* ``__str__`` -- Triton's ``LinearLayout::toString()`` (leading ``"\\n"``),
  ``get_distributed_view(hardware: bool) -> str``,
  ``get_shared_view(hardware: bool) -> str``.

``gluon_ir.GluonOpBuilder(context, arch='')``: ``to_linear_layout(attr, shape)``,
``get_gluon_layout_from_tensor(value)``, ``get_gluon_layout_from_memdesc(value)``,
``get_distributed_ty(elem_ty, shape, attr)``, ``get_shared_mem_desc_ty(elem_ty,
shape, attr, alloc_shape)`` (prints ``, mutable``), and ``get_*_layout`` attribute
factories (used by Gluon objects' ``_to_ir``).  ``gluon_ir.get_layout_view(layout,
shape, hardware) -> str``; ``gluon_ir.make_cga_layout(ctas_per_cga, cta_split_num,
cta_order) -> list[list[int]]``.

The interpreter prints "nanobind: leaked N instances!" at exit once
``get_gluon_layout_from_tensor`` has been called (Triton-side references held by
module globals).  An ``atexit`` hook registered on first use silences stderr
during interpreter teardown to hide that noise.
"""

from __future__ import annotations

import atexit
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

try:  # pytest is only needed for the marker
    import pytest as _pytest
except ImportError:  # pragma: no cover
    _pytest = None


def _detect_triton() -> tuple[bool, str | None]:
    if importlib.util.find_spec("triton") is None:
        return False, None
    try:
        from importlib.metadata import version

        ver = version("triton")
    except Exception:  # pragma: no cover
        ver = None
    try:
        from triton._C import libtriton  # noqa: F401
    except Exception:  # pragma: no cover
        return False, ver
    return True, ver


HAVE_TRITON, TRITON_VERSION = _detect_triton()
"""Whether ``triton._C.libtriton`` imports, and the installed triton version."""

if _pytest is not None:
    requires_triton = _pytest.mark.skipif(
        not HAVE_TRITON, reason="triton (3.9.0) is not installed; the Triton oracle is unavailable"
    )
else:  # pragma: no cover
    requires_triton = None

SHARED_ENCODINGS: frozenset[str] = frozenset(
    {
        "swizzled_shared",
        "nvmma_shared",
        "padded_shared",
        "shared_linear",
        "partitioned_shared",
        "amd_rotating_shared",
    }
)
"""Encoding names (``#ttg.<name><...>``) that describe memory (``offset, block``)."""

DISTRIBUTED_IN_DIMS: tuple[str, ...] = ("register", "lane", "warp", "block")
SHARED_IN_DIMS: tuple[str, ...] = ("offset", "block")

LayoutDict = dict[str, dict[str, Any]]


class OracleError(RuntimeError):
    """Triton rejected an input; ``diagnostics`` holds MLIR's error text (may be '')."""

    def __init__(self, message: str, diagnostics: str = "") -> None:
        super().__init__(message + (f"\n{diagnostics}" if diagnostics else ""))
        self.diagnostics = diagnostics


def _require_triton() -> None:
    if not HAVE_TRITON:
        raise RuntimeError("triton is not installed; the oracle is unavailable")


# --------------------------------------------------------------------------------------
# cached per-process MLIR state (the only global mutable state in this module)
# --------------------------------------------------------------------------------------
_STATE: dict[str, Any] = {}


def _silence_stderr_at_exit() -> None:
    """Hide nanobind's leak report printed during interpreter teardown."""
    try:
        sys.stderr.flush()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
    except Exception:  # pragma: no cover
        pass


def _state() -> dict[str, Any]:
    if not _STATE:
        _require_triton()
        from triton._C import libtriton as lt

        ctx = lt.ir.context()
        lt.ir.load_dialects(ctx)
        lt.nvidia.load_dialects(ctx)
        lt.amd.load_dialects(ctx)
        builder = lt.gluon_ir.GluonOpBuilder(ctx)
        scratch_dir = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
        fd, path = tempfile.mkstemp(prefix="ltc_oracle_", suffix=".mlir", dir=scratch_dir)
        os.close(fd)
        diag_path = os.environ.get("LTC_ORACLE_DIAG_PATH")  # set by run_isolated for its child
        if not diag_path:
            fd, diag_path = tempfile.mkstemp(prefix="ltc_oracle_", suffix=".diag", dir=scratch_dir)
            os.close(fd)

        owned = (path, diag_path) if diag_path != os.environ.get("LTC_ORACLE_DIAG_PATH") else (path,)

        def _cleanup(paths: tuple[str, ...] = owned) -> None:
            for p in paths:
                try:
                    os.unlink(p)
                except OSError:
                    pass

        atexit.register(_silence_stderr_at_exit)  # runs last (LIFO) ...
        atexit.register(_cleanup)  # ... after the scratch files are removed
        _STATE.update(lt=lt, ctx=ctx, builder=builder, path=path, diag_path=diag_path, cache={})
    return _STATE


# --------------------------------------------------------------------------------------
# attribute text helpers
# --------------------------------------------------------------------------------------
def encoding_name(attr_text: str) -> str:
    """``"#ttg.blocked<{...}>"`` -> ``"blocked"``; raises ValueError on other text."""
    t = attr_text.strip()
    if not t.startswith("#") or "<" not in t:
        raise ValueError(f"not a layout attribute: {attr_text!r}")
    head = t[1:].split("<", 1)[0]
    if "." not in head:
        raise ValueError(f"not a dialect attribute: {attr_text!r}")
    return head.split(".", 1)[1]


def is_shared_encoding(attr_text: str) -> bool:
    """True for memory (shared) layout attributes, which live in ``!ttg.memdesc``."""
    return encoding_name(attr_text) in SHARED_ENCODINGS


def _elem_type_for(attr_text: str) -> str:
    """An element type consistent with the attribute (nvmma's elementBitWidth)."""
    if encoding_name(attr_text) in ("nvmma_shared", "partitioned_shared") and "elementBitWidth = " in attr_text:
        bits = int(attr_text.split("elementBitWidth = ", 1)[1].split("}", 1)[0].split(",", 1)[0])
        return {8: "i8", 16: "f16", 32: "f32", 64: "f64"}.get(bits, "f16")
    return "f16"


def _check_shape(shape: Sequence[int]) -> list[int]:
    s = [int(x) for x in shape]
    if not s or any(x <= 0 or x & (x - 1) for x in s):
        # Triton asserts (aborts) on these inside to_linear_layout.
        raise ValueError(f"shape must be a non-empty list of positive powers of two, got {list(shape)}")
    return s


def module_text(
    attr_text: str,
    shape: Sequence[int],
    *,
    num_warps: int = 4,
    threads_per_warp: int = 32,
    num_ctas: int = 1,
    elem: str | None = None,
) -> str:
    """The tiny TTGIR module the oracle parses for one (attribute, shape) pair."""
    dims = "x".join(str(int(x)) for x in shape)
    elem = elem or _elem_type_for(attr_text)
    if is_shared_encoding(attr_text):
        ty = f"!ttg.memdesc<{dims}x{elem}, {attr_text}, #ttg.shared_memory>"
    else:
        ty = f"tensor<{dims}x{elem}, {attr_text}>"
    return (
        f'module attributes {{"ttg.num-ctas" = {num_ctas} : i32, "ttg.num-warps" = {num_warps} : i32, '
        f'"ttg.threads-per-warp" = {threads_per_warp} : i32}} {{\n'
        f"  tt.func @f(%arg0: {ty}) {{\n    tt.return\n  }}\n}}\n"
    )


def _attr_from_type_text(type_text: str, dims: str, elem: str, shared: bool) -> str:
    if shared:
        prefix = f"!ttg.memdesc<{dims}x{elem}, "
        for suffix in (", #ttg.shared_memory>", ", #ttg.shared_memory, mutable>"):
            if type_text.startswith(prefix) and type_text.endswith(suffix):
                return type_text[len(prefix) : -len(suffix)]
    else:
        prefix = f"tensor<{dims}x{elem}, "
        if type_text.startswith(prefix) and type_text.endswith(">"):
            return type_text[len(prefix) : -1]
    raise OracleError(f"unexpected printed type {type_text!r}")


@dataclass(frozen=True)
class ParsedLayout:
    """A layout attribute as Triton parsed it.

    ``printed``: Triton's printed attribute text; ``gluon``: the Gluon layout object;
    ``attr``: an ``ir.attribute`` equal to the parsed one (rebuilt from ``gluon``).
    """

    printed: str
    gluon: Any
    attr: Any
    shared: bool
    shape: tuple[int, ...]


def _parse_module_text(text: str) -> Any:
    """Parse ``text`` with Triton's MLIR parser; raise OracleError with its diagnostics."""
    st = _state()
    lt, ctx = st["lt"], st["ctx"]
    with open(st["path"], "w") as f:
        f.write(text)
    # MLIR reports diagnostics on fd 2; capture them for the exception message.
    sys.stderr.flush()
    saved = os.dup(2)
    diag_fd = os.open(st["diag_path"], os.O_WRONLY | os.O_TRUNC)
    os.dup2(diag_fd, 2)
    os.close(diag_fd)
    try:
        module = lt.ir.parse_mlir_module(st["path"], ctx)
        err = None
    except RuntimeError as e:  # "Parse MLIR file failed."
        err = e
    finally:
        os.dup2(saved, 2)
        os.close(saved)
    if err is not None:
        with open(st["diag_path"]) as f:
            diag = f.read().replace(st["path"], "<oracle>").strip()
        raise OracleError("Triton rejected the module", diag or str(err).replace(st["path"], "<oracle>"))
    return module


def triton_reprint(text: str, debug_info: bool = False) -> str:
    """Parse a whole module with Triton 3.9 and print it back.

    Without ``debug_info`` Triton prints no locations and numbers SSA values
    ``%0, %1, ...`` (``str_nodebug``), so two texts that differ only in locations
    and value names re-print identically. Raises OracleError where Triton's parser
    or verifier rejects the text.
    """
    module = _parse_module_text(text)
    return module.str() if debug_info else module.str_nodebug()


def _parse(
    attr_text: str,
    shape: Sequence[int],
    num_warps: int,
    threads_per_warp: int,
    num_ctas: int,
    check_roundtrip: bool,
) -> ParsedLayout:
    st = _state()
    shape_l = _check_shape(shape)
    key = (attr_text, tuple(shape_l), num_warps, threads_per_warp, num_ctas, check_roundtrip)
    cache = st["cache"]
    if key in cache:
        return cache[key]
    lt, ctx, builder = st["lt"], st["ctx"], st["builder"]
    shared = is_shared_encoding(attr_text)
    elem = _elem_type_for(attr_text)
    text = module_text(
        attr_text, shape_l, num_warps=num_warps, threads_per_warp=threads_per_warp, num_ctas=num_ctas, elem=elem
    )
    try:
        module = _parse_module_text(text)
    except OracleError as e:
        raise OracleError(f"Triton rejected {attr_text!r} (shape {shape_l})", e.diagnostics) from None
    arg = module.get_function("f").args(0)
    dims = "x".join(map(str, shape_l))
    printed = _attr_from_type_text(str(arg.get_type()), dims, elem, shared)
    gluon = builder.get_gluon_layout_from_memdesc(arg) if shared else builder.get_gluon_layout_from_tensor(arg)
    attr = gluon._to_ir(builder)
    if check_roundtrip:
        elem_ty = {"f16": builder.get_half_ty, "i8": builder.get_int8_ty, "f32": builder.get_float_ty,
                   "f64": builder.get_double_ty}[elem]()
        if shared:
            ty2 = builder.get_shared_mem_desc_ty(elem_ty, shape_l, attr, shape_l)
        else:
            ty2 = builder.get_distributed_ty(elem_ty, shape_l, attr)
        rebuilt = _attr_from_type_text(str(ty2), dims, elem, shared)
        if rebuilt != printed:
            raise OracleError(f"Gluon round trip is lossy: parsed {printed!r}, rebuilt {rebuilt!r}")
    res = ParsedLayout(printed=printed, gluon=gluon, attr=attr, shared=shared, shape=tuple(shape_l))
    if len(cache) > 4096:
        cache.clear()
    cache[key] = res
    return res


def _default_threads(attr_text: str, threads_per_warp: int | None) -> int:
    if threads_per_warp is not None:
        return threads_per_warp
    return 64 if "amd_mfma" in attr_text else 32


def parse_layout(
    attr_text: str,
    shape: Sequence[int],
    *,
    num_warps: int = 4,
    threads_per_warp: int | None = None,
    num_ctas: int = 1,
    check_roundtrip: bool = True,
) -> ParsedLayout:
    """Parse ``attr_text`` (Triton's textual layout attribute) for a tensor/memdesc of
    ``shape``.  Raises :class:`OracleError` when Triton's verifier rejects it and
    ``ValueError`` for a shape that would crash Triton.  ``threads_per_warp`` defaults
    to 64 for text containing ``amd_mfma`` and 32 otherwise."""
    return _parse(attr_text, shape, num_warps, _default_threads(attr_text, threads_per_warp), num_ctas,
                  check_roundtrip)


def canonical_attr_text(
    attr_text: str,
    shape: Sequence[int],
    *,
    num_warps: int = 4,
    threads_per_warp: int | None = None,
    num_ctas: int = 1,
) -> str:
    """Triton's printed form of ``attr_text`` (parse, then print)."""
    return parse_layout(attr_text, shape, num_warps=num_warps, threads_per_warp=threads_per_warp,
                        num_ctas=num_ctas).printed


def _layout_rank(g: Any) -> int | None:
    """Rank of a Gluon layout object, if it can be told."""
    rank = getattr(g, "rank", None)
    if isinstance(rank, int):
        return rank
    if getattr(g, "order", None) is not None:
        return len(g.order)
    if getattr(g, "shape", None) is not None and isinstance(g.shape, list):
        return len(g.shape)
    if getattr(g, "offset_bases", None):
        return len(g.offset_bases[0])
    if getattr(g, "partition_layout", None) is not None:
        return _layout_rank(g.partition_layout)
    return None


def _gluon_ll_to_dict(g: Any, shape: Sequence[int]) -> LayoutDict:
    out_dims = {f"dim{i}": int(s) for i, s in enumerate(shape)}
    name = type(g).__name__
    if name == "DistributedLinearLayout":
        in_dims = {
            "register": [list(b) for b in g.reg_bases],
            "lane": [list(b) for b in g.lane_bases],
            "warp": [list(b) for b in g.warp_bases],
            "block": [list(b) for b in g.block_bases],
        }
    elif name in ("SharedLinearLayout",):
        in_dims = {"offset": [list(b) for b in g.offset_bases], "block": [list(b) for b in g.block_bases]}
    else:  # pragma: no cover
        raise OracleError(f"unexpected Gluon linear layout object {g!r}")
    return {"in_dims": in_dims, "out_dims": out_dims}


def triton_to_linear_layout(
    attr_text: str,
    shape: Sequence[int],
    *,
    num_warps: int = 4,
    threads_per_warp: int | None = None,
    num_ctas: int = 1,
    check_roundtrip: bool = True,
) -> LayoutDict:
    """Triton 3.9's linear layout of ``attr_text`` at ``shape``.

    Returns ``{"in_dims": {in_dim: [[int per out dim], ...]}, "out_dims": {"dim0":
    shape[0], ...}}`` with in dims ``register, lane, warp, block`` (distributed) or
    ``offset, block`` (shared), in Triton's order; every in dim is present (an empty
    list is a size-1 dim).  For ``#ttg.padded_shared`` this is the attribute's linear
    component (see module docstring).  Raises :class:`OracleError` if Triton rejects
    the attribute.  ``num_warps``/``threads_per_warp``/``num_ctas`` only set the
    module attributes (Triton does not cross-check them against the layout).
    """
    p = parse_layout(attr_text, shape, num_warps=num_warps, threads_per_warp=threads_per_warp,
                     num_ctas=num_ctas, check_roundtrip=check_roundtrip)
    rank = _layout_rank(p.gluon)
    if rank is not None and rank != len(p.shape):
        # Triton asserts (aborts) on a rank mismatch inside to_linear_layout.
        raise ValueError(f"layout rank {rank} does not match shape {list(p.shape)}")
    if type(p.gluon).__name__ == "PaddedSharedLayout":
        return _padded_linear_component(p)
    if type(p.gluon).__name__ == "PartitionedSharedLayout" and \
            type(p.gluon.partition_layout).__name__ == "PaddedSharedLayout":
        raise ValueError("Triton aborts on to_linear_layout of a partitioned layout wrapping padded_shared")
    try:
        g = _state()["builder"].to_linear_layout(p.attr, list(p.shape))
    except AssertionError as e:  # a Gluon-side check on the result (e.g. no offset bases)
        raise OracleError(f"Gluon cannot represent the linear layout of {attr_text!r} at {list(p.shape)}: {e}")
    return _gluon_ll_to_dict(g, p.shape)


def _padded_linear_component(p: ParsedLayout) -> LayoutDict:
    """The linear component of a padded_shared layout: offset bases as Triton
    stores them; block bases in element units as printed (the Gluon object keeps
    them in CTA-tile units)."""
    g = p.gluon
    in_dims = {"offset": [list(b) for b in g.offset_bases], "block": []}
    marker = "block = "
    if marker in p.printed:
        in_dims["block"] = json.loads(p.printed.split(marker, 1)[1].split("}", 1)[0])
    return {"in_dims": in_dims, "out_dims": {f"dim{i}": int(s) for i, s in enumerate(p.shape)}}


def triton_layout_ll(
    attr_text: str,
    shape: Sequence[int],
    *,
    num_warps: int = 4,
    threads_per_warp: int | None = None,
    num_ctas: int = 1,
) -> Any:
    """Like :func:`triton_to_linear_layout` but as a Triton ``LinearLayout`` object
    (so ``str()`` gives Triton's ``toString``)."""
    d = triton_to_linear_layout(attr_text, shape, num_warps=num_warps, threads_per_warp=threads_per_warp,
                                num_ctas=num_ctas)
    return triton_ll_from_bases(d["in_dims"], d["out_dims"], require_surjective=False)


def gluon_attr_text(layout: Any, shape: Sequence[int] | None = None) -> str:
    """Triton's printed attribute text for a Gluon layout object (e.g.
    ``triton.experimental.gluon.language.BlockedLayout(...)``).  ``shape`` is only
    used to build the printing type (default: all 16s of the layout's rank); shared
    layouts are verified against it by Triton, so pass a fitting shape."""
    st = _state()
    builder = st["builder"]
    attr = layout._to_ir(builder)
    shared = type(layout).__name__.endswith("SharedLayout")
    if shape is None:
        rank = getattr(layout, "rank", None)
        if not isinstance(rank, int):
            rank = len(getattr(layout, "shape", [16, 16]))
        shape = [16] * rank
    shape_l = _check_shape(shape)
    dims = "x".join(map(str, shape_l))
    if shared:
        ty = builder.get_shared_mem_desc_ty(builder.get_half_ty(), shape_l, attr, shape_l)
    else:
        ty = builder.get_distributed_ty(builder.get_half_ty(), shape_l, attr)
    return _attr_from_type_text(str(ty), dims, "f16", shared)


# --------------------------------------------------------------------------------------
# LinearLayout binding helpers
# --------------------------------------------------------------------------------------
def _ll_cls() -> Any:
    _require_triton()
    from triton._C.libtriton.linear_layout import LinearLayout

    return LinearLayout


def triton_ll_from_bases(
    bases: Mapping[str, Sequence[Sequence[int]]],
    out_dims: Mapping[str, int] | Sequence[str],
    *,
    require_surjective: bool = False,
) -> Any:
    """Build ``triton._C.libtriton.linear_layout.LinearLayout`` from the dict form.

    ``bases``: ``{in_dim: [[int per out dim], ...]}`` (insertion order = Triton's dim
    order).  ``out_dims``: ``{name: size}`` (explicit sizes) or a sequence of names
    (sizes inferred as Triton does: the smallest power of two strictly above every
    component, e.g. 4 -> 8; the layout must then be surjective).  With explicit
    sizes, a non-surjective layout is allowed unless ``require_surjective``.
    Raises ValueError on inputs Triton would abort on.
    """
    LinearLayout = _ll_cls()
    names = list(out_dims)
    items = [(str(k), [[int(c) for c in b] for b in v]) for k, v in bases.items()]
    for k, v in items:
        for b in v:
            if len(b) != len(names):
                raise ValueError(f"basis {b} of in dim {k!r} has {len(b)} components, expected {len(names)}")
    if not isinstance(out_dims, Mapping):
        # Triton's inference: the smallest power of two strictly above every component.
        inferred = {n: 1 for n in names}
        for _, v in items:
            for b in v:
                for n, c in zip(names, b):
                    if c < 0:
                        raise ValueError(f"negative basis component in {b}")
                    inferred[n] = max(inferred[n], 1 << c.bit_length())
        ll = triton_ll_from_bases(bases, inferred)
        if not ll.is_surjective():
            raise ValueError("with inferred out sizes Triton requires a surjective layout")
        return ll
    sizes = [int(out_dims[n]) for n in names]
    for i, s in enumerate(sizes):
        if s <= 0 or s & (s - 1):
            raise ValueError(f"out dim size {s} is not a power of two")
        for k, v in items:
            for b in v:
                if not 0 <= b[i] < s:
                    raise ValueError(f"basis {b} of {k!r} exceeds out dim {names[i]!r} (size {s})")
    ll = LinearLayout.from_bases(items, names, sizes, False)
    if require_surjective and not ll.is_surjective():
        raise ValueError("layout is not surjective")
    return ll


def triton_ll_to_dict(ll: Any) -> LayoutDict:
    """``LinearLayout`` -> ``{"in_dims": {name: bases}, "out_dims": {name: size}}``."""
    return {
        "in_dims": {name: [list(b) for b in bs] for name, bs in ll.bases},
        "out_dims": {name: int(size) for name, size in ll.out_dims},
    }


def _in_sizes(ll: Any) -> dict[str, int]:
    return {name: 1 << len(bs) for name, bs in ll.bases}


def ll_compose(inner: Any, outer: Any) -> Any:
    """``inner.compose(outer)``: apply ``outer`` to every basis of ``inner``; needs
    inner's out dims == outer's in dims (same order) with sizes <= outer's."""
    ins = _in_sizes(outer)
    outs = dict(inner.out_dims)
    if list(outs) != list(ins) or any(outs[k] > ins[k] for k in outs):
        raise ValueError(f"cannot compose: out dims {outs} vs outer in dims {ins}")
    return inner.compose(outer)


def ll_invert_and_compose(a: Any, b: Any) -> Any:
    """``a.invert_and_compose(b)``: C with ``b(C(x)) == a(x)``; needs the same out
    dims (any order) and ``b`` surjective onto them."""
    sa, sb = dict(a.out_dims), dict(b.out_dims)
    if sorted(sa) != sorted(sb):
        raise ValueError("invert_and_compose needs the same out dims")
    if not b.is_surjective() or any(sa[k] > sb[k] for k in sa):
        raise ValueError("invert_and_compose needs an outer layout that covers this layout's image")
    return a.invert_and_compose(b)


def ll_pseudoinvert(a: Any) -> Any:
    """``a.pseudoinvert()`` (= identity(outs).invert_and_compose(a)); needs ``a``
    surjective."""
    if not a.is_surjective():
        raise ValueError("pseudoinvert needs a surjective layout")
    return a.pseudoinvert()


def ll_invert(a: Any) -> Any:
    """``a.invert()``; raises ValueError (instead of aborting) if not invertible."""
    if not a.is_invertible():
        raise ValueError("layout is not invertible")
    return a.invert()


def ll_product(a: Any, b: Any) -> Any:
    """Direct product ``a * b`` (dims merged; ``b`` above ``a``).  Dim orders must
    be compatible (Triton aborts otherwise; not checked here)."""
    return a * b


def ll_apply(ll: Any, inputs: Mapping[str, int]) -> dict[str, int]:
    """``ll.apply``; missing in dims are 0 (Triton itself aborts on a partial dict)."""
    sizes = _in_sizes(ll)
    for k, v in inputs.items():
        if k not in sizes:
            raise ValueError(f"unknown in dim {k!r}")
        if not 0 <= int(v) < sizes[k]:
            raise ValueError(f"{k}={v} out of range (size {sizes[k]})")
    full = {k: int(inputs.get(k, 0)) for k in sizes}
    return dict(ll.apply(full))


def ll_str(ll: Any) -> str:
    """Triton's ``LinearLayout::toString()`` (starts with a newline)."""
    return str(ll)


def ll_shared_view(ll: Any, hardware: bool = False) -> str:
    """``LinearLayout.get_shared_view(hardware)``: Triton's memory-layout picture."""
    return ll.get_shared_view(hardware)


def ll_distributed_view(ll: Any, hardware: bool = False) -> str:
    """``LinearLayout.get_distributed_view(hardware)``: Triton's thread picture."""
    return ll.get_distributed_view(hardware)


def ll_matrix_view(ll: Any) -> list[list[int]]:
    """``LinearLayout.get_matrix_view()`` (rows: out bits, cols: in bits)."""
    return [list(r) for r in ll.get_matrix_view()]


# --------------------------------------------------------------------------------------
# crash-safe batch evaluation in a child process
# --------------------------------------------------------------------------------------
def run_isolated(
    cases: Iterable[Mapping[str, Any]],
    *,
    timeout_s: float = 600.0,
) -> list[dict[str, Any]]:
    """Evaluate cases in a child process that is restarted when Triton aborts.

    Each case is a mapping with ``attr_text``, ``shape`` and optional ``num_warps``,
    ``threads_per_warp``, ``num_ctas``.  Returns one dict per case:
    ``{"ok": True, "layout": <dict form>, "printed": <Triton's text>}`` or
    ``{"ok": False, "kind": "rejected" | "crash" | "error", "message": str}``.
    """
    todo = [dict(c) for c in cases]
    for c in todo:
        c["shape"] = [int(x) for x in c["shape"]]
    results: list[dict[str, Any]] = []
    fd, diag_path = tempfile.mkstemp(prefix="ltc_oracle_child_", suffix=".diag")
    os.close(fd)
    env = dict(os.environ, LTC_ORACLE_DIAG_PATH=diag_path)
    try:
        while len(results) < len(todo):
            rest = todo[len(results):]
            payload = "".join(json.dumps(c) + "\n" for c in rest)
            proc = subprocess.run(
                [sys.executable, os.path.abspath(__file__), "--serve"],
                input=payload,
                capture_output=True,
                text=True,
                timeout=timeout_s,
                env=env,
            )
            lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
            for ln in lines:
                results.append(json.loads(ln))
            if len(results) < len(todo) and len(lines) < len(rest):
                with open(diag_path) as f:  # an abort inside the parser writes here
                    diag = f.read()
                tail = (diag + proc.stderr).split("nanobind: leaked", 1)[0].strip()[-2000:]
                results.append({"ok": False, "kind": "crash", "message": f"rc={proc.returncode}: {tail}"})
    finally:
        if os.path.exists(diag_path):
            os.unlink(diag_path)
    return results


def _serve() -> None:  # pragma: no cover - runs in the child of run_isolated
    for line in sys.stdin:
        if not line.strip():
            continue
        c = json.loads(line)
        try:
            p = parse_layout(c["attr_text"], c["shape"], num_warps=c.get("num_warps", 4),
                             threads_per_warp=c.get("threads_per_warp"), num_ctas=c.get("num_ctas", 1))
            sys.stdout.flush()
            d = triton_to_linear_layout(c["attr_text"], c["shape"], num_warps=c.get("num_warps", 4),
                                        threads_per_warp=c.get("threads_per_warp"), num_ctas=c.get("num_ctas", 1))
            r = {"ok": True, "layout": d, "printed": p.printed}
        except OracleError as e:
            r = {"ok": False, "kind": "rejected", "message": str(e)}
        except Exception as e:  # noqa: BLE001
            r = {"ok": False, "kind": "error", "message": f"{type(e).__name__}: {e}"}
        sys.stdout.write(json.dumps(r) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:] == ["--serve"]:
        _serve()
