"""Which register layouts Triton 3.9 can move to and from tensor memory.

``ttng.tmem_alloc`` (with a source), ``ttng.tmem_load`` and ``ttng.tmem_store``
accept a register layout exactly when Triton's lowering finds ``tcgen05.ld/st``
messages for it (``isDistributedLayoutTMemCompatible``, which is
``computeTMemLdStEncodingInfo`` succeeding). The rule, written here from
Triton's behaviour:

1. The tensor-memory layout maps ``(row, col, block)`` to the tensor (Triton's
   ``tensorMemoryToLinearLayout``; :func:`tmem_layout`). The conversion from the
   registers is ``cvt = regs^-1 . tmem``: hardware index -> (row, col, block); it
   must keep each CTA to itself (``block`` a trivial factor).
2. Warps 1 and 2 hold the tensor elements that rows 32 and 64 hold.
3. Broadcast registers are dropped; elements narrower than 32 bits are first
   packed (consecutive registers along a column), unpacked (16 bits, every other
   32-bit column) or padded (one element per 32-bit column).
4. Then one message atom (``32x32b``, ``16x256b``, ``16x64b``, ``16x128b``, else
   ``16x32bx2``) must tile ``cvt``: after reordering registers, the atom's bases
   lead each hardware dim of ``cvt`` and the rest of ``cvt`` avoids the rows and
   columns the atom covers; and at least one atom's registers must fit half the
   register budget (``ttg.maxnreg``, a warp-specialize partition's registers).

Each step returns False where Triton's search fails, and True when a message is
found. Only the verdict is kept: Triton's message names the operand only.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, ModuleOp
from xdsl.ir import Attribute, Operation

from ltc.encodings.base import CGALayout
from ltc.layout_utils import ensure_layout_not_larger_than
from ltc.linear_layout import LayoutError, LinearLayout

REG, LANE, WARP, BLOCK = "register", "lane", "warp", "block"
ROW, COL = "row", "col"
DIMS = ("dim0", "dim1")

# Triton's TMemAccessAtom, in the order its search tries them
ATOMS = ("32x32b", "16x256b", "16x64b", "16x128b")
LAST_ATOM = "16x32bx2"
MAX_REGISTERS = 256


def _log2(n: int) -> int:
    return n.bit_length() - 1


def _pow2_above(c: int) -> int:
    return 1 << c.bit_length()


def _layout(bases: dict[str, list[tuple[int, int]]], sizes: tuple[int, int] | None = None) -> LinearLayout:
    """A (row, col, block) -> (dim0, dim1) layout; out sizes inferred unless given."""
    if sizes is None:
        s0 = max([1] + [_pow2_above(b[0]) if b[0] else 1 for bs in bases.values() for b in bs])
        s1 = max([1] + [_pow2_above(b[1]) if b[1] else 1 for bs in bases.values() for b in bs])
        sizes = (s0, s1)
    return LinearLayout(list(bases.items()), list(zip(DIMS, sizes)))


def _cga(bases: Sequence[Sequence[int]]) -> tuple[list[tuple[int, int]], tuple[int, int]]:
    """The CGA's block bases (in CTA tiles) and how many tiles it cuts each dim into."""
    ll = CGALayout(tuple(tuple(b) for b in bases)).linear_layout(2)
    blocks = [(ll.basis(BLOCK, i, "dim0"), ll.basis(BLOCK, i, "dim1")) for i in range(ll.in_dim_size_log2(BLOCK))]
    return blocks, (ll.out_dim_size("dim0"), ll.out_dim_size("dim1"))


def _with_cga(rows: list, cols: list, size: tuple[int, int], cga: Sequence[Sequence[int]]) -> LinearLayout:
    blocks, split = _cga(cga)
    block = [(b0 * size[0], b1 * size[1]) for b0, b1 in blocks]
    return _layout({ROW: rows, COL: cols, BLOCK: block}, (size[0] * split[0], size[1] * split[1]))


