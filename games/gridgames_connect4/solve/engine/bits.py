"""Bitboard words for the numba kernels: one uint64, or a pair (low, high) of uint64 for boards up to 128 bits.

The kernels are written once with these functions; numba compiles them for each word type it meets (an int for
64-bit boards, a 2-tuple for 128-bit ones), so 64-bit boards run the plain machine instructions. Arrays hold
boards in their last axis for pairs: a 1-D array of uint64 boards becomes a 2-D array (n, 2), and so on.
"""

from __future__ import annotations


import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from gridgames.native import jit_cache

# before any kernel of this folder compiles or loads: numba caches them in the user's cache folder, stale when any
# source of the folder changed (the other kernel modules import this one first)
jit_cache(__file__)

U64 = np.uint64
M64 = np.uint64(0xFFFFFFFFFFFFFFFF)


@intrinsic
def popcount64(typingctx, x):  # numba intrinsic signature
    """Number of set bits of a 64-bit word (LLVM ctpop)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], signature.args[0], types.uint64)
        count = builder.ctpop(value)
        return builder.bitcast(count, ir.IntType(64))

    return types.int64(x), codegen


@intrinsic
def mulhi64(typingctx, a, b):  # numba intrinsic signature
    """The high 64 bits of the 128-bit product of two uint64 (one multiply instruction)."""
    if not (isinstance(a, types.Integer) and isinstance(b, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        i128 = ir.IntType(128)
        x = builder.zext(context.cast(builder, args[0], signature.args[0], types.uint64), i128)
        y = builder.zext(context.cast(builder, args[1], signature.args[1], types.uint64), i128)
        return builder.trunc(builder.lshr(builder.mul(x, y), ir.Constant(i128, 64)), ir.IntType(64))

    return types.uint64(a, b), codegen


@intrinsic
def prefetch(typingctx, array, index):  # numba intrinsic signature
    """Hint the CPU to load the cache line of array[index] (LLVM prefetch for reading)."""

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, value=args[0])
        where = context.cast(builder, args[1], signature.args[1], types.intp)
        byte_ptr = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        ptr = builder.bitcast(builder.gep(ary.data, [where]), byte_ptr)
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.none(array, index), codegen


def _helper(name: str):
    """A name for numba to overload (calling it from Python is an error)."""

    def helper(*args):
        raise NotImplementedError(f"{name} runs only inside numba kernels")

    helper.__name__ = helper.__qualname__ = name
    return helper


band = _helper("band")
bor = _helper("bor")
bxor = _helper("bxor")
bandnot = _helper("bandnot")
shl = _helper("shl")
shr = _helper("shr")
badd = _helper("badd")
bdec = _helper("bdec")
is_zero = _helper("is_zero")
beq = _helper("beq")
blt = _helper("blt")
popcount = _helper("popcount")
bmod = _helper("bmod")
bmodf = _helper("bmodf")
zero_like = _helper("zero_like")
one_like = _helper("one_like")
low32 = _helper("low32")
low64 = _helper("low64")
high32 = _helper("high32")
bit_index = _helper("bit_index")
ld1 = _helper("ld1")
st1 = _helper("st1")
ld2 = _helper("ld2")
st2 = _helper("st2")


def _pair(t) -> bool:
    return isinstance(t, types.BaseTuple)


@overload(band)
def _band(a, b):
    if _pair(a):
        return lambda a, b: (a[0] & b[0], a[1] & b[1])
    return lambda a, b: a & b


@overload(bor)
def _bor(a, b):
    if _pair(a):
        return lambda a, b: (a[0] | b[0], a[1] | b[1])
    return lambda a, b: a | b


@overload(bxor)
def _bxor(a, b):
    if _pair(a):
        return lambda a, b: (a[0] ^ b[0], a[1] ^ b[1])
    return lambda a, b: a ^ b


@overload(bandnot)
def _bandnot(a, b):
    """a & ~b"""
    if _pair(a):
        return lambda a, b: (a[0] & ~b[0], a[1] & ~b[1])
    return lambda a, b: a & ~b


@overload(shl)
def _shl(a, s):
    """a << s for 0 <= s < 128 (bits shifted past the top are lost)."""
    if _pair(a):

        def impl(a, s):
            if s == 0:
                return a
            if s >= 64:
                return (U64(0), a[0] << U64(s - 64))
            return (a[0] << U64(s), (a[1] << U64(s)) | (a[0] >> U64(64 - s)))

        return impl
    return lambda a, s: a << U64(s)


@overload(shr)
def _shr(a, s):
    """a >> s for 0 <= s < 128."""
    if _pair(a):

        def impl(a, s):
            if s == 0:
                return a
            if s >= 64:
                return (a[1] >> U64(s - 64), U64(0))
            return ((a[0] >> U64(s)) | (a[1] << U64(64 - s)), a[1] >> U64(s))

        return impl
    return lambda a, s: a >> U64(s)


@overload(badd)
def _badd(a, b):
    if _pair(a):

        def impl(a, b):
            lo = a[0] + b[0]
            carry = U64(1) if lo < a[0] else U64(0)
            return (lo, a[1] + b[1] + carry)

        return impl
    return lambda a, b: a + b


@overload(bdec)
def _bdec(a):
    """a - 1"""
    if _pair(a):

        def impl(a):
            if a[0] != U64(0):
                return (a[0] - U64(1), a[1])
            return (M64, a[1] - U64(1))

        return impl
    return lambda a: a - U64(1)


@overload(is_zero)
def _is_zero(a):
    if _pair(a):
        return lambda a: (a[0] | a[1]) == U64(0)
    return lambda a: a == U64(0)


@overload(beq)
def _beq(a, b):
    if _pair(a):
        return lambda a, b: a[0] == b[0] and a[1] == b[1]
    return lambda a, b: a == b


@overload(blt)
def _blt(a, b):
    if _pair(a):
        return lambda a, b: a[1] < b[1] or (a[1] == b[1] and a[0] < b[0])
    return lambda a, b: a < b


@overload(popcount)
def _popcount(a):
    if _pair(a):
        return lambda a: popcount64(a[0]) + popcount64(a[1])
    return lambda a: popcount64(a)


@overload(bmod)
def _bmod(a, m):
    """a mod m (m < 2**31) as an int64."""
    if _pair(a):

        def impl(a, m):
            mm = U64(m)
            base = (M64 % mm + U64(1)) % mm  # 2**64 mod m
            r = ((a[1] % mm) * base) % mm
            return np.int64((r + a[0] % mm) % mm)

        return impl
    return lambda a, m: np.int64(a % U64(m))


@overload(bmodf)
def _bmodf(a, m, minv):
    """a mod m (m < 2**31) as an int64, minv = (2**64 - 1) // m: one word by a multiply (Barrett), no division."""
    if _pair(a):
        return lambda a, m, minv: bmod(a, m)

    def impl(a, m, minv):
        mm = U64(m)
        r = a - mulhi64(a, minv) * mm  # the quotient estimate is at most 2 short
        if r >= mm:
            r -= mm
        if r >= mm:
            r -= mm
        return np.int64(r)

    return impl


