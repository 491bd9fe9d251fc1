"""The solver's transposition table: buckets of one 64-byte cache line, a prime number of them.

A narrow entry is one uint64 (8 per bucket): the key's low 32 bits above 32 data bits. The bucket index is the key
modulo the (prime) bucket count, so with the low 32 bits it determines the key (Chinese remainder theorem) when the
key has at most 32 + log2(buckets) bits. Longer keys take wide entries, two uint64 (4 per bucket): the key's low 64
bits, then its bits 64-95 above the data; exact up to 96 + log2(buckets) bits.

Data: lower bound + 64 (bits 0-6), upper bound + 64 (7-13), best column (14-17, 15: none), generation (18-26;
0 never matches), log2 of the subtree's size (27-31, capped at 31). Keys are symmetric (a position and its mirror
image share one), and entries of older generations count as empty, so reset() costs O(1).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames_connect4._bits import bmod, high32, low32, low64

NO_LOWER = -60
NO_UPPER = 60
NO_MOVE = 15
GENERATIONS = 511
BUCKET_WORDS = 8
LOW32 = np.uint64(0xFFFFFFFF)
KEY_AND_GEN = np.uint64(0xFFFFFFFF07FC0000)  # bits 18-26 and 32-63 of a narrow entry
GEN_BITS = np.uint64(511 << 18)


@njit(cache=True)
def bucket_of(skey, nbuckets):
    """First word of the bucket of skey."""
    return bmod(skey, nbuckets) * BUCKET_WORDS


@njit(cache=True)
def tt_find(table, base, wide, skey, gen):
    """Data of the current-generation entry for skey in the bucket at base (0 if none)."""
    g = np.uint64(gen) << np.uint64(18)
    if wide:
        lo = low64(skey)
        target = (high32(skey) << np.uint64(32)) | g
        for i in range(0, BUCKET_WORDS, 2):
            second = table[base + i + 1]
            if table[base + i] == lo and (second & KEY_AND_GEN) == target:
                return second & LOW32
    else:
        target = (low32(skey) << np.uint64(32)) | g  # key check and generation in one compare
        for i in range(BUCKET_WORDS):
            e = table[base + i]
            if (e & KEY_AND_GEN) == target:
                return e & LOW32
    return np.uint64(0)


@njit(cache=True)
def tt_store(table, base, wide, skey, gen, lower, upper, move, work):
    """Record bounds and best column for skey: merged into its entry, else in the bucket's least valuable slot.

    Entries of older generations count as empty (the first is taken), so a table after reset() behaves exactly
    like a fresh one.
    """
    step = 2 if wide else 1
    check = (high32(skey) << np.uint64(32)) if wide else (low32(skey) << np.uint64(32))
    lo = low64(skey)
    g = np.uint64(gen) << np.uint64(18)
    slot = -1
    worst = 1 << 30
    for i in range(0, BUCKET_WORDS, step):
        if wide:
            data = table[base + i + 1]
            same = table[base + i] == lo and (data & ~LOW32) == check
        else:
            data = table[base + i]
            same = (data & ~LOW32) == check
        if (data & GEN_BITS) != g:
            if worst >= 0:
                worst = -1
                slot = i
            continue
        if same:  # keep what the entry knew
            slot = i
            lower = max(lower, np.int64(data & np.uint64(127)) - 64)
            upper = min(upper, np.int64((data >> np.uint64(7)) & np.uint64(127)) - 64)
            if move == NO_MOVE:
                move = np.int64((data >> np.uint64(14)) & np.uint64(15))
            work = max(work, np.int64((data & LOW32) >> np.uint64(27)))
            break
        value = np.int64((data & LOW32) >> np.uint64(27))
        if value < worst:
            worst = value
            slot = i
    data = (np.uint64(lower + 64) | (np.uint64(upper + 64) << np.uint64(7)) | (np.uint64(move) << np.uint64(14))
            | g | (np.uint64(min(work, 31)) << np.uint64(27)))
    if wide:
        table[base + slot] = lo
        table[base + slot + 1] = check | data
    else:
        table[base + slot] = check | data


@njit(cache=True)
def new_generation(gen_box, table):
    """Forget the table in O(1): entries of older generations no longer match (a real clear every 511 calls)."""
    g = gen_box[0] + 1
    if g > GENERATIONS:
        table[:] = 0
        g = 1
    gen_box[0] = g


@njit(cache=True)
def lower_of(data):
    """The lower bound of an entry's data."""
    return np.int64(data & np.uint64(127)) - 64


@njit(cache=True)
def upper_of(data):
    """The upper bound of an entry's data."""
    return np.int64((data >> np.uint64(7)) & np.uint64(127)) - 64


@njit(cache=True)
def move_of(data):
    """The best column of an entry's data (NO_MOVE: none)."""
    return np.int64((data >> np.uint64(14)) & np.uint64(15))


@njit(cache=True)
def bit_length(x):
    """Number of bits of a non-negative int64."""
    n = 0
    while x > 0:
        x >>= 1
        n += 1
    return n
