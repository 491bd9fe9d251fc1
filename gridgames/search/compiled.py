"""Whether numba kernels are ready: compiled in this process or cached on disk (the first use of a fresh install
compiles); and numba's cache of kernels spread over several modules kept true to their sources.

A game's CLI asks before long work, so that it can say why the first run waits::

    >>> from gridgames.search.compiled import kernels_ready
    >>> kernels_ready()
    True
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["drop_stale_cache", "kernels_ready"]


def kernels_ready(*dispatchers: Any) -> bool:
    """Whether every numba dispatcher given is compiled in this process or has numba's on-disk cache index."""
    for dispatcher in dispatchers:
        if getattr(dispatcher, "signatures", None):
            continue
        try:
            index = dispatcher._cache._cache_file._index_path  # numba's on-disk cache index
        except AttributeError:  # not a caching dispatcher (or another numba version): nothing to say
            continue
        if not os.path.exists(index):
            return False
    return True


def drop_stale_cache(sources: Sequence[Path], cache: Path | None = None) -> bool:
    """Delete numba's cached machine code of these kernel modules when any of their sources changed since (True if so).

    numba checks only the file that defines a cached function, not the modules it calls nor the constants it imports,
    so after an edit of those it keeps running the old machine code. Give every ``.py`` file of kernels that call each
    other or share constants (one folder), and call this when they are imported, before any of them compiles or loads.
    ``cache``: numba's cache folder for them, default their ``__pycache__`` (where an editable install, in which sources
    change under a cache, keeps it). A stamp file there names the sources the cache came from.
    """
    if not sources:
        return False
    folder = sources[0].parent / "__pycache__" if cache is None else cache
    stems = sorted(path.stem for path in sources)
    stamp = folder / f"{'+'.join(stems)}.numba-stamp"
    digest = hashlib.sha256()
    for path in sorted(sources):
        digest.update(path.read_bytes())
    with contextlib.suppress(importlib.metadata.PackageNotFoundError):
        digest.update(importlib.metadata.version("numba").encode())
    wanted = digest.hexdigest()[:16]
    try:
        if stamp.read_text(encoding="utf-8") == wanted:
            return False
    except OSError:
        pass
    dropped = False
    for stem in stems:
        for path in folder.glob(f"{stem}.*.nb[ic]"):
            with contextlib.suppress(OSError):
                path.unlink()
                dropped = True
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        stamp.write_text(wanted, encoding="utf-8")
    return dropped
