"""Whether numba's JIT kernels are ready: compiled in this process or cached on disk (else their first call compiles
them). The modules compiled with the package, and numba's cache folder, are `gridgames.native`'s.

A game's CLI asks before long work, so that it can say why the first run waits::

    >>> from gridgames.search.compiled import kernels_ready
    >>> kernels_ready()
    True
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["kernels_ready"]


def kernels_ready(*dispatchers: Any) -> bool:
    """Whether every numba dispatcher given is compiled in this process or has numba's on-disk cache index."""
    for dispatcher in dispatchers:
        if getattr(dispatcher, "signatures", None):
            continue
        try:
            index = dispatcher._cache._cache_file._index_path  # numba's on-disk cache index
        # not a caching dispatcher (or another numba version): nothing to say
        except AttributeError:
            continue
        if not os.path.exists(index):
            return False
    return True
