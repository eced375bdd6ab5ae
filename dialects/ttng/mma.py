"""Blackwell tensor-core MMA (tcgen05): ``ttng.tc_gen5_mma``, ``ttng.tc_gen5_mma_scaled``,
``ttng.tc_gen5_commit``.

``d += a * b`` with ``a`` in shared or tensor memory, ``b`` in shared memory and the
accumulator ``d`` in tensor memory. Syntax (Triton's ``custom<Token>`` and
``custom<BarriersAndPreds>``)::

    %tok2 = ttng.tc_gen5_mma %a, %b, %d[%tok], %useD, %pred, %bar[%barPred] {is_async}
        : !ttg.memdesc<A>, !ttg.memdesc<B>, !ttg.memdesc<D>, !ttg.memdesc<1xi64, ...>

The scaled form adds the scale buffers and the operand formats
(``..., %aScale, %bScale, %useD, %pred lhs = e4m3 rhs = e2m1[, %bar[%p]]``). Verifiers
check Triton's dtype, encoding and barrier rules; not the CTA-layout rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ltc.dialects.ttg import AsyncTokenType, MemDescType, attr_text
from ltc.dialects.ttg.types import verify_layout_dims_fit, verify_swizzle_tile
from ltc.dialects.ttg_attrs import LayoutAttr
from ltc.dialects.ttng.attrs import (
    ScaleDotElemType,
    ScaleDotElemTypeAttr,
    TensorMemoryEncodingAttr,
)
from ltc.dialects.ttng.common import (
    TTNGOp,
    print_types,
    require_tcgen05,
    verify_barrier_type,
    verify_completion_barrier,
)
from ltc.dialects.ttng.tmem import parse_token, print_token
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    Float4E2M1FNType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    IntegerType,
    UnitAttr,
    i1,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from ltc.encodings.shared import NVMMASharedEncoding, SharedLinearEncoding

__all__ = ["TCGen5CommitOp", "TCGen5MMAOp", "TCGen5MMAScaledOp"]


def _parse_barriers(parser: Parser) -> tuple[list[UnresolvedOperand], list[UnresolvedOperand]]:
    """``(, %bar[%pred])*``."""
    barriers, preds = [], []
    while parser.parse_optional_punctuation(",") is not None:
        barriers.append(parser.parse_unresolved_operand())
        parser.parse_punctuation("[")
        preds.append(parser.parse_unresolved_operand())
        parser.parse_punctuation("]")
    return barriers, preds


def _parse_head(parser: Parser) -> tuple[UnresolvedOperand, UnresolvedOperand, UnresolvedOperand, UnresolvedOperand | None, bool]:
    """``%a, %b, %d[%tok]``: the three operands, the token operand and whether a token is produced."""
    a = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    b = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    d = parser.parse_unresolved_operand()
    dep, produces = parse_token(parser)
    return a, b, d, dep, produces


def _print_barriers(printer: Printer, barriers: Sequence[SSAValue], preds: Sequence[SSAValue]) -> None:
    for barrier, pred in zip(barriers, preds):
        printer.print_string(", ")
        printer.print_operand(barrier)
        printer.print_string("[")
        printer.print_operand(pred)
        printer.print_string("]")


def _bit_width(attr: Attribute) -> int | None:
    if isinstance(attr, IntegerType):
        return attr.width.data
    if isa(attr, AnyFloat):
        return attr.bitwidth
    return None


def _mma_kind(t: Attribute) -> tuple[str, tuple[Attribute, ...]] | None:
    """The tcgen05 kind of an operand element type and the accumulator types it allows."""
    f16, f32 = Float16Type(), Float32Type()
    if isinstance(t, Float32Type):
        return "tf32", (f32,)
    if isinstance(t, Float16Type):
        return "f16", (f16, f32)
    if isinstance(t, BFloat16Type):
        return "f16", (f32,)
    if isa(t, AnyFloat) and t.bitwidth in (4, 6, 8):
        return "f8f6f4", (f16, f32)
    if isinstance(t, IntegerType) and t.width.data == 8:
        return "i8", (IntegerType(32),)
    return None


def _verify_mma_dtypes(a: Attribute, b: Attribute, d: Attribute) -> None:
    a_kind, b_kind = _mma_kind(a), _mma_kind(b)
    if a_kind is None:
        raise VerifyException(f"unsupported LHS operand dtype: {attr_text(a)}")
    if b_kind is None:
        raise VerifyException(f"unsupported RHS operand dtype: {attr_text(b)}")
    if a_kind[0] != b_kind[0]:
        raise VerifyException(
            f"LHS and RHS operand dtypes kinds don't match: LHS kind is {a_kind[0]} but RHS kind is {b_kind[0]}"
        )
    if d not in a_kind[1] or d not in b_kind[1]:
        allowed = ", ".join(f"'{attr_text(t)}'" for t in a_kind[1])
        raise VerifyException(
            f"unsupported accumulator dtype for operand types '{attr_text(a)}' and '{attr_text(b)}', "
            f"accumulator dtype is '{attr_text(d)}' but must be one of [{allowed}]"
        )


def _verify_dot_interface(op: _MMAv5Op) -> None:
    """Triton's ``DotOpInterface`` verifier, which runs before the op's own: ``a``, ``b`` and
    ``d`` are all 2-D or all 3-D (a leading batch dim), ``a``'s K is ``b``'s and ``d`` is
    M x N, with the dims an op reads packed fp4 along counted twice (``op.dot_dims``)."""
    a, b, d = (v.type for v in (op.a, op.b, op.d))
    assert isinstance(a, MemDescType) and isinstance(b, MemDescType) and isinstance(d, MemDescType)
    a_shape, b_shape, d_shape = a.get_shape(), b.get_shape(), d.get_shape()
    if len(a_shape) not in (2, 3):
        raise VerifyException("expected operands to be 2d or 3d")
    if len(a_shape) != len(b_shape) or len(a_shape) != len(d_shape):
        raise VerifyException("expected all operands to have the same rank")
    a_m, a_k, b_k, b_n = op.dot_dims(a, b)
    if a_k != b_k:
        raise VerifyException(
            "expected the last dimension of the first operand to be equal to the second-to-last "
            "dimension of the second operand"
        )
    if len(a_shape) == 3 and (a_shape[0] != d_shape[0] or b_shape[0] != d_shape[0]):
        raise VerifyException(
            "expected the first dimension of the first operand to be equal to the first dimension of the result"
        )
    if tuple(d_shape[-2:]) != (a_m, b_n):
        raise VerifyException(
            "expected the output shape to be the concatenation of the last dimension of the first "
            "operand and the last dimension of the second"
        )


def _is_nvmma_like(attr: Attribute) -> bool:
    return isinstance(attr, LayoutAttr) and isinstance(attr.encoding, (NVMMASharedEncoding, SharedLinearEncoding))


class _MMAv5Op(TTNGOp):
    """What the two tcgen05 MMAs share: token, barriers, ``is_async`` and the checks on them."""

    @classmethod
    def parse_tail(
        cls, parser: Parser, fixed: int
    ) -> tuple[list[UnresolvedOperand], list[UnresolvedOperand], dict[str, Attribute], dict[str, Attribute], list[Attribute]]:
        """``(, %bar[%pred])* {attrs} : T1, ..., T<fixed>, <barrier types>``: the barriers and
        their predicates, the properties and attributes, and every type in order."""
        barriers, barrier_preds = _parse_barriers(parser)
        props, attrs = cls.parse_dict(parser)
        parser.parse_punctuation(":")
        types = [parser.parse_type()]
        for _ in range(fixed - 1 + len(barriers)):
            parser.parse_punctuation(",")
            types.append(parser.parse_type())
        return barriers, barrier_preds, props, attrs, types

    def print_head(self, printer: Printer) -> None:
        """`` %a, %b, %d[%tok], ``."""
        printer.print_string(" ")
        printer.print_list([self.a, self.b, self.d], printer.print_operand)
        print_token(printer, self.acc_dep, self.token is not None)
        printer.print_string(", ")

    def dot_dims(self, a: MemDescType, b: MemDescType) -> tuple[int, int, int, int]:
        """``(M, K of a, K of b, N)`` as the dot interface compares them."""
        (a_m, a_k), (b_k, b_n) = a.get_shape()[-2:], b.get_shape()[-2:]
        return a_m, a_k, b_k, b_n

    def verify_common(self) -> tuple[MemDescType, MemDescType, MemDescType]:
        """The dot interface, the MMAv5 interface, tcgen05 support and the barrier rules;
        the types of ``a``, ``b`` and ``d``."""
        _verify_dot_interface(self)
        if _tmem_blocks_interleaved(self.a.type) and _tmem_blocks_interleaved(self.d.type):
            raise VerifyException("does not support blockM=64 with interleaved blocks in TMEM layout")
        require_tcgen05(self)
        if len(self.barriers) != len(self.barrier_preds):
            raise VerifyException("expected one predicate per barrier")
        if self.properties.get("is_async") is None and self.barriers:
            raise VerifyException("The op is synchronous but a barrier is present.")
        for barrier in self.barriers:
            verify_barrier_type(self, barrier.type)
            verify_completion_barrier(self, barrier.type)
        a, b, d = self.a.type, self.b.type, self.d.type
        assert isinstance(a, MemDescType) and isinstance(b, MemDescType) and isinstance(d, MemDescType)
        return a, b, d


def _tmem_blocks_interleaved(t: Attribute) -> bool:
    """Whether a tensor-memory buffer interleaves its blocks: with ``blockM = 64`` one
    block fills 64 of the 128 TMEM lanes (16 of each warp's 32), and a tile (the last two
    dims, per CTA) of more than one ``64 x blockN`` block packs a second block into the
    other lanes, so the allocation takes 128 rows instead of 64."""
    if not isinstance(t, MemDescType) or not isinstance(t.encoding, TensorMemoryEncodingAttr):
        return False
    enc = t.encoding
    if enc.blockM.data != 64 or len(t.get_shape()) < 2:
        return False
    split_m, split_n = enc.cta_split()
    rows, cols = (size // split for size, split in zip(t.get_shape()[-2:], (split_m, split_n)))
    return -(-rows // 64) * -(-cols // enc.blockN.data) > 1


@irdl_op_definition
class TCGen5MMAOp(_MMAv5Op):
    """``d += a * b`` on Blackwell tensor cores (see the module docstring for the syntax)."""

    name = "ttng.tc_gen5_mma"

    a = operand_def(MemDescType)
    b = operand_def(MemDescType)
    d = operand_def(MemDescType)
    acc_dep = opt_operand_def(AsyncTokenType)
    useD = operand_def(i1)
    pred = operand_def(i1)
    barriers = var_operand_def(MemDescType)
    barrier_preds = var_operand_def(i1)
    token = opt_result_def(AsyncTokenType)
    is_async = opt_prop_def(UnitAttr)
    two_ctas = opt_prop_def(UnitAttr)
    multicast = opt_prop_def(UnitAttr)
    is_unsigned = opt_prop_def(UnitAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    PROPERTIES: ClassVar[tuple[str, ...]] = ("is_async", "two_ctas", "multicast", "is_unsigned")

    @classmethod
    def parse(cls, parser: Parser) -> TCGen5MMAOp:
        a, b, d, dep, produces = _parse_head(parser)
        parser.parse_punctuation(",")
        use_d = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        pred = parser.parse_unresolved_operand()
        barriers, barrier_preds, props, attrs, types = cls.parse_tail(parser, 3)
        return cls.build(
            operands=[
                parser.resolve_operand(a, types[0]),
                parser.resolve_operand(b, types[1]),
                parser.resolve_operand(d, types[2]),
                [parser.resolve_operand(dep, AsyncTokenType())] if dep is not None else [],
                parser.resolve_operand(use_d, i1),
                parser.resolve_operand(pred, i1),
                [parser.resolve_operand(x, t) for x, t in zip(barriers, types[3:])],
                [parser.resolve_operand(x, i1) for x in barrier_preds],
            ],
            result_types=[[AsyncTokenType()] if produces else []],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        self.print_head(printer)
        printer.print_list([self.useD, self.pred], printer.print_operand)
        _print_barriers(printer, self.barriers, self.barrier_preds)
        self.print_dict(printer)
        printer.print_string(" : ")
        print_types(printer, [self.a.type, self.b.type, self.d.type, *self.barriers.types])

    def verify_(self) -> None:
        a, b, d = self.verify_common()
        _verify_mma_dtypes(a.element_type, b.element_type, d.element_type)
        if len(a.get_shape()) != 2:
            raise VerifyException("LHS operand must have a rank-2 tensor")
        if len(b.get_shape()) != 2:
            raise VerifyException("RHS operand must have a rank-2 tensor")
        if len(d.get_shape()) != 2:
            raise VerifyException("Return operand must have a rank-2 tensor")
        (m, k), (k_b, n) = a.get_shape(), b.get_shape()
        if k != k_b:
            raise VerifyException(
                "expected the last dimension of the first operand to be equal to the second-to-last "
                "dimension of the second operand"
            )
        if tuple(d.get_shape()) != (m, n):
            raise VerifyException(
                "expected the output shape to be the concatenation of the last dimension of the first "
                "operand and the last dimension of the second"
            )
        # one tcgen05 instruction reads 32 bytes of K: 16 f16, 8 tf32, 32 8-bit values
        width = _bit_width(a.element_type)
        if width and k * width < 256:
            raise VerifyException(
                f"K dimension must be at least {256 // width} for '{attr_text(a.element_type)}' operands, but got {k}"
            )
        if not (_is_nvmma_like(a.encoding) or isinstance(a.encoding, TensorMemoryEncodingAttr)):
            raise VerifyException("LHS operand must have a NVMMAShared or TensorMemory encoding")
        if not _is_nvmma_like(b.encoding):
            raise VerifyException("RHS operand must have a NVMMAShared encoding")
        ret = d.encoding
        if not isinstance(ret, TensorMemoryEncodingAttr):
            raise VerifyException("Return operand must have a TensorMemory encoding")
        if ret.fp4_padded:
            raise VerifyException("Accumulator must not be fp4_padded")
        if isinstance(a.encoding, TensorMemoryEncodingAttr):
            if a.encoding.colStride.data != 1:
                raise VerifyException("The col stride of the LHS operand must be 1")
            if a.encoding.fp4_padded:
                raise VerifyException("fp4_padded tensor memory LHS is only supported by scaled MMA")
        width = _bit_width(d.element_type) or 32
        if ret.colStride.data != 32 // width:
            raise VerifyException(
                f"The col stride of the return operand must be 32 / {width} but got {ret.colStride.data}"
            )
        two_ctas = self.two_ctas is not None
        if two_ctas and n // ret.cta_split()[1] > 256:
            # a CTA's N beyond one instruction would need a CGA layout that does not cut
            # the tile into contiguous CTA tiles (Triton refuses it)
            raise VerifyException(
                "We don't allow to emit more than one mma instruction along N. "
                "Reduce the block or increase the number of warps or CTAs along N"
            )
        if ret.two_ctas != two_ctas:
            kind = "twoCTA" if two_ctas else "non-twoCTA"
            raise VerifyException(
                f"The returned value's encoding must have twoCTA={str(two_ctas).lower()} to be used in a {kind} kernel"
            )
        if isinstance(a.encoding, TensorMemoryEncodingAttr) and a.encoding.two_ctas != two_ctas:
            kind = "twoCTA" if two_ctas else "non-twoCTA"
            raise VerifyException(
                f"The LHS operand's encoding must have twoCTA={str(two_ctas).lower()} to be used in a {kind} kernel"
            )
        verify_layout_dims_fit(a, "operand A")  # Triton builds their layouts (32-bit sizes)
        verify_layout_dims_fit(b, "operand B")
        verify_swizzle_tile("operand A", a)
        verify_swizzle_tile("operand B", b)


_FLOAT8 = (ScaleDotElemType.E4M3, ScaleDotElemType.E5M2)


def _scaled_operand_type(element: Attribute, fmt: ScaleDotElemType) -> Attribute:
    """The element type an operand stands for: its own if a float, else its format's."""
    if isa(element, AnyFloat):
        return element
    return {
        ScaleDotElemType.E4M3: Float8E4M3FNType(),
        ScaleDotElemType.E5M2: Float8E5M2Type(),
        ScaleDotElemType.E2M3: Float6E2M3FNType(),
        ScaleDotElemType.E3M2: Float6E3M2FNType(),
        ScaleDotElemType.E2M1: Float4E2M1FNType(),
        ScaleDotElemType.BF16: BFloat16Type(),
        ScaleDotElemType.FP16: Float16Type(),
    }[fmt]


