"""`ext --host H doctor`: the checks of that host, not pi's; its binary, its tested range, its
items, and (--deep) its own judge, here a stand-in with the judges' interface."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from installer.doctor import Finding, resolve_subject, run_checks
from installer.ground.context import Env
from installer.ground.errors import ExtError
from tests.helpers import build_tree

SKILL = "---\nname: review\ndescription: reviews\n---\nreview it\n"
SET = {
    "extset.toml": '[set]\nname = "tools"\n[hosts.claude]\ntested = ">=2.0.0 <3"\n',
    "extensions/notify.ts": "export default function () {}\n",
    "skills/review/SKILL.md": SKILL,
    "skills/lint/SKILL.md": SKILL.replace("review", "lint"),
    "prompts/fix.md": "fix it\n",
}
PI_ONLY = {"settings.json", "consent", "host.node", "host", "command", "loaded-twice"}


@pytest.fixture(autouse=True)
def quiet_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXT_NO_UPDATE_CHECK", "1")
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.fixture
def set_root(tmp_path: Path) -> Path:
    root = build_tree(tmp_path / "set", dict(SET))
    for path in [root, *root.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return root


@pytest.fixture
def bin_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A PATH of its own, empty until a test puts a host's binary on it."""
    path = tmp_path / "bin"
    path.mkdir()
    monkeypatch.setenv("PATH", str(path))
    return path


def fake_binary(bin_dir: Path, name: str, says: str) -> Path:
    """A host binary that prints `says` for --version (and nothing else)."""
    path = bin_dir / name
    path.write_text(f"#!/bin/sh\necho '{says}'\n")
    path.chmod(0o755)
    return path


def ext(set_root: Path, *args: str) -> Any:
    return CliRunner().invoke(app, ["--set", str(set_root), *args])


def installed(set_root: Path, home: Path) -> Path:
    """The set installed into Claude Code's default dir, with prompt:fix and skill:lint off."""
    (home / ".claude").mkdir()
    assert ext(set_root, "--host", "claude", "install", "--yes").exit_code == 0
    assert ext(set_root, "--host", "claude", "disable", "lint", "fix", "--yes").exit_code == 0
    return home / ".claude"


def doctor(tmp_path: Path, set_root: Path, deep: bool = False, **environ: str) -> list[Finding]:
    import os

    env = Env(environ={**os.environ, **environ}, cwd=tmp_path)
    return run_checks(resolve_subject(env, set_root, None, host="claude"), deep=deep)


def rows(found: list[Finding], check: str) -> list[Finding]:
    return [f for f in found if f.id == check]


def test_doctor_for_claude_runs_its_checks_not_pis(
    tmp_path: Path, set_root: Path, isolated_home: Path, bin_dir: Path
) -> None:
    installed(set_root, isolated_home)

    found = doctor(tmp_path, set_root)

    ids = [f.id for f in found]
    assert not PI_ONLY & set(ids), ids
    assert {"set", "agent.dir", "agent.folders", "host.items", "host.found"} <= set(ids)
    assert [f.message for f in rows(found, "agent.dir")] == [
        f"{isolated_home / '.claude'} (from default)"
    ]
    [items] = rows(found, "host.items")
    assert (items.level, items.message) == ("ok", "1 enabled, 2 disabled")
    assert all(f.level in ("ok", "info") for f in found), found


def test_a_host_not_installed_is_news_not_an_error(
    tmp_path: Path, set_root: Path, isolated_home: Path, bin_dir: Path
) -> None:
    installed(set_root, isolated_home)

    found = doctor(tmp_path, set_root)

    [row] = rows(found, "host.found")
    assert row.level == "info"
    assert "install still works: files are files" in row.message
    assert row.fix == "npm install -g @anthropic-ai/claude-code"
    assert rows(found, "host.tested")[0].message.startswith("not checked: claude was not found")