@overload(zero_like)
def _zero_like(a):
    if _pair(a):
        return lambda a: (U64(0), U64(0))
    return lambda a: U64(0)


@overload(one_like)
def _one_like(a):
    if _pair(a):
        return lambda a: (U64(1), U64(0))
    return lambda a: U64(1)


@overload(low32)
def _low32(a):
    """The lowest 32 bits, as a uint64."""
    if _pair(a):
        return lambda a: a[0] & U64(0xFFFFFFFF)
    return lambda a: a & U64(0xFFFFFFFF)


@overload(low64)
def _low64(a):
    """The low word."""
    if _pair(a):
        return lambda a: a[0]
    return lambda a: a


@overload(high32)
def _high32(a):
    """Bits 64-95 (0 for one word), as a uint64."""
    if _pair(a):
        return lambda a: a[1] & U64(0xFFFFFFFF)
    return lambda a: U64(0)


@overload(bit_index)
def _bit_index(a):
    """Index of the single set bit of a."""
    if _pair(a):

        def impl(a):
            if a[0] != U64(0):
                return popcount64(a[0] - U64(1))
            return 64 + popcount64(a[1] - U64(1))

        return impl
    return lambda a: popcount64(a - U64(1))


@overload(ld1)
def _ld1(arr, i):
    """Board i of a board array (1-D of words, or 2-D of pairs)."""
    if arr.ndim == 2:
        return lambda arr, i: (arr[i, 0], arr[i, 1])
    return lambda arr, i: arr[i]


@overload(st1)
def _st1(arr, i, x):
    if arr.ndim == 2:

        def impl(arr, i, x):
            arr[i, 0] = x[0]
            arr[i, 1] = x[1]

        return impl

    def impl1(arr, i, x):
        arr[i] = x

    return impl1


@overload(ld2)
def _ld2(arr, i, j):
    """Board (i, j) of a board matrix (2-D of words, or 3-D of pairs)."""
    if arr.ndim == 3:
        return lambda arr, i, j: (arr[i, j, 0], arr[i, j, 1])
    return lambda arr, i, j: arr[i, j]


@overload(st2)
def _st2(arr, i, j, x):
    if arr.ndim == 3:

        def impl(arr, i, j, x):
            arr[i, j, 0] = x[0]
            arr[i, j, 1] = x[1]

        return impl

    def impl1(arr, i, j, x):
        arr[i, j] = x

    return impl1
