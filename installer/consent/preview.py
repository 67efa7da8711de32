"""What `ext consent approve` shows before it asks: every hook, and the diff."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any, Literal

from installer.consent.canonical import pretty
from installer.consent.config import HookConfig
from installer.consent.hooks import HookCommand
from installer.consent.record import Approval

# What a yes approves, said where it is asked (pi's dialog says the same: project-hooks/index.ts).
COVERS = (
    "The approval covers these definitions only, not the scripts they call, the environment "
    "they run with, or what PATH finds: a change to those is not asked about again."
)

PreviewStatus = Literal["new", "changed", "already-approved", "nothing-to-approve"]


@dataclass(frozen=True)
class ApprovalPreview:
    """The hooks of a project as they would be approved, and how they differ from before."""

    project: str
    config: HookConfig
    commands: tuple[HookCommand, ...]
    previous: Approval | None
    warnings: tuple[str, ...] = ()

    @property
    def status(self) -> PreviewStatus:
        """new / changed need approval; already-approved / nothing-to-approve do not."""
        if self.config.is_empty:
            return "nothing-to-approve"
        if self.previous is None:
            return "new"
        if self.previous.sha256 == self.config.sha256:
            return "already-approved"
        return "changed"

    @property
    def needs_approval(self) -> bool:
        """True when there is something to ask about."""
        return self.status in ("new", "changed")

    @property
    def diff(self) -> tuple[str, ...]:
        """Unified diff of the approved canonical config against the current one."""
        if self.previous is None or self.status != "changed":
            return ()
        before = pretty(self.previous.config).splitlines()
        after = pretty(self.config.as_json()).splitlines()
        label = f"approved {self.previous.approved_at}"
        return tuple(difflib.unified_diff(before, after, label, "current", lineterm=""))

    def question(self) -> str:
        """The y/N question the CLI asks (without the `[y/N]`)."""
        count = len(self.commands)
        return f"Allow {'this hook' if count == 1 else f'these {count} hooks'} to run?"

    def to_json(self) -> dict[str, Any]:
        """The preview as data (`--json` with `--dry-run`)."""
        return {
            "command": "consent approve",
            "dry_run": True,
            "project": self.project,
            "status": self.status,
            "sha256": self.config.sha256,
            "sources": list(self.config.sources),
            "hooks": [command.to_json() for command in self.commands],
            "previous": _previous_json(self.previous),
            "diff": "\n".join(self.diff),
            "warnings": list(self.warnings),
        }


def _previous_json(previous: Approval | None) -> dict[str, Any] | None:
    if previous is None:
        return None
    return {"sha256": previous.sha256, "approved_at": previous.approved_at}
