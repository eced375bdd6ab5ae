"""The pipeline API under its public name, ``ltc.pipeline`` (it lives in :mod:`ltc.tools.pipeline`).

A façade of the driver layer: ``import ltc.pipeline`` loads xDSL, ``import ltc`` does not.
"""

from ltc.tools.pipeline import *  # noqa: F401,F403
from ltc.tools.pipeline import __all__  # noqa: F401
