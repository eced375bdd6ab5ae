"""Linear layouts: linear maps over F2 from hardware index bits to tensor index bits.

A ``LinearLayout`` L has ordered input dims ``name -> size`` and ordered output
dims ``name -> size``, all powers of two. For every input dim d and bit i it
stores one *basis* ``bases[d][i] = L(d = 2**i, every other dim 0)``, a tuple with
one int per output dim. L is linear over F2::

    L(x) = XOR of bases[d][i] over every (d, i) with bit i of x[d] set.

Dims are listed minor to major; the order only matters for reshapes and
flattening (the first dim takes the low bits). In matrix form the rows are the
output bits (output dims concatenated, first dim in the low bits) and the
columns the input bits, so L is at most 64 x 64 in practice.

The semantics of every operation are Triton 3.9's ``LinearLayout``
(``include/triton/Tools/LinearLayout.h``); names are the snake_case of
Triton's. Values are immutable and hashable; rank and RREF-derived facts are
computed once per value.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Union

from ltc import f2

if TYPE_CHECKING:
    import numpy as np

Basis = tuple[int, ...]
BasesInput = Mapping[str, Sequence[Sequence[int]]]
OutDimsInput = Union[Mapping[str, int], Sequence[str]]


class LayoutError(ValueError):
    """An operation was given layouts it is not defined for."""


def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _log2(n: int) -> int:
    return n.bit_length() - 1


def _next_pow2_above(x: int) -> int:
    """Smallest power of two strictly greater than ``x`` (llvm::NextPowerOf2)."""
    return 1 << x.bit_length()


def supremum(x: Sequence[str], y: Sequence[str]) -> list[str]:
    """Order-preserving merge of two dim-name lists (Triton's ``supremum``).

    Walks both lists; a name only one list has is taken as soon as it comes
    up, and between two shared names the one whose position in the other list
    comes first is taken first (ties favour ``x``). When the lists order their
    shared names differently there is no true supremum; like Triton's release
    build we still return this merge rather than fail.
    """
    if list(x) == list(y):
        return list(x)
    if not set(x) & set(y):
        return [*x, *y]
    pos_x = {d: k for k, d in enumerate(x)}
    pos_y = {d: k for k, d in enumerate(y)}
    result: list[str] = []
    seen: set[str] = set()
    i = j = 0
    nx, ny = len(x), len(y)
    while i < nx or j < ny:
        while i < nx and x[i] in seen:
            i += 1
        while j < ny and y[j] in seen:
            j += 1
        if i >= nx and j >= ny:
            break
        if i < nx and j < ny and x[i] == y[j]:
            pick_x = True
        else:
            cand_x = pos_y[x[i]] if i < nx and pos_y.get(x[i], -1) >= j else None
            cand_y = pos_x[y[j]] if j < ny and pos_x.get(y[j], -1) >= i else None
            if i < nx and cand_x is None:
                pick_x = True
            elif j < ny and cand_y is None:
                pick_x = False
            else:
                pick_x = cand_x <= cand_y  # type: ignore[operator]
        if pick_x:
            result.append(x[i])
            seen.add(x[i])
            i += 1
        else:
            result.append(y[j])
            seen.add(y[j])
            j += 1
    return result


class LinearLayout:
    """A linear map over F2 between named, power-of-two sized index spaces."""

    __slots__ = ("_bases", "_out", "__dict__")

    def __init__(
        self,
        bases: Iterable[tuple[str, Iterable[Iterable[int]]]],
        out_dims: Iterable[tuple[str, int]],
        *,
        require_surjective: bool = False,
    ) -> None:
        """Build from ``[(in_dim, [basis, ...]), ...]`` and ``[(out_dim, size), ...]``.

        Checks Triton's invariants: bases are non-negative, have one component
        per out dim, each below its out dim's size; sizes are powers of two.
        """
        out = tuple((str(n), int(s)) for n, s in out_dims)
        in_bases = tuple(
            (str(d), tuple(tuple(int(c) for c in b) for b in bs)) for d, bs in bases
        )
        names = [n for n, _ in out]
        if len(set(names)) != len(names):
            raise LayoutError(f"duplicate out dims: {names}")
        in_names = [d for d, _ in in_bases]
        if len(set(in_names)) != len(in_names):
            raise LayoutError(f"duplicate in dims: {in_names}")
        for n, s in out:
            if not _is_pow2(s):
                raise LayoutError(
                    f"out dim '{n}' has size {s}; out-dim sizes must be powers of 2"
                )
        for d, bs in in_bases:
            for b in bs:
                if len(b) != len(out):
                    raise LayoutError(
                        f"basis {list(b)} of in dim '{d}' has {len(b)} components, "
                        f"expected one per out dim ({len(out)})"
                    )
                for c, (n, s) in zip(b, out):
                    if c < 0 or c >= s:
                        raise LayoutError(
                            f"basis component {c} of in dim '{d}' for out dim "
                            f"'{n}' must be in [0, {s})"
                        )
        self._bases = in_bases
        self._out = out
        if require_surjective and not self.is_surjective():
            raise LayoutError(
                "layout is expected to be surjective but is not:" + str(self)
            )

    @classmethod
    def _make(
        cls, bases: tuple[tuple[str, tuple[Basis, ...]], ...], out: tuple[tuple[str, int], ...]
    ) -> LinearLayout:
        """Trusted constructor: the caller guarantees the invariants."""
        self = object.__new__(cls)
        self._bases = bases
        self._out = out
        return self

    # ----------------------------------------------------------- constructors
    @classmethod
    def from_bases(
        cls,
        bases: BasesInput,
        out_dims: OutDimsInput,
        require_surjective: bool = False,
    ) -> LinearLayout:
        """``bases = {in_dim: [[int per out dim], ...]}``; ``out_dims`` is either
        ``{name: size}`` or a list of names whose sizes are inferred as Triton
        infers them (each the smallest power of two strictly above every basis
        component; the layout must then be surjective).
        """
        if isinstance(out_dims, Mapping):
            return cls(
                bases.items(), out_dims.items(), require_surjective=require_surjective
            )
        names = list(out_dims)
        sizes = dict.fromkeys(names, 1)
        for d, bs in bases.items():
            for b in bs:
                if len(b) != len(names):
                    raise LayoutError(
                        f"basis {list(b)} of in dim '{d}' has {len(b)} components, "
                        f"expected {len(names)}"
                    )
                for n, c in zip(names, b):
                    sizes[n] = max(sizes[n], _next_pow2_above(int(c)))
        return cls(bases.items(), sizes.items(), require_surjective=True)

    @classmethod
    def empty(cls) -> LinearLayout:
        """The layout with no dims: the unit of ``*``."""
        return cls((), ())

    @classmethod
    def identity_1d(cls, size: int, in_dim: str, out_dim: str) -> LinearLayout:
        """``L(x) = x`` for x < size."""
        if size == 0:
            return cls.empty()
        _check_pow2(size)
        return cls._make(((in_dim, tuple((1 << i,) for i in range(_log2(size)))),), ((out_dim, size),))

    @classmethod
    def strided_1d(
        cls, size: int, stride: int, in_dim: str, out_dim: str
    ) -> LinearLayout:
        """``L(x) = stride * x`` for x < size; out size is stride * size."""
        if size == 0:
            return cls.empty()
        _check_pow2(size)
        _check_pow2(stride)
        return cls._make(
            ((in_dim, tuple((stride << i,) for i in range(_log2(size)))),), ((out_dim, stride * size),)
        )

    @classmethod
    def zeros_1d(
        cls, size: int, in_dim: str, out_dim: str, out_size: int = 1
    ) -> LinearLayout:
        """``L(x) = 0`` for x < size (a broadcast over ``in_dim``)."""
        if size == 0:
            return cls.empty()
        _check_pow2(size)
        _check_pow2(out_size)
        return cls._make(((in_dim, ((0,),) * _log2(size)),), ((out_dim, out_size),))

    # -------------------------------------------------------------- accessors
    @property
    def bases(self) -> dict[str, list[Basis]]:
        """``{in_dim: [basis tuple, ...]}`` in in-dim order."""
        return {d: list(bs) for d, bs in self._bases}

    @property
    def out_dims(self) -> dict[str, int]:
        """``{out_dim: size}`` in out-dim order."""
        return dict(self._out)

    @property
    def in_dims(self) -> dict[str, int]:
        """``{in_dim: size}`` in in-dim order."""
        return {d: 1 << len(bs) for d, bs in self._bases}

    @property
    def in_dim_names(self) -> list[str]:
        return [d for d, _ in self._bases]

    @property
    def out_dim_names(self) -> list[str]:
        return [n for n, _ in self._out]

    @property
    def num_in_dims(self) -> int:
        return len(self._bases)

    @property
    def num_out_dims(self) -> int:
        return len(self._out)

    def has_in_dim(self, dim: str) -> bool:
        return dim in self._in_index

    def has_out_dim(self, dim: str) -> bool:
        return dim in self._out_index

    def in_dim_size(self, dim: str) -> int:
        return 1 << len(self._in_bases(dim))

    def in_dim_size_log2(self, dim: str) -> int:
        return len(self._in_bases(dim))

    def out_dim_size(self, dim: str) -> int:
        return self._out[self._out_position(dim)][1]

    def out_dim_size_log2(self, dim: str) -> int:
        return _log2(self.out_dim_size(dim))

    def basis(self, in_dim: str, i: int, out_dim: str) -> int:
        """Component ``out_dim`` of ``L(in_dim = 2**i)``."""
        return self._in_bases(in_dim)[i][self._out_position(out_dim)]

    @property
    def total_in_size(self) -> int:
        return 1 << self.total_in_size_log2

    @property
    def total_out_size(self) -> int:
        return 1 << self.total_out_size_log2

    @property
    def total_in_size_log2(self) -> int:
        return sum(len(bs) for _, bs in self._bases)

    @property
    def total_out_size_log2(self) -> int:
        return sum(_log2(s) for _, s in self._out)

    @cached_property
    def _in_index(self) -> dict[str, int]:
        return {d: i for i, (d, _) in enumerate(self._bases)}

    @cached_property
    def _out_index(self) -> dict[str, int]:
        return {n: i for i, (n, _) in enumerate(self._out)}

    def _in_bases(self, dim: str) -> tuple[Basis, ...]:
        try:
            return self._bases[self._in_index[dim]][1]
        except KeyError:
            raise LayoutError(
                f"in dim '{dim}' is not in layout (in dims: {self.in_dim_names})"
            ) from None

    def _out_position(self, dim: str) -> int:
        try:
            return self._out_index[dim]
        except KeyError:
            raise LayoutError(
                f"out dim '{dim}' is not in layout (out dims: {self.out_dim_names})"
            ) from None

    # ------------------------------------------------------- flat bit vectors
    @cached_property
    def _out_shifts(self) -> tuple[int, ...]:
        shifts, s = [], 0
        for _, size in self._out:
            shifts.append(s)
            s += _log2(size)
        return tuple(shifts)

    def _flatten_basis(self, b: Basis) -> int:
        v = 0
        for c, sh in zip(b, self._out_shifts):
            v |= c << sh
        return v

    @cached_property
    def _out_fields(self) -> tuple[tuple[int, int], ...]:
        """(shift, mask) of each out dim inside a flat out index."""
        return tuple((sh, size - 1) for sh, (_, size) in zip(self._out_shifts, self._out))

    def _unflatten(self, v: int) -> Basis:
        return tuple([(v >> sh) & m for sh, m in self._out_fields])

    @cached_property
    def _in_starts(self) -> dict[str, int]:
        """Index of each in dim's first column among ``flat_columns``."""
        starts, k = {}, 0
        for d, bs in self._bases:
            starts[d] = k
            k += len(bs)
        return starts

    @cached_property
    def flat_columns(self) -> tuple[int, ...]:
        """Every basis flattened to one int (the matrix's columns, in order)."""
        return tuple(self._flatten_basis(b) for _, bs in self._bases for b in bs)

    def flat_columns_by_in_dim(self) -> dict[str, tuple[int, ...]]:
        """Per in dim, its slice of :attr:`flat_columns` (flat out indices, first out dim lowest)."""
        out, c = {}, 0
        cols = self.flat_columns
        for d, bs in self._bases:
            out[d] = cols[c : c + len(bs)]
            c += len(bs)
        return out

    @cached_property
    def _echelon(self) -> f2.ColumnEchelon:
        """The matrix's columns in echelon form: rank and pivot columns."""
        return f2.column_echelon(self.flat_columns)

    @property
    def rank(self) -> int:
        """Rank of the layout's matrix over F2."""
        return self._echelon.rank

    # ---------------------------------------------------------------- queries
    def is_surjective(self) -> bool:
        return self.rank == self.total_out_size_log2

    def is_injective(self) -> bool:
        return self.rank == self.total_in_size_log2

    def is_invertible(self) -> bool:
        return self.is_surjective() and self.total_in_size == self.total_out_size

    def apply(self, ins: Mapping[str, int]) -> dict[str, int]:
        """Evaluate the layout: ``{in_dim: value}`` (every in dim) -> ``{out_dim: value}``."""
        cols = self.flat_columns
        v = c = 0
        try:
            for d, bs in self._bases:
                x = ins[d]
                if x < 0 or x >> len(bs):
                    raise LayoutError(
                        f"value {x} out of range for in dim '{d}' of size {1 << len(bs)}"
                    )
                while x:
                    low = x & -x
                    v ^= cols[c + low.bit_length() - 1]
                    x ^= low
                c += len(bs)
        except KeyError:
            v = -1
        if v < 0 or len(ins) != len(self._bases):
            raise LayoutError(
                f"apply needs exactly the in dims {self.in_dim_names}, got {list(ins)}"
            )
        return {n: (v >> sh) & m for n, (sh, m) in zip(self._out_index, self._out_fields)}

    def apply_flat(self, x: int) -> int:
        """Evaluate on a flat input index (first in dim in the low bits),
        returning the flat output index (first out dim in the low bits)."""
        v = 0
        for col in self.flat_columns:
            if x & 1:
                v ^= col
            x >>= 1
        return v

    def apply_all_flat(self) -> np.ndarray:
        """``table[x] = apply_flat(x)`` for every flat input index, as int64."""
        import numpy as np  # only the table needs it: reading IR does not load numpy

        table = np.zeros(1, dtype=np.int64)
        for col in self.flat_columns:
            table = np.concatenate([table, table ^ col])
        return table

    def apply_all(self) -> np.ndarray:
        """Table over the whole input domain: ``t[x, k]`` is out dim k of
        L(x), x the flat input index (first in dim in the low bits)."""
        import numpy as np  # see apply_all_flat

        flat = self.apply_all_flat()
        out = np.empty((flat.shape[0], len(self._out)), dtype=np.int64)
        for k, (sh, (_, size)) in enumerate(zip(self._out_shifts, self._out)):
            out[:, k] = (flat >> sh) & (size - 1)
        return out

    def free_variable_masks(self) -> dict[str, int]:
        """Per in dim, a mask of the input bits that are free variables (the
        non-pivot columns of the RREF): bits that only broadcast."""
        pivots = self._echelon.pivot_mask
        out, c = {}, 0
        for d, bs in self._bases:
            k = len(bs)
            out[d] = ~(pivots >> c) & ((1 << k) - 1)
            c += k
        return out

    def num_consecutive_in_out(self) -> int:
        """How many consecutive inputs of the first in dim map to consecutive
        outputs of the first out dim, as Triton computes it."""
        if not self._bases or not self._out:
            return 1
        first_dim, first = self._bases[0]
        consec = 0
        while consec < len(first):
            b = first[consec]
            if b[0] != 1 << consec or any(b[1:]):
                break
            consec += 1
        other = 0
        for d, bs in self._bases:
            for i, b in enumerate(bs):
                if d != first_dim or i >= consec:
                    other |= b[0]
        tz = f2.lowest_bit(other) if other else 31
        return 1 << min(consec, tz)

    def sublayout_is_zero(self, ins: Sequence[str], outs: Sequence[str]) -> bool:
        sub = self.sublayout(ins, outs)
        return not any(any(b) for _, bs in sub._bases for b in bs)

    def square_sublayout_is_identity(self, dims: Sequence[str]) -> bool:
        """Whether the sub-map dims -> dims is the identity (sizes equal)."""
        if not dims:
            return True
        for d in dims:
            if self.in_dim_size(d) != self.out_dim_size(d):
                return False
        sub = self.sublayout(dims, dims).flatten_ins().flatten_outs()
        return all(b[0] == 1 << i for i, b in enumerate(sub._bases[0][1]))

    def is_trivial_over(self, dims: Sequence[str]) -> bool:
        """True when L acts as the identity on ``dims``: dims -> dims is the
        identity, other inputs never reach ``dims`` and ``dims`` never reach
        other outputs."""
        for d in dims:
            if not self.has_in_dim(d) and not self.has_out_dim(d):
                return False
        rest_in = [d for d in self.in_dim_names if d not in dims]
        rest_out = [d for d in self.out_dim_names if d not in dims]
        return (
            self.square_sublayout_is_identity(dims)
            and self.sublayout_is_zero(rest_in, dims)
            and self.sublayout_is_zero(dims, rest_out)
        )

    def quotient(self, dims: Sequence[str]) -> LinearLayout | None:
        """The layout with ``dims`` removed, if it is trivial over them."""
        if not self.is_trivial_over(dims):
            return None
        return self.sublayout(
            [d for d in self.in_dim_names if d not in dims],
            [d for d in self.out_dim_names if d not in dims],
        )

    # ------------------------------------------------------------- reshaping
    def sublayout(self, ins: Sequence[str], outs: Sequence[str]) -> LinearLayout:
        """Keep the in dims ``ins`` and out dims ``outs`` (layout order kept;
        out sizes unchanged)."""
        ins = _as_names(ins)
        outs = _as_names(outs)
        for d in ins:
            self._in_bases(d)
        for d in outs:
            self._out_position(d)
        keep = [i for i, (n, _) in enumerate(self._out) if n in outs]
        return LinearLayout._make(
            tuple((d, tuple(tuple(b[i] for i in keep) for b in bs)) for d, bs in self._bases if d in ins),
            tuple(self._out[i] for i in keep),
        )

    def transpose_ins(self, order: Sequence[str]) -> LinearLayout:
        """Reorder the in dims."""
        _check_same_names(order, self.in_dim_names, "in")
        return LinearLayout._make(tuple((d, self._in_bases(d)) for d in order), self._out)

    def transpose_outs(self, order: Sequence[str]) -> LinearLayout:
        """Reorder the out dims, permuting every basis's components."""
        _check_same_names(order, self.out_dim_names, "out")
        perm = [self._out_index[n] for n in order]
        return LinearLayout._make(
            tuple((d, tuple(tuple(b[p] for p in perm) for b in bs)) for d, bs in self._bases),
            tuple(self._out[p] for p in perm),
        )

    def reshape_ins(self, new_in_dims: Sequence[tuple[str, int]] | Mapping[str, int]) -> LinearLayout:
        """Concatenate every basis in in-dim order and re-split by the new sizes."""
        new = _as_pairs(new_in_dims)
        for _, s in new:
            _check_pow2(s)
        total = 1
        for _, s in new:
            total *= s
        if total != self.total_in_size:
            raise LayoutError(
                f"reshape_ins: total size {total} != layout's in size {self.total_in_size}"
            )
        flat = [b for _, bs in self._bases for b in bs]
        out, i = [], 0
        for d, s in new:
            k = _log2(s)
            out.append((d, tuple(flat[i : i + k])))
            i += k
        return LinearLayout._make(tuple(out), self._out)

    def reshape_outs(self, new_out_dims: Sequence[tuple[str, int]] | Mapping[str, int]) -> LinearLayout:
        """Flatten every basis to one int (first out dim low) and split it by
        the new sizes."""
        new = _as_pairs(new_out_dims)
        for _, s in new:
            _check_pow2(s)
        total = 1
        for _, s in new:
            total *= s
        if total != self.total_out_size:
            raise LayoutError(
                f"reshape_outs: total size {total} != layout's out size {self.total_out_size}"
            )
        shifts, sh = [], 0
        for _, s in new:
            shifts.append(sh)
            sh += _log2(s)

        def split(v: int) -> Basis:
            return tuple((v >> t) & (s - 1) for t, (_, s) in zip(shifts, new))

        return LinearLayout._make(
            tuple((d, tuple(split(self._flatten_basis(b)) for b in bs)) for d, bs in self._bases),
            tuple(new),
        )

    def flatten_ins(self) -> LinearLayout:
        """One in dim, named after the first, of the total in size."""
        if not self._bases:
            return self
        return self.reshape_ins([(self._bases[0][0], self.total_in_size)])

    def flatten_outs(self) -> LinearLayout:
        """One out dim, named after the first, of the total out size."""
        if not self._out:
            return self
        return self.reshape_outs([(self._out[0][0], self.total_out_size)])

    def squeeze_ins(self, dim: str) -> LinearLayout:
        if self.in_dim_size(dim) != 1:
            raise LayoutError(f"squeeze_ins: in dim '{dim}' has size {self.in_dim_size(dim)}")
        return LinearLayout([(d, bs) for d, bs in self._bases if d != dim], self._out)

    def squeeze_outs(self, dim: str) -> LinearLayout:
        if self.out_dim_size(dim) != 1:
            raise LayoutError(f"squeeze_outs: out dim '{dim}' has size {self.out_dim_size(dim)}")
        return self.reshape_outs([(n, s) for n, s in self._out if n != dim])

    def resize_in_dim(self, dim: str, new_size: int) -> LinearLayout:
        """Truncate the bases of ``dim`` or pad them with zero bases."""
        _check_pow2(new_size)
        bs = list(self._in_bases(dim))
        k = _log2(new_size)
        bs = bs[:k] + [(0,) * len(self._out)] * (k - len(bs))
        return LinearLayout([(d, bs if d == dim else b) for d, b in self._bases], self._out)

    def resize_out_dim(self, dim: str, new_size: int) -> LinearLayout:
        """Change the size of out dim ``dim``; when it shrinks, components at
        or above the new size become zero (a broadcast)."""
        _check_pow2(new_size)
        p = self._out_position(dim)

        def fix(b: Basis) -> Basis:
            if b[p] < new_size:
                return b
            return b[:p] + (0,) + b[p + 1 :]

        return LinearLayout(
            [(d, [fix(b) for b in bs]) for d, bs in self._bases],
            [(n, new_size if n == dim else s) for n, s in self._out],
        )

    def remove_zero_bases_along_dim(self, dim: str) -> LinearLayout:
        """Drop the all-zero bases of in dim ``dim``."""
        self._in_bases(dim)
        return LinearLayout(
            [(d, [b for b in bs if any(b)] if d == dim else bs) for d, bs in self._bases],
            self._out,
        )

    def concat_ins(self, other: LinearLayout) -> LinearLayout:
        """Put the in dims of ``other`` (same out dims, disjoint in dims) after ours."""
        if self._out != other._out:
            raise LayoutError("concat_ins needs layouts with the same out dims")
        if set(self._in_index) & set(other._in_index):
            raise LayoutError("concat_ins needs disjoint in dims")
        return LinearLayout(self._bases + other._bases, self._out)

    def concat_outs(self, other: LinearLayout) -> LinearLayout:
        """Put the out dims of ``other`` (same in dims and sizes) after ours."""
        if self.in_dims != other.in_dims:
            raise LayoutError("concat_outs needs layouts with the same in dims and sizes")
        if set(self._out_index) & set(other._out_index):
            raise LayoutError("concat_outs needs disjoint out dims")
        return LinearLayout(
            [(d, [a + b for a, b in zip(bs, other._in_bases(d))]) for d, bs in self._bases],
            self._out + other._out,
        )

    # ----------------------------------------------------------- the algebra
    def __mul__(self, outer: LinearLayout) -> LinearLayout:
        """Direct product: ``self`` is the minor (inner) factor.

        In and out dims are merged in order; for every shared out dim ``self``
        takes the low bits and ``outer``'s bases are shifted above them.
        """
        if not isinstance(outer, LinearLayout):
            return NotImplemented
        inner = self
        in_names = supremum([d for d, _ in inner._bases], [d for d, _ in outer._bases])
        out_names = supremum([n for n, _ in inner._out], [n for n, _ in outer._out])
        pos = {n: k for k, n in enumerate(out_names)}
        inner_out = dict(inner._out)
        out_log2 = dict.fromkeys(out_names, 0)
        for n, size in inner._out:
            out_log2[n] += _log2(size)
        for n, size in outer._out:
            out_log2[n] += _log2(size)
        # Where each factor's out components go; outer's shift above inner's.
        place_inner = [pos[n] for n, _ in inner._out]
        place_outer = [
            (pos[n], _log2(inner_out[n]) if n in inner_out else 0) for n, _ in outer._out
        ]
        inner_bases = dict(inner._bases)
        outer_bases = dict(outer._bases)
        zero = [0] * len(out_names)
        new_bases = []
        for d in in_names:
            rows: list[tuple[int, ...]] = []
            for b in inner_bases.get(d, ()):
                row = zero.copy()
                for p, c in zip(place_inner, b):
                    row[p] = c
                rows.append(tuple(row))
            for b in outer_bases.get(d, ()):
                row = zero.copy()
                for (p, sh), c in zip(place_outer, b):
                    row[p] = c << sh
                rows.append(tuple(row))
            new_bases.append((d, tuple(rows)))
        return LinearLayout._make(tuple(new_bases), tuple((n, 1 << out_log2[n]) for n in out_names))

    def compose(self, outer: LinearLayout) -> LinearLayout:
        """``outer ∘ self``: apply ``outer`` to every basis of ``self``.

        Needs out dims of ``self`` == in dims of ``outer`` (any order), each no
        larger than ``outer``'s.
        """
        _check_same_names(self.out_dim_names, outer.in_dim_names, "compose: out/in")
        for n, s in self._out:
            if s > outer.in_dim_size(n):
                raise LayoutError(
                    f"compose: out dim '{n}' has size {s} > outer in size {outer.in_dim_size(n)}"
                )
        # Column of `outer` for each of our flat out bits, keyed by the bit.
        outer_cols = outer.flat_columns
        start = outer._in_starts
        by_bit, bit = {}, 1
        for n, size in self._out:
            k = start[n]
            for i in range(_log2(size)):
                by_bit[bit] = outer_cols[k + i]
                bit <<= 1
        fields = outer._out_fields
        mine = iter(self.flat_columns)
        new_bases = []
        for d, bs in self._bases:
            rows = []
            for _ in bs:
                x, v = next(mine), 0
                while x:
                    low = x & -x
                    v ^= by_bit[low]
                    x ^= low
                rows.append(tuple([(v >> sh) & m for sh, m in fields]))
            new_bases.append((d, tuple(rows)))
        return LinearLayout._make(tuple(new_bases), outer._out)

    def invert_and_compose(self, outer: LinearLayout) -> LinearLayout:
        """C with ``outer(C(x)) == self(x)`` for every x.

        In dims present in both whose sublayouts (that in dim -> all out dims)
        are equal map by the identity. The rest is the minimum-norm solution of
        the F2 least-squares system outer·C = self: free variables are zero,
        so data broadcast in ``outer`` collapses onto one source. C has in dims
        = ours and out dims = ``outer``'s in dims (with ``outer``'s sizes); it
        may be non-surjective.
        """
        _check_same_names(self.out_dim_names, outer.out_dim_names, "invert_and_compose: out")
        for n, s in self._out:
            if outer.out_dim_size(n) < s:
                raise LayoutError(
                    f"invert_and_compose: out dim '{n}' of size {s} exceeds the "
                    f"outer layout's {outer.out_dim_size(n)}"
                )
        # Work in outer's flat out-bit numbering; our components fit since
        # each of our out dims is no larger than outer's.
        shifts = [outer._out_shifts[outer._out_index[n]] for n, _ in self._out]
        mine = {
            d: [sum(c << sh for c, sh in zip(b, shifts)) for b in bs] for d, bs in self._bases
        }
        theirs = {}
        col = 0
        for d, bs in outer._bases:
            theirs[d] = outer.flat_columns[col : col + len(bs)]
            col += len(bs)
        # A shared in dim maps by the identity when both layouts give it the
        # same bases and no other in dim (of either layout) touches the output
        # bits it spans; otherwise the identity could clash with the solution.
        touched = {d: _or_all(cols) for d, cols in theirs.items()}
        touched_mine = {d: _or_all(cols) for d, cols in mine.items()}
        identity = set()
        for d in theirs:
            if d not in mine or list(theirs[d]) != mine[d]:
                continue
            others = _or_all(m for e, m in touched.items() if e != d)
            others |= _or_all(m for e, m in touched_mine.items() if e != d)
            if touched[d] & others == 0:
                identity.add(d)
        a_rest = [d for d, _ in outer._bases if d not in identity]
        b_rest = [d for d, _ in self._bases if d not in identity]
        a_cols = [c for d in a_rest for c in theirs[d]]
        b_cols = [c for d in b_rest for c in mine[d]]
        x = f2.solve_min_norm(a_cols, b_cols)
        if x is None:
            raise LayoutError(
                "invert_and_compose: the image of the layout is not contained in the "
                "image of the outer layout"
            )
        # Bit k of a solution names the k-th column of a_rest: (dim, bit).
        owners = [(d, i) for d in a_rest for i in range(len(theirs[d]))]
        out_pos = {d: k for k, (d, _) in enumerate(outer._bases)}
        n_out = len(outer._bases)
        solved = iter(x)
        new_bases = []
        for d, bs in self._bases:
            rows = []
            for i in range(len(bs)):
                row = [0] * n_out
                if d in identity:
                    row[out_pos[d]] = 1 << i
                else:
                    v, k = next(solved), 0
                    while v:
                        if v & 1:
                            od, bit = owners[k]
                            row[out_pos[od]] |= 1 << bit
                        v >>= 1
                        k += 1
                rows.append(tuple(row))
            new_bases.append((d, tuple(rows)))
        return LinearLayout._make(
            tuple(new_bases), tuple((d, 1 << len(bs)) for d, bs in outer._bases)
        )

    def pseudoinvert(self) -> LinearLayout:
        """Minimum-norm right inverse: ``identity(outs).invert_and_compose(self)``."""
        k = len(self._out)
        ident = LinearLayout._make(
            tuple(
                (n, tuple(tuple(1 << i if q == p else 0 for q in range(k)) for i in range(_log2(s))))
                for p, (n, s) in enumerate(self._out)
            ),
            self._out,
        )
        return ident.invert_and_compose(self)

    def invert(self) -> LinearLayout:
        """The inverse of an invertible layout."""
        if not self.is_invertible():
            raise LayoutError("invert: layout is not invertible (surjective and square)")
        return self.pseudoinvert()

    def divide_left(self, b: LinearLayout) -> LinearLayout | None:
        """C with ``b * C == self``, or None."""
        return _divide(self, b, left=True)

    def divide_right(self, b: LinearLayout) -> LinearLayout | None:
        """C with ``C * b == self``, or None."""
        return _divide(self, b, left=False)

    # ------------------------------------------------------- identity, text
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LinearLayout):
            return NotImplemented
        return self._bases == other._bases and self._out == other._out

    def equal_ignoring_out_dim_sizes(self, other: LinearLayout) -> bool:
        return self._bases == other._bases and self.out_dim_names == other.out_dim_names

    def __hash__(self) -> int:
        return hash((self._bases, self._out))

    def __str__(self) -> str:
        """Triton's ``LinearLayout::toString`` exactly."""
        outs = "[" + ", ".join(f"{n} (size {s})" for n, s in self._out) + "]"
        if not self._bases:
            if not self._out:
                return "\n(empty layout)"
            return f"\n(empty layout with out-dims {outs})"
        parts = ["\n"]
        for d, bs in self._bases:
            if not bs:
                parts.append(f" - {d} is a size 1 dimension\n")
                continue
            lines = [
                f"{d}={1 << i} -> ({', '.join(str(c) for c in b)})" for i, b in enumerate(bs)
            ]
            parts.append(" - " + "\n   ".join(lines) + "\n")
        parts.append("where out dims are: " + outs)
        return "".join(parts)

    def __repr__(self) -> str:
        return f"LinearLayout.from_bases({self.bases!r}, {self.out_dims!r})"

    def to_json(self) -> dict:
        """``{"in_dims": {in: [[...], ...]}, "out_dims": {out: size}}``."""
        return {
            "in_dims": {d: [list(b) for b in bs] for d, bs in self._bases},
            "out_dims": dict(self._out),
        }


