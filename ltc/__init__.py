"""ltc: a layout compiler for Triton-like tensor IR, built on linear layouts over F2.

The core (this package's top level) depends on numpy only::

    import ltc
    ll = ltc.to_linear_layout("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                              "warpsPerCTA = [4, 1], order = [1, 0]}>", [64, 16])
"""

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
