"""The ``ttg`` dialect: Triton 3.9 syntax of every op, verifiers, canonicalization.

Each op case is a Triton text (``tests.dialect_helpers.module_text``). ltc parses
and prints it; the op lines must equal Triton's own printing of the same text
(after ``normalize``), and Triton must re-print ltc's output exactly as it re-prints
the original (differential oracle).
"""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import f16
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.utils.exceptions import ParseError, VerifyException

from ltc.dialects.context import triton_context
from ltc.dialects.ttg import (
    ConvertLayoutOp,
    MemDescType,
    SharedMemorySpaceAttr,
)
from ltc.dialects.ttg.convert_layout import same_layout
from tests import oracle
from tests.dialect_helpers import find_ops, module_text, op_lines, parse, parse_unverified, print_ir

ARGS = (
    "%x: tensor<64x64xf16, #blocked>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>, "
    "%m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>, %i: i32, %tk: !ttg.async.token, "
    "%md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %im: !ttg.memdesc<64x64xf16, #shared, #smem>, "
    "%m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>"
)

# name -> op text (one line each; several ops where one needs another's result)
OP_CASES: dict[str, str] = {
    "convert_layout": "%0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>",
    "local_alloc_src": (
        "%0 = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>"
    ),
    "local_alloc_empty": "%0 = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>",
    "local_alloc_alignment": (
        "%0 = ttg.local_alloc {alignment = 16 : i32} : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>"
    ),
    "local_load": "%0 = ttg.local_load %im : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>",
    "local_load_token": (
        "%0 = ttg.local_load %md token %tk : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> "
        "-> tensor<64x64xf16, #blocked>"
    ),
    "local_store": (
        "ttg.local_store %x, %md : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>"
    ),
    "local_dealloc": "ttg.local_dealloc %m3 : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>",
    "memdesc_trans": (
        "%0 = ttg.memdesc_trans %im {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> "
        "-> !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, "
        "elementBitWidth = 16}>, #smem>"
    ),
    "memdesc_index": (
        "%0 = ttg.memdesc_index %m3[%i] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> "
        "-> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>"
    ),
    "memdesc_subslice": (
        "%0 = ttg.memdesc_subslice %md[0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> "
        "-> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>"
    ),
    "memdesc_reinterpret": (
        "%0 = ttg.memdesc_reinterpret %md : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> "
        "-> !ttg.memdesc<4096xi16, #shared1, #smem, mutable>"
    ),
    "async_copy": (
        "%0 = ttg.async_copy_global_to_local %p, %md : tensor<64x64x!tt.ptr<f16>, #blocked> "
        "-> <64x64xf16, #shared, #smem, mutable>"
    ),
    "async_copy_mask_other_attrs": (
        "%0 = ttg.async_copy_global_to_local %p, %md mask %m other %o {cache = 2 : i32, evict = 3 : i32, "
        "isVolatile = true} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>"
    ),
    "async_commit_group": "%0 = ttg.async_commit_group",
    "async_commit_group_tokens": "%0 = ttg.async_commit_group tokens %tk, %tk",
    "async_wait": "%0 = ttg.async_wait {num = 0 : i32}",
    "async_wait_tokens": "%0 = ttg.async_wait %tk, %tk {num = 1 : i32}",
    "barrier_local": "ttg.barrier local",
    "barrier_set": "ttg.barrier local|global_write|tensor_read",
    "barrier_all": "ttg.barrier all",
    "global_scratch_alloc": "%0 = ttg.global_scratch_alloc {alignment = 1 : i32, nbytes = 1 : i32} : !tt.ptr<i8>",
}


def _roundtrip(body: str) -> tuple[str, str]:
    """(ltc's printing, Triton's printing) of the module holding ``body``."""
    text = module_text(ARGS, body)
    ltc_printed = print_ir(parse(text))
    return ltc_printed, text


