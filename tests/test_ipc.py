"""No channel between workers through System V IPC or POSIX message queues.

Both layers are checked on their own: the seccomp filter refuses every IPC call, and every worker (fresh, or
forked by a warm process) has an IPC namespace of its own, so a segment made in one is in no other. Then a student
who stores answers in shared memory and one who reads them are graded in one class (one job slot: the same warm
process forks both) at L2 and L1, and judged by two ``judge submit`` runs at L1; the reader is never accepted, and
nothing either made is left on the machine. The same pair through files, at L2 on a kernel without Landlock: only
each forked worker's own mounts keep one student's files from the next.
"""

from __future__ import annotations

import ctypes
import functools
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from judge.worker import ipc, libc, probe, seccomp
from judge.worker.forkserver import ForkServer
from judge.worker.runner import Worker
from tests.support.cli import REFERENCE_SOURCE, REPO, SLUG, judge_env
from tests.support.ipc import ipc_objects

SUITE = REPO / "tests" / "adversarial"
WRITER, READER, HOARDER = "119-hands-answers-through-ipc", "120-reads-answers-through-ipc", "121-leaves-ipc-objects"
root_only = pytest.mark.skipif(os.geteuid() != 0, reason="needs root (to look into other processes' namespaces)")


def _in_child(body) -> int:
    """``body()``'s exit code, run in a forked child (the test process is left as it was)."""
    pid = os.fork()
    if pid == 0:
        code = 255
        try:
            code = body()
        finally:
            os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def test_the_filter_refuses_every_ipc_call():
    c = libc.load()
    c.semget.restype = c.msgget.restype = c.mq_open.restype = ctypes.c_int
    c.mq_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
    calls = [lambda: ipc.shmget(0, 4096), lambda: c.semget(0, 1, 0o1600), lambda: c.msgget(0, 0o1600),
             lambda: c.mq_open(b"/adv-filter", os.O_RDWR | os.O_CREAT, 0o600, None)]

    def refused(filtered: bool) -> int:
        if filtered:
            seccomp.install()
        results = [(call(), ctypes.get_errno()) for call in calls]
        return sum(1 << i for i, (result, err) in enumerate(results) if result == -1 and err == 1)  # EPERM

    before = ipc_objects()
    assert _in_child(lambda: refused(True)) == 0b1111
    assert _in_child(lambda: (ipc.isolate(ipc.working_mode()[0]), refused(False))[1]) == 0, \
        "without the filter the calls work: the test no longer tells the filter's work apart"
    assert ipc_objects() == before


def test_the_filter_refuses_the_page_cache_probes_and_the_locks_of_shared_files():
    """A red team's channels between workers through files every worker may read: which pages are cached
    (126/127: fadvise, RWF_NOWAIT) and who holds a lock (flock, fcntl). Each works without the filter,
    and plain reads and fcntl's other commands still do with it."""
    import fcntl

    def probes() -> list:
        fd = os.open(sys.executable, os.O_RDONLY)
        return [lambda: os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED),
                lambda: os.preadv(fd, [bytearray(1)], 0, os.RWF_NOWAIT),
                lambda: fcntl.flock(fd, fcntl.LOCK_SH),
                lambda: fcntl.lockf(fd, fcntl.LOCK_SH)]

    def refused(filtered: bool) -> int:
        calls = probes()
        if filtered:
            seccomp.install()
        fd = os.open(sys.executable, os.O_RDONLY)
        assert os.pread(fd, 1, 0) and fcntl.fcntl(fd, fcntl.F_GETFL) >= 0  # what a worker needs still works
        found = 0
        for i, call in enumerate(calls):
            try:
                call()
            except PermissionError:
                found |= 1 << i
        return found

    assert _in_child(lambda: refused(True)) == 0b1111
    assert _in_child(lambda: refused(False)) == 0, "without the filter the probes work: the test tells nothing"


