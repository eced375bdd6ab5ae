"""``#ttg.dot_op``: the layout of an operand (A = opIdx 0, B = opIdx 1) of a
``tt.dot`` whose result has the layout ``parent``.

Geometry shared by every parent. A is ``[*batch, M, K]`` and B is
``[*batch, K, N]``, so the reduction dim is ``k = rank-1`` for A and
``k = rank-2`` for B. Every thread computing a piece of the result needs its
whole strip of K, hence two rules that all parents follow:

* hardware bits that the parent spreads along K are *broadcast* for the
  operand: their bases are zero (``broadcast_along_k``), so every warp (and,
  for a blocked parent, every lane) along K holds the same data;
* the CTAs of a cluster never split K: the parent's CGA bases lose their K
  component (``operand_cga_layout``).

Orders are Triton's ``getMatrixOrder(rank, rowMajor)`` (``[rank-1, ..., 0]``,
the first two swapped when column-major) and, for operands, the K-contiguous
order ``[k, non-k, batch...]`` (``dot_operand_order``).

Per parent (dispatch in ``DotOperandEncoding.to_linear_layout``):

* ``#ttg.blocked`` (FMA dot, no ``kWidth``): registers as the parent's
  sizePerThread but covering the whole K extent of the tensor, lanes and warps
  as the parent's with their K bits broadcast, all in the parent's ``order``;
  then fitted to the shape with the operand CGA (``fma_dot_operand_layout``);
* any other parent implements
  ``dot_operand_layout(shape, op_idx, k_width) -> LinearLayout`` (NVIDIA MMA
  in ``nvidia_mma.py``, AMD MFMA/WMMA in ``amd.py``) and may implement
  ``check_dot_operand(op_idx, k_width)`` to reject parameters Triton rejects
  for it; without that hook a non-zero ``kWidth`` is required.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ltc.attr_text import FieldReader
from ltc.encodings.base import (
    AliasFn,
    CGALayout,
    DistributedEncoding,
    Encoding,
    EncodingError,
    check_shape,
    register_encoding,
)
from ltc.encodings.blocked import BlockedEncoding
from ltc.layout_utils import (
    cga_linear_layout,
    combine_cta_cga_with_shape,
    identity_standard_nd,
    standard_out_dim_names,
)
from ltc.linear_layout import LinearLayout


def matrix_order(rank: int, row_major: bool) -> tuple[int, ...]:
    """Order (fastest dim first) of a batch of matrices ``[*batch, rows, cols]``:
    ``[rank-1, ..., 0]`` when row-major, the first two swapped otherwise."""
    order = list(range(rank - 1, -1, -1))
    if rank >= 2 and not row_major:
        order[0], order[1] = order[1], order[0]
    return tuple(order)


def operand_k_dim(rank: int, op_idx: int) -> int:
    """The reduction dim of operand ``op_idx``: last for A, second to last for B."""
    return rank - 1 if op_idx == 0 else rank - 2


def dot_operand_order(op_idx: int, rank: int) -> tuple[int, ...]:
    """K-contiguous order of an operand: ``[k, non-k, batch...]``."""
    return matrix_order(rank, row_major=op_idx == 0)


def broadcast_along_k(
    in_dim: str, sizes: Sequence[int], order: Sequence[int], k_dim: int
) -> LinearLayout:
    """N-d identity from ``in_dim`` onto the dims in ``order`` (fastest first),
    except that the bits along ``k_dim`` map to zero (broadcast)."""
    names = standard_out_dim_names(len(sizes))
    ret = LinearLayout.empty()
    for d in order:
        if d == k_dim:
            ret = ret * LinearLayout.zeros_1d(sizes[d], in_dim, names[d])
        else:
            ret = ret * LinearLayout.identity_1d(sizes[d], in_dim, names[d])
    return ret


def operand_cga_layout(cga: CGALayout, rank: int, op_idx: int) -> LinearLayout:
    """The parent's CTA placement with the K component of every block basis
    cleared: CTAs along K hold copies of the operand."""
    k = operand_k_dim(rank, op_idx)
    bases = [tuple(0 if i == k else c for i, c in enumerate(b)) for b in cga.block_bases]
    return cga_linear_layout(bases, rank)


def fma_dot_operand_layout(parent: BlockedEncoding, shape: Sequence[int], op_idx: int) -> LinearLayout:
    """Operand layout for an FMA dot whose result is ``parent`` (blocked)."""
    rank = parent.rank
    k = operand_k_dim(rank, op_idx)
    order = parent.order
    per_thread = list(parent.size_per_thread)
    per_thread[k] = shape[k]
    cta = (
        identity_standard_nd("register", per_thread, order)
        * broadcast_along_k("lane", parent.threads_per_warp, order, k)
        * broadcast_along_k("warp", parent.warps_per_cta, order, k)
    )
    return combine_cta_cga_with_shape(cta, operand_cga_layout(parent.cga, rank, op_idx), shape)


@register_encoding
@dataclass(frozen=True)
class DotOperandEncoding(DistributedEncoding):
    """``#ttg.dot_op<{opIdx, parent[, kWidth]}>`` (``kWidth`` printed when non-zero)."""

    op_idx: int
    parent: DistributedEncoding
    k_width: int = 0

    mnemonic = "dot_op"

    def __post_init__(self) -> None:
        if self.op_idx not in (0, 1):
            raise EncodingError(f"ttg.dot_op opIdx parameter can be 0 or 1, got: {self.op_idx}", "opIdx")
        if self.k_width < 0:
            raise EncodingError(f"kWidth must be non-negative, got {self.k_width}", "kWidth")
        parent = self.parent
        if isinstance(parent, BlockedEncoding):
            if self.k_width != 0:
                raise EncodingError(
                    "ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout", "kWidth"
                )
        elif not hasattr(parent, "dot_operand_layout"):
            raise EncodingError(f"ttg.dot_op unexpected parent layout: {parent.to_text()}", "parent")
        elif hasattr(parent, "check_dot_operand"):
            parent.check_dot_operand(self.op_idx, self.k_width)
        elif self.k_width == 0:
            raise EncodingError(f"ttg.dot_op kWidth parameter is mandatory for a #{parent.attr_name} parent", "kWidth")
        if parent.rank < 2:
            raise EncodingError(f"ttg.dot_op needs a parent of rank >= 2, got rank {parent.rank}", "parent")

    @property
    def rank(self) -> int:
        return self.parent.rank

    @property
    def k_dim(self) -> int:
        return operand_k_dim(self.rank, self.op_idx)

    def to_linear_layout(self, shape: Sequence[int]) -> LinearLayout:
        shape = check_shape(shape, self.rank, "#ttg.dot_op")
        if isinstance(self.parent, BlockedEncoding):
            return fma_dot_operand_layout(self.parent, shape, self.op_idx)
        return self.parent.dot_operand_layout(shape, self.op_idx, self.k_width)  # type: ignore[attr-defined]

    @classmethod
    def from_fields(cls, fields: FieldReader) -> DotOperandEncoding:
        op_idx = fields.int("opIdx")
        parent = fields.encoding("parent")
        k_width = fields.int("kWidth", default=0)
        if k_width >= 1 << 32:  # Triton reads kWidth as a 32-bit unsigned
            raise EncodingError("integer value too large", "kWidth")
        fields.finish()
        if not isinstance(parent, DistributedEncoding):
            raise EncodingError(f"ttg.dot_op unexpected parent layout: {parent.to_text()}", "parent")
        return cls(op_idx=op_idx, parent=parent, k_width=k_width)

    def nested_encodings(self) -> tuple[Encoding, ...]:
        return (self.parent,)

    def body_text(self, alias: AliasFn | None = None) -> str:
        k_width = f", kWidth = {self.k_width}" if self.k_width else ""
        return f"{{opIdx = {self.op_idx}, parent = {self.nested_text(self.parent, alias)}{k_width}}}"
