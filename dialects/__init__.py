"""ltc.dialects: the xDSL dialects of ltc's IR (see DESIGN.md §2, §5).

Modules (imported on demand, so ``import ltc.dialects`` stays cheap):

* ``ttg_attrs``: the ``#ttg.*`` layout attributes, one per core encoding,
  parsing and printing Triton 3.9's text (``TTG_ATTRS``, ``TTG_LAYOUTS``).
"""
