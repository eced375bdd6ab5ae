"""Lane-dependent selects and sub-word words in the lowering of conversion plans
(``ltc.lowering.llvm.convert_layout``, ``ltc.lowering.llvm.word_pack``): the predicate basis, exact
select / compare / permute counts of small hand-written plans, and kernels whose plans
select per lane, run in the PTX simulator."""

from __future__ import annotations

import shutil
import subprocess
import tempfile

import numpy as np
import pytest
from xdsl.dialects.builtin import IntegerType, i32
from xdsl.ir import Block

from ltc.linear_layout import LinearLayout
from ltc.lowering.llvm.builder import ThreadBuilder
from ltc.lowering.plans.convert import plan_conversion
from ltc.lowering.llvm.convert_layout import lower_plan, select_basis
from ltc.lowering.plans.plan import ConversionPlan, PlanStep, Reg, Select, SharedStore, ThreadAffine
from ltc.lowering.llvm.function import FunctionLowering
from ltc.passes.layout_ir import ModuleConfig
from ltc.tools.pipeline import compile_kernel


i8 = IntegerType(8)


# -- the predicate basis ----------------------------------------------------------------------
def _xor_of(columns: list[int], t: int) -> int:
    out = 0
    for i, c in enumerate(columns):
        if t >> i & 1:
            out ^= c
    return out


