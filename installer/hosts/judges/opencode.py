"""OpenCode's judge: `opencode debug skill` (JSON, with each skill's location) and
`opencode debug config` (the merged config, whose `command` key names each command).

OpenCode reads `$XDG_CONFIG_HOME/opencode/{skill,skills}/**/SKILL.md` and
`{command,commands}/**/*.md`, and also `~/.claude/skills` and `~/.agents/skills`. At start
it writes `opencode.jsonc` and `.gitignore` into its config dir and a database under
XDG_DATA_HOME, so it runs on a sandbox: the config dir a temp folder holding links to the
user's resource folders and copies of the user's config files.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from installer.hosts.judges import Judged, JudgeError, Loaded
from installer.hosts.judges.sandbox import Sandbox, run, version_of

RESOURCES = frozenset({"skill", "skills", "command", "commands"})
CONFIGS = ("opencode.json", "opencode.jsonc", "config.json")
SHARED = (".claude/skills", ".agents/skills")
# Nothing fetched or updated while it is asked.
QUIET = {"OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1"}
# The user's switches that change what it reads (tests/e2e/test_host_facts.py pins them).
SWITCHES = (
    "OPENCODE_DISABLE_EXTERNAL_SKILLS",
    "OPENCODE_DISABLE_CLAUDE_CODE_SKILLS",
    "OPENCODE_DISABLE_CLAUDE_CODE",
)
BUILT_IN = "<built-in>"
Back = Callable[[str], str]


def judge(binary: str, config_dir: Path, home: Path, environ: Mapping[str, str]) -> Judged:
    """The skills and commands OpenCode loads from `config_dir` and `home`'s shared folders."""
    with Sandbox() as box:
        box.mirror(config_dir, ".config/opencode", lambda name: name in RESOURCES)
        for name in CONFIGS:
            box.copy(config_dir / name, f".config/opencode/{name}")
        for rel in SHARED:
            box.link(home / rel, rel)
        switches = {k: environ[k] for k in SWITCHES if k in environ}
        env = box.env(environ, **switches, **QUIET)
        skills = _ask(binary, ["debug", "skill", "--print-logs", "--log-level", "WARN"], box, env)
        config = _ask(binary, ["debug", "config"], box, env)
        loaded = parse_skills(_json(skills.stdout, "debug skill"), box.back)
        loaded += parse_commands(_json(config.stdout, "debug config"), config_dir)
        return Judged(tuple(sorted(loaded)), parse_problems(skills.stderr, box.back))


def version(binary: str, environ: Mapping[str, str]) -> str | None:
    """`opencode --version`: `1.18.33`."""
    return version_of(binary, environ)


def parse_skills(data: Any, back: Back = str) -> list[Loaded]:
    """`debug skill`'s list, less the built-ins, each location mapped out of the sandbox."""
    if not isinstance(data, list):
        raise _unreadable("debug skill", "not a list")
    return [
        Loaded("skill", str(item["name"]), back(str(item["location"])))
        for item in data
        if isinstance(item, dict) and item.get("location") != BUILT_IN and "name" in item
    ]


def parse_commands(data: Any, config_dir: Path) -> list[Loaded]:
    """`debug config`'s commands; a command's file, when it has one in the config dir."""
    if not isinstance(data, dict):
        raise _unreadable("debug config", "not an object")
    commands = data.get("command") or {}
    return [Loaded("command", name, _command_file(config_dir, name)) for name in commands]


def parse_problems(stderr: str, back: Back = str) -> tuple[str, ...]:
    """OpenCode's warnings about what it found (`duplicate skill name`, a bad SKILL.md)."""
    found = []
    for line in stderr.splitlines():
        if "level=WARN" in line or "level=ERROR" in line:
            _, _, rest = line.partition("message=")
            found.append(" ".join(_back_value(word, back) for word in (rest or line).split(" ")))
    return tuple(found)


def _back_value(word: str, back: Back) -> str:
    key, eq, value = word.partition("=")
    return f"{key}={back(value)}" if eq else back(word)


def _command_file(config_dir: Path, name: str) -> str | None:
    for folder in ("commands", "command"):
        candidate = config_dir / folder / f"{name}.md"
        if candidate.is_file():
            return str(candidate)
    return None  # defined in opencode.json itself


def _ask(binary: str, args: list[str], box: Sandbox, env: Mapping[str, str]) -> Any:
    out = run([binary, *args], env, box.cwd)
    if out.returncode != 0:
        tail = next((ln for ln in reversed(out.stderr.splitlines()) if ln.strip()), "no output")
        raise JudgeError(
            f"opencode {' '.join(args[:2])} failed (exit {out.returncode}): {tail.strip()}",
            "run it by hand with the same config dir to see its error",
        )
    return out


def _json(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        raise _unreadable(what, "not JSON") from None


def _unreadable(what: str, why: str) -> JudgeError:
    return JudgeError(
        f"opencode {what} printed what ext cannot read ({why})",
        "check that the opencode binary is a version ext knows (ext doctor)",
    )
