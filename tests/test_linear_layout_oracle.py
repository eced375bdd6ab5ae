"""Randomized differential tests: ``ltc.LinearLayout`` against Triton 3.9's
``triton._C.libtriton.linear_layout.LinearLayout`` (the C++ class, through its
Python binding).

Every case is generated from a fixed seed, so failures reproduce.  A random
layout has some of the in dims ``register, lane, warp, block`` (in that order,
possibly of size 1) and 1-3 out dims ``dim0..dim2`` of size up to 2^6; its bases
mix zeros, duplicates of earlier bases, powers of two and arbitrary values.

Triton's binding aborts the whole interpreter on invalid input (its wheel has
assertions on), so every input is checked valid *before* it reaches Triton:
compose gets an outer layout whose in dims cover the inner's out dims;
invert_and_compose gets an outer layout whose image contains the inner's image
(checked by brute force on the value tables, independent of ``ltc.f2``);
invert gets invertible layouts (as Triton itself reports).

Besides equality with Triton's bases and out dims, each solve is checked against
its defining equation on the whole domain: for C = B.invert_and_compose(A),
``A(C(x)) == B(x)`` for every x; for P = L.pseudoinvert(), ``L(P(y)) == y``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import numpy as np
import pytest

from tests.oracle import HAVE_TRITON, ll_apply, triton_ll_from_bases, triton_ll_to_dict

from ltc import LayoutError, LinearLayout

pytestmark = pytest.mark.skipif(
    not HAVE_TRITON, reason="triton 3.9.0 is not installed; the Triton oracle is unavailable"
)

IN_DIMS = ("register", "lane", "warp", "block")
OUT_DIMS = ("dim0", "dim1", "dim2")
MAX_OUT_LOG2 = 6
MAX_IN_BITS = 14  # keeps whole-domain value tables small

Bases = dict[str, list[list[int]]]


# ------------------------------------------------------------------ generation
def random_basis(rnd: random.Random, sizes: dict[str, int], earlier: list[list[int]]) -> list[int]:
    roll = rnd.random()
    if roll < 0.15:
        return [0] * len(sizes)
    if roll < 0.25 and earlier:
        return list(rnd.choice(earlier))
    basis = []
    for s in sizes.values():
        if s == 1 or rnd.random() < 0.4:
            basis.append(0)
        elif rnd.random() < 0.6:
            basis.append(1 << rnd.randrange(s.bit_length() - 1))
        else:
            basis.append(rnd.randrange(s))
    return basis


def random_out_dims(rnd: random.Random, names: list[str] | None = None) -> dict[str, int]:
    if names is None:
        names = sorted(rnd.sample(OUT_DIMS, rnd.randint(1, 3)), key=OUT_DIMS.index)
    return {n: 1 << rnd.randint(0, MAX_OUT_LOG2) for n in names}


def random_bases(
    rnd: random.Random,
    out_dims: dict[str, int],
    in_names: list[str] | None = None,
    in_bits: int | None = None,
) -> Bases:
    if in_names is None:
        in_names = [d for d in IN_DIMS if rnd.random() < 0.7] or [rnd.choice(IN_DIMS)]
    if in_bits is None:
        in_bits = rnd.randint(0, MAX_IN_BITS)
    counts = [0] * len(in_names)
    for _ in range(in_bits):
        counts[rnd.randrange(len(in_names))] += 1
    bases: Bases = {}
    earlier: list[list[int]] = []
    for d, k in zip(in_names, counts):
        bases[d] = []
        for _ in range(k):
            b = random_basis(rnd, out_dims, earlier)
            bases[d].append(b)
            earlier.append(b)
    return bases


def random_layout(rnd: random.Random, **kw) -> tuple[Bases, dict[str, int]]:
    out_dims = random_out_dims(rnd)
    return random_bases(rnd, out_dims, **kw), out_dims


def surjective_layout(
    rnd: random.Random,
    out_dims: dict[str, int],
    in_names: list[str] | None = None,
    extra: int | None = None,
) -> Bases:
    """Random bases that cover every out bit: the unit vectors of each out
    dim, shuffled among random extra bases and XOR-mixed into them, so that
    the layout stays surjective."""
    units = []
    for k, (_, s) in enumerate(out_dims.items()):
        for i in range(s.bit_length() - 1):
            u = [0] * len(out_dims)
            u[k] = 1 << i
            units.append(u)
    if extra is None:
        extra = rnd.randint(0, max(0, MAX_IN_BITS - len(units)))
    cols = units + [random_basis(rnd, out_dims, units) for _ in range(extra)]
    rnd.shuffle(cols)
    # mix: add earlier columns into later ones (keeps the span)
    for i in range(1, len(cols)):
        if rnd.random() < 0.5:
            j = rnd.randrange(i)
            cols[i] = [a ^ b for a, b in zip(cols[i], cols[j])]
    if in_names is None:
        in_names = [d for d in IN_DIMS if rnd.random() < 0.7] or [rnd.choice(IN_DIMS)]
    bases: Bases = {d: [] for d in in_names}
    for c in cols:
        bases[rnd.choice(in_names)].append(c)
    return bases


# ------------------------------------------------------------------- helpers
def ours(bases: Bases, out_dims: dict[str, int]) -> LinearLayout:
    return LinearLayout.from_bases(bases, out_dims)


def theirs(bases: Bases, out_dims: dict[str, int]):
    return triton_ll_from_bases(bases, out_dims)


def as_dict(layout: LinearLayout) -> dict:
    return layout.to_json()


def table(layout: LinearLayout, out_order: list[str] | None = None) -> np.ndarray:
    """Whole-domain value table, columns in ``out_order``."""
    if out_order is not None and out_order != layout.out_dim_names:
        layout = layout.transpose_outs(out_order)
    return layout.apply_all()


def image(bases: Bases, out_dims: dict[str, int], order: list[str]) -> set[tuple[int, ...]]:
    """Every value of the layout as a tuple in ``order``, by brute force (plain
    XOR over the bases, independent of ltc)."""
    vecs = [tuple(b[list(out_dims).index(n)] for n in order) for bs in bases.values() for b in bs]
    seen = {tuple(0 for _ in order)}
    for v in vecs:
        seen |= {tuple(x ^ y for x, y in zip(w, v)) for w in seen}
    return seen


def matrix_view(layout: LinearLayout) -> list[list[int]]:
    """Rows = out bits (first out dim low), columns = in bits."""
    cols = layout.flat_columns
    return [[c >> r & 1 for c in cols] for r in range(layout.total_out_size_log2)]


class Mismatches:
    """Collects differing cases; the test fails listing the first few."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self.count = 0

    def check(self, ok: bool, what: str) -> None:
        self.count += 1
        if not ok:
            self.items.append(what)

    def assert_none(self, minimum: int) -> None:
        assert self.count >= minimum, f"only {self.count} cases ran"
        assert not self.items, (
            f"{len(self.items)} of {self.count} cases differ from Triton; first ones:\n"
            + "\n\n".join(self.items[:5])
        )


