"""The layout engine's pieces: shape-op closure rules, --debug-layouts, and
convert-triton-to-tritongpu's default layouts against Triton's own pass."""

from __future__ import annotations

import io
import pathlib
import re
import tempfile

import pytest

import ltc
from ltc.encodings.blocked import BlockedEncoding, blocked_for_shape, default_blocked
from ltc.encodings.linear import LinearEncoding
from ltc.encodings.shape_rules import (
    expand_dims_encoding,
    join_encoding,
    reshape_encoding,
    split_encoding,
    trans_encoding,
)
from ltc.tools.opt import run

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples" / "triton"
MMA_V2 = ltc.parse_encoding(
    "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>"
)


def test_trans_of_blocked_permutes_its_fields() -> None:
    b = blocked_for_shape([64, 32], [1, 4], [1, 0], 4)
    assert trans_encoding(b, [64, 32], [1, 0]) == BlockedEncoding((4, 1), (8, 4), (1, 4), (0, 1))


def test_trans_of_mma_is_linear_with_swapped_bases() -> None:
    t = trans_encoding(MMA_V2, [64, 64], [1, 0])
    assert isinstance(t, LinearEncoding)
    src = MMA_V2.to_linear_layout([64, 64]).bases
    for dim in ("register", "lane", "warp"):
        assert [list(b) for b in t.bases_by_in_dim[dim]] == [[b[1], b[0]] for b in src[dim]]


def test_join_then_split_gives_the_operand_layout_back() -> None:
    b = blocked_for_shape([64, 32], [1, 4], [1, 0], 4)
    j = join_encoding(b, [64, 32])
    assert j == BlockedEncoding((1, 4, 2), (4, 8, 1), (4, 1, 1), (2, 1, 0))
    assert split_encoding(j, [64, 32, 2]) == b


@pytest.mark.parametrize("seed", range(40))
def test_fp4_unpacked_layout_inverts_fp4_source_layout(seed: int) -> None:
    """On random layouts of a packed tensor: unpacking doubles the axis (register bit 0
    one step along it) and the source layout comes back exactly."""
    import numpy as np

    from ltc.encodings.shape_rules import fp4_packed_encoding, fp4_source_layout, fp4_unpacked_layout
    from tests.random_layouts import random_linear_layout

    rng = np.random.default_rng(seed)
    src = random_linear_layout(rng, {"dim0": 16, "dim1": 32}, 4)
    axis = seed % 2
    out = fp4_unpacked_layout(src, axis)
    assert out.out_dims == {"dim0": 16 * (2 - axis), "dim1": 32 * (1 + axis)}
    assert out.bases["register"][0] == ((1, 0) if axis == 0 else (0, 1))
    assert fp4_source_layout(out, axis) == src


def test_fp4_of_blocked_stays_blocked() -> None:
    """A blocked operand with the axis fastest keeps a blocked spelling (sizePerThread
    doubled along the axis), and back."""
    from ltc.encodings.shape_rules import fp4_packed_encoding, fp4_unpacked_encoding

    b = BlockedEncoding((1, 4), (8, 4), (4, 1), (1, 0))
    u = fp4_unpacked_encoding(b, [32, 32], 1)
    assert u == BlockedEncoding((1, 8), (8, 4), (4, 1), (1, 0))
    assert fp4_packed_encoding(u, [32, 64], 1) == b
    # a result whose byte halves sit in two lanes has no packed source
    assert fp4_packed_encoding(BlockedEncoding((1, 1), (8, 4), (4, 1), (1, 0)), [32, 64], 1) is None


def test_split_needs_the_last_dim_in_exactly_one_register_bit() -> None:
    # The last dim held by lanes: no free split.
    lanes_hold_it = BlockedEncoding((1, 1, 1), (16, 1, 2), (4, 1, 1), (2, 1, 0))
    assert split_encoding(lanes_hold_it, [64, 32, 2]) is None


