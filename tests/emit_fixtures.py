"""Shared fixtures of the emitter tests (``tests/test_emit_*.py``): the hand-written lowered
modules, the external tools, and the elementwise harness with its exact references.

* Building modules: :func:`kernel` (a one-kernel lowered module as MLIR text), :func:`store`
  (an inline-asm store of a value, so no computed value is dead), :func:`parse`.
* :data:`MODULES`: one module per area of the lowered-IR contract (memory through inline
  asm, structured control flow, intrinsics, shared memory, casts, compares, arithmetic),
  with the tables they are built from (:data:`CASTS`, :data:`INTRINSIC_CALLS`, …).
* Tools: :func:`run_tool`, :func:`ptxas_errors`, :func:`llc` and the skips when ``ptxas``,
  LLVM 14 or ltc's PTX simulator (``ltc.lowering.ptxsim.run``) are not there.
* Semantics: elementwise kernels run in the simulator (:func:`simulate`) against exact
  references computed here; the ``check_*`` runners take the text → PTX function under
  test, so the PTX emitter and llc's PTX of the LLVM IR emitter meet the same references.
"""

from __future__ import annotations

import math
import shutil
import struct
import subprocess
import tempfile
from collections.abc import Callable
from fractions import Fraction
from importlib.util import find_spec
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from ltc.dialects.context import triton_context
from ltc.lowering.emit.common import signed_value

# -- building modules --------------------------------------------------------------------------

MLIR_TYPE = {"ptr": "!llvm.ptr<1>"}

# How each scalar type is stored by inline asm (so llc keeps every computed value).
_STORE = {
    "i1": ("{ .reg .b16 t; selp.b16 t, 1, 0, $1; st.global.b8 [$0], t; }", "b"),
    "i8": ("st.global.b8 [$0], $1;", "h"),
    "i16": ("st.global.b16 [$0], $1;", "h"),
    "f16": ("st.global.b16 [$0], $1;", "h"),
    "bf16": ("st.global.b16 [$0], $1;", "h"),
    "i32": ("st.global.b32 [$0], $1;", "r"),
    "f32": ("st.global.f32 [$0], $1;", "f"),
    "i64": ("st.global.b64 [$0], $1;", "l"),
    "f64": ("st.global.f64 [$0], $1;", "d"),
}


def mlir_type(t: str) -> str:
    return MLIR_TYPE.get(t, t)


def store(ptr: str, value: str, t: str) -> str:
    """An inline-asm store of ``value`` (type ``t``) to ``ptr``."""
    text, c = _STORE[t]
    return f'llvm.inline_asm has_side_effects "{text}", "l,{c}" {ptr}, {value} : (!llvm.ptr<1>, {mlir_type(t)}) -> ()'


def kernel(
    name: str,
    args: list[tuple[str, str]],
    body: list[str],
    *,
    shared: int | None = None,
    reqntid: int = 128,
) -> str:
    """MLIR text of a one-kernel lowered module (``shared``: bytes of @global_smem)."""
    attrs = '"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ltc.target" = "sm_90"'
    glob = ""
    if shared is not None:
        attrs += f', "ttg.shared" = {shared} : i32'
        glob = (
            '  "llvm.mlir.global"() <{global_type = !llvm.array<0 x i8>, sym_name = "global_smem", '
            'linkage = #llvm.linkage<"external">, addr_space = 3 : i32, alignment = 16 : i64}> ({}) : () -> ()\n'
        )
    params = ", ".join(f"%{n}: {mlir_type(t)}" for n, t in args)
    lines = "\n".join(f"    {line}" for line in body)
    return (
        f"builtin.module attributes {{{attrs}}} {{\n{glob}"
        f'  llvm.func @{name}({params}) attributes {{"nvvm.kernel", "nvvm.reqntid" = array<i32: {reqntid}>}} {{\n'
        f"{lines}\n    llvm.return\n  }}\n}}\n"
    )


def parse(text: str) -> ModuleOp:
    module = Parser(triton_context(), text).parse_module()
    module.verify()
    return module


# -- the modules -------------------------------------------------------------------------------


def _vector_add() -> str:
    """c[i] = a[i] + b[i], four f32 per thread: tid, ctaid, gep, predicated v4 loads and
    store through inline asm, bitcasts, fadd."""
    body = [
        '%tid = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32',
        '%pid = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ctaid.x"() : () -> i32',
        "%c512 = llvm.mlir.constant(512 : i32) : i32",
        "%c4 = llvm.mlir.constant(4 : i32) : i32",
        "%c0 = llvm.mlir.constant(0 : i32) : i32",
        "%base = llvm.mul %pid, %c512 : i32",
        "%t4 = llvm.mul %tid, %c4 : i32",
        "%off = llvm.add %base, %t4 : i32",
        '%mask = llvm.icmp "slt" %off, %n : i32',
    ]
    for src in ("a", "b"):
        body += [
            f"%p{src} = llvm.getelementptr %{src}[%off] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32",
            f'%w{src} = llvm.inline_asm has_side_effects "mov.u32 $0, $5;\\n\\tmov.u32 $1, $5;\\n\\t'
            f'mov.u32 $2, $5;\\n\\tmov.u32 $3, $5;\\n\\t@$6 ld.global.v4.b32 {{ $0, $1, $2, $3 }}, [ $4 + 0 ];", '
            f'"=r,=r,=r,=r,l,r,b" %p{src}, %c0, %mask : (!llvm.ptr<1>, i32, i1) -> !llvm.struct<(i32, i32, i32, i32)>',
        ]
    for k in range(4):
        body += [
            f"%a{k} = llvm.extractvalue %wa[{k}] : !llvm.struct<(i32, i32, i32, i32)>",
            f"%b{k} = llvm.extractvalue %wb[{k}] : !llvm.struct<(i32, i32, i32, i32)>",
            f"%fa{k} = llvm.bitcast %a{k} : i32 to f32",
            f"%fb{k} = llvm.bitcast %b{k} : i32 to f32",
            f"%s{k} = llvm.fadd %fa{k}, %fb{k} : f32",
            f"%r{k} = llvm.bitcast %s{k} : f32 to i32",
        ]
    body += [
        "%pc = llvm.getelementptr %c[%off] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32",
        'llvm.inline_asm has_side_effects "@$5 st.global.v4.b32 [ $0 + 0 ], { $1, $2, $3, $4 };", '
        '"l,r,r,r,r,b" %pc, %r0, %r1, %r2, %r3, %mask : (!llvm.ptr<1>, i32, i32, i32, i32, i1) -> ()',
    ]
    return kernel("vector_add", [("a", "ptr"), ("b", "ptr"), ("c", "ptr"), ("n", "i32")], body)