@pytest.mark.parametrize("mode", list(ipc.MODES))
def test_a_namespace_of_its_own_holds_what_the_process_makes_and_dies_with_it(mode):
    """Each mode gives the process a new namespace, keeps its ids, and nothing it makes there is left after it."""
    if ipc._in_child(mode) != 0:
        pytest.skip(f"{mode} does not work here")
    ours, ids = ipc.namespace(), (os.getuid(), os.getgid())
    before = ipc_objects()
    read, write = os.pipe()

    def body() -> int:
        ipc.isolate(mode)
        made = ipc.shmget(0x4A55444A, 1 << 20)
        os.write(write, json.dumps([ipc.namespace(), os.getuid(), os.getgid(), made]).encode())
        return 0

    assert _in_child(body) == 0
    inside, uid, gid, made = json.loads(os.read(read, 4096))
    assert inside != ours and (uid, gid) == ids and made >= 0
    assert ipc_objects() == before


def _namespace_of(pid: int, other_than: str, deadline: float) -> str:
    """``pid``'s IPC namespace once it has left ``other_than`` (the zygote's), which it does before any request."""
    while True:
        found = os.readlink(f"/proc/{pid}/ns/ipc")
        if found != other_than or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


@root_only
@pytest.mark.parametrize("cap", ["L2", "L1"])
def test_workers_forked_by_one_warm_process_share_no_namespace(cap, monkeypatch):
    """Two workers of one zygote: each in a namespace of its own, neither the zygote's; a segment made in the
    first one's is not in the second one's."""
    monkeypatch.setenv("JUDGE_MAX_LEVEL", cap)
    found = probe.confinement()
    if found.level != cap:
        pytest.skip(f"this machine gives {found.describe()}")
    assert found.ipc, found.describe()
    server = ForkServer(found)
    workers = [Worker(REFERENCE_SOURCE.encode(), 1 << 30, server.launch) for _ in range(2)]
    try:
        for worker in workers:
            worker.start()
        zygote = os.readlink(f"/proc/{server.pid}/ns/ipc")
        deadline = time.monotonic() + 60
        first, second = (_namespace_of(w.pid, zygote, deadline) for w in workers)
        assert len({zygote, first, second}) == 3
        nsenter = ["nsenter", f"--ipc=/proc/{workers[0].pid}/ns/ipc"]
        subprocess.run([*nsenter, "ipcmk", "-M", "4096"], check=True, capture_output=True)
        listed = [f"--ipc=/proc/{w.pid}/ns/ipc" for w in workers]
        shown = [subprocess.run(["nsenter", flag, "ipcs", "-m"], capture_output=True, text=True, check=True).stdout
                 for flag in listed]
        assert "4096" in shown[0] and "4096" not in shown[1]
    finally:
        for worker in workers:
            worker.close()
        server.close()



def _students(folder: Path, *names: str) -> None:
    folder.mkdir(parents=True)
    for name in names:
        text = (SUITE / f"{name}.py").read_text()
        source = REFERENCE_SOURCE + "\n\n" + text if "# base: reference" in text else text
        (folder / f"{name}.py").write_text(source)


@root_only
@pytest.mark.parametrize("cap, namespaces", [("L2", "on"), ("L1", "on"), ("L1", "off")])
def test_a_reader_graded_after_a_writer_by_the_same_warm_process_gets_nothing(cap, namespaces, toy_root, tmp_path):
    """One job slot, so one warm process forks the writer, the hoarder and then the reader. ``off``: the workers
    share the zygote's namespace (below L2, the machine's), and the filter alone must hold."""
    env = {**judge_env(toy_root), "JUDGE_MAX_LEVEL": cap, "JUDGE_IPC_NAMESPACES": namespaces}
    if cap == "L2" and probe.confinement().bwrap is None:
        pytest.skip(f"this machine gives {probe.confinement().describe()}")
    folder = tmp_path / "class"
    _students(folder, WRITER, HOARDER, READER)
    before = ipc_objects()
    graded = subprocess.run([sys.executable, "-m", "judge", "grade", SLUG, str(folder), "--out", str(tmp_path / "out"),
                             "--jobs", "1"], capture_output=True, text=True, env=env, timeout=900)
    assert graded.returncode == 0, graded.stdout[-2000:] + graded.stderr[-2000:]
    reports = {p.parent.name: json.loads(p.read_text()) for p in (tmp_path / "out" / "students").glob("*/results.json")}
    assert {name: r["verdict"] for name, r in reports.items()} == {
        WRITER: "accepted", HOARDER: "accepted", READER: "wrong_answer"}
    assert all(r["judge"]["security_level"].startswith(cap) for r in reports.values())
    assert ipc_objects() == before, "a worker left System V objects or message queues on the machine"


