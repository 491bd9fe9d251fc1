"""The solver's transposition table: buckets of one 64-byte cache line, a prime number of them.

A narrow entry is one uint64 (8 per bucket): the key's low 32 bits above 32 data bits. The bucket index is the key
modulo the (prime) bucket count, so with the low 32 bits it determines the key (Chinese remainder theorem) when the
key has at most 32 + log2(buckets) bits. Longer keys take wide entries, two uint64 (4 per bucket): the key's low 64
bits XOR the second word, then the second word: the key's bits 64-95 above the data; exact up to 96 + log2(buckets)
bits.

Data: lower bound + 64 (bits 0-6), upper bound + 64 (7-13), best column (14-17, 15: none), log2 of the subtree's
size (27-31, capped at 31). Keys are symmetric (a position and its mirror image share one). A narrow entry is one
aligned uint64 written by a single store, so searchers sharing the table never read a torn one. A wide entry is
two stores; its first word holds the key XOR its second word (Hyatt's lockless hashing), so a probe that reads one
word of one write and the other of another recovers a different key and misses: it would take that garbage to equal
the probed key's 64 low bits (a chance of 2**-64 per torn read) to be taken for an entry.

Each bucket has a 16-bit generation in a separate small array (2 bytes per 64-byte bucket): a bucket of another
generation than the search's counts as empty and is cleared when first written, so reset() costs O(1); the small
array is cleared once every 65,535 resets.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames_connect4.solve.engine.bits import bmodf, high32, low32, low64, popcount64
from gridgames_connect4.solve.engine.layout import BUCKET_WORDS, GENERATIONS

NO_LOWER = -60
NO_UPPER = 60
NO_MOVE = 15
LOW32 = np.uint64(0xFFFFFFFF)
HIGH32 = np.uint64(0xFFFFFFFF00000000)


@njit(cache=True)
def bucket_of(skey, nbuckets, minv):
    """First word of the bucket of skey (minv: (2**64 - 1) // nbuckets, see bits.bmodf)."""
    return bmodf(skey, nbuckets, minv) * BUCKET_WORDS


@njit(cache=True)
def tt_find(table, gens, base, wide, skey, gen):
    """Data of the entry for skey in the bucket at base, if the bucket is of generation gen (0 if none)."""
    ub = np.uint64(base)  # unsigned indices: no test for negative ones
    if gens[ub >> np.uint64(3)] != gen:
        return np.uint64(0)
    if wide:
        lo = low64(skey)
        target = high32(skey) << np.uint64(32)
        for i in range(0, BUCKET_WORDS, 2):
            second = table[ub + np.uint64(i + 1)]
            if (table[ub + np.uint64(i)] ^ second) == lo and (second & HIGH32) == target:
                return second & LOW32
    else:
        target = low32(skey) << np.uint64(32)
        for i in range(BUCKET_WORDS):
            e = table[ub + np.uint64(i)]
            if (e & HIGH32) == target:
                return e & LOW32
    return np.uint64(0)


@njit(cache=True)
def tt_store(table, gens, base, wide, skey, gen, lower, upper, move, work):
    """Record bounds and best column for skey: merged into its entry, else in the bucket's least valuable slot.

    A bucket of an older generation is cleared first, so a table after reset() behaves exactly like a fresh one.
    """
    b = base // BUCKET_WORDS
    if gens[b] != gen:
        for i in range(BUCKET_WORDS):
            table[base + i] = 0
        gens[b] = gen
    step = 2 if wide else 1
    check = (high32(skey) << np.uint64(32)) if wide else (low32(skey) << np.uint64(32))
    lo = low64(skey)
    slot = -1
    worst = 1 << 30
    for i in range(0, BUCKET_WORDS, step):
        if wide:
            data = table[base + i + 1]
            same = (table[base + i] ^ data) == lo and (data & HIGH32) == check
        else:
            data = table[base + i]
            same = (data & HIGH32) == check
        if (data & LOW32) == np.uint64(0):  # empty
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
    data = (
        np.uint64(lower + 64)
        | (np.uint64(upper + 64) << np.uint64(7))
        | (np.uint64(move) << np.uint64(14))
        | (np.uint64(min(work, 31)) << np.uint64(27))
    )
    if wide:  # the second word first, then the first (which holds the key XOR the second)
        second = check | data
        table[base + slot + 1] = second
        table[base + slot] = lo ^ second
    else:
        table[base + slot] = check | data


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # _nrt (private, not in numba's stubs): no allocation, as the AOT build
def next_generation(gen_box, gens):
    """new_generation inside compiled code."""
    g = gen_box[0] + 1
    if g > GENERATIONS:
        gens[:] = 0
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
    if x <= 0:
        return 0
    u = np.uint64(x)  # every bit below the highest set, then count them
    u |= u >> np.uint64(1)
    u |= u >> np.uint64(2)
    u |= u >> np.uint64(4)
    u |= u >> np.uint64(8)
    u |= u >> np.uint64(16)
    u |= u >> np.uint64(32)
    return popcount64(u)
