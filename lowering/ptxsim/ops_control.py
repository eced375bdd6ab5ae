"""Control and synchronisation: bra, ret/exit, trap, bar/barrier, and instructions that do nothing here.

Branches must be uniform over the live threads of the CTA: a ``bra`` that some
live threads take and others do not raises. ``ret``/``exit`` under a guard
retire those threads. Barriers only count (lockstep already orders every
access); a CTA barrier must be reached by every live thread. Fences,
prefetches, sleeps and hints do nothing.

A mixin of :class:`~ltc.lowering.ptxsim.state.MachineState`: each
``_op_<opcode>(ins)`` returns the instruction's function.
"""

from __future__ import annotations

import numpy as np

from ltc.lowering.ptxsim.errors import Fault
from ltc.lowering.ptxsim.parse import Instruction, Symbol
from ltc.lowering.ptxsim.state import END_OF_THREAD, WARP, MachineState

__all__ = ["ControlOps"]


class ControlOps(MachineState):
    """Branches, thread exit, traps, barriers and no-ops."""

    def _op_bra(self, ins: Instruction):
        (target,) = self._operands(ins, 1)
        if not isinstance(target, Symbol) or target.name not in self.labels:
            raise Fault(f"branch target {target} is not a label")
        dest = self.labels[target.name]

        def run(c, m):
            if m is not None and not np.array_equal(m, c.alive):
                n = int(m.sum())
                raise Fault(
                    f"divergent branch: {n} of {int(c.alive.sum())} live threads take it "
                    f"(branches must be uniform over the CTA)"
                )
            return dest

        return run

    def _op_ret(self, ins: Instruction):
        def run(c, m):
            if m is None or np.array_equal(m, c.alive):
                return END_OF_THREAD
            c.alive = c.alive & ~m
            c.full = False
            c.alive_warps = int(c.alive.reshape(self.warps, WARP).any(axis=1).sum())
            return None

        return run

    _op_exit = _op_ret

    def _op_trap(self, ins: Instruction):
        def run(c, m):
            raise Fault("trap")

        return run

    def _barrier(self, ins: Instruction, warp_level: bool):
        def run(c, m):
            if warp_level:
                self.counters.warp_barriers += self._active_warps(m)
                return None
            if m is not None and not np.array_equal(m, c.alive):
                raise Fault("CTA barrier executed by only some live threads")
            self.counters.barriers += 1
            c.races.barrier()
            return None

        return run

    def _op_bar(self, ins: Instruction):
        mods = ins.modifiers
        if "warp" in mods:
            return self._barrier(ins, True)
        if "red" in mods:
            raise Fault("bar.red is not supported")
        return self._barrier(ins, False)

    def _op_barrier(self, ins: Instruction):
        if "red" in ins.modifiers:
            raise Fault("barrier.red is not supported")
        return self._barrier(ins, False)

    def _noop(self, ins: Instruction):
        return lambda c, m: None

    _op_membar = _noop
    _op_fence = _noop
    _op_nanosleep = _noop
    _op_prefetch = _noop
    _op_prefetchu = _noop
    _op_griddepcontrol = _noop
    _op_discard = _noop
    _op_applypriority = _noop
    _op_pmevent = _noop
