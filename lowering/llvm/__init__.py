"""ltc.lowering.llvm: ``convert-tritongpu-to-llvm``, laid-out TTGIR to per-thread LLVM-dialect IR.

Every ``tt.func`` becomes an ``llvm.func`` run by every thread; every tensor value becomes
one scalar per register of its linear layout (broadcast registers share one). Each op is
lowered by the handler of its op family, in program order, through a ``ThreadBuilder``
that appends the ops of the *lowered-IR contract* (the llvm ops, NVVM intrinsics and
inline PTX the emitters accept) and simplifies index arithmetic as it builds: every
thread index is an F2-linear function of ``tid.x``, emitted as shared shift-and-masks.

Data flow: ``to_llvm.lower_module`` → per function a ``FunctionLowering`` (value map,
thread ids, shared scratch) → ``HANDLERS[op.name]`` → builder ops; each
``ttg.convert_layout`` asks ``ltc.lowering.plans`` for its plan and emits it; scratch
claims become ``@global_smem`` and ``ttg.shared``.

Modules:

* ``builder`` — the instruction vocabulary, constant offsets, bit-linear index arithmetic;
* ``thread_index`` — per-thread values of F2-linear functions of lane and warp bits;
* ``word_pack`` — 32-bit words of 8/16-bit elements, built with ``prmt`` and taken apart;
* ``function`` — per-function state (``FunctionLowering``), ``ThreadTensor``, handler types;
* ``control`` — ``scf.for``/``scf.if``/``scf.yield``, ``tt.return``, program ids;
* ``elementwise`` — arith, math and tt elementwise ops, one scalar op per register;
* ``shape`` — make_range, splat, and the shape ops that only rename registers;
* ``memory`` — ``tt.addptr``, ``tt.load``, ``tt.store`` with vector widths from layouts and strides;
* ``convert_layout`` — a conversion plan as code (moves, selects, shuffles, shared memory);
* ``reduce`` — ``tt.reduce`` and ``tt.scan`` (in-thread, lanes by shuffles, warps by shared memory);
* ``to_llvm`` — the handler table, the pass, ``lower_module``;
* ``registry`` — the pass's command-line name for ``ltc-opt``.
"""
