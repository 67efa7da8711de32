"""installer.cli.entry.leave: the everyday commands skip the interpreter's teardown, but only when
nothing is lost by it: output flushed first, and never past an atexit callback or a live thread.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from installer.cli import entry
from tests.helpers import run_readerless

COUNT_THREADS = threading.active_count


class Exited(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


@pytest.fixture
def exits(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """os._exit, recorded and turned into an exception so the test process lives on.

    pytest loads the atexit module (logging does), and a test elsewhere may leave a daemon
    thread behind: each test here starts from neither.
    """
    calls: list[int] = []
    monkeypatch.delitem(sys.modules, "atexit", raising=False)
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


def test_with_the_atexit_module_loaded_it_gets_the_usual_exit(
    monkeypatch: pytest.MonkeyPatch, exits: list[int]
) -> None:
    monkeypatch.setitem(sys.modules, "atexit", sys)  # loaded, as far as leave can tell
    with pytest.raises(SystemExit) as done:
        entry.leave(SystemExit(2))
    assert done.value.code == 2
    assert exits == []


# CPython's count of atexit callbacks: read here, never by ext (it is not a public name).
COUNT = "import atexit; n = getattr(atexit, '_ncallbacks', lambda: 0)()"


@pytest.mark.parametrize("args", [["--version"], ["env"], ["list"], ["install", "--yes"]])
def test_the_everyday_commands_leave_no_atexit_callback(tmp_path: Path, args: list[str]) -> None:
    """What leave's shortcut rests on: a callback is registered only with the atexit module
    loaded (the first run on a new tested range loads nodesemver, and it logging), and the
    run after it loads it nowhere, so it takes the shortcut."""
    code = (
        f"import sys; sys.argv = {['ext', *args]!r}\n"
        "from installer.cli import entry\n"
        "def leave(done):\n"
        "    seen = 'atexit' in sys.modules\n"  # before COUNT imports it
        f"    {COUNT}\n"
        "    sys.stderr.write(f'callbacks={n} at_exit_module={seen}\\n'); raise done\n"
        "entry.leave = leave\n"
        "entry.main()\n"
    )
    said = []
    for _ in range(2):
        proc = subprocess.run(
            [sys.executable, "-c", code],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        said.append(proc.stderr.splitlines()[-1])
    first, second = said
    assert first in ("callbacks=0 at_exit_module=False", "callbacks=1 at_exit_module=True")
    assert second == "callbacks=0 at_exit_module=False"


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


def test_a_flush_into_a_pipe_whose_reader_left_exits_with_the_code_and_says_nothing() -> None:
    """`ext --version | head -c0`: the flush fails, and was then the interpreter's to report
    (`Exception ignored … BrokenPipeError`, exit 120); the stream is let go instead."""
    code = (
        "import sys\n"
        "from installer.cli.entry import leave\n"
        "sys.stdout.write('x' * 100)\n"
        "leave(SystemExit(4))\n"
    )
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    argv = [sys.executable, "-c", code]
    assert run_readerless(argv, buffered) == (4, "")


def test_a_real_process_delivers_all_its_output_and_its_code() -> None:
    """Piped output is block-buffered: a skipped flush would lose the tail of it."""
    code = (
        "import sys\n"
        "from installer.cli.entry import leave\n"
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
        "from installer.cli.entry import leave\n"
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


def test_a_callback_any_module_registers_still_runs(tmp_path: Path) -> None:
    """No list of modules to keep in sync: whatever registers a callback (here a module ext
    has never heard of) gets the usual exit, and its callback runs."""
    (tmp_path / "newcomer.py").write_text(
        "import atexit, sys\natexit.register(lambda: sys.stdout.write('callback ran\\n'))\n"
    )
    code = "import newcomer\nfrom installer.cli.entry import leave\nleave(SystemExit(5))\n"
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (proc.returncode, proc.stdout) == (5, "callback ran\n"), proc.stderr


@pytest.mark.parametrize(("argv", "collects"), [(["env"], False), (["toggle"], True)])
def test_only_the_everyday_commands_run_without_the_collector(
    monkeypatch: pytest.MonkeyPatch, argv: list[str], collects: bool
) -> None:
    """The hand-parsed commands are short: no collector passes (installer.cli.entry). Any
    other command line goes to click with it on: a picker may stay open for minutes."""
    import gc

    from installer.cli import app, calls

    seen: list[bool] = []
    monkeypatch.setattr(sys, "argv", ["ext", *argv])
    monkeypatch.setattr(calls, "call", lambda *a: seen.append(gc.isenabled()))
    monkeypatch.setattr(app, "main", lambda: seen.append(gc.isenabled()))
    monkeypatch.setenv("EXT_NO_REPLAY", "1")
    try:
        entry.main()
    finally:
        gc.enable()
    assert seen == [collects]


def test_an_unencodable_run_mixing_raw_bytes_and_characters_writes_each_as_its_own() -> None:
    """A review: a path's undecodable byte next to a character the locale has no code for
    came out as a literal `\\udcff`; each run is written as its kind is."""
    import codecs

    codecs.register_error("extset-test", entry._unencodable)
    assert "é\udcffx".encode("ascii", "extset-test") == b"\\xe9\xffx"
    assert "a\udcff\udcfeé日".encode("ascii", "extset-test") == b"a\xff\xfe\\xe9\\u65e5"
