"""``canonicalize``: xDSL's op-attached patterns and folders, plus Triton's tt / ttg folds.

The pass runs, greedily to a fixed point, every pattern an op carries
(``HasCanonicalizationPatternsTrait``, e.g. ``ttg.convert_layout``'s
``CONVERT_LAYOUT_PATTERNS``), the folders, dead-code elimination (an op is dropped only
when its effects say it may be: a volatile ``tt.load``, stores, atomics, ``tt.print``,
``tt.assert``, barriers and async copies stay), and the patterns of
:data:`TRITON_PATTERNS`, keyed by the name of the op they match. These are the rewrites
Triton's canonicalizer makes (its op folders and canonicalization patterns), each in
its own class:

* constants: a one-element ``tt.make_range``, ``tt.splat`` of a constant scalar, and
  ``tt.broadcast`` / ``tt.expand_dims`` / ``tt.reshape`` / ``tt.trans`` of a splat
  constant become ``arith.constant``; ``tt.fp_to_fp`` of a constant ±0 too (the
  destination's zero; formats without -0 get +0);
* identities: ``tt.addptr(p, 0)``, ``tt.broadcast`` / ``tt.bitcast`` / ``tt.fp_to_fp`` to
  the same type, ``tt.reshape`` to the same type without ``allow_reorder``, ``tt.trans``
  with the identity order, ``ttg.memdesc_trans`` with the identity order;
* chains: ``broadcast(splat)``, ``broadcast(broadcast)``, ``expand_dims(splat)``,
  ``reshape(splat)``, ``reshape(reshape)``, ``trans(trans)``, ``memdesc_trans(memdesc_trans)``,
  ``memdesc_subslice(memdesc_subslice)`` (offsets add), ``expand_dims(broadcast(x))`` ->
  ``broadcast(expand_dims(x))``, ``int_to_ptr(ptr_to_int(p))`` -> ``p``,
  ``int_to_ptr(addi(ptr_to_int(p), c))`` -> ``addptr(p, c / sizeof(pointee))``;
* masks: a load or store whose mask is a splat constant loses the mask (all true), or
  becomes ``other`` / disappears (all false);
* conversions folded into their users or producers: ``reshape(cvt)``, ``trans(cvt)``
  (when the convert moves no data), ``histogram(cvt)`` (a mask is converted to the
  new source layout), ``gather(cvt)`` (without
  ``efficient_layout``), ``local_alloc(cvt)``, ``local_store(cvt)``, ``tmem_store(cvt)`` (when the
  source layout is a tensor-memory message's), ``cvt(reshape)``, ``cvt(histogram)``,
  ``cvt(local_load)``; and ``local_alloc(local_load(m))`` -> ``m`` for an immutable ``m``
  of the allocation's type;
* dead shared-memory ops that Triton's effects let go: an unused ``ttg.local_load``
  and an unused immutable ``ttg.local_alloc``;
* ``ttg.warp_specialize``: erased when unused and free of effects; duplicate and unused
  captures and unused results dropped.

A new op is only put in place when it verifies; a pattern that cannot keep the IR valid
does nothing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
from xdsl.transforms.dead_code_elimination import region_dce

from ltc.linear_layout import LinearLayout
from ltc.passes.layout_ir import encoding_of_type, tensor_shape, with_layout
from ltc.passes.rewrite_locations import AtMatchedLocation

__all__ = ["TRITON_PATTERNS", "TritonCanonicalizePass", "TritonCanonicalizationPattern"]


# ------------------------------------------------------------------------ helpers


def _defining(v: SSAValue, name: str) -> Operation | None:
    """The op named ``name`` that defines ``v``, or None."""
    return v.op if isinstance(v, OpResult) and v.op.name == name else None


def _constant_attr(v: SSAValue) -> Attribute | None:
    op = _defining(v, "arith.constant")
    if op is None:
        return None
    return op.properties.get("value", op.attributes.get("value"))


def _splat_scalar(v: SSAValue) -> int | float | None:
    """The value of a splat tensor constant (``dense<c>``), else None."""
    attr = _constant_attr(v)
    if isinstance(attr, DenseIntOrFPElementsAttr) and attr.is_splat():
        return attr.get_values()[0]  # type: ignore[return-value]
    return None


def _scalar_or_splat(v: SSAValue) -> int | float | None:
    """The value of a scalar constant or of a splat tensor constant, else None."""
    attr = _constant_attr(v)
    if isinstance(attr, IntegerAttr | FloatAttr):
        return attr.value.data  # type: ignore[return-value]
    return _splat_scalar(v)


def _constant(t: Attribute, value: int | float) -> Operation:
    """``arith.constant`` of type ``t`` holding ``value`` (a splat for tensors)."""
    from ltc.dialects.arith import ConstantOp

    if isinstance(t, TensorType):
        return ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [value]))  # type: ignore[arg-type]
    if isinstance(value, float):
        return ConstantOp(FloatAttr(value, t))  # type: ignore[arg-type]
    return ConstantOp(IntegerAttr(value, t))  # type: ignore[arg-type]


def _valid(op: Operation) -> bool:
    """Whether a freshly built ``op`` passes its verifier (patterns never break the IR)."""
    try:
        op.verify_()
    except Exception:  # any verifier failure: the rewrite is not made
        return False
    return True


def _rebuild(op: Operation, operands: Sequence[SSAValue], result_types: Sequence[Attribute] | None = None,
             **props: Attribute | None) -> Operation:
    """A copy of ``op`` (same class, attributes, properties updated by ``props``; None
    removes one) with new operands and result types."""
    properties = dict(op.properties)
    for k, v in props.items():
        if v is None:
            properties.pop(k, None)
        else:
            properties[k] = v
    return type(op).create(
        operands=list(operands),
        result_types=list(result_types if result_types is not None else [r.type for r in op.results]),
        properties=properties,
        attributes=dict(op.attributes),
        location=op.location,
    )


def _replace_if_valid(rewriter: PatternRewriter, op: Operation, new: Operation) -> None:
    if _valid(new):
        rewriter.replace(op, new)


def _order(op: Operation) -> list[int]:
    return list(op.properties["order"].get_values())  # type: ignore[union-attr]


def _is_iota(order: Sequence[int]) -> bool:
    return list(order) == list(range(len(order)))


def _order_attr(order: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, list(order))


def _same_linear_layout(a: Attribute, b: Attribute) -> bool:
    from ltc.dialects.ttg.convert_layout import same_layout

    return same_layout(a, b)


def _is_expensive_view(src: Attribute, dst: Attribute) -> bool:
    """Triton's rule: a reshape is a pure register view only when both layouts replicate
    along the same hardware bits (equal free-variable masks per input dim) and every
    thread holds as many elements of one as of the other."""
    from ltc.passes.layout_ir import linear_layout_of

    try:
        a, b = linear_layout_of(src), linear_layout_of(dst)
    except Exception:  # a layout with no linear form here: assume data moves
        return True
    if a is None or b is None:
        return True
    if a.free_variable_masks() != b.free_variable_masks():
        return True
    return a.in_dim_size("register") != b.in_dim_size("register")


def _dot_operand(t: Attribute) -> bool:
    from ltc.encodings.dot_operand import DotOperandEncoding

    return isinstance(encoding_of_type(t), DotOperandEncoding)


# ------------------------------------------------------------------ constant folds


class FoldSingleElementRange(RewritePattern):
    """``tt.make_range {start = s, end = s + 1}`` -> ``arith.constant dense<s>``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        start, end = op.properties["start"], op.properties["end"]
        if end.value.data == start.value.data + 1:  # type: ignore[union-attr]
            rewriter.replace(op, _constant(op.results[0].type, start.value.data))  # type: ignore[union-attr]


