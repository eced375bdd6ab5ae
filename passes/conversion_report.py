"""Why each ``ttg.convert_layout`` of a module is there, and what removing it would cost.

One entry per distributed-to-distributed conversion, in program order: its plan
(``conversion_cost.convert_sites``: kind, instruction counts, scratch, cycles), loop
depth, execution weight and cost (cycles × weight), and the reason it survives, read
off the IR around it:

* the **source side**: the producer chain of the source — ops whose layout follows
  their operands (``SAME``/``SHAPE`` in ``layout_rules.kind_of``, and ``scf`` / ``cf``
  carries) — back to what fixes the layout: anchors' results (global loads, dots,
  reductions, scans, calls, ...), function arguments, other conversions;
* the **destination side**: the users of the result, forward through the same kind of
  ops, to what needs the layout: anchors' operands (stores, dots, ...), function results.

Each rejected alternative is priced with the same model (plan cycles × weight; a
conversion is priced at the weight of the op it would follow or precede):

* ``rematerialize-source``: recompute the source chain in the destination layout. Cost:
  a conversion at every boundary where the chain meets something whose layout it
  cannot change (retargeting a conversion it meets costs the difference of the two
  prices), plus every chain op that must also survive in its old layout (something
  outside the chain still uses it) computed twice, at the layout engine's own price
  ``layout_rules.remat_cost`` (per warp: a quarter cycle per 32-bit word a thread
  computes for ALU ops — a plan's select —, 2 for transcendental math, 8 for memory
  ops; shape ops, constants, ranges and splats free) × the op's weight. Carries
  (iter arguments, ``scf.if`` results, branch arguments) are retyped at no cost; the
  chain stops at a loop's result (converting after the loop is the cheaper move).
* ``keep-source-layout``: the users take the source layout instead. Cost: a conversion
  in front of every user that needs the destination layout (an anchor, or an op with no
  free layout for it), one for every other operand that joins the retyped values (none
  for constants, ranges, splats), and the changed price of conversions met on the way.
* ``hoist-out-of-loop`` (only when the source is defined outside a loop around the
  conversion): the same conversion at the weight where its source is defined.

Locations are ``file:line:col``: the op's position in the input when the caller knows
it (``locate``), else its own ``loc(...)``; a conversion a pass created has neither and
takes its first user's (then producer's, then enclosing op's) position. A module's
report ends with its totals (the same as ``conversion_cost.summarize``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields

from xdsl.dialects import scf
from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, ModuleOp, NameLoc, TensorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue

from ltc.dialects.printer import AliasTable
from ltc.dialects.ttg_attrs import LayoutAttr, layout_attr
from ltc.encodings import Encoding
from ltc.lowering.plans.plan import PlanCounts
from ltc.passes.cfg import incoming, is_branch, operand_targets
from ltc.passes.conversion_cost import ConvertSite, CostSummary, convert_sites, execution_weight, price
from ltc.passes.layout_ir import ModuleConfig, encoding_of_type, layout_of, with_layout
from ltc.passes.layout_rules import (
    OpKind,
    backward,
    forward,
    free_use,
    kind_of,
    remat_cost,
    tensor_operands,
    tensor_results,
)

__all__ = [
    "JSON_KEYS",
    "Alternative",
    "ConversionEntry",
    "ConversionReport",
    "Endpoint",
    "conversion_report",
    "format_json",
    "report_json",
    "report_text",
]

JSON_KEYS = (
    "loc", "src", "dst", "shape", "dtype", "loop_depth", "weight", "kind", "counts",
    "scratch_bytes", "cost", "reason", "alternatives",
)  # fmt: skip

_NO_REMAT = {"tt.load", "tt.reduce", "tt.scan", "tt.atomic_rmw", "tt.atomic_cas", "tt.store"}
"""SAME/SHAPE ops a chain does not go through: recomputing them is not a layout change."""

Locate = Callable[[Operation], "str | None"]


@dataclass(frozen=True)
class Endpoint:
    """Something that fixes the source layout or needs the destination layout: ``what``
    names it (``tt.load result``, ``tt.store operand``, ``argument 0 of @k``, ...),
    ``loc`` where it is."""

    what: str
    loc: str


@dataclass(frozen=True)
class Alternative:
    """A rejected move: ``move`` its id, ``detail`` in words, ``cost`` its weighted cost."""

    move: str
    detail: str
    cost: float


@dataclass(frozen=True)
class ConversionEntry:
    """One conversion: where, what, its plan and price, and why it survives."""

    loc: str
    src: str
    dst: str
    shape: tuple[int, ...]
    dtype: str
    loop_depth: int
    weight: float
    kind: str
    algorithm: str
    counts: PlanCounts
    scratch_bytes: int
    cycles: float
    cost: float
    fixed_by: tuple[Endpoint, ...]
    required_by: tuple[Endpoint, ...]
    reason: str
    alternatives: tuple[Alternative, ...]

    def to_json(self) -> dict[str, object]:
        """The entry with exactly the keys of ``JSON_KEYS``."""
        return {
            "loc": self.loc,
            "src": self.src,
            "dst": self.dst,
            "shape": list(self.shape),
            "dtype": self.dtype,
            "loop_depth": self.loop_depth,
            "weight": self.weight,
            "kind": self.kind,
            "counts": _counts_json(self.counts),
            "scratch_bytes": self.scratch_bytes,
            "cost": _num(self.cost),
            "reason": self.reason,
            "alternatives": [{"move": a.move, "cost": _num(a.cost)} for a in self.alternatives],
        }


@dataclass(frozen=True)
class ConversionReport:
    """Every conversion of a module in program order, their totals, and (when known)
    the totals of Triton's default assignment of the same input."""

    entries: tuple[ConversionEntry, ...]
    summary: CostSummary
    triton: CostSummary | None = None


