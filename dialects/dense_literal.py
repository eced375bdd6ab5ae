"""Dense element literals as MLIR reads them: ``dense<...> : tensor<...>``.

One reader for ``arith.constant`` and every other dense attribute: decimal, float,
boolean and hexadecimal elements, nested lists or a splat, a hex blob of the whole
payload; integers must fit their type (signed or unsigned for signless ``iN``), floats
beyond the type's range round to an infinity as APFloat does. Below the dialects: the
reader and ``arith`` both use it.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import (
    AnyFloat,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    Signedness,
    TensorType,
    VectorType,
)
from xdsl.parser import Parser

__all__ = [
    "MAX_DENSE_ELEMENTS",
    "integer_literal_problem",
    "parse_dense_value",
    "rounded_float",
    "signed_value",
]


def signed_value(value: int, width: int) -> int:
    """MLIR prints signless integers as signed."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def integer_literal_problem(value: int, type_: IntegerType | IndexType) -> str | None:
    """Why MLIR refuses the literal ``value`` for ``type_``, or None: it must fit the
    type's bits (64 for ``index``), as a signed value for ``siN`` and ``index``, signed or
    unsigned for a signless ``iN`` (``-1 : i1`` and ``4294967295 : i32`` are fine)."""
    if isinstance(type_, IndexType):
        width, signedness = 64, Signedness.SIGNED
    else:
        width, signedness = type_.width.data, type_.signedness.data
    if value < 0:
        if signedness == Signedness.UNSIGNED:
            return "negative integer literal not valid for unsigned integer type"
        fits = width > 0 and value >= -(1 << (width - 1))
    else:
        fits = value < 1 << (width - (signedness == Signedness.SIGNED))
    return None if fits else "integer constant out of range for attribute"


def rounded_float(value: float, type_: AnyFloat) -> float:
    """``value`` as MLIR stores it in ``type_``: a literal beyond the type's largest finite
    value rounds to an infinity of its sign (APFloat's round-to-nearest-even, which Triton
    uses; ``1.0e+10 : f16`` is ``0x7C00``), where Python's ``struct`` raises OverflowError."""
    try:
        type_.pack((value,))
    except OverflowError:
        return math.copysign(math.inf, value)
    return value


MAX_DENSE_ELEMENTS = 1 << 24
"""The most elements a dense literal may have: each is stored (Triton's tensors hold at
most 1,048,576)."""
_Literal = tuple[str, int | float, int]  # ("hex" | "int" | "float", value, source position)


def _parse_scalar_literal(parser: Parser) -> _Literal:
    at = parser.pos
    negative = parser.parse_optional_punctuation("-") is not None
    if parser._current_token.text.lower().startswith("0x"):  # pyright: ignore[reportPrivateUsage]
        value = parser.parse_integer(allow_boolean=False, allow_negative=False)
        if negative:
            parser.raise_error("hexadecimal literal cannot be negative")
        return ("hex", value, at)
    if not negative:
        if parser.parse_optional_keyword("true") is not None:
            return ("int", 1, at)
        if parser.parse_optional_keyword("false") is not None:
            return ("int", 0, at)
    number = parser.parse_optional_number()
    if number is None:
        parser.raise_error("expected an integer or float literal")
    if negative:
        number = -number
    return ("float" if isinstance(number, float) else "int", number, at)


def _parse_tensor_literal(parser: Parser) -> tuple[list[_Literal], list[int] | None]:
    """Elements in order and the nested-list shape (``None`` for a bare splat literal)."""
    if parser.parse_optional_punctuation("[") is None:
        return [_parse_scalar_literal(parser)], None
    if parser.parse_optional_punctuation("]") is not None:
        return [], [0]
    items = [_parse_tensor_literal(parser)]
    while parser.parse_optional_punctuation(",") is not None:
        items.append(_parse_tensor_literal(parser))
    parser.parse_punctuation("]")
    inner = [shape if shape is not None else [] for _, shape in items]
    if any(s != inner[0] for s in inner):
        parser.raise_error("tensor literal is invalid; ranks are not consistent between elements")
    return [e for elems, _ in items for e in elems], [len(items), *inner[0]]


