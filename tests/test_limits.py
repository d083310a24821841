"""The resource limits' mechanisms one by one: cgroups, private mounts, the memfd refusal, the disk measure.

The hostile submissions in ``tests/adversarial/`` (memfd, tmpfs and shared-mapping hoards, a thread bomb, disk
fillers) prove them end to end, at every level, through ``judge submit`` and ``judge grade``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from judge.worker import cgroup, confinement, launch, mounts, probe, procfs
from tests.support.cli import REPO

needs_cgroup = pytest.mark.skipif(isinstance(cgroup.available(), str), reason="no cgroup here")
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="private mounts need root")


def _python(code: str, preexec=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          cwd=REPO, preexec_fn=preexec, timeout=60)


@pytest.mark.parametrize("filtered, expected", [(True, "refused"), (False, "allowed")])
@pytest.mark.parametrize("call", ["os.pipe()", "os.memfd_create('x')"])
def test_the_filter_refuses_what_draws_an_inode_number_from_a_machine_wide_counter(call, filtered, expected):
    """Pipes and memfd files are numbered by counters every worker shares (an attack read a pipe's inode
    number back in the next worker); ``False`` shows each call works where no filter is loaded."""
    result = _python(f"""
        import os
        from judge.worker import seccomp
        if {filtered}:
            seccomp.install()
        try:
            {call}
            print("allowed")
        except PermissionError:
            print("refused")
    """)
    assert result.stdout.strip() == expected, result.stderr


@pytest.mark.parametrize("filtered, expected", [(True, "refused"), (False, "reached the kernel")])
def test_the_filter_refuses_a_thread_with_a_pidfd(filtered, expected):
    """A pidfd's inode number counts every task the machine has made (Linux 6.9+): a thread started with
    ``CLONE_PIDFD`` would read it. The flags lack ``CLONE_SIGHAND``, so a kernel that is reached refuses them with
    ``EINVAL`` and no thread starts; the filter answers ``EPERM`` first."""
    result = _python(f"""
        import ctypes, errno
        from judge.worker import seccomp
        if {filtered}:
            seccomp.install()
        libc = ctypes.CDLL(None, use_errno=True)
        flags = seccomp.CLONE_THREAD | seccomp.CLONE_PIDFD | 0x100  # CLONE_VM
        fd = ctypes.c_int(-1)
        number = seccomp._library().seccomp_syscall_resolve_name(b"clone")
        result = libc.syscall(number, flags, None, ctypes.byref(fd), None, None)
        print("refused" if result == -1 and ctypes.get_errno() == errno.EPERM else "reached the kernel")
    """)
    assert result.stdout.strip() == expected, result.stderr


@pytest.mark.parametrize("filtered", [True, False])
def test_the_filter_refuses_every_way_to_a_mounts_unique_id(filtered):
    """One counter numbers every mount the machine makes, the judge's own for each worker among them (an attack moved
    it in one worker and read it back in the next): ``statx`` with ``STATX_MNT_ID_UNIQUE`` and ``listmount`` read it.
    Without the filter each call reaches the kernel (``listmount``'s empty request is ``EINVAL`` or ``EFAULT`` there,
    never ``EPERM``); plain ``statx`` works either way."""
    result = _python(f"""
        import ctypes, errno, os
        from judge.worker import seccomp
        if {filtered}:
            seccomp.install()
        libc = ctypes.CDLL(None, use_errno=True)
        statx = seccomp._library().seccomp_syscall_resolve_name(b"statx")
        buffer = ctypes.create_string_buffer(256)
        def call(number, *args):
            return "refused" if libc.syscall(number, *args) == -1 and ctypes.get_errno() == errno.EPERM else "reached"
        print(call(statx, -100, b".", 0, 0x7FF, buffer), call(statx, -100, b".", 0, seccomp.STATX_MNT_ID_UNIQUE, buffer),
              call(seccomp.BY_NUMBER["listmount"], None, None, 0, 0))
    """)
    assert result.stdout.split() == ["reached", "refused" if filtered else "reached", "refused" if filtered else "reached"], \
        result.stderr


@needs_cgroup
def test_a_cgroup_counts_memfd_pages_and_the_oom_kill_and_is_removed():
    group = cgroup.create(128 << 20, 16)
    assert group is not None
    try:
        result = _python("""
            import os
            fds = [os.memfd_create(str(i)) for i in range(40)]
            for fd in fds:
                os.write(fd, b"m" * (8 << 20))
            print("survived")
        """, preexec=lambda: group.join(os.getpid()))
        assert result.returncode == -9 and "survived" not in result.stdout
        assert group.oom_kills() >= 1 and group.peak_bytes() >= 100 << 20
        assert group.cpu_s() > 0
    finally:
        group.remove()
    assert not any(d.exists() for d in group.dirs.values())


@needs_cgroup
def test_a_cgroup_refuses_threads_above_its_task_limit():
    group = cgroup.create(512 << 20, 20)
    try:
        result = _python("""
            import threading, time
            threading.stack_size(64 << 10)
            started = 0
            try:
                for _ in range(100):
                    threading.Thread(target=time.sleep, args=(5,), daemon=True).start()
                    started += 1
            except RuntimeError:
                pass
            print(started)
        """, preexec=lambda: group.join(os.getpid()))
        assert int(result.stdout) < 20, result.stderr
    finally:
        group.remove()


@needs_root
def test_private_mounts_leave_only_a_sized_scratch_tmpfs_writable(tmp_path):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (scratch / "solution.py").write_text("x = 1\n")
    outside = tmp_path / "outside"

    def confine() -> None:
        mounts.private_scratch(scratch, b"y = 2\n", 4 << 20, None)

    result = _python(f"""
        import os
        print(open("solution.py").read().strip())
        for path in ({str(outside)!r}, "/dev/shm/adv-canary-x", "/tmp/adv-canary-x"):
            try:
                open(path, "w")
                print("wrote", path)
            except OSError as exc:
                print("refused", exc.errno)
        try:
            with open("big", "wb") as f:
                f.write(b"b" * (8 << 20))
            print("wrote big")
        except OSError as exc:
            print("full", exc.errno)
    """, preexec=confine)
    lines = result.stdout.split("\n")
    assert lines[0] == "y = 2" and lines[1:4] == ["refused 30"] * 3 and lines[4] == "full 28", result.stdout
    assert (scratch / "solution.py").read_text() == "x = 1\n" and not outside.exists()


def test_written_bytes_walks_a_directory_and_reads_a_tmpfs_whole(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "f").write_bytes(b"x" * (1 << 20))
    assert procfs.written_bytes(os.getpid(), (str(tmp_path),), 0) >= 1 << 20
    assert procfs.written_bytes(os.getpid(), (str(tmp_path),), 1 << 20) == 0  # a large file system: not the worker's


def test_every_worker_limit_is_in_the_doctors_limits_line():
    found = probe.confinement()
    line = probe.limits_summary(found)
    assert f"{confinement.PROCESS_LIMIT} threads" in line and f"{confinement.DISK_QUOTA >> 20} MiB written" in line
    assert ("cgroup" in line) == bool(found.cgroup)


def test_bubblewrap_mounts_dev_read_only_and_every_tmpfs_with_a_size(tmp_path):
    args = launch.bwrap_args("bwrap", tmp_path)
    assert args[args.index("--dev") + 2: args.index("--dev") + 4] == ["--remount-ro", "/dev"]
    assert all(args[i - 2] == "--size" for i, a in enumerate(args) if a == "--tmpfs")


@needs_cgroup
def test_the_groups_of_a_killed_judge_are_removed_by_the_next():
    dead = 2 ** 22 - 7  # far above any pid in use here
    left = cgroup.create(64 << 20, 8)
    mine = cgroup.create(64 << 20, 8)
    try:
        for directory in set(left.dirs.values()):
            directory.rename(directory.with_name(f"judge-{dead}-0"))
        removed = cgroup.remove_leftovers(lambda pid: pid != dead)
        assert removed and all(f"judge-{dead}-0" in path for path in removed)
        assert all(d.exists() for d in mine.dirs.values())
    finally:
        mine.remove()


def _late_then(*results):
    """A session whose calls end as ``results`` say, one after another, counting the workers it drops."""
    from judge.judging.session import Session

    session, ended = Session.__new__(Session), iter(results)
    session.ran, session.dropped = [], []
    session._call_once = lambda *args: session.ran.append(args) or next(ended)
    session._drop_worker = lambda: session.dropped.append(len(session.ran))
    return session


def test_a_call_just_over_its_cpu_limit_is_run_once_more_in_a_fresh_worker():
    """docs/judging.md: a call that finished just over its limit (a busy machine's noise) gets one more run, in a
    fresh worker, and the faster of the two counts; any other ending is final."""
    from judge.judging.limits import CaseLimits
    from judge.judging.session import CallResult
    from judge.judging.verdict import Verdict
    from judge.worker.runner import Ending

    limits = CaseLimits(1.0, 256 << 20)
    late = CallResult("m", Verdict.TIME_LIMIT_EXCEEDED, cpu_s=1.05, ending=Ending.LATE)
    within = CallResult("m", Verdict.ACCEPTED, cpu_s=0.7)
    session = _late_then(late, within)
    assert session.call(0, 0, limits, None) is within and session.dropped == [1] and len(session.ran) == 2
    slower = CallResult("m", Verdict.TIME_LIMIT_EXCEEDED, cpu_s=1.08, ending=Ending.LATE)
    session = _late_then(late, slower)
    assert session.call(0, 0, limits, None) is late and len(session.ran) == 2  # once more, not again and again
    for final in (within, CallResult("m", Verdict.TIME_LIMIT_EXCEEDED, cpu_s=2.0, ending=Ending.CPU)):
        session = _late_then(final)
        assert session.call(0, 0, limits, None) is final and session.dropped == [] and len(session.ran) == 1