# ---------------------------------------------------------------------------------------
# building the report


def conversion_report(
    module: ModuleOp | Operation,
    locate: Locate | None = None,
    aliases: bool = True,
    triton: CostSummary | None = None,
) -> ConversionReport:
    """The report of ``module`` as it is. ``locate(op)`` gives an op's ``file:line:col``
    in the input when known (else the op's own ``loc`` is used, then its neighbours');
    layouts are spelled by their alias in the printed module when ``aliases``."""
    ctx = _Context(module, locate, aliases)
    sites = convert_sites(module)
    entries = tuple(ctx.entry(s) for s in sites)
    summary = CostSummary(len(sites), sum(s.weighted for s in sites))
    return ConversionReport(entries, summary, triton)


def report_json(module: ModuleOp | Operation, locate: Locate | None = None, aliases: bool = True) -> list[dict]:
    """The entries of :func:`conversion_report` as JSON values (keys ``JSON_KEYS``)."""
    return [e.to_json() for e in conversion_report(module, locate, aliases).entries]


def format_json(entries: Iterable[dict]) -> str:
    """A JSON list, one entry per line (valid JSON that line-based tools can read)."""
    lines = [json.dumps(e, separators=(", ", ": ")) for e in entries]
    if not lines:
        return "[]\n"
    return "[\n" + ",\n".join("  " + line for line in lines) + "\n]\n"


def report_text(
    module: ModuleOp | Operation | ConversionReport,
    locate: Locate | None = None,
    aliases: bool = True,
    triton: CostSummary | None = None,
) -> str:
    """One block per conversion (program order), then the module's totals."""
    report = module if isinstance(module, ConversionReport) else conversion_report(module, locate, aliases, triton)
    blocks = [_entry_text(e) for e in report.entries]
    s = report.summary
    tail = f"{s.conversions} conversion{'' if s.conversions == 1 else 's'}, weighted cost {_fmt(s.weighted_cost)}"
    lines = ["".join(b + "\n" for b in blocks) + f"total: {tail}"]
    if report.triton is not None:
        t = report.triton
        lines.append(f"Triton's rule: {t.conversions} conversion{'' if t.conversions == 1 else 's'}, weighted cost {_fmt(t.weighted_cost)}")
    return "\n".join(lines) + "\n"


