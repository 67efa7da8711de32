"""The console script: the everyday commands straight to their handlers, the rest to typer."""

from __future__ import annotations

import atexit
import os
import sys
from typing import NoReturn


def main() -> None:
    """`ext`: hand-parsed when argv is an everyday command's plain form (see installer.argv)."""
    from installer.argv import parse

    call = parse(sys.argv[1:])
    if call is None:
        from installer.cli import main as parse_with_typer

        parse_with_typer()
        return
    from installer import handlers
    from installer.runner import G

    for key, value in call.globals.items():
        setattr(G, key, value)
    try:
        if call.command == "--version":
            handlers.version(**call.args)
        elif call.command == "list":
            handlers.list_items()
        else:
            getattr(handlers, call.command)(**call.args)
    except SystemExit as done:
        leave(done)


def leave(done: SystemExit) -> NoReturn:
    """Exit with done's code, skipping the interpreter's teardown when nothing needs it.

    Tearing down the modules and objects of a run costs 13-15 ms here, a tenth of a no-op
    install of 1,000 links, to free memory the OS frees anyway. Every file ext writes is
    closed (and fsynced) before its command returns, and the lock goes with the process; what
    teardown would still do is flush stdout and stderr (done here) and run atexit callbacks
    and join threads: with either about, or a failed flush, Python exits the usual way (as it
    does where the count of atexit callbacks, a CPython detail, cannot be read).
    """
    code = done.code
    callbacks = getattr(atexit, "_ncallbacks", None)
    threads = sys.modules.get("threading")
    if (
        not isinstance(code, int)
        or callbacks is None
        or callbacks()
        or (threads is not None and threads.active_count() > 1)
    ):
        raise done
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:  # None: started with that descriptor closed
                stream.flush()
    except (OSError, ValueError):  # a closed pipe, say: the usual exit reports it as before
        raise done from None
    os._exit(code)


if __name__ == "__main__":
    main()
