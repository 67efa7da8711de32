"""The judges' readers of what each host prints, on outputs recorded from the real binaries
(Claude Code 2.1.332, Codex 0.171.0, OpenCode 1.18.33, Gemini CLI 0.61.0), trimmed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from installer.ground.errors import ExtError
from installer.hosts import judges
from installer.hosts.judges import Judged, JudgeError, Loaded, claude, codex, gemini, opencode

SANDBOX = "/tmp/extset-judge-x/home"
USER = "/home/u"


def _back(path: str) -> str:
    return path.replace(SANDBOX, USER, 1) if path.startswith(SANDBOX) else path


# ---- OpenCode -----------------------------------------------------------------------

OPENCODE_SKILLS = [
    {"name": "customize-opencode", "description": "Use ONLY when ...",
     "location": "<built-in>", "content": "..."},
    {"name": "alpha", "description": "Alpha skill.",
     "location": f"{SANDBOX}/.config/opencode/skills/alpha/SKILL.md", "content": "body"},
    {"name": "beta", "description": "Beta skill.",
     "location": f"{SANDBOX}/.claude/skills/beta/SKILL.md", "content": "body"},
]  # fmt: skip
OPENCODE_WARN = (
    'timestamp=2026-12-02T17:14:59.988Z level=WARN run=ce3edb25 message="duplicate skill name"'
    f" name=alpha existing={SANDBOX}/.agents/skills/alpha/SKILL.md"
    f" duplicate={SANDBOX}/.config/opencode/skills/alpha/SKILL.md\n"
    "timestamp=2026-12-02T17:14:59.990Z level=INFO run=ce3edb25 message=started\n"
)


def test_opencode_skills_leave_out_the_built_in_and_leave_the_sandbox() -> None:
    assert opencode.parse_skills(OPENCODE_SKILLS, _back) == [
        Loaded("skill", "alpha", f"{USER}/.config/opencode/skills/alpha/SKILL.md"),
        Loaded("skill", "beta", f"{USER}/.claude/skills/beta/SKILL.md"),
    ]


def test_opencode_commands_are_the_config_command_keys() -> None:
    hello = {"description": "Say hello.", "template": "Hello"}
    config = {"command": {"hello": hello, "git/commit": {"template": "Commit"}}}
    nowhere = Path("/nonexistent-extset-config")  # no files: defined in opencode.json
    found = opencode.parse_commands(config, nowhere)
    assert found == [Loaded("command", "hello", None), Loaded("command", "git/commit", None)]
    assert opencode.parse_commands({"$schema": "x"}, nowhere) == []


def test_opencode_warnings_are_problems_with_user_paths() -> None:
    (problem,) = opencode.parse_problems(OPENCODE_WARN, _back)
    assert problem == (
        f'"duplicate skill name" name=alpha existing={USER}/.agents/skills/alpha/SKILL.md'
        f" duplicate={USER}/.config/opencode/skills/alpha/SKILL.md"
    )


@pytest.mark.parametrize("data", [{"not": "a list"}, "text", None])
def test_opencode_unreadable_skills_are_a_judge_error(data: object) -> None:
    with pytest.raises(JudgeError, match="debug skill"):
        opencode.parse_skills(data)


def test_opencode_output_that_is_not_json_names_the_fix() -> None:
    with pytest.raises(JudgeError) as caught:
        opencode._json("Error: no config\n", "debug config")
    assert caught.value.fix and "ext doctor" in caught.value.fix


# ---- Gemini CLI ---------------------------------------------------------------------

GEMINI_LIST = f"""Discovered Agent Skills:

alpha [Enabled]
  Description: Second alpha.
  Location:    {SANDBOX}/.agents/skills/alpha/SKILL.md

off-one [Disabled]
  Description: Turned off in settings.
  Location:    {SANDBOX}/.gemini/skills/off-one/SKILL.md

other-name [Enabled]
  Description: Named differently.
  Location:    {SANDBOX}/.gemini/skills/folder/SKILL.md

My Spaced Skill [Enabled]
  Description: A name with spaces [Enabled] in its text.
  Location:    {SANDBOX}/.gemini/skills/spaced/SKILL.md

skill-creator [Enabled] [Built-in]
  Description: Guide for creating effective skills.
  Location:    /opt/gemini-cli/bundle/builtin/skill-creator/SKILL.md
