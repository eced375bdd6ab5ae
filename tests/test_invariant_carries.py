"""``passes/invariant_carries.py``: carries that hold one value are bypassed, the others kept."""

from __future__ import annotations

from xdsl.dialects import scf

from ltc.passes.invariant_carries import use_invariant_carries
from ltc.tools.pipeline import module_text, parse_module

LOOPS = """
module {
  tt.func public @f(%p: !tt.ptr<f32>, %n: i32, %c: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %z = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %res:3 = scf.if %c -> (tensor<128xi32>, tensor<128xi32>, tensor<128xf32>) {
      %l:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %r, %b = %r, %acc = %z) -> (tensor<128xi32>, tensor<128xi32>, tensor<128xf32>) : i32 {
        %s = tt.splat %i : i32 -> tensor<128xi32>
        %b2 = arith.addi %b, %s : tensor<128xi32>
        %f = arith.sitofp %a : tensor<128xi32> to tensor<128xf32>
        %acc2 = arith.addf %acc, %f : tensor<128xf32>
        scf.yield %r, %b2, %acc2 : tensor<128xi32>, tensor<128xi32>, tensor<128xf32>
      }
      scf.yield %l#0, %l#1, %l#2 : tensor<128xi32>, tensor<128xi32>, tensor<128xf32>
    } else {
      %m:1 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %r) -> (tensor<128xi32>) : i32 {
        scf.yield %a : tensor<128xi32>
      }
      scf.yield %m#0, %r, %z : tensor<128xi32>, tensor<128xi32>, tensor<128xf32>
    }
    %x = arith.addi %res#0, %res#1 : tensor<128xi32>
    %y = arith.sitofp %x : tensor<128xi32> to tensor<128xf32>
    %w = arith.addf %y, %res#2 : tensor<128xf32>
    %pp = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %q = tt.addptr %pp, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    tt.store %q, %w : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
"""


def test_invariant_carries_are_bypassed_and_the_others_kept() -> None:
    module = parse_module(LOOPS)
    # the first loop's %a (re-yields its init %r), the second loop's %a (yields itself),
    # then the if's first result (both branches now yield %r): three carries
    assert use_invariant_carries(module) == 3
    text = module_text(module)
    assert "%x = arith.addi %r, %res#1 : tensor<128xi32>" in text
    assert "%f = arith.sitofp %r : tensor<128xi32> to tensor<128xf32>" in text
    # %b changes in the loop and the if's other results differ per branch: kept
    assert "%b2 = arith.addi %b, %s" in text
    assert "%w = arith.addf %y, %res#2" in text
    loops = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    assert [len(list(r.uses)) for r in loops[0].results] == [0, 1, 1]
    assert use_invariant_carries(module) == 0  # a fixed point
    parse_module(text)  # still valid IR


def test_a_loop_whose_yield_differs_keeps_its_carry() -> None:
    module = parse_module(LOOPS.replace("scf.yield %r, %b2, %acc2", "scf.yield %b2, %b2, %acc2"))
    assert use_invariant_carries(module) == 1  # only the second loop's self-yield
    assert "%f = arith.sitofp %a : tensor<128xi32> to tensor<128xf32>" in module_text(module)