@root_only
@pytest.mark.parametrize("private_mounts", ["on", "off"])
def test_at_l2_without_landlock_a_reader_gets_nothing_through_folders_unless_mounts_are_off(private_mounts, toy_root,
                                                                                            tmp_path):
    """One job slot: one warm process forks the writer and then the reader in bubblewrap's view, whose ``/tmp`` and
    scratch folder they share. On a kernel without Landlock (emulated: a filter answers its calls ``ENOSYS``) the
    reader was accepted with no solution; each forked worker's own mounts, read-only but for its scratch tmpfs,
    stop it. ``off`` shows the test can fail: the channel is open again."""
    if probe.confinement().bwrap is None:
        pytest.skip(f"this machine gives {probe.confinement().describe()}")
    writer, reader = "129-hands-answers-through-folders", "130-reads-answers-through-folders"
    folder = tmp_path / "class"
    _students(folder, writer, reader)
    env = {**judge_env(toy_root), "JUDGE_MAX_LEVEL": "L2", "JUDGE_PRIVATE_MOUNTS": private_mounts}
    graded = subprocess.run([sys.executable, str(REPO / "tests" / "support" / "no_landlock.py"), sys.executable, "-m",
                             "judge", "grade", SLUG, str(folder), "--out", str(tmp_path / "out"), "--jobs", "1"],
                            capture_output=True, text=True, env=env, timeout=900)
    assert graded.returncode == 0, graded.stdout[-2000:] + graded.stderr[-2000:]
    reports = {p.parent.name: json.loads(p.read_text()) for p in (tmp_path / "out" / "students").glob("*/results.json")}
    levels = {r["judge"]["security_level"] for r in reports.values()}
    assert len(levels) == 1 and levels.pop().startswith("L2") and "Landlock" not in graded.stdout + str(levels)
    assert {name: r["verdict"] for name, r in reports.items()} == {
        writer: "accepted", reader: "wrong_answer" if private_mounts == "on" else "accepted"}
    doctor = subprocess.run([sys.executable, str(REPO / "tests" / "support" / "no_landlock.py"), sys.executable, "-m",
                             "judge", "doctor"], capture_output=True, text=True, env=env, timeout=300).stdout
    folders = next(line for line in doctor.splitlines() if "/tmp and other shared folders" in line)
    assert folders.strip().startswith("[x]" if private_mounts == "on" else "[ ]"), folders


