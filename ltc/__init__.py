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


def __getattr__(name: str):
    # ltc.simulate_ptx lives in the PTX simulator, which needs lark; import it on
    # first use so that `import ltc` stays numpy-only (hence not in __all__).
    if name == "simulate_ptx":
        from ltc.lowering.ptxsim.run import simulate_ptx

        return simulate_ptx
    raise AttributeError(f"module 'ltc' has no attribute '{name}'")
