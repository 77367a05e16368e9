"""The one seam between the engines and numba.

Every kernel is compiled with ``@kernel`` (or ``@inline_kernel``, the same inlined into its
callers): ``cache=True`` so a second start does not recompile, ``nogil=True`` so GUI threads keep
running while a kernel works. A kernel and the jitted helpers it calls live in one module,
because numba's cache does not notice edits in other files.
"""

from __future__ import annotations

import numba
from numba import types
from numba.core import config
from numba.core import cgutils
from numba.extending import intrinsic
from llvmlite import binding, ir

kernel = numba.njit(cache=True, nogil=True)

#: For a kernel called in the innermost loop of another with tables among its arguments: numba
#: inlines it into its caller, where a call would pass every array's fields on the stack (for
#: 2048's expectimax, a few per cent of its time). Keep it to a single return: with an early one,
#: numba kept the arrays' reference counting inside the caller's loop, which cost more than the
#: call (a third more time).
inline_kernel = numba.njit(cache=True, nogil=True, inline="always")

#: For the few kernels that split a batch over the cores (``numba.prange``); never run two of them
#: from several threads at once.
parallel_kernel = numba.njit(cache=True, nogil=True, parallel=True)


@intrinsic
def fetch_add(typingctx, array, index, value):
    """``array[index] += value`` as one atomic step, returning the old value: threads that share a
    counter in an int64 array each get a distinct number (used to hand out work items)."""
    if not (isinstance(array, types.Array) and array.dtype == types.int64):
        return None
    signature = types.int64(array, types.intp, types.int64)

    def codegen(context, builder, sig, args):
        data, position, amount = args
        array_type = sig.args[0]
        view = context.make_array(array_type)(context, builder, data)
        pointer = cgutils.get_item_pointer(context, builder, array_type, view, [position])
        return builder.atomic_rmw("add", pointer, amount, "seq_cst")

    return signature, codegen


@intrinsic
def single_bits(typingctx, value):
    """The IEEE bits of the float32 nearest a float64, in the low half of a uint64: a value kept in
    32 bits, as a table entry shares its word with a check."""
    if value != types.float64:
        return None

    def codegen(context, builder, sig, args):
        single = builder.fptrunc(args[0], ir.FloatType())
        return builder.zext(builder.bitcast(single, ir.IntType(32)), ir.IntType(64))

    return types.uint64(types.float64), codegen


@intrinsic
def single_from_bits(typingctx, bits):
    """The float32 whose IEEE bits are the low half of ``bits``, as a float64 (exactly)."""
    if bits != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        single = builder.bitcast(builder.trunc(args[0], ir.IntType(32)), ir.FloatType())
        return builder.fpext(single, ir.DoubleType())

    return types.float64(types.uint64), codegen


@intrinsic
def prefetch(typingctx, array, index):
    """Ask the processor to start loading row ``index`` of ``array`` into the cache, so that several
    memory reads (such as a node's children in a large table) overlap instead of waiting in turn."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, sig, args):
        data, position = args
        array_type = sig.args[0]
        view = context.make_array(array_type)(context, builder, data)
        indices = [position] + [context.get_constant(types.intp, 0)] * (array_type.ndim - 1)
        pointer = cgutils.get_item_pointer(context, builder, array_type, view, indices)
        byte_pointer = ir.IntType(8).as_pointer()
        word = ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, word, word, word]), "llvm.prefetch.p0")
        # read, keep in all cache levels, data cache
        builder.call(function, [builder.bitcast(pointer, byte_pointer), word(0), word(3), word(1)])
        return context.get_dummy_value()

    return types.none(array, types.intp), codegen


@intrinsic
def popcount(typingctx, value):
    """The number of set bits of a uint64 (as an int64, so sums stay integers), one processor
    instruction where there is one."""
    if value != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return types.int64(types.uint64), codegen


def _fast_bit_deposit() -> bool:
    """Whether the processor numba compiles for has BMI2's ``pdep`` as one quick instruction: not
    when compiling for another processor than this one (``NUMBA_CPU_NAME``), nor on AMD's
    processors before Zen 3, which run it as a slow microcoded loop."""
    if config.CPU_NAME is not None:
        return False
    features = binding.get_host_cpu_features()
    name = binding.get_host_cpu_name()
    return bool(features.get("bmi2")) and not name.startswith(("znver1", "znver2", "bdver"))


#: :func:`deposit_bits` may be used (else a kernel takes its plain path).
FAST_BIT_DEPOSIT = _fast_bit_deposit()


@intrinsic
def deposit_bits(typingctx, value, mask):
    """The low bits of ``value`` placed, in order, at the set bits of ``mask`` (BMI2's ``pdep``),
    for instance a 16-bit line's four nibbles spread 16 bits apart in one step. Only where
    :data:`FAST_BIT_DEPOSIT` says so."""
    if value != types.uint64 or mask != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        word = ir.IntType(64)
        function = cgutils.get_or_insert_function(builder.module, ir.FunctionType(word, [word, word]),
                                                  "llvm.x86.bmi.pdep.64")
        return builder.call(function, args)

    return types.uint64(types.uint64, types.uint64), codegen


@intrinsic
def trailing_zeros(typingctx, value):
    """The number of zero bits below the lowest set bit of a uint64 (64 for 0), as an int64: the
    first set bit of a mask found without a loop."""
    if value != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.uint64), codegen
