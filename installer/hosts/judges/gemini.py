"""Gemini CLI's judge: `gemini skills list` (each skill's name, state and location).

Gemini reads `$GEMINI_CLI_HOME/.gemini/skills/<n>/SKILL.md` and
`$GEMINI_CLI_HOME/.agents/skills` (the latter wins a clash, with a warning): its "home" is
GEMINI_CLI_HOME, else HOME. It has no lister for its TOML commands, so commands are found
by its documented layout, `commands/**/<n>.toml` named `ns:n` (tests/e2e/test_host_facts.py
pins that layout on the real binary). At start it writes `projects.json`, `history/` and
`tmp/` into `.gemini`, so it runs on a sandbox whose `.gemini` links to the user's folders.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path

from installer.hosts.judges import Judged, JudgeError, Loaded
from installer.hosts.judges.sandbox import Sandbox, run, version_of

RESOURCES = frozenset({"skills", "commands"})
_HEAD = re.compile(r"^(\S.*?) ((?:\[[^\]]+\] ?)+)$")  # a name may have spaces
_LOCATION = re.compile(r"^\s+Location:\s+(.+)$")


def judge(binary: str, config_dir: Path, home: Path, environ: Mapping[str, str]) -> Judged:
    """The skills Gemini loads from `config_dir` (`<home>/.gemini`) and `home`'s
    `.agents/skills` (`home`: GEMINI_CLI_HOME, else HOME), and the commands its layout gives
    `config_dir/commands`."""
    with Sandbox() as box:
        box.mirror(config_dir, ".gemini", lambda name: name in RESOURCES)
        box.copy(config_dir / "settings.json", ".gemini/settings.json")
        box.link(home / ".agents/skills", ".agents/skills")
        env = box.env(environ, GEMINI_CLI_HOME=str(box.home))
        out = run([binary, "skills", "list"], env, box.cwd)
        if out.returncode != 0:
            tail = next((ln for ln in reversed(out.stderr.splitlines()) if ln.strip()), "")
            raise JudgeError(
                f"gemini skills list failed (exit {out.returncode}): {tail.strip() or 'no output'}",
                "run it by hand with the same GEMINI_CLI_HOME to see its error",
            )
        skills = parse_skills(out.stdout, box.back)
        problems = parse_problems(out.stderr + out.stdout, box.back)
    return Judged(tuple(sorted(skills + commands(config_dir))), problems)


def version(binary: str, environ: Mapping[str, str]) -> str | None:
    """`gemini --version`: `0.61.0`."""
    return version_of(binary, environ)


def parse_skills(text: str, back: Callable[[str], str] = str) -> list[Loaded]:
    """The enabled skills of `gemini skills list`, less its built-ins."""
    found: list[Loaded] = []
    name: str | None = None
    for line in text.splitlines():
        head = _HEAD.match(line)
        if head:
            tags = head[2]
            name = head[1] if "[Enabled]" in tags and "[Built-in]" not in tags else None
            continue
        where = _LOCATION.match(line)
        if where and name is not None:
            found.append(Loaded("skill", name, back(where[1].strip())))
            name = None
    return found


def parse_problems(text: str, back: Callable[[str], str] = str) -> tuple[str, ...]:
    """Gemini's warnings about the skills it found (`Skill conflict detected: ...`)."""
    quoted = re.compile(r'"(/[^"]+)"')
    return tuple(
        quoted.sub(lambda m: f'"{back(m[1])}"', line.strip())
        for line in text.splitlines()
        if line.startswith("Skill conflict detected")
    )


def commands(config_dir: Path) -> list[Loaded]:
    """The commands of `config_dir/commands` by Gemini's layout: `git/commit.toml` is
    `git:commit`; dot folders and files that do not end in `.toml` are not loaded."""
    import os

    root = config_dir / "commands"
    found = []
    for folder, dirs, files in os.walk(root, followlinks=True):  # a linked folder is read too
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = Path(folder, name)
            if name.endswith(".toml") and not name.startswith(".") and path.is_file():
                parts = path.relative_to(root).with_suffix("").parts
                found.append(Loaded("command", ":".join(parts), str(path)))
    return found