# --------------------------------------------------------------------- helpers
def _or_all(values: Iterable[int]) -> int:
    acc = 0
    for v in values:
        acc |= v
    return acc


def _check_pow2(n: int) -> None:
    if not _is_pow2(n):
        raise LayoutError(f"size {n} is not a power of 2")


def _as_names(names: Sequence[str] | str) -> list[str]:
    return [names] if isinstance(names, str) else list(names)


def _as_pairs(dims: Sequence[tuple[str, int]] | Mapping[str, int]) -> list[tuple[str, int]]:
    if isinstance(dims, Mapping):
        return list(dims.items())
    return [(str(n), int(s)) for n, s in dims]


def _check_same_names(a: Sequence[str], b: Sequence[str], what: str) -> None:
    if sorted(a) != sorted(b):
        raise LayoutError(
            f"{what} dims must match ignoring order, got [{', '.join(a)}] and [{', '.join(b)}]"
        )


def _divide(a: LinearLayout, b: LinearLayout, *, left: bool) -> LinearLayout | None:
    """Shared body of divide_left (a = b * C) and divide_right (a = C * b)."""
    if not all(a.has_in_dim(d) for d in b.in_dim_names):
        return None
    if not all(a.has_out_dim(d) for d in b.out_dim_names):
        return None
    c_out = []
    for n, sa in a._out:
        sb = b.out_dim_size(n) if b.has_out_dim(n) else 1
        if sa % sb:
            return None
        c_out.append((n, sa // sb))
    c_size = dict(c_out)
    c_bases = []
    for d, abs_ in a._bases:
        in_b = b.in_dim_size_log2(d) if b.has_in_dim(d) else 0
        in_c = len(abs_) - in_b
        if in_c < 0:
            return None
        rows = []
        if left:
            # a's first in_b bases are b's (zero where b lacks the out dim);
            # the rest, divided by b's out sizes, are C's.
            for i in range(in_b):
                for n, _ in a._out:
                    want = b.basis(d, i, n) if b.has_out_dim(n) else 0
                    if abs_[i][a._out_index[n]] != want:
                        return None
            for i in range(in_b, len(abs_)):
                row = []
                for k, (n, _) in enumerate(a._out):
                    sb = b.out_dim_size(n) if b.has_out_dim(n) else 1
                    v = abs_[i][k]
                    if v % sb:
                        return None
                    row.append(v // sb)
                rows.append(row)
        else:
            # a's first in_c bases are C's; the rest are b's scaled by C's sizes.
            for i in range(in_c):
                rows.append(list(abs_[i]))
            for i in range(in_c, len(abs_)):
                for n in b.out_dim_names:
                    v = abs_[i][a._out_index[n]]
                    if v % c_size[n] or v // c_size[n] != b.basis(d, i - in_c, n):
                        return None
        c_bases.append((d, rows))
    try:
        c = LinearLayout(c_bases, c_out)
    except LayoutError:
        return None
    if (b * c if left else c * b) != a:
        return None
    return c
