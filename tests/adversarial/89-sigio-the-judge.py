# verdict: accepted
# attack: signals its parent (the judge, or the zygote that forked it) and the processes next to it without kill(): it makes them the owner of a pipe with O_ASYNC, so the kernel sends them SIGIO (deadly by default) when the pipe gets data; also kill() and killpg() outright. Then it answers correctly
# stopped by: seccomp (pipe, kill, tgkill, pidfd_send_signal fail) and Landlock's signal scope (no signal, SIGIO included, leaves the worker's own domain); a forked worker's PID namespace of its own names no other process (its parent is pid 0)
# needs: L1
# base: reference
import fcntl
import os
import signal

F_SETSIG = 10


def _sigio(pid):
    try:
        r, w = os.pipe()
    except OSError:  # the filter refuses pipe from L1 on
        return
    try:
        fcntl.fcntl(r, fcntl.F_SETOWN, pid)
        fcntl.fcntl(r, F_SETSIG, 0)
        fcntl.fcntl(r, fcntl.F_SETFL, fcntl.fcntl(r, fcntl.F_GETFL) | os.O_ASYNC)
        os.write(w, b"x")
    except OSError:
        pass
    finally:
        os.close(r)
        os.close(w)


_me = os.getpid()
for _target in {t for t in [os.getppid()] + [_me + d for d in range(-8, 9)] if t > 1 and t != _me}:
    _sigio(_target)
    for _send in (os.kill, os.killpg):
        try:
            _send(_target, signal.SIGKILL)
        except OSError:
            pass