class FoldSplatOfConstant(RewritePattern):
    """``tt.splat (arith.constant c)`` -> ``arith.constant dense<c>``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        attr = _constant_attr(op.operands[0])
        if isinstance(attr, IntegerAttr | FloatAttr) and isinstance(op.results[0].type, TensorType):
            rewriter.replace(op, _constant(op.results[0].type, attr.value.data))


class FoldViewOfSplatConstant(RewritePattern):
    """A view of a splat constant (``tt.broadcast``, ``tt.expand_dims``, ``tt.reshape``,
    ``tt.trans``) -> the constant in the result type."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        value = _splat_scalar(op.operands[0])
        if value is not None and isinstance(op.results[0].type, TensorType):
            rewriter.replace(op, _constant(op.results[0].type, value))


class FoldFpToFpOfZero(RewritePattern):
    """``tt.fp_to_fp`` of a constant ±0 -> the destination format's zero of that sign
    (+0 for formats without a negative zero, the ``FNUZ`` ones)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        value = _scalar_or_splat(op.operands[0])
        if not isinstance(value, float) or value != 0.0:
            return
        t = op.results[0].type
        elem = t.element_type if isinstance(t, TensorType) else t
        negative = math.copysign(1.0, value) < 0 and "FNUZ" not in elem.name.upper()  # type: ignore[attr-defined]
        rewriter.replace(op, _constant(t, -0.0 if negative else 0.0))


# ------------------------------------------------------------------ identities


class FoldSameType(RewritePattern):
    """An op whose result has its operand's type and does nothing then
    (``tt.broadcast``, ``tt.bitcast``, ``tt.fp_to_fp``) -> its operand."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.operands[0].type == op.results[0].type:
            rewriter.replace(op, [], [op.operands[0]])


