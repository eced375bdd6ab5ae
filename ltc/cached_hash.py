"""A hash computed once per instance, for immutable values hashed over and over.

Layout encodings and the layout attributes that wrap them key the passes' caches and
sit inside every tensor type that xDSL hashes (CSE, type-keyed dicts); a generated
``__hash__`` re-hashes every field each time. ``cache_hash`` keeps the first result on
the instance. A pickled instance leaves it out: string hashes differ between processes.
"""

from __future__ import annotations

__all__ = ["cache_hash"]


def cache_hash(cls: type) -> None:
    """Make ``cls``'s hash (that of its fields: it must be immutable) computed once per
    instance; a no-op when ``cls`` has none or has it cached already."""
    field_hash = cls.__hash__
    if field_hash is None or getattr(field_hash, "_cached", False):
        return

    def __hash__(self: object) -> int:  # noqa: N807
        h = self.__dict__.get("_hash")
        if h is None:
            h = field_hash(self)
            object.__setattr__(self, "_hash", h)
        return h

    def __getstate__(self: object) -> dict:  # noqa: N807
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    __hash__._cached = True  # type: ignore[attr-defined]
    cls.__hash__ = __hash__  # type: ignore[method-assign]
    if "__getstate__" not in cls.__dict__:
        cls.__getstate__ = __getstate__  # type: ignore[attr-defined]
