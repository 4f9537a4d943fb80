#!/usr/bin/python3
"""Prints the table of 2/pi windows that kiln_vm_sincos_reduce_f32
(runtime/vm/numerics.h) uses: for every exponent e of an f32 |x| from -1
to 127 (x = M * 2^(e - 23), M a 24-bit integer), the 96 bits
floor(2/pi * 2^(e - 23 + 94)) mod 2^96 as three 32-bit words, high first.
pi comes from Machin's formula in integer arithmetic (400 bits)."""

BITS = 400


def arctan_inv(n, one):
    """atan(1/n) * one, by its series in integers."""
    total, term, k, sign = 0, one // n, 1, 1
    while term:
        total += sign * (term // k)
        term //= n * n
        k += 2
        sign = -sign
    return total


one = 1 << (BITS + 16)
pi = 16 * arctan_inv(5, one) - 4 * arctan_inv(239, one)  # pi * one
rows = []
for e in range(-1, 128):
    shift = e - 23 + 94
    w = ((2 * one << shift) // pi) % (1 << 96)
    rows.append("{0x%08xu, 0x%08xu, 0x%08xu}" %
                (w >> 64, (w >> 32) & 0xffffffff, w & 0xffffffff))
print("static const uint32_t kiln_vm_two_over_pi_f32[129][3] = {")
for i in range(0, len(rows), 2):
    print("    " + ", ".join(rows[i:i + 2]) + ",")
print("};")
