"""What a host makes of a skill's SKILL.md: the name it gives the skill, and why it would not
load it at all. Read from the set's own file, so `ext list` says what the host will do."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from installer.hosts.profile import Host

_HEAD = 8192  # a frontmatter is at the top; the rest of a long SKILL.md is not read


def host_name(host: Host, skill_md: str, folder_name: str) -> str:
    """The name `host` gives the skill of `skill_md`: its frontmatter `name` (else its
    folder's), or its folder's for a host that names skills by folder."""
    if host.skill_named_by == "folder":
        return folder_name
    from installer.sets.shared_skills import skill_name

    return skill_name(skill_md)


def refusal(host: Host, skill_md: str) -> str | None:
    """Why `host` would not load the skill of `skill_md` (no frontmatter; YAML its reader
    refuses; a name it needs missing or too long; a description in a state it refuses), or
    None when it would, or ext cannot tell (a value only the host's own parser can judge)."""
    judged = bool(host.skill_needs or host.description_refused or host.yaml_refused)
    judged = judged or host.skill_name_max is not None
    read = _frontmatter_fields(skill_md, host.skill_bom_read) if judged else None
    if read is not None and host.colon_values_read:
        read = _colon_values_read(*read)
    why = _lacks(host, *read) if read is not None else None  # None read: a missing file
    if why is None:
        return None
    does = "offers it as a command only" if host.lacking_as_command else "does not load it"
    return f"{host.title} {does}: {why}"


def _lacks(host: Host, head: str, fields: dict[str, str | None]) -> str | None:
    name = (fields["name"] or "").strip()
    if host.skill_name_max is not None and len(name) > host.skill_name_max:
        return f"its name is {len(name)} characters long, over its {host.skill_name_max}"
    if not head:
        absent = ["description"] if "absent" in host.description_refused else []
        needs = [*host.skill_needs, *absent]
        return f"its SKILL.md has no frontmatter ({', '.join(needs)})" if needs else None
    fault = _fault(host, head)
    if fault is not None:
        return f"its SKILL.md's frontmatter {fault}, which YAML refuses"
    if "name" in host.skill_needs and not name:
        # `name: 42`: the host's parser decides (helper-80: it was said to be no name)
        unread = _state(head, fields["name"], "name") == "unread"
        return None if unread else "its SKILL.md has no name in its frontmatter"
    state = _state(head, fields["description"])
    return f"its SKILL.md {_DESCRIPTION[state]}" if state in host.description_refused else None


_DESCRIPTION = {
    "absent": "has no description in its frontmatter",
    "null": "has an empty description (null, as YAML reads it)",
    "blank": "has a blank description",
    "unread": "has a description that is not text",
}


def _state(head: str, text: str | None, key: str = "description") -> str:
    """The state of the frontmatter's `key` (see Host.description_refused), read as `text`."""
    from installer.sets.yamltext import has_key, is_null

    if text is not None:
        return "blank" if not text.strip() else "text"
    if not has_key(head, key):
        return "absent"
    return "null" if is_null(head, key) else "unread"


_FAULTS = {
    "twice": "gives `{}` twice",
    "alias": "names {}, an anchor it never made",
    "unclosed": "opens a quote for `{}` that never closes",
    "after-quote": "goes on after the closing quote of `{}`",
    "indented": "has `{}` indented under a plain value",
    "tab": "indents `{}` with a tab",
}


def _fault(host: Host, head: str) -> str | None:
    """The first mistake of the frontmatter for which `host` skips the skill, said; or None."""
    if not host.yaml_refused:
        return None
    from installer.sets.yamltext import faults

    for kind, what in faults(head):
        if kind in host.yaml_refused:
            return _FAULTS[kind].format(what)
    return None


_SIMPLE_KEY = re.compile(r"([a-zA-Z_][a-zA-Z0-9_]*)[ \t]*:[ \t]*(.*)")


def _colon_values_read(
    head: str, fields: dict[str, str | None]
) -> tuple[str, dict[str, str | None]]:
    """The frontmatter as a host with OpenCode's fallback reads it, when YAML refuses a value
    ext cannot read: each top-level `key: value` whose plain value holds a colon made a
    literal block of that text (opencode's ConfigMarkdown sanitisation, run when gray-matter
    throws)."""
    from installer.sets.yamltext import faults, text_of

    if all(v is not None for v in fields.values()) and not faults(head):
        return head, fields  # nothing YAML refused here, as far as ext reads it
    lines = []
    for line in head.split("\n"):
        found = _SIMPLE_KEY.fullmatch(line) if line[:1] not in (" ", "\t", "#") else None
        value = found.group(2).strip() if found else ""
        if found and ":" in value and value not in (">", "|") and value[0] not in "'\"":
            lines += [f"{found.group(1)}: |-", f"  {value}"]
        else:
            lines.append(line)
    again = "\n".join(lines)
    return again, {f: text_of(again, f) for f in fields}


def _frontmatter_fields(skill_md: str, bom_read: bool) -> tuple[str, dict[str, str | None]] | None:
    """The frontmatter of `skill_md` and its `name` and `description` as YAML reads them (a
    description in a folded block below its key is there); None when it cannot be read. Line
    ends as every agent reads them (CRLF too), a byte order mark as this one does
    (`bom_read`: skipped; else the file has no frontmatter). Pinned on each binary
    (helper-80: a CRLF SKILL.md, which all four load, was said to have no frontmatter)."""
    from installer.ground.readfile import read_head
    from installer.hosts.toml_commands import split_frontmatter
    from installer.sets.yamltext import text_of

    try:
        text = read_head(skill_md, _HEAD)
    except OSError:
        return None
    text = text.replace("\r\n", "\n")
    if bom_read:
        text = text.removeprefix("\ufeff")
    head, _ = split_frontmatter(text)
    return head, {f: text_of(head, f) for f in ("name", "description")}
