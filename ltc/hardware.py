"""CUDA's limits that a kernel's CTA shape must respect.

A CTA has at most 1,024 threads (``.reqntid``/``.maxntid``), so at 32 threads per warp
at most 32 warps; Triton also requires the number of warps to be a power of two. Its
shared memory is at most what the GPU lets one block opt in to (CUDA's table of compute
capabilities: 163 KiB on sm_80, 227 KiB on sm_90).
"""

from __future__ import annotations

MAX_THREADS_PER_CTA = 1024
"""CUDA's limit on threads per CTA."""

MAX_SHARED_BYTES_PER_CTA = {80: 163 * 1024, 90: 227 * 1024}
"""Shared memory one CTA may use (opt-in), by compute capability."""


def check_num_warps(num_warps: int, threads_per_warp: int = 32) -> None:
    """Raise ``ValueError`` unless ``num_warps`` is a power of two whose CTA fits
    :data:`MAX_THREADS_PER_CTA` threads."""
    limit = max(1, MAX_THREADS_PER_CTA // max(1, threads_per_warp))
    if num_warps < 1 or num_warps & (num_warps - 1) or num_warps > limit:
        raise ValueError(
            f"{num_warps} warps: must be a power of two from 1 to {limit} "
            f"({MAX_THREADS_PER_CTA} threads per CTA at {threads_per_warp} threads per warp)"
        )
