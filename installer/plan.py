"""The plan every command shows before it writes: plain Action records, computed without writing."""

from __future__ import annotations

from collections import Counter
from typing import Any, Literal, NamedTuple

# DESIGN.md's action words, and the ones ext added (see _SUMMARY): what a plan line says.
Word = Literal[
    "link",
    "relink",
    "backup",
    "prune",
    "unlink",
    "enable",
    "disable",
    "seed",
    "register",
    "unregister",
    "filter",
    "approve",
    "migrate",
    "retire",
    "restore",
    "rmdir",
    "mkdir",
    "create",
    "copy",
    "skip",
    "keep",
]

# Actions that leave the disk as it is.
QUIET: frozenset[Word] = frozenset({"keep", "skip"})
# (action, label in a plan, label once done); "{s}" is "s" for any count but one.
_SUMMARY: tuple[tuple[Word, str, str], ...] = (
    ("link", "to link", "linked"),
    ("relink", "to relink", "relinked"),
    ("backup", "backup{s}", "backed up"),
    ("prune", "to prune", "pruned"),
    ("unlink", "to remove", "removed"),
    ("enable", "to enable", "enabled"),
    ("disable", "to disable", "disabled"),
    ("seed", "to seed", "seeded"),
    ("register", "to register", "registered"),
    ("unregister", "to unregister", "unregistered"),
    ("filter", "filter change{s}", "filter{s} changed"),
    ("approve", "hook{s} to approve", "hook{s} approved"),
    ("migrate", "key{s} to move", "key{s} moved"),
    ("retire", "retired key{s} to remove", "retired key{s} removed"),
    ("restore", "to restore", "restored"),
    ("rmdir", "folder{s} to remove", "folder{s} removed"),
    ("mkdir", "folder{s} to make", "folder{s} made"),
    ("create", "to create", "created"),
    ("copy", "to copy into the set", "copied into the set"),
    ("skip", "skipped", "skipped"),
    ("keep", "unchanged", "unchanged"),
)


class Action(NamedTuple):
    """One step: `action` is one of DESIGN.md's words; paths are relative to the agent dir."""

    action: Word
    path: str
    target: str | None = None
    backup: str | None = None
    detail: str | None = None
    data: Any = None  # payload for non-link actions (a settings value, a hook config)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.action, "path": self.path}
        for key in ("target", "backup", "detail"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if isinstance(self.data, dict) and "key" in self.data:  # a seed: the key and its value
            out["key"], out["value"] = self.data["key"], self.data.get("value")
        elif self.action in ("register", "unregister", "filter") and self.data is not None:
            out["value"] = self.data  # the packages entry as it will be (or was)
        return out

    def without_stamp(self) -> Action:
        """The same step with its backup name's timestamp blanked, to compare two plans."""
        if self.backup is None:
            return self
        from installer.backups import blank_stamp

        return self._replace(backup=blank_stamp(self.backup))


class Plan(NamedTuple):
    """What a command would do, in order."""

    command: str
    actions: tuple[Action, ...] = ()
    warnings: tuple[str, ...] = ()
    mode: str | None = None  # install: the mode it installs in (journaled, for a re-run)

    @property
    def changes(self) -> tuple[Action, ...]:
        return tuple(a for a in self.actions if a.action not in QUIET)

    @property
    def is_empty(self) -> bool:
        return not self.changes

    def summary(self, done: bool = False) -> str:
        """`3 to link, 1 backup, 10 unchanged`; in the past tense once applied."""
        counts = Counter(a.action for a in self.actions)
        parts = [
            f"{counts[k]} {(past if done else label).format(s='' if counts[k] == 1 else 's')}"
            for k, label, past in _SUMMARY
            if counts[k]
        ]
        return ", ".join(parts) if parts else "nothing to do"

    def same_steps(self, other: Plan) -> bool:
        """True when both plans write the same things (backup timestamps aside)."""
        mine = [a.without_stamp() for a in self.changes]
        theirs = [a.without_stamp() for a in other.changes]
        return mine == theirs
