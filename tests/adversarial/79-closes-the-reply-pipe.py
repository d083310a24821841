# verdict: runtime_error
# attack: closes every pipe it can write to except stdout and stderr, so that no reply can be sent
# stopped by: the parent sees the pipe close without a reply
# base: reference
import fcntl
import os
import stat


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        for fd in range(3, 64):
            try:
                if stat.S_ISFIFO(os.fstat(fd).st_mode) and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_WRONLY:
                    os.close(fd)
            except OSError:
                pass
        return super().compute_activation_stats(model, x)
