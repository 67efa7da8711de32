"""Whether pi will honour the approvals: the bundled project-hooks extension in the agent dir.

An approval is only a record until something runs the hooks. `ext consent` and
`ext doctor` say whether the extension is there and enabled (linked into
`extensions/`, or loaded from a set registered in settings.json), and so which
projects' hooks pi would run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from installer.ground.home import expand_home

NAME = "project-hooks"
ENTRY = f"extensions/{NAME}/index.ts"

RunnerState = Literal["enabled", "disabled", "not-installed"]


@dataclass(frozen=True)
class Runner:
    """The extension's state in one agent dir, and where it was found."""

    state: RunnerState
    where: str | None = None
    # The agent dir looked in, named where the extension is not there: an approval made
    # against the wrong dir (the isolated one, a set installed elsewhere) showed nothing of it.
    agent_dir: str | None = None

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
        where = self.agent_dir or "this agent dir"
        return (
            f"pi runs no project hooks: the {NAME} extension (in ext's bundled set) is not "
            f"installed in {where}."
        )

    def to_json(self) -> dict[str, Any]:
        """The state as data."""
        return {"name": NAME, "state": self.state, "where": self.where}


def find_runner(agent_dir: Path) -> Runner:
    """Where pi would load project-hooks from in this agent dir, if anywhere: pi's own
    switches (`pi config`'s top-level `-path`, a package entry's filter) included."""
    settings = _settings(agent_dir)
    linked = agent_dir / "extensions" / NAME
    if (linked / "index.ts").is_file():
        off = _switched_off(settings.get("extensions"), linked / "index.ts", package=False)
        if off is not None:
            return Runner("disabled", f"{linked}, switched off by {off} in settings.json")
        return Runner("enabled", str(linked))
    parked = agent_dir / "extensions" / ".off" / NAME
    if os.path.lexists(parked):
        return Runner("disabled", str(parked))
    return _registered(settings) or Runner("not-installed", agent_dir=str(agent_dir))


def _settings(agent_dir: Path) -> dict[str, Any]:
    from installer.settings.store import glance

    return glance(agent_dir / "settings.json")  # a FIFO or /dev/zero there: {} at once


def _switched_off(patterns: object, entry: Path, package: bool) -> str | None:
    """The pattern by which pi leaves the extension out (None: it loads it), as pi matches."""
    from installer.settings.switches import local_switch, package_switch

    if not isinstance(patterns, list):
        return None
    match = package_switch if package else local_switch
    found = match(patterns, ENTRY, str(entry))
    return found[1] if found is not None and not found[0] else None


def _registered(settings: dict[str, Any]) -> Runner | None:
    """A package in settings.json that holds the extension (register mode), with its filter."""
    packages = settings.get("packages")
    found = None
    for entry in packages if isinstance(packages, list) else []:
        source = entry if isinstance(entry, str) else _get(entry, "source")
        if not isinstance(source, str) or not (expand_home(source) / ENTRY).is_file():
            continue
        index = expand_home(source) / ENTRY
        off = _switched_off(_get(entry, "extensions"), index, package=True)
        if off is None:
            return Runner("enabled", f"settings.json package {source}")
        found = Runner("disabled", f"settings.json package {source}, filtered out by {off}")
    return found


def _get(entry: object, key: str) -> object:
    return entry.get(key) if isinstance(entry, dict) else None
