"""A value as one word to paste into a shell; a path under the home as `~/…`, the `~/` outside
the quotes so the shell expands it (`~/'my agent'`, never `'~/my agent'`)."""

from __future__ import annotations

import os
import shlex
from pathlib import Path


def shell_word(value: object, home: str | None = None) -> str:
    """`value` quoted for a POSIX shell; a Path under `home` (default $HOME) as `~/…`."""
    text = str(value)
    home = (os.environ.get("HOME", "") if home is None else home).rstrip("/")
    if isinstance(value, Path) and home and text.startswith(home + "/"):
        return "~/" + shlex.quote(text[len(home) + 1 :])
    return shlex.quote(text)