def loops_kernel(uniform: bool = False) -> str:
    """scf.for with three iter args rotated each trip (a parallel-copy cycle), an scf.if
    with a result inside, a constant-trip loop, f16/i1 iter args; unless ``uniform``, a
    loop whose bound varies per thread and an scf.if without results on tid == 0.
    Thread t stores its results to ``out[8 t + k]`` (the first through an i64 gep)."""
    body = [
        '%tid = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32',
        "%c0 = llvm.mlir.constant(0 : i32) : i32",
        "%c1 = llvm.mlir.constant(1 : i32) : i32",
        "%c2 = llvm.mlir.constant(2 : i32) : i32",
        "%c4 = llvm.mlir.constant(4 : i32) : i32",
        "%f0 = llvm.mlir.constant(0.0 : f32) : f32",
        "%h1 = llvm.mlir.constant(1.0 : f16) : f16",
        "%true = llvm.mlir.constant(true) : i1",
        "%r:6 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %f0, %x = %c0, %y = %c1, %z = %c2, "
        "%h = %h1, %flag = %true) -> (f32, i32, i32, i32, f16, i1) : i32 {",
        "  %fi = llvm.sitofp %i : i32 to f32",
        "  %acc2 = llvm.fadd %acc, %fi : f32",
        "  %odd = llvm.and %i, %c1 : i32",
        '  %isodd = llvm.icmp "ne" %odd, %c0 : i32',
        "  %pick = scf.if %isodd -> (f32) {",
        "    %m = llvm.fmul %acc2, %fi : f32",
        "    scf.yield %m : f32",
        "  } else {",
        "    scf.yield %acc2 : f32",
        "  }",
        "  %h2 = llvm.fadd %h, %h : f16",
        "  %nf = llvm.xor %flag, %isodd : i1",
        "  scf.yield %pick, %y, %z, %x, %h2, %nf : f32, i32, i32, i32, f16, i1",
        "}",
        "%inner = scf.for %j = %c0 to %c4 step %c1 iter_args(%s = %tid) -> (i32) : i32 {",
        "  %s2 = llvm.add %s, %j : i32",
        "  scf.yield %s2 : i32",
        "}",
    ]
    if not uniform:
        body += [
            "%var = scf.for %k = %c0 to %tid step %c2 iter_args(%t = %c0) -> (i32) : i32 {",
            "  %t2 = llvm.add %t, %k : i32",
            "  scf.yield %t2 : i32",
            "}",
            '%first = llvm.icmp "eq" %tid, %c0 : i32',
            "scf.if %first {",
            f"  {store('%out', '%r#0', 'f32')}",
            "  scf.yield",
            "}",
        ]
    body += [
        "%c8 = llvm.mlir.constant(8 : i32) : i32",
        "%slot0 = llvm.mul %tid, %c8 : i32",
        "%wide = llvm.sext %slot0 : i32 to i64",
        "%p0 = llvm.getelementptr %out[%wide] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32",
        store("%p0", "%r#0", "f32"),
    ]
    results = [("%r#1", "i32"), ("%r#2", "i32"), ("%r#3", "i32"), ("%r#4", "f16"), ("%r#5", "i1"), ("%inner", "i32")]
    if not uniform:
        results.append(("%var", "i32"))
    for k, (value, t) in enumerate(results, start=1):
        body += [
            f"%k{k} = llvm.mlir.constant({k} : i32) : i32",
            f"%slot{k} = llvm.add %slot0, %k{k} : i32",
            f"%p{k} = llvm.getelementptr %out[%slot{k}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32",
            store(f"%p{k}", value, t),
        ]
    return kernel("loops", [("out", "ptr"), ("n", "i32")], body)


# Intrinsic name -> (result type, argument types).
INTRINSIC_CALLS = {
    "llvm.nvvm.read.ptx.sreg.tid.x": ("i32", ()),
    "llvm.nvvm.read.ptx.sreg.ctaid.x": ("i32", ()),
    "llvm.nvvm.read.ptx.sreg.ctaid.y": ("i32", ()),
    "llvm.nvvm.read.ptx.sreg.ctaid.z": ("i32", ()),
    "llvm.nvvm.read.ptx.sreg.nctaid.x": ("i32", ()),
    "llvm.nvvm.read.ptx.sreg.nctaid.y": ("i32", ()),
    "llvm.nvvm.read.ptx.sreg.nctaid.z": ("i32", ()),
    "llvm.nvvm.shfl.sync.bfly.i32": ("i32", ("i32",) * 4),
    "llvm.nvvm.shfl.sync.idx.i32": ("i32", ("i32",) * 4),
    "llvm.maxnum.f32": ("f32", ("f32", "f32")),
    "llvm.minnum.f32": ("f32", ("f32", "f32")),
    "llvm.maxnum.f64": ("f64", ("f64", "f64")),
    "llvm.minnum.f64": ("f64", ("f64", "f64")),
    "llvm.nvvm.fmax.nan.f": ("f32", ("f32", "f32")),
    "llvm.nvvm.fmin.nan.f": ("f32", ("f32", "f32")),
    "llvm.smax.i32": ("i32", ("i32", "i32")),
    "llvm.smin.i32": ("i32", ("i32", "i32")),
    "llvm.umax.i32": ("i32", ("i32", "i32")),
    "llvm.umin.i32": ("i32", ("i32", "i32")),
    "llvm.smax.i64": ("i64", ("i64", "i64")),
    "llvm.smin.i64": ("i64", ("i64", "i64")),
    "llvm.umax.i64": ("i64", ("i64", "i64")),
    "llvm.umin.i64": ("i64", ("i64", "i64")),
    "llvm.fabs.f32": ("f32", ("f32",)),
    "llvm.sqrt.f32": ("f32", ("f32",)),
    "llvm.fma.f32": ("f32", ("f32", "f32", "f32")),
    "llvm.nvvm.ex2.approx.f": ("f32", ("f32",)),
    "llvm.nvvm.lg2.approx.f": ("f32", ("f32",)),
    "llvm.nvvm.rsqrt.approx.f": ("f32", ("f32",)),
    "llvm.nvvm.sin.approx.f": ("f32", ("f32",)),
    "llvm.nvvm.cos.approx.f": ("f32", ("f32",)),
    "llvm.nvvm.div.full.f": ("f32", ("f32", "f32")),
}

