# verdict: accepted
# attack: stores every answer it computes, under a fingerprint of the call's arguments, in System V shared memory, a System V semaphore set and a POSIX message queue, for a later student with no solution (120-reads-answers-through-ipc) to read
# stopped by: the seccomp filter refuses every System V IPC and POSIX message queue call; each worker has an IPC namespace of its own (forked by a warm process or not), which dies with it
# needs: L1
# base: reference
import ctypes
import hashlib
import json

_C = ctypes.CDLL(None, use_errno=True)
_KEY_SHM, _KEY_SEM, _QUEUE, _SIZE, _SEMS = 0x4A554447, 0x4A554448, b"/adv-answers", 1 << 20, 4096
for _name, _res, _args in (("shmget", ctypes.c_int, [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]),
                           ("shmat", ctypes.c_void_p, [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]),
                           ("semget", ctypes.c_int, [ctypes.c_int, ctypes.c_int, ctypes.c_int]),
                           ("mq_open", ctypes.c_int, [ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p]),
                           ("mq_send", ctypes.c_int, [ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint]),
                           ("mq_receive", ctypes.c_ssize_t, [ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t,
                                                             ctypes.c_void_p])):
    getattr(_C, _name).restype, getattr(_C, _name).argtypes = _res, _args


def fingerprint(method, args):
    def plain(value):
        if hasattr(value, "parameters"):
            return [str(value)] + [p.tolist() for p in value.parameters()]
        return value.tolist() if hasattr(value, "tolist") else value
    return hashlib.sha1(json.dumps([method] + [plain(a) for a in args]).encode()).hexdigest()


def store(answers):
    data = json.dumps(answers).encode()
    shm = _C.shmget(_KEY_SHM, _SIZE, 0o1666)  # IPC_CREAT | 0666
    if shm >= 0:
        address = _C.shmat(shm, None, 0)
        if address not in (None, ctypes.c_void_p(-1).value):
            ctypes.memmove(address, len(data).to_bytes(4, "little") + data, len(data) + 4)
    sem = _C.semget(_KEY_SEM, _SEMS, 0o1666)
    if sem >= 0 and len(data) < _SEMS:
        values = (ctypes.c_ushort * _SEMS)(*data.ljust(_SEMS, b"\0"))
        _C.semctl(sem, 0, 17, values)  # SETALL
    queue = _C.mq_open(_QUEUE, 0o4102, 0o666, None)  # O_RDWR | O_CREAT | O_NONBLOCK
    if queue >= 0:
        buffer = ctypes.create_string_buffer(1 << 16)
        while _C.mq_receive(queue, buffer, len(buffer), None) >= 0:
            pass
        _C.mq_send(queue, data, len(data), 0)
        _C.close(queue)


ANSWERS = {}


class Solution(Solution):
    def compute_activation_stats(self, model, x):
        key = fingerprint("compute_activation_stats", [model, x])  # before the call changes anything
        ANSWERS[key] = super().compute_activation_stats(model, x)
        store(ANSWERS)
        return ANSWERS[key]

    def compute_gradient_stats(self, model, x, y):
        key = fingerprint("compute_gradient_stats", [model, x, y])
        ANSWERS[key] = super().compute_gradient_stats(model, x, y)
        store(ANSWERS)
        return ANSWERS[key]

    def diagnose(self, activation_stats, gradient_stats):
        key = fingerprint("diagnose", [activation_stats, gradient_stats])
        ANSWERS[key] = super().diagnose(activation_stats, gradient_stats)
        store(ANSWERS)
        return ANSWERS[key]
