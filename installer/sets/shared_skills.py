"""The shared skills folders: a set's skill whose name pi also finds in `.agents/skills`.

pi (0.73 and 1.x) loads skills from `~/.agents/skills` (of HOME) and from `.agents/skills` in
the cwd and each parent up to the repository root (dist/core/package-manager.js
`addAutoDiscoveredResources`, `collectAncestorAgentsSkillDirs`); on 1.x the project ones only
once the project is trusted (installer/host/trust.py). Two skills of one name: pi loads the
first it meets and reports a collision (dist/core/skills.js `loadSkills`). Asked with both
present, both pis' loaders meet a project's copy first; then, in link mode, the agent dir's
`skills/` before `~/.agents/skills`, and in register mode `~/.agents/skills` before the
set's package (tests/conformance/test_shared_names.py pins this against each real pi).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from installer.ground.records import NamedTuple
from installer.host.trust import Trust
from installer.sets.resources import Resource

TYPE_CHECKING = False
if TYPE_CHECKING:
    from installer.ground.context import Context
    from installer.host.lines import PiLine


class Shared(NamedTuple):
    """A skill in a shared folder: pi's name for it, its file, and whether a project's."""

    name: str
    path: str
    project: bool


class Twin(NamedTuple):
    """A skill of the set and a shared skill of the same name: the one pi loads, and why."""

    resource: Resource
    shared: Shared
    set_wins: bool  # pi loads the set's copy (the shared one is the collision)
    trust: Trust | None = None  # the project's, when the shared copy is a project's

    @property
    def pending(self) -> bool:
        """The project's copy waits for trust: pi asks, and until then loads the set's."""
        return self.trust is not None and self.trust.asks

    @property
    def what(self) -> str:
        """Both copies, and which one pi loads."""
        where = f"a skill named {self.shared.name!r} is also in {self.shared.path}"
        if self.pending:
            return f"{where}; pi loads the set's until you trust this project, then that one"
        loads = "the set's," if self.set_wins else "that one, not the set's,"
        return f"{where}; pi loads {loads} and warns of a collision"

    @property
    def fix(self) -> str:
        from installer.ground.shellword import shell_word

        keep = f"`ext disable {shell_word(self.resource.label)}` keeps the shared one"
        return f"remove or rename one of them ({keep})"

    @property
    def note(self) -> str:
        """For `ext list`: what and the fix, in one note."""
        return f"{self.what}; {self.fix}"

    @property
    def warning(self) -> str:
        """For install's plan: the item, what, and the fix."""
        return f"{self.resource.label}: {self.note}"


def skill_name(path: str) -> str:
    """pi's name for a skill file: its frontmatter `name`, else its folder's name."""
    from installer.ground.readfile import read_head

    try:
        text = read_head(path, 8192)
    except OSError:
        text = ""
    from installer.sets.yamltext import text_of

    head = text.split("\n---", 1)[0] if text.startswith("---") else ""
    name = (text_of(head, "name") or "").strip()  # as YAML reads it: quotes, escapes
    return name or os.path.basename(os.path.dirname(path))


def folders(home: Path, cwd: Path | None) -> list[tuple[Path, bool]]:
    """The shared folders pi reads, in the order it meets them: (folder, is a project's)."""
    user = home / ".agents" / "skills"
    out = []
    if cwd is not None:
        here = Path(os.path.abspath(cwd))
        for folder in (here, *here.parents):
            if folder / ".agents" / "skills" != user:
                out.append((folder / ".agents" / "skills", True))
            if (folder / ".git").exists():
                break  # the repository's root is the last project folder
    return [*out, (user, False)]


def shared(home: Path, cwd: Path | None) -> Iterator[Shared]:
    """Every skill in the shared folders, in pi's order."""
    from installer.sets.pirules import agents_skill_files

    for folder, project in folders(home, cwd):
        if folder.is_dir():
            for path in agents_skill_files(str(folder)):
                yield Shared(skill_name(path), path, project)


def twins(
    resources: Iterable[Resource],
    mode: str,
    home: Path,
    cwd: Path | None,
    trust: Callable[[], Trust],
) -> list[Twin]:
    """The set's skills whose name a shared folder holds too; `trust` is asked only for a
    project's copy (it may find pi)."""
    skills = [r for r in resources if r.kind == "skill"]
    if not skills:
        return []
    by_name: dict[str, list[Shared]] = {}
    for s in shared(home, cwd):
        by_name.setdefault(s.name, []).append(s)
    out = []
    for r in skills:
        mine = r.entries()
        copies = by_name.get(skill_name(mine[0]), []) if mine else []
        found = _twin(r, copies, mode, trust)
        out += [found] if found is not None else []
    return out


def _twin(r: Resource, copies: list[Shared], mode: str, trust: Callable[[], Trust]) -> Twin | None:
    """The copy that competes with the set's (pi's order): the first one pi loads now, else a
    project's that waits for trust."""
    mine = r.entries()
    waiting = None
    for other in copies:
        if os.path.realpath(other.path) in mine:
            return None  # the set's own file, met again: pi loads it once, silently
        if not other.project:
            return Twin(r, other, set_wins=mode == "link")
        decided = trust()
        if decided.trusted:
            return Twin(r, other, set_wins=False, trust=decided)
        if decided.asks:  # else pi never loads that project's skills
            waiting = waiting or Twin(r, other, set_wins=True, trust=decided)
    return waiting


def twins_here(
    ctx: Context, resources: Iterable[Resource], mode: str, line: PiLine | None = None
) -> list[Twin]:
    """twins() for a command's context: HOME and the cwd it runs in, and pi's trust for the
    cwd, by `line` (else the line of the pi on PATH, else today's)."""
    import functools

    home = Path(ctx.env.environ.get("HOME") or Path.home())
    trust = functools.cache(lambda: _trust(ctx, line, home))
    return twins(resources, mode, home, ctx.env.cwd, trust)


def _trust(ctx: Context, line: PiLine | None, home: Path) -> Trust:
    from installer.host.trust import project_trust

    if line is None:
        line = ctx.pi_line()  # from pi's package.json: inspecting a set runs nothing of it
    return project_trust(line, ctx.agent_dir, ctx.env.cwd or Path.cwd(), home)
