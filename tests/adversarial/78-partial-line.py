# verdict: output_format_error
# attack: writes half a JSON object (no newline) onto the reply pipe, so the real reply completes a broken line
# stopped by: the parent's strict parser: the line is not JSON, a protocol violation
# base: reference
import fcntl
import os
import stat


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        for fd in range(3, 64):
            try:
                if stat.S_ISFIFO(os.fstat(fd).st_mode) and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_WRONLY:
                    os.write(fd, b'{"id": ')
            except OSError:
                pass
        return super().compute_activation_stats(model, x)
