# verdict: accepted
# attack: makes pipes until the block of inode numbers it takes (the kernel hands them out 1024 at a time, from one counter for the whole machine) has index 40 modulo 64, so that the next block a later student with no solution (134-reads-the-inode-counter) takes says 5; such a value was read back exactly, at L2 and L1
# stopped by: nothing stops the writer, which answers either way; the reader is stopped by the seccomp filter, which refuses pipe, pipe2 and memfd_create
# needs: L1
# base: reference
import os

BLOCK, STEP, VALUES, SECRET = 1024, 8, 8, 5
DONE = []


def fresh_block():
    """Make pipes until one takes a fresh block of inode numbers; its index (None when pipes are refused)."""
    for _ in range(2 * BLOCK):
        try:
            r, w = os.pipe()
        except OSError:
            return None
        number = os.fstat(r).st_ino
        os.close(r)
        os.close(w)
        if number % BLOCK == 1:
            return (number - 1) // BLOCK
    return None


def write():
    while not DONE:
        block = fresh_block()
        if block is None or block % (STEP * VALUES) == SECRET * STEP:
            DONE.append(block)


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        write()
        return super().compute_activation_stats(model, x)
