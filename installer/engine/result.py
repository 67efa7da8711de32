"""What a command returns: one renderer prints it as text or JSON."""

from __future__ import annotations

from installer.engine.plan import Plan
from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class PlanResult(NamedTuple):
    """The outcome of a plan/apply command (install, uninstall, enable, …)."""

    plan: Plan
    changed: bool
    dry_run: bool
    applied: bool = False
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # text-only hints shown after the summary
    diffs: tuple[str, ...] = ()  # unified diffs of files the plan rewrites (settings.json)
    said: bool = True  # False: nothing to tell in text (the picker left with no box changed)

    def to_json(self) -> dict[str, Any]:
        return {
            "command": self.plan.command,
            "changed": self.changed,
            "dry_run": self.dry_run,
            "actions": [a.to_json() for a in self.plan.actions],
            "warnings": [*self.plan.warnings, *self.warnings],
        }


class DataResult(NamedTuple):
    """A command that reports data (list, env, history): JSON as is, text as lines."""

    data: dict[str, Any]
    lines: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    verbatim: bool = False  # lines a shell reads (`ext env`): written as they are, no `~`

    def to_json(self) -> dict[str, Any]:
        return self.data