class FoldAddPtrZero(RewritePattern):
    """``tt.addptr %p, 0`` (scalar or splat zero) -> ``%p``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if _scalar_or_splat(op.operands[1]) == 0 and op.operands[0].type == op.results[0].type:
            rewriter.replace(op, [], [op.operands[0]])


class FoldIdentityReshape(RewritePattern):
    """``tt.reshape`` to its operand's type without ``allow_reorder`` -> the operand."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.operands[0].type == op.results[0].type and "allow_reorder" not in op.properties:
            rewriter.replace(op, [], [op.operands[0]])


class FoldIdentityTrans(RewritePattern):
    """``tt.trans`` with the identity order -> its operand, through a
    ``ttg.convert_layout`` when the result type spells the layout differently."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not _is_iota(_order(op)):
            return
        src, res = op.operands[0], op.results[0]
        if src.type == res.type:
            rewriter.replace(op, [], [src])
            return
        if encoding_of_type(src.type) is None or encoding_of_type(res.type) is None:
            return
        from ltc.dialects.ttg import ConvertLayoutOp

        _replace_if_valid(rewriter, op, ConvertLayoutOp(src, res.type))  # type: ignore[arg-type]


class FoldIdentityMemDescTrans(RewritePattern):
    """``ttg.memdesc_trans`` with the identity order -> its operand."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if _is_iota(_order(op)) and op.operands[0].type == op.results[0].type:
            rewriter.replace(op, [], [op.operands[0]])


# ------------------------------------------------------------------ chains


class FoldBroadcastOfSplat(RewritePattern):
    """``tt.broadcast (tt.splat x)`` -> ``tt.splat x``; also ``tt.expand_dims`` and
    ``tt.reshape`` (without ``efficient_layout``) of a splat."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if "efficient_layout" in op.properties:
            return
        splat = _defining(op.operands[0], "tt.splat")
        if splat is not None:
            _replace_if_valid(rewriter, op, _rebuild(splat, [splat.operands[0]], [op.results[0].type]))


class FoldBroadcastChain(RewritePattern):
    """``tt.broadcast (tt.broadcast x)`` -> ``tt.broadcast x``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        inner = _defining(op.operands[0], "tt.broadcast")
        if inner is not None:
            _replace_if_valid(rewriter, op, _rebuild(op, [inner.operands[0]]))


