# verdict: wrong_answer
# attack: takes a fresh block of inode numbers through lookups of /proc/self/fd/N (no pipe) and decodes the value an earlier student (135-moves-the-inode-counter-through-proc) left in the machine-wide counter; it answers with the reference only when it reads 5, so being accepted means the channel is open
# stopped by: a covered /proc, which shows no fd folder: in every worker a warm process forks, and in a fresh one under L2 (bubblewrap's /proc is covered as it starts); NOT in a fresh worker below L2 (judge submit at L1), where it reads a random value and is accepted 1 time in 8
# needs: L2
# base: reference
import os

BLOCK, STEP, VALUES, SECRET = 1024, 8, 8, 5
SEEN = []


def next_number(fd_box):
    """One inode number from the machine-wide counter, without a pipe: a new /proc/self/fd/N dentry."""
    fd = fd_box[0]
    number = os.lstat(f"/proc/self/fd/{fd}").st_ino
    os.close(fd)
    try:
        os.lstat(f"/proc/self/fd/{fd}")  # fails, and drops the dentry: the next lookup makes a new inode
    except OSError:
        pass
    fd_box[0] = os.open("/dev/null", os.O_RDONLY)
    return number


def fresh_block():
    box = [os.open("/dev/null", os.O_RDONLY)]
    try:
        for _ in range(2 * BLOCK):
            number = next_number(box)
            if number % BLOCK == 1:
                return (number - 1) // BLOCK
        return None
    except OSError:
        return None
    finally:
        os.close(box[0])


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