class Test_op_syntax:
    @pytest.mark.parametrize("case", sorted(OP_CASES))
    def test_roundtrip_is_stable(self, case: str) -> None:
        """ltc's printing parses back to the same printing."""
        printed, _ = _roundtrip(OP_CASES[case])
        assert print_ir(parse(printed)) == printed

    @oracle.requires_triton
    @pytest.mark.parametrize("case", sorted(OP_CASES))
    def test_prints_like_triton(self, case: str) -> None:
        printed, original = _roundtrip(OP_CASES[case])
        triton_printed = oracle.triton_reprint(original)
        assert op_lines(printed) == op_lines(triton_printed)
        assert oracle.triton_reprint(printed) == triton_printed

    def test_defaults_elided(self) -> None:
        """isVolatile = false is not printed; cache/evict are, as Triton does."""
        body = (
            "%0 = ttg.async_copy_global_to_local %p, %md mask %m {cache = 1 : i32, evict = 1 : i32, "
            "isVolatile = false} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>"
        )
        printed, _ = _roundtrip(body)
        line = next(x for x in op_lines(printed) if "async_copy" in x)
        assert "{cache = 1 : i32, evict = 1 : i32} :" in line

    def test_examples_ops_parse(self) -> None:
        """Every ttg/ttng op of the Triton examples is registered (parse of the op names)."""
        from ltc.dialects.ttg import TTG
        from ltc.dialects.ttng import TTNG

        names = {op.name for op in (*TTG.operations, *TTNG.operations)}
        import pathlib
        import re

        used: set[str] = set()
        for path in pathlib.Path(__file__).parent.parent.glob("examples/triton/*.ttgir"):
            used |= set(re.findall(r"^\s*(?:%\S+ = )?((?:ttg|ttng)\.[a-z_]+)\b", path.read_text(), re.MULTILINE))
        assert "ttng.warp_group_dot" in used
        assert used <= names, sorted(used - names)


class Test_memdesc_type:
    def test_parameters(self) -> None:
        printed, _ = _roundtrip(OP_CASES["memdesc_subslice"])
        module = parse(printed)
        (op,) = find_ops(module, "ttg.memdesc_subslice")
        t = op.results[0].type
        assert isinstance(t, MemDescType)
        assert t.get_shape() == (64, 32)
        assert t.get_alloc_shape() == (64, 64)
        assert t.is_mutable
        assert t.memory_space == SharedMemorySpaceAttr()

    def test_built_type_prints_like_parsed(self) -> None:
        """A view's alloc shape is printed only when it differs from the shape."""
        module = parse(module_text(ARGS, ""))
        md = module.body.block.ops.first.body.block.args[6].type  # %md
        assert isinstance(md, MemDescType)
        whole = md.with_changes(shape=[64, 64])
        view = md.with_changes(shape=[64, 32], alloc_shape=[64, 64])
        assert str(whole) == str(md)
        assert str(view).endswith(", mutable, 64x64>")
        assert MemDescType([64, 64], f16, md.encoding).get_alloc_shape() == (64, 64)

    @pytest.mark.parametrize(
        ("type_text", "message"),
        [
            ("!ttg.memdesc<f16, #shared, #smem>", "rank 0 memdesc is not allowed"),
            (
                "!ttg.memdesc<64x64xf16, #blocked, #smem>",
                "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
                "order = [1, 0]}> is not a valid encoding",
            ),
            (
                "!ttg.memdesc<64x64xf16, #shared, #ttng.tensor_memory>",
                "memorySpace must be SharedMemorySpace for shared encoding. Got #ttng.tensor_memory",
            ),
            (
                "!ttg.memdesc<64x64xf16, #shared2, #smem, mutable, 2x32x64>",
                "shape must be less than or equal to allocShape. shape = 64, 64, allocShape = 2, 32, 64",
            ),
            (
                "!ttg.memdesc<64x32xf16, #shared, #smem>",
                "block shape along the contiguous dimension 1 is too small for the swizzle byte size 128 in an "
                "NVMMASharedLayout, got 32 but expected at least 64",
            ),
        ],
    )
    def test_invalid(self, type_text: str, message: str) -> None:
        text = module_text(f"%a: {type_text}", "")
        with pytest.raises((ParseError, VerifyException), match=_exact(message)):
            parse(text)

    @oracle.requires_triton
    @pytest.mark.parametrize(
        "type_text",
        [
            "!ttg.memdesc<64x64xf16, #shared, #smem, mutable, 2x64x64>",
            "!ttg.memdesc<64x64xf16, #shared, #smem, 2x64x64>",
            "!ttg.memdesc<64x64xf16, #shared, #smem, mutable, 64x64>",
            "!ttg.memdesc<1xi64, #shared1, #smem, mutable>",
        ],
    )
    def test_type_prints_like_triton(self, type_text: str) -> None:
        text = module_text(f"%a: {type_text}", "")
        printed = print_ir(parse(text))
        assert oracle.triton_reprint(printed) == oracle.triton_reprint(text)


