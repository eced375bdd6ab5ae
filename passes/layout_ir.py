"""IR helpers every layout pass shares: read and set tensor layouts, insert conversions,
read the module's hardware configuration.

* ``layout_of(value)`` / ``encoding_of_type(type)``: the core ``Encoding`` of a tensor
  (None for scalars and layout-free tensors).
* ``with_layout(type, encoding)``: the same tensor type in another layout (None drops it).
* ``retype(value, type)``: change a value's type in place (a pass that re-lays-out a
  whole chain does this rather than rebuild every op).
* ``convert_before(value, encoding, op)``: a ``ttg.convert_layout`` of ``value`` inserted
  before ``op`` (or ``value`` itself when it already has that layout).
* ``ModuleConfig.of(op)``: ``ttg.num-warps``, ``ttg.threads-per-warp``, ``ttg.num-ctas``
  and the compute capability of ``ttg.target`` on the enclosing module.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    StringAttr,
    TensorType,
)
from xdsl.dialects import scf
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ltc.dialects.ttg import ConvertLayoutOp
from ltc.dialects.ttg_attrs import LayoutAttr, layout_attr
from ltc.dialects.verifier import NUM_CTAS, NUM_WARPS, THREADS_PER_WARP, layout_context
from ltc.encodings import Encoding, to_linear_layout
from ltc.linear_layout import LinearLayout

__all__ = [
    "NUM_CTAS",
    "NUM_WARPS",
    "TARGET",
    "THREADS_PER_WARP",
    "ModuleConfig",
    "convert_before",
    "encoding_of_type",
    "for_iter_of",
    "layout_of",
    "linear_layout_of",
    "retype",
    "tensor_shape",
    "walk_list",
    "with_layout",
]

TARGET = "ttg.target"


def walk_list(root: Operation | Region) -> list[Operation]:
    """``list(root.walk())``: ``root`` (an op) and every op nested in it, in pre-order
    (an op before the ops of its regions), built without xDSL's chain of nested
    generators (a walk of a module costs about a third as much). For a region, its ops.
    The layout passes walk each module some twenty times."""
    out: list[Operation] = []
    append = out.append

    def ops_of(region: Region) -> None:
        block = region._first_block  # noqa: SLF001 - the linked lists Region.walk follows
        while block is not None:
            op = block._first_op  # noqa: SLF001
            while op is not None:
                append(op)
                if op.regions:
                    for inner in op.regions:
                        ops_of(inner)
                op = op._next_op  # noqa: SLF001
            block = block._next_block  # noqa: SLF001

    if isinstance(root, Region):
        ops_of(root)
    else:
        append(root)
        for region in root.regions:
            ops_of(region)
    return out


def for_iter_of(v: SSAValue) -> tuple[scf.ForOp, int] | None:
    """(loop, iter index) when ``v`` is an iter argument (not the induction variable) or a
    result of an ``scf.for``; else None."""
    if isinstance(v, BlockArgument):
        loop = v.block.parent_op()
        if isinstance(loop, scf.ForOp) and v.index >= 1:
            return loop, v.index - 1
    elif isinstance(v, OpResult) and isinstance(v.op, scf.ForOp):
        return v.op, v.index
    return None


def encoding_of_type(t: Attribute) -> Encoding | None:
    """The layout of a tensor type, or None (scalar, memdesc, or no layout)."""
    if isinstance(t, TensorType) and isinstance(t.encoding, LayoutAttr):
        return t.encoding.encoding
    return None


def layout_of(value: SSAValue) -> Encoding | None:
    """The layout of ``value``'s tensor type, or None."""
    return encoding_of_type(value.type)


def tensor_shape(t: Attribute) -> tuple[int, ...]:
    """The shape of a tensor type (``()`` for anything else)."""
    return tuple(t.get_shape()) if isinstance(t, TensorType) else ()


def linear_layout_of(t: Attribute) -> LinearLayout | None:
    """The linear layout of a tensor type's layout at its shape, or None."""
    enc = encoding_of_type(t)
    return None if enc is None else to_linear_layout(enc, tensor_shape(t))


def with_layout(t: Attribute, encoding: Encoding | None) -> Attribute:
    """``t`` in layout ``encoding`` (a non-tensor ``t`` is returned unchanged)."""
    if not isinstance(t, TensorType):
        return t
    return _tensor_with_layout(t, encoding)


# Building a tensor type (and its layout attribute) costs several times the lookup; the
# layout passes ask for the same few types over and over. Attributes are immutable, so
# equal requests may share one result.
@lru_cache(maxsize=4096)
def _tensor_with_layout(t: TensorType, encoding: Encoding | None) -> TensorType:
    enc_attr = layout_attr(encoding) if encoding is not None else None
    if enc_attr is None:
        return TensorType(t.element_type, t.get_shape())
    return TensorType(t.element_type, t.get_shape(), enc_attr)


