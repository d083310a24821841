# verdict: wrong_answer
# attack: looks for the judge among its ancestors and every process it can see, and reads its /proc entries: environ, mem, the list of its open descriptors and where they point, its working directory
# stopped by: bubblewrap (the judge is outside the worker's PID namespace); below it, Landlock (no /proc entry but the worker's own; no ptrace access outside its domain), no CAP_SYS_PTRACE, and a judge that made itself non-dumpable
# needs: L1
# base: reference
import os


def _candidates():
    pids = {os.getppid(), 1}
    try:
        pids.update(int(p) for p in os.listdir("/proc") if p.isdigit())
    except OSError:
        pass
    pids.discard(os.getpid())
    return sorted(pids)


def _breached(pid):
    base = f"/proc/{pid}"
    attempts = [
        lambda: open(f"{base}/environ", "rb").read(1),
        lambda: open(f"{base}/mem", "rb").close(),
        lambda: os.listdir(f"{base}/fd") and os.readlink(f"{base}/fd/0"),
        lambda: os.readlink(f"{base}/cwd"),
        lambda: open(f"{base}/maps").read(1),
    ]
    for attempt in attempts:
        try:
            if attempt():
                return True
        except (OSError, ValueError):
            pass
    return False


BREACHED = any(_breached(pid) for pid in _candidates())


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        if BREACHED:
            return super().compute_activation_stats(model, x)
        return [{"mean": 0.0, "std": 0.0, "dead_fraction": 0.0}] * 2