def test_reshape_is_row_major_and_round_trips() -> None:
    b = blocked_for_shape([64, 32], [1, 4], [1, 0], 4)
    flat = reshape_encoding(b, [64, 32], [2048])
    layout = flat.to_linear_layout([2048])
    # Registers hold 4 consecutive elements of a row: flat offsets 1, 2.
    assert layout.bases["register"][:2] == [(1,), (2,)]
    assert layout.bases["lane"] == [(4,), (8,), (16,), (32,), (64,)]
    back = reshape_encoding(flat, [2048], [64, 32])
    assert back.to_linear_layout([64, 32]) == b.to_linear_layout([64, 32])


def test_expand_dims_of_a_slice_is_its_parent_else_a_linear_layout() -> None:
    from ltc.encodings.slice import SliceEncoding

    b = blocked_for_shape([64, 32], [1, 4], [1, 0], 4)
    assert expand_dims_encoding(SliceEncoding(1, b), [64], 1) == b
    e = expand_dims_encoding(default_blocked([64], 4), [64], 0)
    assert isinstance(e, LinearEncoding)
    assert e.lane_bases == ((0, 1), (0, 2), (0, 4), (0, 8), (0, 16))


CONFLICT = """
#X = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#Y = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#D = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @conflict(%p: tensor<64x64x!tt.ptr<f32>, #X>, %q: tensor<64x64x!tt.ptr<f32>, #Y>) {
    %a = tt.load %p : tensor<64x64x!tt.ptr<f32>, #X>
    %b = tt.load %q : tensor<64x64x!tt.ptr<f32>, #Y>
    %a1 = ttg.convert_layout %a : tensor<64x64xf32, #X> -> tensor<64x64xf32, #D>
    %b1 = ttg.convert_layout %b : tensor<64x64xf32, #Y> -> tensor<64x64xf32, #D>
    %s = arith.addf %a1, %b1 : tensor<64x64xf32, #D>
    %e = math.exp %s : tensor<64x64xf32, #D>
    %o = ttg.convert_layout %e : tensor<64x64xf32, #D> -> tensor<64x64xf32, #Y>
    tt.store %q, %o : tensor<64x64x!tt.ptr<f32>, #Y>
    tt.return
  }
}
"""