def seeds(tag: int, n: int) -> Iterator[random.Random]:
    for i in range(n):
        yield random.Random(tag * 1_000_003 + i)


def compare(m: Mismatches, label: str, mine: Callable[[], LinearLayout], triton: Callable[[], object]) -> LinearLayout | None:
    """Compare ltc's result with Triton's; returns ltc's result."""
    expected = triton_ll_to_dict(triton())
    try:
        got = mine()
    except LayoutError as e:
        m.check(False, f"{label}\n ltc raised {e}\n triton: {expected}")
        return None
    m.check(as_dict(got) == expected, f"{label}\n ltc:    {as_dict(got)}\n triton: {expected}")
    return got


# --------------------------------------------------------------------- tests
def test_construction_predicates_and_text() -> None:
    """from_bases (explicit and inferred sizes), bases/out_dims, str, the
    matrix view and the three predicates, on 400 random layouts."""
    m = Mismatches()
    for rnd in seeds(1, 400):
        bases, out_dims = random_layout(rnd)
        a, t = ours(bases, out_dims), theirs(bases, out_dims)
        label = f"layout {bases} {out_dims}"
        m.check(as_dict(a) == triton_ll_to_dict(t), label)
        m.check(str(a) == str(t), f"{label}: str\n{a}\nvs\n{t}")
        m.check(matrix_view(a) == [list(r) for r in t.get_matrix_view()], f"{label}: matrix")
        for name in ("is_injective", "is_surjective", "is_invertible"):
            m.check(getattr(a, name)() == getattr(t, name)(), f"{label}: {name}")
        if t.is_surjective():
            # inferred out sizes (Triton requires surjectivity there)
            names = list(out_dims)
            inferred = triton_ll_from_bases(bases, names)
            compare(m, f"{label}: inferred sizes", lambda: LinearLayout.from_bases(bases, names), lambda: inferred)
    m.assert_none(400 * 5)


