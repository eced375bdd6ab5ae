"""Lowering of ``ttg.convert_layout``: a :class:`~ltc.lowering.plan.ConversionPlan` as code.

The plan (:func:`~ltc.lowering.convert.plan_conversion`: no-op, register permutation,
warp shuffles, or swizzled shared memory with ``stmatrix``/``ldmatrix``) is already a
straight-line per-thread program over register files ``src``/``dst``/``tmp``; this module
translates it instruction by instruction:

* ``Move`` — a renaming (no code);
* ``Select`` — ``dst = file[index(lane, warp)]``: a chain of compare + select over the
  indices a thread can pick;
* ``Shuffle`` — elements packed into 32-bit words, ``shfl.sync.bfly`` (source lane
  ``lane ⊕ c``) or ``shfl.sync.idx``, unpacked;
* ``SharedStore``/``SharedLoad`` — ``st/ld.shared[.v2|.v4].b{16,32,64}`` at
  ``@global_smem + address(lane, warp)``; ``MatrixStore``/``MatrixLoad`` — ``stmatrix`` /
  ``ldmatrix`` ``.m8n8.x{1,2,4}[.trans]``;
* ``Barrier`` — ``bar.sync 0`` (CTA) or ``bar.warp.sync -1``.

Elements narrower than a byte (i1) travel as bytes and pointers as 64-bit integers.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType, i1, i32
from xdsl.ir import Attribute, Operation, SSAValue

from ltc.lowering.builder import REGISTER_CONSTRAINT, ThreadBuilder, bit_width
from ltc.lowering.convert import plan_conversion
from ltc.lowering.plan import (
    Barrier,
    ConversionPlan,
    MatrixLoad,
    MatrixStore,
    Move,
    PlanError,
    Reg,
    Select,
    SharedLoad,
    SharedStore,
    Shuffle,
    ThreadAffine,
)
from ltc.lowering.thread_index import affine_value
from ltc.lowering.to_llvm import FunctionLowering, Handler, Lowered, LoweringError, ThreadTensor, scalar_type

__all__ = ["CONVERT_HANDLERS", "lower_plan"]



def _element_bits(t: Attribute) -> int:
    return 8 if t == i1 else bit_width(t)


class _PlanCode:
    """Register files of one plan being translated."""

    def __init__(self, fl: FunctionLowering, plan: ConversionPlan, src: tuple[SSAValue, ...], elem: Attribute) -> None:
        self.fl = fl
        self.b: ThreadBuilder = fl.b
        self.plan = plan
        self.elem = elem
        self.files: dict[str, dict[int, SSAValue]] = {"src": dict(enumerate(src)), "dst": {}, "tmp": {}}
        self._base: SSAValue | None = None

    def read(self, r: Reg) -> SSAValue:
        try:
            return self.files[r.file][r.index]
        except KeyError:
            raise LoweringError(None, f"conversion plan reads {r} before writing it") from None

    def write(self, r: Reg, v: SSAValue) -> None:
        self.files[r.file][r.index] = v

    def affine(self, f: ThreadAffine) -> SSAValue:
        return affine_value(self.b, f.lane, f.warp, f.constant, self.fl.tid(), self.fl.lane_bits)

    def address(self, f: ThreadAffine) -> SSAValue:
        if self._base is None:
            self._base = self.fl.shared_base()
        return self.b.add_i(self._base, self.affine(f))

    # -- packing into words ---------------------------------------------------------------
    def words(self, regs: tuple[Reg, ...], word_bits: int) -> list[SSAValue]:
        bits = _element_bits(self.elem)
        per = max(1, word_bits // bits)
        wt = IntegerType(word_bits)
        return [self.b.pack([self.read(r) for r in regs[k : k + per]], wt) for k in range(0, len(regs), per)]

    def unwords(self, words: list[SSAValue], regs: tuple[Reg, ...], word_bits: int) -> None:
        bits = _element_bits(self.elem)
        per = max(1, word_bits // bits)
        for k, w in enumerate(words):
            for j, v in enumerate(self.b.unpack(w, self.elem, min(per, len(regs) - k * per))):
                self.write(regs[k * per + j], v)

    def word_bits(self, n: int) -> int:
        """Bits per word moving ``n`` elements: up to 32, or one wider element."""
        bits = _element_bits(self.elem)
        return min(n * bits, max(32, bits))

    # -- instructions -----------------------------------------------------------------------
    def run(self, ins: object) -> None:
        b = self.b
        if isinstance(ins, Move):
            self.write(ins.dst, self.read(ins.src))
        elif isinstance(ins, Select):
            self.select(ins)
        elif isinstance(ins, Shuffle):
            self.shuffle(ins)
        elif isinstance(ins, SharedStore):
            if len(ins.src) * _element_bits(self.elem) == 8:  # one byte, from a 16-bit register
                byte = b.pack([self.read(ins.src[0])], IntegerType(8))
                self.store(ins.address, [b.cast("zext", byte, IntegerType(16))], 16, "b8")
            else:
                wb = self.word_bits(len(ins.src))
                self.store(ins.address, self.words(ins.src, wb), wb, f"b{wb}")
        elif isinstance(ins, SharedLoad):
            nbits = len(ins.dst) * _element_bits(self.elem)
            if nbits == 8:
                (w,) = self.load(ins.address, 1, 16, "u8")
                self.write(ins.dst[0], b.unpack(b.cast("trunc", w, IntegerType(8)), self.elem, 1)[0])
            else:
                wb = self.word_bits(len(ins.dst))
                self.unwords(self.load(ins.address, nbits // wb, wb, f"b{wb}"), ins.dst, wb)
        elif isinstance(ins, MatrixStore):
            words = self.words(ins.src, 32)
            t = ".trans" if ins.trans else ""
            vec = ", ".join(f"${i + 1}" for i in range(len(words)))
            b.asm(
                f"stmatrix.sync.aligned.m8n8.x{ins.num}{t}.shared.b16 [$0], {{{vec}}};",
                ",".join(["r"] * (1 + len(words))),
                [self.address(ins.address), *words],
            )
        elif isinstance(ins, MatrixLoad):
            n = ins.num
            t = ".trans" if ins.trans else ""
            vec = ", ".join(f"${i}" for i in range(n))
            words = b.asm(
                f"ldmatrix.sync.aligned.m8n8.x{n}{t}.shared.b16 {{{vec}}}, [${n}];",
                ",".join(["=r"] * n + ["r"]),
                [self.address(ins.address)],
                [i32] * n,
                side_effects=True,
            )
            self.unwords(words, ins.dst, 32)
        elif isinstance(ins, Barrier):
            if ins.scope == "cta":
                b.barrier()
            else:
                b.asm("bar.warp.sync -1;", "", [])
        else:  # pragma: no cover - the plan vocabulary is closed
            raise LoweringError(None, f"unknown plan instruction {ins}")

    def select(self, ins: Select) -> None:
        b = self.b
        f = ins.index
        if f.is_constant:
            self.write(ins.dst, self.read(Reg(ins.src_file, f.constant)))
            return
        idx = self.affine(f)
        reachable = sorted({f(lane, warp) for lane in range(1 << len(f.lane)) for warp in range(1 << len(f.warp))})
        acc = self.read(Reg(ins.src_file, reachable[0]))
        for k in reachable[1:]:
            acc = b.select(b.icmp("eq", idx, b.i32(k)), self.read(Reg(ins.src_file, k)), acc)
        self.write(ins.dst, acc)

    def shuffle(self, ins: Shuffle) -> None:
        b = self.b
        bits = _element_bits(self.elem)
        if ins.mode == "bfly":
            lane_arg = b.i32(ins.src_lane.constant)
        else:
            lane_arg = self.affine(ins.src_lane)
        if bits == 64:
            for s, d in zip(ins.src, ins.dst, strict=True):
                x = b.to_bits(self.read(s))
                lo = b.cast("trunc", x, i32)
                hi = b.cast("trunc", b.binary("lshr", x, b.const(IntegerType(64), 32)), i32)
                lo, hi = (b.shuffle(ins.mode, w, lane_arg) for w in (lo, hi))
                whole = b.binary(
                    "or",
                    b.cast("zext", lo, IntegerType(64)),
                    b.binary("shl", b.cast("zext", hi, IntegerType(64)), b.const(IntegerType(64), 32)),
                )
                self.write(d, b.from_bits(whole, self.elem))
            return
        (word,) = self.words(ins.src, 32)
        if bit_width(word.type) < 32:
            word = b.cast("zext", word, i32)
        got = b.shuffle(ins.mode, word, lane_arg)
        self.unwords([got], ins.dst, 32)

    def store(self, address: ThreadAffine, words: list[SSAValue], word_bits: int, ptx_type: str) -> None:
        n = len(words)
        v = f".v{n}" if n > 1 else ""
        vec = ", ".join(f"${i + 1}" for i in range(n))
        self.b.asm(
            f"st.shared{v}.{ptx_type} [$0], {{{vec}}};" if n > 1 else f"st.shared.{ptx_type} [$0], $1;",
            ",".join(["r"] + [REGISTER_CONSTRAINT[word_bits]] * n),
            [self.address(address), *words],
        )

    def load(self, address: ThreadAffine, n: int, word_bits: int, ptx_type: str) -> list[SSAValue]:
        v = f".v{n}" if n > 1 else ""
        vec = ", ".join(f"${i}" for i in range(n))
        return self.b.asm(
            f"ld.shared{v}.{ptx_type} {{{vec}}}, [${n}];" if n > 1 else f"ld.shared.{ptx_type} $0, [$1];",
            ",".join([f"={REGISTER_CONSTRAINT[word_bits]}"] * n + ["r"]),
            [self.address(address)],
            [IntegerType(word_bits)] * n,
            side_effects=True,
        )


def lower_plan(fl: FunctionLowering, plan: ConversionPlan, src: tuple[SSAValue, ...], elem: Attribute) -> list[SSAValue]:
    """The destination registers after running ``plan`` on the thread's ``src`` registers."""
    if plan.scratch_bytes:
        fl.claim_scratch(plan.scratch_bytes)
    code = _PlanCode(fl, plan, src, elem)
    for ins in plan.instructions:
        code.run(ins)
    n = plan.dst_layout.in_dim_size("register")
    return [code.read(Reg("dst", r)) for r in range(n)]


def _convert_layout(fl: FunctionLowering, op: Operation, args: list[Lowered]) -> list[Lowered]:
    (x,) = args
    assert isinstance(x, ThreadTensor)
    t = op.results[0].type
    dst = fl.layout(t, op)
    elem = scalar_type(t)
    try:
        plan = plan_conversion(x.layout, dst, _element_bits(elem), compute_capability=fl.config.capability)
    except PlanError as e:
        raise LoweringError(op, f"cannot plan this conversion: {e}") from None
    return [fl.tensor(op, t, lower_plan(fl, plan, x.regs, elem))]


CONVERT_HANDLERS: dict[str, Handler] = {"ttg.convert_layout": _convert_layout}
