"""Inputs the IR fuzzer (benchmarks/fuzz_ir.py) found that crashed or hung ltc-opt:
each is now bad input, reported as ``file:line:col: error:`` with exit status 1."""

from __future__ import annotations

import io

import pytest

from ltc.tools import opt


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # a splat of 2^44 elements was stored element by element (MemoryError)
        ("%cst = arith.constant dense<1.0> : tensor<16x1099511627776xf32>\n", "dense literal of 17592186044416 elements is too large"),
        # xDSL's float packing overflowed (OverflowError escaped)
        ('"u.op"() {x = 65544.0 : f16} : () -> ()\n', "float too large to pack"),
        # an unterminated string: xDSL's string pattern backtracked exponentially (a hang)
        (
            "tt.func @f(%rk: tensor<64xi32>) {\n"
            '    %b = tt.expand_dims %rk {axis = 1 : i3"%2} : tensor<64xi32> -> tensor<64x1xi32> '
            + "x" * 40
            + "\n    tt.return\n}\n",
            "closing string literal",
        ),
        # a block defined twice after a forward reference: xDSL raised a KeyError
        (
            "tt.func @j(%c: i1, %x: f32) -> f32 {\n  cf.cond_br %c, ^bb1, ^bb2(%x : f32)\n^bb1:\n"
            "  cf.br ^bb2(%x : f32)\n^bb2(%a: f32):\n^bb2(%b: f32):\n  tt.return %a : f32\n}\n",
            "redefinition of block '^bb2'",
        ),
        # a dense attribute of 2^26 elements in an attribute dictionary (xDSL expanded it: a hang)
        (
            '"u.op"() {d = dense<16> : tensor<1048576x64xi32>} : () -> ()\n',
            "dense literal of 67108864 elements is too large",
        ),
        # an unclosed string as the very first token (lexed by xDSL's own lexer: a hang)
        ('"#s = #ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 4]' + "x" * 40 + "\n", "closing string literal"),
        # an nvmma_shared of rank 2^32 (a list of 2^32 dim names: a hang)
        (
            "#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, "
            "rank = 4294967296}>\n",
            "rank must be from 1 to 8, got 4294967296",
        ),
        # an scf.while with more results than its after-region takes: xDSL's verifier
        # indexed past the arguments (IndexError)
        (
            "tt.func @f(%x: i32) -> i32 {\n  %r:2 = scf.while (%a = %x) : (i32) -> (i32, i32) {\n"
            "    %c = arith.constant true\n    scf.condition(%c) %a, %a : i32, i32\n  } do {\n"
            "  ^bb0(%b: i32):\n    scf.yield %b : i32\n  }\n  tt.return %r#0 : i32\n}\n",
            "'scf.while' op region arguments do not match its operands or results",
        ),
        # a float literal beyond f16 in a dense constant (OverflowError)
        ("%c = arith.constant dense<1.0e9> : tensor<4xf16>\n", "out of range for type f16"),
    ],
)
def test_fuzzer_finds_are_bad_input(text: str, message: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    status = opt.run(["-", "--allow-unregistered-dialect"], io.StringIO(text), out, err)
    assert (status, out.getvalue()) == (opt.EXIT_INPUT, "")
    first = err.getvalue().splitlines()[0]
    assert first.startswith("<stdin>:") and ": error: " in first and message in first, first


def test_a_zero_divisibility_hint_says_nothing() -> None:
    # tt.divisibility = 0 divided by zero in the axis analysis (exit 3): a hint of 0 is 1
    text = (
        "tt.func public @k(%p: !tt.ptr<f32>, %m: i32 {tt.divisibility = 0 : i32}) {\n"
        "  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>\n"
        "  %ms = tt.splat %m : i32 -> tensor<128xi32>\n"
        "  %o = arith.muli %r, %ms : tensor<128xi32>\n"
        "  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>\n"
        "  %q = tt.addptr %ps, %o : tensor<128x!tt.ptr<f32>>, tensor<128xi32>\n"
        "  %v = tt.load %q : tensor<128x!tt.ptr<f32>>\n"
        "  tt.store %q, %v : tensor<128x!tt.ptr<f32>>\n"
        "  tt.return\n}\n"
    )
    out, err = io.StringIO(), io.StringIO()
    status = opt.run(["-", "-p", "convert-triton-to-tritongpu{num-warps=4 target=cuda:90},ltc-assign-layouts"],
                     io.StringIO(text), out, err)
    assert status == opt.EXIT_OK, err.getvalue()
