"""The LLVM casts xDSL 0.74's ``llvm`` dialect lacks, under LLVM's own names.

``llvm.fptosi`` / ``llvm.fptoui`` (float to signed / unsigned integer, rounding toward
zero) and ``llvm.uitofp`` (unsigned integer to float) have the shape of xDSL's
``llvm.sitofp``: one operand, one result, ``"llvm.fptosi"(%x) : (f32) -> i32`` in generic
form. :data:`LLVM` is xDSL's ``llvm`` dialect with these three added and
``llvm.mlir.global`` replaced by :class:`GlobalOp` (same op, but its parser names a
wrongly typed ``addr_space`` / ``alignment`` / ``section`` instead of failing an
assertion), ``llvm.func`` by :class:`FuncOp` (its parser refuses a signature that
is not made of LLVM types, as MLIR does), and ``llvm.return`` / ``llvm.mlir.addressof``
by subclasses with MLIR's checks against their function / symbol; the Triton context
registers it in place of xDSL's.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, IntegerType, StringAttr, VectorType
from xdsl.dialects.utils import parse_func_op_like
from xdsl.dialects.llvm import GenericCastOp
from xdsl.ir import Attribute, Dialect, TypedAttribute
from xdsl.traits import SymbolTable
from xdsl.irdl import irdl_op_definition
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from ltc.dialects.verifier import UnprefixedVerifyException


@irdl_op_definition
class FPToSIOp(GenericCastOp):
    """Float to signed integer, rounding toward zero (LLVM ``fptosi``)."""

    name = "llvm.fptosi"


@irdl_op_definition
class FPToUIOp(GenericCastOp):
    """Float to unsigned integer, rounding toward zero (LLVM ``fptoui``)."""

    name = "llvm.fptoui"


@irdl_op_definition
class UIToFPOp(GenericCastOp):
    """Unsigned integer to float, rounding to nearest even (LLVM ``uitofp``)."""

    name = "llvm.uitofp"


#: The attributes xDSL's ``llvm.mlir.global`` parser takes from the attribute dict, and
#: what each must be (MLIR's constraint wording).
_GLOBAL_ATTR_KINDS: dict[str, tuple[type[Attribute], str]] = {
    "addr_space": (IntegerAttr, "32-bit signless integer attribute"),
    "alignment": (IntegerAttr, "64-bit signless integer attribute"),
    "section": (StringAttr, "string attribute"),
}


#: The integer attributes of ``llvm.mlir.global``: their width, whether negative values
#: are refused, and MLIR's constraint.
_GLOBAL_INT_ATTRS: dict[str, tuple[int, bool, str]] = {
    "addr_space": (32, True, "32-bit signless integer attribute whose value is non-negative"),
    "alignment": (64, False, "64-bit signless integer attribute"),
}


class GlobalOp(llvm.GlobalOp):
    """xDSL's ``llvm.mlir.global`` (its definition inherited as is: not re-decorated);
    parsing checks the attribute dict's typed entries, so a bad one is a parse error
    at the dict, not an ``AssertionError``."""

    @classmethod
    def parse(cls, parser: Parser) -> llvm.GlobalOp:
        # MLIR's syntax, as xDSL reads it: linkage? thread_local? unnamed_addr? constant?
        # @name `(` value? `)` attr-dict (`:` type)? region?
        linkage = parser.parse_optional_keyword_in(llvm._LINKAGE_OPTIONS) or "external"
        thread_local_ = parser.parse_optional_keyword("thread_local") is not None
        unnamed_kw = parser.parse_optional_keyword_in(llvm.UNNAMED_ADDR_KEYWORD_BY_KEY.values())
        constant = parser.parse_optional_keyword("constant") is not None
        sym_name = parser.parse_symbol_name()
        parser.parse_punctuation("(")
        value = None
        if parser.parse_optional_punctuation(")") is None:
            value = parser.parse_attribute()
            parser.parse_punctuation(")")
        dict_start = parser.pos
        attrs = parser.parse_optional_attr_dict()
        dict_end = parser.pos
        for key, (kind, what) in _GLOBAL_ATTR_KINDS.items():
            if key in attrs and not isinstance(attrs[key], kind):
                parser.raise_error(
                    f"'{cls.name}' op attribute '{key}' failed to satisfy constraint: {what}", dict_start, dict_end
                )
        for key, (width, non_negative, what) in _GLOBAL_INT_ATTRS.items():
            given = attrs.get(key)
            if isinstance(given, IntegerAttr) and (
                given.type != IntegerType(width) or (non_negative and given.value.data < 0)
            ):
                at = parser.op_name_offset() if hasattr(parser, "op_name_offset") else dict_start
                parser.raise_error(f"'{cls.name}' op attribute '{key}' failed to satisfy constraint: {what}", at, at + 1)
        if parser.parse_optional_punctuation(":") is not None:
            global_type = parser.parse_type()
        elif isinstance(value, StringAttr):
            global_type = llvm.LLVMArrayType(len(value.data), IntegerType(8))
        elif isinstance(value, TypedAttribute):
            global_type = value.get_type()
        else:
            parser.raise_error("expected `:` followed by global type")
        addr_space = attrs.pop("addr_space", IntegerAttr(0, 32))
        alignment = attrs.pop("alignment", None)
        section = attrs.pop("section", None)
        op = cls(
            global_type=global_type,
            sym_name=sym_name,
            linkage=linkage,
            addr_space=addr_space.value.data,  # type: ignore[union-attr] - checked above
            constant=constant,
            dso_local=attrs.pop("dso_local", None) is not None,
            thread_local_=thread_local_,
            value=value,
            alignment=alignment.value.data if alignment is not None else None,  # type: ignore[union-attr]
            unnamed_addr=None if unnamed_kw is None else llvm.UNNAMED_ADDR_KEY_BY_KEYWORD[unnamed_kw],
            section=section,  # type: ignore[arg-type]
            body=parser.parse_optional_region(),
        )
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        """MLIR's rule on top of xDSL's: an alignment is a power of 2."""
        super().verify_()
        align = self.alignment
        if align is not None and (align.value.data <= 0 or align.value.data & (align.value.data - 1)):
            raise UnprefixedVerifyException("alignment attribute is not a power of 2")

def is_llvm_type(t: Attribute) -> bool:
    """MLIR's ``LLVM::isCompatibleType``: xDSL's check, applied to the elements of
    structs, arrays and vectors too (xDSL takes any struct or array)."""
    if not llvm.is_compatible_type(t):
        return False
    if isinstance(t, llvm.LLVMStructType):
        return all(is_llvm_type(e) for e in t.types.data)
    if isinstance(t, llvm.LLVMArrayType):
        return is_llvm_type(t.type)
    if isinstance(t, VectorType):
        return is_llvm_type(t.element_type)
    return True


class FuncOp(llvm.FuncOp):
    """xDSL's ``llvm.func`` (its definition inherited as is); parsing refuses a
    signature MLIR cannot build, at the function's name and in MLIR's words: an
    argument or result that is not an LLVM type, ``index`` inside a struct included."""

    @classmethod
    def parse(cls, parser: Parser) -> llvm.FuncOp:
        linkage = cls._parse_linkage(parser)
        cconv = cls._parse_cconv(parser)
        visibility = cls._parse_llvm_visibility(parser)
        unnamed_addr = cls._parse_llvm_unnamed_addr(parser)
        name_span = parser._current_token.span  # noqa: SLF001 - where MLIR reports the signature
        name, inputs, outputs, region, extra, arg_attrs, res_attrs, variadic = parse_func_op_like(
            parser, reserved_attr_names=llvm._FUNC_OP_RESERVED_ATTR_NAMES, allow_variadic=True
        )
        if not all(is_llvm_type(t) for t in inputs):
            parser.raise_error(
                "failed to construct function type: expected LLVM type for function arguments",
                name_span.start,
                name_span.end,
            )
        bad = next((t for t in outputs if not is_llvm_type(t)), None)
        if bad is not None:
            parser.raise_error(
                f"failed to construct function type: expected LLVM type for function results'{bad}'",
                name_span.start,
                name_span.end,
            )
        return llvm.FuncOp(
            sym_name=name,
            function_type=llvm.LLVMFunctionType(inputs, cls._get_return_type(parser, outputs), variadic),
            linkage=linkage,
            cconv=cconv,
            visibility=visibility,
            body=region,
            other_props=cls._get_other_props(arg_attrs, res_attrs, unnamed_addr),
            extra_attrs=dict(extra.data) if extra else None,
        )


class ReturnOp(llvm.ReturnOp):
    """xDSL's ``llvm.return`` (its definition inherited as is), with MLIR's check against
    the enclosing ``llvm.func``: a value exactly when the function returns one, of its
    result type."""

    def verify_(self) -> None:
        super().verify_()
        func = self.parent_op()
        if not isinstance(func, llvm.FuncOp):
            return
        expected = func.function_type.output
        if isinstance(expected, llvm.LLVMVoidType):
            if self.arg is not None:
                raise VerifyException("expected no operands")
        elif self.arg is None:
            raise VerifyException("expected 1 operand")
        elif self.arg.type != expected:
            raise VerifyException("mismatching result types")


class AddressOfOp(llvm.AddressOfOp):
    """xDSL's ``llvm.mlir.addressof`` (its definition inherited as is), with MLIR's check
    of the symbol it uses: a global or a function of the nearest symbol table, and a
    global in the address space of the pointer it gives. (xDSL has no ``llvm.mlir.alias``
    or ``llvm.mlir.ifunc``, the other two MLIR accepts.)"""

    def verify_(self) -> None:
        super().verify_()
        symbol = SymbolTable.lookup_symbol(self, self.global_name)
        if not isinstance(symbol, (llvm.GlobalOp, llvm.FuncOp)):
            raise VerifyException(
                "must reference a global defined by 'llvm.mlir.global', 'llvm.mlir.alias' or 'llvm.func' "
                "or 'llvm.mlir.ifunc'"
            )
        if isinstance(symbol, llvm.GlobalOp) and symbol.addr_space.value.data != self.result.type.addr_space.data:
            raise VerifyException("pointer address space must match address space of the referenced global or alias")


LLVM = Dialect(
    "llvm",
    [
        *(op for op in llvm.LLVM.operations if op not in (llvm.GlobalOp, llvm.FuncOp, llvm.ReturnOp, llvm.AddressOfOp)),
        GlobalOp,
        FuncOp,
        ReturnOp,
        AddressOfOp,
        FPToSIOp,
        FPToUIOp,
        UIToFPOp,
    ],
    list(llvm.LLVM.attributes),
)
