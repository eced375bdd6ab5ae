"""ltc.lowering (see DESIGN.md §2)."""