@irdl_op_definition
class TCGen5MMAScaledOp(_MMAv5Op):
    """``d += (a * 2^a_scale) * (b * 2^b_scale)`` with micro-scaled operand formats."""

    name = "ttng.tc_gen5_mma_scaled"

    a = operand_def(MemDescType)
    b = operand_def(MemDescType)
    d = operand_def(MemDescType)
    acc_dep = opt_operand_def(AsyncTokenType)
    a_scale = operand_def(MemDescType)
    b_scale = operand_def(MemDescType)
    useD = operand_def(i1)
    pred = operand_def(i1)
    barriers = var_operand_def(MemDescType)
    barrier_preds = var_operand_def(i1)
    token = opt_result_def(AsyncTokenType)
    a_type = prop_def(ScaleDotElemTypeAttr)
    b_type = prop_def(ScaleDotElemTypeAttr)
    two_ctas = opt_prop_def(UnitAttr)
    multicast = opt_prop_def(UnitAttr)
    is_async = opt_prop_def(UnitAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    PROPERTIES: ClassVar[tuple[str, ...]] = ("a_type", "b_type", "two_ctas", "multicast", "is_async")

    @classmethod
    def parse(cls, parser: Parser) -> TCGen5MMAScaledOp:
        a, b, d, dep, produces = _parse_head(parser)
        rest = []
        for _ in range(4):
            parser.parse_punctuation(",")
            rest.append(parser.parse_unresolved_operand())
        a_scale, b_scale, use_d, pred = rest
        formats = {}
        for side in ("lhs", "rhs"):
            parser.parse_keyword(side)
            parser.parse_punctuation("=")
            pos = parser.pos
            word = parser.parse_identifier()
            names = [f.value for f in ScaleDotElemType]
            if word not in names:
                parser.raise_error(f"expected one of [{', '.join(names)}] for {side}, got '{word}'", pos)
            formats[side] = ScaleDotElemTypeAttr(ScaleDotElemType(word))
        barriers, barrier_preds, props, attrs, types = cls.parse_tail(parser, 5)
        return cls.build(
            operands=[
                parser.resolve_operand(a, types[0]),
                parser.resolve_operand(b, types[1]),
                parser.resolve_operand(d, types[2]),
                [parser.resolve_operand(dep, AsyncTokenType())] if dep is not None else [],
                parser.resolve_operand(a_scale, types[3]),
                parser.resolve_operand(b_scale, types[4]),
                parser.resolve_operand(use_d, i1),
                parser.resolve_operand(pred, i1),
                [parser.resolve_operand(x, t) for x, t in zip(barriers, types[5:])],
                [parser.resolve_operand(x, i1) for x in barrier_preds],
            ],
            result_types=[[AsyncTokenType()] if produces else []],
            properties={**props, "a_type": formats["lhs"], "b_type": formats["rhs"]},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        self.print_head(printer)
        printer.print_list([self.a_scale, self.b_scale, self.useD, self.pred], printer.print_operand)
        printer.print_string(f" lhs = {self.a_type.data.value} rhs = {self.b_type.data.value}")
        _print_barriers(printer, self.barriers, self.barrier_preds)
        self.print_dict(printer, reserved=("a_type", "b_type"))
        printer.print_string(" : ")
        print_types(
            printer,
            [self.a.type, self.b.type, self.d.type, self.a_scale.type, self.b_scale.type, *self.barriers.types],
        )

    def dot_dims(self, a: MemDescType, b: MemDescType) -> tuple[int, int, int, int]:
        """An e2m1 operand packs two values per i8 along one dim, counted twice: K, or M
        for an ``a`` whose NVMMA layout is transposed; K, or N for a ``b`` whose NVMMA
        layout is not transposed (Triton's ``verifyDims`` / ``verifyOutputDims``)."""
        a_m, a_k, b_k, b_n = super().dot_dims(a, b)
        a_enc = a.encoding.encoding if isinstance(a.encoding, LayoutAttr) else None
        b_enc = b.encoding.encoding if isinstance(b.encoding, LayoutAttr) else None
        trans_a = isinstance(a_enc, NVMMASharedEncoding) and a_enc.transposed
        trans_b = isinstance(b_enc, NVMMASharedEncoding) and not b_enc.transposed
        if self.a_type.data == ScaleDotElemType.E2M1:
            a_m, a_k = (a_m * 2, a_k) if trans_a else (a_m, a_k * 2)
        if self.b_type.data == ScaleDotElemType.E2M1:
            b_k, b_n = (b_k, b_n * 2) if trans_b else (b_k * 2, b_n)
        return a_m, a_k, b_k, b_n

    def verify_(self) -> None:
        a, b, d = self.verify_common()
        a_fmt, b_fmt = self.a_type.data, self.b_type.data
        _verify_mma_dtypes(
            _scaled_operand_type(a.element_type, a_fmt), _scaled_operand_type(b.element_type, b_fmt), d.element_type
        )
        enc = d.encoding
        if not isinstance(enc, TensorMemoryEncodingAttr):
            raise VerifyException("expected accumulator layout to be a TensorMemoryLayout")
        if enc.fp4_padded:
            raise VerifyException("accumulator layout must not be fp4_padded")
        if enc.blockM.data != 128:
            raise VerifyException("only supports instruction shape blockM=128")
        # one scaled tcgen05 MMA reads K = 64 fp4 values (both operands e2m1), else K = 32
        k = self.dot_dims(a, b)[1]
        k_min = 64 if a_fmt == b_fmt == ScaleDotElemType.E2M1 else 32
        if k < k_min:
            raise VerifyException(f"K dimension must be at least {k_min} for this scaled MMA, but got {k}")
        lhs = a.encoding
        if isinstance(lhs, TensorMemoryEncodingAttr):
            if a_fmt == ScaleDotElemType.E2M1:
                if not (isinstance(a.element_type, IntegerType) and a.element_type.width.data == 8):
                    raise VerifyException("expected e2m1 LHS operand to have i8 storage")
                if lhs.fp4_padded and b_fmt not in _FLOAT8:
                    raise VerifyException("can only use fp4_padded LHS when RHS is float8")
                if b_fmt in _FLOAT8 and not lhs.fp4_padded:
                    raise VerifyException("expected e2m1 LHS operand to be fp4_padded when RHS is float8")
            elif _bit_width(a.element_type) == 8 and isa(a.element_type, AnyFloat):
                if a_fmt not in _FLOAT8:
                    raise VerifyException("expected float8 LHS operand to have e4m3 or e5m2 format")
            else:
                raise VerifyException("unsupported LHS operand type for scaled MMA")
        verify_layout_dims_fit(a, "operand A")  # Triton builds their layouts (32-bit sizes)
        verify_layout_dims_fit(b, "operand B")
        verify_swizzle_tile("operand A", a)
        verify_swizzle_tile("operand B", b)
        for what, scale in (("scale A", self.a_scale.type), ("scale B", self.b_scale.type)):
            assert isinstance(scale, MemDescType)
            for dim, size in enumerate(scale.get_shape()):
                if size >= 1 << 32:
                    # Triton's verifier reads the scales' sizes as 32-bit integers: 2**32
                    # becomes 0 and it dies dividing by it (SIGFPE)
                    raise VerifyException(
                        f"{what} dimension {dim} of size {size} is out of range: scale sizes must be below 2**32"
                    )


@irdl_op_definition
class TCGen5CommitOp(TTNGOp):
    """Make an mbarrier track the completion of all earlier async tcgen05 ops (if ``pred``).

    ``ttng.tc_gen5_commit %bar[, %pred] [descs %a, %b] : !ttg.memdesc<1xi64, ...>[, T_a, T_b]``
    """

    name = "ttng.tc_gen5_commit"

    barrier = operand_def(MemDescType)
    pred = opt_operand_def(i1)
    descs = var_operand_def(MemDescType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> TCGen5CommitOp:
        barrier = parser.parse_unresolved_operand()
        pred = None
        if parser.parse_optional_punctuation(",") is not None:
            pred = parser.parse_unresolved_operand()
        descs: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("descs"):
            descs = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        props, attrs = cls.parse_dict(parser)
        parser.parse_punctuation(":")
        barrier_type = parser.parse_type()
        desc_types = []
        for _ in descs:
            parser.parse_punctuation(",")
            desc_types.append(parser.parse_type())
        return cls.build(
            operands=[
                parser.resolve_operand(barrier, barrier_type),
                [parser.resolve_operand(pred, i1)] if pred is not None else [],
                [parser.resolve_operand(x, t) for x, t in zip(descs, desc_types)],
            ],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.barrier)
        if self.pred is not None:
            printer.print_string(", ")
            printer.print_operand(self.pred)
        if self.descs:
            printer.print_string(" descs ")
            printer.print_list(self.descs, printer.print_operand)
        self.print_dict(printer)
        printer.print_string(" : ")
        print_types(printer, [self.barrier.type, *self.descs.types])

    def verify_(self) -> None:
        require_tcgen05(self)
        if len(self.descs) > 4:
            raise VerifyException(f"expected 0 to 4 descriptors, got {len(self.descs)}")
        verify_barrier_type(self, self.barrier.type)
        verify_completion_barrier(self, self.barrier.type)