def _exact(message: str) -> str:
    import re

    return re.escape(message)


# (op text, Triton's message) -- one per verifier rule
INVALID_CASES: list[tuple[str, str]] = [
    (
        "%0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x32xf16, #blocked1>",
        "requires the same shape for all operands and results",
    ),
    (
        "%0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf32, #blocked1>",
        "requires the same element type for all operands and results",
    ),
    (
        "%0 = ttg.local_load %md : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #blocked>",
        "source shape [64, 64] must match [destination shape 64, 32]",
    ),
    (
        "%0 = ttg.local_load %md : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf32, #blocked>",
        "source element type '!ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, "
        "transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>' must match destination "
        "element type 'f32'",
    ),
    (
        "ttg.local_store %x, %im : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem>",
        "Cannot store into immutable memory",
    ),
    (
        "%0 = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf32, #shared, #smem>",
        "source element type 'tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
        "warpsPerCTA = [4, 1], order = [1, 0]}>>' must match destination element type 'f32'",
    ),
    (
        "%0 = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem>",
        "uninitialized alloc must have a mutable memdesc type",
    ),
    (
        "%0 = ttg.memdesc_trans %im {order = array<i32: 1, 1>} : !ttg.memdesc<64x64xf16, #shared, #smem> "
        "-> !ttg.memdesc<64x64xf16, #shared, #smem>",
        "order must be a permutation of [0, ..., rank - 1]",
    ),
    (
        "%0 = ttg.memdesc_trans %im {order = array<i32: 1, 0, 2>} : !ttg.memdesc<64x64xf16, #shared, #smem> "
        "-> !ttg.memdesc<64x64xf16, #shared, #smem>",
        "order must have the same size as the rank of the operand and result",
    ),
    (
        "%0 = ttg.memdesc_index %m3[%i] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> "
        "-> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>",
        "result rank must be input rank - 1",
    ),
    (
        "%0 = ttg.memdesc_index %m3[%i] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> "
        "-> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>",
        "result element type must match desc element type",
    ),
    (
        "%0 = ttg.memdesc_subslice %md[0, 48] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> "
        "-> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>",
        "The split offset may not exceed the source shape",
    ),
    (
        "%0 = ttg.memdesc_subslice %md[0, 32, 0] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> "
        "-> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>",
        "offsets must have the same rank as input",
    ),
    (
        "%0 = ttg.memdesc_subslice %md[0, 16] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> "
        "-> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>",
        "The split offset may not touch the tile",
    ),
    (
        "%0 = ttg.memdesc_subslice %md[0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> "
        "-> !ttg.memdesc<64x32xf16, #shared2, #smem, mutable, 64x64>",
        "src and result must have the same encoding",
    ),
    (
        "%0 = ttg.async_copy_global_to_local %p, %im : tensor<64x64x!tt.ptr<f16>, #blocked> "
        "-> <64x64xf16, #shared, #smem>",
        "Cannot store into immutable memory",
    ),
]

# ltc-only checks (Triton infers or does not check these), with ltc's message
LTC_INVALID_CASES: list[tuple[str, str]] = [
    (
        "%0 = ttg.memdesc_trans %im {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> "
        "-> !ttg.memdesc<64x64xf32, #shared2, #smem>",
        "result type !ttg.memdesc<64x64xf32, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
        "order = [1, 0]}>, #ttg.shared_memory> must have shape 64x64 and element type f16 (the source "
        "permuted by order)",
    ),
    (
        "%c = arith.constant 2 : i32\n%0 = ttg.memdesc_index %m3[%c] : "
        "!ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>",
        "index 2 is out of range for a leading dimension of size 2",
    ),
    ("ttg.barrier shared", "unknown addrSpace 'shared'"),
]


