"""Whether pi will honour the approvals: the bundled project-hooks extension in the agent dir.

An approval is only a record until something runs the hooks. `ext consent` and
`ext doctor` say whether the extension is there and enabled (linked into
`extensions/`, or loaded from a set registered in settings.json), and so which
projects' hooks pi would run.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

NAME = "project-hooks"
ENTRY = f"extensions/{NAME}/index.ts"

RunnerState = Literal["enabled", "disabled", "not-installed"]


@dataclass(frozen=True)
class Runner:
    """The extension's state in one agent dir, and where it was found."""

    state: RunnerState
    where: str | None = None

    @property
    def runs(self) -> bool:
        """True when pi loads the extension, so approved hooks run."""
        return self.state == "enabled"

    def sentence(self) -> str:
        """One line for people."""
        if self.state == "enabled":
            return f"pi runs approved hooks: the {NAME} extension is enabled ({self.where})."
        if self.state == "disabled":
            return (
                f"pi runs no project hooks: the {NAME} extension is disabled ({self.where}); "
                f"`ext enable {NAME}` turns it on."
            )
        return (
            f"pi runs no project hooks: the {NAME} extension (in ext's bundled set) is not "
            "installed in this agent dir."
        )

    def to_json(self) -> dict[str, Any]:
        """The state as data."""
        return {"name": NAME, "state": self.state, "where": self.where}


def find_runner(agent_dir: Path) -> Runner:
    """Where pi would load project-hooks from in this agent dir, if anywhere."""
    linked = agent_dir / "extensions" / NAME
    if (linked / "index.ts").is_file():
        return Runner("enabled", str(linked))
    parked = agent_dir / "extensions" / ".off" / NAME
    if os.path.lexists(parked):
        return Runner("disabled", str(parked))
    return _registered(agent_dir) or Runner("not-installed")


def _registered(agent_dir: Path) -> Runner | None:
    """A package in settings.json that holds the extension (register mode), with its filter."""
    try:
        settings = json.loads((agent_dir / "settings.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    packages = settings.get("packages") if isinstance(settings, dict) else None
    found = None
    for entry in packages if isinstance(packages, list) else []:
        source = entry if isinstance(entry, str) else _get(entry, "source")
        if not isinstance(source, str) or not (Path(source).expanduser() / ENTRY).is_file():
            continue
        filters = _get(entry, "extensions")
        excluded = isinstance(filters, list) and f"-{ENTRY}" in filters
        if not excluded:
            return Runner("enabled", f"settings.json package {source}")
        found = Runner("disabled", f"settings.json package {source}, filtered out")
    return found


def _get(entry: object, key: str) -> object:
    return entry.get(key) if isinstance(entry, dict) else None
