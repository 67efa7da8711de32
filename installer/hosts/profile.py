"""What ext needs to know of a host to install a set's items into it: one NamedTuple per host."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    # a type alias made at import costs every run that loads this module (pi's too)
    DescriptionState = Literal["absent", "null", "blank", "unread"]
    from installer.sets.resources import Kind

    # How an item lands in a host: a link to the set's own file or folder, or a file ext writes
    # (the host reads another format than the set holds: Gemini CLI's TOML commands).
    Form = Literal["link", "toml"]


_TRUTHY = frozenset({"1", "true", "yes", "on", "y"})


class Place(NamedTuple):
    """Where one kind of the set's items goes in a host.

    `folder` is relative to the host's config dir, or to HOME when it starts with `~/` (a
    folder several hosts share, as `~/.agents/skills`). An item is switched off by the rules
    of the link engine: a file gets `.off`, a folder is parked in `<folder>/.off/`; each
    host's judge proves in tests/e2e/test_host_facts.py that it loads neither.
    """

    kind: Kind
    folder: str
    form: Form = "link"
    word: str = ""  # what the host calls the kind: "command" for a prompt template


class Host(NamedTuple):
    """One agent ext installs into.

    Hooks are not here yet: a set's Claude-format hooks for Claude Code, Codex CLI and Gemini
    CLI (with consent) would be a field of their own, the file each reads them from and how
    it names the events, beside `places`, with nothing in the engine to change."""

    name: str  # what --host and EXT_HOST take: "claude"
    title: str  # what a person reads: "Claude Code"
    dir_var: str | None  # the variable the host itself reads for its dir: CLAUDE_CONFIG_DIR
    default_dir: str  # its dir when nothing names one: "~/.claude"; "$XDG_CONFIG_HOME/…" too
    places: tuple[Place, ...]
    # Skill folders the host reads besides its own places (HOME-relative, `~/…`): an item ext
    # links into one of them is found there, so it is not linked into the host's own as well.
    also_reads: tuple[str, ...] = ()
    # It loads the skills in their hidden folders too: what ext parks there (`.off/`) or
    # backs up (`.bak/`) for the host whose folder it is.
    reads_hidden: bool = False
    # The user's switches that stop the host reading some of them: (variable, folders).
    unread_by: tuple[tuple[str, tuple[str, ...]], ...] = ()
    binary: str = ""  # the command that starts it, found on PATH
    package: str = ""  # the npm package it is published as, for a hint that installs it
    why_not: Mapping[str, str] = {}  # kind -> why the host takes none of that kind
    # The dir var names the home the config dir sits in, not the dir (GEMINI_CLI_HOME).
    var_names_home: bool = False
    # The dir var is not the host's alone (XDG_CONFIG_HOME): set, it moves other apps' too.
    var_shared: bool = False
    # Where the login lives: why the default is the host's own dir, not an isolated one.
    login: str = ""
    # The variable naming the home `also_reads` is under, when not HOME (Gemini CLI reads
    # `.agents/skills` under GEMINI_CLI_HOME).
    reads_home_var: str | None = None
    # When the host sees an enable or disable: said after one (`ext enable`, `ext disable`).
    picks_up: str = ""
    # What names a skill in the host: its SKILL.md's frontmatter `name` (the Agent Skills
    # format's rule), or its folder's name (Claude Code). ext names a skill by its folder.
    skill_named_by: Literal["frontmatter", "folder"] = "frontmatter"
    # The SKILL.md frontmatter fields without which the host does not load a skill (none
    # without frontmatter); it skips the skill, silently. Pinned on each real binary:
    # tests/e2e/test_host_facts.py and tests/conformance/test_hosts_conformance.py.
    skill_needs: tuple[Literal["name"], ...] = ()
    # How the host takes a SKILL.md's `description` in each state ext reads it in: absent,
    # null (`description:`, `~`), blank (`""`, `'  '`), unread (there, not null, yet no text
    # YAML gives ext: `42`, a list, `"open`). A state in `description_refused` keeps the skill
    # out; any other loads, as far as ext says (where the host's parser alone can tell, as
    # Codex CLI's for unread, loading `42` and skipping `"open`, ext claims nothing and
    # doctor --deep asks it). Pinned on each binary (helper-78):
    # tests/conformance/test_hosts_conformance.py.
    description_refused: tuple[DescriptionState, ...] = ()  # a tuple: pytest's ids, in order
    # Whether the host reads a SKILL.md that starts with a byte order mark (Claude Code and
    # OpenCode skip it; Codex CLI and Gemini CLI see no frontmatter then). Pinned on each
    # binary in tests/conformance/test_hosts_conformance.py.
    skill_bom_read: bool = False
    # Whether the host, when YAML refuses a frontmatter, reads it again with each top-level
    # `key: value` whose value holds a colon taken as that text (OpenCode's fallback, for
    # `description: Use when: x`, which YAML refuses; OpenCode 1.18 loads it, where ext said
    # it did not). Pinned in test_hosts_conformance.py.
    colon_values_read: bool = False
    # The mistakes of a frontmatter (installer.sets.yamltext.faults) its YAML reader refuses,
    # so that the host skips the skill (Codex CLI, OpenCode after its fallback), or takes it as
    # a command (Claude Code, `lacking_as_command`, for three of them); Gemini CLI reads past
    # them all. Pinned on each binary in tests/conformance/test_hosts_conformance.py.
    yaml_refused: tuple[str, ...] = ()
    # The longest frontmatter `name` the host loads a skill with (None: no limit it keeps).
    skill_name_max: int | None = None
    # How to make the host read one of two shared folders that both hold a skill ext linked
    # there (for two other hosts), which it would otherwise report as a duplicate.
    shared_twice_fix: str = ""
    # At its own default dir the host runs with its variable unset, not set to that dir:
    # Claude Code reads `~/.claude.json` from inside CLAUDE_CONFIG_DIR once that is set.
    unset_at_default: bool = False
    # Claude Code does load a skill that lacks them, as a slash command only (no model use).
    lacking_as_command: bool = False
    # Skills and commands share one slash name, and the skill's wins: a command named as a
    # skill it loads is not offered (Claude Code; pinned in test_hosts_conformance.py).
    skill_hides_command: bool = False

    def skill_folders(self) -> tuple[str, ...]:
        """Its skill folders as another host's `also_reads` names them, at its default dir
        (`~/.agents/skills`, `~/.claude/skills`)."""
        return tuple(
            p.folder if p.folder.startswith("~/") else f"{self.default_dir}/{p.folder}"
            for p in self.places
            if p.kind == "skill"
        )

    def reads(self, environ: Mapping[str, str]) -> tuple[str, ...]:
        """`also_reads`, less the folders a switch set in `environ` keeps the host out of
        (set as OpenCode reads it: `1`, `true`, `yes`, `on`, `y`, as written)."""
        off = {
            folder
            for var, folders in self.unread_by
            if environ.get(var, "") in _TRUTHY
            for folder in folders
        }
        return tuple(f for f in self.also_reads if f not in off)

    @property
    def is_pi(self) -> bool:
        return self.name == "pi"

    def place(self, kind: str) -> Place | None:
        return next((p for p in self.places if p.kind == kind), None)

    def folders(self, home: Path) -> tuple[str, ...]:
        """The folders ext scans and writes in, as the link engine names them: relative to
        the config dir, or absolute for a HOME folder."""
        return tuple(folder_of(p, home) for p in self.places)


def folder_of(place: Place, home: Path) -> str:
    """A place's folder as the engine names it: `skills`, or `/home/u/.agents/skills`."""
    if place.folder.startswith("~/"):
        return str(home / place.folder[2:])
    return place.folder
