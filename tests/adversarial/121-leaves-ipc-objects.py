# verdict: accepted
# attack: at import, makes ten 64 MiB System V shared memory segments and touches every page, a semaphore set and a POSIX message queue, removes none of them (they would outlive the worker, the judge and every memory limit), then answers correctly
# stopped by: the seccomp filter refuses every System V IPC and POSIX message queue call; where it did not, the worker's own IPC namespace would take them with it, and its memory cgroup would count the pages it touched
# needs: L1
# base: reference
import ctypes

_C = ctypes.CDLL(None, use_errno=True)
_C.shmget.restype, _C.shmget.argtypes = ctypes.c_int, [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
_C.shmat.restype, _C.shmat.argtypes = ctypes.c_void_p, [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
_C.shmdt.argtypes = [ctypes.c_void_p]
_C.mq_open.restype = ctypes.c_int
_C.mq_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
_SEGMENT = 64 << 20

for _ in range(10):
    _id = _C.shmget(0, _SEGMENT, 0o1600)  # IPC_PRIVATE, IPC_CREAT | 0600
    if _id < 0:
        continue
    _address = _C.shmat(_id, None, 0)
    if _address not in (None, ctypes.c_void_p(-1).value):
        ctypes.memset(_address, 1, _SEGMENT)
        _C.shmdt(ctypes.c_void_p(_address))  # detached: no resident set shows its pages any more
_C.semget(0x4A554449, 16, 0o1600)
_C.mq_open(b"/adv-hoard", 0o102, 0o600, None)  # O_RDWR | O_CREAT