def _entry_text(e: ConversionEntry) -> str:
    shape = "x".join(map(str, e.shape))
    lines = [
        f"{e.loc}: ttg.convert_layout {e.src} -> {e.dst}",
        f"  tensor<{shape}x{e.dtype}>, loop depth {e.loop_depth}, weight {_fmt(e.weight)}",
        f"  plan: {e.kind}{f' ({e.algorithm})' if e.algorithm else ''}: {_counts_text(e.counts)}; "
        f"scratch {e.scratch_bytes} bytes",
        f"  cost: {_fmt(e.cycles)} cycles x {_fmt(e.weight)} = {_fmt(e.cost)}",
        f"  why: {e.reason}",
    ]
    lines += [f"  rejected: {a.detail} [{a.move}]: {_fmt(a.cost)}" for a in e.alternatives]
    return "\n".join(lines)


def _counts_text(c: PlanCounts) -> str:
    parts = []
    for name, label in (("shuffles", "shuffle"), ("shared_stores", "shared store"), ("shared_loads", "shared load")):
        n = getattr(c, name)
        if n:
            by_bits = getattr(c, f"{name}_by_bits", ())
            widths = ", ".join(f"{k}-bit x{v}" for k, v in by_bits)
            parts.append(_plural(n, label) + (f" ({widths})" if widths else ""))
    for name, label in (
        ("stmatrix", "stmatrix"), ("ldmatrix", "ldmatrix"), ("selects", "select"),
        ("barriers", "barrier"), ("warp_syncs", "warp sync"), ("moves", "move"),
    ):  # fmt: skip
        if getattr(c, name):
            parts.append(_plural(getattr(c, name), label))
    return ", ".join(parts) or "no instructions"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 or word.endswith("matrix") else f"{n} {word}s"


def _counts_json(c: PlanCounts) -> dict[str, object]:
    out: dict[str, object] = {}
    for f in fields(c):
        v = getattr(c, f.name)
        out[f.name] = {str(k): n for k, n in v} if f.name.endswith("_by_bits") else v
    return out


def _num(x: float) -> float:
    return round(float(x), 6)


def _fmt(x: float) -> str:
    """A number without float noise: 544.25, 16, 0.03."""
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.2f}".rstrip("0").rstrip(".")


# ---------------------------------------------------------------------------------------
# the analysis


@dataclass(frozen=True)
class _Priced:
    """What a move costs and the endpoints that make it cost."""

    cost: float
    endpoints: tuple[Endpoint, ...]