# Arguments of each type (the shuffle's mask/value/lane/clamp are %m, %v, 16, 31).
_INTRINSIC_ARGS = {"i32": ["%m", "%v", "%lane", "%clamp"], "i64": ["%l", "%l2"], "f32": ["%x", "%y", "%x"], "f64": ["%d", "%d2"]}


def _intrinsics() -> str:
    body = [
        "%lane = llvm.mlir.constant(16 : i32) : i32",
        "%clamp = llvm.mlir.constant(31 : i32) : i32",
        "%l2 = llvm.mlir.constant(-5 : i64) : i64",
        "%d2 = llvm.mlir.constant(2.5 : f64) : f64",
        'llvm.call_intrinsic "llvm.nvvm.barrier0"() : () -> ()',
    ]
    for k, (name, (res, args)) in enumerate(INTRINSIC_CALLS.items()):
        if name.startswith("llvm.nvvm.shfl"):
            names = ["%m", "%v", "%lane", "%clamp"]
        else:
            names = _INTRINSIC_ARGS[args[0]][: len(args)] if args else []
        types = ", ".join(mlir_type(a) for a in args)
        body.append(f'%i{k} = llvm.call_intrinsic "{name}"({", ".join(names)}) : ({types}) -> {res}')
        body.append(store("%out", f"%i{k}", res))
    args = [("out", "ptr"), ("m", "i32"), ("v", "i32"), ("x", "f32"), ("y", "f32"), ("l", "i64"), ("d", "f64")]
    return kernel("intrinsics", args, body)


def _shared(size: int) -> str:
    """Each thread stores tid to shared, a barrier, then reads its neighbour's word
    (``tid ^ 1``) back: addressof, ptrtoint, st/ld.shared via inline asm."""
    body = [
        '%tid = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32',
        "%c1 = llvm.mlir.constant(1 : i32) : i32",
        "%c4 = llvm.mlir.constant(4 : i32) : i32",
        "%smem = llvm.mlir.addressof @global_smem : !llvm.ptr<3>",
        "%base = llvm.ptrtoint %smem : !llvm.ptr<3> to i32",
        "%t4 = llvm.mul %tid, %c4 : i32",
        "%mine = llvm.add %base, %t4 : i32",
        'llvm.inline_asm has_side_effects "st.shared.b32 [$0], $1;", "r,r" %mine, %tid : (i32, i32) -> ()',
        'llvm.call_intrinsic "llvm.nvvm.barrier0"() : () -> ()',
        "%nb = llvm.xor %tid, %c1 : i32",
        "%nb4 = llvm.mul %nb, %c4 : i32",
        "%theirs = llvm.add %base, %nb4 : i32",
        '%got = llvm.inline_asm has_side_effects "ld.shared.b32 $0, [$1];", "=r,r" %theirs : (i32) -> i32',
        "%p = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32",
        store("%p", "%got", "i32"),
    ]
    return kernel(f"shared_{size}", [("out", "ptr")], body, shared=size)


# (op, source type, result type): every cast of the contract, with the types it meets.
CASTS = [
    ("zext", "i1", "i32"), ("zext", "i1", "i8"), ("zext", "i8", "i16"), ("zext", "i8", "i32"),
    ("zext", "i16", "i32"), ("zext", "i32", "i64"), ("zext", "i1", "i64"),
    ("sext", "i1", "i32"), ("sext", "i8", "i32"), ("sext", "i16", "i32"), ("sext", "i32", "i64"),
    ("sext", "i8", "i16"),
    ("trunc", "i64", "i32"), ("trunc", "i32", "i16"), ("trunc", "i32", "i8"), ("trunc", "i16", "i8"),
    ("trunc", "i32", "i1"), ("trunc", "i8", "i1"),
    ("fpext", "f16", "f32"), ("fpext", "bf16", "f32"), ("fpext", "f32", "f64"), ("fpext", "f16", "f64"),
    ("fpext", "bf16", "f64"),
    ("fptrunc", "f32", "f16"), ("fptrunc", "f32", "bf16"), ("fptrunc", "f64", "f32"), ("fptrunc", "f64", "f16"),
    ("fptrunc", "f64", "bf16"),
    ("sitofp", "i32", "f32"), ("sitofp", "i64", "f64"), ("sitofp", "i8", "f32"), ("sitofp", "i16", "f16"),
    ("sitofp", "i32", "bf16"), ("sitofp", "i16", "bf16"), ("sitofp", "i1", "f32"), ("sitofp", "i64", "bf16"),
    ("uitofp", "i32", "f32"), ("uitofp", "i64", "f64"), ("uitofp", "i8", "f16"), ("uitofp", "i32", "bf16"),
    ("uitofp", "i1", "f16"),
    ("fptosi", "f32", "i32"), ("fptosi", "f64", "i64"), ("fptosi", "f16", "i32"), ("fptosi", "bf16", "i32"),
    ("fptosi", "f32", "i8"), ("fptosi", "f32", "i16"),
    ("fptoui", "f32", "i32"), ("fptoui", "f64", "i64"), ("fptoui", "f16", "i16"), ("fptoui", "bf16", "i64"),
    ("bitcast", "i32", "f32"), ("bitcast", "f32", "i32"), ("bitcast", "i64", "f64"), ("bitcast", "f64", "i64"),
    ("bitcast", "i16", "f16"), ("bitcast", "f16", "i16"), ("bitcast", "i16", "bf16"), ("bitcast", "bf16", "i16"),
    ("ptrtoint", "ptr", "i64"), ("ptrtoint", "ptr", "i32"), ("inttoptr", "i64", "ptr"), ("inttoptr", "i32", "ptr"),
]  # fmt: skip

