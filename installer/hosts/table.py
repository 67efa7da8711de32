"""Every host ext installs into, one row each; the facts are pinned against the real binaries
in tests/e2e/test_host_facts.py (pi's in tests/e2e/test_pi_lines.py).

pi is the first host and the default. The others take what a set has in the Agent Skills
format (`skills/<name>/SKILL.md`) and its prompt templates, which they call commands.
"""

from __future__ import annotations

from installer.ground.errors import UsageError
from installer.hosts.profile import Host, Place

_PI_ONLY = "an extension runs inside pi only: {title} has no loader for it"
_THEME = "a theme is pi's own screen's: {title} has no pi themes"


def _not_pi(title: str) -> dict[str, str]:
    return {"extension": _PI_ONLY.format(title=title), "theme": _THEME.format(title=title)}


PI = Host(
    name="pi",
    title="pi",
    dir_var="PI_CODING_AGENT_DIR",
    default_dir="(ext's isolated agent dir)",
    places=(
        Place("extension", "extensions"),
        Place("skill", "skills"),
        Place("prompt", "prompts", word="prompt"),
        Place("theme", "themes"),
    ),
    # pi reads ~/.agents/skills too, but loads one real file once, silently (pinned in
    # tests/fs/test_shared_skills.py): a skill linked there and here is no twin for pi.
    binary="pi",
    package="@earendil-works/pi-coding-agent",
    picks_up="running sessions pick this up at their next /reload",
)

CLAUDE = Host(
    name="claude",
    title="Claude Code",
    dir_var="CLAUDE_CONFIG_DIR",
    default_dir="~/.claude",
    places=(Place("skill", "skills"), Place("prompt", "commands", word="command")),
    binary="claude",
    package="@anthropic-ai/claude-code",
    why_not=_not_pi("Claude Code"),
    login="~/.claude/.credentials.json",
    description_refused=("absent", "null", "blank"),
    # these its reader refuses, and it takes the skill as if it had no description: a command
    yaml_refused=("unclosed", "after-quote", "indented"),
    skill_bom_read=True,
    picks_up="Claude Code reads it at its next start",
    skill_named_by="folder",
    lacking_as_command=True,
    skill_hides_command=True,
    unset_at_default=True,
)

CODEX = Host(
    name="codex",
    title="Codex CLI",
    dir_var="CODEX_HOME",
    default_dir="~/.codex",
    # Codex reads skills from the shared ~/.agents/skills; $CODEX_HOME/skills is deprecated.
    places=(Place("skill", "~/.agents/skills"), Place("prompt", "prompts", word="prompt")),
    binary="codex",
    package="@openai/codex",
    why_not=_not_pi("Codex CLI"),
    login="$CODEX_HOME/auth.json",
    description_refused=("absent", "null", "blank"),
    # unread: `42` loads; `"open` does not, a quote that never closes (yaml_refused)
    yaml_refused=("twice", "alias", "unclosed", "after-quote", "indented", "tab"),
    skill_name_max=64,
    picks_up="Codex CLI reads it at its next start",
)

OPENCODE = Host(
    name="opencode",
    title="OpenCode",
    dir_var="XDG_CONFIG_HOME",
    default_dir="$XDG_CONFIG_HOME/opencode",
    places=(Place("skill", "skills"), Place("prompt", "commands", word="command")),
    also_reads=("~/.claude/skills", "~/.agents/skills"),
    # Pinned against the real OpenCode in tests/e2e/test_host_facts.py.
    reads_hidden=True,
    unread_by=(
        ("OPENCODE_DISABLE_CLAUDE_CODE_SKILLS", ("~/.claude/skills",)),
        ("OPENCODE_DISABLE_CLAUDE_CODE", ("~/.claude/skills",)),
        ("OPENCODE_DISABLE_EXTERNAL_SKILLS", ("~/.claude/skills", "~/.agents/skills")),
    ),
    binary="opencode",
    package="opencode-ai",
    why_not=_not_pi("OpenCode"),
    var_names_home=True,
    var_shared=True,
    login="~/.local/share/opencode/auth.json",
    # The switch's effect is pinned against the real OpenCode in tests/e2e/test_host_facts.py.
    shared_twice_fix="set OPENCODE_DISABLE_CLAUDE_CODE_SKILLS=1 for OpenCode to read only "
    "~/.agents/skills (its own switch)",
    skill_needs=("name",),
    description_refused=("null", "unread"),  # absent or blank: it loads
    skill_bom_read=True,
    colon_values_read=True,
    yaml_refused=("twice", "alias", "unclosed", "after-quote", "indented"),  # a tab: it reads
    picks_up="OpenCode reads it at its next start",
)

GEMINI = Host(
    name="gemini",
    title="Gemini CLI",
    dir_var="GEMINI_CLI_HOME",
    default_dir="~/.gemini",
    places=(Place("skill", "skills"), Place("prompt", "commands", "toml", word="command")),
    also_reads=("~/.agents/skills",),
    binary="gemini",
    package="@google/gemini-cli",
    why_not=_not_pi("Gemini CLI"),
    var_names_home=True,
    login="~/.gemini/oauth_creds.json",
    reads_home_var="GEMINI_CLI_HOME",
    skill_needs=("name",),
    description_refused=("absent",),  # there at all, even null: it loads
    # Gemini CLI has /skills reload and /commands reload (its bundle's slash commands).
    picks_up="running Gemini CLI sessions pick this up at /skills reload or /commands reload",
)

HOSTS: dict[str, Host] = {h.name: h for h in (PI, CLAUDE, CODEX, OPENCODE, GEMINI)}


def host_named(name: str | None, source: str = "--host") -> Host:
    """The host --host (or EXT_HOST) names; pi when none is named."""
    if not name:
        return PI
    found = HOSTS.get(name.strip().lower())
    if found is None:
        import difflib

        close = difflib.get_close_matches(name, HOSTS, n=1)
        hint = f"did you mean {close[0]}? " if close else ""
        raise UsageError(
            f"{source}: no host named {name!r}",
            f"{hint}ext knows {', '.join(HOSTS)}",
        )
    return found
