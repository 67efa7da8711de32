"""What `ext adopt --clean-backups` deletes: the backups adoption kept, once they are redundant.

A backup goes only while the set holds its bytes now: at the copy the adoption made (its
journal names it) or where the adopted link points. Anything else is listed and kept: the
agent dir's version that `--prefer set` displaced, a backup edited since, and a backup whose
copy in the set was edited, deleted or lost with the set's folder, which is then the only
copy of the original.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from installer.engine import journal
from installer.engine.plan import Action, Discard, Plan
from installer.engine.result import PlanResult
from installer.engine.run import Confirm, Prepared, run_plan
from installer.ground import trees
from installer.ground.context import Context
from installer.ground.errors import ExtError


@dataclass(frozen=True)
class Backup:
    """A backup an adoption made, and why it may (or may not) go."""

    path: str  # relative to the agent dir
    removable: bool
    why: str


def clean_backups(ctx: Context, dry_run: bool, confirm: Confirm) -> PlanResult:
    """Plan the deletion of redundant adoption backups, show it, and delete them."""

    def prepare() -> Prepared:
        found = backups(ctx.agent_dir)
        actions = tuple(
            Action("prune", b.path, detail=b.why, payload=Discard(b.why))
            for b in found
            if b.removable
        )
        kept = tuple(f"kept {b.path}: {b.why}" for b in found if not b.removable)
        return Prepared(Plan("clean-backups", actions, kept))

    result = run_plan(ctx, prepare, confirm, dry_run)
    if not result.applied:
        return result
    note = "`ext undo` can no longer reverse those adoptions: their originals are gone"
    return result._replace(notes=(*result.notes, note))


def backups(agent_dir: Path) -> list[Backup]:
    """The backups of every adoption still in force (finished, not undone), oldest first."""
    out: dict[str, Backup] = {}
    for rec in reversed(list(journal.records(agent_dir))):
        if rec.command != "adopt" or rec.undone or rec.status not in ("ok", "finished-by-next-run"):
            continue
        copies = {s["from"]: s for s in rec.steps if s["op"] == "copy"}
        links = {s["path"]: s["target"] for s in rec.steps if s["op"] == "symlink"}
        for s in rec.steps:
            if s["op"] == "rename" and s["path"] in links and os.path.lexists(agent_dir / s["to"]):
                out[s["to"]] = _judge(agent_dir, s["to"], copies.get(s["path"]), links[s["path"]])
    return list(out.values())


def _judge(agent_dir: Path, rel: str, copy: dict[str, Any] | None, target: str) -> Backup:
    backup = agent_dir / rel
    # A clone's .git stays out of the set's copy: the backup keeps its history (unpushed
    # commits too) alone. Its node_modules is no loss: `npm install` makes it again.
    kept_out = [p for p in trees.left_out(backup, trees.LEFT_OUT) if Path(p).name == ".git"]
    if kept_out:
        why = f"it holds {', '.join(kept_out[:3])}, which the set's copy leaves out: the only copy"
        return Backup(rel, False, why)
    mine = _entries(backup)  # read once: held against the copy, the link's target, the journal
    copied = Path(copy["file"]) if copy is not None else None
    for place in dict.fromkeys(p for p in (copied, Path(target)) if p is not None):
        if mine is not None and _entries(place) == mine:
            if place == copied:
                return Backup(rel, True, f"what was copied into the set, {place}")
            return Backup(rel, True, f"the same bytes as the set's {place}")
    if copy is None or mine != copy["entries"]:
        return Backup(rel, False, "not a copy of anything in the set; delete it yourself when sure")
    if copied is not None and os.path.lexists(copied):
        why = f"the set's copy was changed since ({copied}): this is the only copy of the original"
    else:
        why = f"the set no longer holds it ({copied} is gone): this is the only copy"
    return Backup(rel, False, why)


def _entries(path: Path) -> trees.Entries | None:
    """Every entry at and under `path` (bytes, link texts; .git and node_modules left out), or
    None when it cannot be read."""
    try:
        return trees.entries(path, trees.LEFT_OUT)
    except (OSError, ExtError):
        return None
