"""The user's own entry a link of ext's replaced: its backup stays when the link goes.

An install backs up what is in the way (`notify.ts.bak.<stamp>` beside a file, a folder into
`<kind>/.bak/`); adopt keeps an original the same way. When ext later removes the link (an
uninstall, or a prune once the set dropped the item), that backup is the user's only copy and
the host does not load it: each command that removes a link says where it is.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from installer.engine.plan import Action
from installer.ground import backups

REMOVES = frozenset({"unlink", "prune"})


def kept_backups(agent_dir: Path, actions: Iterable[Action], host: str = "pi") -> list[str]:
    """For each link that goes, the newest backup of what was there before ext, in one line
    naming it and how to use it again (`host`: the title of the host that does not load it)."""
    said = []
    for a in actions:
        if a.action not in REMOVES or "/" not in a.path:
            continue
        newest = newest_backup(agent_dir, a.path)
        if newest is not None:
            place = _place(a.path)
            said.append(
                f"{a.path}: what was there before ext stays as {newest} ({host} does not load it; "
                f"rename it back to {place} to use it)"
            )
    return said


def newest_backup(agent_dir: Path, link: str) -> str | None:
    """The newest backup of the entry at `link`'s place (a parked `.off` form stands where the
    item goes), relative to the agent dir; None when there is none."""
    folder, _, name = _place(link).rpartition("/")
    found = []
    for where in (folder, f"{folder}/{backups.FOLDER}"):  # a file beside, a folder in .bak/
        try:
            names = os.listdir(agent_dir / where)
        except OSError:
            continue
        found += [
            (b.when, b.n, f"{where}/{n}")
            for n in names
            if (b := backups.parse(n)) is not None and b.original == name
        ]
    return max(found)[2] if found else None


def _place(link: str) -> str:
    """Where the item goes: `notify.ts.off` -> `notify.ts`, `skills/.off/x` -> `skills/x`."""
    folder, _, name = link.rpartition("/")
    return f"{folder.removesuffix('/.off')}/{name.removesuffix('.off')}"
