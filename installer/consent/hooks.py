"""What a hook configuration would run: one HookCommand per hook, in file order.

The format is Claude Code's: `{"<Event>": [{"matcher": "Bash", "hooks":
[{"type": "command", "command": "...", "timeout": 5}]}]}`. Anything that does
not fit is still listed, as its raw JSON, so a review never hides a hook.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from installer.ground.screen import visible

__all__ = ["UNRECOGNISED", "HookCommand", "list_commands", "visible"]

UNRECOGNISED = "unrecognised"


@dataclass(frozen=True)
class HookCommand:
    """One hook: where it comes from, when it fires, and what it runs."""

    source: str
    event: str
    matcher: str | None
    command: str
    kind: str = "command"
    timeout: int | float | None = None

    def to_json(self) -> dict[str, Any]:
        """The hook as a JSON object."""
        return {
            "source": self.source,
            "event": self.event,
            "matcher": self.matcher,
            "type": self.kind,
            "command": self.command,
            "timeout": self.timeout,
        }


def list_commands(config: Mapping[str, Any]) -> list[HookCommand]:
    """Every hook in a `{source: hooks}` config, in source, event and file order."""
    found: list[HookCommand] = []
    for source, hooks in config.items():
        for event, groups in hooks.items():
            found.extend(_event_commands(source, event, groups))
    return found


def _event_commands(source: str, event: str, groups: Any) -> list[HookCommand]:
    if not isinstance(groups, list):
        return [_raw(source, event, None, groups)]
    found: list[HookCommand] = []
    for group in groups:
        if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
            found.append(_raw(source, event, None, group))
            continue
        matcher = _matcher(group.get("matcher"))
        found.extend(_hook(source, event, matcher, hook) for hook in group["hooks"])
    return found


def _hook(source: str, event: str, matcher: str | None, hook: Any) -> HookCommand:
    if not isinstance(hook, dict):
        return _raw(source, event, matcher, hook)
    kind = hook.get("type")
    text = hook.get("command") if kind == "command" else hook.get("prompt")
    timeout = hook.get("timeout")
    if not isinstance(kind, str) or not isinstance(text, str) or not _is_number(timeout):
        return _raw(source, event, matcher, hook)
    return HookCommand(source, event, matcher, text, kind, timeout)


def _matcher(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _is_number(value: Any) -> bool:
    return value is None or (isinstance(value, int | float) and not isinstance(value, bool))


def _raw(source: str, event: str, matcher: str | None, value: Any) -> HookCommand:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return HookCommand(source, event, matcher, text, UNRECOGNISED)
