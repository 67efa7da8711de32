"""A set's skill whose name a shared `.agents/skills` folder holds too: list, install, doctor.

Which copy pi loads is pinned against each real pi in tests/conformance/test_shared_names.py;
here, that ext says it, with the fix, where it should, and stays quiet where pi is.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from installer.doctor import resolve_subject, run_checks
from installer.ground.context import Env
from installer.host.lines import LINES, OLDEST, TODAY
from installer.host.pi import HostInfo
from installer.host.trust import project_trust
from tests.conformance.layouts import skill
from tests.helpers import build_tree


@pytest.fixture(autouse=True)
def quiet_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXT_NO_UPDATE_CHECK", "1")
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.fixture
def set_root(tmp_path: Path) -> Path:
    return build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "s"\n',
            "skills/review/SKILL.md": skill("review"),
            "skills/other/SKILL.md": skill("other"),
        },
    )


@pytest.fixture
def agent(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "agent", {"skills": None})


def ext(set_root: Path, agent: Path, *args: str) -> Any:
    return CliRunner().invoke(app, ["--set", str(set_root), "--agent-dir", str(agent), *args])


def in_home(home: Path, name: str = "review") -> Path:
    return build_tree(home / ".agents" / "skills" / name, {"SKILL.md": skill(name)})


def note(set_root: Path, agent: Path, label: str = "review") -> str | None:
    listed = json.loads(ext(set_root, agent, "--json", "list").stdout)
    found: str | None = next(i for i in listed["items"] if i["name"] == label).get("note")
    return found


def fake_host(line_name: str) -> HostInfo:
    line = next(x for x in LINES if x.name == line_name)
    path = Path("/opt/pi/bin/pi")
    scope = line.package.split("/")[0]
    return HostInfo("pi", path, path, line.tested, line.package, scope, "package.json")


def shared_rows(tmp_path: Path, set_root: Path, agent: Path, line: str = "1.x") -> list[Any]:
    env = Env(environ=dict(os.environ), cwd=tmp_path)
    s = resolve_subject(env, set_root, agent, lambda _c, _p: fake_host(line))
    return run_checks(s, ["skills.shared"])


@pytest.mark.parametrize(
    ("mode", "loads"),
    [("link", "pi loads the set's,"), ("register", "pi loads that one, not the set's,")],
)
def test_list_install_and_doctor_name_the_copy_pi_loads_and_the_fix(
    tmp_path: Path, isolated_home: Path, set_root: Path, agent: Path, mode: str, loads: str
) -> None:
    theirs = in_home(isolated_home) / "SKILL.md"

    done = ext(set_root, agent, "install", "--yes", "--mode", mode)

    assert done.exit_code == 0, done.output  # a warning, not a refusal
    said = f"a skill named 'review' is also in ~/.agents/skills/review/SKILL.md; {loads}"
    assert f"skill:review: {said}" in done.output
    assert f"--agent-dir {agent} disable skill:review` keeps the shared one" in done.output
    assert not [line for line in done.output.splitlines() if "warning: skill:other" in line]
    assert note(set_root, agent, "review") == (
        f"a skill named 'review' is also in {theirs}; {loads} and warns of a collision; "
        "remove or rename one of them "
        "(`ext disable skill:review` keeps the shared one)"
    )
    assert note(set_root, agent, "other") is None
    [row] = shared_rows(tmp_path, set_root, agent)
    assert (row.level, row.message.startswith("skill:review: a skill named 'review'")) == (
        "warn",
        True,
    )
    assert (
        row.fix == "remove or rename one of them (`ext disable skill:review` keeps the shared one)"
    )


def test_a_disabled_skill_or_the_same_file_shared_is_no_collision(
    tmp_path: Path, isolated_home: Path, set_root: Path, agent: Path
) -> None:
    in_home(isolated_home)
    build_tree(isolated_home / ".agents" / "skills", {"other": set_root / "skills" / "other"})
    assert ext(set_root, agent, "install", "--yes").exit_code == 0

    off = ext(set_root, agent, "disable", "skill:review", "--yes")
    again = ext(set_root, agent, "install", "--yes")

    assert off.exit_code == 0, off.output
    assert "also in" not in again.output
    assert note(set_root, agent, "review") is None
    assert note(set_root, agent, "other") is None  # pi loads one real file once, silently
    [row] = shared_rows(tmp_path, set_root, agent)
    assert row.level == "ok"


def test_pis_name_for_a_skill_is_its_frontmatter_name(
    tmp_path: Path, isolated_home: Path, agent: Path
) -> None:
    root = build_tree(
        tmp_path / "named",
        {"extset.toml": '[set]\nname = "n"\n', "skills/folder/SKILL.md": skill("review")},
    )
    in_home(isolated_home)  # ~/.agents/skills/review: the same name pi gives the set's

    assert "skill named 'review'" in (note(root, agent, "folder") or "")


@pytest.fixture
def project(tmp_path: Path, set_root: Path, agent: Path) -> Path:
    """The set linked; a repository whose .agents/skills has `review` too, above the cwd."""
    assert ext(set_root, agent, "install", "--yes").exit_code == 0
    repo = build_tree(tmp_path / "repo", {".git": None, "sub": None})
    build_tree(repo / ".agents" / "skills" / "review", {"SKILL.md": skill("review")})
    return repo


def test_a_projects_copy_waits_for_trust_on_pi_1x_and_not_on_0_73(
    set_root: Path, agent: Path, project: Path
) -> None:
    untrusted = shared_rows(project / "sub", set_root, agent, "1.x")
    ungated = shared_rows(project / "sub", set_root, agent, "0.73")
    (agent / "trust.json").write_text(json.dumps({str(project.resolve()): True}))
    trusted = shared_rows(project / "sub", set_root, agent, "1.x")

    theirs = project / ".agents" / "skills" / "review" / "SKILL.md"
    assert [r.message for r in untrusted] == [
        f"skill:review: a skill named 'review' is also in {theirs}; pi loads the set's until "
        "you trust this project, then that one"
    ]
    for rows in (ungated, trusted):
        assert [r.message for r in rows] == [
            f"skill:review: a skill named 'review' is also in {theirs}; pi loads that one, not "
            "the set's, and warns of a collision"
        ]
    (agent / "trust.json").write_text(json.dumps({str(project.resolve()): False}))
    assert [r.level for r in shared_rows(project / "sub", set_root, agent, "1.x")] == ["ok"]


def test_a_project_above_the_repository_root_is_not_read(
    tmp_path: Path, set_root: Path, agent: Path, project: Path
) -> None:
    build_tree(tmp_path / ".agents" / "skills" / "other", {"SKILL.md": skill("other")})

    rows = shared_rows(project / "sub", set_root, agent, "0.73")

    assert [r.message.split(":")[1] for r in rows] == ["review"]  # not other, above the root


def test_pis_trust_is_the_nearest_saved_decision_else_the_default(tmp_path: Path) -> None:
    home = tmp_path / "home"
    cwd = build_tree(tmp_path / "a" / "b", {".pi/skills": None})
    agent = build_tree(tmp_path / "agent", {"skills": None})
    decide = lambda: project_trust(TODAY, agent, cwd, home)  # noqa: E731

    assert (decide().trusted, decide().decision) == (False, "ask")
    (agent / "settings.json").write_text('{"defaultProjectTrust": "always"}')
    assert (decide().trusted, decide().decision) == (True, "always")
    (agent / "trust.json").write_text(json.dumps({str(tmp_path / "a"): False}))
    assert (decide().trusted, decide().decision) == (False, "saved")
    assert project_trust(OLDEST, agent, cwd, home).decision == "ungated"
    bare = build_tree(tmp_path / "bare", {".pi": None})  # a bare .pi asks for nothing
    assert project_trust(TODAY, agent, bare, home).decision == "nothing to trust"