def retype(value: SSAValue, t: Attribute) -> None:
    """Give ``value`` the type ``t`` in place; its users see the new type. A dense
    ``arith.constant``'s value attribute is retyped with it (its type must match)."""
    value._type = t  # noqa: SLF001 - xDSL has no public in-place retyping of a value
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "arith.constant":
        for store in (owner.properties, owner.attributes):
            attr = store.get("value")
            if isinstance(attr, DenseIntOrFPElementsAttr) and attr.type != t:
                store["value"] = _retyped_dense(attr, t)


@lru_cache(maxsize=1024)
def _retyped_dense(attr: DenseIntOrFPElementsAttr, t: Attribute) -> DenseIntOrFPElementsAttr:
    """``attr``'s values in type ``t`` (a splat constant is retyped to the same few
    layouts over and over; attributes are immutable, so equal requests share one)."""
    if _same_bytes(attr, t):
        return DenseIntOrFPElementsAttr(t, attr.data)  # type: ignore[arg-type]
    return DenseIntOrFPElementsAttr.from_list(t, list(attr.get_values()))  # type: ignore[arg-type]


_FLOAT_DTYPES = {Float16Type: "<f2", Float32Type: "<f4", Float64Type: "<f8"}


def _same_bytes(attr: DenseIntOrFPElementsAttr, t: Attribute) -> bool:
    """Whether ``from_list(t, attr.get_values())`` would pack ``attr``'s own bytes again:
    only the layout differs (same shape and element type), every element is stored,
    and unpacking and packing is exact for the element type (whole-byte integers and i1;
    floats holding no NaN, whose payload a round trip through a Python float may
    change)."""
    old = attr.type
    if not isinstance(t, TensorType) or not isinstance(old, TensorType):
        return False
    el = t.element_type
    if old.element_type != el or old.get_shape() != t.get_shape() or len(attr) != math.prod(t.get_shape()):
        return False
    if isinstance(el, IntegerType):
        return el.bitwidth in (1, 8, 16, 32, 64)  # (an i1 is a byte, 0 or 0xFF)
    dtype = _FLOAT_DTYPES.get(type(el))
    if dtype is None:
        return False
    import numpy as np

    return not bool(np.isnan(np.frombuffer(attr.data.data, dtype=dtype)).any())


def convert_before(value: SSAValue, encoding: Encoding, op: Operation) -> SSAValue:
    """``value`` in layout ``encoding``: itself if it is already, else the result of a new
    ``ttg.convert_layout`` inserted right before ``op``."""
    if layout_of(value) == encoding:
        return value
    assert isinstance(value.type, TensorType)
    cvt = ConvertLayoutOp(value, with_layout(value.type, encoding))  # type: ignore[arg-type]
    cvt.location = op.location  # a conversion for a use is located at the user, as in Triton
    Rewriter.insert_op(cvt, InsertPoint.before(op))
    return cvt.result


def compute_in_and_convert_back(result: OpResult, encoding: Encoding) -> None:
    """Retype ``result`` (of op ``P``) to layout ``encoding`` and give its users its old
    type back through a new ``ttg.convert_layout`` right after ``P`` (located at ``P``)."""
    op = result.op
    old = result.type
    retype(result, with_layout(old, encoding))
    back = ConvertLayoutOp(result, old)  # type: ignore[arg-type]
    back.location = op.location
    Rewriter.insert_op(back, InsertPoint.after(op))
    result.replace_uses_with_if(back.result, lambda use: use.operation is not back)


@dataclass(frozen=True)
class ModuleConfig:
    """The hardware a module is laid out for (from its ``ttg.*`` attributes)."""

    num_warps: int = 4
    threads_per_warp: int = 32
    num_ctas: int = 1
    capability: int = 90

    @property
    def target(self) -> str:
        return f"cuda:{self.capability}"

    @staticmethod
    def of(op: Operation) -> ModuleConfig:
        """The nearest ``ttg.*`` attributes on ``op`` or its ancestors (defaults otherwise)."""
        hw = layout_context(op)
        cap = 90
        cur: Operation | None = op
        while cur is not None:
            t = cur.attributes.get(TARGET)
            if isinstance(t, StringAttr):
                if t.data.startswith("cuda:") and t.data[5:].isdigit():
                    cap = int(t.data[5:])
                break
            cur = cur.parent_op()
        return ModuleConfig(hw.num_warps if hw.num_warps is not None else 4, hw.threads_per_warp, hw.num_ctas, cap)
