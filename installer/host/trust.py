"""pi's project trust (1.x, 0.79+), read as pi reads it, for commands that do not start Node.

A project's `.pi/` resources and its `.agents/skills` load only once the project is trusted.
pi decides (dist/main.js `createRuntime`, dist/core/project-trust.js `resolveProjectTrusted`,
dist/core/trust-manager.js): `--approve`, else a user extension's answer to `project_trust`,
else the nearest saved decision in `<agent>/trust.json` (the cwd or a parent, canonical
paths), else `defaultProjectTrust` ("ask" by default: a UI asks, `pi -p` does not trust).
ext sees neither the flag nor the extensions: this is the saved decision, else the default.
`doctor --deep` asks pi's own store instead (installer/host/loader.mjs), and
tests/conformance/test_trust.py holds this reading against it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from installer.ground.records import NamedTuple
from installer.host.lines import PiLine

_DEFAULTS = ("ask", "always", "never")
# What in `<cwd>/.pi` asks for trust (trust-manager.js TRUST_REQUIRING_PROJECT_CONFIG_RESOURCES).
_GATED = (
    "settings.json",
    "mcp.json",
    "extensions",
    "skills",
    "prompts",
    "themes",
    "SYSTEM.md",
    "APPEND_SYSTEM.md",
)


class Trust(NamedTuple):
    """pi's trust decision for the project at a cwd, as a start without a UI makes it."""

    trusted: bool
    # "saved" (trust.json), "nothing to trust", pi's defaultProjectTrust ("ask", "never",
    # "always"), or "ungated": a pi before 0.79, which loads a project's resources untrusted.
    decision: str

    @property
    def asks(self) -> bool:
        """pi started in a terminal asks; until then the project's resources do not load."""
        return self.decision == "ask"


def project_trust(line: PiLine, agent_dir: Path, cwd: Path, home: Path) -> Trust:
    """Whether pi of `line` trusts the project at `cwd` (HOME at `home`)."""
    if not line.trust_gate:
        return Trust(True, "ungated")
    saved = _saved(agent_dir / "trust.json", cwd)
    if saved is not None:
        return Trust(saved, "saved")
    if not _needs_trust(cwd, home):
        return Trust(True, "nothing to trust")
    default = _default(agent_dir / "settings.json")
    return Trust(default == "always", default)


def _needs_trust(cwd: Path, home: Path) -> bool:
    """hasTrustRequiringProjectResources: a gated `.pi/` entry, or a `.agents/skills` in the
    cwd or any parent (not only up to the repository root) that is not HOME's."""
    here = Path(os.path.realpath(cwd))
    if any((here / ".pi" / entry).exists() for entry in _GATED):
        return True
    user = Path(os.path.realpath(home)) / ".agents" / "skills"
    return any(
        (f / ".agents" / "skills").exists() and f / ".agents" / "skills" != user
        for f in (here, *here.parents)
    )


def _saved(store: Path, cwd: Path) -> bool | None:
    """The nearest decision for cwd or a parent; an unreadable store decides nothing."""
    try:
        data = json.loads(store.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    here = Path(os.path.realpath(cwd))
    for folder in (here, *here.parents):
        value = data.get(str(folder))
        if isinstance(value, bool):
            return value
    return None


def _default(settings: Path) -> str:
    try:
        data = json.loads(settings.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError):
        return "ask"
    value = data.get("defaultProjectTrust") if isinstance(data, dict) else None
    return value if value in _DEFAULTS else "ask"
