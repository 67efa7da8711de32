"""What each consent command returns: data for `--json`, text lines, the exit code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from installer.consent.canonical import short_hash
from installer.consent.hooks import visible
from installer.consent.record import Approval
from installer.errors import ExitCode

if TYPE_CHECKING:
    from installer.consent.runner import Runner

CheckStatus = Literal["approved", "never-approved", "changed", "nothing-to-approve"]
ListState = Literal["current", "changed", "missing"]


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

    def lines(self) -> list[str]:
        """One line for people, with the next step when consent is missing."""
        where = visible(self.project)
        current = short_hash(self.sha256 or "")
        review = f"Review and approve them with: ext consent approve {where}"
        if self.status == "nothing-to-approve":
            return [f"{where} has no hooks: nothing to approve."]
        if self.status == "never-approved" or self.approved is None:
            return [f"Hooks in {where} ({current}) have never been approved.", review]
        when = self.approved.approved_at
        if self.status == "approved":
            said = [f"Hooks in {where} ({current}) are approved (on {when})."]
            return said + ([self.runner.sentence()] if self.runner else [])
        return [
            f"Hooks in {where} changed since the approval on {when} "
            f"({short_hash(self.approved.sha256)} -> {current}).",
            review,
        ]

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

    def lines(self) -> list[str]:
        """What was recorded, and whether pi will run it."""
        where = visible(self.project)
        if self.sha256 is None:
            return [f"{where} has no hooks: nothing to approve."]
        verb = "Approved" if self.changed else "Already approved:"
        said = (
            f"{verb} {self.hook_count} hook{'' if self.hook_count == 1 else 's'} in {where} "
            f"({short_hash(self.sha256)}, on {self.approved_at})."
        )
        return [said, *([self.runner.sentence()] if self.runner else [])]

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

    def lines(self) -> list[str]:
        """One line saying what was removed."""
        where = visible(self.project)
        if self.revoked is None:
            return [f"No approval was recorded for {where}: nothing to revoke."]
        stamp = f"{short_hash(self.revoked.sha256)}, approved {self.revoked.approved_at}"
        return [f"Revoked the approval of the hooks in {where} ({stamp})."]

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

    def lines(self) -> list[str]:
        """A table: state, approval time, short hash, project; then whether pi runs them."""
        runner = [self.runner.sentence()] if self.runner else []
        if not self.entries:
            return [f"No approved projects (store: {visible(self.store)}).", *runner]
        rows = [("STATE", "APPROVED", "HASH", "PROJECT")]
        rows += [
            (e.state, e.approved_at, short_hash(e.sha256), visible(e.project)) for e in self.entries
        ]
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        table = [
            "  ".join([*(cell.ljust(w) for cell, w in zip(row, widths, strict=False)), row[3]])
            for row in rows
        ]
        return table + runner + self._would_run()

    def _would_run(self) -> list[str]:
        if self.runner is None or not self.runner.runs:
            return []
        current = [visible(e.project) for e in self.entries if e.state == "current"]
        if not current:
            return ["No approved project's hooks would run: each changed since or is gone."]
        return [f"Hooks that would run in pi: {', '.join(current)}."]

    def to_json(self) -> dict[str, Any]:
        """The list as data."""
        return {
            "command": "consent list",
            "store": self.store,
            "approvals": [entry.to_json() for entry in self.entries],
            "runner": self.runner.to_json() if self.runner else None,
            "warnings": list(self.warnings),
        }
