"""Codex CLI's judge: `codex app-server` over stdio JSON-RPC, asked `skills/list`.

Codex reads `~/.agents/skills` and (still) `$CODEX_HOME/skills`, names a skill by its
frontmatter, and reports each path with links resolved. At start it writes its `.system`
skills into `$CODEX_HOME/skills`, and logs into `$CODEX_HOME`, so it runs on a sandbox
CODEX_HOME whose `skills` is a real temp folder holding a link to each of the user's
entries. app-server has no method that lists `prompts/*.md` (and `codex exec` sends
`/prompts:<n>` unexpanded), so prompts are found by their documented layout
(`$CODEX_HOME/prompts/<n>.md`, offered in the TUI as `/prompts:<n>`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from installer.hosts.judges import Judged, JudgeError, Loaded
from installer.hosts.judges.sandbox import Sandbox, lines, version_of

ASK = 2  # the id of the skills/list request


def requests(cwd: Path) -> list[str]:
    """The JSON-RPC lines that ask app-server for the skills seen from `cwd`."""
    messages: list[dict[str, Any]] = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"clientInfo": {"name": "ext", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "initialized"},
        {"jsonrpc": "2.0", "id": ASK, "method": "skills/list", "params": {"cwds": [str(cwd)]}},
    ]  # fmt: skip
    return [json.dumps(m) for m in messages]


def judge(binary: str, config_dir: Path, home: Path, environ: Mapping[str, str]) -> Judged:
    """The skills Codex loads from `config_dir` (`$CODEX_HOME`) and `home`'s
    `.agents/skills`, and the prompts of `config_dir/prompts`."""
    with Sandbox() as box:
        box.mirror(config_dir / "skills", ".codex/skills", lambda name: name != ".system")
        box.copy(config_dir / "config.toml", ".codex/config.toml")
        box.link(home / ".agents/skills", ".agents/skills")
        env = box.env(environ, CODEX_HOME=str(box.home / ".codex"))
        seen = lines(
            [binary, "app-server"], env, box.cwd, lambda ln: answer_id(ln) == ASK,
            send=requests(box.cwd),
        )  # fmt: skip
        answer = next((ln for ln in seen if answer_id(ln) == ASK), None)
        if answer is None:
            raise JudgeError(
                "codex app-server ended without answering skills/list",
                "run `codex app-server` by hand with the same CODEX_HOME to see its error",
            )
        skills, problems = parse_skills(json.loads(answer), box.back, str(box.root))
    return Judged(tuple(sorted(skills + prompts(config_dir))), problems)


def version(binary: str, environ: Mapping[str, str]) -> str | None:
    """`codex --version`: `codex-cli 0.171.0`."""
    return version_of(binary, environ)


def parse_skills(
    answer: dict[str, Any], back: Callable[[str], str] = str, sandbox: str | None = None
) -> tuple[list[Loaded], tuple[str, ...]]:
    """The user's enabled skills in a skills/list answer (not `system` ones, nor any that
    lives in the sandbox), and a problem line for each the user's config disabled."""
    if "error" in answer:
        message = answer["error"].get("message", "?") if isinstance(answer["error"], dict) else "?"
        raise JudgeError(
            f"codex app-server refused skills/list: {message}",
            "check that the codex binary is a version ext knows (ext doctor)",
        )
    try:
        entries = [s for group in answer["result"]["data"] for s in group["skills"]]
    except (KeyError, TypeError):
        raise JudgeError(
            "codex app-server's skills/list answer is not what ext can read",
            "check that the codex binary is a version ext knows (ext doctor)",
        ) from None
    found: list[Loaded] = []
    problems: list[str] = []
    for skill in entries:
        path = back(str(skill.get("path", "")))
        if skill.get("scope") == "system" or (sandbox and path.startswith(sandbox)):
            continue
        if skill.get("enabled", True):
            found.append(Loaded("skill", str(skill["name"]), path))
        else:
            problems.append(f"{skill['name']} ({path}) is disabled in config.toml")
    return found, tuple(problems)


def prompts(config_dir: Path) -> list[Loaded]:
    """`prompts/<n>.md` of `config_dir`, by Codex's layout (no subfolders, no dot files)."""
    root = config_dir / "prompts"
    return [
        Loaded("command", path.stem, str(path))
        for path in (sorted(root.iterdir()) if root.is_dir() else ())
        if path.suffix == ".md" and not path.name.startswith(".") and path.is_file()
    ]


def answer_id(line: str) -> object:
    """The `id` of one JSON-RPC line (None: a notification, or not JSON)."""
    try:
        data = json.loads(line)
    except ValueError:
        return None
    return data.get("id") if isinstance(data, dict) else None
