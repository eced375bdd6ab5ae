"""ltc.lowering.plans: conversion planning — the exact data movement between two layouts.

Pure F2 linear algebra on the core's ``LinearLayout`` (numpy only; nothing here imports
xDSL, the dialects, the passes or the rest of the lowering). A plan is data: a
straight-line program every thread of a CTA runs, whose thread-dependent quantities
(shuffle lanes, shared addresses, selected registers) are F2-affine functions of the lane
and warp bits. The layout passes use it for their cost model; ``ltc.lowering.llvm`` turns
plans into code.

Data flow: ``plan_conversion(src, dst, bits)`` strips broadcast registers, decides from
the locality of the conversion (trivial over lane/warp/block or not) which kind it is —
no-op, register permutation, warp shuffles, or shared memory — builds the cheapest exact
plan of that kind (for shared memory: optimal swizzling of the scratch, ``st/ld.shared``
or ``stmatrix``/``ldmatrix``, rounds and barriers), and restores the broadcast registers.
``simulate(plan)`` runs it for every thread, checks the exact permutation, and counts
bank-conflict wavefronts against their lower bound.

Modules:

* ``plan`` — the plan data model (instructions, register files, ``ThreadAffine``, counts);
* ``locality`` — how far a conversion moves data (``trivial_over``, ``conversion_locality``);
* ``broadcast`` — broadcast registers, stripped before planning and restored after;
* ``convert`` — classify a conversion and build the cheapest plan (``plan_conversion``);
* ``shuffle`` — warp shuffles (the paper's §5.4 rounds, and the swap/ship decomposition);
* ``swizzle`` — optimal swizzling: vector, bank and segment bases of the scratch layout;
* ``shared`` — shared-memory plans (store, barrier, load; matrix instructions; rounds);
* ``banks`` — the bank-conflict model (32 banks × 4 bytes, phases of wide accesses);
* ``simulate`` — execute a plan for every thread of a CTA, check it, count wavefronts.
"""
