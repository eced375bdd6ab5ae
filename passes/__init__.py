"""ltc.passes: analyses and transformations of Triton IR in the xDSL dialects.

Analyses (axis info, strides), the layout passes (convert-triton-to-tritongpu, coalesce,
accelerate-matmul, remove-layout-conversions with the layout engine, reduce-data-duplication,
ltc-assign-layouts), canonicalize (xDSL's patterns with Triton's folds), the rewrite of
multi-block functions into scf.if (structurize_cf; the CFG edges in cfg), the pass
registry ``ltc-opt`` reads, and the value interpreter that runs tt/ttg/ttng/arith/math/scf/cf
IR on numpy arrays.
"""
