# verdict: output_format_error
# attack: writes a line nested 200,000 levels deep straight onto the reply pipe, to crash the parent's JSON parser
# stopped by: the parent turns a RecursionError into a protocol violation (output format error) and restarts the worker
# base: reference
import fcntl
import os
import stat


def _reply_pipes():
    for fd in range(3, 64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode) and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_WRONLY:
                yield fd
        except OSError:
            pass


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        for fd in _reply_pipes():
            os.write(fd, b"[" * 200_000 + b"]" * 200_000 + b"\n")
        return super().compute_activation_stats(model, x)
