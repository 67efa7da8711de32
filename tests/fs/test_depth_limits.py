"""Depth limits: a very deep set folder or hook file is a usage error (exit 2), not a traceback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from installer.consent.limits import MAX_NESTING
from installer.sets.pipatterns import MAX_DEPTH
from tests.helpers import build_tree, remove_deep


@pytest.fixture(autouse=True)
def quiet_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXT_NO_UPDATE_CHECK", "1")
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.fixture(autouse=True)
def remove_deep_trees(tmp_path: Path) -> Iterator[None]:
    """This test's folders go without recursion (pytest's cleanup would crash on them)."""
    yield
    remove_deep(tmp_path)


def deep_set(tmp_path: Path, levels: int, kind: str = "prompts") -> Path:
    """A set with a prompt (or skill) `levels` folders below its kind's folder."""
    root = build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "deep"\n'})
    folder = root / kind
    folder.mkdir()
    for _ in range(levels):  # one mkdir a level: os.makedirs recurses, too
        folder = folder / "a"
        folder.mkdir()
    (folder / ("SKILL.md" if kind == "skills" else "x.md")).write_text("# x\n")
    return root


def ext(root: Path, agent: Path, *args: str) -> Any:
    return CliRunner().invoke(app, ["--set", str(root), "--agent-dir", str(agent), *args])


@pytest.mark.parametrize("kind", ["prompts", "skills"])
@pytest.mark.parametrize("command", [("install", "--dry-run"), ("list",)])
def test_a_thousand_deep_folder_is_a_usage_error_naming_the_folder_and_the_limit(
    tmp_path: Path, kind: str, command: tuple[str, ...]
) -> None:
    root = deep_set(tmp_path, 1000, kind)
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    result = ext(root, agent, *command)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{root / kind}: folders nest deeper than {MAX_DEPTH} levels" in result.stderr
    assert ".ignore" in result.stderr  # the fix: flatten it, or leave it out as pi does


def test_a_pi_key_glob_into_a_thousand_deep_folder_is_a_usage_error(tmp_path: Path) -> None:
    root = deep_set(tmp_path, 1000)
    (root / "package.json").write_text('{"name": "deep", "pi": {"prompts": ["prompts/**/*.md"]}}')
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    result = ext(root, agent, "list")
    assert result.exit_code == 2, result.output
    assert f"{root / 'prompts'}: folders nest deeper than {MAX_DEPTH} levels" in result.stderr
    assert "narrow the pattern in package.json's pi key" in result.stderr


def test_doctor_names_the_deep_folder_and_no_check_fails(tmp_path: Path) -> None:
    root = deep_set(tmp_path, 1000)
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    result = ext(root, agent, "--json", "doctor", "--check", "set.resources,set.permissions")
    rows = {r["id"]: r for r in json.loads(result.stdout)["checks"]}
    assert rows["set.resources"]["level"] == "error"
    assert f"deeper than {MAX_DEPTH} levels" in rows["set.resources"]["message"]
    assert rows["set.permissions"]["level"] == "ok"


def test_a_prompt_at_the_limit_is_still_found(tmp_path: Path) -> None:
    root = deep_set(tmp_path, MAX_DEPTH - 1)
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    result = ext(root, agent, "--json", "list")
    assert result.exit_code == 0, result.output
    assert [i["name"] for i in json.loads(result.stdout)["items"] if i["kind"] == "prompt"] == ["x"]


def test_an_ignored_deep_folder_is_not_walked(tmp_path: Path) -> None:
    root = deep_set(tmp_path, 1000)
    (root / "prompts" / ".ignore").write_text("a/\n")
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    assert ext(root, agent, "list").exit_code == 0


