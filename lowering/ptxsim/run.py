"""Entry points of the simulator: run a kernel of a parsed module, or PTX text, over a grid.

:func:`run_kernel` checks the launch (kernel, grid, block size against
``.reqntid`` / ``.maxntid``) and runs it on a fresh machine; :func:`simulate_ptx`
parses PTX text first. Both return a :class:`~ltc.lowering.ptxsim.stats.PtxStats`,
update array arguments in place, and raise
:class:`~ltc.lowering.ptxsim.errors.SimulationError` (or, for text,
:class:`~ltc.lowering.ptxsim.parse.PtxSyntaxError`).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ltc.lowering.ptxsim.errors import SimulationError
from ltc.lowering.ptxsim.machine import Machine
from ltc.lowering.ptxsim.parse import Kernel, PtxModule, parse_ptx
from ltc.lowering.ptxsim.stats import PtxStats

__all__ = ["DEFAULT_MAX_STEPS", "run_kernel", "simulate_ptx"]

DEFAULT_MAX_STEPS = 1_000_000


def run_kernel(
    module: PtxModule,
    grid: tuple[int, ...] | int = (1, 1, 1),
    args: Sequence[Any] = (),
    *,
    kernel: str | None = None,
    block: int | tuple[int, ...] | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> PtxStats:
    """Run ``kernel`` (default: the module's only entry) for every CTA of ``grid``.

    ``args`` in parameter order: numpy arrays (or None for a null pointer) for
    pointer parameters, Python / numpy scalars for the rest; arrays are updated
    in place. Threads per CTA come from ``.reqntid`` / ``.maxntid`` or ``block``.
    Raises :class:`SimulationError` for bad arguments, unsupported instructions,
    divergent branches and out-of-bounds or misaligned accesses.
    """
    try:
        k = module.kernel(kernel)
    except KeyError as e:
        raise SimulationError(str(e.args[0])) from None
    if not k.entry:
        raise SimulationError(f"'{k.name}' is a .func, not an .entry kernel")
    g = _dims(grid, "grid")
    b = _block_dims(k, block)
    m = Machine(module, k, g, b, args, max_steps)
    return m.run()


def simulate_ptx(
    ptx_text: str,
    grid: tuple[int, int, int] | int = (1, 1, 1),
    args: Sequence[Any] = (),
    *,
    kernel: str | None = None,
    block: int | None = None,
) -> PtxStats:
    """Parse ``ptx_text`` and run ``kernel`` (default: its only entry) over ``grid``.

    ``args`` in parameter order: numpy arrays (updated in place) or None for
    pointer parameters, Python / numpy scalars for the rest. Threads per CTA come
    from ``.reqntid`` / ``.maxntid`` or ``block``. Raises
    :class:`~ltc.lowering.ptxsim.parse.PtxSyntaxError` or
    :class:`~ltc.lowering.ptxsim.errors.SimulationError`.
    """
    module = parse_ptx(ptx_text)
    return run_kernel(module, grid, args, kernel=kernel, block=block)


def _dims(v, what: str) -> tuple[int, int, int]:
    if isinstance(v, (int, np.integer)):
        v = (int(v),)
    v = tuple(int(x) for x in v)
    if not 1 <= len(v) <= 3 or any(x < 1 for x in v):
        raise SimulationError(f"{what} must be 1 to 3 positive sizes, got {v}")
    return (v + (1, 1))[:3]


def _block_dims(k: Kernel, block) -> tuple[int, int, int]:
    req = _dims(k.reqntid, ".reqntid") if k.reqntid else None
    mx = _dims(k.maxntid, ".maxntid") if k.maxntid else None
    if block is not None:
        b = _dims(block, "block")
        if req is not None and b != req:
            raise SimulationError(f"block {b} differs from the kernel's .reqntid {req}")
        if mx is not None and b[0] * b[1] * b[2] > mx[0] * mx[1] * mx[2]:
            raise SimulationError(f"block {b} exceeds the kernel's .maxntid {mx}")
        return b
    if req is not None:
        return req
    if mx is not None:
        return mx
    raise SimulationError(f"kernel '{k.name}' declares no .reqntid/.maxntid: give the block size")