class _Context:
    """Per-module state of one report: alias names, locations, target capability."""

    def __init__(self, module: Operation, locate: Locate | None, aliases: bool) -> None:
        self.locate = locate
        self.cap = ModuleConfig.of(module).capability
        self.names: dict[Attribute, str] = {}
        if aliases:
            table = AliasTable()
            table.visit_operation(module)
            self.names = table.names

    # -- spelling ------------------------------------------------------------------------

    def spell(self, t: Attribute) -> str:
        """The layout of tensor type ``t`` as the printer writes it."""
        assert isinstance(t, TensorType) and isinstance(t.encoding, LayoutAttr)
        name = self.names.get(t.encoding)
        if name is not None:
            return name
        return t.encoding.encoding.to_text(lambda enc: self.names.get(layout_attr(enc)))

    def spell_enc(self, enc: Encoding, like: Attribute) -> str:
        return self.spell(with_layout(like, enc))

    def loc(self, op: Operation) -> str:
        """``op``'s position: the input's, its own ``loc``, else its users' or producers'."""
        for cand in (op, *_neighbours(op)):
            if self.locate is not None:
                where = self.locate(cand)
                if where:
                    return where
            where = _file_line_col(cand.location)
            if where:
                return where
        return "<unknown>"

    # -- one entry -----------------------------------------------------------------------

    def entry(self, site: ConvertSite) -> ConversionEntry:
        op = site.op
        src_v, dst_v = op.operands[0], op.results[0]
        st, dt = src_v.type, dst_v.type
        assert isinstance(st, TensorType) and isinstance(dt, TensorType)
        cost = site.weighted
        remat = self.rematerialize(op)
        keep = self.keep_source(op)
        alternatives = [
            Alternative("rematerialize-source", f"rematerialize the source chain in {self.spell(dt)}", remat.cost),
            Alternative("keep-source-layout", f"keep {self.spell(st)} for the users", keep.cost),
        ]
        hoisted = _hoisted_weight(op)
        if hoisted is not None:
            alternatives.append(
                Alternative("hoist-out-of-loop", "hoist it out of the loop", site.cost.cycles * hoisted)
            )
        reason = self.reason(site, cost, remat, keep, alternatives)
        return ConversionEntry(
            loc=self.loc(op),
            src=self.spell(st),
            dst=self.spell(dt),
            shape=tuple(st.get_shape()),
            dtype=str(st.element_type),
            loop_depth=site.loop_depth,
            weight=site.weight,
            kind=str(site.cost.kind),
            algorithm=site.cost.algorithm,
            counts=site.cost.counts,
            scratch_bytes=site.cost.scratch_bytes,
            cycles=site.cost.cycles,
            cost=cost,
            fixed_by=remat.endpoints,
            required_by=keep.endpoints,
            reason=reason,
            alternatives=tuple(alternatives),
        )

    def reason(
        self, site: ConvertSite, cost: float, remat: _Priced, keep: _Priced, alternatives: list[Alternative]
    ) -> str:
        def listing(eps: tuple[Endpoint, ...]) -> str:
            return ", ".join(f"{e.what} ({e.loc})" for e in eps)

        parts = []
        src, dst = self.spell(site.op.operands[0].type), self.spell(site.op.results[0].type)
        if site.cost.cycles == 0:
            parts.append("the two layouts are the same linear layout (a noop plan)")
        parts.append(
            f"source {src} fixed by {listing(remat.endpoints)}"
            if remat.endpoints
            else f"nothing fixes the source {src} (the chain can be rebuilt in {dst} for free)"
        )
        parts.append(
            f"destination {dst} required by {listing(keep.endpoints)}"
            if keep.endpoints
            else f"nothing requires the destination {dst} (the users can take {src} for free)"
        )
        best = min(alternatives, key=lambda a: a.cost)
        if best.cost < cost:
            parts.append(f"a cheaper move was not taken: {best.move} costs {_fmt(best.cost)} < {_fmt(cost)}")
        else:
            parts.append(f"no alternative is cheaper (the cheapest, {best.move}, costs {_fmt(best.cost)})")
        return "; ".join(parts)

    # -- conversions priced as the model does --------------------------------------------

    def convert_price(self, t: Attribute, to: Encoding) -> float:
        """Cycles of converting a value of type ``t`` to layout ``to`` (0 when equal)."""
        if encoding_of_type(t) == to:
            return 0.0
        try:
            return price(t, with_layout(t, to), self.cap).cycles
        except ValueError:
            return 0.0

    def conversion(self, v: SSAValue, frm: Encoding, to: Encoding, priced: set[tuple[SSAValue, Encoding]]) -> float:
        """A conversion of ``v`` (in layout ``frm``) to ``to`` right after its definition,
        priced once per move however many ops need it (``priced`` records it)."""
        if (v, to) in priced:
            return 0.0
        priced.add((v, to))
        return self.convert_price(with_layout(v.type, frm), to) * _value_weight(v)

    def endpoint(self, what: str, op: Operation) -> Endpoint:
        return Endpoint(what, self.loc(op))

    # -- alternative (a): rematerialize the source chain in the destination layout --------

    def rematerialize(self, cvt: Operation) -> _Priced:
        target = layout_of(cvt.results[0])
        assert target is not None
        need: dict[SSAValue, Encoding] = {}
        chain: set[Operation] = set()
        priced: set[tuple[SSAValue, Encoding]] = set()
        total = 0.0
        eps: list[Endpoint] = []
        work: list[tuple[SSAValue, Encoding]] = [(cvt.operands[0], target)]
        while work:
            v, e = work.pop()
            if v in need:
                if need[v] != e:  # needed in two layouts: one of them by a conversion
                    total += self.conversion(v, need[v], e, priced)
                continue
            if layout_of(v) == e:
                continue
            carried = _carried_feeders(v)
            if carried is not None and not _loop_result(v):  # a carry: retyped with its feeders
                need[v] = e
                work += [(f, e) for f in carried]
                continue
            if isinstance(v, BlockArgument):
                owner = v.block.parent_op()
                fn = owner.properties.get("sym_name") if owner is not None else None
                label = f"argument {v.index} of @{fn.data}" if fn is not None else f"block argument {v.index}"
                total += self.conversion(v, layout_of(v), e, priced)
                eps.append(self.endpoint(label, owner if owner is not None else cvt))
                continue
            assert isinstance(v, OpResult)
            op = v.op
            kind = kind_of(op)
            w = execution_weight(op)
            if kind is OpKind.SOURCE:
                need[v] = e
                continue
            if kind is OpKind.CONVERT:  # retarget the conversion it meets
                inner = op.operands[0]
                delta = (self.convert_price(inner.type, e) - self.convert_price(inner.type, layout_of(v))) * w
                total += delta
                if delta > 0:
                    eps.append(self.endpoint("ttg.convert_layout result", op))
                continue
            operand_enc = None
            if kind in (OpKind.SAME, OpKind.SHAPE) and op.name not in _NO_REMAT and not op.regions:
                operand_enc = backward(op, e)
                if operand_enc is not None and forward(op, operand_enc) is None:
                    operand_enc = None
            if operand_enc is None:  # an anchor, or an op with no free layout for ``e``
                total += self.conversion(v, layout_of(v), e, priced)
                eps += self.carried_anchors(v) if _loop_result(v) else [self.endpoint(f"{op.name} result", op)]
                continue
            need[v] = e
            chain.add(op)
            work += [(o, operand_enc) for o in tensor_operands(op)]
        total += sum(remat_cost(op) * execution_weight(op) for op in _surviving(chain, need, cvt))
        return _Priced(total, tuple(_unique(eps)))

    def carried_anchors(self, result: SSAValue) -> list[Endpoint]:
        """What fixes the layout a loop carries into ``result``: the anchors its yielded
        and initial values come from (through layout-following ops and carries)."""
        eps: list[Endpoint] = []
        seen: set[SSAValue] = set()
        work = [result]
        while work:
            v = work.pop()
            if v in seen:
                continue
            seen.add(v)
            feeders = _carried_feeders(v)
            if feeders is not None:
                work += feeders
            elif isinstance(v, BlockArgument):
                eps.append(self.endpoint(f"block argument {v.index}", v.block.parent_op() or result.owner))
            elif kind_of(v.op) in (OpKind.SAME, OpKind.SHAPE) and v.op.name not in _NO_REMAT:
                work += tensor_operands(v.op)
            elif kind_of(v.op) is not OpKind.SOURCE:
                what = "ttg.convert_layout result" if kind_of(v.op) is OpKind.CONVERT else f"{v.op.name} result"
                eps.append(self.endpoint(what, v.op))
        return eps

    # -- alternative (b): the users keep the source layout -------------------------------

    def keep_source(self, cvt: Operation) -> _Priced:
        source = layout_of(cvt.operands[0])
        assert source is not None
        took: dict[SSAValue, Encoding] = {cvt.results[0]: source}
        priced: set[tuple[SSAValue, Encoding]] = set()
        total = 0.0
        eps: list[Endpoint] = []
        work: list[SSAValue] = [cvt.results[0]]

        def take(v: SSAValue, e: Encoding) -> None:
            if v in took:
                if took[v] != e:
                    nonlocal total
                    total += self.conversion(v, took[v], e, priced)
                return
            took[v] = e
            work.append(v)

        def join(o: SSAValue, e: Encoding) -> None:
            """Another operand ``o`` of an op whose operands all take ``e``."""
            nonlocal total
            if o in took or layout_of(o) == e:
                return
            if isinstance(o, OpResult) and kind_of(o.op) is OpKind.SOURCE:
                return
            total += self.conversion(o, layout_of(o), e, priced)

        while work:
            v = work.pop()
            e = took[v]
            for use in list(v.uses):
                user, i = use.operation, use.index
                w = execution_weight(user)
                targets = _carry_targets(user, i)
                if targets is not None:  # yield / loop init / branch: the carried values
                    for t in targets:
                        take(t, e)
                        for f in _carried_feeders(t) or ():
                            if f is not v:
                                join(f, e)
                    continue
                kind = kind_of(user)
                if kind is OpKind.SINK or free_use(use):
                    continue
                if kind is OpKind.CONVERT:
                    to = layout_of(user.results[0])
                    delta = (self.convert_price(with_layout(v.type, e), to) - self.convert_price(v.type, to)) * w
                    total += delta
                    if delta > 0:
                        eps.append(self.endpoint("ttg.convert_layout operand", user))
                    continue
                outs = None
                if kind in (OpKind.SAME, OpKind.SHAPE):  # reduce, scan, map_elementwise included
                    outs = forward(user, e)
                if outs is None:  # an anchor, or an op with no free layout for ``e``
                    total += self.conversion(v, e, layout_of(v), priced)
                    eps.append(self.endpoint(f"{user.name} operand", user))
                    continue
                for o in tensor_operands(user):
                    if o is not v:
                        join(o, e)
                for r, enc in zip(tensor_results(user), outs):
                    take(r, enc)
        return _Priced(total, tuple(_unique(eps)))


