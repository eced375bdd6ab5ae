"""The invariants MLIR's ODS generates for an op, with MLIR's wording, for hand-written ops;
and the keyword syntax of an ``I32EnumAttr`` (``parse_enum_keyword``, ``enum_keyword``).

xDSL's IRDL constraints report their own messages; ops that should fail as Triton does
declare loose operand/result/property definitions and call these from ``verify_``, in
ODS's order: required attributes (sorted by name), attribute constraints, operand
types, result types. Each raises ``VerifyException``; the verifier adds ``'op' op``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping

from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

__all__ = [
    "check_i32_attr",
    "check_i32_dense_array",
    "check_i32_enum",
    "check_type",
    "enum_keyword",
    "is_llvm_ptr_in",
    "is_llvm_struct",
    "is_scalar_like",
    "is_signless_int",
    "is_tt_float",
    "require_attrs",
    "type_text",
]


def type_text(attr: Attribute) -> str:
    """A type as MLIR prints it in a message (aliases expanded)."""
    return str(attr)


def require_attrs(op: Operation, names: Iterable[str]) -> None:
    """``requires attribute 'x'`` for the first missing one, in name order as ODS checks."""
    for name in sorted(names):
        if name not in op.properties:
            raise VerifyException(f"requires attribute '{name}'")


def _is_i32_attr(attr: Attribute | None) -> bool:
    return isinstance(attr, IntegerAttr) and is_signless_int(attr.type, 32)


def check_i32_attr(op: Operation, name: str) -> None:
    """ODS's ``I32Attr``: a present ``name`` must be a 32-bit signless integer attribute."""
    attr = op.properties.get(name)
    if attr is not None and not _is_i32_attr(attr):
        raise VerifyException(f"attribute '{name}' failed to satisfy constraint: 32-bit signless integer attribute")


def check_i32_dense_array(op: Operation, name: str) -> None:
    """ODS's ``DenseI32ArrayAttr``: a present ``name`` must be an ``array<i32: ...>``."""
    attr = op.properties.get(name)
    if attr is not None and not (isinstance(attr, DenseArrayBase) and is_signless_int(attr.elt_type, 32)):
        raise VerifyException(f"attribute '{name}' failed to satisfy constraint: i32 dense array attribute")


def check_i32_enum(op: Operation, name: str, allowed: Collection[int], summary: str = "") -> None:
    """ODS's ``I32EnumAttr``: an i32 attribute whose value is one of ``allowed``. MLIR names
    the constraint by the enum's summary, or lists the cases when the summary is empty."""
    attr = op.properties.get(name)
    if attr is None or (_is_i32_attr(attr) and attr.value.data in allowed):  # type: ignore[union-attr]
        return
    what = summary or "allowed 32-bit signless integer cases: " + ", ".join(map(str, sorted(allowed)))
    raise VerifyException(f"attribute '{name}' failed to satisfy constraint: {what}")


def check_type(kind: str, index: int, ty: Attribute, ok: Callable[[Attribute], bool], description: str) -> None:
    """``operand #0 must be <description>, but got 'T'`` (``kind`` is ``operand`` or ``result``)."""
    if not ok(ty):
        raise VerifyException(f"{kind} #{index} must be {description}, but got '{type_text(ty)}'")


def is_signless_int(ty: Attribute, width: int | None = None) -> bool:
    """``iN`` (signless), of ``width`` bits when given."""
    return (
        isinstance(ty, IntegerType)
        and ty.signedness.data == Signedness.SIGNLESS
        and (width is None or ty.width.data == width)
    )


def is_llvm_struct(ty: Attribute) -> bool:
    """``!llvm.struct<...>`` (ODS's ``LLVM_AnyStruct``)."""
    from xdsl.dialects.llvm import LLVMStructType  # on use: the llvm dialect is slow to import

    return isinstance(ty, LLVMStructType)


def is_llvm_ptr_in(ty: Attribute, space: int) -> bool:
    """``!llvm.ptr<space>`` (``!llvm.ptr`` is address space 0)."""
    from xdsl.dialects.llvm import LLVMPointerType  # on use: the llvm dialect is slow to import

    if not isinstance(ty, LLVMPointerType):
        return False
    addr = ty.addr_space
    return (addr.data if isinstance(addr, IntAttr) else 0) == space  # NoneAttr: the default space 0


# Triton's ``TT_Float``: no tf32, f4/f6, f8E4M3B11FNUZ, f8E8M0FNU, f80 or f128.
_TT_FLOATS = (
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2Type,
    Float8E5M2FNUZType,
    Float16Type,
    BFloat16Type,
    Float32Type,
    Float64Type,
)


def is_tt_float(ty: Attribute) -> bool:
    """Triton's ``TT_Float``: the f8 kinds E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ; f16, bf16, f32, f64."""
    return isinstance(ty, _TT_FLOATS)


def is_scalar_like(ty: Attribute) -> bool:
    """NVGPU's ``ScalarLike``: a ``TT_Float`` (f8 E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ, f16, bf16,
    f32, f64) or a signless i1/i8/i16/i32/i64. A tensor is not one."""
    if isinstance(ty, TensorType):
        return False
    return is_tt_float(ty) or any(is_signless_int(ty, w) for w in (1, 8, 16, 32, 64))


def parse_enum_keyword(parser: Parser, cases: Mapping[str, int], attr_name: str) -> IntegerAttr:
    """An ``I32EnumAttr`` in custom syntax: a keyword (or string) naming one of ``cases``,
    stored as its i32 value; MLIR's message when it names none."""
    pos = parser.pos
    word = parser.parse_optional_identifier_or_str_literal()
    if word not in cases:
        parser.raise_error(
            "expected string or keyword containing one of the following enum values for attribute "
            f"'{attr_name}' [{', '.join(cases)}]",
            pos,
            parser.pos,
        )
    return IntegerAttr(cases[word], 32)


def enum_keyword(attr: Attribute | None, cases: Mapping[str, int]) -> str:
    """The keyword of an enum value; the attribute's own text for a value with none (only
    an op that fails verification holds one)."""
    if isinstance(attr, IntegerAttr):
        for word, value in cases.items():
            if value == attr.value.data:
                return word
    return str(attr)
