"""The ``tt`` enum attributes and ``#tt.cache_policy``.

Each enum is a ``StrEnum`` (the values are Triton's spellings) with an
``EnumAttribute`` that prints as a bare keyword (``rtne``, ``acq_rel``, ``gpu``),
as Triton prints it inside op syntax. ``#tt.cache_policy<cache_modifier = ca,
eviction_policy = evict_last>`` needs both keys, in either order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import StringAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

__all__ = [
    "CacheModifier",
    "CachePolicyAttr",
    "DescriptorReduceKind",
    "DescriptorReduceKindAttr",
    "EvictionPolicy",
    "InputPrecision",
    "InputPrecisionAttr",
    "MemSemantic",
    "MemSemanticAttr",
    "MemSyncScope",
    "MemSyncScopeAttr",
    "ProgramIDDim",
    "ProgramIDDimAttr",
    "PropagateNan",
    "PropagateNanAttr",
    "RMWOp",
    "RMWOpAttr",
    "RoundingMode",
    "RoundingModeAttr",
    "ScaleDotElemType",
    "ScaleDotElemTypeAttr",
]


# ---------------------------------------------------------------------------
# Enums (printed as bare keywords, as Triton prints them)
# ---------------------------------------------------------------------------


class ProgramIDDim(StrEnum):
    X = "x"
    Y = "y"
    Z = "z"


class RoundingMode(StrEnum):
    RTZ = "rtz"
    RTNE = "rtne"


class PropagateNan(StrEnum):
    NONE = "none"
    ALL = "all"


class InputPrecision(StrEnum):
    TF32 = "tf32"
    TF32x3 = "tf32x3"
    IEEE = "ieee"
    BF16x3 = "bf16x3"
    BF16x6 = "bf16x6"


class RMWOp(StrEnum):
    AND = "and"
    OR = "or"
    XOR = "xor"
    ADD = "add"
    FADD = "fadd"
    MAX = "max"
    MIN = "min"
    UMAX = "umax"
    UMIN = "umin"
    XCHG = "exch"


class MemSemantic(StrEnum):
    RELAXED = "relaxed"
    ACQUIRE = "acquire"
    RELEASE = "release"
    ACQUIRE_RELEASE = "acq_rel"


class MemSyncScope(StrEnum):
    GPU = "gpu"
    CTA = "cta"
    SYSTEM = "sys"


class CacheModifier(StrEnum):
    NONE = "none"
    CA = "ca"
    CG = "cg"
    WB = "wb"
    CS = "cs"
    WT = "wt"
    CV = "cv"


class EvictionPolicy(StrEnum):
    NORMAL = "evict_normal"
    EVICT_FIRST = "evict_first"
    EVICT_LAST = "evict_last"


class DescriptorReduceKind(StrEnum):
    ADD = "add"
    MIN = "min"
    MAX = "max"
    INC = "inc"
    DEC = "dec"
    AND = "and"
    OR = "or"
    XOR = "xor"


class ScaleDotElemType(StrEnum):
    """The element format of a ``tt.dot_scaled`` operand (``e2m1`` packs two per i8)."""

    E4M3 = "e4m3"
    E5M2 = "e5m2"
    E2M3 = "e2m3"
    E3M2 = "e3m2"
    E2M1 = "e2m1"
    BF16 = "bf16"
    FP16 = "fp16"


@irdl_attr_definition
class ProgramIDDimAttr(EnumAttribute[ProgramIDDim], SpacedOpaqueSyntaxAttribute):
    """The grid axis of ``tt.get_program_id`` / ``tt.get_num_programs``: ``x``, ``y``, ``z``."""

    name = "tt.program_id_dim"


@irdl_attr_definition
class RoundingModeAttr(EnumAttribute[RoundingMode], SpacedOpaqueSyntaxAttribute):
    """Rounding of ``tt.fp_to_fp``: ``rtz`` or ``rtne``."""

    name = "tt.rounding_mode"


@irdl_attr_definition
class PropagateNanAttr(EnumAttribute[PropagateNan], SpacedOpaqueSyntaxAttribute):
    """NaN handling of ``tt.clampf``: ``none`` or ``all``."""

    name = "tt.propagate_nan"


@irdl_attr_definition
class InputPrecisionAttr(EnumAttribute[InputPrecision], SpacedOpaqueSyntaxAttribute):
    """How ``tt.dot`` multiplies f32 inputs: ``tf32``, ``tf32x3``, ``ieee``, ``bf16x3``, ``bf16x6``."""

    name = "tt.input_precision"


@irdl_attr_definition
class RMWOpAttr(EnumAttribute[RMWOp], SpacedOpaqueSyntaxAttribute):
    """The operation of ``tt.atomic_rmw``: ``add``, ``fadd``, ``max``, ``exch``, ..."""

    name = "tt.rmw_op"


@irdl_attr_definition
class MemSemanticAttr(EnumAttribute[MemSemantic], SpacedOpaqueSyntaxAttribute):
    """Memory ordering of an atomic: ``relaxed``, ``acquire``, ``release``, ``acq_rel``."""

    name = "tt.mem_semantic"


@irdl_attr_definition
class MemSyncScopeAttr(EnumAttribute[MemSyncScope], SpacedOpaqueSyntaxAttribute):
    """Scope of an atomic: ``gpu``, ``cta``, ``sys``."""

    name = "tt.mem_sync_scope"


@irdl_attr_definition
class DescriptorReduceKindAttr(EnumAttribute[DescriptorReduceKind], SpacedOpaqueSyntaxAttribute):
    """The reduction of ``tt.descriptor_reduce``: ``add``, ``min``, ``max``, ``inc``, ``dec``, ``and``, ``or``, ``xor``."""

    name = "tt.descriptor_reduce_kind"


@irdl_attr_definition
class ScaleDotElemTypeAttr(EnumAttribute[ScaleDotElemType], SpacedOpaqueSyntaxAttribute):
    """An operand format of ``tt.dot_scaled``: ``e4m3``, ``e5m2``, ``e2m3``, ``e3m2``, ``e2m1``, ``bf16``, ``fp16``."""

    name = "tt.scale_dot_elem_type"


# ---------------------------------------------------------------------------
# Cache policy of loads and stores
# ---------------------------------------------------------------------------


@irdl_attr_definition
class CachePolicyAttr(ParametrizedAttribute):
    """``#tt.cache_policy<cache_modifier = ca, eviction_policy = evict_last>``.

    Triton 3.9 keeps a load's or store's cache modifier and eviction policy in
    one ``cachePolicy`` attribute (in the op's attribute dictionary). Both keys
    are required; they may be written in either order and print in this one.
    """

    name = "tt.cache_policy"

    cache_modifier: StringAttr
    eviction_policy: StringAttr

    KEYS: ClassVar[tuple[str, str]] = ("cache_modifier", "eviction_policy")

    def __init__(
        self,
        cache_modifier: CacheModifier | str = CacheModifier.NONE,
        eviction_policy: EvictionPolicy | str = EvictionPolicy.NORMAL,
    ):
        super().__init__(StringAttr(str(cache_modifier)), StringAttr(str(eviction_policy)))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values: dict[str, str] = {}
        enums: dict[str, type[StrEnum]] = {"cache_modifier": CacheModifier, "eviction_policy": EvictionPolicy}

        def parse_entry() -> None:
            pos = parser.pos
            key = parser.parse_identifier()
            if key not in enums or key in values:
                parser.raise_error(f"expected 'cache_modifier' or 'eviction_policy', got '{key}'", pos, parser.pos)
            parser.parse_punctuation("=")
            pos = parser.pos
            word = parser.parse_identifier()
            allowed = [e.value for e in enums[key]]
            if word not in allowed:
                parser.raise_error(f"expected {key} to be one of: {', '.join(allowed)}", pos, parser.pos)
            values[key] = word

        with parser.in_angle_brackets():
            parse_entry()
            parser.parse_punctuation(",")
            parse_entry()
        return [StringAttr(values[k]) for k in cls.KEYS]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            f"<cache_modifier = {self.cache_modifier.data}, eviction_policy = {self.eviction_policy.data}>"
        )

    def verify(self) -> None:
        if self.cache_modifier.data not in {e.value for e in CacheModifier}:
            raise VerifyException(f"unknown cache modifier '{self.cache_modifier.data}'")
        if self.eviction_policy.data not in {e.value for e in EvictionPolicy}:
            raise VerifyException(f"unknown eviction policy '{self.eviction_policy.data}'")
