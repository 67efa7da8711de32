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
    """Why `host` would not load the skill of `skill_md` (a frontmatter field it needs is
    missing, or there is no frontmatter), or None when it would, or ext cannot tell."""
    judged = host.skill_needs or host.skill_name_max is not None
    read = _frontmatter_fields(skill_md) if judged else None
    if read is None:  # nothing to judge; or a missing file, the link engine's (stale)
        return None
    head, fields = read
    from installer.sets.yamltext import has_key

    if any(fields[f] is None and has_key(head, f) for f in host.skill_needs):
        # A value ext cannot read as text (`description: "open`): each host's own parser
        # decides, and they differ (helper-77: Claude Code and Gemini CLI load it, Codex CLI
        # and OpenCode do not); said as "no description", it was wrong. doctor --deep asks.
        return None
    does = (
        f"{host.title} offers it as a command only"
        if host.lacking_as_command
        else f"{host.title} does not load it"
    )
    name = (fields["name"] or "").strip()
    if host.skill_name_max is not None and len(name) > host.skill_name_max:
        return f"{does}: its name is {len(name)} characters long, over its {host.skill_name_max}"
    missing = [f for f in host.skill_needs if not (fields[f] or "").strip()]
    if not missing:
        return None
    lacks = f"no {' and '.join(missing)} in its frontmatter"
    if not head:
        lacks = f"no frontmatter ({', '.join(host.skill_needs)})"
    return f"{does}: its SKILL.md has {lacks}"


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