def test_apply() -> None:
    m = Mismatches()
    for rnd in seeds(2, 150):
        bases, out_dims = random_layout(rnd)
        a, t = ours(bases, out_dims), theirs(bases, out_dims)
        for _ in range(4):
            ins = {d: rnd.randrange(1 << len(bs)) for d, bs in bases.items()}
            m.check(a.apply(ins) == ll_apply(t, ins), f"apply {bases} {out_dims} at {ins}")
    m.assert_none(600)


def test_compose() -> None:
    m = Mismatches()
    for rnd in seeds(3, 250):
        bases, out_dims = random_layout(rnd)
        # outer: in dims = our out dims (shuffled order), each at least as large
        outer_in = list(out_dims)
        rnd.shuffle(outer_in)
        outer_out = random_out_dims(rnd)
        outer_bases: Bases = {}
        for n in outer_in:
            k = (out_dims[n].bit_length() - 1) + rnd.randint(0, 1)
            outer_bases[n] = random_bases(rnd, outer_out, in_names=[n], in_bits=k)[n]
        label = f"compose {bases} {out_dims} with {outer_bases} {outer_out}"
        got = compare(
            m,
            label,
            lambda: ours(bases, out_dims).compose(ours(outer_bases, outer_out)),
            lambda: theirs(bases, out_dims).compose(theirs(outer_bases, outer_out)),
        )
        if got is not None and got.total_in_size_log2 <= 10:
            inner_t = table(ours(bases, out_dims))
            outer_l = ours(outer_bases, outer_out)
            expect = np.array([list(outer_l.apply(dict(zip(out_dims, map(int, row)))).values()) for row in inner_t])
            m.check(np.array_equal(got.apply_all(), expect.reshape(got.apply_all().shape)), f"{label}: as maps")
    m.assert_none(250)


def _invert_and_compose_case(rnd: random.Random) -> tuple[Bases, dict, Bases, dict]:
    """(self, outer) with the same out dims, outer's sizes >= self's and
    Im(self) inside Im(outer); some in dims copied so the identity rule fires."""
    outer_out = random_out_dims(rnd)
    order = list(outer_out)
    rnd.shuffle(order)
    self_out = {n: 1 << rnd.randint(0, outer_out[n].bit_length() - 1) for n in order}
    kind = rnd.random()
    if kind < 0.6:
        outer_bases = surjective_layout(rnd, outer_out)
    else:
        outer_bases = random_bases(rnd, outer_out)
    # self's bases: values inside outer's image, restricted to self's sizes
    outer_img = [v for v in image(outer_bases, outer_out, order) if all(c < self_out[n] for c, n in zip(v, order))]
    self_names = [d for d in IN_DIMS if rnd.random() < 0.7] or ["register"]
    self_bases: Bases = {}
    for d in self_names:
        if d in outer_bases and rnd.random() < 0.35 and all(
            all(b[list(outer_out).index(n)] < self_out[n] for n in order) for b in outer_bases[d]
        ):
            # identical sublayout: Triton maps this dim by the identity
            self_bases[d] = [[b[list(outer_out).index(n)] for n in order] for b in outer_bases[d]]
            continue
        k = rnd.randint(0, 4)
        self_bases[d] = []
        for _ in range(k):
            r = rnd.random()
            if r < 0.15 or not outer_img:
                self_bases[d].append([0] * len(order))
            else:
                self_bases[d].append(list(rnd.choice(outer_img)))
    return self_bases, self_out, outer_bases, outer_out


