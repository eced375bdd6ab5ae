"""Exact unit tests of ``ltc.LinearLayout``: one or more per public operation.

A layout L maps input index bits to output index bits linearly over F2:
``L(x) = XOR of bases[d][i] over the set bits i of x[d]``.  Every expected value
below is worked out by hand from that rule (the arithmetic is in the comments),
or is a fact from Triton's own unit tests (``unittest/Tools/LinearLayoutTest.cpp``,
as in Triton's LinearLayout unit tests).  Differential tests against Triton's
binding live in ``test_linear_layout_oracle.py``.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import ltc
from ltc import LayoutError, LinearLayout

LL = LinearLayout


def ll(bases: dict, out_dims) -> LinearLayout:
    return LL.from_bases(bases, out_dims)


def as_map(layout: LinearLayout) -> dict[tuple[int, ...], tuple[int, ...]]:
    """The layout as a function: every input (in in-dim order) -> output."""
    ins = layout.in_dims
    out = {}
    for xs in itertools.product(*(range(s) for s in ins.values())):
        out[xs] = tuple(layout.apply(dict(zip(ins, xs))).values())
    return out


# ------------------------------------------------------------- constructors
def test_public_api_is_exported() -> None:
    assert ltc.LinearLayout is LinearLayout
    assert issubclass(ltc.LayoutError, ValueError)


def test_identity_1d() -> None:
    lay = LL.identity_1d(8, "i", "o")
    assert lay.bases == {"i": [(1,), (2,), (4,)]}
    assert lay.out_dims == {"o": 8}
    assert lay.in_dims == {"i": 8}
    assert LL.identity_1d(1, "i", "o").bases == {"i": []}
    assert LL.identity_1d(1, "i", "o").out_dims == {"o": 1}
    assert LL.identity_1d(0, "i", "o") == LL.empty()


def test_strided_1d() -> None:
    lay = LL.strided_1d(4, 2, "i", "o")
    assert lay.bases == {"i": [(2,), (4,)]}
    assert lay.out_dims == {"o": 8}
    assert not lay.is_surjective()
    assert LL.strided_1d(0, 2, "i", "o") == LL.empty()


def test_zeros_1d() -> None:
    lay = LL.zeros_1d(4, "i", "o")
    assert lay.bases == {"i": [(0,), (0,)]}
    assert lay.out_dims == {"o": 1}
    assert LL.zeros_1d(4, "i", "o", out_size=8).out_dims == {"o": 8}
    assert LL.zeros_1d(0, "i", "o") == LL.empty()


@pytest.mark.parametrize("bad", [3, 6, -4])
def test_1d_constructors_reject_non_powers_of_two(bad: int) -> None:
    with pytest.raises(LayoutError):
        LL.identity_1d(bad, "i", "o")
    with pytest.raises(LayoutError):
        LL.zeros_1d(bad, "i", "o")
    with pytest.raises(LayoutError):
        LL.strided_1d(4, bad, "i", "o")


def test_empty() -> None:
    e = LL.empty()
    assert e.bases == {}
    assert e.out_dims == {}
    assert e.in_dims == {}
    assert e.total_in_size == 1 and e.total_out_size == 1
    assert str(e) == "\n(empty layout)"


def test_from_bases_explicit_sizes_and_api_shapes() -> None:
    lay = ll({"register": [[0, 1], [8, 0]], "lane": [[0, 2]]}, {"dim0": 16, "dim1": 4})
    bases = lay.bases
    assert bases == {"register": [(0, 1), (8, 0)], "lane": [(0, 2)]}
    assert list(bases) == ["register", "lane"]
    assert all(isinstance(b, tuple) for bs in bases.values() for b in bs)
    assert lay.out_dims == {"dim0": 16, "dim1": 4}
    assert list(lay.out_dims) == ["dim0", "dim1"]
    assert lay.in_dims == {"register": 4, "lane": 2}
    assert lay.in_dim_names == ["register", "lane"]
    assert lay.out_dim_names == ["dim0", "dim1"]
    assert (lay.num_in_dims, lay.num_out_dims) == (2, 2)
    assert lay.total_in_size == 8 and lay.total_out_size == 64
    assert lay.in_dim_size("register") == 4 and lay.in_dim_size_log2("register") == 2
    assert lay.out_dim_size("dim1") == 4 and lay.out_dim_size_log2("dim0") == 4
    assert lay.basis("register", 1, "dim0") == 8
    assert lay.has_in_dim("lane") and not lay.has_in_dim("warp")
    assert lay.has_out_dim("dim0") and not lay.has_out_dim("dim2")
    # mutating the returned dicts does not change the layout
    bases["lane"].append((1, 1))
    assert lay.bases["lane"] == [(0, 2)]


def test_from_bases_keeps_size_one_in_dims() -> None:
    lay = ll({"register": [], "lane": [[1]], "block": []}, {"dim0": 2})
    assert lay.in_dims == {"register": 1, "lane": 2, "block": 1}
    assert lay.bases == {"register": [], "lane": [(1,)], "block": []}


def test_from_bases_inferred_out_sizes_next_power_of_two() -> None:
    # llvm::NextPowerOf2 is strictly greater: basis 4 -> size 8, 0 -> size 1.
    lay = ll({"i": [[1, 0], [2, 0], [4, 0], [0, 1]]}, ["x", "y"])
    assert lay.out_dims == {"x": 8, "y": 2}
    lay = ll({"i": [[1, 0], [2, 0]]}, ["x", "y"])
    assert lay.out_dims == {"x": 4, "y": 1}
    # a dim with no in dims at all gets size 1
    assert ll({}, ["x"]).out_dims == {"x": 1}


def test_from_bases_inferred_sizes_require_surjective() -> None:
    # basis 4 alone infers size 8, which it cannot cover.
    with pytest.raises(LayoutError, match="surjective"):
        ll({"i": [[4]]}, ["o"])
    # with explicit sizes a non-surjective layout is fine ...
    lay = ll({"i": [[4]]}, {"o": 8})
    assert not lay.is_surjective()
    # ... unless surjectivity is requested
    with pytest.raises(LayoutError, match="surjective"):
        LL.from_bases({"i": [[4]]}, {"o": 8}, require_surjective=True)


@pytest.mark.parametrize(
    "bases, out_dims",
    [
        ({"i": [[-1]]}, {"o": 4}),  # negative
        ({"i": [[4]]}, {"o": 4}),  # component >= size
        ({"i": [[1, 0]]}, {"o": 4}),  # too many components
        ({"i": [[1]]}, {"o": 4, "p": 2}),  # too few components
        ({"i": [[1]]}, {"o": 3}),  # size not a power of two
        ({"i": [[1]]}, {"o": 0}),
        ({"i": [[1, 0]]}, ["o"]),  # inferred sizes, wrong length
    ],
)
def test_from_bases_rejects_invalid(bases: dict, out_dims) -> None:
    with pytest.raises(LayoutError):
        LL.from_bases(bases, out_dims)


def test_constructor_rejects_duplicate_dims() -> None:
    with pytest.raises(LayoutError):
        LL([("i", [[1]]), ("i", [[2]])], [("o", 4)])
    with pytest.raises(LayoutError):
        LL([("i", [[1, 1]])], [("o", 2), ("o", 2)])


# ------------------------------------------------------------------ product
def test_product_triton_example() -> None:
    # id(4,i,o1) * id(8,i,o2)
    lay = LL.identity_1d(4, "i", "o1") * LL.identity_1d(8, "i", "o2")
    assert lay.bases == {"i": [(1, 0), (2, 0), (0, 1), (0, 2), (0, 4)]}
    assert lay.out_dims == {"o1": 4, "o2": 8}


def test_product_merges_shared_dims_inner_low() -> None:
    inner = ll({"reg": [[1]], "lane": [[2]]}, {"o": 4})
    outer = ll({"lane": [[1]], "warp": [[1]]}, {"o": 2})
    lay = inner * outer
    # in dims: supremum([reg, lane], [lane, warp]); outer's bases shifted by log2(4)
    assert lay.bases == {"reg": [(1,)], "lane": [(2,), (4,)], "warp": [(4,)]}
    assert lay.out_dims == {"o": 8}


def test_product_disjoint_dims_and_unit() -> None:
    a = LL.identity_1d(2, "a", "x")
    b = LL.zeros_1d(2, "b", "y", out_size=4)
    lay = a * b
    assert lay.bases == {"a": [(1, 0)], "b": [(0, 0)]}
    assert lay.out_dims == {"x": 2, "y": 4}
    assert a * LL.empty() == a
    assert LL.empty() * a == a


def test_product_dim_order_merge() -> None:
    x = LL.identity_1d(2, "a", "p") * LL.identity_1d(2, "c", "r")
    y = LL.identity_1d(2, "b", "q") * LL.identity_1d(2, "c", "r")
    lay = x * y
    assert lay.in_dim_names == ["a", "b", "c"]
    assert lay.out_dim_names == ["p", "q", "r"]
    assert lay.bases["c"] == [(0, 0, 1), (0, 0, 2)]


def test_product_conflicting_dim_orders_follow_triton() -> None:
    ab = LL.identity_1d(4, "a", "x") * LL.identity_1d(4, "b", "y")
    ba = LL.identity_1d(4, "b", "y") * LL.identity_1d(4, "a", "x")
    lay = ab * ba
    assert lay.bases == {
        "a": [(1, 0), (2, 0), (4, 0), (8, 0)],
        "b": [(0, 1), (0, 2), (0, 4), (0, 8)],
    }
    assert lay.out_dims == {"x": 16, "y": 16}


def test_product_with_non_layout_is_not_implemented() -> None:
    with pytest.raises(TypeError):
        LL.identity_1d(2, "a", "x") * 3  # type: ignore[operator]


# ------------------------------------------------------------------ compose
def test_compose() -> None:
    inner = ll({"i": [[1], [2]]}, {"o": 4})
    outer = ll({"o": [[0, 1], [1, 0], [2, 0]]}, {"x": 4, "y": 2})
    lay = inner.compose(outer)
    # i=1 -> o=1 -> (0, 1); i=2 -> o=2 -> (1, 0)
    assert lay.bases == {"i": [(0, 1), (1, 0)]}
    assert lay.out_dims == {"x": 4, "y": 2}


def test_compose_xors_outer_columns() -> None:
    inner = ll({"i": [[3], [0]]}, {"o": 4})
    outer = ll({"o": [[1], [4]]}, {"x": 8})
    # i=1 -> o=3 -> 1 ^ 4 = 5; i=2 -> 0
    assert inner.compose(outer).bases == {"i": [(5,), (0,)]}


def test_compose_multi_dim_any_order() -> None:
    inner = ll({"i": [[1, 0], [0, 1]]}, {"p": 2, "q": 2})
    outer = ll({"q": [[1]], "p": [[2]]}, {"z": 4})
    assert inner.compose(outer).bases == {"i": [(2,), (1,)]}


def test_compose_errors() -> None:
    inner = ll({"i": [[1], [2]]}, {"o": 4})
    with pytest.raises(LayoutError):  # outer's in dim too small
        inner.compose(LL.identity_1d(2, "o", "x"))
    with pytest.raises(LayoutError):  # names do not match
        inner.compose(LL.identity_1d(4, "p", "x"))


# ------------------------------------------------------- invert_and_compose
def test_invert_and_compose_triton_permutation() -> None:
    # LinearLayoutTest: invertAndCompose of {2,1,4} by {4,1,2} -> {4,2,1}
    a = ll({"in1": [[2], [1], [4]]}, ["out"])
    b = ll({"in1": [[4], [1], [2]]}, ["out"])
    c = a.invert_and_compose(b)
    assert c.bases == {"in1": [(4,), (2,), (1,)]}
    assert c.out_dims == {"in1": 8}


def test_invert_and_compose_triton_non_injective() -> None:
    a = ll({"in1": [[2], [1], [4]]}, ["out"])
    b = ll({"in2": [[0], [2], [1], [4]]}, ["out"])
    c = a.invert_and_compose(b)
    assert c.bases == {"in1": [(2,), (4,), (8,)]}
    assert c.out_dims == {"in2": 16}
    assert not c.is_surjective()


def test_invert_and_compose_satisfies_defining_equation() -> None:
    a = ll({"reg": [[1, 0], [0, 1]], "lane": [[2, 0], [0, 0]]}, {"x": 4, "y": 2})
    b = ll({"reg": [[0, 1], [0, 0]], "lane": [[1, 0], [0, 2]]}, {"y": 2, "x": 4})
    c = a.invert_and_compose(b)
    assert c.in_dim_names == ["reg", "lane"]
    assert c.out_dims == {"reg": 4, "lane": 4}
    # b(c(x)) == a(x), after reordering b's out dims like a's
    np.testing.assert_array_equal(
        c.compose(b).transpose_outs(["x", "y"]).apply_all(), a.apply_all()
    )


def test_invert_and_compose_min_norm_broadcast() -> None:
    # outer broadcasts over reg bits 0 and 2: free variables stay zero, so
    # every value is read from the copy with those bits clear.
    a = ll({"lane": [[1], [2]]}, {"o": 4})
    outer = ll({"reg": [[0], [1], [0], [2]]}, {"o": 4})
    c = a.invert_and_compose(outer)
    assert c.bases == {"lane": [(2,), (8,)]}
    assert c.out_dims == {"reg": 16}


def test_invert_and_compose_identity_dim_rule() -> None:
    # warp maps to zero in both layouts: it maps by the identity, not to 0.
    a = ll({"reg": [[1], [2]], "warp": [[0]]}, {"o": 4})
    b = ll({"reg": [[2], [1]], "warp": [[0]]}, {"o": 4})
    c = a.invert_and_compose(b)
    assert c.bases == {"reg": [(2, 0), (1, 0)], "warp": [(0, 1)]}
    assert c.out_dims == {"reg": 4, "warp": 2}


def test_invert_and_compose_identity_dim_ignores_out_sizes() -> None:
    # warp's sublayouts have equal bases but different out sizes (2 vs 4):
    # Triton compares them ignoring out-dim sizes.
    a = ll({"reg": [[1]], "warp": [[0]]}, {"o": 2})
    b = ll({"reg": [[1], [2]], "warp": [[0]]}, {"o": 4})
    c = a.invert_and_compose(b)
    assert c.bases == {"reg": [(1, 0)], "warp": [(0, 1)]}
    assert c.out_dims == {"reg": 4, "warp": 2}


def test_invert_and_compose_without_identity_rule_solves_min_norm() -> None:
    # same as above but warp's bases differ in a zero vs non-zero way: lstsq
    # maps warp's broadcast bit to 0.
    a = ll({"reg": [[1], [2]], "warp": [[0]]}, {"o": 4})
    b = ll({"reg": [[1]], "warp": [[2], [0]]}, {"o": 4})
    c = a.invert_and_compose(b)
    assert c.bases == {"reg": [(1, 0), (0, 1)], "warp": [(0, 0)]}
    assert c.out_dims == {"reg": 2, "warp": 4}


def test_invert_and_compose_identity_rule_needs_disjoint_bits() -> None:
    # reg and lane are equal in both layouts but both touch out bit 0: neither
    # maps by the identity; plain least squares gives lane -> reg 1.
    a = ll({"reg": [[1], [0]], "lane": [[1]]}, {"o": 2})
    c = a.invert_and_compose(a)
    assert c.bases == {"reg": [(1, 0), (0, 0)], "lane": [(1, 0)]}
    assert c.out_dims == {"reg": 4, "lane": 2}


def test_invert_and_compose_identity_rule_checks_bits_not_spans() -> None:
    # outer's reg (3) shares bit 0 with lane (1) although span{3} ∩ span{1} = 0
    a = ll({"reg": [[2]], "lane": [[1], [0]]}, {"o": 4})
    b = ll({"reg": [[3]], "lane": [[1], [0]]}, {"o": 4})
    c = a.invert_and_compose(b)
    assert c.bases == {"reg": [(1, 1)], "lane": [(0, 1), (0, 0)]}
    assert c.out_dims == {"reg": 2, "lane": 4}


def test_invert_and_compose_identity_rule_does_not_starve_other_dims() -> None:
    # ltc maps block by the identity, leaving warp's value 1 unreachable and
    # raising; Triton solves warp through block.
    a = ll({"register": [[0]], "lane": [[0], [2], [5]], "warp": [[1], [1]], "block": [[1], [1]]}, {"dim1": 8})
    b = ll({"register": [[0]], "lane": [[0], [2], [5]], "warp": [[2]], "block": [[1], [1]]}, {"dim1": 8})
    c = a.invert_and_compose(b)
    assert c.bases == {
        "register": [(1, 0, 0, 0)],
        "lane": [(0, 0, 0, 0), (0, 2, 0, 0), (0, 4, 0, 0)],
        "warp": [(0, 0, 0, 1), (0, 0, 0, 1)],
        "block": [(0, 0, 0, 1), (0, 0, 0, 1)],
    }
    assert c.out_dims == {"register": 2, "lane": 8, "warp": 2, "block": 4}


@pytest.mark.parametrize(
    "a, b, bases, out_dims",
    [
        (({"reg": [[0]], "lane": [[0]]}, {"o": 2}), ({"reg": [[0]]}, {"o": 2}),
         {"reg": [(1,)], "lane": [(0,)]}, {"reg": 2}),
        (({"reg": [[0]]}, {"o": 2}), ({"reg": [[0]], "lane": [[1]]}, {"o": 2}),
         {"reg": [(1, 0)]}, {"reg": 2, "lane": 2}),
    ],
)
def test_invert_and_compose_nothing_left_on_one_side(a, b, bases, out_dims) -> None:
    c = ll(*a).invert_and_compose(ll(*b))
    assert c.bases == bases
    assert c.out_dims == out_dims


def test_invert_and_compose_errors() -> None:
    a = ll({"i": [[1], [2]]}, {"o": 4})
    with pytest.raises(LayoutError):  # image of a not inside image of outer
        a.invert_and_compose(ll({"j": [[1], [0]]}, {"o": 4}))
    with pytest.raises(LayoutError):  # out dims differ
        a.invert_and_compose(LL.identity_1d(4, "j", "p"))
    with pytest.raises(LayoutError):  # a's out dim larger than outer's
        a.invert_and_compose(LL.identity_1d(2, "j", "o"))


# ---------------------------------------------------------------- inverses
def test_invert() -> None:
    lay = ll({"i": [[3], [1], [4]]}, ["o"])
    inv = lay.invert()
    # o=1: L(2)=1 -> 2; o=2: L(1)^L(2)=2 -> 3; o=4 -> 4
    assert inv.bases == {"o": [(2,), (3,), (4,)]}
    assert inv.out_dims == {"i": 8}
    assert inv.compose(lay).bases == {"o": [(1,), (2,), (4,)]}
    assert lay.compose(inv).bases == {"i": [(1,), (2,), (4,)]}


def test_invert_multi_dim() -> None:
    lay = ll({"reg": [[0, 1], [1, 0]], "lane": [[0, 2]]}, {"x": 2, "y": 4})
    inv = lay.invert()
    # x=1 <- reg=2; y=1 <- reg=1; y=2 <- lane=1
    assert inv.bases == {"x": [(2, 0)], "y": [(1, 0), (0, 1)]}
    assert inv.out_dims == {"reg": 4, "lane": 2}


def test_invert_rejects_non_invertible() -> None:
    with pytest.raises(LayoutError):
        ll({"i": [[1], [0]]}, {"o": 2}).invert()  # not square
    with pytest.raises(LayoutError):
        ll({"i": [[1], [1]]}, {"o": 4}).invert()  # not surjective


def test_pseudoinvert() -> None:
    lay = ll({"reg": [[1], [0], [2]]}, {"o": 4})
    pinv = lay.pseudoinvert()
    # minimum norm: o=1 -> reg 1, o=2 -> reg 4 (the broadcast bit stays 0)
    assert pinv.bases == {"o": [(1,), (4,)]}
    assert pinv.out_dims == {"reg": 8}
    assert pinv.compose(lay) == LL.identity_1d(4, "o", "o")


# ------------------------------------------------------------------ divide
def test_divide_left_divisible() -> None:
    a = LL.identity_1d(16, "i", "o")
    c = a.divide_left(LL.identity_1d(4, "i", "o"))
    assert c == LL.identity_1d(4, "i", "o")


def test_divide_left_keeps_all_dims_of_a() -> None:
    a = LL.identity_1d(4, "reg", "o") * LL.identity_1d(2, "lane", "o")
    c = a.divide_left(LL.identity_1d(4, "reg", "o"))
    assert c is not None
    assert c.bases == {"reg": [], "lane": [(1,)]}
    assert c.out_dims == {"o": 2}
    assert LL.identity_1d(4, "reg", "o") * c == a


def test_divide_right_divisible() -> None:
    a = ll({"i": [[2], [1], [4], [8]]}, {"o": 16})
    c = a.divide_right(LL.identity_1d(4, "i", "o"))
    assert c is not None
    assert c.bases == {"i": [(2,), (1,)]}
    assert c.out_dims == {"o": 4}
    assert c * LL.identity_1d(4, "i", "o") == a


def test_divide_not_divisible() -> None:
    a = ll({"i": [[2], [1]]}, {"o": 4})
    b = LL.identity_1d(2, "i", "o")
    assert a.divide_left(b) is None  # a's first basis is 2, not b's 1
    assert a.divide_right(b) is None  # a's last basis 1 is not b's 1 << 1
    assert a.divide_left(LL.identity_1d(8, "i", "o")) is None  # b larger
    assert a.divide_left(LL.identity_1d(2, "j", "o")) is None  # dim not in a
    assert a.divide_left(LL.identity_1d(2, "i", "p")) is None


# ------------------------------------------------------- reshape, transpose
def test_reshape_ins() -> None:
    lay = ll({"a": [[1], [2]], "b": [[4]]}, {"o": 8})
    r = lay.reshape_ins([("x", 2), ("y", 4)])
    assert r.bases == {"x": [(1,)], "y": [(2,), (4,)]}
    assert lay.reshape_ins({"z": 8}).bases == {"z": [(1,), (2,), (4,)]}
    with pytest.raises(LayoutError):
        lay.reshape_ins([("x", 4)])


def test_reshape_outs() -> None:
    lay = ll({"i": [[1, 0], [0, 1], [2, 0]]}, {"p": 4, "q": 2})
    # flat (p low): 1, 4, 2; split as r (1 bit), s (2 bits)
    r = lay.reshape_outs([("r", 2), ("s", 4)])
    assert r.bases == {"i": [(1, 0), (0, 2), (0, 1)]}
    assert r.out_dims == {"r": 2, "s": 4}
    with pytest.raises(LayoutError):
        lay.reshape_outs([("r", 4)])


def test_transpose_ins() -> None:
    lay = ll({"a": [[1]], "b": [[2]]}, {"o": 4})
    t = lay.transpose_ins(["b", "a"])
    assert list(t.bases) == ["b", "a"]
    assert t.bases == {"b": [(2,)], "a": [(1,)]}
    assert t != lay
    with pytest.raises(LayoutError):
        lay.transpose_ins(["a"])


def test_transpose_outs() -> None:
    lay = ll({"i": [[1, 0], [0, 1]]}, {"p": 2, "q": 4})
    t = lay.transpose_outs(["q", "p"])
    assert t.bases == {"i": [(0, 1), (1, 0)]}
    assert list(t.out_dims.items()) == [("q", 4), ("p", 2)]
    with pytest.raises(LayoutError):
        lay.transpose_outs(["q", "r"])


def test_flatten_ins_and_outs() -> None:
    lay = ll({"a": [[0, 1]], "b": [[1, 0], [2, 0]]}, {"p": 4, "q": 2})
    fi = lay.flatten_ins()
    assert fi.bases == {"a": [(0, 1), (1, 0), (2, 0)]}
    fo = lay.flatten_outs()
    assert fo.bases == {"a": [(4,)], "b": [(1,), (2,)]}
    assert fo.out_dims == {"p": 8}
    assert LL.empty().flatten_ins() == LL.empty()
    assert LL.empty().flatten_outs() == LL.empty()


def test_squeeze() -> None:
    lay = ll({"a": [], "b": [[1, 0]]}, {"p": 2, "q": 1})
    assert lay.squeeze_ins("a").bases == {"b": [(1, 0)]}
    assert lay.squeeze_outs("q").out_dims == {"p": 2}
    with pytest.raises(LayoutError):
        lay.squeeze_ins("b")
    with pytest.raises(LayoutError):
        lay.squeeze_outs("p")


def test_sublayout() -> None:
    lay = ll({"a": [[1, 1]], "b": [[0, 2], [2, 0]]}, {"p": 4, "q": 4})
    s = lay.sublayout(["b"], ["q"])
    assert s.bases == {"b": [(2,), (0,)]}
    assert s.out_dims == {"q": 4}
    # order follows the layout, not the arguments
    s2 = lay.sublayout(["b", "a"], ["q", "p"])
    assert s2 == lay
    assert lay.sublayout("a", "p").bases == {"a": [(1,)]}
    with pytest.raises(LayoutError):
        lay.sublayout(["c"], ["p"])
    with pytest.raises(LayoutError):
        lay.sublayout(["a"], ["r"])


def test_resize_in_dim() -> None:
    lay = ll({"i": [[1], [2], [4]]}, {"o": 8})
    assert lay.resize_in_dim("i", 2).bases == {"i": [(1,)]}
    assert lay.resize_in_dim("i", 32).bases == {"i": [(1,), (2,), (4,), (0,), (0,)]}
    with pytest.raises(LayoutError):
        lay.resize_in_dim("i", 3)


def test_resize_out_dim() -> None:
    lay = ll({"i": [[1, 0], [2, 1], [4, 0]]}, {"o": 8, "p": 2})
    small = lay.resize_out_dim("o", 4)
    # component 4 >= 4 becomes 0; (2, 1) keeps its components
    assert small.bases == {"i": [(1, 0), (2, 1), (0, 0)]}
    assert small.out_dims == {"o": 4, "p": 2}
    big = lay.resize_out_dim("p", 8)
    assert big.bases == lay.bases and big.out_dims == {"o": 8, "p": 8}


def test_remove_zero_bases_along_dim() -> None:
    lay = ll({"reg": [[0], [1], [0]], "lane": [[0], [2]]}, {"o": 4})
    r = lay.remove_zero_bases_along_dim("reg")
    assert r.bases == {"reg": [(1,)], "lane": [(0,), (2,)]}


def test_concat_ins() -> None:
    a = ll({"x": [[1]]}, {"o": 4})
    b = ll({"y": [[2]]}, {"o": 4})
    assert a.concat_ins(b).bases == {"x": [(1,)], "y": [(2,)]}
    with pytest.raises(LayoutError):
        a.concat_ins(a)
    with pytest.raises(LayoutError):
        a.concat_ins(ll({"y": [[1]]}, {"o": 2}))


def test_concat_outs() -> None:
    a = ll({"x": [[1]], "y": [[0]]}, {"o": 2})
    b = ll({"x": [[0]], "y": [[3]]}, {"p": 4})
    c = a.concat_outs(b)
    assert c.bases == {"x": [(1, 0)], "y": [(0, 3)]}
    assert c.out_dims == {"o": 2, "p": 4}
    with pytest.raises(LayoutError):
        a.concat_outs(a)
    with pytest.raises(LayoutError):
        a.concat_outs(ll({"x": [[0]]}, {"p": 4}))


# -------------------------------------------------------------- triviality
def test_is_trivial_over_and_quotient() -> None:
    lay = ll({"reg": [[1, 0], [2, 0]], "block": [[0, 1]]}, {"reg": 4, "block": 2})
    assert lay.is_trivial_over(["block"])
    assert lay.quotient(["block"]) == ll({"reg": [[1], [2]]}, {"reg": 4})
    assert lay.is_trivial_over([])
    assert lay.quotient([]) == lay
    assert lay.is_trivial_over(["reg", "block"])


def test_not_trivial_over() -> None:
    # block -> reg: dims reach other outputs
    a = ll({"reg": [[1, 0], [2, 0]], "block": [[1, 1]]}, {"reg": 4, "block": 2})
    assert not a.is_trivial_over(["block"])
    assert a.quotient(["block"]) is None
    # reg reaches block
    b = ll({"reg": [[1, 1], [2, 0]], "block": [[0, 1]]}, {"reg": 4, "block": 2})
    assert not b.is_trivial_over(["block"])
    # block -> block is not the identity
    c = ll({"reg": [[1, 0]], "block": [[0, 0]]}, {"reg": 2, "block": 2})
    assert not c.is_trivial_over(["block"])
    # unknown dim
    assert not c.is_trivial_over(["warp"])


def test_sublayout_is_zero_and_square_identity() -> None:
    lay = ll({"reg": [[1, 0], [2, 0]], "block": [[0, 1]]}, {"reg": 4, "block": 2})
    assert lay.sublayout_is_zero(["block"], ["reg"])
    assert not lay.sublayout_is_zero(["reg"], ["reg"])
    assert lay.square_sublayout_is_identity(["reg"])
    assert lay.square_sublayout_is_identity([])


# -------------------------------------------------------------------- apply
def test_apply() -> None:
    lay = ll({"reg": [[0, 1], [8, 0]], "lane": [[0, 2], [1, 1]]}, {"dim0": 16, "dim1": 4})
    assert lay.apply({"reg": 0, "lane": 0}) == {"dim0": 0, "dim1": 0}
    # reg=3 -> (0,1)^(8,0) = (8,1); lane=2 -> (1,1); total (9, 0)
    assert lay.apply({"reg": 3, "lane": 2}) == {"dim0": 9, "dim1": 0}
    assert lay.apply({"lane": 3, "reg": 1}) == {"dim0": 1, "dim1": 2}
    assert list(lay.apply({"reg": 1, "lane": 0})) == ["dim0", "dim1"]


@pytest.mark.parametrize(
    "ins",
    [
        {"reg": 1},  # missing dim
        {"reg": 1, "lane": 0, "warp": 0},  # extra dim
        {"reg": 4, "lane": 0},  # out of range
        {"reg": -1, "lane": 0},
    ],
)
def test_apply_errors(ins: dict) -> None:
    lay = ll({"reg": [[1], [2]], "lane": [[4]]}, {"o": 8})
    with pytest.raises(LayoutError):
        lay.apply(ins)


def test_apply_flat() -> None:
    lay = ll({"a": [[1, 1]], "b": [[2, 0]]}, {"p": 4, "q": 2})
    # x = 3: a=1, b=1 -> (3, 1) -> flat 3 | 1 << 2 = 7
    assert lay.apply_flat(3) == 7


def test_apply_all_matches_apply_everywhere() -> None:
    lay = ll(
        {"reg": [[0, 1], [8, 0]], "lane": [[0, 2], [1, 1], [0, 0]], "warp": [], "block": [[4, 3]]},
        {"dim0": 16, "dim1": 4},
    )
    table = lay.apply_all()
    assert isinstance(table, np.ndarray)
    assert table.shape == (lay.total_in_size, 2)
    sizes = list(lay.in_dims.values())
    for x in range(lay.total_in_size):
        ins, rest = {}, x
        for d, s in zip(lay.in_dims, sizes):  # first in dim in the low bits
            ins[d] = rest % s
            rest //= s
        assert tuple(table[x]) == tuple(lay.apply(ins).values())
    flat = lay.apply_all_flat()
    assert list(flat) == [lay.apply_flat(x) for x in range(lay.total_in_size)]


def test_apply_all_of_empty_layout() -> None:
    assert LL.empty().apply_all().shape == (1, 0)


# ------------------------------------------------------------------ queries
def test_free_variable_masks_triton() -> None:
    # LinearLayoutTest: id2 * zeros4 * id4 * zeros2 -> 0b100110
    lay = (
        LL.identity_1d(2, "in", "out")
        * LL.zeros_1d(4, "in", "out")
        * LL.identity_1d(4, "in", "out")
        * LL.zeros_1d(2, "in", "out")
    )
    assert lay.bases == {"in": [(1,), (0,), (0,), (2,), (4,), (0,)]}
    assert lay.free_variable_masks() == {"in": 0b100110}


def test_free_variable_masks_multi_dim() -> None:
    # a dependent column is free even if non-zero: lane's basis equals reg's.
    lay = ll({"reg": [[1], [2]], "lane": [[1], [0]], "warp": []}, {"o": 4})
    assert lay.free_variable_masks() == {"reg": 0, "lane": 0b11, "warp": 0}


@pytest.mark.parametrize(
    "bases, expected",
    [
        ([[1], [2], [4], [9]], 1),  # LinearLayoutTest
        ([[1], [2], [4], [10]], 2),  # LinearLayoutTest
        ([[1], [2], [4], [8]], 16),
        ([[2], [1]], 1),
        ([[1], [4], [2]], 2),
    ],
)
def test_num_consecutive_in_out(bases: list, expected: int) -> None:
    size = 1 << len(bases)
    assert ll({"i": bases}, {"o": size}).num_consecutive_in_out() == expected


def test_num_consecutive_in_out_other_dims() -> None:
    # the second in dim's first-out component 4 limits the run to 4
    lay = ll({"reg": [[1, 0], [2, 0], [4, 0]], "lane": [[4, 1]]}, {"o": 8, "p": 2})
    assert lay.num_consecutive_in_out() == 4
    # a basis with a non-zero second component ends the run
    lay = ll({"reg": [[1, 0], [2, 1]]}, {"o": 4, "p": 2})
    assert lay.num_consecutive_in_out() == 2
    assert LL.empty().num_consecutive_in_out() == 1


def test_injective_surjective_invertible() -> None:
    perm = ll({"i": [[2], [1]]}, {"o": 4})
    assert perm.is_injective() and perm.is_surjective() and perm.is_invertible()
    bcast = ll({"i": [[1], [0]]}, {"o": 2})
    assert not bcast.is_injective() and bcast.is_surjective() and not bcast.is_invertible()
    sparse = ll({"i": [[2]]}, {"o": 4})
    assert sparse.is_injective() and not sparse.is_surjective()
    assert not sparse.is_invertible()
    dup = ll({"i": [[3], [3]]}, {"o": 4})
    assert dup.rank == 1
    assert not dup.is_injective() and not dup.is_surjective()
    assert LL.empty().is_invertible()


# ----------------------------------------------------------- equality, text
def test_equality_and_hash() -> None:
    a = ll({"i": [[1], [2]]}, {"o": 4})
    b = LL.identity_1d(4, "i", "o")
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    assert a != ll({"i": [[1], [2]]}, {"o": 8})  # out size differs
    assert a.equal_ignoring_out_dim_sizes(ll({"i": [[1], [2]]}, {"o": 8}))
    assert a != ll({"i": [[2], [1]]}, {"o": 4})
    assert a != LL.identity_1d(4, "j", "o")
    ab = LL.identity_1d(2, "a", "o") * LL.identity_1d(2, "b", "o")
    ba = ab.transpose_ins(["b", "a"])
    assert ab != ba  # dim order is part of the value
    assert (a == 3) is False


def test_str_exact() -> None:
    lay = ll(
        {"register": [[0, 1], [8, 0]], "lane": [[0, 2]], "block": []},
        {"dim0": 16, "dim1": 16},
    )
    assert str(lay) == (
        "\n"
        " - register=1 -> (0, 1)\n"
        "   register=2 -> (8, 0)\n"
        " - lane=1 -> (0, 2)\n"
        " - block is a size 1 dimension\n"
        "where out dims are: [dim0 (size 16), dim1 (size 16)]"
    )


def test_str_empty_forms() -> None:
    assert str(LL.empty()) == "\n(empty layout)"
    assert str(ll({}, {"x": 4})) == "\n(empty layout with out-dims [x (size 4)])"
    assert str(ll({"r": []}, {"x": 4})) == (
        "\n - r is a size 1 dimension\nwhere out dims are: [x (size 4)]"
    )


def test_repr_round_trips() -> None:
    lay = ll({"reg": [[1, 0]], "lane": []}, {"p": 2, "q": 1})
    assert eval(repr(lay), {"LinearLayout": LL}) == lay


def test_to_json() -> None:
    lay = ll({"reg": [[1, 0]], "lane": []}, {"p": 2, "q": 1})
    assert lay.to_json() == {
        "in_dims": {"reg": [[1, 0]], "lane": []},
        "out_dims": {"p": 2, "q": 1},
    }


def test_as_map_helper_agrees_with_compose() -> None:
    """compose is function composition (checked exhaustively on a small case)."""
    inner = ll({"i": [[3, 0], [1, 1]], "j": [[2, 1]]}, {"p": 4, "q": 2})
    outer = ll({"p": [[1, 2], [0, 1]], "q": [[4, 0]]}, {"x": 8, "y": 4})
    composed = as_map(inner.compose(outer))
    inner_map, outer_map = as_map(inner), as_map(outer)
    assert composed == {x: outer_map[y] for x, y in inner_map.items()}


def test_flat_columns_by_in_dim_slices_flat_columns():
    ll = LinearLayout.from_bases(
        {"register": [[0, 1], [2, 0]], "lane": [[1, 0]], "warp": []}, {"dim0": 4, "dim1": 2}
    )
    # Flat out index: dim0 in bits 0-1, dim1 in bit 2.
    assert ll.flat_columns_by_in_dim() == {"register": (4, 2), "lane": (1,), "warp": ()}
