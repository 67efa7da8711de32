"""doctor's verdict: whether the findings fail the run (its exit code), and DESIGN.md's JSON.

The table people read is drawn by installer.render.doctor."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from installer.doctor.finding import SEVERITY, Finding


def failing(findings: Sequence[Finding], strict: bool) -> bool:
    """True when doctor must exit 1: an error or a crashed check (with strict, a warning too)."""
    bar = SEVERITY["warn"] if strict else SEVERITY["error"]
    return any(SEVERITY[f.level] >= bar for f in findings)


def exit_code(findings: Sequence[Finding], strict: bool) -> int:
    return 1 if failing(findings, strict) else 0


def to_json(findings: Sequence[Finding], strict: bool) -> dict[str, Any]:
    """{"ok", "checks": [{"id", "level", "message", "fix"?}]}."""
    return {"ok": not failing(findings, strict), "checks": [f.to_json() for f in findings]}