# Kernel arguments, one per type, named after the type.
_TYPED_ARGS = [("out", "ptr")] + [
    (t, t) for t in ("i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64")
]


def _casts() -> str:
    body = []
    for k, (kind, s, d) in enumerate(CASTS):
        src = "%out" if s == "ptr" else f"%{s}"
        if kind in ("fptosi", "fptoui", "uitofp"):
            body.append(f'%c{k} = "llvm.{kind}"({src}) : ({mlir_type(s)}) -> {mlir_type(d)}')
        else:
            body.append(f"%c{k} = llvm.{kind} {src} : {mlir_type(s)} to {mlir_type(d)}")
        if d == "ptr":
            body.append(store(f"%c{k}", "%i32", "i32"))
        else:
            body.append(store("%out", f"%c{k}", d))
    return kernel("casts", _TYPED_ARGS, body)


ICMP_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")

FCMP_PREDICATES = ("oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno")


def _compares() -> str:
    """Every icmp predicate on i32, i8, i64, i1 and every fcmp predicate on f32, f16, bf16,
    f64 (plus fcmp true/false), in that order."""
    body = []
    k = 0
    for t, second in (("i32", "%i32b"), ("i8", "%i8"), ("i64", "%i64"), ("i1", "%i1b")):
        for p in ICMP_PREDICATES:
            body.append(f'%q{k} = llvm.icmp "{p}" %{t}, {second} : {t}')
            body.append(store("%out", f"%q{k}", "i1"))
            k += 1
    for t in ("f32", "f16", "bf16", "f64"):
        for p in (*FCMP_PREDICATES, "_true", "_false"):
            body.append(f'%q{k} = llvm.fcmp "{p}" %{t}, %{t}b : {t}')
            body.append(store("%out", f"%q{k}", "i1"))
            k += 1
    args = [("out", "ptr"), ("i32", "i32"), ("i32b", "i32"), ("i8", "i8"), ("i64", "i64"), ("i1", "i1"),
            ("i1b", "i1"), ("f32", "f32"), ("f32b", "f32"), ("f16", "f16"), ("f16b", "f16"),
            ("bf16", "bf16"), ("bf16b", "bf16"), ("f64", "f64"), ("f64b", "f64")]  # fmt: skip
    return kernel("compares", args, body)


INT_OPS = ("add", "sub", "mul", "sdiv", "udiv", "srem", "urem", "and", "or", "xor", "shl", "lshr", "ashr")

FLOAT_OPS = ("fadd", "fsub", "fmul", "fdiv", "frem")


def _arithmetic() -> str:
    """Integer ops on i8/i16/i32/i64 (one operand a constant for i32), predicate logic on
    i1, float ops and fneg on f16/bf16/f32/f64, select on every type."""
    body = [
        "%seven = llvm.mlir.constant(7 : i32) : i32",
        "%three8 = llvm.mlir.constant(3 : i8) : i8",
        "%half = llvm.mlir.constant(0.5 : f32) : f32",
        "%hb = llvm.mlir.constant(0.5 : bf16) : bf16",
    ]
    k = 0
    for t in ("i8", "i16", "i32", "i64"):
        for name in INT_OPS:
            rhs = {"i32": "%seven"}.get(t, f"%{t}b")
            body.append(f"%a{k} = llvm.{name} %{t}, {rhs} : {t}")
            body.append(store("%out", f"%a{k}", t))
            k += 1
    body.append(f"%a{k} = llvm.lshr %i8, %three8 : i8")
    body.append(store("%out", f"%a{k}", "i8"))
    k += 1
    for name in ("and", "or", "xor", "add", "sub", "mul"):
        body.append(f"%a{k} = llvm.{name} %i1, %i1b : i1")
        body.append(store("%out", f"%a{k}", "i1"))
        k += 1
    for t in ("f16", "bf16", "f32", "f64"):
        for name in FLOAT_OPS:
            rhs = {"f32": "%half", "bf16": "%hb"}.get(t, f"%{t}b") if name == "fadd" else f"%{t}b"
            body.append(f"%a{k} = llvm.{name} %{t}, {rhs} : {t}")
            body.append(store("%out", f"%a{k}", t))
            k += 1
        body.append(f"%a{k} = llvm.fneg %{t} : {t}")
        body.append(store("%out", f"%a{k}", t))
        k += 1
    for t in ("i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"):
        body.append(f"%a{k} = llvm.select %i1, %{t}, %{t}b : i1, {t}")
        body.append(store("%out", f"%a{k}", t))
        k += 1
    args = [("out", "ptr")]
    for t in ("i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"):
        args += [(t, t), (f"{t}b", t)]
    return kernel("arithmetic", args, body)


MODULES = {
    "vector_add": _vector_add(),
    "loops": loops_kernel(),
    "intrinsics": _intrinsics(),
    "shared_static": _shared(1024),
    "shared_dynamic": _shared(64 * 1024),
    "casts": _casts(),
    "compares": _compares(),
    "arithmetic": _arithmetic(),
}
"""Hand-written lowered modules, one per area of the contract (MLIR text)."""


# -- tools -------------------------------------------------------------------------------------


