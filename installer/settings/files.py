"""settings.json as a file, asked of its stat alone: whether pi (or ext) could read it and go
on. Light on purpose: `ext launch` asks it before exec-ing pi."""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_BYTES = 10 * 1024 * 1024  # a settings file is a few kilobytes; past this, a read refuses


def unreadable(path: Path) -> str | None:
    """Why pi could not read this settings file and go on (a FIFO it would wait on forever,
    /dev/zero it would read until its memory ran out, a file over the cap); None for a
    regular file, or none."""
    try:
        info = os.stat(path)
    except OSError:
        return None  # missing, or a dangling link: pi reads it as no settings
    if not stat.S_ISREG(info.st_mode):
        return f"{path} is not a regular file: pi would wait on it, or read it without end"
    if info.st_size > MAX_BYTES:
        return f"{path} is larger than {MAX_BYTES // (1024 * 1024)} MiB"
    return None


def pi_would_hang(agent_dir: Path | None, cwd: Path | None) -> tuple[Path, str] | None:
    """The first settings.json pi reads at start (the agent dir's, then the project's at cwd)
    that it could not read and go on, with why; None when both are fine."""
    for folder in (agent_dir, cwd / ".pi" if cwd is not None else None):
        path = folder / "settings.json" if folder is not None else None
        why = unreadable(path) if path is not None else None
        if path is not None and why is not None:
            return path, why
    return None
