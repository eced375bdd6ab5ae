"""Every op the interpreter runs (``HANDLERS``), and the ``scf`` control-flow handlers.

``scf.for`` runs its body for ``iv = lb, lb + step, ... < ub`` (signed compare, or
unsigned with ``unsignedCmp``); ``scf.while`` alternates its regions until the
``scf.condition`` is false; ``scf.if`` / ``scf.index_switch`` / ``scf.execute_region``
run one region. Block results are their terminator's operands.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation, Region

from ltc.passes.interpret_state import InterpretError
from ltc.passes.interpret_arith import ARITH_HANDLERS, signed, unsigned
from ltc.passes.interpret_gpu import GPU_HANDLERS
from ltc.passes.interpret_tt import TT_HANDLERS
from ltc.passes.interpret_types import fit

if TYPE_CHECKING:
    from ltc.passes.interpret_state import Handler, Interpreter, Value

__all__ = ["HANDLERS"]


def _region(it: Interpreter, region: Region, args: list[Value]) -> list[Value]:
    return it.run_region(region, args) if region.blocks else []


def _for(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    lb, ub, step, *values = args
    info = it.info(op.operands[0].type)
    if "unsignedCmp" in op.properties:
        lo, hi, inc = (int(unsigned(x, info.width)) for x in (lb, ub, step))
    else:
        lo, hi, inc = (int(signed(x)) for x in (lb, ub, step))
    if inc <= 0:
        raise InterpretError(f"scf.for step must be positive, got {inc}")
    body = op.regions[0].block
    for i in range(lo, hi, inc):
        values = it.run_block(body, [fit(np.asarray(i), info), *values])
    return values


def _if(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return _region(it, op.regions[0] if bool(np.asarray(args[0])) else op.regions[1], [])


def _while(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    before, after = op.regions
    values = list(args)
    while True:
        cond, *carried = it.run_block(before.block, values)
        if not bool(np.asarray(cond)):
            return carried
        values = it.run_block(after.block, carried)


def _index_switch(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    cases = [int(v) for v in op.properties["cases"].get_values()]  # type: ignore[attr-defined]
    key = int(np.asarray(args[0]))
    regions = list(op.regions)  # default region first, then one per case
    region = regions[1 + cases.index(key)] if key in cases else regions[0]
    return _region(it, region, [])


def _execute_region(it: Interpreter, op: Operation, args: list[Value]) -> list[Value]:
    return _region(it, op.regions[0], [])


SCF_HANDLERS: Mapping[str, Handler] = {
    "scf.for": _for,
    "scf.if": _if,
    "scf.while": _while,
    "scf.index_switch": _index_switch,
    "scf.execute_region": _execute_region,
}

HANDLERS: Mapping[str, Handler] = {**ARITH_HANDLERS, **TT_HANDLERS, **GPU_HANDLERS, **SCF_HANDLERS}
"""Op name -> handler, for every op the interpreter runs (terminators are handled by
``Interpreter.run_block``)."""
