"""The numba seam's low-level helpers: the atomic counter threads share work by, and the float32
bit casts the 2048 table packs its entries with."""

from __future__ import annotations

import threading

import numba
import numpy as np

from engines.jit import fetch_add, popcount, single_bits, single_from_bits


@numba.njit(nogil=True)
def _claim_all(counter, claims, thread):
    while True:
        item = fetch_add(counter, 0, 1)
        if item >= claims.shape[0]:
            return
        claims[item, thread] += 1


def test_two_threads_take_every_item_exactly_once():
    items = 2_000_000
    counter = np.zeros(1, np.int64)
    claims = np.zeros((items, 2), np.int64)
    _claim_all(np.zeros(1, np.int64), np.zeros((1, 2), np.int64), 0)  # compile first
    threads = [threading.Thread(target=_claim_all, args=(counter, claims, t)) for t in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert (claims.sum(axis=1) == 1).all()
    # Both threads ran, and the counter ends one past the items for each thread that stopped.
    assert claims[:, 0].sum() > 0 and claims[:, 1].sum() > 0
    assert counter[0] == items + 2


@numba.njit
def _round_trip(value):
    return single_bits(value), single_from_bits(single_bits(value))


@numba.njit
def _single_from_bits(bits):
    return single_from_bits(bits)


def test_float32_bit_casts_match_ieee_754():
    # float32: 1.5 = 0x3FC00000; -2.0 = 0xC0000000, in the low half of the word only.
    assert _round_trip(1.5) == (0x3FC00000, 1.5)
    assert _round_trip(-2.0) == (0xC0000000, -2.0)
    # A value a float32 cannot hold comes back as the nearest float32 (here 1,475,605.625).
    assert _round_trip(1_475_605.6)[1] == float(np.float32(1_475_605.6)) == 1_475_605.625
    # What is above the low half is not read back.
    assert _single_from_bits(np.uint64(0xFFFF_FFFF_3FC0_0000)) == 1.5


@numba.njit
def _popcount(value):
    return popcount(value)


def test_popcount_counts_set_bits():
    for value in (0, 1, 0b1011, 2**64 - 1, 0x8000000000000001, 0x0123456789ABCDEF):
        assert _popcount(np.uint64(value)) == bin(value).count("1")
    assert _popcount(np.uint64(2**64 - 1)) == 64
