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
    missing, or there is no frontmatter), or None when it would."""
    if not host.skill_needs and host.skill_name_max is None:
        return None
    from installer.ground.readfile import read_head

    try:
        text = read_head(skill_md, _HEAD)
    except OSError:
        return None  # a missing file is the link engine's to report (stale)
    from installer.hosts.toml_commands import split_frontmatter
    from installer.sets.yamltext import text_of

    head, _ = split_frontmatter(text)
    # As YAML reads them: a description in a folded block below its key is there.
    fields = {f: text_of(head, f) for f in ("name", "description")}
    missing = [f for f in host.skill_needs if not (fields[f] or "").strip()]
    does = (
        f"{host.title} offers it as a command only"
        if host.lacking_as_command
        else f"{host.title} does not load it"
    )
    name = (fields["name"] or "").strip()
    if host.skill_name_max is not None and len(name) > host.skill_name_max:
        return f"{does}: its name is {len(name)} characters long, over its {host.skill_name_max}"
    if not missing:
        return None
    if not head:
        return f"{does}: its SKILL.md has no frontmatter ({', '.join(host.skill_needs)})"
    what = " and ".join(missing)
    return f"{does}: its SKILL.md has no {what} in its frontmatter"
