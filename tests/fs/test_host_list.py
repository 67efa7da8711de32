"""`ext list` and enable/disable for a host other than pi: its name in the list's header and
JSON, and when it reads a switch."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from tests.helpers import build_tree

EXT = Path(sys.executable).with_name("ext")
SET = {
    "extset.toml": '[set]\nname = "tools"\n',
    "skills/review/SKILL.md": "---\nname: review\ndescription: reviews\n---\nreview it\n",
    "prompts/fix.md": "fix it\n",
}


@pytest.fixture(autouse=True)
def quiet_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXT_NO_UPDATE_CHECK", "1")
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.fixture
def set_root(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "set", dict(SET))


def ext(set_root: Path, *args: str) -> Any:
    return CliRunner().invoke(app, ["--set", str(set_root), *args])


def made(path: Path) -> Path:
    path.mkdir(parents=True)
    return path


def test_list_names_the_host_in_its_header_and_json(set_root: Path, isolated_home: Path) -> None:
    made(isolated_home / ".claude")
    assert ext(set_root, "--host", "claude", "install", "--yes").exit_code == 0

    text = ext(set_root, "--host", "claude", "list").stdout.splitlines()
    data = json.loads(ext(set_root, "--json", "--host", "claude", "list").stdout)

    assert text[:3] == [
        f"set          {set_root} (tools)",
        "Claude Code  ~/.claude (default)",
        "mode         link",
    ]
    assert list(data)[:3] == ["set", "host", "agent_dir"] and data["host"] == "claude"


def test_list_for_pi_keeps_its_header_and_says_pi(set_root: Path) -> None:
    text = ext(set_root, "list").stdout.splitlines()
    data = json.loads(ext(set_root, "--json", "list").stdout)

    assert text[1] == "agent dir  ~/.local/share/extset/agent (ext's isolated default)"
    assert data["host"] == "pi"


@pytest.mark.parametrize(
    ("host", "folder", "said"),
    [
        ("claude", ".claude", "Claude Code reads it at its next start"),
        (
            "gemini",
            ".gemini",
            "running Gemini CLI sessions pick this up at /skills reload or /commands reload",
        ),
        ("opencode", ".config/opencode", "OpenCode reads it at its next start"),
    ],
)
def test_a_switch_says_when_the_host_reads_it(
    set_root: Path, isolated_home: Path, host: str, folder: str, said: str
) -> None:
    made(isolated_home / folder)
    assert ext(set_root, "--host", host, "install", "--yes").exit_code == 0

    result = ext(set_root, "--host", host, "disable", "review", "--yes")

    assert result.exit_code == 0, result.stderr
    lines = (result.stdout + result.stderr).splitlines()
    assert said in lines
    assert "running sessions pick this up at their next /reload" not in lines


def test_the_list_keeps_its_columns_with_a_wide_name(set_root: Path, tmp_path: Path) -> None:
    """helper-75: `prompt:日本` was padded by its characters, two columns short of the rest."""
    from installer.ground.screen import cells

    build_tree(set_root, {"prompts/日本.md": "Japan\n", "extensions/notify.ts": "// n\n"})
    agent = tmp_path / "agent"
    assert ext(set_root, "--agent-dir", str(agent), "install", "--create", "--yes").exit_code == 0
    done = ext(set_root, "--agent-dir", str(agent), "list")
    rows = [line for line in done.output.splitlines() if line.startswith("  enabled")]
    paths_at = {cells(line[: line.rindex(" ") + 1]) for line in rows}  # the path is last
    assert len(rows) == 4 and len(paths_at) == 1, done.output