class SwapExpandDimsOfBroadcast(RewritePattern):
    """``tt.expand_dims (tt.broadcast x)`` -> ``tt.broadcast (tt.expand_dims x)``, so that
    ``broadcast(expand_dims(broadcast))`` ends as one broadcast of one expand_dims."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        bcast = _defining(op.operands[0], "tt.broadcast")
        if bcast is None:
            return
        x = bcast.operands[0]
        xt, rt = x.type, op.results[0].type
        assert isinstance(xt, TensorType) and isinstance(rt, TensorType)
        axis = op.properties["axis"].value.data  # type: ignore[union-attr]
        shape = list(xt.get_shape())
        shape.insert(axis, 1)
        new_type: Attribute = TensorType(xt.element_type, shape)
        enc = encoding_of_type(xt)
        if enc is not None:
            from ltc.encodings.shape_rules import expand_dims_encoding

            try:
                new_enc = expand_dims_encoding(enc, tensor_shape(xt), axis)
            except (ValueError, AssertionError):
                return
            new_type = with_layout(new_type, new_enc)
            if encoding_of_type(rt) != new_enc:
                return  # the broadcast needs one layout for operand and result
        expand = _rebuild(op, [x], [new_type])
        outer = _rebuild(bcast, [expand.results[0]], [rt])
        if not (_valid(expand) and _valid(outer)):
            outer.erase(safe_erase=False)
            expand.erase()
            return
        rewriter.insert(expand, InsertPoint.before(op))
        rewriter.replace(op, outer)


class FoldReshapeChain(RewritePattern):
    """``tt.reshape (tt.reshape x)`` -> ``tt.reshape x`` (``allow_reorder`` if either had
    it); neither may carry ``efficient_layout``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if "efficient_layout" in op.properties:
            return
        inner = _defining(op.operands[0], "tt.reshape")
        if inner is None:
            return
        reorder = "allow_reorder" in op.properties or "allow_reorder" in inner.properties
        _replace_if_valid(rewriter, op, _rebuild(op, [inner.operands[0]], allow_reorder=UnitAttr() if reorder else None))


class FoldTransChain(RewritePattern):
    """``tt.trans (tt.trans x, a), b`` -> ``tt.trans x, a∘b`` (``ttg.memdesc_trans`` too)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        inner = _defining(op.operands[0], op.name)
        if inner is None:
            return
        outer, first = _order(op), _order(inner)
        composed = [first[i] for i in outer]
        x = inner.operands[0]
        if _is_iota(composed) and x.type == op.results[0].type:
            rewriter.replace(op, [], [x])
            return
        _replace_if_valid(rewriter, op, _rebuild(op, [x], order=_order_attr(composed)))


class FoldMemDescSubsliceChain(RewritePattern):
    """``ttg.memdesc_subslice (ttg.memdesc_subslice x[a])[b]`` -> ``ttg.memdesc_subslice x[a + b]``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        inner = _defining(op.operands[0], "ttg.memdesc_subslice")
        if inner is None:
            return
        a = list(inner.properties["offsets"].get_values())  # type: ignore[union-attr]
        b = list(op.properties["offsets"].get_values())  # type: ignore[union-attr]
        if len(a) != len(b):
            return
        offsets = DenseArrayBase.from_list(i32, [x + y for x, y in zip(a, b)])
        _replace_if_valid(rewriter, op, _rebuild(op, [inner.operands[0]], offsets=offsets))


