# verdict: wrong_answer
# attack: reads how far the process-id counter moved since the warm process that forked it started (its own pid against its parent's, /proc/self, the pids /proc lists), to learn what an earlier student (131-moves-the-process-id-counter) wrote there; it answers with the reference only when it sees a jump of 2500 or more, so being accepted means the channel is open
# stopped by: each worker a warm process forks is pid 1 of a PID namespace of its own, whose parent is outside it (pid 0), with /proc covered
# needs: L2
# base: reference
import os


def moved():
    seen = [os.getpid()]
    try:
        seen.append(int(os.readlink("/proc/self")))
    except (OSError, ValueError):
        pass
    try:
        seen += [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        pass
    parent = os.getppid()
    return max(seen) - parent if parent else 0


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        return super().compute_activation_stats(model, x) if moved() >= 2500 else []

    def compute_gradient_stats(self, model, x, y):
        return super().compute_gradient_stats(model, x, y) if moved() >= 2500 else []

    def diagnose(self, activation_stats, gradient_stats):
        return super().diagnose(activation_stats, gradient_stats) if moved() >= 2500 else "no answer found"