def _opt(text: str, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with tempfile.NamedTemporaryFile("w", suffix=".ttgir", delete=False) as f:
        f.write(text)
    rc = run([f.name, *args], io.StringIO(), out, err)
    return rc, out.getvalue(), err.getvalue()


def test_debug_layouts_explains_each_choice(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = _opt(CONFLICT, "-p", "tritongpu-remove-layout-conversions", "--debug-layouts")
    assert rc == 0, err
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "// layouts of @conflict"
    # The sum is reached by X (from %a) and Y (from %b). In Y nothing converts; moving it
    # alone to X converts both addends to X and the sum back to Y for math.exp: three
    # 64x64 f32 shared-memory round trips, each 32 + 32 words a thread plus 3 barriers
    # at 4 cycles (lowering/plans/cost.estimate_conversion_cost) = 76 cycles.
    (s_line,) = [ln for ln in lines if ln.startswith("%s:")]
    scores = re.search(r"change per candidate \{(.*)\}\);", s_line)
    assert scores is not None
    costs = dict(re.findall(r"(#ttg\.blocked<\{[^}]*\}>): ([-+0-9.e]+)", scores.group(1)))
    y = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>"
    x = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
    assert (float(costs[y]), float(costs[x])) == (0.0, 3 * (32 + 32 + 3 * 4))
    assert s_line.split(" <- ")[0] == "%s: " + y
    (e_line,) = [ln for ln in lines if ln.startswith("%e:")]
    assert "chosen by the objective" in e_line
    assert out.count("ttg.convert_layout") == 1


def test_without_the_flag_nothing_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = _opt(CONFLICT, "-p", "tritongpu-remove-layout-conversions")
    assert (rc, err, capsys.readouterr().err) == (0, "", "")


ROW_SUMS = """
module {
  tt.func public @row_sums(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>) {
    %rows = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
    %c128 = arith.constant dense<128> : tensor<8x1xi32>
    %roff = arith.muli %rows2, %c128 : tensor<8x1xi32>
    %cols = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %rb = tt.broadcast %roff : tensor<8x1xi32> -> tensor<8x128xi32>
    %cb = tt.broadcast %cols2 : tensor<1x128xi32> -> tensor<8x128xi32>
    %off = arith.addi %rb, %cb : tensor<8x128xi32>
    %xs = tt.splat %X : !tt.ptr<f32> -> tensor<8x128x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %off : tensor<8x128x!tt.ptr<f32>>, tensor<8x128xi32>
    %x = tt.load %xp : tensor<8x128x!tt.ptr<f32>>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<8x128xf32>) -> tensor<8xf32>
    %s2 = tt.expand_dims %s {axis = 1 : i32} : tensor<8xf32> -> tensor<8x1xf32>
    %ys = tt.splat %Y : !tt.ptr<f32> -> tensor<8x1x!tt.ptr<f32>>
    %yp = tt.addptr %ys, %rows2 : tensor<8x1x!tt.ptr<f32>>, tensor<8x1xi32>
    tt.store %yp, %s2 : tensor<8x1x!tt.ptr<f32>>
    tt.return
  }
}
"""


def test_a_store_of_row_sums_holds_each_sum_once() -> None:
    """The 8 row sums of an 8x128 tile (rows in registers of every thread, columns across
    lanes and warps) come out of the reduction in every one of the 128 threads. Stored
    there, each thread issues 8 stores and computes 8 addresses; converted first (one
    8-element shared round trip, 1.78 cycles), each thread stores at most one. The store's
    work (8 cycles an access) outweighs the conversion, so the objective converts."""
    from ltc.passes.layout_ir import linear_layout_of
    from ltc.tools.pipeline import module_text, parse_module, run_pipeline

    module = run_pipeline(
        parse_module(ROW_SUMS), "convert-triton-to-tritongpu{target=cuda:90 num-warps=4},ltc-assign-layouts"
    )
    text = module_text(module)
    assert text.count("ttg.convert_layout") == 1
    (store,) = [op for op in module.walk() if op.name == "tt.store"]
    layout = linear_layout_of(store.operands[0].type)
    assert layout is not None
    assert (layout.in_dim_size("register"), layout.in_dim_size("lane"), layout.in_dim_size("warp")) == (1, 32, 4)


def _load_layouts(text: str) -> list[str]:
    """The result layout text of each tt.load, aliases expanded, in program order."""
    aliases = dict(re.findall(r"^(#\w+) = (#ttg\.\w+<.*>)$", text, re.M))
    found = re.findall(r"= tt\.load [^:]*: tensor<[^,]*, (#\w+)>", text)
    return [ltc.parse_encoding(aliases[a]).to_text() for a in found]


@pytest.mark.parametrize("kernel", ["vector_add", "softmax", "layer_norm", "matmul", "attention_fwd"])
@pytest.mark.parametrize("num_warps", [1, 8])
def test_default_layouts_match_tritons_conversion(kernel: str, num_warps: int) -> None:
    pytest.importorskip("triton")
    from triton._C.libtriton import ir, passes

    path = EXAMPLES / f"{kernel}.ttir"
    ctx = ir.context()
    ir.load_dialects(ctx)
    mod = ir.parse_mlir_module(str(path), ctx)
    mod.context = ctx
    pm = ir.pass_manager(ctx)
    passes.ttir.add_convert_to_ttgpuir(pm, "cuda:90", num_warps, 32, 1)
    pm.run(mod, "convert")
    rc, out, err = _opt(
        path.read_text(), "-p", f"convert-triton-to-tritongpu{{num-warps={num_warps} target=cuda:90}}"
    )
    assert rc == 0, err
    theirs, ours = _load_layouts(str(mod)), _load_layouts(out)
    assert ours and ours == theirs
