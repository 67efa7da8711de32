"""stdout and stderr when their reader is gone (`ext list | head -1`, `2>&1 | head -c0`): the
command runs to the end all the same, what is left to write goes nowhere, and the interpreter's
own last flush must not meet the closed pipe again (exit 120). One place for the rule, the
words, and the letting go, for the Output, a replay and the exit."""

from __future__ import annotations

import errno
import os

# What a run whose stdout's reader left says on stderr.
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
