"""Earlier ext kept the approvals store in `<agent dir>/hooks/`; pi warns about that folder.

pi 0.73.1 warns at every start, and waits for a key in interactive mode, when the agent
dir holds a `hooks/` folder (`dist/migrations.js`, `checkDeprecatedExtensionDirs`). The
first `ext install` or consent command after an upgrade moves the store to
`.extset/consent/` (journaled: `ext undo` puts it back) and removes `hooks/` when nothing
but ext's files were in it.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from installer.consent.store import FILENAME, store_path

if TYPE_CHECKING:
    from installer.context import Context

LEGACY_FOLDER = "hooks"
# What ext itself ever put in `hooks/`: the store and its lock.
OURS = frozenset({FILENAME, f".{FILENAME}.lock"})


@dataclass(frozen=True)
class HooksFolder:
    """What `<agent>/hooks/` holds, as far as ext and pi's warning are concerned."""

    path: Path
    store: Path | None  # ext's old store, when it is there and safe to move
    others: tuple[str, ...]  # entries that are not ext's
    problem: str | None  # why the old store cannot be moved (a link, another owner, ...)


def legacy_store(agent_dir: Path) -> Path:
    """Where ext kept the approvals before they moved under `.extset/`."""
    return agent_dir / LEGACY_FOLDER / FILENAME


def inspect(agent_dir: Path) -> HooksFolder | None:
    """The agent's `hooks/` folder (None when there is none), read without following links."""
    folder = agent_dir / LEGACY_FOLDER
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        kind = "a symlink" if stat.S_ISLNK(info.st_mode) else "not a folder"
        behind = folder / FILENAME if os.path.lexists(folder / FILENAME) else None
        return HooksFolder(folder, behind, (), f"{folder} is {kind}")
    names = sorted(os.listdir(folder))
    others = tuple(n for n in names if n not in OURS)
    if FILENAME not in names:
        return HooksFolder(folder, None, others, None)
    return HooksFolder(folder, folder / FILENAME, others, _unsafe(folder, info))


def migrate(ctx: Context) -> list[str]:
    """Move the old store to `.extset/consent/`, journaled; what was done or left, as notes."""
    found = inspect(ctx.agent_dir)
    if found is None or found.store is None:
        return []
    new = store_path(ctx.agent_dir)
    if found.problem is not None:
        return [f"{found.problem}: the approvals in it were not moved to {new}, nor trusted."]
    if os.path.lexists(new):
        return [f"{found.store} was not moved: {new} exists already; pi warns while it is there."]
    text = found.store.read_text(encoding="utf-8")
    _move(ctx, found.store, bool(found.others), text)
    note = f"Moved the approvals store from {found.store} to {new} (`ext undo` moves it back)"
    if found.others:
        return [f"{note}; {found.path} holds other files, so it stays and pi still warns."]
    return [f"{note}, and removed {found.path}, which pi warned about at every start."]


def _move(ctx: Context, old: Path, keep_folder: bool, text: str) -> None:
    from installer.executor import execute
    from installer.plan import Plan
    from installer.transaction import Transaction

    new = store_path(ctx.agent_dir)

    def step(tx: Transaction) -> None:
        tx.mkdirs(str(new.parent.relative_to(ctx.agent_dir)))
        os.chmod(new.parent, 0o700)
        tx.restore_file(new, None, text)
        tx.restore_file(old, text, None)
        if not keep_folder:
            (old.parent / f".{FILENAME}.lock").unlink(missing_ok=True)  # an empty lock file
            tx.rmdir(LEGACY_FOLDER)

    execute(ctx, Plan("consent move"), step)


def _unsafe(folder: Path, info: os.stat_result) -> str | None:
    store = folder / FILENAME
    for path, st in ((folder, info), (store, os.lstat(store))):
        if stat.S_ISLNK(st.st_mode):
            return f"{path} is a symlink"
        if path == store and not stat.S_ISREG(st.st_mode):  # a FIFO would block its read
            return f"{path} is not a regular file"
        if hasattr(os, "getuid") and st.st_uid != os.getuid():
            return f"{path} is owned by another user (uid {st.st_uid})"
        if stat.S_IMODE(st.st_mode) & 0o022:
            return f"{path} is writable by other users (mode {stat.S_IMODE(st.st_mode):04o})"
    return None