def run_tool(args: list[str], files: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``args`` in a temporary directory holding ``files`` (name -> text)."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in files.items():
            Path(tmp, name).write_text(text)
        return subprocess.run(args, cwd=tmp, capture_output=True, text=True, timeout=120)


def ptxas_errors(ptx: str, arch: str) -> str | None:
    """None when ``ptxas -arch=<arch>`` accepts ``ptx``, else its messages."""
    r = run_tool(["ptxas", f"-arch={arch}", "k.ptx", "-o", "k.cubin"], {"k.ptx": ptx})
    return None if r.returncode == 0 else r.stdout + r.stderr


needs_ptxas = pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas (CUDA) is not on PATH")

needs_simulator = pytest.mark.skipif(
    find_spec("ltc.lowering.ptxsim.run") is None, reason="ltc's PTX simulator (ltc.lowering.ptxsim.run) is not there"
)

needs_llvm = pytest.mark.skipif(
    shutil.which("llc") is None or shutil.which("llvm-as") is None, reason="LLVM 14 llc/llvm-as are not on PATH"
)
needs_llc_and_simulator = pytest.mark.skipif(
    shutil.which("llc") is None or find_spec("ltc.lowering.ptxsim.run") is None,
    reason="needs LLVM 14 llc and ltc's PTX simulator (ltc.lowering.ptxsim.run)",
)


def llc(ir: str) -> str:
    """PTX from ``llc -march=nvptx64 -mcpu=sm_80`` (after ``llvm-as`` checks the IR)."""
    r = run_tool(["llvm-as", "k.ll", "-o", "k.bc"], {"k.ll": ir})
    assert r.returncode == 0, f"llvm-as:\n{r.stderr}\n{ir}"
    r = run_tool(["llc", "-march=nvptx64", "-mcpu=sm_80", "k.ll", "-o", "-"], {"k.ll": ir})
    assert r.returncode == 0, f"llc:\n{r.stderr}\n{ir}"
    return r.stdout


# -- semantics, in ltc's PTX simulator ---------------------------------------------------------------
#
# Elementwise kernels: thread t loads element t of each input, applies one op, stores
# element t of the output. References are exact: integer arithmetic in Python,
# rounding by a correctly rounded conversion of the exact rational value.

N_THREADS = 64

NP_DTYPE = {
    "i1": np.uint8, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "f16": np.float16, "bf16": np.uint16, "f32": np.float32, "f64": np.float64,
}  # fmt: skip

BITS = {"i1": 8, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "f16": 16, "bf16": 16, "f32": 32, "f64": 64}

_LOAD = {
    "i8": ("ld.global.u8 $0, [$1];", "h"), "i16": ("ld.global.b16 $0, [$1];", "h"),
    "f16": ("ld.global.b16 $0, [$1];", "h"), "bf16": ("ld.global.b16 $0, [$1];", "h"),
    "i32": ("ld.global.b32 $0, [$1];", "r"), "f32": ("ld.global.f32 $0, [$1];", "f"),
    "i64": ("ld.global.b64 $0, [$1];", "l"), "f64": ("ld.global.f64 $0, [$1];", "d"),
}  # fmt: skip


def elementwise_kernel(ins: list[str], out: str, ops: list[str]) -> str:
    """Inputs ``%x0, %x1, ...`` of types ``ins``; ``ops`` define ``%y`` of type ``out``."""
    body = ['%tid = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32']
    for k, t in enumerate(ins):
        stored = "i8" if t == "i1" else t
        text, c = _LOAD[stored]
        body.append(f"%p{k} = llvm.getelementptr %in{k}[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, {stored}")
        name = f"%b{k}" if t == "i1" else f"%x{k}"
        body.append(f'{name} = llvm.inline_asm "{text}", "={c},l" %p{k} : (!llvm.ptr<1>) -> {stored}')
        if t == "i1":
            body.append(f"%x{k} = llvm.trunc %b{k} : i8 to i1")
    body += ops
    stored = "i8" if out == "i1" else out
    body.append(f"%po = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, {stored}")
    body.append(store("%po", "%y", out))
    args = [(f"in{k}", "ptr") for k in range(len(ins))] + [("out", "ptr")]
    return kernel("elementwise", args, body, reqntid=N_THREADS)


def simulate(ptx: str, inputs: list[np.ndarray], out: str) -> np.ndarray:
    """Run an elementwise kernel's PTX in ltc's simulator; the output array."""
    sim = pytest.importorskip("ltc.lowering.ptxsim.run", reason="ltc's PTX simulator is not there")
    from ltc.lowering.ptxsim.parse import parse_ptx

    result = np.zeros(N_THREADS, dtype=NP_DTYPE[out])
    try:
        sim.run_kernel(parse_ptx(ptx), (1, 1, 1), [*inputs, result])
    except sim.SimulationError as e:
        if "support" in str(e):  # an instruction the simulator does not model (yet)
            pytest.skip(f"simulator: {e}")
        raise
    return result


def pad(values: list, t: str) -> np.ndarray:
    """``values`` (bit patterns for bf16) as an array of N_THREADS (repeating)."""
    assert 0 < len(values) <= N_THREADS
    return np.array([values[i % len(values)] for i in range(N_THREADS)], dtype=NP_DTYPE[t])


# Exact rounding to a binary float format: (mantissa bits, exponent bits).
FORMAT = {"f16": (10, 5), "bf16": (7, 8), "f32": (23, 8), "f64": (52, 11)}


def round_to(value: float | int | Fraction, t: str, negative_zero: bool = False) -> int:
    """Bits of ``value`` rounded to nearest even in format ``t`` (NaN: the quiet NaN)."""
    m, e = FORMAT[t]
    bias = (1 << (e - 1)) - 1
    sign_bit = 1 << (m + e)
    if isinstance(value, float):
        if math.isnan(value):
            return ((1 << e) - 1) << m | 1 << (m - 1)
        if math.isinf(value):
            return (sign_bit if value < 0 else 0) | ((1 << e) - 1) << m
        negative_zero = negative_zero or math.copysign(1.0, value) < 0
    x = Fraction(value)
    sign = sign_bit if (x < 0 or (x == 0 and negative_zero)) else 0
    a = abs(x)
    if a == 0:
        return sign
    exp = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** exp > a:
        exp -= 1
    while Fraction(2) ** (exp + 1) <= a:
        exp += 1
    exp = max(exp, 1 - bias)
    n = round(a / Fraction(2) ** (exp - m))  # half to even
    if n == 1 << (m + 1):
        n, exp = n >> 1, exp + 1
    if exp > bias:
        return sign | ((1 << e) - 1) << m  # overflow: infinity
    if n < 1 << m:
        return sign | n  # subnormal
    return sign | (exp + bias) << m | (n - (1 << m))


def value_of(bits: int, t: str) -> float:
    """The float a bit pattern of format ``t`` stands for."""
    if t == "bf16":
        return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    fmt = {"f16": "<e", "f32": "<f", "f64": "<d"}[t]
    size = {"f16": "<H", "f32": "<I", "f64": "<Q"}[t]
    return struct.unpack(fmt, struct.pack(size, bits))[0]


def as_bits(arr: np.ndarray, t: str) -> list[int]:
    width = BITS[t]
    return [int(v) for v in arr.view({8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[width])]


def assert_same(got: np.ndarray, want_bits: list[int], t: str, what: str) -> None:
    """Bit-exact, except that any NaN matches a NaN."""
    got_bits = as_bits(got, t)
    for i, (g, w) in enumerate(zip(got_bits, want_bits, strict=True)):
        if t in FORMAT and math.isnan(value_of(w, t)):
            assert math.isnan(value_of(g, t)), f"{what}[{i}]: got {g:#x}, want NaN"
        else:
            assert g == w, f"{what}[{i}]: got {g:#x}, want {w:#x}"


# Test values per type (bf16 as bit patterns).
VALUES = {
    "i1": [0, 1],
    "i8": [-128, -1, 0, 1, 2, 7, 100, 127, -100, 55],
    "i16": [-32768, -1, 0, 1, 255, 256, 32767, -300, 1000],
    "i32": [-(2**31), -1, 0, 1, 2**31 - 1, 123456789, -987654321, 16777217, 65535, 33554435],
    "i64": [-(2**63), -1, 0, 1, 2**63 - 1, 2**53 + 1, -(2**40) + 3, 2**31, 2**24 + 1, 0x123456789ABCDEF],
    "f16": [0.0, -0.0, 1.0, -2.0, 65504.0, 6.103515625e-05, 5.960464477539063e-08, math.inf, math.nan, 0.333251953125],
    "bf16": [0x0000, 0x8000, 0x3F80, 0xBFC0, 0x7F7F, 0x0001, 0x7F80, 0x7FC0, 0x4049, 0xC2F7],
    "f32": [0.0, -0.0, 1.0, -1.5, 0.1, 3.4e38, -1e-40, math.inf, -math.inf, math.nan, 65520.0,
            16777217.0, 1.00390625, 1.01171875, -2.5, 3.5, 1e-8],
    "f64": [0.0, -0.0, 1.0, 0.1, 1e300, -1e-300, math.inf, math.nan, 1.0000000596046448,
            2.0**-140, 65519.99, 1.00390625 + 2.0**-40, -3.4028235677973366e38, 1.0 + 2.0**-8 + 2.0**-30],
}  # fmt: skip


def input_array(t: str, values: list | None = None) -> np.ndarray:
    values = VALUES[t] if values is None else values
    if t in ("f16", "f32", "f64"):
        return pad(values, t)
    return pad([v & 0xFFFF if t == "bf16" else v for v in values], t)


def exact(bits: int, t: str) -> float | int:
    """The exact value of an input element (floats as Python floats)."""
    if t in FORMAT:
        return value_of(bits, t)
    return signed_value(bits, BITS[t]) if t != "i1" else bits & 1


def cast_reference(kind: str, s: str, d: str, x: float | int) -> int:
    """Bits of the cast of value ``x`` (a Python int or float), or None for poison."""
    if kind in ("zext", "trunc") or (kind == "sext" and s == "i1"):
        if kind == "sext":
            x = -x
        if s != "i1" and kind == "zext":
            x &= (1 << BITS[s]) - 1
        return x & ((1 << BITS[d]) - 1) if d != "i1" else x & 1
    if kind == "sext":
        return x & ((1 << BITS[d]) - 1)
    if kind in ("fpext", "fptrunc"):
        return round_to(x, d)
    if kind in ("sitofp", "uitofp"):
        if kind == "uitofp" or s == "i1":
            x = (x & ((1 << BITS[s]) - 1)) if s != "i1" else x
            if kind == "sitofp" and s == "i1":
                x = -x
        return round_to(x, d)
    if kind in ("fptosi", "fptoui"):
        if math.isnan(x) or math.isinf(x):
            return None  # type: ignore[return-value]
        n = math.trunc(x)
        width = BITS[d]
        lo, hi = (-(1 << (width - 1)), 1 << (width - 1)) if kind == "fptosi" else (0, 1 << width)
        if not lo <= n < hi:
            return None  # type: ignore[return-value]
        return n & ((1 << width) - 1)
    raise AssertionError(kind)


SEMANTIC_CASTS = [c for c in CASTS if c[0] not in ("bitcast", "ptrtoint", "inttoptr")]


def check_cast(to_ptx: Callable[[str], str], kind: str, s: str, d: str) -> None:
    """Run one cast over VALUES[s] and compare with :func:`cast_reference`."""
    arr = input_array(s)
    inputs = [exact(b, s) for b in as_bits(arr, s)]
    want = [cast_reference(kind, s, d, x) for x in inputs]
    keep = [i for i, w in enumerate(want) if w is not None]
    assert len(keep) >= 2
    arr = pad([arr[i] for i in keep], s)
    want = [want[keep[i % len(keep)]] for i in range(N_THREADS)]
    op = f'"llvm.{kind}"(%x0) : ({s}) -> {d}' if kind in ("fptosi", "fptoui", "uitofp") else f"llvm.{kind} %x0 : {s} to {d}"
    text = elementwise_kernel([s], d, [f"%y = {op}"])
    got = simulate(to_ptx(text), [arr], d)
    assert_same(got, want, d if d != "i1" else "i8", f"{kind} {s}->{d}")


def icmp_reference(p: str, a: int, b: int, width: int) -> bool:
    ua, ub = a & ((1 << width) - 1), b & ((1 << width) - 1)
    x, y = (to_signed(ua, width), to_signed(ub, width)) if p[0] == "s" else (ua, ub)
    rel = p if p in ("eq", "ne") else p[1:]
    return {"eq": x == y, "ne": x != y, "lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y}[rel]


def fcmp_reference(p: str, a: float, b: float) -> bool:
    unordered = math.isnan(a) or math.isnan(b)
    if p in ("true", "false"):
        return p == "true"
    if p == "ord":
        return not unordered
    if p == "uno":
        return unordered
    rel = {"eq": a == b, "gt": a > b, "ge": a >= b, "lt": a < b, "le": a <= b, "ne": a != b}[p[1:]]
    return (not unordered and rel) if p[0] == "o" else (unordered or rel)


def pairs(t: str) -> tuple[np.ndarray, np.ndarray]:
    """Every ordered pair of a few values of ``t`` (up to N_THREADS)."""
    vals = VALUES[t][:8]
    a = [x for x in vals for _ in vals][:N_THREADS]
    b = [y for _ in vals for y in vals][:N_THREADS]
    return input_array(t, a), input_array(t, b)


def check_compares(to_ptx: Callable[[str], str], t: str) -> None:
    a, b = pairs(t)
    xa = [exact(v, t) for v in as_bits(a, t)]
    xb = [exact(v, t) for v in as_bits(b, t)]
    preds = ICMP_PREDICATES if t[0] == "i" else (*FCMP_PREDICATES, "true", "false")
    for p in preds:
        if t[0] == "i":
            op = f'%y = llvm.icmp "{p}" %x0, %x1 : {t}'
            want = [int(icmp_reference(p, x, y, BITS[t] if t != "i1" else 1)) for x, y in zip(xa, xb)]
        else:
            name = f"_{p}" if p in ("true", "false") else p
            op = f'%y = llvm.fcmp "{name}" %x0, %x1 : {t}'
            want = [int(fcmp_reference(p, x, y)) for x, y in zip(xa, xb)]
        got = simulate(to_ptx(elementwise_kernel([t, t], "i1", [op])), [a, b], "i1")
        assert_same(got, want, "i8", f"{p} on {t}")


def to_signed(bits: int, width: int) -> int:
    """Two's complement, i1 included (true is -1)."""
    return bits - (1 << width) if bits >> (width - 1) & 1 else bits


def int_reference(op: str, a: int, b: int, width: int) -> int | None:
    """Bits of ``a op b`` at ``width`` bits; None where LLVM says poison or UB."""
    mask = (1 << width) - 1
    ua, ub = a & mask, b & mask
    sa, sb = to_signed(ua, width), to_signed(ub, width)
    if op in ("sdiv", "srem", "udiv", "urem") and ub == 0:
        return None
    if op in ("sdiv", "srem") and sa == -(1 << (width - 1)) and sb == -1:
        return None
    if op in ("shl", "lshr", "ashr") and ub >= width:
        return None
    if op in ("sdiv", "srem"):
        q = abs(sa) // abs(sb) * (1 if (sa >= 0) == (sb >= 0) else -1)  # toward zero
        return (q if op == "sdiv" else sa - sb * q) & mask
    simple = {
        "add": lambda: ua + ub, "sub": lambda: ua - ub, "mul": lambda: ua * ub,
        "and": lambda: ua & ub, "or": lambda: ua | ub, "xor": lambda: ua ^ ub,
        "udiv": lambda: ua // ub, "urem": lambda: ua % ub,
        "shl": lambda: ua << ub, "lshr": lambda: ua >> ub, "ashr": lambda: sa >> ub,
    }  # fmt: skip
    return simple[op]() & mask


def check_int_arithmetic(to_ptx: Callable[[str], str], t: str, skip: tuple[str, ...] = ()) -> None:
    width = BITS[t] if t != "i1" else 1
    if t == "i1":
        vals_a, vals_b = [0, 0, 1, 1], [0, 1, 0, 1]
        ops = ["add", "sub", "mul", "and", "or", "xor"]
    else:
        base = VALUES[t][:8] + [3, -5]
        vals_a = [x for x in base for _ in base][:N_THREADS]
        vals_b = [y for _ in base for y in base][:N_THREADS]
        ops = [op for op in INT_OPS if op not in skip]
    for op in ops:
        pairs_ok = []
        for x, y in zip(vals_a, vals_b):
            yy = y % width if op in ("shl", "lshr", "ashr") else y
            r = int_reference(op, x, yy, width) if t != "i1" else int_reference(op, x, yy, 1)
            if r is not None:
                pairs_ok.append((x, yy, r))
        a = input_array(t, [p[0] for p in pairs_ok])
        b = input_array(t, [p[1] for p in pairs_ok])
        want = [pairs_ok[i % len(pairs_ok)][2] for i in range(N_THREADS)]
        got = simulate(to_ptx(elementwise_kernel([t, t], t, [f"%y = llvm.{op} %x0, %x1 : {t}"])), [a, b], t)
        out_t = "i8" if t == "i1" else t
        assert_same(got, want, out_t, f"{op} on {t}")


def float_reference(op: str, a: float, b: float, t: str) -> int:
    """Bits of ``a op b`` rounded once to ``t`` (float64 then round: exact or innocuous
    double rounding for f16/bf16/f32 operands)."""
    if op == "frem":
        r = math.nan if (math.isnan(a) or math.isnan(b) or math.isinf(a) or b == 0) else math.fmod(a, b)
        return round_to(r, t)
    if op == "fneg":
        return round_to(-a, t)
    with np.errstate(all="ignore"):
        x, y = np.float64(a), np.float64(b)
        r = {"fadd": x + y, "fsub": x - y, "fmul": x * y, "fdiv": x / y}[op]
    if t == "f64":
        return int(np.array(r, dtype=np.float64).view(np.uint64))
    return round_to(float(r), t)


def frem_sequence_is_exact(a: float, b: float, t: str) -> bool:
    """Whether ``a - trunc(a/b)*b`` (a/b rounded in the compute format: f32 for
    f16/bf16) has the exact quotient's integer part: the emitters' frem is then fmod."""
    if not all(math.isfinite(v) for v in (a, b)) or b == 0 or abs(a) < abs(b):
        return True
    compute = "f64" if t == "f64" else "f32"
    q = Fraction(a) / Fraction(b)
    rounded = value_of(round_to(q, compute), compute)
    return math.isfinite(rounded) and math.trunc(rounded) == math.trunc(q)


def check_float_arithmetic(to_ptx: Callable[[str], str], t: str) -> None:
    base = VALUES[t][:8]
    a, b = input_array(t, [x for x in base for _ in base]), input_array(t, [y for _ in base for y in base])
    xa = [exact(v, t) for v in as_bits(a, t)]
    xb = [exact(v, t) for v in as_bits(b, t)]
    for op in ("fadd", "fsub", "fmul", "fdiv", "frem", "fneg"):
        rows = list(zip(xa, xb))
        if op == "frem":
            rows = [(x, y) for x, y in rows if frem_sequence_is_exact(x, y, t)]
        arr_a = input_array(t, [round_to(x, t) if t == "bf16" else x for x, _ in rows])
        arr_b = input_array(t, [round_to(y, t) if t == "bf16" else y for _, y in rows])
        want = [float_reference(op, *rows[i % len(rows)], t) for i in range(N_THREADS)]
        line = f"%y = llvm.fneg %x0 : {t}" if op == "fneg" else f"%y = llvm.{op} %x0, %x1 : {t}"
        got = simulate(to_ptx(elementwise_kernel([t, t], t, [line])), [arr_a, arr_b], t)
        assert_same(got, want, t, f"{op} on {t}")


def check_vector_add(ptx: str) -> None:
    from ltc.lowering.ptxsim.parse import parse_ptx
    from ltc.lowering.ptxsim.run import run_kernel

    n = 1000
    rng = np.random.default_rng(0)
    a = rng.standard_normal(1024).astype(np.float32)
    b = rng.standard_normal(1024).astype(np.float32)
    c = np.full(1024, -1.0, dtype=np.float32)
    run_kernel(parse_ptx(ptx), (2, 1, 1), [a, b, c, np.int32(n)])
    np.testing.assert_array_equal(c[:n], a[:n] + b[:n])
    np.testing.assert_array_equal(c[n:], np.full(1024 - n, -1.0, dtype=np.float32))


def loop_reference(n: int, threads: int) -> np.ndarray:
    """What the uniform loops kernel stores, as uint32 words ``out[8 t + k]``."""
    acc, x, y, z, h, flag = np.float32(0), 0, 1, 2, np.float16(1), True
    for i in range(n):
        fi = np.float32(i)
        acc2 = np.float32(acc + fi)
        pick = np.float32(acc2 * fi) if i & 1 else acc2
        h = np.float16(h + h)
        flag = flag ^ bool(i & 1)
        acc, x, y, z = pick, y, z, x
    out = np.zeros((threads, 8), dtype=np.uint32)
    out[:, 0] = np.array(acc, dtype=np.float32).view(np.uint32)
    out[:, 1], out[:, 2], out[:, 3] = x, y, z
    out[:, 4] = int(np.array(h, dtype=np.float16).view(np.uint16))
    out[:, 5] = int(flag)
    out[:, 6] = np.arange(threads) + 0 + 1 + 2 + 3
    return out.reshape(-1)


def check_loops(ptx: str) -> None:
    from ltc.lowering.ptxsim.parse import parse_ptx
    from ltc.lowering.ptxsim.run import run_kernel

    module = parse_ptx(ptx)
    for n in (0, 1, 2, 5, 8):
        out = np.zeros(128 * 8, dtype=np.uint32)
        run_kernel(module, (1, 1, 1), [out, np.int32(n)])
        np.testing.assert_array_equal(out, loop_reference(n, 128), err_msg=f"n = {n}")


def shuffle_kernel() -> str:
    """out[t] = shfl.bfly(3 t + 1, lane mask t % 7) and out[128 + t] = shfl.idx(3 t + 1,
    lane (5 t) % 32), full member mask, clamp 31."""
    body = [
        '%tid = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32',
        "%all = llvm.mlir.constant(-1 : i32) : i32",
        "%c31 = llvm.mlir.constant(31 : i32) : i32",
        "%c1 = llvm.mlir.constant(1 : i32) : i32",
        "%c3 = llvm.mlir.constant(3 : i32) : i32",
        "%c5 = llvm.mlir.constant(5 : i32) : i32",
        "%c7 = llvm.mlir.constant(7 : i32) : i32",
        "%c128 = llvm.mlir.constant(128 : i32) : i32",
        "%t3 = llvm.mul %tid, %c3 : i32",
        "%v = llvm.add %t3, %c1 : i32",
        "%m = llvm.urem %tid, %c7 : i32",
        "%t5 = llvm.mul %tid, %c5 : i32",
        "%src = llvm.and %t5, %c31 : i32",
        '%b = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.i32"(%all, %v, %m, %c31) : (i32, i32, i32, i32) -> i32',
        '%i = llvm.call_intrinsic "llvm.nvvm.shfl.sync.idx.i32"(%all, %v, %src, %c31) : (i32, i32, i32, i32) -> i32',
        "%pb = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32",
        "%j = llvm.add %tid, %c128 : i32",
        "%pi = llvm.getelementptr %out[%j] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32",
        store("%pb", "%b", "i32"),
        store("%pi", "%i", "i32"),
    ]
    return kernel("shuffles", [("out", "ptr")], body)


def check_shuffles(ptx: str) -> None:
    from ltc.lowering.ptxsim.parse import parse_ptx
    from ltc.lowering.ptxsim.run import run_kernel

    out = np.zeros(256, dtype=np.int32)
    run_kernel(parse_ptx(ptx), (1, 1, 1), [out])
    t = np.arange(128)
    value = 3 * t + 1
    warp_base = t // 32 * 32
    np.testing.assert_array_equal(out[:128], value[warp_base + ((t % 32) ^ (t % 7))])
    np.testing.assert_array_equal(out[128:], value[warp_base + (5 * t) % 32])