# ---------------------------------------------------------------------------------------
# IR helpers


def _unique(eps: list[Endpoint]) -> list[Endpoint]:
    seen: set[Endpoint] = set()
    return [e for e in eps if not (e in seen or seen.add(e))]


def _neighbours(op: Operation) -> list[Operation]:
    """Ops near ``op`` whose position stands for it: its users, its producers, its parents."""
    out = [u.operation for r in op.results for u in r.uses]
    out += [o.op for o in op.operands if isinstance(o, OpResult)]
    cur = op.parent_op()
    while cur is not None:
        out.append(cur)
        cur = cur.parent_op()
    return out


def _file_line_col(loc: Attribute | None) -> str | None:
    """``file:line:col`` of a location attribute (through names, call sites, fusions)."""
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    if isinstance(loc, NameLoc):
        return _file_line_col(loc.location)
    if isinstance(loc, CallSiteLoc):
        return _file_line_col(loc.callee)
    if isinstance(loc, FusedLoc):
        for inner in loc.locations.data:  # type: ignore[attr-defined]
            where = _file_line_col(inner)
            if where:
                return where
    return None


def _carry_targets(user: Operation, index: int) -> list[SSAValue] | None:
    """The values operand ``index`` of ``user`` flows into when ``user`` carries it
    (``scf`` yields and conditions, loop inits, branches); None for any other op."""
    if isinstance(user, scf.YieldOp):
        parent = user.parent_op()
        if isinstance(parent, scf.ForOp):
            return [parent.results[index], parent.body.block.args[index + 1]]
        if isinstance(parent, scf.IfOp):
            return [parent.results[index]]
        if isinstance(parent, scf.WhileOp):
            if user.parent_region() is parent.after_region:
                return [parent.before_region.block.args[index]]
        return []
    if isinstance(user, scf.ConditionOp):
        parent = user.parent_op()
        if isinstance(parent, scf.WhileOp) and index >= 1:
            return [parent.results[index - 1], parent.after_region.block.args[index - 1]]
        return []
    if isinstance(user, scf.ForOp):
        if index < 3:
            return []
        return [user.body.block.args[index - 2], user.results[index - 3]]
    if isinstance(user, scf.WhileOp):
        return [user.before_region.block.args[index]]
    if is_branch(user):
        return list(operand_targets(user, index))
    return None


