"""Tests of ``ltc.f2``: linear algebra over F2 on bit-vectors packed into ints.

The facts checked, for vectors in F2^n (ints of n bits):

* RREF is unique: every row has a distinct pivot (its lowest set bit), no other
  row has that bit set, rows are sorted by pivot, and the row space is that of
  the input.  So any reordering of the input gives the same RREF.
* rank = number of RREF rows; ``reduce_by`` returns the representative of
  v + span with every pivot cleared; ``in_span`` ⇔ that is 0.
* ``complement_basis``: unit vectors on the non-pivot bits; together with the
  subspace they span F2^n.
* ``intersect_spans``: every vector lies in both spans and
  dim(a) + dim(b) = dim(a + b) + dim(a ∩ b).
* ``ColumnEchelon``: a column is a pivot column exactly when it is not in the
  span of the columns before it (the pivot columns of the RREF of A's rows);
  ``express`` writes a vector of the span with pivot columns only.
* ``solve_min_norm``: A·X = B column by column; every free variable (non-pivot
  column of A's RREF) is 0; None exactly when some column of B is not in the
  column span of A.

Exact small cases come first, then hypothesis properties.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ltc import f2

N_BITS = 8

vectors = st.lists(st.integers(min_value=0, max_value=(1 << N_BITS) - 1), max_size=10)


def span(vs: list[int]) -> set[int]:
    """Every element of span(vs), by brute force."""
    out = {0}
    for v in vs:
        out |= {x ^ v for x in out}
    return out


def is_rref(rows: list[int]) -> bool:
    pivots = [f2.lowest_bit(r) for r in rows]
    if any(r == 0 for r in rows) or pivots != sorted(set(pivots)):
        return False
    return all(
        not (other >> p & 1) for p, r in zip(pivots, rows) for other in rows if other is not r
    )


def mat_vec(cols: list[int], x: int) -> int:
    """A·x where A has columns ``cols``."""
    v = 0
    for i, c in enumerate(cols):
        if x >> i & 1:
            v ^= c
    return v


# ---------------------------------------------------------------- exact cases
def test_lowest_bit() -> None:
    assert [f2.lowest_bit(x) for x in (1, 2, 3, 4, 12, 1 << 40)] == [0, 1, 0, 2, 2, 40]


def test_rref_exact() -> None:
    assert f2.rref([]) == []
    assert f2.rref([0, 0]) == []
    assert f2.rref([0b11, 0b10]) == [0b01, 0b10]
    assert f2.rref([0b110, 0b011]) == [0b101, 0b110]
    # dependent rows vanish
    assert f2.rref([0b101, 0b011, 0b110]) == [0b101, 0b110]
    assert f2.rref([0b1000, 0b1100, 0b1110, 0b1111]) == [1, 2, 4, 8]


def test_rref_pivots_and_uniqueness_over_orders() -> None:
    rows = [0b10110, 0b01101, 0b11011, 0b00111]
    expected = f2.rref(rows)
    assert is_rref(expected)
    for perm in itertools.permutations(rows):
        assert f2.rref(perm) == expected


def test_rank_and_echelon_basis() -> None:
    assert f2.rank([]) == 0
    assert f2.rank([0]) == 0
    assert f2.rank([1, 2, 3]) == 2
    assert f2.rank([1, 2, 4, 8]) == 4
    assert f2.echelon_basis([3, 1]) == [1, 2]


def test_reduce_by_and_in_span() -> None:
    basis = f2.rref([0b011, 0b110])  # [0b101, 0b110]
    assert basis == [0b101, 0b110]
    assert f2.reduce_by(0b111, basis) == 0b100  # 111 ^ 101 = 010, then ^ 110
    assert f2.reduce_by(0b011, basis) == 0
    assert f2.in_span(0b011, basis)
    assert not f2.in_span(0b100, basis)
    assert f2.in_span(0, [])
    assert not f2.in_span(1, [])


def test_complement_basis_exact() -> None:
    assert f2.complement_basis([], 3) == [1, 2, 4]
    assert f2.complement_basis([0b011, 0b110], 3) == [0b100]
    assert f2.complement_basis([0b1010], 4) == [1, 4, 8]
    assert f2.complement_basis([1, 2, 4], 3) == []
    assert f2.complete_basis([0b1010], 4) == [0b1010, 1, 4, 8]


def test_intersect_spans_exact() -> None:
    assert f2.intersect_spans([], []) == []
    assert f2.intersect_spans([1], []) == []
    assert f2.intersect_spans([0b011, 0b100], [0b111]) == [0b111]
    assert f2.intersect_spans([1, 2], [2, 4]) == [2]
    assert f2.intersect_spans([1, 2, 4], [0b110, 0b011]) == [0b101, 0b110]
    assert f2.intersect_spans([1], [2]) == []


def test_solve_min_norm_exact() -> None:
    # A = identity on 3 bits: X = B.
    assert f2.solve_min_norm([1, 2, 4], [5, 3]) == [5, 3]
    # A with a zero column and a duplicate: free variables are 0.
    # columns: c0 = 0, c1 = 1, c2 = 1, c3 = 2  -> pivots c1 and c3.
    assert f2.solve_min_norm([0, 1, 1, 2], [3, 1, 2, 0]) == [0b1010, 0b0010, 0b1000, 0]
    # B outside the column span of A.
    assert f2.solve_min_norm([1, 1], [2]) is None
    # No columns in B.
    assert f2.solve_min_norm([1], []) == []


def test_column_echelon_exact() -> None:
    ech = f2.column_echelon([0, 0b01, 0b11, 0b10, 0b100])
    # column 0 is zero, column 3 = column 1 ^ column 2: both free
    assert ech.pivot_mask == 0b10110
    assert ech.rank == 3 and ech.count == 5
    assert ech.express(0b10) == 0b00110
    assert ech.express(0b111) == 0b10100
    assert ech.express(0) == 0
    assert ech.express(0b1000) is None
    e = f2.ColumnEchelon()
    assert e.add(0b1) and not e.add(0b1) and e.add(0b10)
    assert e.pivot_mask == 0b101


# ----------------------------------------------------------------- properties
@settings(max_examples=200, deadline=None)
@given(vectors, st.randoms(use_true_random=False))
def test_rref_properties(vs: list[int], rnd) -> None:
    rows = f2.rref(vs)
    assert is_rref(rows)
    assert span(rows) == span(vs)
    assert f2.rank(vs) == len(rows)
    shuffled = list(vs)
    rnd.shuffle(shuffled)
    assert f2.rref(shuffled) == rows
    assert f2.rref(rows) == rows


@settings(max_examples=200, deadline=None)
@given(vectors, st.integers(min_value=0, max_value=(1 << N_BITS) - 1))
def test_reduce_by_properties(vs: list[int], v: int) -> None:
    basis = f2.rref(vs)
    r = f2.reduce_by(v, basis)
    assert (r ^ v) in span(basis)
    assert all(not (r >> f2.lowest_bit(b) & 1) for b in basis)
    assert f2.in_span(v, basis) == (v in span(vs))


@settings(max_examples=200, deadline=None)
@given(vectors)
def test_complement_basis_properties(vs: list[int]) -> None:
    comp = f2.complement_basis(vs, N_BITS)
    assert all(c & (c - 1) == 0 for c in comp)
    assert comp == sorted(comp)
    assert f2.rank(vs) + len(comp) == N_BITS
    assert f2.rank(list(vs) + comp) == N_BITS


@settings(max_examples=200, deadline=None)
@given(vectors, vectors)
def test_intersect_spans_properties(a: list[int], b: list[int]) -> None:
    inter = f2.intersect_spans(a, b)
    assert is_rref(inter) or inter == []
    sa, sb = span(a), span(b)
    assert span(inter) == sa & sb
    assert f2.rank(a) + f2.rank(b) == f2.rank(a + b) + len(inter)


def pivot_columns(a_cols: list[int], n_rows: int) -> set[int]:
    """Pivot columns of A from the RREF of its rows (independent of
    ``ColumnEchelon``)."""
    rows = [sum((c >> r & 1) << i for i, c in enumerate(a_cols)) for r in range(n_rows)]
    return {f2.lowest_bit(r) for r in f2.rref(rows)}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=(1 << 6) - 1), max_size=10))
def test_column_echelon_pivots_are_rref_pivots(a_cols: list[int]) -> None:
    ech = f2.column_echelon(a_cols)
    assert ech.pivot_mask == sum(1 << i for i in pivot_columns(a_cols, 6))
    assert ech.rank == f2.rank(a_cols)
    for i, c in enumerate(a_cols):  # pivot <=> not in the span of earlier columns
        assert bool(ech.pivot_mask >> i & 1) == (c not in span(a_cols[:i]))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=(1 << 6) - 1), max_size=8),
    st.lists(st.integers(min_value=0, max_value=(1 << 6) - 1), max_size=5),
)
def test_solve_min_norm_properties(a_cols: list[int], b_cols: list[int]) -> None:
    x = f2.solve_min_norm(a_cols, b_cols)
    col_span = span(a_cols)
    if x is None:
        assert any(b not in col_span for b in b_cols)
        return
    assert len(x) == len(b_cols)
    pivots = pivot_columns(a_cols, 6)
    free_mask = sum(1 << i for i in range(len(a_cols)) if i not in pivots)
    for xj, bj in zip(x, b_cols):
        assert mat_vec(a_cols, xj) == bj
        assert xj & free_mask == 0
        assert 0 <= xj < 1 << len(a_cols)


def test_solve_min_norm_is_the_unique_pivot_only_solution() -> None:
    """With free variables forced to zero the solution is unique: brute force
    over every X agrees."""
    a_cols = [0b011, 0b110, 0b101, 0b001]
    b = 0b100
    x = f2.solve_min_norm(a_cols, [b])
    assert x is not None
    pivots = pivot_columns(a_cols, 3)
    candidates = [
        y
        for y in range(1 << len(a_cols))
        if mat_vec(a_cols, y) == b and all(i in pivots for i in range(4) if y >> i & 1)
    ]
    assert candidates == x


@pytest.mark.parametrize("n_bits", [1, 5, 8])
def test_complement_of_full_space_is_empty(n_bits: int) -> None:
    assert f2.complement_basis([1 << i for i in range(n_bits)], n_bits) == []


def test_apply_columns_xors_the_columns_of_set_bits():
    assert f2.apply_columns([1, 2, 4], 5) == 5
    assert f2.apply_columns([3, 6, 12], 0b101) == 3 ^ 12
    assert f2.apply_columns([3, 6], 0) == 0
