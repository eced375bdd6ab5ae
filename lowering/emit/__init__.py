"""Printing the lowered-IR contract as text: LLVM IR and PTX.

This package owns the two text printers of a lowered module (xDSL's ``llvm`` dialect plus
``scf.for``/``scf.if``, one program per thread) and the facts about that contract they
share. It transforms no IR: it checks that each op is inside the contract (raising
:class:`~ltc.lowering.emit.common.EmitError`, which names the op, for anything else) and
spells it.

Data flow: :mod:`ltc.lowering.llvm` lowers a TTGIR module to the contract
(``lower_module``); a printer walks each kernel's body in order with
:class:`~ltc.lowering.emit.common.KernelBodyPrinter`, which routes every op to that
printer's handler. The LLVM IR text (LLVM 14) is checked by ``llc -march=nvptx64`` and
then ``ptxas`` on llc's PTX; the PTX text (ISA 8.0, sm_80/sm_90) is checked by ``ptxas``
and run in ltc's PTX simulator (:mod:`ltc.lowering.ptxsim`).

Modules:

* :mod:`.common`: what both share: type-tag facts, op and intrinsic tables, the body walk.
* :mod:`.llvm_ir`: ``emit_llvm_ir``, LLVM IR text for LLVM 14's NVPTX backend.
* :mod:`.ptx`: ``emit_ptx``, PTX text with ltc's own instruction selection.
"""