class Test_verifiers:
    @pytest.mark.parametrize(("body", "message"), INVALID_CASES, ids=[m[:40] for _, m in INVALID_CASES])
    def test_message(self, body: str, message: str) -> None:
        module = parse_unverified(module_text(ARGS, body))
        with pytest.raises(VerifyException, match=_exact(message)):
            module.verify()

    @oracle.requires_triton
    @pytest.mark.parametrize(("body", "message"), INVALID_CASES, ids=[m[:40] for _, m in INVALID_CASES])
    def test_triton_says_the_same(self, body: str, message: str) -> None:
        with pytest.raises(oracle.OracleError) as info:
            oracle.triton_reprint(module_text(ARGS, body))
        assert message in info.value.diagnostics

    @pytest.mark.parametrize(("body", "message"), LTC_INVALID_CASES, ids=[m[:40] for _, m in LTC_INVALID_CASES])
    def test_ltc_only(self, body: str, message: str) -> None:
        with pytest.raises((ParseError, VerifyException), match=_exact(message)):
            parse(module_text(ARGS, body))


# -- canonicalization ---------------------------------------------------------

# #linear1 is #blocked's linear layout for 64x64 (so cvt #blocked <-> #linear1 moves no data);
# #linear2 differs from #blocked in one lane basis.
CANON_HEADER_EXTRA = {
    "#linear1": (
        "#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [16, 0], [32, 0]], lane = [[0, 8], [0, 16], [0, 32], "
        "[1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>"
    ),
    "#linear2": (
        "#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [16, 0], [32, 0]], lane = [[0, 8], [0, 16], [0, 32], "
        "[2, 0], [1, 0]], warp = [[4, 0], [8, 0]], block = []}>"
    ),
}


STORE = "ttg.local_store {}, %md : tensor<64x64xf16, {}> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>"


def _canon_module(args: str, body: str) -> str:
    """Module text for a canonicalization case; ``%md`` is a buffer to store results
    into (stores keep values alive through DCE)."""
    text = module_text(args + ", %md: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>", body)
    extra = "".join(f"{k} = {v}\n" for k, v in CANON_HEADER_EXTRA.items())
    return extra + text


def _canonicalize(text: str) -> list[str]:
    module = parse(text)
    CanonicalizePass().apply(triton_context(), module)
    module.verify()
    return op_lines(print_ir(module))


BLOCKED = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"


