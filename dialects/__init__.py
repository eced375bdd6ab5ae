"""ltc.dialects: reading, verifying and printing Triton 3.9's IR text with xDSL.

Modules (imported on demand, so ``import ltc.dialects`` stays cheap):

Dialects

* ``tt``: the ``tt`` dialect (``TritonOps.td``): types, enum attributes and ops,
  one module per op family (see the package's docstring).
* ``ttg``: the ``ttg`` (TritonGPU) dialect: ``!ttg.memdesc``, layout conversion
  (with its canonicalization patterns), shared-memory and async-copy ops, one
  module per op family (see the package's docstring).
* ``ttg_attrs``: the ``#ttg.*`` layout attributes, one per core encoding,
  parsing and printing Triton 3.9's text (``TTG_ATTRS``, ``TTG_LAYOUTS``).
* ``ttng``: the ``ttng`` (TritonNvidiaGPU) dialect: wgmma, mbarrier and TMA ops.
* ``arith``: xDSL's ``arith`` with the ops fixed that are scalar-only or print
  differently from MLIR.
* ``gpu``: xDSL's ``gpu`` with the bare ``gpu.barrier`` syntax Triton prints.
* ``llvm_ext``: xDSL's ``llvm`` with the casts it lacks (``fptosi``, ``fptoui``,
  ``uitofp``).
* ``attr_dict``: an op's ``{...}`` in hand-written syntax, sorted by name as MLIR
  prints it (shared by ``tt``, ``ttg`` and ``ttng``).

Reading, verifying, printing

* ``context``: the xDSL context with every dialect above registered.
* ``reader``: input splitting, location-alias hoisting and op positions.
* ``fast_lexer``: xDSL's MLIR lexer with a one-regex fast path.
* ``text_spans``: character scans that find where a type, attribute or location
  ends (keys for the reader's memo).
* ``verifier``: whole-module verification with source positions and Triton's
  layout rules.
* ``printer``: printing as Triton prints (layout alias header, ``module
  attributes {...}``).
"""
