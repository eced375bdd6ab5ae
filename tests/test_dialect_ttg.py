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
    "%m3: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>, %b8: tensor<64x32xi8>, "
    "%idx: tensor<64x64xi32, #blocked>, %ms: !ttg.memdesc<64x64xf16, #shared2, #smem, mutable>, %pr: i1, %n: i64, "
    "%r4: !ttg.memdesc<32x1x2x64xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, "
    "order = [3, 2, 1, 0]}>, #smem, mutable>"
)

WS_PARTITIONS = (
    "%0 = ttg.warp_specialize(%i, %n) attributes {requestedRegisters = array<i32: 24, 48>, "
    "warpGroupStartIds = array<i32: 4, 6>}\n"
    "default {\n"
    "ttg.warp_yield %n : i64\n"
    "}\n"
    "partition0(%a0: i32, %a1: i64) num_warps(2) {\n"
    "%1 = arith.addi %a0, %a0 : i32\n"
    "ttg.warp_return\n"
    "}\n"
    "partition1(%a0: i32, %a1: i64) num_warps(1) {\n"
    "ttg.warp_return\n"
    "} : (i32, i64) -> i64"
)
"""Two partitions with captures (Triton re-uses the argument names of the isolated
partition regions; ltc's names differ, so only the Triton re-print is compared)."""

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
    "async_copy_qualified_memdesc": (
        "%0 = ttg.async_copy_global_to_local %p, %md {contiguity = 4 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> "
        "-> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>"
    ),
    "async_copy_cache_policy": (
        "%0 = ttg.async_copy_global_to_local %p, %md {cachePolicy = #tt.cache_policy<cache_modifier = ca, "
        "eviction_policy = evict_last>, contiguity = 1 : i32, isVolatile = false} : "
        "tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>"
    ),
    "warp_specialize_nothing": "ttg.warp_specialize()\ndefault {\nttg.warp_yield\n} : () -> ()",
    "warp_specialize_partitions": (
        "%0 = ttg.warp_specialize(%i, %n) attributes {warpGroupStartIds = array<i32: 4>}\n"
        "default {\nttg.warp_yield %n : i64\n}\n"
        "partition0(%a0: i32, %a1: i64) num_warps(2) {\n%1 = arith.addi %a0, %a0 : i32\nttg.warp_return\n}"
        " : (i32, i64) -> i64"
    ),
    "warp_specialize_results": (
        "%0 = ttg.warp_specialize(%i) attributes {zz = 1 : i32}\ndefault {\nttg.warp_yield %i : i32\n}\n"
        "partition0(%a0: i32) num_warps(4) {\nttg.warp_return\n} : (i32) -> i32"
    ),
    "warp_specialize_generic": (
        '"ttg.warp_specialize"() ({\n"ttg.warp_yield"() : () -> ()\n}, {\n'
        '"ttg.warp_specialize.partitions"() ({\n"ttg.warp_return"() : () -> ()\n}) : () -> ()\n'
        "}) {partitionNumWarps = array<i32: 8>} : () -> ()"
    ),
    "warp_id": "%0 = ttg.warp_id\n%1 = ttg.warp_id {omitUniformHint}",
    "fp4_to_fp": "%0 = ttg.fp4_to_fp %b8 {axis = 1 : i32} : tensor<64x32xi8> -> tensor<64x64xbf16>",
    "memdesc_reshape": (
        "%0 = ttg.memdesc_reshape %r4 : !ttg.memdesc<32x1x2x64xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, "
        "maxPhase = 1, order = [3, 2, 1, 0]}>, #smem, mutable> -> !ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{"
        "vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #smem, mutable>"
    ),
    "local_gather": (
        "%0 = ttg.local_gather %ms[%idx] {axis = 0 : i32} : !ttg.memdesc<64x64xf16, #shared2, #smem, mutable>, "
        "tensor<64x64xi32, #blocked> -> tensor<64x64xf16, #blocked>"
    ),
    "local_gather_token": (
        "%0 = ttg.local_gather %ms[%idx] token %tk {axis = 1 : i32} : "
        "!ttg.memdesc<64x64xf16, #shared2, #smem, mutable>, tensor<64x64xi32, #blocked> -> tensor<64x64xf16, #blocked>"
    ),
    "local_scatter": (
        "ttg.local_scatter %ms[%idx], %x {axis = 1 : i32} : !ttg.memdesc<64x64xf16, #shared2, #smem, mutable>, "
        "tensor<64x64xi32, #blocked>, tensor<64x64xf16, #blocked>"
    ),
    "local_atomic_scatter_rmw": (
        "%0 = ttg.local_atomic_scatter_rmw fadd, %ms[%idx], %x, %m {axis = 0 : i32} : "
        "(!ttg.memdesc<64x64xf16, #shared2, #smem, mutable>, tensor<64x64xf16, #blocked>, "
        "tensor<64x64xi32, #blocked>, tensor<64x64xi1, #blocked>) -> tensor<64x64xf16, #blocked>"
    ),
    "predicate_stage": "%0 = ttg.predicate_stage %i, %i, %i maxStage 3 stage 1 : i32 -> i1",
    "mask": (
        '%0 = "ttg.mask"(%pr) ({\n%1 = arith.addi %i, %i : i32\nttg.mask.return %1 : i32\n}) : (i1) -> i32'
    ),
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
        """isVolatile = false and contiguity = 1 are not printed; the cache policy is, as Triton does."""
        body = (
            "%0 = ttg.async_copy_global_to_local %p, %md mask %m {cachePolicy = #tt.cache_policy<cache_modifier = "
            "none, eviction_policy = evict_normal>, contiguity = 1 : i32, isVolatile = false} : "
            "tensor<64x64x!tt.ptr<f16>, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>"
        )
        printed, _ = _roundtrip(body)
        line = next(x for x in op_lines(printed) if "async_copy" in x)
        assert (
            "mask %v2 {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_normal>} : "
            "tensor<64x64x!tt.ptr<f16>, #ttg.blocked<" in line
        )
        assert line.endswith("-> <64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                             "elementBitWidth = 16}>, #ttg.shared_memory, mutable>")

    @oracle.requires_triton
    def test_two_partitions_reprint(self) -> None:
        """Several isolated partitions: Triton re-prints ltc's text as it re-prints the original."""
        printed, original = _roundtrip(WS_PARTITIONS)
        assert oracle.triton_reprint(printed) == oracle.triton_reprint(original)
        two = WS_PARTITIONS.replace("%0 = ", "%0:2 = ").replace("ttg.warp_yield %n : i64", "ttg.warp_yield %n, %n : i64, i64")
        two = two.replace("-> i64", "-> (i64, i64)")
        printed, original = _roundtrip(two)
        assert oracle.triton_reprint(printed) == oracle.triton_reprint(original)
        assert [line.split("(")[0] for line in op_lines(printed) if "partition" in line] == [
            "partition0",
            "partition1",
        ]

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
    # warp specialization
    (
        '"ttg.warp_specialize"() ({\n"ttg.warp_yield"() : () -> ()\n}, {\n"ttg.warp_yield"() : () -> ()\n}) '
        "{partitionNumWarps = array<i32>} : () -> ()",
        "'ttg.warp_specialize' op expected to find only a `ttg.warp_specialize.partitions` op inside its second region",
    ),
    (
        '"ttg.warp_specialize"() ({\n"ttg.warp_yield"() : () -> ()\n}, {\n'
        '"ttg.warp_specialize.partitions"() : () -> ()\n}) {partitionNumWarps = array<i32: 1>} : () -> ()',
        "'ttg.warp_specialize' op has 0 partitions but `partitionNumWarps` has 1 elements",
    ),
    (
        "ttg.warp_specialize()\ndefault {\nttg.warp_yield\n}\npartition0() num_warps(3) {\nttg.warp_return\n} "
        ": () -> ()",
        "'ttg.warp_specialize' op partition #0 number of warps (3) must be a power of 2",
    ),
    (
        "ttg.warp_specialize() attributes {warpGroupStartIds = array<i32: 4>}\ndefault {\nttg.warp_yield\n}\n"
        "partition0() num_warps(2) {\nttg.warp_return\n}\npartition1() num_warps(1) {\nttg.warp_return\n} "
        ": () -> ()",
        "'ttg.warp_specialize' op has 1 warp group start IDs but expected 2",
    ),
    (
        "ttg.warp_specialize()\ndefault {\nttg.warp_yield\n}\npartition0(%a: i32) num_warps(4) {\n"
        "ttg.warp_return\n} : () -> ()",
        "'ttg.warp_specialize.partitions' op partition region #0 has 1 arguments but expected 0",
    ),
    (
        "ttg.warp_specialize(%i)\ndefault {\nttg.warp_yield\n}\npartition0(%a: i64) num_warps(4) {\n"
        "ttg.warp_return\n} : (i32) -> ()",
        "'ttg.warp_specialize.partitions' op partition region #0 argument #0 has type 'i64' but corresponding "
        "capture has type 'i32'",
    ),
    (
        "%0 = ttg.warp_specialize()\ndefault {\nttg.warp_yield\n} : () -> i32",
        "'ttg.warp_yield' op has 0 operands but parent op expected 1",
    ),
    (
        "%0 = ttg.warp_specialize()\ndefault {\nttg.warp_yield %n : i64\n} : () -> i32",
        "'ttg.warp_yield' op operand #0 has type 'i64' but parent op expected 'i32'",
    ),
    (
        "ttg.warp_specialize()\ndefault {\nttg.warp_specialize()\ndefault {\nttg.warp_yield\n} : () -> ()\n"
        "ttg.warp_yield\n} : () -> ()",
        "'ttg.warp_specialize' op cannot be nested inside another `ttg.warp_specialize` op",
    ),
    # fp4_to_fp
    (
        "%0 = ttg.fp4_to_fp %b8 {axis = 1 : i32} : tensor<64x32xi8> -> tensor<64x32xbf16>",
        "axis 1 dimension must be 2x source dimension (src=32, dst=32)",
    ),
    (
        "%0 = ttg.fp4_to_fp %b8 {axis = 1 : i32} : tensor<64x32xi8> -> tensor<64x64xf32>",
        "only bf16 or f16 is supported for now, got 'f32'",
    ),
    (
        "%0 = ttg.fp4_to_fp %b8 {axis = 2 : i32} : tensor<64x32xi8> -> tensor<64x64xf16>",
        "axis 2 out of range for rank 2",
    ),
    # views
    (
        "%0 = ttg.memdesc_reshape %r4 : !ttg.memdesc<32x1x2x64xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, "
        "maxPhase = 1, order = [3, 2, 1, 0]}>, #smem, mutable> -> !ttg.memdesc<64x32xf16, #ttg.swizzled_shared<{"
        "vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #smem, mutable>",
        "number of src and dst elements of reshape must be the same",
    ),
    (
        "%0 = ttg.memdesc_reshape %r4 : !ttg.memdesc<32x1x2x64xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, "
        "maxPhase = 1, order = [3, 2, 1, 0]}>, #smem, mutable> -> !ttg.memdesc<64x64xf32, #ttg.swizzled_shared<{"
        "vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #smem, mutable>",
        "'ttg.memdesc_reshape' op requires the same element type for all operands and results",
    ),
    (
        "%0 = ttg.memdesc_subslice %ms[0, 32] : !ttg.memdesc<64x64xf16, #shared2, #smem, mutable> "
        "-> !ttg.memdesc<64x32xf16, #shared2, #smem, mutable>",
        "source and result must have the same allocation shape",
    ),
    (
        "%0 = ttg.memdesc_index %m3[%i] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> "
        "-> !ttg.memdesc<64x64xf16, #shared2, #smem, mutable>",
        "src and result must have the same encoding",
    ),
    (
        "%0 = ttg.memdesc_index %m3[%i] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> "
        "-> !ttg.memdesc<64x64xf16, #shared, #smem, mutable, 2x64x64>",
        "alloc shape must match shape for the result",
    ),
    (
        "%0 = ttg.local_gather %ms[%idx] {axis = 2 : i32} : !ttg.memdesc<64x64xf16, #shared2, #smem, mutable>, "
        "tensor<64x64xi32, #blocked> -> tensor<64x64xf16, #blocked>",
        "axis 2 is out of bounds for source rank 2",
    ),
    (
        "%0 = ttg.local_gather %ms[%idx] {axis = 0 : i32} : !ttg.memdesc<64x64xf16, #shared2, #smem, mutable>, "
        "tensor<64x64xi32, #blocked> -> tensor<64x64xf32, #blocked>",
        "result element type must match source element type",
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


# -- warp counts inside ttg.warp_specialize partitions (ltc-opt's module verifier) ---------

WS_LAYOUT_MODULE = """\
#blocked_2 = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}}>
#blocked_4 = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>
module attributes {{"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func @f() {{
    ttg.warp_specialize()
    default {{
      %0 = tt.make_range {{end = 128 : i32, start = 0 : i32}} : tensor<128xi32, #blocked_4>
      ttg.warp_yield
    }}
    partition0() num_warps(2) {{
      %1 = tt.make_range {{end = 128 : i32, start = 0 : i32}} : tensor<128xi32, {layout}>
      ttg.warp_return
    }} : () -> ()
    tt.return
  }}
}}
"""


def _opt(text: str) -> tuple[int, str, str]:
    import io

    from ltc.tools.opt import run

    out, err = io.StringIO(), io.StringIO()
    rc = run(["-"], io.StringIO(text), out, err)
    return rc, out.getvalue(), err.getvalue()


class Test_partition_warps:
    def test_partition_layout_uses_its_warp_count(self) -> None:
        rc, out, err = _opt(WS_LAYOUT_MODULE.format(layout="#blocked_2"))
        assert rc == 0, err
        assert "partition0() num_warps(2) {" in out

    def test_enclosing_warp_count_rejected_in_partition(self) -> None:
        rc, _, err = _opt(WS_LAYOUT_MODULE.format(layout="#blocked_4"))
        assert rc == 1
        assert "Layout has 4 warps per CTA, but the context requires 2 warps per CTA." in err

    @oracle.requires_triton
    def test_triton_agrees(self) -> None:
        oracle.triton_reprint(WS_LAYOUT_MODULE.format(layout="#blocked_2"))
        with pytest.raises(oracle.OracleError) as info:
            oracle.triton_reprint(WS_LAYOUT_MODULE.format(layout="#blocked_4"))
        assert "Layout has 4 warps per CTA, but the context requires 2 warps per CTA" in info.value.diagnostics


class Test_memdesc_layout_rank:
    @pytest.mark.parametrize(
        ("type_text", "message"),
        [
            (
                "!ttg.memdesc<8x16xf32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, "
                "order = [2, 1, 0]}>, #smem>",
                "rank must be equal to or one less than the shape size. Got 3 and 2",
            ),
            (
                "!ttg.memdesc<2x2xf32, #ttg.padded_shared<[4:+4] {offset = [[1, 0], [2, 0], [0, 1], [0, 2]], "
                "block = []}>, #smem>",
                "Mismatch in expected shape for dimension 0. Expected: 2, got: 4",
            ),
        ],
    )
    def test_rejected_like_triton(self, type_text: str, message: str) -> None:
        text = module_text(f"%a: {type_text}", "")
        with pytest.raises(VerifyException, match=_exact(message)):
            parse(text)
        if oracle.HAVE_TRITON:
            with pytest.raises(oracle.OracleError) as info:
                oracle.triton_reprint(text)
            assert message in info.value.diagnostics


_REINTERPRET_TMEM = """\
#tmem_f32 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 16, colStride = 1>
#tmem_r = #ttng.tensor_memory_encoding<blockM = 128, blockN = 16, colStride = STRIDE>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func private @reinterpret(%arg0: !ttg.memdesc<128x32xf32, #tmem_f32, #ttng.tensor_memory>) -> !ttg.memdesc<SHAPExf16, #tmem_r, #ttng.tensor_memory> {
    %0 = ttg.memdesc_reinterpret %arg0 : !ttg.memdesc<128x32xf32, #tmem_f32, #ttng.tensor_memory> -> !ttg.memdesc<SHAPExf16, #tmem_r, #ttng.tensor_memory>
    tt.return %0 : !ttg.memdesc<SHAPExf16, #tmem_r, #ttng.tensor_memory>
  }
}
"""


@pytest.mark.parametrize(
    ("shape", "stride", "columns"), [("256x32", 2, 64), ("128x64", 1, None), ("128x32", 2, None), ("128x128", 1, 64)]
)
def test_memdesc_reinterpret_stays_inside_the_tensor_memory_columns(shape: str, stride: int, columns: int | None) -> None:
    # 128x32 f32 in 16-column blocks spans 32 columns; f16 packs two per column unless colStride = 2
    import io

    from ltc.tools import opt

    text = _REINTERPRET_TMEM.replace("SHAPE", shape).replace("STRIDE", str(stride))
    out, err = io.StringIO(), io.StringIO()
    status = opt.run(["-"], io.StringIO(text), out, err)
    if columns is None:
        assert status == 0, err.getvalue()
    else:
        assert status == 1
        assert err.getvalue().splitlines()[0] == (
            f"<stdin>:5:10: error: 'ttg.memdesc_reinterpret' op result tensor-memory column footprint "
            f"({columns} columns) exceeds the source view (32 columns)"
        )
    if oracle.HAVE_TRITON:
        try:
            oracle.triton_reprint(text)
            accepted = True
        except oracle.OracleError:
            accepted = False
        assert accepted == (columns is None)