@root_only
@pytest.mark.parametrize("cap, private_mounts", [("L2", "on"), ("L2", "off"), ("L1", "on")])
def test_a_reader_sees_nothing_of_the_process_id_counter_unless_mounts_are_off(cap, private_mounts, toy_root, tmp_path):
    """One job slot: one warm process forks the writer, who starts 3000 threads, and then the reader, who answers
    only when it sees its pid moved on by 2500 or more from its parent's. Each forked worker is pid 1 of a PID
    namespace of its own with ``/proc`` covered (:mod:`judge.worker.pidns`), so the reader sees nothing. ``off``
    (no private mounts, so no PID namespace of the worker's own) shows the test can fail: the reader is accepted.
    Not at L1 with ``off``: there the counter is the machine's, which may wrap (``pid_max``) between the two."""
    if cap == "L2" and probe.confinement().bwrap is None:
        pytest.skip(f"this machine gives {probe.confinement().describe()}")
    writer, reader = "131-moves-the-process-id-counter", "132-reads-the-process-id-counter"
    folder = tmp_path / "class"
    _students(folder, writer, reader)
    env = {**judge_env(toy_root), "JUDGE_MAX_LEVEL": cap, "JUDGE_PRIVATE_MOUNTS": private_mounts}
    graded = subprocess.run([sys.executable, "-m", "judge", "grade", SLUG, str(folder), "--out", str(tmp_path / "out"),
                             "--jobs", "1"], capture_output=True, text=True, env=env, timeout=900)
    assert graded.returncode == 0, graded.stdout[-2000:] + graded.stderr[-2000:]
    reports = {p.parent.name: json.loads(p.read_text()) for p in (tmp_path / "out" / "students").glob("*/results.json")}
    assert all(r["judge"]["security_level"].startswith(cap) for r in reports.values())
    assert {name: r["verdict"] for name, r in reports.items()} == {
        writer: "accepted", reader: "wrong_answer" if private_mounts == "on" else "accepted"}
    doctor = subprocess.run([sys.executable, "-m", "judge", "doctor"], capture_output=True, text=True, env=env,
                            timeout=300).stdout
    line = next(line for line in doctor.splitlines() if "process ids" in line)
    assert line.strip().startswith("[x]" if private_mounts == "on" and cap == "L2" else "[ ]"), line


INODE_PAIRS = {"pipes": ("133-moves-the-inode-counter", "134-reads-the-inode-counter"),
               "proc": ("135-moves-the-inode-counter-through-proc", "136-reads-the-inode-counter-through-proc")}


@root_only
@pytest.mark.parametrize("pair, cap, private_mounts, opened", [
    ("pipes", "L2", "on", False), ("pipes", "L1", "on", False), ("pipes", "L0", "on", True),
    ("proc", "L2", "on", False), ("proc", "L1", "on", False), ("proc", "L2", "off", True)])
def test_a_reader_sees_nothing_of_the_inode_counter_unless_a_layer_is_off(pair, cap, private_mounts, opened, toy_root,
                                                                          tmp_path):
    """One job slot: the writer leaves a value in the machine-wide counter that numbers pipes and new ``/proc``
    entries (an attack read such a value back exactly), the reader answers only when it reads that value back, from a
    pipe of its own or a lookup of ``/proc/self/fd/N``. The filter refuses pipes from L1 on, and a forked worker's
    covered ``/proc`` shows no ``fd``. ``opened``: the reader is accepted with the layer that stops it off (no filter
    at L0; no private mounts, so bubblewrap's ``/proc``), so the test can fail."""
    if cap == "L2" and probe.confinement().bwrap is None:
        pytest.skip(f"this machine gives {probe.confinement().describe()}")
    writer, reader = INODE_PAIRS[pair]
    folder = tmp_path / "class"
    _students(folder, writer, reader)
    env = {**judge_env(toy_root), "JUDGE_MAX_LEVEL": cap, "JUDGE_PRIVATE_MOUNTS": private_mounts}
    graded = subprocess.run([sys.executable, "-m", "judge", "grade", SLUG, str(folder), "--out", str(tmp_path / "out"),
                             "--jobs", "1", "--allow-weak-sandbox"], capture_output=True, text=True, env=env,
                            timeout=900)
    assert graded.returncode == 0, graded.stdout[-2000:] + graded.stderr[-2000:]
    reports = {p.parent.name: json.loads(p.read_text()) for p in (tmp_path / "out" / "students").glob("*/results.json")}
    assert all(r["judge"]["security_level"].startswith(cap) for r in reports.values())
    assert {name: r["verdict"] for name, r in reports.items()} == {
        writer: "accepted", reader: "accepted" if opened else "wrong_answer"}


@root_only
@pytest.mark.slow
def test_a_reader_judged_by_the_next_judge_gets_nothing_at_l1(toy_root, tmp_path):
    """Two ``judge submit`` runs at L1, which share the machine's IPC namespace but for the workers' own."""
    env = {**judge_env(toy_root), "JUDGE_MAX_LEVEL": "L1"}
    _students(tmp_path / "s", WRITER, READER)
    before = ipc_objects()
    verdicts = []
    for name in (WRITER, READER):
        judged = subprocess.run([sys.executable, "-m", "judge", "submit", SLUG, str(tmp_path / "s" / f"{name}.py"),
                                 "--format", "json"], capture_output=True, text=True, env=env, timeout=600)
        verdicts.append(json.loads(judged.stdout)["verdict"])
    assert verdicts == ["accepted", "wrong_answer"]
    assert ipc_objects() == before