def _invert_and_compose_cases(tag: int, n: int) -> Iterator[tuple[bool, Bases, dict, Bases, dict]]:
    """Valid (self, outer) pairs; the flag says whether some in dim has equal
    sublayouts in both (where Triton's identity-dim rule may apply)."""
    for rnd in seeds(tag, n):
        self_bases, self_out, outer_bases, outer_out = _invert_and_compose_case(rnd)
        order = list(self_out)
        if not image(self_bases, self_out, order) <= image(outer_bases, outer_out, order):
            continue  # Triton would abort; cannot happen by construction
        shared = any(
            d in outer_bases
            and [[b[list(outer_out).index(n)] for n in order] for b in outer_bases[d]] == bs
            for d, bs in self_bases.items()
        )
        yield shared, self_bases, self_out, outer_bases, outer_out


def _check_invert_and_compose(m: Mismatches, case: tuple) -> None:
    _, self_bases, self_out, outer_bases, outer_out = case
    label = f"invert_and_compose self={self_bases} {self_out} outer={outer_bases} {outer_out}"
    got = compare(
        m,
        label,
        lambda: ours(self_bases, self_out).invert_and_compose(ours(outer_bases, outer_out)),
        lambda: theirs(self_bases, self_out).invert_and_compose(theirs(outer_bases, outer_out)),
    )
    if got is not None:
        # defining equation: outer(C(x)) == self(x) for every x
        back = got.compose(ours(outer_bases, outer_out))
        m.check(
            np.array_equal(table(back, list(self_out)), table(ours(self_bases, self_out))),
            f"{label}: outer(C(x)) != self(x)",
        )


def test_invert_and_compose() -> None:
    """Pairs where no in dim has equal sublayouts in both layouts: the answer
    is the minimum-norm least-squares solution alone."""
    m = Mismatches()
    for case in _invert_and_compose_cases(4, 900):
        if not case[0]:
            _check_invert_and_compose(m, case)
    m.assert_none(500)


def test_invert_and_compose_defining_equation_with_shared_dims() -> None:
    """Whatever dims map by the identity, C solves outer(C(x)) == self(x)."""
    n = 0
    for shared, self_bases, self_out, outer_bases, outer_out in _invert_and_compose_cases(11, 800):
        if not shared:
            continue
        try:
            c = ours(self_bases, self_out).invert_and_compose(ours(outer_bases, outer_out))
        except LayoutError:
            continue  # see test_invert_and_compose_identity_dim_rule
        back = c.compose(ours(outer_bases, outer_out))
        assert np.array_equal(table(back, list(self_out)), table(ours(self_bases, self_out))), (
            self_bases, self_out, outer_bases, outer_out
        )
        n += 1
    assert n >= 100


def test_invert_and_compose_identity_dim_rule() -> None:
    m = Mismatches()
    for case in _invert_and_compose_cases(4, 900):
        if case[0]:
            _check_invert_and_compose(m, case)
    m.assert_none(300)


def test_invert_and_compose_error_when_image_not_covered() -> None:
    """Where Triton aborts (image not covered), ltc raises LayoutError."""
    raised = 0
    for rnd in seeds(5, 100):
        bases, out_dims = random_layout(rnd)
        outer_bases = random_bases(rnd, out_dims)
        order = list(out_dims)
        if image(bases, out_dims, order) <= image(outer_bases, out_dims, order):
            continue
        with pytest.raises(LayoutError):
            ours(bases, out_dims).invert_and_compose(ours(outer_bases, out_dims))
        raised += 1
    assert raised >= 30


