"""ltc: a layout compiler for Triton-like tensor IR, built on linear layouts over F2.

The core (this package's top level) depends on numpy only::

    import ltc
    ll = ltc.to_linear_layout("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                              "warpsPerCTA = [4, 1], order = [1, 0]}>", [64, 16])
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ltc.encodings import AttrTextError, Encoding, EncodingError, ShapeError, parse_encoding, to_linear_layout
    from ltc.linear_layout import LayoutError, LinearLayout

__all__ = [
    "AttrTextError",
    "Encoding",
    "EncodingError",
    "LayoutError",
    "LinearLayout",
    "ShapeError",
    "parse_encoding",
    "to_linear_layout",
]


_ENCODINGS = ("AttrTextError", "Encoding", "EncodingError", "ShapeError", "parse_encoding", "to_linear_layout")
_LINEAR_LAYOUT = ("LayoutError", "LinearLayout")


def __getattr__(name: str):
    # Imported on first use: the command-line tools import ``ltc.tools`` (hence this
    # package) and should not pay for numpy before they need it.
    if name in _ENCODINGS:
        import ltc.encodings

        return getattr(ltc.encodings, name)
    if name in _LINEAR_LAYOUT:
        import ltc.linear_layout

        return getattr(ltc.linear_layout, name)
    if name == "simulate_ptx":  # needs lark, so `import ltc` stays numpy-only (not in __all__)
        from ltc.lowering.ptxsim.run import simulate_ptx

        return simulate_ptx
    raise AttributeError(f"module 'ltc' has no attribute '{name}'")
