"""What a check reports: one Finding per thing found, at one of five levels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Level = Literal["ok", "info", "warn", "error", "failed"]
LEVELS: tuple[Level, ...] = ("ok", "info", "warn", "error", "failed")
# "failed" is the check's own crash: it blocks like an error, since nothing was verified.
SEVERITY: dict[str, int] = {"ok": 0, "info": 1, "warn": 2, "error": 3, "failed": 3}


@dataclass(frozen=True)
class Finding:
    """One thing a check found: its check's id, a level, what it is, and how to fix it."""

    id: str
    level: Level
    message: str
    fix: str | None = None

    def to_json(self) -> dict[str, Any]:
        """DESIGN.md's shape; a crashed check is an "error" whose message says so."""
        level = "error" if self.level == "failed" else self.level
        out: dict[str, Any] = {"id": self.id, "level": level, "message": self.message}
        if self.fix:
            out["fix"] = self.fix
        return out


class Skip(Exception):
    """Raised by a check whose subject is missing (no agent dir yet, no host): reported as info."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def ok(message: str) -> Finding:
    """A finding whose id the runner fills in with its check's id."""
    return Finding("", "ok", message)


def info(message: str, fix: str | None = None) -> Finding:
    return Finding("", "info", message, fix)


def warn(message: str, fix: str | None = None) -> Finding:
    return Finding("", "warn", message, fix)


def error(message: str, fix: str | None = None) -> Finding:
    return Finding("", "error", message, fix)


def count(n: int, word: str) -> str:
    """`1 extension`, `2 extensions`."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
