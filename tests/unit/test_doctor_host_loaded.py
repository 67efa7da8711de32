"""doctor's host.loaded comparison on literal lists: ext's items against a host's judge."""

from __future__ import annotations

from pathlib import Path

from installer.doctor.checks.other_host import compare
from installer.hosts.judges import Loaded
from installer.hosts.table import CLAUDE, GEMINI
from installer.links.states import Item
from installer.sets.resources import Resource

DRAFT = Resource("skill", "draft", "draft", "dir", "/set/skills/draft", "/set/skills/draft")


def test_a_skill_the_host_takes_as_a_command_is_matched_as_one() -> None:
    item = Item(DRAFT, "enabled", "skills/draft", host_kind="command")
    (finding,) = compare([item], [Loaded("command", "draft", None)], CLAUDE)
    assert finding.level == "ok"


def test_a_skill_the_host_refuses_as_ext_said_is_a_warning_naming_why_and_the_file() -> None:
    """ext lists it with why (host.items warns of it): the host agreeing is no new fault, so
    --deep does not make a warning an error (exit 1)."""
    why = "Gemini CLI does not load it: its SKILL.md has no description in its frontmatter"
    item = Item(DRAFT, "enabled", "skills/draft", refused=why)
    findings = list(compare([item], [], GEMINI))
    assert [f.level for f in findings] == ["warn"]
    assert why in findings[0].message
    assert findings[0].fix == "give /set/skills/draft/SKILL.md what it lacks"


def test_a_skill_not_installed_that_the_host_loads_from_a_copy_it_reads_is_an_error() -> None:
    """OpenCode reads ~/.claude/skills, hidden folders too: a skill ext parked there for Claude
    Code (`.off/`) is one OpenCode loads, though ext lists it not installed for OpenCode."""
    from installer.hosts.table import OPENCODE

    item = Item(DRAFT, "not-installed", "skills/draft")
    copied = Loaded(
        "skill", "draft", "/set/skills/draft/SKILL.md"
    )  # the set's, by a link of its own
    other = Loaded("skill", "draft", "/elsewhere/draft/SKILL.md")  # a skill of that name, not ours

    assert [f.level for f in compare([item], [other], OPENCODE)] == ["ok"]
    (finding,) = compare([item], [copied], OPENCODE)
    assert finding.level == "error"
    assert finding.message == (
        "skill:draft: ext lists it not installed here, yet OpenCode loads the set's copy from "
        "/set/skills/draft/SKILL.md"
    )


def test_one_ext_parked_where_the_host_reads_is_a_warning(tmp_path: Path) -> None:
    """Parked (or backed up) by ext in a folder OpenCode reads, which the disable said."""
    from installer.hosts.table import OPENCODE

    skill = tmp_path / "set/skills/draft"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: draft\ndescription: d\n---\n")
    parked = tmp_path / "home/.claude/skills/.off/draft"
    parked.parent.mkdir(parents=True)
    parked.symlink_to(skill)
    r = DRAFT._replace(source=str(skill), real=str(skill))
    loaded = Loaded("skill", "draft", str(parked / "SKILL.md"))
    [finding] = compare([Item(r, "not-installed", "skills/draft")], [loaded], OPENCODE)
    assert finding.level == "warn" and str(parked) in finding.message
