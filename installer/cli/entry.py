"""The console script: the everyday commands straight to their calls, the rest to click."""

from __future__ import annotations

import gc
import os
import sys

TYPE_CHECKING = False  # typing (and re, which it loads) is a third of a replay: mypy reads True
if TYPE_CHECKING:
    from typing import NoReturn


def main() -> None:
    """`ext`: replayed when it is a read-only run recorded before with nothing changed since
    (installer.ground.replay); else hand-parsed when argv is an everyday command's plain form
    (installer.cli.fast); else parsed by click."""
    # No cyclic garbage collector on the everyday commands: they run for a fraction of a second
    # and make few cycles, and its passes over every object the imports made were 3 ms of a
    # fresh install of 1,000 links. Everything else (a picker stays open) runs with it.
    gc.disable()
    _open_closed_standard_fds()
    _write_what_the_locale_cannot_encode()
    from installer.ground.replay import CALLS, replay

    argv = sys.argv[1:]
    recorder = replay(argv)  # no return on a replay (but one stdout could not take)
    from installer.ground import modes

    modes.cap()
    from installer.cli.fast import parse

    call = parse(argv)
    if recorder is not None and (call is None or call.call not in CALLS):
        recorder.drop()
    if call is None:
        gc.enable()
        from installer.cli.app import main as parse_with_click

        try:
            parse_with_click()
        finally:
            _let_closed_streams_go()
        return
    from installer.cli import calls

    try:
        calls.call(call.call, call.globals, call.args)
    except SystemExit as done:
        if recorder is not None:
            recorder.finish(done.code)
        leave(done)
    finally:
        if recorder is not None:
            recorder.drop()  # an exception: nothing recorded, os and sys as they were


def _open_closed_standard_fds() -> None:
    """Start with stdin, stdout and stderr open, on /dev/null where one was closed (`ext
    install >&-`): Python leaves sys.stdout None then, which ext would trip on, and the first
    file ext opened would take the free number, so a child (pi, npm) given it as its stdout
    would write into that file."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)  # the lowest free number: this one
            os.set_inheritable(null, True)
            if null != fd:  # cannot be, unless a lower one was closed meanwhile
                os.dup2(null, fd)
                os.close(null)
    for name, fd in (("stdin", 0), ("stdout", 1), ("stderr", 2)):
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, "r" if fd == 0 else "w", closefd=False))  # noqa: SIM115


def _write_what_the_locale_cannot_encode() -> None:
    """stdout and stderr write a path's undecodable bytes back as they were, and a character
    the locale has no code for as an escape (`\\xeb`), rather than fail the run (a strict
    stdout under a Latin-1 or ASCII locale) or drop the rest of its output."""
    import codecs
    import io

    codecs.register_error("extset", _unencodable)
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="extset")


def _unencodable(error: UnicodeError) -> tuple[str | bytes, int]:
    """The run at the error's start of one kind: a path's undecodable bytes as those bytes,
    else characters as escapes; the codec calls again for what follows."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end]
    raw = [ord(c) - 0xDC00 for c in text]
    if 0x80 <= raw[0] <= 0xFF:  # surrogateescape's: a byte a path could not decode
        n = next((i for i, b in enumerate(raw) if not 0x80 <= b <= 0xFF), len(raw))
        return bytes(raw[:n]), error.start + n
    n = next((i for i, b in enumerate(raw) if 0x80 <= b <= 0xFF), len(raw))
    return text[:n].encode("ascii", "backslashreplace").decode("ascii"), error.start + n


def _let_closed_streams_go() -> None:
    """stdout's and stderr's last flush (`ext --version | head -c0`): a reader that is gone is
    no error, and the interpreter's own flush at exit must not meet it again (exit 120)."""
    from installer.ground.streams import let_go, reader_gone

    for fd, stream in ((1, sys.stdout), (2, sys.stderr)):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError) as err:
            if not reader_gone(err):
                raise  # a full disk, say: the output was lost, and the exit says so (120)
            let_go(fd)


def leave(done: SystemExit) -> NoReturn:
    """Exit with done's code, skipping the interpreter's teardown when nothing needs it.

    Tearing down the modules and objects of a run costs 13-15 ms here, a tenth of a no-op
    install of 1,000 links, to free memory the OS frees anyway. Every file ext writes is
    closed (and fsynced) before its command returns, and the lock goes with the process; what
    teardown would still do is flush stdout and stderr (done here: a stream whose reader is
    gone is let go), run atexit callbacks and join threads: with the atexit module loaded or
    a thread alive, Python exits the usual way.

    No list of modules to keep in sync: a callback can only be registered through the atexit
    module (logging's, tempfile's through weakref.finalize, coverage's), and a module is in
    sys.modules once anything imports it. The everyday commands import it nowhere:
    tests/unit/test_entry_exit.py checks each of them in its own process.
    """
    code = done.code
    threads = sys.modules.get("threading")
    if (
        not isinstance(code, int)
        or "atexit" in sys.modules
        or (threads is not None and threads.active_count() > 1)
    ):
        _let_closed_streams_go()
        raise done
    _let_closed_streams_go()
    os._exit(code)


if __name__ == "__main__":
    main()