"""
GEMINI_STDERR = (
    "Ripgrep is not available. Falling back to GrepTool.\n"
    f'Skill conflict detected: "alpha" from "{SANDBOX}/.agents/skills/alpha/SKILL.md" is '
    f'overriding the same skill from "{SANDBOX}/.gemini/skills/alpha/SKILL.md".\n'
)


def test_gemini_skills_are_the_enabled_ones_not_built_in() -> None:
    assert gemini.parse_skills(GEMINI_LIST, _back) == [
        Loaded("skill", "alpha", f"{USER}/.agents/skills/alpha/SKILL.md"),
        Loaded("skill", "other-name", f"{USER}/.gemini/skills/folder/SKILL.md"),
        Loaded("skill", "My Spaced Skill", f"{USER}/.gemini/skills/spaced/SKILL.md"),
    ]


def test_gemini_conflicts_are_problems_with_user_paths() -> None:
    (problem,) = gemini.parse_problems(GEMINI_STDERR, _back)
    assert problem.startswith('Skill conflict detected: "alpha" from ')
    assert f'"{USER}/.gemini/skills/alpha/SKILL.md"' in problem
    assert SANDBOX not in problem


def test_gemini_without_skills_lists_none() -> None:
    assert gemini.parse_skills("No skills discovered.\n") == []


# ---- Claude Code --------------------------------------------------------------------

BUILT_IN_SKILLS = ["debug", "simplify", "code-review"]
BUILT_IN_COMMANDS = [*BUILT_IN_SKILLS, "clear", "compact", "init"]


def _init(skills: list[str], commands: list[str]) -> dict[str, object]:
    return {"type": "system", "subtype": "init", "claude_code_version": "2.1.332",
            "skills": skills, "slash_commands": commands, "agents": ["Explore"]}  # fmt: skip


def test_claude_init_record_is_found_among_lines() -> None:
    line = json.dumps(_init(["alpha"], ["alpha"]))
    assert claude.parse_init(line) == _init(["alpha"], ["alpha"])
    assert claude.parse_init('{"type":"result","subtype":"error"}') is None
    assert claude.parse_init("Not logged in") is None


def test_claude_items_are_what_an_empty_config_dir_does_not_name() -> None:
    user = _init(
        ["alpha", "folder", *BUILT_IN_SKILLS],
        ["alpha", "folder", "git:commit", "hello", *BUILT_IN_COMMANDS],
    )
    skills = {"alpha": f"{USER}/.claude/skills/alpha/SKILL.md"}
    cmds = {"hello": f"{USER}/.claude/commands/hello.md"}
    found = claude.parse(user, _init(BUILT_IN_SKILLS, BUILT_IN_COMMANDS), skills, cmds)
    assert sorted(found) == [
        Loaded("command", "git:commit", None),  # named, but not by a file ext knows of
        Loaded("command", "hello", f"{USER}/.claude/commands/hello.md"),
        Loaded("skill", "alpha", f"{USER}/.claude/skills/alpha/SKILL.md"),
        Loaded("skill", "folder", None),
    ]


def test_claude_a_user_skill_that_shadows_a_built_in_is_kept() -> None:
    empty = _init(BUILT_IN_SKILLS, BUILT_IN_COMMANDS)
    found = claude.parse(empty, empty, {"debug": f"{USER}/.claude/skills/debug/SKILL.md"}, {})
    assert found == [Loaded("skill", "debug", f"{USER}/.claude/skills/debug/SKILL.md")]


def test_claude_init_without_lists_is_a_judge_error() -> None:
    with pytest.raises(JudgeError, match="slash_commands"):
        claude.parse({"type": "system", "subtype": "init", "skills": []}, _init([], []), {}, {})


# ---- Codex CLI ----------------------------------------------------------------------


def _answer(*skills: dict[str, object]) -> dict[str, object]:
    return {"id": codex.ASK, "result": {"data": [{"cwd": "/w", "skills": list(skills)}]}}


def _codex_skill(
    name: str, path: str, scope: str = "user", enabled: bool = True
) -> dict[str, object]:
    return {"name": name, "description": "d", "path": path, "scope": scope,
            "enabled": enabled, "pluginId": None}  # fmt: skip


def test_codex_skills_are_the_users_enabled_ones() -> None:
    answer = _answer(
        _codex_skill("alpha", "/set/skills/alpha/SKILL.md"),
        _codex_skill("imagegen", f"{SANDBOX}/.codex/skills/.system/imagegen/SKILL.md", "system"),
        _codex_skill("stray", f"{SANDBOX}/.codex/skills/stray/SKILL.md"),
        _codex_skill("quiet", "/set/skills/quiet/SKILL.md", enabled=False),
    )
    found, problems = codex.parse_skills(answer, sandbox=SANDBOX)
    assert found == [Loaded("skill", "alpha", "/set/skills/alpha/SKILL.md")]
    assert problems == ("quiet (/set/skills/quiet/SKILL.md) is disabled in config.toml",)


def test_codex_an_error_answer_is_a_judge_error() -> None:
    answer = {"id": 2, "error": {"code": -32600, "message": "Invalid request: unknown variant"}}
    with pytest.raises(JudgeError, match="unknown variant"):
        codex.parse_skills(answer)
    with pytest.raises(JudgeError, match="not what ext can read"):
        codex.parse_skills({"id": 2, "result": {"skills": []}})


def test_codex_requests_and_answer_ids() -> None:
    sent = [json.loads(line) for line in codex.requests(Path("/w"))]
    assert [m.get("method") for m in sent] == ["initialize", "initialized", "skills/list"]
    assert sent[-1] == {"jsonrpc": "2.0", "id": codex.ASK, "method": "skills/list",
                        "params": {"cwds": ["/w"]}}  # fmt: skip
    assert codex.answer_id('{"id": 2, "result": {}}') == 2
    assert codex.answer_id('{"method": "remoteControl/status/changed"}') is None
    assert codex.answer_id("WARNING: proceeding") is None


# ---- the package --------------------------------------------------------------------


def test_an_unknown_host_is_an_error_naming_the_hosts() -> None:
    with pytest.raises(ExtError) as caught:
        judges.judge("cursor", "cursor", Path("/c"), Path("/h"), {})
    assert caught.value.fix and "claude, codex, opencode, gemini" in caught.value.fix


def test_judged_names_by_kind() -> None:
    found = Judged((Loaded("skill", "a", None), Loaded("command", "a", "/c/a.md")))
    assert found.names("skill") == found.names("command") == {"a"}


def test_a_sandbox_keeps_the_users_node_compile_cache_and_nothing_else_of_theirs() -> None:
    """A judge's host runs on the sandbox's HOME, XDG dirs and temp folder; of the user's own
    environment it keeps PATH, the locale and a folder they named for Node's compile cache
    (theirs to fill: a Node host starts faster from the second run)."""
    from installer.hosts.judges.sandbox import Sandbox

    user = {"PATH": "/bin", "LANG": "C.UTF-8", "NODE_COMPILE_CACHE": "/c", "SECRET": "x"}
    with Sandbox() as box:
        env = box.env(user, EXTRA="1")
        assert env["NODE_COMPILE_CACHE"] == "/c" and env["PATH"] == "/bin"
        assert env["HOME"] == str(box.home) and env["TMPDIR"] == str(box.root)
        assert "SECRET" not in env and env["EXTRA"] == "1"
        assert "NODE_COMPILE_CACHE" not in box.env({"PATH": "/bin"})
        off = {"NODE_COMPILE_CACHE": "/c", "NODE_DISABLE_COMPILE_CACHE": "1"}
        assert box.env(off)["NODE_DISABLE_COMPILE_CACHE"] == "1"  # their choice holds


def test_claude_s_check_keeps_no_settings_key_but_its_permission_rules(tmp_path: Path) -> None:
    """helper-79, helper-80: the judge's run of Claude Code starts with the user's (or a
    set's) settings.json; only the keys that shape what loads are kept, every hook is off."""
    from installer.hosts.judges.claude import quiet_settings

    settings = {
        "hooks": {"SessionStart": []},
        "apiKeyHelper": "touch x",
        "statusLine": {"type": "command", "command": "x"},
        "env": {"NODE_OPTIONS": "--require ./x.js"},
        "fileSuggestion": {"type": "command", "command": "x"},
        "permissions": {"deny": ["Skill(secret)"]},
    }
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(settings))
    assert json.loads(quiet_settings(path) or "") == {
        "permissions": {"deny": ["Skill(secret)"]},
        "disableAllHooks": True,
    }
    for text in ("[1]", "not json", ""):
        path.write_text(text)
        assert quiet_settings(path) is None
    assert quiet_settings(tmp_path / "missing.json") is None