class FoldIntToPtrOfPtrToInt(RewritePattern):
    """``tt.int_to_ptr (tt.ptr_to_int p)`` -> ``p`` (a ``tt.bitcast`` when the pointer
    types differ)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        inner = _defining(op.operands[0], "tt.ptr_to_int")
        if inner is None:
            return
        p = inner.operands[0]
        if p.type == op.results[0].type:
            rewriter.replace(op, [], [p])
            return
        from ltc.dialects.tt import BitcastOp

        _replace_if_valid(rewriter, op, BitcastOp.create(operands=[p], result_types=[op.results[0].type]))


class FoldIntToPtrOfAddConstant(RewritePattern):
    """``tt.int_to_ptr (arith.addi v, c)`` with a constant byte offset ``c`` divisible by
    the pointee size -> ``tt.addptr (tt.int_to_ptr v), c / size`` (in ``c``'s type)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        add = _defining(op.operands[0], "arith.addi")
        if add is None:
            return
        offset = _scalar_or_splat(add.operands[1])
        if not isinstance(offset, int):
            return
        rt = op.results[0].type
        ptr = rt.element_type if isinstance(rt, TensorType) else rt
        from ltc.dialects.tt import element_bit_width

        bits = element_bit_width(getattr(ptr, "pointee_type", ptr))
        size = max(1, (bits or 8) // 8)
        if offset % size:
            return
        base = _rebuild(op, [add.operands[0]])
        off_t = add.operands[1].type
        if isinstance(rt, TensorType) and isinstance(off_t, TensorType):
            off_t = TensorType(off_t.element_type, rt.get_shape(), rt.encoding)
        cst = _constant(off_t, offset // size)
        from ltc.dialects.tt import AddPtrOp

        addptr = AddPtrOp.create(operands=[base.results[0], cst.results[0]], result_types=[rt])
        if not (_valid(base) and _valid(addptr)):
            return
        rewriter.insert([base, cst], InsertPoint.before(op))
        rewriter.replace(op, addptr)


# ------------------------------------------------------------------ masks


class FoldConstantMaskLoad(RewritePattern):
    """``tt.load`` with a splat-true mask -> without mask and ``other``; with a
    splat-false mask and an ``other`` -> ``other`` (nothing is read)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        ptr, mask, other = op.ptr, op.mask, op.other  # type: ignore[attr-defined]
        if mask is None:
            return
        value = _splat_scalar(mask)
        if value is None:
            return
        if value:
            rewriter.replace(op, _rebuild(op, [ptr], operandSegmentSizes=DenseArrayBase.from_list(i32, [1, 0, 0])))
        elif other is not None:
            rewriter.replace(op, [], [other])


class FoldConstantMaskStore(RewritePattern):
    """``tt.store`` with a splat-true mask -> without mask; with a splat-false mask ->
    erased (nothing is written)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if len(op.operands) < 3:
            return
        value = _splat_scalar(op.operands[2])
        if value is None:
            return
        if value:
            rewriter.replace(op, _rebuild(op, op.operands[:2]))
        else:
            rewriter.erase(op)


# ------------------------------------------------------------------ conversions


def _convert_source(v: SSAValue) -> SSAValue | None:
    cvt = _defining(v, "ttg.convert_layout")
    return None if cvt is None else cvt.operands[0]


class FoldConvertIntoReshape(RewritePattern):
    """``tt.reshape (cvt x)`` -> ``tt.reshape x`` when the convert moves no data, or when
    the reshape may reorder and stays a register view of ``x``'s layout."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        x = _convert_source(op.operands[0])
        if x is None:
            return
        trivial = _same_linear_layout(x.type, op.operands[0].type)
        if not trivial and ("allow_reorder" not in op.properties or _is_expensive_view(x.type, op.results[0].type)):
            return
        _replace_if_valid(rewriter, op, _rebuild(op, [x]))


class FoldConvertIntoTrans(RewritePattern):
    """``tt.trans (cvt x)`` -> ``tt.trans x`` when the convert moves no data."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        x = _convert_source(op.operands[0])
        if x is not None and _same_linear_layout(x.type, op.operands[0].type):
            _replace_if_valid(rewriter, op, _rebuild(op, [x]))


class FoldConvertIntoOperand(RewritePattern):
    """An op whose first operand's layout is free takes the convert's source there:
    ``tt.histogram``, ``tt.gather`` (without ``efficient_layout``), ``ttg.local_alloc``,
    ``ttg.local_store``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not op.operands or "efficient_layout" in op.properties:
            return
        x = _convert_source(op.operands[0])
        if x is not None:
            _replace_if_valid(rewriter, op, _rebuild(op, [x, *op.operands[1:]]))


class FoldConvertIntoMaskedHistogram(RewritePattern):
    """``tt.histogram (cvt x), m`` -> ``tt.histogram x, (cvt m)``: the source's layout is
    free and the mask follows it (into ``x``'s layout); the mask's convert may fold later."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if len(op.operands) != 2:
            return
        x = _convert_source(op.operands[0])
        if x is None:
            return
        from ltc.dialects.ttg import ConvertLayoutOp

        mask = op.operands[1]
        mask_t = TensorType(mask.type.element_type, mask.type.get_shape(), x.type.encoding)  # type: ignore[attr-defined]
        cvt = ConvertLayoutOp(mask, mask_t)
        new = _rebuild(op, [x, cvt.result])
        if _valid(cvt) and _valid(new):
            rewriter.insert(cvt, InsertPoint.before(op))
            rewriter.replace(op, new)


def _tmem_32x32b_layout(shape: Sequence[int], num_warps: int) -> LinearLayout | None:
    """The register layout of a ``tcgen05.ld/st .32x32b`` message for a 128-row tensor
    memory tile of ``shape``: lane ``i`` of warp ``w`` holds row ``32 (w % 4) + i``, its
    registers walk the columns, and warps beyond four split the columns in halves,
    quarters, ... (None when the tile is not 128 rows or too narrow for the warps)."""
    m, n = shape
    groups = num_warps // 4
    if m != 128 or num_warps < 4 or num_warps & (num_warps - 1) or n % groups or n // groups < 1:
        return None
    cols = n // groups
    registers = [(0, 1 << k) for k in range(cols.bit_length() - 1)]
    warps = [(32, 0), (64, 0)] + [(0, cols << k) for k in range(groups.bit_length() - 1)]
    lanes = [(1 << k, 0) for k in range(5)]
    return LinearLayout([("register", registers), ("lane", lanes), ("warp", warps), ("block", [])],
                        [("dim0", m), ("dim1", n)])


class FoldConvertIntoTMEMStore(RewritePattern):
    """``ttng.tmem_store (cvt x)`` -> ``ttng.tmem_store x`` when ``x``'s layout is one a
    tensor-memory message writes directly (ltc knows the 32x32b message of a 128-row
    tile); a store into a view (subslice, index, reshape, reinterpret, trans) keeps its
    convert, as Triton's does."""

    _VIEWS = ("ttg.memdesc_subslice", "ttg.memdesc_index", "ttg.memdesc_reshape", "ttg.memdesc_reinterpret",
              "ttg.memdesc_trans", "ttng.tmem_subslice")

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        src = getattr(op, "src", None)
        dst = getattr(op, "dst", None)
        if src is None or dst is None:
            return
        x = _convert_source(src)
        if x is None or (isinstance(dst, OpResult) and dst.op.name in self._VIEWS):
            return
        from ltc.passes.layout_ir import ModuleConfig, linear_layout_of

        block_m = getattr(getattr(dst.type, "encoding", None), "blockM", None)
        if block_m is None or block_m.data != 128:
            return
        want = _tmem_32x32b_layout(tensor_shape(x.type), ModuleConfig.of(op).num_warps)
        if want is None or linear_layout_of(x.type) != want:
            return
        operands = [x if o is src else o for o in op.operands]
        _replace_if_valid(rewriter, op, _rebuild(op, operands))


class FoldConvertOfProducer(RewritePattern):
    """``cvt(tt.histogram)`` and ``cvt(ttg.local_load)`` -> the producer built in the
    convert's layout (their result layout is free; a new local_load goes where the old
    one was, before any intervening write); ``cvt(tt.reshape)`` likewise when the
    reshape may reorder, is a register view and no dot operand layout is involved."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        src = op.operands[0]
        if not isinstance(src, OpResult) or len(src.op.results) != 1:
            return
        prod, res_t = src.op, op.results[0].type
        if prod.name == "tt.histogram":
            _replace_if_valid(rewriter, op, _rebuild(prod, prod.operands, [res_t]))
        elif prod.name == "ttg.local_load":
            new = _rebuild(prod, prod.operands, [res_t])
            if _valid(new):
                rewriter.insert(new, InsertPoint.before(prod))
                rewriter.replace(op, [], [new.results[0]])
                if not src.uses:  # a local_load only reads: unused, it goes
                    rewriter.erase(prod)
        elif prod.name == "tt.reshape":
            if "allow_reorder" not in prod.properties or "efficient_layout" in prod.properties:
                return
            if _is_expensive_view(prod.operands[0].type, res_t) or _dot_operand(src.type) or _dot_operand(res_t):
                return
            _replace_if_valid(rewriter, op, _rebuild(prod, prod.operands, [res_t]))


class FoldLocalAllocOfLocalLoad(RewritePattern):
    """``ttg.local_alloc (ttg.local_load m)`` -> ``m`` when the allocation is immutable
    and ``m`` has its type (the same bytes, never written)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not op.operands:
            return
        t = op.results[0].type
        if getattr(t, "is_mutable", True):
            return
        load = _defining(op.operands[0], "ttg.local_load")
        if load is not None and load.operands[0].type == t:
            rewriter.replace(op, [], [load.operands[0]])


class EraseUnusedSharedRead(RewritePattern):
    """An unused ``ttg.local_load`` is erased: it only reads shared memory (Triton's
    effects), which ltc's op does not declare."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not any(r.uses for r in op.results):
            rewriter.erase(op)


class EraseUnusedImmutableAlloc(RewritePattern):
    """An unused ``ttg.local_alloc`` of an immutable buffer (not yet given an
    ``allocation.offset``) is erased: Triton gives it no side effect."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        t = op.results[0].type
        if op.results[0].uses or getattr(t, "is_mutable", True) or "allocation.offset" in op.attributes:
            return
        rewriter.erase(op)


# ------------------------------------------------------------------ warp specialization

_WS_STRUCTURE = ("ttg.warp_specialize", "ttg.warp_specialize.partitions", "ttg.warp_yield", "ttg.warp_return")


def _observable_inside(ws: Operation) -> bool:
    """Whether any op in ``ws``'s regions may have an effect beyond its results."""
    from xdsl.transforms.dead_code_elimination import result_only_effects

    return any(o.name not in _WS_STRUCTURE and not result_only_effects(o) for o in ws.walk())


def _merge_duplicate_captures(holder: Operation) -> None:
    """A value captured twice: every partition uses the first argument for the second."""
    first: dict[SSAValue, int] = {}
    for i, v in enumerate(holder.operands):
        j = first.setdefault(v, i)
        if j != i:
            for region in holder.regions:
                args = region.blocks.first.args  # type: ignore[union-attr]
                args[i].replace_all_uses_with(args[j])


def _renumber_arguments(block: Block, hint: str | None) -> None:
    """Parsed ``%argN`` names made consecutive again from ``hint`` (the first argument's
    name before some were erased): MLIR numbers block arguments afresh when it prints."""
    if hint is None or not hint.startswith("arg") or not hint[3:].isdigit():
        return
    for k, a in enumerate(block.args):
        a.name_hint = f"arg{int(hint[3:]) + k}"


class SimplifyWarpSpecialize(RewritePattern):
    """``ttg.warp_specialize``: erased when its results are unused and nothing inside has
    an effect; a value captured twice is captured once; captures no partition uses and
    results nobody uses are dropped (with the matching ``ttg.warp_yield`` operands)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        holder = getattr(op, "partition_op", None)
        if holder is None:
            return
        if not any(r.uses for r in op.results) and not _observable_inside(op):
            rewriter.erase(op)
            return
        _merge_duplicate_captures(holder)
        blocks = [r.blocks.first for r in holder.regions]
        if all(b is not None for b in blocks):
            keep = [i for i in range(len(holder.operands)) if any(b.args[i].uses for b in blocks)]  # type: ignore[union-attr]
            if len(keep) != len(holder.operands):
                hints = [b.args[0].name_hint if b.args else None for b in blocks]  # type: ignore[union-attr]
                for b in blocks:
                    for i in reversed(range(len(holder.operands))):
                        if i not in keep:
                            rewriter.erase_block_argument(b.args[i])  # type: ignore[union-attr]
                holder.operands = [holder.operands[i] for i in keep]
                for b, hint in zip(blocks, hints):
                    _renumber_arguments(b, hint)  # type: ignore[arg-type]
                rewriter.notify_op_modified(holder)
        used = [i for i, r in enumerate(op.results) if r.uses]
        yields = [b.last_op for b in op.regions[0].blocks]
        if len(used) == len(op.results) or any(y is None or y.name != "ttg.warp_yield" for y in yields):
            return
        for y in yields:
            y.operands = [y.operands[i] for i in used]  # type: ignore[union-attr]
            rewriter.notify_op_modified(y)  # type: ignore[arg-type]
        regions = [op.detach_region(r) for r in list(op.regions)]
        new = type(op).create(result_types=[op.results[i].type for i in used], properties=dict(op.properties),
                              attributes=dict(op.attributes), regions=regions, location=op.location)
        results: list[SSAValue | None] = [None] * len(op.results)
        for k, i in enumerate(used):
            results[i] = new.results[k]
        rewriter.replace(op, new, results)


# ------------------------------------------------------------------ the table

_VIEW_CONSTANT = FoldViewOfSplatConstant()
_SAME_TYPE = FoldSameType()
_SPLAT_CHAIN = FoldBroadcastOfSplat()
_INTO_OPERAND = FoldConvertIntoOperand()

TRITON_PATTERNS: dict[str, tuple[RewritePattern, ...]] = {
    "tt.make_range": (FoldSingleElementRange(),),
    "tt.splat": (FoldSplatOfConstant(),),
    "tt.broadcast": (_SAME_TYPE, _VIEW_CONSTANT, _SPLAT_CHAIN, FoldBroadcastChain()),
    "tt.expand_dims": (_VIEW_CONSTANT, _SPLAT_CHAIN, SwapExpandDimsOfBroadcast()),
    "tt.reshape": (FoldIdentityReshape(), _VIEW_CONSTANT, FoldReshapeChain(), _SPLAT_CHAIN, FoldConvertIntoReshape()),
    "tt.trans": (FoldIdentityTrans(), FoldTransChain(), _VIEW_CONSTANT, FoldConvertIntoTrans()),
    "tt.addptr": (FoldAddPtrZero(),),
    "tt.fp_to_fp": (_SAME_TYPE, FoldFpToFpOfZero()),
    "tt.bitcast": (_SAME_TYPE,),
    "tt.int_to_ptr": (FoldIntToPtrOfPtrToInt(), FoldIntToPtrOfAddConstant()),
    "tt.load": (FoldConstantMaskLoad(),),
    "tt.store": (FoldConstantMaskStore(),),
    "tt.histogram": (_INTO_OPERAND, FoldConvertIntoMaskedHistogram()),
    "tt.gather": (_INTO_OPERAND,),
    "ttg.local_alloc": (EraseUnusedImmutableAlloc(), FoldLocalAllocOfLocalLoad(), _INTO_OPERAND),
    "ttg.local_load": (EraseUnusedSharedRead(),),
    "ttg.local_store": (_INTO_OPERAND,),
    "ttg.memdesc_trans": (FoldIdentityMemDescTrans(), FoldTransChain()),
    "ttg.memdesc_subslice": (FoldMemDescSubsliceChain(),),
    "ttg.convert_layout": (FoldConvertOfProducer(),),
    "ttg.warp_specialize": (SimplifyWarpSpecialize(),),
    "ttng.tmem_store": (FoldConvertIntoTMEMStore(),),
}
"""Op name -> the Triton canonicalization patterns that match it, in the order tried."""


class TritonCanonicalizationPattern(RewritePattern):
    """Apply the patterns of :data:`TRITON_PATTERNS` for the op's name (first that rewrites)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        for pattern in TRITON_PATTERNS.get(op.name, ()):
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                return


@dataclass(frozen=True)
class TritonCanonicalizePass(ModulePass):
    """xDSL's canonicalization (op patterns, folders, DCE) with Triton's patterns."""

    name = "canonicalize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = GreedyRewritePatternApplier(
            [CanonicalizationRewritePattern(), TritonCanonicalizationPattern()], ctx=ctx, folding_enabled=True
        )
        PatternRewriteWalker(AtMatchedLocation(pattern), post_walk_func=region_dce).rewrite_module(op)
