"""A skill pi will skip for its frontmatter (no description that is text) is said where a
person looks: the install that puts it in place warns, `ext list` notes it (`host_refuses` in
JSON), doctor warns with the file to fix. A no-op install says nothing again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from tests.helpers import build_tree

ENV = {"NO_COLOR": "1", "EXT_NO_UPDATE_CHECK": "1"}
WHY = "pi does not load it: its SKILL.md has no description in its frontmatter"


def ext(root: Path, agent: Path, *args: str) -> Any:
    return CliRunner().invoke(app, ["--set", str(root), "--agent-dir", str(agent), *args], env=ENV)


@pytest.mark.parametrize("mode", ["link", "register"])
def test_each_reader_and_the_install_say_pi_skips_it(tmp_path: Path, mode: str) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "mine"\n',
            "skills/bare/SKILL.md": "---\nname: bare\n---\nDo it.\n",
            "skills/good/SKILL.md": "---\ndescription: does good\n---\nDo it.\n",
        },
    )
    agent = tmp_path / "agent"

    done = ext(root, agent, "install", "--mode", mode, "--create", "--yes")
    again = ext(root, agent, "install", "--yes")
    listed = json.loads(ext(root, agent, "--json", "list").stdout)["items"]
    doctor = ext(root, agent, "doctor").stdout

    assert done.exit_code == 0, done.output
    assert f"warning: skill:bare: {WHY}" in done.stderr
    assert "skill:good" not in done.stderr
    assert "nothing to do" in again.stdout and "warning" not in again.stderr
    assert {i["name"]: i.get("host_refuses") for i in listed} == {"bare": WHY, "good": None}
    assert f"skill:bare: {WHY}" in doctor
    assert f"fix: give {root}/skills/bare/SKILL.md what it lacks" in doctor


def test_an_enable_that_switches_it_on_says_pi_skips_it(tmp_path: Path) -> None:
    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "mine"\n',
            "skills/bare/SKILL.md": "---\nname: bare\n---\nDo it.\n",
        },
    )
    agent = tmp_path / "agent"
    assert ext(root, agent, "install", "--create", "--yes").exit_code == 0
    assert ext(root, agent, "disable", "bare", "--yes").exit_code == 0

    done = ext(root, agent, "enable", "bare", "--yes")

    assert done.exit_code == 0, done.output
    assert f"warning: skill:bare: {WHY}" in done.stderr


@pytest.mark.parametrize(
    ("frontmatter", "fix"),
    [
        ("description: [never closed", "correct the YAML of {file}'s frontmatter, as said"),
        ("description: 42", "make the description in {file} text (quote it)"),
    ],
)
def test_doctor_s_fix_follows_why_pi_skips_it(tmp_path: Path, frontmatter: str, fix: str) -> None:
    """helper-87: a YAML error, or a description that is not text, was told to give the file
    `what it lacks`."""
    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "mine"\n',
            "skills/odd/SKILL.md": f"---\nname: odd\n{frontmatter}\n---\nDo it.\n",
        },
    )
    agent = tmp_path / "agent"
    assert ext(root, agent, "install", "--create", "--yes").exit_code == 0
    doctor = ext(root, agent, "doctor").stdout
    assert "fix: " + fix.format(file=f"{root}/skills/odd/SKILL.md") in doctor