@pytest.mark.parametrize("name", [".claude/settings.json", ".pi/hooks.json"])
def test_a_hook_file_of_100000_nested_brackets_names_the_file_and_the_limit(
    tmp_path: Path, name: str
) -> None:
    """consent's own depth check (installer/consent/limits.py): an error naming the file."""
    project = build_tree(tmp_path / "proj", {name: "[" * 100_000})
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    for args in (("check",), ("approve", "--dry-run")):
        argv = ["--agent-dir", str(agent), "consent", *args, str(project)]
        result = CliRunner().invoke(app, argv)
        assert result.exit_code == 1, result.output
        assert isinstance(result.exception, SystemExit)  # said, not a traceback
        assert f"{project / name} nests arrays or objects more than {MAX_NESTING}" in result.stderr


def test_brackets_inside_strings_do_not_count(tmp_path: Path) -> None:
    hooks = {"hooks": {"PreToolUse": [{"hooks": [{"command": "echo " + "[" * 200}]}]}}
    project = build_tree(tmp_path / "proj", {".pi/hooks.json": json.dumps(hooks)})
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    result = CliRunner().invoke(app, ["--agent-dir", str(agent), "consent", "check", str(project)])
    assert result.exit_code == 3, result.output  # not approved yet: read, not refused


@pytest.mark.parametrize("where", ["package.json", "extensions/tool/package.json"])
@pytest.mark.parametrize("args", [["list"], ["install", "--dry-run"], ["doctor"]])
def test_a_package_json_of_a_thousand_nested_brackets_is_no_traceback(
    tmp_path: Path, where: str, args: list[str]
) -> None:
    """helper-79: `json.loads` recursed into a set's package.json: a RecursionError
    traceback from `ext list` and `install --dry-run`, nine doctor checks failed to run."""
    deep = "[" * 1000 + "]" * 1000
    text = '{"name": "x", "pi": {"prompts": ["./prompts"]}, "deep": ' + deep + "}"
    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "deep"\n',
            "prompts/p.md": "---\ndescription: x\n---\nhi\n",
            "extensions/tool/index.ts": "export default function () {}\n",
            where: text,
        },
    )
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    result = ext(root, agent, *args)
    assert "Traceback" not in result.output and "RecursionError" not in result.output
    assert not isinstance(result.exception, RecursionError), result.exception
    assert "failed to run" not in result.output
    if where == "package.json" and args[0] != "doctor":
        assert result.exit_code == 2, result.output
        assert "nests arrays or objects more than 64 levels deep" in result.stderr


def test_a_deep_package_json_that_names_no_pi_is_no_manifest_and_no_refusal(
    tmp_path: Path,
) -> None:
    """helper-80: every folder above the set is asked for a pi package: one of a thousand
    `[` that names no "pi" made ext refuse to run anywhere below it."""
    deep = '{"name": "x", "deep": ' + "[" * 1000 + "]" * 1000 + "}"
    root = build_tree(
        tmp_path / "set",
        {"extset.toml": '[set]\nname = "s"\n', "prompts/p.md": "hi\n", "package.json": deep},
    )
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    result = ext(root, agent, "list")
    assert result.exit_code == 0, result.output


def test_a_set_s_own_pi_beside_a_deep_package_json_is_no_traceback(tmp_path: Path) -> None:
    """helper-80: `[host] command = "bin/pi"` reads the package.json above bin/pi for pi's
    version before the set's manifest is read."""
    deep = '{"name": "x", "pi": {}, "deep": ' + "[" * 1000 + "]" * 1000 + "}"
    manifest = '[set]\nname = "s"\n[host]\ncommand = "bin/pi"\n'
    root = build_tree(
        tmp_path / "set",
        {"extset.toml": manifest, "bin/pi": "#!/bin/sh\necho 1.6.0\n", "package.json": deep},
    )
    (root / "bin" / "pi").chmod(0o755)
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    for args in (["list"], ["--json", "doctor"]):
        result = ext(root, agent, *args)
        assert not isinstance(result.exception, RecursionError), result.exception
        assert "Traceback" not in result.output
