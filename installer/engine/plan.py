"""The plan every command shows before it writes: plain Action records, computed without writing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

    from installer.consent.record import Approval
    from installer.consent.store import Store
    from installer.engine.journal import JournalStep
    from installer.ground.clock import When
    from installer.ground.state import State

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
        "revoke",
        "migrate",
        "retire",
        "claim",
        "restore",
        "rmdir",
        "mkdir",
        "create",
        "copy",
        "skip",
        "keep",
        "record",
        "undone",
    ]


# Actions that leave the disk as it is.
QUIET: frozenset[Word] = frozenset({"keep", "skip"})
# Actions a plan carries out but never shows: ext's own state record. Out of `changes`, the
# summary and the JSON, so plans print as they did before the executor took them.
BOOKKEEPING: frozenset[Word] = frozenset({"record", "undone"})
_UNSHOWN = QUIET | BOOKKEEPING  # once: `changes` of a 1,000-link plan asks it of each action
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
    ("claim", "filter{s} to keep as yours", "filter{s} kept as yours"),
    ("restore", "to restore", "restored"),
    ("rmdir", "folder{s} to remove", "folder{s} removed"),
    ("mkdir", "folder{s} to make", "folder{s} made"),
    ("create", "to create", "created"),
    ("copy", "to copy into the set", "copied into the set"),
    ("skip", "skipped", "skipped"),
    ("keep", "unchanged", "unchanged"),
)


class SettingsWrite(NamedTuple):
    """What a settings action writes: the plan's one merged change of settings.json.

    Every settings action of a plan carries the same change; the executor makes it one write.
    `first`: written before the plan's other writes (install's `-path` before the links).
    `remove_empty`: a file the change leaves empty (`{}`) is removed (one ext made)."""

    change: Callable[[dict[str, Any]], dict[str, Any]]
    first: bool = False
    remove_empty: bool = False


class StateWrite(NamedTuple):
    """The state record as a run leaves it: a function of the record read under the lock."""

    update: Callable[[State], State]


class AgentCopy(NamedTuple):
    """ext's own agent file: the copy (content-addressed) a link or relink points at."""

    path: Path
    content: bytes


class StoreWrite(NamedTuple):
    """A change of the approvals store (consent approve/revoke), made under its own lock:
    `change` edits the approvals (keyed by project) and says whether anything changed;
    `done` is given the store as the write left it (the result the command reports)."""

    change: Callable[[dict[str, Approval]], bool]
    done: Callable[[Store], None]


class Reverse(NamedTuple):
    """For `ext undo`: the journal step an action takes back."""

    step: JournalStep


class FileText(NamedTuple):
    """A file of ext's (the approvals store) turned from `expected` into `text` (None: no
    file); `folders`: its folder made 0700 first (the store's `.extset/consent/`); `strays`:
    empty files of ext's in a folder removed before it goes (not journaled); `shared`: a file
    the host reads (Gemini CLI's TOML), made with the umask's mode as the user's own files
    are, not 0600 (helper-81: the only 0600 files in ~/.gemini/commands)."""

    expected: str | None
    text: str | None
    folders: bool = False
    strays: tuple[str, ...] = ()
    shared: bool = False


class Discard(NamedTuple):
    """`adopt --clean-backups`: a backup deleted for good (not journaled: nothing to undo)."""

    why: str


class MarkUndone(NamedTuple):
    """For `ext undo`, once every step is taken back: the journal of the run it reversed."""

    journal: Path
    at: When


Payload = (
    SettingsWrite | StateWrite | AgentCopy | StoreWrite | Reverse | MarkUndone | Discard | FileText
)


class Action(NamedTuple):
    """One step: `action` is one of DESIGN.md's words; paths are relative to the agent dir.

    `payload` is what the executor needs to carry it out (installer/engine/apply.py); it is
    never shown and two actions that differ only by it are equal (a plan made again under
    the lock carries new closures for the same steps)."""

    action: Word
    path: str
    target: str | None = None
    backup: str | None = None
    detail: str | None = None
    data: Any = None  # for the plan's JSON: a settings value, a packages entry
    payload: Payload | None = None

    def _shown(self) -> tuple[Any, ...]:
        return tuple(self)[:6]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Action):
            return self._shown() == other._shown()
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, Action):
            return self._shown() != other._shown()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._shown())

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
        from installer.ground.backups import blank_stamp

        return self._replace(backup=blank_stamp(self.backup))


class Plan(NamedTuple):
    """What a command would do, in order."""

    command: str
    actions: tuple[Action, ...] = ()
    warnings: tuple[str, ...] = ()
    mode: str | None = None  # install: the mode it installs in (journaled, for a re-run)
    of_set: bool = True  # a run for the set (journaled as such); consent's are the dir's own
    undone_set: tuple[str, str] | None = None  # undo's: the (name, root) of the run it reverses
    # The words a run was asked with, as a command line says them (`--skip notify`): its
    # journal keeps them, for `ext history`.
    asked: tuple[str, ...] = ()

    @property
    def changes(self) -> tuple[Action, ...]:
        """The writes a plan shows."""
        return tuple(a for a in self.actions if a.action not in _UNSHOWN)

    @property
    def shown(self) -> Plan:
        """The plan without its bookkeeping, as a command returns it (and prints its JSON)."""
        return self._replace(actions=tuple(a for a in self.actions if a.action not in BOOKKEEPING))

    @property
    def writes(self) -> tuple[Action, ...]:
        """Every write the executor carries out: the changes and the bookkeeping."""
        return tuple(a for a in self.actions if a.action not in QUIET)

    @property
    def is_empty(self) -> bool:
        return all(a.action in _UNSHOWN for a in self.actions)

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
