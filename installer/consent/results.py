"""What each consent command returns: data for `--json`, text lines, the exit code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from installer.consent.canonical import short_hash
from installer.consent.record import Approval
from installer.ground.errors import ExitCode

if TYPE_CHECKING:
    from installer.consent.runner import Runner

CheckStatus = Literal["approved", "never-approved", "changed", "nothing-to-approve"]
# "not-real-path": the key is not the folder's realpath (a link, `..`), which pi never looks up.
# "unreadable": the project's hook files cannot be read (not a regular file, too big, a link
# out of it), so no hooks of it run, in pi either; `fix` says what to do.
ListState = Literal["current", "changed", "missing", "not-real-path", "unreadable"]


@dataclass(frozen=True)
class CheckResult:
    """Whether a project's current hooks are approved; exit 0 when approved or none, else 3."""

    project: str
    status: CheckStatus
    sha256: str | None
    approved: Approval | None
    warnings: tuple[str, ...] = ()
    runner: Runner | None = None  # the extension that honours approvals (None: not looked)

    @property
    def exit_code(self) -> ExitCode:
        """0 when the hooks may run (approved, or none), 3 when they need consent."""
        ok = self.status in ("approved", "nothing-to-approve")
        return ExitCode.OK if ok else ExitCode.REFUSED

    def to_json(self) -> dict[str, Any]:
        """The check as data."""
        approved = self.approved
        return {
            "command": "consent check",
            "project": self.project,
            "status": self.status,
            "ok": self.exit_code == ExitCode.OK,
            "sha256": self.sha256,
            "approved_sha256": approved.sha256 if approved else None,
            "approved_at": approved.approved_at if approved else None,
            "runner": self.runner.to_json() if self.runner else None,
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True)
class ApproveResult:
    """What approve recorded (changed=False when it was already approved, or no hooks); exit 0."""

    project: str
    sha256: str | None
    approved_at: str | None
    sources: tuple[str, ...]
    hook_count: int
    changed: bool
    warnings: tuple[str, ...] = ()
    exit_code: ExitCode = ExitCode.OK
    runner: Runner | None = None  # what will honour the approval (None: nothing approved)

    def to_json(self) -> dict[str, Any]:
        """The approval as data, in the plan/apply shape with the approval's fields."""
        actions = [{"action": "approve", "path": self.project, "detail": self.sha256}]
        return {
            "command": "consent approve",
            "changed": self.changed,
            "dry_run": False,
            "actions": actions if self.changed else [],
            "project": self.project,
            "sha256": self.sha256,
            "approved_at": self.approved_at,
            "sources": list(self.sources),
            "runner": self.runner.to_json() if self.runner else None,
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True)
class RevokeResult:
    """What revoke removed (changed=False when there was no approval); exit 0."""

    project: str
    revoked: Approval | None
    warnings: tuple[str, ...] = ()
    exit_code: ExitCode = ExitCode.OK

    @property
    def changed(self) -> bool:
        """True when an approval was removed."""
        return self.revoked is not None

    def to_json(self) -> dict[str, Any]:
        """The revocation as data."""
        revoked = self.revoked
        return {
            "command": "consent revoke",
            "changed": self.changed,
            "project": self.project,
            "revoked_sha256": revoked.sha256 if revoked else None,
            "revoked_approved_at": revoked.approved_at if revoked else None,
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True)
class ListEntry:
    """One approved project and whether its hooks still match the approval."""

    project: str
    approved_at: str
    sha256: str
    state: ListState
    fix: str | None = None  # for an unreadable one: what makes it readable (ExtError's fix)

    def to_json(self) -> dict[str, Any]:
        """The entry as data."""
        return {
            "project": self.project,
            "approved_at": self.approved_at,
            "sha256": self.sha256,
            "short": short_hash(self.sha256),
            "state": self.state,
        }


@dataclass(frozen=True)
class ListResult:
    """Every approval in the store, sorted by project; exit 0."""

    store: str
    entries: tuple[ListEntry, ...]
    warnings: tuple[str, ...] = ()
    exit_code: ExitCode = ExitCode.OK
    runner: Runner | None = None  # the extension that honours approvals (None: not looked)

    def to_json(self) -> dict[str, Any]:
        """The list as data."""
        return {
            "command": "consent list",
            "store": self.store,
            "approvals": [entry.to_json() for entry in self.entries],
            "runner": self.runner.to_json() if self.runner else None,
            "warnings": list(self.warnings),
        }
