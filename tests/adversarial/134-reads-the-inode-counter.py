# verdict: wrong_answer
# attack: takes a fresh block of pipe inode numbers and decodes the value an earlier student (133-moves-the-inode-counter) left in the machine-wide counter; it answers with the reference only when it reads 5, so being accepted means the channel is open
# stopped by: the seccomp filter refuses pipe, pipe2 and memfd_create, whose inode numbers come from counters every worker shares
# needs: L1
# base: reference
import os

BLOCK, STEP, VALUES, SECRET = 1024, 8, 8, 5
SEEN = []


def fresh_block():
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


def seen():
    if not SEEN:
        block = fresh_block()
        SEEN.append(None if block is None else ((block - 1) % (STEP * VALUES)) // STEP)
    return SEEN[0]


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return super().compute_activation_stats(model, x) if seen() == SECRET else []

    def compute_gradient_stats(self, model, x, y):
        return super().compute_gradient_stats(model, x, y) if seen() == SECRET else []

    def diagnose(self, activation_stats, gradient_stats):
        return super().diagnose(activation_stats, gradient_stats) if seen() == SECRET else "no answer found"
