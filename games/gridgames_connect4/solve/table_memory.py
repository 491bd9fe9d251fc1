"""The memory of the solver's transposition table: its size, its allocation, and forgetting it in O(1).

The kernels (`engine.table`) store and probe it; this module only sizes and allocates it (buckets of one cache line,
a prime number of them, tagged by generation), and forgets it in O(1) (a new generation).

Narrow entries keep a key's low 32 bits: with the bucket index (the key modulo a prime) they determine the key
when it has fewer than 32 + log2(buckets) bits (Chinese remainder theorem); else each entry is wide and keeps the
whole key.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from attrs import define

from gridgames.errors import SolverError
from gridgames_connect4.position.geometry import board_bits
from gridgames_connect4.solve.engine import layout as L

DEFAULT_TABLE_MB = 56
"""Default transposition table size in MiB (7.3 M entries of 8 bytes on boards up to about 80 cells)."""
_MIN_TABLE_BITS, _MAX_TABLE_BITS = 10, 30
_LINE = 64  # bytes per cache line: one table bucket
_HUGE_PAGE = 2 << 20


@define(eq=False)
class SearchTable:
    """A transposition table as the kernels take it (`kernel_arg`), its size and its generation."""

    entries: np.ndarray
    """uint64 words, `L.BUCKET_WORDS` a bucket."""
    gens: np.ndarray
    """uint16: each bucket's generation (an older one counts as empty)."""
    gen: np.ndarray
    """The current generation, in a one-item int64 array the kernels read."""
    buckets: int
    wide: bool

    @classmethod
    def allocate(cls, width: int, height: int, table_bits: int | None, table_mb: float | None) -> SearchTable:
        """A zeroed table of ``table_mb`` MiB or 2 ** ``table_bits`` words (default `DEFAULT_TABLE_MB`)."""
        if table_bits is not None and table_mb is not None:
            raise SolverError("give table_bits or table_mb, not both")
        if table_mb is not None:
            if not (isinstance(table_mb, (int, float)) and 0.0625 <= table_mb <= 16384):
                raise SolverError(f"table_mb must be 0.0625..16384 MiB, got {table_mb!r}")
            words = int(table_mb * 2**20) // 8
        else:
            bits = table_bits
            if bits is not None and not (isinstance(bits, int) and _MIN_TABLE_BITS <= bits <= _MAX_TABLE_BITS):
                raise SolverError(f"table_bits must be {_MIN_TABLE_BITS}..{_MAX_TABLE_BITS}, got {bits}")
            words = DEFAULT_TABLE_MB * 2**20 // 8 if bits is None else 1 << bits
        buckets = _prev_prime(max(words // L.BUCKET_WORDS, 17))
        key_bits = board_bits(width, height)
        # the bucket index must supply the key's top bits
        if key_bits > 96 + (buckets.bit_length() - 1):
            # a prime number of buckets, at least 2 ** (key_bits - 96)
            need = 2 ** (key_bits - 95) * _LINE / 2**20
            raise SolverError(
                f"a {width}x{height} board needs a table of at least {need:g} MiB to tell its {key_bits}-bit keys apart"
            )
        return cls(
            # buckets aligned to cache lines (and huge pages)
            _huge_page_zeros(buckets * L.BUCKET_WORDS, np.uint64),
            _huge_page_zeros(buckets, np.uint16),
            np.ones(1, dtype=np.int64),
            buckets,
            key_bits > 32 + (buckets.bit_length() - 1),
        )

    @property
    def capacity(self) -> int:
        """Number of positions the table can hold."""
        return self.buckets * L.BUCKET_WORDS // (2 if self.wide else 1)

    def kernel_arg(self) -> tuple[Any, ...]:
        """The table as the kernels take it: a plain `L.Table`."""
        return tuple(L.Table(self.entries, self.gens, self.buckets, self.wide, self.gen))

    def reset(self) -> None:
        """Forget every entry (in O(1): the buckets are tagged with a generation)."""
        L.new_generation(self.gen, self.gens)


def _prev_prime(n: int) -> int:
    """Largest prime <= n (n >= 2)."""
    while any(n % d == 0 for d in range(2, int(n**0.5) + 1)):
        n -= 1
    return n


def _huge_page_zeros(count: int, dtype: Any) -> np.ndarray:
    """A zeroed array aligned to a cache line; from 1 MiB on, to a 2 MiB boundary inside an allocation of at least
    4 MiB: numpy asks Linux for transparent huge pages on those, so random probes of it cost no TLB misses."""
    nbytes = count * np.dtype(dtype).itemsize
    align = _HUGE_PAGE if nbytes >= _HUGE_PAGE // 2 else _LINE
    raw = np.zeros(max(nbytes + align, 2 * _HUGE_PAGE if align == _HUGE_PAGE else 0), np.uint8)
    start = -raw.ctypes.data % align
    return raw[start : start + nbytes].view(dtype)