class Test_canonicalize:
    def test_distinct_layouts_are_distinct_types(self) -> None:
        """Type equality must see the layout (the folds rely on it)."""
        module = parse(
            _canon_module(
                "%x: tensor<64x64xf16, #blocked>",
                "%0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>",
            )
        )
        (op,) = find_ops(module, "ttg.convert_layout")
        assert isinstance(op, ConvertLayoutOp)
        assert op.src.type != op.result.type
        assert not same_layout(op.src.type, op.result.type)

    def test_linear_equals_blocked(self) -> None:
        """The #linear1 written here is #blocked's linear layout; #linear2 is not."""
        module = parse(
            _canon_module(
                "%x: tensor<64x64xf16, #blocked>",
                "%0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #linear1>\n"
                "%1 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #linear2>",
            )
        )
        a, b = find_ops(module, "ttg.convert_layout")
        assert isinstance(a, ConvertLayoutOp) and isinstance(b, ConvertLayoutOp)
        assert same_layout(a.src.type, a.result.type)
        assert not same_layout(b.src.type, b.result.type)

    def test_identity_folds(self) -> None:
        lines = _canonicalize(
            _canon_module(
                "%x: tensor<64x64xf16, #blocked>",
                "%0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked>\n"
                "%1 = ttg.local_alloc %0 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>",
            )
        )
        assert not any("convert_layout" in line for line in lines)
        assert lines[1] == (
            f"%v2 = ttg.local_alloc %v0 : (tensor<64x64xf16, {BLOCKED}>) -> !ttg.memdesc<64x64xf16, "
            "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, "
            "#ttg.shared_memory>"
        )

    def test_equal_linear_layout_folds_into_local_alloc(self) -> None:
        """#linear1 -> #blocked moves no data; local_alloc accepts either layout."""
        lines = _canonicalize(
            _canon_module(
                "%x: tensor<64x64xf16, #linear1>",
                "%0 = ttg.convert_layout %x : tensor<64x64xf16, #linear1> -> tensor<64x64xf16, #blocked>\n"
                "%1 = ttg.local_alloc %0 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>",
            )
        )
        assert not any("convert_layout" in line for line in lines)
        assert lines[1].startswith("%v2 = ttg.local_alloc %v0 : (tensor<64x64xf16, #ttg.linear<{register = ")

    def test_different_layouts_do_not_fold(self) -> None:
        lines = _canonicalize(
            _canon_module(
                "%x: tensor<64x64xf16, #linear2>",
                "%0 = ttg.convert_layout %x : tensor<64x64xf16, #linear2> -> tensor<64x64xf16, #blocked>\n"
                "%1 = ttg.local_alloc %0 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>",
            )
        )
        assert sum("ttg.convert_layout" in line for line in lines) == 1

    def test_equal_layout_kept_for_other_users(self) -> None:
        """A user that constrains the layout (here func's return) keeps the convert."""
        lines = _canonicalize(
            _canon_module(
                "%x: tensor<64x64xf16, #linear1>",
                "%0 = ttg.convert_layout %x : tensor<64x64xf16, #linear1> -> tensor<64x64xf16, #blocked>\n"
                "%1 = ttg.local_alloc %0 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>\n"
                "%2 = ttg.convert_layout %0 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked>\n"
                "%3 = arith.addf %0, %0 : tensor<64x64xf16, #blocked>\n" + STORE.format("%3", "#blocked"),
            )
        )
        assert sum("ttg.convert_layout" in line for line in lines) == 1

    def test_chain_merges(self) -> None:
        lines = _canonicalize(
            _canon_module(
                "%x: tensor<64x64xf16, #blocked>",
                "%0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>\n"
                "%1 = ttg.convert_layout %0 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #linear2>\n"
                "%2 = arith.addf %1, %1 : tensor<64x64xf16, #linear2>\n" + STORE.format("%2", "#linear2"),
            )
        )
        cvts = [line for line in lines if "ttg.convert_layout" in line]
        assert len(cvts) == 1
        assert cvts[0].startswith(f"%v2 = ttg.convert_layout %v0 : tensor<64x64xf16, {BLOCKED}> -> ")

    def test_chain_back_to_source_type_folds(self) -> None:
        lines = _canonicalize(
            _canon_module(
                "%x: tensor<64x64xf16, #blocked>",
                "%0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>\n"
                "%1 = ttg.convert_layout %0 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked>\n"
                "%2 = arith.addf %1, %1 : tensor<64x64xf16, #blocked>\n" + STORE.format("%2", "#blocked"),
            )
        )
        assert not any("convert_layout" in line for line in lines)
        assert lines[1] == f"%v2 = arith.addf %v0, %v0 : tensor<64x64xf16, {BLOCKED}>"

    def test_dead_convert_removed(self) -> None:
        lines = _canonicalize(
            _canon_module(
                "%x: tensor<64x64xf16, #blocked>",
                "%0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>",
            )
        )
        assert not any("convert_layout" in line for line in lines)

    def test_constant_rematerialized(self) -> None:
        lines = _canonicalize(
            _canon_module(
                "%x: tensor<64x64xf16, #blocked1>",
                "%0 = arith.constant dense<1.000000e+00> : tensor<64x64xf16, #blocked>\n"
                "%1 = ttg.convert_layout %0 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>\n"
                "%2 = arith.addf %1, %x : tensor<64x64xf16, #blocked1>\n" + STORE.format("%2", "#blocked1"),
            )
        )
        assert not any("convert_layout" in line for line in lines)
        assert lines[1].startswith(
            "%v2 = arith.constant dense<1.000000e+00> : tensor<64x64xf16, #ttg.blocked<{sizePerThread = [8, 1]"
        )