def test_doctor_says_how_each_channel_is_closed(monkeypatch):
    """The IPC line follows the probes: with the namespaces off it names the filter alone."""
    found = probe.confinement()
    lines = {c.name: c for c in probe.channels()}
    assert all(len(set(c.detail.split("; "))) == len(c.detail.split("; ")) for c in lines.values()), \
        "a channel's line says one way twice"
    assert lines["System V IPC and POSIX message queues"].active == bool(found.ipc or found.seccomp)
    assert ("seccomp filter refuses every IPC call" in lines["System V IPC and POSIX message queues"].detail) \
        == found.seccomp
    monkeypatch.setenv("JUDGE_IPC_NAMESPACES", "off")
    monkeypatch.setenv("JUDGE_MAX_LEVEL", "L1")
    monkeypatch.setattr(probe, "_probe", functools.cache(probe._probe.__wrapped__))  # a cache of its own
    capped = probe.confinement()
    assert capped.ipc == "" and any(m.startswith("no IPC namespace: JUDGE_IPC_NAMESPACES=off") for m in capped.missing)
    detail = {c.name: c for c in probe.channels()}["System V IPC and POSIX message queues"].detail
    assert "namespace" not in detail and ("filter" in detail) == capped.seccomp
    result = subprocess.run([sys.executable, "-m", "judge", "doctor"], capture_output=True, text=True,
                            env={**judge_env(None), "JUDGE_MAX_LEVEL": "L1", "JUDGE_IPC_NAMESPACES": ""}, timeout=300)
    assert "System V IPC and POSIX message queues: an IPC namespace of its own" in result.stdout


