"""The consent commands the CLI calls: check, describe/approve, revoke, list.

Each returns a frozen result (see results.py and preview.py); none prompts or
prints. Only approve and revoke write, and only when something changes.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from installer.consent.config import HookConfig, read_project
from installer.consent.hooks import list_commands
from installer.consent.preview import ApprovalPreview
from installer.consent.record import Approval, format_time
from installer.consent.results import (
    ApproveResult,
    CheckResult,
    CheckStatus,
    ListEntry,
    ListResult,
    ListState,
    RevokeResult,
)
from installer.consent.runner import find_runner
from installer.consent.store import Change, Store, read_store, update_store
from installer.ground.errors import ExtError, Refused, UsageError

Clock = Callable[[], datetime]
StoreWriter = Callable[[Path, Change], Store]


def utc_now() -> datetime:
    """The current time in UTC (the default clock)."""
    return datetime.fromtimestamp(time.time(), UTC)


def project_key(project: Path) -> str:
    """The store's key for a project: its realpath (the folder need not exist)."""
    return os.path.realpath(project)


def check(agent_dir: Path, project: Path) -> CheckResult:
    """Whether the project's current hooks are approved (exit 0) or need consent (exit 3)."""
    config = _read_config(project)
    store = read_store(agent_dir)
    key = project_key(project)
    approved = store.approvals.get(key)
    status: CheckStatus
    if config.is_empty:
        status = "nothing-to-approve"
    elif approved is None:
        status = "never-approved"
    else:
        status = "approved" if approved.sha256 == config.sha256 else "changed"
    runner = find_runner(agent_dir) if status == "approved" else None
    return CheckResult(key, status, config.sha256, approved, store.warnings, runner)


def describe_approval(agent_dir: Path, project: Path) -> ApprovalPreview:
    """What approving would record: every hook, and the diff from an earlier approval."""
    config = _read_config(project)
    store = read_store(agent_dir)
    key = project_key(project)
    commands = tuple(list_commands(config.config))
    return ApprovalPreview(key, config, commands, store.approvals.get(key), store.warnings)


def approve(
    agent_dir: Path,
    project: Path,
    preview: ApprovalPreview,
    clock: Clock = utc_now,
    write: StoreWriter = update_store,
) -> ApproveResult:
    """Record the approval of exactly the previewed hooks; Refused if they changed since.

    `write` changes the store: consent/journaled.py's runs it as a journaled plan."""
    key = project_key(project)
    if key != preview.project:
        raise UsageError(f"the preview is of {preview.project}, not of {key}")
    config = _read_config(project)
    if config.sha256 != preview.config.sha256:
        from installer.ground.shellword import shell_word

        raise Refused(
            f"the hooks in {key} changed after they were shown; nothing was approved",
            fix=f"run `ext consent approve {shell_word(Path(key))}` again to review the current "
            "hooks",
        )
    count = len(preview.commands)
    if config.sha256 is None:
        return ApproveResult(key, None, None, (), 0, changed=False, warnings=preview.warnings)
    held = read_store(agent_dir).approvals.get(key)
    if held is not None and held.sha256 == config.sha256:
        return _approved(agent_dir, key, held, count, changed=False, warnings=preview.warnings)
    entry = Approval(config.sha256, format_time(clock()), config.sources, config.as_json())
    store = write(agent_dir, lambda approvals: _put(approvals, key, entry))
    final = store.approvals[key]
    return _approved(agent_dir, key, final, count, changed=final is entry, warnings=store.warnings)


def held_approval(agent_dir: Path, project: Path) -> tuple[str, Approval | None]:
    """The project's key and its recorded approval, if any (read only: asked before revoke)."""
    key = project_key(project)
    return key, read_store(agent_dir).approvals.get(key)


def revoke(agent_dir: Path, project: Path, write: StoreWriter = update_store) -> RevokeResult:
    """Remove the project's approval, if any; writes nothing when there is none."""
    key = project_key(project)
    store = read_store(agent_dir)
    if key not in store.approvals:
        return RevokeResult(key, None, store.warnings)
    removed: list[Approval] = []

    def forget(approvals: dict[str, Approval]) -> bool:
        if key in approvals:
            removed.append(approvals.pop(key))
        return bool(removed)

    written = write(agent_dir, forget)
    return RevokeResult(key, removed[0] if removed else None, written.warnings)


def list_approvals(agent_dir: Path) -> ListResult:
    """Every approval, with whether the project's hooks are still the approved ones."""
    store = read_store(agent_dir)
    warnings = list(store.warnings)
    entries = []
    for key in sorted(store.approvals):
        approval = store.approvals[key]
        state, fix = _state(key, approval, warnings)
        entries.append(ListEntry(key, approval.approved_at, approval.sha256, state, fix))
    return ListResult(
        str(store.path), tuple(entries), tuple(warnings), runner=find_runner(agent_dir)
    )


def _put(approvals: dict[str, Approval], key: str, entry: Approval) -> bool:
    # Another run may have approved the same hooks meanwhile: keep its date.
    held = approvals.get(key)
    if held is not None and held.sha256 == entry.sha256:
        return False
    approvals[key] = entry
    return True


def _state(key: str, approval: Approval, warnings: list[str]) -> tuple[ListState, str | None]:
    """The approval's state, and for one whose hooks cannot be read, what makes them readable."""
    project = Path(key)
    if not project.is_dir():
        return "missing", None
    if os.path.realpath(key) != key:
        return "not-real-path", None  # pi keys a project by its realpath: it never runs these
    try:
        config = read_project(project)
    except ExtError as exc:
        warnings.append(exc.message)
        return "unreadable", exc.fix
    return ("current" if config.sha256 == approval.sha256 else "changed"), None


def _read_config(project: Path) -> HookConfig:
    if not project.is_dir():
        raise UsageError(
            f"{project} is not a folder",
            fix="name the project folder (`ext consent check DIR`), or run it from there",
        )
    return read_project(project)


def _approved(
    agent_dir: Path,
    key: str,
    entry: Approval,
    count: int,
    *,
    changed: bool,
    warnings: tuple[str, ...],
) -> ApproveResult:
    return ApproveResult(
        key,
        entry.sha256,
        entry.approved_at,
        entry.sources,
        count,
        changed,
        warnings,
        runner=find_runner(agent_dir),
    )