def _carried_feeders(v: SSAValue) -> list[SSAValue] | None:
    """The values that flow into carried value ``v`` (a loop's iter argument or result,
    an ``scf.if`` result, a ``while`` argument, a branch target's argument); None when
    ``v`` is not carried."""
    if isinstance(v, BlockArgument):
        owner = v.block.parent_op()
        if isinstance(owner, scf.ForOp):
            if v.index == 0:
                return None
            k = v.index - 1
            return [owner.operands[3 + k], owner.body.block.last_op.operands[k]]
        if isinstance(owner, scf.WhileOp):
            if v.block.parent is owner.before_region:
                return [owner.operands[v.index], owner.after_region.block.last_op.operands[v.index]]
            return [owner.before_region.block.last_op.operands[v.index + 1]]
        if _is_entry(v.block):
            return None
        return [br.operands[i] for br, i in incoming(v)]
    assert isinstance(v, OpResult)
    op = v.op
    if isinstance(op, scf.ForOp):
        return [op.operands[3 + v.index], op.body.block.last_op.operands[v.index]]
    if isinstance(op, scf.IfOp):
        return [r.block.last_op.operands[v.index] for r in op.regions if r.blocks]
    if isinstance(op, scf.WhileOp):
        return [op.before_region.block.last_op.operands[v.index + 1]]
    return None


