"""The xDSL context that reads and writes Triton's IR: every dialect ltc knows.

``triton_context()`` registers, lazily, xDSL's ``builtin``, ``math``, ``scf`` (with MLIR's bare result
types, ``ltc.dialects.scf``), ``cf``,
``func`` and ``llvm`` (with ltc's missing casts, ``ltc.dialects.llvm_ext``), ltc's tensor-aware ``arith`` and ``gpu`` (with ``gpu.barrier``'s
custom syntax) in place of xDSL's, and
the Triton dialects ``tt``, ``ttg`` and ``ttng``, and ``ub`` (``ub.poison``);
``nvg`` (Triton's NVGPU), ``tti`` (TritonInstrument) and ``rocdl`` (``rocdl.barrier``).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.ir import Dialect


def _builtin() -> Dialect:
    from xdsl.dialects.builtin import Builtin

    return Builtin


def _math() -> Dialect:
    from xdsl.dialects.math import Math

    return Math


def _scf() -> Dialect:
    from ltc.dialects.scf import SCF

    return SCF


def _cf() -> Dialect:
    from xdsl.dialects.cf import Cf

    return Cf


def _func() -> Dialect:
    from xdsl.dialects.func import Func

    return Func


def _gpu() -> Dialect:
    from ltc.dialects.gpu import GPU

    return GPU


def _llvm() -> Dialect:
    from ltc.dialects.llvm_ext import LLVM

    return LLVM


def _arith() -> Dialect:
    from ltc.dialects.arith import ARITH

    return ARITH


def _tt() -> Dialect:
    from ltc.dialects.tt import TT

    return TT


def _ttg() -> Dialect:
    from ltc.dialects.ttg import TTG

    return TTG


def _ub() -> Dialect:
    from ltc.dialects.ub import UB

    return UB


def _ttng() -> Dialect:
    from ltc.dialects.ttng import TTNG

    return TTNG


def _nvg() -> Dialect:
    from ltc.dialects.nvg import NVG

    return NVG


def _tti() -> Dialect:
    from ltc.dialects.tti import TTI

    return TTI


def _rocdl() -> Dialect:
    from ltc.dialects.rocdl import ROCDL

    return ROCDL


DIALECT_FACTORIES: dict[str, Callable[[], Dialect]] = {
    "builtin": _builtin,
    "arith": _arith,
    "math": _math,
    "scf": _scf,
    "cf": _cf,
    "func": _func,
    "gpu": _gpu,
    "llvm": _llvm,
    "tt": _tt,
    "ttg": _ttg,
    "ttng": _ttng,
    "ub": _ub,
    "nvg": _nvg,
    "tti": _tti,
    "rocdl": _rocdl,
}
"""Dialect name -> factory, in registration order."""


def triton_context(allow_unregistered: bool = False) -> Context:
    """A fresh context with every dialect of ``DIALECT_FACTORIES`` registered (lazily)."""
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in DIALECT_FACTORIES.items():
        ctx.register_dialect(name, factory)
    return ctx