def test_the_version_the_binary_says_against_the_tested_range(
    tmp_path: Path, set_root: Path, isolated_home: Path, bin_dir: Path
) -> None:
    installed(set_root, isolated_home)
    fake_binary(bin_dir, "claude", "2.1.5 (Claude Code)")
    inside = doctor(tmp_path, set_root)
    (set_root / "extset.toml").write_text(SET["extset.toml"].replace(">=2.0.0 <3", ">=3.0.0"))
    fake_binary(bin_dir, "claude", "v2.1.6 (Claude Code)")  # a new binary: asked again
    outside = doctor(tmp_path, set_root)

    [found] = rows(inside, "host.found")
    assert (found.level, found.message) == ("ok", f"Claude Code 2.1.5 at {bin_dir / 'claude'}")
    assert rows(inside, "host.tested")[0].level == "ok"
    [drift] = rows(outside, "host.tested")
    assert drift.level == "warn"
    assert "Claude Code 2.1.6 is older than the versions this set was tested with" in drift.message
    assert (
        drift.fix is not None and "npm install -g '@anthropic-ai/claude-code@>=3.0.0'" in drift.fix
    )


def test_no_tested_range_skips_the_range_check(
    tmp_path: Path, set_root: Path, isolated_home: Path, bin_dir: Path
) -> None:
    (set_root / "extset.toml").write_text('[set]\nname = "tools"\n')
    installed(set_root, isolated_home)
    fake_binary(bin_dir, "claude", "2.1.5 (Claude Code)")

    [row] = rows(doctor(tmp_path, set_root), "host.tested")

    assert row.level == "info" and row.message.startswith("not checked: the set names no tested")


def test_a_link_in_the_way_is_a_problem_said_as_for_pi(
    tmp_path: Path, set_root: Path, isolated_home: Path, bin_dir: Path
) -> None:
    agent = installed(set_root, isolated_home)
    (agent / "skills/review").unlink()
    (agent / "skills/review").mkdir()

    [bad, fine] = rows(doctor(tmp_path, set_root), "host.items")

    assert bad.level == "warn" and "skills/review is a folder of yours" in bad.message
    assert bad.fix is not None and bad.fix.startswith("ext --host claude install (backs it up")
    assert fine.message == "0 enabled, 2 disabled"


def test_a_check_of_pis_named_for_claude_says_why_it_does_not_run(
    tmp_path: Path, set_root: Path, isolated_home: Path, bin_dir: Path
) -> None:
    installed(set_root, isolated_home)
    import os

    env = Env(environ=dict(os.environ), cwd=tmp_path)
    found = run_checks(resolve_subject(env, set_root, None, host="claude"), ["settings.json"])

    assert [(f.level, f.message) for f in found] == [
        ("info", "not checked: a check of pi, not of Claude Code")
    ]


def test_doctor_json_names_the_host_and_ext_host_picks_it(
    set_root: Path, isolated_home: Path, bin_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    installed(set_root, isolated_home)
    monkeypatch.setenv("EXT_HOST", "claude")

    claude = json.loads(ext(set_root, "--json", "doctor").stdout)
    pi = json.loads(ext(set_root, "--json", "--host", "pi", "doctor").stdout)

    assert list(claude) == ["ok", "host", "agent_dir", "checks"]
    assert (claude["host"], claude["ok"]) == ("claude", True)
    assert pi["host"] == "pi" and "settings.json" in {c["id"] for c in pi["checks"]}
    assert "host.items" not in {c["id"] for c in pi["checks"]}


def test_list_checks_for_a_host_lists_that_hosts(set_root: Path, bin_dir: Path) -> None:
    listed = json.loads(
        ext(set_root, "--json", "--host", "codex", "doctor", "--list-checks").stdout
    )

    ids = {c["id"] for c in listed["checks"]}
    assert {"host.found", "host.tested", "host.items", "host.loaded"} <= ids
    assert not PI_ONLY & ids


# --deep: the host's own judge, a stand-in here with the interface of installer.hosts.judges


class Loaded(NamedTuple):
    kind: str
    name: str
    path: str | None


class Judged(NamedTuple):
    loaded: tuple[Loaded, ...]
    problems: tuple[str, ...] = ()


def judges(monkeypatch: pytest.MonkeyPatch, loaded: tuple[Loaded, ...]) -> list[dict[str, Any]]:
    """installer.hosts.judges, answering `loaded`; the calls it gets are returned."""
    calls: list[dict[str, Any]] = []

    def judge(
        host: str, binary: str, config_dir: Path, home: Path, environ: Mapping[str, str]
    ) -> Judged:
        calls.append({"host": host, "binary": binary, "config_dir": config_dir, "home": home})
        return Judged(loaded)

    module = types.ModuleType("installer.hosts.judges")
    module.judge = judge  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "installer.hosts.judges", module)
    return calls


