"""ltc.lowering: from laid-out TTGIR to per-thread code, and the tools that check it.

Four sub-packages, one idea each:

* :mod:`ltc.lowering.plans` — conversion planning and the plan simulator: which register
  moves, warp shuffles or swizzled shared-memory accesses turn one linear layout into
  another, as data (pure F2 math, numpy only, no xDSL). The bottom layer, beside the core:
  the layout passes price conversions with it, and the per-thread lowering executes its
  plans.
* :mod:`ltc.lowering.llvm` — ``convert-tritongpu-to-llvm``: every tensor becomes one scalar
  per register of its layout, every op per-thread IR of xDSL's ``llvm`` dialect (one module
  per op family), every ``ttg.convert_layout`` the code of its plan.
* :mod:`ltc.lowering.emit` — the lowered IR printed as LLVM IR text and PTX text.
* :mod:`ltc.lowering.ptxsim` — a PTX simulator: runs the PTX we (or Triton) emit for every
  thread of a CTA on numpy arrays and counts what it did (bank-conflict wavefronts,
  shuffles, barriers, access widths). It checks the output; it is not a stage of it.

Data flow::

    TTGIR module ──llvm──▶ lowered module ──emit──▶ LLVM IR / PTX text ──ptxsim──▶ results
                    ▲
           plans (for every convert_layout)

Example::

    from ltc import to_linear_layout
    from ltc.lowering.plans.convert import plan_conversion
    from ltc.lowering.plans.simulate import simulate

    plan = plan_conversion(to_linear_layout(SRC, [64, 64]), to_linear_layout(DST, [64, 64]), 16)
    print(plan.kind, plan.counts, simulate(plan).exact)
"""