def tmem_layout(shape: Sequence[int], block_m: int, block_n: int, col_stride: int, two_ctas: bool,
                cga: Sequence[Sequence[int]]) -> LinearLayout | None:
    """Where ``#ttng.tensor_memory_encoding`` puts a ``shape`` tensor: (row, col, block) ->
    (dim0, dim1). None where Triton would abort building it."""
    _, split = _cga(cga)
    per_cta = (max(1, shape[0] // split[0]), max(1, shape[1] // split[1]))
    block_n = min(block_n, per_cta[1])
    cols = [(0, 0)] * _log2(col_stride) + [(0, 1 << i) for i in range(_log2(block_n))]
    if block_m == 64 and not two_ctas:
        rows = [(1 << i, 0) for i in range(4)]
        if per_cta[0] > block_m:
            rows.append((64, 0))
        elif per_cta[1] > block_n:
            rows.append((0, block_n))
        else:
            rows.append((0, 0))  # rows 16-31 of each warp hold nothing
        rows += [(16, 0), (32, 0)]
    else:
        rows = [(1 << i, 0) for i in range(_log2(block_m))]
        if block_m == 64:  # two CTAs: the 64 rows of each take a column bit as row 64
            if len(cols) <= _log2(col_stride):
                return None
            rows.append(cols.pop())
    tile = _layout({ROW: rows, COL: cols})
    size = (tile.out_dim_size("dim0"), tile.out_dim_size("dim1"))
    reps = (per_cta[0] // size[0], per_cta[1] // size[1])
    if reps[0] < 1 or reps[1] < 1:
        return None
    cols += [(size[0] << i, 0) for i in range(_log2(reps[0]))]
    cols += [(0, size[1] << i) for i in range(_log2(reps[1]))]
    return _with_cga(rows, cols, (size[0] * reps[0], size[1] * reps[1]), cga)


def tmem_scales_layout(shape: Sequence[int], k_first: bool, cga: Sequence[Sequence[int]]) -> LinearLayout:
    """``#ttng.tensor_memory_scales_encoding``: 32 rows of 4 bytes, copied to the four warps'
    row groups, with a second 32-row group in the next columns; then repeated along M and K
    (``blockRepOrder``), cut to the shape."""
    _, split = _cga(cga)
    per_cta = (max(1, shape[0] // split[0]), max(1, shape[1] // split[1]))
    rows = [(1 << i, 0) for i in range(5)] + [(0, 0), (0, 0)]
    cols = [(0, 1), (0, 2), (32, 0)]
    reps_m, reps_k = -(-per_cta[0] // 64), -(-per_cta[1] // 4)
    along_m = [(64 << i, 0) for i in range(_log2(reps_m))]
    along_k = [(0, 4 << i) for i in range(_log2(reps_k))]
    cols += along_k + along_m if k_first else along_m + along_k
    full = _layout({ROW: rows, COL: cols}, (64 * reps_m, 4 * reps_k))
    cut = ensure_layout_not_larger_than(full, {"dim0": per_cta[0], "dim1": per_cta[1]})
    b = cut.bases
    size = (cut.out_dim_size("dim0"), cut.out_dim_size("dim1"))
    return _with_cga([tuple(x) for x in b[ROW]], [tuple(x) for x in b[COL]], size, cga)


# ------------------------------------------------------------------ the message search
def _tile(atom: str, unpacked: bool) -> LinearLayout:
    """One message's registers and lanes (and warps 1, 2 on rows 32, 64) -> (row, col)."""
    tile = LinearLayout([(REG, []), (LANE, [])], [(ROW, 1), (COL, 1)])
    if unpacked:
        tile = tile * LinearLayout.zeros_1d(1, REG, COL, 2)
    if atom == "32x32b":
        tile = tile * LinearLayout.identity_1d(32, LANE, ROW)
    elif atom == "16x32bx2":
        tile = tile * LinearLayout.identity_1d(16, LANE, ROW)
    elif atom == "16x64b":
        tile = tile * LinearLayout([(LANE, [(8, 0), (0, 1), (1, 0), (2, 0), (4, 0)])], [(ROW, 16), (COL, 2)])
    elif atom == "16x128b":
        tile = tile * (LinearLayout.identity_1d(4, LANE, COL) * LinearLayout.identity_1d(8, LANE, ROW)
                       * LinearLayout.identity_1d(2, REG, ROW))
    else:  # 16x256b
        tile = tile * (LinearLayout.identity_1d(2, REG, COL) * LinearLayout.identity_1d(4, LANE, COL)
                       * LinearLayout.identity_1d(8, LANE, ROW) * LinearLayout.identity_1d(2, REG, ROW))
    bases = {d: [dict(zip(tile.out_dim_names, b)) for b in bs] for d, bs in tile.bases.items()}
    bases[WARP] = [{ROW: 32, COL: 0}, {ROW: 64, COL: 0}]
    return LinearLayout([(d, [(b[ROW], b[COL]) for b in bs]) for d, bs in bases.items()],
                        [(ROW, 128), (COL, tile.out_dim_size(COL))])


def _named(ll: LinearLayout, in_dim: str) -> list[dict[str, int]]:
    if not ll.has_in_dim(in_dim):
        return []
    names = ll.out_dim_names
    return [dict(zip(names, b)) for b in ll.bases[in_dim]]


def _with_registers(ll: LinearLayout, regs: list[dict[str, int]]) -> LinearLayout:
    names = ll.out_dim_names
    bases = ll.bases
    bases[REG] = [tuple(r.get(n, 0) for n in names) for r in regs]
    return LinearLayout(list(bases.items()), list(ll.out_dims.items()))


def _tiles(cvt: LinearLayout, tile: LinearLayout, maxnreg: int) -> bool:
    """Triton's ``getVec`` at vector width 1: the budget holds one message, some register
    order puts the message's registers first (``regPermForDivide``) and the rest of
    ``cvt`` repeats it (``getReps``)."""
    max_reg = maxnreg // 2
    if maxnreg == MAX_REGISTERS and cvt.in_dim_size(REG) > max_reg:
        max_reg //= 2
    if max_reg // tile.in_dim_size(REG) < 1:
        return False
    regs = _named(cvt, REG)
    used = [False] * len(regs)
    order = []
    for want in _named(tile, REG):
        j = next((j for j, r in enumerate(regs)
                  if not used[j] and all(r.get(k, 0) == v for k, v in want.items())), None)
        if j is None:
            return False
        used[j] = True
        order.append(j)
    cvt = _with_registers(cvt, [regs[j] for j in order + [j for j in range(len(regs)) if not used[j]]])
    mask = {n: 0 for n in cvt.out_dim_names}
    for d in tile.in_dim_names:
        for b in _named(tile, d):
            for n, v in b.items():
                mask[n] = mask.get(n, 0) | v
    for d in cvt.in_dim_names:
        mine, theirs = _named(cvt, d), _named(tile, d)
        if len(theirs) > len(mine):
            return False
        if any(mine[i] != {n: theirs[i].get(n, 0) for n in mine[i]} for i in range(len(theirs))):
            return False
        if any(b[n] & mask.get(n, 0) for b in mine[len(theirs):] for n in b):
            return False
    return True


def _lowers(cvt: LinearLayout, maxnreg: int, bitwidth: int, unpacked: bool = False) -> bool:
    """Triton's ``lowerTMemLdSt`` verdict for ``cvt``: (register, lane, warp) -> (row, col)."""
    regs = _named(cvt, REG)
    if any(not any(r.values()) for r in regs):
        return _lowers(_with_registers(cvt, [r for r in regs if any(r.values())]), maxnreg, bitwidth, unpacked)
    if bitwidth < 32:
        quot, best, contig = None, 1, 1
        while bitwidth * contig <= 32:
            q = cvt.divide_left(LinearLayout.identity_1d(contig, REG, COL))
            if q is None:
                break
            quot, best = q, contig
            contig *= 2
        per_word = 32 // bitwidth
        if best > 1:
            unpacked, wide = False, bitwidth * best
        else:
            every_other = LinearLayout.zeros_1d(1, REG, COL, per_word) * LinearLayout.identity_1d(2, REG, COL)
            halves = cvt.divide_left(every_other)
            padded = cvt.divide_left(LinearLayout.zeros_1d(1, REG, COL, per_word))
            if bitwidth == 16 and halves is not None:
                unpacked, quot, wide = True, halves, 32
            elif padded is not None:
                unpacked, quot, wide = bitwidth == 16, padded, 32
            else:
                return False
            if unpacked:
                quot = LinearLayout.zeros_1d(1, REG, COL, per_word) * quot
        assert quot is not None
        return _lowers(quot, maxnreg, wide, unpacked)
    if bitwidth != 32:
        return False
    return any(_tiles(cvt, _tile(atom, unpacked), maxnreg) for atom in (*ATOMS, LAST_ATOM))


def fits_tmem(reg: LinearLayout, mem: LinearLayout, bitwidth: int, maxnreg: int) -> bool:
    """Whether registers laid out as ``reg`` (register, lane, warp, block -> dims) move to
    or from tensor memory laid out as ``mem`` (row, col, block -> dims)."""
    try:
        cvt = reg.invert_and_compose(mem)
    except LayoutError:
        return False
    cvt = cvt.quotient([BLOCK])
    if cvt is None:
        return False
    warps, rows = _named(reg, WARP), _named(mem, ROW)
    if len(warps) < 2 or len(rows) < 7 or warps[0] != rows[5] or warps[1] != rows[6]:
        return False
    ws = _named(cvt, WARP)
    ws[0] = {ROW: 32, COL: 0}
    ws[1] = {ROW: 64, COL: 0}
    bases = cvt.bases
    bases[WARP] = [tuple(w.get(n, 0) for n in cvt.out_dim_names) for w in ws]
    cvt = LinearLayout(list(bases.items()), list(cvt.out_dims.items()))
    return _lowers(cvt, maxnreg, bitwidth)


def _int_prop(op: Operation, name: str) -> int | None:
    attr = op.attributes.get(name) or getattr(op, "properties", {}).get(name)
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def _registers(ws: Operation, index: int) -> int | None:
    regs = ws.properties.get("actualRegisters") or ws.attributes.get("actualRegisters")
    if not isinstance(regs, DenseArrayBase):
        return None
    values = regs.get_values()
    return int(values[index]) if index < len(values) else None


def contextual_maxnreg(op: Operation) -> int:
    """Triton's ``getContextualMaxNReg``: 256, or less under ``ttg.maxnreg`` or in a
    warp-specialize region whose registers were set (the nearest such parent)."""
    limit = MAX_REGISTERS
    module = None
    cur: Operation | None = op
    while cur is not None:
        parent = cur.parent_op()
        if parent is None:
            break
        found = None
        if isinstance(parent, ModuleOp):
            module = parent
            found = _int_prop(parent, "ttg.maxnreg")
        elif parent.name == "ttg.warp_specialize.partitions":
            region = cur.parent_region()
            ws = parent.parent_op()
            if region is not None and ws is not None:
                found = _registers(ws, 1 + list(parent.regions).index(region))
        elif parent.name == "ttg.warp_specialize":
            found = _registers(parent, 0)
        if found is not None:
            limit = min(limit, found)
            break
        if isinstance(parent, ModuleOp):
            break
        cur = parent
    if module is None:
        cur = op
        while cur is not None and not isinstance(cur, ModuleOp):
            cur = cur.parent_op()
        module = cur
    if module is not None:
        top = _int_prop(module, "ttg.maxnreg")
        if top is not None:
            limit = min(limit, top)
    return limit


def memory_layout(enc: Attribute, shape: Sequence[int]) -> LinearLayout | None:
    """The tensor-memory layout of a memdesc's (alloc) shape, or None when not modelled."""
    from ltc.dialects.ttng.attrs import TensorMemoryEncodingAttr, TensorMemoryScalesEncodingAttr

    if len(shape) != 2:
        return None
    if isinstance(enc, TensorMemoryEncodingAttr):
        return tmem_layout(shape, enc.blockM.data, enc.blockN.data, enc.colStride.data, enc.two_ctas,
                           enc.cga_block_bases)
    if isinstance(enc, TensorMemoryScalesEncodingAttr) and enc.blockRepOrder.data != "kThenMn":
        # (Triton's Python layouts drop kThenMn, so that order is not checked against Triton)
        return tmem_scales_layout(shape, False, enc.cga_block_bases)
    return None