def test_pseudoinvert() -> None:
    m = Mismatches()
    for rnd in seeds(6, 250):
        out_dims = random_out_dims(rnd)
        bases = surjective_layout(rnd, out_dims)
        t = theirs(bases, out_dims)
        assert t.is_surjective()
        label = f"pseudoinvert {bases} {out_dims}"
        got = compare(m, label, lambda: ours(bases, out_dims).pseudoinvert(), t.pseudoinvert)
        if got is not None:
            back = got.compose(ours(bases, out_dims))  # L(P(y)) == y
            ident = LinearLayout.empty()
            for n, s in out_dims.items():
                ident = ident * LinearLayout.identity_1d(s, n, n)
            m.check(np.array_equal(back.apply_all(), ident.apply_all()), f"{label}: L(P(y)) != y")
    m.assert_none(500)


def test_invert() -> None:
    m = Mismatches()
    for rnd in seeds(7, 300):
        out_dims = random_out_dims(rnd)
        n_bits = sum(s.bit_length() - 1 for s in out_dims.values())
        if rnd.random() < 0.6:
            bases = surjective_layout(rnd, out_dims, extra=0)  # square and surjective
        else:
            bases = random_bases(rnd, out_dims, in_bits=n_bits)  # square, maybe singular
        t = theirs(bases, out_dims)
        a = ours(bases, out_dims)
        m.check(a.is_invertible() == t.is_invertible(), f"is_invertible {bases} {out_dims}")
        if not t.is_invertible():
            with pytest.raises(LayoutError):
                a.invert()
            continue
        compare(m, f"invert {bases} {out_dims}", a.invert, t.invert)
    m.assert_none(450)


def _compatible_subset(rnd: random.Random, dims: tuple[str, ...]) -> list[str]:
    return [d for d in dims if rnd.random() < 0.6]


def _check_products(seed: int, n: int, pick_outs, pick_ins, max_in_bits: int) -> None:
    """Compare ``a * b`` with Triton on ``n`` random pairs whose out and in dim
    lists are drawn by ``pick_outs(rnd)`` / ``pick_ins(rnd)``."""
    m = Mismatches()
    for rnd in seeds(seed, n):
        parts = []
        for _ in range(2):
            out_dims = {name: 1 << rnd.randint(0, 3) for name in pick_outs(rnd)}
            ins = pick_ins(rnd)
            parts.append((random_bases(rnd, out_dims, in_names=ins, in_bits=rnd.randint(0, max_in_bits)), out_dims))
        (ab, ao), (bb, bo) = parts
        compare(
            m,
            f"product {ab} {ao} * {bb} {bo}",
            lambda: ours(ab, ao) * ours(bb, bo),
            lambda: theirs(ab, ao) * theirs(bb, bo),
        )
    m.assert_none(n)


def test_product() -> None:
    _check_products(
        8,
        300,
        lambda rnd: _compatible_subset(rnd, OUT_DIMS) or [rnd.choice(OUT_DIMS)],
        lambda rnd: _compatible_subset(rnd, IN_DIMS) or [rnd.choice(IN_DIMS)],
        7,
    )


def test_product_with_conflicting_dim_orders() -> None:
    _check_products(
        9,
        100,
        lambda rnd: rnd.sample(OUT_DIMS, rnd.randint(1, 3)),
        lambda rnd: rnd.sample(IN_DIMS, rnd.randint(1, 4)),
        6,
    )


def test_equality_matches_triton() -> None:
    m = Mismatches()
    for rnd in seeds(10, 150):
        bases, out_dims = random_layout(rnd, in_bits=rnd.randint(0, 4))
        other = dict(bases)
        r = rnd.random()
        if r < 0.3 and len(other) > 1:  # reorder in dims
            keys = list(other)
            rnd.shuffle(keys)
            other = {k: other[k] for k in keys}
        elif r < 0.6:  # perturb a basis
            d = rnd.choice(list(other))
            if other[d]:
                other[d] = [random_basis(rnd, out_dims, []) for _ in other[d]]
        m.check(
            (ours(bases, out_dims) == ours(other, out_dims)) == (theirs(bases, out_dims) == theirs(other, out_dims)),
            f"equality {bases} vs {other} {out_dims}",
        )
    m.assert_none(150)
