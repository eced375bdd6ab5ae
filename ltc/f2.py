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


def apply_columns(cols: Sequence[int], x: int) -> int:
    """The matrix with columns ``cols`` times the bit-vector ``x``: XOR of ``cols[i]`` over set bits i of x."""
    v = i = 0
    while x:
        if x & 1:
            v ^= cols[i]
        x >>= 1
        i += 1
    return v


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


def span_table(cols: Iterable[int]) -> list[int]:
    """``t[x]`` = XOR of ``cols[i]`` over the set bits ``i`` of ``x``, for every ``x``: the
    image of every input of a linear map given by its columns (a table by doubling)."""
    table = [0]
    for c in cols:
        table += [x ^ c for x in table]
    return table


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


class ColumnEchelon:
    """Columns of a matrix, added left to right, kept in echelon form.

    A column is a *pivot column* when it is not in the span of the columns
    added before it; these are exactly the pivot columns of the matrix's RREF,
    and the other columns are its free variables. Each stored vector carries
    the set of pivot columns (a bit mask of column indices) that sum to it, so
    any vector of the span can be written in terms of pivot columns alone.
    """

    __slots__ = ("_by_top", "count", "pivot_mask")

    def __init__(self) -> None:
        self._by_top: dict[int, tuple[int, int]] = {}  # top bit -> (vector, mask)
        self.count = 0  # columns added so far
        self.pivot_mask = 0  # bit c set when column c is a pivot column

    def add(self, col: int) -> bool:
        """Append a column; True when it is a pivot column."""
        c = self.count
        self.count += 1
        v, m = self._reduce(col, 1 << c)
        if v == 0:
            return False
        self._by_top[v.bit_length() - 1] = (v, m)
        self.pivot_mask |= 1 << c
        return True

    def _reduce(self, v: int, m: int) -> tuple[int, int]:
        by_top = self._by_top
        while v:
            entry = by_top.get(v.bit_length() - 1)
            if entry is None:
                break
            v ^= entry[0]
            m ^= entry[1]
        return v, m

    @property
    def rank(self) -> int:
        return len(self._by_top)

    def express(self, v: int) -> int | None:
        """The pivot columns summing to ``v`` (a mask), or None if v is not
        in the span."""
        r, m = self._reduce(v, 0)
        return m if r == 0 else None


def column_echelon(cols: Iterable[int]) -> ColumnEchelon:
    """A ``ColumnEchelon`` holding ``cols`` in order."""
    ech = ColumnEchelon()
    for c in cols:
        ech.add(c)
    return ech


def solve_min_norm(a_cols: Sequence[int], b_cols: Sequence[int]) -> list[int] | None:
    """Minimum-norm solution X of A·X = B over F2, one column of B at a time.

    ``a_cols``/``b_cols`` are the columns of A and B as bit-vectors (bit r =
    row r). Returns, for each column of B, a mask of the columns of A that sum
    to it, using pivot columns only (free variables are zero — the choice
    Triton's least-squares solver makes). None if some column of B is not in
    the column span of A.
    """
    ech = column_echelon(a_cols)
    out = []
    for b in b_cols:
        m = ech.express(b)
        if m is None:
            return None
        out.append(m)
    return out
