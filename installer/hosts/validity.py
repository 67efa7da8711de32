"""Whether a host loads a skill as the set has it: each host leaves out a skill whose SKILL.md
frontmatter lacks a field it needs (`Host.skill_needs`, pinned in tests/e2e/test_host_facts.py):
Claude Code and Codex CLI a `description`, OpenCode a `name`, Gemini CLI both."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from installer.hosts.profile import Host
    from installer.sets.resources import Resource

_FIELD = re.compile(r"^([A-Za-z_-]+):[ \t]*(\S.*?)?[ \t]*$", re.MULTILINE)


def fields(path: str) -> frozenset[str]:
    """The frontmatter fields of a SKILL.md that have a value; none without frontmatter."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read(8192)
    except OSError:
        return frozenset()
    if not text.startswith("---"):
        return frozenset()
    head = text[3:].split("\n---", 1)[0]
    return frozenset(m.group(1) for m in _FIELD.finditer(head) if m.group(2))


def not_loaded(host: Host, r: Resource) -> str | None:
    """Why the host would not load skill r (a field its frontmatter lacks), or None."""
    if r.kind != "skill" or not host.skill_needs:
        return None
    entries = r.entries()
    if not entries:
        return None
    missing = [f for f in host.skill_needs if f not in fields(entries[0])]
    if not missing:
        return None
    what = " and ".join(f"`{f}`" for f in missing)
    return f"{host.title} does not load a skill whose frontmatter has no {what}"
