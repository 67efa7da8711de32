"""Claude Code's judge: the `init` line `claude -p --output-format stream-json --verbose`
prints first, whose `skills` and `slash_commands` name what it loaded.

Claude reads `$CLAUDE_CONFIG_DIR/skills/<n>/SKILL.md` (named by the folder) and
`commands/**/<n>.md` (`ns:n`), and not `~/.agents/skills`. The line names only, with its
built-ins mixed in: what a run on an empty config dir also names is a built-in, unless the
user's dirs hold an item of that name. It writes sessions, backups and `.claude.json` into
its config dir, so both runs use a sandbox config dir holding links to the user's folders.
The run is stopped as soon as the line is read, and its API is pointed at a closed
loopback port with no key, so no prompt ever leaves the machine.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from installer.hosts.judges import Judged, JudgeError, Kind, Loaded
from installer.hosts.judges.sandbox import Sandbox, lines, version_of

RESOURCES = frozenset({"skills", "commands"})
ARGS = ("-p", "--output-format", "stream-json", "--verbose", "hi")
OFFLINE = {
    "ANTHROPIC_BASE_URL": "http://127.0.0.1:9",  # discard port: refused at once
    "ANTHROPIC_API_KEY": "",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_TELEMETRY": "1",
}


def judge(binary: str, config_dir: Path, home: Path, environ: Mapping[str, str]) -> Judged:
    """The skills and commands Claude Code loads from `config_dir` (`~/.claude`)."""
    user = _init(binary, environ, config_dir)
    empty = _init(binary, environ, None)
    skills = {name: str(path) for name, path in skill_files(config_dir).items()}
    cmds = {name: str(path) for name, path in command_files(config_dir).items()}
    return Judged(tuple(sorted(parse(user, empty, skills, cmds))))


def version(binary: str, environ: Mapping[str, str]) -> str | None:
    """`claude --version`: `2.1.332 (Claude Code)`."""
    return version_of(binary, environ)


def parse(
    user: dict[str, Any],
    empty: dict[str, Any],
    skills: Mapping[str, str],
    cmds: Mapping[str, str],
) -> list[Loaded]:
    """The items the user's run names that come from the user's dirs: not named by the
    empty run, or named by a file of the user's (`skills`, `cmds`: name to path), as a skill
    or command shadowing a built-in would be."""
    found = []
    table: tuple[tuple[Kind, str, Mapping[str, str]], ...] = (
        ("skill", "skills", skills),
        ("command", "slash_commands", cmds),
    )
    offered_skills = set(_names(user, "skills"))
    for kind, key, files in table:
        builtin = set(_names(empty, key))
        for name in _names(user, key):
            if kind == "command" and name in offered_skills:
                continue  # Claude offers each skill as a slash command too
            if name not in builtin or name in files:
                found.append(Loaded(kind, name, files.get(name)))
    return found


def skill_files(config_dir: Path) -> dict[str, Path]:
    """Each `skills/<n>/SKILL.md` of `config_dir` by the name Claude gives it (the folder's)."""
    root = config_dir / "skills"
    found = {}
    for entry in sorted(root.iterdir()) if root.is_dir() else ():
        if not entry.name.startswith(".") and (entry / "SKILL.md").is_file():
            found[entry.name] = entry / "SKILL.md"
    return found


def command_files(config_dir: Path) -> dict[str, Path]:
    """Each `commands/**/<n>.md` by the name Claude gives it: `git/commit.md` is `git:commit`."""
    import os

    root = config_dir / "commands"
    found = {}
    for folder, dirs, files in os.walk(root, followlinks=True):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = Path(folder, name)
            if name.endswith(".md") and path.is_file():
                found[":".join(path.relative_to(root).with_suffix("").parts)] = path
    return found


def parse_init(text: str) -> dict[str, Any] | None:
    """The `system`/`init` record of one stream-json line, else None."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if isinstance(data, dict) and data.get("type") == "system" and data.get("subtype") == "init":
        return data
    return None


def _init(binary: str, environ: Mapping[str, str], config_dir: Path | None) -> dict[str, Any]:
    with Sandbox() as box:
        place = box.home / ".claude"
        place.mkdir()
        if config_dir is not None:
            box.mirror(config_dir, ".claude", lambda name: name in RESOURCES)
            settings = quiet_settings(config_dir / "settings.json")
            if settings is not None:
                box.write(".claude/settings.json", settings)
        env = box.env(environ, CLAUDE_CONFIG_DIR=str(place), **OFFLINE)
        done = lambda ln: parse_init(ln) is not None  # noqa: E731
        seen = lines([binary, *ARGS], env, box.cwd, done, close=True)
    record = parse_init(seen[-1]) if seen else None
    if record is None:
        tail = (seen[-1].strip() if seen else "") or "no output"
        raise JudgeError(
            f"claude printed no init record ({tail[:200]})",
            "check that the claude binary is a version ext knows (ext doctor)",
        )
    return record


# The settings.json keys the judge's run keeps: what may shape which skills and commands
# Claude Code offers (its permission rules). Every other key is left out: many run a program
# (`hooks`, `apiKeyHelper`, `statusLine`, `env`, `awsAuthRefresh`, …), and a list of those
# would miss the next one Claude adds (helper-79: a cloned set's `[hosts.claude] agent_dir`
# ran its SessionStart hook and apiKeyHelper in `ext doctor --deep`; helper-80).
KEPT = ("permissions",)


def quiet_settings(path: Path) -> str | None:
    """The user's settings.json for the judge's run: its KEPT keys alone, and every hook off;
    None when there is none that parses as an object (Claude reads none then either)."""
    from installer.ground.readfile import read_head

    try:
        data = json.loads(read_head(str(path), 1 << 20))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    kept = {k: v for k, v in data.items() if k in KEPT}
    return json.dumps({**kept, "disableAllHooks": True})


def _names(record: dict[str, Any], key: str) -> list[str]:
    value = record.get(key)
    if not isinstance(value, list):
        raise JudgeError(
            f"claude's init record has no {key} list",
            "check that the claude binary is a version ext knows (ext doctor)",
        )
    return [str(name) for name in value]