def _literal_bytes(parser: Parser, literal: _Literal, element: Attribute) -> bytes:
    kind, value, at = literal
    if isinstance(element, AnyFloat):
        size = element.compile_time_size
        if kind == "hex":
            assert isinstance(value, int)
            if value >> (8 * size):
                parser.raise_error(f"hexadecimal float constant out of range for type {element}", at)
            return value.to_bytes(size, "little")
        if kind == "int":  # MLIR reads a float element from a float or a hex bit pattern only
            parser.raise_error("unexpected decimal integer literal for a floating point value", at)
        # beyond the largest finite value: an infinity, as MLIR rounds it (1e6 in f16 is 0x7C00)
        return element.pack((rounded_float(float(value), element),))
    if isinstance(element, IntegerType | IndexType):
        if kind == "float":
            parser.raise_error("expected integer elements, but parsed floating-point")
        assert isinstance(value, int)
        if (problem := integer_literal_problem(value, element)) is not None:
            text = parser.lexer.input.content
            digits = at + 1 if text.startswith("-", at) else at  # MLIR points past the minus
            while digits < len(text) and text[digits].isspace():
                digits += 1
            if problem.startswith("negative"):
                parser.raise_error("expected unsigned integer elements, but parsed negative value", digits)
            parser.raise_error("integer constant out of range for type", digits)
        if isinstance(element, IntegerType):
            width = element.width.data
            value = signed_value(value, width) if width > 1 else value & 1
        return element.pack((value,))
    parser.raise_error(f"unsupported dense element type {element}")


def parse_dense_value(parser: Parser) -> DenseIntOrFPElementsAttr:
    """The rest of ``dense<literal> : type`` after the ``dense`` keyword."""
    at = parser.pos
    parser.parse_punctuation("<")
    if parser.lexer.input.content.endswith("dense", 0, at):
        at -= len("dense")  # MLIR reports at the keyword
    if parser.parse_optional_punctuation(">") is not None:
        literals, shape = [], [0]
    elif (blob := parser.parse_optional_str_literal()) is not None:
        parser.parse_punctuation(">")
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        if not isinstance(type_, TensorType | VectorType):
            parser.raise_error(f"elements literal type must be a tensor or vector, got {type_}")
        raw = bytes.fromhex(blob[2:])
        count = math.prod(type_.get_shape())
        if count > MAX_DENSE_ELEMENTS:
            parser.raise_error(f"dense literal of {count} elements is too large: ltc stores at most {MAX_DENSE_ELEMENTS}")
        size = type_.element_type.compile_time_size
        if len(raw) == size:
            raw *= count
        elif len(raw) != size * count and type_.element_type != IntegerType(1):  # i1 may be bit-packed
            parser.raise_error(f"elements hex data size is invalid for provided type: '{type_}'", at)
        return DenseIntOrFPElementsAttr(type_, BytesAttr(raw))
    else:
        literals, shape = _parse_tensor_literal(parser)
        parser.parse_punctuation(">")
    parser.parse_punctuation(":")
    type_ = parser.parse_type()
    if not isinstance(type_, TensorType | VectorType):
        parser.raise_error(f"elements literal type must be a tensor or vector, got {type_}")
    type_shape = list(type_.get_shape())
    element = type_.element_type
    if shape is None and math.prod(type_shape) > MAX_DENSE_ELEMENTS:
        # a splat is stored element by element: refuse before it exhausts memory
        parser.raise_error(
            f"dense literal of {math.prod(type_shape)} elements is too large: ltc stores at most "
            f"{MAX_DENSE_ELEMENTS} (Triton's tensors hold at most 1048576)"
        )
    data = b"".join(_literal_bytes(parser, lit, element) for lit in literals)
    if shape is None:
        data *= math.prod(type_shape)
    elif shape != type_shape and not (shape == [0] and math.prod(type_shape) == 0):
        parser.raise_error(
            f"inferred shape of elements literal ([{', '.join(map(str, shape))}]) does not match "
            f"type ([{', '.join(map(str, type_shape))}])"
        )
    return DenseIntOrFPElementsAttr(type_, BytesAttr(data))
