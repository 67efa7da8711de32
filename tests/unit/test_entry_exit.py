"""installer.entry.leave: the everyday commands skip the interpreter's teardown, but only when
nothing is lost by it: output flushed first, and never past an atexit callback or a live thread.
"""

from __future__ import annotations

import atexit
import io
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest

from installer import entry

COUNT_CALLBACKS = atexit._ncallbacks
COUNT_THREADS = threading.active_count


class Exited(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


class Unflushable(io.StringIO):
    def flush(self) -> None:
        raise BrokenPipeError


@pytest.fixture
def exits(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """os._exit, recorded and turned into an exception so the test process lives on.

    pytest registers atexit callbacks of its own, and a test elsewhere may leave a daemon thread
    behind: each test here starts from no callback and no other thread.
    """
    calls: list[int] = []
    monkeypatch.setattr(atexit, "_ncallbacks", lambda: 0)
    monkeypatch.setattr(threading, "active_count", lambda: 1)

    def fake_exit(code: int) -> None:
        calls.append(code)
        raise Exited(code)

    monkeypatch.setattr(entry.os, "_exit", fake_exit)
    yield calls


def test_leaves_at_once_with_the_code(exits: list[int]) -> None:
    with pytest.raises(Exited):
        entry.leave(SystemExit(3))
    assert exits == [3]


def test_without_a_count_of_atexit_callbacks_it_exits_the_usual_way(
    monkeypatch: pytest.MonkeyPatch, exits: list[int]
) -> None:
    monkeypatch.delattr(atexit, "_ncallbacks")  # another Python than CPython, say
    with pytest.raises(SystemExit) as done:
        entry.leave(SystemExit(0))
    assert done.value.code == 0
    assert exits == []


def test_an_atexit_callback_gets_the_usual_exit(
    monkeypatch: pytest.MonkeyPatch, exits: list[int]
) -> None:
    def callback() -> None:
        pass

    monkeypatch.setattr(atexit, "_ncallbacks", COUNT_CALLBACKS)  # the real count
    atexit.register(callback)
    try:
        with pytest.raises(SystemExit) as done:
            entry.leave(SystemExit(2))
    finally:
        atexit.unregister(callback)
    assert done.value.code == 2
    assert exits == []


def test_a_live_thread_gets_the_usual_exit(
    monkeypatch: pytest.MonkeyPatch, exits: list[int]
) -> None:
    monkeypatch.setattr(threading, "active_count", COUNT_THREADS)
    release = threading.Event()
    worker = threading.Thread(target=release.wait)
    worker.start()
    try:
        with pytest.raises(SystemExit) as done:
            entry.leave(SystemExit(0))
    finally:
        release.set()
        worker.join()
    assert done.value.code == 0
    assert exits == []


@pytest.mark.parametrize("code", [None, "a message"])
def test_a_code_that_is_not_a_number_gets_the_usual_exit(
    exits: list[int], code: str | None
) -> None:
    with pytest.raises(SystemExit) as done:
        entry.leave(SystemExit(code))
    assert done.value.code == code
    assert exits == []


def test_a_failed_flush_gets_the_usual_exit(
    monkeypatch: pytest.MonkeyPatch, exits: list[int]
) -> None:
    monkeypatch.setattr(sys, "stdout", Unflushable())
    with pytest.raises(SystemExit) as done:
        entry.leave(SystemExit(0))
    assert done.value.code == 0
    assert exits == []


def test_a_real_process_delivers_all_its_output_and_its_code() -> None:
    """Piped output is block-buffered: a skipped flush would lose the tail of it."""
    code = (
        "import sys\n"
        "from installer.entry import leave\n"
        "sys.stdout.write('x' * 100_000 + '\\nend\\n')\n"
        "sys.stderr.write('said\\n')\n"
        "leave(SystemExit(4))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 4
    assert proc.stdout.endswith("x\nend\n") and len(proc.stdout) == 100_005
    assert proc.stderr == "said\n"


def test_a_process_started_with_stderr_closed_still_exits_0() -> None:
    """Python leaves sys.stderr None then: there is nothing to flush, and no failure."""
    code = (
        "import sys\n"
        "from installer.entry import leave\n"
        "sys.stdout.write('out\\n')\n"
        "leave(SystemExit(0))\n"
    )
    proc = subprocess.run(
        ["sh", "-c", 'exec "$0" -c "$1" 2>&-', sys.executable, code],
        stdout=subprocess.PIPE,
        text=True,
        timeout=60,
        check=False,
    )
    assert (proc.returncode, proc.stdout) == (0, "out\n")