FAULT_AROUND = '''
import ctypes as _ct, mmap as _mm, os as _os, struct as _st
_C = _ct.CDLL(None, use_errno=True)
_C.mmap.restype, _C.mmap.argtypes = _ct.c_void_p, [_ct.c_void_p, _ct.c_size_t, _ct.c_int, _ct.c_int, _ct.c_int,
                                                   _ct.c_long]
_C.madvise.argtypes = [_ct.c_void_p, _ct.c_size_t, _ct.c_int]


def _block(path, block):
    """Block ``block`` (16 pages) of ``path`` mapped at a 64 KiB-aligned address with MADV_RANDOM (no readahead)."""
    fd = _os.open(path, _os.O_RDONLY)
    room = _C.mmap(None, 1 << 17, _mm.PROT_READ, _mm.MAP_PRIVATE | _mm.MAP_ANONYMOUS, -1, 0)
    address = (room + 0xFFFF) & ~0xFFFF
    _C.mmap(address, 1 << 16, _mm.PROT_READ, _mm.MAP_SHARED | 0x10, fd, block << 16)  # MAP_FIXED
    _os.close(fd)
    _C.madvise(address, 1 << 16, 1)  # MADV_RANDOM
    return address


def write_bits(path, block, bits):
    """A 1 is a page read (and so cached); nothing the seccomp filter refuses."""
    address = _block(path, block)
    for i, bit in enumerate(bits):
        if bit:
            _ct.string_at(address + (2 + i) * 4096, 1)


def read_bits(path, block):
    """Touch the block's first page: fault-around maps every page of the block already cached, and pagemap's
    present bit says which; no timing, and nothing the filter refuses."""
    try:
        address = _block(path, block)
        _ct.string_at(address, 1)
        pagemap = _os.open("/proc/self/pagemap", _os.O_RDONLY)
        words = _st.unpack("16Q", _os.pread(pagemap, 128, address // 4096 * 8))
        return [w >> 63 for w in words[2:]]
    except Exception:
        return None


def read_bits_by_faults(path, block):
    """Touch each page: one not cached costs a major fault (read from disk), which getrusage counts; no timing."""
    import resource
    try:
        address = _block(path, block)
        bits = []
        for i in range(14):
            before = resource.getrusage(resource.RUSAGE_SELF).ru_majflt
            _ct.string_at(address + (2 + i) * 4096, 1)
            bits.append(int(resource.getrusage(resource.RUSAGE_SELF).ru_majflt == before))
        return bits
    except Exception:
        return None


def read_bits_by_move_pages(path, block):
    """pagemap's present bit without pagemap: move_pages with no target nodes answers each page's node, or ENOENT
    for a page with no entry in the page table (fault-around mapped only the cached ones); no timing, and nothing
    the filter refuses."""
    try:
        address = _block(path, block)
        _ct.string_at(address, 1)
        pages, status = (_ct.c_void_p * 16)(*(address + i * 4096 for i in range(16))), (_ct.c_int * 16)()
        _C.syscall.restype = _ct.c_long
        if _C.syscall(_ct.c_long(279), _ct.c_int(0), _ct.c_ulong(16), pages, None, status, _ct.c_int(0)) != 0:
            return None
        return [int(s >= 0) for s in status[2:]]
    except Exception:
        return None


class _Iocb(_ct.Structure):
    _fields_ = [("data", _ct.c_uint64), ("key", _ct.c_uint32), ("rw_flags", _ct.c_int32), ("opcode", _ct.c_uint16),
                ("prio", _ct.c_int16), ("fildes", _ct.c_uint32), ("buf", _ct.c_uint64), ("nbytes", _ct.c_uint64),
                ("offset", _ct.c_int64), ("reserved2", _ct.c_uint64), ("flags", _ct.c_uint32),
                ("resfd", _ct.c_uint32)]


def read_bits_by_aio(path, block):
    """RWF_NOWAIT without preadv2: a Linux AIO read (io_setup, io_submit) with RWF_NOWAIT in aio_rw_flags fails
    with EAGAIN on a page not cached. Pages are read last first, so readahead set off by one not cached loads only
    pages already read; no timing, and nothing the filter refuses."""
    try:
        _C.syscall.restype = _ct.c_long
        context, event, buffer = _ct.c_ulong(0), (_ct.c_int64 * 4)(), _ct.create_string_buffer(1)
        if _C.syscall(_ct.c_long(206), _ct.c_uint(1), _ct.byref(context)) != 0:  # io_setup
            return None
        fd, bits = _os.open(path, _os.O_RDONLY), [0] * 14
        for i in reversed(range(14)):
            request = _ct.pointer(_Iocb(opcode=0, fildes=fd, buf=_ct.addressof(buffer), nbytes=1, rw_flags=8,
                                        offset=(block << 16) + (2 + i) * 4096))  # IOCB_CMD_PREAD, RWF_NOWAIT
            if _C.syscall(_ct.c_long(209), context, _ct.c_long(1), _ct.byref(request)) != 1:  # io_submit
                return None
            if _C.syscall(_ct.c_long(208), context, _ct.c_long(1), _ct.c_long(1), event, None) != 1:  # io_getevents
                return None
            bits[i] = int(event[2] == 1)
        return bits
    except Exception:
        return None
'''


def _uncached_block(path: str) -> int:
    """A 64 KiB block of ``path`` dropped from the page cache here (``POSIX_FADV_DONTNEED``, from the test's own
    process), with mincore's word that none of its pages is cached."""
    import random
    c = libc.load()
    c.mmap.restype, c.mmap.argtypes = ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                                                        ctypes.c_int, ctypes.c_long]
    c.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]
    c.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    fd = os.open(path, os.O_RDONLY)
    try:
        for _ in range(20):
            block = random.randrange(os.fstat(fd).st_size >> 16)
            os.posix_fadvise(fd, block << 16, 1 << 16, os.POSIX_FADV_DONTNEED)
            address, pages = c.mmap(None, 1 << 16, 1, 1, fd, block << 16), ctypes.create_string_buffer(16)
            assert c.mincore(address, 1 << 16, pages) == 0
            c.munmap(address, 1 << 16)
            if not any(v & 1 for v in pages.raw):
                return block
    finally:
        os.close(fd)
    pytest.fail(f"no block of {path} leaves the page cache")


