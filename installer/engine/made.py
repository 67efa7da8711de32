"""What ext made in an agent dir, as its journals tell: folders, settings.json and its `packages`
key.

The newest journaled step about a thing decides: a `mkdir` of a folder (by an install or a
disable) means ext made the one there now; an `rmdir` means the one
there now is someone else's. A settings write that added the `packages` key means ext made it;
one that found it there means it is the user's. Of the settings writes that made or removed the
file, the newest tells whether the file is ext's. A run that was rolled back took its steps back;
of settings.json, a run undone and the undo that reversed it cancel out.
What no journal kept (they are trimmed to the newest 50) counts as not ext's: it stays.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

from installer.engine import journal
from installer.engine.journal import JournalStep
from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Made(NamedTuple):
    """Which of the folders asked about ext made, whether it added the `packages` key, whether
    it made settings.json itself, and which top-level patterns of it ext added (when asked)."""

    folders: frozenset[str]
    packages_key: bool
    settings_file: bool = False
    patterns: frozenset[Pattern] = frozenset()


Pattern = tuple[str, str]  # (the top-level key, a pattern of its array)


def made_here(
    agent_dir: Path, folders: Iterable[str], settings: Path, keys: Iterable[str] = ()
) -> Made:
    """What ext made of `folders` (relative to the agent dir) and of `settings`: its packages
    key, the file, and (`keys`: "extensions", …) the top-level patterns of those arrays. Of the
    writes that added or removed a pattern, the newest decides (removed: any one there now is
    someone else's, pi config's or the user's). One walk over the journals for all of it."""
    pending = set(folders)
    keys = tuple(keys)
    made: set[str] = set()
    key: bool | None = None
    file: bool | None = None
    decided: dict[Pattern, bool] = {}
    for rec in journal.records(agent_dir):
        if rec.status == "rolled-back":
            continue
        # Of settings.json, a run `ext undo` reversed and the undo that finished cancel out:
        # what the undo wrote back is whoever's it was before (a `-path` of pi config's, put
        # back after an enable). Folders go by every step: an undo may keep one (not empty).
        cancelled = rec.undone is not None or (rec.command == "undo" and rec.status == "ok")
        then = rec.moved_from(agent_dir)  # the dir moved since: its settings.json too
        for step in reversed(rec.steps):
            if step["op"] in ("mkdir", "rmdir") and step.get("path") in pending:
                pending.discard(step["path"])
                if step["op"] == "mkdir":
                    made.add(step["path"])
            elif (
                step["op"] == "write"
                and not cancelled
                and _is(step.get("file"), then, agent_dir, settings)
            ):
                before, after = _data(step.get("before")), _data(step.get("after"))
                key = _added_packages(before, after) if key is None else key
                file = _made_file(step) if file is None else file
                if keys and before is not None and after is not None:
                    _decide(decided, _patterns(before, keys), _patterns(after, keys))
            if not keys and not pending and key is not None and file is not None:
                return Made(frozenset(made), key, file)
    ours = frozenset(p for p, added in decided.items() if added)
    return Made(frozenset(made), bool(key), bool(file), ours)


def patterns_added(agent_dir: Path, settings: Path, keys: Iterable[str]) -> frozenset[Pattern]:
    """The top-level patterns of settings.json (`keys`) that ext added, as its journals tell."""
    return made_here(agent_dir, (), settings, keys).patterns


def _decide(decided: dict[Pattern, bool], before: set[Pattern], after: set[Pattern]) -> None:
    """What a write did to each pattern, unless a newer write decided it already."""
    for p in after - before:
        decided.setdefault(p, True)
    for p in before - after:
        decided.setdefault(p, False)


def _data(encoded: str | None) -> dict[str, Any] | None:
    """A journaled settings.json body as data ({} for no file); None when it is not JSON."""
    from installer.engine.transaction import decode

    try:
        text = decode(encoded)
        data = json.loads(text) if text else {}
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _patterns(data: dict[str, Any], keys: tuple[str, ...]) -> set[Pattern]:
    return {
        (k, p) for k in keys if isinstance(data.get(k), list) for p in data[k] if isinstance(p, str)
    }


def _is(file: str | None, then: str | None, agent_dir: Path, settings: Path) -> bool:
    """Whether a step's file is settings, the agent dir moved from `then` or not."""
    if file is None:
        return False
    here = journal.moved(file, then, agent_dir)
    return os.path.realpath(here) == os.path.realpath(settings)


def _added_packages(before: dict[str, Any] | None, after: dict[str, Any] | None) -> bool | None:
    """True: the write added the key; False: it found the key there; None: it did neither."""
    if before is None or after is None or ("packages" in before) == ("packages" in after):
        return None
    return "packages" in after


def _made_file(step: JournalStep) -> bool | None:
    """True: the write made the file; False: it removed it; None: it found one and left one."""
    before, after = step.get("before"), step.get("after")
    return None if (before is None) == (after is None) else before is None


def links_made(agent_dir: Path, links: Iterable[tuple[str, str]]) -> frozenset[tuple[str, str]]:
    """Of the links asked about ((path, target as written)), the ones ext made: the newest
    journaled step about the path made that link there (a symlink or a relink to the
    target, or a rename that moved a link to it there, as a disable or an enable does). Any
    other step about the path, or none kept (journals are trimmed), means someone else's."""
    pending = dict(links)
    made: set[tuple[str, str]] = set()
    for rec in journal.records(agent_dir):
        if not pending:
            break
        if rec.status == "rolled-back":
            continue
        for step in reversed(rec.steps):
            moved_in = step["op"] == "rename" and step.get("to") in pending
            path = step.get("to") if moved_in else step.get("path")
            if path not in pending:
                continue
            target = pending.pop(path)
            making = moved_in or step["op"] in ("symlink", "relink")
            if making and step.get("target") == target:
                made.add((path, target))
    return frozenset(made)
