"""The build's fork pool (racbench/export/pool.py) when a worker is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# One worker runs a slow job; the other waits for its next job, holding the job queue's
# read lock as an idle Pool worker does, and is killed there (kill -9, the OOM killer).
IDLE_KILLED = textwrap.dedent("""
    import os, signal, sys, time
    from pathlib import Path
    from racbench.errors import WorkerDied
    from racbench.export.pool import worker_pool

    MARK = Path(sys.argv[1])

    def slow(seconds):
        MARK.write_text(str(os.getpid()))
        time.sleep(seconds)
        return seconds

    with worker_pool(2) as pool:
        results = pool.imap(slow, [3])
        while not MARK.exists() or not MARK.read_text():
            time.sleep(0.05)
        busy = int(MARK.read_text())
        time.sleep(0.3)  # the idle one is back waiting for a job
        idle = next(p.pid for p in pool.pool._pool if p.pid != busy)
        os.kill(idle, signal.SIGKILL)
        try:
            next(results)
        except WorkerDied as exc:
            print("died:", exc, flush=True)
    print("pool closed", flush=True)
    import threading
    print("threads", threading.active_count(), flush=True)
""")


# A worker killed while it sends its result: it holds the result queue's write lock and
# has written part of the message (as `send_bytes` writes it: its length, then bytes).
SENDING_KILLED = textwrap.dedent("""
    import gc, multiprocessing.pool, os, struct, sys
    from racbench.errors import WorkerDied
    from racbench.export.pool import worker_pool

    def half_sent(_):
        pool = next(o for o in gc.get_objects() if isinstance(o, multiprocessing.pool.Pool))
        results = pool._outqueue  # the result queue, as this worker writes to it
        results._wlock.acquire()
        results._writer._send(struct.pack("!i", 1 << 20) + b"x" * 10)
        os.kill(os.getpid(), 9)

    with worker_pool(2) as pool:
        try:
            list(pool.imap(half_sent, [0]))
        except WorkerDied as exc:
            print("died:", exc, flush=True)
    print("pool closed", flush=True)
    import threading
    print("threads", threading.active_count(), flush=True)
""")


@pytest.mark.parametrize("script", [IDLE_KILLED, SENDING_KILLED], ids=["idle", "sending"])
def test_a_worker_killed_stops_the_pool_without_hanging(script, tmp_path):
    """What a killed worker leaves in the pool's queues stops neither the pool's close
    nor the process's exit, after the WorkerDied the build stops with: Pool.terminate
    first takes the job queue's read lock, which an idle worker holds while it waits,
    and joins the result thread, which waits for the rest of a result half sent."""
    proc = subprocess.Popen([sys.executable, "-c", script, str(tmp_path / "busy")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # its workers too
        proc.communicate()
        raise AssertionError("the pool's close waited for ever after a worker was killed")
    done = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    assert done.returncode == 0, done.stderr
    assert "died: a worker process" in done.stdout and "SIGKILL" in done.stdout
    assert done.stdout.strip().endswith("pool closed\nthreads 1")  # none left waiting


def _failing(x):
    if x == 3:
        raise ValueError("job 3 failed")
    return x


def test_a_pool_left_by_an_error_leaves_no_thread_or_pipe_behind():
    """Every pool left by an exception (a job's error, Ctrl-C, a refusal) is abandoned,
    not terminated: its task and result threads must still end and its pipes close, or
    a long-lived process (a notebook, a service) building again after each error keeps
    a thread and ten file descriptors per build."""
    import gc
    import threading

    from racbench.export.pool import worker_pool

    def fds() -> int:
        return len(os.listdir("/proc/self/fd"))

    def abandoned() -> None:
        try:
            with worker_pool(2) as pool:
                list(pool.imap_unordered(_failing, range(40)))
        except ValueError:
            return
        raise AssertionError("the job's error was not raised")

    abandoned()  # the first also makes the shared-memory arena the marks live in
    gc.collect()
    threads, open_fds = threading.active_count(), fds()
    for _ in range(5):
        abandoned()
    gc.collect()
    assert (threading.active_count(), fds()) == (threads, open_fds)


# Ctrl-C (a process-directed SIGINT) comes while SIGINT is held, with another thread
# alive that does not block it, as tqdm's monitor thread is during a build's progress bars.
HELD_WITH_A_THREAD = textwrap.dedent("""
    import os, signal, threading, time
    from racbench.export.interrupts import interrupts_held

    # Python's own handler, as the CLI's build sets it: a process started in the
    # background by a non-interactive shell (CI, newcomer-check) inherits SIGINT ignored
    signal.signal(signal.SIGINT, signal.default_int_handler)
    threading.Thread(target=time.sleep, args=(5,), daemon=True).start()
    where = "before the block"
    try:
        with interrupts_held():
            where = "inside the block"
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.2)
            where = "after the block"
        time.sleep(0.2)
        print("no KeyboardInterrupt")
    except KeyboardInterrupt:
        print("KeyboardInterrupt", where)
""")


def test_ctrl_c_held_back_lands_after_the_block_though_other_threads_run():
    """interrupts_held (around Pool() and matplotlib's first import) must hold Ctrl-C
    even while another thread runs: blocking SIGINT in the main thread alone lets the
    kernel hand it to that thread, and Python then raises KeyboardInterrupt in the main
    thread inside the block all the same."""
    done = subprocess.run([sys.executable, "-c", HELD_WITH_A_THREAD], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert done.stdout.strip() == "KeyboardInterrupt after the block", done
