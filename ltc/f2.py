"""Linear algebra over F2 on bit-vectors packed into Python ints.

A vector of n bits is an int whose bit i is coordinate i. A matrix is a list of
such ints, read either as rows or as columns; each function says which.

The pivot of a non-zero vector is its lowest set bit. *Reduced row echelon
form* (RREF) here means: every non-zero row has a distinct pivot, no other row
has that pivot bit set, and rows are sorted by pivot. RREF is unique, so every
caller that reads pivots and row contents gets the same answer as Triton's
``f2reduce``-based code, whatever the elimination order.

These kernels serve the layout algebra (rank, least squares) and lowering
(vector sets, bank sets, complements of subspaces).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def lowest_bit(x: int) -> int:
    """Index of the lowest set bit of a non-zero int."""
    return (x & -x).bit_length() - 1


def rref(rows: Iterable[int]) -> list[int]:
    """Reduced row echelon form of ``rows``; zero rows are dropped.

    Returns the non-zero rows of the RREF, sorted by pivot (lowest set bit).
    """
    pivots: dict[int, int] = {}  # pivot bit -> row with that pivot
    for row in rows:
        # Forward-reduce the new row against the existing pivots.
        for bit, prow in pivots.items():
            if row >> bit & 1:
                row ^= prow
        if row == 0:
            continue
        pivot = lowest_bit(row)
        # Clear the new pivot from the earlier rows (back substitution).
        for bit, prow in pivots.items():
            if prow >> pivot & 1:
                pivots[bit] = prow ^ row
        pivots[pivot] = row
    return [pivots[b] for b in sorted(pivots)]


def rank(vectors: Iterable[int]) -> int:
    """Dimension of the span of ``vectors``."""
    return len(echelon_basis(vectors))


def echelon_basis(vectors: Iterable[int]) -> list[int]:
    """A basis of span(vectors) in RREF (sorted by pivot)."""
    return rref(vectors)


def reduce_by(v: int, basis: Sequence[int]) -> int:
    """Reduce ``v`` modulo an RREF basis: the canonical representative of
    v + span(basis), with every pivot bit of ``basis`` cleared."""
    for b in basis:
        if v >> lowest_bit(b) & 1:
            v ^= b
    return v


def in_span(v: int, basis: Sequence[int]) -> bool:
    """Whether ``v`` lies in the span of an RREF basis."""
    return reduce_by(v, basis) == 0


def complement_basis(subspace: Iterable[int], n_bits: int) -> list[int]:
    """Unit vectors 1 << i completing ``subspace`` to a basis of F2^n_bits.

    The unit vectors are chosen in increasing bit order, skipping bits that
    are already pivots, so the result is canonical.
    """
    basis = rref(subspace)
    pivots = {lowest_bit(b) for b in basis}
    return [1 << i for i in range(n_bits) if i not in pivots]


def complete_basis(vectors: Sequence[int], n_bits: int) -> list[int]:
    """``vectors`` (assumed independent) followed by unit vectors that complete
    them to a basis of F2^n_bits."""
    return list(vectors) + complement_basis(vectors, n_bits)


def intersect_spans(a: Iterable[int], b: Iterable[int]) -> list[int]:
    """An RREF basis of span(a) ∩ span(b) (Zassenhaus's algorithm).

    Rows (x, x) for x in a and (y, 0) for y in b are reduced together; the rows
    whose first half vanishes carry the intersection in their second half.
    """
    a = list(a)
    b = list(b)
    width = max((v.bit_length() for v in a + b), default=0)
    rows = [x | (x << width) for x in a] + list(b)
    mask = (1 << width) - 1
    return rref(r >> width for r in rref(rows) if r & mask == 0)


def solve_min_norm(
    a_cols: Sequence[int], b_cols: Sequence[int], n_rows: int
) -> list[int] | None:
    """Least-norm solution X of A·X = B over F2, column by column.

    ``a_cols``/``b_cols`` are the columns of A and B (ints of ``n_rows`` bits).
    Returns, for each column of B, the int whose bit i says whether column i of
    A is used; free variables are set to zero. None if some column of B is not
    in the column span of A.
    """
    na = len(a_cols)
    nb = len(b_cols)
    rows = []
    for r in range(n_rows):
        row = 0
        for c, col in enumerate(a_cols):
            row |= (col >> r & 1) << c
        for c, col in enumerate(b_cols):
            row |= (col >> r & 1) << (na + c)
        rows.append(row)
    sol_rows = [0] * na  # sol_rows[i] = bits over B's columns, for variable i
    mask_a = (1 << na) - 1
    for row in rref(rows):
        if row & mask_a == 0:
            return None
        sol_rows[lowest_bit(row)] = row >> na
    out = []
    for j in range(nb):
        x = 0
        for i in range(na):
            x |= (sol_rows[i] >> j & 1) << i
        out.append(x)
    return out
