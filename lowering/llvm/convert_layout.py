"""Lowering of ``ttg.convert_layout``: a :class:`~ltc.lowering.plans.plan.ConversionPlan` as code.

The plan (:func:`~ltc.lowering.plans.convert.plan_conversion`: no-op, register permutation,
warp shuffles, or swizzled shared memory with ``stmatrix``/``ldmatrix``) is already a
straight-line per-thread program over register files ``src``/``dst``/``tmp``; this module
translates it instruction by instruction:

* ``Move`` — a renaming (no code);
* ``Select`` — ``dst = file[index(lane, warp)]``: a lazy *choice* among the registers a
  thread can pick (see below);
* ``Shuffle`` — elements packed into 32-bit words, ``shfl.sync.bfly`` (source lane
  ``lane ⊕ c``) or ``shfl.sync.idx``, unpacked;
* ``SharedStore``/``SharedLoad`` — ``st/ld.shared[.v2|.v4].b{16,32,64}`` at
  ``@global_smem + address(lane, warp)``; ``MatrixStore``/``MatrixLoad`` — ``stmatrix`` /
  ``ldmatrix`` ``.m8n8.x{1,2,4}[.trans]``;
* ``Barrier`` — ``bar.sync 0`` (CTA) or ``bar.warp.sync -1``.

Elements narrower than a byte (i1) travel as bytes and pointers as 64-bit integers;
8/16-bit elements are packed and unpacked by a :class:`~ltc.lowering.llvm.word_pack.WordPacker`.

Selects. The index of a ``Select`` is ``c ⊕ Σ_i t_i·col_i`` over the bits ``t_i`` of
``tid.x`` (lane bits, then warp bits). The columns are reduced to a basis ``v_1..v_k`` of
their span, each tied to a predicate ``q_j``: the parity of a set of tid bits (one bit
unless a column is a sum of others), so that ``index = c ⊕ Σ_j q_j·v_j``. Predicates are
computed once per conversion; a choice among the ``2^k`` candidates is a mux tree of
``2^k − 1`` selects. The choice stays lazy until read: a word of sub-word elements whose
registers are choices is built, whichever is cheapest, as ``prmt``s of the candidates'
words with a per-thread selector (the selector values muxed, shared by every word with the
same byte arrangements), as a mux of whole candidate words (one select per word), or as a
word of element muxes. The destination registers are materialised word by word the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import llvm
from xdsl.dialects.builtin import i1, i32
from xdsl.ir import Attribute, Operation, SSAValue

from ltc.lowering.llvm.builder import REGISTER_CONSTRAINT, ThreadBuilder, bit_width, int_type
from ltc.lowering.plans.convert import plan_conversion
from ltc.lowering.plans.plan import (
    Barrier,
    ConversionPlan,
    Instruction,
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
from ltc.lowering.llvm.thread_index import affine_value, thread_columns
from ltc.lowering.llvm.function import FunctionLowering, Handler, Lowered, LoweringError, ThreadTensor, scalar_type
from ltc.lowering.llvm.word_pack import WordPacker, packable

__all__ = ["CONVERT_HANDLERS", "load_registers", "lower_instructions", "lower_plan", "select_basis"]

_MAX_WORD_PREDICATES = 3
"""Word-level choices over more predicates than this are built element by element."""


def _element_bits(t: Attribute) -> int:
    return 8 if t == i1 else bit_width(t)


def select_basis(columns: Sequence[int]) -> list[tuple[int, int]]:
    """``[(v_j, m_j)]`` with ``⊕_i t_i·columns[i] = ⊕_j parity(t & m_j)·v_j`` for every bit
    vector ``t``: the ``v_j`` are a basis of the columns' span (the first independent
    columns, in order), ``m_j`` a mask of input bits (bit ``i`` of the column that is
    ``v_j``, plus every later column whose expression in the basis uses ``v_j``)."""
    basis: list[tuple[int, int]] = []
    echelon: list[tuple[int, int]] = []  # (reduced vector, which basis vectors sum to it)
    for i, c in enumerate(columns):
        if not c:
            continue
        r, combo = c, 0
        for ev, ec in echelon:
            if r & (1 << (ev.bit_length() - 1)):
                r, combo = r ^ ev, combo ^ ec
        if r:
            j = len(basis)
            basis.append((c, 1 << i))
            echelon.append((r, combo ^ (1 << j)))
            echelon.sort(key=lambda e: -e[0])
        else:
            for j in range(len(basis)):
                if combo >> j & 1:
                    basis[j] = (basis[j][0], basis[j][1] | 1 << i)
    return basis


@dataclass(frozen=True)
class _Choice:
    """A register whose value depends on the thread: ``options[q]``, where bit ``j`` of
    ``q`` is predicate ``preds[j]`` (a mask of tid bits whose parity it is)."""

    preds: tuple[int, ...]
    options: tuple[SSAValue, ...]

    def over(self, preds: tuple[int, ...]) -> list[SSAValue]:
        """The options indexed by ``q`` over ``preds`` (a superset of ``self.preds``)."""
        where = [preds.index(p) for p in self.preds]
        return [self.options[sum((q >> w & 1) << j for j, w in enumerate(where))] for q in range(1 << len(preds))]


def _choice(preds: tuple[int, ...], options: Sequence[SSAValue]) -> _Choice | SSAValue:
    """A normalised choice: predicates the options do not depend on are dropped."""
    opts = list(options)
    keep = list(preds)
    j = 0
    while j < len(keep):
        if all(opts[q] is opts[q ^ (1 << j)] for q in range(len(opts))):
            opts = [opts[q] for q in range(len(opts)) if not q >> j & 1]
            del keep[j]
        else:
            j += 1
    return opts[0] if not keep else _Choice(tuple(keep), tuple(opts))


_RegValue = SSAValue | _Choice


class _PlanCode:
    """Register files of one plan being translated."""

    def __init__(
        self, fl: FunctionLowering, src: tuple[SSAValue, ...], elem: Attribute, base: SSAValue | None = None
    ) -> None:
        self.fl = fl
        self.b: ThreadBuilder = fl.b
        self.elem = elem
        self.bits = _element_bits(elem)
        self.files: dict[str, dict[int, _RegValue]] = {"src": dict(enumerate(src)), "dst": {}, "tmp": {}}
        self._base: SSAValue | None = base  # (None: the scratch area, found when first used)
        self.packer = WordPacker(self.b)
        self._preds: dict[int, SSAValue] = {}
        self._selects: dict[tuple[SSAValue, SSAValue, SSAValue], SSAValue] = {}
        self._addresses: dict[tuple[int, ThreadAffine], SSAValue] = {}

    def raw(self, r: Reg) -> _RegValue:
        try:
            return self.files[r.file][r.index]
        except KeyError:
            raise LoweringError(None, f"conversion plan reads {r} before writing it") from None

    def read(self, r: Reg) -> SSAValue:
        """The register's value (a choice becomes its mux tree)."""
        return self.value(self.raw(r))

    def write(self, r: Reg, v: _RegValue) -> None:
        self.files[r.file][r.index] = v

    def affine(self, f: ThreadAffine) -> SSAValue:
        return affine_value(self.b, f.lane, f.warp, f.constant, self.fl.tid(), self.fl.lane_bits)

    def address(self, f: ThreadAffine) -> SSAValue:
        # (rounds of one conversion reuse their addresses: each is built once per block)
        key = (id(self.b.block), f)
        got = self._addresses.get(key)
        if got is None:
            if self._base is None:
                self._base = self.fl.shared_base()
            got = self._addresses[key] = self.b.add_i(self._base, self.affine(f))
        return got

    # -- predicates and muxes ---------------------------------------------------------------
    def predicate(self, mask: int) -> SSAValue:
        """The parity of the tid bits in ``mask``, as an i1 (made once per conversion)."""
        if mask not in self._preds:
            b, tid = self.b, self.fl.tid()
            if mask & (mask - 1) == 0:
                bits = b.binary("and", tid, b.i32(mask))
            else:
                bits, _ = b.bit_linear(tid, [mask >> i & 1 for i in range(mask.bit_length())])
            self._preds[mask] = b.icmp("ne", bits, b.i32(0))  # type: ignore[arg-type]
        return self._preds[mask]

    def _select(self, p: SSAValue, if_set: SSAValue, if_clear: SSAValue) -> SSAValue:
        if if_set is if_clear:
            return if_set
        key = (p, if_set, if_clear)
        if key not in self._selects:
            self._selects[key] = self.b.select(p, if_set, if_clear)
        return self._selects[key]

    def mux(self, preds: tuple[int, ...], options: Sequence[SSAValue]) -> SSAValue:
        """``options[q]`` for this thread's predicate bits ``q``: a tree of 2^k − 1 selects."""
        level = list(options)
        for mask in preds:
            p = self.predicate(mask)
            level = [self._select(p, level[i + 1], level[i]) for i in range(0, len(level), 2)]
        return level[0]

    def mux_cost(self, preds: tuple[int, ...], options: Sequence[object]) -> int:
        """New selects :meth:`mux` would make (options that are not values yet count as new)."""
        level, n = list(options), 0
        for mask in preds:
            p = self._preds.get(mask)
            nxt: list[object] = []
            for i in range(0, len(level), 2):
                lo, hi = level[i], level[i + 1]
                if lo is hi:
                    nxt.append(lo)
                    continue
                known = self._selects.get((p, hi, lo)) if p is not None else None  # type: ignore[arg-type]
                n += known is None
                nxt.append(known if known is not None else ("sel", hi, lo))
            level = nxt
        return n

    def value(self, v: _RegValue) -> SSAValue:
        return self.mux(v.preds, v.options) if isinstance(v, _Choice) else v

    def _constant_mux(self, preds: tuple[int, ...], values: tuple[int, ...]) -> SSAValue:
        return self.mux(preds, [self.b.i32(x) for x in values])

    def _constant_mux_cost(self, preds: tuple[int, ...], values: tuple[int, ...]) -> int:
        return self.mux_cost(preds, [self.b.i32(x) for x in values])

    # -- packing into words ---------------------------------------------------------------
    def word(self, values: Sequence[_RegValue]) -> SSAValue:
        """One i32 of 8/16-bit elements ``values`` (low first), choices included."""
        choices = [v for v in values if isinstance(v, _Choice)]
        if not choices:
            return self.packer.pack(values)  # type: ignore[arg-type]
        preds = tuple(dict.fromkeys(p for c in choices for p in c.preds))
        if len(preds) > _MAX_WORD_PREDICATES:
            return self.packer.pack([self.value(v) for v in values])
        per_q = [
            [v.over(preds)[q] if isinstance(v, _Choice) else v for v in values] for q in range(1 << len(preds))
        ]
        # the three ways, by the number of new instructions (ties: whole words, then permutes)
        costs = [self.packer.cost(w) for w in per_q]
        existing = [self.packer.pack(w) if c == 0 else ("word", q) for q, (w, c) in enumerate(zip(per_q, costs))]
        words_cost = sum(costs) + self.mux_cost(preds, existing)
        permute_cost = self.packer.choice_cost(per_q, lambda sels: self._constant_mux_cost(preds, sels))
        # element muxes are fresh elements: bytes extended one by one and permuted, halves paired
        pack_fresh = len(choices) + len(values) - 1 if self.bits == 8 else 1
        elements_cost = sum(self.mux_cost(c.preds, c.options) for c in choices) + pack_fresh
        if elements_cost < min(words_cost, permute_cost):
            return self.packer.pack([self.value(v) for v in values])
        if permute_cost < words_cost:
            return self.packer.pack_choice(per_q, lambda sels: self._constant_mux(preds, sels))
        return self.mux(preds, [self.packer.pack(w) for w in per_q])

    def words(self, regs: tuple[Reg, ...], word_bits: int) -> list[SSAValue]:
        per = max(1, word_bits // self.bits)
        if word_bits == 32 and packable(self.elem) and len(regs) % per == 0:
            return [self.word([self.raw(r) for r in regs[k : k + per]]) for k in range(0, len(regs), per)]
        wt = int_type(word_bits)
        return [self.b.pack([self.read(r) for r in regs[k : k + per]], wt) for k in range(0, len(regs), per)]

    def unwords(self, words: list[SSAValue], regs: tuple[Reg, ...], word_bits: int) -> None:
        per = max(1, word_bits // self.bits)
        for k, w in enumerate(words):
            n = min(per, len(regs) - k * per)
            elems = self.b.unpack(w, self.elem, n)
            for j, v in enumerate(elems):
                self.write(regs[k * per + j], v)

    def word_bits(self, n: int) -> int:
        """Bits per word moving ``n`` elements: up to 32, or one wider element."""
        return min(n * self.bits, max(32, self.bits))

    def destination(self, n: int) -> list[SSAValue]:
        """The ``n`` destination registers, choices materialised a 32-bit word at a time
        where the elements are sub-word (as a consumer packing them would want)."""
        dst = self.files["dst"]
        per = 32 // self.bits if packable(self.elem) else 1
        for g in range(0, n, per):
            group = [Reg("dst", r) for r in range(g, min(g + per, n))]
            values = [dst.get(r.index) for r in group]
            if per > 1 and len(group) == per and all(v is not None for v in values):
                if any(isinstance(v, _Choice) for v in values):
                    for r, v in zip(group, self.b.unpack(self.word(values), self.elem, per), strict=True):  # type: ignore[arg-type]
                        self.write(r, v)
        return [self.read(Reg("dst", r)) for r in range(n)]

    # -- instructions -----------------------------------------------------------------------
    def run(self, ins: object) -> None:
        b = self.b
        if isinstance(ins, Move):
            self.write(ins.dst, self.raw(ins.src))
        elif isinstance(ins, Select):
            self.select(ins)
        elif isinstance(ins, Shuffle):
            self.shuffle(ins)
        elif isinstance(ins, SharedStore):
            if len(ins.src) * self.bits == 8:  # one byte, from a 16-bit register
                byte = b.pack([self.read(ins.src[0])], int_type(8))
                self.store(ins.address, [b.cast("zext", byte, int_type(16))], 16, "b8")
            elif isinstance(self.elem, llvm.LLVMPointerType):
                # a pointer is its own 64-bit word: the asm takes it as it is (no ptrtoint)
                self.store(ins.address, [self.read(r) for r in ins.src], 64, "b64")
            else:
                wb = self.word_bits(len(ins.src))
                self.store(ins.address, self.words(ins.src, wb), wb, f"b{wb}")
        elif isinstance(ins, SharedLoad):
            nbits = len(ins.dst) * self.bits
            if nbits == 8:
                (w,) = self.load(ins.address, 1, 16, "u8")
                self.write(ins.dst[0], b.unpack(b.cast("trunc", w, int_type(8)), self.elem, 1)[0])
            elif isinstance(self.elem, llvm.LLVMPointerType):
                # loaded as pointers (no inttoptr), as they were stored
                loaded = self.load(ins.address, len(ins.dst), 64, "b64", self.elem)
                for r, v in zip(ins.dst, loaded, strict=True):
                    self.write(r, v)
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
        f = ins.index
        if f.is_constant:
            self.write(ins.dst, self.raw(Reg(ins.src_file, f.constant)))
            return
        basis = select_basis(thread_columns(f.lane, f.warp, self.fl.lane_bits))
        options = []
        for q in range(1 << len(basis)):
            index = f.constant
            for j, (v, _) in enumerate(basis):
                if q >> j & 1:
                    index ^= v
            options.append(self.read(Reg(ins.src_file, index)))
        self.write(ins.dst, _choice(tuple(m for _, m in basis), options))

    def shuffle(self, ins: Shuffle) -> None:
        b = self.b
        if ins.mode == "bfly":
            lane_arg = b.i32(ins.src_lane.constant)
        else:
            lane_arg = self.affine(ins.src_lane)
        if self.bits == 64:
            for s, d in zip(ins.src, ins.dst, strict=True):
                x = b.to_bits(self.read(s))
                lo = b.cast("trunc", x, i32)
                hi = b.cast("trunc", b.binary("lshr", x, b.const(int_type(64), 32)), i32)
                lo, hi = (b.shuffle(ins.mode, w, lane_arg) for w in (lo, hi))
                whole = b.binary(
                    "or",
                    b.cast("zext", lo, int_type(64)),
                    b.binary("shl", b.cast("zext", hi, int_type(64)), b.const(int_type(64), 32)),
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

    def load(
        self, address: ThreadAffine, n: int, word_bits: int, ptx_type: str, word: Attribute | None = None
    ) -> list[SSAValue]:
        """``n`` words of ``word_bits`` from shared memory, typed ``word`` (by default the
        integer of that width)."""
        v = f".v{n}" if n > 1 else ""
        vec = ", ".join(f"${i}" for i in range(n))
        return self.b.asm(
            f"ld.shared{v}.{ptx_type} {{{vec}}}, [${n}];" if n > 1 else f"ld.shared.{ptx_type} $0, [$1];",
            ",".join([f"={REGISTER_CONSTRAINT[word_bits]}"] * n + ["r"]),
            [self.address(address)],
            [word if word is not None else int_type(word_bits)] * n,
            side_effects=True,
        )


def lower_plan(fl: FunctionLowering, plan: ConversionPlan, src: tuple[SSAValue, ...], elem: Attribute) -> list[SSAValue]:
    """The destination registers after running ``plan`` on the thread's ``src`` registers."""
    if plan.scratch_bytes:
        fl.claim_scratch(plan.scratch_bytes)
    return lower_instructions(fl, plan.instructions, src, elem, plan.dst_layout.in_dim_size("register"))


def lower_instructions(
    fl: FunctionLowering,
    instructions: Sequence[Instruction],
    src: tuple[SSAValue, ...],
    elem: Attribute,
    registers: int,
    base: SSAValue | None = None,
) -> list[SSAValue]:
    """Run plan ``instructions`` on the thread's ``src`` registers and return the first
    ``registers`` destination registers (none for a plan that only stores). Shared
    addresses are relative to ``base`` (by default the scratch area, which a caller
    claims)."""
    code = _PlanCode(fl, src, elem, base)
    for ins in instructions:
        code.run(ins)
    return code.destination(registers) if registers else []


def load_registers(fl: FunctionLowering, load: SharedLoad, elem: Attribute, base: SSAValue) -> dict[int, SSAValue]:
    """Run one plan ``load`` (addresses relative to ``base``): its registers by index."""
    code = _PlanCode(fl, (), elem, base)
    code.run(load)
    return {r.index: code.read(r) for r in load.dst}


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
