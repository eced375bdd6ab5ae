"""Synthetic layout-free Triton IR (TTIR) modules of a chosen size, for the pass benchmarks.

    from synthetic_ir import synthetic_module
    text = synthetic_module(10_000, seed=0)

The module is a row of ``tt.func public`` kernels of a few hundred ops each, built from
the pieces real kernels are made of: 2-D and 1-D global loads (``make_range`` /
``expand_dims`` / ``broadcast`` offsets, ``splat`` + ``addptr`` pointers, some masked),
chains of elementwise ``arith`` / ``math`` ops, ``extf`` / ``truncf``, ``tt.reduce``
with a softmax-like expand-and-broadcast back, ``tt.trans``, ``tt.dot`` of f16 64x64
tiles, ``scf.for`` loops with tensor iter args (a pointer-advancing matmul loop and an
elementwise recurrence, nesting at most twice) and stores.  Values flow between pieces,
so layout choices interact; every value that nothing else uses is stored, so nothing
is dead.

The text parses with ltc's parser and Triton 3.9's.  It is deterministic in
``(n_ops, seed)``.  The op count (every operation except the ``builtin.module``: funcs,
returns, yields and reduce bodies included) is ``n_ops`` or slightly more: within 10%
from ``n_ops = 100`` on, within 1% from 1000 on.  :func:`count_ops` counts them in the text.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

SHAPES_2D: tuple[tuple[int, int], ...] = ((64, 64), (32, 64), (64, 32))
"""2-D tile shapes; 64x64 is also the ``tt.dot`` tile.  Reductions and ``tt.trans`` move between them."""

SIZES_1D: tuple[int, ...] = (32, 64, 256)

_FUNC_OPS = (150, 450)
"""Each kernel gets a random op budget in this range (the last one what is left)."""

_MAX_LOOP_DEPTH = 2

_BINARY_F = ("arith.addf", "arith.subf", "arith.mulf", "arith.maxnumf", "arith.minnumf", "arith.divf")
_UNARY_F32 = ("math.exp", "math.exp2", "math.sqrt", "math.log", "math.absf")


def _ttype(shape: tuple[int, ...], elem: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{elem}>"


def _ptr_type(shape: tuple[int, ...], elem: str) -> str:
    return _ttype(shape, f"!tt.ptr<{elem}>")


@dataclass(frozen=True)
class Value:
    """An SSA value of a ranked tensor (or scalar, ``shape == ()``) type."""

    name: str
    shape: tuple[int, ...]
    elem: str

    @property
    def type(self) -> str:
        return _ttype(self.shape, self.elem) if self.shape else self.elem


@dataclass
class _Scope:
    """One region being filled (a function body or a loop body)."""

    indent: str
    parent: _Scope | None = None
    values: list[Value] = field(default_factory=list)
    leaves: list[Value] = field(default_factory=list)
    """Values nothing uses yet; stored when the scope closes."""
    cache: dict[tuple, Value] = field(default_factory=dict)
    """Offsets, constants and splats made once per scope (visible in inner scopes too)."""

    @property
    def depth(self) -> int:
        return 0 if self.parent is None else 1 + self.parent.depth

    def lookup(self, key: tuple) -> Value | None:
        scope: _Scope | None = self
        while scope is not None:
            if key in scope.cache:
                return scope.cache[key]
            scope = scope.parent
        return None

    def visible(self) -> list[Value]:
        out: list[Value] = []
        scope: _Scope | None = self
        while scope is not None:
            out.extend(scope.values)
            scope = scope.parent
        return out


class _ModuleBuilder:
    """Emits the module's lines and counts its ops (see the module doc for what counts)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.lines: list[str] = []
        self.ops = 0
        self._next = 0
        self.scope = _Scope("    ")

    # -- plumbing -----------------------------------------------------------------------
    def fresh(self, stem: str = "v") -> str:
        self._next += 1
        return f"%{stem}{self._next}"

    def line(self, text: str, ops: int = 1) -> None:
        self.lines.append(self.scope.indent + text)
        self.ops += ops

    def define(self, text: str, shape: tuple[int, ...], elem: str, *, keep: bool = True) -> Value:
        """Emit ``%new = text``; ``keep`` values join the pool (and the leaves) of the scope."""
        v = Value(self.fresh(), shape, elem)
        self.line(f"{v.name} = {text}")
        if keep:
            self.scope.values.append(v)
            self.scope.leaves.append(v)
        return v

    def use(self, *values: Value) -> None:
        """Mark ``values`` as used (no longer leaves) wherever they were defined."""
        for v in values:
            scope: _Scope | None = self.scope
            while scope is not None:
                if v in scope.leaves:
                    scope.leaves.remove(v)
                scope = scope.parent

    def cached(self, key: tuple, make) -> Value:
        """The value ``make()`` emits, made once per scope chain (hoisted to where asked)."""
        found = self.scope.lookup(key)
        if found is None:
            found = make()
            self.scope.cache[key] = found
        return found

    def pick(self, shape: tuple[int, ...], elem: str) -> Value | None:
        """A visible pool value of this type, leaves preferred (keeps the pool connected)."""
        leaves = [v for v in self.scope.leaves if v.shape == shape and v.elem == elem]
        if leaves and self.rng.random() < 0.7:
            return self.rng.choice(leaves)
        pool = [v for v in self.scope.visible() if v.shape == shape and v.elem == elem]
        return self.rng.choice(pool) if pool else None

    # -- constants and offsets ------------------------------------------------------------
    def const_i32(self, n: int) -> Value:
        return self.cached(("i32", n), lambda: self.define(f"arith.constant {n} : i32", (), "i32", keep=False))

    def splat_const(self, shape: tuple[int, ...], elem: str, value: float) -> Value:
        text = f"{value:.6e}" if elem.startswith("f") else str(int(value))
        return self.cached(
            ("dense", shape, elem, text),
            lambda: self.define(f"arith.constant dense<{text}> : {_ttype(shape, elem)}", shape, elem, keep=False),
        )

    def splat(self, scalar: str, scalar_type: str, shape: tuple[int, ...], elem: str) -> Value:
        return self.cached(
            ("splat", scalar, shape),
            lambda: self.define(f"tt.splat {scalar} : {scalar_type} -> {_ttype(shape, elem)}", shape, elem, keep=False),
        )

    def make_range(self, n: int) -> Value:
        return self.cached(
            ("range", n),
            lambda: self.define(f"tt.make_range {{end = {n} : i32, start = 0 : i32}} : tensor<{n}xi32>", (n,), "i32",
                                keep=False),
        )

    def offsets(self, shape: tuple[int, ...]) -> Value:
        """Row-major element offsets of a tile: ``pid * size + arange`` (1-D), ``r * stride + c`` (2-D)."""

        def make() -> Value:
            if len(shape) == 1:
                (n,) = shape
                base = self.define(f"arith.muli %pid, {self.const_i32(n).name} : i32", (), "i32", keep=False)
                base_t = self.splat(base.name, "i32", shape, "i32")
                return self.define(f"arith.addi {base_t.name}, {self.make_range(n).name} : tensor<{n}xi32>",
                                   shape, "i32", keep=False)
            m, n = shape
            rows = self.define(f"tt.expand_dims {self.make_range(m).name} {{axis = 1 : i32}} : "
                               f"tensor<{m}xi32> -> tensor<{m}x1xi32>", (m, 1), "i32", keep=False)
            stride = self.splat("%stride", "i32", (m, 1), "i32")
            rows = self.define(f"arith.muli {rows.name}, {stride.name} : tensor<{m}x1xi32>", (m, 1), "i32", keep=False)
            rows = self.define(f"tt.broadcast {rows.name} : tensor<{m}x1xi32> -> tensor<{m}x{n}xi32>",
                               shape, "i32", keep=False)
            cols = self.define(f"tt.expand_dims {self.make_range(n).name} {{axis = 0 : i32}} : "
                               f"tensor<{n}xi32> -> tensor<1x{n}xi32>", (1, n), "i32", keep=False)
            cols = self.define(f"tt.broadcast {cols.name} : tensor<1x{n}xi32> -> tensor<{m}x{n}xi32>",
                               shape, "i32", keep=False)
            return self.define(f"arith.addi {rows.name}, {cols.name} : tensor<{m}x{n}xi32>", shape, "i32", keep=False)

        return self.cached(("offsets", shape), make)

    def pointers(self, arg: str, shape: tuple[int, ...], elem: str) -> Value:
        base = self.splat(arg, f"!tt.ptr<{elem}>", shape, f"!tt.ptr<{elem}>")
        return self.define(f"tt.addptr {base.name}, {self.offsets(shape).name} : "
                           f"{_ptr_type(shape, elem)}, {_ttype(shape, 'i32')}", shape, f"!tt.ptr<{elem}>", keep=False)

    def mask(self, shape: tuple[int, ...]) -> Value:
        def make() -> Value:
            bound = self.splat("%n", "i32", shape, "i32")
            return self.define(f"arith.cmpi slt, {self.offsets(shape).name}, {bound.name} : {_ttype(shape, 'i32')}",
                               shape, "i1", keep=False)

        return self.cached(("mask", shape), make)

    # -- the pieces ---------------------------------------------------------------------
    def load(self, shape: tuple[int, ...], elem: str) -> Value:
        ptrs = self.pointers(self.rng.choice((f"%in0_{elem}", f"%in1_{elem}")), shape, elem)
        if self.rng.random() < 0.3:
            other = self.splat_const(shape, elem, 0.0)
            return self.define(f"tt.load {ptrs.name}, {self.mask(shape).name}, {other.name} : "
                               f"{_ptr_type(shape, elem)}", shape, elem)
        return self.define(f"tt.load {ptrs.name} : {_ptr_type(shape, elem)}", shape, elem)

    def store(self, v: Value) -> None:
        ptrs = self.pointers(f"%out_{v.elem}", v.shape, v.elem)
        self.use(v)
        if self.rng.random() < 0.3:
            self.line(f"tt.store {ptrs.name}, {v.name}, {self.mask(v.shape).name} : {_ptr_type(v.shape, v.elem)}")
        else:
            self.line(f"tt.store {ptrs.name}, {v.name} : {_ptr_type(v.shape, v.elem)}")

    def operand(self, shape: tuple[int, ...], elem: str) -> Value:
        """A pool value of this type, else a fresh load (f16 from f32 through ``truncf`` now and then)."""
        v = self.pick(shape, elem)
        if v is not None and self.rng.random() < 0.8:
            return v
        if elem == "f16" and self.rng.random() < 0.5:
            return self.cast(self.operand(shape, "f32"), "f16")
        return self.load(shape, elem)

    def cast(self, v: Value, elem: str) -> Value:
        op = "arith.extf" if elem == "f32" else "arith.truncf"
        self.use(v)
        return self.define(f"{op} {v.name} : {v.type} to {_ttype(v.shape, elem)}", v.shape, elem)

    def elementwise_chain(self, length: int) -> Value:
        shape = self.rng.choice(SHAPES_2D + tuple((n,) for n in SIZES_1D))
        x = self.operand(shape, "f32")
        for _ in range(length):
            r = self.rng.random()
            if r < 0.45:
                other = self.operand(shape, "f32") if self.rng.random() < 0.7 else self.splat_const(shape, "f32", 1.5)
                self.use(x, other)
                x = self.define(f"{self.rng.choice(_BINARY_F)} {x.name}, {other.name} : {x.type}", shape, "f32")
            elif r < 0.75:
                self.use(x)
                x = self.define(f"{self.rng.choice(_UNARY_F32)} {x.name} : {x.type}", shape, "f32")
            elif r < 0.85:
                zero = self.splat_const(shape, "f32", 0.0)
                self.use(x)
                cond = self.define(f"arith.cmpf ogt, {x.name}, {zero.name} : {x.type}", shape, "i1", keep=False)
                x = self.define(f"arith.select {cond.name}, {x.name}, {zero.name} : {_ttype(shape, 'i1')}, {x.type}",
                                shape, "f32")
            else:  # a round trip through f16, as kernels that store f16 do
                x = self.cast(self.cast(x, "f16"), "f32")
        return x

    def reduce(self) -> Value:
        shape = self.rng.choice(SHAPES_2D)
        x = self.operand(shape, "f32")
        axis = self.rng.randrange(2)
        out_shape = (shape[1 - axis],)
        combine = self.rng.choice(("arith.addf", "arith.maxnumf"))
        a, b, s = self.fresh("a"), self.fresh("a"), self.fresh("s")
        self.use(x)
        r = self.define(f'"tt.reduce"({x.name}) <{{axis = {axis} : i32}}> ({{', out_shape, "f32")
        self.lines.append(f"{self.scope.indent}^bb0({a}: f32, {b}: f32):")
        self.lines.append(f"{self.scope.indent}  {s} = {combine} {a}, {b} : f32")
        self.lines.append(f"{self.scope.indent}  tt.reduce.return {s} : f32")
        self.lines.append(f"{self.scope.indent}}}) : ({x.type}) -> {_ttype(out_shape, 'f32')}")
        self.ops += 2
        if self.rng.random() < 0.6:  # softmax-like: broadcast the row statistic back
            kept = (shape[0], 1) if axis == 1 else (1, shape[1])
            self.use(r)
            e = self.define(f"tt.expand_dims {r.name} {{axis = {axis} : i32}} : {r.type} -> {_ttype(kept, 'f32')}",
                            kept, "f32", keep=False)
            bc = self.define(f"tt.broadcast {e.name} : {_ttype(kept, 'f32')} -> {x.type}", shape, "f32", keep=False)
            op = self.rng.choice(("arith.subf", "arith.divf", "arith.mulf"))
            return self.define(f"{op} {x.name}, {bc.name} : {x.type}", shape, "f32")
        return r

    def broadcast_row(self) -> Value:
        """A 1-D value as the rows or columns of a 2-D tile, combined with a 2-D value."""
        shape = self.rng.choice(SHAPES_2D)
        axis = self.rng.randrange(2)
        v = self.operand((shape[1 - axis],), "f32")
        kept = (shape[0], 1) if axis == 1 else (1, shape[1])
        self.use(v)
        e = self.define(f"tt.expand_dims {v.name} {{axis = {axis} : i32}} : {v.type} -> {_ttype(kept, 'f32')}",
                        kept, "f32", keep=False)
        bc = self.define(f"tt.broadcast {e.name} : {_ttype(kept, 'f32')} -> {_ttype(shape, 'f32')}", shape, "f32",
                         keep=False)
        other = self.operand(shape, "f32")
        self.use(other)
        return self.define(f"arith.addf {bc.name}, {other.name} : {_ttype(shape, 'f32')}", shape, "f32")

    def trans(self) -> Value:
        m, n = self.rng.choice(SHAPES_2D)
        elem = self.rng.choice(("f32", "f16"))
        x = self.operand((m, n), elem)
        self.use(x)
        return self.define(f"tt.trans {x.name} {{order = array<i32: 1, 0>}} : {x.type} -> {_ttype((n, m), elem)}",
                           (n, m), elem)

    def dot(self) -> Value:
        tile = (64, 64)
        a, b = self.operand(tile, "f16"), self.operand(tile, "f16")
        acc = self.pick(tile, "f32") if self.rng.random() < 0.5 else None
        acc = acc or self.splat_const(tile, "f32", 0.0)
        self.use(a, b, acc)
        t16, t32 = _ttype(tile, "f16"), _ttype(tile, "f32")
        return self.define(f"tt.dot {a.name}, {b.name}, {acc.name}, inputPrecision = tf32 : "
                           f"{t16} * {t16} -> {t32}", tile, "f32")

    def loop(self, budget: int) -> None:
        """An ``scf.for`` over ``[0, %n)`` with tensor iter args; its results join the pool."""
        matmul = self.rng.random() < 0.5
        if matmul:  # acc += A_k @ B, A's pointers advanced by a tile each iteration
            tile = (64, 64)
            ptrs = self.pointers("%in0_f16", tile, "f16")
            step = self.splat("%stride", "i32", tile, "i32")
            inits = [ptrs, self.splat_const(tile, "f32", 0.0)]
        else:  # x = f(x, load) elementwise recurrence
            shape = self.rng.choice(SHAPES_2D + tuple((n,) for n in SIZES_1D))
            inits = [self.operand(shape, "f32")]
        self.use(*inits)
        c0, c1 = self.const_i32(0), self.const_i32(1)
        iv = self.fresh("iv")
        args = [Value(self.fresh("arg"), v.shape, v.elem) for v in inits]
        res = self.fresh("r")
        types = ", ".join(v.type for v in inits)
        iter_args = ", ".join(f"{a.name} = {v.name}" for a, v in zip(args, inits))
        head = f"{res}:{len(inits)}" if len(inits) > 1 else res
        self.line(f"{head} = scf.for {iv} = {c0.name} to %n step {c1.name} iter_args({iter_args}) -> ({types})  : i32 {{")
        outer = self.scope
        self.scope = _Scope(outer.indent + "  ", parent=outer)
        if matmul:
            a_ptrs, acc = args
            a = self.define(f"tt.load {a_ptrs.name} : {_ptr_type(tile, 'f16')}", tile, "f16", keep=False)
            self.scope.values.append(a)  # the body's other pieces may use the tile too
            acc = self.dot_with(a, acc)
            nxt = self.define(f"tt.addptr {a_ptrs.name}, {step.name} : {_ptr_type(tile, 'f16')}, "
                              f"{_ttype(tile, 'i32')}", tile, "!tt.ptr<f16>", keep=False)
            yields = [nxt, acc]
        else:
            (x,) = args
            y = self.load(x.shape, "f32")
            self.use(y)
            x = self.define(f"arith.mulf {x.name}, {y.name} : {x.type}", x.shape, "f32")
            self.use(x)
            yields = [self.define(f"math.exp {x.name} : {x.type}", x.shape, "f32", keep=False)]
        self.fill(budget)
        self.line(f"scf.yield {', '.join(v.name for v in yields)} : {types}")
        self.scope = outer
        self.line("}", ops=0)
        names = [f"{res}#{i}" for i in range(len(inits))] if len(inits) > 1 else [res]
        for name, v in zip(names, yields):
            if v.elem.startswith("f"):
                out = Value(name, v.shape, v.elem)
                self.scope.values.append(out)
                self.scope.leaves.append(out)

    def dot_with(self, a: Value, acc: Value) -> Value:
        b = self.operand((64, 64), "f16")
        self.use(b)
        t16, t32 = _ttype((64, 64), "f16"), _ttype((64, 64), "f32")
        return self.define(f"tt.dot {a.name}, {b.name}, {acc.name}, inputPrecision = tf32 : "
                           f"{t16} * {t16} -> {t32}", (64, 64), "f32", keep=False)

    # -- filling regions ------------------------------------------------------------------
    def pending(self) -> int:
        """Ops the scope's closing stores will still take: addptr + store per leaf, plus the
        pointer splats and offsets not made yet (offsets: 3 ops for 1-D, 6 for 2-D, about)."""
        n = 0
        shapes = set()
        splats = set()
        for v in self.scope.leaves:
            n += 2
            if self.scope.lookup(("splat", f"%out_{v.elem}", v.shape)) is None:
                splats.add((v.elem, v.shape))
            if self.scope.lookup(("offsets", v.shape)) is None:
                shapes.add(v.shape)
        return n + len(splats) + sum(3 if len(shape) == 1 else 6 for shape in shapes)

    def fill(self, budget: int) -> None:
        """Emit pieces until about ``budget`` more ops (closing stores included), then store the leaves."""
        start = self.ops
        while True:
            left = budget - (self.ops - start) - self.pending()
            if left < 12:
                break
            r = self.rng.random()
            if r < 0.12 and self.scope.depth < _MAX_LOOP_DEPTH and left > 40:
                self.loop(min(left - 20, self.rng.randrange(10, 60)))
            elif r < 0.40:
                self.elementwise_chain(self.rng.randrange(2, 9))
            elif r < 0.55:
                self.reduce()
            elif r < 0.65:
                self.broadcast_row()
            elif r < 0.75:
                self.trans()
            elif r < 0.85:
                self.dot()
            elif self.scope.leaves:
                self.store(self.rng.choice(self.scope.leaves))
        # top up with one-op steps on a leaf (the leaf count, hence the stores, stays the same)
        while budget - (self.ops - start) - self.pending() > 0:
            floats = [v for v in self.scope.leaves if v.elem == "f32"]
            if not floats:
                break
            v = self.rng.choice(floats)
            self.use(v)
            self.define(f"{self.rng.choice(_UNARY_F32)} {v.name} : {v.type}", v.shape, "f32")
        for v in list(self.scope.leaves):
            self.store(v)

    def func(self, index: int, budget: int) -> None:
        params = ", ".join(
            [f"%{role}_{e}: !tt.ptr<{e}> {{tt.divisibility = 16 : i32}}"
             for e in ("f32", "f16") for role in ("in0", "in1", "out")]
            + ["%n: i32", "%stride: i32 {tt.divisibility = 16 : i32}"]
        )
        self.lines.append(f"  tt.func public @kernel{index}({params}) attributes {{noinline = false}} {{")
        self.ops += 1
        self.scope = _Scope("    ")
        self.line("%pid = tt.get_program_id x : i32")
        self.fill(budget - 3)
        self.line("tt.return")
        self.lines.append("  }")


def synthetic_module(n_ops: int, seed: int = 0) -> str:
    """A layout-free TTIR module of about ``n_ops`` operations, deterministic in ``(n_ops, seed)``."""
    if n_ops < 20:
        raise ValueError(f"n_ops must be at least 20, got {n_ops}")
    b = _ModuleBuilder(seed)
    b.lines.append("module {")
    index = 0
    while n_ops - b.ops >= 20:
        left = n_ops - b.ops
        budget = b.rng.randrange(*_FUNC_OPS)
        if left - budget < _FUNC_OPS[0]:
            budget = left
        b.func(index, budget)
        index += 1
    b.lines.append("}")
    return "\n".join(b.lines) + "\n"


def count_ops(text: str) -> int:
    """The ops of a module printed by :func:`synthetic_module` (its own count, re-derived from the text).

    One op per line that defines a value or is a bare op (``tt.store``, ``tt.return``,
    ``scf.yield``, ``tt.reduce.return``, ``tt.func``); block labels, closing braces and
    the module line are not ops.
    """
    n = 0
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith(("^", "}", "module")):
            continue
        n += 1
    return n