def _loop_result(v: SSAValue) -> bool:
    """A loop's result: the chain stops there (converting it after the loop is cheaper
    than retyping the loop's carry every iteration)."""
    return isinstance(v, OpResult) and isinstance(v.op, (scf.ForOp, scf.WhileOp))


def _is_entry(block: Block) -> bool:
    region = block.parent
    return region is None or region.blocks.first is block


def _value_weight(v: SSAValue) -> float:
    """The weight of the point where ``v`` is defined."""
    if isinstance(v, OpResult):
        return execution_weight(v.op)
    first = v.block.first_op
    return execution_weight(first) if first is not None else 1.0


def _hoisted_weight(cvt: Operation) -> float | None:
    """The weight where ``cvt``'s source is defined, when that is outside a loop around
    ``cvt`` (less than ``cvt``'s own weight); else None."""
    w_src = _value_weight(cvt.operands[0])
    w = execution_weight(cvt)
    return w_src if w_src < w else None


def _surviving(chain: set[Operation], need: dict[SSAValue, Encoding], cvt: Operation) -> set[Operation]:
    """The chain ops something outside the chain still uses in their old layout (directly
    or through chain ops that survive): they are computed twice."""
    survives: set[Operation] = set()
    changed = True
    while changed:
        changed = False
        for op in chain - survives:
            for r in op.results:
                if any(_outside(u.operation, u.index, chain, need, survives, cvt) for u in r.uses):
                    survives.add(op)
                    changed = True
                    break
    return survives


def _outside(
    user: Operation,
    index: int,
    chain: set[Operation],
    need: dict[SSAValue, Encoding],
    survives: set[Operation],
    cvt: Operation,
) -> bool:
    if user is cvt:
        return False
    targets = _carry_targets(user, index)
    if targets is not None:
        return not targets or any(t not in need for t in targets)
    return user not in chain or user in survives
