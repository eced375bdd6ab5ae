"""ltc.lowering: conversion plans, per-thread lowering, emitters and simulators (DESIGN.md §7).

Modules, one idea each:

* ``plan``: the plan data model (instructions as F2-affine functions of lane and warp bits);
* ``convert``: classify a conversion and build the cheapest exact plan (``plan_conversion``);
* ``broadcast``: broadcast (duplicate) registers, stripped before planning and restored after;
* ``shuffle``: warp shuffles (the paper's §5.4 rounds, and the swap/ship decomposition);
* ``swizzle``: optimal swizzling (§9.2): vector, bank and segment bases of the scratch layout;
* ``shared``: shared-memory plans (st/ld.shared, stmatrix/ldmatrix, rounds, barriers);
* ``simulate``: run a plan for every thread of a CTA, check it, count bank-conflict wavefronts;
* ``banks``: the bank-conflict model (32 banks × 4 bytes, phases for 64/128-bit accesses);
* ``to_llvm``: the ``convert-tritongpu-to-llvm`` pass (tensors → per-register scalars), with
  one module per op family: ``lower_elementwise``, ``lower_shape``, ``lower_memory``,
  ``lower_convert`` (a plan as code), ``lower_reduce`` (reduce and scan); ``builder`` (the
  lowered-IR vocabulary, constant offsets, byte permutes) and ``thread_index`` (F2-linear
  functions of ``tid.x``); ``registry`` names the pass for ``ltc-opt``;
* ``emit_common``, ``emit_llvm``, ``emit_ptx``: the lowered IR printed as LLVM IR / PTX;
* ``ptx.lark``, ``ptx_parse``, ``ptx_sim``: the PTX simulator (all threads of a CTA in lockstep).

Example::

    from ltc import to_linear_layout
    from ltc.lowering.plans.convert import plan_conversion
    from ltc.lowering.plans.simulate import simulate

    plan = plan_conversion(to_linear_layout(SRC, [64, 64]), to_linear_layout(DST, [64, 64]), 16)
    print(plan.kind, plan.counts, simulate(plan).exact)
"""
