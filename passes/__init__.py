"""ltc.passes (see DESIGN.md §2)."""
