"""Whole-module verification with source positions and Triton's layout rules.

xDSL's ``module.verify()`` stops at the first failure without saying where in the
file it is. ``verify_module`` verifies op by op so the failing op is known, in the
order MLIR's verifier uses: an op's own checks, then the ops nested in it, then (on
leaving a block) whether the block ends with a terminator. So an op without a
terminator after it reports its own error first, as Triton does.

It adds the rule Triton checks on the operands and results of its own ops (the
``tt``, ``ttg`` and ``ttng`` dialects; not on ``arith``/``scf`` ops or block
arguments): a distributed layout's rank is the tensor's, and its lanes, warps and
CTAs are those the enclosing ``ttg.threads-per-warp``, ``ttg.num-warps`` and
``ttg.num-ctas`` specify; a memdesc's layout (shared or tensor memory) has the
context's CTAs. On ``tt`` ops it adds Triton's tensor-size rule (at most 2**20
elements, a power-of-two count). Messages follow Triton's wording; an op quoted in a
message prints its large dense constants elided, as MLIR's diagnostics do.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from io import StringIO
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, TensorType, UnregisteredOp
from xdsl.ir import Attribute, Block, BlockArgument, OpResult, Operation, OpTraits, Region, SSAValue
from xdsl.irdl import OpDef
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsolatedFromAbove, IsTerminator, NoTerminator, SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import VerifyException

from ltc.cached_hash import cache_hash
from ltc.dialects.ttg_attrs import DistributedLayoutAttr, LayoutAttr
from ltc.encodings import EncodingError
from ltc.linear_layout import LayoutError

if TYPE_CHECKING:
    from xdsl.dialects import scf  # loaded only where an scf op exists: ltc-opt start-up

NUM_WARPS = "ttg.num-warps"
THREADS_PER_WARP = "ttg.threads-per-warp"
NUM_CTAS = "ttg.num-ctas"
#: Triton's ``maxTensorNumElements``: the most elements a ``tt`` op's tensor may have.
MAX_TENSOR_ELEMENTS = 1 << 20

# Tensor types key this verifier's caches (and the layout passes' and CSE's dicts): a
# generated hash re-hashes the shape, element type and layout at every lookup.
cache_hash(TensorType)

# Ops of these dialects carry Triton's layout check on their operands and results.
_LAYOUT_CHECKED_DIALECTS = frozenset({"tt", "ttg", "ttng"})


class UnprefixedVerifyException(VerifyException):
    """A verifier's message that MLIR reports with ``emitError`` (at the op, but without
    the ``'name' op`` prefix ``emitOpError`` adds)."""


class OpVerifyError(Exception):
    """``op`` does not verify; ``message`` says why (MLIR style: ``'name' op ...``)."""

    def __init__(self, op: Operation, message: str) -> None:
        super().__init__(message)
        self.op = op
        self.message = message


@dataclass(frozen=True)
class LayoutContext:
    """What the enclosing ops say about the hardware (None where unspecified)."""

    num_warps: int | None
    threads_per_warp: int
    num_ctas: int


def _int_attr(op: Operation, name: str) -> int | None:
    attr = op.attributes.get(name)
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def layout_context(op: Operation, region: Region | None = None) -> LayoutContext:
    """The nearest ``ttg.num-warps`` (and lanes, CTAs) on ``op`` or its ancestors.

    With ``region`` (one of ``op``'s regions) the context is that of the values
    defined in it. An op with ``region_num_warps(region)`` (the partitions of
    ``ttg.warp_specialize``) sets the warp count of code in its regions."""
    num_warps = threads = ctas = None
    cur: Operation | None = op
    inner = region
    while cur is not None:
        if num_warps is None and inner is not None:
            per_region = getattr(cur, "region_num_warps", None)
            if per_region is not None:
                num_warps = per_region(inner)
        if cur.attributes:  # (most ops have none: the layout passes ask this per op)
            num_warps = num_warps if num_warps is not None else _int_attr(cur, NUM_WARPS)
            threads = threads if threads is not None else _int_attr(cur, THREADS_PER_WARP)
            ctas = ctas if ctas is not None else _int_attr(cur, NUM_CTAS)
            if num_warps is not None and threads is not None and ctas is not None:
                break  # outer ops cannot change it
        inner = cur.parent_region()
        cur = cur.parent_op()
    return LayoutContext(num_warps, threads if threads is not None else 32, ctas if ctas is not None else 1)


def _ctas_problem(text: str, ctas: int, context: LayoutContext) -> str | None:
    if ctas != context.num_ctas:
        return f"{text}.\nLayout has {ctas} CTAs per CGA, but the context requires {context.num_ctas} CTAs per CGA."
    return None


def layout_problem(ty: Attribute, context: LayoutContext) -> str | None:
    """Why the layout of ``ty`` (a tensor or memdesc type) is invalid in ``context``,
    or None if it is valid (or ``ty`` has no layout)."""
    attr = getattr(ty, "encoding", None)
    if not isinstance(ty, TensorType):
        # A memdesc: its layout's CTAs. Tensor-memory encodings (``ttng``, which
        # imports this module) expose their CTA bases as ``cga_block_bases``.
        block_bases = getattr(attr, "cga_block_bases", None)
        if isinstance(attr, LayoutAttr) and 0 in _swizzle_parameters(attr.encoding):
            # Triton divides by them as soon as an op maps the layout (SIGFPE)
            return f"{_attr_text(attr)}.\nvec, perPhase and maxPhase must be positive"
        if isinstance(attr, LayoutAttr):
            cga = getattr(attr.encoding, "cga", None)
            block_bases = None if cga is None else cga.block_bases
        if block_bases is None:
            return None
        return _ctas_problem(_attr_text(attr), 1 << len(block_bases), context)
    shape = tuple(ty.get_shape())
    block_bases = getattr(attr, "cga_block_bases", None)
    if block_bases is not None:
        # A tensor-memory encoding (2-d) on a register tensor: Triton checks its rank
        # and CTAs, then refuses it as it refuses a shared layout.
        rank = len(block_bases[0]) if block_bases else 2
        if rank != len(shape):
            return f"Layout has rank {rank}, but the tensor it's attached to has rank {len(shape)}."
        ctas = _ctas_problem(_attr_text(attr), 1 << len(block_bases), context)
        return ctas or "Non-distributed layout is not allowed in tensor type."
    if not isinstance(attr, LayoutAttr):
        return None
    if attr.encoding.rank != len(shape):
        return f"Layout has rank {attr.encoding.rank}, but the tensor it's attached to has rank {len(shape)}."
    if not isinstance(attr, DistributedLayoutAttr):
        # Triton 3.9 checks a shared layout's CTAs before refusing it on a tensor.
        cga = getattr(attr.encoding, "cga", None)
        ctas = _ctas_problem(attr.encoding.to_text(), cga.num_ctas, context) if cga is not None else None
        return ctas or "Non-distributed layout is not allowed in tensor type."
    text = attr.encoding.to_text()
    too_big = _int32_overflow(attr.encoding, shape)
    if too_big is not None:
        return f"{text}.\n{too_big}"
    try:
        ll = attr.to_linear_layout(shape)
    except (EncodingError, LayoutError, ValueError) as e:
        return f"{text}.\n{e}"
    lanes = ll.in_dim_size("lane") if "lane" in ll.in_dims else 1
    warps = ll.in_dim_size("warp") if "warp" in ll.in_dims else 1
    ctas = ll.in_dim_size("block") if "block" in ll.in_dims else 1
    if lanes != context.threads_per_warp:
        return (
            f"{text}.\nLayout has {lanes} threads per warp, but the module specifies "
            f"{context.threads_per_warp} threads per warp."
        )
    if context.num_warps is None:
        return "Could not determine the number of warps per CTA. Operation is not in a context with `ttg.num-warps`."
    if warps != context.num_warps:
        return f"{text}.\nLayout has {warps} warps per CTA, but the context requires {context.num_warps} warps per CTA."
    return _ctas_problem(text, ctas, context)


# A pure function of (type, context): the pipeline verifies its input and its output,
# which share most types, and kernels share most types with each other.
_cached_layout_problem = lru_cache(maxsize=4096)(layout_problem)

_INT32_LIMIT = 1 << 31


def _int_parameters(enc: object) -> Iterator[tuple[str, int]]:
    """Every integer parameter of an encoding and of the encodings nested in it."""
    if not dataclasses.is_dataclass(enc):
        return
    for f in dataclasses.fields(enc):
        value = getattr(enc, f.name)
        if isinstance(value, int):
            yield f.name, value
        elif isinstance(value, tuple):
            yield from ((f.name, v) for v in value if isinstance(v, int))
        else:
            yield from _int_parameters(value)


def _swizzle_parameters(enc: object) -> tuple[int, ...]:
    """``(vec, perPhase, maxPhase)`` of a ``#ttg.swizzled_shared`` layout; ``()`` for another."""
    from ltc.encodings.shared import SwizzledSharedEncoding

    if isinstance(enc, SwizzledSharedEncoding):
        return (enc.vec, enc.per_phase, enc.max_phase)
    return ()


def _int32_overflow(enc: object, shape: tuple[int, ...]) -> str | None:
    """Why Triton's 32-bit layout arithmetic cannot hold this tensor's layout (None when it
    can): a dimension, or a blocked layout's CTA tile (sizePerThread × threadsPerWarp ×
    warpsPerCTA), of 2**31 or more wraps negative and Triton aborts (its layout is then
    not surjective, or larger than the tensor)."""
    for d, n in enumerate(shape):
        if n >= _INT32_LIMIT:
            return f"Dimension {d} of size {n} does not fit a layout (sizes must be below 2**31)"
    for name, value in _int_parameters(enc):
        if value >= _INT32_LIMIT:
            return f"{name} holds {value}; a layout's sizes must be below 2**31"
    from ltc.encodings.blocked import BlockedEncoding

    if isinstance(enc, BlockedEncoding):
        for d, parts in enumerate(zip(enc.size_per_thread, enc.threads_per_warp, enc.warps_per_cta)):
            if math.prod(parts) >= _INT32_LIMIT:
                return (
                    f"sizePerThread × threadsPerWarp × warpsPerCTA along dimension {d} is {math.prod(parts)}; "
                    "a layout's sizes must be below 2**31"
                )
    return None


#: Dense constants with more elements than this print elided in diagnostics (MLIR's
#: diagnostic printer elides large elements attributes the same way; splats stay).
_ELIDE_ELEMENTS_OVER = 16


class _DiagnosticPrinter(Printer):
    """xDSL's printer, bounded: a large non-splat dense constant prints as
    ``dense_resource<__elided__>`` and a large splat as its one value, so a message
    never unpacks a whole payload."""

    def print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, DenseIntOrFPElementsAttr) and len(attribute) > _ELIDE_ELEMENTS_OVER:
            data = attribute.data.data
            width = attribute.get_element_type().compile_time_size
            first = data[:width]
            if first * (len(data) // width) == data:
                self.print_string("dense<")
                attribute._print_one_elem(attribute.get_element_type().unpack(first, 1)[0], self)
                self.print_string(">")
            else:
                self.print_string("dense_resource<__elided__>")
            self.print_string(" : ")
            self.print_attribute(attribute.get_type())
            return
        super().print_attribute(attribute)


def _attr_text(attr: Attribute) -> str:
    out = StringIO()
    _DiagnosticPrinter(stream=out).print_attribute(attr)
    return out.getvalue()


def _generic_text(op: Operation) -> str:
    """``op`` as MLIR prints it in a diagnostic (generic form, one line)."""
    out = StringIO()
    _DiagnosticPrinter(stream=out, print_generic_format=True).print_op(op)
    return " ".join(out.getvalue().split())


def _value_text(value: SSAValue) -> str:
    """How MLIR describes an operand in a diagnostic."""
    if isinstance(value, BlockArgument):
        return f"<block argument> of type '{_attr_text(value.type)}' at index: {value.index}"
    assert isinstance(value, OpResult)
    return _generic_text(value.op)


@dataclass
class _Walk:
    """What one ``verify_module`` call has learned so far."""

    # Results of the ops walked so far (in text order): xDSL's parser accepts a use
    # before its definition and xDSL checks no dominance, MLIR does.
    defined: set[SSAValue]
    problems: dict[tuple[Attribute, LayoutContext], str | None]
    # Per multi-block region: each reachable block's dominators.
    dominators: dict[Region, dict[Block, frozenset[Block]]] = field(default_factory=dict)
    # ``problems`` by the type object's identity first: hashing a tensor type hashes its
    # shape and encoding, which costs more than the lookup (values share type objects).
    # The type is kept in the entry so that its id is not reused during the walk.
    problems_by_id: dict[tuple[int, LayoutContext], tuple[Attribute, str | None]] = field(default_factory=dict)
    # ``layout_context`` of the ops of a block that carry none of its attributes.
    contexts: dict[Block, LayoutContext] = field(default_factory=dict)

    def problem(self, ty: Attribute, context: LayoutContext) -> str | None:
        fast = (id(ty), context)
        hit = self.problems_by_id.get(fast)
        if hit is not None:
            return hit[1]
        key = (ty, context)
        if key not in self.problems:
            self.problems[key] = _cached_layout_problem(ty, context)
        self.problems_by_id[fast] = (ty, self.problems[key])
        return self.problems[key]

    def context(self, op: Operation) -> LayoutContext:
        """``layout_context(op)``, shared by the ops of a block: it depends on the op's
        own attributes (when it has one of them) and on its ancestors only."""
        block = op.parent
        attrs = op.attributes
        if block is None or NUM_WARPS in attrs or THREADS_PER_WARP in attrs or NUM_CTAS in attrs:
            return layout_context(op)
        context = self.contexts.get(block)
        if context is None:
            context = self.contexts[block] = layout_context(op)
        return context


def verify_module(module: Operation) -> None:
    """Verify every op (outermost first); raise ``OpVerifyError`` at the first failure."""
    _verify_op(module, _Walk(set(), {}))


def _verify_op(op: Operation, walk: _Walk) -> None:
    for index, operand in enumerate(op.operands):
        if isinstance(operand, OpResult):
            if operand not in walk.defined or not _dominates(operand.op, operand.op.parent, op, walk):
                raise OpVerifyError(op, f"'{op.name}' op operand #{index} does not dominate this use")
        elif not isinstance(operand, BlockArgument):
            raise _undeclared_use(op)
        elif not _in_scope(op, operand):
            # xDSL binds a use before the definition to a block argument defined later in
            # a nested region; MLIR's parser refuses that argument's name as taken.
            raise OpVerifyError(op, f"region entry argument '%{operand.name_hint or index}' is already in use")
        elif not _dominates(None, operand.block, op, walk):
            raise OpVerifyError(op, f"'{op.name}' op operand #{index} does not dominate this use")
        if _crosses_isolation(op, operand):
            raise OpVerifyError(op, f"'{op.name}' op using value defined outside the region")
    walk.defined.update(op.results)
    dialect = op.name.split(".", 1)[0]
    if dialect == "tt":
        _verify_tensor_sizes(op)
    if dialect in _LAYOUT_CHECKED_DIALECTS:
        # Triton checks layouts in an op trait, which MLIR runs before the op's verifier.
        _verify_layouts(op, walk)
    if op.name == "builtin.module":
        _verify_module_attributes(op)
    _verify_symbol_parent(op)
    _verify_own(op)
    if op.name == "scf.if":  # the registered op (xDSL's scf.IfOp or ltc's subclass)
        _verify_if_yields(op)
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                _verify_op(child, walk)
            _verify_terminator(op, region, block)


def _dominates(def_op: Operation | None, def_block: Block | None, use: Operation, walk: _Walk) -> bool:
    """Whether a value defined by ``def_op`` (None: an argument of ``def_block``) dominates
    ``use``, given that it comes first in the text.

    Text order settles a use in the defining block or nested in a later op of it; what
    is left: an op's results are not visible in its own regions, and across the blocks
    of a CFG region the defining block must dominate the use's (MLIR's rule; a use in an
    unreachable block is dominated by everything).
    """
    if def_block is None or use.parent is def_block:
        return True
    region = def_block.parent
    anc: Operation | None = use
    while anc is not None and (anc.parent is None or anc.parent.parent is not region):
        anc = anc.parent_op()
    if anc is not None and anc is def_op:
        return False  # the use sits in a region of the defining op
    if anc is None or anc.parent is def_block or region is None or len(region.blocks) == 1:
        return True
    doms = walk.dominators.get(region)
    if doms is None:
        doms = walk.dominators[region] = _block_dominators(region)
    use_doms = doms.get(anc.parent)  # type: ignore[arg-type]
    return use_doms is None or def_block in use_doms


def _block_dominators(region: Region) -> dict[Block, frozenset[Block]]:
    """Each block reachable from the entry block, mapped to the blocks that dominate it."""
    entry = region.blocks.first
    assert entry is not None
    order, preds, stack = [entry], {entry: []}, [entry]  # type: ignore[var-annotated]
    while stack:
        block = stack.pop()
        last = block.last_op
        for succ in () if last is None else last.successors:
            if succ not in preds:
                preds[succ] = []
                order.append(succ)
                stack.append(succ)
            preds[succ].append(block)
    every = frozenset(order)
    doms = {b: (frozenset({b}) if b is entry else every) for b in order}
    changed = True
    while changed:
        changed = False
        for b in order[1:]:
            new = frozenset.intersection(*(doms[p] for p in preds[b])) | {b}
            if new != doms[b]:
                doms[b], changed = new, True
    return doms


def _verify_module_attributes(op: Operation) -> None:
    """MLIR's ``ModuleOp`` rules: its block takes no arguments (the ``NoRegionArguments``
    trait, checked first), and besides its symbol name and visibility a module holds only
    dialect attributes (``ttg.num-warps``), whose names carry the dialect's prefix."""
    if any(block.args for region in op.regions for block in region.blocks):
        raise OpVerifyError(op, "'builtin.module' op region should have no arguments")
    for name in op.attributes:
        if "." not in name and name not in ("sym_name", "sym_visibility"):
            raise OpVerifyError(
                op, f"'builtin.module' op can only contain attributes with dialect-prefixed names, found: '{name}'"
            )


# Ops MLIR isolates from above whose xDSL definition lacks the trait.
_ISOLATED_OPS = frozenset({"llvm.func", "llvm.mlir.global"})


@lru_cache(maxsize=None)
def class_has_trait(op_type: type[Operation], trait: type) -> bool:
    """``op.has_trait(trait)`` by the op's class (a class method: its traits are the
    class's), asked several times for every op verified."""
    return op_type.has_trait(trait)


def _is_isolated(op: Operation) -> bool:
    if isinstance(op, UnregisteredOp):
        return False
    return op.name in _ISOLATED_OPS or class_has_trait(type(op), IsolatedFromAbove)


def _crosses_isolation(op: Operation, value: SSAValue) -> bool:
    """MLIR's region isolation: a use inside an op that is isolated from above (a
    function, a global's initialiser) may not see a value defined outside that op.
    True when an isolated ancestor of ``op`` lies between it and ``value``'s region."""
    block = value.block if isinstance(value, BlockArgument) else value.op.parent  # type: ignore[attr-defined]
    owner = block.parent.parent if block is not None and block.parent is not None else None
    anc = op.parent_op()
    while anc is not None and anc is not owner:
        if _is_isolated(anc):
            return True
        anc = anc.parent_op()
    return False


def _verify_symbol_parent(op: Operation) -> None:
    """MLIR's ``Symbol`` interface: a symbol (a function, a global, a named module) sits
    directly in a symbol table (a module). Ops that name their parent op (``tt.func``:
    a module) report that rule instead."""
    if isinstance(op, UnregisteredOp) or not class_has_trait(type(op), SymbolOpInterface) or class_has_trait(type(op), HasParent):
        return
    if op.name == "builtin.module" and "sym_name" not in op.attributes:
        return  # an optional symbol: only a named module is one
    parent = op.parent_op()
    if parent is not None and (isinstance(parent, UnregisteredOp) or not class_has_trait(type(parent), SymbolTable)):
        raise OpVerifyError(op, f"'{op.name}' op symbol's parent must have the SymbolTable trait")


def _in_scope(op: Operation, arg: BlockArgument) -> bool:
    """True when ``arg``'s region encloses ``op``: a block argument is visible only inside
    its region (across blocks dominance decides, which this does not check)."""
    region = arg.block.parent
    block = op.parent
    while block is not None:
        if block.parent is region:
            return True
        block = block.parent_block()
    return False


# Ops whose own checks (xDSL's ODS checks of operands, results, attributes and
# properties, their traits' and their verify_) read nothing but the op's class, its
# operand and result types, its attributes and its properties: no parent, no other op,
# no region (each verify_ read for this). Two such ops that agree on those verify alike,
# so a verdict is kept per signature (``_own_signature``) once it has passed.
_LOCAL_VERIFY_OPS = frozenset({
    "arith.constant", "arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui", "arith.remsi",
    "arith.remui", "arith.andi", "arith.ori", "arith.xori", "arith.shli", "arith.shrsi", "arith.shrui",
    "arith.minsi", "arith.maxsi", "arith.minui", "arith.maxui", "arith.addf", "arith.subf", "arith.mulf",
    "arith.divf", "arith.negf", "arith.maxnumf", "arith.minnumf", "arith.maximumf", "arith.minimumf",
    "arith.cmpi", "arith.cmpf", "arith.select", "arith.extsi", "arith.extui", "arith.trunci", "arith.sitofp",
    "arith.uitofp", "arith.fptosi", "arith.fptoui", "arith.extf", "arith.truncf",
    "math.exp", "math.exp2", "math.log", "math.log2", "math.sqrt", "math.rsqrt", "math.absf", "math.sin",
    "math.cos", "math.floor", "math.ceil",
    "tt.splat", "tt.addptr", "tt.broadcast", "tt.load", "tt.expand_dims", "tt.reshape", "tt.make_range",
    "tt.get_program_id", "tt.get_num_programs", "tt.bitcast", "tt.mulhiui", "tt.trans", "tt.split", "tt.join",
    "tt.precise_sqrt", "tt.precise_divf", "tt.fp_to_fp", "tt.int_to_ptr", "tt.ptr_to_int", "tt.clampf",
    "tt.extern_elementwise", "tt.dot", "tt.atomic_rmw", "tt.histogram", "tt.cat", "tt.gather",
    "ttg.convert_layout",
})
_VERIFIED_OWN: set[tuple] = set()
"""Signatures of ``_LOCAL_VERIFY_OPS`` ops whose own checks passed."""
_VERIFIED_OWN_MAX = 1 << 16


def _inside_map_elementwise(op: Operation) -> bool:
    """Whether ``op`` is nested in a ``tt.map_elementwise`` (what
    ``reject_inside_map_elementwise`` reads)."""
    from ltc.dialects.tt.checks import nested_in

    return nested_in(op, "tt.map_elementwise")


# Ops whose own checks read, besides what ``_LOCAL_VERIFY_OPS`` ops read, one fact about
# their ancestors: the function computing it, which joins the op's signature.
# (``tt.store``'s verify_ calls ``reject_inside_map_elementwise``; nothing else of its
# checks leaves the op.)
_PARENT_FACT_OPS = {
    "tt.store": _inside_map_elementwise,
}


def _own_signature(op: Operation) -> tuple | None:
    """What the own checks of ``op`` read, when that is all they read (None otherwise)."""
    name = op.name
    parent_fact = _PARENT_FACT_OPS.get(name)
    if (
        (parent_fact is None and name not in _LOCAL_VERIFY_OPS)
        or op.regions
        or op.successors
        or isinstance(op, UnregisteredOp)
    ):
        return None
    key = (
        type(op),
        tuple([o.type for o in op.operands]),
        tuple([r.type for r in op.results]),
        tuple(op.attributes.items()),
        tuple(op.properties.items()),
        None if parent_fact is None else parent_fact(op),
    )
    try:
        hash(key)
    except TypeError:  # an attribute that cannot be hashed: checked every time
        return None
    return key


def _verify_own(op: Operation) -> None:
    """The op's own checks: xDSL's ``Operation.verify`` without its terminator rule
    (MLIR applies it on leaving the block: see ``_verify_terminator``) and without its
    ``emit_error``, which prints the whole enclosing module into the exception's notes
    (unbounded time and memory on a module holding a large dense constant). An op of
    ``_LOCAL_VERIFY_OPS`` whose signature passed before is not checked again."""
    key = _own_signature(op)
    if key is not None and key in _VERIFIED_OWN:
        return
    _verify_own_checks(op)
    if key is not None:
        if len(_VERIFIED_OWN) >= _VERIFIED_OWN_MAX:
            _VERIFIED_OWN.clear()
        _VERIFIED_OWN.add(key)


def _verify_own_checks(op: Operation) -> None:
    try:
        _verify_successors(op)
        verify = _verify_without_isolation(type(op))
        if verify is None:
            op.verify_()
        else:
            verify(op)
    except ValueError:  # xDSL asked an undeclared value (a parser placeholder) for its owner
        undeclared = next((o for o in op.walk() if _undeclared_operand(o) is not None), None)
        if undeclared is None:
            raise
        raise _undeclared_use(undeclared) from None
    except UnprefixedVerifyException as e:
        raise OpVerifyError(op, str(e)) from None
    except VerifyException as e:
        message = _mlir_parent_message(op.name, _strip_xdsl_prefix(str(e)))
        if not message.startswith(f"'{op.name}' op "):  # some verifiers name the op themselves
            message = f"'{op.name}' op {message}"
        raise OpVerifyError(op, message) from None
    except Exception as e:
        if type(e) is Exception:
            # xDSL 0.74's scf.while reports a block-argument type mismatch with a bare Exception.
            raise OpVerifyError(op, f"'{op.name}' op {e}") from None
        if op.name == "scf.while" and isinstance(e, IndexError):
            # ... and indexes its regions' arguments before counting them
            raise OpVerifyError(op, f"'{op.name}' op region arguments do not match its operands or results") from None
        raise  # a bug, not a verdict on the input


@lru_cache(maxsize=None)
def _verify_without_isolation(op_type: type[Operation]) -> Callable[[Operation], None] | None:
    """``op_type.verify_`` without its ``IsolatedFromAbove`` trait check, for an op class
    that has the trait (None for another class, or where xDSL's verify_ is not the one
    this knows: then the whole verify_ runs).

    That check walks the op's whole body (a module: every op of it) and climbs the
    parents of every operand; ``_verify_op`` checks each operand for crossing an
    isolated op (``_crosses_isolation``) anyway, and reports it as MLIR does, at the op
    using the value (``'x' op using value defined outside the region``). xDSL 0.74's
    generated ``verify_`` is ``op_def.verify(op)`` (operands, results, regions,
    successors, properties, attributes, then each trait) followed by the class's own
    ``verify_``: this runs the same with the traits other than IsolatedFromAbove, in
    the same order."""
    if isinstance(op_type, type) and issubclass(op_type, UnregisteredOp):
        return None
    if not class_has_trait(op_type, IsolatedFromAbove):
        return None
    generated = op_type.verify_
    code = getattr(generated, "__code__", None)
    cells = getattr(generated, "__closure__", None)
    if code is None or cells is None or getattr(generated, "__qualname__", "") != "get_accessors_from_op_def.<locals>.verify_":
        return None
    bound = dict(zip(code.co_freevars, (c.cell_contents for c in cells)))
    op_def = bound.get("op_def")
    if not isinstance(op_def, OpDef) or op_def is not op_type.get_irdl_definition():
        return None
    custom = bound.get("custom_verify")
    if custom is not None and getattr(custom, "__code__", None) is code:
        return None  # the class's own verify_ is another op's generated one: it would check again
    if set(bound) - {"op_def", "custom_verify"}:
        return None
    no_traits = dataclasses.replace(op_def, traits=OpTraits(tuple))

    def verify(op: Operation) -> None:
        no_traits.verify(op)
        for trait in op_def.traits:
            if not isinstance(trait, IsolatedFromAbove):
                trait.verify(op)
        if custom is not None:
            custom(op)

    return verify


def _undeclared_operand(op: Operation) -> int | None:
    """The index of the first operand of ``op`` that is neither an op result nor a block
    argument: a name the parser never saw defined in scope (None if there is none)."""
    return next(
        (i for i, v in enumerate(op.operands) if not isinstance(v, OpResult | BlockArgument)), None
    )


def _undeclared_use(op: Operation) -> OpVerifyError:
    return OpVerifyError(op, f"'{op.name}' op operand #{_undeclared_operand(op)} is a use of undeclared SSA value name")


def _verify_successors(op: Operation) -> None:
    """An op with successors ends its block and branches within its region (xDSL's rule)."""
    if not op.successors:
        return
    block = op.parent
    region = None if block is None else block.parent
    if block is None or region is None:
        raise VerifyException(f"Operation {op.name} with block successors does not belong to a block or a region")
    if block.last_op is not op:
        raise VerifyException(f"Operation {op.name} with block successors must terminate its parent block")
    if any(succ.parent is not region for succ in op.successors):
        raise VerifyException(f"Operation {op.name} is branching to a block of a different region")
    forwarded = _successor_operands(op)
    for i, (succ, values) in enumerate(zip(op.successors, forwarded or ())):
        if len(values) != len(succ.args):
            raise VerifyException(
                f"branch has {len(values)} operands for successor #{i}, but target block has {len(succ.args)}"
            )
        for j, (value, arg) in enumerate(zip(values, succ.args)):
            if value.type != arg.type:
                raise VerifyException(f"type mismatch for bb argument #{j} of successor #{i}")


def _successor_operands(op: Operation) -> list[tuple[SSAValue, ...]] | None:
    """The operands ``op`` forwards to each successor's arguments (MLIR's BranchOpInterface),
    for the branches ltc reads; None for another op."""
    if op.name == "cf.br":
        return [tuple(op.operands)]
    if op.name == "cf.cond_br":
        return [tuple(op.then_arguments), tuple(op.else_arguments)]  # type: ignore[attr-defined]
    return None


def _verify_terminator(parent: Operation, region: Region, block: Block) -> None:
    """A block of an op that needs terminators ends with one (MLIR's wording)."""
    last = block.last_op
    if last is not None and (isinstance(last, UnregisteredOp) or class_has_trait(type(last), IsTerminator)):
        return
    if len(region.blocks) == 1 and (isinstance(parent, UnregisteredOp) or class_has_trait(type(parent), NoTerminator)):
        return
    if last is None:
        raise OpVerifyError(parent, "empty block: expect at least a terminator")
    raise OpVerifyError(last, f"block with no terminator, has {_generic_text(last)}")


def _verify_tensor_sizes(op: Operation) -> None:
    """Triton's ``TensorSizeTrait`` (every ``tt`` op): each ranked tensor operand, then
    result, has at most ``MAX_TENSOR_ELEMENTS`` elements, and a power-of-two count
    (zero passes the bit test, as in Triton)."""
    for value in (*op.operands, *op.results):
        ty = value.type
        if not isinstance(ty, TensorType):
            continue
        n = math.prod(ty.get_shape())
        if n > MAX_TENSOR_ELEMENTS:
            raise OpVerifyError(
                op, f"Maximum allowed number of elements is {MAX_TENSOR_ELEMENTS}, but {_generic_text(op)} has more than that"
            )
        if n & (n - 1):
            raise OpVerifyError(
                op, f"Number of elements must be power-of-two, but {_generic_text(op)} doesn't follow the rule ({n}) elements"
            )


def _verify_layouts(op: Operation, walk: _Walk) -> None:
    context = walk.context(op)
    for index, operand in enumerate(op.operands):
        problem = walk.problem(operand.type, context)
        if problem is not None:
            raise OpVerifyError(
                op, f"Operand {index} ({_value_text(operand)}) has an invalid layout: {problem}"
            )
    for index, result in enumerate(op.results):
        problem = walk.problem(result.type, context)
        if problem is not None:
            what = "Result" if len(op.results) == 1 else f"Result {index}"
            raise OpVerifyError(op, f"{what} has an invalid layout: {problem}")


def _verify_if_yields(op: scf.IfOp) -> None:
    """Each branch of an ``scf.if`` yields its results' types (xDSL 0.74 does not check;
    it even adds an empty ``scf.yield`` to a branch that has none)."""
    from xdsl.dialects import scf  # already loaded: the op is one of its ops

    expected = [r.type for r in op.results]
    for index, region in enumerate(op.regions):
        if not region.blocks or not isinstance(region.block.last_op, scf.YieldOp):
            continue
        got = [v.type for v in region.block.last_op.operands]
        if got != expected:
            raise OpVerifyError(
                op,
                f"'scf.if' op region #{index} yields {len(got)} value(s) of types ({', '.join(map(str, got))}) "
                f"but the op has {len(expected)} result(s) of types ({', '.join(map(str, expected))})",
            )


def _mlir_parent_message(name: str, message: str) -> str:
    """xDSL's ``HasParent`` message in MLIR's words: ``'x' expects parent op 'p'`` becomes
    ``'x' op expects parent op 'p'``, and ``... to be one of 'p', 'q'`` becomes ``... to
    be one of 'p, q'`` with the names sorted (the order of MLIR's ODS lists, e.g.
    ``scf.yield``'s); any other message is returned as is."""
    head = f"'{name}' expects parent op "
    if not message.startswith(head):
        return message
    rest = message[len(head) :]
    if rest.startswith("to be one of "):
        names = sorted(n.strip().strip("'") for n in rest[len("to be one of ") :].split(","))
        rest = f"to be one of '{', '.join(names)}'"
    return f"'{name}' op expects parent op {rest}"


def _strip_xdsl_prefix(message: str) -> str:
    for prefix in ("Operation does not verify: ",):
        if message.startswith(prefix):
            message = message[len(prefix) :]
    return message
