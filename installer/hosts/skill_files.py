"""What a host makes of a skill's SKILL.md: the name it gives the skill, and why it would not
load it at all. Read from the set's own file, so `ext list` says what the host will do."""

from __future__ import annotations

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
    """Why `host` would not load the skill of `skill_md` (no frontmatter; a name it needs
    missing or too long; a description in a state it refuses), or None when it would, or
    ext cannot tell (a description whose value only the host's own parser can judge)."""
    judged = host.skill_needs or host.skill_name_max is not None or host.description_refused
    read = _frontmatter_fields(skill_md) if judged else None
    if read is None:  # nothing to judge; or a missing file, the link engine's (stale)
        return None
    head, fields = read
    does = (
        f"{host.title} offers it as a command only"
        if host.lacking_as_command
        else f"{host.title} does not load it"
    )
    name = (fields["name"] or "").strip()
    if host.skill_name_max is not None and len(name) > host.skill_name_max:
        return f"{does}: its name is {len(name)} characters long, over its {host.skill_name_max}"
    if not head:
        needs = [
            *host.skill_needs,
            *(["description"] if "absent" in host.description_refused else []),
        ]
        return f"{does}: its SKILL.md has no frontmatter ({', '.join(needs)})" if needs else None
    state = _state(head, fields["description"])
    if "name" in host.skill_needs and not name:
        return f"{does}: its SKILL.md has no name in its frontmatter"
    if state in host.description_unknown or state not in host.description_refused:
        return None
    return f"{does}: its SKILL.md {_DESCRIPTION[state]}"


_DESCRIPTION = {
    "absent": "has no description in its frontmatter",
    "null": "has an empty description (null, as YAML reads it)",
    "blank": "has a blank description",
    "unread": "has a description that is not text",
}


def _state(head: str, text: str | None) -> str:
    """The state of the frontmatter's `description` (see Host.description_refused)."""
    from installer.sets.yamltext import has_key, is_null

    if text is not None:
        return "blank" if not text.strip() else "text"
    if not has_key(head, "description"):
        return "absent"
    return "null" if is_null(head, "description") else "unread"


def _frontmatter_fields(skill_md: str) -> tuple[str, dict[str, str | None]] | None:
    """The frontmatter of `skill_md` and its `name` and `description` as YAML reads them (a
    description in a folded block below its key is there); None when it cannot be read."""
    from installer.ground.readfile import read_head
    from installer.hosts.toml_commands import split_frontmatter
    from installer.sets.yamltext import text_of

    try:
        text = read_head(skill_md, _HEAD)
    except OSError:
        return None
    head, _ = split_frontmatter(text)
    return head, {f: text_of(head, f) for f in ("name", "description")}