@pytest.mark.parametrize("seed", range(40))
def test_select_basis_reproduces_every_index(seed: int) -> None:
    """⊕ t_i·col_i == ⊕ parity(t & m_j)·v_j for every t, with as many v_j as the rank."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 8))
    pool = [int(x) for x in rng.integers(0, 16, size=3)]
    columns = [int(rng.choice(pool)) if rng.random() < 0.5 else int(rng.integers(0, 64)) for _ in range(n)]
    basis = select_basis(columns)
    rank = len({_xor_of(columns, t) for t in range(1 << n)}).bit_length() - 1
    assert len(basis) == rank
    for t in range(1 << n):
        got = 0
        for v, m in basis:
            if bin(t & m).count("1") % 2:
                got ^= v
        assert got == _xor_of(columns, t)


def test_select_basis_examples() -> None:
    # one column: one predicate, that tid bit
    assert select_basis([0, 4]) == [(4, 0b10)]
    # the same column twice: one predicate, the parity of both bits
    assert select_basis([4, 0, 4]) == [(4, 0b101)]
    # col2 = col0 ^ col1: both predicates also read bit 2
    assert select_basis([1, 2, 3]) == [(1, 0b101), (2, 0b110)]


# -- hand-written plans, exact op counts --------------------------------------------------------
def _lowering(num_warps: int = 4) -> FunctionLowering:
    block = Block()
    fl = FunctionLowering(ThreadBuilder(block), ModuleConfig(num_warps=num_warps))
    fl.entry = block
    return fl


def _plan(n_src: int, n_dst: int, bits: int, instructions: list) -> ConversionPlan:  # noqa: ANN001
    regs = lambda n: [[1 << i] for i in range(n.bit_length() - 1)]  # noqa: E731
    layout = lambda n: LinearLayout.from_bases(  # noqa: E731
        {"register": regs(n), "lane": [], "warp": [], "block": []}, {"dim0": n}
    )
    return ConversionPlan(
        "shuffle", layout(n_src), layout(n_dst), bits, (PlanStep("test", tuple(instructions)),), tmp_registers=64
    )


def _ops(fl: FunctionLowering, name: str) -> list:
    return [op for op in fl.b.block.ops if op.name == name]


def _asm(fl: FunctionLowering, text: str) -> int:
    return sum(text in op.properties["asm_string"].data for op in _ops(fl, "llvm.inline_asm"))


def test_selects_share_predicates_and_form_mux_trees() -> None:
    """Two selects over lane bits 0 and 1 (4 candidates: 3 selects each) and one over
    lane0 ⊕ lane2 (one parity predicate): 3 compares, 7 selects — where a compare per
    candidate would be 7 compares."""
    fl = _lowering()
    src = tuple(Block(arg_types=[i32] * 8).args)
    plan = _plan(8, 4, 32, [
        Select(Reg("dst", 0), "src", ThreadAffine(0, (1, 2))),
        Select(Reg("dst", 1), "src", ThreadAffine(1, (2, 4))),
        Select(Reg("dst", 2), "src", ThreadAffine(4, (1, 0, 1))),
        Select(Reg("dst", 3), "src", ThreadAffine(3)),
    ])
    out = lower_plan(fl, plan, src, i32)
    assert len(_ops(fl, "llvm.icmp")) == 3
    assert len(_ops(fl, "llvm.select")) == 7
    assert out[3] is src[3]


def _bytes_of_words(fl: FunctionLowering, n_words: int) -> tuple[tuple, tuple]:
    """``n_words`` fresh i32 words and their bytes (unpacked by the builder, so known as such)."""
    words = tuple(Block(arg_types=[i32] * n_words).args)
    return words, tuple(v for w in words for v in fl.b.unpack(w, i8, 4))


def test_byte_selects_feeding_a_word_select_whole_words() -> None:
    """Four byte selects src[k ⊕ lane0·4] (k = 0..3) stored as one word: the word is one
    select between the two source words — no per-byte select, no byte packing."""
    fl = _lowering()
    words, src = _bytes_of_words(fl, 2)
    plan = _plan(8, 1, 8, [
        *(Select(Reg("tmp", k), "src", ThreadAffine(k, (4,))) for k in range(4)),
        SharedStore(tuple(Reg("tmp", k) for k in range(4)), ThreadAffine(0)),
        Select(Reg("dst", 0), "src", ThreadAffine(0)),
    ])
    unpacking = _asm(fl, "prmt")  # the bytes' own extraction
    lower_plan(fl, plan, src, i8)
    assert len(_ops(fl, "llvm.icmp")) == 1
    (sel,) = _ops(fl, "llvm.select")
    assert list(sel.operands[1:]) == [words[1], words[0]]  # lane0 set: the second word
    assert _asm(fl, "prmt") == unpacking
    (store,) = [op for op in _ops(fl, "llvm.inline_asm") if "st.shared" in op.properties["asm_string"].data]
    assert store.operands[1] is sel.results[0]


def test_byte_arrangement_chosen_per_lane_is_one_permute() -> None:
    """dst[0..3] = bytes (0, 1, 4, 5) of the source words when lane1 = 0, (4, 5, 0, 1) when
    it is 1: one prmt whose selector is chosen per lane (one select of two constants), and
    the destination bytes are taken from that word."""
    fl = _lowering()
    _, src = _bytes_of_words(fl, 2)
    plan = _plan(8, 4, 8, [
        Select(Reg("dst", j), "src", ThreadAffine(k, (0, 4))) for j, k in enumerate((0, 1, 4, 5))
    ])
    out = lower_plan(fl, plan, src, i8)
    assert len(_ops(fl, "llvm.icmp")) == 1
    (sel,) = _ops(fl, "llvm.select")
    consts = sorted(op.value.value.data for op in _ops(fl, "llvm.mlir.constant") if op.result in sel.operands)
    assert consts == [0x1054, 0x5410]
    assert _asm(fl, "prmt.b32 $0, $1, $2, $3;") == 1
    assert fl.b.pack(out, i32).owner.properties["asm_string"].data == "prmt.b32 $0, $1, $2, $3;"


# -- hand-written plans, evaluated per thread ----------------------------------------------------
class _Threads:
    """Evaluates the ops :func:`lower_plan` makes, for all threads of a CTA at once (values
    are uint64 arrays over ``tid``); ``st.shared`` records its operands instead of storing."""

    def __init__(self, fl: FunctionLowering, args: dict) -> None:  # noqa: ANN001
        self.threads = fl.threads
        self.vals = dict(args)
        self.stores: list[list[np.ndarray]] = []
        for op in fl.b.block.ops:
            self.run(op)

    def width(self, v) -> int:  # noqa: ANN001
        return v.type.width.data

    def get(self, v) -> np.ndarray:  # noqa: ANN001
        return self.vals[v]

    def put(self, v, x: np.ndarray) -> None:  # noqa: ANN001
        self.vals[v] = np.asarray(x, np.uint64) & np.uint64((1 << self.width(v)) - 1)

    def run(self, op) -> None:  # noqa: ANN001, C901
        name = op.name
        ins = [self.get(v) for v in op.operands] if name != "llvm.inline_asm" else []
        if name == "llvm.mlir.constant":
            self.put(op.results[0], np.full(self.threads, op.value.value.data % (1 << 64), np.uint64))
        elif name == "llvm.call_intrinsic":
            assert op.properties["intrin"].data == "llvm.nvvm.read.ptx.sreg.tid.x"
            self.put(op.results[0], np.arange(self.threads, dtype=np.uint64))
        elif name in ("llvm.and", "llvm.or", "llvm.xor", "llvm.add", "llvm.sub", "llvm.mul"):
            f = {"llvm.and": np.bitwise_and, "llvm.or": np.bitwise_or, "llvm.xor": np.bitwise_xor,
                 "llvm.add": np.add, "llvm.sub": np.subtract, "llvm.mul": np.multiply}[name]
            self.put(op.results[0], f(*ins))
        elif name in ("llvm.shl", "llvm.lshr"):
            self.put(op.results[0], ins[0] << ins[1] if name == "llvm.shl" else ins[0] >> ins[1])
        elif name == "llvm.icmp":
            pred = op.properties["predicate"].value.data
            assert pred in (0, 1)
            self.put(op.results[0], (ins[0] == ins[1]) if pred == 0 else (ins[0] != ins[1]))
        elif name == "llvm.select":
            self.put(op.results[0], np.where(ins[0] != 0, ins[1], ins[2]))
        elif name in ("llvm.zext", "llvm.trunc", "llvm.bitcast", "llvm.ptrtoint"):
            self.put(op.results[0], ins[0])
        elif name == "llvm.mlir.addressof":  # the shared base (its value does not matter)
            self.vals[op.results[0]] = np.zeros(self.threads, np.uint64)
        elif name == "llvm.inline_asm":
            self.asm(op, [self.get(v) for v in op.operands])
        else:
            raise AssertionError(f"unexpected op {name}")

    def asm(self, op, ins: list[np.ndarray]) -> None:  # noqa: ANN001
        text = op.properties["asm_string"].data
        if text.startswith("st.shared"):
            self.stores.append(ins[1:])
            return
        if text.startswith("mov.b32 $0, {$1, $2}"):
            self.put(op.results[0], (ins[0] & np.uint64(0xFFFF)) | (ins[1] & np.uint64(0xFFFF)) << np.uint64(16))
            return
        assert text.startswith("prmt.b32"), text
        fields = text.rstrip(";").split(",")
        a = ins[0]
        b = ins[1] if fields[2].strip() != "0" else np.zeros_like(a)
        sel = ins[-1] if fields[3].strip().startswith("$") else np.full_like(a, int(fields[3], 16))
        x = a | b << np.uint64(32)
        out = np.zeros_like(a)
        for i in range(4):
            idx = (sel >> np.uint64(4 * i)) & np.uint64(7)
            assert not np.any((sel >> np.uint64(4 * i)) & np.uint64(8)), "sign-replicating selectors unexpected"
            out |= ((x >> (idx * np.uint64(8))) & np.uint64(0xFF)) << np.uint64(8 * i)
        self.put(op.results[0], out)


def _random_affine(rng: np.random.Generator, n_index_bits: int, warp_bits: int) -> ThreadAffine:
    top = 1 << n_index_bits
    lane = tuple(int(rng.integers(1, top)) if rng.random() < 0.3 else 0 for _ in range(5))
    warp = tuple(int(rng.integers(1, top)) if rng.random() < 0.4 else 0 for _ in range(warp_bits))
    if rng.random() < 0.3 and any(lane):  # a repeated column: a parity predicate
        lane = (*lane[:4], next(c for c in lane if c))
    return ThreadAffine(int(rng.integers(0, top)), lane, warp)


_TYPES = {8: i8, 16: IntegerType(16), 32: i32}


@pytest.mark.parametrize("bits", [8, 16, 32])
@pytest.mark.parametrize("from_words", [False, True])
@pytest.mark.parametrize("seed", range(8))
def test_random_selects_pick_per_thread(bits: int, from_words: bool, seed: int) -> None:
    """Random selects (lane and warp columns, repeated columns), their words stored and
    the destination registers read: every thread gets src[index(lane, warp)]."""
    rng = np.random.default_rng(seed * 7 + bits)
    fl = _lowering(num_warps=4)
    t, per = _TYPES[bits], 32 // bits
    threads = fl.threads
    args: dict = {}
    if from_words and bits < 32:
        words = Block(arg_types=[i32] * (8 // per)).args
        for w in words:
            args[w] = rng.integers(0, 1 << 32, threads, dtype=np.uint64)
        src = tuple(v for w in words for v in fl.b.unpack(w, t, per))
        truth = [(args[words[r // per]] >> np.uint64(bits * (r % per))) & np.uint64((1 << bits) - 1) for r in range(8)]
    else:
        src = tuple(Block(arg_types=[t] * 8).args)
        for v in src:
            args[v] = rng.integers(0, 1 << bits, threads, dtype=np.uint64)
        truth = [args[v] for v in src]
    def word_of_selects(n: int) -> list[ThreadAffine]:
        # plans select a word's elements with one linear part mostly (other constants)
        shared = _random_affine(rng, 3, 2)
        return [
            ThreadAffine(int(rng.integers(0, 8)), shared.lane, shared.warp) if rng.random() < 0.8
            else _random_affine(rng, 3, 2)
            for _ in range(n)
        ]

    dst_sel = [f for _ in range(8 // per) for f in word_of_selects(per)]
    tmp_sel = word_of_selects(per)
    instructions = [Select(Reg("tmp", k), "src", f) for k, f in enumerate(tmp_sel)]
    instructions.append(SharedStore(tuple(Reg("tmp", k) for k in range(per)), ThreadAffine(0)))
    instructions += [Select(Reg("dst", r), "src", f) for r, f in enumerate(dst_sel)]
    out = lower_plan(fl, _plan(8, 8, bits, instructions), src, t)
    ev = _Threads(fl, args)
    tid = np.arange(threads)
    lane, warp = tid % 32, tid // 32
    stack = np.stack(truth)
    for r, f in enumerate(dst_sel):
        np.testing.assert_array_equal(ev.get(out[r]), stack[f.evaluate(lane, warp), tid])
    (stored,) = ev.stores
    want = np.zeros(threads, np.uint64)
    for k, f in enumerate(tmp_sel):
        want |= stack[f.evaluate(lane, warp), tid] << np.uint64(bits * k)
    np.testing.assert_array_equal(stored[0], want)


# -- kernels run in the simulator ----------------------------------------------------------------
_DTYPES = {8: "i8", 16: "f16", 32: "f32", 64: "i64"}
_NP = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def _linear_text(ll: LinearLayout) -> str:
    def bases(dim: str) -> str:
        return "[" + ", ".join("[" + ", ".join(str(x) for x in b) + "]" for b in ll.bases.get(dim, [])) + "]"

    return (f"#ttg.linear<{{register = {bases('register')}, lane = {bases('lane')}, "
            f"warp = {bases('warp')}, block = []}}>")


def _convert_kernel(src: str, dst: str, shape: tuple[int, int], dtype: str, num_warps: int) -> str:
    """TTGIR: load a row-major ``shape`` tensor in layout ``src``, convert to ``dst``, store."""
    m, n = shape
    lines = []
    for tag, enc, ptr in (("a", "#src", "%in"), ("b", "#dst", "%out")):
        s0, s1 = f"#ttg.slice<{{dim = 1, parent = {enc}}}>", f"#ttg.slice<{{dim = 0, parent = {enc}}}>"
        lines += [
            f"%{tag}r0 = tt.make_range {{end = {m} : i32, start = 0 : i32}} : tensor<{m}xi32, {s0}>",
            f"%{tag}r1 = tt.make_range {{end = {n} : i32, start = 0 : i32}} : tensor<{n}xi32, {s1}>",
            f"%{tag}e0 = tt.expand_dims %{tag}r0 {{axis = 1 : i32}} : tensor<{m}xi32, {s0}> -> tensor<{m}x1xi32, {enc}>",
            f"%{tag}e1 = tt.expand_dims %{tag}r1 {{axis = 0 : i32}} : tensor<{n}xi32, {s1}> -> tensor<1x{n}xi32, {enc}>",
            f"%{tag}c = arith.constant dense<{n}> : tensor<{m}x1xi32, {enc}>",
            f"%{tag}s = arith.muli %{tag}e0, %{tag}c : tensor<{m}x1xi32, {enc}>",
            f"%{tag}b0 = tt.broadcast %{tag}s : tensor<{m}x1xi32, {enc}> -> tensor<{m}x{n}xi32, {enc}>",
            f"%{tag}b1 = tt.broadcast %{tag}e1 : tensor<1x{n}xi32, {enc}> -> tensor<{m}x{n}xi32, {enc}>",
            f"%{tag}o = arith.addi %{tag}b0, %{tag}b1 : tensor<{m}x{n}xi32, {enc}>",
            f"%{tag}p = tt.splat {ptr} : !tt.ptr<{dtype}> -> tensor<{m}x{n}x!tt.ptr<{dtype}>, {enc}>",
            f"%{tag}q = tt.addptr %{tag}p, %{tag}o : tensor<{m}x{n}x!tt.ptr<{dtype}>, {enc}>, tensor<{m}x{n}xi32, {enc}>",
        ]
        if tag == "a":
            lines += [
                f"%x = tt.load %aq : tensor<{m}x{n}x!tt.ptr<{dtype}>, #src>",
                f"%y = ttg.convert_layout %x : tensor<{m}x{n}x{dtype}, #src> -> tensor<{m}x{n}x{dtype}, #dst>",
            ]
    lines.append(f"tt.store %bq, %y : tensor<{m}x{n}x!tt.ptr<{dtype}>, #dst>")
    body = "\n    ".join(lines)
    return f"""#src = {src}
