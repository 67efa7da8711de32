"""What a hook configuration would run: one HookCommand per hook, in file order.

The format is Claude Code's: `{"<Event>": [{"matcher": "Bash", "hooks":
[{"type": "command", "command": "...", "timeout": 5}]}]}`. Anything that does
not fit is still listed, as its raw JSON, so a review never hides a hook.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from installer.ground.screen import visible

__all__ = ["UNRECOGNISED", "HookCommand", "list_commands", "visible"]

UNRECOGNISED = "unrecognised"
# The longest the project-hooks extension runs a hook, whatever its `timeout` says (its twin:
# MAX_TIMEOUT_S in extensions/project-hooks/hooks.ts).
MAX_TIMEOUT_S = 3600


@dataclass(frozen=True)
class HookCommand:
    """One hook: where it comes from, when it fires, and what it runs."""

    source: str
    event: str
    matcher: str | None
    command: str
    kind: str = "command"
    timeout: int | float | None = None
    # Why pi's project-hooks passes this hook over (its matcher, its timeout), else None: a
    # review shows it as not run, as pi's own dialog does (helper-45).
    not_run: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The hook as a JSON object."""
        return {
            "source": self.source,
            "event": self.event,
            "matcher": self.matcher,
            "type": self.kind,
            "command": self.command,
            "timeout": self.timeout,
            "not_run": self.not_run,
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
        why = group_not_run(group.get("matcher"))
        for hook in group["hooks"]:
            command = _hook(source, event, matcher, hook)
            if why is not None and command.kind == "command":
                command = replace(command, not_run=f"its matcher {why}")
            found.append(command)
    return found


def _hook(source: str, event: str, matcher: str | None, hook: Any) -> HookCommand:
    if not isinstance(hook, dict):
        return _raw(source, event, matcher, hook)
    kind = hook.get("type")
    text = hook.get("command") if kind == "command" else hook.get("prompt")
    timeout = hook.get("timeout")
    if not isinstance(kind, str) or not isinstance(text, str) or not _is_number(timeout):
        return _raw(source, event, matcher, hook)
    bad = timeout is not None and not timeout > 0  # a number, and not a positive one
    not_run = "its timeout is not a positive number" if bad and kind == "command" else None
    return HookCommand(source, event, matcher, text, kind, timeout, not_run)


def quoted(matcher: str) -> str:
    """A matcher in double quotes as JSON writes it: a `"` of its own cannot close the quote
    and draw text of its choosing after it (helper-79, helper-92)."""
    return '"' + matcher.replace("\\", "\\\\").replace('"', '\\"') + '"'


def group_not_run(matcher: Any) -> str | None:
    """Why a group's hooks are not run for its matcher, or None: absent, or a pattern that
    cannot take unbounded time (the twin of groupNotRun in project-hooks/hooks.ts)."""
    if matcher is None:
        return None
    if not isinstance(matcher, str):
        return "is not a pattern"
    return unsafe_matcher(matcher)


def unsafe_matcher(matcher: str) -> str | None:
    """Why a matcher could take unbounded time on a short subject, or None: JavaScript cannot
    stop a regular expression once started (helper-45: one froze pi at start). The rule of
    unsafeMatcher in project-hooks/hooks.ts, held to tests/hooks-run-vectors.json: a group
    repeated more than once that holds a repeat or a choice; more than 5 repeats and choices
    (`*`, `+`, `?`, `{n,m}`, a `|` inside a group) in one top-level alternative, or 12 in
    all (helper-50: each bound alone let `(.|.)` x25 and 21 alternatives of five `.*` by);
    a back-reference; unbalanced parentheses; over 256 UTF-16 units."""
    if len(matcher.encode("utf-16-le", "surrogatepass")) // 2 > 256:  # UTF-16 units, as JS
        return "is longer than 256 characters"
    groups: list[bool] = []  # per open group: whether it repeats or chooses inside
    here = total = 0  # repeats and choices: in this top-level alternative, and in all
    for part, at in _tokens(matcher):
        if part == "backref":
            return "refers back to a group"
        if part == "(":
            groups.append(False)
        elif part == ")":
            if not groups:  # it would close the `^(?:…)$` pi tries it in (helper-46)
                return "is not a balanced pattern"
            inner = groups.pop()
            if inner and _quantifier(matcher, at + 1) == "repeat":  # `{30}` too
                return "repeats a group that repeats or chooses inside it"
            if groups and inner:
                groups[-1] = True
        elif part == "|" and not groups:
            here = 0  # a top-level alternative is tried on its own (helper-49)
        else:  # a repeat, a choice, or a `|` inside a group
            here, total = here + 1, total + 1
            if groups:
                groups[-1] = True
            if here > 5 or total > 12:
                return "repeats or chooses more than 5 times in one alternative, or 12 in all"
    return "is not a balanced pattern" if groups else None


def _tokens(matcher: str) -> Iterator[tuple[str, int]]:
    """The parts of a pattern the rule reads, with where each is: `(`, `)`, `|`, a `repeat`
    (`*`, `+`, `{2}`, `{1,3}`, `{2,}`), a `choice` (`?`, `{0,1}`), a `backref`; escapes and
    `[…]` classes are passed over whole, `(?:` and a lazy `*?` are no choice."""
    i = 0
    while i < len(matcher):
        c = matcher[i]
        if c == "\\":
            if matcher[i + 1 : i + 2] and matcher[i + 1] in "123456789k":
                yield "backref", i
            i += 1
        elif c == "[":
            i += 1
            while i < len(matcher) and matcher[i] != "]":
                i += 2 if matcher[i] == "\\" else 1
        elif c in "()|":
            yield c, i
        elif (kind := _quantifier(matcher, i)) is not None and not _modifies(matcher, i):
            yield kind, i
        i += 1


def _quantifier(text: str, at: int) -> str | None:
    """What `text[at]` starts: a `repeat` (more than once), a `choice` (once or not), else
    None (not a quantifier, or `{1}`)."""
    c = text[at : at + 1]
    if c in ("*", "+"):
        return "repeat"
    if c == "?":
        return "choice"
    found = _BRACES.match(text, at) if c == "{" else None
    if found is None:
        return None
    most = found.group(1) if found.group(2) is None else found.group(3)
    if most == "" or int(most) > 1:
        return "repeat"
    return "choice" if int(found.group(1) or 0) == 0 and most != "0" else None


def _modifies(text: str, at: int) -> bool:
    """Whether a `?` at `at` is syntax, not a choice: `(?:`, `(?=`, or a lazy `*?`."""
    return text[at] == "?" and at > 0 and text[at - 1] in "(*+?}"


_BRACES = re.compile(r"\{([0-9]*)(,([0-9]*))?\}")  # ASCII digits, as JavaScript's `\d`


def _matcher(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))  # as JSON.stringify


def _is_number(value: Any) -> bool:
    return value is None or (isinstance(value, int | float) and not isinstance(value, bool))


def _raw(source: str, event: str, matcher: str | None, value: Any) -> HookCommand:
    # Compact JSON, as pi's dialog shows it with JSON.stringify (helper-45); the two may
    # differ in a number's form (1.0 here, 1 there) or an integer-like key's place, never
    # in what is approved: the hash is of the canonical form (helper-52)
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return HookCommand(source, event, matcher, text, UNRECOGNISED)
