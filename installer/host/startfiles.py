"""The files a start of pi makes for itself in its agent dir, taken back after ext's own start.

`ext doctor --deep` starts `pi -p x --offline` on the agent dir (installer.host.pi
`offline_load_check`). That start makes `auth.json` (0.73 and 1.x: `AuthStorage.create()` in
`dist/main.js`) and, on 1.x, `models-store.json` (`ModelRuntime.create` in
`dist/core/model-runtime.js`): both through `FileAuthStorageBackend.ensureFileExists`
(`dist/core/auth-storage.js`), which writes `{}` where there is no file. Nothing moves them
but the agent dir itself (`getAuthPath` in `dist/config.js` joins `getAgentDir()`; the models
store sits beside `models.json`), and the check is of that very dir. So ext notes which of
them are absent before the start and, after it, removes each that pi made and left holding
only its empty record, under pi's own lock (proper-lockfile's `<file>.lock` folder). A file
that was there before, or holds anything else, or is locked by a pi at work, stays.

One list for both pis: a name a pi never makes is simply never new.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

START_FILES = ("auth.json", "models-store.json")
_EMPTY = b"{}"


def absent(agent_dir: Path) -> tuple[str, ...]:
    """pi's start files that are not in `agent_dir` now (a dangling link counts as there)."""
    return tuple(name for name in START_FILES if not os.path.lexists(agent_dir / name))


def take_back(agent_dir: Path, names: tuple[str, ...]) -> None:
    """Remove each of `names` that a start made since and left as pi's empty record."""
    for name in names:
        _remove_empty(agent_dir / name)


def _remove_empty(path: Path) -> None:
    lock = Path(os.path.realpath(path) + ".lock")  # where pi's lockfile.lock(path) puts it
    try:
        lock.mkdir()
    except OSError:  # held (a pi writing it right now), or the dir is not ours to write
        return
    try:
        if _only_empty_record(path):
            path.unlink()
    except OSError:
        pass
    finally:
        lock.rmdir()


def _only_empty_record(path: Path) -> bool:
    """Whether path is a regular file (not a link) holding `{}` and nothing else of note."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return False
        return f.read(64).strip() == _EMPTY
