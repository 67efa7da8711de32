"""stdout and stderr when their reader is gone (`ext list | head -1`, `2>&1 | head -c0`): the
command runs to the end all the same, what is left to write goes nowhere, and the interpreter's
own last flush must not meet the closed pipe again (exit 120). One place for the rule, the
words, and the letting go, for the Output, a replay and the exit."""

from __future__ import annotations

import errno
import os

# What a run that may write says on stderr when its stdout's reader left (a read-only one says
# nothing: its reader had read enough, as with `ls | head`).
STDOUT_GONE = (
    "note: stdout was closed before ext finished writing to it; the command ran to the end "
    "all the same (exit {code})"
)


def reader_gone(err: OSError | ValueError) -> bool:
    """Whether a failed write means the stream's reader is gone (a closed pipe, a closed
    file), not text the stream cannot encode nor a full disk."""
    if isinstance(err, OSError):
        return err.errno == errno.EPIPE
    return not isinstance(err, UnicodeError)


def let_go(fd: int) -> None:
    """Point fd at /dev/null: whatever is still written to it (the interpreter's last flush
    included) goes nowhere."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)


def write_stdout(text: str) -> None:
    """Write text to sys.stdout straight (no Output yet: `ext --version`); a reader that is
    gone lets fd 1 go and stops nothing, whether stdout is buffered (the exit's flush meets
    it) or not (this write does: PYTHONUNBUFFERED)."""
    import sys

    try:
        sys.stdout.write(text)
    except (OSError, ValueError) as err:
        if not reader_gone(err):
            raise
        let_go(1)