@root_only
@pytest.mark.parametrize("reader", ["read_bits", "read_bits_by_faults"])
@pytest.mark.parametrize("cap", ["L2", "L1"])
def test_no_bit_passes_through_the_page_cache_without_timing(cap, reader, toy_root, tmp_path):
    """Found by an attack: the filter refused mincore, fadvise, readahead and RWF_NOWAIT
    reads, but a worker still read exactly, without timing, which pages of a file are cached: fault-around maps the
    cached pages of a 64 KiB block when one of its pages is touched, and /proc/self/pagemap says which were mapped.
    A writer touches 14 pages of an uncached block of libpython3*.a chosen here; a reader graded after it by the
    same warm process answers wrongly when it reads those 14 bits back: through pagemap (``read_bits``), or by the
    major faults getrusage counts when it touches each page (``read_bits_by_faults``), so hiding pagemap alone
    would not close it."""
    _writer_then_reader(cap, reader, toy_root, tmp_path)


@root_only
@pytest.mark.parametrize("reader", ["read_bits_by_move_pages", "read_bits_by_aio"])
@pytest.mark.parametrize("cap", ["L2", "L1"])
def test_no_bit_passes_through_other_exact_readers(cap, reader, toy_root, tmp_path):
    """Found by an attack: with getrusage refused and pagemap out of reach, the same writer's 14 bits are still read
    back exactly, without timing: by move_pages with no target nodes, which answers ENOENT for a page with no entry in
    the page table (the present bit of pagemap, through a call the filter allows), or by a Linux AIO read with
    RWF_NOWAIT (io_submit: the flag the filter refuses in preadv2's arguments, in a structure in memory where no
    filter can see it)."""
    _writer_then_reader(cap, reader, toy_root, tmp_path)


def _writer_then_reader(cap: str, reader: str, toy_root: Path, tmp_path: Path) -> None:
    """Grade a writer and then a reader (``reader``, a function of :data:`FAULT_AROUND`) in one class at ``cap``
    with one job slot; both must be accepted (the reader is not when it reads the writer's bits back)."""
    import glob
    import random
    if cap == "L2" and probe.confinement().bwrap is None:
        pytest.skip(f"this machine gives {probe.confinement().describe()}")
    files = glob.glob(os.path.join(sys.base_prefix, "lib", "python3*", "config-*", "libpython3*.a"))
    if not files:
        pytest.skip("no libpython3*.a beside the interpreter")
    path, bits = os.path.realpath(files[0]), [random.randint(0, 1) for _ in range(14)]
    bits[0] = 1
    block = _uncached_block(path)
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "1-writer.py").write_text(f"{REFERENCE_SOURCE}\n{FAULT_AROUND}\nwrite_bits({path!r}, {block}, {bits})\n")
    (folder / "2-reader.py").write_text(f"""{REFERENCE_SOURCE}\n{FAULT_AROUND}
if {reader}({path!r}, {block}) == {bits}:
    class Solution(Solution):
        def compute_activation_stats(self, model, x):
            return []
""")
    env = {**judge_env(toy_root), "JUDGE_MAX_LEVEL": cap}
    graded = subprocess.run([sys.executable, "-m", "judge", "grade", SLUG, str(folder), "--out", str(tmp_path / "out"),
                             "--jobs", "1"], capture_output=True, text=True, env=env, timeout=900)
    assert graded.returncode == 0, graded.stdout[-2000:] + graded.stderr[-2000:]
    reports = {p.parent.name: json.loads(p.read_text()) for p in (tmp_path / "out" / "students").glob("*/results.json")}
    assert all(r["judge"]["security_level"].startswith(cap) for r in reports.values())
    assert {name: r["verdict"] for name, r in reports.items()} == {"1-writer": "accepted", "2-reader": "accepted"}
