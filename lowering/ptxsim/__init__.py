"""A PTX simulator: run the PTX that lowering emits on the CPU, and count what it did.

This package is a tool that checks lowering output, not a stage of lowering:
tests, benchmarks and the ``ltc-sim`` command run a kernel's PTX on numpy
arrays to check its results and to measure its shared-memory bank conflicts,
shuffles, barriers and global accesses.

Data flow: PTX text is parsed with the lark grammar ``ptx.lark`` into frozen
dataclasses (a :class:`~ltc.lowering.ptxsim.parse.PtxModule`);
:func:`~ltc.lowering.ptxsim.run.run_kernel` builds a machine for one launch,
which decodes the kernel once into a function per instruction and executes
every thread of each CTA in lockstep with numpy (CTAs one after another), each
register a vector with one entry per thread; it returns a
:class:`~ltc.lowering.ptxsim.stats.PtxStats` (instructions, memory accesses,
shuffles, barriers, and shared-memory wavefronts from the bank model of
:mod:`ltc.lowering.plans.banks`). :func:`~ltc.lowering.ptxsim.run.simulate_ptx`
does both steps for PTX text.

Modules, bottom up:

* ``ptx.lark`` -- the grammar of the PTX subset.
* ``parse`` -- PTX text to a ``PtxModule`` of frozen dataclasses, with static checks.
* ``errors`` -- ``SimulationError`` (what callers see) and the fault an instruction raises.
* ``values`` -- the PTX type model and conversions between raw register bits and numpy values.
* ``rounding`` -- exact float rounding (round-to-odd, directed modes, fma) and fp8 encoding.
* ``memory`` -- state-space layout, global buffers, byte-level reads and writes, packing.
* ``stats`` -- ``PtxStats``, what is counted how, and the counters a run fills in.
* ``state`` -- per-CTA state and the operand readers and writers every instruction family uses.
* ``ops_arith`` -- integer and float arithmetic, math functions, ``testp``.
* ``ops_bits`` -- logic, shifts, bit counts and fields, ``prmt``, ``lop3``.
* ``ops_compare`` -- ``setp`` and ``selp``.
* ``ops_convert`` -- ``mov`` (vector packing included) and ``cvt``.
* ``ops_memory`` -- ``ld``/``st``, atomics, ``cp.async``, ``cvta``, ``isspacep``.
* ``ops_warp`` -- ``shfl``, ``vote``, ``activemask``, ``redux``, ``ldmatrix``, ``stmatrix``.
* ``ops_mma`` -- ``mma.sync.aligned`` (tf32, f16, bf16, s8/u8 tensor-core tiles).
* ``ops_control`` -- ``bra``, ``ret``/``exit``, ``trap``, barriers, no-ops.
* ``machine`` -- the execution model: launch setup, decoding, the lockstep run loop.
* ``run`` -- the entry points ``run_kernel`` and ``simulate_ptx``.
"""