#dst = {dst}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {num_warps} : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @convert(%in: !tt.ptr<{dtype}> {{tt.divisibility = 16 : i32}}, %out: !tt.ptr<{dtype}> {{tt.divisibility = 16 : i32}}) {{
    {body}
    tt.return
  }}
}}
"""


def _tool_accepts(tool: str, text: str, suffix: str, flags: list[str]) -> None:
    """``tool flags file`` succeeds on ``text`` (skipped when the tool is not installed)."""
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} is not on PATH")
    with tempfile.NamedTemporaryFile("w", suffix=suffix) as f:
        f.write(text)
        f.flush()
        proc = subprocess.run([path, f.name, *flags], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def _copies(ptx: str, shape: tuple[int, int], bits: int) -> None:
    from ltc import simulate_ptx

    rng = np.random.default_rng(7)
    nbytes = shape[0] * shape[1] * bits // 8
    src = rng.integers(0, 256, nbytes, dtype=np.uint8)
    dst = ~src
    simulate_ptx(ptx, (1, 1, 1), [src, dst])
    np.testing.assert_array_equal(dst, src)


_MMA = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>"


@pytest.mark.parametrize(
    ("dtype", "bits", "k_width", "shape", "selp"),
    [
        # i8 mma accumulator -> dot operand A (kWidth 4): 8 shuffled words, each one
        # select of two packed source words, and 2 per-lane prmt selectors (Triton 3.9's
        # PTX of the same kernel has the same 10 selp)
        ("i8", 8, 4, (64, 64), 10),
        # f32, kWidth 1: 16 shuffled elements, 16 + 16 two-way selects (Triton: 32 selp)
        ("f32", 32, 1, (64, 32), 32),
    ],
)
def test_mma_to_dot_operand_kernels(dtype: str, bits: int, k_width: int, shape: tuple[int, int], selp: int) -> None:
    dot = f"#ttg.dot_op<{{opIdx = 0, parent = {_MMA}, kWidth = {k_width}}}>"
    text = _convert_kernel(_MMA, dot, shape, dtype, 4)
    ptx = compile_kernel(text, emit="ptx")
    _tool_accepts("ptxas", ptx, ".ptx", ["-arch=sm_90", "-o", "/dev/null"])
    _tool_accepts("llc", compile_kernel(text, emit="llvm"), ".ll", ["-march=nvptx64", "-mcpu=sm_80", "-o", "/dev/null"])
    assert sum(ln.split()[0].startswith("selp") for ln in ptx.splitlines() if ln.strip()) == selp
    assert sum(ln.split()[0].startswith("setp") for ln in ptx.splitlines() if ln.strip()) == 2
    _copies(ptx, shape, bits)


def _permutation_layout(cols: list[int], regs: int, rows_log2: int, out: dict[str, int]) -> LinearLayout:
    """Register, lane, warp bases from single-bit columns over (dim0 bits, dim1 bits)."""
    def vec(c: int) -> list[int]:
        b = c.bit_length() - 1
        return [1 << b, 0] if b < rows_log2 else [0, 1 << (b - rows_log2)]

    return LinearLayout.from_bases(
        {"register": [vec(c) for c in cols[:regs]], "lane": [vec(c) for c in cols[regs : regs + 5]],
         "warp": [vec(c) for c in cols[regs + 5 :]], "block": []},
        out,
    )


def _select_pairs(count: int) -> list[tuple[LinearLayout, LinearLayout, int, str]]:
    """Random pairs of ``#ttg.linear``-expressible layouts (each base one tensor bit) whose
    register and lane bits are reshuffled within each warp, kept when the plan selects per
    lane: (src, dst, element bits, description)."""
    rng = np.random.default_rng(2024)
    out: list[tuple[LinearLayout, LinearLayout, int, str]] = []
    while len(out) < count:
        regs, warps_log2 = int(rng.integers(1, 5)), int(rng.integers(0, 3))
        n = regs + 5 + warps_log2
        rows = int(rng.integers(0, n + 1))
        bits = int(rng.choice([8, 16, 32, 64]))
        dims = {"dim0": 1 << rows, "dim1": 1 << (n - rows)}
        cols = [1 << int(i) for i in rng.permutation(n)]
        inner = [cols[int(i)] for i in rng.permutation(regs + 5)]
        src = _permutation_layout(cols, regs, rows, dims)
        dst = _permutation_layout(inner + cols[regs + 5 :], regs, rows, dims)
        plan = plan_conversion(src, dst, bits)
        if any(isinstance(i, Select) for i in plan.instructions):
            out.append((src, dst, bits, f"{1 << rows}x{1 << (n - rows)}_{bits}b_w{1 << warps_log2}_{len(out)}"))
    return out


@pytest.mark.parametrize("pair", _select_pairs(16), ids=lambda p: p[3])
def test_random_select_plans_copy(pair: tuple[LinearLayout, LinearLayout, int, str]) -> None:
    """Kernels converting between such layouts (shuffles and lane selects) copy exactly."""
    src, dst, bits, _ = pair
    shape = (src.out_dims["dim0"], src.out_dims["dim1"])
    warps = src.in_dim_size("warp")
    text = _convert_kernel(_linear_text(src), _linear_text(dst), shape, _DTYPES[bits], warps)
    _copies(compile_kernel(text, emit="ptx"), shape, bits)
