"""benchmarks/copy_kernels.py: the copy kernel's TTIR template equals what Triton 3.9 prints,
ltc parses it, the derived target widths follow from the arithmetic in their doc, and
Triton's widths for two cases match what its coalescing rule predicts."""

from __future__ import annotations

import os
import sys

import pytest

from tests import oracle

# Top-level imports: xdsl installs a package named ``benchmarks`` that shadows the folder.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks"))
import copy_kernels as ck  # noqa: E402


class Test_Template:
    @oracle.requires_triton
    @pytest.mark.parametrize(
        "rows,k,dtype",
        [(512, 1, "f16"), (512, 2, "f16"), (512, 16, "f8"), (512, 4, "fp8e5"), (512, 8, "f32"), (64, 4, "i8")],
    )
    def test_equals_triton(self, rows: int, k: int, dtype: str) -> None:
        triton_ttir = ck.triton_copy_kernel(rows, k, dtype, use_cache=False).ttir
        assert ck.copy_kernel_ttir(rows, k, dtype) == triton_ttir

    @pytest.mark.parametrize("k", ck.K_VALUES)
    @pytest.mark.parametrize("dtype", ["f8", "f16"])
    def test_ltc_parses(self, k: int, dtype: str) -> None:
        from ltc.tools.pipeline import parse_module

        module = parse_module(ck.copy_kernel_ttir(ck.ROWS, k, dtype))
        text = str(module)
        assert text.count("tt.load") == 1 and text.count("tt.store") == 1

    def test_k1_is_folded(self) -> None:
        text = ck.copy_kernel_ttir(512, 1, "f16")
        assert "arith.muli" not in text and "tt.broadcast" not in text
        assert "tensor<512x1x!tt.ptr<f16>>" in text

    def test_element_types(self) -> None:
        assert "!tt.ptr<f8E4M3FN>" in ck.copy_kernel_ttir(512, 2, "f8")
        assert "!tt.ptr<f8E5M2>" in ck.copy_kernel_ttir(512, 2, "fp8e5")
        assert "dense<4> : tensor<512x1xi32>" in ck.copy_kernel_ttir(512, 4, "f16")

    @pytest.mark.parametrize("rows,k,dtype", [(512, 3, "f16"), (500, 2, "f16"), (512, 2, "f12")])
    def test_bad_arguments(self, rows: int, k: int, dtype: str) -> None:
        with pytest.raises(ValueError):
            ck.copy_kernel_ttir(rows, k, dtype)


class Test_TargetWidths:
    @pytest.mark.parametrize(
        "rows,k,bits,warps,expected",
        [
            (512, 1, 8, 4, "b32"),  # 4 elements x 8 bits
            (512, 2, 8, 4, "v2.b32"),  # 8 x 8 = 64
            (512, 1, 16, 4, "v2.b32"),  # 4 x 16 = 64
            (512, 2, 16, 4, "v4.b32"),  # 8 x 16 = 128
            (512, 16, 16, 4, "v4.b32"),  # 64 x 16, capped at 128
            (512, 1, 16, 8, "b32"),  # 2 x 16 over 256 threads
            (128, 1, 8, 4, "b8"),  # one element per thread
            (128, 1, 16, 4, "b16"),
            (512, 1, 64, 4, "v4.b32"),  # 4 x 64 = 256, capped
        ],
    )
    def test_best_copy_width(self, rows: int, k: int, bits: int, warps: int, expected: str) -> None:
        assert ck.best_copy_width(rows, k, bits, warps) == expected

    def test_table_covers_k_and_dtypes(self) -> None:
        assert set(ck.PAPER_TABLE2) == {(k, d) for k in ck.K_VALUES for d in ("f8", "f16")}

    @pytest.mark.parametrize("key", sorted(ck.PAPER_TABLE2))
    def test_table_is_the_derivation(self, key: tuple[int, str]) -> None:
        k, dtype = key
        assert ck.PAPER_TABLE2[key] == ck.best_copy_width(ck.ROWS, k, 8 * ck.element_bytes(dtype))


class Test_TritonWidths:
    # Triton's coalescing puts sizePerThread along the contiguous dim 1 only, capped by k:
    # [512, 2] f16 -> 2 x 16 = 32 bits per access, 8 elements per thread -> 4 accesses;
    # [512, 1] f16 is contiguous along dim 0 -> 4 elements per thread in one 64-bit access.
    @oracle.requires_triton
    @pytest.mark.parametrize(
        "k,dtype,expected", [(2, "f16", (("b32", 4),)), (1, "f16", (("v2.b32", 1),)), (16, "f8", (("v4.b32", 4),))]
    )
    def test_widths(self, k: int, dtype: str, expected: tuple) -> None:
        w = ck.triton_copy_widths(k, dtype)
        assert w.loads == expected and w.stores == expected


class Test_EntryParams:
    def test_param_types(self) -> None:
        ptx = (
            ".visible .entry k(\n\t.param .u64 .ptr .global .align 1 k_param_0,\n"
            "\t.param .u32 k_param_1,\n\t.param .u64 k_param_2\n)\n.reqntid 128\n{\n\tret;\n}\n"
        )
        assert ck.entry_param_types(ptx) == ["u64", "u32", "u64"]

    def test_no_entry(self) -> None:
        with pytest.raises(ValueError):
            ck.entry_param_types(".version 8.0\n")