def test_deep_every_enabled_item_loaded_and_no_disabled_one(
    tmp_path: Path,
    set_root: Path,
    isolated_home: Path,
    bin_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    agent = installed(set_root, isolated_home)
    binary = fake_binary(bin_dir, "claude", "2.1.5")
    calls = judges(monkeypatch, (Loaded("skill", "review", str(agent / "skills/review")),))

    [row] = rows(doctor(tmp_path, set_root, deep=True), "host.loaded")

    assert (row.level, row.message) == (
        "ok",
        "Claude Code loads the 1 enabled item and none of the 2 disabled ones",
    )
    assert calls == [
        {"host": "claude", "binary": str(binary), "config_dir": agent, "home": isolated_home}
    ]


def test_deep_an_enabled_item_not_loaded_and_a_disabled_one_loaded_are_errors(
    tmp_path: Path,
    set_root: Path,
    isolated_home: Path,
    bin_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    installed(set_root, isolated_home)
    fake_binary(bin_dir, "claude", "2.1.5")
    elsewhere = str(isolated_home / ".claude/plugins/x/commands/fix.md")
    judges(monkeypatch, (Loaded("command", "fix", elsewhere),))

    found = rows(doctor(tmp_path, set_root, deep=True), "host.loaded")

    assert [f.level for f in found] == ["error", "error"]
    assert found[0].message.startswith("skill:review: ext lists it enabled (skills/review)")
    assert found[0].message.endswith("yet Claude Code does not load it")
    assert found[0].fix == (  # a trial: "install relinks it", of a link in place
        f"check {set_root / 'skills/review'} against what Claude Code loads (its frontmatter, "
        "its size, its name); ext's link to it is in place"
    )
    assert found[1].message == (
        f"prompt:fix: ext lists it disabled (commands/fix.md.off), yet Claude Code loads it "
        f"from {elsewhere}"
    )


def test_deep_an_enabled_item_the_host_loads_from_another_file_is_a_warning(
    tmp_path: Path,
    set_root: Path,
    isolated_home: Path,
    bin_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A trial: OpenCode loaded the user's own `good` from the backup ext made of it in
    ~/.agents/skills/.bak/ (OpenCode reads hidden folders), not the set's; doctor --deep said
    it loads every enabled item, matching by name alone."""
    installed(set_root, isolated_home)
    fake_binary(bin_dir, "claude", "2.1.5")
    backup = str(isolated_home / ".claude/skills/.bak/review.bak.20261204-101500/SKILL.md")
    judges(monkeypatch, (Loaded("skill", "review", backup),))

    [row] = rows(doctor(tmp_path, set_root, deep=True), "host.loaded")

    assert row.level == "warn"
    assert row.message == (
        f"skill:review: Claude Code loads a skill of this name from {backup}, not the set's "
        f"({set_root / 'skills/review'})"
    )
    assert row.fix == (
        "move that one out of the folders Claude Code reads (hidden ones too), or rename it"
    )


def test_deep_without_the_binary_never_asks_the_judge(
    tmp_path: Path,
    set_root: Path,
    isolated_home: Path,
    bin_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    installed(set_root, isolated_home)
    calls = judges(monkeypatch, ())

    [row] = rows(doctor(tmp_path, set_root, deep=True), "host.loaded")

    assert row.level == "info" and row.message.startswith("not checked: claude was not found")
    assert calls == []


def test_deep_a_judge_that_fails_is_an_error_with_its_fix(
    tmp_path: Path,
    set_root: Path,
    isolated_home: Path,
    bin_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    installed(set_root, isolated_home)
    fake_binary(bin_dir, "claude", "2.1.5")

    def judge(*_args: object) -> Judged:
        raise ExtError("claude could not list its skills", "run `claude` once to log in")

    module = types.ModuleType("installer.hosts.judges")
    module.judge = judge  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "installer.hosts.judges", module)

    [row] = rows(doctor(tmp_path, set_root, deep=True), "host.loaded")

    assert (row.level, row.message, row.fix) == (
        "error",
        "claude could not list its skills",
        "run `claude` once to log in",
    )


def test_a_missing_host_dir_is_an_error_whose_fix_names_the_set_and_host(
    tmp_path: Path, set_root: Path, bin_dir: Path
) -> None:
    [row] = rows(doctor(tmp_path, set_root), "agent.dir")

    assert row.level == "error" and row.message.startswith("Claude Code's dir")
    assert row.fix is not None
    assert f"`ext --set {set_root} --host claude install --create`" in row.fix


def test_a_command_written_for_gemini_from_a_template_changed_since_says_so(
    tmp_path: Path, set_root: Path, isolated_home: Path, bin_dir: Path
) -> None:
    """A written file has no target: the finding says the template changed, not that the file
    `points at None`, and its fix writes it again."""
    import os

    (isolated_home / ".gemini").mkdir()
    assert ext(set_root, "--host", "gemini", "install", "--yes").exit_code == 0
    (set_root / "prompts" / "fix.md").write_text("fix it well\n")

    env = Env(environ=dict(os.environ), cwd=tmp_path)
    found = run_checks(resolve_subject(env, set_root, None, host="gemini"))

    said = [f for f in rows(found, "host.items") if "prompt:fix" in f.message]
    assert [(f.level, f.message, f.fix) for f in said] == [
        (
            "warn",
            f"prompt:fix: commands/fix.toml was written from an earlier {set_root}/prompts/fix.md, "
            "which changed since",
            "ext --host gemini install (writes it again)",
        )
    ]


def test_what_a_host_reports_of_a_skill_is_said_with_the_fix_that_fits_where_it_is(
    tmp_path: Path,
) -> None:
    """helper-56: OpenCode reporting a skill found in ~/.claude/skills and ~/.agents/skills
    was told to run its own install, which does nothing (it has no link of its own there);
    its own switch is the fix. With a link in its own folder, its install (that drops it) is
    named, with --agent-dir."""
    from installer.doctor.checks.other_host import reported
    from installer.hosts.table import HOSTS
    from installer.links.states import Item as Listed
    from installer.sets.resources import Resource

    review = Resource("skill", "review", "review", "dir", str(tmp_path / "set/skills/review"))
    listed = [Listed(review, "enabled", "~/.agents/skills/review")]
    problem = "duplicate skill name name=review existing=/h/.claude/skills/review"
    own = tmp_path / "opencode/skills"
    own.mkdir(parents=True)
    opencode = HOSTS["opencode"]

    [shared] = reported(listed, [problem], opencode, own, tmp_path / "opencode")
    (own / "review").symlink_to(review.source)
    [linked] = reported(listed, [problem], opencode, own, tmp_path / "opencode")
    [other] = reported(listed, ["duplicate skill name name=notes "], opencode, own, tmp_path)

    assert shared.level == "warn"
    assert shared.fix == f"keep one copy: {opencode.shared_twice_fix}"
    assert linked.fix is not None and linked.fix.startswith(
        f"keep one copy: `ext --host opencode --agent-dir {tmp_path / 'opencode'} install` "
        "drops its own link"
    )
    assert other.level == "info"


def test_a_skill_a_host_refuses_for_its_yaml_is_told_to_correct_it() -> None:
    """helper-84: doctor's fix for a key given twice said `give …/SKILL.md what it lacks`."""
    from installer.doctor.checks.items import _give
    from installer.links.states import Item
    from installer.sets.resources import Resource

    skill = Resource("skill", "dup", "dup", "dir", "/s/skills/dup", "/s/skills/dup")
    said = "Codex CLI does not load it: its SKILL.md's frontmatter gives `name` twice, which"
    twice = Item(skill, "enabled", "skills/dup", refused=f"{said} YAML refuses")
    lacking = Item(skill, "enabled", "skills/dup", refused="Codex CLI does not load it: its "
                   "SKILL.md has no description in its frontmatter")  # fmt: skip
    assert _give(twice) == "correct the YAML of /s/skills/dup/SKILL.md's frontmatter, as said"
    assert _give(lacking) == "give /s/skills/dup/SKILL.md what it lacks"
