"""Regenerate the real Triton 3.9 IR in this folder (no GPU needed).

Usage: python examples/triton/gen_ir.py [NAME ...]   (default: every kernel)
Compiles the kernels below with triton==3.9.0 for GPUTarget("cuda", 90, 32) on the CPU
and writes NAME.ttir / NAME.ttgir next to this file, with the absolute path of this
script stripped from every `loc(...)`.
"""
from __future__ import annotations

import os
import pathlib
import re
import tempfile

_scratch = tempfile.mkdtemp(prefix="ltc-triton-ir-")
os.environ.setdefault("TRITON_CACHE_DIR", os.path.join(_scratch, "cache"))
os.environ.setdefault("TRITON_HOME", os.path.join(_scratch, "home"))

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler.compiler import ASTSource  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def softmax(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_stride + cols, y, mask=mask)


@triton.jit
def layer_norm(x_ptr, y_ptr, w_ptr, b_ptr, stride, n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n
    xc = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xc * xc, axis=0) / n
    rstd = 1 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask)
    b = tl.load(b_ptr + cols, mask=mask)
    y = xc * rstd * w + b
    tl.store(y_ptr + row * stride + cols, y.to(tl.float16), mask=mask)


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a_tile = tl.load(a, mask=rk[None, :] < K - k, other=0.0)
        b_tile = tl.load(b, mask=rk[:, None] < K - k, other=0.0)
        acc = tl.dot(a_tile, b_tile, acc)
        a += BK * sak
        b += BK * sbk
    c = c_ptr + rm[:, None] * scm + rn[None, :] * scn
    tl.store(c, acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, stride_m, n_ctx, scale,
                  BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    start_m = tl.program_id(0)
    off_m = start_m * BM + tl.arange(0, BM)
    off_n = tl.arange(0, BN)
    off_d = tl.arange(0, D)
    q = tl.load(q_ptr + off_m[:, None] * stride_m + off_d[None, :])
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start_n in range(0, n_ctx, BN):
        k = tl.load(k_ptr + (start_n + off_n)[None, :] * stride_m + off_d[:, None])
        qk = tl.dot(q, k) * scale
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr + (start_n + off_n)[:, None] * stride_m + off_d[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + off_m[:, None] * stride_m + off_d[None, :], acc.to(tl.float16))


@triton.jit
def tma_matmul(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr,
               BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([pid_m * BM, k])
        b = b_desc.load([k, pid_n * BN])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


@triton.jit
def scan_gather_misc(x_ptr, idx_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    c = tl.cumsum(x, axis=0)
    i = tl.load(idx_ptr + offs)
    g = tl.gather(c, i, axis=0)
    hi, lo = tl.split(tl.reshape(tl.join(g, x), [BLOCK, 2]))
    s = tl.sqrt_rn(hi) + tl.div_rn(lo, hi)
    t = tl.clamp(s, 0.0, 1.0)
    tl.atomic_add(out_ptr + offs, t)
    tl.store(out_ptr + offs, tl.trans(tl.reshape(t, [BLOCK // 4, 4])).reshape([BLOCK]))


@triton.jit
def transpose(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=(rm[:, None] < M) & (rn[None, :] < N))
    tl.store(y_ptr + rn[:, None] * M + rm[None, :], tl.trans(x), mask=(rn[:, None] < N) & (rm[None, :] < M))


I32, F32, F16 = "i32", "*fp32", "*fp16"
KERNELS = [
    ("vector_add", vector_add, {"x_ptr": F32, "y_ptr": F32, "out_ptr": F32, "n": I32},
     {"BLOCK": 1024}, {}),
    ("softmax", softmax, {"out_ptr": F32, "in_ptr": F32, "in_stride": I32,
                          "out_stride": I32, "n_cols": I32}, {"BLOCK": 1024}, {}),
    ("layer_norm", layer_norm, {"x_ptr": F16, "y_ptr": F16, "w_ptr": F32, "b_ptr": F32,
                                "stride": I32, "n": I32, "eps": "fp32"},
     {"BLOCK": 2048}, {"num_warps": 8}),
    ("matmul", matmul, {"a_ptr": F16, "b_ptr": F16, "c_ptr": F16, "M": I32, "N": I32,
                        "K": I32, "sam": I32, "sak": I32, "sbk": I32, "sbn": I32,
                        "scm": I32, "scn": I32},
     {"BM": 128, "BN": 128, "BK": 64}, {"num_warps": 4, "num_stages": 3}),
    ("attention_fwd", attention_fwd, {"q_ptr": F16, "k_ptr": F16, "v_ptr": F16,
                                      "o_ptr": F16, "stride_m": I32, "n_ctx": I32,
                                      "scale": "fp32"},
     {"BM": 128, "BN": 64, "D": 64}, {"num_warps": 4, "num_stages": 2}),
    ("tma_matmul", tma_matmul, {"a_desc": "tensordesc<fp16[128, 64]>",
                                "b_desc": "tensordesc<fp16[64, 128]>",
                                "c_desc": "tensordesc<fp16[128, 128]>", "K": I32},
     {"BM": 128, "BN": 128, "BK": 64}, {"num_warps": 4, "num_stages": 3}),
    ("scan_gather_misc", scan_gather_misc, {"x_ptr": F32, "idx_ptr": "*i32", "out_ptr": F32},
     {"BLOCK": 256}, {}),
    ("transpose", transpose, {"x_ptr": F16, "y_ptr": F16, "M": I32, "N": I32},
     {"BM": 64, "BN": 64}, {"num_warps": 4}),
]
ATTRS = {"transpose": {(0,): [["tt.divisibility", 16]], (1,): [["tt.divisibility", 16]],
                       (2,): [["tt.divisibility", 16]], (3,): [["tt.divisibility", 16]]}}
"""Argument hints (as Triton's launcher would specialize them) per kernel."""


def strip_paths(text: str) -> str:
    """Replace the absolute path of this script in locations by its file name."""
    return re.sub(r'loc\("[^"]*/([^"/]+)"', r'loc("\1"', text)


def main(names: list[str]) -> None:
    target = GPUTarget("cuda", 90, 32)
    for name, fn, signature, constexprs, options in KERNELS:
        if names and name not in names:
            continue
        sig = dict(signature, **{k: "constexpr" for k in constexprs})
        src = ASTSource(fn=fn, signature=sig, constexprs=constexprs, attrs=ATTRS.get(name))
        compiled = triton.compile(src, target=target, options=options)
        for stage in ("ttir", "ttgir"):
            path = HERE / f"{name}.{stage}"
            path.write_text(strip_paths(compiled.asm[stage]))
            print(f"wrote {path.relative_to(HERE.parent.parent)}")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
